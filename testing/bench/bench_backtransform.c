/* The stage-2 back-transformation alone, on the host backend, in double:
 * a random Hermitian band of half-width b is chased to tridiagonal with
 * its reflectors kept, then Q E and Q^H E are timed on a random n x n E
 * (best of reps).  GFLOP/s counts the 2 n^3 of the plain product, so it
 * is comparable with DGEMM's rate.  Not a test: nothing is checked here
 * (test_vectors checks the result).
 *
 *   build/bench/bench_backtransform [n=4000] [b=64] [reps=3]
 *
 * GPULAPACK_GROUP, GPULAPACK_CHUNK and GPULAPACK_HOST_THREADS apply. */
#define BENCH_PROG "bench_backtransform"
#include "bench_common.h"   /* now, urand, die, xmalloc */

#define GL_PRECISION 2
/* precision.h first: it defines the names the others use */
#include "runtime/precision.h"
#include "runtime/context.h"
#include "kernels/stages/backtransform.h"

int main(int argc, char **argv)
{
    lapack_int n = argc > 1 ? atoi(argv[1]) : 4000;
    lapack_int b = argc > 2 ? atoi(argv[2]) : 64;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    if (n < 3 || b < 2 || b >= n || reps < 1) {
        fprintf(stderr, "usage: %s [n >= 3] [2 <= b < n] [reps >= 1]\n",
                argv[0]);
        return 2;
    }
    /* the host backend's table, bound to a host context */
    gl_ctx *ctx = gl_ctx_acquire(GL_PATH_HOST, -1);
    GL_FN(ops) table;
    if (!ctx || GL_FN(ops_bind)(&table, ctx) != 0)
        die("no host context (is the system LAPACK there?)", NULL);
    const GL_FN(ops) *ops = &table;
    const gl_tuning *tuning = &ctx->tuning;
    lapack_int ld = 2 * b + 1;
    gl_scalar *band = xmalloc(sizeof *band * (size_t)ld * (size_t)n);
    gl_scalar *e = xmalloc(sizeof *e * (size_t)n * (size_t)n);
    GL_FN(reflectors) keep;
    if (GL_FN(reflectors_alloc)(ops, &keep, n, b, gl_tune_group(tuning, b), 0))
        die("out of memory for the reflectors", NULL);
    rng_state = 1;
    for (size_t i = 0; i < (size_t)ld * (size_t)n; i++)
        band[i] = urand();
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
        e[i] = urand();
    if (ops->sb_chase(ops, n, b, n, band, ld, &keep))
        die("the chase failed", NULL);
    double best_q = 1e30, best_qh = 1e30;
    for (int r = 0; r < reps; r++) {
        double t = now();
        int rc = GL_FN(apply_chase)(ops, &keep, 'Q', 'N', n, e, n);
        t = now() - t;
        best_q = t < best_q ? t : best_q;
        t = now();
        rc |= GL_FN(apply_chase)(ops, &keep, 'Q', 'C', n, e, n);
        t = now() - t;
        best_qh = t < best_qh ? t : best_qh;
        if (rc)
            die("apply_chase failed", NULL);
    }
    double flops = 2.0 * (double)n * (double)n * (double)n;
    printf("n=%d b=%d group=%d chunk=%d threads=%d: Q E %.3f s (%.1f GFLOP/s), "
           "Q^H E %.3f s (%.1f GFLOP/s)\n",
           (int)n, (int)b, gl_tune_group(tuning, b), tuning->chunk,
           gl_host_threads(),
           best_q, flops / best_q * 1e-9, best_qh, flops / best_qh * 1e-9);
    GL_FN(reflectors_free)(ops, &keep);
    gl_ctx_release(ctx);
    free(band);
    free(e);
    return 0;
}
