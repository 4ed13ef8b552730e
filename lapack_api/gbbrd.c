/* ?gbbrd: general band matrix to upper bidiagonal form, with Q, P**T and
 * C <- Q**T C on request. */
#include <complex.h>

#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "entry.h"

typedef void gbbrd_fn(const char *vect, const gl_int *m,
                      const gl_int *n, const gl_int *ncc,
                      const gl_int *kl, const gl_int *ku,
                      gl_scalar *ab, const gl_int *ldab, gl_real *d,
                      gl_real *e, gl_scalar *q, const gl_int *ldq,
                      gl_scalar *pt, const gl_int *ldpt, gl_scalar *c,
                      const gl_int *ldc, gl_scalar *work,
                      GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
                      gl_strlen);

static gl_routine routine = GL_ROUTINE_INIT(GL_LAPACK_STR(gbbrd, gbbrd));
static gl_routine scipy_routine =
    GL_ROUTINE_INIT(GL_SCIPY_STR(gbbrd, gbbrd));

static void gbbrd_entry(gl_routine *routine,
    const char *vect, const gl_int *m, const gl_int *n,
    const gl_int *ncc, const gl_int *kl, const gl_int *ku,
    gl_scalar *ab, const gl_int *ldab, gl_real *d, gl_real *e,
    gl_scalar *q, const gl_int *ldq, gl_scalar *pt,
    const gl_int *ldpt, gl_scalar *c, const gl_int *ldc,
    gl_scalar *work, GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info)
{
    GL_TO_WIDE_ENTRY(gbbrd_entry, routine, vect, m, n, ncc, kl, ku, ab,
                     ldab, d, e, q, ldq, pt, ldpt, c, ldc, work,
                     GL_IF_COMPLEX(rwork, ) info);
#define FORWARD()                                                             \
    GL_FORWARD(routine, gbbrd_fn, info, vect, m, n, ncc, kl, ku, ab, ldab,   \
               d, e, q, ldq, pt, ldpt, c, ldc, work, GL_IF_COMPLEX(rwork, )   \
               info, 1)
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        FORWARD();
        return;
    }
    gl_request request = {
        .routine = routine,
        .arg_info = gl_check_gbbrd(gl_upper(vect), *m, *n, *ncc, *kl, *ku,
                                   *ldab, *ldq, *ldpt, *ldc),
        .size = *m < *n ? *m : *n,
        .vectors = gl_upper(vect) != 'N' || *ncc > 0,
        .supported = *m >= 2 && *n >= 2 &&
                     GL_INTS_FIT(*m, *n, *ncc, *kl, *ku, *ldab, *ldq, *ldpt,
                                 *ldc),
    };
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK) {
        /* D and E; AB is left as it was (LAPACK leaves unspecified values) */
        double start = gl_now();
        gl_stage_times t = {0};
        int rc = GL_FN(gb_bidiag_q)(GL_FN(ops_for)(decision.path),
                                    gl_upper(vect), *m, *n, *ncc, *kl, *ku, ab,
                                    *ldab, d, e, q, *ldq, pt, *ldpt, c, *ldc,
                                    &t);
        decision = gl_accel_outcome(routine, decision, rc, &t, start);
        if (decision.path != GL_PATH_LAPACK)
            *info = 0;
    }
    if (decision.path == GL_PATH_LAPACK)
        FORWARD();
    gl_call_end(&call, decision, *info,
                "vect=%c m=%d n=%d ncc=%d kl=%d ku=%d", gl_logchar(vect),
                (int)*m, (int)*n, (int)*ncc, (int)*kl, (int)*ku);
#undef FORWARD
}
/* gl_s_gbbrd_entry_wide gl_d_gbbrd_entry_wide
 * gl_c_gbbrd_entry_wide gl_z_gbbrd_entry_wide */
GL_WIDE_ENTRY(gbbrd_entry);

/* sgbbrd_ dgbbrd_ cgbbrd_ zgbbrd_
 * sgbbrd_64_ dgbbrd_64_ cgbbrd_64_ zgbbrd_64_ */
GL_EXPORT void GL_LAPACK_NAME(gbbrd, gbbrd)(
    const char *vect, const gl_int *m, const gl_int *n,
    const gl_int *ncc, const gl_int *kl, const gl_int *ku,
    gl_scalar *ab, const gl_int *ldab, gl_real *d, gl_real *e,
    gl_scalar *q, const gl_int *ldq, gl_scalar *pt,
    const gl_int *ldpt, gl_scalar *c, const gl_int *ldc,
    gl_scalar *work, GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
    gl_strlen vect_len)
{
    (void)vect_len;
    gbbrd_entry(&routine, vect, m, n, ncc, kl, ku, ab, ldab, d, e, q, ldq, pt,
                ldpt, c, ldc, work, GL_IF_COMPLEX(rwork, ) info);
}

/* scipy_sgbbrd_ scipy_dgbbrd_ scipy_cgbbrd_ scipy_zgbbrd_
 * scipy_sgbbrd_64_ scipy_dgbbrd_64_ scipy_cgbbrd_64_ scipy_zgbbrd_64_ */
GL_EXPORT void GL_SCIPY_NAME(gbbrd, gbbrd)(
    const char *vect, const gl_int *m, const gl_int *n,
    const gl_int *ncc, const gl_int *kl, const gl_int *ku,
    gl_scalar *ab, const gl_int *ldab, gl_real *d, gl_real *e,
    gl_scalar *q, const gl_int *ldq, gl_scalar *pt,
    const gl_int *ldpt, gl_scalar *c, const gl_int *ldc,
    gl_scalar *work, GL_IF_COMPLEX(gl_real *rwork, ) gl_int *info,
    gl_strlen vect_len)
{
    (void)vect_len;
    gbbrd_entry(&scipy_routine, vect, m, n, ncc, kl, ku, ab, ldab, d, e, q,
                ldq, pt, ldpt, c, ldc, work, GL_IF_COMPLEX(rwork, ) info);
}
