/* Eigenvalues of a Hermitian matrix by the two-stage reduction: dense ->
 * band (sy2sb), band -> tridiagonal (bulge chasing), tridiagonal ->
 * values (the system ?sterf, or ?stebz for a subset).  The scaling follows
 * the ?syev family. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "../lapack_api/precision.h"
#include "../runtime/log.h"
#include "../runtime/tune.h"
#include "householder.h"
#include "lapack_fns.h"
#include "stages.h"

int GL_FN(he_tridiag)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                      const gl_scalar *a, lapack_int lda, gl_real sigma,
                      gl_real *d, gl_real *e, gl_scalar *q1, lapack_int ldq1,
                      gl_scalar *tau, gl_stage_times *times)
{
    int lower = uplo == 'L';
    lapack_int b = gl_tune_band('H', GL_COMPLEX, n);
    lapack_int bw = b < n - 1 ? b : n - 1;
    lapack_int ldband = 2 * bw + 1;
    gl_scalar *wk = ops->alloc(sizeof *wk * (size_t)n * (size_t)n);
    gl_scalar *band = ops->alloc(sizeof *band * (size_t)ldband * (size_t)n);
    gl_scalar *de = malloc(sizeof *de * 2 * (size_t)n);
    gl_scalar *taus = q1 ? malloc(sizeof *taus * (size_t)n) : NULL;
    int rc = GL_STAGE_FAULT;
    if (!wk || !band || !de || (q1 && !taus))
        goto out;

    /* The lower triangle of A, or of A^H for 'U' (A = A^H). */
    ops->from_host(lower ? 'N' : 'C', n, n, a, lda, wk, n);
    if (sigma != 1 && ops->lascl(1, sigma, n, n, wk, n))
        goto out;
    double t0 = gl_now();
    for (lapack_int i = 0; taus && i < n; i++)
        taus[i] = 0;
    if (bw > 1 && GL_FN(sy2sb)(ops, n, bw, wk, n, taus))
        goto out;
    double t1 = gl_now();
    ops->pack_band('H', n, bw, wk, n, band, ldband);
    if (bw > 1 && ops->sb_chase(n, bw, band, ldband))
        goto out;
    double t2 = gl_now();

    GL_FN(band_to_de)(ops, 'H', n, bw, band, ldband, de, d, e);

    /* Q1 for ?sytrd_2stage: the band and the reflectors below it, in the
     * caller's triangle (for 'U' those of A^H, conjugate-transposed). */
    if (q1 && bw > 1 && n - bw >= 2) {
        for (lapack_int j = 0; j < n; j++) {
            if (lower) {
                ops->to_host(n - j, 1, wk + j + (size_t)j * n, n,
                             q1 + j + (size_t)j * ldq1, ldq1);
                continue;
            }
            ops->to_host(n - j, 1, wk + j + (size_t)j * n, n, de, n);
            for (lapack_int i = j; i < n; i++)
                q1[j + (size_t)i * ldq1] = GL_CONJ(de[i - j]);
        }
        for (lapack_int i = 0; i + 1 < n; i++)
            tau[i] = lower ? taus[i] : GL_CONJ(taus[i]);
    }
    if (times)
        *times = (gl_stage_times){t1 - t0, t2 - t1, 0};
    rc = 0;
out:
    ops->release(wk);
    ops->release(band);
    free(de);
    free(taus);
    return rc;
}

static int ascending(const void *x, const void *y)
{
    gl_real a = *(const gl_real *)x, b = *(const gl_real *)y;
    return (a > b) - (a < b);
}

int GL_FN(eig_values)(const GL_FN(ops) *ops, const gl_eig_job *job,
                      lapack_int n, const gl_scalar *a, lapack_int lda,
                      lapack_int *m, gl_real *w, gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    *m = 0;
    if (n == 0)
        return 0;

    /* max |a_ij| over the referenced triangle (?lansy/?lanhe 'M': the
     * real part of the diagonal); Inf/NaN stays with LAPACK. */
    int lower = job->uplo == 'L';
    int expert = job->driver == GL_EIG_SYEVR || job->driver == GL_EIG_SYEVX;
    gl_real anrm = 0;
    for (lapack_int j = 0; j < n; j++) {
        lapack_int i0 = lower ? j : 0, i1 = lower ? n : j + 1;
        for (lapack_int i = i0; i < i1; i++) {
            gl_scalar x = a[i + (size_t)j * lda];
            /* ?heevr measures with ?lansy, which keeps the imaginary
             * part of the diagonal; the others with ?lanhe, which drops it */
            gl_real v = i == j && job->driver != GL_EIG_SYEVR
                            ? GL_R(fabs)(GL_REAL(x))
                            : GL_ABS(x);
            if (!(v <= anrm) && !isnan(anrm))
                anrm = v;   /* a NaN, once seen, stays */
        }
    }
    if (!isfinite(anrm))
        return GL_STAGE_NONFINITE;
    const gl_real safmin = f->lamch("S", 1), eps = f->lamch("P", 1);
    const gl_real smlnum = safmin / eps, bignum = 1 / smlnum;
    const gl_real rmin = GL_R(sqrt)(smlnum);
    gl_real rmax = GL_R(sqrt)(bignum);
    if (expert && rmax > 1 / GL_R(sqrt)(GL_R(sqrt)(safmin)))
        rmax = 1 / GL_R(sqrt)(GL_R(sqrt)(safmin));
    gl_real sigma = 1;
    if (anrm > 0 && anrm < rmin)
        sigma = rmin / anrm;
    else if (anrm > rmax)
        sigma = rmax / anrm;

    gl_real *d = malloc(sizeof *d * 9 * (size_t)n);
    lapack_int *iwork = malloc(sizeof *iwork * 5 * (size_t)n);
    int rc = GL_STAGE_FAULT;
    if (!d || !iwork)
        goto out;
    gl_real *e = d + n, *work = e + n;
    gl_stage_times reduce = {0};
    if (GL_FN(he_tridiag)(ops, job->uplo, n, a, lda, sigma, d, e, NULL, 0,
                          NULL, &reduce))
        goto out;
    double t2 = gl_now();

    /* Stage 3 as the driver does it. */
    lapack_int info = 0;
    int all = job->range == 'A' ||
              (job->range == 'I' && job->il == 1 && job->iu == n);
    int use_sterf = job->driver == GL_EIG_SYEV ||
                    job->driver == GL_EIG_SYEVD ||
                    (job->driver == GL_EIG_SYEVR && all) ||
                    (job->driver == GL_EIG_SYEVX && all && job->abstol <= 0);
    int done = 0;
    if (use_sterf) {
        gl_real *e2 = work + 4 * n;
        for (lapack_int i = 0; i < n; i++)
            w[i] = d[i];
        for (lapack_int i = 0; i + 1 < n; i++)
            e2[i] = e[i];
        f->sterf(&n, w, e2, &info);
        if (info == 0)
            *m = n;
        /* the expert drivers retry a failed ?sterf with ?stebz */
        done = info == 0 || !expert;
        if (!done)
            info = 0;
    }
    if (!done) {
        gl_real vl = job->vl * sigma, vu = job->vu * sigma;
        gl_real abstol = job->abstol;
        if (sigma != 1 && abstol > 0)
            abstol *= sigma;
        lapack_int nsplit = 0, stebz_info = 0;
        char range = job->range;
        f->stebz(&range, "E", &n, &vl, &vu, &job->il, &job->iu, &abstol, d,
                 e, m, &nsplit, w, iwork, iwork + n, work, iwork + 2 * n,
                 &stebz_info, 1, 1);
        if (stebz_info != 0)
            info = (job->driver == GL_EIG_SYEVX ? n : 0) + stebz_info;
        /* ?stebz (ORDER 'E') orders by split block; the drivers document
         * ascending order. */
        qsort(w, (size_t)*m, sizeof *w, ascending);
    }
    double t3 = gl_now();
    if (sigma != 1) {
        lapack_int count = info == 0                       ? *m
                           : job->driver == GL_EIG_SYEVD ? n
                                                           : info - 1;
        for (lapack_int i = 0; i < count && i < n; i++)
            w[i] *= 1 / sigma;
    }
    if (times)
        *times = (gl_stage_times){reduce.stage1, reduce.stage2, t3 - t2};
    rc = (int)info;
out:
    free(d);
    free(iwork);
    return rc;
}
