/* ?gesdd: singular value decomposition, divide and conquer (numpy, scipy,
 * R and torch use it for svd). */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "workspace.h"
#include "generated/gesdd.inc"

static int gesdd_plan(const void *args, const gl_tuning *tuning,
                     gl_call_plan *plan)
{
    const gesdd_args *a = args;
    char z = gl_upper(a->jobz);
    gl_svd_job job = {.stage3 = GL_SVD_BDSDC, .jobu = z == 'O' ? 'S' : z,
                      .jobvt = z == 'O' ? 'S' : z};
    return GL_FN(svd_plan_make)(tuning, &job, *a->m, *a->n,
                                z == 'O' && *a->m >= *a->n,
                                z == 'O' && *a->m < *a->n, plan);
}

static gl_request gesdd_request(const void *args)
{
    const gesdd_args *a = args;
    gl_int m = *a->m, n = *a->n;
    return (gl_request){
        .arg_info = gl_check_gesdd(gl_upper(a->jobz), m, n, *a->lda, *a->ldu,
                                   *a->ldvt),
        .query = *a->lwork == -1,
        .size = m < n ? m : n,
        .vectors = gl_upper(a->jobz) != 'N',
        .plan = gesdd_plan,
        .supported = GL_INTS_FIT(m, n, *a->lda, *a->ldu, *a->ldvt),
        .short_workspace =
            !gl_workspace_gesdd(GL_COMPLEX, *a->jobz, m, n, *a->lwork),
    };
}

static int gesdd_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const gesdd_args *a = args;
    (void)scratch;
    /* Where U and VT go: JOBZ='O' overwrites A with U (m >= n) or with VT
     * (m < n); 'S' and 'O' give min(m,n) vectors per side. */
    char z = gl_upper(a->jobz);
    gl_svd_job job = {.stage3 = GL_SVD_BDSDC, .jobu = z, .jobvt = z};
    gl_scalar *u = a->u, *vt = a->vt;
    gl_int ldu = *a->ldu, ldvt = *a->ldvt;
    if (z == 'O') {
        job.jobu = job.jobvt = 'S';
        if (*a->m >= *a->n)
            u = a->a, ldu = *a->lda;
        else
            vt = a->a, ldvt = *a->lda;
    }
    return GL_FN(svd)(ops, plan, &job, *a->m, *a->n, a->a, *a->lda, a->s, u,
                      ldu, vt, ldvt, NULL, t);
}

static int gesdd_minimums(const void *args, int64_t *min)
{
    const gesdd_args *a = args;
    return gl_minimum_gesdd(GL_COMPLEX, *a->jobz, *a->m, *a->n, &min[0]);
}
