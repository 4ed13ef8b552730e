/* The argument check and the request shared by ?syevr and ?syevx (and
 * their _2stage forms), which take the same arguments and report the same
 * INFO values. */
#ifndef GL_SYEVR_CHECK_H
#define GL_SYEVR_CHECK_H

#include "../runtime/fortran.h"
#include "../runtime/precision.h"
#include "entry.h"

/* What ?syevr and ?syevx tell the policy alike; each adds its workspace
 * query and minimum.  Like LAPACK, reads VL/VU only for RANGE='V' and
 * IL/IU only for 'I': C callers pass NULL for the unused ones. */
static inline gl_request gl_syevr_request(int two_stage, const char *jobz,
                                          const char *range, const char *uplo,
                                          const gl_int *n, const gl_int *lda,
                                          const gl_real *vl, const gl_real *vu,
                                          const gl_int *il, const gl_int *iu,
                                          const gl_int *ldz)
{
    char range_c = gl_upper(range);
    return (gl_request){
        .arg_info = gl_check_syevr(two_stage, gl_upper(jobz), range_c,
                                   gl_upper(uplo), *n, *lda,
                                   range_c == 'V' && *vu <= *vl,
                                   range_c == 'I' ? *il : 1,
                                   range_c == 'I' ? *iu : 0, *ldz),
        .size = *n,
        .vectors = gl_upper(jobz) != 'N',
        .supported = *n >= 2 && GL_INTS_FIT(*n, *lda, *ldz),
    };
}

#endif
