/* TOML scalars: strings (four kinds), integers, floats, booleans, dates and
 * times, plus the reader's positions, messages and UTF-8 check. Each
 * scanner matches exactly the text tomllib's grammar matches at the same
 * point, so that what follows (checked by the caller) decides the same way. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/toml/toml_internal.h"

#include "animsmith/path.h"

void toml_position(toml_parser *p, size_t off, uint32_t *line, uint32_t *col)
{
    if (off > p->n)
        off = p->n;
    if (off < p->pos_off) { /* rare: restart from the top */
        p->pos_off = 0;
        p->pos_line = 1;
        p->pos_col = 1;
    }
    for (size_t k = p->pos_off; k < off; k++) {
        unsigned char b = (unsigned char)p->s[k];
        if (b == '\n') {
            p->pos_line++;
            p->pos_col = 1;
        } else if ((b & 0xC0) != 0x80) {
            p->pos_col++;
        }
    }
    p->pos_off = off;
    *line = p->pos_line;
    *col = p->pos_col;
}

int toml_fail(toml_parser *p, anim_error_code code, size_t off, const char *fmt, ...)
{
    char what[ANIM_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    uint32_t line, col;
    toml_position(p, off, &line, &col);
    return anim_error_set(p->err, code, "line %u column %u: %s", (unsigned)line,
                          (unsigned)col, what);
}

const char *toml_describe(const toml_parser *p, size_t off, char buf[32])
{
    int c = toml_at(p, off);
    if (c < 0)
        return "end of file";
    if (c == '\n' || (c == '\r' && toml_at(p, off + 1) == '\n'))
        return "end of line";
    if (c >= 0x21 && c < 0x7F)
        snprintf(buf, 32, "'%c'", c);
    else if (c < 0x80)
        snprintf(buf, 32, "U+%04X", (unsigned)c);
    else
        snprintf(buf, 32, "a non-ASCII character");
    return buf;
}

anim_toml_value *toml_new_value_at(toml_parser *p, anim_toml_type type, uint32_t line,
                                   uint32_t column)
{
    anim_toml_value *v = anim_arena_calloc(p->arena, 1, sizeof *v);
    if (!v) {
        anim_error_set(p->err, ANIM_ERR_NOMEM, "out of memory reading TOML");
        return NULL;
    }
    v->type = type;
    v->line = line;
    v->column = column;
    return v;
}

anim_toml_value *toml_new_value(toml_parser *p, anim_toml_type type, size_t off)
{
    uint32_t line, col;
    toml_position(p, off, &line, &col);
    return toml_new_value_at(p, type, line, col);
}

/* ---- UTF-8 ---------------------------------------------------------- */

int toml_check_utf8(toml_parser *p)
{
    const unsigned char *s = (const unsigned char *)p->s;
    size_t n = p->n, k = 0;
    while (k < n) {
        unsigned char b = s[k];
        if (b < 0x80) {
            k++;
            continue;
        }
        size_t need;
        uint32_t min, cp;
        if (b >= 0xC2 && b <= 0xDF) {
            need = 1, min = 0x80, cp = b & 0x1F;
        } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2, min = 0x800, cp = b & 0x0F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3, min = 0x10000, cp = b & 0x07;
        } else {
            return toml_fail(p, ANIM_ERR_PARSE, k, "invalid UTF-8 byte 0x%02X", b);
        }
        if (n - k <= need)
            return toml_fail(p, ANIM_ERR_PARSE, k, "truncated UTF-8 sequence");
        for (size_t j = 1; j <= need; j++) {
            if ((s[k + j] & 0xC0) != 0x80)
                return toml_fail(p, ANIM_ERR_PARSE, k, "invalid UTF-8 sequence");
            cp = (cp << 6) | (s[k + j] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return toml_fail(p, ANIM_ERR_PARSE, k, "invalid UTF-8 sequence (overlong, "
                                                   "surrogate or above U+10FFFF)");
        k += need + 1;
    }
    return 0;
}

/* ---- strings -------------------------------------------------------- */

/* Control characters are refused in strings and comments, tab excepted;
 * newlines are handled by the callers. */
static bool is_control(int c)
{
    return (c >= 0 && c < 0x20 && c != '\t') || c == 0x7F;
}


static void put_utf8(anim_strbuf *sb, uint32_t cp)
{
    char b[4];
    size_t len;
    if (cp < 0x80) {
        b[0] = (char)cp, len = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6)), b[1] = (char)(0x80 | (cp & 0x3F)), len = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12)), b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F)), len = 3;
    } else {
        b[0] = (char)(0xF0 | (cp >> 18)), b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), b[3] = (char)(0x80 | (cp & 0x3F));
        len = 4;
    }
    anim_strbuf_append(sb, b, len);
}

static int control_error(toml_parser *p, size_t off, const char *where)
{
    int c = toml_at(p, off);
    size_t nl;
    if (toml_newline_at(p, off, &nl))
        return toml_fail(p, ANIM_ERR_PARSE, off, "newline in a single-line %s", where);
    if (c == '\r')
        return toml_fail(p, ANIM_ERR_PARSE, off,
                         "carriage return not followed by a newline in %s", where);
    return toml_fail(p, ANIM_ERR_PARSE, off, "control character U+%04X in %s (escape it)",
                     (unsigned)c, where);
}

/* p->i at the backslash. */
static int parse_escape(toml_parser *p, bool multiline)
{
    size_t at = p->i;
    int c = toml_at(p, at + 1);
    size_t nl;
    if (multiline && (c == ' ' || c == '\t' || toml_newline_at(p, at + 1, &nl))) {
        /* Line-ending backslash: only whitespace may sit between it and the
         * newline; then all whitespace and newlines are trimmed. */
        size_t k = at + 1;
        while (toml_at(p, k) == ' ' || toml_at(p, k) == '\t')
            k++;
        if (toml_at(p, k) >= 0 && !toml_newline_at(p, k, &nl))
            return toml_fail(p, ANIM_ERR_PARSE, at,
                             "a backslash followed by whitespace must end the line");
        for (;;) {
            if (toml_at(p, k) == ' ' || toml_at(p, k) == '\t')
                k++;
            else if (toml_newline_at(p, k, &nl))
                k += nl;
            else
                break;
        }
        p->i = k;
        return 0;
    }
    const char *rep = NULL;
    switch (c) {
    case 'b': rep = "\b"; break;
    case 't': rep = "\t"; break;
    case 'n': rep = "\n"; break;
    case 'f': rep = "\f"; break;
    case 'r': rep = "\r"; break;
    case '"': rep = "\""; break;
    case '\\': rep = "\\"; break;
    default: break;
    }
    if (rep) {
        anim_strbuf_putc(&p->scratch, rep[0]);
        p->i = at + 2;
        return 0;
    }
    if (c == 'u' || c == 'U') {
        size_t digits = c == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (size_t k = 0; k < digits; k++) {
            int h = anim_hex_digit_value(toml_at(p, at + 2 + k));
            if (h < 0)
                return toml_fail(p, ANIM_ERR_PARSE, at, "\\%c needs %zu hex digits", c,
                                 digits);
            cp = (cp << 4) | (uint32_t)h;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return toml_fail(p, ANIM_ERR_PARSE, at,
                             "escape \\%c%.*s is not a Unicode scalar value", c, (int)digits,
                             p->s + at + 2);
        put_utf8(&p->scratch, cp);
        p->i = at + 2 + digits;
        return 0;
    }
    if (c > 0x20 && c < 0x7F)
        return toml_fail(p, ANIM_ERR_PARSE, at, "invalid escape \\%c in string", c);
    return toml_fail(p, ANIM_ERR_PARSE, at, "invalid escape (a backslash followed by %s)",
                     c < 0 ? "end of file" : c == ' ' ? "a space"
                                           : c >= 0x80 ? "a non-ASCII character"
                                                       : "a control character");
}

/* Up to two quote characters right after a closing triple quote belong to
 * the string ("""a""""" is a"" ), as in tomllib. */
static void extra_quotes(toml_parser *p, char q)
{
    for (int k = 0; k < 2 && toml_at(p, p->i) == q; k++) {
        anim_strbuf_putc(&p->scratch, q);
        p->i++;
    }
}

static int scan_basic(toml_parser *p, bool multiline)
{
    size_t open = p->i;
    p->i += multiline ? 3 : 1;
    size_t nl;
    if (multiline && toml_newline_at(p, p->i, &nl))
        p->i += nl; /* the newline right after """ is not content */
    for (;;) {
        size_t run = p->i;
        int c;
        /* Copy runs of ordinary bytes at once. */
        while ((c = toml_at(p, p->i)) >= 0 && c != '"' && c != '\\' && !is_control(c))
            p->i++;
        anim_strbuf_append(&p->scratch, p->s + run, p->i - run);
        if (c < 0)
            return toml_fail(p, ANIM_ERR_PARSE, open, "unterminated string");
        if (c == '"') {
            if (!multiline) {
                p->i++;
                return 0;
            }
            if (toml_at(p, p->i + 1) == '"' && toml_at(p, p->i + 2) == '"') {
                p->i += 3;
                extra_quotes(p, '"');
                return 0;
            }
            anim_strbuf_putc(&p->scratch, '"');
            p->i++;
        } else if (c == '\\') {
            if (parse_escape(p, multiline) < 0)
                return -1;
        } else if (multiline && toml_newline_at(p, p->i, &nl)) {
            anim_strbuf_putc(&p->scratch, '\n'); /* CRLF reads as LF */
            p->i += nl;
        } else {
            return control_error(p, p->i, "string");
        }
    }
}

static int scan_literal(toml_parser *p, bool multiline)
{
    size_t open = p->i;
    p->i += multiline ? 3 : 1;
    size_t nl;
    if (multiline && toml_newline_at(p, p->i, &nl))
        p->i += nl;
    for (;;) {
        size_t run = p->i;
        int c;
        while ((c = toml_at(p, p->i)) >= 0 && c != '\'' && !is_control(c))
            p->i++;
        anim_strbuf_append(&p->scratch, p->s + run, p->i - run);
        if (c < 0)
            return toml_fail(p, ANIM_ERR_PARSE, open, "unterminated literal string");
        if (c == '\'') {
            if (!multiline) {
                p->i++;
                return 0;
            }
            if (toml_at(p, p->i + 1) == '\'' && toml_at(p, p->i + 2) == '\'') {
                p->i += 3;
                extra_quotes(p, '\'');
                return 0;
            }
            anim_strbuf_putc(&p->scratch, '\'');
            p->i++;
        } else if (multiline && toml_newline_at(p, p->i, &nl)) {
            anim_strbuf_putc(&p->scratch, '\n');
            p->i += nl;
        } else {
            return control_error(p, p->i, "literal string");
        }
    }
}

static int finish_string(toml_parser *p, const char **out, size_t *len)
{
    if (p->scratch.failed)
        return anim_error_set(p->err, ANIM_ERR_NOMEM, "out of memory reading TOML");
    char *copy = anim_arena_strndup(p->arena, p->scratch.len ? p->scratch.data : "",
                                    p->scratch.len);
    if (!copy)
        return anim_error_set(p->err, ANIM_ERR_NOMEM, "out of memory reading TOML");
    *out = copy;
    *len = p->scratch.len;
    return 0;
}

int toml_parse_string(toml_parser *p, const char **out, size_t *len)
{
    anim_strbuf_reset(&p->scratch);
    int q = toml_at(p, p->i);
    bool triple = toml_at(p, p->i + 1) == q && toml_at(p, p->i + 2) == q;
    int rc = q == '"' ? scan_basic(p, triple) : scan_literal(p, triple);
    if (rc < 0)
        return -1;
    return finish_string(p, out, len);
}

int toml_parse_key_part(toml_parser *p, const char **out, size_t *len)
{
    int c = toml_at(p, p->i);
    if (toml_is_bare(c)) {
        size_t start = p->i;
        while (toml_is_bare(toml_at(p, p->i)))
            p->i++;
        char *copy = anim_arena_strndup(p->arena, p->s + start, p->i - start);
        if (!copy)
            return anim_error_set(p->err, ANIM_ERR_NOMEM, "out of memory reading TOML");
        *out = copy;
        *len = p->i - start;
        return 0;
    }
    if (c == '"' || c == '\'') {
        /* Keys are single-line strings: """ reads as an empty key followed
         * by a stray quote, which the caller then refuses, as tomllib does. */
        anim_strbuf_reset(&p->scratch);
        int rc = c == '"' ? scan_basic(p, false) : scan_literal(p, false);
        return rc < 0 ? -1 : finish_string(p, out, len);
    }
    char buf[32];
    return toml_fail(p, ANIM_ERR_PARSE, p->i,
                     "expected a key (bare A-Za-z0-9_- or quoted), found %s",
                     toml_describe(p, p->i, buf));
}

/* ---- numbers -------------------------------------------------------- */

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* digit (_? digit)* for a digit class; returns the end offset. */
static size_t scan_digits(const toml_parser *p, size_t k, int base)
{
    for (;;) {
        int c = toml_at(p, k);
        int d = anim_hex_digit_value(c);
        if (d >= 0 && d < base && (base == 16 || is_digit(c))) {
            k++;
            continue;
        }
        int c2 = toml_at(p, k + 1);
        int d2 = anim_hex_digit_value(c2);
        if (c == '_' && d2 >= 0 && d2 < base && (base == 16 || is_digit(c2))) {
            k += 2;
            continue;
        }
        return k;
    }
}

static bool digit_of(int c, int base)
{
    int d = anim_hex_digit_value(c);
    return d >= 0 && d < base && (base == 16 || is_digit(c));
}

/* A scalar may be followed only by whitespace, a newline, a comment or
 * (inside arrays and inline tables) , ] }. Anything else that could extend
 * a number or keyword is reported here, with the token, for a clearer
 * message than "expected end of line". */
static bool glued(const toml_parser *p, size_t k)
{
    int c = toml_at(p, k);
    return toml_is_bare(c) || c == '.' || c == '+' || c == ':';
}

static anim_toml_value *parse_int_based(toml_parser *p, size_t start, int base)
{
    size_t k = start + 2;
    if (!digit_of(toml_at(p, k), base)) {
        toml_fail(p, ANIM_ERR_PARSE, start, "invalid %s integer: no digit after 0%c",
                  base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary", p->s[start + 1]);
        return NULL;
    }
    size_t end = scan_digits(p, k, base);
    if (glued(p, end)) {
        toml_fail(p, ANIM_ERR_PARSE, start, "invalid number %.*s", (int)(end + 1 - start),
                  p->s + start);
        return NULL;
    }
    uint64_t v = 0;
    for (size_t j = k; j < end; j++) {
        if (p->s[j] == '_')
            continue;
        uint64_t d = (uint64_t)anim_hex_digit_value((unsigned char)p->s[j]);
        if (v > (UINT64_C(0x7FFFFFFFFFFFFFFF) - d) / (uint64_t)base) {
            toml_fail(p, ANIM_ERR_PARSE, start, "integer %.*s does not fit in 64 bits",
                      (int)(end - start), p->s + start);
            return NULL;
        }
        v = v * (uint64_t)base + d;
    }
    anim_toml_value *val = toml_new_value(p, ANIM_TOML_INTEGER, start);
    if (!val)
        return NULL;
    val->u.integer = (int64_t)v;
    p->i = end;
    return val;
}

static anim_toml_value *parse_special_float(toml_parser *p, size_t start)
{
    size_t k = start;
    bool neg = false;
    if (p->s[k] == '+' || p->s[k] == '-')
        neg = p->s[k++] == '-';
    bool inf = k + 3 <= p->n && memcmp(p->s + k, "inf", 3) == 0;
    bool nan = k + 3 <= p->n && memcmp(p->s + k, "nan", 3) == 0;
    if (!inf && !nan) {
        char buf[32];
        toml_fail(p, ANIM_ERR_PARSE, start, "invalid value: expected a string, number, "
                                            "boolean, date, array or inline table, found %s",
                  toml_describe(p, start, buf));
        return NULL;
    }
    anim_toml_value *v = toml_new_value(p, ANIM_TOML_FLOAT, start);
    if (!v)
        return NULL;
    if (toml_is_bare(toml_at(p, k + 3)) || toml_at(p, k + 3) == '.') {
        size_t end = k + 3;
        while ((toml_is_bare(toml_at(p, end)) || toml_at(p, end) == '.') && end - start < 40)
            end++;
        toml_fail(p, ANIM_ERR_PARSE, start, "invalid value %.*s", (int)(end - start),
                  p->s + start);
        return NULL;
    }
    double x = inf ? HUGE_VAL : (double)NAN;
    v->u.floating = neg ? -x : x;
    p->i = k + 3;
    return v;
}

static anim_toml_value *parse_number(toml_parser *p)
{
    size_t start = p->i, k = start;
    int c = toml_at(p, k);
    int c1 = toml_at(p, k + 1);
    if (c == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b'))
        return parse_int_based(p, start, c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2);
    if (c == '+' || c == '-')
        c = toml_at(p, ++k);
    if (!is_digit(c))
        return parse_special_float(p, start);
    if (c == '0') {
        k++;
        if (is_digit(toml_at(p, k))) {
            toml_fail(p, ANIM_ERR_PARSE, start, "leading zeros are not allowed in numbers");
            return NULL;
        }
    } else {
        k = scan_digits(p, k, 10);
    }
    bool is_float = false;
    if (toml_at(p, k) == '.' && is_digit(toml_at(p, k + 1))) {
        k = scan_digits(p, k + 1, 10);
        is_float = true;
    }
    int e = toml_at(p, k);
    if (e == 'e' || e == 'E') {
        size_t j = k + 1;
        if (toml_at(p, j) == '+' || toml_at(p, j) == '-')
            j++;
        if (is_digit(toml_at(p, j))) {
            k = scan_digits(p, j, 10);
            is_float = true;
        }
    }
    if (glued(p, k)) {
        toml_fail(p, ANIM_ERR_PARSE, start, "invalid number %.*s", (int)(k + 1 - start),
                  p->s + start);
        return NULL;
    }
    /* The literal without underscores, NUL-terminated for strtod. */
    size_t len = k - start;
    char small[64];
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf) {
        anim_error_set(p->err, ANIM_ERR_NOMEM, "out of memory reading TOML");
        return NULL;
    }
    size_t m = 0;
    for (size_t j = start; j < k; j++)
        if (p->s[j] != '_')
            buf[m++] = p->s[j];
    buf[m] = '\0';
    anim_toml_value *v = toml_new_value(p, is_float ? ANIM_TOML_FLOAT : ANIM_TOML_INTEGER,
                                        start);
    if (v && is_float) {
        /* glibc's strtod rounds correctly; overflow gives inf, as tomllib.
         * The C locale applies: the library never calls setlocale. */
        v->u.floating = strtod(buf, NULL);
    } else if (v) {
        errno = 0;
        long long x = strtoll(buf, NULL, 10);
        if (errno == ERANGE) {
            toml_fail(p, ANIM_ERR_PARSE, start, "integer %s does not fit in 64 bits", buf);
            v = NULL;
        } else {
            v->u.integer = (int64_t)x;
        }
    }
    if (buf != small)
        free(buf);
    if (v)
        p->i = k;
    return v;
}

/* ---- dates and times ------------------------------------------------ */

static bool digits_at(const toml_parser *p, size_t k, size_t count)
{
    for (size_t j = 0; j < count; j++)
        if (!is_digit(toml_at(p, k + j)))
            return false;
    return true;
}

static int num2(const toml_parser *p, size_t k)
{
    return (p->s[k] - '0') * 10 + (p->s[k + 1] - '0');
}

/* HH:MM:SS[.fraction] at k; returns the end offset, or 0 after an error. */
static size_t scan_time(toml_parser *p, size_t k, size_t report)
{
    if (!(digits_at(p, k, 2) && toml_at(p, k + 2) == ':' && digits_at(p, k + 3, 2) &&
          toml_at(p, k + 5) == ':' && digits_at(p, k + 6, 2))) {
        toml_fail(p, ANIM_ERR_PARSE, report, "invalid time: expected HH:MM:SS");
        return 0;
    }
    if (num2(p, k) > 23 || num2(p, k + 3) > 59 || num2(p, k + 6) > 59) {
        toml_fail(p, ANIM_ERR_PARSE, report, "invalid time %.8s", p->s + k);
        return 0;
    }
    k += 8;
    if (toml_at(p, k) == '.' && is_digit(toml_at(p, k + 1))) {
        k++;
        while (is_digit(toml_at(p, k)))
            k++;
    }
    return k;
}

static bool leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static anim_toml_value *parse_datetime(toml_parser *p, size_t start, bool has_date)
{
    size_t k = start;
    anim_toml_datetime_kind kind = ANIM_TOML_LOCAL_TIME;
    if (has_date) {
        int y = num2(p, k) * 100 + num2(p, k + 2);
        int mo = num2(p, k + 5), d = num2(p, k + 8);
        static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        /* Year 0 is refused because tomllib (Python's datetime) refuses it. */
        if (y < 1 || mo < 1 || mo > 12 || d < 1 ||
            d > mdays[mo - 1] + (mo == 2 && leap(y))) {
            toml_fail(p, ANIM_ERR_PARSE, start, "invalid date %.10s", p->s + start);
            return NULL;
        }
        kind = ANIM_TOML_LOCAL_DATE;
        k += 10;
        int sep = toml_at(p, k);
        /* 'T' must start a time; a space only when a digit follows (a date
         * may be followed by a comment after a space). */
        if (sep == 'T' || sep == 't' || (sep == ' ' && is_digit(toml_at(p, k + 1)))) {
            k = scan_time(p, k + 1, start);
            if (!k)
                return NULL;
            kind = ANIM_TOML_LOCAL_DATETIME;
            int z = toml_at(p, k);
            if (z == 'Z' || z == 'z') {
                k++;
                kind = ANIM_TOML_OFFSET_DATETIME;
            } else if (z == '+' || z == '-') {
                if (!(digits_at(p, k + 1, 2) && toml_at(p, k + 3) == ':' &&
                      digits_at(p, k + 4, 2) && num2(p, k + 1) <= 23 &&
                      num2(p, k + 4) <= 59)) {
                    toml_fail(p, ANIM_ERR_PARSE, k, "invalid time offset: expected +HH:MM");
                    return NULL;
                }
                k += 6;
                kind = ANIM_TOML_OFFSET_DATETIME;
            }
        }
    } else {
        k = scan_time(p, k, start);
        if (!k)
            return NULL;
    }
    if (glued(p, k)) {
        toml_fail(p, ANIM_ERR_PARSE, start, "invalid date or time %.*s", (int)(k + 1 - start),
                  p->s + start);
        return NULL;
    }
    anim_toml_value *v = toml_new_value(p, ANIM_TOML_DATETIME, start);
    if (!v)
        return NULL;
    v->u.datetime.text = anim_arena_strndup(p->arena, p->s + start, k - start);
    if (!v->u.datetime.text) {
        anim_error_set(p->err, ANIM_ERR_NOMEM, "out of memory reading TOML");
        return NULL;
    }
    v->u.datetime.len = k - start;
    v->u.datetime.kind = kind;
    p->i = k;
    return v;
}

/* ---- dispatch ------------------------------------------------------- */

static anim_toml_value *parse_keyword(toml_parser *p, const char *word, bool value)
{
    size_t len = strlen(word);
    size_t start = p->i;
    if (start + len > p->n || memcmp(p->s + start, word, len) != 0 ||
        toml_is_bare(toml_at(p, start + len))) {
        size_t end = start;
        while (toml_is_bare(toml_at(p, end)) && end - start < 40)
            end++;
        toml_fail(p, ANIM_ERR_PARSE, start,
                  "invalid value %.*s (strings need quotes; booleans are true and false)",
                  (int)(end - start), p->s + start);
        return NULL;
    }
    anim_toml_value *v = toml_new_value(p, ANIM_TOML_BOOLEAN, start);
    if (!v)
        return NULL;
    v->u.boolean = value;
    p->i = start + len;
    return v;
}

anim_toml_value *toml_parse_scalar(toml_parser *p)
{
    size_t k = p->i;
    int c = toml_at(p, k);
    if (c == 't')
        return parse_keyword(p, "true", true);
    if (c == 'f')
        return parse_keyword(p, "false", false);
    if (is_digit(c)) {
        if (digits_at(p, k, 4) && toml_at(p, k + 4) == '-' && digits_at(p, k + 5, 2) &&
            toml_at(p, k + 7) == '-' && digits_at(p, k + 8, 2))
            return parse_datetime(p, k, true);
        if (digits_at(p, k, 2) && toml_at(p, k + 2) == ':')
            return parse_datetime(p, k, false);
    }
    if (is_digit(c) || c == '+' || c == '-' || c == 'i' || c == 'n')
        return parse_number(p);
    char buf[32];
    if (c == '\'' || c == '"' || toml_is_bare(c)) {
        size_t end = k;
        while (toml_is_bare(toml_at(p, end)) && end - k < 40)
            end++;
        toml_fail(p, ANIM_ERR_PARSE, k,
                  "invalid value %.*s (strings need quotes; booleans are true and false)",
                  (int)(end - k), p->s + k);
        return NULL;
    }
    toml_fail(p, ANIM_ERR_PARSE, k,
              "expected a value (string, number, boolean, date, array or inline table), "
              "found %s",
              toml_describe(p, k, buf));
    return NULL;
}
