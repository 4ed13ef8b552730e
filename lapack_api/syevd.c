/* ?syevd / ?heevd and their _2stage forms: symmetric (Hermitian)
 * eigenvalues and optionally eigenvectors, divide and conquer (numpy eigh). */
#include <complex.h>

#include "../runtime/precision.h"
#include "entry.h"
#include "eig_accel.h"
#include "workspace.h"

typedef void syevd_fn(const char *jobz, const char *uplo, const gl_int *n,
                      gl_scalar *a, const gl_int *lda, gl_real *w,
                      gl_scalar *work, const gl_int *lwork,
                      GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
                      gl_int *iwork, const gl_int *liwork,
                      gl_int *info, gl_strlen, gl_strlen);

static gl_routine syevd = GL_ROUTINE_INIT(GL_LAPACK_STR(syevd, heevd));
static gl_routine scipy_syevd =
    GL_ROUTINE_INIT(GL_SCIPY_STR(syevd, heevd));
static gl_routine syevd_2stage =
    GL_ROUTINE_INIT(GL_LAPACK_STR(syevd_2stage, heevd_2stage));
static gl_routine scipy_syevd_2stage =
    GL_ROUTINE_INIT(GL_SCIPY_STR(syevd_2stage, heevd_2stage));

static void syevd_entry(gl_routine *routine, int two_stage, const char *jobz,
                        const char *uplo, const gl_int *n, gl_scalar *a,
                        const gl_int *lda, gl_real *w, gl_scalar *work,
                        const gl_int *lwork,
                        GL_IF_COMPLEX(gl_real *rwork,
                                      const gl_int *lrwork, )
                        gl_int *iwork, const gl_int *liwork,
                        gl_int *info)
{
    GL_TO_WIDE_ENTRY(syevd_entry, routine, two_stage, jobz, uplo, n, a,
                     lda, w, work, lwork, GL_IF_COMPLEX(rwork, lrwork, )
                     iwork, liwork, info);
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
        .vectors = gl_upper(jobz) != 'N',
        .supported = *n >= 2 && GL_INTS_FIT(*n, *lda) &&
                     gl_workspace_syevd(GL_PREC_CHAR, two_stage, *jobz, *n,
                                        *lwork, GL_PICK(0, *lrwork), *liwork),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* WORK(1), RWORK(1), IWORK(1) on exit: the optimal sizes, as the
         * real routine's */
        gl_scalar optimal = 0;
        gl_real optimal_r = 0;
        gl_int optimal_i = 0, query = -1, query_info = 0;
        (void)optimal_r;
        GL_FORWARD(routine, syevd_fn, &query_info, jobz, uplo, n, a, lda, w,
                   &optimal, &query, GL_IF_COMPLEX(&optimal_r, &query, )
                   & optimal_i, &query, &query_info, 1, 1);
        gl_eig_job job = {.driver = GL_EIG_SYEVD, .uplo = gl_upper(uplo),
                          .range = 'A'};
        decision = gl_eig_accel(routine, decision, query_info, &job, *n, a,
                                *lda, NULL, w,
                                gl_upper(jobz) == 'V' ? a : NULL, *lda, NULL,
                                NULL, info);
        if (decision.path != GL_PATH_LAPACK) {
            work[0] = optimal;
            GL_IF_COMPLEX(rwork[0] = optimal_r;)
            iwork[0] = optimal_i;
        }
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c uplo=%c n=%d",
                gl_logchar(jobz), gl_logchar(uplo), (int)*n);
#undef FORWARD
}
/* gl_s_syevd_entry_wide gl_d_syevd_entry_wide
 * gl_c_syevd_entry_wide gl_z_syevd_entry_wide */
GL_WIDE_ENTRY(syevd_entry);

/* ssyevd_ dsyevd_ cheevd_ zheevd_
 * ssyevd_64_ dsyevd_64_ cheevd_64_ zheevd_64_ */
GL_EXPORT void GL_LAPACK_NAME(syevd, heevd)(
    const char *jobz, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *w, gl_scalar *work,
    const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syevd_entry(&syevd, 0, jobz, uplo, n, a, lda, w, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}

/* scipy_ssyevd_ scipy_dsyevd_ scipy_cheevd_ scipy_zheevd_
 * scipy_ssyevd_64_ scipy_dsyevd_64_ scipy_cheevd_64_ scipy_zheevd_64_ */
GL_EXPORT void GL_SCIPY_NAME(syevd, heevd)(
    const char *jobz, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *w, gl_scalar *work,
    const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syevd_entry(&scipy_syevd, 0, jobz, uplo, n, a, lda, w, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}

/* ssyevd_2stage_ dsyevd_2stage_ cheevd_2stage_ zheevd_2stage_
 * ssyevd_2stage_64_ dsyevd_2stage_64_ cheevd_2stage_64_ zheevd_2stage_64_ */
GL_EXPORT void GL_LAPACK_NAME(syevd_2stage, heevd_2stage)(
    const char *jobz, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *w, gl_scalar *work,
    const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syevd_entry(&syevd_2stage, 1, jobz, uplo, n, a, lda, w, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}

/* scipy_ssyevd_2stage_ scipy_dsyevd_2stage_ scipy_cheevd_2stage_ scipy_zheevd_2stage_
 * scipy_ssyevd_2stage_64_ scipy_dsyevd_2stage_64_ scipy_cheevd_2stage_64_ scipy_zheevd_2stage_64_ */
GL_EXPORT void GL_SCIPY_NAME(syevd_2stage, heevd_2stage)(
    const char *jobz, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *w, gl_scalar *work,
    const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syevd_entry(&scipy_syevd_2stage, 1, jobz, uplo, n, a, lda, w, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}
