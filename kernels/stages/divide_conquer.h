/* Stage 3 with vectors on a device backend, by divide and conquer:
 *   bidiag_svd: the SVD B = U S VT of the real upper bidiagonal B, the
 *     contract of ?bdsdc('U', 'I');
 *   tridiag_eig: the eigenvectors Z of the real symmetric tridiagonal T,
 *     the contract of ?stedc('I');
 * each in two forms: with the vectors in host memory and the products of
 * the large merges on the device (bidiag_svd, tridiag_eig), and with the
 * vectors in device memory throughout (bidiag_svd_device,
 * tridiag_eig_device), which the pipelines use so that the vectors cross
 * the bus once, as the caller's result (declared in stage3.h).
 *
 * Why: on an H100 the system ?bdsdc took 15.7 of the 23.0 s of dgesdd
 * JOBZ='S' at n = 8192, and ?stedc 3.9 of the 7.8 s of dsyevd JOBZ='V'
 * (docs/design/vectors-on-device.md).  Almost all of their arithmetic
 * is the products of each merge, vectors of the two halves times the
 * k x k vectors of the merged secular problem, k up to n; the rest is
 * O(n^2) per merge: the
 * deflation's rotations and column moves, the vectors of the secular
 * problem.  So the tree is walked here as
 * ?lasd0/?laed0 do: subproblems up to the context's tuning.dc_leaf rows
 * (GPULAPACK_DC_LEAF) go whole to the system's ?lasd0/?stedc (all the
 * leaves at once, on the host's threads), larger ones are split, and
 * each of their merges (?lasd1/?laed1) decides its deflation on the
 * host (?lasd2's as decide_svd, ?laed2's as deflate_tri), finds
 * the roots of the secular equation, forms the vectors of the merged
 * problem (Gu and Eisenstat's recomputed z, as ?lasd3/?laed3) and takes
 * the products.
 * With the vectors on the host, the roots are the system's ?lasd4/?laed4
 * over the host's threads, the deflation's moves and the secular vectors
 * are the host's and only the products go to the device
 * (ops->real_product); with them on the device, the host keeps O(n) per
 * merge: it reads two rows (columns) of the vectors, records the
 * rotations and gathers the device then applies, and hands the secular
 * problem over, whose roots the device finds, each as its nearest pole
 * and its offset from it (kernels/device/dc.h gl_dc_secular_roots), and
 * from them the vectors to working accuracy as ?laed3/?lasd3 do; it reads
 * back the k roots.  The SVD's products are taken
 * whole (U2 and VT2 keep the zeros of their column types), which costs
 * more flops than ?lasd3's split products and none of its bookkeeping: a
 * device does them at a small fraction of the host's time.  The outer
 * parts (scaling, splitting at negligible off-diagonals, sorting) are
 * ?bdsdc's and ?stedc's.  A secular equation that does not converge
 * restarts the problem with the system routine (dc_keep_given): its
 * result, or its INFO, is LAPACK's.
 *
 * The files, each a template compiled once per precision:
 *   dc_svd.c      the bidiagonal SVD: ?lasd2's deflation, ?lasd1's merges
 *                 (vectors on the host, on the device), the tree, the
 *                 entries bidiag_svd and bidiag_svd_device;
 *   dc_tridiag.c  the tridiagonal eigenproblem: ?laed2's deflation,
 *                 ?laed1's merges, the tree, tridiag_eig and
 *                 tridiag_eig_device;
 *   dc_secular.c  the secular equations of both merges on the host's
 *                 threads (?lasd3's and ?laed3's arithmetic) and their
 *                 packing for the device (ops->dc_secular,
 *                 dc_svd_secular);
 *   dc_common.c   what both trees share: the arrays of a solve, the
 *                 leaves, the products of host arrays, the final sorts,
 *                 the given problem kept for a restart.
 * This header is theirs alone. */
#ifndef GL_DIVIDE_CONQUER_H
#define GL_DIVIDE_CONQUER_H

#include <math.h>
#include <stddef.h>

#include "../../runtime/precision.h"
#include "../../runtime/config.h"
#include "../backend/lapack_fns.h"
#include "../ops.h"

#define RAT(p, ld, i, j) ((p)[(size_t)(i) + (size_t)(j) * (size_t)(ld)])

/* 1 when the system ?stedc or ?bdsdc of an n x n problem would index its
 * own workspace past what its INTEGERs hold: ?stedc's 1 + 4n + n^2,
 * ?bdsdc's 3n^2 + 4n and ?lasd1's offsets of about 2n^2 overflow 32 bits
 * from n = 23,170 on (4 (n+1)^2 > 2^31 - 1; GPULAPACK_LWORK_LIMIT lowers
 * the bound for the tests, docs/large.md).  There our divide and conquer
 * takes the whole problem, its products on the host where the backend
 * has none, the system routine only its leaves; where it cannot, the
 * problem fails (a fault: restarted by the entry, never overrun). */
static inline int dc_system_overflows(lapack_int n)
{
    double side = (double)n + 1;
    return 4 * side * side > (double)gl_config_get()->lwork_limit;
}

/* ?bdsdc's SMLSIZ (ILAENV 9): the leaves of the system ?lasd0. */
enum { SMLSIZ = 25 };
/* Products with fewer inner terms stay on the host's BLAS: moving their
 * operands would cost more than the product.  A smaller leaf (the tests'
 * GPULAPACK_DC_LEAF) lowers this to the leaf, so small problems take the
 * device's products too. */
enum { DEVICE_MIN_K = 128 };
/* Roots per item of the parallel loops. */
enum { ROOTS_PER_ITEM = 32 };

/* A rotation of two rows of VT recorded by the deflation of a merge. */
/* gl_s_dc_rotation gl_d_dc_rotation gl_c_dc_rotation gl_z_dc_rotation */
typedef struct GL_FN(dc_rotation) {
    lapack_int a, b;   /* rows (1-based) */
    gl_real c, s;      /* row a = c a + s b, row b = c b - s a */
} GL_FN(dc_rotation);

/* A leaf of the tree: a subproblem of at most dc.leaf rows for the
 * system's ?lasd0 (d, e, the blocks at u and vt, sqre) or ?stedc (d, e,
 * the block at u; vt NULL). */
/* gl_s_dc_leaf gl_d_dc_leaf gl_c_dc_leaf gl_z_dc_leaf */
typedef struct GL_FN(dc_leaf) {
    lapack_int n, sqre, ldu, ldvt;
    gl_real *d, *e, *u, *vt;
    lapack_int *idxq;
    gl_real *dev, *dev_vt;       /* its blocks of the device's U (Z), VT,
                                    or NULL */
    lapack_int lddev, lddev_vt;
} GL_FN(dc_leaf);

/* The leaves of one tree: found by a first walk, solved at once on the
 * host's threads (they are independent, and one ?lasd0 or ?stedc of a
 * leaf leaves most of a many-core host idle), then merged by a second
 * walk. */
/* gl_s_dc_leaves gl_d_dc_leaves gl_c_dc_leaves gl_z_dc_leaves */
typedef struct GL_FN(dc_leaves) {
    GL_FN(dc_leaf) *task;
    long count;
    int info;                    /* a failing leaf's INFO > 0, else 0 */
    size_t host_used;            /* reals of dc.leaf_host given to leaves */
} GL_FN(dc_leaves);

/* The state of one solve (bidiag_svd, tridiag_eig and their device
 * forms). */
/* gl_s_dc gl_d_dc gl_c_dc gl_z_dc */
typedef struct GL_FN(dc) {
    const GL_FN(ops) *ops;
    const GL_FN(lapack_fns) *f;
    lapack_int leaf;             /* largest subproblem for the system ?lasd0 */
    size_t leaf_reals;           /* work of a leaf: ?lasd0: 3 m^2 + 2 m for
                                    m = leaf + 1; ?stedc: 1 + 4 n + n^2 */
    size_t leaf_ints;            /* ?lasd0: 8 n; ?stedc: 3 + 5 n */
    GL_FN(dc_leaves) *list;
    gl_real *merge_work;         /* the largest merge's arrays (laid out by
                                    each merge function) */
    lapack_int *merge_iwork;
    lapack_int *idxq;            /* the sorting permutations (n) */
    GL_FN(dc_rotation) *rot;     /* the deflation's rotations (n) */
    lapack_int *from;            /* the deflation's gather (n + 1) */
    /* the tridiagonal problem with Z in the backend's memory
     * (tridiag_eig_device): the leaves' host blocks before they are
     * copied there, the gathered columns of a merge (n x n) and the
     * vectors of its secular equation (n x n) */
    int device;
    int scratch_lent;            /* dq2 .. ds2 are the caller's */
    gl_real *leaf_host, *dq2, *ds;
    gl_real *dvt2, *ds2;         /* the SVD's: VT2 (m x m), Q_vt (n x n) */
} GL_FN(dc);

/* The secular equation of a merge and the vectors of its k x k problem,
 * on the host's threads (dc_secular.c).  The SVD's (?lasd3's
 * arithmetic, ?lasd4): poles dsigma, z (its signs in sign), rho the
 * squared norm, order idxc; delta(:, j) and sums(:, j) receive
 * dsigma - s_j and dsigma + s_j of root j; afterwards delta(:, j) holds
 * column j of Q_u and sums(:, j) row j of Q_vt, both with rows ordered as
 * the columns of U2.  The tridiagonal's (?laed3's, ?laed4; sums unused):
 * poles dlambda, z the weights w, order indx; delta(:, j) receives
 * dlambda - lambda_j of root j, then column j of the vectors, rows
 * ordered as the columns of Q2.  d receives the roots. */
/* gl_s_dc_secular gl_d_dc_secular gl_c_dc_secular gl_z_dc_secular */
typedef struct GL_FN(dc_secular) {
    const GL_FN(lapack_fns) *f;
    lapack_int k;
    const gl_real *poles, *sign;
    gl_real *z, rho, *d, *delta, *sums;
    const lapack_int *order;
    lapack_int info;             /* first failing root + 1, else 0 */
} GL_FN(dc_secular);

/* sqrt(x^2 + y^2) without needless overflow (?lapy2) */
static inline gl_real dc_pythag(gl_real x, gl_real y)
{
    gl_real ax = GL_R(fabs)(x), ay = GL_R(fabs)(y);
    gl_real w = GL_R(fmax)(ax, ay), v = GL_R(fmin)(ax, ay);
    if (v == 0 || !isfinite(w))
        return w;
    return w * GL_R(sqrt)(1 + (v / w) * (v / w));
}

/* The 2-norm, scaled: the vectors of close roots have large entries. */
static inline gl_real dc_norm2(lapack_int n, const gl_real *x)
{
    gl_real big = 0, sum = 0;
    for (lapack_int i = 0; i < n; i++)
        big = GL_R(fmax)(big, GL_R(fabs)(x[i]));
    if (big == 0 || !isfinite(big))
        return big;
    for (lapack_int i = 0; i < n; i++)
        sum += (x[i] / big) * (x[i] / big);
    return big * GL_R(sqrt)(sum);
}

/* ---- dc_common.c ---- */

/* The state of a solve with ops, nothing allocated yet: the context's
 * tuning.dc_leaf as its leaf, at least min_leaf; device: the vectors in
 * the backend's memory. */
/* gl_s_dc_start gl_d_dc_start gl_c_dc_start gl_z_dc_start */
GL_FN(dc) GL_FN(dc_start)(const GL_FN(ops) *ops, lapack_int min_leaf,
                          int device);

/* The arrays of a solve; 0, or -1 when one was refused (nothing held). */
/* gl_s_dc_alloc gl_d_dc_alloc gl_c_dc_alloc gl_z_dc_alloc */
int GL_FN(dc_alloc)(GL_FN(dc) *s, lapack_int n, size_t leaf_reals,
                    size_t leaf_ints, size_t merge_reals, size_t merge_ints);

/* With the vectors on the device: after dc_alloc, the leaves' host blocks
 * (leaf_host_reals) and the device's n x n scratch, s->dq2, (svd: s->dvt2)
 * s->ds, (svd: s->ds2): in scratch when the caller lends it (4 n^2 reals
 * for the SVD, 2 n^2 otherwise, of the backend's memory), else allocated.
 * 0, or -1 when one was refused (the caller frees s). */
/* gl_s_dc_alloc_device gl_d_dc_alloc_device gl_c_dc_alloc_device gl_z_dc_alloc_device */
int GL_FN(dc_alloc_device)(GL_FN(dc) *s, lapack_int n, size_t leaf_host_reals,
                           int svd, gl_real *scratch);

/* gl_s_dc_free gl_d_dc_free gl_c_dc_free gl_z_dc_free */
void GL_FN(dc_free)(GL_FN(dc) *s);

/* d (n values) sorted descending or ascending in the order of a
 * selection sort (?bdsdc's and ?stedc's final sort: the same order for
 * equal values); from[i] = the index value i came from.  Returns 0, or -1
 * without memory. */
/* gl_s_dc_sort_order gl_d_dc_sort_order gl_c_dc_sort_order gl_z_dc_sort_order */
int GL_FN(dc_sort_order)(lapack_int n, gl_real *d, int descending,
                         lapack_int *from);

/* d sorted as dc_sort_order sorts it, the columns of cols (n rows) and,
 * unless rows is NULL, the rows of rows (n columns) permuted with it, on
 * the host.  Returns 0, or -1 without memory. */
/* gl_s_dc_sort_pairs gl_d_dc_sort_pairs gl_c_dc_sort_pairs gl_z_dc_sort_pairs */
int GL_FN(dc_sort_pairs)(lapack_int n, gl_real *d, int descending,
                         gl_real *cols, lapack_int ldc, gl_real *rows,
                         lapack_int ldr);

/* The same with cols and rows (unless NULL) in the backend's memory, the
 * columns (rows) gathered on the device through s->dq2 (s->dvt2).
 * Returns 0, or -1. */
/* gl_s_dc_sort_device gl_d_dc_sort_device gl_c_dc_sort_device gl_z_dc_sort_device */
int GL_FN(dc_sort_device)(const GL_FN(dc) *s, lapack_int n, gl_real *d,
                          int descending, gl_real *cols, lapack_int ldc,
                          gl_real *rows, lapack_int ldr);

/* d and e (n and n - 1 values) as given, or NULL.  Our tree of merges
 * meets other secular equations than the system routine's, and ?lasd4 or
 * ?laed4 can fail to converge on one of ours where the system's tree has
 * none (single precision, entries over ten decades, test_device_ops):
 * the call then starts again from these with the system routine, whose
 * result (or INFO) is what LAPACK gives. */
/* gl_s_dc_keep_given gl_d_dc_keep_given gl_c_dc_keep_given gl_z_dc_keep_given */
gl_real *GL_FN(dc_keep_given)(lapack_int n, const gl_real *d,
                              const gl_real *e);

/* gl_s_dc_restore_given gl_d_dc_restore_given gl_c_dc_restore_given gl_z_dc_restore_given */
void GL_FN(dc_restore_given)(lapack_int n, const gl_real *given, gl_real *d,
                             gl_real *e);

/* C = op(A) B of host arrays: on the device when it pays. */
/* gl_s_dc_product gl_d_dc_product gl_c_dc_product gl_z_dc_product */
int GL_FN(dc_product)(const GL_FN(dc) *s, char transa, lapack_int m,
                      lapack_int n, lapack_int k, const gl_real *a,
                      lapack_int lda, const gl_real *b, lapack_int ldb,
                      gl_real *c, lapack_int ldc);

/* A leaf t found by the first walk, listed; with the vectors on the
 * device, its blocks (t.u, and t.vt unless NULL) become those of the
 * device and t gets host blocks of s->leaf_host to be solved into. */
/* gl_s_dc_list_leaf gl_d_dc_list_leaf gl_c_dc_list_leaf gl_z_dc_list_leaf */
void GL_FN(dc_list_leaf)(const GL_FN(dc) *s, GL_FN(dc_leaf) t);

/* The listed leaves on the host's threads (leaf(s, i) solves leaf i with
 * its own work), then, with the vectors on the device, their host blocks
 * copied there.  0, the INFO > 0 of a leaf, or -1. */
/* gl_s_dc_solve_leaves gl_d_dc_solve_leaves gl_c_dc_solve_leaves gl_z_dc_solve_leaves */
int GL_FN(dc_solve_leaves)(const GL_FN(dc) *s,
                           int (*leaf)(void *ctx, long i));

/* A leaf's INFO > 0 kept for dc_solve_leaves (from any thread). */
/* gl_s_dc_leaf_failed gl_d_dc_leaf_failed gl_c_dc_leaf_failed gl_z_dc_leaf_failed */
void GL_FN(dc_leaf_failed)(const GL_FN(dc) *s, lapack_int info);

/* ---- dc_secular.c ---- */

/* The roots of a secular equation (dc_secular; the SVD's where
 * q->sums is set, else the tridiagonal's) over items of ROOTS_PER_ITEM
 * on the host's threads.  0, the first failing root + 1, or -1. */
/* gl_s_dc_secular_roots gl_d_dc_secular_roots gl_c_dc_secular_roots gl_z_dc_secular_roots */
int GL_FN(dc_secular_roots)(GL_FN(dc_secular) *q, long items);

/* Then the SVD's z recomputed from the roots and its vectors.  0, or -1. */
/* gl_s_dc_svd_vectors gl_d_dc_svd_vectors gl_c_dc_svd_vectors gl_z_dc_svd_vectors */
int GL_FN(dc_svd_vectors)(GL_FN(dc_secular) *q, long items);

/* The tridiagonal's w recomputed from the roots and its vectors.  0, or
 * -1. */
/* gl_s_dc_tri_vectors gl_d_dc_tri_vectors gl_c_dc_tri_vectors gl_z_dc_tri_vectors */
int GL_FN(dc_tri_vectors)(GL_FN(dc_secular) *q, long items);

/* A merge's secular problem of k poles packed for the device (ops.h
 * dc_secular): the poles, k offsets and k origins for the roots, the
 * weights, and the order of the vectors' rows (the 1-based order idx,
 * 0-based, from row first on; the rows before it stay in place). */
/* gl_s_dc_pack_secular gl_d_dc_pack_secular gl_c_dc_pack_secular gl_z_dc_pack_secular */
void GL_FN(dc_pack_secular)(lapack_int k, const gl_real *poles,
                            const gl_real *weights, const lapack_int *idx,
                            lapack_int first, gl_real *packed);

/* ---- dc_svd_deflate.c ---- */

/* What ?lasd2 decides for a merge of the SVD (its arrays and outputs
 * above its definition), and ?lasd2's contract on host arrays with
 * those decisions applied on the host's threads (0, or -1 if the
 * threads' work failed). */
lapack_int GL_FN(decide_svd)(const GL_FN(lapack_fns) *f, lapack_int nl,
                             lapack_int nr, lapack_int sqre, gl_real *d0,
                             gl_real *z0, gl_real alpha, gl_real beta,
                             const gl_real *col1, const gl_real *col2,
                             gl_real *dsigma0, gl_real *u_scratch,
                             lapack_int *idxp0, lapack_int *idx0,
                             lapack_int *idxc0, lapack_int *idxq0,
                             lapack_int *coltyp0, GL_FN(dc_rotation) *rot,
                             lapack_int *nrot_out, lapack_int *from,
                             gl_real *c_out, gl_real *s_out);
int GL_FN(deflate_svd)(const GL_FN(lapack_fns) *f, lapack_int nl,
                       lapack_int nr, lapack_int sqre, lapack_int *k_out,
                       gl_real *d0, gl_real *z0, gl_real alpha, gl_real beta,
                       gl_real *u, lapack_int ldu, gl_real *vt,
                       lapack_int ldvt, gl_real *dsigma0, gl_real *u2,
                       gl_real *vt2, lapack_int *idxp0, lapack_int *idx0,
                       lapack_int *idxc0, lapack_int *idxq0,
                       lapack_int *coltyp0, GL_FN(dc_rotation) *rot,
                       lapack_int *from);

#endif
