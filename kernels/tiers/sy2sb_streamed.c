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
 * x b), T and three tile buffers: while the device works on one tile,
 * the next comes up and the last goes down on the copy lanes
 * (tile_pass.c).  The band is assembled on the host from each
 * panel's diagonal block and R, then uploaded for the chase.
 *
 * With the vectors, each panel's reflectors go back below its band rows
 * (the spent part of the host copy, as ?sytrd_sy2sb keeps them in A) and
 * its T beside them; the chase runs in segments of sweeps (ops.h
 * sb_chase), each segment's reflectors parked in host memory when it
 * ends, so the device holds one segment's store (about as large as a
 * block of Z) instead of the chase's n^2 / 2 elements.  Q is then
 * applied to blocks of `tile` columns of the tridiagonal's vectors, each
 * block up once, the segments' stores streamed past it from host memory
 * (the last segment first: each segment's Q acts on the rows from its
 * first sweep on), then the stage-1 panels group by group (MAGMA's
 * applyQ for several devices streams its reflector sets the same way).
 *
 * The lean plan (vectors only) keeps the rest and drops the streaming of
 * stage 1: A fits the device but the in-core plan's 4.5 n^2 does not, so
 * stage 1 runs in core, its panels go to host memory (n^2 down, once),
 * the chase keeps its whole store on the device (n^2 / 2 fits where A
 * did: no store crosses the bus), and the back-transformation runs as
 * the streamed plan's. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/log.h"
#include "../../runtime/memory.h"
#include "../../runtime/precision.h"
#include "../../runtime/profile.h"
#include "../../runtime/timing.h"
#include "../stages/stages.h"
#include "streamed.h"
#include "../backend/gpu_ops.h"

/* The device arena of the streamed reduction: six n x b blocks, T, M and
 * the passes' tile buffers. */
typedef struct streamed {
    const GL_FN(ops) *ops;
    lapack_int n, b, tile;
    gl_scalar *h;               /* host: A's lower triangle, ld n */
    gl_scalar *band;            /* host: the lower band, ld 2b + 1 */
    gl_scalar *vp, *wp;         /* the pending update (absolute rows, ld n) */
    gl_scalar *v, *x, *s, *col; /* the panel's V, X (then W), S = V T, A(:, k:k+b) */
    gl_scalar *t, *m, *tb;      /* T (ld b), M = S^H X (ld b), the
                                   GL_TILE_BUFFERS tiles (ld tile) */
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
           GL_TILE_BUFFERS * (size_t)tile * (size_t)tile;
}

/* Sweeps per segment where the device's budget is not known: whole
 * groups of the store, about as many as a block of Z has columns, so that
 * a segment's store (about g n (b + 1) / b scalars) about matches the
 * block (n tile). */
static lapack_int block_sweeps(lapack_int tile, lapack_int group)
{
    lapack_int g = tile / group * group;
    return g > group ? g : group;
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/* The device bytes after stage 1 with the vectors (m columns of Z, in
 * blocks of tile columns): the band and the chase's store (one
 * segment's, parked: segment sweeps; else the whole chase's, kept), then
 * stage 3's products (products, in blocks of product_tile columns)
 * beside the store kept, and a block of Z, the store and what the two
 * applications allocate. */
static size_t vectors_bytes(lapack_int n, lapack_int b, lapack_int tile,
                            lapack_int group, lapack_int m, int products,
                            lapack_int segment, lapack_int product_tile)
{
    const size_t es = sizeof(gl_scalar);
    lapack_int ngroups, cols = tile < m ? tile : m;
    lapack_int sweeps = segment > 0 ? segment : n;
    size_t store = GL_FN(reflectors_segment_slots)(n, b, group, sweeps,
                                                   &ngroups) *
                   ((size_t)b + 1) * es;
    size_t chase = (2 * (size_t)b + 1) * (size_t)n * es + store;
    size_t chase_q =
        GL_FN(apply_segment_device_bytes)(n, b, group, sweeps, cols);
    size_t panels_q = GL_FN(apply_block_panels_device_bytes)(
        n - b, gl_sy2sb_reflectors(n, b), b, cols);
    /* parked: the stores of two segments, the next going up while the
     * device applies this one's (tile_pass.c parked_upload) */
    size_t back = (segment > 0 ? GL_PARKED_BUFFERS : 1) * store +
                  (size_t)n * (size_t)cols * es + max_size(chase_q, panels_q);
    /* stage 3 on the host, its merges' products on the device in blocks */
    size_t stage3 = products ? (segment > 0 ? 0 : store) +
                                   GL_FN(tiled_product_device_bytes)(
                                       n, product_tile)
                             : 0;
    return max_size(max_size(chase, back), stage3);
}

/* A streamed plan with the vectors, and the budget it must fit. */
typedef struct segment_fit {
    lapack_int n, b, tile, group, m, product_tile;
    int products;
    size_t budget;
} segment_fit;

/* The plan with its chase parked in segments of k groups fits. */
static int segments_fit(void *arg, lapack_int k)
{
    const segment_fit *f = arg;
    return vectors_bytes(f->n, f->b, f->tile, f->group, f->m, f->products,
                         k * f->group, f->product_tile) <= f->budget;
}

/* gl_s_streamed_segment gl_d_streamed_segment gl_c_streamed_segment gl_z_streamed_segment */
lapack_int GL_FN(streamed_segment)(const gl_room *room, lapack_int n,
                                   lapack_int b, lapack_int tile,
                                   lapack_int group, lapack_int m,
                                   int products, lapack_int product_tile)
{
    streamed_shape(n, &b, &tile);
    if (group == 0)
        return 0;
    /* the plan's largest allocation is counted as its whole (the tier of
     * eig_plan_make): both bounds are the device's */
    size_t budget = room->budget;
    if (room->max_alloc > 0 && room->max_alloc < budget)
        budget = (size_t)room->max_alloc;
    if (budget == 0)
        return block_sweeps(tile, group);
    /* the whole store kept: no store crosses the bus */
    if (vectors_bytes(n, b, tile, group, m, products, 0, product_tile) <=
        budget)
        return 0;
    /* else the most whole groups whose plan fits (its bytes grow with
     * the segment's store): fewer segments are fewer launches past each
     * block of Z; at least one group (under that the call does not fit
     * the device at all) */
    segment_fit f = {n, b, tile, group, m, product_tile, products, budget};
    return gl_most_that_fit((n - 2 + group - 1) / group, segments_fit, &f) *
           group;
}

/* gl_s_streamed_device_bytes gl_d_streamed_device_bytes gl_c_streamed_device_bytes gl_z_streamed_device_bytes */
size_t GL_FN(streamed_device_bytes)(lapack_int n, lapack_int b,
                                    lapack_int tile, lapack_int group,
                                    lapack_int m, int products,
                                    lapack_int segment,
                                    lapack_int product_tile)
{
    const size_t es = sizeof(gl_scalar);
    streamed_shape(n, &b, &tile);
    /* the arena with its operations' scratch (T S: a panel's rows, b
     * wide), then the band and the chase */
    size_t reduce = (arena_scalars(n, b, tile) + (size_t)n * b) * es;
    size_t chase = (2 * (size_t)b + 1) * (size_t)n * es;
    size_t most = max_size(reduce, chase);
    if (group == 0)
        return most;
    return max_size(most, vectors_bytes(n, b, tile, group, m, products,
                                        segment, product_tile));
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

/* A trailing pass's state for its tiles: the pass's first column and
 * the panel's columns of X. */
typedef struct trailing {
    const streamed *p;
    lapack_int s, kk;
} trailing;

/* A trailing pass's tile brought up to date with the pending update. */
static void tile_update(void *arg, const gl_tile *t, gl_scalar *dev,
                        lapack_int ld)
{
    const trailing *tr = arg;
    apply_pending(tr->p, t->r0, t->nr, t->c0, t->nc, dev, ld);
}

/* The tile's share of X = A22 S, both Hermitian halves from the one
 * lower tile. */
static void tile_use(void *arg, const gl_tile *t, const gl_scalar *dev,
                     lapack_int ld)
{
    const trailing *tr = arg;
    const streamed *p = tr->p;
    const GL_FN(ops) *ops = p->ops;
    lapack_int n = p->n, kk = tr->kk;
    /* X's rows r0.. are first touched by the tiles of the first column
     * of tiles */
    gl_scalar beta = t->c0 == tr->s ? 0 : 1;
    if (t->r0 == t->c0) {
        ops->hemm(ops, 'L', 'L', t->nr, kk, 1, dev, ld, p->s + t->r0, n,
                  beta, p->x + t->r0, n);
        return;
    }
    ops->gemm(ops, 'N', 'N', t->nr, kk, t->nc, 1, dev, ld, p->s + t->c0, n,
              beta, p->x + t->r0, n);
    ops->gemm(ops, 'C', 'N', t->nc, kk, t->nr, 1, dev, ld, p->s + t->r0, n,
              1, p->x + t->c0, n);
}

/* One pass over the trailing lower triangle from row and column s: each
 * tile brought up to date with the pending update, written back, and
 * added to X = A22 S (kk columns). */
static int stream_trailing(const streamed *p, lapack_int s, lapack_int kk)
{
    trailing tr = {p, s, kk};
    GL_FN(tile_pass) pass = {
        .ops = p->ops, .h = p->h, .ldh = p->n, .rows = p->n, .cols = p->n,
        .r_first = s, .c_first = s, .tile = p->tile, .lower = 1,
        .write_back = 1, .buffers = p->tb,
        .update = tile_update, .use = tile_use, .arg = &tr};
    return GL_FN(tile_pass_run)(&pass);
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

/* The scalars of the stores of a chase in segments of g sweeps (n > 2,
 * b > 1) before segment k, in the order they are parked. */
static size_t parked_before(lapack_int n, lapack_int b, lapack_int group,
                            lapack_int g, lapack_int k)
{
    size_t at = 0;
    lapack_int ngroups;
    for (lapack_int s0 = 0; s0 < k * g; s0 += g)
        at += GL_FN(reflectors_segment_slots)(n - s0, b, group, g, &ngroups) *
              ((size_t)b + 1);
    return at;
}

/* The chase (b > 1) in segments of keep->segment_sweeps sweeps (ops.h
 * sb_chase), each segment's store in one device buffer, reused, and
 * parked in host memory (keep->parked) when its segment ends.  keep's
 * phases are the caller's. */
static int chase_parked(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                        gl_scalar *band, GL_FN(tridiag_q) *keep)
{
    lapack_int ldband = 2 * b + 1, g = keep->segment_sweeps,
               group = keep->group, ngroups;
    size_t slots = GL_FN(reflectors_segment_slots)(n, b, group, g, &ngroups);
    gl_scalar *store = ops->alloc(ops, sizeof *store * slots * ((size_t)b + 1));
    gl_scalar *zeros = malloc(sizeof *zeros * slots);
    lapack_int *first = malloc(sizeof *first * ((size_t)ngroups + 1));
    keep->parked = gl_host_alloc(sizeof *keep->parked *
                                 parked_before(n, b, group, g, (n - 2 + g - 1) / g));
    int rc = store && zeros && first && keep->parked ? 0 : GL_STAGE_FAULT;
    size_t at = 0;
    for (lapack_int s0 = 0; s0 < n - 2 && rc == 0; s0 += g) {
        GL_FN(reflectors) r;
        GL_FN(reflectors_place_segment)(ops, &r, n - s0, b, group, g, store,
                                        NULL, first, zeros);
        size_t size = (size_t)(r.tauq - r.vq) / (size_t)b * ((size_t)b + 1);
        if (ops->sb_chase(ops, n - s0, b, g, band + (size_t)s0 * ldband,
                          ldband, &r) ||
            ops->to_host_scratch(ops, (lapack_int)size, 1, store,
                                 (lapack_int)size, keep->parked + at,
                                 (lapack_int)size))
            rc = GL_STAGE_FAULT;
        at += size;
    }
    ops->release(ops, store);
    free(zeros);
    free(first);
    return rc;
}

/* The chase of the device's band (half-width b, ld 2b + 1), with its
 * reflectors for the vectors: parked segment by segment
 * (keep->segment_sweeps > 0) or kept whole in keep->chase; d and e, and
 * keep's phases. */
static int chase(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 gl_scalar *band, GL_FN(tridiag_q) *keep, gl_real *d,
                 gl_real *e)
{
    lapack_int ldband = 2 * b + 1;
    int parked = keep && keep->segment_sweeps > 0;
    gl_scalar *de = gl_host_alloc(sizeof *de * 2 * (size_t)n);
    int rc = GL_STAGE_FAULT;
    if (parked)
        keep->phase = malloc(sizeof *keep->phase * (size_t)n);
    if (!de || (parked && !keep->phase) ||
        (keep && !parked && GL_FN(tridiag_q_keep_chase)(ops, keep)) ||
        (b > 1 && (parked ? chase_parked(ops, n, b, band, keep)
                          : ops->sb_chase(ops, n, b, n, band, ldband,
                                          keep ? &keep->chase : NULL))) ||
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

/* The values' wide host band (half-width B = p->b) up in both triangles,
 * reduced band-to-band to half-width bt on the device, then chased. */
static int chase_wide_band(const streamed *p, lapack_int bt, gl_real *d,
                           gl_real *e)
{
    const GL_FN(ops) *ops = p->ops;
    lapack_int n = p->n, big = p->b, ld = GL_FN(band_reduce_ld)(big);
    lapack_int ldhost = 2 * big + 1;
    size_t storage = (size_t)ld * (size_t)n;
    gl_scalar *full = gl_host_alloc(sizeof *full * storage);
    gl_scalar *w = ops->alloc(ops, sizeof *w * storage);
    gl_scalar *t = ops->alloc(ops, sizeof *t * (size_t)big * (size_t)big);
    gl_scalar *band = NULL;
    int rc = GL_STAGE_FAULT;
    if (!full || !w || !t)
        goto out;
    memset(full, 0, sizeof *full * storage);
    for (lapack_int c = 0; c < n; c++)   /* A(r, c) and A(c, r) */
        for (lapack_int r = c; r < n && r - c <= big; r++) {
            gl_scalar x = p->band[(size_t)(r - c) + (size_t)c * ldhost];
            full[(size_t)(2 * big + r - c) + (size_t)c * ld] = x;
            full[(size_t)(2 * big + c - r) + (size_t)r * ld] = GL_CONJ(x);
        }
    ops->from_host(ops, 'N', ld, n, full, ld, w, ld);
    if (GL_FN(band_reduce)(ops, n, big, bt, w, t))
        goto out;
    ops->release(ops, t);
    t = NULL;
    band = ops->alloc(ops, sizeof *band * (size_t)(2 * bt + 1) * (size_t)n);
    if (!band)
        goto out;
    ops->pack_band(ops, 'H', n, bt, w + 2 * (size_t)big, 4 * big, band,
                   2 * bt + 1);
    ops->release(ops, w);
    w = NULL;
    rc = chase(ops, n, bt, band, NULL, d, e);
out:
    ops->release(ops, band);
    ops->release(ops, t);
    ops->release(ops, w);
    gl_host_free(full);
    return rc;
}

/* gl_s_he_tridiag_streamed gl_d_he_tridiag_streamed gl_c_he_tridiag_streamed gl_z_he_tridiag_streamed */
int GL_FN(he_tridiag_streamed)(const GL_FN(ops) *ops,
                               const gl_call_plan *plan, char uplo,
                               lapack_int n, const gl_scalar *a,
                               lapack_int lda, gl_real sigma, gl_real *d,
                               gl_real *e, GL_FN(tridiag_q) *keep,
                               gl_stage_times *times)
{
    lapack_int b = plan->band, tile = plan->tile, segment = plan->segment;
    streamed_shape(n, &b, &tile);
    lapack_int ldband = 2 * b + 1;
    streamed p = {.ops = ops, .n = n, .b = b, .tile = tile};
    p.h = gl_host_alloc(sizeof *p.h * (size_t)n * (size_t)n);
    p.band = gl_host_alloc(sizeof *p.band * (size_t)ldband * (size_t)n);
    p.keep_t = keep ? gl_host_alloc(sizeof *p.keep_t * (size_t)b * (size_t)n)
                    : NULL;
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * arena_scalars(n, b, tile));
    int rc = GL_STAGE_FAULT;
    if (keep) {   /* Q's host memory is p's, handed over below */
        *keep = (GL_FN(tridiag_q)){.n = n, .b = b, .lda = n,
                                   .streamed_cols = tile < n ? tile : n,
                                   .segment_sweeps = segment,
                                   .group = plan->group};
        if (segment > 0)
            gl_log(1, "streamed chase: %d segments of %d sweeps parked in "
                      "host memory",
                   b > 1 && n > 2 ? (n - 2 + segment - 1) / segment : 0,
                   segment);
        else
            gl_log(1, "streamed chase: its store kept on the device");
    }
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
    /* the passes' tiles reach the copy by DMA (ops.h host_pin) */
    ops->host_pin(ops, p.h, sizeof *p.h * (size_t)n * (size_t)n);
    int reduced = reduce(&p);
    ops->host_unpin(ops, p.h);
    if (reduced)
        goto out;
    ops->release(ops, dev);
    dev = NULL;
    double t1 = gl_profile_stage(ops->ctx, "stage2");
    lapack_int bt = keep ? b : plan->chase_band;
    if (bt < b ? chase_wide_band(&p, bt, d, e)
               : chase_host_band(&p, keep, d, e))
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

/* The parked segments' stores streamed past the streamed plan's block
 * of Z: GL_PARKED_BUFFERS device buffers for the largest store (the first
 * segment's) and the host's list of where each store starts. */
typedef struct parked_q {
    const GL_FN(tridiag_q) *q;
    lapack_int segments;
    size_t *at;           /* segments + 1 offsets into q->parked */
    lapack_int *first;    /* a store's group starts */
    gl_scalar *store;     /* device, the buffers one after the other */
    size_t store_scalars; /* of one buffer */
} parked_q;

static int parked_open(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                       parked_q *p)
{
    lapack_int n = q->n, b = q->b, g = q->segment_sweeps, ngroups;
    *p = (parked_q){.q = q, .segments = (n - 2 + g - 1) / g};
    size_t slots =
        GL_FN(reflectors_segment_slots)(n, b, q->group, g, &ngroups);
    p->at = malloc(sizeof *p->at * ((size_t)p->segments + 1));
    p->first = malloc(sizeof *p->first * ((size_t)ngroups + 1));
    p->store_scalars = slots * ((size_t)b + 1);
    p->store = ops->alloc(ops, sizeof *p->store * GL_PARKED_BUFFERS *
                                   p->store_scalars);
    if (!p->at || !p->first || !p->store)
        return GL_STAGE_FAULT;
    for (lapack_int k = 0; k <= p->segments; k++)
        p->at[k] = parked_before(n, b, q->group, g, k);
    return 0;
}

static void parked_close(const GL_FN(ops) *ops, parked_q *p)
{
    free(p->at);
    free(p->first);
    ops->release(ops, p->store);
}

/* Segment k's store up into its buffer (k's parity) on the upload lane. */
static void parked_up(const GL_FN(ops) *ops, const parked_q *p, lapack_int k)
{
    int u = (int)(k % GL_PARKED_BUFFERS);
    GL_FN(parked_upload)(ops, p->q->parked + p->at[k],
                         (lapack_int)(p->at[k + 1] - p->at[k]),
                         p->store + (size_t)u * p->store_scalars, u);
}

/* E (n x c, device, ld n) := Q2 E, Q2 the product of the segments' Q's,
 * segment k's on rows k g ..: the last segment first, each applied as the
 * whole chase's, in batches bounded by the block as segment 0's
 * (apply_segment), while the next one's store comes up into the other
 * buffer. */
static int parked_apply(const GL_FN(ops) *ops, const parked_q *p,
                        lapack_int c, gl_scalar *e)
{
    const GL_FN(tridiag_q) *q = p->q;
    lapack_int n = q->n, g = q->segment_sweeps;
    parked_up(ops, p, p->segments - 1);
    for (lapack_int k = p->segments - 1; k >= 0; k--) {
        int u = (int)(k % GL_PARKED_BUFFERS);
        if (k > 0)
            parked_up(ops, p, k - 1);
        GL_FN(reflectors) r;
        GL_FN(reflectors_segment_layout)(
            &r, n - k * g, q->b, q->group, g,
            p->store + (size_t)u * p->store_scalars, NULL, p->first);
        GL_FN(parked_ready)(ops, u);
        if (GL_FN(apply_segment)(ops, &r, 'Q', 'N', c, e + (size_t)k * g, n,
                                 n))
            return GL_STAGE_FAULT;
        GL_FN(parked_used)(ops, u);
    }
    return 0;
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
    int parked = q->parked && bw > 1 && n > 2;
    parked_q p = {0};
    int rc = GL_STAGE_FAULT;
    /* stage 1's panels and the parked stores go up on the upload lane by
     * DMA (ops.h host_pin) */
    ops->host_pin(ops, q->a, sizeof *q->a * (size_t)q->lda * (size_t)n);
    ops->host_pin(ops, q->t, sizeof *q->t * (size_t)bw * (size_t)n);
    if (!out || !dev || (parked && parked_open(ops, q, &p)))
        goto out;
    if (parked)
        ops->host_pin(ops, q->parked, sizeof *q->parked * p.at[p.segments]);
    for (lapack_int j0 = 0; j0 < m; j0 += cols) {
        lapack_int c = m - j0 < cols ? m - j0 : cols;
        gl_scalar *o = out + (size_t)j0 * ldo;
        GL_FN(scale_rows)(n, c, q->phase, zt + (size_t)j0 * ldzt, ldzt, 0, o,
                          ldo);
        ops->from_host(ops, 'N', n, c, o, ldo, dev, n);
        if ((parked ? parked_apply(ops, &p, c, dev)
                    : GL_FN(apply_chase)(ops, &q->chase, 'Q', 'N', c, dev,
                                         n)) ||
            (bw > 1 && GL_FN(apply_block_panels)(
                           ops, 'C', 'N', n - bw, gl_sy2sb_reflectors(n, bw),
                           bw, q->a + bw, q->lda, q->t, c, dev + bw, n)) ||
            ops->to_host_scratch(ops, n, c, dev, n, o, ldo))
            goto out;
    }
    for (lapack_int j = 0; j < m; j++)
        memcpy(z + (size_t)j * ldz, out + (size_t)j * ldo,
               sizeof *z * (size_t)n);
    rc = 0;
out:
    ops->lanes_finish(ops);   /* no upload may still reach what goes */
    ops->host_unpin(ops, q->a);
    ops->host_unpin(ops, q->t);
    ops->host_unpin(ops, q->parked);
    if (parked)
        parked_close(ops, &p);
    ops->release(ops, dev);
    if (GL_COMPLEX)
        gl_host_free(out);
    return rc;
}

/* ---- the lean plan ------------------------------------------------------ */

/* gl_s_lean_device_bytes gl_d_lean_device_bytes gl_c_lean_device_bytes gl_z_lean_device_bytes */
size_t GL_FN(lean_device_bytes)(const gl_call_plan *plan, lapack_int n,
                                lapack_int m, int products)
{
    const size_t es = sizeof(gl_scalar);
    lapack_int b = plan->band, bt = plan->chase_band;
    size_t band = (2 * (size_t)bt + 1) * (size_t)n * es;
    /* stage 1 in core: A, its T factors, the band, sy2sb's scratch */
    size_t stage1 = ((size_t)n * (size_t)n + (size_t)bt * (size_t)n) * es +
                    band +
                    (b > 1 ? GL_FN(sy2sb_device_bytes)(n, b,
                                                       plan->stage1_block)
                           : 0);
    /* then as the streamed plan, but the chase's whole store kept on
     * the device */
    size_t after = vectors_bytes(n, bt, plan->tile, plan->group, m, products,
                                 0, plan->product_tile);
    return stage1 > after ? stage1 : after;
}

/* gl_s_he_tridiag_lean gl_d_he_tridiag_lean gl_c_he_tridiag_lean gl_z_he_tridiag_lean */
int GL_FN(he_tridiag_lean)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                           char uplo, lapack_int n, const gl_scalar *a,
                           lapack_int lda, gl_real sigma, gl_real *d,
                           gl_real *e, GL_FN(tridiag_q) *keep,
                           gl_stage_times *times)
{
    lapack_int b = plan->band, bt = plan->chase_band;
    lapack_int ldband = 2 * bt + 1, tile = plan->tile;
    *keep = (GL_FN(tridiag_q)){.n = n, .b = bt, .lda = n,
                               .streamed_cols = tile < n ? tile : n,
                               .group = plan->group};
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
    if (b > 1 && GL_FN(sy2sb)(ops, n, b, plan->stage1_block,
                              plan->stage1_tile, wk, n, NULL, t))
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
