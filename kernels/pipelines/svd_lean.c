/* The lean plan of the SVD's vectors (docs/design/memory.md): a matrix
 * that fits the device where the in-core plan (about 8 n^2) does not.
 * Stage 1 in core, its panels parked in host memory, the chase's two
 * stores on the device, stage 3 on the host, and the vectors made in
 * blocks of columns with the panels streamed past each block, as the
 * Hermitian lean plan (kernels/tiers/sy2sb_streamed.c) makes its Z.
 *
 * A tall X's QR runs first in core, its reflectors parked too (lean_qr)
 * and streamed past the left blocks after R's panels.  An output over A
 * (JOBZ, JOBU or JOBVT 'O') is written last from the host's blocks,
 * after every block succeeded (svd_lean_read: nothing there can fail,
 * and A, read once at the start, is not read again).  Stage 3 is the
 * host's: U_B and VT_B go to the device block by block.
 *
 * This flow is also the streamed plan's of the vectors after its own
 * stage 1 (svd_streamed.c): its steps take what differs from the tier's
 * parts (svd_call.h svd_lean_parts). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../backend/gpu_ops.h"
#include "svd_call.h"

/* The lean plan's band is the in-core plan's, its blocks of the vectors
 * tile columns wide (the plan's); stage 3 leaves nothing on the device
 * and no read goes through a host image or beside the
 * back-transformation. */
static void lean_decide(svd_call *c)
{
    GL_FN(svd_band)(c, 0);
    c->on_device = c->host_image = c->beside = 0;
    c->tile = c->plan->tile;
}

static size_t max_size(size_t x, size_t y) { return x > y ? x : y; }

/* The lean plan's device memory, each piece allocated and released on its
 * own: stage 1's X with its T factors (released once they are in host
 * memory), the band (released after the chase), the chase's two stores
 * (reflectors_alloc, kept to the end) and one block of the vectors'
 * columns, as tall as X's left vectors where there are any. */
static size_t lean_x_scalars(const svd_call *c)
{
    size_t cols = (size_t)c->cols;
    return (size_t)c->r1 * cols + 2 * (size_t)c->nb * cols;
}

/* A tall X's QR in core (lean_qr): X and the QR's T factors, then the
 * most that a panel's factorization or its update of the columns right
 * of it holds (bytes). */
static size_t lean_qr_bytes(const svd_call *c)
{
    const gl_tuning *tuning = &c->ops->ctx->tuning;
    const size_t es = sizeof(gl_scalar);
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb;
    size_t most = 0;
    for (lapack_int k = 0; k < cols; k += nb) {
        lapack_int pk = cols - k < nb ? cols - k : nb, rest = cols - k - pk;
        size_t panel = GL_FN(gpu_panel_bytes)(tuning, 1, rows - k, pk);
        size_t update =
            rest > 0 ? es * GL_LARFB_SCRATCH(rows - k, rest, pk) : 0;
        most = max_size(most, max_size(panel, update));
    }
    return es * ((size_t)rows * (size_t)cols + (size_t)nb * (size_t)cols) +
           most;
}

static size_t lean_block_scalars(const svd_call *c)
{
    return (size_t)(c->want_l ? c->rows : c->cols) * (size_t)c->tile;
}

/* The chase's two stores kept on the device to the end: their bytes. */
/* gl_s_svd_kept_bytes gl_d_svd_kept_bytes gl_c_svd_kept_bytes gl_z_svd_kept_bytes */
void GL_FN(svd_kept_bytes)(const svd_call *c, svd_lean_sizes *b)
{
    const size_t es = sizeof(gl_scalar);
    b->store = GL_FN(reflectors_slots)(c->cols, c->bw, c->group,
                                       &b->ngroups) *
               ((size_t)c->bw + 1) * es;
    b->apply =
        GL_FN(apply_chase_device_bytes)(c->cols, c->bw, c->group, c->tile);
    b->stores = 2 * b->store;   /* held by the blocks */
    b->store_alloc = b->store;  /* the largest allocation of them */
}

/* Stage 1 in core: X with its T factors, the band, ge2gb's work and
 * scratch (X is transposed on the host, so stage 1 holds no second copy
 * of it). */
static void lean_stage1_bytes(const svd_call *c, svd_lean_sizes *b)
{
    const size_t es = sizeof(gl_scalar);
    size_t band = (size_t)c->ldband * (size_t)c->cols * es;
    b->x = lean_x_scalars(c) * es;
    b->work = GL_FN(ge2gb_device_bytes)(c->r1, c->cols, c->nb,
                                        c->plan->stage1_block);
    b->stage1 = b->x + band + b->work;
}

/* The lean flow's high-water mark: the largest of its phases, each what
 * is allocated at once:
 *  - stage 1 (the tier's stage1_bytes): in core X with its T factors,
 *    the band, ge2gb's work and scratch (the streamed plan's: the passes'
 *    arena and the panels' scratch);
 *  - the chase: the band, the two stores, the device chase's group
 *    starts (ints) (parked: a segment's);
 *  - the blocks: the two stores (parked: one side's of two segments,
 *    the next going up while the device applies this one's), the
 *    block, and the most that apply_chase or apply_host_panels allocates
 *    for one block of either side.
 * largest: the largest of the single allocations (or of the sums that
 * hold them). */
/* gl_s_svd_lean_bytes gl_d_svd_lean_bytes gl_c_svd_lean_bytes gl_z_svd_lean_bytes */
size_t GL_FN(svd_lean_bytes)(const svd_call *c, size_t *largest)
{
    const size_t es = sizeof(gl_scalar);
    const svd_lean_parts *parts = c->tier->parts;
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb;
    size_t block = lean_block_scalars(c) * es;
    size_t band = (size_t)c->ldband * (size_t)cols * es;
    svd_lean_sizes b = {0};
    parts->stage1_bytes(c, &b);
    parts->store_bytes(c, &b);
    size_t starts = c->bw > 1 ? (size_t)(b.ngroups + 1) * sizeof(int) : 0;
    /* R's panels, and a tall X's QR's after them (the tier's groups) */
    size_t apply = b.apply;
    if (c->want_l)
        apply = max_size(apply, parts->panels_bytes(rows, cols, nb, c->tile));
    if (c->want_r && cols > nb)
        apply = max_size(apply, parts->panels_bytes(cols - nb, cols - nb, nb,
                                                    c->tile));
    size_t stage1 = b.stage1, x = b.x, work = b.work;
    size_t chase = band + 2 * b.store + starts;
    if (c->tall) {   /* the QR first, alone */
        stage1 = max_size(stage1, lean_qr_bytes(c));
        x = max_size(x, lean_qr_bytes(c));
    }
    *largest = max_size(max_size(x, work),
                        max_size(max_size(b.store, b.store_alloc),
                                 block + apply));
    return max_size(max_size(stage1, chase), b.stores + block + apply);
}

/* X's panels (and the streamed stage 1's band, or a tall X's QR) in host
 * memory, its device memory allocated as it goes; then the host arena,
 * with the vectors of X as their blocks come back. */
/* gl_s_svd_lean_plan gl_d_svd_lean_plan gl_c_svd_lean_plan gl_z_svd_lean_plan */
int GL_FN(svd_lean_plan)(svd_call *c)
{
    int host_band = c->tier->parts->host_band;
    size_t cols = (size_t)c->cols, nbc = (size_t)c->nb * cols;
    size_t xsize = (size_t)c->r1 * cols;
    size_t band = host_band ? (size_t)c->ldband * cols : 0;
    size_t qr = c->tall ? (size_t)c->rows * cols + nbc : 0;
    c->lean_host_bytes = sizeof(gl_scalar) * (xsize + 2 * nbc + band + qr);
    c->lean_host = gl_host_alloc(c->lean_host_bytes);
    if (!c->lean_host)
        return GL_STAGE_FAULT;
    c->hx = c->lean_host, c->htq = c->hx + xsize, c->htp = c->htq + nbc;
    c->hband = host_band ? c->htp + nbc : NULL;
    c->hqr = c->tall ? c->htp + nbc : NULL;
    c->htqr = c->tall ? c->hqr + (size_t)c->rows * cols : NULL;
    return GL_FN(svd_host_plan)(c, 1);
}

/* The arenas, then the flow's own memory. */
/* gl_s_svd_lean_free gl_d_svd_lean_free gl_c_svd_lean_free gl_z_svd_lean_free */
void GL_FN(svd_lean_free)(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    GL_FN(svd_free)(c);
    ops->release(ops, c->lean_x);
    ops->release(ops, c->lean_band);
    ops->release(ops, c->lean_block);
    ops->release(ops, c->seg_dev);
    GL_FN(reflectors_free)(ops, &c->keep);
    gl_host_free(c->lean_host);
    gl_host_free(c->hq);
    free(c->seg_at);
    free(c->seg_first);
}

/* X (rows x cols, ld rows, on the device) from A, transposed on the host
 * for m < n into `via` (so that the device never holds a second copy),
 * and scaled. */
static int lean_upload(svd_call *c, gl_scalar *via, gl_scalar *x)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols;
    if (c->trans) {
        GL_FN(conj_transpose)(c->m, c->n, c->a, c->lda, via, rows);
        ops->from_host(ops, 'N', rows, cols, via, rows, x, rows);
    } else {
        ops->from_host(ops, 'N', rows, cols, c->a, c->lda, x, rows);
    }
    return c->scaled_to != 0 &&
                   ops->lascl(ops, c->anrm, c->scaled_to, rows, cols, x, rows)
               ? GL_STAGE_FAULT
               : 0;
}

/* A tall X's QR in core, as the in-core plan's (svd.c svd_reduce): X and the
 * QR's T's up, the reflectors with R and the T's down into host memory, X's
 * device memory released before R's reduction takes its own. */
static int lean_qr(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb;
    size_t xsize = (size_t)rows * (size_t)cols;
    c->lean_x = ops->alloc(ops, sizeof(gl_scalar) * (xsize + (size_t)nb * cols));
    if (!c->lean_x || lean_upload(c, c->hqr, c->lean_x))
        return GL_STAGE_FAULT;
    c->t[0] = gl_profile_stage(ops->ctx, "stage1");
    if (GL_FN(svd_qr_panels)(ops, rows, cols, nb, c->lean_x, rows,
                             c->lean_x + xsize) ||
        ops->to_host_scratch(ops, rows, cols, c->lean_x, rows, c->hqr, rows) ||
        ops->to_host_scratch(ops, nb, cols, c->lean_x + xsize, nb, c->htqr,
                             nb))
        return GL_STAGE_FAULT;
    ops->release(ops, c->lean_x);
    c->lean_x = NULL;
    return 0;
}

/* The lean plan's stage 1: X up and reduced to the band in core as
 * the in-core plan does (a tall X: its QR first, lean_qr, then R up); its
 * panels and T factors go to host memory and its device memory is
 * released before the chase's two stores are allocated.  The band stays
 * on the device. */
static int lean_stage1(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int cols = c->cols, nb = c->nb, r1 = c->r1, ldr = c->ldr;
    size_t xsize = (size_t)r1 * (size_t)cols, nbc = (size_t)nb * cols;
    if (c->tall && lean_qr(c))
        return GL_STAGE_FAULT;
    c->lean_x = ops->alloc(ops, sizeof(gl_scalar) * lean_x_scalars(c));
    c->lean_band = c->lean_x ? ops->alloc(ops, sizeof(gl_scalar) *
                                                   (size_t)c->ldband *
                                                   (size_t)cols)
                             : NULL;
    if (!c->lean_band)
        return GL_STAGE_FAULT;
    c->w = c->r = c->lean_x, c->band = c->lean_band;
    c->tq = c->w + xsize, c->tp = c->tq + nbc;
    if (c->tall) {   /* R, its zeros below */
        ops->from_host(ops, 'N', cols, cols, c->hqr, c->rows, c->r, ldr);
        ops->zero_lower(ops, cols, cols, c->r, ldr);
    } else if (lean_upload(c, c->hx, c->w)) {
        return GL_STAGE_FAULT;
    } else {
        c->t[0] = gl_profile_stage(ops->ctx, "stage1");
    }
    if (GL_FN(ge2gb)(ops, r1, cols, nb, c->plan->stage1_block,
                     c->plan->stage1_tile, c->r, ldr, c->tq, c->tp))
        return GL_STAGE_FAULT;
    c->t[1] = gl_profile_stage(ops->ctx, "stage2");
    ops->pack_band(ops, 'G', cols, c->bw, c->r, ldr, c->band, c->ldband);
    if (ops->to_host_scratch(ops, r1, cols, c->r, ldr, c->hx, ldr) ||
        ops->to_host_scratch(ops, nb, 2 * cols, c->tq, nb, c->htq, nb))
        return GL_STAGE_FAULT;
    ops->release(ops, c->lean_x);
    c->lean_x = c->w = c->r = c->tq = c->tp = NULL;
    return 0;
}

/* The chase with its two stores kept on the device to the end. */
/* gl_s_svd_chase_kept gl_d_svd_chase_kept gl_c_svd_chase_kept gl_z_svd_chase_kept */
int GL_FN(svd_chase_kept)(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    return GL_FN(reflectors_alloc)(ops, &c->keep, c->cols, c->bw, c->group,
                                   1) ||
                   (c->bw > 1 &&
                    ops->gb_chase(ops, c->cols, c->bw, 1, c->cols, c->band,
                                  c->ldband, &c->keep))
               ? GL_STAGE_FAULT
               : 0;
}

/* A block's chase reflectors from the stores on the device. */
/* gl_s_svd_apply_kept gl_d_svd_apply_kept gl_c_svd_apply_kept gl_z_svd_apply_kept */
int GL_FN(svd_apply_kept)(const svd_call *c, char which, lapack_int ncols,
                          gl_scalar *e, lapack_int lde)
{
    return GL_FN(apply_chase)(c->ops, &c->keep, which, 'N', ncols, e, lde);
}

/* Stages 1 and 2: the band (the tier's stage 1), then chased to
 * bidiagonal keeping the chase's two stores (the tier's: on the device,
 * or parked segment by segment); the chased band gives d and e (and the
 * diagonals for the phases), and goes. */
/* gl_s_svd_lean_reduce gl_d_svd_lean_reduce gl_c_svd_lean_reduce gl_z_svd_lean_reduce */
int GL_FN(svd_lean_reduce)(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    const svd_lean_parts *parts = c->tier->parts;
    if (parts->stage1(c) || parts->chase(c))
        return GL_STAGE_FAULT;
    if (GL_FN(band_to_de)(ops, 'G', c->cols, c->bw, c->band, c->ldband, c->de,
                          c->d, c->ee))
        return GL_STAGE_FAULT;
    ops->release(ops, c->lean_band);
    c->lean_band = c->band = NULL;
    return 0;
}

/* Stage 3 on the host, the merges' products with it: bidiag_svd with the
 * device's would take up to 3 n^2 reals beside the chase's stores (the
 * Hermitian lean plan's ?stedc runs on the host alike).  That is the
 * system's ?bdsdc, except where its INTEGERs overflow (n > 23,170,
 * docs/large.md): then our divide and conquer, its products by the
 * host's BLAS. */
/* gl_s_svd_lean_stage3 gl_d_svd_lean_stage3 gl_c_svd_lean_stage3 gl_z_svd_lean_stage3 */
int GL_FN(svd_lean_stage3)(svd_call *c)
{
    c->t[2] = gl_profile_stage(c->ops->ctx, "stage3");
    GL_FN(ops) host_products = *c->ops;
    host_products.real_product = NULL;
    return GL_FN(svd_stage3_de)(c, &host_products);
}

/* The vectors, in blocks of `tile` columns into lstage and rstage: each
 * block is made on the host (diag(phases) U_B, or diag(phases) VT_B^T),
 * goes up once, takes the chase's reflectors (the tier's apply_chase)
 * and stage 1's panels (up from host memory, the tier's apply_panels),
 * and comes back. */
static int lean_blocks(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    const svd_lean_parts *parts = c->tier->parts;
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb, tile = c->tile;
    c->lean_block = ops->alloc(ops, sizeof(gl_scalar) * lean_block_scalars(c));
    if (!c->lean_block)
        return GL_STAGE_FAULT;
    if (parts->ready && parts->ready(c))
        return GL_STAGE_FAULT;
    gl_scalar *e = c->lean_block;
    for (lapack_int j0 = 0; c->want_l && j0 < c->ucols; j0 += tile) {
        lapack_int cb = c->ucols - j0 < tile ? c->ucols - j0 : tile;
        /* its first from_b columns are U_B's, the others I's */
        lapack_int from_b = cols - j0 < cb ? cols - j0 : cb;
        if (from_b < 0)
            from_b = 0;
        gl_scalar *o = c->lstage + (size_t)j0 * rows;
        /* [U_B 0; 0 I]'s columns j0.., U_B's rows scaled by the phases */
        for (lapack_int j = 0; j < cb; j++) {
            gl_scalar *col = o + (size_t)j * rows;
            if (j < from_b) {   /* the rows below U_B's */
                memset(col + cols, 0, sizeof *col * (size_t)(rows - cols));
            } else {
                memset(col, 0, sizeof *col * (size_t)rows);
                col[j0 + j] = 1;
            }
        }
        GL_FN(scale_rows)(cols, from_b, c->left, c->ub + (size_t)j0 * cols,
                          cols, 0, o, rows);
        ops->from_host(ops, 'N', rows, cb, o, rows, e, rows);
        if (parts->apply_chase(c, 'Q', cb, e, rows) ||
            parts->apply_panels(ops, 'C', 'N', c->r1, cols, nb, c->hx, c->ldr,
                                c->htq, cb, e, rows) ||
            (c->tall &&
             GL_FN(apply_host_panels)(ops, 'C', 'N', rows, cols, nb, c->hqr,
                                      rows, c->htqr, cb, e, rows)) ||
            ops->to_host_scratch(ops, rows, cb, e, rows, o, rows))
            return GL_STAGE_FAULT;
    }
    for (lapack_int j0 = 0; c->want_r && j0 < cols; j0 += tile) {
        lapack_int cb = cols - j0 < tile ? cols - j0 : tile;
        gl_scalar *o = c->rstage + (size_t)j0 * cols;
        GL_FN(scale_rows)(cols, cb, c->right, c->vb + j0, cols, 1, o, cols);
        ops->from_host(ops, 'N', cols, cb, o, cols, e, cols);
        if (parts->apply_chase(c, 'P', cb, e, cols) ||
            (cols > nb &&
             parts->apply_panels(ops, 'R', 'N', cols - nb, cols - nb, nb,
                                 c->hx + (size_t)nb * c->ldr, c->ldr, c->htp,
                                 cb, e + nb, cols)) ||
            ops->to_host_scratch(ops, cols, cb, e, cols, o, cols))
            return GL_STAGE_FAULT;
    }
    return 0;
}

/* Vectors: the back-transformation of U_B and VT_B, block by block; the
 * panels (and the tier's stores in host memory) go up on the upload lane
 * by DMA (ops.h host_pin). */
/* gl_s_svd_lean_vectors gl_d_svd_lean_vectors gl_c_svd_lean_vectors gl_z_svd_lean_vectors */
int GL_FN(svd_lean_vectors)(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    c->t[3] = gl_profile_stage(ops->ctx, "back");
    ops->host_pin(ops, c->lean_host, c->lean_host_bytes);
    if (c->tier->parts->pin)
        c->tier->parts->pin(c);
    int failed = lean_blocks(c);
    ops->lanes_finish(ops);   /* no upload may still reach what goes */
    ops->host_unpin(ops, c->lean_host);
    ops->host_unpin(ops, c->hq);
    if (failed)
        return GL_STAGE_FAULT;
    c->t[4] = gl_profile_stage(ops->ctx, "out");
    return 0;
}

/* U and VT from the host's blocks, all of which succeeded: X's left
 * vectors are U (m >= n) or VT's adjoint, its right vectors VT's adjoint
 * or U. */
/* gl_s_svd_lean_read gl_d_svd_lean_read gl_c_svd_lean_read gl_z_svd_lean_read */
int GL_FN(svd_lean_read)(svd_call *c)
{
    lapack_int rows = c->rows, cols = c->cols, ucols = c->ucols;
    for (lapack_int j = 0; c->want_l && !c->trans && j < ucols; j++)
        memcpy(c->u + (size_t)j * c->ldu, c->lstage + (size_t)j * rows,
               sizeof *c->u * (size_t)rows);
    if (c->want_l && c->trans)
        GL_FN(conj_transpose)(rows, ucols, c->lstage, rows, c->vt, c->ldvt);
    for (lapack_int j = 0; c->want_r && c->trans && j < cols; j++)
        memcpy(c->u + (size_t)j * c->ldu, c->rstage + (size_t)j * cols,
               sizeof *c->u * (size_t)cols);
    if (c->want_r && !c->trans)
        GL_FN(conj_transpose)(cols, cols, c->rstage, cols, c->vt, c->ldvt);
    return 0;
}

/* The lean plan's parts: stage 1 in core, the stores kept, the panels in
 * apply_host_panels' groups. */
static const svd_lean_parts lean_parts = {
    .host_band = 0,
    .stage1 = lean_stage1,
    .chase = GL_FN(svd_chase_kept),
    .apply_chase = GL_FN(svd_apply_kept),
    .apply_panels = GL_FN(apply_host_panels),
    .panels_bytes = GL_FN(apply_host_panels_device_bytes),
    .stage1_bytes = lean_stage1_bytes,
    .store_bytes = GL_FN(svd_kept_bytes),
};

/* gl_s_svd_lean_tier gl_d_svd_lean_tier gl_c_svd_lean_tier gl_z_svd_lean_tier */
const svd_tier GL_FN(svd_lean_tier) = {
    .decide = lean_decide,
    .device_bytes = GL_FN(svd_lean_bytes),
    .plan = GL_FN(svd_lean_plan),
    .reduce = GL_FN(svd_lean_reduce),
    .stage3 = GL_FN(svd_lean_stage3),
    .vectors = GL_FN(svd_lean_vectors),
    .read = GL_FN(svd_lean_read),
    .free = GL_FN(svd_lean_free),
    .parts = &lean_parts,
};
