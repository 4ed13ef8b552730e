/* What the stand-in drivers of the runtime tests share (mock_cuda.c,
 * mock_hip.c): counters the tests read through dlsym, the number of
 * devices (GL_MOCK_DEVICES, else the driver's default), the device each
 * test thread expects its operations on, and the one kernel they run,
 * gl_copy, on host memory. */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static size_t copy_elem = 8;
static _Thread_local int ctx_depth;
static int live_streams, live_host_allocs, launches, wrong_device;
static int live_registered, copies_2d;
static int dummy;

/* The devices the driver reports: GL_MOCK_DEVICES (1 to 8), else dflt. */
enum { MOCK_MAX_DEVICES = 8 };
static int mock_devices(int dflt)
{
    const char *e = getenv("GL_MOCK_DEVICES");
    int n = e ? atoi(e) : dflt;
    return n >= 1 && n <= MOCK_MAX_DEVICES ? n : dflt;
}

/* The free memory the driver reports: GL_MOCK_FREE_MB (another process
 * holding the rest), else all of total. */
static size_t mock_free_bytes(size_t total)
{
    const char *e = getenv("GL_MOCK_FREE_MB");
    return e ? (size_t)atol(e) << 20 : total;
}

/* The device the calling thread's operations must run on (-1: any);
 * device 0 unless the test says otherwise.  An operation elsewhere counts
 * in mock_wrong_device. */
static _Thread_local int expected_device;
EXPORT void mock_expect_device(int device) { expected_device = device; }
static void check_device(int device)
{
    if (device < 0 || (expected_device >= 0 && device != expected_device))
        __atomic_add_fetch(&wrong_device, 1, __ATOMIC_SEQ_CST);
}

/* A stream: the device it was made on (every operation on it must run with
 * that device current). */
typedef struct mock_stream {
    int device;
} mock_stream;

EXPORT void mock_set_elem(size_t elem) { __atomic_store_n(&copy_elem, elem, __ATOMIC_SEQ_CST); }
EXPORT int mock_ctx_depth(void) { return ctx_depth; }
EXPORT int mock_live_streams(void) { return __atomic_load_n(&live_streams, __ATOMIC_SEQ_CST); }
EXPORT int mock_live_host_allocs(void) { return __atomic_load_n(&live_host_allocs, __ATOMIC_SEQ_CST); }
EXPORT int mock_launches(void) { return __atomic_load_n(&launches, __ATOMIC_SEQ_CST); }
EXPORT int mock_wrong_device(void) { return __atomic_load_n(&wrong_device, __ATOMIC_SEQ_CST); }
EXPORT int mock_live_registered(void) { return __atomic_load_n(&live_registered, __ATOMIC_SEQ_CST); }
EXPORT int mock_copies_2d(void) { return __atomic_load_n(&copies_2d, __ATOMIC_SEQ_CST); }

/* The device-to-host copies still to succeed before one fails (-1:
 * none fails): a link that breaks in the middle of a read. */
static int dtoh_left = -1;
EXPORT void mock_fail_dtoh_after(int copies) { dtoh_left = copies; }
static int dtoh_fails(void) { return dtoh_left >= 0 && dtoh_left-- == 0; }

static void count(int *counter, int by) { __atomic_add_fetch(counter, by, __ATOMIC_SEQ_CST); }

/* A 2D copy (the runtime's copy lanes): height columns of width bytes;
 * 0, or -1 when a device-to-host one fails (mock_fail_dtoh_after). */
static int copy_2d(int to_device, void *dst, size_t dpitch, const void *src,
                   size_t spitch, size_t width, size_t height)
{
    if (!to_device && dtoh_fails())
        return -1;
    count(&copies_2d, 1);
    for (size_t j = 0; j < height; j++)
        memcpy((char *)dst + j * dpitch, (const char *)src + j * spitch, width);
    return 0;
}

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
    long long elem = (long long)__atomic_load_n(&copy_elem, __ATOMIC_SEQ_CST);
    for (int j = 0; j < cols; j++)
        memcpy(dst + (doff + (long long)j * ldd) * elem,
               src + (soff + (long long)j * lds) * elem,
               (size_t)rows * (size_t)elem);
    return 0;
}
