/* A context's queue state on the CUDA and HIP runtime (cudalike.h): its
 * stream and what it keeps, the device made current around each
 * operation, the error state, device memory, kernel launches, and
 * batches of launches recorded as graphs. */
#include <stdlib.h>

#include "../config.h"
#include "../fault.h"
#include "../log.h"
#include "cudalike.h"

/* A graph replays at most this many captured launches; longer batches are
 * cut into several graphs (instantiation cost grows with the node count). */
enum { GRAPH_LAUNCHES = 4096 };

/* The state of context ctx on its device (prepared), made with the device
 * current: its stream and the two staging events; staging, scratch, the
 * second stream and the cuBLAS handle come on first use. */
int open_queue(gl_ctx *ctx)
{
    ctx->queue = NULL;
    device_state *dev = device_of(ctx);
    queue_state *q = dev ? calloc(1, sizeof *q) : NULL;
    if (!q)
        return -1;
    drv_saved saved;
    drv_result rc = drv_enter(dev, &saved);
    if (rc == DRV_OK) {
        if ((rc = drv_stream_create(&q->stream)) != DRV_OK)
            q->stream = NULL;
        else if ((rc = drv_event_create(&q->staged[0])) != DRV_OK)
            q->staged[0] = NULL;
        else if ((rc = drv_event_create(&q->staged[1])) != DRV_OK)
            q->staged[1] = NULL;
        if (rc != DRV_OK) {
            for (int h = 0; h < 2; h++)
                if (q->staged[h])
                    drv_event_destroy(q->staged[h]);
            if (q->stream)
                drv_stream_destroy(q->stream);
        }
        drv_leave(saved);
    }
    if (rc != DRV_OK) {
        gl_log(1, API ": no stream on device %d (error %d)", ctx->device,
               (int)rc);
        free(q);
        return -1;
    }
    q->dev = dev;
    ctx->queue = q;
    return 0;
}

/* Waits for the context's work and frees its state. */
void close_queue(gl_ctx *ctx)
{
    queue_state *q = ctx->queue;
    if (!q)
        return;
    gl_ctx_memory_close(ctx);
    drv_saved saved;
    if (q->dev && drv_enter(q->dev, &saved) == DRV_OK) {
        if (q->stream)
            drv_stream_sync(q->stream);
        for (int h = 0; h < 2; h++) {
            if (q->stage[h])
                drv_host_free(q->stage[h]);
            if (q->staged[h])
                drv_event_destroy(q->staged[h]);
        }
        if (q->scratch)
            drv_free(q->scratch);
        if (q->blas)
            blas_free(q->blas);
        if (q->solver)
            solver_free(q);
        if (q->side) {
            drv_stream_sync(q->side);
            drv_stream_destroy(q->side);
        }
        if (q->mark)
            drv_event_destroy(q->mark);
        for (int i = 0; i < GL_LANES - 1; i++)
            if (q->lane[i]) {
                drv_stream_sync(q->lane[i]);
                drv_stream_destroy(q->lane[i]);
            }
        for (int e = 0; e < GL_LANE_EVENTS; e++)
            if (q->event[e])
                drv_event_destroy(q->event[e]);
        for (int r = 0; r < GL_HOST_RANGES; r++)
            if (q->registered[r].base)
                drv_host_unregister(q->registered[r].base);
        if (q->stream)
            drv_stream_destroy(q->stream);
        drv_leave(saved);
    }
    free(q);
    ctx->queue = NULL;
}

/* The state of context ctx, with its device made current (until leave());
 * NULL, with nothing to leave, on failure. */
queue_state *enter(gl_ctx *ctx, drv_saved *saved)
{
    queue_state *q = ctx ? ctx->queue : NULL;
    if (!q)
        return NULL;
    if (drv_enter(q->dev, saved) != DRV_OK) {
        q->failed = 1;
        return NULL;
    }
    return q;
}

void fail(gl_ctx *ctx)
{
    queue_state *q = ctx ? ctx->queue : NULL;
    if (q)
        q->failed = 1;
}

void reset(gl_ctx *ctx)
{
    queue_state *q = ctx ? ctx->queue : NULL;
    if (q) {
        q->failed = 0;
        q->marked = 0;   /* a mark holds within one call */
        q->recorded = 0;   /* and so do the lanes' records */
    }
}

/* ---- memory ------------------------------------------------------------- */

/* Memory of the operations is stream-ordered where the driver has it
 * (CUDA 11.2+): allocating and freeing cost no synchronization, and a free
 * takes effect after the work enqueued before it -- the operations
 * allocate scratch for every panel and product.  Otherwise the free waits
 * for the context's stream. */
void *alloc(gl_ctx *ctx, size_t bytes)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return NULL;
    void *p = NULL;
    if (bytes == 0)
        bytes = 1;
    drv_result rc = DRV_OK;
    if (gl_ctx_memory_allows(ctx, bytes) != 0) {
        gl_log(2, API ": allocation of %zu bytes refused: over "
                  "GPULAPACK_DEVICE_MEMORY_MB", bytes);
    } else if (gl_fault_hit(GL_FAULT_ALLOC) ||
               (rc = drv.async_memory
                         ? drv_malloc_async(&p, bytes, q->stream)
                         : drv_malloc(&p, bytes)) != DRV_OK) {
        gl_log(1, API ": allocation of %zu bytes failed (error %d)", bytes,
               (int)rc);
        gl_ctx_memory_refused(ctx);
        p = NULL;
    } else if (gl_ctx_memory_took(ctx, p, bytes) != 0) {
        if (drv.async_memory)
            drv_free_async(p, q->stream);
        else
            drv_free(p);
        p = NULL;
    }
    leave(saved);
    return p;
}

void release(gl_ctx *ctx, void *ptr)
{
    drv_saved saved;
    queue_state *q;
    if (!ptr || !(q = enter(ctx, &saved)))
        return;
    gl_ctx_memory_gave(ctx, ptr);
    if (drv.async_memory) {
        drv_free_async(ptr, q->stream);
    } else {
        drv_stream_sync(q->stream);
        drv_free(ptr);
    }
    leave(saved);
}

/* ---- kernels ---------------------------------------------------------------- */

enum { MAX_ARGS = 24 };

static int batch_cut(queue_state *q);

int launch_on(queue_state *q, int precision, gl_kernel k, int dims,
              const size_t *groups, const size_t *local, int nargs,
              const gl_arg *args)
{
    unsigned grid[2] = {1, 1}, block[2] = {1, 1};
    for (int d = 0; d < dims; d++) {
        if (groups[d] == 0)
            return 0;   /* nothing to do */
        if (groups[d] > (d == 0 ? 0x7fffffffu : 65535u))
            return -1;
        grid[d] = (unsigned)groups[d];
        block[d] = (unsigned)local[d];
    }
    drv_function *kernels = kernels_of(q->dev, precision);
    if (!kernels || nargs > MAX_ARGS || gl_fault_hit(GL_FAULT_LAUNCH))
        return -1;
    /* memory: the pointer and a zero offset (the pointer is exact) */
    static const long long zero_offset = 0;
    void *pointers[MAX_ARGS], *params[2 * MAX_ARGS];
    int np = 0;
    for (int i = 0; i < nargs; i++) {
        if (args[i].size) {
            params[np++] = (void *)args[i].value;
            continue;
        }
        pointers[i] = (void *)args[i].value;
        params[np++] = &pointers[i];
        params[np++] = (void *)&zero_offset;
    }
    drv_result rc = drv_launch(kernels[k], grid, block, q->stream, params);
    if (rc != DRV_OK) {
        gl_log(1, API ": launch of kernel %d failed (error %d)", (int)k,
               (int)rc);
        return -1;
    }
    if (q->capturing && ++q->captured >= GRAPH_LAUNCHES)
        return batch_cut(q);   /* replay what was recorded, record on */
    return 0;
}

int launch(gl_ctx *ctx, int precision, gl_kernel k, int dims, const size_t *groups,
           const size_t *local, int nargs, const gl_arg *args)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = checked(q, launch_on(q, precision, k, dims, groups, local, nargs,
                                  args) != 0);
    leave(saved);
    return rc;
}

/* ---- batches of launches as graphs -------------------------------------- */

/* A batch is recorded into a graph (stream capture) and replayed with one
 * launch: the bulge chasing's thousands of small wavefront launches cost
 * one submission per GRAPH_LAUNCHES instead of one each.  Where capture is
 * missing or off (GPULAPACK_GRAPHS=0), launches go out one by one. */
static int capture_start(queue_state *q)
{
    q->captured = 0;
    q->capturing = drv_capture_begin(q->stream) == DRV_OK;
    return q->capturing ? 0 : -1;
}

/* Ends the recording and launches it; 0 or -1. */
static int capture_finish(queue_state *q)
{
    drv_graph graph = NULL;
    drv_graph_exec exec = NULL;
    q->capturing = 0;
    drv_result rc = drv_capture_end(q->stream, &graph);
    const char *step = "end";
    if (rc == DRV_OK && graph && q->captured > 0) {
        step = "instantiation";
        if ((rc = drv_graph_instantiate(&exec, graph)) == DRV_OK) {
            step = "launch";
            rc = drv_graph_launch(exec, q->stream);
        }
    }
    drv_graph_free(exec, graph);
    if (rc != DRV_OK || !graph)
        gl_log(1, API ": graph %s failed (error %d)", step, (int)rc);
    return rc != DRV_OK || !graph ? -1 : 0;
}

static int batch_cut(queue_state *q)
{
    return capture_finish(q) != 0 || capture_start(q) != 0 ? -1 : 0;
}

void batch_begin(gl_ctx *ctx, int precision)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return;
    /* loading a module is no stream operation: not while recording */
    if (!kernels_of(q->dev, precision))
        q->failed = 1;
    else if (drv.graphs && gl_config_get()->graphs != 0 && !q->capturing &&
             !q->failed)
        checked(q, capture_start(q) != 0);
    leave(saved);
}

int batch_end(gl_ctx *ctx)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = q->capturing ? checked(q, capture_finish(q) != 0) : 0;
    leave(saved);
    return q->failed ? -1 : rc;
}

