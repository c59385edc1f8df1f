/* Synthetic clip library for the lint benchmark (bench/run_lint_bench.sh).
 *
 * Writes FILES GLBs of CLIPS clips each over a 65-bone Mixamo skeleton
 * (so the mixamo profile resolves every role), T/R/S tracks for every bone
 * at FPS, plus the animsmith.toml contract that declares which clips loop,
 * which are in place and which carry root motion, and a manifest.txt the
 * runner reads its figures from (sizes, key counts, metric-grid bytes).
 *
 * The clips are gait cycles with closing ends: every motion is a sum of
 * sines whose period divides the clip length, so the last key repeats the
 * first pose. Clip kinds cycle walk (in place), run (root motion), stride
 * (root motion), jog (in place). Every third clip carries one hemisphere
 * flip and one non-unit rotation key, so the quat-flip and quat-norm
 * checks have something to report, as in a real unclean library.
 *
 * Output is a pure function of the arguments (no clock, no randomness), so
 * two runs write byte-identical files.
 *
 *   gen_library [--preset 1x|10x|100x|large|lib24] [--files N] [--clips N]
 *               [--keys N] [--fps N] OUTDIR
 *
 * Presets scale the key count, the cost driver the benchmark measures:
 * 1x = 20 files x 4 clips x 60 keys, 10x = 600 keys, 100x = 6000 keys;
 * large = one file of 500 clips x 60 keys; lib24 = 24 files x 12 clips x
 * 60 keys, the studio-library shape the lint profile (bench/profile_lint.sh)
 * is taken on. Explicit options given after a preset override it. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/arena.h"
#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/gltf_write.h"
#include "animsmith/sample.h"

#define GENERATOR "animsmith bench gen_library"
#define MAX_BONES 65
#define PI 3.14159265358979323846

/* How a bone moves; amplitudes and axes are per kind. */
typedef enum {
    MOVE_STATIC, /* end bones: constant tracks, as exporters write them */
    MOVE_HIPS,
    MOVE_SPINE,
    MOVE_NECK,
    MOVE_SHOULDER,
    MOVE_UPPER_ARM,
    MOVE_FOREARM,
    MOVE_HAND,
    MOVE_FINGER,
    MOVE_UPPER_LEG,
    MOVE_KNEE,
    MOVE_FOOT,
    MOVE_TOE
} move_kind;

typedef struct {
    char name[64];
    uint32_t parent;
    float rest[3];
    move_kind move;
    double side; /* +1 left, -1 right, 0 centre: opposite phase per side */
} bone_spec;

typedef struct {
    bone_spec bones[MAX_BONES];
    uint32_t count;
} skeleton;

/* One clip kind: in-place kinds have speed 0. */
typedef struct {
    const char *prefix;
    double speed_mps;
    double cycle_s;
    double amp; /* swing scale */
} clip_kind;

static const clip_kind kinds[] = {
    {"walk", 0.0, 1.0, 1.0},
    {"run", 3.0, 0.7, 1.6},
    {"stride", 1.4, 1.0, 1.1},
    {"jog", 0.0, 0.8, 1.3},
};
#define KIND_COUNT (sizeof kinds / sizeof *kinds)

typedef struct {
    unsigned files, clips, keys, fps;
    const char *out;
} gen_opts;

static uint32_t add_bone(skeleton *s, const char *name, uint32_t parent, float x, float y, float z,
                         move_kind move, double side)
{
    bone_spec *b = &s->bones[s->count];
    snprintf(b->name, sizeof b->name, "mixamorig:%s", name);
    b->parent = parent;
    b->rest[0] = x;
    b->rest[1] = y;
    b->rest[2] = z;
    b->move = move;
    b->side = side;
    return s->count++;
}

/* The Mixamo humanoid: 7 trunk bones, 24 per arm (4 + 5 fingers of 4),
 * 5 per leg = 65. Rest offsets in metres, identity rest rotations. */
static void build_skeleton(skeleton *s)
{
    static const char *fingers[] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
    memset(s, 0, sizeof *s);
    uint32_t hips = add_bone(s, "Hips", ANIM_NONE, 0.0f, 1.0f, 0.0f, MOVE_HIPS, 0);
    uint32_t spine = add_bone(s, "Spine", hips, 0.0f, 0.1f, 0.0f, MOVE_SPINE, 0);
    uint32_t spine1 = add_bone(s, "Spine1", spine, 0.0f, 0.12f, 0.0f, MOVE_SPINE, 0);
    uint32_t spine2 = add_bone(s, "Spine2", spine1, 0.0f, 0.14f, 0.0f, MOVE_SPINE, 0);
    uint32_t neck = add_bone(s, "Neck", spine2, 0.0f, 0.16f, 0.0f, MOVE_NECK, 0);
    uint32_t head = add_bone(s, "Head", neck, 0.0f, 0.1f, 0.02f, MOVE_NECK, 0);
    add_bone(s, "HeadTop_End", head, 0.0f, 0.18f, 0.0f, MOVE_STATIC, 0);
    for (int side = 0; side < 2; side++) {
        const char *lr = side == 0 ? "Left" : "Right";
        double sg = side == 0 ? 1.0 : -1.0;
        float sx = (float)sg;
        char n[32];
        snprintf(n, sizeof n, "%sShoulder", lr);
        uint32_t sh = add_bone(s, n, spine2, 0.06f * sx, 0.12f, 0.0f, MOVE_SHOULDER, sg);
        snprintf(n, sizeof n, "%sArm", lr);
        uint32_t arm = add_bone(s, n, sh, 0.12f * sx, 0.0f, 0.0f, MOVE_UPPER_ARM, sg);
        snprintf(n, sizeof n, "%sForeArm", lr);
        uint32_t fore = add_bone(s, n, arm, 0.26f * sx, 0.0f, 0.0f, MOVE_FOREARM, sg);
        snprintf(n, sizeof n, "%sHand", lr);
        uint32_t hand = add_bone(s, n, fore, 0.25f * sx, 0.0f, 0.0f, MOVE_HAND, sg);
        for (int f = 0; f < 5; f++) {
            uint32_t p = hand;
            for (int j = 1; j <= 4; j++) {
                snprintf(n, sizeof n, "%sHand%s%d", lr, fingers[f], j);
                float x = j == 1 ? 0.04f * sx : 0.03f * sx;
                float z = j == 1 ? (float)(f - 2) * 0.02f : 0.0f;
                p = add_bone(s, n, p, x, 0.0f, z, j == 4 ? MOVE_STATIC : MOVE_FINGER, sg);
            }
        }
    }
    for (int side = 0; side < 2; side++) {
        const char *lr = side == 0 ? "Left" : "Right";
        double sg = side == 0 ? 1.0 : -1.0;
        float sx = (float)sg;
        char n[32];
        snprintf(n, sizeof n, "%sUpLeg", lr);
        uint32_t up = add_bone(s, n, hips, 0.09f * sx, -0.05f, 0.0f, MOVE_UPPER_LEG, sg);
        snprintf(n, sizeof n, "%sLeg", lr);
        uint32_t leg = add_bone(s, n, up, 0.0f, -0.42f, 0.0f, MOVE_KNEE, sg);
        snprintf(n, sizeof n, "%sFoot", lr);
        uint32_t foot = add_bone(s, n, leg, 0.0f, -0.42f, 0.0f, MOVE_FOOT, sg);
        snprintf(n, sizeof n, "%sToeBase", lr);
        uint32_t toe = add_bone(s, n, foot, 0.0f, -0.06f, 0.12f, MOVE_TOE, sg);
        snprintf(n, sizeof n, "%sToe_End", lr);
        add_bone(s, n, toe, 0.0f, 0.0f, 0.05f, MOVE_STATIC, sg);
    }
}

/* Swing axis and amplitude (radians) per kind; phase flips per side so
 * the left and right limbs alternate like a gait. */
static double bone_angle(const bone_spec *b, double phase, double amp, double axis[3])
{
    axis[0] = 1.0;
    axis[1] = 0.0;
    axis[2] = 0.0;
    double s = sin(phase), c = cos(phase), deg = PI / 180.0;
    switch (b->move) {
    case MOVE_HIPS:
        axis[0] = 0.0;
        axis[1] = 1.0;
        return 6.0 * deg * amp * s;
    case MOVE_SPINE:
        axis[0] = 0.0;
        axis[1] = 1.0;
        return -3.0 * deg * amp * s;
    case MOVE_NECK:
        return 2.0 * deg * amp * sin(2.0 * phase);
    case MOVE_SHOULDER:
        axis[0] = 0.0;
        axis[2] = 1.0;
        return 3.0 * deg * amp * c * b->side;
    case MOVE_UPPER_ARM:
        return -25.0 * deg * amp * s * b->side;
    case MOVE_FOREARM:
        axis[0] = 0.0;
        axis[1] = 1.0;
        return (20.0 + 10.0 * amp * s * b->side) * deg * b->side;
    case MOVE_HAND:
        axis[0] = 0.0;
        axis[2] = 1.0;
        return 5.0 * deg * c;
    case MOVE_FINGER:
        axis[0] = 0.0;
        axis[2] = 1.0;
        return (15.0 + 4.0 * sin(2.0 * phase)) * deg * b->side;
    case MOVE_UPPER_LEG:
        return 25.0 * deg * amp * s * b->side;
    case MOVE_KNEE:
        return 30.0 * deg * amp * (1.0 - c * b->side) * 0.5 + 5.0 * deg;
    case MOVE_FOOT:
        return -12.0 * deg * amp * s * b->side;
    case MOVE_TOE:
        return 10.0 * deg * (1.0 + cos(2.0 * phase)) * 0.5;
    case MOVE_STATIC:
    default:
        return 0.0;
    }
}

static void die_oom(void)
{
    fprintf(stderr, "gen_library: out of memory\n");
    exit(2);
}

static anim_track *new_track(anim_arena *arena, anim_track *t, uint32_t bone, anim_path path,
                             const float *times, uint32_t keys, uint32_t index)
{
    uint32_t comps = path == ANIM_PATH_ROTATION ? 4 : 3;
    float *values = anim_arena_calloc(arena, (size_t)keys * comps, sizeof(float));
    if (!values)
        die_oom();
    memset(t, 0, sizeof *t);
    t->bone = bone;
    t->node = bone;
    t->path = path;
    t->interp = ANIM_INTERP_LINEAR;
    t->key_count = keys;
    t->times = times;
    t->components = comps;
    t->value_count = keys;
    t->values = values;
    t->channel = index;
    t->sampler = index;
    t->input_accessor = ANIM_NONE;
    t->output_accessor = ANIM_NONE;
    return t;
}

static uint32_t find_bone(const skeleton *s, const char *local)
{
    char want[64];
    snprintf(want, sizeof want, "mixamorig:%s", local);
    for (uint32_t i = 0; i < s->count; i++)
        if (!strcmp(s->bones[i].name, want))
            return i;
    fprintf(stderr, "gen_library: no bone %s\n", want);
    exit(2);
}

/* Fills one clip: global index g picks the kind and the defects. */
static void build_clip(anim_arena *arena, const skeleton *s, const gen_opts *o, uint32_t g,
                       const char *name, anim_clip *clip)
{
    const clip_kind *kind = &kinds[g % KIND_COUNT];
    uint32_t keys = o->keys;
    float *times = anim_arena_calloc(arena, keys, sizeof(float));
    anim_track *tracks = anim_arena_calloc(arena, (size_t)s->count * 3, sizeof *tracks);
    if (!times || !tracks)
        die_oom();
    for (uint32_t k = 0; k < keys; k++)
        times[k] = (float)((double)k / o->fps);
    double duration = (double)(keys - 1) / o->fps;
    double cycles = floor(duration / kind->cycle_s + 0.5);
    double period = duration / (cycles < 1.0 ? 1.0 : cycles);
    /* A per-clip phase offset keeps clips from being byte copies. */
    double offset = (double)(g % 17) * 0.37;
    uint32_t n = 0;
    for (uint32_t b = 0; b < s->count; b++) {
        const bone_spec *bs = &s->bones[b];
        anim_track *tt = new_track(arena, &tracks[n], b, ANIM_PATH_TRANSLATION, times, keys, n);
        n++;
        anim_track *tr = new_track(arena, &tracks[n], b, ANIM_PATH_ROTATION, times, keys, n);
        n++;
        anim_track *ts = new_track(arena, &tracks[n], b, ANIM_PATH_SCALE, times, keys, n);
        n++;
        float *tv = (float *)tt->values, *rv = (float *)tr->values, *sv = (float *)ts->values;
        for (uint32_t k = 0; k < keys; k++) {
            double t = (double)k / o->fps;
            double phase = 2.0 * PI * t / period + offset;
            double pos[3] = {bs->rest[0], bs->rest[1], bs->rest[2]};
            if (bs->move == MOVE_HIPS) {
                /* Bob twice per cycle, sway once; root-motion kinds also
                 * travel along +z at their speed. */
                pos[0] += 0.02 * kind->amp * sin(phase);
                pos[1] += 0.03 * kind->amp * cos(2.0 * phase);
                pos[2] += kind->speed_mps * t;
            }
            double axis[3];
            double a = bone_angle(bs, phase, kind->amp, axis);
            double sh = sin(a * 0.5), ch = cos(a * 0.5);
            for (int c = 0; c < 3; c++) {
                tv[k * 3 + c] = (float)pos[c];
                rv[k * 4 + c] = (float)(axis[c] * sh);
                sv[k * 3 + c] = 1.0f;
            }
            rv[k * 4 + 3] = (float)ch;
        }
    }
    /* Defects in every third clip: a sign flip on the left arm half way
     * (the same rotation, opposite hemisphere) and a 2% long quaternion on
     * the right forearm a third of the way in. */
    if (g % 3 == 1 && keys >= 4) {
        float *arm = (float *)tracks[3 * find_bone(s, "LeftArm") + 1].values;
        float *fore = (float *)tracks[3 * find_bone(s, "RightForeArm") + 1].values;
        for (int c = 0; c < 4; c++) {
            arm[(keys / 2) * 4 + c] = -arm[(keys / 2) * 4 + c];
            fore[(keys / 3) * 4 + c] *= 1.02f;
        }
    }
    memset(clip, 0, sizeof *clip);
    clip->name = name;
    clip->base_name = name;
    clip->has_name = true;
    clip->animation = g;
    clip->duration_s = (double)times[keys - 1];
    clip->tracks = tracks;
    clip->track_count = n;
    clip->max_keys = keys;
}

static void fill_bones(const skeleton *s, anim_bone *bones)
{
    for (uint32_t i = 0; i < s->count; i++) {
        anim_bone *b = &bones[i];
        memset(b, 0, sizeof *b);
        b->name = s->bones[i].name;
        b->has_name = true;
        b->parent = s->bones[i].parent;
        b->depth = b->parent == ANIM_NONE ? 0 : bones[b->parent].depth + 1;
        b->node = i;
        b->first_child = ANIM_NONE;
        b->next_sibling = ANIM_NONE;
        for (int c = 0; c < 3; c++) {
            b->rest_translation[c] = s->bones[i].rest[c];
            b->rest_scale[c] = 1.0;
        }
        b->rest_rotation[3] = 1.0;
        b->mesh = ANIM_NONE;
        b->skin = ANIM_NONE;
    }
    /* Children linked in bone order (reverse walk keeps first_child the
     * lowest index). */
    for (uint32_t i = s->count; i-- > 0;) {
        if (bones[i].parent == ANIM_NONE)
            continue;
        anim_bone *p = &bones[bones[i].parent];
        bones[i].next_sibling = p->first_child;
        p->first_child = i;
        p->child_count++;
    }
}

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static int write_contract(const gen_opts *o)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/animsmith.toml", o->out);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gen_library: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# Contract of the synthetic clip library written by gen_library\n"
               "# (bench/README.md). Every clip is a closed gait cycle at %u fps.\n\n"
               "[rig]\nprofile = \"mixamo\"\n",
            o->fps);
    for (size_t k = 0; k < KIND_COUNT; k++) {
        fprintf(f, "\n[clips.\"%s_*\"]\nloop = true\nfps = %u\n", kinds[k].prefix, o->fps);
        if (kinds[k].speed_mps > 0.0)
            fprintf(f, "movement_owner_xz = \"animation\"\n"
                       "speed_mps = { value = %.1f, tolerance = 0.3 }\n",
                    kinds[k].speed_mps);
        else
            fprintf(f, "movement_owner_xz = \"gameplay\"\n");
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int parse_uint(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || v == 0 || v > 1000000)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int parse_args(int argc, char **argv, gen_opts *o)
{
    o->files = 20;
    o->clips = 4;
    o->keys = 60;
    o->fps = 30;
    o->out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--preset") && has_value) {
            const char *p = argv[++i];
            o->files = 20;
            o->clips = 4;
            if (!strcmp(p, "1x"))
                o->keys = 60;
            else if (!strcmp(p, "10x"))
                o->keys = 600;
            else if (!strcmp(p, "100x"))
                o->keys = 6000;
            else if (!strcmp(p, "large")) {
                o->files = 1;
                o->clips = 500;
                o->keys = 60;
            } else if (!strcmp(p, "lib24")) {
                o->files = 24;
                o->clips = 12;
                o->keys = 60;
            } else
                return -1;
        } else if (!strcmp(a, "--files") && has_value) {
            if (parse_uint(argv[++i], &o->files))
                return -1;
        } else if (!strcmp(a, "--clips") && has_value) {
            if (parse_uint(argv[++i], &o->clips))
                return -1;
        } else if (!strcmp(a, "--keys") && has_value) {
            if (parse_uint(argv[++i], &o->keys))
                return -1;
        } else if (!strcmp(a, "--fps") && has_value) {
            if (parse_uint(argv[++i], &o->fps))
                return -1;
        } else if (a[0] != '-' && !o->out) {
            o->out = a;
        } else {
            return -1;
        }
    }
    return o->out && o->keys >= 2 ? 0 : -1;
}

static const char USAGE[] =
    "usage: gen_library [--preset 1x|10x|100x|large|lib24] [--files N] [--clips N] "
    "[--keys N>=2] [--fps N] OUTDIR\n"
    "\n"
    "Generates a deterministic clip library (GLB files and an animsmith.toml)\n"
    "into OUTDIR for the lint benchmark.\n"
    "\n"
    "Presets: 1x = 20 files x 4 clips x 60 keys; 10x = 600 keys; 100x = 6000 keys;\n"
    "large = 1 file x 500 clips x 60 keys; lib24 = 24 files x 12 clips x 60 keys.\n"
    "\n"
    "  -h, --help  print this help and exit\n";

int main(int argc, char **argv)
{
    gen_opts o;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, stdout);
            return 0;
        }
    if (parse_args(argc, argv, &o)) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen_library: cannot create %s: %s\n", o.out, strerror(errno));
        return 2;
    }
    skeleton s;
    build_skeleton(&s);
    long long total = 0, largest = 0;
    for (unsigned f = 0; f < o.files; f++) {
        anim_arena *arena = anim_arena_new();
        anim_bone *bones = arena ? anim_arena_calloc(arena, s.count, sizeof *bones) : NULL;
        anim_clip *clips = arena ? anim_arena_calloc(arena, o.clips, sizeof *clips) : NULL;
        if (!bones || !clips)
            die_oom();
        fill_bones(&s, bones);
        for (unsigned c = 0; c < o.clips; c++) {
            uint32_t g = f * o.clips + c;
            char *name = anim_arena_printf(arena, "%s_%03u_%03u", kinds[g % KIND_COUNT].prefix, f, c);
            if (!name)
                die_oom();
            build_clip(arena, &s, &o, g, name, &clips[c]);
        }
        anim_doc doc;
        memset(&doc, 0, sizeof doc);
        doc.bones = bones;
        doc.bone_count = s.count;
        doc.node_count = s.count;
        doc.clips = clips;
        doc.clip_count = o.clips;
        doc.default_scene = 0;
        char path[4096];
        snprintf(path, sizeof path, "%s/clips_%03u.glb", o.out, f);
        anim_error err;
        anim_error_clear(&err);
        if (anim_gltf_write_file(&doc, path, GENERATOR, NULL, &err)) {
            fprintf(stderr, "gen_library: %s: %s\n", path, err.message);
            anim_arena_free(arena);
            return 2;
        }
        anim_arena_free(arena);
        long long size = file_size(path);
        total += size;
        largest = size > largest ? size : largest;
    }
    if (write_contract(&o))
        return 2;
    /* One clip's metric grid (src/core/grid.c): a time per frame plus
     * local TRS, model position and model rotation per frame and bone. */
    unsigned long long grid =
        (unsigned long long)o.keys *
        (sizeof(double) + (unsigned long long)s.count * (sizeof(anim_trs) + sizeof(anim_vec3) +
                                                         sizeof(anim_quat)));
    char mpath[4096];
    snprintf(mpath, sizeof mpath, "%s/manifest.txt", o.out);
    FILE *m = fopen(mpath, "w");
    if (!m) {
        fprintf(stderr, "gen_library: cannot write %s: %s\n", mpath, strerror(errno));
        return 2;
    }
    unsigned long long tracks = (unsigned long long)o.files * o.clips * s.count * 3;
    fprintf(m,
            "files %u\nclips_per_file %u\nkeys_per_track %u\nfps %u\nbones %u\ntracks %llu\n"
            "total_keys %llu\ntotal_bytes %lld\nlargest_bytes %lld\ngrid_bytes %llu\n",
            o.files, o.clips, o.keys, o.fps, s.count, tracks, tracks * o.keys, total, largest, grid);
    if (fclose(m) != 0)
        return 2;
    printf("gen_library: %u files x %u clips x %u bones x T/R/S x %u keys -> %s (%.1f MB, largest "
           "%.1f MB)\n",
           o.files, o.clips, s.count, o.keys, o.out, (double)total / 1e6, (double)largest / 1e6);
    return 0;
}
