#include "device.h"
#include "tune.h"

#include <pthread.h>

#ifdef GL_WITH_OPENCL
#include "opencl.h"
#endif

#ifndef GL_BACKENDS
#define GL_BACKENDS "host"
#endif

const char *gl_backends_compiled(void) { return GL_BACKENDS; }

int gl_device_count(void)
{
#ifdef GL_WITH_OPENCL
    return gl_cl_device_count();
#else
    return 0;
#endif
}

#ifdef GL_WITH_OPENCL
/* The OpenCL device of the process, chosen once from GPULAPACK_DEVICE:
 * the automatic choice takes GPUs only (an OpenCL CPU device such as PoCL
 * is slower than the host backend on the same CPU; GPULAPACK_DEVICE=opencl
 * asks for it), and only once the path is measured (gl_tune_opencl_auto);
 * -1 if none. */
static int opencl_device = -1;
static pthread_once_t opencl_once = PTHREAD_ONCE_INIT;

static void opencl_choose(void)
{
    const gl_device_request *r = &gl_config_get()->device;
    int i = r->kind == GL_DEVICE_OPENCL ? gl_cl_choose(r->platform, r->index, 0)
            : gl_tune_opencl_auto()      ? gl_cl_choose(-1, -1, 1)
                                         : -1;
    if (i >= 0 && gl_cl_select(i) == 0)
        opencl_device = i;
}

/* The chosen device if it can run the problem: double precision when
 * asked, and memory for about three copies of the matrix. */
static int opencl_fits(int fp64, int64_t bytes)
{
    pthread_once(&opencl_once, opencl_choose);
    const gl_cl_device_info *info = gl_cl_device(opencl_device);
    return info && (info->fp64 || !fp64) &&
           (unsigned long long)bytes * 3 <= info->memory;
}
#endif

gl_path gl_device_path(const gl_device_request *request, int fp64,
                       int64_t bytes)
{
    (void)fp64;
    (void)bytes;
    switch (request->kind) {
    case GL_DEVICE_HOST:
        return GL_PATH_HOST;
    case GL_DEVICE_AUTO:
#ifdef GL_WITH_OPENCL
        if (gl_tune_opencl_auto() && opencl_fits(fp64, bytes))
            return GL_PATH_OPENCL;
#endif
        return GL_PATH_HOST;
    case GL_DEVICE_OPENCL:
#ifdef GL_WITH_OPENCL
        if (opencl_fits(fp64, bytes))
            return GL_PATH_OPENCL;
#endif
        break;
    case GL_DEVICE_CUDA:
    case GL_DEVICE_HIP:
        break;
    }
    return GL_PATH_LAPACK;
}

int gl_device_chosen(void)
{
#ifdef GL_WITH_OPENCL
    pthread_once(&opencl_once, opencl_choose);
    return opencl_device;
#else
    return -1;
#endif
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
