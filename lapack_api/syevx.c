/* ?syevx / ?heevx and their _2stage forms: selected eigenvalues and
 * optionally eigenvectors, bisection and inverse iteration. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/call_shape.h"
#include "eig_accel.h"
#include "syevr_check.h"
#include "workspace.h"
#include "generated/syevx.inc"

static int syevx_plan(const void *args, const gl_tuning *tuning,
                     gl_call_plan *plan)
{
    const syevx_args *a = args;
    gl_call_shape shape = {.family = GL_FAMILY_SYEVX, .jobz = gl_upper(a->jobz),
                           .range = gl_upper(a->range), .n = *a->n};
    if (shape.range == 'I')
        shape.count = *a->iu - *a->il + 1;
    return GL_FN(call_plan_make)(&shape, tuning, plan);
}

static gl_request syevx_request(const void *args)
{
    const syevx_args *a = args;
    gl_request request = gl_syevr_request(a->two_stage, a->jobz, a->range,
                                          a->uplo, a->n, a->lda, a->vl, a->vu,
                                          a->il, a->iu, a->ldz);
    request.plan = syevx_plan;
    request.query = *a->lwork == -1;
    request.short_workspace = !gl_workspace_syevx(
        GL_PREC_CHAR, a->two_stage, *a->jobz, *a->n, *a->lwork);
    return request;
}

static int syevx_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const syevx_args *a = args;
    gl_eig_job job = gl_eig_job_ranged(GL_EIG_SYEVX, a->uplo, a->range, a->vl,
                                       a->vu, a->il, a->iu, a->abstol);
    gl_scalar *z = gl_upper(a->jobz) == 'V' ? a->z : NULL;
    return gl_eig_run(ops, plan, &job, *a->n, a->a, *a->lda, a->w, z,
                      *a->ldz, NULL, a->ifail, scratch, t);
}

static void syevx_finish(const void *args, gl_scratch *scratch, int accepted)
{
    const syevx_args *a = args;
    gl_eig_finish(scratch, accepted, *a->n, a->m, NULL, a->ifail);
}

static int syevx_minimums(const void *args, int64_t *min)
{
    const syevx_args *a = args;
    return gl_minimum_syevx(GL_PREC_CHAR, a->two_stage, *a->jobz, *a->n,
                            &min[0]);
}
