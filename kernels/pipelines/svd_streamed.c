/* The streamed plans of the SVD (docs/design/memory.md), for a matrix
 * larger than the device.  The values: stages 1 and 2 by
 * kernels/tiers/ge2gb_streamed.c from a copy in host memory, then stage 3
 * as in core.  The vectors: the lean plan's flow (svd_lean.c) after a
 * streamed stage 1 (ge_band_streamed), which keeps the panels in host
 * memory as it goes, reduces a tall X whole (the passes hold no matrix
 * on the device: no QR first) with the out-of-core band, and takes
 * stage 1's panels past each block in groups bounded by the block; the
 * chase keeps its two stores on the device where they fit beside the
 * rest, else parks them in host memory segment by segment (svd_segment):
 * O(n b + tile n) of the device. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "../../runtime/precision.h"
#include "../../runtime/log.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../tiers/streamed.h"
#include "svd_call.h"

/* The parked chase in segments of sweeps (whole groups): c->seg, and
 * c->nseg of them (c->park). */
static void park_in(svd_call *c, lapack_int sweeps)
{
    c->seg = sweeps;
    c->nseg = c->park ? (c->cols - 2 + sweeps - 1) / sweeps : 0;
}

/* Whether the plan as decided fits the budget and the room's largest
 * allocation: its high-water mark and its largest allocation. */
static int plan_fits(const svd_call *c, size_t budget)
{
    unsigned long long most = c->plan->room.max_alloc;
    size_t largest, bytes = GL_FN(svd_lean_bytes)(c, &largest);
    return bytes <= budget && (most == 0 || largest <= most);
}

/* The budget the plan with its chase parked in segments of k groups
 * must fit (svd_segment). */
typedef struct segment_fit {
    svd_call *c;
    size_t budget;
} segment_fit;

static int segments_fit(void *arg, lapack_int k)
{
    segment_fit *f = arg;
    park_in(f->c, k * f->c->group);
    return plan_fits(f->c, f->budget);
}

/* The streamed plan's chase (the planner's step, plans.c): where the
 * band has sweeps to chase, its two stores kept on the device where
 * that plan fits the budget the policy fits it against (the plan's
 * room, kernels/plan.h), as the lean plan keeps them (no store
 * crosses the bus); else parked in segments of the most whole groups of
 * sweeps whose plan fits (fewer segments: fewer launches past each block
 * and the same bytes), at least one group.  forced (GPULAPACK_OOC_SEGMENT)
 * forces its segments; a budget not known parks a group per segment. */
/* gl_s_svd_segment gl_d_svd_segment gl_c_svd_segment gl_z_svd_segment */
lapack_int GL_FN(svd_segment)(svd_call *c, lapack_int forced)
{
    lapack_int group = c->group;
    size_t budget = c->plan->room.budget;
    c->park = c->bw > 1 && c->cols > 2;
    park_in(c, forced > 0 ? forced : group);
    if (c->park && forced <= 0 && budget != 0) {
        c->park = 0;
        if (!plan_fits(c, budget)) {
            c->park = 1;   /* the plan grows with the segments' stores */
            segment_fit f = {c, budget};
            park_in(c, gl_most_that_fit((c->cols - 2 + group - 1) / group,
                                        segments_fit, &f) *
                           group);
        }
    }
    return c->park ? c->seg : 0;
}

/* The out-of-core band (at least 1: ge_band_streamed's b is 1 .. cols -
 * 1), no QR first, the lean flow's blocks, and the chase's store parked
 * in the plan's segments (svd_segment), or kept. */
static void streamed_decide(svd_call *c)
{
    c->tall = 0;
    GL_FN(svd_band)(c, 1);
    c->on_device = c->host_image = c->beside = 0;
    c->tile = c->plan->tile;
    c->park = c->plan->segment > 0;
    park_in(c, c->plan->segment);
}

/* Segment i of the parked chase: its first sweep (*s0) and its sweeps,
 * the first of the chase of the trailing band of order cols - s0. */
static lapack_int seg_sweeps(const svd_call *c, lapack_int i, lapack_int *s0)
{
    *s0 = i * c->seg;
    lapack_int left = c->cols - 2 - *s0;
    return left < c->seg ? left : c->seg;
}

/* The scalars of one side's store of segment i (vectors, then tau's);
 * *ngroups its groups of sweeps.  Segment 0's is the largest. */
static size_t seg_scalars(const svd_call *c, lapack_int i,
                          lapack_int *ngroups)
{
    lapack_int s0, sweeps = seg_sweeps(c, i, &s0);
    return GL_FN(reflectors_segment_slots)(c->cols - s0, c->bw, c->group,
                                           sweeps, ngroups) *
           ((size_t)c->bw + 1);
}

/* Stage 1's bytes: the passes' arena with the panels' scratch. */
static void streamed_stage1_bytes(const svd_call *c, svd_lean_sizes *b)
{
    b->stage1 = GL_FN(ge_streamed_stage1_bytes)(
        &c->ops->ctx->tuning, c->rows, c->cols, c->nb, c->tile);
    b->x = b->work = b->stage1;
}

/* The stores' bytes: kept as the lean plan keeps them, or parked: segment
 * 0's, the largest, both in the chase; one side's at a time past the
 * blocks, in one allocation. */
static void streamed_store_bytes(const svd_call *c, svd_lean_sizes *b)
{
    if (!c->park) {
        GL_FN(svd_kept_bytes)(c, b);
        return;
    }
    b->store = seg_scalars(c, 0, &b->ngroups) * sizeof(gl_scalar);
    lapack_int s0, sweeps = seg_sweeps(c, 0, &s0);
    b->apply = GL_FN(apply_segment_device_bytes)(c->cols, c->bw, c->group,
                                                 sweeps, c->tile);
    b->stores = b->store_alloc = GL_PARKED_BUFFERS * b->store;
}

/* The streamed plan's stage 1 of the vectors: X (scaled) copied into the
 * host array of the panels and reduced there by the streamed passes
 * (ge_band_streamed), which keep its panels and T factors in host memory
 * as the lean plan's stage 1 parks them; then the band goes up. */
static int streamed_stage1(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    if (GL_FN(ge_band_streamed)(ops, c->m, c->n, c->a, c->lda, c->anrm,
                                c->scaled_to, c->nb, c->tile, c->hx, c->htq,
                                c->htp, c->hband, c->t))
        return GL_STAGE_FAULT;
    c->lean_band = ops->alloc(ops, sizeof(gl_scalar) * (size_t)c->ldband *
                                       (size_t)c->cols);
    if (!c->lean_band)
        return GL_STAGE_FAULT;
    c->band = c->lean_band;
    ops->from_host(ops, 'N', c->ldband, c->cols, c->hband, c->ldband,
                   c->band, c->ldband);
    return 0;
}

/* The streamed plan's chase in segments: each segment's two stores on
 * the device while it chases, then parked in host memory (hq, hp) and
 * released before the next. */
static int chase_parked(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int b = c->bw, cols = c->cols, ng;
    c->seg_at = malloc(sizeof *c->seg_at * (size_t)(c->nseg + 1));
    c->seg_first = malloc(sizeof *c->seg_first *
                          (size_t)(c->seg / c->group + 2));
    if (!c->seg_at || !c->seg_first)
        return GL_STAGE_FAULT;
    c->seg_at[0] = 0;
    for (lapack_int i = 0; i < c->nseg; i++)
        c->seg_at[i + 1] = c->seg_at[i] + seg_scalars(c, i, &ng);
    c->hq = gl_host_alloc(sizeof *c->hq * 2 * c->seg_at[c->nseg]);
    if (!c->hq)
        return GL_STAGE_FAULT;
    c->hp = c->hq + c->seg_at[c->nseg];
    for (lapack_int i = 0; i < c->nseg; i++) {
        lapack_int s0, sweeps = seg_sweeps(c, i, &s0);
        lapack_int count = (lapack_int)(c->seg_at[i + 1] - c->seg_at[i]);
        GL_FN(reflectors) r;
        int rc = GL_FN(reflectors_alloc_segment)(ops, &r, cols - s0, b,
                                                 c->group, sweeps, 1) ||
                 ops->gb_chase(ops, cols - s0, b, 1, sweeps,
                               c->band + (size_t)s0 * c->ldband, c->ldband,
                               &r) ||
                 ops->to_host_scratch(ops, count, 1, r.vq, count,
                                      c->hq + c->seg_at[i], count) ||
                 ops->to_host_scratch(ops, count, 1, r.vp, count,
                                      c->hp + c->seg_at[i], count);
        GL_FN(reflectors_free)(ops, &r);
        if (rc)
            return GL_STAGE_FAULT;
    }
    return 0;
}

/* The chase: parked segment by segment, or its stores kept. */
static int streamed_chase(svd_call *c)
{
    if (c->park) {
        gl_log(1, "streamed chase: %d segments of %d sweeps parked in host "
                  "memory", c->nseg, c->seg);
        return chase_parked(c);
    }
    gl_log(1, "streamed chase: its stores kept on the device");
    return GL_FN(svd_chase_kept)(c);
}

/* Store buffer u of seg_dev (GL_PARKED_BUFFERS of segment 0's size). */
static gl_scalar *seg_buffer(const svd_call *c, int u)
{
    lapack_int ng;
    return c->seg_dev + (size_t)u * seg_scalars(c, 0, &ng);
}

/* Segment i's store of side which up into its buffer (i's parity). */
static void seg_up(const svd_call *c, char which, lapack_int i)
{
    int u = (int)(i % GL_PARKED_BUFFERS);
    GL_FN(parked_upload)(c->ops,
                         (which == 'Q' ? c->hq : c->hp) + c->seg_at[i],
                         (lapack_int)(c->seg_at[i + 1] - c->seg_at[i]),
                         seg_buffer(c, u), u);
}

/* E (rows 0 .. cols-1, ncols columns, on the device) := Q E ('Q') or P E
 * ('P') from the parked segments: each goes up into one of seg_dev's
 * buffers, the next beside this one's work (tile_pass.c parked_upload),
 * the last segment first, and takes its rows s0.. of E, in batches
 * bounded by the block as segment 0's (apply_segment). */
static int apply_parked(const svd_call *c, char which, lapack_int ncols,
                        gl_scalar *e, lapack_int lde)
{
    const GL_FN(ops) *ops = c->ops;
    seg_up(c, which, c->nseg - 1);
    for (lapack_int i = c->nseg - 1; i >= 0; i--) {
        int u = (int)(i % GL_PARKED_BUFFERS);
        if (i > 0)   /* the next one's beside this one's work */
            seg_up(c, which, i - 1);
        lapack_int s0, sweeps = seg_sweeps(c, i, &s0);
        gl_scalar *store = seg_buffer(c, u);
        GL_FN(reflectors) r;
        GL_FN(reflectors_segment_layout)(&r, c->cols - s0, c->bw, c->group,
                                         sweeps, store, store, c->seg_first);
        GL_FN(parked_ready)(ops, u);
        if (GL_FN(apply_segment)(ops, &r, which, 'N', ncols, e + s0, lde,
                                 c->cols))
            return GL_STAGE_FAULT;
        GL_FN(parked_used)(ops, u);
    }
    return 0;
}

/* A block's chase reflectors: the stores on the device, or parked. */
static int streamed_apply_chase(const svd_call *c, char which,
                                lapack_int ncols, gl_scalar *e,
                                lapack_int lde)
{
    if (c->park)
        return apply_parked(c, which, ncols, e, lde);
    return GL_FN(svd_apply_kept)(c, which, ncols, e, lde);
}

/* Before the blocks: the parked stores' host memory pinned for the upload
 * lane, then their GL_PARKED_BUFFERS device buffers. */
static void streamed_pin(svd_call *c)
{
    if (c->park)
        c->ops->host_pin(c->ops, c->hq,
                         sizeof *c->hq * 2 * c->seg_at[c->nseg]);
}

static int streamed_ready(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int ng;
    c->seg_dev = c->park ? ops->alloc(ops, sizeof(gl_scalar) *
                                               GL_PARKED_BUFFERS *
                                               seg_scalars(c, 0, &ng))
                         : NULL;
    return c->park && !c->seg_dev ? GL_STAGE_FAULT : 0;
}

/* The streamed plan's parts of the lean flow: its stage 1, leaving the
 * band in host memory too; its chase; the panels in groups bounded by
 * the block (apply_block_panels). */
static const svd_lean_parts streamed_parts = {
    .host_band = 1,
    .stage1 = streamed_stage1,
    .chase = streamed_chase,
    .pin = streamed_pin,
    .ready = streamed_ready,
    .apply_chase = streamed_apply_chase,
    .apply_panels = GL_FN(apply_block_panels),
    .panels_bytes = GL_FN(apply_block_panels_device_bytes),
    .stage1_bytes = streamed_stage1_bytes,
    .store_bytes = streamed_store_bytes,
};

/* gl_s_svd_streamed_tier gl_d_svd_streamed_tier gl_c_svd_streamed_tier gl_z_svd_streamed_tier */
const svd_tier GL_FN(svd_streamed_tier) = {
    .decide = streamed_decide,
    .device_bytes = GL_FN(svd_lean_bytes),
    .plan = GL_FN(svd_lean_plan),
    .reduce = GL_FN(svd_lean_reduce),
    .stage3 = GL_FN(svd_lean_stage3),
    .vectors = GL_FN(svd_lean_vectors),
    .read = GL_FN(svd_lean_read),
    .free = GL_FN(svd_lean_free),
    .parts = &streamed_parts,
};

/* ---- the values ---- */

/* The plan's band (the streamed passes'): the host arena takes nothing
 * of it without vectors. */
static void values_decide(svd_call *c)
{
    GL_FN(svd_band)(c, 0);
}

/* The streamed stages 1 and 2, then stage 3's bisection
 * (ops->bidiag_values), alone: the bidiagonal as a tridiagonal of 2 cols
 * and its values. */
static size_t values_device_bytes(const svd_call *c, size_t *largest)
{
    lapack_int rows = c->rows, cols = c->cols;
    size_t bytes = GL_FN(ge_streamed_device_bytes)(
        &c->ops->ctx->tuning, rows, cols, c->plan->band, c->plan->tile);
    size_t values = 5 * (size_t)cols * sizeof(gl_real);
    bytes = bytes > values ? bytes : values;
    *largest = bytes;
    return bytes;
}

/* Stages 1 and 2 hold their own device memory: the host arena alone. */
static int values_plan(svd_call *c)
{
    return GL_FN(svd_host_plan)(c, 0);
}

/* The streamed plan's stages 1 and 2: d and e from X's copy in host
 * memory (ge2gb_streamed.c); the stage marks as in core. */
static int svd_reduce_streamed(svd_call *c)
{
    gl_stage_times reduce;
    if (GL_FN(ge_bidiag_streamed)(c->ops, c->m, c->n, c->a, c->lda, c->anrm,
                                  c->scaled_to, c->plan->band, c->plan->tile,
                                  c->plan->tile_width, c->d, c->ee, &reduce))
        return GL_STAGE_FAULT;
    c->t[1] = gl_now() - reduce.stage2;
    c->t[0] = c->t[1] - reduce.stage1;
    return 0;
}

static int values_stage3(svd_call *c)
{
    c->t[2] = gl_profile_stage(c->ops->ctx, "stage3");
    return GL_FN(svd_stage3_de)(c, c->ops);
}

/* No vectors: the stages' marks alone. */
static int values_vectors(svd_call *c)
{
    c->t[3] = gl_profile_stage(c->ops->ctx, "back");
    c->t[4] = gl_profile_stage(c->ops->ctx, "out");
    return 0;
}

static int values_read(svd_call *c)
{
    (void)c;
    return 0;
}

/* gl_s_svd_streamed_values_tier gl_d_svd_streamed_values_tier gl_c_svd_streamed_values_tier gl_z_svd_streamed_values_tier */
const svd_tier GL_FN(svd_streamed_values_tier) = {
    .decide = values_decide,
    .device_bytes = values_device_bytes,
    .plan = values_plan,
    .reduce = svd_reduce_streamed,
    .stage3 = values_stage3,
    .vectors = values_vectors,
    .read = values_read,
    .free = GL_FN(svd_free),
};
