/* src/diff: `animsmith diff`, which compares two measurement reports (or
 * two assets, measured on the way) and says what moved (docs/diff.md). It
 * reads measurements; it measures nothing itself.
 *
 * This file: the diff comparison (metrics, floors and notes of docs/diff.md, with its
 * rules for loop-continuity rows and channel identity) over two validated
 * measurement trees (any version diff reads).
 *
 * Significance floors are what separates a real change from re-export
 * noise: an f32 round trip of the same motion moves positions by ~1e-7 m,
 * far below 0.001 m, while a re-timed or re-posed clip moves them by
 * centimetres. Availability statuses are compared exactly, since a fact
 * that stopped being measurable is a change no floor should hide.
 *
 * Loop-continuity rows: rows compare by bone_index; a row whose
 * status changes is reported as loop_continuity.bones[N].availability and
 * its numbers are compared only when measured on both sides. A bone row
 * present on one side only (the skeleton changed) counts as
 * not_applicable on the other. When the whole table appears or
 * disappears, loop_continuity_availability already says so, so no
 * per-row deltas are added.
 *
 * Across measurements versions both sides are read in the older
 * version's view (the same projection later contracts define for
 * consumers of an older one): before measurements-v17 a loop table has no
 * per-row status, so its rows are measured by construction, and a newer
 * table holding an unavailable row reads as an unavailable
 * loop_continuity fact, which is how the older contract records that
 * clip. Comparing the newer rows directly would report availability the
 * older report could never have expressed. The other version differences
 * (primitive and image evidence, linear-transform rotations) lie in the
 * static evidence, which is not compared. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/diff.h"
#include "animsmith/text.h"
#include "diff/diff_internal.h"


typedef struct cmp {
    anim_arena *arena;
    anim_diff_delta *v;
    size_t n, cap;
    bool oom;
    name_ref clip;
    int view; /* the older side's measurements version */
} cmp;


/* Arena copy of a finished string buffer (NULL and oom on failure). */
static const char *keep(cmp *c, anim_strbuf *sb, size_t *len)
{
    const char *s = NULL;
    if (!sb->failed)
        s = anim_arena_strndup(c->arena, sb->data ? sb->data : "", sb->len);
    if (!s)
        c->oom = true;
    *len = sb->len;
    anim_strbuf_free(sb);
    return s;
}

static void add(cmp *c, anim_strbuf *metric, bool hb, double b, bool ha, double a,
                const char *note_text, anim_strbuf *note)
{
    anim_diff_delta d;
    memset(&d, 0, sizeof d);
    d.clip = c->clip.s;
    d.clip_len = c->clip.len;
    d.metric = keep(c, metric, &d.metric_len);
    if (note) {
        d.note = keep(c, note, &d.note_len);
    } else {
        d.note = note_text;
        d.note_len = strlen(note_text);
    }
    d.has_before = hb && isfinite(b);
    d.before = d.has_before ? b : 0.0;
    d.has_after = ha && isfinite(a);
    d.after = d.has_after ? a : 0.0;
    if (c->oom || !d.metric || !d.note)
        return;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        size_t bytes;
        anim_diff_delta *nv = NULL;
        if (anim_size_mul(cap, sizeof *nv, &bytes))
            nv = realloc(c->v, bytes);
        if (!nv) {
            c->oom = true;
            return;
        }
        c->v = nv;
        c->cap = cap;
    }
    c->v[c->n++] = d;
}

static void metric_of(anim_strbuf *sb, const char *text)
{
    anim_strbuf_puts(sb, text);
}

/* Finite number at obj.key (absent otherwise; validated trees hold only
 * finite numbers, the check is for robustness). */
static bool num(const anim_json_value *obj, const char *key, double *out)
{
    const anim_json_value *x = obj ? anim_json_get(obj, key) : NULL;
    if (!x || x->type != ANIM_JSON_NUMBER)
        return false;
    *out = anim_json_number(x);
    return isfinite(*out);
}

static const anim_json_value *obj_at(const anim_json_value *obj, const char *key)
{
    const anim_json_value *x = obj ? anim_json_get(obj, key) : NULL;
    return x && x->type == ANIM_JSON_OBJECT ? x : NULL;
}

static bool same_string(const anim_json_value *a, const anim_json_value *b)
{
    if (!a || !b || a->type != ANIM_JSON_STRING || b->type != ANIM_JSON_STRING)
        return a == b;
    return anim_json_string_len(a) == anim_json_string_len(b) &&
           memcmp(anim_json_string(a), anim_json_string(b), anim_json_string_len(a)) == 0;
}

/* "push": one side absent is always a change; both present move
 * when they differ by more than the floor (circular distance for periodic
 * metrics, with a few ulps of slack so a floor-sized wrap is not flagged
 * by rounding). */
static bool moved(double a, double b, double floor_, double period)
{
    if (period > 0) {
        double d = fmod(a - b, period);
        if (d < 0)
            d += period;
        d = fmin(d, period - d);
        double scale = fmax(fmax(fabs(d), fabs(floor_)), fmax(fabs(period), 1.0));
        return d > floor_ + 16.0 * DBL_EPSILON * scale;
    }
    return fabs(a - b) > floor_;
}

static void push_num(cmp *c, anim_strbuf *metric, bool hb, double b, bool ha, double a,
                     double floor_, double period)
{
    if (!hb && !ha) {
        anim_strbuf_free(metric);
        return;
    }
    if (hb && ha && !moved(b, a, floor_, period)) {
        anim_strbuf_free(metric);
        return;
    }
    add(c, metric, hb, b, ha, a, hb && ha ? "moved" : ha ? "appeared" : "disappeared", NULL);
}

static void push_field(cmp *c, const char *name, const anim_json_value *ob,
                       const anim_json_value *oa, const char *key, double floor_, double period)
{
    double b = 0, a = 0;
    bool hb = num(ob, key, &b), ha = num(oa, key, &a);
    anim_strbuf m = ANIM_STRBUF_INIT;
    metric_of(&m, name);
    push_num(c, &m, hb, b, ha, a, floor_, period);
}

/* A status string (validated trees hold only the three names). */
static name_ref status_of(const anim_json_value *obj, const char *key)
{
    const anim_json_value *x = obj ? anim_json_get(obj, key) : NULL;
    name_ref r = {NULL, 0, x};
    if (x && x->type == ANIM_JSON_STRING) {
        r.s = anim_json_string(x);
        r.len = anim_json_string_len(x);
    }
    return r;
}

static name_ref status_named(const char *name)
{
    name_ref r = {name, strlen(name), NULL};
    return r;
}

static bool status_is(const name_ref *st, const char *name)
{
    return st->s && st->len == strlen(name) && memcmp(st->s, name, st->len) == 0;
}

static const char *became(const name_ref *status)
{
    if (status_is(status, "measured"))
        return "became measured";
    if (status_is(status, "not_applicable"))
        return "no longer applicable";
    return "became unavailable";
}

static void push_status(cmp *c, anim_strbuf *metric, const name_ref *sb, const name_ref *sa)
{
    if ((!sb->s && !sa->s) || (sb->s && sa->s && diff_name_cmp(sb, sa) == 0)) {
        anim_strbuf_free(metric);
        return;
    }
    add(c, metric, false, 0, false, 0, became(sa), NULL);
}

static void push_status_field(cmp *c, const char *name, const anim_json_value *ob,
                              const anim_json_value *oa, const char *key)
{
    anim_strbuf m = ANIM_STRBUF_INIT;
    metric_of(&m, name);
    name_ref sb = status_of(ob, key), sa = status_of(oa, key);
    push_status(c, &m, &sb, &sa);
}

/* ---- loop continuity rows ---- */

static const char *const LOOP_FIELDS[] = {"position_delta_m", "rotation_delta_deg",
                                          "seam_velocity_delta_mps",
                                          "seam_angular_velocity_delta_degps"};
static const double LOOP_FLOORS[] = {0.001, 0.1, 0.01, 0.5};

/* A clip's loop-continuity fact as the comparison's version view sees
 * it: its status and, when measured, its rows. */
typedef struct loop_view {
    name_ref status;
    const anim_json_value *bones;
} loop_view;

/* A row's status; rows before measurements-v17 carry none and are
 * measured by construction. */
static name_ref row_status(const anim_json_value *row)
{
    name_ref st = status_of(row, "availability");
    return st.value ? st : status_named("measured");
}

static loop_view view_loop(const cmp *c, const anim_json_value *clip)
{
    loop_view lv;
    lv.status = status_of(clip, "loop_continuity_availability");
    const anim_json_value *lc = obj_at(clip, "loop_continuity");
    lv.bones = lc ? anim_json_get(lc, "bones") : NULL;
    if (!lv.bones || diff_has(c->view, DIFF_F_LOOP_ROW_AVAILABILITY))
        return lv;
    for (size_t i = 0; i < anim_json_count(lv.bones); i++) {
        name_ref st = row_status(anim_json_item(lv.bones, i));
        if (!status_is(&st, "measured")) {
            lv.status = status_named("unavailable");
            lv.bones = NULL;
            break;
        }
    }
    return lv;
}

static void compare_loop(cmp *c, const loop_view *lb, const loop_view *la)
{
    const anim_json_value *bb = lb->bones, *ba = la->bones;
    if (!bb || !ba)
        return;
    size_t nb = anim_json_count(bb), na = anim_json_count(ba);
    size_t n = nb > na ? nb : na;
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *rb = i < nb ? anim_json_item(bb, i) : NULL;
        const anim_json_value *ra = i < na ? anim_json_item(ba, i) : NULL;
        name_ref sb = rb ? row_status(rb) : status_named("");
        name_ref sa = ra ? row_status(ra) : status_named("");
        if (!rb || !ra || diff_name_cmp(&sb, &sa) != 0) {
            anim_strbuf m = ANIM_STRBUF_INIT;
            anim_strbuf_printf(&m, "loop_continuity.bones[%zu].availability", i);
            /* A row missing on the after side: the bone no longer
             * exists, so the fact is not applicable there. */
            add(c, &m, false, 0, false, 0, ra ? became(&sa) : "no longer applicable", NULL);
            continue;
        }
        if (!status_is(&sb, "measured") || !status_is(&sa, "measured"))
            continue;
        for (size_t k = 0; k < 4; k++) {
            double b = 0, a = 0;
            bool hb = num(rb, LOOP_FIELDS[k], &b), ha = num(ra, LOOP_FIELDS[k], &a);
            anim_strbuf m = ANIM_STRBUF_INIT;
            anim_strbuf_printf(&m, "loop_continuity.bones[%zu].%s", i, LOOP_FIELDS[k]);
            push_num(c, &m, hb, b, ha, a, LOOP_FLOORS[k], 0);
        }
    }
}

/* ---- root trajectory identity ---- */

static bool uint_of(const anim_json_value *obj, const char *key, double *out)
{
    return num(obj, key, out) && *out >= 0;
}

static void put_bone_identity(anim_strbuf *sb, const anim_json_value *rt)
{
    double idx = 0;
    uint_of(rt, "bone_index", &idx);
    const anim_json_value *name = anim_json_get(rt, "bone_name");
    const anim_json_value *role = anim_json_get(rt, "source_role");
    anim_strbuf_printf(sb, "#%.0f:", idx);
    if (name && name->type == ANIM_JSON_STRING)
        anim_text_debug_quote(sb, anim_json_string(name), anim_json_string_len(name));
    anim_strbuf_puts(sb, " (");
    if (role && role->type == ANIM_JSON_STRING)
        anim_strbuf_append(sb, anim_json_string(role), anim_json_string_len(role));
    anim_strbuf_putc(sb, ')');
}

static const char *axis_label(const anim_json_value *axis)
{
    if (anim_json_string_eq(axis, "positive_x"))
        return "+X";
    if (anim_json_string_eq(axis, "positive_y"))
        return "+Y";
    return "+Z";
}

static void compare_trajectory_identity(cmp *c, const anim_json_value *tb,
                                        const anim_json_value *ta)
{
    if (!tb || !ta)
        return;
    double ib = 0, ia = 0;
    bool hb = uint_of(tb, "bone_index", &ib), ha = uint_of(ta, "bone_index", &ia);
    if (ib != ia || hb != ha ||
        !same_string(anim_json_get(tb, "bone_name"), anim_json_get(ta, "bone_name")) ||
        !same_string(anim_json_get(tb, "source_role"), anim_json_get(ta, "source_role"))) {
        anim_strbuf m = ANIM_STRBUF_INIT, note = ANIM_STRBUF_INIT;
        metric_of(&m, "root_trajectory.selected_bone");
        anim_strbuf_puts(&note, "changed from ");
        put_bone_identity(&note, tb);
        anim_strbuf_puts(&note, " to ");
        put_bone_identity(&note, ta);
        add(c, &m, hb, ib, ha, ia, NULL, &note);
    }
    const anim_json_value *yb = obj_at(tb, "yaw"), *ya = obj_at(ta, "yaw");
    if (yb && ya) {
        const anim_json_value *xb = anim_json_get(yb, "heading_axis");
        const anim_json_value *xa = anim_json_get(ya, "heading_axis");
        if (!same_string(xb, xa)) {
            anim_strbuf m = ANIM_STRBUF_INIT, note = ANIM_STRBUF_INIT;
            metric_of(&m, "root_trajectory.yaw.heading_axis");
            anim_strbuf_printf(&note, "changed from %s to %s", axis_label(xb), axis_label(xa));
            add(c, &m, false, 0, false, 0, NULL, &note);
        }
    }
}

/* ---- bone sets ---- */

/* Names of an object's members or an array's strings, sorted byte-wise
 * (malloc'd; NULL with *n = 0 when empty; oom flagged). */
static name_ref *sorted_names(cmp *c, const anim_json_value *x, size_t *n)
{
    *n = 0;
    size_t count = x ? anim_json_count(x) : 0;
    if (!count)
        return NULL;
    name_ref *r = calloc(count, sizeof *r);
    if (!r) {
        c->oom = true;
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        if (x->type == ANIM_JSON_OBJECT) {
            const anim_json_member *m = anim_json_member_at(x, i);
            r[k].s = m->key;
            r[k].len = anim_json_key_len(m);
            r[k].value = &m->value;
            k++;
        } else {
            const anim_json_value *it = anim_json_item(x, i);
            if (it->type != ANIM_JSON_STRING)
                continue;
            r[k].s = anim_json_string(it);
            r[k].len = anim_json_string_len(it);
            r[k].value = it;
            k++;
        }
    }
    qsort(r, k, sizeof *r, diff_name_qsort);
    *n = k;
    return r;
}

static void compare_rotation_ranges(cmp *c, const anim_json_value *cb, const anim_json_value *ca)
{
    size_t nb, na;
    name_ref *b = sorted_names(c, anim_json_get(cb, "bone_rotation_range_deg"), &nb);
    name_ref *a = sorted_names(c, anim_json_get(ca, "bone_rotation_range_deg"), &na);
    size_t i = 0, j = 0;
    while (!c->oom && (i < nb || j < na)) {
        int order = i >= nb ? 1 : j >= na ? -1 : diff_name_cmp(&b[i], &a[j]);
        const name_ref *name = order <= 0 ? &b[i] : &a[j];
        double vb = 0, va = 0;
        bool hb = order <= 0 && b[i].value->type == ANIM_JSON_NUMBER;
        bool ha = order >= 0 && a[j].value->type == ANIM_JSON_NUMBER;
        if (hb)
            vb = anim_json_number(b[i].value);
        if (ha)
            va = anim_json_number(a[j].value);
        if (order <= 0)
            i++;
        if (order >= 0)
            j++;
        if (hb && ha && !moved(vb, va, 1.0, 0))
            continue;
        anim_strbuf m = ANIM_STRBUF_INIT;
        anim_strbuf_puts(&m, "bone_rotation_range_deg[");
        anim_strbuf_append(&m, name->s, name->len);
        anim_strbuf_putc(&m, ']');
        add(c, &m, hb, vb, ha, va,
            hb && ha ? "moved" : ha ? "bone now animated" : "bone no longer animated", NULL);
    }
    free(b);
    free(a);
}

static void put_name_list(anim_strbuf *sb, const name_ref *const *items, size_t n)
{
    anim_strbuf_putc(sb, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            anim_strbuf_puts(sb, ", ");
        anim_strbuf_append(sb, items[i]->s, items[i]->len);
    }
    anim_strbuf_putc(sb, ']');
}

static void compare_animated_bones(cmp *c, const anim_json_value *cb, const anim_json_value *ca)
{
    size_t nb, na;
    name_ref *b = sorted_names(c, anim_json_get(cb, "animated_bones"), &nb);
    name_ref *a = sorted_names(c, anim_json_get(ca, "animated_bones"), &na);
    const name_ref **gained = calloc(na + 1, sizeof *gained);
    const name_ref **lost = calloc(nb + 1, sizeof *lost);
    size_t ng = 0, nl = 0, i = 0, j = 0;
    if (!gained || !lost)
        c->oom = true;
    while (!c->oom && (i < nb || j < na)) {
        int order = i >= nb ? 1 : j >= na ? -1 : diff_name_cmp(&b[i], &a[j]);
        if (order < 0)
            lost[nl++] = &b[i++];
        else if (order > 0)
            gained[ng++] = &a[j++];
        else
            i++, j++;
        /* Duplicates cannot occur in validated lists; skip them anyway. */
        while (i > 0 && i < nb && diff_name_cmp(&b[i - 1], &b[i]) == 0)
            i++;
        while (j > 0 && j < na && diff_name_cmp(&a[j - 1], &a[j]) == 0)
            j++;
    }
    if (!c->oom && (ng || nl)) {
        anim_strbuf m = ANIM_STRBUF_INIT, note = ANIM_STRBUF_INIT;
        metric_of(&m, "animated_bones");
        anim_strbuf_puts(&note, "gained ");
        put_name_list(&note, gained, ng);
        anim_strbuf_puts(&note, ", lost ");
        put_name_list(&note, lost, nl);
        add(c, &m, true, (double)anim_json_count(anim_json_get(cb, "animated_bones")), true,
            (double)anim_json_count(anim_json_get(ca, "animated_bones")), NULL, &note);
    }
    free(gained);
    free(lost);
    free(b);
    free(a);
}

/* ---- bone_channels: (bone_index, property) identity ---- */

static const char *const PROPS[] = {"translation", "rotation", "scale"};

static unsigned row_props(const anim_json_value *row)
{
    unsigned bits = 0;
    const anim_json_value *p = anim_json_get(row, "properties");
    for (size_t i = 0; p && i < anim_json_count(p); i++)
        for (unsigned k = 0; k < 3; k++)
            if (anim_json_string_eq(anim_json_item(p, i), PROPS[k]))
                bits |= 1u << k;
    return bits;
}

static unsigned popcount3(unsigned bits)
{
    return (bits & 1u) + ((bits >> 1) & 1u) + ((bits >> 2) & 1u);
}

static void put_channel(anim_strbuf *sb, bool *first, double idx, const anim_json_value *row,
                        unsigned k)
{
    if (!*first)
        anim_strbuf_puts(sb, ", ");
    *first = false;
    const anim_json_value *name = anim_json_get(row, "bone_name");
    anim_strbuf_printf(sb, "#%.0f:", idx);
    if (name && name->type == ANIM_JSON_STRING)
        anim_text_debug_quote(sb, anim_json_string(name), anim_json_string_len(name));
    anim_strbuf_printf(sb, ".%s", PROPS[k]);
}

static void compare_channels(cmp *c, const anim_json_value *cb, const anim_json_value *ca)
{
    const anim_json_value *bb = anim_json_get(cb, "bone_channels");
    const anim_json_value *ba = anim_json_get(ca, "bone_channels");
    size_t nb = bb ? anim_json_count(bb) : 0, na = ba ? anim_json_count(ba) : 0;
    anim_strbuf gained = ANIM_STRBUF_INIT, lost = ANIM_STRBUF_INIT;
    bool g_first = true, l_first = true;
    size_t size_b = 0, size_a = 0, i = 0, j = 0;
    /* Rows are strictly ascending by bone_index (validated): merge them. */
    while (i < nb || j < na) {
        const anim_json_value *rb = i < nb ? anim_json_item(bb, i) : NULL;
        const anim_json_value *ra = j < na ? anim_json_item(ba, j) : NULL;
        double xb = 0, xa = 0;
        if (rb)
            uint_of(rb, "bone_index", &xb);
        if (ra)
            uint_of(ra, "bone_index", &xa);
        if (rb && ra && xb != xa) {
            if (xb < xa)
                ra = NULL;
            else
                rb = NULL;
        }
        unsigned pb = rb ? row_props(rb) : 0, pa = ra ? row_props(ra) : 0;
        size_b += popcount3(pb);
        size_a += popcount3(pa);
        for (unsigned k = 0; k < 3; k++) {
            unsigned bit = 1u << k;
            if ((pa & bit) && !(pb & bit))
                put_channel(&gained, &g_first, xa, ra, k);
            else if ((pb & bit) && !(pa & bit))
                put_channel(&lost, &l_first, xb, rb, k);
        }
        if (rb)
            i++;
        if (ra)
            j++;
    }
    if (!g_first || !l_first) {
        anim_strbuf m = ANIM_STRBUF_INIT, note = ANIM_STRBUF_INIT;
        metric_of(&m, "bone_channels");
        anim_strbuf_puts(&note, "gained [");
        if (gained.data)
            anim_strbuf_append(&note, gained.data, gained.len);
        anim_strbuf_puts(&note, "], lost [");
        if (lost.data)
            anim_strbuf_append(&note, lost.data, lost.len);
        anim_strbuf_putc(&note, ']');
        if (gained.failed || lost.failed)
            note.failed = true;
        add(c, &m, true, (double)size_b, true, (double)size_a, NULL, &note);
    }
    anim_strbuf_free(&gained);
    anim_strbuf_free(&lost);
}

/* ---- one clip ---- */

static const char *const TRANSLATION_FIELDS[] = {
    "horizontal_displacement_x_m", "horizontal_displacement_z_m", "horizontal_travel_m",
    "vertical_displacement_m",     "vertical_min_displacement_m", "vertical_max_displacement_m"};

/* After loop_continuity_availability, which follows the version view. */
static const char *const CLIP_STATUSES[] = {
    "loop_endpoint_mode_availability",
    "frame_grid_availability",      "loop_seam_ratio_availability",
    "gait_availability",            "root_trajectory_availability",
    "speed_mps_availability"};

static void compare_clip(cmp *c, const anim_json_value *cb, const anim_json_value *ca)
{
    push_field(c, "duration_s", cb, ca, "duration_s", 0.017, 0);
    push_field(c, "frame_count", cb, ca, "frame_count", 0.5, 0);
    push_field(c, "loop_seam_ratio", cb, ca, "loop_seam_ratio", 0.05, 0);
    const anim_json_value *gb = obj_at(cb, "gait"), *ga = obj_at(ca, "gait");
    push_field(c, "gait.phase", gb, ga, "phase", 0.05, 1.0);
    push_field(c, "gait.lr_amplitude_m", gb, ga, "lr_amplitude_m", 0.005, 0);
    push_field(c, "speed_mps", cb, ca, "speed_mps", 0.1, 0);
    const anim_json_value *tb = obj_at(cb, "root_trajectory"), *ta = obj_at(ca, "root_trajectory");
    const anim_json_value *trb = obj_at(tb, "translation"), *tra = obj_at(ta, "translation");
    for (size_t k = 0; k < 6; k++) {
        anim_strbuf m = ANIM_STRBUF_INIT;
        anim_strbuf_printf(&m, "root_trajectory.translation.%s", TRANSLATION_FIELDS[k]);
        double b = 0, a = 0;
        bool hb = num(trb, TRANSLATION_FIELDS[k], &b), ha = num(tra, TRANSLATION_FIELDS[k], &a);
        push_num(c, &m, hb, b, ha, a, 0.001, 0);
    }
    const anim_json_value *yb = obj_at(tb, "yaw"), *ya = obj_at(ta, "yaw");
    push_field(c, "root_trajectory.yaw.net_yaw_deg", yb, ya, "net_yaw_deg", 0.1, 360.0);
    push_field(c, "root_trajectory.yaw.unwrapped_yaw_deg", yb, ya, "unwrapped_yaw_deg", 0.1, 0);
    push_field(c, "root_trajectory.yaw.yaw_travel_deg", yb, ya, "yaw_travel_deg", 0.1, 0);
    loop_view lb = view_loop(c, cb), la = view_loop(c, ca);
    compare_loop(c, &lb, &la);
    compare_trajectory_identity(c, tb, ta);
    anim_strbuf lm = ANIM_STRBUF_INIT;
    metric_of(&lm, "loop_continuity_availability");
    push_status(c, &lm, &lb.status, &la.status);
    for (size_t k = 0; k < sizeof CLIP_STATUSES / sizeof *CLIP_STATUSES; k++)
        push_status_field(c, CLIP_STATUSES[k], cb, ca, CLIP_STATUSES[k]);
    if (gb && ga)
        push_status_field(c, "gait.phase_availability", gb, ga, "phase_availability");
    if (tb && ta) {
        push_status_field(c, "root_trajectory.translation_availability", tb, ta,
                          "translation_availability");
        push_status_field(c, "root_trajectory.yaw_availability", tb, ta, "yaw_availability");
    }
    compare_rotation_ranges(c, cb, ca);
    compare_animated_bones(c, cb, ca);
    compare_channels(c, cb, ca);
}

static void clip_event(cmp *c, const char *note)
{
    anim_strbuf m = ANIM_STRBUF_INIT;
    metric_of(&m, "clip");
    add(c, &m, false, 0, false, 0, note, NULL);
}

/* A validated tree's version (the current one for a tree without it,
 * which only a caller bypassing validation can pass). */
static int measurements_version(const anim_json_value *m)
{
    const anim_json_value *x = m ? anim_json_get(m, "schema_version") : NULL;
    if (!x || !anim_json_is_integer(x) || anim_json_integer(x) < 0 ||
        anim_json_integer(x) > ANIM_MEASUREMENTS_SCHEMA_VERSION)
        return ANIM_MEASUREMENTS_SCHEMA_VERSION;
    return (int)anim_json_integer(x);
}

/* Clip names are NUL-terminated arena copies for the result. */
static bool set_clip(cmp *c, const name_ref *name)
{
    c->clip.s = anim_arena_strndup(c->arena, name->s, name->len);
    c->clip.len = name->len;
    if (!c->clip.s)
        c->oom = true;
    return c->clip.s != NULL;
}

int anim_diff_compare(const anim_json_value *before, const anim_json_value *after,
                      anim_arena *arena, anim_diff_result *out, anim_error *err)
{
    cmp c;
    memset(&c, 0, sizeof c);
    c.arena = arena;
    c.view = measurements_version(before);
    int va = measurements_version(after);
    if (va < c.view)
        c.view = va;
    out->deltas = NULL;
    out->count = 0;
    size_t nb, na;
    name_ref *b = sorted_names(&c, obj_at(before, "clips"), &nb);
    name_ref *a = sorted_names(&c, obj_at(after, "clips"), &na);
    /* Clips of A in name order (removed or compared), then clips only in
     * B (added). */
    for (size_t i = 0; i < nb && !c.oom; i++) {
        const name_ref *hit = na ? bsearch(&b[i], a, na, sizeof *a, diff_name_qsort) : NULL;
        if (!set_clip(&c, &b[i]))
            break;
        if (!hit)
            clip_event(&c, "clip removed");
        else
            compare_clip(&c, b[i].value, hit->value);
    }
    for (size_t j = 0; j < na && !c.oom; j++) {
        if (nb && bsearch(&a[j], b, nb, sizeof *b, diff_name_qsort))
            continue;
        if (set_clip(&c, &a[j]))
            clip_event(&c, "clip added");
    }
    free(b);
    free(a);
    if (!c.oom && c.n) {
        size_t bytes;
        if (anim_size_mul(c.n, sizeof *c.v, &bytes))
            out->deltas = anim_arena_alloc(arena, bytes);
        if (out->deltas)
            memcpy(out->deltas, c.v, bytes);
        else
            c.oom = true;
    }
    free(c.v);
    if (c.oom)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while comparing measurements");
    out->count = c.n;
    return 0;
}
