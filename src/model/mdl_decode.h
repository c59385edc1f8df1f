/* Reading a document version back from its canonical encoding (the
 * stored source and the checkpoint inside saved history). */
#ifndef ANIMSMITH_MDL_DECODE_H
#define ANIMSMITH_MDL_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "model/mdl_doc.h"

/* The document encoded in bytes, or NULL with a one-line reason (naming
 * the byte offset and the element) in error. Refuses truncated, oversized,
 * out-of-order, dangling and non-canonical input; work_budget bounds the
 * elements decoded. */
mdl_doc *mdl_decode(const void *bytes, size_t len, uint64_t work_budget, char *error,
                    size_t error_size);

#endif
