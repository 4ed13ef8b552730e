/* Unit test of the host back-transformation's product kernel
 * (kernels/backend/host/tile_gemm.c), one precision per binary: every kernel
 * this CPU can run (the portable 16-byte one, and AVX2/AVX-512 where present),
 * not only the one the library would choose, against the plain triple
 * loop, for C = A B, C = C - A B and C = C + A B on every shape class the tiling
 * distinguishes: smaller than one tile, whole tiles, one row or column
 * past a tile (the overlapping last tile), inner dimension 0 and 1, and
 * leading dimensions larger than the rows; A dense, and A zero outside a
 * band (A(i, p) = 0 for p < i - below or p > i + above), whose zeros the
 * kernels skip.
 *
 * Criterion, per element: |C - C_ref| <= 4 k eps (|A| |B|)_ij (+ |C0|_ij
 * eps for the accumulating forms): both sides sum the same k products in
 * the same order, only fused multiply-adds differ.  A wrong index, a
 * missed or doubled update shows up as an error of the order of the
 * products themselves.  The rows between m and ldc of C hold a sentinel
 * that no kernel may overwrite. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../kernels/backend/host/tile_gemm.c"

#if GL_PRECISION == 1 || GL_PRECISION == 3
#define EPS FLT_EPSILON
#else
#define EPS DBL_EPSILON
#endif

static gl_scalar random_scalar(void)
{
    gl_scalar x = (gl_scalar)(2 * drand48() - 1);
#if GL_COMPLEX
    x += (gl_scalar)(2 * drand48() - 1) * I;
#endif
    return x;
}

static int check(const tile_choice *t, lapack_int m, lapack_int n,
                 lapack_int k, int mode, lapack_int below,
                 lapack_int above, double *worst)
{
    lapack_int lda = m + 3, ldb = k + 2, ldc = m + 5;
    size_t asize = (size_t)lda * (size_t)(k > 0 ? k : 1);
    size_t bsize = (size_t)ldb * (size_t)n, csize = (size_t)ldc * (size_t)n;
    gl_scalar *a = malloc(sizeof *a * asize), *b = malloc(sizeof *b * bsize);
    gl_scalar *c = malloc(sizeof *c * csize), *ref = malloc(sizeof *c * csize);
    gl_scalar *c0 = malloc(sizeof *c * csize);
    const gl_scalar sentinel = (gl_scalar)12345;
    for (lapack_int p = 0; p < (k > 0 ? k : 1); p++)
        for (lapack_int i = 0; i < lda; i++)
            a[i + (size_t)p * lda] =
                p < i - below || p > i + above ? 0 : random_scalar();
    for (size_t i = 0; i < bsize; i++)
        b[i] = random_scalar();
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < ldc; i++)
            c0[i + (size_t)j * ldc] = i < m ? random_scalar() : sentinel;
    for (size_t i = 0; i < csize; i++)
        c[i] = ref[i] = c0[i];
    if (m >= t->mr && n >= t->nr && k > 0)
        t->kernel(m, n, k, mode, a, lda, below, above, b, ldb, c, ldc);
    else
        tile_gemm_plain(m, n, k, mode, a, lda, b, ldb, c, ldc);
    tile_gemm_plain(m, n, k, mode, a, lda, b, ldb, ref, ldc);
    int bad = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < ldc; i++) {
            size_t ij = i + (size_t)j * ldc;
            if (i >= m) {
                bad |= c[ij] != sentinel;
                continue;
            }
            double bound = 0;
            for (lapack_int p = 0; p < k; p++)
                bound += GL_ABS(a[i + (size_t)p * lda]) *
                         GL_ABS(b[p + (size_t)j * ldb]);
            bound = 4 * (k + 1) * EPS * bound +
                    (mode != GL_TILE_SET ? EPS * GL_ABS(c0[ij]) : 0);
            double err = GL_ABS(c[ij] - ref[ij]);
            if (!(err <= bound))
                bad = 1;
            else if (bound > 0 && err / bound > *worst)
                *worst = err / bound;
        }
    free(a), free(b), free(c), free(ref), free(c0);
    return bad;
}

int main(void)
{
    srand48(20261122);
    int failed = 0, cases = 0;
    for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
        const tile_choice *t = &kernels[ki];
        if (!t->usable()) {
            printf("SKIP kernel %zu (mr %d, nr %d): not supported by this CPU\n",
                   ki, (int)t->mr, (int)t->nr);
            continue;
        }
        lapack_int ms[] = {1, t->mr - 1, t->mr, t->mr + 1, 2 * t->mr,
                           3 * t->mr + 5, 95};
        lapack_int ns[] = {1, t->nr - 1, t->nr, t->nr + 1, 2 * t->nr + 3, 48};
        lapack_int ks[] = {0, 1, 7, 32, 95};
        /* {below, above}: dense, and the bands of V^H and Y = V T */
        lapack_int bands[][2] = {{200, 200}, {0, 5}, {0, 63}, {63, 200},
                                 {0, 0}};
        int kfailed = 0, kcases = 0;
        double worst = 0;
        for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++)
            for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
                for (size_t kk = 0; kk < sizeof ks / sizeof ks[0]; kk++)
                    for (size_t bi = 0; bi < sizeof bands / sizeof bands[0];
                         bi++)
                        for (int mode = GL_TILE_SET; mode <= GL_TILE_ADD;
                             mode++) {
                            if (ms[mi] < 1 || ns[ni] < 1)
                                continue;
                            kcases++;
                            if (check(t, ms[mi], ns[ni], ks[kk], mode,
                                      bands[bi][0], bands[bi][1], &worst)) {
                                kfailed++;
                                printf("# kernel %zu: m %d n %d k %d below %d "
                                       "above %d mode %d wrong\n", ki,
                                       (int)ms[mi], (int)ns[ni], (int)ks[kk],
                                       (int)bands[bi][0], (int)bands[bi][1],
                                       mode);
                            }
                        }
        printf("%s kernel %zu (mr %d, nr %d): %d cases, worst error/bound "
               "%.3f\n", kfailed ? "FAIL" : "PASS", ki, (int)t->mr,
               (int)t->nr, kcases, worst);
        failed += kfailed;
        cases += kcases;
    }
    printf("# summary tile_gemm_%c: pass=%d fail=%d\n", GL_PREC_CHAR,
           cases - failed, failed);
    return failed != 0;
}
