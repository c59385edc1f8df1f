/* The mesh the viewer draws under the skeleton: every triangle primitive
 * of every node that has a mesh, with its positions, normals, first
 * joint/weight set and indices, and each skin's inverse bind matrices. The
 * viewer skins on the GPU from these and the per-frame matrices of
 * matrix_bones each clip carries. A mesh on a node without a skin rides
 * its node rigidly; it is written as a one-joint skin of that node (joint
 * 0, weight 1, identity inverse bind), so the viewer has one path for
 * both.
 *
 * The byte size is computed from the accessor counts and checked against
 * the mesh budget before anything is decoded; a mesh over it, or one whose
 * data does not hold together (a joint index beyond its skin, an index
 * beyond its vertices), is left out with a reason: the report and its
 * findings stand without it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/asset_internal.h"
#include "report/report_internal.h"

/* A written skin: a doc skin, or the one-joint skin of a rigid node. */
typedef struct mesh_skin {
    uint32_t doc_skin;  /* ANIM_NONE for a rigid node */
    uint32_t bone;      /* the rigid node */
} mesh_skin;

typedef struct mesh_plan {
    report_mesh_part *parts;
    uint32_t part_count;
    uint32_t *skin_slot;    /* doc skin -> position in the written skins, ANIM_NONE unused */
    uint32_t *rigid_slot;   /* bone -> position of its rigid skin, ANIM_NONE unused */
    mesh_skin *skins;       /* written skins */
    uint32_t skin_count;
    uint32_t *bone_slot;    /* bone -> position in matrix_bones, ANIM_NONE unused */
    uint32_t *matrix_bones;
    uint32_t matrix_bone_count;
} mesh_plan;

/* A skinned primitive needs its first joint and weight sets; a rigid one
 * only its positions. */
static bool usable(const anim_source *src, const anim_primitive *p, bool skinned)
{
    if (p->mode != 4 || p->position == ANIM_NONE || src->accessors[p->position].count == 0 ||
        src->accessors[p->position].components != 3)
        return false;
    return !skinned || (p->joints0 != ANIM_NONE && p->weights0 != ANIM_NONE &&
                        src->accessors[p->joints0].components == 4 &&
                        src->accessors[p->weights0].components == 4);
}

/* The skin a mesh node draws with: its own when it has a valid one. */
static uint32_t node_skin(const anim_doc *doc, const anim_bone *bone)
{
    return bone->skin != ANIM_NONE && bone->skin < doc->skin_count ? bone->skin : ANIM_NONE;
}

static void add_matrix_bone(mesh_plan *plan, uint32_t b)
{
    if (plan->bone_slot[b] == ANIM_NONE) {
        plan->bone_slot[b] = plan->matrix_bone_count;
        plan->matrix_bones[plan->matrix_bone_count++] = b;
    }
}

/* The parts, and the bytes they would embed; NULL reason = fits. */
static const char *plan_mesh(const report_doc *rd, anim_arena *arena, mesh_plan *plan)
{
    const anim_doc *doc = rd->doc;
    const anim_source *src = &rd->in->asset->source;
    memset(plan, 0, sizeof *plan);
    uint64_t parts = 0, bytes = 0;
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        if (bone->mesh == ANIM_NONE || bone->mesh >= doc->mesh_count)
            continue;
        const anim_mesh *m = &doc->meshes[bone->mesh];
        for (uint32_t p = 0; p < m->primitive_count; p++) {
            const anim_primitive *prim = &m->primitives[p];
            if (!usable(src, prim, node_skin(doc, bone) != ANIM_NONE))
                continue;
            uint64_t v = src->accessors[prim->position].count;
            uint64_t idx = prim->indices != ANIM_NONE ? src->accessors[prim->indices].count : v;
            bytes += v * (12 + 12 + 8 + 16) + idx * 4;
            parts++;
        }
    }
    if (parts == 0)
        return "";
    if (bytes > ANIM_HTML_REPORT_MESH_BYTES)
        return "the mesh would add more than 64 MiB to the report";
    plan->parts = anim_arena_calloc(arena, parts, sizeof *plan->parts);
    plan->skin_slot = anim_arena_alloc(arena, (size_t)doc->skin_count * sizeof(uint32_t));
    plan->rigid_slot = anim_arena_alloc(arena, (size_t)doc->bone_count * sizeof(uint32_t));
    plan->skins = anim_arena_calloc(arena, (size_t)doc->skin_count + doc->bone_count, sizeof *plan->skins);
    plan->bone_slot = anim_arena_alloc(arena, (size_t)doc->bone_count * sizeof(uint32_t));
    plan->matrix_bones = anim_arena_calloc(arena, doc->bone_count, sizeof(uint32_t));
    if (!plan->parts || (doc->skin_count && !plan->skin_slot) || !plan->rigid_slot ||
        !plan->skins || !plan->bone_slot || !plan->matrix_bones)
        return "out of memory";
    if (doc->skin_count)
        memset(plan->skin_slot, 0xff, (size_t)doc->skin_count * sizeof(uint32_t));
    memset(plan->rigid_slot, 0xff, (size_t)doc->bone_count * sizeof(uint32_t));
    memset(plan->bone_slot, 0xff, (size_t)doc->bone_count * sizeof(uint32_t));
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        if (bone->mesh == ANIM_NONE || bone->mesh >= doc->mesh_count)
            continue;
        uint32_t sk = node_skin(doc, bone);
        const anim_mesh *m = &doc->meshes[bone->mesh];
        for (uint32_t p = 0; p < m->primitive_count; p++) {
            if (!usable(src, &m->primitives[p], sk != ANIM_NONE))
                continue;
            report_mesh_part part = {b, bone->mesh, p, sk};
            plan->parts[plan->part_count++] = part;
            if (sk == ANIM_NONE) {
                if (plan->rigid_slot[b] == ANIM_NONE) {
                    plan->rigid_slot[b] = plan->skin_count;
                    plan->skins[plan->skin_count++] = (mesh_skin){ANIM_NONE, b};
                    add_matrix_bone(plan, b);
                }
                continue;
            }
            if (plan->skin_slot[sk] != ANIM_NONE)
                continue;
            const anim_skin *skin = &doc->skins[sk];
            plan->skin_slot[sk] = plan->skin_count;
            plan->skins[plan->skin_count++] = (mesh_skin){sk, ANIM_NONE};
            for (uint32_t j = 0; j < skin->joint_count; j++) {
                uint32_t jb = skin->joints[j] < doc->node_count ? doc->node_to_bone[skin->joints[j]] : ANIM_NONE;
                if (jb == ANIM_NONE || jb >= doc->bone_count)
                    return "a skin joint names a node outside the skeleton";
                add_matrix_bone(plan, jb);
            }
        }
    }
    return NULL;
}

/* One accessor as f32 (count * width floats) in base64. */
static int write_floats(anim_json_writer *w, const char *key, const double *v, size_t n)
{
    uint8_t *buf = malloc(n ? n * 4 : 1);
    if (!buf)
        return -1;
    for (size_t i = 0; i < n; i++)
        report_put_f32(buf + i * 4, v[i]);
    anim_json_writer_key(w, key);
    report_json_base64(w, buf, n * 4);
    free(buf);
    return 0;
}

/* Reads one primitive's data; a reason when it does not hold together. A
 * rigid primitive gets joint 0 weight 1 on every vertex. */
static const char *write_part(anim_json_writer *w, const report_doc *rd, const mesh_plan *plan,
                              const report_mesh_part *part, anim_error *err)
{
    const anim_source *src = &rd->in->asset->source;
    const anim_primitive *prim = &rd->doc->meshes[part->mesh].primitives[part->prim];
    bool rigid = part->skin == ANIM_NONE;
    uint32_t joint_count = rigid ? 1 : rd->doc->skins[part->skin].joint_count;
    uint32_t vc = src->accessors[prim->position].count;
    bool normals = prim->normal != ANIM_NONE && src->accessors[prim->normal].count == vc &&
                   src->accessors[prim->normal].components == 3;
    if (!rigid &&
        (src->accessors[prim->joints0].count != vc || src->accessors[prim->weights0].count != vc))
        return "a skinned primitive's joints or weights do not match its vertex count";
    double *pos = asset_read_accessor(src, prim->position, err);
    double *nrm = normals ? asset_read_accessor(src, prim->normal, err) : NULL;
    double *jnt = rigid ? NULL : asset_read_accessor(src, prim->joints0, err);
    double *wgt = rigid ? calloc((size_t)vc * 4, sizeof *wgt)
                        : asset_read_accessor(src, prim->weights0, err);
    double *idx = prim->indices != ANIM_NONE ? asset_read_accessor(src, prim->indices, err) : NULL;
    uint32_t ic = prim->indices != ANIM_NONE ? src->accessors[prim->indices].count : vc;
    const char *why = NULL;
    uint8_t *ju = NULL, *iu = NULL;
    if (!pos || (normals && !nrm) || (!rigid && !jnt) || !wgt ||
        (prim->indices != ANIM_NONE && !idx)) {
        why = "a mesh primitive's data could not be read";
        goto done;
    }
    ju = calloc((size_t)vc, 8);
    iu = malloc((size_t)(ic ? ic : 1) * 4);
    if (!ju || !iu) {
        why = "out of memory";
        goto done;
    }
    for (size_t i = 0; !rigid && i < (size_t)vc * 4; i++) {
        if (!(jnt[i] >= 0.0 && jnt[i] < (double)joint_count)) {
            why = "a vertex names a joint its skin does not have";
            goto done;
        }
        report_put_u16(ju + i * 2, (uint32_t)jnt[i]);
    }
    for (size_t v = 0; rigid && v < vc; v++)
        wgt[v * 4] = 1.0;
    for (uint32_t i = 0; i < ic; i++) {
        double v = idx ? idx[i] : (double)i;
        if (!(v >= 0.0 && v < (double)vc)) {
            why = "an index names a vertex the primitive does not have";
            goto done;
        }
        report_put_u32(iu + (size_t)i * 4, (uint32_t)v);
    }
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "skin");
    anim_json_writer_uint(w, rigid ? plan->rigid_slot[part->bone] : plan->skin_slot[part->skin]);
    anim_json_writer_key(w, "vertex_count");
    anim_json_writer_uint(w, vc);
    anim_json_writer_key(w, "index_count");
    anim_json_writer_uint(w, ic - ic % 3);
    if (write_floats(w, "positions", pos, (size_t)vc * 3)) {
        why = "out of memory";
        goto done;
    }
    if (nrm) {
        if (write_floats(w, "normals", nrm, (size_t)vc * 3)) {
            why = "out of memory";
            goto done;
        }
    } else {
        anim_json_writer_key(w, "normals");
        anim_json_writer_null(w);
    }
    anim_json_writer_key(w, "joints");
    report_json_base64(w, ju, (size_t)vc * 8);
    if (write_floats(w, "weights", wgt, (size_t)vc * 4)) {
        why = "out of memory";
        goto done;
    }
    anim_json_writer_key(w, "indices");
    report_json_base64(w, iu, (size_t)(ic - ic % 3) * 4);
    anim_json_writer_end_object(w);
done:
    free(pos);
    free(nrm);
    free(jnt);
    free(wgt);
    free(idx);
    free(ju);
    free(iu);
    return why;
}

static void write_skins(anim_json_writer *w, const report_doc *rd, const mesh_plan *plan)
{
    static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const anim_doc *doc = rd->doc;
    anim_json_writer_key(w, "skins");
    anim_json_writer_begin_array(w);
    for (uint32_t s = 0; s < plan->skin_count; s++) {
        const mesh_skin *ms = &plan->skins[s];
        const anim_skin *skin = ms->doc_skin != ANIM_NONE ? &doc->skins[ms->doc_skin] : NULL;
        uint32_t joints = skin ? skin->joint_count : 1;
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "joints");
        anim_json_writer_begin_array(w);
        for (uint32_t j = 0; j < joints; j++)
            anim_json_writer_uint(
                w, plan->bone_slot[skin ? doc->node_to_bone[skin->joints[j]] : ms->bone]);
        anim_json_writer_end_array(w);
        /* Absent inverse bind matrices are identities (glTF). */
        size_t n = (size_t)joints * 16;
        double *ibm = malloc(n * sizeof *ibm);
        if (ibm) {
            for (size_t i = 0; i < n; i++)
                ibm[i] = skin && skin->inverse_bind ? skin->inverse_bind[i] : identity[i % 16];
            if (write_floats(w, "inverse_bind", ibm, n))
                w->out->failed = true;
            free(ibm);
        } else {
            w->out->failed = true;
        }
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

bool report_write_mesh(anim_json_writer *w, const report_doc *rd, const report_mesh_room *room,
                       report_mesh_drawn *drawn, const char **omission, anim_error *err)
{
    memset(drawn, 0, sizeof *drawn);
    mesh_plan plan;
    const char *why = plan_mesh(rd, rd->arena, &plan);
    /* frames < 2^32 * 4096 clips and bones < 2^32: no overflow in 64 bits */
    if (!why && (uint64_t)plan.matrix_bone_count * 64 * (room->frames + 1) > room->pose_bytes_left)
        why = "its joint matrices over every frame would take the report past its pose bound";
    if (!why) {
        /* The primitives go to a side buffer first: one that does not hold
         * together drops the whole mesh, not half of it. */
        anim_strbuf part_json = ANIM_STRBUF_INIT;
        anim_json_writer pw;
        anim_json_writer_init(&pw, &part_json, false);
        anim_json_writer_begin_array(&pw);
        for (uint32_t i = 0; i < plan.part_count && !why; i++)
            why = write_part(&pw, rd, &plan, &plan.parts[i], err);
        anim_json_writer_end_array(&pw);
        if (!why && part_json.failed)
            why = "out of memory";
        if (!why) {
            anim_json_writer_key(w, "mesh");
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "matrix_bones");
            anim_json_writer_begin_array(w);
            for (uint32_t j = 0; j < plan.matrix_bone_count; j++)
                anim_json_writer_uint(w, plan.matrix_bones[j]);
            anim_json_writer_end_array(w);
            write_skins(w, rd, &plan);
            anim_json_writer_key(w, "primitives");
            anim_json_writer_raw(w, part_json.data, part_json.len);
            anim_json_writer_end_object(w);
            anim_json_writer_key(w, "mesh_omission");
            anim_json_writer_null(w);
        }
        anim_strbuf_free(&part_json);
    }
    if (why) {
        anim_json_writer_key(w, "mesh");
        anim_json_writer_null(w);
        anim_json_writer_key(w, "mesh_omission");
        if (why[0])
            anim_json_writer_string(w, why);
        else
            anim_json_writer_null(w);
        *omission = why[0] ? why : NULL;
        return false;
    }
    *omission = NULL;
    drawn->matrix_bones = plan.matrix_bones;
    drawn->matrix_bone_count = plan.matrix_bone_count;
    drawn->parts = plan.parts;
    drawn->part_count = plan.part_count;
    return true;
}
