/* Clip-name facts the engine checks share (engine_clip_names.c). */
#ifndef ANIMSMITH_CHECKS_ENGINE_CLIP_NAMES_H
#define ANIMSMITH_CHECKS_ENGINE_CLIP_NAMES_H

#include "animsmith/lint.h"

/* *out: one flag per document clip (in ctx->arena), true when another
 * clip has the same name. An engine addresses clips by name and a facet's
 * subject is that name, so such clips can be predicted for neither.
 * Returns 0, or -1 out of memory. */
int engine_duplicate_clip_names(anim_lint_context *ctx, bool **out);

#endif
