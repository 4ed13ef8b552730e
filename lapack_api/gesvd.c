/* ?gesvd: singular value decomposition, QR iteration (Octave's svd). */
#include <complex.h>
#include <stdlib.h>

#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "entry.h"
#include "workspace.h"

typedef void gesvd_fn(const char *jobu, const char *jobvt, const gl_int *m,
                      const gl_int *n, gl_scalar *a, const gl_int *lda,
                      gl_real *s, gl_scalar *u, const gl_int *ldu,
                      gl_scalar *vt, const gl_int *ldvt, gl_scalar *work,
                      const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
                      gl_int *info, gl_strlen, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(gesvd, gesvd));
static gl_routine scipy_routine =
    GL_ROUTINE_INIT(GL_SCIPY_STR(gesvd, gesvd));

static void gesvd_entry(gl_routine *routine,
    const char *jobu, const char *jobvt, const gl_int *m,
    const gl_int *n, gl_scalar *a, const gl_int *lda, gl_real *s,
    gl_scalar *u, const gl_int *ldu, gl_scalar *vt,
    const gl_int *ldvt, gl_scalar *work, const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info)
{
    GL_TO_WIDE_ENTRY(gesvd_entry, routine, jobu, jobvt, m, n, a, lda, s, u,
                     ldu, vt, ldvt, work, lwork, GL_IF_COMPLEX(rwork, )
                     info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, gesvd_fn, info, jobu, jobvt, m, n, a, lda, s, u,     \
               ldu, vt, ldvt, work, lwork, GL_IF_COMPLEX(rwork, ) info, 1, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info = gl_check_gesvd(gl_upper(jobu), gl_upper(jobvt), *m, *n,
                                   *lda, *ldu, *ldvt),
        .query = *lwork == -1,
        .size = *m < *n ? *m : *n,
        .elements = (int64_t)*m * *n,
        .vectors = gl_upper(jobu) != 'N' || gl_upper(jobvt) != 'N',
        .supported = GL_INTS_FIT(*m, *n, *lda, *ldu, *ldvt) &&
                     gl_workspace_gesvd(GL_LAPACK_STR(gesvd, gesvd)[0], *jobu,
                                        *jobvt, *m, *n, *lwork),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* WORK(1) on exit is the optimal LWORK, as the real routine's. */
        gl_scalar optimal = 0;
        gl_int query = -1, query_info = 0;
        GL_FORWARD(routine, gesvd_fn, &query_info, jobu, jobvt, m, n, a, lda,
                   s, u, ldu, vt, ldvt, &optimal, &query,
                   GL_IF_COMPLEX(rwork, ) & query_info, 1, 1);
        /* INFO > 0 leaves the unconverged superdiagonal in WORK(2:) (real)
         * or RWORK(1:) (complex), unscaled. */
        gl_int minmn = *m < *n ? *m : *n;
        gl_real *e = malloc(sizeof *e * (size_t)(minmn > 1 ? minmn : 1));
        /* 'O' puts U (min(m,n) columns) or VT (min(m,n) rows) into A.
         * The vectors of the bidiagonal by ?bdsdc: ?bdsqr's O(n^3) Givens
         * rotations on the host took 20-40 times the rest of the call
         * (docs/performance.md); the SVD is the same to LAPACK's accuracy
         * (unique up to the signs of singular vector pairs), and a
         * ?bdsdc failure restarts the call on LAPACK, so INFO > 0 keeps
         * its ?bdsqr meaning. */
        char ju = gl_upper(jobu), jv = gl_upper(jobvt);
        gl_svd_job job = {.stage3 = GL_SVD_BDSDC_RESTART,
                          .jobu = ju == 'O' ? 'S' : ju,
                          .jobvt = jv == 'O' ? 'S' : jv};
        double start = gl_now();
        gl_stage_times t = {0};
        int rc = query_info != 0 || !e
                     ? GL_STAGE_FAULT
                     : GL_FN(svd)(GL_FN(ops_for)(decision.path), &job, *m, *n,
                                  a, *lda, s, ju == 'O' ? a : u,
                                  ju == 'O' ? *lda : *ldu, jv == 'O' ? a : vt,
                                  jv == 'O' ? *lda : *ldvt, e, &t);
        decision = gl_accel_outcome(routine, decision, rc, &t, start);
        if (decision.path != GL_PATH_LAPACK) {
            *info = rc;
            work[0] = optimal;
            for (gl_int i = 0; rc > 0 && i + 1 < minmn; i++)
#if GL_COMPLEX
                rwork[i] = e[i];
#else
                work[i + 1] = e[i];
#endif
        }
        free(e);
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "jobu=%c jobvt=%c m=%d n=%d",
                gl_logchar(jobu), gl_logchar(jobvt), (int)*m, (int)*n);
#undef FORWARD
}
/* gl_s_gesvd_entry_wide gl_d_gesvd_entry_wide
 * gl_c_gesvd_entry_wide gl_z_gesvd_entry_wide */
GL_WIDE_ENTRY(gesvd_entry);

/* sgesvd_ dgesvd_ cgesvd_ zgesvd_
 * sgesvd_64_ dgesvd_64_ cgesvd_64_ zgesvd_64_ */
GL_EXPORT void GL_LAPACK_NAME(gesvd, gesvd)(
    const char *jobu, const char *jobvt, const gl_int *m,
    const gl_int *n, gl_scalar *a, const gl_int *lda, gl_real *s,
    gl_scalar *u, const gl_int *ldu, gl_scalar *vt,
    const gl_int *ldvt, gl_scalar *work, const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info, gl_strlen jobu_len,
    gl_strlen jobvt_len)
{
    (void)jobu_len, (void)jobvt_len;
    gesvd_entry(&routine, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work,
                lwork, GL_IF_COMPLEX(rwork, ) info);
}

/* scipy_sgesvd_ scipy_dgesvd_ scipy_cgesvd_ scipy_zgesvd_
 * scipy_sgesvd_64_ scipy_dgesvd_64_ scipy_cgesvd_64_ scipy_zgesvd_64_ */
GL_EXPORT void GL_SCIPY_NAME(gesvd, gesvd)(
    const char *jobu, const char *jobvt, const gl_int *m,
    const gl_int *n, gl_scalar *a, const gl_int *lda, gl_real *s,
    gl_scalar *u, const gl_int *ldu, gl_scalar *vt,
    const gl_int *ldvt, gl_scalar *work, const gl_int *lwork,
    GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info, gl_strlen jobu_len,
    gl_strlen jobvt_len)
{
    (void)jobu_len, (void)jobvt_len;
    gesvd_entry(&scipy_routine, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt,
                work, lwork, GL_IF_COMPLEX(rwork, ) info);
}
