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
 *   gl_policy          our path or the real LAPACK, and on ours the call's
 *                      plan (entry.c; kernels/plan.h)
 *   gl_accel_begin     the execution context of our path (runtime/context.h)
 *   query              the real routine's workspace query (LWORK = -1), for
 *                      the optimal sizes our path returns as it would
 *   run                the pipeline, with the operation table of the
 *                      decision (the one place it is obtained) and the
 *                      plan
 *   gl_accel_outcome   a fault or a non-finite input: restart on LAPACK
 *   INFO, optimal      written on our path; finish: the routine's own
 *   forward            the real routine, when the call is not ours
 *   gl_call_end        the log line
 *
 * An LP64 call whose LAPACK minimum of a workspace length passes
 * GPULAPACK_LWORK_LIMIT (the real routine's INTEGER arithmetic overflows
 * there: its query answers too little and its check accepts that) never
 * reaches the real routine with the caller's arrays (entry_large below,
 * docs/large.md).
 *
 * A template (GL_FN): included once per compilation of a routine file. */
#ifndef GL_ENTRY_SKELETON_H_PRECISION
#define GL_ENTRY_SKELETON_H_PRECISION GL_PRECISION

#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../runtime/fortran.h"
#include "../runtime/precision.h"
#include "../runtime/timing.h"
#include "../runtime/context.h"
#include "../runtime/log.h"
#include "../kernels/ops.h"
#include "../kernels/pipelines/pipelines.h"
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
    /* the pipeline by the call's plan: 0, LAPACK's INFO > 0, or a
     * GL_STAGE_* code */
    int (*run)(const GL_FN(ops) *ops, const gl_call_plan *plan,
               const void *args, gl_scratch *scratch, gl_stage_times *t);
    /* after the outcome (accepted: on our path); NULL: nothing to do */
    void (*finish)(const void *args, gl_scratch *scratch, int accepted);
    void (*describe)(const void *args, char *options, size_t size);
    int info_is_rc;     /* INFO on our path: run's return, else 0 */
    /* NULL for routines without workspace lengths: the lengths of the
     * call (how many, at most GL_MAX_LENGTHS) and LAPACK's minimums of
     * them in 64 bits, in the same order (0: not known) */
    int (*lengths)(const void *args, gl_length *l);
    int (*minimums)(const void *args, int64_t *min);
    /* the call on an ILP64 LAPACK's routine fn with the library's own
     * workspace of those minimums (docs/large.md, rule 2): 0 when it ran,
     * -1 when memory was short */
    int (*wide)(void *fn, const void *args, const int64_t *min);
    gl_family_id family;   /* its row of runtime/family.h */
} GL_FN(entry_spec);

/* A size into element (1) of a workspace array: a real one rounded up
 * (single precision holds 2^24 exactly, no more; LAPACK 3.11's
 * SROUNDUP_LWORK does the same), an INTEGER one at most INT_MAX of its
 * width. */
/* gl_s_store_length gl_d_store_length gl_c_store_length gl_z_store_length */
static inline void GL_FN(store_length)(const gl_length *l, int64_t size)
{
    double d = (double)size;
    gl_real r = (gl_real)d;
    while ((double)r < d)
        r = (gl_real)((double)r *
                      (1.0 + (sizeof(gl_real) == 4 ? 0x1p-23 : 0x1p-52)));
    switch (l->kind) {
    case GL_LENGTH_SCALAR: *(gl_scalar *)l->out = r; break;
    case GL_LENGTH_REAL: *(gl_real *)l->out = r; break;
    default: {
        int64_t most = sizeof(gl_int) == 4 ? INT32_MAX : INT64_MAX;
        *(gl_int *)l->out = (gl_int)(size < most ? size : most);
    }
    }
}

/* An accepted call: the query, the pipeline, the outcome and what our path
 * writes.  Returns the decision, turned into "forward" on a fault. */
/* gl_s_entry_accel gl_d_entry_accel gl_c_entry_accel gl_z_entry_accel */
/* large: the call's lengths (count of them, their minimums large_min)
 * when the caller sized its arrays for our path (entry_large): the real
 * routine's query, whose INTEGERs overflow, is not asked, and each array's
 * element (1) gets what the query answered (gl_large_answer). */
static inline gl_decision GL_FN(entry_accel)(gl_routine *routine,
                                             const GL_FN(entry_spec) *spec,
                                             const void *args,
                                             const gl_request *request,
                                             gl_decision decision,
                                             gl_int *info,
                                             const gl_length *large,
                                             const int64_t *large_min,
                                             int count)
{
    decision = gl_accel_begin(decision, request);
    if (decision.path == GL_PATH_LAPACK)
        return decision;
    gl_optimal optimal = {.query = -1};
    int query_failed = !large && spec->query &&
                       spec->query(routine, args, &optimal);
    gl_scratch scratch = {{NULL, NULL}, 0};
    double start = gl_now();
    gl_stage_times t = {0};
    GL_FN(ops) table = {0};
    const GL_FN(ops) *ops = GL_FN(accel_ops)(&decision, &table);
    /* no table (the system LAPACK's helpers missing): as a fault */
    int rc = query_failed || !ops
                 ? GL_STAGE_FAULT
                 : spec->run(ops, &decision.plan, args, &scratch, &t);
    if (rc == GL_STAGE_FAULT && ops && !scratch.owned[0] &&
        !scratch.owned[1] && gl_accel_retry(&decision, request)) {
        ops = GL_FN(accel_ops)(&decision, &table);   /* the new plan's */
        rc = ops ? spec->run(ops, &decision.plan, args, &scratch, &t)
                 : GL_STAGE_FAULT;
    }
    decision = gl_accel_outcome(routine, decision, rc, &t, start);
    int accepted = decision.path != GL_PATH_LAPACK;
    if (accepted) {
        *info = spec->info_is_rc ? rc : 0;
        if (large)
            for (int i = 0; i < count; i++)
                GL_FN(store_length)(&large[i],
                                    gl_large_answer(large_min[i]));
        else if (spec->optimal)
            spec->optimal(args, &optimal);
    }
    if (spec->finish)
        spec->finish(args, &scratch, accepted);
    return decision;
}

/* The call's lengths and their minimums when it is an LP64 call (the
 * real routine's INTEGERs are 32-bit) with valid arguments, a minimum
 * passes GPULAPACK_LWORK_LIMIT, and it is a query or a length is below
 * its minimum; else 0 (LAPACK's query and checks as they are). */
/* gl_s_large_lengths gl_d_large_lengths gl_c_large_lengths
 * gl_z_large_lengths */
static inline int GL_FN(large_lengths)(const GL_FN(entry_spec) *spec,
                                       const void *args,
                                       const gl_request *request,
                                       gl_length *len, int64_t *min)
{
    if (sizeof(gl_int) != 4 || !spec->lengths || request->arg_info != 0)
        return 0;
    int count = spec->lengths(args, len);
    if (!spec->minimums(args, min))
        return 0;
    int64_t limit = gl_lwork_limit();
    int over = 0, short_ = 0;
    for (int i = 0; i < count; i++) {
        over |= min[i] > limit;
        short_ |= len[i].given < min[i];
    }
    return over && (request->query || short_) ? count : 0;
}

/* The answer of a forwarded query where the real routine's INTEGER
 * optimum may have overflowed although every minimum fits (dgesdd's
 * optimum has m*n terms): an answer below the minimum is raised to it.
 * A correct LAPACK never answers less; 3.12 lowered a few minimums of
 * N <= 1, hence only minimums above 4096. */
/* gl_s_trust_query gl_d_trust_query gl_c_trust_query gl_z_trust_query */
static inline void GL_FN(trust_query)(const GL_FN(entry_spec) *spec,
                                      const void *args, const gl_int *info)
{
    gl_length len[GL_MAX_LENGTHS];
    int64_t min[GL_MAX_LENGTHS];
    if (sizeof(gl_int) != 4 || !spec->lengths || *info != 0)
        return;
    int count = spec->lengths(args, len);
    if (!spec->minimums(args, min))
        return;
    for (int i = 0; i < count; i++) {
        double answer = len[i].kind == GL_LENGTH_SCALAR
                            ? (double)creal(*(gl_scalar *)len[i].out)
                        : len[i].kind == GL_LENGTH_REAL
                            ? (double)*(gl_real *)len[i].out
                            : (double)*(gl_int *)len[i].out;
        if (min[i] > 4096 && answer < (double)min[i])
            GL_FN(store_length)(&len[i], min[i]);
    }
}

/* After our path failed on a call sized for it (a device fault, a
 * non-finite input): never the real LP64 routine over the caller's short
 * arrays.  Restarted, from the caller's data (a failed pipeline leaves it
 * as it found it): after a device's fault on an ILP64 LAPACK loaded
 * beside the LP64 one, with the library's own workspace
 * (gl_lapack64_symbol), else on the host path; else (the host path
 * failed, a non-finite input) INFO = LAPACK's for the first short length,
 * A untouched, and a log line. */
/* gl_s_large_restart gl_d_large_restart gl_c_large_restart
 * gl_z_large_restart */
static inline gl_decision GL_FN(large_restart)(gl_routine *routine,
                                               const GL_FN(entry_spec) *spec,
                                               const void *args,
                                               const gl_request *request,
                                               gl_decision failed,
                                               gl_int *info,
                                               const gl_length *len,
                                               const int64_t *min, int count)
{
    char base[32], symbol[40];
    snprintf(symbol, sizeof symbol, "%s_",
             gl_routine_base(routine->name, base));
    /* a device's fault only: on a non-finite input an ILP64 LAPACK's own
     * XERBLA, in its namespace, might be the reference one, which stops
     * the program (?gesdd and ?gesvd refuse a NaN with INFO = -4) */
    void *wide = spec->wide && failed.reason == GL_REASON_FAULT
                     ? gl_lapack64_symbol(symbol)
                     : NULL;
    if (wide && spec->wide(wide, args, min) == 0) {
        for (int i = 0; i < count; i++)   /* what the query answered */
            GL_FN(store_length)(&len[i], gl_large_answer(min[i]));
        gl_decision d = {.path = GL_PATH_LAPACK, .reason = GL_REASON_LWORK};
        snprintf(d.why, sizeof d.why, "%s, restarted on the ILP64 LAPACK",
                 gl_reason_name(failed.reason));
        return d;
    }
    if (failed.reason == GL_REASON_FAULT && strcmp(failed.why, "host") != 0) {
        char why[64];
        snprintf(why, sizeof why, "lwork-limit, %.32s fault", failed.why);
        gl_decision host = gl_accel_begin(gl_policy_host(request, why),
                                          request);
        if (host.path != GL_PATH_LAPACK) {
            gl_decision d = GL_FN(entry_accel)(routine, spec, args, request,
                                               host, info, len, min, count);
            if (d.path != GL_PATH_LAPACK)
                return d;
            failed = d;
        }
    }
    int first = 0;
    while (first < count - 1 && len[first].given >= min[first])
        first++;
    *info = (gl_int)len[first].info;
    gl_log(1, "%s: %s on our path and no room to restart: LWORK-type "
              "argument %d holds %lld, LAPACK needs %lld (over "
              "GPULAPACK_LWORK_LIMIT %lld): INFO = %d, A untouched",
           routine->name, gl_reason_name(failed.reason), -len[first].info,
           (long long)len[first].given, (long long)min[first],
           (long long)gl_lwork_limit(), len[first].info);
    gl_decision d = {.path = GL_PATH_LAPACK, .reason = GL_REASON_LWORK};
    snprintf(d.why, sizeof d.why, "%s, no room to restart",
             gl_reason_name(failed.reason));
    return d;
}

/* An LP64 call over the limit (large_lengths; docs/large.md):
 * - our path would take it (the policy, its workspace taken as enough,
 *   no crossover): the query answers gl_large_answer for every array
 *   (small), and a call with at least GL_LARGE_LENGTH runs on our path
 *   (large_restart if it fails);
 * - else the query answers LAPACK's true minimums, over the limit (scipy:
 *   "too large work array required"), and a call with less gets LAPACK's
 *   INFO for the first short length through XERBLA. */
/* gl_s_entry_large gl_d_entry_large gl_c_entry_large gl_z_entry_large */
static inline void GL_FN(entry_large)(gl_call *call, gl_routine *routine,
                                      const GL_FN(entry_spec) *spec,
                                      const void *args,
                                      const gl_request *request,
                                      const gl_length *len,
                                      const int64_t *min, int count,
                                      gl_int *info)
{
    gl_request ours = *request;
    ours.query = 0;
    ours.short_workspace = 0;
    ours.over_limit = 1;
    /* whether our path takes it: a context it cannot make says no */
    gl_decision decision = gl_accel_begin(gl_policy(&ours), &ours);
    int take = decision.path != GL_PATH_LAPACK;
    int at = -1;   /* the length LAPACK's check stops at */
    for (int i = 0; i < count && at < 0; i++)
        if (len[i].given < (take ? GL_LARGE_LENGTH : min[i]))
            at = i;
    if (request->query || at >= 0) {
        gl_ctx_release(decision.ctx);
        decision = (gl_decision){
            .path = GL_PATH_LAPACK,
            .reason = request->query ? GL_REASON_QUERY : GL_REASON_LWORK};
        if (request->query) {
            for (int i = 0; i < count; i++)
                GL_FN(store_length)(&len[i], take ? gl_large_answer(min[i])
                                                  : min[i]);
            *info = 0;
        } else {
            *info = (gl_int)len[at].info;
            gl_xerbla(routine, *info);
        }
        snprintf(decision.why, sizeof decision.why, "lwork-limit %s",
                 take ? "ours" : "true-size");
        gl_call_end(call, decision, *info, spec->describe, args);
        return;
    }
    decision = GL_FN(entry_accel)(routine, spec, args, &ours, decision, info,
                                  len, min, count);
    if (decision.path == GL_PATH_LAPACK)
        decision = GL_FN(large_restart)(routine, spec, args, &ours, decision,
                                        info, len, min, count);
    gl_call_end(call, decision, *info, spec->describe, args);
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
    request.name = (gl_call_name){&gl_families[spec->family], GL_PREC_CHAR,
                                  routine->two_stage};
    request.args = args;
    gl_length len[GL_MAX_LENGTHS];
    int64_t min[GL_MAX_LENGTHS];
    int count = GL_FN(large_lengths)(spec, args, &request, len, min);
    if (count > 0) {
        GL_FN(entry_large)(&call, routine, spec, args, &request, len, min,
                           count, info);
        return;
    }
    gl_decision decision = gl_policy(&request);
    if (decision.path != GL_PATH_LAPACK)
        decision = GL_FN(entry_accel)(routine, spec, args, &request, decision,
                                      info, NULL, NULL, 0);
    if (decision.path == GL_PATH_LAPACK) {
        spec->forward(routine, args);
        if (request.query)
            GL_FN(trust_query)(spec, args, info);
    }
    gl_call_end(&call, decision, *info, spec->describe, args);
}

#endif
