/* model.inspect (mdl_inspect.h): strict params, the domain table, the reply
 * envelope and the page writer every paged domain shares. The domains
 * live in mdl_inspect_doc.c (document), mdl_inspect_object.c (one object)
 * and mdl_inspect_solid.c (the global solid check).
 *
 * The byte budget covers the whole serialized reply, so the envelope is
 * written first and each row is admitted only when the reply, with room
 * kept for the cursor members that follow, still fits (mdl_page_rows). */
#include "model/mdl_inspect.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/json_write.h"
#include "model/mdl_batch.h"
#include "model/mdl_inspect_page.h"
#include "model/mdl_session.h"

#define LIMIT_DEFAULT 32
#define LIMIT_MAX 128

typedef struct domain_def {
    const char *name;
    bool object;   /* needs "object" */
    bool paged;    /* takes offset */
    int (*fn)(mdl_inspect_req *r);
} domain_def;

static const domain_def domains[] = {
    {"overview", false, false, mdl_inspect_doc_overview},
    {"objects", false, true, mdl_inspect_objects},
    {"materials", false, true, mdl_inspect_materials},
    {"joints", false, true, mdl_inspect_joints},
    {"clips", false, true, mdl_inspect_clips},
    {"clip_keys", false, true, mdl_inspect_clip_keys},
    {"overview", true, false, mdl_inspect_object_overview},
    {"vertices", true, true, mdl_inspect_vertices},
    {"faces", true, true, mdl_inspect_faces},
    {"corners", true, true, mdl_inspect_corners},
    {"edges", true, true, mdl_inspect_edges},
    {"weights", true, true, mdl_inspect_weights},
    {"solid", true, true, mdl_inspect_solid},
};

/* ---- the page writer */

void mdl_page_rows(mdl_page *p, mdl_row_fn fn, void *ctx)
{
    static const size_t cuts[] = {SIZE_MAX, MDL_ROW_CUT, 0};
    anim_strbuf row = ANIM_STRBUF_INIT;
    for (uint64_t i = p->offset; i < p->total && p->count < p->limit; i++) {
        bool placed = false;
        /* Only the first row of a page is cut down: a later row that does
         * not fit starts the next page whole. */
        size_t tries = p->count ? 1 : sizeof cuts / sizeof cuts[0];
        for (size_t c = 0; c < tries && !placed; c++) {
            anim_strbuf_reset(&row);
            anim_json_writer rw;
            anim_json_writer_init_nested(&rw, &row, false, p->w->depth);
            if (fn(ctx, i, &rw, cuts[c]) || !anim_json_writer_ok(&rw)) {
                p->nomem = true;
                anim_strbuf_free(&row);
                return;
            }
            size_t need = p->out->len + (p->count ? 1 : 0) + row.len + MDL_PAGE_RESERVE;
            if (need <= p->budget) {
                anim_json_writer_splice(p->w, row.data, row.len);
                placed = true;
                /* A cut row is the budget's doing too. */
                if (c > 0)
                    p->byte_limited = true;
            }
        }
        if (!placed) {
            p->byte_limited = true;
            p->too_small = p->count == 0;
            break;
        }
        p->count++;
    }
    anim_strbuf_free(&row);
}

uint64_t mdl_page_next(const mdl_page *p)
{
    return p->offset < p->total && p->total - p->offset > p->count ? p->offset + p->count
                                                                    : UINT64_MAX;
}

void mdl_page_write_cursor(const mdl_page *p)
{
    anim_json_writer *w = p->w;
    uint64_t omitted = p->offset < p->total ? p->total - p->offset - p->count : 0;
    anim_json_writer_key_uint(w, "total", p->total);
    anim_json_writer_key_uint(w, "offset", p->offset);
    anim_json_writer_key_uint(w, "limit", p->limit);
    anim_json_writer_key_uint(w, "count", p->count);
    anim_json_writer_key_uint(w, "omitted", omitted);
    anim_json_writer_key(w, "next_offset");
    uint64_t next = mdl_page_next(p);
    if (next == UINT64_MAX)
        anim_json_writer_null(w);
    else
        anim_json_writer_uint(w, next);
    anim_json_writer_key(w, "byte_limited");
    anim_json_writer_bool(w, p->byte_limited);
}

int mdl_inspect_nomem(mdl_inspect_req *r)
{
    return mdl_fault(r->fault, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                     "model.inspect: out of memory");
}

int mdl_inspect_page(mdl_inspect_req *r, uint64_t total, mdl_row_fn fn, void *ctx)
{
    mdl_page p = {r->out, r->w, r->budget, total, r->offset, r->limit, 0, false, false, false};
    anim_json_writer_key(r->w, "items");
    anim_json_writer_begin_array(r->w);
    mdl_page_rows(&p, fn, ctx);
    anim_json_writer_end_array(r->w);
    if (p.nomem)
        return mdl_inspect_nomem(r);
    if (p.too_small)
        return mdl_fault(r->fault, ANIM_MODEL_E_LIMIT, "limit_exceeded",
                         "model.inspect: max_reply_bytes (%zu) cannot hold row %" PRIu64,
                         r->budget, r->offset);
    mdl_page_write_cursor(&p);
    return 0;
}

/* ---- shared row helpers */

void mdl_write_id(anim_json_writer *w, uint64_t id)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, id);
    anim_json_writer_string(w, buf);
}

void mdl_write_bounds(anim_json_writer *w, const mdl_object *o)
{
    if (o->vertex_count == 0) {
        anim_json_writer_null(w);
        return;
    }
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = o->vertices[0].p[k];
    for (size_t v = 1; v < o->vertex_count; v++)
        for (int k = 0; k < 3; k++) {
            if (o->vertices[v].p[k] < lo[k])
                lo[k] = o->vertices[v].p[k];
            if (o->vertices[v].p[k] > hi[k])
                hi[k] = o->vertices[v].p[k];
        }
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "min");
    anim_json_writer_f64_array(w, lo, 3);
    anim_json_writer_key(w, "max");
    anim_json_writer_f64_array(w, hi, 3);
    anim_json_writer_end_object(w);
}

size_t mdl_object_materials_used(const mdl_object *o, bool used[MDL_MATERIAL_SLOTS])
{
    size_t n = 0;
    memset(used, 0, MDL_MATERIAL_SLOTS * sizeof used[0]);
    for (size_t i = 0; i < o->face_count; i++) {
        int32_t m = o->faces[i].material;
        if (m >= 0 && m < MDL_MATERIAL_SLOTS && !used[m]) {
            used[m] = true;
            n++;
        }
    }
    return n;
}

/* ---- params */

/* A param name fit for a one-line message: control bytes become '?',
 * long names are cut. */
static void param_label(const char *key, size_t len, char out[65])
{
    size_t n = len < 64 ? len : 64;
    for (size_t i = 0; i < n; i++)
        out[i] = (unsigned char)key[i] < 0x20 || key[i] == 0x7f ? '?' : key[i];
    out[n] = '\0';
}

static int bad_param(anim_model_fault *fault, const char *param, const char *fmt_detail)
{
    mdl_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params", "model.inspect: param \"%s\" %s",
              param, fmt_detail);
    if (fault->data.len == 0) {
        anim_strbuf_puts(&fault->data, "{\"param\":");
        anim_json_escape_string(&fault->data, param, strlen(param));
        anim_strbuf_putc(&fault->data, '}');
    }
    return -1;
}

static int read_count(const anim_json_value *v, const char *name, uint64_t min, uint64_t max,
                      uint64_t *out, anim_model_fault *fault)
{
    if (!anim_json_is_integer(v) || anim_json_integer(v) < 0 ||
        (uint64_t)anim_json_integer(v) < min || (uint64_t)anim_json_integer(v) > max) {
        char what[96];
        if (max == UINT64_MAX)
            snprintf(what, sizeof what, "must be an integer >= %" PRIu64, min);
        else
            snprintf(what, sizeof what, "must be an integer from %" PRIu64 " to %" PRIu64, min,
                     max);
        return bad_param(fault, name, what);
    }
    *out = (uint64_t)anim_json_integer(v);
    return 0;
}

typedef struct inspect_params {
    const anim_json_value *document, *object, *domain, *offset, *limit, *issue_offset;
} inspect_params;

static int parse_params(const anim_json_value *params, inspect_params *p,
                        anim_model_fault *fault)
{
    static const char *const names[] = {"document", "object", "domain",
                                        "offset", "limit", "issue_offset"};
    const anim_json_value **slots[] = {&p->document, &p->object, &p->domain,
                                       &p->offset, &p->limit, &p->issue_offset};
    memset(p, 0, sizeof *p);
    if (!params || params->type != ANIM_JSON_OBJECT)
        return mdl_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                         "model.inspect: params must be an object");
    for (size_t i = 0; i < anim_json_count(params); i++) {
        const anim_json_member *m = anim_json_member_at(params, i);
        size_t len = anim_json_key_len(m), k;
        for (k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strlen(names[k]) == len && memcmp(names[k], m->key, len) == 0)
                break;
        if (k == sizeof names / sizeof names[0]) {
            char label[65];
            param_label(m->key, len, label);
            return bad_param(fault, label, "is not a model.inspect param");
        }
        *slots[k] = &m->value;
    }
    if (!p->document)
        return bad_param(fault, "document", "is required");
    if (p->document->type != ANIM_JSON_STRING)
        return bad_param(fault, "document", "must be a string");
    if (!p->domain)
        return bad_param(fault, "domain", "is required");
    if (p->domain->type != ANIM_JSON_STRING)
        return bad_param(fault, "domain", "must be a string");
    if (p->object && (p->object->type != ANIM_JSON_STRING || p->object->len == 0 ||
                      p->object->len > MDL_NAME_MAX ||
                      memchr(p->object->u.string, '\0', p->object->len)))
        return bad_param(fault, "object", "must be an object name (1 to 128 bytes)");
    return 0;
}

static const domain_def *find_domain(const anim_json_value *name, bool object)
{
    for (size_t i = 0; i < sizeof domains / sizeof domains[0]; i++)
        if (domains[i].object == object && anim_json_string_eq(name, domains[i].name))
            return &domains[i];
    return NULL;
}

static void domain_list(bool object, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof domains / sizeof domains[0]; i++)
        if (domains[i].object == object && n < cap) {
            int k = snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", domains[i].name);
            if (k < 0)
                break;
            n += (size_t)k;
        }
}

int mdl_inspect(const mdl_doc *d, const char *document, const anim_model_head *head,
                const anim_json_value *params, const anim_model_limits *limits,
                anim_strbuf *reply, anim_model_fault *fault)
{
    inspect_params p;
    if (parse_params(params, &p, fault))
        return -1;
    bool scoped = p.object != NULL;
    const domain_def *dom = find_domain(p.domain, scoped);
    if (!dom) {
        char label[65], list[160], what[320];
        param_label(p.domain->u.string, p.domain->len, label);
        domain_list(scoped, list, sizeof list);
        snprintf(what, sizeof what, "\"%s\" is not a domain %s (one of: %s)", label,
                 scoped ? "of an object" : "of a document without object", list);
        return bad_param(fault, "domain", what);
    }
    mdl_inspect_req r;
    memset(&r, 0, sizeof r);
    r.doc = d;
    r.limits = limits;
    r.fault = fault;
    r.budget = limits->max_reply_bytes;
    r.limit = LIMIT_DEFAULT;
    if (p.offset) {
        if (!dom->paged)
            return bad_param(fault, "offset",
                             scoped ? "does not apply to the overview domain (page its "
                                      "validation list with issue_offset)"
                                    : "does not apply to the overview domain");
        if (read_count(p.offset, "offset", 0, UINT64_MAX, &r.offset, fault))
            return -1;
    }
    if (p.limit) {
        if (!dom->paged && !dom->object)
            return bad_param(fault, "limit", "does not apply to the document overview");
        if (read_count(p.limit, "limit", 1, LIMIT_MAX, &r.limit, fault))
            return -1;
    }
    if (p.issue_offset) {
        if (!dom->object || dom->paged)
            return bad_param(fault, "issue_offset", "applies only to the object overview");
        if (read_count(p.issue_offset, "issue_offset", 0, UINT64_MAX, &r.issue_offset, fault))
            return -1;
    }
    char object_name[MDL_NAME_MAX + 1] = "";
    if (scoped) {
        memcpy(object_name, p.object->u.string, p.object->len);
        object_name[p.object->len] = '\0';
        ptrdiff_t oi = mdl_doc_find_object(d, object_name);
        if (oi < 0) {
            char label[65];
            param_label(object_name, p.object->len, label);
            return mdl_fault(fault, ANIM_MODEL_E_REFUSED, "unknown_object",
                             "model.inspect: object \"%s\" does not exist in document \"%s\"",
                             label, document);
        }
        r.object = d->objects[oi];
    }

    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &out, false);
    r.out = &out;
    r.w = &w;
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "document");
    anim_json_writer_string(&w, document);
    anim_json_writer_key(&w, "head");
    mdl_head_write(&w, head);
    if (scoped) {
        anim_json_writer_key(&w, "object");
        anim_json_writer_string(&w, object_name);
    }
    anim_json_writer_key(&w, "domain");
    anim_json_writer_string(&w, dom->name);
    if (dom->fn(&r)) {
        anim_strbuf_free(&out);
        return -1;
    }
    anim_json_writer_end_object(&w);
    if (!anim_json_writer_ok(&w)) {
        anim_strbuf_free(&out);
        return mdl_inspect_nomem(&r);
    }
    if (out.len > r.budget) {
        anim_strbuf_free(&out);
        return mdl_fault(fault, ANIM_MODEL_E_LIMIT, "limit_exceeded",
                         "model.inspect: the %s reply does not fit max_reply_bytes (%zu)",
                         dom->name, r.budget);
    }
    anim_strbuf_append(reply, out.data, out.len);
    anim_strbuf_free(&out);
    return reply->failed ? mdl_inspect_nomem(&r) : 0;
}
