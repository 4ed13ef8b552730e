#include "parallel.h"

#include <pthread.h>
#include <stdatomic.h>

#include "tune.h"

typedef struct loop {
    long count;
    int (*fn)(void *ctx, long i);
    void *ctx;
    atomic_long next;
    atomic_int failed;
} loop;

static void *run_items(void *arg)
{
    loop *l = arg;
    for (long i; (i = atomic_fetch_add(&l->next, 1)) < l->count;)
        if (l->fn(l->ctx, i) != 0)
            atomic_store(&l->failed, 1);
    return NULL;
}

int gl_parallel_for(long count, int (*fn)(void *ctx, long i), void *ctx)
{
    return gl_parallel_run(count, gl_host_threads(), fn, ctx);
}

int gl_parallel_run(long count, int threads, int (*fn)(void *ctx, long i),
                    void *ctx)
{
    loop l = {.count = count, .fn = fn, .ctx = ctx};
    atomic_init(&l.next, 0);
    atomic_init(&l.failed, 0);
    long nthreads = threads > 0 ? threads : 1;
    if (nthreads > count)
        nthreads = count;
    if (nthreads > GL_HOST_MAX_THREADS)
        nthreads = GL_HOST_MAX_THREADS;
    pthread_t helpers[GL_HOST_MAX_THREADS];
    int started = 0;
    /* a thread that cannot start leaves its items to the others */
    while (started + 1 < nthreads &&
           pthread_create(&helpers[started], NULL, run_items, &l) == 0)
        started++;
    run_items(&l);
    for (int t = 0; t < started; t++)
        pthread_join(helpers[t], NULL);
    return atomic_load(&l.failed) ? -1 : 0;
}
