/* ?gesvd: singular value decomposition, QR iteration (Octave's svd). */
#include <complex.h>
#include <stdlib.h>

#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "entry_skeleton.h"
#include "workspace.h"
#include "generated/gesvd.inc"

static int gesvd_plan(const void *args, const gl_tuning *tuning,
                     gl_call_plan *plan)
{
    const gesvd_args *a = args;
    char ju = gl_upper(a->jobu), jv = gl_upper(a->jobvt);
    gl_svd_job job = {.stage3 = GL_SVD_BDSDC_RESTART,
                      .jobu = ju == 'O' ? 'S' : ju,
                      .jobvt = jv == 'O' ? 'S' : jv};
    return GL_FN(svd_plan_make)(tuning, &job, *a->m, *a->n, ju == 'O',
                                jv == 'O', plan);
}

static gl_request gesvd_request(const void *args)
{
    const gesvd_args *a = args;
    char ju = gl_upper(a->jobu), jv = gl_upper(a->jobvt);
    gl_int m = *a->m, n = *a->n;
    return (gl_request){
        .arg_info = gl_check_gesvd(ju, jv, m, n, *a->lda, *a->ldu, *a->ldvt),
        .query = *a->lwork == -1,
        .size = m < n ? m : n,
        .vectors = ju != 'N' || jv != 'N',
        .plan = gesvd_plan,
        .supported = GL_INTS_FIT(m, n, *a->lda, *a->ldu, *a->ldvt),
        .short_workspace = !gl_workspace_gesvd(GL_LAPACK_STR(gesvd, gesvd)[0],
                                        *a->jobu, *a->jobvt, m, n, *a->lwork),
    };
}

static int gesvd_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     const void *args, gl_scratch *scratch,
                     gl_stage_times *t)
{
    const gesvd_args *a = args;
    /* INFO > 0 leaves the unconverged superdiagonal in WORK(2:) (real) or
     * RWORK(1:) (complex), unscaled: E, kept for gesvd_finish. */
    gl_int minmn = *a->m < *a->n ? *a->m : *a->n;
    gl_real *e = scratch->owned[0] =
        malloc(sizeof *e * (size_t)(minmn > 1 ? minmn : 1));
    if (!e)
        return GL_STAGE_FAULT;
    /* 'O' puts U (min(m,n) columns) or VT (min(m,n) rows) into A.  The
     * vectors of the bidiagonal by ?bdsdc: ?bdsqr's O(n^3) Givens
     * rotations on the host took 20-40 times the rest of the call
     * (docs/architecture.md, "What our path returns"); the SVD is the
     * same to LAPACK's accuracy (unique up to the signs of singular
     * vector pairs), and a
     * ?bdsdc failure restarts the call on LAPACK, so INFO > 0 keeps its
     * ?bdsqr meaning. */
    char ju = gl_upper(a->jobu), jv = gl_upper(a->jobvt);
    gl_svd_job job = {.stage3 = GL_SVD_BDSDC_RESTART,
                      .jobu = ju == 'O' ? 'S' : ju,
                      .jobvt = jv == 'O' ? 'S' : jv};
    return GL_FN(svd)(ops, plan, &job, *a->m, *a->n, a->a, *a->lda, a->s,
                      ju == 'O' ? a->a : a->u, ju == 'O' ? *a->lda : *a->ldu,
                      jv == 'O' ? a->a : a->vt,
                      jv == 'O' ? *a->lda : *a->ldvt, e, t);
}

static void gesvd_finish(const void *args, gl_scratch *scratch, int accepted)
{
    const gesvd_args *a = args;
    gl_real *e = scratch->owned[0];
    gl_int minmn = *a->m < *a->n ? *a->m : *a->n;
    for (gl_int i = 0; accepted && *a->info > 0 && i + 1 < minmn; i++)
#if GL_COMPLEX
        a->rwork[i] = e[i];
#else
        a->work[i + 1] = e[i];
#endif
    free(e);
}

/* LAPACK's minimum, or where the LP64 routine's choice of path overflows
 * (gl_gesvd_lp64_need past the limit) the workspace of its largest path */
static int gesvd_minimums(const void *args, int64_t *min)
{
    const gesvd_args *a = args;
    if (!gl_minimum_gesvd(GL_PREC_CHAR, *a->jobu, *a->jobvt, *a->m, *a->n,
                          &min[0]))
        return 0;
    int64_t need = gl_gesvd_lp64_need(*a->m, *a->n, *a->lda);
    if (need > gl_lwork_limit() && need > min[0])
        min[0] = need;
    return 1;
}
