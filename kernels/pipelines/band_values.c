/* Band input (?gbbrd, ?sbtrd, ?sbev, ?sbevd): the LAPACK band storage is
 * packed on the host into the chase storage (kernels/ops.h) and reduced by
 * stage 2 alone. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/log.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../../runtime/tune.h"
#include "../householder.h"
#include "../backend/lapack_fns.h"
#include "pipelines.h"

/* Removes the kl subdiagonals of a packed band (rows up to n-1+kl) by a
 * banded QR: column j's reflector spans rows j..j+kl and reaches columns
 * up to j+kl+ku, so the result is an n x n upper band of half-width
 * kl+ku = b.  Host memory.  keep_v/keep_tau (may be NULL) receive the
 * reflectors: A = H_0 H_1 ... R. */
static void banded_qr(lapack_int rows, lapack_int n, lapack_int kl,
                      lapack_int b, gl_scalar *band, lapack_int ld,
                      gl_scalar *v /* kl + 1 */, gl_scalar *keep_v,
                      gl_scalar *keep_tau)
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
        if (keep_v) {   /* column j's reflector: kl + 1 slots, zero-padded */
            for (lapack_int k = 0; k <= kl; k++)
                keep_v[(size_t)j * (kl + 1) + k] = k < len ? v[k] : 0;
            keep_tau[j] = tau;
        }
        if (tau != 0)   /* columns j+1 .. j+b */
            gl_larf_left(len, v, tau, &P(j, j + 1), ld - 1,
                         (j + b < n - 1 ? j + b : n - 1) - j);
    }
#undef P
}

/* What gb_bidiag_q's vectors need: X = A (m >= n) or A^H (rows x cols),
 * the banded QR's reflectors (vqr, tauqr: lo subdiagonals), the chase's
 * store, the band's diagonals (de: phases at 2 cols), the host arrays
 * QX (rows x rows), PX (cols x cols) and C's copy cw (m x ncc), and buf
 * in the backend's memory. */
typedef struct gb_vectors {
    const GL_FN(ops) *ops;
    const GL_FN(reflectors) *keep;
    lapack_int m, rows, cols, lo, ncc, ldc;
    int trans, form_qx, form_px;
    const gl_scalar *vqr, *tauqr, *c;
    gl_scalar *de, *qx, *px, *cw, *buf;
} gb_vectors;

/* QX = Qqr diag(Q2 DL, I), PX = P2 DR and cw = Q^H C of X, each through
 * the backend's buf. */
static int gb_form_vectors(const gb_vectors *v)
{
    size_t rr = (size_t)v->rows * (size_t)v->rows;
    size_t cc = (size_t)v->cols * (size_t)v->cols;
    gl_scalar *left = v->de + 2 * v->cols, *right = left + v->cols;
    GL_FN(bidiagonal_phases)(v->cols, v->de, v->de + v->cols, left, right);
    if (v->form_qx) {   /* Qqr diag(Q2 DL, I) */
        memset(v->qx, 0, sizeof *v->qx * rr);
        for (lapack_int i = 0; i < v->rows; i++)
            v->qx[i + (size_t)i * v->rows] = i < v->cols ? left[i] : 1;
        v->ops->from_host(v->ops, 'N', v->rows, v->rows, v->qx, v->rows, v->buf, v->rows);
        if (GL_FN(apply_chase)(v->ops, v->keep, 'Q', 'N', v->rows, v->buf, v->rows))
            return GL_STAGE_FAULT;
        if (v->ops->to_host(v->ops, v->rows, v->rows, v->buf, v->rows, v->qx, v->rows))
            return GL_STAGE_FAULT;
        for (lapack_int j = v->lo > 0 ? v->cols - 1 : -1; j >= 0; j--) {
            lapack_int len = (j + v->lo < v->rows - 1 ? j + v->lo : v->rows - 1) - j + 1;
            gl_larf_left(len, v->vqr + (size_t)j * (v->lo + 1),
                         GL_CONJ(v->tauqr[j]), v->qx + j, v->rows, v->rows);
        }
    }
    if (v->form_px) {   /* P2 DR */
        memset(v->px, 0, sizeof *v->px * cc);
        for (lapack_int i = 0; i < v->cols; i++)
            v->px[i + (size_t)i * v->cols] = right[i];
        v->ops->from_host(v->ops, 'N', v->cols, v->cols, v->px, v->cols, v->buf, v->cols);
        if (GL_FN(apply_chase)(v->ops, v->keep, 'P', 'N', v->cols, v->buf, v->cols))
            return GL_STAGE_FAULT;
        if (v->ops->to_host(v->ops, v->cols, v->cols, v->buf, v->cols, v->px, v->cols))
            return GL_STAGE_FAULT;
    }
    if (v->ncc > 0) {   /* C := Q^H C on a copy */
        for (lapack_int j = 0; j < v->ncc; j++)
            memcpy(v->cw + (size_t)j * v->m, v->c + (size_t)j * v->ldc,
                   sizeof *v->cw * (size_t)v->m);
        for (lapack_int j = 0; !v->trans && v->lo > 0 && j < v->cols; j++) {
            lapack_int len = (j + v->lo < v->rows - 1 ? j + v->lo : v->rows - 1) - j + 1;
            gl_larf_left(len, v->vqr + (size_t)j * (v->lo + 1), v->tauqr[j], v->cw + j, v->m,
                         v->ncc);
        }
        v->ops->from_host(v->ops, 'N', v->m, v->ncc, v->cw, v->m, v->buf, v->m);
        if (GL_FN(apply_chase)(v->ops, v->keep, v->trans ? 'P' : 'Q', 'C', v->ncc, v->buf,
                               v->m))
            return GL_STAGE_FAULT;
        if (v->ops->to_host(v->ops, v->m, v->ncc, v->buf, v->m, v->cw, v->m))
            return GL_STAGE_FAULT;
        const gl_scalar *phase = v->trans ? right : left;
        for (lapack_int j = 0; j < v->ncc; j++)
            for (lapack_int i = 0; i < v->cols; i++)
                v->cw[i + (size_t)j * v->m] *= GL_CONJ(phase[i]);
    }
    return 0;
}

/* m < n: B^H is lower bidiagonal; rotations R_i on rows (i, i+1) make
 * it upper, U = R_{m-2} .. R_0 B^H; then Q = PX R_0^T .. R_{m-2}^T (px,
 * cols x cols, NULL: not formed) and Q^H C = R_{m-2} .. R_0 PX^H C (cw,
 * m x ncc). */
static void lower_to_upper(const GL_FN(lapack_fns) *f, lapack_int m,
                           lapack_int cols, lapack_int ncc, gl_real *d,
                           gl_real *e, gl_scalar *px, gl_scalar *cw)
{
    for (lapack_int i = 0; i + 1 < cols; i++) {
        gl_real cs, sn, r;
        f->lartg(&d[i], &e[i], &cs, &sn, &r);
        d[i] = r;
        e[i] = sn * d[i + 1];
        d[i + 1] = cs * d[i + 1];
        for (lapack_int k = 0; px && k < cols; k++) {
            gl_scalar *qi = px + k + (size_t)i * cols, *qj = qi + cols;
            gl_scalar x = *qi, y = *qj;
            *qi = cs * x + sn * y;
            *qj = cs * y - sn * x;
        }
        for (lapack_int j = 0; j < ncc; j++) {
            gl_scalar *ci = cw + i + (size_t)j * m;
            gl_scalar x = ci[0], y = ci[1];
            ci[0] = cs * x + sn * y;
            ci[1] = cs * y - sn * x;
        }
    }
}

/* X = A (trans 0) or A^H (1) of the m x n band ab (?gbbrd storage:
 * AB(ku_stored+1+i-j, j) = A(i,j), 1-based; kl, ku the diagonals inside
 * the matrix) into the chase's packed storage: X(i,j) at diag[i - j + j
 * ld], diag the first diagonal row. */
static void pack_ab(lapack_int m, lapack_int n, lapack_int kl, lapack_int ku,
                    lapack_int ku_stored, const gl_scalar *ab,
                    lapack_int ldab, int trans, gl_scalar *diag,
                    lapack_int ld)
{
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = j - ku > 0 ? j - ku : 0; i <= j + kl && i < m;
             i++) {
            gl_scalar x = ab[(size_t)(ku_stored + i - j) + (size_t)j * ldab];
            if (trans)
                diag[(ptrdiff_t)(j - i) + (ptrdiff_t)i * ld] = GL_CONJ(x);
            else
                diag[(ptrdiff_t)(i - j) + (ptrdiff_t)j * ld] = x;
        }
}

/* gl_s_gb_bidiag_q gl_d_gb_bidiag_q gl_c_gb_bidiag_q gl_z_gb_bidiag_q */
int GL_FN(gb_bidiag_q)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                       char vect, lapack_int m,
                       lapack_int n, lapack_int ncc, lapack_int kl,
                       lapack_int ku, const gl_scalar *ab, lapack_int ldab,
                       gl_real *d, gl_real *e, gl_scalar *q, lapack_int ldq,
                       gl_scalar *pt, lapack_int ldpt, gl_scalar *c,
                       lapack_int ldc, gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    /* LAPACK ignores diagonals that lie outside the matrix; the storage
     * keeps its rows (the diagonal is row ku of AB whatever N is). */
    const lapack_int ku_stored = ku;
    if (kl > m - 1)
        kl = m - 1 > 0 ? m - 1 : 0;
    if (ku > n - 1)
        ku = n - 1 > 0 ? n - 1 : 0;
    /* Work on X = A (m >= n) or A^H: rows x cols, lower/upper bandwidths. */
    int trans = m < n;
    lapack_int rows = trans ? n : m, cols = trans ? m : n;
    lapack_int lo = trans ? ku : kl, hi = trans ? kl : ku;
    if (cols == 0)
        return 0;
    int want_q = vect == 'Q' || vect == 'B', want_p = vect == 'P' || vect == 'B';
    int vectors = want_q || want_p || ncc > 0;
    /* X = Qqr [Q2 DL 0; 0 I] [B; 0] (P2 DR)^H: QX and PX of X; A's Q and PT
     * are them (m >= n) or come from them with the lower bidiagonal B^H
     * rotated to upper (m < n). */
    int form_qx = trans ? want_p : want_q;
    int form_px = trans ? want_q : want_p;
    lapack_int b = lo + hi < cols - 1 ? lo + hi : cols - 1;
    if (b < lo)
        b = lo;   /* the lower part needs its room during the QR */
    lapack_int ld = 3 * b + 1, up = 2 * b;
    size_t rr = (size_t)rows * rows, cc = (size_t)cols * cols;
    size_t ccopy = (size_t)m * (size_t)(ncc > 0 ? ncc : 0);
    gl_scalar *host = calloc((size_t)ld * (size_t)cols, sizeof *host);
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * (size_t)ld * (size_t)cols);
    gl_scalar *de = malloc(sizeof *de * (4 * (size_t)cols + (size_t)lo + 1));
    GL_FN(reflectors) keep = {0};
    gl_scalar *vqr = NULL, *tauqr = NULL, *qx = NULL, *px = NULL, *cw = NULL,
              *buf = NULL;
    int rc = GL_STAGE_FAULT;
    if (!host || !dev || !de)
        goto out;
    if (vectors) {
        vqr = malloc(sizeof *vqr * ((size_t)(lo + 2) * (size_t)cols));
        qx = form_qx ? gl_host_alloc(sizeof *qx * rr) : NULL;
        px = form_px ? gl_host_alloc(sizeof *px * cc) : NULL;
        cw = ncc > 0 ? gl_host_alloc(sizeof *cw * ccopy) : NULL;
        size_t bsize = rr > cc ? rr : cc;
        buf = ops->alloc(ops, sizeof *buf * (bsize > ccopy ? bsize : ccopy));
        if (!vqr || (form_qx && !qx) || (form_px && !px) ||
            (ncc > 0 && !cw) || !buf ||
            GL_FN(reflectors_alloc)(ops, &keep, cols, b, plan->group, 1))
            goto out;
        tauqr = vqr + (size_t)(lo + 1) * cols;
    }

    double t0 = gl_profile_stage(ops->ctx, "stage1");
    pack_ab(m, n, kl, ku, ku_stored, ab, ldab, trans, host + up, ld);
    if (lo > 0)
        banded_qr(rows, cols, lo, b, host, ld, de, vqr, tauqr);
    double t1 = gl_profile_stage(ops->ctx, "stage2");
    ops->from_host(ops, 'N', ld, cols, host, ld, dev, ld);
    if (vectors ? b > 1 && ops->gb_chase(ops, cols, b, 1, cols, dev, ld, &keep)
                : GL_FN(gb2bd)(ops, cols, b, plan->tile_width, dev, ld))
        goto out;
    if (GL_FN(band_to_de)(ops, 'G', cols, b, dev, ld, de, d, e))
        goto out;
    double t2 = gl_profile_stage(ops->ctx, "back");
    if (!vectors)
        goto done;

    gb_vectors v = {ops, &keep, m, rows, cols, lo, ncc, ldc, trans,
                    form_qx, form_px, vqr, tauqr, c, de, qx, px, cw, buf};
    if (gb_form_vectors(&v))
        goto out;
    if (trans)
        lower_to_upper(f, m, cols, ncc, d, e, form_px ? px : NULL, cw);

    /* Nothing fails from here on: Q, PT, C. */
    if (want_q) {
        const gl_scalar *src = trans ? px : qx;
        for (lapack_int j = 0; j < m; j++)
            memcpy(q + (size_t)j * ldq, src + (size_t)j * m,
                   sizeof *q * (size_t)m);
    }
    if (want_p) {   /* PT = (P2 DR)^H, or QX^H for m < n */
        GL_FN(conj_transpose)(n, n, trans ? qx : px, n, pt, ldpt);
    }
    for (lapack_int j = 0; j < ncc; j++)
        memcpy(c + (size_t)j * ldc, cw + (size_t)j * m,
               sizeof *c * (size_t)m);
done:
    if (times)
        *times = (gl_stage_times){.stage1 = t1 - t0, .stage2 = t2 - t1,
                                  .back = gl_now() - t2};
    rc = 0;
out:
    GL_FN(reflectors_free)(ops, &keep);
    free(host);
    ops->release(ops, dev);
    ops->release(ops, buf);
    free(de);
    free(vqr);
    gl_host_free(qx);
    gl_host_free(px);
    gl_host_free(cw);
    return rc;
}

/* gl_s_gb_bidiag gl_d_gb_bidiag gl_c_gb_bidiag gl_z_gb_bidiag */
int GL_FN(gb_bidiag)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     lapack_int m, lapack_int n, lapack_int kl, lapack_int ku,
                     const gl_scalar *ab, lapack_int ldab, gl_real *d,
                     gl_real *e, gl_stage_times *times)
{
    return GL_FN(gb_bidiag_q)(ops, plan, 'N', m, n, 0, kl, ku, ab, ldab, d, e,
                              NULL, 1, NULL, 1, NULL, 1, times);
}

/* gl_s_band_half_width gl_d_band_half_width gl_c_band_half_width gl_z_band_half_width */
lapack_int GL_FN(band_half_width)(char kind, lapack_int m, lapack_int n,
                                  lapack_int kl, lapack_int ku)
{
    if (kind == 'H')
        return kl < n - 1 ? kl : n - 1;
    /* gb_bidiag_q's: X = A or A^H, its lower bandwidth kept */
    int trans = m < n;
    lapack_int cols = trans ? m : n;
    if (kl > m - 1)
        kl = m - 1 > 0 ? m - 1 : 0;
    if (ku > n - 1)
        ku = n - 1 > 0 ? n - 1 : 0;
    lapack_int lo = trans ? ku : kl, b = kl + ku < cols - 1 ? kl + ku : cols - 1;
    return b < lo ? lo : b;
}

/* The device bytes of band_plan_make's plan (the chase's store in groups
 * of the plan's sweeps), and its largest allocation in *largest. */
static size_t band_device_bytes(const gl_call_plan *plan, char kind,
                                lapack_int m, lapack_int n, lapack_int kl,
                                lapack_int ku, char vectors, lapack_int ncc,
                                size_t *largest)
{
    const size_t es = sizeof(gl_scalar), rs = sizeof(gl_real);
    lapack_int ngroups;
    if (kind == 'H') {   /* sb_tridiag, sb_eig (kl the half-width) */
        lapack_int b = kl < n - 1 ? kl : n - 1;
        size_t nn = (size_t)n * (size_t)n;
        size_t band = (2 * (size_t)b + 1) * (size_t)n * es;
        *largest = band;
        if (vectors == 'N')
            return band;
        lapack_int group = plan->group;
        size_t store = GL_FN(reflectors_slots)(n, b, group, &ngroups) *
                       ((size_t)b + 1) * es;
        /* Z of T and the divide and conquer ('D'), or Q itself from the
         * identity ('Q', ?sbtrd), in the call's precision where it is not
         * Z of T itself */
        size_t z = vectors == 'D' ? nn * rs : 0;
        if (vectors != 'D' || GL_COMPLEX)
            z += nn * es;
        size_t dc = vectors == 'D' ? (3 * nn + 6 * (size_t)n) * rs : 0;
        size_t back = z + GL_FN(apply_chase_device_bytes)(n, b, group, n);
        *largest = nn * es > band ? nn * es : band;
        size_t most = band > dc ? band : dc;
        return store + (most > back ? most : back);
    }
    /* gb_bidiag_q: X = A or A^H, rows x cols, half-width b = kl + ku */
    int trans = m < n;
    lapack_int rows = trans ? n : m, cols = trans ? m : n;
    if (kl > m - 1)
        kl = m - 1 > 0 ? m - 1 : 0;
    if (ku > n - 1)
        ku = n - 1 > 0 ? n - 1 : 0;
    lapack_int lo = trans ? ku : kl, b = kl + ku < cols - 1 ? kl + ku : cols - 1;
    if (b < lo)
        b = lo;
    size_t band = (3 * (size_t)b + 1) * (size_t)cols * es;
    *largest = band;
    if (vectors == 'N' && ncc <= 0)
        return band;
    size_t rr = (size_t)rows * rows, cc = (size_t)cols * cols;
    size_t ccopy = (size_t)m * (size_t)(ncc > 0 ? ncc : 0);
    size_t buf = (rr > cc ? rr : cc);
    buf = (buf > ccopy ? buf : ccopy) * es;
    lapack_int group = plan->group;
    size_t store = GL_FN(reflectors_slots)(cols, b, group, &ngroups) *
                   ((size_t)b + 1) * es;
    size_t q = GL_FN(apply_chase_device_bytes)(cols, b, group, rows);
    size_t p = GL_FN(apply_chase_device_bytes)(cols, b, group, cols);
    *largest = buf > band ? buf : band;
    return band + buf + 2 * store + (q > p ? q : p);
}

/* gl_s_band_plan_make gl_d_band_plan_make gl_c_band_plan_make gl_z_band_plan_make */
int GL_FN(band_plan_make)(const gl_tuning *tuning, char kind, lapack_int m,
                          lapack_int n, lapack_int kl, lapack_int ku,
                          char vectors, lapack_int ncc, gl_call_plan *plan)
{
    if (plan->tier != GL_PLAN_IN_CORE)   /* in core only */
        return 0;
    GL_FN(band_shape)(tuning,
                      GL_FN(band_half_width)(kind, m, n, kl, ku), plan);
    size_t largest = 0;
    plan->device_bytes = gl_plan_bytes(band_device_bytes(
        plan, kind, m, n, kl, ku, vectors, ncc, &largest));
    plan->largest = gl_plan_bytes(largest);
    return 1;
}

/* gl_s_sb_tridiag gl_d_sb_tridiag gl_c_sb_tridiag gl_z_sb_tridiag */
int GL_FN(sb_tridiag)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                      char uplo, lapack_int n, lapack_int kd,
                      const gl_scalar *ab, lapack_int ldab, gl_real sigma,
                      gl_real *d, gl_real *e, GL_FN(tridiag_q) *keep,
                      gl_stage_times *times)
{
    if (n == 0)
        return 0;
    lapack_int b = kd < n - 1 ? kd : n - 1;
    lapack_int ld = 2 * b + 1;
    gl_scalar *host = calloc((size_t)ld * (size_t)n, sizeof *host);
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * (size_t)ld * (size_t)n);
    gl_scalar *de = malloc(sizeof *de * 2 * (size_t)n);
    int rc = GL_STAGE_FAULT;
    if (keep) {
        *keep = (GL_FN(tridiag_q)){.n = n, .b = b, .group = plan->group};
        if (GL_FN(tridiag_q_keep_chase)(ops, keep))
            goto out;
    }
    if (!host || !dev || !de)
        goto out;

    double t0 = gl_profile_stage(ops->ctx, "stage2");
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
    ops->from_host(ops, 'N', ld, n, host, ld, dev, ld);
    if (b > 1 && ops->sb_chase(ops, n, b, n, dev, ld, keep ? &keep->chase : NULL))
        goto out;
    if (GL_FN(band_to_de)(ops, 'H', n, b, dev, ld, de, d, e))
        goto out;
    if (keep)
        GL_FN(tridiagonal_phases)(n, de + n, keep->phase);
    double t1 = gl_profile_stage(ops->ctx, "stage3");
    if (times)
        *times = (gl_stage_times){.stage2 = t1 - t0};
    rc = 0;
out:
    if (keep && rc != 0)
        GL_FN(tridiag_q_free)(ops, keep);
    free(host);
    ops->release(ops, dev);
    free(de);
    return rc;
}

/* gl_s_sb_eig gl_d_sb_eig gl_c_sb_eig gl_z_sb_eig */
int GL_FN(sb_eig)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                  char uplo, int divide_conquer, lapack_int n, lapack_int kd,
                  const gl_scalar *ab, lapack_int ldab, gl_real *w,
                  gl_scalar *z, lapack_int ldz, gl_stage_times *times)
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
    gl_real sigma = GL_FN(eig_sigma)(anrm, f->lamch("S", 1), f->lamch("P", 1),
                                     0);

    int vectors = z != NULL;
    /* ?stedc's vectors stay on a device for the back-transformation */
    int on_device = vectors && divide_conquer && ops->real_fill;
    size_t nn = (size_t)n * (size_t)n;
    /* e, then with vectors: Z of T, a copy of d, tridiagonal_vectors' work
     * (on a device: a copy of d and of e) */
    size_t elen = (size_t)n + (on_device ? 2 * (size_t)n
                               : vectors ? nn + (size_t)n +
                                               gl_tridiagonal_work(n)
                                         : 0);
    gl_real *e = gl_host_alloc(sizeof *e * elen);
    lapack_int *iwork =
        vectors ? malloc(sizeof *iwork * gl_tridiagonal_iwork(n)) : NULL;
    GL_FN(tridiag_q) q = {0};
    int rc = GL_STAGE_FAULT;
    if (!e || (vectors && !iwork))
        goto out;
    if (GL_FN(sb_tridiag)(ops, plan, uplo, n, kd, ab, ldab, sigma, w, e,
                          vectors ? &q : NULL, times))
        goto out;
    double t0 = gl_profile_stage(ops->ctx, "stage3"), t1;
    lapack_int info = 0;
    if (on_device) {
        gl_real *d = e + n;
        for (lapack_int i = 0; i < n; i++)
            d[i] = w[i];
        lapack_int found;
        info = GL_FN(dc_vectors_on_device)(ops, &q, d, e, w, NULL, 1, d + n,
                                           z, ldz, 0, NULL, 1, &found, &t1);
        if (info < 0)
            goto out;
    } else if (vectors) {
        /* ?sbev: ?steqr, ?sbevd: ?stedc, on T; then Z = Q Z_T */
        gl_eig_job job = {.driver = divide_conquer ? GL_EIG_SYEVD
                                                   : GL_EIG_SYEV,
                          .uplo = uplo, .range = 'A'};
        gl_real *zt = e + n, *d = zt + nn;
        lapack_int m = 0;
        for (lapack_int i = 0; i < n; i++)
            d[i] = w[i];
        info = GL_FN(tridiagonal_vectors)(ops, &job, n, d, e, sigma, &m, w,
                                          zt, NULL, NULL, d + n, iwork);
        if (info < 0)
            goto out;
        t1 = gl_profile_stage(ops->ctx, "back");
        if (GL_FN(tridiag_q_apply)(ops, &q, n, zt, n, z, ldz))
            goto out;
    } else {
        /* on a device, all n values at once by bisection (a failed
         * device restarts the call on LAPACK, as everywhere) */
        if (!ops->tridiag_values)
            f->sterf(&n, w, e, &info);
        else if (ops->tridiag_values(ops, n, w, e, w) != 0)
            goto out;
        t1 = gl_profile_stage(ops->ctx, "out");
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
    gl_host_free(e);
    free(iwork);
    return rc;
}

/* gl_s_sb_tridiag_q gl_d_sb_tridiag_q gl_c_sb_tridiag_q gl_z_sb_tridiag_q */
int GL_FN(sb_tridiag_q)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                        char vect, char uplo, lapack_int n, lapack_int kd,
                        const gl_scalar *ab, lapack_int ldab, gl_real *d,
                        gl_real *e, gl_scalar *q, lapack_int ldq,
                        gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    size_t nn = (size_t)n * (size_t)n;
    gl_scalar *qt = gl_host_alloc(sizeof *qt * (vect == 'U' ? 2 * nn + 1 : 1));
    GL_FN(tridiag_q) keep = {0};
    int rc = GL_STAGE_FAULT;
    if (!qt ||
        GL_FN(sb_tridiag)(ops, plan, uplo, n, kd, ab, ldab, 1, d, e, &keep,
                          times))
        goto out;
    double t0 = gl_profile_stage(ops->ctx, "back");
    /* Q of the reduction (A = Q T Q^H) into q ('V'), or X Q ('U', X the q
     * given) */
    gl_scalar *dst = vect == 'U' ? qt : q;
    if (GL_FN(tridiag_q_apply)(ops, &keep, n, NULL, n, dst,
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
    gl_host_free(qt);
    return rc;
}
