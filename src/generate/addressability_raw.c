/* The V2 raw domains of the same load: scenes (ordered roots), nodes
 * (parent, ordered children, mesh, skin), skins (ordered joints, the
 * explicit skin.skeleton kept as a source observation, the inverse-bind
 * accessor), node-to-skin attachments, and every scene's root-to-node path
 * candidates. Names are the authored bytes from the raw JSON.
 *
 * Each domain keeps a source-order prefix: it stops at its 4,096th row
 * (row_limit_exceeded), or at the first row whose name passes 1,024 bytes
 * or that would pass the shared reference/text budget
 * (projection_bounds_exceeded). A partial domain never proves absence; a
 * complete one, even empty, does. The loader already validated the
 * structure (a forest, indices in range, scene roots that are roots). */
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "generate/addressability.h"

#define ROW_LIMIT "row_limit_exceeded"
#define BOUNDS "projection_bounds_exceeded"

bool addr_budget_take(addr_budget *b, size_t refs, size_t text)
{
    if (refs > ADDR_V2_MAX_REFS - b->refs || text > ADDR_V2_MAX_TEXT - b->text)
        return false;
    b->refs += refs;
    b->text += text;
    return true;
}

static addr_text name_of(const anim_json_value *obj)
{
    addr_text t = {NULL, 0};
    const anim_json_value *v = anim_json_get(obj, "name");
    if (v && v->type == ANIM_JSON_STRING) {
        t.s = anim_json_string(v);
        t.len = anim_json_string_len(v);
    }
    return t;
}

static const anim_json_value *raw_item(const anim_asset *asset, const char *array, uint32_t i)
{
    const anim_json_value *arr = anim_json_get(asset->source.root, array);
    return arr && i < anim_json_count(arr) ? anim_json_item(arr, i) : NULL;
}

/* Whether the next row fits; else ends the domain with its reason. */
static bool admit(addr_domain *d, addr_budget *b, addr_text name, size_t refs, size_t text)
{
    if (d->rows >= ADDR_V2_MAX_ROWS) {
        d->state = ADDR_PARTIAL;
        d->reason = ROW_LIMIT;
        return false;
    }
    if (name.len > ADDR_V2_MAX_NAME || !addr_budget_take(b, refs, text + name.len)) {
        d->state = ADDR_PARTIAL;
        d->reason = BOUNDS;
        return false;
    }
    return true;
}

static void domain_init(addr_domain *d, uint32_t source_rows)
{
    d->state = ADDR_COMPLETE;
    d->reason = NULL;
    d->source_rows = source_rows;
    d->rows = 0;
}

static uint32_t *index_array(anim_arena *arena, const anim_json_value *arr, uint32_t *count)
{
    uint32_t n = arr ? (uint32_t)anim_json_count(arr) : 0;
    uint32_t *out = anim_arena_calloc(arena, n ? n : 1, sizeof *out);
    for (uint32_t i = 0; out && i < n; i++)
        out[i] = (uint32_t)anim_json_integer(anim_json_item(arr, i));
    *count = n;
    return out;
}

static int build_scenes(const anim_asset *asset, anim_arena *arena, addr_budget *b,
                        addr_raw *raw)
{
    const anim_doc *doc = &asset->doc;
    raw->scenes = anim_arena_calloc(arena, doc->scene_count ? doc->scene_count : 1,
                                    sizeof *raw->scenes);
    if (!raw->scenes)
        return -1;
    domain_init(&raw->scene_domain, doc->scene_count);
    for (uint32_t i = 0; i < doc->scene_count; i++) {
        addr_text name = name_of(raw_item(asset, "scenes", i));
        if (!admit(&raw->scene_domain, b, name, doc->scenes[i].node_count, 0))
            break;
        addr_scene *s = &raw->scenes[raw->scene_domain.rows++];
        s->index = i;
        s->name = name;
        s->roots = doc->scenes[i].nodes;
        s->root_count = doc->scenes[i].node_count;
    }
    return 0;
}

static int build_nodes(const anim_asset *asset, anim_arena *arena, addr_budget *b,
                       addr_raw *raw)
{
    const anim_doc *doc = &asset->doc;
    uint32_t keep = doc->node_count < ADDR_V2_MAX_ROWS ? doc->node_count : ADDR_V2_MAX_ROWS;
    raw->nodes = anim_arena_calloc(arena, keep ? keep : 1, sizeof *raw->nodes);
    if (!raw->nodes)
        return -1;
    domain_init(&raw->node_domain, doc->node_count);
    for (uint32_t i = 0; i < doc->node_count; i++) {
        const anim_json_value *obj = raw_item(asset, "nodes", i);
        const anim_json_value *children = anim_json_get(obj, "children");
        addr_text name = name_of(obj);
        size_t child_count = children ? anim_json_count(children) : 0;
        if (!admit(&raw->node_domain, b, name, child_count, 0))
            break;
        const anim_bone *bone = &doc->bones[doc->node_to_bone[i]];
        addr_node *n = &raw->nodes[raw->node_domain.rows++];
        n->index = i;
        n->name = name;
        n->parent = bone->parent == ANIM_NONE ? ANIM_NONE : doc->bones[bone->parent].node;
        n->children = index_array(arena, children, &n->child_count);
        if (!n->children)
            return -1;
        n->mesh = bone->mesh;
        n->skin = bone->skin;
    }
    return 0;
}

static int build_skins(const anim_asset *asset, anim_arena *arena, addr_budget *b,
                       addr_raw *raw)
{
    const anim_doc *doc = &asset->doc;
    uint32_t keep = doc->skin_count < ADDR_V2_MAX_ROWS ? doc->skin_count : ADDR_V2_MAX_ROWS;
    raw->skins = anim_arena_calloc(arena, keep ? keep : 1, sizeof *raw->skins);
    if (!raw->skins)
        return -1;
    domain_init(&raw->skin_domain, doc->skin_count);
    for (uint32_t i = 0; i < doc->skin_count; i++) {
        const anim_skin *sk = &doc->skins[i];
        addr_text name = name_of(raw_item(asset, "skins", i));
        if (!admit(&raw->skin_domain, b, name, sk->joint_count, 0))
            break;
        addr_skin *s = &raw->skins[raw->skin_domain.rows++];
        s->index = i;
        s->name = name;
        s->joints = sk->joints;
        s->joint_count = sk->joint_count;
        s->skeleton = sk->skeleton;
        s->inverse_bind_accessor = sk->inverse_bind_accessor;
    }
    return 0;
}

static int build_attachments(const anim_asset *asset, anim_arena *arena, addr_budget *b,
                             addr_raw *raw)
{
    const anim_doc *doc = &asset->doc;
    uint32_t total = 0;
    for (uint32_t i = 0; i < doc->node_count; i++)
        total += doc->bones[doc->node_to_bone[i]].skin != ANIM_NONE;
    uint32_t keep = total < ADDR_V2_MAX_ROWS ? total : ADDR_V2_MAX_ROWS;
    raw->attachments = anim_arena_calloc(arena, keep ? keep : 1, sizeof *raw->attachments);
    if (!raw->attachments)
        return -1;
    domain_init(&raw->attachment_domain, total);
    addr_text none = {NULL, 0};
    for (uint32_t i = 0; i < doc->node_count; i++) {
        uint32_t skin = doc->bones[doc->node_to_bone[i]].skin;
        if (skin == ANIM_NONE)
            continue;
        if (!admit(&raw->attachment_domain, b, none, 0, 0))
            break;
        raw->attachments[raw->attachment_domain.rows++] = (addr_attachment){i, skin};
    }
    return 0;
}

/* Every scene's depth-first walk from each of its roots, in order, children
 * in the order each node lists them: one candidate per visit. */
static int build_paths(const anim_asset *asset, anim_arena *arena, addr_budget *b, addr_raw *raw)
{
    const anim_doc *doc = &asset->doc;
    uint32_t total = 0;
    uint32_t n = doc->node_count;
    uint32_t *stack = calloc(n ? n : 1, sizeof *stack);
    uint32_t *next = calloc(n ? n : 1, sizeof *next);
    raw->paths = anim_arena_calloc(arena, ADDR_V2_MAX_ROWS, sizeof *raw->paths);
    int rc = stack && next && raw->paths ? 0 : -1;
    /* First the candidate count: the size of each listed root's subtree,
     * from the bones (children after their parent), so a file listing one
     * large tree in many scenes is counted without walking it again. */
    uint64_t *size = calloc(n ? n : 1, sizeof *size);
    rc = rc == 0 && size ? 0 : -1;
    for (uint32_t bi = doc->bone_count; rc == 0 && bi-- > 0;) {
        size[bi] += 1;
        if (doc->bones[bi].parent != ANIM_NONE)
            size[doc->bones[bi].parent] += size[bi];
    }
    uint64_t count = 0;
    for (uint32_t s = 0; rc == 0 && s < doc->scene_count; s++)
        for (uint32_t r = 0; r < doc->scenes[s].node_count; r++)
            count += size[doc->node_to_bone[doc->scenes[s].nodes[r]]];
    free(size);
    total = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
    domain_init(&raw->path_domain, total);
    addr_text none = {NULL, 0};
    bool full = false;
    for (uint32_t s = 0; rc == 0 && !full && s < doc->scene_count; s++)
        for (uint32_t r = 0; rc == 0 && !full && r < doc->scenes[s].node_count; r++) {
            uint32_t depth = 0;
            stack[depth] = doc->scenes[s].nodes[r];
            next[depth] = 0;
            depth++;
            bool entered = false;
            while (depth > 0 && !full) {
                uint32_t node = stack[depth - 1];
                if (!entered) {
                    if (!admit(&raw->path_domain, b, none, depth, 0)) {
                        full = true;
                        break;
                    }
                    addr_path *p = &raw->paths[raw->path_domain.rows++];
                    p->scene = s;
                    p->node = node;
                    p->length = depth;
                    p->nodes = anim_arena_alloc(arena, (size_t)depth * sizeof *p->nodes);
                    if (!p->nodes) {
                        rc = -1;
                        break;
                    }
                    memcpy(p->nodes, stack, (size_t)depth * sizeof *p->nodes);
                }
                const anim_json_value *children =
                    anim_json_get(raw_item(asset, "nodes", node), "children");
                uint32_t k = next[depth - 1];
                if (children && k < anim_json_count(children)) {
                    next[depth - 1] = k + 1;
                    stack[depth] = (uint32_t)anim_json_integer(anim_json_item(children, k));
                    next[depth] = 0;
                    depth++;
                    entered = false;
                } else {
                    depth--;
                    entered = true; /* back in the parent: already emitted */
                }
            }
        }
    free(stack);
    free(next);
    return rc;
}

int addr_raw_build(const anim_asset *asset, anim_arena *arena, addr_budget *budget,
                   addr_raw *raw, anim_error *err)
{
    memset(raw, 0, sizeof *raw);
    raw->default_scene = asset->doc.default_scene;
    if (build_scenes(asset, arena, budget, raw) || build_nodes(asset, arena, budget, raw) ||
        build_skins(asset, arena, budget, raw) || build_attachments(asset, arena, budget, raw) ||
        build_paths(asset, arena, budget, raw))
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", asset->source.path);
    return 0;
}

static void write_domain(anim_json_writer *w, const char *key, const addr_domain *d)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, addr_coverage_name(d->state));
    anim_json_writer_key_uint(w, "source_rows", d->source_rows);
    anim_json_writer_key_uint(w, "rows", d->rows);
    anim_json_writer_key_string_or_null(w, "reason", d->reason);
    anim_json_writer_end_object(w);
}

static void write_indices(anim_json_writer *w, const char *key, const uint32_t *v, uint32_t n)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < n; i++)
        anim_json_writer_uint(w, v[i]);
    anim_json_writer_end_array(w);
}

void addr_write_raw(anim_json_writer *w, const addr_raw *raw)
{
    anim_json_writer_key(w, "coverage");
    anim_json_writer_begin_object(w);
    write_domain(w, "scenes", &raw->scene_domain);
    write_domain(w, "nodes", &raw->node_domain);
    write_domain(w, "skins", &raw->skin_domain);
    write_domain(w, "attachments", &raw->attachment_domain);
    write_domain(w, "paths", &raw->path_domain);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "default_scene");
    addr_json_index(w, raw->default_scene);
    anim_json_writer_key(w, "scenes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < raw->scene_domain.rows; i++) {
        const addr_scene *s = &raw->scenes[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "index", s->index);
        anim_json_writer_key(w, "name");
        addr_json_text(w, s->name);
        write_indices(w, "roots", s->roots, s->root_count);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "nodes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < raw->node_domain.rows; i++) {
        const addr_node *n = &raw->nodes[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "index", n->index);
        anim_json_writer_key(w, "name");
        addr_json_text(w, n->name);
        anim_json_writer_key(w, "parent");
        addr_json_index(w, n->parent);
        write_indices(w, "children", n->children, n->child_count);
        anim_json_writer_key(w, "mesh");
        addr_json_index(w, n->mesh);
        anim_json_writer_key(w, "skin");
        addr_json_index(w, n->skin);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "skins");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < raw->skin_domain.rows; i++) {
        const addr_skin *s = &raw->skins[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "index", s->index);
        anim_json_writer_key(w, "name");
        addr_json_text(w, s->name);
        write_indices(w, "joints", s->joints, s->joint_count);
        anim_json_writer_key(w, "skeleton");
        addr_json_index(w, s->skeleton);
        anim_json_writer_key(w, "inverse_bind_accessor");
        addr_json_index(w, s->inverse_bind_accessor);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "attachments");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < raw->attachment_domain.rows; i++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "node", raw->attachments[i].node);
        anim_json_writer_key_uint(w, "skin", raw->attachments[i].skin);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "paths");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < raw->path_domain.rows; i++) {
        const addr_path *p = &raw->paths[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "scene", p->scene);
        anim_json_writer_key_uint(w, "node", p->node);
        write_indices(w, "nodes", p->nodes, p->length);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}
