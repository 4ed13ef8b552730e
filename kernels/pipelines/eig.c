/* The Hermitian eigenproblem by the two-stage reduction: dense -> band
 * (sy2sb), band -> tridiagonal (bulge chasing), tridiagonal -> values
 * (the system ?sterf, or ?stebz for a subset) or values and vectors (the
 * stage-3 routine of each driver, kernels/stages/tridiag_vectors.c),
 * then the vectors back through the two stages
 * (kernels/stages/tridiag_q.c).  The scaling follows the ?syev family.
 * A call runs by the steps of its memory tier (eig_call.h eig_tier, the
 * plan's tier as the policy chose it): in core, here; the lean plan of
 * the vectors and the streamed plans (eig_streamed.c). */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/memory.h"
#include "../../runtime/parallel.h"
#include "../../runtime/profile.h"
#include "../../runtime/tune.h"
#include "../arena.h"
#include "eig_call.h"

/* max |a_ij| of a column range, for max_abs */
typedef struct max_abs_job {
    char part;
    lapack_int m, n;
    const gl_scalar *a;
    lapack_int lda;
    int real_diagonal;
    gl_real *partial;   /* one per item */
} max_abs_job;

enum { MAX_ABS_COLUMNS = 64 };

static int max_abs_columns(void *ctx, long item)
{
    const max_abs_job *w = ctx;
    gl_real big = 0;
    lapack_int j0 = (lapack_int)item * MAX_ABS_COLUMNS;
    for (lapack_int j = j0; j < j0 + MAX_ABS_COLUMNS && j < w->n; j++) {
        lapack_int i0 = w->part == 'L' ? j : 0,
                   i1 = w->part == 'U' ? (j + 1 < w->m ? j + 1 : w->m) : w->m;
        for (lapack_int i = i0; i < i1; i++) {
            gl_scalar x = w->a[i + (size_t)j * w->lda];
            gl_real v = i == j && w->real_diagonal ? GL_R(fabs)(GL_REAL(x))
                                                   : GL_ABS(x);
            if (!(v <= big) && !isnan(big))
                big = v;   /* a NaN, once seen, stays */
        }
    }
    w->partial[item] = big;
    return 0;
}

/* gl_s_max_abs gl_d_max_abs gl_c_max_abs gl_z_max_abs */
gl_real GL_FN(max_abs)(char part, lapack_int m, lapack_int n,
                       const gl_scalar *a, lapack_int lda, int real_diagonal)
{
    long items = (n + MAX_ABS_COLUMNS - 1) / MAX_ABS_COLUMNS;
    gl_real *partial = malloc(sizeof *partial * (size_t)(items > 0 ? items : 1));
    max_abs_job w = {part, m, n, a, lda, real_diagonal, partial};
    gl_real big = 0;
    if (!partial || gl_parallel_for(items, max_abs_columns, &w) != 0) {
        free(partial);
        return NAN;   /* the caller's call goes to LAPACK */
    }
    for (long i = 0; i < items; i++)
        if (!(partial[i] <= big) && !isnan(big))
            big = partial[i];
    free(partial);
    return big;
}

/* Eigenvalues of the tridiagonal (d, e) below x: the negative pivots of
 * T - x I (Sturm), as ?stebz counts them. */
static lapack_int count_below(lapack_int n, const gl_real *d,
                              const gl_real *e, gl_real x, gl_real pivmin)
{
    lapack_int count = 0;
    gl_real pivot = 1;
    for (lapack_int i = 0; i < n; i++) {
        gl_real off = i > 0 ? e[i - 1] * e[i - 1] / pivot : 0;
        pivot = d[i] - x - off;
        if (GL_R(fabs)(pivot) < pivmin)
            pivot = -pivmin;
        count += pivot < 0;
    }
    return count;
}

/* Whether a device finds the eigenvectors of ?syevr's subset (RANGE 'V'
 * or 'I') of the tridiagonal (d, e) of the matrix scaled by sigma faster
 * by the whole divide and conquer, then a selection, than the host by
 * bisection and inverse iteration.
 * A subset of m of the n eigenvectors costs the host ?stein (O(nm),
 * more in clusters) and the QR that reorthogonalizes them (4nm^2 flops,
 * tridiagonal_vectors), and the bus n m values; the whole divide and
 * conquer on a device costs about the same at any m (its products, ~n^3
 * flops at the device's rate: 0.1-0.2 s at n = 8192 on an H200,
 * docs/design/stage3-host-work.md) and the selected columns are already there.  With
 * ~0.2 Tflop/s for the host's QR of tall panels, the two meet near m =
 * n/8 at n = 8192 (4 n m^2 = 0.2 s at m ~ 1100), and the device's share
 * only falls with n, so from m = n/8 on the device does it all. */
static int subset_by_dc(const gl_eig_job *job, lapack_int n, const gl_real *d,
                        const gl_real *e, gl_real sigma)
{
    lapack_int m = job->iu - job->il + 1;
    if (job->range == 'V') {
        const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
        gl_real pivmin = f->lamch("S", 1), emax = 0;
        for (lapack_int i = 0; i + 1 < n; i++)
            emax = GL_R(fmax)(emax, e[i] * e[i]);
        pivmin *= GL_R(fmax)(emax, 1);
        m = count_below(n, d, e, job->vu * sigma, pivmin) -
            count_below(n, d, e, job->vl * sigma, pivmin);
    }
    return 8 * (long)m >= (long)n;
}

/* gl_s_he_tridiag gl_d_he_tridiag gl_c_he_tridiag gl_z_he_tridiag */
int GL_FN(he_tridiag)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                      char uplo, lapack_int n, const gl_scalar *a,
                      lapack_int lda, gl_real sigma, gl_real *d, gl_real *e,
                      gl_scalar *q1, lapack_int ldq1, gl_scalar *tau,
                      GL_FN(tridiag_q) *keep, gl_stage_times *times)
{
    int lower = uplo == 'L';
    lapack_int bw = plan->band;
    lapack_int ldband = 2 * bw + 1;
    gl_scalar *wk = ops->alloc(ops, sizeof *wk * (size_t)n * (size_t)n);
    gl_scalar *band =
        ops->alloc(ops, sizeof *band * (size_t)ldband * (size_t)n);
    gl_scalar *de = malloc(sizeof *de * 2 * (size_t)n);
    gl_scalar *taus = q1 ? malloc(sizeof *taus * (size_t)n) : NULL;
    int rc = GL_STAGE_FAULT;
    if (keep) {
        *keep = (GL_FN(tridiag_q)){.n = n, .b = bw, .a = wk, .lda = n,
                                   .group = plan->group};
        keep->t = ops->alloc(ops, sizeof *keep->t * (size_t)(bw > 0 ? bw : 1) *
                             (size_t)n);
        if (!keep->t || GL_FN(tridiag_q_keep_chase)(ops, keep))
            goto out;
    }
    if (!wk || !band || !de || (q1 && !taus))
        goto out;

    /* The lower triangle of A, or of A^H for 'U' (A = A^H). */
    ops->from_host(ops, lower ? 'N' : 'C', n, n, a, lda, wk, n);
    if (sigma != 1 && ops->lascl(ops, 1, sigma, n, n, wk, n))
        goto out;
    double t0 = gl_profile_stage(ops->ctx, "stage1");
    for (lapack_int i = 0; taus && i < n; i++)
        taus[i] = 0;
    if (bw > 1 &&
        GL_FN(sy2sb)(ops, n, bw, plan->stage1_block, plan->stage1_tile, wk, n,
                     taus, keep ? keep->t : NULL))
        goto out;
    double t1 = gl_profile_stage(ops->ctx, "stage2");
    ops->pack_band(ops, 'H', n, bw, wk, n, band, ldband);
    if (bw > 1 &&
        ops->sb_chase(ops, n, bw, n, band, ldband, keep ? &keep->chase : NULL))
        goto out;
    double t2 = gl_profile_stage(ops->ctx, "stage3");

    if (GL_FN(band_to_de)(ops, 'H', n, bw, band, ldband, de, d, e))
        goto out;
    if (keep)
        GL_FN(tridiagonal_phases)(n, de + n, keep->phase);

    /* Q1 for ?sytrd_2stage: the band and the reflectors below it, in the
     * caller's triangle (for 'U' those of A^H, conjugate-transposed). */
    if (q1 && bw > 1 && n - bw >= 2) {
        for (lapack_int j = 0; j < n; j++) {
            if (lower) {
                if (ops->to_host(ops, n - j, 1, wk + j + (size_t)j * n, n,
                                 q1 + j + (size_t)j * ldq1, ldq1))
                    goto out;
                continue;
            }
            if (ops->to_host(ops, n - j, 1, wk + j + (size_t)j * n, n, de, n))
                goto out;
            for (lapack_int i = j; i < n; i++)
                q1[j + (size_t)i * ldq1] = GL_CONJ(de[i - j]);
        }
        for (lapack_int i = 0; i + 1 < n; i++)
            tau[i] = lower ? taus[i] : GL_CONJ(taus[i]);
    }
    if (times)
        *times = (gl_stage_times){.stage1 = t1 - t0, .stage2 = t2 - t1};
    rc = 0;
out:
    if (keep && rc != 0)
        GL_FN(tridiag_q_free)(ops, keep);   /* releases wk too */
    else if (!keep)
        ops->release(ops, wk);
    ops->release(ops, band);
    free(de);
    free(taus);
    return rc;
}

/* In core: the one-stage reduction where it is the call's method, else
 * the two-stage he_tridiag. */
static int core_reduce(eig_call *c, const gl_scalar *a, lapack_int lda)
{
    GL_FN(tridiag_q) *keep = c->vectors ? &c->q : NULL;
    return c->method == GL_METHOD_ONE_STAGE
               ? GL_FN(he_tridiag_one_stage)(c->ops, c->job->uplo, c->n, a,
                                             lda, c->sigma, c->d, c->e, keep,
                                             &c->reduce)
               : GL_FN(he_tridiag)(c->ops, c->plan, c->job->uplo, c->n, a,
                                   lda, c->sigma, c->d, c->e, NULL, 0, NULL,
                                   keep, &c->reduce);
}

/* In core: Q from the device's copy of the panels and the store. */
static int core_back(eig_call *c, lapack_int m, gl_real *zt, gl_scalar *z,
                     lapack_int ldz)
{
    return GL_FN(tridiag_q_apply)(c->ops, &c->q, m, zt, c->n, z, ldz);
}

/* Plan: the scaling, where stage 3 runs, and the host arena: d, e and
 * ?sterf/?stebz's work (7 n), or Z of T and tridiagonal_vectors' work,
 * then iwork.  0, GL_STAGE_NONFINITE or GL_STAGE_FAULT. */
static int eig_plan(eig_call *c, const gl_scalar *a, lapack_int lda)
{
    const gl_eig_job *job = c->job;
    lapack_int n = c->n;
    /* max |a_ij| over the referenced triangle (?lansy/?lanhe 'M': the
     * real part of the diagonal); Inf/NaN stays with LAPACK.  ?heevr
     * measures with ?lansy, which keeps the imaginary part of the
     * diagonal; the others with ?lanhe, which drops it */
    c->expert = job->driver == GL_EIG_SYEVR || job->driver == GL_EIG_SYEVX;
    gl_real anrm = GL_FN(max_abs)(job->uplo, n, n, a, lda,
                                  job->driver != GL_EIG_SYEVR);
    if (!isfinite(anrm))
        return GL_STAGE_NONFINITE;
    c->sigma = GL_FN(eig_sigma)(anrm, c->f->lamch("S", 1), c->f->lamch("P", 1),
                                c->expert);
    c->all = job->range == 'A' ||
             (job->range == 'I' && job->il == 1 && job->iu == n);
    /* ?stedc's stage 3 (?syevd's, and ours for ?syevr's whole spectrum)
     * leaves the vectors of T on a device for the back-transformation */
    c->on_device = c->vectors && c->ops->real_fill && c->tier->keeps_z &&
                   (job->driver == GL_EIG_SYEVD ||
                    (job->driver == GL_EIG_SYEVR && c->all));
    size_t nn = (size_t)n * (size_t)n;
    size_t lwork = 2 * (size_t)n + (c->vectors && !c->on_device
                                        ? nn + gl_tridiagonal_work(n)
                                        : 7 * (size_t)n);
    gl_arena host = {0};
    size_t at_d = gl_arena_take(&host, 1, lwork, sizeof(gl_real));
    size_t at_iwork = gl_arena_take(&host, 1, gl_tridiagonal_iwork(n),
                                    sizeof(lapack_int));
    c->host_arena = gl_host_alloc(host.bytes);
    if (!c->host_arena)
        return GL_STAGE_FAULT;
    c->d = gl_arena_at(c->host_arena, at_d);
    c->e = c->d + n, c->work = c->e + n;
    c->iwork = gl_arena_at(c->host_arena, at_iwork);
    return 0;
}

static void eig_free(eig_call *c)
{
    GL_FN(tridiag_q_free)(c->ops, &c->q);
    gl_host_free(c->host_arena);
}

/* Stage 3 and the vectors: Z of T (on the device, or on the host) and
 * z = Q Z (the tier's back). */
static int eig_vectors(eig_call *c, const gl_scalar *a, lapack_int *m,
                       gl_real *w, gl_scalar *z, lapack_int ldz,
                       lapack_int *isuppz, lapack_int *ifail)
{
    const GL_FN(ops) *ops = c->ops;
    const gl_eig_job *job = c->job;
    lapack_int n = c->n;
    /* ?syevr's subsets: the whole divide and conquer on the device, then
     * the selection, where that is faster (subset_by_dc) */
    if (ops->real_fill && c->tier->keeps_z && job->driver == GL_EIG_SYEVR &&
        !c->all && subset_by_dc(job, n, c->d, c->e, c->sigma))
        c->on_device = 1;
    if (c->on_device) {
        /* ?syevr's ?stebz and ?stein after a failed ?stedc: LAPACK's */
        c->info = GL_FN(dc_vectors_on_device)(
            ops, &c->q, c->d, c->e, w, c->all ? isuppz : NULL,
            job->driver == GL_EIG_SYEVD, c->work, z, ldz,
            (const void *)z == (const void *)a ? job->uplo : 0,
            c->all ? NULL : job, c->sigma, m, &c->t3);
        return c->info < 0 ? GL_STAGE_FAULT : 0;
    }
    gl_real *zt = c->work, *rest = zt + (size_t)n * (size_t)n;
    c->info = GL_FN(tridiagonal_vectors)(ops, job, n, c->d, c->e, c->sigma, m,
                                         w, zt, isuppz, ifail, rest,
                                         c->iwork);
    if (c->info < 0)
        return GL_STAGE_FAULT;
    c->t3 = gl_profile_stage(ops->ctx, "back");
    return c->tier->back(c, *m, zt, z, ldz) ? GL_STAGE_FAULT : 0;
}

/* Stage 3 of the values as the driver does it. */
static int eig_values(eig_call *c, lapack_int *m, gl_real *w)
{
    const GL_FN(ops) *ops = c->ops;
    const gl_eig_job *job = c->job;
    lapack_int n = c->n;
    int use_sterf = job->driver == GL_EIG_SYEV ||
                    job->driver == GL_EIG_SYEVD ||
                    (job->driver == GL_EIG_SYEVR && c->all) ||
                    (job->driver == GL_EIG_SYEVX && c->all &&
                     job->abstol <= 0);
    int done = 0;
    /* on a device, all n values at once by bisection (a failed device
     * restarts the call on LAPACK, as everywhere) */
    if (use_sterf && ops->tridiag_values) {
        if (ops->tridiag_values(ops, n, c->d, c->e, w) != 0)
            return GL_STAGE_FAULT;
        *m = n;
        done = 1;
    } else if (use_sterf) {
        gl_real *e2 = c->work + 4 * n;
        for (lapack_int i = 0; i < n; i++)
            w[i] = c->d[i];
        for (lapack_int i = 0; i + 1 < n; i++)
            e2[i] = c->e[i];
        c->f->sterf(&n, w, e2, &c->info);
        if (c->info == 0)
            *m = n;
        /* the expert drivers retry a failed ?sterf with ?stebz */
        done = c->info == 0 || !c->expert;
        if (!done)
            c->info = 0;
    }
    if (!done) {
        c->info = GL_FN(scaled_stebz)(c->f, job, "E", n, c->d, c->e, c->sigma,
                                      m, w, c->iwork, c->iwork + n, c->work,
                                      c->iwork + 2 * n);
        /* ?stebz (ORDER 'E') orders by split block; the drivers document
         * ascending order. */
        GL_FN(sort_ascending)(w, (size_t)*m);
    }
    c->t3 = gl_profile_stage(ops->ctx, "out");
    return 0;
}

static size_t core_device_bytes(const gl_tuning *tuning,
                                const gl_eig_job *job, lapack_int n,
                                int vectors, const gl_call_plan *plan,
                                size_t *largest);

static const eig_tier eig_in_core = {
    .keeps_z = 1,
    .reduce = core_reduce,
    .back = core_back,
    .device_bytes = core_device_bytes,
};

/* The tier of a plan's tier: the lean plan, the streamed plan, or in
 * core. */
static const eig_tier *tier_of(gl_plan_tier tier)
{
    return tier == GL_PLAN_LEAN       ? &GL_FN(eig_lean_tier)
           : tier == GL_PLAN_STREAMED ? &GL_FN(eig_streamed_tier)
                                      : &eig_in_core;
}

/* In core: the method's pieces, the reduction's, stage 3's and the
 * back-transformation's. */
static size_t core_device_bytes(const gl_tuning *tuning,
                                const gl_eig_job *job, lapack_int n,
                                int vectors, const gl_call_plan *plan,
                                size_t *largest)
{
    (void)tuning;
    const size_t es = sizeof(gl_scalar), rs = sizeof(gl_real);
    const size_t nn = (size_t)n * (size_t)n;
    *largest = nn * es;
    lapack_int m = gl_eig_z_columns(job, n);
    gl_method method = plan->method;
    if (method == GL_METHOD_VENDOR)   /* A, W, the solver's work as ?syevd's */
        return nn * es + (size_t)n * rs +
               (vectors ? 2 * nn + 6 * (size_t)n + 1 : 2 * (size_t)n + 1) * es;
    /* ?syevd and ?syevr's whole spectrum: Z of T on the device, with the
     * divide and conquer's two n^2 scratches; ?syevr's subsets may take
     * it (subset_by_dc decides from the values): counted so */
    int on_device = vectors && (job->driver == GL_EIG_SYEVD ||
                                job->driver == GL_EIG_SYEVR);
    size_t resident, reduce, back_chase = 0, back_panels;
    if (method == GL_METHOD_ONE_STAGE) {
        enum { NB = GL_ONE_STAGE_BLOCK };
        size_t panel = (size_t)n * NB;
        resident = nn * es + (vectors ? NB * (size_t)n * es : 0);
        reduce = (2 * panel + 4 * (size_t)n + 2 * NB + 2 + NB * (size_t)n) *
                 es;
        back_panels = GL_FN(apply_panels_device_bytes)(n - 1, n - 1, NB, m);
    } else {
        lapack_int bw = plan->band, group = plan->group;
        lapack_int ngroups;
        size_t store = vectors ? GL_FN(reflectors_slots)(n, bw, group,
                                                         &ngroups) *
                                     ((size_t)bw + 1) * es
                               : 0;
        resident = nn * es +
                   (vectors ? (size_t)(bw > 0 ? bw : 1) * n * es + store : 0);
        reduce = (2 * (size_t)bw + 1) * n * es +
                 (bw > 1 ? GL_FN(sy2sb_device_bytes)(n, bw,
                                                     plan->stage1_block)
                         : 0);
        back_chase = GL_FN(apply_chase_device_bytes)(n, bw, group, m);
        back_panels = GL_FN(apply_panels_device_bytes)(
            n - bw, gl_sy2sb_reflectors(n, bw), bw, m);
    }
    if (!vectors)
        return resident + reduce;
    /* the vectors: Z of T (real) and its divide and conquer's scratch, Z
     * in the call's precision where it is not Z of T itself */
    size_t z = on_device ? nn * rs : 0;
    if (!on_device || GL_COMPLEX)
        z += (size_t)n * (size_t)m * es;
    /* with the merges' vectors of n values (d, z, the roots' columns) */
    size_t dc = on_device ? (3 * nn + 6 * (size_t)n) * rs : 0;
    size_t back = back_chase > back_panels ? back_chase : back_panels;
    size_t most = reduce > dc ? reduce : dc;
    if (z + back > most)
        most = z + back;
    return resident + most;
}

/* gl_s_eig_plan_make gl_d_eig_plan_make gl_c_eig_plan_make gl_z_eig_plan_make */
int GL_FN(eig_plan_make)(const gl_tuning *tuning, const gl_eig_job *job,
                         lapack_int n, int vectors, gl_call_plan *plan)
{
    const eig_tier *tier = tier_of(plan->tier);
    if (!GL_FN(eig_shape)(tuning, job, n, vectors, plan))
        return 0;
    size_t largest = 0;
    size_t bytes =
        tier->device_bytes(tuning, job, n, vectors, plan, &largest);
    if (bytes == SIZE_MAX)
        return 0;
    plan->device_bytes = gl_plan_bytes(bytes);
    plan->largest = gl_plan_bytes(largest);
    return 1;
}

/* The pipeline in steps: the plan's method (the vendor's solver is a
 * pipeline of its own; the policy gives it only the calls it computes,
 * lapack_api/entry.c), its tier, plan, reduce (the tier's: in core
 * he_tridiag, stages 1 and 2, or he_tridiag_one_stage), stage 3 with
 * the vectors or the values, read (unscale); eig_free releases the
 * call's memory whichever step stopped it. */
/* gl_s_eig gl_d_eig gl_c_eig gl_z_eig */
int GL_FN(eig)(const GL_FN(ops) *ops, const gl_call_plan *plan,
               const gl_eig_job *job, lapack_int n, const gl_scalar *a,
               lapack_int lda, lapack_int *m, gl_real *w, gl_scalar *z,
               lapack_int ldz, lapack_int *isuppz, lapack_int *ifail,
               gl_stage_times *times)
{
    *m = 0;
    if (n == 0)
        return 0;
    gl_method method = plan->method;
    if (method == GL_METHOD_VENDOR) {
        int info = GL_FN(eig_vendor)(ops, job, n, a, lda, w, z, ldz, times);
        *m = info == 0 ? n : 0;
        return info;
    }
    /* the plan's tier: in core; the streamed plan (a matrix larger than
     * the device: A's copy in host memory, streamed through it); the lean
     * plan (the vectors of a matrix that fits the device, its in-core plan
     * not: stage 1 in core, the rest as streamed), in core without
     * vectors */
    gl_plan_tier tier = ops->host_memory ? GL_PLAN_IN_CORE : plan->tier;
    if (tier == GL_PLAN_LEAN && !z)
        tier = GL_PLAN_IN_CORE;
    eig_call c = {.ops = ops, .plan = plan, .f = GL_FN(lapack_fns_get)(),
                  .job = job, .tier = tier_of(tier), .method = method,
                  .n = n, .vectors = z != NULL};
    int rc = eig_plan(&c, a, lda);
    if (rc == 0 && c.tier->reduce(&c, a, lda))
        rc = GL_STAGE_FAULT;
    if (rc == 0) {
        c.t2 = gl_profile_stage(ops->ctx, "stage3");
        rc = c.vectors ? eig_vectors(&c, a, m, w, z, ldz, isuppz, ifail)
                       : eig_values(&c, m, w);
    }
    if (rc == 0) {   /* read: unscale, the stage times */
        double t4 = gl_profile_stage(ops->ctx, "out");
        if (c.sigma != 1) {
            lapack_int count = c.info == 0                       ? *m
                               : job->driver == GL_EIG_SYEVD ? n
                                                               : c.info - 1;
            for (lapack_int i = 0; i < count && i < n; i++)
                w[i] *= 1 / c.sigma;
        }
        if (times)
            *times = (gl_stage_times){.stage1 = c.reduce.stage1,
                                      .stage2 = c.reduce.stage2,
                                      .stage3 = c.t3 - c.t2,
                                      .back = t4 - c.t3};
        rc = (int)c.info;
    }
    eig_free(&c);
    return rc;
}
