/* Strict UTF-8 (RFC 3629) decoding: the one validator behind the JSON
 * writer's escapes and the terminal-safe text escapes. */
#ifndef ANIMSMITH_UTF8_H
#define ANIMSMITH_UTF8_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Length of the valid UTF-8 sequence at s (1 for ASCII, 2 to 4), storing
 * its code point in *cp (cp may be NULL); 0 when the bytes at s are not one
 * (overlong, surrogate, above U+10FFFF, truncated). len >= 1. */
size_t anim_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);

#ifdef __cplusplus
}
#endif

#endif
