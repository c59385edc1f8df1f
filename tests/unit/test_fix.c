/* fix: the byte-surgical quaternion repairs. The example
 * clip-dirty.glb, plus small glTF files built here for the containers and
 * encodings the examples do not have: .gltf with an external buffer, data
 * URI buffers, CUBICSPLINE and quantized rotations, strided views,
 * zero-length and unnamed tracks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animsmith/gltf.h"
#include "animsmith/repair.h"
#include "animsmith/strbuf.h"
#include "support/test_support.h"

static const anim_repair_id BOTH[2] = {ANIM_REPAIR_QUAT_NORM, ANIM_REPAIR_QUAT_FLIP};

/* ---- files ---- */

static char tmp_root[256];

static int make_tmp(void **state)
{
    (void)state;
    snprintf(tmp_root, sizeof tmp_root, "/tmp/animsmith-fix-XXXXXX");
    return mkdtemp(tmp_root) ? 0 : -1;
}

static int remove_tmp(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp_path(const char *name)
{
    /* A ring big enough that no test holds a path it has overwritten. */
    static char paths[64][512];
    static int next;
    char *p = paths[next++ % 64];
    snprintf(p, 512, "%s/%s", tmp_root, name);
    return p;
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return data;
}

static void write_all(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static const char *source_path(const char *rel)
{
    static char buf[1024];
    const char *root = getenv("ANIMSMITH_SOURCE_DIR");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", rel);
    return buf;
}

/* ---- a tiny glTF builder: one animation "swing", one rotation track per
 * node under a root ---- */

typedef enum { CONTAINER_GLB, CONTAINER_EXTERNAL, CONTAINER_DATA_URI } container;

typedef struct track_def {
    const char *bone;        /* NULL: unnamed node */
    bool cubic;
    bool quantized;          /* normalized SHORT output */
    uint32_t stride;         /* 0: tightly packed */
    uint32_t keys;
    const float *values;     /* keys * (cubic ? 3 : 1) * 4 floats */
} track_def;

static void put_u32(anim_strbuf *b, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    anim_strbuf_append(b, le, 4);
}

static void put_f32(anim_strbuf *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(b, u);
}

/* Writes stem.glb or stem.gltf (+ stem.bin) in the temp dir and returns
 * the path. Stride padding bytes are 0xAB so a test can see they survive. */
static const char *build(const char *stem, container c, const track_def *defs, int n,
                         bool clip_named)
{
    anim_strbuf bin = ANIM_STRBUF_INIT, acc = ANIM_STRBUF_INIT, views = ANIM_STRBUF_INIT;
    anim_strbuf json = ANIM_STRBUF_INIT, samplers = ANIM_STRBUF_INIT, channels = ANIM_STRBUF_INIT;
    anim_strbuf nodes = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&nodes, "{\"name\":\"root\",\"children\":[");
    for (int i = 0; i < n; i++)
        anim_strbuf_printf(&nodes, "%s%d", i ? "," : "", i + 1);
    anim_strbuf_puts(&nodes, "]}");
    for (int i = 0; i < n; i++) {
        const track_def *d = &defs[i];
        uint32_t elements = d->keys * (d->cubic ? 3 : 1);
        if (d->bone)
            anim_strbuf_printf(&nodes, ",{\"name\":\"%s\"}", d->bone);
        else
            anim_strbuf_puts(&nodes, ",{}");
        /* times */
        size_t t_off = bin.len;
        for (uint32_t k = 0; k < d->keys; k++)
            put_f32(&bin, 0.25f * (float)k);
        anim_strbuf_printf(&views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u}",
                           i ? "," : "", t_off, d->keys * 4);
        anim_strbuf_printf(&acc,
                           "%s{\"bufferView\":%d,\"componentType\":5126,\"count\":%u,"
                           "\"type\":\"SCALAR\",\"min\":[0],\"max\":[%g]}",
                           i ? "," : "", 2 * i, d->keys, 0.25 * (d->keys - 1));
        /* values */
        size_t v_off = bin.len;
        uint32_t elem = d->quantized ? 8 : 16;
        uint32_t stride = d->stride ? d->stride : elem;
        for (uint32_t e = 0; e < elements; e++) {
            for (int c4 = 0; c4 < 4; c4++) {
                float f = d->values[e * 4 + c4];
                if (d->quantized) {
                    float clamped = f > 1 ? 1 : f < -1 ? -1 : f;
                    int16_t s = (int16_t)lroundf(clamped * 32767.0f);
                    uint8_t le[2] = {(uint8_t)s, (uint8_t)((uint16_t)s >> 8)};
                    anim_strbuf_append(&bin, le, 2);
                } else {
                    put_f32(&bin, f);
                }
            }
            for (uint32_t pad = elem; e + 1 < elements && pad < stride; pad++)
                anim_strbuf_putc(&bin, (char)0xAB);
        }
        size_t v_len = bin.len - v_off;
        while (bin.len % 4)
            anim_strbuf_putc(&bin, 0);
        anim_strbuf_printf(&views, ",{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu", v_off,
                           v_len);
        if (d->stride)
            anim_strbuf_printf(&views, ",\"byteStride\":%u", d->stride);
        anim_strbuf_puts(&views, "}");
        anim_strbuf_printf(&acc,
                           ",{\"bufferView\":%d,\"componentType\":%d,%s\"count\":%u,"
                           "\"type\":\"VEC4\"}",
                           2 * i + 1, d->quantized ? 5122 : 5126,
                           d->quantized ? "\"normalized\":true," : "", elements);
        anim_strbuf_printf(&samplers, "%s{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}",
                           i ? "," : "", 2 * i, 2 * i + 1, d->cubic ? "CUBICSPLINE" : "LINEAR");
        anim_strbuf_printf(&channels,
                           "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"rotation\"}}",
                           i ? "," : "", i, i + 1);
    }
    anim_strbuf_printf(&json,
                       "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
                       "\"nodes\":[%s],\"animations\":[{%s\"channels\":[%s],\"samplers\":[%s]}],"
                       "\"accessors\":[%s],\"bufferViews\":[%s],\"buffers\":[{\"byteLength\":%zu",
                       nodes.data, clip_named ? "\"name\":\"swing\"," : "", channels.data,
                       samplers.data, acc.data, views.data, bin.len);
    char file[256];
    snprintf(file, sizeof file, "%s.bin", stem);
    if (c == CONTAINER_EXTERNAL) {
        anim_strbuf_printf(&json, ",\"uri\":\"%s\"", file);
        write_all(tmp_path(file), bin.data, bin.len);
    } else if (c == CONTAINER_DATA_URI) {
        anim_strbuf_puts(&json, ",\"uri\":\"data:application/octet-stream;base64,");
        test_support_base64_append(&json, bin.data, bin.len);
        anim_strbuf_putc(&json, '"');
    }
    anim_strbuf_puts(&json, "}]}");
    snprintf(file, sizeof file, "%s.%s", stem, c == CONTAINER_GLB ? "glb" : "gltf");
    const char *path = tmp_path(file);
    if (c == CONTAINER_GLB) {
        while (json.len % 4)
            anim_strbuf_putc(&json, ' ');
        anim_strbuf glb = ANIM_STRBUF_INIT;
        anim_strbuf_append(&glb, "glTF", 4);
        put_u32(&glb, 2);
        put_u32(&glb, (uint32_t)(12 + 8 + json.len + 8 + bin.len));
        put_u32(&glb, (uint32_t)json.len);
        anim_strbuf_append(&glb, "JSON", 4);
        anim_strbuf_append(&glb, json.data, json.len);
        put_u32(&glb, (uint32_t)bin.len);
        anim_strbuf_append(&glb, "BIN\0", 4);
        anim_strbuf_append(&glb, bin.data, bin.len);
        write_all(path, glb.data, glb.len);
        anim_strbuf_free(&glb);
    } else {
        write_all(path, json.data, json.len);
    }
    anim_strbuf *all[] = {&bin, &acc, &views, &json, &samplers, &channels, &nodes};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        anim_strbuf_free(all[i]);
    return path;
}

static anim_asset *load(const char *path)
{
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load(path, NULL, &err);
    if (!a)
        fail_msg("load %s: %s", path, err.message);
    return a;
}

static anim_fix *apply(const anim_asset *a, const anim_repair_id *ids, uint32_t n)
{
    anim_error err;
    anim_error_clear(&err);
    anim_fix *fix = anim_fix_apply(a, ids, n, &err);
    if (!fix)
        fail_msg("apply: %s", err.message);
    return fix;
}

static char *format(const anim_fix *fix, const char *dest)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_fix_format(fix, dest == NULL, dest, &out);
    return out.data ? out.data : calloc(1, 1);
}

/* ---- independent checks on a reloaded file ---- */

/* Quaternion findings the lint checks would report,
 * recomputed here in f64: non-unit keys beyond 1e-3 and negative adjacent
 * dots, over every rotation track's value elements. */
static void count_quat_defects(const anim_asset *a, uint32_t *non_unit, uint32_t *flips)
{
    *non_unit = *flips = 0;
    for (uint32_t c = 0; c < a->doc.clip_count; c++)
        for (uint32_t t = 0; t < a->doc.clips[c].track_count; t++) {
            const anim_track *tr = &a->doc.clips[c].tracks[t];
            if (tr->path != ANIM_PATH_ROTATION)
                continue;
            for (uint32_t k = 0; k < tr->key_count; k++) {
                const float *q = anim_track_key_value(tr, k);
                double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] +
                                  (double)q[2] * q[2] + (double)q[3] * q[3]);
                if (fabs(len - 1.0) > 1e-3)
                    (*non_unit)++;
                if (k > 0) {
                    const float *p = anim_track_key_value(tr, k - 1);
                    if ((double)p[0] * q[0] + (double)p[1] * q[1] + (double)p[2] * q[2] +
                            (double)p[3] * q[3] <
                        0)
                        (*flips)++;
                }
            }
        }
}

/* Marks the bytes of every rotation output element of the asset, offset
 * into the file that holds buffer `buffer` (base = where it starts). */
static void mark_rotation_bytes(const anim_asset *a, uint32_t buffer, size_t base, bool *mask,
                                size_t len)
{
    const anim_source *s = &a->source;
    for (uint32_t c = 0; c < a->doc.clip_count; c++)
        for (uint32_t t = 0; t < a->doc.clips[c].track_count; t++) {
            const anim_track *tr = &a->doc.clips[c].tracks[t];
            if (tr->path != ANIM_PATH_ROTATION)
                continue;
            const anim_accessor *acc = &s->accessors[tr->output_accessor];
            const anim_buffer_view *v = &s->views[acc->buffer_view];
            if (v->buffer != buffer)
                continue;
            size_t stride = v->byte_stride ? v->byte_stride : 16;
            for (uint32_t e = 0; e < acc->count; e++)
                for (size_t i = 0; i < 16; i++) {
                    size_t at = base + v->byte_offset + acc->byte_offset + e * stride + i;
                    assert_true(at < len);
                    mask[at] = true;
                }
        }
}

/* Every byte outside the rotation values is the input's; returns how many
 * bytes inside them differ. */
static size_t diff_outside(const uint8_t *in, const uint8_t *out, size_t len, const bool *mask)
{
    size_t inside = 0;
    for (size_t i = 0; i < len; i++) {
        if (in[i] == out[i])
            continue;
        if (!mask[i])
            fail_msg("byte %zu outside the rotation values changed", i);
        inside++;
    }
    return inside;
}

/* ---- tests ---- */

static void test_repair_ids(void **state)
{
    (void)state;
    anim_repair_id ids[ANIM_REPAIR_COUNT];
    uint32_t n = 0;
    anim_error err;
    assert_int_equal(anim_repair_parse_list("quat-flip,quat-norm,quat-flip", ids, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_int_equal(ids[0], ANIM_REPAIR_QUAT_FLIP);
    assert_int_equal(ids[1], ANIM_REPAIR_QUAT_NORM);
    n = 0;
    assert_int_equal(anim_repair_parse_list("quat-norm,bogus", ids, &n, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_USAGE);
    assert_non_null(strstr(err.message, "'bogus'"));
    n = 0;
    assert_int_equal(anim_repair_parse_list("", ids, &n, &err), -1);
    assert_string_equal(anim_repair_name(ANIM_REPAIR_QUAT_NORM), "quat-norm");
    assert_string_equal(anim_repair_name(ANIM_REPAIR_QUAT_FLIP), "quat-flip");
}

static void test_clip_dirty(void **state)
{
    (void)state;
    const char *in_path = source_path("examples/assets/clip-dirty.glb");
    size_t in_len;
    uint8_t *before = read_all(in_path, &in_len);
    assert_non_null(before);
    anim_asset *a = load(in_path);
    anim_fix *fix = apply(a, BOTH, 2);
    assert_true(anim_fix_pending(fix));
    assert_int_equal(fix->pass_count, 2);
    for (int p = 0; p < 2; p++) {
        assert_int_equal(fix->passes[p].keys, 1);
        assert_int_equal(fix->passes[p].track_count, 1);
        assert_int_equal(fix->passes[p].skip_count, 0);
        assert_string_equal(fix->passes[p].tracks[0].clip, "swing");
        assert_string_equal(fix->passes[p].tracks[0].bone, "spine");
    }
    char *dry = format(fix, NULL);
    assert_string_equal(
        dry, "  would fix[quat-norm] clip 'swing' bone 'spine': 1 key(s) unit-normalized\n"
             "  would fix[quat-flip] clip 'swing' bone 'spine': 1 key(s) hemisphere-normalized\n"
             "2 key(s) would be fixed across 1 track(s) -> no output written\n");
    free(dry);
    char *wet = format(fix, "fixed.glb");
    assert_string_equal(wet,
                        "  fixed[quat-norm] clip 'swing' bone 'spine': 1 key(s) unit-normalized\n"
                        "  fixed[quat-flip] clip 'swing' bone 'spine': 1 key(s) hemisphere-normalized\n"
                        "2 key(s) fixed across 1 track(s) -> fixed.glb\n");
    free(wet);

    /* Planning (the dry run) wrote nothing and left the loaded asset as is. */
    size_t again_len;
    uint8_t *again = read_all(in_path, &again_len);
    assert_int_equal(again_len, in_len);
    assert_memory_equal(again, before, in_len);
    free(again);
    uint32_t nu, fl;
    count_quat_defects(a, &nu, &fl);
    assert_int_equal(nu, 1);
    assert_int_equal(fl, 2);

    anim_error err;
    const char *out_path = tmp_path("fixed.glb");
    assert_int_equal(anim_fix_write(fix, out_path, false, &err), 0);
    size_t out_len;
    uint8_t *after = read_all(out_path, &out_len);
    assert_int_equal(out_len, in_len);
    bool *mask = calloc(in_len, 1);
    mark_rotation_bytes(a, 0, a->source.bin_offset, mask, in_len);
    /* Key 2 normalized (up to 16 bytes) and key 3 negated (4 sign bytes). */
    size_t changed = diff_outside(before, after, in_len, mask);
    assert_true(changed > 4 && changed <= 20);

    anim_asset *b = load(out_path);
    count_quat_defects(b, &nu, &fl);
    assert_int_equal(nu, 0);
    assert_int_equal(fl, 0);
    /* The normalized key is |q| = 1 within f32 rounding. */
    const float *q = anim_track_key_value(&b->doc.clips[0].tracks[0], 2);
    assert_true(fabs(sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                          (double)q[3] * q[3]) -
                     1.0) < 1e-6);
    /* Idempotent: fixing the fixed file changes nothing. */
    anim_fix *fix2 = apply(b, BOTH, 2);
    assert_false(anim_fix_pending(fix2));
    char *clean = format(fix2, NULL);
    assert_string_equal(clean, "0 key(s) would be fixed across 0 track(s) -> no output written\n");
    free(clean);
    anim_fix_free(fix2);
    anim_asset_free(b);
    free(mask);
    free(after);
    free(before);
    anim_fix_free(fix);
    anim_asset_free(a);
}

/* --repair subsets run only what was asked, in the order asked. */
static void test_repair_subsets(void **state)
{
    (void)state;
    anim_asset *a = load(source_path("examples/assets/clip-dirty.glb"));
    anim_repair_id norm = ANIM_REPAIR_QUAT_NORM, flip = ANIM_REPAIR_QUAT_FLIP;
    anim_fix *f = apply(a, &norm, 1);
    assert_int_equal(f->pass_count, 1);
    assert_int_equal(f->passes[0].id, ANIM_REPAIR_QUAT_NORM);
    assert_int_equal(f->keys, 1);
    anim_fix_free(f);
    f = apply(a, &flip, 1);
    assert_int_equal(f->pass_count, 1);
    assert_int_equal(f->passes[0].id, ANIM_REPAIR_QUAT_FLIP);
    assert_int_equal(f->passes[0].keys, 1);
    char *text = format(f, NULL);
    assert_string_equal(
        text, "  would fix[quat-flip] clip 'swing' bone 'spine': 1 key(s) hemisphere-normalized\n"
              "1 key(s) would be fixed across 1 track(s) -> no output written\n");
    free(text);
    anim_fix_free(f);
    const anim_repair_id rev[2] = {ANIM_REPAIR_QUAT_FLIP, ANIM_REPAIR_QUAT_NORM};
    f = apply(a, rev, 2);
    assert_int_equal(f->passes[0].id, ANIM_REPAIR_QUAT_FLIP);
    assert_int_equal(f->passes[1].id, ANIM_REPAIR_QUAT_NORM);
    assert_int_equal(f->passes[1].keys, 1);
    anim_fix_free(f);
    anim_asset_free(a);
}

/* Key 2 is 1.05 long, key 3 sits alone on the other hemisphere: lint
 * counts two negative pairs, the chain flips one key (as clip-dirty). */
static const float DIRTY[20] = {0, 0, 0, 1,  0, 0.05f, 0, 0.99875f, 0, 0.105f, 0, 1.0447f,
                                0, -0.15f, 0, -0.9887f, 0, 0.2f, 0, 0.9798f};

static void test_gltf_external_buffer(void **state)
{
    (void)state;
    track_def d = {"spine", false, false, 0, 5, DIRTY};
    const char *in_path = build("ext", CONTAINER_EXTERNAL, &d, 1, true);
    size_t json_len, bin_len;
    uint8_t *json = read_all(in_path, &json_len);
    uint8_t *bin = read_all(tmp_path("ext.bin"), &bin_len);
    anim_asset *a = load(in_path);
    anim_fix *fix = apply(a, BOTH, 2);
    assert_int_equal(fix->passes[0].keys, 1);
    assert_int_equal(fix->passes[1].keys, 1);
    anim_error err;

    /* Beside the input, the output's sidecar would be the input's .bin:
     * refused, nothing written. */
    const char *beside = tmp_path("ext-fixed.gltf");
    assert_int_equal(anim_fix_write(fix, beside, false, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_USAGE);
    assert_non_null(strstr(err.message, "ext.bin"));
    assert_false(exists(beside));
    size_t n;
    uint8_t *now = read_all(tmp_path("ext.bin"), &n);
    assert_int_equal(n, bin_len);
    assert_memory_equal(now, bin, bin_len);
    free(now);

    /* Into another directory: JSON byte-identical, .bin patched only in the
     * rotation values. */
    assert_int_equal(mkdir(tmp_path("out"), 0777), 0);
    const char *out_path = tmp_path("out/ext.gltf");
    assert_int_equal(anim_fix_write(fix, out_path, false, &err), 0);
    uint8_t *out_json = read_all(out_path, &n);
    assert_int_equal(n, json_len);
    assert_memory_equal(out_json, json, json_len);
    uint8_t *out_bin = read_all(tmp_path("out/ext.bin"), &n);
    assert_int_equal(n, bin_len);
    bool *mask = calloc(bin_len, 1);
    mark_rotation_bytes(a, 0, 0, mask, bin_len);
    assert_true(diff_outside(bin, out_bin, bin_len, mask) > 0);
    anim_asset *b = load(out_path);
    uint32_t nu, fl;
    count_quat_defects(b, &nu, &fl);
    assert_int_equal(nu + fl, 0);
    anim_asset_free(b);

    /* In place: the .bin is rewritten, the .gltf is left alone. */
    assert_int_equal(anim_fix_write(fix, in_path, true, &err), 0);
    uint8_t *inplace_bin = read_all(tmp_path("ext.bin"), &n);
    assert_memory_equal(inplace_bin, out_bin, bin_len);
    uint8_t *inplace_json = read_all(in_path, &n);
    assert_memory_equal(inplace_json, json, json_len);
    free(inplace_bin);
    free(inplace_json);
    free(mask);
    free(out_json);
    free(out_bin);
    free(json);
    free(bin);
    anim_fix_free(fix);
    anim_asset_free(a);
}

static void test_data_uri_skipped(void **state)
{
    (void)state;
    track_def d = {"spine", false, false, 0, 5, DIRTY};
    const char *in_path = build("uri", CONTAINER_DATA_URI, &d, 1, true);
    anim_asset *a = load(in_path);
    anim_fix *fix = apply(a, BOTH, 2);
    assert_false(anim_fix_pending(fix));
    char *text = format(fix, NULL);
    assert_string_equal(text,
                        "  skipped[quat-norm]: swing/spine: data-URI buffer (convert to .glb first)\n"
                        "  skipped[quat-flip]: swing/spine: data-URI buffer (convert to .glb first)\n"
                        "0 key(s) would be fixed across 0 track(s) -> no output written\n");
    free(text);
    anim_fix_free(fix);
    anim_asset_free(a);
}

static void test_cubic(void **state)
{
    (void)state;
    /* Three keys of (in, value, out); key 1's value is 2 long, key 2 is on
     * the other hemisphere. */
    static const float cubic[36] = {
        0.1f, 0, 0, 0,  0, 0, 0, 1,      0.2f, 0, 0, 0,
        0.3f, 0, 0, 0,  0, 0, 0, 2,      0.4f, 0, 0, 0,
        0.5f, 0, 0, 0,  0, 0, 0.6f, -0.8f, 0.6f, 0, 0, 0,
    };
    track_def d = {"spine", true, false, 0, 3, cubic};
    const char *in_path = build("cubic", CONTAINER_GLB, &d, 1, true);
    anim_asset *a = load(in_path);
    anim_fix *fix = apply(a, BOTH, 2);
    assert_int_equal(fix->passes[0].keys, 0);
    assert_int_equal(fix->passes[0].skip_count, 1);
    assert_string_equal(fix->passes[0].skips[0].reason,
                        "cubic rotation output (quat-norm skipped to preserve tangents)");
    assert_int_equal(fix->passes[1].keys, 1);
    assert_int_equal(fix->passes[1].skip_count, 0);
    anim_error err;
    const char *out_path = tmp_path("cubic-fixed.glb");
    assert_int_equal(anim_fix_write(fix, out_path, false, &err), 0);
    anim_asset *b = load(out_path);
    const float *v = b->doc.clips[0].tracks[0].values;
    /* Key 2's whole triplet is negated; keys 0 and 1 are untouched. */
    for (int i = 0; i < 24; i++)
        assert_true(v[i] == cubic[i]);
    for (int i = 24; i < 36; i++) {
        assert_true(v[i] == -cubic[i]);
        assert_true(signbit(v[i]) != signbit(cubic[i]));
    }
    assert_true(v[4 * 4 + 3] == 2.0f); /* the 2-long value stays */
    anim_asset_free(b);
    anim_fix_free(fix);
    anim_asset_free(a);
}

static void test_quantized_skipped(void **state)
{
    (void)state;
    track_def d = {"spine", false, true, 0, 5, DIRTY};
    const char *in_path = build("quant", CONTAINER_GLB, &d, 1, true);
    anim_asset *a = load(in_path);
    assert_true(a->doc.clips[0].tracks[0].quantized);
    anim_fix *fix = apply(a, BOTH, 2);
    assert_false(anim_fix_pending(fix));
    char *text = format(fix, NULL);
    assert_string_equal(text, "  skipped[quat-norm]: swing/spine: quantized rotation output (I16)\n"
                              "  skipped[quat-flip]: swing/spine: quantized rotation output (I16)\n"
                              "0 key(s) would be fixed across 0 track(s) -> no output written\n");
    free(text);
    anim_fix_free(fix);
    anim_asset_free(a);
}

/* Strided views: the bytes between elements are never touched. Zero-length
 * keys are left and reported; unnamed clips and bones print <unnamed>. */
static void test_stride_zero_unnamed(void **state)
{
    (void)state;
    static const float zero[12] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3};
    track_def defs[2] = {{"spine", false, false, 24, 5, DIRTY}, {NULL, false, false, 0, 3, zero}};
    const char *in_path = build("stride", CONTAINER_GLB, defs, 2, false);
    size_t in_len;
    uint8_t *before = read_all(in_path, &in_len);
    anim_asset *a = load(in_path);
    anim_fix *fix = apply(a, BOTH, 2);
    char *text = format(fix, "out.glb");
    assert_string_equal(
        text, "  fixed[quat-norm] clip '<unnamed>' bone 'spine': 1 key(s) unit-normalized\n"
              "  fixed[quat-norm] clip '<unnamed>' bone '<unnamed>': 1 key(s) unit-normalized\n"
              "  skipped[quat-norm]: <unnamed>/<unnamed>: zero-length rotation key\n"
              "  fixed[quat-flip] clip '<unnamed>' bone 'spine': 1 key(s) hemisphere-normalized\n"
              "3 key(s) fixed across 2 track(s) -> out.glb\n");
    free(text);
    anim_error err;
    const char *out_path = tmp_path("stride-fixed.glb");
    assert_int_equal(anim_fix_write(fix, out_path, false, &err), 0);
    size_t out_len;
    uint8_t *after = read_all(out_path, &out_len);
    assert_int_equal(out_len, in_len);
    bool *mask = calloc(in_len, 1);
    mark_rotation_bytes(a, 0, a->source.bin_offset, mask, in_len);
    assert_true(diff_outside(before, after, in_len, mask) > 0);
    anim_asset *b = load(out_path);
    const float *z = anim_track_key_value(&b->doc.clips[0].tracks[1], 1);
    assert_true(z[0] == 0 && z[1] == 0 && z[2] == 0 && z[3] == 0);
    const float *w = anim_track_key_value(&b->doc.clips[0].tracks[1], 2);
    assert_true(w[3] == 1.0f);
    anim_asset_free(b);
    free(mask);
    free(after);
    free(before);
    anim_fix_free(fix);
    anim_asset_free(a);
}

/* A refused write leaves an existing output, and the input, untouched. */
static void test_refusals_leave_files(void **state)
{
    (void)state;
    track_def d = {"spine", false, false, 0, 5, DIRTY};
    const char *in_path = build("refuse", CONTAINER_GLB, &d, 1, true);
    size_t in_len;
    uint8_t *before = read_all(in_path, &in_len);
    anim_asset *a = load(in_path);
    anim_fix *fix = apply(a, BOTH, 2);
    anim_error err;
    const char *existing = tmp_path("existing.gltf");
    write_all(existing, "old", 3);
    /* A .glb copied under a .gltf name would be unreadable. */
    assert_int_equal(anim_fix_write(fix, existing, false, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_USAGE);
    size_t n;
    uint8_t *still = read_all(existing, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(still, "old", 3);
    free(still);
    /* The output may not be the input, except in place. */
    assert_int_equal(anim_fix_write(fix, in_path, false, &err), -1);
    assert_non_null(strstr(err.message, "in-place"));
    assert_int_equal(anim_fix_write(fix, tmp_path("other.glb"), true, &err), -1);
    uint8_t *same = read_all(in_path, &n);
    assert_int_equal(n, in_len);
    assert_memory_equal(same, before, in_len);
    free(same);
    assert_false(exists(tmp_path("other.glb")));
    /* A missing output directory is refused before writing. */
    assert_int_equal(anim_fix_write(fix, tmp_path("nowhere/x.glb"), false, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_IO);

    /* In place: the input itself is rewritten, and is then clean. */
    assert_int_equal(anim_fix_write(fix, in_path, true, &err), 0);
    anim_asset *b = load(in_path);
    uint32_t nu, fl;
    count_quat_defects(b, &nu, &fl);
    assert_int_equal(nu + fl, 0);
    anim_fix *again = apply(b, BOTH, 2);
    assert_false(anim_fix_pending(again));
    anim_fix_free(again);
    anim_asset_free(b);
    free(before);
    anim_fix_free(fix);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repair_ids),
        cmocka_unit_test(test_clip_dirty),
        cmocka_unit_test(test_repair_subsets),
        cmocka_unit_test(test_gltf_external_buffer),
        cmocka_unit_test(test_data_uri_skipped),
        cmocka_unit_test(test_cubic),
        cmocka_unit_test(test_quantized_skipped),
        cmocka_unit_test(test_stride_zero_unnamed),
        cmocka_unit_test(test_refusals_leave_files),
    };
    return cmocka_run_group_tests(tests, make_tmp, remove_tmp);
}
