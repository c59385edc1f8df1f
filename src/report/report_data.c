/* One CLIP object of the embedded data: the judged grid's times, what the
 * contract declares for the clip, and its motion-bearing streams (model-
 * space positions, the blend's local transforms, the skin joints'
 * matrices), each little-endian f32 in base64. The grid is sampled again
 * here, one clip at a time, so a report of many clips holds one grid. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "report/blend.h"
#include "report/report_internal.h"

static void write_declares(anim_json_writer *w, const report_doc *rd, const anim_clip *clip)
{
    anim_clip_expect ex;
    anim_config_clip_expect(rd->in->config, clip->name, &ex);
    anim_json_writer_key(w, "declares");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "loop");
    if (ex.loop.set)
        anim_json_writer_bool(w, ex.loop.value);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "speed_mps");
    if (ex.speed_mps.set)
        anim_json_writer_f64(w, ex.speed_mps.value);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "movement_owner_xz");
    if (ex.movement_owner_xz != ANIM_OWNER_UNSET)
        anim_json_writer_string(w, anim_movement_owner_name(ex.movement_owner_xz));
    else
        anim_json_writer_null(w);
    anim_json_writer_end_object(w);
}

static int write_positions(anim_json_writer *w, const anim_metric_grid *g, anim_error *err)
{
    size_t n = (size_t)g->frame_count * g->bone_count;
    uint8_t *buf = malloc(n ? n * 12 : 1);
    if (!buf)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < n; i++) {
        const double v[3] = {g->model_pos[i].x, g->model_pos[i].y, g->model_pos[i].z};
        for (int k = 0; k < 3; k++) {
            report_put_f32(buf + i * 12 + (size_t)k * 4, v[k]);
            if (isfinite(v[k])) {
                lo[k] = v[k] < lo[k] ? v[k] : lo[k];
                hi[k] = v[k] > hi[k] ? v[k] : hi[k];
            }
        }
    }
    anim_json_writer_key(w, "positions");
    report_json_base64(w, buf, n * 12);
    free(buf);
    anim_json_writer_key(w, "bounds");
    anim_json_writer_begin_object(w);
    const char *names[2] = {"min", "max"};
    for (int e = 0; e < 2; e++) {
        anim_json_writer_key(w, names[e]);
        anim_json_writer_begin_array(w);
        for (int k = 0; k < 3; k++)
            anim_json_writer_f64(w, lo[k] <= hi[k] ? (e ? hi[k] : lo[k]) : 0.0);
        anim_json_writer_end_array(w);
    }
    anim_json_writer_end_object(w);
    return 0;
}

/* The local stream, or its omission reason when a sampled value is not
 * finite or a rotation is not unit length. */
static int write_local(anim_json_writer *w, const report_doc *rd, const anim_clip *clip,
                       const anim_metric_grid *g, anim_error *err)
{
    const char *why = report_local_clip_omission(rd->doc, clip);
    size_t n = (size_t)g->frame_count * g->bone_count;
    float *recs = NULL;
    if (!why) {
        recs = malloc(n ? n * 40 : 1);
        if (!recs)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
            const anim_trs *l = &g->local[i];
            const double v[10] = {l->t.x, l->t.y, l->t.z, l->r.x, l->r.y,
                                  l->r.z, l->r.w, l->s.x, l->s.y, l->s.z};
            for (int k = 0; k < 10; k++)
                recs[i * 10 + (size_t)k] = (float)v[k];
        }
        if (!report_blend_stream_valid(recs, n, &why) && !why)
            why = "a sampled local transform is not usable";
    }
    anim_json_writer_key(w, "local");
    if (!why) {
        uint8_t *bytes = (uint8_t *)recs;
        for (size_t i = 0; i < n * 10; i++)
            report_put_f32(bytes + i * 4, recs[i]); /* in place: same size, forward */
        report_json_base64(w, bytes, n * 40);
    } else {
        anim_json_writer_null(w);
    }
    free(recs);
    anim_json_writer_key(w, "local_omission");
    if (why)
        anim_json_writer_string(w, why);
    else
        anim_json_writer_null(w);
    return 0;
}

/* The matrices of the listed bones in one pose, 16 f32 each. */
static void pack_matrices(const anim_mat4 *model, const uint32_t *bones, uint32_t count, uint8_t *p)
{
    for (uint32_t j = 0; j < count; j++)
        for (int k = 0; k < 16; k++)
            report_put_f32(p + (size_t)j * 64 + (size_t)k * 4, model[bones[j]].m[k]);
}

static int write_bone_matrices(anim_json_writer *w, const report_doc *rd,
                               const anim_metric_grid *g, const report_clip_streams *st,
                               anim_error *err)
{
    const anim_doc *doc = rd->doc;
    size_t per_frame = (size_t)st->matrix_bone_count * 64;
    uint8_t *buf = malloc(per_frame && g->frame_count ? per_frame * g->frame_count : 1);
    anim_mat4 *model = malloc((doc->bone_count ? doc->bone_count : 1) * sizeof *model);
    if (!buf || !model) {
        free(buf);
        free(model);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    for (uint32_t f = 0; f < g->frame_count; f++) {
        anim_pose_fk(doc, &g->local[(size_t)f * g->bone_count], model, NULL);
        pack_matrices(model, st->matrix_bones, st->matrix_bone_count, buf + (size_t)f * per_frame);
    }
    anim_json_writer_key(w, "bone_matrices");
    report_json_base64(w, buf, per_frame * g->frame_count);
    free(buf);
    free(model);
    return 0;
}

int report_write_clip(anim_json_writer *w, const report_doc *rd, uint32_t report_clip,
                      const report_clip_streams *streams, const char *const *figure_ids,
                      uint32_t figure_count, anim_error *err)
{
    uint32_t c = rd->clips[report_clip];
    const anim_clip *clip = &rd->doc->clips[c];
    const report_series *s = &rd->series[c];
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "index");
    anim_json_writer_uint(w, report_clip);
    anim_json_writer_key(w, "name");
    anim_json_writer_string(w, clip->name);
    anim_json_writer_key(w, "duration_s");
    anim_json_writer_f64(w, clip->duration_s);
    anim_json_writer_key(w, "frame_count");
    anim_json_writer_uint(w, s->frame_count);
    anim_json_writer_key(w, "times");
    anim_json_writer_begin_array(w);
    for (uint32_t f = 0; f < s->frame_count; f++)
        anim_json_writer_f64(w, s->times[f]);
    anim_json_writer_end_array(w);
    write_declares(w, rd, clip);
    anim_json_writer_key(w, "figures");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < figure_count; i++)
        anim_json_writer_string(w, figure_ids[i]);
    anim_json_writer_end_array(w);
    int rc = 0;
    if (streams->positions) {
        anim_metric_grid g;
        if (report_doc_grid(rd, c, &g, err))
            return -1;
        rc = write_positions(w, &g, err);
        if (rc == 0 && streams->local)
            rc = write_local(w, rd, clip, &g, err);
        else if (rc == 0 && !streams->comparison) {
            anim_json_writer_key(w, "local");
            anim_json_writer_null(w);
            anim_json_writer_key(w, "local_omission");
            anim_json_writer_null(w);
        }
        if (rc == 0 && streams->matrix_bones)
            rc = write_bone_matrices(w, rd, &g, streams, err);
        anim_metric_grid_free(&g);
    }
    anim_json_writer_end_object(w);
    return rc;
}

int report_write_rest_pose(anim_json_writer *w, const report_doc *rd, const uint32_t *matrix_bones,
                           uint32_t matrix_bone_count, anim_error *err)
{
    const anim_doc *doc = rd->doc;
    size_t nb = doc->bone_count ? doc->bone_count : 1;
    anim_trs *local = malloc(nb * sizeof *local);
    anim_mat4 *model = malloc(nb * sizeof *model);
    uint8_t *buf = malloc(nb * 12 + (size_t)matrix_bone_count * 64);
    if (!local || !model || !buf) {
        free(local);
        free(model);
        free(buf);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    anim_pose_rest(doc, local);
    anim_pose_fk(doc, local, model, NULL);
    for (uint32_t b = 0; b < doc->bone_count; b++)
        for (int k = 0; k < 3; k++)
            report_put_f32(buf + (size_t)b * 12 + (size_t)k * 4, model[b].m[12 + k]);
    anim_json_writer_key(w, "rest_pose");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "positions");
    report_json_base64(w, buf, (size_t)doc->bone_count * 12);
    anim_json_writer_key(w, "bone_matrices");
    if (matrix_bones) {
        pack_matrices(model, matrix_bones, matrix_bone_count, buf);
        report_json_base64(w, buf, (size_t)matrix_bone_count * 64);
    } else {
        anim_json_writer_null(w);
    }
    anim_json_writer_end_object(w);
    free(local);
    free(model);
    free(buf);
    return 0;
}
