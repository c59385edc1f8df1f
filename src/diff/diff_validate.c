/* Validation of a measurement record before diff reads it: before
 * extracting the clip metrics it uses, diff validates the complete
 * measurement record and rejects malformed or non-finite payload values.
 * One path serves every measurements version diff reads (v15,
 * v16 and the current v18): the version selects which fields a record
 * must, may or must not carry (diff_contracts.c), so a historical record
 * is held to exactly its own shape and a later field in an earlier record
 * is refused. The clip records are checked field by field against the
 * contract (closed key sets, availability/value pairing, the per-clip
 * invariants) because the comparison trusts them; the static asset
 * evidence is validated in diff_validate_asset.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/diff.h"
#include "animsmith/text.h"
#include "diff/diff_internal.h"

int diff_name_cmp(const name_ref *a, const name_ref *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->s, b->s, n) : 0;
    if (c)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

int diff_name_qsort(const void *a, const void *b)
{
    return diff_name_cmp(a, b);
}

static int validate_channels(vctx *v, const anim_json_value *clip)
{
    static const char *const ROW[] = {"bone_index", "bone_name", "properties"};
    static const char *const PROPS[] = {"translation", "rotation", "scale"};
    const anim_json_value *bc = dv_required(v, clip, "bone_channels");
    const anim_json_value *ab = dv_required(v, clip, "animated_bones");
    if (!bc || !ab)
        return -1;
    size_t old = dv_push(v, ".bone_channels");
    if (dv_want_array(v, bc)) {
        dv_pop(v, old);
        return -1;
    }
    size_t n = anim_json_count(bc);
    name_ref *names = calloc(n ? n : 1, sizeof *names);
    if (!names) {
        dv_pop(v, old);
        return anim_error_set(v->err, ANIM_ERR_NOMEM, "out of memory");
    }
    int rc = 0;
    uint64_t prev = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const anim_json_value *row = anim_json_item(bc, i);
        size_t o2 = dv_push(v, "[%zu]", i);
        uint64_t idx = 0;
        rc = dv_want_object(v, row);
        if (!rc)
            rc = dv_check_keys(v, row, ROW, 3);
        if (!rc)
            rc = dv_uint_field(v, row, "bone_index", &idx);
        if (!rc && i > 0 && idx <= prev)
            rc = dv_bad(v, "bone indices must be strictly increasing");
        if (!rc)
            rc = dv_string_field(v, row, "bone_name");
        const anim_json_value *props = rc ? NULL : dv_required(v, row, "properties");
        if (!rc && !props)
            rc = -1;
        if (!rc) {
            size_t o3 = dv_push(v, ".properties");
            rc = dv_want_array(v, props);
            if (!rc && anim_json_count(props) == 0)
                rc = dv_bad(v, "must not be empty");
            int last = -1;
            for (size_t p = 0; !rc && p < anim_json_count(props); p++) {
                const anim_json_value *pv = anim_json_item(props, p);
                int k = -1;
                for (int c = 0; c < 3 && pv->type == ANIM_JSON_STRING; c++)
                    if (anim_json_string_eq(pv, PROPS[c]))
                        k = c;
                if (k < 0)
                    rc = dv_bad(v, "item %zu is not translation, rotation or scale", p);
                else if (k <= last)
                    rc = dv_bad(v, "properties must be unique, in translation, rotation, "
                                   "scale order");
                last = k;
            }
            dv_pop(v, o3);
        }
        if (!rc) {
            const anim_json_value *nm = anim_json_get(row, "bone_name");
            names[i].s = anim_json_string(nm);
            names[i].len = anim_json_string_len(nm);
        }
        prev = idx;
        dv_pop(v, o2);
    }
    dv_pop(v, old);
    if (rc) {
        free(names);
        return rc;
    }
    /* animated_bones is the sorted unique name projection of the
     * channels. */
    qsort(names, n, sizeof *names, diff_name_qsort);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || diff_name_cmp(&names[u - 1], &names[i]) != 0)
            names[u++] = names[i];
    old = dv_push(v, ".animated_bones");
    rc = dv_want_array(v, ab);
    for (size_t i = 0; !rc && i < anim_json_count(ab); i++) {
        const anim_json_value *it = anim_json_item(ab, i);
        if (it->type != ANIM_JSON_STRING) {
            rc = dv_bad(v, "item %zu is not a string", i);
            break;
        }
        name_ref r = {anim_json_string(it), anim_json_string_len(it), it};
        if (i >= u || diff_name_cmp(&r, &names[i]) != 0)
            rc = dv_bad(v, "must equal the sorted unique bone names of bone_channels");
    }
    if (!rc && anim_json_count(ab) != u)
        rc = dv_bad(v, "must equal the sorted unique bone names of bone_channels");
    dv_pop(v, old);
    free(names);
    return rc;
}

static int validate_rotation_ranges(vctx *v, const anim_json_value *clip)
{
    const anim_json_value *rr = dv_required(v, clip, "bone_rotation_range_deg");
    if (!rr)
        return -1;
    const anim_json_value *ab = anim_json_get(clip, "animated_bones");
    size_t old = dv_push(v, ".bone_rotation_range_deg");
    int rc = dv_want_object(v, rr);
    for (size_t i = 0; !rc && i < anim_json_count(rr); i++) {
        const anim_json_member *m = anim_json_member_at(rr, i);
        anim_strbuf q = ANIM_STRBUF_INIT;
        anim_text_debug_quote(&q, m->key, anim_json_key_len(m));
        size_t o2 = dv_push(v, "[%s]", q.data ? q.data : "?");
        anim_strbuf_free(&q);
        double d = 0;
        rc = dv_number_value(v, &m->value, &d);
        if (!rc && d < 0)
            rc = dv_bad(v, "must not be negative");
        bool found = false;
        for (size_t a = 0; !rc && a < anim_json_count(ab) && !found; a++) {
            const anim_json_value *it = anim_json_item(ab, a);
            found = anim_json_string_len(it) == anim_json_key_len(m) &&
                    memcmp(anim_json_string(it), m->key, anim_json_key_len(m)) == 0;
        }
        if (!rc && !found)
            rc = dv_bad(v, "bone is not in animated_bones");
        dv_pop(v, o2);
    }
    dv_pop(v, old);
    return rc;
}

/* Loop rows. From measurements-v17 each row carries its availability
 * (measured: four numbers; unavailable: none). Earlier records have no
 * per-row status: a measured table means every bone was measured, so each
 * row must carry all four numbers. */
static int validate_loop(vctx *v, const anim_json_value *lc)
{
    static const char *const KEYS[] = {"bones"};
    static const char *const ROW[] = {"bone_index",
                                      "bone_name",
                                      "position_delta_m",
                                      "rotation_delta_deg",
                                      "seam_velocity_delta_mps",
                                      "seam_angular_velocity_delta_degps",
                                      "availability"};
    bool row_status = diff_has(v->version, DIFF_F_LOOP_ROW_AVAILABILITY);
    size_t nkeys = row_status ? 7 : 6;
    if (dv_want_object(v, lc) || dv_check_keys(v, lc, KEYS, 1))
        return -1;
    const anim_json_value *bones = dv_required(v, lc, "bones");
    if (!bones)
        return -1;
    size_t old = dv_push(v, ".bones");
    int rc = dv_want_array(v, bones);
    if (!rc && anim_json_count(bones) == 0)
        rc = dv_bad(v, "must not be empty");
    for (size_t i = 0; !rc && i < anim_json_count(bones); i++) {
        const anim_json_value *row = anim_json_item(bones, i);
        size_t o2 = dv_push(v, "[%zu]", i);
        uint64_t idx = 0;
        rc = dv_want_object(v, row);
        if (!rc)
            rc = dv_check_keys(v, row, ROW, nkeys);
        if (!rc)
            rc = dv_uint_field(v, row, "bone_index", &idx);
        if (!rc && idx != i)
            rc = dv_bad(v, "bone_index %llu is not the row position", (unsigned long long)idx);
        if (!rc)
            rc = dv_string_field(v, row, "bone_name");
        int st = AV_MEASURED;
        if (!rc && row_status) {
            st = dv_enum_field(v, row, "availability", DIFF_AVAIL, 3);
            if (st < 0)
                rc = -1;
            else if (st == AV_NOT_APPLICABLE)
                rc = dv_bad(v, "not_applicable is not valid for an existing bone");
        }
        for (size_t k = 2; !rc && k < 6; k++) {
            double d;
            if (st == AV_MEASURED) {
                rc = dv_number_field(v, row, ROW[k], true, &d);
            } else if (anim_json_get(row, ROW[k])) {
                size_t o3 = dv_push(v, ".%s", ROW[k]);
                rc = dv_bad(v, "present on an unavailable row");
                dv_pop(v, o3);
            }
        }
        dv_pop(v, o2);
    }
    dv_pop(v, old);
    return rc;
}

static int validate_frame_grid(vctx *v, const anim_json_value *fg)
{
    static const char *const KEYS[] = {"fps", "frame_intervals"};
    double fps = 0;
    uint64_t intervals = 0;
    if (dv_want_object(v, fg) || dv_check_keys(v, fg, KEYS, 2) ||
        dv_number_field(v, fg, "fps", true, &fps) ||
        dv_uint_field(v, fg, "frame_intervals", &intervals))
        return -1;
    if (!(fps > 0))
        return dv_bad(v, "fps must be positive");
    if (intervals < 1)
        return dv_bad(v, "frame_intervals must be at least 1");
    return 0;
}

static int validate_gait(vctx *v, const anim_json_value *g)
{
    static const char *const KEYS[] = {"phase", "phase_availability", "lr_amplitude_m"};
    const anim_json_value *phase;
    double d;
    if (dv_want_object(v, g) || dv_check_keys(v, g, KEYS, 3) ||
        dv_avail_pair(v, g, "phase", "phase_availability", true, &phase) ||
        dv_number_field(v, g, "lr_amplitude_m", true, &d))
        return -1;
    return phase ? dv_number_field(v, g, "phase", false, &d) : 0;
}

static int validate_translation(vctx *v, const anim_json_value *t)
{
    static const char *const KEYS[] = {"horizontal_displacement_x_m",
                                       "horizontal_displacement_z_m",
                                       "horizontal_travel_m",
                                       "vertical_displacement_m",
                                       "vertical_min_displacement_m",
                                       "vertical_max_displacement_m"};
    double x[6];
    if (dv_want_object(v, t) || dv_check_keys(v, t, KEYS, 6))
        return -1;
    for (size_t k = 0; k < 6; k++)
        if (dv_number_field(v, t, KEYS[k], false, &x[k]))
            return -1;
    double chord = hypot(x[0], x[1]);
    if (x[2] < 0 || x[2] + 1e-9 * fmax(1.0, chord) < chord)
        return dv_bad(v, "horizontal_travel_m is below the endpoint displacement");
    if (x[4] > 0 || x[5] < 0 || x[3] < x[4] || x[3] > x[5])
        return dv_bad(v, "vertical extrema must contain 0 and the endpoint displacement");
    return 0;
}

static int validate_yaw(vctx *v, const anim_json_value *y)
{
    static const char *const KEYS[] = {"heading_axis", "net_yaw_deg", "unwrapped_yaw_deg",
                                       "yaw_travel_deg"};
    static const char *const AXES[] = {"positive_z", "positive_y", "positive_x"};
    double net, unwrapped, travel;
    if (dv_want_object(v, y) || dv_check_keys(v, y, KEYS, 4) ||
        dv_enum_field(v, y, "heading_axis", AXES, 3) < 0 ||
        dv_number_field(v, y, "net_yaw_deg", false, &net) ||
        dv_number_field(v, y, "unwrapped_yaw_deg", false, &unwrapped) ||
        dv_number_field(v, y, "yaw_travel_deg", true, &travel))
        return -1;
    if (net < -180.0 || net > 180.0)
        return dv_bad(v, "net_yaw_deg is outside [-180, 180]");
    /* net is the canonicalized unwrapped yaw. */
    double r = fmod(unwrapped + 180.0, 360.0);
    if (r < 0)
        r += 360.0;
    double canon = r - 180.0;
    if (fabs(fabs(canon) - 180.0) <= 1e-4)
        canon = unwrapped < 0 ? -180.0 : 180.0;
    if (fabs(canon - net) > 1e-6 * fmax(1.0, fabs(unwrapped)))
        return dv_bad(v, "net_yaw_deg does not match unwrapped_yaw_deg");
    if (travel + 1e-9 * fmax(1.0, travel) < fabs(unwrapped))
        return dv_bad(v, "yaw_travel_deg is below |unwrapped_yaw_deg|");
    return 0;
}

static int validate_trajectory(vctx *v, const anim_json_value *rt)
{
    static const char *const KEYS[] = {"bone_index",  "bone_name",
                                       "source_role", "translation",
                                       "translation_availability", "yaw",
                                       "yaw_availability"};
    static const char *const ROLES[] = {"root", "hips_fallback"};
    uint64_t idx;
    const anim_json_value *t, *y;
    if (dv_want_object(v, rt) || dv_check_keys(v, rt, KEYS, 7) ||
        dv_uint_field(v, rt, "bone_index", &idx) ||
        dv_string_field(v, rt, "bone_name") || dv_enum_field(v, rt, "source_role", ROLES, 2) < 0 ||
        dv_avail_pair(v, rt, "translation", "translation_availability", false, &t) ||
        dv_avail_pair(v, rt, "yaw", "yaw_availability", false, &y))
        return -1;
    int rc = 0;
    if (t) {
        size_t old = dv_push(v, ".translation");
        rc = validate_translation(v, t);
        dv_pop(v, old);
    }
    if (!rc && y) {
        size_t old = dv_push(v, ".yaw");
        rc = validate_yaw(v, y);
        dv_pop(v, old);
    }
    return rc;
}

static const char *const CLIP_KEYS[] = {
    "duration_s",       "frame_count",          "animated_bones",
    "bone_channels",    "bone_rotation_range_deg", "loop_continuity",
    "loop_continuity_availability", "loop_endpoint_mode", "loop_endpoint_mode_availability",
    "frame_grid",       "frame_grid_availability", "loop_seam_ratio",
    "loop_seam_ratio_availability", "gait",    "gait_availability",
    "root_trajectory",  "root_trajectory_availability", "speed_mps",
    "speed_mps_availability"};

int diff_validate_clip(vctx *v, const anim_json_value *clip)
{
    static const char *const MODES[] = {"duplicate_endpoint", "unique_cycle", "non_closing"};
    double d;
    uint64_t u;
    if (dv_want_object(v, clip) ||
        dv_check_keys(v, clip, CLIP_KEYS, sizeof CLIP_KEYS / sizeof *CLIP_KEYS) ||
        dv_number_field(v, clip, "duration_s", true, &d) ||
        dv_uint_field(v, clip, "frame_count", &u) ||
        validate_channels(v, clip) || validate_rotation_ranges(v, clip))
        return -1;
    const anim_json_value *x;
    size_t old;
    int rc = 0;
    if (dv_avail_pair(v, clip, "loop_continuity", "loop_continuity_availability", true, &x))
        return -1;
    if (x) {
        old = dv_push(v, ".loop_continuity");
        rc = validate_loop(v, x);
        dv_pop(v, old);
        if (rc)
            return rc;
    }
    if (dv_avail_pair(v, clip, "loop_endpoint_mode", "loop_endpoint_mode_availability", true, &x) ||
        (x && dv_enum_field(v, clip, "loop_endpoint_mode", MODES, 3) < 0))
        return -1;
    if (dv_avail_pair(v, clip, "frame_grid", "frame_grid_availability", true, &x))
        return -1;
    if (x) {
        old = dv_push(v, ".frame_grid");
        rc = validate_frame_grid(v, x);
        dv_pop(v, old);
        if (rc)
            return rc;
    }
    if (dv_avail_pair(v, clip, "loop_seam_ratio", "loop_seam_ratio_availability", true, &x) ||
        (x && dv_number_field(v, clip, "loop_seam_ratio", true, &d)))
        return -1;
    if (dv_avail_pair(v, clip, "gait", "gait_availability", true, &x))
        return -1;
    if (x) {
        old = dv_push(v, ".gait");
        rc = validate_gait(v, x);
        dv_pop(v, old);
        if (rc)
            return rc;
    }
    if (dv_avail_pair(v, clip, "root_trajectory", "root_trajectory_availability", true, &x))
        return -1;
    if (x) {
        old = dv_push(v, ".root_trajectory");
        rc = validate_trajectory(v, x);
        dv_pop(v, old);
        if (rc)
            return rc;
    }
    if (dv_avail_pair(v, clip, "speed_mps", "speed_mps_availability", true, &x) ||
        (x && dv_number_field(v, clip, "speed_mps", true, &d)))
        return -1;
    return 0;
}

int anim_diff_validate_measurements(const anim_json_value *m, int version, anim_error *err)
{
    static const char *const TOP[] = {
        "schema_version",       "schema",         "clips",
        "mesh_definitions",     "node_instances", "scenes",
        "default_scene_index",  "skeleton_source_coverage", "skeleton_nodes",
        "skins",                "material_resource_coverage", "material_definitions",
        "textures",             "images"};
    vctx v;
    v.err = err;
    v.version = version;
    v.len = 0;
    v.path[0] = '\0';
    dv_push(&v, "measurements");
    if (version < DIFF_OLDEST_MEASUREMENTS || version > ANIM_MEASUREMENTS_SCHEMA_VERSION)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "measurements-v%d records are not read by diff", version);
    if (!m || dv_want_object(&v, m) || dv_check_keys(&v, m, TOP, sizeof TOP / sizeof *TOP))
        return m ? -1 : dv_bad(&v, "missing");
    uint64_t got = 0;
    if (dv_uint_field(&v, m, "schema_version", &got) || dv_string_field(&v, m, "schema"))
        return -1;
    char urn[64];
    snprintf(urn, sizeof urn, "urn:animsmith:schema:measurements:%d", version);
    if (got != (uint64_t)version || !anim_json_string_eq(anim_json_get(m, "schema"), urn))
        return dv_bad(&v, "expected measurements-v%d (%s)", version, urn);
    const anim_json_value *clips = dv_required(&v, m, "clips");
    if (!clips)
        return -1;
    /* Paths below start at "clips", as the output contract's messages do. */
    dv_pop(&v, 0);
    dv_push(&v, "clips");
    if (dv_want_object(&v, clips))
        return -1;
    for (size_t i = 0; i < anim_json_count(clips); i++) {
        const anim_json_member *c = anim_json_member_at(clips, i);
        anim_strbuf q = ANIM_STRBUF_INIT;
        anim_text_debug_quote(&q, c->key, anim_json_key_len(c));
        size_t old = dv_push(&v, "[%s]", q.data ? q.data : "?");
        anim_strbuf_free(&q);
        if (diff_validate_clip(&v, &c->value))
            return -1;
        dv_pop(&v, old);
    }
    dv_pop(&v, 0);
    dv_push(&v, "measurements");
    return diff_validate_asset(&v, m);
}
