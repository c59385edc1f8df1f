/* Shared helpers for the unit tests (linked into every tests/unit program):
 * base64, the example assets and contracts, a small in-memory .gltf
 * builder (nodes, float accessors with one buffer view each, animations
 * whose channels name accessors), and running the lint with a selection
 * and finding records in its result. Every helper fails the current
 * cmocka test with a message instead of returning an error, so tests
 * read as straight-line assertions. Include after <cmocka.h>'s
 * prerequisites (setjmp.h, stdarg.h, stddef.h, stdint.h). */
#ifndef ANIMSMITH_TEST_SUPPORT_H
#define ANIMSMITH_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/lint.h"
#include "animsmith/strbuf.h"

/* ---- base64 ---------------------------------------------------------- */

/* Appends the standard padded base64 of n bytes. */
void test_support_base64_append(anim_strbuf *out, const void *data, size_t n);
/* The same as a malloc'd NUL-terminated string (the caller frees it). */
char *test_support_base64(const void *data, size_t n);

/* ---- the example assets and contracts -------------------------------- */

/* $ANIMSMITH_SOURCE_DIR when set and non-empty, else ".". */
const char *test_support_source_dir(void);
/* examples/assets/<name> under the source dir. */
anim_asset *test_support_load_example(const char *name);
/* examples/<name> under the source dir. */
anim_config *test_support_config_example(const char *name);
/* A contract from TOML text (display path "t.toml"). */
anim_config *test_support_config_text(const char *toml);
/* The built-in default contract. */
anim_config *test_support_config_default(void);

/* A track over caller-owned times and values (elements: values of
 * components floats each, 4 for rotation and 3 otherwise), bone 0. */
anim_track test_support_track(anim_path path, anim_interp interp, const float *times,
                              uint32_t keys, const float *values, uint32_t elements);

/* ---- loading a document from memory ------------------------------------ */

/* Loads .gltf JSON text (no base dir); on failure the test fails with the
 * loader's message and the text. */
anim_asset *test_support_load_gltf(const char *json, size_t len, const char *display_path);

/* ---- a small .gltf builder -------------------------------------------- */

typedef struct test_support_gltf test_support_gltf;

/* Which rest transforms a node writes (the others are left out). */
enum { TEST_SUPPORT_T = 1, TEST_SUPPORT_R = 2, TEST_SUPPORT_S = 4 };

/* Rest values that are exact f32 numbers are written with 9 significant
 * digits, as f32 exporters write them; any other double with 17, so it
 * reads back unchanged. */
typedef struct {
    const char *name; /* NULL: no "name" */
    int parent;       /* -1: a scene root; parents precede children */
    unsigned has;     /* TEST_SUPPORT_T | TEST_SUPPORT_R | TEST_SUPPORT_S */
    double t[3];      /* translation */
    double r[4];      /* rotation, xyzw */
    double s[3];      /* scale */
} test_support_node;

/* Accessor flags. */
enum { TEST_SUPPORT_BOUNDS = 1 }; /* write min/max (SCALAR accessors only) */

test_support_gltf *test_support_gltf_new(void);
void test_support_gltf_free(test_support_gltf *g);
/* Leaves out "scene" and "scenes" (they are written by default). */
void test_support_gltf_no_scene(test_support_gltf *g);
/* Appends a node and returns its index. */
int test_support_gltf_node(test_support_gltf *g, const test_support_node *node);
void test_support_gltf_nodes(test_support_gltf *g, const test_support_node *nodes, int count);
/* Appends count elements of type ("SCALAR", "VEC3", "VEC4") to the one
 * buffer, gives them their own buffer view and returns the accessor
 * index (accessors and views are numbered alike, in call order). */
int test_support_gltf_accessor(test_support_gltf *g, const float *data, uint32_t count,
                               const char *type, unsigned flags);
/* Starts an animation (name NULL: unnamed); channels go to the last one. */
void test_support_gltf_animation(test_support_gltf *g, const char *name);
/* Adds sampler (input, output, interp; interp NULL leaves the key out)
 * and a channel on node.path driven by it. */
void test_support_gltf_channel(test_support_gltf *g, int node, const char *path, int input,
                               int output, const char *interp);
/* One keyed track: a times accessor, a values accessor (keys, or 3*keys
 * for CUBICSPLINE, elements of VEC4 for "rotation", else VEC3) and the
 * channel. flags apply to the times accessor. */
void test_support_gltf_track(test_support_gltf *g, int node, const char *path,
                             const char *interp, uint32_t keys, const float *times,
                             const float *values, unsigned flags);
/* The document as JSON text (owned by g, valid until the next change). */
const char *test_support_gltf_json(test_support_gltf *g, size_t *len);
/* Loads the document (see test_support_load_gltf). */
anim_asset *test_support_gltf_load(test_support_gltf *g, const char *display_path);

/* ---- running the lint -------------------------------------------------- */

/* anim_lint_run with --select of ids (count 0: every check). */
void test_support_lint(const anim_asset *a, const anim_config *cfg, const char *const *ids,
                       size_t count, anim_lint_file *out);
/* Runs only check id and returns its record; every other record must be
 * silent (no findings, gaps or scopes). */
const anim_check_record *test_support_lint_only(const anim_asset *a, const anim_config *cfg,
                                                const char *id, anim_lint_file *out);
/* The record of check id (the test fails when there is none). */
const anim_check_record *test_support_record(const anim_lint_file *f, const char *id);
/* Finding i of check id (the test fails when there is none). */
const anim_finding *test_support_finding(const anim_lint_file *f, const char *id, uint32_t i);

/* ---- record assertions ------------------------------------------------- */

/* got equals want, both NULL or both the same text. */
void test_support_expect_str(const char *got, const char *want);
/* Selected, enabled, applicable as given, evaluation ev and the counts. */
void test_support_expect_state(const anim_check_record *r, bool applicable, anim_evaluation ev,
                               uint32_t findings, uint32_t scopes, uint32_t gaps);
void test_support_expect_scope(const anim_scope *s, const char *code, const char *subject);
/* scope_code NULL: the gap has no scope. */
void test_support_expect_gap(const anim_gap *g, const char *code, const char *scope_code,
                             const char *subject, const char *message);

#endif
