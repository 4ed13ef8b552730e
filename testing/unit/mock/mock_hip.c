/* A stand-in for libamdhip64.so on machines without an AMD GPU, for
 * testing/unit/test_gpu_runtime.c built for HIP: the HIP entry points the
 * library's HIP runtime (runtime/cudalike/driver_hip.c) resolves, over
 * host memory,
 * as mock_cuda.c does for CUDA.  Two devices (GL_MOCK_DEVICES: another
 * number) and a current device per thread: every memory operation, copy
 * and launch must happen with the device current that the calling test
 * thread expects (mock_expect_device; device 0 unless it says otherwise)
 * and, on a stream, the stream's device; the caller's current device must
 * be back afterwards. */
#include <hip/hip_runtime_api.h>

#include "mock_core.h"

static _Thread_local int current_device;

static hipError_t on_device(void)
{
    check_device(current_device);
    return hipSuccess;
}
static hipError_t on_stream(hipStream_t s)
{
    if (s && ((mock_stream *)s)->device != current_device)
        count(&wrong_device, 1);
    return on_device();
}

EXPORT hipError_t hipInit(unsigned flags) { (void)flags; return hipSuccess; }
EXPORT hipError_t hipDriverGetVersion(int *v) { *v = 50221153; return hipSuccess; }
EXPORT hipError_t hipGetDeviceCount(int *n) { *n = mock_devices(2); return hipSuccess; }
EXPORT hipError_t hipDeviceGet(hipDevice_t *d, int i)
{
    *d = i;
    return i >= 0 && i < mock_devices(2) ? hipSuccess : hipErrorInvalidDevice;
}
EXPORT hipError_t hipDeviceGetName(char *name, int len, hipDevice_t d)
{
    snprintf(name, (size_t)len, "gpulapack mock AMD GPU %d", d);
    return hipSuccess;
}
EXPORT hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int d)
{
    (void)d;
    *v = a == hipDeviceAttributeComputeCapabilityMajor ? 9
       : a == hipDeviceAttributeMultiprocessorCount    ? 110
       : a == hipDeviceAttributeClockRate              ? 1700000
                                                       : 0;
    return hipSuccess;
}
EXPORT hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t d)
{
    *bytes = (size_t)(d == 0 ? 64 : 32) << 30;
    return hipSuccess;
}
EXPORT hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total)
{
    *total = (size_t)(current_device == 0 ? 64 : 32) << 30;
    *free_bytes = mock_free_bytes(*total);
    return hipSuccess;
}
EXPORT hipError_t hipGetDevice(int *d) { *d = current_device; return hipSuccess; }
EXPORT hipError_t hipSetDevice(int d)
{
    if (d < 0 || d >= mock_devices(2))
        return hipErrorInvalidDevice;
    current_device = d;
    return hipSuccess;
}

/* Modules: the image must be a clang offload bundle. */
EXPORT hipError_t hipModuleLoadData(hipModule_t *m, const void *image)
{
    if (memcmp(image, "__CLANG_OFFLOAD_BUNDLE__", 24) != 0)
        return hipErrorInvalidImage;
    *m = (hipModule_t)image;
    return on_device();
}
EXPORT hipError_t hipModuleGetFunction(hipFunction_t *f, hipModule_t m, const char *name)
{
    (void)m;
    *f = (hipFunction_t)strdup(name);
    return hipSuccess;
}
EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned gx, unsigned gy,
                                        unsigned gz, unsigned bx, unsigned by,
                                        unsigned bz, unsigned shared, hipStream_t s,
                                        void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
    (void)shared, (void)extra;
    on_stream(s);
    return run_kernel((const char *)f, params) == 0 ? hipSuccess
                                                   : hipErrorNotSupported;
}

EXPORT hipError_t hipMalloc(void **p, size_t bytes)
{
    *p = malloc(bytes);
    on_device();
    return *p ? hipSuccess : hipErrorOutOfMemory;
}
EXPORT hipError_t hipFree(void *p) { free(p); return on_device(); }
EXPORT hipError_t hipMallocAsync(void **p, size_t bytes, hipStream_t s)
{
    on_stream(s);
    *p = malloc(bytes);
    return *p ? hipSuccess : hipErrorOutOfMemory;
}
EXPORT hipError_t hipFreeAsync(void *p, hipStream_t s)
{
    free(p);
    return on_stream(s);
}
EXPORT hipError_t hipHostMalloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    *p = malloc(bytes);
    if (!*p)
        return hipErrorOutOfMemory;
    count(&live_host_allocs, 1);
    return on_device();
}
EXPORT hipError_t hipHostFree(void *p)
{
    free(p);
    count(&live_host_allocs, -1);
    return on_device();
}
EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t d, void *h, size_t n, hipStream_t s)
{
    memcpy(d, h, n);
    return on_stream(s);
}
EXPORT hipError_t hipMemcpyDtoHAsync(void *h, hipDeviceptr_t d, size_t n, hipStream_t s)
{
    if (dtoh_fails())
        return hipErrorUnknown;
    memcpy(h, d, n);
    return on_stream(s);
}
EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                   size_t spitch, size_t width, size_t height,
                                   hipMemcpyKind kind, hipStream_t s)
{
    if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToHost)
        return hipErrorInvalidValue;
    if (copy_2d(kind == hipMemcpyHostToDevice, dst, dpitch, src, spitch,
                width, height) != 0)
        return hipErrorUnknown;
    return on_stream(s);
}
EXPORT hipError_t hipHostRegister(void *p, size_t bytes, unsigned flags)
{
    (void)p, (void)bytes, (void)flags;
    count(&live_registered, 1);
    return on_device();
}
EXPORT hipError_t hipHostUnregister(void *p)
{
    (void)p;
    count(&live_registered, -1);
    return on_device();
}
EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t d, hipDeviceptr_t from, size_t n, hipStream_t s)
{
    memmove(d, from, n);
    return on_stream(s);
}

EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned flags)
{
    (void)flags;
    mock_stream *m = malloc(sizeof *m);
    m->device = current_device;
    *s = (hipStream_t)m;
    count(&live_streams, 1);
    return on_device();
}
EXPORT hipError_t hipStreamSynchronize(hipStream_t s) { return on_stream(s); }
/* every operation completes when called: nothing to wait for */
EXPORT hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e, unsigned flags)
{
    (void)e, (void)flags;
    return on_stream(s);
}
EXPORT hipError_t hipStreamDestroy(hipStream_t s)
{
    hipError_t rc = on_stream(s);
    free(s);
    count(&live_streams, -1);
    return rc;
}
EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned flags)
{
    (void)flags;
    *e = (hipEvent_t)&dummy;
    return hipSuccess;
}
EXPORT hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) { (void)e, (void)s; return hipSuccess; }
EXPORT hipError_t hipEventSynchronize(hipEvent_t e) { (void)e; return hipSuccess; }
EXPORT hipError_t hipEventDestroy(hipEvent_t e) { (void)e; return hipSuccess; }

EXPORT hipError_t hipStreamBeginCapture(hipStream_t s, hipStreamCaptureMode m)
{
    (void)s, (void)m;
    return hipSuccess;
}
EXPORT hipError_t hipStreamEndCapture(hipStream_t s, hipGraph_t *g)
{
    (void)s;
    *g = (hipGraph_t)&dummy;
    return hipSuccess;
}
EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t *e, hipGraph_t g,
                                      hipGraphNode_t *node, char *log, size_t size)
{
    (void)g, (void)node, (void)log, (void)size;
    *e = (hipGraphExec_t)&dummy;
    return hipSuccess;
}
EXPORT hipError_t hipGraphLaunch(hipGraphExec_t e, hipStream_t s) { (void)e, (void)s; return hipSuccess; }
EXPORT hipError_t hipGraphExecDestroy(hipGraphExec_t e) { (void)e; return hipSuccess; }
EXPORT hipError_t hipGraphDestroy(hipGraph_t g) { (void)g; return hipSuccess; }
