/* The stb_image JPEG guard (jpeg_guard.h). */
#include "io/jpeg_guard.h"

static unsigned byte_at(const uint8_t *b, size_t n, size_t i)
{
    return i < n ? b[i] : 0;
}

/* Whether the DHT segment whose length field starts at `at` is one stb
 * reads safely (stb stops with an error at a bad table class, so that is
 * safe too). */
static bool dht_safe_at(const uint8_t *b, size_t n, size_t at)
{
    long left = (long)(byte_at(b, n, at) << 8 | byte_at(b, n, at + 1)) - 2;
    size_t p = at + 2;
    while (left > 0 && p < n) {
        unsigned q = byte_at(b, n, p++);
        if (q >> 4 > 1 || (q & 15) > 3)
            return true;
        unsigned codes = 0;
        for (int i = 0; i < 16; i++)
            codes += byte_at(b, n, p++);
        if (codes > 256)
            return false;
        p += codes;
        left -= 17 + (long)codes;
    }
    return true;
}

anim_jpeg_guard_result anim_jpeg_guard(const uint8_t *b, size_t n, size_t *at)
{
    unsigned seen = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (b[i] != 0xFF || b[i + 1] != 0xC4)
            continue;
        *at = i;
        if (++seen > ANIM_JPEG_MAX_DHT_MARKERS)
            return ANIM_JPEG_TOO_MANY_TABLES;
        if (!dht_safe_at(b, n, i + 2))
            return ANIM_JPEG_OVERLONG_TABLE;
    }
    return ANIM_JPEG_SAFE;
}
