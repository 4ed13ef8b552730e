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
#include "../tiers/streamed.h"
#include "eig_call.h"

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
    return GL_FN(he_tridiag_lean)(c->ops, c->plan, c->job->uplo, c->n, a,
                                  lda, c->sigma, c->d, c->e,
                                  c->vectors ? &c->q : NULL, &c->reduce);
}

/* The lean plan (the vectors only) by two stages. */
static size_t lean_device_bytes(const gl_tuning *tuning,
                                const gl_eig_job *job, lapack_int n,
                                int vectors, const gl_call_plan *plan,
                                size_t *largest)
{
    (void)tuning;
    *largest = (size_t)n * (size_t)n * sizeof(gl_scalar);
    return GL_FN(lean_device_bytes)(plan, n, gl_eig_z_columns(job, n),
                                    gl_eig_device_products(job, n, vectors));
}

/* gl_s_eig_lean_tier gl_d_eig_lean_tier gl_c_eig_lean_tier gl_z_eig_lean_tier */
const eig_tier GL_FN(eig_lean_tier) = {
    .keeps_z = 0,
    .reduce = lean_reduce,
    .back = streamed_back,
    .device_bytes = lean_device_bytes,
};

static int streamed_reduce(eig_call *c, const gl_scalar *a, lapack_int lda)
{
    return GL_FN(he_tridiag_streamed)(c->ops, c->plan, c->job->uplo, c->n, a,
                                      lda, c->sigma, c->d, c->e,
                                      c->vectors ? &c->q : NULL, &c->reduce);
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
    int products = gl_eig_device_products(job, n, vectors);
    int b = plan->band, bt = plan->chase_band;
    size_t bytes = GL_FN(streamed_device_bytes)(
        n, b, plan->tile, plan->group, m, products, plan->segment,
        plan->product_tile);
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
