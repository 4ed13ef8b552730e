/* The host side of the CUDA and HIP runtimes (runtime/cudalike/) against
 * the stand-in drivers of testing/unit/mock/ (mock_cuda.c, mock_hip.c; run
 * with LD_LIBRARY_PATH pointing at one; no GPU), one binary per API
 * (-DGL_TEST_HIP for HIP): discovery and choice, transfers of every shape
 * (contiguous and strided, through one and several staging chunks, the
 * double-buffered halves; reads after a mark on the second stream; the
 * copy lanes, by the driver's 2D copies of registered memory and in
 * order otherwise),
 * device copies, the error state (a launch the
 * device fails is reported by the next read, which leaves the host
 * untouched), the caller's context (CUDA) or current device (HIP) left
 * as it was, a context's resources freed when it closes, contexts used
 * from several threads at once (on one device, and on two: the stand-ins
 * report GL_MOCK_DEVICES=2 devices, and check that every operation runs
 * on its context's device), and a whole LAPACK call falling back with
 * LAPACK's result when the device cannot run a kernel.  The execution
 * contexts are made here by hand (runtime/context.h), as gl_ctx_acquire
 * makes them.  On a real GPU the same runtime is checked by
 * test_device_ops with GPULAPACK_DEVICE=cuda or hip. */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/context.h"
#include "../runtime/device.h"
#include "../runtime/gpu.h"

#ifdef GL_TEST_HIP
#define PATH GL_PATH_HIP
#define NAME "hip"
#define SONAME "libamdhip64.so.5"
#define VERSION "gfx 9.0"
#define MEMORY (64ull << 30)
#else
#define PATH GL_PATH_CUDA
#define NAME "cuda"
#define SONAME "libcuda.so.1"
#define VERSION "sm_90"
#define MEMORY (80ull << 30)
#endif
/* the stand-in drivers' devices (GL_MOCK_DEVICES, set before discovery) */
#define DEVICES 2

static int failures;
static void *mock;

static void verdict(int ok, const char *name, const char *detail)
{
    printf("%s unit/" NAME "_runtime/%s%s%s\n", ok ? "PASS" : "FAIL", name,
           ok ? "" : ": ", ok ? "" : detail);
    failures += !ok;
}

static int mock_int(const char *fn)
{
    int (*f)(void) = (int (*)(void))dlsym(mock, fn);
    return f ? f() : -1;
}

/* A context on device i of the runtime, as gl_ctx_acquire makes it. */
static gl_ctx context_on(int i)
{
    const gl_gpu *g = gl_device_gpu(PATH);
    gl_ctx ctx = {.path = PATH, .runtime = g, .gpu = g, .device = i,
                  .info = g->device(i)};
    return ctx;
}

/* count random bytes at p: 8 a step of a 64-bit LCG (its high bits), a
 * stream per call (the threads' round trips run at once).  rand() a byte
 * at a time, through its lock, took half of this program's time on the
 * hundreds of MB the shapes below move. */
static void random_bytes(unsigned char *p, size_t count)
{
    static unsigned long long streams;
    unsigned long long x = __atomic_add_fetch(&streams, 1, __ATOMIC_RELAXED) *
                           0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < count; i += 8) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned long long v = x ^ (x >> 29);
        memcpy(p + i, &v, count - i < 8 ? count - i : 8);
    }
}

/* write rows x cols (host ld hl) to the device (ld dl), copy it to a
 * second device matrix (ld dl2), read it back (host ld hl; direct: by
 * read_direct; marked: after a mark, by read_marked): the bytes of the
 * rectangle come back, the padding of the output is untouched. */
static int round_trip(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, size_t hl,
                      size_t dl, size_t dl2, int direct, int marked)
{
    const gl_gpu *g = gl_device_gpu(PATH);
    void (*set_elem)(size_t) = (void (*)(size_t))dlsym(mock, "mock_set_elem");
    set_elem(elem);
    size_t hbytes = elem * hl * cols;
    unsigned char *in = malloc(hbytes), *out = malloc(hbytes);
    random_bytes(in, hbytes);
    memset(out, 0xA5, hbytes);
    void *d1 = g->alloc(ctx, elem * dl * cols),
         *d2 = g->alloc(ctx, elem * dl2 * cols);
    int ok = d1 && d2 && g->write(ctx, elem, rows, cols, in, hl, d1, dl) == 0 &&
             g->copy(ctx, elem, rows, cols, d1, dl, d2, dl2) == 0 &&
             (marked ? g->mark(ctx) == 0 &&
                           g->read_marked(ctx, !direct, elem, rows, cols, d2,
                                          dl2, out, hl) == 0
                     : (direct ? g->read_direct : g->read)(
                           ctx, elem, rows, cols, d2, dl2, out, hl) == 0);
    for (size_t j = 0; ok && j < cols; j++) {
        size_t col = j * hl * elem;
        ok = memcmp(in + col, out + col, rows * elem) == 0;
        for (size_t i = rows * elem; ok && i < hl * elem; i++)
            ok = out[col + i] == 0xA5;
    }
    g->release(ctx, d1);
    g->release(ctx, d2);
    free(in);
    free(out);
    return ok;
}

/* The copy lanes (gpu.h lane_write): rows x cols (host ld hl, device
 * ld dl) up on the upload lane, copied on the context's stream after
 * it, down on the download lane after that, ordered by event slots; with
 * the host memory registered (the driver's 2D copies, two of them) or
 * not (in order through the staging).  The bytes come back, the padding
 * of the output untouched. */
static int lanes_round_trip(gl_ctx *ctx, size_t rows, size_t cols, size_t hl,
                            size_t dl, int registered, char *detail,
                            size_t len)
{
    const gl_gpu *g = gl_device_gpu(PATH);
    size_t hbytes = 8 * hl * cols;
    /* in and out in one range: the one a context registers */
    unsigned char *host = malloc(2 * hbytes), *in = host, *out = host + hbytes;
    random_bytes(in, hbytes);
    memset(out, 0xA5, hbytes);
    void *d1 = g->alloc(ctx, 8 * dl * cols), *d2 = g->alloc(ctx, 8 * dl * cols);
    int copies = mock_int("mock_copies_2d");
    int reg = registered ? g->host_register(ctx, host, 2 * hbytes) : 0;
    int regs = mock_int("mock_live_registered");
    int ok = d1 && d2 && reg == 0 &&
             g->lane_write(ctx, 8, rows, cols, in, hl, d1, dl) == 0 &&
             g->lane_record(ctx, GL_LANE_UP, 0) == 0 &&
             g->lane_wait(ctx, GL_LANE_COMPUTE, 0) == 0 &&
             g->copy(ctx, 8, rows, cols, d1, dl, d2, dl) == 0 &&
             g->lane_record(ctx, GL_LANE_COMPUTE, 1) == 0 &&
             g->lane_wait(ctx, GL_LANE_DOWN, 1) == 0 &&
             g->lane_read(ctx, 8, rows, cols, d2, dl, out, hl) == 0 &&
             g->finish(ctx) == 0;
    for (size_t j = 0; ok && j < cols; j++) {
        size_t col = j * hl * 8;
        ok = memcmp(in + col, out + col, rows * 8) == 0;
        for (size_t i = rows * 8; ok && i < hl * 8; i++)
            ok = out[col + i] == 0xA5;
    }
    int by_2d = mock_int("mock_copies_2d") - copies;
    if (registered)
        g->host_unregister(ctx, host);
    snprintf(detail, len, "copied %d, 2D copies %d, registered %d -> %d", ok,
             by_2d, regs, mock_int("mock_live_registered"));
    ok = ok && by_2d == (registered ? 2 : 0) &&
         mock_int("mock_live_registered") == 0;
    g->release(ctx, d1);
    g->release(ctx, d2);
    free(host);
    return ok;
}

/* A thread with a context of its own, opened and closed there. */
static void *thread_body(void *arg)
{
    (void)arg;
    const gl_gpu *g = gl_device_gpu(PATH);
    gl_ctx ctx = context_on(0);
    if (g->open(&ctx) != 0)
        return NULL;
    /* a marked read: the context's second stream is freed too */
    int ok = round_trip(&ctx, 8, 300, 200, 301, 300, 300, 0, 1);
    g->close(&ctx);
    return (void *)(long)(ok && !ctx.queue);
}

/* Two threads at once, each on a context of its own (device[t] of the
 * two), opened by the test's thread and handed over: every operation
 * runs on the context's device (the stand-in counts any other), each
 * thread's data come back.  Element size 8 in both (the stand-in's copy
 * kernel has one). */
typedef struct pair_job {
    gl_ctx *ctx;
    pthread_barrier_t *start;
    int ok, depth;
} pair_job;

static void *pair_body(void *arg)
{
    pair_job *job = arg;
    void (*expect)(int) = (void (*)(int))dlsym(mock, "mock_expect_device");
    expect(job->ctx->device);
    pthread_barrier_wait(job->start);
    job->ok = 1;
    /* strided (the copy kernel), several staging chunks, direct, marked */
    for (int rep = 0; rep < 4; rep++)
        job->ok &= round_trip(job->ctx, 8, 500, 300, 503, 510, 500, 0, 0) &&
                   round_trip(job->ctx, 8, 3000, 1500, 3001, 3000, 3000, rep & 1, 1) &&
                   round_trip(job->ctx, 8, 1000, 1, 1000, 1001, 1005, 1, 0);
    job->depth = mock_int("mock_ctx_depth");
    return NULL;
}

/* open or close ctx on this thread (the stand-in expects its device) */
static int open_close(gl_ctx *ctx, int open)
{
    const gl_gpu *g = gl_device_gpu(PATH);
    void (*expect)(int) = (void (*)(int))dlsym(mock, "mock_expect_device");
    expect(ctx->device);
    int rc = 0;
    if (open)
        rc = g->prepare(ctx->device) == 0 && g->open(ctx) == 0 ? 0 : -1;
    else
        g->close(ctx);
    expect(0);
    return rc;
}

static void pair(const char *name, int device0, int device1)
{
    gl_ctx ctx[2] = {context_on(device0), context_on(device1)};
    int wrong = mock_int("mock_wrong_device"),
        streams = mock_int("mock_live_streams"),
        pinned = mock_int("mock_live_host_allocs");
    int opened = open_close(&ctx[0], 1) == 0 && open_close(&ctx[1], 1) == 0 &&
                 ctx[0].queue != ctx[1].queue;
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    pair_job jobs[2] = {{&ctx[0], &start, 0, -1}, {&ctx[1], &start, 0, -1}};
    pthread_t th[2];
    if (opened) {
        for (int i = 0; i < 2; i++)
            pthread_create(&th[i], NULL, pair_body, &jobs[i]);
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
    }
    pthread_barrier_destroy(&start);
    open_close(&ctx[0], 0);
    open_close(&ctx[1], 0);
    char detail[200];
    snprintf(detail, sizeof detail,
             "opened %d, data %d %d, contexts left pushed %d %d, %d operations "
             "on another device, streams %d -> %d, pinned %d -> %d",
             opened, jobs[0].ok, jobs[1].ok, jobs[0].depth, jobs[1].depth,
             mock_int("mock_wrong_device") - wrong, streams,
             mock_int("mock_live_streams"), pinned,
             mock_int("mock_live_host_allocs"));
    verdict(opened && jobs[0].ok && jobs[1].ok && jobs[0].depth == 0 &&
                jobs[1].depth == 0 && mock_int("mock_wrong_device") == wrong &&
                mock_int("mock_live_streams") == streams &&
                mock_int("mock_live_host_allocs") == pinned &&
                !ctx[0].queue && !ctx[1].queue,
            name, detail);
}

/* The tridiagonal (-1, 2, -1) matrix has eigenvalues 2 - 2 cos(k pi/(n+1)). */
extern void dsyevd_(const char *, const char *, const int *, double *,
                    const int *, double *, double *, const int *, int *,
                    const int *, int *, size_t, size_t);

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    setenv("GPULAPACK_DEVICE", NAME, 1);
    setenv("GPULAPACK_MIN_N", "0", 1);
    setenv("GL_MOCK_DEVICES", "2", 1);
    const gl_gpu *g = gl_device_gpu(PATH);
    int count = g->device_count();
    /* the driver the library opened: the stand-in, or the test is void */
    mock = dlopen(SONAME, RTLD_NOW | RTLD_NOLOAD);
    if (!mock || !dlsym(mock, "mock_set_elem")) {
        printf("FAIL unit/" NAME "_runtime/mock: run with LD_LIBRARY_PATH at the stand-in " SONAME "\n");
        return 1;
    }
    const gl_gpu_device_info *info = g->device(0);
    char detail[160];
    snprintf(detail, sizeof detail, "count %d, %s", count, info ? info->id : "no device");
    verdict(count == DEVICES && info && strcmp(info->id, NAME ":0") == 0 &&
                strcmp(info->version, VERSION) == 0 && info->fp64 &&
                info->memory == MEMORY,
            "discovery", detail);
    verdict(g->choose(-1, -1, 1) == 0 && g->choose(-1, 3, 0) == -1 &&
                g->prepare(0) == 0,
            "choose-prepare", "device 0 not chosen or not prepared");
#ifndef GL_TEST_HIP
    /* prepare opens a device once: its primary context retained once */
    snprintf(detail, sizeof detail, "%d retains", mock_int("mock_ctx_retains"));
    verdict(g->prepare(0) == 0 && mock_int("mock_ctx_retains") == 1,
            "prepare-once", detail);
#endif
#ifdef GL_TEST_HIP
    /* the caller works on device 1: the library must use its device 0 and
     * give device 1 back */
    int (*set_device)(int) = (int (*)(int))dlsym(mock, "hipSetDevice");
    int (*get_device)(int *) = (int (*)(int *))dlsym(mock, "hipGetDevice");
    set_device(1);
#endif
    /* the test's own context on device 0 */
    int streams0 = mock_int("mock_live_streams"),
        pinned0 = mock_int("mock_live_host_allocs");
    gl_ctx main_ctx = context_on(0), *ctx = &main_ctx;
    verdict(g->open(ctx) == 0 && ctx->queue &&
                mock_int("mock_live_streams") == streams0 + 1,
            "open", "no queue state, or not one stream");

    /* shapes: tiny, strided both sides, one column, several 16 MiB chunks */
    static const size_t shapes[][5] = {
        {1, 1, 1, 1, 1},       {3, 5, 7, 3, 4},        {17, 3, 17, 20, 17},
        {1000, 1, 1000, 1001, 1005}, {3000, 1500, 3001, 3000, 3000},
        {2500, 1800, 2503, 2600, 2500}, {4097, 700, 4100, 4097, 4101}};
    /* read, read_direct, and both after a mark (read_marked; a strided
     * source is read in order) */
    for (int e = 0; e < 12; e++) {
        size_t elem = e % 3 == 0 ? 4 : e % 3 == 1 ? 8 : 16;
        int direct = e % 6 >= 3, marked = e >= 6;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            const size_t *sh = shapes[s];
            char name[96];
            snprintf(name, sizeof name, "copies/%s%s/elem%zu/%zux%zu-ld%zu.%zu.%zu",
                     marked ? "marked-" : "", direct ? "direct" : "whole",
                     elem, sh[0], sh[1], sh[2], sh[3], sh[4]);
            verdict(round_trip(ctx, elem, sh[0], sh[1], sh[2], sh[3], sh[4], direct,
                               marked),
                    name, "bytes differ or padding written");
        }
    }
#ifdef GL_TEST_HIP
    int now = -1;
    get_device(&now);
    snprintf(detail, sizeof detail, "caller's device %d (1 expected), %d calls on another device",
             now, mock_int("mock_wrong_device"));
    verdict(now == 1 && mock_int("mock_wrong_device") == 0, "caller-device", detail);
#else
    snprintf(detail, sizeof detail, "%d contexts left pushed, %d calls on another device",
             mock_int("mock_ctx_depth"), mock_int("mock_wrong_device"));
    verdict(mock_int("mock_ctx_depth") == 0 && mock_int("mock_wrong_device") == 0,
            "context-pairs", detail);
#endif

    /* a link that fails in the middle of a read of several chunks: read
     * leaves dst untouched, read_direct reports the failure */
    {
        void (*fail_after)(int) = (void (*)(int))dlsym(mock, "mock_fail_dtoh_after");
        void (*set_elem)(size_t) = (void (*)(size_t))dlsym(mock, "mock_set_elem");
        set_elem(8);
        size_t rows = 3000, cols = 1500, bytes = 8 * rows * cols;
        unsigned char *in = malloc(bytes), *out = malloc(bytes);
        memset(in, 0x3C, bytes);
        memset(out, 0xA5, bytes);
        void *dm = g->alloc(ctx, bytes);
        int wrote = dm && g->write(ctx, 8, rows, cols, in, rows, dm, rows) == 0;
        fail_after(2);
        int whole = g->read(ctx, 8, rows, cols, dm, rows, out, rows);
        size_t untouched = 0;
        while (untouched < bytes && out[untouched] == 0xA5)
            untouched++;
        g->reset(ctx);
        fail_after(2);
        int marked = g->mark(ctx) == 0 ? g->read_marked(ctx, 1, 8, rows, cols, dm,
                                                        rows, out, rows)
                                    : 0;
        size_t marked_untouched = 0;
        while (marked_untouched < bytes && out[marked_untouched] == 0xA5)
            marked_untouched++;
        g->reset(ctx);
        fail_after(2);
        int direct = g->read_direct(ctx, 8, rows, cols, dm, rows, out, rows);
        fail_after(-1);
        g->reset(ctx);
        snprintf(detail, sizeof detail,
                 "read %d (%zu of %zu bytes untouched), read_marked %d (%zu), "
                 "read_direct %d",
                 whole, untouched, bytes, marked, marked_untouched, direct);
        verdict(wrote && whole == -1 && untouched == bytes && marked == -1 &&
                    marked_untouched == bytes && direct == -1,
                "read-fails-midway", detail);
        g->release(ctx, dm);
        free(in);
        free(out);
    }

    /* the copy lanes: registered memory by the driver's 2D copies, other
     * memory in order; an unrecorded slot is no wait, a slot out of range
     * an error; a lane's read that fails is reported by finish, and its
     * streams are freed when the context closes */
    {
        void (*set_elem)(size_t) = (void (*)(size_t))dlsym(mock, "mock_set_elem");
        set_elem(8);
        int streams = mock_int("mock_live_streams");
        for (int registered = 0; registered < 2; registered++) {
            char name[64];
            snprintf(name, sizeof name, "lanes/%s", registered ? "registered" : "pageable");
            verdict(lanes_round_trip(ctx, 300, 200, 301, 300, registered, detail,
                                     sizeof detail) &&
                        lanes_round_trip(ctx, 1000, 1, 1000, 1000, registered,
                                         detail, sizeof detail),
                    name, detail);
        }
        snprintf(detail, sizeof detail, "streams %d -> %d", streams,
                 mock_int("mock_live_streams"));
        verdict(mock_int("mock_live_streams") == streams + 2, "lanes/streams", detail);
        g->reset(ctx);
        verdict(g->lane_wait(ctx, GL_LANE_UP, 5) == 0 && g->finish(ctx) == 0 &&
                    g->lane_wait(ctx, GL_LANE_UP, GL_LANE_EVENTS) == -1 &&
                    g->finish(ctx) == -1,
                "lanes/slots", "an unrecorded slot waited, or a bad slot passed");
        g->reset(ctx);
        void (*fail_after)(int) = (void (*)(int))dlsym(mock, "mock_fail_dtoh_after");
        double x[64] = {1}, y[64];
        double *dm = g->alloc(ctx, sizeof x);
        int reg = g->host_register(ctx, y, sizeof y);
        int wrote = g->write(ctx, 8, 64, 1, x, 64, dm, 64);
        fail_after(0);
        int read = g->lane_read(ctx, 8, 8, 8, dm, 8, y, 8);
        int finished = g->finish(ctx);
        fail_after(-1);
        g->host_unregister(ctx, y);
        snprintf(detail, sizeof detail, "register %d, write %d, lane read %d, finish %d",
                 reg, wrote, read, finished);
        verdict(reg == 0 && wrote == 0 && read == -1 && finished == -1,
                "lanes/read-fails", detail);
        g->reset(ctx);
        g->release(ctx, dm);
    }

    /* a launch the device fails: the next read fails, dst untouched, and
     * reset() clears the state */
    double x[4] = {1, 2, 3, 4}, y[4] = {9, 9, 9, 9};
    double *d = g->alloc(ctx, sizeof x);
    int rows = 4, cols = 1, ld = 4;
    double mul = 2;
    gl_arg args[] = {GL_VALUE(rows), GL_VALUE(cols), GL_MEM(d, 8),
                     GL_VALUE(ld), GL_VALUE(mul)};
    size_t groups[2] = {1, 1}, local[2] = {16, 16};
    int wrote = g->write(ctx, 8, 4, 1, x, 4, d, 4);
    int launched = g->launch(ctx, 2, GL_K_SCALE, 2, groups, local, 5, args);
    int read_failed = g->read(ctx, 8, 4, 1, d, 4, y, 4);
    verdict(wrote == 0 && launched == -1 && read_failed == -1 && y[0] == 9 &&
                y[3] == 9,
            "error-state", "a failed launch was not reported by the read");
    g->reset(ctx);
    verdict(g->read(ctx, 8, 4, 1, d, 4, y, 4) == 0 && y[3] == 4, "reset",
            "read after reset");
    g->release(ctx, d);
    verdict(g->resident_groups(ctx) == (int)info->compute_units &&
                g->finish(ctx) == 0,
            "resident-finish", "the device's multiprocessors, or finish");

    /* the ledger: a capped context refuses what would take it past its
     * cap, counts what it holds and its peak, and forgets what it frees;
     * the driver reports its free memory */
    {
        size_t held = ctx->memory.in_use;
        ctx->memory.capped = 1;
        ctx->memory.limit = held + (1 << 20);
        ctx->memory.peak = held;
        void *p1 = g->alloc(ctx, 600 << 10), *p2 = g->alloc(ctx, 600 << 10);
        size_t in_use = ctx->memory.in_use, peak = ctx->memory.peak;
        g->release(ctx, p1);
        void *p3 = g->alloc(ctx, 1 << 20);
        size_t whole = ctx->memory.in_use;
        g->release(ctx, p3);
        snprintf(detail, sizeof detail,
                 "second %p, in use %zu, peak %zu, whole %zu, after %zu", p2,
                 in_use - held, peak - held, whole - held,
                 ctx->memory.in_use - held);
        verdict(p1 && !p2 && p3 && in_use == held + (600 << 10) &&
                    peak == in_use && whole == held + (1 << 20) &&
                    ctx->memory.in_use == held && ctx->memory.peak == whole,
                "ledger-cap", detail);
        ctx->memory.capped = 0;
        setenv("GL_MOCK_FREE_MB", "1234", 1);
        unsigned long long free_now = g->memory_free(0);
        unsetenv("GL_MOCK_FREE_MB");
        snprintf(detail, sizeof detail, "%llu bytes", free_now);
        verdict(free_now == 1234ull << 20, "memory-free", detail);
    }

    /* close: the context's streams (its second one too), staging and
     * scratch freed */
    g->close(ctx);
    snprintf(detail, sizeof detail, "streams %d -> %d, pinned %d -> %d",
             streams0, mock_int("mock_live_streams"), pinned0,
             mock_int("mock_live_host_allocs"));
    verdict(!ctx->queue && mock_int("mock_live_streams") == streams0 &&
                mock_int("mock_live_host_allocs") == pinned0,
            "close", detail);

    /* four threads at once, a context each; their streams and staging
     * freed when they close */
    int streams = mock_int("mock_live_streams"),
        pinned = mock_int("mock_live_host_allocs");
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, thread_body, NULL);
    int all = 1;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        all &= r != NULL;
    }
    snprintf(detail, sizeof detail, "streams %d -> %d, pinned %d -> %d",
             streams, mock_int("mock_live_streams"), pinned,
             mock_int("mock_live_host_allocs"));
    verdict(all && mock_int("mock_live_streams") == streams &&
                mock_int("mock_live_host_allocs") == pinned,
            "threads", detail);

    /* two contexts on one device, and on two, used at once */
    pair("two-contexts-one-device", 0, 0);
    pair("two-contexts-two-devices", 0, 1);

    /* a whole call: GPULAPACK_DEVICE=cuda takes the (mock) GPU, whose
     * kernels fail; the call restarts on LAPACK with the caller's data */
    int n = 60, lwork = 2 * n + 1, liwork = 1, info_rc = -1;
    double *a = calloc((size_t)n * n, sizeof *a), w[60], work[121];
    for (int i = 0; i < n; i++) {
        a[i + i * n] = 2;
        if (i + 1 < n)
            a[i + 1 + i * n] = -1;
    }
    int launches = mock_int("mock_launches"), iwork[1];
    dsyevd_("N", "L", &n, a, &n, w, work, &lwork, iwork, &liwork, &info_rc, 1, 1);
    double worst = 0;
    for (int k = 1; k <= n; k++) {
        double exact = 2 - 2 * cos(k * M_PI / (n + 1));
        worst = fmax(worst, fabs(w[k - 1] - exact));
    }
    snprintf(detail, sizeof detail, "info %d, error %.3g, launches %d",
             info_rc, worst, mock_int("mock_launches") - launches);
    verdict(info_rc == 0 && worst < 1e-13 &&
                mock_int("mock_launches") > launches,
            "fallback-dsyevd", detail);
    free(a);
    return failures != 0;
}
