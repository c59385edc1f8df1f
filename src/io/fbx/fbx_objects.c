/* The object table over the node tree: every object of Objects with its
 * id, class, subclass and name, the connections between them and the
 * Definitions template of each. FBX 6.x objects carry no ids: they get
 * their 1-based index and their connections are resolved by name ("Model::
 * joint1" in ASCII, "joint1\0\1Model" in binary, both the same key here),
 * so the layers above see one shape. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/fbx/fbx_objects.h"

/* An object name split into its display part and its class part. */
typedef struct {
    const char *name; /* NUL-terminated display name */
    const char *cls;  /* NUL-terminated class part ("" if none) */
    size_t name_len, cls_len;
} split_name;

/* Binary names are "Hips\0\1Model"; ASCII ones "Model::Hips" (only ASCII
 * files use the "::" form, so a binary name containing "::" is kept). */
static split_name split(const anim_fbx_prop *p, bool ascii)
{
    split_name s = {p->bytes, "", p->len, 0};
    for (size_t i = 0; i + 1 < p->len; i++)
        if (p->bytes[i] == '\0' && p->bytes[i + 1] == '\1') {
            s.name_len = i;
            s.cls = p->bytes + i + 2;
            s.cls_len = p->len - i - 2;
            return s;
        }
    if (ascii) {
        const char *c = strstr(p->bytes, "::");
        if (c) {
            s.cls = p->bytes; /* not NUL-terminated: compared by length only */
            s.cls_len = (size_t)(c - p->bytes);
            s.name = c + 2;
            s.name_len = p->len - s.cls_len - 2;
        }
    }
    return s;
}

static int cmp_len(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

static int cmp_split(const split_name *a, const split_name *b)
{
    int c = cmp_len(a->name, a->name_len, b->name, b->name_len);
    return c ? c : cmp_len(a->cls, a->cls_len, b->cls, b->cls_len);
}

typedef struct {
    anim_fbx_objects *objs;
    split_name *keys; /* each object's name key (6.x) */
    uint32_t *order;  /* object indices sorted by key (6.x) */
} build_ctx;

typedef int (*index_cmp)(const void *ctx, uint32_t a, uint32_t b);

/* Bottom-up merge sort of indices with a context (qsort has none, and a
 * file-static context would not survive loads on several threads). */
static bool sort_indices(uint32_t *v, uint32_t n, index_cmp cmp, const void *ctx)
{
    uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return false;
    uint32_t *from = v, *to = tmp;
    for (uint64_t width = 1; width < n; width *= 2) {
        for (uint64_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = (uint32_t)(lo + width < n ? lo + width : n);
            uint32_t hi = (uint32_t)(lo + 2 * width < n ? lo + 2 * width : n);
            uint32_t i = (uint32_t)lo, j = mid, k = (uint32_t)lo;
            /* Stable: the left run wins ties. */
            while (i < mid && j < hi)
                to[k++] = cmp(ctx, from[j], from[i]) < 0 ? from[j++] : from[i++];
            while (i < mid)
                to[k++] = from[i++];
            while (j < hi)
                to[k++] = from[j++];
        }
        uint32_t *t = from;
        from = to;
        to = t;
    }
    if (from != v)
        memcpy(v, from, n * sizeof *v);
    free(tmp);
    return true;
}

static int cmp_by_id(const void *ctx, uint32_t x, uint32_t y)
{
    const anim_fbx_object *o = ctx;
    return o[x].id < o[y].id ? -1 : o[x].id > o[y].id;
}

static int cmp_by_key(const void *ctx, uint32_t x, uint32_t y)
{
    const split_name *k = ctx;
    return cmp_split(&k[x], &k[y]);
}

const char *anim_fbx_object_label(const anim_fbx_object *o, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s '", o->cls);
    size_t at = n < 0 || cap == 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
    /* The name is the file's: control bytes would break the one-line
     * message, so they show as '?' (UTF-8 passes through). */
    for (const char *c = o->name; *c && at + 1 < cap; c++)
        buf[at++] = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
    if (cap > 0) {
        buf[at] = '\0';
        snprintf(buf + at, cap - at, "' (id %" PRId64 ")", o->id);
    }
    return buf;
}

uint32_t anim_fbx_object_by_id(const anim_fbx_objects *objs, int64_t id)
{
    if (!objs->by_id) {
        /* A table assembled by hand (tests) has no index: scan it. */
        for (uint32_t i = 0; i < objs->object_count; i++)
            if (objs->objects[i].id == id)
                return i;
        return ANIM_FBX_SCENE_ROOT;
    }
    uint32_t lo = 0, hi = objs->object_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int64_t v = objs->objects[objs->by_id[mid]].id;
        if (v < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < objs->object_count && objs->objects[objs->by_id[lo]].id == id)
        return objs->by_id[lo];
    return ANIM_FBX_SCENE_ROOT;
}

/* 6.x: the object whose name key is k; *found false when none. */
static uint32_t object_by_key(const build_ctx *c, const split_name *k, bool *found)
{
    uint32_t lo = 0, hi = c->objs->object_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cmp_split(&c->keys[c->order[mid]], k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < c->objs->object_count && cmp_split(&c->keys[c->order[lo]], k) == 0;
    return *found ? c->order[lo] : ANIM_FBX_SCENE_ROOT;
}

static bool is_str(const anim_fbx_prop *p)
{
    return p->type == ANIM_FBX_STRING;
}

static bool is_num(const anim_fbx_prop *p)
{
    return p->type == ANIM_FBX_I64 || p->type == ANIM_FBX_I32;
}

/* Whether record r of Objects is an object of this file's kind. */
static bool is_object(const anim_fbx_node *r, bool legacy)
{
    if (legacy)
        return r->prop_count >= 1 && is_str(&r->props[0]);
    return r->prop_count >= 2 && is_num(&r->props[0]) && is_str(&r->props[1]);
}

/* Which PropertyTemplate of the class's ObjectType applies. One class
 * can hold several SDK classes: a Material's ShadingModel picks among
 * FbxSurfaceLambert / FbxSurfacePhong (the first when none fits: Phong
 * extends Lambert, so either gives the shared defaults); a NodeAttribute's
 * subclass picks FbxSkeleton / FbxNull / FbxCamera / FbxLight, and none
 * applies when the file has only another's (a LimbNode attribute takes
 * nothing from an FbxNull template). Every other class takes its first. */
typedef struct {
    const char *hint; /* template name suffix wanted, NULL: none */
    bool strict;      /* no fallback to the first template */
} template_want;

static template_want template_hint(const anim_fbx_object *o)
{
    static const char *const attrs[][2] = {
        {"LimbNode", "Skeleton"}, {"Limb", "Skeleton"}, {"Root", "Skeleton"},
        {"Null", "Null"},         {"Camera", "Camera"}, {"Light", "Light"},
    };
    template_want w = {NULL, false};
    if (strcmp(o->cls, "Material") == 0) {
        const anim_fbx_node *sm = anim_fbx_child(o->node, "ShadingModel");
        if (sm && sm->prop_count > 0 && is_str(&sm->props[0]))
            w.hint = sm->props[0].bytes;
    } else if (strcmp(o->cls, "NodeAttribute") == 0) {
        w.strict = true;
        for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
            if (strcmp(o->subclass, attrs[i][0]) == 0)
                w.hint = attrs[i][1];
        if (!w.hint)
            w.hint = o->subclass;
    }
    return w;
}

static bool ends_with_ci(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return k > 0 && k <= n && strncasecmp(s + n - k, suffix, k) == 0;
}

static const anim_fbx_node *find_template(const anim_fbx_node *defs, const anim_fbx_object *o)
{
    if (!defs)
        return NULL;
    for (uint32_t i = 0; i < defs->child_count; i++) {
        const anim_fbx_node *t = &defs->children[i];
        if (strcmp(t->name, "ObjectType") != 0 || t->prop_count < 1 || !is_str(&t->props[0]) ||
            strcmp(t->props[0].bytes, o->cls) != 0)
            continue;
        const anim_fbx_node *first = NULL, *best = NULL;
        template_want want = template_hint(o);
        for (uint32_t j = 0; j < t->child_count; j++) {
            const anim_fbx_node *pt = &t->children[j];
            if (strcmp(pt->name, "PropertyTemplate") != 0)
                continue;
            const anim_fbx_node *props = anim_fbx_child(pt, "Properties70");
            if (!props)
                props = anim_fbx_child(pt, "Properties60");
            if (!props)
                continue;
            if (!first)
                first = props;
            if (!best && want.hint && pt->prop_count > 0 && is_str(&pt->props[0]) &&
                ends_with_ci(pt->props[0].bytes, pt->props[0].len, want.hint))
                best = props;
        }
        return best ? best : want.strict ? NULL : first;
    }
    return NULL;
}

/* Fills objs->objects from Objects. */
static int collect_objects(const anim_fbx_tree *tree, anim_arena *arena, anim_fbx_objects *objs,
                           build_ctx *c, bool legacy, anim_error *err)
{
    const anim_fbx_node *list = anim_fbx_child(&tree->root, "Objects");
    const anim_fbx_node *defs = anim_fbx_child(&tree->root, "Definitions");
    uint32_t n = 0;
    for (uint32_t i = 0; list && i < list->child_count; i++)
        n += is_object(&list->children[i], legacy);
    objs->objects = anim_arena_calloc(arena, n ? n : 1, sizeof *objs->objects);
    objs->by_id = anim_arena_calloc(arena, n ? n : 1, sizeof *objs->by_id);
    c->keys = calloc(n ? n : 1, sizeof *c->keys);
    if (!objs->objects || !objs->by_id || !c->keys)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory building the object table");
    for (uint32_t i = 0; list && i < list->child_count; i++) {
        const anim_fbx_node *r = &list->children[i];
        if (!is_object(r, legacy))
            continue;
        uint32_t k = objs->object_count++;
        anim_fbx_object *o = &objs->objects[k];
        uint32_t name_at = legacy ? 0 : 1;
        o->id = legacy ? (int64_t)k + 1 : r->props[0].scalar.i;
        c->keys[k] = split(&r->props[name_at], tree->ascii);
        const split_name *sn = &c->keys[k];
        /* The display name must be NUL-terminated where it ends: true for
         * the binary form (the \0 of \0\1) and the ASCII one (it runs to
         * the end); a name without a class part is the whole string. */
        o->name = sn->name;
        o->cls = r->name;
        o->subclass = r->prop_count > name_at + 1 && is_str(&r->props[name_at + 1])
                          ? r->props[name_at + 1].bytes
                          : "";
        o->node = r;
        o->props = anim_fbx_child(r, "Properties70");
        if (!o->props)
            o->props = anim_fbx_child(r, "Properties60");
        o->templ = find_template(defs, o);
        objs->by_id[k] = k;
    }
    return 0;
}

static int check_ids(anim_fbx_objects *objs, anim_error *err)
{
    if (!sort_indices(objs->by_id, objs->object_count, cmp_by_id, objs->objects))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory building the object table");
    for (uint32_t i = 1; i < objs->object_count; i++) {
        const anim_fbx_object *a = &objs->objects[objs->by_id[i - 1]];
        const anim_fbx_object *b = &objs->objects[objs->by_id[i]];
        if (a->id == b->id) {
            char la[160], lb[160];
            return anim_error_set(err, ANIM_ERR_INVALID, "%s and %s share one id",
                                  anim_fbx_object_label(a, la, sizeof la),
                                  anim_fbx_object_label(b, lb, sizeof lb));
        }
    }
    return 0;
}

/* Resolves the endpoint prop of a connection record: 7.x ids (0 is the
 * scene root), 6.x names ("Model::Scene" is the root). Returns false when
 * it names no object. */
static bool resolve(const build_ctx *c, const anim_fbx_prop *p, bool legacy, bool ascii,
                    uint32_t *out)
{
    if (!legacy) {
        if (p->scalar.i == 0) {
            *out = ANIM_FBX_SCENE_ROOT;
            return true;
        }
        *out = anim_fbx_object_by_id(c->objs, p->scalar.i);
        return *out != ANIM_FBX_SCENE_ROOT;
    }
    split_name k = split(p, ascii);
    bool found;
    *out = object_by_key(c, &k, &found);
    if (found)
        return true;
    static const split_name root = {"Scene", "Model", 5, 5};
    if (cmp_split(&k, &root) == 0) {
        *out = ANIM_FBX_SCENE_ROOT;
        return true;
    }
    return false;
}

static int collect_conns(const anim_fbx_tree *tree, anim_arena *arena, build_ctx *c, bool legacy,
                         uint32_t *dangling, anim_error *err)
{
    anim_fbx_objects *objs = c->objs;
    const anim_fbx_node *list = anim_fbx_child(&tree->root, "Connections");
    const char *rec = legacy ? "Connect" : "C";
    uint32_t n = anim_fbx_child_count_named(list, rec);
    objs->conns = anim_arena_calloc(arena, n ? n : 1, sizeof *objs->conns);
    if (!objs->conns)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory building the connections");
    for (uint32_t i = 0; list && i < list->child_count; i++) {
        const anim_fbx_node *r = &list->children[i];
        if (strcmp(r->name, rec) != 0)
            continue;
        char w[160];
        if (r->prop_count < 3 || !is_str(&r->props[0]))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: a connection needs a kind and "
                                  "two endpoints",
                                  anim_fbx_node_where(tree, r, w, sizeof w));
        const char *kind = r->props[0].bytes;
        bool op = strcmp(kind, "OP") == 0;
        if (!op && strcmp(kind, "OO") != 0)
            continue; /* property-to-object/property links drive nothing we read */
        for (uint32_t j = 1; j < 3; j++)
            if (legacy ? !is_str(&r->props[j]) : !is_num(&r->props[j]))
                return anim_error_set(
                    err, ANIM_ERR_INVALID, "%s property %" PRIu32 ": expected an object %s",
                    anim_fbx_node_where(tree, r, w, sizeof w), j, legacy ? "name" : "id");
        if (op && (r->prop_count < 4 || !is_str(&r->props[3])))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: an OP connection needs a property name",
                                  anim_fbx_node_where(tree, r, w, sizeof w));
        uint32_t src, dst;
        if (!resolve(c, &r->props[1], legacy, tree->ascii, &src) || src == ANIM_FBX_SCENE_ROOT ||
            !resolve(c, &r->props[2], legacy, tree->ascii, &dst)) {
            if (dangling)
                (*dangling)++;
            continue;
        }
        anim_fbx_conn *cn = &objs->conns[objs->conn_count++];
        cn->src = src;
        cn->dst = dst;
        cn->property = op ? r->props[3].bytes : NULL;
        objs->objects[src].src_conn_count++;
        if (dst != ANIM_FBX_SCENE_ROOT)
            objs->objects[dst].dst_conn_count++;
    }
    /* Per-object lists in file order, two arena blocks for all of them. */
    uint32_t *srcs =
        anim_arena_calloc(arena, objs->conn_count ? objs->conn_count : 1, sizeof *srcs);
    uint32_t *dsts =
        anim_arena_calloc(arena, objs->conn_count ? objs->conn_count : 1, sizeof *dsts);
    if (!srcs || !dsts)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory building the connections");
    for (uint32_t k = 0; k < objs->object_count; k++) {
        anim_fbx_object *o = &objs->objects[k];
        o->src_conns = srcs;
        srcs += o->src_conn_count;
        o->dst_conns = dsts;
        dsts += o->dst_conn_count;
        o->src_conn_count = 0;
        o->dst_conn_count = 0;
    }
    for (uint32_t i = 0; i < objs->conn_count; i++) {
        anim_fbx_object *s = &objs->objects[objs->conns[i].src];
        s->src_conns[s->src_conn_count++] = i;
        if (objs->conns[i].dst != ANIM_FBX_SCENE_ROOT) {
            anim_fbx_object *d = &objs->objects[objs->conns[i].dst];
            d->dst_conns[d->dst_conn_count++] = i;
        }
    }
    return 0;
}

/* GlobalSettings' property record: top level (7.x, and some 6.1 writers)
 * or inside Objects (6.1 as the SDK writes it). */
static const anim_fbx_node *global_settings(const anim_fbx_tree *tree)
{
    const anim_fbx_node *gs = anim_fbx_child(&tree->root, "GlobalSettings");
    if (!gs)
        gs = anim_fbx_child(anim_fbx_child(&tree->root, "Objects"), "GlobalSettings");
    const anim_fbx_node *p = anim_fbx_child(gs, "Properties70");
    return p ? p : anim_fbx_child(gs, "Properties60");
}

int anim_fbx_objects_build(const anim_fbx_tree *tree, anim_arena *arena, anim_fbx_objects *out,
                           uint32_t *dangling, anim_error *err)
{
    memset(out, 0, sizeof *out);
    out->tree = tree;
    if (dangling)
        *dangling = 0;
    /* 6.x files name objects and connect them by name; 7.x use ids. */
    bool legacy = tree->version < 7000;
    build_ctx c = {out, NULL, NULL};
    int rc = collect_objects(tree, arena, out, &c, legacy, err);
    if (rc == 0 && !legacy)
        rc = check_ids(out, err);
    if (rc == 0 && legacy) {
        c.order = malloc((out->object_count ? out->object_count : 1) * sizeof *c.order);
        if (!c.order) {
            rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory building the object table");
        } else {
            for (uint32_t i = 0; i < out->object_count; i++)
                c.order[i] = i;
            if (!sort_indices(c.order, out->object_count, cmp_by_key, c.keys))
                rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory building the object table");
        }
    }
    if (rc == 0)
        rc = collect_conns(tree, arena, &c, legacy, dangling, err);
    free(c.keys);
    free(c.order);
    if (rc == 0) {
        out->global_settings = global_settings(tree);
        /* 7.x files carry a Takes record too, but only as names: their
         * animation lives in AnimationStacks. */
        out->takes = legacy ? anim_fbx_child(&tree->root, "Takes") : NULL;
    }
    return rc;
}

/* Shared walk of the two iteration helpers. */
/* The next match at or after *cursor in list; *cursor moves past it. */
static uint32_t walk_from(const anim_fbx_objects *objs, const uint32_t *list, uint32_t n,
                          bool to_src, const char *cls, uint32_t *cursor, const char **prop_out)
{
    for (uint32_t k = *cursor; k < n; k++) {
        const anim_fbx_conn *cn = &objs->conns[list[k]];
        uint32_t other = to_src ? cn->src : cn->dst;
        if (other == ANIM_FBX_SCENE_ROOT)
            continue;
        if (cls && strcmp(objs->objects[other].cls, cls) != 0)
            continue;
        *cursor = k + 1;
        if (prop_out)
            *prop_out = cn->property;
        return other;
    }
    *cursor = n;
    if (prop_out)
        *prop_out = NULL;
    return ANIM_FBX_SCENE_ROOT;
}

uint32_t anim_fbx_next_child(const anim_fbx_objects *objs, const anim_fbx_object *o,
                             const char *cls, uint32_t *cursor, const char **prop_out)
{
    return walk_from(objs, o->dst_conns, o->dst_conn_count, true, cls, cursor, prop_out);
}

uint32_t anim_fbx_next_parent(const anim_fbx_objects *objs, const anim_fbx_object *o,
                              const char *cls, uint32_t *cursor, const char **prop_out)
{
    return walk_from(objs, o->src_conns, o->src_conn_count, false, cls, cursor, prop_out);
}

uint32_t anim_fbx_child_object(const anim_fbx_objects *objs, const anim_fbx_object *o,
                               const char *cls, uint32_t i, const char **prop_out)
{
    uint32_t cursor = 0, found;
    do
        found = anim_fbx_next_child(objs, o, cls, &cursor, prop_out);
    while (found != ANIM_FBX_SCENE_ROOT && i-- > 0);
    return found;
}

uint32_t anim_fbx_parent_object(const anim_fbx_objects *objs, const anim_fbx_object *o,
                                const char *cls, uint32_t i, const char **prop_out)
{
    uint32_t cursor = 0, found;
    do
        found = anim_fbx_next_parent(objs, o, cls, &cursor, prop_out);
    while (found != ANIM_FBX_SCENE_ROOT && i-- > 0);
    return found;
}
