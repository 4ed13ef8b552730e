/* Our path for the ?syev family (?syev, ?syevd, ?syevr, ?syevx and their
 * _2stage forms), shared by their entry points. */
#ifndef GL_EIG_ACCEL_H
#define GL_EIG_ACCEL_H

#include "../runtime/fortran.h"
#include "../runtime/precision.h"
#include "../kernels/pipelines/pipelines.h"
#include "../runtime/memory.h"
#include "entry.h"
#include "entry_skeleton.h"

/* The job of a ?syevr/?syevx call: VL/VU are read only for RANGE='V' and
 * IL/IU only for 'I', as LAPACK does (C callers pass NULL for the others). */
static inline gl_eig_job gl_eig_job_ranged(gl_eig_driver driver,
                                           const char *uplo, const char *range,
                                           const gl_real *vl, const gl_real *vu,
                                           const gl_int *il,
                                           const gl_int *iu,
                                           const gl_real *abstol)
{
    gl_eig_job job = {.driver = driver, .uplo = gl_upper(uplo),
                      .range = gl_upper(range), .abstol = *abstol};
    if (job.range == 'V')
        job.vl = *vl, job.vu = *vu;
    if (job.range == 'I')
        job.il = *il, job.iu = *iu;
    return job;
}

/* The eigen pipeline of an accepted call (entry_skeleton.h's run): W, Z
 * (NULL: values only) and the eigenvalues found (scratch->found), ISUPPZ
 * and IFAIL as GL_FN(eig) takes them. */
static inline int gl_eig_run(const GL_FN(ops) *ops, const gl_call_plan *plan,
                             const gl_eig_job *job,
                             lapack_int n, const gl_scalar *a, lapack_int lda,
                             gl_real *w, gl_scalar *z, lapack_int ldz,
                             gl_int *isuppz, gl_int *ifail,
                             gl_scratch *scratch, gl_stage_times *t)
{
#if GL_ILP64
    /* The pipeline writes ISUPPZ and IFAIL as 32-bit INTEGERs: into
     * copies (O(n), beside the O(n^2) matrix), widened into the caller's
     * arrays by gl_eig_finish.  ISUPPZ is written whole or not at all (the
     * full spectrum): its copy starts at 0, which no support index is, and
     * only written entries go back, so a caller's array of 2*M is never
     * overrun.  IFAIL (N entries, as documented) is copied both ways. */
    lapack_int *isuppz32 = NULL, *ifail32 = NULL;
    if (isuppz)
        scratch->owned[0] = isuppz32 =
            gl_host_alloc((size_t)2 * (size_t)n * sizeof *isuppz32);
    if (ifail)
        scratch->owned[1] = ifail32 =
            gl_host_alloc((size_t)n * sizeof *ifail32);
    if ((isuppz && !isuppz32) || (ifail && !ifail32))
        return GL_STAGE_FAULT;
    for (lapack_int i = 0; isuppz32 && i < 2 * n; i++)
        isuppz32[i] = 0;
    for (lapack_int i = 0; ifail32 && i < n; i++)
        ifail32[i] = (lapack_int)ifail[i];
#else
    lapack_int *isuppz32 = isuppz, *ifail32 = ifail;
#endif
    return GL_FN(eig)(ops, plan, job, n, a, lda, &scratch->found, w, z, ldz,
                      isuppz32, ifail32, t);
}

/* After the outcome of gl_eig_run: on our path (accepted) M (if m) and,
 * for ILP64, ISUPPZ and IFAIL from their copies; the copies freed either
 * way. */
static inline void gl_eig_finish(gl_scratch *scratch, int accepted,
                                 lapack_int n, gl_int *m, gl_int *isuppz,
                                 gl_int *ifail)
{
#if GL_ILP64
    lapack_int *isuppz32 = scratch->owned[0], *ifail32 = scratch->owned[1];
    for (lapack_int i = 0; accepted && isuppz32 && i < 2 * scratch->found; i++)
        if (isuppz32[i] != 0)
            isuppz[i] = isuppz32[i];
    for (lapack_int i = 0; accepted && ifail32 && i < n; i++)
        ifail[i] = ifail32[i];
    gl_host_free(isuppz32);
    gl_host_free(ifail32);
#else
    (void)n, (void)isuppz, (void)ifail;
#endif
    if (accepted && m)
        *m = scratch->found;
}

#endif
