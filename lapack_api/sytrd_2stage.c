/* ?sytrd_2stage / ?hetrd_2stage: two-stage reduction to tridiagonal form
 * (stage-2 reflectors returned in HOUS2, LAPACK 3.7+). */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "workspace.h"
#include "generated/sytrd_2stage.inc"

/* The two-stage reduction of the values (kernels/pipelines/eig.c he_tridiag). */
static int sytrd_2stage_plan(const void *args, const gl_tuning *tuning,
                            gl_call_plan *plan)
{
    const sytrd_2stage_args *a = args;
    gl_eig_job job = {.driver = GL_EIG_SYEV, .range = 'A'};
    if (plan->tier != GL_PLAN_IN_CORE)   /* in core only */
        return 0;
    plan->method = GL_METHOD_TWO_STAGE;   /* the one method it has */
    return GL_FN(eig_plan_make)(tuning, &job, *a->n, 0, plan);
}

static gl_request sytrd_2stage_request(const void *args)
{
    const sytrd_2stage_args *a = args;
    return (gl_request){
        .arg_info = gl_check_sytrd_2stage(gl_upper(a->vect), gl_upper(a->uplo),
                                          *a->n, *a->lda),
        .query = *a->lwork == -1 || *a->lhous2 == -1,
        .size = *a->n,
        .plan = sytrd_2stage_plan,
        .supported = gl_upper(a->vect) == 'N' && *a->n >= 2 &&
                     GL_INTS_FIT(*a->n, *a->lda),
        .short_workspace = !gl_workspace_sytrd_2stage(GL_PREC_CHAR, *a->vect, *a->n,
                                               *a->lhous2, *a->lwork),
    };
}

static int sytrd_2stage_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                            const void *args, gl_scratch *scratch,
                            gl_stage_times *t)
{
    const sytrd_2stage_args *a = args;
    (void)scratch;
    return GL_FN(he_tridiag)(ops, plan, gl_upper(a->uplo), *a->n, a->a,
                             *a->lda, 1, a->d, a->e, a->a, *a->lda, a->tau,
                             NULL, t);
}

/* LHOUS2, LWORK */
static int sytrd_2stage_minimums(const void *args, int64_t *min)
{
    const sytrd_2stage_args *a = args;
    return gl_minimum_sytrd_2stage(GL_PREC_CHAR, *a->vect, *a->n, min);
}
