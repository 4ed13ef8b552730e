/* The CUDA driver API behind the wrappers of cudalike.h (compiled with
 * -DGL_API_CUDA only): each one the driver call of its name, with the
 * conversions CUdeviceptr needs.  driver_hip.c is its twin. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cudalike.h"

drv_result drv_init(void) { return drv.cuInit(0); }
drv_result drv_count(int *n) { return drv.cuDeviceGetCount(n); }
void drv_describe(int i, device_state *dev)
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
drv_result drv_get(int i, drv_device *d) { return drv.cuDeviceGet(d, i); }
drv_result drv_open(device_state *dev)
{
    return drv.cuDevicePrimaryCtxRetain(&dev->context, dev->handle);
}
drv_result drv_enter(device_state *dev, drv_saved *saved)
{
    *saved = NULL;   /* cuCtxPopCurrent gives the pushed context back */
    return drv.cuCtxPushCurrent(dev->context);
}
void drv_leave(drv_saved saved)
{
    CUcontext popped;
    (void)saved;
    drv.cuCtxPopCurrent(&popped);
}
drv_result drv_load_module(const void *image, drv_module *m)
{
    return drv.cuModuleLoadData(m, image);
}
drv_result drv_get_function(drv_module m, const char *name,
                            drv_function *f)
{
    return drv.cuModuleGetFunction(f, m, name);
}
drv_result drv_launch(drv_function f, const unsigned *grid,
                      const unsigned *block, drv_stream s,
                      void **params)
{
    return drv.cuLaunchKernel(f, grid[0], grid[1], 1, block[0], block[1], 1,
                              0, s, params, NULL);
}
drv_result drv_malloc(void **p, size_t bytes)
{
    CUdeviceptr d = 0;
    drv_result rc = drv.cuMemAlloc(&d, bytes);
    *p = (void *)(uintptr_t)d;
    return rc;
}
drv_result drv_free(void *p) { return drv.cuMemFree((CUdeviceptr)(uintptr_t)p); }
drv_result drv_memory_free(size_t *free_bytes)
{
    size_t total = 0;
    return drv.cuMemGetInfo(free_bytes, &total);
}
drv_result drv_malloc_async(void **p, size_t bytes, drv_stream s)
{
    CUdeviceptr d = 0;
    drv_result rc = drv.cuMemAllocAsync(&d, bytes, s);
    *p = (void *)(uintptr_t)d;
    return rc;
}
drv_result drv_free_async(void *p, drv_stream s)
{
    return drv.cuMemFreeAsync((CUdeviceptr)(uintptr_t)p, s);
}
drv_result drv_host_alloc(void **p, size_t bytes)
{
    return drv.cuMemHostAlloc(p, bytes, 0);
}
drv_result drv_host_free(void *p) { return drv.cuMemFreeHost(p); }
drv_result drv_htod(void *dst, const void *src, size_t bytes,
                    drv_stream s)
{
    return drv.cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)dst, src, bytes, s);
}
drv_result drv_dtoh(void *dst, const void *src, size_t bytes,
                    drv_stream s)
{
    return drv.cuMemcpyDtoHAsync(dst, (CUdeviceptr)(uintptr_t)src, bytes, s);
}
drv_result drv_dtod(void *dst, const void *src, size_t bytes,
                    drv_stream s)
{
    return drv.cuMemcpyDtoDAsync((CUdeviceptr)(uintptr_t)dst,
                                 (CUdeviceptr)(uintptr_t)src, bytes, s);
}
drv_result drv_copy_2d(int to_device, void *dst, size_t dpitch,
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
drv_result drv_host_register(void *p, size_t bytes)
{
    return drv.cuMemHostRegister(p, bytes, 0);
}
drv_result drv_host_unregister(void *p) { return drv.cuMemHostUnregister(p); }
drv_result drv_stream_create(drv_stream *s)
{
    return drv.cuStreamCreate(s, CU_STREAM_NON_BLOCKING);
}
drv_result drv_stream_sync(drv_stream s) { return drv.cuStreamSynchronize(s); }
drv_result drv_stream_destroy(drv_stream s) { return drv.cuStreamDestroy(s); }
drv_result drv_stream_wait(drv_stream s, drv_event e)
{
    return drv.cuStreamWaitEvent(s, e, 0);
}
drv_result drv_event_create(drv_event *e)
{
    return drv.cuEventCreate(e, CU_EVENT_DISABLE_TIMING);
}
drv_result drv_event_record(drv_event e, drv_stream s) { return drv.cuEventRecord(e, s); }
drv_result drv_event_sync(drv_event e) { return drv.cuEventSynchronize(e); }
drv_result drv_event_destroy(drv_event e) { return drv.cuEventDestroy(e); }
drv_result drv_capture_begin(drv_stream s)
{
    return drv.cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
}
drv_result drv_capture_end(drv_stream s, drv_graph *g) { return drv.cuStreamEndCapture(s, g); }
drv_result drv_graph_instantiate(drv_graph_exec *e, drv_graph g)
{
    return drv.cuGraphInstantiate(e, g, 0);
}
drv_result drv_graph_launch(drv_graph_exec e, drv_stream s) { return drv.cuGraphLaunch(e, s); }
void drv_graph_free(drv_graph_exec e, drv_graph g)
{
    if (e)
        drv.cuGraphExecDestroy(e);   /* freed when its launch completes */
    if (g)
        drv.cuGraphDestroy(g);
}
