/* A parallel loop for the host kernels: no thread pool lives between
 * calls (a library loaded into any program must not keep threads). */
#ifndef GL_PARALLEL_H
#define GL_PARALLEL_H

/* Upper bound of the threads the host kernels start. */
#define GL_HOST_MAX_THREADS 64

/* Runs fn(ctx, i) for i = 0 .. count-1 on up to gl_host_threads() threads,
 * the caller's included, each claiming the next item from a shared
 * counter (so items may take unequal times).  Returns 0, or -1 when fn
 * returned nonzero for some item (the others still run). */
int gl_parallel_for(long count, int (*fn)(void *ctx, long i), void *ctx);

/* The same on up to `threads` threads (at least one), as a stage chose
 * them for its call (runtime/tune_params.c). */
int gl_parallel_run(long count, int threads, int (*fn)(void *ctx, long i),
                    void *ctx);

/* fn(ctx, i) for i = 0 .. count-1 at once, each on a thread of its own
 * (the caller's runs 0), for work whose items wait for each other; all of
 * them or none: where a thread cannot start, nothing runs.  Returns 0, or
 * -1 when fn returned nonzero or the threads did not all start. */
int gl_parallel_spawn(int count, int (*fn)(void *ctx, long i), void *ctx);

/* The system BLAS's own thread count, through its functions
 * (openblas_get_num_threads, ...); either NULL: unknown, not settable. */
typedef struct gl_blas_threads {
    int (*get)(void);
    void (*set)(int);
} gl_blas_threads;

/* A run of products on the library's threads (a stage of many BLAS3
 * calls, kernels/backend/host/products.c): from gl_products_begin to
 * gl_products_end, the system BLAS is held at one thread and the run's
 * large products are cut into pieces, each a whole BLAS call, taken by
 * up to the threads gl_products_begin returns: `threads` (as the stage's
 * size chose them, kernels/backend/host/threads.h; at least 1) at most
 * the BLAS's own count.  It returns 0, holding nothing, where the BLAS's
 * count cannot be set or GPULAPACK_HOST_PRODUCTS=blas: the products then
 * go to the BLAS whole, on its own threads.  Concurrent runs share the
 * hold: the first saves the BLAS's count, the last restores it. */
int gl_products_begin(const gl_blas_threads *blas, int threads);
/* Ends a run gl_products_begin returned `threads` for. */
void gl_products_end(int threads);

#endif
