/* The CLI's shared pieces: the command table, output delivery and the
 * operator-error convention (animsmith: <message> on stderr, exit 2). */
#ifndef ANIMSMITH_CLI_H
#define ANIMSMITH_CLI_H

#include <stdbool.h>

#include "animsmith/error.h"
#include "animsmith/report.h"
#include "animsmith/strbuf.h"
#include "args.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_OPERATOR = 2 };

typedef struct cli_globals {
    const char *config_path; /* --config FILE, wherever it appeared */
} cli_globals;

/* Prints "animsmith: <message>" (escaped for the terminal) and returns 2. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
int cli_operator_error(const char *fmt, ...);

/* The contract for a command: --config FILE, else ./animsmith.toml when
 * present, else the defaults. On failure prints the operator error, sets
 * *rc to 2 and returns NULL. */
struct anim_config *cli_config(const cli_globals *globals, int *rc);

/* Loads an asset under the contract's [limits] budgets (cfg may be NULL:
 * the defaults), so a budget raised in animsmith.toml applies to every
 * command alike. Errors name the file. */
struct anim_asset *cli_load_asset(const char *path, const struct anim_config *cfg,
                                  anim_error *err);

/* Writes the buffer to stdout in one go. A closed or full stdout does not
 * change the exit code of work that was done (docs/cli.md: exit codes). */
void cli_deliver(const anim_strbuf *out);

/* The same for a report whose n file records were not copied in: out is
 * written with record i inserted at offset splice_at[i], the record read
 * from the spool when it went there, else from fragments[i]. */
struct cli_spool;
/* Returns -1 (after printing the operator error) when the report could
 * not be rendered or a spooled record could not be read back: the report
 * is then missing or incomplete and the run must fail; 0 otherwise, a
 * failing stdout included (see cli_deliver). */
int cli_deliver_spliced(const anim_strbuf *out, const anim_strbuf *fragments,
                        const size_t *splice_at, size_t n, const struct cli_spool *spool);

/* `--format text|json` for the commands that print text by default: sets
 * *json, or prints the operator error and returns 2. */
int cli_text_or_json(const char *value, bool *json);

/* A stored JSON report's bytes (NUL-terminated, in the arena): a regular
 * file of at most max_bytes (over_hint, may be NULL, is appended to that
 * refusal). On failure prints the operator error and returns NULL. */
char *cli_read_report(const char *path, size_t max_bytes, const char *over_hint,
                      struct anim_arena *arena, size_t *len);

/* True when argv[i] is -h or --help. */
bool cli_is_help(const char *arg);

/* The contract names the inputs lack (config.h anim_contract_usage), as
 * "animsmith: warning: ..." lines on stderr: advice that changes neither
 * stdout nor the exit code. usages[i] belongs to files->items[i] (a file
 * that failed to load has an empty one). */
void cli_warn_contract(const struct anim_config *cfg, const cli_list *files,
                       const struct anim_contract_usage *usages);
void cli_free_usages(struct anim_contract_usage *usages, size_t n);

/* Refuses (operator error, 2) an output that is one of the files the
 * command read: any of the assets' own files (labels[i] names asset i in
 * the message: "input", "before input") or the config. 0 when it is none. */
struct anim_asset;
int cli_check_destination(const struct anim_asset *const *assets, const char *const *labels,
                          size_t n, const struct anim_config *cfg, const char *out);

/* "wrote OUT (N node(s), N clip(s), N mesh(es) / N position(s), N
 * material(s)); dropped N clip(s) with no writable tracks\n" into msg:
 * what transform and convert print after the whole-document writer. */
struct anim_gltf_write_summary;
void cli_write_summary_line(const char *out, const struct anim_gltf_write_summary *s,
                            struct anim_strbuf *msg);

/* The tool identity JSON envelopes carry (version, revision, dirty). */
void cli_tool_info(anim_tool_info *tool);

int cmd_inspect(int argc, char **argv, const cli_globals *globals);
int cmd_fix(int argc, char **argv, const cli_globals *globals);
int cmd_transform(int argc, char **argv, const cli_globals *globals);
int cmd_report(int argc, char **argv, const cli_globals *globals);
int cmd_convert(int argc, char **argv, const cli_globals *globals);
int cmd_mesh_quality(int argc, char **argv, const cli_globals *globals);
int cmd_lint(int argc, char **argv, const cli_globals *globals);
int cmd_measure(int argc, char **argv, const cli_globals *globals);
int cmd_diff(int argc, char **argv, const cli_globals *globals);
int cmd_checks(int argc, char **argv, const cli_globals *globals);
/* generate: addressability, import-advice (cmd_generate.c dispatches). */
int cmd_generate(int argc, char **argv, const cli_globals *globals);
int cmd_generate_import_advice(int argc, char **argv, const cli_globals *globals);

#endif
