/* ?sbev / ?hbev: eigenvalues and optionally eigenvectors of a symmetric
 * (Hermitian) band matrix, QR iteration. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "generated/sbev.inc"

static int sbev_plan(const void *args, const gl_tuning *tuning,
                    gl_call_plan *plan)
{
    const sbev_args *a = args;
    return GL_FN(band_plan_make)(tuning, 'H', *a->n, *a->n, *a->kd, 0,
                                 gl_upper(a->jobz) == 'N' ? 'N' : 'Q', 0,
                                 plan);
}

static gl_request sbev_request(const void *args)
{
    const sbev_args *a = args;
    return (gl_request){
        .arg_info = gl_check_sbev(gl_upper(a->jobz), gl_upper(a->uplo), *a->n,
                                  *a->kd, *a->ldab, *a->ldz),
        .size = *a->n,
        .vectors = gl_upper(a->jobz) != 'N',
        .plan = sbev_plan,
        .supported = *a->n >= 2 && GL_INTS_FIT(*a->n, *a->kd, *a->ldab, *a->ldz),
    };
}

static int sbev_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                    const void *args, gl_scratch *scratch,
                    gl_stage_times *t)
{
    const sbev_args *a = args;
    (void)scratch;
    return GL_FN(sb_eig)(ops, plan, gl_upper(a->uplo), 0, *a->n, *a->kd,
                         a->ab, *a->ldab, a->w,
                         gl_upper(a->jobz) == 'V' ? a->z : NULL, *a->ldz, t);
}
