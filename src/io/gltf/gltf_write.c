/* glTF / GLB writer: one writer for a whole document (gltf_write.h).
 *
 * The document's JSON is built as a tree (gltf_out.h) and written with
 * every object's keys in byte-wise sorted order: sorted keys are what let
 * the example assets be regenerated and compared exactly with reference
 * files, and what make the output independent of the order the parts are
 * built in. The container framing (GLB chunks, the .gltf data URI) is
 * here; the parts are in gltf_write_anim.c, gltf_write_assets.c and
 * gltf_write_data.c. */
#include "animsmith/gltf_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/atomic_write.h"
#include "animsmith/json_write.h"
#include "animsmith/path.h"
#include "animsmith_version.h"
#include "io/gltf/gltf_internal.h"
#include "io/gltf/gltf_write_internal.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

anim_gltf_format anim_gltf_format_for_path(const char *path)
{
    return anim_path_has_extension(path, ".glb") ? ANIM_GLTF_FORMAT_GLB : ANIM_GLTF_FORMAT_GLTF;
}

const char *anim_gltf_default_generator(void)
{
    return "animsmith " ANIMSMITH_VERSION_STRING;
}

static void put_u32_le(anim_strbuf *out, uint32_t u)
{
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                          (unsigned char)(u >> 24)};
    anim_strbuf_append(out, b, 4);
}

static int check_bones(const anim_doc *doc, anim_error *err)
{
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        uint32_t p = doc->bones[b].parent;
        if (p != ANIM_NONE && p >= b)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "bone %u '%s': parent %u does not precede it", b,
                                  doc->bones[b].name ? doc->bones[b].name : "", p);
    }
    return 0;
}

static void base64_append(anim_strbuf *out, const unsigned char *p, size_t len)
{
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (!anim_strbuf_reserve(out, (len + 2) / 3 * 4))
        return;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        size_t rem = len - i;
        if (rem > 1)
            v |= (uint32_t)p[i + 1] << 8;
        if (rem > 2)
            v |= p[i + 2];
        char q[4] = {tbl[(v >> 18) & 63], tbl[(v >> 12) & 63], rem > 1 ? tbl[(v >> 6) & 63] : '=',
                     rem > 2 ? tbl[v & 63] : '='};
        anim_strbuf_append(out, q, 4);
    }
}

static void write_asset_and_buffers(gw *g, const char *generator, anim_strbuf *uri)
{
    gout *asset = gout_object(&g->b);
    const anim_json_value *src_asset = g->src ? anim_json_get(g->src->root, "asset") : NULL;
    if (src_asset && src_asset->type == ANIM_JSON_OBJECT) {
        /* Authorship and notes stay; the version and generator are ours. */
        static const char *const kept[] = {"copyright", "extras", "extensions"};
        for (size_t i = 0; i < 3; i++) {
            const anim_json_value *v = anim_json_get(src_asset, kept[i]);
            if (v)
                gout_set(&g->b, asset, kept[i], gout_copy(&g->b, v));
        }
    }
    gout_set(&g->b, asset, "generator", gout_string(&g->b, generator));
    gout_set(&g->b, asset, "version", gout_string(&g->b, "2.0"));
    gout_set(&g->b, g->root, "asset", asset);
    if (g->bin->len == 0)
        return;
    gout_set(&g->b, g->root, "accessors", g->accessors);
    gout_set(&g->b, g->root, "bufferViews", g->views);
    gout *buffer = gout_object(&g->b), *buffers = gout_array(&g->b);
    gout_set(&g->b, buffer, "byteLength", gout_uint(&g->b, g->bin->len));
    if (g->format == ANIM_GLTF_FORMAT_GLTF) {
        anim_strbuf_puts(uri, "data:application/octet-stream;base64,");
        base64_append(uri, (const unsigned char *)g->bin->data, g->bin->len);
        if (uri->failed)
            g->b.failed = true;
        else
            gout_set(&g->b, buffer, "uri", gout_string_n(&g->b, uri->data, uri->len));
    }
    gout_push(&g->b, buffers, buffer);
    gout_set(&g->b, g->root, "buffers", buffers);
}

/* Everything before the binary payload: the .gltf JSON, or the GLB
 * header, the JSON chunk (padded with spaces) and the BIN chunk's header.
 * The payload itself is padded with zeros in place. */
static int frame(anim_gltf_format format, const anim_strbuf *json_in, anim_strbuf *bin,
                 anim_strbuf *head, anim_error *err)
{
    if (format == ANIM_GLTF_FORMAT_GLTF) {
        anim_strbuf_append(head, json_in->data, json_in->len);
        anim_strbuf_reset(bin); /* carried in the data URI */
        return 0;
    }
    size_t json_padded = (json_in->len + 3) & ~(size_t)3;
    size_t bin_padded = (bin->len + 3) & ~(size_t)3;
    uint64_t total = 12 + 8 + (uint64_t)json_padded + (bin->len ? 8 + (uint64_t)bin_padded : 0);
    if (total > UINT32_MAX)
        return anim_error_set(err, ANIM_ERR_LIMIT, "GLB would exceed 4 GiB");
    if (!anim_strbuf_reserve(head, 28 + json_padded) ||
        !anim_strbuf_reserve(bin, bin_padded - bin->len))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing glTF");
    put_u32_le(head, GLB_MAGIC);
    put_u32_le(head, 2);
    put_u32_le(head, (uint32_t)total);
    put_u32_le(head, (uint32_t)json_padded);
    put_u32_le(head, GLB_CHUNK_JSON);
    anim_strbuf_append(head, json_in->data, json_in->len);
    for (size_t i = json_in->len; i < json_padded; i++)
        anim_strbuf_putc(head, ' ');
    if (bin->len) {
        put_u32_le(head, (uint32_t)bin_padded);
        put_u32_le(head, GLB_CHUNK_BIN);
        while (bin->len < bin_padded)
            anim_strbuf_putc(bin, '\0');
    }
    return 0;
}

static void fill_summary(const gw *g, anim_gltf_write_summary *s)
{
    memset(s, 0, sizeof *s);
    s->nodes = g->doc->bone_count;
    for (uint32_t c = 0; c < g->doc->clip_count; c++) {
        if (gw_clip_writable_tracks(g->doc, &g->doc->clips[c]) > 0)
            s->animations++;
        else
            s->dropped_clips++;
    }
    if (!g->src)
        return;
    s->meshes = g->src_doc->mesh_count;
    s->materials = g->src_doc->material_count;
    for (uint32_t m = 0; m < g->src_doc->mesh_count; m++)
        for (uint32_t p = 0; p < g->src_doc->meshes[m].primitive_count; p++)
        {
            const anim_gltf_prim_override *o = gw_override_of(g, m, p);
            s->positions += o ? o->vertex_count : g->src_doc->meshes[m].primitives[p].vertex_count;
        }
}

int gw_render(const anim_asset *asset, const anim_doc *doc, anim_gltf_format format,
              const char *generator, const anim_gltf_prim_override *overrides,
              uint32_t override_count, anim_strbuf *head, anim_strbuf *payload,
              anim_gltf_write_summary *summary, anim_error *err)
{
    if (check_bones(doc, err) != 0)
        return -1;
    if (!generator)
        generator = anim_gltf_default_generator();
    anim_arena *arena = anim_arena_new();
    anim_strbuf bin = ANIM_STRBUF_INIT, json = ANIM_STRBUF_INIT, uri = ANIM_STRBUF_INIT;
    gw g = {.b = {.arena = arena}, .doc = doc, .format = format, .bin = &bin,
            .overrides = overrides, .override_count = override_count, .err = err};
    int rc = -1;
    if (!arena) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (asset) {
        g.src = &asset->source;
        g.src_doc = &asset->doc;
        g.accessor_map = anim_arena_calloc(arena, asset->source.accessor_count + 1,
                                           sizeof *g.accessor_map);
        if (!g.accessor_map) {
            anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (uint32_t i = 0; i < asset->source.accessor_count; i++)
            g.accessor_map[i] = ANIM_NONE;
    }
    g.root = gout_object(&g.b);
    g.views = gout_array(&g.b);
    g.accessors = gout_array(&g.b);
    if (gw_check_overrides(&g) || gw_write_animations(&g) || gw_write_nodes_and_scenes(&g) || gw_write_assets(&g))
        goto done;
    write_asset_and_buffers(&g, generator, &uri);
    if (g.b.failed) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing glTF JSON");
        goto done;
    }
    anim_json_writer w;
    anim_json_writer_init(&w, &json, format == ANIM_GLTF_FORMAT_GLTF);
    if (!gout_write(&w, g.root)) {
        anim_error_set(err, json.failed ? ANIM_ERR_NOMEM : ANIM_ERR_LIMIT,
                       json.failed ? "out of memory while writing glTF JSON"
                                   : "extras or extensions nest too deeply to be written");
        goto done;
    }
    if (!anim_json_writer_ok(&w)) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing glTF JSON");
        goto done;
    }
    if (frame(format, &json, &bin, head, err))
        goto done;
    if (head->failed || bin.failed) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing glTF");
        goto done;
    }
    if (summary)
        fill_summary(&g, summary);
    *payload = bin; /* handed over, not copied: it may be most of the file */
    bin = (anim_strbuf)ANIM_STRBUF_INIT;
    rc = 0;
done:
    anim_strbuf_free(&bin);
    anim_strbuf_free(&json);
    anim_strbuf_free(&uri);
    anim_arena_free(arena);
    return rc;
}

int gw_check_built_doc(const anim_doc *doc, anim_error *err)
{
    if (doc->mesh_count || doc->skin_count || doc->material_count || doc->texture_count ||
        doc->image_count)
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "a document with meshes, skins, materials, textures or images "
                              "is written from its loaded asset (anim_gltf_write_asset_mem)");
    return 0;
}

/* gw_render into one buffer. */
static int write_mem(const anim_asset *asset, const anim_doc *doc, anim_gltf_format format,
                     const char *generator, const anim_gltf_prim_override *overrides,
                     uint32_t override_count, anim_strbuf *out,
                     anim_gltf_write_summary *summary, anim_error *err)
{
    anim_strbuf payload = ANIM_STRBUF_INIT;
    int rc = gw_render(asset, doc, format, generator, overrides, override_count, out, &payload,
                       summary, err);
    if (rc == 0) {
        anim_strbuf_append(out, payload.data, payload.len);
        if (out->failed)
            rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing glTF");
    }
    anim_strbuf_free(&payload);
    return rc;
}

int anim_gltf_write_mem(const anim_doc *doc, anim_gltf_format format, const char *generator,
                        anim_strbuf *out, anim_gltf_write_summary *summary, anim_error *err)
{
    if (gw_check_built_doc(doc, err))
        return -1;
    return write_mem(NULL, doc, format, generator, NULL, 0, out, summary, err);
}

int anim_gltf_write_asset_mem(const anim_asset *asset, const anim_doc *doc,
                              anim_gltf_format format, const char *generator, anim_strbuf *out,
                              anim_gltf_write_summary *summary, anim_error *err)
{
    return write_mem(asset, doc ? doc : &asset->doc, format, generator, NULL, 0, out, summary,
                     err);
}

int anim_gltf_write_asset_mem_with(const anim_asset *asset, const anim_doc *doc,
                                   anim_gltf_format format, const char *generator,
                                   const anim_gltf_prim_override *overrides,
                                   uint32_t override_count, anim_strbuf *out,
                                   anim_gltf_write_summary *summary, anim_error *err)
{
    return write_mem(asset, doc ? doc : &asset->doc, format, generator, overrides,
                     override_count, out, summary, err);
}
