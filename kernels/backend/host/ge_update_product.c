/* ge2gb's rank-b update of the rest of the matrix and the next panel's
 * product in one pass over it (ops.h ge_update_ahead), on the run's
 * threads: the two-sided reduction's counterpart of update_product.c.
 *
 * Done apart, each step of ge2gb reads the rest of the matrix twice (the
 * QR's Y = C^H V and the LQ's X = C W) and reads and writes it twice (the
 * two rank-b updates), each through the system BLAS, which packs it for
 * 128 flops per element at b = 64: OpenBLAS ran W = C^H V at 78 GFLOP/s
 * and the rank-b update at 93 on the 2 cores of epyc-2core, against 108
 * for a square product (bench_blas_shapes).  Here the left update comes
 * with the right side's X = C2 Z, and the right update with the next
 * QR's Y = C3^H Z: two passes that each read and write every tile once,
 * updated and multiplied in cache by the register-tiled kernel.  On those
 * 2 cores, 5-13% quicker than the products apart: the default
 * (GPULAPACK_HOST_PRODUCTS auto; docs/design/host-threads.md).
 *
 * lines 'R' (the left update, then X = C2 Z): block rows of tiles from a
 * shared counter, each worker the only one to write its rows of X.
 * lines 'C' (the right update, then X = C2^H Z): block columns, each
 * worker the only one to write its columns of X^H, conjugate-transposed
 * into X by a last run. */
#include <complex.h>
#include <stdatomic.h>
#include <string.h>

#include "../../../runtime/memory.h"
#include "../../../runtime/precision.h"
#include "host.h"
#include "update_pass.h"

typedef struct ge_pass {
    char lines;
    /* the region C2: rm x rn from C(r0, c0) */
    lapack_int k, ahead, rm, rn, r0, c0, ks, tiles, ldu, ldw, ldc, ldz, ldx;
    const gl_scalar *u, *w, *z;
    gl_scalar *c, *x;
    const GL_FN(ops) *lead_ops; /* whole products */
    GL_FN(ops_task) *task;
    void *arg;
    int task_rc;
    atomic_int ready;   /* 0 not yet, 1 the task and Z^H are done, -1 failed */
    gl_scalar *wh;      /* W^H of the region's columns (k x rn) */
    gl_scalar *zh;      /* 'C': Z^H (ks x rm) */
    gl_scalar *xh;      /* 'C': X^H (ks x rn) */
    atomic_long next;
} ge_pass;

/* The lead (worker 0): C's first `ahead` lines, the task, then Z^H and a
 * zero X^H ('C'). */
static void ge_lead(ge_pass *g)
{
    const GL_FN(ops) *o = g->lead_ops;
    lapack_int k = g->k, ahead = g->ahead;
    if (ahead > 0) {
        if (g->lines == 'R')
            o->gemm(o, 'N', 'C', ahead, g->rn, k, -1, g->u, g->ldu, g->w,
                    g->ldw, 1, g->c, g->ldc);
        else
            o->gemm(o, 'N', 'C', g->rm, ahead, k, -1, g->u, g->ldu, g->w,
                    g->ldw, 1, g->c, g->ldc);
    }
    g->task_rc = g->task(o, g->arg);
    if (g->task_rc == 0 && g->lines == 'C') {
        update_pass_adjoint(g->rm, g->ks, g->z, g->ldz, g->zh, g->ks);
        memset(g->xh, 0, sizeof *g->xh * (size_t)g->ks * (size_t)g->rn);
    }
    atomic_store_explicit(&g->ready, g->task_rc == 0 ? 1 : -1,
                          memory_order_release);
}

/* W^H's columns j0 .. j0 + jb (the region's) */
static void w_adjoint(const ge_pass *g, lapack_int j0, lapack_int jb)
{
    const gl_scalar *w = g->w + (g->lines == 'C' ? g->ahead : 0);
    update_pass_adjoint(jb, g->k, w + j0, g->ldw, g->wh + (size_t)j0 * g->k,
                        g->k);
}

static int w_adjoint_piece(void *arg, long i)
{
    const ge_pass *g = arg;
    lapack_int j0 = (lapack_int)i * TILE;
    w_adjoint(g, j0, g->rn - j0 < TILE ? g->rn - j0 : TILE);
    return 0;
}

static gl_scalar *region_tile(const ge_pass *g, lapack_int i0, lapack_int j0)
{
    return g->c + g->r0 + i0 + (size_t)(g->c0 + j0) * g->ldc;
}

static void ge_tile_update(const ge_pass *g, lapack_int i0, lapack_int j0)
{
    lapack_int ib = g->rm - i0 < TILE ? g->rm - i0 : TILE,
               jb = g->rn - j0 < TILE ? g->rn - j0 : TILE;
    GL_FN(tile_gemm)(ib, jb, g->k, GL_TILE_SUBTRACT, g->u + g->r0 + i0,
                     g->ldu, ib, g->k, g->wh + (size_t)j0 * g->k, g->k,
                     region_tile(g, i0, j0), g->ldc);
}

/* 'R': X_I += T Z_J; 'C': X_J^H += Z_I^H T (update_pass_product) */
static void ge_tile_product(const void *pass, int worker, lapack_int i0,
                            lapack_int j0)
{
    const ge_pass *g = pass;
    (void)worker; /* each line of X is one worker's */
    lapack_int ib = g->rm - i0 < TILE ? g->rm - i0 : TILE,
               jb = g->rn - j0 < TILE ? g->rn - j0 : TILE, ks = g->ks;
    const gl_scalar *t = region_tile(g, i0, j0);
    if (g->lines == 'R')
        GL_FN(tile_gemm)(ib, ks, jb, GL_TILE_ADD, t, g->ldc, ib, jb,
                         g->z + j0, g->ldz, g->x + i0, g->ldx);
    else
        GL_FN(tile_gemm)(ks, jb, ib, GL_TILE_ADD, g->zh + (size_t)i0 * ks,
                         ks, ks, ib, t, g->ldc, g->xh + (size_t)j0 * ks, ks);
}

/* Worker w: the lead's part first (w = 0), then block rows ('R') or
 * columns ('C') from the counter; before Z is there, the products of up
 * to DEFERRED tiles wait for it. */
static int ge_worker(void *arg, long w)
{
    ge_pass *g = arg;
    if (w == 0)
        ge_lead(g);
    update_pass_worker kept = {0};
    int by_rows = g->lines == 'R';
    lapack_int along = by_rows ? g->rn : g->rm;
    for (;;) {
        long line = atomic_fetch_add_explicit(&g->next, 1,
                                              memory_order_relaxed);
        if (line >= g->tiles)
            break;
        lapack_int l0 = (lapack_int)line * TILE;
        if (by_rows) { /* the worker's rows of X, summed from zero */
            lapack_int ib = g->rm - l0 < TILE ? g->rm - l0 : TILE;
            for (lapack_int q = 0; q < g->ks; q++)
                memset(g->x + l0 + (size_t)q * g->ldx, 0,
                       sizeof *g->x * (size_t)ib);
        } else {
            w_adjoint(g, l0, g->rn - l0 < TILE ? g->rn - l0 : TILE);
        }
        for (lapack_int o0 = 0; o0 < along; o0 += TILE) {
            lapack_int i0 = by_rows ? l0 : o0, j0 = by_rows ? o0 : l0;
            ge_tile_update(g, i0, j0);
            update_pass_products(&kept, &g->ready, i0, j0, ge_tile_product, g,
                                 (int)w);
        }
    }
    update_pass_finish(&kept, &g->ready, ge_tile_product, g, (int)w);
    return 0;
}

/* 'C': X = (X^H)^H, rows of tile row i */
static int x_from_adjoint(void *arg, long i)
{
    const ge_pass *g = arg;
    lapack_int r0 = (lapack_int)i * TILE,
               r1 = r0 + TILE < g->rn ? r0 + TILE : g->rn;
    update_pass_adjoint(g->ks, r1 - r0, g->xh + (size_t)r0 * g->ks, g->ks,
                        g->x + r0, g->ldx);
    return 0;
}

/* gl_s_products_ge_update gl_d_products_ge_update gl_c_products_ge_update gl_z_products_ge_update */
int GL_FN(products_ge_update)(const GL_FN(ops) *ops, char lines, lapack_int m,
                              lapack_int n, lapack_int k, const gl_scalar *u,
                              lapack_int ldu, const gl_scalar *w,
                              lapack_int ldw, gl_scalar *c, lapack_int ldc,
                              lapack_int ahead, GL_FN(ops_task) *task,
                              void *arg, lapack_int ks, const gl_scalar *z,
                              lapack_int ldz, gl_scalar *x, lapack_int ldx)
{
    int by_rows = lines == 'R';
    lapack_int rm = by_rows ? m - ahead : m, rn = by_rows ? n : n - ahead;
    /* the vector kernels only: the portable one is no match for the BLAS */
    if (ops->product_threads < 1 || !GL_FN(tile_gemm_vector)() ||
        rm < 2 * TILE || rn < 2 * TILE || ahead < 0 || k < 1 || ks < 1)
        return 1;
    lapack_int tiles = ((by_rows ? rm : rn) + TILE - 1) / TILE;
    int workers = ops->product_threads < tiles ? ops->product_threads
                                               : (int)tiles;
    size_t scalars = (size_t)rn * (size_t)k +
                     (by_rows ? 0 : (size_t)ks * ((size_t)rm + (size_t)rn));
    gl_scalar *work = gl_host_alloc(sizeof *work * scalars);
    if (!work)
        return 1;
    GL_FN(ops) lead_ops = *ops;
    lead_ops.product_threads = 1;
    ge_pass g = {.lines = by_rows ? 'R' : 'C',
                 .k = k,
                 .ahead = ahead,
                 .rm = rm,
                 .rn = rn,
                 .r0 = by_rows ? ahead : 0,
                 .c0 = by_rows ? 0 : ahead,
                 .ks = ks,
                 .tiles = tiles,
                 .ldu = ldu,
                 .ldw = ldw,
                 .ldc = ldc,
                 .ldz = ldz,
                 .ldx = ldx,
                 .u = u,
                 .w = w,
                 .z = z,
                 .c = c,
                 .x = x,
                 .lead_ops = &lead_ops,
                 .task = task,
                 .arg = arg};
    g.wh = work;
    g.zh = g.wh + (size_t)rn * k;
    g.xh = g.zh + (by_rows ? 0 : (size_t)ks * rm);
    atomic_init(&g.next, 0);
    atomic_init(&g.ready, 0);
    /* by rows, every block row needs all of W^H */
    if (by_rows)
        gl_team_run(ops->product_team, (rn + TILE - 1) / TILE,
                    ops->product_threads, w_adjoint_piece, &g);
    gl_team_run(ops->product_team, workers, workers, ge_worker, &g);
    if (g.task_rc == 0 && !by_rows)
        gl_team_run(ops->product_team, (rn + TILE - 1) / TILE,
                    ops->product_threads, x_from_adjoint, &g);
    gl_host_free(work);
    return g.task_rc;
}
