/* The V2 Bevy 0.19.0 projection over the raw domains and the animation
 * inventory of the same load (docs/addressability.md "Rich addressability"):
 *   labels -- Scene{i} per retained source scene; the default scene only as
 *     a route to an existing Scene{i} (never a DefaultScene label, never a
 *     made-up Scene0); Skin{i}/InverseBindMatrices for every source skin
 *     (identity fallback without an accessor); Skin{i} once any node
 *     references the skin;
 *   named maps -- scenes, animations and skins by authored name, source
 *     order, the last write winning (skins in first-reference order over
 *     the all-node pass);
 *   targets -- per unique animated target node, its contributing channels
 *     and, only when every prerequisite holds, the name path and Bevy's
 *     AnimationTargetId; otherwise typed required_unavailable reasons.
 * Nothing here is guessed: a prefix, a missing setting or a collision is a
 * reason, never a path or an id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate/addressability.h"
#include "generate/bevy_target_id.h"

#define R_WIDTH "missing_pointer_width"
#define R_FEATURE "bevy_animation_disabled"
#define R_LOAD "load_animations_disabled"
#define R_UNREACHABLE "unreachable_target"
#define R_MULTIPLE "multiple_scene_paths"
#define R_DUPLICATE "duplicate_path"
#define R_COLLISION "target_id_collision"
#define R_INCOMPLETE "evidence_incomplete"
#define R_TRUNCATED "target_domain_truncated"
#define R_BOUNDS "projection_bounds_exceeded"

const char *addr_state_name(addr_state s)
{
    return s == ADDR_AVAILABLE ? "available" : s == ADDR_ABSENT ? "absent"
                                                                : "required_unavailable";
}

void addr_reasons_add(addr_reasons *r, const char *code)
{
    uint32_t at = 0;
    while (at < r->count && strcmp(r->codes[at], code) < 0)
        at++;
    if ((at < r->count && strcmp(r->codes[at], code) == 0) || r->count >= ADDR_MAX_REASONS)
        return;
    memmove(&r->codes[at + 1], &r->codes[at], (r->count - at) * sizeof *r->codes);
    r->codes[at] = code;
    r->count++;
}

static addr_setting setting_of(const anim_engine_run *run, const char *key)
{
    addr_setting s;
    memset(&s, 0, sizeof s);
    const anim_engine_setting_value *v = run ? anim_engine_run_setting(run, key) : NULL;
    if (!v)
        return s;
    s.known = true;
    s.value = v->boolean;
    s.text = v->text;
    s.origin = anim_engine_origin_name(v->origin);
    return s;
}

static int text_cmp(addr_text a, addr_text b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.s, b.s, n) : 0;
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* ---- named maps */

typedef struct {
    addr_text name;
    uint32_t index;
    uint32_t order; /* insertion order: the last write wins */
} map_entry;

static int entry_cmp(const void *pa, const void *pb)
{
    const map_entry *a = pa, *b = pb;
    int c = text_cmp(a->name, b->name);
    return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* Winners of n insertions (entries in insertion order), sorted by name. */
static int map_finish(addr_named_map *m, map_entry *e, uint32_t n, anim_arena *arena,
                      addr_budget *budget)
{
    qsort(e, n, sizeof *e, entry_cmp);
    m->winners = anim_arena_calloc(arena, n ? n : 1, sizeof *m->winners);
    if (!m->winners)
        return -1;
    size_t text = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i + 1 < n && text_cmp(e[i].name, e[i + 1].name) == 0)
            continue; /* a later insertion of the same name replaces it */
        m->winners[m->count++] = (addr_winner){e[i].name, e[i].index};
        text += e[i].name.len;
    }
    bool long_name = false;
    for (uint32_t i = 0; i < m->count; i++)
        long_name = long_name || m->winners[i].name.len > ADDR_V2_MAX_NAME;
    if (m->count > ADDR_V2_MAX_ROWS || long_name || !addr_budget_take(budget, m->count, text)) {
        m->count = 0;
        m->state = ADDR_REQUIRED_UNAVAILABLE;
        addr_reasons_add(&m->reasons, R_BOUNDS);
        return 0;
    }
    m->state = ADDR_AVAILABLE;
    return 0;
}

static int build_maps(const addr_inventory *inv, const addr_raw *raw, const addr_projection *p,
                      anim_arena *arena, addr_budget *budget, addr_projection *out)
{
    uint32_t cap = raw->scene_domain.rows;
    if (inv->animation_count > cap)
        cap = inv->animation_count;
    if (raw->attachment_domain.rows > cap)
        cap = raw->attachment_domain.rows;
    map_entry *e = calloc(cap ? cap : 1, sizeof *e);
    bool *seen = calloc(raw->skin_domain.source_rows ? raw->skin_domain.source_rows : 1, 1);
    int rc = e && seen ? 0 : -1;
    uint32_t n = 0;

    /* Scenes, in source order. */
    if (rc == 0 && raw->scene_domain.state != ADDR_COMPLETE) {
        out->scene_map.state = ADDR_REQUIRED_UNAVAILABLE;
        addr_reasons_add(&out->scene_map.reasons, R_INCOMPLETE);
    } else if (rc == 0) {
        for (uint32_t i = 0; i < raw->scene_domain.rows; i++)
            if (raw->scenes[i].name.s)
                e[n] = (map_entry){raw->scenes[i].name, raw->scenes[i].index, n}, n++;
        rc = map_finish(&out->scene_map, e, n, arena, budget);
    }

    /* Animations: only what the loader loads, so both gates must allow it. */
    addr_reasons r = {{NULL}, 0};
    if (inv->coverage != ADDR_COMPLETE || !p->feature.known || !p->load_animations.known)
        addr_reasons_add(&r, R_INCOMPLETE);
    if (p->feature.known && !p->feature.value)
        addr_reasons_add(&r, R_FEATURE);
    if (p->load_animations.known && !p->load_animations.value)
        addr_reasons_add(&r, R_LOAD);
    if (rc == 0 && r.count) {
        out->animation_map.state = ADDR_REQUIRED_UNAVAILABLE;
        out->animation_map.reasons = r;
    } else if (rc == 0) {
        n = 0;
        for (uint32_t i = 0; i < inv->animation_count; i++)
            if (inv->animations[i].name.s)
                e[n] = (map_entry){inv->animations[i].name, inv->animations[i].index, n}, n++;
        rc = map_finish(&out->animation_map, e, n, arena, budget);
    }

    /* Skins: created lazily in the pass over every source node, so the
     * insertion order is the order of first reference. */
    if (rc == 0 && (raw->skin_domain.state != ADDR_COMPLETE ||
                    raw->attachment_domain.state != ADDR_COMPLETE)) {
        out->skin_map.state = ADDR_REQUIRED_UNAVAILABLE;
        addr_reasons_add(&out->skin_map.reasons, R_INCOMPLETE);
    } else if (rc == 0) {
        n = 0;
        for (uint32_t i = 0; i < raw->attachment_domain.rows; i++) {
            uint32_t s = raw->attachments[i].skin;
            if (s >= raw->skin_domain.rows || seen[s])
                continue;
            seen[s] = true;
            if (raw->skins[s].name.s)
                e[n] = (map_entry){raw->skins[s].name, s, n}, n++;
        }
        rc = map_finish(&out->skin_map, e, n, arena, budget);
    }
    free(e);
    free(seen);
    return rc;
}

/* ---- labels */

static int build_labels(const addr_raw *raw, anim_arena *arena, addr_projection *out)
{
    out->default_route = raw->default_scene == ANIM_NONE ? ADDR_ABSENT : ADDR_AVAILABLE;
    out->skin_count = raw->skin_domain.rows;
    out->skins = anim_arena_calloc(arena, out->skin_count ? out->skin_count : 1,
                                   sizeof *out->skins);
    if (!out->skins)
        return -1;
    for (uint32_t i = 0; i < out->skin_count; i++) {
        addr_skin_labels *l = &out->skins[i];
        l->skin = raw->skins[i].index;
        l->identity_fallback = raw->skins[i].inverse_bind_accessor == ANIM_NONE;
        bool referenced = false;
        for (uint32_t a = 0; a < raw->attachment_domain.rows && !referenced; a++)
            referenced = raw->attachments[a].skin == l->skin;
        if (referenced) {
            l->skin_state = ADDR_AVAILABLE;
        } else if (raw->attachment_domain.state == ADDR_COMPLETE) {
            l->skin_state = ADDR_ABSENT;
        } else {
            l->skin_state = ADDR_REQUIRED_UNAVAILABLE;
            addr_reasons_add(&l->reasons, R_INCOMPLETE);
        }
    }
    out->label_coverage = raw->scene_domain.state == ADDR_COMPLETE &&
                                  raw->skin_domain.state == ADDR_COMPLETE
                              ? ADDR_AVAILABLE
                              : ADDR_REQUIRED_UNAVAILABLE;
    return 0;
}

/* ---- targets */

static int target_cmp_path(const addr_target *a, const addr_target *b)
{
    uint32_t n = a->segment_count < b->segment_count ? a->segment_count : b->segment_count;
    for (uint32_t i = 0; i < n; i++) {
        int c = text_cmp(a->segments[i], b->segments[i]);
        if (c)
            return c;
    }
    return (a->segment_count > b->segment_count) - (a->segment_count < b->segment_count);
}

static int by_path(const void *pa, const void *pb)
{
    const addr_target *a = *(const addr_target *const *)pa, *b = *(const addr_target *const *)pb;
    int c = target_cmp_path(a, b);
    return c ? c : (a->node > b->node) - (a->node < b->node);
}

static int by_id(const void *pa, const void *pb)
{
    const addr_target *a = *(const addr_target *const *)pa, *b = *(const addr_target *const *)pb;
    int c = strcmp(a->id, b->id);
    return c ? c : (a->node > b->node) - (a->node < b->node);
}

/* Equal full paths of different nodes, and equal ids of different paths,
 * make every member of the group unavailable: no winner is guessed. */
static int mark_collisions(addr_target *t, uint32_t n)
{
    addr_target **v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return -1;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (t[i].state == ADDR_AVAILABLE)
            v[m++] = &t[i];
    bool *dup = calloc(m ? m : 1, sizeof *dup), *hit = calloc(m ? m : 1, sizeof *hit);
    if (!dup || !hit) {
        free(v);
        free(dup);
        free(hit);
        return -1;
    }
    qsort(v, m, sizeof *v, by_path);
    for (uint32_t i = 0; i + 1 < m; i++)
        if (target_cmp_path(v[i], v[i + 1]) == 0)
            dup[i] = dup[i + 1] = true;
    for (uint32_t i = 0; i < m; i++)
        if (dup[i])
            addr_reasons_add(&v[i]->reasons, R_DUPLICATE);
    qsort(v, m, sizeof *v, by_id);
    for (uint32_t i = 0; i + 1 < m; i++)
        if (strcmp(v[i]->id, v[i + 1]->id) == 0 && target_cmp_path(v[i], v[i + 1]) != 0)
            hit[i] = hit[i + 1] = true;
    for (uint32_t i = 0; i < m; i++)
        if (hit[i])
            addr_reasons_add(&v[i]->reasons, R_COLLISION);
    for (uint32_t i = 0; i < m; i++)
        if (v[i]->reasons.count) {
            v[i]->state = ADDR_REQUIRED_UNAVAILABLE;
            v[i]->segment_count = 0;
        }
    free(v);
    free(dup);
    free(hit);
    return 0;
}

/* The name path of one candidate: authored names ("" kept exactly), or
 * GltfNode{i} for a node without one. The scene's world root has no name
 * segment: the path starts at the scene root node. */
static addr_text *name_path(const addr_raw *raw, const addr_path *p, anim_arena *arena)
{
    addr_text *seg = anim_arena_calloc(arena, p->length ? p->length : 1, sizeof *seg);
    for (uint32_t i = 0; seg && i < p->length; i++) {
        const addr_node *node = &raw->nodes[p->nodes[i]];
        if (node->name.s) {
            seg[i] = node->name;
        } else {
            char *fallback = anim_arena_printf(arena, "GltfNode%u", p->nodes[i]);
            if (!fallback)
                return NULL;
            seg[i] = (addr_text){fallback, strlen(fallback)};
        }
    }
    return seg;
}

static bool same_nodes(const addr_path *a, const addr_path *b)
{
    return a->length == b->length && memcmp(a->nodes, b->nodes, a->length * sizeof *a->nodes) == 0;
}

static void base_reasons(const addr_inventory *inv, const addr_raw *raw,
                         const addr_projection *p, addr_reasons *r)
{
    if (inv->coverage != ADDR_COMPLETE || inv->closure.state != ADDR_COMPLETE ||
        raw->scene_domain.state != ADDR_COMPLETE || raw->node_domain.state != ADDR_COMPLETE ||
        raw->path_domain.state != ADDR_COMPLETE || !p->feature.known ||
        !p->load_animations.known)
        addr_reasons_add(r, R_INCOMPLETE);
    if (p->feature.known && !p->feature.value)
        addr_reasons_add(r, R_FEATURE);
    if (p->load_animations.known && !p->load_animations.value)
        addr_reasons_add(r, R_LOAD);
    if (p->pointer_bytes == 0)
        addr_reasons_add(r, R_WIDTH);
}

static size_t target_text(const addr_target *t)
{
    size_t text = 0;
    for (uint32_t s = 0; s < t->segment_count; s++)
        text += t->segments[s].len;
    return t->state == ADDR_AVAILABLE ? text + t->path_bytes + 36 : 0;
}

static int build_targets(const addr_inventory *inv, const addr_raw *raw, anim_arena *arena,
                         addr_budget *budget, addr_projection *out)
{
    uint32_t nodes = raw->node_domain.source_rows;
    uint32_t *slot = malloc((nodes ? nodes : 1) * sizeof *slot);
    if (!slot)
        return -1;
    for (uint32_t i = 0; i < nodes; i++)
        slot[i] = ANIM_NONE;
    /* Unique target nodes, by node index, and their contributions. */
    uint32_t unique = 0, contributions = 0;
    for (uint32_t a = 0; a < inv->animation_count; a++)
        for (uint32_t c = 0; c < inv->animations[a].channel_count; c++) {
            uint32_t node = inv->animations[a].channels[c].node;
            if (node >= nodes)
                continue;
            contributions++;
            if (slot[node] == ANIM_NONE)
                slot[node] = unique++;
        }
    bool truncated = unique > ADDR_V2_MAX_ROWS;
    uint32_t keep = truncated ? ADDR_V2_MAX_ROWS : unique;
    out->targets = anim_arena_calloc(arena, keep ? keep : 1, sizeof *out->targets);
    addr_contrib *pool = anim_arena_calloc(arena, contributions ? contributions : 1, sizeof *pool);
    if (!out->targets || !pool) {
        free(slot);
        return -1;
    }
    /* Renumber by node index so rows come in node order. */
    uint32_t k = 0;
    for (uint32_t i = 0; i < nodes; i++)
        if (slot[i] != ANIM_NONE)
            slot[i] = k < keep ? k++ : ANIM_NONE;
    k = 0;
    for (uint32_t i = 0; i < nodes && k < keep; i++)
        if (slot[i] != ANIM_NONE)
            out->targets[k++].node = i;
    out->target_count = keep;
    /* Contributions, counted then placed, each target's in (animation,
     * channel) order. */
    for (uint32_t a = 0; a < inv->animation_count; a++)
        for (uint32_t c = 0; c < inv->animations[a].channel_count; c++) {
            uint32_t node = inv->animations[a].channels[c].node;
            if (node < nodes && slot[node] != ANIM_NONE)
                out->targets[slot[node]].contrib_count++;
        }
    size_t at = 0;
    for (uint32_t t = 0; t < keep; t++) {
        out->targets[t].contrib = pool + at;
        at += out->targets[t].contrib_count;
        out->targets[t].contrib_count = 0;
    }
    for (uint32_t a = 0; a < inv->animation_count; a++)
        for (uint32_t c = 0; c < inv->animations[a].channel_count; c++) {
            uint32_t node = inv->animations[a].channels[c].node;
            if (node < nodes && slot[node] != ANIM_NONE) {
                addr_target *t = &out->targets[slot[node]];
                t->contrib[t->contrib_count++] =
                    (addr_contrib){inv->animations[a].index, inv->animations[a].channels[c].index};
            }
        }
    free(slot);

    addr_reasons base = {{NULL}, 0};
    base_reasons(inv, raw, out, &base);
    /* Each node's first path candidate, and whether another candidate
     * names a different node sequence. */
    uint32_t *first_path = malloc((nodes ? nodes : 1) * sizeof *first_path);
    bool *multiple_paths = calloc(nodes ? nodes : 1, sizeof *multiple_paths);
    if (!first_path || !multiple_paths) {
        free(first_path);
        free(multiple_paths);
        return -1;
    }
    for (uint32_t i = 0; i < nodes; i++)
        first_path[i] = ANIM_NONE;
    for (uint32_t i = 0; i < raw->path_domain.rows; i++) {
        const addr_path *p = &raw->paths[i];
        if (p->node >= nodes)
            continue;
        if (first_path[p->node] == ANIM_NONE)
            first_path[p->node] = i;
        else if (!same_nodes(&raw->paths[first_path[p->node]], p))
            multiple_paths[p->node] = true;
    }
    bool over_bound = false;
    int rc = 0;
    for (uint32_t t = 0; rc == 0 && t < keep; t++) {
        addr_target *tg = &out->targets[t];
        tg->reasons = base;
        if (truncated) {
            tg->reasons = (addr_reasons){{NULL}, 0};
            addr_reasons_add(&tg->reasons, R_TRUNCATED);
        } else {
            const addr_path *first =
                first_path[tg->node] == ANIM_NONE ? NULL : &raw->paths[first_path[tg->node]];
            bool multiple = multiple_paths[tg->node];
            if (!first && raw->path_domain.state == ADDR_COMPLETE)
                addr_reasons_add(&tg->reasons, R_UNREACHABLE);
            if (multiple)
                addr_reasons_add(&tg->reasons, R_MULTIPLE);
            if (!tg->reasons.count && first) {
                addr_text *seg = name_path(raw, first, arena);
                const char **names = malloc((first->length ? first->length : 1) * sizeof *names);
                size_t *lens = malloc((first->length ? first->length : 1) * sizeof *lens);
                if (!seg || !names || !lens) {
                    free(names);
                    free(lens);
                    rc = -1;
                    break;
                }
                for (uint32_t s = 0; s < first->length; s++) {
                    names[s] = seg[s].s;
                    lens[s] = seg[s].len;
                }
                uint8_t id[16];
                anim_bevy_id_status st =
                    anim_bevy_target_id(names, lens, first->length, out->pointer_bytes, id);
                if (st == ANIM_BEVY_ID_OK) {
                    tg->segments = seg;
                    tg->segment_count = first->length;
                    tg->path_bytes = anim_bevy_path_bytes(lens, first->length);
                    anim_bevy_uuid_text(id, tg->id);
                } else {
                    addr_reasons_add(&tg->reasons, R_BOUNDS);
                    over_bound = true;
                }
                free(names);
                free(lens);
            }
        }
        tg->state = tg->reasons.count ? ADDR_REQUIRED_UNAVAILABLE : ADDR_AVAILABLE;
    }
    free(first_path);
    free(multiple_paths);
    if (rc)
        return -1;
    /* A path past the bounds still takes part in the engine's id space, so
     * no other target can be shown collision-free. */
    for (uint32_t t = 0; over_bound && t < keep; t++)
        if (out->targets[t].state == ADDR_AVAILABLE) {
            out->targets[t].state = ADDR_REQUIRED_UNAVAILABLE;
            out->targets[t].segment_count = 0;
            addr_reasons_add(&out->targets[t].reasons, R_BOUNDS);
        }
    if (!over_bound && !truncated && mark_collisions(out->targets, keep))
        return -1;

    out->target_coverage = ADDR_AVAILABLE;
    out->target_coverage_reason = NULL;
    if (truncated) {
        out->target_coverage = ADDR_REQUIRED_UNAVAILABLE;
        out->target_coverage_reason = R_TRUNCATED;
    } else if (inv->coverage != ADDR_COMPLETE || raw->scene_domain.state != ADDR_COMPLETE ||
               raw->node_domain.state != ADDR_COMPLETE ||
               raw->path_domain.state != ADDR_COMPLETE) {
        out->target_coverage = ADDR_REQUIRED_UNAVAILABLE;
        out->target_coverage_reason = R_INCOMPLETE;
    }

    /* The shared budget: every retained row's contributions and name path.
     * Past it, no path or id is kept, and only the prefix of rows whose
     * contributions fit remains. */
    addr_budget trial = *budget;
    bool fits = true;
    for (uint32_t t = 0; t < keep && fits; t++)
        fits = addr_budget_take(&trial, (size_t)out->targets[t].contrib_count +
                                            out->targets[t].segment_count,
                                target_text(&out->targets[t]));
    if (fits) {
        *budget = trial;
        return 0;
    }
    uint32_t kept = 0;
    for (uint32_t t = 0; t < keep; t++) {
        addr_target *tg = &out->targets[t];
        if (!addr_budget_take(budget, tg->contrib_count, 0))
            break;
        tg->state = ADDR_REQUIRED_UNAVAILABLE;
        tg->segment_count = 0;
        addr_reasons_add(&tg->reasons, R_BOUNDS);
        kept++;
    }
    out->target_count = kept;
    out->target_coverage = ADDR_REQUIRED_UNAVAILABLE;
    out->target_coverage_reason = R_BOUNDS;
    return 0;
}

void addr_bevy_settings_read(const anim_engine_run *engine, addr_bevy_settings *out)
{
    out->feature = setting_of(engine, "bevy_animation_feature");
    out->load_animations = setting_of(engine, "load_animations");
    out->pointer_width = setting_of(engine, "target_pointer_width");
}

int addr_projection_build(const addr_inventory *inv, const addr_raw *raw,
                          const addr_bevy_settings *settings, anim_arena *arena,
                          addr_budget *budget, addr_projection *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    out->feature = settings->feature;
    out->load_animations = settings->load_animations;
    out->pointer_width = settings->pointer_width;
    if (out->pointer_width.known && out->pointer_width.text)
        out->pointer_bytes = strcmp(out->pointer_width.text, "bits32") == 0   ? 4
                             : strcmp(out->pointer_width.text, "bits64") == 0 ? 8
                                                                              : 0;
    if (build_labels(raw, arena, out) || build_maps(inv, raw, out, arena, budget, out) ||
        build_targets(inv, raw, arena, budget, out))
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", inv->path);
    return 0;
}

bool addr_projection_blocking(const addr_projection *p)
{
    bool blocking = p->label_coverage == ADDR_REQUIRED_UNAVAILABLE ||
                    p->scene_map.state == ADDR_REQUIRED_UNAVAILABLE ||
                    p->animation_map.state == ADDR_REQUIRED_UNAVAILABLE ||
                    p->skin_map.state == ADDR_REQUIRED_UNAVAILABLE ||
                    p->target_coverage == ADDR_REQUIRED_UNAVAILABLE;
    for (uint32_t i = 0; i < p->skin_count; i++)
        blocking = blocking || p->skins[i].skin_state == ADDR_REQUIRED_UNAVAILABLE;
    for (uint32_t i = 0; i < p->target_count; i++)
        blocking = blocking || p->targets[i].state == ADDR_REQUIRED_UNAVAILABLE;
    return blocking;
}
