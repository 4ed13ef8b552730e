/* The GPU table's stage 2 (part of gpu_ops): the bulge chasing of
 * kernels/device/chase.h, per wavefront or in one launch. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "../../../runtime/precision.h"
#include "../../../runtime/fault.h"
#include "../../../runtime/log.h"
#include "../../../runtime/profile.h"
#include "launch.h"

/* ---- stage 2: one launch per wavefront (kernels/device/chase.h) ---- */

/* The reflector store's group starts, uploaded for the kernels. */
static int *upload_first(const GL_FN(ops) *ops, const GL_FN(reflectors) *keep)
{
    if (!keep)
        return NULL;
    int *dev =
        RT(ops)->alloc(ops->ctx, sizeof *dev * (size_t)(keep->ngroups + 1));
    if (dev && RT(ops)->write(ops->ctx, sizeof *dev, (size_t)keep->ngroups + 1,
                              1, keep->first, (size_t)keep->ngroups + 1, dev,
                              (size_t)keep->ngroups + 1) != 0) {
        RT(ops)->release(ops->ctx, dev);
        return NULL;
    }
    return dev;
}

/* The wavefronts lambda = 3 s + j of sweeps 0 .. nsweeps-1 with steps(s)
 * steps each; each launch gets the range of sweeps that can have a task
 * and the kernel skips the others. */
typedef struct wave_args {
    gl_kernel kernel;
    gl_arg *args;
    int nargs, lambda_slot, s_first_slot;
} wave_args;

static int launch_waves(const GL_FN(ops) *ops, lapack_int nsweeps,
                        lapack_int steps0, wave_args *w,
                        lapack_int (*steps)(lapack_int s, const lapack_int *p),
                        const lapack_int *p)
{
    while (nsweeps > 0 && steps(nsweeps - 1, p) == 0)
        nsweeps--;
    if (nsweeps == 0)
        return 0;
    lapack_int last = 0;   /* the last wavefront with a task */
    for (lapack_int s = 0; s < nsweeps; s++) {
        lapack_int end = 3 * s + steps(s, p) - 1;
        last = end > last ? end : last;
    }
    for (int lambda = 0; lambda <= last; lambda++) {
        /* sweep s has task j = lambda - 3s when 0 <= j < steps(s) <= steps0 */
        int s_hi = lambda / 3 < nsweeps - 1 ? lambda / 3 : (int)nsweeps - 1;
        int s_lo = lambda - (int)steps0 + 1 > 0
                       ? (lambda - (int)steps0 + 1 + 2) / 3
                       : 0;
        if (s_lo > s_hi)
            continue;
        /* the tasks of one wavefront are independent: any split works */
        long max = ops->ctx->tuning.max_groups;
        for (int s0 = s_lo; s0 <= s_hi;) {
            int count = s_hi - s0 + 1, slot_l = lambda, slot_s = s0;
            if (max > 0 && max < count)
                count = (int)max;
            w->args[w->lambda_slot] = VAL(slot_l);
            w->args[w->s_first_slot] = VAL(slot_s);
            if (launch_groups(ops, w->kernel, (size_t)count, w->nargs, w->args))
                return -1;
            s0 += count;
        }
    }
    return 0;
}

/* The launches as one batch where the runtime records them (a graph). */
static int run_waves(const GL_FN(ops) *ops, lapack_int nsweeps,
                     lapack_int steps0, wave_args *w,
                     lapack_int (*steps)(lapack_int s, const lapack_int *p),
                     const lapack_int *p)
{
    const gl_gpu *gpu = RT(ops);
    if (!gpu->batch_begin)
        return launch_waves(ops, nsweeps, steps0, w, steps, p);
    gpu->batch_begin(ops->ctx, GL_PRECISION);
    int rc = launch_waves(ops, nsweeps, steps0, w, steps, p);
    return gpu->batch_end(ops->ctx) != 0 ? -1 : rc;
}

/* Work-groups of the one-launch chase (kernels/device/chase.h), 0 for one
 * launch per wavefront: GPULAPACK_CHASE_GROUPS, else one per
 * multiprocessor where the runtime promises that a running work-group
 * keeps running (CUDA, HIP) and waves on OpenCL; no more than there are
 * sweeps. */
static long chase_groups(const GL_FN(ops) *ops, lapack_int nsweeps)
{
    long groups = ops->ctx->tuning.chase_groups;
    if (groups < 0)
        groups =
            RT(ops)->resident_groups ? RT(ops)->resident_groups(ops->ctx) : 0;
    return groups < nsweeps ? groups : nsweeps;
}

/* The window chases' widest band (chase.h WIN_B for the Hermitian one,
 * GB_WIN_B for the general one: 32, 16 for the general one in complex
 * double; half that on an OpenCL device with less than 48 KB of local
 * memory, whose kernels are built with CHASE_SMALL_LOCAL) and largest
 * work-group (WIN_THREADS). */
static int window_band(const GL_FN(ops) *ops, int hermitian)
{
    unsigned long long local = ops->ctx->info ? ops->ctx->info->local_memory : 0;
    int b = hermitian || GL_PRECISION != 4 ? 32 : 16;
    return local > 0 && local < 48 * 1024 ? b / 2 : b;
}
enum { WIN_THREADS = GL_PRECISION == 4 ? 128 : 256 };

/* The window kernel for a chase of half-width b, when it applies: the
 * chase runs in one launch (groups > 0) and the context asks for it. */
static int use_window(const GL_FN(ops) *ops, long groups, lapack_int b,
                      int hermitian)
{
    return groups > 0 && ops->ctx->tuning.chase_kernel == GL_CHASE_WINDOW &&
           b <= window_band(ops, hermitian);
}

/* Work-items of the window kernels' work-groups. */
static size_t window_threads(const GL_FN(ops) *ops)
{
    size_t local = chase_threads(ops);
    return local < WIN_THREADS ? local : WIN_THREADS;
}

/* The traffic the window chase's work-groups counted (chase.h win_state:
 * values read and written in the band, steps), into the profile as
 * chase_read and chase_written rows: their calls are the steps, their
 * bytes the band's bytes moved. */
static void chase_traffic(const GL_FN(ops) *ops, const int *counts,
                          long groups)
{
    unsigned *c = malloc(sizeof *c * 3 * (size_t)groups);
    if (c && RT(ops)->read(ops->ctx, sizeof *c, 3 * (size_t)groups, 1, counts,
                           3 * (size_t)groups, c, 3 * (size_t)groups) == 0) {
        double read = 0, written = 0;
        long steps = 0;
        for (long g = 0; g < groups; g++) {
            read += c[3 * g];
            written += c[3 * g + 1];
            steps += c[3 * g + 2];
        }
        gl_profile_count(ops->ctx, "chase_read", steps, read * ES);
        gl_profile_count(ops->ctx, "chase_written", steps, written * ES);
    }
    free(c);
}

/* The chase in one launch of kernel k over groups work-groups of local
 * work-items: args holds the progress counters at progress_slot (zeroed
 * here) and, at counts_slot (-1: none), 3 counters per work-group
 * (chase_traffic); -1 when a wait timed out (the kernel's failure
 * flag). */
static int run_all(const GL_FN(ops) *ops, gl_kernel k, gl_arg *args, int nargs,
                   int progress_slot, int counts_slot, long groups,
                   lapack_int nsweeps, size_t local)
{
    size_t count = (size_t)nsweeps + 2,
           extra = counts_slot >= 0 ? 3 * (size_t)groups : 0;
    int *progress =
        RT(ops)->alloc(ops->ctx, sizeof *progress * (count + extra));
    int *zeros = calloc(count + extra, sizeof *zeros);
    int failed = 1;
    if (zeros && gl_fault_hit(GL_FAULT_WAIT))
        zeros[0] = 1;   /* the tests: as if a wait had timed out */
    size_t blocks = (size_t)groups;
    args[progress_slot] = GL_MEM(progress, sizeof *progress);
    if (counts_slot >= 0)
        args[counts_slot] =
            GL_MEM(progress ? progress + count : NULL, sizeof *progress);
    int rc = !progress || !zeros ||
             RT(ops)->write(ops->ctx, sizeof *progress, count + extra, 1,
                            zeros, count + extra, progress,
                            count + extra) != 0 ||
             RT(ops)->launch(ops->ctx, GL_PRECISION, k, 1, &blocks, &local,
                             nargs, args) != 0 ||
             RT(ops)->read(ops->ctx, sizeof failed, 1, 1, progress, 1, &failed,
                           1) != 0;
    if (rc == 0 && !failed && extra && gl_profile_clock(ops->ctx) != 0)
        chase_traffic(ops, progress + count, groups);
    free(zeros);
    RT(ops)->release(ops->ctx, progress);
    if (rc == 0 && failed)
        gl_log(1, "%s: a wait of the bulge chasing timed out (%ld work-groups)",
               RT(ops)->name, groups);
    return rc || failed ? -1 : 0;
}

static lapack_int gb_steps(lapack_int s, const lapack_int *p)
{
    lapack_int n = p[0], b = p[1], c = p[2];
    return s + c > n - 2 ? 0 : (n - 2 - s - c) / b + 1;
}

static lapack_int sb_steps(lapack_int s, const lapack_int *p)
{
    lapack_int n = p[0], b = p[1];
    return s + 2 > n - 1 ? 0 : (n - 3 - s) / b + 1;
}

/* The sweeps a chase of n - first sweeps runs under a limit (ops.h). */
static lapack_int sweeps_run(lapack_int all, lapack_int sweeps)
{
    return sweeps < all ? (sweeps > 0 ? sweeps : 0) : all;
}

/* gl_s_dev_gb_chase gl_d_dev_gb_chase gl_c_dev_gb_chase gl_z_dev_gb_chase */
int GL_FN(dev_gb_chase)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                        lapack_int c, lapack_int sweeps, gl_scalar *band,
                        lapack_int ldband, const GL_FN(reflectors) *keep)
{
    if (b > CHASE_MAX || (keep && c != 1))
        return -1;
    if (b <= c)   /* already of half-width c (as the host's chase) */
        return 0;
    int *first = upload_first(ops, keep);
    if (keep && !first)
        return -1;
    int kept = keep != NULL, group = keep ? keep->group : 1,
        keep_b = keep ? keep->b : 0, lambda = 0, s_first = 0;
    lapack_int run = sweeps_run(n - 1, sweeps);
    long groups = chase_groups(ops, run);
    int nsweeps = (int)run;
    if (use_window(ops, groups, b, 0)) {
        gl_arg win[] = {VAL(n),        VAL(b),        VAL(c),
                        MEM(band),     VAL(ldband),   VAL(nsweeps),
                        GL_MEM(NULL, sizeof(int)),    GL_MEM(NULL, sizeof(int)),
                        VAL(kept),     VAL(group),    VAL(keep_b),
                        GL_MEM(first, sizeof *first),
                        MEM(keep ? keep->vq : NULL),  MEM(keep ? keep->tauq : NULL),
                        MEM(keep ? keep->vp : NULL),  MEM(keep ? keep->taup : NULL)};
        int rc = run_all(ops, GL_K_GB_CHASE_WINDOW, win, NARGS(win), 6, 7,
                         groups, run, window_threads(ops));
        RT(ops)->release(ops->ctx, first);
        return rc;
    }
    if (groups > 0) {
        gl_arg all[] = {VAL(n),        VAL(b),        VAL(c),
                        MEM(band),     VAL(ldband),   VAL(nsweeps),
                        GL_MEM(NULL, sizeof(int)),    VAL(kept),
                        VAL(group),    VAL(keep_b),   GL_MEM(first, sizeof *first),
                        MEM(keep ? keep->vq : NULL),  MEM(keep ? keep->tauq : NULL),
                        MEM(keep ? keep->vp : NULL),  MEM(keep ? keep->taup : NULL)};
        int rc =
            run_all(ops, GL_K_GB_CHASE_ALL, all, NARGS(all), 6, -1, groups,
                    run, chase_threads(ops));
        RT(ops)->release(ops->ctx, first);
        return rc;
    }
    gl_arg args[] = {VAL(n),        VAL(b),      VAL(c),
                     MEM(band),     VAL(ldband), VAL(lambda),
                     VAL(s_first),  VAL(kept),   VAL(group),
                     VAL(keep_b),   GL_MEM(first, sizeof *first),
                     MEM(keep ? keep->vq : NULL),
                     MEM(keep ? keep->tauq : NULL),
                     MEM(keep ? keep->vp : NULL),
                     MEM(keep ? keep->taup : NULL)};
    wave_args w = {GL_K_GB_CHASE, args, NARGS(args), 5, 6};
    lapack_int p[3] = {n, b, c};
    int rc = run_waves(ops, run, gb_steps(0, p), &w, gb_steps, p);
    RT(ops)->release(ops->ctx, first);
    return rc;
}

/* gl_s_dev_sb_chase gl_d_dev_sb_chase gl_c_dev_sb_chase gl_z_dev_sb_chase */
int GL_FN(dev_sb_chase)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                        lapack_int sweeps, gl_scalar *band, lapack_int ldband,
                        const GL_FN(reflectors) *keep)
{
    if (b > CHASE_MAX)
        return -1;
    if (b <= 1)
        return 0;
    int *first = upload_first(ops, keep);
    if (keep && !first)
        return -1;
    int kept = keep != NULL, group = keep ? keep->group : 1,
        keep_b = keep ? keep->b : 0, lambda = 0, s_first = 0;
    lapack_int run = sweeps_run(n - 2, sweeps);
    long groups = chase_groups(ops, run);
    int nsweeps = (int)run;
    if (use_window(ops, groups, b, 1)) {
        gl_arg win[] = {VAL(n),       VAL(b),       MEM(band),
                        VAL(ldband),  VAL(nsweeps), GL_MEM(NULL, sizeof(int)),
                        GL_MEM(NULL, sizeof(int)),  VAL(kept),
                        VAL(group),   VAL(keep_b),
                        GL_MEM(first, sizeof *first),
                        MEM(keep ? keep->vq : NULL),
                        MEM(keep ? keep->tauq : NULL)};
        int rc = run_all(ops, GL_K_SB_CHASE_WINDOW, win, NARGS(win), 5, 6,
                         groups, run, window_threads(ops));
        RT(ops)->release(ops->ctx, first);
        return rc;
    }
    if (groups > 0) {
        gl_arg all[] = {VAL(n),       VAL(b),       MEM(band),
                        VAL(ldband),  VAL(nsweeps), GL_MEM(NULL, sizeof(int)),
                        VAL(kept),    VAL(group),   VAL(keep_b),
                        GL_MEM(first, sizeof *first),
                        MEM(keep ? keep->vq : NULL),
                        MEM(keep ? keep->tauq : NULL)};
        int rc =
            run_all(ops, GL_K_SB_CHASE_ALL, all, NARGS(all), 5, -1, groups,
                    run, chase_threads(ops));
        RT(ops)->release(ops->ctx, first);
        return rc;
    }
    gl_arg args[] = {VAL(n),       VAL(b),      MEM(band),
                     VAL(ldband),  VAL(lambda), VAL(s_first),
                     VAL(kept),    VAL(group),  VAL(keep_b),
                     GL_MEM(first, sizeof *first),
                     MEM(keep ? keep->vq : NULL),
                     MEM(keep ? keep->tauq : NULL)};
    wave_args w = {GL_K_SB_CHASE, args, NARGS(args), 4, 5};
    lapack_int p[2] = {n, b};
    int rc = run_waves(ops, run, sb_steps(0, p), &w, sb_steps, p);
    RT(ops)->release(ops->ctx, first);
    return rc;
}
