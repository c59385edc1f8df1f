/* The deterministic PNG encoder (texture_png_write.c), shared by the
 * texture recipe's resized images and the model compiler's textures:
 * equal pixels give equal bytes. */
#ifndef ANIMSMITH_CONVERT_PNG_ENCODE_H
#define ANIMSMITH_CONVERT_PNG_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "animsmith/error.h"

/* Encodes 8-bit RGBA as PNG: compression level 9, no filtering, no
 * ancillary chunks. *png is malloc'ed. */
int anim_texture_png_encode(const uint8_t *rgba, uint32_t w, uint32_t h, uint8_t **png,
                            size_t *len, anim_error *err);

#endif
