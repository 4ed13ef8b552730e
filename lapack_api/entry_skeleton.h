/* The one body of every exported entry point: check, request, run, log.
 *
 * Each lapack_api/<family>.c gives what differs (its entry_spec): LAPACK's
 * argument checks and what the policy needs (request), our pipeline (run)
 * and what it writes after an accepted run (finish); the rest of the spec
 * (forwarding, the workspace query, its optimal sizes, the log line's
 * options) and the exported wrappers are generated from tools/routines.py's
 * table into lapack_api/generated/<family>.inc.  The steps, in order:
 *
 *   gl_call_begin      inside a forwarded call: forward at once
 *   request            argument check, query, size, options supported
 *   gl_policy          our path or the real LAPACK (entry.c)
 *   query              the real routine's workspace query (LWORK = -1), for
 *                      the optimal sizes our path returns as it would
 *   run                the pipeline, with the operation table of the
 *                      decision (the one place it is obtained)
 *   gl_accel_outcome   a fault or a non-finite input: restart on LAPACK
 *   INFO, optimal      written on our path; finish: the routine's own
 *   forward            the real routine, when the call is not ours
 *   gl_call_end        the log line
 *
 * A template (GL_FN): included once per compilation of a routine file. */
#ifndef GL_ENTRY_SKELETON_H_PRECISION
#define GL_ENTRY_SKELETON_H_PRECISION GL_PRECISION

#include <stddef.h>
#include <stdio.h>

#include "../runtime/fortran.h"
#include "../runtime/precision.h"
#include "../runtime/timing.h"
#include "../kernels/ops.h"
#include "../kernels/stages.h"
#include "entry.h"
#include "accel_ops.h"

/* What the real routine's workspace query writes: the optimal sizes
 * (WORK(1), HOUS2(1), RWORK(1), IWORK(1)), M of ?syevr/?syevx, its INFO;
 * query is the -1 passed as every workspace length. */
typedef struct gl_optimal {
    gl_scalar work, hous2;
    gl_real rwork;
    gl_int iwork, m, info, query;
} gl_optimal;

/* What a pipeline leaves for its finish: buffers it allocated (finish
 * frees them, whatever the outcome) and the eigenvalues found. */
typedef struct gl_scratch {
    void *owned[2];
    lapack_int found;
} gl_scratch;

/* gl_s_entry_spec gl_d_entry_spec gl_c_entry_spec gl_z_entry_spec */
typedef struct GL_FN(entry_spec) {
    /* LAPACK's argument checks and what the policy needs; .routine is
     * set by the skeleton */
    gl_request (*request)(const void *args);
    void (*forward)(gl_routine *routine, const void *args);
    /* NULL for routines without workspace lengths; returns nonzero when
     * the query's INFO was (the call then restarts on LAPACK) */
    int (*query)(gl_routine *routine, const void *args, gl_optimal *o);
    void (*optimal)(const void *args, const gl_optimal *o);
    /* the pipeline: 0, LAPACK's INFO > 0, or a GL_STAGE_* code */
    int (*run)(const GL_FN(ops) *ops, const void *args, gl_scratch *scratch,
               gl_stage_times *t);
    /* after the outcome (accepted: on our path); NULL: nothing to do */
    void (*finish)(const void *args, gl_scratch *scratch, int accepted);
    void (*describe)(const void *args, char *options, size_t size);
    int info_is_rc;     /* INFO on our path: run's return, else 0 */
} GL_FN(entry_spec);

/* An accepted call: the query, the pipeline, the outcome and what our path
 * writes.  Returns the decision, turned into "forward" on a fault. */
/* gl_s_entry_accel gl_d_entry_accel gl_c_entry_accel gl_z_entry_accel */
static inline gl_decision GL_FN(entry_accel)(gl_routine *routine,
                                             const GL_FN(entry_spec) *spec,
                                             const void *args,
                                             gl_decision decision,
                                             gl_int *info)
{
    gl_optimal optimal = {.query = -1};
    int query_failed = spec->query && spec->query(routine, args, &optimal);
    gl_scratch scratch = {{NULL, NULL}, 0};
    double start = gl_now();
    gl_stage_times t = {0};
    GL_FN(ops) table = {0};
    const GL_FN(ops) *ops = GL_FN(accel_ops)(&decision, &table);
    /* no table (the system LAPACK's helpers missing): as a fault */
    int rc = query_failed || !ops ? GL_STAGE_FAULT
                                  : spec->run(ops, args, &scratch, &t);
    if (rc == GL_STAGE_FAULT && ops && !scratch.owned[0] &&
        !scratch.owned[1] && gl_accel_retry(&decision))
        rc = spec->run(ops, args, &scratch, &t);
    decision = gl_accel_outcome(routine, decision, rc, &t, start);
    int accepted = decision.path != GL_PATH_LAPACK;
    if (accepted) {
        *info = spec->info_is_rc ? rc : 0;
        if (spec->optimal)
            spec->optimal(args, &optimal);
    }
    if (spec->finish)
        spec->finish(args, &scratch, accepted);
    return decision;
}

/* gl_s_entry gl_d_entry gl_c_entry gl_z_entry */
static inline void GL_FN(entry)(gl_routine *routine,
                                const GL_FN(entry_spec) *spec,
                                const void *args, gl_int *info)
{
    gl_call call;
    if (gl_call_begin(&call, routine)) {
        spec->forward(routine, args);
        return;
    }
    gl_request request = spec->request(args);
    request.routine = routine;
    request.args = args;
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK)
        decision = GL_FN(entry_accel)(routine, spec, args, decision, info);
    if (decision.path == GL_PATH_LAPACK)
        spec->forward(routine, args);
    gl_call_end(&call, decision, *info, spec->describe, args);
}

#endif
