/* The HIP side of runtime/cudalike/ (cudalike.h includes it under
 * -DGL_API_HIP): the runtime API's header, the entry points the runtime
 * loads from libamdhip64.so, the types the API-neutral files name, and
 * the kernel images.  driver_hip.c wraps the entry points; the lists'
 * meaning is driver_cuda.h's. */
#ifndef GL_CUDALIKE_DRIVER_HIP_H
#define GL_CUDALIKE_DRIVER_HIP_H

#include <hip/hip_runtime_api.h>

#define API "hip"
#define GPU_TABLE gl_hip_gpu
extern const char gl_hip_image_s[], gl_hip_image_d[], gl_hip_image_c[],
    gl_hip_image_z[];
#define DRV_IMAGES                                                           \
    {gl_hip_image_s, gl_hip_image_d, gl_hip_image_c, gl_hip_image_z}

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

#endif
