/* The gpulapack_ C API (include/gpulapack.h). */
#include "../include/gpulapack.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "config.h"
#include "device.h"
#include "fortran.h"
#include "gpu.h"
#include "real_lapack.h"
#include "tune.h"

#define GL_API GL_EXPORT

GL_API const char *gpulapack_version(void) { return GPULAPACK_VERSION; }

GL_API const char *gpulapack_lapack_library(void)
{
    /* Any routine that every LAPACK since 3.0 has identifies the library. */
    static gl_routine probe = GL_ROUTINE_INIT("dgesvd");
    return gl_lapack_library(&probe);
}

GL_API const char *gpulapack_backends(void) { return gl_backends_compiled(); }

GL_API int gpulapack_device_count(void) { return gl_device_count(); }

GL_API int gpulapack_device_info(int i, gpulapack_device *out)
{
    int chosen = 0;
    const gl_gpu_device_info *d = gl_device_info(i, &chosen);
    if (!d || !out)
        return 0;
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", d->id);
    snprintf(out->name, sizeof out->name, "%s", d->name);
    snprintf(out->platform, sizeof out->platform, "%s", d->platform_name);
    snprintf(out->version, sizeof out->version, "%s", d->version);
    out->gpu = d->gpu;
    out->fp64 = d->fp64;
    out->memory = d->memory;
    out->compute_units = d->compute_units;
    out->clock_mhz = d->clock_mhz;
    out->chosen = chosen;
    return 1;
}

GL_API const char *gpulapack_path(void)
{
    /* a small double-precision problem, of one double (the least any
     * call needs): what every call would get */
    const gl_device_request *device = &gl_config_get()->device;
    gl_path path = gl_device_path(device, 1, NULL);
    gl_room room = gl_device_room(path);
    if (path != GL_PATH_HOST && path != GL_PATH_LAPACK &&
        !gl_room_fits(&room, 8, 8))
        path = device->backend == NULL ? GL_PATH_HOST : GL_PATH_LAPACK;
    return gl_path_name(path);
}

GL_API const char *gpulapack_gpu_runtimes(void)
{
    return gl_gpu_runtimes_found();
}

GL_API const char *gpulapack_tune_table(void) { return gl_tune_source(); }

/* The solver versions of the GPU runtimes with a device, joined by ", "
 * (gpulapack_vendor_solver): found once, on the first call, so that no
 * solver library opens at the library's load or where no device is. */
static char vendor_solvers[192];
static pthread_once_t vendor_solvers_once = PTHREAD_ONCE_INIT;

static void find_vendor_solvers(void)
{
    size_t at = 0;
    for (int r = 0; r < GL_NBACKENDS; r++) {
        const gl_backend *b = &gl_backends[r];
        const gl_gpu *g = gl_backend_is_gpu(b) ? gl_device_gpu(b->path) : NULL;
        char v[64] = "";
        if (!g)
            g = b->gpu;
        if (!g || !g->solver_version || g->device_count() < 1 ||
            g->solver_version(v, sizeof v) != 0 || !v[0])
            continue;
        int len = snprintf(vendor_solvers + at, sizeof vendor_solvers - at,
                           "%s%s", at ? ", " : "", v);
        if (len < 0 || (size_t)len >= sizeof vendor_solvers - at)
            break;   /* truncated: what fits */
        at += (size_t)len;
    }
}

GL_API const char *gpulapack_vendor_solver(void)
{
    pthread_once(&vendor_solvers_once, find_vendor_solvers);
    return vendor_solvers;
}
