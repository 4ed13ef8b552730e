/* Our path for the values-only calls of the ?syev family, shared by their
 * entry points.  Include after precision.h and entry.h. */
#ifndef GL_EIG_ACCEL_H
#define GL_EIG_ACCEL_H

#include "../kernels/stages.h"

/* Runs the eigenvalue pipeline for an accepted call.  On our path it sets
 * W, *m (if m) and *info and returns the decision; on a fault or a
 * non-finite input it returns a decision to forward, with nothing of the
 * caller's written. */
static inline gl_decision gl_eig_accel(const gl_routine *routine,
                                       gl_decision decision,
                                       const gl_eig_job *job, lapack_int n,
                                       const gl_scalar *a, lapack_int lda,
                                       lapack_int *m, gl_real *w,
                                       lapack_int *info)
{
    double start = gl_now();
    gl_stage_times t = {0};
    lapack_int found = 0;
    int rc = GL_FN(eig_values)(GL_FN(ops_for)(decision.path), job, n, a, lda,
                               &found, w, &t);
    decision = gl_accel_outcome(routine, decision, rc, t.stage1, t.stage2,
                                t.stage3, start);
    if (decision.path != GL_PATH_LAPACK) {
        *info = rc;
        if (m)
            *m = found;
    }
    return decision;
}

#endif
