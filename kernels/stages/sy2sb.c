/* Stage 1 for the Hermitian eigenproblem: dense -> lower band.
 *
 * Double-blocked ("Improving Tridiagonalization Performance on GPU
 * Architectures"): the panels stay b columns wide, so the band (and the
 * chase after it) stays narrow, but the trailing matrix takes their
 * two-sided updates together, one rank-2k update of k = block columns
 * instead of one of k = b per panel.  Between those updates the trailing
 * matrix is stale: each panel is brought up to date before its QR, and its
 * product X = A V T is computed from the stale matrix and corrected with
 * the updates it has not yet received.  A block of b columns is LAPACK's
 * single-blocked ?sytrd_sy2sb order.  The next block's first panel lies
 * in the first columns of the block's update, which brings those up to
 * date first and, on the host, factors the panel beside the rest of the
 * update (lookahead: ops.h her2k_ahead), or the panel's product X = A22 S
 * comes out of the same pass over the trailing matrix as the update
 * (ops.h her2k_hemm_ahead). */
#include "../../runtime/context.h"
#include "../../runtime/precision.h"
#include "stages.h"
#include "../tiers/peers.h"

#define A(i, j) (a + (size_t)(i) + (size_t)(j) * lda)

/* gl_s_sy2sb_panel_w gl_d_sy2sb_panel_w gl_c_sy2sb_panel_w gl_z_sy2sb_panel_w */
void GL_FN(sy2sb_panel_w)(const GL_FN(ops) *ops, lapack_int pn, lapack_int kk,
                          lapack_int acc, const gl_scalar *va,
                          gl_scalar *wa, lapack_int ldw,
                          const gl_scalar *s, gl_scalar *mm, lapack_int ldm)
{
    const gl_scalar *v = va + (size_t)acc * ldw;
    gl_scalar *x = wa + (size_t)acc * ldw;
    if (acc > 0) {
        ops->gemm(ops, 'C', 'N', acc, kk, pn, 1, wa, ldw, s, ldw, 0, mm, ldm);
        ops->gemm(ops, 'N', 'N', pn, kk, acc, -1, va, ldw, mm, ldm, 1, x, ldw);
        ops->gemm(ops, 'C', 'N', acc, kk, pn, 1, va, ldw, s, ldw, 0, mm, ldm);
        ops->gemm(ops, 'N', 'N', pn, kk, acc, -1, wa, ldw, mm, ldm, 1, x, ldw);
    }
    ops->gemm(ops, 'C', 'N', kk, kk, pn, 1, s, ldw, x, ldw, 0, mm, ldm);
    ops->gemm(ops, 'N', 'N', pn, kk, kk, -0.5, v, ldw, mm, ldm, 1, x, ldw);
}

/* S = V T of a panel (pn x kk, V below its band in place, T ld b) */
static void panel_s(const GL_FN(ops) *ops, lapack_int pn, lapack_int kk,
                    const gl_scalar *panel, lapack_int lda, const gl_scalar *t,
                    lapack_int b, gl_scalar *s, lapack_int lds)
{
    ops->unpack_v(ops, 'C', pn, kk, panel, lda, s, lds);
    ops->trmm(ops, 'R', 'U', 'N', 'N', pn, kk, 1, t, b, s, lds);
}

/* One panel's two-sided update, A22 := Q^H A22 Q with Q = I - V T V^H:
 * V (pn x kk, dense) and W = X - 1/2 V (S^H X), X = A22 S, S = V T, into
 * the columns of va and wa (ld ldw).  A22 is stale by the updates of the
 * acc columns before them in va and wa, rows aligned with A22's:
 * A22 = stale - VA WA^H - WA VA^H, so X = stale S - VA (WA^H S) -
 * WA (VA^H S).  s (pn x b) and mm (max(acc, b) x b) are scratch; with
 * x_ready, S and X are there already (the update before computed them,
 * ops.h her2k_hemm_ahead). */
static void panel_update(const GL_FN(ops) *ops, lapack_int pn, lapack_int kk,
                         const gl_scalar *stale, lapack_int lda,
                         const gl_scalar *panel, const gl_scalar *t,
                         lapack_int b, lapack_int acc, gl_scalar *va,
                         gl_scalar *wa, lapack_int ldw, gl_scalar *s,
                         gl_scalar *mm, int x_ready)
{
    gl_scalar *v = va + (size_t)acc * ldw, *x = wa + (size_t)acc * ldw;
    lapack_int ldm = acc > b ? acc : b;
    ops->unpack_v(ops, 'C', pn, kk, panel, lda, v, ldw);
    if (!x_ready) {
        panel_s(ops, pn, kk, panel, lda, t, b, s, ldw);
        ops->hemm(ops, 'L', 'L', pn, kk, 1, stale, lda, s, ldw, 0, x, ldw);
    }
    GL_FN(sy2sb_panel_w)(ops, pn, kk, acc, va, wa, ldw, s, mm, ldm);
}

/* sy2sb's work (below): VA, WA, S, M and the corrections' scratch. */
static size_t work_scalars(lapack_int n, lapack_int b, lapack_int block)
{
    size_t ldw = (size_t)(n - b);
    size_t cols = (size_t)(block / b > 1 ? block / b : 1) * (size_t)b;
    return (2 * cols + (size_t)b) * ldw + (cols + (size_t)b) * (size_t)b;
}

/* gl_s_sy2sb_device_bytes gl_d_sy2sb_device_bytes gl_c_sy2sb_device_bytes gl_z_sy2sb_device_bytes */
size_t GL_FN(sy2sb_device_bytes)(lapack_int n, lapack_int b, lapack_int block)
{
    if (n - b < 2 || b < 1)
        return 0;
    /* the operations' own scratch: a product of a panel's rows, b wide */
    return sizeof(gl_scalar) * (work_scalars(n, b, block) + (size_t)n * b);
}

/* A panel's QR below the band, A(k+b:n, k:k+b) = Q R, with its
 * reflectors' scalars, and S = V T where s is set: a step of its own,
 * which the update before it may run beside (ops.h her2k_ahead,
 * her2k_hemm_ahead).  A short last panel: QR of its first kk columns,
 * Q^H on the others. */
typedef struct sy2sb_panel {
    lapack_int n, b, k, lda, lds;
    gl_scalar *a, *t, *tau, *s;
} sy2sb_panel;

static int factor_panel(const GL_FN(ops) *ops, void *arg)
{
    const sy2sb_panel *p = arg;
    lapack_int n = p->n, b = p->b, k = p->k, lda = p->lda, pn = n - k - b,
               kk = pn < b ? pn : b;
    gl_scalar *a = p->a;
    int rc = ops->geqrt(ops, pn, kk, A(k + b, k), lda, p->t, b);
    if (rc == 0 && kk < b)
        rc = ops->larfb(ops, 'L', 'C', 'C', pn, b - kk, kk, A(k + b, k), lda,
                        p->t, b, A(k + b, k + kk), lda);
    /* T's diagonal holds the scalars of the panel's reflectors: read as
     * one row whose elements lie b + 1 apart */
    if (rc == 0 && p->tau)
        rc = ops->to_host(ops, 1, kk, p->t, b + 1, p->tau + k, 1);
    if (rc == 0 && p->s)
        panel_s(ops, pn, kk, A(k + b, k), lda, p->t, b, p->s, p->lds);
    return rc;
}

/* p's panel at column k, its T kept in tq or in scratch */
static sy2sb_panel panel_at(const sy2sb_panel *p, lapack_int k, gl_scalar *tq,
                            gl_scalar *scratch)
{
    sy2sb_panel at = *p;
    at.k = k;
    at.t = tq ? tq + (size_t)k * p->b : scratch;
    return at;
}

static int sy2sb_here(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                      lapack_int block, gl_scalar *a, lapack_int lda,
                      gl_scalar *tau, gl_scalar *tq);

/* gl_s_sy2sb gl_d_sy2sb gl_c_sy2sb gl_z_sy2sb */
int GL_FN(sy2sb)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 lapack_int block, lapack_int tile, gl_scalar *a,
                 lapack_int lda, gl_scalar *tau, gl_scalar *tq)
{
    if (n - b < 2)
        return 0;   /* already a band of half-width b */
    /* a set of devices shares the trailing updates (stage1_peers.c) */
    gl_ctx *ctx = ops->ctx;
    if (ctx && ctx->npeers > 0 && tile > 0 && !ops->host_memory) {
        int rc = GL_FN(sy2sb_split)(ops, n, b, block, tile, a, lda, tau, tq);
        if (rc != 1)
            return rc;
    }
    GL_FN(ops) table;
    const GL_FN(ops) *run = GL_FN(ops_products_begin)(ops, n, &table);
    int rc = sy2sb_here(run, n, b, block, a, lda, tau, tq);
    GL_FN(ops_products_end)(run);
    return rc;
}

/* sy2sb on one device, or the host */
static int sy2sb_here(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                      lapack_int block, gl_scalar *a, lapack_int lda,
                      gl_scalar *tau, gl_scalar *tq)
{
    /* VA and WA: the reflectors and W of a block's panels, b columns
     * each, rows from the first panel's band down (2 n block scalars: at
     * the tuned blocks of at most n / 32 columns, n^2 / 16); S = V T below
     * the current panel, M and the corrections' products. */
    lapack_int ldw = n - b;
    lapack_int panels = block / b > 1 ? block / b : 1;
    size_t cols = (size_t)panels * (size_t)b;
    gl_scalar *work = ops->alloc(ops, sizeof *work * work_scalars(n, b, block));
    if (!work)
        return GL_STAGE_FAULT;
    gl_scalar *va = work, *wa = va + cols * ldw, *s = wa + cols * ldw,
              *mm = s + (size_t)b * ldw, *scratch = mm + cols * (size_t)b;

    int rc = 0;
    sy2sb_panel first = {.n = n, .b = b, .lda = lda, .a = a, .tau = tau};
    /* the next block's first panel factored, its S and X computed, in and
     * beside the update before it */
    int ahead = 0;
    for (lapack_int k0 = 0; n - k0 - b >= 2 && rc == 0; k0 += panels * b) {
        /* rows of va/wa: the first panel's A22, from row k0 + b */
        lapack_int acc = 0, k = k0;
        for (lapack_int j = 0; j < panels && n - k - b >= 2 && rc == 0;
             j++, k += b) {
            lapack_int pn = n - k - b, kk = pn < b ? pn : b;
            lapack_int row = k - k0;   /* row k + b of A in va/wa */
            if (acc > 0) {
                /* bring the panel's columns up to date: its diagonal
                 * block (lower triangle) and the rows below it */
                const gl_scalar *vd = va + (row - b), *wd = wa + (row - b);
                ops->her2k(ops, 'L', 'N', b, acc, -1, vd, ldw, wd, ldw, 1,
                           A(k, k), lda);
                ops->gemm(ops, 'N', 'C', pn, b, acc, -1, va + row, ldw, wd, ldw,
                          1, A(k + b, k), lda);
                ops->gemm(ops, 'N', 'C', pn, b, acc, -1, wa + row, ldw, vd, ldw,
                          1, A(k + b, k), lda);
            }
            sy2sb_panel panel = panel_at(&first, k, tq, scratch);
            int ready = j == 0 && ahead;
            if (!ready)
                rc = factor_panel(ops, &panel);
            if (rc != 0)
                break;
            panel_update(ops, pn, kk, A(k + b, k + b), lda, A(k + b, k),
                         panel.t, b, acc, va + row, wa + row, ldw, s, mm,
                         ready);
            acc += kk;
        }
        /* the block's updates together on the rest: A(k:n, k:n), k the
         * row after the last panel's band (their rows in va/wa from
         * row k - k0 - b); the next block's first panel, in its first b
         * columns, beside the others, and its X = A22 S (into wa's first
         * columns, rows from k + b: WA is read before) with them */
        ahead = 0;
        if (rc == 0 && k < n) {
            const gl_scalar *vk = va + (k - k0 - b), *wk = wa + (k - k0 - b);
            if (n - k - b >= 2) {
                lapack_int pn = n - k - b, kk = pn < b ? pn : b;
                sy2sb_panel next = panel_at(&first, k, tq, scratch);
                next.s = s;
                next.lds = ldw;
                rc = GL_FN(ops_her2k_hemm_then)(
                    ops, n - k, acc, vk, ldw, wk, ldw, A(k, k), lda, b,
                    factor_panel, &next, kk, s, ldw, wa, ldw);
                ahead = 1;
            } else {
                ops->her2k(ops, 'L', 'N', n - k, acc, -1, vk, ldw, wk, ldw, 1,
                           A(k, k), lda);
            }
        }
    }
    ops->release(ops, work);
    return rc == 0 ? 0 : GL_STAGE_FAULT;
}
