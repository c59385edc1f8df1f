/* model.inspect: bounded pages over every domain of a document version.
 * Pages carry items, total, offset, limit, count, omitted, next_offset and
 * byte_limited; a page stops early rather than exceed the reply budget. */
#ifndef ANIMSMITH_MDL_INSPECT_H
#define ANIMSMITH_MDL_INSPECT_H

#include "animsmith/model.h"
#include "model/mdl_doc.h"

/* params: document, object?, domain, offset?, limit? (and the domain's own
 * cursors). The whole reply object (with head) into reply, at most
 * limits->max_reply_bytes. */
int mdl_inspect(const mdl_doc *d, const char *document, const anim_model_head *head,
                const anim_json_value *params, const anim_model_limits *limits,
                anim_strbuf *reply, anim_model_fault *fault);

#endif
