/* generate addressability: which typed selectors and ids a glTF/GLB file's
 * animations offer an engine, as a standalone, versioned document
 * (docs/addressability.md). Without an engine profile, or with one other
 * than exact Bevy 0.19.0, it is the engine-neutral inventory alone
 * (urn:animsmith:schema:gltf-animation-addressability:1, bevy null); Bevy
 * revision 1 adds its engine-addressability evaluation to that document;
 * Bevy revision 3 selects the richer urn:animsmith:schema:gltf-addressability:2
 * (scenes, nodes, skins, attachments, paths, labels, named maps, animation
 * target ids). Prediction evidence only: it never claims a runtime load. */
#ifndef ANIMSMITH_ADDRESSABILITY_H
#define ANIMSMITH_ADDRESSABILITY_H

#include <stdbool.h>

#include "animsmith/config.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/report.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ANIM_ADDRESSABILITY_JSON = 0, /* the contract */
    ANIM_ADDRESSABILITY_TEXT,     /* escaped views of the same value */
    ANIM_ADDRESSABILITY_MARKDOWN
} anim_addressability_format;

/* Renders the document of one loaded glTF/GLB asset under cfg's profile
 * (cfg may be NULL: no profile) into out. *blocking is set when a required
 * prediction is unavailable (the command exits 1). Returns -1 with err set
 * for an FBX input, a Bevy revision-1 file with more than 4,096 animations,
 * a profile refusing the input, or out of memory (exit 2); out then holds
 * nothing to print. */
int anim_addressability_render(const anim_asset *asset, const anim_config *cfg,
                               const anim_tool_info *tool, anim_addressability_format format,
                               anim_strbuf *out, bool *blocking, anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
