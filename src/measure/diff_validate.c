/* Validation of a measurements-v18 object before diff reads it (seed 003:
 * "Before extracting the clip metrics it uses, diff validates the complete
 * measurement record ... and rejects malformed or non-finite payload
 * values"). The clip records are checked field by field against the
 * contract (closed key sets, availability/value pairing, the spec 3.12
 * invariants) because the comparison trusts them; the static asset
 * evidence, which diff never compares, is checked for its shape (required
 * tables, row objects with their identity indices). Every error names the
 * field path, so an operator can find the bad value in the report. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/diff.h"
#include "animsmith/text.h"
#include "measure/diff_internal.h"

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

typedef struct vctx {
    anim_error *err;
    char path[768];
    size_t len;
} vctx;

static size_t push(vctx *v, const char *fmt, ...)
{
    size_t old = v->len;
    if (old < sizeof v->path - 1) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(v->path + old, sizeof v->path - old, fmt, ap);
        va_end(ap);
        if (n > 0)
            v->len = old + (size_t)n < sizeof v->path - 1 ? old + (size_t)n : sizeof v->path - 1;
    }
    return old;
}

static void pop(vctx *v, size_t old)
{
    v->len = old;
    v->path[old] = '\0';
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int bad(vctx *v, const char *fmt, ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return anim_error_set(v->err, ANIM_ERR_INVALID, "measurement structure %s is invalid: %s",
                          v->path, reason);
}

static int nonfinite(vctx *v)
{
    return anim_error_set(v->err, ANIM_ERR_INVALID, "measurement value %s must be finite",
                          v->path);
}

/* Strings a producer might have written for a non-finite number. */
static bool is_nonfinite_spelling(const anim_json_value *x)
{
    static const char *const names[] = {"NaN", "nan", "inf", "-inf", "+inf", "Infinity",
                                        "-Infinity", "+Infinity"};
    if (x->type != ANIM_JSON_STRING)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (anim_json_string_eq(x, names[i]))
            return true;
    return false;
}

static bool key_is(const anim_json_member *m, const char *k)
{
    size_t n = strlen(k);
    return anim_json_key_len(m) == n && memcmp(m->key, k, n) == 0;
}

/* Rejects members outside the closed key set (the contract has no
 * extension points in these records). */
static int check_keys(vctx *v, const anim_json_value *obj, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < anim_json_count(obj); i++) {
        const anim_json_member *m = anim_json_member_at(obj, i);
        bool known = false;
        for (size_t k = 0; k < n && !known; k++)
            known = key_is(m, keys[k]);
        if (!known) {
            anim_strbuf q = ANIM_STRBUF_INIT;
            anim_text_debug_quote(&q, m->key, anim_json_key_len(m));
            int rc = bad(v, "unknown field %s", q.data ? q.data : "?");
            anim_strbuf_free(&q);
            return rc;
        }
    }
    return 0;
}

static int want_object(vctx *v, const anim_json_value *x)
{
    return x->type == ANIM_JSON_OBJECT ? 0 : bad(v, "expected an object");
}

static int want_array(vctx *v, const anim_json_value *x)
{
    return x->type == ANIM_JSON_ARRAY ? 0 : bad(v, "expected an array");
}

/* A member that must be present (error otherwise). */
static const anim_json_value *required(vctx *v, const anim_json_value *obj, const char *key)
{
    const anim_json_value *x = anim_json_get(obj, key);
    if (!x) {
        size_t old = push(v, ".%s", key);
        bad(v, "missing");
        pop(v, old);
    }
    return x;
}

/* The finite number at x (v->path names it). */
static int number_value(vctx *v, const anim_json_value *x, double *out)
{
    if (is_nonfinite_spelling(x))
        return nonfinite(v);
    if (x->type != ANIM_JSON_NUMBER)
        return bad(v, "expected a number");
    double d = anim_json_number(x);
    if (!isfinite(d))
        return nonfinite(v);
    *out = d;
    return 0;
}

/* Number member key of obj; absent is an error. min < 0 disables the
 * lower bound check. */
static int number_field(vctx *v, const anim_json_value *obj, const char *key, bool nonneg,
                        double *out)
{
    const anim_json_value *x = required(v, obj, key);
    if (!x)
        return -1;
    size_t old = push(v, ".%s", key);
    int rc = number_value(v, x, out);
    if (!rc && nonneg && *out < 0)
        rc = bad(v, "must not be negative");
    pop(v, old);
    return rc;
}

/* A non-negative integer (1, 1.0 and 1e0 are the same number). */
static int uint_value(vctx *v, const anim_json_value *x, uint64_t *out)
{
    if (x->type != ANIM_JSON_NUMBER)
        return bad(v, "expected a non-negative integer");
    if (anim_json_is_integer(x)) {
        int64_t i = anim_json_integer(x);
        if (i < 0)
            return bad(v, "expected a non-negative integer");
        *out = (uint64_t)i;
        return 0;
    }
    double d = anim_json_number(x);
    if (!(d >= 0 && d < 18446744073709551616.0) || d != floor(d))
        return bad(v, "expected a non-negative integer");
    *out = (uint64_t)d;
    return 0;
}

static int uint_field(vctx *v, const anim_json_value *obj, const char *key, uint64_t *out)
{
    const anim_json_value *x = required(v, obj, key);
    if (!x)
        return -1;
    size_t old = push(v, ".%s", key);
    int rc = uint_value(v, x, out);
    pop(v, old);
    return rc;
}

static int string_field(vctx *v, const anim_json_value *obj, const char *key)
{
    const anim_json_value *x = required(v, obj, key);
    if (!x)
        return -1;
    size_t old = push(v, ".%s", key);
    int rc = x->type == ANIM_JSON_STRING ? 0 : bad(v, "expected a string");
    pop(v, old);
    return rc;
}

/* Index of the string member key in names[n], or -1 with err set. */
static int enum_field(vctx *v, const anim_json_value *obj, const char *key,
                      const char *const *names, size_t n)
{
    const anim_json_value *x = required(v, obj, key);
    if (!x)
        return -1;
    size_t old = push(v, ".%s", key);
    int idx = -1;
    if (x->type != ANIM_JSON_STRING) {
        bad(v, "expected a string");
    } else {
        for (size_t i = 0; i < n && idx < 0; i++)
            if (anim_json_string_eq(x, names[i]))
                idx = (int)i;
        if (idx < 0) {
            anim_strbuf q = ANIM_STRBUF_INIT;
            anim_text_debug_quote(&q, anim_json_string(x), anim_json_string_len(x));
            bad(v, "unknown value %s", q.data ? q.data : "?");
            anim_strbuf_free(&q);
        }
    }
    pop(v, old);
    return idx;
}

enum { AV_MEASURED = 0, AV_NOT_APPLICABLE = 1, AV_UNAVAILABLE = 2 };
static const char *const AVAIL[] = {"measured", "not_applicable", "unavailable"};

/* The pair {field?, avail_key}: value present iff measured. allow_na
 * false for facts that are never not_applicable (trajectory translation
 * and yaw). *value receives the field (NULL unless measured). */
static int avail_pair(vctx *v, const anim_json_value *obj, const char *field,
                      const char *avail_key, bool allow_na, const anim_json_value **value)
{
    int st = enum_field(v, obj, avail_key, AVAIL, 3);
    if (st < 0)
        return -1;
    size_t old = push(v, ".%s", avail_key);
    if (st == AV_NOT_APPLICABLE && !allow_na) {
        bad(v, "not_applicable is not allowed here");
        pop(v, old);
        return -1;
    }
    pop(v, old);
    const anim_json_value *x = anim_json_get(obj, field);
    old = push(v, ".%s", field);
    int rc = 0;
    if (st == AV_MEASURED && !x)
        rc = bad(v, "missing although %s is \"measured\"", avail_key);
    else if (st != AV_MEASURED && x)
        rc = bad(v, "present although %s is \"%s\"", avail_key, AVAIL[st]);
    pop(v, old);
    *value = st == AV_MEASURED ? x : NULL;
    return rc;
}

/* ---- clip records ---- */



static int validate_channels(vctx *v, const anim_json_value *clip)
{
    static const char *const ROW[] = {"bone_index", "bone_name", "properties"};
    static const char *const PROPS[] = {"translation", "rotation", "scale"};
    const anim_json_value *bc = required(v, clip, "bone_channels");
    const anim_json_value *ab = required(v, clip, "animated_bones");
    if (!bc || !ab)
        return -1;
    size_t old = push(v, ".bone_channels");
    if (want_array(v, bc)) {
        pop(v, old);
        return -1;
    }
    size_t n = anim_json_count(bc);
    name_ref *names = calloc(n ? n : 1, sizeof *names);
    if (!names) {
        pop(v, old);
        return anim_error_set(v->err, ANIM_ERR_NOMEM, "out of memory");
    }
    int rc = 0;
    uint64_t prev = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const anim_json_value *row = anim_json_item(bc, i);
        size_t o2 = push(v, "[%zu]", i);
        uint64_t idx = 0;
        rc = want_object(v, row);
        if (!rc)
            rc = check_keys(v, row, ROW, 3);
        if (!rc)
            rc = uint_field(v, row, "bone_index", &idx);
        if (!rc && i > 0 && idx <= prev)
            rc = bad(v, "bone indices must be strictly increasing");
        if (!rc)
            rc = string_field(v, row, "bone_name");
        const anim_json_value *props = rc ? NULL : required(v, row, "properties");
        if (!rc && !props)
            rc = -1;
        if (!rc) {
            size_t o3 = push(v, ".properties");
            rc = want_array(v, props);
            if (!rc && anim_json_count(props) == 0)
                rc = bad(v, "must not be empty");
            int last = -1;
            for (size_t p = 0; !rc && p < anim_json_count(props); p++) {
                const anim_json_value *pv = anim_json_item(props, p);
                int k = -1;
                for (int c = 0; c < 3 && pv->type == ANIM_JSON_STRING; c++)
                    if (anim_json_string_eq(pv, PROPS[c]))
                        k = c;
                if (k < 0)
                    rc = bad(v, "item %zu is not translation, rotation or scale", p);
                else if (k <= last)
                    rc = bad(v, "properties must be unique, in translation, rotation, scale order");
                last = k;
            }
            pop(v, o3);
        }
        if (!rc) {
            const anim_json_value *nm = anim_json_get(row, "bone_name");
            names[i].s = anim_json_string(nm);
            names[i].len = anim_json_string_len(nm);
        }
        prev = idx;
        pop(v, o2);
    }
    pop(v, old);
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
    old = push(v, ".animated_bones");
    rc = want_array(v, ab);
    for (size_t i = 0; !rc && i < anim_json_count(ab); i++) {
        const anim_json_value *it = anim_json_item(ab, i);
        if (it->type != ANIM_JSON_STRING) {
            rc = bad(v, "item %zu is not a string", i);
            break;
        }
        name_ref r = {anim_json_string(it), anim_json_string_len(it), it};
        if (i >= u || diff_name_cmp(&r, &names[i]) != 0)
            rc = bad(v, "must equal the sorted unique bone names of bone_channels");
    }
    if (!rc && anim_json_count(ab) != u)
        rc = bad(v, "must equal the sorted unique bone names of bone_channels");
    pop(v, old);
    free(names);
    return rc;
}

static int validate_rotation_ranges(vctx *v, const anim_json_value *clip)
{
    const anim_json_value *rr = required(v, clip, "bone_rotation_range_deg");
    if (!rr)
        return -1;
    const anim_json_value *ab = anim_json_get(clip, "animated_bones");
    size_t old = push(v, ".bone_rotation_range_deg");
    int rc = want_object(v, rr);
    for (size_t i = 0; !rc && i < anim_json_count(rr); i++) {
        const anim_json_member *m = anim_json_member_at(rr, i);
        anim_strbuf q = ANIM_STRBUF_INIT;
        anim_text_debug_quote(&q, m->key, anim_json_key_len(m));
        size_t o2 = push(v, "[%s]", q.data ? q.data : "?");
        anim_strbuf_free(&q);
        double d = 0;
        rc = number_value(v, &m->value, &d);
        if (!rc && d < 0)
            rc = bad(v, "must not be negative");
        bool found = false;
        for (size_t a = 0; !rc && a < anim_json_count(ab) && !found; a++) {
            const anim_json_value *it = anim_json_item(ab, a);
            found = anim_json_string_len(it) == anim_json_key_len(m) &&
                    memcmp(anim_json_string(it), m->key, anim_json_key_len(m)) == 0;
        }
        if (!rc && !found)
            rc = bad(v, "bone is not in animated_bones");
        pop(v, o2);
    }
    pop(v, old);
    return rc;
}

static int validate_loop(vctx *v, const anim_json_value *lc)
{
    static const char *const KEYS[] = {"bones"};
    static const char *const ROW[] = {"bone_index",
                                      "bone_name",
                                      "availability",
                                      "position_delta_m",
                                      "rotation_delta_deg",
                                      "seam_velocity_delta_mps",
                                      "seam_angular_velocity_delta_degps"};
    if (want_object(v, lc) || check_keys(v, lc, KEYS, 1))
        return -1;
    const anim_json_value *bones = required(v, lc, "bones");
    if (!bones)
        return -1;
    size_t old = push(v, ".bones");
    int rc = want_array(v, bones);
    if (!rc && anim_json_count(bones) == 0)
        rc = bad(v, "must not be empty");
    for (size_t i = 0; !rc && i < anim_json_count(bones); i++) {
        const anim_json_value *row = anim_json_item(bones, i);
        size_t o2 = push(v, "[%zu]", i);
        uint64_t idx = 0;
        rc = want_object(v, row);
        if (!rc)
            rc = check_keys(v, row, ROW, 7);
        if (!rc)
            rc = uint_field(v, row, "bone_index", &idx);
        if (!rc && idx != i)
            rc = bad(v, "bone_index %llu is not the row position", (unsigned long long)idx);
        if (!rc)
            rc = string_field(v, row, "bone_name");
        int st = rc ? -1 : enum_field(v, row, "availability", AVAIL, 3);
        if (!rc && st < 0)
            rc = -1;
        if (!rc && st == AV_NOT_APPLICABLE)
            rc = bad(v, "not_applicable is not valid for an existing bone");
        for (size_t k = 3; !rc && k < 7; k++) {
            double d;
            if (st == AV_MEASURED) {
                rc = number_field(v, row, ROW[k], true, &d);
            } else if (anim_json_get(row, ROW[k])) {
                size_t o3 = push(v, ".%s", ROW[k]);
                rc = bad(v, "present on an unavailable row");
                pop(v, o3);
            }
        }
        pop(v, o2);
    }
    pop(v, old);
    return rc;
}

static int validate_frame_grid(vctx *v, const anim_json_value *fg)
{
    static const char *const KEYS[] = {"fps", "frame_intervals"};
    double fps = 0;
    uint64_t intervals = 0;
    if (want_object(v, fg) || check_keys(v, fg, KEYS, 2) ||
        number_field(v, fg, "fps", true, &fps) || uint_field(v, fg, "frame_intervals", &intervals))
        return -1;
    if (!(fps > 0))
        return bad(v, "fps must be positive");
    if (intervals < 1)
        return bad(v, "frame_intervals must be at least 1");
    return 0;
}

static int validate_gait(vctx *v, const anim_json_value *g)
{
    static const char *const KEYS[] = {"phase", "phase_availability", "lr_amplitude_m"};
    const anim_json_value *phase;
    double d;
    if (want_object(v, g) || check_keys(v, g, KEYS, 3) ||
        avail_pair(v, g, "phase", "phase_availability", true, &phase) ||
        number_field(v, g, "lr_amplitude_m", true, &d))
        return -1;
    return phase ? number_field(v, g, "phase", false, &d) : 0;
}

static int validate_translation(vctx *v, const anim_json_value *t)
{
    static const char *const KEYS[] = {"horizontal_displacement_x_m", "horizontal_displacement_z_m",
                                       "horizontal_travel_m",         "vertical_displacement_m",
                                       "vertical_min_displacement_m", "vertical_max_displacement_m"};
    double x[6];
    if (want_object(v, t) || check_keys(v, t, KEYS, 6))
        return -1;
    for (size_t k = 0; k < 6; k++)
        if (number_field(v, t, KEYS[k], false, &x[k]))
            return -1;
    double chord = hypot(x[0], x[1]);
    if (x[2] < 0 || x[2] + 1e-9 * fmax(1.0, chord) < chord)
        return bad(v, "horizontal_travel_m is below the endpoint displacement");
    if (x[4] > 0 || x[5] < 0 || x[3] < x[4] || x[3] > x[5])
        return bad(v, "vertical extrema must contain 0 and the endpoint displacement");
    return 0;
}

static int validate_yaw(vctx *v, const anim_json_value *y)
{
    static const char *const KEYS[] = {"heading_axis", "net_yaw_deg", "unwrapped_yaw_deg",
                                       "yaw_travel_deg"};
    static const char *const AXES[] = {"positive_z", "positive_y", "positive_x"};
    double net, unwrapped, travel;
    if (want_object(v, y) || check_keys(v, y, KEYS, 4) ||
        enum_field(v, y, "heading_axis", AXES, 3) < 0 ||
        number_field(v, y, "net_yaw_deg", false, &net) ||
        number_field(v, y, "unwrapped_yaw_deg", false, &unwrapped) ||
        number_field(v, y, "yaw_travel_deg", true, &travel))
        return -1;
    if (net < -180.0 || net > 180.0)
        return bad(v, "net_yaw_deg is outside [-180, 180]");
    /* net is the canonicalized unwrapped yaw (spec 3.10). */
    double r = fmod(unwrapped + 180.0, 360.0);
    if (r < 0)
        r += 360.0;
    double canon = r - 180.0;
    if (fabs(fabs(canon) - 180.0) <= 1e-4)
        canon = unwrapped < 0 ? -180.0 : 180.0;
    if (fabs(canon - net) > 1e-6 * fmax(1.0, fabs(unwrapped)))
        return bad(v, "net_yaw_deg does not match unwrapped_yaw_deg");
    if (travel + 1e-9 * fmax(1.0, travel) < fabs(unwrapped))
        return bad(v, "yaw_travel_deg is below |unwrapped_yaw_deg|");
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
    if (want_object(v, rt) || check_keys(v, rt, KEYS, 7) || uint_field(v, rt, "bone_index", &idx) ||
        string_field(v, rt, "bone_name") || enum_field(v, rt, "source_role", ROLES, 2) < 0 ||
        avail_pair(v, rt, "translation", "translation_availability", false, &t) ||
        avail_pair(v, rt, "yaw", "yaw_availability", false, &y))
        return -1;
    int rc = 0;
    if (t) {
        size_t old = push(v, ".translation");
        rc = validate_translation(v, t);
        pop(v, old);
    }
    if (!rc && y) {
        size_t old = push(v, ".yaw");
        rc = validate_yaw(v, y);
        pop(v, old);
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

static int validate_clip(vctx *v, const anim_json_value *clip)
{
    static const char *const MODES[] = {"duplicate_endpoint", "unique_cycle", "non_closing"};
    double d;
    uint64_t u;
    if (want_object(v, clip) || check_keys(v, clip, CLIP_KEYS, sizeof CLIP_KEYS / sizeof *CLIP_KEYS) ||
        number_field(v, clip, "duration_s", true, &d) || uint_field(v, clip, "frame_count", &u) ||
        validate_channels(v, clip) || validate_rotation_ranges(v, clip))
        return -1;
    const anim_json_value *x;
    size_t old;
    int rc = 0;
    if (avail_pair(v, clip, "loop_continuity", "loop_continuity_availability", true, &x))
        return -1;
    if (x) {
        old = push(v, ".loop_continuity");
        rc = validate_loop(v, x);
        pop(v, old);
        if (rc)
            return rc;
    }
    if (avail_pair(v, clip, "loop_endpoint_mode", "loop_endpoint_mode_availability", true, &x) ||
        (x && enum_field(v, clip, "loop_endpoint_mode", MODES, 3) < 0))
        return -1;
    if (avail_pair(v, clip, "frame_grid", "frame_grid_availability", true, &x))
        return -1;
    if (x) {
        old = push(v, ".frame_grid");
        rc = validate_frame_grid(v, x);
        pop(v, old);
        if (rc)
            return rc;
    }
    if (avail_pair(v, clip, "loop_seam_ratio", "loop_seam_ratio_availability", true, &x) ||
        (x && number_field(v, clip, "loop_seam_ratio", true, &d)))
        return -1;
    if (avail_pair(v, clip, "gait", "gait_availability", true, &x))
        return -1;
    if (x) {
        old = push(v, ".gait");
        rc = validate_gait(v, x);
        pop(v, old);
        if (rc)
            return rc;
    }
    if (avail_pair(v, clip, "root_trajectory", "root_trajectory_availability", true, &x))
        return -1;
    if (x) {
        old = push(v, ".root_trajectory");
        rc = validate_trajectory(v, x);
        pop(v, old);
        if (rc)
            return rc;
    }
    if (avail_pair(v, clip, "speed_mps", "speed_mps_availability", true, &x) ||
        (x && number_field(v, clip, "speed_mps", true, &d)))
        return -1;
    return 0;
}

/* ---- static asset evidence (shape only: diff never compares it) ---- */

typedef struct table_rule {
    const char *key;
    const char *index_key; /* each row's identity index, NULL for none */
} table_rule;

static const table_rule TABLES[] = {
    {"mesh_definitions", "mesh_index"},    {"node_instances", "node_index"},
    {"scenes", "scene_index"},             {"skeleton_nodes", "node_index"},
    {"skins", "skin_index"},               {"material_definitions", "material_index"},
    {"textures", "texture_index"},         {"images", "image_index"},
};

static int validate_asset(vctx *v, const anim_json_value *m)
{
    for (size_t t = 0; t < sizeof TABLES / sizeof *TABLES; t++) {
        const anim_json_value *tab = required(v, m, TABLES[t].key);
        if (!tab)
            return -1;
        size_t old = push(v, ".%s", TABLES[t].key);
        int rc = want_array(v, tab);
        for (size_t i = 0; !rc && i < anim_json_count(tab); i++) {
            const anim_json_value *row = anim_json_item(tab, i);
            size_t o2 = push(v, "[%zu]", i);
            uint64_t idx;
            rc = want_object(v, row);
            if (!rc && TABLES[t].index_key)
                rc = uint_field(v, row, TABLES[t].index_key, &idx);
            pop(v, o2);
        }
        pop(v, old);
        if (rc)
            return rc;
    }
    if (string_field(v, m, "skeleton_source_coverage") ||
        string_field(v, m, "material_resource_coverage"))
        return -1;
    const anim_json_value *ds = anim_json_get(m, "default_scene_index");
    if (ds) {
        uint64_t idx;
        size_t old = push(v, ".default_scene_index");
        int rc = uint_value(v, ds, &idx);
        pop(v, old);
        if (rc)
            return rc;
    }
    return 0;
}

int anim_diff_validate_measurements(const anim_json_value *m, anim_error *err)
{
    static const char *const TOP[] = {
        "schema_version",       "schema",         "clips",
        "mesh_definitions",     "node_instances", "scenes",
        "default_scene_index",  "skeleton_source_coverage", "skeleton_nodes",
        "skins",                "material_resource_coverage", "material_definitions",
        "textures",             "images"};
    vctx v;
    v.err = err;
    v.len = 0;
    v.path[0] = '\0';
    push(&v, "measurements");
    if (!m || want_object(&v, m) || check_keys(&v, m, TOP, sizeof TOP / sizeof *TOP))
        return m ? -1 : bad(&v, "missing");
    uint64_t version = 0;
    if (uint_field(&v, m, "schema_version", &version) || string_field(&v, m, "schema"))
        return -1;
    if (version != ANIM_MEASUREMENTS_SCHEMA_VERSION ||
        !anim_json_string_eq(anim_json_get(m, "schema"), ANIM_MEASUREMENTS_SCHEMA))
        return bad(&v, "expected measurements-v%d (%s)", ANIM_MEASUREMENTS_SCHEMA_VERSION,
                   ANIM_MEASUREMENTS_SCHEMA);
    const anim_json_value *clips = required(&v, m, "clips");
    if (!clips)
        return -1;
    /* Paths below start at "clips", as spec 3.12's messages do. */
    pop(&v, 0);
    push(&v, "clips");
    if (want_object(&v, clips))
        return -1;
    for (size_t i = 0; i < anim_json_count(clips); i++) {
        const anim_json_member *c = anim_json_member_at(clips, i);
        anim_strbuf q = ANIM_STRBUF_INIT;
        anim_text_debug_quote(&q, c->key, anim_json_key_len(c));
        size_t old = push(&v, "[%s]", q.data ? q.data : "?");
        anim_strbuf_free(&q);
        if (validate_clip(&v, &c->value))
            return -1;
        pop(&v, old);
    }
    pop(&v, 0);
    push(&v, "measurements");
    return validate_asset(&v, m);
}
