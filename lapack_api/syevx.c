/* ?syevx / ?heevx and their _2stage forms: selected eigenvalues and
 * optionally eigenvectors, bisection and inverse iteration. */
#include <complex.h>

#include "../runtime/precision.h"
#include "entry.h"
#include "eig_accel.h"
#include "syevr_check.h"
#include "workspace.h"

typedef void syevx_fn(const char *jobz, const char *range, const char *uplo,
                      const gl_int *n, gl_scalar *a, const gl_int *lda,
                      const gl_real *vl, const gl_real *vu,
                      const gl_int *il, const gl_int *iu,
                      const gl_real *abstol, gl_int *m, gl_real *w,
                      gl_scalar *z, const gl_int *ldz, gl_scalar *work,
                      const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
                      gl_int *iwork, gl_int *ifail, gl_int *info,
                      gl_strlen, gl_strlen, gl_strlen);

static gl_routine syevx = GL_ROUTINE_INIT(GL_LAPACK_STR(syevx, heevx));
static gl_routine scipy_syevx =
    GL_ROUTINE_INIT(GL_SCIPY_STR(syevx, heevx));
static gl_routine syevx_2stage =
    GL_ROUTINE_INIT(GL_LAPACK_STR(syevx_2stage, heevx_2stage));
static gl_routine scipy_syevx_2stage =
    GL_ROUTINE_INIT(GL_SCIPY_STR(syevx_2stage, heevx_2stage));

static void syevx_entry(
    gl_routine *routine, int two_stage, const char *jobz, const char *range,
    const char *uplo, const gl_int *n, gl_scalar *a, const gl_int *lda,
    const gl_real *vl, const gl_real *vu, const gl_int *il,
    const gl_int *iu, const gl_real *abstol, gl_int *m, gl_real *w,
    gl_scalar *z, const gl_int *ldz, gl_scalar *work,
    const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
    gl_int *iwork, gl_int *ifail, gl_int *info)
{
    GL_TO_WIDE_ENTRY(syevx_entry, routine, two_stage, jobz, range, uplo, n,
                     a, lda, vl, vu, il, iu, abstol, m, w, z, ldz, work,
                     lwork, GL_IF_COMPLEX(rwork, ) iwork, ifail, info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, syevx_fn, info, jobz, range, uplo, n, a, lda, vl, vu, \
               il, iu, abstol, m, w, z, ldz, work, lwork,                     \
               GL_IF_COMPLEX(rwork, ) iwork, ifail, info, 1, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info = syevr_check(two_stage, jobz, range, uplo, n, lda, vl, vu,
                                il, iu, ldz),
        .query = *lwork == -1,
        .size = *n,
        .vectors = gl_upper(jobz) != 'N',
        .supported = *n >= 2 && GL_INTS_FIT(*n, *lda, *ldz) &&
                     gl_workspace_syevx(GL_PREC_CHAR, two_stage, *jobz, *n,
                                        *lwork),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* WORK(1) on exit: the optimal LWORK, as the real routine's */
        gl_scalar optimal = 0;
        gl_int query = -1, query_info = 0, query_m = 0;
        GL_FORWARD(routine, syevx_fn, &query_info, jobz, range, uplo, n, a,
                   lda, vl, vu, il, iu, abstol, &query_m, w, z, ldz, &optimal,
                   &query, GL_IF_COMPLEX(rwork, ) iwork, ifail, &query_info, 1,
                   1, 1);
        gl_eig_job job = gl_eig_job_ranged(GL_EIG_SYEVX, uplo, range, vl, vu,
                                           il, iu, abstol);
        decision = gl_eig_accel(routine, decision, query_info, &job, *n, a,
                                *lda, m, w,
                                gl_upper(jobz) == 'V' ? z : NULL, *ldz, NULL,
                                ifail, info);
        if (decision.path != GL_PATH_LAPACK)
            work[0] = optimal;
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c range=%c uplo=%c n=%d",
                gl_logchar(jobz), gl_logchar(range), gl_logchar(uplo),
                (int)*n);
#undef FORWARD
}
/* gl_s_syevx_entry_wide gl_d_syevx_entry_wide
 * gl_c_syevx_entry_wide gl_z_syevx_entry_wide */
GL_WIDE_ENTRY(syevx_entry);

/* ssyevx_ dsyevx_ cheevx_ zheevx_
 * ssyevx_64_ dsyevx_64_ cheevx_64_ zheevx_64_ */
GL_EXPORT void GL_LAPACK_NAME(syevx, heevx)(
    const char *jobz, const char *range, const char *uplo, const gl_int *n,
    gl_scalar *a, const gl_int *lda, const gl_real *vl, const gl_real *vu,
    const gl_int *il, const gl_int *iu, const gl_real *abstol,
    gl_int *m, gl_real *w, gl_scalar *z, const gl_int *ldz,
    gl_scalar *work, const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
    gl_int *iwork, gl_int *ifail, gl_int *info,
    gl_strlen jobz_len, gl_strlen range_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)range_len, (void)uplo_len;
    syevx_entry(&syevx, 0, jobz, range, uplo, n, a, lda, vl, vu, il, iu,
                abstol, m, w, z, ldz, work, lwork, GL_IF_COMPLEX(rwork, )
                iwork, ifail, info);
}

/* scipy_ssyevx_ scipy_dsyevx_ scipy_cheevx_ scipy_zheevx_
 * scipy_ssyevx_64_ scipy_dsyevx_64_ scipy_cheevx_64_ scipy_zheevx_64_ */
GL_EXPORT void GL_SCIPY_NAME(syevx, heevx)(
    const char *jobz, const char *range, const char *uplo, const gl_int *n,
    gl_scalar *a, const gl_int *lda, const gl_real *vl, const gl_real *vu,
    const gl_int *il, const gl_int *iu, const gl_real *abstol,
    gl_int *m, gl_real *w, gl_scalar *z, const gl_int *ldz,
    gl_scalar *work, const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
    gl_int *iwork, gl_int *ifail, gl_int *info,
    gl_strlen jobz_len, gl_strlen range_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)range_len, (void)uplo_len;
    syevx_entry(&scipy_syevx, 0, jobz, range, uplo, n, a, lda, vl, vu, il, iu,
                abstol, m, w, z, ldz, work, lwork, GL_IF_COMPLEX(rwork, )
                iwork, ifail, info);
}

/* ssyevx_2stage_ dsyevx_2stage_ cheevx_2stage_ zheevx_2stage_
 * ssyevx_2stage_64_ dsyevx_2stage_64_ cheevx_2stage_64_ zheevx_2stage_64_ */
GL_EXPORT void GL_LAPACK_NAME(syevx_2stage, heevx_2stage)(
    const char *jobz, const char *range, const char *uplo, const gl_int *n,
    gl_scalar *a, const gl_int *lda, const gl_real *vl, const gl_real *vu,
    const gl_int *il, const gl_int *iu, const gl_real *abstol,
    gl_int *m, gl_real *w, gl_scalar *z, const gl_int *ldz,
    gl_scalar *work, const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
    gl_int *iwork, gl_int *ifail, gl_int *info,
    gl_strlen jobz_len, gl_strlen range_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)range_len, (void)uplo_len;
    syevx_entry(&syevx_2stage, 1, jobz, range, uplo, n, a, lda, vl, vu, il,
                iu, abstol, m, w, z, ldz, work, lwork, GL_IF_COMPLEX(rwork, )
                iwork, ifail, info);
}

/* scipy_ssyevx_2stage_ scipy_dsyevx_2stage_ scipy_cheevx_2stage_ scipy_zheevx_2stage_
 * scipy_ssyevx_2stage_64_ scipy_dsyevx_2stage_64_ scipy_cheevx_2stage_64_ scipy_zheevx_2stage_64_ */
GL_EXPORT void GL_SCIPY_NAME(syevx_2stage, heevx_2stage)(
    const char *jobz, const char *range, const char *uplo, const gl_int *n,
    gl_scalar *a, const gl_int *lda, const gl_real *vl, const gl_real *vu,
    const gl_int *il, const gl_int *iu, const gl_real *abstol,
    gl_int *m, gl_real *w, gl_scalar *z, const gl_int *ldz,
    gl_scalar *work, const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
    gl_int *iwork, gl_int *ifail, gl_int *info,
    gl_strlen jobz_len, gl_strlen range_len, gl_strlen uplo_len)
{
    (void)jobz_len, (void)range_len, (void)uplo_len;
    syevx_entry(&scipy_syevx_2stage, 1, jobz, range, uplo, n, a, lda, vl, vu,
                il,
                iu, abstol, m, w, z, ldz, work, lwork, GL_IF_COMPLEX(rwork, )
                iwork, ifail, info);
}
