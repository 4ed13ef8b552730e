/* Execution contexts (context.h): made on first need per (path, device),
 * pooled, never freed. */
#include "context.h"

#include <pthread.h>
#include <stdlib.h>

#include "device.h"
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
    ctx->method = GL_METHOD_TWO_STAGE;
    gl_profile_begin(ctx);
    return ctx;
}

void gl_ctx_release(gl_ctx *ctx)
{
    if (!ctx)
        return;
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
