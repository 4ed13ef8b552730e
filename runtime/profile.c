#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
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

/* A context's profile: made on the first profiled call of the context
 * and kept with it (runtime/context.h). */
typedef struct gl_profile {
    int active;
    const char *stage;
    double start;
    int batching;          /* between batch_begin and batch_end */
    long batched;          /* launches recorded in the current batch */
    int rows, dropped;
    profile_row row[MAX_ROWS];
    gl_gpu wrapper;        /* ctx->gpu while profiling: times ctx->runtime */
} profile;

static void add(profile *prof, const char *name, long calls, double seconds,
                double bytes)
{
    profile_row *r = prof->row;
    int i = 0;
    /* names and stages are string literals: equal text is usually the
     * same pointer, strcmp catches the rest */
    while (i < prof->rows &&
           !((r[i].name == name || strcmp(r[i].name, name) == 0) &&
             (r[i].stage == prof->stage || strcmp(r[i].stage, prof->stage) == 0)))
        i++;
    if (i == prof->rows) {
        if (i == MAX_ROWS) {
            prof->dropped++;
            return;
        }
        r[i] = (profile_row){prof->stage, name, 0, 0, 0};
        prof->rows++;
    }
    r[i].calls += calls;
    r[i].seconds += seconds;
    r[i].bytes += bytes;
}

/* ---- the timing wrapper of a runtime ----------------------------------- */

#define INNER (ctx->runtime)

/* Waits for the device and adds the time since t0 to `name`. */
static int timed(gl_ctx *ctx, const char *name, double t0, double bytes,
                 int rc)
{
    if (!ctx->profile->batching && INNER->finish(ctx) != 0)
        rc = -1;
    add(ctx->profile, name, 1, gl_now() - t0, bytes);
    return rc;
}

static void *w_alloc(gl_ctx *ctx, size_t bytes)
{
    double t0 = gl_now();
    void *p = INNER->alloc(ctx, bytes);
    timed(ctx, "alloc", t0, (double)bytes, 0);
    return p;
}

static void w_release(gl_ctx *ctx, void *ptr)
{
    double t0 = gl_now();
    INNER->release(ctx, ptr);
    timed(ctx, "release", t0, 0, 0);
}

/* The runtime's copies: write, copy, read, the lanes'. */
typedef int copy_fn(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                    const void *src, size_t ld_src, void *dst, size_t ld_dst);

/* A copy timed as it completes, its bytes in row `name`. */
static int timed_copy(gl_ctx *ctx, const char *name, copy_fn *copy,
                      size_t elem, size_t rows, size_t cols, const void *src,
                      size_t ld_src, void *dst, size_t ld_dst)
{
    double t0 = gl_now();
    int rc = copy(ctx, elem, rows, cols, src, ld_src, dst, ld_dst);
    return timed(ctx, name, t0, (double)(elem * rows * cols), rc);
}

static int w_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                   const void *src, size_t ld_src, void *dst, size_t ld_dst)
{
    return timed_copy(ctx, "write", INNER->write, elem, rows, cols, src,
                      ld_src, dst, ld_dst);
}

static int w_copy(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                  const void *src, size_t ld_src, void *dst, size_t ld_dst)
{
    return timed_copy(ctx, "copy", INNER->copy, elem, rows, cols, src,
                      ld_src, dst, ld_dst);
}

static int timed_read(gl_ctx *ctx, copy_fn *read, size_t elem, size_t rows,
                      size_t cols, const void *src, size_t ld_src, void *dst,
                      size_t ld_dst)
{
    /* read waits for the work before it: that wait is not the copy's */
    double t0 = gl_now();
    int rc = INNER->finish(ctx);
    if (rc == 0) {
        add(ctx->profile, "wait", 1, gl_now() - t0, 0);
        t0 = gl_now();
        rc = read(ctx, elem, rows, cols, src, ld_src, dst, ld_dst);
    }
    add(ctx->profile, "read", 1, gl_now() - t0, (double)(elem * rows * cols));
    return rc;
}

static int w_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                  const void *src, size_t ld_src, void *dst, size_t ld_dst)
{
    return timed_read(ctx, INNER->read, elem, rows, cols, src, ld_src, dst,
                      ld_dst);
}

static int w_read_direct(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                         const void *src, size_t ld_src, void *dst,
                         size_t ld_dst)
{
    return timed_read(ctx, INNER->read_direct, elem, rows, cols, src, ld_src,
                      dst, ld_dst);
}

/* Every operation before has finished (timed), so the read's time is the
 * copy's, as in timed_read. */
static int w_read_marked(gl_ctx *ctx, int whole, size_t elem, size_t rows,
                         size_t cols, const void *src, size_t ld_src,
                         void *dst, size_t ld_dst)
{
    double t0 = gl_now();
    int rc = INNER->read_marked(ctx, whole, elem, rows, cols, src, ld_src,
                                dst, ld_dst);
    add(ctx->profile, "read", 1, gl_now() - t0, (double)(elem * rows * cols));
    return rc;
}

/* The lanes' copies, timed as they complete (profiling runs every
 * operation to its end, so the lanes do not overlap then); their bytes
 * count as the bus's with the other writes and reads. */
static int w_lane_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                        const void *src, size_t ld_src, void *dst,
                        size_t ld_dst)
{
    return timed_copy(ctx, "write lane", INNER->lane_write, elem, rows, cols,
                      src, ld_src, dst, ld_dst);
}

static int w_lane_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                       const void *src, size_t ld_src, void *dst,
                       size_t ld_dst)
{
    return timed_copy(ctx, "read lane", INNER->lane_read, elem, rows, cols,
                      src, ld_src, dst, ld_dst);
}

/* Page-locking the host copy of a matrix larger than the device costs
 * time of its own (bytes: the range). */
static int w_host_register(gl_ctx *ctx, void *ptr, size_t bytes)
{
    double t0 = gl_now();
    int rc = INNER->host_register(ctx, ptr, bytes);
    add(ctx->profile, "host register", 1, gl_now() - t0, (double)bytes);
    return rc;
}

static int w_launch(gl_ctx *ctx, int precision, gl_kernel k, int dims,
                    const size_t *groups, const size_t *local, int nargs,
                    const gl_arg *args)
{
    double t0 = gl_now();
    int rc = INNER->launch(ctx, precision, k, dims, groups, local, nargs, args);
    if (ctx->profile->batching) {
        ctx->profile->batched++;
        return rc;
    }
    return timed(ctx, gl_kernel_names[k], t0, 0, rc);
}

static int w_blas_gemm(gl_ctx *ctx, int precision, int transa, int transb,
                       size_t m, size_t n, size_t k, const void *alpha,
                       const void *a, size_t lda, const void *b, size_t ldb,
                       const void *beta, void *c, size_t ldc)
{
    double t0 = gl_now();
    int rc = INNER->blas_gemm(ctx, precision, transa, transb, m, n, k, alpha,
                              a, lda, b, ldb, beta, c, ldc);
    /* 1: not there, the portable kernel's launch follows */
    return rc == 1 ? rc : timed(ctx, "blas gemm", t0, 2.0 * m * n * k, rc);
}

static int w_blas_gemm_batched(gl_ctx *ctx, int precision, int transa,
                               int transb, size_t m, size_t n, size_t k,
                               const void *alpha, const void *a, size_t lda,
                               size_t stride_a, const void *b, size_t ldb,
                               size_t stride_b, const void *beta, void *c,
                               size_t ldc, size_t stride_c, size_t count)
{
    double t0 = gl_now();
    int rc = INNER->blas_gemm_batched(ctx, precision, transa, transb, m, n, k,
                                      alpha, a, lda, stride_a, b, ldb,
                                      stride_b, beta, c, ldc, stride_c,
                                      count);
    return rc == 1 ? rc
                   : timed(ctx, "blas gemm batched", t0,
                           2.0 * m * n * k * count, rc);
}

static int w_blas_hemm(gl_ctx *ctx, int precision, int side_right, int lower,
                       size_t m, size_t n, const void *alpha, const void *a,
                       size_t lda, const void *b, size_t ldb, const void *beta,
                       void *c, size_t ldc)
{
    double t0 = gl_now();
    int rc = INNER->blas_hemm(ctx, precision, side_right, lower, m, n, alpha,
                              a, lda, b, ldb, beta, c, ldc);
    double k = side_right ? (double)n : (double)m;
    return rc == 1 ? rc : timed(ctx, "blas hemm", t0, 2.0 * m * n * k, rc);
}

static int w_blas_her2k(gl_ctx *ctx, int precision, int lower, int trans,
                        size_t n, size_t k, const void *alpha, const void *a,
                        size_t lda, const void *b, size_t ldb,
                        const void *beta, void *c, size_t ldc)
{
    double t0 = gl_now();
    int rc = INNER->blas_her2k(ctx, precision, lower, trans, n, k, alpha, a,
                               lda, b, ldb, beta, c, ldc);
    return rc == 1 ? rc : timed(ctx, "blas her2k", t0, 2.0 * n * n * k, rc);
}

static void w_batch_begin(gl_ctx *ctx, int precision)
{
    INNER->batch_begin(ctx, precision);
    ctx->profile->batching = 1;
    ctx->profile->batched = 0;
}

static int w_batch_end(gl_ctx *ctx)
{
    /* the batch's launches run now (a graph) or ran as they came */
    double t0 = gl_now();
    int rc = INNER->batch_end(ctx);
    ctx->profile->batching = 0;
    if (INNER->finish(ctx) != 0)
        rc = -1;
    add(ctx->profile, "batch launches", ctx->profile->batched, gl_now() - t0,
        0);
    return rc;
}

static int w_eig_solve(gl_ctx *ctx, int precision, char jobz, char uplo,
                       int64_t n, void *a, int64_t lda, void *w,
                       int *info_host)
{
    double t0 = gl_now();
    int rc = INNER->eig_solve(ctx, precision, jobz, uplo, n, a, lda, w,
                              info_host);
    return timed(ctx, "vendor eig", t0, 0, rc);
}

/* ---- a call's profile --------------------------------------------------- */

/* The wrapper: the runtime's own entries where nothing is timed, and its
 * optional ones only where it has them. */
static void wrap(gl_gpu *w, const gl_gpu *gpu)
{
    *w = *gpu;
    w->alloc = w_alloc;
    w->release = w_release;
    w->write = w_write;
    w->copy = w_copy;
    w->read = w_read;
    w->read_direct = w_read_direct;
    w->read_marked = gpu->read_marked ? w_read_marked : NULL;
    w->lane_write = gpu->lane_write ? w_lane_write : NULL;
    w->lane_read = gpu->lane_read ? w_lane_read : NULL;
    w->host_register = gpu->host_register ? w_host_register : NULL;
    w->launch = w_launch;
    w->blas_gemm = w_blas_gemm;
    w->blas_gemm_batched = gpu->blas_gemm_batched ? w_blas_gemm_batched : NULL;
    w->blas_hemm = gpu->blas_hemm ? w_blas_hemm : NULL;
    w->blas_her2k = gpu->blas_her2k ? w_blas_her2k : NULL;
    w->batch_begin = gpu->batch_begin ? w_batch_begin : NULL;
    w->batch_end = gpu->batch_end ? w_batch_end : NULL;
    /* solver_ready and solver_version are the runtime's own */
    w->eig_solve = gpu->eig_solve ? w_eig_solve : NULL;
}

void gl_profile_begin(gl_ctx *ctx)
{
    ctx->gpu = ctx->runtime;
    if (!gl_config_get()->profile) {
        if (ctx->profile)
            ctx->profile->active = 0;
        return;
    }
    if (!ctx->profile && !(ctx->profile = calloc(1, sizeof *ctx->profile)))
        return;   /* not profiled: the call runs as without the setting */
    profile *prof = ctx->profile;
    prof->active = 1;
    prof->stage = "start";
    prof->start = gl_now();
    prof->batching = 0;
    prof->rows = prof->dropped = 0;
    if (ctx->runtime) {
        wrap(&prof->wrapper, ctx->runtime);
        ctx->gpu = &prof->wrapper;
    }
}

static profile *active(const gl_ctx *ctx)
{
    return ctx && ctx->profile && ctx->profile->active ? ctx->profile : NULL;
}

double gl_profile_stage(gl_ctx *ctx, const char *stage)
{
    profile *prof = active(ctx);
    if (prof)
        prof->stage = stage;
    return gl_now();
}

double gl_profile_clock(const gl_ctx *ctx) { return active(ctx) ? gl_now() : 0; }

void gl_profile_section(gl_ctx *ctx, const char *name, double since)
{
    profile *prof = active(ctx);
    if (prof)
        add(prof, name, 1, gl_now() - since, 0);
}

void gl_profile_count(gl_ctx *ctx, const char *name, long calls,
                      double bytes)
{
    profile *prof = active(ctx);
    if (prof)
        add(prof, name, calls, 0, bytes);
}

void gl_profile_end(gl_ctx *ctx, const char *routine)
{
    profile *prof = active(ctx);
    if (!prof)
        return;
    prof->active = 0;
    ctx->gpu = ctx->runtime;
    double total = gl_now() - prof->start, timed_sum = 0;
    for (int i = 0; i < prof->rows; i++)
        timed_sum += prof->row[i].seconds;
    gl_log(1, "%s profile: %.6fs in all, %.6fs in the %d rows below%s",
           routine, total, timed_sum, prof->rows,
           prof->dropped ? " (some rows dropped: table full)" : "");
    if (ctx->runtime)
        gl_log(1, "%s profile: device peak=%zu bytes", routine,
               ctx->memory.peak);
    for (int i = 0; i < prof->rows; i++) {
        const profile_row *r = &prof->row[i];
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
