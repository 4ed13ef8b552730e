/* Stages 1 and 2 of the SVD's values for a matrix larger than the
 * device's memory: the working copy stays in host memory and streams
 * through the device in tiles (docs/design/memory.md, "The streamed plan
 * of the SVD's values").
 *
 * The copy is X = A (m >= n) or A^H (m < n), rows x cols, scaled as
 * kernels/pipelines/svd.c scales A.  Each panel of b columns is one step of
 * ge2gb.c's reduction to an upper band (the blocked idea of LAPACK's
 * ?gebrd, with blocks of b columns): a QR of the column block, then an
 * LQ of the row block right of it.  The previous panel's two updates are
 * still pending: the left one, X -= V Y^H (Y = X^H V T), and the right
 * one, X -= X' W^H (X' = X W T), all four n x b blocks on the device with
 * absolute row numbers.  Panel k:
 *  1. the column block X(k:rows, k:k+b) comes up, takes the pending
 *     updates and is factored (QR): R goes down into the host band;
 *  2. pass 1 over the tiles of X(k:rows, k+b:cols): each tile comes up,
 *     takes the pending updates, goes back down, and adds its share to
 *     Y = X^H V T, so Y is of the matrix after the pending updates;
 *  3. the row block X(k:k+b, k+b:cols) comes up again, as pass 1 left it,
 *     takes this panel's left update V Y^H and is factored (LQ): L goes
 *     down into the band;
 *  4. pass 2 over the tiles of X(k+b:rows, k+b:cols), up only: X' = X'' W
 *     T of the matrix X'' after this panel's left update, computed as
 *     (X W - V (Y^H W)) T from the tiles as pass 1 left them -- the left
 *     update as a correction of the product (as ge2gb.c's stale_product)
 *     costs O(n b^2) instead of a product per tile.
 * This panel's V, Y and X', W are then the pending updates.  So each
 * panel reads the trailing matrix twice and writes it once: in all about
 * rows cols^2 / b - cols^3 / (3b) elements up and half that down (square:
 * 2n^3 / (3b) and n^3 / (3b)), against n^3 / (6b) each way of the
 * Hermitian reduction (sy2sb_streamed.c), whose two-sided update is one
 * and whose tiles are one triangle's.  The last block (at most b columns)
 * comes up, takes the pending updates and goes into the band by its QR.
 * The band (half-width b) then goes to the device, is chased to
 * bidiagonal as svd.c's values path chases it, and its d and e come back
 * for stage 3.
 *
 * On the device, one arena (arena_scalars): three blocks of rows x b (the
 * pending V and X', the panel's V, first its column block), three of
 * cols x b (the pending Y and W, the panel's Y), T, Y^H W and the tile
 * buffers of the passes, whose copies run on the copy lanes beside the
 * products (tile_pass.c).
 * The row block, Y T and X' T go into the pending blocks that pass 1 has
 * spent.  The caller's A is only read, so a failure anywhere restarts the
 * call on LAPACK. */
#include <complex.h>
#include <string.h>

#include "../../runtime/memory.h"
#include "../../runtime/precision.h"
#include "../../runtime/profile.h"
#include "../../runtime/tune.h"
#include "../backend/lapack_fns.h"
#include "../stages/stages.h"
#include "streamed.h"
#include "../backend/gpu_ops.h"

typedef struct ge_streamed {
    const GL_FN(ops) *ops;
    lapack_int rows, cols, b, tile;
    gl_scalar *h;            /* host: X, ld rows */
    gl_scalar *band;         /* host: the upper band as gb_chase takes it */
    lapack_int ldband;       /* 3b + 1 */
    /* device: rows x b (ld rows) and cols x b (ld cols) blocks, row r of
     * a block is row r of X (column r for Y and W) */
    gl_scalar *vp, *xp, *v;  /* the pending V and X', the panel's V */
    gl_scalar *yp, *wp, *y;  /* the pending Y and W, the panel's Y */
    gl_scalar *t, *z, *tb;   /* T (ld b), Y^H W (ld b), the
                                GL_TILE_BUFFERS tiles (ld tile) */
    /* host, with the vectors: each QR and LQ panel's T at its column
     * (ld b), as ge2gb keeps them in tq and tp; NULL: the values only */
    gl_scalar *tq, *tp;
    lapack_int left, right;  /* columns of the pending V Y^H and X' W^H;
                                0: none */
} ge_streamed;

/* The band and tile that a reduction of rows x cols takes (the caller's
 * b within 1 .. cols - 1, tiles at least b + 1 wide). */
static void clamp_sizes(lapack_int cols, lapack_int *b, lapack_int *tile)
{
    if (*b > cols - 1)
        *b = cols - 1;
    if (*b < 1)
        *b = 1;
    if (*tile < *b + 1)
        *tile = *b + 1;
}

static size_t arena_scalars(lapack_int rows, lapack_int cols, lapack_int b,
                            lapack_int tile)
{
    return 3 * (size_t)rows * (size_t)b + 3 * (size_t)cols * (size_t)b +
           2 * (size_t)b * (size_t)b +
           GL_TILE_BUFFERS * (size_t)tile * (size_t)tile;
}

/* gl_s_ge_streamed_stage1_bytes gl_d_ge_streamed_stage1_bytes gl_c_ge_streamed_stage1_bytes gl_z_ge_streamed_stage1_bytes */
size_t GL_FN(ge_streamed_stage1_bytes)(const gl_tuning *tuning,
                                       lapack_int rows, lapack_int cols,
                                       lapack_int b, lapack_int tile)
{
    clamp_sizes(cols, &b, &tile);
    const size_t es = sizeof(gl_scalar);
    /* the arena beside the largest scratch of the panels' factorizations
     * (a short last row block also applies its LQ to its other rows) */
    size_t scratch = 0;
    lapack_int k = 0;
    for (; k + b < cols; k += b) {
        lapack_int q = cols - k - b, kk = q < b ? q : b;
        size_t qr = GL_FN(gpu_panel_bytes)(tuning, 1, rows - k, b);
        size_t lq = GL_FN(gpu_panel_bytes)(tuning, 0, q, kk);
        if (kk < b)
            lq += es * GL_LARFB_SCRATCH(q, b - kk, kk);
        scratch = qr > scratch ? qr : scratch;
        scratch = lq > scratch ? lq : scratch;
    }
    size_t last = GL_FN(gpu_panel_bytes)(tuning, 1, rows - k, cols - k);
    scratch = last > scratch ? last : scratch;
    return arena_scalars(rows, cols, b, tile) * es + scratch;
}

/* gl_s_ge_streamed_device_bytes gl_d_ge_streamed_device_bytes gl_c_ge_streamed_device_bytes gl_z_ge_streamed_device_bytes */
size_t GL_FN(ge_streamed_device_bytes)(const gl_tuning *tuning,
                                       lapack_int rows, lapack_int cols,
                                       lapack_int b, lapack_int tile)
{
    size_t reduce =
        GL_FN(ge_streamed_stage1_bytes)(tuning, rows, cols, b, tile);
    clamp_sizes(cols, &b, &tile);
    /* then the band alone, with the chase's counters (at most 4 per
     * sweep) */
    size_t chase = (3 * (size_t)b + 1) * (size_t)cols * sizeof(gl_scalar) +
                   4 * (size_t)cols * sizeof(int);
    return reduce > chase ? reduce : chase;
}

/* Entries of src (host, ld ld; rows r0.., columns c0.. of X) that lie in
 * the upper band of half-width b into the host band. */
static void to_band(const ge_streamed *p, const gl_scalar *src,
                    lapack_int ld, lapack_int r0, lapack_int nr,
                    lapack_int c0, lapack_int nc)
{
    lapack_int b = p->b;
    for (lapack_int j = 0; j < nc; j++)
        for (lapack_int i = 0; i < nr; i++) {
            lapack_int r = r0 + i, c = c0 + j;
            if (c >= r && c - r <= b)
                p->band[(size_t)(2 * b + r - c) + (size_t)c * p->ldband] =
                    src[(size_t)i + (size_t)j * ld];
        }
}

/* dst (nr x nc at (r0, c0) of X, device, ld ldd) -= the pending updates'
 * V Y^H + X' W^H there. */
static void apply_pending(const ge_streamed *p, lapack_int r0, lapack_int nr,
                          lapack_int c0, lapack_int nc, gl_scalar *dst,
                          lapack_int ldd)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int rows = p->rows, cols = p->cols;
    if (p->left > 0)
        ops->gemm(ops, 'N', 'C', nr, nc, p->left, -1, p->vp + r0, rows,
                  p->yp + c0, cols, 1, dst, ldd);
    if (p->right > 0)
        ops->gemm(ops, 'N', 'C', nr, nc, p->right, -1, p->xp + r0, rows,
                  p->wp + c0, cols, 1, dst, ldd);
}

/* The column block X(k:rows, k:k+pk) up to date in p->v's rows k.., its
 * QR (T in p->t), R into the band. */
static int column_block(ge_streamed *p, lapack_int k, lapack_int pk)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int rows = p->rows;
    gl_scalar *col = p->v + k;
    gl_scalar *h = p->h + (size_t)k + (size_t)k * rows;   /* spent: reused */
    ops->from_host(ops, 'N', rows - k, pk, h, rows, col, rows);
    apply_pending(p, k, rows - k, k, pk, col, rows);
    /* R, and with the vectors the reflectors below it and T: the spent
     * column block of the copy keeps them, as ge2gb keeps them in A */
    if (ops->geqrt(ops, rows - k, pk, col, rows, p->t, p->b) ||
        ops->to_host_scratch(ops, p->tq ? rows - k : pk, pk, col, rows, h,
                             rows) ||
        (p->tq && ops->to_host_scratch(ops, pk, pk, p->t, p->b,
                                       p->tq + (size_t)k * p->b, p->b)))
        return GL_STAGE_FAULT;
    to_band(p, h, rows, k, pk, k, pk);
    return 0;
}

/* A pass's state for its tiles: the panel's first row (pass 1) or
 * column (pass 2) and W's columns (pass 2). */
typedef struct pass_state {
    const ge_streamed *p;
    lapack_int first, kk;
} pass_state;

static void tile_update(void *arg, const gl_tile *t, gl_scalar *dev,
                        lapack_int ld)
{
    const pass_state *ps = arg;
    apply_pending(ps->p, t->r0, t->nr, t->c0, t->nc, dev, ld);
}

/* Pass 1's share of Y = X^H V; Y's rows c0.. are first touched by the
 * first row of tiles */
static void tile_left(void *arg, const gl_tile *t, const gl_scalar *dev,
                      lapack_int ld)
{
    const pass_state *ps = arg;
    const ge_streamed *p = ps->p;
    p->ops->gemm(p->ops, 'C', 'N', t->nc, p->b, t->nr, 1, dev, ld,
                 p->v + t->r0, p->rows, t->r0 == ps->first ? 0 : 1,
                 p->y + t->c0, p->cols);
}

/* Pass 2's share of X W; X's rows r0.. are first touched by the first
 * column of tiles */
static void tile_right(void *arg, const gl_tile *t, const gl_scalar *dev,
                       lapack_int ld)
{
    const pass_state *ps = arg;
    const ge_streamed *p = ps->p;
    p->ops->gemm(p->ops, 'N', 'N', t->nr, ps->kk, t->nc, 1, dev, ld,
                 p->wp + t->c0, p->cols, t->c0 == ps->first ? 0 : 1,
                 p->xp + t->r0, p->rows);
}

/* A pass over the tiles of X(first:rows, first_col:cols) (tile_pass). */
static int pass_over(const ge_streamed *p, pass_state *ps,
                     lapack_int first_col, int pending,
                     void (*use)(void *, const gl_tile *, const gl_scalar *,
                                 lapack_int))
{
    GL_FN(tile_pass) pass = {
        .ops = p->ops, .h = p->h, .ldh = p->rows, .rows = p->rows,
        .cols = p->cols, .r_first = ps->first, .c_first = first_col,
        .tile = p->tile, .write_back = pending, .buffers = p->tb,
        .update = pending ? tile_update : NULL, .use = use, .arg = ps};
    return GL_FN(tile_pass_run)(&pass);
}

/* Pass 1 of panel k: the tiles of X(k:rows, k+b:cols) up to date on the
 * host (a tile without pending updates, of the first panel, is as the
 * host has it), and Y = X^H V of them (T not yet applied). */
static int pass_left(ge_streamed *p, lapack_int k)
{
    pass_state ps = {p, k, 0};
    return pass_over(p, &ps, k + p->b, p->left > 0 || p->right > 0,
                     tile_left);
}

/* Pass 2 of panel k: X W of the tiles of X(k+b:rows, k+b:cols) into the
 * spent pending X' block (kk columns of W), up only. */
static int pass_right(ge_streamed *p, lapack_int k, lapack_int kk)
{
    pass_state ps = {p, k + p->b, kk};
    return pass_over(p, &ps, k + p->b, 0, tile_right);
}

/* Panel k (k + b < cols): the four steps of the opening comment; this
 * panel's updates become the pending ones. */
static int panel(ge_streamed *p, lapack_int k)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int rows = p->rows, cols = p->cols, b = p->b, s = k + b;
    lapack_int q = cols - s, kk = q < b ? q : b, below = rows - s;
    if (column_block(p, k, b))
        return GL_STAGE_FAULT;
    ops->unpack_v(ops, 'C', rows - k, b, p->v + k, rows, p->v + k, rows);
    if (pass_left(p, k))
        return GL_STAGE_FAULT;
    /* the pending updates are spent: Y = (X^H V) T into their Y block (T
     * made dense for a plain product) */
    ops->zero_lower(ops, b, b, p->t, b);
    ops->gemm(ops, 'N', 'N', q, b, b, 1, p->y + s, cols, p->t, b, 0,
              p->yp + s, cols);
    gl_scalar *spent = p->y;
    p->y = p->yp, p->yp = spent;
    /* the row block with this panel's left update, in the spent V block
     * (ld b); its LQ (a short last one: of its first kk rows, the others
     * taking its Q^H), L into the band, W into the spent W block */
    gl_scalar *row = p->vp, *h = p->h + (size_t)k + (size_t)s * rows;
    ops->from_host(ops, 'N', b, q, h, rows, row, b);
    ops->gemm(ops, 'N', 'C', b, q, b, -1, p->v + k, rows, p->y + s, cols, 1,
              row, b);
    if (ops->gelqt(ops, kk, q, row, b, p->t, b) ||
        (kk < b && ops->larfb(ops, 'R', 'N', 'R', b - kk, q, kk, row, b, p->t,
                              b, row + kk, b)) ||
        ops->to_host_scratch(ops, b, p->tp ? q : kk, row, b, h, rows) ||
        (p->tp && ops->to_host_scratch(ops, kk, kk, p->t, b,
                                       p->tp + (size_t)k * b, b)))
        return GL_STAGE_FAULT;
    to_band(p, h, rows, k, b, s, kk);
    ops->unpack_v(ops, 'R', q, kk, row, b, p->wp + s, cols);
    /* X' = (X W - V (Y^H W)) T: X W in the spent X' block, then into the
     * V block, whose row block is spent */
    if (pass_right(p, k, kk))
        return GL_STAGE_FAULT;
    ops->gemm(ops, 'C', 'N', b, kk, q, 1, p->y + s, cols, p->wp + s, cols, 0,
              p->z, b);
    ops->gemm(ops, 'N', 'N', below, kk, b, -1, p->v + s, rows, p->z, b, 1,
              p->xp + s, rows);
    ops->zero_lower(ops, kk, kk, p->t, b);
    ops->gemm(ops, 'N', 'N', below, kk, kk, 1, p->xp + s, rows, p->t, b, 0,
              row + s, rows);
    /* the pending updates: V, Y, X' (in row's block), W; the spent blocks
     * take the next panel's V and Y */
    spent = p->xp;
    p->xp = row, p->vp = p->v, p->v = spent;
    spent = p->yp;
    p->yp = p->y, p->y = spent;
    p->left = b, p->right = kk;
    return 0;
}

/* X (scaled) into the host copy p->h: A, or A^H for m < n. */
static int copy_in(const ge_streamed *p, lapack_int m, lapack_int n,
                   const gl_scalar *a, lapack_int lda, gl_real cfrom,
                   gl_real cto)
{
    lapack_int rows = p->rows, cols = p->cols;
    if (m >= n)
        for (lapack_int j = 0; j < cols; j++)
            memcpy(p->h + (size_t)j * rows, a + (size_t)j * lda,
                   sizeof *p->h * (size_t)rows);
    else
        GL_FN(conj_transpose)(m, n, a, lda, p->h, rows);
    if (cto == 0)
        return 0;
    /* ?lascl, as svd.c scales its copy */
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int zero = 0, info = 0;
    if (!f)
        return GL_STAGE_FAULT;
    f->lascl("G", &zero, &zero, &cfrom, &cto, &rows, &cols, p->h, &rows,
             &info, 1);
    return 0;
}

/* The passes of the opening comment on p's host copy, into p's host
 * band (zeroed here), with their device arena allocated and released
 * here.  The profile's stage marks at its start and end in t[0], t[1]. */
static int reduce_to_band(ge_streamed *p, double t[2])
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int rows = p->rows, cols = p->cols, b = p->b;
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * arena_scalars(rows, cols,
                                                                b, p->tile));
    if (!dev)
        return GL_STAGE_FAULT;
    size_t rb = (size_t)rows * (size_t)b, cb = (size_t)cols * (size_t)b;
    p->vp = dev, p->xp = p->vp + rb, p->v = p->xp + rb;
    p->yp = p->v + rb, p->wp = p->yp + cb, p->y = p->wp + cb;
    p->t = p->y + cb, p->z = p->t + (size_t)b * b, p->tb = p->z + (size_t)b * b;
    memset(p->band, 0, sizeof *p->band * (size_t)p->ldband * (size_t)cols);
    t[0] = gl_profile_stage(ops->ctx, "stage1");
    /* the passes' tiles reach the copy by DMA (ops.h host_pin) */
    ops->host_pin(ops, p->h, sizeof *p->h * (size_t)rows * (size_t)cols);
    lapack_int k = 0;
    int rc = 0;
    for (; k + b < cols && rc == 0; k += b)
        rc = panel(p, k);
    /* the last block, at most b columns: up to date, R into the band */
    if (rc == 0)
        rc = column_block(p, k, cols - k);
    ops->host_unpin(ops, p->h);
    ops->release(ops, dev);
    t[1] = gl_profile_stage(ops->ctx, "stage2");
    return rc;
}

/* gl_s_ge_band_streamed gl_d_ge_band_streamed gl_c_ge_band_streamed gl_z_ge_band_streamed */
int GL_FN(ge_band_streamed)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                            const gl_scalar *a, lapack_int lda, gl_real cfrom,
                            gl_real cto, lapack_int b, lapack_int tile,
                            gl_scalar *x, gl_scalar *tq, gl_scalar *tp,
                            gl_scalar *band, double t[2])
{
    lapack_int rows = m >= n ? m : n, cols = m >= n ? n : m;
    clamp_sizes(cols, &b, &tile);
    ge_streamed p = {.ops = ops, .rows = rows, .cols = cols, .b = b,
                     .tile = tile, .ldband = 3 * b + 1, .h = x, .band = band,
                     .tq = tq, .tp = tp};
    /* T's of short panels: defined, though unread */
    memset(tq, 0, sizeof *tq * (size_t)b * (size_t)cols);
    memset(tp, 0, sizeof *tp * (size_t)b * (size_t)cols);
    return copy_in(&p, m, n, a, lda, cfrom, cto) || reduce_to_band(&p, t)
               ? GL_STAGE_FAULT
               : 0;
}

/* gl_s_ge_bidiag_streamed gl_d_ge_bidiag_streamed gl_c_ge_bidiag_streamed gl_z_ge_bidiag_streamed */
int GL_FN(ge_bidiag_streamed)(const GL_FN(ops) *ops, lapack_int m,
                              lapack_int n, const gl_scalar *a, lapack_int lda,
                              gl_real cfrom, gl_real cto, lapack_int b,
                              lapack_int tile, lapack_int tile_width,
                              gl_real *d, gl_real *e, gl_stage_times *times)
{
    lapack_int rows = m >= n ? m : n, cols = m >= n ? n : m;
    clamp_sizes(cols, &b, &tile);
    lapack_int ldband = 3 * b + 1;
    ge_streamed p = {.ops = ops, .rows = rows, .cols = cols, .b = b,
                     .tile = tile, .ldband = ldband};
    p.h = gl_host_alloc(sizeof *p.h * (size_t)rows * (size_t)cols);
    p.band = gl_host_alloc(sizeof *p.band * (size_t)ldband * (size_t)cols);
    gl_scalar *de = gl_host_alloc(sizeof *de * 2 * (size_t)cols);
    gl_scalar *band = NULL;
    double t[2];
    int rc = GL_STAGE_FAULT;
    if (!p.h || !p.band || !de || copy_in(&p, m, n, a, lda, cfrom, cto) ||
        reduce_to_band(&p, t))
        goto out;
    band = ops->alloc(ops, sizeof *band * (size_t)ldband * (size_t)cols);
    if (!band)
        goto out;
    ops->from_host(ops, 'N', ldband, cols, p.band, ldband, band, ldband);
    if (GL_FN(gb2bd)(ops, cols, b, tile_width, band, ldband) ||
        GL_FN(band_to_de)(ops, 'G', cols, b, band, ldband, de, d, e))
        goto out;
    if (times)
        *times = (gl_stage_times){
            .stage1 = t[1] - t[0],
            .stage2 = gl_profile_stage(ops->ctx, "stage3") - t[1]};
    rc = 0;
out:
    ops->release(ops, band);
    gl_host_free(p.h);
    gl_host_free(p.band);
    gl_host_free(de);
    return rc;
}
