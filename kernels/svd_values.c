/* Singular values by the two-stage reduction: dense -> band (ge2gb),
 * band -> bidiagonal (gb2bd), bidiagonal -> values (the system ?bdsqr,
 * i.e. dqds).  The scaling and the tall-matrix QR follow ?gesvd/?gesdd. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "../lapack_api/precision.h"
#include "../runtime/log.h"
#include "../runtime/tune.h"
#include "householder.h"
#include "lapack_fns.h"
#include "stages.h"

int GL_FN(svd_values)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                      const gl_scalar *a, lapack_int lda, gl_real *s,
                      gl_real *e, gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    /* Work on A (m >= n) or A^H (m < n): same singular values. */
    lapack_int rows = m >= n ? m : n, cols = m >= n ? n : m;
    if (cols == 0)
        return 0;

    /* max |a_ij| (?lange 'M'); Inf/NaN stays with LAPACK. */
    gl_real anrm = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < m; i++) {
            gl_real v = GL_ABS(a[i + (size_t)j * lda]);
            if (!(v <= anrm) && !isnan(anrm))
                anrm = v;   /* a NaN, once seen, stays */
        }
    if (!isfinite(anrm))
        return GL_STAGE_NONFINITE;
    const gl_real eps = f->lamch("P", 1);
    const gl_real smlnum = GL_R(sqrt)(f->lamch("S", 1)) / eps;
    const gl_real bignum = 1 / smlnum;
    gl_real scaled_to = 0;
    if (anrm > 0 && anrm < smlnum)
        scaled_to = smlnum;
    else if (anrm > bignum)
        scaled_to = bignum;

    lapack_int b = gl_tune_band('G', GL_COMPLEX, cols);
    lapack_int bw = b < cols - 1 ? b : cols - 1;   /* half-width of the band */
    lapack_int ldband = 3 * bw + 1;
    gl_scalar *w = ops->alloc(sizeof *w * (size_t)rows * (size_t)cols);
    gl_scalar *band = ops->alloc(sizeof *band * (size_t)ldband * (size_t)cols);
    gl_scalar *de = malloc(sizeof *de * 2 * (size_t)cols);
    gl_real *d = malloc(sizeof *d * (6 * (size_t)cols));
    int rc = GL_STAGE_FAULT;
    if (!w || !band || !de || !d)
        goto out;

    ops->from_host(m >= n ? 'N' : 'C', m, n, a, lda, w, rows);
    if (scaled_to != 0 && ops->lascl(anrm, scaled_to, rows, cols, w, rows))
        goto out;
    double t0 = gl_now();
    lapack_int r1 = rows;
    /* Much taller than wide: QR first, then the band of R (the crossover
     * of ?gesvd's MNTHR = 1.6 min(m,n)). */
    if (rows >= cols + cols / 2 + cols / 10 && cols > 1) {
        if (ops->geqrf(rows, cols, w, rows))
            goto out;
        ops->zero_lower(cols, cols, w, rows);
        r1 = cols;
    }
    if (GL_FN(ge2gb)(ops, r1, cols, bw > 0 ? bw : 1, w, rows))
        goto out;
    double t1 = gl_now();
    ops->pack_band('G', cols, bw, w, rows, band, ldband);
    if (GL_FN(gb2bd)(ops, cols, bw, gl_tune_tile_width(bw), band, ldband))
        goto out;
    double t2 = gl_now();

    gl_real *ee = d + cols, *work = ee + cols;
    GL_FN(band_to_de)(ops, 'G', cols, bw, band, ldband, de, d, ee);
    lapack_int info = 0, zero = 0, one = 1;
    f->bdsqr("U", &cols, &zero, &zero, &zero, d, ee, NULL, &one, NULL, &one,
             NULL, &one, work, &info, 1);
    double t3 = gl_now();

    /* Unscale (also the unconverged superdiagonal on failure). */
    if (scaled_to != 0) {
        lapack_int ierr, ld = cols;
        f->rlascl("G", &zero, &zero, &scaled_to, &anrm, &cols, &one, d, &ld,
                  &ierr, 1);
        if (info != 0 && cols > 1) {
            lapack_int ne = cols - 1;
            f->rlascl("G", &zero, &zero, &scaled_to, &anrm, &ne, &one, ee,
                      &ld, &ierr, 1);
        }
    }
    for (lapack_int i = 0; i < cols; i++)
        s[i] = d[i];
    if (info != 0 && e)
        for (lapack_int i = 0; i + 1 < cols; i++)
            e[i] = ee[i];
    if (times)
        *times = (gl_stage_times){t1 - t0, t2 - t1, t3 - t2};
    rc = (int)info;
out:
    ops->release(w);
    ops->release(band);
    free(de);
    free(d);
    return rc;
}
