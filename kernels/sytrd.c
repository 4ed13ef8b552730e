/* ?sytrd/?hetrd in LAPACK's format from the two-stage reduction: the
 * explicit Q of the reduction is re-factored into the one-stage
 * reflectors (algorithms.md 5, option 2).
 *
 * 'L': the reduction fixes e_1 (every reflector acts on rows >= 2), so
 * Q = diag(1, M); M = G R by ?geqrf with R unitary and triangular, i.e.
 * diagonal with entries +-1 (?larfg's beta is real).  Then diag(1, G) is
 * LAPACK's H(1) ... H(n-1) and diag(1, G)^H A diag(1, G) is the
 * tridiagonal with its off-diagonal signs flipped by diag(1, R).
 * 'U': LAPACK's Q fixes e_n instead; the 'L' reduction of J A J (J the
 * reversal; A's upper triangle is the lower one of J A J) gives
 * Q_A = J Q J, re-factored by ?geqlf of its leading n-1 columns. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "../lapack_api/precision.h"
#include "../runtime/log.h"
#include "lapack_fns.h"
#include "stages.h"

int GL_FN(sytrd)(const GL_FN(ops) *ops, char uplo, lapack_int n, gl_scalar *a,
                 lapack_int lda, gl_real *d, gl_real *e, gl_scalar *tau,
                 gl_stage_times *times)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    int upper = uplo == 'U';
    size_t nn = (size_t)n * (size_t)n;
    lapack_int n1 = n - 1;
    gl_scalar *x = upper ? malloc(sizeof *x * nn) : NULL;
    gl_scalar *q = malloc(sizeof *q * nn);
    gl_real *dt = malloc(sizeof *dt * 2 * n);
    gl_scalar *taus = malloc(sizeof *taus * (size_t)n);
    GL_FN(tridiag_q) keep = {0};
    gl_scalar *work = NULL;
    int rc = GL_STAGE_FAULT;
    if ((upper && !x) || !q || !dt || !taus)
        goto out;
    gl_real *et = dt + n;
    if (upper)   /* X = J A J, lower triangle */
        for (lapack_int j = 0; j < n; j++)
            for (lapack_int i = j; i < n; i++)
                x[i + (size_t)j * n] = a[(n - 1 - i) + (size_t)(n - 1 - j) * lda];
    if (GL_FN(he_tridiag)(ops, 'L', n, upper ? x : a, upper ? n : lda, 1, dt,
                          et, NULL, 0, NULL, &keep, times))
        goto out;
    double t0 = gl_now();
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
    free(x);
    free(q);
    free(dt);
    free(taus);
    free(work);
    return rc;
}
