/* ?syevd / ?heevd and their _2stage forms: symmetric (Hermitian)
 * eigenvalues and optionally eigenvectors, divide and conquer (numpy eigh). */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/call_shape.h"
#include "eig_accel.h"
#include "workspace.h"
#include "generated/syevd.inc"

static int syevd_plan(const void *args, const gl_tuning *tuning,
                     gl_call_plan *plan)
{
    const syevd_args *a = args;
    gl_call_shape shape = {.family = GL_FAMILY_SYEVD, .jobz = gl_upper(a->jobz),
                           .range = 'A', .n = *a->n};
    return GL_FN(call_plan_make)(&shape, tuning, plan);
}

static gl_request syevd_request(const void *args)
{
    const syevd_args *a = args;
    char jobz = gl_upper(a->jobz);
    return (gl_request){
        .arg_info = gl_check_syev(a->two_stage, jobz, gl_upper(a->uplo),
                                  *a->n, *a->lda),
        .query = *a->lwork == -1 ||
                 *a->liwork == -1 GL_IF_COMPLEX(|| *a->lrwork == -1),
        .size = *a->n,
        .vectors = jobz != 'N',
        .plan = syevd_plan,
        .supported = *a->n >= 2 && GL_INTS_FIT(*a->n, *a->lda),
        .short_workspace = !gl_workspace_syevd(
            GL_PREC_CHAR, a->two_stage, *a->jobz, *a->n, *a->lwork,
            GL_PICK(0, *a->lrwork), *a->liwork),
    };
}

static int syevd_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const syevd_args *a = args;
    gl_eig_job job = {.driver = GL_EIG_SYEVD, .uplo = gl_upper(a->uplo),
                      .range = 'A'};
    gl_scalar *z = gl_upper(a->jobz) == 'V' ? a->a : NULL;
    return gl_eig_run(ops, plan, &job, *a->n, a->a, *a->lda, a->w, z, *a->lda,
                      NULL, NULL, scratch, t);
}

/* LWORK, LRWORK (complex), LIWORK: the order of syevd_lengths */
static int syevd_minimums(const void *args, int64_t *min)
{
    const syevd_args *a = args;
    int64_t m[3];
    if (!gl_minimum_syevd(GL_PREC_CHAR, a->two_stage, *a->jobz, *a->n, m))
        return 0;
    int k = 0;
    min[k++] = m[0];
    GL_IF_COMPLEX(min[k++] = m[1];)
    min[k++] = m[2];
    return 1;
}
