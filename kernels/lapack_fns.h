/* The system LAPACK/BLAS routines our own path calls (panel
 * factorizations, BLAS3, stage 3), resolved at run time from the same
 * library the forwarded calls go to, so no link dependency and always the
 * BLAS the program chose.  Per precision (runtime/precision.h). */
#ifndef GL_LAPACK_FNS_H
#define GL_LAPACK_FNS_H

#include "../runtime/fortran.h"
#include "../runtime/precision.h"

typedef const lapack_int cint;
typedef const char cchar;

/* gl_s_lapack_fns gl_d_lapack_fns gl_c_lapack_fns gl_z_lapack_fns */
typedef struct GL_FN(lapack_fns) {
    void (*geqrt3)(cint *m, cint *n, gl_scalar *a, cint *lda, gl_scalar *t,
                   cint *ldt, lapack_int *info);
    void (*gelqt3)(cint *m, cint *n, gl_scalar *a, cint *lda, gl_scalar *t,
                   cint *ldt, lapack_int *info);
    void (*geqrf)(cint *m, cint *n, gl_scalar *a, cint *lda, gl_scalar *tau,
                  gl_scalar *work, cint *lwork, lapack_int *info);
    void (*geqlf)(cint *m, cint *n, gl_scalar *a, cint *lda, gl_scalar *tau,
                  gl_scalar *work, cint *lwork, lapack_int *info);
    void (*larfb)(cchar *side, cchar *trans, cchar *direct, cchar *storev,
                  cint *m, cint *n, cint *k, const gl_scalar *v, cint *ldv,
                  const gl_scalar *t, cint *ldt, gl_scalar *c, cint *ldc,
                  gl_scalar *work, cint *ldwork, gl_strlen, gl_strlen,
                  gl_strlen, gl_strlen);
    void (*gemm)(cchar *ta, cchar *tb, cint *m, cint *n, cint *k,
                 const gl_scalar *alpha, const gl_scalar *a, cint *lda,
                 const gl_scalar *b, cint *ldb, const gl_scalar *beta,
                 gl_scalar *c, cint *ldc, gl_strlen, gl_strlen);
    /* ?symm for real, ?hemm for complex */
    void (*hemm)(cchar *side, cchar *uplo, cint *m, cint *n,
                 const gl_scalar *alpha, const gl_scalar *a, cint *lda,
                 const gl_scalar *b, cint *ldb, const gl_scalar *beta,
                 gl_scalar *c, cint *ldc, gl_strlen, gl_strlen);
    /* ?syr2k for real, ?her2k (real beta) for complex */
    void (*her2k)(cchar *uplo, cchar *trans, cint *n, cint *k,
                  const gl_scalar *alpha, const gl_scalar *a, cint *lda,
                  const gl_scalar *b, cint *ldb, const gl_real *beta,
                  gl_scalar *c, cint *ldc, gl_strlen, gl_strlen);
    void (*gemv)(cchar *trans, cint *m, cint *n, const gl_scalar *alpha,
                 const gl_scalar *a, cint *lda, const gl_scalar *x,
                 cint *incx, const gl_scalar *beta, gl_scalar *y, cint *incy,
                 gl_strlen);
    /* ?symv for real, ?hemv for complex */
    void (*hemv)(cchar *uplo, cint *n, const gl_scalar *alpha,
                 const gl_scalar *a, cint *lda, const gl_scalar *x,
                 cint *incx, const gl_scalar *beta, gl_scalar *y, cint *incy,
                 gl_strlen);
    void (*trmm)(cchar *side, cchar *uplo, cchar *transa, cchar *diag,
                 cint *m, cint *n, const gl_scalar *alpha, const gl_scalar *a,
                 cint *lda, gl_scalar *b, cint *ldb, gl_strlen, gl_strlen,
                 gl_strlen, gl_strlen);
    void (*lascl)(cchar *type, cint *kl, cint *ku, const gl_real *cfrom,
                  const gl_real *cto, cint *m, cint *n, gl_scalar *a,
                  cint *lda, lapack_int *info, gl_strlen);

    /* real precision (stage 3 works on real d, e) */
    void (*bdsqr)(cchar *uplo, cint *n, cint *ncvt, cint *nru, cint *ncc,
                  gl_real *d, gl_real *e, gl_real *vt, cint *ldvt, gl_real *u,
                  cint *ldu, gl_real *c, cint *ldc, gl_real *work,
                  lapack_int *info, gl_strlen);
    void (*sterf)(cint *n, gl_real *d, gl_real *e, lapack_int *info);
    void (*stebz)(cchar *range, cchar *order, cint *n, const gl_real *vl,
                  const gl_real *vu, cint *il, cint *iu, const gl_real *abstol,
                  const gl_real *d, const gl_real *e, lapack_int *m,
                  lapack_int *nsplit, gl_real *w, lapack_int *iblock,
                  lapack_int *isplit, gl_real *work, lapack_int *iwork,
                  lapack_int *info, gl_strlen, gl_strlen);
    void (*bdsdc)(cchar *uplo, cchar *compq, cint *n, gl_real *d, gl_real *e,
                  gl_real *u, cint *ldu, gl_real *vt, cint *ldvt, gl_real *q,
                  lapack_int *iq, gl_real *work, lapack_int *iwork,
                  lapack_int *info, gl_strlen, gl_strlen);
    void (*steqr)(cchar *compz, cint *n, gl_real *d, gl_real *e, gl_real *z,
                  cint *ldz, gl_real *work, lapack_int *info, gl_strlen);
    void (*stedc)(cchar *compz, cint *n, gl_real *d, gl_real *e, gl_real *z,
                  cint *ldz, gl_real *work, cint *lwork, lapack_int *iwork,
                  cint *liwork, lapack_int *info, gl_strlen);
    void (*stein)(cint *n, const gl_real *d, const gl_real *e, cint *m,
                  const gl_real *w, const lapack_int *iblock,
                  const lapack_int *isplit, gl_real *z, cint *ldz,
                  gl_real *work, lapack_int *iwork, lapack_int *ifail,
                  lapack_int *info);
    void (*rgeqrf)(cint *m, cint *n, gl_real *a, cint *lda, gl_real *tau,
                   gl_real *work, cint *lwork, lapack_int *info);
    void (*rorgqr)(cint *m, cint *n, cint *k, gl_real *a, cint *lda,
                   const gl_real *tau, gl_real *work, cint *lwork,
                   lapack_int *info);
    void (*lartg)(const gl_real *f, const gl_real *g, gl_real *cs,
                  gl_real *sn, gl_real *r);
    void (*rlascl)(cchar *type, cint *kl, cint *ku, const gl_real *cfrom,
                   const gl_real *cto, cint *m, cint *n, gl_real *a,
                   cint *lda, lapack_int *info, gl_strlen);
    gl_real (*lamch)(cchar *cmach, gl_strlen);

    /* Optional (NULL when the system LAPACK lacks one; the divide and
     * conquer of kernels/divide_conquer.c then leaves stage 3 to ?bdsdc
     * and ?stedc): their auxiliary routines and the real BLAS product. */
    void (*lasd0)(cint *n, cint *sqre, gl_real *d, gl_real *e, gl_real *u,
                  cint *ldu, gl_real *vt, cint *ldvt, cint *smlsiz,
                  lapack_int *iwork, gl_real *work, lapack_int *info);
    void (*lasd4)(cint *n, cint *i, const gl_real *d, const gl_real *z,
                  gl_real *delta, const gl_real *rho, gl_real *sigma,
                  gl_real *work, lapack_int *info);
    void (*laed2)(lapack_int *k, cint *n, cint *n1, gl_real *d, gl_real *q,
                  cint *ldq, lapack_int *indxq, gl_real *rho, gl_real *z,
                  gl_real *dlambda, gl_real *w, gl_real *q2,
                  lapack_int *indx, lapack_int *indxc, lapack_int *indxp,
                  lapack_int *coltyp, lapack_int *info);
    void (*laed4)(cint *n, cint *i, const gl_real *d, const gl_real *z,
                  gl_real *delta, const gl_real *rho, gl_real *dlam,
                  lapack_int *info);
    void (*lamrg)(cint *n1, cint *n2, const gl_real *a, cint *strd1,
                  cint *strd2, lapack_int *index);
    void (*rgemm)(cchar *ta, cchar *tb, cint *m, cint *n, cint *k,
                  const gl_real *alpha, const gl_real *a, cint *lda,
                  const gl_real *b, cint *ldb, const gl_real *beta,
                  gl_real *c, cint *ldc, gl_strlen, gl_strlen);
} GL_FN(lapack_fns);

/* The resolved table, or NULL if the system LAPACK lacks any of them (the
 * caller then forwards the whole call). */
const GL_FN(lapack_fns) *GL_FN(lapack_fns_get)(void);

#endif
