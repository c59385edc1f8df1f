/* The refusal every writing command makes before it writes: the output
 * may not be one of the files it read (an input, one of its buffer or
 * image files, or the contract), under any spelling -- the files are
 * compared, not the paths. Writing there would change what was read. */
#include "animsmith/file_id.h"
#include "animsmith/resources.h"
#include "cli.h"

static int check_asset(const anim_asset *asset, const char *label, anim_file_id target,
                       const char *out)
{
    anim_arena *arena = anim_arena_new();
    anim_resource *list = NULL;
    uint32_t n = 0;
    anim_error err;
    anim_error_clear(&err);
    if (!arena || anim_asset_resources(asset, arena, &list, &n, &err)) {
        anim_arena_free(arena);
        return cli_operator_error("out of memory");
    }
    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        if (!anim_file_id_same(anim_file_identify(list[i].path), target))
            continue;
        if (list[i].kind == ANIM_RESOURCE_FILE)
            rc = cli_operator_error("%s: the output is the %s file; write to another path", out,
                                    label);
        else
            rc = cli_operator_error("%s: the output is the %s's %s %u file %s; writing it "
                                    "would change the %s",
                                    out, label,
                                    list[i].kind == ANIM_RESOURCE_BUFFER ? "buffer" : "image",
                                    list[i].index, list[i].path, label);
    }
    anim_arena_free(arena);
    return rc;
}

int cli_check_destination(const anim_asset *const *assets, const char *const *labels, size_t n,
                          const anim_config *cfg, const char *out)
{
    anim_file_id target = anim_file_identify(out);
    if (!target.exists)
        return 0;
    for (size_t i = 0; i < n; i++) {
        int rc = check_asset(assets[i], labels[i], target, out);
        if (rc)
            return rc;
    }
    if (cfg && cfg->path && anim_file_id_same(anim_file_identify(cfg->path), target))
        return cli_operator_error("%s: the output is the config %s; write to another path", out,
                                  cfg->path);
    return 0;
}
