/* ?sbtrd / ?hbtrd: symmetric (Hermitian) band matrix to tridiagonal form,
 * with Q on request. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "generated/sbtrd.inc"

static int sbtrd_plan(const void *args, const gl_tuning *tuning,
                     gl_call_plan *plan)
{
    const sbtrd_args *a = args;
    return GL_FN(band_plan_make)(tuning, 'H', *a->n, *a->n, *a->kd, 0,
                                 gl_upper(a->vect) == 'N' ? 'N' : 'Q', 0,
                                 plan);
}

static gl_request sbtrd_request(const void *args)
{
    const sbtrd_args *a = args;
    /* LDQ is read only when Q is wanted, as LAPACK does */
    char vect = gl_upper(a->vect);
    int wantq = vect == 'V' || vect == 'U';
    return (gl_request){
        .arg_info = gl_check_sbtrd(vect, gl_upper(a->uplo), *a->n, *a->kd,
                                   *a->ldab, wantq ? *a->ldq : 0),
        .size = *a->n,
        .vectors = vect != 'N',
        .plan = sbtrd_plan,
        .supported = *a->n >= 2 &&
                     GL_INTS_FIT(*a->n, *a->kd, *a->ldab, wantq ? *a->ldq : 1),
    };
}

static int sbtrd_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const sbtrd_args *a = args;
    char uplo = gl_upper(a->uplo), vect = gl_upper(a->vect);
    (void)scratch;
    if (vect == 'N')
        return GL_FN(sb_tridiag)(ops, plan, uplo, *a->n, *a->kd, a->ab,
                                 *a->ldab, 1, a->d, a->e, NULL, t);
    return GL_FN(sb_tridiag_q)(ops, plan, vect, uplo, *a->n, *a->kd, a->ab,
                               *a->ldab, a->d, a->e, a->q, *a->ldq, t);
}

/* T's diagonal and first off-diagonal go back into AB */
static void sbtrd_finish(const void *args, gl_scratch *scratch, int accepted)
{
    const sbtrd_args *a = args;
    gl_int n = *a->n, kd = *a->kd, ldab = *a->ldab;
    int upper = gl_upper(a->uplo) == 'U';
    (void)scratch;
    for (gl_int j = 0; accepted && j < n; j++)
        a->ab[(upper ? kd : 0) + (size_t)j * ldab] = a->d[j];
    for (gl_int j = 0; accepted && kd > 0 && j + 1 < n; j++) {
        if (upper)
            a->ab[kd - 1 + (size_t)(j + 1) * ldab] = a->e[j];
        else
            a->ab[1 + (size_t)j * ldab] = a->e[j];
    }
}
