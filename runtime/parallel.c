#include "parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

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

/* ---- a team: a run's workers, started once ---------------------------
 * A run of products makes many parallel loops (dsyevd N, n = 4000: 178
 * in stage 1), each of which started its threads and joined them: 55-200
 * us a loop on 2 threads here, on 16 cores 15 starts a loop.  A team's
 * workers wait between loops instead, first spinning (the next loop of a
 * run comes a fraction of a millisecond after the last one) and then
 * asleep, and live until the run ends (no thread outlives a call). */
enum { TEAM_SPINS = 1 << 8 };

typedef struct team_member {
    gl_team *team;
    int id; /* 0 .. workers-1: takes part in a loop wanting more */
} team_member;

struct gl_team {
    pthread_mutex_t lock;
    pthread_cond_t wake;    /* workers: a loop, or the stop */
    pthread_cond_t idle;    /* the caller: the loop's workers are done */
    atomic_long generation; /* changed under lock: each loop, the stop */
    int wanted;             /* workers of this loop: ids below it */
    int stop;
    loop *job;
    atomic_int pending; /* this loop's workers not done with it */
    atomic_int busy;    /* a loop runs: a loop inside it starts threads */
    int workers;
    pthread_t threads[GL_HOST_MAX_THREADS];
    team_member members[GL_HOST_MAX_THREADS];
};

static void *team_worker(void *arg)
{
    const team_member *me = arg;
    gl_team *t = me->team;
    long seen = 0;
    for (;;) {
        for (int spins = 0; spins < TEAM_SPINS &&
                            atomic_load_explicit(&t->generation,
                                                 memory_order_acquire) == seen;
             spins++)
            gl_pause();
        pthread_mutex_lock(&t->lock);
        while (atomic_load_explicit(&t->generation, memory_order_relaxed) ==
               seen)
            pthread_cond_wait(&t->wake, &t->lock);
        seen = atomic_load_explicit(&t->generation, memory_order_relaxed);
        int stop = t->stop, take = me->id < t->wanted;
        loop *job = t->job;
        pthread_mutex_unlock(&t->lock);
        if (stop)
            return NULL;
        if (!take)
            continue;
        run_items(job);
        if (atomic_fetch_sub_explicit(&t->pending, 1, memory_order_acq_rel) ==
            1) {
            pthread_mutex_lock(&t->lock);
            pthread_cond_signal(&t->idle);
            pthread_mutex_unlock(&t->lock);
        }
    }
}

gl_team *gl_team_start(int threads)
{
    if (threads < 2)
        return NULL;
    if (threads > GL_HOST_MAX_THREADS)
        threads = GL_HOST_MAX_THREADS;
    gl_team *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    pthread_cond_init(&t->idle, NULL);
    atomic_init(&t->generation, 0);
    atomic_init(&t->pending, 0);
    atomic_init(&t->busy, 0);
    while (t->workers + 1 < threads) {
        team_member *m = &t->members[t->workers];
        *m = (team_member){t, t->workers};
        if (pthread_create(&t->threads[t->workers], NULL, team_worker, m))
            break;
        t->workers++;
    }
    if (t->workers == 0) {
        gl_team_stop(t);
        return NULL;
    }
    return t;
}

void gl_team_stop(gl_team *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->lock);
    t->stop = 1;
    atomic_fetch_add_explicit(&t->generation, 1, memory_order_release);
    pthread_cond_broadcast(&t->wake);
    pthread_mutex_unlock(&t->lock);
    for (int w = 0; w < t->workers; w++)
        pthread_join(t->threads[w], NULL);
    pthread_cond_destroy(&t->idle);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

int gl_team_run(gl_team *t, long count, int threads,
                int (*fn)(void *ctx, long i), void *ctx)
{
    if (!t || atomic_exchange(&t->busy, 1))
        return gl_parallel_run(count, threads, fn, ctx);
    loop l = {.count = count, .fn = fn, .ctx = ctx};
    atomic_init(&l.next, 0);
    atomic_init(&l.failed, 0);
    long helpers = (threads < count ? threads : count) - 1;
    if (helpers > t->workers)
        helpers = t->workers;
    if (helpers > 0) {
        atomic_store_explicit(&t->pending, (int)helpers, memory_order_relaxed);
        pthread_mutex_lock(&t->lock);
        t->job = &l;
        t->wanted = (int)helpers;
        atomic_fetch_add_explicit(&t->generation, 1, memory_order_release);
        pthread_cond_broadcast(&t->wake);
        pthread_mutex_unlock(&t->lock);
    }
    run_items(&l);
    if (helpers > 0) {
        for (int spins = 0;
             spins < TEAM_SPINS &&
             atomic_load_explicit(&t->pending, memory_order_acquire) > 0;
             spins++)
            gl_pause();
        pthread_mutex_lock(&t->lock);
        while (atomic_load_explicit(&t->pending, memory_order_acquire) > 0)
            pthread_cond_wait(&t->idle, &t->lock);
        pthread_mutex_unlock(&t->lock);
    }
    atomic_store(&t->busy, 0);
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
