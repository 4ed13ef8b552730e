/* ?sytrd/?hetrd in LAPACK's format, by one of two methods
 * (docs/architecture.md, "kernels/"; GPULAPACK_SYTRD_STAGES chooses,
 * the context's tuning.sytrd_stages):
 *
 * 1. One stage (the default): LAPACK's blocked algorithm written against
 *    the operation table.  Panels of SYTRD_BLOCK columns; column i of a
 *    panel is first brought up to date with the panel's earlier
 *    reflectors (A(i:, i) -= V W(i, :)^H + W V(i, :)^H), its reflector v
 *    generated, then w = A22 v by the backend's hemv on the trailing
 *    matrix as the earlier panels left it, corrected by the panel's V and
 *    W (w = tau (A22 - V W^H - W V^H) v, then w -= tau/2 (w^H v) v).
 *    After the panel one her2k A22 -= V W^H + W V^H on the backend.  On
 *    the host backend the panel, V and W are host arrays (LAPACK's own
 *    steps).  On a device everything stays there: the column steps are
 *    products of one column, the reflector the backend's geqrt of one
 *    column (?larfg), the scalings by tau 1 x 1 products with tau where
 *    geqrt left it, so that the host waits for the device once, at the
 *    end, instead of twice per column.  Memory-bound by the hemv, as
 *    LAPACK's.
 * 2. Two stages, then the explicit Q of the reduction re-factored into
 *    the one-stage reflectors: more work, but all of it BLAS3 and the
 *    chase; the re-factoring (?geqrf) runs on the host, which a GPU's
 *    path would have to move to the device to gain from it.
 *    'L': the reduction fixes e_1 (every reflector acts on rows >= 2), so
 *    Q = diag(1, M); M = G R by ?geqrf with R unitary and triangular, i.e.
 *    diagonal with entries +-1 (?larfg's beta is real).  Then diag(1, G)
 *    is LAPACK's H(1) ... H(n-1) and diag(1, G)^H A diag(1, G) is the
 *    tridiagonal with its off-diagonal signs flipped by diag(1, R).
 *
 * 'U' (both methods): LAPACK's Q fixes e_n instead.  The 'L' reduction of
 * X = J A J (J the reversal; A's upper triangle is the lower one of X)
 * gives Q_A = J Q_X J: X's reflector q (unit at row q+1, nonzeros below)
 * is A's reflector p = n-2-q (unit at row p, nonzeros above), and
 * T_A = J T_X J.  Method 2 re-factors J Q_X J by ?geqlf of its leading
 * n-1 columns. */
#include <complex.h>
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

/* Columns per panel of the one-stage method: LAPACK's ?sytrd block. */
enum { SYTRD_BLOCK = 32 };

/* X = J A J's lower triangle (n x n, ld n) from A's upper one; the strict
 * upper triangle of X zeroed (it is copied, never used). */
static void reverse_upper(lapack_int n, const gl_scalar *a, lapack_int lda,
                          gl_scalar *x)
{
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++)
            x[i + (size_t)j * n] =
                i < j ? 0 : a[(n - 1 - i) + (size_t)(n - 1 - j) * lda];
}

/* X's reduced lower triangle (d, e and the reflectors) into A's upper one:
 * the inverse of reverse_upper's mapping. */
static void unreverse_upper(lapack_int n, const gl_scalar *x, gl_scalar *a,
                            lapack_int lda)
{
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = j; i < n; i++)
            a[(n - 1 - i) + (size_t)(n - 1 - j) * lda] = x[i + (size_t)j * n];
}

/* The one-stage method on a device (see the top of the file). */
static int sytrd_one_stage_device(const GL_FN(ops) *ops, char uplo,
                                  lapack_int n, gl_scalar *a, lapack_int lda,
                                  gl_real *d, gl_real *e, gl_scalar *tau,
                                  gl_stage_times *times)
{
    int upper = uplo == 'U';
    size_t nn = (size_t)n * (size_t)n;
    /* X, the matrix reduced in the 'L' format (for 'U' J A J, made in rev
     * on the host), and the reduction's panels: GL_FN(one_stage) */
    gl_scalar *rev = upper ? gl_host_alloc(sizeof *rev * nn) : NULL;
    gl_scalar *taus = malloc(sizeof *taus * (size_t)n);
    GL_FN(one_stage) r = {0};
    int rc = GL_STAGE_FAULT;
    if ((upper && !rev) || !taus || GL_FN(one_stage_alloc)(ops, &r, n))
        goto out;
    double t0 = gl_profile_stage(ops->ctx, "stage1");
    if (upper)
        reverse_upper(n, a, lda, rev);
    ops->from_host(ops, 'N', n, n, upper ? rev : a, upper ? n : lda, r.x, n);
    if (GL_FN(one_stage_reduce)(ops, &r))
        goto out;

    /* the scalars, then X into A (or rev): every failure of the device
     * is reported by these reads, before A is written */
    gl_scalar *dst = upper ? rev : a;
    lapack_int ldd = upper ? n : lda;
    if (ops->to_host(ops, n - 1, 1, r.td, n, taus, n) ||
        ops->to_host(ops, n, n, r.x, n, dst, ldd))
        goto out;
    for (lapack_int i = 0; i < n; i++) {
        gl_scalar *dii = dst + i + (size_t)i * ldd;
        *dii = GL_REAL(*dii);
        d[upper ? n - 1 - i : i] = GL_REAL(*dii);
        if (i + 1 < n) {
            e[upper ? n - 2 - i : i] = GL_REAL(dii[1]);
            tau[upper ? n - 2 - i : i] = taus[i];
        }
    }
    if (upper)
        unreverse_upper(n, rev, a, lda);
    if (times)
        times->stage1 = gl_now() - t0;
    rc = 0;
out:
    ops->release(ops, r.x);
    ops->release(ops, r.work);
    gl_host_free(rev);
    free(taus);
    return rc;
}

static int sytrd_one_stage(const GL_FN(ops) *ops, char uplo, lapack_int n,
                           gl_scalar *a, lapack_int lda, gl_real *d,
                           gl_real *e, gl_scalar *tau, gl_stage_times *times)
{
    if (!ops->host_memory)
        return sytrd_one_stage_device(ops, uplo, n, a, lda, d, e, tau, times);
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    int upper = uplo == 'U';
    size_t nn = (size_t)n * (size_t)n;
    lapack_int nb = SYTRD_BLOCK < n - 1 ? SYTRD_BLOCK : n - 1;
    /* X, the matrix reduced in the 'L' format: A itself ('L') or J A J
     * (rev, 'U'); the panel, V and the vectors of hemv are X's own
     * columns and W's (as in LAPACK).  W (n x nb, ld = the panel's rows),
     * then the conjugated rows and products of the column steps (nb). */
    gl_scalar *rev = upper ? gl_host_alloc(sizeof *rev * nn) : NULL;
    gl_scalar *x = upper ? rev : a;
    lapack_int ldx = upper ? n : lda;
    size_t panel = (size_t)n * (size_t)nb;
    gl_scalar *w = malloc(sizeof *w * (panel + nb));
    int rc = GL_STAGE_FAULT;
    if ((upper && !rev) || !w)
        goto out;
    gl_scalar *tmp = w + panel;
    double t0 = gl_profile_stage(ops->ctx, "stage1");
    if (upper)
        reverse_upper(n, a, lda, rev);

    const lapack_int ione = 1;
    const gl_scalar one = 1, minus_one = -1, zero = 0;
    for (lapack_int j0 = 0; j0 < n - 1; j0 += nb) {
        lapack_int kb = n - 1 - j0 < nb ? n - 1 - j0 : nb, m = n - j0;
        gl_scalar *p = x + j0 + (size_t)j0 * ldx;
        lapack_int ldp = ldx;
        for (lapack_int c = 0; c < kb; c++) {
            lapack_int i = j0 + c, len = m - c, lv = len - 1;
            gl_scalar *pc = p + c + (size_t)c * ldp;   /* P(c, c) */
            pc[0] = GL_REAL(pc[0]);
            if (c > 0) {
                for (lapack_int k = 0; k < c; k++)
                    tmp[k] = GL_CONJ(w[c + (size_t)k * m]);
                f->gemv("N", &len, &c, &minus_one, p + c, &ldp, tmp, &ione,
                        &one, pc, &ione, 1);
                for (lapack_int k = 0; k < c; k++)
                    tmp[k] = GL_CONJ(p[c + (size_t)k * ldp]);
                f->gemv("N", &len, &c, &minus_one, w + c, &m, tmp, &ione,
                        &one, pc, &ione, 1);
                pc[0] = GL_REAL(pc[0]);
            }
            gl_scalar beta = pc[1];
            gl_scalar t = gl_larfg(lv, &beta, pc + 2, 1);
            lapack_int id = upper ? n - 1 - i : i, ie = upper ? n - 2 - i : i;
            d[id] = GL_REAL(pc[0]);
            e[ie] = GL_REAL(beta);
            tau[ie] = t;
            pc[1] = 1;

            /* w = A22 v, then the corrections */
            gl_scalar *v = pc + 1, *wc = w + c + 1 + (size_t)c * m;
            const gl_scalar *a22 = x + (i + 1) + (size_t)(i + 1) * ldx;
            ops->hemv(ops, 'L', lv, 1, a22, ldx, v, 0, wc);
            if (c > 0) {
                f->gemv("C", &lv, &c, &one, w + c + 1, &m, v, &ione, &zero,
                        tmp, &ione, 1);
                f->gemv("N", &lv, &c, &minus_one, p + c + 1, &ldp, tmp,
                        &ione, &one, wc, &ione, 1);
                f->gemv("C", &lv, &c, &one, p + c + 1, &ldp, v, &ione, &zero,
                        tmp, &ione, 1);
                f->gemv("N", &lv, &c, &minus_one, w + c + 1, &m, tmp, &ione,
                        &one, wc, &ione, 1);
            }
            gl_scalar dot = 0;
            for (lapack_int r = 0; r < lv; r++) {
                wc[r] *= t;
                dot += GL_CONJ(wc[r]) * v[r];
            }
            gl_scalar alpha = -(gl_real)0.5 * t * dot;
            for (lapack_int r = 0; r < lv; r++)
                wc[r] += alpha * v[r];
        }

        /* A22 -= V W^H + W V^H (V with its unit elements), then the
         * panel's results: d, e below it, the reflectors under e */
        lapack_int rest = m - kb;
        gl_scalar *a22 = x + (j0 + kb) + (size_t)(j0 + kb) * ldx;
        ops->her2k(ops, 'L', 'N', rest, kb, -1, p + kb, ldp, w + kb, m, 1, a22,
                   ldx);
        for (lapack_int c = 0; c < kb; c++) {
            lapack_int i = j0 + c;
            p[c + (size_t)c * ldp] = d[upper ? n - 1 - i : i];
            p[c + 1 + (size_t)c * ldp] = e[upper ? n - 2 - i : i];
        }
    }

    /* the last diagonal element, then X back into A */
    gl_scalar *last = x + (n - 1) + (size_t)(n - 1) * ldx;
    d[upper ? 0 : n - 1] = GL_REAL(*last);
    *last = GL_REAL(*last);
    if (upper)
        unreverse_upper(n, rev, a, lda);
    if (times)
        times->stage1 = gl_now() - t0;
    rc = 0;
out:
    gl_host_free(rev);
    free(w);
    return rc;
}

static int sytrd_two_stage(const GL_FN(ops) *ops, const gl_call_plan *plan,
                           char uplo, lapack_int n, gl_scalar *a,
                           lapack_int lda, gl_real *d, gl_real *e,
                           gl_scalar *tau, gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    int upper = uplo == 'U';
    size_t nn = (size_t)n * (size_t)n;
    lapack_int n1 = n - 1;
    gl_scalar *x = upper ? gl_host_alloc(sizeof *x * nn) : NULL;
    gl_scalar *q = gl_host_alloc(sizeof *q * nn);
    gl_real *dt = malloc(sizeof *dt * 2 * n);
    gl_scalar *taus = malloc(sizeof *taus * (size_t)n);
    GL_FN(tridiag_q) keep = {0};
    gl_scalar *work = NULL;
    int rc = GL_STAGE_FAULT;
    if ((upper && !x) || !q || !dt || !taus)
        goto out;
    gl_real *et = dt + n;
    if (upper)
        reverse_upper(n, a, lda, x);
    if (GL_FN(he_tridiag)(ops, plan, 'L', n, upper ? x : a, upper ? n : lda,
                          1, dt, et, NULL, 0, NULL, &keep, times))
        goto out;
    double t0 = gl_profile_stage(ops->ctx, "back");
    if (GL_FN(tridiag_q_apply)(ops, &keep, n, NULL, n, q, n))
        goto out;

    /* M (ld n-1): Q(2:n, 2:n) ('L', in place at the start of q: every
     * element moves down) or (J Q J)(1:n-1, 1:n-1) = J' Q(2:n, 2:n) J'
     * ('U', into x, free again) */
    gl_scalar *m = upper ? x : q;
    for (lapack_int j = 0; j < n1; j++)
        for (lapack_int i = 0; i < n1; i++) {
            lapack_int qi = 1 + (upper ? n1 - 1 - i : i);
            lapack_int qj = 1 + (upper ? n1 - 1 - j : j);
            m[i + (size_t)j * n1] = q[qi + (size_t)qj * n];
        }
    gl_scalar size = 0;
    lapack_int query = -1, info = 0;
    (upper ? f->geqlf : f->geqrf)(&n1, &n1, m, &n1, taus, &size, &query,
                                  &info);
    lapack_int lwork = (lapack_int)GL_REAL(size) > n ? (lapack_int)GL_REAL(size)
                                                     : n;
    work = malloc(sizeof *work * (size_t)lwork);
    if (!work)
        goto out;
    (upper ? f->geqlf : f->geqrf)(&n1, &n1, m, &n1, taus, work, &lwork,
                                  &info);
    if (info != 0)
        goto out;

    /* Nothing fails from here on: A, D, E, TAU.  sign[i] = the +-1 of
     * the factor's diagonal at position i of the tridiagonal. */
    for (lapack_int i = 0; i < n; i++) {
        lapack_int src = upper ? n - 1 - i : i;
        d[i] = dt[src];
    }
    for (lapack_int i = 0; i < n1; i++) {
        /* 'L': D = diag(1, r_1, ..): e'_i = D_i D_{i+1} e_i, D_0 = 1.
         * 'U': D = diag(l_1, .., l_{n-1}, 1), e_A(i) = e(n-2-i). */
        gl_real di, dj;
        if (upper) {
            di = GL_REAL(m[i + (size_t)i * n1]) < 0 ? -1 : 1;
            dj = i + 1 < n1 ? (GL_REAL(m[i + 1 + (size_t)(i + 1) * n1]) < 0
                                   ? -1
                                   : 1)
                            : 1;
        } else {
            di = i == 0 ? 1 : (GL_REAL(m[i - 1 + (size_t)(i - 1) * n1]) < 0
                                   ? -1
                                   : 1);
            dj = GL_REAL(m[i + (size_t)i * n1]) < 0 ? -1 : 1;
        }
        e[i] = di * dj * et[upper ? n - 2 - i : i];
        tau[i] = taus[i];
    }
    for (lapack_int i = 0; i < n; i++)
        a[i + (size_t)i * lda] = d[i];
    for (lapack_int i = 0; i < n1; i++) {
        if (upper) {
            /* reflector i: unit at row i of M, rows 0..i-1 stored above */
            gl_scalar *col = a + (size_t)(i + 1) * lda;
            for (lapack_int r = 0; r < i; r++)
                col[r] = m[r + (size_t)i * n1];
            col[i] = e[i];
        } else {
            /* reflector i: unit at row i of M, rows i+1.. stored below */
            gl_scalar *col = a + (size_t)i * lda;
            col[i + 1] = e[i];
            for (lapack_int r = i + 1; r < n1; r++)
                col[r + 1] = m[r + (size_t)i * n1];
        }
    }
    if (times)
        times->back = gl_now() - t0;
    rc = 0;
out:
    GL_FN(tridiag_q_free)(ops, &keep);
    gl_host_free(x);
    gl_host_free(q);
    free(dt);
    free(taus);
    free(work);
    return rc;
}

/* gl_s_sytrd_plan_make gl_d_sytrd_plan_make gl_c_sytrd_plan_make gl_z_sytrd_plan_make */
int GL_FN(sytrd_plan_make)(const gl_tuning *tuning, lapack_int n,
                           gl_call_plan *plan)
{
    gl_eig_job job = {.driver = GL_EIG_SYEV, .range = 'A'};
    if (plan->tier != GL_PLAN_IN_CORE)   /* in core only */
        return 0;
    gl_call_plan one_stage = *plan;
    one_stage.method = GL_METHOD_ONE_STAGE;
    if (!GL_FN(eig_plan_make)(tuning, &job, n, 0, &one_stage))
        return 0;
    GL_FN(he_tridiag_plan)(tuning, n, 1, plan);   /* with Q kept */
    plan->device_bytes = one_stage.device_bytes;
    plan->largest = one_stage.largest;
    return 1;
}

/* gl_s_sytrd gl_d_sytrd gl_c_sytrd gl_z_sytrd */
int GL_FN(sytrd)(const GL_FN(ops) *ops, const gl_call_plan *plan, char uplo,
                 lapack_int n, gl_scalar *a, lapack_int lda, gl_real *d,
                 gl_real *e, gl_scalar *tau, gl_stage_times *times)
{
    if (ops->ctx->tuning.sytrd_stages == 2)
        return sytrd_two_stage(ops, plan, uplo, n, a, lda, d, e, tau, times);
    return sytrd_one_stage(ops, uplo, n, a, lda, d, e, tau, times);
}
