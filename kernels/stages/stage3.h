/* Stage 3: the tridiagonal eigenproblem and the bidiagonal SVD by
 * divide and conquer with the merges' products on the backend
 * (dc_tridiag.c, dc_svd.c, dc_secular.c, dc_common.c), stage 3 with
 * vectors as each ?syev-family driver does it (tridiag_vectors.c), and
 * the eigenvectors of the tridiagonal kept on a device through the
 * back-transformation (tridiag_q.c dc_vectors_on_device). */
#ifndef GL_STAGES_STAGE3_H
#define GL_STAGES_STAGE3_H

#include <stdlib.h>

#include "../ops.h"
#include "../status.h"
#include "../backend/lapack_fns.h"
#include "backtransform.h"

/* Real values in ascending order, as the drivers return eigenvalues. */
static inline int gl_real_ascending(const void *x, const void *y)
{
    gl_real a = *(const gl_real *)x, b = *(const gl_real *)y;
    return (a > b) - (a < b);
}

/* gl_s_sort_ascending gl_d_sort_ascending gl_c_sort_ascending gl_z_sort_ascending */
static inline void GL_FN(sort_ascending)(gl_real *w, size_t count)
{
    qsort(w, count, sizeof *w, gl_real_ascending);
}

/* ?stedc('I', n, d, e, z, ldz, work, lwork, iwork, liwork) with the
 * products of the large merges on the backend (ops->real_product), or the
 * system ?stedc itself (the work arrays are used only then).  Returns 0
 * with ?stedc's INFO in *info, or < 0 when the device failed. */
int GL_FN(tridiag_eig)(const GL_FN(ops) *ops, lapack_int n, gl_real *d,
                       gl_real *e, gl_real *z, lapack_int ldz, gl_real *work,
                       lapack_int lwork, lapack_int *iwork,
                       lapack_int liwork, lapack_int *info);

/* ?stedc('I', n, d, e, z, ldz) with Z in the backend's memory (real,
 * ld ldz) for a device backend (ops->real_fill and the other stage-3
 * operations): the merges on the device, the host keeping O(n) per merge
 * besides the roots; small problems (up to the leaves' size) through
 * tridiag_eig on the host and one copy.  Returns 0 with ?stedc's INFO in
 * *info, or < 0 when the device failed or memory was refused. */
int GL_FN(tridiag_eig_device)(const GL_FN(ops) *ops, lapack_int n,
                              gl_real *d, gl_real *e, gl_real *z,
                              lapack_int ldz, lapack_int *info);

/* ?bdsdc('U', 'I', n, d, e, u, ldu, vt, ldvt) with U and VT in the
 * backend's memory (real), as tridiag_eig_device.  scratch: 4 n^2 reals
 * of the backend's memory the solve may use (the caller's arena, where
 * they share bytes with what is live only after stage 3), or NULL: it
 * allocates its own. */
int GL_FN(bidiag_svd_device)(const GL_FN(ops) *ops, lapack_int n,
                             gl_real *d, gl_real *e, gl_real *u,
                             lapack_int ldu, gl_real *vt, lapack_int ldvt,
                             gl_real *scratch, lapack_int *info);

/* ?bdsdc('U', 'I', n, d, e, u, ldu, vt, ldvt, ...) with the products of
 * the large merges on the backend (ops->real_product), or the system
 * ?bdsdc itself (work: 3 n^2 + 4 n, iwork: 8 n, used only then).  Returns
 * 0 with ?bdsdc's INFO in *info, or < 0 when the device failed. */
int GL_FN(bidiag_svd)(const GL_FN(ops) *ops, lapack_int n, gl_real *d,
                      gl_real *e, gl_real *u, lapack_int ldu, gl_real *vt,
                      lapack_int ldvt, gl_real *work, lapack_int *iwork,
                      lapack_int *info);

/* The ?syev-family driver whose contract the eigenvalue pipeline follows
 * (scaling bounds, stage-3 routine, INFO and unscaling rules). */
typedef enum gl_eig_driver {
    GL_EIG_SYEV,    /* ?sterf; unscale the first INFO-1 on failure */
    GL_EIG_SYEVD,   /* ?sterf; unscale all n */
    GL_EIG_SYEVR,   /* ?sterf for all values, ?stebz otherwise or when
                       ?sterf fails; tighter rmax, scaled vl/vu/abstol */
    GL_EIG_SYEVX,   /* as SYEVR, ?sterf only when abstol <= 0; ?stebz
                       failure reported as INFO = n + its INFO */
} gl_eig_driver;

typedef struct gl_eig_job {
    gl_eig_driver driver;
    char uplo;          /* 'U' or 'L': the triangle of A that is read */
    char range;         /* 'A' all; 'V' in (vl, vu]; 'I' il-th..iu-th */
    gl_real vl, vu;
    lapack_int il, iu;  /* 1-based */
    gl_real abstol;     /* as ?stebz */
} gl_eig_job;

/* Stage 3 with vectors, as the ?syev-family driver of job does it after
 * its tridiagonal reduction (but ?stedc where ?syevr uses ?stemr, see
 * eig.c): the eigenvalues w (*m of them) and the
 * eigenvectors zt (n x *m, real, ld n) of the tridiagonal (d, e) of the
 * matrix scaled by sigma, sorted ascending with their vectors (and IFAIL)
 * as ?syevr/?syevx sort them; isuppz/ifail may be NULL for the drivers
 * without them.  work: gl_tridiagonal_work(n) reals, iwork:
 * gl_tridiagonal_iwork(n) integers.  ?stedc runs as tridiag_eig on
 * ops.  Returns the driver's INFO, or GL_STAGE_FAULT when the device
 * failed. */
static inline size_t gl_tridiagonal_work(lapack_int n)
{
    size_t nn = (size_t)n * (size_t)n, dc = 1 + 4 * (size_t)n + nn;
    return 2 * (size_t)n + (dc > 18 * (size_t)n ? dc : 18 * (size_t)n);
}
static inline size_t gl_tridiagonal_iwork(lapack_int n)
{
    return 13 * (size_t)n + 3;
}
lapack_int GL_FN(tridiagonal_vectors)(const GL_FN(ops) *ops,
                                      const gl_eig_job *job, lapack_int n,
                                      const gl_real *d, const gl_real *e,
                                      gl_real sigma, lapack_int *m,
                                      gl_real *w, gl_real *zt,
                                      lapack_int *isuppz, lapack_int *ifail,
                                      gl_real *work, lapack_int *iwork);

/* ?stebz on (d, e) of the matrix scaled by sigma, with the job's bounds
 * and tolerance scaled as the drivers scale them (order "E" or "B", as
 * ?stebz's ORDER); returns its INFO. */
lapack_int GL_FN(scaled_stebz)(const GL_FN(lapack_fns) *f,
                               const gl_eig_job *job, const char *order,
                               lapack_int n, const gl_real *d,
                               const gl_real *e, gl_real sigma,
                               lapack_int *m, gl_real *w, lapack_int *iblock,
                               lapack_int *isplit, gl_real *work,
                               lapack_int *iwork);

/* Stage 3 by ?stedc with its vectors left on a device (ops->real_fill set)
 * and z (host, n x n) = Q diag(phase) Z_T from them: w = the eigenvalues
 * of the tridiagonal (d, e) (n each; scratch: n reals), isuppz (unless
 * NULL) the supports of Z_T's columns as ?stemr's.  Returns ?stedc's
 * INFO (GL_STAGE_FAULT for INFO > 0 unless keep_info), or
 * GL_STAGE_FAULT; *back = when the back-transformation started
 * (gl_profile_stage).  protect 'L'/'U': z is the caller's A, whose uplo
 * triangle a failed read puts back for the restart on LAPACK; 0: a
 * failed read may leave z written in part (the restart on LAPACK writes
 * it again).  subset (NULL:
 * all n): the job's RANGE 'V' or 'I', on the matrix scaled by sigma;
 * then w and z receive the *m selected eigenpairs, ascending (isuppz is
 * not set: the drivers set it for whole spectra only). */
lapack_int GL_FN(dc_vectors_on_device)(const GL_FN(ops) *ops,
                                       const GL_FN(tridiag_q) *q,
                                       const gl_real *d, const gl_real *e,
                                       gl_real *w, lapack_int *isuppz,
                                       int keep_info, gl_real *scratch,
                                       gl_scalar *z, lapack_int ldz,
                                       char protect, const gl_eig_job *subset,
                                       gl_real sigma, lapack_int *m,
                                       double *back);

#endif
