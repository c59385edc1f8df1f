/* Private to the glTF writer: the output JSON as a small tree, built in
 * any order and written with every object's keys sorted byte-wise. Sorting
 * at the end, rather than writing keys in hand-sorted order, is what lets
 * the writer carry over objects it does not interpret (extras, extensions,
 * materials) with the same key order rule as everything it builds. */
#ifndef ANIMSMITH_GLTF_OUT_H
#define ANIMSMITH_GLTF_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"

/* Deepest copied value: the streaming writer's own bound, less the levels
 * the document itself uses above an extras value. */
#define GOUT_MAX_COPY_DEPTH 96

typedef enum { GOUT_NULL, GOUT_BOOL, GOUT_INT, GOUT_UINT, GOUT_F64, GOUT_STRING, GOUT_ARRAY,
               GOUT_OBJECT } gout_type;

typedef struct gout gout;
typedef struct gout_member {
    const char *key;
    size_t key_len;
    gout *value;
} gout_member;

struct gout {
    gout_type type;
    uint32_t count, cap; /* array items / object members */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f;
        struct {
            const char *s;
            size_t len;
        } str;
        gout **items;
        gout_member *members;
    } v;
};

/* Constructors return NULL on out of memory; every adder accepts a NULL
 * value or container and then reports failure through gout_failed, so a
 * builder checks once at the end. */
typedef struct gout_builder {
    anim_arena *arena;
    bool failed;
} gout_builder;

gout *gout_object(gout_builder *b);
gout *gout_array(gout_builder *b);
gout *gout_uint(gout_builder *b, uint64_t v);
gout *gout_f64(gout_builder *b, double v);
gout *gout_bool(gout_builder *b, bool v);
/* The string is not copied: it must outlive the tree. */
gout *gout_string_n(gout_builder *b, const char *s, size_t len);
gout *gout_string(gout_builder *b, const char *s);
/* Deep copy of a parsed JSON value (strings and keys are shared). Numbers
 * keep their kind: integer literals stay integers, others are binary64. */
gout *gout_copy(gout_builder *b, const anim_json_value *v);

/* Sets key in obj, replacing an existing member of that name. */
void gout_set(gout_builder *b, gout *obj, const char *key, gout *value);
void gout_remove(gout *obj, const char *key);
gout *gout_get(const gout *obj, const char *key);
void gout_push(gout_builder *b, gout *arr, gout *value);
/* Puts obj's members in the order they are written (sorted keys), for a
 * walk whose side effects must not depend on the source's key order. */
void gout_sort_members(gout *obj);

/* Writes v with sorted keys. False when the writer was misused (a copied
 * value nested deeper than it allows). */
bool gout_write(anim_json_writer *w, const gout *v);

#endif
