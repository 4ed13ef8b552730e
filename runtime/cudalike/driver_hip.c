/* The HIP runtime API behind the wrappers of cudalike.h (compiled with
 * -DGL_API_HIP only): each one the runtime call of its name.
 * driver_cuda.c is its twin. */
#include <stdio.h>

#include "cudalike.h"

drv_result drv_init(void) { return drv.hipInit(0); }
drv_result drv_count(int *n) { return drv.hipGetDeviceCount(n); }
void drv_describe(int i, device_state *dev)
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
drv_result drv_get(int i, drv_device *d) { return drv.hipDeviceGet(d, i); }
drv_result drv_open(device_state *dev) { (void)dev; return hipSuccess; }
drv_result drv_enter(device_state *dev, drv_saved *saved)
{
    if (drv.hipGetDevice(saved) != hipSuccess)
        *saved = -1;
    return *saved == dev->info.device ? hipSuccess
                                      : drv.hipSetDevice(dev->info.device);
}
void drv_leave(drv_saved saved)
{
    int now = -1;
    if (saved >= 0 && drv.hipGetDevice(&now) == hipSuccess && now != saved)
        drv.hipSetDevice(saved);
}
drv_result drv_load_module(const void *image, drv_module *m)
{
    return drv.hipModuleLoadData(m, image);
}
drv_result drv_get_function(drv_module m, const char *name,
                            drv_function *f)
{
    return drv.hipModuleGetFunction(f, m, name);
}
drv_result drv_launch(drv_function f, const unsigned *grid,
                      const unsigned *block, drv_stream s,
                      void **params)
{
    return drv.hipModuleLaunchKernel(f, grid[0], grid[1], 1, block[0],
                                     block[1], 1, 0, s, params, NULL);
}
drv_result drv_malloc(void **p, size_t bytes) { return drv.hipMalloc(p, bytes); }
drv_result drv_free(void *p) { return drv.hipFree(p); }
drv_result drv_memory_free(size_t *free_bytes)
{
    size_t total = 0;
    return drv.hipMemGetInfo(free_bytes, &total);
}
drv_result drv_malloc_async(void **p, size_t bytes, drv_stream s)
{
    return drv.hipMallocAsync(p, bytes, s);
}
drv_result drv_free_async(void *p, drv_stream s) { return drv.hipFreeAsync(p, s); }
drv_result drv_host_alloc(void **p, size_t bytes)
{
    return drv.hipHostMalloc(p, bytes, 0);
}
drv_result drv_host_free(void *p) { return drv.hipHostFree(p); }
drv_result drv_htod(void *dst, const void *src, size_t bytes,
                    drv_stream s)
{
    return drv.hipMemcpyHtoDAsync(dst, (void *)src, bytes, s);
}
drv_result drv_dtoh(void *dst, const void *src, size_t bytes,
                    drv_stream s)
{
    return drv.hipMemcpyDtoHAsync(dst, (void *)src, bytes, s);
}
drv_result drv_dtod(void *dst, const void *src, size_t bytes,
                    drv_stream s)
{
    return drv.hipMemcpyDtoDAsync(dst, (void *)src, bytes, s);
}
drv_result drv_copy_2d(int to_device, void *dst, size_t dpitch,
                       const void *src, size_t spitch, size_t width,
                       size_t height, drv_stream s)
{
    return drv.hipMemcpy2DAsync(dst, dpitch, src, spitch, width, height,
                                to_device ? hipMemcpyHostToDevice
                                          : hipMemcpyDeviceToHost,
                                s);
}
drv_result drv_host_register(void *p, size_t bytes)
{
    return drv.hipHostRegister(p, bytes, 0);
}
drv_result drv_host_unregister(void *p) { return drv.hipHostUnregister(p); }
drv_result drv_stream_create(drv_stream *s)
{
    return drv.hipStreamCreateWithFlags(s, hipStreamNonBlocking);
}
drv_result drv_stream_sync(drv_stream s) { return drv.hipStreamSynchronize(s); }
drv_result drv_stream_destroy(drv_stream s) { return drv.hipStreamDestroy(s); }
drv_result drv_stream_wait(drv_stream s, drv_event e)
{
    return drv.hipStreamWaitEvent(s, e, 0);
}
drv_result drv_event_create(drv_event *e)
{
    return drv.hipEventCreateWithFlags(e, hipEventDisableTiming);
}
drv_result drv_event_record(drv_event e, drv_stream s) { return drv.hipEventRecord(e, s); }
drv_result drv_event_sync(drv_event e) { return drv.hipEventSynchronize(e); }
drv_result drv_event_destroy(drv_event e) { return drv.hipEventDestroy(e); }
drv_result drv_capture_begin(drv_stream s)
{
    return drv.hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal);
}
drv_result drv_capture_end(drv_stream s, drv_graph *g) { return drv.hipStreamEndCapture(s, g); }
drv_result drv_graph_instantiate(drv_graph_exec *e, drv_graph g)
{
    return drv.hipGraphInstantiate(e, g, NULL, NULL, 0);
}
drv_result drv_graph_launch(drv_graph_exec e, drv_stream s) { return drv.hipGraphLaunch(e, s); }
void drv_graph_free(drv_graph_exec e, drv_graph g)
{
    if (e)
        drv.hipGraphExecDestroy(e);
    if (g)
        drv.hipGraphDestroy(g);
}
