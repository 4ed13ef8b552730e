/* Stage 3 with vectors of the ?syev-family drivers, on the tridiagonal
 * of a two-stage reduction: each driver's stage-3 routine (?steqr,
 * ?stedc as tridiag_eig, ?stebz and ?stein) as it runs them, the vectors
 * sorted with their values (tridiagonal_vectors); and ?stebz with the
 * job's bounds scaled as the drivers scale them (scaled_stebz, which the
 * values-only pipelines take too). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../backend/lapack_fns.h"
#include "stage3.h"

/* gl_s_scaled_stebz gl_d_scaled_stebz gl_c_scaled_stebz gl_z_scaled_stebz */
lapack_int GL_FN(scaled_stebz)(const GL_FN(lapack_fns) *f,
                               const gl_eig_job *job, const char *order,
                               lapack_int n, const gl_real *d,
                               const gl_real *e, gl_real sigma,
                               lapack_int *m, gl_real *w, lapack_int *iblock,
                               lapack_int *isplit, gl_real *work,
                               lapack_int *iwork)
{
    gl_real vl = job->vl * sigma, vu = job->vu * sigma;
    gl_real abstol = job->abstol;
    if (sigma != 1 && abstol > 0)
        abstol *= sigma;
    lapack_int nsplit = 0, info = 0;
    char range = job->range;
    f->stebz(&range, order, &n, &vl, &vu, &job->il, &job->iu, &abstol, d, e,
             m, &nsplit, w, iblock, isplit, work, iwork, &info, 1, 1);
    lapack_int want = job->iu - job->il + 1;
    if (range != 'I' || (info == 0 && *m == want))
        return info;
    /* A cluster of equal eigenvalues across IL or IU: ?stebz's interval
     * cannot separate them, and it may return fewer (even none) than the
     * IU-IL+1 that the drivers document, with INFO 2 or 4 (LAPACK 3.11
     * does the same).  All of them in ascending order, then the wanted
     * ones. */
    f->stebz("A", "E", &n, &vl, &vu, &job->il, &job->iu, &abstol, d, e, m,
             &nsplit, w, iblock, isplit, work, iwork, &info, 1, 1);
    if (info != 0)
        return info;
    memmove(w, w + job->il - 1, sizeof *w * (size_t)want);
    memmove(iblock, iblock + job->il - 1, sizeof *iblock * (size_t)want);
    *m = want;
    /* ORDER 'B' (for ?stein): by block, ascending within each (a stable
     * insertion sort by block) */
    for (lapack_int i = 1; *order == 'B' && i < want; i++)
        for (lapack_int k = i; k > 0 && iblock[k - 1] > iblock[k]; k--) {
            gl_real tw = w[k];
            lapack_int tb = iblock[k];
            w[k] = w[k - 1], iblock[k] = iblock[k - 1];
            w[k - 1] = tw, iblock[k - 1] = tb;
        }
    return 0;
}

/* isuppz[2j], isuppz[2j+1]: the first and last nonzero row (1-based)
 * of column j of the n x n zt, as ?stemr's ISUPPZ. */
static void supports(lapack_int n, const gl_real *zt, lapack_int *isuppz)
{
    for (lapack_int j = 0; j < n; j++) {
        const gl_real *zj = zt + (size_t)j * n;
        lapack_int first = 0, last = n - 1;
        while (first < last && zj[first] == 0)
            first++;
        while (last > first && zj[last] == 0)
            last--;
        isuppz[2 * j] = first + 1;
        isuppz[2 * j + 1] = last + 1;
    }
}

/* ?stebz and ?stein for the vectors of (d, e) as ?syevr/?syevx do them
 * (after ?stemr or ?steqr, or instead of them), the vectors
 * re-orthogonalized and sorted ascending with their values (and IFAIL);
 * rest: lrest reals, iblock and isplit n integers, irest 6 n.  ?stein's
 * INFO. */
static lapack_int stebz_stein(const GL_FN(lapack_fns) *f,
                              const gl_eig_job *job, lapack_int n,
                              const gl_real *d, const gl_real *e,
                              gl_real sigma, lapack_int *m, gl_real *w,
                              gl_real *zt, lapack_int *ifail, gl_real *rest,
                              lapack_int lrest, lapack_int *iblock,
                              lapack_int *isplit, lapack_int *irest)
{
    lapack_int info = 0;
    /* ?stebz's INFO is replaced by ?stein's below */
    GL_FN(scaled_stebz)(f, job, "B", n, d, e, sigma, m, w, iblock, isplit,
                        rest, irest);
    int expert_x = job->driver == GL_EIG_SYEVX;
    /* LAPACK 3.11 (the system's) lets ?stein's INFO replace ?stebz's in
     * both drivers (3.13 reports N + ?stebz's INFO in ?syevx) */
    lapack_int *fails = ifail ? ifail : irest + 5 * n;
    f->stein(&n, d, e, m, w, iblock, isplit, zt, &n, rest, irest, fails,
             &info);
    /* ?stein reorthogonalizes within clusters of close eigenvalues, but
     * the two-stage tridiagonal keeps rounding-level couplings where a
     * one-stage one splits, and large clusters then lose orthogonality
     * (cheevr, RANGE='V', 46 zero eigenvalues: 123 ulp).  A QR of the
     * vectors restores it; the vectors only mix within such clusters,
     * where they stay eigenvectors, and keep their signs. */
    if (info == 0 && *m > 1) {
        lapack_int lwork = lrest - *m, qinfo = 0;
        gl_real *tau = rest, *qwork = rest + *m;
        f->rgeqrf(&n, m, zt, &n, tau, qwork, &lwork, &qinfo);
        /* the signs of R's diagonal, in iblock (no longer needed) */
        for (lapack_int j = 0; j < *m; j++)
            iblock[j] = zt[j + (size_t)j * n] < 0 ? -1 : 1;
        if (qinfo == 0)
            f->rorgqr(&n, m, m, zt, &n, tau, qwork, &lwork, &qinfo);
        for (lapack_int j = 0; qinfo == 0 && j < *m; j++)
            if (iblock[j] < 0)
                for (lapack_int i = 0; i < n; i++)
                    zt[i + (size_t)j * n] = -zt[i + (size_t)j * n];
    }
    /* Unscaling comes after in the drivers; it keeps the order. */
    for (lapack_int j = 0; j + 1 < *m; j++) {
        lapack_int pick = -1;
        gl_real smallest = w[j];
        for (lapack_int jj = j + 1; jj < *m; jj++)
            if (w[jj] < smallest)
                pick = jj, smallest = w[jj];
        if (pick < 0)
            continue;
        w[pick] = w[j];
        w[j] = smallest;
        for (lapack_int i = 0; i < n; i++) {
            gl_real x = zt[i + (size_t)pick * n];
            zt[i + (size_t)pick * n] = zt[i + (size_t)j * n];
            zt[i + (size_t)j * n] = x;
        }
        if (expert_x && info != 0) {
            lapack_int x = ifail[pick];
            ifail[pick] = ifail[j];
            ifail[j] = x;
        }
    }
    return info;
}

/* gl_s_tridiagonal_vectors gl_d_tridiagonal_vectors gl_c_tridiagonal_vectors gl_z_tridiagonal_vectors */
lapack_int GL_FN(tridiagonal_vectors)(const GL_FN(ops) *ops,
                                      const gl_eig_job *job, lapack_int n,
                                      const gl_real *d, const gl_real *e,
                                      gl_real sigma, lapack_int *m,
                                      gl_real *w, gl_real *zt,
                                      lapack_int *isuppz, lapack_int *ifail,
                                      gl_real *work, lapack_int *iwork)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    gl_real *dd = work, *ee = dd + n, *rest = ee + n;
    /* ?stedc's 1 + 4n + n^2 in 64 bits (past 2^31 from n = 46,341,
     * where tridiag_eig no longer hands the problem to the system's) */
    int64_t lrest64 = 1 + 4 * (int64_t)n + (int64_t)n * n;
    if (lrest64 < 18 * (int64_t)n)
        lrest64 = 18 * (int64_t)n;
    lapack_int lrest = lrest64 > INT32_MAX ? INT32_MAX : (lapack_int)lrest64;
    lapack_int *iblock = iwork, *isplit = iblock + n, *irest = isplit + n;
    lapack_int lirest = 10 * n + 3;
    lapack_int info = 0;
    int all = job->range == 'A' ||
              (job->range == 'I' && job->il == 1 && job->iu == n);
    for (lapack_int i = 0; i < n; i++)
        dd[i] = d[i];
    for (lapack_int i = 0; i + 1 < n; i++)
        ee[i] = e[i];
    *m = 0;
    switch (job->driver) {
    case GL_EIG_SYEV:
        for (lapack_int i = 0; i < n; i++)
            w[i] = d[i];
        f->steqr("I", &n, w, ee, zt, &n, rest, &info, 1);
        *m = n;
        return info;
    case GL_EIG_SYEVD:
        for (lapack_int i = 0; i < n; i++)
            w[i] = d[i];
        if (GL_FN(tridiag_eig)(ops, n, w, ee, zt, n, rest, lrest, irest,
                               lirest, &info))
            return GL_STAGE_FAULT;
        *m = n;
        return info;
    case GL_EIG_SYEVR:
        if (all) {
            /* ?stedc where ?syevr uses ?stemr: the two-stage reduction
             * leaves rounding-level couplings inside clusters that a
             * one-stage reduction often zeroes exactly, and MRRR loses
             * orthogonality on them (cheevr, I + rank one, n = 120: 316
             * ulp; LAPACK's own 47); divide and conquer does not.  ISUPPZ
             * is the support of each eigenvector of T, as ?stemr's. */
            for (lapack_int i = 0; i < n; i++)
                w[i] = d[i];
            if (GL_FN(tridiag_eig)(ops, n, w, ee, zt, n, rest, lrest, irest,
                                   lirest, &info))
                return GL_STAGE_FAULT;
            if (info == 0) {
                *m = n;
                if (isuppz)
                    supports(n, zt, isuppz);
                return 0;
            }
            info = 0;   /* failed: ?stebz and ?stein, as after ?stemr */
        }
        break;
    case GL_EIG_SYEVX:
        if (all && job->abstol <= 0) {
            for (lapack_int i = 0; i < n; i++)
                w[i] = d[i];
            f->steqr("I", &n, w, ee, zt, &n, rest, &info, 1);
            if (info == 0) {
                *m = n;
                for (lapack_int i = 0; i < n; i++)
                    ifail[i] = 0;
                return 0;
            }
            info = 0;   /* ?steqr failed: ?stebz and ?stein */
        }
        break;
    }

    return stebz_stein(f, job, n, d, e, sigma, m, w, zt, ifail, rest, lrest,
                       iblock, isplit, irest);
}
