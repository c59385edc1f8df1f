/* What an operation's run function calls on its context: refusals, work
 * accounting and cancellation, selections and notes of its result row, the
 * target object, and the field accessors. The accessors assume the generic
 * validation (mdl_validate.c) passed, so they read without re-checking
 * and never refuse; what depends on the document (ids that must exist) is
 * refused here by the resolvers, naming the id and its position. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "model/mdl_ops.h"

int mdl_refuse(mdl_ctx *ctx, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->refusal, sizeof ctx->refusal, fmt, ap);
    va_end(ap);
    ctx->refusal_kind = kind;
    return -1;
}

int mdl_nomem(mdl_ctx *ctx)
{
    ctx->nomem = true;
    ctx->refusal_kind = "out_of_memory";
    snprintf(ctx->refusal, sizeof ctx->refusal, "out of memory");
    return -1;
}

int mdl_spend(mdl_ctx *ctx, uint64_t units)
{
    ctx->work = units > UINT64_MAX - ctx->work ? UINT64_MAX : ctx->work + units;
    if (ctx->work > ctx->work_budget)
        return mdl_refuse(ctx, "work_limit_exceeded",
                          "the batch needs more than its %llu work units (max_work_units)",
                          (unsigned long long)ctx->work_budget);
    if (ctx->cancel && *ctx->cancel)
        return mdl_refuse(ctx, "cancelled", "cancelled");
    return 0;
}

static int push_id(mdl_ctx *ctx, uint64_t **arr, size_t *count, size_t *cap, uint64_t id)
{
    if (!anim_grow((void **)arr, cap, *count + 1, sizeof **arr))
        return mdl_nomem(ctx);
    (*arr)[(*count)++] = id;
    return 0;
}

int mdl_select_face(mdl_ctx *ctx, uint64_t face)
{
    mdl_result *r = ctx->result;
    if (!r)
        return 0;
    return push_id(ctx, &r->faces, &r->face_count, &r->face_cap, face);
}

int mdl_select_vertex(mdl_ctx *ctx, uint64_t vertex)
{
    mdl_result *r = ctx->result;
    if (!r)
        return 0;
    return push_id(ctx, &r->vertices, &r->vertex_count, &r->vertex_cap, vertex);
}

int mdl_select_face_and_vertices(mdl_ctx *ctx, const mdl_object *o, uint64_t face)
{
    ptrdiff_t fi = mdl_object_face_index(o, face);
    if (fi < 0)
        return 0;
    if (mdl_select_face(ctx, face) != 0)
        return -1;
    const mdl_face *f = &o->faces[fi];
    for (uint32_t k = 0; k < f->corner_count; k++) {
        if (mdl_select_vertex(ctx, o->corners[f->corner_first + k].vertex) != 0)
            return -1;
    }
    return 0;
}

int mdl_note(mdl_ctx *ctx, const char *fmt, ...)
{
    mdl_result *r = ctx->result;
    /* A few notes say what happened; more would only repeat it. */
    if (!r || r->note_count >= sizeof r->notes / sizeof r->notes[0])
        return 0;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    char *s = malloc(n + 1);
    if (!s)
        return mdl_nomem(ctx);
    memcpy(s, buf, n + 1);
    r->notes[r->note_count++] = s;
    return 0;
}

mdl_object *mdl_target_object(mdl_ctx *ctx, const anim_json_value *op, bool create)
{
    const anim_json_value *v = mdl_field_get(op, "object");
    if (!v || v->type != ANIM_JSON_STRING || v->len == 0 || v->len > MDL_NAME_MAX) {
        mdl_refuse(ctx, "missing_field", "field \"object\": required");
        return NULL;
    }
    char name[MDL_NAME_MAX + 1];
    memcpy(name, anim_json_string(v), v->len);
    name[v->len] = '\0';
    bool nomem = false;
    mdl_object *o = mdl_doc_edit_object(ctx->doc, name, &nomem);
    if (!o && nomem) {
        mdl_nomem(ctx);
        return NULL;
    }
    if (!o && !create) {
        /* Validated names hold no control characters: safe to quote. */
        mdl_refuse(ctx, "unknown_object", "object \"%s\" does not exist", name);
        return NULL;
    }
    if (!o) {
        o = mdl_doc_add_object(ctx->doc, name);
        if (!o) {
            mdl_nomem(ctx);
            return NULL;
        }
    }
    if (ctx->result)
        ctx->result->object = o->name;
    return o;
}

/* ---- accessors */

const anim_json_value *mdl_field_get(const anim_json_value *op, const char *name)
{
    return anim_json_get(op, name);
}

bool mdl_field_present(const anim_json_value *op, const char *name)
{
    return anim_json_get(op, name) != NULL;
}

double mdl_field_f64(const anim_json_value *op, const char *name, double fallback)
{
    const anim_json_value *v = anim_json_get(op, name);
    return v && v->type == ANIM_JSON_NUMBER ? anim_json_number(v) : fallback;
}

int64_t mdl_field_int(const anim_json_value *op, const char *name, int64_t fallback)
{
    const anim_json_value *v = anim_json_get(op, name);
    if (!v || v->type != ANIM_JSON_NUMBER)
        return fallback;
    /* The validator admits integral numbers written with a fraction or
     * exponent ("2.0", "1e2") within int64. */
    return anim_json_is_integer(v) ? anim_json_integer(v) : (int64_t)anim_json_number(v);
}

bool mdl_field_bool(const anim_json_value *op, const char *name, bool fallback)
{
    const anim_json_value *v = anim_json_get(op, name);
    if (v && v->type == ANIM_JSON_TRUE)
        return true;
    if (v && v->type == ANIM_JSON_FALSE)
        return false;
    return fallback;
}

bool mdl_field_vec(const anim_json_value *op, const char *name, double *out, int n)
{
    const anim_json_value *v = anim_json_get(op, name);
    if (!v || v->type != ANIM_JSON_ARRAY)
        return false;
    mdl_value_vec(v, out, n);
    return true;
}

void mdl_value_vec(const anim_json_value *v, double *out, int n)
{
    size_t count = anim_json_count(v);
    for (int i = 0; i < n; i++) {
        const anim_json_value *it = (size_t)i < count ? anim_json_item(v, (size_t)i) : NULL;
        out[i] = it && it->type == ANIM_JSON_NUMBER ? anim_json_number(it) : 0.0;
    }
}

uint64_t mdl_value_id(const anim_json_value *v)
{
    if (!v || v->type != ANIM_JSON_STRING)
        return 0;
    const char *s = anim_json_string(v);
    size_t len = anim_json_string_len(v);
    if (len == 0 || len > 20 || s[0] == '0')
        return 0;
    uint64_t id = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        unsigned d = (unsigned)(s[i] - '0');
        if (id > (UINT64_MAX - d) / 10)
            return 0;
        id = id * 10 + d;
    }
    return id;
}

uint64_t *mdl_field_ids(mdl_ctx *ctx, const anim_json_value *op, const char *name, size_t *count)
{
    *count = 0;
    const anim_json_value *v = anim_json_get(op, name);
    size_t n = v && v->type == ANIM_JSON_ARRAY ? anim_json_count(v) : 0;
    if (n == 0)
        return NULL;
    size_t bytes;
    uint64_t *ids = anim_size_mul(n, sizeof *ids, &bytes) ? malloc(bytes) : NULL;
    if (!ids) {
        mdl_nomem(ctx);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        ids[i] = mdl_value_id(anim_json_item(v, i));
    *count = n;
    return ids;
}

char *mdl_field_name(const anim_json_value *op, const char *name)
{
    const anim_json_value *v = anim_json_get(op, name);
    if (!v || v->type != ANIM_JSON_STRING)
        return NULL;
    char *s = malloc((size_t)v->len + 1);
    if (!s)
        return NULL;
    memcpy(s, anim_json_string(v), v->len);
    s[v->len] = '\0';
    return s;
}

/* ---- resolvers */

/* Ids to indices through lookup, refusing kind ("unknown_vertex") for the
 * first id that names no element (what: "vertex"). */
static int resolve_ids(mdl_ctx *ctx, const mdl_object *o, const uint64_t *ids, size_t n,
                       size_t *indices, ptrdiff_t (*lookup)(const mdl_object *, uint64_t),
                       const char *kind, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        ptrdiff_t k = lookup(o, ids[i]);
        if (k < 0)
            return mdl_refuse(ctx, kind, "%s \"%llu\" (item %zu) of object \"%s\" does not exist",
                              what, (unsigned long long)ids[i], i, o->name);
        indices[i] = (size_t)k;
    }
    return 0;
}

int mdl_resolve_vertices(mdl_ctx *ctx, const mdl_object *o, const uint64_t *ids, size_t n,
                         size_t *indices)
{
    return resolve_ids(ctx, o, ids, n, indices, mdl_object_vertex_index, "unknown_vertex",
                       "vertex");
}

int mdl_resolve_faces(mdl_ctx *ctx, const mdl_object *o, const uint64_t *ids, size_t n,
                      size_t *indices)
{
    return resolve_ids(ctx, o, ids, n, indices, mdl_object_face_index, "unknown_face", "face");
}

ptrdiff_t mdl_target_face(mdl_ctx *ctx, const mdl_object *o, const anim_json_value *op,
                          uint64_t *id)
{
    *id = mdl_value_id(mdl_field_get(op, "face"));
    ptrdiff_t fi = mdl_object_face_index(o, *id);
    if (fi < 0)
        mdl_refuse(ctx, "unknown_face", "face \"%llu\" of object \"%s\" does not exist",
                   (unsigned long long)*id, o->name);
    return fi;
}
