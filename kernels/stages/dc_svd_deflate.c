/* The deflation of a merge of the SVD of the bidiagonal's divide and
 * conquer (dc_svd.c), as ?lasd2 decides it: decide_svd, and deflate_svd
 * with the decisions applied to U and VT on the host's threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/parallel.h"
#include "divide_conquer.h"

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

/* The passes over VT's columns and U's on the host's threads. */
typedef struct vt_pass {
    lapack_int n, m, k, nlp1, nlp2;
    gl_real *vt, *vt2;
    lapack_int ldvt, ldvt2;
    const GL_FN(dc_rotation) *rot;
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
            const GL_FN(dc_rotation) *g = &p->rot[r];
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

/* ?lasd2's arrays as it indexes them: 1-based views of the 0-based
 * arrays of decide_svd (zs: the scratch, ?lasd2's first column of U2). */
typedef struct lasd2_arrays {
    lapack_int n, m, nlp1, nlp2;
    gl_real *d, *z, *dsigma, *zs;
    lapack_int *idxp, *idx, *idxc, *idxq, *coltyp;
} lasd2_arrays;

/* z from the row nl + 1 between the halves (its first entry z1
 * returned), d one place down, and d, z, coltyp in the ascending order
 * of the two halves' values merged (idx). */
static gl_real lasd2_merged_order(const GL_FN(lapack_fns) *f,
                                  const lasd2_arrays *a, lapack_int nl,
                                  lapack_int nr, gl_real alpha, gl_real beta,
                                  const gl_real *col1, const gl_real *col2)
{
    const lapack_int n = a->n, m = a->m, nlp1 = a->nlp1, nlp2 = a->nlp2;
    gl_real *d = a->d, *z = a->z, *dsigma = a->dsigma, *zs = a->zs;
    lapack_int *idx = a->idx, *idxc = a->idxc, *idxq = a->idxq,
               *coltyp = a->coltyp;

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
    return z1;
}

/* The deflation of the values 2..n: a small z entry, or two close values
 * (a rotation, recorded in rot, makes one of their z entries zero).
 * idxp lists the values left from 2 on and the deflated ones from n
 * down, dsigma and zs the values and z entries left; returns k, the
 * values left counting the first. */
static lapack_int lasd2_deflate(const lasd2_arrays *a, gl_real tol,
                                GL_FN(dc_rotation) *rot,
                                lapack_int *nrot_out)
{
    const lapack_int n = a->n, nlp1 = a->nlp1;
    gl_real *d = a->d, *z = a->z, *dsigma = a->dsigma, *zs = a->zs;
    lapack_int *idxp = a->idxp, *idx = a->idx, *idxq = a->idxq,
               *coltyp = a->coltyp;

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
            gl_real tau = dc_pythag(c, s);
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
            rot[nrot++] = (GL_FN(dc_rotation)){idxjp, idxj, c, s};
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
    *nrot_out = nrot;
    return k;
}

/* The permutation that groups the column types 1, 2, 3, 4 (ctot[1..4]
 * their counts): idxc, dsigma in that order, and from[j] the column of U
 * (row of VT) for column (row) j of U2 (VT2), j = 2..n. */
static void lasd2_group(const lasd2_arrays *a, lapack_int *ctot,
                        lapack_int *from)
{
    const lapack_int n = a->n, nlp1 = a->nlp1;
    gl_real *d = a->d, *dsigma = a->dsigma;
    lapack_int *idxp = a->idxp, *idx = a->idx, *idxc = a->idxc,
               *idxq = a->idxq, *coltyp = a->coltyp;

    lapack_int psm[5];
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
/* gl_s_decide_svd gl_d_decide_svd gl_c_decide_svd gl_z_decide_svd */
lapack_int GL_FN(decide_svd)(const GL_FN(lapack_fns) *f, lapack_int nl,
                             lapack_int nr, lapack_int sqre, gl_real *d0,
                             gl_real *z0, gl_real alpha, gl_real beta,
                             const gl_real *col1, const gl_real *col2,
                             gl_real *dsigma0, gl_real *u_scratch,
                             lapack_int *idxp0, lapack_int *idx0,
                             lapack_int *idxc0, lapack_int *idxq0,
                             lapack_int *coltyp0, GL_FN(dc_rotation) *rot,
                             lapack_int *nrot_out, lapack_int *from,
                             gl_real *c_out, gl_real *s_out)
{
    const lapack_int n = nl + nr + 1, m = n + sqre;
    /* 1-based views */
    const lasd2_arrays a = {
        .n = n, .m = m, .nlp1 = nl + 1, .nlp2 = nl + 2,
        .d = d0 - 1, .z = z0 - 1, .dsigma = dsigma0 - 1, .zs = u_scratch - 1,
        .idxp = idxp0 - 1, .idx = idx0 - 1, .idxc = idxc0 - 1,
        .idxq = idxq0 - 1, .coltyp = coltyp0 - 1};
    gl_real *d = a.d, *z = a.z, *dsigma = a.dsigma, *zs = a.zs;
    lapack_int *coltyp = a.coltyp;

    gl_real z1 = lasd2_merged_order(f, &a, nl, nr, alpha, beta, col1, col2);
    const gl_real eps = f->lamch("Epsilon", 7);
    gl_real tol = GL_R(fmax)(GL_R(fabs)(alpha), GL_R(fabs)(beta));
    tol = 8 * eps * GL_R(fmax)(GL_R(fabs)(d[n]), tol);
    lapack_int k = lasd2_deflate(&a, tol, rot, nrot_out);
    lapack_int ctot[5] = {0, 0, 0, 0, 0};
    lasd2_group(&a, ctot, from);

    dsigma[1] = 0;
    gl_real hlftol = tol / 2, c = 1, s = 0;
    if (GL_R(fabs)(dsigma[2]) <= hlftol)
        dsigma[2] = hlftol;
    if (m > n) {
        z[1] = dc_pythag(z1, z[m]);
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
    *c_out = c;
    *s_out = s;
    return k;
}

/* ?lasd2's contract (U2 n x n, VT2 m x m; coltyp's first four entries
 * receive the counts of the column types) on host arrays: decide_svd,
 * then its rotations, gathers and copies.  rot: n entries, from: n + 1.
 * Returns 0, or -1 if the threads' work failed. */
/* gl_s_deflate_svd gl_d_deflate_svd gl_c_deflate_svd gl_z_deflate_svd */
int GL_FN(deflate_svd)(const GL_FN(lapack_fns) *f, lapack_int nl,
                       lapack_int nr, lapack_int sqre, lapack_int *k_out,
                       gl_real *d0, gl_real *z0, gl_real alpha, gl_real beta,
                       gl_real *u, lapack_int ldu, gl_real *vt,
                       lapack_int ldvt, gl_real *dsigma0, gl_real *u2,
                       gl_real *vt2, lapack_int *idxp0, lapack_int *idx0,
                       lapack_int *idxc0, lapack_int *idxq0,
                       lapack_int *coltyp0, GL_FN(dc_rotation) *rot,
                       lapack_int *from)
{
    const lapack_int n = nl + nr + 1, m = n + sqre, nlp1 = nl + 1,
                     ldu2 = n, ldvt2 = m;
    lapack_int nrot = 0;
    gl_real c, s;
    lapack_int k = GL_FN(decide_svd)(
        f, nl, nr, sqre, d0, z0, alpha, beta, vt + (size_t)nl * ldvt,
        vt + nlp1 + (size_t)nlp1 * ldvt, dsigma0, u2, idxp0, idx0, idxc0,
        idxq0, coltyp0, rot, &nrot, from, &c, &s);
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
