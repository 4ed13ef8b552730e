/* ?sbevd / ?hbevd: eigenvalues and optionally eigenvectors of a symmetric
 * (Hermitian) band matrix, divide and conquer. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "workspace.h"
#include "generated/sbevd.inc"

static int sbevd_plan(const void *args, const gl_tuning *tuning,
                     gl_call_plan *plan)
{
    const sbevd_args *a = args;
    return GL_FN(band_plan_make)(tuning, 'H', *a->n, *a->n, *a->kd, 0,
                                 gl_upper(a->jobz) == 'N' ? 'N' : 'D', 0,
                                 plan);
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
        .plan = sbevd_plan,
        .supported = n >= 2 && GL_INTS_FIT(n, kd, *a->ldab, *a->ldz),
        .short_workspace = !gl_workspace_sbevd(GL_COMPLEX, *a->jobz, n, *a->lwork,
                                        GL_PICK(0, *a->lrwork), *a->liwork),
    };
}

static int sbevd_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const sbevd_args *a = args;
    gl_scalar *z = gl_upper(a->jobz) == 'V' ? a->z : NULL;
    (void)scratch;
    return GL_FN(sb_eig)(ops, plan, gl_upper(a->uplo), 1, *a->n, *a->kd,
                         a->ab, *a->ldab, a->w, z, *a->ldz, t);
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
