/* A static prop in binary FBX 7.4: two meshes placed by rotated and
 * non-uniformly scaled helpers, the case `convert
 * --bake-static-mesh-transforms` exists for, and two named materials for
 * the material texture recipe tests (docs/fixtures.md).
 *
 *   Helper  Null, translated, rotated 90 degrees about Y, scaled (2, 1, 1)
 *     Crate Mesh, its own translation; material "surface"
 *   Trim    Mesh at the root, with a GeometricTranslation; material "trim",
 *           whose DiffuseColor carries an embedded 2x2 PNG
 *
 * One empty stack (as exporters write a "Take 001" for a scene without
 * animation): nothing animates. Every number is a fixed recipe, and the
 * PNG is encoded here (stored rows through the writer's own deflate), so
 * the file does not depend on the machine's image or zlib libraries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/base64.h"
#include "animsmith/strbuf.h"
#include "fbx_scene.h"
#include "fixtures.h"

static const double ZERO3[3] = {0, 0, 0};
static const double ONE3[3] = {1, 1, 1};

/* A box of half-extents h around the origin: 8 points, 6 quads with
 * their normals per polygon vertex and one UV square per face (corner
 * bit k picks +h[k]). */
typedef struct box {
    double points[24];
    int32_t pvi[24];
    double normals[72];
    int32_t uv_index[24];
} box;

static const double BOX_UV[8] = {0, 0, 1, 0, 1, 1, 0, 1};

static void build_box(box *b, const double h[3])
{
    static const int FACES[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                    {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    static const double N[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int v = 0; v < 8; v++)
        for (int k = 0; k < 3; k++)
            b->points[v * 3 + k] = (v >> k & 1) ? h[k] : -h[k];
    for (int f = 0; f < 6; f++)
        for (int i = 0; i < 4; i++) {
            b->pvi[f * 4 + i] = i == 3 ? ~FACES[f][i] : FACES[f][i];
            memcpy(&b->normals[(f * 4 + i) * 3], N[f], sizeof N[f]);
            b->uv_index[f * 4 + i] = i;
        }
}

/* ---- a 2x2 PNG, byte for byte ---- */

static uint32_t crc32_png(const uint8_t *p, size_t n, uint32_t crc)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (UINT32_C(0xedb88320) & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void put_be32(anim_strbuf *sb, uint32_t v)
{
    for (int s = 24; s >= 0; s -= 8)
        anim_strbuf_putc(sb, (char)(v >> s & 0xff));
}

static void png_chunk(anim_strbuf *sb, const char type[4], const uint8_t *data, size_t n)
{
    put_be32(sb, (uint32_t)n);
    size_t at = sb->len;
    anim_strbuf_append(sb, type, 4);
    if (n)
        anim_strbuf_append(sb, data, n);
    put_be32(sb, crc32_png((const uint8_t *)sb->data + at, n + 4, 0));
}

/* RGB8, 2x2: a red/white/white/blue checker. */
static void encode_png(anim_strbuf *sb)
{
    static const uint8_t IHDR[13] = {0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0};
    static const uint8_t ROWS[14] = {0, 200, 40, 40, 255, 255, 255,
                                     0, 255, 255, 255, 40, 40, 200};
    size_t zlen = 0;
    uint8_t *z = fbxw_zlib(ROWS, sizeof ROWS, &zlen);
    anim_strbuf_append(sb, "\x89PNG\r\n\x1a\n", 8);
    png_chunk(sb, "IHDR", IHDR, sizeof IHDR);
    png_chunk(sb, "IDAT", z, zlen);
    png_chunk(sb, "IEND", NULL, 0);
    free(z);
}

/* The writer keeps string pointers until the file is written: the base64
 * text lives here. The writer has no raw ('R') property, so the binary
 * Content holds the base64 text, as ASCII files do; the reader takes
 * either. */
static char png_base64[256];

static const char *trim_png_base64(void)
{
    anim_strbuf png = ANIM_STRBUF_INIT, text = ANIM_STRBUF_INIT;
    encode_png(&png);
    anim_base64_append(&text, png.data, png.len);
    size_t n = text.len < sizeof png_base64 ? text.len : sizeof png_base64 - 1;
    memcpy(png_base64, text.data, n);
    png_base64[n] = '\0';
    anim_strbuf_free(&png);
    anim_strbuf_free(&text);
    return png_base64;
}

/* A Texture with its Video (embedded content), OP-connected to the
 * material's property. Texture and Video are outside the helpers' object
 * classes: their records and Definitions entries are written here. */
static void embedded_texture(fx_scene *s, const char *name, const char *file, int64_t material,
                             const char *property)
{
    int64_t tex = s->next_id, video = s->next_id + 17;
    s->next_id += 34;
    fbxw_node *v = fbxw_block(fbxw_child(s->objects, "Video"));
    fbxw_s(fbxw_objname(fbxw_l(v, video), "Video", name), "Clip");
    fbxw_child_s(v, "Type", "Clip");
    fbxw_s(fbxw_p(fbxw_child(v, "Properties70"), "Path", "KString", "XRefUrl", ""), file);
    fbxw_child_i(v, "UseMipMap", 0);
    fbxw_child_s(v, "Filename", file);
    fbxw_child_s(v, "RelativeFilename", file);
    fbxw_child_s(v, "Content", trim_png_base64());

    fbxw_node *t = fbxw_block(fbxw_child(s->objects, "Texture"));
    fbxw_s(fbxw_objname(fbxw_l(t, tex), "Texture", name), "");
    fbxw_child_s(t, "Type", "TextureVideoClip");
    fbxw_child_i(t, "Version", 202);
    fbxw_objname(fbxw_child(t, "TextureName"), "Texture", name);
    fx_p_int(fbxw_child(t, "Properties70"), "UseMaterial", "bool", 1);
    fbxw_objname(fbxw_child(t, "Media"), "Video", name);
    fbxw_child_s(t, "FileName", file);
    fbxw_child_s(t, "RelativeFilename", file);
    fbxw_d(fbxw_d(fbxw_child(t, "ModelUVTranslation"), 0), 0);
    fbxw_d(fbxw_d(fbxw_child(t, "ModelUVScaling"), 1), 1);
    fbxw_child_s(t, "Texture_Alpha_Source", "None");

    fx_oo(s, video, tex);
    fx_op(s, tex, material, property);
}

static void texture_definitions(fx_scene *s)
{
    fbxw_child_i(fbxw_s(fbxw_child(s->defs, "ObjectType"), "Texture"), "Count", 1);
    fbxw_child_i(fbxw_s(fbxw_child(s->defs, "ObjectType"), "Video"), "Count", 1);
}

void fg_fbx_static_prop(fbxw_doc *d, uint32_t version)
{
    /* Y up, metres (100 cm per unit), 30 fps. */
    static const fx_axes AXES = {1, 1, 2, 1, 0, 1, 100.0, 6, 0};
    fx_scene s;
    fx_begin(&s, d, version, &AXES, "Take 001");

    static const double TH[3] = {1, 0, 0}, RH[3] = {0, 90, 0}, SH[3] = {2, 1, 1};
    fx_model helper = fx_model_add(&s, "Helper", "Null", 0, TH, RH, SH, 1);
    static const double TC[3] = {0.5, 0.25, -1};
    fx_model crate = fx_model_add(&s, "Crate", "Mesh", helper.id, TC, ZERO3, ONE3, 1);
    static const double HC[3] = {0.25, 0.25, 0.25};
    box cb;
    build_box(&cb, HC);
    fx_mesh cm = {cb.points, 8, cb.pvi, 24, cb.normals, BOX_UV, 4, cb.uv_index, NULL, 6};
    fx_geometry(&s, "Crate", &cm, crate.id);
    fx_material(&s, "surface", false, 0.6, 0.45, 0.3, crate.id);

    static const double TT[3] = {-1.5, 0, 0.5};
    fx_model trim = fx_model_add(&s, "Trim", "Mesh", 0, TT, ZERO3, ONE3, 1);
    fx_p_vec3(trim.props, "GeometricTranslation", "Vector3D", "Vector", "", 0, 0.05, 0);
    static const double HT[3] = {0.5, 0.05, 0.1};
    box tb;
    build_box(&tb, HT);
    fx_mesh tm = {tb.points, 8, tb.pvi, 24, tb.normals, BOX_UV, 4, tb.uv_index, NULL, 6};
    fx_geometry(&s, "Trim", &tm, trim.id);
    int64_t mat = fx_material(&s, "trim", true, 0.9, 0.9, 0.85, trim.id);
    embedded_texture(&s, "trim_diffuse", "trim.png", mat, "DiffuseColor");

    /* The empty take: a stack and its layer, no curve. */
    int64_t stack = fx_stack(&s, "Take 001", 0, FX_KTIME_S);
    fx_layer(&s, "BaseLayer", stack, 0);
    fx_take(&s, "Take 001", "Take_001.tak", 0, FX_KTIME_S);
    fx_finish(&s);
    texture_definitions(&s);
}

const fg_fbx_asset fg_fbx_static_assets[] = {
    {"fbx-static-prop.fbx", fg_fbx_static_prop, {7400, false, 128, NULL}},
};
const size_t fg_fbx_static_asset_count =
    sizeof fg_fbx_static_assets / sizeof fg_fbx_static_assets[0];
