/* What the files of the GPU paths' operation table share (gpu_ops.c: the
 * table and the memory and copies it works in; gpu_blas.c: the products;
 * gpu_panels.c: the panel factorizations; gpu_chase.c: stage 2;
 * gpu_stage3.c: stage 3's values and divide and conquer): how a launch
 * reaches the runtime of the table's context, the kernels' shapes, and
 * the operations one file calls in another (each under its per-precision
 * name, GL_FN(dev_gemm) = gl_d_dev_gemm, ...). */
#ifndef GL_BACKEND_GPU_LAUNCH_H
#define GL_BACKEND_GPU_LAUNCH_H

#include <complex.h>

#include "../../../runtime/gpu.h"
#include "../../../runtime/precision.h"
#include "../../ops.h"

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

/* gl_gemm's read modes of an operand and write modes of C
 * (kernels/device/blas.h gemm_load, gemm_store). */
enum { GM_UPPER = 1, GM_LOWER = 2, GM_UNIT = 4, GM_HERM = 8 };
enum { GC_UPPER = 1, GC_LOWER = 2, GC_REAL_DIAG = 4 };

/* gl_scalar as the kernels see it (float2/double2 for complex) */
typedef struct { gl_real part[1 + GL_COMPLEX]; } device_scalar;
static inline device_scalar dev_scalar(gl_scalar x)
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

static inline size_t groups_of(size_t x, size_t m) { return (x + m - 1) / m; }

/* A 2-D launch over rows x cols in 16 x 16 groups. */
static inline int launch_2d(const GL_FN(ops) *ops, gl_kernel k,
                            lapack_int rows, lapack_int cols, int nargs,
                            const gl_arg *args)
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
static inline size_t chase_threads(const GL_FN(ops) *ops)
{
    int t = ops->ctx->tuning.group_threads;
    return (size_t)(t < CHASE_MAX ? t : CHASE_MAX);
}

/* groups work-groups of chase_threads() work-items. */
static inline int launch_groups(const GL_FN(ops) *ops, gl_kernel k,
                                size_t groups, int nargs, const gl_arg *args)
{
    size_t local = chase_threads(ops);
    return RT(ops)->launch(ops->ctx, GL_PRECISION, k, 1, &groups, &local, nargs,
                           args);
}

/* The real precision that goes with this one (the vectors of stage 3's
 * tridiagonal and bidiagonal problems are real in every precision). */
enum { REAL_PRECISION = GL_COMPLEX ? GL_PRECISION - 2 : GL_PRECISION };
#define RS sizeof(gl_real)
#define RMEM(p) GL_MEM((p), RS)

/* A device copy of count host values (released by the caller after the
 * launches that read it), or NULL. */
static inline void *upload(const GL_FN(ops) *ops, size_t elem, size_t count,
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

/* gpu_ops.c: the memory the others work in */
void GL_FN(dev_zero_lower)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                           gl_scalar *a, lapack_int lda);
void GL_FN(dev_unpack_v)(const GL_FN(ops) *ops, char storev, lapack_int m,
                         lapack_int k, const gl_scalar *a, lapack_int lda,
                         gl_scalar *v, lapack_int ldv);
int GL_FN(dev_real_fill)(const GL_FN(ops) *ops, lapack_int rows,
                         lapack_int cols, gl_real diag, gl_real *a,
                         lapack_int lda);

/* gpu_blas.c */
void GL_FN(dev_gemm)(const GL_FN(ops) *ops, char transa, char transb,
                     lapack_int m, lapack_int n, lapack_int k, gl_scalar alpha,
                     const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                     lapack_int ldb, gl_scalar beta, gl_scalar *c,
                     lapack_int ldc);
void GL_FN(dev_hemm)(const GL_FN(ops) *ops, char side, char uplo, lapack_int m,
                     lapack_int n, gl_scalar alpha, const gl_scalar *a,
                     lapack_int lda, const gl_scalar *b, lapack_int ldb,
                     gl_scalar beta, gl_scalar *c, lapack_int ldc);
void GL_FN(dev_hemv)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                     gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                     const gl_scalar *x, gl_scalar beta, gl_scalar *y);
void GL_FN(dev_her2k)(const GL_FN(ops) *ops, char uplo, char trans,
                      lapack_int n, lapack_int k, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                      lapack_int ldb, gl_real beta, gl_scalar *c,
                      lapack_int ldc);
void GL_FN(dev_trmm)(const GL_FN(ops) *ops, char side, char uplo, char transa,
                     char diag, lapack_int m, lapack_int n, gl_scalar alpha,
                     const gl_scalar *a, lapack_int lda, gl_scalar *b,
                     lapack_int ldb);
int GL_FN(dev_larfb)(const GL_FN(ops) *ops, char side, char trans, char storev,
                     lapack_int m, lapack_int n, lapack_int k,
                     const gl_scalar *v, lapack_int ldv, const gl_scalar *t,
                     lapack_int ldt, gl_scalar *c, lapack_int ldc);
int GL_FN(dev_apply_wy)(const GL_FN(ops) *ops, lapack_int nblocks,
                        const lapack_int *row0, const lapack_int *rows,
                        const lapack_int *k, const gl_scalar *vh,
                        const gl_scalar *y, lapack_int ldy, size_t stride,
                        lapack_int band, int y_banded, lapack_int ncols,
                        gl_scalar *e, lapack_int lde);
int GL_FN(dev_wy_build)(const GL_FN(ops) *ops, lapack_int nblocks,
                        const lapack_int *blocks, lapack_int kmax,
                        const gl_scalar *vstore, const gl_scalar *taustore,
                        lapack_int b, lapack_int ldv, size_t stride,
                        int forward, gl_scalar *vh, gl_scalar *y);
int GL_FN(dev_real_product)(const GL_FN(ops) *ops, char transa, lapack_int m,
                            lapack_int n, lapack_int k, const gl_real *a,
                            lapack_int lda, const gl_real *b, lapack_int ldb,
                            gl_real *c, lapack_int ldc);
int GL_FN(dev_real_gemm)(const GL_FN(ops) *ops, char transa, lapack_int m,
                         lapack_int n, lapack_int k, const gl_real *a,
                         lapack_int lda, const gl_real *b, lapack_int ldb,
                         gl_real *c, lapack_int ldc);
int GL_FN(gemm_modes)(const GL_FN(ops) *ops, char transa, char transb,
                      lapack_int m, lapack_int n, lapack_int k,
                      gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                      int amode, const gl_scalar *b, lapack_int ldb, int bmode,
                      gl_scalar beta, gl_scalar *c, lapack_int ldc, int cmode);

/* gpu_panels.c */
int GL_FN(dev_geqrt)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda, gl_scalar *t,
                     lapack_int ldt);
int GL_FN(dev_gelqt)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda, gl_scalar *t,
                     lapack_int ldt);
int GL_FN(dev_geqrf)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     gl_scalar *a, lapack_int lda);

/* gpu_chase.c */
int GL_FN(dev_gb_chase)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                        lapack_int c, lapack_int sweeps, gl_scalar *band,
                        lapack_int ldband, const GL_FN(reflectors) *keep);
int GL_FN(dev_sb_chase)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                        lapack_int sweeps, gl_scalar *band, lapack_int ldband,
                        const GL_FN(reflectors) *keep);

/* gpu_stage3.c */
int GL_FN(dev_tridiag_values)(const GL_FN(ops) *ops, lapack_int n,
                              const gl_real *d, const gl_real *e, gl_real *w);
int GL_FN(dev_bidiag_values)(const GL_FN(ops) *ops, lapack_int n,
                             const gl_real *d, const gl_real *e, gl_real *s);
int GL_FN(dev_dc_rotate)(const GL_FN(ops) *ops, lapack_int count, int by_rows,
                         lapack_int nrot, const lapack_int *pair,
                         const gl_real *cs, gl_real *q, lapack_int ldq);
int GL_FN(dev_dc_gather)(const GL_FN(ops) *ops, lapack_int rows,
                         lapack_int cols, int by_rows, const lapack_int *from,
                         const gl_real *src, lapack_int lds, gl_real *dst,
                         lapack_int ldd);
int GL_FN(dev_dc_secular)(const GL_FN(ops) *ops, lapack_int k, gl_real rho,
                          const gl_real *roots, gl_real *values, gl_real *s,
                          lapack_int lds);
int GL_FN(dev_dc_svd_secular)(const GL_FN(ops) *ops, lapack_int k, gl_real rho,
                              const gl_real *roots, gl_real *values,
                              gl_real *qu, gl_real *qvt, lapack_int ldq);
int GL_FN(dev_dc_svd_first_row)(const GL_FN(ops) *ops, lapack_int n,
                                lapack_int m, lapack_int nl, gl_real c,
                                gl_real s, gl_real *vt, lapack_int ldvt,
                                gl_real *vt2, lapack_int ldvt2);
int GL_FN(dev_dc_support)(const GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, const gl_real *z, lapack_int ldz,
                          lapack_int *supp);
int GL_FN(dev_phase_rows)(const GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, int transpose,
                          const gl_scalar *phase, const gl_real *z,
                          lapack_int ldz, lapack_int drows, lapack_int dcols,
                          gl_scalar *dst, lapack_int ldd);

#endif
