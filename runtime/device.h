/* Backends compiled into this build and the devices they found. */
#ifndef GL_DEVICE_H
#define GL_DEVICE_H

#include "../lapack_api/entry.h"
#include <stdint.h>

#include "config.h"

/* Space-separated names of the backends compiled in ("host" always). */
const char *gl_backends_compiled(void);

/* Number of GPU devices found (discovery runs on first use). */
int gl_device_count(void);

/* The path that serves a request for the given device, or GL_PATH_LAPACK
 * when that device is not available: fp64 for double precision, bytes
 * the size of the matrix. */
gl_path gl_device_path(const gl_device_request *request, int fp64,
                       int64_t bytes);

/* Index (gl_cl_device) of the OpenCL device the process uses, or -1. */
int gl_device_chosen(void);

const char *gl_path_name(gl_path path);

#endif
