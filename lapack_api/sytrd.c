/* ?sytrd / ?hetrd: reduction to tridiagonal form with LAPACK-format
 * reflectors.  Mostly reached as a nested call from the system LAPACK's own
 * ?syev*, ?sygv* drivers, which then feed the result to ?orgtr/?ormtr. */
#include "entry.h"
#include "precision.h"

typedef void sytrd_fn(const char *uplo, const lapack_int *n, gl_scalar *a,
                      const lapack_int *lda, gl_real *d, gl_real *e,
                      gl_scalar *tau, gl_scalar *work, const lapack_int *lwork,
                      lapack_int *info, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(sytrd, hetrd));

GL_EXPORT void GL_LAPACK_NAME(sytrd, hetrd)(
    const char *uplo, const lapack_int *n, gl_scalar *a, const lapack_int *lda,
    gl_real *d, gl_real *e, gl_scalar *tau, gl_scalar *work,
    const lapack_int *lwork, lapack_int *info, gl_strlen uplo_len)
{
    (void)uplo_len;
#define FORWARD()                                                             \
    GL_FORWARD(&routine, sytrd_fn, info, uplo, n, a, lda, d, e, tau, work,    \
               lwork, info, 1)
    gl_call call;
    if (gl_call_begin(&call, &routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = &routine,
        .arg_info = gl_check_sytrd(gl_upper(uplo), *n, *lda),
        .query = *lwork == -1,
        .size = *n,
    };
    gl_decision decision = gl_policy(&request);
    FORWARD();
    gl_call_end(&call, decision, *info, "uplo=%c n=%d", gl_logchar(uplo),
                (int)*n);
#undef FORWARD
}
