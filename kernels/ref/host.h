/* The host backend: kernels/ref/ fills the whole operation table with the
 * system LAPACK/BLAS (resolved at run time, like the forwarded routines)
 * and the plain-C stage-2 kernels.  Include after precision.h. */
#ifndef GL_HOST_H
#define GL_HOST_H

#include "../ops.h"
#include "../../runtime/tune.h"

/* Upper bound of the threads the host kernels start. */
#define GL_HOST_MAX_THREADS 64


int GL_FN(host_gb_chase)(lapack_int n, lapack_int b, lapack_int c,
                         gl_scalar *band, lapack_int ldband,
                         const GL_FN(reflectors) *keep);
int GL_FN(host_sb_chase)(lapack_int n, lapack_int b, gl_scalar *band,
                         lapack_int ldband, const GL_FN(reflectors) *keep);

extern const GL_FN(ops) GL_FN(host_ops);

#endif
