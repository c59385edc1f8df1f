/* World-space node positions of an FBX file as Debian's assimp reads it,
 * for tests/scripts/fbx_assimp_crosscheck.sh: an independent reader to
 * compare ours against. Built by that script with cc and pkg-config
 * assimp; not part of the CMake build.
 *
 *   assimp_crosscheck FILE.fbx
 *
 * Imports with no post-processing and AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS
 * off (pivot helper nodes would otherwise carry pre-rotations twice), then
 * prints, in metres and Y-up (assimp keeps the file's units and axes: the
 * scene metadata's UnitScaleFactor / 100 and Up/Front/Coord axes are
 * applied here), the world position of every node at rest and at three
 * key times of the first animation: its first, middle and last key (the
 * union of all channels' key times). The channels are evaluated here, not
 * by assimp: keys interpolated linearly (positions, scales) and by slerp
 * (rotations), clamped outside the key range.
 *
 * Output (tab-separated, names may hold spaces):
 *   meta\tunit_scale_factor\tU\tup\tA S\tfront\tA S\tcoord\tA S
 *   anim\tNAME\tTICKS_PER_SECOND\tCHANNELS
 *   pose\trest            or   pose\tSECONDS
 *   node\tNAME\tX\tY\tZ
 * Exit 0, or 2 with one line on stderr when assimp refuses the file. */
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/metadata.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 100000

typedef struct {
    double m[16]; /* row-major, like aiMatrix4x4 */
} mat4;

static mat4 mat_of(const struct aiMatrix4x4 *a) {
    mat4 r = {{a->a1, a->a2, a->a3, a->a4, a->b1, a->b2, a->b3, a->b4, a->c1, a->c2, a->c3,
               a->c4, a->d1, a->d2, a->d3, a->d4}};
    return r;
}

static mat4 mat_mul(const mat4 *a, const mat4 *b) {
    mat4 r;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a->m[i * 4 + k] * b->m[k * 4 + j];
            r.m[i * 4 + j] = s;
        }
    return r;
}

/* T * R * S from a translation, a unit quaternion (w, x, y, z) and a scale. */
static mat4 mat_trs(const double t[3], const double q[4], const double s[3]) {
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                   2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                   2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
    mat4 m = {{0}};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) m.m[i * 4 + j] = r[i * 3 + j] * s[j];
        m.m[i * 4 + 3] = t[i];
    }
    m.m[15] = 1;
    return m;
}

static double meta_number(const struct aiMetadata *md, const char *key, double fallback) {
    if (!md) return fallback;
    for (unsigned i = 0; i < md->mNumProperties; i++) {
        if (strcmp(md->mKeys[i].data, key) != 0 || !md->mValues[i].mData) continue;
        const void *v = md->mValues[i].mData;
        switch (md->mValues[i].mType) {
        case AI_INT32: return *(const int32_t *)v;
        case AI_UINT64: return (double)*(const uint64_t *)v;
        case AI_FLOAT: return *(const float *)v;
        case AI_DOUBLE: return *(const double *)v;
        default: return fallback;
        }
    }
    return fallback;
}

typedef struct {
    const struct aiNode *node;
    int parent;
    const struct aiNodeAnim *channel;
} node_rec;

static node_rec nodes[MAX_NODES];
static int node_count;

/* Pre-order walk with an explicit stack (no recursion on file data). */
static int collect(const struct aiNode *root) {
    static const struct aiNode *stack[MAX_NODES];
    static int parents[MAX_NODES];
    int top = 0;
    stack[top] = root;
    parents[top++] = -1;
    while (top > 0) {
        const struct aiNode *n = stack[--top];
        int parent = parents[top];
        if (node_count >= MAX_NODES) return -1;
        nodes[node_count].node = n;
        nodes[node_count].parent = parent;
        nodes[node_count].channel = NULL;
        int self = node_count++;
        for (unsigned c = n->mNumChildren; c-- > 0;) {
            if (top >= MAX_NODES) return -1;
            stack[top] = n->mChildren[c];
            parents[top++] = self;
        }
    }
    return 0;
}

static void vec_at(const struct aiVectorKey *k, unsigned n, double t, double out[3]) {
    if (t <= k[0].mTime || n == 1) {
        out[0] = k[0].mValue.x, out[1] = k[0].mValue.y, out[2] = k[0].mValue.z;
        return;
    }
    for (unsigned i = 1; i < n; i++) {
        if (t <= k[i].mTime) {
            double span = k[i].mTime - k[i - 1].mTime;
            double u = span > 0 ? (t - k[i - 1].mTime) / span : 0;
            out[0] = k[i - 1].mValue.x + u * (k[i].mValue.x - k[i - 1].mValue.x);
            out[1] = k[i - 1].mValue.y + u * (k[i].mValue.y - k[i - 1].mValue.y);
            out[2] = k[i - 1].mValue.z + u * (k[i].mValue.z - k[i - 1].mValue.z);
            return;
        }
    }
    out[0] = k[n - 1].mValue.x, out[1] = k[n - 1].mValue.y, out[2] = k[n - 1].mValue.z;
}

static void quat_load(const struct aiQuaternion *a, double q[4]) {
    double n = sqrt(a->w * a->w + a->x * a->x + a->y * a->y + a->z * a->z);
    if (n == 0) n = 1;
    q[0] = a->w / n, q[1] = a->x / n, q[2] = a->y / n, q[3] = a->z / n;
}

static void slerp(const double a[4], const double b0[4], double u, double out[4]) {
    double b[4] = {b0[0], b0[1], b0[2], b0[3]};
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (d < 0) {
        d = -d;
        for (int i = 0; i < 4; i++) b[i] = -b[i];
    }
    double wa = 1 - u, wb = u;
    if (d < 0.9999995) {
        double th = acos(d), s = sin(th);
        wa = sin((1 - u) * th) / s;
        wb = sin(u * th) / s;
    }
    double n = 0;
    for (int i = 0; i < 4; i++) {
        out[i] = wa * a[i] + wb * b[i];
        n += out[i] * out[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; i++) out[i] /= n;
}

static void quat_at(const struct aiQuatKey *k, unsigned n, double t, double out[4]) {
    if (t <= k[0].mTime || n == 1) {
        quat_load(&k[0].mValue, out);
        return;
    }
    for (unsigned i = 1; i < n; i++) {
        if (t <= k[i].mTime) {
            double a[4], b[4], span = k[i].mTime - k[i - 1].mTime;
            quat_load(&k[i - 1].mValue, a);
            quat_load(&k[i].mValue, b);
            slerp(a, b, span > 0 ? (t - k[i - 1].mTime) / span : 0, out);
            return;
        }
    }
    quat_load(&k[n - 1].mValue, out);
}

/* The local matrix of node i at time t (ticks); t < 0: rest. A channel
 * replaces the node's whole local transform; a missing key kind falls
 * back to the rest value of that part. */
static mat4 local_at(int i, double t) {
    mat4 rest = mat_of(&nodes[i].node->mTransformation);
    const struct aiNodeAnim *ch = nodes[i].channel;
    if (t < 0 || !ch) return rest;
    struct aiVector3D rs, rp;
    struct aiQuaternion rq;
    aiDecomposeMatrix(&nodes[i].node->mTransformation, &rs, &rq, &rp);
    double tr[3] = {rp.x, rp.y, rp.z}, sc[3] = {rs.x, rs.y, rs.z}, q[4];
    quat_load(&rq, q);
    if (ch->mNumPositionKeys) vec_at(ch->mPositionKeys, ch->mNumPositionKeys, t, tr);
    if (ch->mNumRotationKeys) quat_at(ch->mRotationKeys, ch->mNumRotationKeys, t, q);
    if (ch->mNumScalingKeys) vec_at(ch->mScalingKeys, ch->mNumScalingKeys, t, sc);
    return mat_trs(tr, q, sc);
}

static double axis_m[9]; /* file -> glTF axes, row-major, times metres per unit */

static void print_pose(double t) {
    static mat4 world[MAX_NODES];
    for (int i = 0; i < node_count; i++) {
        mat4 l = local_at(i, t);
        world[i] = nodes[i].parent < 0 ? l : mat_mul(&world[nodes[i].parent], &l);
        const double p[3] = {world[i].m[3], world[i].m[7], world[i].m[11]};
        double g[3];
        for (int r = 0; r < 3; r++)
            g[r] = axis_m[r * 3] * p[0] + axis_m[r * 3 + 1] * p[1] + axis_m[r * 3 + 2] * p[2];
        printf("node\t%s\t%.9g\t%.9g\t%.9g\n", nodes[i].node->mName.data, g[0], g[1], g[2]);
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: assimp_crosscheck FILE.fbx\n");
        return argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) ? 0 : 2;
    }
    struct aiPropertyStore *props = aiCreatePropertyStore();
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    const struct aiScene *scene = aiImportFileExWithProperties(argv[1], 0, NULL, props);
    aiReleasePropertyStore(props);
    if (!scene || !scene->mRootNode) {
        fprintf(stderr, "assimp_crosscheck: %s: %s\n", argv[1], aiGetErrorString());
        return 2;
    }
    const struct aiMetadata *md = scene->mMetaData;
    double usf = meta_number(md, "UnitScaleFactor", 1.0);
    int up = (int)meta_number(md, "UpAxis", 1), ups = (int)meta_number(md, "UpAxisSign", 1);
    int fr = (int)meta_number(md, "FrontAxis", 2), frs = (int)meta_number(md, "FrontAxisSign", 1);
    int co = (int)meta_number(md, "CoordAxis", 0), cos_ = (int)meta_number(md, "CoordAxisSign", 1);
    if (up < 0 || up > 2 || fr < 0 || fr > 2 || co < 0 || co > 2 || up == fr || up == co || fr == co)
        up = 1, fr = 2, co = 0, ups = frs = cos_ = 1;
    /* glTF x = the coord axis, y = up, z = front, each with its sign. */
    double mpu = usf / 100.0;
    memset(axis_m, 0, sizeof axis_m);
    axis_m[0 * 3 + co] = (cos_ < 0 ? -1 : 1) * mpu;
    axis_m[1 * 3 + up] = (ups < 0 ? -1 : 1) * mpu;
    axis_m[2 * 3 + fr] = (frs < 0 ? -1 : 1) * mpu;
    printf("meta\tunit_scale_factor\t%g\tup\t%d %d\tfront\t%d %d\tcoord\t%d %d\n", usf, up, ups, fr,
           frs, co, cos_);
    if (collect(scene->mRootNode) != 0) {
        fprintf(stderr, "assimp_crosscheck: %s: more than %d nodes\n", argv[1], MAX_NODES);
        aiReleaseImport(scene);
        return 2;
    }
    printf("pose\trest\n");
    print_pose(-1);
    if (scene->mNumAnimations > 0) {
        const struct aiAnimation *an = scene->mAnimations[0];
        double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25.0;
        printf("anim\t%s\t%.9g\t%u\n", an->mName.data, tps, an->mNumChannels);
        size_t nt = 0, cap = 0;
        double *times = NULL;
        for (unsigned c = 0; c < an->mNumChannels; c++) {
            const struct aiNodeAnim *ch = an->mChannels[c];
            for (int i = 0; i < node_count; i++)
                if (!strcmp(nodes[i].node->mName.data, ch->mNodeName.data) && !nodes[i].channel)
                    nodes[i].channel = ch;
            size_t add = (size_t)ch->mNumPositionKeys + ch->mNumRotationKeys + ch->mNumScalingKeys;
            if (nt + add > cap) {
                cap = (nt + add) * 2;
                double *grown = realloc(times, cap * sizeof *times);
                if (!grown) {
                    free(times);
                    aiReleaseImport(scene);
                    return 2;
                }
                times = grown;
            }
            for (unsigned k = 0; k < ch->mNumPositionKeys; k++) times[nt++] = ch->mPositionKeys[k].mTime;
            for (unsigned k = 0; k < ch->mNumRotationKeys; k++) times[nt++] = ch->mRotationKeys[k].mTime;
            for (unsigned k = 0; k < ch->mNumScalingKeys; k++) times[nt++] = ch->mScalingKeys[k].mTime;
        }
        if (nt > 0) {
            qsort(times, nt, sizeof *times, cmp_double);
            /* Distinct key times; the first, middle and last of them. */
            size_t nd = 0;
            for (size_t i = 0; i < nt; i++)
                if (nd == 0 || times[i] != times[nd - 1]) times[nd++] = times[i];
            const double pick[3] = {times[0], times[nd / 2], times[nd - 1]};
            for (int p = 0; p < 3; p++) {
                printf("pose\t%.9g\n", pick[p] / tps);
                print_pose(pick[p]);
            }
        }
        free(times);
    }
    aiReleaseImport(scene);
    return 0;
}
