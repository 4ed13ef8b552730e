/* The kernel dialect on CUDA (nvcc, NVRTC) and HIP (hipcc): the names of
 * shim/opencl.h for the same kernels/device/ text.  Kernels are extern "C"
 * (the driver API finds them by name); no restrict (nvcc/hipcc reject the
 * C spelling); no operators on float2/double2 (nvcc has none), which is
 * why device/common.h works on .x/.y only. */
#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#endif
#define KERNEL extern "C" __global__ void
#define DEVFN static __device__ __forceinline__
#define GLOBAL
#define LOCAL
#define LOCAL_MEM __shared__
#define LID(d) ((int)((d) == 0 ? threadIdx.x : (d) == 1 ? threadIdx.y : threadIdx.z))
#define GID(d) ((int)((d) == 0 ? blockIdx.x : (d) == 1 ? blockIdx.y : blockIdx.z))
#define LSIZE(d) ((int)((d) == 0 ? blockDim.x : (d) == 1 ? blockDim.y : blockDim.z))
#define NGROUPS(d) ((int)((d) == 0 ? gridDim.x : (d) == 1 ? gridDim.y : gridDim.z))
#define GLOBAL_ID(d) (GID(d) * LSIZE(d) + LID(d))
#define BARRIER() __syncthreads()
#define MAKE_FLOAT2(x, y) make_float2((x), (y))
#define MAKE_DOUBLE2(x, y) make_double2((x), (y))
typedef long long gl_long;
/* Flags between the work-groups of one launch: an acquire read and a
 * release write at device scope, and a ticket counter (the one-launch
 * chase, device/chase.h); FENCE_DEVICE orders a work-item's global
 * accesses at device scope. */
#define FENCE_DEVICE() __threadfence()
static __device__ __forceinline__ int flag_read(int *p)
{
    int v = *(volatile int *)p;
    __threadfence();
    return v;
}
static __device__ __forceinline__ void flag_write(int *p, int v)
{
    __threadfence();
    atomicExch(p, v);
}
static __device__ __forceinline__ int ticket_next(int *p)
{
    return atomicAdd(p, 1);
}
