/* The Hermitian eigenproblem's tiers beyond in core
 * (docs/design/memory.md): the streamed plan of a matrix larger than the
 * device (A's copy in host memory, streamed through it:
 * kernels/tiers/sy2sb_streamed.c he_tridiag_streamed) and the lean plan
 * of the vectors of a matrix that fits the device where the in-core plan
 * does not (stage 1 in core, the rest as streamed: he_tridiag_lean).
 * Both apply Q to Z_T in blocks of columns streamed through the device
 * (tridiag_q_apply_streamed), stage 3 on the host. */
#include <complex.h>
#include <stdint.h>

#include "../../runtime/precision.h"
#include "../../runtime/tune.h"
#include "../tiers/streamed.h"
#include "eig_call.h"

/* Stage 3 of the lean and streamed vectors: on the host, the merges of
 * the divide and conquer multiplied on the device (?syevd's, and
 * ?syevr's whole spectrum). */
static int device_products(const gl_eig_job *job, lapack_int n, int vectors)
{
    return vectors &&
           (job->driver == GL_EIG_SYEVD ||
            (job->driver == GL_EIG_SYEVR && gl_eig_z_columns(job, n) == n &&
             job->range != 'V'));
}

/* The streamed plan's chase in segments (streamed_segment): the plan and
 * the pipeline ask it alike, with the room the plan was fitted to. */
static lapack_int streamed_segment(const gl_room *room,
                                   const gl_eig_job *job, lapack_int n,
                                   int vectors, int b, lapack_int group)
{
    return vectors ? GL_FN(streamed_segment)(
                         room, n, b, gl_tune_ooc_tile(n, b), group,
                         gl_eig_z_columns(job, n),
                         device_products(job, n, vectors))
                   : 0;
}

/* Q in blocks of Z_T's columns, each up once past the parked panels and
 * stores. */
static int streamed_back(eig_call *c, lapack_int m, gl_real *zt,
                         gl_scalar *z, lapack_int ldz)
{
    return GL_FN(tridiag_q_apply_streamed)(c->ops, &c->q, m, zt, c->n, z,
                                           ldz);
}

/* The lean plan: stage 1 in core, its panels then parked. */
static int lean_reduce(eig_call *c, const gl_scalar *a, lapack_int lda)
{
    return GL_FN(he_tridiag_lean)(c->ops, c->job->uplo, c->n, a, lda,
                                  c->sigma, c->d, c->e,
                                  c->vectors ? &c->q : NULL, &c->reduce);
}

/* The lean plan holds the vectors only, by two stages. */
static size_t lean_device_bytes(const gl_tuning *tuning,
                                const gl_eig_job *job, lapack_int n,
                                int vectors, const gl_call_plan *plan,
                                size_t *largest)
{
    (void)plan;
    *largest = (size_t)n * (size_t)n * sizeof(gl_scalar);
    return vectors
               ? GL_FN(lean_device_bytes)(tuning, n, gl_eig_z_columns(job, n),
                                          device_products(job, n, vectors))
               : SIZE_MAX;
}

/* gl_s_eig_lean_tier gl_d_eig_lean_tier gl_c_eig_lean_tier gl_z_eig_lean_tier */
const eig_tier GL_FN(eig_lean_tier) = {
    .keeps_z = 0,
    .reduce = lean_reduce,
    .back = streamed_back,
    .device_bytes = lean_device_bytes,
};

/* The streamed plan's band: for the vectors the out-of-core band, for the
 * values a wide one (narrowed in core before the chase). */
static int streamed_band(const gl_tuning *tuning, lapack_int n, int vectors)
{
    return vectors ? gl_tune_ooc_band(n) : gl_tune_ooc_wide_band(tuning, n);
}

static int streamed_reduce(eig_call *c, const gl_scalar *a, lapack_int lda)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int n = c->n;
    int b = streamed_band(&ops->ctx->tuning, n, c->vectors);
    return GL_FN(he_tridiag_streamed)(
        ops, c->job->uplo, n, a, lda, c->sigma, b, gl_tune_ooc_tile(n, b),
        streamed_segment(&c->plan->room, c->job, n, c->vectors, b,
                         gl_tune_group(&ops->ctx->tuning,
                                       b < n - 1 ? b : n - 1)),
        c->d, c->e, c->vectors ? &c->q : NULL, &c->reduce);
}

/* By two stages: the passes, the band narrowed for the values, the chase
 * and the blocks of Z. */
static size_t streamed_device_bytes(const gl_tuning *tuning,
                                    const gl_eig_job *job, lapack_int n,
                                    int vectors, const gl_call_plan *plan,
                                    size_t *largest)
{
    *largest = (size_t)n * (size_t)n * sizeof(gl_scalar);
    lapack_int m = gl_eig_z_columns(job, n);
    int products = device_products(job, n, vectors);
    int b = streamed_band(tuning, n, vectors);
    int bt = vectors ? b : gl_tune_ooc_chase_band(n, b);
    lapack_int group =
        vectors ? gl_tune_group(tuning, b < n - 1 ? b : n - 1) : 0;
    size_t bytes = GL_FN(streamed_device_bytes)(
        n, b, gl_tune_ooc_tile(n, b), group, m, products,
        streamed_segment(&plan->room, job, n, vectors, b, group));
    size_t narrowed =
        bt < b ? GL_FN(band_reduce_device_bytes)(tuning, n, b, bt) : 0;
    bytes = narrowed > bytes ? narrowed : bytes;
    *largest = bytes;
    return bytes;
}

/* gl_s_eig_streamed_tier gl_d_eig_streamed_tier gl_c_eig_streamed_tier gl_z_eig_streamed_tier */
const eig_tier GL_FN(eig_streamed_tier) = {
    .keeps_z = 0,
    .reduce = streamed_reduce,
    .back = streamed_back,
    .device_bytes = streamed_device_bytes,
};
