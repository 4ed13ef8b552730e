/* The plan of a call described by its shape (call_shape.h): the same
 * planners the routines' entries ask (eig_plan_make, svd_plan_make) with
 * the jobs the entries give them. */
#include "../../runtime/precision.h"
#include "../call_shape.h"
#include "pipelines.h"

static int eig_plan(const gl_call_shape *s, const gl_tuning *tuning,
                    gl_call_plan *plan)
{
    static const gl_eig_driver drivers[] = {
        [GL_FAMILY_SYEV] = GL_EIG_SYEV, [GL_FAMILY_SYEVD] = GL_EIG_SYEVD,
        [GL_FAMILY_SYEVR] = GL_EIG_SYEVR, [GL_FAMILY_SYEVX] = GL_EIG_SYEVX};
    gl_eig_job job = {.driver = drivers[s->family], .range = s->range};
    if (job.range == 'I')
        job.il = 1, job.iu = (lapack_int)s->count;
    return GL_FN(eig_plan_make)(tuning, &job, (lapack_int)s->n,
                                s->jobz != 'N', plan);
}

static int svd_plan(const gl_call_shape *s, const gl_tuning *tuning,
                    gl_call_plan *plan)
{
    /* 'O' writes U (m >= n) or VT over A: ?gesvd's per side, ?gesdd's
     * by the shape */
    int gesdd = s->family == GL_FAMILY_GESDD, wide = s->m < s->n;
    gl_svd_job job = {.stage3 = gesdd ? GL_SVD_BDSDC : GL_SVD_BDSDC_RESTART,
                      .jobu = s->jobu == 'O' ? 'S' : s->jobu,
                      .jobvt = s->jobvt == 'O' ? 'S' : s->jobvt};
    int u_over = s->jobu == 'O' && (!gesdd || !wide);
    int vt_over = s->jobvt == 'O' && (!gesdd || wide);
    return GL_FN(svd_plan_make)(tuning, &job, (lapack_int)s->m,
                                (lapack_int)s->n, u_over, vt_over, plan);
}

/* gl_s_call_plan_make gl_d_call_plan_make gl_c_call_plan_make gl_z_call_plan_make */
GL_CALL_PLAN_MAKE(GL_P)
{
    const gl_call_shape *s = call;
    return gl_families[s->family].kind == GL_KIND_SVD
               ? svd_plan(s, tuning, plan)
               : eig_plan(s, tuning, plan);
}
