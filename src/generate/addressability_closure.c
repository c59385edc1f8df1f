/* The inventory's dependency closure: the engine layer's closure of the
 * same load (src/engine/engine_closure.c, the record the prediction
 * provenance writes), so the neutral inventory and any engine section
 * state one closure, built one way. Every file of the load: the primary
 * as read, each external buffer hashed from the bytes the loader mapped,
 * each image file a URI names; an unreadable file keeps its row without a
 * digest and makes the closure partial. */
#include <string.h>

#include "engine/engine_internal.h"
#include "generate/addressability.h"

const char *addr_coverage_name(addr_coverage c)
{
    return c == ADDR_COMPLETE ? "complete" : c == ADDR_PARTIAL ? "partial" : "unavailable";
}

int addr_closure_build(const anim_asset *asset, anim_arena *arena, addr_closure *out,
                       anim_error *err)
{
    engine_closure c;
    memset(out, 0, sizeof *out);
    if (engine_closure_build(asset, arena, &c, err))
        return -1;
    out->state = !strcmp(c.state, "complete") ? ADDR_COMPLETE
                 : !strcmp(c.state, "partial") ? ADDR_PARTIAL
                                               : ADDR_UNAVAILABLE;
    out->files = anim_arena_calloc(arena, c.count ? c.count : 1, sizeof *out->files);
    if (!out->files)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < c.count; i++) {
        addr_closure_file *f = &out->files[out->count++];
        f->role = c.files[i].role;
        f->index = c.files[i].index;
        f->path = c.files[i].uri ? NULL : c.files[i].path;
        f->uri = c.files[i].uri;
        f->readable = c.files[i].readable;
        memcpy(f->sha256, c.files[i].sha256, sizeof f->sha256);
        f->bytes = c.files[i].bytes;
    }
    if (out->count == 0 || strcmp(out->files[0].role, "primary") != 0)
        return anim_error_set(err, ANIM_ERR_USAGE, "%s: the dependency closure has no primary "
                              "file row", asset->source.path);
    return 0;
}
