/* [limits] (docs/limits.md): the budgets of memory whose size comes from
 * numbers in an asset rather than from its bytes. Each key is a whole
 * number of MiB; unknown keys are refused with the nearest known name, as
 * in every other table. */
#include "animsmith/gltf.h"
#include "config/config_internal.h"

/* Large enough for any real machine, small enough that MiB -> bytes cannot
 * overflow a 64-bit size. */
#define LIMIT_MAX_MIB ((uint64_t)1 << 30)

static size_t *limit_field(anim_limits *l, anim_limit which)
{
    switch (which) {
    case ANIM_LIMIT_FILE: return &l->file_bytes;
    case ANIM_LIMIT_IMPLICIT_ACCESSOR: return &l->implicit_accessor_bytes;
    default: return &l->grid_bytes;
    }
}

int cfg_load_limits(cfg_ctx *c, const anim_toml_value *v)
{
    /* The key names are the budgets' own (anim_limit_key), so the table
     * cannot drift from the messages that tell users to raise them. */
    const char *keys[ANIM_LIMIT_COUNT + 1];
    for (int k = 0; k < ANIM_LIMIT_COUNT; k++)
        keys[k] = anim_limit_key((anim_limit)k);
    keys[ANIM_LIMIT_COUNT] = NULL;
    if (cfg_expect_table(c, v, "limits") < 0 || cfg_check_keys(c, v, "[limits]", keys) < 0)
        return -1;
    for (size_t i = 0; i < v->u.table.count; i++) {
        const anim_toml_entry *e = &v->u.table.entries[i];
        uint64_t mib;
        if (cfg_read_uint(c, "limits", e, &mib) < 0)
            return -1;
        if (mib < 1 || mib > LIMIT_MAX_MIB)
            return cfg_fail(c, e->value->line, e->value->column,
                            "%s must be a whole number of MiB from 1 to %llu (got %llu)",
                            cfg_entry_path(c, "limits", e), (unsigned long long)LIMIT_MAX_MIB,
                            (unsigned long long)mib);
        for (int k = 0; k < ANIM_LIMIT_COUNT; k++)
            if (cfg_key_is(e, anim_limit_key((anim_limit)k)))
                *limit_field(&c->cfg->limits, (anim_limit)k) = (size_t)mib * ANIM_MIB;
    }
    return 0;
}

void anim_config_load_options(const anim_config *cfg, anim_load_options *opts)
{
    anim_load_options_default(opts);
    if (!cfg)
        return;
    opts->limits = cfg->limits;
    opts->max_file_bytes = anim_limits_get(&cfg->limits, ANIM_LIMIT_FILE);
}
