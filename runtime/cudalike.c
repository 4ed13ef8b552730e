/* The CUDA and the HIP runtime: one source, compiled once with
 * -DGL_API_CUDA (gl_cuda_gpu) and once with -DGL_API_HIP (gl_hip_gpu).  The
 * two APIs have the same shape (load a code object, look kernels up by
 * name, launch with an array of parameter pointers, streams, events,
 * graphs); the wrappers of the first part are all that differs.
 *
 * Nothing links against a vendor library: libcuda.so.1 (the driver API)
 * or libamdhip64.so is opened with dlopen on first use; the vendor headers
 * give the types only, and every function pointer has the type of the
 * header's declaration, so a wrong signature does not compile.  The
 * kernels of kernels/device/ are compiled at build time (nvcc: a fatbin
 * with sm_80, sm_90 SASS and compute_90 PTX; hipcc: code objects for
 * gfx90a and gfx940), one image per precision, embedded in the library.
 *
 * Contexts (runtime/context.h): each execution context gets its own
 * stream, pinned staging buffers, scratch and cuBLAS handle (its queue
 * state, made by open and freed by close), kept while the context lives in
 * the pool; any thread that holds the context may use them.  The
 * library's CUDA context (CUDA's primary context of the context's device,
 * which the CUDA runtime API also uses) or HIP device is made current
 * around each operation and the caller's restored, so a program that uses
 * CUDA/HIP itself on the same thread is not disturbed. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "context.h"
#include "device.h"
#include "fault.h"
#include "gpu.h"
#include "log.h"
#include "memory.h"
#include "parallel.h"

#define STRING(x) STRING_(x)
#define STRING_(x) #x

/* ==== the two APIs ======================================================= */
#if defined(GL_API_CUDA)
#include <cuda.h>

#define API "cuda"
#define GPU_TABLE gl_cuda_gpu
#define SONAMES gl_cuda_sonames
/* the kernel images (runtime/embed_blob.S) */
extern const char gl_cuda_image_s[], gl_cuda_image_d[], gl_cuda_image_c[],
    gl_cuda_image_z[];
static const char *const images[4] = {gl_cuda_image_s, gl_cuda_image_d,
                                      gl_cuda_image_c, gl_cuda_image_z};

/* Required entry points; the header's macros give the versioned ABI names
 * (cuMemAlloc -> cuMemAlloc_v2), which STRING() expands. */
#define DRV_FUNCS(X)                                                         \
    X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet)       \
    X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem)           \
    X(cuDevicePrimaryCtxRetain) X(cuCtxPushCurrent) X(cuCtxPopCurrent)       \
    X(cuModuleLoadData) X(cuModuleGetFunction) X(cuLaunchKernel)             \
    X(cuMemAlloc) X(cuMemFree) X(cuMemHostAlloc) X(cuMemFreeHost)            \
    X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync)           \
    X(cuStreamCreate) X(cuStreamSynchronize) X(cuStreamDestroy)              \
    X(cuStreamWaitEvent)                                                     \
    X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize) X(cuEventDestroy)
/* Optional: without them the chase launches one kernel at a time, and
 * memory is allocated and freed synchronously. */
#define DRV_GRAPH_FUNCS(X)                                                   \
    X(cuStreamBeginCapture) X(cuStreamEndCapture) X(cuGraphInstantiate)      \
    X(cuGraphLaunch) X(cuGraphExecDestroy) X(cuGraphDestroy)
#define DRV_ASYNC_FUNCS(X) X(cuMemAllocAsync) X(cuMemFreeAsync)
/* Optional: without it the fit test takes the device's total memory. */
#define DRV_INFO_FUNCS(X) X(cuMemGetInfo)
/* Optional: without them the streamed plans' tiles are copied in order. */
#define DRV_LANE_FUNCS(X)                                                    \
    X(cuMemcpy2DAsync) X(cuMemHostRegister) X(cuMemHostUnregister)

typedef CUresult drv_result;
typedef CUdevice drv_device;
typedef CUmodule drv_module;
typedef CUfunction drv_function;
typedef CUstream drv_stream;
typedef CUevent drv_event;
typedef CUgraph drv_graph;
typedef CUgraphExec drv_graph_exec;
typedef CUcontext drv_saved;   /* what enter() replaced */
#define DRV_OK CUDA_SUCCESS

#elif defined(GL_API_HIP)
#include <hip/hip_runtime_api.h>

#define API "hip"
#define GPU_TABLE gl_hip_gpu
#define SONAMES gl_hip_sonames
extern const char gl_hip_image_s[], gl_hip_image_d[], gl_hip_image_c[],
    gl_hip_image_z[];
static const char *const images[4] = {gl_hip_image_s, gl_hip_image_d,
                                      gl_hip_image_c, gl_hip_image_z};

#define DRV_FUNCS(X)                                                         \
    X(hipInit) X(hipDriverGetVersion) X(hipGetDeviceCount) X(hipDeviceGet)   \
    X(hipDeviceGetName) X(hipDeviceGetAttribute) X(hipDeviceTotalMem)        \
    X(hipGetDevice) X(hipSetDevice)                                          \
    X(hipModuleLoadData) X(hipModuleGetFunction) X(hipModuleLaunchKernel)    \
    X(hipMalloc) X(hipFree) X(hipHostMalloc) X(hipHostFree)                  \
    X(hipMemcpyHtoDAsync) X(hipMemcpyDtoHAsync) X(hipMemcpyDtoDAsync)        \
    X(hipStreamCreateWithFlags) X(hipStreamSynchronize) X(hipStreamDestroy)  \
    X(hipStreamWaitEvent) X(hipEventCreateWithFlags) X(hipEventRecord)      \
    X(hipEventSynchronize) X(hipEventDestroy)
#define DRV_GRAPH_FUNCS(X)                                                   \
    X(hipStreamBeginCapture) X(hipStreamEndCapture) X(hipGraphInstantiate)   \
    X(hipGraphLaunch) X(hipGraphExecDestroy) X(hipGraphDestroy)
#define DRV_ASYNC_FUNCS(X) X(hipMallocAsync) X(hipFreeAsync)
#define DRV_INFO_FUNCS(X) X(hipMemGetInfo)
#define DRV_LANE_FUNCS(X)                                                    \
    X(hipMemcpy2DAsync) X(hipHostRegister) X(hipHostUnregister)

typedef hipError_t drv_result;
typedef hipDevice_t drv_device;
typedef hipModule_t drv_module;
typedef hipFunction_t drv_function;
typedef hipStream_t drv_stream;
typedef hipEvent_t drv_event;
typedef hipGraph_t drv_graph;
typedef hipGraphExec_t drv_graph_exec;
typedef int drv_saved;
#define DRV_OK hipSuccess
#else
#error "compile with -DGL_API_CUDA or -DGL_API_HIP"
#endif

static struct {
#define DRV_DECLARE(f) __typeof__(f) *f;
    DRV_FUNCS(DRV_DECLARE)
    DRV_GRAPH_FUNCS(DRV_DECLARE)
    DRV_ASYNC_FUNCS(DRV_DECLARE)
    DRV_INFO_FUNCS(DRV_DECLARE)
    DRV_LANE_FUNCS(DRV_DECLARE)
#undef DRV_DECLARE
    int graphs;        /* DRV_GRAPH_FUNCS are all there */
    int async_memory;  /* DRV_ASYNC_FUNCS are */
    int memory_info;   /* DRV_INFO_FUNCS are */
    int lanes;         /* DRV_LANE_FUNCS are */
} drv;

#define MAX_DEVICES 16
typedef struct device_state {
    gl_gpu_device_info info;
    drv_device handle;
#if defined(GL_API_CUDA)
    CUcontext context;            /* the primary context, retained */
#endif
    pthread_mutex_t lock;         /* opening, module loading */
    int opened;                   /* prepare succeeded */
    int module_state[4];          /* per precision: 0 not tried, 1, -1 */
    drv_function kernels[4][GL_K_COUNT];
} device_state;

static device_state devices[MAX_DEVICES];
static int ndevices;
static pthread_once_t discover_once = PTHREAD_ONCE_INIT;

/* ---- the wrappers: everything below them is API-neutral ---------------- */

/* The driver's one handle of the process (device.c): the listing of
 * gpulapack_gpu_runtimes may have opened it already, and a second
 * initialization of ROCm's HIP aborts the process. */
static int load_driver(void)
{
    const char *soname = NULL;
    void *lib = gl_runtime_open(SONAMES, &soname);
    if (!lib)
        return -1;
#define DRV_LOAD(f)                                                          \
    if (!(*(void **)&drv.f = dlsym(lib, STRING(f)))) {                       \
        gl_runtime_failed(API, "runtime-init-failed",                        \
                          STRING(f) " missing from the driver");             \
        return -1;                                                           \
    }
    DRV_FUNCS(DRV_LOAD)
#undef DRV_LOAD
    drv.graphs = 1;
    drv.async_memory = 1;
    drv.memory_info = 1;
    drv.lanes = 1;
#define DRV_LOAD_OPTIONAL(f, flag)                                           \
    if (!(*(void **)&drv.f = dlsym(lib, STRING(f))))                         \
        drv.flag = 0;
#define DRV_LOAD_GRAPH(f) DRV_LOAD_OPTIONAL(f, graphs)
#define DRV_LOAD_ASYNC(f) DRV_LOAD_OPTIONAL(f, async_memory)
#define DRV_LOAD_INFO(f) DRV_LOAD_OPTIONAL(f, memory_info)
#define DRV_LOAD_LANE(f) DRV_LOAD_OPTIONAL(f, lanes)
    DRV_GRAPH_FUNCS(DRV_LOAD_GRAPH)
    DRV_ASYNC_FUNCS(DRV_LOAD_ASYNC)
    DRV_INFO_FUNCS(DRV_LOAD_INFO)
    DRV_LANE_FUNCS(DRV_LOAD_LANE)
#undef DRV_LOAD_LANE
#undef DRV_LOAD_INFO
#undef DRV_LOAD_ASYNC
#undef DRV_LOAD_GRAPH
#undef DRV_LOAD_OPTIONAL
    gl_log(2, API ": driver loaded, graphs %s, stream-ordered memory %s, "
              "copy lanes %s",
           drv.graphs ? "yes" : "no", drv.async_memory ? "yes" : "no",
           drv.lanes ? "yes" : "no");
    return 0;
}

#if defined(GL_API_CUDA)
static drv_result drv_init(void) { return drv.cuInit(0); }
static drv_result drv_count(int *n) { return drv.cuDeviceGetCount(n); }
static void drv_describe(int i, device_state *dev)
{
    gl_gpu_device_info *info = &dev->info;
    int major = 0, minor = 0, units = 0, clock = 0, version = 0;
    size_t memory = 0;
    drv.cuDeviceGetName(info->name, sizeof info->name, dev->handle);
    drv.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev->handle);
    drv.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev->handle);
    drv.cuDeviceGetAttribute(&units, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev->handle);
    drv.cuDeviceGetAttribute(&clock, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev->handle);
    drv.cuDeviceTotalMem(&memory, dev->handle);
    drv.cuDriverGetVersion(&version);
    snprintf(info->version, sizeof info->version, "sm_%d%d", major, minor);
    snprintf(info->platform_name, sizeof info->platform_name,
             "CUDA driver %d.%d", version / 1000, version % 1000 / 10);
    info->compute_units = (unsigned)units;
    info->clock_mhz = (unsigned)(clock / 1000);
    info->memory = memory;
    (void)i;
}
static drv_result drv_get(int i, drv_device *d) { return drv.cuDeviceGet(d, i); }
static drv_result drv_open(device_state *dev)
{
    return drv.cuDevicePrimaryCtxRetain(&dev->context, dev->handle);
}
static drv_result drv_enter(device_state *dev, drv_saved *saved)
{
    *saved = NULL;   /* cuCtxPopCurrent gives the pushed context back */
    return drv.cuCtxPushCurrent(dev->context);
}
static void drv_leave(drv_saved saved)
{
    CUcontext popped;
    (void)saved;
    drv.cuCtxPopCurrent(&popped);
}
static drv_result drv_load_module(const void *image, drv_module *m)
{
    return drv.cuModuleLoadData(m, image);
}
static drv_result drv_get_function(drv_module m, const char *name,
                                   drv_function *f)
{
    return drv.cuModuleGetFunction(f, m, name);
}
static drv_result drv_launch(drv_function f, const unsigned *grid,
                             const unsigned *block, drv_stream s,
                             void **params)
{
    return drv.cuLaunchKernel(f, grid[0], grid[1], 1, block[0], block[1], 1,
                              0, s, params, NULL);
}
static drv_result drv_malloc(void **p, size_t bytes)
{
    CUdeviceptr d = 0;
    drv_result rc = drv.cuMemAlloc(&d, bytes);
    *p = (void *)(uintptr_t)d;
    return rc;
}
static drv_result drv_free(void *p) { return drv.cuMemFree((CUdeviceptr)(uintptr_t)p); }
static drv_result drv_memory_free(size_t *free_bytes)
{
    size_t total = 0;
    return drv.cuMemGetInfo(free_bytes, &total);
}
static drv_result drv_malloc_async(void **p, size_t bytes, drv_stream s)
{
    CUdeviceptr d = 0;
    drv_result rc = drv.cuMemAllocAsync(&d, bytes, s);
    *p = (void *)(uintptr_t)d;
    return rc;
}
static drv_result drv_free_async(void *p, drv_stream s)
{
    return drv.cuMemFreeAsync((CUdeviceptr)(uintptr_t)p, s);
}
static drv_result drv_host_alloc(void **p, size_t bytes)
{
    return drv.cuMemHostAlloc(p, bytes, 0);
}
static drv_result drv_host_free(void *p) { return drv.cuMemFreeHost(p); }
static drv_result drv_htod(void *dst, const void *src, size_t bytes,
                           drv_stream s)
{
    return drv.cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)dst, src, bytes, s);
}
static drv_result drv_dtoh(void *dst, const void *src, size_t bytes,
                           drv_stream s)
{
    return drv.cuMemcpyDtoHAsync(dst, (CUdeviceptr)(uintptr_t)src, bytes, s);
}
static drv_result drv_dtod(void *dst, const void *src, size_t bytes,
                           drv_stream s)
{
    return drv.cuMemcpyDtoDAsync((CUdeviceptr)(uintptr_t)dst,
                                 (CUdeviceptr)(uintptr_t)src, bytes, s);
}
/* height columns of width bytes between host and device memory (to the
 * device: to_device), pitches in bytes */
static drv_result drv_copy_2d(int to_device, void *dst, size_t dpitch,
                              const void *src, size_t spitch, size_t width,
                              size_t height, drv_stream s)
{
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = to_device ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    c.dstMemoryType = to_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    if (to_device) {
        c.srcHost = src;
        c.dstDevice = (CUdeviceptr)(uintptr_t)dst;
    } else {
        c.srcDevice = (CUdeviceptr)(uintptr_t)src;
        c.dstHost = dst;
    }
    c.srcPitch = spitch;
    c.dstPitch = dpitch;
    c.WidthInBytes = width;
    c.Height = height;
    return drv.cuMemcpy2DAsync(&c, s);
}
static drv_result drv_host_register(void *p, size_t bytes)
{
    return drv.cuMemHostRegister(p, bytes, 0);
}
static drv_result drv_host_unregister(void *p) { return drv.cuMemHostUnregister(p); }
static drv_result drv_stream_create(drv_stream *s)
{
    return drv.cuStreamCreate(s, CU_STREAM_NON_BLOCKING);
}
static drv_result drv_stream_sync(drv_stream s) { return drv.cuStreamSynchronize(s); }
static drv_result drv_stream_destroy(drv_stream s) { return drv.cuStreamDestroy(s); }
static drv_result drv_stream_wait(drv_stream s, drv_event e)
{
    return drv.cuStreamWaitEvent(s, e, 0);
}
static drv_result drv_event_create(drv_event *e)
{
    return drv.cuEventCreate(e, CU_EVENT_DISABLE_TIMING);
}
static drv_result drv_event_record(drv_event e, drv_stream s) { return drv.cuEventRecord(e, s); }
static drv_result drv_event_sync(drv_event e) { return drv.cuEventSynchronize(e); }
static drv_result drv_event_destroy(drv_event e) { return drv.cuEventDestroy(e); }
static drv_result drv_capture_begin(drv_stream s)
{
    return drv.cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
}
static drv_result drv_capture_end(drv_stream s, drv_graph *g) { return drv.cuStreamEndCapture(s, g); }
static drv_result drv_graph_instantiate(drv_graph_exec *e, drv_graph g)
{
    return drv.cuGraphInstantiate(e, g, 0);
}
static drv_result drv_graph_launch(drv_graph_exec e, drv_stream s) { return drv.cuGraphLaunch(e, s); }
static void drv_graph_free(drv_graph_exec e, drv_graph g)
{
    if (e)
        drv.cuGraphExecDestroy(e);   /* freed when its launch completes */
    if (g)
        drv.cuGraphDestroy(g);
}

#else /* HIP */
static drv_result drv_init(void) { return drv.hipInit(0); }
static drv_result drv_count(int *n) { return drv.hipGetDeviceCount(n); }
static void drv_describe(int i, device_state *dev)
{
    gl_gpu_device_info *info = &dev->info;
    int units = 0, clock = 0, version = 0, major = 0, minor = 0;
    size_t memory = 0;
    drv.hipDeviceGetName(info->name, sizeof info->name, dev->handle);
    drv.hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor, i);
    drv.hipDeviceGetAttribute(&minor, hipDeviceAttributeComputeCapabilityMinor, i);
    drv.hipDeviceGetAttribute(&units, hipDeviceAttributeMultiprocessorCount, i);
    drv.hipDeviceGetAttribute(&clock, hipDeviceAttributeClockRate, i);
    drv.hipDeviceTotalMem(&memory, dev->handle);
    drv.hipDriverGetVersion(&version);
    snprintf(info->version, sizeof info->version, "gfx %d.%d", major, minor);
    snprintf(info->platform_name, sizeof info->platform_name,
             "HIP driver %d", version);
    info->compute_units = (unsigned)units;
    info->clock_mhz = (unsigned)(clock / 1000);
    info->memory = memory;
}
static drv_result drv_get(int i, drv_device *d) { return drv.hipDeviceGet(d, i); }
static drv_result drv_open(device_state *dev) { (void)dev; return hipSuccess; }
static drv_result drv_enter(device_state *dev, drv_saved *saved)
{
    if (drv.hipGetDevice(saved) != hipSuccess)
        *saved = -1;
    return *saved == dev->info.device ? hipSuccess
                                      : drv.hipSetDevice(dev->info.device);
}
static void drv_leave(drv_saved saved)
{
    int now = -1;
    if (saved >= 0 && drv.hipGetDevice(&now) == hipSuccess && now != saved)
        drv.hipSetDevice(saved);
}
static drv_result drv_load_module(const void *image, drv_module *m)
{
    return drv.hipModuleLoadData(m, image);
}
static drv_result drv_get_function(drv_module m, const char *name,
                                   drv_function *f)
{
    return drv.hipModuleGetFunction(f, m, name);
}
static drv_result drv_launch(drv_function f, const unsigned *grid,
                             const unsigned *block, drv_stream s,
                             void **params)
{
    return drv.hipModuleLaunchKernel(f, grid[0], grid[1], 1, block[0],
                                     block[1], 1, 0, s, params, NULL);
}
static drv_result drv_malloc(void **p, size_t bytes) { return drv.hipMalloc(p, bytes); }
static drv_result drv_free(void *p) { return drv.hipFree(p); }
static drv_result drv_memory_free(size_t *free_bytes)
{
    size_t total = 0;
    return drv.hipMemGetInfo(free_bytes, &total);
}
static drv_result drv_malloc_async(void **p, size_t bytes, drv_stream s)
{
    return drv.hipMallocAsync(p, bytes, s);
}
static drv_result drv_free_async(void *p, drv_stream s) { return drv.hipFreeAsync(p, s); }
static drv_result drv_host_alloc(void **p, size_t bytes)
{
    return drv.hipHostMalloc(p, bytes, 0);
}
static drv_result drv_host_free(void *p) { return drv.hipHostFree(p); }
static drv_result drv_htod(void *dst, const void *src, size_t bytes,
                           drv_stream s)
{
    return drv.hipMemcpyHtoDAsync(dst, (void *)src, bytes, s);
}
static drv_result drv_dtoh(void *dst, const void *src, size_t bytes,
                           drv_stream s)
{
    return drv.hipMemcpyDtoHAsync(dst, (void *)src, bytes, s);
}
static drv_result drv_dtod(void *dst, const void *src, size_t bytes,
                           drv_stream s)
{
    return drv.hipMemcpyDtoDAsync(dst, (void *)src, bytes, s);
}
static drv_result drv_copy_2d(int to_device, void *dst, size_t dpitch,
                              const void *src, size_t spitch, size_t width,
                              size_t height, drv_stream s)
{
    return drv.hipMemcpy2DAsync(dst, dpitch, src, spitch, width, height,
                                to_device ? hipMemcpyHostToDevice
                                          : hipMemcpyDeviceToHost,
                                s);
}
static drv_result drv_host_register(void *p, size_t bytes)
{
    return drv.hipHostRegister(p, bytes, 0);
}
static drv_result drv_host_unregister(void *p) { return drv.hipHostUnregister(p); }
static drv_result drv_stream_create(drv_stream *s)
{
    return drv.hipStreamCreateWithFlags(s, hipStreamNonBlocking);
}
static drv_result drv_stream_sync(drv_stream s) { return drv.hipStreamSynchronize(s); }
static drv_result drv_stream_destroy(drv_stream s) { return drv.hipStreamDestroy(s); }
static drv_result drv_stream_wait(drv_stream s, drv_event e)
{
    return drv.hipStreamWaitEvent(s, e, 0);
}
static drv_result drv_event_create(drv_event *e)
{
    return drv.hipEventCreateWithFlags(e, hipEventDisableTiming);
}
static drv_result drv_event_record(drv_event e, drv_stream s) { return drv.hipEventRecord(e, s); }
static drv_result drv_event_sync(drv_event e) { return drv.hipEventSynchronize(e); }
static drv_result drv_event_destroy(drv_event e) { return drv.hipEventDestroy(e); }
static drv_result drv_capture_begin(drv_stream s)
{
    return drv.hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal);
}
static drv_result drv_capture_end(drv_stream s, drv_graph *g) { return drv.hipStreamEndCapture(s, g); }
static drv_result drv_graph_instantiate(drv_graph_exec *e, drv_graph g)
{
    return drv.hipGraphInstantiate(e, g, NULL, NULL, 0);
}
static drv_result drv_graph_launch(drv_graph_exec e, drv_stream s) { return drv.hipGraphLaunch(e, s); }
static void drv_graph_free(drv_graph_exec e, drv_graph g)
{
    if (e)
        drv.hipGraphExecDestroy(e);
    if (g)
        drv.hipGraphDestroy(g);
}
#endif

/* ==== API-neutral part ==================================================== */

/* ---- discovery ------------------------------------------------------------ */

static void discover(void)
{
    if (load_driver() != 0)
        return;
    drv_result rc = drv_init();
    int count = 0;
    if (rc == DRV_OK)
        rc = drv_count(&count);
    if (rc != DRV_OK) {
        /* 100: CUDA_ERROR_NO_DEVICE, hipErrorNoDevice; 101: invalid device,
         * what ROCm's hipInit says on a machine without an AMD GPU */
        char detail[64];
        snprintf(detail, sizeof detail, "driver error %d", (int)rc);
        gl_runtime_failed(API, rc == 100 || rc == 101 ? "no-device"
                                                    : "runtime-init-failed",
                          detail);
        return;
    }
    for (int i = 0; i < count && ndevices < MAX_DEVICES; i++) {
        device_state *dev = &devices[ndevices];
        if (drv_get(i, &dev->handle) != DRV_OK)
            continue;
        dev->info.platform = -1;
        dev->info.device = i;
        snprintf(dev->info.id, sizeof dev->info.id, API ":%d", i);
        dev->info.gpu = 1;
        dev->info.fp64 = 1;
        drv_describe(i, dev);
        pthread_mutex_init(&dev->lock, NULL);
        ndevices++;
    }
    gl_log(2, API ": %d device(s)", ndevices);
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

/* Device `device` (-1: the one with the most memory times units). */
static int choose(int platform, int device, int gpu_only)
{
    (void)platform;
    (void)gpu_only;
    int best = -1;
    double best_score = -1;
    for (int i = 0; i < device_count(); i++) {
        const gl_gpu_device_info *info = &devices[i].info;
        double score = (double)info->memory * (info->compute_units + 1);
        if ((device < 0 || info->device == device) && score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* Opens device i for contexts, once (CUDA: retains its primary context,
 * kept for the process). */
static int prepare(int i)
{
    if (i < 0 || i >= device_count())
        return -1;
    device_state *dev = &devices[i];
    pthread_mutex_lock(&dev->lock);
    drv_result rc = dev->opened ? DRV_OK : drv_open(dev);
    if (rc == DRV_OK)
        dev->opened = 1;
    pthread_mutex_unlock(&dev->lock);
    if (rc != DRV_OK) {
        char detail[64];
        snprintf(detail, sizeof detail, "device %d cannot be opened (error %d)",
                 i, (int)rc);
        gl_runtime_failed(API, "runtime-init-failed", detail);
        return -1;
    }
    return 0;
}

/* Free memory of device i (prepared) as its driver reports it; 0 when
 * the driver cannot say. */
static unsigned long long memory_free(int i)
{
    if (!drv.memory_info || i < 0 || i >= ndevices || !devices[i].opened)
        return 0;
    drv_saved saved;
    size_t free_bytes = 0;
    if (drv_enter(&devices[i], &saved) != DRV_OK)
        return 0;
    if (drv_memory_free(&free_bytes) != DRV_OK)
        free_bytes = 0;
    drv_leave(saved);
    return free_bytes;
}

/* The device of context ctx (prepared); NULL if it names none. */
static device_state *device_of(const gl_ctx *ctx)
{
    return ctx && ctx->device >= 0 && ctx->device < ndevices
               ? &devices[ctx->device]
               : NULL;
}

/* Work-groups for a launch whose groups wait for each other: one per
 * multiprocessor keeps the context's device busy. */
static int resident_groups(gl_ctx *ctx)
{
    device_state *dev = device_of(ctx);
    return dev && dev->info.compute_units > 0 ? (int)dev->info.compute_units
                                              : 1;
}

/* The kernels of precision p on dev: the module is loaded once. */
static drv_function *kernels_of(device_state *dev, int precision)
{
    int p = precision - 1;
    pthread_mutex_lock(&dev->lock);
    if (dev->module_state[p] == 0) {
        dev->module_state[p] = -1;
        drv_module module;
        drv_result rc = drv_load_module(images[p], &module);
        for (int k = 0; k < GL_K_COUNT && rc == DRV_OK; k++)
            rc = drv_get_function(module, gl_kernel_names[k],
                                  &dev->kernels[p][k]);
        if (rc == DRV_OK)
            dev->module_state[p] = 1;
        else
            gl_log(1, API ": kernels of precision %d do not load (error %d)",
                   precision, (int)rc);
    }
    drv_function *k = dev->module_state[p] == 1 ? dev->kernels[p] : NULL;
    pthread_mutex_unlock(&dev->lock);
    return k;
}

/* ---- queue state of a context --------------------------------------------- */

/* Transfers are staged through two halves of page-locked memory: the host
 * packs one half while the other is copied by DMA.  A context that moves a
 * large matrix gets larger halves (kept for the context), so that the
 * per-chunk costs (a wait, the start of the host copy's threads) stay
 * small beside the chunk's DMA. */
enum {
    STAGE_BYTES = 16 << 20,
    LARGE_STAGE_BYTES = 64 << 20,
    LARGE_TRANSFER_BYTES = 256 << 20
};
/* A graph replays at most this many captured launches; longer batches are
 * cut into several graphs (instantiation cost grows with the node count). */
enum { GRAPH_LAUNCHES = 4096 };

/* The runtime's state of one context (ctx->queue, gpu.h open). */
typedef struct queue_state {
    device_state *dev;       /* the context's device: the objects below
                                belong to it */
    drv_stream stream;
    /* reads beside later work (gpu.h mark): the point marked on stream,
     * and the second stream they run on; made on first use */
    drv_stream side;
    drv_event mark;
    int marked;
    /* the copy lanes (gpu.h lane_write): their streams and the event
     * slots, made on first use; the slots recorded in this call; the host
     * ranges registered for them */
    drv_stream lane[GL_LANES - 1];
    drv_event event[GL_LANE_EVENTS];
    uint32_t recorded;   /* a bit per slot */
    struct {
        char *base;
        size_t bytes;
    } registered[GL_HOST_RANGES];
    char *stage[2];          /* pinned, stage_bytes each */
    drv_event staged[2];     /* the DMA that last used stage[h] */
    size_t stage_bytes;
    void *scratch;           /* device memory for strided copies */
    size_t scratch_bytes;
    void *blas;              /* the context's cuBLAS handle, NULL if none */
    void *solver;            /* the context's cuSOLVER handle (rocBLAS's
                                for rocSOLVER), NULL if none */
    void *solver_params;     /* cuSOLVER's 64-bit API parameters */
    int capturing, captured; /* a graph is being recorded; its launches */
    int failed;              /* the error state of gpu.h */
} queue_state;

_Static_assert(GL_LANE_EVENTS <= 32, "queue_state.recorded: a bit per slot");

static void blas_free(void *handle);
static void solver_free(queue_state *q);

/* The state of context ctx on its device (prepared), made with the device
 * current: its stream and the two staging events; staging, scratch, the
 * second stream and the cuBLAS handle come on first use. */
static int open_queue(gl_ctx *ctx)
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
static void close_queue(gl_ctx *ctx)
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
static queue_state *enter(gl_ctx *ctx, drv_saved *saved)
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

static void leave(drv_saved saved) { drv_leave(saved); }

static void fail(gl_ctx *ctx)
{
    queue_state *q = ctx ? ctx->queue : NULL;
    if (q)
        q->failed = 1;
}

static void reset(gl_ctx *ctx)
{
    queue_state *q = ctx ? ctx->queue : NULL;
    if (q) {
        q->failed = 0;
        q->marked = 0;   /* a mark holds within one call */
        q->recorded = 0;   /* and so do the lanes' records */
    }
}

/* rc as 0/-1, remembered in the context's error state when a failure */
static int checked(queue_state *q, int failed)
{
    if (failed)
        q->failed = 1;
    return failed ? -1 : 0;
}

/* ---- memory ------------------------------------------------------------- */

/* Memory of the operations is stream-ordered where the driver has it
 * (CUDA 11.2+): allocating and freeing cost no synchronization, and a free
 * takes effect after the work enqueued before it -- the operations
 * allocate scratch for every panel and product.  Otherwise the free waits
 * for the context's stream. */
static void *alloc(gl_ctx *ctx, size_t bytes)
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

static void release(gl_ctx *ctx, void *ptr)
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

/* The context's two staging halves of at least bytes each (one column of
 * a transfer of total bytes in all). */
static int staging(queue_state *q, size_t bytes, size_t total)
{
    size_t want = total >= LARGE_TRANSFER_BYTES ? LARGE_STAGE_BYTES : STAGE_BYTES;
    if (want < bytes)
        want = bytes;
    if (want <= q->stage_bytes)
        return 0;
    drv_stream_sync(q->stream);
    for (int h = 0; h < 2; h++)
        if (q->stage[h]) {
            drv_host_free(q->stage[h]);
            q->stage[h] = NULL;
        }
    q->stage_bytes = 0;
    for (int h = 0; h < 2; h++)
        if (drv_host_alloc((void **)&q->stage[h], want) != DRV_OK)
            return -1;
    q->stage_bytes = want;
    return 0;
}

static int scratch(queue_state *q, size_t bytes)
{
    if (bytes <= q->scratch_bytes)
        return 0;
    drv_stream_sync(q->stream);
    if (q->scratch)
        drv_free(q->scratch);
    q->scratch = NULL;
    q->scratch_bytes = 0;
    if (drv_malloc(&q->scratch, bytes) != DRV_OK)
        return -1;
    q->scratch_bytes = bytes;
    return 0;
}

/* ---- kernels ---------------------------------------------------------------- */

enum { MAX_ARGS = 24 };

static int batch_cut(queue_state *q);

static int launch_on(queue_state *q, int precision, gl_kernel k, int dims,
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

static int launch(gl_ctx *ctx, int precision, gl_kernel k, int dims, const size_t *groups,
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

/* dst = src on the device through the copy kernel (gpu.h
 * gl_copy_launch; CUDA and HIP devices all have fp64). */
static int copy_kernel(queue_state *q, size_t elem, size_t rows, size_t cols,
                       const void *src, size_t ld_src, void *dst,
                       size_t ld_dst)
{
    gl_copy_launch l;
    if (gl_copy_launch_make(&l, 1, elem, rows, cols, src, ld_src, dst,
                            ld_dst) != 0)
        return -1;
    return launch_on(q, l.precision, GL_K_COPY, 2, l.groups, l.local, 7,
                     l.args);
}

/* ---- copies ------------------------------------------------------------- */

/* Columns per staging half (at least one; staging() makes a half hold a
 * column). */
static size_t chunk_cols(const queue_state *q, size_t elem, size_t rows,
                         size_t cols)
{
    size_t per = q->stage_bytes / (elem * rows);
    return per < cols ? per : cols;
}

/* Host copies between a staging half and the caller's memory: cols
 * columns of bytes each, leading dimensions in bytes.  One thread's
 * memcpy moves about 10 GB/s, a PCIe 5 x16 link about 50 GB/s pinned, so
 * a large chunk is copied by the host's threads, in pieces of at most
 * COPY_PIECE bytes. */
enum { COPY_PIECE = 1 << 20, PARALLEL_COPY_BYTES = 4 << 20 };

typedef struct host_copy_job {
    char *dst;
    const char *src;
    size_t ld_dst, ld_src, bytes, pieces;   /* pieces per column */
} host_copy_job;

static int host_copy_piece(void *ctx, long item)
{
    const host_copy_job *c = ctx;
    size_t j = (size_t)item / c->pieces, p = (size_t)item % c->pieces,
           off = p * COPY_PIECE,
           n = c->bytes - off < COPY_PIECE ? c->bytes - off : COPY_PIECE;
    memcpy(c->dst + j * c->ld_dst + off, c->src + j * c->ld_src + off, n);
    return 0;
}

static void host_copy(char *dst, size_t ld_dst, const char *src,
                      size_t ld_src, size_t bytes, size_t cols)
{
    if (ld_dst == bytes && ld_src == bytes) {   /* one contiguous column */
        bytes *= cols;
        cols = 1;
    }
    if (bytes * cols < PARALLEL_COPY_BYTES) {
        for (size_t j = 0; j < cols; j++)
            memcpy(dst + j * ld_dst, src + j * ld_src, bytes);
        return;
    }
    host_copy_job c = {dst, src, ld_dst, ld_src, bytes,
                       (bytes + COPY_PIECE - 1) / COPY_PIECE};
    gl_parallel_for((long)(cols * c.pieces), host_copy_piece, &c);
}

static int write_on(queue_state *q, size_t elem, size_t rows, size_t cols,
                    const char *src, size_t ld_src, char *dst, size_t ld_dst)
{
    if (gl_fault_hit(GL_FAULT_COPY) ||
        staging(q, elem * rows, elem * rows * cols) != 0)
        return -1;
    size_t per = chunk_cols(q, elem, rows, cols);
    int strided = ld_dst != rows;
    if (strided && scratch(q, elem * rows * per) != 0)
        return -1;
    for (size_t j0 = 0, h = 0; j0 < cols; j0 += per, h ^= 1) {
        size_t nc = cols - j0 < per ? cols - j0 : per;
        /* the DMA that last read this half is done before it is refilled */
        if (drv_event_sync(q->staged[h]) != DRV_OK)
            return -1;
        host_copy(q->stage[h], rows * elem, src + j0 * ld_src * elem,
                  ld_src * elem, rows * elem, nc);
        char *to = dst + j0 * ld_dst * elem;
        if (drv_htod(strided ? q->scratch : to, q->stage[h], nc * rows * elem,
                     q->stream) != DRV_OK ||
            drv_event_record(q->staged[h], q->stream) != DRV_OK ||
            (strided && copy_kernel(q, elem, rows, nc, q->scratch, rows, to,
                                    ld_dst) != 0))
            return -1;
    }
    return 0;
}

static int gpu_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
                     size_t ld_src, void *dst, size_t ld_dst)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)
        ld_src = ld_dst = rows;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = checked(q, write_on(q, elem, rows, cols, src, ld_src, dst,
                                 ld_dst) != 0);
    leave(saved);
    return rc;
}

static int gpu_copy(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
                    size_t ld_src, void *dst, size_t ld_dst)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)
        ld_src = ld_dst = rows;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int failed = gl_fault_hit(GL_FAULT_COPY) ||
        (ld_src == rows && ld_dst == rows
             ? drv_dtod(dst, src, elem * rows * cols, q->stream) != DRV_OK
             : copy_kernel(q, elem, rows, cols, src, ld_src, dst, ld_dst));
    int rc = checked(q, failed);
    leave(saved);
    return rc;
}

/* The chunk in staging half h (cols columns of col bytes, starting at
 * column j0 of the matrix), once its DMA is done, into dst. */
static int unstage(queue_state *q, size_t h, size_t col, size_t cols,
                   char *dst, size_t ld_dst_bytes, size_t j0)
{
    if (drv_event_sync(q->staged[h]) != DRV_OK)
        return -1;
    host_copy(dst + j0 * ld_dst_bytes, ld_dst_bytes, q->stage[h], col, col,
              cols);
    return 0;
}

/* The matrix src (rows x cols) into dst, chunk by chunk through the two
 * staging halves: the DMA of a chunk runs while the host copies the chunk
 * before it out of the other half.  A failure can leave dst written in
 * part. */
static int read_on(queue_state *q, drv_stream stream, size_t elem,
                   size_t rows, size_t cols, const char *src, size_t ld_src,
                   char *dst, size_t ld_dst)
{
    if (gl_fault_hit(GL_FAULT_COPY) ||
        staging(q, elem * rows, elem * rows * cols) != 0)
        return -1;
    size_t per = chunk_cols(q, elem, rows, cols);
    int strided = ld_src != rows;
    if (strided && scratch(q, elem * rows * per) != 0)
        return -1;
    size_t col = elem * rows;
    size_t pending = 0, pending_j0 = 0;   /* columns in stage[h ^ 1] */
    size_t h = 0;
    for (size_t j0 = 0; j0 < cols; j0 += per, h ^= 1) {
        size_t nc = cols - j0 < per ? cols - j0 : per;
        const char *from = src + j0 * ld_src * elem;
        /* in stream order: the copy kernel that refills the scratch runs
         * after the DMA that read it (strided reads take the context's
         * stream: read_marked) */
        if ((strided && copy_kernel(q, elem, rows, nc, from, ld_src,
                                    q->scratch, rows) != 0) ||
            drv_dtoh(q->stage[h], strided ? q->scratch : from, nc * col,
                     stream) != DRV_OK ||
            drv_event_record(q->staged[h], stream) != DRV_OK)
            return -1;
        if (pending && unstage(q, h ^ 1, col, pending, dst, ld_dst * elem,
                               pending_j0) != 0)
            return -1;
        pending = nc;
        pending_j0 = j0;
    }
    return pending ? unstage(q, h ^ 1, col, pending, dst, ld_dst * elem,
                             pending_j0)
                   : 0;
}

/* src into dst through the staging halves on stream, which must follow
 * everything dst depends on.  whole: dst is written only by a complete
 * read (gpu.h read); else it may be left written in part (read_direct). */
static int read_into(queue_state *q, drv_stream stream, size_t elem,
                     size_t rows, size_t cols, const void *src,
                     size_t ld_src, void *dst, size_t ld_dst, int whole)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)
        ld_src = ld_dst = rows;
    /* A read of more than one chunk that must be whole lands in a host
     * array first (kept by the memory module between calls, so a
     * repeated call meets no page faults), then in dst. */
    size_t bytes = elem * rows * cols;
    int bounce = whole && staging(q, elem * rows, bytes) == 0 &&
                 chunk_cols(q, elem, rows, cols) < cols;
    char *out = bounce ? gl_host_alloc(bytes) : NULL;
    int rc;
    if (bounce && !out)
        rc = -1;
    else if (out)
        rc = read_on(q, stream, elem, rows, cols, src, ld_src, out, rows);
    else
        rc = read_on(q, stream, elem, rows, cols, src, ld_src, dst, ld_dst);
    if (rc == 0 && out)
        host_copy(dst, ld_dst * elem, out, rows * elem, rows * elem, cols);
    gl_host_free(out);
    return rc;
}

/* Waits for the context's stream and its lanes; a failure sets the error
 * state. */
static void sync_queues(queue_state *q)
{
    drv_result sync = drv_stream_sync(q->stream);
    for (int i = 0; i < GL_LANES - 1 && sync == DRV_OK; i++)
        if (q->lane[i])
            sync = drv_stream_sync(q->lane[i]);
    if (sync != DRV_OK) {
        gl_log(1, API ": stream synchronization failed (error %d)", (int)sync);
        q->failed = 1;
    }
}

static int read_matrix(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
                       size_t ld_src, void *dst, size_t ld_dst, int whole)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    sync_queues(q);
    int rc = q->failed ? -1
                       : checked(q, read_into(q, q->stream, elem, rows, cols,
                                              src, ld_src, dst, ld_dst,
                                              whole) != 0);
    leave(saved);
    return rc;
}

static int gpu_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
                    size_t ld_src, void *dst, size_t ld_dst)
{
    return read_matrix(ctx, elem, rows, cols, src, ld_src, dst, ld_dst, 1);
}

static int gpu_read_direct(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                           const void *src, size_t ld_src, void *dst,
                           size_t ld_dst)
{
    return read_matrix(ctx, elem, rows, cols, src, ld_src, dst, ld_dst, 0);
}

/* Reads beside later work (gpu.h): the side stream waits for the mark
 * and for the last DMA of each staging half (a write enqueued after the
 * mark may still be reading one), then copies while the context's stream
 * runs what was enqueued since.  A strided src needs the scratch and the
 * copy kernel of the context's stream: it is read in order instead. */
static int gpu_mark(gl_ctx *ctx)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = 0;
    if (!q->mark && drv_event_create(&q->mark) != DRV_OK)
        q->mark = NULL;
    if (!q->side && drv_stream_create(&q->side) != DRV_OK)
        q->side = NULL;
    q->marked = q->mark && q->side &&
                drv_event_record(q->mark, q->stream) == DRV_OK;
    if (!q->marked)
        rc = -1;
    leave(saved);
    return rc;
}

static int gpu_read_marked(gl_ctx *ctx, int whole, size_t elem, size_t rows, size_t cols,
                           const void *src, size_t ld_src, void *dst,
                           size_t ld_dst)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    if (!q->marked || (cols > 1 && ld_src != rows) || q->capturing) {
        leave(saved);
        return read_matrix(ctx, elem, rows, cols, src, ld_src, dst, ld_dst, whole);
    }
    int rc = q->failed ? -1 : 0;
    if (rc == 0 && (drv_stream_wait(q->side, q->mark) != DRV_OK ||
                    drv_stream_wait(q->side, q->staged[0]) != DRV_OK ||
                    drv_stream_wait(q->side, q->staged[1]) != DRV_OK))
        rc = -1;
    if (rc == 0)
        rc = read_into(q, q->side, elem, rows, cols, src, ld_src, dst,
                       ld_dst, whole);
    if (drv_stream_sync(q->side) != DRV_OK)
        rc = -1;
    rc = checked(q, rc != 0);
    leave(saved);
    return rc;
}

static int gpu_finish(gl_ctx *ctx)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    /* inside a recording the stream cannot wait: the batch's end does */
    if (!q->capturing)
        sync_queues(q);
    int rc = q->failed ? -1 : 0;
    leave(saved);
    return rc;
}

/* ---- the copy lanes ------------------------------------------------------- */

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

static int gpu_lane_record(gl_ctx *ctx, int queue, int event)
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

static int gpu_lane_wait(gl_ctx *ctx, int queue, int event)
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

static int gpu_lane_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                          const void *src, size_t ld_src, void *dst,
                          size_t ld_dst)
{
    return lane_copy(ctx, 1, elem, rows, cols, src, ld_src, dst, ld_dst);
}

static int gpu_lane_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                         const void *src, size_t ld_src, void *dst,
                         size_t ld_dst)
{
    return lane_copy(ctx, 0, elem, rows, cols, src, ld_src, dst, ld_dst);
}

/* At most GL_HOST_RANGES ranges per context (the streamed plans' host
 * copies).  A refusal is no failure: the lanes then copy in order. */
static int gpu_host_register(gl_ctx *ctx, void *ptr, size_t bytes)
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

static void gpu_host_unregister(gl_ctx *ctx, void *ptr)
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

static void batch_begin(gl_ctx *ctx, int precision)
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

static int batch_end(gl_ctx *ctx)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = q->capturing ? checked(q, capture_finish(q) != 0) : 0;
    leave(saved);
    return q->failed ? -1 : rc;
}

/* ---- vendor BLAS ---------------------------------------------------------- */

/* The first of the sonames (NULL-terminated) that opens, or NULL: a
 * vendor library, opened once and never closed (the loaders below). */
static void *open_first(const char *const *names)
{
    void *lib = NULL;
    for (int i = 0; names[i] && !lib; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    return lib;
}

#if defined(GL_API_CUDA)
#include <cublas_v2.h>

/* cuBLAS, opened on first use (GPULAPACK_VENDOR_BLAS=0: never): its
 * handle per context, on the context's stream. */
#define BLAS_FUNCS(X)                                                        \
    X(cublasCreate) X(cublasDestroy) X(cublasSetStream) X(cublasSgemm)      \
    X(cublasDgemm) X(cublasCgemm) X(cublasZgemm) X(cublasSsymm)              \
    X(cublasDsymm) X(cublasChemm) X(cublasZhemm) X(cublasSsyr2k)             \
    X(cublasDsyr2k) X(cublasCher2k) X(cublasZher2k) X(cublasSsymv)          \
    X(cublasDsymv) X(cublasChemv) X(cublasZhemv)                            \
    X(cublasSgemmStridedBatched) X(cublasDgemmStridedBatched)                \
    X(cublasCgemmStridedBatched) X(cublasZgemmStridedBatched)
static struct {
#define BLAS_DECLARE(f) __typeof__(f) *f;
    BLAS_FUNCS(BLAS_DECLARE)
#undef BLAS_DECLARE
    int loaded;
} blas;
static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

static void blas_free(void *handle) { blas.cublasDestroy(handle); }

static void blas_load(void)
{
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12",
                                        "libcublas.so.11", "libcublas.so",
                                        NULL};
    if (gl_config_get()->vendor_blas == 0)
        return;
    void *lib = open_first(names);
    if (!lib)
        return;
#define BLAS_LOAD(f)                                                         \
    if (!(*(void **)&blas.f = dlsym(lib, STRING(f))))                        \
        return;
    BLAS_FUNCS(BLAS_LOAD)
#undef BLAS_LOAD
    blas.loaded = 1;
    gl_log(2, API ": cuBLAS loaded");
}

/* The context's cuBLAS handle on the context's stream: made on first use
 * (with the context's device current), destroyed with the context's state.
 * NULL with *rc = 1 when no handle can be made (the caller uses the
 * portable kernel), -1 when the stream cannot be set. */
static cublasHandle_t blas_handle(queue_state *q, int *rc)
{
    if (!q->blas) {
        cublasHandle_t handle;
        if (blas.cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
            *rc = 1;
            return NULL;
        }
        q->blas = handle;
    }
    if (gl_fault_hit(GL_FAULT_LAUNCH) ||
        blas.cublasSetStream(q->blas, q->stream) != CUBLAS_STATUS_SUCCESS) {
        *rc = -1;
        return NULL;
    }
    return q->blas;
}

/* cuBLAS takes int dimensions */
static int fits_int(size_t a, size_t b, size_t c, size_t d, size_t e,
                    size_t f)
{
    return (a | b | c | d | e | f) <= 0x7fffffff;
}

/* One vendor BLAS call of a context: the operation with its arguments,
 * run by blas_call_on on the context's handle. */
typedef struct blas_call_args {
    enum { CALL_GEMM, CALL_HEMM, CALL_HER2K, CALL_GEMM_BATCHED } op;
    int precision, opt1, opt2;   /* gemm: transa, transb; hemm: side,
                                    lower; her2k: lower, trans */
    size_t m, n, k, lda, ldb, ldc;
    const void *alpha, *a, *b, *beta;
    void *c;
    size_t stride_a, stride_b, stride_c, count;   /* batched gemm */
} blas_call_args;

static int blas_call_on(queue_state *q, const blas_call_args *x)
{
    if (!fits_int(x->m, x->n, x->k, x->lda, x->ldb, x->ldc) ||
        x->count > 0x7fffffff)
        return 1;
    int rc = 0;
    cublasHandle_t h = blas_handle(q, &rc);
    if (!h)
        return rc;
    int m = (int)x->m, n = (int)x->n, k = (int)x->k, lda = (int)x->lda,
        ldb = (int)x->ldb, ldc = (int)x->ldc, p = x->precision;
    const void *al = x->alpha, *a = x->a, *b = x->b, *be = x->beta;
    void *c = x->c;
    cublasStatus_t s = CUBLAS_STATUS_NOT_SUPPORTED;
    if (x->op == CALL_GEMM) {
        cublasOperation_t ta = (cublasOperation_t)x->opt1,
                          tb = (cublasOperation_t)x->opt2;
#define GEMM(f) blas.f(h, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc)
        s = p == 1 ? GEMM(cublasSgemm) : p == 2 ? GEMM(cublasDgemm)
          : p == 3 ? GEMM(cublasCgemm) : GEMM(cublasZgemm);
#undef GEMM
    } else if (x->op == CALL_GEMM_BATCHED) {
        cublasOperation_t ta = (cublasOperation_t)x->opt1,
                          tb = (cublasOperation_t)x->opt2;
        long long sa = (long long)x->stride_a, sb = (long long)x->stride_b,
                  sc = (long long)x->stride_c;
        int count = (int)x->count;
#define GEMM(f)                                                              \
    blas.f(h, ta, tb, m, n, k, al, a, lda, sa, b, ldb, sb, be, c, ldc, sc,   \
           count)
        s = p == 1 ? GEMM(cublasSgemmStridedBatched)
          : p == 2 ? GEMM(cublasDgemmStridedBatched)
          : p == 3 ? GEMM(cublasCgemmStridedBatched)
                   : GEMM(cublasZgemmStridedBatched);
#undef GEMM
    } else if (x->op == CALL_HEMM && !x->opt1 && n == 1) {
        /* one column from the left (the one-stage ?sytrd's products):
         * ?symv/?hemv, which streams the triangle once at the memory's
         * speed; ?symm of one column made dsytrd 6x slower than the
         * bandwidth bound on an H100 (docs/history.md, "the chase in one
         * launch, panel leaves over many work-groups (no GPU)") */
        cublasFillMode_t fill =
            x->opt2 ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
#define HEMV(f) blas.f(h, fill, m, al, a, lda, b, 1, be, c, 1)
        s = p == 1 ? HEMV(cublasSsymv) : p == 2 ? HEMV(cublasDsymv)
          : p == 3 ? HEMV(cublasChemv) : HEMV(cublasZhemv);
#undef HEMV
    } else if (x->op == CALL_HEMM) {
        cublasSideMode_t side = x->opt1 ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
        cublasFillMode_t fill =
            x->opt2 ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
#define HEMM(f) blas.f(h, side, fill, m, n, al, a, lda, b, ldb, be, c, ldc)
        s = p == 1 ? HEMM(cublasSsymm) : p == 2 ? HEMM(cublasDsymm)
          : p == 3 ? HEMM(cublasChemm) : HEMM(cublasZhemm);
#undef HEMM
    } else {
        cublasFillMode_t fill =
            x->opt1 ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
        cublasOperation_t tr = x->opt2 ? CUBLAS_OP_C : CUBLAS_OP_N;
        if (p <= 2 && x->opt2)
            tr = CUBLAS_OP_T;
#define HER2K(f) blas.f(h, fill, tr, n, k, al, a, lda, b, ldb, be, c, ldc)
        s = p == 1 ? HER2K(cublasSsyr2k) : p == 2 ? HER2K(cublasDsyr2k)
          : p == 3 ? HER2K(cublasCher2k) : HER2K(cublasZher2k);
#undef HER2K
    }
    if (s != CUBLAS_STATUS_SUCCESS)
        gl_log(1, API ": cuBLAS operation %d failed (status %d)", (int)x->op,
               (int)s);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

static int blas_call(gl_ctx *ctx, const blas_call_args *x)
{
    pthread_once(&blas_once, blas_load);
    if (!blas.loaded)
        return 1;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = blas_call_on(q, x);
    if (rc < 0)
        q->failed = 1;
    leave(saved);
    return rc;
}

static int blas_gemm(gl_ctx *ctx, int precision, int transa, int transb, size_t m,
                     size_t n, size_t k, const void *alpha, const void *a,
                     size_t lda, const void *b, size_t ldb, const void *beta,
                     void *c, size_t ldc)
{
    blas_call_args x = {CALL_GEMM, precision, transa, transb, m, n, k, lda,
                        ldb, ldc, alpha, a, b, beta, c, 0, 0, 0, 1};
    return blas_call(ctx, &x);
}

static int blas_gemm_batched(gl_ctx *ctx, int precision, int transa, int transb,
                             size_t m, size_t n, size_t k, const void *alpha,
                             const void *a, size_t lda, size_t stride_a,
                             const void *b, size_t ldb, size_t stride_b,
                             const void *beta, void *c, size_t ldc,
                             size_t stride_c, size_t count)
{
    blas_call_args x = {CALL_GEMM_BATCHED, precision, transa, transb, m, n,
                        k, lda, ldb, ldc, alpha, a, b, beta, c, stride_a,
                        stride_b, stride_c, count};
    return blas_call(ctx, &x);
}

static int blas_hemm(gl_ctx *ctx, int precision, int side_right, int lower, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda,
                     const void *b, size_t ldb, const void *beta, void *c,
                     size_t ldc)
{
    blas_call_args x = {CALL_HEMM, precision, side_right, lower, m, n, 0, lda,
                        ldb, ldc, alpha, a, b, beta, c, 0, 0, 0, 1};
    return blas_call(ctx, &x);
}

static int blas_her2k(gl_ctx *ctx, int precision, int lower, int trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda,
                      const void *b, size_t ldb, const void *beta, void *c,
                      size_t ldc)
{
    blas_call_args x = {CALL_HER2K, precision, lower, trans, 0, n, k, lda,
                        ldb, ldc, alpha, a, b, beta, c, 0, 0, 0, 1};
    return blas_call(ctx, &x);
}
#else
/* HIP: Debian 12 has no hipBLAS/rocBLAS package; the portable gemm
 * kernel serves (docs/STATUS.md). */
static void blas_free(void *handle) { (void)handle; }
static int blas_gemm(gl_ctx *ctx, int precision, int transa, int transb, size_t m,
                     size_t n, size_t k, const void *alpha, const void *a,
                     size_t lda, const void *b, size_t ldb, const void *beta,
                     void *c, size_t ldc)
{
    (void)ctx, (void)precision, (void)transa, (void)transb, (void)m, (void)n;
    (void)k;
    (void)alpha, (void)a, (void)lda, (void)b, (void)ldb, (void)beta, (void)c;
    (void)ldc;
    return 1;
}
#endif

/* ---- the vendor's eigensolver ------------------------------------------- */

/* Each API's part: solver_load (the library and its entry points, once),
 * solver_handle_make (the context's handle, with its device current),
 * solver_free, solver_workspace (device and host bytes of a call) and
 * solver_run (the call on the context's stream, INFO into device memory).
 * solver_ready, eig_solve and solver_version below are API-neutral. */
static pthread_once_t solver_once = PTHREAD_ONCE_INIT;

/* a solver call: what eig_solve passes to the API's part */
typedef struct solver_call {
    int precision;
    char jobz, uplo;
    int64_t n, lda;
    void *a, *w;
} solver_call;

#if defined(GL_API_CUDA)
#include <cusolverDn.h>

/* cuSOLVER's 64-bit API (Xsyevd, CUDA 11.1 and later).  The header gives
 * the types; cusolverDnSetAdvOptions is optional (older libraries). */
#define SOLVER_FUNCS(X)                                                      \
    X(cusolverDnCreate) X(cusolverDnDestroy) X(cusolverDnSetStream)          \
    X(cusolverDnCreateParams) X(cusolverDnDestroyParams)                     \
    X(cusolverDnXsyevd_bufferSize) X(cusolverDnXsyevd) X(cusolverGetProperty)
static struct {
#define SOLVER_DECLARE(f) __typeof__(f) *f;
    SOLVER_FUNCS(SOLVER_DECLARE)
#undef SOLVER_DECLARE
    __typeof__(cusolverDnSetAdvOptions) *cusolverDnSetAdvOptions;
    int loaded;
} solver;

static void solver_load(void)
{
    static const char *const names[] = {"libcusolver.so.12",
                                        "libcusolver.so.11", "libcusolver.so",
                                        NULL};
    void *lib = open_first(names);
    if (!lib)
        return;
#define SOLVER_LOAD(f)                                                       \
    if (!(*(void **)&solver.f = dlsym(lib, STRING(f))))                      \
        return;
    SOLVER_FUNCS(SOLVER_LOAD)
#undef SOLVER_LOAD
    *(void **)&solver.cusolverDnSetAdvOptions =
        dlsym(lib, "cusolverDnSetAdvOptions");
    solver.loaded = 1;
    gl_log(2, API ": cuSOLVER loaded");
}

static int solver_version_of(char *buf, size_t len)
{
    int v[3] = {0, 0, 0};
    if (solver.cusolverGetProperty(MAJOR_VERSION, &v[0]) != CUSOLVER_STATUS_SUCCESS ||
        solver.cusolverGetProperty(MINOR_VERSION, &v[1]) != CUSOLVER_STATUS_SUCCESS ||
        solver.cusolverGetProperty(PATCH_LEVEL, &v[2]) != CUSOLVER_STATUS_SUCCESS)
        return -1;
    snprintf(buf, len, "cuSOLVER %d.%d.%d", v[0], v[1], v[2]);
    return 0;
}

/* The context's handle and parameters, Xsyevd's algorithm selected in them
 * where asked for and selectable (else cuSOLVER's default, logged). */
static int solver_handle_make(queue_state *q)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    if (solver.cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS)
        return -1;
    if (solver.cusolverDnCreateParams(&p) != CUSOLVER_STATUS_SUCCESS) {
        solver.cusolverDnDestroy(h);
        return -1;
    }
    q->solver = h;
    q->solver_params = p;
    /* GPULAPACK_CUSOLVER_SYEVD_ALG (1, 2; 0: cuSOLVER's default) through
     * the cusolverDnFunction_t value that selects Xsyevd's algorithm
     * (GPULAPACK_CUSOLVER_SYEVD_FUNCTION; -1: not known -- the headers up
     * to 12.0.4 have none, docs/env.md) */
    int alg = gl_config_get()->cusolver_syevd_alg,
        function = gl_config_get()->cusolver_syevd_function;
    if (!alg)
        return 0;
    cusolverStatus_t s = CUSOLVER_STATUS_NOT_SUPPORTED;
    if (function >= 0 && solver.cusolverDnSetAdvOptions)
        s = solver.cusolverDnSetAdvOptions(
            p, (cusolverDnFunction_t)function,
            alg == 1 ? CUSOLVER_ALG_1 : CUSOLVER_ALG_2);
    if (s != CUSOLVER_STATUS_SUCCESS)
        gl_log(1, API ": Xsyevd ALG_%d not selectable (function %d, status "
                      "%d): cuSOLVER's default", alg, function, (int)s);
    return 0;
}

static void solver_free(queue_state *q)
{
    if (q->solver_params)
        solver.cusolverDnDestroyParams(q->solver_params);
    solver.cusolverDnDestroy(q->solver);
    q->solver = q->solver_params = NULL;
}

static void solver_types(int precision, cudaDataType *ta, cudaDataType *tw)
{
    *tw = precision == 1 || precision == 3 ? CUDA_R_32F : CUDA_R_64F;
    *ta = precision == 3 ? CUDA_C_32F : precision == 4 ? CUDA_C_64F : *tw;
}

static int solver_on_stream(queue_state *q)
{
    return solver.cusolverDnSetStream(q->solver, q->stream) ==
                   CUSOLVER_STATUS_SUCCESS
               ? 0
               : -1;
}

static int solver_workspace(queue_state *q, const solver_call *c,
                            size_t *dbytes, size_t *hbytes)
{
    cudaDataType ta, tw;
    solver_types(c->precision, &ta, &tw);
    if (solver_on_stream(q) != 0)
        return -1;
    cusolverStatus_t s = solver.cusolverDnXsyevd_bufferSize(
        q->solver, q->solver_params,
        c->jobz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR,
        c->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
        c->n, ta, c->a, c->lda, tw, c->w, ta, dbytes, hbytes);
    if (s != CUSOLVER_STATUS_SUCCESS)
        gl_log(1, API ": Xsyevd_bufferSize failed (status %d)", (int)s);
    return s == CUSOLVER_STATUS_SUCCESS ? 0 : -1;
}

static int solver_run(queue_state *q, const solver_call *c, void *dwork,
                      size_t dbytes, void *hwork, size_t hbytes, int *info)
{
    cudaDataType ta, tw;
    solver_types(c->precision, &ta, &tw);
    if (solver_on_stream(q) != 0)
        return -1;
    cusolverStatus_t s = solver.cusolverDnXsyevd(
        q->solver, q->solver_params,
        c->jobz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR,
        c->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
        c->n, ta, c->a, c->lda, tw, c->w, ta, dwork, dbytes, hwork, hbytes,
        info);
    if (s != CUSOLVER_STATUS_SUCCESS)
        gl_log(1, API ": Xsyevd failed (status %d)", (int)s);
    return s == CUSOLVER_STATUS_SUCCESS ? 0 : -1;
}

#else /* HIP */
/* rocSOLVER, with a rocBLAS handle (rocSOLVER's handle type; rocSOLVER
 * depends on rocBLAS, so both are found through rocSOLVER's library).
 * Debian 12 packages neither, so their headers may be missing: the few
 * declarations used are rocSOLVER's documented C API, copied by hand --
 * rocblas_status rocsolver_dsyevd(rocblas_handle handle, const
 * rocblas_evect evect, const rocblas_fill uplo, const rocblas_int n,
 * double *A, const rocblas_int lda, double *D, double *E, rocblas_int
 * *info) and its s/c/z siblings (cheevd/zheevd: rocblas_float_complex /
 * rocblas_double_complex A, real D and E), rocblas_create_handle(
 * rocblas_handle *), rocblas_destroy_handle(rocblas_handle),
 * rocblas_set_stream(rocblas_handle, hipStream_t),
 * rocsolver_get_version_string(char *buf, size_t len); rocblas_status 0
 * is rocblas_status_success, rocblas_int is 32-bit (the LP64 build), and
 * the enums' values are rocblas-types.h's: rocblas_fill_upper 121,
 * rocblas_fill_lower 122, rocblas_evect_original 211, rocblas_evect_none
 * 213.  Every pointer argument is a pointer, so one prototype serves the
 * four precisions. */
typedef struct gl_rocblas_handle *roc_handle;
typedef int roc_status;
typedef int32_t roc_int;
enum {
    ROC_FILL_UPPER = 121, ROC_FILL_LOWER = 122,
    ROC_EVECT_ORIGINAL = 211, ROC_EVECT_NONE = 213
};
typedef roc_status roc_syevd_fn(roc_handle handle, int evect, int uplo,
                                roc_int n, void *a, roc_int lda, void *d,
                                void *e, roc_int *info);
static struct {
    roc_status (*create)(roc_handle *handle);
    roc_status (*destroy)(roc_handle handle);
    roc_status (*set_stream)(roc_handle handle, hipStream_t stream);
    roc_status (*version)(char *buf, size_t len);   /* optional */
    roc_syevd_fn *syevd[4];                         /* s d c z */
    int loaded;
} solver;

static void solver_load(void)
{
    static const char *const names[] = {"librocsolver.so.0",
                                        "librocsolver.so", NULL};
    static const char *const syevd[4] = {"rocsolver_ssyevd",
                                         "rocsolver_dsyevd",
                                         "rocsolver_cheevd",
                                         "rocsolver_zheevd"};
    void *lib = open_first(names);
    if (!lib ||
        !(*(void **)&solver.create = dlsym(lib, "rocblas_create_handle")) ||
        !(*(void **)&solver.destroy = dlsym(lib, "rocblas_destroy_handle")) ||
        !(*(void **)&solver.set_stream = dlsym(lib, "rocblas_set_stream")))
        return;
    for (int p = 0; p < 4; p++)
        if (!(*(void **)&solver.syevd[p] = dlsym(lib, syevd[p])))
            return;
    *(void **)&solver.version = dlsym(lib, "rocsolver_get_version_string");
    solver.loaded = 1;
    gl_log(2, API ": rocSOLVER loaded");
}

static int solver_version_of(char *buf, size_t len)
{
    char v[64] = "";
    if (solver.version && solver.version(v, sizeof v) != 0)
        v[0] = 0;
    snprintf(buf, len, "rocSOLVER %s", v[0] ? v : "(version unknown)");
    return 0;
}

static int solver_handle_make(queue_state *q)
{
    roc_handle h;
    if (solver.create(&h) != 0)
        return -1;
    q->solver = h;
    return 0;
}

static void solver_free(queue_state *q)
{
    solver.destroy(q->solver);
    q->solver = NULL;
}

/* rocSOLVER's workspace is its handle's; the call needs E (n reals). */
static int solver_workspace(queue_state *q, const solver_call *c,
                            size_t *dbytes, size_t *hbytes)
{
    (void)q;
    if (c->n > 0x7fffffff || c->lda > 0x7fffffff)
        return -1;
    *dbytes = (size_t)c->n * (c->precision == 1 || c->precision == 3 ? 4 : 8);
    *hbytes = 0;
    return 0;
}

static int solver_run(queue_state *q, const solver_call *c, void *dwork,
                      size_t dbytes, void *hwork, size_t hbytes, int *info)
{
    (void)dbytes, (void)hwork, (void)hbytes;
    if (solver.set_stream((roc_handle)q->solver, q->stream) != 0)
        return -1;
    roc_status s = solver.syevd[c->precision - 1](
        (roc_handle)q->solver,
        c->jobz == 'V' ? ROC_EVECT_ORIGINAL : ROC_EVECT_NONE,
        c->uplo == 'L' ? ROC_FILL_LOWER : ROC_FILL_UPPER, (roc_int)c->n, c->a,
        (roc_int)c->lda, c->w, dwork, info);
    if (s != 0)
        gl_log(1, API ": rocSOLVER ?syevd failed (status %d)", (int)s);
    return s == 0 ? 0 : -1;
}
#endif

static int solver_ready(gl_ctx *ctx)
{
    pthread_once(&solver_once, solver_load);
    if (!solver.loaded)
        return 0;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return 0;
    int ok = q->solver || solver_handle_make(q) == 0;
    leave(saved);
    return ok;
}

static int solver_version(char *buf, size_t len)
{
    pthread_once(&solver_once, solver_load);
    return solver.loaded ? solver_version_of(buf, len) : -1;
}

/* Bytes before the device workspace: INFO's int, on its own line. */
enum { SOLVER_INFO_BYTES = 256 };

/* The sizes with the device current, the workspace from alloc, the call,
 * then read() of INFO: its one host synchronization. */
static int eig_solve(gl_ctx *ctx, int precision, char jobz, char uplo,
                     int64_t n, void *a, int64_t lda, void *w, int *info_host)
{
    solver_call c = {precision, jobz, uplo, n, lda, a, w};
    size_t dbytes = 0, hbytes = 0;
    *info_host = 0;
    if (precision < 1 || precision > 4 || n < 1 || lda < n ||
        !solver_ready(ctx)) {
        fail(ctx);
        return -1;
    }
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = q->failed ? -1 : checked(q, solver_workspace(q, &c, &dbytes, &hbytes) != 0);
    leave(saved);
    char *dwork = rc == 0 ? alloc(ctx, SOLVER_INFO_BYTES + dbytes) : NULL;
    void *hwork = hbytes ? malloc(hbytes) : NULL;
    if (!dwork || (hbytes && !hwork))
        rc = -1;
    if (rc == 0 && (q = enter(ctx, &saved)) != NULL) {
        rc = checked(q, gl_fault_hit(GL_FAULT_LAUNCH) ||
                            solver_run(q, &c, dwork + SOLVER_INFO_BYTES,
                                       dbytes, hwork, hbytes,
                                       (int *)(void *)dwork) != 0);
        leave(saved);
    } else {
        rc = -1;
    }
    if (rc == 0)
        rc = gpu_read(ctx, sizeof(int), 1, 1, dwork, 1, info_host, 1);
    release(ctx, dwork);
    free(hwork);   /* after the read's synchronization */
    if (rc != 0)
        fail(ctx);
    return rc;
}

const gl_gpu GPU_TABLE = {
    .name = API,
    .device_count = device_count,
    .device = device_info,
    .choose = choose,
    .prepare = prepare,
    .memory_free = memory_free,
    .open = open_queue,
    .close = close_queue,
    .alloc = alloc,
    .release = release,
    .write = gpu_write,
    .copy = gpu_copy,
    .read = gpu_read,
    .read_direct = gpu_read_direct,
    .mark = gpu_mark,
    .read_marked = gpu_read_marked,
    .lane_write = gpu_lane_write,
    .lane_read = gpu_lane_read,
    .lane_record = gpu_lane_record,
    .lane_wait = gpu_lane_wait,
    .host_register = gpu_host_register,
    .host_unregister = gpu_host_unregister,
    .finish = gpu_finish,
    .launch = launch,
    .blas_gemm = blas_gemm,
#if defined(GL_API_CUDA)
    .blas_gemm_batched = blas_gemm_batched,
    .blas_hemm = blas_hemm,
    .blas_her2k = blas_her2k,
#endif
    .batch_begin = batch_begin,
    .batch_end = batch_end,
    .resident_groups = resident_groups,
    .solver_ready = solver_ready,
    .eig_solve = eig_solve,
    .solver_version = solver_version,
    .fail = fail,
    .reset = reset,
};
