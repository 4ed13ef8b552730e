/* The pipelines: what the routines' entries (lapack_api/) call, each a
 * whole driver's work written once against the operation table (ops.h),
 * per precision: the SVD (svd.c, its lean and streamed tiers in
 * svd_lean.c and svd_streamed.c), the Hermitian eigenproblem (eig.c,
 * its methods in eig_one_stage.c and eig_vendor.c), ?sytrd (sytrd.c)
 * and the band routines (band_values.c), with the device memory each
 * plan takes. */
#ifndef GL_PIPELINES_PIPELINES_H
#define GL_PIPELINES_PIPELINES_H

#include <math.h>

#include "../ops.h"
#include "../plan.h"
#include "../status.h"
#include "../stages/stages.h"
#include "../stages/backtransform.h"
#include "../stages/stage3.h"

/* Values-only pipelines.  Each leaves the caller's arrays untouched until
 * it cannot fail any more; returns 0, GL_STAGE_FAULT, or LAPACK's INFO > 0
 * of the stage-3 routine. */

/* The SVD A = U S VT of the m x n matrix A: what ?gesdd and ?gesvd
 * compute.  jobu: 'A' all m columns of U, 'S' the first min(m,n), 'N'
 * none; jobvt likewise for the rows of VT.  Stage 3 with vectors:
 *   GL_SVD_BDSDC          ?bdsdc, its failure is INFO > 0 (?gesdd);
 *   GL_SVD_BDSDC_RESTART  ?bdsdc, its failure is GL_STAGE_FAULT (?gesvd:
 *                         the call restarts on LAPACK, whose INFO > 0
 *                         means ?bdsqr's failure and is given as LAPACK's);
 *   GL_SVD_BDSQR          ?bdsqr from the identity.
 * Values only: ?bdsqr (?lasq1).  s descending; e (min(m,n)-1, may be
 * NULL) receives the unconverged superdiagonal when ?bdsqr fails
 * (INFO > 0).  A is read completely before U or VT is written, so either
 * may be A itself (the 'O' options).  It runs by the call's plan
 * (svd_plan_make): in core, the streamed plans of the values and of the
 * vectors, or the lean plan of the vectors (stage 3 by the system's
 * ?bdsdc or ?bdsqr on the host). */
typedef enum gl_svd_stage3 {
    GL_SVD_BDSDC,
    GL_SVD_BDSDC_RESTART,
    GL_SVD_BDSQR
} gl_svd_stage3;

typedef struct gl_svd_job {
    gl_svd_stage3 stage3;
    char jobu, jobvt;
} gl_svd_job;

int GL_FN(svd)(const GL_FN(ops) *ops, const gl_call_plan *plan,
               const gl_svd_job *job, lapack_int m, lapack_int n,
               const gl_scalar *a, lapack_int lda, gl_real *s, gl_scalar *u,
               lapack_int ldu, gl_scalar *vt, lapack_int ldvt, gl_real *e,
               gl_stage_times *times);

/* The planners of svd (above; U or VT over A when u_over_a, vt_over_a)
 * and eig (below): the call's plan (kernels/plan.h) for plan->method,
 * tier, room and devices on a device of this tuning, its device bytes
 * the high-water mark of the pieces the pipeline allocates
 * (docs/design/memory.md) and its largest single allocation; 0 where
 * the job has no such tier. */
int GL_FN(svd_plan_make)(const gl_tuning *tuning, const gl_svd_job *job,
                         lapack_int m, lapack_int n, int u_over_a,
                         int vt_over_a, gl_call_plan *plan);

/* The ?syev-family scaling of A by sigma: max|a_ij| = anrm into
 * [sqrt(safmin/eps), rmax], rmax = sqrt(eps/safmin), for the expert
 * drivers (?syevr, ?syevx) at most 1/sqrt(sqrt(safmin)); 1: no scaling. */
/* gl_s_eig_sigma gl_d_eig_sigma gl_c_eig_sigma gl_z_eig_sigma */
static inline gl_real GL_FN(eig_sigma)(gl_real anrm, gl_real safmin,
                                       gl_real eps, int expert)
{
    const gl_real smlnum = safmin / eps, bignum = 1 / smlnum;
    const gl_real rmin = GL_R(sqrt)(smlnum);
    gl_real rmax = GL_R(sqrt)(bignum);
    if (expert && rmax > 1 / GL_R(sqrt)(GL_R(sqrt)(safmin)))
        rmax = 1 / GL_R(sqrt)(GL_R(sqrt)(safmin));
    if (anrm > 0 && anrm < rmin)
        return rmin / anrm;
    if (anrm > rmax)
        return rmax / anrm;
    return 1;
}

/* max |a_ij| of the m x n matrix A (part 'A'), of its lower ('L') or
 * upper ('U') triangle, as ?lange/?lansy/?lanhe 'M' (real_diagonal: the
 * real part of the diagonal, ?lanhe's), over the host's threads; a NaN
 * anywhere gives NaN. */
gl_real GL_FN(max_abs)(char part, lapack_int m, lapack_int n,
                       const gl_scalar *a, lapack_int lda, int real_diagonal);

/* Hermitian A (its uplo triangle) times sigma -> real tridiagonal d (n),
 * e (n-1) with the same eigenvalues.  q1/tau (may be NULL): Q1 of stage 1
 * as ?sytrd_2stage returns it, the band and the reflectors in the uplo
 * triangle of q1 and their scalars in tau (n-1).  keep (may be NULL):
 * receives Q (free it with tridiag_q_free; nothing to free on failure). */
int GL_FN(he_tridiag)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                      char uplo, lapack_int n, const gl_scalar *a,
                      lapack_int lda, gl_real sigma, gl_real *d, gl_real *e,
                      gl_scalar *q1, lapack_int ldq1, gl_scalar *tau,
                      GL_FN(tridiag_q) *keep, gl_stage_times *times);
/* he_tridiag's shapes in a plan (plans.c, the planner's): its band from
 * the tuning (vectors: keep will be given), stage 1's block and tiles,
 * the chase's groups. */
void GL_FN(he_tridiag_plan)(const gl_tuning *tuning, lapack_int n,
                            int vectors, gl_call_plan *plan);

/* ?sytrd/?hetrd: A (its uplo triangle) -> tridiagonal d, e with the
 * reflectors of Q in A and tau in LAPACK's one-stage format (what ?orgtr
 * and ?ormtr consume), through the two-stage reduction and a
 * re-factorization of its Q (sytrd.c). */
int GL_FN(sytrd)(const GL_FN(ops) *ops, const gl_call_plan *plan, char uplo,
                 lapack_int n, gl_scalar *a, lapack_int lda, gl_real *d,
                 gl_real *e, gl_scalar *tau, gl_stage_times *times);
/* Its planner: in core, the device's one-stage reduction's bytes, and
 * he_tridiag's shapes for the two-stage method (tuning.sytrd_stages). */
int GL_FN(sytrd_plan_make)(const gl_tuning *tuning, lapack_int n,
                           gl_call_plan *plan);

/* Eigenvalues of the Hermitian A, ascending, *m of them, and with z
 * (not NULL) their eigenvectors in z (n x *m; may be A itself: A is read
 * completely first).  isuppz (?syevr, 2n) and ifail (?syevx, n) as the
 * drivers return them, NULL for the others. */
int GL_FN(eig)(const GL_FN(ops) *ops, const gl_call_plan *plan,
               const gl_eig_job *job, lapack_int n, const gl_scalar *a,
               lapack_int lda, lapack_int *m, gl_real *w, gl_scalar *z,
               lapack_int ldz, lapack_int *isuppz, lapack_int *ifail,
               gl_stage_times *times);
int GL_FN(eig_plan_make)(const gl_tuning *tuning, const gl_eig_job *job,
                         lapack_int n, int vectors, gl_call_plan *plan);

/* The planner of the band pipelines (kernels/pipelines/band_values.c),
 * in core only: kind 'H' (sb_tridiag, sb_eig: n x n of half-width kl;
 * vectors 'N' none, 'D' by the divide and conquer on the device, 'Q' Q
 * itself or Z of the host's stage 3) or 'G' (gb_bidiag_q: m x n, kl +
 * ku; vectors 'N' or 'V', ncc columns of C). */
int GL_FN(band_plan_make)(const gl_tuning *tuning, char kind, lapack_int m,
                          lapack_int n, lapack_int kl, lapack_int ku,
                          char vectors, lapack_int ncc, gl_call_plan *plan);
/* The half-width the band pipelines chase (kind and sizes as above), and
 * their shapes of it (plans.c, the planner's): the chase's groups, stage
 * 2's passes. */
lapack_int GL_FN(band_half_width)(char kind, lapack_int m, lapack_int n,
                                  lapack_int kl, lapack_int ku);
void GL_FN(band_shape)(const gl_tuning *tuning, lapack_int b,
                       gl_call_plan *plan);

/* GL_FN(eig) by the vendor's eigensolver on the context's device
 * (the plan's method GL_METHOD_VENDOR; gl_ctx_has_vendor_solver): the
 * full spectrum of ?syev/?syevd/?heev/?heevd (job->range 'A'), W and, with
 * z, the vectors; LAPACK's INFO (> 0: not converged) or a GL_STAGE_* code
 * (kernels/status.h) for anything the pipeline cannot do, which restarts
 * the call on the real LAPACK. */
int GL_FN(eig_vendor)(const GL_FN(ops) *ops, const gl_eig_job *job,
                      lapack_int n, const gl_scalar *a, lapack_int lda,
                      gl_real *w, gl_scalar *z, lapack_int ldz,
                      gl_stage_times *times);

/* GL_FN(eig)'s reduction by the one-stage method (the plan's method
 * GL_METHOD_ONE_STAGE on a device; kernels/pipelines/eig_one_stage.c):
 * Hermitian A (its uplo triangle) times sigma -> real tridiagonal d (n), e
 * (n-1), as he_tridiag.  keep (may be NULL) receives Q = Q1 diag(phase) in the
 * one-stage form, b = 0: the n-1 reflectors of LAPACK's one-stage
 * reduction of the lower triangle (reflector i unit at row i+1, stored
 * below it in column i of a, ld n) in panels of GL_ONE_STAGE_BLOCK
 * columns, panel j0's forward T factor at column j0 of t (ld
 * GL_ONE_STAGE_BLOCK), no chase; tridiag_q_apply and
 * dc_vectors_on_device take it as they take he_tridiag's. */
/* The device's one-stage reduction, shared with the device ?sytrd
 * (kernels/pipelines/sytrd.c): its device memory, the matrix X (n x n, ld n),
 * V and W of a panel (n x GL_ONE_STAGE_BLOCK each, ld n), y = A22 v (n), the
 * corrections' product (GL_ONE_STAGE_BLOCK), w^H v and the coefficient
 * of v (1 each), then what the host reads at the end, contiguous (out):
 * the diagonal (n), the subdiagonal (n - 1, room n), tau (n) and S
 * (GL_ONE_STAGE_BLOCK x n, ld GL_ONE_STAGE_BLOCK: column i holds V^H v_i
 * over the panel's earlier reflectors, ?larft's S).  one_stage_alloc: 0 or
 * GL_STAGE_FAULT (release x and work either way); one_stage_reduce:
 * X's lower triangle to tridiagonal in place, LAPACK's blocked steps
 * (the reflectors below the subdiagonal, tau in td), every step on the
 * device, then the diagonal and subdiagonal gathered into out. */
typedef struct GL_FN(one_stage) {
    lapack_int n;
    gl_scalar *x, *work;
    gl_scalar *vd, *wd, *y, *tmp, *dot, *coef;
    gl_scalar *out, *diag, *sub, *td, *s;
} GL_FN(one_stage);
int GL_FN(one_stage_alloc)(const GL_FN(ops) *ops, GL_FN(one_stage) *r,
                           lapack_int n);
int GL_FN(one_stage_reduce)(const GL_FN(ops) *ops, const GL_FN(one_stage) *r);
int GL_FN(he_tridiag_one_stage)(const GL_FN(ops) *ops, char uplo,
                                lapack_int n, const gl_scalar *a,
                                lapack_int lda, gl_real sigma, gl_real *d,
                                gl_real *e, GL_FN(tridiag_q) *keep,
                                gl_stage_times *times);

/* Band input.  gb_bidiag: the m x n band (LAPACK ?gbbrd storage) to an
 * upper bidiagonal d (min(m,n)), e (min(m,n)-1) with the same singular
 * values.  sb_tridiag: the Hermitian band (?sbtrd storage) times sigma to
 * a real tridiagonal d (n), e (n-1) with the same eigenvalues; keep (may
 * be NULL) receives its Q as he_tridiag's.  sb_eig: eigenvalues of the
 * Hermitian band, ascending, scaled as ?sbev (divide_conquer 0) or ?sbevd
 * (1), and with z (not NULL) the eigenvectors (n x n).  sb_tridiag_q:
 * ?sbtrd with VECT 'V' (q = Q) or 'U' (q = q Q). */
int GL_FN(gb_bidiag)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                     lapack_int m, lapack_int n, lapack_int kl, lapack_int ku,
                     const gl_scalar *ab, lapack_int ldab, gl_real *d,
                     gl_real *e, gl_stage_times *times);
/* ?gbbrd with VECT 'Q', 'P' or 'B' and/or NCC > 0: as gb_bidiag, and
 * A = Q [B 0; 0 0] PT with B upper bidiagonal (d, e real, any signs):
 * q (m x m) and pt (n x n) formed when vect asks for them, c (m x ncc)
 * := Q^H c. */
int GL_FN(gb_bidiag_q)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                       char vect, lapack_int m,
                       lapack_int n, lapack_int ncc, lapack_int kl,
                       lapack_int ku, const gl_scalar *ab, lapack_int ldab,
                       gl_real *d, gl_real *e, gl_scalar *q, lapack_int ldq,
                       gl_scalar *pt, lapack_int ldpt, gl_scalar *c,
                       lapack_int ldc, gl_stage_times *times);
int GL_FN(sb_tridiag)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                      char uplo, lapack_int n, lapack_int kd,
                      const gl_scalar *ab, lapack_int ldab, gl_real sigma,
                      gl_real *d, gl_real *e, GL_FN(tridiag_q) *keep,
                      gl_stage_times *times);
int GL_FN(sb_eig)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                  char uplo, int divide_conquer, lapack_int n, lapack_int kd,
                  const gl_scalar *ab, lapack_int ldab, gl_real *w,
                  gl_scalar *z, lapack_int ldz, gl_stage_times *times);
int GL_FN(sb_tridiag_q)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                        char vect, char uplo, lapack_int n, lapack_int kd,
                        const gl_scalar *ab, lapack_int ldab, gl_real *d,
                        gl_real *e, gl_scalar *q, lapack_int ldq,
                        gl_stage_times *times);

#endif
