/* The delete operations: delete_faces removes faces and the vertices no
 * remaining face uses (with their weights and edge attributes);
 * delete_object removes a whole object and retires its id counters, so an
 * object recreated under the same name never reuses an id. */
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"

static int run_delete_faces(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    size_t n = 0;
    uint64_t *ids = mdl_field_ids(ctx, op, "faces", &n);
    if (!ids && ctx->nomem)
        return -1;
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    bool *remove = calloc(o->face_count ? o->face_count : 1, sizeof *remove);
    int rc = -1;
    if (!idx || !remove) {
        mdl_nomem(ctx);
        goto out;
    }
    if (mdl_resolve_faces(ctx, o, ids, n, idx) != 0 ||
        mdl_spend(ctx, 1 + n + o->face_count + o->corner_count + o->vertex_count +
                           o->weight_count + o->edge_count) != 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        remove[idx[i]] = true;
    if (mdl_object_remove_faces(o, remove) != 0) {
        mdl_nomem(ctx);
        goto out;
    }
    rc = 0;
out:
    free(ids);
    free(idx);
    free(remove);
    return rc;
}

static const mdl_field delete_faces_fields[] = {
    {.name = "faces", .type = MDL_F_IDS, .required = true, .min_items = 1,
     .description = "face ids to remove; vertices left unused go with them"},
    {0},
};

const mdl_op_def mdl_op_delete_faces = {
    .op = "delete_faces",
    .mesh_edit = true,
    .fields = delete_faces_fields,
    .description = "removes faces and the vertices no remaining face uses",
    .run = run_delete_faces,
};

static int run_delete_object(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    if (mdl_spend(ctx, 1 + o->vertex_count + o->face_count + o->corner_count + o->weight_count +
                           o->edge_count) != 0)
        return -1;
    char name[MDL_NAME_MAX + 1];
    size_t len = strlen(o->name);
    memcpy(name, o->name, len + 1);
    if (mdl_doc_delete_object(ctx->doc, name) != 0)
        return mdl_nomem(ctx);
    /* The row still names the object: point at the retired entry's copy
     * of the name (the batch copies it as soon as the operation returns). */
    if (ctx->result) {
        ctx->result->object = NULL;
        for (size_t i = 0; i < ctx->doc->retired_count; i++) {
            if (strcmp(ctx->doc->retired[i].name, name) == 0)
                ctx->result->object = ctx->doc->retired[i].name;
        }
    }
    return 0;
}

static const mdl_field delete_object_fields[] = {
    {0},
};

const mdl_op_def mdl_op_delete_object = {
    .op = "delete_object",
    .mesh_edit = true,
    .fields = delete_object_fields,
    .description = "removes an object; a later object of the same name continues its ids",
    .run = run_delete_object,
};
