#include <sched.h>
#include <string.h>

#include "config.h"
#include "tune.h"

/* Crossovers of the host path against Debian's OpenBLAS 0.3.21 (SkylakeX
 * kernels, 2 cores), from `make bench` (docs/performance.md): below these
 * sizes the system LAPACK is faster.  Keyed by the routine name without its
 * precision letter; the GPU backends will bring their own. */
static const struct {
    const char *family;
    long min_n;
} crossovers[] = {
    {"gesdd", 768},          {"gesvd", 768},
    {"gbbrd", 256},
    {"syev", 2000},          {"syevd", 2000},        {"syevr", 2000},
    {"syevx", 2000},         {"syev_2stage", 2000},  {"syevd_2stage", 2000},
    {"syevr_2stage", 2000},  {"syevx_2stage", 2000}, {"sytrd_2stage", 2000},
    {"heev", 1000},          {"heevd", 1000},        {"heevr", 1000},
    {"heevx", 1000},         {"heev_2stage", 1000},  {"heevd_2stage", 1000},
    {"heevr_2stage", 1000},  {"heevx_2stage", 1000}, {"hetrd_2stage", 1000},
    {"sbtrd", 768},          {"hbtrd", 768},         {"sbev", 768},
    {"hbev", 768},           {"sbevd", 768},         {"hbevd", 768},
};

/* For routines without a measurement: every published offload runtime
 * (MAGMA n <= 128, oneMKL n <= 256) keeps n < 512 on the CPU LAPACK. */
#define GL_DEFAULT_MIN_N 512

long gl_tune_min_n(const char *routine)
{
    for (size_t i = 0; i < sizeof crossovers / sizeof crossovers[0]; i++)
        if (strcmp(routine + 1, crossovers[i].family) == 0)
            return crossovers[i].min_n;
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

int gl_tune_group(int b)
{
    long group = gl_config_get()->group;
    if (group > 0)
        return group < 256 ? (int)group : 256;
    return b > 1 ? b / 2 : 1;
}

int gl_tune_chunk(void)
{
    long chunk = gl_config_get()->chunk;
    return chunk > 0 ? (chunk < 4096 ? (int)chunk : 4096) : 64;
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
