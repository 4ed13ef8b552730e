/* The operation table of an accepted call: the table of the decision's
 * path bound to its execution context (kernels/ops.h ops_bind), with
 * what its plan says of the operations (product_tile), in *table, which
 * the caller provides for the call's duration. */
#ifndef GL_ACCEL_OPS_H_PRECISION
#define GL_ACCEL_OPS_H_PRECISION GL_PRECISION

#include "../kernels/ops.h"
#include "entry.h"

/* gl_s_accel_ops gl_d_accel_ops gl_c_accel_ops gl_z_accel_ops */
static inline const GL_FN(ops) *GL_FN(accel_ops)(const gl_decision *decision,
                                                 GL_FN(ops) *table)
{
    if (GL_FN(ops_bind)(table, decision->ctx) != 0)
        return NULL;
    table->product_tile = decision->plan.product_tile;
    return table;
}

#endif
