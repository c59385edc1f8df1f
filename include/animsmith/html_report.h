/* The offline HTML report: one self-contained page (HTML, CSS, JS and
 * data inline, no request of any kind) that plays back the exact metric-
 * grid frames the checks judged, beside the findings, coverage gaps and
 * prediction facets of the same lint run and SVG charts drawn here.
 *
 * Two forms: one document (every clip, or one), and a before/after
 * comparison of one named clip in each of two documents. Both can omit
 * every motion-bearing stream (evidence only): positions, local
 * transforms and meshes. */
#ifndef ANIMSMITH_HTML_REPORT_H
#define ANIMSMITH_HTML_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/config.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The report's fixed bounds. Pose data is every included clip's
 * positions (12 bytes per bone and frame) and, with a skinned mesh, the
 * skin joints' matrices (64 bytes per joint and frame); a report that
 * would embed more is refused (narrow it with a clip, or go evidence
 * only). A mesh over its budget is left out with a notice instead. */
#define ANIM_HTML_REPORT_POSE_BYTES ((size_t)256 << 20)
#define ANIM_HTML_REPORT_COMPARISON_POSE_BYTES ((size_t)32 << 20) /* per side */
#define ANIM_HTML_REPORT_MESH_BYTES ((size_t)64 << 20)
/* The illustrative blend's local streams (admitted all together or not
 * at all). */
#define ANIM_HTML_REPORT_LOCAL_BONES 1024u
#define ANIM_HTML_REPORT_LOCAL_CLIPS 4096u
#define ANIM_HTML_REPORT_LOCAL_TRACKS 65536u
#define ANIM_HTML_REPORT_LOCAL_BYTES ((size_t)32 << 20)

/* One document of a report. */
typedef struct anim_html_report_input {
    const anim_asset *asset;
    const anim_config *config;  /* the contract the run judged against */
    const char *path;           /* as given; NULL for a document from memory */
    const char *clip;           /* one clip by exact name, or NULL for every clip */
} anim_html_report_input;

typedef struct anim_html_report_options {
    bool evidence_only;
    /* The tool identity shown in the page and its data (may be NULL). */
    const char *tool_version;
    /* A reduced (LOD) version of the single document's asset, or NULL: the
     * page then shows its skinning-envelope residual against the document
     * under the motion the document's clips contain (a comparison refuses
     * one). lod_path names it in the page and in messages. */
    const anim_asset *lod;
    const char *lod_path;
} anim_html_report_options;

typedef struct anim_html_report_summary {
    uint32_t clips;     /* clips the report holds (a comparison: 1) */
    uint64_t findings;  /* content findings shown (a comparison: both sides) */
    bool mesh;          /* a skinned mesh is drawn */
    const char *mesh_omission;  /* why not, when the document has one (static text) */
    bool blend;         /* the illustrative blend is available */
    /* With a LOD: the meshes compared, those measured, and the largest
     * residual among them (metres; 0 when none was measured). */
    uint32_t lod_rows, lod_measured;
    double lod_residual;
} anim_html_report_summary;

/* Renders the single-document report into out. Runs every check over the
 * document (the same run as `lint`). Refusals (ANIM_ERR_INVALID: a missing
 * or ambiguous clip, a clip without a metric grid, pose data over the
 * report's bound, a LOD whose meshes do not match the document's) leave
 * out as it was. Returns 0 or -1 with err set. */
int anim_html_report_render(const anim_html_report_input *in, const anim_html_report_options *opts,
                            anim_strbuf *out, anim_html_report_summary *summary, anim_error *err);

/* Renders the before/after comparison of before->clip and after->clip
 * (both required). Refuses duplicate or differing named skeletons, missing
 * or ambiguous clips, clips without a metric grid, identical inputs or
 * incomplete dependency closures, and pose data over the per-side bound. */
int anim_html_report_render_comparison(const anim_html_report_input *before,
                                       const anim_html_report_input *after,
                                       const anim_html_report_options *opts, anim_strbuf *out,
                                       anim_html_report_summary *summary, anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
