#include "parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "config.h"
#include "log.h"
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

typedef struct spawn_arg {
    int (*fn)(void *ctx, long i);
    void *ctx;
    long i;
    atomic_int *go;      /* 0 wait, 1 run, -1 return */
    atomic_int *failed;
} spawn_arg;

static void *spawned(void *arg)
{
    spawn_arg *a = arg;
    int go;
    while ((go = atomic_load_explicit(a->go, memory_order_acquire)) == 0)
        sched_yield();
    if (go > 0 && a->fn(a->ctx, a->i) != 0)
        atomic_store(a->failed, 1);
    return NULL;
}

int gl_parallel_spawn(int count, int (*fn)(void *ctx, long i), void *ctx)
{
    if (count < 1)
        return 0;
    if (count > GL_HOST_MAX_THREADS)
        return -1;
    pthread_t helpers[GL_HOST_MAX_THREADS];
    spawn_arg args[GL_HOST_MAX_THREADS];
    atomic_int go, failed;
    atomic_init(&go, 0);
    atomic_init(&failed, 0);
    int started = 0;
    for (; started + 1 < count; started++) {
        args[started] = (spawn_arg){fn, ctx, started + 1, &go, &failed};
        if (pthread_create(&helpers[started], NULL, spawned, &args[started]))
            break;
    }
    int all = started + 1 == count;
    atomic_store_explicit(&go, all ? 1 : -1, memory_order_release);
    if (all && fn(ctx, 0) != 0)
        atomic_store(&failed, 1);
    for (int t = 0; t < started; t++)
        pthread_join(helpers[t], NULL);
    return all && !atomic_load(&failed) ? 0 : -1;
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

static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static int hold_count, held_threads;
static void (*held_set)(int);

int gl_products_begin(const gl_blas_threads *blas, int threads)
{
    if (!blas || !blas->get || !blas->set ||
        gl_config_get()->host_products == GL_HOST_PRODUCTS_BLAS)
        return 0;
    pthread_mutex_lock(&hold_lock);
    /* a second run finds the count at 1 already: the first's saved one
     * is the BLAS's own */
    int own = hold_count > 0 ? held_threads : blas->get();
    if (own < threads)
        threads = own;
    if (threads < 1)
        threads = 1;
    if (hold_count++ == 0) {
        held_threads = own;
        held_set = blas->set;
        blas->set(1);
        gl_log(3, "products: the BLAS's %d threads held at 1, ours %d", own,
               threads);
    }
    pthread_mutex_unlock(&hold_lock);
    return threads;
}

void gl_products_end(int threads)
{
    if (threads < 1)
        return;
    pthread_mutex_lock(&hold_lock);
    if (--hold_count == 0)
        held_set(held_threads);
    pthread_mutex_unlock(&hold_lock);
}
