/* FBX 6.1 Takes: each Take is a clip; its Model records hold
 * Channel "Transform" { Channel "T"/"R"/"S" { Channel "X"/"Y"/"Z" { Default,
 * KeyCount, Key } } }.
 *
 * A Key record is a flat list: per key its time (KTime integer), its
 * value, an upper-case interpolation letter, then lower-case letters each
 * followed by its numbers:
 *   C s | C n              constant (standard | next)
 *   L                      linear
 *   U s|b|a r nl  W ...    cubic: tangent mode, right slope and next-left
 *                          slope (per second, as 7.x KeyAttrDataFloat),
 *                          then the weight mode (n: none; otherwise its
 *                          weights, fractions of the segment)
 * (maya_game_sausage_6100_binary_wiggle: "t,v,U,s,0,109.28,n" per key).
 * The binary encoding stores the letters as 'C' (byte) properties, ASCII
 * as bare words. A key ends where two numbers followed by an upper-case
 * letter start the next, so unknown lower-case groups are skipped whole. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fbx/fbx_curve.h"

typedef struct {
    bool is_char;
    int ch;
    double num;
} token;

static bool upper(const token *t)
{
    return t->is_char && t->ch >= 'A' && t->ch <= 'Z';
}

static int tokenize(const anim_fbx_node *key, token *tok, const char *label, anim_error *err)
{
    for (uint32_t i = 0; i < key->prop_count; i++) {
        const anim_fbx_prop *p = &key->props[i];
        token *t = &tok[i];
        memset(t, 0, sizeof *t);
        switch (p->type) {
        case ANIM_FBX_I16:
        case ANIM_FBX_I32:
        case ANIM_FBX_I64:
            t->num = (double)p->scalar.i;
            break;
        case ANIM_FBX_F32:
        case ANIM_FBX_F64:
            t->num = p->scalar.f;
            break;
        case ANIM_FBX_BOOL: /* the binary encoding's letter byte */
            t->is_char = true;
            t->ch = (int)(p->scalar.i & 0xff);
            break;
        case ANIM_FBX_STRING:
            if (p->len == 1) {
                t->is_char = true;
                t->ch = (unsigned char)p->bytes[0];
                break;
            }
            /* fall through */
        default:
            return anim_error_set(err, ANIM_ERR_INVALID, "%s Key property %u: not a number or a key letter",
                                  label, i);
        }
    }
    return 0;
}

/* True when tok[i] starts a key: number, number, upper-case letter. */
static bool key_start(const token *tok, uint32_t n, uint32_t i)
{
    return i + 2 < n && !tok[i].is_char && !tok[i + 1].is_char && upper(&tok[i + 2]);
}

/* Decodes one channel's Key record into curve c. */
static int decode_keys(anim_arena *arena, const anim_fbx_node *ch, const char *label,
                       anim_fbx_curve *c, anim_error *err)
{
    const anim_fbx_node *key = anim_fbx_child(ch, "Key");
    int64_t declared = 0;
    const anim_fbx_node *kc = anim_fbx_child(ch, "KeyCount");
    if (kc && anim_fbx_prop_i64(kc, 0, &declared, err) != 0)
        return -1;
    uint32_t n = key ? key->prop_count : 0;
    if (declared < 0 || (uint64_t)declared > n / 3u)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: KeyCount %lld but %u key value(s)", label,
                              (long long)declared, n);
    if (n == 0)
        return 0;
    token *tok = malloc((size_t)n * sizeof *tok);
    bool *autos = calloc(n / 3u + 1u, sizeof *autos);
    c->keys = anim_arena_calloc(arena, n / 3u + 1u, sizeof *c->keys);
    if (!tok || !autos || !c->keys) {
        free(tok);
        free(autos);
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", label);
    }
    int rc = tokenize(key, tok, label, err);
    uint32_t i = 0, k = 0;
    while (rc == 0 && i < n) {
        if (!key_start(tok, n, i)) {
            rc = anim_error_set(err, ANIM_ERR_INVALID, "%s key %u: expected time, value and an interpolation letter",
                                label, k);
            break;
        }
        anim_fbx_key *kk = &c->keys[k];
        double t = tok[i].num;
        if (!(t == floor(t) && fabs(t) < 9.2e18)) {
            rc = anim_error_set(err, ANIM_ERR_INVALID, "%s key %u: time %g is not a KTime integer", label, k, t);
            break;
        }
        kk->time = (int64_t)t;
        kk->value = tok[i + 1].num;
        kk->right_weight = kk->next_left_weight = ANIM_FBX_DEFAULT_WEIGHT;
        int mode = tok[i + 2].ch;
        i += 3;
        /* The letter groups up to the next key. */
        int letters[2] = {0, 0};
        double nums[2][2] = {{0, 0}, {0, 0}};
        uint32_t nnum[2] = {0, 0};
        int group = -1;
        while (i < n && !key_start(tok, n, i)) {
            if (tok[i].is_char) {
                group++;
                if (group < 2)
                    letters[group] = tok[i].ch;
            } else if (group >= 0 && group < 2 && nnum[group] < 2) {
                nums[group][nnum[group]++] = tok[i].num;
            }
            i++;
        }
        if (mode == 'C') {
            kk->kind = letters[0] == 'n' ? ANIM_FBX_SEG_CONSTANT_NEXT : ANIM_FBX_SEG_CONSTANT;
        } else if (mode == 'L') {
            kk->kind = ANIM_FBX_SEG_LINEAR;
        } else if (mode == 'U') {
            kk->kind = ANIM_FBX_SEG_CUBIC;
            if (nnum[0] == 2) {
                kk->right_slope = nums[0][0];
                kk->next_left_slope = nums[0][1];
            } else {
                autos[k] = true; /* auto tangent without stored slopes */
            }
            if (group >= 1 && letters[1] != 'n' && nnum[1] == 2) {
                kk->right_weight = nums[1][0];
                kk->next_left_weight = nums[1][1];
            }
        } else {
            rc = anim_error_set(err, ANIM_ERR_UNSUPPORTED, "%s key %u: interpolation '%c' not supported",
                                label, k, mode);
            break;
        }
        k++;
    }
    if (rc == 0 && (int64_t)k != declared && kc)
        rc = anim_error_set(err, ANIM_ERR_INVALID, "%s: KeyCount %lld but %u key(s) in Key", label,
                            (long long)declared, k);
    c->key_count = k;
    if (rc == 0)
        rc = anim_fbx_curve_check(label, c, err);
    /* Auto tangents the file did not store: the slope through the
     * neighbours (flat at the ends). */
    for (uint32_t j = 0; rc == 0 && j < k; j++) {
        if (!autos[j])
            continue;
        double s = 0.0;
        if (j > 0 && j + 1 < k)
            s = (c->keys[j + 1].value - c->keys[j - 1].value) /
                ((double)(c->keys[j + 1].time - c->keys[j - 1].time) / (double)ANIM_FBX_KTIME_PER_SECOND);
        c->keys[j].right_slope = s;
        if (j > 0 && autos[j - 1])
            c->keys[j - 1].next_left_slope = s;
        if (j + 1 < k && !autos[j + 1])
            c->keys[j].next_left_slope = s;
    }
    free(tok);
    free(autos);
    return rc;
}

/* ---- Models by name ---------------------------------------------------- */

typedef struct {
    const char *name;
    uint32_t object;
} model_ref;

typedef struct {
    model_ref *models; /* Model objects sorted by name, then object index */
    uint32_t count;
} model_index;

static int cmp_model(const void *a, const void *b)
{
    const model_ref *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->object > y->object) - (x->object < y->object);
}

/* "Model::joint1" (ASCII) and "joint1\0\1Model" (binary) both name joint1. */
static const char *model_name(const char *s)
{
    const char *sep = strstr(s, "::");
    return sep ? sep + 2 : s;
}

static uint32_t find_model(const model_index *mi, const char *name)
{
    uint32_t lo = 0, hi = mi->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(mi->models[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < mi->count && strcmp(mi->models[lo].name, name) == 0)
        return mi->models[lo].object;
    return ANIM_FBX_SCENE_ROOT;
}

static const anim_fbx_node *channel(const anim_fbx_node *parent, const char *name)
{
    for (uint32_t i = 0; i < parent->child_count; i++) {
        const anim_fbx_node *c = &parent->children[i];
        const char *s;
        size_t len;
        if (strcmp(c->name, "Channel") == 0 && c->prop_count > 0 &&
            c->props[0].type == ANIM_FBX_STRING && anim_fbx_prop_string(c, 0, &s, &len, NULL) == 0 &&
            strcmp(s, name) == 0)
            return c;
    }
    return NULL;
}

static int read_model(anim_fbx_scene *scene, const model_index *mi, const char *take,
                      const anim_fbx_node *m, anim_fbx_clip_src *src, anim_error *err)
{
    static const char *const paths[3] = {"T", "R", "S"};
    static const char *const axes[3] = {"X", "Y", "Z"};
    const char *raw;
    size_t len;
    if (anim_fbx_prop_string(m, 0, &raw, &len, err) != 0)
        return -1;
    const char *name = model_name(raw);
    uint32_t o = find_model(mi, name);
    uint32_t node = o == ANIM_FBX_SCENE_ROOT ? ANIM_NONE : anim_fbx_node_of_object(scene, o);
    const anim_fbx_node *tr = channel(m, "Transform");
    if (node == ANIM_NONE || node == 0 || !tr)
        return 0; /* a take for a model that is no node, or no transform */
    const anim_fbx_xform *x = &scene->nodes[node].xform;
    for (int p = 0; p < 3; p++) {
        const anim_fbx_node *pc = channel(tr, paths[p]);
        if (!pc)
            continue;
        anim_fbx_anim_prop prop = {.node = node, .path = (anim_path)p, .mesh = ANIM_NONE, .target = ANIM_NONE};
        memcpy(prop.statics, p == 0 ? x->translation : p == 1 ? x->rotation : x->scaling, sizeof prop.statics);
        for (int a = 0; a < 3; a++) {
            const anim_fbx_node *ac = channel(pc, axes[a]);
            if (!ac)
                continue;
            char label[512];
            snprintf(label, sizeof label, "Take '%s' Model '%s' channel %s.%s", take, name, paths[p], axes[a]);
            const anim_fbx_node *d = anim_fbx_child(ac, "Default");
            if (d && anim_fbx_prop_f64(d, 0, &prop.statics[a], err) != 0)
                return -1;
            anim_fbx_curve *c = anim_arena_calloc(scene->arena, 1, sizeof *c);
            if (!c)
                return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", label);
            c->default_value = prop.statics[a];
            if (decode_keys(scene->arena, ac, label, c, err) != 0)
                return -1;
            if (c->key_count) {
                prop.curves[a] = c;
                src->curve_count++;
            }
        }
        if (anim_fbx_clip_src_add(scene->arena, src, &prop, err) != 0)
            return -1;
    }
    return 0;
}

static int take_span(const anim_fbx_node *take, anim_fbx_clip_src *src, anim_error *err)
{
    static const char *const names[2] = {"LocalTime", "ReferenceTime"};
    for (int i = 0; i < 2; i++) {
        const anim_fbx_node *r = anim_fbx_child(take, names[i]);
        if (!r)
            continue;
        if (anim_fbx_prop_i64(r, 0, &src->start, err) != 0 || anim_fbx_prop_i64(r, 1, &src->stop, err) != 0)
            return -1;
        src->has_span = true;
        return 0;
    }
    return 0;
}

int anim_fbx_takes61_build(anim_fbx_scene *scene, anim_error *err)
{
    const anim_fbx_objects *objs = scene->objs;
    const anim_fbx_node *takes = objs->takes;
    if (!takes)
        return 0;
    model_index mi = {.count = 0};
    mi.models = malloc(((size_t)objs->object_count + 1u) * sizeof *mi.models);
    if (!mi.models)
        return anim_error_set(err, ANIM_ERR_NOMEM, "Takes: out of memory");
    for (uint32_t i = 0; i < objs->object_count; i++)
        if (strcmp(objs->objects[i].cls, "Model") == 0)
            mi.models[mi.count++] = (model_ref){objs->objects[i].name, i};
    qsort(mi.models, mi.count, sizeof *mi.models, cmp_model);
    int rc = 0;
    for (uint32_t t = 0; rc == 0 && t < takes->child_count; t++) {
        const anim_fbx_node *take = &takes->children[t];
        if (strcmp(take->name, "Take") != 0)
            continue;
        const char *name;
        size_t len;
        if ((rc = anim_fbx_prop_string(take, 0, &name, &len, err)) != 0)
            break;
        anim_fbx_clip_src src = {.name = name};
        if ((rc = take_span(take, &src, err)) != 0)
            break;
        for (uint32_t m = 0; rc == 0 && m < take->child_count; m++)
            if (strcmp(take->children[m].name, "Model") == 0)
                rc = read_model(scene, &mi, name, &take->children[m], &src, err);
        if (rc == 0)
            rc = anim_fbx_clip_build(scene, &src, err);
    }
    free(mi.models);
    return rc;
}
