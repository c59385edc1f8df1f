/* The writer's output tree (gltf_out.h). */
#include "io/gltf/gltf_out.h"

#include <stdlib.h>
#include <string.h>

static gout *make(gout_builder *b, gout_type type)
{
    gout *v = anim_arena_calloc(b->arena, 1, sizeof *v);
    if (!v) {
        b->failed = true;
        return NULL;
    }
    v->type = type;
    return v;
}

gout *gout_object(gout_builder *b) { return make(b, GOUT_OBJECT); }
gout *gout_array(gout_builder *b) { return make(b, GOUT_ARRAY); }

gout *gout_uint(gout_builder *b, uint64_t u)
{
    gout *v = make(b, GOUT_UINT);
    if (v)
        v->v.u = u;
    return v;
}

gout *gout_f64(gout_builder *b, double f)
{
    gout *v = make(b, GOUT_F64);
    if (v)
        v->v.f = f;
    return v;
}

gout *gout_bool(gout_builder *b, bool flag)
{
    gout *v = make(b, GOUT_BOOL);
    if (v)
        v->v.b = flag;
    return v;
}

gout *gout_string_n(gout_builder *b, const char *s, size_t len)
{
    gout *v = make(b, GOUT_STRING);
    if (v) {
        v->v.str.s = s;
        v->v.str.len = len;
    }
    return v;
}

gout *gout_string(gout_builder *b, const char *s)
{
    return gout_string_n(b, s, strlen(s));
}

/* Grows a container's slot array by doubling; slots are pointers or
 * members, so the old block is simply abandoned to the arena. */
static bool grow(gout_builder *b, gout *c, size_t slot)
{
    if (c->count < c->cap)
        return true;
    uint32_t cap = c->cap ? c->cap * 2 : 4;
    if (cap < c->cap) {
        b->failed = true;
        return false;
    }
    void *old = c->type == GOUT_ARRAY ? (void *)c->v.items : (void *)c->v.members;
    void *fresh = anim_arena_calloc(b->arena, cap, slot);
    if (!fresh) {
        b->failed = true;
        return false;
    }
    if (c->count)
        memcpy(fresh, old, (size_t)c->count * slot);
    if (c->type == GOUT_ARRAY)
        c->v.items = fresh;
    else
        c->v.members = fresh;
    c->cap = cap;
    return true;
}

void gout_push(gout_builder *b, gout *arr, gout *value)
{
    if (!arr || !value || arr->type != GOUT_ARRAY) {
        b->failed = true;
        return;
    }
    if (grow(b, arr, sizeof(gout *)))
        arr->v.items[arr->count++] = value;
}

static gout_member *find(const gout *obj, const char *key, size_t len)
{
    for (uint32_t i = 0; i < obj->count; i++)
        if (obj->v.members[i].key_len == len && memcmp(obj->v.members[i].key, key, len) == 0)
            return &obj->v.members[i];
    return NULL;
}

static void set_n(gout_builder *b, gout *obj, const char *key, size_t len, gout *value)
{
    if (!obj || !value || obj->type != GOUT_OBJECT) {
        b->failed = true;
        return;
    }
    gout_member *m = find(obj, key, len);
    if (m) {
        m->value = value;
        return;
    }
    if (grow(b, obj, sizeof(gout_member)))
        obj->v.members[obj->count++] = (gout_member){key, len, value};
}

void gout_set(gout_builder *b, gout *obj, const char *key, gout *value)
{
    set_n(b, obj, key, strlen(key), value);
}

void gout_remove(gout *obj, const char *key)
{
    if (!obj || obj->type != GOUT_OBJECT)
        return;
    gout_member *m = find(obj, key, strlen(key));
    if (!m)
        return;
    size_t at = (size_t)(m - obj->v.members);
    memmove(m, m + 1, (obj->count - at - 1) * sizeof *m);
    obj->count--;
}

gout *gout_get(const gout *obj, const char *key)
{
    if (!obj || obj->type != GOUT_OBJECT)
        return NULL;
    gout_member *m = find(obj, key, strlen(key));
    return m ? m->value : NULL;
}

static gout *copy_depth(gout_builder *b, const anim_json_value *v, int depth)
{
    if (depth > GOUT_MAX_COPY_DEPTH) {
        b->failed = true;
        return NULL;
    }
    switch (v->type) {
    case ANIM_JSON_NULL: return make(b, GOUT_NULL);
    case ANIM_JSON_FALSE: return gout_bool(b, false);
    case ANIM_JSON_TRUE: return gout_bool(b, true);
    case ANIM_JSON_STRING: return gout_string_n(b, anim_json_string(v), anim_json_string_len(v));
    case ANIM_JSON_NUMBER:
        if (anim_json_is_integer(v) && !(v->flags & ANIM_JSON_F_NEG_ZERO)) {
            gout *n = make(b, GOUT_INT);
            if (n)
                n->v.i = anim_json_integer(v);
            return n;
        }
        return gout_f64(b, anim_json_number(v));
    case ANIM_JSON_ARRAY: {
        gout *arr = gout_array(b);
        for (size_t i = 0; arr && i < anim_json_count(v); i++)
            gout_push(b, arr, copy_depth(b, anim_json_item(v, i), depth + 1));
        return arr;
    }
    default: {
        gout *obj = gout_object(b);
        for (size_t i = 0; obj && i < anim_json_count(v); i++) {
            /* The reader refuses duplicate keys, so members append
             * without the lookup gout_set does (large extras stay linear). */
            const anim_json_member *m = anim_json_member_at(v, i);
            gout *value = copy_depth(b, &m->value, depth + 1);
            if (!value) {
                b->failed = true;
                break;
            }
            if (grow(b, obj, sizeof(gout_member)))
                obj->v.members[obj->count++] =
                    (gout_member){m->key, anim_json_key_len(m), value};
        }
        return obj;
    }
    }
}

gout *gout_copy(gout_builder *b, const anim_json_value *v)
{
    return copy_depth(b, v, 0);
}

static int member_cmp(const void *pa, const void *pb)
{
    const gout_member *a = *(const gout_member *const *)pa, *b = *(const gout_member *const *)pb;
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);
    if (c)
        return c;
    return a->key_len < b->key_len ? -1 : a->key_len > b->key_len;
}

static int member_value_cmp(const void *pa, const void *pb)
{
    const gout_member *a = pa, *b = pb;
    return member_cmp(&a, &b);
}

void gout_sort_members(gout *obj)
{
    if (obj && obj->type == GOUT_OBJECT && obj->count > 1)
        qsort(obj->v.members, obj->count, sizeof *obj->v.members, member_value_cmp);
}

static bool write_value(anim_json_writer *w, const gout *v)
{
    switch (v->type) {
    case GOUT_NULL: anim_json_writer_null(w); return true;
    case GOUT_BOOL: anim_json_writer_bool(w, v->v.b); return true;
    case GOUT_INT: anim_json_writer_int(w, v->v.i); return true;
    case GOUT_UINT: anim_json_writer_uint(w, v->v.u); return true;
    case GOUT_F64: anim_json_writer_f64(w, v->v.f); return true;
    case GOUT_STRING: anim_json_writer_string_n(w, v->v.str.s, v->v.str.len); return true;
    case GOUT_ARRAY:
        anim_json_writer_begin_array(w);
        for (uint32_t i = 0; i < v->count; i++)
            if (!write_value(w, v->v.items[i]))
                return false;
        anim_json_writer_end_array(w);
        return true;
    default: {
        const gout_member **order = NULL;
        if (v->count) {
            order = malloc((size_t)v->count * sizeof *order);
            if (!order) {
                w->out->failed = true;
                return false;
            }
            for (uint32_t i = 0; i < v->count; i++)
                order[i] = &v->v.members[i];
            qsort(order, v->count, sizeof *order, member_cmp);
        }
        bool ok = true;
        anim_json_writer_begin_object(w);
        for (uint32_t i = 0; ok && i < v->count; i++) {
            anim_json_writer_key_n(w, order[i]->key, order[i]->key_len);
            ok = write_value(w, order[i]->value);
        }
        anim_json_writer_end_object(w);
        free(order);
        return ok;
    }
    }
}

bool gout_write(anim_json_writer *w, const gout *v)
{
    return write_value(w, v) && !w->misuse;
}
