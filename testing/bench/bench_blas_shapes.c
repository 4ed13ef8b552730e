/* The system BLAS's rates on the products of the host path's stage 1, in
 * double, best of reps: what bounds `dsyevd` N and `dgesdd` N on a machine
 * (docs/performance.md, "What limits each case").  sy2sb's work is
 * X = A S (A Hermitian n x n, S n x b) once per panel, at symm's rate or
 * as the split of host_hemm (a symm per diagonal block of 256 and two
 * gemms per block column), and the rank-2k update of the trailing matrix
 * with k = the stage-1 block; ge2gb's is, per step and side, W = C^H V
 * (C the rest of the matrix, V n x b) and the rank-b update C -= V W^H,
 * half its flops each.  The square DGEMM
 * is the machine's peak for comparison.  Stage-1 seconds at these rates
 * count sy2sb's 2n^3/3 at the X rate plus 2n^3/3 at the rank-2k rate
 * (the panels and their corrections, a few percent more, not counted),
 * and ge2gb's 4n^3/3 at W = C^H V's rate plus 4n^3/3 at the rank-b
 * rate.  Not a test: nothing is
 * checked.
 *
 *   build/bench/bench_blas_shapes [n=4000] [b=64] [block=b] [reps=3]
 *
 * OPENBLAS_NUM_THREADS (or the BLAS's own) sets the threads. */
#define BENCH_PROG "bench_blas_shapes"
#include "bench_common.h"   /* now, urand, die, xmalloc */

typedef const int cint;
void dsymm_(const char *, const char *, cint *, cint *, const double *,
            const double *, cint *, const double *, cint *, const double *,
            double *, cint *);
void dgemm_(const char *, const char *, cint *, cint *, cint *,
            const double *, const double *, cint *, const double *, cint *,
            const double *, double *, cint *);
void dsyr2k_(const char *, const char *, cint *, cint *, const double *,
             const double *, cint *, const double *, cint *, const double *,
             double *, cint *);

/* host_hemm's split (kernels/backend/host/host_ops.c), X = A S with
 * beta = 0: symm on each diagonal block of 256, gemm on the rest of its
 * block column and on that column's transpose */
static void split_symm(int n, int b, const double *a, const double *s,
                       double *x)
{
    const double one = 1;
    memset(x, 0, sizeof *x * (size_t)n * (size_t)b);
    for (int j0 = 0; j0 < n; j0 += 256) {
        int jb = n - j0 < 256 ? n - j0 : 256, i0 = j0 + jb, rest = n - i0;
        dsymm_("L", "L", &jb, &b, &one, a + j0 + (size_t)j0 * n, &n, s + j0,
               &n, &one, x + j0, &n);
        if (rest == 0)
            continue;
        const double *off = a + i0 + (size_t)j0 * n;
        dgemm_("N", "N", &rest, &b, &jb, &one, off, &n, s + j0, &n, &one,
               x + i0, &n);
        dgemm_("T", "N", &jb, &b, &rest, &one, off, &n, s + i0, &n, &one,
               x + j0, &n);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000;
    int b = argc > 2 ? atoi(argv[2]) : 64;
    int block = argc > 3 ? atoi(argv[3]) : b;
    int reps = argc > 4 ? atoi(argv[4]) : 3;
    if (n < 2 || b < 1 || b > n || block < 1 || block > n || reps < 1) {
        fprintf(stderr, "usage: %s [n] [1 <= b <= n] [1 <= block <= n] "
                "[reps >= 1]\n", argv[0]);
        return 2;
    }
    const double one = 1, zero = 0, minus = -1;
    size_t nn = (size_t)n * n, nw = (size_t)n * (block > b ? block : b);
    double *a = xmalloc(sizeof *a * nn), *c = xmalloc(sizeof *c * nn),
           *s = xmalloc(sizeof *s * nw), *x = xmalloc(sizeof *x * nw);
    for (size_t i = 0; i < nn; i++)
        a[i] = urand();
    for (size_t i = 0; i < nw; i++)
        s[i] = urand();

    enum { SYMM, SPLIT, GEMM_W, GEMM_B, SYR2K, GEMM_SQUARE, CASES };
    static const char *names[CASES] = {"symm X=AS", "split X=AS",
                                       "gemm W=C^H V", "gemm rank-b",
                                       "syr2k rank-block", "gemm square"};
    double flops[CASES] = {2.0 * nn * b, 2.0 * nn * b, 2.0 * nn * b,
                           2.0 * nn * b, 2.0 * nn * block, 2.0 * nn * n};
    double best[CASES];
    for (int i = 0; i < CASES; i++)
        best[i] = 1e300;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < CASES; i++) {
            memcpy(c, a, sizeof *c * nn);
            double t = now();
            switch (i) {
            case SYMM:
                dsymm_("L", "L", &n, &b, &one, a, &n, s, &n, &zero, x, &n);
                break;
            case SPLIT:
                split_symm(n, b, a, s, x);
                break;
            case GEMM_W:
                dgemm_("T", "N", &n, &b, &n, &one, a, &n, s, &n, &zero, x, &n);
                break;
            case GEMM_B:
                dgemm_("N", "T", &n, &n, &b, &minus, s, &n, s, &n, &one, c,
                       &n);
                break;
            case SYR2K:
                dsyr2k_("L", "N", &n, &block, &minus, s, &n, s, &n, &one, c,
                        &n);
                break;
            default:
                dgemm_("N", "N", &n, &n, &n, &one, a, &n, a, &n, &zero, c,
                       &n);
                break;
            }
            t = now() - t;
            if (t < best[i])
                best[i] = t;
        }
    }
    printf("n=%d b=%d block=%d reps=%d\n", n, b, block, reps);
    double rate[CASES];
    for (int i = 0; i < CASES; i++) {
        rate[i] = flops[i] / best[i] * 1e-9;
        printf("%-17s %8.1f GFLOP/s\n", names[i], rate[i]);
    }
    double third = 2.0 * nn * n / 3 * 1e-9;   /* 2n^3/3, in GFLOP */
    double x_rate = rate[SYMM] > rate[SPLIT] ? rate[SYMM] : rate[SPLIT];
    printf("sy2sb at these rates %.3f s (at the square DGEMM rate %.3f s)\n",
           third / x_rate + third / rate[SYR2K], 2 * third / rate[GEMM_SQUARE]);
    printf("ge2gb at these rates %.3f s (at the square DGEMM rate %.3f s)\n",
           2 * third / rate[GEMM_W] + 2 * third / rate[GEMM_B],
           4 * third / rate[GEMM_SQUARE]);
    free(a);
    free(c);
    free(s);
    free(x);
    return 0;
}
