/* Execution contexts (context.h): made on first need per (path, device),
 * pooled, never freed. */
#include "context.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "config.h"
#include "device.h"
#include "log.h"
#include "profile.h"

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static gl_ctx *pool;   /* the contexts no call holds */

static gl_ctx *make(gl_path path, const gl_gpu *runtime, int device)
{
    gl_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->path = path;
    ctx->runtime = ctx->gpu = runtime;
    ctx->device = device;
    if (runtime) {
        ctx->info = runtime->device(device);
        if (!ctx->info || runtime->prepare(device) != 0 ||
            runtime->open(ctx) != 0) {
            free(ctx);
            return NULL;
        }
    }
    gl_tune_snapshot(ctx->info, &ctx->tuning);
    return ctx;
}

gl_ctx *gl_ctx_acquire(gl_path path, int device)
{
    const gl_gpu *runtime = NULL;
    if (path == GL_PATH_HOST) {
        device = -1;
    } else {
        runtime = gl_device_gpu(path);
        if (!runtime)
            return NULL;
        if (device < 0)
            device = gl_device_chosen_index(path);
        if (device < 0 || device >= runtime->device_count())
            return NULL;
    }
    pthread_mutex_lock(&pool_lock);
    gl_ctx **link = &pool;
    while (*link && ((*link)->path != path || (*link)->device != device))
        link = &(*link)->next;
    gl_ctx *ctx = *link;
    if (ctx)
        *link = ctx->next;
    pthread_mutex_unlock(&pool_lock);
    if (!ctx && !(ctx = make(path, runtime, device)))
        return NULL;
    ctx->next = NULL;
    if (runtime)
        runtime->reset(ctx);
    ctx->memory.peak = ctx->memory.in_use;
    ctx->memory.refused = 0;
    ctx->memory.limit = gl_device_memory_cap();
    ctx->memory.capped = ctx->memory.limit != SIZE_MAX;
    gl_profile_begin(ctx);
    return ctx;
}

static int add_devices(gl_ctx *ctx, const int *devices, int count)
{
    for (int p = 0; p < count && ctx->npeers < GL_MAX_DEVICE_SET - 1; p++) {
        gl_ctx *peer = gl_ctx_acquire(ctx->path, devices[p]);
        if (peer)
            ctx->peers[ctx->npeers++] = peer;
    }
    return ctx->npeers;
}

int gl_ctx_add_peers(gl_ctx *ctx)
{
    int peers[GL_MAX_DEVICE_SET];
    int count = ctx->runtime ? gl_device_peers(ctx->path, peers) : 0;
    return add_devices(ctx, peers, count);
}

int gl_ctx_add_spares(gl_ctx *ctx, int most)
{
    int spares[GL_MAX_DEVICE_SET];
    int count = ctx->runtime ? gl_device_spares(ctx->path, spares) : 0;
    return add_devices(ctx, spares, count < most ? count : most);
}

int gl_ctx_spare_count(const gl_ctx *ctx)
{
    int spares[GL_MAX_DEVICE_SET];
    return ctx->runtime ? gl_device_spares(ctx->path, spares) : 0;
}

void gl_ctx_release(gl_ctx *ctx)
{
    if (!ctx)
        return;
    for (int p = 0; p < ctx->npeers; p++)
        gl_ctx_release(ctx->peers[p]);
    ctx->npeers = 0;
    /* a call that failed part way may have left work queued: the next
     * call on this context starts from an idle queue */
    if (ctx->runtime)
        ctx->runtime->finish(ctx);
    ctx->gpu = ctx->runtime;
    pthread_mutex_lock(&pool_lock);
    ctx->next = pool;
    pool = ctx;
    pthread_mutex_unlock(&pool_lock);
}

int gl_ctx_has_vendor_solver(gl_ctx *ctx)
{
    const gl_gpu *rt = ctx ? ctx->runtime : NULL;
    return rt && rt->solver_ready && rt->eig_solve && ctx->queue
               ? rt->solver_ready(ctx)
               : 0;
}

int gl_ctx_memory_allows(gl_ctx *ctx, size_t bytes)
{
    gl_device_ledger *m = &ctx->memory;
    if (!m->capped ||
        (m->in_use <= m->limit && bytes <= m->limit - m->in_use))
        return 0;
    m->refused = 1;
    return -1;
}

void gl_ctx_memory_refused(gl_ctx *ctx) { ctx->memory.refused = 1; }

int gl_ctx_memory_took(gl_ctx *ctx, void *ptr, size_t bytes)
{
    gl_device_ledger *m = &ctx->memory;
    if (m->count == m->capacity) {
        size_t capacity = m->capacity ? 2 * m->capacity : 32;
        struct gl_ledger_entry *grown =
            realloc(m->live, sizeof *grown * capacity);
        if (!grown)
            return -1;
        m->live = grown;
        m->capacity = capacity;
    }
    m->live[m->count++] = (struct gl_ledger_entry){ptr, bytes};
    m->in_use += bytes;
    if (m->in_use > m->peak)
        m->peak = m->in_use;
    gl_log(3, "device memory: +%zu bytes, %zu in use", bytes, m->in_use);
    return 0;
}

void gl_ctx_memory_gave(gl_ctx *ctx, void *ptr)
{
    gl_device_ledger *m = &ctx->memory;
    /* the latest first: scratch is released soon after it is taken */
    for (size_t i = m->count; i-- > 0;)
        if (m->live[i].ptr == ptr) {
            m->in_use -= m->live[i].bytes;
            gl_log(3, "device memory: -%zu bytes, %zu in use",
                   m->live[i].bytes, m->in_use);
            m->live[i] = m->live[--m->count];
            return;
        }
}

void gl_ctx_memory_close(gl_ctx *ctx)
{
    free(ctx->memory.live);
    ctx->memory = (gl_device_ledger){0};
}
