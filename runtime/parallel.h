/* A parallel loop for the host kernels: no thread lives between calls
 * (a library loaded into any program must not keep threads); a team
 * (gl_team below) lives for one stage's run of products. */
#ifndef GL_PARALLEL_H
#define GL_PARALLEL_H

/* Upper bound of the threads the host kernels start. */
#define GL_HOST_MAX_THREADS 64

/* One turn of a spin-wait loop: x86's PAUSE (no pipeline flush when the
 * loop ends, and a hyper-thread sibling gets the core); nothing
 * elsewhere. */
static inline void gl_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

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

/* A team: threads - 1 workers that wait between the loops of a run
 * (a stage's products) instead of starting for each; NULL where threads
 * < 2 or no worker started (loops then start their threads).  The
 * caller that started it runs its loops and stops it; a loop run inside
 * another of the team's (from an item) starts threads of its own. */
typedef struct gl_team gl_team;
gl_team *gl_team_start(int threads);
void gl_team_stop(gl_team *team); /* NULL: nothing */
/* gl_parallel_run on the team's workers and the caller (team NULL:
 * gl_parallel_run itself) */
int gl_team_run(gl_team *team, long count, int threads,
                int (*fn)(void *ctx, long i), void *ctx);

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
