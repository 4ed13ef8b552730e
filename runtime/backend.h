/* The one registry of backends: a row per backend (runtime/backend.c),
 * from which everything that names a backend derives: the parsing of
 * GPULAPACK_DEVICE (runtime/config.c), the order in which the automatic
 * choice tries the GPU runtimes, the vendor libraries each runtime opens,
 * the listing of the runtime libraries found and the slots of their
 * discovery failures (runtime/device.c), the path names of the log
 * (gl_path_name), the path keys of the tune file (runtime/tune_file.c)
 * and the runtimes whose launches are cheap (runtime/tune.c), and the
 * GPU paths gpulapack-tune measures.
 *
 * A new backend is its runtime (a gl_gpu, runtime/gpu.h), its row, its
 * value of gl_path (path.h), which the row ties to its name, and its
 * stanza of the Makefile, which compiles it in (-DGL_WITH_..., taken
 * beside the rows). */
#ifndef GL_BACKEND_H
#define GL_BACKEND_H

#include <stddef.h>

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
    const struct gl_gpu *gpu;     /* its runtime; NULL for the host and
                                   * for a runtime not compiled in */
    const char *const *sonames;   /* its vendor libraries, NULL-terminated,
                                   * in the order its discovery tries
                                   * them (gl_runtime_open); NULL for the
                                   * host */
    gl_device_syntax syntax;
    int cheap_launches;           /* a launch costs a few microseconds
                                   * (CUDA, HIP: 3-4 us), so the ?syev
                                   * family's built-in method takes the
                                   * one-stage reduction, about 13
                                   * launches a column, at small sizes
                                   * (runtime/tune.c); OpenCL's cost
                                   * more */
} gl_backend;

/* The rows, the GPU backends first in the order the automatic choice
 * tries them (CUDA, HIP, OpenCL: the vendors' own APIs first), then the
 * host. */
enum { GL_NBACKENDS = 4 };
extern const gl_backend gl_backends[GL_NBACKENDS];

/* The row of a name (exact, as the tune file's keys), of a path; NULL if
 * none (GL_PATH_LAPACK). */
const gl_backend *gl_backend_named(const char *name);
const gl_backend *gl_backend_of_path(gl_path path);

/* 1 for the backend of a GPU runtime (compiled in or not), 0 for the
 * host. */
static inline int gl_backend_is_gpu(const gl_backend *backend)
{
    return backend->sonames != NULL;
}

#endif
