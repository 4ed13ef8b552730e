/*
 * tall_gesdd: a tall sgesdd whose M*N passes 2^31 elements, on our host
 * path, JOBZ = N then S (docs/large.md, "A tall run"): every
 * index and byte count past 32 bits.  A one-off (about 9 GB for N, 17 GB
 * for S), not part of make check:
 *
 *   cc -O2 -std=gnu11 testing/own/tall_gesdd.c -o build/tall_gesdd -llapack -lm
 *   LD_PRELOAD=$PWD/lib/libgpulapack.so GPULAPACK_DEVICE=host \
 *       GPULAPACK_VERBOSE=1 build/tall_gesdd N|S [K]
 *
 * A is K copies of one N0 x N0 block B stacked (M = K*N0, N0 = 32; by
 * default K = 2^21 + 1, so M*N = 2,147,484,672 > 2^31): A'A = K B'B, so
 * A's singular values are sqrt(K) times B's (those of the real sgesdd on B,
 * computed in double here by the one-sided Jacobi below); with S, the
 * residual A V - U S on every row (A V's rows are B V's) and U'U - I over
 * all M rows.  Prints PASS/FAIL lines and the time.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N0 = 32 };

void sgesdd_(const char *jobz, const int *m, const int *n, float *a,
             const int *lda, float *s, float *u, const int *ldu, float *vt,
             const int *ldvt, float *work, const int *lwork, int *iwork,
             int *info, size_t len);

/* singular values of the N0 x N0 block (column-major, double), by
 * one-sided Jacobi: exact to double rounding, no LAPACK involved */
static void block_values(const double *b, double *sv)
{
    double a[N0 * N0];
    memcpy(a, b, sizeof a);
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0;
        for (int p = 0; p < N0; p++)
            for (int q = p + 1; q < N0; q++) {
                double alpha = 0, beta = 0, gamma = 0;
                for (int i = 0; i < N0; i++) {
                    alpha += a[p * N0 + i] * a[p * N0 + i];
                    beta += a[q * N0 + i] * a[q * N0 + i];
                    gamma += a[p * N0 + i] * a[q * N0 + i];
                }
                if (fabs(gamma) <= 1e-300 ||
                    fabs(gamma) < 1e-17 * sqrt(alpha * beta))
                    continue;
                off = fmax(off, fabs(gamma) / sqrt(alpha * beta));
                double zeta = (beta - alpha) / (2 * gamma);
                double t = (zeta >= 0 ? 1 : -1) /
                           (fabs(zeta) + sqrt(1 + zeta * zeta));
                double c = 1 / sqrt(1 + t * t), s = c * t;
                for (int i = 0; i < N0; i++) {
                    double x = a[p * N0 + i], y = a[q * N0 + i];
                    a[p * N0 + i] = c * x - s * y;
                    a[q * N0 + i] = s * x + c * y;
                }
            }
        if (off < 1e-16)
            break;
    }
    for (int j = 0; j < N0; j++) {
        double norm = 0;
        for (int i = 0; i < N0; i++)
            norm += a[j * N0 + i] * a[j * N0 + i];
        sv[j] = sqrt(norm);
    }
    for (int i = 0; i < N0; i++)   /* descending */
        for (int j = i + 1; j < N0; j++)
            if (sv[j] > sv[i]) {
                double t = sv[i];
                sv[i] = sv[j], sv[j] = t;
            }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    char jobz = argc > 1 ? argv[1][0] : 'N';
    long k = argc > 2 ? atol(argv[2]) : (1L << 21) + 1;
    int64_t m64 = k * N0;
    if (m64 > INT32_MAX) {
        printf("FAIL tall/%c: M = %lld does not fit\n", jobz, (long long)m64);
        return 0;
    }
    int m = (int)m64, n = N0;
    double b[N0 * N0], sv[N0];
    uint64_t seed = 50;
    for (int i = 0; i < N0 * N0; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        b[i] = (float)((double)(seed >> 11) / 9007199254740992.0 - 0.5);
    }
    block_values(b, sv);
    size_t elems = (size_t)m * (size_t)n;
    printf("tall sgesdd %c: M = %d, N = %d, M*N = %zu (2^31 = %lld), A %.2f GB\n",
           jobz, m, n, elems, 1LL << 31, (double)elems * 4 / 1e9);
    fflush(stdout);
    float *a = malloc(elems * sizeof *a);
    float *u = jobz == 'S' ? malloc(elems * sizeof *u) : NULL;
    if (!a || (jobz == 'S' && !u)) {
        printf("FAIL tall/%c: allocation\n", jobz);
        return 0;
    }
    for (int j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            a[(size_t)j * (size_t)m + (size_t)i] = (float)b[j * N0 + i % N0];
    float s[N0], vt[N0 * N0], wq;
    int iwork[8 * N0], info, lwork = -1, ldu = m, ldvt = n;
    sgesdd_(&jobz, &m, &n, a, &m, s, u ? u : &wq, &ldu, vt, &ldvt, &wq,
            &lwork, iwork, &info, 1);
    lwork = (int)wq;
    float *work = malloc(((size_t)lwork + 1) * sizeof *work);
    double t0 = now();
    sgesdd_(&jobz, &m, &n, a, &m, s, u ? u : &wq, &ldu, vt, &ldvt, work,
            &lwork, iwork, &info, 1);
    double t = now() - t0;
    double worst = 0, root = sqrt((double)k);
    for (int i = 0; i < n; i++)
        worst = fmax(worst, fabs(s[i] - root * sv[i]) / (root * sv[0]));
    double ulps = worst / 5.96e-8;
    printf("%s tall/%c-values: INFO %d, LWORK %d, %.1f s, largest error "
           "%.2f ulp of sigma_1 (limit %d)\n",
           info == 0 && ulps < 100 * n ? "PASS" : "FAIL", jobz, info, lwork,
           t, ulps, 100 * n);
    if (u && info == 0) {
        /* the residual of A V = U S on every row (row i of A is row
         * i % N0 of B, so A V's rows come from B V), and U'U = I over all
         * M rows (in double) */
        double bv[N0 * N0], resid = 0, orth = 0;
        for (int i = 0; i < N0; i++)
            for (int j = 0; j < n; j++) {
                double x = 0;
                for (int l = 0; l < n; l++)
                    x += b[l * N0 + i] * (double)vt[l * n + j];
                bv[j * N0 + i] = x;
            }
        for (int j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                resid = fmax(resid, fabs((double)u[(size_t)j * m + i] * s[j] -
                                         bv[j * N0 + i % N0]));
        resid /= s[0] * 5.96e-8 * n;
        for (int p = 0; p < n; p++)
            for (int q = p; q < n; q++) {
                double g = 0;
                const float *x = u + (size_t)p * m, *y = u + (size_t)q * m;
                for (int64_t i = 0; i < m; i++)
                    g += (double)x[i] * y[i];
                orth = fmax(orth, fabs(g - (p == q)));
            }
        orth /= 5.96e-8 * n;
        printf("%s tall/S-vectors: residual %.3g, orthogonality %.3g "
               "(eps*n; limit 100)\n",
               resid < 100 && orth < 100 ? "PASS" : "FAIL", resid, orth);
    }
    return 0;
}
