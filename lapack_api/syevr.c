/* ?syevr / ?heevr and their _2stage forms: selected eigenvalues and
 * optionally eigenvectors, MRRR (scipy eigh, R eigen). */
#include <complex.h>

#include "../runtime/precision.h"
#include "entry.h"
#include "eig_accel.h"
#include "syevr_check.h"
#include "workspace.h"

typedef void syevr_fn(const char *jobz, const char *range, const char *uplo,
                      const gl_int *n, gl_scalar *a, const gl_int *lda,
                      const gl_real *vl, const gl_real *vu,
                      const gl_int *il, const gl_int *iu,
                      const gl_real *abstol, gl_int *m, gl_real *w,
                      gl_scalar *z, const gl_int *ldz, gl_int *isuppz,
                      gl_scalar *work, const gl_int *lwork,
                      GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
                      gl_int *iwork, const gl_int *liwork,
                      gl_int *info, gl_strlen, gl_strlen, gl_strlen);

static gl_routine syevr = GL_ROUTINE_INIT(GL_LAPACK_STR(syevr, heevr));
static gl_routine scipy_syevr =
    GL_ROUTINE_INIT(GL_SCIPY_STR(syevr, heevr));
static gl_routine syevr_2stage =
    GL_ROUTINE_INIT(GL_LAPACK_STR(syevr_2stage, heevr_2stage));
static gl_routine scipy_syevr_2stage =
    GL_ROUTINE_INIT(GL_SCIPY_STR(syevr_2stage, heevr_2stage));

static void syevr_entry(
    gl_routine *routine, int two_stage, const char *jobz, const char *range,
    const char *uplo, const gl_int *n, gl_scalar *a, const gl_int *lda,
    const gl_real *vl, const gl_real *vu, const gl_int *il,
    const gl_int *iu, const gl_real *abstol, gl_int *m, gl_real *w,
    gl_scalar *z, const gl_int *ldz, gl_int *isuppz, gl_scalar *work,
    const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info)
{
    GL_TO_WIDE_ENTRY(syevr_entry, routine, two_stage, jobz, range, uplo, n,
                     a, lda, vl, vu, il, iu, abstol, m, w, z, ldz, isuppz,
                     work, lwork, GL_IF_COMPLEX(rwork, lrwork, ) iwork,
                     liwork, info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, syevr_fn, info, jobz, range, uplo, n, a, lda, vl, vu, \
               il, iu, abstol, m, w, z, ldz, isuppz, work, lwork,             \
               GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info, 1, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info = syevr_check(two_stage, jobz, range, uplo, n, lda, vl, vu,
                                il, iu, ldz),
        .query = *lwork == -1 || *liwork == -1 GL_IF_COMPLEX(|| *lrwork == -1),
        .size = *n,
        .vectors = gl_upper(jobz) != 'N',
        .supported = *n >= 2 && GL_INTS_FIT(*n, *lda, *ldz) &&
                     gl_workspace_syevr(GL_PREC_CHAR, two_stage, *jobz, *n,
                                        *lwork, GL_PICK(0, *lrwork), *liwork),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* WORK(1), RWORK(1), IWORK(1) on exit: the optimal sizes, as the
         * real routine's */
        gl_scalar optimal = 0;
        gl_real optimal_r = 0;
        gl_int optimal_i = 0, query = -1, query_info = 0, query_m = 0;
        (void)optimal_r;
        GL_FORWARD(routine, syevr_fn, &query_info, jobz, range, uplo, n, a,
                   lda, vl, vu, il, iu, abstol, &query_m, w, z, ldz, isuppz,
                   &optimal, &query, GL_IF_COMPLEX(&optimal_r, &query, )
                   & optimal_i, &query, &query_info, 1, 1, 1);
        gl_eig_job job = gl_eig_job_ranged(GL_EIG_SYEVR, uplo, range, vl, vu,
                                           il, iu, abstol);
        decision = gl_eig_accel(routine, decision, query_info, &job, *n, a,
                                *lda, m, w,
                                gl_upper(jobz) == 'V' ? z : NULL, *ldz, isuppz,
                                NULL, info);
        if (decision.path != GL_PATH_LAPACK) {
            work[0] = optimal;
            GL_IF_COMPLEX(rwork[0] = optimal_r;)
            iwork[0] = optimal_i;
        }
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c range=%c uplo=%c n=%d",
                gl_logchar(jobz), gl_logchar(range), gl_logchar(uplo),
                (int)*n);
#undef FORWARD
}
/* gl_s_syevr_entry_wide gl_d_syevr_entry_wide
 * gl_c_syevr_entry_wide gl_z_syevr_entry_wide */
GL_WIDE_ENTRY(syevr_entry);

/* ssyevr_ dsyevr_ cheevr_ zheevr_
 * ssyevr_64_ dsyevr_64_ cheevr_64_ zheevr_64_ */
GL_EXPORT void GL_LAPACK_NAME(syevr, heevr)(
    const char *jobz, const char *range, const char *uplo, const gl_int *n,
    gl_scalar *a, const gl_int *lda, const gl_real *vl, const gl_real *vu,
    const gl_int *il, const gl_int *iu, const gl_real *abstol,
    gl_int *m, gl_real *w, gl_scalar *z, const gl_int *ldz,
    gl_int *isuppz, gl_scalar *work, const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen range_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)range_len, (void)uplo_len;
    syevr_entry(&syevr, 0, jobz, range, uplo, n, a, lda, vl, vu, il, iu,
                abstol, m, w, z, ldz, isuppz, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}

/* scipy_ssyevr_ scipy_dsyevr_ scipy_cheevr_ scipy_zheevr_
 * scipy_ssyevr_64_ scipy_dsyevr_64_ scipy_cheevr_64_ scipy_zheevr_64_ */
GL_EXPORT void GL_SCIPY_NAME(syevr, heevr)(
    const char *jobz, const char *range, const char *uplo, const gl_int *n,
    gl_scalar *a, const gl_int *lda, const gl_real *vl, const gl_real *vu,
    const gl_int *il, const gl_int *iu, const gl_real *abstol,
    gl_int *m, gl_real *w, gl_scalar *z, const gl_int *ldz,
    gl_int *isuppz, gl_scalar *work, const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen range_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)range_len, (void)uplo_len;
    syevr_entry(&scipy_syevr, 0, jobz, range, uplo, n, a, lda, vl, vu, il, iu,
                abstol, m, w, z, ldz, isuppz, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}

/* ssyevr_2stage_ dsyevr_2stage_ cheevr_2stage_ zheevr_2stage_
 * ssyevr_2stage_64_ dsyevr_2stage_64_ cheevr_2stage_64_ zheevr_2stage_64_ */
GL_EXPORT void GL_LAPACK_NAME(syevr_2stage, heevr_2stage)(
    const char *jobz, const char *range, const char *uplo, const gl_int *n,
    gl_scalar *a, const gl_int *lda, const gl_real *vl, const gl_real *vu,
    const gl_int *il, const gl_int *iu, const gl_real *abstol,
    gl_int *m, gl_real *w, gl_scalar *z, const gl_int *ldz,
    gl_int *isuppz, gl_scalar *work, const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen range_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)range_len, (void)uplo_len;
    syevr_entry(&syevr_2stage, 1, jobz, range, uplo, n, a, lda, vl, vu, il,
                iu, abstol, m, w, z, ldz, isuppz, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}

/* scipy_ssyevr_2stage_ scipy_dsyevr_2stage_ scipy_cheevr_2stage_ scipy_zheevr_2stage_
 * scipy_ssyevr_2stage_64_ scipy_dsyevr_2stage_64_ scipy_cheevr_2stage_64_ scipy_zheevr_2stage_64_ */
GL_EXPORT void GL_SCIPY_NAME(syevr_2stage, heevr_2stage)(
    const char *jobz, const char *range, const char *uplo, const gl_int *n,
    gl_scalar *a, const gl_int *lda, const gl_real *vl, const gl_real *vu,
    const gl_int *il, const gl_int *iu, const gl_real *abstol,
    gl_int *m, gl_real *w, gl_scalar *z, const gl_int *ldz,
    gl_int *isuppz, gl_scalar *work, const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, const gl_int *lrwork, )
    gl_int *iwork, const gl_int *liwork, gl_int *info,
    gl_strlen jobz_len, gl_strlen range_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)range_len, (void)uplo_len;
    syevr_entry(&scipy_syevr_2stage, 1, jobz, range, uplo, n, a, lda, vl, vu,
                il,
                iu, abstol, m, w, z, ldz, isuppz, work, lwork,
                GL_IF_COMPLEX(rwork, lrwork, ) iwork, liwork, info);
}
