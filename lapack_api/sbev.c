/* ?sbev / ?hbev: eigenvalues and optionally eigenvectors of a symmetric
 * (Hermitian) band matrix, QR iteration. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "generated/sbev.inc"

static size_t sbev_device_bytes(const void *args, const gl_tuning *tuning,
                                int method, int tier, size_t *largest)
{
    const sbev_args *a = args;
    if (tier != GL_PLAN_IN_CORE)
        return SIZE_MAX;
    (void)method;
    return GL_FN(band_device_bytes)(tuning, 'H', *a->n, *a->n, *a->kd, 0,
                                    gl_upper(a->jobz) == 'N' ? 'N' : 'Q', 0,
                                    largest);
}

static gl_request sbev_request(const void *args)
{
    const sbev_args *a = args;
    return (gl_request){
        .arg_info = gl_check_sbev(gl_upper(a->jobz), gl_upper(a->uplo), *a->n,
                                  *a->kd, *a->ldab, *a->ldz),
        .size = *a->n,
        .vectors = gl_upper(a->jobz) != 'N',
        .device_bytes = sbev_device_bytes,
        .supported = *a->n >= 2 && GL_INTS_FIT(*a->n, *a->kd, *a->ldab, *a->ldz),
    };
}

static int sbev_run(const GL_FN(ops) *ops, const void *args,
                    gl_scratch *scratch, gl_stage_times *t)
{
    const sbev_args *a = args;
    (void)scratch;
    return GL_FN(sb_eig)(ops, gl_upper(a->uplo), 0, *a->n, *a->kd, a->ab,
                         *a->ldab, a->w,
                         gl_upper(a->jobz) == 'V' ? a->z : NULL, *a->ldz, t);
}
