/* Raw source facts for the provenance: what the file itself declares,
 * before any normalization. For glTF they are the array lengths of the raw
 * JSON (a malformed member counts as absent and marks the channel count
 * incomplete rather than being guessed); for FBX they are the reader's
 * facts about the file (version, encoding, animation stacks with their
 * exact KTime spans, the raw node inventory's coverage). */
#include <string.h>

#include "animsmith/fbx.h"
#include "animsmith/json.h"
#include "engine/engine_internal.h"

static uint32_t array_len(const anim_json_value *root, const char *key)
{
    const anim_json_value *a = root ? anim_json_get(root, key) : NULL;
    if (!a || a->type != ANIM_JSON_ARRAY)
        return 0;
    size_t n = anim_json_count(a);
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

void engine_raw_source_build(const anim_asset *asset, engine_raw_source *out)
{
    const anim_source *src = &asset->source;
    memset(out, 0, sizeof *out);
    out->default_scene = ANIM_NONE;
    out->channels_complete = true;
    if (src->fbx) {
        out->format = ANIM_ENGINE_FORMAT_FBX;
        out->fbx = src->fbx;
        return;
    }
    out->format = src->is_glb ? ANIM_ENGINE_FORMAT_GLB : ANIM_ENGINE_FORMAT_GLTF;
    const anim_json_value *root = src->root;
    if (!root || root->type != ANIM_JSON_OBJECT) {
        out->channels_complete = false;
        return;
    }
    out->animations = array_len(root, "animations");
    out->scenes = array_len(root, "scenes");
    out->nodes = array_len(root, "nodes");
    out->skins = array_len(root, "skins");
    out->meshes = array_len(root, "meshes");
    const anim_json_value *scene = anim_json_get(root, "scene");
    if (scene && anim_json_is_integer(scene) && anim_json_integer(scene) >= 0 &&
        anim_json_integer(scene) < (int64_t)ANIM_NONE)
        out->default_scene = (uint32_t)anim_json_integer(scene);
    const anim_json_value *anims = anim_json_get(root, "animations");
    uint64_t channels = 0;
    for (uint32_t i = 0; i < out->animations; i++) {
        const anim_json_value *a = anim_json_item(anims, i);
        const anim_json_value *ch = a->type == ANIM_JSON_OBJECT ? anim_json_get(a, "channels")
                                                                 : NULL;
        if (!ch || ch->type != ANIM_JSON_ARRAY) {
            out->channels_complete = false;
            continue;
        }
        channels += anim_json_count(ch);
    }
    out->channels = channels > UINT32_MAX ? UINT32_MAX : (uint32_t)channels;
}
