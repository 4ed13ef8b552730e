/* The system LAPACK/BLAS routines our own path calls (panel
 * factorizations, BLAS3, stage 3), resolved at run time from the same
 * library the forwarded calls go to, so no link dependency and always the
 * BLAS the program chose.  Per precision (runtime/precision.h). */
#ifndef GL_LAPACK_FNS_H
#define GL_LAPACK_FNS_H

#include "../../runtime/fortran.h"
#include "../../runtime/parallel.h"
#include "../../runtime/precision.h"

typedef const char cchar;

/* The routines, for INTEGERs of type I: lapack_int in the table the
 * kernels call, int64_t for the routines of an ILP64 LAPACK behind it
 * (lapack_fns.c). */
#define GL_LAPACK_FNS_FIELDS(I)                                               \
    void (*geqrt3)(const I *m, const I *n, gl_scalar *a, const I *lda,        \
                   gl_scalar *t, const I *ldt, I *info);                      \
    void (*gelqt3)(const I *m, const I *n, gl_scalar *a, const I *lda,        \
                   gl_scalar *t, const I *ldt, I *info);                      \
    void (*geqrf)(const I *m, const I *n, gl_scalar *a, const I *lda,         \
                  gl_scalar *tau, gl_scalar *work, const I *lwork, I *info);  \
    void (*geqlf)(const I *m, const I *n, gl_scalar *a, const I *lda,         \
                  gl_scalar *tau, gl_scalar *work, const I *lwork, I *info);  \
    void (*larfb)(cchar *side, cchar *trans, cchar *direct,                \
                  cchar *storev, const I *m, const I *n, const I *k,         \
                  const gl_scalar *v, const I *ldv, const gl_scalar *t,       \
                  const I *ldt, gl_scalar *c, const I *ldc, gl_scalar *work,  \
                  const I *ldwork, gl_strlen, gl_strlen, gl_strlen,           \
                  gl_strlen);                                                 \
    void (*gemm)(cchar *ta, cchar *tb, const I *m, const I *n, const I *k,  \
                 const gl_scalar *alpha, const gl_scalar *a, const I *lda,    \
                 const gl_scalar *b, const I *ldb, const gl_scalar *beta,     \
                 gl_scalar *c, const I *ldc, gl_strlen, gl_strlen);           \
    /* ?symm for real, ?hemm for complex */                                   \
    void (*hemm)(cchar *side, cchar *uplo, const I *m, const I *n,          \
                 const gl_scalar *alpha, const gl_scalar *a, const I *lda,    \
                 const gl_scalar *b, const I *ldb, const gl_scalar *beta,     \
                 gl_scalar *c, const I *ldc, gl_strlen, gl_strlen);           \
    /* ?syr2k for real, ?her2k (real beta) for complex */                     \
    void (*her2k)(cchar *uplo, cchar *trans, const I *n, const I *k,        \
                  const gl_scalar *alpha, const gl_scalar *a, const I *lda,   \
                  const gl_scalar *b, const I *ldb, const gl_real *beta,      \
                  gl_scalar *c, const I *ldc, gl_strlen, gl_strlen);          \
    void (*gemv)(cchar *trans, const I *m, const I *n,                       \
                 const gl_scalar *alpha, const gl_scalar *a, const I *lda,    \
                 const gl_scalar *x, const I *incx, const gl_scalar *beta,    \
                 gl_scalar *y, const I *incy, gl_strlen);                     \
    /* ?symv for real, ?hemv for complex */                                   \
    void (*hemv)(cchar *uplo, const I *n, const gl_scalar *alpha,            \
                 const gl_scalar *a, const I *lda, const gl_scalar *x,        \
                 const I *incx, const gl_scalar *beta, gl_scalar *y,          \
                 const I *incy, gl_strlen);                                   \
    void (*trmm)(cchar *side, cchar *uplo, cchar *transa, cchar *diag,    \
                 const I *m, const I *n, const gl_scalar *alpha,              \
                 const gl_scalar *a, const I *lda, gl_scalar *b,              \
                 const I *ldb, gl_strlen, gl_strlen, gl_strlen, gl_strlen);   \
    void (*lascl)(cchar *type, const I *kl, const I *ku,                     \
                  const gl_real *cfrom, const gl_real *cto, const I *m,       \
                  const I *n, gl_scalar *a, const I *lda, I *info,            \
                  gl_strlen);                                                 \
                                                                              \
    /* real precision (stage 3 works on real d, e) */                         \
    void (*bdsqr)(cchar *uplo, const I *n, const I *ncvt, const I *nru,      \
                  const I *ncc, gl_real *d, gl_real *e, gl_real *vt,          \
                  const I *ldvt, gl_real *u, const I *ldu, gl_real *c,        \
                  const I *ldc, gl_real *work, I *info, gl_strlen);           \
    void (*sterf)(const I *n, gl_real *d, gl_real *e, I *info);               \
    void (*stebz)(cchar *range, cchar *order, const I *n,                   \
                  const gl_real *vl, const gl_real *vu, const I *il,          \
                  const I *iu, const gl_real *abstol, const gl_real *d,       \
                  const gl_real *e, I *m, I *nsplit, gl_real *w, I *iblock,   \
                  I *isplit, gl_real *work, I *iwork, I *info, gl_strlen,     \
                  gl_strlen);                                                 \
    void (*bdsdc)(cchar *uplo, cchar *compq, const I *n, gl_real *d,        \
                  gl_real *e, gl_real *u, const I *ldu, gl_real *vt,          \
                  const I *ldvt, gl_real *q, I *iq, gl_real *work, I *iwork,  \
                  I *info, gl_strlen, gl_strlen);                             \
    void (*steqr)(cchar *compz, const I *n, gl_real *d, gl_real *e,          \
                  gl_real *z, const I *ldz, gl_real *work, I *info,           \
                  gl_strlen);                                                 \
    void (*stedc)(cchar *compz, const I *n, gl_real *d, gl_real *e,          \
                  gl_real *z, const I *ldz, gl_real *work, const I *lwork,    \
                  I *iwork, const I *liwork, I *info, gl_strlen);             \
    void (*stein)(const I *n, const gl_real *d, const gl_real *e, const I *m, \
                  const gl_real *w, const I *iblock, const I *isplit,         \
                  gl_real *z, const I *ldz, gl_real *work, I *iwork,          \
                  I *ifail, I *info);                                         \
    void (*rgeqrf)(const I *m, const I *n, gl_real *a, const I *lda,          \
                   gl_real *tau, gl_real *work, const I *lwork, I *info);     \
    void (*rorgqr)(const I *m, const I *n, const I *k, gl_real *a,            \
                   const I *lda, const gl_real *tau, gl_real *work,           \
                   const I *lwork, I *info);                                  \
    void (*lartg)(const gl_real *f, const gl_real *g, gl_real *cs,            \
                  gl_real *sn, gl_real *r);                                   \
    void (*rlascl)(cchar *type, const I *kl, const I *ku,                    \
                   const gl_real *cfrom, const gl_real *cto, const I *m,      \
                   const I *n, gl_real *a, const I *lda, I *info, gl_strlen); \
    gl_real (*lamch)(cchar *cmach, gl_strlen);                               \
                                                                              \
    /* Optional (NULL when the system LAPACK lacks one; the divide and        \
     * conquer of kernels/stages/dc_*.c then leaves stage 3 to ?bdsdc      \
     * and ?stedc): their auxiliary routines and the real BLAS product. */    \
    void (*lasd0)(const I *n, const I *sqre, gl_real *d, gl_real *e,          \
                  gl_real *u, const I *ldu, gl_real *vt, const I *ldvt,       \
                  const I *smlsiz, I *iwork, gl_real *work, I *info);         \
    void (*lasd4)(const I *n, const I *i, const gl_real *d, const gl_real *z, \
                  gl_real *delta, const gl_real *rho, gl_real *sigma,         \
                  gl_real *work, I *info);                                    \
    void (*laed2)(I * k, const I *n, const I *n1, gl_real *d, gl_real *q,     \
                  const I *ldq, I *indxq, gl_real *rho, gl_real *z,           \
                  gl_real *dlambda, gl_real *w, gl_real *q2, I *indx,         \
                  I *indxc, I *indxp, I *coltyp, I *info);                    \
    void (*laed4)(const I *n, const I *i, const gl_real *d, const gl_real *z, \
                  gl_real *delta, const gl_real *rho, gl_real *dlam,          \
                  I *info);                                                   \
    void (*lamrg)(const I *n1, const I *n2, const gl_real *a, const I *strd1, \
                  const I *strd2, I *index);                                  \
    void (*rgemm)(cchar *ta, cchar *tb, const I *m, const I *n, const I *k, \
                  const gl_real *alpha, const gl_real *a, const I *lda,       \
                  const gl_real *b, const I *ldb, const gl_real *beta,        \
                  gl_real *c, const I *ldc, gl_strlen, gl_strlen);

/* gl_s_lapack_fns gl_d_lapack_fns gl_c_lapack_fns gl_z_lapack_fns */
typedef struct GL_FN(lapack_fns) {
    GL_LAPACK_FNS_FIELDS(lapack_int)
    /* the BLAS's thread count, from the same library (both NULL where it
     * has no known functions for it) */
    gl_blas_threads blas_threads;
} GL_FN(lapack_fns);

/* The resolved table, or NULL if the system LAPACK lacks any of them (the
 * caller then forwards the whole call). */
const GL_FN(lapack_fns) * GL_FN(lapack_fns_get)(void);

#endif
