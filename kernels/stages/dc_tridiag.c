/* The eigenproblem of the real symmetric tridiagonal by divide and
 * conquer (divide_conquer.h), ?stedc('I'): ?laed2's deflation, ?laed1's
 * merges with Z on the host (the products on the device) or on the
 * device, the tree of ?laed0 over the system's leaves, and the entries
 * tridiag_eig and tridiag_eig_device (stage3.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/fault.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "divide_conquer.h"
#include "stage3.h"

/* The merge of ?laed1: T (n x n) from its two solved halves in Q (blocks
 * at (0, 0), n1 <= n/2 rows, and (n1, n1)) and the rank-one tear rho
 * between them, indxq of each half at indxq[0..n1) and indxq[n1..n).  On
 * return d and Q hold the eigenpairs of T (d unsorted), indxq sorts d
 * ascending.  Returns 0, INFO > 0 of ?laed4, or < 0. */
static int tri_merge(const GL_FN(dc) *s, lapack_int n, lapack_int n1,
                     gl_real *d, gl_real *q, lapack_int ldq, gl_real rho,
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
    double clock = gl_profile_clock(s->ops->ctx);
    f->laed2(&k, &n, &n1, d, q, &ldq, indxq, &rho, z, dlambda, w, q2, indx,
             indxc, indxp, coltyp, &info);
    gl_profile_section(s->ops->ctx, "dc deflation", clock);
    if (info != 0)
        return -1;   /* an argument error: not ours to report */
    if (k == 0) {    /* ?laed2 sorted d and Q */
        for (lapack_int i = 0; i < n; i++)
            indxq[i] = i + 1;
        return 0;
    }
    memcpy(wsign, w, sizeof *w * (size_t)k);
    GL_FN(dc_secular) t = {f, k,     dlambda, wsign, w,
                           rho, d, delta, NULL,  indxc, 0};
    long items = (k + ROOTS_PER_ITEM - 1) / ROOTS_PER_ITEM;
    clock = gl_profile_clock(s->ops->ctx);
    int rc = GL_FN(dc_secular_roots)(&t, items);
    if (rc != 0)
        return rc;
    gl_profile_section(s->ops->ctx, "dc secular roots", clock);
    clock = gl_profile_clock(s->ops->ctx);
    if (k == 2) {   /* ?laed4 gave the vectors themselves */
        for (lapack_int j = 0; j < 2; j++) {
            gl_real v0 = RAT(delta, 2, 0, j), v1 = RAT(delta, 2, 1, j);
            RAT(delta, 2, 0, j) = indxc[0] == 1 ? v0 : v1;
            RAT(delta, 2, 1, j) = indxc[1] == 1 ? v0 : v1;
        }
    } else if (k > 2) {
        if (GL_FN(dc_tri_vectors)(&t, items) != 0)
            return -1;
    }
    gl_profile_section(s->ops->ctx, "dc secular vectors", clock);
    /* Q(0:n1, 0:k) = Q2's first block (n1 x n12) times rows 0..n12 of the
     * vectors, Q(n1:n, 0:k) = its second (n2 x n23) times rows
     * ctot1..ctot1+n23 (the column types of ?laed2: 1 upper, 2 dense,
     * 3 lower) */
    lapack_int n12 = coltyp[0] + coltyp[1], n23 = coltyp[1] + coltyp[2];
    if (n23 > 0)
        rc = GL_FN(dc_product)(s, 'N', n2, k, n23, q2 + (size_t)n1 * n12, n2,
                     delta + coltyp[0], k, &RAT(q, ldq, n1, 0), ldq);
    else
        for (lapack_int j = 0; j < k; j++)
            memset(&RAT(q, ldq, n1, j), 0, sizeof *q * (size_t)n2);
    if (rc == 0 && n12 > 0)
        rc = GL_FN(dc_product)(s, 'N', n1, k, n12, q2, n1, delta, k, q, ldq);
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

/* ?laed2's arrays as it indexes them: 1-based views of deflate_tri's. */
typedef struct laed2_arrays {
    lapack_int n, n1;
    gl_real *d, *z, *dlamda, *w;
    lapack_int *indxq, *indx, *indxc, *indxp, *coltyp;
} laed2_arrays;

/* z (the sign of rho on its second half) to norm 1, rho made |2 rho|,
 * indxq's second half offset by n1, and indx the order that merges the
 * two halves' values ascending (dlamda, indxc: scratch).  Returns the
 * tolerance of the deflation, *zmax_out the largest |z|. */
static gl_real laed2_merged_order(const GL_FN(lapack_fns) *f,
                                  const laed2_arrays *a, gl_real *rho,
                                  gl_real *zmax_out)
{
    const lapack_int n = a->n, n1 = a->n1, n2 = n - n1, n1p1 = n1 + 1,
                     one = 1;
    gl_real *d = a->d, *z = a->z, *dlamda = a->dlamda;
    lapack_int *indxq = a->indxq, *indx = a->indx, *indxc = a->indxc;

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
    *zmax_out = zmax;
    return tol;
}

/* The deflation, in the order indx: a small z entry deflates its value;
 * two close values are rotated (recorded in pair, cs, *nrot) so that one
 * of their z entries is zero.  dlamda, w and indxp[1..k] receive the
 * values left, indxp[k2..n] the deflated ones in ascending order, coltyp
 * the column types. */
static void laed2_deflate(const laed2_arrays *a, gl_real rho, gl_real tol,
                          lapack_int *pair, gl_real *cs, lapack_int *nrot)
{
    const lapack_int n = a->n, n1 = a->n1, n1p1 = n1 + 1;
    gl_real *d = a->d, *z = a->z, *dlamda = a->dlamda, *w = a->w;
    lapack_int *indx = a->indx, *indxp = a->indxp, *coltyp = a->coltyp;

    for (lapack_int i = 1; i <= n1; i++)
        coltyp[i] = 1;
    for (lapack_int i = n1p1; i <= n; i++)
        coltyp[i] = 3;
    lapack_int k = 0, k2 = n + 1, pj = 0;
    for (lapack_int j = 1; j <= n; j++) {
        lapack_int nj = indx[j];
        if (rho * GL_R(fabs)(z[nj]) <= tol) {
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
        gl_real tau = dc_pythag(c, s), t = d[nj] - d[pj];
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
}

/* The permutation that groups the column types 1, 2, 3, 4 (ctot: their
 * counts): indx and indxc in that order, from (0-based) the columns of Q
 * to gather, d's deflated values after the k left; returns k. */
static lapack_int laed2_group(const laed2_arrays *a, lapack_int *ctot,
                              lapack_int *from)
{
    const lapack_int n = a->n;
    gl_real *d = a->d, *z = a->z;
    lapack_int *indx = a->indx, *indxc = a->indxc, *indxp = a->indxp,
               *coltyp = a->coltyp;

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
    lapack_int k = n - ctot[3];
    for (lapack_int i = 1; i <= n; i++) {
        from[i - 1] = indx[i] - 1;
        z[i] = d[indx[i]];
    }
    for (lapack_int i = k + 1; i <= n; i++)
        d[i] = z[i];
    return k;
}

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
    /* 1-based views, as ?laed2 */
    const laed2_arrays a = {
        .n = n, .n1 = n1, .d = d0 - 1, .z = z0 - 1, .dlamda = dlamda0 - 1,
        .w = w0 - 1, .indxq = indxq0 - 1, .indx = indx0 - 1,
        .indxc = indxc0 - 1, .indxp = indxp0 - 1, .coltyp = coltyp0 - 1};
    *nrot = 0;

    gl_real zmax;
    const gl_real tol = laed2_merged_order(f, &a, rho, &zmax);
    if (*rho * zmax <= tol) {   /* nothing to merge: the columns sorted */
        for (lapack_int j = 1; j <= n; j++) {
            from[j - 1] = a.indx[j] - 1;
            a.dlamda[j] = a.d[a.indx[j]];
        }
        memcpy(d0, dlamda0, sizeof *d0 * (size_t)n);
        return 0;
    }
    laed2_deflate(&a, *rho, tol, pair, cs, nrot);
    return laed2_group(&a, ctot, from);
}

/* The secular equation of a merge with k values left (poles dlamda,
 * weights w, the vectors' rows in the order indxc, as ?laed3) into the
 * vectors s->ds and the roots d: on the device (ops->dc_secular) but for
 * k <= 2, whose roots and vectors ?laed4 gives the host.  packed (5k):
 * scratch.  Returns 0, > 0 where a root did not converge, or < 0. */
static int tri_secular_on_device(const GL_FN(dc) *s, lapack_int k,
                                 gl_real *d, const gl_real *dlamda,
                                 const gl_real *w, gl_real rho,
                                 const lapack_int *indxc, gl_real *packed)
{
    const GL_FN(ops) *ops = s->ops;
    gl_real *sv = s->ds;
    if (k > 2) {
        GL_FN(dc_pack_secular)(k, dlamda, w, indxc, 0, packed);
        return ops->dc_secular(ops, k, rho, packed, d, sv, k);
    }
    gl_real small[4], v[4];
    double clock = gl_profile_clock(ops->ctx);
    for (lapack_int j = 0; j < k; j++) {
        lapack_int j1 = j + 1, info = 0;
        s->f->laed4(&k, &j1, dlamda, w, small + j * k, &rho, &d[j], &info);
        if (info != 0 || gl_fault_hit(GL_FAULT_SECULAR))
            return j1;
    }
    gl_profile_section(ops->ctx, "dc secular roots", clock);
    for (lapack_int j = 0; j < k; j++)
        for (lapack_int i = 0; i < k; i++)
            v[i + j * k] = small[indxc[i] - 1 + j * k];
    return ops->real_to_device(ops, k, k, v, k, sv, k) ? -1 : 0;
}

/* tri_merge with Q in the backend's memory (the scratch of s->dq2 and
 * s->ds).  Returns 0, > 0 where a root did not converge, or < 0. */
static int tri_merge_device(const GL_FN(dc) *s, lapack_int n, lapack_int n1,
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
    if (ops->real_to_host(ops, 1, n1, q + n1 - 1, ldq, z, 1) ||
        ops->real_to_host(ops, 1, n2, q + n1 + (size_t)n1 * ldq, ldq, z + n1,
                          1))
        return -1;
    double clock = gl_profile_clock(ops->ctx);
    lapack_int k = deflate_tri(f, n, n1, d, indxq, &rho, z, dlamda, w, indx,
                               indxc, indxp, coltyp, ctot, from, pair, cs,
                               &nrot);
    gl_profile_section(ops->ctx, "dc deflation", clock);
    gl_real *q2 = s->dq2;
    if (k == 0) {   /* the columns in the order of the sorted values */
        if (ops->dc_gather(ops, n, n, 0, from, q, ldq, q2, n) ||
            ops->real_copy(ops, n, n, q2, n, q, ldq))
            return -1;
        for (lapack_int i = 0; i < n; i++)
            indxq[i] = i + 1;
        return 0;
    }
    lapack_int n12 = ctot[0] + ctot[1], n23 = ctot[1] + ctot[2];
    gl_real *top = q2, *bottom = top + (size_t)n1 * n12,
            *deflated = bottom + (size_t)n2 * n23;
    if (ops->dc_rotate(ops, n, 0, nrot, pair, cs, q, ldq) ||
        ops->dc_gather(ops, n1, n12, 0, from, q, ldq, top, n1) ||
        ops->dc_gather(ops, n2, n23, 0, from + ctot[0], q + n1, ldq, bottom,
                       n2) ||
        ops->dc_gather(ops, n, n - k, 0, from + k, q, ldq, deflated, n))
        return -1;

    /* the secular equation and its vectors (s->ds) */
    gl_real *sv = s->ds;
    int rc = tri_secular_on_device(s, k, d, dlamda, w, rho, indxc, roots);
    if (rc > 0)
        return rc;
    /* Q(n1:n, 0:k) = the second block of the gathered columns (n2 x n23)
     * times rows ctot1 .. ctot1+n23 of the vectors, Q(0:n1, 0:k) = the
     * first (n1 x n12) times rows 0 .. n12 (?laed3), the deflated columns
     * after them */
    if (rc == 0)
        rc = ops->real_gemm(ops, 'N', n2, k, n23, bottom, n2, sv + ctot[0], k,
                            q + n1, ldq);
    if (rc == 0)
        rc = ops->real_gemm(ops, 'N', n1, k, n12, top, n1, sv, k, q, ldq);
    if (rc == 0 && n > k)
        rc = ops->real_copy(ops, n, n - k, deflated, n, q + (size_t)k * ldq,
                            ldq);
    if (rc != 0)
        return -1;
    lapack_int nd = n - k, up = 1, down = -1;
    f->lamrg(&k, &nd, d, &up, &down, indxq);
    return 0;
}

/* ---- the tree and the entries ---- */

/* A leaf by the system's ?stedc, on one of the host's threads. */
static int tri_leaf(void *ctx, long i)
{
    const GL_FN(dc) *s = ctx;
    GL_FN(dc_leaf) *t = &s->list->task[i];
    lapack_int info = -1, lwork = (lapack_int)s->leaf_reals,
               liwork = (lapack_int)s->leaf_ints;
    gl_real *work = malloc(sizeof *work * s->leaf_reals);
    lapack_int *iwork = malloc(sizeof *iwork * s->leaf_ints);
    if (work && iwork)
        s->f->stedc("I", &t->n, t->d, t->e, t->u, &t->ldu, work, &lwork,
                    iwork, &liwork, &info, 1);
    free(work);
    free(iwork);
    GL_FN(dc_leaf_failed)(s, info);
    for (lapack_int j = 0; j < t->n; j++)   /* ?stedc sorts */
        t->idxq[j] = j + 1;
    return info != 0 ? -1 : 0;
}

/* The eigenpairs of the n x n tridiagonal (d, e) into the block at q
 * (?laed0's contract), and indxq sorting d ascending: the first walk
 * (merging 0) tears the tridiagonal and lists the leaves, the second,
 * after dc_solve_leaves, merges. */
static int tri_solve(const GL_FN(dc) *s, int merging, lapack_int n, gl_real *d,
                     gl_real *e, gl_real *q, lapack_int ldq,
                     lapack_int *indxq)
{
    if (n <= s->leaf) {
        if (!merging) {
            GL_FN(dc_leaf) t = {n,    0,     ldq,  0,    d, e, q,
                                NULL, indxq, NULL, NULL, 0, 0};
            GL_FN(dc_list_leaf)(s, t);
        }
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
static int tri_blocks(GL_FN(dc) *s, lapack_int n, gl_real *d, gl_real *e,
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
        rc = GL_FN(dc_solve_leaves)(s, tri_leaf);
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
    GL_FN(dc) s = GL_FN(dc_start)(ops, 2, 0);
    const GL_FN(lapack_fns) *f = s.f;
    lapack_int leaf = s.leaf;
    *info = 0;
    size_t nn = (size_t)n, lm = (size_t)leaf;
    gl_real *given = NULL;
    int overflows = dc_system_overflows(n);
    if ((!ops->real_product && !overflows) || n <= leaf || n <= SMLSIZ ||
        !f->laed2 || !f->laed4 || !f->lamrg || !f->rgemm ||
        !(given = GL_FN(dc_keep_given)(n, d, e)) ||
        GL_FN(dc_alloc)(&s, n, 1 + 4 * lm + lm * lm, 3 + 5 * lm,
                        4 * nn + 2 * nn * nn, 4 * nn)) {
        /* the host backend, a small problem, or no memory: the system's,
         * unless its INTEGERs overflow */
        free(given);
        if (overflows && n > leaf && n > SMLSIZ)
            return -1;
        f->stedc("I", &n, d, e, z, &ldz, work, &lwork, iwork, &liwork, info,
                 1);
        return 0;
    }

    /* Z = I: the rows and columns between subproblems stay so */
    for (lapack_int j = 0; j < n; j++) {
        memset(&RAT(z, ldz, 0, j), 0, sizeof *z * (size_t)n);
        RAT(z, ldz, j, j) = 1;
    }
    int rc = tri_blocks(&s, n, d, e, z, ldz);
    if (rc > 0 && overflows) {   /* no system routine to restart with */
        rc = -1;
    } else if (rc > 0) {   /* a secular equation did not converge */
        GL_FN(dc_restore_given)(n, given, d, e);
        f->stedc("I", &n, d, e, z, &ldz, work, &lwork, iwork, &liwork, info,
                 1);
        rc = 0;
    } else if (rc == 0) {
        rc = GL_FN(dc_sort_pairs)(n, d, 0, z, ldz, NULL, 0);
    }
    free(given);
    GL_FN(dc_free)(&s);
    return rc;
}

/* ?stedc('I') on the host (tridiag_eig, or the system's itself after a
 * secular equation of ours failed), its Z copied to the device. */
static int tridiag_eig_via_host(const GL_FN(ops) *ops, int system,
                                lapack_int n, gl_real *d, gl_real *e,
                                gl_real *z, lapack_int ldz, lapack_int *info)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    size_t nn = (size_t)n;
    /* in 64 bits: 1 + 4n + n^2 passes 2^31 from n = 46,341, and there only
     * tridiag_eig can run it (the system's INTEGERs overflow) */
    if (system && dc_system_overflows(n))
        return -1;
    size_t lw = 1 + 4 * nn + nn * nn;
    lapack_int lwork = lw > INT32_MAX ? INT32_MAX : (lapack_int)lw,
               liwork = 3 + 5 * n;
    gl_real *zh = gl_host_alloc(sizeof *zh * nn * nn),
            *work = malloc(sizeof *work * lw);
    lapack_int *iwork = malloc(sizeof *iwork * (size_t)liwork);
    int rc = -1;
    if (zh && work && iwork && system)
        f->stedc("I", &n, d, e, zh, &n, work, &lwork, iwork, &liwork, info,
                 1);
    if (zh && work && iwork &&
        (system || GL_FN(tridiag_eig)(ops, n, d, e, zh, n, work, lwork,
                                      iwork, liwork, info) == 0))
        rc = ops->real_to_device(ops, n, n, zh, n, z, ldz) ? -1 : 0;
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
    GL_FN(dc) s = GL_FN(dc_start)(ops, 2, 1);
    const GL_FN(lapack_fns) *f = s.f;
    lapack_int leaf = s.leaf;
    *info = 0;
    size_t nn = (size_t)n, lm = (size_t)leaf;
    gl_real *given = NULL;
    if (n <= leaf || n <= SMLSIZ || !f->laed4 || !f->lamrg || !f->stedc)
        /* a small problem: on the host */
        return tridiag_eig_via_host(ops, 0, n, d, e, z, ldz, info);
    if (!(given = GL_FN(dc_keep_given)(n, d, e)) ||
        GL_FN(dc_alloc)(&s, n, 1 + 4 * lm + lm * lm, 3 + 5 * lm, 10 * nn + 4,
                        7 * nn) ||
        GL_FN(dc_alloc_device)(&s, n, nn * lm, 0, NULL)) {
        /* memory refused: the call restarts on LAPACK */
        free(given);
        GL_FN(dc_free)(&s);
        return -1;
    }

    /* Z = I: the rows and columns between subproblems stay so */
    int rc = ops->real_fill(ops, n, n, 1, z, ldz);
    if (rc == 0)
        rc = tri_blocks(&s, n, d, e, z, ldz);
    if (rc > 0) {   /* a secular equation did not converge */
        GL_FN(dc_restore_given)(n, given, d, e);
        free(given);
        GL_FN(dc_free)(&s);
        return tridiag_eig_via_host(ops, 1, n, d, e, z, ldz, info);
    }
    /* the final sort (?stedc's), the columns gathered on the device */
    if (rc == 0)
        rc = GL_FN(dc_sort_device)(&s, n, d, 0, z, ldz, NULL, 0);
    free(given);
    GL_FN(dc_free)(&s);
    return rc < 0 ? -1 : 0;
}
