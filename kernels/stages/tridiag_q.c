/* Q of a tridiagonal reduction as the eigenvector pipelines keep it
 * (backtransform.h tridiag_q): its memory, its application to vectors in
 * the backend's memory (the chase's reflectors, then stage 1's panels or
 * the one-stage reduction's), over the devices of the call's set
 * (kernels/tiers/peers.c) where it has some, and the reads of the
 * vectors into the caller's arrays, over the caller's input where they
 * overwrite it; and stage 3 by ?stedc with its vectors kept on the
 * device until Q has taken them (dc_vectors_on_device). */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../tiers/peers.h"
#include "backtransform.h"
#include "stage3.h"
#include "stages.h"

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
    return !q->phase || GL_FN(reflectors_alloc)(ops, &q->chase, q->n, q->b,
                                                q->group, 0)
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

/* gl_s_tridiag_q_apply gl_d_tridiag_q_apply gl_c_tridiag_q_apply gl_z_tridiag_q_apply */
int GL_FN(tridiag_q_apply)(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                           lapack_int m, const gl_real *zt, lapack_int ldzt,
                           gl_scalar *z, lapack_int ldz)
{
    return q_apply(ops, q, m, zt, ldzt, NULL, z, ldz, 'A');
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
