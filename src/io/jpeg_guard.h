/* A guard in front of stb_image for JPEG bytes from a file. Debian's
 * stb_image 2.27 sums a DHT segment's 16 code-length counts without a
 * bound and writes that many entries into 257-entry tables: a crafted
 * JPEG overwrites the decoder's heap memory, in stbi_info as much as in a
 * full decode. Every reader that hands JPEG bytes to stb asks this first. */
#ifndef ANIMSMITH_IO_JPEG_GUARD_H
#define ANIMSMITH_IO_JPEG_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Real files have a few Huffman table markers; more than this are refused
 * too, which bounds the scan. */
#define ANIM_JPEG_MAX_DHT_MARKERS 4096

typedef enum {
    ANIM_JPEG_SAFE = 0,
    ANIM_JPEG_TOO_MANY_TABLES,   /* more than ANIM_JPEG_MAX_DHT_MARKERS */
    ANIM_JPEG_OVERLONG_TABLE     /* a table declaring more than 256 codes */
} anim_jpeg_guard_result;

/* Checks every FF C4 pair in b the way stb would read a table there
 * (bytes past the end read as 0, as stb's do). *at receives the offset of
 * the offending marker. */
anim_jpeg_guard_result anim_jpeg_guard(const uint8_t *b, size_t n, size_t *at);

#endif
