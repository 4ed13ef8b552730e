/* ?syevd / ?heevd and their _2stage forms: symmetric (Hermitian)
 * eigenvalues and optionally eigenvectors, divide and conquer (numpy eigh). */
#include "entry.h"
#include "precision.h"

typedef void syevd_fn(const char *jobz, const char *uplo, const lapack_int *n,
                      gl_scalar *a, const lapack_int *lda, gl_real *w,
                      gl_scalar *work, const lapack_int *lwork,
                      GL_IF_COMPLEX(gl_real *rwork, const lapack_int *lrwork, )
                      lapack_int *iwork, const lapack_int *liwork,
                      lapack_int *info, gl_strlen, gl_strlen);

static gl_routine syevd = GL_ROUTINE_INIT(GL_LAPACK_STR(syevd, heevd));
static gl_routine syevd_2stage =
    GL_ROUTINE_INIT(GL_LAPACK_STR(syevd_2stage, heevd_2stage));

static void syevd_entry(gl_routine *routine, int two_stage, const char *jobz,
                        const char *uplo, const lapack_int *n, gl_scalar *a,
                        const lapack_int *lda, gl_real *w, gl_scalar *work,
                        const lapack_int *lwork,
                        GL_IF_COMPLEX(gl_real *rwork,
                                      const lapack_int *lrwork, )
                        lapack_int *iwork, const lapack_int *liwork,
                        lapack_int *info)
{
#define FORWARD()                                                             \
    GL_FORWARD(routine, syevd_fn, info, jobz, uplo, n, a, lda, w, work,       \
               lwork, GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info =
            gl_check_syev(two_stage, gl_upper(jobz), gl_upper(uplo), *n, *lda),
        .query = *lwork == -1 || *liwork == -1 GL_IF_COMPLEX(|| *lrwork == -1),
        .size = *n,
    };
    gl_decision decision = gl_policy(&request);
    FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c uplo=%c n=%d",
                gl_logchar(jobz), gl_logchar(uplo), (int)*n);
#undef FORWARD
}

GL_EXPORT void GL_LAPACK_NAME(syevd, heevd)(
    const char *jobz, const char *uplo, const lapack_int *n, gl_scalar *a,
    const lapack_int *lda, gl_real *w, gl_scalar *work,
    const lapack_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const lapack_int *lrwork, )
    lapack_int *iwork, const lapack_int *liwork, lapack_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syevd_entry(&syevd, 0, jobz, uplo, n, a, lda, w, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}

GL_EXPORT void GL_LAPACK_NAME(syevd_2stage, heevd_2stage)(
    const char *jobz, const char *uplo, const lapack_int *n, gl_scalar *a,
    const lapack_int *lda, gl_real *w, gl_scalar *work,
    const lapack_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const lapack_int *lrwork, )
    lapack_int *iwork, const lapack_int *liwork, lapack_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syevd_entry(&syevd_2stage, 1, jobz, uplo, n, a, lda, w, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}
