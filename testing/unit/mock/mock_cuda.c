/* A stand-in for libcuda.so.1 on machines without an NVIDIA GPU, for
 * testing/unit/test_gpu_runtime.c: the driver-API entry points the
 * library's CUDA runtime (runtime/cudalike/driver_cuda.c) resolves, over
 * host memory.
 * One device (GL_MOCK_DEVICES: more, alike, each with its own primary
 * context); memory, copies, streams, events and graphs work (copies
 * synchronously, so every wait is trivially satisfied); of the kernels
 * only gl_copy runs (the library's strided copies; the element size is
 * set by the test with mock_set_elem), every other launch fails with
 * CUDA_ERROR_NOT_SUPPORTED, as a device that cannot run it would.
 * Counters let the test check that contexts are pushed and popped in
 * pairs, that every operation runs with a context current (that of its
 * stream's device, and the device the calling test thread expects:
 * mock_expect_device) and that a context's resources are freed when it
 * closes. */
#include <cuda.h>

#include "mock_core.h"

EXPORT CUresult cuInit(unsigned flags) { (void)flags; return CUDA_SUCCESS; }
EXPORT CUresult cuDriverGetVersion(int *v) { *v = 13000; return CUDA_SUCCESS; }
EXPORT CUresult cuDeviceGetCount(int *n) { *n = mock_devices(1); return CUDA_SUCCESS; }
EXPORT CUresult cuDeviceGet(CUdevice *d, int i)
{
    *d = i;
    return i >= 0 && i < mock_devices(1) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    strncpy(name, "gpulapack mock GPU", (size_t)len);
    name[len - 1] = 0;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9
       : a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT     ? 132
       : a == CU_DEVICE_ATTRIBUTE_CLOCK_RATE               ? 1980000
                                                           : 0;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    (void)d;
    *bytes = (size_t)80 << 30;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    if (ctx_depth == 0)   /* the driver asks a current context */
        return CUDA_ERROR_INVALID_CONTEXT;
    *total = (size_t)80 << 30;
    *free_bytes = mock_free_bytes(*total);
    return CUDA_SUCCESS;
}
/* contexts retained and modules loaded: made once per process, kept */
static int ctx_retains, module_loads;
EXPORT int mock_ctx_retains(void) { return __atomic_load_n(&ctx_retains, __ATOMIC_SEQ_CST); }
EXPORT int mock_module_loads(void) { return __atomic_load_n(&module_loads, __ATOMIC_SEQ_CST); }

/* The primary context of device d is &contexts[d]; each thread has its
 * stack of current contexts (ctx_depth deep). */
static char contexts[MOCK_MAX_DEVICES];
enum { MOCK_STACK = 64 };
static _Thread_local int ctx_stack[MOCK_STACK];
EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
    if (d < 0 || d >= mock_devices(1))
        return CUDA_ERROR_INVALID_DEVICE;
    count(&ctx_retains, 1);
    *c = (CUcontext)&contexts[d];
    return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxPushCurrent_v2(CUcontext c)
{
    char *p = (char *)c;
    if (p < contexts || p >= contexts + mock_devices(1) || ctx_depth >= MOCK_STACK)
        return CUDA_ERROR_INVALID_CONTEXT;
    ctx_stack[ctx_depth++] = (int)(p - contexts);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *c)
{
    if (ctx_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    ctx_depth--;
    if (c)
        *c = (CUcontext)&contexts[ctx_stack[ctx_depth]];
    return CUDA_SUCCESS;
}
/* The device of the current context, -1 if none; checked against what
 * the test thread expects (and the stream's device, on a stream). */
static int current_device(void) { return ctx_depth > 0 ? ctx_stack[ctx_depth - 1] : -1; }
static void on_device(void) { check_device(current_device()); }
static void on_stream(CUstream s)
{
    int now = current_device();
    check_device(now);
    if (s && ((mock_stream *)s)->device != now)
        count(&wrong_device, 1);
}

/* Modules: the image must be a fatbin; a function is its name. */
EXPORT CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
    uint32_t magic;
    memcpy(&magic, image, 4);
    if (magic != 0xba55ed50u)
        return CUDA_ERROR_INVALID_IMAGE;
    count(&module_loads, 1);
    on_device();
    *m = (CUmodule)image;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    (void)m;
    *f = (CUfunction)strdup(name);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared, CUstream s,
                               void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
    (void)shared, (void)extra;
    on_stream(s);
    return run_kernel((const char *)f, params) == 0 ? CUDA_SUCCESS
                                                   : CUDA_ERROR_NOT_SUPPORTED;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
    on_device();
    void *m = malloc(bytes);
    *p = (CUdeviceptr)(uintptr_t)m;
    return m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
    on_device();
    free((void *)(uintptr_t)p);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemAllocAsync(CUdeviceptr *p, size_t bytes, CUstream s)
{
    on_stream(s);
    return cuMemAlloc_v2(p, bytes);
}
EXPORT CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
    on_stream(s);
    return cuMemFree_v2(p);
}
EXPORT CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    on_device();
    *p = malloc(bytes);
    if (!*p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    count(&live_host_allocs, 1);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemFreeHost(void *p)
{
    on_device();
    free(p);
    count(&live_host_allocs, -1);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *h, size_t n, CUstream s)
{
    on_stream(s);
    memcpy((void *)(uintptr_t)d, h, n);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyDtoHAsync_v2(void *h, CUdeviceptr d, size_t n, CUstream s)
{
    on_stream(s);
    if (dtoh_fails())
        return CUDA_ERROR_UNKNOWN;
    memcpy(h, (void *)(uintptr_t)d, n);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *c, CUstream s)
{
    on_stream(s);
    int to_device = c->dstMemoryType == CU_MEMORYTYPE_DEVICE;
    if (c->srcXInBytes || c->srcY || c->dstXInBytes || c->dstY ||
        to_device == (c->srcMemoryType == CU_MEMORYTYPE_DEVICE))
        return CUDA_ERROR_INVALID_VALUE;   /* not what the library asks */
    void *dst = to_device ? (void *)(uintptr_t)c->dstDevice : c->dstHost;
    const void *src = to_device ? c->srcHost : (const void *)(uintptr_t)c->srcDevice;
    return copy_2d(to_device, dst, c->dstPitch, src, c->srcPitch,
                   c->WidthInBytes, c->Height) == 0
               ? CUDA_SUCCESS
               : CUDA_ERROR_UNKNOWN;
}
EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags)
{
    (void)p, (void)bytes, (void)flags;
    on_device();
    count(&live_registered, 1);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemHostUnregister(void *p)
{
    (void)p;
    on_device();
    count(&live_registered, -1);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr from, size_t n, CUstream s)
{
    on_stream(s);
    memmove((void *)(uintptr_t)d, (void *)(uintptr_t)from, n);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags)
{
    (void)flags;
    on_device();
    if (current_device() < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    mock_stream *m = malloc(sizeof *m);
    m->device = current_device();
    *s = (CUstream)m;
    count(&live_streams, 1);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuStreamSynchronize(CUstream s) { on_stream(s); return CUDA_SUCCESS; }
/* every operation completes when called: nothing to wait for */
EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
    (void)e, (void)flags;
    on_stream(s);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuStreamDestroy_v2(CUstream s)
{
    on_stream(s);
    free(s);
    count(&live_streams, -1);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuEventCreate(CUevent *e, unsigned flags)
{
    (void)flags;
    *e = (CUevent)&dummy;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuEventRecord(CUevent e, CUstream s) { (void)e, (void)s; return CUDA_SUCCESS; }
EXPORT CUresult cuEventSynchronize(CUevent e) { (void)e; return CUDA_SUCCESS; }
EXPORT CUresult cuEventDestroy_v2(CUevent e) { (void)e; return CUDA_SUCCESS; }

EXPORT CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode m)
{
    (void)s, (void)m;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *g)
{
    (void)s;
    *g = (CUgraph)&dummy;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g, unsigned long long f)
{
    (void)g, (void)f;
    *e = (CUgraphExec)&dummy;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphLaunch(CUgraphExec e, CUstream s) { (void)e, (void)s; return CUDA_SUCCESS; }
EXPORT CUresult cuGraphExecDestroy(CUgraphExec e) { (void)e; return CUDA_SUCCESS; }
EXPORT CUresult cuGraphDestroy(CUgraph g) { (void)g; return CUDA_SUCCESS; }
