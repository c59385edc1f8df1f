/* Decoding the canonical encoding (mdl_canon.c) back into a document: the
 * reader behind from_bytes and stored sources. Bytes come from files and
 * databases, so nothing is trusted: every count is checked against the
 * bytes that remain before anything is allocated, every reference and
 * ordering invariant the engine relies on (sorted unique names and ids,
 * corners naming existing vertices, joints and morph targets that exist)
 * is verified, numbers must be finite, and finally the document is
 * encoded again and must give back exactly the input, so there is one
 * byte string per content and a non-canonical input is refused. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_canon.h"
#include "model/mdl_decode.h"

typedef struct reader {
    const uint8_t *p;
    size_t len, pos;
    char *error;       /* the caller's buffer */
    size_t error_size;
    bool failed;
    uint64_t work, work_budget;
} reader;

static bool fail(reader *r, const char *fmt, ...)
{
    if (!r->failed) {
        va_list ap;
        va_start(ap, fmt);
        int n = snprintf(r->error, r->error_size, "at byte %zu: ", r->pos);
        if (n > 0 && (size_t)n < r->error_size)
            vsnprintf(r->error + n, r->error_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    r->failed = true;
    return false;
}

static bool take(reader *r, size_t n, const uint8_t **out)
{
    if (r->failed)
        return false;
    if (r->len - r->pos < n)
        return fail(r, "truncated: %zu more bytes expected", n);
    *out = r->p + r->pos;
    r->pos += n;
    return true;
}

static uint64_t get_le(reader *r, int bytes)
{
    const uint8_t *b = NULL;
    if (!take(r, (size_t)bytes, &b))
        return 0;
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static uint8_t get_u8(reader *r)
{
    return (uint8_t)get_le(r, 1);
}

static uint32_t get_u32(reader *r)
{
    return (uint32_t)get_le(r, 4);
}

static uint64_t get_u64(reader *r)
{
    return get_le(r, 8);
}

static double get_f64(reader *r, const char *what)
{
    uint64_t bits = get_u64(r);
    double v;
    memcpy(&v, &bits, sizeof v);
    if (!r->failed && !isfinite(v))
        fail(r, "%s is not a finite number", what);
    return v;
}

static void get_f64s(reader *r, double *v, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        v[i] = get_f64(r, what);
}

static bool get_bool(reader *r, const char *what)
{
    uint8_t b = get_u8(r);
    if (b > 1)
        fail(r, "%s is not 0 or 1", what);
    return b == 1;
}

/* A count of elements of at least min_bytes each, checked against what
 * remains (the allocation budget) and charged as work. */
static size_t get_count(reader *r, bool wide, size_t min_bytes, size_t max, const char *what)
{
    uint64_t n = wide ? get_u64(r) : get_u32(r);
    if (r->failed)
        return 0;
    if (n > max) {
        fail(r, "%s: %llu is more than %zu", what, (unsigned long long)n, max);
        return 0;
    }
    if (min_bytes && n > (r->len - r->pos) / min_bytes) {
        fail(r, "%s: %llu do not fit in the %zu bytes left", what, (unsigned long long)n,
             r->len - r->pos);
        return 0;
    }
    r->work += n;
    if (r->work > r->work_budget) {
        fail(r, "decoding needs more than the work budget (%llu units)",
             (unsigned long long)r->work_budget);
        return 0;
    }
    return (size_t)n;
}

/* A length-prefixed string; names (nonempty, <= MDL_NAME_MAX) when name. */
static char *get_string(reader *r, bool name, size_t max, uint32_t *len_out, const char *what)
{
    uint32_t n = get_u32(r);
    const uint8_t *b = NULL;
    if (r->failed)
        return NULL;
    if (n > max || (name && n == 0)) {
        fail(r, "%s: a length of %u bytes is out of range", what, n);
        return NULL;
    }
    if (!take(r, n, &b))
        return NULL;
    if (name && memchr(b, 0, n)) {
        fail(r, "%s contains a NUL byte", what);
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        fail(r, "out of memory");
        return NULL;
    }
    memcpy(s, b, n);
    s[n] = '\0';
    if (len_out)
        *len_out = n;
    return s;
}

static char *get_name(reader *r, const char *what)
{
    return get_string(r, true, MDL_NAME_MAX, NULL, what);
}

static bool sorted_after(reader *r, const char *prev, const char *name, const char *what)
{
    if (prev && strcmp(prev, name) >= 0)
        return fail(r, "%s \"%s\" is not after \"%s\" (names sorted, unique)", what, name, prev);
    return true;
}

static void *alloc_array(reader *r, size_t n, size_t elem)
{
    if (!n || r->failed)
        return NULL;
    void *p = calloc(n, elem);
    if (!p)
        fail(r, "out of memory");
    return p;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- objects */

static void get_faces(reader *r, mdl_object *o)
{
    o->face_count = get_count(r, true, 17, SIZE_MAX, "faces");
    o->faces = alloc_array(r, o->face_count, sizeof *o->faces);
    o->face_cap = o->face_count;
    size_t corner_cap = 0;
    for (size_t i = 0; i < o->face_count && !r->failed; i++) {
        mdl_face *f = &o->faces[i];
        f->id = get_u64(r);
        f->corner_count = get_u32(r);
        uint32_t material = get_u32(r);
        f->smooth = get_bool(r, "a face's smooth flag");
        if (r->failed)
            break;
        if (f->id == 0 || f->id >= o->next_face || (i && f->id <= o->faces[i - 1].id)) {
            fail(r, "object \"%s\" face %zu: id %llu out of order or range", o->name, i,
                 (unsigned long long)f->id);
            break;
        }
        if (f->corner_count < 3 || f->corner_count > MDL_FACE_CORNERS_MAX ||
            material >= MDL_MATERIAL_SLOTS) {
            fail(r, "object \"%s\" face \"%llu\": %u corners or material %u out of range",
                 o->name, (unsigned long long)f->id, f->corner_count, material);
            break;
        }
        f->material = (int32_t)material;
        /* Each corner is at least 33 bytes: check before growing. */
        if (f->corner_count > (r->len - r->pos) / 33) {
            fail(r, "object \"%s\" face \"%llu\": its corners do not fit", o->name,
                 (unsigned long long)f->id);
            break;
        }
        if (o->corner_count + f->corner_count > corner_cap) {
            size_t cap = corner_cap ? corner_cap * 2 : 64;
            while (cap < o->corner_count + f->corner_count)
                cap *= 2;
            mdl_corner *c = realloc(o->corners, cap * sizeof *c);
            if (!c) {
                fail(r, "out of memory");
                break;
            }
            o->corners = c;
            corner_cap = cap;
        }
        f->corner_first = (uint32_t)o->corner_count;
        for (uint32_t k = 0; k < f->corner_count && !r->failed; k++) {
            mdl_corner *c = &o->corners[o->corner_count++];
            memset(c, 0, sizeof *c);
            c->id = get_u64(r);
            c->vertex = get_u64(r);
            get_f64s(r, c->uv, 2, "a corner UV");
            c->has_normal = get_bool(r, "a corner's normal flag");
            if (c->has_normal)
                get_f64s(r, c->normal, 3, "a corner normal");
            if (r->failed)
                break;
            if (c->id == 0 || c->id >= o->next_corner || mdl_object_vertex_index(o, c->vertex) < 0)
                fail(r, "object \"%s\" face \"%llu\" corner %u: id %llu or vertex %llu invalid",
                     o->name, (unsigned long long)f->id, k, (unsigned long long)c->id,
                     (unsigned long long)c->vertex);
        }
        if (o->corner_count > UINT32_MAX - MDL_FACE_CORNERS_MAX)
            fail(r, "object \"%s\": too many corners", o->name);
    }
    o->corner_cap = corner_cap;
    if (r->failed || !o->corner_count)
        return;
    uint64_t *ids = malloc(o->corner_count * sizeof *ids);
    if (!ids) {
        fail(r, "out of memory");
        return;
    }
    for (size_t i = 0; i < o->corner_count; i++)
        ids[i] = o->corners[i].id;
    qsort(ids, o->corner_count, sizeof *ids, cmp_u64);
    for (size_t i = 1; i < o->corner_count; i++)
        if (ids[i] == ids[i - 1]) {
            fail(r, "object \"%s\": corner id %llu is used twice", o->name,
                 (unsigned long long)ids[i]);
            break;
        }
    free(ids);
}

static void get_object_rest(reader *r, mdl_object *o, size_t joint_limit)
{
    o->edge_count = get_count(r, true, 25, SIZE_MAX, "edge attributes");
    o->edges = alloc_array(r, o->edge_count, sizeof *o->edges);
    o->edge_cap = o->edge_count;
    for (size_t i = 0; i < o->edge_count && !r->failed; i++) {
        mdl_edge_attr *e = &o->edges[i];
        e->a = get_u64(r);
        e->b = get_u64(r);
        e->seam = get_bool(r, "an edge's seam flag");
        e->crease = get_f64(r, "an edge crease");
        if (r->failed)
            break;
        bool ordered = !i || e->a > o->edges[i - 1].a ||
                       (e->a == o->edges[i - 1].a && e->b > o->edges[i - 1].b);
        if (e->a >= e->b || !ordered || mdl_object_vertex_index(o, e->a) < 0 ||
            mdl_object_vertex_index(o, e->b) < 0 || e->crease < 0 || e->crease > 1 ||
            (!e->seam && e->crease == 0))
            fail(r, "object \"%s\" edge attribute %zu is invalid or out of order", o->name, i);
    }
    o->weight_count = get_count(r, true, 20, SIZE_MAX, "weights");
    o->weights = alloc_array(r, o->weight_count, sizeof *o->weights);
    o->weight_cap = o->weight_count;
    for (size_t i = 0; i < o->weight_count && !r->failed; i++) {
        mdl_weight *w = &o->weights[i];
        w->vertex = get_u64(r);
        w->joint = get_u32(r);
        w->weight = get_f64(r, "a weight");
        if (r->failed)
            break;
        bool ordered = !i || w->vertex > o->weights[i - 1].vertex ||
                       (w->vertex == o->weights[i - 1].vertex && w->joint > o->weights[i - 1].joint);
        if (!ordered || w->joint >= joint_limit || mdl_object_vertex_index(o, w->vertex) < 0)
            fail(r, "object \"%s\" weight %zu (vertex %llu, joint %u) is invalid or out of order",
                 o->name, i, (unsigned long long)w->vertex, w->joint);
    }
    o->lock_count = get_count(r, false, 4, MDL_JOINTS_MAX, "weight locks");
    o->locks = alloc_array(r, o->lock_count, sizeof *o->locks);
    for (size_t i = 0; i < o->lock_count && !r->failed; i++) {
        o->locks[i] = get_u32(r);
        if (!r->failed && (o->locks[i] >= joint_limit || (i && o->locks[i] <= o->locks[i - 1])))
            fail(r, "object \"%s\" weight lock %zu (joint %u) is invalid or out of order",
                 o->name, i, o->locks[i]);
    }
}

/* Objects come before the skeleton in the encoding, so joint references
 * are checked against the bound and again once the skeleton is read. */
static mdl_object *get_object(reader *r)
{
    mdl_object *o = calloc(1, sizeof *o);
    if (!o) {
        fail(r, "out of memory");
        return NULL;
    }
    o->refs = 1;
    o->name = get_name(r, "an object name");
    o->next_vertex = get_u64(r);
    o->next_face = get_u64(r);
    o->next_corner = get_u64(r);
    if (!r->failed && (!o->next_vertex || !o->next_face || !o->next_corner))
        fail(r, "object \"%s\": an id counter is 0", o->name);
    o->vertex_count = get_count(r, true, 32, SIZE_MAX, "vertices");
    o->vertices = alloc_array(r, o->vertex_count, sizeof *o->vertices);
    o->vertex_cap = o->vertex_count;
    for (size_t i = 0; i < o->vertex_count && !r->failed; i++) {
        o->vertices[i].id = get_u64(r);
        get_f64s(r, o->vertices[i].p, 3, "a vertex position");
        uint64_t id = o->vertices[i].id;
        if (!r->failed && (id == 0 || id >= o->next_vertex || (i && id <= o->vertices[i - 1].id)))
            fail(r, "object \"%s\" vertex %zu: id %llu out of order or range", o->name, i,
                 (unsigned long long)id);
    }
    if (!r->failed)
        get_faces(r, o);
    if (!r->failed)
        get_object_rest(r, o, MDL_JOINTS_MAX);
    return o;
}

/* ---- materials, skeleton, clips */

static void get_materials(reader *r, mdl_doc *d)
{
    size_t n = get_count(r, false, 29, MDL_MATERIAL_SLOTS, "materials");
    int prev = -1;
    for (size_t i = 0; i < n && !r->failed; i++) {
        uint32_t slot = get_u32(r);
        if (r->failed)
            break;
        if (slot >= MDL_MATERIAL_SLOTS || (int)slot <= prev) {
            fail(r, "material ordinal %u out of order or range", slot);
            break;
        }
        prev = (int)slot;
        mdl_material *m = &d->materials[slot];
        m->defined = true;
        get_f64s(r, m->color, 3, "a material colour");
        if (!get_bool(r, "a material's texture flag") || r->failed)
            continue;
        uint32_t w = get_u32(r), h = get_u32(r);
        const uint8_t *px = NULL;
        if (r->failed)
            break;
        if (!w || !h || w > MDL_TEXTURE_SIDE_MAX || h > MDL_TEXTURE_SIDE_MAX) {
            fail(r, "material %u: texture size %ux%u out of range", slot, w, h);
            break;
        }
        if (!take(r, (size_t)w * h * 3, &px))
            break;
        m->texture = mdl_texture_new(w, h);
        if (!m->texture) {
            fail(r, "out of memory");
            break;
        }
        memcpy(m->texture->rgb, px, (size_t)w * h * 3);
    }
}

static void get_skeleton(reader *r, mdl_doc *d)
{
    size_t n = get_count(r, false, 88, MDL_JOINTS_MAX, "joints");
    d->joints = alloc_array(r, n, sizeof *d->joints);
    for (size_t i = 0; i < n && !r->failed; i++) {
        mdl_joint *j = &d->joints[i];
        j->name = get_name(r, "a joint name");
        d->joint_count = i + 1;
        uint32_t parent = get_u32(r);
        get_f64s(r, j->translation, 3, "a joint translation");
        get_f64s(r, j->rotation, 4, "a joint rotation");
        get_f64s(r, j->scale, 3, "a joint scale");
        if (r->failed)
            break;
        j->parent = (int32_t)parent;
        bool root_ok = i == 0 ? j->parent == MDL_NO_PARENT : j->parent >= 0 && (size_t)j->parent < i;
        if (!root_ok)
            fail(r, "joint %zu (\"%s\"): parent %d must precede it (joint 0 alone is the root)", i,
                 j->name, j->parent);
        for (size_t k = 0; k < i && !r->failed; k++)
            if (strcmp(d->joints[k].name, j->name) == 0)
                fail(r, "joint %zu: name \"%s\" is already joint %zu", i, j->name, k);
    }
}

static void get_clip_options(reader *r, mdl_clip *c)
{
    c->has_options = get_bool(r, "a clip's options flag");
    if (!c->has_options || r->failed)
        return;
    uint8_t interp = get_u8(r);
    if (!r->failed && interp > MDL_INTERP_CUBIC)
        fail(r, "clip \"%s\": interpolation %u is unknown", c->name, interp);
    c->interpolation = (mdl_interp)interp;
    c->root_motion = get_bool(r, "a clip's root-motion flag");
    c->event_count = get_count(r, false, 17, MDL_EVENTS_MAX, "clip events");
    c->events = alloc_array(r, c->event_count, sizeof *c->events);
    for (size_t i = 0; i < c->event_count && !r->failed; i++) {
        mdl_event *e = &c->events[i];
        e->time = get_f64(r, "an event time");
        e->name = get_name(r, "an event name");
        e->payload = get_string(r, false, MDL_EVENT_PAYLOAD_MAX, &e->payload_len, "an event payload");
        if (!r->failed && (e->time < 0 || (i && e->time < c->events[i - 1].time)))
            fail(r, "clip \"%s\" event %zu: time out of order", c->name, i);
    }
    c->morph_track_count = get_count(r, false, 13, MDL_MORPHS_MAX, "morph tracks");
    c->morph_tracks = alloc_array(r, c->morph_track_count, sizeof *c->morph_tracks);
    for (size_t i = 0; i < c->morph_track_count && !r->failed; i++) {
        mdl_morph_track *t = &c->morph_tracks[i];
        t->morph = get_name(r, "a morph track's target");
        if (r->failed || !sorted_after(r, i ? c->morph_tracks[i - 1].morph : NULL, t->morph,
                                       "morph track"))
            break;
        t->key_count = get_count(r, true, 16, MDL_CLIP_KEYS_MAX, "morph keys");
        t->keys = alloc_array(r, t->key_count, sizeof *t->keys);
        for (size_t k = 0; k < t->key_count && !r->failed; k++) {
            t->keys[k].time = get_f64(r, "a morph key time");
            t->keys[k].weight = get_f64(r, "a morph key weight");
            if (!r->failed && (t->keys[k].time < 0 || (k && t->keys[k].time <= t->keys[k - 1].time) ||
                               fabs(t->keys[k].weight) > 2))
                fail(r, "clip \"%s\" morph track \"%s\" key %zu is out of order or range",
                     c->name, t->morph, k);
        }
    }
}

static mdl_clip *get_clip(reader *r, const mdl_doc *d)
{
    mdl_clip *c = calloc(1, sizeof *c);
    if (!c) {
        fail(r, "out of memory");
        return NULL;
    }
    c->refs = 1;
    c->name = get_name(r, "a clip name");
    size_t n = get_count(r, false, 13, MDL_CLIP_CHANNELS_MAX, "clip channels");
    c->channels = alloc_array(r, n, sizeof *c->channels);
    for (size_t i = 0; i < n && !r->failed; i++) {
        mdl_channel *ch = &c->channels[i];
        c->channel_count = i + 1;
        ch->joint = get_u32(r);
        uint8_t path = get_u8(r);
        ch->path = (mdl_path)path;
        if (!r->failed && (ch->joint >= d->joint_count || path > MDL_PATH_SCALE)) {
            fail(r, "clip \"%s\" channel %zu: joint %u or path %u invalid", c->name, i, ch->joint,
                 path);
            break;
        }
        for (size_t k = 0; k < i && !r->failed; k++)
            if (c->channels[k].joint == ch->joint && c->channels[k].path == ch->path)
                fail(r, "clip \"%s\" channel %zu repeats channel %zu", c->name, i, k);
        ch->key_count = get_count(r, true, 40, MDL_CLIP_KEYS_MAX, "keys");
        if (!r->failed && !ch->key_count)
            fail(r, "clip \"%s\" channel %zu has no keys", c->name, i);
        ch->keys = alloc_array(r, ch->key_count, sizeof *ch->keys);
        for (size_t k = 0; k < ch->key_count && !r->failed; k++) {
            ch->keys[k].time = get_f64(r, "a key time");
            get_f64s(r, ch->keys[k].value, 4, "a key value");
            if (!r->failed && (ch->keys[k].time < 0 || (k && ch->keys[k].time <= ch->keys[k - 1].time)))
                fail(r, "clip \"%s\" channel %zu key %zu: time out of order", c->name, i, k);
        }
    }
    if (!r->failed && !c->channel_count)
        fail(r, "clip \"%s\" has no channels", c->name);
    if (!r->failed)
        get_clip_options(r, c);
    return c;
}

/* ---- poses, constraints, morph targets */

static void get_trs(reader *r, mdl_trs *t)
{
    get_f64s(r, t->translation, 3, "a pose translation");
    get_f64s(r, t->rotation, 4, "a pose rotation");
    get_f64s(r, t->scale, 3, "a pose scale");
}

static void get_poses(reader *r, mdl_doc *d)
{
    size_t n = get_count(r, false, 8, MDL_POSES_MAX, "poses");
    for (size_t i = 0; i < n && !r->failed; i++) {
        char *name = get_name(r, "a pose name");
        size_t joints = get_count(r, false, 84, MDL_JOINTS_MAX, "pose joints");
        if (r->failed || !sorted_after(r, i ? d->poses[i - 1]->key.name : NULL, name, "pose")) {
            free(name);
            break;
        }
        mdl_pose *p = mdl_pose_new(name, joints);
        free(name);
        if (!p || mdl_doc_put_pose(d, p) != 0) {
            fail(r, "out of memory");
            break;
        }
        for (size_t k = 0; k < joints && !r->failed; k++) {
            p->joints[k].joint = get_u32(r);
            get_trs(r, &p->joints[k].local);
            if (!r->failed && (p->joints[k].joint >= d->joint_count ||
                               (k && p->joints[k].joint <= p->joints[k - 1].joint)))
                fail(r, "pose \"%s\" row %zu: joint %u invalid or out of order", p->key.name, k,
                     p->joints[k].joint);
        }
    }
}

static void get_constraints(reader *r, mdl_doc *d)
{
    size_t n = get_count(r, false, 10, MDL_CONSTRAINTS_MAX, "constraints");
    d->constraints = alloc_array(r, n, sizeof *d->constraints);
    d->constraint_cap = n;
    for (size_t i = 0; i < n && !r->failed; i++) {
        mdl_constraint *c = &d->constraints[i];
        char *name = get_name(r, "a constraint name");
        if (r->failed)
            break;
        memcpy(c->name, name, strlen(name) + 1);
        free(name);
        d->constraint_count = i + 1;
        if (!sorted_after(r, i ? d->constraints[i - 1].name : NULL, c->name, "constraint"))
            break;
        c->joint = get_u32(r);
        c->enabled = get_bool(r, "a constraint's enabled flag");
        uint8_t type = get_u8(r);
        c->type = (mdl_constraint_type)type;
        uint8_t copy;
        switch (type) {
        case MDL_CONSTRAINT_COPY:
            c->target = get_u32(r);
            copy = get_u8(r);
            if (copy > 7)
                fail(r, "constraint \"%s\": copy flags %u invalid", c->name, copy);
            c->copy_translation = copy & 1;
            c->copy_rotation = (copy >> 1) & 1;
            c->copy_scale = (copy >> 2) & 1;
            c->influence = get_f64(r, "an influence");
            break;
        case MDL_CONSTRAINT_AIM:
            c->target = get_u32(r);
            get_f64s(r, c->axis, 3, "an aim axis");
            c->influence = get_f64(r, "an influence");
            break;
        case MDL_CONSTRAINT_LIMIT:
            get_f64s(r, c->min_translation, 3, "a limit");
            get_f64s(r, c->max_translation, 3, "a limit");
            get_f64s(r, c->min_scale, 3, "a limit");
            get_f64s(r, c->max_scale, 3, "a limit");
            c->max_angle = get_f64(r, "a limit angle");
            break;
        case MDL_CONSTRAINT_IK:
            c->middle = get_u32(r);
            c->end = get_u32(r);
            c->target = get_u32(r);
            get_f64s(r, c->pole, 3, "an ik pole");
            c->clamp_reach = get_bool(r, "an ik clamp flag");
            break;
        default:
            fail(r, "constraint \"%s\": type %u is unknown", c->name, type);
        }
        uint32_t j = d->joint_count > 0 ? (uint32_t)d->joint_count : 0;
        if (!r->failed && (c->joint >= j || c->target >= j || c->middle >= j || c->end >= j))
            fail(r, "constraint \"%s\" names a joint the skeleton lacks", c->name);
    }
}

static void get_morphs(reader *r, mdl_doc *d)
{
    size_t n = get_count(r, false, 56, MDL_MORPHS_MAX, "morph targets");
    for (size_t i = 0; i < n && !r->failed; i++) {
        char *name = get_name(r, "a morph target name");
        char *object = get_name(r, "a morph target's object");
        const uint8_t *sig = NULL;
        take(r, 32, &sig);
        double weight = get_f64(r, "a morph weight");
        size_t deltas = get_count(r, true, 32, SIZE_MAX, "morph deltas");
        mdl_morph *m = NULL;
        if (!r->failed && sorted_after(r, i ? d->morphs[i - 1]->key.name : NULL, name, "morph"))
            m = mdl_morph_new(name, object, deltas);
        free(name);
        free(object);
        if (r->failed)
            break;
        if (!m || mdl_doc_put_morph(d, m) != 0) {
            fail(r, "out of memory");
            break;
        }
        memcpy(m->topology, sig, 32);
        m->weight = weight;
        ptrdiff_t oi = mdl_doc_find_object(d, m->object);
        if (oi < 0 || fabs(weight) > 2) {
            fail(r, "morph target \"%s\": object \"%s\" missing or weight out of range",
                 m->key.name, m->object);
            break;
        }
        const mdl_object *o = d->objects[oi];
        for (size_t k = 0; k < deltas && !r->failed; k++) {
            m->deltas[k].vertex = get_u64(r);
            get_f64s(r, m->deltas[k].delta, 3, "a morph delta");
            if (!r->failed && ((k && m->deltas[k].vertex <= m->deltas[k - 1].vertex) ||
                               mdl_object_vertex_index(o, m->deltas[k].vertex) < 0))
                fail(r, "morph target \"%s\" delta %zu: vertex %llu invalid or out of order",
                     m->key.name, k, (unsigned long long)m->deltas[k].vertex);
        }
        uint8_t now[32];
        if (!r->failed && (mdl_object_topology(o, now) || memcmp(now, m->topology, 32) != 0))
            fail(r, "morph target \"%s\" pins a topology object \"%s\" does not have",
                 m->key.name, m->object);
    }
}

/* References that point forward in the encoding: weights and locks to
 * joints, morph tracks to targets. */
static void check_late_references(reader *r, const mdl_doc *d)
{
    for (size_t i = 0; i < d->object_count && !r->failed; i++) {
        const mdl_object *o = d->objects[i];
        for (size_t k = 0; k < o->weight_count && !r->failed; k++)
            if (o->weights[k].joint >= d->joint_count)
                fail(r, "object \"%s\": vertex %llu is weighted to joint %u, past the skeleton",
                     o->name, (unsigned long long)o->weights[k].vertex, o->weights[k].joint);
        for (size_t k = 0; k < o->lock_count && !r->failed; k++)
            if (o->locks[k] >= d->joint_count)
                fail(r, "object \"%s\": locked joint %u is past the skeleton", o->name,
                     o->locks[k]);
    }
    for (size_t i = 0; i < d->clip_count && !r->failed; i++) {
        const mdl_clip *c = d->clips[i];
        for (size_t k = 0; k < c->morph_track_count && !r->failed; k++)
            if (mdl_doc_find_morph(d, c->morph_tracks[k].morph) < 0)
                fail(r, "clip \"%s\" keys morph target \"%s\", which does not exist", c->name,
                     c->morph_tracks[k].morph);
    }
}

static bool put_clip_sorted(reader *r, mdl_doc *d, mdl_clip *c)
{
    if (d->clip_count && !sorted_after(r, d->clips[d->clip_count - 1]->name, c->name, "clip"))
        return false;
    if (mdl_doc_put_clip(d, c) != 0)
        return fail(r, "out of memory");
    return true;
}

mdl_doc *mdl_decode(const void *bytes, size_t len, uint64_t work_budget, char *error,
                    size_t error_size)
{
    reader r = {.p = bytes, .len = len, .error = error, .error_size = error_size,
                .work_budget = work_budget};
    if (error_size)
        error[0] = '\0';
    const uint8_t *magic = NULL;
    if (!take(&r, 4, &magic) || memcmp(magic, "AMDL", 4) != 0) {
        fail(&r, "not a model source (no AMDL signature)");
        return NULL;
    }
    uint32_t version = get_u32(&r);
    if (!r.failed && version != MDL_CANON_VERSION) {
        fail(&r, "source format version %u is not supported (this build reads %u)", version,
             MDL_CANON_VERSION);
        return NULL;
    }
    mdl_doc *d = mdl_doc_new();
    if (!d) {
        fail(&r, "out of memory");
        return NULL;
    }
    size_t n = get_count(&r, false, 65, SIZE_MAX, "objects");
    for (size_t i = 0; i < n && !r.failed; i++) {
        mdl_object *o = get_object(&r);
        if (!o)
            break;
        bool ok = !r.failed && sorted_after(&r, d->object_count ?
                                                    d->objects[d->object_count - 1]->name : NULL,
                                            o->name, "object");
        mdl_object *slot = ok ? mdl_doc_add_object(d, o->name) : NULL;
        if (slot) {
            /* Move the decoded arrays into the table's fresh object. */
            char *keep = slot->name;
            *slot = *o;
            slot->name = keep;
            slot->touched = false;
            free(o->name);
            free(o);
        } else {
            if (ok)
                fail(&r, "out of memory");
            mdl_object_release(o);
        }
    }
    if (!r.failed)
        get_materials(&r, d);
    if (!r.failed)
        get_skeleton(&r, d);
    size_t clips = r.failed ? 0 : get_count(&r, false, 9, MDL_CLIPS_MAX, "clips");
    for (size_t i = 0; i < clips && !r.failed; i++) {
        mdl_clip *c = get_clip(&r, d);
        if (!c)
            break;
        if (r.failed || !put_clip_sorted(&r, d, c))
            mdl_clip_release(c);
    }
    size_t retired = r.failed ? 0 : get_count(&r, false, 28, SIZE_MAX, "retired counters");
    if (retired) {
        d->retired = alloc_array(&r, retired, sizeof *d->retired);
        d->retired_cap = retired;
    }
    for (size_t i = 0; i < retired && !r.failed; i++) {
        mdl_retired *t = &d->retired[i];
        t->name = get_name(&r, "a retired object name");
        d->retired_count = i + 1;
        t->next_vertex = get_u64(&r);
        t->next_face = get_u64(&r);
        t->next_corner = get_u64(&r);
        if (!r.failed)
            sorted_after(&r, i ? d->retired[i - 1].name : NULL, t->name, "retired object");
        if (!r.failed && mdl_doc_find_object(d, t->name) >= 0)
            fail(&r, "retired object \"%s\" is also a live object", t->name);
    }
    if (!r.failed)
        get_poses(&r, d);
    if (!r.failed)
        get_constraints(&r, d);
    if (!r.failed)
        get_morphs(&r, d);
    if (!r.failed)
        check_late_references(&r, d);
    if (!r.failed && r.pos != r.len)
        fail(&r, "%zu bytes follow the end of the source", r.len - r.pos);
    if (!r.failed) {
        /* Canonical: re-encoding must give the input back byte for byte. */
        anim_strbuf again = ANIM_STRBUF_INIT;
        if (mdl_canon_encode(d, &again) != 0)
            fail(&r, "out of memory");
        else if (again.len != len || memcmp(again.data, bytes, len) != 0)
            fail(&r, "the source is not in canonical form");
        anim_strbuf_free(&again);
    }
    if (r.failed) {
        mdl_doc_free(d);
        return NULL;
    }
    return d;
}
