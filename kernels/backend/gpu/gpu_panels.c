/* The GPU table's panel factorizations (part of gpu_ops): geqrt and
 * gelqt recursive over columns (rows for LQ), as ?geqrt3, down to leaves
 * of kernels/device/panel.h, a leaf with a long side in one launch of
 * many work-groups; and the values-only QR (geqrf). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "../../../runtime/precision.h"
#include "../../../runtime/fault.h"
#include "../../../runtime/log.h"
#include "../gpu_ops.h"
#include "launch.h"

/* The one-work-group panel kernels (the leaves of dev_geqrt/dev_gelqt),
 * PANEL_THREADS work-items: the group reduces along the panel's long side. */
static int launch_panel(const GL_FN(ops) *ops, gl_kernel k, int nargs,
                        const gl_arg *args)
{
    size_t groups = 1, local = PANEL_THREADS;
    return RT(ops)->launch(ops->ctx, GL_PRECISION, k, 1, &groups, &local, nargs,
                           args);
}

/* The tall leaves of one panel (kernels/device/panel.h gl_panel_tall):
 * each leaf is one launch.  What they share: the panel's failure flag,
 * then per leaf its ticket and step counters (zeroed by one write per
 * panel), and the blocks' sums with the copies of the diagonal rows
 * (reused leaf after leaf: launches run in order).  The host reads the
 * flag once, when the panel is done. */
typedef struct tall_panel {
    long rows;             /* rows per block; 0: no tall leaf */
    int *sync;
    gl_scalar *sums;
    int leaves, next;      /* leaf regions in sync, and the next free one */
} tall_panel;

/* the leaf's long side in blocks of tuning.panel_rows rows when it has 4
 * of them or more, else 0 (one work-group: gl_geqrt/gl_gelqt) */
static long tall_rows(const GL_FN(ops) *ops, lapack_int long_side,
                      lapack_int short_side)
{
    long rows = ops->ctx->tuning.panel_rows;
    return short_side <= TALL_LEAF && long_side >= 4 * rows ? rows : 0;
}

/* Leaves of the recursion of dev_geqrt/dev_gelqt over a short side of n. */
static int leaves_of(lapack_int n)
{
    return n <= TALL_LEAF ? 1 : leaves_of(n / 2) + leaves_of(n - n / 2);
}

/* Work-groups of a tall leaf's launch over blocks blocks:
 * GPULAPACK_PANEL_GROUPS, else one per multiprocessor where the runtime
 * promises that a running work-group keeps running (CUDA, HIP), else one
 * (OpenCL 1.2 promises nothing: one work-group never waits); no more than
 * there are blocks. */
static size_t tall_groups(const GL_FN(ops) *ops, long blocks)
{
    long groups = ops->ctx->tuning.panel_groups;
    if (groups < 0)
        groups =
            RT(ops)->resident_groups ? RT(ops)->resident_groups(ops->ctx) : 1;
    if (groups < 1)
        groups = 1;
    return (size_t)(groups < blocks ? groups : blocks);
}

/* Prepares the tall leaves of a panel with a long side of long_side and a
 * short side of short_side (none if its leaves are too short); 0 or -1. */
static int tall_begin(const GL_FN(ops) *ops, tall_panel *p,
                      lapack_int long_side, lapack_int short_side)
{
    *p = (tall_panel){tall_rows(ops, long_side, TALL_LEAF), NULL, NULL, 0, 0};
    if (p->rows == 0)
        return 0;
    p->leaves = leaves_of(short_side);
    size_t count = 1 + (size_t)p->leaves * (TALL_LEAF + 2);
    size_t blocks = groups_of((size_t)long_side, (size_t)p->rows);
    int *zeros = calloc(count, sizeof *zeros);
    p->sync = RT(ops)->alloc(ops->ctx, sizeof *p->sync * count);
    p->sums = RT(ops)->alloc(ops->ctx, ES * (TALL_LEAF * blocks * TALL_SUMS +
                                             TALL_LEAF * TALL_LEAF));
    if (zeros && gl_fault_hit(GL_FAULT_WAIT))
        zeros[0] = 1;   /* the tests: as if a wait had timed out */
    int rc = !zeros || !p->sync || !p->sums ||
             RT(ops)->write(ops->ctx, sizeof *zeros, count, 1, zeros, count,
                            p->sync, count) != 0;
    free(zeros);
    return rc ? -1 : 0;
}

/* Ends the panel: rc, or -1 when a wait of its leaves timed out. */
static int tall_end(const GL_FN(ops) *ops, tall_panel *p, int rc)
{
    int failed = 0;
    if (p->rows > 0 && rc == 0 && p->next > 0 &&
        RT(ops)->read(ops->ctx, sizeof failed, 1, 1, p->sync, 1, &failed,
                      1) != 0)
        rc = -1;
    if (failed) {
        gl_log(1, "%s: a wait of a panel leaf timed out", RT(ops)->name);
        rc = -1;
    }
    RT(ops)->release(ops->ctx, p->sums);
    RT(ops)->release(ops->ctx, p->sync);
    return rc;
}

/* A leaf with a long side of m (rows for QR, columns for LQ) and a short
 * side of n <= TALL_LEAF in blocks of p->rows rows: one launch. */
static int tall_leaf(const GL_FN(ops) *ops, tall_panel *p, int rowwise,
                     lapack_int m, lapack_int n, gl_scalar *a, lapack_int lda,
                     gl_scalar *t, lapack_int ldt)
{
    if (p->next >= p->leaves)
        return -1;
    int leaf = p->next++, rows = (int)p->rows;
    size_t groups = tall_groups(ops, (long)groups_of((size_t)m, p->rows)),
           local = TALL_THREADS;
    gl_arg args[] = {VAL(rowwise), VAL(m),    VAL(n),   MEM(a),
                     VAL(lda),     MEM(t),    VAL(ldt), VAL(rows),
                     MEM(p->sums), GL_MEM(p->sync, sizeof *p->sync),
                     VAL(leaf)};
    return RT(ops)->launch(ops->ctx, GL_PRECISION, GL_K_PANEL_TALL, 1, &groups,
                           &local, NARGS(args), args)
               ? -1
               : 0;
}

static int geqrt_leaf(const GL_FN(ops) *ops, tall_panel *p, lapack_int m,
                      lapack_int n, gl_scalar *a, lapack_int lda, gl_scalar *t,
                      lapack_int ldt)
{
    if (p->rows > 0 && tall_rows(ops, m, n) > 0)
        return tall_leaf(ops, p, 0, m, n, a, lda, t, ldt);
    if (n > PANEL_MAX)
        return -1;
    gl_arg args[] = {VAL(m), VAL(n), MEM(a), VAL(lda), MEM(t), VAL(ldt)};
    return n > 0 ? launch_panel(ops, GL_K_GEQRT, NARGS(args), args) : 0;
}

static int gelqt_leaf(const GL_FN(ops) *ops, tall_panel *p, lapack_int m,
                      lapack_int n, gl_scalar *a, lapack_int lda, gl_scalar *t,
                      lapack_int ldt)
{
    if (p->rows > 0 && tall_rows(ops, n, m) > 0)
        return tall_leaf(ops, p, 1, n, m, a, lda, t, ldt);
    if (m > PANEL_MAX)
        return -1;
    gl_arg args[] = {VAL(m), VAL(n), MEM(a), VAL(lda), MEM(t), VAL(ldt)};
    return m > 0 ? launch_panel(ops, GL_K_GELQT, NARGS(args), args) : 0;
}
/* ---- panels: recursive over columns (rows for LQ), as ?geqrt3 ---- */

/* Panels wider than PANEL_LEAF are split in two halves: the left half is
 * factored, its block reflector applied to the right half, the right half
 * factored, and the T of the whole assembled with
 * T12 = -T1 (V1^H V2) T2.  So all but the leaves' work is in products that
 * use the whole device.  A leaf on one work-group kept one multiprocessor
 * busy while the others waited (12.8 s of stage 1 at n = 32768 on an
 * H100): a leaf with a long side takes many work-groups in one launch
 * (tall_leaf, docs/design/stage1-panel-leaves.md). */
enum { PANEL_LEAF = TALL_LEAF };

/* T12 (k1 x k2, in T) = -T1 W T2 for W = V1^H V2 (QR) or V1 V2^H (LQ),
 * given W; T1, T2 upper triangular; then T's strictly lower part zeroed. */
static int assemble_t(const GL_FN(ops) *ops, lapack_int k1, lapack_int k2,
                      const gl_scalar *w, gl_scalar *t, lapack_int ldt)
{
    gl_scalar *w2 = RT(ops)->alloc(ops->ctx, ES * (size_t)k1 * (size_t)k2);
    if (!w2)
        return -1;
    gl_scalar *t2 = t + k1 + (size_t)k1 * ldt, *t12 = t + (size_t)k1 * ldt;
    int rc = GL_FN(gemm_modes)(ops, 'N', 'N', k1, k2, k1, 1, t, ldt, GM_UPPER,
                               w, k1, 0, 0, w2, k1, 0) ||
             GL_FN(gemm_modes)(ops, 'N', 'N', k1, k2, k2, -1, w2, k1, 0, t2,
                               ldt, GM_UPPER, 0, t12, ldt, 0);
    RT(ops)->release(ops->ctx, w2);
    if (rc)
        return -1;
    GL_FN(dev_zero_lower)(ops, k1 + k2, k1, t, ldt);
    return 0;
}

/* A (m x n, m >= n) = Q R, Q = I - V T V^H, its tall leaves in p. */
static int geqrt_rec(const GL_FN(ops) *ops, tall_panel *p, lapack_int m,
                     lapack_int n, gl_scalar *a, lapack_int lda, gl_scalar *t,
                     lapack_int ldt)
{
    if (n <= PANEL_LEAF)
        return geqrt_leaf(ops, p, m, n, a, lda, t, ldt);
    lapack_int n1 = n / 2, n2 = n - n1;
    gl_scalar *a2 = a + (size_t)n1 * lda;
    /* W (n1 x n2), then V2 made dense ((m - n1) x n2) */
    gl_scalar *w = RT(ops)->alloc(
        ops->ctx, ES * (size_t)n2 * ((size_t)n1 + (size_t)(m - n1)));
    gl_scalar *v2 = w + (size_t)n1 * n2;
    /* W = V1(n1:m, :)^H V2, V2 unit lower trapezoidal from row n1, made
     * dense (v2) for a plain product */
    int rc = !w || geqrt_rec(ops, p, m, n1, a, lda, t, ldt) ||
             GL_FN(dev_larfb)(ops, 'L', 'C', 'C', m, n2, n1, a, lda, t, ldt,
                              a2, lda) ||
             geqrt_rec(ops, p, m - n1, n2, a2 + n1, lda,
                       t + n1 + (size_t)n1 * ldt, ldt);
    if (!rc)
        GL_FN(dev_unpack_v)(ops, 'C', m - n1, n2, a2 + n1, lda, v2, m - n1);
    rc = rc ||
         GL_FN(gemm_modes)(ops, 'C', 'N', n1, n2, m - n1, 1, a + n1, lda, 0,
                           v2, m - n1, 0, 0, w, n1, 0) ||
         assemble_t(ops, n1, n2, w, t, ldt);
    RT(ops)->release(ops->ctx, w);
    return rc ? -1 : 0;
}

/* A (m x n, m <= n) = L Q, Q^H = I - V^H T V, its tall leaves in p. */
static int gelqt_rec(const GL_FN(ops) *ops, tall_panel *p, lapack_int m,
                     lapack_int n, gl_scalar *a, lapack_int lda, gl_scalar *t,
                     lapack_int ldt)
{
    if (m <= PANEL_LEAF)
        return gelqt_leaf(ops, p, m, n, a, lda, t, ldt);
    lapack_int m1 = m / 2, m2 = m - m1;
    gl_scalar *a2 = a + m1, *a22 = a2 + (size_t)m1 * lda;
    /* W (m1 x m2), then V2^H made dense ((n - m1) x m2) */
    gl_scalar *w = RT(ops)->alloc(
        ops->ctx, ES * (size_t)m2 * ((size_t)m1 + (size_t)(n - m1)));
    gl_scalar *v2h = w + (size_t)m1 * m2;
    /* W = V1(:, m1:n) V2^H, V2 unit upper trapezoidal from column m1, its
     * adjoint made dense (v2h) for a plain product */
    int rc = !w || gelqt_rec(ops, p, m1, n, a, lda, t, ldt) ||
             GL_FN(dev_larfb)(ops, 'R', 'N', 'R', m2, n, m1, a, lda, t, ldt,
                              a2, lda) ||
             gelqt_rec(ops, p, m2, n - m1, a22, lda, t + m1 + (size_t)m1 * ldt,
                       ldt);
    if (!rc)
        GL_FN(dev_unpack_v)(ops, 'R', n - m1, m2, a22, lda, v2h, n - m1);
    rc = rc ||
         GL_FN(gemm_modes)(ops, 'N', 'N', m1, m2, n - m1, 1,
                           a + (size_t)m1 * lda, lda, 0, v2h, n - m1, 0, 0, w,
                           m1, 0) ||
         assemble_t(ops, m1, m2, w, t, ldt);
    RT(ops)->release(ops->ctx, w);
    return rc ? -1 : 0;
}

/* A (m x n, m >= n) = Q R, Q = I - V T V^H (kernels/ops.h geqrt).  One
 * column (?larfg, the one-stage ?sytrd's step) is one work-group's at
 * any length: a tall leaf's counters would cost a write and a read (a
 * wait for the device) per column. */
/* gl_s_dev_geqrt gl_d_dev_geqrt gl_c_dev_geqrt gl_z_dev_geqrt */
int GL_FN(dev_geqrt)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda, gl_scalar *t,
                     lapack_int ldt)
{
    tall_panel p = {0};
    int rc = n > 1 ? tall_begin(ops, &p, m, n) : 0;
    return tall_end(ops, &p,
                    rc || geqrt_rec(ops, &p, m, n, a, lda, t, ldt) ? -1 : 0);
}

/* A (m x n, m <= n) = L Q, Q^H = I - V^H T V (kernels/ops.h gelqt). */
/* gl_s_dev_gelqt gl_d_dev_gelqt gl_c_dev_gelqt gl_z_dev_gelqt */
int GL_FN(dev_gelqt)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda, gl_scalar *t,
                     lapack_int ldt)
{
    tall_panel p;
    int rc = tall_begin(ops, &p, n, m);
    return tall_end(ops, &p,
                    rc || gelqt_rec(ops, &p, m, n, a, lda, t, ldt) ? -1 : 0);
}

/* The scalars that geqrt_rec (gelqt_rec) holds at its peak for a panel
 * with a long side of long_side and a short side of short_side: its W
 * beside the most of its first half, its larfb, its second half and
 * assemble_t's product. */
static size_t panel_rec_scalars(size_t long_side, size_t short_side)
{
    if (short_side <= PANEL_LEAF)
        return 0;
    size_t s1 = short_side / 2, s2 = short_side - s1;
    size_t most = panel_rec_scalars(long_side, s1);
    size_t larfb = GL_LARFB_SCRATCH(long_side, s2, s1);
    size_t second = panel_rec_scalars(long_side - s1, s2);
    most = larfb > most ? larfb : most;
    most = second > most ? second : most;
    most = s1 * s2 > most ? s1 * s2 : most;
    return s2 * long_side + most;
}

/* gl_s_gpu_panel_bytes gl_d_gpu_panel_bytes gl_c_gpu_panel_bytes gl_z_gpu_panel_bytes */
size_t GL_FN(gpu_panel_bytes)(const gl_tuning *tuning, int qr,
                              lapack_int long_side, lapack_int short_side)
{
    if (long_side <= 0 || short_side <= 0)
        return 0;
    size_t bytes = ES * panel_rec_scalars((size_t)long_side,
                                          (size_t)short_side);
    /* tall_begin's counters and sums (dev_geqrt skips them for one
     * column) */
    long rows = tuning->panel_rows;
    if ((!qr || short_side > 1) && rows > 0 && long_side >= 4 * rows) {
        size_t count = 1 + (size_t)leaves_of(short_side) * (TALL_LEAF + 2);
        size_t blocks = groups_of((size_t)long_side, (size_t)rows);
        bytes += sizeof(int) * count +
                 ES * (TALL_LEAF * blocks * TALL_SUMS + TALL_LEAF * TALL_LEAF);
    }
    return bytes;
}
/* QR of a tall matrix (values only: R is what counts): panels of PANEL
 * columns, each applied to the rest. */
/* gl_s_dev_geqrf gl_d_dev_geqrf gl_c_dev_geqrf gl_z_dev_geqrf */
int GL_FN(dev_geqrf)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda)
{
    enum { PANEL = 32 };
    gl_scalar *t = RT(ops)->alloc(ops->ctx, ES * PANEL * PANEL);
    int rc = t ? 0 : -1;
    for (lapack_int j = 0; j < n && j < m && rc == 0; j += PANEL) {
        lapack_int pj = n - j < PANEL ? n - j : PANEL;
        gl_scalar *ajj = a + j + (size_t)j * lda;
        rc = GL_FN(dev_geqrt)(ops, m - j, pj, ajj, lda, t, PANEL) ||
             GL_FN(dev_larfb)(ops, 'L', 'C', 'C', m - j, n - j - pj, pj, ajj,
                              lda, t, PANEL, ajj + (size_t)pj * lda, lda);
    }
    RT(ops)->release(ops->ctx, t);
    return rc ? -1 : 0;
}
