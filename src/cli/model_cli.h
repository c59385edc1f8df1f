/* The model front ends' shared pieces: the host every `animsmith model`
 * subcommand starts (the documented limits, GLB verification by the
 * linter's mechanical checks), the JSON-RPC and MCP servers, and the
 * JSON helpers they share. Each front end only translates: every document
 * lives in the host, behind include/animsmith/model.h. */
#ifndef ANIMSMITH_CLI_MODEL_CLI_H
#define ANIMSMITH_CLI_MODEL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/model.h"
#include "cli.h"

int cmd_model(int argc, char **argv, const cli_globals *globals);

/* A host with the default limits and anim_lint_verify_glb; NULL after
 * printing the operator error. */
anim_model_host *model_host_start(const char *store_path);

/* Serves JSON-RPC 2.0 (mcp false) or the Model Context Protocol (mcp
 * true) over newline-delimited JSON from in to out until EOF. Returns the
 * exit code: 0 at EOF, 2 when out cannot be written. */
int model_serve(anim_model_host *host, FILE *in, FILE *out, bool mcp);

/* One MCP request or notification (already checked to be a JSON-RPC 2.0
 * envelope): the reply text (a whole JSON-RPC response object) into reply,
 * or nothing for a notification. id_json is the request's id as JSON text
 * (NULL for a notification). */
void model_mcp_handle(anim_model_host *host, const char *method, const anim_json_value *params,
                      const char *text, const char *id_json, anim_strbuf *reply);

/* Writes v (parsed from text) as the next value of w, number literals as
 * they were written and members in source order. */
void model_json_copy(anim_json_writer *w, const anim_json_value *v, const char *text);

/* The members of a fault as the JSON-RPC error object {"code","message",
 * "data":{"kind", ...fault.data members}} written as the next value of w. */
void model_fault_write(anim_json_writer *w, const anim_model_fault *fault);

#endif
