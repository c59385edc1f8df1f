/* Private to the glTF reader: typed access to the JSON tree with errors that
 * name the glTF object ("accessor 3: ..."), and the loader stages. */
#ifndef ANIMSMITH_GLTF_INTERNAL_H
#define ANIMSMITH_GLTF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "animsmith/gltf.h"
#include "io/file_read.h"

/* Largest glTF array we accept (nodes, accessors, ...): bounds memory for
 * per-index tables before anything is allocated. */
#define GLTF_MAX_ARRAY 16000000u


/* The object being read, for messages: "accessor 3", "mesh 0 primitive 1". */
typedef struct {
    const char *what;
} gltf_ctx;

/* The helpers below read one property of a JSON object. Those reading
 * integers take the JSON text (src->json_text): the tree keeps numbers as
 * values only, and an integer is read from its literal so that values past
 * 2^53 are exact and a refused one is quoted exactly as written. */

/* Top-level array member (NULL when absent; error when not an array). */
int gltf_get_array(const anim_json_value *obj, const char *key, const char *ctx,
                   const anim_json_value **out, anim_error *err);
/* Required/optional non-negative integer index fitting uint32 (< limit). */
int gltf_get_index(const char *text, const anim_json_value *obj, const char *key,
                   const char *ctx, bool required, uint32_t limit, const char *target,
                   uint32_t *out, anim_error *err);
/* Non-negative integer up to UINT64_MAX read from the literal text, so an
 * absurd byteOffset is reported exactly as written. */
int gltf_get_u64(const char *text, const anim_json_value *obj, const char *key,
                 const char *ctx, bool required, uint64_t dflt, uint64_t *out,
                 anim_error *err);
/* Optional string as a NUL-terminated arena copy (NULL when absent);
 * refused when it is not a string or holds U+0000. */
int gltf_get_string(anim_arena *arena, const anim_json_value *obj, const char *key,
                    const char *ctx, const char **out, anim_error *err);
/* The same checks without the copy, for strings only compared. */
int gltf_get_string_value(const anim_json_value *obj, const char *key, const char *ctx,
                          const anim_json_value **out, anim_error *err);
int gltf_get_bool(const anim_json_value *obj, const char *key, const char *ctx, bool dflt,
                  bool *out, anim_error *err);
/* Fixed-length array of numbers (n entries) into out; absent leaves out. */
int gltf_get_numbers(const anim_json_value *obj, const char *key, const char *ctx, size_t n,
                     double *out, bool *present, anim_error *err);

/* Value forms of the readers above, for loops that walk an object's
 * members once: v is the member's value (NULL when absent), key names it
 * in messages. Same checks and messages as the lookup forms. */
int gltf_value_u64(const char *text, const anim_json_value *v, const char *key,
                   const char *ctx, bool required, uint64_t dflt, uint64_t *out,
                   anim_error *err);
int gltf_value_index(const char *text, const anim_json_value *v, const char *key,
                     const char *ctx, bool required, uint32_t limit, const char *target,
                     uint32_t *out, anim_error *err);
int gltf_value_string(const anim_json_value *v, const char *key, const char *ctx,
                      anim_error *err);
int gltf_value_bool(const anim_json_value *v, const char *key, const char *ctx, bool dflt,
                    bool *out, anim_error *err);
int gltf_value_numbers(const anim_json_value *v, const char *key, const char *ctx, size_t n,
                       double *out, bool *present, anim_error *err);
int gltf_value_array(const anim_json_value *v, const char *key, const char *ctx,
                     anim_error *err);
/* Non-negative integer JSON value below limit (array entries like
 * "children" or "joints"); false otherwise. */
bool gltf_small_index(const anim_json_value *v, uint64_t limit, uint32_t *out);
/* A string value equal to the C string s. */
static inline bool gltf_str_eq(const anim_json_value *v, const char *s, size_t n)
{
    return v->len == n && memcmp(v->u.string, s, n) == 0;
}
int gltf_require_object(const anim_json_value *v, const char *ctx, anim_error *err);

/* Writes prefix and the decimal index at out (cap bytes): snprintf("%s%u")
 * without its cost, since a context is formatted for every object but only
 * read when an error names one. Returns out. */
char *gltf_format_ctx(char *out, size_t cap, const char *prefix, uint32_t index);

/* ---- records of the large arrays, read from the JSON text (gltf_scan.c)
 *
 * The scanner stores what it read without judging it (an index may be out
 * of range, a required property missing): the stages check the records in
 * the reference order and, at the first fault, rerun the tree-based path,
 * whose messages are the contract. Values are kept only when they were
 * plain integer literals; anything else made the scanner decline. */
enum { VR_BUFFER = 1, VR_OFFSET = 2, VR_LENGTH = 4, VR_STRIDE = 8 };
typedef struct {
    uint64_t buffer, byte_offset, byte_length, byte_stride;
    uint8_t has; /* VR_* */
} gltf_view_rec;

enum {
    AR_VIEW = 1, AR_OFFSET = 2, AR_CTYPE = 4, AR_COUNT = 8, AR_TYPE = 16, AR_NORMALIZED = 32,
    AR_MIN = 64, AR_MAX = 128
};
typedef struct {
    uint64_t buffer_view, byte_offset, component_type, count;
    uint32_t min_at, max_at; /* into gltf_scan.numbers */
    uint8_t has;             /* AR_* */
    uint8_t type;            /* gltf_accessor_type_code, 0 when absent */
    uint8_t normalized;
    uint8_t min_n, max_n;    /* numbers in min / max */
} gltf_accessor_rec;

enum { SR_INPUT = 1, SR_OUTPUT = 2 };
typedef struct {
    uint64_t input, output;
    uint8_t has;    /* SR_* */
    uint8_t interp; /* 0 absent, else 1 + anim_interp */
} gltf_sampler_rec;

enum { CR_SAMPLER = 1, CR_TARGET = 2, CR_NODE = 4, CR_PATH = 8 };
typedef struct {
    uint64_t sampler, node;
    uint8_t has;  /* CR_* */
    uint8_t path; /* 0 absent, else 1 + anim_path */
} gltf_channel_rec;

enum { AN_NAME = 1, AN_SAMPLERS = 2, AN_CHANNELS = 4 };
typedef struct {
    const char *name; /* raw bytes in the JSON text (no escapes) */
    size_t name_len;
    size_t first_sampler, sampler_count; /* into gltf_scan.samplers */
    size_t first_channel, channel_count; /* into gltf_scan.channels */
    uint8_t has;                         /* AN_* */
} gltf_anim_rec;

typedef struct gltf_scan {
    /* True when the hook consumed the array (its tree value is deferred). */
    bool views_done, accessors_done, anims_done;
    gltf_view_rec *views;
    size_t views_count, views_cap;
    gltf_accessor_rec *accessors;
    size_t accessors_count, accessors_cap;
    double *numbers;
    size_t numbers_count, numbers_cap;
    gltf_anim_rec *anims;
    size_t anims_count, anims_cap;
    gltf_sampler_rec *samplers;
    size_t samplers_count, samplers_cap;
    gltf_channel_rec *channels;
    size_t channels_count, channels_cap;
} gltf_scan;

/* For tests and fuzzers only: when true, loads read the large arrays from
 * the JSON tree (the reference path) instead of the scan records, so the
 * two can be compared. Process-wide; leave false in real use. */
extern bool gltf_tree_only;

/* The json_member_hook (json_internal.h) for the glTF root; user is a
 * zeroed gltf_scan, released with gltf_scan_free. */
bool gltf_scan_hook(void *user, const char *key, size_t key_len, const char *text, size_t len,
                    size_t at, size_t *end, uint32_t *count);
void gltf_scan_free(gltf_scan *sc);
/* 1 + index of an accessor type name ("SCALAR" ... "MAT4"), 0 if unknown. */
int gltf_accessor_type_code(const char *name, size_t len);

/* Stages, in load order. The two that read the large arrays take the scan
 * records (NULL: read the tree). */
int gltf_parse_extensions(anim_source *src, anim_arena *arena, anim_error *err);
int gltf_resolve_buffers(anim_source *src, anim_arena *arena, const char *base_dir,
                         const anim_load_options *opts, anim_error *err);
int gltf_parse_views_and_accessors(anim_source *src, anim_arena *arena, const gltf_scan *scan,
                                   anim_error *err);
int gltf_build_skeleton(const anim_source *src, anim_arena *arena, anim_doc *doc,
                        anim_error *err);
int gltf_build_assets(const anim_source *src, anim_arena *arena, anim_doc *doc,
                      anim_error *err);
int gltf_build_clips(const anim_source *src, anim_arena *arena, anim_doc *doc,
                     const gltf_scan *scan, anim_error *err);
/* Sets every clip's name from the base names already set on doc->clips:
 * distinct, in file order (the rule is at the top of gltf_clip_names.c). */
int gltf_name_clips(anim_arena *arena, anim_doc *doc, anim_error *err);

/* Accessor layout: verifies that every element (dense and sparse) lies
 * inside its buffer view and the resolved buffer bytes. ctx names the user
 * ("mesh 0 primitive 0 POSITION", "clip 'walk' node 3 sampler input"). */
int gltf_accessor_check_layout(const anim_source *src, uint32_t accessor, const char *ctx,
                               anim_error *err);
/* Refuses (LIMIT, naming ctx, the accessor and the implicit-accessor
 * budget) an accessor without a buffer view whose count x components x
 * value_bytes exceeds the budget: its size comes from a number, not from
 * file bytes. value_bytes is the size each value is decoded to (4 for the
 * float decoder, 8 for the f64 reader). 0 for buffer-backed accessors. */
int gltf_accessor_check_implicit(const anim_source *src, uint32_t accessor, size_t value_bytes,
                                 const char *ctx, anim_error *err);
/* Bytes of one element, with glTF's column padding for matrices of 1- and
 * 2-byte components. */
size_t gltf_accessor_element_size(const anim_accessor *a);
/* Decodes an accessor to floats (normalized integers per glTF rules, sparse
 * applied). May return a pointer into the buffer when the data is already
 * tightly packed little-endian floats (borrowed = true). */
const float *gltf_accessor_floats(const anim_source *src, anim_arena *arena,
                                  uint32_t accessor, bool *borrowed, anim_error *err);

/* Splits a data: URI; returns true when uri is a base64 data URI. */
bool gltf_data_uri_payload(const char *uri, const char **payload, size_t *payload_len,
                           const char **mime, size_t *mime_len);
/* Resolves a relative URI reference to a path under base_dir: percent-
 * decodes, refuses absolute paths, schemes and (when confine) ".." that
 * leaves base_dir, or a resolved real path (symbolic links followed)
 * outside the real path of base_dir. Returns an arena path (base_dir "/"
 * decoded reference, not the real path) or NULL with err set. */
char *gltf_resolve_uri_path(anim_arena *arena, const char *base_dir, const char *uri,
                            bool confine, const char *ctx, anim_error *err);

/* An image's encoded bytes (gltf_image_payload.c): borrowed from a
 * buffer, or owned (malloc) when decoded from a data URI or read from a
 * file; the data URI's media type when it had one. */
typedef struct gltf_image_payload {
    const uint8_t *bytes;
    size_t len;
    uint8_t *owned; /* free() it */
    const char *uri_mime;
    size_t uri_mime_len;
} gltf_image_payload;

typedef enum {
    GLTF_IMAGE_OK,
    GLTF_IMAGE_UNAVAILABLE,  /* no such view or file, unreadable, not confined */
    GLTF_IMAGE_TOO_LARGE,    /* over max_bytes (or out of memory) */
    GLTF_IMAGE_BAD_DATA_URI  /* not a base64 data URI, or malformed */
} gltf_image_status;

/* Reads image img (uri: its JSON uri, NULL when absent) of at most
 * max_bytes. Any status but OK also sets why, naming ctx ("image 3"). */
gltf_image_status gltf_image_payload_read(const anim_source *src, const anim_image *img,
                                          const char *uri, size_t max_bytes, anim_arena *tmp,
                                          gltf_image_payload *p, const char *ctx,
                                          anim_error *why);

/* "image/png", "image/jpeg", "image/webp" or "image/ktx2" by the bytes'
 * signature; NULL for anything else. */
const char *gltf_image_sniff_mime(const uint8_t *p, size_t n);

/* The same, but maps the file read-only when it can (recording the mapping
 * on *maps for gltf_unmap_all) and reads it otherwise. The data is not
 * NUL-terminated. */
int gltf_map_file(const char *path, size_t max_bytes, anim_arena *arena,
                  struct anim_file_mapping **maps, const uint8_t **data, size_t *len,
                  anim_error *err);
/* Prefaults data[0, len) of a mapping (advice only; harmless on arena
 * memory). */
void gltf_prefetch(const void *data, size_t len);
void gltf_unmap_all(struct anim_file_mapping *maps);
/* Asks for transparent huge pages on the 2 MiB-aligned interior of a large
 * fresh block (advice only). Why: the tables of a large library (hundreds
 * of thousands of accessors, views, tracks) are tens of MB written once,
 * and taking them in 4 KiB page faults cost a third of the load. */
void gltf_advise_huge(void *base, size_t size);
/* anim_arena_calloc with that advice, for the big per-file tables. */
void *gltf_table_calloc(anim_arena *arena, size_t count, size_t size);

#endif
