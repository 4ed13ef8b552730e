/* The program of testing/unit/check_auto.sh: a LAPACK caller linked before
 * -llapack, as an application would be, that runs its arguments in order:
 *   api                  the C API's discovery calls (gpulapack_gpu_runtimes,
 *                        gpulapack_device_count twice, each device, the path)
 *   <routine> <job> <n>  one call: dsyevd, zheevd or dsyevr (RANGE 'A') (job
 *                        N/V; dsyevr also I: JOBZ 'V', RANGE 'I' for the
 *                        middle half of the spectrum), sgesdd, dgesdd or
 *                        zgesdd (N/S/A; dgesdd also T: JOBZ 'S' on a 2n x n
 *                        matrix), dgesvd (N/S/A for both U and VT),
 *                        dsytrd ('L'; job ignored), dsbevd (N/V, half-width
 *                        n/8), dgbbrd (N/B, kl = ku = n/16)
 *   counters             the stand-in CUDA driver's contexts and modules
 * and prints one line for each; the library's decisions go to its log.
 * AUTO_CALL_VALUES=file: the last call's values are written there.
 * AUTO_CALL_RATIOS=1: after dsyevd or zheevd with vectors, one line
 * "ratios residual=R orth=O", LAPACK's test ratios in units of n eps:
 * ||A Z - Z diag(w)||_1 / (n ||A||_1 eps) and ||Z^H Z - I||_1 / (n eps);
 * after an SVD with vectors on an AUTO_CALL_M x n A (JOBZ, JOBU = JOBVT
 * S or A), "ratios residual=R orth_u=O orth_vt=P", those of LAPACK's
 * ?bdt01 and ?ort01 in units of max(m, n) eps: ||A - U S VT||_1 /
 * (max(m, n) ||A||_1 eps), ||I - U^H U||_1 / (max(m, n) eps) and
 * ||I - VT VT^H||_1 / (max(m, n) eps), eps of the routine's precision.
 * AUTO_CALL_M=m: the SVD routines' A is m x n (tall or wide) instead of
 * n x n (dgesdd T: 2n x n); min(m, n) values. */
#include <complex.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulapack.h"

void dsyevd_(const char *, const char *, const int *, double *, const int *,
             double *, double *, const int *, int *, const int *, int *,
             size_t, size_t);
void zheevd_(const char *, const char *, const int *, double complex *,
             const int *, double *, double complex *, const int *, double *,
             const int *, int *, const int *, int *, size_t, size_t);
void dgesdd_(const char *, const int *, const int *, double *, const int *,
             double *, double *, const int *, double *, const int *, double *,
             const int *, int *, int *, size_t);

void dsyevr_(const char *, const char *, const char *, const int *, double *,
             const int *, const double *, const double *, const int *,
             const int *, const double *, int *, double *, double *,
             const int *, int *, double *, const int *, int *, const int *,
             int *, size_t, size_t, size_t);
void dgesvd_(const char *, const char *, const int *, const int *, double *,
             const int *, double *, double *, const int *, double *,
             const int *, double *, const int *, int *, size_t, size_t);
void dsytrd_(const char *, const int *, double *, const int *, double *,
             double *, double *, double *, const int *, int *, size_t);
void dsbevd_(const char *, const char *, const int *, const int *, double *,
             const int *, double *, double *, const int *, double *,
             const int *, int *, const int *, int *, size_t, size_t);
void dgbbrd_(const char *, const int *, const int *, const int *,
             const int *, const int *, double *, const int *, double *,
             double *, double *, const int *, double *, const int *,
             double *, const int *, double *, int *, size_t);
void zgesdd_(const char *, const int *, const int *, double complex *,
             const int *, double *, double complex *, const int *,
             double complex *, const int *, double complex *, const int *,
             double *, int *, int *, size_t);
void sgesdd_(const char *, const int *, const int *, float *, const int *,
             float *, float *, const int *, float *, const int *, float *,
             const int *, int *, int *, size_t);

static double random_unit(void) { return rand() / (double)RAND_MAX - 0.5; }

void zgemm_(const char *, const char *, const int *, const int *, const int *,
            const double complex *, const double complex *, const int *,
            const double complex *, const int *, const double complex *,
            double complex *, const int *, size_t, size_t);

/* The 1-norm of the rows x cols x (ld rows). */
static double norm1_of(int rows, int cols, const double complex *x)
{
    double most = 0;
    for (int j = 0; j < cols; j++) {
        double sum = 0;
        for (int i = 0; i < rows; i++)
            sum += cabs(x[i + (size_t)j * rows]);
        most = sum > most ? sum : most;
    }
    return most;
}

/* AUTO_CALL_RATIOS: the eigenproblem's test ratios of A (Hermitian, its
 * lower triangle given) with vectors z (n x n) and values w */
static void eig_ratios(int n, const double complex *lower,
                       const double complex *z, const double *w)
{
    if (!getenv("AUTO_CALL_RATIOS"))
        return;
    size_t nn = (size_t)n * n;
    double complex *a = malloc(nn * sizeof *a), *r = malloc(nn * sizeof *r);
    double complex one = 1, minus = -1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            a[i + (size_t)j * n] = i >= j ? lower[i + (size_t)j * n]
                                          : conj(lower[j + (size_t)i * n]);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            r[i + (size_t)j * n] = z[i + (size_t)j * n] * w[j];
    double anorm = norm1_of(n, n, a), eps = 0x1p-53;
    zgemm_("N", "N", &n, &n, &n, &one, a, &n, z, &n, &minus, r, &n, 1, 1);
    double residual = norm1_of(n, n, r) / (n * anorm * eps);
    for (size_t i = 0; i < nn; i++)
        r[i] = i % ((size_t)n + 1) == 0 ? -1 : 0;
    zgemm_("C", "N", &n, &n, &n, &one, z, &n, z, &n, &one, r, &n, 1, 1);
    printf("ratios residual=%.3g orth=%.3g\n", residual,
           norm1_of(n, n, r) / (n * eps));
    free(a), free(r);
}

/* AUTO_CALL_RATIOS: the SVD's test ratios of A (m x n) with s (min(m, n)
 * values), U (m x ucols, ld m) and VT (vtrows x n, ld vtrows), all as
 * double complex copies; eps of the routine's precision. */
static void svd_ratios(int m, int n, const double complex *a,
                       const double *s, const double complex *u, int ucols,
                       const double complex *vt, int vtrows, double eps)
{
    int mn = m < n ? m : n, mx = m < n ? n : m;
    size_t mnn = (size_t)m * n;
    double complex one = 1, minus = -1;
    double complex *r = malloc(mnn * sizeof *r);
    double complex *us = malloc((size_t)m * mn * sizeof *us);
    size_t most = (size_t)(ucols > vtrows ? ucols : vtrows);
    double complex *g = malloc(most * most * sizeof *g);
    /* A - (U S) VT over the min(m, n) values */
    for (int j = 0; j < mn; j++)
        for (int i = 0; i < m; i++)
            us[i + (size_t)j * m] = u[i + (size_t)j * m] * s[j];
    memcpy(r, a, mnn * sizeof *r);
    zgemm_("N", "N", &m, &n, &mn, &minus, us, &m, vt, &vtrows, &one, r, &m,
           1, 1);
    double anorm = norm1_of(m, n, a);
    double residual = norm1_of(m, n, r) / (mx * (anorm > 0 ? anorm : 1) * eps);
    for (size_t i = 0; i < (size_t)ucols * ucols; i++)
        g[i] = i % ((size_t)ucols + 1) == 0 ? -1 : 0;
    zgemm_("C", "N", &ucols, &ucols, &m, &one, u, &m, u, &m, &one, g, &ucols,
           1, 1);
    double orth_u = norm1_of(ucols, ucols, g) / (mx * eps);
    for (size_t i = 0; i < (size_t)vtrows * vtrows; i++)
        g[i] = i % ((size_t)vtrows + 1) == 0 ? -1 : 0;
    zgemm_("N", "C", &vtrows, &vtrows, &n, &one, vt, &vtrows, vt, &vtrows,
           &one, g, &vtrows, 1, 1);
    printf("ratios residual=%.3g orth_u=%.3g orth_vt=%.3g\n", residual, orth_u,
           norm1_of(vtrows, vtrows, g) / (mx * eps));
    free(r), free(us), free(g);
}

/* The ratios of a real SVD (float or double arrays by their element
 * size): copies as double complex, then svd_ratios. */
static void real_svd_ratios(int m, int n, size_t es, const void *a,
                            const double *s, const void *u, int ucols,
                            const void *vt, int vtrows, double eps)
{
    size_t counts[3] = {(size_t)m * n, (size_t)m * ucols, (size_t)vtrows * n};
    const void *from[3] = {a, u, vt};
    double complex *to[3];
    for (int k = 0; k < 3; k++) {
        to[k] = malloc(counts[k] * sizeof *to[k]);
        for (size_t i = 0; i < counts[k]; i++)
            to[k][i] = es == sizeof(float) ? ((const float *)from[k])[i]
                                           : ((const double *)from[k])[i];
    }
    svd_ratios(m, n, to[0], s, to[1], ucols, to[2], vtrows, eps);
    for (int k = 0; k < 3; k++)
        free(to[k]);
}

/* One SVD call of routine (sgesdd, dgesdd, zgesdd, dgesvd) with job on
 * an m x n matrix: its min(m, n) values into w.  JOBZ (JOBU = JOBVT) 'S'
 * and 'A' give U m x min(m,n) or m x m and VT min(m,n) x n or n x n. */
static int svd_call(const char *routine, const char *job, int m, int n,
                    double *w)
{
    int mn = m < n ? m : n, mx = m < n ? n : m, info = -1, lwork = -1;
    int vectors = job[0] != 'N' && job[0] != 'n', all = job[0] == 'A';
    int ucols = all ? m : mn, ldvt = vectors ? (all ? n : mn) : 1;
    int ldu = vectors ? m : 1;
    size_t mnn = (size_t)m * n, usize = vectors ? (size_t)m * ucols : 1,
           vtsize = vectors ? (size_t)ldvt * n : 1;
    int *iwork = malloc(8 * (size_t)mn * sizeof *iwork);
    int ratios = vectors && getenv("AUTO_CALL_RATIOS") != NULL;
    if (strcmp(routine, "zgesdd") == 0) {
        double complex *a = malloc(mnn * sizeof *a), zq = 0;
        double complex *u = malloc(usize * sizeof *u);
        double complex *vt = malloc(vtsize * sizeof *vt);
        size_t big = 5 * (size_t)mn * mn + 7 * (size_t)mn,
               wide = 2 * (size_t)mx * mn + 2 * (size_t)mn * mn + mn;
        double *rwork = malloc((big > wide ? big : wide) * sizeof *rwork);
        for (size_t i = 0; i < mnn; i++)
            a[i] = random_unit() + I * random_unit();
        double complex *given = ratios ? malloc(mnn * sizeof *given) : NULL;
        if (given)
            memcpy(given, a, mnn * sizeof *a);
        zgesdd_(job, &m, &n, a, &m, w, u, &ldu, vt, &ldvt, &zq, &lwork, rwork,
                iwork, &info, 1);
        lwork = (int)creal(zq);
        double complex *work = malloc((size_t)lwork * sizeof *work);
        zgesdd_(job, &m, &n, a, &m, w, u, &ldu, vt, &ldvt, work, &lwork, rwork,
                iwork, &info, 1);
        if (given && info == 0)
            svd_ratios(m, n, given, w, u, ucols, vt, ldvt, 0x1p-53);
        free(work), free(rwork), free(u), free(vt), free(a), free(given);
    } else if (strcmp(routine, "sgesdd") == 0) {
        float *a = malloc(mnn * sizeof *a), *s = malloc(mn * sizeof *s), q = 0;
        float *u = malloc(usize * sizeof *u), *vt = malloc(vtsize * sizeof *vt);
        for (size_t i = 0; i < mnn; i++)
            a[i] = (float)random_unit();
        float *given = ratios ? malloc(mnn * sizeof *given) : NULL;
        if (given)
            memcpy(given, a, mnn * sizeof *a);
        sgesdd_(job, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, &q, &lwork, iwork,
                &info, 1);
        lwork = (int)q;
        float *work = malloc((size_t)lwork * sizeof *work);
        sgesdd_(job, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork,
                &info, 1);
        for (int i = 0; i < mn; i++)
            w[i] = s[i];
        if (given && info == 0)
            real_svd_ratios(m, n, sizeof *a, given, w, u, ucols, vt, ldvt,
                            0x1p-24);
        free(work), free(u), free(vt), free(s), free(a), free(given);
    } else {
        int gesvd = strcmp(routine, "dgesvd") == 0;
        double *a = malloc(mnn * sizeof *a), q = 0;
        double *u = malloc(usize * sizeof *u), *vt = malloc(vtsize * sizeof *vt);
        for (size_t i = 0; i < mnn; i++)
            a[i] = random_unit();
        double *given = ratios ? malloc(mnn * sizeof *given) : NULL;
        if (given)
            memcpy(given, a, mnn * sizeof *a);
        if (gesvd)
            dgesvd_(job, job, &m, &n, a, &m, w, u, &ldu, vt, &ldvt, &q,
                    &lwork, &info, 1, 1);
        else
            dgesdd_(job, &m, &n, a, &m, w, u, &ldu, vt, &ldvt, &q, &lwork,
                    iwork, &info, 1);
        lwork = (int)q;
        double *work = malloc((size_t)lwork * sizeof *work);
        if (gesvd)
            dgesvd_(job, job, &m, &n, a, &m, w, u, &ldu, vt, &ldvt, work,
                    &lwork, &info, 1, 1);
        else
            dgesdd_(job, &m, &n, a, &m, w, u, &ldu, vt, &ldvt, work, &lwork,
                    iwork, &info, 1);
        /* ?gesdd JOBZ = 'O': U (m >= n) or VT over A, ld m */
        int over = !gesvd && job[0] == 'O';
        if (given && info == 0)
            real_svd_ratios(m, n, sizeof *a, given, w,
                            over && m >= n ? a : u, ucols,
                            over && m < n ? a : vt, ldvt, 0x1p-53);
        free(work), free(u), free(vt), free(a), free(given);
    }
    free(iwork);
    return info;
}

static int call(const char *routine, const char *job, int n)
{
    size_t nn = (size_t)n * n;
    int info = -1, lwork = -1, liwork = -1, lrwork = -1, iq = 0;
    double wq = 0, rq = 0;
    double *w = malloc((size_t)n * sizeof *w);
    /* sgesdd, and the SVD routines on an m x n A (the square calls below
     * keep their matrices: other checks count their bytes) */
    const char *rows = getenv("AUTO_CALL_M");
    int m = rows ? atoi(rows) : n, count = m < n ? m : n;
    if (strcmp(routine, "sgesdd") == 0 ||
        (rows && (strcmp(routine, "dgesdd") == 0 ||
                  strcmp(routine, "zgesdd") == 0 ||
                  strcmp(routine, "dgesvd") == 0))) {
        info = svd_call(routine, job, m, n, w);
    } else if (strcmp(routine, "zgesdd") == 0) {
        count = n;
        int vectors = job[0] != 'N' && job[0] != 'n', ld = vectors ? n : 1;
        double complex *a = malloc(nn * sizeof *a), zq = 0;
        double complex *u = malloc((vectors ? nn : 1) * sizeof *u);
        double complex *vt = malloc((vectors ? nn : 1) * sizeof *vt);
        double *rwork = malloc((5 * nn + 7 * (size_t)n) * sizeof *rwork);
        int *iwork = malloc(8 * (size_t)n * sizeof *iwork);
        for (size_t i = 0; i < nn; i++)
            a[i] = random_unit() + I * random_unit();
        zgesdd_(job, &n, &n, a, &n, w, u, &ld, vt, &ld, &zq, &lwork, rwork,
                iwork, &info, 1);
        lwork = (int)creal(zq);
        double complex *work = malloc((size_t)lwork * sizeof *work);
        zgesdd_(job, &n, &n, a, &n, w, u, &ld, vt, &ld, work, &lwork, rwork,
                iwork, &info, 1);
        free(work), free(rwork), free(iwork), free(u), free(vt), free(a);
    } else if (strcmp(routine, "zheevd") == 0) {
        double complex *a = malloc(nn * sizeof *a), zq = 0;
        for (int j = 0; j < n; j++)
            for (int i = j; i < n; i++)
                a[i + (size_t)j * n] = a[j + (size_t)i * n] =
                    i == j ? random_unit() : random_unit() + I * random_unit();
        double complex *given = malloc(nn * sizeof *given);
        memcpy(given, a, nn * sizeof *a);
        zheevd_(job, "L", &n, a, &n, w, &zq, &lwork, &rq, &lrwork, &iq,
                &liwork, &info, 1, 1);
        lwork = (int)creal(zq), lrwork = (int)rq, liwork = iq;
        double complex *work = malloc((size_t)lwork * sizeof *work);
        double *rwork = malloc((size_t)lrwork * sizeof *rwork);
        int *iwork = malloc((size_t)liwork * sizeof *iwork);
        zheevd_(job, "L", &n, a, &n, w, work, &lwork, rwork, &lrwork, iwork,
                &liwork, &info, 1, 1);
        if (info == 0 && (job[0] == 'V' || job[0] == 'v'))
            eig_ratios(n, given, a, w);
        free(work), free(rwork), free(iwork), free(a), free(given);
    } else {
        count = n;
        double *a = malloc(nn * sizeof *a), *given = malloc(nn * sizeof *a);
        for (int j = 0; j < n; j++)
            for (int i = j; i < n; i++)
                a[i + (size_t)j * n] = a[j + (size_t)i * n] = random_unit();
        memcpy(given, a, nn * sizeof *a);
        if (strcmp(routine, "dsyevd") == 0) {
            dsyevd_(job, "L", &n, a, &n, w, &wq, &lwork, &iq, &liwork, &info,
                    1, 1);
            lwork = (int)wq, liwork = iq;
            double *work = malloc((size_t)lwork * sizeof *work);
            int *iwork = malloc((size_t)liwork * sizeof *iwork);
            dsyevd_(job, "L", &n, a, &n, w, work, &lwork, iwork, &liwork,
                    &info, 1, 1);
            if (info == 0 && (job[0] == 'V' || job[0] == 'v') &&
                getenv("AUTO_CALL_RATIOS")) {
                /* A again from the same seed's draws: the caller's copy
                 * holds Z now */
                double complex *lower = malloc(nn * sizeof *lower);
                double complex *zc = malloc(nn * sizeof *zc);
                for (size_t i = 0; i < nn; i++)
                    lower[i] = given[i], zc[i] = a[i];
                eig_ratios(n, lower, zc, w);
                free(lower), free(zc);
            }
            free(work), free(iwork);
        } else if (strcmp(routine, "dgesdd") == 0) {
            int vectors = job[0] != 'N' && job[0] != 'n', ld = vectors ? n : 1;
            int tall = job[0] == 'T', m = tall ? 2 * n : n, ldu = tall ? m : ld;
            const char *jobz = tall ? "S" : job;
            double *at = tall ? malloc(2 * nn * sizeof *at) : a;
            for (size_t i = 0; tall && i < 2 * nn; i++)
                at[i] = random_unit();
            double *u = malloc((vectors ? (size_t)m * n : 1) * sizeof *u);
            double *vt = malloc((vectors ? nn : 1) * sizeof *vt);
            int *iwork = malloc(8 * (size_t)n * sizeof *iwork);
            dgesdd_(jobz, &m, &n, at, &m, w, u, &ldu, vt, &ld, &wq, &lwork,
                    iwork, &info, 1);
            lwork = (int)wq;
            double *work = malloc((size_t)lwork * sizeof *work);
            dgesdd_(jobz, &m, &n, at, &m, w, u, &ldu, vt, &ld, work, &lwork,
                    iwork, &info, 1);
            free(work), free(iwork), free(u), free(vt);
            if (tall)
                free(at);
        } else if (strcmp(routine, "dsbevd") == 0) {
            /* the lower band of A, half-width kd, in band storage */
            int kd = n / 8 > 1 ? n / 8 : 1, ldab = kd + 1;
            int vectors = job[0] != 'N' && job[0] != 'n', ld = vectors ? n : 1;
            double *ab = malloc((size_t)ldab * n * sizeof *ab);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < ldab; i++)
                    ab[i + (size_t)j * ldab] =
                        i + j < n ? a[i + j + (size_t)j * n] : 0;
            double *z = malloc((vectors ? nn : 1) * sizeof *z);
            dsbevd_(job, "L", &n, &kd, ab, &ldab, w, z, &ld, &wq, &lwork, &iq,
                    &liwork, &info, 1, 1);
            lwork = (int)wq, liwork = iq;
            double *work = malloc((size_t)lwork * sizeof *work);
            int *iwork = malloc((size_t)liwork * sizeof *iwork);
            dsbevd_(job, "L", &n, &kd, ab, &ldab, w, z, &ld, work, &lwork,
                    iwork, &liwork, &info, 1, 1);
            free(work), free(iwork), free(z), free(ab);
        } else if (strcmp(routine, "dgbbrd") == 0) {
            int k = n / 16 > 1 ? n / 16 : 1, ldab = 2 * k + 1, zero = 0;
            int vectors = job[0] != 'N' && job[0] != 'n', ld = vectors ? n : 1;
            double *ab = malloc((size_t)ldab * n * sizeof *ab);
            for (size_t i = 0; i < (size_t)ldab * n; i++)
                ab[i] = random_unit();
            double *e = malloc((size_t)n * sizeof *e);
            double *q = malloc((vectors ? nn : 1) * sizeof *q);
            double *pt = malloc((vectors ? nn : 1) * sizeof *pt);
            double *work = malloc(2 * (size_t)n * sizeof *work), c = 0;
            int one = 1;
            dgbbrd_(job, &n, &n, &zero, &k, &k, ab, &ldab, w, e, q, &ld, pt,
                    &ld, &c, &one, work, &info, 1);
            free(work), free(e), free(q), free(pt), free(ab);
        } else if (strcmp(routine, "dsyevr") == 0) {
            int vectors = job[0] != 'N' && job[0] != 'n', m = 0;
            int half = job[0] == 'I', il = n / 4 + 1, iu = 3 * n / 4;
            const char *jobz = half ? "V" : job, *range = half ? "I" : "A";
            double *z = malloc((vectors ? nn : 1) * sizeof *z), zero = 0;
            int *isuppz = malloc(2 * (size_t)n * sizeof *isuppz), ld = n;
            dsyevr_(jobz, range, "L", &n, a, &n, &zero, &zero, &il, &iu,
                    &zero, &m, w, z, &ld, isuppz, &wq, &lwork, &iq, &liwork,
                    &info, 1, 1, 1);
            lwork = (int)wq, liwork = iq;
            double *work = malloc((size_t)lwork * sizeof *work);
            int *iwork = malloc((size_t)liwork * sizeof *iwork);
            dsyevr_(jobz, range, "L", &n, a, &n, &zero, &zero, &il, &iu,
                    &zero, &m, w, z, &ld, isuppz, work, &lwork, iwork,
                    &liwork, &info, 1, 1, 1);
            free(work), free(iwork), free(z), free(isuppz);
        } else if (strcmp(routine, "dgesvd") == 0) {
            int vectors = job[0] != 'N' && job[0] != 'n', ld = vectors ? n : 1;
            double *u = malloc((vectors ? nn : 1) * sizeof *u);
            double *vt = malloc((vectors ? nn : 1) * sizeof *vt);
            dgesvd_(job, job, &n, &n, a, &n, w, u, &ld, vt, &ld, &wq, &lwork,
                    &info, 1, 1);
            lwork = (int)wq;
            double *work = malloc((size_t)lwork * sizeof *work);
            dgesvd_(job, job, &n, &n, a, &n, w, u, &ld, vt, &ld, work, &lwork,
                    &info, 1, 1);
            free(work), free(u), free(vt);
        } else if (strcmp(routine, "dsytrd") == 0) {
            double *e = malloc((size_t)n * sizeof *e);
            double *tau = malloc((size_t)n * sizeof *tau);
            dsytrd_("L", &n, a, &n, w, e, tau, &wq, &lwork, &info, 1);
            lwork = (int)wq;
            double *work = malloc((size_t)lwork * sizeof *work);
            dsytrd_("L", &n, a, &n, w, e, tau, work, &lwork, &info, 1);
            free(work), free(e), free(tau);
        } else {
            fprintf(stderr, "auto_call: unknown routine %s\n", routine);
            free(a), free(given), free(w);
            return -1;
        }
        free(a), free(given);
    }
    /* AUTO_CALL_VALUES: the values (or singular values) into that file,
     * one per line, for a check that compares two runs */
    const char *values = getenv("AUTO_CALL_VALUES");
    FILE *out = values ? fopen(values, "w") : NULL;
    for (int i = 0; out && i < count; i++)
        fprintf(out, "%.17g\n", w[i]);
    if (out)
        fclose(out);
    free(w);
    if (rows)
        printf("%s %s m=%d n=%d info=%d\n", routine, job, m, n, info);
    else
        printf("%s %s n=%d info=%d\n", routine, job, n, info);
    return info;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "api") == 0) {
            const char *runtimes = gpulapack_gpu_runtimes();
            int count = gpulapack_device_count();
            count = gpulapack_device_count();
            for (int d = 0; d < count; d++) {
                gpulapack_device dev;
                if (gpulapack_device_info(d, &dev))
                    printf("device %s %s%s\n", dev.id, dev.name,
                           dev.chosen ? " [chosen]" : "");
            }
            printf("api runtimes=[%s] devices=%d path=%s table=%s\n",
                   runtimes, count, gpulapack_path(), gpulapack_tune_table());
        } else if (strcmp(argv[i], "counters") == 0) {
            void *mock = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
            int (*retains)(void) =
                mock ? (int (*)(void))dlsym(mock, "mock_ctx_retains") : NULL;
            int (*loads)(void) =
                mock ? (int (*)(void))dlsym(mock, "mock_module_loads") : NULL;
            printf("counters ctx_retains=%d module_loads=%d\n",
                   retains ? retains() : -1, loads ? loads() : -1);
        } else if (i + 2 < argc) {
            failed |= call(argv[i], argv[i + 1], atoi(argv[i + 2])) != 0;
            i += 2;
        } else {
            fprintf(stderr, "auto_call: bad arguments\n");
            return 2;
        }
    }
    return failed;
}
