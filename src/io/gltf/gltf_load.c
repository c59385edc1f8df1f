/* Loading a .glb / .gltf: container framing, JSON, buffers, then the
 * normalized document. Every framing fault is refused: a reader that
 * guesses at a broken container reports numbers from bytes it misread. */
#include "io/fbx/fbx_load.h"
#include "io/gltf/gltf_internal.h"
#include "io/json/json_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "animsmith/path.h"
#include "animsmith/sample.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

bool gltf_tree_only = false;

void anim_load_options_default(anim_load_options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->max_file_bytes = ANIM_LIMIT_FILE_DEFAULT;
    opts->confine_uris = true;
}

/* Every load error starts with the file it is about, once: the message may
 * already start with it (a read error of the file itself). */
static void name_file(anim_error *err, const char *path)
{
    if (!err || !path)
        return;
    size_t n = strlen(path);
    if (strncmp(err->message, path, n) == 0 && err->message[n] == ':')
        return;
    anim_error_prefix(err, "%s", path);
}

/* Every clip's metric grid must fit the grid budget: refused here, named,
 * rather than failing later inside a check that can only report a missing
 * sample. */
static int check_grid_budgets(const anim_doc *doc, anim_error *err)
{
    for (uint32_t c = 0; c < doc->clip_count; c++)
        if (anim_metric_grid_check_budget(doc, &doc->clips[c], err))
            return -1;
    return 0;
}

static uint32_t read_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* GLB 2.0: 12-byte header, a JSON chunk, an optional BIN chunk, chunks of
 * 4-byte-multiple lengths, and a total length equal to the file size. */
static int glb_split(anim_source *src, anim_error *err)
{
    const uint8_t *b = src->bytes;
    size_t n = src->byte_count;
    if (n < 12)
        return anim_error_set(err, ANIM_ERR_PARSE,
                              "GLB header: the file is %zu bytes, shorter than the 12-byte header", n);
    if (read_u32le(b) != GLB_MAGIC)
        return anim_error_set(err, ANIM_ERR_PARSE, "GLB header: magic is not \"glTF\"");
    uint32_t version = read_u32le(b + 4);
    if (version != 2)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "GLB header: container version %u is not 2", version);
    uint32_t total = read_u32le(b + 8);
    if (total != n)
        return anim_error_set(err, ANIM_ERR_PARSE,
                              "GLB header: declares a length of %u bytes, but the file is %zu bytes",
                              total, n);
    size_t at = 12;
    int chunk = 0;
    while (at < n) {
        if (n - at < 8)
            return anim_error_set(err, ANIM_ERR_PARSE,
                                  "GLB chunk %d: header at byte %zu is truncated", chunk, at);
        uint32_t len = read_u32le(b + at);
        uint32_t type = read_u32le(b + at + 4);
        size_t data = at + 8;
        if (len > n - data)
            return anim_error_set(err, ANIM_ERR_PARSE,
                                  "GLB chunk %d: declares %u bytes at byte %zu, past the end of the file",
                                  chunk, len, data);
        if (len % 4 != 0)
            return anim_error_set(err, ANIM_ERR_PARSE,
                                  "GLB chunk %d: length %u is not a multiple of 4", chunk, len);
        if (chunk == 0) {
            if (type != GLB_CHUNK_JSON)
                return anim_error_set(err, ANIM_ERR_PARSE,
                                      "GLB chunk 0: type 0x%08x is not JSON", type);
            if (len == 0)
                return anim_error_set(err, ANIM_ERR_PARSE, "GLB chunk 0: the JSON chunk is empty");
            src->json_text = (const char *)b + data;
            src->json_length = len;
            src->json_offset = data;
        } else if (type == GLB_CHUNK_JSON) {
            return anim_error_set(err, ANIM_ERR_PARSE, "GLB chunk %d: a second JSON chunk", chunk);
        } else if (type == GLB_CHUNK_BIN) {
            if (chunk != 1)
                return anim_error_set(err, ANIM_ERR_PARSE,
                                      "GLB chunk %d: a BIN chunk must directly follow the JSON chunk",
                                      chunk);
            src->has_bin = true;
            src->bin_offset = data;
            src->bin_length = len;
        }
        /* Chunks of other types are ignored, as the glTF 2.0 specification
         * requires for GLB. */
        at = data + len;
        chunk++;
    }
    if (chunk == 0)
        return anim_error_set(err, ANIM_ERR_PARSE, "GLB: no JSON chunk");
    return 0;
}



static anim_asset *load_stages(anim_asset *asset, const char *base_dir,
                               const anim_load_options *opts, gltf_scan *scan, anim_error *err);

static anim_asset *load_bytes(anim_asset *asset, const char *base_dir,
                              const anim_load_options *opts, anim_error *err)
{
    gltf_scan scan;
    memset(&scan, 0, sizeof scan);
    anim_asset *r = load_stages(asset, base_dir, opts, &scan, err);
    gltf_scan_free(&scan);
    return r;
}

static anim_asset *load_stages(anim_asset *asset, const char *base_dir,
                               const anim_load_options *opts, gltf_scan *scan, anim_error *err)
{
    anim_source *src = &asset->source;
    anim_arena *arena = asset->arena;
    src->base_dir = base_dir ? anim_arena_strdup(arena, base_dir) : NULL;
    if (base_dir && !src->base_dir) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    src->limits = opts->limits;
    asset->doc.limits = opts->limits;
    src->input_bytes = src->bytes;
    src->input_byte_count = src->byte_count;
    if (src->is_glb) {
        if (glb_split(src, err))
            return NULL;
    } else {
        src->json_text = (const char *)src->bytes;
        src->json_length = src->byte_count;
        src->json_offset = 0;
    }
    /* The parser reads the JSON text once, front to back: fault it in ahead
     * of the parser in one call instead of one fault per few pages. */
    gltf_prefetch(src->json_text, src->json_length);
    anim_json_limits limits = {0, 0};
    /* The large arrays are recorded by the scanner, not built as a tree. */
    src->root = json_parse_hooked(arena, src->json_text, src->json_length, &limits,
                                  gltf_tree_only ? NULL : gltf_scan_hook, scan, err);
    if (!src->root) {
        anim_error_prefix(err, "glTF parse error: %s", src->is_glb ? "JSON chunk" : "JSON");
        return NULL;
    }
    if (gltf_require_object(src->root, "glTF root", err))
        return NULL;
    const anim_json_value *asset_obj = anim_json_get(src->root, "asset");
    const anim_json_value *version = NULL;
    if (!asset_obj)
        anim_error_set(err, ANIM_ERR_INVALID, "glTF root: missing required \"asset\"");
    if (!asset_obj || gltf_require_object(asset_obj, "asset", err) ||
        gltf_get_string_value(asset_obj, "version", "asset", &version, err))
        return NULL;
    if (!version)
        return anim_error_set(err, ANIM_ERR_INVALID, "asset: missing required \"version\""), NULL;
    if (version->len < 2 || memcmp(version->u.string, "2.", 2) != 0)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "asset: glTF version \"%.*s\" is not 2.x", (int)version->len,
                              version->u.string), NULL;
    if (gltf_parse_extensions(src, arena, err) ||
        gltf_resolve_buffers(src, arena, base_dir, opts, err) ||
        gltf_parse_views_and_accessors(src, arena, scan, err) ||
        gltf_build_skeleton(src, arena, &asset->doc, err) ||
        gltf_build_assets(src, arena, &asset->doc, err) ||
        gltf_build_clips(src, arena, &asset->doc, scan, err) ||
        check_grid_budgets(&asset->doc, err))
        return NULL;
    return asset;
}

static anim_asset *asset_new(anim_error *err)
{
    anim_asset *asset = calloc(1, sizeof *asset);
    if (asset)
        asset->arena = anim_arena_new();
    if (!asset || !asset->arena) {
        free(asset);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return asset;
}

anim_asset *anim_asset_load(const char *path, const anim_load_options *opts, anim_error *err)
{
    anim_load_options defaults;
    if (!opts) {
        anim_load_options_default(&defaults);
        opts = &defaults;
    }
    if (anim_path_has_extension(path, ".fbx"))
        return anim_fbx_asset_load(path, opts, err);
    bool glb = anim_path_has_extension(path, ".glb");
    if (!glb && !anim_path_has_extension(path, ".gltf")) {
        anim_error_set(err, ANIM_ERR_USAGE,
                       "%s: unsupported input (expected .glb, .gltf, or .fbx)", path);
        return NULL;
    }
    anim_asset *asset = asset_new(err);
    if (!asset) {
        name_file(err, path);
        return NULL;
    }
    const uint8_t *bytes;
    size_t len;
    if (gltf_map_file(path, opts->max_file_bytes, asset->arena, &asset->source.mappings, &bytes,
                      &len, err)) {
        name_file(err, path);
        anim_asset_free(asset);
        return NULL;
    }
    asset->source.path = anim_arena_strdup(asset->arena, path);
    asset->source.is_glb = glb;
    asset->source.bytes = bytes;
    asset->source.byte_count = len;
    const char *base = anim_path_dirname(asset->arena, path);
    if (!asset->source.path || !base)
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (!asset->source.path || !base || !load_bytes(asset, base, opts, err)) {
        name_file(err, path);
        anim_asset_free(asset);
        return NULL;
    }
    return asset;
}

static anim_asset *load_memory(const void *bytes, size_t len, bool is_glb, const char *base_dir,
                               const char *display_path, const anim_load_options *opts,
                               anim_error *err)
{
    if (len > opts->max_file_bytes) {
        anim_error_set(err, ANIM_ERR_LIMIT, "input of %zu bytes exceeds the %zu-byte limit", len,
                       opts->max_file_bytes);
        return NULL;
    }
    anim_asset *asset = asset_new(err);
    if (!asset)
        return NULL;
    uint8_t *copy = anim_arena_alloc(asset->arena, len + 1);
    if (!copy) {
        anim_asset_free(asset);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (len)
        memcpy(copy, bytes, len);
    copy[len] = 0;
    asset->source.path = anim_arena_strdup(asset->arena, display_path ? display_path : "<memory>");
    if (!asset->source.path) {
        anim_asset_free(asset);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    asset->source.is_glb = is_glb;
    asset->source.bytes = copy;
    asset->source.byte_count = len;
    if (!load_bytes(asset, base_dir, opts, err)) {
        anim_asset_free(asset);
        return NULL;
    }
    return asset;
}

anim_asset *anim_asset_load_memory(const void *bytes, size_t len, bool is_glb,
                                   const char *base_dir, const char *display_path,
                                   const anim_load_options *opts, anim_error *err)
{
    anim_load_options defaults;
    if (!opts) {
        anim_load_options_default(&defaults);
        opts = &defaults;
    }
    anim_asset *asset = load_memory(bytes, len, is_glb, base_dir, display_path, opts, err);
    if (!asset)
        name_file(err, display_path);
    return asset;
}

void anim_asset_free(anim_asset *asset)
{
    if (!asset)
        return;
    gltf_unmap_all(asset->source.mappings);
    anim_arena_free(asset->arena);
    free(asset);
}
