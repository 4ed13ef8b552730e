/* Stage 3 with vectors on a device backend, by divide and conquer:
 *   bidiag_svd: the SVD B = U S VT of the real upper bidiagonal B, the
 *     contract of ?bdsdc('U', 'I');
 *   tridiag_eig: the eigenvectors Z of the real symmetric tridiagonal T,
 *     the contract of ?stedc('I');
 * each in two forms: with the vectors in host memory and the products of
 * the large merges on the device (bidiag_svd, tridiag_eig), and with the
 * vectors in device memory throughout (bidiag_svd_device,
 * tridiag_eig_device), which the pipelines use so that the vectors cross
 * the bus once, as the caller's result.
 *
 * Why: on an H100 the system ?bdsdc took 15.7 of the 23.0 s of dgesdd
 * JOBZ='S' at n = 8192, and ?stedc 3.9 of the 7.8 s of dsyevd JOBZ='V'
 * (docs/performance.md; docs/history.md, 2026-11-23).  Almost all of their
 * arithmetic is the products of each merge, vectors of the two halves
 * times the k x k vectors of the merged secular problem, k up to n; the
 * rest is O(n^2) per merge: the deflation's rotations and column moves,
 * the vectors of the secular problem.  So the tree is walked here as
 * ?lasd0/?laed0 do: subproblems up to gl_tune_dc_leaf() rows go whole to
 * the system's ?lasd0/?stedc (all the leaves at once, on the host's
 * threads), larger ones are split, and each of their merges
 * (?lasd1/?laed1) decides its deflation on the host (?lasd2's as
 * decide_svd, ?laed2's as deflate_tri below), finds the roots of the
 * secular equation, forms the vectors of the merged problem (Gu and
 * Eisenstat's recomputed z, as ?lasd3/?laed3) and takes the products.
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
 * restarts the problem with the system routine (keep_given): its result,
 * or its INFO, is LAPACK's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/precision.h"
#include "../runtime/fault.h"
#include "../runtime/memory.h"
#include "../runtime/profile.h"
#include "../runtime/parallel.h"
#include "../runtime/tune.h"
#include "lapack_fns.h"
#include "ops.h"
#include "stages.h"

#define RAT(p, ld, i, j) ((p)[(size_t)(i) + (size_t)(j) * (size_t)(ld)])

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
typedef struct plane_rotation {
    lapack_int a, b;   /* rows (1-based) */
    gl_real c, s;      /* row a = c a + s b, row b = c b - s a */
} plane_rotation;

/* A leaf of the tree: a subproblem of at most dc.leaf rows for the
 * system's ?lasd0 (d, e, the blocks at u and vt, sqre) or ?stedc (d, e,
 * the block at u). */
typedef struct leaf_task {
    lapack_int n, sqre, ldu, ldvt;
    gl_real *d, *e, *u, *vt;
    lapack_int *idxq;
    gl_real *dev, *dev_vt;       /* its blocks of the device's U (Z), VT,
                                    or NULL */
    lapack_int lddev, lddev_vt;
} leaf_task;

/* The leaves of one tree: found by a first walk, solved at once on the
 * host's threads (they are independent, and one ?lasd0 or ?stedc of a
 * leaf leaves most of a many-core host idle), then merged by a second
 * walk. */
typedef struct leaf_list {
    leaf_task *task;
    long count;
    int info;                    /* a failing leaf's INFO > 0, else 0 */
    size_t host_used;            /* reals of dc.leaf_host given to leaves */
} leaf_list;

typedef struct dc {
    const GL_FN(ops) *ops;
    const GL_FN(lapack_fns) *f;
    lapack_int leaf;             /* largest subproblem for the system ?lasd0 */
    size_t leaf_reals;           /* work of a leaf: ?lasd0: 3 m^2 + 2 m for
                                    m = leaf + 1; ?stedc: 1 + 4 n + n^2 */
    size_t leaf_ints;            /* ?lasd0: 8 n; ?stedc: 3 + 5 n */
    leaf_list *list;
    gl_real *merge_work;         /* the largest merge's arrays, see merge() */
    lapack_int *merge_iwork;
    lapack_int *idxq;            /* the sorting permutations (n) */
    plane_rotation *rot;         /* the deflation's rotations (n) */
    lapack_int *from;            /* the deflation's gather (n + 1) */
    /* the tridiagonal problem with Z in the backend's memory
     * (tridiag_eig_device): the leaves' host blocks before they are
     * copied there, the gathered columns of a merge (n x n) and the
     * vectors of its secular equation (n x n) */
    int device;
    gl_real *leaf_host, *dq2, *ds;
    gl_real *dvt2, *ds2;         /* the SVD's: VT2 (m x m), Q_vt (n x n) */
} dc;

static void dc_free(dc *s)
{
    if (s->list)
        free(s->list->task);
    free(s->list);
    gl_host_free(s->merge_work);
    free(s->merge_iwork);
    free(s->idxq);
    free(s->rot);
    free(s->from);
    gl_host_free(s->leaf_host);
    if (s->device) {
        s->ops->release(s->dq2);
        s->ops->release(s->ds);
        s->ops->release(s->dvt2);
        s->ops->release(s->ds2);
    }
}

/* The arrays of a solve; 0, or -1 when one was refused (nothing held). */
static int dc_alloc(dc *s, lapack_int n, size_t leaf_reals, size_t leaf_ints,
                    size_t merge_reals, size_t merge_ints)
{
    s->leaf_reals = leaf_reals;
    s->leaf_ints = leaf_ints;
    s->list = calloc(1, sizeof *s->list);
    if (s->list)   /* every leaf has a row */
        s->list->task = malloc(sizeof *s->list->task * (size_t)n);
    s->merge_work = gl_host_alloc(sizeof(gl_real) * merge_reals);
    s->merge_iwork = malloc(sizeof(lapack_int) * merge_ints);
    s->idxq = malloc(sizeof(lapack_int) * (size_t)n);
    s->rot = malloc(sizeof *s->rot * (size_t)n);
    s->from = malloc(sizeof(lapack_int) * ((size_t)n + 1));
    if (s->list && s->list->task && s->merge_work && s->merge_iwork &&
        s->idxq && s->rot && s->from)
        return 0;
    dc_free(s);
    return -1;
}

/* d (n values) sorted descending or ascending in the order of a
 * selection sort (?bdsdc's and ?stedc's final sort: the same order for
 * equal values); from[i] = the index value i came from.  Returns 0, or -1
 * without memory. */
static int sort_order(lapack_int n, gl_real *d, int descending,
                      lapack_int *from)
{
    size_t nn = (size_t)n;
    gl_real *sorted = malloc(sizeof *sorted * nn);
    if (!sorted)
        return -1;
    /* the selection sort on (value, origin) pairs */
    memcpy(sorted, d, sizeof *d * nn);
    for (lapack_int i = 0; i < n; i++)
        from[i] = i;
    for (lapack_int i = 0; i + 1 < n; i++) {
        lapack_int kk = i;
        for (lapack_int j = i + 1; j < n; j++)
            if (descending ? sorted[j] > sorted[kk] : sorted[j] < sorted[kk])
                kk = j;
        gl_real t = sorted[kk];
        sorted[kk] = sorted[i];
        sorted[i] = t;
        lapack_int o = from[kk];
        from[kk] = from[i];
        from[i] = o;
    }
    memcpy(d, sorted, sizeof *d * nn);
    free(sorted);
    return 0;
}

/* d sorted as sort_order sorts it, the columns of cols (n rows) and,
 * unless rows is NULL, the rows of rows (n columns) permuted with it.
 * The permutation is found on d alone, then applied in one pass: columns
 * moved along the permutation's cycles, rows gathered within each column.
 * Exchanging rows one pair at a time reads across columns, a cache and
 * TLB miss per element: seconds at n = 8192. */
static int sort_pairs(lapack_int n, gl_real *d, int descending,
                      gl_real *cols, lapack_int ldc, gl_real *rows,
                      lapack_int ldr)
{
    size_t nn = (size_t)n;
    lapack_int *from = malloc(sizeof *from * nn);
    gl_real *col = malloc(sizeof *col * nn);
    unsigned char *done = calloc(nn, 1);
    if (!from || !col || !done || sort_order(n, d, descending, from) != 0) {
        free(from);
        free(col);
        free(done);
        return -1;
    }
    /* column i of the result is column from[i] */
    for (lapack_int i = 0; i < n; i++) {
        if (done[i] || from[i] == i)
            continue;
        memcpy(col, &RAT(cols, ldc, 0, i), sizeof *col * nn);
        lapack_int j = i;
        while (from[j] != i) {
            memcpy(&RAT(cols, ldc, 0, j), &RAT(cols, ldc, 0, from[j]),
                   sizeof *col * nn);
            done[j] = 1;
            j = from[j];
        }
        memcpy(&RAT(cols, ldc, 0, j), col, sizeof *col * nn);
        done[j] = 1;
    }
    /* row i of the result is row from[i] */
    for (lapack_int c = 0; rows && c < n; c++) {
        gl_real *x = &RAT(rows, ldr, 0, c);
        for (lapack_int i = 0; i < n; i++)
            col[i] = x[from[i]];
        memcpy(x, col, sizeof *col * nn);
    }
    free(from);
    free(col);
    free(done);
    return 0;
}

/* d and e (n and n - 1 values) as given, or NULL.  Our tree of merges
 * meets other secular equations than the system routine's, and ?lasd4 or
 * ?laed4 can fail to converge on one of ours where the system's tree has
 * none (single precision, entries over ten decades, test_device_ops):
 * the call then starts again from these with the system routine, whose
 * result (or INFO) is what LAPACK gives. */
static gl_real *keep_given(lapack_int n, const gl_real *d, const gl_real *e)
{
    gl_real *given = malloc(sizeof *given * 2 * (size_t)n);
    if (given) {
        memcpy(given, d, sizeof *d * (size_t)n);
        memcpy(given + n, e, sizeof *e * (size_t)(n - 1));
    }
    return given;
}

static void restore_given(lapack_int n, const gl_real *given, gl_real *d,
                          gl_real *e)
{
    memcpy(d, given, sizeof *d * (size_t)n);
    memcpy(e, given + n, sizeof *e * (size_t)(n - 1));
}

/* C = op(A) B of host arrays: on the device when it pays. */
static int product(const dc *s, char transa, lapack_int m, lapack_int n,
                   lapack_int k, const gl_real *a, lapack_int lda,
                   const gl_real *b, lapack_int ldb, gl_real *c,
                   lapack_int ldc)
{
    if (k >= (s->leaf < DEVICE_MIN_K ? s->leaf : DEVICE_MIN_K))
        return s->ops->real_product(transa, m, n, k, a, lda, b, ldb, c, ldc);
    const gl_real one = 1, zero = 0;
    double clock = gl_profile_clock();
    s->f->rgemm(&transa, "N", &m, &n, &k, &one, a, &lda, b, &ldb, &zero, c,
                &ldc, 1, 1);
    gl_profile_section("dc small products on the host", clock);
    return 0;
}

/* idxq (1-based) sorts d (n values) ascending, as ?lasd2 expects of each
 * subproblem. */
typedef struct keyed {
    gl_real value;
    lapack_int index;
} keyed;

static int by_value(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static int ascending_order(lapack_int n, const gl_real *d, lapack_int *idxq)
{
    keyed *k = malloc(sizeof *k * (size_t)n);
    if (!k)
        return -1;
    for (lapack_int i = 0; i < n; i++)
        k[i] = (keyed){d[i], i};
    qsort(k, (size_t)n, sizeof *k, by_value);
    for (lapack_int i = 0; i < n; i++)
        idxq[i] = k[i].index + 1;
    free(k);
    return 0;
}

/* The secular equation of a merge and the vectors of its k x k problem
 * (?lasd3's arithmetic).  delta(:, j) and sums(:, j) receive dsigma - s_j
 * and dsigma + s_j of root j; afterwards delta(:, j) holds column j of
 * Q_u and sums(:, j) row j of Q_vt, both with rows ordered as the columns
 * of U2 (idxc). */
typedef struct secular {
    const GL_FN(lapack_fns) *f;
    lapack_int k;
    const gl_real *dsigma, *zsign;
    gl_real *z, rho, *d, *delta, *sums;
    const lapack_int *idxc;
    lapack_int info;             /* first failing root + 1, else 0 */
} secular;

static int roots(void *ctx, long item)
{
    secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    for (lapack_int j = (lapack_int)item * ROOTS_PER_ITEM; j < hi && j < k;
         j++) {
        lapack_int i1 = j + 1, info = 0;
        q->f->lasd4(&k, &i1, q->dsigma, q->z, &RAT(q->delta, k, 0, j),
                    &q->rho, &q->d[j], &RAT(q->sums, k, 0, j), &info);
        if (info != 0 || gl_fault_hit(GL_FAULT_SECULAR)) {   /* ?lasd4 did not converge: INFO > 0 */
            __atomic_store_n(&q->info, i1, __ATOMIC_RELAXED);
            return -1;
        }
    }
    return 0;
}

/* z_i recomputed from the roots so that the vectors are orthogonal to
 * working precision (Gu and Eisenstat), its sign from the original z. */
static int recompute_z(void *ctx, long item)
{
    secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    const gl_real *ds = q->dsigma;
    for (lapack_int i = (lapack_int)item * ROOTS_PER_ITEM; i < hi && i < k;
         i++) {
        gl_real zi = RAT(q->delta, k, i, k - 1) * RAT(q->sums, k, i, k - 1);
        for (lapack_int j = 0; j < i; j++)
            zi *= RAT(q->delta, k, i, j) * RAT(q->sums, k, i, j) /
                  (ds[i] - ds[j]) / (ds[i] + ds[j]);
        for (lapack_int j = i; j < k - 1; j++)
            zi *= RAT(q->delta, k, i, j) * RAT(q->sums, k, i, j) /
                  (ds[i] - ds[j + 1]) / (ds[i] + ds[j + 1]);
        q->z[i] = GL_R(copysign)(GL_R(sqrt)(GL_R(fabs)(zi)), q->zsign[i]);
    }
    return 0;
}

/* The 2-norm, scaled: the vectors of close roots have large entries. */
static gl_real norm2(lapack_int n, const gl_real *x)
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

/* Root i's right vector v_j = z_j / (dsigma_j^2 - s_i^2) and left vector
 * u_0 = -1, u_j = dsigma_j v_j, normalised, into Q_u's column and Q_vt's
 * row (kept as the column sums(:, i)), rows in U2's column order. */
static int vectors(void *ctx, long item)
{
    secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    gl_real *v = malloc(sizeof *v * 2 * (size_t)k);
    if (!v)
        return -1;
    gl_real *u = v + k;
    for (lapack_int i = (lapack_int)item * ROOTS_PER_ITEM; i < hi && i < k;
         i++) {
        gl_real *du = &RAT(q->delta, k, 0, i), *dv = &RAT(q->sums, k, 0, i);
        for (lapack_int j = 0; j < k; j++) {
            v[j] = q->z[j] / du[j] / dv[j];
            u[j] = j == 0 ? -1 : q->dsigma[j] * v[j];
        }
        gl_real nu = norm2(k, u), nv = norm2(k, v);
        du[0] = u[0] / nu;
        dv[0] = v[0] / nv;
        for (lapack_int j = 1; j < k; j++) {
            lapack_int jc = q->idxc[j] - 1;
            du[j] = u[jc] / nu;
            dv[j] = v[jc] / nv;
        }
    }
    free(v);
    return 0;
}

/* ---- the deflation of a merge of the SVD ----
 *
 * ?lasd2's deflation: the same decisions in the same order, the same
 * arithmetic, and the same outputs, but the rows of VT are worked on a
 * column at a time.  ?lasd2 rotates, gathers and copies back whole rows
 * of VT, each element of a row in another cache line and, at n = 8192,
 * another page: 3.3 of the 14.4 s of dgesdd JOBZ='S' on an H200 host.
 * Here the rotations of the rows are recorded while the decisions are
 * made, then every column of VT gets them, its gather into VT2 and its
 * copies in one pass over the column, on the host's threads; the columns
 * of U are gathered on the threads too.  Indices below are 1-based, as
 * in ?lasd2, through the macros. */
/* sqrt(x^2 + y^2) without needless overflow (?lapy2) */
static gl_real pythag(gl_real x, gl_real y)
{
    gl_real ax = GL_R(fabs)(x), ay = GL_R(fabs)(y);
    gl_real w = GL_R(fmax)(ax, ay), v = GL_R(fmin)(ax, ay);
    if (v == 0 || !isfinite(w))
        return w;
    return w * GL_R(sqrt)(1 + (v / w) * (v / w));
}

typedef struct vt_pass {
    lapack_int n, m, k, nlp1, nlp2;
    gl_real *vt, *vt2;
    lapack_int ldvt, ldvt2;
    const plane_rotation *rot;
    lapack_int nrot;
    const lapack_int *from;   /* row of VT for row j of VT2, j = 2..n */
    gl_real c, s;             /* the rotation of the row nl + 1 with row m */
} vt_pass;

enum { COLUMNS_PER_ITEM = 16 };

static int vt_columns(void *ctx, long item)
{
    const vt_pass *p = ctx;
#define VT(i, j) p->vt[(size_t)(i) - 1 + ((size_t)(j) - 1) * (size_t)p->ldvt]
#define VT2(i, j) p->vt2[(size_t)(i) - 1 + ((size_t)(j) - 1) * (size_t)p->ldvt2]
    lapack_int first = (lapack_int)item * COLUMNS_PER_ITEM + 1;
    for (lapack_int col = first; col < first + COLUMNS_PER_ITEM && col <= p->m;
         col++) {
        for (lapack_int r = 0; r < p->nrot; r++) {
            const plane_rotation *g = &p->rot[r];
            gl_real x = VT(g->a, col), y = VT(g->b, col);
            VT(g->a, col) = g->c * x + g->s * y;
            VT(g->b, col) = g->c * y - g->s * x;
        }
        for (lapack_int j = 2; j <= p->n; j++)
            VT2(j, col) = VT(p->from[j], col);
        if (p->m > p->n) {
            if (col <= p->nlp1) {
                VT2(1, col) = p->c * VT(p->nlp1, col);
                VT(p->m, col) = -p->s * VT(p->nlp1, col);
            } else {
                VT2(1, col) = p->s * VT(p->m, col);
                VT(p->m, col) = p->c * VT(p->m, col);
            }
            VT2(p->m, col) = VT(p->m, col);
        } else {
            VT2(1, col) = VT(p->nlp1, col);
        }
        for (lapack_int j = p->k + 1; j <= p->n; j++)
            VT(j, col) = VT2(j, col);
    }
#undef VT
#undef VT2
    return 0;
}

typedef struct u_pass {
    lapack_int n;
    gl_real *u, *u2;
    lapack_int ldu, ldu2;
    const lapack_int *from;   /* column of U for column j of U2, j = 2..n */
    lapack_int k;
} u_pass;

static int u_gather(void *ctx, long item)
{
    const u_pass *p = ctx;
    lapack_int first = (lapack_int)item * COLUMNS_PER_ITEM + 2;
    for (lapack_int j = first; j < first + COLUMNS_PER_ITEM && j <= p->n; j++)
        memcpy(p->u2 + (size_t)(j - 1) * p->ldu2,
               p->u + (size_t)(p->from[j] - 1) * p->ldu,
               sizeof *p->u * (size_t)p->n);
    return 0;
}

static int u_deflated(void *ctx, long item)
{
    const u_pass *p = ctx;
    lapack_int first = (lapack_int)item * COLUMNS_PER_ITEM + p->k + 1;
    for (lapack_int j = first; j < first + COLUMNS_PER_ITEM && j <= p->n; j++)
        memcpy(p->u + (size_t)(j - 1) * p->ldu,
               p->u2 + (size_t)(j - 1) * p->ldu2, sizeof *p->u * (size_t)p->n);
    return 0;
}

/* What ?lasd2 decides, from d, z and the two columns of VT that make z:
 * col1 = VT(1..nl+1, nl+1), col2 = VT(nl+2..m, nl+2) (1-based).  Out:
 * k; d, z, dsigma, idxp, idx, idxc, idxq, coltyp as ?lasd2 leaves them
 * (coltyp's first four entries the counts of the column types, d's
 * deflated values in d[k..n)); the rotations rot[0..*nrot) of the
 * columns of U and the rows of VT to make first; from[j], j = 2..n, the
 * column of U (row of VT) that column (row) j of U2 (VT2) comes from
 * (1-based); (c, s) the rotation of the row nl + 1 with row m (m > n).
 * u_scratch: n values. */
static lapack_int decide_svd(const GL_FN(lapack_fns) *f, lapack_int nl,
                             lapack_int nr, lapack_int sqre, gl_real *d0,
                             gl_real *z0, gl_real alpha, gl_real beta,
                             const gl_real *col1, const gl_real *col2,
                             gl_real *dsigma0, gl_real *u_scratch,
                             lapack_int *idxp0, lapack_int *idx0,
                             lapack_int *idxc0, lapack_int *idxq0,
                             lapack_int *coltyp0, plane_rotation *rot,
                             lapack_int *nrot_out, lapack_int *from,
                             gl_real *c_out, gl_real *s_out)
{
    const lapack_int n = nl + nr + 1, m = n + sqre, nlp1 = nl + 1,
                     nlp2 = nl + 2;
    /* 1-based views */
    gl_real *d = d0 - 1, *z = z0 - 1, *dsigma = dsigma0 - 1,
            *zs = u_scratch - 1;
    lapack_int *idxp = idxp0 - 1, *idx = idx0 - 1, *idxc = idxc0 - 1,
               *idxq = idxq0 - 1, *coltyp = coltyp0 - 1;

    /* z from the row nl + 1 between the halves; d moves one place down */
    gl_real z1 = alpha * col1[nl];
    z[1] = z1;
    for (lapack_int i = nl; i >= 1; i--) {
        z[i + 1] = alpha * col1[i - 1];
        d[i + 1] = d[i];
        idxq[i + 1] = idxq[i] + 1;
    }
    for (lapack_int i = nlp2; i <= m; i++)
        z[i] = beta * col2[i - nlp2];
    for (lapack_int i = 2; i <= nlp1; i++)
        coltyp[i] = 1;
    for (lapack_int i = nlp2; i <= n; i++)
        coltyp[i] = 2;
    for (lapack_int i = nlp2; i <= n; i++)
        idxq[i] += nlp1;
    /* dsigma, idxc and the scratch (?lasd2: U2's first column) for the
     * sort */
    for (lapack_int i = 2; i <= n; i++) {
        dsigma[i] = d[idxq[i]];
        zs[i] = z[idxq[i]];
        idxc[i] = coltyp[idxq[i]];
    }
    lapack_int one = 1;
    f->lamrg(&nl, &nr, &dsigma[2], &one, &one, &idx[2]);
    for (lapack_int i = 2; i <= n; i++) {
        lapack_int idxi = 1 + idx[i];
        d[i] = dsigma[idxi];
        z[i] = zs[idxi];
        coltyp[i] = idxc[idxi];
    }

    const gl_real eps = f->lamch("Epsilon", 7);
    gl_real tol = GL_R(fmax)(GL_R(fabs)(alpha), GL_R(fabs)(beta));
    tol = 8 * eps * GL_R(fmax)(GL_R(fabs)(d[n]), tol);

    /* deflation: a small z entry, or two close values (a rotation makes
     * one of their z entries zero) */
    lapack_int k = 1, k2 = n + 1, jprev = 0, nrot = 0;   /* jprev: none yet */
    for (lapack_int j = 2; j <= n; j++) {
        if (GL_R(fabs)(z[j]) <= tol) {
            k2--;
            idxp[k2] = j;
            coltyp[j] = 4;
        } else if (jprev == 0) {
            jprev = j;
        } else if (GL_R(fabs)(d[j] - d[jprev]) <= tol) {
            gl_real s = z[jprev], c = z[j];
            gl_real tau = pythag(c, s);
            c = c / tau;
            s = -s / tau;
            z[j] = tau;
            z[jprev] = 0;
            lapack_int idxjp = idxq[idx[jprev] + 1],
                       idxj = idxq[idx[j] + 1];
            if (idxjp <= nlp1)
                idxjp--;
            if (idxj <= nlp1)
                idxj--;
            rot[nrot++] = (plane_rotation){idxjp, idxj, c, s};
            if (coltyp[j] != coltyp[jprev])
                coltyp[j] = 3;
            coltyp[jprev] = 4;
            k2--;
            idxp[k2] = jprev;
            jprev = j;
        } else {
            k++;
            zs[k] = z[jprev];
            dsigma[k] = d[jprev];
            idxp[k] = jprev;
            jprev = j;
        }
    }
    if (jprev != 0) {   /* the last value not deflated */
        k++;
        zs[k] = z[jprev];
        dsigma[k] = d[jprev];
        idxp[k] = jprev;
    }

    /* the permutation that groups the column types 1, 2, 3, 4 */
    lapack_int ctot[5] = {0, 0, 0, 0, 0}, psm[5];
    for (lapack_int j = 2; j <= n; j++)
        ctot[coltyp[j]]++;
    psm[1] = 2;
    psm[2] = 2 + ctot[1];
    psm[3] = psm[2] + ctot[2];
    psm[4] = psm[3] + ctot[3];
    for (lapack_int j = 2; j <= n; j++) {
        lapack_int jp = idxp[j], ct = coltyp[jp];
        idxc[psm[ct]] = j;
        psm[ct]++;
    }
    for (lapack_int j = 2; j <= n; j++) {
        dsigma[j] = d[idxp[j]];
        lapack_int idxj = idxq[idx[idxp[idxc[j]]] + 1];
        if (idxj <= nlp1)
            idxj--;
        from[j] = idxj;
    }

    dsigma[1] = 0;
    gl_real hlftol = tol / 2, c = 1, s = 0;
    if (GL_R(fabs)(dsigma[2]) <= hlftol)
        dsigma[2] = hlftol;
    if (m > n) {
        z[1] = pythag(z1, z[m]);
        if (z[1] <= tol) {
            c = 1;
            s = 0;
            z[1] = tol;
        } else {
            c = z1 / z[1];
            s = z[m] / z[1];
        }
    } else {
        z[1] = GL_R(fabs)(z1) <= tol ? tol : z1;
    }
    for (lapack_int i = 2; i <= k; i++)   /* the rest of the updating row */
        z[i] = zs[i];
    for (lapack_int j = k + 1; j <= n; j++)
        d[j] = dsigma[j];
    for (lapack_int j = 1; j <= 4; j++)
        coltyp[j] = ctot[j];
    *nrot_out = nrot;
    *c_out = c;
    *s_out = s;
    return k;
}

/* ?lasd2's contract (U2 n x n, VT2 m x m; coltyp's first four entries
 * receive the counts of the column types) on host arrays: decide_svd,
 * then its rotations, gathers and copies.  rot: n entries, from: n + 1.
 * Returns 0, or -1 if the threads' work failed. */
static int deflate_svd(const GL_FN(lapack_fns) *f, lapack_int nl,
                       lapack_int nr, lapack_int sqre, lapack_int *k_out,
                       gl_real *d0, gl_real *z0, gl_real alpha, gl_real beta,
                       gl_real *u, lapack_int ldu, gl_real *vt,
                       lapack_int ldvt, gl_real *dsigma0, gl_real *u2,
                       gl_real *vt2, lapack_int *idxp0, lapack_int *idx0,
                       lapack_int *idxc0, lapack_int *idxq0,
                       lapack_int *coltyp0, plane_rotation *rot,
                       lapack_int *from)
{
    const lapack_int n = nl + nr + 1, m = n + sqre, nlp1 = nl + 1,
                     ldu2 = n, ldvt2 = m;
    lapack_int nrot = 0;
    gl_real c, s;
    lapack_int k = decide_svd(f, nl, nr, sqre, d0, z0, alpha, beta,
                              vt + (size_t)nl * ldvt,
                              vt + nlp1 + (size_t)nlp1 * ldvt, dsigma0, u2,
                              idxp0, idx0, idxc0, idxq0, coltyp0, rot, &nrot,
                              from, &c, &s);
#define U(i, j) u[(size_t)(i) - 1 + ((size_t)(j) - 1) * (size_t)ldu]
#define U2(i, j) u2[(size_t)(i) - 1 + ((size_t)(j) - 1) * (size_t)ldu2]
    for (lapack_int r = 0; r < nrot; r++)
        for (lapack_int i = 1; i <= n; i++) {
            gl_real x = U(i, rot[r].a), y = U(i, rot[r].b);
            U(i, rot[r].a) = rot[r].c * x + rot[r].s * y;
            U(i, rot[r].b) = rot[r].c * y - rot[r].s * x;
        }

    /* U2's columns 2..n, its first column e_{nl+1}, the deflated columns
     * back into U; VT's rows column by column */
    u_pass up = {n, u, u2, ldu, ldu2, from, k};
    vt_pass vp = {n, m, k, nlp1, nl + 2, vt, vt2, ldvt, ldvt2, rot, nrot,
                  from, c, s};
    long u_items = (n - 1 + COLUMNS_PER_ITEM - 1) / COLUMNS_PER_ITEM,
         u_tail = (n - k + COLUMNS_PER_ITEM - 1) / COLUMNS_PER_ITEM,
         vt_items = (m + COLUMNS_PER_ITEM - 1) / COLUMNS_PER_ITEM;
    if (gl_parallel_for(u_items, u_gather, &up) != 0)
        return -1;
    for (lapack_int i = 1; i <= n; i++)
        U2(i, 1) = 0;
    U2(nlp1, 1) = 1;
    if (n > k && gl_parallel_for(u_tail, u_deflated, &up) != 0)
        return -1;
    if (gl_parallel_for(vt_items, vt_columns, &vp) != 0)
        return -1;
    *k_out = k;
#undef U
#undef U2
    return 0;
}

/* The merge of ?lasd1: B (n x m, n = nl + nr + 1, m = n + sqre) from its
 * two solved halves in U and VT (their blocks at (0, 0) and (nl+1, nl+1)),
 * the row nl (alpha, beta) between them, idxq of each half at idxq[0..nl)
 * and idxq[nl+1..n).  On return d, U, VT hold the SVD of B (d unsorted),
 * idxq sorts d ascending.  Returns 0, INFO > 0 of ?lasd4, or < 0. */
static int merge(const dc *s, lapack_int nl, lapack_int nr, lapack_int sqre,
                 gl_real *d, gl_real alpha, gl_real beta, gl_real *u,
                 lapack_int ldu, gl_real *vt, lapack_int ldvt,
                 lapack_int *idxq)
{
    const GL_FN(lapack_fns) *f = s->f;
    lapack_int n = nl + nr + 1, m = n + sqre, k = 0, info = 0, one = 1,
               zero = 0;
    /* arrays: z (m: ?lasd2 writes z[m-1]), dsigma, zsign (n), U2 (n x n),
     * VT2 (m x m), delta and sums (k x k <= n x n) */
    gl_real *z = s->merge_work, *dsigma = z + m, *zsign = dsigma + n,
            *u2 = zsign + n, *vt2 = u2 + (size_t)n * n,
            *delta = vt2 + (size_t)m * m, *sums = delta + (size_t)n * n;
    lapack_int *idxp = s->merge_iwork, *idx = idxp + n, *idxc = idx + n,
               *coltyp = idxc + n;

    /* scale to norm 1 (?lasd1) */
    gl_real orgnrm = GL_R(fmax)(GL_R(fabs)(alpha), GL_R(fabs)(beta));
    d[nl] = 0;
    for (lapack_int i = 0; i < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(d[i]));
    gl_real unit = 1;
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &n, &one, d, &n, &info, 1);
    alpha /= orgnrm;
    beta /= orgnrm;

    double clock = gl_profile_clock();
    if (deflate_svd(f, nl, nr, sqre, &k, d, z, alpha, beta, u, ldu, vt, ldvt,
                    dsigma, u2, vt2, idxp, idx, idxc, idxq, coltyp, s->rot,
                    s->from) != 0)
        return -1;
    gl_profile_section("dc deflation", clock);

    if (k == 1) {
        d[0] = GL_R(fabs)(z[0]);
        for (lapack_int j = 0; j < m; j++)
            RAT(vt, ldvt, 0, j) = RAT(vt2, m, 0, j);
        for (lapack_int i = 0; i < n; i++)
            RAT(u, ldu, i, 0) = z[0] > 0 ? u2[i] : -u2[i];
    } else {
        memcpy(zsign, z, sizeof *z * (size_t)k);
        gl_real rho = norm2(k, z);
        f->rlascl("G", &zero, &zero, &rho, &unit, &k, &one, z, &k, &info, 1);
        secular q = {f,     k, dsigma, zsign, z,    rho * rho,
                     d,     delta, sums, idxc, 0};
        long items = (k + ROOTS_PER_ITEM - 1) / ROOTS_PER_ITEM;
        clock = gl_profile_clock();
        if (gl_parallel_for(items, roots, &q) != 0)
            return q.info > 0 ? q.info : -1;
        gl_profile_section("dc secular roots", clock);
        clock = gl_profile_clock();
        gl_parallel_for(items, recompute_z, &q);
        if (gl_parallel_for(items, vectors, &q) != 0)
            return -1;
        gl_profile_section("dc secular vectors", clock);
        /* U(:, 0:k) = U2(:, 0:k) Q_u, VT(0:k, :) = Q_vt VT2(0:k, :) */
        int rc = product(s, 'N', n, k, k, u2, n, delta, k, u, ldu);
        if (rc == 0)
            rc = product(s, 'T', k, m, k, sums, k, vt2, m, vt, ldvt);
        if (rc != 0)
            return -1;
    }
    f->rlascl("G", &zero, &zero, &unit, &orgnrm, &n, &one, d, &n, &info, 1);
    lapack_int n2 = n - k, up = 1, down = -1;
    f->lamrg(&k, &n2, d, &up, &down, idxq);
    return 0;
}

/* A merge's secular problem of k poles packed for the device (ops.h
 * dc_secular): the poles, k offsets and k origins for the roots, the
 * weights, and the order of the vectors' rows (the 1-based order idx,
 * 0-based, from row first on; the rows before it stay in place). */
static void pack_secular(lapack_int k, const gl_real *poles,
                         const gl_real *weights, const lapack_int *idx,
                         lapack_int first, gl_real *packed)
{
    memcpy(packed, poles, sizeof *packed * (size_t)k);
    memset(packed + k, 0, sizeof *packed * 2 * (size_t)k);
    memcpy(packed + 3 * k, weights, sizeof *packed * (size_t)k);
    for (lapack_int i = 0; i < k; i++)
        packed[4 * k + i] = (gl_real)(i < first ? i : idx[i] - 1);
}

/* merge with U and VT in the backend's memory (the scratch of s->dq2:
 * U2, s->dvt2: VT2, s->ds and s->ds2: the k x k vectors): ?lasd2's
 * decisions on the host from two columns of VT read back, its rotations
 * and gathers on the device; the secular equation (roots and vectors)
 * on the device (ops->dc_svd_secular) but for k <= 2. */
static int merge_device(const dc *s, lapack_int nl, lapack_int nr,
                        lapack_int sqre, gl_real *d, gl_real alpha,
                        gl_real beta, gl_real *u, lapack_int ldu, gl_real *vt,
                        lapack_int ldvt, lapack_int *idxq)
{
    const GL_FN(ops) *ops = s->ops;
    const GL_FN(lapack_fns) *f = s->f;
    lapack_int n = nl + nr + 1, m = n + sqre, nlp1 = nl + 1, info = 0,
               one = 1, zero = 0, nrot = 0;
    const size_t nn = (size_t)n;
    /* z (m), dsigma, zsign, scratch (n each), the two columns of VT (m),
     * the secular problem packed for the device (5n), cs (2n), the small problem's delta and sums (2 x 4) */
    gl_real *z = s->merge_work, *dsigma = z + m, *zsign = dsigma + nn,
            *zs = zsign + nn, *cols = zs + nn, *packed = cols + m,
            *cs = packed + 5 * nn, *small = cs + 2 * nn;
    /* idxp, idx, idxc, coltyp (n each), pair (2n), from0 (n) */
    lapack_int *idxp = s->merge_iwork, *idx = idxp + nn, *idxc = idx + nn,
               *coltyp = idxc + nn, *pair = coltyp + nn, *from0 = pair + 2 * nn;
    gl_real *u2 = s->dq2, *vt2 = s->dvt2, *qu = s->ds, *qvt = s->ds2;

    /* scale to norm 1 (?lasd1) */
    gl_real orgnrm = GL_R(fmax)(GL_R(fabs)(alpha), GL_R(fabs)(beta));
    d[nl] = 0;
    for (lapack_int i = 0; i < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(d[i]));
    gl_real unit = 1;
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &n, &one, d, &n, &info, 1);
    alpha /= orgnrm;
    beta /= orgnrm;

    gl_real c, sn;
    if (ops->real_to_host(nlp1, 1, vt + (size_t)nl * ldvt, ldvt, cols,
                          nlp1) ||
        ops->real_to_host(m - nlp1, 1, vt + nlp1 + (size_t)nlp1 * ldvt, ldvt,
                          cols + nlp1, m - nlp1))
        return -1;
    /* the host's part only: the device operations have rows of their own */
    double clock = gl_profile_clock();
    lapack_int k = decide_svd(f, nl, nr, sqre, d, z, alpha, beta, cols,
                              cols + nlp1, dsigma, zs, idxp, idx, idxc, idxq,
                              coltyp, s->rot, &nrot, s->from, &c, &sn);
    for (lapack_int r = 0; r < nrot; r++) {
        pair[2 * r] = s->rot[r].a - 1;
        pair[2 * r + 1] = s->rot[r].b - 1;
        cs[2 * r] = s->rot[r].c;
        cs[2 * r + 1] = s->rot[r].s;
    }
    for (lapack_int j = 2; j <= n; j++)
        from0[j - 2] = s->from[j] - 1;
    gl_profile_section("dc deflation", clock);
    /* U: rotations, U2's columns 2..n and its first e_{nl+1}, the
     * deflated columns back; VT: rotations of its rows, VT2's rows 2..n,
     * the first row, the deflated rows back (deflate_svd's passes) */
    int rc = ops->dc_rotate(n, 0, nrot, pair, cs, u, ldu) ||
             ops->dc_gather(n, n - 1, 0, from0, u, ldu, u2 + nn, n) ||
             ops->real_fill(n, 1, 0, u2, n) ||
             ops->real_fill(1, 1, 1, u2 + nl, n) ||
             (n > k && ops->real_copy(n, n - k, u2 + (size_t)k * nn, n,
                                      u + (size_t)k * ldu, ldu)) ||
             ops->dc_rotate(m, 1, nrot, pair, cs, vt, ldvt) ||
             ops->dc_gather(n - 1, m, 1, from0, vt, ldvt, vt2 + 1, m) ||
             ops->dc_svd_first_row(n, m, nl, c, sn, vt, ldvt, vt2, m) ||
             (n > k && ops->real_copy(n - k, m, vt2 + k, m, vt + k, ldvt));
    if (rc)
        return -1;

    if (k == 1) {   /* ?lasd3: d = |z|, U's first column +-e_{nl+1} */
        d[0] = GL_R(fabs)(z[0]);
        if (ops->real_copy(1, m, vt2, m, vt, ldvt) ||
            ops->real_fill(n, 1, 0, u, ldu) ||
            ops->real_fill(1, 1, z[0] > 0 ? 1 : -1, u + nl, ldu))
            return -1;
    } else {
        memcpy(zsign, z, sizeof *z * (size_t)k);
        gl_real rho = norm2(k, z);
        f->rlascl("G", &zero, &zero, &rho, &unit, &k, &one, z, &k, &info, 1);
        if (k <= 2) {   /* the host's arithmetic on the small problem */
            clock = gl_profile_clock();
            gl_real *delta = small, *sums = small + 4;
            secular q = {f,     k, dsigma, zsign, z,    rho * rho,
                         d,     delta, sums, idxc, 0};
            if (gl_parallel_for(1, roots, &q) != 0)
                return q.info > 0 ? q.info : -1;
            recompute_z(&q, 0);
            if (vectors(&q, 0) != 0)
                return -1;
            gl_profile_section("dc secular roots", clock);
            if (ops->real_to_device(k, k, delta, k, qu, k) ||
                ops->real_to_device(k, k, sums, k, qvt, k))
                return -1;
        } else {
            /* ?lasd3: the first row stays first */
            pack_secular(k, dsigma, z, idxc, 1, packed);
            rc = ops->dc_svd_secular(k, rho * rho, packed, d, qu, qvt, k);
            if (rc != 0)
                return rc;
        }
        /* U(:, 0:k) = U2(:, 0:k) Q_u, VT(0:k, :) = Q_vt VT2(0:k, :) */
        if (ops->real_gemm('N', n, k, k, u2, n, qu, k, u, ldu) ||
            ops->real_gemm('T', k, m, k, qvt, k, vt2, m, vt, ldvt))
            return -1;
    }
    f->rlascl("G", &zero, &zero, &unit, &orgnrm, &n, &one, d, &n, &info, 1);
    lapack_int n2 = n - k, up = 1, down = -1;
    f->lamrg(&k, &n2, d, &up, &down, idxq);
    return 0;
}

/* Leaves on the host's threads, each with its own work; 0, the INFO > 0
 * of a leaf, or -1. */
static int solve_leaves(const dc *s, int (*leaf)(void *ctx, long i))
{
    s->list->info = 0;
    double clock = gl_profile_clock();
    int rc = gl_parallel_for(s->list->count, leaf, (void *)s);
    gl_profile_section("dc leaves", clock);
    if (s->list->info > 0)
        return s->list->info;
    return rc != 0 ? -1 : 0;
}

static void leaf_failed(const dc *s, lapack_int info)
{
    if (info > 0)
        __atomic_store_n(&s->list->info, info, __ATOMIC_RELAXED);
}

static int svd_leaf(void *ctx, long i)
{
    const dc *s = ctx;
    leaf_task *t = &s->list->task[i];
    gl_real *work = malloc(sizeof *work * s->leaf_reals);
    lapack_int *iwork = malloc(sizeof *iwork * s->leaf_ints);
    lapack_int smlsiz = SMLSIZ, info = -1;
    if (t->dev) {   /* a host block: ?lasd0 updates U and VT from I */
        lapack_int m = t->n + t->sqre;
        memset(t->u, 0, sizeof *t->u * (size_t)t->n * (size_t)t->ldu);
        memset(t->vt, 0, sizeof *t->vt * (size_t)m * (size_t)t->ldvt);
        for (lapack_int j = 0; j < m; j++) {
            if (j < t->n)
                RAT(t->u, t->ldu, j, j) = 1;
            RAT(t->vt, t->ldvt, j, j) = 1;
        }
    }
    if (work && iwork)
        s->f->lasd0(&t->n, &t->sqre, t->d, t->e, t->u, &t->ldu, t->vt,
                    &t->ldvt, &smlsiz, iwork, work, &info);
    free(work);
    free(iwork);
    leaf_failed(s, info);
    return info != 0 || ascending_order(t->n, t->d, t->idxq) != 0 ? -1 : 0;
}

/* The SVD of the n x (n + sqre) upper bidiagonal (d, e) into the blocks
 * at u and vt (?lasd0's contract), and idxq sorting d ascending: the
 * first walk (merging 0) lists the leaves, the second, after
 * solve_leaves, merges. */
static int solve(const dc *s, int merging, lapack_int n, lapack_int sqre,
                 gl_real *d, gl_real *e, gl_real *u, lapack_int ldu,
                 gl_real *vt, lapack_int ldvt, lapack_int *idxq)
{
    if (n <= s->leaf) {
        if (merging)
            return 0;
        leaf_task t = {n, sqre, ldu, ldvt, d, e, u, vt, idxq, NULL, NULL, 0, 0};
        if (s->device) {   /* solved into host blocks, then copied */
            lapack_int m = n + sqre;
            t.dev = u;
            t.lddev = ldu;
            t.dev_vt = vt;
            t.lddev_vt = ldvt;
            t.u = s->leaf_host + s->list->host_used;
            t.ldu = n;
            t.vt = t.u + (size_t)n * (size_t)n;
            t.ldvt = m;
            s->list->host_used += (size_t)n * (size_t)n + (size_t)m * (size_t)m;
        }
        s->list->task[s->list->count++] = t;
        return 0;
    }
    /* ?lasdt's split (left n/2, right the rest), so that with a leaf of
     * at least ?bdsdc's SMLSIZ the tree follows the system ?lasd0's and
     * the merges are those ?bdsdc would do.  The merges of ?lasd1/2/3
     * lose orthogonality on some inputs (Reference-LAPACK issue 255 has
     * one in ?bdsdc's own tree); with (n-1)/2 on the left, a graded
     * matrix (test_device_ops z, seed 1795655413, n = 97) met one that
     * ?bdsdc's tree never forms: 1170 eps against ?bdsdc's 10, the same
     * with the system ?lasd1 as that merge. */
    lapack_int nl = n / 2, nr = n - 1 - nl;
    int rc = solve(s, merging, nl, 1, d, e, u, ldu, vt, ldvt, idxq);
    if (rc == 0)
        rc = solve(s, merging, nr, sqre, d + nl + 1, e + nl + 1,
                   &RAT(u, ldu, nl + 1, nl + 1), ldu,
                   &RAT(vt, ldvt, nl + 1, nl + 1), ldvt, idxq + nl + 1);
    if (rc == 0 && merging)
        rc = (s->device ? merge_device : merge)(s, nl, nr, sqre, d, d[nl],
                                                 e[nl], u, ldu, vt, ldvt,
                                                 idxq);
    return rc;
}

static int leaves_to_device(const dc *s);

/* The SVD of the bidiagonal (d, e), scaled to norm 1, into U and VT (I on
 * entry) by solve over each independent subproblem where e is negligible
 * (?bdsdc's split, tiny d raised to eps first); with U and VT on the
 * device the leaves are copied there before the merges.  Returns 0, > 0
 * where a secular equation did not converge, or < 0. */
static int svd_blocks(dc *s, lapack_int n, gl_real *d, gl_real *e,
                      gl_real *u, lapack_int ldu, gl_real *vt,
                      lapack_int ldvt)
{
    const gl_real eps = (gl_real)0.9 * s->f->lamch("Epsilon", 7);
    for (lapack_int i = 0; i < n; i++)
        if (GL_R(fabs)(d[i]) < eps)
            d[i] = GL_R(copysign)(eps, d[i]);
    int rc = 0;
    lapack_int start = 0;
    for (lapack_int i = 0; i < n - 1 && rc == 0; i++) {
        if (!(GL_R(fabs)(e[i]) < eps) && i < n - 2)
            continue;
        lapack_int size;
        if (i < n - 2) {
            size = i - start + 1;
        } else if (!(GL_R(fabs)(e[i]) < eps)) {
            size = n - start;
        } else {   /* the last row stands alone */
            size = i - start + 1;
            gl_real sign = d[n - 1] < 0 ? -1 : 1;
            gl_real *corner = u + (n - 1) + (size_t)(n - 1) * ldu;
            if (s->device)
                rc = s->ops->real_fill(1, 1, sign, corner, ldu);
            else
                *corner = sign;
            d[n - 1] = GL_R(fabs)(d[n - 1]);
        }
        gl_real *ub = u + start + (size_t)start * ldu,
                *vb = vt + start + (size_t)start * ldvt;
        s->list->count = 0;
        s->list->host_used = 0;
        solve(s, 0, size, 0, d + start, e + start, ub, ldu, vb, ldvt,
              s->idxq);
        if (rc == 0)
            rc = solve_leaves(s, svd_leaf);
        if (rc == 0 && s->device)
            rc = leaves_to_device(s);
        if (rc == 0)
            rc = solve(s, 1, size, 0, d + start, e + start, ub, ldu, vb,
                       ldvt, s->idxq);
        start = i + 1;
    }
    return rc;
}

/* gl_s_bidiag_svd gl_d_bidiag_svd gl_c_bidiag_svd gl_z_bidiag_svd */
int GL_FN(bidiag_svd)(const GL_FN(ops) *ops, lapack_int n, gl_real *d,
                      gl_real *e, gl_real *u, lapack_int ldu, gl_real *vt,
                      lapack_int ldvt, gl_real *work, lapack_int *iwork,
                      lapack_int *info)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int leaf = gl_tune_dc_leaf();
    if (leaf < 3)
        leaf = 3;   /* both halves of a split subproblem have a row */
    *info = 0;
    size_t nn = (size_t)n, lm = (size_t)leaf + 1;
    dc s = {.ops = ops, .f = f, .leaf = leaf};
    gl_real *given = NULL;
    if (!ops->real_product || n <= leaf || n <= SMLSIZ || !f->lasd0 ||
        !f->lasd4 || !f->lamrg || !f->rgemm ||
        !(given = keep_given(n, d, e)) ||
        dc_alloc(&s, n, 3 * lm * lm + 2 * lm, 8 * lm,
                 3 * (nn + 1) + 4 * (nn + 1) * (nn + 1), 4 * nn)) {
        /* the host backend, a small problem, or no memory: the system's */
        free(given);
        f->bdsdc("U", "I", &n, d, e, u, &ldu, vt, &ldvt, NULL, NULL, work,
                 iwork, info, 1, 1);
        return 0;
    }
    int rc = 0;

    /* U = VT = I: the rows and columns between subproblems stay so */
    for (lapack_int j = 0; j < n; j++) {
        memset(&RAT(u, ldu, 0, j), 0, sizeof *u * (size_t)n);
        memset(&RAT(vt, ldvt, 0, j), 0, sizeof *vt * (size_t)n);
        RAT(u, ldu, j, j) = RAT(vt, ldvt, j, j) = 1;
    }
    gl_real orgnrm = 0;
    for (lapack_int i = 0; i < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(d[i]));
    for (lapack_int i = 0; i + 1 < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(e[i]));
    if (orgnrm == 0)
        goto out;

    lapack_int zero = 0, one = 1, nm1 = n - 1, ierr;
    gl_real unit = 1;
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &n, &one, d, &n, &ierr, 1);
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &nm1, &one, e, &nm1, &ierr,
              1);
    rc = svd_blocks(&s, n, d, e, u, ldu, vt, ldvt);
    if (rc > 0) {   /* a secular equation did not converge */
        restore_given(n, given, d, e);
        f->bdsdc("U", "I", &n, d, e, u, &ldu, vt, &ldvt, NULL, NULL, work,
                 iwork, info, 1, 1);
        rc = 0;
        goto out;
    }
    if (rc != 0)
        goto out;
    f->rlascl("G", &zero, &zero, &unit, &orgnrm, &n, &one, d, &n, &ierr, 1);

    rc = sort_pairs(n, d, 1, u, ldu, vt, ldvt);
out:
    free(given);
    dc_free(&s);
    return rc;
}

/* ---- the symmetric tridiagonal eigenproblem ---- */

/* The secular equation of a merge of ?laed1 and the vectors of its k x k
 * problem (?laed3's arithmetic): delta(:, j) receives dlambda - lambda_j
 * of root j, then column j of the vectors, rows ordered as the columns of
 * Q2 (indx). */
typedef struct tri_secular {
    const GL_FN(lapack_fns) *f;
    lapack_int k;
    const gl_real *dlambda, *wsign;
    gl_real *w, rho, *d, *delta;
    const lapack_int *indx;
    lapack_int info;
} tri_secular;

static int tri_roots(void *ctx, long item)
{
    tri_secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    for (lapack_int j = (lapack_int)item * ROOTS_PER_ITEM; j < hi && j < k;
         j++) {
        lapack_int j1 = j + 1, info = 0;
        q->f->laed4(&k, &j1, q->dlambda, q->w, &RAT(q->delta, k, 0, j),
                    &q->rho, &q->d[j], &info);
        if (info != 0 || gl_fault_hit(GL_FAULT_SECULAR)) {   /* ?laed4 did not converge: INFO > 0 */
            __atomic_store_n(&q->info, j1, __ATOMIC_RELAXED);
            return -1;
        }
    }
    return 0;
}

/* w_i recomputed from the roots (Gu and Eisenstat), its sign from the
 * original w. */
static int tri_recompute_w(void *ctx, long item)
{
    tri_secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    const gl_real *dl = q->dlambda;
    for (lapack_int i = (lapack_int)item * ROOTS_PER_ITEM; i < hi && i < k;
         i++) {
        gl_real wi = RAT(q->delta, k, i, i);
        for (lapack_int j = 0; j < k; j++)
            if (j != i)
                wi *= RAT(q->delta, k, i, j) / (dl[i] - dl[j]);
        q->w[i] = GL_R(copysign)(GL_R(sqrt)(-wi), q->wsign[i]);
    }
    return 0;
}

/* Root j's vector s_i = w_i / (dlambda_i - lambda_j), normalised. */
static int tri_vectors(void *ctx, long item)
{
    tri_secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    gl_real *v = malloc(sizeof *v * (size_t)k);
    if (!v)
        return -1;
    for (lapack_int j = (lapack_int)item * ROOTS_PER_ITEM; j < hi && j < k;
         j++) {
        gl_real *col = &RAT(q->delta, k, 0, j);
        for (lapack_int i = 0; i < k; i++)
            v[i] = q->w[i] / col[i];
        gl_real nv = norm2(k, v);
        for (lapack_int i = 0; i < k; i++)
            col[i] = v[q->indx[i] - 1] / nv;
    }
    free(v);
    return 0;
}

/* The merge of ?laed1: T (n x n) from its two solved halves in Q (blocks
 * at (0, 0), n1 <= n/2 rows, and (n1, n1)) and the rank-one tear rho
 * between them, indxq of each half at indxq[0..n1) and indxq[n1..n).  On
 * return d and Q hold the eigenpairs of T (d unsorted), indxq sorts d
 * ascending.  Returns 0, INFO > 0 of ?laed4, or < 0. */
static int tri_merge(const dc *s, lapack_int n, lapack_int n1, gl_real *d,
                     gl_real *q, lapack_int ldq, gl_real rho,
                     lapack_int *indxq)
{
    const GL_FN(lapack_fns) *f = s->f;
    lapack_int k = 0, info = 0, n2 = n - n1;
    /* z, dlambda, w, wsign (n each), Q2 (n x n: ?laed2 copies all of Q
     * there when nothing is left to merge), delta (k x k) */
    gl_real *z = s->merge_work, *dlambda = z + n, *w = dlambda + n,
            *wsign = w + n, *q2 = wsign + n, *delta = q2 + (size_t)n * n;
    lapack_int *indx = s->merge_iwork, *indxc = indx + n, *indxp = indxc + n,
               *coltyp = indxp + n;

    /* z: the last row of the first half's vectors, the first of the
     * second's */
    for (lapack_int j = 0; j < n1; j++)
        z[j] = RAT(q, ldq, n1 - 1, j);
    for (lapack_int j = n1; j < n; j++)
        z[j] = RAT(q, ldq, n1, j);
    double clock = gl_profile_clock();
    f->laed2(&k, &n, &n1, d, q, &ldq, indxq, &rho, z, dlambda, w, q2, indx,
             indxc, indxp, coltyp, &info);
    gl_profile_section("dc deflation", clock);
    if (info != 0)
        return -1;   /* an argument error: not ours to report */
    if (k == 0) {    /* ?laed2 sorted d and Q */
        for (lapack_int i = 0; i < n; i++)
            indxq[i] = i + 1;
        return 0;
    }
    memcpy(wsign, w, sizeof *w * (size_t)k);
    tri_secular t = {f, k, dlambda, wsign, w, rho, d, delta, indxc, 0};
    long items = (k + ROOTS_PER_ITEM - 1) / ROOTS_PER_ITEM;
    clock = gl_profile_clock();
    if (gl_parallel_for(items, tri_roots, &t) != 0)
        return t.info > 0 ? t.info : -1;
    gl_profile_section("dc secular roots", clock);
    clock = gl_profile_clock();
    if (k == 2) {   /* ?laed4 gave the vectors themselves */
        for (lapack_int j = 0; j < 2; j++) {
            gl_real v0 = RAT(delta, 2, 0, j), v1 = RAT(delta, 2, 1, j);
            RAT(delta, 2, 0, j) = indxc[0] == 1 ? v0 : v1;
            RAT(delta, 2, 1, j) = indxc[1] == 1 ? v0 : v1;
        }
    } else if (k > 2) {
        gl_parallel_for(items, tri_recompute_w, &t);
        if (gl_parallel_for(items, tri_vectors, &t) != 0)
            return -1;
    }
    gl_profile_section("dc secular vectors", clock);
    /* Q(0:n1, 0:k) = Q2's first block (n1 x n12) times rows 0..n12 of the
     * vectors, Q(n1:n, 0:k) = its second (n2 x n23) times rows
     * ctot1..ctot1+n23 (the column types of ?laed2: 1 upper, 2 dense,
     * 3 lower) */
    lapack_int n12 = coltyp[0] + coltyp[1], n23 = coltyp[1] + coltyp[2];
    int rc = 0;
    if (n23 > 0)
        rc = product(s, 'N', n2, k, n23, q2 + (size_t)n1 * n12, n2,
                     delta + coltyp[0], k, &RAT(q, ldq, n1, 0), ldq);
    else
        for (lapack_int j = 0; j < k; j++)
            memset(&RAT(q, ldq, n1, j), 0, sizeof *q * (size_t)n2);
    if (rc == 0 && n12 > 0)
        rc = product(s, 'N', n1, k, n12, q2, n1, delta, k, q, ldq);
    else if (rc == 0)
        for (lapack_int j = 0; j < k; j++)
            memset(&RAT(q, ldq, 0, j), 0, sizeof *q * (size_t)n1);
    if (rc != 0)
        return -1;
    lapack_int nd = n - k, up = 1, down = -1;
    f->lamrg(&k, &nd, d, &up, &down, indxq);
    return 0;
}

/* ---- the merges with Q in the backend's memory ----
 *
 * ?laed2's deflation and ?laed3's secular equation, with the O(n^2) parts
 * on the device: the deflation's decisions are made on the host from d
 * and z (two rows of Q, read back), and its rotations and column moves
 * recorded, then applied by the device (ops->dc_rotate, dc_gather); the
 * device solves the secular equation, each root as its nearest pole and
 * its offset from it, and forms the vectors from them as ?laed3 does
 * (ops->dc_secular), the roots' values read back.  The host's work per
 * merge is O(n). */

/* ?laed2's contract, Q left alone: n, n1, d, indxq (1-based, each half
 * ascending; its second half is offset by n1 on return), rho (made
 * |2 rho|), z (scaled as ?laed2 scales it; used as scratch) in;  the
 * number k of values left to merge out, with dlamda and w (k each),
 * indx, indxc, indxp, coltyp (n each, scratch but indxc: the order of
 * the vectors' rows, 1-based), ctot (the four column types' counts), the
 * rotations (nrot of them: pair, 0-based columns, and cs) to apply to Q
 * before its columns are gathered in the order from (0-based: types 1,
 * 2, 3, then the deflated type 4, whose values d[k..n) receives).  k = 0:
 * nothing to merge; d sorted ascending, from its permutation. */
static lapack_int deflate_tri(const GL_FN(lapack_fns) *f, lapack_int n,
                              lapack_int n1, gl_real *d0, lapack_int *indxq0,
                              gl_real *rho, gl_real *z0, gl_real *dlamda0,
                              gl_real *w0, lapack_int *indx0,
                              lapack_int *indxc0, lapack_int *indxp0,
                              lapack_int *coltyp0, lapack_int *ctot,
                              lapack_int *from, lapack_int *pair,
                              gl_real *cs, lapack_int *nrot)
{
    const lapack_int n2 = n - n1, n1p1 = n1 + 1, one = 1;
    /* 1-based views, as ?laed2 */
    gl_real *d = d0 - 1, *z = z0 - 1, *dlamda = dlamda0 - 1, *w = w0 - 1;
    lapack_int *indxq = indxq0 - 1, *indx = indx0 - 1, *indxc = indxc0 - 1,
               *indxp = indxp0 - 1, *coltyp = coltyp0 - 1;
    *nrot = 0;

    if (*rho < 0)
        for (lapack_int i = n1p1; i <= n; i++)
            z[i] = -z[i];
    /* z, the two halves' unit rows, to norm 1 */
    const gl_real t0 = 1 / GL_R(sqrt)(2);
    for (lapack_int i = 1; i <= n; i++)
        z[i] *= t0;
    *rho = GL_R(fabs)(2 * *rho);
    for (lapack_int i = n1p1; i <= n; i++)
        indxq[i] += n1;
    for (lapack_int i = 1; i <= n; i++)
        dlamda[i] = d[indxq[i]];
    f->lamrg(&n1, &n2, &dlamda[1], &one, &one, &indxc[1]);
    for (lapack_int i = 1; i <= n; i++)
        indx[i] = indxq[indxc[i]];

    gl_real zmax = 0, dmax = 0;
    for (lapack_int i = 1; i <= n; i++) {
        zmax = GL_R(fmax)(zmax, GL_R(fabs)(z[i]));
        dmax = GL_R(fmax)(dmax, GL_R(fabs)(d[i]));
    }
    const gl_real eps = f->lamch("Epsilon", 7),
                  tol = 8 * eps * GL_R(fmax)(dmax, zmax);
    if (*rho * zmax <= tol) {   /* nothing to merge: the columns sorted */
        for (lapack_int j = 1; j <= n; j++) {
            from[j - 1] = indx[j] - 1;
            dlamda[j] = d[indx[j]];
        }
        memcpy(d0, dlamda0, sizeof *d0 * (size_t)n);
        return 0;
    }

    for (lapack_int i = 1; i <= n1; i++)
        coltyp[i] = 1;
    for (lapack_int i = n1p1; i <= n; i++)
        coltyp[i] = 3;
    /* a small z entry deflates its value; two close values are rotated
     * so that one of their z entries is zero */
    lapack_int k = 0, k2 = n + 1, pj = 0;
    for (lapack_int j = 1; j <= n; j++) {
        lapack_int nj = indx[j];
        if (*rho * GL_R(fabs)(z[nj]) <= tol) {
            k2--;
            coltyp[nj] = 4;
            indxp[k2] = nj;
            continue;
        }
        if (pj == 0) {
            pj = nj;
            continue;
        }
        gl_real s = z[pj], c = z[nj];
        gl_real tau = pythag(c, s), t = d[nj] - d[pj];
        c = c / tau;
        s = -s / tau;
        if (GL_R(fabs)(t * c * s) > tol) {
            k++;
            dlamda[k] = d[pj];
            w[k] = z[pj];
            indxp[k] = pj;
            pj = nj;
            continue;
        }
        z[nj] = tau;
        z[pj] = 0;
        if (coltyp[nj] != coltyp[pj])
            coltyp[nj] = 2;
        coltyp[pj] = 4;
        pair[2 * *nrot] = pj - 1;
        pair[2 * *nrot + 1] = nj - 1;
        cs[2 * *nrot] = c;
        cs[2 * *nrot + 1] = s;
        ++*nrot;
        t = d[pj] * c * c + d[nj] * s * s;
        d[nj] = d[pj] * s * s + d[nj] * c * c;
        d[pj] = t;
        /* the deflated values stay in ascending order from k2 on */
        k2--;
        lapack_int i = 1;
        while (k2 + i <= n && d[pj] < d[indxp[k2 + i]]) {
            indxp[k2 + i - 1] = indxp[k2 + i];
            indxp[k2 + i] = pj;
            i++;
        }
        indxp[k2 + i - 1] = pj;
        pj = nj;
    }
    k++;   /* the last value left (rho |z| > tol: there is one) */
    dlamda[k] = d[pj];
    w[k] = z[pj];
    indxp[k] = pj;

    /* the permutation that groups the column types 1, 2, 3, 4 */
    lapack_int psm[4];
    for (lapack_int j = 0; j < 4; j++)
        ctot[j] = 0;
    for (lapack_int j = 1; j <= n; j++)
        ctot[coltyp[j] - 1]++;
    psm[0] = 1;
    psm[1] = 1 + ctot[0];
    psm[2] = psm[1] + ctot[1];
    psm[3] = psm[2] + ctot[2];
    for (lapack_int j = 1; j <= n; j++) {
        lapack_int js = indxp[j], ct = coltyp[js] - 1;
        indx[psm[ct]] = js;
        indxc[psm[ct]] = j;
        psm[ct]++;
    }
    k = n - ctot[3];
    for (lapack_int i = 1; i <= n; i++) {
        from[i - 1] = indx[i] - 1;
        z[i] = d[indx[i]];
    }
    for (lapack_int i = k + 1; i <= n; i++)
        d[i] = z[i];
    return k;
}

/* tri_merge with Q in the backend's memory (the scratch of s->dq2 and
 * s->ds).  Returns 0, > 0 where a root did not converge, or < 0. */
static int tri_merge_device(const dc *s, lapack_int n, lapack_int n1,
                            gl_real *d, gl_real *q, lapack_int ldq,
                            gl_real rho, lapack_int *indxq)
{
    const GL_FN(ops) *ops = s->ops;
    const GL_FN(lapack_fns) *f = s->f;
    const size_t nn = (size_t)n;
    lapack_int n2 = n - n1, ctot[4], nrot = 0;
    /* z, dlamda, w (n each), roots (5n), cs (2n) */
    gl_real *z = s->merge_work, *dlamda = z + nn, *w = dlamda + nn,
            *roots = w + nn, *cs = roots + 5 * nn;
    /* indx, indxc, indxp, coltyp, from (n each), pair (2n) */
    lapack_int *indx = s->merge_iwork, *indxc = indx + nn,
               *indxp = indxc + nn, *coltyp = indxp + nn,
               *from = coltyp + nn, *pair = from + nn;

    /* z: the last row of the first half's vectors, the first of the
     * second's */
    if (ops->real_to_host(1, n1, q + n1 - 1, ldq, z, 1) ||
        ops->real_to_host(1, n2, q + n1 + (size_t)n1 * ldq, ldq, z + n1, 1))
        return -1;
    double clock = gl_profile_clock();
    lapack_int k = deflate_tri(f, n, n1, d, indxq, &rho, z, dlamda, w, indx,
                               indxc, indxp, coltyp, ctot, from, pair, cs,
                               &nrot);
    gl_profile_section("dc deflation", clock);
    gl_real *q2 = s->dq2;
    if (k == 0) {   /* the columns in the order of the sorted values */
        if (ops->dc_gather(n, n, 0, from, q, ldq, q2, n) ||
            ops->real_copy(n, n, q2, n, q, ldq))
            return -1;
        for (lapack_int i = 0; i < n; i++)
            indxq[i] = i + 1;
        return 0;
    }
    lapack_int n12 = ctot[0] + ctot[1], n23 = ctot[1] + ctot[2];
    gl_real *top = q2, *bottom = top + (size_t)n1 * n12,
            *deflated = bottom + (size_t)n2 * n23;
    if (ops->dc_rotate(n, 0, nrot, pair, cs, q, ldq) ||
        ops->dc_gather(n1, n12, 0, from, q, ldq, top, n1) ||
        ops->dc_gather(n2, n23, 0, from + ctot[0], q + n1, ldq, bottom,
                       n2) ||
        ops->dc_gather(n, n - k, 0, from + k, q, ldq, deflated, n))
        return -1;

    /* the secular equation on the device but for k <= 2, whose roots and
     * vectors ?laed4 gives the host (rows in the order indxc, as
     * ?laed3) */
    gl_real *sv = s->ds;
    int rc = 0;
    if (k <= 2) {
        gl_real small[4], v[4];
        clock = gl_profile_clock();
        for (lapack_int j = 0; j < k; j++) {
            lapack_int j1 = j + 1, info = 0;
            f->laed4(&k, &j1, dlamda, w, small + j * k, &rho, &d[j], &info);
            if (info != 0 || gl_fault_hit(GL_FAULT_SECULAR))
                return j1;
        }
        gl_profile_section("dc secular roots", clock);
        for (lapack_int j = 0; j < k; j++)
            for (lapack_int i = 0; i < k; i++)
                v[i + j * k] = small[indxc[i] - 1 + j * k];
        rc = ops->real_to_device(k, k, v, k, sv, k);
    } else {
        pack_secular(k, dlamda, w, indxc, 0, roots);
        rc = ops->dc_secular(k, rho, roots, d, sv, k);
        if (rc > 0)
            return rc;
    }
    /* Q(n1:n, 0:k) = the second block of the gathered columns (n2 x n23)
     * times rows ctot1 .. ctot1+n23 of the vectors, Q(0:n1, 0:k) = the
     * first (n1 x n12) times rows 0 .. n12 (?laed3), the deflated columns
     * after them */
    if (rc == 0)
        rc = ops->real_gemm('N', n2, k, n23, bottom, n2, sv + ctot[0], k, q + n1,
                            ldq);
    if (rc == 0)
        rc = ops->real_gemm('N', n1, k, n12, top, n1, sv, k, q, ldq);
    if (rc == 0 && n > k)
        rc = ops->real_copy(n, n - k, deflated, n, q + (size_t)k * ldq, ldq);
    if (rc != 0)
        return -1;
    lapack_int nd = n - k, up = 1, down = -1;
    f->lamrg(&k, &nd, d, &up, &down, indxq);
    return 0;
}

static int tri_leaf(void *ctx, long i)
{
    const dc *s = ctx;
    leaf_task *t = &s->list->task[i];
    lapack_int info = -1, lwork = (lapack_int)s->leaf_reals,
               liwork = (lapack_int)s->leaf_ints;
    gl_real *work = malloc(sizeof *work * s->leaf_reals);
    lapack_int *iwork = malloc(sizeof *iwork * s->leaf_ints);
    if (work && iwork)
        s->f->stedc("I", &t->n, t->d, t->e, t->u, &t->ldu, work, &lwork,
                    iwork, &liwork, &info, 1);
    free(work);
    free(iwork);
    leaf_failed(s, info);
    for (lapack_int j = 0; j < t->n; j++)   /* ?stedc sorts */
        t->idxq[j] = j + 1;
    return info != 0 ? -1 : 0;
}

/* The eigenpairs of the n x n tridiagonal (d, e) into the block at q
 * (?laed0's contract), and indxq sorting d ascending: the first walk
 * (merging 0) tears the tridiagonal and lists the leaves, the second,
 * after solve_leaves, merges. */
static int tri_solve(const dc *s, int merging, lapack_int n, gl_real *d,
                     gl_real *e, gl_real *q, lapack_int ldq,
                     lapack_int *indxq)
{
    if (n <= s->leaf) {
        if (merging)
            return 0;
        leaf_task t = {n, 0, ldq, 0, d, e, q, NULL, indxq, NULL, NULL, 0, 0};
        if (s->device) {   /* solved into a host block, then copied */
            t.dev = q;
            t.lddev = ldq;
            t.u = s->leaf_host + s->list->host_used;
            t.ldu = n;
            s->list->host_used += (size_t)n * (size_t)n;
        }
        s->list->task[s->list->count++] = t;
        return 0;
    }
    /* the rank-one tear between the halves */
    lapack_int n1 = n / 2;
    gl_real rho = e[n1 - 1];
    if (!merging) {
        d[n1 - 1] -= GL_R(fabs)(rho);
        d[n1] -= GL_R(fabs)(rho);
    }
    int rc = tri_solve(s, merging, n1, d, e, q, ldq, indxq);
    if (rc == 0)
        rc = tri_solve(s, merging, n - n1, d + n1, e + n1,
                       &RAT(q, ldq, n1, n1), ldq, indxq + n1);
    if (rc == 0 && merging)
        rc = s->device ? tri_merge_device(s, n, n1, d, q, ldq, rho, indxq)
                       : tri_merge(s, n, n1, d, q, ldq, rho, indxq);
    return rc;
}

/* The eigenpairs of the tridiagonal (d, e) into Z (Z = I on entry) by
 * tri_solve over each independent subproblem where e is negligible
 * (?stedc's split), scaled to norm 1 as ?stedc scales it; with Z on the
 * device the leaves are copied there before the merges.  Returns 0, > 0
 * where a secular equation did not converge, or < 0. */
static int tri_blocks(dc *s, lapack_int n, gl_real *d, gl_real *e,
                      gl_real *z, lapack_int ldz)
{
    const GL_FN(lapack_fns) *f = s->f;
    const gl_real eps = f->lamch("Epsilon", 7);
    lapack_int zero = 0, one = 1, ierr;
    gl_real unit = 1;
    int rc = 0;
    for (lapack_int start = 0, finish; start < n && rc == 0;
         start = finish + 1) {
        finish = start;
        while (finish < n - 1 &&
               GL_R(fabs)(e[finish]) > eps * GL_R(sqrt)(GL_R(fabs)(d[finish])) *
                                           GL_R(sqrt)(GL_R(fabs)(d[finish + 1])))
            finish++;
        lapack_int m = finish - start + 1, m1 = m - 1;
        if (m == 1)
            continue;
        gl_real norm = 0;
        for (lapack_int i = start; i <= finish; i++)
            norm = GL_R(fmax)(norm, GL_R(fabs)(d[i]));
        for (lapack_int i = start; i < finish; i++)
            norm = GL_R(fmax)(norm, GL_R(fabs)(e[i]));
        if (norm == 0)
            continue;
        f->rlascl("G", &zero, &zero, &norm, &unit, &m, &one, d + start, &m,
                  &ierr, 1);
        f->rlascl("G", &zero, &zero, &norm, &unit, &m1, &one, e + start, &m1,
                  &ierr, 1);
        gl_real *zb = z + (size_t)start + (size_t)start * (size_t)ldz;
        s->list->count = 0;
        s->list->host_used = 0;
        tri_solve(s, 0, m, d + start, e + start, zb, ldz, s->idxq);
        rc = solve_leaves(s, tri_leaf);
        if (rc == 0 && s->device)
            rc = leaves_to_device(s);
        if (rc == 0)
            rc = tri_solve(s, 1, m, d + start, e + start, zb, ldz, s->idxq);
        f->rlascl("G", &zero, &zero, &unit, &norm, &m, &one, d + start, &m,
                  &ierr, 1);
    }
    return rc;
}

/* gl_s_tridiag_eig gl_d_tridiag_eig gl_c_tridiag_eig gl_z_tridiag_eig */
int GL_FN(tridiag_eig)(const GL_FN(ops) *ops, lapack_int n, gl_real *d,
                       gl_real *e, gl_real *z, lapack_int ldz, gl_real *work,
                       lapack_int lwork, lapack_int *iwork,
                       lapack_int liwork, lapack_int *info)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int leaf = gl_tune_dc_leaf();
    if (leaf < 2)
        leaf = 2;
    *info = 0;
    size_t nn = (size_t)n, lm = (size_t)leaf;
    dc s = {.ops = ops, .f = f, .leaf = leaf};
    gl_real *given = NULL;
    if (!ops->real_product || n <= leaf || n <= SMLSIZ || !f->laed2 ||
        !f->laed4 || !f->lamrg || !f->rgemm ||
        !(given = keep_given(n, d, e)) ||
        dc_alloc(&s, n, 1 + 4 * lm + lm * lm, 3 + 5 * lm,
                 4 * nn + 2 * nn * nn, 4 * nn)) {
        /* the host backend, a small problem, or no memory: the system's */
        free(given);
        f->stedc("I", &n, d, e, z, &ldz, work, &lwork, iwork, &liwork, info,
                 1);
        return 0;
    }
    int rc = 0;

    /* Z = I: the rows and columns between subproblems stay so */
    for (lapack_int j = 0; j < n; j++) {
        memset(&RAT(z, ldz, 0, j), 0, sizeof *z * (size_t)n);
        RAT(z, ldz, j, j) = 1;
    }
    rc = tri_blocks(&s, n, d, e, z, ldz);
    if (rc > 0) {   /* a secular equation did not converge */
        restore_given(n, given, d, e);
        f->stedc("I", &n, d, e, z, &ldz, work, &lwork, iwork, &liwork, info,
                 1);
        rc = 0;
        goto out;
    }
    if (rc != 0)
        goto out;

    rc = sort_pairs(n, d, 0, z, ldz, NULL, 0);
out:
    free(given);
    dc_free(&s);
    return rc;
}

/* The leaves of the device path, solved into their host blocks, into
 * their blocks of Z (U and VT). */
static int leaves_to_device(const dc *s)
{
    for (long i = 0; i < s->list->count; i++) {
        const leaf_task *t = &s->list->task[i];
        lapack_int m = t->n + t->sqre;
        if (s->ops->real_to_device(t->n, t->n, t->u, t->ldu, t->dev,
                                   t->lddev) ||
            (t->dev_vt && s->ops->real_to_device(m, m, t->vt, t->ldvt,
                                                 t->dev_vt, t->lddev_vt)))
            return -1;
    }
    return 0;
}

/* ?stedc('I') on the host (tridiag_eig, or the system's itself after a
 * secular equation of ours failed), its Z copied to the device. */
static int tridiag_eig_via_host(const GL_FN(ops) *ops, int system,
                                lapack_int n, gl_real *d, gl_real *e,
                                gl_real *z, lapack_int ldz, lapack_int *info)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    size_t nn = (size_t)n;
    lapack_int lwork = 1 + 4 * n + n * n, liwork = 3 + 5 * n;
    gl_real *zh = gl_host_alloc(sizeof *zh * nn * nn),
            *work = malloc(sizeof *work * (size_t)lwork);
    lapack_int *iwork = malloc(sizeof *iwork * (size_t)liwork);
    int rc = -1;
    if (zh && work && iwork && system)
        f->stedc("I", &n, d, e, zh, &n, work, &lwork, iwork, &liwork, info,
                 1);
    if (zh && work && iwork &&
        (system || GL_FN(tridiag_eig)(ops, n, d, e, zh, n, work, lwork,
                                      iwork, liwork, info) == 0))
        rc = ops->real_to_device(n, n, zh, n, z, ldz) ? -1 : 0;
    gl_host_free(zh);
    free(work);
    free(iwork);
    return rc;
}

/* gl_s_tridiag_eig_device gl_d_tridiag_eig_device gl_c_tridiag_eig_device gl_z_tridiag_eig_device */
int GL_FN(tridiag_eig_device)(const GL_FN(ops) *ops, lapack_int n,
                              gl_real *d, gl_real *e, gl_real *z,
                              lapack_int ldz, lapack_int *info)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int leaf = gl_tune_dc_leaf();
    if (leaf < 2)
        leaf = 2;
    *info = 0;
    size_t nn = (size_t)n, lm = (size_t)leaf;
    dc s = {.ops = ops, .f = f, .leaf = leaf, .device = 1};
    gl_real *given = NULL;
    if (n <= leaf || n <= SMLSIZ || !f->laed4 || !f->lamrg || !f->stedc)
        /* a small problem: on the host */
        return tridiag_eig_via_host(ops, 0, n, d, e, z, ldz, info);
    if (!(given = keep_given(n, d, e)) ||
        dc_alloc(&s, n, 1 + 4 * lm + lm * lm, 3 + 5 * lm, 10 * nn + 4,
                 7 * nn) ||
        !(s.leaf_host = gl_host_alloc(sizeof(gl_real) * nn * lm)) ||
        !(s.dq2 = ops->alloc(sizeof(gl_real) * nn * nn)) ||
        !(s.ds = ops->alloc(sizeof(gl_real) * nn * nn))) {
        /* memory refused: the call restarts on LAPACK */
        free(given);
        dc_free(&s);
        return -1;
    }

    /* Z = I: the rows and columns between subproblems stay so */
    int rc = ops->real_fill(n, n, 1, z, ldz);
    if (rc == 0)
        rc = tri_blocks(&s, n, d, e, z, ldz);
    if (rc > 0) {   /* a secular equation did not converge */
        restore_given(n, given, d, e);
        free(given);
        dc_free(&s);
        return tridiag_eig_via_host(ops, 1, n, d, e, z, ldz, info);
    }
    /* the final sort (?stedc's), the columns gathered on the device */
    if (rc == 0)
        rc = sort_order(n, d, 0, s.from);
    if (rc == 0)
        rc = ops->dc_gather(n, n, 0, s.from, z, ldz, s.dq2, n) ||
                     ops->real_copy(n, n, s.dq2, n, z, ldz)
                 ? -1
                 : 0;
    free(given);
    dc_free(&s);
    return rc < 0 ? -1 : 0;
}

/* ?bdsdc('U', 'I') on the host (bidiag_svd, or the system's itself after
 * a secular equation of ours failed), U and VT copied to the device. */
static int bidiag_svd_via_host(const GL_FN(ops) *ops, int system,
                               lapack_int n, gl_real *d, gl_real *e,
                               gl_real *u, lapack_int ldu, gl_real *vt,
                               lapack_int ldvt, lapack_int *info)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    size_t nn = (size_t)n;
    gl_real *uh = gl_host_alloc(sizeof *uh * (5 * nn * nn + 4 * nn));
    lapack_int *iwork = malloc(sizeof *iwork * 8 * nn);
    int rc = -1;
    if (uh && iwork) {
        gl_real *vth = uh + nn * nn, *work = vth + nn * nn;
        if (system)
            f->bdsdc("U", "I", &n, d, e, uh, &n, vth, &n, NULL, NULL, work,
                     iwork, info, 1, 1);
        if (system || GL_FN(bidiag_svd)(ops, n, d, e, uh, n, vth, n, work,
                                        iwork, info) == 0)
            rc = ops->real_to_device(n, n, uh, n, u, ldu) ||
                         ops->real_to_device(n, n, vth, n, vt, ldvt)
                     ? -1
                     : 0;
    }
    gl_host_free(uh);
    free(iwork);
    return rc;
}

/* gl_s_bidiag_svd_device gl_d_bidiag_svd_device gl_c_bidiag_svd_device gl_z_bidiag_svd_device */
int GL_FN(bidiag_svd_device)(const GL_FN(ops) *ops, lapack_int n,
                             gl_real *d, gl_real *e, gl_real *u,
                             lapack_int ldu, gl_real *vt, lapack_int ldvt,
                             lapack_int *info)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int leaf = gl_tune_dc_leaf();
    if (leaf < 3)
        leaf = 3;   /* both halves of a split subproblem have a row */
    *info = 0;
    size_t nn = (size_t)n, lm = (size_t)leaf + 1;
    dc s = {.ops = ops, .f = f, .leaf = leaf, .device = 1};
    gl_real *given = NULL;
    if (n <= leaf || n <= SMLSIZ || !f->lasd0 || !f->lasd4 || !f->lamrg ||
        !f->bdsdc)
        /* a small problem: on the host */
        return bidiag_svd_via_host(ops, 0, n, d, e, u, ldu, vt, ldvt, info);
    if (!(given = keep_given(n, d, e)) ||
        dc_alloc(&s, n, 3 * lm * lm + 2 * lm, 8 * lm, 12 * nn + 10, 7 * nn) ||
        !(s.leaf_host = gl_host_alloc(sizeof(gl_real) * (3 * lm + 2) * nn)) ||
        !(s.dq2 = ops->alloc(sizeof(gl_real) * nn * nn)) ||
        !(s.dvt2 = ops->alloc(sizeof(gl_real) * nn * nn)) ||
        !(s.ds = ops->alloc(sizeof(gl_real) * nn * nn)) ||
        !(s.ds2 = ops->alloc(sizeof(gl_real) * nn * nn))) {
        /* memory refused: the call restarts on LAPACK */
        free(given);
        dc_free(&s);
        return -1;
    }

    /* U = VT = I: the rows and columns between subproblems stay so */
    int rc = ops->real_fill(n, n, 1, u, ldu) || ops->real_fill(n, n, 1, vt, ldvt)
                 ? -1
                 : 0;
    gl_real orgnrm = 0;
    for (lapack_int i = 0; i < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(d[i]));
    for (lapack_int i = 0; i + 1 < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(e[i]));
    if (orgnrm == 0 || rc != 0)
        goto out;

    lapack_int zero = 0, one = 1, nm1 = n - 1, ierr;
    gl_real unit = 1;
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &n, &one, d, &n, &ierr, 1);
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &nm1, &one, e, &nm1, &ierr,
              1);
    rc = svd_blocks(&s, n, d, e, u, ldu, vt, ldvt);
    if (rc > 0) {   /* a secular equation did not converge */
        restore_given(n, given, d, e);
        free(given);
        dc_free(&s);
        return bidiag_svd_via_host(ops, 1, n, d, e, u, ldu, vt, ldvt, info);
    }
    if (rc != 0)
        goto out;
    f->rlascl("G", &zero, &zero, &unit, &orgnrm, &n, &one, d, &n, &ierr, 1);
    /* the final sort (?bdsdc's), descending: U's columns and VT's rows
     * gathered on the device */
    rc = sort_order(n, d, 1, s.from) ||
                 ops->dc_gather(n, n, 0, s.from, u, ldu, s.dq2, n) ||
                 ops->real_copy(n, n, s.dq2, n, u, ldu) ||
                 ops->dc_gather(n, n, 1, s.from, vt, ldvt, s.dvt2, n) ||
                 ops->real_copy(n, n, s.dvt2, n, vt, ldvt)
             ? -1
             : 0;
out:
    free(given);
    dc_free(&s);
    return rc < 0 ? -1 : 0;
}
