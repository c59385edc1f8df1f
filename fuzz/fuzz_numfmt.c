/* libFuzzer entry for the shortest-digits printer: the first 8 bytes are a
 * double and the next 4 a float (missing bytes are zero); each must print
 * exactly what the earlier printf/strtod search printed
 * (tests/unit/test_numfmt_reference.h), as digits and as JSON text, and
 * read back to the same value. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "../tests/unit/test_numfmt_reference.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_f64(double v)
{
    if (!isfinite(v))
        return;
    char d[18], rd[18], buf[ANIM_FMT_JSON_MAX], rbuf[32];
    int e, re;
    int len = anim_fmt_shortest_f64(v, d, &e);
    int rlen = ref_shortest_f64(v, rd, &re);
    if (len != rlen || e != re || strcmp(d, rd) != 0)
        __builtin_trap(); /* other digits than the reference */
    size_t n = anim_fmt_f64_json(v, buf);
    ref_f64_json_of(v, rd, rlen, re, rbuf);
    if (n != strlen(rbuf) || strcmp(buf, rbuf) != 0)
        __builtin_trap(); /* other JSON text */
    double back = strtod(buf, NULL);
    if (memcmp(&back, &v, sizeof v) != 0)
        __builtin_trap(); /* does not read back */
}

static void check_f32(float v)
{
    if (!isfinite(v))
        return;
    char d[18], rd[18], buf[ANIM_FMT_JSON_MAX], rbuf[32];
    int e, re;
    int len = anim_fmt_shortest_f32(v, d, &e);
    int rlen = ref_shortest_f32(v, rd, &re);
    if (len != rlen || e != re || strcmp(d, rd) != 0)
        __builtin_trap();
    anim_fmt_f32_json(v, buf);
    ref_f32_json_of(v, rd, rlen, re, rbuf);
    if (strcmp(buf, rbuf) != 0)
        __builtin_trap();
    float back = strtof(buf, NULL);
    if (memcmp(&back, &v, sizeof v) != 0)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t bytes[12] = {0};
    memcpy(bytes, data, size < sizeof bytes ? size : sizeof bytes);
    double v;
    float f;
    memcpy(&v, bytes, sizeof v);
    memcpy(&f, bytes + 8, sizeof f);
    check_f64(v);
    check_f32(f);
    return 0;
}
