#include <sched.h>

#include "config.h"
#include "tune.h"

/* Default crossover until the accelerated paths are measured: at n = 512
 * every published offload runtime (MAGMA n <= 128, oneMKL n <= 256) still
 * keeps the work on the CPU LAPACK.  Per-routine entries come with the
 * measurements (docs/performance.md). */
#define GL_DEFAULT_MIN_N 512

long gl_tune_min_n(const char *routine)
{
    (void)routine;
    return GL_DEFAULT_MIN_N;
}

int gl_tune_band(char kind, int complex_, long n)
{
    long band = gl_config_get()->band;
    if (band > 0)
        return band > 1024 ? 1024 : (int)band;
    (void)kind, (void)complex_;
    return n >= 1500 ? 64 : 32;
}

int gl_tune_tile_width(int b)
{
    long tw = gl_config_get()->tile_width;
    if (tw > 0)
        return tw < b ? (int)tw : b;
    return b;
}

int gl_host_threads(void)
{
    long threads = gl_config_get()->host_threads;
    if (threads > 0)
        return threads > 64 ? 64 : (int)threads;
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 0)
        return CPU_COUNT(&cpus);
    return 1;
}
