/* Stage 1 for the Hermitian eigenproblem: dense -> lower band. */
#include "../runtime/precision.h"
#include "stages.h"

#define A(i, j) (a + (size_t)(i) + (size_t)(j) * lda)

/* gl_s_sy2sb gl_d_sy2sb gl_c_sy2sb gl_z_sy2sb */
int GL_FN(sy2sb)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 gl_scalar *a, lapack_int lda, gl_scalar *tau, gl_scalar *tq)
{
    if (n - b < 2)
        return 0;   /* already a band of half-width b */
    /* V (dense), S = V T and X = A V T share the height of the first panel;
     * M = S^H X and T are b x b. */
    lapack_int ldw = n - b;
    size_t panel = (size_t)ldw * (size_t)b;
    gl_scalar *work =
        ops->alloc(sizeof *work * (3 * panel + 2 * (size_t)b * (size_t)b));
    if (!work)
        return GL_STAGE_FAULT;
    gl_scalar *v = work, *s = v + panel, *x = s + panel, *mm = x + panel,
              *scratch = mm + (size_t)b * (size_t)b;

    int rc = 0;
    for (lapack_int k = 0; n - k - b >= 2 && rc == 0; k += b) {
        /* QR of the panel below the band: A(k+b:n, k:k+b) = Q R.  Short
         * last panel: QR of its first pn columns, Q^H on the others. */
        lapack_int pn = n - k - b, kk = pn < b ? pn : b;
        gl_scalar *t = tq ? tq + (size_t)k * b : scratch;
        rc = ops->geqrt(pn, kk, A(k + b, k), lda, t, b);
        if (rc == 0 && kk < b)
            rc = ops->larfb('L', 'C', 'C', pn, b - kk, kk, A(k + b, k), lda,
                            t, b, A(k + b, k + kk), lda);
        if (rc != 0)
            break;
        /* T's diagonal holds the scalars of the panel's reflectors: read
         * as one row whose elements lie b + 1 apart */
        if (tau)
            rc = ops->to_host(1, kk, t, b + 1, tau + k, 1);
        if (rc != 0)
            break;
        /* A22 := Q^H A22 Q, Q = I - V T V^H, on the lower triangle. */
        gl_scalar *a22 = A(k + b, k + b);
        ops->unpack_v('C', pn, kk, A(k + b, k), lda, v, ldw);
        ops->unpack_v('C', pn, kk, A(k + b, k), lda, s, ldw);
        ops->trmm('R', 'U', 'N', 'N', pn, kk, 1, t, b, s, ldw);    /* S = VT */
        ops->hemm('L', 'L', pn, kk, 1, a22, lda, s, ldw, 0, x, ldw); /* X=AS */
        ops->gemm('C', 'N', kk, kk, pn, 1, s, ldw, x, ldw, 0, mm, b);
        ops->gemm('N', 'N', pn, kk, kk, -0.5, v, ldw, mm, b, 1, x, ldw);
        ops->her2k('L', 'N', pn, kk, -1, x, ldw, v, ldw, 1, a22, lda);
    }
    ops->release(work);
    return rc == 0 ? 0 : GL_STAGE_FAULT;
}
