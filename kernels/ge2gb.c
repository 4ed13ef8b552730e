/* Stage 1 for the SVD: dense -> upper band by block QR and LQ sweeps. */
#include "../runtime/precision.h"
#include "stages.h"

#define A(i, j) (a + (size_t)(i) + (size_t)(j) * lda)

/* gl_s_ge2gb gl_d_ge2gb gl_c_ge2gb gl_z_ge2gb */
int GL_FN(ge2gb)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                 lapack_int b, gl_scalar *a, lapack_int lda, gl_scalar *tq,
                 gl_scalar *tp)
{
    gl_scalar *scratch = NULL;
    if (!tq || !tp) {
        scratch = ops->alloc(sizeof *scratch * (size_t)b * (size_t)b);
        if (!scratch)
            return GL_STAGE_FAULT;
    }
    int rc = 0;
    for (lapack_int k = 0; k < n && rc == 0; k += b) {
        /* T of each panel: kept at column k of tq (tp), or scratch */
        gl_scalar *t = tq ? tq + (size_t)k * b : scratch;
        /* QR of block column k: A(k:m, k:k+pk) = Q R, then Q^H on the
         * columns to its right. */
        lapack_int pk = n - k < b ? n - k : b;
        rc = ops->geqrt(m - k, pk, A(k, k), lda, t, b);
        if (rc == 0)
            rc = ops->larfb('L', 'C', 'C', m - k, n - k - pk, pk, A(k, k),
                            lda, t, b, A(k, k + pk), lda);
        if (rc != 0 || k + b >= n)
            continue;
        /* LQ of block row k right of the band: A(k:k+b, k+b:n) = L Q, then
         * Q^H from the right on the rows below.  A short last block row
         * (fewer columns than rows) factors its first q rows only. */
        lapack_int q = n - k - b, kk = b < q ? b : q;
        t = tp ? tp + (size_t)k * b : scratch;
        rc = ops->gelqt(kk, q, A(k, k + b), lda, t, b);
        if (rc == 0 && kk < b)
            rc = ops->larfb('R', 'N', 'R', b - kk, q, kk, A(k, k + b), lda, t,
                            b, A(k + kk, k + b), lda);
        if (rc == 0)
            rc = ops->larfb('R', 'N', 'R', m - k - b, q, kk, A(k, k + b), lda,
                            t, b, A(k + b, k + b), lda);
    }
    ops->release(scratch);
    return rc == 0 ? 0 : GL_STAGE_FAULT;
}
