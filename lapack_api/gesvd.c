/* ?gesvd: singular value decomposition, QR iteration (Octave's svd). */
#include "entry.h"
#include "precision.h"

typedef void gesvd_fn(const char *jobu, const char *jobvt, const lapack_int *m,
                      const lapack_int *n, gl_scalar *a, const lapack_int *lda,
                      gl_real *s, gl_scalar *u, const lapack_int *ldu,
                      gl_scalar *vt, const lapack_int *ldvt, gl_scalar *work,
                      const lapack_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
                      lapack_int *info, gl_strlen, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(gesvd, gesvd));

GL_EXPORT void GL_LAPACK_NAME(gesvd, gesvd)(
    const char *jobu, const char *jobvt, const lapack_int *m,
    const lapack_int *n, gl_scalar *a, const lapack_int *lda, gl_real *s,
    gl_scalar *u, const lapack_int *ldu, gl_scalar *vt,
    const lapack_int *ldvt, gl_scalar *work, const lapack_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, ) lapack_int *info, gl_strlen jobu_len,
    gl_strlen jobvt_len)
{
    (void)jobu_len, (void)jobvt_len;
#define FORWARD()                                                             \
    GL_FORWARD(&routine, gesvd_fn, info, jobu, jobvt, m, n, a, lda, s, u,     \
               ldu, vt, ldvt, work, lwork, GL_IF_COMPLEX(rwork, ) info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, &routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = &routine,
        .arg_info = gl_check_gesvd(gl_upper(jobu), gl_upper(jobvt), *m, *n,
                                   *lda, *ldu, *ldvt),
        .query = *lwork == -1,
        .size = *m < *n ? *m : *n,
    };
    gl_decision decision = gl_policy(&request);
    FORWARD();
    gl_call_end(&call, decision, *info, "jobu=%c jobvt=%c m=%d n=%d",
                gl_logchar(jobu), gl_logchar(jobvt), (int)*m, (int)*n);
#undef FORWARD
}
