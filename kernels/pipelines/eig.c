/* The Hermitian eigenproblem by the two-stage reduction: dense -> band
 * (sy2sb), band -> tridiagonal (bulge chasing), tridiagonal -> values
 * (the system ?sterf, or ?stebz for a subset) or values and vectors (the
 * stage-3 routine of each driver), then the vectors back through the two
 * stages.  The scaling follows the ?syev family. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/log.h"
#include "../../runtime/memory.h"
#include "../../runtime/parallel.h"
#include "../../runtime/profile.h"
#include "../../runtime/tune.h"
#include "../householder.h"
#include "../backend/lapack_fns.h"
#include "../arena.h"
#include "../tiers/streamed.h"
#include "../tiers/peers.h"
#include "pipelines.h"

/* gl_s_tridiag_q_free gl_d_tridiag_q_free gl_c_tridiag_q_free gl_z_tridiag_q_free */
void GL_FN(tridiag_q_free)(const GL_FN(ops) *ops, GL_FN(tridiag_q) *q)
{
    if (q->streamed_cols > 0) {   /* the streamed plan's: host memory */
        gl_host_free(q->a);
        gl_host_free(q->t);
        gl_host_free(q->parked);
        q->parked = NULL;
    } else {
        ops->release(ops, q->a);
        ops->release(ops, q->t);
    }
    GL_FN(reflectors_free)(ops, &q->chase);
    free(q->phase);
    q->a = q->t = q->phase = NULL;
}

/* gl_s_tridiag_q_keep_chase gl_d_tridiag_q_keep_chase gl_c_tridiag_q_keep_chase gl_z_tridiag_q_keep_chase */
int GL_FN(tridiag_q_keep_chase)(const GL_FN(ops) *ops, GL_FN(tridiag_q) *q)
{
    q->phase = malloc(sizeof *q->phase * (size_t)q->n);
    return !q->phase ||
                   GL_FN(reflectors_alloc)(ops, &q->chase, q->n, q->b,
                                           gl_tune_group(&ops->ctx->tuning,
                                                         q->b),
                                           0)
               ? GL_STAGE_FAULT
               : 0;
}

/* z (n x m, n x n: the caller's A) = dev (ld n) read over the caller's
 * input, of which the restart on LAPACK after a failed read needs the
 * uplo triangle: column blocks go straight into z, each block's part of
 * the triangle kept first and put back if a read fails -- half the
 * copies and the host memory of a read through a whole bounce array.
 * gl_s_read_over_input gl_d_read_over_input gl_c_read_over_input
 * gl_z_read_over_input */
int GL_FN(read_over_input)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                           lapack_int m, const gl_scalar *dev, gl_scalar *z,
                           lapack_int ldz)
{
    lapack_int first;
    size_t kept_count = 0;
    for (lapack_int j = 0; j < m; j++)
        kept_count += gl_triangle_rows(uplo, n, j, &first);
    gl_scalar *kept = ops->host_memory
                          ? NULL
                          : gl_host_alloc(sizeof *kept * kept_count);
    if (!kept)   /* the host backend, or no memory: a complete read */
        return ops->to_host(ops, n, m, dev, n, z, ldz);
    lapack_int nb = gl_kept_read_cols(sizeof *kept, n, m);
    size_t at = 0;
    int rc = 0;
    for (lapack_int j0 = 0; j0 < m && rc == 0; j0 += nb) {
        lapack_int nc = m - j0 < nb ? m - j0 : nb;
        for (lapack_int j = j0; j < j0 + nc; j++) {
            size_t rows = gl_triangle_rows(uplo, n, j, &first);
            memcpy(kept + at, z + first + (size_t)j * ldz,
                   sizeof *kept * rows);
            at += rows;
        }
        rc = ops->to_host_scratch(ops, n, nc, dev + (size_t)j0 * n, n,
                                  z + (size_t)j0 * ldz, ldz);
    }
    size_t back = 0;
    for (lapack_int j = 0; rc != 0 && back < at; j++) {
        size_t rows = gl_triangle_rows(uplo, n, j, &first);
        memcpy(z + first + (size_t)j * ldz, kept + back, sizeof *kept * rows);
        back += rows;
    }
    gl_host_free(kept);
    return rc;
}

/* E (n x m, backend memory, ld n) := Q E with q's reflectors: the chase's
 * (Q2), then stage 1's panels below the band, or (b = 0) the one-stage
 * reflectors below the subdiagonal (he_tridiag_one_stage). */
/* gl_s_q_apply_on gl_d_q_apply_on gl_c_q_apply_on gl_z_q_apply_on */
int GL_FN(q_apply_on)(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                      lapack_int m, gl_scalar *e)
{
    lapack_int n = q->n, bw = q->b;
    if (m <= 0)
        return 0;
    if (GL_FN(apply_chase)(ops, &q->chase, 'Q', 'N', m, e, n))
        return GL_STAGE_FAULT;
    if (q->a && (bw == 0 ? GL_FN(apply_panels)(ops, 'C', 'N', n - 1, n - 1,
                                               GL_ONE_STAGE_BLOCK, q->a + 1,
                                               q->lda, q->t, m, e + 1, n)
                         : GL_FN(apply_panels)(ops, 'C', 'N', n - bw,
                                               gl_sy2sb_reflectors(n, bw), bw,
                                               q->a + bw, q->lda, q->t, m,
                                               e + bw, n)))
        return GL_STAGE_FAULT;
    return 0;
}

/* Q as a job the devices of a set share (kernels/tiers/peers.c): made of stage
 * 1's panels below the band (n^2), their T factors (b or the one-stage
 * block per column) and the chase's store (vq, then tauq). */
static size_t q_store_slots(const GL_FN(tridiag_q) *q)
{
    const GL_FN(reflectors) *r = &q->chase;
    lapack_int ngroups;
    return r->ngroups > 0 && r->vq
               ? GL_FN(reflectors_slots)(r->n, r->b, r->group, &ngroups)
               : 0;
}

static int q_apply_copies(const GL_FN(ops) *ops, const GL_FN(peer_job) *job,
                          gl_scalar *const *in, lapack_int m, gl_scalar *e)
{
    const GL_FN(tridiag_q) *q = job->data;
    GL_FN(tridiag_q) copy = {.n = q->n, .b = q->b, .a = in[0], .lda = q->n,
                             .t = in[1], .chase = q->chase};
    /* the copy is laid out as the store: tauq as far after vq */
    copy.chase.vq = in[2];
    copy.chase.tauq = in[2] ? in[2] + (q->chase.tauq - q->chase.vq) : NULL;
    return GL_FN(q_apply_on)(ops, &copy, m, e);
}

static GL_FN(peer_job) q_job(const GL_FN(tridiag_q) *q)
{
    size_t n = (size_t)q->n, slots = q_store_slots(q);
    size_t t = (size_t)(q->b == 0 ? GL_ONE_STAGE_BLOCK : q->b > 0 ? q->b : 1);
    return (GL_FN(peer_job)){
        .rows = q->n,
        .in = {q->a, q->a ? q->t : NULL, slots > 0 ? q->chase.vq : NULL},
        .scalars = {n * n, t * n, slots * ((size_t)q->chase.b + 1)},
        .apply = q_apply_copies,
        .data = q};
}

/* z (host, n x m) = Q diag(phase) Z for Z = zt (host) or zt_dev (real,
 * in the backend's memory, ld n; overwritten in the real precisions) or
 * neither (the identity, m = n).  protect: z overwrites the caller's
 * input, whose uplo triangle ('L', 'U') or all ('A') the restart on
 * LAPACK after a failed read needs (read_over_input, or a complete read
 * through a bounce array); 0: read without (a failed call restarts on
 * LAPACK, which writes z again). */
static int q_apply(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                   lapack_int m, const gl_real *zt, lapack_int ldzt,
                   gl_real *zt_dev, gl_scalar *z, lapack_int ldz, char protect)
{
    lapack_int n = q->n;
    if (m <= 0)
        return 0;
    GL_FN(peer_share) shares[GL_MAX_DEVICE_SET - 1];
    int nshares = 0;
    /* the vectors start in the backend's array itself on the host
     * backend, else in a host image copied to it, or on the device from
     * stage 3 (in place in the real precisions) */
    int in_place = zt_dev && !GL_COMPLEX;
    gl_scalar *dev = in_place ? (gl_scalar *)zt_dev
                              : ops->alloc(ops, sizeof *dev * (size_t)n *
                                           (size_t)m);
    gl_scalar *host =
        ops->host_memory || zt_dev
            ? NULL
            : gl_host_alloc(sizeof *host * (size_t)n * (size_t)m);
    gl_scalar *image = ops->host_memory ? dev : host;
    int rc = GL_STAGE_FAULT;
    if (!dev || (!zt_dev && !image))
        goto out;
    if (zt_dev) {
        if (ops->phase_rows(ops, n, m, 0, q->phase, zt_dev, n, n, m, dev, n))
            goto out;
    } else if (zt) {
        GL_FN(scale_rows)(n, m, q->phase, zt, ldzt, 0, image, n);
    } else {   /* Q itself: diag(phase) */
        memset(image, 0, sizeof *image * (size_t)n * (size_t)m);
        for (lapack_int i = 0; i < n && i < m; i++)
            image[i + (size_t)i * n] = q->phase[i];
    }
    if (host)
        ops->from_host(ops, 'N', n, m, host, n, dev, n);
    /* the other devices of the call's set take their shares of the
     * columns (kernels/tiers/peers.c): this device keeps the first m0 */
    GL_FN(peer_job) job = q_job(q);
    nshares = GL_FN(peers_start)(ops, &job, m, dev, shares);
    lapack_int m0 = nshares > 0 ? shares[0].col : m;
    if (nshares < 0 || GL_FN(q_apply_on)(ops, q, m0, dev) ||
        GL_FN(peers_read)(shares, nshares, n))
        goto out;
    if (protect == 'L' || protect == 'U'
            ? GL_FN(read_over_input)(ops, protect, n, m0, dev, z, ldz)
            : (protect ? ops->to_host : ops->to_host_scratch)(ops, n, m0, dev,
                                                              n, z, ldz))
        goto out;
    GL_FN(peers_place)(shares, nshares, n, z, ldz);
    rc = 0;
out:
    if (nshares > 0)
        GL_FN(peers_free)(shares, nshares);
    gl_host_free(host);
    if (!in_place)
        ops->release(ops, dev);
    return rc;
}

/* max |a_ij| of a column range, for max_abs */
typedef struct max_abs_job {
    char part;
    lapack_int m, n;
    const gl_scalar *a;
    lapack_int lda;
    int real_diagonal;
    gl_real *partial;   /* one per item */
} max_abs_job;

enum { MAX_ABS_COLUMNS = 64 };

static int max_abs_columns(void *ctx, long item)
{
    const max_abs_job *w = ctx;
    gl_real big = 0;
    lapack_int j0 = (lapack_int)item * MAX_ABS_COLUMNS;
    for (lapack_int j = j0; j < j0 + MAX_ABS_COLUMNS && j < w->n; j++) {
        lapack_int i0 = w->part == 'L' ? j : 0,
                   i1 = w->part == 'U' ? (j + 1 < w->m ? j + 1 : w->m) : w->m;
        for (lapack_int i = i0; i < i1; i++) {
            gl_scalar x = w->a[i + (size_t)j * w->lda];
            gl_real v = i == j && w->real_diagonal ? GL_R(fabs)(GL_REAL(x))
                                                   : GL_ABS(x);
            if (!(v <= big) && !isnan(big))
                big = v;   /* a NaN, once seen, stays */
        }
    }
    w->partial[item] = big;
    return 0;
}

/* gl_s_max_abs gl_d_max_abs gl_c_max_abs gl_z_max_abs */
gl_real GL_FN(max_abs)(char part, lapack_int m, lapack_int n,
                       const gl_scalar *a, lapack_int lda, int real_diagonal)
{
    long items = (n + MAX_ABS_COLUMNS - 1) / MAX_ABS_COLUMNS;
    gl_real *partial = malloc(sizeof *partial * (size_t)(items > 0 ? items : 1));
    max_abs_job w = {part, m, n, a, lda, real_diagonal, partial};
    gl_real big = 0;
    if (!partial || gl_parallel_for(items, max_abs_columns, &w) != 0) {
        free(partial);
        return NAN;   /* the caller's call goes to LAPACK */
    }
    for (long i = 0; i < items; i++)
        if (!(partial[i] <= big) && !isnan(big))
            big = partial[i];
    free(partial);
    return big;
}

/* gl_s_dc_vectors_on_device gl_d_dc_vectors_on_device gl_c_dc_vectors_on_device gl_z_dc_vectors_on_device */
lapack_int GL_FN(dc_vectors_on_device)(const GL_FN(ops) *ops,
                                       const GL_FN(tridiag_q) *q,
                                       const gl_real *d, const gl_real *e,
                                       gl_real *w, lapack_int *isuppz,
                                       int keep_info, gl_real *scratch,
                                       gl_scalar *z, lapack_int ldz,
                                       char protect, const gl_eig_job *subset,
                                       gl_real sigma, lapack_int *m,
                                       double *back)
{
    lapack_int n = q->n, info = 0;
    gl_real *zd = ops->alloc(ops, sizeof *zd * (size_t)n * (size_t)n);
    for (lapack_int i = 0; i < n; i++)
        w[i] = d[i];
    for (lapack_int i = 0; i + 1 < n; i++)
        scratch[i] = e[i];
    int rc = !zd ||
             GL_FN(tridiag_eig_device)(ops, n, w, scratch, zd, n, &info) ||
             (info != 0 && !keep_info) ||
             (isuppz && ops->dc_support(ops, n, n, zd, n, isuppz));
    /* the selected columns of Z_T, ascending: those of il..iu, or of the
     * values in (vl, vu] */
    lapack_int first = 0, count = n;
    if (!rc && info == 0 && subset && subset->range == 'I') {
        first = subset->il - 1;
        count = subset->iu - subset->il + 1;
    } else if (!rc && info == 0 && subset) {
        gl_real vl = subset->vl * sigma, vu = subset->vu * sigma;
        while (first < n && w[first] <= vl)
            first++;
        for (count = 0; first + count < n && w[first + count] <= vu; count++)
            ;
    }
    memmove(w, w + first, sizeof *w * (size_t)count);
    *m = count;
    *back = gl_profile_stage(ops->ctx, "back");
    if (!rc)
        rc = q_apply(ops, q, count, NULL, 0, zd + (size_t)first * n, z, ldz,
                     protect);
    ops->release(ops, zd);
    return rc ? GL_STAGE_FAULT : info;
}

/* Eigenvalues of the tridiagonal (d, e) below x: the negative pivots of
 * T - x I (Sturm), as ?stebz counts them. */
static lapack_int count_below(lapack_int n, const gl_real *d,
                              const gl_real *e, gl_real x, gl_real pivmin)
{
    lapack_int count = 0;
    gl_real pivot = 1;
    for (lapack_int i = 0; i < n; i++) {
        gl_real off = i > 0 ? e[i - 1] * e[i - 1] / pivot : 0;
        pivot = d[i] - x - off;
        if (GL_R(fabs)(pivot) < pivmin)
            pivot = -pivmin;
        count += pivot < 0;
    }
    return count;
}

/* Whether a device finds the eigenvectors of ?syevr's subset (RANGE 'V'
 * or 'I') of the tridiagonal (d, e) of the matrix scaled by sigma faster
 * by the whole divide and conquer, then a selection, than the host by
 * bisection and inverse iteration.
 * A subset of m of the n eigenvectors costs the host ?stein (O(nm),
 * more in clusters) and the QR that reorthogonalizes them (4nm^2 flops,
 * tridiagonal_vectors), and the bus n m values; the whole divide and
 * conquer on a device costs about the same at any m (its products, ~n^3
 * flops at the device's rate: 0.1-0.2 s at n = 8192 on an H200,
 * docs/design/stage3-host-work.md) and the selected columns are already there.  With
 * ~0.2 Tflop/s for the host's QR of tall panels, the two meet near m =
 * n/8 at n = 8192 (4 n m^2 = 0.2 s at m ~ 1100), and the device's share
 * only falls with n, so from m = n/8 on the device does it all. */
static int subset_by_dc(const gl_eig_job *job, lapack_int n, const gl_real *d,
                        const gl_real *e, gl_real sigma)
{
    lapack_int m = job->iu - job->il + 1;
    if (job->range == 'V') {
        const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
        gl_real pivmin = f->lamch("S", 1), emax = 0;
        for (lapack_int i = 0; i + 1 < n; i++)
            emax = GL_R(fmax)(emax, e[i] * e[i]);
        pivmin *= GL_R(fmax)(emax, 1);
        m = count_below(n, d, e, job->vu * sigma, pivmin) -
            count_below(n, d, e, job->vl * sigma, pivmin);
    }
    return 8 * (long)m >= (long)n;
}

/* gl_s_tridiag_q_apply gl_d_tridiag_q_apply gl_c_tridiag_q_apply gl_z_tridiag_q_apply */
int GL_FN(tridiag_q_apply)(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                           lapack_int m, const gl_real *zt, lapack_int ldzt,
                           gl_scalar *z, lapack_int ldz)
{
    return q_apply(ops, q, m, zt, ldzt, NULL, z, ldz, 'A');
}

/* gl_s_he_tridiag gl_d_he_tridiag gl_c_he_tridiag gl_z_he_tridiag */
int GL_FN(he_tridiag)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                      const gl_scalar *a, lapack_int lda, gl_real sigma,
                      gl_real *d, gl_real *e, gl_scalar *q1, lapack_int ldq1,
                      gl_scalar *tau, GL_FN(tridiag_q) *keep,
                      gl_stage_times *times)
{
    int lower = uplo == 'L';
    lapack_int b = gl_tune_band(&ops->ctx->tuning, 'H', GL_COMPLEX, n,
                                keep != NULL);
    lapack_int bw = b < n - 1 ? b : n - 1;
    lapack_int ldband = 2 * bw + 1;
    gl_scalar *wk = ops->alloc(ops, sizeof *wk * (size_t)n * (size_t)n);
    gl_scalar *band =
        ops->alloc(ops, sizeof *band * (size_t)ldband * (size_t)n);
    gl_scalar *de = malloc(sizeof *de * 2 * (size_t)n);
    gl_scalar *taus = q1 ? malloc(sizeof *taus * (size_t)n) : NULL;
    int rc = GL_STAGE_FAULT;
    if (keep) {
        *keep = (GL_FN(tridiag_q)){.n = n, .b = bw, .a = wk, .lda = n};
        keep->t = ops->alloc(ops, sizeof *keep->t * (size_t)(bw > 0 ? bw : 1) *
                             (size_t)n);
        if (!keep->t || GL_FN(tridiag_q_keep_chase)(ops, keep))
            goto out;
    }
    if (!wk || !band || !de || (q1 && !taus))
        goto out;

    /* The lower triangle of A, or of A^H for 'U' (A = A^H). */
    ops->from_host(ops, lower ? 'N' : 'C', n, n, a, lda, wk, n);
    if (sigma != 1 && ops->lascl(ops, 1, sigma, n, n, wk, n))
        goto out;
    double t0 = gl_profile_stage(ops->ctx, "stage1");
    for (lapack_int i = 0; taus && i < n; i++)
        taus[i] = 0;
    if (bw > 1 &&
        GL_FN(sy2sb)(ops, n, bw,
                     gl_tune_stage1_block(&ops->ctx->tuning, n, bw), wk, n,
                     taus, keep ? keep->t : NULL))
        goto out;
    double t1 = gl_profile_stage(ops->ctx, "stage2");
    ops->pack_band(ops, 'H', n, bw, wk, n, band, ldband);
    if (bw > 1 &&
        ops->sb_chase(ops, n, bw, n, band, ldband, keep ? &keep->chase : NULL))
        goto out;
    double t2 = gl_profile_stage(ops->ctx, "stage3");

    if (GL_FN(band_to_de)(ops, 'H', n, bw, band, ldband, de, d, e))
        goto out;
    if (keep)
        GL_FN(tridiagonal_phases)(n, de + n, keep->phase);

    /* Q1 for ?sytrd_2stage: the band and the reflectors below it, in the
     * caller's triangle (for 'U' those of A^H, conjugate-transposed). */
    if (q1 && bw > 1 && n - bw >= 2) {
        for (lapack_int j = 0; j < n; j++) {
            if (lower) {
                if (ops->to_host(ops, n - j, 1, wk + j + (size_t)j * n, n,
                                 q1 + j + (size_t)j * ldq1, ldq1))
                    goto out;
                continue;
            }
            if (ops->to_host(ops, n - j, 1, wk + j + (size_t)j * n, n, de, n))
                goto out;
            for (lapack_int i = j; i < n; i++)
                q1[j + (size_t)i * ldq1] = GL_CONJ(de[i - j]);
        }
        for (lapack_int i = 0; i + 1 < n; i++)
            tau[i] = lower ? taus[i] : GL_CONJ(taus[i]);
    }
    if (times)
        *times = (gl_stage_times){.stage1 = t1 - t0, .stage2 = t2 - t1};
    rc = 0;
out:
    if (keep && rc != 0)
        GL_FN(tridiag_q_free)(ops, keep);   /* releases wk too */
    else if (!keep)
        ops->release(ops, wk);
    ops->release(ops, band);
    free(de);
    free(taus);
    return rc;
}

/* ?stebz on (d, e) of the matrix scaled by sigma, with the job's bounds
 * and tolerance scaled as the drivers scale them; returns its INFO. */
static lapack_int scaled_stebz(const GL_FN(lapack_fns) *f,
                               const gl_eig_job *job, const char *order,
                               lapack_int n, const gl_real *d,
                               const gl_real *e, gl_real sigma,
                               lapack_int *m, gl_real *w, lapack_int *iblock,
                               lapack_int *isplit, gl_real *work,
                               lapack_int *iwork)
{
    gl_real vl = job->vl * sigma, vu = job->vu * sigma;
    gl_real abstol = job->abstol;
    if (sigma != 1 && abstol > 0)
        abstol *= sigma;
    lapack_int nsplit = 0, info = 0;
    char range = job->range;
    f->stebz(&range, order, &n, &vl, &vu, &job->il, &job->iu, &abstol, d, e,
             m, &nsplit, w, iblock, isplit, work, iwork, &info, 1, 1);
    lapack_int want = job->iu - job->il + 1;
    if (range != 'I' || (info == 0 && *m == want))
        return info;
    /* A cluster of equal eigenvalues across IL or IU: ?stebz's interval
     * cannot separate them, and it may return fewer (even none) than the
     * IU-IL+1 that the drivers document, with INFO 2 or 4 (LAPACK 3.11
     * does the same).  All of them in ascending order, then the wanted
     * ones. */
    f->stebz("A", "E", &n, &vl, &vu, &job->il, &job->iu, &abstol, d, e, m,
             &nsplit, w, iblock, isplit, work, iwork, &info, 1, 1);
    if (info != 0)
        return info;
    memmove(w, w + job->il - 1, sizeof *w * (size_t)want);
    memmove(iblock, iblock + job->il - 1, sizeof *iblock * (size_t)want);
    *m = want;
    /* ORDER 'B' (for ?stein): by block, ascending within each (a stable
     * insertion sort by block) */
    for (lapack_int i = 1; *order == 'B' && i < want; i++)
        for (lapack_int k = i; k > 0 && iblock[k - 1] > iblock[k]; k--) {
            gl_real tw = w[k];
            lapack_int tb = iblock[k];
            w[k] = w[k - 1], iblock[k] = iblock[k - 1];
            w[k - 1] = tw, iblock[k - 1] = tb;
        }
    return 0;
}

/* isuppz[2j], isuppz[2j+1]: the first and last nonzero row (1-based)
 * of column j of the n x n zt, as ?stemr's ISUPPZ. */
static void supports(lapack_int n, const gl_real *zt, lapack_int *isuppz)
{
    for (lapack_int j = 0; j < n; j++) {
        const gl_real *zj = zt + (size_t)j * n;
        lapack_int first = 0, last = n - 1;
        while (first < last && zj[first] == 0)
            first++;
        while (last > first && zj[last] == 0)
            last--;
        isuppz[2 * j] = first + 1;
        isuppz[2 * j + 1] = last + 1;
    }
}

/* ?stebz and ?stein for the vectors of (d, e) as ?syevr/?syevx do them
 * (after ?stemr or ?steqr, or instead of them), the vectors
 * re-orthogonalized and sorted ascending with their values (and IFAIL);
 * rest: lrest reals, iblock and isplit n integers, irest 6 n.  ?stein's
 * INFO. */
static lapack_int stebz_stein(const GL_FN(lapack_fns) *f,
                              const gl_eig_job *job, lapack_int n,
                              const gl_real *d, const gl_real *e,
                              gl_real sigma, lapack_int *m, gl_real *w,
                              gl_real *zt, lapack_int *ifail, gl_real *rest,
                              lapack_int lrest, lapack_int *iblock,
                              lapack_int *isplit, lapack_int *irest)
{
    lapack_int info = 0;
    /* ?stebz's INFO is replaced by ?stein's below */
    scaled_stebz(f, job, "B", n, d, e, sigma, m, w, iblock, isplit, rest,
                 irest);
    int expert_x = job->driver == GL_EIG_SYEVX;
    /* LAPACK 3.11 (the system's) lets ?stein's INFO replace ?stebz's in
     * both drivers (3.13 reports N + ?stebz's INFO in ?syevx) */
    lapack_int *fails = ifail ? ifail : irest + 5 * n;
    f->stein(&n, d, e, m, w, iblock, isplit, zt, &n, rest, irest, fails,
             &info);
    /* ?stein reorthogonalizes within clusters of close eigenvalues, but
     * the two-stage tridiagonal keeps rounding-level couplings where a
     * one-stage one splits, and large clusters then lose orthogonality
     * (cheevr, RANGE='V', 46 zero eigenvalues: 123 ulp).  A QR of the
     * vectors restores it; the vectors only mix within such clusters,
     * where they stay eigenvectors, and keep their signs. */
    if (info == 0 && *m > 1) {
        lapack_int lwork = lrest - *m, qinfo = 0;
        gl_real *tau = rest, *qwork = rest + *m;
        f->rgeqrf(&n, m, zt, &n, tau, qwork, &lwork, &qinfo);
        /* the signs of R's diagonal, in iblock (no longer needed) */
        for (lapack_int j = 0; j < *m; j++)
            iblock[j] = zt[j + (size_t)j * n] < 0 ? -1 : 1;
        if (qinfo == 0)
            f->rorgqr(&n, m, m, zt, &n, tau, qwork, &lwork, &qinfo);
        for (lapack_int j = 0; qinfo == 0 && j < *m; j++)
            if (iblock[j] < 0)
                for (lapack_int i = 0; i < n; i++)
                    zt[i + (size_t)j * n] = -zt[i + (size_t)j * n];
    }
    /* Unscaling comes after in the drivers; it keeps the order. */
    for (lapack_int j = 0; j + 1 < *m; j++) {
        lapack_int pick = -1;
        gl_real smallest = w[j];
        for (lapack_int jj = j + 1; jj < *m; jj++)
            if (w[jj] < smallest)
                pick = jj, smallest = w[jj];
        if (pick < 0)
            continue;
        w[pick] = w[j];
        w[j] = smallest;
        for (lapack_int i = 0; i < n; i++) {
            gl_real x = zt[i + (size_t)pick * n];
            zt[i + (size_t)pick * n] = zt[i + (size_t)j * n];
            zt[i + (size_t)j * n] = x;
        }
        if (expert_x && info != 0) {
            lapack_int x = ifail[pick];
            ifail[pick] = ifail[j];
            ifail[j] = x;
        }
    }
    return info;
}

/* gl_s_tridiagonal_vectors gl_d_tridiagonal_vectors gl_c_tridiagonal_vectors gl_z_tridiagonal_vectors */
lapack_int GL_FN(tridiagonal_vectors)(const GL_FN(ops) *ops,
                                      const gl_eig_job *job, lapack_int n,
                                      const gl_real *d, const gl_real *e,
                                      gl_real sigma, lapack_int *m,
                                      gl_real *w, gl_real *zt,
                                      lapack_int *isuppz, lapack_int *ifail,
                                      gl_real *work, lapack_int *iwork)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    gl_real *dd = work, *ee = dd + n, *rest = ee + n;
    /* ?stedc's 1 + 4n + n^2 in 64 bits (past 2^31 from n = 46,341,
     * where tridiag_eig no longer hands the problem to the system's) */
    int64_t lrest64 = 1 + 4 * (int64_t)n + (int64_t)n * n;
    if (lrest64 < 18 * (int64_t)n)
        lrest64 = 18 * (int64_t)n;
    lapack_int lrest = lrest64 > INT32_MAX ? INT32_MAX : (lapack_int)lrest64;
    lapack_int *iblock = iwork, *isplit = iblock + n, *irest = isplit + n;
    lapack_int lirest = 10 * n + 3;
    lapack_int info = 0;
    int all = job->range == 'A' ||
              (job->range == 'I' && job->il == 1 && job->iu == n);
    for (lapack_int i = 0; i < n; i++)
        dd[i] = d[i];
    for (lapack_int i = 0; i + 1 < n; i++)
        ee[i] = e[i];
    *m = 0;
    switch (job->driver) {
    case GL_EIG_SYEV:
        for (lapack_int i = 0; i < n; i++)
            w[i] = d[i];
        f->steqr("I", &n, w, ee, zt, &n, rest, &info, 1);
        *m = n;
        return info;
    case GL_EIG_SYEVD:
        for (lapack_int i = 0; i < n; i++)
            w[i] = d[i];
        if (GL_FN(tridiag_eig)(ops, n, w, ee, zt, n, rest, lrest, irest,
                               lirest, &info))
            return GL_STAGE_FAULT;
        *m = n;
        return info;
    case GL_EIG_SYEVR:
        if (all) {
            /* ?stedc where ?syevr uses ?stemr: the two-stage reduction
             * leaves rounding-level couplings inside clusters that a
             * one-stage reduction often zeroes exactly, and MRRR loses
             * orthogonality on them (cheevr, I + rank one, n = 120: 316
             * ulp; LAPACK's own 47); divide and conquer does not.  ISUPPZ
             * is the support of each eigenvector of T, as ?stemr's. */
            for (lapack_int i = 0; i < n; i++)
                w[i] = d[i];
            if (GL_FN(tridiag_eig)(ops, n, w, ee, zt, n, rest, lrest, irest,
                                   lirest, &info))
                return GL_STAGE_FAULT;
            if (info == 0) {
                *m = n;
                if (isuppz)
                    supports(n, zt, isuppz);
                return 0;
            }
            info = 0;   /* failed: ?stebz and ?stein, as after ?stemr */
        }
        break;
    case GL_EIG_SYEVX:
        if (all && job->abstol <= 0) {
            for (lapack_int i = 0; i < n; i++)
                w[i] = d[i];
            f->steqr("I", &n, w, ee, zt, &n, rest, &info, 1);
            if (info == 0) {
                *m = n;
                for (lapack_int i = 0; i < n; i++)
                    ifail[i] = 0;
                return 0;
            }
            info = 0;   /* ?steqr failed: ?stebz and ?stein */
        }
        break;
    }

    return stebz_stein(f, job, n, d, e, sigma, m, w, zt, ifail, rest, lrest,
                       iblock, isplit, irest);
}

/* One call of the eigenvalue pipeline: the decisions, the host arena
 * (d, e, stage 3's work, iwork: one allocation; the backend's memory of
 * the reduction is he_tridiag's, kept in q for the vectors), and what a
 * step hands to the next.  eig_free releases it whatever step failed. */
typedef struct eig_call {
    const GL_FN(ops) *ops;
    const GL_FN(lapack_fns) *f;
    const gl_eig_job *job;
    lapack_int n;
    int expert, vectors, all, on_device;
    int streamed;             /* the streamed or lean plan: stage 3 on the
                                 host, Q streamed (tridiag_q_apply_streamed) */
    gl_real sigma;
    void *host_arena;
    gl_real *d, *e, *work;    /* d, e, then stage 3's work */
    lapack_int *iwork;
    GL_FN(tridiag_q) q;
    lapack_int info;
    gl_stage_times reduce;
    double t2, t3;
} eig_call;

/* Plan: the scaling, where stage 3 runs, and the host arena: d, e and
 * ?sterf/?stebz's work (7 n), or Z of T and tridiagonal_vectors' work,
 * then iwork.  0, GL_STAGE_NONFINITE or GL_STAGE_FAULT. */
static int eig_plan(eig_call *c, const gl_scalar *a, lapack_int lda)
{
    const gl_eig_job *job = c->job;
    lapack_int n = c->n;
    /* max |a_ij| over the referenced triangle (?lansy/?lanhe 'M': the
     * real part of the diagonal); Inf/NaN stays with LAPACK.  ?heevr
     * measures with ?lansy, which keeps the imaginary part of the
     * diagonal; the others with ?lanhe, which drops it */
    c->expert = job->driver == GL_EIG_SYEVR || job->driver == GL_EIG_SYEVX;
    gl_real anrm = GL_FN(max_abs)(job->uplo, n, n, a, lda,
                                  job->driver != GL_EIG_SYEVR);
    if (!isfinite(anrm))
        return GL_STAGE_NONFINITE;
    c->sigma = GL_FN(eig_sigma)(anrm, c->f->lamch("S", 1), c->f->lamch("P", 1),
                                c->expert);
    c->all = job->range == 'A' ||
             (job->range == 'I' && job->il == 1 && job->iu == n);
    /* ?stedc's stage 3 (?syevd's, and ours for ?syevr's whole spectrum)
     * leaves the vectors of T on a device for the back-transformation */
    c->on_device = c->vectors && c->ops->real_fill && !c->streamed &&
                   (job->driver == GL_EIG_SYEVD ||
                    (job->driver == GL_EIG_SYEVR && c->all));
    size_t nn = (size_t)n * (size_t)n;
    size_t lwork = 2 * (size_t)n + (c->vectors && !c->on_device
                                        ? nn + gl_tridiagonal_work(n)
                                        : 7 * (size_t)n);
    gl_arena host = {0};
    size_t at_d = gl_arena_take(&host, 1, lwork, sizeof(gl_real));
    size_t at_iwork = gl_arena_take(&host, 1, gl_tridiagonal_iwork(n),
                                    sizeof(lapack_int));
    c->host_arena = gl_host_alloc(host.bytes);
    if (!c->host_arena)
        return GL_STAGE_FAULT;
    c->d = gl_arena_at(c->host_arena, at_d);
    c->e = c->d + n, c->work = c->e + n;
    c->iwork = gl_arena_at(c->host_arena, at_iwork);
    return 0;
}

static void eig_free(eig_call *c)
{
    GL_FN(tridiag_q_free)(c->ops, &c->q);
    gl_host_free(c->host_arena);
}

/* Stage 3 and the vectors: Z of T (on the device, or on the host) and
 * z = Q Z. */
static int eig_vectors(eig_call *c, const gl_scalar *a, lapack_int *m,
                       gl_real *w, gl_scalar *z, lapack_int ldz,
                       lapack_int *isuppz, lapack_int *ifail)
{
    const GL_FN(ops) *ops = c->ops;
    const gl_eig_job *job = c->job;
    lapack_int n = c->n;
    /* ?syevr's subsets: the whole divide and conquer on the device, then
     * the selection, where that is faster (subset_by_dc) */
    if (ops->real_fill && !c->streamed && job->driver == GL_EIG_SYEVR &&
        !c->all && subset_by_dc(job, n, c->d, c->e, c->sigma))
        c->on_device = 1;
    if (c->on_device) {
        /* ?syevr's ?stebz and ?stein after a failed ?stedc: LAPACK's */
        c->info = GL_FN(dc_vectors_on_device)(
            ops, &c->q, c->d, c->e, w, c->all ? isuppz : NULL,
            job->driver == GL_EIG_SYEVD, c->work, z, ldz,
            (const void *)z == (const void *)a ? job->uplo : 0,
            c->all ? NULL : job, c->sigma, m, &c->t3);
        return c->info < 0 ? GL_STAGE_FAULT : 0;
    }
    gl_real *zt = c->work, *rest = zt + (size_t)n * (size_t)n;
    c->info = GL_FN(tridiagonal_vectors)(ops, job, n, c->d, c->e, c->sigma, m,
                                         w, zt, isuppz, ifail, rest,
                                         c->iwork);
    if (c->info < 0)
        return GL_STAGE_FAULT;
    c->t3 = gl_profile_stage(ops->ctx, "back");
    return (c->streamed ? GL_FN(tridiag_q_apply_streamed)(ops, &c->q, *m, zt,
                                                          n, z, ldz)
                        : GL_FN(tridiag_q_apply)(ops, &c->q, *m, zt, n, z,
                                                 ldz))
               ? GL_STAGE_FAULT
               : 0;
}

/* Stage 3 of the values as the driver does it. */
static int eig_values(eig_call *c, lapack_int *m, gl_real *w)
{
    const GL_FN(ops) *ops = c->ops;
    const gl_eig_job *job = c->job;
    lapack_int n = c->n;
    int use_sterf = job->driver == GL_EIG_SYEV ||
                    job->driver == GL_EIG_SYEVD ||
                    (job->driver == GL_EIG_SYEVR && c->all) ||
                    (job->driver == GL_EIG_SYEVX && c->all &&
                     job->abstol <= 0);
    int done = 0;
    /* on a device, all n values at once by bisection (a failed device
     * restarts the call on LAPACK, as everywhere) */
    if (use_sterf && ops->tridiag_values) {
        if (ops->tridiag_values(ops, n, c->d, c->e, w) != 0)
            return GL_STAGE_FAULT;
        *m = n;
        done = 1;
    } else if (use_sterf) {
        gl_real *e2 = c->work + 4 * n;
        for (lapack_int i = 0; i < n; i++)
            w[i] = c->d[i];
        for (lapack_int i = 0; i + 1 < n; i++)
            e2[i] = c->e[i];
        c->f->sterf(&n, w, e2, &c->info);
        if (c->info == 0)
            *m = n;
        /* the expert drivers retry a failed ?sterf with ?stebz */
        done = c->info == 0 || !c->expert;
        if (!done)
            c->info = 0;
    }
    if (!done) {
        c->info = scaled_stebz(c->f, job, "E", n, c->d, c->e, c->sigma, m, w,
                               c->iwork, c->iwork + n, c->work,
                               c->iwork + 2 * n);
        /* ?stebz (ORDER 'E') orders by split block; the drivers document
         * ascending order. */
        GL_FN(sort_ascending)(w, (size_t)*m);
    }
    c->t3 = gl_profile_stage(ops->ctx, "out");
    return 0;
}

/* The method of the call (docs/design/methods.md): the context's, as the
 * policy chose it (lapack_api/entry.c), where it can run this job: the
 * vendor's solver for the whole spectrum of ?syev/?syevd only (the policy
 * asks it only where the runtime has one), the one-stage reduction on a
 * device only; the two-stage reduction otherwise. */
static gl_method eig_method(const GL_FN(ops) *ops, const gl_eig_job *job)
{
    gl_method method = ops->ctx ? ops->ctx->method : GL_METHOD_TWO_STAGE;
    if (ops->host_memory)
        return GL_METHOD_TWO_STAGE;
    if (method == GL_METHOD_VENDOR &&
        (job->range != 'A' ||
         (job->driver != GL_EIG_SYEV && job->driver != GL_EIG_SYEVD)))
        return GL_METHOD_TWO_STAGE;
    return method;
}

/* The columns of Z the lean and streamed plans make: RANGE 'I' knows
 * them, 'V' counts all. */
static lapack_int z_columns(const gl_eig_job *job, lapack_int n)
{
    return job->range == 'I' ? job->iu - job->il + 1 : n;
}

/* Stage 3 of the lean and streamed vectors: on the host, the merges of
 * the divide and conquer multiplied on the device (?syevd's, and
 * ?syevr's whole spectrum). */
static int device_products(const gl_eig_job *job, lapack_int n, int vectors)
{
    return vectors &&
           (job->driver == GL_EIG_SYEVD ||
            (job->driver == GL_EIG_SYEVR && z_columns(job, n) == n &&
             job->range != 'V'));
}

/* The streamed plan's chase in segments (streamed_segment): the plan and
 * the pipeline ask it alike, with the budget in tuning. */
static lapack_int streamed_segment(const gl_tuning *tuning,
                                   const gl_eig_job *job, lapack_int n,
                                   int vectors, int b, lapack_int group)
{
    return vectors ? GL_FN(streamed_segment)(
                         tuning, n, b, gl_tune_ooc_tile(n, b), group,
                         z_columns(job, n), device_products(job, n, vectors))
                   : 0;
}

/* gl_s_eig_device_bytes gl_d_eig_device_bytes gl_c_eig_device_bytes gl_z_eig_device_bytes */
size_t GL_FN(eig_device_bytes)(const gl_tuning *tuning, const gl_eig_job *job,
                               lapack_int n, int vectors, gl_method method,
                               gl_plan_tier tier, size_t *largest)
{
    const size_t es = sizeof(gl_scalar), rs = sizeof(gl_real);
    const size_t nn = (size_t)n * (size_t)n;
    *largest = nn * es;
    lapack_int m = z_columns(job, n);
    int products = device_products(job, n, vectors);
    if (tier == GL_PLAN_LEAN)   /* the vectors, by two stages */
        return vectors && method != GL_METHOD_VENDOR
                   ? GL_FN(lean_device_bytes)(tuning, n, m, products)
                   : SIZE_MAX;
    if (tier == GL_PLAN_STREAMED) {   /* by two stages */
        if (method == GL_METHOD_VENDOR)
            return SIZE_MAX;
        int b = vectors ? gl_tune_ooc_band(n)
                        : gl_tune_ooc_wide_band(tuning, n);
        int bt = vectors ? b : gl_tune_ooc_chase_band(n, b);
        lapack_int group =
            vectors ? gl_tune_group(tuning, b < n - 1 ? b : n - 1) : 0;
        size_t bytes = GL_FN(streamed_device_bytes)(
            n, b, gl_tune_ooc_tile(n, b), group, m, products,
            streamed_segment(tuning, job, n, vectors, b, group));
        size_t narrowed =
            bt < b ? GL_FN(band_reduce_device_bytes)(tuning, n, b, bt) : 0;
        bytes = narrowed > bytes ? narrowed : bytes;
        *largest = bytes;
        return bytes;
    }
    if (method == GL_METHOD_VENDOR &&
        (job->range != 'A' ||
         (job->driver != GL_EIG_SYEV && job->driver != GL_EIG_SYEVD)))
        method = GL_METHOD_TWO_STAGE;
    if (method == GL_METHOD_VENDOR)   /* A, W, the solver's work as ?syevd's */
        return nn * es + (size_t)n * rs +
               (vectors ? 2 * nn + 6 * (size_t)n + 1 : 2 * (size_t)n + 1) * es;
    /* ?syevd and ?syevr's whole spectrum: Z of T on the device, with the
     * divide and conquer's two n^2 scratches; ?syevr's subsets may take
     * it (subset_by_dc decides from the values): counted so */
    int on_device = vectors && (job->driver == GL_EIG_SYEVD ||
                                job->driver == GL_EIG_SYEVR);
    size_t resident, reduce, back_chase = 0, back_panels;
    if (method == GL_METHOD_ONE_STAGE) {
        enum { NB = GL_ONE_STAGE_BLOCK };
        size_t panel = (size_t)n * NB;
        resident = nn * es + (vectors ? NB * (size_t)n * es : 0);
        reduce = (2 * panel + 4 * (size_t)n + 2 * NB + 2 + NB * (size_t)n) *
                 es;
        back_panels = GL_FN(apply_panels_device_bytes)(n - 1, n - 1, NB, m);
    } else {
        lapack_int b = gl_tune_band(tuning, 'H', GL_COMPLEX, n, vectors);
        lapack_int bw = b < n - 1 ? b : n - 1, group = gl_tune_group(tuning, bw);
        lapack_int ngroups;
        size_t store = vectors ? GL_FN(reflectors_slots)(n, bw, group,
                                                         &ngroups) *
                                     ((size_t)bw + 1) * es
                               : 0;
        resident = nn * es +
                   (vectors ? (size_t)(bw > 0 ? bw : 1) * n * es + store : 0);
        reduce = (2 * (size_t)bw + 1) * n * es +
                 (bw > 1 ? GL_FN(sy2sb_device_bytes)(
                               n, bw, gl_tune_stage1_block(tuning, n, bw))
                         : 0);
        back_chase = GL_FN(apply_chase_device_bytes)(n, bw, group, m);
        back_panels = GL_FN(apply_panels_device_bytes)(
            n - bw, gl_sy2sb_reflectors(n, bw), bw, m);
    }
    if (!vectors)
        return resident + reduce;
    /* the vectors: Z of T (real) and its divide and conquer's scratch, Z
     * in the call's precision where it is not Z of T itself */
    size_t z = on_device ? nn * rs : 0;
    if (!on_device || GL_COMPLEX)
        z += (size_t)n * (size_t)m * es;
    /* with the merges' vectors of n values (d, z, the roots' columns) */
    size_t dc = on_device ? (3 * nn + 6 * (size_t)n) * rs : 0;
    size_t back = back_chase > back_panels ? back_chase : back_panels;
    size_t most = reduce > dc ? reduce : dc;
    if (z + back > most)
        most = z + back;
    return resident + most;
}

/* The pipeline in steps: the method (the vendor's solver is a pipeline
 * of its own), plan, reduce (he_tridiag: stages 1 and 2, or
 * he_tridiag_one_stage), stage 3 with the vectors or the values, read
 * (unscale); eig_free releases the call's memory whichever step stopped
 * it. */
/* gl_s_eig gl_d_eig gl_c_eig gl_z_eig */
int GL_FN(eig)(const GL_FN(ops) *ops, const gl_eig_job *job, lapack_int n,
               const gl_scalar *a, lapack_int lda, lapack_int *m, gl_real *w,
               gl_scalar *z, lapack_int ldz, lapack_int *isuppz,
               lapack_int *ifail, gl_stage_times *times)
{
    *m = 0;
    if (n == 0)
        return 0;
    gl_method method = eig_method(ops, job);
    if (method == GL_METHOD_VENDOR) {
        int info = GL_FN(eig_vendor)(ops, job, n, a, lda, w, z, ldz, times);
        *m = info == 0 ? n : 0;
        return info;
    }
    /* the streamed plan (a matrix larger than the device): A's copy in
     * host memory, streamed through it */
    gl_plan_tier plan = ops->host_memory ? GL_PLAN_IN_CORE : ops->ctx->plan;
    eig_call c = {.ops = ops, .f = GL_FN(lapack_fns_get)(), .job = job,
                  .n = n, .vectors = z != NULL};
    /* the lean plan (the vectors of a matrix that fits the device, its
     * in-core plan not): stage 1 in core, the rest as streamed */
    if (plan == GL_PLAN_LEAN && !c.vectors)
        plan = GL_PLAN_IN_CORE;
    c.streamed = plan != GL_PLAN_IN_CORE;
    int rc = eig_plan(&c, a, lda);
    GL_FN(tridiag_q) *keep = c.vectors ? &c.q : NULL;
    int b = plan != GL_PLAN_STREAMED ? 0
            : c.vectors               ? gl_tune_ooc_band(n)
                                      : gl_tune_ooc_wide_band(&ops->ctx->tuning, n);
    if (rc == 0 &&
        (plan == GL_PLAN_LEAN
             ? GL_FN(he_tridiag_lean)(ops, job->uplo, n, a, lda, c.sigma, c.d,
                                      c.e, keep, &c.reduce)
         : plan == GL_PLAN_STREAMED
             ? GL_FN(he_tridiag_streamed)(
                   ops, job->uplo, n, a, lda, c.sigma, b,
                   gl_tune_ooc_tile(n, b),
                   streamed_segment(&ops->ctx->tuning, job, n, c.vectors, b,
                                    gl_tune_group(&ops->ctx->tuning,
                                                  b < n - 1 ? b : n - 1)),
                   c.d, c.e, keep, &c.reduce)
         : method == GL_METHOD_ONE_STAGE
             ? GL_FN(he_tridiag_one_stage)(ops, job->uplo, n, a, lda, c.sigma,
                                           c.d, c.e, keep, &c.reduce)
             : GL_FN(he_tridiag)(ops, job->uplo, n, a, lda, c.sigma, c.d, c.e,
                                 NULL, 0, NULL, keep, &c.reduce)))
        rc = GL_STAGE_FAULT;
    if (rc == 0) {
        c.t2 = gl_profile_stage(ops->ctx, "stage3");
        rc = c.vectors ? eig_vectors(&c, a, m, w, z, ldz, isuppz, ifail)
                       : eig_values(&c, m, w);
    }
    if (rc == 0) {   /* read: unscale, the stage times */
        double t4 = gl_profile_stage(ops->ctx, "out");
        if (c.sigma != 1) {
            lapack_int count = c.info == 0                       ? *m
                               : job->driver == GL_EIG_SYEVD ? n
                                                               : c.info - 1;
            for (lapack_int i = 0; i < count && i < n; i++)
                w[i] *= 1 / c.sigma;
        }
        if (times)
            *times = (gl_stage_times){.stage1 = c.reduce.stage1,
                                      .stage2 = c.reduce.stage2,
                                      .stage3 = c.t3 - c.t2,
                                      .back = t4 - c.t3};
        rc = (int)c.info;
    }
    eig_free(&c);
    return rc;
}
