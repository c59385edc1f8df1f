/* Shortest round-trip number printing speed.
 *
 * Usage: bench_numfmt
 * Prints nanoseconds per number for JSON f64 (anim_fmt_f64_json) over 10^6
 * random values (uniform bit patterns, and uniform in [-1, 1]), over typical
 * animation values (0.0333333, 1.25, -0.70710677, floats widened to doubles,
 * whole frame counts), and for JSON f32 and plain display. Each set is
 * printed repeatedly for about a quarter of a second and the best pass is
 * kept. It is a benchmark, not a test: it always exits 0. */
#include "animsmith/numfmt.h"
#include "bench_clock.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 1000000

static uint64_t rng_state = 12345u;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

enum kind { F64_JSON, F32_JSON, F64_PLAIN };

static volatile size_t sink;

/* Best nanoseconds per number over passes of about 0.25 s in all. */
static double time_set(const double *values, size_t n, enum kind kind)
{
    char buf[ANIM_FMT_PLAIN_MAX];
    double best = 1e30, spent = 0.0;
    for (int pass = 0; pass < 50 && (pass < 2 || spent < 0.25); pass++) {
        size_t total = 0;
        double t0 = now_seconds();
        for (size_t i = 0; i < n; i++) {
            if (kind == F64_JSON)
                total += anim_fmt_f64_json(values[i], buf);
            else if (kind == F32_JSON)
                total += anim_fmt_f32_json((float)values[i], buf);
            else
                total += anim_fmt_f64_plain(values[i], buf);
        }
        double dt = now_seconds() - t0;
        sink += total;
        spent += dt;
        if (dt < best)
            best = dt;
    }
    return best / (double)n * 1e9;
}

static void fill_random_bits(double *v, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint64_t bits = rng();
        double x;
        memcpy(&x, &bits, sizeof x);
        if (isfinite(x))
            v[i++] = x;
    }
}

static void fill_unit(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = -1.0 + 2.0 * (double)(rng() >> 11) * 0x1p-53;
}

/* What lint and measure reports are made of: key times at 30 fps, rotation
 * components and positions read as float32, and whole counts. */
static void fill_animation(double *v, size_t n)
{
    static const double fixed[] = {0.0333333, 1.25, -0.70710677, 0.0, 1.0, 30.0};
    for (size_t i = 0; i < n; i++) {
        switch (i % 4) {
        case 0:
            v[i] = fixed[(i / 4) % (sizeof fixed / sizeof fixed[0])];
            break;
        case 1:
            v[i] = (double)(float)((double)(i % 600) / 30.0);
            break;
        case 2:
            v[i] = (double)(float)(-1.0 + 2.0 * (double)(rng() >> 40) * 0x1p-24);
            break;
        default:
            v[i] = (double)(rng() % 6000);
            break;
        }
    }
}

static void report(const char *format, const char *set, const double *values, enum kind kind)
{
    printf("  %-9s %-28s %7.1f ns\n", format, set, time_set(values, COUNT, kind));
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: bench_numfmt\n"
             "\n"
             "Shortest round-trip number printing: nanoseconds per number for JSON f64\n"
             "over 10^6 random values and over typical animation values, and for JSON\n"
             "f32 and plain display.\n"
             "\n"
             "  -h, --help  print this help and exit");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: bench_numfmt (see --help)\n");
        return 0;
    }
    double *values = malloc(COUNT * sizeof *values);
    if (!values) {
        printf("numfmt: out of memory (skipped)\n");
        return 0;
    }
    static const double typical[] = {0.0333333, 1.25, -0.70710677};
    printf("numfmt: ns per number (best pass)\n");
    for (size_t i = 0; i < sizeof typical / sizeof typical[0]; i++) {
        for (size_t j = 0; j < COUNT; j++)
            values[j] = typical[i];
        char label[32];
        snprintf(label, sizeof label, "%.10g", typical[i]);
        report("f64 json", label, values, F64_JSON);
    }
    fill_animation(values, COUNT);
    report("f64 json", "animation mix (10^6)", values, F64_JSON);
    fill_unit(values, COUNT);
    report("f64 json", "uniform [-1, 1] (10^6)", values, F64_JSON);
    report("f32 json", "uniform [-1, 1] (10^6)", values, F32_JSON);
    report("f64 plain", "uniform [-1, 1] (10^6)", values, F64_PLAIN);
    fill_random_bits(values, COUNT);
    report("f64 json", "random bit patterns (10^6)", values, F64_JSON);
    free(values);
    return 0;
}
