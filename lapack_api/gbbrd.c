/* ?gbbrd: general band matrix to upper bidiagonal form, with Q, P**T and
 * C <- Q**T C on request. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "generated/gbbrd.inc"

static int gbbrd_plan(const void *args, const gl_tuning *tuning,
                     gl_call_plan *plan)
{
    const gbbrd_args *a = args;
    return GL_FN(band_plan_make)(tuning, 'G', *a->m, *a->n, *a->kl, *a->ku,
                                 gl_upper(a->vect) == 'N' ? 'N' : 'V',
                                 *a->ncc, plan);
}

static gl_request gbbrd_request(const void *args)
{
    const gbbrd_args *a = args;
    gl_int m = *a->m, n = *a->n;
    return (gl_request){
        .arg_info = gl_check_gbbrd(gl_upper(a->vect), m, n, *a->ncc, *a->kl,
                                   *a->ku, *a->ldab, *a->ldq, *a->ldpt,
                                   *a->ldc),
        .size = m < n ? m : n,
        .vectors = gl_upper(a->vect) != 'N' || *a->ncc > 0,
        .plan = gbbrd_plan,
        .supported = m >= 2 && n >= 2 &&
                     GL_INTS_FIT(m, n, *a->ncc, *a->kl, *a->ku, *a->ldab,
                                 *a->ldq, *a->ldpt, *a->ldc),
    };
}

/* D and E; AB is left as it was (LAPACK leaves unspecified values) */
static int gbbrd_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const gbbrd_args *a = args;
    (void)scratch;
    return GL_FN(gb_bidiag_q)(ops, plan, gl_upper(a->vect), *a->m, *a->n,
                              *a->ncc, *a->kl, *a->ku, a->ab, *a->ldab, a->d,
                              a->e, a->q, *a->ldq, a->pt, *a->ldpt, a->c,
                              *a->ldc, t);
}
