/* Reading a loaded contract: per-check settings with their defaults,
 * per-clip merged expectations (globs, then the exact selector) and the glob rule. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"

const char *anim_severity_name(anim_severity s)
{
    switch (s) {
    case ANIM_SEVERITY_OFF: return "off";
    case ANIM_SEVERITY_NOTE: return "note";
    case ANIM_SEVERITY_WARNING: return "warning";
    case ANIM_SEVERITY_ERROR: return "error";
    default: return "unset";
    }
}

const char *anim_movement_owner_name(anim_movement_owner o)
{
    switch (o) {
    case ANIM_OWNER_GAMEPLAY: return "gameplay";
    case ANIM_OWNER_ANIMATION: return "animation";
    default: return "unset";
    }
}

static const struct {
    const char *name;
    double dflt;
} settings[ANIM_CHECK_SETTING_COUNT] = {
    [ANIM_CHECK_MAX_RATIO] = {"max_ratio", 1.5},
    [ANIM_CHECK_MIN_STRIDE_STEP_M] = {"min_stride_step_m", 0.02},
    [ANIM_CHECK_MAX_POSITION_DELTA_M] = {"max_position_delta_m", 0.01},
    [ANIM_CHECK_MAX_ROTATION_DELTA_DEG] = {"max_rotation_delta_deg", 1.0},
    [ANIM_CHECK_MAX_VELOCITY_DELTA_MPS] = {"max_velocity_delta_mps", 0.1},
    [ANIM_CHECK_MAX_ANGULAR_VELOCITY_DELTA_DEGPS] = {"max_angular_velocity_delta_degps", 5.0},
    [ANIM_CHECK_MIN_ROTATION_DEG] = {"min_rotation_deg", 1.0},
    [ANIM_CHECK_MAX_MEAN_REST_DELTA_DEG] = {"max_mean_rest_delta_deg", 45.0},
    [ANIM_CHECK_CONTACT_HEIGHT_M] = {"contact_height_m", 0.03},
    [ANIM_CHECK_MAX_SLIDE_MPS] = {"max_slide_mps", 0.3},
    [ANIM_CHECK_EXPECTED_UNIFORM_SCALE] = {"expected_uniform_scale", 1.0},
    [ANIM_CHECK_UNIFORM_SCALE_TOLERANCE] = {"uniform_scale_tolerance", 1e-4},
    [ANIM_CHECK_MAX_DURATION_S] = {"max_duration_s", 86400.0},
};

const char *anim_check_setting_name(anim_check_setting s)
{
    return s < ANIM_CHECK_SETTING_COUNT ? settings[s].name : NULL;
}

double anim_check_setting_default(anim_check_setting s)
{
    return s < ANIM_CHECK_SETTING_COUNT ? settings[s].dflt : 0.0;
}

anim_config *anim_config_default(anim_error *err)
{
    anim_config *cfg = calloc(1, sizeof *cfg);
    if (cfg)
        cfg->arena = anim_arena_new();
    if (!cfg || !cfg->arena) {
        free(cfg);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    cfg->rig_profile = "auto";
    return cfg;
}

void anim_config_free(anim_config *cfg)
{
    if (!cfg)
        return;
    anim_arena_free(cfg->arena);
    free(cfg);
}

const anim_check_config *anim_config_check(const anim_config *cfg, const char *id)
{
    for (uint32_t i = 0; i < cfg->check_count; i++)
        if (strcmp(cfg->checks[i].id, id) == 0)
            return &cfg->checks[i];
    return NULL;
}

double anim_config_check_setting(const anim_config *cfg, const char *id, anim_check_setting s)
{
    const anim_check_config *cc = anim_config_check(cfg, id);
    if (cc && s < ANIM_CHECK_SETTING_COUNT && cc->settings[s].set)
        return cc->settings[s].value;
    return anim_check_setting_default(s);
}

/* Only `*` is special; prefix and suffix anchor, the pieces in
 * between occur in order, leftmost first, without overlapping. */
bool anim_glob_match(const char *pattern, const char *name)
{
    const char *first = strchr(pattern, '*');
    if (!first)
        return strcmp(pattern, name) == 0;
    const char *last = strrchr(pattern, '*');
    size_t plen = (size_t)(first - pattern);
    size_t slen = strlen(last + 1);
    size_t nlen = strlen(name);
    if (nlen < plen + slen || strncmp(name, pattern, plen) != 0 ||
        strcmp(name + nlen - slen, last + 1) != 0)
        return false;
    const char *at = name + plen;
    const char *end = name + nlen - slen;
    const char *piece = first + 1;
    while (piece <= last) {
        const char *star = strchr(piece, '*');
        size_t len = (size_t)(star - piece);
        if (len > 0) {
            bool found = false;
            for (const char *p = at; p + len <= end; p++)
                if (memcmp(p, piece, len) == 0) {
                    at = p + len;
                    found = true;
                    break;
                }
            if (!found)
                return false;
        }
        piece = star + 1;
    }
    return true;
}

static void overlay(anim_clip_expect *dst, const anim_clip_expect *src)
{
    if (src->loop.set)
        dst->loop = src->loop;
    if (src->max_loop_position_delta_m.set)
        dst->max_loop_position_delta_m = src->max_loop_position_delta_m;
    if (src->max_loop_rotation_delta_deg.set)
        dst->max_loop_rotation_delta_deg = src->max_loop_rotation_delta_deg;
    if (src->max_loop_velocity_delta_mps.set)
        dst->max_loop_velocity_delta_mps = src->max_loop_velocity_delta_mps;
    if (src->max_loop_angular_velocity_delta_degps.set)
        dst->max_loop_angular_velocity_delta_degps = src->max_loop_angular_velocity_delta_degps;
    if (src->duration_s.set)
        dst->duration_s = src->duration_s;
    if (src->speed_mps.set)
        dst->speed_mps = src->speed_mps;
    if (src->movement_owner_xz != ANIM_OWNER_UNSET)
        dst->movement_owner_xz = src->movement_owner_xz;
    if (src->movement_owner_y != ANIM_OWNER_UNSET)
        dst->movement_owner_y = src->movement_owner_y;
    if (src->movement_owner_yaw != ANIM_OWNER_UNSET)
        dst->movement_owner_yaw = src->movement_owner_yaw;
    if (src->fps.set)
        dst->fps = src->fps;
    if (src->animates_bones.set)
        dst->animates_bones = src->animates_bones;
    /* The raw table of the last matching selector only: engine settings
     * resolve key by key (anim_engine_run_clip_setting), not by table. */
    if (src->engine_settings)
        dst->engine_settings = src->engine_settings;
}

void anim_config_clip_expect(const anim_config *cfg, const char *clip_name, anim_clip_expect *out)
{
    memset(out, 0, sizeof *out);
    /* cfg->clips is sorted byte-wise: globs overlay in key order, so the
     * lexicographically greater glob wins; the exact selector goes last. */
    const anim_clip_selector *exact = NULL;
    for (uint32_t i = 0; i < cfg->clip_count; i++) {
        const anim_clip_selector *sel = &cfg->clips[i];
        if (strcmp(sel->selector, clip_name) == 0)
            exact = sel;
        else if (anim_glob_match(sel->selector, clip_name))
            overlay(out, &sel->expect);
    }
    if (exact)
        overlay(out, &exact->expect);
}

anim_rig_config anim_config_rig(const anim_config *cfg)
{
    anim_rig_config rc;
    rc.profile = cfg->rig_profile;
    bool any = false;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        if (cfg->rig_roles[r])
            any = true;
    rc.inline_bones = any ? cfg->rig_roles : NULL;
    return rc;
}
