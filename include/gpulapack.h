/* gpulapack: LAPACK's SVD and symmetric/Hermitian eigensolvers, accelerated,
 * behind the unchanged LAPACK Fortran ABI (dgesdd_, dsyevd_, ...).
 *
 * Programs need nothing from this header to use the library: they call
 * LAPACK as before.  It offers the few things LAPACK has no name for. */
#ifndef GPULAPACK_H
#define GPULAPACK_H

#ifdef __cplusplus
extern "C" {
#endif

#define GPULAPACK_VERSION "0.1.0"

/* The library's version string (GPULAPACK_VERSION of the build). */
const char *gpulapack_version(void);

/* File name of the real LAPACK that unaccelerated calls are forwarded to,
 * or NULL if none was found (see GPULAPACK_LAPACK in docs/env.md). */
const char *gpulapack_lapack_library(void);

/* Space-separated names of the backends compiled in, e.g. "host". */
const char *gpulapack_backends(void);

/* Number of GPU devices found by the compiled-in backends. */
int gpulapack_device_count(void);

/* Where the time of an accelerated call went, in seconds (0 for a stage the
 * call did not run): stage 1 = dense to band
 * (including a QR/LQ first for tall or wide matrices), stage 2 = band to
 * bidiagonal/tridiagonal (bulge chasing), stage 3 = the
 * bidiagonal/tridiagonal solve, backtransform = applying the stage-1 and
 * stage-2 transformations to the vectors of stage 3 (calls with vectors);
 * other = copies, scaling, checks. */
typedef struct gpulapack_timing {
    char routine[16];   /* LAPACK name of the call, e.g. "dgesdd" */
    char path[8];       /* "host", "opencl", "cuda", "hip" */
    double stage1, stage2, stage3, backtransform, other, total;
} gpulapack_timing;

/* The timing of the calling thread's last call that took an accelerated
 * path.  Returns 1 and fills *out, or 0 if this thread made none yet. */
int gpulapack_last_timing(gpulapack_timing *out);

#ifdef __cplusplus
}
#endif

#endif
