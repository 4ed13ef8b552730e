/* Fortran ABI of the exported LAPACK routines (gfortran >= 8 conventions). */
#ifndef GL_FORTRAN_H
#define GL_FORTRAN_H

#include <stddef.h>
#include <stdint.h>

/* LAPACK INTEGER: 32-bit (LP64), as Debian's liblapack3 and libopenblas0.
 * The kernels and the real LAPACK routines they call use this one. */
typedef int32_t lapack_int;

/* The INTEGER of the entry points being compiled.  Each lapack_api/
 * template is compiled twice: with GL_ILP64 undefined or 0 for the LP64
 * names (dsyevd_, scipy_dsyevd_), and with -DGL_ILP64=1 for the ILP64
 * names (dsyevd_64_, scipy_dsyevd_64_) with 64-bit INTEGERs. */
#if defined(GL_ILP64) && GL_ILP64
typedef int64_t gl_int;
#else
typedef lapack_int gl_int;
#endif

/* Hidden CHARACTER length appended after the last argument by Fortran
 * compilers (size_t since gfortran 8).  Entry points declare them so that
 * the ABI matches, but never read them: numpy, scipy and R leave garbage
 * there or pass nothing at all. */
typedef size_t gl_strlen;

/* Only the LAPACK names and the gpulapack_ C API leave the library; every
 * other symbol is hidden (-fvisibility=hidden). */
#define GL_EXPORT __attribute__((visibility("default")))

#endif
