/* The stage drivers and the values-only pipelines, written once against
 * the operation table (ops.h), per precision (runtime/precision.h). */
#ifndef GL_STAGES_H
#define GL_STAGES_H

#include <math.h>
#include <stdlib.h>

#include "ops.h"
#include "status.h"

/* The largest k in 1 .. hi for which fits(arg, k) holds, where it holds
 * up to some k and not past it (a streamed plan, which grows with its
 * parked chase's segments of k groups of sweeps); 1 where none does. */
static inline lapack_int gl_most_that_fit(lapack_int hi,
                                          int (*fits)(void *arg, lapack_int k),
                                          void *arg)
{
    lapack_int lo = 1;
    while (lo < hi) {
        lapack_int mid = lo + (hi - lo + 1) / 2;
        if (fits(arg, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

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


/* Stage 1, general: A (m x n, m >= n) -> upper band of half-width b, by
 * QR of each block column and LQ of each block row ("Performant Unified
 * GPU Kernels for Portable Singular Value Computation Across Hardware and
 * Precision", arXiv:2508.06339): A = Q1 Band P1^H.  The reflectors stay
 * in A: those of the QR of block column k below the diagonal of
 * A(k:m, k:k+b), those of the LQ of block row k right of the band in
 * A(k:k+b, k+b:n).  tq, tp (b x n, ld b, may be NULL): the T factor of
 * each panel at column k, for apply_panels.  The rest of the matrix takes
 * the updates of `block` columns of steps together (rounded down to whole
 * steps; b: each step's at once). */
int GL_FN(ge2gb)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                 lapack_int b, lapack_int block, gl_scalar *a, lapack_int lda,
                 gl_scalar *tq, gl_scalar *tp);

/* Stage 1, Hermitian: A (n x n, lower triangle) -> lower band of
 * half-width b, as LAPACK's ?sytrd_sy2sb ('L'): Q^H A Q with the blocked
 * two-sided update W = A V T - 1/2 V (T^H V^H A V T), A -= V W^H + W V^H,
 * the trailing matrix taking the updates of `block` columns of panels
 * together (rounded down to whole panels; b: each panel's at once, as
 * LAPACK).  The reflectors stay below the band of A; tau (host, may be
 * NULL) receives their scalars, tau[k] for the one of column k; tq (b x n,
 * ld b, may be NULL) the T factor of each panel at column k. */
int GL_FN(sy2sb)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 lapack_int block, gl_scalar *a, lapack_int lda,
                 gl_scalar *tau, gl_scalar *tq);

/* The end of a panel of sy2sb's: X (pn x kk at column acc of wa, ld
 * ldw), A22 S of the stale A22, made W = X' - 1/2 V (S^H X') where
 * X' = X - VA (WA^H S) - WA (VA^H S) corrects it by the acc columns of
 * updates before it (va, wa), V at column acc of va; mm (ldm x kk,
 * ldm >= max(acc, kk)) scratch. */
void GL_FN(sy2sb_panel_w)(const GL_FN(ops) *ops, lapack_int pn, lapack_int kk,
                          lapack_int acc, const gl_scalar *va,
                          gl_scalar *wa, lapack_int ldw,
                          const gl_scalar *s, gl_scalar *mm, lapack_int ldm);
/* sy2sb over the devices of ops->ctx's set (kernels/tiers/stage1_peers.c): the
 * trailing matrix's columns in tiles of width (rounded up to a multiple
 * of b) dealt out block-cyclically, the panels factored on ops's device.
 * The same result as sy2sb to rounding; 0, GL_STAGE_FAULT, or 1 when it
 * did nothing (no other device, a single tile, or one of them could not
 * take its share: sy2sb on one device then does all). */
int GL_FN(sy2sb_split)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                       lapack_int block, lapack_int width, gl_scalar *a,
                       lapack_int lda, gl_scalar *tau, gl_scalar *tq);
/* ge2gb over the devices of ops->ctx's set (kernels/tiers/stage1_peers.c), m
 * >= n: A's whole columns in the same tiles, the steps' QR and LQ on ops's
 * device, the others' parts of A^H V and A W summed through the host;
 * answers as sy2sb_split.  ge2gb_peer_bytes: device `index`'s bytes (its
 * tiles' columns, copies of the block's L and R, its part of a product). */
int GL_FN(ge2gb_split)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                       lapack_int b, lapack_int block, lapack_int width,
                       gl_scalar *a, lapack_int lda, gl_scalar *tq,
                       gl_scalar *tp);
size_t GL_FN(ge2gb_peer_bytes)(lapack_int m, lapack_int n, lapack_int b,
                               lapack_int block, lapack_int width, int parts,
                               int index);
/* The device bytes sy2sb_split takes on device `index` (1 .. parts - 1)
 * of `parts` devices: its tiles' columns, its copies of a block's V and
 * W, S and its part of X (the call's device takes sy2sb_device_bytes). */
size_t GL_FN(sy2sb_peer_bytes)(lapack_int n, lapack_int b, lapack_int block,
                               lapack_int width, int parts, int index);

/* Device bytes that ge2gb and sy2sb allocate beside their matrix while
 * they run, their operations' scratch included (kernels/plan.c). */
size_t GL_FN(ge2gb_device_bytes)(lapack_int m, lapack_int n, lapack_int b,
                                 lapack_int block);
size_t GL_FN(sy2sb_device_bytes)(lapack_int n, lapack_int b, lapack_int block);

/* Reflectors of the panels of sy2sb below a band of half-width b: how
 * many there are for an n x n matrix (apply_panels' nref). */
static inline lapack_int gl_sy2sb_reflectors(lapack_int n, lapack_int b)
{
    lapack_int nref = 0;
    for (lapack_int k = 0; n - b - k >= 2; k += b)
        nref = k + (n - b - k < b ? n - b - k : b);
    return nref;
}

/* Stage 2, general: packed upper band of half-width b (ops.h storage,
 * ldband = 3b+1) -> upper bidiagonal, in passes that each reduce the
 * half-width by at most tw (the bandwidth tiling of "Accelerating
 * Bidiagonalization of Banded Matrices through Memory-Aware Bulge-Chasing
 * on GPUs": reduce b -> b - tw -> ... -> 1). */
int GL_FN(gb2bd)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 lapack_int tw, gl_scalar *band, lapack_int ldband);

/* ---- back-transformation (backtransform.c) ---- */

/* A reflector store for a chase of an n x n band of half-width b (ops.h),
 * in blocks of `group` sweeps; two_sided: also the right reflectors (gb). */
int GL_FN(reflectors_alloc)(const GL_FN(ops) *ops, GL_FN(reflectors) *r,
                            lapack_int n, lapack_int b, lapack_int group,
                            int two_sided);
void GL_FN(reflectors_free)(const GL_FN(ops) *ops, GL_FN(reflectors) *r);
/* The same store in memory a pipeline's arenas hold (kernels/arena.h):
 * reflectors_slots gives its slots per side (*ngroups: its groups); vq
 * (and vp, two-sided; else NULL) hold slots (b + 1) scalars of the
 * backend's memory, first ngroups + 1 host integers, zeros slots host
 * scalars (zeroed and copied to the scalars, which must read as H = I
 * where the chase never reaches).  Released with the arenas, never by
 * reflectors_free. */
size_t GL_FN(reflectors_slots)(lapack_int n, lapack_int b, lapack_int group,
                               lapack_int *ngroups);
void GL_FN(reflectors_place)(const GL_FN(ops) *ops, GL_FN(reflectors) *r,
                             lapack_int n, lapack_int b, lapack_int group,
                             gl_scalar *vq, gl_scalar *vp, lapack_int *first,
                             gl_scalar *zeros);
/* The same for a segment of a chase (ops.h gb_chase/sb_chase sweeps):
 * the store of the first `sweeps` sweeps of the chase of the trailing
 * band of order n, its slots and groups for those sweeps alone (n or more
 * sweeps: the whole chase's).  apply_chase of it to rows s0.. of E
 * (s0: the sweeps before the segment) applies the segment's Q. */
size_t GL_FN(reflectors_segment_slots)(lapack_int n, lapack_int b,
                                       lapack_int group, lapack_int sweeps,
                                       lapack_int *ngroups);
void GL_FN(reflectors_place_segment)(const GL_FN(ops) *ops,
                                     GL_FN(reflectors) *r, lapack_int n,
                                     lapack_int b, lapack_int group,
                                     lapack_int sweeps, gl_scalar *vq,
                                     gl_scalar *vp, lapack_int *first,
                                     gl_scalar *zeros);
/* reflectors_place_segment's layout alone, nothing written to vq or vp
 * (a store whose contents are copied in whole): its slots per side
 * (vq holds slots b scalars, then the slots tau's). */
size_t GL_FN(reflectors_segment_layout)(GL_FN(reflectors) *r, lapack_int n,
                                        lapack_int b, lapack_int group,
                                        lapack_int sweeps, gl_scalar *vq,
                                        gl_scalar *vp, lapack_int *first);
int GL_FN(reflectors_alloc_segment)(const GL_FN(ops) *ops,
                                    GL_FN(reflectors) *r, lapack_int n,
                                    lapack_int b, lapack_int group,
                                    lapack_int sweeps, int two_sided);

/* E (rows 0 .. n-1 of it, ncols columns, backend memory) := Q E (trans
 * 'N') or Q^H E ('C'); Q is the product of the kept left (which 'Q') or
 * right ('P') reflectors. */
int GL_FN(apply_chase)(const GL_FN(ops) *ops, const GL_FN(reflectors) *r,
                       char which, char trans, lapack_int ncols, gl_scalar *e,
                       lapack_int lde);
/* The same for a segment's store (r of order n - s0) on rows s0.. of a
 * block of block_rows rows (the whole chase's order n): its batches of
 * blocks are bounded by that block, as segment 0's are
 * (apply_segment_device_bytes), not by the rows the segment acts on, so
 * that a later segment's shorter rows take no more launches. */
int GL_FN(apply_segment)(const GL_FN(ops) *ops, const GL_FN(reflectors) *r,
                         char which, char trans, lapack_int ncols,
                         gl_scalar *e, lapack_int lde, lapack_int block_rows);

/* Device bytes that apply_chase (a chase of an n x n band of half-width b
 * in groups of `group` sweeps) and apply_panels allocate while they
 * apply their reflectors to ncols columns, their operations' scratch
 * included (kernels/plan.c). */
size_t GL_FN(apply_chase_device_bytes)(lapack_int n, lapack_int b,
                                       lapack_int group, lapack_int ncols);
/* The same for the store of a segment (reflectors_place_segment). */
size_t GL_FN(apply_segment_device_bytes)(lapack_int n, lapack_int b,
                                         lapack_int group, lapack_int sweeps,
                                         lapack_int ncols);
size_t GL_FN(apply_panels_device_bytes)(lapack_int len, lapack_int nref,
                                        lapack_int nb, lapack_int ncols);
size_t GL_FN(apply_host_panels_device_bytes)(lapack_int len, lapack_int nref,
                                             lapack_int nb, lapack_int ncols);
size_t GL_FN(apply_block_panels_device_bytes)(lapack_int len, lapack_int nref,
                                              lapack_int nb, lapack_int ncols);

/* E (len x ncols) := H E (trans 'N') or H^H E ('C'), H = H_0 H_1 ... the
 * block reflectors of a blocked QR (storev 'C': reflector i in V(i:len, i),
 * unit V(i,i)) or LQ ('R': in V(i, i:len)) with nref reflectors in panels
 * of nb, T of panel k at column k of t (ld nb), as ?larfb applies them. */
int GL_FN(apply_panels)(const GL_FN(ops) *ops, char storev, char trans,
                        lapack_int len, lapack_int nref, lapack_int nb,
                        const gl_scalar *v, lapack_int ldv,
                        const gl_scalar *t, lapack_int ncols, gl_scalar *e,
                        lapack_int lde);

/* apply_panels with V and T in host memory (the stage-1 panels of the
 * streamed and lean plans): each group of panels goes up once per
 * call. */
int GL_FN(apply_host_panels)(const GL_FN(ops) *ops, char storev, char trans,
                             lapack_int len, lapack_int nref, lapack_int nb,
                             const gl_scalar *v, lapack_int ldv,
                             const gl_scalar *t, lapack_int ncols,
                             gl_scalar *e, lapack_int lde);
/* apply_host_panels for a block of a matrix streamed in blocks of ncols
 * columns (tridiag_q_apply_streamed): its groups of panels take about as
 * much device memory as the block, at most apply_host_panels' (its
 * device bytes: apply_block_panels_device_bytes). */
int GL_FN(apply_block_panels)(const GL_FN(ops) *ops, char storev, char trans,
                              lapack_int len, lapack_int nref, lapack_int nb,
                              const gl_scalar *v, lapack_int ldv,
                              const gl_scalar *t, lapack_int ncols,
                              gl_scalar *e, lapack_int lde);

/* The unit diagonal scalings that make the chased band real (band_to_de):
 * bidiagonal B = diag(left) |B| diag(right)^H from its diagonal d and
 * superdiagonal e; tridiagonal T = diag(p) |T| diag(p)^H from its
 * subdiagonal e.  Real precisions: signs. */
void GL_FN(bidiagonal_phases)(lapack_int n, const gl_scalar *d,
                              const gl_scalar *e, gl_scalar *left,
                              gl_scalar *right);
void GL_FN(tridiagonal_phases)(lapack_int n, const gl_scalar *e,
                               gl_scalar *p);

/* dst (cols x rows, ld ldd) = src^H for src rows x cols (ld lds), both
 * in host memory (the caller's VT, PT from computed vectors). */
void GL_FN(conj_transpose)(lapack_int rows, lapack_int cols,
                           const gl_scalar *src, lapack_int lds,
                           gl_scalar *dst, lapack_int ldd);
/* dst -= src^H, the same shapes (host memory). */
void GL_FN(sub_conj_transpose)(lapack_int rows, lapack_int cols,
                               const gl_scalar *src, lapack_int lds,
                               gl_scalar *dst, lapack_int ldd);

/* y (rows x cols) = diag(phase) x, or diag(phase) x^T (transpose: x is
 * cols x rows); x real. */
void GL_FN(scale_rows)(lapack_int rows, lapack_int cols,
                       const gl_scalar *phase, const gl_real *x,
                       lapack_int ldx, int transpose, gl_scalar *y,
                       lapack_int ldy);

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
 * may be A itself (the 'O' options).  The plan's tier is the context's
 * (ops->ctx->plan): in core, the streamed plan of the values, or the lean
 * plan of the vectors (not for a tall A nor an output over A, which stay
 * in core; stage 3 by the system's ?bdsdc or ?bdsqr on the host). */
typedef enum gl_svd_stage3 {
    GL_SVD_BDSDC,
    GL_SVD_BDSDC_RESTART,
    GL_SVD_BDSQR
} gl_svd_stage3;

typedef struct gl_svd_job {
    gl_svd_stage3 stage3;
    char jobu, jobvt;
} gl_svd_job;

int GL_FN(svd)(const GL_FN(ops) *ops, const gl_svd_job *job, lapack_int m,
               lapack_int n, const gl_scalar *a, lapack_int lda, gl_real *s,
               gl_scalar *u, lapack_int ldu, gl_scalar *vt, lapack_int ldvt,
               gl_real *e, gl_stage_times *times);

/* The device memory that svd (above; U or VT over A when u_over_a,
 * vt_over_a) and eig (kernels/pipelines/eig.c, with the method) take by the plan's
 * tier (SIZE_MAX where the job has no such tier) on a device of this
 * tuning: their high-water mark, from the pieces they allocate
 * (docs/design/memory.md), and in *largest their largest single
 * allocation. */
size_t GL_FN(svd_device_bytes)(const gl_tuning *tuning, const gl_svd_job *job,
                               lapack_int m, lapack_int n, int u_over_a,
                               int vt_over_a, gl_plan_tier tier,
                               size_t *largest);

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

/* What the back-transformation of a tridiagonal reduction needs:
 * A = Q T Q^H with Q = Q1 Q2 diag(phase), Q1 the stage-1 panels (below
 * the band of a, T factors in t; a = NULL for a band input), Q2 the
 * chase's reflectors.  Backend memory except phase (host); the streamed
 * plan (he_tridiag_streamed) keeps a and t in host memory and applies Q
 * to `streamed_cols` columns at a time (0: in core). */
/* gl_s_tridiag_q gl_d_tridiag_q gl_c_tridiag_q gl_z_tridiag_q */
typedef struct GL_FN(tridiag_q) {
    lapack_int n, b;
    gl_scalar *a;
    lapack_int lda;
    gl_scalar *t;
    GL_FN(reflectors) chase;
    gl_scalar *phase;
    lapack_int streamed_cols;
    /* The streamed plan's chase in segments of segment_sweeps sweeps
     * (ops.h sb_chase), each segment's store (of the trailing band from
     * its first sweep, in groups of `group` sweeps: vq then tauq) parked
     * one after the other in host memory (parked); NULL: the chase's
     * store is `chase`. */
    gl_scalar *parked;
    lapack_int segment_sweeps, group;
} GL_FN(tridiag_q);

void GL_FN(tridiag_q_free)(const GL_FN(ops) *ops, GL_FN(tridiag_q) *q);

/* q's phases (host) and the chase's store for q->n and q->b (in groups
 * of the tuned size): 0, or GL_STAGE_FAULT (free q with tridiag_q_free). */
int GL_FN(tridiag_q_keep_chase)(const GL_FN(ops) *ops, GL_FN(tridiag_q) *q);

/* E (n x m, backend memory, ld n) := Q E with q's reflectors (the
 * chase's, then stage 1's or the one-stage reduction's panels). */
int GL_FN(q_apply_on)(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                      lapack_int m, gl_scalar *e);

/* Several devices in one call (kernels/tiers/peers.c): a peer_job is Q E for
 * E of rows rows (its ld on every device): the arrays of this device
 * that Q is made of (in, scalars each; NULL: none) and how a device
 * applies Q to m columns of E given its copies of them.  The other
 * devices of ops->ctx's set (ctx->peers) take the last columns of E (ld
 * rows, ops's device) in equal shares, each with copies of the arrays,
 * and apply Q to them beside this device (peers_start: their count, 0
 * when there are none or one cannot take its share, -1 when this device
 * failed; this device keeps the columns before shares[0].col);
 * peers_read waits for them and reads their columns into host memory
 * (0, or -1 when a device failed), peers_place puts them into z's
 * columns (host, ld ldz), peers_gather reads them back into E's columns
 * on this device, peers_free releases what peers_start took. */
enum { GL_PEER_INPUTS = 6 };
/* gl_s_peer_job gl_d_peer_job gl_c_peer_job gl_z_peer_job */
typedef struct GL_FN(peer_job) {
    lapack_int rows;
    const gl_scalar *in[GL_PEER_INPUTS];
    size_t scalars[GL_PEER_INPUTS];
    int (*apply)(const GL_FN(ops) *ops, const struct GL_FN(peer_job) *job,
                 gl_scalar *const *in, lapack_int m, gl_scalar *e);
    const void *data;   /* the caller's, for apply */
} GL_FN(peer_job);
/* gl_s_peer_share gl_d_peer_share gl_c_peer_share gl_z_peer_share */
typedef struct GL_FN(peer_share) {
    GL_FN(ops) ops;            /* bound to the peer's context */
    lapack_int col, cols;      /* its columns of E */
    void *arena;               /* its device memory: */
    gl_scalar *in[GL_PEER_INPUTS];   /* the job's arrays copied, */
    gl_scalar *e;              /* its columns (ld rows) */
    gl_scalar *host;           /* its columns read back (ld rows) */
    gl_scalar *back;           /* shares[0]: the host memory of all */
} GL_FN(peer_share);
int GL_FN(peers_start)(const GL_FN(ops) *ops, const GL_FN(peer_job) *job,
                       lapack_int m, const gl_scalar *e,
                       GL_FN(peer_share) *shares);
int GL_FN(peers_read)(GL_FN(peer_share) *shares, int count, lapack_int rows);
void GL_FN(peers_place)(GL_FN(peer_share) *shares, int count, lapack_int rows,
                        gl_scalar *z, lapack_int ldz);
int GL_FN(peers_gather)(const GL_FN(ops) *ops, GL_FN(peer_share) *shares,
                        int count, lapack_int rows, gl_scalar *e);
void GL_FN(peers_free)(GL_FN(peer_share) *shares, int count);

/* z (host, n x m) = Q diag(phase) zt for zt real n x m (the eigenvectors
 * of T -> those of A); zt = NULL: the identity (m = n), i.e. Q itself. */
int GL_FN(tridiag_q_apply)(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                           lapack_int m, const gl_real *zt, lapack_int ldzt,
                           gl_scalar *z, lapack_int ldz);

/* max |a_ij| of the m x n matrix A (part 'A'), of its lower ('L') or
 * upper ('U') triangle, as ?lange/?lansy/?lanhe 'M' (real_diagonal: the
 * real part of the diagonal, ?lanhe's), over the host's threads; a NaN
 * anywhere gives NaN. */
gl_real GL_FN(max_abs)(char part, lapack_int m, lapack_int n,
                       const gl_scalar *a, lapack_int lda, int real_diagonal);

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

/* Hermitian A (its uplo triangle) times sigma -> real tridiagonal d (n),
 * e (n-1) with the same eigenvalues.  q1/tau (may be NULL): Q1 of stage 1
 * as ?sytrd_2stage returns it, the band and the reflectors in the uplo
 * triangle of q1 and their scalars in tau (n-1).  keep (may be NULL):
 * receives Q (free it with tridiag_q_free; nothing to free on failure). */
int GL_FN(he_tridiag)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                      const gl_scalar *a, lapack_int lda, gl_real sigma,
                      gl_real *d, gl_real *e, gl_scalar *q1, lapack_int ldq1,
                      gl_scalar *tau, GL_FN(tridiag_q) *keep,
                      gl_stage_times *times);

/* ?sytrd/?hetrd: A (its uplo triangle) -> tridiagonal d, e with the
 * reflectors of Q in A and tau in LAPACK's one-stage format (what ?orgtr
 * and ?ormtr consume), through the two-stage reduction and a
 * re-factorization of its Q (sytrd.c). */
int GL_FN(sytrd)(const GL_FN(ops) *ops, char uplo, lapack_int n, gl_scalar *a,
                 lapack_int lda, gl_real *d, gl_real *e, gl_scalar *tau,
                 gl_stage_times *times);

/* Columns per block of a read into the caller's input that keeps, block
 * by block, what it overwrites and puts it back if a read fails (eig.c,
 * svd.c): blocks of at most 32 MiB, each streaming at the link's rate,
 * and at least four, so that the tests' failed reads put blocks back. */
static inline lapack_int gl_kept_read_cols(size_t elem, lapack_int rows,
                                           lapack_int cols)
{
    size_t fit = ((size_t)32 << 20) / (elem * (size_t)(rows > 0 ? rows : 1));
    lapack_int nb = fit < (size_t)(cols + 3) / 4 ? (lapack_int)fit
                                                 : (cols + 3) / 4;
    return nb > 0 ? nb : 1;
}

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

/* Eigenvalues of the Hermitian A, ascending, *m of them, and with z
 * (not NULL) their eigenvectors in z (n x *m; may be A itself: A is read
 * completely first).  isuppz (?syevr, 2n) and ifail (?syevx, n) as the
 * drivers return them, NULL for the others. */
int GL_FN(eig)(const GL_FN(ops) *ops, const gl_eig_job *job, lapack_int n,
               const gl_scalar *a, lapack_int lda, lapack_int *m, gl_real *w,
               gl_scalar *z, lapack_int ldz, lapack_int *isuppz,
               lapack_int *ifail, gl_stage_times *times);
size_t GL_FN(eig_device_bytes)(const gl_tuning *tuning, const gl_eig_job *job,
                               lapack_int n, int vectors, gl_method method,
                               gl_plan_tier tier, size_t *largest);
/* The streamed plan of the Hermitian eigenproblem (kernels/tiers/sy2sb_streamed.c,
 * docs/design/memory.md): A (its uplo triangle) times sigma copied to
 * host memory and reduced to a band of half-width b in passes that stream
 * its trailing matrix through the device in tiles of tile x tile, then
 * the band chased on the device as he_tridiag's: d and e.  keep (or NULL)
 * receives Q for the vectors: stage 1's panels and T factors in host
 * memory, the chase's reflectors kept on the device (segment 0, as the
 * lean plan, he_tridiag_lean, keeps them) or parked in host memory
 * segment by segment (a chase in segments of segment sweeps, each
 * segment's store on the device only while it runs), applied tile
 * columns at a time by tridiag_q_apply_streamed (free it with
 * tridiag_q_free).  Its device bytes: streamed_device_bytes (group 0 for
 * the values; m columns of Z; products: stage 3's divide and conquer
 * multiplies on the device), the tier of eig_device_bytes, with the
 * segment streamed_segment chooses for the device. */
int GL_FN(he_tridiag_streamed)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                               const gl_scalar *a, lapack_int lda,
                               gl_real sigma, lapack_int b, lapack_int tile,
                               lapack_int segment, gl_real *d, gl_real *e,
                               GL_FN(tridiag_q) *keep, gl_stage_times *times);
size_t GL_FN(streamed_device_bytes)(lapack_int n, lapack_int b,
                                    lapack_int tile, lapack_int group,
                                    lapack_int m, int products,
                                    lapack_int segment);
/* The sweeps per segment of the streamed chase with the vectors (segment
 * of he_tridiag_streamed and streamed_device_bytes), from the budget of
 * tuning (gl_tuning.device_budget and the device's largest allocation):
 * 0, the whole store kept on the device, where that plan fits; else the
 * most whole groups of sweeps whose plan fits, each segment's store
 * parked in host memory; GPULAPACK_OOC_SEGMENT's (gl_tune_ooc_segment)
 * when set; about a block of Z's columns where the budget is not known.
 * 0 for the values (group 0). */
lapack_int GL_FN(streamed_segment)(const gl_tuning *tuning, lapack_int n,
                                   lapack_int b, lapack_int tile,
                                   lapack_int group, lapack_int m,
                                   int products);
/* One pass of a streamed plan over the tiles of its host copy
 * (kernels/tiers/tile_pass.c): the tiles of h(r_first:rows, c_first:cols) (ld
 * ldh; lower: only those from the diagonal's row of each column of
 * tiles), by columns of tiles of `tile` rows and columns, each up into
 * one of GL_TILE_BUFFERS device buffers (tile x tile, ld tile, one after
 * the other from `buffers`), then
 * update (NULL: none) and, with write_back, down into h again, then use,
 * on the copy lanes (ops.h tile_up) so that the next tile's upload and
 * the last one's download run beside the device's work.  update and use
 * enqueue device work only (on the compute queue).  Returns 0 once every
 * copy is done and the host copy whole again, or < 0 when the device
 * failed. */
enum { GL_TILE_BUFFERS = 3 };
/* The event slots (runtime/gpu.h lane_record) of the drivers on the copy
 * lanes: a tile pass's, four per tile buffer, the two of the panel groups
 * of apply_block_panels, then the parked chase segments' of the streamed
 * back-transformations, two per store buffer (GL_PARKED_BUFFERS: the
 * next segment's store goes up while the device applies this one's). */
enum {
    GL_EVENTS_TILES = 0,
    GL_EVENTS_PANELS = 4 * GL_TILE_BUFFERS,
    GL_EVENTS_PARKED = GL_EVENTS_PANELS + 2,
    GL_PARKED_BUFFERS = 2
};
typedef struct gl_tile {
    lapack_int r0, nr, c0, nc;   /* rows r0 .. r0+nr-1, columns c0 .. */
} gl_tile;
typedef struct GL_FN(tile_pass) {
    const GL_FN(ops) *ops;
    gl_scalar *h;
    lapack_int ldh, rows, cols, r_first, c_first, tile;
    int lower, write_back;
    gl_scalar *buffers;
    void (*update)(void *arg, const gl_tile *t, gl_scalar *dev,
                   lapack_int ld);
    void (*use)(void *arg, const gl_tile *t, const gl_scalar *dev,
                lapack_int ld);
    void *arg;
} GL_FN(tile_pass);
int GL_FN(tile_pass_run)(const GL_FN(tile_pass) *pass);
/* The parked chase's stores streamed past a block of the vectors
 * (kernels/tiers/tile_pass.c): parked_upload sends a segment's store (count
 * scalars of host memory) up into store buffer u (< GL_PARKED_BUFFERS) on
 * the upload lane once the device is done with the buffer's last store;
 * parked_ready makes the device's next work wait for buffer u's upload,
 * parked_used notes that the work enqueued so far is all that reads
 * it. */
void GL_FN(parked_upload)(const GL_FN(ops) *ops, const gl_scalar *src,
                          lapack_int count, gl_scalar *dst, int u);
void GL_FN(parked_ready)(const GL_FN(ops) *ops, int u);
void GL_FN(parked_used)(const GL_FN(ops) *ops, int u);

/* Band-to-band (kernels/stages/band_reduce.c): the Hermitian band of half-width
 * big in w (the backend's memory, both triangles, A(i, j) at
 * w[2 big + i - j + j ld], ld = band_reduce_ld(big), zero outside the
 * band) reduced in place to half-width b < big by unitary similarity, for
 * the values (the reflectors are not kept); t: big x big scalars of the
 * backend.  Returns 0, or < 0 on failure.  The device bytes of it and of
 * the chase's band (half-width b) beside w afterwards:
 * band_reduce_device_bytes. */
lapack_int GL_FN(band_reduce_ld)(lapack_int big);
int GL_FN(band_reduce)(const GL_FN(ops) *ops, lapack_int n, lapack_int big,
                       lapack_int b, gl_scalar *w, gl_scalar *t);
size_t GL_FN(band_reduce_device_bytes)(const gl_tuning *tuning, lapack_int n,
                                       lapack_int big, lapack_int b);
/* The lean plan of the Hermitian eigenvectors (kernels/tiers/sy2sb_streamed.c):
 * stage 1 in core as he_tridiag's, then its panels and T factors to host
 * memory and the chase and keep as he_tridiag_streamed's; its device
 * bytes (a tier of eig_device_bytes). */
int GL_FN(he_tridiag_lean)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                           const gl_scalar *a, lapack_int lda, gl_real sigma,
                           gl_real *d, gl_real *e, GL_FN(tridiag_q) *keep,
                           gl_stage_times *times);
size_t GL_FN(lean_device_bytes)(const gl_tuning *tuning, lapack_int n,
                                lapack_int m, int products);
/* z (host, n x m) = Q diag(phase) Zt for a streamed Q: each block of
 * q->streamed_cols columns goes up once, takes the chase's reflectors
 * (the parked segments' stores up from host memory, the last segment
 * first, or the lean plan's store on the device) and stage 1's panels
 * (up from host memory, group by group) and comes back;
 * z is written only once every block succeeded.  zt (host, real, ld
 * ldzt) is scratch: overwritten. */
int GL_FN(tridiag_q_apply_streamed)(const GL_FN(ops) *ops,
                                    const GL_FN(tridiag_q) *q, lapack_int m,
                                    gl_real *zt, lapack_int ldzt,
                                    gl_scalar *z, lapack_int ldz);
/* The streamed plan of the SVD's values (kernels/tiers/ge2gb_streamed.c,
 * docs/design/memory.md): X = A (m >= n) or A^H, rows x cols, copied to
 * host memory and scaled by cto / cfrom as ?lascl (cto 0: not scaled),
 * reduced to an upper band of half-width b in passes that stream its
 * trailing matrix through the device in tiles of tile x tile, then the
 * band chased to bidiagonal on the device as svd's values path chases
 * it: d (cols) and e (cols - 1).  Its device bytes on a device of this
 * tuning: ge_streamed_device_bytes (the tier of svd_device_bytes). */
int GL_FN(ge_bidiag_streamed)(const GL_FN(ops) *ops, lapack_int m,
                              lapack_int n, const gl_scalar *a, lapack_int lda,
                              gl_real cfrom, gl_real cto, lapack_int b,
                              lapack_int tile, gl_real *d, gl_real *e,
                              gl_stage_times *times);
size_t GL_FN(ge_streamed_device_bytes)(const gl_tuning *tuning,
                                       lapack_int rows, lapack_int cols,
                                       lapack_int b, lapack_int tile);
/* Stage 1 of that plan for the SVD's vectors (kernels/pipelines/svd.c): X, scaled,
 * copied into x (host, rows x cols, ld rows) and reduced there by the
 * same passes to the upper band of half-width b (clamped as above) in
 * band (host, 3b + 1 x cols), with each QR panel's reflectors kept below
 * its diagonal block and each LQ panel's right of its band rows, and
 * their T factors at their columns of tq and tp (host, b x cols each): the
 * layout ge2gb leaves in A, tq and tp.  t: the profile's marks of stage
 * 1's start and end.  Its device bytes: ge_streamed_stage1_bytes (the
 * arena and the panels' scratch, released before it returns). */
int GL_FN(ge_band_streamed)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                            const gl_scalar *a, lapack_int lda, gl_real cfrom,
                            gl_real cto, lapack_int b, lapack_int tile,
                            gl_scalar *x, gl_scalar *tq, gl_scalar *tp,
                            gl_scalar *band, double t[2]);
size_t GL_FN(ge_streamed_stage1_bytes)(const gl_tuning *tuning,
                                       lapack_int rows, lapack_int cols,
                                       lapack_int b, lapack_int tile);

/* The same for the band pipelines (kernels/pipelines/band_values.c): kind 'H'
 * (sb_tridiag, sb_eig: n x n of half-width kl; vectors 'N' none, 'D' by
 * the divide and conquer on the device, 'Q' Q itself or Z of the host's
 * stage 3) or 'G' (gb_bidiag_q: m x n, kl + ku; vectors 'N' or 'V',
 * ncc columns of C). */
size_t GL_FN(band_device_bytes)(const gl_tuning *tuning, char kind,
                                lapack_int m, lapack_int n, lapack_int kl,
                                lapack_int ku, char vectors, lapack_int ncc,
                                size_t *largest);

/* The rows of column j of an n x n matrix's uplo triangle: from *first,
 * the count returned. */
static inline size_t gl_triangle_rows(char uplo, lapack_int n, lapack_int j,
                                      lapack_int *first)
{
    *first = uplo == 'L' ? j : 0;
    return (size_t)(uplo == 'L' ? n - j : j + 1);
}

/* z (n x m; n x n: the caller's A) = dev (ld n), column block by column
 * block, each block's part of the caller's uplo triangle kept first and
 * all of it put back if a read fails: the restart on LAPACK after a
 * failed read finds A as it was.  0 or -1. */
int GL_FN(read_over_input)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                           lapack_int m, const gl_scalar *dev, gl_scalar *z,
                           lapack_int ldz);

/* GL_FN(eig) by the vendor's eigensolver on the context's device
 * (ops->ctx->method == GL_METHOD_VENDOR; gl_ctx_has_vendor_solver): the
 * full spectrum of ?syev/?syevd/?heev/?heevd (job->range 'A'), W and, with
 * z, the vectors; LAPACK's INFO (> 0: not converged) or a GL_STAGE_* code
 * (kernels/status.h) for anything the pipeline cannot do, which restarts
 * the call on the real LAPACK. */
int GL_FN(eig_vendor)(const GL_FN(ops) *ops, const gl_eig_job *job,
                      lapack_int n, const gl_scalar *a, lapack_int lda,
                      gl_real *w, gl_scalar *z, lapack_int ldz,
                      gl_stage_times *times);

/* GL_FN(eig)'s reduction by the one-stage method (ops->ctx->method ==
 * GL_METHOD_ONE_STAGE on a device; kernels/pipelines/eig_one_stage.c): Hermitian A
 * (its uplo triangle) times sigma -> real tridiagonal d (n), e (n-1), as
 * he_tridiag.  keep (may be NULL) receives Q = Q1 diag(phase) in the
 * one-stage form, b = 0: the n-1 reflectors of LAPACK's one-stage
 * reduction of the lower triangle (reflector i unit at row i+1, stored
 * below it in column i of a, ld n) in panels of GL_ONE_STAGE_BLOCK
 * columns, panel j0's forward T factor at column j0 of t (ld
 * GL_ONE_STAGE_BLOCK), no chase; tridiag_q_apply and
 * dc_vectors_on_device take it as they take he_tridiag's. */
enum { GL_ONE_STAGE_BLOCK = 32 };
/* The device's one-stage reduction, shared with the device ?sytrd
 * (kernels/pipelines/sytrd.c): its device memory, the matrix X (n x n, ld n), V and
 * W of a panel (n x GL_ONE_STAGE_BLOCK each, ld n), y = A22 v (n), the
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

/* The real bidiagonal (kind 'G': packed upper band of half-width b,
 * ldband = 3b+1) or tridiagonal (kind 'H': packed lower band) that stage 2
 * left in the backend's band, into host d (n) and e (n-1).  The chase
 * leaves complex entries of any sign: 'G' returns |d|, |e|, the same
 * bidiagonal up to diagonal unitary scalings from both sides (same singular
 * values); 'H' returns Re(d) and |e|, a diagonal unitary similarity (same
 * eigenvalues).  scratch: 2n host scalars; on return it holds the
 * band's diagonal and off-diagonal as they were (for the phases). */
int GL_FN(band_to_de)(const GL_FN(ops) *ops, char kind, lapack_int n,
                       lapack_int b, const gl_scalar *band,
                       lapack_int ldband, gl_scalar *scratch, gl_real *d,
                       gl_real *e);

/* Band input.  gb_bidiag: the m x n band (LAPACK ?gbbrd storage) to an
 * upper bidiagonal d (min(m,n)), e (min(m,n)-1) with the same singular
 * values.  sb_tridiag: the Hermitian band (?sbtrd storage) times sigma to
 * a real tridiagonal d (n), e (n-1) with the same eigenvalues; keep (may
 * be NULL) receives its Q as he_tridiag's.  sb_eig: eigenvalues of the
 * Hermitian band, ascending, scaled as ?sbev (divide_conquer 0) or ?sbevd
 * (1), and with z (not NULL) the eigenvectors (n x n).  sb_tridiag_q:
 * ?sbtrd with VECT 'V' (q = Q) or 'U' (q = q Q). */
int GL_FN(gb_bidiag)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     lapack_int kl, lapack_int ku, const gl_scalar *ab,
                     lapack_int ldab, gl_real *d, gl_real *e,
                     gl_stage_times *times);
/* ?gbbrd with VECT 'Q', 'P' or 'B' and/or NCC > 0: as gb_bidiag, and
 * A = Q [B 0; 0 0] PT with B upper bidiagonal (d, e real, any signs):
 * q (m x m) and pt (n x n) formed when vect asks for them, c (m x ncc)
 * := Q^H c. */
int GL_FN(gb_bidiag_q)(const GL_FN(ops) *ops, char vect, lapack_int m,
                       lapack_int n, lapack_int ncc, lapack_int kl,
                       lapack_int ku, const gl_scalar *ab, lapack_int ldab,
                       gl_real *d, gl_real *e, gl_scalar *q, lapack_int ldq,
                       gl_scalar *pt, lapack_int ldpt, gl_scalar *c,
                       lapack_int ldc, gl_stage_times *times);
int GL_FN(sb_tridiag)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                      lapack_int kd, const gl_scalar *ab, lapack_int ldab,
                      gl_real sigma, gl_real *d, gl_real *e,
                      GL_FN(tridiag_q) *keep, gl_stage_times *times);
int GL_FN(sb_eig)(const GL_FN(ops) *ops, char uplo, int divide_conquer,
                  lapack_int n, lapack_int kd, const gl_scalar *ab,
                  lapack_int ldab, gl_real *w, gl_scalar *z, lapack_int ldz,
                  gl_stage_times *times);
int GL_FN(sb_tridiag_q)(const GL_FN(ops) *ops, char vect, char uplo,
                        lapack_int n, lapack_int kd, const gl_scalar *ab,
                        lapack_int ldab, gl_real *d, gl_real *e, gl_scalar *q,
                        lapack_int ldq, gl_stage_times *times);

#endif
