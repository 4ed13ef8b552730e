#include "profile.h"

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "log.h"

/* One row of a profile: an operation or host section within a stage. */
typedef struct profile_row {
    const char *stage, *name;
    long calls;
    double seconds, bytes;
} profile_row;

enum { MAX_ROWS = 96 };

typedef struct profile {
    int active;
    const char *stage;
    double start;
    const gl_gpu *inner;   /* the runtime the wrapper times, NULL on the host */
    int batching;          /* between batch_begin and batch_end */
    long batched;          /* launches recorded in the current batch */
    int rows, dropped;
    profile_row row[MAX_ROWS];
    gl_gpu wrapper;
} profile;

static _Thread_local profile prof;

static void add(const char *name, long calls, double seconds, double bytes)
{
    profile_row *r = prof.row;
    int i = 0;
    /* names and stages are string literals: equal text is usually the
     * same pointer, strcmp catches the rest */
    while (i < prof.rows &&
           !((r[i].name == name || strcmp(r[i].name, name) == 0) &&
             (r[i].stage == prof.stage || strcmp(r[i].stage, prof.stage) == 0)))
        i++;
    if (i == prof.rows) {
        if (i == MAX_ROWS) {
            prof.dropped++;
            return;
        }
        r[i] = (profile_row){prof.stage, name, 0, 0, 0};
        prof.rows++;
    }
    r[i].calls += calls;
    r[i].seconds += seconds;
    r[i].bytes += bytes;
}

/* ---- the timing wrapper of a runtime ----------------------------------- */

/* Waits for the device and adds the time since t0 to `name`. */
static int timed(const char *name, double t0, double bytes, int rc)
{
    if (!prof.batching && prof.inner->finish() != 0)
        rc = -1;
    add(name, 1, gl_now() - t0, bytes);
    return rc;
}

static void *w_alloc(size_t bytes)
{
    double t0 = gl_now();
    void *p = prof.inner->alloc(bytes);
    timed("alloc", t0, (double)bytes, 0);
    return p;
}

static void w_release(void *ptr)
{
    double t0 = gl_now();
    prof.inner->release(ptr);
    timed("release", t0, 0, 0);
}

static int w_write(size_t elem, size_t rows, size_t cols, const void *src,
                   size_t ld_src, void *dst, size_t ld_dst)
{
    double t0 = gl_now();
    int rc = prof.inner->write(elem, rows, cols, src, ld_src, dst, ld_dst);
    return timed("write", t0, (double)(elem * rows * cols), rc);
}

static int w_copy(size_t elem, size_t rows, size_t cols, const void *src,
                  size_t ld_src, void *dst, size_t ld_dst)
{
    double t0 = gl_now();
    int rc = prof.inner->copy(elem, rows, cols, src, ld_src, dst, ld_dst);
    return timed("copy", t0, (double)(elem * rows * cols), rc);
}

typedef int read_fn(size_t elem, size_t rows, size_t cols, const void *src,
                    size_t ld_src, void *dst, size_t ld_dst);

static int timed_read(read_fn *read, size_t elem, size_t rows, size_t cols,
                      const void *src, size_t ld_src, void *dst, size_t ld_dst)
{
    /* read waits for the work before it: that wait is not the copy's */
    double t0 = gl_now();
    int rc = prof.inner->finish();
    if (rc == 0) {
        add("wait", 1, gl_now() - t0, 0);
        t0 = gl_now();
        rc = read(elem, rows, cols, src, ld_src, dst, ld_dst);
    }
    add("read", 1, gl_now() - t0, (double)(elem * rows * cols));
    return rc;
}

static int w_read(size_t elem, size_t rows, size_t cols, const void *src,
                  size_t ld_src, void *dst, size_t ld_dst)
{
    return timed_read(prof.inner->read, elem, rows, cols, src, ld_src, dst,
                      ld_dst);
}

static int w_read_direct(size_t elem, size_t rows, size_t cols,
                         const void *src, size_t ld_src, void *dst,
                         size_t ld_dst)
{
    return timed_read(prof.inner->read_direct, elem, rows, cols, src, ld_src,
                      dst, ld_dst);
}

/* Every operation before has finished (timed), so the read's time is the
 * copy's, as in timed_read. */
static int w_read_marked(int whole, size_t elem, size_t rows, size_t cols,
                         const void *src, size_t ld_src, void *dst,
                         size_t ld_dst)
{
    double t0 = gl_now();
    int rc = prof.inner->read_marked(whole, elem, rows, cols, src, ld_src,
                                     dst, ld_dst);
    add("read", 1, gl_now() - t0, (double)(elem * rows * cols));
    return rc;
}

static int w_launch(int precision, gl_kernel k, int dims, const size_t *groups,
                    const size_t *local, int nargs, const gl_arg *args)
{
    double t0 = gl_now();
    int rc = prof.inner->launch(precision, k, dims, groups, local, nargs, args);
    if (prof.batching) {
        prof.batched++;
        return rc;
    }
    return timed(gl_kernel_names[k], t0, 0, rc);
}

static int w_blas_gemm(int precision, int transa, int transb, size_t m,
                       size_t n, size_t k, const void *alpha, const void *a,
                       size_t lda, const void *b, size_t ldb, const void *beta,
                       void *c, size_t ldc)
{
    double t0 = gl_now();
    int rc = prof.inner->blas_gemm(precision, transa, transb, m, n, k, alpha,
                                   a, lda, b, ldb, beta, c, ldc);
    /* 1: not there, the portable kernel's launch follows */
    return rc == 1 ? rc : timed("blas gemm", t0, 2.0 * m * n * k, rc);
}

static int w_blas_gemm_batched(int precision, int transa, int transb,
                               size_t m, size_t n, size_t k,
                               const void *alpha, const void *a, size_t lda,
                               size_t stride_a, const void *b, size_t ldb,
                               size_t stride_b, const void *beta, void *c,
                               size_t ldc, size_t stride_c, size_t count)
{
    double t0 = gl_now();
    int rc = prof.inner->blas_gemm_batched(precision, transa, transb, m, n, k,
                                           alpha, a, lda, stride_a, b, ldb,
                                           stride_b, beta, c, ldc, stride_c,
                                           count);
    return rc == 1 ? rc
                   : timed("blas gemm batched", t0, 2.0 * m * n * k * count,
                           rc);
}

static int w_blas_hemm(int precision, int side_right, int lower, size_t m,
                       size_t n, const void *alpha, const void *a, size_t lda,
                       const void *b, size_t ldb, const void *beta, void *c,
                       size_t ldc)
{
    double t0 = gl_now();
    int rc = prof.inner->blas_hemm(precision, side_right, lower, m, n, alpha,
                                   a, lda, b, ldb, beta, c, ldc);
    double k = side_right ? (double)n : (double)m;
    return rc == 1 ? rc : timed("blas hemm", t0, 2.0 * m * n * k, rc);
}

static int w_blas_her2k(int precision, int lower, int trans, size_t n,
                        size_t k, const void *alpha, const void *a, size_t lda,
                        const void *b, size_t ldb, const void *beta, void *c,
                        size_t ldc)
{
    double t0 = gl_now();
    int rc = prof.inner->blas_her2k(precision, lower, trans, n, k, alpha, a,
                                    lda, b, ldb, beta, c, ldc);
    return rc == 1 ? rc : timed("blas her2k", t0, 2.0 * n * n * k, rc);
}

static void w_batch_begin(int precision)
{
    prof.inner->batch_begin(precision);
    prof.batching = 1;
    prof.batched = 0;
}

static int w_batch_end(void)
{
    /* the batch's launches run now (a graph) or ran as they came */
    double t0 = gl_now();
    int rc = prof.inner->batch_end();
    prof.batching = 0;
    if (prof.inner->finish() != 0)
        rc = -1;
    add("batch launches", prof.batched, gl_now() - t0, 0);
    return rc;
}

/* ---- a call's profile --------------------------------------------------- */

const gl_gpu *gl_profile_begin(const gl_gpu *gpu)
{
    prof.active = 0;
    if (!gl_config_get()->profile)
        return gpu;
    prof.active = 1;
    prof.stage = "start";
    prof.start = gl_now();
    prof.inner = gpu;
    prof.batching = 0;
    prof.rows = prof.dropped = 0;
    if (!gpu)
        return NULL;
    /* the runtime's own entries where nothing is timed, and its optional
     * ones only where it has them */
    gl_gpu *w = &prof.wrapper;
    *w = *gpu;
    w->alloc = w_alloc;
    w->release = w_release;
    w->write = w_write;
    w->copy = w_copy;
    w->read = w_read;
    w->read_direct = w_read_direct;
    w->read_marked = gpu->read_marked ? w_read_marked : NULL;
    w->launch = w_launch;
    w->blas_gemm = w_blas_gemm;
    w->blas_gemm_batched = gpu->blas_gemm_batched ? w_blas_gemm_batched : NULL;
    w->blas_hemm = gpu->blas_hemm ? w_blas_hemm : NULL;
    w->blas_her2k = gpu->blas_her2k ? w_blas_her2k : NULL;
    w->batch_begin = gpu->batch_begin ? w_batch_begin : NULL;
    w->batch_end = gpu->batch_end ? w_batch_end : NULL;
    return w;
}

double gl_profile_stage(const char *stage)
{
    if (prof.active)
        prof.stage = stage;
    return gl_now();
}

double gl_profile_clock(void) { return prof.active ? gl_now() : 0; }

void gl_profile_section(const char *name, double since)
{
    if (prof.active)
        add(name, 1, gl_now() - since, 0);
}

void gl_profile_end(const char *routine)
{
    if (!prof.active)
        return;
    prof.active = 0;
    double total = gl_now() - prof.start, timed_sum = 0;
    for (int i = 0; i < prof.rows; i++)
        timed_sum += prof.row[i].seconds;
    gl_log(1, "%s profile: %.6fs in all, %.6fs in the %d rows below%s",
           routine, total, timed_sum, prof.rows,
           prof.dropped ? " (some rows dropped: table full)" : "");
    for (int i = 0; i < prof.rows; i++) {
        const profile_row *r = &prof.row[i];
        /* bytes copied or allocated; for BLAS, its flops */
        char amount[48] = "";
        if (r->bytes > 0)
            snprintf(amount, sizeof amount, " %s=%.3g",
                     strncmp(r->name, "blas", 4) == 0 ? "flops" : "bytes",
                     r->bytes);
        gl_log(1, "%s profile: stage=%s op=\"%s\" calls=%ld time=%.6fs%s",
               routine, r->stage, r->name, r->calls, r->seconds, amount);
    }
}
