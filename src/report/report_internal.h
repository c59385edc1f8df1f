/* src/report/ owns the HTML report: the lint run and the metric grids of
 * the clips it shows (report_doc.c), the embedded data (report_data.c,
 * report_findings.c, report_local.c, report_mesh.c, report_meshq.c), the
 * SVG charts (chart_*.c, svg.c), the page itself (report_page.c), the two
 * report forms (report_single.c, report_compare.c) and the viewer's CSS
 * and JS (viewer/, embedded at build time). */
#ifndef ANIMSMITH_REPORT_INTERNAL_H
#define ANIMSMITH_REPORT_INTERNAL_H

#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "animsmith/html_report.h"
#include "animsmith/json_write.h"
#include "animsmith/lint.h"
#include "animsmith/rig.h"
#include "animsmith/sample.h"
#include "report/chart.h"

/* The role series of one clip (what the charts draw), per grid frame. */
typedef struct report_series {
    uint32_t doc_clip;          /* index in doc->clips */
    int32_t report_clip;        /* position in the report's clip list, -1 when not shown */
    uint32_t frame_count;
    double *times;
    anim_vec3 *root, *hips, *left_foot, *right_foot; /* NULL when the role is unbound */
    const char **judged;        /* check ids, catalog order */
    uint32_t judged_count;
    bool has_anchor;            /* measured gait phase (stride anchor) */
    double anchor;
    report_chart_clip chart;    /* the view the chart functions take */
} report_series;

/* One document of a report: its lint run, rig and the clips shown. */
typedef struct report_doc {
    const anim_html_report_input *in;
    const anim_doc *doc;
    anim_arena *arena;          /* everything below */
    anim_rig_resolution rig;
    anim_lint_file lint;
    bool lint_done;
    uint32_t *clips;            /* the doc clips shown, document order */
    uint32_t clip_count;
    report_series *series;      /* one per doc clip; frame_count 0 = not sampled */
    double contact_height_m;
} report_doc;

/* Loads the run: rig, lint, the clips to show (in->clip or every clip
 * with a metric grid; a named clip that is missing, ambiguous or without
 * a grid is refused). Series are sampled for the shown clips and, when
 * with_groups, for every gait-group member of a group a shown clip
 * belongs to (or that has a member in the file when every clip is shown).
 * bound (NULL: none) refuses, before the lint run, shown clips whose
 * positions would pass it. */
typedef struct report_pose_bound {
    uint64_t bytes;             /* the positions of the shown clips may not pass this */
    const char *limit;          /* "report's 256 MiB bound" */
    const char *hint;           /* what to do: "use --evidence-only" */
} report_pose_bound;

int report_doc_open(report_doc *rd, const anim_html_report_input *in, bool with_groups,
                    const report_pose_bound *bound, anim_error *err);
void report_doc_close(report_doc *rd);

/* The doc clip named exactly `name` among those the doc holds: its index,
 * or ANIM_NONE with *ambiguous telling a duplicated authored name apart
 * from a missing one. */
uint32_t report_doc_find_clip(const anim_doc *doc, const char *name, bool *ambiguous);

/* Whether a finding or gap belongs in the report: document-level ones, and
 * those of a shown clip. */
bool report_doc_keeps_clip_name(const report_doc *rd, const char *clip);

/* Samples a shown clip's grid again (complete) for its embedded streams;
 * the caller frees it. */
int report_doc_grid(const report_doc *rd, uint32_t doc_clip, anim_metric_grid *grid,
                    anim_error *err);

/* ---- data ---- */

/* "skeleton" and "roles" members. */
void report_write_skeleton(anim_json_writer *w, const report_doc *rd);

/* "findings", "gaps" and "predictions" members, with each finding's target
 * in the report's clip list; *finding_count gets the findings written. */
void report_write_findings(anim_json_writer *w, const report_doc *rd, uint64_t *finding_count);

/* What a clip's embedded streams need: positions (and bounds) unless
 * evidence only, the local stream when admitted, bone matrices for a mesh. */
typedef struct report_clip_streams {
    bool positions;
    bool local;                 /* the blend's local streams were admitted */
    const uint32_t *matrix_bones; /* bone matrices of these bones, or NULL */
    uint32_t matrix_bone_count;
    bool comparison;            /* no "local" members at all (the blend is single-form) */
} report_clip_streams;

/* One CLIP object (report_clip: its position in the report's list). */
int report_write_clip(anim_json_writer *w, const report_doc *rd, uint32_t report_clip,
                      const report_clip_streams *streams, const char *const *figure_ids,
                      uint32_t figure_count, anim_error *err);

/* The aggregate admission of the local streams (bones, clips, tracks,
 * bytes); NULL when admitted, else the reason every stream is omitted. */
const char *report_local_admission(const report_doc *rd);

/* Why one clip's local stream is omitted (malformed tracks), or NULL. */
const char *report_local_clip_omission(const anim_doc *doc, const anim_clip *clip);

/* Whether the shared parent topology lets any blend run. */
bool report_local_topology_ok(const anim_doc *doc);

/* The skinned mesh, written as the "mesh" member (null when there is none
 * or it is left out, with "mesh_omission"). drawn (arena arrays) gets the
 * bones whose per-frame matrices each clip must carry and the primitives
 * written, in the order of "primitives". Returns whether a mesh was
 * written. */
typedef struct report_mesh_room {
    uint64_t frames;            /* frames over the shown clips (and 1 for the rest pose) */
    uint64_t pose_bytes_left;   /* what the joint matrices may add under the pose bound */
} report_mesh_room;

/* One written primitive: glTF primitive prim of mesh, on bone's node. */
typedef struct report_mesh_part {
    uint32_t bone;      /* the node carrying the mesh */
    uint32_t mesh, prim;
    uint32_t skin;      /* doc skin, or ANIM_NONE: rigid on its node */
} report_mesh_part;

typedef struct report_mesh_drawn {
    uint32_t *matrix_bones;
    uint32_t matrix_bone_count;
    const report_mesh_part *parts; /* NULL when no mesh was written */
    uint32_t part_count;
} report_mesh_drawn;

bool report_write_mesh(anim_json_writer *w, const report_doc *rd, const report_mesh_room *room,
                       report_mesh_drawn *drawn, const char **omission, anim_error *err);

/* The "mesh_quality" member of a report with a LOD (opts->lod): the
 * skinning-envelope residual of the LOD against the document, one row per
 * skinned mesh, each row's worst samples placed on drawn's primitives
 * (NULL: the mesh is not in the page, the marks carry no place) so the
 * viewer skins them with the mesh. A LOD that does not match the document
 * is -1 with err naming it; summary gets the rows' figures. */
int report_write_mesh_quality(anim_json_writer *w, const report_doc *rd,
                              const anim_html_report_options *opts, const report_mesh_drawn *drawn,
                              anim_html_report_summary *summary, anim_error *err);

/* The rest pose (every bone at its rest transform), as the "rest_pose"
 * member: positions and, for a mesh, the matrices of matrix_bones, so a
 * document without a judged clip still shows its skeleton and mesh. */
int report_write_rest_pose(anim_json_writer *w, const report_doc *rd, const uint32_t *matrix_bones,
                           uint32_t matrix_bone_count, anim_error *err);

/* Little-endian packing of the embedded streams, whatever the host order.
 * A non-finite value is packed as 0: the browser cannot draw NaN, and the
 * checks have already reported it. */
static inline void report_put_u32(uint8_t *p, uint32_t u)
{
    p[0] = (uint8_t)u;
    p[1] = (uint8_t)(u >> 8);
    p[2] = (uint8_t)(u >> 16);
    p[3] = (uint8_t)(u >> 24);
}

static inline void report_put_u16(uint8_t *p, uint32_t u)
{
    p[0] = (uint8_t)u;
    p[1] = (uint8_t)(u >> 8);
}

static inline void report_put_f32(uint8_t *p, double v)
{
    float f = isfinite(v) ? (float)v : 0.0f;
    uint32_t u;
    memcpy(&u, &f, 4);
    report_put_u32(p, u);
}

/* Writes `s` as a JSON string value whose bytes are base64 of data. */
void report_json_base64(anim_json_writer *w, const void *data, size_t n);

/* "schema", "form", "evidence_only" and "tool" members. */
void report_write_head(anim_json_writer *w, const char *form, bool evidence_only,
                       const anim_html_report_options *opts);

/* ---- the page ---- */

typedef struct report_page {
    const char *title;          /* asset text: escaped here */
    bool comparison;
    bool evidence_only;
    const anim_strbuf *charts;  /* the C-drawn figures (markup) */
    const anim_strbuf *data;    /* the embedded JSON */
} report_page;

/* Appends the whole HTML document to out. Returns 0, or -1 when memory
 * runs out (the data or charts buffer failed, or the page did), with out
 * as it was. */
int report_page_render(const report_page *page, anim_strbuf *out, anim_error *err);

/* The notice an evidence-only report shows where each pose view would be. */
extern const char report_evidence_notice[];

#endif
