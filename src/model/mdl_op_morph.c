/* The shape target operations: morph (sparse deltas authored by vertex
 * id), capture_morph (the differences between an object and a second
 * object of the same topology and ids), delete_morph and morph_weight.
 * A target pins its object's topology signature when it is authored, so
 * the batch refuses later topology edits until the target is deleted or
 * rebuilt (mdl_batch.c); deleting a target also drops its keys from every
 * clip, so no clip names a target that is gone. */
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"

static const mdl_field delta_fields[] = {
    {.name = "vertex", .type = MDL_F_ID, .required = true, .description = "vertex ID string"},
    {.name = "delta", .type = MDL_F_VEC3, .required = true,
     .description = "offset from the base position, metres"},
    {.name = NULL},
};

#define WEIGHT_FIELD                                                                         \
    {.name = "weight", .type = MDL_F_NUMBER, .min = -2, .max = 2,                            \
     .description = "default influence, -2 to 2, default 0"}

static const mdl_field morph_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "target name"},
    {.name = "object", .type = MDL_F_NAME, .required = true, .description = "the base object"},
    {.name = "deltas", .type = MDL_F_OBJECTS, .required = true, .min_items = 0,
     .fields = delta_fields, .description = "sparse {vertex, delta} rows, vertices unique"},
    WEIGHT_FIELD,
    {.name = NULL},
};

static const mdl_field capture_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "target name"},
    {.name = "object", .type = MDL_F_NAME, .required = true, .description = "the base object"},
    {.name = "target", .type = MDL_F_NAME, .required = true,
     .description = "an object of the same topology and element ids, in the target shape"},
    WEIGHT_FIELD,
    {.name = NULL},
};

static const mdl_field delete_morph_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "an existing target"},
    {.name = NULL},
};

static const mdl_field morph_weight_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "an existing target"},
    {.name = "weight", .type = MDL_F_NUMBER, .required = true, .min = -2, .max = 2,
     .description = "default influence, -2 to 2"},
    {.name = NULL},
};

/* The object a target field names, or NULL after refusing. */
static const mdl_object *named_object(mdl_ctx *ctx, const anim_json_value *op, const char *field)
{
    char *name = mdl_field_name(op, field);
    if (!name) {
        mdl_nomem(ctx);
        return NULL;
    }
    ptrdiff_t i = mdl_doc_find_object(ctx->doc, name);
    if (i < 0)
        mdl_refuse(ctx, "unknown_object", "field \"%s\": object \"%s\" does not exist", field,
                   name);
    free(name);
    return i < 0 ? NULL : ctx->doc->objects[i];
}

/* Pins o's topology into m and stores m (replacing a target of its name),
 * refusing past the target limit. */
static int store(mdl_ctx *ctx, const mdl_object *o, mdl_morph *m)
{
    if (mdl_doc_find_morph(ctx->doc, m->key.name) < 0 &&
        ctx->doc->morph_count >= MDL_MORPHS_MAX) {
        mdl_morph_release(m);
        return mdl_refuse(ctx, "limit_exceeded",
                          "field \"name\": the document already has %d morph targets",
                          MDL_MORPHS_MAX);
    }
    if (mdl_object_topology(o, m->topology)) {
        mdl_morph_release(m);
        return mdl_nomem(ctx);
    }
    return mdl_doc_put_morph(ctx->doc, m) ? mdl_nomem(ctx) : 0;
}

static int cmp_delta(const void *a, const void *b)
{
    uint64_t x = ((const mdl_morph_delta *)a)->vertex, y = ((const mdl_morph_delta *)b)->vertex;
    return x < y ? -1 : x > y;
}

static int run_morph(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_object *o = named_object(ctx, op, "object");
    if (!o)
        return -1;
    const anim_json_value *rows = mdl_field_get(op, "deltas");
    size_t n = anim_json_count(rows);
    if (mdl_spend(ctx, 1 + n + o->vertex_count + o->corner_count))
        return -1;
    char *name = mdl_field_name(op, "name");
    mdl_morph *m = name ? mdl_morph_new(name, o->name, n) : NULL;
    free(name);
    if (!m)
        return mdl_nomem(ctx);
    m->weight = mdl_field_f64(op, "weight", 0);
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *r = anim_json_item(rows, i);
        uint64_t id = mdl_value_id(mdl_field_get(r, "vertex"));
        if (mdl_object_vertex_index(o, id) < 0) {
            mdl_morph_release(m);
            return mdl_refuse(ctx, "unknown_vertex",
                              "field \"deltas[%zu].vertex\": vertex \"%llu\" of object \"%s\" "
                              "does not exist",
                              i, (unsigned long long)id, o->name);
        }
        m->deltas[i].vertex = id;
        mdl_field_vec(r, "delta", m->deltas[i].delta, 3);
    }
    if (n)
        qsort(m->deltas, n, sizeof *m->deltas, cmp_delta);
    for (size_t i = 1; i < n; i++)
        if (m->deltas[i].vertex == m->deltas[i - 1].vertex) {
            uint64_t id = m->deltas[i].vertex;
            mdl_morph_release(m);
            return mdl_refuse(ctx, "duplicate_id",
                              "field \"deltas\": vertex \"%llu\" appears twice",
                              (unsigned long long)id);
        }
    return store(ctx, o, m);
}

static int run_capture_morph(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_object *o = named_object(ctx, op, "object");
    if (!o)
        return -1;
    const mdl_object *t = named_object(ctx, op, "target");
    if (!t)
        return -1;
    if (mdl_spend(ctx, 1 + 2 * (o->vertex_count + o->corner_count)))
        return -1;
    uint8_t a[32], b[32];
    if (mdl_object_topology(o, a) || mdl_object_topology(t, b))
        return mdl_nomem(ctx);
    if (o == t || memcmp(a, b, sizeof a) != 0)
        return mdl_refuse(ctx, "topology_mismatch",
                          "field \"target\": object \"%s\" %s", t->name,
                          o == t ? "is the base object itself"
                                 : "does not have the base object's topology and element ids");
    size_t n = 0;
    for (size_t v = 0; v < o->vertex_count; v++)
        if (memcmp(o->vertices[v].p, t->vertices[v].p, sizeof o->vertices[v].p) != 0)
            n++;
    char *name = mdl_field_name(op, "name");
    mdl_morph *m = name ? mdl_morph_new(name, o->name, n) : NULL;
    free(name);
    if (!m)
        return mdl_nomem(ctx);
    m->weight = mdl_field_f64(op, "weight", 0);
    /* Equal signatures mean equal vertex ids in the same order. */
    size_t k = 0;
    for (size_t v = 0; v < o->vertex_count; v++) {
        double d[3];
        for (int c = 0; c < 3; c++)
            d[c] = t->vertices[v].p[c] - o->vertices[v].p[c];
        if (memcmp(o->vertices[v].p, t->vertices[v].p, sizeof d) == 0)
            continue;
        m->deltas[k].vertex = o->vertices[v].id;
        memcpy(m->deltas[k++].delta, d, sizeof d);
    }
    return store(ctx, o, m);
}

static ptrdiff_t find_morph(mdl_ctx *ctx, const anim_json_value *op)
{
    char *name = mdl_field_name(op, "name");
    if (!name) {
        mdl_nomem(ctx);
        return -1;
    }
    ptrdiff_t i = mdl_doc_find_morph(ctx->doc, name);
    if (i < 0)
        mdl_refuse(ctx, "unknown_morph", "field \"name\": morph target \"%s\" does not exist",
                   name);
    free(name);
    return i;
}

/* Removes the keys of target name from clip c (made private first). */
static int drop_tracks(mdl_ctx *ctx, size_t ci, const char *name)
{
    const mdl_clip *c = ctx->doc->clips[ci];
    size_t at = c->morph_track_count;
    for (size_t k = 0; k < c->morph_track_count; k++)
        if (strcmp(c->morph_tracks[k].morph, name) == 0)
            at = k;
    if (at == c->morph_track_count)
        return 0;
    mdl_clip *e = mdl_doc_edit_clip(ctx->doc, ci);
    if (!e)
        return mdl_nomem(ctx);
    free(e->morph_tracks[at].morph);
    free(e->morph_tracks[at].keys);
    memmove(e->morph_tracks + at, e->morph_tracks + at + 1,
            (e->morph_track_count - at - 1) * sizeof *e->morph_tracks);
    e->morph_track_count--;
    return 0;
}

static int run_delete_morph(mdl_ctx *ctx, const anim_json_value *op)
{
    ptrdiff_t i = find_morph(ctx, op);
    if (i < 0)
        return -1;
    if (mdl_spend(ctx, 1 + ctx->doc->clip_count))
        return -1;
    char *name = mdl_field_name(op, "name");
    if (!name)
        return mdl_nomem(ctx);
    int rc = 0;
    for (size_t ci = 0; ci < ctx->doc->clip_count && rc == 0; ci++)
        rc = drop_tracks(ctx, ci, name);
    if (rc == 0)
        mdl_doc_delete_morph(ctx->doc, name);
    free(name);
    return rc;
}

static int run_morph_weight(mdl_ctx *ctx, const anim_json_value *op)
{
    ptrdiff_t i = find_morph(ctx, op);
    if (i < 0 || mdl_spend(ctx, 1))
        return -1;
    double w = mdl_field_f64(op, "weight", 0);
    if (ctx->doc->morphs[i]->weight == w)
        return 0;
    mdl_morph *m = mdl_doc_edit_morph(ctx->doc, (size_t)i);
    if (!m)
        return mdl_nomem(ctx);
    m->weight = w;
    return 0;
}

const mdl_op_def mdl_op_morph = {
    .op = "morph",
    .fields = morph_fields,
    .description = "Creates or replaces a sparse shape target of an object, pinning its "
                   "topology.",
    .run = run_morph,
};

const mdl_op_def mdl_op_capture_morph = {
    .op = "capture_morph",
    .fields = capture_fields,
    .description = "Creates or replaces a shape target from an object of identical topology "
                   "in the target shape.",
    .run = run_capture_morph,
};

const mdl_op_def mdl_op_delete_morph = {
    .op = "delete_morph",
    .fields = delete_morph_fields,
    .description = "Removes a shape target and its keys in every clip.",
    .run = run_delete_morph,
};

const mdl_op_def mdl_op_morph_weight = {
    .op = "morph_weight",
    .fields = morph_weight_fields,
    .description = "Sets a shape target's default influence.",
    .run = run_morph_weight,
};
