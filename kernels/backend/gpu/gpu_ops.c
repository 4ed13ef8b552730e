/* The operation table of the GPU backends: every operation runs on the
 * table's context (ops->ctx, bound by ops_bind: runtime/context.h), that
 * is on its device and queue through its runtime (runtime/gpu.h: OpenCL,
 * CUDA or HIP), with the kernels of kernels/device/; memory is device
 * memory.  The algorithms are the host backend's (kernels/backend/host/),
 * so the two agree to rounding.  gpu_ops itself is the template (ctx
 * NULL).  This file holds the table and the memory and copies its
 * operations work in; the operations by concern: gpu_blas.c (products),
 * gpu_panels.c (panel factorizations), gpu_chase.c (stage 2) and
 * gpu_stage3.c (stage 3), over what launch.h shares.
 *
 * Errors: operations that return int report a failure at once; the
 * others (copies in, packing, BLAS3) leave it in the context's error
 * state, which the next read (to_host) reports before it writes any host
 * memory.  So a pipeline either ends with every result read
 * back, or fails without having written a result from a failed device. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../../../runtime/precision.h"
#include "../../../runtime/config.h"
#include "../gpu_ops.h"
#include "launch.h"

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

/* gl_s_dev_zero_lower gl_d_dev_zero_lower gl_c_dev_zero_lower gl_z_dev_zero_lower */
void GL_FN(dev_zero_lower)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                           gl_scalar *a, lapack_int lda)
{
    gl_arg args[] = {VAL(m), VAL(n), MEM(a), VAL(lda)};
    if (launch_2d(ops, GL_K_ZERO_LOWER, m, n, NARGS(args), args) != 0)
        RT(ops)->fail(ops->ctx);
}

/* gl_s_dev_unpack_v gl_d_dev_unpack_v gl_c_dev_unpack_v gl_z_dev_unpack_v */
void GL_FN(dev_unpack_v)(const GL_FN(ops) *ops, char storev, lapack_int m,
                         lapack_int k, const gl_scalar *a, lapack_int lda,
                         gl_scalar *v, lapack_int ldv)
{
    int rows = storev == 'R';
    gl_arg args[] = {VAL(rows), VAL(m), VAL(k), MEM(a), VAL(lda), MEM(v),
                     VAL(ldv)};
    if (launch_2d(ops, GL_K_UNPACK_V, m, k, NARGS(args), args) != 0)
        RT(ops)->fail(ops->ctx);
}
/* ---- stage 3 with its vectors on the device (kernels/device/dc.h) ---- */

_Static_assert(sizeof(lapack_int) == sizeof(int),
               "the kernels take the index arrays as int");

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

/* gl_s_dev_real_fill gl_d_dev_real_fill gl_c_dev_real_fill gl_z_dev_real_fill */
int GL_FN(dev_real_fill)(const GL_FN(ops) *ops, lapack_int rows,
                         lapack_int cols, gl_real diag, gl_real *a,
                         lapack_int lda)
{
    int r = (int)rows, c = (int)cols, ld = (int)lda;
    gl_arg args[] = {VAL(r), VAL(c), RMEM(a), VAL(ld), VAL(diag)};
    return launch_2d(ops, GL_K_DC_FILL, rows, cols, NARGS(args), args);
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
    .zero_lower = GL_FN(dev_zero_lower),
    .unpack_v = GL_FN(dev_unpack_v),
    .geqrt = GL_FN(dev_geqrt),
    .gelqt = GL_FN(dev_gelqt),
    .larfb = GL_FN(dev_larfb),
    .apply_wy = GL_FN(dev_apply_wy),
    .wy_build = GL_FN(dev_wy_build),
    .geqrf = GL_FN(dev_geqrf),
    .gemm = GL_FN(dev_gemm),
    .hemv = GL_FN(dev_hemv),
    .hemm = GL_FN(dev_hemm),
    .her2k = GL_FN(dev_her2k),
    .trmm = GL_FN(dev_trmm),
    .gb_chase = GL_FN(dev_gb_chase),
    .sb_chase = GL_FN(dev_sb_chase),
    .tridiag_values = GL_FN(dev_tridiag_values),
    .bidiag_values = GL_FN(dev_bidiag_values),
    .real_product = GL_FN(dev_real_product),
    .real_to_device = dev_real_to_device,
    .real_to_host = dev_real_to_host,
    .real_copy = dev_real_copy,
    .real_fill = GL_FN(dev_real_fill),
    .real_gemm = GL_FN(dev_real_gemm),
    .dc_rotate = GL_FN(dev_dc_rotate),
    .dc_gather = GL_FN(dev_dc_gather),
    .dc_secular = GL_FN(dev_dc_secular),
    .dc_svd_secular = GL_FN(dev_dc_svd_secular),
    .dc_svd_first_row = GL_FN(dev_dc_svd_first_row),
    .dc_support = GL_FN(dev_dc_support),
    .phase_rows = GL_FN(dev_phase_rows),
};
