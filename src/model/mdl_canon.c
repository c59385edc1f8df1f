/* The canonical encoding of a document version (layout in
 * docs/model-canonical.md) and the head's content hash over it. One
 * encoder for the hash and the stored source, so what is hashed is exactly
 * what is kept. Every list is written in the order the document already
 * keeps it sorted (objects, clips and retired counters by name; vertices
 * and faces by id; edges by pair; weights by vertex and joint), so equal
 * content gives equal bytes whatever edits produced it. Values that carry
 * no content are not written: an undefined material slot, the normal of a
 * corner without an explicit one, a face's corner offset (the corners
 * follow their face). */
#include <string.h>

#include "animsmith/hash.h"
#include "model/mdl_canon.h"

static void put_u8(anim_strbuf *o, uint8_t v)
{
    anim_strbuf_putc(o, (char)v);
}

static void put_u32(anim_strbuf *o, uint32_t v)
{
    unsigned char b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    anim_strbuf_append(o, b, 4);
}

static void put_u64(anim_strbuf *o, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    anim_strbuf_append(o, b, 8);
}

/* The IEEE-754 bits: -0 and 0 (and any NaN payload) stay distinct. */
static void put_f64(anim_strbuf *o, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(o, bits);
}

static void put_f64s(anim_strbuf *o, const double *v, int n)
{
    for (int i = 0; i < n; i++)
        put_f64(o, v[i]);
}

static void put_name(anim_strbuf *o, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u32(o, (uint32_t)n);
    anim_strbuf_append(o, s ? s : "", n);
}

static void put_object(anim_strbuf *o, const mdl_object *ob)
{
    put_name(o, ob->name);
    put_u64(o, ob->next_vertex);
    put_u64(o, ob->next_face);
    put_u64(o, ob->next_corner);
    put_u64(o, ob->vertex_count);
    for (size_t i = 0; i < ob->vertex_count; i++) {
        put_u64(o, ob->vertices[i].id);
        put_f64s(o, ob->vertices[i].p, 3);
    }
    put_u64(o, ob->face_count);
    for (size_t i = 0; i < ob->face_count; i++) {
        const mdl_face *f = &ob->faces[i];
        put_u64(o, f->id);
        put_u32(o, f->corner_count);
        put_u32(o, (uint32_t)f->material);
        put_u8(o, f->smooth ? 1 : 0);
        for (uint32_t k = 0; k < f->corner_count; k++) {
            const mdl_corner *c = &ob->corners[f->corner_first + k];
            put_u64(o, c->id);
            put_u64(o, c->vertex);
            put_f64s(o, c->uv, 2);
            put_u8(o, c->has_normal ? 1 : 0);
            if (c->has_normal)
                put_f64s(o, c->normal, 3);
        }
    }
    put_u64(o, ob->edge_count);
    for (size_t i = 0; i < ob->edge_count; i++) {
        const mdl_edge_attr *e = &ob->edges[i];
        put_u64(o, e->a);
        put_u64(o, e->b);
        put_u8(o, e->seam ? 1 : 0);
        put_f64(o, e->crease);
    }
    put_u64(o, ob->weight_count);
    for (size_t i = 0; i < ob->weight_count; i++) {
        const mdl_weight *w = &ob->weights[i];
        put_u64(o, w->vertex);
        put_u32(o, w->joint);
        put_f64(o, w->weight);
    }
    put_u32(o, (uint32_t)ob->lock_count);
    for (size_t i = 0; i < ob->lock_count; i++)
        put_u32(o, ob->locks[i]);
}

static void put_materials(anim_strbuf *o, const mdl_doc *d)
{
    uint32_t defined = 0;
    for (size_t i = 0; i < MDL_MATERIAL_SLOTS; i++)
        defined += d->materials[i].defined;
    put_u32(o, defined);
    for (size_t i = 0; i < MDL_MATERIAL_SLOTS; i++) {
        const mdl_material *m = &d->materials[i];
        if (!m->defined)
            continue;
        put_u32(o, (uint32_t)i);
        put_f64s(o, m->color, 3);
        const mdl_texture *t = m->texture;
        put_u8(o, t ? 1 : 0);
        if (t) {
            put_u32(o, t->width);
            put_u32(o, t->height);
            /* width, height <= MDL_TEXTURE_SIDE_MAX: no overflow. */
            anim_strbuf_append(o, t->rgb, (size_t)t->width * t->height * 3);
        }
    }
}

static void put_skeleton(anim_strbuf *o, const mdl_doc *d)
{
    put_u32(o, (uint32_t)d->joint_count);
    for (size_t i = 0; i < d->joint_count; i++) {
        const mdl_joint *j = &d->joints[i];
        put_name(o, j->name);
        put_u32(o, (uint32_t)j->parent);
        put_f64s(o, j->translation, 3);
        put_f64s(o, j->rotation, 4);
        put_f64s(o, j->scale, 3);
    }
}

static void put_clips(anim_strbuf *o, const mdl_doc *d)
{
    put_u32(o, (uint32_t)d->clip_count);
    for (size_t i = 0; i < d->clip_count; i++) {
        const mdl_clip *c = d->clips[i];
        put_name(o, c->name);
        put_u32(o, (uint32_t)c->channel_count);
        for (size_t k = 0; k < c->channel_count; k++) {
            const mdl_channel *ch = &c->channels[k];
            put_u32(o, ch->joint);
            put_u8(o, (uint8_t)ch->path);
            put_u64(o, ch->key_count);
            for (size_t q = 0; q < ch->key_count; q++) {
                put_f64(o, ch->keys[q].time);
                put_f64s(o, ch->keys[q].value, 4);
            }
        }
        put_u8(o, c->has_options ? 1 : 0);
        if (!c->has_options)
            continue;
        put_u8(o, (uint8_t)c->interpolation);
        put_u8(o, c->root_motion ? 1 : 0);
        put_u32(o, (uint32_t)c->event_count);
        for (size_t k = 0; k < c->event_count; k++) {
            const mdl_event *e = &c->events[k];
            put_f64(o, e->time);
            put_name(o, e->name);
            put_u32(o, e->payload_len);
            anim_strbuf_append(o, e->payload, e->payload_len);
        }
        put_u32(o, (uint32_t)c->morph_track_count);
        for (size_t k = 0; k < c->morph_track_count; k++) {
            const mdl_morph_track *t = &c->morph_tracks[k];
            put_name(o, t->morph);
            put_u64(o, t->key_count);
            for (size_t q = 0; q < t->key_count; q++) {
                put_f64(o, t->keys[q].time);
                put_f64(o, t->keys[q].weight);
            }
        }
    }
}

static void put_trs(anim_strbuf *o, const mdl_trs *t)
{
    put_f64s(o, t->translation, 3);
    put_f64s(o, t->rotation, 4);
    put_f64s(o, t->scale, 3);
}

static void put_poses(anim_strbuf *o, const mdl_doc *d)
{
    put_u32(o, (uint32_t)d->pose_count);
    for (size_t i = 0; i < d->pose_count; i++) {
        const mdl_pose *p = d->poses[i];
        put_name(o, p->key.name);
        put_u32(o, (uint32_t)p->joint_count);
        for (size_t k = 0; k < p->joint_count; k++) {
            put_u32(o, p->joints[k].joint);
            put_trs(o, &p->joints[k].local);
        }
    }
}

/* Every constraint writes its type's fields only, so a field another type
 * would use never reaches the hash. */
static void put_constraints(anim_strbuf *o, const mdl_doc *d)
{
    put_u32(o, (uint32_t)d->constraint_count);
    for (size_t i = 0; i < d->constraint_count; i++) {
        const mdl_constraint *c = &d->constraints[i];
        put_name(o, c->name);
        put_u32(o, c->joint);
        put_u8(o, c->enabled ? 1 : 0);
        put_u8(o, (uint8_t)c->type);
        switch (c->type) {
        case MDL_CONSTRAINT_COPY:
            put_u32(o, c->target);
            put_u8(o, (uint8_t)(c->copy_translation | c->copy_rotation << 1 | c->copy_scale << 2));
            put_f64(o, c->influence);
            break;
        case MDL_CONSTRAINT_AIM:
            put_u32(o, c->target);
            put_f64s(o, c->axis, 3);
            put_f64(o, c->influence);
            break;
        case MDL_CONSTRAINT_LIMIT:
            put_f64s(o, c->min_translation, 3);
            put_f64s(o, c->max_translation, 3);
            put_f64s(o, c->min_scale, 3);
            put_f64s(o, c->max_scale, 3);
            put_f64(o, c->max_angle);
            break;
        case MDL_CONSTRAINT_IK:
            put_u32(o, c->middle);
            put_u32(o, c->end);
            put_u32(o, c->target);
            put_f64s(o, c->pole, 3);
            put_u8(o, c->clamp_reach ? 1 : 0);
            break;
        }
    }
}

static void put_morphs(anim_strbuf *o, const mdl_doc *d)
{
    put_u32(o, (uint32_t)d->morph_count);
    for (size_t i = 0; i < d->morph_count; i++) {
        const mdl_morph *m = d->morphs[i];
        put_name(o, m->key.name);
        put_name(o, m->object);
        anim_strbuf_append(o, m->topology, sizeof m->topology);
        put_f64(o, m->weight);
        put_u64(o, m->delta_count);
        for (size_t k = 0; k < m->delta_count; k++) {
            put_u64(o, m->deltas[k].vertex);
            put_f64s(o, m->deltas[k].delta, 3);
        }
    }
}

int mdl_canon_encode(const mdl_doc *d, anim_strbuf *out)
{
    anim_strbuf_append(out, "AMDL", 4);
    put_u32(out, MDL_CANON_VERSION);
    put_u32(out, (uint32_t)d->object_count);
    for (size_t i = 0; i < d->object_count; i++)
        put_object(out, d->objects[i]);
    put_materials(out, d);
    put_skeleton(out, d);
    put_clips(out, d);
    put_u32(out, (uint32_t)d->retired_count);
    for (size_t i = 0; i < d->retired_count; i++) {
        const mdl_retired *r = &d->retired[i];
        put_name(out, r->name);
        put_u64(out, r->next_vertex);
        put_u64(out, r->next_face);
        put_u64(out, r->next_corner);
    }
    put_poses(out, d);
    put_constraints(out, d);
    put_morphs(out, d);
    return out->failed ? -1 : 0;
}

int mdl_canon_hash(const mdl_doc *d, char hex[65], uint64_t *bytes)
{
    anim_strbuf buf = ANIM_STRBUF_INIT;
    if (mdl_canon_encode(d, &buf) != 0) {
        anim_strbuf_free(&buf);
        return -1;
    }
    anim_sha256_hex(buf.data, buf.len, hex);
    if (bytes)
        *bytes = buf.len;
    anim_strbuf_free(&buf);
    return 0;
}
