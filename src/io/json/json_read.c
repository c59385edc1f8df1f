/* Strict RFC 8259 reader: one pass, explicit container stack, children
 * gathered on reusable scratch stacks and copied into contiguous arena
 * arrays when their container closes. Strings and keys without escapes are
 * not copied (they point into the text) and numbers keep only their value,
 * so the arena holds little more than the 24-byte values and the 32-byte
 * members of the containers.
 *
 * Why this shape: recursion would let a hostile file exhaust the C stack
 * before the depth limit is checked, and growing per-container arrays would
 * cost a realloc per element. With one scratch stack for array elements and
 * one for object members, each container costs one arena allocation of the
 * exact size, and the scratch memory is reused across the whole document.
 *
 * Every read of the input is bounded by len: the text is not NUL-terminated
 * (it is usually a slice of a GLB file). */
/* madvise and MADV_HUGEPAGE are outside strict POSIX. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1
#endif
#include "animsmith/json.h"
#include "core/grow.h"
#include "io/json/json_internal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define DEFAULT_MAX_DEPTH 256u
#define DEFAULT_MAX_BYTES ((size_t)1 << 30)
/* Offsets and lengths are stored as uint32. */
#define MAX_BYTES_REACH ((size_t)UINT32_MAX)

_Static_assert(sizeof(anim_json_value) == 24, "anim_json_value is meant to be 24 bytes");
_Static_assert(sizeof(anim_json_member) == 32, "anim_json_member is meant to be 32 bytes");

/* Objects up to this many members are checked for duplicate keys pairwise;
 * larger ones are sorted (O(n log n)) so a hostile 1e6-key object stays
 * cheap. */
#define DUP_PAIRWISE_MAX 12u

/* Longest part of a literal or key quoted in an error message. */
#define QUOTE_MAX 48u

typedef enum { SLOT_ROOT, SLOT_ITEM, SLOT_MEMBER } slot_kind;

typedef struct {
    bool is_object;
    slot_kind kind; /* where the finished container is stored */
    size_t slot;    /* index in the scratch stack named by kind */
    size_t offset;  /* of the opening bracket */
    size_t base;    /* first scratch index of this container's children */
} frame;

typedef struct {
    const unsigned char *s;
    size_t n;
    anim_arena *arena;
    anim_error *err;
    size_t max_depth;

    anim_json_value *items; /* scratch: elements of open arrays */
    size_t item_count, item_cap;
    anim_json_member *members; /* scratch: members of open objects */
    size_t *key_offsets;       /* parallel to members, for dup-key errors */
    size_t member_count, member_cap;
    frame *frames;
    size_t depth, frame_cap;
    const anim_json_member **sorted; /* dup-key check of large objects */
    size_t sorted_cap;
    char *slab_cur, *slab_end; /* see out_alloc */
    size_t slab_next;
    size_t start;           /* where the value to parse begins */
    json_member_hook hook;  /* see json_parse_hooked */
    void *hook_user;
} parser;

/* Where a deferred container lies, for anim_json_expand. */
struct anim_json_deferred {
    const char *text;
    size_t start, end; /* the container's bytes */
    size_t max_depth;  /* left for its own nesting */
    anim_arena *arena;
};

/* ---------------------------------------------------------------- errors */

void anim_json_position(const char *text, size_t len, size_t offset, size_t *line,
                        size_t *column)
{
    if (offset > len)
        offset = len;
    size_t ln = 1, line_start = 0;
    const char *p = text;
    const char *end = text ? text + offset : NULL;
    while (p && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        ln++;
        line_start = (size_t)(nl - text) + 1;
        p = nl + 1;
    }
    if (line)
        *line = ln;
    if (column)
        *column = offset - line_start + 1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void fail(parser *p, anim_error_code code, size_t offset, const char *fmt, ...)
{
    if (!p->err)
        return; /* a scan that only asks "valid?" (json_scan_*) */
    char what[ANIM_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    size_t line, column;
    anim_json_position((const char *)p->s, p->n, offset, &line, &column);
    anim_error_set(p->err, code, "line %zu column %zu (byte %zu): %s", line, column,
                   offset > p->n ? p->n : offset, what);
}

static void fail_nomem(parser *p, size_t offset)
{
    fail(p, ANIM_ERR_NOMEM, offset, "out of memory");
}

/* Describes the byte at offset for "expected X but found Y" messages. */
static void describe_byte(const parser *p, size_t i, char *buf, size_t size)
{
    if (i >= p->n)
        snprintf(buf, size, "end of input");
    else if (p->s[i] > 0x20 && p->s[i] < 0x7f)
        snprintf(buf, size, "'%c'", p->s[i]);
    else
        snprintf(buf, size, "byte 0x%02x", p->s[i]);
}

/* Copies a decoded key into a message, escaping what a terminal would
 * misrender (controls, bidi and line-separator code points, quotes) and
 * cutting it at QUOTE_MAX bytes. The key is valid UTF-8 by construction. */
static void quote_key(const char *key, size_t len, char *buf, size_t size)
{
    size_t o = 0;
    const unsigned char *k = (const unsigned char *)key;
    size_t i = 0;
    while (i < len && o + 16 < size) {
        if (i >= QUOTE_MAX) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        unsigned c = k[i];
        unsigned cp = c;
        size_t w = 1;
        if (c >= 0xf0) {
            w = 4;
            cp = c & 0x07;
        } else if (c >= 0xe0) {
            w = 3;
            cp = c & 0x0f;
        } else if (c >= 0xc0) {
            w = 2;
            cp = c & 0x1f;
        }
        if (i + w > len)
            w = len - i;
        for (size_t j = 1; j < w; j++)
            cp = (cp << 6) | (k[i + j] & 0x3f);
        bool escape = cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp == '"' ||
                      cp == '\\' || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
                      (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
        if (escape) {
            if (cp == '"' || cp == '\\') {
                buf[o++] = '\\';
                buf[o++] = (char)cp;
            } else {
                o += (size_t)snprintf(buf + o, size - o, "\\u%04x", cp);
            }
        } else {
            memcpy(buf + o, k + i, w);
            o += w;
        }
        i += w;
    }
    buf[o] = '\0';
}

/* ---------------------------------------------------------------- output */

#define SLAB_MIN ((size_t)16 << 10)
#define SLAB_MAX ((size_t)64 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

/* Asks the kernel for transparent huge pages on the 2 MiB-aligned interior
 * of a large output block. Why: the tree is ~5x the size of the text, and
 * with 4 KiB pages the page faults taking in that fresh memory cost as
 * much as the parse itself (measured: ~200 MB/s instead of ~450 MB/s on a
 * 5 MB glTF text). Only advice: without THP nothing changes. */
static void advise_huge(void *base, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size < 2 * HUGE_PAGE)
        return;
    uintptr_t a = ((uintptr_t)base + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t b = ((uintptr_t)base + size) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (b > a)
        (void)madvise((void *)a, (size_t)(b - a), MADV_HUGEPAGE);
#else
    (void)base;
    (void)size;
#endif
}

/* Output memory (container arrays, strings) is carved from large arena
 * slabs, sized from the input and doubling, instead of one arena call per
 * container: the bump is inlined and the slabs can get huge pages. */
static void *out_alloc(parser *p, size_t size)
{
    if (size > SIZE_MAX - 15)
        return NULL;
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    if (size <= (size_t)(p->slab_end - p->slab_cur)) {
        void *r = p->slab_cur;
        p->slab_cur += size;
        return r;
    }
    if (size >= p->slab_next / 2) {
        /* Too big for a slab: its own arena block. */
        void *r = anim_arena_alloc(p->arena, size);
        if (r)
            advise_huge(r, size);
        return r;
    }
    char *slab = anim_arena_alloc(p->arena, p->slab_next);
    if (!slab)
        return NULL;
    advise_huge(slab, p->slab_next);
    p->slab_cur = slab + size;
    p->slab_end = slab + p->slab_next;
    if (p->slab_next < SLAB_MAX)
        p->slab_next *= 2;
    return slab;
}

/* ---------------------------------------------------------------- scratch */

static void parser_free(parser *p)
{
    free(p->items);
    free(p->members);
    free(p->key_offsets);
    free(p->frames);
    free((void *)p->sorted);
}

static anim_json_value *push_item(parser *p, size_t offset)
{
    if (p->item_count == p->item_cap &&
        !anim_grow((void **)&p->items, &p->item_cap, p->item_count + 1, sizeof *p->items)) {
        fail_nomem(p, offset);
        return NULL;
    }
    anim_json_value *v = &p->items[p->item_count++];
    v->key_len = 0; /* the other fields are set with the value */
    v->reserved = 0;
    return v;
}

static anim_json_member *push_member(parser *p, size_t offset)
{
    if (p->member_count == p->member_cap) {
        size_t cap = p->member_cap;
        if (!anim_grow((void **)&p->members, &cap, p->member_count + 1, sizeof *p->members)) {
            fail_nomem(p, offset);
            return NULL;
        }
        size_t cap2 = p->member_cap;
        if (!anim_grow((void **)&p->key_offsets, &cap2, cap, sizeof *p->key_offsets)) {
            fail_nomem(p, offset);
            return NULL;
        }
        p->member_cap = cap;
    }
    p->key_offsets[p->member_count] = offset;
    return &p->members[p->member_count++];
}

/* ---------------------------------------------------------------- strings */

/* 1 for bytes that end the fast ASCII scan inside a string. */
static const unsigned char string_special[256] = {
    /* 0x00-0x1f: control characters must be escaped */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1 /* " */, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 /* \ */, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 0x80-0xff: UTF-8, validated on the slow path */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Nonzero when any of the 8 bytes is '"', '\\', < 0x20 or >= 0x80. The
 * classic SWAR "has zero byte" tests are exact about whether such a byte
 * exists, which is all the fast loop needs. */
static inline uint64_t swar_special(uint64_t w)
{
    uint64_t quote = w ^ (ONES * '"');
    uint64_t bslash = w ^ (ONES * '\\');
    uint64_t t = ((quote - ONES) & ~quote) | ((bslash - ONES) & ~bslash) |
                 ((w - ONES * 0x20) & ~w) | w;
    return t & HIGHS;
}

static inline int hex_value(unsigned c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    c |= 0x20;
    if (c >= 'a' && c <= 'f')
        return (int)(c - 'a' + 10);
    return -1;
}

/* Reads the 4 hex digits at s[i..i+3] (caller checked the bounds). */
static inline long hex4(const unsigned char *s, size_t i)
{
    int a = hex_value(s[i]), b = hex_value(s[i + 1]), c = hex_value(s[i + 2]),
        d = hex_value(s[i + 3]);
    if ((a | b | c | d) < 0)
        return -1;
    return (long)((a << 12) | (b << 8) | (c << 4) | d);
}

/* Validates one multi-byte UTF-8 sequence at s[i] (s[i] >= 0x80); returns
 * its length or 0 after filling the error. RFC 3629 table 4: the second
 * byte's range excludes overlongs, UTF-16 surrogates and > U+10FFFF. */
static size_t utf8_check(parser *p, size_t i)
{
    const unsigned char *s = p->s;
    unsigned c = s[i];
    size_t w;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        w = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        w = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        w = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else if (c == 0xc0 || c == 0xc1) {
        fail(p, ANIM_ERR_PARSE, i, "invalid UTF-8 byte 0x%02x in string (overlong encoding)",
             c);
        return 0;
    } else if (c >= 0xf5) {
        fail(p, ANIM_ERR_PARSE, i,
             "invalid UTF-8 byte 0x%02x in string (code point above U+10FFFF)", c);
        return 0;
    } else {
        fail(p, ANIM_ERR_PARSE, i,
             "invalid UTF-8 byte 0x%02x in string (continuation byte without a lead byte)",
             c);
        return 0;
    }
    for (size_t k = 1; k < w; k++) {
        if (i + k >= p->n) {
            fail(p, ANIM_ERR_PARSE, p->n, "unexpected end of input inside a UTF-8 sequence");
            return 0;
        }
        unsigned b = s[i + k];
        if (b < 0x80 || b > 0xbf) {
            fail(p, ANIM_ERR_PARSE, i + k,
                 "invalid UTF-8 byte 0x%02x in string (truncated sequence starting with 0x%02x)",
                 b, c);
            return 0;
        }
        if (k == 1 && (b < lo || b > hi)) {
            const char *why = c == 0xed   ? "UTF-8-encoded surrogate"
                              : c == 0xf4 ? "code point above U+10FFFF"
                                          : "overlong encoding";
            fail(p, ANIM_ERR_PARSE, i + k, "invalid UTF-8 byte 0x%02x in string (%s)", b, why);
            return 0;
        }
    }
    return w;
}

/* Validates an escape at s[i] == '\\' and returns its length in the source
 * (2, 6 or 12) or 0 after filling the error. */
static size_t escape_check(parser *p, size_t i)
{
    const unsigned char *s = p->s;
    if (i + 1 >= p->n) {
        fail(p, ANIM_ERR_PARSE, p->n, "unexpected end of input in string");
        return 0;
    }
    unsigned e = s[i + 1];
    switch (e) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return 2;
    case 'u':
        break;
    default: {
        char what[32];
        describe_byte(p, i + 1, what, sizeof what);
        fail(p, ANIM_ERR_PARSE, i, "invalid escape '\\' followed by %s in string", what);
        return 0;
    }
    }
    if (i + 6 > p->n) {
        size_t k = i + 2;
        while (k < p->n && hex_value(s[k]) >= 0)
            k++;
        if (k < p->n)
            fail(p, ANIM_ERR_PARSE, i, "invalid \\u escape: expected 4 hexadecimal digits");
        else
            fail(p, ANIM_ERR_PARSE, p->n, "unexpected end of input in \\u escape");
        return 0;
    }
    long u = hex4(s, i + 2);
    if (u < 0) {
        fail(p, ANIM_ERR_PARSE, i, "invalid \\u escape: expected 4 hexadecimal digits");
        return 0;
    }
    if (u >= 0xdc00 && u <= 0xdfff) {
        fail(p, ANIM_ERR_PARSE, i, "lone low surrogate \\u%04lx in string", u);
        return 0;
    }
    if (u < 0xd800 || u > 0xdbff)
        return 6;
    /* A high surrogate must be followed at once by an escaped low one. */
    long lo = -1;
    if (i + 12 <= p->n && s[i + 6] == '\\' && s[i + 7] == 'u')
        lo = hex4(s, i + 8);
    if (lo < 0xdc00 || lo > 0xdfff) {
        fail(p, ANIM_ERR_PARSE, i,
             "lone high surrogate \\u%04lx in string (must be followed by \\udc00-\\udfff)", u);
        return 0;
    }
    return 12;
}

static size_t put_utf8(char *o, unsigned long cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Decodes validated string bytes s[a..b) holding escapes into out; returns
 * the decoded length. Never longer than the source: every escape shrinks. */
static size_t decode_escapes(const unsigned char *s, size_t a, size_t b, char *out)
{
    size_t o = 0;
    while (a < b) {
        const unsigned char *bs = memchr(s + a, '\\', b - a);
        size_t run = bs ? (size_t)(bs - (s + a)) : b - a;
        memcpy(out + o, s + a, run);
        o += run;
        a += run;
        if (a >= b)
            break;
        unsigned e = s[a + 1];
        a += 2;
        switch (e) {
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            unsigned long cp = (unsigned long)hex4(s, a);
            a += 4;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                unsigned long lo = (unsigned long)hex4(s, a + 2);
                a += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            o += put_utf8(out + o, cp);
            break;
        }
        default: out[o++] = (char)e; break; /* " \ / */
        }
    }
    return o;
}

/* Validates the string whose opening quote is at *pos and moves *pos past
 * its closing quote; *escaped tells whether it holds escapes. */
static int scan_string(parser *p, size_t *pos, bool *escaped_out)
{
    const unsigned char *s = p->s;
    const size_t n = p->n;
    const size_t start = *pos + 1;
    size_t j = start;
    bool escaped = false;
    for (;;) {
        while (j + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + j, 8);
            if (swar_special(w))
                break;
            j += 8;
        }
        while (j < n && !string_special[s[j]])
            j++;
        if (j >= n) {
            fail(p, ANIM_ERR_PARSE, n, "unexpected end of input in string starting at byte %zu",
                 *pos);
            return -1;
        }
        unsigned c = s[j];
        if (c == '"')
            break;
        if (c == '\\') {
            size_t w = escape_check(p, j);
            if (!w)
                return -1;
            escaped = true;
            j += w;
        } else if (c < 0x20) {
            fail(p, ANIM_ERR_PARSE, j,
                 "unescaped control character 0x%02x in string (write it as \\u%04x)", c, c);
            return -1;
        } else {
            size_t w = utf8_check(p, j);
            if (!w)
                return -1;
            j += w;
        }
    }
    *pos = j + 1;
    *escaped_out = escaped;
    return 0;
}

/* Parses the string whose opening quote is at *pos; on success stores the
 * decoded copy and moves *pos past the closing quote. */
static int parse_string(parser *p, size_t *pos, const char **data, uint32_t *len)
{
    const unsigned char *s = p->s;
    const size_t start = *pos + 1;
    bool escaped;
    if (scan_string(p, pos, &escaped) != 0)
        return -1;
    size_t j = *pos - 1; /* the closing quote */
    size_t raw = j - start;
    if (!escaped) {
        /* Borrowed from the text: no copy, no arena memory touched. */
        *data = (const char *)s + start;
        *len = (uint32_t)raw;
        return 0;
    }
    char *out = out_alloc(p, raw + 1);
    if (!out) {
        fail_nomem(p, start - 1);
        return -1;
    }
    size_t olen = decode_escapes(s, start, j, out);
    out[olen] = '\0';
    *data = out;
    *len = (uint32_t)olen;
    return 0;
}

/* ---------------------------------------------------------------- numbers */

static const double pow10_exact[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* The long double path needs the x87 80-bit format (64-bit significand
 * stored first) and no excess precision on double arithmetic. */
#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64 && FLT_EVAL_METHOD == 0
#define LONG_DOUBLE_FAST_PATH 1
static const long double pow10_ld[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};
#else
#define LONG_DOUBLE_FAST_PATH 0
#endif

#define TWO_POW_53 (UINT64_C(1) << 53)

static inline bool is_digit(unsigned c)
{
    return c - '0' < 10u;
}

/* strtod on a NUL-terminated copy: the input is not NUL-terminated, and
 * strtod would otherwise read past len. The C locale applies because the
 * library never calls setlocale. */
static int slow_double(parser *p, size_t a, size_t b, double *out)
{
    char small[64];
    size_t len = b - a;
    char *buf = small;
    if (len >= sizeof small) {
        buf = malloc(len + 1);
        if (!buf) {
            fail_nomem(p, a);
            return -1;
        }
    }
    memcpy(buf, p->s + a, len);
    buf[len] = '\0';
    *out = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    return 0;
}

/* Parses the number starting at *pos (a '-' or a digit). */
static int parse_number(parser *p, size_t *pos, anim_json_value *v)
{
    const unsigned char *s = p->s;
    const size_t n = p->n;
    const size_t start = *pos;
    size_t i = start;
    bool neg = false;
    if (s[i] == '-') {
        neg = true;
        i++;
        if (i >= n) {
            fail(p, ANIM_ERR_PARSE, n, "unexpected end of input in number");
            return -1;
        }
        if (!is_digit(s[i])) {
            if (s[i] == 'I')
                fail(p, ANIM_ERR_PARSE, start, "Infinity is not a valid JSON number");
            else
                fail(p, ANIM_ERR_PARSE, i, "expected a digit after '-'");
            return -1;
        }
    }
    uint64_t m = 0;
    int digits = 0;     /* significant digits accumulated in m */
    bool inexact = false; /* more than 19 significant digits */
    long exp10 = 0;
    if (s[i] == '0') {
        i++;
        if (i < n && is_digit(s[i])) {
            fail(p, ANIM_ERR_PARSE, start, "leading zeros are not allowed in numbers");
            return -1;
        }
    } else {
        while (i < n && is_digit(s[i])) {
            if (digits < 19) {
                m = m * 10 + (s[i] - '0');
                digits++;
            } else {
                inexact = true;
            }
            i++;
        }
    }
    bool integral = true;
    if (i < n && s[i] == '.') {
        integral = false;
        i++;
        if (i >= n) {
            fail(p, ANIM_ERR_PARSE, n, "unexpected end of input in number");
            return -1;
        }
        if (!is_digit(s[i])) {
            fail(p, ANIM_ERR_PARSE, i, "expected a digit after the decimal point");
            return -1;
        }
        while (i < n && is_digit(s[i])) {
            unsigned d = s[i] - '0';
            if (m == 0 && d == 0) {
                exp10--; /* leading fraction zeros are not significant */
            } else if (digits < 19) {
                m = m * 10 + d;
                digits++;
                exp10--;
            } else {
                inexact = true;
            }
            i++;
        }
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        integral = false;
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i] == '-';
            i++;
        }
        if (i >= n) {
            fail(p, ANIM_ERR_PARSE, n, "unexpected end of input in number");
            return -1;
        }
        if (!is_digit(s[i])) {
            fail(p, ANIM_ERR_PARSE, i, "expected a digit in the exponent");
            return -1;
        }
        long e = 0;
        while (i < n && is_digit(s[i])) {
            if (e < 1000000)
                e = e * 10 + (s[i] - '0');
            i++;
        }
        exp10 += eneg ? -e : e;
    }

    v->type = ANIM_JSON_NUMBER;
    v->flags = 0;
    v->offset = (uint32_t)start;
    v->len = (uint32_t)(i - start);
    *pos = i;

    if (integral && !inexact) {
        /* Exact: (double)integer rounds correctly when the value is read. */
        if (neg ? m <= (UINT64_C(1) << 63) : m <= (uint64_t)INT64_MAX) {
            v->flags = ANIM_JSON_F_INTEGER | (neg && m == 0 ? ANIM_JSON_F_NEG_ZERO : 0);
            v->u.integer = neg ? (m == (UINT64_C(1) << 63) ? INT64_MIN : -(int64_t)m) : (int64_t)m;
            return 0;
        }
    }
#if FLT_EVAL_METHOD == 0
    /* Clinger's fast path: m and 10^|e| are exact doubles, so one IEEE
     * multiplication or division rounds correctly. */
    if (!inexact && m <= TWO_POW_53 && exp10 >= -22 && exp10 <= 22) {
        double d = (double)m;
        d = exp10 < 0 ? d / pow10_exact[-exp10] : d * pow10_exact[exp10];
        v->u.number = neg ? -d : d;
        return 0;
    }
#endif
#if LONG_DOUBLE_FAST_PATH
    /* Exporters write float32 values in shortest round-trip form, often 17
     * digits: too many for Clinger's path. On x86 long double has a 64-bit
     * significand, so m (< 10^19 < 2^64) and 10^k (k <= 27, as 5^27 < 2^64)
     * are exact there and one long double operation rounds once, to within
     * half a long double ulp. Rounding that to double is then correct unless
     * the result lies within one long double ulp of a point halfway between
     * two doubles, i.e. its 11 low significand bits are 0x3ff-0x401: those
     * rare cases go to strtod. Results stay within [1e-27, 1e46], so no
     * subnormal or overflow cases arise here. */
    if (!inexact && m != 0 && exp10 >= -27 && exp10 <= 27) {
        long double x = (long double)m;
        x = exp10 < 0 ? x / pow10_ld[-exp10] : x * pow10_ld[exp10];
        uint64_t sig;
        memcpy(&sig, &x, sizeof sig); /* x87 layout: significand first */
        unsigned low = (unsigned)(sig & 0x7ff);
        if (low < 0x3ff || low > 0x401) {
            double d = (double)x;
            v->u.number = neg ? -d : d;
            return 0;
        }
    }
#endif
    if (m == 0 && !inexact) {
        /* All digits zero: any exponent gives (signed) zero. */
        v->u.number = neg ? -0.0 : 0.0;
        return 0;
    }
    double d;
    if (slow_double(p, start, i, &d) != 0)
        return -1;
    if (isinf(d)) {
        size_t len = i - start;
        fail(p, ANIM_ERR_PARSE, start, "number %.*s%s is outside the binary64 range",
             (int)(len > QUOTE_MAX ? QUOTE_MAX : len), (const char *)s + start,
             len > QUOTE_MAX ? "..." : "");
        return -1;
    }
    v->u.number = d;
    return 0;
}

/* ---------------------------------------------------------------- values */

static int parse_literal(parser *p, size_t *pos, anim_json_value *v)
{
    static const char *const words[3] = {"null", "false", "true"};
    static const anim_json_type types[3] = {ANIM_JSON_NULL, ANIM_JSON_FALSE, ANIM_JSON_TRUE};
    size_t i = *pos;
    int w = p->s[i] == 'n' ? 0 : p->s[i] == 'f' ? 1 : 2;
    size_t wl = strlen(words[w]);
    size_t avail = p->n - i;
    if (avail >= wl && memcmp(p->s + i, words[w], wl) == 0) {
        memset(&v->u, 0, sizeof v->u);
        v->type = (uint8_t)types[w];
        v->flags = 0;
        v->len = 0;
        v->offset = (uint32_t)i;
        *pos = i + wl;
        return 0;
    }
    size_t k = 0;
    while (k < avail && k < wl && p->s[i + k] == (unsigned char)words[w][k])
        k++;
    if (k == avail)
        fail(p, ANIM_ERR_PARSE, p->n, "unexpected end of input in literal '%s'", words[w]);
    else
        fail(p, ANIM_ERR_PARSE, i, "invalid literal (expected '%s')", words[w]);
    return -1;
}

/* The error for a byte that cannot start a value. after_comma names the
 * container so "[1,]" reads as a trailing comma. */
static void fail_value(parser *p, size_t i, char after_comma)
{
    if (i >= p->n) {
        fail(p, ANIM_ERR_PARSE, p->n, "unexpected end of input (expected a value)");
        return;
    }
    unsigned c = p->s[i];
    if (after_comma && c == (unsigned char)after_comma) {
        fail(p, ANIM_ERR_PARSE, i, "trailing comma before '%c'", c);
        return;
    }
    const char *why = NULL;
    if (c == '\'')
        why = "strings must use double quotes";
    else if (c == '/')
        why = "comments are not allowed in JSON";
    else if (c == 'N' || c == 'I')
        why = "NaN and Infinity are not valid JSON numbers";
    else if (c == '+')
        why = "a number cannot start with '+'";
    else if (c == '.')
        why = "a number cannot start with '.'";
    if (why) {
        fail(p, ANIM_ERR_PARSE, i, "%s", why);
        return;
    }
    char what[32];
    describe_byte(p, i, what, sizeof what);
    fail(p, ANIM_ERR_PARSE, i, "expected a JSON value but found %s", what);
}

static inline size_t skip_ws(const unsigned char *s, size_t i, size_t n)
{
    while (i < n) {
        unsigned c = s[i];
        if (c > ' ')
            break;
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            break;
        i++;
    }
    return i;
}

/* ---------------------------------------------------------------- objects */

static int key_cmp(const anim_json_member *a, const anim_json_member *b)
{
    if (a->value.key_len != b->value.key_len)
        return a->value.key_len < b->value.key_len ? -1 : 1;
    return memcmp(a->key, b->key, a->value.key_len);
}

static int key_sort_cmp(const void *x, const void *y)
{
    const anim_json_member *a = *(const anim_json_member *const *)x;
    const anim_json_member *b = *(const anim_json_member *const *)y;
    int c = key_cmp(a, b);
    if (c)
        return c;
    return a < b ? -1 : a > b; /* source order among equal keys */
}

/* Checks members[base..base+count) for a repeated key and reports the
 * repetition that comes first in the source. */
static int check_duplicates(parser *p, size_t base, size_t count)
{
    const anim_json_member *m = p->members + base;
    size_t dup = SIZE_MAX; /* index of the earliest repeated occurrence */
    if (count <= DUP_PAIRWISE_MAX) {
        for (size_t j = 1; j < count && dup == SIZE_MAX; j++)
            for (size_t k = 0; k < j; k++)
                if (m[j].value.key_len == m[k].value.key_len &&
                    memcmp(m[j].key, m[k].key, m[j].value.key_len) == 0) {
                    dup = j;
                    break;
                }
    } else {
        if (!anim_grow((void **)&p->sorted, &p->sorted_cap, count, sizeof *p->sorted)) {
            fail_nomem(p, p->key_offsets[base]);
            return -1;
        }
        for (size_t j = 0; j < count; j++)
            p->sorted[j] = m + j;
        qsort(p->sorted, count, sizeof *p->sorted, key_sort_cmp);
        for (size_t j = 1; j < count; j++)
            if (key_cmp(p->sorted[j - 1], p->sorted[j]) == 0) {
                size_t idx = (size_t)(p->sorted[j] - m);
                /* The first of an equal run was its first occurrence. */
                if (j >= 2 && key_cmp(p->sorted[j - 2], p->sorted[j]) == 0)
                    continue;
                if (idx < dup)
                    dup = idx;
            }
    }
    if (dup == SIZE_MAX)
        return 0;
    char key[QUOTE_MAX * 6 + 8];
    quote_key(m[dup].key, m[dup].value.key_len, key, sizeof key);
    fail(p, ANIM_ERR_PARSE, p->key_offsets[base + dup], "duplicate key \"%s\"", key);
    return -1;
}

/* Parses `"key" :` at *pos (the opening quote) and pushes the member. */
static int parse_key(parser *p, size_t *pos)
{
    size_t i = *pos;
    anim_json_member *m = push_member(p, i);
    if (!m)
        return -1;
    m->value.reserved = 0;
    if (parse_string(p, &i, &m->key, &m->value.key_len) != 0)
        return -1;
    i = skip_ws(p->s, i, p->n);
    if (i >= p->n || p->s[i] != ':') {
        if (i >= p->n) {
            fail(p, ANIM_ERR_PARSE, p->n, "unexpected end of input (expected ':')");
        } else {
            char what[32];
            describe_byte(p, i, what, sizeof what);
            fail(p, ANIM_ERR_PARSE, i, "expected ':' after object key but found %s", what);
        }
        return -1;
    }
    *pos = skip_ws(p->s, i + 1, p->n);
    return 0;
}

static void fail_key(parser *p, size_t i, bool after_comma)
{
    if (i >= p->n) {
        fail(p, ANIM_ERR_PARSE, p->n, "unexpected end of input (expected an object key)");
        return;
    }
    if (after_comma && p->s[i] == '}') {
        fail(p, ANIM_ERR_PARSE, i, "trailing comma before '}'");
        return;
    }
    if (p->s[i] == '\'') {
        fail(p, ANIM_ERR_PARSE, i, "strings must use double quotes");
        return;
    }
    char what[32];
    describe_byte(p, i, what, sizeof what);
    fail(p, ANIM_ERR_PARSE, i, "expected a double-quoted object key but found %s", what);
}

static anim_json_value *slot_ptr(parser *p, anim_json_value *root, slot_kind kind, size_t idx)
{
    switch (kind) {
    case SLOT_ITEM: return &p->items[idx];
    case SLOT_MEMBER: return &p->members[idx].value;
    default: return root;
    }
}

/* Closes the innermost container (its closing bracket is at offset i):
 * copies the children into the arena and stores the container in its
 * parent's slot. */
static int close_container(parser *p, anim_json_value *root, size_t i)
{
    frame *f = &p->frames[p->depth - 1];
    anim_json_value *v = slot_ptr(p, root, f->kind, f->slot);
    v->offset = (uint32_t)f->offset;
    v->flags = 0;
    if (f->is_object) {
        size_t count = p->member_count - f->base;
        if (count > 1 && check_duplicates(p, f->base, count) != 0)
            return -1;
        anim_json_member *arr = NULL;
        if (count) {
            arr = out_alloc(p, count * sizeof *arr);
            if (!arr) {
                fail_nomem(p, i);
                return -1;
            }
            memcpy(arr, p->members + f->base, count * sizeof *arr);
        }
        v->type = ANIM_JSON_OBJECT;
        v->u.members = arr;
        v->len = (uint32_t)count;
        p->member_count = f->base;
    } else {
        size_t count = p->item_count - f->base;
        anim_json_value *arr = NULL;
        if (count) {
            arr = out_alloc(p, count * sizeof *arr);
            if (!arr) {
                fail_nomem(p, i);
                return -1;
            }
            memcpy(arr, p->items + f->base, count * sizeof *arr);
        }
        v->type = ANIM_JSON_ARRAY;
        v->u.items = arr;
        v->len = (uint32_t)count;
        p->item_count = f->base;
    }
    p->depth--;
    return 0;
}

/* Offers the value of a member of the root object (at *pos, a '[' or '{')
 * to the hook; when the hook validated and consumed it, stores it as a
 * deferred container and moves *pos past it. 1 consumed, 0 declined. */
static int defer_member(parser *p, size_t slot, size_t *pos)
{
    const anim_json_member *m = &p->members[slot];
    size_t at = *pos, end = 0;
    uint32_t count = 0;
    if (p->max_depth < JSON_HOOK_MIN_DEPTH ||
        !p->hook(p->hook_user, m->key, m->value.key_len, (const char *)p->s, p->n, at, &end,
                 &count) ||
        end <= at || end > p->n)
        return 0;
    struct anim_json_deferred *d = out_alloc(p, sizeof *d);
    if (!d) {
        fail_nomem(p, at);
        return -1;
    }
    d->text = (const char *)p->s;
    d->start = at;
    d->end = end;
    d->max_depth = p->max_depth - 1;
    d->arena = p->arena;
    anim_json_value *v = &p->members[slot].value;
    v->type = p->s[at] == '[' ? ANIM_JSON_ARRAY : ANIM_JSON_OBJECT;
    v->flags = ANIM_JSON_F_DEFERRED;
    v->offset = (uint32_t)at;
    v->len = count;
    v->u.deferred = d;
    *pos = end;
    return 1;
}

static int parse_document(parser *p, anim_json_value *root)
{
    const unsigned char *s = p->s;
    const size_t n = p->n;
    size_t i = skip_ws(s, p->start, n);
    slot_kind kind = SLOT_ROOT; /* where the next value goes */
    size_t slot = 0;
    char after_comma = 0; /* closing bracket that would make a trailing comma */

    for (;;) {
        /* A value starts at i (whitespace already skipped). */
        if (i >= n) {
            fail_value(p, i, 0);
            return -1;
        }
        unsigned c = s[i];
        int deferred = 0;
        if (p->hook && kind == SLOT_MEMBER && p->depth == 1 && (c == '[' || c == '{')) {
            deferred = defer_member(p, slot, &i);
            if (deferred < 0)
                return -1;
        }
        if (deferred) {
            /* consumed by the hook: i is past the value */
        } else if (c == '{' || c == '[') {
            if (p->depth >= p->max_depth) {
                fail(p, ANIM_ERR_LIMIT, i, "nesting deeper than %zu levels", p->max_depth);
                return -1;
            }
            if (p->depth == p->frame_cap &&
                !anim_grow((void **)&p->frames, &p->frame_cap, p->depth + 1, sizeof *p->frames)) {
                fail_nomem(p, i);
                return -1;
            }
            frame *f = &p->frames[p->depth++];
            f->is_object = c == '{';
            f->kind = kind;
            f->slot = slot;
            f->offset = i;
            f->base = f->is_object ? p->member_count : p->item_count;
            i = skip_ws(s, i + 1, n);
            if (f->is_object) {
                if (i < n && s[i] == '"') {
                    if (parse_key(p, &i) != 0)
                        return -1;
                    kind = SLOT_MEMBER;
                    slot = p->member_count - 1;
                    after_comma = 0;
                    continue;
                }
                if (i >= n || s[i] != '}') {
                    fail_key(p, i, false);
                    return -1;
                }
            } else {
                if (i >= n || s[i] != ']') {
                    if (!push_item(p, i))
                        return -1;
                    kind = SLOT_ITEM;
                    slot = p->item_count - 1;
                    after_comma = 0;
                    continue;
                }
            }
            /* Empty container: closed right away below. */
            if (close_container(p, root, i) != 0)
                return -1;
            i++;
        } else {
            anim_json_value *v = slot_ptr(p, root, kind, slot);
            int rc;
            if (c == '"') {
                v->type = ANIM_JSON_STRING;
                v->flags = 0;
                v->offset = (uint32_t)i;
                rc = parse_string(p, &i, &v->u.string, &v->len);
            } else if (c == '-' || is_digit(c)) {
                rc = parse_number(p, &i, v);
            } else if (c == 't' || c == 'f' || c == 'n') {
                rc = parse_literal(p, &i, v);
            } else {
                fail_value(p, i, after_comma);
                return -1;
            }
            if (rc != 0)
                return -1;
        }

        /* A value ended just before i: continue the enclosing container,
         * closing as many as end here. */
        for (;;) {
            i = skip_ws(s, i, n);
            if (p->depth == 0) {
                if (i < n) {
                    fail(p, ANIM_ERR_PARSE, i, "trailing characters after the JSON value");
                    return -1;
                }
                return 0;
            }
            if (i >= n) {
                fail(p, ANIM_ERR_PARSE, n, "unexpected end of input (unclosed %s opened at byte %zu)",
                     p->frames[p->depth - 1].is_object ? "object" : "array",
                     p->frames[p->depth - 1].offset);
                return -1;
            }
            c = s[i];
            frame *f = &p->frames[p->depth - 1];
            if (c == ',') {
                i = skip_ws(s, i + 1, n);
                if (f->is_object) {
                    if (i >= n || s[i] != '"') {
                        fail_key(p, i, true);
                        return -1;
                    }
                    if (parse_key(p, &i) != 0)
                        return -1;
                    kind = SLOT_MEMBER;
                    slot = p->member_count - 1;
                    after_comma = '}';
                } else {
                    if (!push_item(p, i))
                        return -1;
                    kind = SLOT_ITEM;
                    slot = p->item_count - 1;
                    after_comma = ']';
                }
                break; /* parse the next value */
            }
            if (c == (f->is_object ? '}' : ']')) {
                if (close_container(p, root, i) != 0)
                    return -1;
                i++;
                continue;
            }
            char what[32];
            describe_byte(p, i, what, sizeof what);
            if (f->is_object)
                fail(p, ANIM_ERR_PARSE, i, "expected ',' or '}' after object member but found %s",
                     what);
            else
                fail(p, ANIM_ERR_PARSE, i, "expected ',' or ']' after array element but found %s",
                     what);
            return -1;
        }
    }
}

/* First slab: the tree takes about 2-3 bytes per byte of glTF text. */
static size_t first_slab(size_t len)
{
    size_t slab = len > SLAB_MAX / 2 ? SLAB_MAX : len * 2;
    return slab < SLAB_MIN ? SLAB_MIN : slab;
}

anim_json_value *anim_json_parse(anim_arena *arena, const char *text, size_t len,
                                 const anim_json_limits *limits, anim_error *err)
{
    return json_parse_hooked(arena, text, len, limits, NULL, NULL, err);
}

anim_json_value *json_parse_hooked(anim_arena *arena, const char *text, size_t len,
                                   const anim_json_limits *limits, json_member_hook hook,
                                   void *hook_user, anim_error *err)
{
    if (!arena || (!text && len)) {
        anim_error_set(err, ANIM_ERR_USAGE, "anim_json_parse: no arena or no text");
        return NULL;
    }
    size_t max_depth = limits && limits->max_depth ? limits->max_depth : DEFAULT_MAX_DEPTH;
    size_t max_bytes = limits && limits->max_bytes ? limits->max_bytes : DEFAULT_MAX_BYTES;
    if (max_bytes > MAX_BYTES_REACH)
        max_bytes = MAX_BYTES_REACH;
    if (len > max_bytes) {
        anim_error_set(err, ANIM_ERR_LIMIT,
                       "input of %zu bytes is larger than the limit of %zu bytes", len,
                       max_bytes);
        return NULL;
    }
    parser p = {0};
    p.s = (const unsigned char *)text;
    p.n = len;
    p.arena = arena;
    p.err = err;
    p.max_depth = max_depth;
    p.slab_next = first_slab(len);
    p.hook = hook;
    p.hook_user = hook_user;

    if (len >= 3 && p.s[0] == 0xef && p.s[1] == 0xbb && p.s[2] == 0xbf) {
        fail(&p, ANIM_ERR_PARSE, 0,
             "input starts with a UTF-8 byte order mark (U+FEFF), which JSON forbids");
        return NULL;
    }
    anim_json_value root;
    memset(&root, 0, sizeof root);
    anim_json_value *out = NULL;
    if (parse_document(&p, &root) == 0) {
        out = out_alloc(&p, sizeof *out);
        if (out)
            *out = root;
        else
            fail_nomem(&p, 0);
    }
    parser_free(&p);
    return out;
}

/* ---------------------------------------------------------------- deferred */

const anim_json_value *anim_json_expand(const anim_json_value *cv)
{
    if (!cv || !(cv->flags & ANIM_JSON_F_DEFERRED))
        return cv;
    /* Deferred values live in members arrays the parser carved from the
     * arena: writable memory, handed out const only to keep readers from
     * writing. */
    anim_json_value *v = (anim_json_value *)(uintptr_t)cv;
    const struct anim_json_deferred *d = v->u.deferred;
    parser p = {0};
    p.s = (const unsigned char *)d->text;
    p.n = d->end;
    p.start = d->start;
    p.arena = d->arena;
    p.err = NULL; /* the hook validated the text: only memory can fail */
    p.max_depth = d->max_depth;
    p.slab_next = first_slab(d->end - d->start);
    anim_json_value root;
    memset(&root, 0, sizeof root);
    int rc = parse_document(&p, &root);
    parser_free(&p);
    uint32_t key_len = v->key_len;
    if (rc == 0) {
        *v = root;
    } else {
        size_t at = d->start;
        memset(v, 0, sizeof *v);
        v->type = ANIM_JSON_NULL;
        v->offset = (uint32_t)at;
    }
    v->key_len = key_len;
    return v;
}

/* ---------------------------------------------------------------- scans */

int json_scan_string(const char *text, size_t len, size_t *pos, bool *escaped)
{
    parser p = {0};
    p.s = (const unsigned char *)text;
    p.n = len;
    return scan_string(&p, pos, escaped);
}

int json_scan_number(const char *text, size_t len, size_t *pos, anim_json_value *v)
{
    parser p = {0};
    p.s = (const unsigned char *)text;
    p.n = len;
    return parse_number(&p, pos, v);
}

const anim_json_value *json_get_raw(const anim_json_value *obj, const char *key,
                                    size_t key_len)
{
    if (!obj || obj->type != ANIM_JSON_OBJECT || (obj->flags & ANIM_JSON_F_DEFERRED))
        return NULL;
    const anim_json_member *m = obj->u.members;
    for (size_t i = 0; i < obj->len; i++)
        if (m[i].value.key_len == key_len && memcmp(m[i].key, key, key_len) == 0)
            return &m[i].value;
    return NULL;
}

/* ---------------------------------------------------------------- access */

const anim_json_value *anim_json_get_n(const anim_json_value *obj, const char *key,
                                       size_t key_len)
{
    if (!key)
        return NULL;
    obj = anim_json_expand(obj);
    return anim_json_expand(json_get_raw(obj, key, key_len));
}

const anim_json_value *anim_json_get(const anim_json_value *obj, const char *key)
{
    return key ? anim_json_get_n(obj, key, strlen(key)) : NULL;
}

bool anim_json_string_eq(const anim_json_value *v, const char *str)
{
    if (!v || v->type != ANIM_JSON_STRING)
        return false;
    size_t n = strlen(str);
    return v->len == n && memcmp(v->u.string, str, n) == 0;
}

char *anim_json_strdup(anim_arena *arena, const anim_json_value *v)
{
    if (!v || v->type != ANIM_JSON_STRING)
        return NULL;
    return anim_arena_strndup(arena, v->u.string, v->len);
}

const char *anim_json_type_name(anim_json_type type)
{
    switch (type) {
    case ANIM_JSON_NULL: return "null";
    case ANIM_JSON_FALSE:
    case ANIM_JSON_TRUE: return "boolean";
    case ANIM_JSON_NUMBER: return "number";
    case ANIM_JSON_STRING: return "string";
    case ANIM_JSON_ARRAY: return "array";
    case ANIM_JSON_OBJECT: return "object";
    }
    return "unknown";
}
