/* ?sbevd / ?hbevd: eigenvalues and optionally eigenvectors of a symmetric
 * (Hermitian) band matrix, divide and conquer. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "entry.h"
#include "workspace.h"

typedef void sbevd_fn(const char *jobz, const char *uplo, const gl_int *n,
                      const gl_int *kd, gl_scalar *ab,
                      const gl_int *ldab, gl_real *w, gl_scalar *z,
                      const gl_int *ldz, gl_scalar *work,
                      const gl_int *lwork,
                      GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
                      gl_int *iwork, const gl_int *liwork,
                      gl_int *info, gl_strlen, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(sbevd, hbevd));
static gl_routine scipy_routine =
    GL_ROUTINE_INIT(GL_SCIPY_STR(sbevd, hbevd));

static void sbevd_entry(gl_routine *routine,
    const char *jobz, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *w,
    gl_scalar *z, const gl_int *ldz, gl_scalar *work,
    const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info)
{
    GL_TO_WIDE_ENTRY(sbevd_entry, routine, jobz, uplo, n, kd, ab, ldab, w,
                     z, ldz, work, lwork, GL_IF_COMPLEX(rwork, lrwork, )
                     iwork, liwork, info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, sbevd_fn, info, jobz, uplo, n, kd, ab, ldab, w, z,   \
               ldz, work, lwork, GL_IF_COMPLEX(rwork, lrwork, ) iwork,        \
               liwork, info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info = gl_check_sbev(gl_upper(jobz), gl_upper(uplo), *n, *kd,
                                  *ldab, *ldz),
        .query = *lwork == -1 || *liwork == -1 GL_IF_COMPLEX(|| *lrwork == -1),
        .size = *n,
        .vectors = gl_upper(jobz) != 'N',
        .supported = *n >= 2 && GL_INTS_FIT(*n, *kd, *ldab, *ldz) &&
                     gl_workspace_sbevd(GL_COMPLEX, *jobz, *n, *lwork,
                                        GL_PICK(0, *lrwork), *liwork),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* WORK(1), RWORK(1), IWORK(1) on exit: the optimal sizes, as the
         * real routine's */
        gl_scalar optimal = 0;
        gl_real optimal_r = 0;
        gl_int optimal_i = 0, query = -1, query_info = 0;
        (void)optimal_r;
        GL_FORWARD(routine, sbevd_fn, &query_info, jobz, uplo, n, kd, ab,
                   ldab, w, z, ldz, &optimal, &query,
                   GL_IF_COMPLEX(&optimal_r, &query, ) & optimal_i, &query,
                   &query_info, 1, 1);
        double start = gl_now();
        gl_stage_times t = {0};
        int rc = query_info != 0
                     ? GL_STAGE_FAULT
                     : GL_FN(sb_eig)(GL_FN(ops_for)(decision.path),
                                    gl_upper(uplo), 1, *n, *kd, ab, *ldab, w,
                                    gl_upper(jobz) == 'V' ? z : NULL, *ldz,
                                    &t);
        decision = gl_accel_outcome(routine, decision, rc, &t, start);
        if (decision.path != GL_PATH_LAPACK) {
            *info = rc;
            work[0] = optimal;
            GL_IF_COMPLEX(rwork[0] = optimal_r;)
            iwork[0] = optimal_i;
        }
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c uplo=%c n=%d kd=%d",
                gl_logchar(jobz), gl_logchar(uplo), (int)*n, (int)*kd);
#undef FORWARD
}
/* gl_s_sbevd_entry_wide gl_d_sbevd_entry_wide
 * gl_c_sbevd_entry_wide gl_z_sbevd_entry_wide */
GL_WIDE_ENTRY(sbevd_entry);

/* ssbevd_ dsbevd_ chbevd_ zhbevd_
 * ssbevd_64_ dsbevd_64_ chbevd_64_ zhbevd_64_ */
GL_EXPORT void GL_LAPACK_NAME(sbevd, hbevd)(
    const char *jobz, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *w,
    gl_scalar *z, const gl_int *ldz, gl_scalar *work,
    const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    sbevd_entry(&routine, jobz, uplo, n, kd, ab, ldab, w, z, ldz, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}

/* scipy_ssbevd_ scipy_dsbevd_ scipy_chbevd_ scipy_zhbevd_
 * scipy_ssbevd_64_ scipy_dsbevd_64_ scipy_chbevd_64_ scipy_zhbevd_64_ */
GL_EXPORT void GL_SCIPY_NAME(sbevd, hbevd)(
    const char *jobz, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *w,
    gl_scalar *z, const gl_int *ldz, gl_scalar *work,
    const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    sbevd_entry(&scipy_routine, jobz, uplo, n, kd, ab, ldab, w, z, ldz, work,
                lwork, GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}
