/* libFuzzer entry for the engine layer on untrusted glTF bytes: whatever
 * loads (as GLB and as .gltf JSON) is linted under each Bevy profile, whose
 * checks read the raw JSON tree of the file (the animation and channel
 * inventory, scenes, nodes, [runtime_nodes] selectors), and rendered by
 * generate addressability under revisions 1 and 3 in every format. Each
 * step either succeeds or refuses with a message; the facet lifecycle
 * must hold: an available facet is an evaluated scope, and summary counts
 * are what the records hold. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/addressability.h"
#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/lint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const profiles[] = {
    "[engine]\nprofile = \"bevy\"\nprofile_revision = 1\nengine_version = \"0.19.0\"\n"
    "importer = \"gltf-asset-loader\"\n",
    "[engine]\nprofile = \"bevy\"\nprofile_revision = 2\nengine_version = \"0.19.0\"\n"
    "importer = \"gltf-asset-loader\"\n[engine.settings]\nextension_handler_environment = "
    "\"bare_empty\"\nbevy_animation_feature = true\nload_meshes = \"empty\"\n"
    "[runtime_nodes]\nselectors = [\"*\", \"socket\"]\n",
    "[engine]\nprofile = \"bevy\"\nprofile_revision = 3\nengine_version = \"0.19.0\"\n"
    "importer = \"gltf-asset-loader\"\n[engine.settings]\nextension_handler_environment = "
    "\"bare_empty\"\nbevy_animation_feature = false\ntarget_pointer_width = \"bits64\"\n",
    "[engine]\nprofile = \"bevy\"\nprofile_revision = 3\nengine_version = \"0.19.0\"\n"
    "importer = \"gltf-asset-loader\"\n[engine.settings]\nextension_handler_environment = "
    "\"bevy_pbr_stock_0_19\"\nbevy_animation_feature = true\ntarget_pointer_width = "
    "\"bits32\"\n",
};
#define PROFILE_COUNT (sizeof profiles / sizeof profiles[0])

static anim_config *configs[PROFILE_COUNT];

static void check_record(const anim_check_record *rec)
{
    for (uint32_t i = 0; i < rec->facet_count; i++) {
        const anim_prediction_facet *f = &rec->facets[i];
        if (!f->scope.code)
            __builtin_trap();
        if (f->state == ANIM_FACET_REQUIRED_UNAVAILABLE) {
            if (f->reason_count == 0)
                __builtin_trap();
            continue;
        }
        bool scoped = false;
        for (uint32_t s = 0; s < rec->scope_count && !scoped; s++)
            scoped = strcmp(rec->scopes[s].code, f->scope.code) == 0 &&
                     (rec->scopes[s].subject == NULL) == (f->scope.subject == NULL) &&
                     (!f->scope.subject || strcmp(rec->scopes[s].subject, f->scope.subject) == 0);
        if (!scoped || !f->result_kind)
            __builtin_trap();
    }
}

static void run(const anim_asset *asset)
{
    for (size_t p = 0; p < PROFILE_COUNT; p++) {
        anim_error err;
        anim_error_clear(&err);
        anim_lint_file file;
        if (anim_lint_run(asset, configs[p], NULL, &file, &err) == 0) {
            uint32_t total = 0;
            for (size_t r = 0; r < file.record_count; r++) {
                check_record(&file.records[r]);
                total += file.records[r].facet_count;
            }
            if (total > ANIM_FACET_BUDGET)
                __builtin_trap();
            anim_lint_file_free(&file);
        } else if (!err.message[0]) {
            __builtin_trap();
        }
        if (p == 1)
            continue; /* revision 2 adds nothing to the addressability document */
        for (int fmt = ANIM_ADDRESSABILITY_JSON; fmt <= ANIM_ADDRESSABILITY_MARKDOWN; fmt++) {
            anim_strbuf out = ANIM_STRBUF_INIT;
            bool blocking = false;
            anim_error_clear(&err);
            if (anim_addressability_render(asset, configs[p], NULL,
                                           (anim_addressability_format)fmt, &out, &blocking,
                                           &err) != 0 &&
                !err.message[0])
                __builtin_trap();
            anim_strbuf_free(&out);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!configs[0]) {
        for (size_t p = 0; p < PROFILE_COUNT; p++) {
            anim_error err;
            configs[p] = anim_config_load_bytes("engine.toml", profiles[p], strlen(profiles[p]),
                                                &err);
            if (!configs[p])
                __builtin_trap(); /* the harness's own contracts must load */
        }
    }
    for (int glb = 0; glb <= 1; glb++) {
        anim_error err;
        anim_error_clear(&err);
        anim_asset *asset = anim_asset_load_memory(data, size, glb == 1, NULL, "fuzz", NULL, &err);
        if (!asset)
            continue;
        run(asset);
        anim_asset_free(asset);
    }
    return 0;
}
