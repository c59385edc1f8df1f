/* BLAKE3 (the default hash mode, with extendable output), written from the
 * published BLAKE3 paper. OpenSSL has no BLAKE3, and the one place we
 * need it is reproducing an identity another program derives with it (Bevy's
 * animation target ids), so the digest must be the standard one: the unit
 * test checks it against the official test vectors.
 *
 * Incremental: init, any number of updates, then finalize into any number of
 * output bytes. No SIMD, no threads: the inputs here are short name paths. */
#ifndef ANIMSMITH_GENERATE_BLAKE3_H
#define ANIMSMITH_GENERATE_BLAKE3_H

#include <stddef.h>
#include <stdint.h>

#define ANIM_BLAKE3_OUT_LEN 32u
#define ANIM_BLAKE3_BLOCK_LEN 64u
#define ANIM_BLAKE3_CHUNK_LEN 1024u
/* Enough chaining values for 2^54 chunks: every input a size_t can hold. */
#define ANIM_BLAKE3_MAX_DEPTH 54u

typedef struct anim_blake3_chunk {
    uint32_t cv[8];
    uint64_t counter;             /* this chunk's index in the input */
    uint8_t block[ANIM_BLAKE3_BLOCK_LEN];
    uint8_t block_len;            /* bytes buffered in block */
    uint8_t blocks_compressed;    /* full blocks of this chunk already absorbed */
} anim_blake3_chunk;

typedef struct anim_blake3 {
    uint32_t key[8];              /* the IV in the default hash mode */
    anim_blake3_chunk chunk;      /* the chunk being filled */
    /* Chaining values of completed subtrees, one per set bit of the number
     * of completed chunks (the largest subtree first). */
    uint32_t stack[ANIM_BLAKE3_MAX_DEPTH][8];
    uint8_t stack_len;
} anim_blake3;

void anim_blake3_init(anim_blake3 *h);
void anim_blake3_update(anim_blake3 *h, const void *data, size_t len);
/* Writes out_len bytes of output (the first 32 are the digest). The hasher
 * is left unchanged: it may be finalized again or updated further. */
void anim_blake3_finalize(const anim_blake3 *h, uint8_t *out, size_t out_len);

/* One-shot digest of len bytes. */
void anim_blake3_hash(const void *data, size_t len, uint8_t out[ANIM_BLAKE3_OUT_LEN]);

#endif
