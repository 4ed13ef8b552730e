/* The back-transformations: the stage-2 reflectors kept by the chase,
 * grouped into compact-WY parallelograms (why their order gives Q: the
 * comment above host_order), and the stage-1 block reflectors of the
 * panels, applied with BLAS3 (?larfb). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../../runtime/parallel.h"
#include "backtransform.h"
#include "../backend/gpu_ops.h"

/* Steps of sweep s of a chase to half-width 1
 * (kernels/backend/host/chase.c). */
static lapack_int chase_steps(lapack_int n, lapack_int b, lapack_int s)
{
    return s + 2 > n - 1 ? 0 : (n - 3 - s) / b + 1;
}

/* gl_s_reflectors_segment_slots gl_d_reflectors_segment_slots
 * gl_c_reflectors_segment_slots gl_z_reflectors_segment_slots */
size_t GL_FN(reflectors_segment_slots)(lapack_int n, lapack_int b,
                                       lapack_int group, lapack_int sweeps,
                                       lapack_int *ngroups)
{
    if (group < 1)
        group = 1;
    /* half-width 1 or less: nothing to chase, nothing kept */
    lapack_int run = n > 2 && b > 1 ? n - 2 : 0;
    if (sweeps < run)
        run = sweeps > 0 ? sweeps : 0;
    *ngroups = (run + group - 1) / group;
    size_t cols = 1;
    for (lapack_int g = 0; g < *ngroups; g++)
        cols += (size_t)chase_steps(n, b, g * group) * (size_t)group;
    return cols;
}

/* gl_s_reflectors_slots gl_d_reflectors_slots gl_c_reflectors_slots gl_z_reflectors_slots */
size_t GL_FN(reflectors_slots)(lapack_int n, lapack_int b, lapack_int group,
                               lapack_int *ngroups)
{
    return GL_FN(reflectors_segment_slots)(n, b, group, n, ngroups);
}

/* gl_s_reflectors_segment_layout gl_d_reflectors_segment_layout
 * gl_c_reflectors_segment_layout gl_z_reflectors_segment_layout */
size_t GL_FN(reflectors_segment_layout)(GL_FN(reflectors) *r, lapack_int n,
                                        lapack_int b, lapack_int group,
                                        lapack_int sweeps, gl_scalar *vq,
                                        gl_scalar *vp, lapack_int *first)
{
    memset(r, 0, sizeof *r);
    if (group < 1)
        group = 1;
    size_t cols =
        GL_FN(reflectors_segment_slots)(n, b, group, sweeps, &r->ngroups);
    r->n = n, r->b = b, r->group = group;
    r->first = first;
    r->first[0] = 0;
    for (lapack_int g = 0; g < r->ngroups; g++)
        r->first[g + 1] = r->first[g] + chase_steps(n, b, g * group) * group;
    r->vq = vq, r->vp = vp;
    r->tauq = r->vq + cols * (size_t)b;
    r->taup = vp ? r->vp + cols * (size_t)b : NULL;
    return cols;
}

/* gl_s_reflectors_place_segment gl_d_reflectors_place_segment
 * gl_c_reflectors_place_segment gl_z_reflectors_place_segment */
void GL_FN(reflectors_place_segment)(const GL_FN(ops) *ops,
                                     GL_FN(reflectors) *r, lapack_int n,
                                     lapack_int b, lapack_int group,
                                     lapack_int sweeps, gl_scalar *vq,
                                     gl_scalar *vp, lapack_int *first,
                                     gl_scalar *zeros)
{
    size_t cols = GL_FN(reflectors_segment_layout)(r, n, b, group, sweeps, vq,
                                                   vp, first);
    /* slots the chase never reaches (past the end of short sweeps) must
     * read as H = I */
    memset(zeros, 0, sizeof *zeros * cols);
    ops->from_host(ops, 'N', (lapack_int)cols, 1, zeros, (lapack_int)cols,
                   r->tauq, (lapack_int)cols);
    if (vp)
        ops->from_host(ops, 'N', (lapack_int)cols, 1, zeros, (lapack_int)cols,
                       r->taup, (lapack_int)cols);
}

/* gl_s_reflectors_place gl_d_reflectors_place gl_c_reflectors_place gl_z_reflectors_place */
void GL_FN(reflectors_place)(const GL_FN(ops) *ops, GL_FN(reflectors) *r,
                             lapack_int n, lapack_int b, lapack_int group,
                             gl_scalar *vq, gl_scalar *vp, lapack_int *first,
                             gl_scalar *zeros)
{
    GL_FN(reflectors_place_segment)(ops, r, n, b, group, n, vq, vp, first,
                                    zeros);
}

/* gl_s_reflectors_alloc_segment gl_d_reflectors_alloc_segment
 * gl_c_reflectors_alloc_segment gl_z_reflectors_alloc_segment */
int GL_FN(reflectors_alloc_segment)(const GL_FN(ops) *ops,
                                    GL_FN(reflectors) *r, lapack_int n,
                                    lapack_int b, lapack_int group,
                                    lapack_int sweeps, int two_sided)
{
    memset(r, 0, sizeof *r);
    lapack_int ngroups;
    size_t cols =
        GL_FN(reflectors_segment_slots)(n, b, group, sweeps, &ngroups);
    size_t bytes = sizeof(gl_scalar) * cols * ((size_t)b + 1);
    lapack_int *first = malloc(sizeof *first * (size_t)(ngroups + 1));
    gl_scalar *vq = first ? ops->alloc(ops, bytes) : NULL;
    gl_scalar *vp = vq && two_sided ? ops->alloc(ops, bytes) : NULL;
    gl_scalar *zeros = vq && (vp || !two_sided) ? malloc(sizeof *zeros * cols)
                                                : NULL;
    if (!zeros) {
        ops->release(ops, vq);
        ops->release(ops, vp);
        free(first);
        return GL_STAGE_FAULT;
    }
    GL_FN(reflectors_place_segment)(ops, r, n, b, group, sweeps, vq, vp,
                                    first, zeros);
    free(zeros);
    return 0;
}

/* gl_s_reflectors_alloc gl_d_reflectors_alloc gl_c_reflectors_alloc gl_z_reflectors_alloc */
int GL_FN(reflectors_alloc)(const GL_FN(ops) *ops, GL_FN(reflectors) *r,
                            lapack_int n, lapack_int b, lapack_int group,
                            int two_sided)
{
    return GL_FN(reflectors_alloc_segment)(ops, r, n, b, group, n, two_sided);
}

/* gl_s_reflectors_free gl_d_reflectors_free gl_c_reflectors_free gl_z_reflectors_free */
void GL_FN(reflectors_free)(const GL_FN(ops) *ops, GL_FN(reflectors) *r)
{
    ops->release(ops, r->vq);
    ops->release(ops, r->vp);
    free(r->first);
    memset(r, 0, sizeof *r);
}

/* Blocks built and handed to the backend at a time: bounds the memory
 * for V and Y (2 (b + group) group scalars per block).  A device takes
 * more at a time, up to DEVICE_BATCH_BYTES of them (512 blocks of the
 * default band and group): its blocks on disjoint rows go out as one
 * batched product (below), and each hand-over is a copy and a wait. */
enum { HOST_BATCH = 128, DEVICE_BATCH = 512 };
#define DEVICE_BATCH_BYTES ((size_t)64 << 20)

/* The blocks of a batch, built in parallel on the host: block i holds the
 * reflectors of store columns col[i] .. col[i] + k[i] - 1 and acts on
 * rows[i] rows; column c of it is rows c .. c+b-1 of the parallelogram.
 * Plain C, no BLAS: these are small products (k <= group), and the
 * system BLAS called from several threads at once can serialize or nest
 * its own threads. */
typedef struct wy_build {
    const gl_scalar *vstore, *taustore;   /* the reflectors, in host memory */
    lapack_int b, group, ldv;
    size_t stride;
    int forward;
    const size_t *col;
    const lapack_int *rows, *k;
    gl_scalar *hv, *hy;   /* out: V^H (ld k) and Y (ld ldv) per block */
} wy_build;

static lapack_int min_int(lapack_int a, lapack_int b) { return a < b ? a : b; }

static int build_block(void *arg, long i)
{
    const wy_build *w = arg;
    lapack_int rows = w->rows[i], k = w->k[i], b = w->b, ldv = w->ldv;
    const gl_scalar *vcols = w->vstore + w->col[i] * (size_t)b,
                    *tau = w->taustore + w->col[i];
    gl_scalar *vh = w->hv + i * w->stride, *y = w->hy + i * w->stride;
    gl_scalar *t = malloc(sizeof *t * ((size_t)k * k + w->stride));
    lapack_int *end = malloc(sizeof *end * (size_t)k);
    if (!t || !end) {
        free(t);
        free(end);
        return -1;
    }
    gl_scalar *v = t + (size_t)k * k;
    /* V explicit: column c is rows c .. end(c)-1; a slot the chase never
     * wrote (tau = 0) may hold anything: H = I is e_c */
    for (lapack_int c = 0; c < k; c++) {
        gl_scalar *vc = v + (size_t)c * ldv;
        memset(vc, 0, sizeof *vc * (size_t)rows);
        end[c] = tau[c] != 0 ? c + min_int(rows - c, b) : c + 1;
        if (tau[c] != 0)
            memcpy(vc + c, vcols + (size_t)c * b,
                   sizeof *vc * (size_t)(end[c] - c));
        else
            vc[c] = 1;
    }
    /* T as ?larft 'F', 'C': T(c, c) = tau_c and
     * T(0:c, c) = -tau_c T(0:c, 0:c) V(:, 0:c)^H V(:, c) */
    memset(t, 0, sizeof *t * (size_t)k * k);
    for (lapack_int c = 0; c < k; c++) {
        gl_scalar *tc = t + (size_t)c * k;
        if (tau[c] == 0)
            continue;   /* H = I: column c of T is zero */
        const gl_scalar *vc = v + (size_t)c * ldv;
        for (lapack_int p = 0; p < c; p++) {   /* rows c .. end(p)-1 */
            const gl_scalar *vp = v + (size_t)p * ldv;
            gl_scalar dot = 0;
            for (lapack_int r = c; r < end[p]; r++)
                dot += GL_CONJ(vp[r]) * vc[r];
            tc[p] = -tau[c] * dot;
        }
        for (lapack_int p = 0; p < c; p++) {   /* upper triangular T z */
            gl_scalar sum = 0;
            for (lapack_int q = p; q < c; q++)
                sum += t[p + (size_t)q * k] * tc[q];
            tc[p] = sum;
        }
        tc[c] = tau[c];
    }
    /* Y = V T (Q) or V T^H (Q^H) */
    for (lapack_int c = 0; c < k; c++) {
        gl_scalar *yc = y + (size_t)c * ldv;
        memset(yc, 0, sizeof *yc * (size_t)rows);
        lapack_int p0 = w->forward ? 0 : c, p1 = w->forward ? c + 1 : k;
        for (lapack_int p = p0; p < p1; p++) {
            gl_scalar f = w->forward ? t[p + (size_t)c * k]
                                     : GL_CONJ(t[c + (size_t)p * k]);
            const gl_scalar *vp = v + (size_t)p * ldv;
            for (lapack_int r = p; r < end[p]; r++)
                yc[r] += vp[r] * f;
        }
    }
    /* V^H, ld k */
    for (lapack_int c = 0; c < k; c++)
        for (lapack_int r = 0; r < rows; r++)
            vh[c + (size_t)r * k] = GL_CONJ(v[r + (size_t)c * ldv]);
    free(t);
    free(end);
    return 0;
}

/* One application of a chase's blocks to E: the blocks listed (a batch
 * on the host, all of them on a device) and what they need. */
typedef struct wy_apply {
    const GL_FN(ops) *ops;
    const GL_FN(reflectors) *r;
    wy_build build;
    size_t *cols;
    lapack_int *row0s, *rowss, *ks;
    int batch, capacity;   /* blocks listed; per batch */
    int listing;           /* a device: every block listed, applied after */
    gl_scalar *dev;        /* V^H then Y of capacity blocks, on the backend */
    lapack_int ncols, lde;
    gl_scalar *e;
} wy_apply;

/* The host: builds the batch's blocks and applies them to E. */
static int apply_batch(wy_apply *a)
{
    const GL_FN(ops) *ops = a->ops;
    size_t stride = a->build.stride;
    gl_scalar *dev_y = a->dev + (size_t)a->capacity * stride;
    double clock = gl_profile_clock(ops->ctx);
    if (gl_parallel_for(a->batch, build_block, &a->build))
        return -1;
    gl_profile_section(ops->ctx, "wy blocks built", clock);
    ops->from_host(ops, 'N', (lapack_int)stride, a->batch, a->build.hv,
                   (lapack_int)stride, a->dev, (lapack_int)stride);
    ops->from_host(ops, 'N', (lapack_int)stride, a->batch, a->build.hy,
                   (lapack_int)stride, dev_y, (lapack_int)stride);
    int rc = ops->apply_wy(ops, a->batch, a->row0s, a->rowss, a->ks, a->dev,
                           dev_y, a->build.ldv, stride, a->build.b,
                           a->build.forward, a->ncols, a->e, a->lde);
    a->batch = 0;
    return rc;
}

/* A device: the listed blocks' three values each (store column, rows, k)
 * go over in one write, then each batch of capacity blocks is built
 * there from the store (ops->wy_build) and applied.  No write comes
 * between the products, so the host never waits for the device (a write
 * through the staging memory waits for the transfer before it) and
 * issues the whole back-transformation ahead of it: a read of other
 * vectors can run beside it (svd.c). */
static int apply_listed(wy_apply *a, const gl_scalar *vstore,
                        const gl_scalar *taustore)
{
    const GL_FN(ops) *ops = a->ops;
    size_t count = (size_t)a->batch, stride = a->build.stride,
           per = (size_t)a->capacity;
    lapack_int *values = malloc(sizeof *values * 3 * (count ? count : 1));
    if (!values)
        return -1;
    for (size_t i = 0; i < count; i++) {
        values[3 * i] = (lapack_int)a->cols[i];
        values[3 * i + 1] = a->rowss[i];
        values[3 * i + 2] = a->ks[i];
    }
    lapack_int *blocks = ops->ints_to_device(ops, 3 * count, values);
    free(values);
    int rc = blocks ? 0 : -1;
    gl_scalar *dev_y = a->dev + per * stride;
    for (size_t i = 0; i < count && rc == 0; i += per) {
        lapack_int nb = (lapack_int)(count - i < per ? count - i : per);
        rc = ops->wy_build(ops, nb, blocks + 3 * i, a->r->group, vstore,
                           taustore, a->build.b, a->build.ldv, stride,
                           a->build.forward, a->dev, dev_y) ||
             ops->apply_wy(ops, nb, a->row0s + i, a->rowss + i, a->ks + i,
                           a->dev, dev_y, a->build.ldv, stride, a->build.b,
                           a->build.forward, a->ncols, a->e, a->lde);
    }
    ops->release(ops, blocks);
    return rc ? -1 : 0;
}

/* Block (g, j): the reflectors of sweeps g group .. g group + group - 1
 * at step j, on rows g group + 1 + j b .. g group + group - 1 + (j + 1) b
 * (fewer at the bottom of E), added to the list (on the host, a batch
 * applied when full). */
static int add_block(wy_apply *a, lapack_int g, lapack_int j)
{
    const GL_FN(reflectors) *r = a->r;
    lapack_int n = r->n, b = r->b, group = r->group, s0 = g * group;
    if (j >= chase_steps(n, b, s0))
        return 0;
    lapack_int row0 = s0 + 1 + j * b;
    lapack_int row1 = min_int(s0 + group - 1 + (j + 1) * b, n - 1);
    lapack_int rows = row1 - row0 + 1;
    lapack_int k = min_int(group, rows);
    if (k <= 0)
        return 0;
    size_t col = (size_t)r->first[g] + (size_t)j * group;
    /* blocks of H = I only (short sweeps) skipped where the host sees
     * the store; the device's blocks of them are identities */
    int any = a->listing;
    for (lapack_int c = 0; !any && c < k; c++)
        any |= a->build.taustore[col + c] != 0;
    if (!any)
        return 0;
    a->cols[a->batch] = col, a->row0s[a->batch] = row0,
    a->rowss[a->batch] = rows, a->ks[a->batch] = k;
    return ++a->batch == a->capacity && !a->listing ? apply_batch(a) : 0;
}

/* Q E = (groups last to first) of (steps first to last) of B_j E, with
 * B_j = H(s0,j) ... H(s0+group-1,j): H(s,j) overlaps only H(s',j-1) for
 * s' > s, which this order keeps after it.  Q^H E reverses it.  Block
 * (g, j) overtakes only blocks (g', j') with g' > g and j' > j, whose
 * rows lie wholly below its own (and blocks on disjoint rows commute), so
 * two other orders give the same product: */

/* For the host, waves of WAVE_GROUPS groups, step by step, each step from
 * the last group of the wave to its first: a wave's blocks walk down E
 * once, a window of about WAVE_GROUPS group + b rows at a time, instead
 * of once per group. */
static int host_order(wy_apply *a)
{
    enum { WAVE_GROUPS = 8 };
    const GL_FN(reflectors) *r = a->r;
    int forward = a->build.forward, rc = 0;
    lapack_int nwaves = (r->ngroups + WAVE_GROUPS - 1) / WAVE_GROUPS;
    for (lapack_int wi = 0; wi < nwaves && rc == 0; wi++) {
        lapack_int w = forward ? nwaves - 1 - wi : wi;
        lapack_int g_lo = w * WAVE_GROUPS,
                   g_hi = min_int(g_lo + WAVE_GROUPS, r->ngroups) - 1;
        /* the wave's first group has the most steps */
        lapack_int wave_steps = chase_steps(r->n, r->b, g_lo * r->group);
        for (lapack_int ji = 0; ji < wave_steps && rc == 0; ji++) {
            lapack_int j = forward ? ji : wave_steps - 1 - ji;
            for (lapack_int gi = 0; gi <= g_hi - g_lo && rc == 0; gi++)
                rc = add_block(a, forward ? g_hi - gi : g_lo + gi, j);
        }
    }
    return rc;
}

/* For a device, anti-diagonals: wave w holds the blocks (g, j) with
 * (ngroups - 1 - g) + j = w, which lie group + b rows apart, so on
 * disjoint rows.  The blocks (g, j) must follow, (g, j') with j' < j and
 * the blocks (g', j') of later groups g' > g it overlaps, which start
 * less than b + group rows from it, so j' < j + g' - g, all lie on
 * earlier waves.  A wave goes to the device in ascending rows: one
 * batched product pair (dev_apply_wy). */
static int device_order(wy_apply *a)
{
    const GL_FN(reflectors) *r = a->r;
    lapack_int last = r->ngroups - 1;
    lapack_int nwaves = last + chase_steps(r->n, r->b, 0);
    int rc = 0;
    for (lapack_int wi = 0; wi < nwaves && rc == 0; wi++) {
        lapack_int w = a->build.forward ? wi : nwaves - 1 - wi;
        /* j = w - (last - g) grows with g while the steps shrink: the
         * wave's blocks are those from g = last - w until j runs out */
        for (lapack_int g = w < last ? last - w : 0; g <= last && rc == 0;
             g++) {
            lapack_int j = w - (last - g);
            if (j >= chase_steps(r->n, r->b, g * r->group))
                break;
            rc = add_block(a, g, j);
        }
    }
    return rc;
}

/* A device's batch of blocks for apply_chase: how many (of the blocks
 * there are) go out at a time, and the scalars between two blocks
 * (*stride: one parallelogram of at most b + group - 1 rows and group
 * columns, each column on a 64-byte boundary for vector loads of whole
 * lines).  V and Y of a batch take at most DEVICE_BATCH_BYTES, and at
 * most a quarter of E's e_scalars: the memory a call plans for
 * (apply_chase_device_bytes) stays a share of its matrices. */
static int chase_batch(lapack_int b, lapack_int group, size_t blocks,
                       size_t e_scalars, size_t *stride)
{
    const lapack_int line = GL_LINE_BYTES / sizeof(gl_scalar);
    size_t ldv = (size_t)(b + group - 1 + line - 1) / line * line;
    *stride = ldv * (size_t)group;
    size_t bytes = DEVICE_BATCH_BYTES;
    if (e_scalars / 4 * sizeof(gl_scalar) < bytes)
        bytes = e_scalars / 4 * sizeof(gl_scalar);
    size_t fit = bytes / (2 * *stride * sizeof(gl_scalar));
    if (fit > blocks)
        fit = blocks;
    return fit < 1 ? 1 : fit < DEVICE_BATCH ? (int)fit : DEVICE_BATCH;
}

/* gl_s_apply_segment_device_bytes gl_d_apply_segment_device_bytes
 * gl_c_apply_segment_device_bytes gl_z_apply_segment_device_bytes */
size_t GL_FN(apply_segment_device_bytes)(lapack_int n, lapack_int b,
                                         lapack_int group, lapack_int sweeps,
                                         lapack_int ncols)
{
    lapack_int ngroups;
    if (group < 1)
        group = 1;
    size_t slots = GL_FN(reflectors_segment_slots)(n, b, group, sweeps,
                                                   &ngroups),
           stride;
    if (ngroups == 0 || ncols <= 0)
        return 0;
    size_t e_scalars = (size_t)n * (size_t)ncols;
    int capacity = chase_batch(b, group, slots / (size_t)group + 1,
                               e_scalars, &stride);
    size_t blocks = 2 * (size_t)capacity * stride * sizeof(gl_scalar);
    return blocks + gl_wy_scratch_bytes(e_scalars * sizeof(gl_scalar)) +
           3 * sizeof(lapack_int) * (slots / (size_t)group + 1);
}

/* gl_s_apply_chase_device_bytes gl_d_apply_chase_device_bytes
 * gl_c_apply_chase_device_bytes gl_z_apply_chase_device_bytes */
size_t GL_FN(apply_chase_device_bytes)(lapack_int n, lapack_int b,
                                       lapack_int group, lapack_int ncols)
{
    return GL_FN(apply_segment_device_bytes)(n, b, group, n, ncols);
}

/* gl_s_apply_chase gl_d_apply_chase gl_c_apply_chase gl_z_apply_chase */
int GL_FN(apply_chase)(const GL_FN(ops) *ops, const GL_FN(reflectors) *r,
                       char which, char trans, lapack_int ncols, gl_scalar *e,
                       lapack_int lde)
{
    return GL_FN(apply_segment)(ops, r, which, trans, ncols, e, lde, r->n);
}

/* gl_s_apply_segment gl_d_apply_segment gl_c_apply_segment gl_z_apply_segment */
int GL_FN(apply_segment)(const GL_FN(ops) *ops, const GL_FN(reflectors) *r,
                         char which, char trans, lapack_int ncols,
                         gl_scalar *e, lapack_int lde, lapack_int block_rows)
{
    const lapack_int b = r->b, group = r->group;
    if (r->ngroups == 0 || ncols == 0)
        return 0;
    const gl_scalar *vstore = which == 'P' ? r->vp : r->vq;
    const gl_scalar *taustore = which == 'P' ? r->taup : r->tauq;
    /* The blocks built by the device where it can (nothing crosses the
     * bus; every block listed first, apply_listed), else on the host
     * from the store itself, or from one read of it (not a read per
     * block: each is a wait for the device). */
    int on_device = !ops->host_memory && ops->wy_build && ops->ints_to_device;
    size_t slots = (size_t)r->first[r->ngroups];
    size_t stride, blocks = slots / (size_t)group + 1;
    lapack_int rows = block_rows > r->n ? block_rows : r->n;
    int batch = chase_batch(b, group, blocks, (size_t)rows * (size_t)ncols,
                            &stride);
    const int capacity = ops->host_memory ? HOST_BATCH : batch;
    const lapack_int ldv = (lapack_int)(stride / (size_t)group);
    size_t both = 2 * (size_t)capacity * stride;
    gl_scalar *host =
        on_device ? NULL : gl_host_alloc(sizeof *host * both);
    gl_scalar *copy =
        ops->host_memory || on_device
            ? NULL
            : gl_host_alloc(sizeof *copy * slots * ((size_t)b + 1));
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * both);
    /* at most one block per (group, step) */
    size_t listed = on_device ? blocks : (size_t)capacity;
    lapack_int *dims = malloc(sizeof *dims * 3 * listed);
    size_t *cols = malloc(sizeof *cols * listed);
    int rc = 0;
    if ((!on_device && !host) || !dev || !dims || !cols ||
        (!ops->host_memory && !on_device && !copy) ||
        (copy && (ops->to_host_scratch(ops, b, (lapack_int)slots, vstore, b,
                                       copy, b) ||
                  ops->to_host_scratch(ops, (lapack_int)slots, 1, taustore,
                               (lapack_int)slots, copy + slots * b,
                               (lapack_int)slots)))) {
        rc = GL_STAGE_FAULT;
        goto out;
    }
    wy_apply a = {
        .ops = ops, .r = r, .cols = cols, .row0s = dims,
        .rowss = dims + listed, .ks = dims + 2 * listed,
        .capacity = capacity, .listing = on_device, .dev = dev,
        .ncols = ncols, .lde = lde, .e = e,
        .build = {.vstore = ops->host_memory ? vstore : copy,
                  .taustore = ops->host_memory ? taustore
                              : copy        ? copy + slots * b
                                            : NULL,
                  .b = b, .group = group, .ldv = ldv, .stride = stride,
                  .forward = trans == 'N', .col = cols, .rows = dims + listed,
                  .k = dims + 2 * listed, .hv = host,
                  .hy = host ? host + (size_t)capacity * stride : NULL}};
    rc = ops->host_memory ? host_order(&a) : device_order(&a);
    if (rc == 0 && a.batch > 0)
        rc = on_device ? apply_listed(&a, vstore, taustore) : apply_batch(&a);
    if (rc != 0)
        rc = GL_STAGE_FAULT;
out:
    gl_host_free(host);
    gl_host_free(copy);
    free(dims);
    free(cols);
    ops->release(ops, dev);
    return rc;
}

/* Panels are applied as block reflectors of about this many columns:
 * consecutive panels are one larger block reflector (panel p+1 starts nb
 * rows and columns after panel p, so their V's form one unit trapezoid),
 * and the products of ?larfb run at about 1.25 times the rate of k = 64
 * with k = 256 (OpenBLAS 0.3.21, 2 cores). */
enum { PANEL_GROUP_COLS = 256 };

/* The block reflector of the kg reflectors from k0 on (whole panels):
 * V explicit (len x kg, ld len; the adjoint of the rows for 'R') and its
 * forward T (kg x kg, ld kg), merged from the panels' own T's with
 * T12 = -T1 (V1^H V2) T2.  Only T's upper triangle is defined. */
static void merge_panels(const GL_FN(ops) *ops, char storev, lapack_int len,
                         lapack_int nref, lapack_int nb, const gl_scalar *v,
                         lapack_int ldv, const gl_scalar *t, lapack_int k0,
                         lapack_int kg, gl_scalar *vg, gl_scalar *tg)
{
    ops->unpack_v(ops, storev, len, kg, v + (size_t)k0 + (size_t)k0 * ldv, ldv,
                  vg, len);
    for (lapack_int off = 0; off < kg; off += nb) {
        lapack_int kk = min_int(nb, nref - k0 - off);
        gl_scalar *t22 = tg + (size_t)off + (size_t)off * kg;
        ops->copy(ops, kk, kk, t + (size_t)(k0 + off) * nb, nb, t22, kg);
        if (off == 0)
            continue;
        /* V1^H V2 over the rows where V2 is not zero, then -T1 . T2 */
        gl_scalar *t12 = tg + (size_t)off * kg;
        ops->gemm(ops, 'C', 'N', off, kk, len - off, 1, vg + off, len,
                  vg + (size_t)off + (size_t)off * len, len, 0, t12, kg);
        ops->trmm(ops, 'L', 'U', 'N', 'N', off, kk, -1, tg, kg, t12, kg);
        ops->trmm(ops, 'R', 'U', 'N', 'N', off, kk, 1, t22, kg, t12, kg);
    }
}

/* Reflectors merged into one block reflector of apply_panels: whole
 * panels of nb, about PANEL_GROUP_COLS. */
static lapack_int panels_group_cols(lapack_int nb)
{
    lapack_int per_group = PANEL_GROUP_COLS / nb > 1 ? PANEL_GROUP_COLS / nb : 1;
    return per_group * nb;
}

/* Reflectors per group for a block of ncols columns whose device memory
 * the group should about match: its merged V, its upload and larfb's
 * scratch take about 3 len k, the block len ncols, so k is at most
 * ncols / 3, in whole panels, at least one, at most panels_group_cols
 * (which the defaults give: 4096 columns, panels of 256). */
static lapack_int block_group_cols(lapack_int nb, lapack_int ncols)
{
    lapack_int k = ncols / 3 / nb * nb, most = panels_group_cols(nb);
    return k < nb ? nb : k < most ? k : most;
}

/* Panels in host memory go up a group at a time into the upload buffer
 * on the upload lane (ops.h tile_up): once a group is merged out of the
 * buffer, the next group's upload runs beside its larfb, the bulk of the
 * work (MAGMA's applyQ streams its reflector sets so).  Event slots:
 * uploaded (UP), merged (USED). */
enum { EV_PANELS_UP = GL_EVENTS_PANELS, EV_PANELS_USED };
_Static_assert((int)EV_PANELS_USED < (int)GL_QUEUE_EVENTS,
               "the panel groups' slots");

/* The device bytes of panel_groups in groups of group_cols columns
 * (host: with the groups' upload buffer). */
static size_t groups_device_bytes(lapack_int len, lapack_int nref,
                                  lapack_int nb, lapack_int ncols,
                                  lapack_int group_cols, int host)
{
    if (nref <= 0 || ncols <= 0)
        return 0;
    size_t k = (size_t)min_int(group_cols, nref);
    size_t merged = (size_t)len * k + k * k;   /* vg and tg */
    size_t up = host ? ((size_t)len + (size_t)nb) * k : 0;
    return sizeof(gl_scalar) *
           (merged + up + GL_LARFB_SCRATCH((size_t)len, (size_t)ncols, k));
}

/* gl_s_apply_panels_device_bytes gl_d_apply_panels_device_bytes
 * gl_c_apply_panels_device_bytes gl_z_apply_panels_device_bytes */
size_t GL_FN(apply_panels_device_bytes)(lapack_int len, lapack_int nref,
                                        lapack_int nb, lapack_int ncols)
{
    return groups_device_bytes(len, nref, nb, ncols, panels_group_cols(nb), 0);
}

/* gl_s_apply_host_panels_device_bytes gl_d_apply_host_panels_device_bytes
 * gl_c_apply_host_panels_device_bytes gl_z_apply_host_panels_device_bytes */
size_t GL_FN(apply_host_panels_device_bytes)(lapack_int len, lapack_int nref,
                                             lapack_int nb, lapack_int ncols)
{
    return groups_device_bytes(len, nref, nb, ncols, panels_group_cols(nb), 1);
}

/* gl_s_apply_block_panels_device_bytes gl_d_apply_block_panels_device_bytes
 * gl_c_apply_block_panels_device_bytes gl_z_apply_block_panels_device_bytes */
size_t GL_FN(apply_block_panels_device_bytes)(lapack_int len, lapack_int nref,
                                              lapack_int nb, lapack_int ncols)
{
    return groups_device_bytes(len, nref, nb, ncols,
                               block_group_cols(nb, ncols), 1);
}

/* Group g's panels (nref reflectors of panels of nb, the groups of
 * group_cols columns) up from host memory into `up` on the upload lane
 * (their reflectors, (len - k0) x kg for 'C' or kg x (len - k0) for 'R':
 * the same count, then their T's, nb x kg), once the group before is
 * merged out of it. */
static void upload_group(const GL_FN(ops) *ops, char storev, lapack_int len,
                         lapack_int nref, lapack_int nb, const gl_scalar *v,
                         lapack_int ldv, const gl_scalar *t,
                         lapack_int group_cols, lapack_int g, gl_scalar *up)
{
    lapack_int k0 = g * group_cols, kg = min_int(group_cols, nref - k0);
    int rows = storev == 'R';   /* the reflectors in rows */
    gl_scalar *tu = up + (size_t)(len - k0) * (size_t)kg;
    ops->lane_wait(ops, GL_QUEUE_UP, EV_PANELS_USED);
    ops->tile_up(ops, rows ? kg : len - k0, rows ? len - k0 : kg,
                 v + (size_t)k0 + (size_t)k0 * ldv, ldv, up,
                 rows ? kg : len - k0);
    ops->tile_up(ops, nb, kg, t + (size_t)k0 * nb, nb, tu, nb);
    ops->lane_record(ops, GL_QUEUE_UP, EV_PANELS_UP);
}

/* apply_panels with V and T in host memory (host) or the backend's; from
 * host memory each group's panels go up (upload_group) before they are
 * merged, the next group's beside this one's larfb. */
static int panel_groups(const GL_FN(ops) *ops, char storev, char trans,
                        lapack_int len, lapack_int nref, lapack_int nb,
                        const gl_scalar *v, lapack_int ldv, const gl_scalar *t,
                        int host, lapack_int group_cols, lapack_int ncols,
                        gl_scalar *e, lapack_int lde)
{
    if (nref <= 0 || ncols <= 0)
        return 0;
    lapack_int ngroups = (nref + group_cols - 1) / group_cols;
    lapack_int kmax = min_int(group_cols, nref);
    size_t merged = (size_t)len * (size_t)kmax + (size_t)kmax * (size_t)kmax;
    size_t up = host ? ((size_t)len + (size_t)nb) * (size_t)kmax : 0;
    gl_scalar *vg = ops->alloc(ops, sizeof *vg * (merged + up));
    if (!vg)
        return GL_STAGE_FAULT;
    gl_scalar *tg = vg + (size_t)len * (size_t)kmax, *vu = vg + merged;
    int forward = trans == 'N';
    int rc = 0;
    if (host)
        upload_group(ops, storev, len, nref, nb, v, ldv, t, group_cols,
                     forward ? ngroups - 1 : 0, vu);
    for (lapack_int gi = 0; gi < ngroups && rc == 0; gi++) {
        lapack_int g = forward ? ngroups - 1 - gi : gi;
        lapack_int k0 = g * group_cols, kg = min_int(group_cols, nref - k0);
        if (host) {   /* the group's panels alone, as their own k0 = 0 */
            gl_scalar *tu = vu + (size_t)(len - k0) * (size_t)kg;
            ops->lane_wait(ops, GL_QUEUE_COMPUTE, EV_PANELS_UP);
            merge_panels(ops, storev, len - k0, kg, nb, vu,
                         storev == 'R' ? kg : len - k0, tu, 0, kg, vg, tg);
            ops->lane_record(ops, GL_QUEUE_COMPUTE, EV_PANELS_USED);
            if (gi + 1 < ngroups)
                upload_group(ops, storev, len, nref, nb, v, ldv, t,
                             group_cols, forward ? g - 1 : g + 1, vu);
        } else {
            merge_panels(ops, storev, len - k0, nref, nb, v, ldv, t, k0, kg,
                         vg, tg);
        }
        rc = ops->larfb(ops, 'L', trans, 'C', len - k0, ncols, kg, vg, len - k0,
                        tg, kg, e + k0, lde);
    }
    /* the uploads are done before their buffers go (or the host's
     * panels, after a failure) */
    if (host && ops->lanes_finish(ops))
        rc = GL_STAGE_FAULT;
    ops->release(ops, vg);
    return rc ? GL_STAGE_FAULT : 0;
}

/* gl_s_apply_panels gl_d_apply_panels gl_c_apply_panels gl_z_apply_panels */
int GL_FN(apply_panels)(const GL_FN(ops) *ops, char storev, char trans,
                        lapack_int len, lapack_int nref, lapack_int nb,
                        const gl_scalar *v, lapack_int ldv,
                        const gl_scalar *t, lapack_int ncols, gl_scalar *e,
                        lapack_int lde)
{
    return panel_groups(ops, storev, trans, len, nref, nb, v, ldv, t, 0,
                        panels_group_cols(nb), ncols, e, lde);
}

/* gl_s_apply_host_panels gl_d_apply_host_panels gl_c_apply_host_panels gl_z_apply_host_panels */
int GL_FN(apply_host_panels)(const GL_FN(ops) *ops, char storev, char trans,
                             lapack_int len, lapack_int nref, lapack_int nb,
                             const gl_scalar *v, lapack_int ldv,
                             const gl_scalar *t, lapack_int ncols,
                             gl_scalar *e, lapack_int lde)
{
    return panel_groups(ops, storev, trans, len, nref, nb, v, ldv, t,
                        !ops->host_memory, panels_group_cols(nb), ncols, e,
                        lde);
}

/* gl_s_apply_block_panels gl_d_apply_block_panels gl_c_apply_block_panels gl_z_apply_block_panels */
int GL_FN(apply_block_panels)(const GL_FN(ops) *ops, char storev, char trans,
                              lapack_int len, lapack_int nref, lapack_int nb,
                              const gl_scalar *v, lapack_int ldv,
                              const gl_scalar *t, lapack_int ncols,
                              gl_scalar *e, lapack_int lde)
{
    return panel_groups(ops, storev, trans, len, nref, nb, v, ldv, t,
                        !ops->host_memory, block_group_cols(nb, ncols), ncols,
                        e, lde);
}

/* ---- diagonal phases --------------------------------------------------- */

/* x / |x|, and 1 for x = 0 */
static gl_scalar unit_phase(gl_scalar x)
{
    gl_real a = GL_ABS(x);
    return a == 0 ? 1 : x / a;
}

/* gl_s_bidiagonal_phases gl_d_bidiagonal_phases gl_c_bidiagonal_phases gl_z_bidiagonal_phases */
void GL_FN(bidiagonal_phases)(lapack_int n, const gl_scalar *d,
                              const gl_scalar *e, gl_scalar *left,
                              gl_scalar *right)
{
    /* conj(l_i) d_i r_i = |d_i| and conj(l_i) e_i r_{i+1} = |e_i| */
    right[0] = 1;
    for (lapack_int i = 0; i < n; i++) {
        left[i] = unit_phase(d[i] * right[i]);
        if (i + 1 < n)
            right[i + 1] = left[i] * GL_CONJ(unit_phase(e[i]));
    }
}

/* gl_s_tridiagonal_phases gl_d_tridiagonal_phases gl_c_tridiagonal_phases gl_z_tridiagonal_phases */
void GL_FN(tridiagonal_phases)(lapack_int n, const gl_scalar *e,
                               gl_scalar *p)
{
    /* conj(p_{i+1}) e_i p_i = |e_i| for the subdiagonal e */
    p[0] = 1;
    for (lapack_int i = 0; i + 1 < n; i++)
        p[i + 1] = p[i] * unit_phase(e[i]);
}

/* Transposes go by bands of BAND_ROWS rows of the source (as many
 * columns of the destination): each column of the source gives one or two
 * cache lines, written to BAND_ROWS streams, so few lines are in use at
 * once and they stay in cache whatever the leading dimensions.  Square
 * tiles of 32 took 3 to 5 times as long at n = 8192, whose columns, 64
 * KiB apart, all fall into the same sets of the cache
 * (docs/design/host-path.md, "Transposes"). */
enum { BAND_ROWS = 8 };

/* sign 0: dst = src^H; 1: dst += src^H; -1: dst -= src^H */
static inline void banded_conj_transpose(lapack_int rows, lapack_int cols,
                                         const gl_scalar *src, lapack_int lds,
                                         gl_scalar *dst, lapack_int ldd,
                                         int sign)
{
    for (lapack_int i0 = 0; i0 < rows; i0 += BAND_ROWS) {
        lapack_int i1 = min_int(i0 + BAND_ROWS, rows);
        for (lapack_int j = 0; j < cols; j++)
            for (lapack_int i = i0; i < i1; i++) {
                gl_scalar x = GL_CONJ(src[i + (size_t)j * lds]);
                gl_scalar *d = &dst[j + (size_t)i * ldd];
                *d = sign < 0 ? *d - x : sign > 0 ? *d + x : x;
            }
    }
}

/* gl_s_conj_transpose gl_d_conj_transpose gl_c_conj_transpose gl_z_conj_transpose */
void GL_FN(conj_transpose)(lapack_int rows, lapack_int cols,
                           const gl_scalar *src, lapack_int lds,
                           gl_scalar *dst, lapack_int ldd)
{
    banded_conj_transpose(rows, cols, src, lds, dst, ldd, 0);
}

/* gl_s_sub_conj_transpose gl_d_sub_conj_transpose gl_c_sub_conj_transpose gl_z_sub_conj_transpose */
void GL_FN(sub_conj_transpose)(lapack_int rows, lapack_int cols,
                               const gl_scalar *src, lapack_int lds,
                               gl_scalar *dst, lapack_int ldd)
{
    banded_conj_transpose(rows, cols, src, lds, dst, ldd, -1);
}

/* gl_s_add_conj_transpose gl_d_add_conj_transpose gl_c_add_conj_transpose gl_z_add_conj_transpose */
void GL_FN(add_conj_transpose)(lapack_int rows, lapack_int cols,
                               const gl_scalar *src, lapack_int lds,
                               gl_scalar *dst, lapack_int ldd)
{
    banded_conj_transpose(rows, cols, src, lds, dst, ldd, 1);
}

/* gl_s_scale_rows gl_d_scale_rows gl_c_scale_rows gl_z_scale_rows */
void GL_FN(scale_rows)(lapack_int rows, lapack_int cols, const gl_scalar *phase,
                       const gl_real *x, lapack_int ldx, int transpose,
                       gl_scalar *y, lapack_int ldy)
{
    if (!transpose) {
        for (lapack_int j = 0; j < cols; j++)
            for (lapack_int i = 0; i < rows; i++)
                y[i + (size_t)j * ldy] = phase[i] * x[i + (size_t)j * ldx];
        return;
    }
    /* y = diag(phase) x^T: bands of y's rows, as the transposes */
    for (lapack_int i0 = 0; i0 < rows; i0 += BAND_ROWS) {
        lapack_int i1 = min_int(i0 + BAND_ROWS, rows);
        for (lapack_int j = 0; j < cols; j++)
            for (lapack_int i = i0; i < i1; i++)
                y[i + (size_t)j * ldy] = phase[i] * x[j + (size_t)i * ldx];
    }
}
