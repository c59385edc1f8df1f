/* glTF writer: exact JSON of the example clip.glb, GLB framing and padding,
 * .gltf data URI, refusals, and atomic writes that leave existing files
 * untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animsmith/atomic_write.h"
#include "animsmith/gltf_write.h"

static const char CLIP_JSON[] =
    "{\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":5,\"max\":[1.0],\"min\":"
    "[0.0],\"type\":\"SCALAR\"},{\"bufferView\":1,\"componentType\":5126,\"count\":5,\"type\":"
    "\"VEC4\"}],\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":"
    "\"rotation\"}}],\"name\":\"swing\",\"samplers\":[{\"input\":0,\"interpolation\":\"LINEAR\","
    "\"output\":1}]}],\"asset\":{\"generator\":\"animsmith 0.4.3\",\"version\":\"2.0\"},"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":20,\"byteOffset\":0},{\"buffer\":0,"
    "\"byteLength\":80,\"byteOffset\":20}],\"buffers\":[{\"byteLength\":100}],\"nodes\":[{"
    "\"children\":[1],\"name\":\"root\",\"rotation\":[0.0,0.0,0.0,1.0],\"scale\":[1.0,1.0,1.0],"
    "\"translation\":[0.0,0.0,0.0]},{\"name\":\"spine\",\"rotation\":[0.0,0.0,0.0,1.0],\"scale\":"
    "[1.0,1.0,1.0],\"translation\":[0.0,0.5,0.0]}],\"scene\":0,\"scenes\":[{\"nodes\":[0]}]}";

typedef struct fixture {
    anim_bone bones[2];
    anim_clip clip;
    anim_track track;
    float times[5];
    float values[20];
    anim_doc doc;
} fixture;

/* The example clip.glb document (examples/assets/clip.glb). */
static void build_clip(fixture *f)
{
    memset(f, 0, sizeof *f);
    for (int b = 0; b < 2; b++) {
        f->bones[b].rest_rotation[3] = 1.0;
        f->bones[b].rest_scale[0] = f->bones[b].rest_scale[1] = f->bones[b].rest_scale[2] = 1.0;
        f->bones[b].mesh = f->bones[b].skin = ANIM_NONE;
    }
    f->bones[0].name = "root";
    f->bones[0].parent = ANIM_NONE;
    f->bones[1].name = "spine";
    f->bones[1].parent = 0;
    f->bones[1].rest_translation[1] = 0.5;
    static const float angles[5] = {0.0f, 0.1f, 0.2f, 0.3f, 0.4f};
    for (int k = 0; k < 5; k++) {
        f->times[k] = 0.25f * (float)k;
        f->values[k * 4 + 1] = (float)sin((double)angles[k] * 0.5);
        f->values[k * 4 + 3] = (float)cos((double)angles[k] * 0.5);
    }
    f->track.bone = 1;
    f->track.path = ANIM_PATH_ROTATION;
    f->track.interp = ANIM_INTERP_LINEAR;
    f->track.key_count = 5;
    f->track.times = f->times;
    f->track.components = 4;
    f->track.value_count = 5;
    f->track.values = f->values;
    f->clip.name = "swing";
    f->clip.tracks = &f->track;
    f->clip.track_count = 1;
    f->clip.duration_s = 1.0;
    f->doc.bones = f->bones;
    f->doc.bone_count = 2;
    f->doc.clips = &f->clip;
    f->doc.clip_count = 1;
}

static uint32_t le32(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

static void test_glb_exact(void **state)
{
    (void)state;
    fixture f;
    build_clip(&f);
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err = {0};
    anim_gltf_write_summary sum;
    assert_int_equal(anim_gltf_write_mem(&f.doc, ANIM_GLTF_FORMAT_GLB, "animsmith 0.4.3", &out,
                                         &sum, &err),
                     0);
    assert_int_equal(out.len, 896);
    assert_memory_equal(out.data, "glTF", 4);
    assert_int_equal(le32(out.data + 4), 2);
    assert_int_equal(le32(out.data + 8), 896);
    assert_int_equal(le32(out.data + 12), 768);
    assert_memory_equal(out.data + 16, "JSON", 4);
    size_t jl = strlen(CLIP_JSON);
    assert_int_equal(jl, 766);
    assert_memory_equal(out.data + 20, CLIP_JSON, jl);
    assert_memory_equal(out.data + 20 + jl, "  ", 2); /* space padding */
    assert_int_equal(le32(out.data + 788), 100);
    assert_memory_equal(out.data + 792, "BIN\0", 4);
    float t1;
    memcpy(&t1, out.data + 796 + 4, 4);
    assert_true(t1 == 0.25f);
    assert_int_equal(sum.nodes, 2);
    assert_int_equal(sum.animations, 1);
    assert_int_equal(sum.dropped_clips, 0);
    anim_strbuf_free(&out);
}

static void test_bin_padding_and_dropped_clip(void **state)
{
    (void)state;
    fixture f;
    build_clip(&f);
    /* Out-of-range bone: no writable track, clip dropped, no BIN chunk. */
    f.track.bone = 7;
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err = {0};
    anim_gltf_write_summary sum;
    assert_int_equal(anim_gltf_write_mem(&f.doc, ANIM_GLTF_FORMAT_GLB, "g", &out, &sum, &err), 0);
    assert_int_equal(sum.animations, 0);
    assert_int_equal(sum.dropped_clips, 1);
    uint32_t json_len = le32(out.data + 12);
    assert_int_equal(json_len % 4, 0);
    assert_int_equal(out.len, 20 + json_len); /* no BIN chunk */
    assert_int_equal(le32(out.data + 8), out.len);
    assert_null(strstr(out.data + 20, "accessors"));
    assert_null(strstr(out.data + 20, "buffers"));
    assert_non_null(strstr(out.data + 20, "{\"asset\":{\"generator\":\"g\""));
    anim_strbuf_free(&out);
}

static void test_gltf_pretty_data_uri(void **state)
{
    (void)state;
    fixture f;
    build_clip(&f);
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err = {0};
    assert_int_equal(
        anim_gltf_write_mem(&f.doc, ANIM_GLTF_FORMAT_GLTF, "animsmith 0.4.3", &out, NULL, &err),
        0);
    assert_true(strncmp(out.data, "{\n  \"accessors\": [\n    {\n      \"bufferView\": 0,", 47) ==
                0);
    /* First 3 bytes of BIN: time 0.0f = 00 00 00 -> "AAAA". */
    assert_non_null(strstr(out.data, "\"byteLength\": 100,\n      \"uri\": "
                                     "\"data:application/octet-stream;base64,AAAA"));
    assert_true(out.data[out.len - 1] == '}'); /* no trailing newline */
    /* 100 bytes -> 136 base64 chars incl. padding "==". */
    const char *uri = strstr(out.data, "base64,") + 7;
    const char *endq = strchr(uri, '"');
    assert_int_equal(endq - uri, 136);
    assert_memory_equal(endq - 2, "==", 2);
    assert_non_null(strstr(out.data, "\"max\": [\n        1.0\n      ],"));
    anim_strbuf_free(&out);
}

static void test_refusals(void **state)
{
    (void)state;
    fixture f;
    build_clip(&f);
    anim_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    f.doc.meshes = &mesh;
    f.doc.mesh_count = 1;
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err = {0};
    assert_int_equal(anim_gltf_write_mem(&f.doc, ANIM_GLTF_FORMAT_GLB, NULL, &out, NULL, &err),
                     -1);
    assert_int_equal(err.code, ANIM_ERR_USAGE);
    f.doc.mesh_count = 0;
    f.track.components = 3;
    assert_int_equal(anim_gltf_write_mem(&f.doc, ANIM_GLTF_FORMAT_GLB, NULL, &out, NULL, &err),
                     -1);
    assert_int_equal(err.code, ANIM_ERR_INVALID);
    anim_strbuf_free(&out);
}

static void test_format_and_generator(void **state)
{
    (void)state;
    assert_int_equal(anim_gltf_format_for_path("a/b.GLB"), ANIM_GLTF_FORMAT_GLB);
    assert_int_equal(anim_gltf_format_for_path("b.glb"), ANIM_GLTF_FORMAT_GLB);
    assert_int_equal(anim_gltf_format_for_path("b.gltf"), ANIM_GLTF_FORMAT_GLTF);
    assert_int_equal(anim_gltf_format_for_path("x.glb/b"), ANIM_GLTF_FORMAT_GLTF);
    assert_int_equal(strncmp(anim_gltf_default_generator(), "animsmith ", 10), 0);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void read_file(const char *path, char *buf, size_t cap, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    *len = fread(buf, 1, cap, fp);
    fclose(fp);
}

static void test_atomic_write(void **state)
{
    (void)state;
    char dir[] = "/tmp/animsmith-gltfw-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], sub[256];
    snprintf(path, sizeof path, "%s/out.glb", dir);
    snprintf(sub, sizeof sub, "%s/sub.glb", dir);
    anim_error err = {0};
    assert_int_equal(anim_write_file_atomic(path, "old", 3, &err), 0);
    char buf[2048];
    size_t len;
    read_file(path, buf, sizeof buf, &len);
    assert_int_equal(len, 3);

    /* Parts are written one after another, as one file. */
    static const anim_write_part parts[3] = {{"gl", 2}, {"", 0}, {"TF!", 3}};
    assert_int_equal(anim_write_file_atomic_parts(path, parts, 3, &err), 0);
    read_file(path, buf, sizeof buf, &len);
    assert_int_equal(len, 5);
    assert_memory_equal(buf, "glTF!", 5);
    assert_int_equal(anim_write_file_atomic(path, "old", 3, &err), 0);

    /* The GLB written to a file is the bytes written to memory (its
     * header and binary chunk go out as two parts). */
    {
        fixture g;
        build_clip(&g);
        anim_strbuf mem = ANIM_STRBUF_INIT;
        assert_int_equal(anim_gltf_write_mem(&g.doc, ANIM_GLTF_FORMAT_GLB, NULL, &mem, NULL, &err),
                         0);
        char glb[256];
        snprintf(glb, sizeof glb, "%s/parts.glb", dir);
        assert_int_equal(anim_gltf_write_file(&g.doc, glb, NULL, NULL, &err), 0);
        read_file(glb, buf, sizeof buf, &len);
        assert_int_equal(len, mem.len);
        assert_memory_equal(buf, mem.data, len);
        anim_strbuf_free(&mem);
        assert_int_equal(unlink(glb), 0);
    }

    /* A refused document leaves the existing file untouched. */
    fixture f;
    build_clip(&f);
    f.doc.skin_count = 1;
    assert_int_equal(anim_gltf_write_file(&f.doc, path, NULL, NULL, &err), -1);
    read_file(path, buf, sizeof buf, &len);
    assert_int_equal(len, 3);
    assert_memory_equal(buf, "old", 3);

    /* A failing rename (destination is a directory) removes the temp file. */
    assert_int_equal(mkdir(sub, 0777), 0);
    f.doc.skin_count = 0;
    assert_int_equal(anim_gltf_write_file(&f.doc, sub, NULL, NULL, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_IO);
    assert_int_equal(count_entries(dir), 2);

    /* An unwritable directory (not enforceable for root). */
    if (geteuid() != 0) {
        assert_int_equal(chmod(dir, 0555), 0);
        assert_int_equal(anim_gltf_write_file(&f.doc, path, NULL, NULL, &err), -1);
        assert_int_equal(chmod(dir, 0755), 0);
        read_file(path, buf, sizeof buf, &len);
        assert_memory_equal(buf, "old", 3);
    }

    /* Success replaces the file. */
    assert_int_equal(anim_gltf_write_file(&f.doc, path, NULL, NULL, &err), 0);
    read_file(path, buf, sizeof buf, &len);
    assert_int_equal(len, 896);
    assert_int_equal(count_entries(dir), 2);

    unlink(path);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glb_exact),
        cmocka_unit_test(test_bin_padding_and_dropped_clip),
        cmocka_unit_test(test_gltf_pretty_data_uri),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_format_and_generator),
        cmocka_unit_test(test_atomic_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
