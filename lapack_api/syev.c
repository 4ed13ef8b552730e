/* ?syev / ?heev and ?syev_2stage / ?heev_2stage: symmetric (Hermitian)
 * eigenvalues and optionally eigenvectors, QR iteration. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/call_shape.h"
#include "eig_accel.h"
#include "workspace.h"
#include "generated/syev.inc"

static int syev_plan(const void *args, const gl_tuning *tuning,
                    gl_call_plan *plan)
{
    const syev_args *a = args;
    gl_call_shape shape = {.family = GL_FAMILY_SYEV, .jobz = gl_upper(a->jobz),
                           .range = 'A', .n = *a->n};
    return GL_FN(call_plan_make)(&shape, tuning, plan);
}

static gl_request syev_request(const void *args)
{
    const syev_args *a = args;
    gl_int n = *a->n;
    return (gl_request){
        .arg_info = gl_check_syev(a->two_stage, gl_upper(a->jobz),
                                  gl_upper(a->uplo), n, *a->lda),
        .query = *a->lwork == -1,
        .size = n,
        .vectors = gl_upper(a->jobz) != 'N',
        .plan = syev_plan,
        .supported = n >= 2 && GL_INTS_FIT(n, *a->lda),
        .short_workspace = !gl_workspace_syev(GL_PREC_CHAR, a->two_stage,
                                              *a->jobz, n, *a->lwork),
    };
}

static int syev_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                    const void *args, gl_scratch *scratch,
                    gl_stage_times *t)
{
    const syev_args *a = args;
    gl_eig_job job = {.driver = GL_EIG_SYEV, .uplo = gl_upper(a->uplo),
                      .range = 'A'};
    return gl_eig_run(ops, plan, &job, *a->n, a->a, *a->lda, a->w,
                      gl_upper(a->jobz) == 'V' ? a->a : NULL, *a->lda, NULL,
                      NULL, scratch, t);
}

static int syev_minimums(const void *args, int64_t *min)
{
    const syev_args *a = args;
    return gl_minimum_syev(GL_PREC_CHAR, a->two_stage, *a->jobz, *a->n,
                           &min[0]);
}
