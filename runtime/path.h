/* Where a call runs: forwarded to the real LAPACK, or our pipeline on the
 * host or one of the GPU runtimes.  Each path but GL_PATH_LAPACK is a
 * backend, with its row (name, runtime, ...) in runtime/backend.c. */
#ifndef GL_PATH_H
#define GL_PATH_H

typedef enum gl_path {
    GL_PATH_LAPACK,   /* forwarded to the real LAPACK */
    GL_PATH_HOST,
    GL_PATH_OPENCL,
    GL_PATH_CUDA,
    GL_PATH_HIP,
} gl_path;

#endif
