/* The canonical encoding of a document version and its content hash.
 *
 * A versioned little-endian byte stream of everything a document holds
 * (objects by name with their vertices, faces, corners, edge attributes,
 * weights and id counters; materials by ordinal with texture pixels; the
 * skeleton; clips by name; retired counters), every f64 as its IEEE-754
 * bits with -0 and 0 distinct, so two versions encode equally exactly when
 * every inspectable fact and every future id agrees. The head's content is
 * the SHA-256 of these bytes (docs/model-canonical.md gives the layout). */
#ifndef ANIMSMITH_MDL_CANON_H
#define ANIMSMITH_MDL_CANON_H

#include "animsmith/strbuf.h"
#include "model/mdl_doc.h"

#define MDL_CANON_VERSION 2u

/* Appends the encoding; 0, -1 on out of memory. */
int mdl_canon_encode(const mdl_doc *d, anim_strbuf *out);
/* Its SHA-256 as lowercase hex; -1 on out of memory. Also returns the
 * encoded size through bytes (may be NULL) for the source-size limit. */
int mdl_canon_hash(const mdl_doc *d, char hex[65], uint64_t *bytes);

#endif
