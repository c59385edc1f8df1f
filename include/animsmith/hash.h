/* SHA-256 of input bytes: the identity a JSON report records for the exact
 * primary file it describes. */
#ifndef ANIMSMITH_HASH_H
#define ANIMSMITH_HASH_H

#include <stddef.h>
#include <stdint.h>

void anim_sha256(const void *data, size_t len, uint8_t out[32]);
/* Lowercase hex, NUL-terminated (65 bytes). */
void anim_sha256_hex(const void *data, size_t len, char out[65]);
/* The digest of a file's bytes, read in pieces; -1 when it cannot be read
 * or holds more than max_bytes. *bytes gets its size. */
int anim_sha256_file_hex(const char *path, uint64_t max_bytes, char out[65], uint64_t *bytes);

#endif
