/* The gpulapack_ C API (include/gpulapack.h). */
#include "../include/gpulapack.h"
#include "../lapack_api/entry.h"
#include "device.h"

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
