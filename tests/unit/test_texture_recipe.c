#define _XOPEN_SOURCE 700 /* mkdtemp, symlink */
/* Material texture recipes: the strict schema and its one-line errors,
 * path spelling and containment (symlinks included), magic-based image
 * types, the decode bound checked on the header, output sizes, the
 * role-aware resampler, deterministic PNG output, evidence order, and the
 * asset refusals that separate exit 1 from exit 2. Every recipe and image
 * is written into a fresh temporary directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "animsmith/json_write.h"
#include "animsmith/strbuf.h"
#include "convert/texture_internal.h"
#include "convert/texture_recipe.h"

/* ---- fixtures -------------------------------------------------------- */

static char dir[256];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/animsmith-texrecipe-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static const char *at(const char *rel)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, rel);
    return buf[k];
}

static void put(const char *rel, const void *data, size_t n)
{
    FILE *f = fopen(at(rel), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void put_text(const char *rel, const char *text)
{
    put(rel, text, strlen(text));
}

static void mkdir_at(const char *rel)
{
    assert_int_equal(mkdir(at(rel), 0755), 0);
}

/* A w x h RGBA image filled with one texel, written as PNG. */
static void put_png(const char *rel, uint32_t w, uint32_t h, const uint8_t texel[4])
{
    uint8_t *px = malloc((size_t)w * h * 4);
    for (size_t i = 0; i < (size_t)w * h; i++)
        memcpy(px + 4 * i, texel, 4);
    uint8_t *png = NULL;
    size_t n = 0;
    anim_error err;
    assert_int_equal(anim_texture_png_encode(px, w, h, &png, &n, &err), 0);
    put(rel, png, n);
    free(png);
    free(px);
}

/* A 5x4 baseline JPEG (quality 50), kept as bytes so the test needs no
 * JPEG encoder. */
static const uint8_t jpeg_5x4[] = {
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00, 0xff, 0xdb, 0x00, 0x84, 0x00, 0x10, 0x0b, 0x0c, 0x0e, 0x0c, 0x0a, 0x10,
    0x0e, 0x0d, 0x0e, 0x12, 0x11, 0x10, 0x13, 0x18, 0x28, 0x1a, 0x18, 0x16, 0x16, 0x18, 0x31, 0x23,
    0x25, 0x1d, 0x28, 0x3a, 0x33, 0x3d, 0x3c, 0x39, 0x33, 0x38, 0x37, 0x40, 0x48, 0x5c, 0x4e, 0x40,
    0x44, 0x57, 0x45, 0x37, 0x38, 0x50, 0x6d, 0x51, 0x57, 0x5f, 0x62, 0x67, 0x68, 0x67, 0x3e, 0x4d,
    0x71, 0x79, 0x70, 0x64, 0x78, 0x5c, 0x65, 0x67, 0x63, 0x01, 0x11, 0x12, 0x12, 0x18, 0x15, 0x18,
    0x2f, 0x1a, 0x1a, 0x2f, 0x63, 0x42, 0x38, 0x42, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00,
    0x04, 0x00, 0x05, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xc4, 0x01,
    0xa2, 0x00, 0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x10, 0x00,
    0x02, 0x01, 0x03, 0x03, 0x02, 0x04, 0x03, 0x05, 0x05, 0x04, 0x04, 0x00, 0x00, 0x01, 0x7d, 0x01,
    0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22,
    0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24,
    0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29,
    0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a,
    0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a,
    0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a,
    0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
    0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6,
    0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3,
    0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9,
    0xfa, 0x01, 0x00, 0x03, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x11, 0x00,
    0x02, 0x01, 0x02, 0x04, 0x04, 0x03, 0x04, 0x07, 0x05, 0x04, 0x04, 0x00, 0x01, 0x02, 0x77, 0x00,
    0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13,
    0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15,
    0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26, 0x27,
    0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
    0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
    0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
    0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6,
    0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4,
    0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe2,
    0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9,
    0xfa, 0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3f, 0x00, 0x86,
    0xca, 0x34, 0x9a, 0x32, 0xf1, 0xa4, 0x70, 0x29, 0xc7, 0xc9, 0x1c, 0x48, 0x40, 0xff, 0x00, 0xbe,
    0x81, 0x3f, 0xad, 0x59, 0xfb, 0x37, 0xfd, 0x35, 0xff, 0x00, 0xc8, 0x31, 0x7f, 0xf1, 0x35, 0x0e,
    0x95, 0xff, 0x00, 0x1e, 0xd5, 0x76, 0xa8, 0x93, 0xff, 0xd9
};

static void put_jpeg(const char *rel)
{
    put(rel, jpeg_5x4, sizeof jpeg_5x4);
}

static const uint8_t grey[4] = {128, 128, 128, 255};

#define HEAD                                                                              \
    "schema_version = 1\nschema = \"urn:animsmith:schema:material-texture-recipe:1\"\n"

/* Loads recipe text written to recipe.toml; returns the rc, err filled. */
static int load_text(const char *text, anim_arena *arena, anim_texture_recipe **r,
                     anim_error *err)
{
    put_text("recipe.toml", text);
    return anim_texture_recipe_load(at("recipe.toml"), arena, r, err);
}

static void expect_load_error(const char *text, const char *needle)
{
    anim_arena *arena = anim_arena_new();
    anim_texture_recipe *r = NULL;
    anim_error err = {0};
    int rc = load_text(text, arena, &r, &err);
    if (rc == 0 || !strstr(err.message, needle) || !strstr(err.message, "recipe.toml") ||
        strchr(err.message, '\n'))
        fail_msg("expected an error containing \"%s\", got rc %d: %s", needle, rc, err.message);
    assert_null(r);
    anim_arena_free(arena);
}

/* ---- schema ---------------------------------------------------------- */

static void test_parse_errors(void **state)
{
    (void)state;
    put_png("a.png", 2, 2, grey);
    expect_load_error("schema_version = 1\nschema = ", "line 2");
    expect_load_error(HEAD "max_dimension = 8\nextra = 1\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"a.png\"\nnormal = \"a.png\"\n",
                      "unknown key \"extra\" in the top level");
    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"a.png\"\nnormal = \"a.png\"\nemissive = \"a.png\"\n",
                      "line 8 column 1: unknown key \"emissive\" in materials[0]");
    expect_load_error(HEAD "[[materials]]\nname = \"m\"\nbase_color = \"a.png\"\nnormal = \"a.png\"\n",
                      "missing required key \"max_dimension\"");
    expect_load_error(HEAD "max_dimension = 0\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"a.png\"\nnormal = \"a.png\"\n",
                      "max_dimension 0 is outside 1..4096");
    expect_load_error(HEAD "max_dimension = 4097\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"a.png\"\nnormal = \"a.png\"\n",
                      "max_dimension 4097 is outside 1..4096");
    expect_load_error(HEAD "max_dimension = 8.0\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"a.png\"\nnormal = \"a.png\"\n",
                      "max_dimension must be an integer, found float");
    expect_load_error("schema_version = 2\nschema = \"urn:animsmith:schema:material-texture-recipe:1\"\n"
                      "max_dimension = 8\n",
                      "schema_version 2 is not supported");
    expect_load_error("schema_version = 1\nschema = \"urn:x\"\nmax_dimension = 8\n",
                      "schema must be");
    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\nbase_color = \"a.png\"\n",
                      "materials[0] is missing required key \"normal\"");
    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"a.png\"\nnormal = 3\n",
                      "materials[0].normal must be a string, found integer");
    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"a.png\"\nnormal = \"a.png\"\n"
                           "[[materials]]\nname = \"n\"\nbase_color = \"a.png\"\nnormal = \"a.png\"\n"
                           "[[materials]]\nname = \"m\"\nbase_color = \"a.png\"\nnormal = \"a.png\"\n",
                      "line 12 column 1: materials[2].name \"m\" repeats materials[0]");
    expect_load_error(HEAD "max_dimension = 8\nmaterials = []\n", "at least one material");
    expect_load_error(HEAD "max_dimension = 8\n", "missing required key \"materials\"");

    anim_arena *arena = anim_arena_new();
    anim_texture_recipe *r = NULL;
    anim_error err = {0};
    assert_int_equal(anim_texture_recipe_load(at("none.toml"), arena, &r, &err), -1);
    assert_non_null(strstr(err.message, "cannot read recipe "));
    assert_non_null(strstr(err.message, "none.toml: No such file or directory"));
    assert_int_equal(anim_texture_recipe_load(dir, arena, &r, &err), -1);
    assert_non_null(strstr(err.message, "not a regular file"));
    anim_arena_free(arena);
}

static void test_path_spellings(void **state)
{
    (void)state;
    put_png("a.png", 2, 2, grey);
    static const struct {
        const char *spelling, *why;
    } bad[] = {
        {"", "materials[0].normal \"\" is empty"},
        {"/etc/passwd", "is absolute"},
        {"C:/tex/a.png", "has a drive prefix"},
        {"c:a.png", "has a drive prefix"},
        {"sub\\\\a.png", "contains a backslash"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\nbase_color = \"a.png\"\n"
                      "normal = \"%s\"\n",
                 bad[i].spelling);
        expect_load_error(text, bad[i].why);
    }
    expect_load_error(HEAD "texture_root = \"\"\nmax_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"a.png\"\nnormal = \"a.png\"\n",
                      "texture_root \"\" is empty");
}

/* ---- containment ----------------------------------------------------- */

static void test_containment(void **state)
{
    (void)state;
    mkdir_at("tex");
    mkdir_at("tex/sub");
    mkdir_at("outside");
    put_png("tex/in.png", 2, 2, grey);
    put_png("outside/out.png", 2, 2, grey);
    assert_int_equal(symlink("../outside/out.png", at("tex/escape.png")), 0);
    assert_int_equal(symlink("../outside", at("tex/dirlink")), 0);
    assert_int_equal(symlink("in.png", at("tex/alias.png")), 0);

    /* Inside the root, through "..", and through a symlink that stays. */
    anim_arena *arena = anim_arena_new();
    anim_texture_recipe *r = NULL;
    anim_error err = {0};
    assert_int_equal(load_text(HEAD "texture_root = \"tex\"\nmax_dimension = 8\n[[materials]]\n"
                                    "name = \"m\"\nbase_color = \"sub/../in.png\"\n"
                                    "normal = \"alias.png\"\n",
                               arena, &r, &err),
                     0);
    assert_non_null(r);
    assert_string_equal(r->texture_root, "tex");
    assert_string_equal(r->entries[0].declared[ANIM_TEXTURE_SLOT_BASE_COLOR], "sub/../in.png");
    assert_string_equal(r->entries[0].resolved[ANIM_TEXTURE_SLOT_BASE_COLOR],
                        r->entries[0].resolved[ANIM_TEXTURE_SLOT_NORMAL]);
    anim_arena_free(arena);

    expect_load_error(HEAD "texture_root = \"tex\"\nmax_dimension = 8\n[[materials]]\n"
                           "name = \"m\"\nbase_color = \"in.png\"\nnormal = \"escape.png\"\n",
                      "materials[0].normal \"escape.png\" resolves outside texture_root \"tex\"");
    expect_load_error(HEAD "texture_root = \"tex\"\nmax_dimension = 8\n[[materials]]\n"
                           "name = \"m\"\nbase_color = \"dirlink/out.png\"\nnormal = \"in.png\"\n",
                      "materials[0].base_color \"dirlink/out.png\" resolves outside");
    expect_load_error(HEAD "texture_root = \"tex\"\nmax_dimension = 8\n[[materials]]\n"
                           "name = \"m\"\nbase_color = \"../outside/out.png\"\nnormal = \"in.png\"\n",
                      "resolves outside texture_root");
    expect_load_error(HEAD "texture_root = \"tex\"\nmax_dimension = 8\n[[materials]]\n"
                           "name = \"m\"\nbase_color = \"in.png\"\nnormal = \"nope.png\"\n",
                      "line 8 column 10: materials[0].normal \"nope.png\" does not exist");
    expect_load_error(HEAD "texture_root = \"tex\"\nmax_dimension = 8\n[[materials]]\n"
                           "name = \"m\"\nbase_color = \"in.png\"\nnormal = \"sub\"\n",
                      "materials[0].normal \"sub\" is not a regular file");
    expect_load_error(HEAD "texture_root = \"missing\"\nmax_dimension = 8\n[[materials]]\n"
                           "name = \"m\"\nbase_color = \"in.png\"\nnormal = \"in.png\"\n",
                      "texture_root \"missing\" does not exist");
    expect_load_error(HEAD "texture_root = \"tex/in.png\"\nmax_dimension = 8\n[[materials]]\n"
                           "name = \"m\"\nbase_color = \"in.png\"\nnormal = \"in.png\"\n",
                      "is not a directory");

    /* Without a root, recipe-relative paths may climb with "..". */
    arena = anim_arena_new();
    mkdir_at("recipes");
    put_text("recipes/r.toml", HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                                    "base_color = \"../outside/out.png\"\n"
                                    "normal = \"../tex/escape.png\"\n");
    assert_int_equal(anim_texture_recipe_load(at("recipes/r.toml"), arena, &r, &err), 0);
    assert_null(r->texture_root);
    assert_null(r->root_real);
    anim_arena_free(arena);
}

/* ---- images ---------------------------------------------------------- */

static void test_magic_not_extension(void **state)
{
    (void)state;
    put_png("png-named.jpg", 3, 2, grey);
    put_jpeg("jpeg-named.png");
    put_text("text.png", "not an image at all");
    put("webp.png", "RIFF\0\0\0\0WEBPVP8 ", 16);
    anim_arena *arena = anim_arena_new();
    anim_texture_recipe *r = NULL;
    anim_error err = {0};
    assert_int_equal(load_text(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                                    "base_color = \"png-named.jpg\"\nnormal = \"jpeg-named.png\"\n",
                               arena, &r, &err),
                     0);
    const char *names[] = {"m"};
    anim_texture_recipe_image *imgs = NULL;
    uint32_t n = 0;
    bool refusal = true;
    assert_int_equal(anim_texture_recipe_apply(r, names, 1, arena, &imgs, &n, &err, &refusal), 0);
    assert_int_equal(n, 2);
    assert_string_equal(imgs[0].src_mime, "image/png");
    assert_string_equal(imgs[0].mime, "image/png");
    assert_int_equal(imgs[0].src_width, 3);
    assert_string_equal(imgs[1].src_mime, "image/jpeg");
    assert_int_equal(imgs[1].width, 5);
    assert_int_equal(imgs[1].height, 4);
    assert_false(imgs[1].resized);
    anim_arena_free(arena);

    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"text.png\"\nnormal = \"png-named.jpg\"\n",
                      "materials[0].base_color \"text.png\" is not a PNG or JPEG file");
    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"webp.png\"\nnormal = \"png-named.jpg\"\n",
                      "is image/webp; only PNG and JPEG are accepted");
}

/* A Huffman table declaring more codes than a JPEG table holds is refused
 * before the JPEG decoder sees it (it would write past its tables). */
static void test_jpeg_huffman_guard(void **state)
{
    (void)state;
    uint8_t b[sizeof jpeg_5x4];
    memcpy(b, jpeg_5x4, sizeof b);
    size_t i = 2;
    while (i + 1 < sizeof b && !(b[i] == 0xFF && b[i + 1] == 0xC4))
        i++;
    assert_true(i + 21 < sizeof b);
    memset(b + i + 5, 0xFF, 16); /* the 16 code-length counts: 4080 codes */
    anim_texture_info info;
    anim_error err = {0};
    assert_int_equal(anim_texture_probe(jpeg_5x4, sizeof jpeg_5x4, "ok", &info, &err), 0);
    assert_int_equal(anim_texture_probe(b, sizeof b, "bad.jpg", &info, &err), -1);
    assert_non_null(strstr(err.message, "bad.jpg: corrupt JPEG: a Huffman table at byte"));
    uint8_t *px = NULL;
    info.mime = "image/jpeg";
    info.width = 5;
    info.height = 4;
    assert_int_equal(anim_texture_decode(b, sizeof b, &info, "bad.jpg", &px, &err), -1);
    assert_null(px);
}

/* A PNG signature and IHDR declaring w x h, then garbage instead of data. */
static void put_header_only_png(const char *rel, uint32_t w, uint32_t h)
{
    uint8_t b[64] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    for (int i = 0; i < 4; i++) {
        b[16 + i] = (uint8_t)(w >> (24 - 8 * i));
        b[20 + i] = (uint8_t)(h >> (24 - 8 * i));
    }
    b[24] = 8;
    b[25] = 6;
    memset(b + 33, 0x5a, sizeof b - 33);
    put(rel, b, sizeof b);
}

static void test_dimensions_checked_before_decode(void **state)
{
    (void)state;
    put_png("ok.png", 2, 2, grey);
    /* Beyond the decode bound: refused from the header alone. */
    put_header_only_png("huge.png", 16385, 4);
    put_header_only_png("many.png", 8192, 4096);
    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"huge.png\"\nnormal = \"ok.png\"\n",
                      "is 16385x4, beyond the decode limit");
    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"many.png\"\nnormal = \"ok.png\"\n",
                      "is 8192x4096, beyond the decode limit");

    /* Within max_dimension the bytes pass through undecoded, garbage and
     * all; above it the same file must decode, and fails as an operator
     * error, not an asset refusal. */
    put_header_only_png("corrupt.png", 300, 200);
    const char *names[] = {"m"};
    anim_arena *arena = anim_arena_new();
    anim_texture_recipe *r = NULL;
    anim_error err = {0};
    anim_texture_recipe_image *imgs = NULL;
    uint32_t n = 0;
    bool refusal = true;
    assert_int_equal(load_text(HEAD "max_dimension = 300\n[[materials]]\nname = \"m\"\n"
                                    "base_color = \"corrupt.png\"\nnormal = \"ok.png\"\n",
                               arena, &r, &err),
                     0);
    assert_int_equal(anim_texture_recipe_apply(r, names, 1, arena, &imgs, &n, &err, &refusal), 0);
    assert_false(imgs[0].resized);
    assert_int_equal(imgs[0].byte_count, 64);
    anim_arena_free(arena);

    arena = anim_arena_new();
    assert_int_equal(load_text(HEAD "max_dimension = 299\n[[materials]]\nname = \"m\"\n"
                                    "base_color = \"corrupt.png\"\nnormal = \"ok.png\"\n",
                               arena, &r, &err),
                     0);
    assert_int_equal(anim_texture_recipe_apply(r, names, 1, arena, &imgs, &n, &err, &refusal),
                     -1);
    assert_false(refusal);
    assert_non_null(strstr(err.message, "materials[0].base_color \"corrupt.png\": cannot decode PNG"));
    anim_arena_free(arena);
}

static void test_file_size_cap(void **state)
{
    (void)state;
    put_png("ok.png", 2, 2, grey);
    FILE *f = fopen(at("big.png"), "wb");
    assert_non_null(f);
    assert_int_equal(fseek(f, (long)ANIM_TEXTURE_MAX_FILE_BYTES, SEEK_SET), 0);
    assert_int_equal(fputc(0, f), 0);
    assert_int_equal(fclose(f), 0);
    expect_load_error(HEAD "max_dimension = 8\n[[materials]]\nname = \"m\"\n"
                           "base_color = \"big.png\"\nnormal = \"ok.png\"\n",
                      "materials[0].base_color \"big.png\" is 67108865 bytes, more than the 67108864-byte (64 MiB) limit");
}

/* ---- resampling ------------------------------------------------------ */

static void test_fit_size(void **state)
{
    (void)state;
    uint32_t w, h;
    anim_texture_fit_size(2048, 1024, 1024, &w, &h);
    assert_int_equal(w, 1024);
    assert_int_equal(h, 512);
    anim_texture_fit_size(1000, 3, 10, &w, &h);
    assert_int_equal(w, 10);
    assert_int_equal(h, 1); /* 0.03 rounds to 0, kept at 1 */
    anim_texture_fit_size(3, 1000, 10, &w, &h);
    assert_int_equal(w, 1);
    assert_int_equal(h, 10);
    anim_texture_fit_size(100, 15, 10, &w, &h);
    assert_int_equal(w, 10);
    assert_int_equal(h, 2); /* 1.5 rounds half up */
    anim_texture_fit_size(100, 14, 10, &w, &h);
    assert_int_equal(h, 1); /* 1.4 rounds down */
    anim_texture_fit_size(640, 480, 1024, &w, &h);
    assert_int_equal(w, 640);
    assert_int_equal(h, 480);
}

static uint8_t srgb_byte(double l)
{
    return (uint8_t)floor(anim_linear_to_srgb(l) * 255.0 + 0.5);
}

static void test_srgb_round_trip(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++)
        assert_int_equal(srgb_byte(anim_srgb_to_linear(c / 255.0)), c);
    /* The exact curve, not a 2.2 power: its linear toe and its knee. */
    assert_true(fabs(anim_srgb_to_linear(0.04045) - 0.04045 / 12.92) < 1e-15);
    assert_true(fabs(anim_srgb_to_linear(0.5) - 0.21404114048223255) < 1e-12);
    assert_true(fabs(anim_linear_to_srgb(0.0031308) - 0.0031308 * 12.92) < 1e-15);
}

static void test_color_resize(void **state)
{
    (void)state;
    /* Flat colour stays exactly flat through Lanczos3. */
    enum { SW = 37, SH = 23, DW = 11, DH = 7 };
    uint8_t src[SW * SH * 4], dst[DW * DH * 4];
    for (int i = 0; i < SW * SH; i++)
        memcpy(src + 4 * i, (uint8_t[4]){200, 30, 99, 255}, 4);
    anim_error err;
    assert_int_equal(anim_texture_resize(src, SW, SH, dst, DW, DH, ANIM_RESIZE_COLOR, &err), 0);
    for (int i = 0; i < DW * DH; i++) {
        assert_int_equal(dst[4 * i], 200);
        assert_int_equal(dst[4 * i + 1], 30);
        assert_int_equal(dst[4 * i + 2], 99);
        assert_int_equal(dst[4 * i + 3], 255);
    }
    /* Black and white halve to linear 0.5 (sRGB 188), not sRGB 128. */
    uint8_t bw[2 * 4] = {0, 0, 0, 255, 255, 255, 255, 255}, one[4];
    assert_int_equal(anim_texture_resize(bw, 2, 1, one, 1, 1, ANIM_RESIZE_COLOR, &err), 0);
    assert_int_equal(one[0], srgb_byte(0.5));
    assert_int_equal(one[0], 188);
    /* Premultiplied: an invisible red texel lends no colour to blue. */
    uint8_t rb[2 * 4] = {255, 0, 0, 0, 0, 0, 255, 255};
    assert_int_equal(anim_texture_resize(rb, 2, 1, one, 1, 1, ANIM_RESIZE_COLOR, &err), 0);
    assert_int_equal(one[0], 0);
    assert_int_equal(one[2], 255);
    assert_int_equal(one[3], 128);
}

/* Lanczos3 rings at a step edge (its negative lobes undershoot the dark
 * side); Triangle, used for data maps, never leaves the plateaus. */
static void test_colour_kernel_is_lanczos(void **state)
{
    (void)state;
    enum { SW = 24, DW = 16 };
    uint8_t src[SW * 4], dst[DW * 4];
    for (int x = 0; x < SW; x++) {
        uint8_t v = x < SW / 2 ? 60 : 200;
        memcpy(src + 4 * x, (uint8_t[4]){v, v, v, 255}, 4);
    }
    anim_error err;
    assert_int_equal(anim_texture_resize(src, SW, 1, dst, DW, 1, ANIM_RESIZE_COLOR, &err), 0);
    int lo = 255, hi = 0;
    for (int x = 0; x < DW; x++) {
        lo = dst[4 * x] < lo ? dst[4 * x] : lo;
        hi = dst[4 * x] > hi ? dst[4 * x] : hi;
    }
    assert_true(lo < 58);
    assert_true(hi > 200);
    assert_int_equal(anim_texture_resize(src, SW, 1, dst, DW, 1, ANIM_RESIZE_DATA, &err), 0);
    assert_int_equal(anim_texture_slot_role(ANIM_TEXTURE_SLOT_BASE_COLOR), ANIM_RESIZE_COLOR);
    assert_int_equal(anim_texture_slot_role(ANIM_TEXTURE_SLOT_NORMAL), ANIM_RESIZE_NORMAL);
    assert_int_equal(anim_texture_slot_role(ANIM_TEXTURE_SLOT_METALLIC_ROUGHNESS), ANIM_RESIZE_DATA);
    assert_int_equal(anim_texture_slot_role(ANIM_TEXTURE_SLOT_OCCLUSION), ANIM_RESIZE_DATA);
    for (int x = 0; x < DW; x++)
        assert_true(dst[4 * x] >= 60 && dst[4 * x] <= 200);
}

static void test_normal_renormalized(void **state)
{
    (void)state;
    anim_error err;
    uint8_t out[4];
    /* +X and +Z average to a short vector; renormalized to 45 degrees. */
    uint8_t xz[2 * 4] = {255, 128, 128, 255, 128, 128, 255, 255};
    assert_int_equal(anim_texture_resize(xz, 2, 1, out, 1, 1, ANIM_RESIZE_NORMAL, &err), 0);
    double v[3];
    for (int c = 0; c < 3; c++)
        v[c] = out[c] / 255.0 * 2.0 - 1.0;
    assert_true(fabs(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) - 1.0) < 0.01);
    assert_true(fabs(v[0] - v[2]) < 0.01);
    assert_true(out[0] >= 216 && out[0] <= 219);
    /* Opposite vectors cancel: the flat +Z normal. */
    uint8_t opp[2 * 4] = {255, 255, 255, 255, 0, 0, 0, 255};
    assert_int_equal(anim_texture_resize(opp, 2, 1, out, 1, 1, ANIM_RESIZE_NORMAL, &err), 0);
    assert_int_equal(out[0], 128);
    assert_int_equal(out[1], 128);
    assert_int_equal(out[2], 255);
    /* Data maps average linearly: 0 and 255 give 128 (not sRGB 188). */
    uint8_t data[2 * 4] = {0, 0, 0, 0, 255, 255, 255, 255};
    assert_int_equal(anim_texture_resize(data, 2, 1, out, 1, 1, ANIM_RESIZE_DATA, &err), 0);
    assert_int_equal(out[1], 128);
    assert_int_equal(out[3], 128);
}

/* ---- encoding -------------------------------------------------------- */

static void test_png_deterministic(void **state)
{
    (void)state;
    enum { W = 19, H = 7 };
    uint8_t px[W * H * 4];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(i * 31 + 7);
    uint8_t *a = NULL, *b = NULL, *back = NULL;
    size_t na = 0, nb = 0;
    anim_error err;
    assert_int_equal(anim_texture_png_encode(px, W, H, &a, &na, &err), 0);
    assert_int_equal(anim_texture_png_encode(px, W, H, &b, &nb, &err), 0);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    /* Only IHDR, IDAT and IEND: no time or text to vary. */
    size_t off = 8;
    int idx = 0;
    uint8_t idat[W * H * 4 + 64];
    size_t idat_n = 0;
    while (off + 8 <= na) {
        uint32_t len = (uint32_t)a[off] << 24 | (uint32_t)a[off + 1] << 16 |
                       (uint32_t)a[off + 2] << 8 | a[off + 3];
        const char *type = (const char *)a + off + 4;
        if (idx == 0)
            assert_memory_equal(type, "IHDR", 4);
        else
            assert_true(memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0);
        if (memcmp(type, "IDAT", 4) == 0) {
            assert_true(idat_n + len <= sizeof idat);
            memcpy(idat + idat_n, a + off + 8, len);
            idat_n += len;
        }
        off += 12 + len;
        idx++;
    }
    assert_int_equal(off, na);
    /* Every row is stored with filter type 0 (None). */
    uint8_t raw[H * (1 + W * 4)];
    uLongf raw_n = sizeof raw;
    assert_int_equal(uncompress(raw, &raw_n, idat, idat_n), Z_OK);
    assert_int_equal(raw_n, sizeof raw);
    for (int y = 0; y < H; y++)
        assert_int_equal(raw[(size_t)y * (1 + W * 4)], 0);
    /* IHDR: 8-bit RGBA, no interlace; filter NONE on every row is seen
     * by decoding to the same pixels. */
    assert_int_equal(a[24], 8);
    assert_int_equal(a[25], 6);
    assert_int_equal(a[28], 0);
    anim_texture_info info;
    assert_int_equal(anim_texture_probe(a, na, "x", &info, &err), 0);
    assert_int_equal(info.width, W);
    assert_int_equal(anim_texture_decode(a, na, &info, "x", &back, &err), 0);
    assert_memory_equal(back, px, sizeof px);
    free(a);
    free(b);
    free(back);
}

/* ---- apply and evidence ---------------------------------------------- */

static char *evidence(const anim_texture_recipe *r, const anim_texture_recipe_image *imgs,
                      uint32_t n)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, true);
    anim_texture_recipe_evidence_json(r, imgs, n, &w);
    assert_true(anim_json_writer_ok(&w));
    return sb.data;
}

static void test_evidence_order(void **state)
{
    (void)state;
    mkdir_at("t");
    put_png("t/a-base.png", 40, 20, grey);
    put_png("t/a-normal.png", 4, 4, (uint8_t[4]){128, 128, 255, 255});
    put_png("t/b-base.png", 4, 4, grey);
    put_jpeg("t/b-normal.jpg");
    put_png("t/b-orm.png", 4, 4, grey);
    const char *a_entry = "[[materials]]\nname = \"alpha\"\nnormal = \"a-normal.png\"\n"
                          "base_color = \"a-base.png\"\n";
    const char *b_entry = "[[materials]]\nname = \"beta\"\nocclusion = \"b-orm.png\"\n"
                          "metallic_roughness = \"b-orm.png\"\nbase_color = \"b-base.png\"\n"
                          "normal = \"b-normal.jpg\"\n";
    char t1[1024], t2[1024];
    snprintf(t1, sizeof t1, HEAD "texture_root = \"t\"\nmax_dimension = 10\n%s%s", a_entry,
             b_entry);
    snprintf(t2, sizeof t2, HEAD "max_dimension = 10\ntexture_root = \"t\"\n%s%s", b_entry,
             a_entry);
    /* Source order: beta first, then alpha. */
    const char *names[] = {"beta", "alpha"};
    char *json[2];
    for (int k = 0; k < 2; k++) {
        anim_arena *arena = anim_arena_new();
        anim_texture_recipe *r = NULL;
        anim_error err = {0};
        assert_int_equal(load_text(k ? t2 : t1, arena, &r, &err), 0);
        anim_texture_recipe_image *imgs = NULL;
        uint32_t n = 0;
        bool refusal = true;
        assert_int_equal(anim_texture_recipe_apply(r, names, 2, arena, &imgs, &n, &err, &refusal),
                         0);
        assert_int_equal(n, 6);
        static const int slots[6] = {0, 1, 2, 3, 0, 1};
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(imgs[i].material_index, i < 4 ? 0 : 1);
            assert_int_equal(imgs[i].slot, slots[i]);
        }
        assert_true(imgs[4].resized);
        assert_int_equal(imgs[4].width, 10);
        assert_int_equal(imgs[4].height, 5);
        assert_string_equal(imgs[4].mime, "image/png");
        /* The resized bytes are a decodable 10x5 PNG of the same grey. */
        anim_texture_info info;
        uint8_t *px = NULL;
        assert_int_equal(anim_texture_probe(imgs[4].bytes, imgs[4].byte_count, "x", &info, &err),
                         0);
        assert_int_equal(anim_texture_decode(imgs[4].bytes, imgs[4].byte_count, &info, "x", &px,
                                             &err),
                         0);
        assert_memory_equal(px, grey, 4);
        free(px);
        assert_false(imgs[1].resized);
        assert_string_equal(imgs[1].mime, "image/jpeg");
        json[k] = evidence(r, imgs, n);
        anim_arena_free(arena);
    }
    /* Declaration order changes nothing but the recipe's own bytes. */
    assert_string_equal(json[0], json[1]);
    const char *keys[] = {"\"schema_version\": 1", "\"schema\": \"urn:animsmith:schema:material-texture-recipe:1\"",
                          "\"path\": ", "\"texture_root\": \"t\"", "\"max_dimension\": 10",
                          "\"processor\"", "\"image_crate\": \"animsmith-texture@",
                          "\"png_crate\": \"libpng@", "\"jpeg_crate\": \"stb_image@",
                          "\"base_color_algorithm\": \"sRGB-to-linear premultiplied-alpha Lanczos3\"",
                          "\"normal_algorithm\"", "\"data_algorithm\"",
                          "\"output_encoding\": \"PNG RGBA8 compression=Best filter=NoFilter\"",
                          "\"consumed_inputs\"", "\"material_name\": \"beta\"",
                          "\"emitted_textures\"", "\"declared_path\": \"a-base.png\"",
                          "\"dimensions\": [\n        10,\n        5\n      ]",
                          "\"resized\": true", "\"emitted_bytes\": "};
    const char *p = json[0];
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *q = strstr(p, keys[i]);
        if (!q)
            fail_msg("evidence lacks %s after offset %td:\n%s", keys[i], p - json[0], json[0]);
        p = q;
    }
    free(json[0]);
    free(json[1]);
}

static void expect_refusal(const char *const *names, uint32_t n, const char *needle)
{
    anim_arena *arena = anim_arena_new();
    anim_texture_recipe *r = NULL;
    anim_error err = {0};
    assert_int_equal(load_text(HEAD "max_dimension = 8\n[[materials]]\nname = \"surface\"\n"
                                    "base_color = \"ok.png\"\nnormal = \"ok.png\"\n"
                                    "[[materials]]\nname = \"Trim\"\n"
                                    "base_color = \"ok.png\"\nnormal = \"ok.png\"\n",
                               arena, &r, &err),
                     0);
    anim_texture_recipe_image *imgs = NULL;
    uint32_t count = 0;
    bool refusal = false;
    assert_int_equal(anim_texture_recipe_apply(r, names, n, arena, &imgs, &count, &err, &refusal),
                     -1);
    assert_true(refusal);
    if (!strstr(err.message, needle))
        fail_msg("expected \"%s\" in: %s", needle, err.message);
    assert_null(imgs);
    anim_arena_free(arena);
}

static void test_asset_refusals(void **state)
{
    (void)state;
    put_png("ok.png", 2, 2, grey);
    const char *case_differs[] = {"surface", "trim"};
    expect_refusal(case_differs, 2, "materials[1].name \"Trim\" matches no source material");
    const char *extra[] = {"Trim", "surface", "glass"};
    expect_refusal(extra, 3, "source material 2 \"glass\" is missing from the recipe");
    const char *unnamed[] = {"Trim", NULL, "surface"};
    expect_refusal(unnamed, 3, "source material 1 has no name");
    const char *twice[] = {"surface", "Trim", "surface"};
    expect_refusal(twice, 3,
                   "materials[0].name \"surface\" is ambiguous: source materials 0 and 2");
    expect_refusal(NULL, 0, "matches no source material");

    /* The exact fit succeeds, in source order. */
    anim_arena *arena = anim_arena_new();
    anim_texture_recipe *r = NULL;
    anim_error err = {0};
    assert_int_equal(load_text(HEAD "max_dimension = 8\n[[materials]]\nname = \"surface\"\n"
                                    "base_color = \"ok.png\"\nnormal = \"ok.png\"\n",
                               arena, &r, &err),
                     0);
    const char *one[] = {"surface"};
    anim_texture_recipe_image *imgs = NULL;
    uint32_t count = 0;
    bool refusal = true;
    assert_int_equal(anim_texture_recipe_apply(r, one, 1, arena, &imgs, &count, &err, &refusal), 0);
    assert_false(refusal);
    assert_int_equal(count, 2);
    assert_string_equal(imgs[0].material_name, "surface");
    assert_string_equal(imgs[1].declared_path, "ok.png");
    anim_arena_free(arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_parse_errors, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_path_spellings, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_containment, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_magic_not_extension, make_dir, remove_dir),
        cmocka_unit_test(test_jpeg_huffman_guard),
        cmocka_unit_test_setup_teardown(test_dimensions_checked_before_decode, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_file_size_cap, make_dir, remove_dir),
        cmocka_unit_test(test_fit_size),
        cmocka_unit_test(test_srgb_round_trip),
        cmocka_unit_test(test_color_resize),
        cmocka_unit_test(test_colour_kernel_is_lanczos),
        cmocka_unit_test(test_normal_renormalized),
        cmocka_unit_test(test_png_deterministic),
        cmocka_unit_test_setup_teardown(test_evidence_order, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_asset_refusals, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
