#include "device.h"

#ifndef GL_BACKENDS
#define GL_BACKENDS "host"
#endif

const char *gl_backends_compiled(void) { return GL_BACKENDS; }

/* No GPU backend is compiled in yet (host only), so there is nothing to
 * discover: the OpenCL, CUDA and HIP backends add their discovery here. */
int gl_device_count(void) { return 0; }

gl_path gl_device_path(const gl_device_request *request)
{
    switch (request->kind) {
    case GL_DEVICE_AUTO:
    case GL_DEVICE_HOST:
        return GL_PATH_HOST;
    case GL_DEVICE_OPENCL:
    case GL_DEVICE_CUDA:
    case GL_DEVICE_HIP:
        break;
    }
    return GL_PATH_LAPACK;
}

const char *gl_path_name(gl_path path)
{
    switch (path) {
    case GL_PATH_LAPACK: return "lapack";
    case GL_PATH_HOST: return "host";
    case GL_PATH_OPENCL: return "opencl";
    case GL_PATH_CUDA: return "cuda";
    case GL_PATH_HIP: return "hip";
    }
    return "?";
}
