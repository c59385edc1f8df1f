/* Streaming JSON writer (see json_write.h for the layout contract). */
#include "animsmith/json_write.h"
#include "animsmith/utf8.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/numfmt.h"

void anim_json_writer_init(anim_json_writer *w, anim_strbuf *out, bool pretty)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->pretty = pretty;
}

void anim_json_writer_init_nested(anim_json_writer *w, anim_strbuf *out, bool pretty,
                                  uint32_t depth)
{
    anim_json_writer_init(w, out, pretty);
    if (depth > ANIM_JSON_WRITER_MAX_DEPTH) {
        w->misuse = true;
        return;
    }
    /* Outer containers already hold elements; the innermost one is empty,
     * so the fragment starts with its indentation but no separator. */
    for (uint32_t i = 0; i < depth; i++)
        w->has_value[i] = true;
    if (depth)
        w->has_value[depth - 1] = false;
    w->depth = depth;
    w->base_depth = depth;
}

size_t anim_json_writer_splice_mark(anim_json_writer *w)
{
    if (w->depth == 0 || w->after_key) {
        w->misuse = true;
        return w->out->len;
    }
    if (w->has_value[w->depth - 1])
        anim_strbuf_putc(w->out, ',');
    w->has_value[w->depth - 1] = true;
    return w->out->len;
}

void anim_json_writer_splice(anim_json_writer *w, const char *fragment, size_t len)
{
    anim_json_writer_splice_mark(w);
    if (!w->misuse)
        anim_strbuf_append(w->out, fragment, len);
}

static void newline_indent(anim_json_writer *w)
{
    /* One write of the newline and the whole indentation. */
    size_t n = 1 + 2 * (size_t)w->depth;
    if (!anim_strbuf_reserve(w->out, n))
        return;
    char *p = w->out->data + w->out->len;
    p[0] = '\n';
    memset(p + 1, ' ', n - 1);
    w->out->len += n;
    w->out->data[w->out->len] = '\0';
}

/* Separator and indentation before an array element or an object key. */
static void before_element(anim_json_writer *w)
{
    if (w->depth == 0)
        return;
    bool *has = &w->has_value[w->depth - 1];
    if (*has)
        anim_strbuf_putc(w->out, ',');
    *has = true;
    if (w->pretty)
        newline_indent(w);
}

/* Called before every value: a value after a key needs no separator. */
static void before_value(anim_json_writer *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    before_element(w);
}

static void begin(anim_json_writer *w, char open)
{
    before_value(w);
    if (w->depth >= ANIM_JSON_WRITER_MAX_DEPTH) {
        w->misuse = true;
        return;
    }
    anim_strbuf_putc(w->out, open);
    w->has_value[w->depth++] = false;
}

static void end(anim_json_writer *w, char close)
{
    if (w->depth <= w->base_depth || w->after_key) {
        w->misuse = true;
        return;
    }
    w->depth--;
    if (w->pretty && w->has_value[w->depth])
        newline_indent(w);
    anim_strbuf_putc(w->out, close);
}

void anim_json_writer_begin_object(anim_json_writer *w) { begin(w, '{'); }
void anim_json_writer_end_object(anim_json_writer *w) { end(w, '}'); }
void anim_json_writer_begin_array(anim_json_writer *w) { begin(w, '['); }
void anim_json_writer_end_array(anim_json_writer *w) { end(w, ']'); }

/* Bytes that are not copied as they are: control characters, the quote,
 * the backslash, and every non-ASCII byte (checked as UTF-8). */
static bool json_plain_byte(unsigned char c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* Whether any of the 8 bytes of x is not plain. The zero-byte tests of
 * x ^ '"', x ^ '\\' and x - 0x20 can only report a byte wrongly by a
 * borrow out of a byte that does match, and a byte >= 0x80 is caught
 * directly, so the answer is exact for the word as a whole. */
static bool word_has_special(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    uint64_t special = (x - ones * 0x20) | (q - ones) | (b - ones);
    return ((special & ~x) | x) & highs ? true : false;
}

/* How many leading bytes of s are plain, eight at a time. */
static size_t plain_prefix(const char *s, size_t len)
{
    size_t i = 0;
    for (; len - i >= 8; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, sizeof x);
        if (word_has_special(x))
            break;
    }
    while (i < len && json_plain_byte((unsigned char)s[i]))
        i++;
    return i;
}

void anim_json_escape_string(anim_strbuf *out, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    /* Names and paths are nearly always plain ASCII: those are copied in
     * one write with their quotes. */
    size_t plain = plain_prefix(s, len);
    if (plain == len && len < SIZE_MAX - 3 && anim_strbuf_reserve(out, len + 2)) {
        char *p = out->data + out->len;
        p[0] = '"';
        memcpy(p + 1, s, len);
        p[len + 1] = '"';
        out->len += len + 2;
        out->data[out->len] = '\0';
        return;
    }
    anim_strbuf_putc(out, '"');
    size_t start = 0;
    for (size_t i = plain; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        char ubuf[9];
        if (c >= 0x80) {
            size_t n = anim_utf8_decode((const unsigned char *)s + i, len - i, NULL);
            if (n > 0) {
                i += n - 1;
                continue;
            }
            /* Not UTF-8 (a path from a Latin-1 file system, a broken
             * name): JSON must stay valid UTF-8, so the byte is written as
             * the visible text \x{hh}, the same spelling the text output
             * uses. The backslash is escaped, so the string reads back as
             * those six characters. */
            memcpy(ubuf, "\\\\x{", 4);
            ubuf[4] = hex[c >> 4];
            ubuf[5] = hex[c & 15];
            ubuf[6] = '}';
            ubuf[7] = '\0';
            esc = ubuf;
        }
        switch (esc ? 0 : c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default:
            if (!esc && c < 0x20) {
                memcpy(ubuf, "\\u00", 4);
                ubuf[4] = hex[c >> 4];
                ubuf[5] = hex[c & 15];
                ubuf[6] = '\0';
                esc = ubuf;
            }
        }
        if (esc) {
            anim_strbuf_append(out, s + start, i - start);
            anim_strbuf_puts(out, esc);
            start = i + 1;
        }
    }
    anim_strbuf_append(out, s + start, len - start);
    anim_strbuf_putc(out, '"');
}

void anim_json_writer_key_n(anim_json_writer *w, const char *key, size_t len)
{
    if (w->depth == 0 || w->after_key) {
        w->misuse = true;
        return;
    }
    before_element(w);
    anim_json_escape_string(w->out, key, len);
    if (w->pretty)
        anim_strbuf_append(w->out, ": ", 2);
    else
        anim_strbuf_putc(w->out, ':');
    w->after_key = true;
}

void anim_json_writer_key(anim_json_writer *w, const char *key)
{
    anim_json_writer_key_n(w, key, strlen(key));
}

void anim_json_writer_string_n(anim_json_writer *w, const char *s, size_t len)
{
    before_value(w);
    anim_json_escape_string(w->out, s, len);
}

void anim_json_writer_string(anim_json_writer *w, const char *s)
{
    anim_json_writer_string_n(w, s, strlen(s));
}

void anim_json_writer_raw(anim_json_writer *w, const char *json, size_t len)
{
    before_value(w);
    anim_strbuf_append(w->out, json, len);
}

/* Decimal digits of v, right-aligned to end; returns the first digit. */
static char *u64_digits(uint64_t v, char *end)
{
    char *p = end;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

void anim_json_writer_int(anim_json_writer *w, int64_t v)
{
    char buf[24];
    /* The magnitude as unsigned, so INT64_MIN needs no special case. */
    uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    char *p = u64_digits(mag, buf + sizeof buf);
    if (v < 0)
        *--p = '-';
    anim_json_writer_raw(w, p, (size_t)(buf + sizeof buf - p));
}

void anim_json_writer_uint(anim_json_writer *w, uint64_t v)
{
    char buf[24];
    char *p = u64_digits(v, buf + sizeof buf);
    anim_json_writer_raw(w, p, (size_t)(buf + sizeof buf - p));
}

void anim_json_writer_f64(anim_json_writer *w, double v)
{
    before_value(w);
    anim_strbuf_put_f64_json(w->out, v);
}

void anim_json_writer_f32(anim_json_writer *w, float v)
{
    before_value(w);
    anim_strbuf_put_f32_json(w->out, v);
}

void anim_json_writer_bool(anim_json_writer *w, bool v)
{
    if (v)
        anim_json_writer_raw(w, "true", 4);
    else
        anim_json_writer_raw(w, "false", 5);
}

void anim_json_writer_null(anim_json_writer *w)
{
    anim_json_writer_raw(w, "null", 4);
}

bool anim_json_writer_ok(const anim_json_writer *w)
{
    return !w->misuse && w->depth == w->base_depth && !w->after_key && !w->out->failed;
}

void anim_json_writer_f64_array(anim_json_writer *w, const double *v, size_t n)
{
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < n; i++)
        anim_json_writer_f64(w, v[i]);
    anim_json_writer_end_array(w);
}

void anim_json_writer_key_uint(anim_json_writer *w, const char *key, uint64_t v)
{
    anim_json_writer_key(w, key);
    anim_json_writer_uint(w, v);
}

void anim_json_writer_key_string_or_null(anim_json_writer *w, const char *key, const char *s)
{
    anim_json_writer_key(w, key);
    if (s)
        anim_json_writer_string(w, s);
    else
        anim_json_writer_null(w);
}
