/* The Hermitian eigenproblem's one-stage reduction on a device
 * (GL_METHOD_ONE_STAGE, docs/design/methods.md): A -> tridiagonal by
 * LAPACK's blocked Householder reduction, the method of the device
 * ?sytrd (kernels/pipelines/sytrd.c, docs/design/sytrd-device.md) with its
 * matrix, V, W and reflectors kept in device memory, and Q kept there for the
 * back-transformation in ?ormtr's blocked form: the reflectors below the
 * subdiagonal in panels of GL_ONE_STAGE_BLOCK columns with each panel's
 * compact-WY T factor.  Stage 3 and the back-transformation are those of
 * the two-stage pipeline (kernels/pipelines/eig.c), which reads this Q as a
 * tridiag_q with b = 0.
 *
 * The reduction differs from ?sytrd's in what it leaves, not in its
 * steps: for 'U' it reduces the lower triangle of A^H (= A: uploaded
 * conjugate-transposed, as the two-stage reduction does) instead of J A J,
 * so Q is that of A itself; the products V(c+1:, 0:c)^H v that the column
 * step computes anyway are kept (the S of ?larft's recurrence), so the T
 * factors cost no extra launch; and the host reads only the diagonal, the
 * subdiagonal, tau and S, once, instead of the whole matrix. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../../runtime/log.h"
#include "pipelines.h"

enum { NB = GL_ONE_STAGE_BLOCK };


/* gl_s_one_stage_alloc gl_d_one_stage_alloc gl_c_one_stage_alloc gl_z_one_stage_alloc */
int GL_FN(one_stage_alloc)(const GL_FN(ops) *ops, GL_FN(one_stage) *r,
                           lapack_int n)
{
    size_t panel = (size_t)n * NB;
    size_t outlen = 3 * (size_t)n + (size_t)NB * (size_t)n;
    r->n = n;
    r->x = ops->alloc(ops, sizeof *r->x * (size_t)n * (size_t)n);
    r->work = ops->alloc(ops, sizeof *r->work *
                                  (2 * panel + (size_t)n + NB + 2 + outlen));
    if (!r->x || !r->work)
        return GL_STAGE_FAULT;
    r->vd = r->work, r->wd = r->vd + panel, r->y = r->wd + panel;
    r->tmp = r->y + n, r->dot = r->tmp + NB, r->coef = r->dot + 1;
    r->out = r->coef + 1;
    r->diag = r->out, r->sub = r->diag + n, r->td = r->sub + n;
    r->s = r->td + n;
    return 0;
}

/* Column i = j0 + c of the panel from j0 (m = n - j0 rows): brought up to
 * date with the panel's earlier reflectors, its reflector made (tau into
 * td[i]), w = tau (A22 - V W^H - W V^H) v - tau/2 (w^H v) v, and S's
 * column i = V(c+1:, 0:c)^H v. */
static int column_step(const GL_FN(ops) *ops, const GL_FN(one_stage) *r,
                       lapack_int j0, lapack_int c)
{
    lapack_int n = r->n, i = j0 + c, len = n - i, lv = len - 1;
    gl_scalar *x = r->x, *vd = r->vd, *wd = r->wd, *y = r->y;
    gl_scalar *col = x + i + (size_t)i * n;   /* X(i:n, i) */
    gl_scalar *scol = r->s + (size_t)i * NB;
    if (c > 0) {
        ops->gemm(ops, 'N', 'C', len, 1, c, -1, vd + c, n, wd + c, n, 1, col, n);
        ops->gemm(ops, 'N', 'C', len, 1, c, -1, wd + c, n, vd + c, n, 1, col, n);
    }
    gl_scalar *ti = r->td + i;
    if (ops->geqrt(ops, lv, 1, col + 1, n, ti, 1))
        return GL_STAGE_FAULT;
    gl_scalar *v = vd + (c + 1) + (size_t)c * n,
              *w = wd + (c + 1) + (size_t)c * n;
    ops->unpack_v(ops, 'C', lv, 1, col + 1, n, v, n);
    ops->hemv(ops, 'L', lv, 1, x + (i + 1) + (size_t)(i + 1) * n, n, v, 0, y);
    if (c > 0) {
        ops->gemm(ops, 'C', 'N', c, 1, lv, 1, wd + c + 1, n, v, n, 0, r->tmp,
                  NB);
        ops->gemm(ops, 'N', 'N', lv, 1, c, -1, vd + c + 1, n, r->tmp, NB, 1, y,
                  n);
        /* V^H v: the correction's product and ?larft's S at once */
        ops->gemm(ops, 'C', 'N', c, 1, lv, 1, vd + c + 1, n, v, n, 0, scol, NB);
        ops->gemm(ops, 'N', 'N', lv, 1, c, -1, wd + c + 1, n, scol, NB, 1, y,
                  n);
    }
    ops->gemm(ops, 'N', 'N', lv, 1, 1, 1, y, n, ti, 1, 0, w, n);
    ops->gemm(ops, 'C', 'N', 1, 1, lv, 1, w, n, v, n, 0, r->dot, 1);
    ops->gemm(ops, 'N', 'N', 1, 1, 1, -0.5, ti, 1, r->dot, 1, 0, r->coef, 1);
    ops->gemm(ops, 'N', 'N', lv, 1, 1, 1, v, n, r->coef, 1, 1, w, n);
    return 0;
}

/* gl_s_one_stage_reduce gl_d_one_stage_reduce gl_c_one_stage_reduce gl_z_one_stage_reduce */
int GL_FN(one_stage_reduce)(const GL_FN(ops) *ops, const GL_FN(one_stage) *r)
{
    lapack_int n = r->n;
    for (lapack_int j0 = 0; j0 < n - 1; j0 += NB) {
        lapack_int kb = n - 1 - j0 < NB ? n - 1 - j0 : NB, m = n - j0;
        for (lapack_int c = 0; c < kb; c++)
            if (column_step(ops, r, j0, c))
                return GL_STAGE_FAULT;
        ops->her2k(ops, 'L', 'N', m - kb, kb, -1, r->vd + kb, n, r->wd + kb,
                   n, 1, r->x + (j0 + kb) + (size_t)(j0 + kb) * n, n);
    }
    ops->copy(ops, 1, n, r->x, n + 1, r->diag, 1);
    ops->copy(ops, 1, n - 1, r->x + 1, n + 1, r->sub, 1);
    return 0;
}

/* T of each panel (NB x n, ld NB: panel j0's at column j0) by ?larft's
 * forward recurrence T(0:c, c) = -tau_c T(0:c, 0:c) S(0:c, c),
 * T(c, c) = tau_c, from the host's copies of tau and S. */
static void panel_t(lapack_int n, const gl_scalar *tau, const gl_scalar *s,
                    gl_scalar *t)
{
    memset(t, 0, sizeof *t * (size_t)NB * (size_t)n);
    for (lapack_int j0 = 0; j0 < n - 1; j0 += NB) {
        lapack_int kb = n - 1 - j0 < NB ? n - 1 - j0 : NB;
        gl_scalar *tp = t + (size_t)j0 * NB;
        const gl_scalar *sp = s + (size_t)j0 * NB;
        for (lapack_int c = 0; c < kb; c++) {
            gl_scalar tc = tau[j0 + c];
            for (lapack_int row = 0; row < c; row++) {
                gl_scalar sum = 0;
                for (lapack_int k = row; k < c; k++)
                    sum += tp[row + (size_t)k * NB] * sp[k + (size_t)c * NB];
                tp[row + (size_t)c * NB] = -tc * sum;
            }
            tp[c + (size_t)c * NB] = tc;
        }
    }
}

/* d, e (and with keep its phases and T) from the one read of the
 * diagonal, subdiagonal, tau and S: 0, or GL_STAGE_FAULT when the device
 * failed anywhere before. */
static int finish(const GL_FN(ops) *ops, const GL_FN(one_stage) *r, gl_real *d,
                  gl_real *e, GL_FN(tridiag_q) *keep)
{
    lapack_int n = r->n;
    size_t outlen = 3 * (size_t)n + (keep ? (size_t)NB * (size_t)n : 0);
    gl_scalar *host = gl_host_alloc(sizeof *host * outlen);
    gl_scalar *t = keep ? gl_host_alloc(sizeof *t * (size_t)NB * (size_t)n)
                        : NULL;
    int rc = GL_STAGE_FAULT;
    if (!host || (keep && !t) ||
        ops->to_host_scratch(ops, (lapack_int)outlen, 1, r->out,
                             (lapack_int)outlen, host, (lapack_int)outlen))
        goto out;
    const gl_scalar *sub = host + n, *tau = host + 2 * (size_t)n;
    for (lapack_int i = 0; i < n; i++)
        d[i] = GL_REAL(host[i]);
    /* beta of ?larfg is real; its sign, and any phase a backend leaves,
     * goes into diag(phase) as the two-stage band's does */
    for (lapack_int i = 0; i + 1 < n; i++)
        e[i] = GL_ABS(sub[i]);
    if (keep) {
        GL_FN(tridiagonal_phases)(n, sub, keep->phase);
        panel_t(n, tau, tau + n, t);
        ops->from_host(ops, 'N', NB, n, t, NB, keep->t, NB);
    }
    rc = 0;
out:
    gl_host_free(host);
    gl_host_free(t);
    return rc;
}

/* gl_s_he_tridiag_one_stage gl_d_he_tridiag_one_stage gl_c_he_tridiag_one_stage gl_z_he_tridiag_one_stage */
int GL_FN(he_tridiag_one_stage)(const GL_FN(ops) *ops, char uplo,
                                lapack_int n, const gl_scalar *a,
                                lapack_int lda, gl_real sigma, gl_real *d,
                                gl_real *e, GL_FN(tridiag_q) *keep,
                                gl_stage_times *times)
{
    GL_FN(one_stage) r = {0};
    int rc = GL_STAGE_FAULT;
    if (keep) {
        *keep = (GL_FN(tridiag_q)){.n = n, .b = 0, .lda = n};
        keep->t = ops->alloc(ops, sizeof *keep->t * NB * (size_t)n);
        keep->phase = malloc(sizeof *keep->phase * (size_t)n);
        if (!keep->t || !keep->phase)
            goto out;
    }
    if (GL_FN(one_stage_alloc)(ops, &r, n))
        goto out;
    if (keep)
        keep->a = r.x;   /* its reflectors; released with keep */
    /* the lower triangle of A, or of A^H for 'U' (A = A^H) */
    ops->from_host(ops, uplo == 'L' ? 'N' : 'C', n, n, a, lda, r.x, n);
    if (sigma != 1 && ops->lascl(ops, 1, sigma, n, n, r.x, n))
        goto out;
    double t0 = gl_profile_stage(ops->ctx, "stage1");
    if (GL_FN(one_stage_reduce)(ops, &r) || finish(ops, &r, d, e, keep))
        goto out;
    if (times)
        *times = (gl_stage_times){.stage1 = gl_now() - t0};
    rc = 0;
out:
    if (!keep || rc != 0)
        ops->release(ops, r.x);
    if (keep && rc != 0) {
        keep->a = NULL;
        GL_FN(tridiag_q_free)(ops, keep);
    }
    ops->release(ops, r.work);
    return rc;
}
