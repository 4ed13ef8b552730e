/* One source, four precisions: every lapack_api/<routine>.c and
 * kernels/<file>.c is compiled once per precision with -DGL_PRECISION=1 (s),
 * 2 (d), 3 (c) or 4 (z).  This header maps that choice onto types and LAPACK
 * names.
 *
 *   GL_LAPACK_NAME(syevd, heevd)  ->  dsyevd_ / zheevd_   (exported symbol)
 *   GL_LAPACK_STR(syevd, heevd)   ->  "dsyevd" / "zheevd" (routine name)
 *   GL_SCIPY_NAME(syevd, heevd)   ->  scipy_dsyevd_        (exported symbol)
 *
 * With -DGL_ILP64=1 (the entry templates' second compilation, 64-bit
 * INTEGERs, runtime/fortran.h's gl_int) the names of that interface:
 * dsyevd_64_, "dsyevd_64", scipy_dsyevd_64_.  GL_SYMBOL and
 * GL_REAL_SYMBOL, the names of the real routines the kernels call, stay
 * the LP64 ones.
 */
#ifndef GL_PRECISION_H
#define GL_PRECISION_H

#if GL_PRECISION == 1
#define GL_P s
#define GL_RP s
typedef float gl_scalar;
typedef float gl_real;
#define GL_COMPLEX 0
#elif GL_PRECISION == 2
#define GL_P d
#define GL_RP d
typedef double gl_scalar;
typedef double gl_real;
#define GL_COMPLEX 0
#elif GL_PRECISION == 3
#define GL_P c
#define GL_RP s
typedef float _Complex gl_scalar;
typedef float gl_real;
#define GL_COMPLEX 1
#elif GL_PRECISION == 4
#define GL_P z
#define GL_RP d
typedef double _Complex gl_scalar;
typedef double gl_real;
#define GL_COMPLEX 1
#else
#error "compile with -DGL_PRECISION=1|2|3|4 (s|d|c|z)"
#endif

#if GL_COMPLEX
#define GL_PICK(real_name, complex_name) complex_name
/* Expands to its arguments only in complex precisions (RWORK, LRWORK). */
#define GL_IF_COMPLEX(...) __VA_ARGS__
#else
#define GL_PICK(real_name, complex_name) real_name
#define GL_IF_COMPLEX(...)
#endif

#define GL_PASTE2_(a, b) a##b
#define GL_PASTE2(a, b) GL_PASTE2_(a, b)
#define GL_STR_(x) #x
#define GL_STR(x) GL_STR_(x)

#if defined(GL_ILP64) && GL_ILP64
#define GL_NAME_TAIL_ _64_
#define GL_STR_TAIL_ "_64"
#else
#define GL_NAME_TAIL_ _
#define GL_STR_TAIL_ ""
#endif
#define GL_LAPACK_NAME(real_name, complex_name) \
    GL_PASTE2(GL_PASTE2(GL_P, GL_PICK(real_name, complex_name)), GL_NAME_TAIL_)
#define GL_LAPACK_STR(real_name, complex_name) \
    GL_STR(GL_PASTE2(GL_P, GL_PICK(real_name, complex_name))) GL_STR_TAIL_
/* The same routine under the prefix of the OpenBLAS inside pip's numpy and
 * scipy wheels (scipy-openblas). */
#define GL_SCIPY_NAME(real_name, complex_name) \
    GL_PASTE2(scipy_, GL_LAPACK_NAME(real_name, complex_name))
#define GL_SCIPY_STR(real_name, complex_name) \
    "scipy_" GL_LAPACK_STR(real_name, complex_name)

/* Symbol of a LAPACK/BLAS routine of this precision ("dgeqrt3_"), and of
 * the real precision that goes with it ("dsterf_" for z as well). */
#define GL_SYMBOL(real_name, complex_name) \
    GL_STR(GL_PASTE2(GL_PASTE2(GL_P, GL_PICK(real_name, complex_name)), _))
#define GL_REAL_SYMBOL(name) GL_STR(GL_PASTE2(GL_PASTE2(GL_RP, name), _))

/* The precision letter as a char: 's', 'd', 'c' or 'z'. */
#define GL_PREC_CHAR (GL_STR(GL_P)[0])

/* Internal per-precision function names: GL_FN(ge2gb) -> gl_d_ge2gb. */
#define GL_FN(name) GL_PASTE2(GL_PASTE2(gl_, GL_P), GL_PASTE2(_, name))

/* Scalar helpers: GL_R(sqrt) is sqrtf or sqrt; GL_REAL, GL_IMAG, GL_CONJ,
 * GL_ABS work on gl_scalar; GL_SAFMIN is LAPACK's safmin/eps of ?larfg.
 * (Users include <math.h>, and <complex.h> for c/z.) */
#if GL_PRECISION == 1 || GL_PRECISION == 3
#define GL_R(x) x##f
#define GL_SAFMIN (FLT_MIN / (FLT_EPSILON * 0.5f))
#else
#define GL_R(x) x
#define GL_SAFMIN (DBL_MIN / (DBL_EPSILON * 0.5))
#endif

#if GL_COMPLEX
#define GL_REAL(z) GL_R(creal)(z)
#define GL_IMAG(z) GL_R(cimag)(z)
#define GL_CONJ(z) GL_R(conj)(z)
#define GL_ABS(z) GL_R(cabs)(z)
#else
#define GL_REAL(z) (z)
#define GL_IMAG(z) ((gl_real)0)
#define GL_CONJ(z) (z)
#define GL_ABS(z) GL_R(fabs)(z)
#endif


#endif
