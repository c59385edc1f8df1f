/* The one clock every benchmark times with: monotonic seconds. */
#ifndef ANIMSMITH_BENCH_CLOCK_H
#define ANIMSMITH_BENCH_CLOCK_H

#include <time.h>

static inline double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
