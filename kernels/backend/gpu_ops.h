/* The GPU paths' operation table (kernels/backend/gpu/) as the plans see
 * it: its template, from which a device plan decides without a device
 * (kernels/pipelines/svd.c svd_device_bytes), and the device scratch its
 * operations take beside their operands, which the plans count. */
#ifndef GL_BACKEND_GPU_OPS_H
#define GL_BACKEND_GPU_OPS_H

#include "../ops.h"

/* gl_s_gpu_ops gl_d_gpu_ops gl_c_gpu_ops gl_z_gpu_ops */
extern const GL_FN(ops) GL_FN(gpu_ops);

/* A device's apply_wy holds V^H E of a run of blocks in at most
 * gl_wy_scratch_bytes(bytes of E) (256 MiB, and a quarter of E: the
 * scratch stays a share of the call's matrices); larfb on m x n with k
 * reflectors makes V' and T dense and keeps two k x n (side 'L') or
 * m x k products: GL_LARFB_SCRATCH scalars, len the length of V'. */
static inline size_t gl_wy_scratch_bytes(size_t e_bytes)
{
    size_t cap = (size_t)256 << 20;
    return e_bytes / 4 < cap ? e_bytes / 4 : cap;
}
#define GL_LARFB_SCRATCH(len, other, k)                                      \
    (2 * (size_t)(k) * (size_t)(other) + (size_t)(len) * (size_t)(k) +        \
     (size_t)(k) * (size_t)(k))

/* The device scratch that gpu_ops' geqrt (qr 1: a panel of long_side
 * rows and short_side columns) or gelqt (qr 0: short_side rows and
 * long_side columns) holds at its peak on a device of this tuning: what
 * a plan counts beside a pipeline's own arrays. */
size_t GL_FN(gpu_panel_bytes)(const gl_tuning *tuning, int qr,
                              lapack_int long_side, lapack_int short_side);

/* The device memory gpu_ops' real_product holds at most under a lean or
 * streamed plan (it multiplies in blocks of t rows and columns then) for
 * the products of an n x n divide and conquer. */
size_t GL_FN(tiled_product_device_bytes)(lapack_int n, lapack_int t);

#endif
