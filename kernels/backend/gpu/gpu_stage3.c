/* The GPU table's stage 3 (part of gpu_ops): the values by bisection
 * (kernels/device/tridiag.h), and the steps of the divide and conquer
 * with its vectors on the device (kernels/device/dc.h). */
#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "../../../runtime/precision.h"
#include "../../../runtime/fault.h"
#include "../../stages/stage3.h"
#include "launch.h"

/* ---- stage 3, values only (kernels/device/tridiag.h) ---- */

/* Eigenvalues k = kfirst .. kfirst+count-1 (ascending, 0-based) of the
 * symmetric tridiagonal (diag: n, off: n-1 values) into w (host arrays),
 * by bisection, one work-item each, with ?stebz's bounds and tolerances
 * (ABSTOL <= 0): Gershgorin's interval widened by 2.1 (n ulp |T| + 2
 * pivmin), atol = ulp |T|, rtol = 2 ulp, pivmin = safmin max(1, max
 * off_i^2).  w ascends to the tolerance; it is sorted after. */
static int bisect(const GL_FN(ops) *ops, lapack_int n, const gl_real *diag,
                  const gl_real *off, lapack_int kfirst, lapack_int count,
                  gl_real *w)
{
    const gl_real ulp = sizeof(gl_real) == sizeof(float) ? FLT_EPSILON
                                                         : DBL_EPSILON,
                  safmin = sizeof(gl_real) == sizeof(float) ? FLT_MIN
                                                            : DBL_MIN;
    if (n > INT_MAX)
        return -1;
    gl_real *e2 = malloc(sizeof *e2 * (size_t)n);
    if (!e2)
        return -1;
    gl_real e2max = 0, lo = diag[0], hi = diag[0];
    for (lapack_int i = 0; i < n; i++) {
        gl_real left = i > 0 ? GL_R(fabs)(off[i - 1]) : 0,
                right = i + 1 < n ? GL_R(fabs)(off[i]) : 0;
        e2[i] = right * right;
        e2max = e2[i] > e2max ? e2[i] : e2max;
        lo = GL_R(fmin)(lo, diag[i] - left - right);
        hi = GL_R(fmax)(hi, diag[i] + left + right);
    }
    gl_real pivmin = safmin * (e2max > 1 ? e2max : 1),
            tnorm = GL_R(fmax)(GL_R(fabs)(lo), GL_R(fabs)(hi)),
            widen = (gl_real)2.1 * (tnorm * ulp * (gl_real)n + 2 * pivmin),
            atol = GL_R(fmax)(ulp * tnorm, pivmin), rtol = 2 * ulp;
    if (tnorm == 0) {   /* T = 0: exact zeros, as ?sterf and ?bdsqr give */
        for (lapack_int i = 0; i < count; i++)
            w[i] = 0;
        free(e2);
        return 0;
    }
    lo -= widen;
    hi += widen;
    if (!isfinite(lo) || !isfinite(hi)) {
        free(e2);
        return -1;   /* the call restarts on LAPACK from the caller's data */
    }
    size_t rs = sizeof(gl_real);
    gl_real *dev =
        RT(ops)->alloc(ops->ctx, rs * (2 * (size_t)n + (size_t)count));
    int rc = -1;
    if (dev) {
        gl_real *dd = dev, *de2 = dev + n, *dw = dev + 2 * (size_t)n;
        int in = (int)n, ik = (int)kfirst, ic = (int)count;
        gl_arg args[] = {VAL(in),   GL_MEM(dd, rs), GL_MEM(de2, rs),
                         VAL(ik),   VAL(ic),        VAL(lo),
                         VAL(hi),   VAL(atol),      VAL(rtol),
                         VAL(pivmin), GL_MEM(dw, rs)};
        size_t local = 64, groups = groups_of((size_t)count, local);
        if (RT(ops)->write(ops->ctx, rs, (size_t)n, 1, diag, (size_t)n, dd,
                           (size_t)n) == 0 &&
            RT(ops)->write(ops->ctx, rs, (size_t)n, 1, e2, (size_t)n, de2,
                           (size_t)n) == 0 &&
            RT(ops)->launch(ops->ctx, GL_PRECISION, GL_K_TRIDIAG_BISECT, 1,
                            &groups, &local, NARGS(args), args) == 0)
            rc = RT(ops)->read(ops->ctx, rs, (size_t)count, 1, dw,
                               (size_t)count, w, (size_t)count);
        RT(ops)->release(ops->ctx, dev);
    }
    free(e2);
    if (rc == 0)
        GL_FN(sort_ascending)(w, (size_t)count);
    return rc;
}

/* gl_s_dev_tridiag_values gl_d_dev_tridiag_values gl_c_dev_tridiag_values gl_z_dev_tridiag_values */
int GL_FN(dev_tridiag_values)(const GL_FN(ops) *ops, lapack_int n,
                              const gl_real *d, const gl_real *e, gl_real *w)
{
    return n > 0 ? bisect(ops, n, d, e, 0, n, w) : 0;
}

/* The singular values of the upper bidiagonal B (d, e) are the n largest
 * eigenvalues of the Golub-Kahan tridiagonal of order 2n: zero diagonal,
 * off-diagonal d_0, e_0, d_1, ..., d_{n-1} (its spectrum is +-sigma). */
/* gl_s_dev_bidiag_values gl_d_dev_bidiag_values gl_c_dev_bidiag_values gl_z_dev_bidiag_values */
int GL_FN(dev_bidiag_values)(const GL_FN(ops) *ops, lapack_int n,
                             const gl_real *d, const gl_real *e, gl_real *s)
{
    if (n <= 0)
        return 0;
    gl_real *tgk = malloc(sizeof *tgk * 5 * (size_t)n);
    if (!tgk)
        return -1;
    gl_real *diag = tgk, *off = diag + 2 * n, *w = off + 2 * n;
    for (lapack_int i = 0; i < n; i++) {
        diag[2 * i] = diag[2 * i + 1] = 0;
        off[2 * i] = d[i];
        if (i + 1 < n)
            off[2 * i + 1] = e[i];
    }
    int rc = bisect(ops, 2 * n, diag, off, n, n, w);
    for (lapack_int i = 0; rc == 0 && i < n; i++)   /* descending */
        s[i] = GL_R(fabs)(w[n - 1 - i]);
    free(tgk);
    return rc;
}
/* 1-D launch of count work-items in groups of local. */
static int launch_1d(const GL_FN(ops) *ops, gl_kernel k, size_t count,
                     size_t local, int nargs, const gl_arg *args)
{
    size_t groups = groups_of(count, local);
    return count > 0 ? RT(ops)->launch(ops->ctx, GL_PRECISION, k, 1, &groups,
                                       &local, nargs, args)
                     : 0;
}

/* gl_s_dev_dc_rotate gl_d_dev_dc_rotate gl_c_dev_dc_rotate gl_z_dev_dc_rotate */
int GL_FN(dev_dc_rotate)(const GL_FN(ops) *ops, lapack_int count, int by_rows,
                         lapack_int nrot, const lapack_int *pair,
                         const gl_real *cs, gl_real *q, lapack_int ldq)
{
    if (count <= 0 || nrot <= 0)
        return 0;
    int *dpair = upload(ops, sizeof *pair, 2 * (size_t)nrot, pair);
    gl_real *dcs = upload(ops, RS, 2 * (size_t)nrot, cs);
    int rc = -1, c = (int)count, ld = (int)ldq, nr = (int)nrot;
    if (dpair && dcs) {
        gl_arg args[] = {VAL(c),  RMEM(q), VAL(ld), VAL(by_rows), VAL(nr),
                         GL_MEM(dpair, sizeof *pair), RMEM(dcs)};
        rc = launch_1d(ops, GL_K_DC_ROTATE, (size_t)count, 64, NARGS(args),
                       args);
    }
    RT(ops)->release(ops->ctx, dpair);
    RT(ops)->release(ops->ctx, dcs);
    return rc;
}

/* gl_s_dev_dc_gather gl_d_dev_dc_gather gl_c_dev_dc_gather gl_z_dev_dc_gather */
int GL_FN(dev_dc_gather)(const GL_FN(ops) *ops, lapack_int rows,
                         lapack_int cols, int by_rows, const lapack_int *from,
                         const gl_real *src, lapack_int lds, gl_real *dst,
                         lapack_int ldd)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    int *dfrom =
        upload(ops, sizeof *from, (size_t)(by_rows ? rows : cols), from);
    int rc = -1, r = (int)rows, c = (int)cols, ls = (int)lds, ld = (int)ldd;
    if (dfrom) {
        gl_arg args[] = {VAL(r),       VAL(c),   RMEM(src),
                         VAL(ls),      VAL(by_rows),
                         GL_MEM(dfrom, sizeof *from), RMEM(dst), VAL(ld)};
        rc = launch_2d(ops, GL_K_DC_GATHER, rows, cols, NARGS(args), args);
    }
    RT(ops)->release(ops->ctx, dfrom);
    return rc;
}

/* DC_THREADS of kernels/device/dc.h */
enum { DC_GROUP = 256 };

/* A merge's secular equation on the device (svd 0: the tridiagonal
 * problem, 1: the bidiagonal one): the roots from the 5k values of roots
 * (kernels/device/dc.h), the weights recomputed from them (kernel
 * weights), the vectors (kernel vectors: k work-groups, arguments vargs
 * after k and the roots), the roots' values read back last, in one wait.
 * 0, 1 where a root did not converge (the kernel's NaN, or the tests'
 * GPULAPACK_FAULT=secular:N), or -1. */
static int secular(const GL_FN(ops) *ops, lapack_int k, int svd, gl_real rho,
                   const gl_real *roots, gl_real *values, gl_kernel weights,
                   gl_kernel vectors, int nvargs, const gl_arg *vargs)
{
    if (k <= 0)
        return 0;
    gl_real *dr = upload(ops, RS, 5 * (size_t)k, roots);
    gl_real *dv = RT(ops)->alloc(ops->ctx, RS * (size_t)k);
    int rc = -1, ik = (int)k;
    if (dr && dv) {
        gl_arg rargs[] = {VAL(ik), VAL(svd), VAL(rho), RMEM(dr), RMEM(dv)};
        gl_arg wargs[] = {VAL(ik), RMEM(dr)};
        gl_arg all[8] = {VAL(ik), RMEM(dr)};
        for (int i = 0; i < nvargs; i++)
            all[2 + i] = vargs[i];
        size_t groups = (size_t)k, local = DC_GROUP;
        rc = launch_1d(ops, GL_K_DC_SECULAR_ROOTS, (size_t)k, 64, NARGS(rargs),
                       rargs) ||
                     launch_1d(ops, weights, (size_t)k, 64, NARGS(wargs),
                               wargs) ||
                     RT(ops)->launch(ops->ctx, GL_PRECISION, vectors, 1,
                                     &groups, &local, 2 + nvargs, all) ||
                     RT(ops)->read(ops->ctx, RS, (size_t)k, 1, dv, (size_t)k,
                                   values, (size_t)k)
                 ? -1
                 : 0;
    }
    RT(ops)->release(ops->ctx, dr);
    RT(ops)->release(ops->ctx, dv);
    for (lapack_int j = 0; rc == 0 && j < k; j++)
        if (values[j] != values[j])
            rc = 1;
    return rc == 0 && gl_fault_hit(GL_FAULT_SECULAR) ? 1 : rc;
}

/* gl_s_dev_dc_secular gl_d_dev_dc_secular gl_c_dev_dc_secular gl_z_dev_dc_secular */
int GL_FN(dev_dc_secular)(const GL_FN(ops) *ops, lapack_int k, gl_real rho,
                          const gl_real *roots, gl_real *values, gl_real *s,
                          lapack_int lds)
{
    int ld = (int)lds;
    gl_arg vargs[] = {RMEM(s), VAL(ld)};
    return secular(ops, k, 0, rho, roots, values, GL_K_DC_SECULAR_W,
                   GL_K_DC_SECULAR_VECTORS, NARGS(vargs), vargs);
}

/* gl_s_dev_dc_svd_secular gl_d_dev_dc_svd_secular gl_c_dev_dc_svd_secular gl_z_dev_dc_svd_secular */
int GL_FN(dev_dc_svd_secular)(const GL_FN(ops) *ops, lapack_int k, gl_real rho,
                              const gl_real *roots, gl_real *values,
                              gl_real *qu, gl_real *qvt, lapack_int ldq)
{
    int ld = (int)ldq;
    gl_arg vargs[] = {RMEM(qu), RMEM(qvt), VAL(ld)};
    return secular(ops, k, 1, rho, roots, values, GL_K_DC_SVD_Z,
                   GL_K_DC_SVD_VECTORS, NARGS(vargs), vargs);
}

/* gl_s_dev_dc_svd_first_row gl_d_dev_dc_svd_first_row gl_c_dev_dc_svd_first_row gl_z_dev_dc_svd_first_row */
int GL_FN(dev_dc_svd_first_row)(const GL_FN(ops) *ops, lapack_int n,
                                lapack_int m, lapack_int nl, gl_real c,
                                gl_real s, gl_real *vt, lapack_int ldvt,
                                gl_real *vt2, lapack_int ldvt2)
{
    int in = (int)n, im = (int)m, inl = (int)nl, l1 = (int)ldvt,
        l2 = (int)ldvt2;
    gl_arg args[] = {VAL(in),  VAL(im),  VAL(inl),  VAL(c),  VAL(s),
                     RMEM(vt), VAL(l1), RMEM(vt2), VAL(l2)};
    return launch_1d(ops, GL_K_DC_SVD_FIRST_ROW, (size_t)m, 64, NARGS(args),
                     args);
}

/* gl_s_dev_dc_support gl_d_dev_dc_support gl_c_dev_dc_support gl_z_dev_dc_support */
int GL_FN(dev_dc_support)(const GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, const gl_real *z, lapack_int ldz,
                          lapack_int *supp)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    int *dsupp = RT(ops)->alloc(ops->ctx, sizeof *supp * 2 * (size_t)cols);
    int rc = -1, r = (int)rows, c = (int)cols, ld = (int)ldz;
    if (dsupp) {
        gl_arg args[] = {VAL(r), VAL(c), RMEM(z), VAL(ld),
                         GL_MEM(dsupp, sizeof *supp)};
        rc = launch_1d(ops, GL_K_DC_SUPPORT, (size_t)cols, 64, NARGS(args),
                       args);
        if (rc == 0)
            rc = RT(ops)->read_direct(ops->ctx, sizeof *supp, 2 * (size_t)cols,
                                      1, dsupp, 2 * (size_t)cols, supp,
                                      2 * (size_t)cols);
    }
    RT(ops)->release(ops->ctx, dsupp);
    return rc;
}

/* gl_s_dev_phase_rows gl_d_dev_phase_rows gl_c_dev_phase_rows gl_z_dev_phase_rows */
int GL_FN(dev_phase_rows)(const GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, int transpose,
                          const gl_scalar *phase, const gl_real *z,
                          lapack_int ldz, lapack_int drows, lapack_int dcols,
                          gl_scalar *dst, lapack_int ldd)
{
    if (drows <= 0 || dcols <= 0)
        return 0;
    gl_scalar *dphase = upload(ops, ES, (size_t)(rows > 0 ? rows : 0), phase);
    int rc = -1, r = (int)rows, c = (int)cols, lz = (int)ldz,
        dr = (int)drows, dc = (int)dcols, ld = (int)ldd;
    if (dphase) {
        gl_arg args[] = {VAL(r),   VAL(c),  VAL(transpose), MEM(dphase),
                         RMEM(z),  VAL(lz), VAL(dr),        VAL(dc),
                         MEM(dst), VAL(ld)};
        rc =
            launch_2d(ops, GL_K_DC_PHASE_ROWS, drows, dcols, NARGS(args), args);
    }
    RT(ops)->release(ops->ctx, dphase);
    return rc;
}
