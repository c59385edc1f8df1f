/* Private to the lint run: the per-clip fact cache behind
 * anim_lint_loop_continuity and its siblings (include/animsmith/lint.h). */
#ifndef ANIMSMITH_LINT_CLIP_FACTS_H
#define ANIMSMITH_LINT_CLIP_FACTS_H

#include "animsmith/lint.h"

/* Drops the cached facts (their rows live in the scratch arena about to be
 * freed). The cache itself stays allocated in ctx->arena for reuse. */
void anim_lint_clip_facts_forget(anim_lint_context *ctx);

#endif
