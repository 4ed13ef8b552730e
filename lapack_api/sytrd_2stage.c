/* ?sytrd_2stage / ?hetrd_2stage: two-stage reduction to tridiagonal form
 * (stage-2 reflectors returned in HOUS2, LAPACK 3.7+). */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "entry.h"
#include "workspace.h"

typedef void sytrd_2stage_fn(const char *vect, const char *uplo,
                             const gl_int *n, gl_scalar *a,
                             const gl_int *lda, gl_real *d, gl_real *e,
                             gl_scalar *tau, gl_scalar *hous2,
                             const gl_int *lhous2, gl_scalar *work,
                             const gl_int *lwork, gl_int *info,
                             gl_strlen, gl_strlen);

static gl_routine routine =
    GL_ROUTINE_INIT(GL_LAPACK_STR(sytrd_2stage, hetrd_2stage));
static gl_routine scipy_routine =
    GL_ROUTINE_INIT(GL_SCIPY_STR(sytrd_2stage, hetrd_2stage));

static void sytrd_2stage_entry(gl_routine *routine,
    const char *vect, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *d, gl_real *e, gl_scalar *tau,
    gl_scalar *hous2, const gl_int *lhous2, gl_scalar *work,
    const gl_int *lwork, gl_int *info)
{
    GL_TO_WIDE_ENTRY(sytrd_2stage_entry, routine, vect, uplo, n, a, lda, d,
                     e, tau, hous2, lhous2, work, lwork, info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, sytrd_2stage_fn, info, vect, uplo, n, a, lda, d, e,  \
               tau, hous2, lhous2, work, lwork, info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info =
            gl_check_sytrd_2stage(gl_upper(vect), gl_upper(uplo), *n, *lda),
        .query = *lwork == -1 || *lhous2 == -1,
        .size = *n,
        .supported = gl_upper(vect) == 'N' && *n >= 2 &&
                     GL_INTS_FIT(*n, *lda) &&
                     gl_workspace_sytrd_2stage(GL_PREC_CHAR, *vect, *n,
                                               *lhous2, *lwork),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* HOUS2(1) and WORK(1) on exit: LHMIN and LWMIN, as the real
         * routine's query gives them */
        gl_scalar hous2_size = 0, work_size = 0;
        gl_int query = -1, query_info = 0;
        GL_FORWARD(routine, sytrd_2stage_fn, &query_info, vect, uplo, n, a,
                   lda, d, e, tau, &hous2_size, &query, &work_size, &query,
                   &query_info, 1, 1);
        double start = gl_now();
        gl_stage_times t = {0};
        int rc = query_info != 0
                     ? GL_STAGE_FAULT
                     : GL_FN(he_tridiag)(GL_FN(ops_for)(decision.path),
                                         gl_upper(uplo), *n, a, *lda, 1, d, e,
                                         a, *lda, tau, NULL, &t);
        decision = gl_accel_outcome(routine, decision, rc, &t, start);
        if (decision.path != GL_PATH_LAPACK) {
            *info = 0;
            hous2[0] = hous2_size;
            work[0] = work_size;
        }
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "vect=%c uplo=%c n=%d",
                gl_logchar(vect), gl_logchar(uplo), (int)*n);
#undef FORWARD
}
/* gl_s_sytrd_2stage_entry_wide gl_d_sytrd_2stage_entry_wide
 * gl_c_sytrd_2stage_entry_wide gl_z_sytrd_2stage_entry_wide */
GL_WIDE_ENTRY(sytrd_2stage_entry);

/* ssytrd_2stage_ dsytrd_2stage_ chetrd_2stage_ zhetrd_2stage_
 * ssytrd_2stage_64_ dsytrd_2stage_64_ chetrd_2stage_64_ zhetrd_2stage_64_ */
GL_EXPORT void GL_LAPACK_NAME(sytrd_2stage, hetrd_2stage)(
    const char *vect, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *d, gl_real *e, gl_scalar *tau,
    gl_scalar *hous2, const gl_int *lhous2, gl_scalar *work,
    const gl_int *lwork, gl_int *info, gl_strlen vect_len,
    gl_strlen uplo_len)
{
    (void)vect_len, (void)uplo_len;
    sytrd_2stage_entry(&routine, vect, uplo, n, a, lda, d, e, tau, hous2,
                       lhous2, work, lwork, info);
}

/* scipy_ssytrd_2stage_ scipy_dsytrd_2stage_ scipy_chetrd_2stage_ scipy_zhetrd_2stage_
 * scipy_ssytrd_2stage_64_ scipy_dsytrd_2stage_64_ scipy_chetrd_2stage_64_ scipy_zhetrd_2stage_64_ */
GL_EXPORT void GL_SCIPY_NAME(sytrd_2stage, hetrd_2stage)(
    const char *vect, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *d, gl_real *e, gl_scalar *tau,
    gl_scalar *hous2, const gl_int *lhous2, gl_scalar *work,
    const gl_int *lwork, gl_int *info, gl_strlen vect_len,
    gl_strlen uplo_len)
{
    (void)vect_len, (void)uplo_len;
    sytrd_2stage_entry(&scipy_routine, vect, uplo, n, a, lda, d, e, tau, hous2,
                       lhous2, work, lwork, info);
}
