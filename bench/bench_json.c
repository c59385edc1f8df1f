/* JSON reader throughput on glTF-shaped text.
 *
 * Usage: bench_json [file.json]
 * Without an argument it builds about 5 MB of JSON shaped like a Blender
 * export of a clip library (compact output, floats in shortest round-trip
 * form of float32 values, which is what exporters write): 65 nodes with
 * names and TRS arrays, 500 animations with channels and samplers, and the
 * accessors and bufferViews they point to. It parses the text repeatedly for
 * about a second and prints the throughput. It is a benchmark, not a test:
 * it always exits 0. */
#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/json.h"
#include "animsmith/strbuf.h"
#include "bench_clock.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODES 65
#define ANIMATIONS 500
#define CHANNELS_PER_ANIMATION 27
#define KEYS 48

static uint32_t rng_state = 12345u;

static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* A float32 in [lo, hi), written the way Python's repr writes the double it
 * widens to (the shortest digits that read back to the same double). */
static void put_float(anim_strbuf *sb, double lo, double hi)
{
    float f = (float)(lo + (hi - lo) * (double)(rng() & 0xffffff) / 16777216.0);
    double d = f;
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    anim_strbuf_puts(sb, buf);
}

static void put_floats(anim_strbuf *sb, int n, double lo, double hi)
{
    anim_strbuf_putc(sb, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            anim_strbuf_putc(sb, ',');
        put_float(sb, lo, hi);
    }
    anim_strbuf_putc(sb, ']');
}

static const char *const bone_names[] = {
    "Hips",     "Spine",       "Spine1",     "Spine2",        "Neck",      "Head",
    "HeadTop_End", "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "LeftHandThumb1",
    "LeftHandIndex1", "RightShoulder", "RightArm", "RightForeArm", "RightHand",
    "RightHandThumb1", "RightHandIndex1", "LeftUpLeg", "LeftLeg", "LeftFoot",
    "LeftToeBase", "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase",
};

static void build_document(anim_strbuf *sb)
{
    static const char *const paths[3] = {"translation", "rotation", "scale"};
    static const char *const types[3] = {"VEC3", "VEC4", "VEC3"};
    static const int comps[3] = {3, 4, 3};
    size_t nbones = sizeof bone_names / sizeof bone_names[0];

    anim_strbuf_puts(sb, "{\"asset\":{\"generator\":\"Khronos glTF Blender I/O v4.2.57\","
                         "\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"name\":\"Scene\","
                         "\"nodes\":[0]}],\"nodes\":[");
    for (int i = 0; i < NODES; i++) {
        if (i)
            anim_strbuf_putc(sb, ',');
        anim_strbuf_puts(sb, "{");
        if (i + 1 < NODES)
            anim_strbuf_printf(sb, "\"children\":[%d],", i + 1);
        anim_strbuf_printf(sb, "\"name\":\"mixamorig:%s_%02d\",\"rotation\":",
                           bone_names[(size_t)i % nbones], i);
        put_floats(sb, 4, -1.0, 1.0);
        anim_strbuf_puts(sb, ",\"scale\":");
        put_floats(sb, 3, 0.99, 1.01);
        anim_strbuf_puts(sb, ",\"translation\":");
        put_floats(sb, 3, -20.0, 20.0);
        anim_strbuf_putc(sb, '}');
    }
    anim_strbuf_puts(sb, "],\"animations\":[");
    int accessor = 0;
    for (int a = 0; a < ANIMATIONS; a++) {
        if (a)
            anim_strbuf_putc(sb, ',');
        anim_strbuf_puts(sb, "{\"channels\":[");
        for (int c = 0; c < CHANNELS_PER_ANIMATION; c++) {
            if (c)
                anim_strbuf_putc(sb, ',');
            anim_strbuf_printf(sb, "{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"%s\"}}",
                               c, (c / 3 + a) % NODES, paths[c % 3]);
        }
        anim_strbuf_printf(sb, "],\"name\":\"Armature|clip_%03d|BaseLayer\",\"samplers\":[", a);
        int input = accessor++;
        for (int c = 0; c < CHANNELS_PER_ANIMATION; c++) {
            if (c)
                anim_strbuf_putc(sb, ',');
            anim_strbuf_printf(sb, "{\"input\":%d,\"interpolation\":\"LINEAR\",\"output\":%d}",
                               input, accessor++);
        }
        anim_strbuf_puts(sb, "]}");
    }
    anim_strbuf_puts(sb, "],\"accessors\":[");
    size_t offset = 0;
    for (int i = 0; i < accessor; i++) {
        int kind = i % (CHANNELS_PER_ANIMATION + 1);
        if (i)
            anim_strbuf_putc(sb, ',');
        if (kind == 0) {
            anim_strbuf_printf(sb, "{\"bufferView\":%d,\"componentType\":5126,\"count\":%d,"
                                   "\"max\":[",
                               i, KEYS);
            put_float(sb, 1.5, 2.0);
            anim_strbuf_puts(sb, "],\"min\":[");
            put_float(sb, 0.0, 0.05);
            anim_strbuf_puts(sb, "],\"type\":\"SCALAR\"}");
        } else {
            int t = (kind - 1) % 3;
            anim_strbuf_printf(sb, "{\"bufferView\":%d,\"componentType\":5126,\"count\":%d,"
                                   "\"max\":",
                               i, KEYS);
            put_floats(sb, comps[t], 0.0, 1.0);
            anim_strbuf_puts(sb, ",\"min\":");
            put_floats(sb, comps[t], -1.0, 0.0);
            anim_strbuf_printf(sb, ",\"type\":\"%s\"}", types[t]);
        }
    }
    anim_strbuf_puts(sb, "],\"bufferViews\":[");
    for (int i = 0; i < accessor; i++) {
        int kind = i % (CHANNELS_PER_ANIMATION + 1);
        size_t bytes = (size_t)KEYS * 4u * (kind == 0 ? 1u : (size_t)comps[(kind - 1) % 3]);
        if (i)
            anim_strbuf_putc(sb, ',');
        anim_strbuf_printf(sb, "{\"buffer\":0,\"byteLength\":%zu,\"byteOffset\":%zu}", bytes,
                           offset);
        offset += bytes;
    }
    anim_strbuf_printf(sb, "],\"buffers\":[{\"byteLength\":%zu}]}", offset);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        anim_strbuf_append(&sb, buf, got);
    fclose(f);
    if (sb.failed) {
        anim_strbuf_free(&sb);
        return NULL;
    }
    *len = sb.len;
    return sb.data ? sb.data : calloc(1, 1);
}

int main(int argc, char **argv)
{
    char *text;
    size_t len = 0;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: bench_json [FILE.json]\n"
             "\n"
             "JSON reader throughput: parses FILE.json (or about 5 MB of generated\n"
             "glTF-shaped JSON) repeatedly for about a second and prints MB/s.\n"
             "\n"
             "  -h, --help  print this help and exit");
        return 0;
    }
    if (argc > 2 || (argc > 1 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: bench_json [FILE.json] (see --help)\n");
        return 2;
    }
    if (argc > 1) {
        text = read_file(argv[1], &len);
        if (!text) {
            printf("json_read: cannot read %s (skipped)\n", argv[1]);
            return 0;
        }
    } else {
        anim_strbuf sb = ANIM_STRBUF_INIT;
        build_document(&sb);
        if (sb.failed) {
            printf("json_read: out of memory building the input (skipped)\n");
            anim_strbuf_free(&sb);
            return 0;
        }
        text = sb.data;
        len = sb.len;
    }

    /* One untimed parse to check the input and warm the caches. */
    anim_error err;
    anim_error_clear(&err);
    anim_arena *arena = anim_arena_new();
    const anim_json_value *root = arena ? anim_json_parse(arena, text, len, NULL, &err) : NULL;
    if (!root) {
        printf("json_read: input refused (%s); nothing measured\n",
               arena ? err.message : "out of memory");
        anim_arena_free(arena);
        free(text);
        return 0;
    }
    size_t arena_bytes = anim_arena_bytes(arena);
    anim_arena_free(arena);

    double start = now_seconds(), elapsed = 0.0, best = 1e30;
    size_t runs = 0;
    do {
        double t0 = now_seconds();
        arena = anim_arena_new();
        if (!arena || !anim_json_parse(arena, text, len, NULL, &err)) {
            printf("json_read: parse failed during the run; nothing measured\n");
            anim_arena_free(arena);
            free(text);
            return 0;
        }
        anim_arena_free(arena);
        runs++;
        double t1 = now_seconds();
        if (t1 - t0 < best)
            best = t1 - t0;
        elapsed = t1 - start;
    } while (elapsed < 1.0);

    double mb = (double)len * (double)runs / 1e6;
    printf("input: %zu bytes (%.2f MB), %zu parses, arena %zu bytes per parse\n", len,
           (double)len / 1e6, runs, arena_bytes);
    printf("json_read: %.1f MB in %.3f s: %.1f MB/s\n", mb, elapsed, mb / elapsed);
    /* The fastest single parse is less disturbed by other processes. */
    printf("json_read best parse: %.2f ms: %.1f MB/s\n", best * 1e3, (double)len / 1e6 / best);
    free(text);
    return 0;
}
