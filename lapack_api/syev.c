/* ?syev / ?heev and ?syev_2stage / ?heev_2stage: symmetric (Hermitian)
 * eigenvalues and optionally eigenvectors, QR iteration. */
#include <complex.h>

#include "../runtime/precision.h"
#include "entry.h"
#include "eig_accel.h"
#include "workspace.h"

typedef void syev_fn(const char *jobz, const char *uplo, const gl_int *n,
                     gl_scalar *a, const gl_int *lda, gl_real *w,
                     gl_scalar *work, const gl_int *lwork,
                     GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
                     gl_strlen, gl_strlen);

static gl_routine syev = GL_ROUTINE_INIT(GL_LAPACK_STR(syev, heev));
static gl_routine scipy_syev =
    GL_ROUTINE_INIT(GL_SCIPY_STR(syev, heev));
static gl_routine syev_2stage =
    GL_ROUTINE_INIT(GL_LAPACK_STR(syev_2stage, heev_2stage));
static gl_routine scipy_syev_2stage =
    GL_ROUTINE_INIT(GL_SCIPY_STR(syev_2stage, heev_2stage));

static void syev_entry(gl_routine *routine, int two_stage, const char *jobz,
                       const char *uplo, const gl_int *n, gl_scalar *a,
                       const gl_int *lda, gl_real *w, gl_scalar *work,
                       const gl_int *lwork,
                       GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info)
{
    GL_TO_WIDE_ENTRY(syev_entry, routine, two_stage, jobz, uplo, n, a, lda,
                     w, work, lwork, GL_IF_COMPLEX(rwork, ) info);
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
        .vectors = gl_upper(jobz) != 'N',
        .supported = *n >= 2 && GL_INTS_FIT(*n, *lda) &&
                     gl_workspace_syev(GL_PREC_CHAR, two_stage, *jobz, *n,
                                       *lwork),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* WORK(1) on exit: the optimal LWORK, as the real routine's */
        gl_scalar optimal = 0;
        gl_int query = -1, query_info = 0;
        GL_FORWARD(routine, syev_fn, &query_info, jobz, uplo, n, a, lda, w,
                   &optimal, &query, GL_IF_COMPLEX(rwork, ) & query_info, 1,
                   1);
        gl_eig_job job = {.driver = GL_EIG_SYEV, .uplo = gl_upper(uplo),
                          .range = 'A'};
        decision = gl_eig_accel(routine, decision, query_info, &job, *n, a,
                                *lda, NULL, w,
                                gl_upper(jobz) == 'V' ? a : NULL, *lda, NULL,
                                NULL, info);
        if (decision.path != GL_PATH_LAPACK)
            work[0] = optimal;
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c uplo=%c n=%d",
                gl_logchar(jobz), gl_logchar(uplo), (int)*n);
#undef FORWARD
}
/* gl_s_syev_entry_wide gl_d_syev_entry_wide
 * gl_c_syev_entry_wide gl_z_syev_entry_wide */
GL_WIDE_ENTRY(syev_entry);

/* ssyev_ dsyev_ cheev_ zheev_
 * ssyev_64_ dsyev_64_ cheev_64_ zheev_64_ */
GL_EXPORT void GL_LAPACK_NAME(syev, heev)(
    const char *jobz, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *w, gl_scalar *work,
    const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syev_entry(&syev, 0, jobz, uplo, n, a, lda, w, work, lwork,
               GL_IF_COMPLEX(rwork, ) info);
}

/* scipy_ssyev_ scipy_dsyev_ scipy_cheev_ scipy_zheev_
 * scipy_ssyev_64_ scipy_dsyev_64_ scipy_cheev_64_ scipy_zheev_64_ */
GL_EXPORT void GL_SCIPY_NAME(syev, heev)(
    const char *jobz, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *w, gl_scalar *work,
    const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syev_entry(&scipy_syev, 0, jobz, uplo, n, a, lda, w, work, lwork,
               GL_IF_COMPLEX(rwork, ) info);
}

/* ssyev_2stage_ dsyev_2stage_ cheev_2stage_ zheev_2stage_
 * ssyev_2stage_64_ dsyev_2stage_64_ cheev_2stage_64_ zheev_2stage_64_ */
GL_EXPORT void GL_LAPACK_NAME(syev_2stage, heev_2stage)(
    const char *jobz, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *w, gl_scalar *work,
    const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syev_entry(&syev_2stage, 1, jobz, uplo, n, a, lda, w, work, lwork,
               GL_IF_COMPLEX(rwork, ) info);
}

/* scipy_ssyev_2stage_ scipy_dsyev_2stage_ scipy_cheev_2stage_ scipy_zheev_2stage_
 * scipy_ssyev_2stage_64_ scipy_dsyev_2stage_64_ scipy_cheev_2stage_64_ scipy_zheev_2stage_64_ */
GL_EXPORT void GL_SCIPY_NAME(syev_2stage, heev_2stage)(
    const char *jobz, const char *uplo, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *w, gl_scalar *work,
    const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    syev_entry(&scipy_syev_2stage, 1, jobz, uplo, n, a, lda, w, work, lwork,
               GL_IF_COMPLEX(rwork, ) info);
}
