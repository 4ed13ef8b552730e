/* Backends compiled into this build and the devices they found. */
#ifndef GL_DEVICE_H
#define GL_DEVICE_H

#include <stdint.h>

#include "config.h"
#include "path.h"

/* Space-separated names of the backends compiled in ("host" always). */
const char *gl_backends_compiled(void);

/* Number of GPU devices found (discovery runs on first use). */
int gl_device_count(void);

/* The path that serves a request for the given device, or GL_PATH_LAPACK
 * when that device is not available: fp64 for double precision, bytes
 * the size of the matrix. */
gl_path gl_device_path(const gl_device_request *request, int fp64,
                       int64_t bytes);

/* The runtime of a GPU path (NULL for the others). */
struct gl_gpu;
const struct gl_gpu *gl_device_gpu(gl_path path);

/* Device i of all runtimes' devices (0 <= i < gl_device_count()), and in
 * *chosen whether accelerated calls of its runtime use it; NULL if none. */
struct gl_gpu_device_info;
const struct gl_gpu_device_info *gl_device_info(int i, int *chosen);

/* GPU runtime libraries dlopen finds, e.g. "libcuda.so.1 libOpenCL.so.1". */
const char *gl_gpu_runtimes_found(void);

const char *gl_path_name(gl_path path);

#endif
