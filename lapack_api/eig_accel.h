/* Our path for the values-only calls of the ?syev family, shared by their
 * entry points. */
#ifndef GL_EIG_ACCEL_H
#define GL_EIG_ACCEL_H

#include "../runtime/fortran.h"
#include "../runtime/precision.h"
#include "../kernels/stages.h"
#include "../runtime/memory.h"
#include "entry.h"

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

/* Runs the eigen pipeline for an accepted call, after the real routine's
 * workspace query (query_info: its INFO; nonzero counts as a fault).  z
 * (NULL: values only), isuppz and ifail as GL_FN(eig) takes them.  On our
 * path it sets W, Z, *m (if m) and *info and returns the decision; on a
 * fault or a non-finite input it returns a decision to forward, with
 * nothing of the caller's written. */
static inline gl_decision gl_eig_accel(const gl_routine *routine,
                                       gl_decision decision,
                                       gl_int query_info,
                                       const gl_eig_job *job, lapack_int n,
                                       const gl_scalar *a, lapack_int lda,
                                       gl_int *m, gl_real *w,
                                       gl_scalar *z, lapack_int ldz,
                                       gl_int *isuppz, gl_int *ifail,
                                       gl_int *info)
{
    if (query_info != 0)
        return gl_accel_outcome(routine, decision, GL_STAGE_FAULT, NULL, 0);
    double start = gl_now();
    gl_stage_times t = {0};
    lapack_int found = 0;
#if GL_ILP64
    /* The pipeline writes ISUPPZ and IFAIL as 32-bit INTEGERs: into
     * copies (O(n), beside the O(n^2) matrix), widened into the caller's
     * arrays after.  ISUPPZ is written whole or not at all (the full
     * spectrum): its copy starts at 0, which no support index is, and only
     * written entries go back, so a caller's array of 2*M is never
     * overrun.  IFAIL (N entries, as documented) is copied both ways. */
    lapack_int *isuppz32 = NULL, *ifail32 = NULL;
    if (isuppz)
        isuppz32 = gl_host_alloc((size_t)2 * (size_t)n * sizeof *isuppz32);
    if (ifail)
        ifail32 = gl_host_alloc((size_t)n * sizeof *ifail32);
    if ((isuppz && !isuppz32) || (ifail && !ifail32)) {
        gl_host_free(isuppz32);
        gl_host_free(ifail32);
        return gl_accel_outcome(routine, decision, GL_STAGE_FAULT, NULL, 0);
    }
    for (lapack_int i = 0; isuppz32 && i < 2 * n; i++)
        isuppz32[i] = 0;
    for (lapack_int i = 0; ifail32 && i < n; i++)
        ifail32[i] = (lapack_int)ifail[i];
    int rc = GL_FN(eig)(GL_FN(ops_for)(decision.path), job, n, a, lda, &found,
                        w, z, ldz, isuppz32, ifail32, &t);
    decision = gl_accel_outcome(routine, decision, rc, &t, start);
    if (decision.path != GL_PATH_LAPACK) {
        for (lapack_int i = 0; isuppz32 && i < 2 * found; i++)
            if (isuppz32[i] != 0)
                isuppz[i] = isuppz32[i];
        for (lapack_int i = 0; ifail32 && i < n; i++)
            ifail[i] = ifail32[i];
    }
    gl_host_free(isuppz32);
    gl_host_free(ifail32);
#else
    int rc = GL_FN(eig)(GL_FN(ops_for)(decision.path), job, n, a, lda, &found,
                        w, z, ldz, isuppz, ifail, &t);
    decision = gl_accel_outcome(routine, decision, rc, &t, start);
#endif
    if (decision.path != GL_PATH_LAPACK) {
        *info = rc;
        if (m)
            *m = found;
    }
    return decision;
}

#endif
