/* frozen-bone: a bone that a clip declares it animates (animates_bones) must
 * rotate by more than a floor somewhere in the clip. Keys that never move the
 * bone pass a presence check (missing-bones) but leave a T-posed limb or
 * point at a wrong-source slice. The rotation is the rotation range of the
 * measurements (largest angle of any key from key 0, keys compared directly,
 * no sampling), here without the 0.1° recording floor so that a truly static
 * bone reports 0.00°. A bone with no tracks at all is missing-bones' finding,
 * not this one. */
#include <math.h>

#include "animsmith/math.h"
#include "checks/track_util.h"

static bool quat_usable(anim_quat q)
{
    double n = anim_quat_dot(q, q);
    return anim_quat_is_finite(q) && isfinite(n) && n > 0.0;
}

/* The rotation range of one rotation track: degrees rounded to f32, as the
 * measurement reports them, so the check and `measure` agree to the digit;
 * 0 when key 0 is missing or unusable. */
static double rotation_range_deg(const anim_track *t)
{
    const float *v0 = track_key_quat(t, 0);
    if (!v0)
        return 0.0;
    anim_quat first = anim_quat_from_f32(v0);
    if (!quat_usable(first))
        return 0.0;
    first = anim_quat_normalize(first);
    double best = 0.0;
    for (uint32_t k = 1; k < t->key_count; k++) {
        const float *v = track_key_quat(t, k);
        if (!v)
            continue;
        anim_quat q = anim_quat_from_f32(v);
        if (!quat_usable(q))
            continue;
        double deg = (double)(float)anim_deg_from_rad(
            anim_quat_angle_between(first, anim_quat_normalize(q)));
        if (deg > best)
            best = deg;
    }
    return best;
}

static int check_bone(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                      const char *name, double floor_deg)
{
    uint32_t bone = anim_doc_find_bone(ctx->doc, name);
    if (bone == ANIM_NONE)
        return 0;
    bool has_track = false;
    double max_deg = 0.0;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        if (t->bone != bone)
            continue;
        has_track = true;
        if (t->path == ANIM_PATH_ROTATION) {
            double deg = rotation_range_deg(t);
            if (deg > max_deg)
                max_deg = deg;
        }
    }
    if (!has_track || !(max_deg < floor_deg))
        return 0;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_ERROR;
    f.clip = clip->name;
    f.bone = name;
    f.measured = anim_value_number(max_deg);
    f.expected = anim_value_number(floor_deg);
    return anim_check_finding(ctx, rec, &f,
                              "required bone rotates only %.2f\xc2\xb0 over the clip (floor "
                              "%.2f\xc2\xb0) \xe2\x80\x94 frozen/T-posed limb or a wrong-source "
                              "slice",
                              max_deg, floor_deg);
}

CHECK_RUN(frozen_bone)
{
    double floor_deg =
        anim_config_check_setting(ctx->config, "frozen-bone", ANIM_CHECK_MIN_ROTATION_DEG);
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_string_list *names = &ctx->expect[c].animates_bones;
        if (!names->set)
            continue;
        for (uint32_t i = 0; i < names->count; i++)
            if (check_bone(ctx, rec, &ctx->doc->clips[c], names->items[i], floor_deg))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}
