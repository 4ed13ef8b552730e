/* The SVD of the real upper bidiagonal by divide and conquer
 * (divide_conquer.h), ?bdsdc('U', 'I'): ?lasd1's merges with the vectors
 * on the host (the products on the device) or on the device, their
 * deflation decided by dc_svd_deflate.c, the tree of ?lasd0 over the
 * system's leaves, and the entries bidiag_svd and bidiag_svd_device
 * (stage3.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/memory.h"
#include "../../runtime/parallel.h"
#include "../../runtime/profile.h"
#include "divide_conquer.h"
#include "stage3.h"

/* ?lasd1's scaling of a merge to norm 1: d[nl] (the row between the
 * halves) made 0, d, alpha and beta divided by the largest of them,
 * which is returned. */
static gl_real lasd1_scale(const GL_FN(lapack_fns) *f, lapack_int n,
                           lapack_int nl, gl_real *d, gl_real *alpha,
                           gl_real *beta)
{
    lapack_int info = 0, one = 1, zero = 0;
    gl_real orgnrm = GL_R(fmax)(GL_R(fabs)(*alpha), GL_R(fabs)(*beta));
    d[nl] = 0;
    for (lapack_int i = 0; i < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(d[i]));
    gl_real unit = 1;
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &n, &one, d, &n, &info, 1);
    *alpha /= orgnrm;
    *beta /= orgnrm;
    return orgnrm;
}

/* z (k values) to norm 1, its signs kept in zsign; returns the norm. */
static gl_real lasd1_unit_z(const GL_FN(lapack_fns) *f, lapack_int k,
                            gl_real *z, gl_real *zsign)
{
    lapack_int info = 0, one = 1, zero = 0;
    gl_real unit = 1;
    memcpy(zsign, z, sizeof *z * (size_t)k);
    gl_real rho = dc_norm2(k, z);
    f->rlascl("G", &zero, &zero, &rho, &unit, &k, &one, z, &k, &info, 1);
    return rho;
}

/* ?lasd1's end: d scaled back, idxq the order that sorts it ascending
 * (the k values of the secular equation, then the deflated ones). */
static void lasd1_unscale(const GL_FN(lapack_fns) *f, lapack_int n,
                          lapack_int k, gl_real orgnrm, gl_real *d,
                          lapack_int *idxq)
{
    lapack_int info = 0, one = 1, zero = 0;
    gl_real unit = 1;
    f->rlascl("G", &zero, &zero, &unit, &orgnrm, &n, &one, d, &n, &info, 1);
    lapack_int n2 = n - k, up = 1, down = -1;
    f->lamrg(&k, &n2, d, &up, &down, idxq);
}

/* The merge of ?lasd1: B (n x m, n = nl + nr + 1, m = n + sqre) from its
 * two solved halves in U and VT (their blocks at (0, 0) and (nl+1, nl+1)),
 * the row nl (alpha, beta) between them, idxq of each half at idxq[0..nl)
 * and idxq[nl+1..n).  On return d, U, VT hold the SVD of B (d unsorted),
 * idxq sorts d ascending.  Returns 0, INFO > 0 of ?lasd4, or < 0. */
static int merge(const GL_FN(dc) *s, lapack_int nl, lapack_int nr,
                 lapack_int sqre, gl_real *d, gl_real alpha, gl_real beta,
                 gl_real *u, lapack_int ldu, gl_real *vt, lapack_int ldvt,
                 lapack_int *idxq)
{
    const GL_FN(lapack_fns) *f = s->f;
    lapack_int n = nl + nr + 1, m = n + sqre, k = 0;
    /* arrays: z (m: ?lasd2 writes z[m-1]), dsigma, zsign (n), U2 (n x n),
     * VT2 (m x m), delta and sums (k x k <= n x n) */
    gl_real *z = s->merge_work, *dsigma = z + m, *zsign = dsigma + n,
            *u2 = zsign + n, *vt2 = u2 + (size_t)n * n,
            *delta = vt2 + (size_t)m * m, *sums = delta + (size_t)n * n;
    lapack_int *idxp = s->merge_iwork, *idx = idxp + n, *idxc = idx + n,
               *coltyp = idxc + n;

    gl_real orgnrm = lasd1_scale(f, n, nl, d, &alpha, &beta);
    double clock = gl_profile_clock(s->ops->ctx);
    if (GL_FN(deflate_svd)(f, nl, nr, sqre, &k, d, z, alpha, beta, u, ldu, vt,
                           ldvt, dsigma, u2, vt2, idxp, idx, idxc, idxq,
                           coltyp, s->rot, s->from) != 0)
        return -1;
    gl_profile_section(s->ops->ctx, "dc deflation", clock);

    if (k == 1) {
        d[0] = GL_R(fabs)(z[0]);
        for (lapack_int j = 0; j < m; j++)
            RAT(vt, ldvt, 0, j) = RAT(vt2, m, 0, j);
        for (lapack_int i = 0; i < n; i++)
            RAT(u, ldu, i, 0) = z[0] > 0 ? u2[i] : -u2[i];
    } else {
        gl_real rho = lasd1_unit_z(f, k, z, zsign);
        GL_FN(dc_secular) q = {f,     k,     dsigma, zsign, z,    rho * rho,
                               d,     delta, sums,   idxc,  0};
        long items = (k + ROOTS_PER_ITEM - 1) / ROOTS_PER_ITEM;
        clock = gl_profile_clock(s->ops->ctx);
        int rc = GL_FN(dc_secular_roots)(&q, items);
        if (rc != 0)
            return rc;
        gl_profile_section(s->ops->ctx, "dc secular roots", clock);
        clock = gl_profile_clock(s->ops->ctx);
        if (GL_FN(dc_svd_vectors)(&q, items) != 0)
            return -1;
        gl_profile_section(s->ops->ctx, "dc secular vectors", clock);
        /* U(:, 0:k) = U2(:, 0:k) Q_u, VT(0:k, :) = Q_vt VT2(0:k, :) */
        rc = GL_FN(dc_product)(s, 'N', n, k, k, u2, n, delta, k, u, ldu);
        if (rc == 0)
            rc = GL_FN(dc_product)(s, 'T', k, m, k, sums, k, vt2, m, vt,
                                   ldvt);
        if (rc != 0)
            return -1;
    }
    lasd1_unscale(f, n, k, orgnrm, d, idxq);
    return 0;
}

/* ---- the merges with U and VT in the backend's memory ---- */

/* The deflation decided by decide_svd (nrot rotations in s->rot, the
 * gathers s->from, (c, sn) the rotation of the row nl + 1 with row m)
 * applied by the device (deflate_svd's passes): U's rotations, U2's
 * columns 2..n and its first e_{nl+1}, the deflated columns back; VT's
 * rotations of its rows, VT2's rows 2..n, the first row, the deflated
 * rows back.  pair, cs (2n each), from0 (n): scratch. */
static int deflate_on_device(const GL_FN(dc) *s, lapack_int nl,
                             lapack_int n, lapack_int m, lapack_int k,
                             lapack_int nrot, gl_real c, gl_real sn,
                             gl_real *u, lapack_int ldu, gl_real *vt,
                             lapack_int ldvt, lapack_int *pair, gl_real *cs,
                             lapack_int *from0)
{
    const GL_FN(ops) *ops = s->ops;
    const size_t nn = (size_t)n;
    gl_real *u2 = s->dq2, *vt2 = s->dvt2;
    return ops->dc_rotate(ops, n, 0, nrot, pair, cs, u, ldu) ||
           ops->dc_gather(ops, n, n - 1, 0, from0, u, ldu, u2 + nn, n) ||
           ops->real_fill(ops, n, 1, 0, u2, n) ||
           ops->real_fill(ops, 1, 1, 1, u2 + nl, n) ||
           (n > k && ops->real_copy(ops, n, n - k, u2 + (size_t)k * nn, n,
                                    u + (size_t)k * ldu, ldu)) ||
           ops->dc_rotate(ops, m, 1, nrot, pair, cs, vt, ldvt) ||
           ops->dc_gather(ops, n - 1, m, 1, from0, vt, ldvt, vt2 + 1, m) ||
           ops->dc_svd_first_row(ops, n, m, nl, c, sn, vt, ldvt, vt2, m) ||
           (n > k && ops->real_copy(ops, n - k, m, vt2 + k, m, vt + k, ldvt));
}

/* The secular equation of a merge with k >= 2 values left (poles dsigma,
 * weights z, signs zsign, rows in the order idxc) and its products into
 * U and VT: on the device (ops->dc_svd_secular) but for k <= 2, whose
 * roots and vectors the host finds.  d receives the roots.  packed
 * (5k), small (8): scratch.  Returns 0, > 0 where a root did not
 * converge, or < 0. */
static int secular_on_device(const GL_FN(dc) *s, lapack_int n, lapack_int m,
                             lapack_int k, gl_real *d, gl_real *z,
                             const gl_real *dsigma, gl_real *zsign,
                             const lapack_int *idxc, gl_real *packed,
                             gl_real *small, gl_real *u, lapack_int ldu,
                             gl_real *vt, lapack_int ldvt)
{
    const GL_FN(ops) *ops = s->ops;
    gl_real *u2 = s->dq2, *vt2 = s->dvt2, *qu = s->ds, *qvt = s->ds2;
    gl_real rho = lasd1_unit_z(s->f, k, z, zsign);
    int rc;
    if (k <= 2) {   /* the host's arithmetic on the small problem */
        double clock = gl_profile_clock(ops->ctx);
        gl_real *delta = small, *sums = small + 4;
        GL_FN(dc_secular) q = {s->f,  k,     dsigma, zsign, z,    rho * rho,
                               d,     delta, sums,   idxc,  0};
        rc = GL_FN(dc_secular_roots)(&q, 1);
        if (rc != 0)
            return rc;
        if (GL_FN(dc_svd_vectors)(&q, 1) != 0)
            return -1;
        gl_profile_section(ops->ctx, "dc secular roots", clock);
        if (ops->real_to_device(ops, k, k, delta, k, qu, k) ||
            ops->real_to_device(ops, k, k, sums, k, qvt, k))
            return -1;
    } else {
        /* ?lasd3: the first row stays first */
        GL_FN(dc_pack_secular)(k, dsigma, z, idxc, 1, packed);
        rc = ops->dc_svd_secular(ops, k, rho * rho, packed, d, qu, qvt, k);
        if (rc != 0)
            return rc;
    }
    /* U(:, 0:k) = U2(:, 0:k) Q_u, VT(0:k, :) = Q_vt VT2(0:k, :) */
    if (ops->real_gemm(ops, 'N', n, k, k, u2, n, qu, k, u, ldu) ||
        ops->real_gemm(ops, 'T', k, m, k, qvt, k, vt2, m, vt, ldvt))
        return -1;
    return 0;
}

/* merge with U and VT in the backend's memory (the scratch of s->dq2:
 * U2, s->dvt2: VT2, s->ds and s->ds2: the k x k vectors): ?lasd2's
 * decisions on the host from two columns of VT read back, its rotations
 * and gathers on the device; the secular equation (roots and vectors)
 * on the device (ops->dc_svd_secular) but for k <= 2. */
static int merge_device(const GL_FN(dc) *s, lapack_int nl, lapack_int nr,
                        lapack_int sqre, gl_real *d, gl_real alpha,
                        gl_real beta, gl_real *u, lapack_int ldu, gl_real *vt,
                        lapack_int ldvt, lapack_int *idxq)
{
    const GL_FN(ops) *ops = s->ops;
    const GL_FN(lapack_fns) *f = s->f;
    lapack_int n = nl + nr + 1, m = n + sqre, nlp1 = nl + 1, nrot = 0;
    const size_t nn = (size_t)n;
    /* z (m), dsigma, zsign, scratch (n each), the two columns of VT (m),
     * the secular problem packed for the device (5n), cs (2n), the small
     * problem's delta and sums (2 x 4) */
    gl_real *z = s->merge_work, *dsigma = z + m, *zsign = dsigma + nn,
            *zs = zsign + nn, *cols = zs + nn, *packed = cols + m,
            *cs = packed + 5 * nn, *small = cs + 2 * nn;
    /* idxp, idx, idxc, coltyp (n each), pair (2n), from0 (n) */
    lapack_int *idxp = s->merge_iwork, *idx = idxp + nn, *idxc = idx + nn,
               *coltyp = idxc + nn, *pair = coltyp + nn, *from0 = pair + 2 * nn;

    gl_real orgnrm = lasd1_scale(f, n, nl, d, &alpha, &beta);
    gl_real c, sn;
    if (ops->real_to_host(ops, nlp1, 1, vt + (size_t)nl * ldvt, ldvt, cols,
                          nlp1) ||
        ops->real_to_host(ops, m - nlp1, 1, vt + nlp1 + (size_t)nlp1 * ldvt,
                          ldvt, cols + nlp1, m - nlp1))
        return -1;
    /* the host's part only: the device operations have rows of their own */
    double clock = gl_profile_clock(ops->ctx);
    lapack_int k = GL_FN(decide_svd)(
        f, nl, nr, sqre, d, z, alpha, beta, cols, cols + nlp1, dsigma, zs,
        idxp, idx, idxc, idxq, coltyp, s->rot, &nrot, s->from, &c, &sn);
    for (lapack_int r = 0; r < nrot; r++) {
        pair[2 * r] = s->rot[r].a - 1;
        pair[2 * r + 1] = s->rot[r].b - 1;
        cs[2 * r] = s->rot[r].c;
        cs[2 * r + 1] = s->rot[r].s;
    }
    for (lapack_int j = 2; j <= n; j++)
        from0[j - 2] = s->from[j] - 1;
    gl_profile_section(ops->ctx, "dc deflation", clock);
    if (deflate_on_device(s, nl, n, m, k, nrot, c, sn, u, ldu, vt, ldvt,
                          pair, cs, from0))
        return -1;

    if (k == 1) {   /* ?lasd3: d = |z|, U's first column +-e_{nl+1} */
        d[0] = GL_R(fabs)(z[0]);
        if (ops->real_copy(ops, 1, m, s->dvt2, m, vt, ldvt) ||
            ops->real_fill(ops, n, 1, 0, u, ldu) ||
            ops->real_fill(ops, 1, 1, z[0] > 0 ? 1 : -1, u + nl, ldu))
            return -1;
    } else {
        int rc = secular_on_device(s, n, m, k, d, z, dsigma, zsign, idxc,
                                   packed, small, u, ldu, vt, ldvt);
        if (rc != 0)
            return rc;
    }
    lasd1_unscale(f, n, k, orgnrm, d, idxq);
    return 0;
}

/* ---- the tree and the entries ---- */

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

/* A leaf by the system's ?lasd0, on one of the host's threads. */
static int svd_leaf(void *ctx, long i)
{
    const GL_FN(dc) *s = ctx;
    GL_FN(dc_leaf) *t = &s->list->task[i];
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
    GL_FN(dc_leaf_failed)(s, info);
    return info != 0 || ascending_order(t->n, t->d, t->idxq) != 0 ? -1 : 0;
}

/* The SVD of the n x (n + sqre) upper bidiagonal (d, e) into the blocks
 * at u and vt (?lasd0's contract), and idxq sorting d ascending: the
 * first walk (merging 0) lists the leaves, the second, after
 * dc_solve_leaves, merges. */
static int solve(const GL_FN(dc) *s, int merging, lapack_int n,
                 lapack_int sqre, gl_real *d, gl_real *e, gl_real *u,
                 lapack_int ldu, gl_real *vt, lapack_int ldvt,
                 lapack_int *idxq)
{
    if (n <= s->leaf) {
        if (!merging) {
            GL_FN(dc_leaf) t = {n,    sqre, ldu,  ldvt, d, e, u,
                                vt,   idxq, NULL, NULL, 0, 0};
            GL_FN(dc_list_leaf)(s, t);
        }
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

/* The SVD of the bidiagonal (d, e), scaled to norm 1, into U and VT (I on
 * entry) by solve over each independent subproblem where e is negligible
 * (?bdsdc's split, tiny d raised to eps first); with U and VT on the
 * device the leaves are copied there before the merges.  Returns 0, > 0
 * where a secular equation did not converge, or < 0. */
static int svd_blocks(GL_FN(dc) *s, lapack_int n, gl_real *d, gl_real *e,
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
                rc = s->ops->real_fill(s->ops, 1, 1, sign, corner, ldu);
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
            rc = GL_FN(dc_solve_leaves)(s, svd_leaf);
        if (rc == 0)
            rc = solve(s, 1, size, 0, d + start, e + start, ub, ldu, vb,
                       ldvt, s->idxq);
        start = i + 1;
    }
    return rc;
}

/* ?bdsdc's scaling around svd_blocks: (d, e) to norm 1, their SVD, d
 * scaled back.  *empty: B = 0 (nothing done, U = VT = I are its
 * vectors).  Returns svd_blocks's 0, > 0 or < 0. */
static int svd_scaled(GL_FN(dc) *s, lapack_int n, gl_real *d, gl_real *e,
                      gl_real *u, lapack_int ldu, gl_real *vt,
                      lapack_int ldvt, int *empty)
{
    const GL_FN(lapack_fns) *f = s->f;
    gl_real orgnrm = 0;
    for (lapack_int i = 0; i < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(d[i]));
    for (lapack_int i = 0; i + 1 < n; i++)
        orgnrm = GL_R(fmax)(orgnrm, GL_R(fabs)(e[i]));
    *empty = orgnrm == 0;
    if (orgnrm == 0)
        return 0;

    lapack_int zero = 0, one = 1, nm1 = n - 1, ierr;
    gl_real unit = 1;
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &n, &one, d, &n, &ierr, 1);
    f->rlascl("G", &zero, &zero, &orgnrm, &unit, &nm1, &one, e, &nm1, &ierr,
              1);
    int rc = svd_blocks(s, n, d, e, u, ldu, vt, ldvt);
    if (rc == 0)
        f->rlascl("G", &zero, &zero, &unit, &orgnrm, &n, &one, d, &n, &ierr,
                  1);
    return rc;
}

/* gl_s_bidiag_svd gl_d_bidiag_svd gl_c_bidiag_svd gl_z_bidiag_svd */
int GL_FN(bidiag_svd)(const GL_FN(ops) *ops, lapack_int n, gl_real *d,
                      gl_real *e, gl_real *u, lapack_int ldu, gl_real *vt,
                      lapack_int ldvt, gl_real *work, lapack_int *iwork,
                      lapack_int *info)
{
    /* leaves of 3 rows or more: both halves of a split have a row */
    GL_FN(dc) s = GL_FN(dc_start)(ops, 3, 0);
    const GL_FN(lapack_fns) *f = s.f;
    lapack_int leaf = s.leaf;
    *info = 0;
    size_t nn = (size_t)n, lm = (size_t)leaf + 1;
    gl_real *given = NULL;
    int overflows = dc_system_overflows(n);
    if ((!ops->real_product && !overflows) || n <= leaf || n <= SMLSIZ ||
        !f->lasd0 || !f->lasd4 || !f->lamrg || !f->rgemm ||
        !(given = GL_FN(dc_keep_given)(n, d, e)) ||
        GL_FN(dc_alloc)(&s, n, 3 * lm * lm + 2 * lm, 8 * lm,
                        3 * (nn + 1) + 4 * (nn + 1) * (nn + 1), 4 * nn)) {
        /* the host backend, a small problem, or no memory: the system's,
         * unless its INTEGERs overflow */
        free(given);
        if (overflows && n > leaf && n > SMLSIZ)
            return -1;
        f->bdsdc("U", "I", &n, d, e, u, &ldu, vt, &ldvt, NULL, NULL, work,
                 iwork, info, 1, 1);
        return 0;
    }

    /* U = VT = I: the rows and columns between subproblems stay so */
    for (lapack_int j = 0; j < n; j++) {
        memset(&RAT(u, ldu, 0, j), 0, sizeof *u * (size_t)n);
        memset(&RAT(vt, ldvt, 0, j), 0, sizeof *vt * (size_t)n);
        RAT(u, ldu, j, j) = RAT(vt, ldvt, j, j) = 1;
    }
    int empty;
    int rc = svd_scaled(&s, n, d, e, u, ldu, vt, ldvt, &empty);
    if (rc > 0 && overflows) {   /* no system routine to restart with */
        rc = -1;
    } else if (rc > 0) {   /* a secular equation did not converge */
        GL_FN(dc_restore_given)(n, given, d, e);
        f->bdsdc("U", "I", &n, d, e, u, &ldu, vt, &ldvt, NULL, NULL, work,
                 iwork, info, 1, 1);
        rc = 0;
    } else if (rc == 0 && !empty) {
        rc = GL_FN(dc_sort_pairs)(n, d, 1, u, ldu, vt, ldvt);
    }
    free(given);
    GL_FN(dc_free)(&s);
    return rc;
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
    if (system && dc_system_overflows(n))   /* its INTEGERs overflow */
        return -1;
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
            rc = ops->real_to_device(ops, n, n, uh, n, u, ldu) ||
                         ops->real_to_device(ops, n, n, vth, n, vt, ldvt)
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
                             gl_real *scratch, lapack_int *info)
{
    /* leaves of 3 rows or more: both halves of a split have a row */
    GL_FN(dc) s = GL_FN(dc_start)(ops, 3, 1);
    const GL_FN(lapack_fns) *f = s.f;
    lapack_int leaf = s.leaf;
    *info = 0;
    size_t nn = (size_t)n, lm = (size_t)leaf + 1;
    gl_real *given = NULL;
    if (n <= leaf || n <= SMLSIZ || !f->lasd0 || !f->lasd4 || !f->lamrg ||
        !f->bdsdc)
        /* a small problem: on the host */
        return bidiag_svd_via_host(ops, 0, n, d, e, u, ldu, vt, ldvt, info);
    if (!(given = GL_FN(dc_keep_given)(n, d, e)) ||
        GL_FN(dc_alloc)(&s, n, 3 * lm * lm + 2 * lm, 8 * lm, 12 * nn + 10,
                        7 * nn) ||
        GL_FN(dc_alloc_device)(&s, n, (3 * lm + 2) * nn, 1, scratch)) {
        /* memory refused: the call restarts on LAPACK */
        free(given);
        GL_FN(dc_free)(&s);
        return -1;
    }

    /* U = VT = I: the rows and columns between subproblems stay so */
    int rc = ops->real_fill(ops, n, n, 1, u, ldu) ||
                     ops->real_fill(ops, n, n, 1, vt, ldvt)
                 ? -1
                 : 0;
    int empty = 0;
    if (rc == 0)
        rc = svd_scaled(&s, n, d, e, u, ldu, vt, ldvt, &empty);
    if (rc > 0) {   /* a secular equation did not converge */
        GL_FN(dc_restore_given)(n, given, d, e);
        free(given);
        GL_FN(dc_free)(&s);
        return bidiag_svd_via_host(ops, 1, n, d, e, u, ldu, vt, ldvt, info);
    }
    /* the final sort (?bdsdc's), descending: U's columns and VT's rows
     * gathered on the device */
    if (rc == 0 && !empty)
        rc = GL_FN(dc_sort_device)(&s, n, d, 1, u, ldu, vt, ldvt);
    free(given);
    GL_FN(dc_free)(&s);
    return rc < 0 ? -1 : 0;
}
