/* The singular value decomposition by the two-stage reduction: dense ->
 * band (ge2gb), band -> bidiagonal (bulge chasing), bidiagonal -> values
 * and vectors (the system ?bdsqr or ?bdsdc), then the vectors of the
 * bidiagonal back through the two stages.  The scaling and the tall-matrix
 * QR follow ?gesvd/?gesdd.  The values of a matrix larger than the device
 * take the streamed plan: stages 1 and 2 by ge2gb_streamed.c from a copy
 * in host memory, then stage 3 as here.  The vectors of a matrix that
 * fits the device where the in-core plan (about 8 n^2) does not take the
 * lean plan (svd_reduce_lean, svd_lean_vectors): stage 1 in core, its
 * panels parked in host memory, the chase's two stores on the device,
 * stage 3 on the host, and the vectors made in blocks of columns with the
 * panels streamed past each block, as the Hermitian lean plan
 * (sy2sb_streamed.c) makes its Z.  The streamed plan of the vectors is
 * that flow after a streamed stage 1 (ge_band_streamed), which keeps the
 * panels in host memory as it goes. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/log.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../../runtime/tune.h"
#include "../arena.h"
#include "../householder.h"
#include "../backend/lapack_fns.h"
#include "../tiers/streamed.h"
#include "../tiers/peers.h"
#include "pipelines.h"
#include "../backend/gpu_ops.h"

#define AT(p, ld, i, j) ((p) + (size_t)(i) + (size_t)(j) * (size_t)(ld))

/* Blocked QR of A (m x n) with the T of each panel of nb columns kept at
 * column k of t (ld nb): A = Q R, R in the upper triangle. */
static int qr_panels(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                     lapack_int nb, gl_scalar *a, lapack_int lda, gl_scalar *t)
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

/* One call of the pipeline: the caller's arguments, what the plan decided,
 * the pieces of the two arenas (everything the call allocates) and what
 * one step hands to the next.  svd_free releases it, whatever step
 * failed. */
typedef struct svd_call {
    const GL_FN(ops) *ops;
    const GL_FN(lapack_fns) *f;
    const gl_svd_job *job;
    const gl_scalar *a;
    lapack_int m, n, lda, ldu, ldvt;
    gl_scalar *u, *vt;
    /* Work on X = A (m >= n) or A^H (m < n), rows x cols: same singular
     * values, and the left vectors of one are the right vectors of the
     * other. */
    int trans, want_l, want_r, vectors;
    int streamed;              /* the streamed plan: no device arena */
    int lean;                  /* the lean plan: no device arena (below) */
    int stream1;               /* the streamed plan of the vectors: the
                                  lean plan's flow after stage 1 streamed */
    lapack_int tile;           /* the lean plan's block of vectors' columns */
    lapack_int rows, cols;
    gl_real anrm, scaled_to;   /* scaled_to 0: A is not scaled */
    lapack_int bw, nb, ldband, group;   /* band half-width, panel width */
    int tall;                  /* QR first, then the band of R */
    lapack_int r1, ldr, ucols; /* rows ge2gb sees, ld of its matrix, U's cols */
    int on_device;             /* stage 3 leaves U_B, VT_B on the device */
    int host_image;            /* the vectors pass through a host image */
    int left_last, beside;     /* the order of the reads (svd_shape) */
    gl_scalar *over;           /* the output over A (NULL: none) ... */
    lapack_int orows, ocols, ldo;   /* ... its part that a read overwrites */

    void *device_arena, *host_arena;
    /* backend memory: X, the band, the stage-1 T factors (tp = tq + nb
     * cols), the tall QR's T and R (r = w without one), the chase's store,
     * U_B and VT_B on the device, the vectors of X, and the scratch of the
     * transposes of the reads */
    gl_scalar *w, *band, *tq, *tp, *tqr, *r, *lu, *lv, *adjoint;
    gl_real *ubd, *vbd;
    gl_real *dc_scratch;     /* stage 3's on the device: 4 n^2 reals */
    GL_FN(reflectors) keep;
    /* host memory: the band's diagonals and phases (left, right), d, e,
     * U_B, VT_B and stage 3's work (the host images over it), the kept
     * part of A */
    gl_scalar *de, *left, *right, *host, *kept, *zeros;
    gl_real *d, *ee, *ub, *vb, *work;
    lapack_int *iwork, *first;
    /* the lean plan's own memory: on the device stage 1's X with its T
     * factors, the band, and the block of vectors (the chase's store is
     * keep's, from reflectors_alloc); in host memory X's panels (ld rows)
     * with their T's, and in the host arena over stage 3's spent work
     * the vectors of X as their blocks come back (lstage: rows x ucols,
     * rstage: cols x cols), read into the caller's arrays only when every
     * block succeeded */
    gl_scalar *lean_x, *lean_band, *lean_block;
    void *lean_host;
    size_t lean_host_bytes;
    gl_scalar *hx, *htq, *htp, *lstage, *rstage;
    gl_scalar *hband;          /* the streamed stage 1's band (host) */
    gl_scalar *hqr, *htqr;     /* a tall X's QR: its reflectors and R
                                  (rows x cols) and T's (host) */
    /* The streamed plan's chase in segments of `seg` sweeps (park), each
     * segment's two stores parked in host memory as soon as it is chased
     * (hq and hp, segment i's scalars from seg_at[i]); each block takes
     * them back one side and one segment at a time (into seg_dev, with
     * seg_first), the last segment first. */
    int park;
    lapack_int seg, nseg;
    size_t *seg_at;
    gl_scalar *hq, *hp, *seg_dev;
    lapack_int *seg_first;

    lapack_int info;           /* stage 3's */
    double t[5];               /* profile marks: stage1 .. out */
} svd_call;

static size_t svd_lean_bytes(const svd_call *c, size_t *largest);

/* The parked chase in segments of sweeps (whole groups): c->seg, and
 * c->nseg of them (c->park). */
static void park_in(svd_call *c, lapack_int sweeps)
{
    c->seg = sweeps;
    c->nseg = c->park ? (c->cols - 2 + sweeps - 1) / sweeps : 0;
}

/* Whether the plan as decided fits the device's budget (tuning's): its
 * high-water mark and its largest allocation. */
static int plan_fits(const svd_call *c, size_t budget)
{
    unsigned long long most = c->ops->ctx->tuning.device_max_alloc;
    size_t largest, bytes = svd_lean_bytes(c, &largest);
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

/* The streamed plan's chase: its two stores kept on the device where
 * that plan fits the budget the policy fitted it against
 * (gl_tuning.device_budget), as the lean plan keeps them (no store
 * crosses the bus); else parked in segments of the most whole groups of
 * sweeps whose plan fits (fewer segments: fewer launches past each block
 * and the same bytes), at least one group.  GPULAPACK_OOC_SEGMENT forces
 * its segments; a budget not known parks a group per segment. */
static void svd_segment(svd_call *c)
{
    lapack_int group = c->group, forced = gl_tune_ooc_segment(group);
    size_t budget = c->ops->ctx->tuning.device_budget;
    park_in(c, forced > 0 ? forced : group);
    if (!c->park || forced > 0 || budget == 0)
        return;
    c->park = 0;
    if (plan_fits(c, budget))
        return;
    c->park = 1;   /* the plan grows with the segments' stores */
    segment_fit f = {c, budget};
    park_in(c, gl_most_that_fit((c->cols - 2 + group - 1) / group,
                                segments_fit, &f) *
                   group);
}

/* The call's decisions that A's values do not take part in: band, the
 * tall QR, where stage 3 leaves its vectors, how they are read. */
static void svd_decide(svd_call *c)
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
    /* The lean plan: a tall X's QR first in core, its reflectors parked
     * too (lean_qr) and streamed past the left blocks after R's panels.
     * An output over A (JOBZ, JOBU or JOBVT 'O') is written last from the
     * host's blocks, after every block succeeded (svd_lean_read: nothing
     * there can fail, and A, read once at the start, is not read again).
     * Stage 3 is the host's: U_B and VT_B go to the device block by
     * block.  The streamed plan of the vectors is the lean plan's flow
     * after its own stage 1 (svd_reduce_lean), which reduces a tall X
     * whole, as the values' streamed plan does (the passes hold no matrix
     * on the device: no QR first), with the out-of-core band. */
    c->lean = c->lean && c->vectors && !ops->host_memory;
    c->stream1 = c->stream1 && c->lean;
    if (c->stream1)
        c->tall = 0;
    lapack_int b = c->stream1
                       ? gl_tune_ooc_band(cols)
                       : gl_tune_band(&ops->ctx->tuning, 'G', GL_COMPLEX,
                                      cols, c->vectors);
    c->bw = b < cols - 1 ? b : cols - 1;
    if (c->stream1)   /* ge_band_streamed's b: 1 .. cols - 1, else 1 */
        c->bw = c->bw > 1 ? c->bw : 1;
    c->nb = c->bw > 0 ? c->bw : 1;
    c->ldband = 3 * c->bw + 1;
    c->group = gl_tune_group(&ops->ctx->tuning, c->bw);
    c->r1 = c->tall ? cols : rows;
    c->ldr = c->tall && c->vectors ? cols : rows;
    if (c->lean) {
        c->on_device = c->host_image = c->beside = 0;
        c->tile = gl_tune_ooc_tile(cols, c->nb);
    }
    /* the streamed plan takes stage 1's panels in groups bounded by the
     * block (stage1_panels), and keeps the chase's two stores on the
     * device where they fit beside the rest, else parks them segment by
     * segment (svd_segment): O(n b + tile n) of the device */
    c->park = c->stream1 && c->bw > 1 && cols > 2;
    svd_segment(c);
}

/* The call's decisions, before any memory: scaling, band, the tall QR,
 * where stage 3 leaves its vectors, how they are read.  0, or
 * GL_STAGE_NONFINITE. */
static int svd_shape(svd_call *c)
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
    svd_decide(c);
    return 0;
}


/* The backend's arena (see svd_call): the offsets of its pieces, its
 * size in dev->bytes.  Nothing is freed before the end of the call; the
 * transposes of the reads share one scratch (they run one after the
 * other), and the vectors' pieces (lu, lv, adjoint), live only after
 * stage 3, share their bytes with the 4 n^2 reals of a device's divide
 * and conquer (kernels/stages/dc_svd.c), so that the peak is that of allocating
 * each when it is needed. */
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

/* The lean plan's device memory, each piece allocated and released on its
 * own: stage 1's X with its T factors (released once they are in host
 * memory), the band (released after the chase), the chase's two stores
 * (reflectors_alloc, kept to the end) and one block of the vectors'
 * columns, as tall as X's left vectors where there are any. */
static size_t lean_x_scalars(const svd_call *c)
{
    size_t cols = (size_t)c->cols;
    return (size_t)c->r1 * cols + 2 * (size_t)c->nb * cols;
}

/* A tall X's QR in core (lean_qr): X and the QR's T factors, then the
 * most that a panel's factorization or its update of the columns right
 * of it holds (bytes). */
static size_t lean_qr_bytes(const svd_call *c)
{
    const gl_tuning *tuning = &c->ops->ctx->tuning;
    const size_t es = sizeof(gl_scalar);
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb;
    size_t most = 0;
    for (lapack_int k = 0; k < cols; k += nb) {
        lapack_int pk = cols - k < nb ? cols - k : nb, rest = cols - k - pk;
        size_t panel = GL_FN(gpu_panel_bytes)(tuning, 1, rows - k, pk);
        size_t update =
            rest > 0 ? es * GL_LARFB_SCRATCH(rows - k, rest, pk) : 0;
        most = max_size(most, max_size(panel, update));
    }
    return es * ((size_t)rows * (size_t)cols + (size_t)nb * (size_t)cols) +
           most;
}

static size_t lean_block_scalars(const svd_call *c)
{
    return (size_t)(c->want_l ? c->rows : c->cols) * (size_t)c->tile;
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


/* The lean plan's high-water mark: the largest of its phases, each what
 * is allocated at once (X is transposed on the host, so stage 1 holds no
 * second copy of it):
 *  - stage 1: X with its T factors, the band, ge2gb's work and scratch
 *    (the streamed plan's: the passes' arena and the panels' scratch);
 *  - the chase: the band, the two stores, the device chase's group
 *    starts (ints) (parked: a segment's);
 *  - the blocks: the two stores (parked: one side's of two segments,
 *    the next going up while the device applies this one's), the
 *    block, and the most that apply_chase or apply_host_panels allocates
 *    for one block of either side.
 * largest: the largest of the single allocations (or of the sums that
 * hold them). */
static size_t svd_lean_bytes(const svd_call *c, size_t *largest)
{
    const gl_tuning *tuning = &c->ops->ctx->tuning;
    const size_t es = sizeof(gl_scalar);
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb, bw = c->bw;
    size_t x = lean_x_scalars(c) * es, block = lean_block_scalars(c) * es;
    size_t band = (size_t)c->ldband * (size_t)cols * es;
    size_t work = GL_FN(ge2gb_device_bytes)(
        c->r1, cols, nb, gl_tune_stage1_block(tuning, cols, nb));
    lapack_int ngroups;
    size_t store = GL_FN(reflectors_slots)(cols, bw, c->group, &ngroups) *
                   ((size_t)bw + 1) * es;
    size_t apply =
        GL_FN(apply_chase_device_bytes)(cols, bw, c->group, c->tile);
    size_t stores = 2 * store;   /* held by the blocks */
    size_t store_alloc = store;  /* the largest allocation of them */
    if (c->park) {   /* segment 0's, the largest: both in the chase */
        store = seg_scalars(c, 0, &ngroups) * es;
        lapack_int s0, sweeps = seg_sweeps(c, 0, &s0);
        apply = GL_FN(apply_segment_device_bytes)(cols, bw, c->group, sweeps,
                                                  c->tile);
        /* one side's at a time past the blocks, in one allocation */
        stores = store_alloc = GL_PARKED_BUFFERS * store;
    }
    size_t starts = bw > 1 ? (size_t)(ngroups + 1) * sizeof(int) : 0;
    /* R's panels, and a tall X's QR's after them (the streamed plan's in
     * groups bounded by the block, apply_block_panels) */
    size_t (*panels)(lapack_int, lapack_int, lapack_int, lapack_int) =
        c->stream1 ? GL_FN(apply_block_panels_device_bytes)
                   : GL_FN(apply_host_panels_device_bytes);
    if (c->want_l)
        apply = max_size(apply, panels(rows, cols, nb, c->tile));
    if (c->want_r && cols > nb)
        apply = max_size(apply, panels(cols - nb, cols - nb, nb, c->tile));
    size_t stage1 = x + band + work, chase = band + 2 * store + starts;
    if (c->stream1) {   /* the passes' arena with the panels' scratch */
        stage1 = GL_FN(ge_streamed_stage1_bytes)(tuning, rows, cols, nb,
                                                 c->tile);
        x = work = stage1;
    }
    if (c->tall) {   /* the QR first, alone */
        stage1 = max_size(stage1, lean_qr_bytes(c));
        x = max_size(x, lean_qr_bytes(c));
    }
    *largest = max_size(max_size(x, work), max_size(max_size(store, store_alloc),
                                                      block + apply));
    return max_size(max_size(stage1, chase), stores + block + apply);
}

/* gl_s_svd_device_bytes gl_d_svd_device_bytes gl_c_svd_device_bytes gl_z_svd_device_bytes */
size_t GL_FN(svd_device_bytes)(const gl_tuning *tuning, const gl_svd_job *job,
                               lapack_int m, lapack_int n, int u_over_a,
                               int vt_over_a, gl_plan_tier tier,
                               size_t *largest)
{
    if (tier == GL_PLAN_STREAMED && job->jobu == 'N' && job->jobvt == 'N') {
        /* the values */
        lapack_int rows = m >= n ? m : n, cols = m >= n ? n : m;
        lapack_int b = gl_tune_ooc_band(cols);
        size_t bytes = GL_FN(ge_streamed_device_bytes)(
            tuning, rows, cols, b, gl_tune_ooc_tile(cols, b));
        /* then stage 3's bisection (ops->bidiag_values), alone: the
         * bidiagonal as a tridiagonal of 2 cols and its values */
        size_t values = 5 * (size_t)cols * sizeof(gl_real);
        bytes = bytes > values ? bytes : values;
        *largest = bytes;
        return bytes;
    }
    /* the decisions and the arena of a call on a device of this tuning:
     * the device's table, A's place marked (the outputs over it) */
    static const gl_scalar mark;
    gl_ctx ctx = {.tuning = *tuning};
    GL_FN(ops) table = GL_FN(gpu_ops);
    table.ctx = &ctx;
    gl_scalar *a = (gl_scalar *)&mark;
    svd_call c = {.ops = &table, .job = job, .m = m, .n = n, .a = a,
                  .u = u_over_a ? a : NULL, .vt = vt_over_a ? a : NULL,
                  .lean = tier != GL_PLAN_IN_CORE,
                  .stream1 = tier == GL_PLAN_STREAMED};
    svd_decide(&c);
    /* the vectors: lean (a square or wide X), streamed (any shape) */
    if (tier != GL_PLAN_IN_CORE)
        return c.lean ? svd_lean_bytes(&c, largest) : SIZE_MAX;
    gl_arena dev = {0};
    svd_layout at;
    svd_device_layout(&c, &dev, &at);
    *largest = dev.bytes;
    lapack_int rows = c.rows, cols = c.cols, nb = c.nb;
    size_t most = GL_FN(ge2gb_device_bytes)(
        c.r1, cols, nb, gl_tune_stage1_block(tuning, cols, nb));
    size_t left = 0, right = 0;
    if (c.want_l) {
        left = GL_FN(apply_chase_device_bytes)(cols, c.bw, c.group, c.ucols);
        size_t panels = GL_FN(apply_panels_device_bytes)(c.r1, cols, nb,
                                                         c.ucols);
        if (c.tall)
            panels = GL_FN(apply_panels_device_bytes)(rows, cols, nb, c.ucols);
        left = left > panels ? left : panels;
    }
    if (c.want_r) {
        right = GL_FN(apply_chase_device_bytes)(cols, c.bw, c.group, cols);
        size_t panels =
            cols > nb ? GL_FN(apply_panels_device_bytes)(cols - nb, cols - nb,
                                                         nb, cols)
                      : 0;
        right = right > panels ? right : panels;
    }
    most = most > left ? most : left;
    most = most > right ? most : right;
    return dev.bytes + most;
}

/* The host's arena: the band's diagonals and phases (4 n scalars), d, e,
 * U_B, VT_B (n^2 reals each unless on the device) and stage 3's work
 * (?bdsdc: 3 n^2 + 4 n reals; ?bdsqr: 4 n), iwork (8 n), the chase's
 * first and zeros, the kept part of A.  The host images of the vectors
 * (the host backend's lu and lv, a device's host image, the lean plan's
 * vectors of X as their blocks come back) go over stage 3's
 * spent work: n^2 scalars each fewer to allocate and to take page faults
 * on (the first touch of fresh memory costs up to 2.5 s per GiB on a
 * virtual machine, docs/performance.md); the work grows to hold them
 * where they do not fit (the old code allocated them beside it: the peak
 * is the larger of the two, no more).  The kept part is optional: without
 * room for it, the output over A is written from one complete read. */
static void *svd_host_plan(svd_call *c, gl_arena *host)
{
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
    /* the lean plan's vectors of X, as their blocks come back */
    size_t at_ls = gl_arena_take(&images, c->lean && c->want_l, lsize, es);
    size_t at_rs = gl_arena_take(&images, c->lean && c->want_r, cc, es);
    gl_arena_share_end(host, images.bytes);
    size_t at_iwork = gl_arena_take(host, 1, 8 * cols, sizeof(lapack_int));
    lapack_int ngroups;
    size_t slots = GL_FN(reflectors_slots)(c->cols, c->bw, c->group, &ngroups);
    size_t at_first = gl_arena_take(host, c->vectors, (size_t)ngroups + 1,
                                    sizeof(lapack_int));
    size_t at_zeros = gl_arena_take(host, c->vectors, slots, es);
    size_t without_kept = host->bytes;
    size_t at_kept = gl_arena_take(host, c->over && !ops->host_memory &&
                                             !c->host_image && !c->lean,
                                   (size_t)c->orows * (size_t)c->ocols, es);

    void *base = gl_host_alloc(host->bytes);
    if (!base && at_kept != GL_ARENA_NONE) {
        base = gl_host_alloc(without_kept);
        at_kept = GL_ARENA_NONE;
    }
    if (!base)
        return NULL;
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
    return base;
}

/* Plan: the decisions and the two arenas.  0, GL_STAGE_NONFINITE, or
 * GL_STAGE_FAULT when memory is refused. */
static int svd_plan(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    /* the lean plan (the vectors of a matrix that fits the device, its
     * in-core plan not); svd_decide keeps it where the job has it */
    int streamed = !ops->host_memory && ops->ctx->plan == GL_PLAN_STREAMED;
    c->stream1 = streamed;
    c->lean = streamed ||
              (!ops->host_memory && ops->ctx->plan == GL_PLAN_LEAN);
    int rc = svd_shape(c);
    if (rc)
        return rc;
    /* the streamed plan of the values (a matrix larger than the device):
     * stages 1 and 2 hold their own device memory; of the vectors, the
     * lean plan's flow after its own stage 1 (svd_decide gives every
     * job with vectors one on a device; without, LAPACK) */
    c->streamed = streamed && !c->vectors;
    if (streamed && c->vectors && !c->stream1)
        return GL_STAGE_FAULT;
    gl_arena dev = {0}, host = {0};
    if (c->lean) {   /* X's panels here, its device memory as it goes */
        size_t cols = (size_t)c->cols, nbc = (size_t)c->nb * cols;
        size_t xsize = (size_t)c->r1 * cols;
        /* the streamed stage 1's band, or a tall X's QR, too */
        size_t band = c->stream1 ? (size_t)c->ldband * cols : 0;
        size_t qr = c->tall ? (size_t)c->rows * cols + nbc : 0;
        c->lean_host_bytes = sizeof(gl_scalar) * (xsize + 2 * nbc + band + qr);
        c->lean_host = gl_host_alloc(c->lean_host_bytes);
        if (!c->lean_host)
            return GL_STAGE_FAULT;
        c->hx = c->lean_host, c->htq = c->hx + xsize, c->htp = c->htq + nbc;
        c->hband = c->stream1 ? c->htp + nbc : NULL;
        c->hqr = c->tall ? c->htp + nbc : NULL;
        c->htqr = c->tall ? c->hqr + (size_t)c->rows * cols : NULL;
    } else if (!c->streamed) {
        c->device_arena = svd_device_plan(c, &dev);
        if (!c->device_arena)
            return GL_STAGE_FAULT;
    }
    c->host_arena = svd_host_plan(c, &host);
    return c->host_arena ? 0 : GL_STAGE_FAULT;
}

static void svd_free(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    ops->release(ops, c->device_arena);
    gl_host_free(c->host_arena);
    if (!c->lean)
        return;
    ops->release(ops, c->lean_x);
    ops->release(ops, c->lean_band);
    ops->release(ops, c->lean_block);
    ops->release(ops, c->seg_dev);
    GL_FN(reflectors_free)(ops, &c->keep);
    gl_host_free(c->lean_host);
    gl_host_free(c->hq);
    free(c->seg_at);
    free(c->seg_first);
}

/* The streamed plan's stages 1 and 2: d and e from X's copy in host
 * memory (ge2gb_streamed.c); the stage marks as in core. */
static int svd_reduce_streamed(svd_call *c)
{
    lapack_int cols = c->cols, b = gl_tune_ooc_band(cols);
    gl_stage_times reduce;
    if (GL_FN(ge_bidiag_streamed)(c->ops, c->m, c->n, c->a, c->lda, c->anrm,
                                  c->scaled_to, b, gl_tune_ooc_tile(cols, b),
                                  c->d, c->ee, &reduce))
        return GL_STAGE_FAULT;
    c->t[1] = gl_now() - reduce.stage2;
    c->t[0] = c->t[1] - reduce.stage1;
    return 0;
}

/* X (rows x cols, ld rows, on the device) from A, transposed on the host
 * for m < n into `via` (so that the device never holds a second copy),
 * and scaled. */
static int lean_upload(svd_call *c, gl_scalar *via, gl_scalar *x)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols;
    if (c->trans) {
        GL_FN(conj_transpose)(c->m, c->n, c->a, c->lda, via, rows);
        ops->from_host(ops, 'N', rows, cols, via, rows, x, rows);
    } else {
        ops->from_host(ops, 'N', rows, cols, c->a, c->lda, x, rows);
    }
    return c->scaled_to != 0 &&
                   ops->lascl(ops, c->anrm, c->scaled_to, rows, cols, x, rows)
               ? GL_STAGE_FAULT
               : 0;
}

/* A tall X's QR in core, as svd_reduce's: X and the QR's T's up, the
 * reflectors with R and the T's down into host memory, X's device
 * memory released before R's reduction takes its own. */
static int lean_qr(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb;
    size_t xsize = (size_t)rows * (size_t)cols;
    c->lean_x = ops->alloc(ops, sizeof(gl_scalar) * (xsize + (size_t)nb * cols));
    if (!c->lean_x || lean_upload(c, c->hqr, c->lean_x))
        return GL_STAGE_FAULT;
    c->t[0] = gl_profile_stage(ops->ctx, "stage1");
    if (qr_panels(ops, rows, cols, nb, c->lean_x, rows, c->lean_x + xsize) ||
        ops->to_host_scratch(ops, rows, cols, c->lean_x, rows, c->hqr, rows) ||
        ops->to_host_scratch(ops, nb, cols, c->lean_x + xsize, nb, c->htqr,
                             nb))
        return GL_STAGE_FAULT;
    ops->release(ops, c->lean_x);
    c->lean_x = NULL;
    return 0;
}

/* The lean plan's stage 1: X up and reduced to the band in core as
 * svd_reduce does (a tall X: its QR first, lean_qr, then R up); its
 * panels and T factors go to host memory and its device memory is
 * released before the chase's two stores are allocated.  The band stays
 * on the device. */
static int lean_stage1(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int cols = c->cols, nb = c->nb, r1 = c->r1, ldr = c->ldr;
    size_t xsize = (size_t)r1 * (size_t)cols, nbc = (size_t)nb * cols;
    if (c->tall && lean_qr(c))
        return GL_STAGE_FAULT;
    c->lean_x = ops->alloc(ops, sizeof(gl_scalar) * lean_x_scalars(c));
    c->lean_band = c->lean_x ? ops->alloc(ops, sizeof(gl_scalar) *
                                                   (size_t)c->ldband *
                                                   (size_t)cols)
                             : NULL;
    if (!c->lean_band)
        return GL_STAGE_FAULT;
    c->w = c->r = c->lean_x, c->band = c->lean_band;
    c->tq = c->w + xsize, c->tp = c->tq + nbc;
    if (c->tall) {   /* R, its zeros below */
        ops->from_host(ops, 'N', cols, cols, c->hqr, c->rows, c->r, ldr);
        ops->zero_lower(ops, cols, cols, c->r, ldr);
    } else if (lean_upload(c, c->hx, c->w)) {
        return GL_STAGE_FAULT;
    } else {
        c->t[0] = gl_profile_stage(ops->ctx, "stage1");
    }
    if (GL_FN(ge2gb)(ops, r1, cols, nb,
                     gl_tune_stage1_block(&ops->ctx->tuning, cols, nb), c->r,
                     ldr, c->tq, c->tp))
        return GL_STAGE_FAULT;
    c->t[1] = gl_profile_stage(ops->ctx, "stage2");
    ops->pack_band(ops, 'G', cols, c->bw, c->r, ldr, c->band, c->ldband);
    if (ops->to_host_scratch(ops, r1, cols, c->r, ldr, c->hx, ldr) ||
        ops->to_host_scratch(ops, nb, 2 * cols, c->tq, nb, c->htq, nb))
        return GL_STAGE_FAULT;
    ops->release(ops, c->lean_x);
    c->lean_x = c->w = c->r = c->tq = c->tp = NULL;
    return 0;
}

/* The streamed plan's stage 1 of the vectors: X (scaled) copied into the
 * host array of the panels and reduced there by the streamed passes
 * (ge_band_streamed), which keep its panels and T factors in host memory
 * as lean_stage1 parks them; then the band goes up. */
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

/* A block's stage-1 panels from host memory: the streamed plan's in
 * groups whose device memory is about the block's (apply_block_panels),
 * the lean plan's in apply_host_panels' groups. */
static int stage1_panels(const svd_call *c, char storev, lapack_int len,
                         lapack_int nref, const gl_scalar *v, lapack_int ldv,
                         const gl_scalar *t, lapack_int ncols, gl_scalar *e,
                         lapack_int lde)
{
    return (c->stream1 ? GL_FN(apply_block_panels)
                       : GL_FN(apply_host_panels))(c->ops, storev, 'N', len,
                                                   nref, c->nb, v, ldv, t,
                                                   ncols, e, lde);
}

/* A block's chase reflectors: the store on the device, or parked. */
static int apply_block_chase(const svd_call *c, char which, lapack_int ncols,
                             gl_scalar *e, lapack_int lde)
{
    if (c->park)
        return apply_parked(c, which, ncols, e, lde);
    return GL_FN(apply_chase)(c->ops, &c->keep, which, 'N', ncols, e, lde);
}

/* The lean and streamed plans' stages 1 and 2: the band, then chased to
 * bidiagonal with the chase's two stores on the device (the streamed
 * plan: parked segment by segment, chase_parked); the chased band gives
 * d and e (and the diagonals for the phases), and goes. */
static int svd_reduce_lean(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int cols = c->cols;
    if (c->stream1 ? streamed_stage1(c) : lean_stage1(c))
        return GL_STAGE_FAULT;
    if (c->park)
        gl_log(1, "streamed chase: %d segments of %d sweeps parked in host "
                  "memory", c->nseg, c->seg);
    else if (c->stream1)
        gl_log(1, "streamed chase: its stores kept on the device");
    if (c->park ? chase_parked(c)
                : GL_FN(reflectors_alloc)(ops, &c->keep, cols, c->bw,
                                          c->group, 1) ||
                      (c->bw > 1 &&
                       ops->gb_chase(ops, cols, c->bw, 1, cols, c->band,
                                     c->ldband, &c->keep)))
        return GL_STAGE_FAULT;
    if (GL_FN(band_to_de)(ops, 'G', cols, c->bw, c->band, c->ldband, c->de,
                          c->d, c->ee))
        return GL_STAGE_FAULT;
    ops->release(ops, c->lean_band);
    c->lean_band = c->band = NULL;
    return 0;
}

/* Reduce: X (scaled) to the band (stage 1), the band to bidiagonal
 * (stage 2), keeping what the vectors need. */
static int svd_reduce(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb;
    if (c->streamed)
        return svd_reduce_streamed(c);
    if (c->lean)
        return svd_reduce_lean(c);
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
        if (qr_panels(ops, rows, cols, nb, c->w, rows, c->tqr))
            return GL_STAGE_FAULT;
        ops->copy(ops, cols, cols, c->w, rows, c->r, cols);
        ops->zero_lower(ops, cols, cols, c->r, cols);
    }
    if (GL_FN(ge2gb)(ops, c->r1, cols, nb,
                     gl_tune_stage1_block(&ops->ctx->tuning, cols, nb), c->r,
                     c->ldr, c->tq, c->tp))
        return GL_STAGE_FAULT;
    c->t[1] = gl_profile_stage(ops->ctx, "stage2");
    ops->pack_band(ops, 'G', cols, c->bw, c->r, c->ldr, c->band, c->ldband);
    if (!c->vectors)
        return GL_FN(gb2bd)(ops, cols, c->bw, gl_tune_tile_width(c->bw),
                            c->band, c->ldband)
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

/* Stage 3: the bidiagonal's values and, with vectors, U_B and VT_B (on
 * the device, or on the host in ub and vb). */
static int svd_stage3(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int cols = c->cols;
    int restart = c->job->stage3 == GL_SVD_BDSDC_RESTART;
    c->t[2] = gl_profile_stage(ops->ctx, "stage3");
    /* (the streamed and lean plans' d and e are there already) */
    if (!c->streamed && !c->lean &&
        GL_FN(band_to_de)(ops, 'G', cols, c->bw, c->band, c->ldband, c->de,
                          c->d, c->ee))
        return GL_STAGE_FAULT;
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
    if (c->lean && c->job->stage3 != GL_SVD_BDSQR) {
        /* on the host, the merges' products with it: bidiag_svd with the
         * device's would take up to 3 n^2 reals beside the chase's stores
         * (the Hermitian lean plan's ?stedc runs on the host alike).  That
         * is the system's ?bdsdc, except where its INTEGERs overflow
         * (n > 23,170, docs/large.md): then our divide and conquer, its
         * products by the host's BLAS. */
        GL_FN(ops) host_products = *ops;
        host_products.real_product = NULL;
        return GL_FN(bidiag_svd)(&host_products, cols, c->d, c->ee, c->ub,
                                 cols, c->vb, cols, c->work, c->iwork,
                                 &c->info) ||
                       (c->info != 0 && restart)
                   ? GL_STAGE_FAULT
                   : 0;
    }
    if (c->vectors && c->job->stage3 != GL_SVD_BDSQR)
        return GL_FN(bidiag_svd)(ops, cols, c->d, c->ee, c->ub, cols, c->vb,
                                 cols, c->work, c->iwork, &c->info) ||
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

/* The back-transformations as jobs the devices of a set share
 * (kernels/tiers/peers.c).  in[]: the arrays the side's reflectors are made of,
 * this device's or a peer's copies: the chase's store (vq or vp, then
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

/* The lean plan's vectors, in blocks of `tile` columns into lstage and
 * rstage: each block is made on the host (diag(phases) U_B, or
 * diag(phases) VT_B^T), goes up once, takes the chase's reflectors (on
 * the device) and stage 1's panels (up from host memory group by group,
 * apply_host_panels), and comes back. */
static int svd_lean_vectors(svd_call *c)
{
    const GL_FN(ops) *ops = c->ops;
    lapack_int rows = c->rows, cols = c->cols, nb = c->nb, tile = c->tile;
    c->lean_block = ops->alloc(ops, sizeof(gl_scalar) * lean_block_scalars(c));
    if (!c->lean_block)
        return GL_STAGE_FAULT;
    lapack_int ng;
    c->seg_dev = c->park ? ops->alloc(ops, sizeof(gl_scalar) *
                                               GL_PARKED_BUFFERS *
                                               seg_scalars(c, 0, &ng))
                         : NULL;
    if (c->park && !c->seg_dev)
        return GL_STAGE_FAULT;
    gl_scalar *e = c->lean_block;
    for (lapack_int j0 = 0; c->want_l && j0 < c->ucols; j0 += tile) {
        lapack_int cb = c->ucols - j0 < tile ? c->ucols - j0 : tile;
        /* its first from_b columns are U_B's, the others I's */
        lapack_int from_b = cols - j0 < cb ? cols - j0 : cb;
        if (from_b < 0)
            from_b = 0;
        gl_scalar *o = c->lstage + (size_t)j0 * rows;
        /* [U_B 0; 0 I]'s columns j0.., U_B's rows scaled by the phases */
        for (lapack_int j = 0; j < cb; j++) {
            gl_scalar *col = o + (size_t)j * rows;
            if (j < from_b) {   /* the rows below U_B's */
                memset(col + cols, 0, sizeof *col * (size_t)(rows - cols));
            } else {
                memset(col, 0, sizeof *col * (size_t)rows);
                col[j0 + j] = 1;
            }
        }
        GL_FN(scale_rows)(cols, from_b, c->left, c->ub + (size_t)j0 * cols,
                          cols, 0, o, rows);
        ops->from_host(ops, 'N', rows, cb, o, rows, e, rows);
        if (apply_block_chase(c, 'Q', cb, e, rows) ||
            stage1_panels(c, 'C', c->r1, cols, c->hx, c->ldr, c->htq, cb, e,
                          rows) ||
            (c->tall &&
             GL_FN(apply_host_panels)(ops, 'C', 'N', rows, cols, nb, c->hqr,
                                      rows, c->htqr, cb, e, rows)) ||
            ops->to_host_scratch(ops, rows, cb, e, rows, o, rows))
            return GL_STAGE_FAULT;
    }
    for (lapack_int j0 = 0; c->want_r && j0 < cols; j0 += tile) {
        lapack_int cb = cols - j0 < tile ? cols - j0 : tile;
        gl_scalar *o = c->rstage + (size_t)j0 * cols;
        GL_FN(scale_rows)(cols, cb, c->right, c->vb + j0, cols, 1, o, cols);
        ops->from_host(ops, 'N', cols, cb, o, cols, e, cols);
        if (apply_block_chase(c, 'P', cb, e, cols) ||
            (cols > nb &&
             stage1_panels(c, 'R', cols - nb, cols - nb,
                           c->hx + (size_t)nb * c->ldr, c->ldr, c->htp, cb,
                           e + nb, cols)) ||
            ops->to_host_scratch(ops, cols, cb, e, cols, o, cols))
            return GL_STAGE_FAULT;
    }
    return 0;
}

/* Vectors: the back-transformation of U_B and VT_B through both stages. */
static int svd_vectors(svd_call *c)
{
    c->t[3] = gl_profile_stage(c->ops->ctx, "back");
    if (c->lean) {
        /* the panels and the parked stores go up on the upload lane by
         * DMA (ops.h host_pin) */
        const GL_FN(ops) *ops = c->ops;
        ops->host_pin(ops, c->lean_host, c->lean_host_bytes);
        if (c->park)
            ops->host_pin(ops, c->hq,
                          sizeof *c->hq * 2 * c->seg_at[c->nseg]);
        int failed = svd_lean_vectors(c);
        ops->lanes_finish(ops);   /* no upload may still reach what goes */
        ops->host_unpin(ops, c->lean_host);
        ops->host_unpin(ops, c->hq);
        if (failed)
            return GL_STAGE_FAULT;
        c->t[4] = gl_profile_stage(c->ops->ctx, "out");
        return 0;
    }
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

/* The lean plan's U and VT from the host's blocks, all of which
 * succeeded: X's left vectors are U (m >= n) or VT's adjoint, its right
 * vectors VT's adjoint or U. */
static void svd_lean_read(const svd_call *c)
{
    lapack_int rows = c->rows, cols = c->cols, ucols = c->ucols;
    for (lapack_int j = 0; c->want_l && !c->trans && j < ucols; j++)
        memcpy(c->u + (size_t)j * c->ldu, c->lstage + (size_t)j * rows,
               sizeof *c->u * (size_t)rows);
    if (c->want_l && c->trans)
        GL_FN(conj_transpose)(rows, ucols, c->lstage, rows, c->vt, c->ldvt);
    for (lapack_int j = 0; c->want_r && c->trans && j < cols; j++)
        memcpy(c->u + (size_t)j * c->ldu, c->rstage + (size_t)j * cols,
               sizeof *c->u * (size_t)cols);
    if (c->want_r && !c->trans)
        GL_FN(conj_transpose)(cols, cols, c->rstage, cols, c->vt, c->ldvt);
}

/* Read: the vectors, then the values unscaled (also the unconverged
 * superdiagonal on failure) and the stage times.  Stage 3's INFO. */
static int svd_read(svd_call *c, gl_real *s, gl_real *e,
                    gl_stage_times *times)
{
    if (c->lean)
        svd_lean_read(c);
    else if (c->vectors && svd_read_vectors(c))
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

/* The pipeline in steps: plan, reduce, stage 3, vectors, read; every step
 * returns 0 or what the call returns, and svd_free releases the call's
 * memory whichever step stopped it. */
/* gl_s_svd gl_d_svd gl_c_svd gl_z_svd */
int GL_FN(svd)(const GL_FN(ops) *ops, const gl_svd_job *job, lapack_int m,
               lapack_int n, const gl_scalar *a, lapack_int lda, gl_real *s,
               gl_scalar *u, lapack_int ldu, gl_scalar *vt, lapack_int ldvt,
               gl_real *e, gl_stage_times *times)
{
    if (m == 0 || n == 0)
        return 0;
    svd_call c = {.ops = ops, .f = GL_FN(lapack_fns_get)(), .job = job,
                  .a = a, .m = m, .n = n, .lda = lda, .u = u, .ldu = ldu,
                  .vt = vt, .ldvt = ldvt};
    int rc = svd_plan(&c);
    if (rc == 0)
        rc = svd_reduce(&c);
    if (rc == 0)
        rc = svd_stage3(&c);
    if (rc == 0)
        rc = svd_vectors(&c);
    if (rc == 0)
        rc = svd_read(&c, s, e, times);
    svd_free(&c);
    return rc;
}
