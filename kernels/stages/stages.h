/* The stages 1 and 2 of the two-stage reductions, written once against
 * the operation table (ops.h), per precision (runtime/precision.h):
 * dense to band (ge2gb, sy2sb), band to band (band_reduce), band to
 * bidiagonal or tridiagonal (gb2bd, the table's chase passes) and the
 * real d and e the chase leaves (band_to_de).  Their back-transformation:
 * backtransform.h; stage 3: stage3.h; the same stages over several
 * devices or streamed through one: kernels/tiers/. */
#ifndef GL_STAGES_STAGES_H
#define GL_STAGES_STAGES_H

#include "../ops.h"
#include "../status.h"

/* Stage 1, general: A (m x n, m >= n) -> upper band of half-width b, by
 * QR of each block column and LQ of each block row ("Performant Unified
 * GPU Kernels for Portable Singular Value Computation Across Hardware and
 * Precision", arXiv:2508.06339): A = Q1 Band P1^H.  The reflectors stay
 * in A: those of the QR of block column k below the diagonal of
 * A(k:m, k:k+b), those of the LQ of block row k right of the band in
 * A(k:k+b, k+b:n).  tq, tp (b x n, ld b, may be NULL): the T factor of
 * each panel at column k, for apply_panels.  The rest of the matrix takes
 * the updates of `block` columns of steps together (rounded down to whole
 * steps; b: each step's at once).  A context with other devices
 * (ctx->npeers) shares the updates by tile columns of `tile` (the plan's
 * stage1_tile; kernels/tiers/stage1_peers.c). */
int GL_FN(ge2gb)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                 lapack_int b, lapack_int block, lapack_int tile,
                 gl_scalar *a, lapack_int lda, gl_scalar *tq, gl_scalar *tp);

/* Stage 1, Hermitian: A (n x n, lower triangle) -> lower band of
 * half-width b, as LAPACK's ?sytrd_sy2sb ('L'): Q^H A Q with the blocked
 * two-sided update W = A V T - 1/2 V (T^H V^H A V T), A -= V W^H + W V^H,
 * the trailing matrix taking the updates of `block` columns of panels
 * together (rounded down to whole panels; b: each panel's at once, as
 * LAPACK).  The reflectors stay below the band of A; tau (host, may be
 * NULL) receives their scalars, tau[k] for the one of column k; tq (b x n,
 * ld b, may be NULL) the T factor of each panel at column k.  tile: as
 * ge2gb's. */
int GL_FN(sy2sb)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 lapack_int block, lapack_int tile, gl_scalar *a,
                 lapack_int lda, gl_scalar *tau, gl_scalar *tq);

/* The end of a panel of sy2sb's: X (pn x kk at column acc of wa, ld
 * ldw), A22 S of the stale A22, made W = X' - 1/2 V (S^H X') where
 * X' = X - VA (WA^H S) - WA (VA^H S) corrects it by the acc columns of
 * updates before it (va, wa), V at column acc of va; mm (ldm x kk,
 * ldm >= max(acc, kk)) scratch. */
void GL_FN(sy2sb_panel_w)(const GL_FN(ops) *ops, lapack_int pn, lapack_int kk,
                          lapack_int acc, const gl_scalar *va,
                          gl_scalar *wa, lapack_int ldw,
                          const gl_scalar *s, gl_scalar *mm, lapack_int ldm);

/* Device bytes that ge2gb and sy2sb allocate beside their matrix while
 * they run, their operations' scratch included (as kernels/backend/gpu_ops.h
 * counts it). */
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

/* Band-to-band (kernels/stages/band_reduce.c): the Hermitian band of
 * half-width big in w (the backend's memory, both triangles, A(i, j) at
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

#endif
