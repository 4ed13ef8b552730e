/* sy2sb's rank-2k update and the next panel's product X = A S in one pass
 * over the trailing matrix (ops.h her2k_hemm_ahead), on the run's threads.
 *
 * Why: done apart, each step of sy2sb reads the trailing matrix for the
 * product and reads and writes it for the update, and the system BLAS
 * packs it for each: with S and the update's reflectors 64 columns wide,
 * a packed element serves 128 flops.  At n = 4000 on the 2 cores of
 * epyc-2core, OpenBLAS ran X = A S at 79-83 GFLOP/s and the update at 95,
 * against 108 for a square product (bench_blas_shapes).  Here each tile of
 * the lower triangle (TILE x TILE, half a core's L2 or less) is read once
 * per step: updated, then multiplied by S twice, as itself for the rows of
 * X of its rows and as its adjoint for the rows of X of its columns, by the
 * register-tiled kernel (tile_gemm.c), which reads the tile in place,
 * unpacked, from cache.
 *
 * Work: block columns of tiles, the longest first, from a shared counter;
 * a worker takes its column's tiles from the diagonal down.  The adjoint
 * products of a block column land in that column's rows of X alone (kept
 * as X^H, whose columns are X's rows), the plain ones in rows below it:
 * each worker sums those in a private X of its own, and a last run adds
 * them up. */
#include <complex.h>
#include <stdatomic.h>
#include <string.h>

#include "../../../runtime/memory.h"
#include "../../../runtime/precision.h"
#include "host.h"

/* A tile's scalars fill at most about half of a 1 MiB L2 (Zen 4; 2 MiB
 * on Sapphire Rapids): 512 KiB in double and single complex, 576 KiB in
 * double complex. */
enum { TILE = sizeof(gl_scalar) <= 8 ? 256 : 192 };

static gl_scalar conj_of(gl_scalar x)
{
#if GL_COMPLEX
    return conj(x);
#else
    return x;
#endif
}

typedef struct update_product {
    lapack_int k, ahead, p, ks, tiles, lda, ldb, ldc, lds, ldx;
    const gl_scalar *a, *b, *s;
    gl_scalar *c, *x;
    /* A^H and B^H (k x p) and S^H (ks x p) of the rows from `ahead` on */
    gl_scalar *ah, *bh, *sh;
    gl_scalar *xh;            /* X^H (ks x p): block column J's products */
    gl_scalar *xn;            /* per worker, p x ks: the products below */
    gl_scalar *diag;          /* per worker, TILE x TILE: a diagonal tile */
    unsigned char *written;   /* per worker and row of tiles: xn written */
    atomic_long next;         /* the next block column */
} update_product;

/* Rows i of the region (from `ahead`): the adjoints of A, B and S. */
static int adjoints_piece(void *arg, long i)
{
    const update_product *u = arg;
    lapack_int r0 = (lapack_int)i * TILE,
               r1 = r0 + TILE < u->p ? r0 + TILE : u->p;
    for (lapack_int r = r0; r < r1; r++) {
        const gl_scalar *ar = u->a + u->ahead + r, *br = u->b + u->ahead + r;
        for (lapack_int q = 0; q < u->k; q++) {
            u->ah[q + (size_t)r * u->k] = conj_of(ar[(size_t)q * u->lda]);
            u->bh[q + (size_t)r * u->k] = conj_of(br[(size_t)q * u->ldb]);
        }
        for (lapack_int q = 0; q < u->ks; q++)
            u->sh[q + (size_t)r * u->ks] =
                conj_of(u->s[r + (size_t)q * u->lds]);
    }
    return 0;
}

/* C2 -= A B^H + B A^H on one tile: rows i0.., columns j0.. of the region
 * (t, ld), ib x jb */
static void update_tile(const update_product *u, lapack_int i0, lapack_int j0,
                        lapack_int ib, lapack_int jb, gl_scalar *t,
                        lapack_int ld)
{
    lapack_int k = u->k;
    GL_FN(tile_gemm)(ib, jb, k, GL_TILE_SUBTRACT, u->a + u->ahead + i0,
                     u->lda, ib, k, u->bh + (size_t)j0 * k, k, t, ld);
    GL_FN(tile_gemm)(ib, jb, k, GL_TILE_SUBTRACT, u->b + u->ahead + i0,
                     u->ldb, ib, k, u->ah + (size_t)j0 * k, k, t, ld);
}

/* Block column J: the diagonal tile (updated whole in the worker's
 * scratch, its upper triangle the adjoint of the lower, which alone goes
 * back), then the tiles below it. */
static void block_column(const update_product *u, int w, lapack_int j0)
{
    lapack_int p = u->p, ks = u->ks, ldc = u->ldc,
               jb = p - j0 < TILE ? p - j0 : TILE;
    gl_scalar *d = u->diag + (size_t)w * TILE * TILE;
    gl_scalar *xn = u->xn + (size_t)w * p * ks, *xh = u->xh + (size_t)j0 * ks;
    unsigned char *written = u->written + (size_t)w * u->tiles;
    gl_scalar *cjj = u->c + u->ahead + j0 + (size_t)(u->ahead + j0) * ldc;
    for (lapack_int j = 0; j < jb; j++)
        for (lapack_int i = j; i < jb; i++) {
            d[i + (size_t)j * TILE] = cjj[i + (size_t)j * ldc];
            d[j + (size_t)i * TILE] = conj_of(cjj[i + (size_t)j * ldc]);
        }
    update_tile(u, j0, j0, jb, jb, d, TILE);
    for (lapack_int j = 0; j < jb; j++) {
        /* as ?her2k: the diagonal stays real */
        d[j + (size_t)j * TILE] = GL_REAL(d[j + (size_t)j * TILE]);
        for (lapack_int i = j; i < jb; i++) {
            cjj[i + (size_t)j * ldc] = d[i + (size_t)j * TILE];
            d[j + (size_t)i * TILE] = conj_of(d[i + (size_t)j * TILE]);
        }
    }
    /* X_J^H = S_J^H D (D Hermitian) */
    GL_FN(tile_gemm)(ks, jb, jb, GL_TILE_SET, u->sh + (size_t)j0 * ks, ks, ks,
                     jb, d, TILE, xh, ks);
    for (lapack_int i0 = j0 + jb; i0 < p; i0 += TILE) {
        lapack_int ib = p - i0 < TILE ? p - i0 : TILE;
        gl_scalar *t = u->c + u->ahead + i0 + (size_t)(u->ahead + j0) * ldc;
        update_tile(u, i0, j0, ib, jb, t, ldc);
        /* X_I += T S_J, in the worker's rows; X_J^H += S_I^H T */
        lapack_int row = i0 / TILE;
        GL_FN(tile_gemm)(ib, ks, jb, written[row] ? GL_TILE_ADD : GL_TILE_SET,
                         t, ldc, ib, jb, u->s + j0, u->lds, xn + i0, p);
        written[row] = 1;
        GL_FN(tile_gemm)(ks, jb, ib, GL_TILE_ADD, u->sh + (size_t)i0 * ks, ks,
                         ks, ib, t, ldc, xh, ks);
    }
}

static int worker(void *arg, long w)
{
    update_product *u = arg;
    for (;;) {
        long j = atomic_fetch_add_explicit(&u->next, 1, memory_order_relaxed);
        if (j >= u->tiles)
            return 0;
        block_column(u, (int)w, (lapack_int)j * TILE);
    }
}

typedef struct sum_job {
    const update_product *u;
    int workers;
} sum_job;

/* Rows of tile row i of X: X_J^H's adjoint plus the workers' sums. */
static int sum_piece(void *arg, long i)
{
    const sum_job *sj = arg;
    const update_product *u = sj->u;
    lapack_int p = u->p, ks = u->ks, r0 = (lapack_int)i * TILE,
               r1 = r0 + TILE < p ? r0 + TILE : p;
    for (lapack_int q = 0; q < ks; q++) {
        gl_scalar *xq = u->x + (size_t)q * u->ldx;
        for (lapack_int r = r0; r < r1; r++)
            xq[r] = conj_of(u->xh[q + (size_t)r * ks]);
        for (int w = 0; w < sj->workers; w++) {
            if (!u->written[(size_t)w * u->tiles + i])
                continue;
            const gl_scalar *xn = u->xn + (size_t)w * p * ks + (size_t)q * p;
            for (lapack_int r = r0; r < r1; r++)
                xq[r] += xn[r];
        }
    }
    return 0;
}

/* gl_s_products_her2k_hemm gl_d_products_her2k_hemm gl_c_products_her2k_hemm gl_z_products_her2k_hemm */
int GL_FN(products_her2k_hemm)(const GL_FN(ops) *ops, lapack_int n,
                               lapack_int k, const gl_scalar *a,
                               lapack_int lda, const gl_scalar *b,
                               lapack_int ldb, gl_scalar *c, lapack_int ldc,
                               lapack_int ahead, GL_FN(ops_task) *task,
                               void *arg, lapack_int ks, const gl_scalar *s,
                               lapack_int lds, gl_scalar *x, lapack_int ldx)
{
    lapack_int p = n - ahead;
    /* the vector kernels only: the portable one is no match for the BLAS */
    if (ops->product_threads < 1 || !GL_FN(tile_gemm_vector)() ||
        p < 2 * TILE || ahead < 0 || k < 1 || ks < 1)
        return 1;
    lapack_int tiles = (p + TILE - 1) / TILE;
    int workers = ops->product_threads < tiles ? ops->product_threads
                                               : (int)tiles;
    size_t region = (size_t)p, scalars =
        region * (2 * (size_t)k + 2 * (size_t)ks) +
        (size_t)workers * (region * (size_t)ks + (size_t)TILE * TILE);
    gl_scalar *work = gl_host_alloc(sizeof *work * scalars +
                                    (size_t)workers * (size_t)tiles);
    if (!work)
        return 1;
    update_product u = {.k = k,
                        .ahead = ahead,
                        .p = p,
                        .ks = ks,
                        .tiles = tiles,
                        .lda = lda,
                        .ldb = ldb,
                        .ldc = ldc,
                        .lds = lds,
                        .ldx = ldx,
                        .a = a,
                        .b = b,
                        .s = s,
                        .c = c,
                        .x = x};
    u.ah = work;
    u.bh = u.ah + region * k;
    u.sh = u.bh + region * k;
    u.xh = u.sh + region * ks;
    u.xn = u.xh + region * ks;
    u.diag = u.xn + (size_t)workers * region * ks;
    u.written = (unsigned char *)(u.diag + (size_t)workers * TILE * TILE);
    memset(u.written, 0, (size_t)workers * (size_t)tiles);
    atomic_init(&u.next, 0);

    /* the first `ahead` columns, then the task, which writes S */
    if (ahead > 0) {
        ops->her2k(ops, 'L', 'N', ahead, k, -1, a, lda, b, ldb, 1, c, ldc);
        ops->gemm(ops, 'N', 'C', p, ahead, k, -1, a + ahead, lda, b, ldb, 1,
                  c + ahead, ldc);
        ops->gemm(ops, 'N', 'C', p, ahead, k, -1, b + ahead, ldb, a, lda, 1,
                  c + ahead, ldc);
    }
    int rc = task(ops, arg);
    if (rc == 0) {
        int threads = ops->product_threads;
        gl_parallel_run(tiles, threads, adjoints_piece, &u);
        gl_parallel_run(workers, workers, worker, &u);
        sum_job sj = {.u = &u, .workers = workers};
        gl_parallel_run(tiles, threads, sum_piece, &sj);
    }
    gl_host_free(work);
    return rc;
}
