/* Execution contexts (runtime/context.h): two calls at once from two
 * threads, each on its own context, give the results of the host path.
 * A template compiled once per precision (build/testing/test_contexts_p),
 * run with two OpenCL devices (POCL_DEVICES="pthread pthread" on a machine
 * without a GPU):
 *
 *   two-devices  contexts on OpenCL devices 0 and 1, one per thread;
 *   one-device   two contexts on device 0, one per thread;
 *   pool         a released context is taken again by the next call on
 *                its device, and a context held by a call is not.
 *
 * Each thread runs, several times and started together at a barrier, the
 * eigenvalue pipeline with vectors (?syevd's) and the SVD pipeline with
 * vectors (?gesdd's) on its context.  Values must agree with the host
 * path's within THRESH * n * eps * max|value|; vectors must satisfy
 * ||A Z - Z W||_max <= THRESH * n * eps * ||A||_max (eigenvectors) and
 * ||A - U S V^H||_max within the same bound (SVD).  A context that ran on
 * the wrong device, a shared queue or a race between the two calls moves
 * results by O(||A||), far beyond the bound.  TEST_VERBOSE=1 prints each
 * ratio. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "precision.h"
#include "context.h"
#include "device.h"
#include "../kernels/pipelines/pipelines.h"

#if GL_PRECISION == 1 || GL_PRECISION == 3
#define EPS ((double)FLT_EPSILON)
#else
#define EPS DBL_EPSILON
#endif
#define THRESH 30.0
#define AT(a, ld, i, j) ((a)[(size_t)(i) + (size_t)(j) * (size_t)(ld)])

enum { N = 72, M = 90, REPEATS = 3 };
static const char prec = GL_PREC_CHAR;

static uint64_t rng = 88172645463325252ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static gl_scalar random_scalar(void)
{
#if GL_COMPLEX
    return (gl_real)uniform() + (gl_real)uniform() * I;
#else
    return (gl_real)uniform();
#endif
}

/* The problems and the host path's answers. */
static gl_scalar herm[N * N], gen[M * N];
static gl_real w_ref[N], s_ref[N];

typedef struct worker {
    gl_ctx *ctx;
    pthread_barrier_t *start;
    int failed_runs;     /* a pipeline returned nonzero */
    double worst;        /* worst ratio over its checks */
} worker;

static double max_abs(const gl_scalar *a, size_t count)
{
    double m = 0;
    for (size_t i = 0; i < count; i++)
        m = fmax(m, (double)GL_ABS(a[i]));
    return m;
}

static double values_ratio(const gl_real *x, const gl_real *ref, int n)
{
    double scale = 0, err = 0;
    for (int i = 0; i < n; i++) {
        scale = fmax(scale, fabs((double)ref[i]));
        err = fmax(err, fabs((double)x[i] - (double)ref[i]));
    }
    return err / (n * EPS * (scale > 0 ? scale : 1));
}

static int run_eig(const GL_FN(ops) *ops, gl_real *w, gl_scalar *z)
{
    gl_eig_job job = {.driver = GL_EIG_SYEVD, .uplo = 'L', .range = 'A'};
    lapack_int m = 0;
    gl_stage_times t = {0};
    gl_call_plan plan = {.method = GL_METHOD_TWO_STAGE,
                         .tier = GL_PLAN_IN_CORE, .devices = 1};
    GL_FN(eig_plan_make)(&ops->ctx->tuning, &job, N, z != NULL, &plan);
    return GL_FN(eig)(ops, &plan, &job, N, herm, N, &m, w, z, N, NULL, NULL,
                      &t) ||
           m != N;
}

static int run_svd(const GL_FN(ops) *ops, gl_real *s, gl_scalar *u,
                   gl_scalar *vt)
{
    gl_svd_job job = {.stage3 = GL_SVD_BDSDC, .jobu = 'S', .jobvt = 'S'};
    gl_stage_times t = {0};
    gl_call_plan plan = {.method = GL_METHOD_TWO_STAGE,
                         .tier = GL_PLAN_IN_CORE, .devices = 1};
    GL_FN(svd_plan_make)(&ops->ctx->tuning, &job, M, N, 0, 0, &plan);
    return GL_FN(svd)(ops, &plan, &job, M, N, gen, M, s, u, M, vt, N, NULL,
                      &t);
}

/* max |A Z - Z W| / (n eps max|A|), A Hermitian in its lower triangle */
static double eig_residual(const gl_real *w, const gl_scalar *z)
{
    double err = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            gl_scalar sum = 0;
            for (int k = 0; k < N; k++) {
                gl_scalar a = i >= k ? AT(herm, N, i, k)
                                     : GL_CONJ(AT(herm, N, k, i));
                sum += a * AT(z, N, k, j);
            }
            sum -= AT(z, N, i, j) * w[j];
            err = fmax(err, (double)GL_ABS(sum));
        }
    return err / (N * EPS * max_abs(herm, (size_t)N * N));
}

/* max |A - U S V^H| / (n eps max|A|) */
static double svd_residual(const gl_real *s, const gl_scalar *u,
                           const gl_scalar *vt)
{
    double err = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            gl_scalar sum = 0;
            for (int k = 0; k < N; k++)
                sum += AT(u, M, i, k) * s[k] * AT(vt, N, k, j);
            err = fmax(err, (double)GL_ABS(AT(gen, M, i, j) - sum));
        }
    return err / (M * EPS * max_abs(gen, (size_t)M * N));
}

static void *work(void *arg)
{
    worker *wk = arg;
    GL_FN(ops) ops;
    gl_real w[N], s[N];
    gl_scalar *z = malloc(sizeof *z * N * N), *u = malloc(sizeof *u * M * N),
              *vt = malloc(sizeof *vt * N * N);
    if (!z || !u || !vt || GL_FN(ops_bind)(&ops, wk->ctx) != 0) {
        wk->failed_runs = REPEATS;
        pthread_barrier_wait(wk->start);
    } else {
        for (int r = 0; r < REPEATS; r++) {
            pthread_barrier_wait(wk->start);
            if (run_eig(&ops, w, z) || run_svd(&ops, s, u, vt)) {
                wk->failed_runs++;
                continue;
            }
            double ratios[4] = {values_ratio(w, w_ref, N), eig_residual(w, z),
                                values_ratio(s, s_ref, N),
                                svd_residual(s, u, vt)};
            for (int k = 0; k < 4; k++) {
                if (getenv("TEST_VERBOSE"))
                    printf("# ratio %d: %.3g\n", k, ratios[k]);
                wk->worst = fmax(wk->worst, ratios[k]);
            }
        }
    }
    free(z);
    free(u);
    free(vt);
    return NULL;
}

/* Two threads at once, on contexts a and b. */
static void pair(const char *name, gl_ctx *a, gl_ctx *b)
{
    if (!a || !b) {
        printf("FAIL unit/contexts/%c/%s: no context (%p, %p)\n", prec, name,
               (void *)a, (void *)b);
        gl_ctx_release(a);
        gl_ctx_release(b);
        return;
    }
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    worker wk[2] = {{a, &start, 0, 0}, {b, &start, 0, 0}};
    pthread_t th[2];
    int started = 0;
    for (int k = 0; k < 2; k++)
        started += pthread_create(&th[k], NULL, work, &wk[k]) == 0;
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    pthread_barrier_destroy(&start);
    double worst = fmax(wk[0].worst, wk[1].worst);
    int failed = wk[0].failed_runs + wk[1].failed_runs;
    if (started == 2 && failed == 0 && worst <= THRESH && a->queue != b->queue)
        printf("PASS unit/contexts/%c/%s (devices %d and %d, %d calls each, "
               "worst ratio %.2f)\n", prec, name, a->device, b->device,
               2 * REPEATS, worst);
    else
        printf("FAIL unit/contexts/%c/%s: %d runs failed, worst ratio %.3g, "
               "queues %s\n", prec, name, failed, worst,
               a->queue == b->queue ? "shared" : "apart");
    gl_ctx_release(a);
    gl_ctx_release(b);
}

static void pool_checks(void)
{
    gl_ctx *a = gl_ctx_acquire(GL_PATH_OPENCL, 0);
    gl_ctx *b = gl_ctx_acquire(GL_PATH_OPENCL, 0);
    int apart = a && b && a != b;
    gl_ctx_release(b);
    gl_ctx *c = gl_ctx_acquire(GL_PATH_OPENCL, 0);
    int reused = c == b;
    gl_ctx *other = gl_ctx_acquire(GL_PATH_OPENCL, 1);
    int own_device = other && other != b && other->device == 1;
    gl_ctx_release(a);
    gl_ctx_release(c);
    gl_ctx_release(other);
    if (apart && reused && own_device)
        printf("PASS unit/contexts/%c/pool\n", prec);
    else
        printf("FAIL unit/contexts/%c/pool: held contexts apart %d, released "
               "one taken again %d, device 1's own %d\n",
               prec, apart, reused, own_device);
}

int main(void)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            AT(herm, N, i, j) = i == j ? (gl_scalar)(gl_real)uniform()
                                : i > j ? random_scalar()
                                        : (gl_scalar)NAN;   /* never read */
    for (size_t i = 0; i < (size_t)M * N; i++)
        gen[i] = random_scalar();

    const gl_gpu *opencl = gl_device_gpu(GL_PATH_OPENCL);
    int devices = opencl ? opencl->device_count() : 0;
    if (devices < 2) {
        printf("FAIL unit/contexts/%c: %d OpenCL devices, 2 needed "
               "(POCL_DEVICES=\"pthread pthread\")\n", prec, devices);
        return 0;
    }

    /* the host path's answers, on a host context */
    gl_ctx *host = gl_ctx_acquire(GL_PATH_HOST, -1);
    GL_FN(ops) ops;
    gl_scalar *z = malloc(sizeof *z * N * N), *u = malloc(sizeof *u * M * N),
              *vt = malloc(sizeof *vt * N * N);
    if (!host || GL_FN(ops_bind)(&ops, host) != 0 || !z || !u || !vt ||
        run_eig(&ops, w_ref, z) || run_svd(&ops, s_ref, u, vt)) {
        printf("FAIL unit/contexts/%c: the host path's reference failed\n",
               prec);
        return 0;
    }
    free(z);
    free(u);
    free(vt);
    gl_ctx_release(host);

    pair("two-devices", gl_ctx_acquire(GL_PATH_OPENCL, 0),
         gl_ctx_acquire(GL_PATH_OPENCL, 1));
    pair("one-device", gl_ctx_acquire(GL_PATH_OPENCL, 0),
         gl_ctx_acquire(GL_PATH_OPENCL, 0));
    pool_checks();
    return 0;
}
