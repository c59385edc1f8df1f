/* Foot-cycle metrics: feet relative to the hips, sampled on the
 * metric grid. One pass gives both the loop seam ratio (3.8: how far the
 * feet jump at the wrap compared with the in-clip steps next to it) and
 * the gait facts (3.9: left-minus-right foot height signal, its swing and
 * the trough phase of its fundamental harmonic). */
#include <math.h>
#include <string.h>

#include "animsmith/availability.h"
#include "animsmith/math.h"
#include "animsmith/measure_loop.h"
#include "animsmith/numfmt.h"

static bool bound(const anim_rig_resolution *rig, anim_role role)
{
    return rig && rig->bone[role] != ANIM_NONE;
}

bool anim_foot_cycle_roles(const anim_rig_resolution *rig)
{
    return bound(rig, ANIM_ROLE_HIPS) &&
           (bound(rig, ANIM_ROLE_LEFT_FOOT) || bound(rig, ANIM_ROLE_LEFT_TOE) ||
            bound(rig, ANIM_ROLE_RIGHT_FOOT) || bound(rig, ANIM_ROLE_RIGHT_TOE));
}

double anim_foot_cycle_min_stride(const anim_config *cfg)
{
    return cfg ? anim_config_check_setting(cfg, "loop-seam", ANIM_CHECK_MIN_STRIDE_STEP_M)
               : anim_check_setting_default(ANIM_CHECK_MIN_STRIDE_STEP_M);
}

typedef struct {
    const anim_metric_grid *g;
    uint32_t hips;
    uint32_t feet[4]; /* left bones, then right bones */
    uint32_t left, right;
} foot_set;

static anim_vec3 rel(const foot_set *fs, uint32_t frame, uint32_t bone)
{
    const anim_metric_grid *g = fs->g;
    return anim_vec3_sub(g->model_pos[anim_metric_grid_index(g, frame, bone)],
                         g->model_pos[anim_metric_grid_index(g, frame, fs->hips)]);
}

/* Largest change of any foot's hips-relative position between frames. */
static double footdist(const foot_set *fs, uint32_t a, uint32_t b)
{
    double m = 0.0;
    for (uint32_t i = 0; i < fs->left + fs->right; i++) {
        double d = anim_vec3_len(anim_vec3_sub(rel(fs, a, fs->feet[i]), rel(fs, b, fs->feet[i])));
        if (d > m)
            m = d;
    }
    return m;
}

static double side_height(const foot_set *fs, uint32_t frame, const uint32_t *bones, uint32_t n)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++)
        sum += rel(fs, frame, bones[i]).y;
    return sum / (double)n;
}

/* Euclidean remainder (x mod m, taken non-negative), kept as is: a tiny
 * negative phase may round up to exactly 1.0, and the reported phase keeps
 * that value rather than folding it to 0. */
static double rem_euclid(double x, double m)
{
    double r = fmod(x, m);
    return r < 0.0 ? r + fabs(m) : r;
}

/* The gait part of the foot cycle; fills amplitude and phase outcome. */
static void gait(const foot_set *fs, anim_foot_cycle *out)
{
    uint32_t n = fs->g->frame_count;
    uint32_t c = n > 3 ? n - 1 : n; /* drop the duplicate wrap frame */
    out->cycle_frames = c;
    out->bilateral = fs->left > 0 && fs->right > 0;
    if (!out->bilateral) {
        out->lr_amplitude_m = 0.0;
        out->phase_outcome = ANIM_GAIT_PHASE_NOT_BILATERAL;
        return;
    }
    double lo = INFINITY, hi = -INFINITY, re = 0.0, im = 0.0;
    bool finite = true;
    for (uint32_t f = 0; f < c; f++) {
        double y = side_height(fs, f, fs->feet, fs->left) -
                   side_height(fs, f, fs->feet + fs->left, fs->right);
        if (!isfinite(y))
            finite = false;
        if (y < lo)
            lo = y;
        if (y > hi)
            hi = y;
        double angle = (2.0 * ANIM_PI * (double)f) / (double)c;
        re += y * cos(angle);
        im += y * sin(angle);
    }
    out->lr_amplitude_m = hi - lo;
    if (out->lr_amplitude_m == 0.0) {
        out->phase_outcome = ANIM_GAIT_PHASE_NO_SWING;
        return;
    }
    out->phase_outcome = ANIM_GAIT_PHASE_FAILED;
    if (!finite || !isfinite(out->lr_amplitude_m) || c < 2 || !(out->lr_amplitude_m > 0.0))
        return;
    /* Trough of the fundamental: the peak is at phi / 2pi, half a cycle on. */
    double phase = rem_euclid(atan2(im, re) / (2.0 * ANIM_PI) + 0.5, 1.0);
    if (!isfinite(phase))
        return;
    out->phase = phase;
    out->phase_outcome = ANIM_GAIT_PHASE_MEASURED;
}

static bool evidence_finite(const foot_set *fs)
{
    const anim_metric_grid *g = fs->g;
    for (uint32_t f = 0; f < g->frame_count; f++) {
        if (!anim_vec3_is_finite(g->model_pos[anim_metric_grid_index(g, f, fs->hips)]))
            return false;
        for (uint32_t i = 0; i < fs->left + fs->right; i++)
            if (!anim_vec3_is_finite(rel(fs, f, fs->feet[i])))
                return false;
    }
    return true;
}

static void set_unmeasured(anim_foot_cycle *out, anim_availability a)
{
    out->seam_ratio_availability = a;
    out->gait_availability = a;
    out->phase_availability = a;
}

void anim_foot_cycle_compute(const anim_doc *doc, const anim_metric_grid *grid,
                             const anim_rig_resolution *rig, double min_stride_step_m,
                             anim_foot_cycle *out)
{
    memset(out, 0, sizeof *out);
    out->min_stride_step_m = min_stride_step_m;
    out->seam_frame = ANIM_NONE;
    if (!anim_foot_cycle_roles(rig)) {
        out->status = ANIM_FOOT_CYCLE_NO_ROLES;
        set_unmeasured(out, ANIM_AVAIL_NOT_APPLICABLE);
        return;
    }
    set_unmeasured(out, ANIM_AVAIL_UNAVAILABLE);
    if (!grid || grid->frame_count < 3) {
        out->status = ANIM_FOOT_CYCLE_NO_GRID;
        return;
    }
    out->status = ANIM_FOOT_CYCLE_FAILED;

    foot_set fs;
    memset(&fs, 0, sizeof fs);
    fs.g = grid;
    fs.hips = rig->bone[ANIM_ROLE_HIPS];
    static const anim_role left_roles[2] = {ANIM_ROLE_LEFT_FOOT, ANIM_ROLE_LEFT_TOE};
    static const anim_role right_roles[2] = {ANIM_ROLE_RIGHT_FOOT, ANIM_ROLE_RIGHT_TOE};
    for (int i = 0; i < 2; i++)
        if (bound(rig, left_roles[i]))
            fs.feet[fs.left++] = rig->bone[left_roles[i]];
    for (int i = 0; i < 2; i++)
        if (bound(rig, right_roles[i]))
            fs.feet[fs.left + fs.right++] = rig->bone[right_roles[i]];
    /* A binding outside the grid (stale resolution) is failed evidence. */
    uint32_t bones = doc ? doc->bone_count : grid->bone_count;
    if (fs.hips >= grid->bone_count || fs.hips >= bones)
        return;
    for (uint32_t i = 0; i < fs.left + fs.right; i++)
        if (fs.feet[i] >= grid->bone_count || fs.feet[i] >= bones)
            return;
    const uint32_t read[5] = {fs.hips, fs.feet[0], fs.feet[1], fs.feet[2], fs.feet[3]};
    anim_metric_grid_need_bones(grid, read, 1 + fs.left + fs.right);
    if (!evidence_finite(&fs))
        return;

    uint32_t n = grid->frame_count;
    out->status = ANIM_FOOT_CYCLE_OK;
    out->seam_frame = n - 1;
    out->seam_time_s = grid->times[n - 1];
    out->seam_m = footdist(&fs, n - 1, 0);
    out->step_first_m = footdist(&fs, 1, 0);
    out->step_last_m = footdist(&fs, n - 1, n - 2);
    out->neighbour_step_m = out->step_first_m > out->step_last_m ? out->step_first_m
                                                                 : out->step_last_m;
    out->has_real_stride = out->neighbour_step_m > 0.0 &&
                           out->neighbour_step_m >= min_stride_step_m;
    if (out->has_real_stride) {
        double r = out->seam_m / out->neighbour_step_m;
        if (isfinite(r)) {
            out->has_ratio = true;
            out->ratio = r;
        }
    }
    out->seam_ratio_availability = out->has_ratio          ? ANIM_AVAIL_MEASURED
                                   : !out->has_real_stride ? ANIM_AVAIL_NOT_APPLICABLE
                                                           : ANIM_AVAIL_UNAVAILABLE;

    gait(&fs, out);
    out->gait_availability = ANIM_AVAIL_MEASURED;
    switch (out->phase_outcome) {
    case ANIM_GAIT_PHASE_MEASURED: out->phase_availability = ANIM_AVAIL_MEASURED; break;
    case ANIM_GAIT_PHASE_NOT_BILATERAL:
    case ANIM_GAIT_PHASE_NO_SWING: out->phase_availability = ANIM_AVAIL_NOT_APPLICABLE; break;
    default: out->phase_availability = ANIM_AVAIL_UNAVAILABLE; break;
    }
}

/* ---- JSON and text ---- */

static const char *avail_or_unavailable(anim_availability a)
{
    const char *name = anim_availability_name(a);
    return name ? name : "unavailable";
}

int anim_loop_seam_ratio_write_json(const anim_foot_cycle *fc, const char *clip_name,
                                    anim_json_writer *w, anim_error *err)
{
    bool measured = fc->seam_ratio_availability == ANIM_AVAIL_MEASURED;
    if (measured && (!fc->has_ratio || !isfinite(fc->ratio)))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "measurement value clips[\"%s\"].loop_seam_ratio must be finite",
                              clip_name ? clip_name : "");
    if (measured) {
        anim_json_writer_key(w, "loop_seam_ratio");
        anim_json_writer_f64(w, fc->ratio);
    }
    anim_json_writer_key(w, "loop_seam_ratio_availability");
    anim_json_writer_string(w, avail_or_unavailable(fc->seam_ratio_availability));
    return 0;
}

int anim_gait_write_json(const anim_foot_cycle *fc, const char *clip_name, anim_json_writer *w,
                         anim_error *err)
{
    const char *clip = clip_name ? clip_name : "";
    bool measured = fc->gait_availability == ANIM_AVAIL_MEASURED;
    bool phase = measured && fc->phase_availability == ANIM_AVAIL_MEASURED;
    if (measured && !isfinite(fc->lr_amplitude_m))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "measurement value clips[\"%s\"].gait.lr_amplitude_m must be finite",
                              clip);
    if (phase && !isfinite(fc->phase))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "measurement value clips[\"%s\"].gait.phase must be finite", clip);
    if (measured) {
        anim_json_writer_key(w, "gait");
        anim_json_writer_begin_object(w);
        if (phase) {
            anim_json_writer_key(w, "phase");
            anim_json_writer_f64(w, fc->phase);
        }
        anim_json_writer_key(w, "phase_availability");
        anim_json_writer_string(w, avail_or_unavailable(fc->phase_availability));
        anim_json_writer_key(w, "lr_amplitude_m");
        anim_json_writer_f64(w, fc->lr_amplitude_m);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_key(w, "gait_availability");
    anim_json_writer_string(w, avail_or_unavailable(fc->gait_availability));
    return 0;
}

void anim_loop_seam_ratio_text(const anim_foot_cycle *fc, anim_strbuf *out)
{
    if (fc->seam_ratio_availability != ANIM_AVAIL_MEASURED)
        return;
    anim_strbuf_puts(out, " seam\xc3\x97");
    anim_strbuf_put_fixed(out, fc->ratio, 2);
}

void anim_gait_text(const anim_foot_cycle *fc, anim_strbuf *out)
{
    if (fc->gait_availability != ANIM_AVAIL_MEASURED ||
        fc->phase_availability != ANIM_AVAIL_MEASURED)
        return;
    anim_strbuf_puts(out, " gait \xcf\x86=");
    anim_strbuf_put_fixed(out, fc->phase, 2);
    anim_strbuf_puts(out, " (");
    anim_strbuf_put_fixed(out, fc->lr_amplitude_m * 100.0, 1);
    anim_strbuf_puts(out, "cm)");
}
