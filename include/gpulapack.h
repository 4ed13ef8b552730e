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

#ifdef __cplusplus
}
#endif

#endif
