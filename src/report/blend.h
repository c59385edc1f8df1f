/* The report's illustrative blend, computed in C: the reference the
 * browser's blend pane is checked against, and the stream validation the
 * page builder applies before embedding a clip's local transforms.
 *
 * A local stream record is ten f32 values, tx ty tz qx qy qz qw sx sy sz
 * (REPORT_BLEND_RECORD_FLOATS); one frame of a clip is bone_count records
 * in bone order. */
#ifndef ANIMSMITH_REPORT_BLEND_H
#define ANIMSMITH_REPORT_BLEND_H

#include <stdbool.h>
#include <stdint.h>

#define REPORT_BLEND_RECORD_FLOATS 10

/* How far a stored rotation's length may be from 1 before the stream is
 * refused: the blend normalizes rotations, so a stream within this band
 * draws what its source panes draw. */
#define REPORT_BLEND_QUAT_LEN_TOLERANCE 1e-4

/* Model-space bone positions of the blend of two frames a and b (each
 * bone_count records) at weight w in [0, 1], all in binary64: translation
 * and scale lerp componentwise, (1-w)*a + w*b; rotations are normalized,
 * b's negated only when the dot product is negative (an exact zero keeps
 * its sign), and the weighted sum normalized (shortest-hemisphere nlerp).
 * Local matrices are T*R*S acting on column vectors; a root's world matrix
 * is its local one, any other bone's world[parent] * local. out_xyz gets
 * bone_count x, y, z triples (translation columns).
 *
 * Every weight, 0 and 1 included, goes through this math: the report draws
 * the source positions at the two endpoints instead, which this function
 * does not know about.
 *
 * Returns 0; or -1 (out_xyz contents unspecified) when a parent is neither
 * -1 nor an earlier bone, w is not in [0, 1], memory runs out, or a
 * position is non-finite or beyond the f32 range (the browser uploads
 * positions as f32, so such a result cannot be drawn). */
int report_blend_positions(const int32_t *parents, uint32_t bone_count, const float *a,
                           const float *b, double w, double *out_xyz);

/* Whether count records may be blended: every component finite and every
 * rotation's length within 1 +/- REPORT_BLEND_QUAT_LEN_TOLERANCE. When not,
 * *reason (if reason is non-NULL) gets a static sentence for the report's
 * omission notice. */
bool report_blend_stream_valid(const float *recs, uint64_t count, const char **reason);

#endif
