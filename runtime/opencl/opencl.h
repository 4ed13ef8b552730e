/* The OpenCL runtime (gl_opencl_gpu, a gl_gpu of gpu.h): the ICD loader
 * opened with dlopen on first use (the Khronos headers give the types
 * only), device discovery, one context and one program per precision per
 * device, a command queue, kernel objects and a staging buffer per
 * execution context (runtime/context.h).
 *
 * Device memory is handed out as host-like addresses: each allocation
 * reserves an inaccessible range of the address space (mmap PROT_NONE, no
 * memory behind it) of the buffer's size, and a pointer into that range
 * names the buffer and an offset (OpenCL kernels take a buffer and an
 * offset).  A host access through such a pointer faults at once instead
 * of reading garbage.
 *
 * The files, by concern: core.c (the ICD loader, the devices found and
 * opened, the programs built and the kernels launched, the gl_gpu table);
 * queue.c (a context's queue state and error state, device memory as
 * address ranges); copies.c (transfers, reads beside later work, the copy
 * lanes); clblast.c (CLBlast's GEMMs).  The Makefile links the objects
 * into one (runtime/opencl.o) whose only global symbol is gl_opencl_gpu,
 * so the names declared here stay private to it, as static ones would. */
#ifndef GL_OPENCL_H
#define GL_OPENCL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stddef.h>

#include "../context.h"
#include "../gpu.h"

/* The entry points of the ICD loader, loaded once (core.c). */
#define CL_FUNCS(X)                                                          \
    X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs)               \
    X(clGetDeviceInfo) X(clCreateContext) X(clCreateCommandQueue)            \
    X(clCreateBuffer) X(clReleaseMemObject) X(clCreateProgramWithSource)     \
    X(clBuildProgram) X(clGetProgramBuildInfo) X(clCreateKernel)             \
    X(clSetKernelArg) X(clEnqueueNDRangeKernel) X(clEnqueueReadBufferRect)   \
    X(clEnqueueWriteBufferRect) X(clEnqueueCopyBufferRect) X(clFinish)      \
    X(clEnqueueMapBuffer) X(clEnqueueMarkerWithWaitList) X(clReleaseEvent)  \
    X(clFlush) X(clReleaseCommandQueue) X(clReleaseKernel)                 \
    X(clEnqueueCopyBuffer) X(clEnqueueBarrierWithWaitList)

typedef struct cl_table {
#define CL_DECLARE(f) __typeof__(f) *f;
    CL_FUNCS(CL_DECLARE)
#undef CL_DECLARE
} cl_table;
extern cl_table cl;

/* A device found by discovery (core.c). */
typedef struct device_state {
    gl_gpu_device_info info;
    cl_platform_id platform_id;
    cl_device_id id;
    cl_ulong local_memory;         /* CL_DEVICE_LOCAL_MEM_SIZE */
    pthread_mutex_t lock;          /* context and program creation */
    int opened;                    /* prepare succeeded: context made */
    cl_context context;
    cl_program program[4];         /* per precision; built on first use */
    int program_state[4];          /* 0 not tried, 1 built, -1 failed */
} device_state;

/* Queues and kernel objects are per context: clSetKernelArg on a shared
 * kernel object is not thread-safe, and a context is used by one thread
 * at a time. */
typedef struct queue_state {
    device_state *dev;
    cl_command_queue queue;
    cl_kernel kernels[4][GL_K_COUNT];
    cl_mem pinned;          /* staging buffer in page-locked host memory */
    void *pinned_host;      /* its mapping */
    size_t pinned_bytes;
    /* reads beside later work (gpu.h mark): the marker on queue, the
     * second queue they run on (made on first use), and whether the
     * marker belongs to this call */
    cl_event mark;
    cl_command_queue side;
    int marked;
    /* the copy lanes (gpu.h lane_write), made on first use, and the
     * markers recorded in the event slots in this call */
    cl_command_queue lane[GL_LANES - 1];
    cl_event event[GL_LANE_EVENTS];
    int failed;             /* the error state of gpu.h */
} queue_state;

#define Q(ctx) ((queue_state *)(ctx)->queue)

/* rc, remembered in the context's error state when it is a failure */
static inline int checked(queue_state *q, int rc)
{
    if (rc != 0)
        q->failed = 1;
    return rc;
}

/* ---- core.c -------------------------------------------------------------- */

/* Device i once prepare made its context; NULL if none such. */
device_state *device_opened(int i);
/* kernel k on q's queue, not counted as a fault-injection event: the
 * copies' kernel (copy_rect) */
int launch_uncounted(queue_state *q, int precision, gl_kernel k, int dims,
                     const size_t *groups, const size_t *local, int nargs,
                     const gl_arg *args);

/* ---- queue.c ------------------------------------------------------------- */

int open_queue(gl_ctx *ctx);
void close_queue(gl_ctx *ctx);
void fail(gl_ctx *ctx);
void reset(gl_ctx *ctx);
void *alloc(gl_ctx *ctx, size_t bytes);
void release(gl_ctx *ctx, void *ptr);
/* The buffer of a device pointer and its byte offset; -1 if ptr is not
 * device memory (then nothing may be enqueued). */
int resolve(const void *ptr, cl_mem *mem, size_t *offset);

/* ---- copies.c ------------------------------------------------------------ */

int cl_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
             const void *src, size_t ld_src, void *dst, size_t ld_dst);
int cl_copy(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
            const void *src, size_t ld_src, void *dst, size_t ld_dst);
int cl_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
            const void *src, size_t ld_src, void *dst, size_t ld_dst);
int cl_mark(gl_ctx *ctx);
int cl_read_marked(gl_ctx *ctx, int whole, size_t elem, size_t rows,
                   size_t cols, const void *src, size_t ld_src, void *dst,
                   size_t ld_dst);
int cl_finish(gl_ctx *ctx);
int cl_lane_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                  const void *src, size_t ld_src, void *dst, size_t ld_dst);
int cl_lane_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                 const void *src, size_t ld_src, void *dst, size_t ld_dst);
int cl_lane_record(gl_ctx *ctx, int queue, int event);
int cl_lane_wait(gl_ctx *ctx, int queue, int event);

/* ---- clblast.c ----------------------------------------------------------- */

int blas_gemm(gl_ctx *ctx, int precision, int transa, int transb, size_t m,
              size_t n, size_t k, const void *alpha, const void *a,
              size_t lda, const void *b, size_t ldb, const void *beta,
              void *c, size_t ldc);
int blas_gemm_batched(gl_ctx *ctx, int precision, int transa, int transb,
                      size_t m, size_t n, size_t k, const void *alpha,
                      const void *a, size_t lda, size_t stride_a,
                      const void *b, size_t ldb, size_t stride_b,
                      const void *beta, void *c, size_t ldc,
                      size_t stride_c, size_t count);

#endif
