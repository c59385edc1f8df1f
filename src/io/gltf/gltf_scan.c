/* The JSON hook for the glTF reader's large arrays: "bufferViews",
 * "accessors" and "animations" are validated and recorded straight from the
 * text during the JSON pass, and their tree is never built unless someone
 * asks for it (see json_internal.h for why).
 *
 * The scanner is optimistic: it accepts only the shapes exporters write
 * (known keys with plain values, unknown keys with scalar values) and
 * declines anything else, which sends the whole array back to the JSON
 * parser and the tree-based readers. So it never has to produce a message:
 * a syntax error, an escaped key, a "extras" object, a negative index or
 * a float where an integer belongs all decline, and the reference path
 * reports them exactly as before. What it accepts it must validate
 * completely (grammar, UTF-8, duplicate keys), because the parser trusts
 * it for those bytes. */
#include "io/gltf/gltf_internal.h"
#include "io/json/json_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *s;
    size_t n, i;
} cur;

static inline void ws(cur *c)
{
    while (c->i < c->n) {
        unsigned ch = c->s[c->i];
        if (ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t')
            break;
        c->i++;
    }
}

/* The next byte after whitespace, or -1 at the end. */
static inline int peek(cur *c)
{
    ws(c);
    return c->i < c->n ? c->s[c->i] : -1;
}

static inline bool is_digit(int ch)
{
    return ch >= '0' && ch <= '9';
}

/* A string at c->i (its opening quote) without escapes: *str, *len are the
 * raw bytes (valid UTF-8). Escaped strings decline: their decoded value
 * would need a copy, and they are rare where the values matter. */
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Nonzero when any of the 8 bytes is '"', '\\', < 0x20 or >= 0x80 (the
 * SWAR zero-byte tests; exact about whether such a byte exists). */
static inline uint64_t swar_special(uint64_t w)
{
    uint64_t quote = w ^ (ONES * '"');
    uint64_t bslash = w ^ (ONES * '\\');
    uint64_t t = ((quote - ONES) & ~quote) | ((bslash - ONES) & ~bslash) |
                 ((w - ONES * 0x20) & ~w) | w;
    return t & HIGHS;
}

/* Jumping straight to the first special byte needs its index from the
 * mask: the lowest flagged byte is exact (the subtraction tricks only
 * flag false bytes above a true one), and it is the first in memory on a
 * little-endian host. Elsewhere the byte loop below finds it. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FIRST_SPECIAL(mask) ((size_t)__builtin_ctzll(mask) >> 3)
#endif

static bool read_str(cur *c, const char **str, size_t *len)
{
    size_t j = c->i + 1;
    while (j + 8 <= c->n) {
        uint64_t w;
        memcpy(&w, c->s + j, 8);
        uint64_t m = swar_special(w);
        if (m) {
#ifdef FIRST_SPECIAL
            j += FIRST_SPECIAL(m);
#endif
            break;
        }
        j += 8;
    }
    while (j < c->n) {
        unsigned ch = c->s[j];
        if (ch == '"') {
            *str = (const char *)c->s + c->i + 1;
            *len = j - c->i - 1;
            c->i = j + 1;
            return true;
        }
        if (ch < 0x20 || ch == '\\' || ch >= 0x80)
            break;
        j++;
    }
    size_t pos = c->i;
    bool escaped;
    if (json_scan_string((const char *)c->s, c->n, &pos, &escaped) != 0 || escaped)
        return false;
    *str = (const char *)c->s + c->i + 1;
    *len = pos - c->i - 2;
    c->i = pos;
    return true;
}

/* A plain non-negative integer literal of at most 19 digits (anything else,
 * including a leading zero, a fraction or an exponent, declines: the byte
 * after it is not a structural one, or the value needs the literal). */
static bool read_uint(cur *c, uint64_t *out)
{
    size_t i = c->i;
    if (i >= c->n || !is_digit(c->s[i]))
        return false;
    uint64_t v = (uint64_t)(c->s[i] - '0');
    size_t end = i + 1;
    if (v != 0) {
        size_t max = i + 19 < c->n ? i + 19 : c->n;
        while (end < max && is_digit(c->s[end]))
            v = v * 10 + (uint64_t)(c->s[end++] - '0');
    }
    if (end < c->n && (is_digit(c->s[end]) || c->s[end] == '.' || c->s[end] == 'e' ||
                       c->s[end] == 'E'))
        return false;
    c->i = end;
    *out = v;
    return true;
}

/* The value of a member this scanner ignores: scalars only (strings with
 * any valid escapes, numbers, literals). Containers decline. */
static bool skip_scalar(cur *c)
{
    int ch = c->i < c->n ? c->s[c->i] : -1;
    if (ch == '"') {
        bool escaped;
        return json_scan_string((const char *)c->s, c->n, &c->i, &escaped) == 0;
    }
    if (ch == '-' || is_digit(ch)) {
        anim_json_value v;
        return json_scan_number((const char *)c->s, c->n, &c->i, &v) == 0;
    }
    static const char *const words[] = {"true", "false", "null"};
    for (int w = 0; w < 3; w++) {
        size_t wl = strlen(words[w]);
        if (ch == words[w][0] && c->n - c->i >= wl && memcmp(c->s + c->i, words[w], wl) == 0) {
            c->i += wl;
            return true;
        }
    }
    return false;
}

/* Keys of one object the scanner does not know, for the duplicate check
 * (known keys use a bit each). More than a few declines. */
typedef struct {
    const char *key[8];
    size_t len[8];
    int count;
} unknown_keys;

static bool unknown_key(unknown_keys *u, const char *k, size_t kl)
{
    for (int i = 0; i < u->count; i++)
        if (u->len[i] == kl && memcmp(u->key[i], k, kl) == 0)
            return false; /* duplicate: the parser names it */
    if (u->count == 8)
        return false;
    u->key[u->count] = k;
    u->len[u->count++] = kl;
    return true;
}

/* Known keys are matched whole, closing quote included, by fixed-size
 * compares instead of being scanned byte by byte (the scan was the largest
 * cost of the pass): a match is a valid JSON string without escapes.
 * A matcher returns the key's length, or 0 to read the key generally. */
typedef size_t (*key_matcher)(const unsigned char *q, size_t avail); /* avail >= 1 */
#define LIT(lit) (avail >= sizeof lit && memcmp(q, lit "\"", sizeof lit) == 0 ? sizeof lit - 1 : 0)

static size_t view_keys(const unsigned char *q, size_t avail)
{
    size_t m = 0;
    if (q[0] == 'b')
        (void)((m = LIT("buffer")) || (m = LIT("byteOffset")) || (m = LIT("byteLength")) ||
               (m = LIT("byteStride")));
    return m;
}

static size_t accessor_keys(const unsigned char *q, size_t avail)
{
    size_t m = 0;
    switch (q[0]) {
    case 'b': (void)((m = LIT("bufferView")) || (m = LIT("byteOffset"))); break;
    case 'c': (void)((m = LIT("componentType")) || (m = LIT("count"))); break;
    case 't': m = LIT("type"); break;
    case 'm': (void)((m = LIT("min")) || (m = LIT("max"))); break;
    case 'n': m = LIT("normalized"); break;
    default: break;
    }
    return m;
}

static size_t sampler_keys(const unsigned char *q, size_t avail)
{
    size_t m = 0;
    switch (q[0]) {
    case 'i': (void)((m = LIT("input")) || (m = LIT("interpolation"))); break;
    case 'o': m = LIT("output"); break;
    default: break;
    }
    return m;
}

static size_t channel_keys(const unsigned char *q, size_t avail)
{
    size_t m = 0;
    switch (q[0]) {
    case 's': m = LIT("sampler"); break;
    case 't': m = LIT("target"); break;
    case 'n': m = LIT("node"); break;
    case 'p': m = LIT("path"); break;
    default: break;
    }
    return m;
}

static size_t animation_keys(const unsigned char *q, size_t avail)
{
    size_t m = 0;
    switch (q[0]) {
    case 'n': m = LIT("name"); break;
    case 's': m = LIT("samplers"); break;
    case 'c': m = LIT("channels"); break;
    default: break;
    }
    return m;
}

/* The same for the string values that repeat in every object. */
static size_t type_values(const unsigned char *q, size_t avail)
{
    size_t m = 0;
    switch (q[0]) {
    case 'S': m = LIT("SCALAR"); break;
    case 'V': (void)((m = LIT("VEC3")) || (m = LIT("VEC4")) || (m = LIT("VEC2"))); break;
    case 'M': (void)((m = LIT("MAT4")) || (m = LIT("MAT3")) || (m = LIT("MAT2"))); break;
    default: break;
    }
    return m;
}

static size_t interp_values(const unsigned char *q, size_t avail)
{
    size_t m = 0;
    switch (q[0]) {
    case 'L': m = LIT("LINEAR"); break;
    case 'S': m = LIT("STEP"); break;
    case 'C': m = LIT("CUBICSPLINE"); break;
    default: break;
    }
    return m;
}

static size_t path_values(const unsigned char *q, size_t avail)
{
    size_t m = 0;
    switch (q[0]) {
    case 't': m = LIT("translation"); break;
    case 'r': m = LIT("rotation"); break;
    case 's': m = LIT("scale"); break;
    case 'w': m = LIT("weights"); break;
    default: break;
    }
    return m;
}

/* A string value at c->i: the matcher's literals first, else read_str. */
static inline bool read_value_str(cur *c, key_matcher match, const char **str, size_t *len)
{
    if (c->s[c->i] != '"')
        return false;
    size_t m = c->i + 1 < c->n ? match(c->s + c->i + 1, c->n - c->i - 1) : 0;
    if (!m)
        return read_str(c, str, len);
    *str = (const char *)c->s + c->i + 1;
    *len = m;
    c->i += m + 2;
    return true;
}

/* Object members: call with *first = true just after '{'. Returns 1 with
 * the key read and c->i at its value, 0 when the object closed, -1 to
 * decline. */
static inline int next_key(cur *c, bool *first, key_matcher match, const char **k, size_t *kl)
{
    int ch = peek(c);
    if (ch == '}') {
        c->i++;
        return 0;
    }
    if (!*first) {
        if (ch != ',')
            return -1;
        c->i++;
        ch = peek(c);
    }
    *first = false;
    if (ch != '"')
        return -1;
    size_t m = c->i + 1 < c->n ? match(c->s + c->i + 1, c->n - c->i - 1) : 0;
    if (m) {
        *k = (const char *)c->s + c->i + 1;
        *kl = m;
        c->i += m + 2;
    } else if (!read_str(c, k, kl)) {
        return -1;
    }
    if (peek(c) != ':')
        return -1;
    c->i++;
    ws(c);
    return c->i < c->n ? 1 : -1; /* so callers may read c->s[c->i] */
}

/* Array items: like next_key; 1 with c->i at the item. */
static int next_item(cur *c, bool *first)
{
    int ch = peek(c);
    if (ch == ']') {
        c->i++;
        return 0;
    }
    if (!*first) {
        if (ch != ',')
            return -1;
        c->i++;
        ws(c);
    }
    *first = false;
    return c->i < c->n ? 1 : -1;
}

static inline bool open_at(cur *c, int ch)
{
    if (c->i >= c->n || c->s[c->i] != ch)
        return false;
    c->i++;
    return true;
}

#define KEY(lit) (kl == sizeof lit - 1 && memcmp(k, lit, sizeof lit - 1) == 0)

/* Grows a vector by one element; NULL when out of memory (declines). */
static void *push(void **data, size_t *count, size_t *cap, size_t elem)
{
    if (*count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 256, bytes;
        if (!anim_size_mul(ncap, elem, &bytes))
            return NULL;
        void *p = realloc(*data, bytes);
        if (!p)
            return NULL;
        gltf_advise_huge(p, bytes);
        *data = p;
        *cap = ncap;
    }
    return (char *)*data + (*count)++ * elem;
}

#define PUSH(sc, vec) \
    push((void **)&(sc)->vec, &(sc)->vec##_count, &(sc)->vec##_cap, sizeof *(sc)->vec)

/* ---------------------------------------------------------------- views */

static bool scan_view(gltf_scan *sc, cur *c)
{
    gltf_view_rec *r = PUSH(sc, views);
    if (!r || !open_at(c, '{'))
        return false;
    memset(r, 0, sizeof *r);
    unknown_keys u;
    u.count = 0; /* (not "= {0}": zeroing 128 bytes per object showed in profiles) */
    bool first = true;
    const char *k;
    size_t kl;
    int more;
    while ((more = next_key(c, &first, view_keys, &k, &kl)) == 1) {
        uint64_t *dst = NULL;
        unsigned bit = 0;
        if (KEY("buffer"))
            dst = &r->buffer, bit = VR_BUFFER;
        else if (KEY("byteOffset"))
            dst = &r->byte_offset, bit = VR_OFFSET;
        else if (KEY("byteLength"))
            dst = &r->byte_length, bit = VR_LENGTH;
        else if (KEY("byteStride"))
            dst = &r->byte_stride, bit = VR_STRIDE;
        if (dst) {
            if ((r->has & bit) || !read_uint(c, dst))
                return false;
            r->has |= (uint8_t)bit;
        } else if (!unknown_key(&u, k, kl) || !skip_scalar(c)) {
            return false;
        }
    }
    return more == 0;
}

/* ---------------------------------------------------------------- accessors */

static bool scan_numbers(gltf_scan *sc, cur *c, uint32_t *at, uint8_t *n)
{
    if (!open_at(c, '['))
        return false;
    *at = (uint32_t)sc->numbers_count;
    if (sc->numbers_count > UINT32_MAX - 16)
        return false;
    *n = 0;
    bool first = true;
    int more;
    while ((more = next_item(c, &first)) == 1) {
        int ch = c->s[c->i];
        anim_json_value v;
        if (*n == 16 || !(ch == '-' || is_digit(ch)) ||
            json_scan_number((const char *)c->s, c->n, &c->i, &v) != 0)
            return false;
        double *d = PUSH(sc, numbers);
        if (!d)
            return false;
        *d = anim_json_number(&v);
        (*n)++;
    }
    return more == 0;
}

static bool scan_accessor(gltf_scan *sc, cur *c)
{
    gltf_accessor_rec *r = PUSH(sc, accessors);
    if (!r || !open_at(c, '{'))
        return false;
    memset(r, 0, sizeof *r);
    unknown_keys u;
    u.count = 0;
    bool first = true;
    const char *k;
    size_t kl;
    int more;
    while ((more = next_key(c, &first, accessor_keys, &k, &kl)) == 1) {
        uint64_t *dst = NULL;
        unsigned bit = 0;
        if (KEY("bufferView"))
            dst = &r->buffer_view, bit = AR_VIEW;
        else if (KEY("byteOffset"))
            dst = &r->byte_offset, bit = AR_OFFSET;
        else if (KEY("componentType"))
            dst = &r->component_type, bit = AR_CTYPE;
        else if (KEY("count"))
            dst = &r->count, bit = AR_COUNT;
        if (dst) {
            if ((r->has & bit) || !read_uint(c, dst))
                return false;
            r->has |= (uint8_t)bit;
        } else if (KEY("type")) {
            const char *t;
            size_t tl;
            if ((r->has & AR_TYPE) || !read_value_str(c, type_values, &t, &tl))
                return false;
            r->type = (uint8_t)gltf_accessor_type_code(t, tl);
            if (!r->type)
                return false;
            r->has |= AR_TYPE;
        } else if (KEY("normalized")) {
            if (r->has & AR_NORMALIZED)
                return false;
            if (c->n - c->i >= 4 && memcmp(c->s + c->i, "true", 4) == 0) {
                r->normalized = 1;
                c->i += 4;
            } else if (c->n - c->i >= 5 && memcmp(c->s + c->i, "false", 5) == 0) {
                c->i += 5;
            } else {
                return false;
            }
            r->has |= AR_NORMALIZED;
        } else if (KEY("min")) {
            if ((r->has & AR_MIN) || !scan_numbers(sc, c, &r->min_at, &r->min_n))
                return false;
            r->has |= AR_MIN;
        } else if (KEY("max")) {
            if ((r->has & AR_MAX) || !scan_numbers(sc, c, &r->max_at, &r->max_n))
                return false;
            r->has |= AR_MAX;
        } else if (!unknown_key(&u, k, kl) || !skip_scalar(c)) {
            return false; /* "sparse", "extras", ... are read from the tree */
        }
    }
    return more == 0;
}

/* ---------------------------------------------------------------- animations */

static bool scan_sampler(gltf_scan *sc, cur *c)
{
    gltf_sampler_rec *r = PUSH(sc, samplers);
    if (!r || !open_at(c, '{'))
        return false;
    memset(r, 0, sizeof *r);
    unknown_keys u;
    u.count = 0;
    bool first = true;
    const char *k;
    size_t kl;
    int more;
    while ((more = next_key(c, &first, sampler_keys, &k, &kl)) == 1) {
        if (KEY("input")) {
            if ((r->has & SR_INPUT) || !read_uint(c, &r->input))
                return false;
            r->has |= SR_INPUT;
        } else if (KEY("output")) {
            if ((r->has & SR_OUTPUT) || !read_uint(c, &r->output))
                return false;
            r->has |= SR_OUTPUT;
        } else if (KEY("interpolation")) {
            const char *t;
            size_t tl;
            if (r->interp || !read_value_str(c, interp_values, &t, &tl))
                return false;
            if (tl == 6 && !memcmp(t, "LINEAR", 6))
                r->interp = 1 + ANIM_INTERP_LINEAR;
            else if (tl == 4 && !memcmp(t, "STEP", 4))
                r->interp = 1 + ANIM_INTERP_STEP;
            else if (tl == 11 && !memcmp(t, "CUBICSPLINE", 11))
                r->interp = 1 + ANIM_INTERP_CUBICSPLINE;
            else
                return false;
        } else if (!unknown_key(&u, k, kl) || !skip_scalar(c)) {
            return false;
        }
    }
    return more == 0;
}

static bool scan_target(gltf_channel_rec *r, cur *c)
{
    if (!open_at(c, '{'))
        return false;
    unknown_keys u;
    u.count = 0;
    bool first = true;
    const char *k;
    size_t kl;
    int more;
    while ((more = next_key(c, &first, channel_keys, &k, &kl)) == 1) {
        if (KEY("node")) {
            if ((r->has & CR_NODE) || !read_uint(c, &r->node))
                return false;
            r->has |= CR_NODE;
        } else if (KEY("path")) {
            const char *t;
            size_t tl;
            if ((r->has & CR_PATH) || !read_value_str(c, path_values, &t, &tl))
                return false;
            static const char *const paths[4] = {"translation", "rotation", "scale", "weights"};
            for (int p = 0; p < 4 && !r->path; p++)
                if (tl == strlen(paths[p]) && !memcmp(t, paths[p], tl))
                    r->path = (uint8_t)(1 + p);
            if (!r->path)
                return false;
            r->has |= CR_PATH;
        } else if (!unknown_key(&u, k, kl) || !skip_scalar(c)) {
            return false;
        }
    }
    return more == 0;
}

static bool scan_channel(gltf_scan *sc, cur *c)
{
    gltf_channel_rec *r = PUSH(sc, channels);
    if (!r || !open_at(c, '{'))
        return false;
    memset(r, 0, sizeof *r);
    unknown_keys u;
    u.count = 0;
    bool first = true;
    const char *k;
    size_t kl;
    int more;
    while ((more = next_key(c, &first, channel_keys, &k, &kl)) == 1) {
        if (KEY("sampler")) {
            if ((r->has & CR_SAMPLER) || !read_uint(c, &r->sampler))
                return false;
            r->has |= CR_SAMPLER;
        } else if (KEY("target")) {
            if ((r->has & CR_TARGET) || !scan_target(r, c))
                return false;
            r->has |= CR_TARGET;
        } else if (!unknown_key(&u, k, kl) || !skip_scalar(c)) {
            return false;
        }
    }
    return more == 0;
}

/* An array of objects, each read by one; *count gets the item count. */
static bool scan_array(gltf_scan *sc, cur *c, bool (*one)(gltf_scan *, cur *), size_t *count)
{
    if (!open_at(c, '['))
        return false;
    bool first = true;
    int more;
    *count = 0;
    while ((more = next_item(c, &first)) == 1) {
        if (!one(sc, c))
            return false;
        (*count)++;
    }
    return more == 0;
}

static bool scan_animation(gltf_scan *sc, cur *c)
{
    gltf_anim_rec *r = PUSH(sc, anims);
    if (!r || !open_at(c, '{'))
        return false;
    memset(r, 0, sizeof *r);
    size_t index = sc->anims_count - 1; /* the vectors move while the arrays are read */
    unknown_keys u;
    u.count = 0;
    bool first = true;
    const char *k;
    size_t kl;
    int more;
    while ((more = next_key(c, &first, animation_keys, &k, &kl)) == 1) {
        r = &sc->anims[index];
        if (KEY("name")) {
            const char *t;
            size_t tl;
            if ((r->has & AN_NAME) || c->s[c->i] != '"' || !read_str(c, &t, &tl))
                return false;
            r->name = t;
            r->name_len = tl;
            r->has |= AN_NAME;
        } else if (KEY("samplers")) {
            size_t at = sc->samplers_count, n;
            if ((r->has & AN_SAMPLERS) || !scan_array(sc, c, scan_sampler, &n))
                return false;
            r = &sc->anims[index];
            r->first_sampler = at;
            r->sampler_count = n;
            r->has |= AN_SAMPLERS;
        } else if (KEY("channels")) {
            size_t at = sc->channels_count, n;
            if ((r->has & AN_CHANNELS) || !scan_array(sc, c, scan_channel, &n))
                return false;
            r = &sc->anims[index];
            r->first_channel = at;
            r->channel_count = n;
            r->has |= AN_CHANNELS;
        } else if (!unknown_key(&u, k, kl) || !skip_scalar(c)) {
            return false;
        }
    }
    return more == 0;
}

/* ---------------------------------------------------------------- hook */

bool gltf_scan_hook(void *user, const char *key, size_t key_len, const char *text, size_t len,
                    size_t at, size_t *end, uint32_t *count)
{
    gltf_scan *sc = user;
    cur c = {(const unsigned char *)text, len, at};
    size_t n = 0;
    bool ok;
    const char *k = key;
    size_t kl = key_len;
    if (KEY("bufferViews") && !sc->views_done) {
        ok = scan_array(sc, &c, scan_view, &n);
        sc->views_done = ok;
        if (!ok)
            sc->views_count = 0;
    } else if (KEY("accessors") && !sc->accessors_done) {
        ok = scan_array(sc, &c, scan_accessor, &n);
        sc->accessors_done = ok;
        if (!ok)
            sc->accessors_count = sc->numbers_count = 0;
    } else if (KEY("animations") && !sc->anims_done) {
        ok = scan_array(sc, &c, scan_animation, &n);
        sc->anims_done = ok;
        if (!ok)
            sc->anims_count = sc->samplers_count = sc->channels_count = 0;
    } else {
        return false;
    }
    if (!ok || n > UINT32_MAX)
        return false; /* (n cannot reach 2^32 in a text below 4 GiB) */
    *end = c.i;
    *count = (uint32_t)n;
    return true;
}

void gltf_scan_free(gltf_scan *sc)
{
    free(sc->views);
    free(sc->accessors);
    free(sc->numbers);
    free(sc->anims);
    free(sc->samplers);
    free(sc->channels);
    memset(sc, 0, sizeof *sc);
}
