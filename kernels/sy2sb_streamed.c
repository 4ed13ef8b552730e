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
 * panel's diagonal block and R, then uploaded for the chase. */
#include <complex.h>
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
    lapack_int pending;         /* columns of the pending update; 0: none */
} streamed;

static size_t arena_scalars(lapack_int n, lapack_int b, lapack_int tile)
{
    return 6 * (size_t)n * (size_t)b + 2 * (size_t)b * (size_t)b +
           (size_t)tile * (size_t)tile;
}

/* gl_s_streamed_device_bytes gl_d_streamed_device_bytes gl_c_streamed_device_bytes gl_z_streamed_device_bytes */
size_t GL_FN(streamed_device_bytes)(lapack_int n, lapack_int b,
                                    lapack_int tile)
{
    const size_t es = sizeof(gl_scalar);
    /* the arena with its operations' scratch (T S: a panel's rows, b
     * wide), then the band and the chase */
    size_t reduce = (arena_scalars(n, b, tile) + (size_t)n * b) * es;
    size_t chase = (2 * (size_t)b + 1) * (size_t)n * es;
    return reduce > chase ? reduce : chase;
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
    /* the diagonal block and R: final */
    lapack_int r1 = k + 2 * b < n ? k + 2 * b : n;
    gl_scalar *hb = p->h + (size_t)k + (size_t)k * n;   /* spent: reused */
    if (ops->to_host_scratch(ops, r1 - k, b, col, n, hb, n))
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

/* gl_s_he_tridiag_streamed gl_d_he_tridiag_streamed gl_c_he_tridiag_streamed gl_z_he_tridiag_streamed */
int GL_FN(he_tridiag_streamed)(const GL_FN(ops) *ops, char uplo, lapack_int n,
                               const gl_scalar *a, lapack_int lda,
                               gl_real sigma, lapack_int b, lapack_int tile,
                               gl_real *d, gl_real *e, gl_stage_times *times)
{
    if (b > n - 1)
        b = n - 1 > 1 ? n - 1 : 1;
    if (tile < b + 1)
        tile = b + 1;
    lapack_int ldband = 2 * b + 1;
    streamed p = {.ops = ops, .n = n, .b = b, .tile = tile};
    p.h = gl_host_alloc(sizeof *p.h * (size_t)n * (size_t)n);
    p.band = gl_host_alloc(sizeof *p.band * (size_t)ldband * (size_t)n);
    gl_scalar *de = gl_host_alloc(sizeof *de * 2 * (size_t)n);
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * arena_scalars(n, b, tile));
    gl_scalar *band = NULL;
    int rc = GL_STAGE_FAULT;
    if (!p.h || !p.band || !de || !dev)
        goto out;
    size_t nb = (size_t)n * (size_t)b;
    p.vp = dev, p.wp = p.vp + nb, p.v = p.wp + nb, p.x = p.v + nb;
    p.s = p.x + nb, p.col = p.s + nb, p.t = p.col + nb;
    p.m = p.t + (size_t)b * b, p.tb = p.m + (size_t)b * b;
    memset(p.band, 0, sizeof *p.band * (size_t)ldband * (size_t)n);
    copy_lower(p.h, n, uplo, a, lda, sigma);

    double t0 = gl_profile_stage(ops->ctx, "stage1");
    if (reduce(&p))
        goto out;
    ops->release(ops, dev);
    dev = NULL;
    double t1 = gl_profile_stage(ops->ctx, "stage2");
    band = ops->alloc(ops, sizeof *band * (size_t)ldband * (size_t)n);
    if (!band)
        goto out;
    ops->from_host(ops, 'N', ldband, n, p.band, ldband, band, ldband);
    if ((b > 1 && ops->sb_chase(ops, n, b, band, ldband, NULL)) ||
        GL_FN(band_to_de)(ops, 'H', n, b, band, ldband, de, d, e))
        goto out;
    if (times)
        *times = (gl_stage_times){
            .stage1 = t1 - t0,
            .stage2 = gl_profile_stage(ops->ctx, "stage3") - t1};
    rc = 0;
out:
    ops->release(ops, dev);
    ops->release(ops, band);
    gl_host_free(p.h);
    gl_host_free(p.band);
    gl_host_free(de);
    return rc;
}
