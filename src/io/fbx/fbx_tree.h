/* The FBX reader (src/io/fbx/) owns FBX input: the container parsers
 * (binary 6.1-7.7 and ASCII) that yield one generic node tree, the object
 * graph over it, the scene (nodes with the evaluated transform chain),
 * animation, geometry and skinning, and the projection of that scene into
 * a glTF document every command reads. This header is the first stage:
 * the node tree, the same shape for both encodings.
 *
 * Everything lives in the caller's arena. Every size read from the file
 * is checked against the bytes that remain, or against a budget, before
 * anything is allocated; nesting is bounded by ANIM_FBX_MAX_DEPTH. */
#ifndef ANIMSMITH_FBX_TREE_H
#define ANIMSMITH_FBX_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"

/* The first 21 bytes of a binary file (the terminating NUL included). */
#define ANIM_FBX_BINARY_MAGIC "Kaydara FBX Binary  "

/* Deepest node nesting accepted (real files stay under 10). */
#define ANIM_FBX_MAX_DEPTH 64u
/* Default budget for all decoded array payloads of one file together
 * (compressed arrays inflate; ASCII arrays expand). */
#define ANIM_FBX_ARRAY_BUDGET_DEFAULT ((size_t)1024 << 20)

/* Property type codes, as the binary format spells them. The ASCII
 * parser yields 'L' (integer literal), 'D' (any other number), 'S'
 * (quoted string, or a bare word such as Y or T), and for `*N { a: ... }`
 * arrays 'l' (every element an integer literal) or 'd'. */
typedef enum {
    ANIM_FBX_BOOL = 'C',   /* scalar.i: the byte (0/1 for booleans; 6.1 key records store letters) */
    ANIM_FBX_I16 = 'Y',    /* scalar.i */
    ANIM_FBX_I32 = 'I',    /* scalar.i */
    ANIM_FBX_I64 = 'L',    /* scalar.i */
    ANIM_FBX_F32 = 'F',    /* scalar.f (widened exactly) */
    ANIM_FBX_F64 = 'D',    /* scalar.f */
    ANIM_FBX_STRING = 'S', /* bytes/len; arena copy, NUL-terminated */
    ANIM_FBX_RAW = 'R',    /* bytes/len; arena copy (may hold NULs) */
    ANIM_FBX_ARR_BOOL = 'b', /* array: uint8_t */
    ANIM_FBX_ARR_I32 = 'i',  /* array: int32_t */
    ANIM_FBX_ARR_I64 = 'l',  /* array: int64_t */
    ANIM_FBX_ARR_F32 = 'f',  /* array: float */
    ANIM_FBX_ARR_F64 = 'd'   /* array: double */
} anim_fbx_type;

typedef struct anim_fbx_prop {
    char type;               /* anim_fbx_type */
    union {
        int64_t i;
        double f;
    } scalar;
    const char *bytes;       /* S, R: arena copy with a NUL after len */
    size_t len;              /* S, R: byte length */
    const void *array;       /* arrays: count elements of the type above,
                              * naturally aligned, decoded (inflated) */
    uint32_t count;          /* arrays: element count */
} anim_fbx_prop;

typedef struct anim_fbx_node {
    const char *name;        /* record name, NUL-terminated ("Model") */
    anim_fbx_prop *props;
    uint32_t prop_count;
    struct anim_fbx_node *children;
    uint32_t child_count;
    /* True in an ASCII file: where is a line, not a byte offset (so the
     * typed reads below can name the position without the tree). */
    bool where_is_line;
    /* Where the record starts, for messages: a byte offset in a binary
     * file, a 1-based line in an ASCII file. */
    uint64_t where;
} anim_fbx_node;

typedef struct anim_fbx_tree {
    uint32_t version;        /* 6100, 7400, 7500, 7700, ... */
    bool ascii;
    anim_fbx_node root;      /* name "", children = top-level records */
} anim_fbx_tree;

typedef struct anim_fbx_parse_limits {
    size_t array_bytes;      /* 0: ANIM_FBX_ARRAY_BUDGET_DEFAULT */
} anim_fbx_parse_limits;

/* True when the bytes start like an FBX file (binary magic or "; FBX"
 * ASCII header comment, or an ASCII file starting with FBXHeaderExtension
 * after comments/whitespace). */
bool anim_fbx_sniff(const uint8_t *bytes, size_t len);

/* Parses a whole file (binary or ASCII, chosen by the magic). Errors are
 * one line naming the record and its offset or line: "record 'Vertices'
 * at byte 1234: compressed array inflates to 12 bytes, declared 96".
 * The caller prefixes the file path. limits may be NULL. */
int anim_fbx_parse(const uint8_t *bytes, size_t len, anim_arena *arena,
                   const anim_fbx_parse_limits *limits, anim_fbx_tree *out, anim_error *err);

/* The two encodings (anim_fbx_parse dispatches to them). */
int anim_fbx_parse_binary(const uint8_t *bytes, size_t len, anim_arena *arena,
                          size_t array_budget, anim_fbx_tree *out, anim_error *err);
int anim_fbx_parse_ascii(const uint8_t *bytes, size_t len, anim_arena *arena,
                         size_t array_budget, anim_fbx_tree *out, anim_error *err);

/* First child record named name, NULL when absent. */
const anim_fbx_node *anim_fbx_child(const anim_fbx_node *node, const char *name);
/* Number of children named name. */
uint32_t anim_fbx_child_count_named(const anim_fbx_node *node, const char *name);

/* Typed reads of property i of node; each returns -1 with err naming the
 * record ("record 'KeyTime' at byte 88 property 0: expected a number,
 * found a string") when the property is missing or of another kind.
 * Numbers convert between integer and float kinds only when exact. */
int anim_fbx_prop_i64(const anim_fbx_node *node, uint32_t i, int64_t *out, anim_error *err);
int anim_fbx_prop_f64(const anim_fbx_node *node, uint32_t i, double *out, anim_error *err);
int anim_fbx_prop_string(const anim_fbx_node *node, uint32_t i, const char **out, size_t *len,
                         anim_error *err);
/* A numeric array property (any array type, or for ASCII 6.1 files a run
 * of scalar number properties starting at i up to the end) as a fresh
 * arena array of double / int64 with its count. */
int anim_fbx_prop_array_f64(anim_arena *arena, const anim_fbx_node *node, uint32_t i,
                            const double **out, uint32_t *count, anim_error *err);
int anim_fbx_prop_array_i64(anim_arena *arena, const anim_fbx_node *node, uint32_t i,
                            const int64_t **out, uint32_t *count, anim_error *err);
/* True when the n bytes are all printable ASCII (0x21..0x7e): what a
 * record name must be in either encoding, so names can go into one-line
 * messages as they are. */
bool anim_fbx_name_printable(const char *s, size_t n);

/* "record 'Vertices' at byte 1234" / "at line 77", for messages. */
const char *anim_fbx_node_where(const anim_fbx_tree *tree, const anim_fbx_node *node, char *buf,
                                size_t cap);

#endif
