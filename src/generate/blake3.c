/* BLAKE3 as the published BLAKE3 paper defines it (sections 2.1 to 2.6):
 * a 7-round compression function over 64-byte blocks, 1 KiB chunks hashed
 * from the key with a chunk counter, chunks combined pairwise into a binary
 * tree whose left subtrees are complete powers of two, and the root node
 * compressed again with an output counter for extendable output. */
#include "generate/blake3.h"

#include <string.h>

enum {
    FLAG_CHUNK_START = 1u << 0,
    FLAG_CHUNK_END = 1u << 1,
    FLAG_PARENT = 1u << 2,
    FLAG_ROOT = 1u << 3
};

/* The initialization vector: SHA-256's, as the paper fixes it. */
static const uint32_t IV[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                               0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};

/* The message word permutation applied between rounds. */
static const uint8_t PERMUTATION[16] = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* The quarter-round mixing function G on state words a, b, c, d. */
static void mix(uint32_t s[16], int a, int b, int c, int d, uint32_t x, uint32_t y)
{
    s[a] = s[a] + s[b] + x;
    s[d] = rotr(s[d] ^ s[a], 16);
    s[c] = s[c] + s[d];
    s[b] = rotr(s[b] ^ s[c], 12);
    s[a] = s[a] + s[b] + y;
    s[d] = rotr(s[d] ^ s[a], 8);
    s[c] = s[c] + s[d];
    s[b] = rotr(s[b] ^ s[c], 7);
}

/* The full 16-word compression output (the first 8 words are the new
 * chaining value; all 16 are root output bytes). */
static void compress(const uint32_t cv[8], const uint32_t block[16], uint64_t counter,
                     uint32_t block_len, uint32_t flags, uint32_t out[16])
{
    uint32_t s[16] = {cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7],
                      IV[0], IV[1], IV[2], IV[3], (uint32_t)counter, (uint32_t)(counter >> 32),
                      block_len, flags};
    uint32_t m[16];
    memcpy(m, block, sizeof m);
    for (int round = 0; round < 7; round++) {
        /* Columns, then diagonals. */
        mix(s, 0, 4, 8, 12, m[0], m[1]);
        mix(s, 1, 5, 9, 13, m[2], m[3]);
        mix(s, 2, 6, 10, 14, m[4], m[5]);
        mix(s, 3, 7, 11, 15, m[6], m[7]);
        mix(s, 0, 5, 10, 15, m[8], m[9]);
        mix(s, 1, 6, 11, 12, m[10], m[11]);
        mix(s, 2, 7, 8, 13, m[12], m[13]);
        mix(s, 3, 4, 9, 14, m[14], m[15]);
        if (round < 6) {
            uint32_t p[16];
            for (int i = 0; i < 16; i++)
                p[i] = m[PERMUTATION[i]];
            memcpy(m, p, sizeof m);
        }
    }
    for (int i = 0; i < 8; i++) {
        out[i] = s[i] ^ s[i + 8];
        out[i + 8] = s[i + 8] ^ cv[i];
    }
}

static void block_words(const uint8_t bytes[ANIM_BLAKE3_BLOCK_LEN], uint32_t words[16])
{
    for (int i = 0; i < 16; i++)
        words[i] = load32(bytes + 4 * i);
}

/* What a node's final compression needs: its input chaining value, block,
 * counter, length and flags. The chaining value and the root output are
 * both computed from it. */
typedef struct {
    uint32_t cv[8];
    uint32_t block[16];
    uint64_t counter;
    uint32_t block_len;
    uint32_t flags;
} node_output;

static void output_cv(const node_output *o, uint32_t cv[8])
{
    uint32_t w[16];
    compress(o->cv, o->block, o->counter, o->block_len, o->flags, w);
    memcpy(cv, w, 8 * sizeof *cv);
}

static void parent_output(const uint32_t left[8], const uint32_t right[8], const uint32_t key[8],
                          node_output *o)
{
    memcpy(o->cv, key, sizeof o->cv);
    memcpy(o->block, left, 8 * sizeof *left);
    memcpy(o->block + 8, right, 8 * sizeof *right);
    o->counter = 0; /* parent nodes always use counter 0 */
    o->block_len = ANIM_BLAKE3_BLOCK_LEN;
    o->flags = FLAG_PARENT;
}

static void chunk_reset(anim_blake3_chunk *c, const uint32_t key[8], uint64_t counter)
{
    memcpy(c->cv, key, sizeof c->cv);
    c->counter = counter;
    memset(c->block, 0, sizeof c->block);
    c->block_len = 0;
    c->blocks_compressed = 0;
}

static size_t chunk_len(const anim_blake3_chunk *c)
{
    return (size_t)c->blocks_compressed * ANIM_BLAKE3_BLOCK_LEN + c->block_len;
}

static uint32_t chunk_start_flag(const anim_blake3_chunk *c)
{
    return c->blocks_compressed == 0 ? FLAG_CHUNK_START : 0;
}

/* Absorbs bytes into the chunk (at most what it still holds). A full block
 * is compressed only once more input arrives, because the chunk's last
 * block must carry CHUNK_END. */
static void chunk_update(anim_blake3_chunk *c, const uint8_t *in, size_t len)
{
    while (len > 0) {
        if (c->block_len == ANIM_BLAKE3_BLOCK_LEN) {
            uint32_t w[16], out[16];
            block_words(c->block, w);
            compress(c->cv, w, c->counter, ANIM_BLAKE3_BLOCK_LEN, chunk_start_flag(c), out);
            memcpy(c->cv, out, sizeof c->cv);
            c->blocks_compressed++;
            memset(c->block, 0, sizeof c->block);
            c->block_len = 0;
        }
        size_t take = ANIM_BLAKE3_BLOCK_LEN - c->block_len;
        if (take > len)
            take = len;
        memcpy(c->block + c->block_len, in, take);
        c->block_len = (uint8_t)(c->block_len + take);
        in += take;
        len -= take;
    }
}

static void chunk_output(const anim_blake3_chunk *c, node_output *o)
{
    memcpy(o->cv, c->cv, sizeof o->cv);
    block_words(c->block, o->block); /* zero-padded past block_len */
    o->counter = c->counter;
    o->block_len = c->block_len;
    o->flags = chunk_start_flag(c) | FLAG_CHUNK_END;
}

/* Adds a completed chunk's chaining value. total_chunks counts the chunks
 * completed so far, this one included: each trailing zero bit of it closes
 * one complete subtree, merged with the stack's top. */
static void push_chunk_cv(anim_blake3 *h, uint32_t cv[8], uint64_t total_chunks)
{
    while ((total_chunks & 1) == 0) {
        node_output o;
        parent_output(h->stack[h->stack_len - 1], cv, h->key, &o);
        output_cv(&o, cv);
        h->stack_len--;
        total_chunks >>= 1;
    }
    memcpy(h->stack[h->stack_len], cv, 8 * sizeof *cv);
    h->stack_len++;
}

void anim_blake3_init(anim_blake3 *h)
{
    memcpy(h->key, IV, sizeof h->key);
    chunk_reset(&h->chunk, h->key, 0);
    h->stack_len = 0;
}

void anim_blake3_update(anim_blake3 *h, const void *data, size_t len)
{
    const uint8_t *in = data;
    while (len > 0) {
        /* A full chunk is closed only when more input follows: the last
         * chunk may be the root. */
        if (chunk_len(&h->chunk) == ANIM_BLAKE3_CHUNK_LEN) {
            node_output o;
            uint32_t cv[8];
            chunk_output(&h->chunk, &o);
            output_cv(&o, cv);
            uint64_t total = h->chunk.counter + 1;
            push_chunk_cv(h, cv, total);
            chunk_reset(&h->chunk, h->key, total);
        }
        size_t take = ANIM_BLAKE3_CHUNK_LEN - chunk_len(&h->chunk);
        if (take > len)
            take = len;
        chunk_update(&h->chunk, in, take);
        in += take;
        len -= take;
    }
}

void anim_blake3_finalize(const anim_blake3 *h, uint8_t *out, size_t out_len)
{
    node_output o;
    chunk_output(&h->chunk, &o);
    /* Fold the pending subtrees in from the smallest (the stack's top). */
    for (size_t i = h->stack_len; i-- > 0;) {
        uint32_t cv[8];
        output_cv(&o, cv);
        parent_output(h->stack[i], cv, h->key, &o);
    }
    /* The root node compressed once per 64 output bytes, counting blocks. */
    for (uint64_t block = 0; out_len > 0; block++) {
        uint32_t w[16];
        uint8_t bytes[ANIM_BLAKE3_BLOCK_LEN];
        compress(o.cv, o.block, block, o.block_len, o.flags | FLAG_ROOT, w);
        for (int i = 0; i < 16; i++)
            store32(bytes + 4 * i, w[i]);
        size_t take = out_len < sizeof bytes ? out_len : sizeof bytes;
        memcpy(out, bytes, take);
        out += take;
        out_len -= take;
    }
}

void anim_blake3_hash(const void *data, size_t len, uint8_t out[ANIM_BLAKE3_OUT_LEN])
{
    anim_blake3 h;
    anim_blake3_init(&h);
    anim_blake3_update(&h, data, len);
    anim_blake3_finalize(&h, out, ANIM_BLAKE3_OUT_LEN);
}
