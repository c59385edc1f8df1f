/* SHA-256 of input bytes: the identity a JSON report records for the exact
 * primary file it describes. */
#ifndef ANIMSMITH_HASH_H
#define ANIMSMITH_HASH_H

#include <stddef.h>
#include <stdint.h>

void anim_sha256(const void *data, size_t len, uint8_t out[32]);
/* Lowercase hex, NUL-terminated (65 bytes). */
void anim_sha256_hex(const void *data, size_t len, char out[65]);

#endif
