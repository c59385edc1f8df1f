/* The mesh-quality section of a single-document report (--lod): the
 * skinning-envelope residual of a reduced version of the document's
 * asset, measured as `mesh-quality residual --envelope-from-clips` (and
 * `lod`) measure it, one row per skinned mesh, with each row's worst
 * samples.
 *
 * A worst sample's bind position stays where the rest pose has it; the
 * viewer needs the point to follow the animated surface. So each mark is
 * placed on the mesh the page draws: the written primitive, the three
 * vertices of the source triangle that carries it (in that primitive's own
 * numbering) and its barycentric weights there. Skinning those three
 * vertices with the mesh's joint matrices and blending them by the weights
 * is exactly the surface point the GPU draws. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/meshq.h"
#include "meshq/mq_gltf_mesh.h"
#include "report/report_internal.h"

/* Where a mark sits on the drawn mesh; part ANIM_NONE when it is not. */
typedef struct mark_place {
    uint32_t part;
    uint32_t vertices[3];
    double bary[3];
} mark_place;

static const char *state_name(anim_mq_state s)
{
    switch (s) {
    case ANIM_MQ_MEASURED:
        return "measured";
    case ANIM_MQ_REFUSED:
        return "refused";
    default:
        return "not-measurable";
    }
}

/* The written primitive of glTF primitive prim of mesh on bone, or
 * ANIM_NONE. */
static uint32_t part_of(const report_mesh_drawn *drawn, uint32_t bone, uint32_t mesh,
                        uint32_t prim)
{
    for (uint32_t i = 0; drawn && i < drawn->part_count; i++)
        if (drawn->parts[i].bone == bone && drawn->parts[i].mesh == mesh &&
            drawn->parts[i].prim == prim)
            return i;
    return ANIM_NONE;
}

/* Places every mark of a measured row on the source triangle the residual
 * measured it in. A mesh the page does not draw, or a carrier outside the
 * drawn primitive, leaves the marks unplaced: they are still listed, only
 * not drawn. */
static void place_marks(const report_doc *rd, const anim_mq_gltf_row *row,
                        const report_mesh_drawn *drawn, mark_place *places)
{
    const anim_mq_reading *r = &row->reading;
    for (uint32_t i = 0; i < r->mark_count; i++)
        places[i].part = ANIM_NONE;
    const anim_mq_mesh *src = row->source_mesh;
    if (!drawn || !drawn->parts || !src || !row->source_carriers || r->mark_count == 0)
        return;
    const anim_asset *asset = rd->in->asset;
    const anim_doc *doc = rd->doc;
    uint32_t skin;
    uint32_t node = mq_gltf_mesh_instance(asset, row->mesh, &skin);
    if (node == ANIM_NONE || node >= doc->node_count || row->mesh >= doc->mesh_count)
        return;
    uint32_t bone = doc->node_to_bone[node];
    const anim_mesh *m = &doc->meshes[row->mesh];
    for (uint32_t i = 0; i < r->mark_count; i++) {
        const anim_mq_worst_mark *mark = &r->marks[i];
        if (mark->sample >= r->samples)
            continue;
        const anim_mq_carrier c = row->source_carriers[mark->sample];
        if (c.triangle == ANIM_MQ_NONE || c.triangle >= src->triangle_count)
            continue;
        uint32_t prim = src->groups ? src->groups[c.triangle] : 0;
        uint32_t part = part_of(drawn, bone, row->mesh, prim);
        if (part == ANIM_NONE || prim >= m->primitive_count)
            continue;
        uint32_t first = mq_gltf_mesh_first_vertex(m, prim);
        uint32_t count = m->primitives[prim].vertex_count;
        /* + 0.0 writes a zero weight as 0, not -0. */
        mark_place p = {part, {0, 0, 0}, {c.bary[0] + 0.0, c.bary[1] + 0.0, c.bary[2] + 0.0}};
        bool ok = true;
        for (int k = 0; k < 3; k++) {
            uint32_t v = src->triangles[3 * (size_t)c.triangle + k];
            ok = ok && v >= first && v - first < count;
            p.vertices[k] = v - first;
        }
        if (ok)
            places[i] = p;
    }
}

static void write_marks(anim_json_writer *w, const report_doc *rd, const anim_mq_gltf_row *row,
                        const report_mesh_drawn *drawn, bool evidence)
{
    const anim_mq_reading *r = &row->reading;
    mark_place places[ANIM_MQ_WORST_KEPT];
    place_marks(rd, row, evidence ? NULL : drawn, places);
    anim_json_writer_key(w, "marks");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < r->mark_count && row->samples; i++) {
        const anim_mq_worst_mark *mark = &r->marks[i];
        double value = anim_mq_r6(mark->value);
        /* A sample where the meshes agree marks nothing worth finding. */
        if (!(value > 0) || mark->sample >= r->samples)
            continue;
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "sample", mark->sample);
        anim_json_writer_key(w, "value");
        anim_json_writer_f64(w, value);
        anim_json_writer_key(w, "uv");
        anim_json_writer_f64_array(w, row->samples[mark->sample].uv, 2);
        /* An evidence-only page carries no geometry: the mark keeps its
         * value and UV, not where it is in space. */
        anim_json_writer_key(w, "position");
        if (evidence)
            anim_json_writer_null(w);
        else
            anim_json_writer_f64_array(w, mark->position, 3);
        const mark_place *p = &places[i];
        anim_json_writer_key(w, "primitive");
        if (p->part == ANIM_NONE) {
            anim_json_writer_null(w);
            anim_json_writer_key(w, "vertices");
            anim_json_writer_null(w);
            anim_json_writer_key(w, "bary");
            anim_json_writer_null(w);
        } else {
            anim_json_writer_uint(w, p->part);
            anim_json_writer_key(w, "vertices");
            anim_json_writer_begin_array(w);
            for (int k = 0; k < 3; k++)
                anim_json_writer_uint(w, p->vertices[k]);
            anim_json_writer_end_array(w);
            anim_json_writer_key(w, "bary");
            anim_json_writer_f64_array(w, p->bary, 3);
        }
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void write_row(anim_json_writer *w, const report_doc *rd, const anim_mq_gltf_row *row,
                      const report_mesh_drawn *drawn, bool evidence)
{
    const anim_mq_reading *r = &row->reading;
    bool measured = r->state == ANIM_MQ_MEASURED;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "mesh");
    anim_json_writer_string(w, row->mesh_name);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, state_name(r->state));
    /* An unmeasured row has no value at all: null, never 0. */
    anim_json_writer_key(w, "value");
    if (measured)
        anim_json_writer_f64(w, r->value);
    else
        anim_json_writer_null(w);
    anim_json_writer_key_string_or_null(w, "code", measured ? NULL : r->code);
    anim_json_writer_key_string_or_null(w, "reason", measured ? NULL : r->reason);
    /* A row refused before both meshes were read has no triangle counts. */
    anim_json_writer_key(w, "triangles");
    if (row->source_mesh) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "source", row->source_triangles);
        anim_json_writer_key_uint(w, "candidate", row->candidate_triangles);
        anim_json_writer_end_object(w);
    } else {
        anim_json_writer_null(w);
    }
    anim_json_writer_key(w, "samples");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "total", r->samples);
    anim_json_writer_key(w, "measured");
    if (measured)
        anim_json_writer_uint(w, r->measured);
    else
        anim_json_writer_null(w);
    anim_json_writer_end_object(w);
    if (measured) {
        write_marks(w, rd, row, drawn, evidence);
    } else {
        anim_json_writer_key(w, "marks");
        anim_json_writer_begin_array(w);
        anim_json_writer_end_array(w);
    }
    anim_json_writer_end_object(w);
}

int report_write_mesh_quality(anim_json_writer *w, const report_doc *rd,
                              const anim_html_report_options *opts, const report_mesh_drawn *drawn,
                              anim_html_report_summary *summary, anim_error *err)
{
    if (!opts || !opts->lod)
        return 0;
    const char *path = opts->lod_path ? opts->lod_path : "candidate";
    const char *doc_path = rd->in->path ? rd->in->path : "document";
    /* Said here, in the report's terms: the residual's own message points
     * at an option report does not have. */
    bool skinned = false;
    for (uint32_t m = 0; m < rd->doc->mesh_count && !skinned; m++)
        skinned = mq_gltf_mesh_is_skinned(rd->in->asset, m);
    if (!skinned)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s has no skinned mesh (a mesh used by a node with a skin), so "
                              "there is nothing to measure the LOD '%s' against",
                              doc_path, path);
    anim_mq_gltf_options mo;
    memset(&mo, 0, sizeof mo);
    /* The motion a LOD must stay correct under is what the clips contain,
     * as `lod` certifies it. */
    mo.envelope_from_clips = true;
    mo.source_path = doc_path;
    mo.candidate_path = path;
    anim_mq_gltf_result res;
    if (anim_mq_gltf_residual(rd->in->asset, opts->lod, &mo, rd->arena, &res, err))
        return -1;
    anim_json_writer_key(w, "mesh_quality");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "candidate");
    anim_json_writer_string(w, path);
    anim_json_writer_key(w, "envelope");
    anim_json_writer_string(w, "clips");
    anim_json_writer_key(w, "rows");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < res.row_count; i++) {
        const anim_mq_gltf_row *row = &res.rows[i];
        write_row(w, rd, row, drawn, opts->evidence_only);
        summary->lod_rows++;
        if (row->reading.state == ANIM_MQ_MEASURED) {
            summary->lod_measured++;
            if (row->reading.value > summary->lod_residual)
                summary->lod_residual = row->reading.value;
        }
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
    return 0;
}
