/* Private to the lint run: what the clip pass (src/lint/clip_pass.c)
 * shares with the rest of one file's run (src/lint/run.c) and with the
 * recording helpers (src/lint/record.c). */
#ifndef ANIMSMITH_LINT_RUN_INTERNAL_H
#define ANIMSMITH_LINT_RUN_INTERNAL_H

#include <stdbool.h>

#include "animsmith/lint.h"

/* Frees the context's cached metric grid, if any. */
void anim_lint_grid_release(anim_lint_context *ctx);

/* Fresh scratch for the next unit of work (one clip, one check); the
 * cached clip facts keep rows in the scratch, so they go with it. */
int anim_lint_scratch_reset(anim_lint_context *ctx, anim_error *err);

/* Frees the scratch and forgets what lived in it (the clip facts' rows,
 * the checks' memo); scratch is NULL after. */
void anim_lint_scratch_drop(anim_lint_context *ctx);

/* Whether the run judges def clip by clip (a catalog entry without an
 * evaluation reports its one gap once, with the whole-document checks). */
bool anim_lint_per_clip(const anim_check_def *def);

/* Runs one check into rec; on failure err names the check. */
int anim_lint_evaluate(anim_lint_context *ctx, const anim_check_def *def,
                       anim_check_record *rec, anim_error *err);

/* err as a failed check leaves it (out of memory unless the check said
 * more); returns -1. */
int anim_lint_check_failed(const anim_check_def *def, anim_error *err);

/* The clip pass over every clip of ctx->doc: the active per-clip checks
 * append to out->records, the gathers and clip_done see each clip, and
 * out->sha256_hex gets the digest of the file's bytes. On the caller's
 * thread, or on par->workers clip workers (par may be NULL). */
int anim_lint_clip_pass(anim_lint_context *ctx, anim_lint_file *out, const bool *active,
                        const anim_lint_options *opts, const anim_lint_parallel *par,
                        anim_error *err);

/* Appends src's findings, scopes and gaps after dst's (the strings are
 * shared, not copied). Returns 0, or -1 on allocation failure (dst is then
 * unchanged). */
int anim_lint_record_append(anim_check_record *dst, const anim_check_record *src);

/* Closes a prediction-bearing record after its check ran: facets beyond
 * the shared budget become one subjectless facet_budget marker. */
int anim_lint_facets_finish(anim_lint_context *ctx, anim_check_record *rec);

/* Frees a record's arrays (not its strings, which live in an arena). */
void anim_lint_record_release(anim_check_record *rec);

#endif
