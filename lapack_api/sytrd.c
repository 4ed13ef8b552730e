/* ?sytrd / ?hetrd: reduction to tridiagonal form with LAPACK-format
 * reflectors.  Mostly reached as a nested call from the system LAPACK's own
 * ?syev*, ?sygv* drivers, which then feed the result to ?orgtr/?ormtr. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "entry.h"

typedef void sytrd_fn(const char *uplo, const gl_int *n, gl_scalar *a,
                      const gl_int *lda, gl_real *d, gl_real *e,
                      gl_scalar *tau, gl_scalar *work, const gl_int *lwork,
                      gl_int *info, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(sytrd, hetrd));
static gl_routine scipy_routine =
    GL_ROUTINE_INIT(GL_SCIPY_STR(sytrd, hetrd));

static void sytrd_entry(gl_routine *routine,
    const char *uplo, const gl_int *n, gl_scalar *a, const gl_int *lda,
    gl_real *d, gl_real *e, gl_scalar *tau, gl_scalar *work,
    const gl_int *lwork, gl_int *info)
{
    GL_TO_WIDE_ENTRY(sytrd_entry, routine, uplo, n, a, lda, d, e, tau,
                     work, lwork, info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, sytrd_fn, info, uplo, n, a, lda, d, e, tau, work,    \
               lwork, info, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info = gl_check_sytrd(gl_upper(uplo), *n, *lda),
        .query = *lwork == -1,
        .size = *n,
        .vectors = 1,
        .supported = *n >= 2 && *lwork >= 1 && GL_INTS_FIT(*n, *lda),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* WORK(1) on exit: the optimal LWORK, as the real routine's */
        gl_scalar optimal = 0;
        gl_int query = -1, query_info = 0;
        GL_FORWARD(routine, sytrd_fn, &query_info, uplo, n, a, lda, d, e,
                   tau, &optimal, &query, &query_info, 1);
        double start = gl_now();
        gl_stage_times t = {0};
        int rc = query_info != 0
                     ? GL_STAGE_FAULT
                     : GL_FN(sytrd)(GL_FN(ops_for)(decision.path),
                                    gl_upper(uplo), *n, a, *lda, d, e, tau,
                                    &t);
        decision = gl_accel_outcome(routine, decision, rc, &t, start);
        if (decision.path != GL_PATH_LAPACK) {
            *info = 0;
            work[0] = optimal;
        }
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "uplo=%c n=%d", gl_logchar(uplo),
                (int)*n);
#undef FORWARD
}
/* gl_s_sytrd_entry_wide gl_d_sytrd_entry_wide
 * gl_c_sytrd_entry_wide gl_z_sytrd_entry_wide */
GL_WIDE_ENTRY(sytrd_entry);

/* ssytrd_ dsytrd_ chetrd_ zhetrd_
 * ssytrd_64_ dsytrd_64_ chetrd_64_ zhetrd_64_ */
GL_EXPORT void GL_LAPACK_NAME(sytrd, hetrd)(
    const char *uplo, const gl_int *n, gl_scalar *a, const gl_int *lda,
    gl_real *d, gl_real *e, gl_scalar *tau, gl_scalar *work,
    const gl_int *lwork, gl_int *info, gl_strlen uplo_len)
{
    (void)uplo_len;
    sytrd_entry(&routine, uplo, n, a, lda, d, e, tau, work, lwork, info);
}

/* scipy_ssytrd_ scipy_dsytrd_ scipy_chetrd_ scipy_zhetrd_
 * scipy_ssytrd_64_ scipy_dsytrd_64_ scipy_chetrd_64_ scipy_zhetrd_64_ */
GL_EXPORT void GL_SCIPY_NAME(sytrd, hetrd)(
    const char *uplo, const gl_int *n, gl_scalar *a, const gl_int *lda,
    gl_real *d, gl_real *e, gl_scalar *tau, gl_scalar *work,
    const gl_int *lwork, gl_int *info, gl_strlen uplo_len)
{
    (void)uplo_len;
    sytrd_entry(&scipy_routine, uplo, n, a, lda, d, e, tau, work, lwork, info);
}
