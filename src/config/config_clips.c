/* [clips.<selector>]: per-clip expectations by exact name or
 * `*` glob. Selectors are always quoted in messages, as the docs tell users
 * to write them. in_place is a legacy alias of movement_owner_xz; one entry
 * may not carry both (checked after sorting, in key order). */
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"

static const char *const clip_keys[] = {"loop",
                                        "max_loop_position_delta_m",
                                        "max_loop_rotation_delta_deg",
                                        "max_loop_velocity_delta_mps",
                                        "max_loop_angular_velocity_delta_degps",
                                        "duration_s",
                                        "speed_mps",
                                        "movement_owner_xz",
                                        "movement_owner_y",
                                        "movement_owner_yaw",
                                        "in_place",
                                        "fps",
                                        "animates_bones",
                                        "engine_settings",
                                        NULL};

static const char *const pin_keys[] = {"value", "tolerance", NULL};

/* {value, tolerance}: both required, any number (duration-sanity and
 * root-motion-speed judge the values). */
static int read_pin(cfg_ctx *c, const char *parent, const anim_toml_entry *e, anim_pin *out)
{
    const char *path = cfg_entry_path(c, parent, e);
    if (e->value->type != ANIM_TOML_TABLE)
        return cfg_fail(c, e->value->line, e->value->column,
                        "%s must be a table { value = ..., tolerance = ... }, found %s", path,
                        anim_toml_type_name(e->value->type));
    const char *label = anim_arena_printf(c->arena, "%s", path);
    if (!label)
        return cfg_nomem(c);
    const anim_toml_value *t = e->value;
    if (cfg_check_keys(c, t, label, pin_keys) < 0)
        return -1;
    const anim_toml_entry *value = anim_toml_find(t, "value", 5);
    const anim_toml_entry *tol = anim_toml_find(t, "tolerance", 9);
    if (!value)
        return cfg_missing(c, t, path, "value");
    if (!tol)
        return cfg_missing(c, t, path, "tolerance");
    if (cfg_read_number(c, path, value, CFG_ANY, &out->value) < 0 ||
        cfg_read_number(c, path, tol, CFG_ANY, &out->tolerance) < 0)
        return -1;
    out->set = true;
    return 0;
}

static int read_owner(cfg_ctx *c, const char *parent, const anim_toml_entry *e,
                      anim_movement_owner *out)
{
    const char *s;
    if (cfg_read_string(c, parent, e, &s) < 0)
        return -1;
    if (strcmp(s, "gameplay") == 0)
        *out = ANIM_OWNER_GAMEPLAY;
    else if (strcmp(s, "animation") == 0)
        *out = ANIM_OWNER_ANIMATION;
    else
        return cfg_fail(c, e->value->line, e->value->column,
                        "%s must be \"gameplay\" or \"animation\" (got %s)",
                        cfg_entry_path(c, parent, e), cfg_quote(c, s, strlen(s)));
    return 0;
}

static int read_cap(cfg_ctx *c, const char *parent, const anim_toml_entry *e, anim_opt_f64 *out)
{
    if (cfg_read_number(c, parent, e, CFG_NONNEG, &out->value) < 0)
        return -1;
    out->set = true;
    return 0;
}

static int load_clip(cfg_ctx *c, const anim_toml_entry *te, cfg_clip_tmp *tmp)
{
    const char *path = cfg_path(c, "clips", te->key, te->key_len, true);
    const anim_toml_value *t = te->value;
    if (cfg_expect_table(c, t, path) < 0 ||
        cfg_read_key_name(c, "clips", te, &tmp->sel.selector) < 0)
        return -1;
    const char *label = anim_arena_printf(c->arena, "[%s]", path);
    if (!label)
        return cfg_nomem(c);
    if (cfg_check_keys(c, t, label, clip_keys) < 0)
        return -1;
    anim_clip_expect *x = &tmp->sel.expect;
    tmp->sel.line = t->line;
    tmp->column = t->column;
    tmp->key_len = te->key_len;
    bool in_place = false;
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        int r = 0;
        if (cfg_key_is(e, "loop")) {
            r = cfg_read_bool(c, path, e, &x->loop.value);
            x->loop.set = true;
        } else if (cfg_key_is(e, "max_loop_position_delta_m"))
            r = read_cap(c, path, e, &x->max_loop_position_delta_m);
        else if (cfg_key_is(e, "max_loop_rotation_delta_deg"))
            r = read_cap(c, path, e, &x->max_loop_rotation_delta_deg);
        else if (cfg_key_is(e, "max_loop_velocity_delta_mps"))
            r = read_cap(c, path, e, &x->max_loop_velocity_delta_mps);
        else if (cfg_key_is(e, "max_loop_angular_velocity_delta_degps"))
            r = read_cap(c, path, e, &x->max_loop_angular_velocity_delta_degps);
        else if (cfg_key_is(e, "duration_s"))
            r = read_pin(c, path, e, &x->duration_s);
        else if (cfg_key_is(e, "speed_mps"))
            r = read_pin(c, path, e, &x->speed_mps);
        else if (cfg_key_is(e, "movement_owner_xz")) {
            r = read_owner(c, path, e, &x->movement_owner_xz);
            tmp->has_owner_xz = true;
        } else if (cfg_key_is(e, "movement_owner_y"))
            r = read_owner(c, path, e, &x->movement_owner_y);
        else if (cfg_key_is(e, "movement_owner_yaw"))
            r = read_owner(c, path, e, &x->movement_owner_yaw);
        else if (cfg_key_is(e, "in_place")) {
            r = cfg_read_bool(c, path, e, &in_place);
            tmp->has_in_place = true;
        } else if (cfg_key_is(e, "fps")) {
            /* Any number: the fps check reports a non-positive or
             * non-finite declaration as a gap. */
            r = cfg_read_number(c, path, e, CFG_ANY, &x->fps.value);
            x->fps.set = true;
        } else if (cfg_key_is(e, "animates_bones"))
            r = cfg_read_string_list(c, path, e, &x->animates_bones);
        else if (cfg_key_is(e, "engine_settings")) {
            /* Kept raw for the engine-profile subsystem. */
            r = cfg_expect_table_entry(c, path, e);
            x->engine_settings = e->value;
        }
        if (r < 0)
            return -1;
    }
    if (tmp->has_in_place && !tmp->has_owner_xz)
        x->movement_owner_xz = in_place ? ANIM_OWNER_GAMEPLAY : ANIM_OWNER_ANIMATION;
    return 0;
}

int cfg_load_clips(cfg_ctx *c, const anim_toml_value *v)
{
    if (cfg_expect_table(c, v, "clips") < 0)
        return -1;
    size_t n = v->u.table.count;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX)
        return cfg_fail(c, v->line, v->column, "too many [clips] tables");
    cfg_clip_tmp *tmp = anim_arena_calloc(c->arena, n, sizeof *tmp);
    if (!tmp)
        return cfg_nomem(c);
    for (size_t i = 0; i < n; i++)
        if (load_clip(c, &v->u.table.entries[i], &tmp[i]) < 0)
            return -1;
    c->clips = tmp;
    c->clip_count = (uint32_t)n;
    return 0;
}

/* Byte-wise key order (selectors hold no NUL, so strcmp is byte-wise). */
static int by_selector(const void *a, const void *b)
{
    const cfg_clip_tmp *x = a, *y = b;
    return strcmp(x->sel.selector, y->sel.selector);
}

int cfg_finish_clips(cfg_ctx *c)
{
    if (c->clip_count == 0)
        return cfg_finish_engine(c);
    qsort(c->clips, c->clip_count, sizeof *c->clips, by_selector);
    /* in_place against movement_owner_xz, first half, in key order. */
    for (uint32_t i = 0; i < c->clip_count; i++) {
        const cfg_clip_tmp *t = &c->clips[i];
        if (t->has_in_place && t->has_owner_xz)
            return cfg_fail(c, t->sel.line, t->column,
                            "clip selector %s cannot declare both \"movement_owner_xz\" and "
                            "\"in_place\"",
                            cfg_debug_quote(c, t->sel.selector, t->key_len));
    }
    anim_clip_selector *out = anim_arena_calloc(c->arena, c->clip_count, sizeof *out);
    if (!out)
        return cfg_nomem(c);
    for (uint32_t i = 0; i < c->clip_count; i++)
        out[i] = c->clips[i].sel;
    c->cfg->clips = out;
    c->cfg->clip_count = c->clip_count;
    /* The engine settings of the clips are judged against the profile
     * once every table is read (either may come first in the file). */
    return cfg_finish_engine(c);
}
