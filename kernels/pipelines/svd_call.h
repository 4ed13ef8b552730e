/* One call of the SVD pipeline (svd.c) and the table of steps each of
 * its memory tiers runs it by (docs/design/memory.md): in core (svd.c),
 * the lean plan of the vectors (svd_lean.c), and the streamed plans of
 * the values and of the vectors (svd_streamed.c), whose vectors take the
 * lean plan's flow after a stage 1 of their own.  Internal to those
 * files. */
#ifndef GL_PIPELINES_SVD_CALL_H
#define GL_PIPELINES_SVD_CALL_H

#include "../backend/lapack_fns.h"
#include "pipelines.h"

#define AT(p, ld, i, j) ((p) + (size_t)(i) + (size_t)(j) * (size_t)(ld))

typedef struct svd_call svd_call;

/* The device bytes of the lean flow's phases (svd_lean_bytes): stage 1's
 * largest allocation, its operations' work and its peak; the chase's
 * store (one side's), the largest allocation of the stores, what the
 * blocks hold of them and the chase's group starts (ngroups groups); and
 * what applying the chase's reflectors to a block takes. */
typedef struct svd_lean_sizes {
    size_t x, work, stage1;
    size_t store, store_alloc, stores;
    lapack_int ngroups;
    size_t apply;
} svd_lean_sizes;

/* What the lean flow (svd_lean.c) takes from its tier: the lean plan's
 * own (stage 1 in core, the chase's two stores kept on the device, a
 * block's stage-1 panels up from host memory group by group) or the
 * streamed plan's (svd_streamed.c: stage 1 streamed through the device,
 * the stores kept or parked in host memory segment by segment, the
 * panels in groups bounded by the block). */
typedef struct svd_lean_parts {
    /* stage 1 leaves its band in host memory too (hband) */
    int host_band;
    /* X's band on the device (lean_band), its panels with their T factors
     * in host memory (hx, htq, htp), the marks t[0] and t[1] */
    int (*stage1)(svd_call *c);
    /* the band chased to bidiagonal, the two stores kept for the blocks */
    int (*chase)(svd_call *c);
    /* before the blocks: the stores' host memory pinned for the upload
     * lane, then their device buffers allocated (0 or GL_STAGE_FAULT) */
    void (*pin)(svd_call *c);
    int (*ready)(svd_call *c);
    /* E (rows 0 .. cols-1, ncols columns, on the device) := Q E ('Q') or
     * P E ('P') by the chase's reflectors */
    int (*apply_chase)(const svd_call *c, char which, lapack_int ncols,
                       gl_scalar *e, lapack_int lde);
    /* a block's stage-1 panels from host memory (apply_host_panels or
     * apply_block_panels), and the device bytes that takes */
    int (*apply_panels)(const GL_FN(ops) *ops, char storev, char trans,
                        lapack_int len, lapack_int nref, lapack_int nb,
                        const gl_scalar *v, lapack_int ldv,
                        const gl_scalar *t, lapack_int ncols, gl_scalar *e,
                        lapack_int lde);
    size_t (*panels_bytes)(lapack_int len, lapack_int nref, lapack_int nb,
                           lapack_int ncols);
    /* their parts of svd_lean_bytes: stage 1's, the stores' */
    void (*stage1_bytes)(const svd_call *c, svd_lean_sizes *b);
    void (*store_bytes)(const svd_call *c, svd_lean_sizes *b);
} svd_lean_parts;

/* A tier's steps.  decide: the band, tile and store of the tier from the
 * call's plan, once the call's layout is known (svd_decide_layout);
 * device_bytes: what the tier takes of the device (svd_plan_make); then
 * the pipeline in steps, each
 * returning 0 or what the call returns: plan (the memory), reduce (X to
 * the bidiagonal's d and e, keeping what the vectors need), stage3,
 * vectors (the back-transformation), read (the vectors into the caller's
 * U and VT); free releases the call's memory whichever step stopped it.
 * parts: the lean flow's, for the tiers that run it. */
typedef struct svd_tier {
    void (*decide)(svd_call *c);
    size_t (*device_bytes)(const svd_call *c, size_t *largest);
    int (*plan)(svd_call *c);
    int (*reduce)(svd_call *c);
    int (*stage3)(svd_call *c);
    int (*vectors)(svd_call *c);
    int (*read)(svd_call *c);
    void (*free)(svd_call *c);
    const svd_lean_parts *parts;
} svd_tier;

/* One call of the pipeline: the caller's arguments, what the plan decided,
 * the pieces of the two arenas (everything the call allocates) and what
 * one step hands to the next. */
struct svd_call {
    const GL_FN(ops) *ops;
    const gl_call_plan *plan;  /* the policy's (kernels/plan.h) */
    const GL_FN(lapack_fns) *f;
    const gl_svd_job *job;
    const gl_scalar *a;
    lapack_int m, n, lda, ldu, ldvt;
    gl_scalar *u, *vt;
    const svd_tier *tier;
    /* Work on X = A (m >= n) or A^H (m < n), rows x cols: same singular
     * values, and the left vectors of one are the right vectors of the
     * other. */
    int trans, want_l, want_r, vectors;
    lapack_int tile;           /* the lean flow's block of vectors' columns */
    lapack_int rows, cols;
    gl_real anrm, scaled_to;   /* scaled_to 0: A is not scaled */
    lapack_int bw, nb, ldband, group;   /* band half-width, panel width */
    int tall;                  /* QR first, then the band of R */
    lapack_int r1, ldr, ucols; /* rows ge2gb sees, ld of its matrix, U's cols */
    int on_device;             /* stage 3 leaves U_B, VT_B on the device */
    int host_image;            /* the vectors pass through a host image */
    int left_last, beside;     /* the order of the reads (svd_shape) */
    gl_scalar *over;           /* the output over A (NULL: none) ... */
    lapack_int orows, ocols, ldo;   /* ... its part that a read overwrites */

    void *device_arena, *host_arena;
    /* backend memory: X, the band, the stage-1 T factors (tp = tq + nb
     * cols), the tall QR's T and R (r = w without one), the chase's store,
     * U_B and VT_B on the device, the vectors of X, and the scratch of the
     * transposes of the reads */
    gl_scalar *w, *band, *tq, *tp, *tqr, *r, *lu, *lv, *adjoint;
    gl_real *ubd, *vbd;
    gl_real *dc_scratch;     /* stage 3's on the device: 4 n^2 reals */
    GL_FN(reflectors) keep;
    /* host memory: the band's diagonals and phases (left, right), d, e,
     * U_B, VT_B and stage 3's work (the host images over it), the kept
     * part of A */
    gl_scalar *de, *left, *right, *host, *kept, *zeros;
    gl_real *d, *ee, *ub, *vb, *work;
    lapack_int *iwork, *first;
    /* the lean flow's own memory: on the device stage 1's X with its T
     * factors, the band, and the block of vectors (the chase's store is
     * keep's, from reflectors_alloc); in host memory X's panels (ld rows)
     * with their T's, and in the host arena over stage 3's spent work
     * the vectors of X as their blocks come back (lstage: rows x ucols,
     * rstage: cols x cols), read into the caller's arrays only when every
     * block succeeded */
    gl_scalar *lean_x, *lean_band, *lean_block;
    void *lean_host;
    size_t lean_host_bytes;
    gl_scalar *hx, *htq, *htp, *lstage, *rstage;
    gl_scalar *hband;          /* the streamed stage 1's band (host) */
    gl_scalar *hqr, *htqr;     /* a tall X's QR: its reflectors and R
                                  (rows x cols) and T's (host) */
    /* The streamed plan's chase in segments of `seg` sweeps (park), each
     * segment's two stores parked in host memory as soon as it is chased
     * (hq and hp, segment i's scalars from seg_at[i]); each block takes
     * them back one side and one segment at a time (into seg_dev, with
     * seg_first), the last segment first. */
    int park;
    lapack_int seg, nseg;
    size_t *seg_at;
    gl_scalar *hq, *hp, *seg_dev;
    lapack_int *seg_first;

    lapack_int info;           /* stage 3's */
    double t[5];               /* profile marks: stage1 .. out */
};

/* The tiers (svd_lean.c, svd_streamed.c): the lean plan, the streamed
 * plan of the vectors and that of the values. */
extern const svd_tier GL_FN(svd_lean_tier);
extern const svd_tier GL_FN(svd_streamed_tier);
extern const svd_tier GL_FN(svd_streamed_values_tier);

/* The band's half-width of a plan's b for cols columns: at most cols - 1,
 * at least lo (svd_band, and the planner's shapes). */
static inline lapack_int gl_svd_band_width(lapack_int b, lapack_int cols,
                                           lapack_int lo)
{
    lapack_int bw = b < cols - 1 ? b : cols - 1;
    return bw < lo ? lo : bw;
}

/* What the tiers share of svd.c: the plan's band (at most cols - 1, at
 * least lo) and what follows from it; a blocked QR keeping
 * its panels' T's; the host arena (staged: with the lean flow's vectors
 * of X as their blocks come back); stage 3 from d and e on the host, the
 * merges' products on `products`; the arenas released. */
void GL_FN(svd_band)(svd_call *c, lapack_int lo);
int GL_FN(svd_qr_panels)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                         lapack_int nb, gl_scalar *a, lapack_int lda,
                         gl_scalar *t);
int GL_FN(svd_host_plan)(svd_call *c, int staged);
int GL_FN(svd_stage3_de)(svd_call *c, const GL_FN(ops) *products);
void GL_FN(svd_free)(svd_call *c);

/* The shapes of a call's plan by its tier (plans.c, the planner's), the
 * call's layout decided (c->tier set): the band and what the pipeline
 * takes of it (groups, stage 1's block and tiles, stage 2's passes), the
 * lean and streamed plans' blocks and the streamed chase's segments
 * (svd_segment, for which it decides c); and the streamed plan's segments
 * of the chase for c decided, forced to `forced` sweeps where > 0
 * (svd_streamed.c, a planner's step): 0 where its stores stay on the
 * device. */
void GL_FN(svd_shape)(const gl_tuning *tuning, svd_call *c,
                      gl_call_plan *plan);
lapack_int GL_FN(svd_segment)(svd_call *c, lapack_int forced);

/* What the streamed plan's vectors share of svd_lean.c: its steps, its
 * device bytes, and the lean plan's chase with its stores kept. */
size_t GL_FN(svd_lean_bytes)(const svd_call *c, size_t *largest);
int GL_FN(svd_lean_plan)(svd_call *c);
int GL_FN(svd_lean_reduce)(svd_call *c);
int GL_FN(svd_lean_stage3)(svd_call *c);
int GL_FN(svd_lean_vectors)(svd_call *c);
int GL_FN(svd_lean_read)(svd_call *c);
void GL_FN(svd_lean_free)(svd_call *c);
int GL_FN(svd_chase_kept)(svd_call *c);
int GL_FN(svd_apply_kept)(const svd_call *c, char which, lapack_int ncols,
                          gl_scalar *e, lapack_int lde);
void GL_FN(svd_kept_bytes)(const svd_call *c, svd_lean_sizes *b);

#endif
