/* The OpenCL runtime: the ICD loader opened with dlopen, device discovery,
 * one context and one program per precision per device, a command queue
 * and kernel objects per thread, device memory behind host-like addresses.
 *
 * Device memory is handed to the stage drivers as ordinary pointers so that
 * they can do pointer arithmetic on it (ops.h): each allocation reserves an
 * inaccessible range of the address space (mmap PROT_NONE, no memory
 * behind it) of the buffer's size, and a pointer into that range names the
 * buffer and an offset.  A host access through such a pointer faults at
 * once instead of reading garbage. */
#ifndef GL_OPENCL_H
#define GL_OPENCL_H

#include <stddef.h>

/* What discovery found about one OpenCL device. */
typedef struct gl_cl_device_info {
    int platform, device;             /* indices as in GPULAPACK_DEVICE */
    char name[96], platform_name[64], version[48];
    int gpu;                          /* CL_DEVICE_TYPE_GPU (else CPU, ...) */
    int fp64;                         /* double precision supported */
    unsigned long long memory;        /* global memory, bytes */
    unsigned compute_units, clock_mhz;
} gl_cl_device_info;

/* Devices found (discovery on first call, thread-safe); 0 when the ICD
 * loader or any platform is missing. */
int gl_cl_device_count(void);
const gl_cl_device_info *gl_cl_device(int i);

/* The device that serves OpenCL requests: platform/device as parsed from
 * GPULAPACK_DEVICE (-1: the best one), gpu_only for the automatic choice.
 * Returns its index or -1. */
int gl_cl_choose(int platform, int device, int gpu_only);

/* Makes device i the one the operations below use (process-wide) and
 * builds what it needs lazily.  Returns 0, or -1 if its context cannot be
 * made. */
int gl_cl_select(int i);

/* Memory of the selected device. */
void *gl_cl_alloc(size_t bytes);
void gl_cl_release(void *ptr);

/* Column-major copies with leading dimensions (elements of elem bytes).
 * gl_cl_read waits for everything the thread enqueued and fails, without
 * writing dst, if any of it failed; dst is written only from a complete
 * read (through a staging buffer). */
int gl_cl_write(size_t elem, size_t rows, size_t cols, const void *src,
                size_t ld_src, void *dst, size_t ld_dst);
int gl_cl_read(size_t elem, size_t rows, size_t cols, const void *src,
               size_t ld_src, void *dst, size_t ld_dst);
int gl_cl_copy(size_t elem, size_t rows, size_t cols, const void *src,
               size_t ld_src, void *dst, size_t ld_dst);

/* A kernel argument: a value, or device memory (a pointer from
 * gl_cl_alloc, passed to the kernel as its buffer and an element offset
 * of type long, i.e. two kernel arguments). */
typedef struct gl_cl_arg {
    size_t size;        /* value bytes; 0 for memory */
    const void *value;  /* the value, or the device pointer */
    size_t elem;        /* memory: element size for the offset */
} gl_cl_arg;
#define GL_CL_VALUE(v) ((gl_cl_arg){sizeof(v), &(v), 0})
#define GL_CL_MEM(p, e) ((gl_cl_arg){0, (p), (e)})

/* The kernels of kernels/device/, by name in gl_cl_kernel_names. */
typedef enum gl_cl_kernel {
    GL_K_COPY, GL_K_SCALE, GL_K_PACK_BAND, GL_K_ZERO_LOWER, GL_K_UNPACK_V,
    GL_K_GEMM, GL_K_GEQRT, GL_K_GELQT, GL_K_GB_CHASE, GL_K_SB_CHASE,
    GL_K_COUNT
} gl_cl_kernel;

/* Enqueues kernel k of the program of precision (1 s, 2 d, 3 c, 4 z) on
 * the calling thread's queue: dims 1 or 2, global sizes multiples of the
 * local ones.  Returns 0 or -1. */
int gl_cl_launch(int precision, gl_cl_kernel k, int dims,
                 const size_t *global, const size_t *local, int nargs,
                 const gl_cl_arg *args);

/* The calling thread's error state: every failed allocation, copy or
 * launch of the runtime sets it (so do gl_cl_fail's callers), gl_cl_read
 * reports it (before it writes any host memory) and gl_cl_reset, called
 * at the start of each accelerated call, clears it. */
void gl_cl_fail(void);
void gl_cl_reset(void);

/* C = alpha op(A) op(B) + beta C through CLBlast (libclblast.so.1, opened
 * on first use; on GPUs unless GPULAPACK_CLBLAST says otherwise, see
 * docs/env.md): trans 0 N, 1 T, 2 C; alpha and
 * beta point to scalars of the precision.  Returns 0, 1 when CLBlast is not
 * there (use the portable kernel), or -1 on failure. */
int gl_cl_blas_gemm(int precision, int transa, int transb, size_t m,
                    size_t n, size_t k, const void *alpha, const void *a,
                    size_t lda, const void *b, size_t ldb, const void *beta,
                    void *c, size_t ldc);

/* GPU runtimes seen by dlopen, e.g. "libOpenCL.so.1 libcuda.so.1". */
const char *gl_gpu_runtimes_found(void);

#endif
