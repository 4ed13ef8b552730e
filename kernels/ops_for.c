/* The operation table of each path. */
#include "../lapack_api/precision.h"
#include "../lapack_api/entry.h"
#include "lapack_fns.h"
#include "ops.h"
#include "ref/host.h"
#ifdef GL_WITH_OPENCL
#include "../runtime/opencl.h"
extern const GL_FN(ops) GL_FN(opencl_ops);
#endif

const GL_FN(ops) *GL_FN(ops_for)(int path)
{
    /* Every table needs the system LAPACK (stage 3, the host's panels). */
    if (!GL_FN(lapack_fns_get)())
        return NULL;
    if (path == GL_PATH_HOST)
        return &GL_FN(host_ops);
#ifdef GL_WITH_OPENCL
    if (path == GL_PATH_OPENCL) {
        gl_cl_reset();
        return &GL_FN(opencl_ops);
    }
#endif
    return NULL;
}
