/* animsmith inspect FILE [--format text|json]: the discovery view of one
 * asset's exact authored names — rig roles, skeleton, materials, mesh
 * instances and clips — so they can be copied into contracts and recipes;
 * as text for reading or as JSON (the same facts) for scripts. Text is
 * streamed: a section is written out as it grows, so a skeleton of any size
 * costs memory for one chunk of lines, not for the whole listing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/hash.h"
#include "animsmith/json_write.h"
#include "animsmith/names.h"
#include "animsmith/report.h"
#include "animsmith/rig.h"
#include "animsmith/text.h"
#include "args.h"
#include "cli.h"
#include "inspect_fbx.h"

/* Text output is handed to stdout whenever this much has accumulated. */
#define INSPECT_CHUNK_BYTES (64u * 1024u)

/* Deeper bones are indented as this depth and carry a visible "[depth N]"
 * marker instead: two spaces per level would make a long chain's listing
 * grow with the square of its depth. */
#define INSPECT_MAX_INDENT_DEPTH 32u

static void flush_chunk(anim_strbuf *out, bool force)
{
    if (out->failed || (!force && out->len < INSPECT_CHUNK_BYTES))
        return;
    cli_deliver(out);
    anim_strbuf_reset(out);
}

static void put_atom(anim_strbuf *out, const char *s)
{
    anim_text_atom(out, s, strlen(s));
}

static void put_quoted(anim_strbuf *out, const char *s)
{
    anim_text_quote_toml(out, s, strlen(s));
}

/* For n objects of one kind whose names name_of gives (NULL = unnamed):
 * how many of the n carry each one's name (0 when unnamed). Sorted once,
 * so a large skeleton costs n log n, not n squared. */
typedef const char *(*name_of_fn)(const anim_doc *doc, uint32_t i);

static uint32_t *shared_name_counts(const anim_doc *doc, uint32_t n, name_of_fn name_of)
{
    uint32_t *counts = calloc(n ? n : 1, sizeof *counts);
    const char **names = malloc((n ? n : 1) * sizeof *names);
    uint32_t m = 0, *order = NULL;
    if (counts && names) {
        for (uint32_t i = 0; i < n; i++)
            names[i] = name_of(doc, i);
        order = anim_names_order(names, n, &m);
    }
    if (!order) {
        free(counts);
        free(names);
        return NULL;
    }
    for (uint32_t lo = 0, hi; lo < m; lo = hi) {
        for (hi = lo + 1; hi < m && !strcmp(names[order[hi]], names[order[lo]]); hi++)
            ;
        for (uint32_t k = lo; k < hi; k++)
            counts[order[k]] = hi - lo;
    }
    free(order);
    free(names);
    return counts;
}

/* Authored names only: a generated "node{i}" is not a name the file gave,
 * so nothing can be said to share it. */
static const char *bone_name(const anim_doc *doc, uint32_t b)
{
    return doc->bones[b].has_name ? doc->bones[b].name : NULL;
}

static const char *material_name(const anim_doc *doc, uint32_t m)
{
    return doc->materials[m].name;
}

/* The marker inspect puts after a name a contract cannot target alone. */
static void put_ambiguous(anim_strbuf *out, uint32_t same, const char *things)
{
    if (same > 1)
        anim_strbuf_printf(out, " [ambiguous: %u %s share this name]", same, things);
}

static void render_skeleton(const anim_doc *doc, const uint32_t *bone_same, anim_strbuf *out)
{
    anim_strbuf_printf(out, "skeleton: %u bones\n", doc->bone_count);
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        uint32_t shown = bone->depth < INSPECT_MAX_INDENT_DEPTH ? bone->depth
                                                                : INSPECT_MAX_INDENT_DEPTH;
        for (uint32_t d = 0; d <= shown; d++)
            anim_strbuf_puts(out, "  ");
        if (bone->depth >= INSPECT_MAX_INDENT_DEPTH)
            anim_strbuf_printf(out, "[depth %u] ", bone->depth);
        put_atom(out, bone->name);
        if (bone->has_inverse_bind)
            anim_strbuf_puts(out, " [skinned]");
        put_ambiguous(out, bone_same[b], "bones");
        anim_strbuf_putc(out, '\n');
        flush_chunk(out, false);
    }
}

static void render_material_ref(const anim_doc *doc, uint32_t m, anim_strbuf *out)
{
    anim_strbuf_printf(out, "#%u", m);
    if (doc->materials[m].name) {
        anim_strbuf_putc(out, ' ');
        put_quoted(out, doc->materials[m].name);
    } else {
        anim_strbuf_puts(out, " (unnamed)");
    }
}

static void render_materials(const anim_doc *doc, const uint32_t *material_same,
                             anim_strbuf *out)
{
    anim_strbuf_printf(out, "materials: %u\n", doc->material_count);
    for (uint32_t m = 0; m < doc->material_count; m++) {
        anim_strbuf_puts(out, "  ");
        render_material_ref(doc, m, out);
        put_ambiguous(out, material_same[m], "materials");
        anim_strbuf_putc(out, '\n');
        flush_chunk(out, false);
    }
}

/* One block per node that instantiates a mesh, in source node order. */
static void render_mesh_instances(const anim_doc *doc, const uint32_t *bone_same,
                                  anim_strbuf *out)
{
    uint32_t count = 0;
    for (uint32_t b = 0; b < doc->bone_count; b++)
        if (doc->bones[b].mesh != ANIM_NONE)
            count++;
    anim_strbuf_printf(out, "mesh instances: %u\n", count);
    for (uint32_t node = 0; node < doc->node_count; node++) {
        const anim_bone *bone = &doc->bones[doc->node_to_bone[node]];
        if (bone->mesh == ANIM_NONE)
            continue;
        anim_strbuf_puts(out, "  node ");
        if (bone->has_name) {
            put_quoted(out, bone->name);
            anim_strbuf_printf(out, " (node %u)", node);
            put_ambiguous(out, bone_same[doc->node_to_bone[node]], "nodes");
        } else {
            anim_strbuf_printf(out, "(unnamed) (node %u)", node);
        }
        anim_strbuf_putc(out, '\n');
        const anim_mesh *mesh = &doc->meshes[bone->mesh];
        anim_strbuf_printf(out, "    mesh #%u", bone->mesh);
        if (mesh->name) {
            anim_strbuf_putc(out, ' ');
            put_quoted(out, mesh->name);
        }
        if (bone->skin != ANIM_NONE) {
            anim_strbuf_printf(out, ", skinned by skin #%u", bone->skin);
            if (doc->skins[bone->skin].name) {
                anim_strbuf_putc(out, ' ');
                put_quoted(out, doc->skins[bone->skin].name);
            }
            anim_strbuf_printf(out, " (%u joints)", doc->skins[bone->skin].joint_count);
        } else {
            anim_strbuf_puts(out, ", not skinned");
        }
        anim_strbuf_putc(out, '\n');
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            const anim_primitive *prim = &mesh->primitives[p];
            anim_strbuf_printf(out, "    primitive %u: ", p);
            if (prim->material != ANIM_NONE)
                render_material_ref(doc, prim->material, out);
            else
                anim_strbuf_puts(out, "no material");
            anim_strbuf_printf(out, ", %u vertices", prim->vertex_count);
            if (prim->target_count)
                anim_strbuf_printf(out, ", %u morph targets", prim->target_count);
            anim_strbuf_putc(out, '\n');
        }
        flush_chunk(out, false);
    }
}

/* The end of the latest finite morph-weight key (0 without any). */
static double morph_end(const anim_clip *clip)
{
    double end = 0.0;
    for (uint32_t t = 0; t < clip->morph_track_count; t++) {
        const anim_track *mt = &clip->morph_tracks[t];
        for (uint32_t k = 0; k < mt->key_count; k++)
            if (isfinite(mt->times[k]) && mt->times[k] > end)
                end = mt->times[k];
    }
    return end;
}

static void render_clips(const anim_doc *doc, anim_strbuf *out)
{
    anim_strbuf_printf(out, "clips: %u\n", doc->clip_count);
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        anim_strbuf_puts(out, "  ");
        put_atom(out, clip->name);
        anim_strbuf_printf(out, ": %.3fs, %u tracks, %u keys max", clip->duration_s,
                           clip->track_count, clip->max_keys);
        /* Morph-weight channels are not bone tracks; say they exist. */
        if (clip->morph_track_count)
            anim_strbuf_printf(out, " (+%u morph-weight track%s over %.3fs)",
                               clip->morph_track_count, clip->morph_track_count == 1 ? "" : "s",
                               morph_end(clip));
        anim_strbuf_putc(out, '\n');
        flush_chunk(out, false);
    }
}

/* The JSON rendering: the same facts as the text, one object per listed
 * thing, with indices instead of layout (docs/inspect.md). */
static void json_index(anim_json_writer *w, const char *key, uint32_t index)
{
    anim_json_writer_key(w, key);
    if (index == ANIM_NONE)
        anim_json_writer_null(w);
    else
        anim_json_writer_uint(w, index);
}

static void json_bones(anim_json_writer *w, const anim_doc *doc, const uint32_t *bone_same)
{
    anim_json_writer_key(w, "bones");
    anim_json_writer_begin_array(w);
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, bone->name);
        anim_json_writer_key(w, "authored_name");
        anim_json_writer_bool(w, bone->has_name);
        json_index(w, "node", bone->node);
        json_index(w, "parent", bone->parent);
        anim_json_writer_key(w, "depth");
        anim_json_writer_uint(w, bone->depth);
        anim_json_writer_key(w, "skinned");
        anim_json_writer_bool(w, bone->has_inverse_bind);
        anim_json_writer_key(w, "same_name_count");
        anim_json_writer_uint(w, bone_same[b]);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void json_materials(anim_json_writer *w, const anim_doc *doc, const uint32_t *material_same)
{
    anim_json_writer_key(w, "materials");
    anim_json_writer_begin_array(w);
    for (uint32_t m = 0; m < doc->material_count; m++) {
        anim_json_writer_begin_object(w);
        json_index(w, "index", m);
        anim_json_writer_key_string_or_null(w, "name", doc->materials[m].name);
        anim_json_writer_key(w, "same_name_count");
        anim_json_writer_uint(w, material_same[m]);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void json_mesh_instance(anim_json_writer *w, const anim_doc *doc, uint32_t node,
                               const uint32_t *bone_same)
{
    uint32_t b = doc->node_to_bone[node];
    const anim_bone *bone = &doc->bones[b];
    const anim_mesh *mesh = &doc->meshes[bone->mesh];
    anim_json_writer_begin_object(w);
    json_index(w, "node", node);
    anim_json_writer_key_string_or_null(w, "name", bone->has_name ? bone->name : NULL);
    anim_json_writer_key(w, "same_name_count");
    anim_json_writer_uint(w, bone_same[b]);
    anim_json_writer_key(w, "mesh");
    anim_json_writer_begin_object(w);
    json_index(w, "index", bone->mesh);
    anim_json_writer_key_string_or_null(w, "name", mesh->name);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "skin");
    if (bone->skin == ANIM_NONE) {
        anim_json_writer_null(w);
    } else {
        anim_json_writer_begin_object(w);
        json_index(w, "index", bone->skin);
        anim_json_writer_key_string_or_null(w, "name", doc->skins[bone->skin].name);
        anim_json_writer_key(w, "joint_count");
        anim_json_writer_uint(w, doc->skins[bone->skin].joint_count);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_key(w, "primitives");
    anim_json_writer_begin_array(w);
    for (uint32_t p = 0; p < mesh->primitive_count; p++) {
        const anim_primitive *prim = &mesh->primitives[p];
        anim_json_writer_begin_object(w);
        json_index(w, "index", p);
        json_index(w, "material", prim->material);
        anim_json_writer_key(w, "vertex_count");
        anim_json_writer_uint(w, prim->vertex_count);
        anim_json_writer_key(w, "morph_target_count");
        anim_json_writer_uint(w, prim->target_count);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

static void json_clips(anim_json_writer *w, const anim_doc *doc)
{
    anim_json_writer_key(w, "clips");
    anim_json_writer_begin_array(w);
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, clip->name);
        anim_json_writer_key(w, "duration_s");
        anim_json_writer_f64(w, clip->duration_s);
        anim_json_writer_key(w, "track_count");
        anim_json_writer_uint(w, clip->track_count);
        anim_json_writer_key(w, "max_keys");
        anim_json_writer_uint(w, clip->max_keys);
        anim_json_writer_key(w, "morph_weight_track_count");
        anim_json_writer_uint(w, clip->morph_track_count);
        anim_json_writer_key(w, "morph_weight_end_s");
        anim_json_writer_f64(w, morph_end(clip));
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

typedef struct {
    const char *path;
    const anim_asset *asset;
    const anim_rig_resolution *rig;
    const uint32_t *bone_same, *material_same;
} inspect_view;

/* -1 when the writer failed (out of memory). */
static int render_json(const inspect_view *v, anim_strbuf *out)
{
    const anim_doc *doc = &v->asset->doc;
    char sha256[65];
    anim_sha256_hex(v->asset->source.input_bytes, v->asset->source.input_byte_count, sha256);
    anim_tool_info tool;
    cli_tool_info(&tool);
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_output_envelope_begin(&w, &tool, "inspect");
    anim_output_write_file_identity(&w, v->path, sha256, v->asset->source.input_byte_count);
    anim_output_write_rig(&w, doc, v->rig);
    anim_json_writer_key(&w, "skeleton");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "bone_count");
    anim_json_writer_uint(&w, doc->bone_count);
    json_bones(&w, doc, v->bone_same);
    anim_json_writer_end_object(&w);
    json_materials(&w, doc, v->material_same);
    anim_json_writer_key(&w, "mesh_instances");
    anim_json_writer_begin_array(&w);
    for (uint32_t node = 0; node < doc->node_count; node++)
        if (doc->bones[doc->node_to_bone[node]].mesh != ANIM_NONE)
            json_mesh_instance(&w, doc, node, v->bone_same);
    anim_json_writer_end_array(&w);
    json_clips(&w, doc);
    if (v->asset->source.fbx)
        cli_inspect_fbx_json(&w, v->asset->source.fbx);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    return anim_json_writer_ok(&w) ? 0 : -1;
}

/* The text view, streamed to stdout chunk by chunk; -1 on out of memory. */
static int render_text(const inspect_view *v, anim_strbuf *out)
{
    const anim_doc *doc = &v->asset->doc;
    put_atom(out, v->path);
    anim_strbuf_putc(out, '\n');
    anim_rig_format_inspect(doc, v->rig, out);
    render_skeleton(doc, v->bone_same, out);
    render_materials(doc, v->material_same, out);
    render_mesh_instances(doc, v->bone_same, out);
    render_clips(doc, out);
    if (v->asset->source.fbx)
        cli_inspect_fbx_text(v->asset->source.fbx, out);
    if (out->failed)
        return -1;
    flush_chunk(out, true);
    return 0;
}

static int parse_args(int argc, char **argv, const char **path, bool *json)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_option_value(argc, argv, &i, "--format", NULL))) {
            if (cli_text_or_json(v, json))
                return EXIT_OPERATOR;
        } else if (!strcmp(argv[i], "--format")) {
            return cli_operator_error("%s requires a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("inspect: unknown option '%s'", argv[i]);
        } else if (*path) {
            return cli_operator_error("inspect takes exactly one file (got '%s' and '%s')", *path,
                                      argv[i]);
        } else {
            *path = argv[i];
        }
    }
    if (!*path)
        return cli_operator_error("inspect: missing <file> (usage: animsmith inspect <file>)");
    return 0;
}

static int inspect_loaded(const char *path, const anim_asset *asset, const anim_config *cfg,
                          bool json)
{
    const anim_doc *doc = &asset->doc;
    anim_error err;
    anim_error_clear(&err);
    anim_rig_config rig_cfg = anim_config_rig(cfg);
    anim_rig_resolution rig;
    anim_contract_usage usage;
    memset(&usage, 0, sizeof usage);
    if (anim_rig_resolve(doc, &rig_cfg, &rig, &err) ||
        anim_contract_usage_collect(cfg, doc, path, &usage, &err))
        return cli_operator_error("%s", err.message);
    cli_list files = {(char **)&path, 1, 1};
    cli_warn_contract(cfg, &files, &usage);
    anim_contract_usage_free(&usage);
    uint32_t *bone_same = shared_name_counts(doc, doc->bone_count, bone_name);
    uint32_t *material_same = shared_name_counts(doc, doc->material_count, material_name);
    int rc = EXIT_CLEAN;
    anim_strbuf out = ANIM_STRBUF_INIT;
    inspect_view view = {path, asset, &rig, bone_same, material_same};
    if (!bone_same || !material_same)
        rc = cli_operator_error("out of memory");
    else if (json ? render_json(&view, &out) : render_text(&view, &out))
        rc = cli_operator_error("out of memory while rendering output");
    else if (json)
        cli_deliver(&out);
    anim_strbuf_free(&out);
    free(bone_same);
    free(material_same);
    return rc;
}

int cmd_inspect(int argc, char **argv, const cli_globals *globals)
{
    const char *path = NULL;
    bool json = false;
    if (parse_args(argc, argv, &path, &json))
        return EXIT_OPERATOR;
    /* The rig section is the one lint judges with: same contract, same
     * discovery (--config, else ./animsmith.toml), same profile and roles. */
    int rc = EXIT_CLEAN;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = cli_load_asset(path, cfg, &err);
    if (!asset)
        rc = cli_operator_error("%s", err.message);
    else
        rc = inspect_loaded(path, asset, cfg, json);
    anim_asset_free(asset);
    anim_config_free(cfg);
    return rc;
}
