/* The rig and shape tables of a document version: named poses and morph
 * targets (refcounted entries shared between versions, like clips),
 * constraints (small records copied with the version), and the topology
 * signature a morph target pins. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/hash.h"
#include "animsmith/strbuf.h"
#include "core/grow.h"
#include "model/mdl_doc.h"

/* ---- name-sorted tables of mdl_named entries */

static size_t named_slot(void *const *items, size_t n, const char *name, bool *found)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(((const mdl_named *)items[mid])->name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < n && strcmp(((const mdl_named *)items[lo])->name, name) == 0;
    return lo;
}

static ptrdiff_t named_find(void *const *items, size_t n, const char *name)
{
    bool found;
    size_t i = named_slot(items, n, name, &found);
    return found ? (ptrdiff_t)i : -1;
}

static int named_put(void ***items, size_t *n, size_t *cap, void *entry, void (*release)(void *))
{
    bool found;
    size_t at = named_slot(*items, *n, ((mdl_named *)entry)->name, &found);
    if (found) {
        release((*items)[at]);
        (*items)[at] = entry;
        return 0;
    }
    if (!anim_grow((void **)items, cap, *n + 1, sizeof(void *))) {
        release(entry);
        return -1;
    }
    memmove(&(*items)[at + 1], &(*items)[at], (*n - at) * sizeof(void *));
    (*items)[at] = entry;
    (*n)++;
    return 0;
}

static int named_delete(void **items, size_t *n, const char *name, void (*release)(void *))
{
    ptrdiff_t i = named_find(items, *n, name);
    if (i < 0)
        return -1;
    release(items[i]);
    memmove(&items[i], &items[i + 1], (*n - (size_t)i - 1) * sizeof(void *));
    (*n)--;
    return 0;
}

/* ---- poses */

mdl_pose *mdl_pose_new(const char *name, size_t joint_count)
{
    mdl_pose *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->key.refs = 1;
    p->key.name = mdl_strdup(name);
    p->joints = joint_count ? calloc(joint_count, sizeof(*p->joints)) : NULL;
    if (!p->key.name || (joint_count && !p->joints)) {
        mdl_pose_release(p);
        return NULL;
    }
    p->joint_count = joint_count;
    return p;
}

void mdl_pose_release(mdl_pose *p)
{
    if (!p || --p->key.refs)
        return;
    free(p->key.name);
    free(p->joints);
    free(p);
}

static void pose_release(void *p)
{
    mdl_pose_release(p);
}

ptrdiff_t mdl_doc_find_pose(const mdl_doc *d, const char *name)
{
    return named_find((void *const *)d->poses, d->pose_count, name);
}

int mdl_doc_put_pose(mdl_doc *d, mdl_pose *p)
{
    return named_put((void ***)&d->poses, &d->pose_count, &d->pose_cap, p, pose_release);
}

int mdl_doc_delete_pose(mdl_doc *d, const char *name)
{
    return named_delete((void **)d->poses, &d->pose_count, name, pose_release);
}

/* ---- morph targets */

mdl_morph *mdl_morph_new(const char *name, const char *object, size_t delta_count)
{
    mdl_morph *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->key.refs = 1;
    m->key.name = mdl_strdup(name);
    m->object = mdl_strdup(object);
    m->deltas = delta_count ? calloc(delta_count, sizeof(*m->deltas)) : NULL;
    if (!m->key.name || !m->object || (delta_count && !m->deltas)) {
        mdl_morph_release(m);
        return NULL;
    }
    m->delta_count = delta_count;
    return m;
}

void mdl_morph_release(mdl_morph *m)
{
    if (!m || --m->key.refs)
        return;
    free(m->key.name);
    free(m->object);
    free(m->deltas);
    free(m);
}

static void morph_release(void *m)
{
    mdl_morph_release(m);
}

ptrdiff_t mdl_doc_find_morph(const mdl_doc *d, const char *name)
{
    return named_find((void *const *)d->morphs, d->morph_count, name);
}

int mdl_doc_put_morph(mdl_doc *d, mdl_morph *m)
{
    return named_put((void ***)&d->morphs, &d->morph_count, &d->morph_cap, m, morph_release);
}

int mdl_doc_delete_morph(mdl_doc *d, const char *name)
{
    return named_delete((void **)d->morphs, &d->morph_count, name, morph_release);
}

mdl_morph *mdl_doc_edit_morph(mdl_doc *d, size_t i)
{
    mdl_morph *m = d->morphs[i];
    if (m->key.refs == 1)
        return m;
    mdl_morph *c = mdl_morph_new(m->key.name, m->object, m->delta_count);
    if (!c)
        return NULL;
    memcpy(c->topology, m->topology, sizeof c->topology);
    if (m->delta_count)
        memcpy(c->deltas, m->deltas, m->delta_count * sizeof(*m->deltas));
    c->weight = m->weight;
    mdl_morph_release(m);
    d->morphs[i] = c;
    return c;
}

/* ---- constraints: plain records, the table copied with the version */

ptrdiff_t mdl_doc_find_constraint(const mdl_doc *d, const char *name)
{
    for (size_t i = 0; i < d->constraint_count; i++)
        if (strcmp(d->constraints[i].name, name) == 0)
            return (ptrdiff_t)i;
    return -1;
}

int mdl_doc_put_constraint(mdl_doc *d, const mdl_constraint *c)
{
    ptrdiff_t i = mdl_doc_find_constraint(d, c->name);
    if (i >= 0) {
        d->constraints[i] = *c;
        return 0;
    }
    if (!anim_grow((void **)&d->constraints, &d->constraint_cap, d->constraint_count + 1,
                   sizeof(*d->constraints)))
        return -1;
    size_t at = 0;
    while (at < d->constraint_count && strcmp(d->constraints[at].name, c->name) < 0)
        at++;
    memmove(&d->constraints[at + 1], &d->constraints[at],
            (d->constraint_count - at) * sizeof(*d->constraints));
    d->constraints[at] = *c;
    d->constraint_count++;
    return 0;
}

int mdl_doc_delete_constraint(mdl_doc *d, const char *name)
{
    ptrdiff_t i = mdl_doc_find_constraint(d, name);
    if (i < 0)
        return -1;
    memmove(&d->constraints[i], &d->constraints[i + 1],
            (d->constraint_count - (size_t)i - 1) * sizeof(*d->constraints));
    d->constraint_count--;
    return 0;
}

/* ---- topology signature and transforms */

static void put_u64(anim_strbuf *o, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    anim_strbuf_append(o, b, 8);
}

int mdl_object_topology(const mdl_object *o, uint8_t out[32])
{
    anim_strbuf buf = ANIM_STRBUF_INIT;
    put_u64(&buf, o->vertex_count);
    for (size_t i = 0; i < o->vertex_count; i++)
        put_u64(&buf, o->vertices[i].id);
    put_u64(&buf, o->face_count);
    for (size_t i = 0; i < o->face_count; i++) {
        const mdl_face *f = &o->faces[i];
        put_u64(&buf, f->id);
        put_u64(&buf, f->corner_count);
        for (uint32_t k = 0; k < f->corner_count; k++)
            put_u64(&buf, o->corners[f->corner_first + k].vertex);
    }
    int rc = buf.failed ? -1 : 0;
    if (rc == 0)
        anim_sha256(buf.data, buf.len, out);
    anim_strbuf_free(&buf);
    return rc;
}

void mdl_trs_identity(mdl_trs *t)
{
    memset(t, 0, sizeof *t);
    t->rotation[3] = 1;
    t->scale[0] = t->scale[1] = t->scale[2] = 1;
}

void mdl_joint_rest(const mdl_joint *j, mdl_trs *out)
{
    memcpy(out->translation, j->translation, sizeof out->translation);
    memcpy(out->rotation, j->rotation, sizeof out->rotation);
    memcpy(out->scale, j->scale, sizeof out->scale);
}
