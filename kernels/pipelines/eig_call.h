/* One call of the Hermitian eigenvalue pipeline (eig.c) and the steps
 * its memory tiers run it by (docs/design/memory.md): in core (eig.c),
 * the lean plan of the vectors and the streamed plans (eig_streamed.c).
 * Internal to those files. */
#ifndef GL_PIPELINES_EIG_CALL_H
#define GL_PIPELINES_EIG_CALL_H

#include "../backend/lapack_fns.h"
#include "pipelines.h"

typedef struct eig_call eig_call;

/* A tier's steps: reduce (stages 1 and 2: A times sigma to the
 * tridiagonal d and e, keeping Q in c->q with the vectors) and back (z =
 * Q diag(phase) Z_T for Z_T on the host, zt, ld n: scratch); keeps_z:
 * stage 3 may leave Z_T on the device for the back-transformation
 * (dc_vectors_on_device), where the tier has the device's room for it;
 * device_bytes: what the tier takes of a device of this tuning by the
 * plan's method and room (eig_plan_make). */
typedef struct eig_tier {
    int keeps_z;
    int (*reduce)(eig_call *c, const gl_scalar *a, lapack_int lda);
    int (*back)(eig_call *c, lapack_int m, gl_real *zt, gl_scalar *z,
                lapack_int ldz);
    size_t (*device_bytes)(const gl_tuning *tuning, const gl_eig_job *job,
                           lapack_int n, int vectors,
                           const gl_call_plan *plan, size_t *largest);
} eig_tier;

/* One call of the pipeline: the decisions, the host arena (d, e, stage
 * 3's work, iwork: one allocation; the backend's memory of the reduction
 * is the tier's, kept in q for the vectors), and what a step hands to
 * the next.  eig_free releases it whatever step failed. */
struct eig_call {
    const GL_FN(ops) *ops;
    const gl_call_plan *plan;
    const GL_FN(lapack_fns) *f;
    const gl_eig_job *job;
    const eig_tier *tier;
    gl_method method;
    lapack_int n;
    int expert, vectors, all, on_device;
    gl_real sigma;
    void *host_arena;
    gl_real *d, *e, *work;    /* d, e, then stage 3's work */
    lapack_int *iwork;
    GL_FN(tridiag_q) q;
    lapack_int info;
    gl_stage_times reduce;
    double t2, t3;
};

/* The columns of Z the lean and streamed plans make: RANGE 'I' knows
 * them, 'V' counts all. */
static inline lapack_int gl_eig_z_columns(const gl_eig_job *job, lapack_int n)
{
    return job->range == 'I' ? job->iu - job->il + 1 : n;
}

/* Stage 3 of the lean and streamed vectors: on the host, the merges of
 * the divide and conquer multiplied on the device (?syevd's, and
 * ?syevr's whole spectrum). */
static inline int gl_eig_device_products(const gl_eig_job *job,
                                         lapack_int n, int vectors)
{
    return vectors &&
           (job->driver == GL_EIG_SYEVD ||
            (job->driver == GL_EIG_SYEVR && gl_eig_z_columns(job, n) == n &&
             job->range != 'V'));
}

/* The shapes of a call's plan by its tier, from the device's tuning
 * (plans.c, the planner's): in core the two-stage reduction's
 * (he_tridiag_plan; the one-stage's panels and the vendor's solver have
 * none), the lean plan's, the streamed plan's; 0 where the job has no
 * such tier (the lean plan without vectors). */
int GL_FN(eig_shape)(const gl_tuning *tuning, const gl_eig_job *job,
                     lapack_int n, int vectors, gl_call_plan *plan);

/* The tiers beyond in core (eig_streamed.c). */
extern const eig_tier GL_FN(eig_lean_tier);
extern const eig_tier GL_FN(eig_streamed_tier);

#endif
