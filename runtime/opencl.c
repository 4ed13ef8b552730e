/* The OpenCL runtime (gl_opencl_gpu of gpu.h): the ICD loader opened with
 * dlopen on first use (the Khronos headers give the types only), device
 * discovery, one context and one program per precision per device, a
 * command queue, kernel objects and a staging buffer per execution
 * context (runtime/context.h).
 *
 * Device memory is handed out as host-like addresses: each allocation
 * reserves an inaccessible range of the address space (mmap PROT_NONE, no
 * memory behind it) of the buffer's size, and a pointer into that range
 * names the buffer and an offset (OpenCL kernels take a buffer and an
 * offset).  A host access through such a pointer faults at once instead
 * of reading garbage. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "config.h"
#include "device.h"
#include "fault.h"
#include "log.h"
#include "gpu.h"
#include "context.h"

/* The kernel text, the OpenCL shim and the files of kernels/device/,
 * NUL-terminated (embedded by the build, runtime/embed_opencl.S). */
extern const char gl_opencl_source[];

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

static struct {
#define CL_DECLARE(f) __typeof__(f) *f;
    CL_FUNCS(CL_DECLARE)
#undef CL_DECLARE
} cl;

#define MAX_DEVICES 16
typedef struct device_state {
    gl_gpu_device_info info;
    cl_platform_id platform_id;
    cl_device_id id;
    cl_ulong local_memory;         /* CL_DEVICE_LOCAL_MEM_SIZE */
    pthread_mutex_t lock;          /* context and program creation */
    cl_context context;
    cl_program program[4];         /* per precision; built on first use */
    int program_state[4];          /* 0 not tried, 1 built, -1 failed */
} device_state;

static device_state devices[MAX_DEVICES];
static int ndevices;
static pthread_once_t discover_once = PTHREAD_ONCE_INIT;


/* ---- discovery ---------------------------------------------------------- */

/* The ICD loader's one handle of the process (device.c), shared with the
 * listing of gpulapack_gpu_runtimes. */
static int load_icd(void)
{
    void *lib = gl_runtime_open(gl_opencl_sonames, NULL);
    if (!lib)
        return -1;
#define CL_LOAD(f)                                                           \
    if (!(*(void **)&cl.f = dlsym(lib, #f))) {                               \
        gl_runtime_failed("opencl", "runtime-init-failed",                   \
                          #f " missing from the ICD loader");                \
        return -1;                                                           \
    }
    CL_FUNCS(CL_LOAD)
#undef CL_LOAD
    return 0;
}

/* text, cut to fit size bytes with its NUL */
static void copy_text(char *out, size_t size, const char *text)
{
    size_t n = strnlen(text, size - 1);
    memcpy(out, text, n);
    out[n] = 0;
}

/* A string property, cut to size (a too small buffer is an error for
 * clGetDeviceInfo, so read it whole first). */
static void device_text(cl_device_id id, cl_device_info what, char *out,
                        size_t size)
{
    char text[1024] = "";
    if (cl.clGetDeviceInfo(id, what, sizeof text - 1, text, NULL) !=
        CL_SUCCESS)
        text[0] = 0;
    copy_text(out, size, text);
}

static void add_device(cl_platform_id platform, int p, cl_device_id id, int d)
{
    if (ndevices >= MAX_DEVICES)
        return;
    device_state *dev = &devices[ndevices];
    gl_gpu_device_info *info = &dev->info;
    info->platform = p;
    info->device = d;
    snprintf(info->id, sizeof info->id, "opencl:%d.%d", p, d);
    device_text(id, CL_DEVICE_NAME, info->name, sizeof info->name);
    device_text(id, CL_DEVICE_VERSION, info->version, sizeof info->version);
    char text[1024] = "";
    if (cl.clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof text - 1, text,
                             NULL) != CL_SUCCESS)
        text[0] = 0;
    copy_text(info->platform_name, sizeof info->platform_name, text);
    cl_device_type type = 0;
    cl_device_fp_config fp64 = 0;
    cl_ulong memory = 0, max_alloc = 0;
    cl_uint units = 0, clock = 0;
    cl.clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64,
                       NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof memory, &memory,
                       NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                       &max_alloc, NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                       NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock,
                       &clock, NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof dev->local_memory,
                       &dev->local_memory, NULL);
    info->gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    info->fp64 = fp64 != 0;
    info->memory = memory;
    info->max_alloc = max_alloc;
    info->local_memory = dev->local_memory;
    info->compute_units = units;
    info->clock_mhz = clock;
    dev->platform_id = platform;
    dev->id = id;
    pthread_mutex_init(&dev->lock, NULL);
    ndevices++;
}

static void discover(void)
{
    if (load_icd() != 0)
        return;
    cl_platform_id platforms[8];
    cl_uint nplatforms = 0;
    cl_int err = cl.clGetPlatformIDs(8, platforms, &nplatforms);
    if (err != CL_SUCCESS) {
        /* -1001: CL_PLATFORM_NOT_FOUND_KHR, the ICD loader without drivers */
        char detail[64];
        snprintf(detail, sizeof detail, "clGetPlatformIDs error %d", (int)err);
        gl_runtime_failed("opencl", err == -1001 ? "no-device"
                                                 : "runtime-init-failed",
                          detail);
        return;
    }
    for (cl_uint p = 0; p < nplatforms && p < 8; p++) {
        cl_device_id ids[MAX_DEVICES];
        cl_uint nids = 0;
        if (cl.clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES,
                              ids, &nids) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nids && d < MAX_DEVICES; d++)
            add_device(platforms[p], (int)p, ids[d], (int)d);
    }
    gl_log(2, "opencl: %d device(s)", ndevices);
}

static int device_count(void)
{
    pthread_once(&discover_once, discover);
    return ndevices;
}

static const gl_gpu_device_info *device_info(int i)
{
    return i >= 0 && i < device_count() ? &devices[i].info : NULL;
}

/* The best device: GPUs before other kinds, then the most memory times
 * compute units times clock (OpenCL reports no memory bandwidth; this
 * orders the devices of one vendor the same way). */
static int choose(int platform, int device, int gpu_only)
{
    int best = -1;
    double best_score = -1;
    for (int i = 0; i < device_count(); i++) {
        const gl_gpu_device_info *info = &devices[i].info;
        if ((platform >= 0 && info->platform != platform) ||
            (device >= 0 && info->device != device) ||
            (gpu_only && !info->gpu))
            continue;
        double score = (info->gpu ? 1e30 : 0) + (double)info->memory *
                       (info->compute_units + 1) * (info->clock_mhz + 1);
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

static int prepare(int i)
{
    if (i < 0 || i >= device_count())
        return -1;
    device_state *dev = &devices[i];
    pthread_mutex_lock(&dev->lock);
    if (!dev->context) {
        cl_context_properties props[] = {
            CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform_id, 0};
        cl_int err;
        dev->context = cl.clCreateContext(props, 1, &dev->id, NULL, NULL,
                                          &err);
        if (err != CL_SUCCESS)
            dev->context = NULL;
    }
    int ok = dev->context != NULL;
    pthread_mutex_unlock(&dev->lock);
    return ok ? 0 : -1;
}

/* ---- a context's state ------------------------------------------------ */

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

static int open_queue(gl_ctx *ctx)
{
    ctx->queue = NULL;
    if (ctx->device < 0 || ctx->device >= device_count() ||
        !devices[ctx->device].context)
        return -1;
    queue_state *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    q->dev = &devices[ctx->device];
    cl_int err;
    q->queue = cl.clCreateCommandQueue(q->dev->context, q->dev->id, 0, &err);
    if (err != CL_SUCCESS) {
        free(q);
        return -1;
    }
    ctx->queue = q;
    return 0;
}

static void close_queue(gl_ctx *ctx)
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

static void fail(gl_ctx *ctx) { Q(ctx)->failed = 1; }
static void reset(gl_ctx *ctx)
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

/* rc, remembered in the context's error state when it is a failure */
static int checked(queue_state *q, int rc)
{
    if (rc != 0)
        q->failed = 1;
    return rc;
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

static void release(gl_ctx *ctx, void *ptr);

static void *alloc(gl_ctx *ctx, size_t bytes)
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

static void release(gl_ctx *ctx, void *ptr)
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
static int resolve(const void *ptr, cl_mem *mem, size_t *offset)
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

/* ---- programs and kernels ---------------------------------------------- */

static cl_program program_get(device_state *dev, int precision)
{
    pthread_mutex_lock(&dev->lock);
    int p = precision - 1;
    if (dev->program_state[p] == 0) {
        dev->program_state[p] = -1;
        const char *text = gl_opencl_source;
        cl_int err;
        cl_program prog = cl.clCreateProgramWithSource(dev->context, 1, &text,
                                                       NULL, &err);
        if (err == CL_SUCCESS) {
            /* a CPU device's waits poll its cache: 2^30 polls are
             * seconds (common.h SPIN_POLLS); the chase's window takes up
             * to 41 KB of local memory, half that below 48 KB (chase.h
             * CHASE_TILE) */
            char options[128];
            snprintf(options, sizeof options,
                     "-cl-std=CL1.2 -DPRECISION=%d%s%s", precision,
                     dev->info.gpu ? "" : " -DSPIN_POLLS=1073741824",
                     dev->local_memory >= 48 * 1024 ? ""
                                                    : " -DCHASE_SMALL_LOCAL");
            err = cl.clBuildProgram(prog, 1, &dev->id, options, NULL, NULL);
            if (err != CL_SUCCESS) {
                char log[2048] = "";
                cl.clGetProgramBuildInfo(prog, dev->id, CL_PROGRAM_BUILD_LOG,
                                         sizeof log - 1, log, NULL);
                gl_log(1, "opencl: kernel build failed (%d): %s", (int)err,
                       log);
            } else {
                dev->program[p] = prog;
                dev->program_state[p] = 1;
            }
        }
    }
    cl_program prog = dev->program[p];
    pthread_mutex_unlock(&dev->lock);
    return prog;
}

static cl_kernel kernel_get(queue_state *q, int precision, gl_kernel k)
{
    cl_kernel *slot = &q->kernels[precision - 1][k];
    if (!*slot) {
        cl_program prog = program_get(q->dev, precision);
        if (!prog)
            return NULL;
        cl_int err;
        *slot = cl.clCreateKernel(prog, gl_kernel_names[k], &err);
        if (err != CL_SUCCESS)
            *slot = NULL;
    }
    return *slot;
}

/* launch without counting a fault event: the copies' kernel (copy_rect) */
static int launch_uncounted(queue_state *q, int precision, gl_kernel k,
                            int dims, const size_t *groups,
                            const size_t *local, int nargs,
                            const gl_arg *args);

static int launch(queue_state *q, int precision, gl_kernel k, int dims,
                  const size_t *groups, const size_t *local, int nargs,
                  const gl_arg *args)
{
    if (gl_fault_hit(GL_FAULT_LAUNCH))
        return -1;
    return launch_uncounted(q, precision, k, dims, groups, local, nargs, args);
}

static int launch_uncounted(queue_state *q, int precision, gl_kernel k,
                            int dims, const size_t *groups,
                            const size_t *local, int nargs,
                            const gl_arg *args)
{
    cl_kernel kernel = kernel_get(q, precision, k);
    if (!kernel)
        return -1;
    cl_uint slot = 0;
    for (int i = 0; i < nargs; i++) {
        if (args[i].size) {
            if (cl.clSetKernelArg(kernel, slot++, args[i].size,
                                  args[i].value) != CL_SUCCESS)
                return -1;
            continue;
        }
        /* memory: buffer and element offset; NULL passes no buffer */
        cl_mem mem = NULL;
        size_t bytes = 0;
        if (args[i].value && resolve(args[i].value, &mem, &bytes) != 0)
            return -1;
        cl_long offset = (cl_long)(bytes / args[i].elem);
        if (cl.clSetKernelArg(kernel, slot++, sizeof mem, &mem) != CL_SUCCESS ||
            cl.clSetKernelArg(kernel, slot++, sizeof offset, &offset) !=
                CL_SUCCESS)
            return -1;
    }
    size_t global[2];
    if (dims < 1 || dims > 2)
        return -1;
    for (int d = 0; d < dims && d < 2; d++) {
        if (groups[d] == 0)
            return 0;   /* nothing to do */
        global[d] = groups[d] * local[d];
    }
    return cl.clEnqueueNDRangeKernel(q->queue, kernel, (cl_uint)dims, NULL,
                                     global, local, 0, NULL, NULL) ==
                   CL_SUCCESS
               ? 0
               : -1;
}

static int checked_launch(gl_ctx *ctx, int precision, gl_kernel k, int dims,
                          const size_t *groups, const size_t *local,
                          int nargs, const gl_arg *args)
{
    return checked(Q(ctx), launch(Q(ctx), precision, k, dims, groups, local,
                                  nargs, args));
}

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

static int cl_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
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

static int cl_copy(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
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

static int cl_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
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
static int cl_mark(gl_ctx *ctx)
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

static int cl_read_marked(gl_ctx *ctx, int whole, size_t elem, size_t rows,
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

static int cl_finish(gl_ctx *ctx)
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
static int cl_lane_record(gl_ctx *ctx, int queue, int event)
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

static int cl_lane_wait(gl_ctx *ctx, int queue, int event)
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

static int cl_lane_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                         const void *src, size_t ld_src, void *dst,
                         size_t ld_dst)
{
    return lane_copy(ctx, 1, elem, rows, cols, src, ld_src, dst, ld_dst);
}

static int cl_lane_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                        const void *src, size_t ld_src, void *dst,
                        size_t ld_dst)
{
    return lane_copy(ctx, 0, elem, rows, cols, dst, ld_dst, (void *)src,
                     ld_src);
}

/* ---- CLBlast (optional) -------------------------------------------------- */

/* The four GEMMs of CLBlast's C API (clblast_c.h of libclblast-dev, which
 * the build does not need): layout, transposes and status are C enums. */
typedef int clblast_sgemm_fn(int, int, int, size_t, size_t, size_t, float,
                             const cl_mem, size_t, size_t, const cl_mem,
                             size_t, size_t, float, cl_mem, size_t, size_t,
                             cl_command_queue *, cl_event *);
typedef int clblast_dgemm_fn(int, int, int, size_t, size_t, size_t, double,
                             const cl_mem, size_t, size_t, const cl_mem,
                             size_t, size_t, double, cl_mem, size_t, size_t,
                             cl_command_queue *, cl_event *);
typedef int clblast_cgemm_fn(int, int, int, size_t, size_t, size_t,
                             cl_float2, const cl_mem, size_t, size_t,
                             const cl_mem, size_t, size_t, cl_float2, cl_mem,
                             size_t, size_t, cl_command_queue *, cl_event *);
typedef int clblast_zgemm_fn(int, int, int, size_t, size_t, size_t,
                             cl_double2, const cl_mem, size_t, size_t,
                             const cl_mem, size_t, size_t, cl_double2,
                             cl_mem, size_t, size_t, cl_command_queue *,
                             cl_event *);
/* and their strided-batched forms: a stride after each leading dimension,
 * the count before the queue */
typedef int clblast_sgemm_batched_fn(int, int, int, size_t, size_t, size_t,
                                     float, const cl_mem, size_t, size_t,
                                     size_t, const cl_mem, size_t, size_t,
                                     size_t, float, cl_mem, size_t, size_t,
                                     size_t, size_t, cl_command_queue *,
                                     cl_event *);
typedef int clblast_dgemm_batched_fn(int, int, int, size_t, size_t, size_t,
                                     double, const cl_mem, size_t, size_t,
                                     size_t, const cl_mem, size_t, size_t,
                                     size_t, double, cl_mem, size_t, size_t,
                                     size_t, size_t, cl_command_queue *,
                                     cl_event *);
typedef int clblast_cgemm_batched_fn(int, int, int, size_t, size_t, size_t,
                                     cl_float2, const cl_mem, size_t, size_t,
                                     size_t, const cl_mem, size_t, size_t,
                                     size_t, cl_float2, cl_mem, size_t,
                                     size_t, size_t, size_t,
                                     cl_command_queue *, cl_event *);
typedef int clblast_zgemm_batched_fn(int, int, int, size_t, size_t, size_t,
                                     cl_double2, const cl_mem, size_t,
                                     size_t, size_t, const cl_mem, size_t,
                                     size_t, size_t, cl_double2, cl_mem,
                                     size_t, size_t, size_t, size_t,
                                     cl_command_queue *, cl_event *);
enum { CLBLAST_COL_MAJOR = 102, CLBLAST_TRANS_BASE = 111 };

static struct {
    clblast_sgemm_fn *sgemm;
    clblast_dgemm_fn *dgemm;
    clblast_cgemm_fn *cgemm;
    clblast_zgemm_fn *zgemm;
    clblast_sgemm_batched_fn *sgemm_batched;
    clblast_dgemm_batched_fn *dgemm_batched;
    clblast_cgemm_batched_fn *cgemm_batched;
    clblast_zgemm_batched_fn *zgemm_batched;
} clblast;
static pthread_once_t clblast_once = PTHREAD_ONCE_INIT;

/* CLBlast on GPUs only by default: on a CPU device (PoCL) it is no faster
 * than our kernel and compiles its own kernels in every process (tens of
 * seconds); GPULAPACK_CLBLAST=1 takes it on any device, 0 never. */
static void clblast_load(void)
{
    void *lib = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    *(void **)&clblast.sgemm = dlsym(lib, "CLBlastSgemm");
    *(void **)&clblast.dgemm = dlsym(lib, "CLBlastDgemm");
    *(void **)&clblast.cgemm = dlsym(lib, "CLBlastCgemm");
    *(void **)&clblast.zgemm = dlsym(lib, "CLBlastZgemm");
    *(void **)&clblast.sgemm_batched = dlsym(lib, "CLBlastSgemmStridedBatched");
    *(void **)&clblast.dgemm_batched = dlsym(lib, "CLBlastDgemmStridedBatched");
    *(void **)&clblast.cgemm_batched = dlsym(lib, "CLBlastCgemmStridedBatched");
    *(void **)&clblast.zgemm_batched = dlsym(lib, "CLBlastZgemmStridedBatched");
    gl_log(2, "opencl: CLBlast %s", clblast.dgemm ? "loaded" : "incomplete");
}

/* One CLBlast product (count 0) or strided batch of count products. */
static int clblast_gemm(queue_state *q, int precision, int transa,
                        int transb, size_t m, size_t n, size_t k,
                        const void *alpha, const void *a, size_t lda,
                        size_t sa, const void *b, size_t ldb, size_t sb,
                        const void *beta, void *c, size_t ldc, size_t sc,
                        size_t count)
{
    int mode = gl_config_get()->clblast;
    if (mode == 0 || (mode < 0 && !q->dev->info.gpu))
        return 1;
    pthread_once(&clblast_once, clblast_load);
    static const size_t elem[4] = {4, 8, 8, 16};
    void *plain = precision == 1 ? (void *)clblast.sgemm
                : precision == 2 ? (void *)clblast.dgemm
                : precision == 3 ? (void *)clblast.cgemm
                                 : (void *)clblast.zgemm;
    void *batched = precision == 1 ? (void *)clblast.sgemm_batched
                  : precision == 2 ? (void *)clblast.dgemm_batched
                  : precision == 3 ? (void *)clblast.cgemm_batched
                                   : (void *)clblast.zgemm_batched;
    if (!(count ? batched : plain))
        return 1;
    if (gl_fault_hit(GL_FAULT_LAUNCH))
        return checked(q, -1);
    cl_mem ma, mb, mc;
    size_t oa, ob, oc, es = elem[precision - 1];
    cl_command_queue queue = q->queue;
    if (resolve(a, &ma, &oa) || resolve(b, &mb, &ob) || resolve(c, &mc, &oc))
        return checked(q, -1);
    int ta = CLBLAST_TRANS_BASE + transa, tb = CLBLAST_TRANS_BASE + transb;
    oa /= es, ob /= es, oc /= es;
    /* the scalars by value, in the precision's type */
#define CALL(T, PLAIN, BATCHED)                                              \
    (count ? clblast.BATCHED(CLBLAST_COL_MAJOR, ta, tb, m, n, k,              \
                             *(const T *)alpha, ma, oa, lda, sa, mb, ob, ldb, \
                             sb, *(const T *)beta, mc, oc, ldc, sc, count,    \
                             &queue, NULL)                                    \
           : clblast.PLAIN(CLBLAST_COL_MAJOR, ta, tb, m, n, k,                \
                           *(const T *)alpha, ma, oa, lda, mb, ob, ldb,       \
                           *(const T *)beta, mc, oc, ldc, &queue, NULL))
    int status = precision == 1 ? CALL(float, sgemm, sgemm_batched)
               : precision == 2 ? CALL(double, dgemm, dgemm_batched)
               : precision == 3 ? CALL(cl_float2, cgemm, cgemm_batched)
                                : CALL(cl_double2, zgemm, zgemm_batched);
#undef CALL
    return checked(q, status == 0 ? 0 : -1);
}

static int blas_gemm(gl_ctx *ctx, int precision, int transa, int transb,
                     size_t m, size_t n, size_t k, const void *alpha,
                     const void *a, size_t lda, const void *b, size_t ldb,
                     const void *beta, void *c, size_t ldc)
{
    return clblast_gemm(Q(ctx), precision, transa, transb, m, n, k, alpha, a, lda, 0,
                        b, ldb, 0, beta, c, ldc, 0, 0);
}

static int blas_gemm_batched(gl_ctx *ctx, int precision, int transa,
                             int transb, size_t m, size_t n, size_t k,
                             const void *alpha,
                             const void *a, size_t lda, size_t stride_a,
                             const void *b, size_t ldb, size_t stride_b,
                             const void *beta, void *c, size_t ldc,
                             size_t stride_c, size_t count)
{
    return clblast_gemm(Q(ctx), precision, transa, transb, m, n, k, alpha, a,
                        lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c,
                        count);
}

const gl_gpu gl_opencl_gpu = {
    .name = "opencl",
    .device_count = device_count,
    .device = device_info,
    .choose = choose,
    .prepare = prepare,
    .open = open_queue,
    .close = close_queue,
    .alloc = alloc,
    .release = release,
    .write = cl_write,
    .copy = cl_copy,
    .read = cl_read,
    .read_direct = cl_read,   /* cl_read has no bounce array to save */
    .mark = cl_mark,
    .read_marked = cl_read_marked,
    .lane_write = cl_lane_write,
    .lane_read = cl_lane_read,
    .lane_record = cl_lane_record,
    .lane_wait = cl_lane_wait,
    .finish = cl_finish,
    .launch = checked_launch,
    .blas_gemm = blas_gemm,
    .blas_gemm_batched = blas_gemm_batched,
    .fail = fail,
    .reset = reset,
};
