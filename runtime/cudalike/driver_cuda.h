/* The CUDA side of runtime/cudalike/ (cudalike.h includes it under
 * -DGL_API_CUDA): the driver API's header, the entry points the runtime
 * loads from libcuda.so.1, the types the API-neutral files name, and the
 * kernel images.  driver_cuda.c wraps the entry points. */
#ifndef GL_CUDALIKE_DRIVER_CUDA_H
#define GL_CUDALIKE_DRIVER_CUDA_H

#include <cuda.h>

#define API "cuda"
#define GPU_TABLE gl_cuda_gpu
/* the kernel images (runtime/embed_blob.S), per precision s d c z */
extern const char gl_cuda_image_s[], gl_cuda_image_d[], gl_cuda_image_c[],
    gl_cuda_image_z[];
#define DRV_IMAGES                                                           \
    {gl_cuda_image_s, gl_cuda_image_d, gl_cuda_image_c, gl_cuda_image_z}

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

#endif
