/* ?sbtrd / ?hbtrd: symmetric (Hermitian) band matrix to tridiagonal form,
 * with Q on request. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "entry.h"

typedef void sbtrd_fn(const char *vect, const char *uplo, const gl_int *n,
                      const gl_int *kd, gl_scalar *ab,
                      const gl_int *ldab, gl_real *d, gl_real *e,
                      gl_scalar *q, const gl_int *ldq, gl_scalar *work,
                      gl_int *info, gl_strlen, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(sbtrd, hbtrd));
static gl_routine scipy_routine =
    GL_ROUTINE_INIT(GL_SCIPY_STR(sbtrd, hbtrd));

static void sbtrd_entry(gl_routine *routine,
    const char *vect, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *d,
    gl_real *e, gl_scalar *q, const gl_int *ldq, gl_scalar *work,
    gl_int *info)
{
    GL_TO_WIDE_ENTRY(sbtrd_entry, routine, vect, uplo, n, kd, ab, ldab, d,
                     e, q, ldq, work, info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, sbtrd_fn, info, vect, uplo, n, kd, ab, ldab, d, e,   \
               q, ldq, work, info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    /* LDQ is read only when Q is wanted, as LAPACK does */
    int wantq = gl_upper(vect) == 'V' || gl_upper(vect) == 'U';
    gl_request request = {
        .routine = routine,
        .arg_info =
            gl_check_sbtrd(gl_upper(vect), gl_upper(uplo), *n, *kd, *ldab,
                           wantq ? *ldq : 0),
        .size = *n,
        .vectors = gl_upper(vect) != 'N',
        .supported = *n >= 2 && GL_INTS_FIT(*n, *kd, *ldab, wantq ? *ldq : 1),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        double start = gl_now();
        gl_stage_times t = {0};
        char uplo_c = gl_upper(uplo);
        char vect_c = gl_upper(vect);
        const GL_FN(ops) *ops = GL_FN(ops_for)(decision.path);
        int rc = vect_c == 'N'
                     ? GL_FN(sb_tridiag)(ops, uplo_c, *n, *kd, ab, *ldab, 1, d,
                                         e, NULL, &t)
                     : GL_FN(sb_tridiag_q)(ops, vect_c, uplo_c, *n, *kd, ab,
                                           *ldab, d, e, q, *ldq, &t);
        decision = gl_accel_outcome(routine, decision, rc, &t, start);
        if (decision.path != GL_PATH_LAPACK) {
            /* T's diagonal and first off-diagonal go back into AB */
            gl_int diag = uplo_c == 'U' ? *kd : 0;
            for (gl_int j = 0; j < *n; j++)
                ab[diag + (size_t)j * *ldab] = d[j];
            for (gl_int j = 0; *kd > 0 && j + 1 < *n; j++) {
                if (uplo_c == 'U')
                    ab[*kd - 1 + (size_t)(j + 1) * *ldab] = e[j];
                else
                    ab[1 + (size_t)j * *ldab] = e[j];
            }
            *info = 0;
        }
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "vect=%c uplo=%c n=%d kd=%d",
                gl_logchar(vect), gl_logchar(uplo), (int)*n, (int)*kd);
#undef FORWARD
}
/* gl_s_sbtrd_entry_wide gl_d_sbtrd_entry_wide
 * gl_c_sbtrd_entry_wide gl_z_sbtrd_entry_wide */
GL_WIDE_ENTRY(sbtrd_entry);

/* ssbtrd_ dsbtrd_ chbtrd_ zhbtrd_
 * ssbtrd_64_ dsbtrd_64_ chbtrd_64_ zhbtrd_64_ */
GL_EXPORT void GL_LAPACK_NAME(sbtrd, hbtrd)(
    const char *vect, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *d,
    gl_real *e, gl_scalar *q, const gl_int *ldq, gl_scalar *work,
    gl_int *info, gl_strlen vect_len, gl_strlen uplo_len)
{
    (void)vect_len, (void)uplo_len;
    sbtrd_entry(&routine, vect, uplo, n, kd, ab, ldab, d, e, q, ldq, work,
                info);
}

/* scipy_ssbtrd_ scipy_dsbtrd_ scipy_chbtrd_ scipy_zhbtrd_
 * scipy_ssbtrd_64_ scipy_dsbtrd_64_ scipy_chbtrd_64_ scipy_zhbtrd_64_ */
GL_EXPORT void GL_SCIPY_NAME(sbtrd, hbtrd)(
    const char *vect, const char *uplo, const gl_int *n,
    const gl_int *kd, gl_scalar *ab, const gl_int *ldab, gl_real *d,
    gl_real *e, gl_scalar *q, const gl_int *ldq, gl_scalar *work,
    gl_int *info, gl_strlen vect_len, gl_strlen uplo_len)
{
    (void)vect_len, (void)uplo_len;
    sbtrd_entry(&scipy_routine, vect, uplo, n, kd, ab, ldab, d, e, q, ldq,
                work, info);
}
