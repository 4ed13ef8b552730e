/* The back-transformation of the two-stage reductions (backtransform.c):
 * the chase's reflector stores and their application, the stage-1
 * panels' application, the phases that make the chased band real, and
 * Q of a tridiagonal reduction as the eigenvector pipelines keep it and
 * the reads of the vectors over the caller's input (tridiag_q.c). */
#ifndef GL_STAGES_BACKTRANSFORM_H
#define GL_STAGES_BACKTRANSFORM_H

#include "../ops.h"
#include "../status.h"

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
 * included (as kernels/backend/gpu_ops.h counts it). */
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
/* dst += src^H, the same shapes (host memory). */
void GL_FN(add_conj_transpose)(lapack_int rows, lapack_int cols,
                               const gl_scalar *src, lapack_int lds,
                               gl_scalar *dst, lapack_int ldd);

/* y (rows x cols) = diag(phase) x, or diag(phase) x^T (transpose: x is
 * cols x rows); x real. */
void GL_FN(scale_rows)(lapack_int rows, lapack_int cols,
                       const gl_scalar *phase, const gl_real *x,
                       lapack_int ldx, int transpose, gl_scalar *y,
                       lapack_int ldy);

/* The panels of the one-stage reduction's Q (tridiag_q with b = 0,
 * kernels/pipelines/eig_one_stage.c): GL_ONE_STAGE_BLOCK reflectors each. */
enum { GL_ONE_STAGE_BLOCK = 32 };

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
    /* The chase's store in groups of `group` sweeps (the plan's).  The
     * streamed plan's chase in segments of segment_sweeps sweeps (ops.h
     * sb_chase), each segment's store (of the trailing band from its
     * first sweep: vq then tauq) parked one after the other in host
     * memory (parked); NULL: the chase's store is `chase`. */
    gl_scalar *parked;
    lapack_int segment_sweeps, group;
} GL_FN(tridiag_q);

void GL_FN(tridiag_q_free)(const GL_FN(ops) *ops, GL_FN(tridiag_q) *q);

/* q's phases (host) and the chase's store for q->n and q->b (in groups
 * of q->group sweeps, the plan's): 0, or GL_STAGE_FAULT (free q with
 * tridiag_q_free). */
int GL_FN(tridiag_q_keep_chase)(const GL_FN(ops) *ops, GL_FN(tridiag_q) *q);

/* E (n x m, backend memory, ld n) := Q E with q's reflectors (the
 * chase's, then stage 1's or the one-stage reduction's panels). */
int GL_FN(q_apply_on)(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                      lapack_int m, gl_scalar *e);
/* z (host, n x m) = Q diag(phase) zt for zt real n x m (the eigenvectors
 * of T -> those of A); zt = NULL: the identity (m = n), i.e. Q itself. */
int GL_FN(tridiag_q_apply)(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                           lapack_int m, const gl_real *zt, lapack_int ldzt,
                           gl_scalar *z, lapack_int ldz);

/* ---- reads over the caller's input (tridiag_q.c) ---- */

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

#endif
