#include <limits.h>
#include <sched.h>
#include <string.h>

#include "config.h"
#include "tune.h"

/* Crossovers of the host path against Debian's OpenBLAS 0.3.21 (SkylakeX
 * kernels, 2 cores), from `make bench` (docs/performance.md): below these
 * sizes the system LAPACK was faster on one of the machines measured (the
 * tenth session's Zen 5, whose OpenBLAS is relatively faster, raised the
 * real symmetric values' and the complex Hermitian vectors' ones; first
 * calls in the eleventh session raised ?gesdd's with vectors); NEVER
 * where it was faster at every size measured.  Keyed by the routine name
 * without its precision letter; one column for values only, one for jobs
 * with vectors (or Q, P); the GPU backends will bring their own. */
#define NEVER LONG_MAX

static const struct {
    const char *family;
    long values, vectors;
} crossovers[] = {
    {"gesdd", 768, 2250},          {"gesvd", 768, 200},
    {"gbbrd", 256, NEVER},         {"sytrd", NEVER, NEVER},
    {"syev", 2500, NEVER},         {"syevd", 2500, NEVER},
    {"syevr", 2500, NEVER},        {"syevx", 2500, NEVER},
    {"heev", 1000, 1200},          {"heevd", 1000, 1200},
    {"heevr", 1000, 1200},         {"heevx", 1000, 1200},
    {"syev_2stage", 2500, NEVER},  {"syevd_2stage", 2500, NEVER},
    {"syevr_2stage", 2500, NEVER}, {"syevx_2stage", 2500, NEVER},
    {"sytrd_2stage", 2500, NEVER}, {"heev_2stage", 1000, NEVER},
    {"heevd_2stage", 1000, NEVER}, {"heevr_2stage", 1000, NEVER},
    {"heevx_2stage", 1000, NEVER}, {"hetrd_2stage", 1000, NEVER},
    {"hetrd", NEVER, NEVER},       {"sbtrd", 768, NEVER},
    {"hbtrd", 768, NEVER},         {"sbev", 768, NEVER},
    {"hbev", 768, NEVER},          {"sbevd", 768, NEVER},
    {"hbevd", 768, NEVER},
};

/* For routines without a measurement: every published offload runtime
 * (MAGMA n <= 128, oneMKL n <= 256) keeps n < 512 on the CPU LAPACK. */
#define GL_DEFAULT_MIN_N 512

long gl_tune_min_n(const char *routine, int vectors)
{
    for (size_t i = 0; i < sizeof crossovers / sizeof crossovers[0]; i++)
        if (strcmp(routine + 1, crossovers[i].family) == 0)
            return vectors ? crossovers[i].vectors : crossovers[i].values;
    return GL_DEFAULT_MIN_N;
}

/* A wider band makes stage 1's products faster and the chase, which is
 * memory-bound, slower.  Values only (2 cores, docs/performance.md, tenth
 * session): 32 was faster up to n = 3000 (dsyevd N 0.17 s against 0.20 at
 * 2000, dgesdd N 0.83 against 0.89 at 3000), 64 at 4000 (dsyevd N 0.93-1.03
 * s against 1.01-1.05, dgesdd N 1.63 against 1.77).  With vectors the
 * back-transformation's blocks want the wider band: 64 from 1500 (dsyevd V
 * 0.55 s against 0.65 at 2000). */
int gl_tune_band(char kind, int complex_, long n, int vectors)
{
    long band = gl_config_get()->band;
    if (band > 0)
        return band > 1024 ? 1024 : (int)band;
    (void)kind, (void)complex_;
    return n >= (vectors ? 1500 : 3500) ? 64 : 32;
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

/* One stage by default: on the host it runs at LAPACK's own speed, where
 * the two stages with the re-factorization took 1.8 times as long at
 * n = 4000 (docs/performance.md); on GPUs both are unmeasured. */
int gl_tune_sytrd_stages(void)
{
    return gl_config_get()->sytrd_stages == 2 ? 2 : 1;
}

int gl_tune_chunk(void)
{
    long chunk = gl_config_get()->chunk;
    return chunk > 0 ? (chunk < 4096 ? (int)chunk : 4096) : 128;
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

int gl_tune_group_threads(void)
{
    long t = gl_config_get()->group_threads;
    return t > 0 ? (t < 1024 ? (int)t : 1024) : 64;
}

long gl_tune_max_groups(void) { return gl_config_get()->max_groups; }

/* Not measured on a GPU yet (no device was lent since the kernels were
 * written): 256 rows make 64 work-groups for the 16384-row panels, about
 * half an H100's multiprocessors, at two rows per work-item. */
long gl_tune_chase_groups(void) { return gl_config_get()->chase_groups; }

long gl_tune_panel_rows(void)
{
    long rows = gl_config_get()->panel_rows;
    return rows > 0 ? (rows < (1L << 20) ? rows : 1L << 20) : 256;
}

/* Not measured on a GPU yet: a merge of s rows moves about 6 s^2 reals
 * each way for 4 s^3 flops, which a GPU's product repays from a few
 * hundred rows, while the system ?lasd0 on the host does the O(s^3) of a
 * 1024-row subproblem in a small part of a second. */
long gl_tune_dc_leaf(void)
{
    long leaf = gl_config_get()->dc_leaf;
    return leaf > 0 ? leaf : 1024;
}

/* The automatic device choice keeps the host path, and a GPU runs when
 * GPULAPACK_DEVICE names it: on an H100 (docs/performance.md, twelfth
 * session) the cuda path beat the 16-core host's LAPACK 2.7-5.5x at
 * n = 4096, but it was not compared with our host path on that machine,
 * nor measured below n = 4096, so no crossover can be set from it yet. */
int gl_tune_gpu_auto(const char *runtime)
{
    (void)runtime;
    return 0;
}
