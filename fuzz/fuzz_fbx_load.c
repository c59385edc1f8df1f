/* libFuzzer entry for the whole FBX load: parse, object graph, the scene
 * stages (nodes and the transform chain, geometry and skins, animation),
 * the projection into a glTF document and its load, then the
 * whole-document writer (what convert does) and a second load of what it
 * wrote. Any byte string must either be refused with a one-line message or
 * load completely: a projected document the glTF reader refuses (other
 * than for a budget) is a reader bug, and traps. Budgets are small so runs
 * stay fast and the limit paths are exercised. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "io/fbx/fbx_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_line(const anim_error *err)
{
    if (err->message[0] == '\0' || strchr(err->message, '\n'))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    anim_load_options opts;
    anim_load_options_default(&opts);
    opts.limits.grid_bytes = (size_t)32 << 20;
    opts.limits.implicit_accessor_bytes = (size_t)8 << 20;
    anim_error err;
    anim_error_clear(&err);
    anim_fbx_loaded *l = anim_fbx_read_memory(data, size, NULL, "fuzz.fbx", &opts, &err);
    if (!l) {
        one_line(&err);
        return 0;
    }
    anim_asset *a = anim_fbx_to_asset(l, &opts, &err);
    anim_fbx_loaded_free(l);
    if (!a) {
        one_line(&err);
        if (err.code != ANIM_ERR_LIMIT && err.code != ANIM_ERR_NOMEM) {
            fprintf(stderr, "projection refused: %s\n", err.message);
            __builtin_trap(); /* the projection must always load */
        }
        return 0;
    }
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_gltf_write_summary summary;
    if (anim_gltf_write_asset_mem(a, NULL, ANIM_GLTF_FORMAT_GLB, "fuzz", &out, &summary, &err) ==
        0) {
        anim_asset *back = anim_asset_load_memory(out.data, out.len, true, NULL, "written.glb",
                                                  &opts, &err);
        if (!back && err.code != ANIM_ERR_LIMIT && err.code != ANIM_ERR_NOMEM) {
            fprintf(stderr, "written document refused: %s\n", err.message);
            __builtin_trap(); /* what convert writes must load again */
        }
        if (back && back->doc.bone_count != a->doc.bone_count)
            __builtin_trap();
        anim_asset_free(back);
    } else {
        one_line(&err);
    }
    anim_strbuf_free(&out);
    anim_asset_free(a);
    return 0;
}
