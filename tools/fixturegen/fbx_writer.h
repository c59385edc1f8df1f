/* A small FBX writer for the example-asset generator: recipes build one
 * generic record tree (names, typed properties, children) and the tree is
 * written as binary FBX 7.4 (32-bit record headers) or 7.5+ (64-bit),
 * with arrays above a size deflated as exporters do, or as ASCII FBX.
 *
 * The output is a pure function of the tree: no timestamps, no file ids,
 * and our own deflate encoder (fixed Huffman codes, greedy matching), so
 * the bytes do not depend on the zlib build of the machine that runs the
 * generator. Allocation failure ends the program, as elsewhere in the
 * generator. */
#ifndef ANIMSMITH_FIXTUREGEN_FBX_WRITER_H
#define ANIMSMITH_FIXTUREGEN_FBX_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/error.h"

typedef struct fbxw_doc fbxw_doc;
typedef struct fbxw_node fbxw_node;

typedef struct fbxw_format {
    uint32_t version;          /* 7400, 7500, ... (the header and record width) */
    bool ascii;
    /* Binary: arrays of at least this many bytes are written deflated
     * (encoding 1); 0 never compresses. */
    size_t compress_min_bytes;
    const char *comment;       /* ASCII: one extra "; ..." header line, or NULL */
} fbxw_format;

fbxw_doc *fbxw_new(void);
void fbxw_free(fbxw_doc *d);

/* A top-level record / a child record, appended in order (a record
 * without properties is written as a block). */
fbxw_node *fbxw_top(fbxw_doc *d, const char *name);
fbxw_node *fbxw_child(fbxw_node *parent, const char *name);
/* Marks a record that is written with a (possibly empty) child block:
 * ASCII braces, binary end-of-children sentinel. Records with children
 * or without properties are blocks anyway. */
fbxw_node *fbxw_block(fbxw_node *n);

/* Scalar properties, appended; each returns n for chaining. */
fbxw_node *fbxw_c(fbxw_node *n, char v);       /* 'C' (ASCII: bare letter) */
fbxw_node *fbxw_i(fbxw_node *n, int32_t v);    /* 'I' */
fbxw_node *fbxw_l(fbxw_node *n, int64_t v);    /* 'L' */
fbxw_node *fbxw_d(fbxw_node *n, double v);     /* 'D' */
fbxw_node *fbxw_s(fbxw_node *n, const char *s); /* 'S' */
/* An object name: binary "name\0\1Class", ASCII "Class::name". */
fbxw_node *fbxw_objname(fbxw_node *n, const char *cls, const char *name);

/* Array properties (the values are copied). */
fbxw_node *fbxw_ad(fbxw_node *n, const double *v, uint32_t count);
fbxw_node *fbxw_af(fbxw_node *n, const float *v, uint32_t count);
fbxw_node *fbxw_ai(fbxw_node *n, const int32_t *v, uint32_t count);
fbxw_node *fbxw_al(fbxw_node *n, const int64_t *v, uint32_t count);

/* Shorthands: a child record with one property. */
fbxw_node *fbxw_child_i(fbxw_node *parent, const char *name, int32_t v);
fbxw_node *fbxw_child_d(fbxw_node *parent, const char *name, double v);
fbxw_node *fbxw_child_s(fbxw_node *parent, const char *name, const char *s);

/* One Properties70 line: P: name, type, label, flags (values follow
 * through the scalar calls above). */
fbxw_node *fbxw_p(fbxw_node *props70, const char *name, const char *type, const char *label,
                  const char *flags);

/* The file bytes in fmt (malloc'd; *len set), or the file itself. */
uint8_t *fbxw_encode(const fbxw_doc *d, const fbxw_format *fmt, size_t *len);
int fbxw_write(const fbxw_doc *d, const fbxw_format *fmt, const char *path, anim_error *err);

/* zlib stream of data (deflate with fixed Huffman codes), malloc'd;
 * exposed for the unit test. */
uint8_t *fbxw_zlib(const uint8_t *data, size_t len, size_t *out_len);

#endif
