/* ?sytrd / ?hetrd: reduction to tridiagonal form with LAPACK-format
 * reflectors.  Mostly reached as a nested call from the system LAPACK's own
 * ?syev*, ?sygv* drivers, which then feed the result to ?orgtr/?ormtr. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "generated/sytrd.inc"

/* The device's ?sytrd is the one-stage reduction (kernels/pipelines/sytrd.c),
 * its two-stage method by he_tridiag's shapes. */
static int sytrd_plan(const void *args, const gl_tuning *tuning,
                      gl_call_plan *plan)
{
    const sytrd_args *a = args;
    return GL_FN(sytrd_plan_make)(tuning, *a->n, plan);
}

static gl_request sytrd_request(const void *args)
{
    const sytrd_args *a = args;
    return (gl_request){
        .arg_info = gl_check_sytrd(gl_upper(a->uplo), *a->n, *a->lda),
        .query = *a->lwork == -1,
        .size = *a->n,
        .vectors = 1,
        .plan = sytrd_plan,
        .supported = *a->n >= 2 && GL_INTS_FIT(*a->n, *a->lda),
        .short_workspace = *a->lwork < 1,
    };
}

static int sytrd_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const sytrd_args *a = args;
    (void)scratch;
    return GL_FN(sytrd)(ops, plan, gl_upper(a->uplo), *a->n, a->a, *a->lda,
                        a->d, a->e, a->tau, t);
}

/* dsytrd.f: LWORK < 1 gives INFO = -9, whatever N */
static int sytrd_minimums(const void *args, int64_t *min)
{
    (void)args;
    min[0] = 1;
    return 1;
}
