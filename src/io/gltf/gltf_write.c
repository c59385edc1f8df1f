/* glTF / GLB writer for skeleton + animation documents.
 *
 * The JSON is produced with the streaming writer, with every object's keys
 * written in byte-wise sorted order by hand: sorted keys are what let the
 * example assets be regenerated and compared exactly with the corpus's
 * reference files. */
#include "animsmith/gltf_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/atomic_write.h"
#include "animsmith/json_write.h"
#include "animsmith/path.h"
#include "animsmith_version.h"

#define COMPONENT_FLOAT 5126
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

static const char *path_name(anim_path p)
{
    switch (p) {
    case ANIM_PATH_TRANSLATION: return "translation";
    case ANIM_PATH_ROTATION: return "rotation";
    case ANIM_PATH_SCALE: return "scale";
    default: return "weights";
    }
}

static const char *interp_name(anim_interp i)
{
    switch (i) {
    case ANIM_INTERP_STEP: return "STEP";
    case ANIM_INTERP_CUBICSPLINE: return "CUBICSPLINE";
    default: return "LINEAR";
    }
}

static bool track_writable(const anim_doc *doc, const anim_track *t)
{
    return t->key_count >= 1 && t->bone < doc->bone_count;
}

static uint32_t clip_writable_tracks(const anim_doc *doc, const anim_clip *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->track_count; i++)
        n += track_writable(doc, &c->tracks[i]);
    return n;
}

/* Binary32 stored little-endian regardless of host order. */
static void put_f32_le(anim_strbuf *bin, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                          (unsigned char)(u >> 24)};
    anim_strbuf_append(bin, b, 4);
}

static void put_u32_le(anim_strbuf *out, uint32_t u)
{
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                          (unsigned char)(u >> 24)};
    anim_strbuf_append(out, b, 4);
}

/* Authored data is binary32: values held as f64 are narrowed and widened
 * back so the JSON carries exactly what a binary32 file holds. */
static void put_f32_as_f64(anim_json_writer *w, double v)
{
    anim_json_writer_f64(w, (double)(float)v);
}

static void put_vec(anim_json_writer *w, const double *v, int n)
{
    anim_json_writer_begin_array(w);
    for (int i = 0; i < n; i++)
        put_f32_as_f64(w, v[i]);
    anim_json_writer_end_array(w);
}

static int check_doc(const anim_doc *doc, anim_error *err)
{
    if (doc->mesh_count || doc->skin_count || doc->material_count || doc->texture_count ||
        doc->image_count)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "writing meshes, skins, materials, textures or images is not "
                              "supported yet (document has %u mesh(es), %u skin(s), %u "
                              "material(s), %u texture(s), %u image(s))",
                              doc->mesh_count, doc->skin_count, doc->material_count,
                              doc->texture_count, doc->image_count);
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        uint32_t p = doc->bones[b].parent;
        if (p != ANIM_NONE && p >= b)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "bone %u '%s': parent %u does not precede it", b,
                                  doc->bones[b].name ? doc->bones[b].name : "", p);
    }
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        if (clip->morph_track_count)
            return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                  "clip '%s': writing morph weight tracks is not supported yet",
                                  clip->name ? clip->name : "");
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *t = &clip->tracks[i];
            if (!track_writable(doc, t))
                continue;
            uint32_t want = t->path == ANIM_PATH_ROTATION ? 4 : 3;
            uint32_t per_key = t->interp == ANIM_INTERP_CUBICSPLINE ? 3 : 1;
            if (t->path == ANIM_PATH_WEIGHTS || t->components != want)
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "clip '%s' track %u: %u components for %s", clip->name, i,
                                      t->components, path_name(t->path));
            uint64_t elems = (uint64_t)t->key_count * per_key;
            if (t->value_count != elems)
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "clip '%s' track %u: %u value elements for %u key(s)",
                                      clip->name, i, t->value_count, t->key_count);
            for (uint32_t k = 0; k < t->key_count; k++)
                if (!isfinite(t->times[k]))
                    return anim_error_set(err, ANIM_ERR_INVALID,
                                          "clip '%s' track %u: key %u time is not finite",
                                          clip->name, i, k);
        }
    }
    return 0;
}

/* Appends every writable track's times then values to bin. */
static int build_bin(const anim_doc *doc, anim_strbuf *bin, anim_error *err)
{
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *t = &clip->tracks[i];
            if (!track_writable(doc, t))
                continue;
            size_t floats;
            if (!anim_size_mul(t->value_count, t->components, &floats) ||
                !anim_size_add(floats, t->key_count, &floats) ||
                !anim_size_add(bin->len, floats * 4, &floats) || floats > UINT32_MAX - 64)
                return anim_error_set(err, ANIM_ERR_LIMIT,
                                      "clip '%s': animation data exceeds the 4 GiB glTF limit",
                                      clip->name);
            if (!anim_strbuf_reserve(bin, floats - bin->len))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            for (uint32_t k = 0; k < t->key_count; k++)
                put_f32_le(bin, t->times[k]);
            size_t n = (size_t)t->value_count * t->components;
            for (size_t k = 0; k < n; k++)
                put_f32_le(bin, t->values[k]);
        }
    }
    return bin->failed ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
}

static void write_accessors(anim_json_writer *w, const anim_doc *doc)
{
    uint32_t view = 0;
    anim_json_writer_key(w, "accessors");
    anim_json_writer_begin_array(w);
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *t = &clip->tracks[i];
            if (!track_writable(doc, t))
                continue;
            float lo = t->times[0], hi = t->times[0];
            for (uint32_t k = 1; k < t->key_count; k++) {
                lo = t->times[k] < lo ? t->times[k] : lo;
                hi = t->times[k] > hi ? t->times[k] : hi;
            }
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "bufferView");
            anim_json_writer_uint(w, view++);
            anim_json_writer_key(w, "componentType");
            anim_json_writer_uint(w, COMPONENT_FLOAT);
            anim_json_writer_key(w, "count");
            anim_json_writer_uint(w, t->key_count);
            anim_json_writer_key(w, "max");
            anim_json_writer_begin_array(w);
            anim_json_writer_f64(w, (double)hi);
            anim_json_writer_end_array(w);
            anim_json_writer_key(w, "min");
            anim_json_writer_begin_array(w);
            anim_json_writer_f64(w, (double)lo);
            anim_json_writer_end_array(w);
            anim_json_writer_key(w, "type");
            anim_json_writer_string(w, "SCALAR");
            anim_json_writer_end_object(w);

            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "bufferView");
            anim_json_writer_uint(w, view++);
            anim_json_writer_key(w, "componentType");
            anim_json_writer_uint(w, COMPONENT_FLOAT);
            anim_json_writer_key(w, "count");
            anim_json_writer_uint(w, t->value_count);
            anim_json_writer_key(w, "type");
            anim_json_writer_string(w, t->components == 4 ? "VEC4" : "VEC3");
            anim_json_writer_end_object(w);
        }
    }
    anim_json_writer_end_array(w);
}

static void write_animations(anim_json_writer *w, const anim_doc *doc)
{
    uint32_t accessor = 0;
    anim_json_writer_key(w, "animations");
    anim_json_writer_begin_array(w);
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        if (clip_writable_tracks(doc, clip) == 0)
            continue;
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "channels");
        anim_json_writer_begin_array(w);
        uint32_t sampler = 0;
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *t = &clip->tracks[i];
            if (!track_writable(doc, t))
                continue;
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "sampler");
            anim_json_writer_uint(w, sampler++);
            anim_json_writer_key(w, "target");
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "node");
            anim_json_writer_uint(w, t->bone);
            anim_json_writer_key(w, "path");
            anim_json_writer_string(w, path_name(t->path));
            anim_json_writer_end_object(w);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, clip->name ? clip->name : "");
        anim_json_writer_key(w, "samplers");
        anim_json_writer_begin_array(w);
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *t = &clip->tracks[i];
            if (!track_writable(doc, t))
                continue;
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "input");
            anim_json_writer_uint(w, accessor);
            anim_json_writer_key(w, "interpolation");
            anim_json_writer_string(w, interp_name(t->interp));
            anim_json_writer_key(w, "output");
            anim_json_writer_uint(w, accessor + 1);
            anim_json_writer_end_object(w);
            accessor += 2;
        }
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void write_buffer_views(anim_json_writer *w, const anim_doc *doc)
{
    uint64_t offset = 0;
    anim_json_writer_key(w, "bufferViews");
    anim_json_writer_begin_array(w);
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *t = &clip->tracks[i];
            if (!track_writable(doc, t))
                continue;
            uint64_t lens[2] = {(uint64_t)t->key_count * 4,
                                (uint64_t)t->value_count * t->components * 4};
            for (int v = 0; v < 2; v++) {
                anim_json_writer_begin_object(w);
                anim_json_writer_key(w, "buffer");
                anim_json_writer_uint(w, 0);
                anim_json_writer_key(w, "byteLength");
                anim_json_writer_uint(w, lens[v]);
                anim_json_writer_key(w, "byteOffset");
                anim_json_writer_uint(w, offset);
                anim_json_writer_end_object(w);
                offset += lens[v];
            }
        }
    }
    anim_json_writer_end_array(w);
}

static void base64_append(anim_strbuf *out, const unsigned char *p, size_t len)
{
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
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

static void write_json(anim_json_writer *w, const anim_doc *doc, const anim_strbuf *bin,
                       bool data_uri, const char *generator)
{
    uint32_t animations = 0;
    for (uint32_t c = 0; c < doc->clip_count; c++)
        animations += clip_writable_tracks(doc, &doc->clips[c]) > 0;

    anim_json_writer_begin_object(w);
    if (bin->len > 0)
        write_accessors(w, doc);
    if (animations > 0)
        write_animations(w, doc);
    anim_json_writer_key(w, "asset");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "generator");
    anim_json_writer_string(w, generator);
    anim_json_writer_key(w, "version");
    anim_json_writer_string(w, "2.0");
    anim_json_writer_end_object(w);
    if (bin->len > 0) {
        write_buffer_views(w, doc);
        anim_json_writer_key(w, "buffers");
        anim_json_writer_begin_array(w);
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "byteLength");
        anim_json_writer_uint(w, bin->len);
        if (data_uri) {
            anim_strbuf uri = ANIM_STRBUF_INIT;
            anim_strbuf_puts(&uri, "data:application/octet-stream;base64,");
            base64_append(&uri, (const unsigned char *)bin->data, bin->len);
            anim_json_writer_key(w, "uri");
            if (uri.failed)
                w->out->failed = true;
            else
                anim_json_writer_string_n(w, uri.data, uri.len);
            anim_strbuf_free(&uri);
        }
        anim_json_writer_end_object(w);
        anim_json_writer_end_array(w);
    }

    anim_json_writer_key(w, "nodes");
    anim_json_writer_begin_array(w);
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        anim_json_writer_begin_object(w);
        /* Children in ascending bone order; parents precede children, so
         * only later bones can be children. */
        bool any = false;
        for (uint32_t j = b + 1; j < doc->bone_count; j++) {
            if (doc->bones[j].parent != b)
                continue;
            if (!any) {
                anim_json_writer_key(w, "children");
                anim_json_writer_begin_array(w);
                any = true;
            }
            anim_json_writer_uint(w, j);
        }
        if (any)
            anim_json_writer_end_array(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, bone->name ? bone->name : "");
        anim_json_writer_key(w, "rotation");
        put_vec(w, bone->rest_rotation, 4);
        anim_json_writer_key(w, "scale");
        put_vec(w, bone->rest_scale, 3);
        anim_json_writer_key(w, "translation");
        put_vec(w, bone->rest_translation, 3);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "scene");
    anim_json_writer_uint(w, 0);
    anim_json_writer_key(w, "scenes");
    anim_json_writer_begin_array(w);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "nodes");
    anim_json_writer_begin_array(w);
    for (uint32_t b = 0; b < doc->bone_count; b++)
        if (doc->bones[b].parent == ANIM_NONE)
            anim_json_writer_uint(w, b);
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

int anim_gltf_write_mem(const anim_doc *doc, anim_gltf_format format, const char *generator,
                        anim_strbuf *out, anim_gltf_write_summary *summary, anim_error *err)
{
    if (check_doc(doc, err) != 0)
        return -1;
    if (!generator)
        generator = anim_gltf_default_generator();

    anim_strbuf bin = ANIM_STRBUF_INIT;
    anim_strbuf json = ANIM_STRBUF_INIT;
    int rc = -1;
    if (build_bin(doc, &bin, err) != 0)
        goto done;

    anim_json_writer w;
    anim_json_writer_init(&w, &json, format == ANIM_GLTF_FORMAT_GLTF);
    write_json(&w, doc, &bin, format == ANIM_GLTF_FORMAT_GLTF, generator);
    if (!anim_json_writer_ok(&w)) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing glTF JSON");
        goto done;
    }

    if (format == ANIM_GLTF_FORMAT_GLTF) {
        anim_strbuf_append(out, json.data, json.len);
    } else {
        /* JSON padded with spaces, BIN with zeros, each to 4 bytes. */
        while (json.len % 4)
            anim_strbuf_putc(&json, ' ');
        size_t bin_padded = (bin.len + 3) & ~(size_t)3;
        uint64_t total = 12 + 8 + (uint64_t)json.len + (bin.len ? 8 + (uint64_t)bin_padded : 0);
        if (total > UINT32_MAX) {
            anim_error_set(err, ANIM_ERR_LIMIT, "GLB would exceed 4 GiB");
            goto done;
        }
        put_u32_le(out, GLB_MAGIC);
        put_u32_le(out, 2);
        put_u32_le(out, (uint32_t)total);
        put_u32_le(out, (uint32_t)json.len);
        put_u32_le(out, GLB_CHUNK_JSON);
        anim_strbuf_append(out, json.data, json.len);
        if (bin.len) {
            put_u32_le(out, (uint32_t)bin_padded);
            put_u32_le(out, GLB_CHUNK_BIN);
            anim_strbuf_append(out, bin.data, bin.len);
            for (size_t i = bin.len; i < bin_padded; i++)
                anim_strbuf_putc(out, '\0');
        }
    }
    if (out->failed || json.failed) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing glTF");
        goto done;
    }
    if (summary) {
        memset(summary, 0, sizeof *summary);
        summary->nodes = doc->bone_count;
        for (uint32_t c = 0; c < doc->clip_count; c++) {
            if (clip_writable_tracks(doc, &doc->clips[c]) > 0)
                summary->animations++;
            else
                summary->dropped_clips++;
        }
    }
    rc = 0;
done:
    anim_strbuf_free(&bin);
    anim_strbuf_free(&json);
    return rc;
}

int anim_gltf_write_file(const anim_doc *doc, const char *path, const char *generator,
                         anim_gltf_write_summary *summary, anim_error *err)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    int rc = anim_gltf_write_mem(doc, anim_gltf_format_for_path(path), generator, &out, summary,
                                 err);
    if (rc == 0)
        rc = anim_write_file_atomic(path, out.data ? out.data : "", out.len, err);
    else
        anim_error_prefix(err, "%s", path);
    anim_strbuf_free(&out);
    return rc;
}
