/* Numbers and strings written the way JavaScript writes them. The digest of
 * a source mesh is defined over its canonical JSON, and a digest is only an
 * identity if every implementation writes each number with the same
 * characters: ECMAScript's Number::toString is that definition (shortest
 * round-trip digits, plain notation for 1e-7 <= |v| < 1e21). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "meshq/mq.h"

double anim_mq_r6(double v)
{
    if (!isfinite(v))
        return v;
    double r = floor(v * 1e6 + 0.5) / 1e6;
    return r == 0.0 ? 0.0 : r; /* -0 reads as 0 */
}

void mq_put_js_number(anim_strbuf *sb, double v)
{
    if (isnan(v)) {
        anim_strbuf_puts(sb, "NaN");
        return;
    }
    if (isinf(v)) {
        anim_strbuf_puts(sb, v < 0 ? "-Infinity" : "Infinity");
        return;
    }
    if (v == 0.0) {
        anim_strbuf_putc(sb, '0');
        return;
    }
    char digits[18];
    int n = 0;
    int k = anim_fmt_shortest_f64(v, digits, &n);
    if (v < 0)
        anim_strbuf_putc(sb, '-');
    if (k <= n && n <= 21) {
        anim_strbuf_append(sb, digits, (size_t)k);
        for (int i = k; i < n; i++)
            anim_strbuf_putc(sb, '0');
    } else if (0 < n && n <= 21) {
        anim_strbuf_append(sb, digits, (size_t)n);
        anim_strbuf_putc(sb, '.');
        anim_strbuf_append(sb, digits + n, (size_t)(k - n));
    } else if (-6 < n && n <= 0) {
        anim_strbuf_puts(sb, "0.");
        for (int i = 0; i < -n; i++)
            anim_strbuf_putc(sb, '0');
        anim_strbuf_append(sb, digits, (size_t)k);
    } else {
        int e = n - 1;
        anim_strbuf_putc(sb, digits[0]);
        if (k > 1) {
            anim_strbuf_putc(sb, '.');
            anim_strbuf_append(sb, digits + 1, (size_t)(k - 1));
        }
        anim_strbuf_printf(sb, "e%c%d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    }
}

void mq_put_js_string(anim_strbuf *sb, const char *s)
{
    anim_strbuf_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': anim_strbuf_puts(sb, "\\\""); break;
        case '\\': anim_strbuf_puts(sb, "\\\\"); break;
        case '\b': anim_strbuf_puts(sb, "\\b"); break;
        case '\f': anim_strbuf_puts(sb, "\\f"); break;
        case '\n': anim_strbuf_puts(sb, "\\n"); break;
        case '\r': anim_strbuf_puts(sb, "\\r"); break;
        case '\t': anim_strbuf_puts(sb, "\\t"); break;
        default:
            if (*p < 0x20)
                anim_strbuf_printf(sb, "\\u%04x", *p);
            else
                anim_strbuf_putc(sb, (char)*p);
        }
    }
    anim_strbuf_putc(sb, '"');
}

void mq_put_terminal_lines(anim_strbuf *out, const anim_strbuf *raw)
{
    size_t at = 0;
    while (raw->data && at < raw->len) {
        const char *nl = memchr(raw->data + at, '\n', raw->len - at);
        size_t end = nl ? (size_t)(nl - raw->data) : raw->len;
        anim_text_atom(out, raw->data + at, end - at);
        anim_strbuf_putc(out, '\n');
        at = end + 1;
    }
}
