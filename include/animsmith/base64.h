/* Base64 (RFC 4648, standard alphabet, padded): the report embeds its
 * binary streams this way. */
#ifndef ANIMSMITH_BASE64_H
#define ANIMSMITH_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The encoded length of n bytes; false when it overflows size_t. */
bool anim_base64_encoded_len(size_t n, size_t *out);

/* Appends the encoding of data[0..n) to out. */
void anim_base64_append(anim_strbuf *out, const void *data, size_t n);

/* Decodes text[0..len) into out (room for len / 4 * 3 bytes). Returns the
 * byte count, or -1 when the text is not padded base64 (length not a
 * multiple of four, a foreign character, padding inside). */
long long anim_base64_decode(const char *text, size_t len, uint8_t *out);

/* The same with the trailing padding optional (glTF data URIs): text with
 * its '=' removed is decoded as its length allows (a length of 1 mod 4
 * cannot be). */
long long anim_base64_decode_unpadded(const char *text, size_t len, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
