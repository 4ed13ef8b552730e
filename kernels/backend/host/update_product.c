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
 * unpacked, from cache.  On those 2 cores that kernel, on tiles from
 * memory, runs at OpenBLAS's rate and the pass was 5-8% slower: a call
 * takes it with GPULAPACK_HOST_PRODUCTS=fused only, for machines whose
 * cores outrun their memory (docs/design/host-threads.md).
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
#include "../lapack_fns.h"
#include "host.h"
#include "update_pass.h"

typedef struct update_product {
    lapack_int k, ahead, p, ks, tiles, lda, ldb, ldc, lds, ldx;
    const gl_scalar *a, *b, *s;
    gl_scalar *c, *x;
    /* the lead's: the first columns' update and the task, on whole
     * products */
    const GL_FN(ops) *lead_ops;
    GL_FN(ops_task) *task;
    void *arg;
    int task_rc;
    atomic_int s_ready; /* 0 not yet, 1 S^H is there, -1 the task failed */
    /* [B A]^H (2k x p; block column J's by its worker) and S^H (ks x p)
     * of the rows from `ahead` on; `pair`: B lies right after A's k
     * columns (sy2sb's V and W), so [A B] is one operand */
    gl_scalar *qh, *sh;
    int pair;
    gl_scalar *xh;            /* X^H (ks x p): block column J's products */
    gl_scalar *xn;            /* per worker, p x ks: the products below */
    unsigned char *written;   /* per worker and row of tiles: xn written */
    atomic_long next;         /* the next block column */
} update_product;

/* The lead (worker 0): C's first `ahead` columns, the task (which writes
 * S), S^H and a zero X^H, then S is there. */
static void lead(update_product *u)
{
    const GL_FN(ops) *o = u->lead_ops;
    lapack_int ahead = u->ahead, k = u->k, p = u->p, ldc = u->ldc;
    if (ahead > 0) {
        o->her2k(o, 'L', 'N', ahead, k, -1, u->a, u->lda, u->b, u->ldb, 1,
                 u->c, ldc);
        o->gemm(o, 'N', 'C', p, ahead, k, -1, u->a + ahead, u->lda, u->b,
                u->ldb, 1, u->c + ahead, ldc);
        o->gemm(o, 'N', 'C', p, ahead, k, -1, u->b + ahead, u->ldb, u->a,
                u->lda, 1, u->c + ahead, ldc);
    }
    u->task_rc = u->task(o, u->arg);
    if (u->task_rc == 0) {
        update_pass_adjoint(p, u->ks, u->s, u->lds, u->sh, u->ks);
        memset(u->xh, 0, sizeof *u->xh * (size_t)u->ks * (size_t)p);
    }
    atomic_store_explicit(&u->s_ready, u->task_rc == 0 ? 1 : -1,
                          memory_order_release);
}

/* C2 -= A B^H + B A^H on one tile: rows i0.., columns j0.. of the region
 * (t, ld), ib x jb */
static void update_tile(const update_product *u, lapack_int i0, lapack_int j0,
                        lapack_int ib, lapack_int jb, gl_scalar *t,
                        lapack_int ld)
{
    lapack_int k = u->k;
    const gl_scalar *qh = u->qh + (size_t)j0 * 2 * k;
    if (u->pair) { /* C2 -= [A B] [B A]^H */
        GL_FN(tile_gemm)(ib, jb, 2 * k, GL_TILE_SUBTRACT, u->a + u->ahead + i0,
                         u->lda, ib, 2 * k, qh, 2 * k, t, ld);
        return;
    }
    GL_FN(tile_gemm)(ib, jb, k, GL_TILE_SUBTRACT, u->a + u->ahead + i0, u->lda,
                     ib, k, qh, 2 * k, t, ld);
    GL_FN(tile_gemm)(ib, jb, k, GL_TILE_SUBTRACT, u->b + u->ahead + i0, u->ldb,
                     ib, k, qh + k, 2 * k, t, ld);
}

/* The tile's update; the diagonal one's lower triangle by ?her2k (the
 * BLAS held at one thread), in cache as the others. */
static void tile_update(const update_product *u, lapack_int i0, lapack_int j0)
{
    lapack_int p = u->p, ldc = u->ldc, ib = p - i0 < TILE ? p - i0 : TILE,
               jb = p - j0 < TILE ? p - j0 : TILE;
    gl_scalar *t = u->c + u->ahead + i0 + (size_t)(u->ahead + j0) * ldc;
    if (i0 != j0) {
        update_tile(u, i0, j0, ib, jb, t, ldc);
        return;
    }
    gl_scalar minus = -1;
    gl_real one = 1;
    GL_FN(lapack_fns_get)()->her2k(
        "L", "N", &jb, &u->k, &minus, u->a + u->ahead + j0, &u->lda,
        u->b + u->ahead + j0, &u->ldb, &one, t, &ldc, 1, 1);
}

/* The updated tile's products: X_I += T S_J in the worker's rows and
 * X_J^H += S_I^H T; X_J^H += S_J^H D for the diagonal one, D Hermitian
 * in its lower triangle (?hemm from the right); update_pass_product. */
static void tile_products(const void *pass, int w, lapack_int i0,
                          lapack_int j0)
{
    const update_product *u = pass;
    lapack_int p = u->p, ks = u->ks, ldc = u->ldc,
               ib = p - i0 < TILE ? p - i0 : TILE,
               jb = p - j0 < TILE ? p - j0 : TILE;
    gl_scalar *xh = u->xh + (size_t)j0 * ks;
    const gl_scalar *t = u->c + u->ahead + i0 + (size_t)(u->ahead + j0) * ldc;
    if (i0 == j0) {
        gl_scalar one = 1;
        GL_FN(lapack_fns_get)()->hemm("R", "L", &ks, &jb, &one, t, &ldc,
                                      u->sh + (size_t)j0 * ks, &ks, &one, xh,
                                      &ks, 1, 1);
        return;
    }
    unsigned char *written = u->written + (size_t)w * u->tiles + i0 / TILE;
    GL_FN(tile_gemm)(ib, ks, jb, *written ? GL_TILE_ADD : GL_TILE_SET, t, ldc,
                     ib, jb, u->s + j0, u->lds,
                     u->xn + (size_t)w * p * ks + i0, p);
    *written = 1;
    GL_FN(tile_gemm)(ks, jb, ib, GL_TILE_ADD, u->sh + (size_t)i0 * ks, ks, ks,
                     ib, t, ldc, xh, ks);
}

/* Worker w: the lead's part first (w = 0), then block columns from the
 * counter, each from its diagonal tile down; before S is there, the
 * products of up to DEFERRED tiles wait for it. */
static int worker(void *arg, long w)
{
    update_product *u = arg;
    if (w == 0)
        lead(u);
    lapack_int k = u->k;
    update_pass_worker kept = {0};
    for (;;) {
        long jt = atomic_fetch_add_explicit(&u->next, 1, memory_order_relaxed);
        if (jt >= u->tiles)
            break;
        lapack_int j0 = (lapack_int)jt * TILE,
                   jb = u->p - j0 < TILE ? u->p - j0 : TILE;
        gl_scalar *qh = u->qh + (size_t)j0 * 2 * k;
        update_pass_adjoint(jb, k, u->b + u->ahead + j0, u->ldb, qh, 2 * k);
        update_pass_adjoint(jb, k, u->a + u->ahead + j0, u->lda, qh + k,
                            2 * k);
        for (lapack_int i0 = j0; i0 < u->p; i0 += TILE) {
            tile_update(u, i0, j0);
            update_pass_products(&kept, &u->s_ready, i0, j0, tile_products, u,
                                 (int)w);
        }
    }
    update_pass_finish(&kept, &u->s_ready, tile_products, u, (int)w);
    return 0;
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
    update_pass_adjoint(ks, r1 - r0, u->xh + (size_t)r0 * ks, ks, u->x + r0,
                        u->ldx);
    for (lapack_int q = 0; q < ks; q++) {
        gl_scalar *xq = u->x + (size_t)q * u->ldx;
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
    size_t region = (size_t)p,
           scalars = region * (2 * (size_t)k + 2 * (size_t)ks) +
                     (size_t)workers * region * (size_t)ks;
    size_t bytes =
        sizeof(gl_scalar) * scalars + (size_t)workers * (size_t)tiles;
    gl_scalar *work = gl_host_alloc(bytes);
    if (!work)
        return 1;
    /* the lead's task and the first columns: on one thread */
    GL_FN(ops) lead_ops = *ops;
    lead_ops.product_threads = 1;
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
                        .x = x,
                        .lead_ops = &lead_ops,
                        .task = task,
                        .arg = arg};
    u.pair = b == a + (size_t)k * lda && ldb == lda;
    u.qh = work;
    u.sh = u.qh + region * 2 * k;
    u.xh = u.sh + region * ks;
    u.xn = u.xh + region * ks;
    u.written = (unsigned char *)(u.xn + (size_t)workers * region * ks);
    memset(u.written, 0, (size_t)workers * (size_t)tiles);
    atomic_init(&u.next, 0);
    atomic_init(&u.s_ready, 0);

    gl_team_run(ops->product_team, workers, workers, worker, &u);
    if (u.task_rc == 0) {
        sum_job sj = {.u = &u, .workers = workers};
        gl_team_run(ops->product_team, tiles, ops->product_threads, sum_piece,
                    &sj);
    }
    gl_host_free(work);
    return u.task_rc;
}
