/* The report's charts: self-describing SVG figures drawn from the judged
 * metric grid on the C side, so the browser only moves a playhead. Every
 * figure carries a viewBox, role="img", an aria-label naming its series and
 * units, a legend, axis labels and one class per series; its caption says
 * what to look for, derived from what the contract declares for the clip.
 *
 * Each function appends one complete <figure> to out. Asset-derived text
 * (clip names, member names) is XML-escaped. Output is deterministic:
 * coordinates are printed with a fixed number of decimals. Returns 0, or
 * -1 with err set (out of memory). */
#ifndef ANIMSMITH_REPORT_CHART_H
#define ANIMSMITH_REPORT_CHART_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/config.h"
#include "animsmith/error.h"
#include "animsmith/math.h"
#include "animsmith/strbuf.h"

/* One clip's role series, per frame of its metric grid (model space,
 * metres). A role that did not resolve is NULL. */
typedef struct report_chart_clip {
    const char *name;          /* clip name (asset text) */
    uint32_t index;            /* position in the report's clip list; data-clip */
    uint32_t frame_count;      /* >= 2 */
    const double *times;       /* frame_count grid times, seconds */
    const anim_vec3 *root;     /* the root-trajectory bone's positions (the root
                                  role, else the hips fallback), or NULL */
    const char *root_bone;     /* that bone's name (asset text), or NULL */
    const anim_vec3 *hips;
    const anim_vec3 *left_foot;
    const anim_vec3 *right_foot;
    /* What the contract declares for the clip (merged [clips.*] tables). */
    anim_opt_bool loop;
    anim_pin speed_mps;
    anim_movement_owner movement_owner_xz;
    /* The checks that judged this clip (evaluated a scope whose subject is
     * the clip, or reported a finding on it), catalog order. */
    const char *const *judged_checks;
    uint32_t judged_count;
    /* Foot-slide's stance threshold for this run (contact_height_m). */
    double contact_height_m;
} report_chart_clip;

/* The root's X/Z path seen from above: start marked with a hollow circle,
 * end with a filled square, their distance in the caption; a playhead dot
 * (g.playhead-dot with one data-points entry per frame). */
int report_chart_root_path(anim_strbuf *out, const report_chart_clip *c, const char *id,
                           anim_error *err);

/* Left and right foot heights relative to the hips over time, and their
 * difference (left minus right) on its own right-hand axis; a time
 * playhead (g.playhead). */
int report_chart_foot_heights(anim_strbuf *out, const report_chart_clip *c, const char *id,
                              anim_error *err);

/* One member of a declared gait group. clip NULL: the member is not in the
 * file (named in the legend as absent). */
typedef struct report_gait_member {
    const char *name;              /* declared member name (contract text) */
    int32_t clip_index;            /* position in the report's clip list, -1 when not included */
    const report_chart_clip *clip; /* series source; NULL when absent from the file */
    bool has_anchor;               /* the measured stride anchor (gait phase) */
    double anchor;                 /* [0, 1) */
} report_gait_member;

/* Every member's left-minus-right foot height (hips-relative) on one shared
 * normalized stride-phase axis [0, 1], each member's stride anchor marked,
 * and the declared tolerance as a band either side of the circular mean of
 * the measured anchors; the caption names the members outside the band. One
 * playhead per member included in the report (g.playhead with data-clip). */
int report_chart_gait_group(anim_strbuf *out, const char *group, const report_gait_member *members,
                            uint32_t member_count, double max_phase_spread, const char *id,
                            anim_error *err);

/* Stance intervals of one foot as the foot-slide check samples them: the
 * step between frames f-1 and f is stance when the foot is within
 * contact_height_m of its lowest sampled height at both ends; consecutive
 * stance steps join into one inclusive frame range [first, last]. Writes at
 * most cap ranges into ranges (2 entries each) and returns how many there
 * are (which may exceed cap). NULL foot: 0. */
uint32_t report_stance_intervals(const anim_vec3 *foot, uint32_t frame_count, double contact_height_m,
                                 uint32_t *ranges, uint32_t cap);

/* ---- the before/after comparison ---- */

/* One side's role trajectories seen from above (X/Z: root, hips, left and
 * right foot), at a fixed scale of px_per_m so both sides' panels compare;
 * data-side names the side; a playhead dot per series. */
int report_chart_trails(anim_strbuf *out, const report_chart_clip *c, const char *side,
                        double px_per_m, const char *id, anim_error *err);

/* The pixels per metre report_chart_trails should use for both sides: the
 * largest scale at which every trail of both sides fits the panel. */
double report_chart_trails_scale(const report_chart_clip *before, const report_chart_clip *after);

/* One side's gait panel: both foot heights over time with the stance
 * intervals of each foot shaded. */
int report_chart_stance(anim_strbuf *out, const report_chart_clip *c, const char *side,
                        const char *id, anim_error *err);

/* Both sides' root X/Z paths in one panel fitted to its own bounds, with a
 * scale bar in a corner and, in the caption, the magnification against the
 * trails panels (trails_px_per_m): a two-centimetre sway is legible and
 * still reads as two centimetres. Before solid, after dashed. */
int report_chart_shared_root(anim_strbuf *out, const report_chart_clip *before,
                             const report_chart_clip *after, double trails_px_per_m,
                             const char *id, anim_error *err);

/* Appends s with & < > " ' escaped for XML text and attribute values. */
void report_xml_escape(anim_strbuf *out, const char *s);

#endif
