/* What the host's update-and-product passes share (update_product.c,
 * ge_update_product.c): their tiles, and a worker's wait for the lead's
 * task. */
#ifndef GL_UPDATE_PASS_H
#define GL_UPDATE_PASS_H

#include <complex.h>
#include <sched.h>
#include <stdatomic.h>

#include "../../../runtime/fortran.h"
#include "../../../runtime/precision.h"

/* A tile's scalars fill at most about half of a 1 MiB L2 (Zen 4; 2 MiB
 * on Sapphire Rapids): 512 KiB in double and single complex, 576 KiB in
 * double complex. */
enum { TILE = sizeof(gl_scalar) <= 8 ? 256 : 192 };

/* Tiles a worker may update before the task's output is there, their
 * products left for later: the lead's part (the first lines' update and
 * the panel's factorization) takes about 2 ms at n = 4000, in which a
 * core updates about 7 tiles. */
enum { DEFERRED = 16 };

static inline gl_scalar update_pass_conj(gl_scalar x)
{
#if GL_COMPLEX
    return conj(x);
#else
    return x;
#endif
}

/* dst (cols x rows, ld ldd) = src^H (rows x cols, ld lds), a column of
 * src at a time: its reads run along memory */
static inline void update_pass_adjoint(lapack_int rows, lapack_int cols,
                                       const gl_scalar *src, lapack_int lds,
                                       gl_scalar *dst, lapack_int ldd)
{
    for (lapack_int q = 0; q < cols; q++)
        for (lapack_int r = 0; r < rows; r++)
            dst[q + (size_t)r * ldd] =
                update_pass_conj(src[r + (size_t)q * lds]);
}

/* The lead's flag: 1 once its output is there, -1 if it never will be
 * (the task failed), 0 before; waits for it where `wait`. */
static inline int update_pass_ready(atomic_int *flag, int wait)
{
    int ready;
    while ((ready = atomic_load_explicit(flag, memory_order_acquire)) == 0 &&
           wait)
        sched_yield();
    return ready;
}

/* A worker's tiles updated before the lead's output was there: their
 * products wait for it, up to DEFERRED tiles, then the worker does. */
typedef struct update_pass_worker {
    int ready, count;
    lapack_int tile[2 * DEFERRED]; /* (i0, j0) */
} update_pass_worker;

/* A pass's products of its tile (i0, j0), by worker `worker` */
typedef void update_pass_product(const void *pass, int worker, lapack_int i0,
                                 lapack_int j0);

/* The kept tiles' products, in the order they were kept: a line of X
 * then sums its tiles in the order its worker updated them, whenever the
 * lead's output came, so that a call gives the same bits every time. */
static inline void update_pass_kept(update_pass_worker *w,
                                    update_pass_product *product,
                                    const void *pass, int worker)
{
    for (int i = 0; i < w->count; i++)
        product(pass, worker, w->tile[2 * i], w->tile[2 * i + 1]);
    w->count = 0;
}

/* After the update of tile (i0, j0): the kept tiles' products, then its
 * own, once the lead's output is there; before, the tile is kept (up to
 * DEFERRED, then the worker waits); never where the task failed. */
static inline void update_pass_products(update_pass_worker *w,
                                        atomic_int *flag, lapack_int i0,
                                        lapack_int j0,
                                        update_pass_product *product,
                                        const void *pass, int worker)
{
    if (w->ready == 0)
        w->ready = update_pass_ready(flag, w->count == DEFERRED);
    if (w->ready == 0) {
        w->tile[2 * w->count] = i0;
        w->tile[2 * w->count + 1] = j0;
        w->count++;
        return;
    }
    if (w->ready < 0)
        return;
    update_pass_kept(w, product, pass, worker);
    product(pass, worker, i0, j0);
}

/* The end of a worker's tiles: the kept ones' products once the lead's
 * output is there (none where the task failed). */
static inline void update_pass_finish(update_pass_worker *w, atomic_int *flag,
                                      update_pass_product *product,
                                      const void *pass, int worker)
{
    if (w->count > 0 && update_pass_ready(flag, 1) > 0)
        update_pass_kept(w, product, pass, worker);
}

#endif
