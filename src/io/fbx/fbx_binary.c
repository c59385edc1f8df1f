/* The binary FBX container (6.1 and 7.x): a 27-byte header, then nested
 * records whose header holds the absolute offset where the record ends,
 * its property count and the byte length of its property list. 7.5 and
 * later widen those three fields to 64 bits.
 *
 * Every offset is checked to lie inside the enclosing record before it is
 * followed, every length against the bytes that remain, and every array
 * against the array budget before anything is allocated. Children are
 * counted first by walking their end offsets, so each level allocates its
 * child array once, exactly sized; recursion is bounded by
 * ANIM_FBX_MAX_DEPTH. */
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <zlib.h>

#include "io/fbx/fbx_tree.h"

#define FBX_BINARY_HEADER 27u

typedef struct {
    const uint8_t *bytes;
    size_t len;
    anim_arena *arena;
    size_t budget; /* array bytes still allowed */
    bool wide;     /* 64-bit record headers (version >= 7500) */
    anim_error *err;
} bin_parser;

typedef struct {
    uint64_t end, num_props, prop_len;
    uint8_t name_len;
} rec_header;

static uint32_t rd_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd_u64(const uint8_t *p)
{
    return (uint64_t)rd_u32(p) | (uint64_t)rd_u32(p + 4) << 32;
}

static size_t header_size(const bin_parser *p)
{
    return p->wide ? 25u : 13u;
}

/* Reads a record header at pos (the caller checked header_size bytes fit). */
static rec_header read_header(const bin_parser *p, size_t pos)
{
    rec_header h;
    const uint8_t *b = p->bytes + pos;
    if (p->wide) {
        h.end = rd_u64(b);
        h.num_props = rd_u64(b + 8);
        h.prop_len = rd_u64(b + 16);
        h.name_len = b[24];
    } else {
        h.end = rd_u32(b);
        h.num_props = rd_u32(b + 4);
        h.prop_len = rd_u32(b + 8);
        h.name_len = b[12];
    }
    return h;
}

static bool is_null_header(const rec_header *h)
{
    return h->end == 0 && h->num_props == 0 && h->prop_len == 0 && h->name_len == 0;
}

static size_t elem_size(char t)
{
    switch (t) {
    case 'b': return 1;
    case 'i':
    case 'f': return 4;
    case 'l':
    case 'd': return 8;
    default: return 0;
    }
}

/* Little-endian file data into host order, in place (a no-op on the
 * little-endian hosts we build for, kept so a big-endian build is right). */
static void fix_endian(void *data, size_t count, size_t size)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint8_t *b = data;
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < size / 2; j++) {
            uint8_t t = b[i * size + j];
            b[i * size + j] = b[i * size + size - 1 - j];
            b[i * size + size - 1 - j] = t;
        }
#else
    (void)data;
    (void)count;
    (void)size;
#endif
}

/* Inflates exactly want bytes into out; anything else is an error. */
static int inflate_exact(bin_parser *p, const char *name, size_t at, uint32_t idx,
                         const uint8_t *src, size_t src_len, void *out, size_t want)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK)
        return anim_error_set(p->err, ANIM_ERR_NOMEM,
                              "record '%s' at byte %zu property %" PRIu32
                              ": cannot start inflating an array",
                              name, at, idx);
    /* zlib counts in uInt; arrays this large are refused by the budget
     * long before, but the guard keeps the casts exact. */
    if (src_len > UINT_MAX || want > UINT_MAX) {
        inflateEnd(&zs);
        return anim_error_set(p->err, ANIM_ERR_LIMIT,
                              "record '%s' at byte %zu property %" PRIu32
                              ": compressed array too large",
                              name, at, idx);
    }
    uint8_t scratch[1];
    zs.next_in = (Bytef *)(uintptr_t)src;
    zs.avail_in = (uInt)src_len;
    zs.next_out = want ? out : scratch;
    zs.avail_out = want ? (uInt)want : 0u;
    int rc = inflate(&zs, Z_FINISH);
    if (rc != Z_STREAM_END && zs.avail_out == 0 && rc != Z_DATA_ERROR && rc != Z_NEED_DICT &&
        rc != Z_MEM_ERROR) {
        /* The buffer is full: the stream must end without more output. */
        zs.next_out = scratch;
        zs.avail_out = sizeof scratch;
        rc = inflate(&zs, Z_FINISH);
        if (zs.avail_out == 0) {
            inflateEnd(&zs);
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at byte %zu property %" PRIu32
                                  ": compressed array inflates to more "
                                  "than the declared %zu bytes",
                                  name, at, idx, want);
        }
    }
    size_t got = (size_t)zs.total_out;
    size_t left_in = zs.avail_in;
    const char *msg = zs.msg;
    inflateEnd(&zs);
    if (rc == Z_STREAM_END) {
        if (got != want)
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at byte %zu property %" PRIu32
                                  ": compressed array inflates to %zu "
                                  "bytes, declared %zu",
                                  name, at, idx, got, want);
        if (left_in != 0)
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at byte %zu property %" PRIu32
                                  ": %zu bytes after the end of a "
                                  "compressed array",
                                  name, at, idx, left_in);
        return 0;
    }
    if (rc == Z_MEM_ERROR)
        return anim_error_set(p->err, ANIM_ERR_NOMEM,
                              "record '%s' at byte %zu property %" PRIu32
                              ": out of memory inflating an array",
                              name, at, idx);
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at byte %zu property %" PRIu32
                              ": corrupt compressed array (%s)",
                              name, at, idx, msg ? msg : "invalid data");
    return anim_error_set(p->err, ANIM_ERR_PARSE,
                          "record '%s' at byte %zu property %" PRIu32
                          ": compressed array is truncated "
                          "(%zu of %zu bytes)",
                          name, at, idx, got, want);
}

/* One array property at *pos (after the type code), ending by lim. */
static int read_array(bin_parser *p, const char *name, size_t at, uint32_t idx, size_t *pos,
                      size_t lim, char t, anim_fbx_prop *out)
{
    if (lim - *pos < 12)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at byte %zu property %" PRIu32
                              ": array header runs past the property list",
                              name, at, idx);
    uint32_t count = rd_u32(p->bytes + *pos);
    uint32_t enc = rd_u32(p->bytes + *pos + 4);
    uint32_t clen = rd_u32(p->bytes + *pos + 8);
    *pos += 12;
    size_t size = elem_size(t), bytes;
    if (!anim_size_mul(count, size, &bytes) || bytes > p->budget)
        return anim_error_set(p->err, ANIM_ERR_LIMIT,
                              "record '%s' at byte %zu property %" PRIu32 ": array of %" PRIu32
                              " elements exceeds the remaining array budget of %zu bytes",
                              name, at, idx, count, p->budget);
    if (clen > lim - *pos)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at byte %zu property %" PRIu32 ": array data of %" PRIu32
                              " bytes runs past the property list",
                              name, at, idx, clen);
    if (enc == 0 && clen != bytes)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at byte %zu property %" PRIu32 ": raw array of %" PRIu32
                              " elements has %" PRIu32 " bytes, expected %zu",
                              name, at, idx, count, clen, bytes);
    if (enc > 1)
        return anim_error_set(p->err, ANIM_ERR_UNSUPPORTED,
                              "record '%s' at byte %zu property %" PRIu32
                              ": unknown array encoding %" PRIu32,
                              name, at, idx, enc);
    void *data = anim_arena_alloc(p->arena, bytes);
    if (!data)
        return anim_error_set(p->err, ANIM_ERR_NOMEM,
                              "record '%s' at byte %zu property %" PRIu32 ": out of memory", name,
                              at, idx);
    p->budget -= bytes;
    if (enc == 0) {
        if (bytes)
            memcpy(data, p->bytes + *pos, bytes);
    } else if (inflate_exact(p, name, at, idx, p->bytes + *pos, clen, data, bytes) != 0) {
        return -1;
    }
    fix_endian(data, count, size);
    *pos += clen;
    out->array = data;
    out->count = count;
    return 0;
}

/* One property at *pos, ending by lim (the end of the property list). */
static int read_prop(bin_parser *p, const char *name, size_t at, uint32_t idx, size_t *pos,
                     size_t lim, anim_fbx_prop *out)
{
    if (*pos >= lim)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at byte %zu property %" PRIu32
                              ": property list ends early",
                              name, at, idx);
    char t = (char)p->bytes[(*pos)++];
    memset(out, 0, sizeof *out);
    out->type = t;
    static const char scalar_types[] = "CYILFD";
    const char *sc = strchr(scalar_types, t);
    if (t != 0 && sc) {
        static const uint8_t sizes[] = {1, 2, 4, 8, 4, 8};
        size_t n = sizes[sc - scalar_types];
        if (lim - *pos < n)
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at byte %zu property %" PRIu32
                                  ": property '%c' runs past the "
                                  "property list",
                                  name, at, idx, t);
        const uint8_t *b = p->bytes + *pos;
        *pos += n;
        switch (t) {
        case 'C': out->scalar.i = b[0]; break; /* a byte: 0/1 for booleans, a letter in 6.1 keys */
        case 'Y': out->scalar.i = (int16_t)(uint16_t)(b[0] | b[1] << 8); break;
        case 'I': out->scalar.i = (int32_t)rd_u32(b); break;
        case 'L': out->scalar.i = (int64_t)rd_u64(b); break;
        case 'F': {
            uint32_t u = rd_u32(b);
            float f;
            memcpy(&f, &u, sizeof f);
            out->scalar.f = f;
            break;
        }
        default: {
            uint64_t u = rd_u64(b);
            double d;
            memcpy(&d, &u, sizeof d);
            out->scalar.f = d;
            break;
        }
        }
        return 0;
    }
    if (t == 'S' || t == 'R') {
        if (lim - *pos < 4)
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at byte %zu property %" PRIu32
                                  ": string length runs past the "
                                  "property list",
                                  name, at, idx);
        uint32_t n = rd_u32(p->bytes + *pos);
        *pos += 4;
        if (n > lim - *pos)
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at byte %zu property %" PRIu32 ": string of %" PRIu32
                                  " bytes runs past the property list",
                                  name, at, idx, n);
        char *s = anim_arena_strndup(p->arena, (const char *)p->bytes + *pos, n);
        if (!s)
            return anim_error_set(p->err, ANIM_ERR_NOMEM,
                                  "record '%s' at byte %zu property %" PRIu32 ": out of memory",
                                  name, at, idx);
        *pos += n;
        out->bytes = s;
        out->len = n;
        return 0;
    }
    if (elem_size(t))
        return read_array(p, name, at, idx, pos, lim, t, out);
    return anim_error_set(p->err, ANIM_ERR_PARSE,
                          "record '%s' at byte %zu property %" PRIu32
                          ": unknown property type 0x%02x",
                          name, at, idx, (unsigned)(uint8_t)t);
}

static int read_records(bin_parser *p, size_t pos, size_t end, bool top, unsigned depth,
                        anim_fbx_node *parent);

/* One record at pos whose header h was validated against end. */
static int read_record(bin_parser *p, size_t pos, const rec_header *h, unsigned depth,
                       anim_fbx_node *out)
{
    size_t hs = header_size(p);
    size_t rec_end = (size_t)h->end;
    size_t q = pos + hs;
    if (h->name_len > rec_end - q)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record at byte %zu: name runs past the record end %zu", pos,
                              rec_end);
    if (!anim_fbx_name_printable((const char *)p->bytes + q, h->name_len))
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record at byte %zu: the record name holds a byte that is not "
                              "printable ASCII",
                              pos);
    char *name = anim_arena_strndup(p->arena, (const char *)p->bytes + q, h->name_len);
    if (!name)
        return anim_error_set(p->err, ANIM_ERR_NOMEM, "record at byte %zu: out of memory", pos);
    q += h->name_len;
    out->name = name;
    out->where = pos;
    if (h->prop_len > rec_end - q)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at byte %zu: property list of %" PRIu64
                              " bytes runs past the record end %zu",
                              name, pos, h->prop_len, rec_end);
    /* Each property takes at least 2 bytes, so the count is bounded by the
     * list length before it sizes an allocation. */
    if (h->num_props > h->prop_len / 2 || h->num_props > UINT32_MAX)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at byte %zu: %" PRIu64
                              " properties cannot fit in a property list of %" PRIu64 " bytes",
                              name, pos, h->num_props, h->prop_len);
    size_t plim = q + (size_t)h->prop_len;
    if (h->num_props) {
        out->props = anim_arena_calloc(p->arena, (size_t)h->num_props, sizeof *out->props);
        if (!out->props)
            return anim_error_set(p->err, ANIM_ERR_NOMEM, "record '%s' at byte %zu: out of memory",
                                  name, pos);
    }
    out->prop_count = (uint32_t)h->num_props;
    for (uint32_t i = 0; i < out->prop_count; i++)
        if (read_prop(p, name, pos, i, &q, plim, &out->props[i]) != 0)
            return -1;
    if (q != plim)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at byte %zu: properties use %zu bytes, the list "
                              "declares %" PRIu64,
                              name, pos, q - (plim - (size_t)h->prop_len), h->prop_len);
    if (q == rec_end)
        return 0;
    if (depth + 1 > ANIM_FBX_MAX_DEPTH)
        return anim_error_set(p->err, ANIM_ERR_LIMIT,
                              "record '%s' at byte %zu: nesting deeper than %u records", name, pos,
                              ANIM_FBX_MAX_DEPTH);
    return read_records(p, q, rec_end, false, depth + 1, out);
}

/* Validates the header at pos against end; sets *is_null. */
static int check_header(bin_parser *p, size_t pos, size_t end, bool top, const char *parent,
                        rec_header *h, bool *is_null)
{
    size_t hs = header_size(p);
    if (end - pos < hs) {
        if (top && end - pos == 0)
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "file ends at byte %zu without the closing null record", pos);
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record at byte %zu in '%s': header runs past byte %zu", pos, parent,
                              end);
    }
    *h = read_header(p, pos);
    *is_null = is_null_header(h);
    if (*is_null)
        return 0;
    if (h->end <= pos + hs || h->end > end)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record at byte %zu in '%s': end offset %" PRIu64 " outside %zu..%zu",
                              pos, parent, h->end, pos + hs + 1, end);
    return 0;
}

/* The records from pos up to end (a parent's nested list, ended by a null
 * record or by end exactly; the top level, ended by the first null
 * record, the footer after it ignored). */
static int read_records(bin_parser *p, size_t pos, size_t end, bool top, unsigned depth,
                        anim_fbx_node *parent)
{
    const char *pname = top ? "<top level>" : parent->name;
    size_t hs = header_size(p);
    /* Pass 1: count the children by their end offsets. */
    uint32_t count = 0;
    size_t q = pos;
    for (;;) {
        if (!top && q == end)
            break;
        rec_header h;
        bool is_null;
        if (check_header(p, q, end, top, pname, &h, &is_null) != 0)
            return -1;
        if (is_null) {
            if (!top && q + hs != end)
                return anim_error_set(p->err, ANIM_ERR_PARSE,
                                      "record '%s' at byte %" PRIu64
                                      ": null record at byte %zu closes the nested records "
                                      "before the record end at byte %zu",
                                      pname, parent->where, q, end);
            break;
        }
        if (count == UINT32_MAX)
            return anim_error_set(p->err, ANIM_ERR_LIMIT, "record '%s': too many children", pname);
        count++;
        q = (size_t)h.end;
    }
    if (count == 0)
        return 0;
    parent->children = anim_arena_calloc(p->arena, count, sizeof *parent->children);
    if (!parent->children)
        return anim_error_set(p->err, ANIM_ERR_NOMEM, "record '%s': out of memory", pname);
    parent->child_count = count;
    /* Pass 2: parse them (their headers were validated above). */
    q = pos;
    for (uint32_t i = 0; i < count; i++) {
        rec_header h = read_header(p, q);
        if (read_record(p, q, &h, depth, &parent->children[i]) != 0)
            return -1;
        q = (size_t)h.end;
    }
    return 0;
}

int anim_fbx_parse_binary(const uint8_t *bytes, size_t len, anim_arena *arena, size_t array_budget,
                          anim_fbx_tree *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    out->root.name = "";
    if (len < FBX_BINARY_HEADER ||
        memcmp(bytes, ANIM_FBX_BINARY_MAGIC, sizeof ANIM_FBX_BINARY_MAGIC) != 0)
        return anim_error_set(err, ANIM_ERR_PARSE, "not a binary FBX file (no Kaydara header)");
    out->version = rd_u32(bytes + 23);
    out->ascii = false;
    if (out->version < 6000 || out->version >= 10000)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "binary FBX version %" PRIu32 " is not supported (6.x and 7.x are)",
                              out->version);
    bin_parser p = {bytes, len, arena, array_budget, out->version >= 7500, err};
    return read_records(&p, FBX_BINARY_HEADER, len, true, 1, &out->root);
}
