/* The main job: an unmodified LAPACK program.  It calls dgesdd_ and dsyevd_
 * as any Fortran/C code does; `make demo` runs it with libgpulapack.so
 * preloaded and GPULAPACK_VERBOSE=1, so the library prints the path each
 * call took.  The program checks its own results with LAPACK's residuals. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void dgesdd_(const char *jobz, const int *m, const int *n, double *a,
             const int *lda, double *s, double *u, const int *ldu, double *vt,
             const int *ldvt, double *work, const int *lwork, int *iwork,
             int *info, size_t jobz_len);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a,
             const int *lda, double *w, double *work, const int *lwork,
             int *iwork, const int *liwork, int *info, size_t, size_t);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a, const int *lda,
            const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc, size_t, size_t);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double frobenius(const double *a, size_t count)
{
    double sum = 0;
    for (size_t i = 0; i < count; i++)
        sum += a[i] * a[i];
    return sqrt(sum);
}

/* A = U * diag(s) * VT: returns |A - U S VT|_F / (|A|_F * n * eps). */
static double svd_residual(int n, const double *a, const double *s,
                           double *u, const double *vt)
{
    size_t nn = (size_t)n * (size_t)n;
    double *r = malloc(nn * sizeof *r);
    const double one = 1, minus_one = -1;
    memcpy(r, a, nn * sizeof *r);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            u[i + (size_t)j * n] *= s[j];
    dgemm_("N", "N", &n, &n, &n, &minus_one, u, &n, vt, &n, &one, r, &n, 1, 1);
    double ratio = frobenius(r, nn) / (frobenius(a, nn) * n * 2.22e-16);
    free(r);
    return ratio;
}

/* max_i |x_i - y_i| / (max_i |y_i| n eps) */
static double value_distance(int n, const double *x, const double *y)
{
    double diff = 0, scale = 0;
    for (int i = 0; i < n; i++) {
        diff = fmax(diff, fabs(x[i] - y[i]));
        scale = fmax(scale, fabs(y[i]));
    }
    return diff / (scale * n * 2.22e-16);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    size_t nn = (size_t)n * (size_t)n;
    double *a = malloc(nn * sizeof *a), *work_a = malloc(nn * sizeof *a);
    double *u = malloc(nn * sizeof *u), *vt = malloc(nn * sizeof *vt);
    double *s = malloc((size_t)n * sizeof *s), query;
    int *iwork = malloc(8 * (size_t)n * sizeof *iwork), info, lwork = -1;
    int iquery, liwork = -1;

    srand(7);
    for (size_t i = 0; i < nn; i++)
        a[i] = (double)rand() / RAND_MAX - 0.5;
    for (int j = 0; j < n; j++)         /* symmetric, for dsyevd */
        for (int i = 0; i < j; i++)
            a[i + (size_t)j * n] = a[j + (size_t)i * n];

    /* Line-buffered, so that our lines and the library's log lines on
     * stderr appear in call order. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("gpulapack demo: n = %d\n", n);

    dgesdd_("S", &n, &n, work_a, &n, s, u, &n, vt, &n, &query, &lwork, iwork,
            &info, 1);
    lwork = (int)query;
    double *work = malloc((size_t)lwork * sizeof *work);
    memcpy(work_a, a, nn * sizeof *a);
    double t = now();
    dgesdd_("S", &n, &n, work_a, &n, s, u, &n, vt, &n, work, &lwork, iwork,
            &info, 1);
    t = now() - t;
    printf("dgesdd JOBZ=S  %8.3f s  info=%d  |A-USV'|/(|A| n eps) = %.2f\n", t,
           info, svd_residual(n, a, s, u, vt));

    /* Values only: the two-stage path (n >= 512, or GPULAPACK_MIN_N). */
    double *s_only = malloc((size_t)n * sizeof *s_only);
    memcpy(work_a, a, nn * sizeof *a);
    t = now();
    dgesdd_("N", &n, &n, work_a, &n, s_only, u, &n, vt, &n, work, &lwork,
            iwork, &info, 1);
    t = now() - t;
    printf("dgesdd JOBZ=N  %8.3f s  info=%d  max|s - s(JOBZ=S)|/(s1 n eps) = "
           "%.2f\n", t, info, value_distance(n, s_only, s));
    free(work);

    lwork = -1;
    dsyevd_("V", "L", &n, work_a, &n, s, &query, &lwork, &iquery, &liwork,
            &info, 1, 1);
    lwork = (int)query;
    liwork = iquery;
    work = malloc((size_t)lwork * sizeof *work);
    int *iw = malloc((size_t)liwork * sizeof *iw);
    memcpy(work_a, a, nn * sizeof *a);
    t = now();
    dsyevd_("V", "L", &n, work_a, &n, s, work, &lwork, iw, &liwork, &info, 1,
            1);
    t = now() - t;
    /* A = Z diag(w) Z': the same residual with U = Z, VT = Z'. */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            vt[j + (size_t)i * n] = work_a[i + (size_t)j * n];
    printf("dsyevd JOBZ=V  %8.3f s  info=%d  |A-ZWZ'|/(|A| n eps) = %.2f\n", t,
           info, svd_residual(n, a, s, work_a, vt));

    memcpy(work_a, a, nn * sizeof *a);
    t = now();
    dsyevd_("N", "L", &n, work_a, &n, s_only, work, &lwork, iw, &liwork, &info,
            1, 1);
    t = now() - t;
    printf("dsyevd JOBZ=N  %8.3f s  info=%d  max|w - w(JOBZ=V)|/(|w| n eps) = "
           "%.2f\n", t, info, value_distance(n, s_only, s));
    free(s_only);

    free(iw), free(work), free(a), free(work_a), free(u), free(vt), free(s);
    free(iwork);
    return 0;
}
