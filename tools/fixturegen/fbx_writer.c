/* FBX record tree and its binary and ASCII encodings (fbx_writer.h). */
#include "fbx_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/atomic_write.h"
#include "animsmith/numfmt.h"
#include "animsmith/strbuf.h"

typedef struct fbxw_prop {
    char type;
    int64_t i;
    double f;
    const char *bin;    /* S: binary bytes (object names hold "\0\1") */
    size_t bin_len;
    const char *text;   /* S: the ASCII spelling */
    const void *array;  /* arrays: count elements of the type */
    uint32_t count;
    struct fbxw_prop *next;
} fbxw_prop;

struct fbxw_node {
    fbxw_doc *doc;
    const char *name;
    fbxw_prop *props, *last_prop;
    uint32_t prop_count;
    struct fbxw_node *kids, *last_kid, *next;
    bool block;
};

struct fbxw_doc {
    anim_arena *arena;
    fbxw_node root;
};

static void die_nomem(void)
{
    fputs("animsmith-fixturegen: out of memory\n", stderr);
    exit(1);
}

static void *alloc(fbxw_doc *d, size_t size)
{
    void *p = anim_arena_calloc(d->arena, 1, size);
    if (!p)
        die_nomem();
    return p;
}

fbxw_doc *fbxw_new(void)
{
    fbxw_doc *d = calloc(1, sizeof *d);
    if (!d || !(d->arena = anim_arena_new()))
        die_nomem();
    d->root.doc = d;
    d->root.name = "";
    return d;
}

void fbxw_free(fbxw_doc *d)
{
    if (!d)
        return;
    anim_arena_free(d->arena);
    free(d);
}

fbxw_node *fbxw_child(fbxw_node *parent, const char *name)
{
    fbxw_node *n = alloc(parent->doc, sizeof *n);
    n->doc = parent->doc;
    n->name = name;
    if (parent->last_kid)
        parent->last_kid->next = n;
    else
        parent->kids = n;
    parent->last_kid = n;
    return n;
}

fbxw_node *fbxw_top(fbxw_doc *d, const char *name)
{
    return fbxw_child(&d->root, name);
}

fbxw_node *fbxw_block(fbxw_node *n)
{
    n->block = true;
    return n;
}

static fbxw_prop *add_prop(fbxw_node *n, char type)
{
    fbxw_prop *p = alloc(n->doc, sizeof *p);
    p->type = type;
    if (n->last_prop)
        n->last_prop->next = p;
    else
        n->props = p;
    n->last_prop = p;
    n->prop_count++;
    return p;
}

fbxw_node *fbxw_c(fbxw_node *n, char v)
{
    add_prop(n, 'C')->i = (unsigned char)v;
    return n;
}

fbxw_node *fbxw_i(fbxw_node *n, int32_t v)
{
    add_prop(n, 'I')->i = v;
    return n;
}

fbxw_node *fbxw_l(fbxw_node *n, int64_t v)
{
    add_prop(n, 'L')->i = v;
    return n;
}

fbxw_node *fbxw_d(fbxw_node *n, double v)
{
    add_prop(n, 'D')->f = v;
    return n;
}

fbxw_node *fbxw_s(fbxw_node *n, const char *s)
{
    fbxw_prop *p = add_prop(n, 'S');
    p->bin = p->text = s;
    p->bin_len = strlen(s);
    return n;
}

fbxw_node *fbxw_objname(fbxw_node *n, const char *cls, const char *name)
{
    size_t nl = strlen(name), cl = strlen(cls);
    char *bin = alloc(n->doc, nl + cl + 3);
    memcpy(bin, name, nl);
    bin[nl] = '\0';
    bin[nl + 1] = '\1';
    memcpy(bin + nl + 2, cls, cl);
    fbxw_prop *p = add_prop(n, 'S');
    p->bin = bin;
    p->bin_len = nl + 2 + cl;
    p->text = anim_arena_printf(n->doc->arena, "%s::%s", cls, name);
    if (!p->text)
        die_nomem();
    return n;
}

static fbxw_node *add_array(fbxw_node *n, char type, const void *v, uint32_t count, size_t elem)
{
    fbxw_prop *p = add_prop(n, type);
    void *copy = alloc(n->doc, (size_t)count * elem + 1);
    if (count)
        memcpy(copy, v, (size_t)count * elem);
    p->array = copy;
    p->count = count;
    return n;
}

fbxw_node *fbxw_ad(fbxw_node *n, const double *v, uint32_t count)
{
    return add_array(n, 'd', v, count, sizeof *v);
}

fbxw_node *fbxw_af(fbxw_node *n, const float *v, uint32_t count)
{
    return add_array(n, 'f', v, count, sizeof *v);
}

fbxw_node *fbxw_ai(fbxw_node *n, const int32_t *v, uint32_t count)
{
    return add_array(n, 'i', v, count, sizeof *v);
}

fbxw_node *fbxw_al(fbxw_node *n, const int64_t *v, uint32_t count)
{
    return add_array(n, 'l', v, count, sizeof *v);
}

fbxw_node *fbxw_child_i(fbxw_node *parent, const char *name, int32_t v)
{
    return fbxw_i(fbxw_child(parent, name), v);
}

fbxw_node *fbxw_child_d(fbxw_node *parent, const char *name, double v)
{
    return fbxw_d(fbxw_child(parent, name), v);
}

fbxw_node *fbxw_child_s(fbxw_node *parent, const char *name, const char *s)
{
    return fbxw_s(fbxw_child(parent, name), s);
}

fbxw_node *fbxw_p(fbxw_node *props70, const char *name, const char *type, const char *label,
                  const char *flags)
{
    fbxw_node *p = fbxw_child(props70, "P");
    return fbxw_s(fbxw_s(fbxw_s(fbxw_s(p, name), type), label), flags);
}

static bool is_block(const fbxw_node *n)
{
    return n->block || n->kids || n->prop_count == 0;
}

/* ---- binary ---- */

static void put_le(anim_strbuf *sb, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        anim_strbuf_putc(sb, (char)(v >> (8 * i) & 0xff));
}

static void put_zeros(anim_strbuf *sb, size_t n)
{
    for (size_t i = 0; i < n; i++)
        anim_strbuf_putc(sb, 0);
}

static void patch_le(anim_strbuf *sb, size_t at, uint64_t v, int bytes)
{
    if (sb->failed)
        return;
    for (int i = 0; i < bytes; i++)
        sb->data[at + (size_t)i] = (char)(v >> (8 * i) & 0xff);
}

static size_t elem_size(char type)
{
    return type == 'd' || type == 'l' ? 8 : 4;
}

static void put_array(anim_strbuf *sb, const fbxw_prop *p, size_t compress_min)
{
    size_t raw = (size_t)p->count * elem_size(p->type);
    uint8_t *bytes = malloc(raw + 1);
    if (!bytes)
        die_nomem();
    /* Little-endian element bytes, independent of the host. */
    for (uint32_t k = 0; k < p->count; k++) {
        uint64_t bits = 0;
        size_t es = elem_size(p->type);
        if (p->type == 'd')
            memcpy(&bits, (const double *)p->array + k, 8);
        else if (p->type == 'l')
            memcpy(&bits, (const int64_t *)p->array + k, 8);
        else if (p->type == 'f')
            memcpy(&bits, (const float *)p->array + k, 4);
        else
            memcpy(&bits, (const int32_t *)p->array + k, 4);
        for (size_t b = 0; b < es; b++)
            bytes[k * es + b] = (uint8_t)(bits >> (8 * b));
    }
    put_le(sb, p->count, 4);
    if (compress_min && raw >= compress_min) {
        size_t zlen = 0;
        uint8_t *z = fbxw_zlib(bytes, raw, &zlen);
        put_le(sb, 1, 4);
        put_le(sb, zlen, 4);
        anim_strbuf_append(sb, z, zlen);
        free(z);
    } else {
        put_le(sb, 0, 4);
        put_le(sb, raw, 4);
        anim_strbuf_append(sb, bytes, raw);
    }
    free(bytes);
}

static void put_prop(anim_strbuf *sb, const fbxw_prop *p, size_t compress_min)
{
    anim_strbuf_putc(sb, p->type);
    switch (p->type) {
    case 'C':
        put_le(sb, (uint64_t)p->i, 1);
        break;
    case 'I':
        put_le(sb, (uint64_t)p->i, 4);
        break;
    case 'L':
        put_le(sb, (uint64_t)p->i, 8);
        break;
    case 'D': {
        uint64_t bits;
        memcpy(&bits, &p->f, 8);
        put_le(sb, bits, 8);
        break;
    }
    case 'S':
        put_le(sb, p->bin_len, 4);
        anim_strbuf_append(sb, p->bin, p->bin_len);
        break;
    default:
        put_array(sb, p, compress_min);
        break;
    }
}

static void put_node(anim_strbuf *sb, const fbxw_node *n, int width, size_t compress_min)
{
    size_t head = sb->len;
    put_le(sb, 0, width);              /* end offset, patched below */
    put_le(sb, n->prop_count, width);
    put_le(sb, 0, width);              /* property bytes, patched below */
    size_t name_len = strlen(n->name);
    anim_strbuf_putc(sb, (char)name_len);
    anim_strbuf_append(sb, n->name, name_len);
    size_t props_at = sb->len;
    for (const fbxw_prop *p = n->props; p; p = p->next)
        put_prop(sb, p, compress_min);
    patch_le(sb, head + 2 * (size_t)width, sb->len - props_at, width);
    for (const fbxw_node *k = n->kids; k; k = k->next)
        put_node(sb, k, width, compress_min);
    if (is_block(n))
        put_zeros(sb, 3 * (size_t)width + 1); /* end-of-children sentinel */
    patch_le(sb, head, sb->len, width);
}

/* Footer after the top-level sentinel: a fixed 16-byte id, zero padding
 * to a 16-byte boundary, the version again, 120 zeros and the closing
 * magic, as every binary FBX ends. */
static const uint8_t FOOTER_ID[16] = {0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66,
                                      0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e};
static const uint8_t FOOTER_MAGIC[16] = {0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e,
                                         0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b};

static void encode_binary(anim_strbuf *sb, const fbxw_doc *d, const fbxw_format *fmt)
{
    static const char MAGIC[] = "Kaydara FBX Binary  ";
    anim_strbuf_append(sb, MAGIC, sizeof MAGIC); /* with its NUL */
    anim_strbuf_putc(sb, 0x1a);
    anim_strbuf_putc(sb, 0x00);
    put_le(sb, fmt->version, 4);
    int width = fmt->version >= 7500 ? 8 : 4;
    for (const fbxw_node *k = d->root.kids; k; k = k->next)
        put_node(sb, k, width, fmt->compress_min_bytes);
    put_zeros(sb, 3 * (size_t)width + 1);
    anim_strbuf_append(sb, FOOTER_ID, sizeof FOOTER_ID);
    while (sb->len % 16)
        anim_strbuf_putc(sb, 0);
    put_le(sb, 0, 4);
    put_le(sb, fmt->version, 4);
    put_zeros(sb, 120);
    anim_strbuf_append(sb, FOOTER_MAGIC, sizeof FOOTER_MAGIC);
}

/* ---- deflate ---- */

typedef struct bitw {
    anim_strbuf *sb;
    uint32_t bits;
    int nbits;
} bitw;

static void put_bits(bitw *w, uint32_t v, int n)
{
    w->bits |= v << w->nbits;
    w->nbits += n;
    while (w->nbits >= 8) {
        anim_strbuf_putc(w->sb, (char)(w->bits & 0xff));
        w->bits >>= 8;
        w->nbits -= 8;
    }
}

/* Huffman codes go most significant bit first into the LSB-first stream. */
static void put_code(bitw *w, uint32_t code, int len)
{
    uint32_t rev = 0;
    for (int i = 0; i < len; i++)
        rev |= (code >> i & 1u) << (len - 1 - i);
    put_bits(w, rev, len);
}

/* The fixed literal/length code of RFC 1951 section 3.2.6. */
static void put_symbol(bitw *w, int sym)
{
    if (sym < 144)
        put_code(w, 0x30u + (uint32_t)sym, 8);
    else if (sym < 256)
        put_code(w, 0x190u + (uint32_t)(sym - 144), 9);
    else if (sym < 280)
        put_code(w, (uint32_t)(sym - 256), 7);
    else
        put_code(w, 0xc0u + (uint32_t)(sym - 280), 8);
}

static const uint16_t LEN_BASE[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t LEN_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t DIST_BASE[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                       33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t DIST_EXTRA[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static void put_match(bitw *w, size_t len, size_t dist)
{
    int l = 28;
    while (LEN_BASE[l] > len)
        l--;
    put_symbol(w, 257 + l);
    put_bits(w, (uint32_t)(len - LEN_BASE[l]), LEN_EXTRA[l]);
    int c = 29;
    while (DIST_BASE[c] > dist)
        c--;
    put_code(w, (uint32_t)c, 5);
    put_bits(w, (uint32_t)(dist - DIST_BASE[c]), DIST_EXTRA[c]);
}

#define WINDOW 32768u
#define HASH_SIZE 4096u
#define MAX_CHAIN 64

static uint32_t hash3(const uint8_t *p)
{
    return ((uint32_t)p[0] << 8 ^ (uint32_t)p[1] << 4 ^ p[2]) & (HASH_SIZE - 1);
}

/* One final block of fixed codes; greedy matching over hash chains. The
 * arrays are small and compress well enough without dynamic tables. */
uint8_t *fbxw_zlib(const uint8_t *data, size_t len, size_t *out_len)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_putc(&sb, 0x78);
    anim_strbuf_putc(&sb, (char)0x9c);
    bitw w = {&sb, 0, 0};
    put_bits(&w, 1, 1); /* BFINAL */
    put_bits(&w, 1, 2); /* BTYPE 01: fixed codes */
    int32_t *head = malloc(HASH_SIZE * sizeof *head);
    int32_t *prev = malloc((len + 1) * sizeof *prev);
    if (!head || !prev)
        die_nomem();
    for (uint32_t i = 0; i < HASH_SIZE; i++)
        head[i] = -1;
    size_t pos = 0;
    while (pos < len) {
        size_t best_len = 0, best_dist = 0;
        if (pos + 3 <= len) {
            uint32_t h = hash3(data + pos);
            int32_t cand = head[h];
            for (int chain = 0; cand >= 0 && chain < MAX_CHAIN; chain++) {
                size_t dist = pos - (size_t)cand;
                if (dist > WINDOW)
                    break;
                size_t m = 0;
                while (m < 258 && pos + m < len && data[(size_t)cand + m] == data[pos + m])
                    m++;
                if (m > best_len) {
                    best_len = m;
                    best_dist = dist;
                }
                cand = prev[cand];
            }
        }
        size_t step = best_len >= 3 ? best_len : 1;
        if (best_len >= 3)
            put_match(&w, best_len, best_dist);
        else
            put_symbol(&w, data[pos]);
        for (size_t k = 0; k < step; k++, pos++) {
            if (pos + 3 <= len) {
                uint32_t h = hash3(data + pos);
                prev[pos] = head[h];
                head[h] = (int32_t)pos;
            }
        }
    }
    put_symbol(&w, 256);
    if (w.nbits)
        put_bits(&w, 0, 8 - w.nbits);
    free(head);
    free(prev);
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < len; i++) {
        a = (a + data[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    uint32_t adler = b << 16 | a;
    for (int i = 3; i >= 0; i--)
        anim_strbuf_putc(&sb, (char)(adler >> (8 * i) & 0xff));
    if (sb.failed || !sb.data)
        die_nomem();
    *out_len = sb.len;
    return (uint8_t *)sb.data;
}

/* ---- ASCII ---- */

/* Shortest round-trip digits of the double; integral values without a
 * fraction (as exporters print them), so the ASCII file reads back to the
 * same doubles the binary file holds (floats are printed widened). */
static void put_number(anim_strbuf *sb, double v)
{
    char buf[ANIM_FMT_JSON_MAX];
    size_t n = anim_fmt_f64_json(v, buf);
    if (n >= 2 && buf[n - 2] == '.' && buf[n - 1] == '0')
        n -= 2;
    anim_strbuf_append(sb, buf, n);
}

static void indent(anim_strbuf *sb, int depth)
{
    for (int i = 0; i < depth; i++)
        anim_strbuf_putc(sb, '\t');
}

static void put_ascii_array(anim_strbuf *sb, const fbxw_prop *p, int depth)
{
    anim_strbuf_printf(sb, "*%u {\n", p->count);
    indent(sb, depth + 1);
    anim_strbuf_puts(sb, "a: ");
    size_t line_start = sb->len;
    for (uint32_t k = 0; k < p->count; k++) {
        if (k) {
            anim_strbuf_putc(sb, ',');
            /* Long arrays wrap after a comma, as exporters' files do. */
            if (sb->len - line_start > 100) {
                anim_strbuf_putc(sb, '\n');
                line_start = sb->len;
            }
        }
        if (p->type == 'd')
            put_number(sb, ((const double *)p->array)[k]);
        else if (p->type == 'f')
            put_number(sb, (double)((const float *)p->array)[k]);
        else if (p->type == 'l')
            anim_strbuf_printf(sb, "%lld", (long long)((const int64_t *)p->array)[k]);
        else
            anim_strbuf_printf(sb, "%d", (int)((const int32_t *)p->array)[k]);
    }
    anim_strbuf_putc(sb, '\n');
    indent(sb, depth);
    anim_strbuf_puts(sb, "} ");
}

static void put_ascii_node(anim_strbuf *sb, const fbxw_node *n, int depth)
{
    indent(sb, depth);
    anim_strbuf_printf(sb, "%s: ", n->name);
    bool array_block = false;
    for (const fbxw_prop *p = n->props; p; p = p->next) {
        if (p != n->props)
            anim_strbuf_putc(sb, ',');
        switch (p->type) {
        case 'C':
            if (p->i == 0 || p->i == 1)
                anim_strbuf_printf(sb, "%d", (int)p->i);
            else
                anim_strbuf_putc(sb, (char)p->i);
            break;
        case 'I':
        case 'L':
            anim_strbuf_printf(sb, "%lld", (long long)p->i);
            break;
        case 'D':
            put_number(sb, p->f);
            break;
        case 'S':
            anim_strbuf_printf(sb, "\"%s\"", p->text);
            break;
        default:
            put_ascii_array(sb, p, depth);
            array_block = true;
            break;
        }
    }
    if (!array_block && is_block(n)) {
        anim_strbuf_puts(sb, " {\n");
        for (const fbxw_node *k = n->kids; k; k = k->next)
            put_ascii_node(sb, k, depth + 1);
        indent(sb, depth);
        anim_strbuf_putc(sb, '}');
    }
    anim_strbuf_putc(sb, '\n');
}

static void encode_ascii(anim_strbuf *sb, const fbxw_doc *d, const fbxw_format *fmt)
{
    anim_strbuf_printf(sb, "; FBX %u.%u.0 project file\n", fmt->version / 1000,
                       fmt->version / 100 % 10);
    if (fmt->comment)
        anim_strbuf_printf(sb, "; %s\n", fmt->comment);
    anim_strbuf_puts(sb, "; ----------------------------------------------------\n");
    for (const fbxw_node *k = d->root.kids; k; k = k->next) {
        anim_strbuf_putc(sb, '\n');
        put_ascii_node(sb, k, 0);
    }
}

uint8_t *fbxw_encode(const fbxw_doc *d, const fbxw_format *fmt, size_t *len)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    if (fmt->ascii)
        encode_ascii(&sb, d, fmt);
    else
        encode_binary(&sb, d, fmt);
    if (sb.failed || !sb.data)
        die_nomem();
    *len = sb.len;
    return (uint8_t *)sb.data;
}

int fbxw_write(const fbxw_doc *d, const fbxw_format *fmt, const char *path, anim_error *err)
{
    size_t len = 0;
    uint8_t *bytes = fbxw_encode(d, fmt, &len);
    int rc = anim_write_file_atomic(path, bytes, len, err);
    free(bytes);
    return rc;
}
