/* [gait_groups.<name>] and [sync_groups.<name>] with its optional
 * time_complement table. Member names are exact clip names, kept
 * in order with duplicates (the checks decide what duplicates mean). Caps
 * and amplitudes must be finite and non-negative ("a cap, tolerance, or
 * amplitude is negative, NaN, or infinite" is an error: such a cap would
 * pass or fail everything). Groups are
 * sorted by name, the order every group check iterates in. */
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"

static const char *const gait_keys[] = {"clips", "max_gait_phase_spread", "min_lr_amplitude_m",
                                        NULL};
static const char *const sync_keys[] = {"clips",         "max_duration_delta_s",
                                        "max_frame_count_delta", "max_fps_delta",
                                        "time_complement", NULL};
static const char *const tc_keys[] = {"min_reflected_time_advantage", "min_lr_amplitude_m", NULL};

/* The table at te, checked for type and keys; *path gets its key path. */
static int open_group(cfg_ctx *c, const char *top, const anim_toml_entry *te,
                      const char *const *keys, const char **path, const char **name)
{
    *path = cfg_entry_path(c, top, te);
    if (cfg_expect_table(c, te->value, *path) < 0 || cfg_read_key_name(c, top, te, name) < 0)
        return -1;
    const char *label = anim_arena_printf(c->arena, "[%s]", *path);
    if (!label)
        return cfg_nomem(c);
    return cfg_check_keys(c, te->value, label, keys);
}

static int load_gait(cfg_ctx *c, const anim_toml_entry *te, anim_gait_group *g)
{
    const char *path;
    if (open_group(c, "gait_groups", te, gait_keys, &path, &g->name) < 0)
        return -1;
    const anim_toml_value *t = te->value;
    bool has_spread = false;
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        int r;
        if (cfg_key_is(e, "clips"))
            r = cfg_read_string_list(c, path, e, &g->clips);
        else if (cfg_key_is(e, "max_gait_phase_spread")) {
            r = cfg_read_number(c, path, e, CFG_NONNEG, &g->max_gait_phase_spread);
            has_spread = true;
        } else
            r = cfg_read_number(c, path, e, CFG_NONNEG, &g->min_lr_amplitude_m);
        if (r < 0)
            return -1;
    }
    if (!g->clips.set)
        return cfg_missing(c, t, path, "clips");
    if (!has_spread)
        return cfg_missing(c, t, path, "max_gait_phase_spread");
    return 0;
}

static int load_time_complement(cfg_ctx *c, const char *parent, const anim_toml_entry *te,
                                anim_sync_group *g)
{
    const char *path = cfg_entry_path(c, parent, te);
    const anim_toml_value *t = te->value;
    if (cfg_expect_table(c, t, path) < 0)
        return -1;
    const char *label = anim_arena_printf(c->arena, "[%s]", path);
    if (!label)
        return cfg_nomem(c);
    if (cfg_check_keys(c, t, label, tc_keys) < 0)
        return -1;
    bool has_adv = false, has_amp = false;
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        int r;
        if (cfg_key_is(e, "min_reflected_time_advantage")) {
            r = cfg_read_number(c, path, e, CFG_UNIT, &g->min_reflected_time_advantage);
            has_adv = true;
        } else {
            r = cfg_read_number(c, path, e, CFG_NONNEG, &g->time_complement_min_lr_amplitude_m);
            has_amp = true;
        }
        if (r < 0)
            return -1;
    }
    if (!has_adv)
        return cfg_missing(c, t, path, "min_reflected_time_advantage");
    if (!has_amp)
        return cfg_missing(c, t, path, "min_lr_amplitude_m");
    g->has_time_complement = true;
    return 0;
}

static int load_sync(cfg_ctx *c, const anim_toml_entry *te, anim_sync_group *g)
{
    const char *path;
    if (open_group(c, "sync_groups", te, sync_keys, &path, &g->name) < 0)
        return -1;
    const anim_toml_value *t = te->value;
    bool has_dur = false, has_frames = false, has_fps = false;
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        int r;
        if (cfg_key_is(e, "clips"))
            r = cfg_read_string_list(c, path, e, &g->clips);
        else if (cfg_key_is(e, "max_duration_delta_s")) {
            r = cfg_read_number(c, path, e, CFG_NONNEG, &g->max_duration_delta_s);
            has_dur = true;
        } else if (cfg_key_is(e, "max_frame_count_delta")) {
            r = cfg_read_uint(c, path, e, &g->max_frame_count_delta);
            has_frames = true;
        } else if (cfg_key_is(e, "max_fps_delta")) {
            r = cfg_read_number(c, path, e, CFG_NONNEG, &g->max_fps_delta);
            has_fps = true;
        } else
            r = load_time_complement(c, path, e, g);
        if (r < 0)
            return -1;
    }
    if (!g->clips.set)
        return cfg_missing(c, t, path, "clips");
    if (!has_dur)
        return cfg_missing(c, t, path, "max_duration_delta_s");
    if (!has_frames)
        return cfg_missing(c, t, path, "max_frame_count_delta");
    if (!has_fps)
        return cfg_missing(c, t, path, "max_fps_delta");
    return 0;
}

static int gait_by_name(const void *a, const void *b)
{
    return strcmp(((const anim_gait_group *)a)->name, ((const anim_gait_group *)b)->name);
}

static int sync_by_name(const void *a, const void *b)
{
    return strcmp(((const anim_sync_group *)a)->name, ((const anim_sync_group *)b)->name);
}

int cfg_load_gait_groups(cfg_ctx *c, const anim_toml_value *v)
{
    if (cfg_expect_table(c, v, "gait_groups") < 0)
        return -1;
    size_t n = v->u.table.count;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX)
        return cfg_fail(c, v->line, v->column, "too many gait groups");
    anim_gait_group *g = anim_arena_calloc(c->arena, n, sizeof *g);
    if (!g)
        return cfg_nomem(c);
    for (size_t i = 0; i < n; i++)
        if (load_gait(c, &v->u.table.entries[i], &g[i]) < 0)
            return -1;
    qsort(g, n, sizeof *g, gait_by_name);
    c->cfg->gait_groups = g;
    c->cfg->gait_group_count = (uint32_t)n;
    return 0;
}

int cfg_load_sync_groups(cfg_ctx *c, const anim_toml_value *v)
{
    if (cfg_expect_table(c, v, "sync_groups") < 0)
        return -1;
    size_t n = v->u.table.count;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX)
        return cfg_fail(c, v->line, v->column, "too many sync groups");
    anim_sync_group *g = anim_arena_calloc(c->arena, n, sizeof *g);
    if (!g)
        return cfg_nomem(c);
    for (size_t i = 0; i < n; i++)
        if (load_sync(c, &v->u.table.entries[i], &g[i]) < 0)
            return -1;
    qsort(g, n, sizeof *g, sync_by_name);
    c->cfg->sync_groups = g;
    c->cfg->sync_group_count = (uint32_t)n;
    return 0;
}
