/* A context's queue state on the OpenCL runtime (opencl.h): its command
 * queue and what it keeps, the error state, and device memory handed out
 * as reserved address ranges (each names its buffer). */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "../fault.h"
#include "../log.h"
#include "opencl.h"

/* The state of context ctx on its device (prepared): its command queue;
 * kernel objects, staging, the second queue and the lanes come on first
 * use. */
int open_queue(gl_ctx *ctx)
{
    ctx->queue = NULL;
    device_state *dev = device_opened(ctx->device);
    if (!dev)
        return -1;
    queue_state *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    q->dev = dev;
    cl_int err;
    q->queue = cl.clCreateCommandQueue(q->dev->context, q->dev->id, 0, &err);
    if (err != CL_SUCCESS) {
        free(q);
        return -1;
    }
    ctx->queue = q;
    return 0;
}

/* Waits for the context's work and frees its state. */
void close_queue(gl_ctx *ctx)
{
    queue_state *q = Q(ctx);
    if (!q)
        return;
    gl_ctx_memory_close(ctx);
    cl.clFinish(q->queue);
    if (q->side) {
        cl.clFinish(q->side);
        cl.clReleaseCommandQueue(q->side);
    }
    if (q->mark)
        cl.clReleaseEvent(q->mark);
    for (int i = 0; i < GL_LANES - 1; i++)
        if (q->lane[i]) {
            cl.clFinish(q->lane[i]);
            cl.clReleaseCommandQueue(q->lane[i]);
        }
    for (int e = 0; e < GL_LANE_EVENTS; e++)
        if (q->event[e])
            cl.clReleaseEvent(q->event[e]);
    for (int p = 0; p < 4; p++)
        for (int k = 0; k < GL_K_COUNT; k++)
            if (q->kernels[p][k])
                cl.clReleaseKernel(q->kernels[p][k]);
    if (q->pinned)
        cl.clReleaseMemObject(q->pinned);
    cl.clReleaseCommandQueue(q->queue);
    free(q);
    ctx->queue = NULL;
}

void fail(gl_ctx *ctx) { Q(ctx)->failed = 1; }
void reset(gl_ctx *ctx)
{
    queue_state *q = Q(ctx);
    q->failed = 0;
    q->marked = 0;   /* a mark holds within one call */
    for (int e = 0; e < GL_LANE_EVENTS; e++)   /* and so do the lanes' */
        if (q->event[e]) {
            cl.clReleaseEvent(q->event[e]);
            q->event[e] = NULL;
        }
}

/* ---- memory ------------------------------------------------------------- */

typedef struct region {
    char *base;
    size_t size;
    cl_mem mem;
} region;

static pthread_mutex_t regions_lock = PTHREAD_MUTEX_INITIALIZER;
static region *regions;
static size_t nregions, regions_cap;

void *alloc(gl_ctx *ctx, size_t bytes)
{
    device_state *dev = Q(ctx)->dev;
    if (bytes == 0)
        bytes = 1;
    if (gl_ctx_memory_allows(ctx, bytes) != 0) {
        gl_log(2, "opencl: allocation of %zu bytes refused: over "
                  "GPULAPACK_DEVICE_MEMORY_MB", bytes);
        return NULL;
    }
    cl_int err = CL_OUT_OF_RESOURCES;
    cl_mem mem = gl_fault_hit(GL_FAULT_ALLOC)
                     ? NULL
                     : cl.clCreateBuffer(dev->context, CL_MEM_READ_WRITE,
                                         bytes, NULL, &err);
    if (!mem || err != CL_SUCCESS) {
        gl_ctx_memory_refused(ctx);
        return NULL;
    }
    /* one byte more than the buffer: the end of one range is never the
     * start of the next (a pointer just past a matrix names its buffer) */
    void *base = mmap(NULL, bytes + 1, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    pthread_mutex_lock(&regions_lock);
    if (base != MAP_FAILED && nregions == regions_cap) {
        size_t cap = regions_cap ? 2 * regions_cap : 64;
        region *grown = realloc(regions, sizeof *grown * cap);
        if (grown) {
            regions = grown;
            regions_cap = cap;
        }
    }
    int ok = base != MAP_FAILED && nregions < regions_cap;
    if (ok)
        regions[nregions++] = (region){base, bytes, mem};
    pthread_mutex_unlock(&regions_lock);
    if (ok && gl_ctx_memory_took(ctx, base, bytes) != 0) {
        release(ctx, base);
        return NULL;
    }
    if (!ok) {
        if (base != MAP_FAILED)
            munmap(base, bytes + 1);
        cl.clReleaseMemObject(mem);
        return NULL;
    }
    return base;
}

void release(gl_ctx *ctx, void *ptr)
{
    if (!ptr)
        return;
    gl_ctx_memory_gave(ctx, ptr);
    region found = {0};
    pthread_mutex_lock(&regions_lock);
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].base == ptr) {
            found = regions[i];
            regions[i] = regions[--nregions];
            break;
        }
    pthread_mutex_unlock(&regions_lock);
    if (found.base) {
        /* the commands that use the buffer end first: OpenCL defers the
         * release itself, but PoCL 3.1 frees the memory under a kernel
         * that still runs */
        cl.clFinish(Q(ctx)->queue);
        cl.clReleaseMemObject(found.mem);
        munmap(found.base, found.size + 1);
    }
}

/* The buffer of a device pointer and its byte offset; -1 if ptr is not
 * device memory (then nothing may be enqueued). */
int resolve(const void *ptr, cl_mem *mem, size_t *offset)
{
    const char *p = ptr;
    int rc = -1;
    pthread_mutex_lock(&regions_lock);
    for (size_t i = 0; i < nregions; i++)
        if (p >= regions[i].base && p <= regions[i].base + regions[i].size) {
            *mem = regions[i].mem;
            *offset = (size_t)(p - regions[i].base);
            rc = 0;
            break;
        }
    pthread_mutex_unlock(&regions_lock);
    return rc;
}

