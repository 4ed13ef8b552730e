/* ?sbevd / ?hbevd: eigenvalues and optionally eigenvectors of a symmetric
 * (Hermitian) band matrix, divide and conquer. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "workspace.h"
#include "generated/sbevd.inc"

static size_t sbevd_device_bytes(const void *args, const gl_tuning *tuning,
                                int method, int tier, size_t *largest)
{
    const sbevd_args *a = args;
    if (tier != GL_PLAN_IN_CORE)
        return SIZE_MAX;
    (void)method;
    return GL_FN(band_device_bytes)(tuning, 'H', *a->n, *a->n, *a->kd, 0,
                                    gl_upper(a->jobz) == 'N' ? 'N' : 'D', 0,
                                    largest);
}

static gl_request sbevd_request(const void *args)
{
    const sbevd_args *a = args;
    gl_int n = *a->n, kd = *a->kd;
    return (gl_request){
        .arg_info = gl_check_sbev(gl_upper(a->jobz), gl_upper(a->uplo), n, kd,
                                  *a->ldab, *a->ldz),
        .query = *a->lwork == -1 ||
                 *a->liwork == -1 GL_IF_COMPLEX(|| *a->lrwork == -1),
        .size = n,
        .vectors = gl_upper(a->jobz) != 'N',
        .device_bytes = sbevd_device_bytes,
        .supported = n >= 2 && GL_INTS_FIT(n, kd, *a->ldab, *a->ldz),
        .short_workspace = !gl_workspace_sbevd(GL_COMPLEX, *a->jobz, n, *a->lwork,
                                        GL_PICK(0, *a->lrwork), *a->liwork),
    };
}

static int sbevd_run(const GL_FN(ops) *ops, const void *args,
                     gl_scratch *scratch, gl_stage_times *t)
{
    const sbevd_args *a = args;
    gl_scalar *z = gl_upper(a->jobz) == 'V' ? a->z : NULL;
    (void)scratch;
    return GL_FN(sb_eig)(ops, gl_upper(a->uplo), 1, *a->n, *a->kd, a->ab,
                         *a->ldab, a->w, z, *a->ldz, t);
}

/* LWORK, LRWORK (complex), LIWORK: the order of sbevd_lengths */
static int sbevd_minimums(const void *args, int64_t *min)
{
    const sbevd_args *a = args;
    int64_t m[3];
    if (!gl_minimum_sbevd(GL_COMPLEX, *a->jobz, *a->n, m))
        return 0;
    int k = 0;
    min[k++] = m[0];
    GL_IF_COMPLEX(min[k++] = m[1];)
    min[k++] = m[2];
    return 1;
}
