/* Stage 2 on the host: bulge chasing on a packed band, multithreaded.
 *
 * General band (gb_chase): upper band of half-width b -> half-width c, the
 * bandwidth tiling of Ringoot, Alomairy and Edelman, "Accelerating
 * Bidiagonalization of Banded Matrices through Memory-Aware Bulge-Chasing
 * on GPUs" (TW = b - c per pass; c = 1 gives the bidiagonal).  Storage
 * (kernels/ops.h): A(r,c) = band[up + r - c + c*ld], rows up = 2*b0 above
 * the diagonal (fill) and b0 below.  Sweep s, step j:
 *
 *   pivot row r and column p:  j = 0: r = s,            p = s + c
 *                              j > 0: r = s+c+(j-1)b,   p = r + b
 *   right reflector from A(r, p:p+tw) applied to rows r+1 .. p+tw,
 *   left reflector from A(p:p+tw, p) applied to columns p+1 .. p+tw+b,
 *
 * so every step advances by b and each sweep leaves row s with half-width
 * c; the fill a step leaves in rows r+1 .. is removed by the next sweeps
 * at the same step.
 *
 * Hermitian band (sb_chase): lower band of half-width b -> tridiagonal, the
 * task graph of LAPACK's ?sb2st kernels.  Storage A(r,c) = band[r - c +
 * c*ld], r >= c, 2b+1 rows.  Sweep s, step j owns rows R = [s+1+jb,
 * s+(j+1)b]: it builds the reflector from column s (j = 0) or from the
 * bulge's first column s+1+(j-1)b, applies it from the left to the rest of
 * the bulge, on both sides of the diagonal block A(R,R) and from the right
 * to the block below, which creates the next bulge.  The code runs the
 * reflector and left-side update of step j+1 in the same pass as the
 * right-side update of step j (sb_step): they touch the same block, and
 * the lag below already orders step j+1's data behind sweep s-1.
 *
 * Schedule (both): step j of sweep s may run once step j-1 of sweep s and
 * step j+2 of sweep s-1 are done: the three-cycle separation between
 * sweeps of "Accelerating Bidiagonalization of Banded Matrices through
 * Memory-Aware Bulge-Chasing on GPUs", after which sweep s-1's later
 * steps no longer touch the data of sweep s's step j.
 * Threads claim groups of sweeps from a ticket counter, run each group in
 * wavefront order (chase_worker) and publish their progress with stores
 * that a waiter reads (SLATE's hb2st scheme), spinning a little, then
 * asleep until a step is published (wait_for), so that shared and
 * oversubscribed cores still progress.
 *
 * A sweep limit (ops.h: a chase in segments) only shortens the list of
 * sweeps: the first ones, which the schedule never waits past.
 *
 * Reflectors are generated exactly as ?larfg; a zero vector gives H = I.
 * With a reflector store (ops.h, c = 1 only) each step also copies its
 * reflectors into their own slots. */
#include <complex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../../runtime/log.h"
#include "../../../runtime/precision.h"
#include "../../householder.h"
#include "../../ops.h"
#include "host.h"
#include "threads.h"

typedef struct progress_slot {
    _Alignas(64) atomic_long done;   /* steps of this sweep completed */
} progress_slot;

/* A thread of the split schedule, as the others see it: where its range
 * ends in each of the last CUT_RING groups (the next thread's range starts
 * there), and how long it waited for the thread before it. */
enum { CUT_RING = 4 };
typedef struct split_thread {
    progress_slot cut[CUT_RING]; /* group g: ((g + 1) << 32) + step */
    _Alignas(64) atomic_llong waited_before; /* nanoseconds */
    clockid_t cpu_clock; /* its CPU time, once clock_ready */
    atomic_int clock_ready;
} split_thread;

typedef struct chase_job {
    lapack_int n, b, c, ld, up;
    gl_scalar *band;
    lapack_int nsweeps;
    int hermitian;
    progress_slot *progress;
    atomic_long next_group;   /* ticket: the next group of sweeps to claim */
    const GL_FN(reflectors) *keep;   /* NULL: values only */
    /* the split schedule: threads, and per thread a ring of
     * HANDOFF_RING reflectors (Hermitian: those its ranges start from),
     * each vec scalars, then their taus */
    int nthreads;
    int schedule; /* GL_SCHEDULE_BALANCED, _EVEN or _SHAKEN */
    size_t vec;
    gl_scalar *handoff, *handoff_tau;
    split_thread *threads;
    /* thread 0's times alone (below): the other threads' arrivals in
     * them, and the group the last one ended at, which they wait for on
     * resumed (not moved: each step alone would wake them) */
    progress_slot parked;
    atomic_long solo_end;
    atomic_int failed;
    /* threads asleep in wait_for, woken by each step's publish */
    atomic_int sleepers;
    pthread_mutex_t lock;
    pthread_cond_t moved, resumed;
} chase_job;

static lapack_int min_i(lapack_int a, lapack_int b) { return a < b ? a : b; }

/* Number of steps of sweep s. */
static lapack_int steps_of(const chase_job *job, lapack_int s)
{
    lapack_int n = job->n, b = job->b;
    if (job->hermitian)
        return s + 2 > n - 1 ? 0 : (n - 3 - s) / b + 1;
    return s + job->c > n - 2 ? 0 : (n - 2 - s - job->c) / b + 1;
}

/* Copies reflector (v of length len, tau) of step j of sweep s into its
 * slot of the store (v: b rows, zero past len). */
static void keep_reflector(const GL_FN(reflectors) *keep, lapack_int s,
                           lapack_int j, const gl_scalar *v, lapack_int len,
                           gl_scalar tau, gl_scalar *vstore,
                           gl_scalar *taustore)
{
    lapack_int g = s / keep->group;
    size_t col = (size_t)keep->first[g] + (size_t)j * (size_t)keep->group +
                 (size_t)(s - g * keep->group);
    gl_scalar *dst = vstore + col * (size_t)keep->b;
    memcpy(dst, v, sizeof *dst * (size_t)len);
    memset(dst + len, 0, sizeof *dst * (size_t)(keep->b - len));
    taustore[col] = tau;
}

/* ---- general band ------------------------------------------------------ */

#define GB(r, col) job->band[(size_t)(job->up + (r) - (col)) + (size_t)(col) * job->ld]

GL_VECTOR_CLONES
static void gb_step(const chase_job *job, lapack_int s, lapack_int j,
                    gl_scalar *v, gl_scalar *w)
{
    const lapack_int n = job->n, b = job->b, c = job->c, tw = b - c;
    lapack_int r = j == 0 ? s : s + c + (j - 1) * b;
    lapack_int p = j == 0 ? s + c : r + b;
    lapack_int pe = min_i(p + tw, n - 1), len = pe - p + 1;

    /* Right reflector: (row r) H = (beta, 0, ..., 0). */
    for (lapack_int k = 0; k < len; k++)
        v[k] = GL_CONJ(GB(r, p + k));
    gl_scalar tau = gl_larfg(len, &v[0], &v[1], 1);
    GB(r, p) = v[0];
    for (lapack_int k = 1; k < len; k++)
        GB(r, p + k) = 0;
    v[0] = 1;
    if (job->keep)
        keep_reflector(job->keep, s, j, v, len, tau, job->keep->vp,
                       job->keep->taup);
    if (tau != 0)   /* rows r+1 .. pe */
        gl_larf_right(pe - r, len, v, tau, &GB(r + 1, p), job->ld - 1, w);

    /* Left reflector: H^H (column p) = (beta, 0, ..., 0). */
    for (lapack_int k = 0; k < len; k++)
        v[k] = GB(p + k, p);
    tau = gl_larfg(len, &v[0], &v[1], 1);
    GB(p, p) = v[0];
    for (lapack_int k = 1; k < len; k++)
        GB(p + k, p) = 0;
    v[0] = 1;
    if (job->keep)
        keep_reflector(job->keep, s, j, v, len, tau, job->keep->vq,
                       job->keep->tauq);
    if (tau != 0)   /* columns p+1 .. p+tw+b */
        gl_larf_left(len, v, tau, &GB(p, p + 1), job->ld - 1,
                     min_i(p + tw + b, n - 1) - p);
}

#undef GB

/* ---- Hermitian band ---------------------------------------------------- */

#define SB(r, col) job->band[(size_t)((r) - (col)) + (size_t)(col) * job->ld]

/* w = C v for the Hermitian len x len block C whose lower triangle is
 * C(i, k) = c[i + k*cs], i >= k.  Four columns per pass: their products
 * with v below the 4 x 4 triangle are four independent sums (as in
 * gl_dotc4), and w below it is loaded and stored once for the four. */
GL_LOOP void hemv_lower(lapack_int len, const gl_scalar *c, lapack_int cs,
                        const gl_scalar *v, gl_scalar *restrict w)
{
    for (lapack_int i = 0; i < len; i++)
        w[i] = 0;
    lapack_int k = 0;
    for (; k + 4 <= len; k += 4) {
        const gl_scalar *c0 = c + k * cs, *c1 = c0 + cs, *c2 = c1 + cs,
                        *c3 = c2 + cs;
        /* the 4 x 4 triangle on the diagonal, summed in registers */
        gl_scalar t[4];
        for (int q = 0; q < 4; q++)
            t[q] = GL_REAL(c[k + q + (k + q) * cs]) * v[k + q];
        for (int q = 0; q < 4; q++)
            for (int i = q + 1; i < 4; i++) {
                gl_scalar ciq = c[k + i + (k + q) * cs];
                t[i] += ciq * v[k + q];
                t[q] += GL_CONJ(ciq) * v[k + i];
            }
        gl_scalar v0 = v[k], v1 = v[k + 1], v2 = v[k + 2], v3 = v[k + 3];
        gl_scalar z0 = t[0], z1 = t[1], z2 = t[2], z3 = t[3];
#pragma omp simd reduction(+ : z0, z1, z2, z3)
        for (lapack_int i = k + 4; i < len; i++) {
            w[i] += (c0[i] * v0 + c1[i] * v1) + (c2[i] * v2 + c3[i] * v3);
            z0 += GL_CONJ(c0[i]) * v[i];
            z1 += GL_CONJ(c1[i]) * v[i];
            z2 += GL_CONJ(c2[i]) * v[i];
            z3 += GL_CONJ(c3[i]) * v[i];
        }
        w[k] += z0, w[k + 1] += z1, w[k + 2] += z2, w[k + 3] += z3;
    }
    for (; k < len; k++) {
        const gl_scalar *ck = c + k * cs;
        gl_scalar vk = v[k];
        for (lapack_int i = k + 1; i < len; i++)
            w[i] += ck[i] * vk;
        w[k] += GL_REAL(ck[k]) * vk + gl_dotc(len - k - 1, ck + k + 1,
                                              v + k + 1);
    }
}

/* C -= v w^H + w v^H on the lower triangle of C (as hemv_lower), with a
 * real diagonal; four columns per pass. */
GL_LOOP void her2_lower(lapack_int len, gl_scalar *c, lapack_int cs,
                        const gl_scalar *v, const gl_scalar *w)
{
    lapack_int k = 0;
    for (; k + 4 <= len; k += 4) {
        gl_scalar cw[4], cv[4];
        for (lapack_int q = k; q < k + 4; q++) {   /* the 4 x 4 triangle */
            gl_scalar *cq = c + q * cs;
            cw[q - k] = GL_CONJ(w[q]), cv[q - k] = GL_CONJ(v[q]);
            cq[q] = GL_REAL(cq[q]) - 2 * GL_REAL(v[q] * cw[q - k]);
            for (lapack_int i = q + 1; i < k + 4; i++)
                cq[i] -= v[i] * cw[q - k] + w[i] * cv[q - k];
        }
        gl_sub_rank2_4(len - k - 4, c + k * cs + k + 4, cs, v + k + 4, cw,
                       w + k + 4, cv);
    }
    for (; k < len; k++) {
        gl_scalar *ck = c + k * cs, cw = GL_CONJ(w[k]), cv = GL_CONJ(v[k]);
        ck[k] = GL_REAL(ck[k]) - 2 * GL_REAL(v[k] * cw);
        for (lapack_int i = k + 1; i < len; i++)
            ck[i] -= v[i] * cw + w[i] * cv;
    }
}

/* The reflector of step 0 of sweep s, from column s; the next ones come
 * out of sb_step. */
static gl_scalar sb_first_reflector(const chase_job *job, lapack_int s,
                                    gl_scalar *v)
{
    lapack_int r0 = s + 1, len = min_i(s + job->b, job->n - 1) - r0 + 1;
    for (lapack_int k = 0; k < len; k++)
        v[k] = SB(r0 + k, s);
    gl_scalar tau = gl_larfg(len, &v[0], &v[1], 1);
    SB(r0, s) = v[0];
    for (lapack_int k = 1; k < len; k++)
        SB(r0 + k, s) = 0;
    v[0] = 1;
    if (job->keep)
        keep_reflector(job->keep, s, 0, v, len, tau, job->keep->vq,
                       job->keep->tauq);
    return tau;
}

/* Step j of sweep s with its reflector (v, tau) already applied to the
 * bulge from the left: the diagonal block from both sides, then the block
 * below from the right, which is the next step's bulge.  That block B is
 * also where the next step starts, so the two are one pass: with
 * w = tau B v, B H = B - w v^H has first column B(:,0) - w, which gives
 * the next reflector (u, tau2), and
 *   H2^H (B H) = B - w v^H - conj(tau2) u (u^H B - (u^H w) v^H)
 * needs one read of B for w and one read and write per column after it,
 * instead of two passes for each side.  Returns tau2 (u in next), 0 at
 * the sweep's last step. */
GL_VECTOR_CLONES
static gl_scalar sb_step(const chase_job *job, lapack_int s, lapack_int j,
                         const gl_scalar *v, gl_scalar tau, gl_scalar *next,
                         gl_scalar *w)
{
    const lapack_int n = job->n, b = job->b, ldc = job->ld - 1;
    lapack_int r0 = s + 1 + j * b, r1 = min_i(s + (j + 1) * b, n - 1);
    lapack_int len = r1 - r0 + 1;

    /* Diagonal block, both sides (?larfy): w = tau C v,
     * w -= 1/2 tau (w^H v) v, C -= v w^H + w v^H (lower triangle). */
    if (tau != 0) {
        gl_scalar *c = &SB(r0, r0);   /* C(i, k) = c[i + k*ldc], i >= k */
        hemv_lower(len, c, ldc, v, w);
        for (lapack_int k = 0; k < len; k++)
            w[k] *= tau;
        gl_scalar wv = gl_dotc(len, w, v);
        gl_scalar alpha = -0.5f * tau * wv;
        for (lapack_int k = 0; k < len; k++)
            w[k] += alpha * v[k];
        her2_lower(len, c, ldc, v, w);
    }

    /* Block below: B = A(r1+1 : r1+b, R), nb rows, len columns. */
    lapack_int b0 = r1 + 1, nb = min_i(r1 + b, n - 1) - b0 + 1;
    gl_scalar *bk = nb > 0 ? &SB(b0, r0) : NULL;
    if (nb < 2) {   /* no next step: B H alone */
        if (nb > 0 && tau != 0)
            gl_larf_right(nb, len, v, tau, bk, ldc, w);
        return 0;
    }
    for (lapack_int i = 0; i < nb; i++)
        w[i] = 0;
    if (tau != 0) {
        gl_gemv_add(nb, len, bk, ldc, v, w);
        for (lapack_int i = 0; i < nb; i++)
            w[i] *= tau;
    }
    /* the next reflector, from the first column of B H (v[0] = 1) */
    for (lapack_int i = 0; i < nb; i++)
        next[i] = bk[i] - w[i];
    gl_scalar tau2 = gl_larfg(nb, &next[0], &next[1], 1);
    bk[0] = next[0];
    for (lapack_int i = 1; i < nb; i++)
        bk[i] = 0;
    next[0] = 1;
    if (job->keep)
        keep_reflector(job->keep, s, j + 1, next, nb, tau2, job->keep->vq,
                       job->keep->tauq);
    gl_scalar ctau2 = GL_CONJ(tau2), uw = gl_dotc(nb, next, w);
    lapack_int c = 1;
    for (; c + 4 <= len; c += 4) {
        gl_scalar *col = bk + (size_t)c * ldc, z[4], cv[4];
        gl_dotc4(nb, next, col, ldc, z);
        for (int k = 0; k < 4; k++) {
            cv[k] = GL_CONJ(v[c + k]);
            z[k] = ctau2 * (z[k] - uw * cv[k]);
        }
        gl_sub_rank2_4(nb, col, ldc, w, cv, next, z);
    }
    for (; c < len; c++) {
        gl_scalar *col = bk + (size_t)c * ldc, cv = GL_CONJ(v[c]);
        gl_scalar z = ctau2 * (gl_dotc(nb, next, col) - uw * cv);
        for (lapack_int i = 0; i < nb; i++)
            col[i] -= w[i] * cv + next[i] * z;
    }
    return tau2;
}

#undef SB

/* ---- schedule ---------------------------------------------------------- */

/* A waiting thread spins this many pauses (25 us here), then sleeps until
 * a step is published.  A wait in a quiet machine takes a few
 * microseconds; where other processes share the cores, the thread a wait
 * needs may have no core for milliseconds, and a waiter that spun or
 * yielded through them spent its own share of the cores too: n = 4000,
 * b = 64 on 2 threads beside a 2-job build took 1.8-4.3 s spinning and
 * yielding, against 0.25-0.40 s on one thread, and 0.22-0.34 s asleep
 * (beside two busy loops, 2.25-3.25 s against 0.29-0.39 on average).
 * Asleep, it leaves its core to the thread it waits for (or the other
 * processes), and the scheduler favours it when woken.  Longer spins
 * (100 and 400 us) made the shared case slower (0.46, 0.77 s) and the
 * quiet one no faster. */
enum { WAIT_SPINS = 1 << 10 };

/* Wakes the threads asleep in wait_for. */
static void wake(chase_job *job)
{
    if (atomic_load_explicit(&job->sleepers, memory_order_seq_cst) > 0) {
        pthread_mutex_lock(&job->lock);
        pthread_cond_broadcast(&job->moved);
        pthread_mutex_unlock(&job->lock);
    }
}

/* Stores the sweep's progress (done steps) and wakes the sleepers.  With
 * wait_for's increment and check, sequentially consistent: either the
 * waiter sees the new progress or this store sees the waiter. */
static void publish(chase_job *job, progress_slot *slot, long done)
{
    atomic_store_explicit(&slot->done, done, memory_order_seq_cst);
    wake(job);
}

/* Adds one to a count that threads wait on (as publish). */
static void arrive(chase_job *job, progress_slot *slot)
{
    atomic_fetch_add_explicit(&slot->done, 1, memory_order_seq_cst);
    wake(job);
}

/* Marks the schedule as failed: the waiters return. */
static void fail(chase_job *job)
{
    atomic_store(&job->failed, 1);
    pthread_mutex_lock(&job->lock);
    pthread_cond_broadcast(&job->moved);
    pthread_cond_broadcast(&job->resumed);
    pthread_mutex_unlock(&job->lock);
}

/* Waits for the sweep's progress to reach need, or for another thread's
 * failure (then returns 0: the schedule cannot complete). */
static int wait_for(chase_job *job, const progress_slot *slot, long need)
{
    for (int spins = 0; spins < WAIT_SPINS; spins++) {
        if (atomic_load_explicit(&slot->done, memory_order_acquire) >= need)
            return 1;
        if (atomic_load_explicit(&job->failed, memory_order_relaxed))
            return 0;
        gl_pause();
    }
    pthread_mutex_lock(&job->lock);
    atomic_fetch_add_explicit(&job->sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&slot->done, memory_order_seq_cst) < need &&
           !atomic_load(&job->failed))
        pthread_cond_wait(&job->moved, &job->lock); /* publish, fail */
    atomic_fetch_sub_explicit(&job->sleepers, 1, memory_order_relaxed);
    pthread_mutex_unlock(&job->lock);
    return !atomic_load(&job->failed);
}

/* Sweeps a worker claims at a time, and the steps each of them runs
 * behind the one before it.  A step's blocks are the ones the sweep before
 * touched a few steps earlier: with sweeps claimed one by one, two threads
 * took turns, and every block went from one core's cache to the other's;
 * run as a group in wavefront order, GROUP sweeps take one step each per
 * round on one core, and only the first sweep of a group reads what
 * another core wrote.  Two threads, n = 4000, b = 64: 0.56-0.58 s -> 0.43-
 * 0.47 s (groups of 2 and 8: 0.50-0.54 and 0.45-0.50 s). */
enum { CHASE_GROUP = 4, CHASE_LAG = 2 };

/* One worker (an item of gl_parallel_for): workers claim groups of sweeps
 * in increasing order from a ticket counter, so a sweep that is waited on
 * is always owned by a worker that runs: any number of threads (even one,
 * running the workers one after the other) completes.  Within a group,
 * round t runs step t - LAG*k of its k-th sweep, k ascending: sweep k-1
 * has then done step t - LAG*(k-1) = j + LAG, more than the 3-step lag
 * asks; the wait below is the check (and the wait on the group before). */
static int chase_worker(void *arg, long worker)
{
    (void)worker;
    chase_job *job = arg;
    lapack_int b = job->b;
    /* per sweep of the group: its reflector v and the next one (<= b
     * each); w: one row or column block (<= 2b).  Each on a cache line:
     * the vector loops' sums then split the same way whichever slot a
     * sweep gets, so a sweep's results do not depend on how the sweeps
     * are grouped (a chase in segments gives the whole chase's band bit
     * for bit). */
    const size_t line = GL_LINE_BYTES / sizeof(gl_scalar);
    size_t vec = ((size_t)b + 1 + line - 1) / line * line,
           per_sweep = 2 * vec;
    size_t bytes = sizeof(gl_scalar) *
                   (CHASE_GROUP * per_sweep + 2 * (size_t)b + 1);
    gl_scalar *scratch = aligned_alloc(
        GL_LINE_BYTES, (bytes + GL_LINE_BYTES - 1) / GL_LINE_BYTES *
                           GL_LINE_BYTES);
    if (!scratch)
        return 0;   /* claims nothing: the other workers do the work */
    gl_scalar *v[CHASE_GROUP], *next[CHASE_GROUP],
        *w = scratch + CHASE_GROUP * per_sweep;
    for (int k = 0; k < CHASE_GROUP; k++) {
        v[k] = scratch + k * per_sweep;
        next[k] = v[k] + vec;
    }
    for (;;) {
        lapack_int s0 = atomic_fetch_add(&job->next_group, 1) * CHASE_GROUP;
        if (s0 >= job->nsweeps)
            break;
        int gn = (int)min_i(CHASE_GROUP, job->nsweeps - s0);
        lapack_int steps[CHASE_GROUP];
        gl_scalar tau[CHASE_GROUP];   /* Hermitian: the reflector of step j */
        for (int k = 0; k < gn; k++) {
            steps[k] = steps_of(job, s0 + k);
            tau[k] = 0;
        }
        lapack_int prev_steps = s0 > 0 ? steps_of(job, s0 - 1) : 0;
        for (lapack_int t = 0; t < steps[0] + CHASE_LAG * (gn - 1); t++) {
            for (int k = 0; k < gn; k++) {
                lapack_int s = s0 + k, j = t - CHASE_LAG * k;
                if (j < 0 || j >= steps[k])
                    continue;
                if (s > 0)
                    (void)wait_for(job, &job->progress[s - 1],
                                   min_i(j + 3, k > 0 ? steps[k - 1]
                                                      : prev_steps));
                if (job->hermitian) {
                    if (j == 0)
                        tau[k] = sb_first_reflector(job, s, v[k]);
                    tau[k] = sb_step(job, s, j, v[k], tau[k], next[k], w);
                    gl_scalar *swap = v[k];
                    v[k] = next[k], next[k] = swap;
                } else {
                    gb_step(job, s, j, v[k], w);
                }
                publish(job, &job->progress[s], j + 1);
            }
        }
    }
    free(scratch);
    return 0;
}

/* ---- the split schedule ------------------------------------------------
 * The sweeps schedule above runs whole sweeps on one thread, so every
 * group's first sweep reads the whole band from the core that ran the
 * group before: n = 4000, b = 64 on 2 cores took 1.5 times the single
 * thread's CPU time, 1.27x faster in all (1 -> 2 threads; the threads
 * did not wait).  Here every thread runs every group, each over its own
 * range of the group's steps, in the same wavefront rounds.  The rows a
 * thread works on move down by only the group's sweeps from one group to
 * the next, so they stay in that thread's cache and only the blocks at
 * the ranges' ends move between cores: PLASMA's hb2st and MAGMA's
 * hbtrd_cpu pipeline sweeps over threads alike ("Parallel reduction to
 * condensed forms for symmetric eigenvalue problems using aggregated
 * fine-grained and memory-aware kernels", Haidar, Ltaief and Dongarra).
 *
 * Thread t runs steps steps0 t / P .. steps0 (t+1) / P of each of the
 * group's sweeps (steps0: its first sweep's), while thread t+1 runs the
 * group before's: a pipeline of P groups, synchronised by the sweeps'
 * progress counters only.  The last two steps of each sweep's range wait
 * for the next thread's first steps of the sweep before, so at the end of
 * each group the two threads take turns (two groups in flight, below,
 * fill the turns).  Cut along the wavefront instead
 * (step j of the k-th sweep on diagonal j + 2k, each thread a range of
 * diagonals), a step and the step it waits for lie in one range, and at
 * n = 4000, b = 64 on 2 cores the threads waited 3 and 6 ms of the
 * Hermitian chase's 0.13 s instead of 6 and 10, in the same wall time;
 * but the next group's first sweep waits for this group's last one 8
 * diagonals further on, in the range of thread t+2 where the ranges are
 * narrow: counted with unit steps (tools/chase_model.py), 5.5x on 15
 * threads against 9.5x cut by step, 1.94x against 1.91x on 2.
 *
 * A step waits, as in the sweeps schedule, for step j+2 of the sweep
 * before, and at the first step of a range for its own sweep's step
 * before (the thread before).  The Hermitian chase carries the reflector
 * of the next step from one step to the next (sb_step): at a range's end
 * it goes into the ring of the thread whose range starts there (past
 * empty ranges), in its slot s % HANDOFF_RING, before the step's
 * publish.  The slot is free again when sweep s + 4 writes it: that waits
 * for sweep s to be 8 steps past the range's end, which moves by at most
 * two steps from one group to the next (below).
 *
 * Each step runs on the same data with the same aligned scratch as in the
 * sweeps schedule: the band comes out bit for bit the same whatever the
 * schedule and the number of threads (test_stages checks both). */
enum { HANDOFF_RING = 4 };

/* ---- the cuts between the ranges -----------------------------------------
 * Cut evenly, every thread has the same steps, and the pipeline runs at
 * the pace of its slowest thread: a slower core (a hybrid CPU's
 * efficiency core, one the hypervisor runs slower) holds up all the
 * others.  In the balanced schedule each cut moves instead, by a step,
 * toward the thread that waits less for the other: thread t, every
 * BALANCE_WINDOW groups, compares the time it waited for thread t+1 (at
 * its range's end, for the sweep before's first steps) with the time
 * thread t+1 waited for it (at its range's start) over those groups, and
 * moves the cut where, per group, they differ by more than two steps of
 * each of the group's sweeps (at its own mean step).  A smaller
 * difference is the schedule's own: the threads wait unequally even on
 * alike cores (the general chase's 31 and 14 ms of 0.24 s, cut evenly),
 * and equalized, that chase took 1.5% longer.  A cut stays within a
 * quarter of a range of the even one, so every range keeps at least half
 * of its steps, and ranges shorter than 4 steps are cut evenly.  Thread
 * t publishes each group's cut in its ring of CUT_RING; thread t+1 reads
 * it at its start of the group, which thread t cannot have passed by 3
 * groups (its last steps wait for thread t+1's first ones).  The even
 * cut moves by at most a step a group as the sweeps shorten, so a cut by
 * at most two a group.
 *
 * n = 4000, b = 64 on 2 cores here: in quiet minutes both threads wait
 * about as long (5-13 ms each of a 0.13-0.15 s chase), the cut stays
 * within a step of the even one and the chase takes as long as cut
 * evenly; with the second thread slowed by 0.5 us a step (a quarter),
 * 0.148-0.155 s against 0.168-0.180 s cut evenly, by 1 us (a half),
 * 0.171-0.189 s against 0.204-0.224 s. */

/* Thread t's published cut of group g (split_range): its slot in the
 * thread's ring, and the tag the value published for g starts from. */
static progress_slot *cut_slot(chase_job *job, int t, long group)
{
    return &job->threads[t].cut[group % CUT_RING];
}

static long cut_tag(long group) { return (group + 1) << 32; }

/* the first step of thread t's even range of a group whose first sweep
 * has steps0 steps */
static lapack_int range_start(lapack_int steps0, int t, int nthreads)
{
    return (lapack_int)((long)steps0 * t / nthreads);
}

/* Groups over which a cut's two threads' waits are compared. */
enum { BALANCE_WINDOW = 8 };

/* How far the cuts may move from the even ones: a quarter of a range. */
static lapack_int cut_limit(const chase_job *job, lapack_int steps0)
{
    lapack_int range = steps0 / job->nthreads;
    return job->schedule == GL_SCHEDULE_EVEN ? 0 : range / 4;
}

/* A split thread's own account: its cut's distance from the even one,
 * its waits, and its steps. */
typedef struct split_state {
    int t;
    long group; /* the next group it opens (split_range: the one it opens) */
    lapack_int delta;
    double start, waited_after, waited_before;
    double after_mark, next_mark; /* its own and the next thread's waits
                                     at the window's start */
    long window_start;            /* the group it started at */
    long steps;
    unsigned long long seed; /* shaken: the moves */
    /* thread 0: alone (until solo_until, or shaken, solo_group) for the
     * solo_times-th time, for solo_span seconds; its last look at the
     * team, and the looks in a row that found it short of cores */
    int solo, solo_times, shared_looks;
    double solo_until, solo_span, solo_wall, solo_cpu;
    long solo_group;
} split_state;

/* Waits as wait_for, and counts the time for the balance: on the thread
 * before (the first step of a range, a cut) or after (the sweep before's
 * steps past the range).  The first group's waits are the pipeline
 * filling, not a balance to correct. */
static int split_wait(chase_job *job, split_state *me, long group,
                      const progress_slot *slot, long need, int on_before)
{
    if (atomic_load_explicit(&slot->done, memory_order_acquire) >= need)
        return 1;
    double t0 = gl_now();
    int ok = wait_for(job, slot, need);
    if (group == 0)
        return ok;
    double waited = gl_now() - t0;
    if (!on_before) {
        me->waited_after += waited;
    } else {
        me->waited_before += waited;
        atomic_store_explicit(&job->threads[me->t].waited_before,
                              (long long)(me->waited_before * 1e9),
                              memory_order_relaxed);
    }
    return ok;
}

/* shaken: the next of thread me->t's random numbers (its moves and its
 * times alone) */
static unsigned long long shake(split_state *me)
{
    me->seed = me->seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return me->seed;
}

/* Seconds thread me->t+1 has waited for thread me->t (split_wait). */
static double next_waited(const chase_job *job, const split_state *me)
{
    return 1e-9 *
           (double)atomic_load_explicit(&job->threads[me->t + 1].waited_before,
                                        memory_order_relaxed);
}

/* The cut after thread me->t (not the last) for its next group of gn
 * sweeps, as its distance from the even cut, within lim. */
static lapack_int next_delta(chase_job *job, split_state *me, int gn,
                             lapack_int lim)
{
    int move = 0;
    if (job->schedule == GL_SCHEDULE_SHAKEN) {
        move = (int)((shake(me) >> 33) % 3) - 1;
    } else if (me->steps > 0 &&
               me->group - me->window_start >= BALANCE_WINDOW) {
        double busy =
            gl_now() - me->start - me->waited_after - me->waited_before;
        double unit = 2.0 * gn * busy / (double)me->steps;
        double next = next_waited(job, me);
        /* waited more for the next thread: it is the slower, take more */
        double lead =
            ((me->waited_after - me->after_mark) - (next - me->next_mark)) /
            (double)(me->group - me->window_start);
        move = lead > unit ? 1 : lead < -unit ? -1 : 0;
        me->after_mark = me->waited_after;
        me->next_mark = next;
        me->window_start = me->group;
    }
    lapack_int delta = me->delta + move;
    me->delta = delta > lim ? lim : delta < -lim ? -lim : delta;
    return me->delta;
}

/* ---- thread 0 alone while the team does not have its cores -------------
 * A pipeline needs each of its threads on a core of its own.  Beside a
 * busy process, or in a process held to fewer cores than it sees (a
 * container's CPU quota), the threads take turns instead, each woken by
 * the other's step: n = 4000, b = 64 with one busy process on the 2
 * cores here, 2 threads took 0.34-0.48 s against 0.24 s on one, and
 * together used one core (CPU time over wall time 0.99-1.01, against
 * 1.93-1.99 alone).  So thread 0 looks at the team's CPU time every
 * SOLO_CHECK seconds; where the threads together used less than
 * SOLO_CORES cores at SOLO_LOOKS looks in a row, the pipeline, a wake-up
 * at each handoff, runs near one thread's pace at best, and thread 0
 * runs every range of the groups alone for a time: SOLO_SPAN seconds,
 * twice as long each time after.
 * Quiet, short stretches look the same (another task on a core for a
 * few milliseconds: up to 7 looks in a row of 4 ms, in 1 of 50 chases),
 * hence a time alone and not the rest of the chase.
 *
 * Thread 0 publishes the group's cut with SOLO_MARK.  Each thread after
 * it, reading a marked cut, publishes its own marked (for the thread
 * after it), arrives in parked and waits for solo_end to pass the group:
 * the group at which thread 0 ends its time alone, once every thread
 * has arrived (then none has a cut left to read that thread 0 could
 * overwrite), and from which they go on.  Thread 0's first group alone
 * waits, through the sweeps' progress, for the others' group before; it
 * writes no handoff ring while alone, and the others have read theirs. */
#define SOLO_CHECK 2e-3
#define SOLO_CORES 1.5
#define SOLO_SPAN 16e-3
enum { SOLO_LOOKS = 3 };
/* a cut's bit that says thread 0 runs the group alone (steps < 2^31) */
#define SOLO_MARK (1L << 31)

/* What split_range and split_flights return. */
enum { SPLIT_FAILED, SPLIT_RUN, SPLIT_APART };

/* The team's CPU time in seconds since its threads started; < 0 while
 * a thread has not published its clock. */
static double team_cpu(chase_job *job)
{
    double sum = 0;
    for (int t = 0; t < job->nthreads; t++) {
        struct timespec ts;
        if (!atomic_load_explicit(&job->threads[t].clock_ready,
                                  memory_order_acquire) ||
            clock_gettime(job->threads[t].cpu_clock, &ts) != 0)
            return -1;
        sum += (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    return sum;
}

/* Whether thread 0 runs alone from its group me->group on, as above;
 * shaken (tests): at random, for one to three groups. */
static int starts_solo(chase_job *job, split_state *me)
{
    if (job->schedule == GL_SCHEDULE_SHAKEN) {
        unsigned long long r = shake(me);
        if (me->group == 0 || (r >> 33) % 8 != 0)
            return 0;
        me->solo_group = me->group + 1 + (long)((r >> 40) % 3);
        return 1;
    }
    if (job->schedule != GL_SCHEDULE_BALANCED)
        return 0;
    double now = gl_now();
    if (me->solo_wall > 0 && now - me->solo_wall < SOLO_CHECK)
        return 0;
    double cpu = team_cpu(job);
    if (cpu < 0)
        return 0;
    double cores = me->solo_wall > 0
                       ? (cpu - me->solo_cpu) / (now - me->solo_wall)
                       : SOLO_CORES;
    me->solo_wall = now;
    me->solo_cpu = cpu;
    me->shared_looks = cores < SOLO_CORES ? me->shared_looks + 1 : 0;
    if (me->shared_looks < SOLO_LOOKS)
        return 0;
    me->solo_span = me->solo_span > 0 ? 2 * me->solo_span : SOLO_SPAN;
    me->solo_until = now + me->solo_span;
    gl_log(3,
           "host chase: %d threads used %.2f cores; one alone from sweep "
           "%ld of %ld for %.0f ms",
           job->nthreads, cores, me->group * CHASE_GROUP, (long)job->nsweeps,
           1e3 * me->solo_span);
    return 1;
}

/* Thread 0's time alone ends at group: the others go on from there. */
static void resume_at(chase_job *job, long group)
{
    pthread_mutex_lock(&job->lock);
    atomic_store(&job->solo_end, group);
    pthread_cond_broadcast(&job->resumed);
    pthread_mutex_unlock(&job->lock);
}

/* A thread after thread 0, apart from group on: waits for the group
 * thread 0's time alone ends at, and returns it; -1 when another thread
 * failed. */
static long wait_apart(chase_job *job, long group)
{
    pthread_mutex_lock(&job->lock);
    while (atomic_load(&job->solo_end) <= group && !atomic_load(&job->failed))
        pthread_cond_wait(&job->resumed, &job->lock); /* resume_at, fail */
    pthread_mutex_unlock(&job->lock);
    return atomic_load(&job->failed) ? -1 : atomic_load(&job->solo_end);
}

/* Thread 0 ends its time alone at group me->group, once every other
 * thread has arrived; 0 when another thread failed. */
static int rejoin(chase_job *job, split_state *me)
{
    if (!wait_for(job, &job->parked,
                  (long)me->solo_times * (job->nthreads - 1)))
        return 0;
    me->solo = 0;
    me->solo_wall = 0;
    me->shared_looks = 0;
    /* the balance's window starts again */
    me->window_start = me->group;
    me->after_mark = me->waited_after;
    me->next_mark = next_waited(job, me);
    resume_at(job, me->group);
    return 1;
}

/* Thread me->t's range [*lo, *hi) of group me->group, whose first sweep
 * has steps0 steps, and the thread whose range starts at *hi (past empty
 * ones; P: none).  SPLIT_APART: thread 0 runs the group alone. */
static int split_range(chase_job *job, split_state *me, lapack_int steps0,
                       int gn, lapack_int *lo, lapack_int *hi, int *after)
{
    const int t = me->t, P = job->nthreads;
    if (me->solo) {
        int until = job->schedule == GL_SCHEDULE_SHAKEN
                        ? me->group < me->solo_group
                        : gl_now() < me->solo_until;
        if (until) {
            *lo = 0, *hi = steps0, *after = P;
            return SPLIT_RUN;
        }
        if (!rejoin(job, me))
            return SPLIT_FAILED;
    }
    lapack_int lim = cut_limit(job, steps0);
    if (lim == 0) { /* even: empty ranges where steps0 < P */
        me->delta = 0;
        *lo = range_start(steps0, t, P);
        *hi = range_start(steps0, t + 1, P);
        *after = t + 1;
        while (*after + 1 < P && range_start(steps0, *after + 1, P) == *hi)
            (*after)++;
        return SPLIT_RUN;
    }
    long tag = cut_tag(me->group);
    progress_slot *own = cut_slot(job, t, me->group);
    *lo = 0;
    if (t > 0) {
        const progress_slot *slot = cut_slot(job, t - 1, me->group);
        if (!split_wait(job, me, me->group, slot, tag, 1))
            return SPLIT_FAILED;
        long cut =
            atomic_load_explicit(&slot->done, memory_order_acquire) - tag;
        if (cut & SOLO_MARK) {
            if (t + 1 < P)
                publish(job, own, tag + SOLO_MARK);
            arrive(job, &job->parked);
            return SPLIT_APART;
        }
        *lo = (lapack_int)cut;
    }
    *after = t + 1;
    *hi = steps0;
    if (t == 0 && starts_solo(job, me)) {
        me->solo = 1;
        me->solo_times++;
        *after = P;
        publish(job, own, tag + SOLO_MARK);
    } else if (t + 1 < P) {
        *hi = range_start(steps0, t + 1, P) + next_delta(job, me, gn, lim);
        publish(job, own, tag + *hi);
    }
    return SPLIT_RUN;
}

/* ---- two groups in flight ------------------------------------------------
 * At the end of each group's range the threads take turns: the last two
 * steps of each of the group's sweeps wait for the next thread's first
 * steps of the sweep before, which that thread can run only once this
 * one has finished that sweep's range; and in strict wavefront order
 * the next thread's sweeps all wait behind the first of them that waits.
 * Two changes fill those turns:
 *  - within a group, a sweep whose next step is not ready does not hold
 *    up the sweeps before it (they do not wait for it): the thread runs
 *    the first ready step in wavefront order;
 *  - where no step of its group is ready, a thread runs the next group's
 *    ready steps (a second flight, opened once the thread before has
 *    published its cut unmarked), whose first steps wait only for this
 *    group's steps two and more before them, and goes back to the first
 *    group as soon as one of its steps is ready.
 * Each sweep's steps still run in order on a thread and every step waits
 * for the steps it waited for before, so the band is bit for bit the
 * same.  A Hermitian range's first step reads its ring slot s %
 * HANDOFF_RING, which the thread before writes again only at sweep s +
 * 4's range end: that waits, through the progress counters, for sweep s
 * to be past this thread's first step, whatever order the steps ran in.
 * n = 4000, b = 64 on 2 cores: the waits of the general chase's threads
 * went from 14-22 ms each of 0.22 s to 3-8 ms, the chase 0.196-0.208 s
 * against 0.206-0.237 in the same minutes (1 thread: 0.384); counted
 * with unit steps (tools/chase_model.py, overlap 2), 1.96x on 2 threads
 * against 1.91x, 6.66x on 8 against 6.15x. */

/* A group of gn sweeps from s0 in flight on a split thread: its range
 * [j0, j1) (the thread whose range starts at j1: after), the sweeps'
 * reflectors (Hermitian), and each sweep's next step. */
typedef struct split_flight {
    long group;
    lapack_int s0, prev_steps, j0, j1;
    int gn, after;
    lapack_int steps[CHASE_GROUP], next_step[CHASE_GROUP];
    gl_scalar tau[CHASE_GROUP];
    gl_scalar *v[CHASE_GROUP], *next[CHASE_GROUP];
} split_flight;

/* What flight_step returns. */
enum { STEP_FAILED, STEP_RAN, STEP_BLOCKED, STEP_DONE };

/* Opens group me->group in fl and moves me->group on: SPLIT_RUN, or as
 * split_range (me->group stays). */
static int flight_open(chase_job *job, split_state *me, split_flight *fl)
{
    fl->group = me->group;
    fl->s0 = (lapack_int)me->group * CHASE_GROUP;
    fl->gn = (int)min_i(CHASE_GROUP, job->nsweeps - fl->s0);
    for (int k = 0; k < fl->gn; k++) {
        fl->steps[k] = steps_of(job, fl->s0 + k);
        fl->tau[k] = 0;
    }
    fl->prev_steps = fl->s0 > 0 ? steps_of(job, fl->s0 - 1) : 0;
    int rc = split_range(job, me, fl->steps[0], fl->gn, &fl->j0, &fl->j1,
                         &fl->after);
    for (int k = 0; k < fl->gn; k++)
        fl->next_step[k] = fl->j0;
    if (rc == SPLIT_RUN)
        me->group++;
    return rc;
}

/* Whether group me->group can open as a second flight now: it exists,
 * thread 0 is not alone, and the thread before has published its cut
 * unmarked (reading it then does not wait, nor park this thread). */
static int flight_ahead(chase_job *job, const split_state *me, long groups)
{
    if (me->group >= groups || me->solo)
        return 0;
    lapack_int steps0 = steps_of(job, (lapack_int)me->group * CHASE_GROUP);
    if (me->t == 0 || cut_limit(job, steps0) == 0)
        return 1;
    long tag = cut_tag(me->group),
         cut = atomic_load_explicit(&cut_slot(job, me->t - 1, me->group)->done,
                                    memory_order_acquire);
    return cut >= tag && !((cut - tag) & SOLO_MARK);
}

/* Whether the next step j of fl's k-th sweep has what it waits for:
 * step j+2 of the sweep before, and at the range's first step the step
 * before (the thread before's).  With wait, waits for them: 0 only when
 * another thread failed. */
static int flight_ready(chase_job *job, split_state *me,
                        const split_flight *fl, int k, int wait)
{
    lapack_int s = fl->s0 + k, j = fl->next_step[k];
    long need = min_i(j + 3, k > 0 ? fl->steps[k - 1] : fl->prev_steps);
    const progress_slot *before = s > 0 ? &job->progress[s - 1] : NULL,
                        *own = j == fl->j0 && j > 0 ? &job->progress[s] : NULL;
    if (wait)
        return (!before || split_wait(job, me, fl->group, before, need, 0)) &&
               (!own || split_wait(job, me, fl->group, own, j, 1));
    return (!before || atomic_load_explicit(&before->done,
                                            memory_order_acquire) >= need) &&
           (!own ||
            atomic_load_explicit(&own->done, memory_order_acquire) >= j);
}

/* Runs one step of fl: the first in wavefront order (round j - j0 + 2k
 * of its k-th sweep, then k) that is ready, or, with wait, the first
 * once ready.  STEP_RAN, STEP_DONE (no step left), STEP_BLOCKED (no
 * step ready, wait 0) or STEP_FAILED (another thread failed). */
static int flight_step(chase_job *job, split_state *me, split_flight *fl,
                       gl_scalar *w, int wait)
{
    lapack_int round[CHASE_GROUP];
    int left = 0;
    for (int k = 0; k < fl->gn; k++) {
        lapack_int j = fl->next_step[k];
        round[k] =
            j < min_i(fl->j1, fl->steps[k]) ? j - fl->j0 + CHASE_LAG * k : -1;
        left += round[k] >= 0;
    }
    int k = -1;
    for (; left > 0; left--) { /* the sweeps in wavefront order */
        k = -1;
        for (int i = 0; i < fl->gn; i++)
            if (round[i] >= 0 && (k < 0 || round[i] < round[k]))
                k = i;
        if (flight_ready(job, me, fl, k, wait))
            break;
        if (wait) /* another thread failed */
            return STEP_FAILED;
        round[k] = -1;
    }
    if (k < 0)
        return STEP_DONE;
    if (left == 0)
        return STEP_BLOCKED;
    lapack_int s = fl->s0 + k, j = fl->next_step[k];
    if (job->hermitian) {
        const int t = me->t;
        const size_t vec = job->vec, slot = (size_t)(s % HANDOFF_RING);
        gl_scalar **v = fl->v, **next = fl->next, *tau = fl->tau;
        if (j == fl->j0 && j > 0) {
            memcpy(v[k],
                   job->handoff + ((size_t)t * HANDOFF_RING + slot) * vec,
                   sizeof *v[k] * vec);
            tau[k] = job->handoff_tau[(size_t)t * HANDOFF_RING + slot];
        } else if (j == 0) {
            tau[k] = sb_first_reflector(job, s, v[k]);
        }
        tau[k] = sb_step(job, s, j, v[k], tau[k], next[k], w);
        gl_scalar *swap = v[k];
        v[k] = next[k], next[k] = swap;
        /* the ring of the thread whose range starts at j1 */
        if (j + 1 == fl->j1 && j + 1 < fl->steps[k] &&
            fl->after < job->nthreads) {
            size_t to = (size_t)fl->after * HANDOFF_RING + slot;
            memcpy(job->handoff + to * vec, v[k], sizeof *v[k] * vec);
            job->handoff_tau[to] = tau[k];
        }
    } else {
        gb_step(job, s, j, fl->v[k], w);
    }
    publish(job, &job->progress[s], j + 1);
    fl->next_step[k] = j + 1;
    me->steps++;
    return STEP_RAN;
}

/* Thread me->t's groups from me->group on, up to groups, with a second
 * flight where the first's next step is not ready: SPLIT_RUN (all ran),
 * SPLIT_FAILED, or SPLIT_APART (thread 0 runs me->group alone). */
static int split_flights(chase_job *job, split_state *me, split_flight *fl,
                         long groups, gl_scalar *w)
{
    split_flight *run = &fl[0], *ahead = &fl[1];
    int ahead_open = 0;
    for (;;) {
        if (ahead_open) { /* the second flight goes first now */
            split_flight *swap = run;
            run = ahead, ahead = swap;
            ahead_open = 0;
        } else if (me->group < groups) {
            int rc = flight_open(job, me, run);
            if (rc != SPLIT_RUN)
                return rc;
        } else {
            return SPLIT_RUN;
        }
        for (;;) {
            int rc = flight_step(job, me, run, w, 0);
            if (rc == STEP_RAN)
                continue;
            if (rc == STEP_DONE)
                break;
            if (rc == STEP_FAILED)
                return SPLIT_FAILED;
            if (!ahead_open && flight_ahead(job, me, groups)) {
                if (flight_open(job, me, ahead) != SPLIT_RUN)
                    return SPLIT_FAILED;
                ahead_open = 1;
            }
            if (ahead_open) {
                rc = flight_step(job, me, ahead, w, 0);
                if (rc == STEP_RAN)
                    continue;
                if (rc == STEP_FAILED)
                    return SPLIT_FAILED;
            }
            rc = flight_step(job, me, run, w, 1);
            if (rc == STEP_FAILED)
                return SPLIT_FAILED;
            if (rc == STEP_DONE)
                break;
        }
    }
}

static int split_worker(void *arg, long t)
{
    chase_job *job = arg;
    const size_t per_sweep = 2 * job->vec;
    size_t bytes = sizeof(gl_scalar) *
                   (2 * CHASE_GROUP * per_sweep + 2 * (size_t)job->b + 1);
    gl_scalar *scratch = aligned_alloc(
        GL_LINE_BYTES, (bytes + GL_LINE_BYTES - 1) / GL_LINE_BYTES *
                           GL_LINE_BYTES);
    if (!scratch) {
        /* every range is needed: the others must not wait for this one */
        fail(job);
        return -1;
    }
    split_flight flights[2];
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < CHASE_GROUP; k++) {
            flights[f].v[k] =
                scratch + (size_t)(f * CHASE_GROUP + k) * per_sweep;
            flights[f].next[k] = flights[f].v[k] + job->vec;
        }
    gl_scalar *w = scratch + 2 * CHASE_GROUP * per_sweep;
    split_thread *own = &job->threads[t];
    if (pthread_getcpuclockid(pthread_self(), &own->cpu_clock) == 0)
        atomic_store_explicit(&own->clock_ready, 1, memory_order_release);
    split_state me = {.t = (int)t,
                      .start = gl_now(),
                      .seed =
                          0x9e3779b97f4a7c15ULL * (unsigned long long)(t + 1)};
    const long groups = (job->nsweeps + CHASE_GROUP - 1) / CHASE_GROUP;
    /* SPLIT_APART: thread 0 runs alone, on from the group where it stops */
    while (split_flights(job, &me, flights, groups, w) == SPLIT_APART) {
        double parked = gl_now();
        me.group = wait_apart(job, me.group);
        if (me.group < 0)
            break;
        me.start += gl_now() - parked;
    }
    if (me.solo) /* the others go on from the end */
        resume_at(job, groups);
    free(scratch);
    return 0;
}

/* The sweeps schedule on nworkers threads: 0 when every sweep ran (a
 * worker without scratch claims none). */
static int run_sweeps(chase_job *job, int nworkers)
{
    gl_parallel_run(nworkers, nworkers, chase_worker, job);
    return atomic_load(&job->next_group) * CHASE_GROUP >= job->nsweeps ? 0
                                                                       : -1;
}

/* The split schedule: every range has its thread.  A thread that cannot
 * start would leave the others waiting, so the ranges are as many as
 * threads started (gl_parallel_run starts them all or runs the rest on
 * the caller, one range after the other, which waits: split only where
 * each range can have a thread of its own). */
static int run_split(chase_job *job, int nworkers)
{
    const size_t line = GL_LINE_BYTES / sizeof(gl_scalar);
    job->nthreads = nworkers;
    job->vec = ((size_t)job->b + 1 + line - 1) / line * line;
    size_t rings = (size_t)nworkers * HANDOFF_RING;
    size_t ring_bytes = sizeof(gl_scalar) * rings * (job->vec + 1);
    job->handoff =
        aligned_alloc(GL_LINE_BYTES, (ring_bytes + GL_LINE_BYTES - 1) /
                                         GL_LINE_BYTES * GL_LINE_BYTES);
    if (!job->handoff)
        return -1;
    job->handoff_tau = job->handoff + rings * job->vec;
    job->threads = aligned_alloc(64, sizeof *job->threads * (size_t)nworkers);
    if (!job->threads) {
        free(job->handoff);
        return -1;
    }
    for (int t = 0; t < nworkers; t++) {
        for (int g = 0; g < CUT_RING; g++)
            atomic_init(&job->threads[t].cut[g].done, 0);
        atomic_init(&job->threads[t].waited_before, 0);
        atomic_init(&job->threads[t].clock_ready, 0);
    }
    atomic_init(&job->solo_end, 0);
    atomic_init(&job->parked.done, 0);
    int rc = gl_parallel_spawn(nworkers, split_worker, job);
    free(job->threads);
    free(job->handoff);
    /* the threads did not all start, and nothing ran: the sweeps
     * schedule takes any number of them */
    if (rc != 0 && !atomic_load(&job->failed))
        rc = run_sweeps(job, nworkers);
    return rc;
}

/* threads <= 0: as the context's tuning and the size choose (threads.h;
 * tuning NULL: one thread); schedule: tune.h GL_SCHEDULE_* */
static int run_chase(chase_job *job, const gl_tuning *tuning, int threads,
                     int schedule)
{
    /* The sweeps that have work form a prefix: stop there. */
    while (job->nsweeps > 0 && steps_of(job, job->nsweeps - 1) == 0)
        job->nsweeps--;
    if (job->nsweeps <= 0)
        return 0;
    if (threads <= 0) {
        schedule = tuning ? tuning->chase_schedule : GL_SCHEDULE_BALANCED;
        threads = tuning
                      ? gl_host_chase_threads(tuning, job->n, job->b,
                                              schedule != GL_SCHEDULE_SWEEPS)
                      : 1;
    }
    int nworkers = threads < GL_HOST_MAX_THREADS ? threads
                                                 : GL_HOST_MAX_THREADS;

    job->progress = aligned_alloc(64, sizeof *job->progress *
                                          (size_t)job->nsweeps);
    if (!job->progress)
        return -1;
    for (lapack_int s = 0; s < job->nsweeps; s++)
        atomic_init(&job->progress[s].done, 0);
    atomic_init(&job->next_group, 0);
    atomic_init(&job->failed, 0);
    atomic_init(&job->sleepers, 0);
    pthread_mutex_init(&job->lock, NULL);
    pthread_cond_init(&job->moved, NULL);
    pthread_cond_init(&job->resumed, NULL);
    job->schedule = schedule;
    int rc = schedule != GL_SCHEDULE_SWEEPS && nworkers >= 2
                 ? run_split(job, nworkers)
                 : run_sweeps(job, nworkers);
    pthread_cond_destroy(&job->moved);
    pthread_cond_destroy(&job->resumed);
    pthread_mutex_destroy(&job->lock);
    free(job->progress);
    return rc;
}

/* A band chase's job (threads <= 0: as tuning chooses, run_chase). */
static int gb_chase(const gl_tuning *tuning, lapack_int n, lapack_int b,
                    lapack_int c, lapack_int sweeps, gl_scalar *band,
                    lapack_int ldband, const GL_FN(reflectors) *keep,
                    int threads, int schedule)
{
    if (keep && c != 1)
        return -1;
    if (b <= c)   /* already of half-width c: nothing to chase or keep */
        return 0;
    chase_job job = {.n = n, .b = b, .c = c, .ld = ldband,
                     .up = (ldband - 1) / 3 * 2, .band = band,
                     .nsweeps = min_i(sweeps, n - 1), .hermitian = 0,
                     .keep = keep};
    return run_chase(&job, tuning, threads, schedule);
}

static int sb_chase(const gl_tuning *tuning, lapack_int n, lapack_int b,
                    lapack_int sweeps, gl_scalar *band, lapack_int ldband,
                    const GL_FN(reflectors) *keep, int threads, int schedule)
{
    if (b <= 1)   /* already tridiagonal */
        return 0;
    chase_job job = {.n = n, .b = b, .c = 1, .ld = ldband, .up = 0,
                     .band = band, .nsweeps = min_i(sweeps, n - 2),
                     .hermitian = 1, .keep = keep};
    return run_chase(&job, tuning, threads, schedule);
}

/* gl_s_host_gb_chase gl_d_host_gb_chase gl_c_host_gb_chase gl_z_host_gb_chase */
int GL_FN(host_gb_chase)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                         lapack_int c, lapack_int sweeps, gl_scalar *band,
                         lapack_int ldband, const GL_FN(reflectors) *keep)
{
    return gb_chase(&ops->ctx->tuning, n, b, c, sweeps, band, ldband, keep, 0,
                    GL_SCHEDULE_BALANCED);
}

/* gl_s_host_sb_chase gl_d_host_sb_chase gl_c_host_sb_chase gl_z_host_sb_chase */
int GL_FN(host_sb_chase)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                         lapack_int sweeps, gl_scalar *band, lapack_int ldband,
                         const GL_FN(reflectors) *keep)
{
    return sb_chase(&ops->ctx->tuning, n, b, sweeps, band, ldband, keep, 0,
                    GL_SCHEDULE_BALANCED);
}

/* gl_s_host_gb_chase_on gl_d_host_gb_chase_on gl_c_host_gb_chase_on gl_z_host_gb_chase_on */
int GL_FN(host_gb_chase_on)(lapack_int n, lapack_int b, lapack_int c,
                            lapack_int sweeps, gl_scalar *band,
                            lapack_int ldband, const GL_FN(reflectors) *keep,
                            int threads, int schedule)
{
    return gb_chase(NULL, n, b, c, sweeps, band, ldband, keep, threads,
                    schedule);
}

/* gl_s_host_sb_chase_on gl_d_host_sb_chase_on gl_c_host_sb_chase_on gl_z_host_sb_chase_on */
int GL_FN(host_sb_chase_on)(lapack_int n, lapack_int b, lapack_int sweeps,
                            gl_scalar *band, lapack_int ldband,
                            const GL_FN(reflectors) *keep, int threads,
                            int schedule)
{
    return sb_chase(NULL, n, b, sweeps, band, ldband, keep, threads, schedule);
}
