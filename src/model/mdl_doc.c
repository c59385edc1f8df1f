/* Document versions: the object, clip and texture tables of one version,
 * shared with other versions by refcount, and copy-on-first-edit (see
 * mdl_doc.h). A version's own allocation is only its tables; everything
 * large is shared until an operation edits it. */
#include "model/mdl_doc.h"

#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "core/grow.h"

char *mdl_strdup(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

mdl_doc *mdl_doc_new(void)
{
    return calloc(1, sizeof(mdl_doc));
}

void mdl_object_release(mdl_object *o)
{
    if (!o || --o->refs)
        return;
    free(o->name);
    free(o->vertices);
    free(o->faces);
    free(o->corners);
    free(o->edges);
    free(o->weights);
    free(o->locks);
    free(o);
}

void mdl_texture_release(mdl_texture *t)
{
    if (!t || --t->refs)
        return;
    free(t->rgb);
    free(t);
}

void mdl_clip_clear_options(mdl_clip *c)
{
    for (size_t i = 0; i < c->event_count; i++) {
        free(c->events[i].name);
        free(c->events[i].payload);
    }
    free(c->events);
    for (size_t i = 0; i < c->morph_track_count; i++) {
        free(c->morph_tracks[i].morph);
        free(c->morph_tracks[i].keys);
    }
    free(c->morph_tracks);
    c->events = NULL;
    c->event_count = 0;
    c->morph_tracks = NULL;
    c->morph_track_count = 0;
    c->has_options = false;
    c->interpolation = MDL_INTERP_LINEAR;
    c->root_motion = false;
}

void mdl_clip_release(mdl_clip *c)
{
    if (!c || --c->refs)
        return;
    for (size_t i = 0; i < c->channel_count; i++)
        free(c->channels[i].keys);
    free(c->channels);
    free(c->name);
    mdl_clip_clear_options(c);
    free(c);
}

static void *dup_bytes(const void *src, size_t count, size_t elem, bool *ok)
{
    size_t bytes;
    if (!count)
        return NULL;
    if (!anim_size_mul(count, elem, &bytes)) {
        *ok = false;
        return NULL;
    }
    void *d = malloc(bytes);
    if (!d)
        *ok = false;
    else
        memcpy(d, src, bytes);
    return d;
}

mdl_clip *mdl_clip_clone(const mdl_clip *s)
{
    mdl_clip *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    bool ok = true;
    c->refs = 1;
    c->name = mdl_strdup(s->name);
    ok = c->name != NULL;
    c->channels = ok ? calloc(s->channel_count ? s->channel_count : 1, sizeof(*c->channels)) : NULL;
    ok = ok && c->channels;
    for (size_t i = 0; ok && i < s->channel_count; i++) {
        c->channels[i] = s->channels[i];
        c->channels[i].keys = dup_bytes(s->channels[i].keys, s->channels[i].key_count,
                                        sizeof(mdl_key), &ok);
        c->channel_count = i + 1;
        if (!ok)
            c->channels[i].key_count = 0;
    }
    c->has_options = s->has_options;
    c->interpolation = s->interpolation;
    c->root_motion = s->root_motion;
    if (ok && s->event_count) {
        c->events = calloc(s->event_count, sizeof(*c->events));
        ok = c->events != NULL;
        for (size_t i = 0; ok && i < s->event_count; i++) {
            c->events[i].time = s->events[i].time;
            c->events[i].name = mdl_strdup(s->events[i].name);
            c->events[i].payload_len = s->events[i].payload_len;
            c->events[i].payload = malloc(s->events[i].payload_len + 1u);
            c->event_count = i + 1;
            ok = c->events[i].name && c->events[i].payload;
            if (ok)
                memcpy(c->events[i].payload, s->events[i].payload, s->events[i].payload_len + 1u);
        }
    }
    if (ok && s->morph_track_count) {
        c->morph_tracks = calloc(s->morph_track_count, sizeof(*c->morph_tracks));
        ok = c->morph_tracks != NULL;
        for (size_t i = 0; ok && i < s->morph_track_count; i++) {
            const mdl_morph_track *t = &s->morph_tracks[i];
            c->morph_tracks[i].morph = mdl_strdup(t->morph);
            c->morph_tracks[i].keys = dup_bytes(t->keys, t->key_count, sizeof(*t->keys), &ok);
            c->morph_tracks[i].key_count = ok ? t->key_count : 0;
            c->morph_track_count = i + 1;
            ok = ok && c->morph_tracks[i].morph;
        }
    }
    if (!ok) {
        mdl_clip_release(c);
        return NULL;
    }
    return c;
}

mdl_clip *mdl_doc_edit_clip(mdl_doc *d, size_t i)
{
    mdl_clip *c = d->clips[i];
    if (c->refs == 1)
        return c;
    mdl_clip *copy = mdl_clip_clone(c);
    if (!copy)
        return NULL;
    mdl_clip_release(c);
    d->clips[i] = copy;
    return copy;
}

static void free_joints(mdl_joint *j, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(j[i].name);
    free(j);
}

static int copy_joints(const mdl_joint *src, size_t n, mdl_joint **out)
{
    *out = NULL;
    if (!n)
        return 0;
    mdl_joint *j = calloc(n, sizeof(*j));
    if (!j)
        return -1;
    for (size_t i = 0; i < n; i++) {
        j[i] = src[i];
        j[i].name = mdl_strdup(src[i].name);
        if (!j[i].name) {
            free_joints(j, i);
            return -1;
        }
    }
    *out = j;
    return 0;
}

void mdl_doc_free(mdl_doc *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->object_count; i++)
        mdl_object_release(d->objects[i]);
    free(d->objects);
    for (size_t i = 0; i < MDL_MATERIAL_SLOTS; i++)
        mdl_texture_release(d->materials[i].texture);
    free_joints(d->joints, d->joint_count);
    for (size_t i = 0; i < d->clip_count; i++)
        mdl_clip_release(d->clips[i]);
    free(d->clips);
    for (size_t i = 0; i < d->retired_count; i++)
        free(d->retired[i].name);
    free(d->retired);
    for (size_t i = 0; i < d->pose_count; i++)
        mdl_pose_release(d->poses[i]);
    free(d->poses);
    free(d->constraints);
    for (size_t i = 0; i < d->morph_count; i++)
        mdl_morph_release(d->morphs[i]);
    free(d->morphs);
    free(d);
}

/* Shares a refcounted name table (poses, morphs): the pointers copied,
 * each entry's refs taken. */
static bool share_named(void ***dst, size_t *count, size_t *cap, void *const *src, size_t n)
{
    *dst = NULL;
    *count = *cap = 0;
    if (!n)
        return true;
    *dst = malloc(n * sizeof(void *));
    if (!*dst)
        return false;
    for (size_t i = 0; i < n; i++) {
        (*dst)[i] = src[i];
        ((mdl_named *)src[i])->refs++;
    }
    *count = *cap = n;
    return true;
}

static bool copy_array(void **dst, size_t *cap, const void *src, size_t count, size_t elem);

mdl_doc *mdl_doc_share(const mdl_doc *src)
{
    mdl_doc *d = mdl_doc_new();
    if (!d)
        return NULL;
    if (src->object_count) {
        d->objects = malloc(src->object_count * sizeof(*d->objects));
        if (!d->objects)
            goto fail;
        d->object_cap = src->object_count;
    }
    for (size_t i = 0; i < src->object_count; i++) {
        d->objects[i] = src->objects[i];
        d->objects[i]->refs++;
        d->object_count++;
    }
    memcpy(d->materials, src->materials, sizeof(d->materials));
    for (size_t i = 0; i < MDL_MATERIAL_SLOTS; i++)
        if (d->materials[i].texture)
            d->materials[i].texture->refs++;
    if (copy_joints(src->joints, src->joint_count, &d->joints))
        goto fail;
    d->joint_count = src->joint_count;
    if (src->clip_count) {
        d->clips = malloc(src->clip_count * sizeof(*d->clips));
        if (!d->clips)
            goto fail;
        d->clip_cap = src->clip_count;
    }
    for (size_t i = 0; i < src->clip_count; i++) {
        d->clips[i] = src->clips[i];
        d->clips[i]->refs++;
        d->clip_count++;
    }
    if (src->retired_count) {
        d->retired = calloc(src->retired_count, sizeof(*d->retired));
        if (!d->retired)
            goto fail;
        d->retired_cap = src->retired_count;
    }
    for (size_t i = 0; i < src->retired_count; i++) {
        d->retired[i] = src->retired[i];
        d->retired[i].name = mdl_strdup(src->retired[i].name);
        if (!d->retired[i].name)
            goto fail;
        d->retired_count++;
    }
    if (!share_named((void ***)&d->poses, &d->pose_count, &d->pose_cap,
                     (void *const *)src->poses, src->pose_count) ||
        !share_named((void ***)&d->morphs, &d->morph_count, &d->morph_cap,
                     (void *const *)src->morphs, src->morph_count) ||
        !copy_array((void **)&d->constraints, &d->constraint_cap, src->constraints,
                    src->constraint_count, sizeof(*src->constraints)))
        goto fail;
    d->constraint_count = src->constraint_count;
    return d;
fail:
    mdl_doc_free(d);
    return NULL;
}

/* Lower bound of name in a name-sorted table read through get(i). */
static size_t object_slot(const mdl_doc *d, const char *name, bool *found)
{
    size_t lo = 0, hi = d->object_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(d->objects[mid]->name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < d->object_count && strcmp(d->objects[lo]->name, name) == 0;
    return lo;
}

ptrdiff_t mdl_doc_find_object(const mdl_doc *d, const char *name)
{
    bool found;
    size_t i = object_slot(d, name, &found);
    return found ? (ptrdiff_t)i : -1;
}

static bool copy_array(void **dst, size_t *cap, const void *src, size_t count, size_t elem)
{
    *dst = NULL;
    *cap = 0;
    if (!count)
        return true;
    size_t bytes;
    if (!anim_size_mul(count, elem, &bytes))
        return false;
    *dst = malloc(bytes);
    if (!*dst)
        return false;
    memcpy(*dst, src, bytes);
    *cap = count;
    return true;
}

static mdl_object *object_clone(const mdl_object *s)
{
    mdl_object *o = calloc(1, sizeof(*o));
    if (!o)
        return NULL;
    o->refs = 1;
    o->name = mdl_strdup(s->name);
    o->next_vertex = s->next_vertex;
    o->next_face = s->next_face;
    o->next_corner = s->next_corner;
    o->vertex_count = s->vertex_count;
    o->face_count = s->face_count;
    o->corner_count = s->corner_count;
    o->edge_count = s->edge_count;
    o->weight_count = s->weight_count;
    o->lock_count = s->lock_count;
    size_t lock_cap;
    bool ok = o->name &&
              copy_array((void **)&o->vertices, &o->vertex_cap, s->vertices, s->vertex_count,
                         sizeof(*s->vertices)) &&
              copy_array((void **)&o->faces, &o->face_cap, s->faces, s->face_count,
                         sizeof(*s->faces)) &&
              copy_array((void **)&o->corners, &o->corner_cap, s->corners, s->corner_count,
                         sizeof(*s->corners)) &&
              copy_array((void **)&o->edges, &o->edge_cap, s->edges, s->edge_count,
                         sizeof(*s->edges)) &&
              copy_array((void **)&o->weights, &o->weight_cap, s->weights, s->weight_count,
                         sizeof(*s->weights)) &&
              copy_array((void **)&o->locks, &lock_cap, s->locks, s->lock_count,
                         sizeof(*s->locks));
    if (!ok) {
        mdl_object_release(o);
        return NULL;
    }
    return o;
}

mdl_object *mdl_doc_edit_object(mdl_doc *d, const char *name, bool *nomem)
{
    *nomem = false;
    ptrdiff_t i = mdl_doc_find_object(d, name);
    if (i < 0)
        return NULL;
    mdl_object *o = d->objects[i];
    if (o->refs == 1) {
        o->touched = true;
        return o;
    }
    mdl_object *c = object_clone(o);
    if (!c) {
        *nomem = true;
        return NULL;
    }
    mdl_object_release(o);
    d->objects[i] = c;
    c->touched = true;
    return c;
}

static ptrdiff_t retired_index(const mdl_doc *d, const char *name)
{
    for (size_t i = 0; i < d->retired_count; i++)
        if (strcmp(d->retired[i].name, name) == 0)
            return (ptrdiff_t)i;
    return -1;
}

mdl_object *mdl_doc_add_object(mdl_doc *d, const char *name)
{
    bool found;
    size_t at = object_slot(d, name, &found);
    if (found)
        return NULL;
    if (!anim_grow((void **)&d->objects, &d->object_cap, d->object_count + 1,
                   sizeof(*d->objects)))
        return NULL;
    mdl_object *o = calloc(1, sizeof(*o));
    if (!o)
        return NULL;
    o->refs = 1;
    o->name = mdl_strdup(name);
    if (!o->name) {
        free(o);
        return NULL;
    }
    o->next_vertex = o->next_face = o->next_corner = 1;
    o->touched = true;
    ptrdiff_t r = retired_index(d, name);
    if (r >= 0) {
        o->next_vertex = d->retired[r].next_vertex;
        o->next_face = d->retired[r].next_face;
        o->next_corner = d->retired[r].next_corner;
        free(d->retired[r].name);
        memmove(&d->retired[r], &d->retired[r + 1],
                (d->retired_count - (size_t)r - 1) * sizeof(*d->retired));
        d->retired_count--;
    }
    memmove(&d->objects[at + 1], &d->objects[at], (d->object_count - at) * sizeof(*d->objects));
    d->objects[at] = o;
    d->object_count++;
    return o;
}

int mdl_doc_delete_object(mdl_doc *d, const char *name)
{
    ptrdiff_t i = mdl_doc_find_object(d, name);
    if (i < 0)
        return -1;
    mdl_object *o = d->objects[i];
    /* Retired counters stay sorted by name so the canonical encoding does
     * not depend on deletion order. */
    if (!anim_grow((void **)&d->retired, &d->retired_cap, d->retired_count + 1,
                   sizeof(*d->retired)))
        return -1;
    char *rname = mdl_strdup(name);
    if (!rname)
        return -1;
    size_t at = 0;
    while (at < d->retired_count && strcmp(d->retired[at].name, name) < 0)
        at++;
    memmove(&d->retired[at + 1], &d->retired[at], (d->retired_count - at) * sizeof(*d->retired));
    d->retired[at] = (mdl_retired){rname, o->next_vertex, o->next_face, o->next_corner};
    d->retired_count++;
    mdl_object_release(o);
    memmove(&d->objects[i], &d->objects[i + 1],
            (d->object_count - (size_t)i - 1) * sizeof(*d->objects));
    d->object_count--;
    return 0;
}

ptrdiff_t mdl_doc_find_clip(const mdl_doc *d, const char *name)
{
    size_t lo = 0, hi = d->clip_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(d->clips[mid]->name, name);
        if (c == 0)
            return (ptrdiff_t)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

int mdl_doc_put_clip(mdl_doc *d, mdl_clip *c)
{
    ptrdiff_t i = mdl_doc_find_clip(d, c->name);
    if (i >= 0) {
        mdl_clip_release(d->clips[i]);
        d->clips[i] = c;
        return 0;
    }
    if (!anim_grow((void **)&d->clips, &d->clip_cap, d->clip_count + 1, sizeof(*d->clips)))
        return -1;
    size_t at = 0;
    while (at < d->clip_count && strcmp(d->clips[at]->name, c->name) < 0)
        at++;
    memmove(&d->clips[at + 1], &d->clips[at], (d->clip_count - at) * sizeof(*d->clips));
    d->clips[at] = c;
    d->clip_count++;
    return 0;
}

int mdl_doc_delete_clip(mdl_doc *d, const char *name)
{
    ptrdiff_t i = mdl_doc_find_clip(d, name);
    if (i < 0)
        return -1;
    mdl_clip_release(d->clips[i]);
    memmove(&d->clips[i], &d->clips[i + 1], (d->clip_count - (size_t)i - 1) * sizeof(*d->clips));
    d->clip_count--;
    return 0;
}

mdl_texture *mdl_texture_new(uint32_t width, uint32_t height)
{
    size_t px, bytes;
    if (!width || !height || !anim_size_mul(width, height, &px) || !anim_size_mul(px, 3, &bytes))
        return NULL;
    mdl_texture *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->rgb = calloc(bytes, 1);
    if (!t->rgb) {
        free(t);
        return NULL;
    }
    t->refs = 1;
    t->width = width;
    t->height = height;
    return t;
}

mdl_texture *mdl_material_edit_texture(mdl_material *m)
{
    mdl_texture *t = m->texture;
    if (!t || t->refs == 1)
        return t;
    mdl_texture *c = mdl_texture_new(t->width, t->height);
    if (!c)
        return NULL;
    memcpy(c->rgb, t->rgb, (size_t)t->width * t->height * 3);
    mdl_texture_release(t);
    m->texture = c;
    return c;
}

int mdl_doc_set_joints(mdl_doc *d, const mdl_joint *joints, size_t count)
{
    mdl_joint *j;
    if (copy_joints(joints, count, &j))
        return -1;
    free_joints(d->joints, d->joint_count);
    d->joints = j;
    d->joint_count = count;
    return 0;
}

uint64_t mdl_doc_triangle_estimate(const mdl_doc *d)
{
    uint64_t n = 0;
    for (size_t i = 0; i < d->object_count; i++) {
        const mdl_object *o = d->objects[i];
        for (size_t f = 0; f < o->face_count; f++)
            n += o->faces[f].corner_count - 2;
    }
    return n;
}

uint64_t mdl_doc_memory_bytes(const mdl_doc *d)
{
    uint64_t n = sizeof(*d) + d->object_cap * sizeof(void *) + d->clip_cap * sizeof(void *);
    for (size_t i = 0; i < d->object_count; i++) {
        const mdl_object *o = d->objects[i];
        n += sizeof(*o) + strlen(o->name) + o->vertex_cap * sizeof(*o->vertices) +
             o->face_cap * sizeof(*o->faces) + o->corner_cap * sizeof(*o->corners) +
             o->edge_cap * sizeof(*o->edges) + o->weight_cap * sizeof(*o->weights);
    }
    for (size_t i = 0; i < MDL_MATERIAL_SLOTS; i++)
        if (d->materials[i].texture)
            n += (uint64_t)d->materials[i].texture->width * d->materials[i].texture->height * 3;
    n += d->joint_count * (sizeof(mdl_joint) + MDL_NAME_MAX);
    for (size_t i = 0; i < d->clip_count; i++) {
        const mdl_clip *c = d->clips[i];
        n += sizeof(*c) + c->channel_count * sizeof(*c->channels);
        for (size_t k = 0; k < c->channel_count; k++)
            n += c->channels[k].key_count * sizeof(mdl_key);
        for (size_t k = 0; k < c->event_count; k++)
            n += sizeof(mdl_event) + strlen(c->events[k].name) + c->events[k].payload_len;
        for (size_t k = 0; k < c->morph_track_count; k++)
            n += sizeof(mdl_morph_track) + c->morph_tracks[k].key_count * sizeof(mdl_morph_key);
    }
    for (size_t i = 0; i < d->pose_count; i++)
        n += sizeof(mdl_pose) + d->poses[i]->joint_count * sizeof(mdl_pose_joint);
    n += d->constraint_count * sizeof(mdl_constraint);
    for (size_t i = 0; i < d->morph_count; i++)
        n += sizeof(mdl_morph) + d->morphs[i]->delta_count * sizeof(mdl_morph_delta);
    return n;
}
