/* One source, four precisions: every lapack_api/<routine>.c is compiled once
 * per precision with -DGL_PRECISION=1 (s), 2 (d), 3 (c) or 4 (z).  This header
 * maps that choice onto types and LAPACK names.
 *
 *   GL_LAPACK_NAME(syevd, heevd)  ->  dsyevd_ / zheevd_   (exported symbol)
 *   GL_LAPACK_STR(syevd, heevd)   ->  "dsyevd" / "zheevd" (routine name)
 */
#ifndef GL_PRECISION_H
#define GL_PRECISION_H

#if GL_PRECISION == 1
#define GL_P s
typedef float gl_scalar;
typedef float gl_real;
#define GL_COMPLEX 0
#elif GL_PRECISION == 2
#define GL_P d
typedef double gl_scalar;
typedef double gl_real;
#define GL_COMPLEX 0
#elif GL_PRECISION == 3
#define GL_P c
typedef float _Complex gl_scalar;
typedef float gl_real;
#define GL_COMPLEX 1
#elif GL_PRECISION == 4
#define GL_P z
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

#define GL_LAPACK_NAME(real_name, complex_name) \
    GL_PASTE2(GL_PASTE2(GL_P, GL_PICK(real_name, complex_name)), _)
#define GL_LAPACK_STR(real_name, complex_name) \
    GL_STR(GL_PASTE2(GL_P, GL_PICK(real_name, complex_name)))

#endif
