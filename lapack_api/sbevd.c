/* ?sbevd / ?hbevd: eigenvalues and optionally eigenvectors of a symmetric
 * (Hermitian) band matrix, divide and conquer. */
#include "entry.h"
#include "precision.h"

typedef void sbevd_fn(const char *jobz, const char *uplo, const lapack_int *n,
                      const lapack_int *kd, gl_scalar *ab,
                      const lapack_int *ldab, gl_real *w, gl_scalar *z,
                      const lapack_int *ldz, gl_scalar *work,
                      const lapack_int *lwork,
                      GL_IF_COMPLEX(gl_real *rwork, const lapack_int *lrwork, )
                      lapack_int *iwork, const lapack_int *liwork,
                      lapack_int *info, gl_strlen, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(sbevd, hbevd));

GL_EXPORT void GL_LAPACK_NAME(sbevd, hbevd)(
    const char *jobz, const char *uplo, const lapack_int *n,
    const lapack_int *kd, gl_scalar *ab, const lapack_int *ldab, gl_real *w,
    gl_scalar *z, const lapack_int *ldz, gl_scalar *work,
    const lapack_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const lapack_int *lrwork, )
    lapack_int *iwork, const lapack_int *liwork, lapack_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
#define FORWARD()                                                             \
    GL_FORWARD(&routine, sbevd_fn, info, jobz, uplo, n, kd, ab, ldab, w, z,   \
               ldz, work, lwork, GL_IF_COMPLEX(rwork, lrwork, ) iwork,        \
               liwork, info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, &routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = &routine,
        .arg_info = gl_check_sbev(gl_upper(jobz), gl_upper(uplo), *n, *kd,
                                  *ldab, *ldz),
        .query = *lwork == -1 || *liwork == -1 GL_IF_COMPLEX(|| *lrwork == -1),
        .size = *n,
    };
    gl_decision decision = gl_policy(&request);
    FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c uplo=%c n=%d kd=%d",
                gl_logchar(jobz), gl_logchar(uplo), (int)*n, (int)*kd);
#undef FORWARD
}
