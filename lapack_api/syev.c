/* ?syev / ?heev and ?syev_2stage / ?heev_2stage: symmetric (Hermitian)
 * eigenvalues and optionally eigenvectors, QR iteration. */
#include "entry.h"
#include "precision.h"

typedef void syev_fn(const char *jobz, const char *uplo, const lapack_int *n,
                     gl_scalar *a, const lapack_int *lda, gl_real *w,
                     gl_scalar *work, const lapack_int *lwork,
                     GL_IF_COMPLEX(gl_real *rwork, ) lapack_int *info,
                     gl_strlen, gl_strlen);

static gl_routine syev = GL_ROUTINE_INIT(GL_LAPACK_STR(syev, heev));
static gl_routine syev_2stage =
    GL_ROUTINE_INIT(GL_LAPACK_STR(syev_2stage, heev_2stage));

static void syev_entry(gl_routine *routine, int two_stage, const char *jobz,
                       const char *uplo, const lapack_int *n, gl_scalar *a,
                       const lapack_int *lda, gl_real *w, gl_scalar *work,
                       const lapack_int *lwork,
                       GL_IF_COMPLEX(gl_real *rwork, ) lapack_int *info)
{
#define FORWARD()                                                             \
    GL_FORWARD(routine, syev_fn, info, jobz, uplo, n, a, lda, w, work, lwork, \
               GL_IF_COMPLEX(rwork, ) info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info =
            gl_check_syev(two_stage, gl_upper(jobz), gl_upper(uplo), *n, *lda),
        .query = *lwork == -1,
        .size = *n,
    };
    gl_decision decision = gl_policy(&request);
    FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c uplo=%c n=%d",
                gl_logchar(jobz), gl_logchar(uplo), (int)*n);
#undef FORWARD
}

GL_EXPORT void GL_LAPACK_NAME(syev, heev)(
    const char *jobz, const char *uplo, const lapack_int *n, gl_scalar *a,
    const lapack_int *lda, gl_real *w, gl_scalar *work,
    const lapack_int *lwork, GL_IF_COMPLEX(gl_real *rwork, ) lapack_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syev_entry(&syev, 0, jobz, uplo, n, a, lda, w, work, lwork,
               GL_IF_COMPLEX(rwork, ) info);
}

GL_EXPORT void GL_LAPACK_NAME(syev_2stage, heev_2stage)(
    const char *jobz, const char *uplo, const lapack_int *n, gl_scalar *a,
    const lapack_int *lda, gl_real *w, gl_scalar *work,
    const lapack_int *lwork, GL_IF_COMPLEX(gl_real *rwork, ) lapack_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syev_entry(&syev_2stage, 1, jobz, uplo, n, a, lda, w, work, lwork,
               GL_IF_COMPLEX(rwork, ) info);
}
