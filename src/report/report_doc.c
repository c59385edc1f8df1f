/* One document of a report: the lint run the findings come from, the rig,
 * the clips shown and their role series. The series are taken from the
 * same metric grid the checks judged (sampled once more here: the run
 * keeps no grid), so every chart draws the judged frames. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/measure_loop.h"
#include "animsmith/measure_travel.h"
#include "report/report_internal.h"

uint32_t report_doc_find_clip(const anim_doc *doc, const char *name, bool *ambiguous)
{
    *ambiguous = false;
    uint32_t found = ANIM_NONE;
    for (uint32_t c = 0; c < doc->clip_count; c++)
        if (strcmp(doc->clips[c].name, name) == 0) {
            found = c;
            break;
        }
    if (found == ANIM_NONE)
        return ANIM_NONE;
    /* An authored name held by two takes stays ambiguous even though the
     * loader gave the second a "#n" suffix: which take was meant is not
     * known. */
    const char *base = doc->clips[found].base_name ? doc->clips[found].base_name : name;
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *o = &doc->clips[c];
        if (c != found && (strcmp(o->name, base) == 0 || (o->base_name && strcmp(o->base_name, base) == 0))) {
            *ambiguous = true;
            return ANIM_NONE;
        }
    }
    return found;
}

bool report_doc_keeps_clip_name(const report_doc *rd, const char *clip)
{
    if (!clip || !rd->in->clip)
        return true;
    return strcmp(clip, rd->in->clip) == 0;
}

static int select_clips(report_doc *rd, anim_error *err)
{
    const anim_doc *doc = rd->doc;
    rd->clips = anim_arena_calloc(rd->arena, doc->clip_count ? doc->clip_count : 1, sizeof *rd->clips);
    if (!rd->clips)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    const char *path = rd->in->path ? rd->in->path : "(memory)";
    if (rd->in->clip) {
        bool ambiguous;
        uint32_t c = report_doc_find_clip(doc, rd->in->clip, &ambiguous);
        if (ambiguous)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: clip '%s' is ambiguous: more than one take has that name",
                                  path, rd->in->clip);
        if (c == ANIM_NONE)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: clip '%s' not found", path, rd->in->clip);
        if (!anim_clip_has_metric_grid(&doc->clips[c]))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: clip '%s' (animation %u) has no judged pose grid (it needs "
                                  "a duration above zero and at least 3 keys on a track)",
                                  path, rd->in->clip, doc->clips[c].animation);
        rd->clips[rd->clip_count++] = c;
        return 0;
    }
    for (uint32_t c = 0; c < doc->clip_count; c++)
        if (anim_clip_has_metric_grid(&doc->clips[c]))
            rd->clips[rd->clip_count++] = c;
    return 0;
}

/* The checks that judged clip `name`: an evaluated scope naming it or a
 * finding on it, catalog order. */
static int judged_checks(report_doc *rd, report_series *s, const char *name, anim_error *err)
{
    const anim_lint_file *lf = &rd->lint;
    s->judged = anim_arena_calloc(rd->arena, lf->record_count ? lf->record_count : 1, sizeof *s->judged);
    if (!s->judged)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (size_t r = 0; r < lf->record_count; r++) {
        const anim_check_record *rec = &lf->records[r];
        bool judged = false;
        for (uint32_t i = 0; i < rec->scope_count && !judged; i++)
            judged = rec->scopes[i].subject && strcmp(rec->scopes[i].subject, name) == 0;
        for (uint32_t i = 0; i < rec->finding_count && !judged; i++)
            judged = rec->findings[i].clip && strcmp(rec->findings[i].clip, name) == 0;
        if (judged)
            s->judged[s->judged_count++] = rec->check_id;
    }
    return 0;
}

static anim_vec3 *role_series(report_doc *rd, const anim_metric_grid *g, uint32_t bone)
{
    if (bone == ANIM_NONE || bone >= g->bone_count)
        return NULL;
    anim_vec3 *v = anim_arena_alloc(rd->arena, (size_t)g->frame_count * sizeof *v);
    if (!v)
        return NULL;
    for (uint32_t f = 0; f < g->frame_count; f++)
        v[f] = g->model_pos[anim_metric_grid_index(g, f, bone)];
    return v;
}

/* The foot series of a side: the foot role, else the toe role (the
 * foot-slide check's choice). */
static uint32_t side_bone(const anim_rig_resolution *rig, anim_role foot, anim_role toe)
{
    return rig->bone[foot] != ANIM_NONE ? rig->bone[foot] : rig->bone[toe];
}

static int sample_series(report_doc *rd, uint32_t c, int32_t report_clip, anim_error *err)
{
    report_series *s = &rd->series[c];
    s->report_clip = report_clip;
    if (s->frame_count)
        return 0;
    const anim_doc *doc = rd->doc;
    const anim_clip *clip = &doc->clips[c];
    anim_metric_grid g;
    if (anim_metric_grid_build(doc, clip, &g, err) < 0)
        return -1;
    if (g.frame_count < 2) {
        anim_metric_grid_free(&g);
        return 0;
    }
    s->doc_clip = c;
    s->frame_count = g.frame_count;
    s->times = anim_arena_alloc(rd->arena, (size_t)g.frame_count * sizeof *s->times);
    anim_root_trajectory rt;
    anim_root_trajectory_select(doc, &rd->rig, &rt);
    uint32_t root = rt.availability == ANIM_AVAIL_MEASURED ? rt.bone_index : ANIM_NONE;
    if (s->times)
        memcpy(s->times, g.times, (size_t)g.frame_count * sizeof *s->times);
    s->root = role_series(rd, &g, root);
    s->hips = role_series(rd, &g, rd->rig.bone[ANIM_ROLE_HIPS]);
    s->left_foot = role_series(rd, &g, side_bone(&rd->rig, ANIM_ROLE_LEFT_FOOT, ANIM_ROLE_LEFT_TOE));
    s->right_foot = role_series(rd, &g, side_bone(&rd->rig, ANIM_ROLE_RIGHT_FOOT, ANIM_ROLE_RIGHT_TOE));
    anim_foot_cycle fc;
    anim_foot_cycle_compute(doc, &g, &rd->rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    s->has_anchor = fc.status == ANIM_FOOT_CYCLE_OK && fc.phase_outcome == ANIM_GAIT_PHASE_MEASURED;
    s->anchor = s->has_anchor ? fc.phase : 0.0;
    anim_metric_grid_free(&g);
    if (!s->times || judged_checks(rd, s, clip->name, err))
        return s->times ? -1 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");

    anim_clip_expect ex;
    anim_config_clip_expect(rd->in->config, clip->name, &ex);
    report_chart_clip *cc = &s->chart;
    cc->name = clip->name;
    cc->index = report_clip >= 0 ? (uint32_t)report_clip : 0;
    cc->frame_count = s->frame_count;
    cc->times = s->times;
    cc->root = s->root;
    cc->root_bone = root != ANIM_NONE ? doc->bones[root].name : NULL;
    cc->hips = s->hips;
    cc->left_foot = s->left_foot;
    cc->right_foot = s->right_foot;
    cc->loop = ex.loop;
    cc->speed_mps = ex.speed_mps;
    cc->movement_owner_xz = ex.movement_owner_xz;
    cc->judged_checks = s->judged;
    cc->judged_count = s->judged_count;
    cc->contact_height_m = rd->contact_height_m;
    return 0;
}

/* Whether a gait group has a member among the shown clips (or, when every
 * clip is shown, in the file at all). */
static bool group_shown(const report_doc *rd, const anim_gait_group *g)
{
    for (uint32_t m = 0; m < g->clips.count; m++) {
        bool amb;
        uint32_t c = report_doc_find_clip(rd->doc, g->clips.items[m], &amb);
        if (c == ANIM_NONE)
            continue;
        for (uint32_t i = 0; i < rd->clip_count; i++)
            if (rd->clips[i] == c)
                return true;
    }
    return false;
}

static int sample_groups(report_doc *rd, anim_error *err)
{
    const anim_config *cfg = rd->in->config;
    for (uint32_t g = 0; cfg && g < cfg->gait_group_count; g++) {
        const anim_gait_group *grp = &cfg->gait_groups[g];
        if (!group_shown(rd, grp))
            continue;
        for (uint32_t m = 0; m < grp->clips.count; m++) {
            bool amb;
            uint32_t c = report_doc_find_clip(rd->doc, grp->clips.items[m], &amb);
            if (c == ANIM_NONE || !anim_clip_has_metric_grid(&rd->doc->clips[c]))
                continue;
            if (sample_series(rd, c, rd->series[c].frame_count ? rd->series[c].report_clip : -1, err))
                return -1;
        }
    }
    return 0;
}

/* The pose data the shown clips would embed, known before anything is
 * sampled (a grid's frame count comes from the keys), so a report beyond
 * its bound is refused before the lint run rather than after it. */
static int check_pose_bound(const report_doc *rd, const report_pose_bound *bound, anim_error *err)
{
    if (!bound)
        return 0;
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < rd->clip_count; i++)
        bytes += (uint64_t)anim_clip_default_frame_count(&rd->doc->clips[rd->clips[i]]) *
                 rd->doc->bone_count * 12;
    if (bytes <= bound->bytes)
        return 0;
    char subject[300];
    if (rd->in->clip)
        snprintf(subject, sizeof subject, "clip '%s'", rd->in->clip);
    else
        snprintf(subject, sizeof subject, "the report of %u clip(s)", rd->clip_count);
    return anim_error_set(err, ANIM_ERR_LIMIT,
                          "%s: %s would embed %.1f MiB of pose data, beyond the %s; %s",
                          rd->in->path ? rd->in->path : "(memory)", subject,
                          (double)bytes / 1048576.0, bound->limit, bound->hint);
}

int report_doc_open(report_doc *rd, const anim_html_report_input *in, bool with_groups,
                    const report_pose_bound *bound, anim_error *err)
{
    memset(rd, 0, sizeof *rd);
    rd->in = in;
    rd->doc = &in->asset->doc;
    rd->arena = anim_arena_new();
    if (!rd->arena)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    anim_rig_config rig_cfg = anim_config_rig(in->config);
    if (anim_rig_resolve(rd->doc, &rig_cfg, &rd->rig, err))
        return -1;
    if (select_clips(rd, err) || check_pose_bound(rd, bound, err))
        return -1;
    if (anim_lint_run(in->asset, in->config, NULL, &rd->lint, err))
        return -1;
    rd->lint_done = true;
    rd->contact_height_m =
        anim_config_check_setting(in->config, "foot-slide", ANIM_CHECK_CONTACT_HEIGHT_M);
    uint32_t n = rd->doc->clip_count;
    rd->series = anim_arena_calloc(rd->arena, n ? n : 1, sizeof *rd->series);
    if (!rd->series)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < rd->clip_count; i++)
        if (sample_series(rd, rd->clips[i], (int32_t)i, err))
            return -1;
    return with_groups ? sample_groups(rd, err) : 0;
}

void report_doc_close(report_doc *rd)
{
    if (rd->lint_done)
        anim_lint_file_free(&rd->lint);
    anim_arena_free(rd->arena);
    memset(rd, 0, sizeof *rd);
}

int report_doc_grid(const report_doc *rd, uint32_t doc_clip, anim_metric_grid *grid,
                    anim_error *err)
{
    int rc = anim_metric_grid_build(rd->doc, &rd->doc->clips[doc_clip], grid, err);
    if (rc == 0)
        return anim_error_set(err, ANIM_ERR_INVALID, "clip '%s' has no metric grid",
                              rd->doc->clips[doc_clip].name);
    return rc < 0 ? -1 : 0;
}
