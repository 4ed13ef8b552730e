/* ?gesdd: singular value decomposition, divide and conquer (numpy, scipy,
 * R and torch use it for svd). */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "entry.h"
#include "workspace.h"

typedef void gesdd_fn(const char *jobz, const gl_int *m,
                      const gl_int *n, gl_scalar *a, const gl_int *lda,
                      gl_real *s, gl_scalar *u, const gl_int *ldu,
                      gl_scalar *vt, const gl_int *ldvt, gl_scalar *work,
                      const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
                      gl_int *iwork, gl_int *info, gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(gesdd, gesdd));
static gl_routine scipy_routine =
    GL_ROUTINE_INIT(GL_SCIPY_STR(gesdd, gesdd));

static void gesdd_entry(gl_routine *routine,
    const char *jobz, const gl_int *m, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *s, gl_scalar *u, const gl_int *ldu,
    gl_scalar *vt, const gl_int *ldvt, gl_scalar *work,
    const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
    gl_int *iwork, gl_int *info)
{
    GL_TO_WIDE_ENTRY(gesdd_entry, routine, jobz, m, n, a, lda, s, u, ldu,
                     vt, ldvt, work, lwork, GL_IF_COMPLEX(rwork, ) iwork,
                     info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, gesdd_fn, info, jobz, m, n, a, lda, s, u, ldu, vt,   \
               ldvt, work, lwork, GL_IF_COMPLEX(rwork, ) iwork, info, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info = gl_check_gesdd(gl_upper(jobz), *m, *n, *lda, *ldu, *ldvt),
        .query = *lwork == -1,
        .size = *m < *n ? *m : *n,
        .elements = (int64_t)*m * *n,
        .vectors = gl_upper(jobz) != 'N',
        .supported = GL_INTS_FIT(*m, *n, *lda, *ldu, *ldvt) &&
                     gl_workspace_gesdd(GL_COMPLEX, *jobz, *m, *n, *lwork),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* WORK(1) on exit is the optimal LWORK, as the real routine's. */
        gl_scalar optimal = 0;
        gl_int query = -1, query_info = 0;
        GL_FORWARD(routine, gesdd_fn, &query_info, jobz, m, n, a, lda, s, u,
                   ldu, vt, ldvt, &optimal, &query,
                   GL_IF_COMPLEX(rwork, ) iwork, &query_info, 1);
        /* Where U and VT go: JOBZ='O' overwrites A with U (m >= n) or
         * with VT (m < n); 'S' and 'O' give min(m,n) vectors per side. */
        char z = gl_upper(jobz);
        gl_svd_job job = {.stage3 = GL_SVD_BDSDC, .jobu = z, .jobvt = z};
        gl_scalar *u_out = u, *vt_out = vt;
        gl_int ldu_out = *ldu, ldvt_out = *ldvt;
        if (z == 'O') {
            job.jobu = job.jobvt = 'S';
            if (*m >= *n)
                u_out = a, ldu_out = *lda;
            else
                vt_out = a, ldvt_out = *lda;
        }
        double start = gl_now();
        gl_stage_times t = {0};
        int rc = query_info != 0
                     ? GL_STAGE_FAULT
                     : GL_FN(svd)(GL_FN(ops_for)(decision.path), &job, *m, *n,
                                  a, *lda, s, u_out, ldu_out, vt_out, ldvt_out,
                                  NULL, &t);
        decision = gl_accel_outcome(routine, decision, rc, &t, start);
        if (decision.path != GL_PATH_LAPACK) {
            *info = rc;
            work[0] = optimal;
        }
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info, "jobz=%c m=%d n=%d", gl_logchar(jobz),
                (int)*m, (int)*n);
#undef FORWARD
}
/* gl_s_gesdd_entry_wide gl_d_gesdd_entry_wide
 * gl_c_gesdd_entry_wide gl_z_gesdd_entry_wide */
GL_WIDE_ENTRY(gesdd_entry);

/* sgesdd_ dgesdd_ cgesdd_ zgesdd_
 * sgesdd_64_ dgesdd_64_ cgesdd_64_ zgesdd_64_ */
GL_EXPORT void GL_LAPACK_NAME(gesdd, gesdd)(
    const char *jobz, const gl_int *m, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *s, gl_scalar *u, const gl_int *ldu,
    gl_scalar *vt, const gl_int *ldvt, gl_scalar *work,
    const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
    gl_int *iwork, gl_int *info, gl_strlen jobz_len)
{
    (void)jobz_len;
    gesdd_entry(&routine, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork,
                GL_IF_COMPLEX(rwork, ) iwork, info);
}

/* scipy_sgesdd_ scipy_dgesdd_ scipy_cgesdd_ scipy_zgesdd_
 * scipy_sgesdd_64_ scipy_dgesdd_64_ scipy_cgesdd_64_ scipy_zgesdd_64_ */
GL_EXPORT void GL_SCIPY_NAME(gesdd, gesdd)(
    const char *jobz, const gl_int *m, const gl_int *n, gl_scalar *a,
    const gl_int *lda, gl_real *s, gl_scalar *u, const gl_int *ldu,
    gl_scalar *vt, const gl_int *ldvt, gl_scalar *work,
    const gl_int *lwork, GL_IF_COMPLEX(gl_real *rwork, )
    gl_int *iwork, gl_int *info, gl_strlen jobz_len)
{
    (void)jobz_len;
    gesdd_entry(&scipy_routine, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work,
                lwork, GL_IF_COMPLEX(rwork, ) iwork, info);
}
