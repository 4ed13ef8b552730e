/* An ILP64 LAPACK caller: 64-bit INTEGERs everywhere.
 *
 * Built twice by check_ilp64.sh:
 *   -DSUFFIX64  calls dsyevd_64_, dgesdd_64_, zheevd_64_ (the names of
 *               ILP64 builds with a symbol suffix: Julia's and Fedora's
 *               OpenBLAS), linked against the test's shim that provides
 *               them;
 *   (plain)     calls dsyevd_, dgesdd_, zheevd_ with 64-bit INTEGERs,
 *               and dsyev_, dsyevd_ JOBZ 'N' and dsyevr_ RANGE 'I', whose
 *               host path calls other helpers of the real LAPACK,
 *               linked against Debian's liblapack64 (-llapack64), which
 *               keeps the plain names.
 *
 * usage: ilp64_client TAG [n [valid]]  (n: default 300).  Each check prints
 * "PASS ilp64/TAG/<check>" or "FAIL ...": LAPACK's residual and
 * orthogonality ratios (below 30), INFO, WORK(1)/IWORK(1) of a workspace
 * query, and the INFO of invalid arguments (which the real xerbla_
 * reports; "valid" leaves them out, for a LAPACK whose xerbla_ stops the
 * program). */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t i64;
typedef double _Complex zc;

#ifdef SUFFIX64
#define NAME(x) x##_64_
#else
#define NAME(x) x##_
#endif

void NAME(dsyevd)(const char *jobz, const char *uplo, const i64 *n, double *a,
                  const i64 *lda, double *w, double *work, const i64 *lwork,
                  i64 *iwork, const i64 *liwork, i64 *info, size_t, size_t);
void NAME(dgesdd)(const char *jobz, const i64 *m, const i64 *n, double *a,
                  const i64 *lda, double *s, double *u, const i64 *ldu,
                  double *vt, const i64 *ldvt, double *work, const i64 *lwork,
                  i64 *iwork, i64 *info, size_t);
void NAME(zheevd)(const char *jobz, const char *uplo, const i64 *n, zc *a,
                  const i64 *lda, double *w, zc *work, const i64 *lwork,
                  double *rwork, const i64 *lrwork, i64 *iwork,
                  const i64 *liwork, i64 *info, size_t, size_t);

#ifndef SUFFIX64
void dsyev_(const char *jobz, const char *uplo, const i64 *n, double *a,
            const i64 *lda, double *w, double *work, const i64 *lwork,
            i64 *info, size_t, size_t);
void dsyevd_2stage_(const char *jobz, const char *uplo, const i64 *n,
                    double *a, const i64 *lda, double *w, double *work,
                    const i64 *lwork, i64 *iwork, const i64 *liwork,
                    i64 *info, size_t, size_t);
void dsytrd_(const char *uplo, const i64 *n, double *a, const i64 *lda,
             double *d, double *e, double *tau, double *work,
             const i64 *lwork, i64 *info, size_t);
void dsterf_(const i64 *n, double *d, double *e, i64 *info);
void dgesvd_(const char *jobu, const char *jobvt, const i64 *m, const i64 *n,
             double *a, const i64 *lda, double *s, double *u, const i64 *ldu,
             double *vt, const i64 *ldvt, double *work, const i64 *lwork,
             i64 *info, size_t, size_t);
void dsyevr_(const char *jobz, const char *range, const char *uplo,
             const i64 *n, double *a, const i64 *lda, const double *vl,
             const double *vu, const i64 *il, const i64 *iu,
             const double *abstol, i64 *m, double *w, double *z,
             const i64 *ldz, i64 *isuppz, double *work, const i64 *lwork,
             i64 *iwork, const i64 *liwork, i64 *info, size_t, size_t,
             size_t);
#endif

static int failures, invalid = 1;
static const char *tag = "?";
static double thresh = 30;

static void verdict(const char *check, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static void verdict(const char *check, int ok, const char *fmt, ...)
{
    char detail[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(detail, sizeof detail, fmt, args);
    va_end(args);
    printf("%s ilp64/%s/%s: %s\n", ok ? "PASS" : "FAIL", tag, check, detail);
    fflush(stdout);
    failures += !ok;
}

static double rnd(unsigned long long *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0 - 0.5;
}

/* |A|_1 of the n x n a0. */
static double one_norm(i64 n, const double *a0, i64 lda)
{
    double anorm = 0;
    for (i64 j = 0; j < n; j++) {
        double col = 0;
        for (i64 i = 0; i < n; i++)
            col += fabs(a0[i + j * lda]);
        anorm = col > anorm ? col : anorm;
    }
    return anorm;
}

/* Residual |A V - V W| / (n |A| eps) and orthogonality |V'V - I| / (n eps)
 * of m eigenpairs (V n x m in v) of the symmetric a0. */
static void eig_ratios(i64 n, const double *a0, i64 lda, const double *v,
                       i64 ldv, const double *w, i64 m, double *res,
                       double *orth)
{
    double anorm = one_norm(n, a0, lda);
    *res = *orth = 0;
    for (i64 j = 0; j < m; j++) {
        double col = 0;
        for (i64 i = 0; i < n; i++) {
            double s = -v[i + j * ldv] * w[j];
            for (i64 k = 0; k < n; k++)
                s += a0[i + k * lda] * v[k + j * ldv];
            col += fabs(s);
        }
        *res = col > *res ? col : *res;
        for (i64 i = 0; i < m; i++) {
            double s = i == j ? -1 : 0;
            for (i64 k = 0; k < n; k++)
                s += v[k + i * ldv] * v[k + j * ldv];
            *orth = fabs(s) > *orth ? fabs(s) : *orth;
        }
    }
    *res /= n * anorm * DBL_EPSILON;
    *orth /= n * DBL_EPSILON;
}

static void check_dsyevd(i64 n)
{
    unsigned long long seed = 1;
    i64 lda = n + 3;
    double *a = malloc(sizeof *a * lda * n), *a0 = malloc(sizeof *a * lda * n);
    double *w = malloc(sizeof *w * n);
    for (i64 j = 0; j < n; j++)
        for (i64 i = j; i < n; i++)
            a0[i + j * lda] = a0[j + i * lda] = rnd(&seed);
    memcpy(a, a0, sizeof *a * lda * n);

    /* workspace query: WORK(1), IWORK(1) written as the routine's */
    double wq = 0;
    i64 iwq = 0, m1 = -1, info = 99;
    NAME(dsyevd)("V", "L", &n, a, &lda, w, &wq, &m1, &iwq, &m1, &info, 1, 1);
    i64 lwork = (i64)wq, liwork = iwq;
    verdict("dsyevd-query", info == 0 && lwork >= 1 + 6 * n + 2 * n * n &&
                                liwork >= 3 + 5 * n,
            "info=%lld lwork=%lld liwork=%lld", (long long)info,
            (long long)lwork, (long long)liwork);
    double *work = malloc(sizeof *work * lwork);
    i64 *iwork = malloc(sizeof *iwork * liwork);
    NAME(dsyevd)("V", "L", &n, a, &lda, w, work, &lwork, iwork, &liwork,
                 &info, 1, 1);
    double res, orth;
    eig_ratios(n, a0, lda, a, lda, w, n, &res, &orth);
    int sorted = 1;
    for (i64 j = 1; j < n; j++)
        sorted &= w[j - 1] <= w[j];
    verdict("dsyevd", info == 0 && res < thresh && orth < thresh && sorted &&
                          work[0] == wq && iwork[0] == iwq,
            "n=%lld info=%lld residual %.2f orthogonality %.2f work(1)=%g "
            "iwork(1)=%lld", (long long)n, (long long)info, res, orth,
            work[0], (long long)iwork[0]);

    if (!invalid)
        goto out;
    /* an invalid LDA: the real routine's INFO (-5) */
    i64 bad = n - 1;
    info = 0;
    NAME(dsyevd)("V", "L", &n, a, &bad, w, work, &lwork, iwork, &liwork,
                 &info, 1, 1);
    verdict("dsyevd-lda", info == -5, "info=%lld", (long long)info);
    /* LWORK one below the minimum: INFO = -8 */
    bad = 1 + 6 * n + 2 * n * n - 1;
    info = 0;
    memcpy(a, a0, sizeof *a * lda * n);
    NAME(dsyevd)("V", "L", &n, a, &lda, w, work, &bad, iwork, &liwork, &info,
                 1, 1);
    verdict("dsyevd-lwork", info == -8, "info=%lld", (long long)info);
out:
    free(a), free(a0), free(w), free(work), free(iwork);
}

static void check_dgesdd(i64 m, i64 n)
{
    unsigned long long seed = 2;
    i64 lda = m + 1, k = m < n ? m : n, ldu = m, ldvt = k;
    double *a = malloc(sizeof *a * lda * n), *a0 = malloc(sizeof *a * lda * n);
    double *s = malloc(sizeof *s * k), *u = malloc(sizeof *u * ldu * k);
    double *vt = malloc(sizeof *vt * ldvt * n);
    i64 *iwork = malloc(sizeof *iwork * 8 * k);
    for (i64 i = 0; i < lda * n; i++)
        a0[i] = rnd(&seed);
    memcpy(a, a0, sizeof *a * lda * n);
    double wq = 0;
    i64 m1 = -1, info = 99;
    NAME(dgesdd)("S", &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &wq, &m1,
                 iwork, &info, 1);
    i64 lwork = (i64)wq;
    double *work = malloc(sizeof *work * lwork);
    NAME(dgesdd)("S", &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork,
                 iwork, &info, 1);
    /* |A - U S VT| / (|A| max(m,n) eps); orthogonality of U and VT */
    double anorm = 0, res = 0, orth = 0;
    for (i64 j = 0; j < n; j++) {
        double col = 0, rcol = 0;
        for (i64 i = 0; i < m; i++) {
            col += fabs(a0[i + j * lda]);
            double x = a0[i + j * lda];
            for (i64 l = 0; l < k; l++)
                x -= u[i + l * ldu] * s[l] * vt[l + j * ldvt];
            rcol += fabs(x);
        }
        anorm = col > anorm ? col : anorm;
        res = rcol > res ? rcol : res;
    }
    for (i64 p = 0; p < k; p++)
        for (i64 q = 0; q < k; q++) {
            double x = p == q ? -1 : 0, y = p == q ? -1 : 0;
            for (i64 i = 0; i < m; i++)
                x += u[i + p * ldu] * u[i + q * ldu];
            for (i64 j = 0; j < n; j++)
                y += vt[p + j * ldvt] * vt[q + j * ldvt];
            orth = fabs(x) > orth ? fabs(x) : orth;
            orth = fabs(y) > orth ? fabs(y) : orth;
        }
    i64 mx = m > n ? m : n;
    res /= anorm * mx * DBL_EPSILON;
    orth /= mx * DBL_EPSILON;
    int sorted = 1;
    for (i64 j = 1; j < k; j++)
        sorted &= s[j - 1] >= s[j] && s[j] >= 0;
    verdict("dgesdd", info == 0 && res < thresh && orth < thresh && sorted &&
                          work[0] == wq,
            "m=%lld n=%lld info=%lld residual %.2f orthogonality %.2f",
            (long long)m, (long long)n, (long long)info, res, orth);
    if (!invalid)
        goto out;
    /* LDVT < min(m,n): INFO = -10 */
    i64 bad = k - 1;
    info = 0;
    NAME(dgesdd)("S", &m, &n, a, &lda, s, u, &ldu, vt, &bad, work, &lwork,
                 iwork, &info, 1);
    verdict("dgesdd-ldvt", info == -10, "info=%lld", (long long)info);
out:
    free(a), free(a0), free(s), free(u), free(vt), free(iwork), free(work);
}

static void check_zheevd(i64 n)
{
    unsigned long long seed = 3;
    i64 lda = n;
    zc *a = malloc(sizeof *a * lda * n), *a0 = malloc(sizeof *a * lda * n);
    double *w = malloc(sizeof *w * n);
    for (i64 j = 0; j < n; j++) {
        a0[j + j * lda] = rnd(&seed);
        for (i64 i = j + 1; i < n; i++) {
            a0[i + j * lda] = rnd(&seed) + I * rnd(&seed);
            a0[j + i * lda] = conj(a0[i + j * lda]);
        }
    }
    memcpy(a, a0, sizeof *a * lda * n);
    zc wq = 0;
    double rwq = 0;
    i64 iwq = 0, m1 = -1, info = 99;
    NAME(zheevd)("V", "U", &n, a, &lda, w, &wq, &m1, &rwq, &m1, &iwq, &m1,
                 &info, 1, 1);
    i64 lwork = (i64)creal(wq), lrwork = (i64)rwq, liwork = iwq;
    zc *work = malloc(sizeof *work * lwork);
    double *rwork = malloc(sizeof *rwork * lrwork);
    i64 *iwork = malloc(sizeof *iwork * liwork);
    NAME(zheevd)("V", "U", &n, a, &lda, w, work, &lwork, rwork, &lrwork,
                 iwork, &liwork, &info, 1, 1);
    double anorm = 0, res = 0, orth = 0;
    for (i64 j = 0; j < n; j++) {
        double col = 0;
        for (i64 i = 0; i < n; i++)
            col += cabs(a0[i + j * lda]);
        anorm = col > anorm ? col : anorm;
    }
    for (i64 j = 0; j < n; j++) {
        double col = 0;
        for (i64 i = 0; i < n; i++) {
            zc s = -a[i + j * lda] * w[j];
            for (i64 k = 0; k < n; k++)
                s += a0[i + k * lda] * a[k + j * lda];
            col += cabs(s);
        }
        res = col > res ? col : res;
        for (i64 i = 0; i < n; i++) {
            zc s = i == j ? -1 : 0;
            for (i64 k = 0; k < n; k++)
                s += conj(a[k + i * lda]) * a[k + j * lda];
            orth = cabs(s) > orth ? cabs(s) : orth;
        }
    }
    res /= n * anorm * DBL_EPSILON;
    orth /= n * DBL_EPSILON;
    verdict("zheevd", info == 0 && res < thresh && orth < thresh &&
                          iwork[0] == iwq && rwork[0] == rwq,
            "n=%lld info=%lld residual %.2f orthogonality %.2f",
            (long long)n, (long long)info, res, orth);
    if (!invalid)
        goto out;
    /* UPLO invalid: INFO = -2 */
    info = 0;
    NAME(zheevd)("V", "X", &n, a, &lda, w, work, &lwork, rwork, &lrwork,
                 iwork, &liwork, &info, 1, 1);
    verdict("zheevd-uplo", info == -2, "info=%lld", (long long)info);
out:
    free(a), free(a0), free(w), free(work), free(rwork), free(iwork);
}

#ifndef SUFFIX64
/* The routines whose host path calls the real LAPACK's ?steqr (dsyev V),
 * ?sterf (dsyevd N), ?stebz and ?stein (dsyevr RANGE 'I'), the panels and
 * ?symv (dsytrd), ?bdsqr's values (dgesvd N): through the library's
 * adapters when that LAPACK is ILP64; and dsyevd_2stage, whose minimum
 * workspace the library asks ILAENV2STAGE for. */
static void check_plain_helpers(i64 n)
{
    unsigned long long seed = 2;
    i64 lda = n + 1, info = 99, m1 = -1;
    double *a0 = malloc(sizeof *a0 * lda * n), *a = malloc(sizeof *a * lda * n);
    double *z = malloc(sizeof *z * lda * n), *wref = malloc(sizeof *wref * n);
    double *w = malloc(sizeof *w * n), wq = 0;
    i64 *isuppz = malloc(sizeof *isuppz * 2 * n), iwq = 0;
    for (i64 j = 0; j < n; j++)
        for (i64 i = j; i < n; i++)
            a0[i + j * lda] = a0[j + i * lda] = rnd(&seed);
    double anorm = one_norm(n, a0, lda), res, orth;

    memcpy(a, a0, sizeof *a * lda * n);
    dsyev_("V", "U", &n, a, &lda, wref, &wq, &m1, &info, 1, 1);
    i64 lwork = (i64)wq;
    double *work = malloc(sizeof *work * (lwork > 64 * n ? lwork : 64 * n));
    dsyev_("V", "U", &n, a, &lda, wref, work, &lwork, &info, 1, 1);
    eig_ratios(n, a0, lda, a, lda, wref, n, &res, &orth);
    verdict("dsyev", info == 0 && res < thresh && orth < thresh,
            "n=%lld info=%lld residual %.2f orthogonality %.2f",
            (long long)n, (long long)info, res, orth);

    /* values only: against dsyev's, in units of n |A| eps */
    memcpy(a, a0, sizeof *a * lda * n);
    i64 lw = 2 * n + 1, liw = 1;
    dsyevd_("N", "U", &n, a, &lda, w, work, &lw, &iwq, &liw, &info, 1, 1);
    double diff = 0;
    for (i64 i = 0; i < n; i++)
        diff = fmax(diff, fabs(w[i] - wref[i]));
    diff /= n * anorm * DBL_EPSILON;
    verdict("dsyevd-values", info == 0 && diff < thresh,
            "n=%lld info=%lld values %.2f", (long long)n, (long long)info,
            diff);

    memcpy(a, a0, sizeof *a * lda * n);
    lw = -1;
    dsyevd_2stage_("N", "U", &n, a, &lda, w, &wq, &lw, &iwq, &liw, &info, 1,
                   1);
    lw = (i64)wq;
    double *work3 = malloc(sizeof *work3 * lw);
    dsyevd_2stage_("N", "U", &n, a, &lda, w, work3, &lw, &iwq, &liw, &info,
                   1, 1);
    diff = 0;
    for (i64 i = 0; i < n; i++)
        diff = fmax(diff, fabs(w[i] - wref[i]));
    diff /= n * anorm * DBL_EPSILON;
    verdict("dsyevd_2stage-values", info == 0 && diff < thresh,
            "n=%lld lwork=%lld info=%lld values %.2f", (long long)n,
            (long long)lw, (long long)info, diff);
    free(work3);

    /* the tridiagonal of dsytrd, its values by the real dsterf */
    memcpy(a, a0, sizeof *a * lda * n);
    double *e = malloc(sizeof *e * n), *tau = malloc(sizeof *tau * n);
    lw = 64 * n;
    dsytrd_("L", &n, a, &lda, w, e, tau, work, &lw, &info, 1);
    i64 info2 = 0;
    dsterf_(&n, w, e, &info2);
    diff = 0;
    for (i64 i = 0; i < n; i++)
        diff = fmax(diff, fabs(w[i] - wref[i]));
    diff /= n * anorm * DBL_EPSILON;
    verdict("dsytrd-values", info == 0 && info2 == 0 && diff < thresh,
            "n=%lld info=%lld values %.2f", (long long)n, (long long)info,
            diff);

    /* singular values of the symmetric a0: its |eigenvalues|, descending */
    memcpy(a, a0, sizeof *a * lda * n);
    i64 one = 1;
    lw = 64 * n;
    dgesvd_("N", "N", &n, &n, a, &lda, w, NULL, &one, NULL, &one, work, &lw,
            &info, 1, 1);
    for (i64 i = 0; i < n; i++)
        e[i] = fabs(wref[i]);
    for (i64 i = 1; i < n; i++)   /* sorted descending */
        for (i64 k = i; k > 0 && e[k - 1] < e[k]; k--) {
            double t = e[k];
            e[k] = e[k - 1];
            e[k - 1] = t;
        }
    diff = 0;
    for (i64 i = 0; i < n; i++)
        diff = fmax(diff, fabs(w[i] - e[i]));
    diff /= n * anorm * DBL_EPSILON;
    verdict("dgesvd-values", info == 0 && diff < thresh,
            "n=%lld info=%lld values %.2f", (long long)n, (long long)info,
            diff);
    free(e), free(tau);

    /* the lower half of the spectrum with vectors */
    memcpy(a, a0, sizeof *a * lda * n);
    i64 il = 1, iu = n / 2, m = 0;
    double vl = 0, vu = 0, abstol = 0;
    dsyevr_("V", "I", "U", &n, a, &lda, &vl, &vu, &il, &iu, &abstol, &m, w,
            z, &lda, isuppz, &wq, &m1, &iwq, &m1, &info, 1, 1, 1);
    lwork = (i64)wq;
    i64 liwork = iwq;
    double *work2 = malloc(sizeof *work2 * lwork);
    i64 *iwork = malloc(sizeof *iwork * liwork);
    dsyevr_("V", "I", "U", &n, a, &lda, &vl, &vu, &il, &iu, &abstol, &m, w,
            z, &lda, isuppz, work2, &lwork, iwork, &liwork, &info, 1, 1, 1);
    eig_ratios(n, a0, lda, z, lda, w, m, &res, &orth);
    diff = 0;
    for (i64 i = 0; i < m; i++)
        diff = fmax(diff, fabs(w[i] - wref[i]));
    diff /= n * anorm * DBL_EPSILON;
    verdict("dsyevr-subset",
            info == 0 && m == iu && res < thresh && orth < thresh &&
                diff < thresh,
            "n=%lld m=%lld info=%lld residual %.2f orthogonality %.2f "
            "values %.2f", (long long)n, (long long)m, (long long)info, res,
            orth, diff);
    free(a0), free(a), free(z), free(wref), free(w), free(isuppz);
    free(work), free(work2), free(iwork);
}
#endif

int main(int argc, char **argv)
{
    tag = argc > 1 ? argv[1] : "?";
    i64 n = argc > 2 ? atoll(argv[2]) : 300;
    invalid = !(argc > 3 && strcmp(argv[3], "valid") == 0);
    check_dsyevd(n);
    check_dgesdd(n + 40, n - 50);
    check_dgesdd(n - 50, n);
    check_zheevd(n - 40);
#ifndef SUFFIX64
    check_plain_helpers(n);
#endif
    return failures != 0;
}
