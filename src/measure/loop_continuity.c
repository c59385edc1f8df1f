/* loop_continuity: per-bone C0 and C1 seam facts from the
 * metric grid, with per-row availability (one bad bone never hides the
 * others), plus the shared
 * loop caps and the f32 cap rule. */
#include <math.h>
#include <string.h>

#include "animsmith/availability.h"
#include "animsmith/math.h"
#include "animsmith/measure_loop.h"
#include "animsmith/numfmt.h"

/* Finite with a finite, non-zero squared length: a rotation we can
 * normalize without inventing a direction. */
static bool quat_usable(anim_quat q)
{
    double n = anim_quat_dot(q, q);
    return anim_quat_is_finite(q) && isfinite(n) && n > 0.0;
}

/* Rotation vector of the step from -> to: the step is
 * canonicalized to the w >= 0 hemisphere (ties on w = 0 broken by the
 * first non-zero of x, y, z) so the angle is the short way round. */
static bool rotvec(anim_quat from, anim_quat to, anim_vec3 *out)
{
    anim_quat step = anim_quat_mul(to, anim_quat_conj(from));
    if (!anim_quat_is_finite(step))
        return false;
    bool negate = step.w < 0.0;
    if (step.w == 0.0) {
        double first = step.x != 0.0 ? step.x : step.y != 0.0 ? step.y : step.z;
        negate = first < 0.0;
    }
    if (negate)
        step = anim_quat_neg(step);
    double s = sqrt(step.x * step.x + step.y * step.y + step.z * step.z);
    if (s == 0.0) {
        *out = anim_vec3_make(0.0, 0.0, 0.0);
        return true;
    }
    double angle = 2.0 * atan2(s, step.w);
    *out = anim_vec3_scale(anim_vec3_make(step.x, step.y, step.z), angle / s);
    return anim_vec3_is_finite(*out);
}

/* One bone's row; false when its evidence is unusable. */
static bool measure_bone(const anim_metric_grid *g, uint32_t b, double dt_first, double dt_last,
                         anim_loop_bone *row)
{
    uint32_t n = g->frame_count;
    uint32_t frames[4] = {0, 1, n - 2, n - 1};
    anim_vec3 p[4];
    anim_quat q[4];
    for (int i = 0; i < 4; i++) {
        size_t at = anim_metric_grid_index(g, frames[i], b);
        p[i] = g->model_pos[at];
        q[i] = g->model_rot[at];
        if (!anim_vec3_is_finite(p[i]) || !quat_usable(q[i]))
            return false;
        q[i] = anim_quat_normalize(q[i]);
    }

    /* C0: where the last frame is relative to the first. */
    double pos = anim_vec3_len(anim_vec3_sub(p[3], p[0]));
    anim_quat d = anim_quat_mul(anim_quat_conj(q[0]), q[3]);
    double s = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    double rot = anim_deg_from_rad(2.0 * atan2(s, fabs(d.w)));

    /* C1: the two in-clip steps next to the wrap; the last -> first chord
     * is not a velocity (it would read zero on a closed loop). */
    anim_vec3 v_out = anim_vec3_scale(anim_vec3_sub(p[1], p[0]), 1.0 / dt_first);
    anim_vec3 v_in = anim_vec3_scale(anim_vec3_sub(p[3], p[2]), 1.0 / dt_last);
    double vel = anim_vec3_len(anim_vec3_sub(v_out, v_in));

    anim_vec3 r_out, r_in;
    if (!rotvec(q[0], q[1], &r_out) || !rotvec(q[2], q[3], &r_in))
        return false;
    anim_vec3 w_out = anim_vec3_scale(r_out, 1.0 / dt_first);
    anim_vec3 w_in = anim_vec3_scale(r_in, 1.0 / dt_last);
    double ang = anim_deg_from_rad(anim_vec3_len(anim_vec3_sub(w_out, w_in)));

    if (!(isfinite(pos) && isfinite(rot) && isfinite(vel) && isfinite(ang)))
        return false;
    row->position_delta_m = pos;
    row->rotation_delta_deg = rot;
    row->seam_velocity_delta_mps = vel;
    row->seam_angular_velocity_delta_degps = ang;
    return true;
}

int anim_loop_continuity_compute(const anim_doc *doc, const anim_metric_grid *grid,
                                 anim_arena *arena, anim_loop_continuity *out, anim_error *err)
{
    if (!doc || !arena || !out)
        return anim_error_set(err, ANIM_ERR_USAGE, "loop continuity: missing argument");
    memset(out, 0, sizeof *out);
    if (doc->bone_count == 0) {
        out->availability = ANIM_AVAIL_NOT_APPLICABLE;
        return 0;
    }
    out->availability = ANIM_AVAIL_UNAVAILABLE;
    if (!grid || grid->frame_count < 3)
        return 0;
    if (grid->bone_count != doc->bone_count)
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "loop continuity: grid has %u bones, skeleton %u",
                              grid->bone_count, doc->bone_count);

    uint32_t n = grid->frame_count;
    double dt_first = grid->times[1] - grid->times[0];
    double dt_last = grid->times[n - 1] - grid->times[n - 2];
    if (!(isfinite(dt_first) && dt_first > 0.0 && isfinite(dt_last) && dt_last > 0.0))
        return 0;

    anim_loop_bone *rows = anim_arena_calloc(arena, doc->bone_count, sizeof *rows);
    if (!rows)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    /* Only the four frames next to the wrap are read, for every bone. */
    const uint32_t seam[4] = {0, 1, n - 2, n - 1};
    anim_metric_grid_need_frames(grid, seam, 4);
    uint32_t measured = 0;
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        anim_loop_bone *row = &rows[b];
        row->bone_index = b;
        row->bone_name = doc->bones[b].name;
        if (measure_bone(grid, b, dt_first, dt_last, row)) {
            row->availability = ANIM_AVAIL_MEASURED;
            measured++;
        } else {
            /* An unusable bone becomes an unavailable row with no
             * numbers; the other bones keep their evidence. */
            memset(row, 0, sizeof *row);
            row->bone_index = b;
            row->bone_name = doc->bones[b].name;
            row->availability = ANIM_AVAIL_UNAVAILABLE;
        }
    }
    out->availability = ANIM_AVAIL_MEASURED;
    out->bones = rows;
    out->bone_count = doc->bone_count;
    out->measured_bone_count = measured;
    out->time_s = grid->times[n - 1];
    return 0;
}

double anim_loop_bone_metric(const anim_loop_bone *row, anim_loop_metric m)
{
    switch (m) {
    case ANIM_LOOP_POSITION: return row->position_delta_m;
    case ANIM_LOOP_ROTATION: return row->rotation_delta_deg;
    case ANIM_LOOP_VELOCITY: return row->seam_velocity_delta_mps;
    case ANIM_LOOP_ANGULAR_VELOCITY: return row->seam_angular_velocity_delta_degps;
    default: return 0.0;
    }
}

uint32_t anim_loop_continuity_worst(const anim_loop_continuity *lc, anim_loop_metric m)
{
    if (!lc || lc->availability != ANIM_AVAIL_MEASURED)
        return ANIM_NONE;
    uint32_t best = ANIM_NONE;
    double best_v = 0.0;
    for (uint32_t i = 0; i < lc->bone_count; i++) {
        const anim_loop_bone *row = &lc->bones[i];
        if (row->availability != ANIM_AVAIL_MEASURED)
            continue;
        double v = anim_loop_bone_metric(row, m);
        /* >= : ties go to the last bone in skeleton order (the documented
         * tie rule). */
        if (best == ANIM_NONE || v >= best_v) {
            best = i;
            best_v = v;
        }
    }
    return best;
}

double anim_loop_continuity_max(const anim_loop_continuity *lc, anim_loop_metric m)
{
    double best = 0.0;
    if (!lc || lc->availability != ANIM_AVAIL_MEASURED)
        return best;
    for (uint32_t i = 0; i < lc->bone_count; i++) {
        if (lc->bones[i].availability != ANIM_AVAIL_MEASURED)
            continue;
        double v = anim_loop_bone_metric(&lc->bones[i], m);
        if (v > best)
            best = v;
    }
    return best;
}

bool anim_loop_exceeds_cap(double measured, double cap)
{
    return (float)measured > (float)cap;
}

static double setting_or(const anim_config *cfg, const char *id, anim_check_setting s)
{
    return cfg ? anim_config_check_setting(cfg, id, s) : anim_check_setting_default(s);
}

void anim_loop_caps_resolve(const anim_config *cfg, const anim_clip_expect *ex,
                            anim_loop_caps *out)
{
    out->position_m = ex && ex->max_loop_position_delta_m.set
                          ? ex->max_loop_position_delta_m.value
                          : setting_or(cfg, "loop-closure", ANIM_CHECK_MAX_POSITION_DELTA_M);
    out->rotation_deg = ex && ex->max_loop_rotation_delta_deg.set
                            ? ex->max_loop_rotation_delta_deg.value
                            : setting_or(cfg, "loop-closure", ANIM_CHECK_MAX_ROTATION_DELTA_DEG);
    out->velocity_mps = ex && ex->max_loop_velocity_delta_mps.set
                            ? ex->max_loop_velocity_delta_mps.value
                            : setting_or(cfg, "loop-seam-vel", ANIM_CHECK_MAX_VELOCITY_DELTA_MPS);
    out->angular_velocity_degps =
        ex && ex->max_loop_angular_velocity_delta_degps.set
            ? ex->max_loop_angular_velocity_delta_degps.value
            : setting_or(cfg, "loop-seam-rot", ANIM_CHECK_MAX_ANGULAR_VELOCITY_DELTA_DEGPS);
}

/* ---- JSON and text ---- */

static const char *const metric_keys[ANIM_LOOP_METRIC_COUNT] = {
    "position_delta_m", "rotation_delta_deg", "seam_velocity_delta_mps",
    "seam_angular_velocity_delta_degps"};

/* The output contract before anything is written, so a
 * failure leaves the writer untouched. */
static int validate(const anim_loop_continuity *lc, const char *clip, anim_error *err)
{
    if (lc->bone_count == 0 || !lc->bones)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "measurement structure clips[\"%s\"].loop_continuity.bones is "
                              "invalid: no bone rows",
                              clip);
    for (uint32_t i = 0; i < lc->bone_count; i++) {
        const anim_loop_bone *row = &lc->bones[i];
        if (row->bone_index != i)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "measurement structure clips[\"%s\"].loop_continuity.bones[%u] "
                                  "is invalid: bone_index %u is not its position",
                                  clip, i, row->bone_index);
        if (row->availability == ANIM_AVAIL_MEASURED) {
            for (int m = 0; m < ANIM_LOOP_METRIC_COUNT; m++) {
                double v = anim_loop_bone_metric(row, (anim_loop_metric)m);
                if (!isfinite(v) || v < 0.0)
                    return anim_error_set(err, ANIM_ERR_INVALID,
                                          "measurement value clips[\"%s\"].loop_continuity."
                                          "bones[%u].%s must be finite",
                                          clip, i, metric_keys[m]);
            }
        } else if (row->availability != ANIM_AVAIL_UNAVAILABLE) {
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "measurement structure clips[\"%s\"].loop_continuity.bones[%u] "
                                  "is invalid: a bone row is measured or unavailable",
                                  clip, i);
        }
    }
    return 0;
}

int anim_loop_continuity_write_json(const anim_loop_continuity *lc, const char *clip_name,
                                    anim_json_writer *w, anim_error *err)
{
    const char *clip = clip_name ? clip_name : "";
    const char *avail = anim_availability_name(lc->availability);
    if (!avail)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "measurement structure clips[\"%s\"].loop_continuity_availability "
                              "is invalid: undecided",
                              clip);
    if (lc->availability == ANIM_AVAIL_MEASURED) {
        if (validate(lc, clip, err) != 0)
            return -1;
        anim_json_writer_key(w, "loop_continuity");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "bones");
        anim_json_writer_begin_array(w);
        for (uint32_t i = 0; i < lc->bone_count; i++) {
            const anim_loop_bone *row = &lc->bones[i];
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "bone_index");
            anim_json_writer_uint(w, row->bone_index);
            anim_json_writer_key(w, "bone_name");
            anim_json_writer_string(w, row->bone_name ? row->bone_name : "");
            anim_json_writer_key(w, "availability");
            anim_json_writer_string(w, anim_availability_name(row->availability));
            if (row->availability == ANIM_AVAIL_MEASURED) {
                for (int m = 0; m < ANIM_LOOP_METRIC_COUNT; m++) {
                    anim_json_writer_key(w, metric_keys[m]);
                    anim_json_writer_f64(w, anim_loop_bone_metric(row, (anim_loop_metric)m));
                }
            }
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_key(w, "loop_continuity_availability");
    anim_json_writer_string(w, avail);
    return 0;
}

void anim_loop_continuity_text(const anim_loop_continuity *lc, anim_strbuf *out)
{
    if (!lc || lc->availability != ANIM_AVAIL_MEASURED || lc->bone_count == 0)
        return;
    anim_strbuf_puts(out, " loop \xce\x94p=");
    anim_strbuf_put_fixed(out, anim_loop_continuity_max(lc, ANIM_LOOP_POSITION) * 100.0, 2);
    anim_strbuf_puts(out, "cm \xce\x94r=");
    anim_strbuf_put_fixed(out, anim_loop_continuity_max(lc, ANIM_LOOP_ROTATION), 2);
    anim_strbuf_puts(out, "\xc2\xb0 \xce\x94v=");
    anim_strbuf_put_fixed(out, anim_loop_continuity_max(lc, ANIM_LOOP_VELOCITY), 3);
    anim_strbuf_puts(out, "m/s \xce\x94\xcf\x89=");
    anim_strbuf_put_fixed(out, anim_loop_continuity_max(lc, ANIM_LOOP_ANGULAR_VELOCITY), 2);
    anim_strbuf_puts(out, "\xc2\xb0/s");
}
