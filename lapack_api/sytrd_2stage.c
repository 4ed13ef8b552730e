/* ?sytrd_2stage / ?hetrd_2stage: two-stage reduction to tridiagonal form
 * (stage-2 reflectors returned in HOUS2, LAPACK 3.7+). */
#include "entry.h"
#include "precision.h"

typedef void sytrd_2stage_fn(const char *vect, const char *uplo,
                             const lapack_int *n, gl_scalar *a,
                             const lapack_int *lda, gl_real *d, gl_real *e,
                             gl_scalar *tau, gl_scalar *hous2,
                             const lapack_int *lhous2, gl_scalar *work,
                             const lapack_int *lwork, lapack_int *info,
                             gl_strlen, gl_strlen);

static gl_routine routine =
    GL_ROUTINE_INIT(GL_LAPACK_STR(sytrd_2stage, hetrd_2stage));

GL_EXPORT void GL_LAPACK_NAME(sytrd_2stage, hetrd_2stage)(
    const char *vect, const char *uplo, const lapack_int *n, gl_scalar *a,
    const lapack_int *lda, gl_real *d, gl_real *e, gl_scalar *tau,
    gl_scalar *hous2, const lapack_int *lhous2, gl_scalar *work,
    const lapack_int *lwork, lapack_int *info, gl_strlen vect_len,
    gl_strlen uplo_len)
{
    (void)vect_len, (void)uplo_len;
#define FORWARD()                                                             \
    GL_FORWARD(&routine, sytrd_2stage_fn, info, vect, uplo, n, a, lda, d, e,  \
               tau, hous2, lhous2, work, lwork, info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, &routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = &routine,
        .arg_info =
            gl_check_sytrd_2stage(gl_upper(vect), gl_upper(uplo), *n, *lda),
        .query = *lwork == -1 || *lhous2 == -1,
        .size = *n,
    };
    gl_decision decision = gl_policy(&request);
    FORWARD();
    gl_call_end(&call, decision, *info, "vect=%c uplo=%c n=%d",
                gl_logchar(vect), gl_logchar(uplo), (int)*n);
#undef FORWARD
}
