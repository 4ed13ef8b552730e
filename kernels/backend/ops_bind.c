/* The operation table of each path, bound to a call's execution context
 * (ops.h ops_bind). */
#include "../../runtime/precision.h"
#include "../../runtime/path.h"
#include "../../runtime/backend.h"
#include "../../runtime/config.h"
#include "../../runtime/context.h"
#include "lapack_fns.h"
#include "../ops.h"
#include "gpu_ops.h"
#include "host/host.h"

/* gl_s_ops_bind gl_d_ops_bind gl_c_ops_bind gl_z_ops_bind */
int GL_FN(ops_bind)(GL_FN(ops) *table, gl_ctx *ctx)
{
    /* Every table needs the system LAPACK (stage 3, the host's panels). */
    if (!table || !ctx || !GL_FN(lapack_fns_get)())
        return -1;
    const gl_backend *backend = gl_backend_of_path(ctx->path);
    const GL_FN(ops) *base;
    if (ctx->path == GL_PATH_HOST)
        base = &GL_FN(host_ops);
    else if (backend && gl_backend_is_gpu(backend) && ctx->runtime)
        base = &GL_FN(gpu_ops);   /* a context of a compiled-in runtime */
    else
        return -1;
    *table = *base;
    table->ctx = ctx;
    GL_FN(ops_products_mode)(table);
    return 0;
}

/* auto: the SVD's in one pass (ge2gb, 5-13% quicker on the 2 cores of
 * epyc-2core), the ?syev family's apart (sy2sb, 7% quicker;
 * docs/design/host-threads.md) */
/* gl_s_ops_products_mode gl_d_ops_products_mode gl_c_ops_products_mode gl_z_ops_products_mode */
void GL_FN(ops_products_mode)(GL_FN(ops) *table)
{
    int products = gl_config_get()->host_products;
    if (products != GL_HOST_PRODUCTS_FUSED)
        table->her2k_hemm_ahead = NULL;
    if (products != GL_HOST_PRODUCTS_FUSED &&
        products != GL_HOST_PRODUCTS_AUTO)
        table->ge_update_ahead = NULL;
}
