/* Transfers of the OpenCL runtime (opencl.h): rectangle copies between
 * host memory and buffers, through a page-locked staging buffer; reads
 * beside later work on a second queue; the copy lanes, two more queues
 * ordered by markers. */
#include <stdlib.h>
#include <string.h>

#include "../fault.h"
#include "opencl.h"

/* ---- copies ------------------------------------------------------------- */

/* Origin of a byte offset in a rectangle copy with the given row pitch
 * (OpenCL's rows are our columns). */
static void rect_origin(size_t offset, size_t pitch, size_t origin[3])
{
    origin[0] = offset % pitch;
    origin[1] = offset / pitch;
    origin[2] = 0;
}

/* A copy between host memory and a device buffer on queue, after the
 * event after (or NULL): to_device writes host -> dev, else reads dev ->
 * host; ld_dev/ld_host in elements.  blocking: done on return; else
 * enqueued only (host untouched until the queue has run it). */
static int host_rect_on(cl_command_queue queue, cl_event after,
                        cl_bool blocking, int to_device, size_t elem,
                        size_t rows, size_t cols, void *dev, size_t ld_dev,
                        void *host, size_t ld_host)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)   /* one column: any pitch >= rows will do */
        ld_dev = ld_host = rows;
    cl_mem mem;
    size_t offset, dorig[3], horig[3] = {0, 0, 0};
    size_t region[3] = {rows * elem, cols, 1};
    if (!queue || gl_fault_hit(GL_FAULT_COPY) ||
        resolve(dev, &mem, &offset) != 0)
        return -1;
    rect_origin(offset, ld_dev * elem, dorig);
    cl_uint waits = after ? 1 : 0;
    cl_int err = to_device
        ? cl.clEnqueueWriteBufferRect(queue, mem, blocking, dorig, horig,
                                      region, ld_dev * elem, 0,
                                      ld_host * elem, 0, host, waits,
                                      after ? &after : NULL, NULL)
        : cl.clEnqueueReadBufferRect(queue, mem, blocking, dorig, horig,
                                     region, ld_dev * elem, 0,
                                     ld_host * elem, 0, host, waits,
                                     after ? &after : NULL, NULL);
    return err == CL_SUCCESS ? 0 : -1;
}

static int host_rect(queue_state *q, int to_device, size_t elem, size_t rows,
                     size_t cols, void *dev, size_t ld_dev, void *host,
                     size_t ld_host)
{
    return host_rect_on(q->queue, NULL, CL_TRUE, to_device, elem, rows, cols,
                        dev, ld_dev, host, ld_host);
}

/* dst = src through the copy kernel (gpu.h gl_copy_launch). */
static int copy_kernel(queue_state *q, size_t elem, size_t rows, size_t cols,
                       const void *src, size_t ld_src, void *dst,
                       size_t ld_dst)
{
    gl_copy_launch l;
    if (gl_copy_launch_make(&l, q->dev->info.fp64, elem, rows, cols, src,
                            ld_src, dst, ld_dst) != 0)
        return -1;
    return launch_uncounted(q, l.precision, GL_K_COPY, 2, l.groups, l.local,
                            7, l.args);
}

/* A copy within one buffer (the pieces of one arena, kernels/arena.h):
 * OpenCL's rectangle copy then wants equal pitches and no overlap of the
 * two rectangles' bounds (CL_INVALID_VALUE, CL_MEM_COPY_OVERLAP), which
 * disjoint pieces need not meet: a linear copy when both sides are
 * contiguous, else the copy kernel. */
static int copy_within(queue_state *q, cl_mem mem, size_t elem, size_t rows,
                       size_t cols, const void *src, size_t soff,
                       size_t ld_src, void *dst, size_t doff, size_t ld_dst)
{
    if (ld_src == rows && ld_dst == rows)
        return cl.clEnqueueCopyBuffer(q->queue, mem, mem, soff, doff,
                                      elem * rows * cols, 0, NULL,
                                      NULL) == CL_SUCCESS
                   ? 0
                   : -1;
    return copy_kernel(q, elem, rows, cols, src, ld_src, dst, ld_dst);
}

static int copy_rect(queue_state *q, size_t elem, size_t rows, size_t cols,
                     const void *src, size_t ld_src, void *dst, size_t ld_dst)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)   /* one column: any pitch >= rows will do */
        ld_src = ld_dst = rows;
    cl_mem smem, dmem;
    size_t soff, doff, sorig[3], dorig[3];
    size_t region[3] = {rows * elem, cols, 1};
    cl_command_queue queue = q->queue;
    if (gl_fault_hit(GL_FAULT_COPY) ||
        resolve(src, &smem, &soff) != 0 || resolve(dst, &dmem, &doff) != 0)
        return -1;
    if (smem == dmem)
        return copy_within(q, smem, elem, rows, cols, src, soff, ld_src, dst,
                           doff, ld_dst);
    rect_origin(soff, ld_src * elem, sorig);
    rect_origin(doff, ld_dst * elem, dorig);
    return cl.clEnqueueCopyBufferRect(queue, smem, dmem, sorig, dorig, region,
                                      ld_src * elem, 0, ld_dst * elem, 0, 0,
                                      NULL, NULL) == CL_SUCCESS
               ? 0
               : -1;
}

/* Transfers go through a staging buffer of page-locked host memory
 * (CL_MEM_ALLOC_HOST_PTR, mapped once: the drivers copy from it by DMA
 * without an extra copy), one per context, grown on demand up to
 * PINNED_MAX; larger transfers use ordinary memory. */
enum { PINNED_MAX = 64 << 20 };

static void *pinned(queue_state *q, size_t bytes)
{
    if (bytes > PINNED_MAX)
        return NULL;
    if (bytes <= q->pinned_bytes)
        return q->pinned_host;
    device_state *dev = q->dev;
    cl_command_queue queue = q->queue;
    if (q->pinned) {   /* releasing the buffer drops its mapping */
        cl.clFinish(queue);
        cl.clReleaseMemObject(q->pinned);
        q->pinned = NULL;
        q->pinned_host = NULL;
        q->pinned_bytes = 0;
    }
    size_t size = bytes < (1 << 22) ? (1 << 22) : bytes;
    cl_int err;
    cl_mem mem = cl.clCreateBuffer(dev->context,
                                   CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                   size, NULL, &err);
    if (err != CL_SUCCESS)
        return NULL;
    void *host = cl.clEnqueueMapBuffer(queue, mem, CL_TRUE,
                                       CL_MAP_READ | CL_MAP_WRITE, 0, size, 0,
                                       NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        cl.clReleaseMemObject(mem);
        return NULL;
    }
    q->pinned = mem;
    q->pinned_host = host;
    q->pinned_bytes = size;
    return host;
}

/* dst (host, ld_dst) = src (host, ld_src), rows x cols elements */
static void host_copy(size_t elem, size_t rows, size_t cols, const char *src,
                      size_t ld_src, char *dst, size_t ld_dst)
{
    for (size_t j = 0; j < cols; j++)
        memcpy(dst + j * ld_dst * elem, src + j * ld_src * elem, rows * elem);
}

int cl_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
             const void *src, size_t ld_src, void *dst, size_t ld_dst)
{
    queue_state *q = Q(ctx);
    char *stage = pinned(q, elem * rows * cols);
    if (!stage)
        return checked(q, host_rect(q, 1, elem, rows, cols, dst, ld_dst,
                                    (void *)src, ld_src));
    host_copy(elem, rows, cols, src, ld_src, stage, rows);
    return checked(q, host_rect(q, 1, elem, rows, cols, dst, ld_dst, stage,
                                rows));
}

int cl_copy(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
            const void *src, size_t ld_src, void *dst, size_t ld_dst)
{
    return checked(Q(ctx), copy_rect(Q(ctx), elem, rows, cols, src, ld_src,
                                     dst, ld_dst));
}

/* src into dst on queue after the event after (NULL: in order), the
 * whole matrix into staging first: dst only from a complete read. */
static int read_staged(queue_state *q, cl_command_queue queue, cl_event after,
                       size_t elem, size_t rows, size_t cols, const void *src,
                       size_t ld_src, void *dst, size_t ld_dst)
{
    size_t bytes = elem * rows * cols;
    char *stage = pinned(q, bytes), *owned = NULL;
    if (!stage)
        stage = owned = malloc(bytes);
    int rc = !stage || host_rect_on(queue, after, CL_TRUE, 0, elem, rows,
                                    cols, (void *)src, ld_src, stage, rows);
    if (!rc)
        host_copy(elem, rows, cols, stage, rows, dst, ld_dst);
    free(owned);
    return rc ? -1 : 0;
}

/* Waits for the context's queue and its lanes; a failure sets the error
 * state. */
static void finish_queues(queue_state *q)
{
    if (cl.clFinish(q->queue) != CL_SUCCESS)
        q->failed = 1;
    for (int i = 0; i < GL_LANES - 1; i++)
        if (q->lane[i] && cl.clFinish(q->lane[i]) != CL_SUCCESS)
            q->failed = 1;
}

int cl_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
            const void *src, size_t ld_src, void *dst, size_t ld_dst)
{
    queue_state *q = Q(ctx);
    if (rows == 0 || cols == 0)
        return q->failed ? -1 : 0;
    finish_queues(q);
    if (q->failed)
        return -1;
    return checked(q, read_staged(q, q->queue, NULL, elem, rows, cols, src,
                                  ld_src, dst, ld_dst));
}

/* Reads beside later work (gpu.h): a marker on the context's queue, which
 * a read on a second queue of the same device waits for.  Writes are
 * blocking and the staging buffer is replaced only after a clFinish, so
 * no command of the first queue can be using it. */
int cl_mark(gl_ctx *ctx)
{
    queue_state *q = Q(ctx);
    cl_command_queue queue = q->queue;
    q->marked = 0;
    if (q->mark)
        cl.clReleaseEvent(q->mark);
    q->mark = NULL;
    /* flushed: the second queue must not wait for a marker that was
     * never submitted */
    if (cl.clEnqueueMarkerWithWaitList(queue, 0, NULL, &q->mark) !=
            CL_SUCCESS ||
        cl.clFlush(queue) != CL_SUCCESS)
        return -1;
    q->marked = 1;
    return 0;
}

int cl_read_marked(gl_ctx *ctx, int whole, size_t elem, size_t rows,
                   size_t cols, const void *src, size_t ld_src,
                   void *dst, size_t ld_dst)
{
    (void)whole;   /* every read is whole here (cl_read) */
    queue_state *q = Q(ctx);
    if (!q->marked || rows == 0 || cols == 0)
        return cl_read(ctx, elem, rows, cols, src, ld_src, dst, ld_dst);
    if (q->failed)
        return -1;
    if (!q->side) {
        cl_int err;
        q->side = cl.clCreateCommandQueue(q->dev->context, q->dev->id, 0,
                                          &err);
        if (err != CL_SUCCESS) {
            q->side = NULL;
            return cl_read(ctx, elem, rows, cols, src, ld_src, dst, ld_dst);
        }
    }
    return checked(q, read_staged(q, q->side, q->mark, elem, rows, cols, src,
                                  ld_src, dst, ld_dst));
}

int cl_finish(gl_ctx *ctx)
{
    queue_state *q = Q(ctx);
    finish_queues(q);
    return q->failed ? -1 : 0;
}

/* ---- the copy lanes ------------------------------------------------------- */

/* Queue i (gpu.h GL_LANE_*), a lane made on first use; NULL if none. */
static cl_command_queue queue_of(queue_state *q, int i)
{
    if (i == GL_LANE_COMPUTE)
        return q->queue;
    if (i < 0 || i >= GL_LANES)
        return NULL;
    cl_command_queue *lane = &q->lane[i - 1];
    if (!*lane) {
        cl_int err;
        *lane = cl.clCreateCommandQueue(q->dev->context, q->dev->id, 0, &err);
        if (err != CL_SUCCESS)
            *lane = NULL;
    }
    return *lane;
}

/* A marker in the slot, flushed: another queue must not wait for a
 * marker that was never submitted. */
int cl_lane_record(gl_ctx *ctx, int queue, int event)
{
    queue_state *q = Q(ctx);
    cl_command_queue cq = queue_of(q, queue);
    cl_event marker = NULL;
    int ok = cq && event >= 0 && event < GL_LANE_EVENTS &&
             cl.clEnqueueMarkerWithWaitList(cq, 0, NULL, &marker) ==
                 CL_SUCCESS &&
             cl.clFlush(cq) == CL_SUCCESS;
    if (ok) {
        if (q->event[event])
            cl.clReleaseEvent(q->event[event]);
        q->event[event] = marker;
    } else if (marker) {
        cl.clReleaseEvent(marker);
    }
    return checked(q, ok ? 0 : -1);
}

int cl_lane_wait(gl_ctx *ctx, int queue, int event)
{
    queue_state *q = Q(ctx);
    if (event < 0 || event >= GL_LANE_EVENTS)
        return checked(q, -1);
    if (!q->event[event])
        return 0;
    cl_command_queue cq = queue_of(q, queue);
    return checked(q, cq && cl.clEnqueueBarrierWithWaitList(
                                cq, 1, &q->event[event], NULL) == CL_SUCCESS
                          ? 0
                          : -1);
}

/* OpenCL's non-blocking rectangle copies take any host memory. */
static int lane_copy(gl_ctx *ctx, int to_device, size_t elem, size_t rows,
                     size_t cols, const void *host, size_t ld_host, void *dev,
                     size_t ld_dev)
{
    queue_state *q = Q(ctx);
    cl_command_queue cq = queue_of(q, to_device ? GL_LANE_UP : GL_LANE_DOWN);
    int rc = !cq || host_rect_on(cq, NULL, CL_FALSE, to_device, elem, rows,
                                 cols, dev, ld_dev, (void *)host, ld_host) ||
             cl.clFlush(cq) != CL_SUCCESS;
    return checked(q, rc ? -1 : 0);
}

int cl_lane_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                  const void *src, size_t ld_src, void *dst,
                  size_t ld_dst)
{
    return lane_copy(ctx, 1, elem, rows, cols, src, ld_src, dst, ld_dst);
}

int cl_lane_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                 const void *src, size_t ld_src, void *dst,
                 size_t ld_dst)
{
    return lane_copy(ctx, 0, elem, rows, cols, dst, ld_dst, (void *)src,
                     ld_src);
}

