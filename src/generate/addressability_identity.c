/* The neutral inventory's identity: SHA-256 over a domain-separated,
 * canonical encoding of the neutral fields only (docs/addressability.md
 * spells it out). Tool metadata, the input path as typed and any engine
 * section are outside it, so selecting a profile never changes it.
 *
 * Encoding: the domain tag and a NUL, then every field in document order
 * as u64 = 8 bytes big-endian, str = u64 length + bytes, opt = one byte 0
 * (absent) or 1 followed by the value. Streamed into the digest: the
 * inventory can be large and is never copied. */
#include <openssl/evp.h>

#include <string.h>

#include "generate/addressability.h"

#define IDENTITY_DOMAIN "animsmith:gltf-animation-addressability:1:inventory"

typedef struct {
    EVP_MD_CTX *ctx;
    bool ok;
} enc;

static void put(enc *e, const void *p, size_t n)
{
    if (e->ok && n && !EVP_DigestUpdate(e->ctx, p, n))
        e->ok = false;
}

static void put_u64(enc *e, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (56 - 8 * i));
    put(e, b, sizeof b);
}

static void put_str(enc *e, const char *s, size_t n)
{
    put_u64(e, n);
    put(e, s, n);
}

static void put_cstr(enc *e, const char *s)
{
    put_str(e, s, strlen(s));
}

static void put_flag(enc *e, bool present)
{
    uint8_t b = present ? 1 : 0;
    put(e, &b, 1);
}

static void put_opt_text(enc *e, addr_text t)
{
    put_flag(e, t.s != NULL);
    if (t.s)
        put_str(e, t.s, t.len);
}

static void put_opt_cstr(enc *e, const char *s)
{
    put_flag(e, s != NULL);
    if (s)
        put_cstr(e, s);
}

static void put_opt_index(enc *e, uint32_t v)
{
    put_flag(e, v != ANIM_NONE);
    if (v != ANIM_NONE)
        put_u64(e, v);
}

static void put_closure(enc *e, const addr_closure *c)
{
    put_cstr(e, addr_coverage_name(c->state));
    put_u64(e, c->count);
    for (uint32_t i = 0; i < c->count; i++) {
        const addr_closure_file *f = &c->files[i];
        put_cstr(e, f->role);
        put_opt_cstr(e, f->uri);
        put_flag(e, f->readable);
        if (f->readable) {
            put_cstr(e, f->sha256);
            put_u64(e, f->bytes);
        }
    }
}

int addr_inventory_identity(addr_inventory *inv, anim_error *err)
{
    enc e = {EVP_MD_CTX_new(), true};
    e.ok = e.ctx && EVP_DigestInit_ex(e.ctx, EVP_sha256(), NULL);
    put(&e, IDENTITY_DOMAIN, sizeof IDENTITY_DOMAIN); /* with its NUL */
    put_u64(&e, inv->bytes);
    put_cstr(&e, inv->sha256);
    put_closure(&e, &inv->closure);
    put_cstr(&e, addr_coverage_name(inv->coverage));
    put_opt_cstr(&e, inv->coverage_reason);
    put_u64(&e, inv->source_animation_count);
    put_u64(&e, inv->animation_count);
    for (uint32_t a = 0; a < inv->animation_count; a++) {
        const addr_animation *an = &inv->animations[a];
        put_u64(&e, an->index);
        put_opt_text(&e, an->name);
        put_u64(&e, an->channel_count);
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const addr_channel *ch = &an->channels[c];
            put_u64(&e, ch->index);
            put_opt_index(&e, ch->sampler);
            put_opt_index(&e, ch->node);
            put_opt_text(&e, ch->path);
            put_opt_index(&e, ch->input_accessor);
            put_opt_index(&e, ch->output_accessor);
            put_opt_text(&e, ch->interpolation);
        }
    }
    uint8_t d[32];
    unsigned int n = 32;
    if (e.ok && !EVP_DigestFinal_ex(e.ctx, d, &n))
        e.ok = false;
    EVP_MD_CTX_free(e.ctx);
    if (!e.ok)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while hashing the inventory");
    static const char hex[] = "0123456789abcdef";
    memcpy(inv->identity, "sha256:", 7);
    for (int i = 0; i < 32; i++) {
        inv->identity[7 + 2 * i] = hex[d[i] >> 4];
        inv->identity[8 + 2 * i] = hex[d[i] & 15];
    }
    inv->identity[71] = '\0';
    return 0;
}
