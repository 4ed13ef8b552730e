/* The kernel dialect on OpenCL C 1.2 (kernels/device/ is written against
 * these names only; shim/cuda.h maps the same names for nvcc and hipcc).
 * Buffers are passed as a pointer and an element offset: OpenCL kernel
 * arguments are whole buffers, so a sub-matrix is (buffer, offset). */
#if PRECISION == 2 || PRECISION == 4
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define KERNEL __kernel void
#define DEVFN static inline
#define GLOBAL __global
#define LOCAL __local
#define LOCAL_MEM __local
#define LID(d) ((int)get_local_id(d))
#define GID(d) ((int)get_group_id(d))
#define LSIZE(d) ((int)get_local_size(d))
#define NGROUPS(d) ((int)get_num_groups(d))
#define GLOBAL_ID(d) ((int)get_global_id(d))
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define MAKE_FLOAT2(x, y) ((float2)((x), (y)))
#define MAKE_DOUBLE2(x, y) ((double2)((x), (y)))
typedef long gl_long;
/* Flags and a ticket counter between the work-groups of one launch
 * (shim/cuda.h; OpenCL 1.2's atomics, ordered by global fences: enough on
 * PoCL, where the tests run the one-launch chase). */
#define FENCE_DEVICE() mem_fence(CLK_GLOBAL_MEM_FENCE)
static inline int flag_read(__global int *p)
{
    int v = atomic_add((volatile __global int *)p, 0);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    return v;
}
static inline void flag_write(__global int *p, int v)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg((volatile __global int *)p, v);
}
static inline int ticket_next(__global int *p)
{
    return atomic_add((volatile __global int *)p, 1);
}
