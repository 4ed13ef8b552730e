/* Stage 1 of the Hermitian eigenvalues for a matrix larger than the
 * device's memory: the working copy of A stays in host memory and streams
 * through the device in tiles ("streamed" plan, docs/design/memory.md).
 *
 * Each pass reduces one panel of b columns, as LAPACK's ?sytrd_sy2sb
 * does, with the trailing matrix crossing the bus once each way: the
 * previous panel's two-sided update (A22 -= V W^H + W V^H, still pending)
 * is applied to each tile as it arrives, the tile goes back to the host,
 * and before that it adds its share to the next panel's product
 * X = A22 S (S = V T), both of its Hermitian halves from the one lower
 * tile.  So a pass reads and writes each tile of the trailing lower
 * triangle once: about n^3 / (6b) elements each way in all (the out-of-
 * core communication bound of the single-blocked reduction; seed paper
 * 004 streams its tile rows the same way).  On the device: V, W of the
 * pending update, V, S, X of the panel, the panel's column block (each n
 * x b), T and one tile.  The band is assembled on the host from each
 * panel's diagonal block and R, then uploaded for the chase.
 *
 * With the vectors, each panel's reflectors go back below its band rows
 * (the spent part of the host copy, as ?sytrd_sy2sb keeps them in A) and
 * its T beside them; the chase keeps its reflectors on the device (about
 * n^2 / 2 elements: the least this plan needs); Q is then applied to
 * blocks of `tile` columns of the tridiagonal's vectors, each block up
 * once, the stage-1 panels streamed past it from host memory group by
 * group (MAGMA's applyQ for several devices streams its reflector sets
 * the same way).
 *
 * The lean plan (vectors only) keeps the rest and drops the streaming of
 * stage 1: A fits the device but the in-core plan's 4.5 n^2 does not, so
 * stage 1 runs in core, its panels go to host memory (n^2 down, once),
 * and the chase and the back-transformation run as the streamed plan's. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/memory.h"
#include "../runtime/precision.h"
#include "../runtime/profile.h"
#include "../runtime/timing.h"
#include "stages.h"

/* The device arena of the streamed reduction: six n x b blocks, T, M and
 * one tile. */
typedef struct streamed {
    const GL_FN(ops) *ops;
    lapack_int n, b, tile;
    gl_scalar *h;               /* host: A's lower triangle, ld n */
    gl_scalar *band;            /* host: the lower band, ld 2b + 1 */
    gl_scalar *vp, *wp;         /* the pending update (absolute rows, ld n) */
    gl_scalar *v, *x, *s, *col; /* the panel's V, X (then W), S = V T, A(:, k:k+b) */
    gl_scalar *t, *m, *tb;      /* T (ld b), M = S^H X (ld b), a tile (ld tile) */
    gl_scalar *keep_t;          /* host: each panel's T at its column (ld b),
                                   for the vectors; NULL: values only */
    lapack_int pending;         /* columns of the pending update; 0: none */
} streamed;

/* The plan's band and tile for n: b at most n - 1, tiles at least b + 1
 * on a side. */
static void streamed_shape(lapack_int n, lapack_int *b, lapack_int *tile)
{
    if (*b > n - 1)
        *b = n - 1 > 1 ? n - 1 : 1;
    if (*tile < *b + 1)
        *tile = *b + 1;
}

static size_t arena_scalars(lapack_int n, lapack_int b, lapack_int tile)
{
    return 6 * (size_t)n * (size_t)b + 2 * (size_t)b * (size_t)b +
           (size_t)tile * (size_t)tile;
}

/* gl_s_streamed_device_bytes gl_d_streamed_device_bytes gl_c_streamed_device_bytes gl_z_streamed_device_bytes */
size_t GL_FN(streamed_device_bytes)(lapack_int n, lapack_int b,
                                    lapack_int tile, lapack_int group,
                                    lapack_int m, int products)
{
    const size_t es = sizeof(gl_scalar);
    streamed_shape(n, &b, &tile);
    /* the arena with its operations' scratch (T S: a panel's rows, b
     * wide), then the band and the chase */
    size_t reduce = (arena_scalars(n, b, tile) + (size_t)n * b) * es;
    size_t chase = (2 * (size_t)b + 1) * (size_t)n * es;
    size_t most = reduce > chase ? reduce : chase;
    if (group == 0)
        return most;
    /* the vectors (m columns of Z): the chase's store, kept; then a block
     * of columns and what the two applications allocate */
    lapack_int ngroups, cols = tile < m ? tile : m;
    size_t store = GL_FN(reflectors_slots)(n, b, group, &ngroups) *
                   ((size_t)b + 1) * es;
    size_t chase_q = GL_FN(apply_chase_device_bytes)(n, b, group, cols);
    size_t panels_q = GL_FN(apply_host_panels_device_bytes)(
        n - b, gl_sy2sb_reflectors(n, b), b, 0, cols);
    size_t back = store + (size_t)n * (size_t)cols * es +
                  (chase_q > panels_q ? chase_q : panels_q);
    if (chase + store > most)
        most = chase + store;
    /* stage 3 on the host, its merges' products on the device in blocks */
    size_t stage3 = products ? store + GL_FN(tiled_product_device_bytes)(
                                           n, gl_tune_ooc_tile(n, 0))
                             : 0;
    most = stage3 > most ? stage3 : most;
    return back > most ? back : most;
}

/* The panel's finished entries into the host band: rows r0 .. r1-1 of the
 * b columns c0 .. of src (host, ld ld), the diagonal made real. */
static void to_band(const streamed *p, const gl_scalar *src, lapack_int ld,
                    lapack_int r0, lapack_int r1, lapack_int c0,
                    lapack_int cols)
{
    lapack_int ldband = 2 * p->b + 1;
    for (lapack_int j = 0; j < cols; j++)
        for (lapack_int r = r0; r < r1; r++) {
            lapack_int c = c0 + j;
            if (r < c || r - c > p->b)
                continue;
            gl_scalar x = src[(size_t)(r - r0) + (size_t)j * ld];
            p->band[(size_t)(r - c) + (size_t)c * ldband] =
                r == c ? GL_REAL(x) : x;
        }
}

/* dst (rows x cols at (r0, c0), device, ld ldd) -= V W^H + W V^H of the
 * pending update, its rows r0.. and c0.. */
static void apply_pending(const streamed *p, lapack_int r0, lapack_int rows,
                          lapack_int c0, lapack_int cols, gl_scalar *dst,
                          lapack_int ldd)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int n = p->n, k = p->pending;
    if (k == 0 || rows <= 0 || cols <= 0)
        return;
    ops->gemm(ops, 'N', 'C', rows, cols, k, -1, p->vp + r0, n, p->wp + c0, n,
              1, dst, ldd);
    ops->gemm(ops, 'N', 'C', rows, cols, k, -1, p->wp + r0, n, p->vp + c0, n,
              1, dst, ldd);
}

/* One pass over the trailing lower triangle from row and column s: each
 * tile brought up to date with the pending update, written back, and
 * added to X = A22 S (kk columns). */
static int stream_trailing(const streamed *p, lapack_int s, lapack_int kk)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int n = p->n, tile = p->tile;
    for (lapack_int c0 = s; c0 < n; c0 += tile) {
        lapack_int cols = n - c0 < tile ? n - c0 : tile;
        for (lapack_int r0 = c0; r0 < n; r0 += tile) {
            lapack_int rows = n - r0 < tile ? n - r0 : tile;
            gl_scalar *h = p->h + (size_t)r0 + (size_t)c0 * n;
            ops->from_host(ops, 'N', rows, cols, h, n, p->tb, tile);
            apply_pending(p, r0, rows, c0, cols, p->tb, tile);
            if (ops->to_host_scratch(ops, rows, cols, p->tb, tile, h, n))
                return GL_STAGE_FAULT;
            /* X's rows r0.. are first touched by the tiles of the first
             * column of tiles */
            gl_scalar beta = c0 == s ? 0 : 1;
            if (r0 == c0) {
                ops->hemm(ops, 'L', 'L', rows, kk, 1, p->tb, tile, p->s + r0,
                          n, beta, p->x + r0, n);
                continue;
            }
            ops->gemm(ops, 'N', 'N', rows, kk, cols, 1, p->tb, tile,
                      p->s + c0, n, beta, p->x + r0, n);
            ops->gemm(ops, 'C', 'N', cols, kk, rows, 1, p->tb, tile,
                      p->s + r0, n, 1, p->x + c0, n);
        }
    }
    return 0;
}

/* Panel k: its column block up to date, its QR, its band entries, V, S,
 * the pass over the trailing matrix, then W; the update becomes the
 * pending one. */
static int panel(streamed *p, lapack_int k)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int n = p->n, b = p->b, rows = n - k, pn = n - k - b;
    lapack_int kk = pn < b ? pn : b;
    gl_scalar *col = p->col + k, *below = p->col + k + b;
    ops->from_host(ops, 'N', rows, b, p->h + (size_t)k + (size_t)k * n, n,
                   col, n);
    apply_pending(p, k, rows, k, b, col, n);
    /* QR of the panel below the band; a short last panel: QR of its first
     * kk columns, Q^H on the others */
    if (ops->geqrt(ops, pn, kk, below, n, p->t, b) ||
        (kk < b && ops->larfb(ops, 'L', 'C', 'C', pn, b - kk, kk, below, n,
                              p->t, b, below + (size_t)kk * n, n)))
        return GL_STAGE_FAULT;
    /* the diagonal block and R: final; with the vectors, the reflectors
     * below them and T too */
    lapack_int r1 = k + 2 * b < n ? k + 2 * b : n;
    gl_scalar *hb = p->h + (size_t)k + (size_t)k * n;   /* spent: reused */
    if (ops->to_host_scratch(ops, p->keep_t ? rows : r1 - k, b, col, n, hb,
                             n) ||
        (p->keep_t && ops->to_host_scratch(ops, kk, kk, p->t, b,
                                           p->keep_t + (size_t)k * b, b)))
        return GL_STAGE_FAULT;
    to_band(p, hb, n, k, r1, k, b);
    /* V and S = V T of rows k+b.., the trailing pass, W = X - 1/2 V S^H X */
    ops->unpack_v(ops, 'C', pn, kk, below, n, p->v + k + b, n);
    ops->unpack_v(ops, 'C', pn, kk, below, n, p->s + k + b, n);
    ops->trmm(ops, 'R', 'U', 'N', 'N', pn, kk, 1, p->t, b, p->s + k + b, n);
    if (stream_trailing(p, k + b, kk))
        return GL_STAGE_FAULT;
    ops->gemm(ops, 'C', 'N', kk, kk, pn, 1, p->s + k + b, n, p->x + k + b, n,
              0, p->m, b);
    ops->gemm(ops, 'N', 'N', pn, kk, kk, -0.5, p->v + k + b, n, p->m, b, 1,
              p->x + k + b, n);
    gl_scalar *swap = p->vp;
    p->vp = p->v, p->v = swap;
    swap = p->wp, p->wp = p->x, p->x = swap;
    p->pending = kk;
    return 0;
}

/* The host's working copy: A's lower triangle (of A^H for 'U') times
 * sigma. */
static void copy_lower(gl_scalar *h, lapack_int n, char uplo,
                       const gl_scalar *a, lapack_int lda, gl_real sigma)
{
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = j; i < n; i++) {
            gl_scalar x = uplo == 'L' ? a[(size_t)i + (size_t)j * lda]
                                      : GL_CONJ(a[(size_t)j + (size_t)i * lda]);
            h[(size_t)i + (size_t)j * n] = x * sigma;
        }
}

/* The reduction of h to the host band (p's arena on the device). */
static int reduce(streamed *p)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int n = p->n, b = p->b, k = 0;
    for (; n - k - b >= 2; k += b)
        if (panel(p, k))
            return GL_STAGE_FAULT;
    /* the rest, at most b + 1 rows: within the band once up to date */
    lapack_int rows = n - k;
    gl_scalar *h = p->h + (size_t)k + (size_t)k * n;
    ops->from_host(ops, 'N', rows, rows, h, n, p->tb, p->tile);
    apply_pending(p, k, rows, k, rows, p->tb, p->tile);
    if (ops->to_host_scratch(ops, rows, rows, p->tb, p->tile, h, n))
        return GL_STAGE_FAULT;
    to_band(p, h, n, k, n, k, rows);
    return 0;
}

/* The chase of the device's band (half-width b, ld 2b + 1), with its
 * reflectors kept in keep->chase for the vectors; d and e, and keep's
 * phases. */
static int chase(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 gl_scalar *band, GL_FN(tridiag_q) *keep, gl_real *d,
                 gl_real *e)
{
    lapack_int ldband = 2 * b + 1;
    gl_scalar *de = gl_host_alloc(sizeof *de * 2 * (size_t)n);
    int rc = GL_STAGE_FAULT;
    if (!de || (keep && GL_FN(tridiag_q_keep_chase)(ops, keep)) ||
        (b > 1 && ops->sb_chase(ops, n, b, n, band, ldband,
                                keep ? &keep->chase : NULL)) ||
        GL_FN(band_to_de)(ops, 'H', n, b, band, ldband, de, d, e))
        goto out;
    if (keep)
        GL_FN(tridiagonal_phases)(n, de + n, keep->phase);
    rc = 0;
out:
    gl_host_free(de);
    return rc;
}

/* The host band up, then chased. */
static int chase_host_band(const streamed *p, GL_FN(tridiag_q) *keep,
                           gl_real *d, gl_real *e)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int n = p->n, ldband = 2 * p->b + 1;
    gl_scalar *band = ops->alloc(ops, sizeof *band * (size_t)ldband * (size_t)n);
    int rc = GL_STAGE_FAULT;
    if (band) {
        ops->from_host(ops, 'N', ldband, n, p->band, ldband, band, ldband);
        rc = chase(ops, n, p->b, band, keep, d, e);
    }
    ops->release(ops, band);
    return rc;
}

/* gl_s_he_tridiag_streamed gl_d_he_tridiag_streamed gl_c_he_tridiag_streamed gl_z_he_tridiag_streamed */
int GL_FN(he_tridiag_streamed)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                               const gl_scalar *a, lapack_int lda,
                               gl_real sigma, lapack_int b, lapack_int tile,
                               gl_real *d, gl_real *e, GL_FN(tridiag_q) *keep,
                               gl_stage_times *times)
{
    streamed_shape(n, &b, &tile);
    lapack_int ldband = 2 * b + 1;
    streamed p = {.ops = ops, .n = n, .b = b, .tile = tile};
    p.h = gl_host_alloc(sizeof *p.h * (size_t)n * (size_t)n);
    p.band = gl_host_alloc(sizeof *p.band * (size_t)ldband * (size_t)n);
    p.keep_t = keep ? gl_host_alloc(sizeof *p.keep_t * (size_t)b * (size_t)n)
                    : NULL;
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * arena_scalars(n, b, tile));
    int rc = GL_STAGE_FAULT;
    if (keep)   /* Q's host memory is p's, handed over below */
        *keep = (GL_FN(tridiag_q)){.n = n, .b = b, .lda = n,
                                   .streamed_cols = tile < n ? tile : n};
    if (!p.h || !p.band || (keep && !p.keep_t) || !dev)
        goto out;
    size_t nb = (size_t)n * (size_t)b;
    p.vp = dev, p.wp = p.vp + nb, p.v = p.wp + nb, p.x = p.v + nb;
    p.s = p.x + nb, p.col = p.s + nb, p.t = p.col + nb;
    p.m = p.t + (size_t)b * b, p.tb = p.m + (size_t)b * b;
    memset(p.band, 0, sizeof *p.band * (size_t)ldband * (size_t)n);
    if (p.keep_t)   /* T's of short panels: defined, though unread */
        memset(p.keep_t, 0, sizeof *p.keep_t * nb);
    copy_lower(p.h, n, uplo, a, lda, sigma);

    double t0 = gl_profile_stage(ops->ctx, "stage1");
    if (reduce(&p))
        goto out;
    ops->release(ops, dev);
    dev = NULL;
    double t1 = gl_profile_stage(ops->ctx, "stage2");
    if (chase_host_band(&p, keep, d, e))
        goto out;
    if (times)
        *times = (gl_stage_times){
            .stage1 = t1 - t0,
            .stage2 = gl_profile_stage(ops->ctx, "stage3") - t1};
    if (keep) {
        keep->a = p.h, keep->t = p.keep_t;
        p.h = p.keep_t = NULL;
    }
    rc = 0;
out:
    if (rc != 0 && keep)
        GL_FN(tridiag_q_free)(ops, keep);
    ops->release(ops, dev);
    gl_host_free(p.h);
    gl_host_free(p.band);
    gl_host_free(p.keep_t);
    return rc;
}

/* gl_s_tridiag_q_apply_streamed gl_d_tridiag_q_apply_streamed gl_c_tridiag_q_apply_streamed gl_z_tridiag_q_apply_streamed */
int GL_FN(tridiag_q_apply_streamed)(const GL_FN(ops) *ops,
                                    const GL_FN(tridiag_q) *q, lapack_int m,
                                    gl_real *zt, lapack_int ldzt,
                                    gl_scalar *z, lapack_int ldz)
{
    lapack_int n = q->n, bw = q->b;
    lapack_int cols = q->streamed_cols < m ? q->streamed_cols : m;
    if (m <= 0)
        return 0;
    /* the blocks' results wait in host memory until all succeeded (z may
     * be the caller's A, which a restart on LAPACK needs): over zt itself
     * in the real precisions */
    gl_scalar *out = GL_COMPLEX ? gl_host_alloc(sizeof *out * (size_t)n *
                                                (size_t)m)
                                : (gl_scalar *)zt;
    lapack_int ldo = GL_COMPLEX ? n : ldzt;
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * (size_t)n * (size_t)cols);
    int rc = GL_STAGE_FAULT;
    if (!out || !dev)
        goto out;
    for (lapack_int j0 = 0; j0 < m; j0 += cols) {
        lapack_int c = m - j0 < cols ? m - j0 : cols;
        gl_scalar *o = out + (size_t)j0 * ldo;
        GL_FN(scale_rows)(n, c, q->phase, zt + (size_t)j0 * ldzt, ldzt, 0, o,
                          ldo);
        ops->from_host(ops, 'N', n, c, o, ldo, dev, n);
        if (GL_FN(apply_chase)(ops, &q->chase, 'Q', 'N', c, dev, n) ||
            (bw > 1 && GL_FN(apply_host_panels)(
                           ops, 'C', 'N', n - bw, gl_sy2sb_reflectors(n, bw),
                           bw, q->a + bw, q->lda, q->t, 0, c, dev + bw, n)) ||
            ops->to_host_scratch(ops, n, c, dev, n, o, ldo))
            goto out;
    }
    for (lapack_int j = 0; j < m; j++)
        memcpy(z + (size_t)j * ldz, out + (size_t)j * ldo,
               sizeof *z * (size_t)n);
    rc = 0;
out:
    ops->release(ops, dev);
    if (GL_COMPLEX)
        gl_host_free(out);
    return rc;
}

/* ---- the lean plan ------------------------------------------------------ */

/* The lean plan's band and stage-1 block: the in-core two-stage
 * reduction's, with the vectors. */
static lapack_int lean_band(const gl_tuning *tuning, lapack_int n)
{
    lapack_int b = gl_tune_band(tuning, 'H', GL_COMPLEX, n, 1);
    return b < n - 1 ? b : n - 1;
}

/* gl_s_lean_device_bytes gl_d_lean_device_bytes gl_c_lean_device_bytes gl_z_lean_device_bytes */
size_t GL_FN(lean_device_bytes)(const gl_tuning *tuning, lapack_int n,
                                lapack_int m, int products)
{
    const size_t es = sizeof(gl_scalar);
    lapack_int b = lean_band(tuning, n), bt = b > 0 ? b : 1;
    lapack_int tile = gl_tune_ooc_tile(n, bt);
    lapack_int group = gl_tune_group(tuning, bt);
    size_t band = (2 * (size_t)bt + 1) * (size_t)n * es;
    /* stage 1 in core: A, its T factors, the band, sy2sb's scratch */
    size_t stage1 = ((size_t)n * (size_t)n + (size_t)bt * (size_t)n) * es +
                    band +
                    (b > 1 ? GL_FN(sy2sb_device_bytes)(
                                 n, b, gl_tune_stage1_block(tuning, n, b))
                           : 0);
    /* then as the streamed plan: the chase with its store, the blocks */
    size_t after =
        GL_FN(streamed_device_bytes)(n, bt, tile, group, m, products);
    return stage1 > after ? stage1 : after;
}

/* gl_s_he_tridiag_lean gl_d_he_tridiag_lean gl_c_he_tridiag_lean gl_z_he_tridiag_lean */
int GL_FN(he_tridiag_lean)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                           const gl_scalar *a, lapack_int lda, gl_real sigma,
                           gl_real *d, gl_real *e, GL_FN(tridiag_q) *keep,
                           gl_stage_times *times)
{
    const gl_tuning *tuning = &ops->ctx->tuning;
    lapack_int b = lean_band(tuning, n), bt = b > 0 ? b : 1;
    lapack_int ldband = 2 * bt + 1, tile = gl_tune_ooc_tile(n, bt);
    *keep = (GL_FN(tridiag_q)){.n = n, .b = bt, .lda = n,
                               .streamed_cols = tile < n ? tile : n};
    gl_scalar *wk = ops->alloc(ops, sizeof *wk * (size_t)n * (size_t)n);
    gl_scalar *t = ops->alloc(ops, sizeof *t * (size_t)bt * (size_t)n);
    gl_scalar *band = ops->alloc(ops, sizeof *band * (size_t)ldband * (size_t)n);
    gl_scalar *h = gl_host_alloc(sizeof *h * (size_t)n * (size_t)n);
    gl_scalar *ht = gl_host_alloc(sizeof *ht * (size_t)bt * (size_t)n);
    int rc = GL_STAGE_FAULT;
    if (!wk || !t || !band || !h || !ht)
        goto out;
    /* stage 1 in core, as he_tridiag: the lower triangle of A (of A^H
     * for 'U'), scaled */
    ops->from_host(ops, uplo == 'L' ? 'N' : 'C', n, n, a, lda, wk, n);
    if (sigma != 1 && ops->lascl(ops, 1, sigma, n, n, wk, n))
        goto out;
    double t0 = gl_profile_stage(ops->ctx, "stage1");
    if (b > 1 && GL_FN(sy2sb)(ops, n, b, gl_tune_stage1_block(tuning, n, b),
                              wk, n, NULL, t))
        goto out;
    double t1 = gl_profile_stage(ops->ctx, "stage2");
    ops->pack_band(ops, 'H', n, bt, wk, n, band, ldband);
    /* the panels and their T's to host memory: A's device memory goes
     * to the chase's store */
    if (ops->to_host_scratch(ops, n, n, wk, n, h, n) ||
        ops->to_host_scratch(ops, bt, n, t, bt, ht, bt))
        goto out;
    ops->release(ops, wk);
    ops->release(ops, t);
    wk = t = NULL;
    if (chase(ops, n, bt, band, keep, d, e))
        goto out;
    if (times)
        *times = (gl_stage_times){
            .stage1 = t1 - t0,
            .stage2 = gl_profile_stage(ops->ctx, "stage3") - t1};
    keep->a = h, keep->t = ht;
    h = ht = NULL;
    rc = 0;
out:
    if (rc != 0)
        GL_FN(tridiag_q_free)(ops, keep);
    ops->release(ops, wk);
    ops->release(ops, t);
    ops->release(ops, band);
    gl_host_free(h);
    gl_host_free(ht);
    return rc;
}
