/* The animation stage's track builder: which tracks a clip has, their key
 * times (each curve node's own, inside the stack's span, plus the Euler
 * samples of fbx_anim_sample.c), the world matrices of every node at every
 * distinct time (within the grid budget), and each track's values from
 * them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "io/fbx/fbx_curve.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static uint32_t sort_unique(int64_t *t, uint32_t n)
{
    if (n == 0)
        return 0;
    qsort(t, n, sizeof *t, cmp_i64);
    uint32_t m = 1;
    for (uint32_t i = 1; i < n; i++)
        if (t[i] != t[m - 1])
            t[m++] = t[i];
    return m;
}

/* The curves that feed one track: its own three, a pivoted node's R and
 * S, a compensating child's parent S (nine at most), or every animated
 * target of a mesh (heap). */
#define MAX_SOURCES 9

typedef struct {
    const anim_fbx_curve *buf[MAX_SOURCES];
    const anim_fbx_curve **c;
    uint32_t n, cap;
} sources;

static void sources_init(sources *s)
{
    s->c = s->buf;
    s->n = 0;
    s->cap = MAX_SOURCES;
}

static void add_curve(sources *s, const anim_fbx_curve *c)
{
    if (c && s->n < s->cap)
        s->c[s->n++] = c;
}

static void add_prop(sources *s, const anim_fbx_anim_prop *p)
{
    for (int a = 0; p && a < 3; a++)
        add_curve(s, p->curves[a]);
}

/* The sources' key times inside [start, stop], with start (stop) added
 * when some key lies before (after) the span; malloc'd, may be empty. */
static int64_t *span_times(const sources *s, int64_t start, int64_t stop, uint32_t *count)
{
    uint64_t total = 2;
    for (uint32_t i = 0; i < s->n; i++)
        total += s->c[i]->key_count;
    *count = 0;
    if (total > UINT32_MAX)
        return NULL;
    int64_t *t = malloc((size_t)total * sizeof *t);
    if (!t)
        return NULL;
    uint32_t n = 0;
    bool before = false, after = false;
    for (uint32_t i = 0; i < s->n; i++)
        for (uint32_t k = 0; k < s->c[i]->key_count; k++) {
            int64_t kt = s->c[i]->keys[k].time;
            if (kt < start)
                before = true;
            else if (kt > stop)
                after = true;
            else
                t[n++] = kt;
        }
    if (before)
        t[n++] = start;
    if (after)
        t[n++] = stop;
    *count = sort_unique(t, n);
    return t;
}

static bool all_stepped(const sources *s)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (!anim_fbx_curve_is_stepped(s->c[i]))
            return false;
    return true;
}

typedef struct {
    uint32_t node;
    anim_path path;
    uint32_t mesh;            /* WEIGHTS: the mesh, and its props in wprops */
    uint32_t wfirst, wcount;
    int64_t *times;           /* malloc'd ticks */
    uint32_t count;
    bool stepped;
} plan;

static int cmp_plan(const void *a, const void *b)
{
    const plan *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    if (x->path != y->path)
        return x->path < y->path ? -1 : 1;
    return (x->mesh > y->mesh) - (x->mesh < y->mesh);
}

typedef struct {
    anim_fbx_scene *scene;
    const anim_fbx_clip_src *src;
    int64_t start, stop;
    const anim_fbx_anim_prop **by_node; /* node_count * 3: T, R, S */
    plan *plans;
    uint32_t plan_count;
    const anim_fbx_anim_prop **wprops;  /* WEIGHTS props by mesh, target */
    uint32_t wprop_count;
    int64_t *grid;                      /* the clip's union of times */
    uint32_t grid_count;
    double *worlds;                     /* grid_count * node_count * 16 */
    anim_fbx_channels *channels;
    size_t max_samples;                 /* what the grid budget leaves */
} builder;

static int cmp_wprop(const void *a, const void *b)
{
    const anim_fbx_anim_prop *x = *(const anim_fbx_anim_prop *const *)a;
    const anim_fbx_anim_prop *y = *(const anim_fbx_anim_prop *const *)b;
    if (x->mesh != y->mesh)
        return x->mesh < y->mesh ? -1 : 1;
    return (x->target > y->target) - (x->target < y->target);
}

static bool has_pivots(const anim_fbx_xform *x)
{
    for (int i = 0; i < 3; i++)
        if (x->rotation_offset[i] != 0.0 || x->rotation_pivot[i] != 0.0 ||
            x->scaling_offset[i] != 0.0 || x->scaling_pivot[i] != 0.0)
            return true;
    return false;
}

static int over_budget(builder *b, anim_error *err, size_t times)
{
    char what[512];
    snprintf(what, sizeof what, "clip '%s': %zu sample time(s) x %u node(s)", b->src->name, times,
             b->scene->node_count);
    return anim_limit_error(err, &b->scene->limits, ANIM_LIMIT_GRID, what);
}

static int add_plan(builder *b, uint32_t node, anim_path path, uint32_t mesh, const sources *s,
                    const anim_fbx_anim_prop *euler, anim_error *err)
{
    uint32_t count;
    int64_t *t = span_times(s, b->start, b->stop, &count);
    if (!t)
        return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", b->src->name);
    if (count == 0) {
        free(t);
        return 0;
    }
    if (euler) {
        bool over;
        uint32_t n2;
        int64_t *t2 = anim_fbx_euler_samples(euler, b->scene->nodes[node].xform.rotation_order, t,
                                             count, b->scene->frame_rate, b->max_samples, &n2, &over);
        free(t);
        if (!t2)
            return over ? over_budget(b, err, b->max_samples)
                        : anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", b->src->name);
        t = t2;
        count = n2;
    }
    plan *p = &b->plans[b->plan_count++];
    *p = (plan){.node = node, .path = path, .mesh = mesh, .times = t, .count = count,
                .stepped = all_stepped(s)};
    return 0;
}

/* Which tracks the clip has and their key times. */
static int plan_tracks(builder *b, anim_error *err)
{
    anim_fbx_scene *scene = b->scene;
    const anim_fbx_clip_src *src = b->src;
    for (uint32_t i = 0; i < src->prop_count; i++) {
        const anim_fbx_anim_prop *p = &src->props[i];
        if (p->path != ANIM_PATH_WEIGHTS && p->node < scene->node_count && !b->by_node[p->node * 3u + p->path])
            b->by_node[p->node * 3u + p->path] = p;
    }
    for (uint32_t n = 1; n < scene->node_count; n++) {
        const anim_fbx_anim_prop **own = &b->by_node[n * 3u];
        uint32_t parent = scene->nodes[n].parent;
        /* Without inherited parent scale (RSrs, Rrs) a child's glTF local
         * compensates its parent's scale, so it moves when that does. */
        const anim_fbx_anim_prop *ps = (parent != ANIM_NONE && parent < scene->node_count &&
                                        scene->nodes[n].xform.inherit_type != 0)
                                           ? b->by_node[parent * 3u + ANIM_PATH_SCALE]
                                           : NULL;
        bool pivots = has_pivots(&scene->nodes[n].xform);
        for (int path = 0; path < 3; path++) {
            sources s;
            sources_init(&s);
            add_prop(&s, own[path]);
            if (path == ANIM_PATH_TRANSLATION && pivots) {
                add_prop(&s, own[ANIM_PATH_ROTATION]);
                add_prop(&s, own[ANIM_PATH_SCALE]);
            }
            add_prop(&s, ps);
            if (!own[path] && s.n == 0)
                continue;
            if (add_plan(b, n, (anim_path)path, ANIM_NONE, &s,
                         path == ANIM_PATH_ROTATION ? own[path] : NULL, err) != 0)
                return -1;
        }
    }
    /* Morph weights: one track per mesh over all its animated targets. */
    for (uint32_t i = 0; i < src->prop_count; i++)
        if (src->props[i].path == ANIM_PATH_WEIGHTS && src->props[i].mesh < scene->mesh_count)
            b->wprops[b->wprop_count++] = &src->props[i];
    qsort(b->wprops, b->wprop_count, sizeof *b->wprops, cmp_wprop);
    for (uint32_t i = 0; i < b->wprop_count;) {
        uint32_t j = i;
        while (j < b->wprop_count && b->wprops[j]->mesh == b->wprops[i]->mesh)
            j++;
        sources s;
        sources_init(&s);
        if (j - i > MAX_SOURCES) {
            s.c = malloc((size_t)(j - i) * sizeof *s.c);
            if (!s.c)
                return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", src->name);
            s.cap = j - i;
        }
        for (uint32_t k = i; k < j; k++)
            add_curve(&s, b->wprops[k]->curves[0]);
        uint32_t before = b->plan_count;
        int rc = add_plan(b, scene->meshes[b->wprops[i]->mesh].node, ANIM_PATH_WEIGHTS,
                          b->wprops[i]->mesh, &s, NULL, err);
        if (s.c != s.buf)
            free(s.c);
        if (rc != 0)
            return -1;
        if (b->plan_count > before) {
            b->plans[before].wfirst = i;
            b->plans[before].wcount = j - i;
        }
        i = j;
    }
    qsort(b->plans, b->plan_count, sizeof *b->plans, cmp_plan);
    return 0;
}

static void apply_props(const anim_fbx_clip_src *src, uint32_t node_count, int64_t t,
                        anim_fbx_channels *ch)
{
    for (uint32_t i = 0; i < src->prop_count; i++) {
        const anim_fbx_anim_prop *p = &src->props[i];
        if (p->path == ANIM_PATH_WEIGHTS || p->node >= node_count)
            continue;
        double *dst = p->path == ANIM_PATH_TRANSLATION ? ch[p->node].t
                      : p->path == ANIM_PATH_ROTATION  ? ch[p->node].r
                                                       : ch[p->node].s;
        for (int a = 0; a < 3; a++)
            dst[a] = p->curves[a] ? anim_fbx_curve_eval(p->curves[a], t) : p->statics[a];
    }
}

/* World matrices of every node at every distinct time of the clip's node
 * tracks, within the grid budget. */
static int eval_grid(builder *b, anim_error *err)
{
    anim_fbx_scene *scene = b->scene;
    uint64_t total = 0;
    for (uint32_t i = 0; i < b->plan_count; i++)
        if (b->plans[i].path != ANIM_PATH_WEIGHTS)
            total += b->plans[i].count;
    size_t per_time = (size_t)scene->node_count * 16u * sizeof(double), bytes;
    if (total > SIZE_MAX || !anim_size_mul((size_t)total, per_time, &bytes))
        return over_budget(b, err, (size_t)total);
    b->grid = malloc(total ? (size_t)total * sizeof *b->grid : 1);
    if (!b->grid)
        return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", b->src->name);
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->plan_count; i++)
        if (b->plans[i].path != ANIM_PATH_WEIGHTS) {
            memcpy(b->grid + n, b->plans[i].times, (size_t)b->plans[i].count * sizeof *b->grid);
            n += b->plans[i].count;
        }
    b->grid_count = sort_unique(b->grid, n);
    if (!anim_size_mul(b->grid_count, per_time, &bytes) ||
        bytes > anim_limits_get(&scene->limits, ANIM_LIMIT_GRID))
        return over_budget(b, err, b->grid_count);
    b->worlds = malloc(bytes ? bytes : 1);
    b->channels = malloc((size_t)scene->node_count * sizeof *b->channels);
    if (!b->worlds || !b->channels)
        return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", b->src->name);
    for (uint32_t g = 0; g < b->grid_count; g++) {
        anim_fbx_rest_channels(scene, b->channels);
        apply_props(b->src, scene->node_count, b->grid[g], b->channels);
        anim_fbx_eval_worlds(scene, b->channels,
                             (double (*)[16])(b->worlds + (size_t)g * scene->node_count * 16u));
    }
    return 0;
}

static uint32_t grid_index(const builder *b, int64_t t)
{
    uint32_t lo = 0, hi = b->grid_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (b->grid[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int fill_track(builder *b, const plan *p, anim_fbx_track *tr, anim_error *err)
{
    anim_fbx_scene *scene = b->scene;
    uint32_t comps = 3;
    if (p->path == ANIM_PATH_ROTATION)
        comps = 4;
    else if (p->path == ANIM_PATH_WEIGHTS)
        comps = scene->meshes[p->mesh].target_count;
    size_t nvals;
    if (!anim_size_mul(p->count, comps, &nvals))
        return over_budget(b, err, p->count);
    tr->node = p->node;
    tr->path = p->path;
    tr->interp = p->stepped ? ANIM_INTERP_STEP : ANIM_INTERP_LINEAR;
    tr->key_count = p->count;
    tr->components = comps;
    tr->times = anim_arena_alloc(scene->arena, (size_t)p->count * sizeof *tr->times);
    tr->values = anim_arena_calloc(scene->arena, nvals ? nvals : 1, sizeof *tr->values);
    if (!tr->times || !tr->values)
        return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", b->src->name);
    for (uint32_t k = 0; k < p->count; k++) {
        int64_t t = p->times[k];
        double *v = tr->values + (size_t)k * comps;
        tr->times[k] = (double)t / (double)ANIM_FBX_KTIME_PER_SECOND;
        if (p->path == ANIM_PATH_WEIGHTS) {
            const anim_fbx_mesh *mesh = &scene->meshes[p->mesh];
            for (uint32_t c = 0; c < comps; c++)
                v[c] = mesh->targets[c].default_weight;
            for (uint32_t w = 0; w < p->wcount; w++) {
                const anim_fbx_anim_prop *wp = b->wprops[p->wfirst + w];
                if (wp->target < comps)
                    v[wp->target] = (wp->curves[0] ? anim_fbx_curve_eval(wp->curves[0], t)
                                                   : wp->statics[0]) / 100.0;
            }
            continue;
        }
        uint32_t g = grid_index(b, t);
        double lt[3], lr[4], ls[3];
        anim_fbx_local_trs(scene, (const double (*)[16])(b->worlds + (size_t)g * scene->node_count * 16u),
                           p->node, lt, lr, ls);
        memcpy(v, p->path == ANIM_PATH_TRANSLATION ? lt : p->path == ANIM_PATH_ROTATION ? lr : ls,
               comps * sizeof *v);
    }
    if (p->path == ANIM_PATH_ROTATION)
        anim_fbx_quat_continuity(tr->values, tr->key_count);
    return 0;
}

/* The span a stack without one covers: its keys'; false when it has no
 * key at all (the span is then 0..0 and means nothing). */
static bool keys_span(const anim_fbx_clip_src *src, int64_t *start, int64_t *stop)
{
    bool any = false;
    for (uint32_t i = 0; i < src->prop_count; i++)
        for (int a = 0; a < 3; a++) {
            const anim_fbx_curve *c = src->props[i].curves[a];
            if (!c || c->key_count == 0)
                continue;
            int64_t t0 = c->keys[0].time, t1 = c->keys[c->key_count - 1].time;
            *start = any && *start < t0 ? *start : t0;
            *stop = any && *stop > t1 ? *stop : t1;
            any = true;
        }
    if (!any)
        *start = *stop = 0;
    return any;
}

/* Appends to scene->clips, whose capacity is the next power of two of
 * its count: growth doubles, so many stacks cost linear copying. */
static int append_clip(anim_fbx_scene *scene, const anim_fbx_clip *clip, anim_error *err)
{
    uint32_t n = scene->clip_count;
    if ((n & (n - 1u)) == 0) { /* 0, 1, 2, 4, ...: full */
        uint32_t cap = n ? n * 2u : 1u;
        anim_fbx_clip *c = cap > n ? anim_arena_alloc(scene->arena, (size_t)cap * sizeof *c) : NULL;
        if (!c)
            return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", clip->name);
        if (n)
            memcpy(c, scene->clips, (size_t)n * sizeof *c);
        scene->clips = c;
    }
    scene->clips[n] = *clip;
    scene->clip_count = n + 1u;
    return 0;
}

static int build(builder *b, anim_fbx_clip *clip, anim_error *err)
{
    anim_fbx_scene *scene = b->scene;
    const anim_fbx_clip_src *src = b->src;
    size_t per_time = (size_t)(scene->node_count ? scene->node_count : 1) * 16u * sizeof(double);
    b->max_samples = anim_limits_get(&scene->limits, ANIM_LIMIT_GRID) / per_time;
    b->by_node = calloc((size_t)scene->node_count * 3u + 1u, sizeof *b->by_node);
    b->plans = calloc((size_t)scene->node_count * 3u + scene->mesh_count + 1u, sizeof *b->plans);
    b->wprops = calloc((size_t)src->prop_count + 1u, sizeof *b->wprops);
    if (!b->by_node || !b->plans || !b->wprops)
        return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", src->name);
    if (plan_tracks(b, err) != 0 || eval_grid(b, err) != 0)
        return -1;
    if (b->plan_count) {
        clip->tracks = anim_arena_calloc(scene->arena, b->plan_count, sizeof *clip->tracks);
        if (!clip->tracks)
            return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", src->name);
    }
    for (uint32_t i = 0; i < b->plan_count; i++)
        if (fill_track(b, &b->plans[i], &clip->tracks[i], err) != 0)
            return -1;
    clip->track_count = b->plan_count;
    return 0;
}

int anim_fbx_clip_build(anim_fbx_scene *scene, const anim_fbx_clip_src *src, anim_error *err)
{
    builder b = {.scene = scene, .src = src};
    anim_fbx_clip clip = {.name = src->name ? src->name : ""};
    if (src->has_span) {
        b.start = src->start;
        b.stop = src->stop;
        clip.span_source = ANIM_FBX_SPAN_STACK;
    } else {
        clip.span_source = keys_span(src, &b.start, &b.stop) ? ANIM_FBX_SPAN_KEYS
                                                             : ANIM_FBX_SPAN_NONE;
    }
    if (b.stop < b.start)
        return anim_error_set(err, ANIM_ERR_INVALID, "clip '%s': stop %lld before start %lld",
                              clip.name, (long long)b.stop, (long long)b.start);
    clip.start_ktime = b.start;
    clip.stop_ktime = b.stop;
    clip.start_s = (double)b.start / (double)ANIM_FBX_KTIME_PER_SECOND;
    clip.stop_s = (double)b.stop / (double)ANIM_FBX_KTIME_PER_SECOND;
    clip.frame_rate = scene->frame_rate;
    clip.curve_count = src->curve_count;
    clip.ignored_layers = src->ignored_layers;
    clip.ignored_layer_count = src->ignored_layer_count;
    int rc = build(&b, &clip, err);
    for (uint32_t i = 0; b.plans && i < b.plan_count; i++)
        free(b.plans[i].times);
    free(b.plans);
    free(b.by_node);
    free(b.wprops);
    free(b.grid);
    free(b.worlds);
    free(b.channels);
    if (rc != 0)
        return -1;
    return append_clip(scene, &clip, err);
}
