/* ?syevr / ?heevr and their _2stage forms: selected eigenvalues and
 * optionally eigenvectors, MRRR (scipy eigh, R eigen). */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/call_shape.h"
#include "eig_accel.h"
#include "syevr_check.h"
#include "workspace.h"
#include "generated/syevr.inc"

static int syevr_plan(const void *args, const gl_tuning *tuning,
                     gl_call_plan *plan)
{
    const syevr_args *a = args;
    gl_call_shape shape = {.family = GL_FAMILY_SYEVR, .jobz = gl_upper(a->jobz),
                           .range = gl_upper(a->range), .n = *a->n};
    if (shape.range == 'I')
        shape.count = *a->iu - *a->il + 1;
    return GL_FN(call_plan_make)(&shape, tuning, plan);
}

static gl_request syevr_request(const void *args)
{
    const syevr_args *a = args;
    gl_request request = gl_syevr_request(a->two_stage, a->jobz, a->range,
                                          a->uplo, a->n, a->lda, a->vl, a->vu,
                                          a->il, a->iu, a->ldz);
    request.plan = syevr_plan;
    request.query = *a->lwork == -1 ||
                    *a->liwork == -1 GL_IF_COMPLEX(|| *a->lrwork == -1);
    request.short_workspace =
        !gl_workspace_syevr(GL_PREC_CHAR, a->two_stage, *a->jobz, *a->n,
                            *a->lwork, GL_PICK(0, *a->lrwork), *a->liwork);
    return request;
}

static int syevr_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const syevr_args *a = args;
    gl_eig_job job = gl_eig_job_ranged(GL_EIG_SYEVR, a->uplo, a->range, a->vl,
                                       a->vu, a->il, a->iu, a->abstol);
    return gl_eig_run(ops, plan, &job, *a->n, a->a, *a->lda, a->w,
                      gl_upper(a->jobz) == 'V' ? a->z : NULL, *a->ldz,
                      a->isuppz, NULL, scratch, t);
}

static void syevr_finish(const void *args, gl_scratch *scratch, int accepted)
{
    const syevr_args *a = args;
    gl_eig_finish(scratch, accepted, *a->n, a->m, a->isuppz, NULL);
}

/* LWORK, LRWORK (complex), LIWORK: the order of syevr_lengths */
static int syevr_minimums(const void *args, int64_t *min)
{
    const syevr_args *a = args;
    int64_t m[3];
    if (!gl_minimum_syevr(GL_PREC_CHAR, a->two_stage, *a->jobz, *a->n, m))
        return 0;
    int k = 0;
    min[k++] = m[0];
    GL_IF_COMPLEX(min[k++] = m[1];)
    min[k++] = m[2];
    return 1;
}
