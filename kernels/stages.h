/* The stage drivers and the values-only pipelines, written once against
 * the operation table (ops.h).  Include after precision.h. */
#ifndef GL_STAGES_H
#define GL_STAGES_H

#include "ops.h"
#include "status.h"


/* Stage 1, general: A (m x n, m >= n) -> upper band of half-width b, by
 * QR of each block column and LQ of each block row (paper 003). */
int GL_FN(ge2gb)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                 lapack_int b, gl_scalar *a, lapack_int lda);

/* Stage 1, Hermitian: A (n x n, lower triangle) -> lower band of
 * half-width b, as LAPACK's ?sytrd_sy2sb ('L'): Q^H A Q with the blocked
 * two-sided update W = A V T - 1/2 V (T^H V^H A V T), A -= V W^H + W V^H.
 * The reflectors stay below the band of A; tau (host, may be NULL)
 * receives their scalars, tau[k] for the one of column k. */
int GL_FN(sy2sb)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 gl_scalar *a, lapack_int lda, gl_scalar *tau);

/* Stage 2, general: packed upper band of half-width b (ops.h storage,
 * ldband = 3b+1) -> upper bidiagonal, in passes that each reduce the
 * half-width by at most tw (the bandwidth tiling of paper 000). */
int GL_FN(gb2bd)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 lapack_int tw, gl_scalar *band, lapack_int ldband);

/* Per-stage seconds of one pipeline run. */
typedef struct gl_stage_times {
    double stage1, stage2, stage3;
} gl_stage_times;

/* Values-only pipelines.  Each leaves the caller's arrays untouched until
 * it cannot fail any more; returns 0, GL_STAGE_FAULT, or LAPACK's INFO > 0
 * of the stage-3 routine. */

/* Singular values of the m x n matrix A (descending in s).  e (min(m,n)-1,
 * may be NULL) receives the unconverged superdiagonal when INFO > 0. */
int GL_FN(svd_values)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                      const gl_scalar *a, lapack_int lda, gl_real *s,
                      gl_real *e, gl_stage_times *times);

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

/* Hermitian A (its uplo triangle) times sigma -> real tridiagonal d (n),
 * e (n-1) with the same eigenvalues.  q1/tau (may be NULL): Q1 of stage 1
 * as ?sytrd_2stage returns it, the band and the reflectors in the uplo
 * triangle of q1 and their scalars in tau (n-1). */
int GL_FN(he_tridiag)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                      const gl_scalar *a, lapack_int lda, gl_real sigma,
                      gl_real *d, gl_real *e, gl_scalar *q1, lapack_int ldq1,
                      gl_scalar *tau, gl_stage_times *times);

/* Eigenvalues of the Hermitian A, ascending, *m of them. */
int GL_FN(eig_values)(const GL_FN(ops) *ops, const gl_eig_job *job,
                      lapack_int n, const gl_scalar *a, lapack_int lda,
                      lapack_int *m, gl_real *w, gl_stage_times *times);

/* The real bidiagonal (kind 'G': packed upper band of half-width b,
 * ldband = 3b+1) or tridiagonal (kind 'H': packed lower band) that stage 2
 * left in the backend's band, into host d (n) and e (n-1).  The chase
 * leaves complex entries of any sign: 'G' returns |d|, |e|, the same
 * bidiagonal up to diagonal unitary scalings from both sides (same singular
 * values); 'H' returns Re(d) and |e|, a diagonal unitary similarity (same
 * eigenvalues).  scratch: 2n host scalars. */
void GL_FN(band_to_de)(const GL_FN(ops) *ops, char kind, lapack_int n,
                       lapack_int b, const gl_scalar *band,
                       lapack_int ldband, gl_scalar *scratch, gl_real *d,
                       gl_real *e);

/* Band input.  gb_bidiag: the m x n band (LAPACK ?gbbrd storage) to an
 * upper bidiagonal d (min(m,n)), e (min(m,n)-1) with the same singular
 * values.  sb_tridiag: the Hermitian band (?sbtrd storage) times sigma to
 * a real tridiagonal d (n), e (n-1) with the same eigenvalues.  sb_values:
 * eigenvalues of the Hermitian band, ascending, scaled as ?sbev. */
int GL_FN(gb_bidiag)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     lapack_int kl, lapack_int ku, const gl_scalar *ab,
                     lapack_int ldab, gl_real *d, gl_real *e,
                     gl_stage_times *times);
int GL_FN(sb_tridiag)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                      lapack_int kd, const gl_scalar *ab, lapack_int ldab,
                      gl_real sigma, gl_real *d, gl_real *e,
                      gl_stage_times *times);
int GL_FN(sb_values)(const GL_FN(ops) *ops, char uplo, int unscale_all,
                     lapack_int n, lapack_int kd, const gl_scalar *ab,
                     lapack_int ldab, gl_real *w, gl_stage_times *times);

#endif
