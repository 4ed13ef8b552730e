/* The device plan of a call described by its shape (call_shape.h): the
 * same planners the routines' entries ask (eig_device_bytes,
 * svd_device_bytes) with the jobs the entries give them. */
#include "../../runtime/precision.h"
#include "../call_shape.h"
#include "pipelines.h"

static size_t eig_bytes(const gl_call_shape *s, const gl_tuning *tuning,
                        int method, int tier, size_t *largest)
{
    static const gl_eig_driver drivers[] = {
        [GL_FAMILY_SYEV] = GL_EIG_SYEV, [GL_FAMILY_SYEVD] = GL_EIG_SYEVD,
        [GL_FAMILY_SYEVR] = GL_EIG_SYEVR, [GL_FAMILY_SYEVX] = GL_EIG_SYEVX};
    gl_eig_job job = {.driver = drivers[s->family], .range = s->range};
    if (job.range == 'I')
        job.il = 1, job.iu = (lapack_int)s->count;
    return GL_FN(eig_device_bytes)(tuning, &job, (lapack_int)s->n,
                                   s->jobz != 'N', method, (gl_plan_tier)tier,
                                   largest);
}

static size_t svd_bytes(const gl_call_shape *s, const gl_tuning *tuning,
                        int tier, size_t *largest)
{
    /* 'O' writes U (m >= n) or VT over A: ?gesvd's per side, ?gesdd's
     * by the shape */
    int gesdd = s->family == GL_FAMILY_GESDD, wide = s->m < s->n;
    gl_svd_job job = {.stage3 = gesdd ? GL_SVD_BDSDC : GL_SVD_BDSDC_RESTART,
                      .jobu = s->jobu == 'O' ? 'S' : s->jobu,
                      .jobvt = s->jobvt == 'O' ? 'S' : s->jobvt};
    int u_over = s->jobu == 'O' && (!gesdd || !wide);
    int vt_over = s->jobvt == 'O' && (!gesdd || wide);
    return GL_FN(svd_device_bytes)(tuning, &job, (lapack_int)s->m,
                                   (lapack_int)s->n, u_over, vt_over,
                                   (gl_plan_tier)tier, largest);
}

/* gl_s_call_device_bytes gl_d_call_device_bytes gl_c_call_device_bytes gl_z_call_device_bytes */
GL_CALL_DEVICE_BYTES(GL_P)
{
    const gl_call_shape *s = call;
    return gl_families[s->family].kind == GL_KIND_SVD
               ? svd_bytes(s, tuning, tier, largest)
               : eig_bytes(s, tuning, method, tier, largest);
}
