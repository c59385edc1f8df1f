/* A repair is lossless only if the bytes it writes belong to the repaired
 * track alone. glTF lets accessors share bytes (two accessors viewing one
 * range, a mesh attribute aliasing animation data), and writing such bytes
 * would change motion, or geometry, nobody asked to change. So a track
 * whose output elements intersect any other accessor's elements, a sparse
 * section, or a buffer view no accessor reads (images, extension data) is
 * skipped with a reason naming the other user. */
#include <stdio.h>

#include "repair/fix_internal.h"

/* Elements of one accessor inside a buffer: count runs of size bytes,
 * stride apart, from start. */
typedef struct elements {
    uint32_t buffer;
    size_t start, stride, size;
    uint64_t count;
} elements;

static size_t end_of(const elements *e)
{
    return e->count ? e->start + (size_t)(e->count - 1) * e->stride + e->size : e->start;
}

/* Whether any element of a meets any element of b. Both runs ascend, so a
 * merge walk is linear in their counts. */
static bool intersects(const elements *a, const elements *b)
{
    if (a->buffer != b->buffer || !a->count || !b->count || end_of(a) <= b->start ||
        end_of(b) <= a->start)
        return false;
    uint64_t i = 0, j = 0;
    while (i < a->count && j < b->count) {
        size_t as = a->start + (size_t)i * a->stride, bs = b->start + (size_t)j * b->stride;
        if (as + a->size <= bs)
            i++;
        else if (bs + b->size <= as)
            j++;
        else
            return true;
    }
    return false;
}

/* An accessor's elements; false when it reads no bytes of a buffer the
 * fix can patch (or its layout overflows, which the loader refuses). */
static bool accessor_elements(const anim_source *src, const anim_accessor *acc, elements *e)
{
    if (acc->buffer_view == ANIM_NONE || acc->buffer_view >= src->view_count)
        return false;
    const anim_buffer_view *v = &src->views[acc->buffer_view];
    size_t size = anim_gltf_component_size(acc->component_type) * acc->components;
    if (!size || v->byte_offset > SIZE_MAX / 2 || acc->byte_offset > SIZE_MAX / 2)
        return false;
    *e = (elements){v->buffer, v->byte_offset + acc->byte_offset,
                    v->byte_stride ? v->byte_stride : size, size, acc->count};
    return true;
}

static bool sparse_part(const anim_source *src, uint32_t view, size_t offset, size_t size,
                        uint64_t count, elements *e)
{
    if (view == ANIM_NONE || view >= src->view_count || !size)
        return false;
    const anim_buffer_view *v = &src->views[view];
    *e = (elements){v->buffer, v->byte_offset + offset, size, size, count};
    return true;
}

/* Who reads accessor a, for the message: a track, a mesh or a skin. */
static const char *user_of(anim_fix *fix, uint32_t a)
{
    const anim_doc *doc = &fix->asset->doc;
    for (uint32_t c = 0; c < doc->clip_count; c++)
        for (uint32_t t = 0; t < doc->clips[c].track_count; t++) {
            const anim_track *tr = &doc->clips[c].tracks[t];
            if (tr->input_accessor != a && tr->output_accessor != a)
                continue;
            const anim_bone *bone = &doc->bones[tr->bone];
            return anim_arena_printf(
                fix->arena, " (clip '%s' bone '%s' %s %s)",
                doc->clips[c].has_name ? doc->clips[c].base_name : "<unnamed>",
                bone->has_name ? bone->name : "<unnamed>", anim_path_name(tr->path),
                tr->input_accessor == a ? "times" : "values");
        }
    for (uint32_t m = 0; m < doc->mesh_count; m++)
        for (uint32_t p = 0; p < doc->meshes[m].primitive_count; p++) {
            const anim_primitive *pr = &doc->meshes[m].primitives[p];
            if (pr->position == a || pr->normal == a || pr->indices == a || pr->joints0 == a ||
                pr->weights0 == a)
                return anim_arena_printf(fix->arena, " (mesh %u primitive %u)", m, p);
        }
    for (uint32_t s = 0; s < doc->skin_count; s++)
        if (doc->skins[s].inverse_bind_accessor == a)
            return anim_arena_printf(fix->arena, " (skin %u inverse bind matrices)", s);
    return "";
}

static const char *shared_reason(anim_fix *fix, uint32_t mine, const char *other, bool *oom)
{
    const char *r = anim_arena_printf(fix->arena, "output accessor %u shares bytes with %s", mine,
                                      other);
    *oom = !r || !other;
    return r;
}

/* Another track reading the same accessor the same way repairs the same
 * keys the same way; any other use of it is a conflict. */
static bool same_accessor_elsewhere(const anim_fix *fix, const anim_track *track)
{
    const anim_doc *doc = &fix->asset->doc;
    uint32_t a = track->output_accessor;
    for (uint32_t c = 0; c < doc->clip_count; c++)
        for (uint32_t t = 0; t < doc->clips[c].track_count; t++) {
            const anim_track *o = &doc->clips[c].tracks[t];
            if (o->input_accessor == a ||
                (o->output_accessor == a &&
                 (o->path != ANIM_PATH_ROTATION ||
                  (o->interp == ANIM_INTERP_CUBICSPLINE) != (track->interp == ANIM_INTERP_CUBICSPLINE))))
                return true;
        }
    for (uint32_t m = 0; m < doc->mesh_count; m++)
        for (uint32_t p = 0; p < doc->meshes[m].primitive_count; p++) {
            const anim_primitive *pr = &doc->meshes[m].primitives[p];
            if (pr->position == a || pr->normal == a || pr->indices == a || pr->joints0 == a ||
                pr->weights0 == a)
                return true;
        }
    for (uint32_t s = 0; s < doc->skin_count; s++)
        if (doc->skins[s].inverse_bind_accessor == a)
            return true;
    return false;
}

const char *fix_overlap(anim_fix *fix, const anim_track *track, const fix_span *span, bool *oom)
{
    const anim_source *src = &fix->asset->source;
    uint32_t mine = track->output_accessor;
    *oom = false;
    elements w = {span->buffer, (size_t)(span->base - fix->buffers[span->buffer]), span->stride,
                  16, (uint64_t)span->keys * span->per_key};
    if (same_accessor_elsewhere(fix, track))
        return shared_reason(fix, mine, anim_arena_printf(fix->arena, "another use of accessor %u",
                                                          mine), oom);
    bool *read_by_accessor = anim_arena_calloc(fix->arena, src->view_count ? src->view_count : 1, 1);
    if (!read_by_accessor) {
        *oom = true;
        return NULL;
    }
    for (uint32_t a = 0; a < src->accessor_count; a++) {
        const anim_accessor *acc = &src->accessors[a];
        elements e;
        if (acc->buffer_view < src->view_count)
            read_by_accessor[acc->buffer_view] = true;
        if (a != mine && accessor_elements(src, acc, &e) && intersects(&w, &e)) {
            const char *user = user_of(fix, a);
            return shared_reason(
                fix, mine, user ? anim_arena_printf(fix->arena, "accessor %u%s", a, user) : NULL,
                oom);
        }
        if (!acc->has_sparse)
            continue;
        if (acc->sparse_indices_view < src->view_count)
            read_by_accessor[acc->sparse_indices_view] = true;
        if (acc->sparse_values_view < src->view_count)
            read_by_accessor[acc->sparse_values_view] = true;
        size_t isize = anim_gltf_component_size(acc->sparse_indices_component_type);
        size_t vsize = anim_gltf_component_size(acc->component_type) * acc->components;
        elements si, sv;
        if ((sparse_part(src, acc->sparse_indices_view, acc->sparse_indices_offset, isize,
                         acc->sparse_count, &si) && intersects(&w, &si)) ||
            (sparse_part(src, acc->sparse_values_view, acc->sparse_values_offset, vsize,
                         acc->sparse_count, &sv) && intersects(&w, &sv))) {
            return shared_reason(fix, mine,
                                 anim_arena_printf(fix->arena, "the sparse section of accessor %u", a),
                                 oom);
        }
    }
    /* Views no accessor reads hold images or extension data: opaque bytes
     * that must not change either. */
    for (uint32_t v = 0; v < src->view_count; v++) {
        const anim_buffer_view *view = &src->views[v];
        elements e = {view->buffer, view->byte_offset, view->byte_length, view->byte_length,
                      1};
        if (!read_by_accessor[v] && intersects(&w, &e))
            return shared_reason(fix, mine,
                                 anim_arena_printf(fix->arena, "buffer view %u (read by no accessor)", v),
                                 oom);
    }
    return NULL;
}
