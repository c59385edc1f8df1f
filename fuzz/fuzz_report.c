/* libFuzzer entry for the HTML report on untrusted documents: any byte
 * string that loads (as GLB or .gltf) is rendered as a full report, an
 * evidence-only one and a one-clip report of its first clip, with the
 * default contract and with one that declares a gait group over its first
 * two clips. Rendering reads everything the report embeds from the file
 * (meshes, skins, joints, indices, every clip's grid), so a malformed mesh
 * must be left out with a reason and a refusal must say why; nothing may
 * crash, leak or read outside its arrays. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/html_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render(const anim_asset *a, const anim_config *cfg, const char *clip, bool evidence)
{
    anim_html_report_input in = {a, cfg, "fuzz.glb", clip};
    anim_html_report_options opts = {evidence, "fuzz", NULL, NULL};
    anim_html_report_summary summary;
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    if (anim_html_report_render(&in, &opts, &out, &summary, &err) != 0 && err.message[0] == '\0')
        __builtin_trap(); /* every refusal says why */
    anim_strbuf_free(&out);
}

/* A contract with one gait group over the first two clips. */
static anim_config *group_config(const anim_doc *doc)
{
    if (doc->clip_count < 2)
        return NULL;
    char text[1024];
    int n = snprintf(text, sizeof text, "[gait_groups.g]\nclips = [\"%s\", \"%s\"]\n"
                                        "max_gait_phase_spread = 0.1\n",
                     doc->clips[0].name, doc->clips[1].name);
    if (n < 0 || (size_t)n >= sizeof text || strpbrk(doc->clips[0].name, "\"\\\n") ||
        strpbrk(doc->clips[1].name, "\"\\\n"))
        return NULL;
    anim_error err;
    anim_error_clear(&err);
    return anim_config_load_bytes("fuzz.toml", text, (size_t)n, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    anim_load_options opts;
    anim_load_options_default(&opts);
    opts.max_file_bytes = (size_t)16 << 20;
    opts.limits.grid_bytes = (size_t)8 << 20; /* keeps the sampled grids small */
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_default(&err);
    if (!cfg)
        return 0;
    for (int glb = 0; glb < 2; glb++) {
        anim_error_clear(&err);
        anim_asset *a = anim_asset_load_memory(data, size, glb == 1, NULL, "fuzz", &opts, &err);
        if (!a)
            continue;
        render(a, cfg, NULL, false);
        render(a, cfg, NULL, true);
        if (a->doc.clip_count)
            render(a, cfg, a->doc.clips[0].name, false);
        anim_config *grouped = group_config(&a->doc);
        if (grouped) {
            render(a, grouped, NULL, false);
            anim_config_free(grouped);
        }
        anim_asset_free(a);
    }
    anim_config_free(cfg);
    return 0;
}
