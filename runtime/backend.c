/* The registry of backends (backend.h): one row per backend. */
#include "backend.h"
#include "gpu.h"

#include <stddef.h>
#include <string.h>

/* The sonames of each runtime, in the order the runtimes try them
 * (runtime/cudalike.c, runtime/opencl.c use these lists). */
const char *const gl_cuda_sonames[] = {"libcuda.so.1", NULL};
const char *const gl_hip_sonames[] = {"libamdhip64.so.5", "libamdhip64.so.6",
                                      "libamdhip64.so", NULL};
const char *const gl_opencl_sonames[] = {"libOpenCL.so.1", NULL};

#ifdef GL_WITH_CUDA
#define CUDA_GPU (&gl_cuda_gpu)
#else
#define CUDA_GPU NULL
#endif
#ifdef GL_WITH_HIP
#define HIP_GPU (&gl_hip_gpu)
#else
#define HIP_GPU NULL
#endif
#ifdef GL_WITH_OPENCL
#define OPENCL_GPU (&gl_opencl_gpu)
#else
#define OPENCL_GPU NULL
#endif

/* The GPU runtimes in the order the automatic choice tries them: the
 * vendors' own APIs first, CUDA before HIP (HIP is opened only where CUDA
 * found no device: runtime/device.c), OpenCL last.  A runtime not compiled
 * in keeps its row (GPULAPACK_DEVICE may name it; its calls are then
 * forwarded) with no gl_gpu. */
const gl_backend gl_backends[] = {
    {"cuda", GL_PATH_CUDA, GL_DEVICE_CUDA, CUDA_GPU, gl_cuda_sonames,
     GL_SYNTAX_INDEX},
    {"hip", GL_PATH_HIP, GL_DEVICE_HIP, HIP_GPU, gl_hip_sonames,
     GL_SYNTAX_INDEX},
    {"opencl", GL_PATH_OPENCL, GL_DEVICE_OPENCL, OPENCL_GPU,
     gl_opencl_sonames, GL_SYNTAX_PLATFORM_DEVICE},
    {"host", GL_PATH_HOST, GL_DEVICE_HOST, NULL, NULL, GL_SYNTAX_NONE},
};
_Static_assert(sizeof gl_backends / sizeof gl_backends[0] == GL_NBACKENDS,
               "GL_NBACKENDS counts the rows of gl_backends");

const gl_backend *gl_backend_named(const char *name)
{
    for (int b = 0; b < GL_NBACKENDS; b++)
        if (strcmp(gl_backends[b].name, name) == 0)
            return &gl_backends[b];
    return NULL;
}

const gl_backend *gl_backend_of_path(gl_path path)
{
    for (int b = 0; b < GL_NBACKENDS; b++)
        if (gl_backends[b].path == path)
            return &gl_backends[b];
    return NULL;
}

const gl_backend *gl_backend_of_kind(gl_device_kind kind)
{
    for (int b = 0; b < GL_NBACKENDS; b++)
        if (gl_backends[b].kind == kind)
            return &gl_backends[b];
    return NULL;
}
