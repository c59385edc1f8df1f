/* The duration of a clip and whether its options fit it: shared by
 * clip_options (which attaches options to a clip) and clip (which keeps
 * the options of a clip it replaces only while they still fit). */
#ifndef ANIMSMITH_MDL_CLIP_TIME_H
#define ANIMSMITH_MDL_CLIP_TIME_H

#include "model/mdl_ops.h"

/* The latest key time of any channel (0 for a clip without keys). */
double mdl_clip_duration(const mdl_clip *c);

/* Refuses "invalid_clip" naming the first event or morph key of c that
 * lies past duration; 0 when every option time fits. */
int mdl_clip_options_fit(mdl_ctx *ctx, const mdl_clip *c, double duration);

#endif
