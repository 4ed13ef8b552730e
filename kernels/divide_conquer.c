/* Stage 3 with vectors on a device backend, by divide and conquer, with
 * the products of the large merges on the device:
 *   bidiag_svd: the SVD B = U S VT of the real upper bidiagonal B, the
 *     contract of ?bdsdc('U', 'I');
 *   tridiag_eig: the eigenvectors Z of the real symmetric tridiagonal T,
 *     the contract of ?stedc('I').
 *
 * Why: on the H100 of the twelfth session the system ?bdsdc took 15.7 of
 * the 23.0 s of dgesdd JOBZ='S' at n = 8192, and ?stedc 3.9 of the 7.8 s
 * of dsyevd JOBZ='V' (docs/performance.md).  Almost all of their
 * arithmetic is the products of each merge, vectors of the two halves
 * times the k x k vectors of the merged secular problem, k up to n; the
 * rest is O(n^2) per merge.  So the tree is walked here as ?lasd0/?laed0
 * do: subproblems up to gl_tune_dc_leaf() rows go whole to the system's
 * ?lasd0/?stedc, larger ones are split, and each of their merges
 * (?lasd1/?laed1) runs as the system's ?lasd2/?laed2 (deflation, on the
 * host), the secular equations by the system's ?lasd4/?laed4 over the
 * host's threads, the vectors of the merged problem (Gu and Eisenstat's
 * recomputed z, as ?lasd3/?laed3), then the products through
 * ops->real_product.  The SVD's products are taken whole (U2 and VT2 keep
 * the zeros of their column types), which costs more flops than ?lasd3's
 * split products and none of its bookkeeping: a device does them at a
 * small fraction of the host's time.  The outer parts (scaling, splitting
 * at negligible off-diagonals, sorting) are ?bdsdc's and ?stedc's.  A
 * secular equation that does not converge restarts the problem with the
 * system routine (keep_given): its result, or its INFO, is LAPACK's. */
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

typedef struct dc {
    const GL_FN(ops) *ops;
    const GL_FN(lapack_fns) *f;
    lapack_int leaf;             /* largest subproblem for the system ?lasd0 */
    gl_real *leaf_work;          /* ?lasd0: 3 m^2 + 2 m for m = leaf + 1;
                                    ?stedc: 1 + 4 n + n^2 */
    lapack_int *leaf_iwork;      /* ?lasd0: 8 n; ?stedc: 3 + 5 n */
    gl_real *merge_work;         /* the largest merge's arrays, see merge() */
    lapack_int *merge_iwork;
    lapack_int *idxq;            /* the sorting permutations (n) */
} dc;

static void dc_free(dc *s)
{
    gl_host_free(s->leaf_work);
    free(s->leaf_iwork);
    gl_host_free(s->merge_work);
    free(s->merge_iwork);
    free(s->idxq);
}

/* The arrays of a solve; 0, or -1 when one was refused (nothing held). */
static int dc_alloc(dc *s, lapack_int n, size_t leaf_reals, size_t leaf_ints,
                    size_t merge_reals)
{
    s->leaf_work = gl_host_alloc(sizeof(gl_real) * leaf_reals);
    s->leaf_iwork = malloc(sizeof(lapack_int) * leaf_ints);
    s->merge_work = gl_host_alloc(sizeof(gl_real) * merge_reals);
    s->merge_iwork = malloc(sizeof(lapack_int) * 4 * (size_t)n);
    s->idxq = malloc(sizeof(lapack_int) * (size_t)n);
    if (s->leaf_work && s->leaf_iwork && s->merge_work && s->merge_iwork &&
        s->idxq)
        return 0;
    dc_free(s);
    return -1;
}

/* d (n values) sorted descending or ascending by selection, at most n - 1
 * exchanges, each with the same exchange of two columns of cols (n rows)
 * and, unless rows is NULL, of two rows of rows (n columns). */
static void sort_pairs(lapack_int n, gl_real *d, int descending,
                       gl_real *cols, lapack_int ldc, gl_real *rows,
                       lapack_int ldr)
{
    for (lapack_int i = 0; i + 1 < n; i++) {
        lapack_int kk = i;
        for (lapack_int j = i + 1; j < n; j++)
            if (descending ? d[j] > d[kk] : d[j] < d[kk])
                kk = j;
        if (kk == i)
            continue;
        gl_real t = d[kk];
        d[kk] = d[i];
        d[i] = t;
        for (lapack_int r = 0; r < n; r++) {
            t = RAT(cols, ldc, r, i);
            RAT(cols, ldc, r, i) = RAT(cols, ldc, r, kk);
            RAT(cols, ldc, r, kk) = t;
        }
        for (lapack_int c = 0; rows && c < n; c++) {
            t = RAT(rows, ldr, i, c);
            RAT(rows, ldr, i, c) = RAT(rows, ldr, kk, c);
            RAT(rows, ldr, kk, c) = t;
        }
    }
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
    f->lasd2(&nl, &nr, &sqre, &k, d, z, &alpha, &beta, u, &ldu, vt, &ldvt,
             dsigma, u2, &n, vt2, &m, idxp, idx, idxc, idxq, coltyp, &info);
    gl_profile_section("dc deflation", clock);
    if (info != 0)
        return -1;   /* an argument error: not ours to report */

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

/* The SVD of the n x (n + sqre) upper bidiagonal (d, e) into the blocks
 * at u and vt (?lasd0's contract), and idxq sorting d ascending. */
static int solve(const dc *s, lapack_int n, lapack_int sqre, gl_real *d,
                 gl_real *e, gl_real *u, lapack_int ldu, gl_real *vt,
                 lapack_int ldvt, lapack_int *idxq)
{
    if (n <= s->leaf) {
        lapack_int smlsiz = SMLSIZ, info = 0;
        double clock = gl_profile_clock();
        s->f->lasd0(&n, &sqre, d, e, u, &ldu, vt, &ldvt, &smlsiz,
                    s->leaf_iwork, s->leaf_work, &info);
        gl_profile_section("dc leaves", clock);
        if (info != 0)
            return info > 0 ? info : -1;
        return ascending_order(n, d, idxq);
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
    int rc = solve(s, nl, 1, d, e, u, ldu, vt, ldvt, idxq);
    if (rc == 0)
        rc = solve(s, nr, sqre, d + nl + 1, e + nl + 1,
                   &RAT(u, ldu, nl + 1, nl + 1), ldu,
                   &RAT(vt, ldvt, nl + 1, nl + 1), ldvt, idxq + nl + 1);
    if (rc == 0)
        rc = merge(s, nl, nr, sqre, d, d[nl], e[nl], u, ldu, vt, ldvt, idxq);
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
    dc s = {ops, f, leaf, NULL, NULL, NULL, NULL, NULL};
    gl_real *given = NULL;
    if (!ops->real_product || n <= leaf || n <= SMLSIZ || !f->lasd0 ||
        !f->lasd2 || !f->lasd4 || !f->lamrg || !f->rgemm ||
        !(given = keep_given(n, d, e)) ||
        dc_alloc(&s, n, 3 * lm * lm + 2 * lm, 8 * lm,
                 3 * (nn + 1) + 4 * (nn + 1) * (nn + 1))) {
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
    const gl_real eps = (gl_real)0.9 * f->lamch("Epsilon", 7);
    for (lapack_int i = 0; i < n; i++)
        if (GL_R(fabs)(d[i]) < eps)
            d[i] = GL_R(copysign)(eps, d[i]);
    /* independent subproblems where e is negligible (?bdsdc's split) */
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
            RAT(u, ldu, n - 1, n - 1) = d[n - 1] < 0 ? -1 : 1;
            d[n - 1] = GL_R(fabs)(d[n - 1]);
        }
        rc = solve(&s, size, 0, d + start, e + start,
                   &RAT(u, ldu, start, start), ldu,
                   &RAT(vt, ldvt, start, start), ldvt, s.idxq);
        start = i + 1;
    }
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

    sort_pairs(n, d, 1, u, ldu, vt, ldvt);
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

/* The eigenpairs of the n x n tridiagonal (d, e) into the block at q
 * (?laed0's contract), and indxq sorting d ascending. */
static int tri_solve(const dc *s, lapack_int n, gl_real *d, gl_real *e,
                     gl_real *q, lapack_int ldq, lapack_int *indxq)
{
    if (n <= s->leaf) {
        lapack_int info = 0, lwork = 1 + 4 * s->leaf + s->leaf * s->leaf,
                   liwork = 3 + 5 * s->leaf;
        double clock = gl_profile_clock();
        s->f->stedc("I", &n, d, e, q, &ldq, s->leaf_work, &lwork,
                    s->leaf_iwork, &liwork, &info, 1);
        gl_profile_section("dc leaves", clock);
        if (info != 0)
            return info > 0 ? info : -1;
        for (lapack_int i = 0; i < n; i++)   /* ?stedc sorts */
            indxq[i] = i + 1;
        return 0;
    }
    /* the rank-one tear between the halves */
    lapack_int n1 = n / 2;
    gl_real rho = e[n1 - 1];
    d[n1 - 1] -= GL_R(fabs)(rho);
    d[n1] -= GL_R(fabs)(rho);
    int rc = tri_solve(s, n1, d, e, q, ldq, indxq);
    if (rc == 0)
        rc = tri_solve(s, n - n1, d + n1, e + n1, &RAT(q, ldq, n1, n1), ldq,
                       indxq + n1);
    if (rc == 0)
        rc = tri_merge(s, n, n1, d, q, ldq, rho, indxq);
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
    dc s = {ops, f, leaf, NULL, NULL, NULL, NULL, NULL};
    gl_real *given = NULL;
    if (!ops->real_product || n <= leaf || n <= SMLSIZ || !f->laed2 ||
        !f->laed4 || !f->lamrg || !f->rgemm ||
        !(given = keep_given(n, d, e)) ||
        dc_alloc(&s, n, 1 + 4 * lm + lm * lm, 3 + 5 * lm,
                 4 * nn + 2 * nn * nn)) {
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
    const gl_real eps = f->lamch("Epsilon", 7);
    lapack_int zero = 0, one = 1, ierr;
    gl_real unit = 1;
    /* independent subproblems where e is negligible (?stedc's split) */
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
        rc = tri_solve(&s, m, d + start, e + start, &RAT(z, ldz, start, start),
                       ldz, s.idxq);
        f->rlascl("G", &zero, &zero, &unit, &norm, &m, &one, d + start, &m,
                  &ierr, 1);
    }
    if (rc > 0) {   /* a secular equation did not converge */
        restore_given(n, given, d, e);
        f->stedc("I", &n, d, e, z, &ldz, work, &lwork, iwork, &liwork, info,
                 1);
        rc = 0;
        goto out;
    }
    if (rc != 0)
        goto out;

    sort_pairs(n, d, 0, z, ldz, NULL, 0);
out:
    free(given);
    dc_free(&s);
    return rc;
}
