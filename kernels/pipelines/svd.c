/* The singular value decomposition by the two-stage reduction: dense ->
 * band (ge2gb), band -> bidiagonal (bulge chasing), bidiagonal -> values
 * and vectors (the system ?bdsqr or ?bdsdc), then the vectors of the
 * bidiagonal back through the two stages.  The scaling and the tall-matrix
 * QR follow ?gesvd/?gesdd.  A call runs by the steps of its memory tier
 * (svd_call.h svd_tier, the plan's tier as the policy chose it): in core,
 * here; the lean plan of the vectors of a matrix that fits the device
 * where the in-core plan (about 8 n^2) does not (svd_lean.c); the
 * streamed plans of the values and of the vectors of a matrix larger
 * than the device (svd_streamed.c). */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../../runtime/tune.h"
#include "../arena.h"
#include "../backend/gpu_ops.h"
#include "../tiers/peers.h"
#include "svd_call.h"

/* Blocked QR of A (m x n) with the T of each panel of nb columns kept at
 * column k of t (ld nb): A = Q R, R in the upper triangle. */
/* gl_s_svd_qr_panels gl_d_svd_qr_panels gl_c_svd_qr_panels gl_z_svd_qr_panels */
int GL_FN(svd_qr_panels)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                         lapack_int nb, gl_scalar *a, lapack_int lda,
                         gl_scalar *t)
{
    for (lapack_int k = 0; k < n; k += nb) {
        lapack_int pk = n - k < nb ? n - k : nb;
        gl_scalar *tk = t + (size_t)k * nb;
        if (ops->geqrt(ops, m - k, pk, AT(a, lda, k, k), lda, tk, nb) ||
            ops->larfb(ops, 'L', 'C', 'C', m - k, n - k - pk, pk,
                       AT(a, lda, k, k), lda, tk, nb, AT(a, lda, k, k + pk),
                       lda))
            return GL_STAGE_FAULT;
    }
    return 0;
}

/* How an output reaches the caller's array: a direct read (a failure
 * may leave it written in part), a complete read (to_host), or direct
 * reads in column blocks over a kept copy of what they overwrite, which
 * the caller puts back if one fails (gl_kept_read_cols). */
enum { READ_DIRECT, READ_WHOLE, READ_BLOCKS };

static int read_out(const GL_FN(ops) *ops, int how, lapack_int rows,
                    lapack_int cols, const gl_scalar *src, lapack_int lds,
                    gl_scalar *dst, lapack_int ldd)
{
    if (how == READ_WHOLE)
        return ops->to_host(ops, rows, cols, src, lds, dst, ldd);
    lapack_int nb = how == READ_BLOCKS
                        ? gl_kept_read_cols(sizeof *dst, rows, cols)
                        : cols;
    lapack_int j0 = 0;
    int rc;
    do {   /* an empty read still reports the device's failures */
        lapack_int nc = cols - j0 < nb ? cols - j0 : nb;
        rc = ops->to_host_scratch(ops, rows, nc, src + (size_t)j0 * lds, lds,
                                  dst + (size_t)j0 * ldd, ldd);
        j0 += nb;
    } while (rc == 0 && j0 < cols);
    return rc;
}

/* dst = src^H for vectors src (rows x cols, ld rows) of the backend: on a
 * device transposed there into scratch (rows cols scalars) and read (how:
 * read_out), else through the host image host (read into it first) or, on
 * the host backend, from src in place. */
static int read_adjoint(const GL_FN(ops) *ops, int how, gl_scalar *host,
                        gl_scalar *scratch, lapack_int rows, lapack_int cols,
                        const gl_scalar *src, gl_scalar *dst, lapack_int ldd)
{
    if (!ops->host_memory && !host)
        return ops->conj_transpose(ops, rows, cols, src, rows, scratch,
                                   cols) ||
                       read_out(ops, how, cols, rows, scratch, cols, dst, ldd)
                   ? -1
                   : 0;
    if (host && ops->to_host(ops, rows, cols, src, rows, host, rows))
        return -1;
    GL_FN(conj_transpose)(rows, cols, host ? host : src, rows, dst, ldd);
    return 0;
}

static const svd_tier svd_in_core;

/* The plan's band (at least lo) and what follows from it: the panels'
 * width, the chase's groups, the rows ge2gb sees and their ld. */
/* gl_s_svd_band gl_d_svd_band gl_c_svd_band gl_z_svd_band */
void GL_FN(svd_band)(svd_call *c, lapack_int lo)
{
    lapack_int rows = c->rows, cols = c->cols;
    c->bw = gl_svd_band_width(c->plan->band, cols, lo);
    c->nb = c->bw > 0 ? c->bw : 1;
    c->ldband = 3 * c->bw + 1;
    c->group = c->plan->group;
    c->r1 = c->tall ? cols : rows;
    c->ldr = c->tall && c->vectors ? cols : rows;
}

/* In core: the plan's band. */
static void core_decide(svd_call *c)
{
    GL_FN(svd_band)(c, 0);
}

/* The tier that runs a call that asks for `tier`: the streamed plan of
 * the values, or of the vectors; the lean plan of the vectors; else (no
 * vectors in a lean plan, the host backend) in core. */
static const svd_tier *tier_of(const svd_call *c, gl_plan_tier tier)
{
    if (tier == GL_PLAN_IN_CORE || c->ops->host_memory)
        return &svd_in_core;
    if (tier == GL_PLAN_STREAMED)
        return c->vectors ? &GL_FN(svd_streamed_tier)
                          : &GL_FN(svd_streamed_values_tier);
    return c->vectors ? &GL_FN(svd_lean_tier) : &svd_in_core;
}

/* The call's layout, which A's values do not take part in: the tall QR,
 * where stage 3 leaves its vectors, how they are read; and the tier
 * that runs it. */
static void svd_decide_layout(svd_call *c, gl_plan_tier tier)
{
    const GL_FN(ops) *ops = c->ops;
    c->trans = c->m < c->n;
    c->rows = c->trans ? c->n : c->m, c->cols = c->trans ? c->m : c->n;
    lapack_int rows = c->rows, cols = c->cols;
    char jobl = c->trans ? c->job->jobvt : c->job->jobu;   /* X's left */
    char jobr = c->trans ? c->job->jobu : c->job->jobvt;   /* X's right */
    c->want_l = jobl != 'N', c->want_r = jobr != 'N';
    c->vectors = c->want_l || c->want_r;

    /* Much taller than wide: QR first, then the band of R (the crossover
     * of ?gesvd's MNTHR = 1.6 min(m,n)). */
    c->tall = rows >= cols + cols / 2 + cols / 10 && cols > 1;
    c->ucols = jobl == 'A' ? rows : cols;

    /* stage 3 by divide and conquer leaves U_B and VT_B on a device for
     * the back-transformation (?bdsqr's Givens rotations stay on the
     * host); from the device, a host image only for transposes the device
     * cannot do */
    c->on_device = c->vectors && ops->real_fill &&
                   c->job->stage3 != GL_SVD_BDSQR;
    int need_host = !c->on_device ||
                    (!ops->conj_transpose &&
                     ((c->want_l && c->trans) || (c->want_r && !c->trans)));
    c->host_image = !ops->host_memory && c->vectors && need_host;
    /* The output that overwrites A (JOBZ, JOBU or JOBVT 'O') is read
     * last.  Otherwise a device's left vectors are read beside the right
     * ones' back-transformation (ops->mark): both stay on the device, and
     * the read needs nothing the right side computes. */
    const void *a = c->a;
    c->left_last = (const void *)(c->trans ? c->vt : c->u) == a;
    c->beside = c->want_l && c->want_r && !ops->host_memory &&
                !c->host_image && !c->left_last;
    if (c->want_l && c->left_last) {
        c->over = c->trans ? c->vt : c->u;
        c->orows = c->trans ? c->ucols : rows;
        c->ocols = c->trans ? rows : c->ucols;
    } else if (c->want_r && (const void *)(c->trans ? c->u : c->vt) == a) {
        c->over = c->trans ? c->u : c->vt;
        c->orows = c->ocols = cols;
    }
    c->ldo = c->over == c->u ? c->ldu : c->ldvt;
    c->tier = tier_of(c, tier);
}

/* The call's decisions, before any memory: scaling, band, the tall QR,
 * where stage 3 leaves its vectors, how they are read.  0, or
 * GL_STAGE_NONFINITE. */
static int svd_shape(svd_call *c, gl_plan_tier tier)
{
    /* max |a_ij| (?lange 'M'); Inf/NaN stays with LAPACK. */
    c->anrm = GL_FN(max_abs)('A', c->m, c->n, c->a, c->lda, 0);
    if (!isfinite(c->anrm))
        return GL_STAGE_NONFINITE;
    const gl_real eps = c->f->lamch("P", 1);
    const gl_real smlnum = GL_R(sqrt)(c->f->lamch("S", 1)) / eps;
    const gl_real bignum = 1 / smlnum;
    if (c->anrm > 0 && c->anrm < smlnum)
        c->scaled_to = smlnum;
    else if (c->anrm > bignum)
        c->scaled_to = bignum;
    svd_decide_layout(c, tier);
    c->tier->decide(c);   /* the plan's band, tile and store */
    return 0;
}

/* The backend's arena (see svd_call): the offsets of its pieces, its
 * size in dev->bytes.  Nothing is freed before the end of the call; the
 * transposes of the reads share one scratch (they run one after the
 * other), and the vectors' pieces (lu, lv, adjoint), live only after
 * stage 3, share their bytes with the 4 n^2 reals of a device's divide
 * and conquer (kernels/stages/dc_svd.c), so that the peak is that of
 * allocating each when it is needed. */
typedef struct svd_layout {
    size_t w, band, tq, tqr, r, vq, vp, ubd, vbd, dc, lu, lv, adj;
} svd_layout;

static void svd_device_layout(const svd_call *c, gl_arena *dev, svd_layout *at)
{
    const GL_FN(ops) *ops = c->ops;
    size_t rows = (size_t)c->rows, cols = (size_t)c->cols;
    size_t cc = cols * cols, nbc = (size_t)c->nb * cols;
    size_t lsize = rows * (size_t)c->ucols, es = sizeof(gl_scalar);
    int own_vectors = !ops->host_memory, qr_kept = c->tall && c->vectors;
    at->w = gl_arena_take(dev, 1, rows * cols, es);
    at->band = gl_arena_take(dev, 1, (size_t)c->ldband * cols, es);
    at->tq = gl_arena_take(dev, c->vectors, 2 * nbc, es);
    at->tqr = gl_arena_take(dev, qr_kept, nbc, es);
    at->r = gl_arena_take(dev, qr_kept, cc, es);
    lapack_int ngroups;
    size_t slots = GL_FN(reflectors_slots)(c->cols, c->bw, c->group, &ngroups);
    size_t store = slots * ((size_t)c->bw + 1);
    at->vq = gl_arena_take(dev, c->vectors, store, es);
    at->vp = gl_arena_take(dev, c->vectors, store, es);
    at->ubd = gl_arena_take(dev, c->on_device, cc, sizeof(gl_real));
    at->vbd = gl_arena_take(dev, c->on_device, cc, sizeof(gl_real));
    size_t share = gl_arena_share_begin(dev), end = share;
    at->dc = gl_arena_take(dev, c->on_device, 4 * cc, sizeof(gl_real));
    gl_arena_share_next(dev, share, &end);
    at->lu = gl_arena_take(dev, c->want_l && own_vectors, lsize, es);
    at->lv = gl_arena_take(dev, c->want_r && own_vectors, cc, es);
    /* the transposes on the device: VT of A beside the right side's work
     * (beside, m < n), or one of the reads (read_adjoint) */
    int device_reads = own_vectors && !c->host_image;
    size_t adj = 0;
    if (c->want_l && c->trans && device_reads)
        adj = lsize;
    if (c->want_r && !c->trans && device_reads && cc > adj)
        adj = cc;
    at->adj = gl_arena_take(dev, adj > 0, adj, es);
    gl_arena_share_end(dev, end);
}

static void *svd_device_plan(svd_call *c, gl_arena *dev)
{
    svd_layout at;
    svd_device_layout(c, dev, &at);
    void *base = c->ops->alloc(c->ops, dev->bytes);
    if (!base)
        return NULL;
    size_t nbc = (size_t)c->nb * (size_t)c->cols;
    c->w = gl_arena_at(base, at.w), c->band = gl_arena_at(base, at.band);
    c->tq = gl_arena_at(base, at.tq);
    c->tp = c->tq ? c->tq + nbc : NULL;
    c->tqr = gl_arena_at(base, at.tqr);
    c->r = at.r != GL_ARENA_NONE ? gl_arena_at(base, at.r) : c->w;
    c->keep.vq = gl_arena_at(base, at.vq), c->keep.vp = gl_arena_at(base, at.vp);
    c->ubd = gl_arena_at(base, at.ubd), c->vbd = gl_arena_at(base, at.vbd);
    c->dc_scratch = gl_arena_at(base, at.dc);
    c->lu = gl_arena_at(base, at.lu), c->lv = gl_arena_at(base, at.lv);
    c->adjoint = gl_arena_at(base, at.adj);
    return base;
}

static size_t max_size(size_t x, size_t y) { return x > y ? x : y; }

/* The in-core plan's device bytes: its arena and the most that its
 * operations allocate beside it at once. */
static size_t core_device_bytes(const svd_call *c, size_t *largest)
{
    gl_arena dev = {0};
    svd_layout at;
    svd_device_layout(c, &dev, &at);
    *largest = dev.bytes;
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb;
    size_t most = GL_FN(ge2gb_device_bytes)(c->r1, cols, nb,
                                            c->plan->stage1_block);
    size_t left = 0, right = 0;
    if (c->want_l) {
        left =
            GL_FN(apply_chase_device_bytes)(cols, c->bw, c->group, c->ucols);
        size_t panels = GL_FN(apply_panels_device_bytes)(c->r1, cols, nb,
                                                         c->ucols);
        if (c->tall)
            panels =
                GL_FN(apply_panels_device_bytes)(rows, cols, nb, c->ucols);
        left = left > panels ? left : panels;
    }
    if (c->want_r) {
        right = GL_FN(apply_chase_device_bytes)(cols, c->bw, c->group, cols);
        size_t panels =
            cols > nb ? GL_FN(apply_panels_device_bytes)(cols - nb, cols - nb,
                                                         nb, cols)
                      : 0;
        right = right > panels ? right : panels;
    }
    most = max_size(most, left);
    most = max_size(most, right);
    return dev.bytes + most;
}

/* gl_s_svd_plan_make gl_d_svd_plan_make gl_c_svd_plan_make gl_z_svd_plan_make */
int GL_FN(svd_plan_make)(const gl_tuning *tuning, const gl_svd_job *job,
                         lapack_int m, lapack_int n, int u_over_a,
                         int vt_over_a, gl_call_plan *plan)
{
    /* the decisions of a call on a device of this tuning: the device's
     * table, A's place marked (the outputs over it) */
    static const gl_scalar mark;
    gl_ctx ctx = {.tuning = *tuning};
    GL_FN(ops) table = GL_FN(gpu_ops);
    table.ctx = &ctx;
    gl_scalar *a = (gl_scalar *)&mark;
    svd_call c = {.ops = &table, .plan = plan, .job = job, .m = m, .n = n,
                  .a = a, .u = u_over_a ? a : NULL,
                  .vt = vt_over_a ? a : NULL};
    svd_decide_layout(&c, plan->tier);
    /* a job that has no such tier (no vectors in a lean plan) */
    if (plan->tier != GL_PLAN_IN_CORE && c.tier == &svd_in_core)
        return 0;
    GL_FN(svd_shape)(tuning, &c, plan);
    c.tier->decide(&c);
    size_t largest = 0;
    plan->device_bytes = gl_plan_bytes(c.tier->device_bytes(&c, &largest));
    plan->largest = gl_plan_bytes(largest);
    return 1;
}

/* The host's arena: the band's diagonals and phases (4 n scalars), d, e,
 * U_B, VT_B (n^2 reals each unless on the device) and stage 3's work
 * (?bdsdc: 3 n^2 + 4 n reals; ?bdsqr: 4 n), iwork (8 n), the chase's
 * first and zeros, the kept part of A.  The host images of the vectors
 * (the host backend's lu and lv, a device's host image, the lean flow's
 * vectors of X as their blocks come back: staged) go over stage 3's
 * spent work: n^2 scalars each fewer to allocate and to take page faults
 * on (the first touch of fresh memory costs up to 2.5 s per GiB on a
 * virtual machine, docs/performance.md); the work grows to hold them
 * where they do not fit (the old code allocated them beside it: the peak
 * is the larger of the two, no more).  The kept part is optional: without
 * room for it, the output over A is written from one complete read.
 * 0 or GL_STAGE_FAULT. */
/* gl_s_svd_host_plan gl_d_svd_host_plan gl_c_svd_host_plan gl_z_svd_host_plan */
int GL_FN(svd_host_plan)(svd_call *c, int staged)
{
    gl_arena arena = {0}, *host = &arena;
    const GL_FN(ops) *ops = c->ops;
    size_t cols = (size_t)c->cols, cc = cols * cols, es = sizeof(gl_scalar);
    size_t lsize = (size_t)c->rows * (size_t)c->ucols;
    size_t vcc = c->vectors && !c->on_device ? cc : 0;
    size_t at_de = gl_arena_take(host, 1, 4 * cols, es);
    /* d, e, U_B, VT_B, work: contiguous, as LAPACK's callers lay them */
    size_t at_d = gl_arena_take(host, 1, 2 * cols + 2 * vcc, sizeof(gl_real));
    size_t at_work = host->bytes;
    host->bytes += (4 * cols + 3 * vcc) * sizeof(gl_real);
    gl_arena images = {at_work};
    int host_vectors = ops->host_memory;
    size_t at_lu = gl_arena_take(&images, host_vectors && c->want_l, lsize, es);
    size_t at_lv = gl_arena_take(&images, host_vectors && c->want_r, cc, es);
    size_t at_img = gl_arena_take(&images, c->host_image,
                                  lsize > cc ? lsize : cc, es);
    /* the lean flow's vectors of X, as their blocks come back */
    size_t at_ls = gl_arena_take(&images, staged && c->want_l, lsize, es);
    size_t at_rs = gl_arena_take(&images, staged && c->want_r, cc, es);
    gl_arena_share_end(host, images.bytes);
    size_t at_iwork = gl_arena_take(host, 1, 8 * cols, sizeof(lapack_int));
    lapack_int ngroups;
    size_t slots = GL_FN(reflectors_slots)(c->cols, c->bw, c->group, &ngroups);
    size_t at_first = gl_arena_take(host, c->vectors, (size_t)ngroups + 1,
                                    sizeof(lapack_int));
    size_t at_zeros = gl_arena_take(host, c->vectors, slots, es);
    size_t without_kept = host->bytes;
    size_t at_kept = gl_arena_take(host, c->over && !ops->host_memory &&
                                             !c->host_image && !staged,
                                   (size_t)c->orows * (size_t)c->ocols, es);

    void *base = gl_host_alloc(host->bytes);
    if (!base && at_kept != GL_ARENA_NONE) {
        base = gl_host_alloc(without_kept);
        at_kept = GL_ARENA_NONE;
    }
    if (!base)
        return GL_STAGE_FAULT;
    c->host_arena = base;
    c->de = gl_arena_at(base, at_de);
    c->left = c->de + 2 * cols, c->right = c->left + cols;
    c->d = gl_arena_at(base, at_d);
    c->ee = c->d + cols, c->ub = c->ee + cols, c->vb = c->ub + vcc;
    c->work = c->vb + vcc;
    if (host_vectors)
        c->lu = gl_arena_at(base, at_lu), c->lv = gl_arena_at(base, at_lv);
    c->host = gl_arena_at(base, at_img);
    c->lstage = gl_arena_at(base, at_ls), c->rstage = gl_arena_at(base, at_rs);
    c->iwork = gl_arena_at(base, at_iwork);
    c->first = gl_arena_at(base, at_first);
    c->zeros = gl_arena_at(base, at_zeros);
    c->kept = gl_arena_at(base, at_kept);
    return 0;
}

/* In core: the device's arena, then the host's. */
static int core_plan(svd_call *c)
{
    gl_arena dev = {0};
    c->device_arena = svd_device_plan(c, &dev);
    if (!c->device_arena)
        return GL_STAGE_FAULT;
    return GL_FN(svd_host_plan)(c, 0);
}

/* Plan: the decisions, then the tier's memory.  0, GL_STAGE_NONFINITE, or
 * GL_STAGE_FAULT when memory is refused. */
static int svd_plan(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    int rc = svd_shape(c, ops->host_memory ? GL_PLAN_IN_CORE : c->plan->tier);
    return rc ? rc : c->tier->plan(c);
}

/* The two arenas, whatever step failed. */
/* gl_s_svd_free gl_d_svd_free gl_c_svd_free gl_z_svd_free */
void GL_FN(svd_free)(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    ops->release(ops, c->device_arena);
    gl_host_free(c->host_arena);
}

/* Reduce: X (scaled) to the band (stage 1), the band to bidiagonal
 * (stage 2), keeping what the vectors need. */
static int svd_reduce(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb;
    ops->from_host(ops, c->trans ? 'C' : 'N', c->m, c->n, c->a, c->lda, c->w,
                   rows);
    if (c->scaled_to != 0 &&
        ops->lascl(ops, c->anrm, c->scaled_to, rows, cols, c->w, rows))
        return GL_STAGE_FAULT;
    c->t[0] = gl_profile_stage(ops->ctx, "stage1");
    if (c->tall && !c->vectors) {
        if (ops->geqrf(ops, rows, cols, c->w, rows))
            return GL_STAGE_FAULT;
        ops->zero_lower(ops, cols, cols, c->w, rows);
    } else if (c->tall) {
        /* keep the QR's reflectors in w and reduce a copy of R */
        if (GL_FN(svd_qr_panels)(ops, rows, cols, nb, c->w, rows, c->tqr))
            return GL_STAGE_FAULT;
        ops->copy(ops, cols, cols, c->w, rows, c->r, cols);
        ops->zero_lower(ops, cols, cols, c->r, cols);
    }
    if (GL_FN(ge2gb)(ops, c->r1, cols, nb, c->plan->stage1_block,
                     c->plan->stage1_tile, c->r, c->ldr, c->tq, c->tp))
        return GL_STAGE_FAULT;
    c->t[1] = gl_profile_stage(ops->ctx, "stage2");
    ops->pack_band(ops, 'G', cols, c->bw, c->r, c->ldr, c->band, c->ldband);
    if (!c->vectors)
        return GL_FN(gb2bd)(ops, cols, c->bw, c->plan->tile_width, c->band,
                            c->ldband)
                   ? GL_STAGE_FAULT
                   : 0;
    /* one pass straight to bidiagonal: every further pass would add a
     * back-transformation as costly as this one */
    GL_FN(reflectors_place)(ops, &c->keep, cols, c->bw, c->group, c->keep.vq,
                            c->keep.vp, c->first, c->zeros);
    if (c->bw > 1 &&
        ops->gb_chase(ops, cols, c->bw, 1, cols, c->band, c->ldband, &c->keep))
        return GL_STAGE_FAULT;
    return 0;
}

/* Stage 3 from d and e on the host: the bidiagonal's values and, with
 * vectors, U_B and VT_B (on the device, or on the host in ub and vb), the
 * merges of the divide and conquer multiplied by `products`. */
/* gl_s_svd_stage3_de gl_d_svd_stage3_de gl_c_svd_stage3_de gl_z_svd_stage3_de */
int GL_FN(svd_stage3_de)(svd_call *c, const GL_FN(ops) *products)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int cols = c->cols;
    int restart = c->job->stage3 == GL_SVD_BDSDC_RESTART;
    if (c->vectors)
        GL_FN(bidiagonal_phases)(cols, c->de, c->de + cols, c->left,
                                 c->right);
    /* values on a device: all n at once by bisection (a failed device
     * restarts the call on LAPACK, as everywhere) */
    if (!c->vectors && ops->bidiag_values)
        return ops->bidiag_values(ops, cols, c->d, c->ee, c->d) != 0
                   ? GL_STAGE_FAULT
                   : 0;
    if (c->on_device)
        return GL_FN(bidiag_svd_device)(ops, cols, c->d, c->ee, c->ubd, cols,
                                        c->vbd, cols, c->dc_scratch,
                                        &c->info) ||
                       (c->info != 0 && restart)
                   ? GL_STAGE_FAULT
                   : 0;
    if (c->vectors && c->job->stage3 != GL_SVD_BDSQR)
        return GL_FN(bidiag_svd)(products, cols, c->d, c->ee, c->ub, cols,
                                 c->vb, cols, c->work, c->iwork,
                                 &c->info) ||
                       (c->info != 0 && restart)
                   ? GL_STAGE_FAULT
                   : 0;
    /* ?bdsqr updates U_B and VT_B from the identity: the Givens rotations
     * touch n x n, the back-transformation is BLAS3 */
    lapack_int nru = c->want_l ? cols : 0, ncvt = c->want_r ? cols : 0;
    lapack_int zero = 0, one = 1;
    size_t cc = (size_t)cols * (size_t)cols;
    for (size_t i = 0; c->vectors && i < 2 * cc; i++)
        c->ub[i] = 0;
    for (lapack_int i = 0; c->vectors && i < cols; i++)
        c->ub[i + (size_t)i * cols] = c->vb[i + (size_t)i * cols] = 1;
    c->f->bdsqr("U", &cols, &ncvt, &nru, &zero, c->d, c->ee, c->vb, &cols,
                c->ub, &cols, NULL, &one, c->work, &c->info, 1);
    return 0;
}

/* Stage 3 in core: d and e from the chased band on the device first. */
static int core_stage3(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    c->t[2] = gl_profile_stage(ops->ctx, "stage3");
    if (GL_FN(band_to_de)(ops, 'G', c->cols, c->bw, c->band, c->ldband, c->de,
                          c->d, c->ee))
        return GL_STAGE_FAULT;
    return GL_FN(svd_stage3_de)(c, ops);
}

/* The back-transformations as jobs the devices of a set share
 * (kernels/tiers/peers.c).  in[]: the arrays the side's reflectors are made
 * of, this device's or a peer's copies: the chase's store (vq or vp, then
 * its scalars), stage 1's matrix of reflectors (r, ld ldr), its T factors
 * (tq or tp), and for the left side of a tall X the QR's (w, tqr). */
static int left_apply(const GL_FN(ops) *ops, const GL_FN(peer_job) *job,
                      gl_scalar *const *in, lapack_int m, gl_scalar *e)
{
    const svd_call *c = job->data;
    lapack_int rows = c->rows, cols = c->cols;
    GL_FN(reflectors) keep = c->keep;
    keep.vq = in[0];
    keep.tauq = in[0] ? in[0] + (c->keep.tauq - c->keep.vq) : NULL;
    return GL_FN(apply_chase)(ops, &keep, 'Q', 'N', m, e, rows) ||
                   GL_FN(apply_panels)(ops, 'C', 'N', c->r1, cols, c->nb,
                                       in[1], c->ldr, in[2], m, e, rows) ||
                   (c->tall &&
                    GL_FN(apply_panels)(ops, 'C', 'N', rows, cols, c->nb, in[3],
                                        rows, in[4], m, e, rows))
               ? -1
               : 0;
}

static int right_apply(const GL_FN(ops) *ops, const GL_FN(peer_job) *job,
                       gl_scalar *const *in, lapack_int m, gl_scalar *e)
{
    const svd_call *c = job->data;
    lapack_int cols = c->cols, nb = c->nb;
    GL_FN(reflectors) keep = c->keep;
    keep.vp = in[0];
    keep.taup = in[0] ? in[0] + (c->keep.taup - c->keep.vp) : NULL;
    return GL_FN(apply_chase)(ops, &keep, 'P', 'N', m, e, cols) ||
                   (cols > nb &&
                    GL_FN(apply_panels)(ops, 'R', 'N', cols - nb, cols - nb,
                                        nb, AT(in[1], c->ldr, 0, nb), c->ldr,
                                        in[2], m, e + nb, cols))
               ? -1
               : 0;
}

/* E (the side's vectors, m columns) := the side's reflectors E, the last
 * columns on the other devices of the call's set, gathered back here. */
static int apply_shared(const GL_FN(ops) *ops, const svd_call *c, char side,
                        lapack_int m, gl_scalar *e)
{
    int left = side == 'L';
    lapack_int ngroups;
    size_t store = GL_FN(reflectors_slots)(c->cols, c->bw, c->group,
                                           &ngroups) *
                   ((size_t)c->bw + 1);
    size_t nbc = (size_t)c->nb * (size_t)c->cols;
    size_t rc_scalars = (size_t)c->ldr * (size_t)c->cols;
    GL_FN(peer_job) job = {
        .rows = left ? c->rows : c->cols,
        .in = {left ? c->keep.vq : c->keep.vp, c->r, left ? c->tq : c->tp,
               left && c->tall ? c->w : NULL,
               left && c->tall ? c->tqr : NULL},
        .scalars = {c->keep.ngroups > 0 ? store : 0, rc_scalars, nbc,
                    (size_t)c->rows * (size_t)c->cols, nbc},
        .apply = left ? left_apply : right_apply,
        .data = c};
    if (c->keep.ngroups == 0)
        job.in[0] = NULL;
    GL_FN(peer_share) shares[GL_MAX_DEVICE_SET - 1];
    int count = GL_FN(peers_start)(ops, &job, m, e, shares);
    lapack_int m0 = count > 0 ? shares[0].col : m;
    gl_scalar *mine[GL_PEER_INPUTS];
    for (int k = 0; k < GL_PEER_INPUTS; k++)
        mine[k] = (gl_scalar *)job.in[k];
    int rc = count < 0 || job.apply(ops, &job, mine, m0, e) ||
             GL_FN(peers_gather)(ops, shares, count, job.rows, e);
    if (count > 0)
        GL_FN(peers_free)(shares, count);
    return rc ? -1 : 0;
}

/* X's left vectors into lu: Q_qr Q1 Q2 diag(left) [U_B 0; 0 I]; beside
 * the right side's work, VT of A transposed on the device (m < n) and the
 * point its read waits for marked. */
static int svd_left_vectors(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols, ucols = c->ucols;
    gl_scalar *lhost = c->host ? c->host : c->lu;
    if (c->on_device) {
        if (ops->phase_rows(ops, cols, cols, 0, c->left, c->ubd, cols, rows,
                            ucols, c->lu, rows))
            return GL_STAGE_FAULT;
    } else {
        memset(lhost, 0, sizeof *lhost * (size_t)rows * ucols);
        GL_FN(scale_rows)(cols, cols, c->left, c->ub, cols, 0, lhost, rows);
        for (lapack_int i = cols; i < ucols; i++)
            lhost[i + (size_t)i * rows] = 1;
        if (c->host)
            ops->from_host(ops, 'N', rows, ucols, c->host, rows, c->lu, rows);
    }
    if (apply_shared(ops, c, 'L', ucols, c->lu))
        return GL_STAGE_FAULT;
    if (c->beside && c->trans &&
        ops->conj_transpose(ops, rows, ucols, c->lu, rows, c->adjoint, ucols))
        return GL_STAGE_FAULT;
    if (c->beside)
        ops->mark(ops);
    return 0;
}

/* X's right vectors into lv: P1 P2 diag(right) VT_B^T. */
static int svd_right_vectors(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int cols = c->cols;
    if (c->on_device) {
        if (ops->phase_rows(ops, cols, cols, 1, c->right, c->vbd, cols, cols,
                            cols, c->lv, cols))
            return GL_STAGE_FAULT;
    } else {
        GL_FN(scale_rows)(cols, cols, c->right, c->vb, cols, 1,
                          c->host ? c->host : c->lv, cols);
        if (c->host)
            ops->from_host(ops, 'N', cols, cols, c->host, cols, c->lv, cols);
    }
    if (apply_shared(ops, c, 'R', cols, c->lv))
        return GL_STAGE_FAULT;
    return 0;
}

/* Vectors: the back-transformation of U_B and VT_B through both stages. */
static int svd_vectors(svd_call *c)
{
    c->t[3] = gl_profile_stage(c->ops->ctx, "back");
    if ((c->want_l && svd_left_vectors(c)) ||
        (c->want_r && svd_right_vectors(c)))
        return GL_STAGE_FAULT;
    c->t[4] = gl_profile_stage(c->ops->ctx, "out");
    return 0;
}

/* The caller's U and VT.  A failed read may leave U or VT half written:
 * the restart on LAPACK writes them again from A, which is intact, so
 * they are read without a host bounce array.  An output that overwrites A
 * is read last, so that whatever fails before it leaves A as the caller
 * gave it; on a device, the part of A it overwrites (over: orows x ocols)
 * is kept first, while the device still runs the back-transformation the
 * host has issued, the read goes straight into A in column blocks, and a
 * failed block puts the part back.  Without that copy (no memory), it is
 * written only from a complete read (to_host). */
static int svd_read_vectors(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols, ucols = c->ucols;
    if (c->beside && (c->trans ? ops->to_host_scratch_marked(
                                     ops, ucols, rows, c->adjoint, ucols,
                                     c->vt, c->ldvt)
                               : ops->to_host_scratch_marked(
                                     ops, rows, ucols, c->lu, rows, c->u,
                                     c->ldu)))
        return GL_STAGE_FAULT;
    for (lapack_int j = 0; c->kept && j < c->ocols; j++)
        memcpy(c->kept + (size_t)j * c->orows, c->over + (size_t)j * c->ldo,
               sizeof *c->kept * (size_t)c->orows);
    int over_a = c->kept ? READ_BLOCKS : READ_WHOLE;
    const void *a = c->a;
    int how_u = (const void *)c->u == a ? over_a : READ_DIRECT,
        how_vt = (const void *)c->vt == a ? over_a : READ_DIRECT;
    int failed = 0;
    for (int pass = 0; pass < 2 && !failed; pass++) {
        int left = (pass == 0) != c->left_last;
        if (left && c->beside)
            continue;   /* read above */
        if (left && c->want_l && !c->trans) {
            failed = read_out(ops, how_u, rows, ucols, c->lu, rows, c->u,
                              c->ldu);
        } else if (left && c->want_l) {   /* VT of A = (X's left)^H */
            failed = read_adjoint(ops, how_vt, c->host, c->adjoint, rows,
                                  ucols, c->lu, c->vt, c->ldvt);
        } else if (!left && c->want_r && !c->trans) {
            failed = read_adjoint(ops, how_vt, c->host, c->adjoint, cols,
                                  cols, c->lv, c->vt, c->ldvt);
        } else if (!left && c->want_r) {   /* U of A = X's right vectors */
            failed = read_out(ops, how_u, cols, cols, c->lv, cols, c->u,
                              c->ldu);
        }
    }
    if (!failed)
        return 0;
    for (lapack_int j = 0; c->kept && j < c->ocols; j++)
        memcpy(c->over + (size_t)j * c->ldo, c->kept + (size_t)j * c->orows,
               sizeof *c->kept * (size_t)c->orows);
    return GL_STAGE_FAULT;
}

/* In core: the vectors read into the caller's arrays. */
static int core_read(svd_call *c)
{
    return c->vectors && svd_read_vectors(c) ? GL_STAGE_FAULT : 0;
}

/* Read: the vectors, then the values unscaled (also the unconverged
 * superdiagonal on failure) and the stage times.  Stage 3's INFO. */
static int svd_read(svd_call *c, gl_real *s, gl_real *e,
                    gl_stage_times *times)
{
    if (c->tier->read(c))
        return GL_STAGE_FAULT;
    lapack_int cols = c->cols, zero = 0, one = 1;
    if (c->scaled_to != 0) {
        lapack_int ierr, ld = cols;
        c->f->rlascl("G", &zero, &zero, &c->scaled_to, &c->anrm, &cols, &one,
                     c->d, &ld, &ierr, 1);
        if (c->info != 0 && cols > 1) {
            lapack_int ne = cols - 1;
            c->f->rlascl("G", &zero, &zero, &c->scaled_to, &c->anrm, &ne,
                         &one, c->ee, &ld, &ierr, 1);
        }
    }
    for (lapack_int i = 0; i < cols; i++)
        s[i] = c->d[i];
    if (c->info != 0 && e)
        for (lapack_int i = 0; i + 1 < cols; i++)
            e[i] = c->ee[i];
    const double *t = c->t;
    if (times)
        *times = (gl_stage_times){t[1] - t[0], t[2] - t[1], t[3] - t[2],
                                  t[4] - t[3]};
    return (int)c->info;
}

/* In core: the device's arena and the host's, the steps above. */
static const svd_tier svd_in_core = {
    .decide = core_decide,
    .device_bytes = core_device_bytes,
    .plan = core_plan,
    .reduce = svd_reduce,
    .stage3 = core_stage3,
    .vectors = svd_vectors,
    .read = core_read,
    .free = GL_FN(svd_free),
};

/* The pipeline in steps: plan (the decisions, the tier with them), then
 * the tier's reduce, stage 3, vectors and read; every step returns 0 or
 * what the call returns, and the tier's free releases the call's memory
 * whichever step stopped it (the tier is in core until the plan has
 * decided). */
/* gl_s_svd gl_d_svd gl_c_svd gl_z_svd */
int GL_FN(svd)(const GL_FN(ops) *ops, const gl_call_plan *plan,
               const gl_svd_job *job, lapack_int m, lapack_int n,
               const gl_scalar *a, lapack_int lda, gl_real *s, gl_scalar *u,
               lapack_int ldu, gl_scalar *vt, lapack_int ldvt, gl_real *e,
               gl_stage_times *times)
{
    if (m == 0 || n == 0)
        return 0;
    svd_call c = {.ops = ops, .plan = plan, .f = GL_FN(lapack_fns_get)(),
                  .job = job, .a = a, .m = m, .n = n, .lda = lda, .u = u,
                  .ldu = ldu, .vt = vt, .ldvt = ldvt, .tier = &svd_in_core};
    int rc = svd_plan(&c);
    if (rc == 0)
        rc = c.tier->reduce(&c);
    if (rc == 0)
        rc = c.tier->stage3(&c);
    if (rc == 0)
        rc = c.tier->vectors(&c);
    if (rc == 0)
        rc = svd_read(&c, s, e, times);
    c.tier->free(&c);
    return rc;
}
