/* Which rotation tracks a repair may touch. Each pre-check
 * names why a track cannot be patched byte-surgically; the order of the
 * checks is fixed, so the same file always gives the same reason. */
#include <stdio.h>

#include "repair/fix_internal.h"

/* The component names for "quantized rotation output (...)". */
static const char *component_label(uint32_t type)
{
    switch (type) {
    case ANIM_GLTF_BYTE: return "I8";
    case ANIM_GLTF_UNSIGNED_BYTE: return "U8";
    case ANIM_GLTF_SHORT: return "I16";
    case ANIM_GLTF_UNSIGNED_SHORT: return "U16";
    case ANIM_GLTF_UNSIGNED_INT: return "U32";
    default: return "F32";
    }
}

static bool is_vec4(const anim_accessor *acc)
{
    return acc->components == 4 && acc->type && acc->type[0] == 'V';
}

const char *fix_locate(anim_fix *fix, const anim_track *track, fix_span *span, bool *oom)
{
    const anim_source *src = &fix->asset->source;
    *oom = false;
    if (track->output_accessor >= src->accessor_count)
        return "accessor without view";
    const anim_accessor *acc = &src->accessors[track->output_accessor];
    if (acc->has_sparse)
        return "sparse accessor";
    if (acc->component_type != ANIM_GLTF_FLOAT || !is_vec4(acc)) {
        const char *r = anim_arena_printf(fix->arena, "quantized rotation output (%s)",
                                          component_label(acc->component_type));
        *oom = r == NULL;
        return r;
    }
    if (acc->buffer_view == ANIM_NONE || acc->buffer_view >= src->view_count)
        return "accessor without view";
    const anim_buffer_view *view = &src->views[acc->buffer_view];
    if (view->buffer < src->buffer_count &&
        src->buffers[view->buffer].kind == ANIM_BUFFER_DATA_URI)
        return "data-URI buffer (convert to .glb first)";
    size_t start;
    if (!anim_size_add(view->byte_offset, acc->byte_offset, &start))
        return "accessor byte offset overflow";
    if (view->buffer >= src->buffer_count || !fix->buffers[view->buffer]) {
        const char *r = anim_arena_printf(fix->arena, "missing buffer %u", view->buffer);
        *oom = r == NULL;
        return r;
    }
    uint32_t per_key = track->interp == ANIM_INTERP_CUBICSPLINE ? 3 : 1;
    if (acc->count % per_key != 0)
        return "malformed cubic rotation accessor";
    size_t stride = view->byte_stride ? view->byte_stride : 16;
    size_t end = start, last;
    if (stride < 16 ||
        (acc->count > 0 && (!anim_size_mul((size_t)acc->count - 1, stride, &last) ||
                            !anim_size_add(start, last, &end) || !anim_size_add(end, 16, &end))))
        return "accessor byte range overflow";
    size_t len = src->buffers[view->buffer].data_length;
    if (end > len) {
        const char *r = anim_arena_printf(fix->arena,
                                          "accessor byte range %zu..%zu outside buffer length %zu",
                                          start, end, len);
        *oom = r == NULL;
        return r;
    }
    span->buffer = view->buffer;
    span->base = fix->buffers[view->buffer] + start;
    span->stride = stride;
    span->per_key = per_key;
    span->keys = acc->count / per_key;
    span->cubic = per_key == 3;
    return NULL;
}
