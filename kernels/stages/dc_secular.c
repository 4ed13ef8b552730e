/* The secular equations of the merges of divide and conquer
 * (divide_conquer.h): on the host's threads, the SVD's as ?lasd3 solves
 * it (?lasd4, Gu and Eisenstat's recomputed z, the vectors of U's and
 * VT's sides) and the tridiagonal's as ?laed3 (?laed4, the recomputed w,
 * the eigenvectors), items of ROOTS_PER_ITEM roots each; and a secular
 * problem packed for the device's (ops->dc_svd_secular,
 * ops->dc_secular). */
#include <stdlib.h>
#include <string.h>

#include "../../runtime/fault.h"
#include "../../runtime/parallel.h"
#include "divide_conquer.h"

typedef GL_FN(dc_secular) secular;

/* ---- the roots of both ---- */

/* Root j's columns of the SVD's secular problem re-formed from one
 * difference: dsigma_i - s_j = (dsigma_i - dsigma_o) + (dsigma_o - s_j)
 * and dsigma_i + s_j = (dsigma_i + dsigma_o) - (dsigma_o - s_j), o the
 * nearer pole of the root's interval (the form of the device's
 * dc_svd_minus and dc_svd_plus).  ?lasd4 subtracts each of its steps
 * from every entry of DELTA and adds it to every entry of WORK, so where
 * its first steps are large against the root's final distance from the
 * poles (graded values), each entry keeps its own cancellation error and
 * the entries of one column no longer agree on one root: 4e-10
 * relatively on the graded bidiagonal of test_device_ops (kind 5, n =
 * 40).  ?lasd3's recomputed z is built from the rows of these columns
 * and is only as consistent as they are: there the vectors of two roots
 * next to close poles lost orthogonality, 420 eps, as they do with the
 * system ?lasd1 on that merge.  With one difference per root every
 * column is exact for one root, which Gu and Eisenstat's z needs. */
static void svd_root_columns(lapack_int k, lapack_int j, const gl_real *ds,
                             gl_real *delta, gl_real *sums)
{
    lapack_int o = j + 1 < k && GL_R(fabs)(delta[j + 1]) < GL_R(fabs)(delta[j])
                       ? j + 1
                       : j;
    gl_real t = delta[o], p = ds[o];
    for (lapack_int i = 0; i < k; i++) {
        delta[i] = (ds[i] - p) + t;
        sums[i] = (ds[i] + p) - t;
    }
}

/* Root j's column of the tridiagonal's secular problem re-formed the
 * same way: dlambda_i - lambda_j = (dlambda_i - dlambda_o) + (dlambda_o -
 * lambda_j), o the nearer pole of the root's interval (the device's
 * dc_delta).  ?laed4 subtracts each of its steps from every entry of
 * DELTA as ?lasd4 does: on graded tridiagonals one column's entries
 * disagreed by 2e-12 to 4e-11 relatively, and ?laed3's recomputed w,
 * built from the rows, lost the vectors' orthogonality (75550 eps on
 * test_device_ops's graded n = 142).  The entry of ?laed4's origin (the
 * nearer pole but where the root is within rounding of the middle) is
 * -TAU as it accumulated it, the root it returns dlambda_o + TAU: the
 * root stays as ?laed4 gave it, and every entry now agrees with it.
 * Only for k > 2: for k = 2 ?laed4 (?laed5) returns the normalised
 * vectors themselves, for k = 1 DELTA = 1. */
static void tri_root_column(lapack_int k, lapack_int j, const gl_real *dl,
                            gl_real *delta)
{
    lapack_int o = j + 1 < k && GL_R(fabs)(delta[j + 1]) < GL_R(fabs)(delta[j])
                       ? j + 1
                       : j;
    gl_real t = delta[o], p = dl[o];
    for (lapack_int i = 0; i < k; i++)
        delta[i] = (dl[i] - p) + t;
}

/* The roots of an item, each by ?lasd4 (the SVD's: d[j] = s_j,
 * delta(:, j) and sums(:, j), re-formed by svd_root_columns) or ?laed4
 * (the tridiagonal's: d[j] = lambda_j, delta(:, j), re-formed by
 * tri_root_column where k > 2). */
static int roots(void *ctx, long item)
{
    secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    for (lapack_int j = (lapack_int)item * ROOTS_PER_ITEM; j < hi && j < k;
         j++) {
        lapack_int j1 = j + 1, info = 0;
        if (q->sums)
            q->f->lasd4(&k, &j1, q->poles, q->z, &RAT(q->delta, k, 0, j),
                        &q->rho, &q->d[j], &RAT(q->sums, k, 0, j), &info);
        else
            q->f->laed4(&k, &j1, q->poles, q->z, &RAT(q->delta, k, 0, j),
                        &q->rho, &q->d[j], &info);
        /* ?lasd4 or ?laed4 did not converge: INFO > 0 */
        if (info != 0 || gl_fault_hit(GL_FAULT_SECULAR)) {
            __atomic_store_n(&q->info, j1, __ATOMIC_RELAXED);
            return -1;
        }
        if (q->sums)
            svd_root_columns(k, j, q->poles, &RAT(q->delta, k, 0, j),
                             &RAT(q->sums, k, 0, j));
        else if (k > 2)
            tri_root_column(k, j, q->poles, &RAT(q->delta, k, 0, j));
    }
    return 0;
}

/* gl_s_dc_secular_roots gl_d_dc_secular_roots gl_c_dc_secular_roots gl_z_dc_secular_roots */
int GL_FN(dc_secular_roots)(GL_FN(dc_secular) *q, long items)
{
    if (gl_parallel_for(items, roots, q) != 0)
        return q->info > 0 ? q->info : -1;
    return 0;
}

/* ---- the SVD's (?lasd3's arithmetic) ---- */

/* z_i recomputed from the roots so that the vectors are orthogonal to
 * working precision (Gu and Eisenstat), its sign from the original z. */
static int recompute_z(void *ctx, long item)
{
    secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    const gl_real *ds = q->poles;
    for (lapack_int i = (lapack_int)item * ROOTS_PER_ITEM; i < hi && i < k;
         i++) {
        gl_real zi = RAT(q->delta, k, i, k - 1) * RAT(q->sums, k, i, k - 1);
        for (lapack_int j = 0; j < i; j++)
            zi *= RAT(q->delta, k, i, j) * RAT(q->sums, k, i, j) /
                  (ds[i] - ds[j]) / (ds[i] + ds[j]);
        for (lapack_int j = i; j < k - 1; j++)
            zi *= RAT(q->delta, k, i, j) * RAT(q->sums, k, i, j) /
                  (ds[i] - ds[j + 1]) / (ds[i] + ds[j + 1]);
        q->z[i] = GL_R(copysign)(GL_R(sqrt)(GL_R(fabs)(zi)), q->sign[i]);
    }
    return 0;
}

/* Root i's right vector v_j = z_j / (dsigma_j^2 - s_i^2) and left vector
 * u_0 = -1, u_j = dsigma_j v_j, normalised, into Q_u's column and Q_vt's
 * row (kept as the column sums(:, i)), rows in U2's column order. */
static int svd_vectors(void *ctx, long item)
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
            u[j] = j == 0 ? -1 : q->poles[j] * v[j];
        }
        gl_real nu = dc_norm2(k, u), nv = dc_norm2(k, v);
        du[0] = u[0] / nu;
        dv[0] = v[0] / nv;
        for (lapack_int j = 1; j < k; j++) {
            lapack_int jc = q->order[j] - 1;
            du[j] = u[jc] / nu;
            dv[j] = v[jc] / nv;
        }
    }
    free(v);
    return 0;
}

/* gl_s_dc_svd_vectors gl_d_dc_svd_vectors gl_c_dc_svd_vectors gl_z_dc_svd_vectors */
int GL_FN(dc_svd_vectors)(GL_FN(dc_secular) *q, long items)
{
    gl_parallel_for(items, recompute_z, q);
    return gl_parallel_for(items, svd_vectors, q) != 0 ? -1 : 0;
}

/* ---- the tridiagonal's (?laed3's arithmetic) ---- */

/* w_i recomputed from the roots (Gu and Eisenstat), its sign from the
 * original w. */
static int tri_recompute_w(void *ctx, long item)
{
    secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    const gl_real *dl = q->poles;
    for (lapack_int i = (lapack_int)item * ROOTS_PER_ITEM; i < hi && i < k;
         i++) {
        gl_real wi = RAT(q->delta, k, i, i);
        for (lapack_int j = 0; j < k; j++)
            if (j != i)
                wi *= RAT(q->delta, k, i, j) / (dl[i] - dl[j]);
        q->z[i] = GL_R(copysign)(GL_R(sqrt)(-wi), q->sign[i]);
    }
    return 0;
}

/* Root j's vector s_i = w_i / (dlambda_i - lambda_j), normalised. */
static int tri_vectors(void *ctx, long item)
{
    secular *q = ctx;
    lapack_int k = q->k, hi = (lapack_int)((item + 1) * ROOTS_PER_ITEM);
    gl_real *v = malloc(sizeof *v * (size_t)k);
    if (!v)
        return -1;
    for (lapack_int j = (lapack_int)item * ROOTS_PER_ITEM; j < hi && j < k;
         j++) {
        gl_real *col = &RAT(q->delta, k, 0, j);
        for (lapack_int i = 0; i < k; i++)
            v[i] = q->z[i] / col[i];
        gl_real nv = dc_norm2(k, v);
        for (lapack_int i = 0; i < k; i++)
            col[i] = v[q->order[i] - 1] / nv;
    }
    free(v);
    return 0;
}

/* gl_s_dc_tri_vectors gl_d_dc_tri_vectors gl_c_dc_tri_vectors gl_z_dc_tri_vectors */
int GL_FN(dc_tri_vectors)(GL_FN(dc_secular) *q, long items)
{
    gl_parallel_for(items, tri_recompute_w, q);
    return gl_parallel_for(items, tri_vectors, q) != 0 ? -1 : 0;
}

/* ---- for the device ---- */

/* gl_s_dc_pack_secular gl_d_dc_pack_secular gl_c_dc_pack_secular gl_z_dc_pack_secular */
void GL_FN(dc_pack_secular)(lapack_int k, const gl_real *poles,
                            const gl_real *weights, const lapack_int *idx,
                            lapack_int first, gl_real *packed)
{
    memcpy(packed, poles, sizeof *packed * (size_t)k);
    memset(packed + k, 0, sizeof *packed * 2 * (size_t)k);
    memcpy(packed + 3 * k, weights, sizeof *packed * (size_t)k);
    for (lapack_int i = 0; i < k; i++)
        packed[4 * k + i] = (gl_real)(i < first ? i : idx[i] - 1);
}
