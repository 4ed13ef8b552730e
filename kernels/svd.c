/* The singular value decomposition by the two-stage reduction: dense ->
 * band (ge2gb), band -> bidiagonal (bulge chasing), bidiagonal -> values
 * and vectors (the system ?bdsqr or ?bdsdc), then the vectors of the
 * bidiagonal back through the two stages.  The scaling and the tall-matrix
 * QR follow ?gesvd/?gesdd. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/precision.h"
#include "../runtime/log.h"
#include "../runtime/memory.h"
#include "../runtime/profile.h"
#include "../runtime/tune.h"
#include "householder.h"
#include "lapack_fns.h"
#include "stages.h"

#define AT(p, ld, i, j) ((p) + (size_t)(i) + (size_t)(j) * (size_t)(ld))

/* Blocked QR of A (m x n) with the T of each panel of nb columns kept at
 * column k of t (ld nb): A = Q R, R in the upper triangle. */
static int qr_panels(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     lapack_int nb, gl_scalar *a, lapack_int lda, gl_scalar *t)
{
    for (lapack_int k = 0; k < n; k += nb) {
        lapack_int pk = n - k < nb ? n - k : nb;
        gl_scalar *tk = t + (size_t)k * nb;
        if (ops->geqrt(m - k, pk, AT(a, lda, k, k), lda, tk, nb) ||
            ops->larfb('L', 'C', 'C', m - k, n - k - pk, pk, AT(a, lda, k, k),
                       lda, tk, nb, AT(a, lda, k, k + pk), lda))
            return GL_STAGE_FAULT;
    }
    return 0;
}

/* Free reals to take arrays from: n scalars at a time, each at a cache
 * line, NULL when they do not fit. */
typedef struct spare_region {
    gl_real *next;
    size_t left;
} spare_region;

static gl_scalar *from_spare(spare_region *s, size_t n)
{
    enum { LINE_REALS = GL_LINE_BYTES / sizeof(gl_real) };
    uintptr_t skip = (uintptr_t)s->next / sizeof(gl_real) % LINE_REALS;
    skip = skip ? LINE_REALS - skip : 0;
    size_t reals = n * (sizeof(gl_scalar) / sizeof(gl_real));
    if (s->left < skip || s->left - skip < reals)
        return NULL;
    gl_scalar *p = (gl_scalar *)(s->next + skip);
    s->next += skip + reals;
    s->left -= skip + reals;
    return p;
}

/* How an output reaches the caller's array: a direct read (a failure
 * may leave it written in part), a complete read (to_host), or direct
 * reads in column blocks over a kept copy of what they overwrite, which
 * the caller puts back if one fails (gl_kept_read_cols). */
enum { READ_DIRECT, READ_WHOLE, READ_BLOCKS };

static int read_out(const GL_FN(ops) *ops, int how, lapack_int rows,
                    lapack_int cols, const gl_scalar *src, lapack_int lds,
                    gl_scalar *dst, lapack_int ldd)
{
    if (how == READ_WHOLE)
        return ops->to_host(rows, cols, src, lds, dst, ldd);
    lapack_int nb = how == READ_BLOCKS
                        ? gl_kept_read_cols(sizeof *dst, rows, cols)
                        : cols;
    lapack_int j0 = 0;
    int rc;
    do {   /* an empty read still reports the device's failures */
        lapack_int nc = cols - j0 < nb ? cols - j0 : nb;
        rc = ops->to_host_scratch(rows, nc, src + (size_t)j0 * lds, lds,
                                  dst + (size_t)j0 * ldd, ldd);
        j0 += nb;
    } while (rc == 0 && j0 < cols);
    return rc;
}

/* dst (host, cols x rows) = src^H for src (rows x cols) in the backend's
 * memory: transposed there, then read (read_out). */
static int read_transposed(const GL_FN(ops) *ops, int how, lapack_int rows,
                           lapack_int cols, const gl_scalar *src,
                           lapack_int lds, gl_scalar *dst, lapack_int ldd)
{
    gl_scalar *t = ops->alloc(sizeof *t * (size_t)rows * (size_t)cols);
    int rc = !t || ops->conj_transpose(rows, cols, src, lds, t, cols) ||
             read_out(ops, how, cols, rows, t, cols, dst, ldd);
    ops->release(t);
    return rc ? -1 : 0;
}

/* dst = src^H for vectors src (rows x cols, ld rows) of the backend: on a
 * device transposed there and read (how: read_out), else through the
 * host image host (read into it first) or, on the host backend, from src
 * in place. */
static int read_adjoint(const GL_FN(ops) *ops, int how, gl_scalar *host,
                        lapack_int rows, lapack_int cols,
                        const gl_scalar *src, gl_scalar *dst, lapack_int ldd)
{
    if (!ops->host_memory && !host)
        return read_transposed(ops, how, rows, cols, src, rows, dst, ldd);
    if (host && ops->to_host(rows, cols, src, rows, host, rows))
        return -1;
    GL_FN(conj_transpose)(rows, cols, host ? host : src, rows, dst, ldd);
    return 0;
}

/* gl_s_svd gl_d_svd gl_c_svd gl_z_svd */
int GL_FN(svd)(const GL_FN(ops) *ops, const gl_svd_job *job, lapack_int m,
               lapack_int n, const gl_scalar *a, lapack_int lda, gl_real *s,
               gl_scalar *u, lapack_int ldu, gl_scalar *vt, lapack_int ldvt,
               gl_real *e, gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    /* Work on X = A (m >= n) or A^H (m < n): same singular values, and
     * the left vectors of one are the right vectors of the other. */
    int trans = m < n;
    lapack_int rows = trans ? n : m, cols = trans ? m : n;
    if (cols == 0)
        return 0;
    char jobl = trans ? job->jobvt : job->jobu;   /* left vectors of X */
    char jobr = trans ? job->jobu : job->jobvt;   /* right vectors of X */
    int want_l = jobl != 'N', want_r = jobr != 'N';
    int vectors = want_l || want_r;

    /* max |a_ij| (?lange 'M'); Inf/NaN stays with LAPACK. */
    gl_real anrm = GL_FN(max_abs)('A', m, n, a, lda, 0);
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

    lapack_int b = gl_tune_band('G', GL_COMPLEX, cols, vectors,
                                !ops->host_memory);
    lapack_int bw = b < cols - 1 ? b : cols - 1;   /* half-width of the band */
    lapack_int nb = bw > 0 ? bw : 1;               /* stage-1 panel width */
    lapack_int ldband = 3 * bw + 1;
    /* Much taller than wide: QR first, then the band of R (the crossover
     * of ?gesvd's MNTHR = 1.6 min(m,n)). */
    int tall = rows >= cols + cols / 2 + cols / 10 && cols > 1;
    lapack_int r1 = tall ? cols : rows;   /* rows of the matrix ge2gb sees */
    lapack_int ucols = jobl == 'A' ? rows : cols;
    size_t nbc = (size_t)nb * (size_t)cols, cc = (size_t)cols * cols;

    /* stage 3 by divide and conquer leaves U_B and VT_B on a device for
     * the back-transformation (?bdsqr's Givens rotations stay on the
     * host) */
    int on_device = vectors && ops->real_fill && job->stage3 != GL_SVD_BDSQR;
    GL_FN(reflectors) keep = {0};
    gl_scalar *w = ops->alloc(sizeof *w * (size_t)rows * (size_t)cols);
    gl_scalar *band = ops->alloc(sizeof *band * (size_t)ldband * (size_t)cols);
    gl_scalar *de = malloc(sizeof *de * 4 * (size_t)cols);
    /* d, e, stage-3 work (?bdsdc: 3n^2 + 4n) and U_B, VT_B of the bidiagonal */
    gl_real *d = gl_host_alloc(sizeof *d * (6 * (size_t)cols +
                                            (vectors && !on_device ? 5 * cc
                                                                   : 0)));
    lapack_int *iwork = malloc(sizeof *iwork * 8 * (size_t)cols);
    /* vectors: the T factors of stage 1, R of the tall QR, then (after
     * stage 3) the vectors in the backend and, for a backend with its own
     * memory, their host images (the host backend's lu and lv are host
     * memory: filled and read in place).  *_own: what was allocated for
     * them, not taken from stage 3's spent work. */
    gl_scalar *tq = NULL, *tp = NULL, *tqr = NULL, *r = w, *lu = NULL,
              *lv = NULL, *host = NULL, *lu_own = NULL, *lv_own = NULL,
              *host_own = NULL, *lt = NULL, *kept = NULL;
    gl_real *ubd = NULL, *vbd = NULL;   /* U_B, VT_B on the device */
    int rc = GL_STAGE_FAULT;
    if (!w || !band || !de || !d || !iwork)
        goto out;
    if (vectors) {
        tq = ops->alloc(sizeof *tq * 2 * nbc);
        tqr = tall ? ops->alloc(sizeof *tqr * nbc) : NULL;
        r = tall ? ops->alloc(sizeof *r * cc) : w;
        if (!tq || (tall && (!tqr || !r)))
            goto out;
        tp = tq + nbc;
    }

    ops->from_host(trans ? 'C' : 'N', m, n, a, lda, w, rows);
    if (scaled_to != 0 && ops->lascl(anrm, scaled_to, rows, cols, w, rows))
        goto out;
    double t0 = gl_profile_stage("stage1");
    if (tall && !vectors) {
        if (ops->geqrf(rows, cols, w, rows))
            goto out;
        ops->zero_lower(cols, cols, w, rows);
    } else if (tall) {
        /* keep the QR's reflectors in w and reduce a copy of R */
        if (qr_panels(ops, rows, cols, nb, w, rows, tqr))
            goto out;
        ops->copy(cols, cols, w, rows, r, cols);
        ops->zero_lower(cols, cols, r, cols);
    }
    lapack_int ldr = tall && vectors ? cols : rows;
    if (GL_FN(ge2gb)(ops, r1, cols, nb,
                     gl_tune_stage1_block(cols, nb, !ops->host_memory), r,
                     ldr, tq, tp))
        goto out;
    double t1 = gl_profile_stage("stage2");
    ops->pack_band('G', cols, bw, r, ldr, band, ldband);
    if (vectors) {
        /* one pass straight to bidiagonal: every further pass would add
         * a back-transformation as costly as this one */
        if (GL_FN(reflectors_alloc)(ops, &keep, cols, bw,
                                    gl_tune_group(bw, !ops->host_memory), 1) ||
            (bw > 1 && ops->gb_chase(cols, bw, 1, band, ldband, &keep)))
            goto out;
    } else if (GL_FN(gb2bd)(ops, cols, bw, gl_tune_tile_width(bw), band,
                            ldband)) {
        goto out;
    }
    double t2 = gl_profile_stage("stage3");

    size_t vcc = vectors && !on_device ? cc : 0;
    gl_real *ee = d + cols, *ub = ee + cols, *vb = ub + vcc,
            *work = vb + vcc;
    if (GL_FN(band_to_de)(ops, 'G', cols, bw, band, ldband, de, d, ee))
        goto out;
    gl_scalar *left = de + 2 * cols, *right = left + cols;
    if (vectors)
        GL_FN(bidiagonal_phases)(cols, de, de + cols, left, right);
    lapack_int info = 0, zero = 0, one = 1;
    /* values on a device: all n at once by bisection (a failed device
     * restarts the call on LAPACK, as everywhere) */
    int done = !vectors && ops->bidiag_values;
    if (done && ops->bidiag_values(cols, d, ee, d) != 0)
        goto out;
    if (on_device) {
        ubd = ops->alloc(sizeof *ubd * cc);
        vbd = ops->alloc(sizeof *vbd * cc);
        if (!ubd || !vbd ||
            GL_FN(bidiag_svd_device)(ops, cols, d, ee, ubd, cols, vbd, cols,
                                     &info) ||
            (info != 0 && job->stage3 == GL_SVD_BDSDC_RESTART))
            goto out;
    } else if (!done && vectors && job->stage3 != GL_SVD_BDSQR) {
        if (GL_FN(bidiag_svd)(ops, cols, d, ee, ub, cols, vb, cols, work,
                              iwork, &info))
            goto out;
        if (info != 0 && job->stage3 == GL_SVD_BDSDC_RESTART)
            goto out;
    } else if (!done) {
        /* ?bdsqr updates U_B and VT_B from the identity: the Givens
         * rotations touch n x n, the back-transformation is BLAS3 */
        lapack_int nru = want_l ? cols : 0, ncvt = want_r ? cols : 0;
        for (size_t i = 0; vectors && i < 2 * cc; i++)
            ub[i] = 0;
        for (lapack_int i = 0; vectors && i < cols; i++)
            ub[i + (size_t)i * cols] = vb[i + (size_t)i * cols] = 1;
        f->bdsqr("U", &cols, &ncvt, &nru, &zero, d, ee, vb, &cols, ub, &cols,
                 NULL, &one, work, &info, 1);
    }
    double t3 = gl_profile_stage("back");

    /* The host images of the vectors go into stage 3's spent work (3 n^2
     * reals) where they fit: n^2 scalars each fewer to allocate and to
     * take page faults on (the first touch of fresh memory costs up to
     * 2.5 s per GiB on a virtual machine, docs/performance.md). */
    spare_region spare = {work, vcc ? 3 * cc + 4 * (size_t)cols : 0};
    size_t lsize = (size_t)rows * ucols, hsize = lsize > cc ? lsize : cc;
    /* from the device, a host image only for transposes the device
     * cannot do */
    int need_host = !on_device || (!ops->conj_transpose &&
                                   ((want_l && trans) || (want_r && !trans)));
    if (ops->host_memory) {
        lu = want_l ? from_spare(&spare, lsize) : NULL;
        lv = want_r ? from_spare(&spare, cc) : NULL;
    } else if (vectors && need_host) {
        host = from_spare(&spare, hsize);
        if (!host)
            host = host_own = gl_host_alloc(sizeof *host * hsize);
    }
    if (want_l && !lu)
        lu = lu_own = ops->alloc(sizeof *lu * lsize);
    if (want_r && !lv)
        lv = lv_own = ops->alloc(sizeof *lv * cc);
    if ((want_l && !lu) || (want_r && !lv) ||
        (vectors && !ops->host_memory && need_host && !host))
        goto out;
    /* where the host fills and reads the left and right vectors */
    gl_scalar *lhost = host ? host : lu, *rhost = host ? host : lv;
    /* The output that overwrites A (JOBZ, JOBU or JOBVT 'O') is read
     * last (below).  Otherwise a device's left vectors are read beside
     * the right ones' back-transformation (ops->mark): both stay on the
     * device, and the read needs nothing the right side computes. */
    int left_last = (const void *)(trans ? vt : u) == (const void *)a;
    int beside = want_l && want_r && !ops->host_memory && !host && !left_last;

    if (want_l) {
        /* X's left vectors: Q_qr Q1 Q2 diag(left) [U_B 0; 0 I] */
        if (on_device) {
            if (ops->phase_rows(cols, cols, 0, left, ubd, cols, rows, ucols,
                                lu, rows))
                goto out;
        } else {
            memset(lhost, 0, sizeof *lhost * (size_t)rows * ucols);
            GL_FN(scale_rows)(cols, cols, left, ub, cols, 0, lhost, rows);
            for (lapack_int i = cols; i < ucols; i++)
                lhost[i + (size_t)i * rows] = 1;
            if (host)
                ops->from_host('N', rows, ucols, host, rows, lu, rows);
        }
        if (GL_FN(apply_chase)(ops, &keep, 'Q', 'N', ucols, lu, rows) ||
            GL_FN(apply_panels)(ops, 'C', 'N', r1, cols, nb, r, ldr, tq,
                                ucols, lu, rows) ||
            (tall && GL_FN(apply_panels)(ops, 'C', 'N', rows, cols, nb, w,
                                         rows, tqr, ucols, lu, rows)))
            goto out;
        if (beside && trans) {   /* VT of A, transposed on the device */
            lt = ops->alloc(sizeof *lt * (size_t)rows * (size_t)ucols);
            if (!lt || ops->conj_transpose(rows, ucols, lu, rows, lt, ucols))
                goto out;
        }
        if (beside)
            ops->mark();
    }
    if (want_r) {
        /* X's right vectors: P1 P2 diag(right) VT_B^T */
        if (on_device) {
            if (ops->phase_rows(cols, cols, 1, right, vbd, cols, cols, cols,
                                lv, cols))
                goto out;
        } else {
            GL_FN(scale_rows)(cols, cols, right, vb, cols, 1, rhost, cols);
            if (host)
                ops->from_host('N', cols, cols, host, cols, lv, cols);
        }
        if (GL_FN(apply_chase)(ops, &keep, 'P', 'N', cols, lv, cols) ||
            (cols > nb &&
             GL_FN(apply_panels)(ops, 'R', 'N', cols - nb, cols - nb, nb,
                                 AT(r, ldr, 0, nb), ldr, tp, cols, lv + nb,
                                 cols)))
            goto out;
    }
    double t4 = gl_profile_stage("out");
    if (beside && (trans ? ops->to_host_scratch_marked(ucols, rows, lt, ucols,
                                                       vt, ldvt)
                         : ops->to_host_scratch_marked(rows, ucols, lu, rows,
                                                       u, ldu)))
        goto out;

    /* The caller's arrays.  A failed read may leave U or VT half written:
     * the restart on LAPACK writes them again from A, which is intact, so
     * they are read without a host bounce array.  An output that
     * overwrites A is read last, so that whatever fails before it leaves
     * A as the caller gave it; on a device, the part of A it overwrites
     * (over: orows x ocols) is kept first, while the device still runs
     * the back-transformation the host has issued, the read goes
     * straight into A in column blocks, and a failed block puts the part
     * back.  Without that copy (no memory), it is written only from a
     * complete read (to_host). */
    gl_scalar *over = NULL;
    lapack_int orows = 0, ocols = 0;
    if (want_l && left_last) {
        over = trans ? vt : u;
        orows = trans ? ucols : rows;
        ocols = trans ? rows : ucols;
    } else if (want_r && (const void *)(trans ? u : vt) == (const void *)a) {
        over = trans ? u : vt;
        orows = ocols = cols;
    }
    lapack_int ldo = over == u ? ldu : ldvt;
    if (over && !ops->host_memory && !host &&
        (kept = gl_host_alloc(sizeof *kept * (size_t)orows * (size_t)ocols)))
        for (lapack_int j = 0; j < ocols; j++)
            memcpy(kept + (size_t)j * orows, over + (size_t)j * ldo,
                   sizeof *kept * (size_t)orows);
    int over_a = kept ? READ_BLOCKS : READ_WHOLE;
    int how_u = (const void *)u == (const void *)a ? over_a : READ_DIRECT,
        how_vt = (const void *)vt == (const void *)a ? over_a : READ_DIRECT;
    int failed = 0;
    for (int pass = 0; pass < 2 && !failed; pass++) {
        int left = (pass == 0) != left_last;
        if (left && beside)
            continue;   /* read above */
        if (left && want_l && !trans) {
            failed = read_out(ops, how_u, rows, ucols, lu, rows, u, ldu);
        } else if (left && want_l) {   /* VT of A = (left vectors of A^H)^H */
            failed = read_adjoint(ops, how_vt, host, rows, ucols, lu, vt,
                                  ldvt);
        } else if (!left && want_r && !trans) {
            failed = read_adjoint(ops, how_vt, host, cols, cols, lv, vt, ldvt);
        } else if (!left && want_r) {   /* U of A = right vectors of A^H */
            failed = read_out(ops, how_u, cols, cols, lv, cols, u, ldu);
        }
    }
    if (failed) {
        for (lapack_int j = 0; kept && j < ocols; j++)
            memcpy(over + (size_t)j * ldo, kept + (size_t)j * orows,
                   sizeof *kept * (size_t)orows);
        goto out;
    }
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
        *times = (gl_stage_times){t1 - t0, t2 - t1, t3 - t2, t4 - t3};
    rc = (int)info;
out:
    GL_FN(reflectors_free)(ops, &keep);
    if (r != w)
        ops->release(r);
    ops->release(w);
    ops->release(band);
    ops->release(tq);
    ops->release(tqr);
    ops->release(lu_own);
    ops->release(lv_own);
    ops->release(lt);
    gl_host_free(kept);
    ops->release(ubd);
    ops->release(vbd);
    gl_host_free(host_own);
    free(de);
    gl_host_free(d);
    free(iwork);
    return rc;
}
