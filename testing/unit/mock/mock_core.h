/* What the stand-in drivers of the runtime tests share (mock_cuda.c,
 * mock_hip.c): counters the tests read through dlsym, and the one kernel
 * they run, gl_copy, on host memory. */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static size_t copy_elem = 8;
static _Thread_local int ctx_depth;
static int live_streams, live_host_allocs, launches, wrong_device;
static int dummy;

EXPORT void mock_set_elem(size_t elem) { copy_elem = elem; }
EXPORT int mock_ctx_depth(void) { return ctx_depth; }
EXPORT int mock_live_streams(void) { return __atomic_load_n(&live_streams, __ATOMIC_SEQ_CST); }
EXPORT int mock_live_host_allocs(void) { return __atomic_load_n(&live_host_allocs, __ATOMIC_SEQ_CST); }
EXPORT int mock_launches(void) { return __atomic_load_n(&launches, __ATOMIC_SEQ_CST); }
EXPORT int mock_wrong_device(void) { return __atomic_load_n(&wrong_device, __ATOMIC_SEQ_CST); }

/* The device-to-host copies still to succeed before one fails (-1:
 * none fails): a link that breaks in the middle of a read. */
static int dtoh_left = -1;
EXPORT void mock_fail_dtoh_after(int copies) { dtoh_left = copies; }
static int dtoh_fails(void) { return dtoh_left >= 0 && dtoh_left-- == 0; }

static void count(int *counter, int by) { __atomic_add_fetch(counter, by, __ATOMIC_SEQ_CST); }

/* A launch of kernel `name`: 0 if it ran (gl_copy without transposing),
 * -1 if the stand-in cannot run it. */
static int run_kernel(const char *name, void **params)
{
    count(&launches, 1);
    if (strcmp(name, "gl_copy") != 0 || *(int *)params[8] != 0)
        return -1;
    /* gl_copy(rows, cols, src, soff, lds, dst, doff, ldd, conj_trans) */
    int rows = *(int *)params[0], cols = *(int *)params[1];
    char *src = *(char **)params[2], *dst = *(char **)params[5];
    long long soff = *(long long *)params[3], doff = *(long long *)params[6];
    int lds = *(int *)params[4], ldd = *(int *)params[7];
    for (int j = 0; j < cols; j++)
        memcpy(dst + (doff + (long long)j * ldd) * (long long)copy_elem,
               src + (soff + (long long)j * lds) * (long long)copy_elem,
               (size_t)rows * copy_elem);
    return 0;
}
