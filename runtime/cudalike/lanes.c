/* The copy lanes of the CUDA and HIP runtime (cudalike.h, gpu.h
 * lane_write): two streams beside a context's own, ordered by events, and
 * the host memory registered for their copies. */
#include <stdint.h>

#include "../fault.h"
#include "cudalike.h"

/* The stream of queue i (gpu.h GL_LANE_*), a lane's made on first use;
 * NULL if there is none. */
static drv_stream queue_stream(queue_state *q, int i)
{
    if (i == GL_LANE_COMPUTE)
        return q->stream;
    if (i < 0 || i >= GL_LANES)
        return NULL;
    drv_stream *s = &q->lane[i - 1];
    if (!*s && drv_stream_create(s) != DRV_OK)
        *s = NULL;
    return *s;
}

int gpu_lane_record(gl_ctx *ctx, int queue, int event)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    drv_stream s = q->capturing ? NULL : queue_stream(q, queue);
    int ok = s && event >= 0 && event < GL_LANE_EVENTS;
    if (ok && !q->event[event] && drv_event_create(&q->event[event]) != DRV_OK)
        q->event[event] = NULL;
    ok = ok && q->event[event] &&
         drv_event_record(q->event[event], s) == DRV_OK;
    if (ok)
        q->recorded |= 1u << event;
    int rc = checked(q, !ok);
    leave(saved);
    return rc;
}

int gpu_lane_wait(gl_ctx *ctx, int queue, int event)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int ok = event >= 0 && event < GL_LANE_EVENTS;
    if (ok && q->recorded >> event & 1) {
        drv_stream s = q->capturing ? NULL : queue_stream(q, queue);
        ok = s && drv_stream_wait(s, q->event[event]) == DRV_OK;
    }
    int rc = checked(q, !ok);
    leave(saved);
    return rc;
}

/* The host side of a lane's copy (rows x cols, leading dimension ld, of
 * elem bytes) lies in a registered range, and its pitch is one the
 * driver's 2D copies take. */
static int lane_reaches(const queue_state *q, const char *host, size_t elem,
                        size_t rows, size_t cols, size_t ld)
{
    uintptr_t at = (uintptr_t)host;
    size_t span = elem * ((cols - 1) * ld + rows);
    if (ld * elem >= ((size_t)1 << 31))
        return 0;
    for (int r = 0; r < GL_HOST_RANGES; r++) {
        uintptr_t base = (uintptr_t)q->registered[r].base;
        size_t bytes = q->registered[r].bytes;
        if (base && at >= base && at - base <= bytes &&
            span <= bytes - (at - base))
            return 1;
    }
    return 0;
}

/* A lane's copy (to_device: src host, dst device; else the other way):
 * on the lane's stream where the host memory is registered, else in
 * order as write or read_direct (gpu.h lane_write). */
static int lane_copy(gl_ctx *ctx, int to_device, size_t elem, size_t rows,
                     size_t cols, const void *src, size_t ld_src, void *dst,
                     size_t ld_dst)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)
        ld_src = ld_dst = rows;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    if (q->capturing ||
        !lane_reaches(q, to_device ? src : dst, elem, rows, cols,
                      to_device ? ld_src : ld_dst)) {
        leave(saved);
        return to_device ? gpu_write(ctx, elem, rows, cols, src, ld_src, dst,
                                     ld_dst)
                         : read_matrix(ctx, elem, rows, cols, src, ld_src,
                                       dst, ld_dst, 0);
    }
    drv_stream s = queue_stream(q, to_device ? GL_LANE_UP : GL_LANE_DOWN);
    int failed = gl_fault_hit(GL_FAULT_COPY) || !s ||
                 drv_copy_2d(to_device, dst, ld_dst * elem, src,
                             ld_src * elem, rows * elem, cols, s) != DRV_OK;
    int rc = checked(q, failed);
    leave(saved);
    return rc;
}

int gpu_lane_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                   const void *src, size_t ld_src, void *dst,
                   size_t ld_dst)
{
    return lane_copy(ctx, 1, elem, rows, cols, src, ld_src, dst, ld_dst);
}

int gpu_lane_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                  const void *src, size_t ld_src, void *dst,
                  size_t ld_dst)
{
    return lane_copy(ctx, 0, elem, rows, cols, src, ld_src, dst, ld_dst);
}

/* At most GL_HOST_RANGES ranges per context (the streamed plans' host
 * copies).  A refusal is no failure: the lanes then copy in order. */
int gpu_host_register(gl_ctx *ctx, void *ptr, size_t bytes)
{
    if (!drv.lanes || !ptr || bytes == 0)
        return -1;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = -1;
    for (int r = 0; r < GL_HOST_RANGES && rc != 0; r++)
        if (!q->registered[r].base) {
            if (drv_host_register(ptr, bytes) == DRV_OK) {
                q->registered[r].base = ptr;
                q->registered[r].bytes = bytes;
                rc = 0;
            }
            break;
        }
    leave(saved);
    return rc;
}

void gpu_host_unregister(gl_ctx *ctx, void *ptr)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return;
    for (int r = 0; ptr && r < GL_HOST_RANGES; r++)
        if (q->registered[r].base == ptr) {
            sync_queues(q);   /* no copy may still reach it */
            drv_host_unregister(ptr);
            q->registered[r].base = NULL;
            q->registered[r].bytes = 0;
        }
    leave(saved);
}

