/* Private to model.inspect: the page writer that keeps every reply within
 * the byte budget, and the domain writers the dispatcher (mdl_inspect.c)
 * calls. A row is rendered into a scratch buffer first and copied into the
 * reply only when the reply, with room kept for everything written after
 * the rows, still fits; so a page stops early (byte_limited) instead of
 * growing past the budget, and a row never appears half written. */
#ifndef ANIMSMITH_MDL_INSPECT_PAGE_H
#define ANIMSMITH_MDL_INSPECT_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/json_write.h"
#include "animsmith/model.h"
#include "model/mdl_doc.h"

/* Bytes kept after the last row for the cursor members and closing
 * brackets (every number at its widest). */
#define MDL_PAGE_RESERVE 320
/* Inline list length a row is cut to when it does not fit alone. */
#define MDL_ROW_CUT 8

/* Renders row index of a domain into w. cut: inline lists hold at most this
 * many items (SIZE_MAX: all), and the row says so in its *_truncated flag.
 * 0, or -1 on out of memory. */
typedef int (*mdl_row_fn)(void *ctx, uint64_t index, anim_json_writer *w, size_t cut);

typedef struct mdl_page {
    anim_strbuf *out;   /* the reply being built */
    anim_json_writer *w;
    size_t budget;      /* bytes the whole reply may take */
    uint64_t total, offset, limit, count;
    bool byte_limited;
    bool nomem;
    bool too_small;     /* the first row did not fit even cut down */
} mdl_page;

/* Renders rows offset, offset + 1, ... as elements of the open array of w
 * until limit rows, the end, or the budget. */
void mdl_page_rows(mdl_page *p, mdl_row_fn fn, void *ctx);
/* The next offset after the page, or UINT64_MAX when no rows follow. */
uint64_t mdl_page_next(const mdl_page *p);
/* Writes total, offset, limit, count, omitted, next_offset, byte_limited
 * as members of the open object of w. */
void mdl_page_write_cursor(const mdl_page *p);

/* ---- shared row helpers */
void mdl_write_id(anim_json_writer *w, uint64_t id);
void mdl_write_bounds(anim_json_writer *w, const mdl_object *o); /* {min, max} or null */
/* The material ordinals the object's faces use, ascending, into used
 * (MDL_MATERIAL_SLOTS flags); returns how many. */
size_t mdl_object_materials_used(const mdl_object *o, bool used[MDL_MATERIAL_SLOTS]);

/* ---- domains. Each writes its members into the open reply object of w
 * (after document, head, object and domain) and returns 0, or -1 with
 * fault filled. */
typedef struct mdl_inspect_req {
    const mdl_doc *doc;
    const mdl_object *object; /* NULL for document domains */
    const anim_model_limits *limits;
    uint64_t offset, limit, issue_offset;
    anim_strbuf *out;
    anim_json_writer *w;
    size_t budget;
    anim_model_fault *fault;
} mdl_inspect_req;

int mdl_inspect_doc_overview(mdl_inspect_req *r);
int mdl_inspect_objects(mdl_inspect_req *r);
int mdl_inspect_materials(mdl_inspect_req *r);
int mdl_inspect_joints(mdl_inspect_req *r);
int mdl_inspect_clips(mdl_inspect_req *r);
int mdl_inspect_clip_keys(mdl_inspect_req *r);

int mdl_inspect_object_overview(mdl_inspect_req *r);
int mdl_inspect_vertices(mdl_inspect_req *r);
int mdl_inspect_faces(mdl_inspect_req *r);
int mdl_inspect_corners(mdl_inspect_req *r);
int mdl_inspect_edges(mdl_inspect_req *r);
int mdl_inspect_weights(mdl_inspect_req *r);
int mdl_inspect_solid(mdl_inspect_req *r);

/* A paged domain's items and cursor members: begins "items", runs rows,
 * ends it and writes the cursor. -1 with fault filled on out of memory or
 * when the budget cannot hold one row. */
int mdl_inspect_page(mdl_inspect_req *r, uint64_t total, mdl_row_fn fn, void *ctx);
int mdl_inspect_nomem(mdl_inspect_req *r);

#endif
