#define _POSIX_C_SOURCE 200809L /* stat */
/* Materials, textures and images.
 *
 * Materials are the Material objects connected to a Mesh Model (its
 * material slots, in connection order), numbered in object order. Their
 * glTF metallic-roughness terms come from the PBR properties when the
 * material carries them (the property names Maya and 3ds Max write for
 * Standard Surface, Stingray PBS and the Physical material), else from the
 * classic Lambert/Phong terms:
 *   base colour  DiffuseColor * DiffuseFactor, alpha Opacity when present,
 *                else 1 - TransparencyFactor * mean(TransparentColor)
 *   emissive     EmissiveColor * EmissiveFactor
 *   metallic     0
 *   roughness    sqrt(2 / (shininess + 2)), clamped to [0, 1]: the
 *                Blinn-Phong exponent to GGX roughness correspondence
 *                (exponent 2/r^2 - 2), 1 when there is no shininess.
 * Every factor is clamped to [0, 1] as glTF requires.
 *
 * Textures are Texture objects OP-connected to a material property; each
 * image is the texture's Video (embedded PNG/JPEG Content, or its file),
 * deduplicated by content digest or by path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "animsmith/base64.h"
#include "animsmith/hash.h"
#include "io/fbx/fbx_geometry_internal.h"

static double clamp01(double v)
{
    return v > 1.0 ? 1.0 : v >= 0.0 ? v : 0.0; /* NaN -> 0 */
}

static bool has(const anim_fbx_scene *s, const anim_fbx_object *o, const char *name)
{
    uint32_t vi;
    return anim_fbx_find_prop(s->objs, o, name, &vi) != NULL;
}

/* A colour property (3 numbers; a 4-value ColorAndAlpha reads its RGB). */
static int color(const anim_fbx_scene *s, const anim_fbx_object *o, const char *name,
                 const double dflt[3], double out[3], anim_error *err)
{
    return anim_fbx_get_vec3(s->objs, o, name, dflt, out, err);
}

static int scalar(const anim_fbx_scene *s, const anim_fbx_object *o, const char *name, double d,
                  double *out, anim_error *err)
{
    return anim_fbx_get_f64(s->objs, o, name, d, out, err);
}

/* The PBR families: base colour, its weight, metalness, roughness,
 * emission colour and its weight. */
typedef struct pbr_names {
    const char *base, *base_weight, *metal, *rough, *emit, *emit_weight, *rough_inverted;
} pbr_names;

static const pbr_names PBR[] = {
    /* Maya Standard Surface */
    {"Maya|baseColor", "Maya|base", "Maya|metalness", "Maya|specularRoughness",
     "Maya|emissionColor", "Maya|emission", NULL},
    /* Maya Stingray PBS */
    {"Maya|base_color", NULL, "Maya|metallic", "Maya|roughness", "Maya|emissive",
     "Maya|emissive_intensity", NULL},
    /* 3ds Max Physical material */
    {"3dsMax|Parameters|base_color", "3dsMax|Parameters|base_weight", "3dsMax|Parameters|metalness",
     "3dsMax|Parameters|roughness", "3dsMax|Parameters|emit_color", "3dsMax|Parameters|emission",
     "3dsMax|Parameters|roughness_inv"},
    /* 3ds Max glTF material */
    {"3dsMax|main|base_color", NULL, "3dsMax|main|metalness", "3dsMax|main|roughness",
     "3dsMax|main|emission", NULL, NULL},
};

static int pbr_terms(const anim_fbx_scene *s, const anim_fbx_object *o, const pbr_names *p,
                     anim_fbx_material *m, anim_error *err)
{
    static const double one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    double base[3], w = 1, e[3], ew = 1, inv = 0;
    if (color(s, o, p->base, one, base, err) != 0 ||
        (p->base_weight && scalar(s, o, p->base_weight, 1, &w, err) != 0) ||
        scalar(s, o, p->metal, 0, &m->metallic, err) != 0 ||
        scalar(s, o, p->rough, 0.5, &m->roughness, err) != 0 ||
        color(s, o, p->emit, zero, e, err) != 0 ||
        (p->emit_weight && scalar(s, o, p->emit_weight, 1, &ew, err) != 0) ||
        (p->rough_inverted && scalar(s, o, p->rough_inverted, 0, &inv, err) != 0))
        return -1;
    for (int k = 0; k < 3; k++) {
        m->base_color[k] = base[k] * w;
        m->emissive[k] = e[k] * ew;
    }
    if (inv != 0)
        m->roughness = 1.0 - m->roughness;
    return 0;
}

static int classic_terms(const anim_fbx_scene *s, const anim_fbx_object *o,
                         anim_fbx_material *m, anim_error *err)
{
    static const double grey[3] = {0.8, 0.8, 0.8}, zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
    double d[3], df = 1, e[3], ef = 1, tf = 0, tc[3], shin = -1;
    if (color(s, o, "DiffuseColor", grey, d, err) != 0 ||
        scalar(s, o, "DiffuseFactor", 1, &df, err) != 0 ||
        color(s, o, "EmissiveColor", zero, e, err) != 0 ||
        scalar(s, o, "EmissiveFactor", 1, &ef, err) != 0 ||
        scalar(s, o, "TransparencyFactor", 0, &tf, err) != 0 ||
        color(s, o, "TransparentColor", one, tc, err) != 0)
        return -1;
    const char *sh = has(s, o, "ShininessExponent") ? "ShininessExponent" : "Shininess";
    if (scalar(s, o, sh, -1, &shin, err) != 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        m->base_color[k] = d[k] * df;
        m->emissive[k] = e[k] * ef;
    }
    /* Maya writes TransparencyFactor 1 with a black TransparentColor for
     * opaque materials: the transparency is their product. */
    m->base_color[3] = 1.0 - tf * (tc[0] + tc[1] + tc[2]) / 3.0;
    if (has(s, o, "Opacity") && scalar(s, o, "Opacity", 1, &m->base_color[3], err) != 0)
        return -1;
    m->metallic = 0.0;
    m->roughness = shin >= 0.0 ? sqrt(2.0 / (shin + 2.0)) : 1.0;
    return 0;
}

static int material_terms(const anim_fbx_scene *s, const anim_fbx_object *o,
                          anim_fbx_material *m, anim_error *err)
{
    m->name = o->name;
    m->base_color[3] = 1.0;
    m->normal_scale = 1.0;
    for (int k = 0; k < ANIM_MATERIAL_TEXTURE_SLOTS; k++)
        m->textures[k] = ANIM_NONE;
    int rc = 1;
    for (size_t i = 0; i < sizeof PBR / sizeof PBR[0] && rc == 1; i++)
        if (has(s, o, PBR[i].base))
            rc = pbr_terms(s, o, &PBR[i], m, err);
    if (rc == 1)
        rc = classic_terms(s, o, m, err);
    if (rc != 0) {
        char buf[256];
        anim_error_prefix(err, "%s", anim_fbx_object_label(o, buf, sizeof buf));
        return -1;
    }
    for (int k = 0; k < 4; k++)
        m->base_color[k] = clamp01(m->base_color[k]);
    for (int k = 0; k < 3; k++)
        m->emissive[k] = clamp01(m->emissive[k]);
    m->metallic = clamp01(m->metallic);
    m->roughness = clamp01(m->roughness);
    return 0;
}

/* ---- textures and images ---------------------------------------------- */

/* Material property -> glTF texture slot (the names Maya and 3ds Max
 * write); metallic-roughness needs one texture on both properties. */
enum { SLOT_BASE, SLOT_NORMAL, SLOT_MR, SLOT_OCCLUSION, SLOT_EMISSIVE, SLOT_METAL, SLOT_ROUGH };

static int slot_of_property(const char *p)
{
    static const struct {
        const char *name;
        int slot;
    } map[] = {
        {"DiffuseColor", SLOT_BASE}, {"Maya|baseColor", SLOT_BASE}, {"Maya|base_color", SLOT_BASE},
        {"Maya|TEX_color_map", SLOT_BASE}, {"3dsMax|Parameters|base_color_map", SLOT_BASE},
        {"3dsMax|main|base_color_map", SLOT_BASE}, {"NormalMap", SLOT_NORMAL},
        {"Maya|normalCamera", SLOT_NORMAL}, {"Maya|TEX_normal_map", SLOT_NORMAL},
        {"3dsMax|Parameters|bump_map", SLOT_NORMAL}, {"3dsMax|main|bump_map", SLOT_NORMAL},
        {"EmissiveColor", SLOT_EMISSIVE}, {"Maya|emissionColor", SLOT_EMISSIVE},
        {"Maya|TEX_emissive_map", SLOT_EMISSIVE}, {"3dsMax|Parameters|emission_map", SLOT_EMISSIVE},
        {"3dsMax|main|emission_map", SLOT_EMISSIVE}, {"Maya|metalness", SLOT_METAL},
        {"Maya|TEX_metallic_map", SLOT_METAL}, {"3dsMax|Parameters|metalness_map", SLOT_METAL},
        {"Maya|specularRoughness", SLOT_ROUGH}, {"Maya|TEX_roughness_map", SLOT_ROUGH},
        {"3dsMax|Parameters|roughness_map", SLOT_ROUGH},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].name, p) == 0)
            return map[i].slot;
    return -1;
}

static bool says_normal(const char *s)
{
    for (; s && *s; s++)
        if (strncasecmp(s, "normal", 6) == 0 || strncasecmp(s, "nrm", 3) == 0)
            return true;
    return false;
}

/* A string child record (RelativeFilename, FileName), "" when absent. */
static const char *child_str(const anim_fbx_node *rec, const char *name)
{
    const anim_fbx_node *c = anim_fbx_child(rec, name);
    const char *s = NULL;
    size_t len = 0;
    if (!c || anim_fbx_prop_string(c, 0, &s, &len, NULL) != 0 || strlen(s) != len)
        return "";
    return s;
}

static const char *existing_file(anim_fbx_scene *s, const char *dir, const char *name)
{
    if (!name[0])
        return NULL;
    char *p = dir ? anim_arena_printf(s->arena, "%s/%s", dir, name)
                  : anim_arena_strdup(s->arena, name);
    if (!p)
        return NULL;
    for (char *q = p; *q; q++)
        if (*q == '\\')
            *q = '/'; /* Windows exporters write backslashes */
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) ? p : NULL;
}

/* Embedded Content of a Video: the raw bytes (binary), or base64 text
 * (ASCII), which exporters may split over several strings. */
static void content(anim_fbx_scene *s, const anim_fbx_node *rec, const uint8_t **bytes,
                    size_t *len)
{
    *bytes = NULL, *len = 0;
    const anim_fbx_node *c = anim_fbx_child(rec, "Content");
    if (!c)
        return;
    size_t text = 0;
    for (uint32_t i = 0; i < c->prop_count; i++) {
        const anim_fbx_prop *p = &c->props[i];
        if (p->type == ANIM_FBX_RAW && p->len > 0) {
            *bytes = (const uint8_t *)p->bytes, *len = p->len;
            return;
        }
        if (p->type == ANIM_FBX_STRING && !anim_size_add(text, p->len, &text))
            return;
    }
    if (text < 4)
        return;
    char *joined = anim_arena_alloc(s->arena, text + 1);
    uint8_t *out = anim_arena_alloc(s->arena, text / 4 * 3 + 3);
    if (!joined || !out)
        return;
    size_t at = 0;
    for (uint32_t i = 0; i < c->prop_count; i++)
        if (c->props[i].type == ANIM_FBX_STRING) {
            memcpy(joined + at, c->props[i].bytes, c->props[i].len);
            at += c->props[i].len;
        }
    long long n = anim_base64_decode(joined, text, out);
    if (n > 0)
        *bytes = out, *len = (size_t)n;
}

/* Per-build lookups: texture per Texture object, digest per image. */
typedef struct tex_ctx {
    uint32_t *tex_of;
    uint8_t (*digest)[32];
} tex_ctx;

static int image_of(anim_fbx_scene *s, const anim_fbx_object *tex, tex_ctx *tc, uint32_t *out,
                    anim_error *err)
{
    const anim_fbx_objects *objs = s->objs;
    uint32_t vo = anim_fbx_child_object(objs, tex, "Video", 0, NULL);
    const anim_fbx_object *src = vo != ANIM_FBX_SCENE_ROOT ? &objs->objects[vo] : tex;
    anim_fbx_image im = {.name = src->name};
    char buf[256];
    content(s, src->node, &im.bytes, &im.byte_count);
    if (im.byte_count >= 8 && memcmp(im.bytes, "\x89PNG\r\n\x1a\n", 8) == 0)
        im.mime_type = "image/png";
    else if (im.byte_count >= 3 && memcmp(im.bytes, "\xff\xd8\xff", 3) == 0)
        im.mime_type = "image/jpeg";
    else if (im.byte_count) {
        if (anim_fbx_scene_note(s, err, "%s: embedded content is not PNG or JPEG; not used",
                                anim_fbx_object_label(src, buf, sizeof buf)) != 0)
            return -1;
        im.bytes = NULL, im.byte_count = 0;
    }
    const char *rel = child_str(src->node, "RelativeFilename");
    const char *abs = child_str(src->node, "FileName");
    if (!abs[0])
        abs = child_str(src->node, "Filename");
    im.declared = rel[0] ? rel : abs;
    if (!im.bytes) {
        im.path = existing_file(s, s->base_dir, rel);
        if (!im.path)
            im.path = existing_file(s, NULL, abs);
    }
    if (!im.bytes && !im.path && !im.declared[0]) {
        *out = ANIM_NONE;
        return 0;
    }
    uint8_t digest[32] = {0};
    if (im.bytes)
        anim_sha256(im.bytes, im.byte_count, digest);
    for (uint32_t i = 0; i < s->image_count; i++) {
        const anim_fbx_image *o = &s->images[i];
        bool same = false;
        if (im.bytes && o->bytes && o->byte_count == im.byte_count) {
            same = memcmp(tc->digest[i], digest, 32) == 0;
        } else if (!im.bytes && !o->bytes) {
            const char *a = im.path ? im.path : im.declared, *b = o->path ? o->path : o->declared;
            same = strcmp(a, b) == 0;
        }
        if (same) {
            *out = i;
            return 0;
        }
    }
    memcpy(tc->digest[s->image_count], digest, 32);
    s->images[s->image_count] = im;
    *out = s->image_count++;
    return 0;
}

static int texture_of(anim_fbx_scene *s, uint32_t to, tex_ctx *tc, uint32_t *out,
                      anim_error *err)
{
    uint32_t *tex_of = tc->tex_of;
    if (tex_of[to] != ANIM_NONE) {
        *out = tex_of[to];
        return 0;
    }
    uint32_t image = ANIM_NONE;
    if (image_of(s, &s->objs->objects[to], tc, &image, err) != 0)
        return -1;
    anim_fbx_texture *t = &s->textures[s->texture_count];
    t->name = s->objs->objects[to].name;
    t->image = image;
    tex_of[to] = s->texture_count;
    *out = s->texture_count++;
    return 0;
}

static int material_textures(anim_fbx_scene *s, const anim_fbx_object *mo, anim_fbx_material *m,
                             tex_ctx *tc, anim_error *err)
{
    uint32_t metal = ANIM_NONE, rough = ANIM_NONE;
    for (uint32_t k = 0; k < mo->dst_conn_count; k++) {
        const char *prop = NULL;
        uint32_t to = anim_fbx_conn_child(s->objs, mo, k, "Texture", &prop);
        if (to == ANIM_FBX_SCENE_ROOT)
            continue;
        int slot = prop ? slot_of_property(prop) : -1;
        const anim_fbx_object *t = &s->objs->objects[to];
        /* Bump carries a height map as often as a normal map: only one
         * that says it is a normal map is taken as one. */
        if (prop && strcmp(prop, "Bump") == 0 &&
            (says_normal(t->name) || says_normal(child_str(t->node, "RelativeFilename")) ||
             says_normal(child_str(t->node, "FileName"))))
            slot = SLOT_NORMAL;
        if (slot < 0)
            continue;
        if (slot == SLOT_METAL || slot == SLOT_ROUGH) {
            uint32_t *dst = slot == SLOT_METAL ? &metal : &rough;
            if (*dst == ANIM_NONE)
                *dst = to;
            continue;
        }
        if (m->textures[slot] == ANIM_NONE &&
            texture_of(s, to, tc, &m->textures[slot], err) != 0)
            return -1;
    }
    if (metal != ANIM_NONE && metal == rough)
        return texture_of(s, metal, tc, &m->textures[SLOT_MR], err);
    if (metal != ANIM_NONE || rough != ANIM_NONE) {
        char buf[256];
        return anim_fbx_scene_note(s, err,
                                   "%s: separate metalness/roughness textures not combined "
                                   "(glTF needs one texture for both)",
                                   anim_fbx_object_label(mo, buf, sizeof buf));
    }
    return 0;
}

/* Counts of the material slots of every Mesh node, and which Material
 * objects are used. */
static uint32_t mark_used(anim_fbx_scene *s, uint32_t *mat_of)
{
    const anim_fbx_objects *objs = s->objs;
    uint32_t used = 0;
    for (uint32_t n = 1; n < s->node_count; n++) {
        if (s->nodes[n].object >= objs->object_count)
            continue;
        const anim_fbx_object *model = &objs->objects[s->nodes[n].object];
        for (uint32_t k = 0; k < model->dst_conn_count; k++) {
            const char *prop = NULL;
            uint32_t mo = anim_fbx_conn_child(objs, model, k, "Material", &prop);
            if (mo != ANIM_FBX_SCENE_ROOT && !prop && mat_of[mo] == ANIM_NONE)
                mat_of[mo] = 0, used++;
        }
    }
    return used;
}

static int node_slots(anim_fbx_scene *s, const uint32_t *mat_of, anim_error *err)
{
    const anim_fbx_objects *objs = s->objs;
    for (uint32_t n = 1; n < s->node_count; n++) {
        anim_fbx_node_rec *node = &s->nodes[n];
        node->materials = NULL, node->material_count = 0;
        if (node->object >= objs->object_count)
            continue;
        const anim_fbx_object *model = &objs->objects[node->object];
        uint32_t cap = model->dst_conn_count;
        node->materials = anim_arena_calloc(s->arena, cap ? cap : 1, sizeof(uint32_t));
        if (!node->materials)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for material slots");
        for (uint32_t k = 0; k < cap; k++) {
            const char *prop = NULL;
            uint32_t mo = anim_fbx_conn_child(objs, model, k, "Material", &prop);
            if (mo != ANIM_FBX_SCENE_ROOT && !prop)
                node->materials[node->material_count++] = mat_of[mo];
        }
    }
    return 0;
}

int anim_fbx_build_materials(anim_fbx_scene *s, anim_error *err)
{
    const anim_fbx_objects *objs = s->objs;
    size_t n = (size_t)objs->object_count + 1;
    uint32_t *mat_of = malloc(n * sizeof *mat_of), *tex_of = malloc(n * sizeof *tex_of);
    tex_ctx tc = {tex_of, malloc(n * sizeof *tc.digest)};
    int rc = -1;
    if (!mat_of || !tex_of || !tc.digest) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for materials");
        goto done;
    }
    memset(mat_of, 0xff, n * sizeof *mat_of);
    memset(tex_of, 0xff, n * sizeof *tex_of);
    uint32_t used = mark_used(s, mat_of);
    /* At most one texture and one image per Texture object. */
    uint32_t textures = 0;
    for (uint32_t o = 0; o < objs->object_count; o++)
        textures += strcmp(objs->objects[o].cls, "Texture") == 0;
    s->materials = anim_arena_calloc(s->arena, used ? used : 1, sizeof *s->materials);
    s->textures = anim_arena_calloc(s->arena, textures ? textures : 1, sizeof *s->textures);
    s->images = anim_arena_calloc(s->arena, textures ? textures : 1, sizeof *s->images);
    if (!s->materials || !s->textures || !s->images) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for %u materials", used);
        goto done;
    }
    s->material_count = s->texture_count = s->image_count = 0;
    for (uint32_t o = 0; o < objs->object_count; o++) {
        if (mat_of[o] == ANIM_NONE)
            continue;
        anim_fbx_material *m = &s->materials[s->material_count];
        mat_of[o] = s->material_count++;
        if (material_terms(s, &objs->objects[o], m, err) != 0 ||
            material_textures(s, &objs->objects[o], m, &tc, err) != 0)
            goto done;
    }
    rc = node_slots(s, mat_of, err);
done:
    free(mat_of), free(tex_of), free(tc.digest);
    return rc;
}
