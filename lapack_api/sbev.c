/* ?sbev / ?hbev: eigenvalues and optionally eigenvectors of a symmetric
 * (Hermitian) band matrix, QR iteration. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "entry.h"

typedef void sbev_fn(const char *jobz, const char *uplo, const gl_int *n,
                     const gl_int *kd, gl_scalar *ab,
                     const gl_int *ldab, gl_real *w, gl_scalar *z,
                     const gl_int *ldz, gl_scalar *work,
                     GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
                     gl_strlen, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(sbev, hbev));
static gl_routine scipy_routine =
    GL_ROUTINE_INIT(GL_SCIPY_STR(sbev, hbev));

static void sbev_entry(gl_routine *routine,
    const char *jobz, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *w,
    gl_scalar *z, const gl_int *ldz, gl_scalar *work,
    GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info)
{
    GL_TO_WIDE_ENTRY(sbev_entry, routine, jobz, uplo, n, kd, ab, ldab, w,
                     z, ldz, work, GL_IF_COMPLEX(rwork, ) info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, sbev_fn, info, jobz, uplo, n, kd, ab, ldab, w, z,    \
               ldz, work, GL_IF_COMPLEX(rwork, ) info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info = gl_check_sbev(gl_upper(jobz), gl_upper(uplo), *n, *kd,
                                  *ldab, *ldz),
        .size = *n,
        .vectors = gl_upper(jobz) != 'N',
        .supported = *n >= 2 && GL_INTS_FIT(*n, *kd, *ldab, *ldz),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        double start = gl_now();
        gl_stage_times t = {0};
        int rc = GL_FN(sb_eig)(GL_FN(ops_for)(decision.path),
                                    gl_upper(uplo), 0, *n, *kd, ab, *ldab, w,
                                    gl_upper(jobz) == 'V' ? z : NULL, *ldz,
                                    &t);
        decision = gl_accel_outcome(routine, decision, rc, &t, start);
        if (decision.path != GL_PATH_LAPACK)
            *info = rc;
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c uplo=%c n=%d kd=%d",
                gl_logchar(jobz), gl_logchar(uplo), (int)*n, (int)*kd);
#undef FORWARD
}
/* gl_s_sbev_entry_wide gl_d_sbev_entry_wide
 * gl_c_sbev_entry_wide gl_z_sbev_entry_wide */
GL_WIDE_ENTRY(sbev_entry);

/* ssbev_ dsbev_ chbev_ zhbev_
 * ssbev_64_ dsbev_64_ chbev_64_ zhbev_64_ */
GL_EXPORT void GL_LAPACK_NAME(sbev, hbev)(
    const char *jobz, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *w,
    gl_scalar *z, const gl_int *ldz, gl_scalar *work,
    GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info, gl_strlen jobz_len,
    gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    sbev_entry(&routine, jobz, uplo, n, kd, ab, ldab, w, z, ldz, work,
               GL_IF_COMPLEX(rwork, ) info);
}

/* scipy_ssbev_ scipy_dsbev_ scipy_chbev_ scipy_zhbev_
 * scipy_ssbev_64_ scipy_dsbev_64_ scipy_chbev_64_ scipy_zhbev_64_ */
GL_EXPORT void GL_SCIPY_NAME(sbev, hbev)(
    const char *jobz, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *w,
    gl_scalar *z, const gl_int *ldz, gl_scalar *work,
    GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info, gl_strlen jobz_len,
    gl_strlen uplo_len)
{
    (void)jobz_len, (void)uplo_len;
    sbev_entry(&scipy_routine, jobz, uplo, n, kd, ab, ldab, w, z, ldz, work,
               GL_IF_COMPLEX(rwork, ) info);
}
