/* animsmith-blendref REPORT.html CLIP_A FRAME_A CLIP_B FRAME_B W...
 *
 * Prints the illustrative blend of two clips' embedded local transforms,
 * computed in C from the same f32 samples the report's viewer reads: for
 * each weight W, one line per bone, "W bone x y z" (%.17g). The browser
 * tests compare the viewer's blend pane against these numbers. Every W,
 * 0 and 1 included, goes through the blend math (the viewer draws the
 * source positions at 0 and 1 instead).
 *
 * Exit 0; 1 when a blend is not drawable (non-finite or beyond f32); 2 on
 * a usage error or a report it cannot read (no data block, a comparison
 * report, an omitted, missing or ambiguous clip stream). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/base64.h"
#include "animsmith/error.h"
#include "animsmith/json.h"
#include "io/file_read.h"
#include "report/blend.h"

#define DATA_OPEN "<script type=\"application/json\" id=\"animsmith-report-data\">"
#define DATA_CLOSE "</script>"
#define MAX_REPORT_BYTES ((size_t)1 << 30)

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("animsmith-blendref: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

/* The embedded data block's JSON text, in place inside the page (NUL-
 * terminated by anim_read_file). The JSON escapes every '<', so the first
 * closing tag after the opening one ends it. */
static int find_data(const char *page, const char **json, size_t *json_len)
{
    const char *open = strstr(page, DATA_OPEN);
    if (!open)
        return -1;
    const char *start = open + strlen(DATA_OPEN);
    const char *end = strstr(start, DATA_CLOSE);
    if (!end)
        return -1;
    *json = start;
    *json_len = (size_t)(end - start);
    return 0;
}

static int parse_index(const char *text, uint64_t limit, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v >= limit)
        return -1;
    *out = v;
    return 0;
}

/* The skeleton's parents, checked to be -1 or earlier bones later by the
 * blend itself. */
static int read_parents(const anim_json_value *data, anim_arena *arena, int32_t **parents,
                        uint32_t *count)
{
    const anim_json_value *bones = anim_json_get(anim_json_get(data, "skeleton"), "bones");
    if (!bones || bones->type != ANIM_JSON_ARRAY || anim_json_count(bones) > UINT32_MAX)
        return fail("the report data has no skeleton.bones array");
    *count = (uint32_t)anim_json_count(bones);
    *parents = anim_arena_calloc(arena, *count ? *count : 1, sizeof **parents);
    if (!*parents)
        return fail("out of memory");
    for (uint32_t i = 0; i < *count; i++) {
        const anim_json_value *p = anim_json_get(anim_json_item(bones, i), "parent");
        if (!p || !anim_json_is_integer(p) || anim_json_integer(p) < -1 ||
            anim_json_integer(p) > INT32_MAX)
            return fail("skeleton bone %" PRIu32 " has no integer parent", i);
        (*parents)[i] = (int32_t)anim_json_integer(p);
    }
    return 0;
}

/* One frame of a named clip's local stream (bone_count records). */
static int read_frame(const anim_json_value *data, const char *name, const char *frame_text,
                      uint32_t bone_count, anim_arena *arena, float **out)
{
    const anim_json_value *clips = anim_json_get(data, "clips"), *clip = NULL;
    for (size_t i = 0; i < anim_json_count(clips); i++) {
        const anim_json_value *c = anim_json_item(clips, i);
        if (!anim_json_string_eq(anim_json_get(c, "name"), name))
            continue;
        if (clip)
            return fail("clip '%s' is held twice in the report", name);
        clip = c;
    }
    if (!clip)
        return fail("the report holds no clip '%s'", name);
    const anim_json_value *fc = anim_json_get(clip, "frame_count");
    if (!fc || !anim_json_is_integer(fc) || anim_json_integer(fc) < 1)
        return fail("clip '%s' has no frame_count", name);
    uint64_t frames = (uint64_t)anim_json_integer(fc), frame;
    if (parse_index(frame_text, frames, &frame))
        return fail("frame '%s' is not a frame of clip '%s' (0..%" PRIu64 ")", frame_text, name,
                    frames - 1);
    const anim_json_value *local = anim_json_get(clip, "local");
    if (!local || local->type != ANIM_JSON_STRING)
        return fail("clip '%s' carries no local transform stream", name);
    size_t text_len = anim_json_string_len(local);
    uint8_t *bytes = anim_arena_alloc(arena, text_len / 4 * 3 + 1);
    if (!bytes)
        return fail("out of memory");
    long long got = anim_base64_decode(anim_json_string(local), text_len, bytes);
    uint64_t per_frame = (uint64_t)bone_count * REPORT_BLEND_RECORD_FLOATS * 4;
    if (got < 0 || (per_frame ? (uint64_t)got % per_frame || (uint64_t)got / per_frame != frames
                              : got != 0))
        return fail("clip '%s': the local stream does not hold %" PRIu64 " frames of %" PRIu32
                    " bones",
                    name, frames, bone_count);
    float *f = anim_arena_calloc(arena, (size_t)bone_count * REPORT_BLEND_RECORD_FLOATS + 1,
                                 sizeof *f);
    if (!f)
        return fail("out of memory");
    /* Little-endian f32 regardless of the host's byte order. */
    const uint8_t *p = bytes + frame * per_frame;
    for (size_t k = 0; k < (size_t)bone_count * REPORT_BLEND_RECORD_FLOATS; k++) {
        uint32_t bits = (uint32_t)p[4 * k] | (uint32_t)p[4 * k + 1] << 8 |
                        (uint32_t)p[4 * k + 2] << 16 | (uint32_t)p[4 * k + 3] << 24;
        memcpy(&f[k], &bits, sizeof bits);
    }
    *out = f;
    return 0;
}

static int run(int argc, char **argv, anim_arena *arena)
{
    anim_error err = {0};
    uint8_t *page = NULL;
    size_t page_len = 0;
    if (anim_read_file(argv[1], MAX_REPORT_BYTES, arena, &page, &page_len, &err))
        return fail("%s", err.message);
    const char *json = NULL;
    size_t json_len = 0;
    if (find_data((const char *)page, &json, &json_len))
        return fail("%s: no embedded report data", argv[1]);
    const anim_json_value *data = anim_json_parse(arena, json, json_len, NULL, &err);
    if (!data)
        return fail("%s: report data: %s", argv[1], err.message);
    if (!anim_json_string_eq(anim_json_get(data, "form"), "single"))
        return fail("%s: not a single-document report (a comparison carries no local streams)",
                    argv[1]);
    int32_t *parents = NULL;
    uint32_t bones = 0;
    float *a = NULL, *b = NULL;
    if (read_parents(data, arena, &parents, &bones) ||
        read_frame(data, argv[2], argv[3], bones, arena, &a) ||
        read_frame(data, argv[4], argv[5], bones, arena, &b))
        return 2;
    double *xyz = anim_arena_calloc(arena, (size_t)bones * 3 + 1, sizeof *xyz);
    if (!xyz)
        return fail("out of memory");
    for (int k = 6; k < argc; k++) {
        char *end = NULL;
        double w = strtod(argv[k], &end);
        if (end == argv[k] || *end || !(w >= 0.0 && w <= 1.0))
            return fail("weight '%s' is not a number in [0, 1]", argv[k]);
        if (report_blend_positions(parents, bones, a, b, w, xyz)) {
            fprintf(stderr, "animsmith-blendref: the blend at weight %s is not drawable\n",
                    argv[k]);
            return 1;
        }
        for (uint32_t i = 0; i < bones; i++)
            printf("%.17g %" PRIu32 " %.17g %.17g %.17g\n", w, i, xyz[3 * (size_t)i],
                   xyz[3 * (size_t)i + 1], xyz[3 * (size_t)i + 2]);
    }
    return fflush(stdout) || ferror(stdout) ? fail("cannot write the output") : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        puts("usage: animsmith-blendref REPORT.html CLIP_A FRAME_A CLIP_B FRAME_B W...\n"
             "Prints the illustrative blend of two clips' embedded local transforms, one\n"
             "line per weight and bone: W bone x y z.");
        return 0;
    }
    if (argc >= 2 && argv[1][0] == '-')
        return fail("unknown option '%s' (see --help)", argv[1]);
    if (argc < 7)
        return fail("usage: animsmith-blendref REPORT.html CLIP_A FRAME_A CLIP_B FRAME_B W...");
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return fail("out of memory");
    int rc = run(argc, argv, arena);
    anim_arena_free(arena);
    return rc;
}
