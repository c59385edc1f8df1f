/* libFuzzer entry for the animsmith.toml loader: any byte string must load
 * or be refused with a "bad config" message, without crashing, leaking or
 * reading past the input. A loaded contract is checked for the invariants
 * the lint layer relies on (selectors sorted byte-wise, groups sorted by
 * name, effective selectors de-duplicated) and queried like a lint run. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_invariants(const anim_config *cfg)
{
    for (uint32_t i = 1; i < cfg->clip_count; i++)
        if (strcmp(cfg->clips[i - 1].selector, cfg->clips[i].selector) >= 0)
            __builtin_trap();
    for (uint32_t i = 1; i < cfg->gait_group_count; i++)
        if (strcmp(cfg->gait_groups[i - 1].name, cfg->gait_groups[i].name) > 0)
            __builtin_trap();
    for (uint32_t i = 1; i < cfg->sync_group_count; i++)
        if (strcmp(cfg->sync_groups[i - 1].name, cfg->sync_groups[i].name) > 0)
            __builtin_trap();
    const anim_string_list *sel = &cfg->runtime_selectors;
    for (uint32_t i = 0; i < sel->count && i < 64; i++)
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(sel->items[i], sel->items[j]) == 0)
                __builtin_trap();
    if (!cfg->rig_profile)
        __builtin_trap();
    if (cfg->engine.present && (!cfg->engine.profile || !cfg->engine.profile_revision ||
                                !cfg->engine.engine_version || !cfg->engine.importer))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load_bytes("fuzz.toml", data, size, &err);
    if (!cfg) {
        if (strncmp(err.message, "bad config fuzz.toml: ", 22) != 0)
            __builtin_trap();
        return 0;
    }
    check_invariants(cfg);
    static const char *const names[] = {"walk", "run_forward", "", "a*b", "idle_1h"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        anim_clip_expect x;
        anim_config_clip_expect(cfg, names[i], &x);
    }
    for (uint32_t i = 0; i < cfg->clip_count && i < 16; i++) {
        anim_clip_expect x;
        anim_config_clip_expect(cfg, cfg->clips[i].selector, &x);
    }
    for (int s = 0; s < ANIM_CHECK_SETTING_COUNT; s++)
        (void)anim_config_check_setting(cfg, "loop-seam", (anim_check_setting)s);
    anim_config_free(cfg);
    return 0;
}
