/* The operation table of each path. */
#include "../runtime/precision.h"
#include "../runtime/path.h"
#include "lapack_fns.h"
#include "ops.h"
#include "ref/host.h"
#include "../runtime/device.h"
#include "../runtime/gpu.h"
#include "../runtime/profile.h"
extern const GL_FN(ops) GL_FN(gpu_ops);

/* gl_s_ops_for gl_d_ops_for gl_c_ops_for gl_z_ops_for */
const GL_FN(ops) *GL_FN(ops_for)(int path)
{
    /* Every table needs the system LAPACK (stage 3, the host's panels). */
    if (!GL_FN(lapack_fns_get)())
        return NULL;
    if (path == GL_PATH_HOST) {
        gl_profile_begin(NULL);
        return &GL_FN(host_ops);
    }
    const gl_gpu *gpu = gl_device_gpu(path);
    if (!gpu)
        return NULL;
    gl_gpu_use(gl_profile_begin(gpu));
    gpu->reset();
    return &GL_FN(gpu_ops);
}
