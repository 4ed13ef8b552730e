/* ?sbtrd / ?hbtrd: symmetric (Hermitian) band matrix to tridiagonal form,
 * with Q on request. */
#include "entry.h"
#include "precision.h"

typedef void sbtrd_fn(const char *vect, const char *uplo, const lapack_int *n,
                      const lapack_int *kd, gl_scalar *ab,
                      const lapack_int *ldab, gl_real *d, gl_real *e,
                      gl_scalar *q, const lapack_int *ldq, gl_scalar *work,
                      lapack_int *info, gl_strlen, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(sbtrd, hbtrd));

GL_EXPORT void GL_LAPACK_NAME(sbtrd, hbtrd)(
    const char *vect, const char *uplo, const lapack_int *n,
    const lapack_int *kd, gl_scalar *ab, const lapack_int *ldab, gl_real *d,
    gl_real *e, gl_scalar *q, const lapack_int *ldq, gl_scalar *work,
    lapack_int *info, gl_strlen vect_len, gl_strlen uplo_len)
{
    (void)vect_len, (void)uplo_len;
#define FORWARD()                                                             \
    GL_FORWARD(&routine, sbtrd_fn, info, vect, uplo, n, kd, ab, ldab, d, e,   \
               q, ldq, work, info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, &routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = &routine,
        .arg_info =
            gl_check_sbtrd(gl_upper(vect), gl_upper(uplo), *n, *kd, *ldab, ldq),
        .size = *n,
    };
    gl_decision decision = gl_policy(&request);
    FORWARD();
    gl_call_end(&call, decision, *info, "vect=%c uplo=%c n=%d kd=%d",
                gl_logchar(vect), gl_logchar(uplo), (int)*n, (int)*kd);
#undef FORWARD
}
