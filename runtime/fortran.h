/* Fortran ABI of the exported LAPACK routines (gfortran >= 8 conventions). */
#ifndef GL_FORTRAN_H
#define GL_FORTRAN_H

#include <stddef.h>
#include <stdint.h>

/* LAPACK INTEGER: 32-bit (LP64), as Debian's liblapack3 and libopenblas0. */
typedef int32_t lapack_int;

/* Hidden CHARACTER length appended after the last argument by Fortran
 * compilers (size_t since gfortran 8).  Entry points declare them so that
 * the ABI matches, but never read them: numpy, scipy and R leave garbage
 * there or pass nothing at all. */
typedef size_t gl_strlen;

/* Only the LAPACK names and the gpulapack_ C API leave the library; every
 * other symbol is hidden (-fvisibility=hidden). */
#define GL_EXPORT __attribute__((visibility("default")))

#endif
