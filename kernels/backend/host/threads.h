/* The host backend's threads (docs/design/host-threads.md): how many a
 * chase or the values-only stage 3 of a given size is worth, from the
 * context's tuning (its schedule, its values mode, the tune file's
 * host-threads lines) and the CPUs the process may run on at the time
 * (gl_host_threads).  Precision-neutral, for chase.c, host_ops.c and
 * testing/unit/test_host_threads.c. */
#ifndef GL_BACKEND_HOST_THREADS_H
#define GL_BACKEND_HOST_THREADS_H

#include "../../../runtime/config.h"
#include "../../../runtime/tune.h"

/* The threads the tune file's host-threads line of the largest n not
 * above this one measured fastest for the stage (tune.h GL_HOST_STAGE_*);
 * 0 without one. */
static inline int gl_host_measured(const gl_tuning *t, int stage, long n)
{
    long best_n = -1;
    int threads = 0;
    for (int i = 0; i < t->host_lines; i++) {
        const gl_host_threads_line *line = &t->host_line[i];
        if (line->stage == stage && line->n <= n && line->n > best_n) {
            best_n = line->n;
            threads = line->threads;
        }
    }
    return threads;
}

/* Threads of the host chase of order n and half-width b in the split
 * schedule (split 1) or the sweeps one (0): at most gl_host_threads()
 * and the measured line's; split, each at least 4 steps of a sweep's
 * n/b (shorter ranges wait at every step); sweeps, n/(3b) + 1 (the
 * sweeps that can run at once, three steps apart). */
static inline int gl_host_chase_threads(const gl_tuning *t, long n, int b,
                                        int split)
{
    long steps = n / (b > 1 ? b : 1);
    long useful = split ? steps / 4 : n / (3L * (b > 1 ? b : 1)) + 1;
    int threads = gl_host_threads(),
        measured = gl_host_measured(t, GL_HOST_STAGE_CHASE, n);
    if (measured > 0 && measured < threads)
        threads = measured;
    if (useful < 1)
        useful = 1;
    return threads < useful ? threads : (int)useful;
}

/* Threads of the host's values-only stage 3 (values.c) for order n: 0
 * where the system's ?sterf / ?bdsqr serves (GPULAPACK_HOST_VALUES =
 * lapack, or below 32 rows, where the bisection's vectors of 32 values
 * run mostly empty lanes and ?sterf's few sweeps cost microseconds), else
 * at most gl_host_threads() and the measured line's, one per 256 rows
 * (each thread's share then takes well over the ~50 us a thread costs to
 * start). */
static inline int gl_host_values_threads(const gl_tuning *t, long n)
{
    if (t->host_values == GL_VALUES_LAPACK ||
        (t->host_values == GL_VALUES_TUNED && n < 32))
        return 0;
    long useful = n / 256 > 1 ? n / 256 : 1;
    int threads = gl_host_threads(),
        measured = gl_host_measured(t, GL_HOST_STAGE_VALUES, n);
    if (measured > 0 && measured < threads)
        threads = measured;
    return threads < useful ? threads : (int)useful;
}

/* Threads of stage 1's products for order n (products.c, a run of
 * products: runtime/parallel.h gl_products_begin, which also keeps them
 * within the BLAS's own count): at most gl_host_threads() and the
 * measured line's; each product then takes fewer where it is small. */
static inline int gl_host_products_threads(const gl_tuning *t, long n)
{
    int threads = gl_host_threads(),
        measured = gl_host_measured(t, GL_HOST_STAGE_PRODUCTS, n);
    return measured > 0 && measured < threads ? measured : threads;
}

#endif
