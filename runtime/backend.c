/* The registry of backends (backend.h): one row per backend. */
#include "backend.h"
#include "gpu.h"

#include <stddef.h>
#include <string.h>

/* The runtimes compiled in (the Makefile's BACKENDS: -DGL_WITH_...), each
 * a gl_gpu of its runtime's files (runtime/cudalike/, runtime/opencl/);
 * the rows below take them. */
#ifdef GL_WITH_CUDA
extern const gl_gpu gl_cuda_gpu;
#define CUDA_GPU (&gl_cuda_gpu)
#else
#define CUDA_GPU NULL
#endif
#ifdef GL_WITH_HIP
extern const gl_gpu gl_hip_gpu;
#define HIP_GPU (&gl_hip_gpu)
#else
#define HIP_GPU NULL
#endif
#ifdef GL_WITH_OPENCL
extern const gl_gpu gl_opencl_gpu;
#define OPENCL_GPU (&gl_opencl_gpu)
#else
#define OPENCL_GPU NULL
#endif

/* The vendor libraries of each runtime, in the order it tries them. */
static const char *const cuda_sonames[] = {"libcuda.so.1", NULL};
static const char *const hip_sonames[] = {"libamdhip64.so.5",
                                          "libamdhip64.so.6",
                                          "libamdhip64.so", NULL};
static const char *const opencl_sonames[] = {"libOpenCL.so.1", NULL};

/* The GPU runtimes in the order the automatic choice tries them: the
 * vendors' own APIs first, CUDA before HIP (HIP is opened only where CUDA
 * found no device: runtime/device.c), OpenCL last.  A runtime not compiled
 * in keeps its row (GPULAPACK_DEVICE may name it; its calls are then
 * forwarded) with no gl_gpu. */
const gl_backend gl_backends[] = {
    {"cuda", GL_PATH_CUDA, CUDA_GPU, cuda_sonames, GL_SYNTAX_INDEX, 1},
    {"hip", GL_PATH_HIP, HIP_GPU, hip_sonames, GL_SYNTAX_INDEX, 1},
    {"opencl", GL_PATH_OPENCL, OPENCL_GPU, opencl_sonames,
     GL_SYNTAX_PLATFORM_DEVICE, 0},
    {"host", GL_PATH_HOST, NULL, NULL, GL_SYNTAX_NONE, 0},
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
