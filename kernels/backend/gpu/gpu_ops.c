/* The operation table of the GPU backends: every operation runs on the
 * table's context (ops->ctx, bound by ops_bind: runtime/context.h), that
 * is on its device and queue through its runtime (runtime/gpu.h: OpenCL,
 * CUDA or HIP), with the kernels of kernels/device/; memory is device
 * memory.  The algorithms are the host backend's (kernels/ref/), so the
 * two agree to rounding.  gpu_ops itself is the template (ctx NULL).
 *
 * Errors: operations that return int report a failure at once; the
 * others (copies in, packing, BLAS3) leave it in the context's error
 * state, which the next read (to_host) reports before it writes any host
 * memory.  So a pipeline either ends with every result read
 * back, or fails without having written a result from a failed device. */
#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "../../../runtime/precision.h"
#include "../../../runtime/fault.h"
#include "../../../runtime/gpu.h"
#include "../../../runtime/config.h"
#include "../../../runtime/log.h"
#include "../../../runtime/profile.h"
#include "../../../runtime/tune.h"
#include "../../ops.h"
#include "../../stages/stage3.h"
#include "../gpu_ops.h"

#define ES sizeof(gl_scalar)
#define MEM(p) GL_MEM((p), ES)
#define VAL(v) GL_VALUE(v)
/* What the operations call: the runtime of the table's context (or the
 * profile's timing wrapper of it, runtime/context.h); every call gets
 * the context, ops->ctx, as its first argument. */
#define RT(ops) ((ops)->ctx->gpu)
#define NARGS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Work-group of the gemm tiles; the widest panel and band the kernels'
 * local arrays hold (kernels/device/panel.h, chase.h). */
enum { TILE = 16, PANEL_MAX = 256, PANEL_THREADS = 256, CHASE_MAX = 256 };
/* the multi-group leaves: widest leaf, work-items per group, sums per
 * group (kernels/device/panel.h) */
enum { TALL_LEAF = 16, TALL_THREADS = 128, TALL_SUMS = TALL_LEAF + 3 };

/* gl_scalar as the kernels see it (float2/double2 for complex) */
typedef struct { gl_real part[1 + GL_COMPLEX]; } device_scalar;
static device_scalar dev_scalar(gl_scalar x)
{
    device_scalar d;
#if GL_COMPLEX
    d.part[0] = GL_REAL(x);
    d.part[1] = GL_IMAG(x);
#else
    d.part[0] = x;
#endif
    return d;
}

static size_t groups_of(size_t x, size_t m) { return (x + m - 1) / m; }

/* A 2-D launch over rows x cols in 16 x 16 groups. */
static int launch_2d(const GL_FN(ops) *ops, gl_kernel k, lapack_int rows,
                     lapack_int cols, int nargs, const gl_arg *args)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    size_t local[2] = {TILE, TILE};
    size_t groups[2] = {groups_of((size_t)rows, TILE),
                        groups_of((size_t)cols, TILE)};
    return RT(ops)->launch(ops->ctx, GL_PRECISION, k, 2, groups, local, nargs,
                           args);
}

/* Work-items per work-group of the chase: the context's
 * tuning.group_threads (GPULAPACK_GROUP_THREADS), at most CHASE_MAX (the
 * kernels' reductions hold one value per work-item; a wider group would have
 * nothing to do: a task's rows and columns are at most the half-width). */
static size_t chase_threads(const GL_FN(ops) *ops)
{
    int t = ops->ctx->tuning.group_threads;
    return (size_t)(t < CHASE_MAX ? t : CHASE_MAX);
}

/* groups work-groups of chase_threads() work-items. */
static int launch_groups(const GL_FN(ops) *ops, gl_kernel k, size_t groups,
                         int nargs, const gl_arg *args)
{
    size_t local = chase_threads(ops);
    return RT(ops)->launch(ops->ctx, GL_PRECISION, k, 1, &groups, &local, nargs,
                           args);
}

static void *dev_alloc(const GL_FN(ops) *ops, size_t bytes)
{
    return RT(ops)->alloc(ops->ctx, bytes);
}
static void dev_release(const GL_FN(ops) *ops, void *ptr)
{
    RT(ops)->release(ops->ctx, ptr);
}

static int dev_to_host(const GL_FN(ops) *ops, lapack_int rows, lapack_int cols,
                       const gl_scalar *src, lapack_int ld_src, gl_scalar *dst,
                       lapack_int ld_dst)
{
    /* an empty read still reports the context's error state */
    return RT(ops)->read(ops->ctx, ES, rows > 0 ? (size_t)rows : 0,
                         cols > 0 ? (size_t)cols : 0, src, (size_t)ld_src, dst,
                         (size_t)ld_dst);
}

static int dev_to_host_scratch(const GL_FN(ops) *ops, lapack_int rows,
                               lapack_int cols, const gl_scalar *src,
                               lapack_int ld_src, gl_scalar *dst,
                               lapack_int ld_dst)
{
    return RT(ops)->read_direct(ops->ctx, ES, rows > 0 ? (size_t)rows : 0,
                                cols > 0 ? (size_t)cols : 0, src,
                                (size_t)ld_src, dst, (size_t)ld_dst);
}

static void dev_mark(const GL_FN(ops) *ops)
{
    if (RT(ops)->mark)
        RT(ops)->mark(ops->ctx);   /* without one, marked reads run in order */
}

/* read_marked of the runtime; in order where it has none */
static int dev_to_host_scratch_marked(const GL_FN(ops) *ops, lapack_int rows,
                                      lapack_int cols, const gl_scalar *src,
                                      lapack_int ld_src, gl_scalar *dst,
                                      lapack_int ld_dst)
{
    if (!RT(ops)->read_marked)
        return dev_to_host_scratch(ops, rows, cols, src, ld_src, dst, ld_dst);
    return RT(ops)->read_marked(ops->ctx, 0, ES, rows > 0 ? (size_t)rows : 0,
                                cols > 0 ? (size_t)cols : 0, src,
                                (size_t)ld_src, dst, (size_t)ld_dst);
}

/* The lanes of the runtime (gpu.h lane_write) unless GPULAPACK_OOC_QUEUES
 * puts the tiles' copies in order on the call's queue. */
static int lanes_on(const GL_FN(ops) *ops)
{
    return RT(ops)->lane_write && gl_config_get()->ooc_queues != 1;
}

static void dev_tile_up(const GL_FN(ops) *ops, lapack_int rows,
                        lapack_int cols, const gl_scalar *src,
                        lapack_int ld_src, gl_scalar *dst, lapack_int ld_dst)
{
    if (rows <= 0 || cols <= 0)
        return;
    (lanes_on(ops) ? RT(ops)->lane_write : RT(ops)->write)(
        ops->ctx, ES, (size_t)rows, (size_t)cols, src, (size_t)ld_src, dst,
        (size_t)ld_dst);
}

static void dev_tile_down(const GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, const gl_scalar *src,
                          lapack_int ld_src, gl_scalar *dst, lapack_int ld_dst)
{
    if (rows <= 0 || cols <= 0)
        return;
    (lanes_on(ops) ? RT(ops)->lane_read : RT(ops)->read_direct)(
        ops->ctx, ES, (size_t)rows, (size_t)cols, src, (size_t)ld_src, dst,
        (size_t)ld_dst);
}

/* The drivers' queues and event slots (ops.h GL_QUEUE_*) go to the
 * runtime as they are: they must be its own. */
_Static_assert((int)GL_QUEUE_COMPUTE == (int)GL_LANE_COMPUTE &&
                   (int)GL_QUEUE_UP == (int)GL_LANE_UP &&
                   (int)GL_QUEUE_DOWN == (int)GL_LANE_DOWN &&
                   (int)GL_QUEUE_EVENTS == (int)GL_LANE_EVENTS,
               "ops.h's queues are runtime/gpu.h's lanes");

static void dev_lane_record(const GL_FN(ops) *ops, int queue, int event)
{
    if (lanes_on(ops))
        RT(ops)->lane_record(ops->ctx, queue, event);
}

static void dev_lane_wait(const GL_FN(ops) *ops, int queue, int event)
{
    if (lanes_on(ops))
        RT(ops)->lane_wait(ops->ctx, queue, event);
}

static int dev_lanes_finish(const GL_FN(ops) *ops)
{
    return RT(ops)->finish(ops->ctx);
}

static void dev_host_pin(const GL_FN(ops) *ops, void *ptr, size_t bytes)
{
    if (lanes_on(ops) && RT(ops)->host_register)
        RT(ops)->host_register(ops->ctx, ptr, bytes);
}

static void dev_host_unpin(const GL_FN(ops) *ops, void *ptr)
{
    if (RT(ops)->host_unregister)
        RT(ops)->host_unregister(ops->ctx, ptr);
}

static void dev_copy(const GL_FN(ops) *ops, lapack_int rows, lapack_int cols,
                     const gl_scalar *src, lapack_int ld_src, gl_scalar *dst,
                     lapack_int ld_dst)
{
    if (rows > 0 && cols > 0)
        RT(ops)->copy(ops->ctx, ES, (size_t)rows, (size_t)cols, src,
                      (size_t)ld_src, dst, (size_t)ld_dst);
}

/* dst = src^H (dst rows x cols) inside the device. */
static int transpose(const GL_FN(ops) *ops, lapack_int rows, lapack_int cols,
                     const gl_scalar *src, lapack_int lds, gl_scalar *dst,
                     lapack_int ldd)
{
    int conj_trans = 1;
    gl_arg args[] = {VAL(rows), VAL(cols), MEM(src), VAL(lds), MEM(dst),
                     VAL(ldd), VAL(conj_trans)};
    return launch_2d(ops, GL_K_COPY, rows, cols, NARGS(args), args);
}

static void dev_from_host(const GL_FN(ops) *ops, char trans, lapack_int rows,
                          lapack_int cols, const gl_scalar *src,
                          lapack_int ld_src, gl_scalar *dst, lapack_int ld_dst)
{
    if (rows <= 0 || cols <= 0)
        return;
    if (trans == 'N') {
        RT(ops)->write(ops->ctx, ES, (size_t)rows, (size_t)cols, src,
                       (size_t)ld_src, dst, (size_t)ld_dst);
        return;
    }
    /* upload as it is, transpose on the device */
    gl_scalar *tmp = RT(ops)->alloc(ops->ctx, ES * (size_t)rows * (size_t)cols);
    if (!tmp ||
        RT(ops)->write(ops->ctx, ES, (size_t)rows, (size_t)cols, src,
                       (size_t)ld_src, tmp, (size_t)rows) != 0 ||
        transpose(ops, cols, rows, tmp, rows, dst, ld_dst) != 0)
        RT(ops)->fail(ops->ctx);
    RT(ops)->release(ops->ctx, tmp);
}

/* ?lascl 'G': A * (cto / cfrom) as a sequence of factors that neither
 * overflow nor underflow (the loop of SRC/dlascl.f). */
static int dev_lascl(const GL_FN(ops) *ops, gl_real cfrom, gl_real cto,
                     lapack_int m, lapack_int n, gl_scalar *a, lapack_int lda)
{
    const gl_real smlnum = sizeof(gl_real) == sizeof(float) ? FLT_MIN : DBL_MIN,
                  bignum = 1 / smlnum;
    gl_real cfromc = cfrom, ctoc = cto, mul;
    int done;
    do {
        gl_real cfrom1 = cfromc * smlnum;
        if (cfrom1 == cfromc) {   /* cfromc is Inf */
            mul = ctoc / cfromc;
            done = 1;
        } else {
            gl_real cto1 = ctoc / bignum;
            if (cto1 == ctoc) {   /* ctoc is 0 or Inf */
                mul = ctoc;
                done = 1;
                cfromc = 1;
            } else if (GL_R(fabs)(cfrom1) > GL_R(fabs)(ctoc) && ctoc != 0) {
                mul = smlnum;
                done = 0;
                cfromc = cfrom1;
            } else if (GL_R(fabs)(cto1) > GL_R(fabs)(cfromc)) {
                mul = bignum;
                done = 0;
                ctoc = cto1;
            } else {
                mul = ctoc / cfromc;
                done = 1;
                if (mul == 1)
                    return 0;
            }
        }
        gl_arg args[] = {VAL(m), VAL(n), MEM(a), VAL(lda), VAL(mul)};
        if (launch_2d(ops, GL_K_SCALE, m, n, NARGS(args), args) != 0)
            return -1;
    } while (!done);
    return 0;
}

static int dev_conj_transpose(const GL_FN(ops) *ops, lapack_int rows,
                              lapack_int cols, const gl_scalar *src,
                              lapack_int lds, gl_scalar *dst, lapack_int ldd)
{
    return transpose(ops, cols, rows, src, lds, dst, ldd);
}

static void dev_pack_band(const GL_FN(ops) *ops, char kind, lapack_int n,
                          lapack_int b, const gl_scalar *a, lapack_int lda,
                          gl_scalar *band, lapack_int ldband)
{
    int hermitian = kind == 'H';
    gl_arg args[] = {VAL(hermitian), VAL(n), VAL(b), MEM(a), VAL(lda),
                     MEM(band), VAL(ldband)};
    if (launch_2d(ops, GL_K_PACK_BAND, ldband, n, NARGS(args), args) != 0)
        RT(ops)->fail(ops->ctx);
}

static void dev_zero_lower(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                           gl_scalar *a, lapack_int lda)
{
    gl_arg args[] = {VAL(m), VAL(n), MEM(a), VAL(lda)};
    if (launch_2d(ops, GL_K_ZERO_LOWER, m, n, NARGS(args), args) != 0)
        RT(ops)->fail(ops->ctx);
}

static void dev_unpack_v(const GL_FN(ops) *ops, char storev, lapack_int m,
                         lapack_int k, const gl_scalar *a, lapack_int lda,
                         gl_scalar *v, lapack_int ldv)
{
    int rows = storev == 'R';
    gl_arg args[] = {VAL(rows), VAL(m), VAL(k), MEM(a), VAL(lda), MEM(v),
                     VAL(ldv)};
    if (launch_2d(ops, GL_K_UNPACK_V, m, k, NARGS(args), args) != 0)
        RT(ops)->fail(ops->ctx);
}

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

/* ---- BLAS3: one kernel, gl_gemm, with read modes for triangular,
 * trapezoidal and Hermitian operands (kernels/device/blas.h) ---- */

enum { GM_UPPER = 1, GM_LOWER = 2, GM_UNIT = 4, GM_HERM = 8 };
enum { GC_UPPER = 1, GC_LOWER = 2, GC_REAL_DIAG = 4 };

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

static int gemm_modes(const GL_FN(ops) *ops, char transa, char transb,
                      lapack_int m, lapack_int n, lapack_int k, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, int amode,
                      const gl_scalar *b, lapack_int ldb, int bmode,
                      gl_scalar beta, gl_scalar *c, lapack_int ldc, int cmode)
{
    return gemm_batch(ops, transa, transb, m, n, k, alpha, a, lda, amode, 0, b,
                      ldb, bmode, 0, beta, c, ldc, cmode, 0, 1);
}

static void dev_gemm(const GL_FN(ops) *ops, char transa, char transb,
                     lapack_int m, lapack_int n, lapack_int k, gl_scalar alpha,
                     const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                     lapack_int ldb, gl_scalar beta, gl_scalar *c,
                     lapack_int ldc)
{
    if (gemm_modes(ops, transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0,
                   beta, c, ldc, 0) != 0)
        RT(ops)->fail(ops->ctx);
}

static void dev_hemm(const GL_FN(ops) *ops, char side, char uplo, lapack_int m,
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
    int rc = side == 'L' ? gemm_modes(ops, 'N', 'N', m, n, m, alpha, a, lda,
                                      herm, b, ldb, 0, beta, c, ldc, 0)
                         : gemm_modes(ops, 'N', 'N', m, n, n, alpha, b, ldb, 0,
                                      a, lda, herm, beta, c, ldc, 0);
    if (rc != 0)
        RT(ops)->fail(ops->ctx);
}

/* A Hermitian product with one column, as hemm (cuBLAS ?symm/?hemm on
 * CUDA): the one-stage ?sytrd's products, 0.11-0.21x cuSOLVER's ?sytrd on
 * an H100 (docs/performance.md). */
static void dev_hemv(const GL_FN(ops) *ops, char uplo, lapack_int n,
                     gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                     const gl_scalar *x, gl_scalar beta, gl_scalar *y)
{
    dev_hemm(ops, 'L', uplo, n, 1, alpha, a, lda, x, n, beta, y, n);
}

/* C = alpha A B^H + conj(alpha) B A^H + beta C in one triangle ('N'), as
 * two passes of gl_gemm that write only that triangle. */
static void dev_her2k(const GL_FN(ops) *ops, char uplo, char trans,
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
    if (gemm_modes(ops, t1, t2, n, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c,
                   ldc, cmode) != 0 ||
        gemm_modes(ops, t1, t2, n, n, k, GL_CONJ(alpha), b, ldb, 0, a, lda, 0,
                   1, c, ldc, cmode) != 0)
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
static void dev_trmm(const GL_FN(ops) *ops, char side, char uplo, char transa,
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
        rc = side == 'L' ? gemm_modes(ops, transa, 'N', m, n, m, alpha, a, lda,
                                      tri, b, ldb, 0, 0, w, m, 0)
                         : gemm_modes(ops, 'N', transa, m, n, n, alpha, b, ldb,
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
static int dev_larfb(const GL_FN(ops) *ops, char side, char trans, char storev,
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
    dev_unpack_v(ops, storev, len, k, v, ldv, vd, len);
    int rc = dense_upper(ops, k, t, ldt, td);
    if (rc == 0 && side == 'L')   /* W = V'^H C, W2 = op(T) W, C -= V' W2 */
        rc = gemm_modes(ops, 'C', 'N', k, n, m, 1, vd, len, 0, c, ldc, 0, 0, w,
                        k, 0) ||
             gemm_modes(ops, top, 'N', k, n, k, 1, td, k, 0, w, k, 0, 0, w2, k,
                        0) ||
             gemm_modes(ops, 'N', 'N', m, n, k, -1, vd, len, 0, w2, k, 0, 1, c,
                        ldc, 0);
    else if (rc == 0)   /* W = C V', W2 = W op(T), C -= W2 V'^H */
        rc = gemm_modes(ops, 'N', 'N', m, k, n, 1, c, ldc, 0, vd, len, 0, 0, w,
                        m, 0) ||
             gemm_modes(ops, 'N', top, m, k, k, 1, w, m, 0, td, k, 0, 0, w2, m,
                        0) ||
             gemm_modes(ops, 'N', 'C', m, n, k, -1, w2, m, 0, vd, len, 0, 1, c,
                        ldc, 0);
    RT(ops)->release(ops->ctx, w);
    return rc ? -1 : 0;
}

/* ---- panels: recursive over columns (rows for LQ), as ?geqrt3 ---- */

/* Panels wider than PANEL_LEAF are split in two halves: the left half is
 * factored, its block reflector applied to the right half, the right half
 * factored, and the T of the whole assembled with
 * T12 = -T1 (V1^H V2) T2.  So all but the leaves' work is in products that
 * use the whole device.  A leaf on one work-group kept one multiprocessor
 * busy while the others waited (12.8 s of stage 1 at n = 32768 on an H100,
 * docs/history.md): a leaf with a long side takes many work-groups in one
 * launch (tall_leaf). */
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
    int rc = gemm_modes(ops, 'N', 'N', k1, k2, k1, 1, t, ldt, GM_UPPER, w, k1,
                        0, 0, w2, k1, 0) ||
             gemm_modes(ops, 'N', 'N', k1, k2, k2, -1, w2, k1, 0, t2, ldt,
                        GM_UPPER, 0, t12, ldt, 0);
    RT(ops)->release(ops->ctx, w2);
    if (rc)
        return -1;
    dev_zero_lower(ops, k1 + k2, k1, t, ldt);
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
    int rc =
        !w || geqrt_rec(ops, p, m, n1, a, lda, t, ldt) ||
        dev_larfb(ops, 'L', 'C', 'C', m, n2, n1, a, lda, t, ldt, a2, lda) ||
        geqrt_rec(ops, p, m - n1, n2, a2 + n1, lda, t + n1 + (size_t)n1 * ldt,
                  ldt);
    if (!rc)
        dev_unpack_v(ops, 'C', m - n1, n2, a2 + n1, lda, v2, m - n1);
    rc = rc ||
         gemm_modes(ops, 'C', 'N', n1, n2, m - n1, 1, a + n1, lda, 0, v2,
                    m - n1, 0, 0, w, n1, 0) ||
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
    int rc =
        !w || gelqt_rec(ops, p, m1, n, a, lda, t, ldt) ||
        dev_larfb(ops, 'R', 'N', 'R', m2, n, m1, a, lda, t, ldt, a2, lda) ||
        gelqt_rec(ops, p, m2, n - m1, a22, lda, t + m1 + (size_t)m1 * ldt, ldt);
    if (!rc)
        dev_unpack_v(ops, 'R', n - m1, m2, a22, lda, v2h, n - m1);
    rc = rc ||
         gemm_modes(ops, 'N', 'N', m1, m2, n - m1, 1, a + (size_t)m1 * lda, lda,
                    0, v2h, n - m1, 0, 0, w, m1, 0) ||
         assemble_t(ops, m1, m2, w, t, ldt);
    RT(ops)->release(ops->ctx, w);
    return rc ? -1 : 0;
}

/* A (m x n, m >= n) = Q R, Q = I - V T V^H (kernels/ops.h geqrt).  One
 * column (?larfg, the one-stage ?sytrd's step) is one work-group's at
 * any length: a tall leaf's counters would cost a write and a read (a
 * wait for the device) per column. */
static int dev_geqrt(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda, gl_scalar *t, lapack_int ldt)
{
    tall_panel p = {0};
    int rc = n > 1 ? tall_begin(ops, &p, m, n) : 0;
    return tall_end(ops, &p,
                    rc || geqrt_rec(ops, &p, m, n, a, lda, t, ldt) ? -1 : 0);
}

/* A (m x n, m <= n) = L Q, Q^H = I - V^H T V (kernels/ops.h gelqt). */
static int dev_gelqt(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda, gl_scalar *t, lapack_int ldt)
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

static int dev_apply_wy(const GL_FN(ops) *ops, lapack_int nblocks,
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

static int dev_wy_build(const GL_FN(ops) *ops, lapack_int nblocks,
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

/* QR of a tall matrix (values only: R is what counts): panels of PANEL
 * columns, each applied to the rest. */
static int dev_geqrf(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda)
{
    enum { PANEL = 32 };
    gl_scalar *t = RT(ops)->alloc(ops->ctx, ES * PANEL * PANEL);
    int rc = t ? 0 : -1;
    for (lapack_int j = 0; j < n && j < m && rc == 0; j += PANEL) {
        lapack_int pj = n - j < PANEL ? n - j : PANEL;
        gl_scalar *ajj = a + j + (size_t)j * lda;
        rc = dev_geqrt(ops, m - j, pj, ajj, lda, t, PANEL) ||
             dev_larfb(ops, 'L', 'C', 'C', m - j, n - j - pj, pj, ajj, lda, t,
                       PANEL, ajj + (size_t)pj * lda, lda);
    }
    RT(ops)->release(ops->ctx, t);
    return rc ? -1 : 0;
}

/* ---- stage 2: one launch per wavefront (kernels/device/chase.h) ---- */

/* The reflector store's group starts, uploaded for the kernels. */
static int *upload_first(const GL_FN(ops) *ops, const GL_FN(reflectors) *keep)
{
    if (!keep)
        return NULL;
    int *dev =
        RT(ops)->alloc(ops->ctx, sizeof *dev * (size_t)(keep->ngroups + 1));
    if (dev && RT(ops)->write(ops->ctx, sizeof *dev, (size_t)keep->ngroups + 1,
                              1, keep->first, (size_t)keep->ngroups + 1, dev,
                              (size_t)keep->ngroups + 1) != 0) {
        RT(ops)->release(ops->ctx, dev);
        return NULL;
    }
    return dev;
}

/* The wavefronts lambda = 3 s + j of sweeps 0 .. nsweeps-1 with steps(s)
 * steps each; each launch gets the range of sweeps that can have a task
 * and the kernel skips the others. */
typedef struct wave_args {
    gl_kernel kernel;
    gl_arg *args;
    int nargs, lambda_slot, s_first_slot;
} wave_args;

static int launch_waves(const GL_FN(ops) *ops, lapack_int nsweeps,
                        lapack_int steps0, wave_args *w,
                        lapack_int (*steps)(lapack_int s, const lapack_int *p),
                        const lapack_int *p)
{
    while (nsweeps > 0 && steps(nsweeps - 1, p) == 0)
        nsweeps--;
    if (nsweeps == 0)
        return 0;
    lapack_int last = 0;   /* the last wavefront with a task */
    for (lapack_int s = 0; s < nsweeps; s++) {
        lapack_int end = 3 * s + steps(s, p) - 1;
        last = end > last ? end : last;
    }
    for (int lambda = 0; lambda <= last; lambda++) {
        /* sweep s has task j = lambda - 3s when 0 <= j < steps(s) <= steps0 */
        int s_hi = lambda / 3 < nsweeps - 1 ? lambda / 3 : (int)nsweeps - 1;
        int s_lo = lambda - (int)steps0 + 1 > 0
                       ? (lambda - (int)steps0 + 1 + 2) / 3
                       : 0;
        if (s_lo > s_hi)
            continue;
        /* the tasks of one wavefront are independent: any split works */
        long max = ops->ctx->tuning.max_groups;
        for (int s0 = s_lo; s0 <= s_hi;) {
            int count = s_hi - s0 + 1, slot_l = lambda, slot_s = s0;
            if (max > 0 && max < count)
                count = (int)max;
            w->args[w->lambda_slot] = VAL(slot_l);
            w->args[w->s_first_slot] = VAL(slot_s);
            if (launch_groups(ops, w->kernel, (size_t)count, w->nargs, w->args))
                return -1;
            s0 += count;
        }
    }
    return 0;
}

/* The launches as one batch where the runtime records them (a graph). */
static int run_waves(const GL_FN(ops) *ops, lapack_int nsweeps,
                     lapack_int steps0, wave_args *w,
                     lapack_int (*steps)(lapack_int s, const lapack_int *p),
                     const lapack_int *p)
{
    const gl_gpu *gpu = RT(ops);
    if (!gpu->batch_begin)
        return launch_waves(ops, nsweeps, steps0, w, steps, p);
    gpu->batch_begin(ops->ctx, GL_PRECISION);
    int rc = launch_waves(ops, nsweeps, steps0, w, steps, p);
    return gpu->batch_end(ops->ctx) != 0 ? -1 : rc;
}

/* Work-groups of the one-launch chase (kernels/device/chase.h), 0 for one
 * launch per wavefront: GPULAPACK_CHASE_GROUPS, else one per
 * multiprocessor where the runtime promises that a running work-group
 * keeps running (CUDA, HIP) and waves on OpenCL; no more than there are
 * sweeps. */
static long chase_groups(const GL_FN(ops) *ops, lapack_int nsweeps)
{
    long groups = ops->ctx->tuning.chase_groups;
    if (groups < 0)
        groups =
            RT(ops)->resident_groups ? RT(ops)->resident_groups(ops->ctx) : 0;
    return groups < nsweeps ? groups : nsweeps;
}

/* The window chases' widest band (chase.h WIN_B for the Hermitian one,
 * GB_WIN_B for the general one: 32, 16 for the general one in complex
 * double; half that on an OpenCL device with less than 48 KB of local
 * memory, whose kernels are built with CHASE_SMALL_LOCAL) and largest
 * work-group (WIN_THREADS). */
static int window_band(const GL_FN(ops) *ops, int hermitian)
{
    unsigned long long local = ops->ctx->info ? ops->ctx->info->local_memory : 0;
    int b = hermitian || GL_PRECISION != 4 ? 32 : 16;
    return local > 0 && local < 48 * 1024 ? b / 2 : b;
}
enum { WIN_THREADS = GL_PRECISION == 4 ? 128 : 256 };

/* The window kernel for a chase of half-width b, when it applies: the
 * chase runs in one launch (groups > 0) and the context asks for it. */
static int use_window(const GL_FN(ops) *ops, long groups, lapack_int b,
                      int hermitian)
{
    return groups > 0 && ops->ctx->tuning.chase_kernel == GL_CHASE_WINDOW &&
           b <= window_band(ops, hermitian);
}

/* Work-items of the window kernels' work-groups. */
static size_t window_threads(const GL_FN(ops) *ops)
{
    size_t local = chase_threads(ops);
    return local < WIN_THREADS ? local : WIN_THREADS;
}

/* The traffic the window chase's work-groups counted (chase.h win_state:
 * values read and written in the band, steps), into the profile as
 * chase_read and chase_written rows: their calls are the steps, their
 * bytes the band's bytes moved. */
static void chase_traffic(const GL_FN(ops) *ops, const int *counts,
                          long groups)
{
    unsigned *c = malloc(sizeof *c * 3 * (size_t)groups);
    if (c && RT(ops)->read(ops->ctx, sizeof *c, 3 * (size_t)groups, 1, counts,
                           3 * (size_t)groups, c, 3 * (size_t)groups) == 0) {
        double read = 0, written = 0;
        long steps = 0;
        for (long g = 0; g < groups; g++) {
            read += c[3 * g];
            written += c[3 * g + 1];
            steps += c[3 * g + 2];
        }
        gl_profile_count(ops->ctx, "chase_read", steps, read * ES);
        gl_profile_count(ops->ctx, "chase_written", steps, written * ES);
    }
    free(c);
}

/* The chase in one launch of kernel k over groups work-groups of local
 * work-items: args holds the progress counters at progress_slot (zeroed
 * here) and, at counts_slot (-1: none), 3 counters per work-group
 * (chase_traffic); -1 when a wait timed out (the kernel's failure
 * flag). */
static int run_all(const GL_FN(ops) *ops, gl_kernel k, gl_arg *args, int nargs,
                   int progress_slot, int counts_slot, long groups,
                   lapack_int nsweeps, size_t local)
{
    size_t count = (size_t)nsweeps + 2,
           extra = counts_slot >= 0 ? 3 * (size_t)groups : 0;
    int *progress =
        RT(ops)->alloc(ops->ctx, sizeof *progress * (count + extra));
    int *zeros = calloc(count + extra, sizeof *zeros);
    int failed = 1;
    if (zeros && gl_fault_hit(GL_FAULT_WAIT))
        zeros[0] = 1;   /* the tests: as if a wait had timed out */
    size_t blocks = (size_t)groups;
    args[progress_slot] = GL_MEM(progress, sizeof *progress);
    if (counts_slot >= 0)
        args[counts_slot] =
            GL_MEM(progress ? progress + count : NULL, sizeof *progress);
    int rc = !progress || !zeros ||
             RT(ops)->write(ops->ctx, sizeof *progress, count + extra, 1,
                            zeros, count + extra, progress,
                            count + extra) != 0 ||
             RT(ops)->launch(ops->ctx, GL_PRECISION, k, 1, &blocks, &local,
                             nargs, args) != 0 ||
             RT(ops)->read(ops->ctx, sizeof failed, 1, 1, progress, 1, &failed,
                           1) != 0;
    if (rc == 0 && !failed && extra && gl_profile_clock(ops->ctx) != 0)
        chase_traffic(ops, progress + count, groups);
    free(zeros);
    RT(ops)->release(ops->ctx, progress);
    if (rc == 0 && failed)
        gl_log(1, "%s: a wait of the bulge chasing timed out (%ld work-groups)",
               RT(ops)->name, groups);
    return rc || failed ? -1 : 0;
}

static lapack_int gb_steps(lapack_int s, const lapack_int *p)
{
    lapack_int n = p[0], b = p[1], c = p[2];
    return s + c > n - 2 ? 0 : (n - 2 - s - c) / b + 1;
}

static lapack_int sb_steps(lapack_int s, const lapack_int *p)
{
    lapack_int n = p[0], b = p[1];
    return s + 2 > n - 1 ? 0 : (n - 3 - s) / b + 1;
}

/* The sweeps a chase of n - first sweeps runs under a limit (ops.h). */
static lapack_int sweeps_run(lapack_int all, lapack_int sweeps)
{
    return sweeps < all ? (sweeps > 0 ? sweeps : 0) : all;
}

static int dev_gb_chase(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                        lapack_int c, lapack_int sweeps, gl_scalar *band,
                        lapack_int ldband, const GL_FN(reflectors) *keep)
{
    if (b > CHASE_MAX || (keep && c != 1))
        return -1;
    if (b <= c)   /* already of half-width c (as the host's chase) */
        return 0;
    int *first = upload_first(ops, keep);
    if (keep && !first)
        return -1;
    int kept = keep != NULL, group = keep ? keep->group : 1,
        keep_b = keep ? keep->b : 0, lambda = 0, s_first = 0;
    lapack_int run = sweeps_run(n - 1, sweeps);
    long groups = chase_groups(ops, run);
    int nsweeps = (int)run;
    if (use_window(ops, groups, b, 0)) {
        gl_arg win[] = {VAL(n),        VAL(b),        VAL(c),
                        MEM(band),     VAL(ldband),   VAL(nsweeps),
                        GL_MEM(NULL, sizeof(int)),    GL_MEM(NULL, sizeof(int)),
                        VAL(kept),     VAL(group),    VAL(keep_b),
                        GL_MEM(first, sizeof *first),
                        MEM(keep ? keep->vq : NULL),  MEM(keep ? keep->tauq : NULL),
                        MEM(keep ? keep->vp : NULL),  MEM(keep ? keep->taup : NULL)};
        int rc = run_all(ops, GL_K_GB_CHASE_WINDOW, win, NARGS(win), 6, 7,
                         groups, run, window_threads(ops));
        RT(ops)->release(ops->ctx, first);
        return rc;
    }
    if (groups > 0) {
        gl_arg all[] = {VAL(n),        VAL(b),        VAL(c),
                        MEM(band),     VAL(ldband),   VAL(nsweeps),
                        GL_MEM(NULL, sizeof(int)),    VAL(kept),
                        VAL(group),    VAL(keep_b),   GL_MEM(first, sizeof *first),
                        MEM(keep ? keep->vq : NULL),  MEM(keep ? keep->tauq : NULL),
                        MEM(keep ? keep->vp : NULL),  MEM(keep ? keep->taup : NULL)};
        int rc =
            run_all(ops, GL_K_GB_CHASE_ALL, all, NARGS(all), 6, -1, groups,
                    run, chase_threads(ops));
        RT(ops)->release(ops->ctx, first);
        return rc;
    }
    gl_arg args[] = {VAL(n),        VAL(b),      VAL(c),
                     MEM(band),     VAL(ldband), VAL(lambda),
                     VAL(s_first),  VAL(kept),   VAL(group),
                     VAL(keep_b),   GL_MEM(first, sizeof *first),
                     MEM(keep ? keep->vq : NULL),
                     MEM(keep ? keep->tauq : NULL),
                     MEM(keep ? keep->vp : NULL),
                     MEM(keep ? keep->taup : NULL)};
    wave_args w = {GL_K_GB_CHASE, args, NARGS(args), 5, 6};
    lapack_int p[3] = {n, b, c};
    int rc = run_waves(ops, run, gb_steps(0, p), &w, gb_steps, p);
    RT(ops)->release(ops->ctx, first);
    return rc;
}

static int dev_sb_chase(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                        lapack_int sweeps, gl_scalar *band, lapack_int ldband,
                        const GL_FN(reflectors) *keep)
{
    if (b > CHASE_MAX)
        return -1;
    if (b <= 1)
        return 0;
    int *first = upload_first(ops, keep);
    if (keep && !first)
        return -1;
    int kept = keep != NULL, group = keep ? keep->group : 1,
        keep_b = keep ? keep->b : 0, lambda = 0, s_first = 0;
    lapack_int run = sweeps_run(n - 2, sweeps);
    long groups = chase_groups(ops, run);
    int nsweeps = (int)run;
    if (use_window(ops, groups, b, 1)) {
        gl_arg win[] = {VAL(n),       VAL(b),       MEM(band),
                        VAL(ldband),  VAL(nsweeps), GL_MEM(NULL, sizeof(int)),
                        GL_MEM(NULL, sizeof(int)),  VAL(kept),
                        VAL(group),   VAL(keep_b),
                        GL_MEM(first, sizeof *first),
                        MEM(keep ? keep->vq : NULL),
                        MEM(keep ? keep->tauq : NULL)};
        int rc = run_all(ops, GL_K_SB_CHASE_WINDOW, win, NARGS(win), 5, 6,
                         groups, run, window_threads(ops));
        RT(ops)->release(ops->ctx, first);
        return rc;
    }
    if (groups > 0) {
        gl_arg all[] = {VAL(n),       VAL(b),       MEM(band),
                        VAL(ldband),  VAL(nsweeps), GL_MEM(NULL, sizeof(int)),
                        VAL(kept),    VAL(group),   VAL(keep_b),
                        GL_MEM(first, sizeof *first),
                        MEM(keep ? keep->vq : NULL),
                        MEM(keep ? keep->tauq : NULL)};
        int rc =
            run_all(ops, GL_K_SB_CHASE_ALL, all, NARGS(all), 5, -1, groups,
                    run, chase_threads(ops));
        RT(ops)->release(ops->ctx, first);
        return rc;
    }
    gl_arg args[] = {VAL(n),       VAL(b),      MEM(band),
                     VAL(ldband),  VAL(lambda), VAL(s_first),
                     VAL(kept),    VAL(group),  VAL(keep_b),
                     GL_MEM(first, sizeof *first),
                     MEM(keep ? keep->vq : NULL),
                     MEM(keep ? keep->tauq : NULL)};
    wave_args w = {GL_K_SB_CHASE, args, NARGS(args), 4, 5};
    lapack_int p[2] = {n, b};
    int rc = run_waves(ops, run, sb_steps(0, p), &w, sb_steps, p);
    RT(ops)->release(ops->ctx, first);
    return rc;
}

/* ---- stage 3, values only (kernels/device/tridiag.h) ---- */

/* Eigenvalues k = kfirst .. kfirst+count-1 (ascending, 0-based) of the
 * symmetric tridiagonal (diag: n, off: n-1 values) into w (host arrays),
 * by bisection, one work-item each, with ?stebz's bounds and tolerances
 * (ABSTOL <= 0): Gershgorin's interval widened by 2.1 (n ulp |T| + 2
 * pivmin), atol = ulp |T|, rtol = 2 ulp, pivmin = safmin max(1, max
 * off_i^2).  w ascends to the tolerance; it is sorted after. */
static int bisect(const GL_FN(ops) *ops, lapack_int n, const gl_real *diag,
                  const gl_real *off, lapack_int kfirst, lapack_int count,
                  gl_real *w)
{
    const gl_real ulp = sizeof(gl_real) == sizeof(float) ? FLT_EPSILON
                                                         : DBL_EPSILON,
                  safmin = sizeof(gl_real) == sizeof(float) ? FLT_MIN
                                                            : DBL_MIN;
    if (n > INT_MAX)
        return -1;
    gl_real *e2 = malloc(sizeof *e2 * (size_t)n);
    if (!e2)
        return -1;
    gl_real e2max = 0, lo = diag[0], hi = diag[0];
    for (lapack_int i = 0; i < n; i++) {
        gl_real left = i > 0 ? GL_R(fabs)(off[i - 1]) : 0,
                right = i + 1 < n ? GL_R(fabs)(off[i]) : 0;
        e2[i] = right * right;
        e2max = e2[i] > e2max ? e2[i] : e2max;
        lo = GL_R(fmin)(lo, diag[i] - left - right);
        hi = GL_R(fmax)(hi, diag[i] + left + right);
    }
    gl_real pivmin = safmin * (e2max > 1 ? e2max : 1),
            tnorm = GL_R(fmax)(GL_R(fabs)(lo), GL_R(fabs)(hi)),
            widen = (gl_real)2.1 * (tnorm * ulp * (gl_real)n + 2 * pivmin),
            atol = GL_R(fmax)(ulp * tnorm, pivmin), rtol = 2 * ulp;
    if (tnorm == 0) {   /* T = 0: exact zeros, as ?sterf and ?bdsqr give */
        for (lapack_int i = 0; i < count; i++)
            w[i] = 0;
        free(e2);
        return 0;
    }
    lo -= widen;
    hi += widen;
    if (!isfinite(lo) || !isfinite(hi)) {
        free(e2);
        return -1;   /* the call restarts on LAPACK from the caller's data */
    }
    size_t rs = sizeof(gl_real);
    gl_real *dev =
        RT(ops)->alloc(ops->ctx, rs * (2 * (size_t)n + (size_t)count));
    int rc = -1;
    if (dev) {
        gl_real *dd = dev, *de2 = dev + n, *dw = dev + 2 * (size_t)n;
        int in = (int)n, ik = (int)kfirst, ic = (int)count;
        gl_arg args[] = {VAL(in),   GL_MEM(dd, rs), GL_MEM(de2, rs),
                         VAL(ik),   VAL(ic),        VAL(lo),
                         VAL(hi),   VAL(atol),      VAL(rtol),
                         VAL(pivmin), GL_MEM(dw, rs)};
        size_t local = 64, groups = groups_of((size_t)count, local);
        if (RT(ops)->write(ops->ctx, rs, (size_t)n, 1, diag, (size_t)n, dd,
                           (size_t)n) == 0 &&
            RT(ops)->write(ops->ctx, rs, (size_t)n, 1, e2, (size_t)n, de2,
                           (size_t)n) == 0 &&
            RT(ops)->launch(ops->ctx, GL_PRECISION, GL_K_TRIDIAG_BISECT, 1,
                            &groups, &local, NARGS(args), args) == 0)
            rc = RT(ops)->read(ops->ctx, rs, (size_t)count, 1, dw,
                               (size_t)count, w, (size_t)count);
        RT(ops)->release(ops->ctx, dev);
    }
    free(e2);
    if (rc == 0)
        GL_FN(sort_ascending)(w, (size_t)count);
    return rc;
}

static int dev_tridiag_values(const GL_FN(ops) *ops, lapack_int n,
                              const gl_real *d, const gl_real *e, gl_real *w)
{
    return n > 0 ? bisect(ops, n, d, e, 0, n, w) : 0;
}

/* The singular values of the upper bidiagonal B (d, e) are the n largest
 * eigenvalues of the Golub-Kahan tridiagonal of order 2n: zero diagonal,
 * off-diagonal d_0, e_0, d_1, ..., d_{n-1} (its spectrum is +-sigma). */
static int dev_bidiag_values(const GL_FN(ops) *ops, lapack_int n,
                             const gl_real *d, const gl_real *e, gl_real *s)
{
    if (n <= 0)
        return 0;
    gl_real *tgk = malloc(sizeof *tgk * 5 * (size_t)n);
    if (!tgk)
        return -1;
    gl_real *diag = tgk, *off = diag + 2 * n, *w = off + 2 * n;
    for (lapack_int i = 0; i < n; i++) {
        diag[2 * i] = diag[2 * i + 1] = 0;
        off[2 * i] = d[i];
        if (i + 1 < n)
            off[2 * i + 1] = e[i];
    }
    int rc = bisect(ops, 2 * n, diag, off, n, n, w);
    for (lapack_int i = 0; rc == 0 && i < n; i++)   /* descending */
        s[i] = GL_R(fabs)(w[n - 1 - i]);
    free(tgk);
    return rc;
}

/* The real precision that goes with this one (the vectors of stage 3's
 * tridiagonal and bidiagonal problems are real in every precision). */
enum { REAL_PRECISION = GL_COMPLEX ? GL_PRECISION - 2 : GL_PRECISION };
#define RS sizeof(gl_real)
#define RMEM(p) GL_MEM((p), RS)

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
 * blocks (tiled_real_product) under a plan that keeps the call's
 * working set in host memory (lean, streamed), whose device holds the
 * chase's reflectors meanwhile. */
static int dev_real_product(const GL_FN(ops) *ops, char transa, lapack_int m,
                            lapack_int n, lapack_int k, const gl_real *a,
                            lapack_int lda, const gl_real *b, lapack_int ldb,
                            gl_real *c, lapack_int ldc)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return m > 0 && n > 0 ? -1 : 0;   /* k = 0 is never asked for */
    int ta = trans_code(transa);
    if (ops->ctx->plan != GL_PLAN_IN_CORE)
        return tiled_real_product(ops, ta, m, n, k, a, lda, b, ldb, c, ldc,
                                  gl_tune_ooc_tile(m > n ? m : n, 0));
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

/* ---- stage 3 with its vectors on the device (kernels/device/dc.h) ---- */

_Static_assert(sizeof(lapack_int) == sizeof(int),
               "the kernels take the index arrays as int");

/* A device copy of count host values (released by the caller after the
 * launches that read it), or NULL. */
static void *upload(const GL_FN(ops) *ops, size_t elem, size_t count,
                    const void *src)
{
    void *dst = RT(ops)->alloc(ops->ctx, elem * (count > 0 ? count : 1));
    if (dst && count > 0 &&
        RT(ops)->write(ops->ctx, elem, count, 1, src, count, dst, count) != 0) {
        RT(ops)->release(ops->ctx, dst);
        return NULL;
    }
    return dst;
}

static lapack_int *dev_ints_to_device(const GL_FN(ops) *ops, size_t count,
                                      const lapack_int *src)
{
    return upload(ops, sizeof *src, count, src);
}

static int dev_real_to_device(const GL_FN(ops) *ops, lapack_int rows,
                              lapack_int cols, const gl_real *src,
                              lapack_int lds, gl_real *dst, lapack_int ldd)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    return RT(ops)->write(ops->ctx, RS, (size_t)rows, (size_t)cols, src,
                          (size_t)lds, dst, (size_t)ldd);
}

static int dev_real_to_host(const GL_FN(ops) *ops, lapack_int rows,
                            lapack_int cols, const gl_real *src, lapack_int lds,
                            gl_real *dst, lapack_int ldd)
{
    return RT(ops)->read_direct(ops->ctx, RS, rows > 0 ? (size_t)rows : 0,
                                cols > 0 ? (size_t)cols : 0, src, (size_t)lds,
                                dst, (size_t)ldd);
}

static int dev_real_copy(const GL_FN(ops) *ops, lapack_int rows,
                         lapack_int cols, const gl_real *src, lapack_int lds,
                         gl_real *dst, lapack_int ldd)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    return RT(ops)->copy(ops->ctx, RS, (size_t)rows, (size_t)cols, src,
                         (size_t)lds, dst, (size_t)ldd);
}

static int dev_real_fill(const GL_FN(ops) *ops, lapack_int rows,
                         lapack_int cols, gl_real diag, gl_real *a,
                         lapack_int lda)
{
    int r = (int)rows, c = (int)cols, ld = (int)lda;
    gl_arg args[] = {VAL(r), VAL(c), RMEM(a), VAL(ld), VAL(diag)};
    return launch_2d(ops, GL_K_DC_FILL, rows, cols, NARGS(args), args);
}

static int dev_real_gemm(const GL_FN(ops) *ops, char transa, lapack_int m,
                         lapack_int n, lapack_int k, const gl_real *a,
                         lapack_int lda, const gl_real *b, lapack_int ldb,
                         gl_real *c, lapack_int ldc)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (k <= 0)
        return dev_real_fill(ops, m, n, 0, c, ldc);
    return real_gemm(ops, trans_code(transa), m, n, k, a, lda, b, ldb, c, ldc);
}

/* 1-D launch of count work-items in groups of local. */
static int launch_1d(const GL_FN(ops) *ops, gl_kernel k, size_t count,
                     size_t local, int nargs, const gl_arg *args)
{
    size_t groups = groups_of(count, local);
    return count > 0 ? RT(ops)->launch(ops->ctx, GL_PRECISION, k, 1, &groups,
                                       &local, nargs, args)
                     : 0;
}

static int dev_dc_rotate(const GL_FN(ops) *ops, lapack_int count, int by_rows,
                         lapack_int nrot, const lapack_int *pair,
                         const gl_real *cs, gl_real *q, lapack_int ldq)
{
    if (count <= 0 || nrot <= 0)
        return 0;
    int *dpair = upload(ops, sizeof *pair, 2 * (size_t)nrot, pair);
    gl_real *dcs = upload(ops, RS, 2 * (size_t)nrot, cs);
    int rc = -1, c = (int)count, ld = (int)ldq, nr = (int)nrot;
    if (dpair && dcs) {
        gl_arg args[] = {VAL(c),  RMEM(q), VAL(ld), VAL(by_rows), VAL(nr),
                         GL_MEM(dpair, sizeof *pair), RMEM(dcs)};
        rc = launch_1d(ops, GL_K_DC_ROTATE, (size_t)count, 64, NARGS(args),
                       args);
    }
    RT(ops)->release(ops->ctx, dpair);
    RT(ops)->release(ops->ctx, dcs);
    return rc;
}

static int dev_dc_gather(const GL_FN(ops) *ops, lapack_int rows,
                         lapack_int cols, int by_rows, const lapack_int *from,
                         const gl_real *src, lapack_int lds, gl_real *dst,
                         lapack_int ldd)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    int *dfrom =
        upload(ops, sizeof *from, (size_t)(by_rows ? rows : cols), from);
    int rc = -1, r = (int)rows, c = (int)cols, ls = (int)lds, ld = (int)ldd;
    if (dfrom) {
        gl_arg args[] = {VAL(r),       VAL(c),   RMEM(src),
                         VAL(ls),      VAL(by_rows),
                         GL_MEM(dfrom, sizeof *from), RMEM(dst), VAL(ld)};
        rc = launch_2d(ops, GL_K_DC_GATHER, rows, cols, NARGS(args), args);
    }
    RT(ops)->release(ops->ctx, dfrom);
    return rc;
}

/* DC_THREADS of kernels/device/dc.h */
enum { DC_GROUP = 256 };

/* A merge's secular equation on the device (svd 0: the tridiagonal
 * problem, 1: the bidiagonal one): the roots from the 5k values of roots
 * (kernels/device/dc.h), the weights recomputed from them (kernel
 * weights), the vectors (kernel vectors: k work-groups, arguments vargs
 * after k and the roots), the roots' values read back last, in one wait.
 * 0, 1 where a root did not converge (the kernel's NaN, or the tests'
 * GPULAPACK_FAULT=secular:N), or -1. */
static int secular(const GL_FN(ops) *ops, lapack_int k, int svd, gl_real rho,
                   const gl_real *roots, gl_real *values, gl_kernel weights,
                   gl_kernel vectors, int nvargs, const gl_arg *vargs)
{
    if (k <= 0)
        return 0;
    gl_real *dr = upload(ops, RS, 5 * (size_t)k, roots);
    gl_real *dv = RT(ops)->alloc(ops->ctx, RS * (size_t)k);
    int rc = -1, ik = (int)k;
    if (dr && dv) {
        gl_arg rargs[] = {VAL(ik), VAL(svd), VAL(rho), RMEM(dr), RMEM(dv)};
        gl_arg wargs[] = {VAL(ik), RMEM(dr)};
        gl_arg all[8] = {VAL(ik), RMEM(dr)};
        for (int i = 0; i < nvargs; i++)
            all[2 + i] = vargs[i];
        size_t groups = (size_t)k, local = DC_GROUP;
        rc = launch_1d(ops, GL_K_DC_SECULAR_ROOTS, (size_t)k, 64, NARGS(rargs),
                       rargs) ||
                     launch_1d(ops, weights, (size_t)k, 64, NARGS(wargs),
                               wargs) ||
                     RT(ops)->launch(ops->ctx, GL_PRECISION, vectors, 1,
                                     &groups, &local, 2 + nvargs, all) ||
                     RT(ops)->read(ops->ctx, RS, (size_t)k, 1, dv, (size_t)k,
                                   values, (size_t)k)
                 ? -1
                 : 0;
    }
    RT(ops)->release(ops->ctx, dr);
    RT(ops)->release(ops->ctx, dv);
    for (lapack_int j = 0; rc == 0 && j < k; j++)
        if (values[j] != values[j])
            rc = 1;
    return rc == 0 && gl_fault_hit(GL_FAULT_SECULAR) ? 1 : rc;
}

static int dev_dc_secular(const GL_FN(ops) *ops, lapack_int k, gl_real rho,
                          const gl_real *roots, gl_real *values, gl_real *s,
                          lapack_int lds)
{
    int ld = (int)lds;
    gl_arg vargs[] = {RMEM(s), VAL(ld)};
    return secular(ops, k, 0, rho, roots, values, GL_K_DC_SECULAR_W,
                   GL_K_DC_SECULAR_VECTORS, NARGS(vargs), vargs);
}

static int dev_dc_svd_secular(const GL_FN(ops) *ops, lapack_int k, gl_real rho,
                              const gl_real *roots, gl_real *values,
                              gl_real *qu, gl_real *qvt, lapack_int ldq)
{
    int ld = (int)ldq;
    gl_arg vargs[] = {RMEM(qu), RMEM(qvt), VAL(ld)};
    return secular(ops, k, 1, rho, roots, values, GL_K_DC_SVD_Z,
                   GL_K_DC_SVD_VECTORS, NARGS(vargs), vargs);
}

static int dev_dc_svd_first_row(const GL_FN(ops) *ops, lapack_int n,
                                lapack_int m, lapack_int nl, gl_real c,
                                gl_real s, gl_real *vt, lapack_int ldvt,
                                gl_real *vt2, lapack_int ldvt2)
{
    int in = (int)n, im = (int)m, inl = (int)nl, l1 = (int)ldvt,
        l2 = (int)ldvt2;
    gl_arg args[] = {VAL(in),  VAL(im),  VAL(inl),  VAL(c),  VAL(s),
                     RMEM(vt), VAL(l1), RMEM(vt2), VAL(l2)};
    return launch_1d(ops, GL_K_DC_SVD_FIRST_ROW, (size_t)m, 64, NARGS(args),
                     args);
}

static int dev_dc_support(const GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, const gl_real *z, lapack_int ldz,
                          lapack_int *supp)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    int *dsupp = RT(ops)->alloc(ops->ctx, sizeof *supp * 2 * (size_t)cols);
    int rc = -1, r = (int)rows, c = (int)cols, ld = (int)ldz;
    if (dsupp) {
        gl_arg args[] = {VAL(r), VAL(c), RMEM(z), VAL(ld),
                         GL_MEM(dsupp, sizeof *supp)};
        rc = launch_1d(ops, GL_K_DC_SUPPORT, (size_t)cols, 64, NARGS(args),
                       args);
        if (rc == 0)
            rc = RT(ops)->read_direct(ops->ctx, sizeof *supp, 2 * (size_t)cols,
                                      1, dsupp, 2 * (size_t)cols, supp,
                                      2 * (size_t)cols);
    }
    RT(ops)->release(ops->ctx, dsupp);
    return rc;
}

static int dev_phase_rows(const GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, int transpose,
                          const gl_scalar *phase, const gl_real *z,
                          lapack_int ldz, lapack_int drows, lapack_int dcols,
                          gl_scalar *dst, lapack_int ldd)
{
    if (drows <= 0 || dcols <= 0)
        return 0;
    gl_scalar *dphase = upload(ops, ES, (size_t)(rows > 0 ? rows : 0), phase);
    int rc = -1, r = (int)rows, c = (int)cols, lz = (int)ldz,
        dr = (int)drows, dc = (int)dcols, ld = (int)ldd;
    if (dphase) {
        gl_arg args[] = {VAL(r),   VAL(c),  VAL(transpose), MEM(dphase),
                         RMEM(z),  VAL(lz), VAL(dr),        VAL(dc),
                         MEM(dst), VAL(ld)};
        rc =
            launch_2d(ops, GL_K_DC_PHASE_ROWS, drows, dcols, NARGS(args), args);
    }
    RT(ops)->release(ops->ctx, dphase);
    return rc;
}

/* gl_s_gpu_ops gl_d_gpu_ops gl_c_gpu_ops gl_z_gpu_ops */
const GL_FN(ops) GL_FN(gpu_ops) = {
    .name = "gpu",
    .alloc = dev_alloc,
    .release = dev_release,
    .to_host = dev_to_host,
    .to_host_scratch = dev_to_host_scratch,
    .mark = dev_mark,
    .to_host_scratch_marked = dev_to_host_scratch_marked,
    .tile_up = dev_tile_up,
    .tile_down = dev_tile_down,
    .lane_record = dev_lane_record,
    .lane_wait = dev_lane_wait,
    .lanes_finish = dev_lanes_finish,
    .host_pin = dev_host_pin,
    .host_unpin = dev_host_unpin,
    .ints_to_device = dev_ints_to_device,
    .copy = dev_copy,
    .from_host = dev_from_host,
    .conj_transpose = dev_conj_transpose,
    .lascl = dev_lascl,
    .pack_band = dev_pack_band,
    .zero_lower = dev_zero_lower,
    .unpack_v = dev_unpack_v,
    .geqrt = dev_geqrt,
    .gelqt = dev_gelqt,
    .larfb = dev_larfb,
    .apply_wy = dev_apply_wy,
    .wy_build = dev_wy_build,
    .geqrf = dev_geqrf,
    .gemm = dev_gemm,
    .hemv = dev_hemv,
    .hemm = dev_hemm,
    .her2k = dev_her2k,
    .trmm = dev_trmm,
    .gb_chase = dev_gb_chase,
    .sb_chase = dev_sb_chase,
    .tridiag_values = dev_tridiag_values,
    .bidiag_values = dev_bidiag_values,
    .real_product = dev_real_product,
    .real_to_device = dev_real_to_device,
    .real_to_host = dev_real_to_host,
    .real_copy = dev_real_copy,
    .real_fill = dev_real_fill,
    .real_gemm = dev_real_gemm,
    .dc_rotate = dev_dc_rotate,
    .dc_gather = dev_dc_gather,
    .dc_secular = dev_dc_secular,
    .dc_svd_secular = dev_dc_svd_secular,
    .dc_svd_first_row = dev_dc_svd_first_row,
    .dc_support = dev_dc_support,
    .phase_rows = dev_phase_rows,
};
