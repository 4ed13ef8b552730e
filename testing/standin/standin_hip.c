/* The computing stand-in for libamdhip64.so.5: the HIP entry points that
 * runtime/cudalike/driver_hip.c resolves, over the core of standin.c (what it
 * computes and what it cannot show: the comment at its top).  Each
 * thread has its current device (0 until it sets one); an operation on a
 * stream of another device than the current one fails.  The HIP runtime
 * opens no BLAS (Debian has no rocBLAS/hipBLAS to run against), so there
 * is none here; the rocSOLVER stand-in (testing/unit/mock/mock_solver.c)
 * brings rocBLAS's handle. */
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standin.h"

#ifndef STANDIN_IMAGE_DIR
#define STANDIN_IMAGE_DIR "build/hip"
#endif

static hipError_t status(sd_status s)
{
    switch (s) {
    case SD_OK: return hipSuccess;
    case SD_INVALID_VALUE: return hipErrorInvalidValue;
    case SD_OUT_OF_MEMORY: return hipErrorOutOfMemory;
    case SD_INVALID_DEVICE: return hipErrorInvalidDevice;
    case SD_ILLEGAL_ADDRESS: return hipErrorIllegalAddress;
    case SD_LAUNCH_FAILED: return hipErrorLaunchFailure;
    case SD_CAPTURE: return hipErrorStreamCaptureUnsupported;
    case SD_INVALID_IMAGE: return hipErrorInvalidImage;
    case SD_NOT_FOUND: return hipErrorNotFound;
    case SD_NOT_SUPPORTED: return hipErrorNotSupported;
    }
    return hipErrorUnknown;
}

static int devices(void) { return sd_device_count(1); }
static _Thread_local int current;

/* ---- devices -------------------------------------------------------------- */

EXPORT hipError_t hipInit(unsigned flags) { (void)flags; return hipSuccess; }
EXPORT hipError_t hipDriverGetVersion(int *v) { *v = 50221153; return hipSuccess; }
EXPORT hipError_t hipGetDeviceCount(int *n) { *n = devices(); return hipSuccess; }
EXPORT hipError_t hipDeviceGet(hipDevice_t *d, int i)
{
    *d = i;
    return i >= 0 && i < devices() ? hipSuccess : hipErrorInvalidDevice;
}
EXPORT hipError_t hipDeviceGetName(char *name, int len, hipDevice_t d)
{
    snprintf(name, (size_t)len, "gpulapack stand-in AMD GPU %d (PoCL)", d);
    return hipSuccess;
}
EXPORT hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int d)
{
    if (d < 0 || d >= devices())
        return hipErrorInvalidDevice;
    *v = a == hipDeviceAttributeComputeCapabilityMajor ? 9
       : a == hipDeviceAttributeMultiprocessorCount    ? sd_compute_units()
       : a == hipDeviceAttributeClockRate              ? 1700000
                                                       : 0;
    return hipSuccess;
}
EXPORT hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t d)
{
    *bytes = sd_total_bytes(d);
    return hipSuccess;
}
EXPORT hipError_t hipGetDevice(int *d) { *d = current; return hipSuccess; }
EXPORT hipError_t hipSetDevice(int d)
{
    if (d < 0 || d >= devices())
        return hipErrorInvalidDevice;
    current = d;
    return hipSuccess;
}
EXPORT hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total)
{
    *total = sd_total_bytes(current);
    *free_bytes = sd_free_bytes(current);
    return hipSuccess;
}

/* the stream s (NULL: the device's own) of the current device, else NULL */
static sd_stream *stream_of(hipStream_t s)
{
    sd_stream *st = s ? (sd_stream *)s : sd_stream_default(current);
    return st && sd_stream_device(st) == current ? st : NULL;
}
#define STREAM(var, s)                                                       \
    sd_stream *var = stream_of(s);                                           \
    if (!var)                                                                \
        return hipErrorInvalidHandle;

/* ---- modules and launches --------------------------------------------------- */

static char modules[4];   /* a module is its precision */

EXPORT hipError_t hipModuleLoadData(hipModule_t *m, const void *image)
{
    const char *dir = getenv("GL_STANDIN_IMAGES");
    int p = 0;
    sd_status rc = sd_module_load(image, dir ? dir : STANDIN_IMAGE_DIR, "co", &p);
    if (rc == SD_OK)
        *m = (hipModule_t)&modules[p - 1];
    return status(rc);
}
EXPORT hipError_t hipModuleGetFunction(hipFunction_t *f, hipModule_t m, const char *name)
{
    char *p = (char *)m;
    if (p < modules || p >= modules + 4)
        return hipErrorInvalidHandle;
    sd_function *fn = NULL;
    sd_status rc = sd_function_get((int)(p - modules) + 1, name, &fn);
    *f = (hipFunction_t)fn;
    return status(rc);
}
EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned gx, unsigned gy,
                                        unsigned gz, unsigned bx, unsigned by,
                                        unsigned bz, unsigned shared, hipStream_t s,
                                        void **params, void **extra)
{
    STREAM(st, s)
    if (shared || extra)
        return hipErrorInvalidValue;   /* not what the library passes */
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return status(sd_launch(st, (sd_function *)f, grid, block, params));
}

/* ---- memory and copies -------------------------------------------------------- */

EXPORT hipError_t hipMalloc(void **p, size_t bytes) { return status(sd_alloc(current, bytes, p)); }
EXPORT hipError_t hipFree(void *p) { return status(sd_free(current, p)); }
EXPORT hipError_t hipMallocAsync(void **p, size_t bytes, hipStream_t s)
{
    STREAM(st, s)
    return status(sd_alloc(sd_stream_device(st), bytes, p));
}
EXPORT hipError_t hipFreeAsync(void *p, hipStream_t s)
{
    STREAM(st, s)
    return status(sd_free_async(st, p));
}
EXPORT hipError_t hipHostMalloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return status(sd_host_alloc(bytes, p));
}
EXPORT hipError_t hipHostFree(void *p) { return status(sd_host_free(p)); }
EXPORT hipError_t hipHostRegister(void *p, size_t bytes, unsigned flags)
{
    (void)flags;
    return status(sd_host_register(p, bytes));
}
EXPORT hipError_t hipHostUnregister(void *p) { return status(sd_host_unregister(p)); }

EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t d, void *h, size_t n, hipStream_t s)
{
    STREAM(st, s)
    return status(sd_copy(st, SD_HTOD, d, h, n));
}
EXPORT hipError_t hipMemcpyDtoHAsync(void *h, hipDeviceptr_t d, size_t n, hipStream_t s)
{
    STREAM(st, s)
    return status(sd_copy(st, SD_DTOH, h, d, n));
}
EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t d, hipDeviceptr_t from, size_t n, hipStream_t s)
{
    STREAM(st, s)
    return status(sd_copy(st, SD_DTOD, d, from, n));
}
EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                   size_t spitch, size_t width, size_t height,
                                   hipMemcpyKind kind, hipStream_t s)
{
    STREAM(st, s)
    if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToHost)
        return hipErrorInvalidValue;   /* not what the library asks */
    return status(sd_copy_2d(st, kind == hipMemcpyHostToDevice, dst, dpitch,
                             src, spitch, width, height));
}

/* ---- streams, events, graphs ------------------------------------------------- */

EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned flags)
{
    (void)flags;
    sd_stream *st = NULL;
    sd_status rc = sd_stream_create(current, &st);
    *s = (hipStream_t)st;
    return status(rc);
}
EXPORT hipError_t hipStreamSynchronize(hipStream_t s)
{
    STREAM(st, s)
    return status(sd_stream_sync(st));
}
EXPORT hipError_t hipStreamDestroy(hipStream_t s)
{
    STREAM(st, s)
    return status(sd_stream_destroy(st));
}
EXPORT hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e, unsigned flags)
{
    (void)flags;
    STREAM(st, s)
    return status(sd_stream_wait(st, (sd_event *)e));
}
EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned flags)
{
    (void)flags;
    return status(sd_event_create((sd_event **)e));
}
EXPORT hipError_t hipEventRecord(hipEvent_t e, hipStream_t s)
{
    STREAM(st, s)
    return status(sd_event_record((sd_event *)e, st));
}
EXPORT hipError_t hipEventSynchronize(hipEvent_t e) { return status(sd_event_sync((sd_event *)e)); }
EXPORT hipError_t hipEventDestroy(hipEvent_t e) { return status(sd_event_destroy((sd_event *)e)); }

EXPORT hipError_t hipStreamBeginCapture(hipStream_t s, hipStreamCaptureMode m)
{
    (void)m;
    STREAM(st, s)
    return status(sd_capture_begin(st));
}
EXPORT hipError_t hipStreamEndCapture(hipStream_t s, hipGraph_t *g)
{
    STREAM(st, s)
    return status(sd_capture_end(st, (sd_graph **)g));
}
EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t *e, hipGraph_t g,
                                      hipGraphNode_t *node, char *log, size_t size)
{
    (void)node, (void)log, (void)size;
    *e = (hipGraphExec_t)sd_graph_retain((sd_graph *)g);
    return hipSuccess;
}
EXPORT hipError_t hipGraphLaunch(hipGraphExec_t e, hipStream_t s)
{
    STREAM(st, s)
    return status(sd_graph_launch((sd_graph *)e, st));
}
EXPORT hipError_t hipGraphExecDestroy(hipGraphExec_t e) { return status(sd_graph_destroy((sd_graph *)e)); }
EXPORT hipError_t hipGraphDestroy(hipGraph_t g) { return status(sd_graph_destroy((sd_graph *)g)); }
