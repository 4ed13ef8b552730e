/* Band input (?gbbrd, ?sbtrd, ?sbev, ?sbevd): the LAPACK band storage is
 * packed on the host into the chase storage (kernels/ops.h) and reduced by
 * stage 2 alone. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lapack_api/precision.h"
#include "../runtime/log.h"
#include "../runtime/tune.h"
#include "householder.h"
#include "lapack_fns.h"
#include "stages.h"

/* Removes the kl subdiagonals of a packed band (rows up to n-1+kl) by a
 * banded QR: column j's reflector spans rows j..j+kl and reaches columns
 * up to j+kl+ku, so the result is an n x n upper band of half-width
 * kl+ku = b.  Host memory. */
static void banded_qr(lapack_int rows, lapack_int n, lapack_int kl,
                      lapack_int b, gl_scalar *band, lapack_int ld,
                      gl_scalar *v /* kl + 1 */)
{
    lapack_int up = 2 * b;
#define P(i, j) band[(size_t)(up + (i) - (j)) + (size_t)(j) * ld]
    for (lapack_int j = 0; j < n; j++) {
        lapack_int last = j + kl < rows - 1 ? j + kl : rows - 1;
        lapack_int len = last - j + 1;
        for (lapack_int k = 0; k < len; k++)
            v[k] = P(j + k, j);
        gl_scalar tau = gl_larfg(len, &v[0], &v[1], 1);
        P(j, j) = v[0];
        for (lapack_int k = 1; k < len; k++)
            P(j + k, j) = 0;
        v[0] = 1;
        if (tau != 0)   /* columns j+1 .. j+b */
            gl_larf_left(len, v, tau, &P(j, j + 1), ld - 1,
                         (j + b < n - 1 ? j + b : n - 1) - j);
    }
#undef P
}

void GL_FN(band_to_de)(const GL_FN(ops) *ops, char kind, lapack_int n,
                       lapack_int b, const gl_scalar *band,
                       lapack_int ldband, gl_scalar *scratch, gl_real *d,
                       gl_real *e)
{
    const gl_scalar *diag = kind == 'G' ? band + 2 * b : band;
    const gl_scalar *off = kind == 'G' ? band + 2 * b - 1 + ldband : band + 1;
    ops->to_host(1, n, diag, ldband, scratch, 1);
    for (lapack_int i = 0; i + 1 < n; i++)
        scratch[n + i] = 0;   /* a diagonal matrix has no band to read */
    if (n > 1 && b > 0)
        ops->to_host(1, n - 1, off, ldband, scratch + n, 1);
    for (lapack_int i = 0; i < n; i++)
        d[i] = kind == 'G' ? GL_ABS(scratch[i]) : GL_REAL(scratch[i]);
    for (lapack_int i = 0; i + 1 < n; i++)
        e[i] = GL_ABS(scratch[n + i]);
}

int GL_FN(gb_bidiag)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     lapack_int kl, lapack_int ku, const gl_scalar *ab,
                     lapack_int ldab, gl_real *d, gl_real *e,
                     gl_stage_times *times)
{
    /* LAPACK ignores diagonals that lie outside the matrix; the storage
     * keeps its rows (the diagonal is row ku of AB whatever N is). */
    const lapack_int ku_stored = ku;
    if (kl > m - 1)
        kl = m - 1 > 0 ? m - 1 : 0;
    if (ku > n - 1)
        ku = n - 1 > 0 ? n - 1 : 0;
    /* Work on A (m >= n) or A^H: rows x cols, lower/upper bandwidths. */
    int trans = m < n;
    lapack_int rows = trans ? n : m, cols = trans ? m : n;
    lapack_int lo = trans ? ku : kl, hi = trans ? kl : ku;
    if (cols == 0)
        return 0;
    lapack_int b = lo + hi < cols - 1 ? lo + hi : cols - 1;
    if (b < lo)
        b = lo;   /* the lower part needs its room during the QR */
    lapack_int ld = 3 * b + 1, up = 2 * b;
    gl_scalar *host = calloc((size_t)ld * (size_t)cols, sizeof *host);
    gl_scalar *dev = ops->alloc(sizeof *dev * (size_t)ld * (size_t)cols);
    gl_scalar *de = malloc(sizeof *de * (2 * (size_t)cols + (size_t)lo + 1));
    int rc = GL_STAGE_FAULT;
    if (!host || !dev || !de)
        goto out;

    double t0 = gl_now();
    /* AB(ku+1+i-j, j) = A(i,j) (1-based) */
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = j - ku > 0 ? j - ku : 0; i <= j + kl && i < m;
             i++) {
            gl_scalar x = ab[(size_t)(ku_stored + i - j) + (size_t)j * ldab];
            if (trans)
                host[(size_t)(up + j - i) + (size_t)i * ld] = GL_CONJ(x);
            else
                host[(size_t)(up + i - j) + (size_t)j * ld] = x;
        }
    if (lo > 0)
        banded_qr(rows, cols, lo, b, host, ld, de);
    double t1 = gl_now();
    ops->from_host('N', ld, cols, host, ld, dev, ld);
    if (GL_FN(gb2bd)(ops, cols, b, gl_tune_tile_width(b), dev, ld))
        goto out;
    GL_FN(band_to_de)(ops, 'G', cols, b, dev, ld, de, d, e);
    double t2 = gl_now();
    if (times)
        *times = (gl_stage_times){.stage1 = t1 - t0, .stage2 = t2 - t1};
    rc = 0;
out:
    free(host);
    ops->release(dev);
    free(de);
    return rc;
}

int GL_FN(sb_tridiag)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                      lapack_int kd, const gl_scalar *ab, lapack_int ldab,
                      gl_real sigma, gl_real *d, gl_real *e,
                      GL_FN(tridiag_q) *keep, gl_stage_times *times)
{
    if (n == 0)
        return 0;
    lapack_int b = kd < n - 1 ? kd : n - 1;
    lapack_int ld = 2 * b + 1;
    gl_scalar *host = calloc((size_t)ld * (size_t)n, sizeof *host);
    gl_scalar *dev = ops->alloc(sizeof *dev * (size_t)ld * (size_t)n);
    gl_scalar *de = malloc(sizeof *de * 2 * (size_t)n);
    int rc = GL_STAGE_FAULT;
    if (keep) {
        *keep = (GL_FN(tridiag_q)){.n = n, .b = b};
        keep->phase = malloc(sizeof *keep->phase * (size_t)n);
        if (!keep->phase ||
            GL_FN(reflectors_alloc)(ops, &keep->chase, n, b,
                                    gl_tune_group(b), 0))
            goto out;
    }
    if (!host || !dev || !de)
        goto out;

    double t0 = gl_now();
    /* lower band of A: 'L' AB(1+i-j, j) = A(i,j); 'U' AB(kd+1+i-j, j) =
     * A(i,j) for i <= j, and A(j,i) = conj(A(i,j)). */
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = j; i <= j + b && i < n; i++) {
            gl_scalar x = uplo == 'L'
                              ? ab[(size_t)(i - j) + (size_t)j * ldab]
                              : GL_CONJ(ab[(size_t)(kd + j - i) +
                                           (size_t)i * ldab]);
            if (i == j)
                x = GL_REAL(x);
            host[(size_t)(i - j) + (size_t)j * ld] = x * sigma;
        }
    ops->from_host('N', ld, n, host, ld, dev, ld);
    if (b > 1 && ops->sb_chase(n, b, dev, ld, keep ? &keep->chase : NULL))
        goto out;
    GL_FN(band_to_de)(ops, 'H', n, b, dev, ld, de, d, e);
    if (keep)
        GL_FN(tridiagonal_phases)(n, de + n, keep->phase);
    double t1 = gl_now();
    if (times)
        *times = (gl_stage_times){.stage2 = t1 - t0};
    rc = 0;
out:
    if (keep && rc != 0)
        GL_FN(tridiag_q_free)(ops, keep);
    free(host);
    ops->release(dev);
    free(de);
    return rc;
}

int GL_FN(sb_eig)(const GL_FN(ops) *ops, char uplo, int divide_conquer,
                  lapack_int n, lapack_int kd, const gl_scalar *ab,
                  lapack_int ldab, gl_real *w, gl_scalar *z, lapack_int ldz,
                  gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    if (n == 0)
        return 0;
    /* max |a_ij| over the stored band (?lansb/?lanhb 'M'). */
    gl_real anrm = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int k = 0; k <= kd; k++) {
            lapack_int i = uplo == 'L' ? j + k : j - kd + k;
            if (i < 0 || i >= n)
                continue;
            gl_scalar x = ab[(size_t)k + (size_t)j * ldab];
            gl_real v = i == j ? GL_R(fabs)(GL_REAL(x)) : GL_ABS(x);
            if (!(v <= anrm) && !isnan(anrm))
                anrm = v;   /* a NaN, once seen, stays */
        }
    if (!isfinite(anrm))
        return GL_STAGE_NONFINITE;
    const gl_real safmin = f->lamch("S", 1), eps = f->lamch("P", 1);
    const gl_real smlnum = safmin / eps, bignum = 1 / smlnum;
    const gl_real rmin = GL_R(sqrt)(smlnum), rmax = GL_R(sqrt)(bignum);
    gl_real sigma = 1;
    if (anrm > 0 && anrm < rmin)
        sigma = rmin / anrm;
    else if (anrm > rmax)
        sigma = rmax / anrm;

    int vectors = z != NULL;
    size_t nn = (size_t)n * (size_t)n;
    /* e, then with vectors: Z of T, a copy of d, tridiagonal_vectors' work */
    gl_real *e = malloc(sizeof *e * ((size_t)n + (vectors
                                                      ? nn + (size_t)n +
                                                            gl_tridiagonal_work(n)
                                                      : 0)));
    lapack_int *iwork =
        vectors ? malloc(sizeof *iwork * gl_tridiagonal_iwork(n)) : NULL;
    GL_FN(tridiag_q) q = {0};
    int rc = GL_STAGE_FAULT;
    if (!e || (vectors && !iwork))
        goto out;
    if (GL_FN(sb_tridiag)(ops, uplo, n, kd, ab, ldab, sigma, w, e,
                          vectors ? &q : NULL, times))
        goto out;
    double t0 = gl_now(), t1;
    lapack_int info = 0;
    if (vectors) {
        /* ?sbev: ?steqr, ?sbevd: ?stedc, on T; then Z = Q Z_T */
        gl_eig_job job = {.driver = divide_conquer ? GL_EIG_SYEVD
                                                   : GL_EIG_SYEV,
                          .uplo = uplo, .range = 'A'};
        gl_real *zt = e + n, *d = zt + nn;
        lapack_int m = 0;
        for (lapack_int i = 0; i < n; i++)
            d[i] = w[i];
        info = GL_FN(tridiagonal_vectors)(&job, n, d, e, sigma, &m, w, zt,
                                          NULL, NULL, d + n, iwork);
        t1 = gl_now();
        if (GL_FN(tridiag_q_apply)(ops, &q, n, zt, n, z, ldz))
            goto out;
    } else {
        f->sterf(&n, w, e, &info);
        t1 = gl_now();
    }
    if (times) {
        times->stage3 = t1 - t0;
        times->back = gl_now() - t1;
    }
    if (sigma != 1) {
        lapack_int count = info == 0 || divide_conquer ? n : info - 1;
        for (lapack_int i = 0; i < count; i++)
            w[i] *= 1 / sigma;
    }
    rc = (int)info;
out:
    GL_FN(tridiag_q_free)(ops, &q);
    free(e);
    free(iwork);
    return rc;
}

int GL_FN(sb_tridiag_q)(const GL_FN(ops) *ops, char vect, char uplo,
                        lapack_int n, lapack_int kd, const gl_scalar *ab,
                        lapack_int ldab, gl_real *d, gl_real *e, gl_scalar *q,
                        lapack_int ldq, gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    size_t nn = (size_t)n * (size_t)n;
    gl_real *eye = calloc(nn ? nn : 1, sizeof *eye);
    gl_scalar *qt = malloc(sizeof *qt * (vect == 'U' ? 2 * nn + 1 : 1));
    GL_FN(tridiag_q) keep = {0};
    int rc = GL_STAGE_FAULT;
    if (!eye || !qt ||
        GL_FN(sb_tridiag)(ops, uplo, n, kd, ab, ldab, 1, d, e, &keep, times))
        goto out;
    double t0 = gl_now();
    for (lapack_int i = 0; i < n; i++)
        eye[i + (size_t)i * n] = 1;
    /* Q of the reduction (A = Q T Q^H) into q ('V'), or X Q ('U', X the q
     * given) */
    gl_scalar *dst = vect == 'U' ? qt : q;
    if (GL_FN(tridiag_q_apply)(ops, &keep, n, eye, n, dst,
                               vect == 'U' ? n : ldq))
        goto out;
    if (vect == 'U') {
        gl_scalar *x = qt + nn, one = 1, zero = 0;
        for (lapack_int j = 0; j < n; j++)
            memcpy(x + (size_t)j * n, q + (size_t)j * ldq,
                   sizeof *x * (size_t)n);
        f->gemm("N", "N", &n, &n, &n, &one, x, &n, qt, &n, &zero, q, &ldq, 1,
                1);
    }
    if (times)
        times->back = gl_now() - t0;
    rc = 0;
out:
    GL_FN(tridiag_q_free)(ops, &keep);
    free(eye);
    free(qt);
    return rc;
}
