/* The planners' choices: the shapes of each family's plan (kernels/plan.h)
 * by its tier, from the tuning of the device it is made for
 * (runtime/tune.h).  This is the one file of kernels/ that asks the
 * tuning for a shape; the pipelines, their tiers and their stages run by
 * the plan and count its bytes from it (eig_plan_make, svd_plan_make,
 * band_plan_make), so that what the policy fits is what the pipeline
 * allocates by construction (docs/design/memory.md). */
#include <complex.h>
#include <limits.h>

#include "../../runtime/precision.h"
#include "../../runtime/tune.h"
#include "../tiers/streamed.h"
#include "eig_call.h"
#include "svd_call.h"

/* The tile columns a set of devices shares stage 1 by, of n columns and
 * half-width b; 0 for one device. */
static int stage1_tile(const gl_call_plan *plan, lapack_int n, lapack_int b)
{
    return plan->devices > 1 ? gl_tune_stage1_tile(n, b, plan->devices) : 0;
}

/* The lean and streamed plans multiply stage 3's merges in blocks: their
 * device holds the chase's reflectors meanwhile. */
static int product_tile(const gl_call_plan *plan)
{
    return plan->tier != GL_PLAN_IN_CORE ? gl_tune_ooc_tile(LONG_MAX, 0) : 0;
}

/* ---- the Hermitian eigenproblem (eig.c, eig_streamed.c) ---------------- */

/* gl_s_he_tridiag_plan gl_d_he_tridiag_plan gl_c_he_tridiag_plan gl_z_he_tridiag_plan */
void GL_FN(he_tridiag_plan)(const gl_tuning *tuning, lapack_int n,
                            int vectors, gl_call_plan *plan)
{
    lapack_int b = gl_tune_band(tuning, 'H', GL_COMPLEX, n, vectors);
    lapack_int bw = b < n - 1 ? b : n - 1;
    plan->band = plan->chase_band = bw;
    plan->stage1_block = gl_tune_stage1_block(tuning, n, bw);
    plan->stage1_tile = stage1_tile(plan, n, bw);
    plan->group = gl_tune_group(tuning, bw);
}

/* The lean plan (the vectors only): the in-core reduction's band and
 * stage-1 block, the chase's band at least 1, the streamed plan's blocks
 * of Z. */
static int eig_lean_shape(const gl_tuning *tuning, lapack_int n,
                          int vectors, gl_call_plan *plan)
{
    if (!vectors)
        return 0;
    lapack_int b = gl_tune_band(tuning, 'H', GL_COMPLEX, n, 1);
    b = b < n - 1 ? b : n - 1;
    lapack_int bt = b > 0 ? b : 1;
    plan->band = b;
    plan->chase_band = bt;
    plan->stage1_block = gl_tune_stage1_block(tuning, n, b);
    plan->stage1_tile = stage1_tile(plan, n, b);
    plan->tile = gl_tune_ooc_tile(n, bt);
    plan->group = gl_tune_group(tuning, bt);
    return 1;
}

/* The streamed plan: for the vectors the out-of-core band, for the
 * values a wide one, narrowed in core to the chase's; tiles of the
 * out-of-core side; with the vectors the chase's store in groups and,
 * where the whole store does not fit the room beside the rest, parked
 * in segments of sweeps (streamed_segment; GPULAPACK_OOC_SEGMENT forces
 * them). */
static void eig_streamed_shape(const gl_tuning *tuning,
                               const gl_eig_job *job, lapack_int n,
                               int vectors, gl_call_plan *plan)
{
    int b = vectors ? gl_tune_ooc_band(n) : gl_tune_ooc_wide_band(tuning, n);
    plan->band = b;
    plan->chase_band = vectors ? b : gl_tune_ooc_chase_band(n, b);
    plan->tile = gl_tune_ooc_tile(n, b);
    plan->group = vectors ? gl_tune_group(tuning, b < n - 1 ? b : n - 1) : 0;
    plan->segment = 0;
    if (!vectors)
        return;
    lapack_int forced = gl_tune_ooc_segment(plan->group);
    plan->segment = forced > 0 ? forced
                               : GL_FN(streamed_segment)(
                                     &plan->room, n, b, plan->tile,
                                     plan->group, gl_eig_z_columns(job, n),
                                     gl_eig_device_products(job, n, vectors),
                                     plan->product_tile);
}

/* gl_s_eig_shape gl_d_eig_shape gl_c_eig_shape gl_z_eig_shape */
int GL_FN(eig_shape)(const gl_tuning *tuning, const gl_eig_job *job,
                     lapack_int n, int vectors, gl_call_plan *plan)
{
    plan->product_tile = product_tile(plan);
    switch (plan->tier) {
    case GL_PLAN_LEAN:
        return eig_lean_shape(tuning, n, vectors, plan);
    case GL_PLAN_STREAMED:
        eig_streamed_shape(tuning, job, n, vectors, plan);
        return 1;
    default:   /* in core; the one-stage and the vendor's: no shapes */
        if (plan->method == GL_METHOD_TWO_STAGE)
            GL_FN(he_tridiag_plan)(tuning, n, vectors, plan);
        return 1;
    }
}

/* ---- the SVD (svd.c, svd_lean.c, svd_streamed.c) ----------------------- */

/* gl_s_svd_shape gl_d_svd_shape gl_c_svd_shape gl_z_svd_shape */
void GL_FN(svd_shape)(const gl_tuning *tuning, svd_call *c,
                      gl_call_plan *plan)
{
    lapack_int cols = c->cols;
    int streamed = plan->tier == GL_PLAN_STREAMED;
    plan->product_tile = product_tile(plan);
    plan->segment = 0;
    if (streamed && !c->vectors) {
        /* the values: the streamed passes' band and tiles, stage 2's
         * passes of that band */
        lapack_int b = gl_tune_ooc_band(cols);
        plan->band = plan->chase_band = b;
        plan->group = gl_tune_group(tuning, gl_svd_band_width(b, cols, 0));
        plan->tile = gl_tune_ooc_tile(cols, b);
        plan->tile_width = gl_tune_tile_width(b);
        return;
    }
    /* in core and the lean plan: the device's tuned band; the streamed
     * vectors: the out-of-core band, at least 1 */
    lapack_int b = streamed ? gl_tune_ooc_band(cols)
                            : gl_tune_band(tuning, 'G', GL_COMPLEX, cols,
                                           c->vectors);
    lapack_int bw = gl_svd_band_width(b, cols, streamed ? 1 : 0);
    lapack_int nb = bw > 0 ? bw : 1;
    plan->band = plan->chase_band = bw;
    plan->group = gl_tune_group(tuning, bw);
    plan->stage1_block = gl_tune_stage1_block(tuning, cols, nb);
    plan->stage1_tile = stage1_tile(plan, cols, nb);
    plan->tile_width = gl_tune_tile_width(bw);
    plan->tile =
        plan->tier != GL_PLAN_IN_CORE ? gl_tune_ooc_tile(cols, nb) : 0;
    if (streamed) {   /* the chase's segments, for the call so decided */
        c->tier->decide(c);
        plan->segment =
            GL_FN(svd_segment)(c, gl_tune_ooc_segment(plan->group));
    }
}

/* ---- the band routines (band_values.c) --------------------------------- */

/* gl_s_band_shape gl_d_band_shape gl_c_band_shape gl_z_band_shape */
void GL_FN(band_shape)(const gl_tuning *tuning, lapack_int b,
                       gl_call_plan *plan)
{
    plan->band = plan->chase_band = b;
    plan->group = gl_tune_group(tuning, b);
    plan->tile_width = gl_tune_tile_width(b);
}
