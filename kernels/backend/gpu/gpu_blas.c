/* The GPU table's products (part of gpu_ops): one kernel, gl_gemm, with
 * read modes for triangular, trapezoidal and Hermitian operands
 * (kernels/device/blas.h) where no vendor BLAS serves, the block
 * reflectors (larfb, apply_wy and the blocks wy_build makes), and the
 * real products of stage 3's divide and conquer. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "../../../runtime/precision.h"
#include "../../../runtime/tune.h"
#include "../gpu_ops.h"
#include "launch.h"

/* ---- BLAS3: one kernel, gl_gemm, with read modes for triangular,
 * trapezoidal and Hermitian operands (kernels/device/blas.h) ---- */

static int trans_code(char t) { return t == 'N' ? 0 : t == 'T' ? 1 : 2; }

/* count products C_p = alpha op(A_p) op(B_p) + beta C_p by the portable
 * gl_gemm in precision prec (scalars of es bytes at alpha and beta),
 * X_p = X + p stride_x elements. */
static int kernel_gemm(const GL_FN(ops) *ops, int prec, size_t es, int ta,
                       int tb, lapack_int m, lapack_int n, lapack_int k,
                       const void *alpha, const void *a, lapack_int lda,
                       int amode, long long stride_a, const void *b,
                       lapack_int ldb, int bmode, long long stride_b,
                       const void *beta, void *c, lapack_int ldc, int cmode,
                       long long stride_c, lapack_int count)
{
    if (m <= 0 || n <= 0 || count <= 0)
        return 0;
    if (k <= 0)   /* C = beta C: the kernel's loop runs no tile */
        k = 0;
    int tiles_m = (int)groups_of((size_t)m, TILE);
    gl_arg args[] = {VAL(ta),        VAL(tb),       VAL(m),
                     VAL(n),         VAL(k),        {es, alpha, 0},
                     GL_MEM(a, es),  VAL(lda),      VAL(amode),
                     GL_MEM(b, es),  VAL(ldb),      VAL(bmode),
                     {es, beta, 0},  GL_MEM(c, es), VAL(ldc),
                     VAL(cmode),     VAL(tiles_m),  VAL(stride_a),
                     VAL(stride_b),  VAL(stride_c)};
    size_t local[2] = {TILE, TILE};
    size_t groups[2] = {(size_t)tiles_m * (size_t)count,
                        groups_of((size_t)n, TILE)};
    return RT(ops)->launch(ops->ctx, prec, GL_K_GEMM, 2, groups, local,
                           NARGS(args), args);
}

/* count products as kernel_gemm's, of this precision: plain ones by the
 * vendor's BLAS (cuBLAS, CLBlast; a batch by its strided-batched GEMM)
 * when it is there. */
static int gemm_batch(const GL_FN(ops) *ops, char transa, char transb,
                      lapack_int m, lapack_int n, lapack_int k, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, int amode,
                      size_t stride_a, const gl_scalar *b, lapack_int ldb,
                      int bmode, size_t stride_b, gl_scalar beta, gl_scalar *c,
                      lapack_int ldc, int cmode, size_t stride_c,
                      lapack_int count)
{
    int ta = trans_code(transa), tb = trans_code(transb);
    device_scalar da = dev_scalar(alpha), db = dev_scalar(beta);
    if (amode == 0 && bmode == 0 && cmode == 0 && m > 0 && n > 0 && k > 0 &&
        count > 0) {
        int rc = 1;
        if (count == 1)
            rc = RT(ops)->blas_gemm(ops->ctx, GL_PRECISION, ta, tb, (size_t)m,
                                    (size_t)n, (size_t)k, &da, a, (size_t)lda,
                                    b, (size_t)ldb, &db, c, (size_t)ldc);
        else if (RT(ops)->blas_gemm_batched)
            rc = RT(ops)->blas_gemm_batched(
                ops->ctx, GL_PRECISION, ta, tb, (size_t)m, (size_t)n, (size_t)k,
                &da, a, (size_t)lda, stride_a, b, (size_t)ldb, stride_b, &db, c,
                (size_t)ldc, stride_c, (size_t)count);
        if (rc <= 0)
            return rc;
    }
    return kernel_gemm(ops, GL_PRECISION, ES, ta, tb, m, n, k, &da, a, lda,
                       amode, (long long)stride_a, b, ldb, bmode,
                       (long long)stride_b, &db, c, ldc, cmode,
                       (long long)stride_c, count);
}

/* gl_s_gemm_modes gl_d_gemm_modes gl_c_gemm_modes gl_z_gemm_modes */
int GL_FN(gemm_modes)(const GL_FN(ops) *ops, char transa, char transb,
                      lapack_int m, lapack_int n, lapack_int k,
                      gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                      int amode, const gl_scalar *b, lapack_int ldb, int bmode,
                      gl_scalar beta, gl_scalar *c, lapack_int ldc, int cmode)
{
    return gemm_batch(ops, transa, transb, m, n, k, alpha, a, lda, amode, 0, b,
                      ldb, bmode, 0, beta, c, ldc, cmode, 0, 1);
}

/* gl_s_dev_gemm gl_d_dev_gemm gl_c_dev_gemm gl_z_dev_gemm */
void GL_FN(dev_gemm)(const GL_FN(ops) *ops, char transa, char transb,
                     lapack_int m, lapack_int n, lapack_int k, gl_scalar alpha,
                     const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                     lapack_int ldb, gl_scalar beta, gl_scalar *c,
                     lapack_int ldc)
{
    if (GL_FN(gemm_modes)(ops, transa, transb, m, n, k, alpha, a, lda, 0, b,
                          ldb, 0, beta, c, ldc, 0) != 0)
        RT(ops)->fail(ops->ctx);
}

/* gl_s_dev_hemm gl_d_dev_hemm gl_c_dev_hemm gl_z_dev_hemm */
void GL_FN(dev_hemm)(const GL_FN(ops) *ops, char side, char uplo, lapack_int m,
                     lapack_int n, gl_scalar alpha, const gl_scalar *a,
                     lapack_int lda, const gl_scalar *b, lapack_int ldb,
                     gl_scalar beta, gl_scalar *c, lapack_int ldc)
{
    if (m <= 0 || n <= 0)
        return;
    if (RT(ops)->blas_hemm) {
        device_scalar da = dev_scalar(alpha), db = dev_scalar(beta);
        int rc =
            RT(ops)->blas_hemm(ops->ctx, GL_PRECISION, side == 'R', uplo == 'L',
                               (size_t)m, (size_t)n, &da, a, (size_t)lda, b,
                               (size_t)ldb, &db, c, (size_t)ldc);
        if (rc < 0)
            RT(ops)->fail(ops->ctx);
        if (rc <= 0)
            return;
    }
    int herm = GM_HERM | (uplo == 'L' ? GM_LOWER : GM_UPPER);
    int rc = side == 'L'
                 ? GL_FN(gemm_modes)(ops, 'N', 'N', m, n, m, alpha, a, lda,
                                     herm, b, ldb, 0, beta, c, ldc, 0)
                 : GL_FN(gemm_modes)(ops, 'N', 'N', m, n, n, alpha, b, ldb, 0,
                                     a, lda, herm, beta, c, ldc, 0);
    if (rc != 0)
        RT(ops)->fail(ops->ctx);
}

/* A Hermitian product with one column, as hemm (cuBLAS ?symm/?hemm on
 * CUDA): the one-stage ?sytrd's products, 0.11-0.21x cuSOLVER's ?sytrd on
 * an H100 (docs/performance.md). */
/* gl_s_dev_hemv gl_d_dev_hemv gl_c_dev_hemv gl_z_dev_hemv */
void GL_FN(dev_hemv)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                     gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                     const gl_scalar *x, gl_scalar beta, gl_scalar *y)
{
    GL_FN(dev_hemm)(ops, 'L', uplo, n, 1, alpha, a, lda, x, n, beta, y, n);
}

/* C = alpha A B^H + conj(alpha) B A^H + beta C in one triangle ('N'), as
 * two passes of gl_gemm that write only that triangle. */
/* gl_s_dev_her2k gl_d_dev_her2k gl_c_dev_her2k gl_z_dev_her2k */
void GL_FN(dev_her2k)(const GL_FN(ops) *ops, char uplo, char trans,
                      lapack_int n, lapack_int k, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                      lapack_int ldb, gl_real beta, gl_scalar *c,
                      lapack_int ldc)
{
    if (n <= 0)
        return;
    if (RT(ops)->blas_her2k) {
        device_scalar da = dev_scalar(alpha);
        int rc = RT(ops)->blas_her2k(
            ops->ctx, GL_PRECISION, uplo == 'L', trans != 'N', (size_t)n,
            (size_t)(k > 0 ? k : 0), &da, a, (size_t)lda, b, (size_t)ldb, &beta,
            c, (size_t)ldc);
        if (rc < 0)
            RT(ops)->fail(ops->ctx);
        if (rc <= 0)
            return;
    }
    int cmode = (uplo == 'L' ? GC_LOWER : GC_UPPER) | GC_REAL_DIAG;
    char t1 = trans == 'N' ? 'N' : 'C', t2 = trans == 'N' ? 'C' : 'N';
    if (GL_FN(gemm_modes)(ops, t1, t2, n, n, k, alpha, a, lda, 0, b, ldb, 0,
                          beta, c, ldc, cmode) != 0 ||
        GL_FN(gemm_modes)(ops, t1, t2, n, n, k, GL_CONJ(alpha), b, ldb, 0, a,
                          lda, 0, 1, c, ldc, cmode) != 0)
        RT(ops)->fail(ops->ctx);
}

/* T (k x k upper triangular, its strictly lower part undefined) into
 * dense scratch with zeros below the diagonal, for plain products. */
static int dense_upper(const GL_FN(ops) *ops, lapack_int k, const gl_scalar *t,
                       lapack_int ldt, gl_scalar *dst)
{
    int upper = 2;   /* gl_unpack_v's triangle mode: one launch */
    gl_arg args[] = {VAL(upper), VAL(k), VAL(k), MEM(t), VAL(ldt), MEM(dst),
                     VAL(k)};
    return launch_2d(ops, GL_K_UNPACK_V, k, k, NARGS(args), args);
}

/* B = alpha op(A) B or alpha B op(A), A triangular: the product into a
 * scratch matrix, then copied back.  An upper non-unit A (the T of a
 * block reflector, the only kind the drivers pass) is made dense first,
 * so that the product is a plain GEMM (the vendor's). */
/* gl_s_dev_trmm gl_d_dev_trmm gl_c_dev_trmm gl_z_dev_trmm */
void GL_FN(dev_trmm)(const GL_FN(ops) *ops, char side, char uplo, char transa,
                     char diag, lapack_int m, lapack_int n, gl_scalar alpha,
                     const gl_scalar *a, lapack_int lda, gl_scalar *b,
                     lapack_int ldb)
{
    if (m <= 0 || n <= 0)
        return;
    int tri = (uplo == 'U' ? GM_UPPER : GM_LOWER) | (diag == 'U' ? GM_UNIT : 0);
    lapack_int ka = side == 'L' ? m : n;
    int dense = uplo == 'U' && diag == 'N';
    size_t mn = (size_t)m * (size_t)n;
    gl_scalar *w =
        RT(ops)->alloc(ops->ctx, ES * (mn + (dense ? (size_t)ka * ka : 0)));
    int rc = w ? 0 : -1;
    if (rc == 0 && dense) {
        rc = dense_upper(ops, ka, a, lda, w + mn);
        a = w + mn;
        lda = ka;
        tri = 0;
    }
    if (rc == 0)
        rc = side == 'L'
                 ? GL_FN(gemm_modes)(ops, transa, 'N', m, n, m, alpha, a, lda,
                                     tri, b, ldb, 0, 0, w, m, 0)
                 : GL_FN(gemm_modes)(ops, 'N', transa, m, n, n, alpha, b, ldb,
                                     0, a, lda, tri, 0, w, m, 0);
    if (rc != 0 || RT(ops)->copy(ops->ctx, ES, (size_t)m, (size_t)n, w,
                                 (size_t)m, b, (size_t)ldb) != 0)
        RT(ops)->fail(ops->ctx);
    RT(ops)->release(ops->ctx, w);
}

/* ?larfb: side 'L': C = op(H) C = C - V' op(T) (V'^H C); side 'R':
 * C op(H) = C - (C V') op(T) V'^H, with V' = V (storev 'C', unit lower
 * trapezoidal) or V^H (storev 'R', unit upper rows), op(T) = T ('N') or
 * T^H ('C').  V' and T are first made dense, with their zeros and ones,
 * so that all three products are plain GEMMs: the vendor's where it is
 * there (most of stage 1's flops are here). */
/* gl_s_dev_larfb gl_d_dev_larfb gl_c_dev_larfb gl_z_dev_larfb */
int GL_FN(dev_larfb)(const GL_FN(ops) *ops, char side, char trans, char storev,
                     lapack_int m, lapack_int n, lapack_int k,
                     const gl_scalar *v, lapack_int ldv, const gl_scalar *t,
                     lapack_int ldt, gl_scalar *c, lapack_int ldc)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return 0;
    lapack_int len = side == 'L' ? m : n;   /* V' is len x k */
    lapack_int wr = side == 'L' ? k : m, wc = side == 'L' ? n : k;
    size_t wsize = (size_t)wr * (size_t)wc;
    gl_scalar *w = RT(ops)->alloc(
        ops->ctx, ES * GL_LARFB_SCRATCH(len, side == 'L' ? n : m, k));
    if (!w)
        return -1;
    gl_scalar *w2 = w + wsize, *vd = w2 + wsize, *td = vd + (size_t)len * k;
    char top = trans == 'N' ? 'N' : 'C';
    GL_FN(dev_unpack_v)(ops, storev, len, k, v, ldv, vd, len);
    int rc = dense_upper(ops, k, t, ldt, td);
    if (rc == 0 && side == 'L')   /* W = V'^H C, W2 = op(T) W, C -= V' W2 */
        rc = GL_FN(gemm_modes)(ops, 'C', 'N', k, n, m, 1, vd, len, 0, c, ldc,
                               0, 0, w, k, 0) ||
             GL_FN(gemm_modes)(ops, top, 'N', k, n, k, 1, td, k, 0, w, k, 0, 0,
                               w2, k, 0) ||
             GL_FN(gemm_modes)(ops, 'N', 'N', m, n, k, -1, vd, len, 0, w2, k,
                               0, 1, c, ldc, 0);
    else if (rc == 0)   /* W = C V', W2 = W op(T), C -= W2 V'^H */
        rc = GL_FN(gemm_modes)(ops, 'N', 'N', m, k, n, 1, c, ldc, 0, vd, len,
                               0, 0, w, m, 0) ||
             GL_FN(gemm_modes)(ops, 'N', top, m, k, k, 1, w, m, 0, td, k, 0, 0,
                               w2, m, 0) ||
             GL_FN(gemm_modes)(ops, 'N', 'C', m, n, k, -1, w2, m, 0, vd, len,
                               0, 1, c, ldc, 0);
    RT(ops)->release(ops->ctx, w);
    return rc ? -1 : 0;
}
/* E_i -= Y_i (V_i^H E_i) block after block: two products each (the
 * zeros of V and Y are multiplied: a GEMM of the whole block is faster on
 * a GPU than two of its parts).  Consecutive blocks of one shape whose
 * rows lie equally spaced and apart (a wave of backtransform.c's device
 * order) commute: such a run is one pair of batched products. */

/* The length of the run from block i, at most longest. */
static lapack_int wy_run(lapack_int nblocks, const lapack_int *row0,
                         const lapack_int *rows, const lapack_int *k,
                         lapack_int i, lapack_int longest)
{
    lapack_int run = 1;
    lapack_int gap = i + 1 < nblocks ? row0[i + 1] - row0[i] : 0;
    while (gap >= rows[i] && run < longest && i + run < nblocks &&
           k[i + run] == k[i] && rows[i + run] == rows[i] &&
           row0[i + run] - row0[i + run - 1] == gap)
        run++;
    return run;
}

/* gl_s_dev_apply_wy gl_d_dev_apply_wy gl_c_dev_apply_wy gl_z_dev_apply_wy */
int GL_FN(dev_apply_wy)(const GL_FN(ops) *ops, lapack_int nblocks,
                        const lapack_int *row0, const lapack_int *rows,
                        const lapack_int *k, const gl_scalar *vh,
                        const gl_scalar *y, lapack_int ldy, size_t stride,
                        lapack_int band, int y_banded, lapack_int ncols,
                        gl_scalar *e, lapack_int lde)
{
    (void)band, (void)y_banded;
    lapack_int kmax = 0;
    for (lapack_int i = 0; i < nblocks; i++)
        kmax = k[i] > kmax ? k[i] : kmax;
    if (kmax == 0 || ncols <= 0)
        return 0;
    size_t per = ES * (size_t)kmax * (size_t)ncols;
    lapack_int longest =
                   (lapack_int)(gl_wy_scratch_bytes(ES * (size_t)lde *
                                                    (size_t)ncols) /
                                per),
               most = 1;
    longest = longest < 1 ? 1 : longest;
    for (lapack_int i = 0, run; i < nblocks; i += run) {
        run = wy_run(nblocks, row0, rows, k, i, longest);
        most = run > most ? run : most;
    }
    gl_scalar *w = RT(ops)->alloc(ops->ctx, per * (size_t)most);
    if (!w)
        return -1;
    int rc = 0;
    for (lapack_int i = 0, run; i < nblocks && rc == 0; i += run) {
        run = wy_run(nblocks, row0, rows, k, i, longest);
        if (k[i] == 0 || rows[i] == 0)
            continue;
        size_t gap = run > 1 ? (size_t)(row0[i + 1] - row0[i]) : 0;
        size_t wk = (size_t)k[i] * (size_t)ncols;
        gl_scalar *ei = e + row0[i];
        rc =
            gemm_batch(ops, 'N', 'N', k[i], ncols, rows[i], 1, vh + i * stride,
                       k[i], 0, stride, ei, lde, 0, gap, 0, w, k[i], 0, wk,
                       run) ||
            gemm_batch(ops, 'N', 'N', rows[i], ncols, k[i], -1, y + i * stride,
                       ldy, 0, stride, w, k[i], 0, wk, 1, ei, lde, 0, gap, run);
    }
    RT(ops)->release(ops->ctx, w);
    return rc ? -1 : 0;
}

/* WY_THREADS and WY_MAX of kernels/device/wy.h */
enum { WY_THREADS = 128, WY_MAX = 256 };

/* gl_s_dev_wy_build gl_d_dev_wy_build gl_c_dev_wy_build gl_z_dev_wy_build */
int GL_FN(dev_wy_build)(const GL_FN(ops) *ops, lapack_int nblocks,
                        const lapack_int *blocks, lapack_int kmax,
                        const gl_scalar *vstore, const gl_scalar *taustore,
                        lapack_int b, lapack_int ldv, size_t stride,
                        int forward, gl_scalar *vh, gl_scalar *y)
{
    if (nblocks <= 0)
        return 0;
    if (kmax > WY_MAX)
        return -1;
    int ib = (int)b, ld = (int)ldv, fw = forward;
    long long st = (long long)stride;   /* the kernel's gl_long */
    gl_arg args[] = {VAL(ib),     VAL(ld),       VAL(st),
                     VAL(fw),     MEM(vstore),   MEM(taustore),
                     GL_MEM(blocks, sizeof *blocks), MEM(vh), MEM(y)};
    size_t groups = (size_t)nblocks, local = WY_THREADS;
    return RT(ops)->launch(ops->ctx, GL_PRECISION, GL_K_WY_BUILD, 1, &groups,
                           &local, NARGS(args), args);
}

/* C (m x n) = op(A) B (B k x n) of real device arrays, on the vendor's
 * GEMM or the portable kernel. */
static int real_gemm(const GL_FN(ops) *ops, int ta, lapack_int m, lapack_int n,
                     lapack_int k, const gl_real *a, lapack_int lda,
                     const gl_real *b, lapack_int ldb, gl_real *c,
                     lapack_int ldc)
{
    gl_real one = 1, zero = 0;
    int rc = RT(ops)->blas_gemm(ops->ctx, REAL_PRECISION, ta, 0, (size_t)m,
                                (size_t)n, (size_t)k, &one, a, (size_t)lda, b,
                                (size_t)ldb, &zero, c, (size_t)ldc);
    if (rc > 0)   /* no vendor BLAS */
        rc = kernel_gemm(ops, REAL_PRECISION, RS, ta, 0, m, n, k, &one, a, lda,
                         0, 0, b, ldb, 0, 0, &zero, c, ldc, 0, 0, 1);
    return rc;
}

/* C = op(A) B of real host arrays in blocks of rows of C: op(A)'s rows
 * i0.. (rows x k) go up once, then each block of columns of B (k x
 * cols), and C's block comes back.  t: the block side. */
static int tiled_real_product(const GL_FN(ops) *ops, int ta, lapack_int m,
                              lapack_int n, lapack_int k, const gl_real *a,
                              lapack_int lda, const gl_real *b, lapack_int ldb,
                              gl_real *c, lapack_int ldc, lapack_int t)
{
    size_t ts = (size_t)t, ks = (size_t)k;
    gl_real *da = RT(ops)->alloc(ops->ctx, RS * ts * ks),
            *db = RT(ops)->alloc(ops->ctx, RS * ks * ts),
            *dc = RT(ops)->alloc(ops->ctx, RS * ts * ts);
    int rc = da && db && dc ? 0 : -1;
    for (lapack_int i0 = 0; i0 < m && rc == 0; i0 += t) {
        lapack_int rows = m - i0 < t ? m - i0 : t;
        /* op(A)'s rows i0..: A's rows, or for A^T its columns */
        const gl_real *ai = ta ? a + (size_t)i0 * lda : a + i0;
        rc = ta ? RT(ops)->write(ops->ctx, RS, ks, (size_t)rows, ai,
                                 (size_t)lda, da, ks)
                : RT(ops)->write(ops->ctx, RS, (size_t)rows, ks, ai,
                                 (size_t)lda, da, (size_t)rows);
        for (lapack_int j0 = 0; j0 < n && rc == 0; j0 += t) {
            lapack_int cols = n - j0 < t ? n - j0 : t;
            if (RT(ops)->write(ops->ctx, RS, ks, (size_t)cols,
                               b + (size_t)j0 * ldb, (size_t)ldb, db, ks) ||
                real_gemm(ops, ta, rows, cols, k, da, ta ? k : rows, db, k,
                          dc, rows) ||
                RT(ops)->read_direct(ops->ctx, RS, (size_t)rows, (size_t)cols,
                                     dc, (size_t)rows,
                                     c + i0 + (size_t)j0 * ldc, (size_t)ldc))
                rc = -1;
        }
    }
    RT(ops)->release(ops->ctx, da);
    RT(ops)->release(ops->ctx, db);
    RT(ops)->release(ops->ctx, dc);
    return rc == 0 ? 0 : -1;
}

/* gl_s_tiled_product_device_bytes gl_d_tiled_product_device_bytes gl_c_tiled_product_device_bytes gl_z_tiled_product_device_bytes */
size_t GL_FN(tiled_product_device_bytes)(lapack_int n, lapack_int t)
{
    /* the largest product of the merges: k and the blocks at most n */
    size_t ts = (size_t)(t < n ? t : n), ns = (size_t)n;
    return RS * (2 * ts * ns + ts * ts);
}

/* C = op(A) B of real host arrays (ops.h real_product): whole, or in
 * blocks (tiled_real_product) of the table's product_tile columns: a
 * plan that keeps the call's working set in host memory (lean,
 * streamed), whose device holds the chase's reflectors meanwhile. */
/* gl_s_dev_real_product gl_d_dev_real_product gl_c_dev_real_product gl_z_dev_real_product */
int GL_FN(dev_real_product)(const GL_FN(ops) *ops, char transa, lapack_int m,
                            lapack_int n, lapack_int k, const gl_real *a,
                            lapack_int lda, const gl_real *b, lapack_int ldb,
                            gl_real *c, lapack_int ldc)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return m > 0 && n > 0 ? -1 : 0;   /* k = 0 is never asked for */
    int ta = trans_code(transa);
    if (ops->product_tile > 0) {
        lapack_int most = m > n ? m : n;
        return tiled_real_product(ops, ta, m, n, k, a, lda, b, ldb, c, ldc,
                                  ops->product_tile < most ? ops->product_tile
                                                           : most);
    }
    size_t ar = (size_t)(ta ? k : m), ac = (size_t)(ta ? m : k);
    gl_real *da = RT(ops)->alloc(ops->ctx, RS * ar * ac),
            *db = RT(ops)->alloc(ops->ctx, RS * (size_t)k * (size_t)n),
            *dc = RT(ops)->alloc(ops->ctx, RS * (size_t)m * (size_t)n);
    int rc = -1;
    if (da && db && dc &&
        RT(ops)->write(ops->ctx, RS, ar, ac, a, (size_t)lda, da, ar) == 0 &&
        RT(ops)->write(ops->ctx, RS, (size_t)k, (size_t)n, b, (size_t)ldb, db,
                       (size_t)k) == 0 &&
        real_gemm(ops, ta, m, n, k, da, (lapack_int)ar, db, k, dc, m) == 0)
        /* c: the pipeline's own array (ops.h) */
        rc = RT(ops)->read_direct(ops->ctx, RS, (size_t)m, (size_t)n, dc,
                                  (size_t)m, c, (size_t)ldc);
    RT(ops)->release(ops->ctx, da);
    RT(ops)->release(ops->ctx, db);
    RT(ops)->release(ops->ctx, dc);
    return rc == 0 ? 0 : -1;
}
/* gl_s_dev_real_gemm gl_d_dev_real_gemm gl_c_dev_real_gemm gl_z_dev_real_gemm */
int GL_FN(dev_real_gemm)(const GL_FN(ops) *ops, char transa, lapack_int m,
                         lapack_int n, lapack_int k, const gl_real *a,
                         lapack_int lda, const gl_real *b, lapack_int ldb,
                         gl_real *c, lapack_int ldc)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (k <= 0)
        return GL_FN(dev_real_fill)(ops, m, n, 0, c, ldc);
    return real_gemm(ops, trans_code(transa), m, n, k, a, lda, b, ldb, c, ldc);
}
