/* The host backend: kernels/backend/host/ fills the whole operation table
 * with the system LAPACK/BLAS (resolved at run time, like the forwarded
 * routines) and the plain-C stage-2 kernels, per precision
 * (runtime/precision.h). */
#ifndef GL_HOST_H
#define GL_HOST_H

#include "../../ops.h"
#include "../../../runtime/parallel.h"
#include "../../../runtime/tune.h"

/* tile_gemm's modes (below) */
enum { GL_TILE_SET, GL_TILE_SUBTRACT, GL_TILE_ADD };

/* The table's gb_chase and sb_chase (ops.h), on the host's threads. */
int GL_FN(host_gb_chase)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                         lapack_int c, lapack_int sweeps, gl_scalar *band,
                         lapack_int ldband, const GL_FN(reflectors) *keep);
int GL_FN(host_sb_chase)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                         lapack_int sweeps, gl_scalar *band, lapack_int ldband,
                         const GL_FN(reflectors) *keep);

/* The same on `threads` threads (at least 1) in a schedule of chase.c
 * (runtime/tune.h GL_SCHEDULE_*); the operations above choose them from
 * the context's tuning (threads.h gl_host_chase_threads).  The band comes
 * out bit for bit the same on any of them. */
int GL_FN(host_gb_chase_on)(lapack_int n, lapack_int b, lapack_int c,
                            lapack_int sweeps, gl_scalar *band,
                            lapack_int ldband, const GL_FN(reflectors) *keep,
                            int threads, int schedule);
int GL_FN(host_sb_chase_on)(lapack_int n, lapack_int b, lapack_int sweeps,
                            gl_scalar *band, lapack_int ldband,
                            const GL_FN(reflectors) *keep, int threads,
                            int schedule);

/* Stage 3 of the values by bisection on `threads` threads (values.c):
 * kind 'T': w = the eigenvalues of the symmetric tridiagonal (d: n, e:
 * n-1), ascending, as ?sterf; 'B': the singular values of the upper
 * bidiagonal (d, e), descending, as ?bdsqr.  w may be d.  The same w on
 * any number of threads.  Returns 0, or -1 (no memory, or a value that
 * is not finite) with w untouched. */
int GL_FN(host_values)(char kind, lapack_int n, const gl_real *d,
                       const gl_real *e, gl_real *w, int threads);

/* C = A B (mode GL_TILE_SET), C = C - A B (GL_TILE_SUBTRACT) or
 * C = C + A B (GL_TILE_ADD): A m x kdim, B kdim x n, all column-major;
 * A(i, p) is zero for p < i - below and for p > i + above (below m and
 * above kdim: no zeros assumed), and the kernel skips what it can of
 * them.
 * Register-tiled for in-cache operands: the products of host_apply_wy,
 * whose chunks of columns are best a multiple of tile_gemm_cols(), the
 * tiles of products_her2k_hemm and stage 1's narrow products in strips
 * (products.c). */
void GL_FN(tile_gemm)(lapack_int m, lapack_int n, lapack_int kdim, int mode,
                      const gl_scalar *a, lapack_int lda, lapack_int below,
                      lapack_int above, const gl_scalar *b, lapack_int ldb,
                      gl_scalar *c, lapack_int ldc);
lapack_int GL_FN(tile_gemm_cols)(void);
/* 1 where tile_gemm runs a vector kernel (AVX2, AVX-512), 0 where the
 * portable one serves */
int GL_FN(tile_gemm_vector)(void);

/* A block reflector applied whole (host_ops.c host_larfb's arguments). */
typedef int GL_FN(larfb_fn)(const GL_FN(ops) *ops, char side, char trans,
                            char storev, lapack_int m, lapack_int n,
                            lapack_int k, const gl_scalar *v, lapack_int ldv,
                            const gl_scalar *t, lapack_int ldt, gl_scalar *c,
                            lapack_int ldc);

/* C = alpha A B + beta C, A Hermitian, from the left: large, by column
 * panels of A's stored triangle, each used twice through ?gemm (Debian's
 * OpenBLAS 0.3.21 runs ?symm/?hemm at about half its ?gemm rate, and
 * this product is half the work of sy2sb); small, by ?hemm. */
void GL_FN(hemm_left)(char uplo, lapack_int m, lapack_int n, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                      lapack_int ldb, gl_scalar beta, gl_scalar *c,
                      lapack_int ldc);

/* The large products of a run on the library's threads (products.c,
 * runtime/parallel.h gl_products_begin), on up to run->product_threads
 * threads of run->product_team (larfb: ops's), with the arguments of the BLAS routine of the
 * same name (larfb: of host_larfb, `whole` applying it to each piece):
 * 0 done, 1 not worth sharing or no run (the caller then calls the BLAS
 * whole), -1 (larfb) failed. */
int GL_FN(products_gemm)(const GL_FN(ops) *run, char ta, char tb, lapack_int m,
                         lapack_int n, lapack_int k, gl_scalar alpha,
                         const gl_scalar *a, lapack_int lda,
                         const gl_scalar *b, lapack_int ldb, gl_scalar beta,
                         gl_scalar *c, lapack_int ldc);
int GL_FN(products_hemm)(const GL_FN(ops) *run, char side, char uplo,
                         lapack_int m, lapack_int n, gl_scalar alpha,
                         const gl_scalar *a, lapack_int lda,
                         const gl_scalar *b, lapack_int ldb, gl_scalar beta,
                         gl_scalar *c, lapack_int ldc);
int GL_FN(products_her2k)(const GL_FN(ops) *run, char uplo, char trans,
                          lapack_int n, lapack_int k, gl_scalar alpha,
                          const gl_scalar *a, lapack_int lda,
                          const gl_scalar *b, lapack_int ldb, gl_real beta,
                          gl_scalar *c, lapack_int ldc);
int GL_FN(products_trmm)(const GL_FN(ops) *run, char side, char uplo,
                         char trans, char diag, lapack_int m, lapack_int n,
                         gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                         gl_scalar *b, lapack_int ldb);
int GL_FN(products_larfb)(const GL_FN(ops) *ops, GL_FN(larfb_fn) *whole,
                          char side, char trans, char storev, lapack_int m,
                          lapack_int n, lapack_int k, const gl_scalar *v,
                          lapack_int ldv, const gl_scalar *t, lapack_int ldt,
                          gl_scalar *c, lapack_int ldc);

/* The host's lookahead (ops.h larfb_ahead, her2k_ahead), on the run's
 * threads: the task's result, or 1 where the update is not worth sharing,
 * there is no run or no memory.  larfb: side 'L' with storev 'C', 'R'
 * with 'R'; her2k: 'L', 'N'. */
int GL_FN(products_larfb_ahead)(const GL_FN(ops) *ops, char side, char trans,
                                char storev, lapack_int m, lapack_int n,
                                lapack_int k, const gl_scalar *v,
                                lapack_int ldv, const gl_scalar *t,
                                lapack_int ldt, gl_scalar *c, lapack_int ldc,
                                GL_FN(ops_task) *task, void *arg);
int GL_FN(products_her2k_ahead)(const GL_FN(ops) *ops, char uplo, char trans,
                                lapack_int n, lapack_int k, gl_scalar alpha,
                                const gl_scalar *a, lapack_int lda,
                                const gl_scalar *b, lapack_int ldb,
                                gl_real beta, gl_scalar *c, lapack_int ldc,
                                lapack_int ahead, GL_FN(ops_task) *task,
                                void *arg);

/* ops.h her2k_hemm_ahead on the run's threads (update_product.c): the
 * task's result, or 1 where there is no run, no vector tile kernel, no
 * memory, or the matrix is small (then nothing is done).  A call's table
 * has it with GPULAPACK_HOST_PRODUCTS=fused only (ops_bind.c). */
int GL_FN(products_her2k_hemm)(const GL_FN(ops) *ops, lapack_int n,
                               lapack_int k, const gl_scalar *a,
                               lapack_int lda, const gl_scalar *b,
                               lapack_int ldb, gl_scalar *c, lapack_int ldc,
                               lapack_int ahead, GL_FN(ops_task) *task,
                               void *arg, lapack_int ks, const gl_scalar *s,
                               lapack_int lds, gl_scalar *x, lapack_int ldx);

/* ops.h ge_update_ahead on the run's threads (ge_update_product.c), as
 * products_her2k_hemm. */
int GL_FN(products_ge_update)(const GL_FN(ops) *ops, char lines, lapack_int m,
                              lapack_int n, lapack_int k, const gl_scalar *u,
                              lapack_int ldu, const gl_scalar *w,
                              lapack_int ldw, gl_scalar *c, lapack_int ldc,
                              lapack_int ahead, GL_FN(ops_task) *task,
                              void *arg, lapack_int ks, const gl_scalar *z,
                              lapack_int ldz, gl_scalar *x, lapack_int ldx);

/* sy2sb (kernels/stages/stages.h) of A (n x n, its lower triangle) to
 * half-width b on the host, its products on `threads` threads
 * (gpulapack-tune's timings); 0, or the stage's error. */
int GL_FN(host_sy2sb_on)(lapack_int n, lapack_int b, gl_scalar *a,
                         lapack_int lda, int threads);

/* The host backend's table, a template bound to a context by ops_bind
 * (ctx NULL here). */
extern const GL_FN(ops) GL_FN(host_ops);

#endif
