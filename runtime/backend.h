/* The one registry of backends: a row per backend (runtime/backend.c),
 * from which everything that names a backend derives: the parsing of
 * GPULAPACK_DEVICE (runtime/config.c), the order in which the automatic
 * choice tries the GPU runtimes, the listing of the runtime libraries
 * found and the slots of their discovery failures (runtime/device.c),
 * the path names of the log (gl_path_name) and the path keys of the tune
 * file (runtime/tune.c).
 *
 * A new backend is its runtime file (a gl_gpu, runtime/gpu.h), its row,
 * and its values of gl_path (path.h) and gl_device_kind (config.h), which
 * the row ties together. */
#ifndef GL_BACKEND_H
#define GL_BACKEND_H

#include <stddef.h>

#include "config.h"
#include "path.h"

struct gl_gpu;

/* How GPULAPACK_DEVICE names one of a backend's devices after "name:". */
typedef enum gl_device_syntax {
    GL_SYNTAX_NONE,             /* the name alone: "host" */
    GL_SYNTAX_INDEX,            /* "cuda:i": device i */
    GL_SYNTAX_PLATFORM_DEVICE,  /* "opencl:p.d": device d of platform p;
                                 * "opencl:p": any device of platform p */
} gl_device_syntax;

typedef struct gl_backend {
    const char *name;             /* in GPULAPACK_DEVICE (any case), the
                                   * log's path=, the tune file's keys
                                   * (at most 7 characters) */
    gl_path path;
    gl_device_kind kind;
    const struct gl_gpu *gpu;     /* its runtime; NULL for the host and
                                   * for a runtime not compiled in */
    const char *const *sonames;   /* its vendor libraries, NULL-terminated,
                                   * in the order its discovery tries
                                   * them; NULL for the host */
    gl_device_syntax syntax;
} gl_backend;

/* The rows, the GPU backends first in the order the automatic choice
 * tries them (CUDA, HIP, OpenCL: the vendors' own APIs first), then the
 * host. */
enum { GL_NBACKENDS = 4 };
extern const gl_backend gl_backends[GL_NBACKENDS];

/* The row of a name (exact, as the tune file's keys), of a path, of a
 * kind; NULL if none (GL_PATH_LAPACK, GL_DEVICE_AUTO). */
const gl_backend *gl_backend_named(const char *name);
const gl_backend *gl_backend_of_path(gl_path path);
const gl_backend *gl_backend_of_kind(gl_device_kind kind);

/* 1 for the backend of a GPU runtime (compiled in or not), 0 for the
 * host. */
static inline int gl_backend_is_gpu(const gl_backend *backend)
{
    return backend->sonames != NULL;
}

/* The vendor libraries of each runtime, as in its row (runtime/cudalike.c
 * and runtime/opencl.c open them with gl_runtime_open, runtime/device.h). */
extern const char *const gl_cuda_sonames[], *const gl_hip_sonames[],
    *const gl_opencl_sonames[];

#endif
