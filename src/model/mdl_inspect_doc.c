/* model.inspect document domains: overview (counts, inventory previews,
 * limits), objects, materials, joints, clips and clip_keys. Rows come in
 * the document's own order (objects and clips by name, materials and
 * joints by ordinal), so an offset names the same row for a given head. */
#include <stdlib.h>
#include <string.h>

#include "model/mdl_clip_time.h"
#include "model/mdl_inspect_page.h"

#define PREVIEW_MAX 8

static const char *path_name(mdl_path p)
{
    return p == MDL_PATH_ROTATION ? "rotation" : p == MDL_PATH_SCALE ? "scale" : "translation";
}

/* ---- overview */

static size_t defined_materials(const mdl_doc *d, uint32_t *ordinals)
{
    size_t n = 0;
    for (uint32_t m = 0; m < MDL_MATERIAL_SLOTS; m++)
        if (d->materials[m].defined) {
            if (ordinals)
                ordinals[n] = m;
            n++;
        }
    return n;
}

typedef enum {
    INV_OBJECTS,
    INV_MATERIALS,
    INV_JOINTS,
    INV_CLIPS,
    INV_POSES,
    INV_CONSTRAINTS,
    INV_MORPHS,
    INV_COUNT
} inventory;

static size_t inventory_total(const mdl_doc *d, inventory inv, uint32_t *ordinals)
{
    switch (inv) {
    case INV_OBJECTS:
        return d->object_count;
    case INV_MATERIALS:
        return defined_materials(d, ordinals);
    case INV_JOINTS:
        return d->joint_count;
    case INV_CLIPS:
        return d->clip_count;
    case INV_POSES:
        return d->pose_count;
    case INV_CONSTRAINTS:
        return d->constraint_count;
    default:
        return d->morph_count;
    }
}

/* The name of entry i of a named inventory (every one but materials). */
static const char *inventory_name(const mdl_doc *d, inventory inv, size_t i)
{
    switch (inv) {
    case INV_OBJECTS:
        return d->objects[i]->name;
    case INV_JOINTS:
        return d->joints[i].name;
    case INV_CLIPS:
        return d->clips[i]->name;
    case INV_POSES:
        return d->poses[i]->key.name;
    case INV_CONSTRAINTS:
        return d->constraints[i].name;
    default:
        return d->morphs[i]->key.name;
    }
}

static void write_inventory(anim_json_writer *w, const mdl_doc *d, inventory inv, size_t cap)
{
    uint32_t ordinals[MDL_MATERIAL_SLOTS];
    size_t total = inventory_total(d, inv, ordinals);
    size_t n = total < cap ? total : cap;
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "total", total);
    anim_json_writer_key(w, "preview");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        if (inv == INV_MATERIALS)
            anim_json_writer_uint(w, ordinals[i]);
        else
            anim_json_writer_string(w, inventory_name(d, inv, i));
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "next_offset");
    if (n < total)
        anim_json_writer_uint(w, n);
    else
        anim_json_writer_null(w);
    anim_json_writer_end_object(w);
}

static void write_overview(anim_json_writer *w, const mdl_doc *d, const anim_model_limits *l,
                           size_t cap)
{
    uint64_t vertices = 0, faces = 0, corners = 0;
    for (size_t i = 0; i < d->object_count; i++) {
        vertices += d->objects[i]->vertex_count;
        faces += d->objects[i]->face_count;
        corners += d->objects[i]->corner_count;
    }
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "counts");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "objects", d->object_count);
    anim_json_writer_key_uint(w, "materials", defined_materials(d, NULL));
    anim_json_writer_key_uint(w, "joints", d->joint_count);
    anim_json_writer_key_uint(w, "clips", d->clip_count);
    anim_json_writer_key_uint(w, "poses", d->pose_count);
    anim_json_writer_key_uint(w, "constraints", d->constraint_count);
    anim_json_writer_key_uint(w, "morph_targets", d->morph_count);
    anim_json_writer_key_uint(w, "vertices", vertices);
    anim_json_writer_key_uint(w, "faces", faces);
    anim_json_writer_key_uint(w, "corners", corners);
    anim_json_writer_key_uint(w, "triangles", mdl_doc_triangle_estimate(d));
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "inventories");
    anim_json_writer_begin_object(w);
    static const char *const names[INV_COUNT] = {"objects", "materials",   "joints",
                                                 "clips",   "poses",       "constraints",
                                                 "morph_targets"};
    for (int i = 0; i < INV_COUNT; i++) {
        anim_json_writer_key(w, names[i]);
        write_inventory(w, d, (inventory)i, cap);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "limits");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "max_objects", l->max_objects);
    anim_json_writer_key_uint(w, "max_materials", l->max_materials);
    anim_json_writer_key_uint(w, "max_batch_operations", l->max_batch_operations);
    anim_json_writer_key_uint(w, "max_reply_bytes", l->max_reply_bytes);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

int mdl_inspect_doc_overview(mdl_inspect_req *r)
{
    /* Long escaped names can make eight of each too much: shrink the
     * previews (their next_offset still says where to continue). */
    static const size_t caps[] = {PREVIEW_MAX, 4, 2, 1, 0};
    anim_strbuf tmp = ANIM_STRBUF_INIT;
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        anim_strbuf_reset(&tmp);
        anim_json_writer tw;
        anim_json_writer_init(&tw, &tmp, false);
        write_overview(&tw, r->doc, r->limits, caps[c]);
        if (!anim_json_writer_ok(&tw)) {
            anim_strbuf_free(&tmp);
            return mdl_inspect_nomem(r);
        }
        /* ,"overview":  and the closing brace */
        if (r->out->len + tmp.len + 16 <= r->budget || c + 1 == sizeof caps / sizeof caps[0])
            break;
    }
    anim_json_writer_key(r->w, "overview");
    anim_json_writer_raw(r->w, tmp.data, tmp.len);
    anim_strbuf_free(&tmp);
    return 0;
}

/* ---- objects */

static int object_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const mdl_doc *d = ctx;
    const mdl_object *o = d->objects[index];
    bool used[MDL_MATERIAL_SLOTS];
    size_t n = mdl_object_materials_used(o, used), written = 0;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "name");
    anim_json_writer_string(w, o->name);
    anim_json_writer_key_uint(w, "vertex_count", o->vertex_count);
    anim_json_writer_key_uint(w, "face_count", o->face_count);
    anim_json_writer_key_uint(w, "corner_count", o->corner_count);
    anim_json_writer_key_uint(w, "weight_count", o->weight_count);
    anim_json_writer_key(w, "materials");
    anim_json_writer_begin_array(w);
    for (size_t m = 0; m < MDL_MATERIAL_SLOTS && written < cut; m++)
        if (used[m]) {
            anim_json_writer_uint(w, m);
            written++;
        }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "materials_truncated");
    anim_json_writer_bool(w, written < n);
    anim_json_writer_key(w, "bounds");
    mdl_write_bounds(w, o);
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_objects(mdl_inspect_req *r)
{
    return mdl_inspect_page(r, r->doc->object_count, object_row, (void *)r->doc);
}

/* ---- materials */

typedef struct material_ctx {
    const mdl_doc *doc;
    uint32_t ordinals[MDL_MATERIAL_SLOTS];
} material_ctx;

static int material_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const material_ctx *c = ctx;
    uint32_t m = c->ordinals[index];
    const mdl_material *mat = &c->doc->materials[m];
    (void)cut;
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "material", m);
    anim_json_writer_key(w, "color");
    anim_json_writer_f64_array(w, mat->color, 3);
    anim_json_writer_key(w, "texture");
    if (mat->texture) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "width", mat->texture->width);
        anim_json_writer_key_uint(w, "height", mat->texture->height);
        anim_json_writer_end_object(w);
    } else {
        anim_json_writer_null(w);
    }
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_materials(mdl_inspect_req *r)
{
    material_ctx c;
    c.doc = r->doc;
    size_t n = defined_materials(r->doc, c.ordinals);
    return mdl_inspect_page(r, n, material_row, &c);
}

/* ---- joints */

static int joint_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const mdl_joint *j = &((const mdl_doc *)ctx)->joints[index];
    (void)cut;
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "joint", index);
    anim_json_writer_key(w, "name");
    anim_json_writer_string(w, j->name);
    anim_json_writer_key(w, "parent");
    if (j->parent < 0)
        anim_json_writer_null(w);
    else
        anim_json_writer_int(w, j->parent);
    anim_json_writer_key(w, "translation");
    anim_json_writer_f64_array(w, j->translation, 3);
    anim_json_writer_key(w, "rotation");
    anim_json_writer_f64_array(w, j->rotation, 4);
    anim_json_writer_key(w, "scale");
    anim_json_writer_f64_array(w, j->scale, 3);
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_joints(mdl_inspect_req *r)
{
    return mdl_inspect_page(r, r->doc->joint_count, joint_row, (void *)r->doc);
}

/* ---- clips */

static uint64_t clip_keys(const mdl_clip *c)
{
    uint64_t n = 0;
    for (size_t i = 0; i < c->channel_count; i++)
        n += c->channels[i].key_count;
    return n;
}

typedef struct clip_ctx {
    const mdl_doc *doc;
    uint64_t *key_offset; /* clip_count + 1 prefix sums */
} clip_ctx;

static int clip_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const clip_ctx *c = ctx;
    const mdl_clip *clip = c->doc->clips[index];
    static const char *const interps[] = {"linear", "step", "cubic"};
    (void)cut;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "name");
    anim_json_writer_string(w, clip->name);
    anim_json_writer_key_uint(w, "channels", clip->channel_count);
    anim_json_writer_key_uint(w, "keyframes", c->key_offset[index + 1] - c->key_offset[index]);
    anim_json_writer_key_uint(w, "key_offset", c->key_offset[index]);
    anim_json_writer_key(w, "duration");
    anim_json_writer_f64(w, mdl_clip_duration(clip));
    /* Options: a clip without them reads as linear, no root motion. */
    anim_json_writer_key(w, "interpolation");
    anim_json_writer_string(w, interps[clip->interpolation]);
    anim_json_writer_key(w, "root_motion");
    anim_json_writer_bool(w, clip->root_motion);
    anim_json_writer_key_uint(w, "event_count", clip->event_count);
    anim_json_writer_key_uint(w, "morph_track_count", clip->morph_track_count);
    anim_json_writer_end_object(w);
    return 0;
}

static uint64_t *key_offsets(const mdl_doc *d)
{
    uint64_t *k = malloc((d->clip_count + 1) * sizeof *k);
    if (!k)
        return NULL;
    k[0] = 0;
    for (size_t i = 0; i < d->clip_count; i++)
        k[i + 1] = k[i] + clip_keys(d->clips[i]);
    return k;
}

int mdl_inspect_clips(mdl_inspect_req *r)
{
    clip_ctx c = {r->doc, key_offsets(r->doc)};
    if (!c.key_offset)
        return mdl_inspect_nomem(r);
    int rc = mdl_inspect_page(r, r->doc->clip_count, clip_row, &c);
    free(c.key_offset);
    return rc;
}

/* ---- clip_keys: one row per key, by clip name, channel, time */

typedef struct key_cursor {
    const mdl_doc *doc;
    size_t clip, channel, key;
    uint64_t index; /* the global row index of (clip, channel, key) */
} key_cursor;

/* Moves the cursor to row index (rows are asked for in increasing order,
 * so this walks forward; a repeated index stays put). */
static void key_seek(key_cursor *c, uint64_t index)
{
    if (index < c->index) {
        c->clip = c->channel = c->key = 0;
        c->index = 0;
    }
    const mdl_doc *d = c->doc;
    while (c->clip < d->clip_count) {
        const mdl_clip *clip = d->clips[c->clip];
        if (c->channel >= clip->channel_count) {
            c->clip++;
            c->channel = c->key = 0;
            continue;
        }
        const mdl_channel *ch = &clip->channels[c->channel];
        uint64_t left = ch->key_count - c->key;
        if (index - c->index < left) {
            c->key += (size_t)(index - c->index);
            c->index = index;
            return;
        }
        c->index += left;
        c->channel++;
        c->key = 0;
    }
}

static int key_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    key_cursor *c = ctx;
    (void)cut;
    key_seek(c, index);
    const mdl_clip *clip = c->doc->clips[c->clip];
    const mdl_channel *ch = &clip->channels[c->channel];
    const mdl_key *k = &ch->keys[c->key];
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "clip");
    anim_json_writer_string(w, clip->name);
    anim_json_writer_key_uint(w, "channel", c->channel);
    anim_json_writer_key_uint(w, "joint", ch->joint);
    anim_json_writer_key(w, "path");
    anim_json_writer_string(w, path_name(ch->path));
    anim_json_writer_key_uint(w, "key", c->key);
    anim_json_writer_key(w, "time");
    anim_json_writer_f64(w, k->time);
    anim_json_writer_key(w, "value");
    anim_json_writer_f64_array(w, k->value, 4);
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_clip_keys(mdl_inspect_req *r)
{
    uint64_t total = 0;
    for (size_t i = 0; i < r->doc->clip_count; i++)
        total += clip_keys(r->doc->clips[i]);
    key_cursor c = {r->doc, 0, 0, 0, 0};
    return mdl_inspect_page(r, total, key_row, &c);
}
