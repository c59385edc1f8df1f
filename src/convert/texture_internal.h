/* The stages behind the texture recipe, one file each: path rules
 * (texture_recipe_paths.c), image probing and
 * decoding (texture_recipe_image.c), role-aware resampling
 * (texture_resize.c) and the deterministic PNG encoder
 * (texture_png_write.c, declared in png_encode.h because the model
 * compiler writes its textures with it too). Declared here for
 * texture_recipe_*.c and the unit tests. */
#ifndef ANIMSMITH_CONVERT_TEXTURE_INTERNAL_H
#define ANIMSMITH_CONVERT_TEXTURE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "convert/png_encode.h"
#include "convert/texture_recipe.h"

/* ---- paths (texture_recipe_paths.c) ---------------------------------- */

/* Why a declared path spelling is refused ("is empty", "is absolute",
 * ...), or NULL when it is acceptable. */
const char *anim_texture_path_spelling_problem(const char *p, size_t len);

/* Canonical path of base + "/" + rel (realpath), arena copy; NULL with
 * errno set when it does not resolve. */
char *anim_texture_path_resolve(anim_arena *arena, const char *base, const char *rel);

/* True when inner is outer or lies below it on a component boundary. */
bool anim_texture_path_within(const char *outer, const char *inner);

/* Resolves every declared path of r (parsed from the recipe at
 * r->path): texture_root first, then each image, checking spelling was
 * already done by the parser. Fails naming the key. */
int anim_texture_recipe_resolve(anim_texture_recipe *r, anim_arena *arena, anim_error *err);

/* "bad recipe PATH: line L column C: " + the formatted text, as an
 * operator error of the given code. */
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
int anim_texture_recipe_fail(anim_error *err, anim_error_code code, const char *recipe,
                             uint32_t line, uint32_t column, const char *fmt, ...);

/* ---- images (texture_recipe_image.c) --------------------------------- */

typedef struct {
    const char *mime; /* "image/png" or "image/jpeg" */
    uint32_t width, height;
} anim_texture_info;

/* Type from magic bytes, dimensions from the header, without decoding.
 * Fails (what names the image) for anything but a PNG/JPEG whose header
 * declares dimensions within the decode bound. */
int anim_texture_probe(const uint8_t *bytes, size_t len, const char *what,
                       anim_texture_info *info, anim_error *err);

/* Decodes to 8-bit RGBA, row-major, malloc'ed (the caller frees *rgba).
 * info must come from anim_texture_probe on the same bytes. */
int anim_texture_decode(const uint8_t *bytes, size_t len, const anim_texture_info *info,
                        const char *what, uint8_t **rgba, anim_error *err);

/* "animsmith-texture@V", "libpng@V", "stb_image@V": what processes images. */
const char *anim_texture_processor_name(void);
void anim_texture_png_library(char *buf, size_t n);
const char *anim_texture_jpeg_library(void);

/* ---- resampling (texture_resize.c) ----------------------------------- */

typedef enum {
    ANIM_RESIZE_COLOR,  /* sRGB -> linear, premultiplied alpha, Lanczos3 */
    ANIM_RESIZE_NORMAL, /* tangent vectors, Triangle, renormalized, +Z fallback */
    ANIM_RESIZE_DATA    /* linear channels, Triangle */
} anim_resize_role;

anim_resize_role anim_texture_slot_role(int slot);

/* Output size for a w x h source under max_dim: the larger side becomes
 * max_dim, the other keeps the aspect ratio rounded to nearest, at least
 * 1. Sources already within max_dim keep their size. */
void anim_texture_fit_size(uint32_t w, uint32_t h, uint32_t max_dim, uint32_t *ow,
                           uint32_t *oh);

/* Resamples 8-bit RGBA src (sw x sh) into dst (dw x dh, caller-owned). */
int anim_texture_resize(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst,
                        uint32_t dw, uint32_t dh, anim_resize_role role, anim_error *err);

/* The exact sRGB transfer functions (IEC 61966-2-1), in [0, 1]. */
double anim_srgb_to_linear(double c);
double anim_linear_to_srgb(double l);

#endif
