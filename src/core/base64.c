/* Base64, RFC 4648 section 4, with padding. */
#include "animsmith/base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

bool anim_base64_encoded_len(size_t n, size_t *out)
{
    size_t groups = n / 3 + (n % 3 != 0);
    if (groups > SIZE_MAX / 4)
        return false;
    *out = groups * 4;
    return true;
}

void anim_base64_append(anim_strbuf *out, const void *data, size_t n)
{
    const uint8_t *p = data;
    size_t len;
    if (!anim_base64_encoded_len(n, &len) || !anim_strbuf_reserve(out, len))
        return;
    char quad[4];
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        quad[0] = alphabet[v >> 18];
        quad[1] = alphabet[(v >> 12) & 63];
        quad[2] = alphabet[(v >> 6) & 63];
        quad[3] = alphabet[v & 63];
        anim_strbuf_append(out, quad, 4);
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        quad[0] = alphabet[v >> 18];
        quad[1] = alphabet[(v >> 12) & 63];
        quad[2] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
        quad[3] = '=';
        anim_strbuf_append(out, quad, 4);
    }
}

static int sextet(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* One decoder for both spellings: the padded form the report writes, and
 * glTF's data URIs, where padding is optional. */
static long long decode(const char *text, size_t len, bool padding_optional, uint8_t *out)
{
    size_t pad = 0;
    while (pad < len && text[len - 1 - pad] == '=')
        pad++;
    if (!padding_optional && (len % 4 != 0 || pad > 2))
        return -1;
    len -= pad;
    if (len % 4 == 1)
        return -1;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = sextet(text[i]);
        if (v < 0)
            return -1; /* a foreign character, or padding inside */
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    return (long long)o;
}

long long anim_base64_decode(const char *text, size_t len, uint8_t *out)
{
    return decode(text, len, false, out);
}

long long anim_base64_decode_unpadded(const char *text, size_t len, uint8_t *out)
{
    return decode(text, len, true, out);
}
