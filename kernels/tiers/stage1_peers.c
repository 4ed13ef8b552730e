/* Stage 1 of the Hermitian eigenproblem over the devices of a set
 * (GPULAPACK_DEVICE=cuda:0,1, opencl:all; runtime/context.h peers).
 *
 * sy2sb's order (kernels/stages/sy2sb.c: panels of b columns, their two-sided
 * updates taken together by the trailing matrix once per block of
 * panels), with the trailing matrix's columns dealt out block-cyclically
 * in tiles of `width` columns (a multiple of b, so that no panel straddles
 * two tiles): tile t belongs to device t % D of the D devices, the call's
 * device 0.  Each device keeps the lower triangle of its tiles' columns
 * (the call's device in A itself, the others side by side in an array of
 * their own) and only ever reads and updates those.  Per panel:
 *   - its b columns, current on their owner, go to the call's device
 *     (through the host) and are factored there: V, T;
 *   - S = V T and V go to every other device; each device computes the
 *     part of X = A22 S that its columns make (the lower triangle's
 *     columns times S's rows, and their conjugate transposes), and the
 *     host sums the parts into the call's device;
 *   - there W = X - 1/2 V (S^H X) with the block's corrections, as on one
 *     device, and W goes to the others;
 * and each block's end updates every device's own columns by the block's
 * VA WA^H + WA VA^H.  Per panel and device, 3 (n - k) b scalars go down
 * and (n - k) b come back, plus the panel's columns from its owner: O(n b)
 * over the bus, against the O(n^2 b / D) flops each device does.  The
 * columns that are never a panel (the last b + 1 or fewer) come back to
 * the call's device at the end, so that its A then holds the band and the
 * reflectors as one device's would.
 *
 * The sums of X add the devices' parts in another order than one
 * device's product: the band agrees with one device's to rounding, not
 * to the bit. */
#include <string.h>

#include "../../runtime/memory.h"
#include "../../runtime/precision.h"
#include "../../runtime/profile.h"
#include "../arena.h"
#include "../stages/stages.h"
#include "peers.h"

/* The tiles and their owners. */
typedef struct layout {
    lapack_int n, b, width;   /* A's columns, the band, the tiles' width */
    lapack_int rows;          /* A's rows (sy2sb: n) */
    int parts;                /* devices sharing the columns */
    lapack_int ldw;           /* rows of the work arrays (n - b) */
    lapack_int cols;          /* columns of VA and WA (a block's panels) */
    int lower;                /* the tiles hold the lower triangle only */
    size_t work[4];           /* scalars of a peer's va, wa, s, x */
} layout;

/* One device's share: its operations, its columns of A and its copies
 * of the block's V and W, S and its part of X. */
typedef struct part {
    GL_FN(ops) ops;
    int index;                /* owns the tiles t with t % parts == index */
    gl_scalar *a;             /* its columns (device 0: A itself) */
    lapack_int lda;
    gl_scalar *va, *wa, *s, *x;
    void *arena;              /* the others': all of the above */
} part;

static lapack_int min_of(lapack_int x, lapack_int y) { return x < y ? x : y; }

static int owner(const layout *l, lapack_int j)
{
    return (int)((j / l->width) % l->parts);
}

/* A(i, j) on p's device (j in one of its tiles). */
static gl_scalar *at(const part *p, const layout *l, lapack_int i,
                     lapack_int j)
{
    lapack_int col = j;
    if (p->index > 0) {   /* its tiles side by side */
        lapack_int t = j / l->width;
        col = (t / l->parts) * l->width + j % l->width;
    }
    return p->a + (size_t)i + (size_t)col * (size_t)p->lda;
}

/* The first piece [*c0, *c1) of p's tiles at or right of column c; 0
 * when there is none. */
static int piece(const part *p, const layout *l, lapack_int c, lapack_int *c0,
                 lapack_int *c1)
{
    if (c >= l->n)
        return 0;
    lapack_int t = c / l->width;
    while (t * l->width < l->n && t % l->parts != p->index)
        t++;
    if (t * l->width >= l->n)
        return 0;
    *c0 = t * l->width > c ? t * l->width : c;
    *c1 = min_of((t + 1) * l->width, l->n);
    return 1;
}

/* Columns the tiles of device `index` take side by side. */
static lapack_int tile_columns(const layout *l, int index)
{
    lapack_int tiles = (l->n + l->width - 1) / l->width;
    lapack_int mine = tiles / l->parts + (tiles % l->parts > index ? 1 : 0);
    return mine * l->width;
}

/* A peer's arena: its tiles (ld rows), then its work arrays (sy2sb: VA
 * and WA, ldw x cols, S and X, ldw x b); the offsets in at[]. */
static size_t peer_arena(const layout *l, int index, size_t at[5])
{
    gl_arena arena = {0};
    size_t es = sizeof(gl_scalar);
    at[0] = gl_arena_take(&arena, 1, (size_t)l->rows * tile_columns(l, index),
                          es);
    for (int i = 0; i < 4; i++)
        at[i + 1] = gl_arena_take(&arena, l->work[i] > 0, l->work[i], es);
    return arena.bytes;
}

static layout layout_of(lapack_int n, lapack_int b, lapack_int block,
                        lapack_int width, int parts)
{
    lapack_int panels = block / b > 1 ? block / b : 1;
    width = width < b ? b : (width + b - 1) / b * b;
    size_t ldw = (size_t)(n - b), cols = (size_t)(panels * b);
    return (layout){.n = n, .b = b, .width = width, .rows = n,
                    .parts = parts, .ldw = n - b, .cols = panels * b,
                    .lower = 1,
                    .work = {ldw * cols, ldw * cols, ldw * b, ldw * b}};
}

/* gl_s_sy2sb_peer_bytes gl_d_sy2sb_peer_bytes gl_c_sy2sb_peer_bytes gl_z_sy2sb_peer_bytes */
size_t GL_FN(sy2sb_peer_bytes)(lapack_int n, lapack_int b, lapack_int block,
                               lapack_int width, int parts, int index)
{
    if (n - b < 2 || b < 2 || parts < 2 || index < 1)
        return 0;
    layout l = layout_of(n, b, block, width, parts);
    size_t at[5];
    return peer_arena(&l, index, at);
}

/* rows x cols of src (ld lds) on `from`'s device into dst (ld ldd) on
 * `to`'s, through the host's stage; 0 or -1. */
static int hop(const part *from, const part *to, lapack_int rows,
               lapack_int cols, const gl_scalar *src, lapack_int lds,
               gl_scalar *dst, lapack_int ldd, gl_scalar *stage)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    if (from->ops.to_host_scratch(&from->ops, rows, cols, src, lds, stage,
                                  rows))
        return -1;
    to->ops.from_host(&to->ops, 'N', rows, cols, stage, rows, dst, ldd);
    return 0;
}

/* The work arrays every device holds alike (ld ldw). */
typedef enum shared_array { ARRAY_VA, ARRAY_WA, ARRAY_S } shared_array;

static gl_scalar *array_of(const part *p, shared_array which)
{
    return which == ARRAY_VA ? p->va : which == ARRAY_WA ? p->wa : p->s;
}

/* rows x cols of the call's device's array at offset `off` to the same
 * place on every other device: read once, written to each. */
static int broadcast_ld(part *parts, const layout *l, shared_array which,
                        size_t off, lapack_int rows, lapack_int cols,
                        lapack_int ld, gl_scalar *stage)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    const GL_FN(ops) *ops = &parts[0].ops;
    if (ops->to_host_scratch(ops, rows, cols, array_of(&parts[0], which) + off,
                             ld, stage, rows))
        return -1;
    for (int p = 1; p < l->parts; p++)
        parts[p].ops.from_host(&parts[p].ops, 'N', rows, cols, stage, rows,
                               array_of(&parts[p], which) + off, ld);
    return 0;
}

static int broadcast(part *parts, const layout *l, shared_array which,
                     size_t off, lapack_int rows, lapack_int cols,
                     gl_scalar *stage)
{
    return broadcast_ld(parts, l, which, off, rows, cols, l->ldw, stage);
}

/* x (pn x kk, ld ldw) = p's columns' part of A22 S, A22 = A(r0:n, r0:n)
 * Hermitian in its lower triangle, S's rows those of A22: each of p's
 * pieces [c0, c1) adds its diagonal block's product and those of the
 * block below it, B = A(c1:n, c0:c1): B S(c0:c1) to the rows below and
 * B^H S(c1:n) to its own rows. */
static int partial_x(const part *p, const layout *l, lapack_int r0,
                     lapack_int kk, const gl_scalar *s, gl_scalar *x)
{
    const GL_FN(ops) *ops = &p->ops;
    lapack_int pn = l->n - r0, ld = l->ldw, c0, c1;
    int reals = 1 + GL_COMPLEX;   /* x as real numbers, to be zeroed */
    if (ops->real_fill(ops, reals * pn, kk, 0, (gl_real *)x, reals * ld))
        return -1;
    for (lapack_int c = r0; piece(p, l, c, &c0, &c1); c = c1) {
        lapack_int w = c1 - c0, below = l->n - c1;
        const gl_scalar *sc = s + (c0 - r0);
        gl_scalar *xc = x + (c0 - r0);
        ops->hemm(ops, 'L', 'L', w, kk, 1, at(p, l, c0, c0), p->lda, sc, ld, 1,
                  xc, ld);
        if (below > 0) {
            const gl_scalar *bl = at(p, l, c1, c0);
            ops->gemm(ops, 'N', 'N', below, kk, w, 1, bl, p->lda, sc, ld, 1,
                      x + (c1 - r0), ld);
            ops->gemm(ops, 'C', 'N', w, kk, below, 1, bl, p->lda,
                      s + (c1 - r0), ld, 1, xc, ld);
        }
    }
    return 0;
}

/* The block's updates on p's columns at or right of k: A(k:n, k:n) -=
 * VA WA^H + WA VA^H, acc columns of VA and WA whose row 0 is A's row
 * `first`. */
static void block_update(const part *p, const layout *l, lapack_int k,
                         lapack_int first, lapack_int acc)
{
    const GL_FN(ops) *ops = &p->ops;
    lapack_int ld = l->ldw, c0, c1;
    for (lapack_int c = k; piece(p, l, c, &c0, &c1); c = c1) {
        lapack_int w = c1 - c0, below = l->n - c1;
        const gl_scalar *vc = p->va + (c0 - first), *wc = p->wa + (c0 - first);
        ops->her2k(ops, 'L', 'N', w, acc, -1, vc, ld, wc, ld, 1,
                   at(p, l, c0, c0), p->lda);
        if (below > 0) {
            gl_scalar *bl = at(p, l, c1, c0);
            ops->gemm(ops, 'N', 'C', below, w, acc, -1, p->va + (c1 - first),
                      ld, wc, ld, 1, bl, p->lda);
            ops->gemm(ops, 'N', 'C', below, w, acc, -1, p->wa + (c1 - first),
                      ld, vc, ld, 1, bl, p->lda);
        }
    }
}

/* X = A22 S summed over the devices into x on the call's device (host
 * sum in device order); sum and stage: pn x kk of host memory. */
static int summed_x(part *parts, const layout *l, lapack_int r0,
                    lapack_int kk, gl_scalar *x, gl_scalar *sum,
                    gl_scalar *stage)
{
    lapack_int pn = l->n - r0;
    size_t count = (size_t)pn * (size_t)kk;
    for (int p = 0; p < l->parts; p++)
        if (partial_x(&parts[p], l, r0, kk, p ? parts[p].s : parts[0].s,
                      p ? parts[p].x : x))
            return -1;
    const GL_FN(ops) *ops = &parts[0].ops;
    if (ops->to_host_scratch(ops, pn, kk, x, l->ldw, sum, pn))
        return -1;
    for (int p = 1; p < l->parts; p++) {
        const GL_FN(ops) *po = &parts[p].ops;
        if (po->to_host_scratch(po, pn, kk, parts[p].x, l->ldw, stage, pn))
            return -1;
        for (size_t i = 0; i < count; i++)
            sum[i] += stage[i];
    }
    ops->from_host(ops, 'N', pn, kk, sum, pn, x, l->ldw);
    return 0;
}

/* Host memory of the split: the stage of every copy (a tile's columns,
 * at most n x width) and the sum of X. */
typedef struct host_bufs {
    gl_scalar *stage, *sum;
} host_bufs;

#define A(i, j) (a + (size_t)(i) + (size_t)(j) * lda)

/* The panel at column k, the acc columns of its block (from k0) before
 * it done: its columns from their owner, brought up to date (sy2sb.c),
 * factored, and its V and W into the block's VA and WA on every device.
 * t_scratch (b x b) and mm (max(acc, b) x b): the call's device's. */
static int split_panel(part *parts, const layout *l, lapack_int k0,
                       lapack_int k, lapack_int acc, gl_scalar *tau,
                       gl_scalar *tq, gl_scalar *t_scratch, gl_scalar *mm,
                       const host_bufs *h)
{
    part *me = &parts[0];
    const GL_FN(ops) *ops = &me->ops;
    gl_scalar *a = me->a;
    lapack_int n = l->n, b = l->b, ldw = l->ldw, lda = me->lda;
    lapack_int pn = n - k - b, kk = min_of(pn, b), row = k - k0;
    lapack_int ldm = acc > b ? acc : b;
    int from = owner(l, k);
    if (from != 0 && hop(&parts[from], me, n - k, b, at(&parts[from], l, k, k),
                         parts[from].lda, A(k, k), lda, h->stage))
        return -1;
    gl_scalar *va = me->va + row, *wa = me->wa + row;
    if (acc > 0) {   /* as sy2sb: the block's updates on the panel */
        const gl_scalar *vd = va - b, *wd = wa - b;
        ops->her2k(ops, 'L', 'N', b, acc, -1, vd, ldw, wd, ldw, 1, A(k, k),
                   lda);
        ops->gemm(ops, 'N', 'C', pn, b, acc, -1, va, ldw, wd, ldw, 1,
                  A(k + b, k), lda);
        ops->gemm(ops, 'N', 'C', pn, b, acc, -1, wa, ldw, vd, ldw, 1,
                  A(k + b, k), lda);
    }
    gl_scalar *t = tq ? tq + (size_t)k * b : t_scratch;
    int rc = ops->geqrt(ops, pn, kk, A(k + b, k), lda, t, b);
    if (rc == 0 && kk < b)
        rc = ops->larfb(ops, 'L', 'C', 'C', pn, b - kk, kk, A(k + b, k), lda,
                        t, b, A(k + b, k + kk), lda);
    if (rc == 0 && tau)
        rc = ops->to_host(ops, 1, kk, t, b + 1, tau + k, 1);
    if (rc != 0)
        return -1;
    /* V and S = V T, here and on the others */
    gl_scalar *v = va + (size_t)acc * ldw, *x = wa + (size_t)acc * ldw;
    ops->unpack_v(ops, 'C', pn, kk, A(k + b, k), lda, v, ldw);
    ops->unpack_v(ops, 'C', pn, kk, A(k + b, k), lda, me->s, ldw);
    ops->trmm(ops, 'R', 'U', 'N', 'N', pn, kk, 1, t, b, me->s, ldw);
    size_t at_v = (size_t)row + (size_t)acc * ldw;
    if (broadcast(parts, l, ARRAY_S, 0, pn, kk, h->stage) ||
        broadcast(parts, l, ARRAY_VA, at_v, pn, kk, h->stage) ||
        summed_x(parts, l, k + b, kk, x, h->sum, h->stage))
        return -1;
    /* X's corrections and W = X - 1/2 V (S^H X), as sy2sb's */
    GL_FN(sy2sb_panel_w)(ops, pn, kk, acc, va, wa, ldw, me->s, mm, ldm);
    return broadcast(parts, l, ARRAY_WA, at_v, pn, kk, h->stage);
}

/* Every panel, each block's updates on every device's columns; the
 * first column that is no panel's in *end. */
static int split_panels(part *parts, const layout *l, gl_scalar *tau,
                        gl_scalar *tq, gl_scalar *t_scratch, gl_scalar *mm,
                        const host_bufs *h, lapack_int *end)
{
    lapack_int n = l->n, b = l->b, panels = l->cols / b, k = 0;
    for (lapack_int k0 = 0; n - k0 - b >= 2; k0 += panels * b) {
        lapack_int acc = 0;
        k = k0;
        for (lapack_int j = 0; j < panels && n - k - b >= 2; j++, k += b) {
            if (split_panel(parts, l, k0, k, acc, tau, tq, t_scratch, mm, h))
                return -1;
            acc += min_of(n - k - b, b);
        }
        for (int p = 0; p < l->parts && k < n; p++)
            block_update(&parts[p], l, k, k0 + b, acc);
    }
    *end = k;
    return 0;
}

/* The other devices' shares: each bound to its device, its arena taken
 * and its tiles' columns (lower triangle) copied from A; 1 when one
 * cannot take its share (the caller then does all), -1 when a device
 * failed. */
static int shares_start(const GL_FN(ops) *ops, part *parts, const layout *l,
                        gl_scalar *stage)
{
    gl_ctx *ctx = ops->ctx;
    for (int p = 1; p < l->parts; p++) {
        part *sh = &parts[p];
        sh->index = p;
        if (GL_FN(ops_bind)(&sh->ops, ctx->peers[p - 1]))
            return 1;
        gl_profile_stage(sh->ops.ctx, "stage1");
        size_t off[5];
        sh->arena = sh->ops.alloc(&sh->ops, peer_arena(l, p, off));
        if (!sh->arena)
            return 1;
        gl_scalar **piece_of[] = {&sh->a, &sh->va, &sh->wa, &sh->s, &sh->x};
        for (int i = 0; i < 5; i++)
            *piece_of[i] = gl_arena_at(sh->arena, off[i]);
        sh->lda = l->rows;
    }
    for (int p = 1; p < l->parts; p++) {
        lapack_int c0, c1;
        for (lapack_int c = 0; piece(&parts[p], l, c, &c0, &c1); c = c1) {
            lapack_int r0 = l->lower ? c0 : 0;
            if (hop(&parts[0], &parts[p], l->rows - r0, c1 - c0,
                    at(&parts[0], l, r0, c0), parts[0].lda,
                    at(&parts[p], l, r0, c0), parts[p].lda, stage))
                return -1;
        }
    }
    return 0;
}

/* The columns from `end` on, which no panel brought back, from their
 * owners to the call's device. */
static int shares_gather(part *parts, const layout *l, lapack_int end,
                         gl_scalar *stage)
{
    for (int p = 1; p < l->parts; p++) {
        lapack_int c0, c1;
        for (lapack_int c = end; piece(&parts[p], l, c, &c0, &c1); c = c1)
            if (hop(&parts[p], &parts[0], l->n - c0, c1 - c0,
                    at(&parts[p], l, c0, c0), parts[p].lda,
                    at(&parts[0], l, c0, c0), parts[0].lda, stage))
                return -1;
    }
    return 0;
}

/* The end of a split: a device whose last work failed says so at its
 * next read, so one scalar from each (no failure passes unseen); the
 * others' arenas and the host buffers freed.  The split's answer: 0, 1
 * when a peer could not take its share (one device then does all), or
 * GL_STAGE_FAULT. */
static int shares_end(part *parts, const layout *l, int rc, host_bufs *h)
{
    for (int p = 1; p < l->parts && rc == 0; p++)
        if (parts[p].ops.to_host_scratch(&parts[p].ops, 1, 1, parts[p].x, 1,
                                         h->sum, 1))
            rc = -1;
    for (int p = 1; p < l->parts; p++)
        if (parts[p].arena)
            parts[p].ops.release(&parts[p].ops, parts[p].arena);
    gl_host_free(h->stage);
    gl_host_free(h->sum);
    return rc == 0 ? 0 : rc > 0 ? 1 : GL_STAGE_FAULT;
}

/* gl_s_sy2sb_split gl_d_sy2sb_split gl_c_sy2sb_split gl_z_sy2sb_split */
int GL_FN(sy2sb_split)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                       lapack_int block, lapack_int width, gl_scalar *a,
                       lapack_int lda, gl_scalar *tau, gl_scalar *tq)
{
    gl_ctx *ctx = ops->ctx;
    int peers = ctx && !ops->host_memory ? ctx->npeers : 0;
    if (peers == 0 || n - b < 2 || b < 2)
        return 1;
    layout l = layout_of(n, b, block, width, peers + 1);
    if ((n + l.width - 1) / l.width < 2)
        return 1;   /* one tile: nothing to share */
    part parts[GL_MAX_DEVICE_SET] = {{.ops = *ops, .a = a, .lda = lda}};
    /* the call's device: VA, WA, S, M (cols x b) and a T */
    size_t ldw = (size_t)l.ldw, cols = (size_t)l.cols, bb = (size_t)b;
    gl_scalar *work = ops->alloc(ops, sizeof *work * ((2 * cols + bb) * ldw +
                                                      (cols + bb) * bb));
    host_bufs h = {
        .stage = gl_host_alloc(sizeof(gl_scalar) * (size_t)n * l.width),
        .sum = gl_host_alloc(sizeof(gl_scalar) * ldw * bb)};
    int rc = work && h.stage && h.sum ? 0 : -1;
    if (rc == 0) {
        parts[0].va = work;
        parts[0].wa = work + cols * ldw;
        parts[0].s = parts[0].wa + cols * ldw;
        rc = shares_start(ops, parts, &l, h.stage);
    }
    lapack_int end = n;
    gl_scalar *mm = parts[0].s + bb * ldw, *t_scratch = mm + cols * bb;
    if (rc == 0)
        rc = split_panels(parts, &l, tau, tq, t_scratch, mm, &h, &end);
    if (rc == 0)
        rc = shares_gather(parts, &l, end, h.stage);
    ops->release(ops, work);
    return shares_end(parts, &l, rc, &h);
}

/* ---- ge2gb over the set --------------------------------------------------
 *
 * The SVD's stage 1 in ge2gb.c's double-blocked order, A's columns in the
 * same tiles (whole columns: the updates are one-sided).  Each device
 * keeps full copies of the block's L and R (va: L, m x cols, wa: R,
 * n x cols, rows from the block's first) and its part of a product in x
 * (max(m, n) x b).  Per step, on the call's device: the block column from
 * its owner, brought up to date and factored (V); Y = A^H V T, whose rows
 * are A's columns: each device's rows from its columns, the rest zero,
 * summed through the host, then Y's corrections; the block row from its
 * owners, brought up to date and factored (W); X = A W T, each device's
 * columns' part summed, then X's corrections.  V, Y, W and X go to every
 * device, and the block's end updates each device's columns by L R^H.
 * Every column is a panel's in turn and every block row is factored on
 * the call's device, so its A ends as one device's would. */

/* A step of the block from k0: its column k, the columns of L and R so
 * far, the width of the factor whose product is summed. */
typedef struct ge_step {
    lapack_int k0, k, used, width;
} ge_step;

static gl_scalar *l_at(const part *p, const layout *l, const ge_step *st,
                       lapack_int i, lapack_int c)
{
    return p->va + (size_t)(i - st->k0) + (size_t)c * (size_t)l->rows;
}

static gl_scalar *r_at(const part *p, const layout *l, const ge_step *st,
                       lapack_int j, lapack_int c)
{
    return p->wa + (size_t)(j - st->k0) + (size_t)c * (size_t)l->n;
}

/* p's rows of A^H V (rows: the columns right of the panel, from k + pk)
 * into x. */
static void y_part(const part *p, const layout *l, const ge_step *st,
                   gl_scalar *x, lapack_int ldx)
{
    lapack_int k = st->k, from = k + st->width, c0, c1;
    for (lapack_int c = from; piece(p, l, c, &c0, &c1); c = c1)
        p->ops.gemm(&p->ops, 'C', 'N', c1 - c0, st->width, l->rows - k, 1,
                    at(p, l, k, c0), p->lda, l_at(p, l, st, k, st->used),
                    l->rows, 0, x + (c0 - from), ldx);
}

/* p's columns' part of A W (rows below the block row, from k + b). */
static void x_part(const part *p, const layout *l, const ge_step *st,
                   gl_scalar *x, lapack_int ldx)
{
    lapack_int r0 = st->k + l->b, c0, c1;
    for (lapack_int c = r0; piece(p, l, c, &c0, &c1); c = c1)
        p->ops.gemm(&p->ops, 'N', 'N', l->rows - r0, st->width, c1 - c0, 1,
                    at(p, l, r0, c0), p->lda, r_at(p, l, st, c0, st->used),
                    l->n, 1, x, ldx);
}

typedef void part_product(const part *p, const layout *l, const ge_step *st,
                          gl_scalar *x, lapack_int ldx);

/* out (rows x st->width, ld ldo, the call's device) = the sum over the
 * devices of their parts (each zeroed first), added on the host in
 * device order. */
static int summed(part *parts, const layout *l, part_product *product,
                  const ge_step *st, lapack_int rows, gl_scalar *out,
                  lapack_int ldo, const host_bufs *h)
{
    lapack_int kk = st->width, ldx = l->rows > l->n ? l->rows : l->n;
    int reals = 1 + GL_COMPLEX;
    for (int p = 0; p < l->parts; p++) {
        const GL_FN(ops) *ops = &parts[p].ops;
        gl_scalar *x = p ? parts[p].x : out;
        lapack_int ld = p ? ldx : ldo;
        if (ops->real_fill(ops, reals * rows, kk, 0, (gl_real *)x, reals * ld))
            return -1;
        product(&parts[p], l, st, x, ld);
    }
    const GL_FN(ops) *ops = &parts[0].ops;
    size_t count = (size_t)rows * (size_t)kk;
    if (ops->to_host_scratch(ops, rows, kk, out, ldo, h->sum, rows))
        return -1;
    for (int p = 1; p < l->parts; p++) {
        const GL_FN(ops) *po = &parts[p].ops;
        if (po->to_host_scratch(po, rows, kk, parts[p].x, ldx, h->stage, rows))
            return -1;
        for (size_t i = 0; i < count; i++)
            h->sum[i] += h->stage[i];
    }
    ops->from_host(ops, 'N', rows, kk, h->sum, rows, out, ldo);
    return 0;
}

/* out (rows x k, the call's device) = (out - O (I^H P)) T, the
 * corrections of a product of the stale matrix (ge2gb.c stale_product);
 * z (used x k) scratch. */
static void corrected(const GL_FN(ops) *ops, lapack_int rows, lapack_int len,
                      lapack_int k, const gl_scalar *p, lapack_int ldp,
                      const gl_scalar *in, lapack_int ldi, const gl_scalar *o,
                      lapack_int ldo, lapack_int used, const gl_scalar *t,
                      lapack_int b, gl_scalar *z, gl_scalar *out,
                      lapack_int ldout)
{
    if (used > 0) {
        ops->gemm(ops, 'C', 'N', used, k, len, 1, in, ldi, p, ldp, 0, z, used);
        ops->gemm(ops, 'N', 'N', rows, k, used, -1, o, ldo, z, used, 1, out,
                  ldout);
    }
    ops->trmm(ops, 'R', 'U', 'N', 'N', rows, k, 1, t, b, out, ldout);
}

/* The T factors kept (tq, tp) or the call's device's scratch. */
typedef struct ge_factors {
    gl_scalar *tq, *tp, *t_scratch, *z;
} ge_factors;

/* Step st's block column: from its owner, up to date, its QR; unless it
 * is the last (*last set), V and Y into L and R everywhere. */
static int ge_column(part *parts, const layout *l, ge_step *st,
                     const ge_factors *f, const host_bufs *h, int *last)
{
    part *me = &parts[0];
    const GL_FN(ops) *ops = &me->ops;
    gl_scalar *a = me->a;
    lapack_int m = l->rows, n = l->n, b = l->b, lda = me->lda, k = st->k;
    lapack_int pk = min_of(n - k, b), used = st->used;
    int from = owner(l, k);
    if (from != 0 && hop(&parts[from], me, m - k, pk, at(&parts[from], l, k, k),
                         parts[from].lda, A(k, k), lda, h->stage))
        return -1;
    if (used > 0)
        ops->gemm(ops, 'N', 'C', m - k, pk, used, -1, l_at(me, l, st, k, 0), m,
                  r_at(me, l, st, k, 0), n, 1, A(k, k), lda);
    gl_scalar *t = f->tq ? f->tq + (size_t)k * b : f->t_scratch;
    if (ops->geqrt(ops, m - k, pk, A(k, k), lda, t, b))
        return -1;
    if (k + pk >= n) {
        *last = 1;
        return 0;
    }
    gl_scalar *v = l_at(me, l, st, k, used), *y = r_at(me, l, st, k + pk, used);
    ops->unpack_v(ops, 'C', m - k, pk, A(k, k), lda, v, m);
    st->width = pk;
    if (broadcast_ld(parts, l, ARRAY_VA, (size_t)(v - me->va), m - k, pk, m,
                     h->stage) ||
        summed(parts, l, y_part, st, n - k - pk, y, n, h))
        return -1;
    corrected(ops, n - k - pk, m - k, pk, v, m, l_at(me, l, st, k, 0), m,
              r_at(me, l, st, k + pk, 0), n, used, t, b, f->z, y, n);
    st->used += pk;
    return broadcast_ld(parts, l, ARRAY_WA, (size_t)(y - me->wa), n - k - pk,
                        pk, n, h->stage);
}

/* Step st's block row right of the band: from its owners, up to date,
 * its LQ; W and X into R and L everywhere. */
static int ge_row(part *parts, const layout *l, ge_step *st,
                  const ge_factors *f, const host_bufs *h)
{
    part *me = &parts[0];
    const GL_FN(ops) *ops = &me->ops;
    gl_scalar *a = me->a;
    lapack_int m = l->rows, n = l->n, b = l->b, lda = me->lda, k = st->k;
    lapack_int q = n - k - b, kk = min_of(b, q), used = st->used, c0, c1;
    for (int p = 1; p < l->parts; p++)
        for (lapack_int c = k + b; piece(&parts[p], l, c, &c0, &c1); c = c1)
            if (hop(&parts[p], me, b, c1 - c0, at(&parts[p], l, k, c0),
                    parts[p].lda, A(k, c0), lda, h->stage))
                return -1;
    ops->gemm(ops, 'N', 'C', b, q, used, -1, l_at(me, l, st, k, 0), m,
              r_at(me, l, st, k + b, 0), n, 1, A(k, k + b), lda);
    gl_scalar *t = f->tp ? f->tp + (size_t)k * b : f->t_scratch;
    int rc = ops->gelqt(ops, kk, q, A(k, k + b), lda, t, b);
    if (rc == 0 && kk < b)
        rc = ops->larfb(ops, 'R', 'N', 'R', b - kk, q, kk, A(k, k + b), lda, t,
                        b, A(k + kk, k + b), lda);
    if (rc != 0)
        return -1;
    gl_scalar *w = r_at(me, l, st, k + b, used), *x = l_at(me, l, st, k + b, used);
    ops->unpack_v(ops, 'R', q, kk, A(k, k + b), lda, w, n);
    st->width = kk;
    if (broadcast_ld(parts, l, ARRAY_WA, (size_t)(w - me->wa), q, kk, n,
                     h->stage) ||
        summed(parts, l, x_part, st, m - k - b, x, m, h))
        return -1;
    corrected(ops, m - k - b, q, kk, w, n, r_at(me, l, st, k + b, 0), n,
              l_at(me, l, st, k + b, 0), m, used, t, b, f->z, x, m);
    st->used += kk;
    return broadcast_ld(parts, l, ARRAY_VA, (size_t)(x - me->va), m - k - b,
                        kk, m, h->stage);
}

/* Every step; each block's end updates every device's columns from the
 * next block's first by L R^H. */
static int ge_steps(part *parts, const layout *l, const ge_factors *f,
                    const host_bufs *h)
{
    lapack_int n = l->n, b = l->b, steps = l->cols / (2 * b);
    for (lapack_int k0 = 0; k0 < n; k0 += steps * b) {
        ge_step st = {.k0 = k0, .k = k0};
        int last = 0;
        for (lapack_int s = 0; s < steps && st.k < n && !last; s++) {
            if (ge_column(parts, l, &st, f, h, &last))
                return -1;
            if (last)
                return 0;
            if (ge_row(parts, l, &st, f, h))
                return -1;
            st.k += b;
        }
        lapack_int k = st.k, c0, c1;
        for (int p = 0; p < l->parts && k < n && st.used > 0; p++) {
            const part *pp = &parts[p];
            for (lapack_int c = k; piece(pp, l, c, &c0, &c1); c = c1)
                pp->ops.gemm(&pp->ops, 'N', 'C', l->rows - k, c1 - c0, st.used,
                             -1, l_at(pp, l, &st, k, 0), l->rows,
                             r_at(pp, l, &st, c0, 0), n, 1, at(pp, l, k, c0),
                             pp->lda);
        }
    }
    return 0;
}

static layout ge_layout(lapack_int m, lapack_int n, lapack_int b,
                        lapack_int block, lapack_int width, int parts)
{
    layout l = layout_of(n, b, block, width, parts);
    lapack_int steps = block / b > 1 ? block / b : 1;
    if (steps > (n + b - 1) / b)
        steps = (n + b - 1) / b;
    size_t cols = 2 * (size_t)steps * (size_t)b;
    l.rows = m;
    l.cols = (lapack_int)cols;
    l.lower = 0;
    l.work[0] = (size_t)m * cols;   /* L */
    l.work[1] = (size_t)n * cols;   /* R */
    l.work[2] = 0;
    l.work[3] = (size_t)(m > n ? m : n) * (size_t)b;   /* its part */
    return l;
}

/* gl_s_ge2gb_peer_bytes gl_d_ge2gb_peer_bytes gl_c_ge2gb_peer_bytes gl_z_ge2gb_peer_bytes */
size_t GL_FN(ge2gb_peer_bytes)(lapack_int m, lapack_int n, lapack_int b,
                               lapack_int block, lapack_int width, int parts,
                               int index)
{
    if (m < n || n <= b || b < 2 || parts < 2 || index < 1)
        return 0;
    layout l = ge_layout(m, n, b, block, width, parts);
    size_t at[5];
    return peer_arena(&l, index, at);
}

/* gl_s_ge2gb_split gl_d_ge2gb_split gl_c_ge2gb_split gl_z_ge2gb_split */
int GL_FN(ge2gb_split)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                       lapack_int b, lapack_int block, lapack_int width,
                       gl_scalar *a, lapack_int lda, gl_scalar *tq,
                       gl_scalar *tp)
{
    gl_ctx *ctx = ops->ctx;
    int peers = ctx && !ops->host_memory ? ctx->npeers : 0;
    if (peers == 0 || m < n || n <= b || b < 2)
        return 1;
    layout l = ge_layout(m, n, b, block, width, peers + 1);
    if ((n + l.width - 1) / l.width < 2)
        return 1;   /* one tile: nothing to share */
    part parts[GL_MAX_DEVICE_SET] = {{.ops = *ops, .a = a, .lda = lda}};
    /* the call's device: L, R, Z (cols x b) and a T */
    size_t cols = (size_t)l.cols, bb = (size_t)b;
    gl_scalar *work = ops->alloc(
        ops, sizeof *work * (l.work[0] + l.work[1] + (cols + bb) * bb));
    host_bufs h = {
        .stage = gl_host_alloc(sizeof(gl_scalar) * (size_t)m * l.width),
        .sum = gl_host_alloc(sizeof(gl_scalar) * l.work[3])};
    int rc = work && h.stage && h.sum ? 0 : -1;
    ge_factors f = {.tq = tq, .tp = tp};
    if (rc == 0) {
        parts[0].va = work;
        parts[0].wa = work + l.work[0];
        f.z = parts[0].wa + l.work[1];
        f.t_scratch = f.z + cols * bb;
        rc = shares_start(ops, parts, &l, h.stage);
    }
    if (rc == 0)
        rc = ge_steps(parts, &l, &f, &h);
    ops->release(ops, work);
    return shares_end(parts, &l, rc, &h);
}
