/* Stage 1 for the SVD: dense -> upper band by block QR and LQ sweeps.
 *
 * One step at a time (a block of b columns, the host's order): each QR
 * panel's Q^H and each LQ panel's Q from the right go to the rest of the
 * matrix at once by ?larfb, two products of inner size b each.  Each
 * panel lies in the first lines of the update before it, which brings
 * those up to date first and, on the host, factors the panel beside the
 * rest of the update (lookahead: ops.h larfb_ahead).  Where the backend
 * has ops.h ge_update_ahead (the host), each update comes with the next
 * panel's product in one pass over the rest of the matrix, the updates
 * as rank-b products of those (ge2gb_fused_steps).
 *
 * Double-blocked (the two-sided scheme of "Improving Tridiagonalization
 * Performance on GPU Architectures" carried over to the bidiagonal
 * reduction, as LAPACK's ?labrd does for single columns): over a block of
 * steps the rest of the matrix stays as the block found it, A_stale, and
 * the current matrix is A = A_stale - L R^H, L and R collecting each
 * step's left update V Y^H (Y = A^H V T) and right update X W^H
 * (W = the LQ's rows conjugate-transposed, X = A W T).  A step brings its
 * block column, then its block row, up to date before factoring them and
 * computes Y and X from A_stale with the corrections of L and R; the
 * block's end applies L R^H to the rest as one product of inner size
 * twice the block. */
#include "../../runtime/context.h"
#include "../../runtime/precision.h"
#include "stages.h"
#include "../tiers/peers.h"
#include "../backend/gpu_ops.h"

#define A(i, j) (a + (size_t)(i) + (size_t)(j) * lda)

/* The T factor of the panel at column k: kept in tq (tp), or scratch. */
static gl_scalar *panel_t(gl_scalar *keep, lapack_int k, lapack_int b,
                          gl_scalar *scratch)
{
    return keep ? keep + (size_t)k * b : scratch;
}

/* A step's panels, each factored beside the update before it (ops.h
 * larfb_ahead, ge_update_ahead): the QR of block column k,
 * A(k:m, k:k+pk) = Q R, and the LQ of block row k right of the band,
 * A(k:k+b, k+b:n) = L Q; where v is set, with what the next update's
 * products need (ld ldv): the QR's V and Z = V T (into z), the LQ's
 * W = V^H. */
typedef struct ge2gb_panel {
    lapack_int m, n, b, k;
    gl_scalar *a, *t;
    lapack_int lda, ldv;
    gl_scalar *v, *z;
} ge2gb_panel;

static int column_panel(const GL_FN(ops) *ops, void *arg)
{
    const ge2gb_panel *p = arg;
    lapack_int k = p->k, pk = p->n - k < p->b ? p->n - k : p->b, lda = p->lda;
    gl_scalar *a = p->a;
    int rc = ops->geqrt(ops, p->m - k, pk, A(k, k), lda, p->t, p->b);
    if (rc == 0 && p->v) {
        ops->unpack_v(ops, 'C', p->m - k, pk, A(k, k), lda, p->v, p->ldv);
        ops->unpack_v(ops, 'C', p->m - k, pk, A(k, k), lda, p->z, p->ldv);
        ops->trmm(ops, 'R', 'U', 'N', 'N', p->m - k, pk, 1, p->t, p->b, p->z,
                  p->ldv);
    }
    return rc;
}

/* A short last block row (fewer columns than rows) factors its first kk
 * rows, Q^H on the others. */
static int row_panel(const GL_FN(ops) *ops, void *arg)
{
    const ge2gb_panel *p = arg;
    lapack_int k = p->k, b = p->b, q = p->n - k - b, kk = b < q ? b : q,
               lda = p->lda;
    gl_scalar *a = p->a;
    int rc = ops->gelqt(ops, kk, q, A(k, k + b), lda, p->t, b);
    if (rc == 0 && kk < b)
        rc = ops->larfb(ops, 'R', 'N', 'R', b - kk, q, kk, A(k, k + b), lda,
                        p->t, b, A(k + kk, k + b), lda);
    if (rc == 0 && p->v)
        ops->unpack_v(ops, 'R', q, kk, A(k, k + b), lda, p->v, p->ldv);
    return rc;
}

/* scratch: two T factors (b x b each) where they are not kept, the QR's
 * and the LQ's: the next QR runs beside the LQ's update */
static int ge2gb_steps(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                       lapack_int b, gl_scalar *a, lapack_int lda,
                       gl_scalar *tq, gl_scalar *tp, gl_scalar *scratch)
{
    ge2gb_panel qr = {.m = m,
                      .n = n,
                      .b = b,
                      .k = 0,
                      .a = a,
                      .lda = lda,
                      .t = panel_t(tq, 0, b, scratch)};
    int rc = column_panel(ops, &qr);
    for (lapack_int k = 0; k < n && rc == 0; k += b) {
        /* block column k's Q^H on the columns to its right */
        lapack_int pk = n - k < b ? n - k : b;
        gl_scalar *t = panel_t(tq, k, b, scratch);
        if (k + b >= n) { /* no block row right of the band */
            rc = ops->larfb(ops, 'L', 'C', 'C', m - k, n - k - pk, pk, A(k, k),
                            lda, t, b, A(k, k + pk), lda);
            break;
        }
        /* block row k's LQ beside the rows below it; then its Q from the
         * right on those rows, the next block column's QR beside the
         * columns right of it */
        ge2gb_panel lq = qr;
        lq.t = panel_t(tp, k, b, scratch + (size_t)b * b);
        rc = GL_FN(ops_larfb_then)(ops, 'L', 'C', 'C', m - k, n - k - pk, pk,
                                   A(k, k), lda, t, b, A(k, k + pk), lda,
                                   row_panel, &lq);
        if (rc != 0)
            break;
        lapack_int q = n - k - b, kk = b < q ? b : q;
        qr.k = k + b;
        qr.t = panel_t(tq, k + b, b, scratch);
        rc = GL_FN(ops_larfb_then)(ops, 'R', 'N', 'R', m - k - b, q, kk,
                                   A(k, k + b), lda, lq.t, b, A(k + b, k + b),
                                   lda, column_panel, &qr);
    }
    return rc;
}

/* ge2gb_steps with each update and the next panel's product in one pass
 * over the rest of the matrix (ops.h ge_update_ahead): block column k's
 * left update C -= V Y^H (Y = C^H V T) with block row k's X = C2 W
 * (W = V2^H of its LQ, C2 the rows below it), then the LQ's right update
 * C2 -= (X T2) W^H with the next block column's Y = C3^H V' T' (C3 the
 * columns right of it).  work: V, X and Z = V T (m x b), Y and W
 * (n x b). */
static int ge2gb_fused_steps(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                             lapack_int b, gl_scalar *a, lapack_int lda,
                             gl_scalar *tq, gl_scalar *tp, gl_scalar *scratch,
                             gl_scalar *work)
{
    lapack_int ldl = m, ldr = n;
    gl_scalar *vl = work, *xl = vl + (size_t)m * b, *zl = xl + (size_t)m * b,
              *yr = zl + (size_t)m * b, *wr = yr + (size_t)n * b;
    ge2gb_panel qr = {.m = m,
                      .n = n,
                      .b = b,
                      .a = a,
                      .lda = lda,
                      .t = panel_t(tq, 0, b, scratch),
                      .ldv = ldl,
                      .v = vl,
                      .z = zl};
    int rc = column_panel(ops, &qr);
    if (rc != 0 || n <= b)
        return rc;
    ops->gemm(ops, 'C', 'N', n - b, b, m, 1, A(0, b), lda, zl, ldl, 0, yr,
              ldr);
    /* each step: block column k factored, its V (rows from k) and Y
     * (columns from k + b) in vl and yr, a block row right of it */
    for (lapack_int k = 0;; k += b) {
        lapack_int q = n - k - b, kk = b < q ? b : q;
        ge2gb_panel lq = qr;
        lq.k = k;
        lq.t = panel_t(tp, k, b, scratch + (size_t)b * b);
        lq.v = wr;
        lq.ldv = ldr;
        rc = GL_FN(ops_ge_update_then)(ops, 'R', m - k, q, b, vl, ldl, yr, ldr,
                                       A(k, k + b), lda, b, row_panel, &lq, kk,
                                       wr, ldr, xl, ldl);
        if (rc != 0)
            return rc;
        ops->trmm(ops, 'R', 'U', 'N', 'N', m - k - b, kk, 1, lq.t, b, xl, ldl);
        qr.k = k + b;
        qr.t = panel_t(tq, k + b, b, scratch);
        if (q <= b) { /* the last block column: nothing right of it */
            ops->gemm(ops, 'N', 'C', m - k - b, q, kk, -1, xl, ldl, wr, ldr, 1,
                      A(k + b, k + b), lda);
            qr.v = NULL;
            return column_panel(ops, &qr);
        }
        rc = GL_FN(ops_ge_update_then)(ops, 'C', m - k - b, q, kk, xl, ldl, wr,
                                       ldr, A(k + b, k + b), lda, b,
                                       column_panel, &qr, b, zl, ldl, yr, ldr);
        if (rc != 0)
            return rc;
    }
}

/* One factor of a step's update from A_stale and the corrections:
 * out (rows x k) = (op(A_stale) P - O (I^H P)) T, with op 'C' (Y = A^H V
 * T: P = V, I = L, O = R) or 'N' (X = A W T: P = W, I = R, O = L); the
 * inner dimension `len` is P's rows, `used` the columns of L and R so
 * far, z (used x k) scratch. */
static void stale_product(const GL_FN(ops) *ops, char op, lapack_int rows,
                          lapack_int len, lapack_int k, const gl_scalar *stale,
                          lapack_int lda, const gl_scalar *p, lapack_int ldp,
                          const gl_scalar *in, lapack_int ldi,
                          const gl_scalar *o, lapack_int ldo, lapack_int used,
                          const gl_scalar *t, lapack_int ldt, gl_scalar *z,
                          gl_scalar *out, lapack_int ldout)
{
    ops->gemm(ops, op, 'N', rows, k, len, 1, stale, lda, p, ldp, 0, out, ldout);
    if (used > 0) {
        ops->gemm(ops, 'C', 'N', used, k, len, 1, in, ldi, p, ldp, 0, z, used);
        ops->gemm(ops, 'N', 'N', rows, k, used, -1, o, ldo, z, used, 1, out,
                  ldout);
    }
    ops->trmm(ops, 'R', 'U', 'N', 'N', rows, k, 1, t, ldt, out, ldout);
}

/* Steps of b columns whose updates the rest of the matrix takes
 * together: `block` columns' (rounded down to whole steps). */
static lapack_int block_steps(lapack_int n, lapack_int b, lapack_int block)
{
    lapack_int steps = block / b > 1 ? block / b : 1;
    return steps > (n + b - 1) / b ? (n + b - 1) / b : steps;
}

/* ge2gb's work: L (m x 2 block) and R (n x 2 block), rows from the
 * block's first row and column; Z (2 block x b); the T factors when not
 * kept (two: ge2gb_steps). */
static size_t work_scalars(lapack_int m, lapack_int n, lapack_int b,
                           lapack_int block)
{
    lapack_int steps = block_steps(n, b, block);
    size_t cols = 2 * (size_t)steps * (size_t)b;
    size_t words = 2 * (size_t)b * (size_t)b;
    if (steps > 1)
        words += cols * ((size_t)m + (size_t)n + (size_t)b);
    return words;
}

/* gl_s_ge2gb_device_bytes gl_d_ge2gb_device_bytes gl_c_ge2gb_device_bytes gl_z_ge2gb_device_bytes */
size_t GL_FN(ge2gb_device_bytes)(lapack_int m, lapack_int n, lapack_int b,
                                 lapack_int block)
{
    if (b < 1)
        return 0;
    /* the operations' own scratch: a panel's block reflector applied to
     * the rest of its block row or column (larfb) */
    size_t longest = (size_t)(m > n ? m : n);
    return sizeof(gl_scalar) * (work_scalars(m, n, b, block) +
                                GL_LARFB_SCRATCH(longest, longest, b));
}

static int ge2gb_here(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                      lapack_int b, lapack_int block, gl_scalar *a,
                      lapack_int lda, gl_scalar *tq, gl_scalar *tp);

/* gl_s_ge2gb gl_d_ge2gb gl_c_ge2gb gl_z_ge2gb */
int GL_FN(ge2gb)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                 lapack_int b, lapack_int block, lapack_int tile,
                 gl_scalar *a, lapack_int lda, gl_scalar *tq, gl_scalar *tp)
{
    /* a set of devices shares the updates (stage1_peers.c) */
    gl_ctx *ctx = ops->ctx;
    if (ctx && ctx->npeers > 0 && tile > 0 && !ops->host_memory) {
        int rc = GL_FN(ge2gb_split)(ops, m, n, b, block, tile, a, lda, tq,
                                    tp);
        if (rc != 1)
            return rc;
    }
    GL_FN(ops) table;
    const GL_FN(ops) *run = GL_FN(ops_products_begin)(ops, n, &table);
    int rc = ge2gb_here(run, m, n, b, block, a, lda, tq, tp);
    GL_FN(ops_products_end)(run);
    return rc;
}

/* ge2gb on one device, or the host */
static int ge2gb_here(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                      lapack_int b, lapack_int block, gl_scalar *a,
                      lapack_int lda, gl_scalar *tq, gl_scalar *tp)
{
    lapack_int steps = block_steps(n, b, block);
    size_t cols = 2 * (size_t)steps * (size_t)b;
    size_t words = work_scalars(m, n, b, block);
    gl_scalar *work = NULL;
    if (steps > 1 || !tq || !tp) {
        work = ops->alloc(ops, sizeof *work * words);
        if (!work)
            return GL_STAGE_FAULT;
    }
    gl_scalar *scratch = work;
    int rc;
    if (steps == 1) {
        /* V, X and Z = V T (m x b), Y and W (n x b) where the backend
         * fuses the updates with the products */
        gl_scalar *fused =
            ops->ge_update_ahead
                ? ops->alloc(ops, sizeof *fused *
                                      (3 * (size_t)m + 2 * (size_t)n) *
                                      (size_t)b)
                : NULL;
        rc = fused ? ge2gb_fused_steps(ops, m, n, b, a, lda, tq, tp, scratch,
                                       fused)
                   : ge2gb_steps(ops, m, n, b, a, lda, tq, tp, scratch);
        ops->release(ops, fused);
        ops->release(ops, work);
        return rc == 0 ? 0 : GL_STAGE_FAULT;
    }
    gl_scalar *l = scratch + 2 * (size_t)b * b, *r = l + cols * (size_t)m,
              *z = r + cols * (size_t)n;
    lapack_int ldl = m, ldr = n;
    rc = 0;
    for (lapack_int k0 = 0; k0 < n && rc == 0; k0 += steps * b) {
#define L(i, c) (l + (size_t)((i) - k0) + (size_t)(c) * ldl)
#define R(j, c) (r + (size_t)((j) - k0) + (size_t)(c) * ldr)
        lapack_int used = 0, k = k0;
        for (lapack_int s = 0; s < steps && k < n && rc == 0; s++, k += b) {
            lapack_int pk = n - k < b ? n - k : b;
            /* block column k up to date, then its QR */
            if (used > 0)
                ops->gemm(ops, 'N', 'C', m - k, pk, used, -1, L(k, 0), ldl,
                          R(k, 0), ldr, 1, A(k, k), lda);
            gl_scalar *t = panel_t(tq, k, b, scratch);
            rc = ops->geqrt(ops, m - k, pk, A(k, k), lda, t, b);
            if (rc != 0)
                break;
            if (k + pk >= n) {   /* the last column: nothing right of it */
                k = n;
                break;
            }
            /* V into L, Y = A^H V T (columns right of the panel) into R */
            ops->unpack_v(ops, 'C', m - k, pk, A(k, k), lda, L(k, used), ldl);
            stale_product(ops, 'C', n - k - pk, m - k, pk, A(k, k + pk), lda,
                          L(k, used), ldl, L(k, 0), ldl, R(k + pk, 0), ldr,
                          used, t, b, z, R(k + pk, used), ldr);
            used += pk;
            /* block row k right of the band up to date (this step's V Y^H
             * included), then its LQ; a short last block row factors its
             * first kk rows, Q^H on the others */
            lapack_int q = n - k - b, kk = b < q ? b : q;
            ops->gemm(ops, 'N', 'C', b, q, used, -1, L(k, 0), ldl, R(k + b, 0),
                      ldr, 1, A(k, k + b), lda);
            t = panel_t(tp, k, b, scratch);
            rc = ops->gelqt(ops, kk, q, A(k, k + b), lda, t, b);
            if (rc == 0 && kk < b)
                rc = ops->larfb(ops, 'R', 'N', 'R', b - kk, q, kk, A(k, k + b),
                                lda, t, b, A(k + kk, k + b), lda);
            if (rc != 0)
                break;
            /* W into R, X = A W T (rows below the block row) into L */
            ops->unpack_v(ops, 'R', q, kk, A(k, k + b), lda, R(k + b, used),
                          ldr);
            stale_product(ops, 'N', m - k - b, q, kk, A(k + b, k + b), lda,
                          R(k + b, used), ldr, R(k + b, 0), ldr, L(k + b, 0),
                          ldl, used, t, b, z, L(k + b, used), ldl);
            used += kk;
        }
        /* the block's updates together on the rest, from row and column
         * k, the next block's first */
        if (rc == 0 && k < n && used > 0)
            ops->gemm(ops, 'N', 'C', m - k, n - k, used, -1, L(k, 0), ldl,
                      R(k, 0), ldr, 1, A(k, k), lda);
#undef L
#undef R
    }
    ops->release(ops, work);
    return rc == 0 ? 0 : GL_STAGE_FAULT;
}
