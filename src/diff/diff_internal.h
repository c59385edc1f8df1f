/* Private to diff: clip and member names as (pointer, length) pairs (JSON
 * strings may hold NUL) ordered byte-wise, shorter first on a tie; which
 * report contracts diff reads and what each measurements version carries;
 * and the path-tracking field readers the measurement validators share. */
#ifndef ANIMSMITH_DIFF_INTERNAL_H
#define ANIMSMITH_DIFF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/error.h"
#include "animsmith/json.h"

typedef struct name_ref {
    const char *s;
    size_t len;
    const anim_json_value *value; /* the member's value, when from an object */
} name_ref;

int diff_name_cmp(const name_ref *a, const name_ref *b);
/* qsort comparator over name_ref. */
int diff_name_qsort(const void *a, const void *b);

/* ---- contract versions (diff_contracts.c) ---- */

/* Facts a measurements version may or may not carry. Each one is the
 * reason a historical record has a different shape from the current one. */
typedef enum diff_feature {
    DIFF_F_PRIMITIVES,            /* mesh_definitions[].primitives */
    DIFF_F_LEADING_MAGIC,         /* images[].leading_magic_hex */
    DIFF_F_LOOP_ROW_AVAILABILITY, /* loop_continuity.bones[].availability */
    DIFF_F_LINEAR_ROTATION,       /* rotation_xyzw in linear-transform facts */
    DIFF_F_COUNT
} diff_feature;

/* Whether measurements version mv carries feature f. */
bool diff_has(int mv, diff_feature f);
/* For an unknown field named key: the first measurements version that
 * carries a field of that name, or 0 (used to word a refusal). */
int diff_field_since(const char *key, size_t len);
/* The report contracts that carry measurements version mv, as text
 * ("output-v13 to output-v17"); false when no contract diff reads does. */
bool diff_outputs_for(int mv, char *buf, size_t cap);
/* Lowest measurements version diff validates (older ones are never
 * paired with a report contract it reads). */
#define DIFF_OLDEST_MEASUREMENTS 15

/* ---- validation context (diff_vctx.c) ---- */

typedef struct vctx {
    anim_error *err;
    int version; /* measurements version being validated */
    char path[768];
    size_t len;
} vctx;

enum { AV_MEASURED = 0, AV_NOT_APPLICABLE = 1, AV_UNAVAILABLE = 2 };
extern const char *const DIFF_AVAIL[3];

/* Appends to the field path; returns the length to restore with dv_pop. */
size_t dv_push(vctx *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void dv_pop(vctx *v, size_t old);
/* "measurement structure {path} is invalid: {reason}"; returns -1. */
int dv_bad(vctx *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Rejects members outside the closed key set (the contract has no
 * extension points in these records). */
int dv_check_keys(vctx *v, const anim_json_value *obj, const char *const *keys, size_t n);
int dv_want_object(vctx *v, const anim_json_value *x);
int dv_want_array(vctx *v, const anim_json_value *x);
/* A member that must be present (NULL and error otherwise). */
const anim_json_value *dv_required(vctx *v, const anim_json_value *obj, const char *key);
/* The finite number at x (v->path names it). */
int dv_number_value(vctx *v, const anim_json_value *x, double *out);
int dv_number_field(vctx *v, const anim_json_value *obj, const char *key, bool nonneg,
                    double *out);
/* An array of exactly n finite numbers at obj.key. */
int dv_numbers_field(vctx *v, const anim_json_value *obj, const char *key, size_t n,
                     double *out);
/* A non-negative integer (1, 1.0 and 1e0 are the same number). */
int dv_uint_value(vctx *v, const anim_json_value *x, uint64_t *out);
int dv_uint_field(vctx *v, const anim_json_value *obj, const char *key, uint64_t *out);
int dv_string_field(vctx *v, const anim_json_value *obj, const char *key);
/* Index of the string member key in names[n], or -1 with err set. */
int dv_enum_field(vctx *v, const anim_json_value *obj, const char *key, const char *const *names,
                  size_t n);
/* The pair {field?, avail_key}: value present iff measured. allow_na
 * false for facts that are never not_applicable. *value receives the
 * field (NULL unless measured). */
int dv_avail_pair(vctx *v, const anim_json_value *obj, const char *field, const char *avail_key,
                  bool allow_na, const anim_json_value **value);

/* ---- the two halves of a measurement record ---- */

/* One clip record (diff_validate.c). */
int diff_validate_clip(vctx *v, const anim_json_value *clip);
/* The static asset evidence: meshes, nodes, scenes, skins, materials,
 * textures, images (diff_validate_asset.c). */
int diff_validate_asset(vctx *v, const anim_json_value *m);

#endif
