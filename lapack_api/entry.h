/* What every exported entry point uses: forwarding to the real LAPACK
 * (runtime/real_lapack.h), the policy decision and the per-call log line. */
#ifndef GL_ENTRY_H
#define GL_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "../runtime/fortran.h"
#include "../runtime/device.h"
#include "../runtime/family.h"
#include "../runtime/path.h"
#include "../runtime/tune.h"
#include "../runtime/real_lapack.h"
#include "argcheck.h"
#include "../runtime/log.h"
#include "../kernels/plan.h"
#include "../kernels/status.h"

/* INFO reported when a call must be forwarded but no real LAPACK was found
 * (the program then has no LAPACK at all; -1000 cannot be an argument
 * position, so it cannot be mistaken for LAPACK's own INFO). */
#define GL_INFO_NO_LAPACK (-1000)

/* Calls the real routine of type fn_type with the guard raised. */
#define GL_FORWARD(routine, fn_type, info, ...)                               \
    do {                                                                      \
        fn_type *gl_real_fn_ = (fn_type *)gl_real_routine(routine);           \
        if (gl_real_fn_) {                                                    \
            gl_forward_begin();                                               \
            gl_real_fn_(__VA_ARGS__);                                         \
            gl_forward_end();                                                 \
        } else {                                                              \
            *(info) = GL_INFO_NO_LAPACK;                                      \
        }                                                                     \
    } while (0)

typedef enum gl_reason {
    GL_REASON_NONE,      /* accelerated */
    GL_REASON_ARGS,      /* invalid argument: the real routine reports it */
    GL_REASON_QUERY,     /* workspace query */
    GL_REASON_NESTED,    /* called from inside a forwarded call */
    GL_REASON_DISABLED,  /* GPULAPACK_DISABLE names the routine */
    GL_REASON_SIZE,      /* below the crossover size */
    GL_REASON_OPTION,    /* no accelerated implementation of these options */
    GL_REASON_DEVICE,    /* the requested device is not available */
    GL_REASON_FAULT,     /* the accelerated path failed; restarted on LAPACK */
    GL_REASON_NOLAPACK,  /* forwarding needed but no real LAPACK found */
    GL_REASON_NONFINITE, /* Inf/NaN input: LAPACK's own handling applies */
    GL_REASON_LWORK,     /* a workspace length below a minimum that passes
                            GPULAPACK_LWORK_LIMIT (docs/large.md): LAPACK's
                            INFO, never forwarded */
} gl_reason;

/* A plain name (dsyevd_) over a LAPACK whose plain names have 64-bit
 * INTEGERs (Debian's liblapack64-3 and libopenblas64-0): its caller passes
 * 64-bit INTEGERs as well, so the entry function hands the call, with its
 * plain routine, to the same entry compiled with GL_ILP64.  The two
 * compilations differ only in what their INTEGER pointers point to, so the
 * call is the same on every ABI the library is built for, as the calls of
 * the real routines found by dlsym are.  GL_TO_WIDE_ENTRY comes first in
 * the entry function's body (a no-op in the ILP64 compilation),
 * GL_WIDE_ENTRY after the function (defines the pointer the LP64
 * compilation calls). */
#if defined(GL_ILP64) && GL_ILP64
#define GL_WIDE_ENTRY(entry)                                                  \
    void (*const GL_FN(entry##_wide))(void) = (void (*)(void))entry
#define GL_TO_WIDE_ENTRY(entry, routine, ...) ((void)0)
#else
#define GL_WIDE_ENTRY(entry) extern void (*const GL_FN(entry##_wide))(void)
#define GL_TO_WIDE_ENTRY(entry, routine, ...)                                 \
    do {                                                                      \
        if (gl_plain_over_ilp64(routine)) {                                   \
            extern void (*const GL_FN(entry##_wide))(void);                   \
            ((__typeof__(&entry))GL_FN(entry##_wide))(routine, __VA_ARGS__);  \
            return;                                                           \
        }                                                                     \
    } while (0)
#endif

/* What an entry point knows about a call when it asks the policy. */
typedef struct gl_request {
    const gl_routine *routine;
    gl_call_name name;     /* its family, precision and form */
    lapack_int arg_info;   /* 0, or LAPACK's INFO for a bad argument */
    int query;             /* LWORK = -1 (or another workspace query) */
    int64_t size;          /* problem size compared with the crossover */
    int supported;         /* our path implements these options */
    int short_workspace;   /* a workspace length given is below LAPACK's
                              minimum (the real routine reports it) */
    int over_limit;        /* an LP64 call whose workspace minimum passes
                              GPULAPACK_LWORK_LIMIT (docs/large.md): the
                              real routine cannot serve it, so no
                              crossover sends it there (as
                              GPULAPACK_MIN_N=0) */
    int vectors;           /* vectors (or Q, P) are asked for: the crossover
                              of the job with vectors applies */
    /* Our pipeline's plan of this call (its family's planner in
     * kernels/pipelines/): given plan->method, tier, room and devices,
     * on a device of this tuning, it fills in the rest (what the plan
     * takes of the device); 0 where the job has no such tier.  args is
     * the call's (set by the skeleton). */
    int (*plan)(const void *args, const gl_tuning *tuning,
                gl_call_plan *plan);
    const void *args;
} gl_request;

/* The request's plan (gl_request plan) on a device of this tuning, for
 * plan->method, tier, room and devices: 1, or 0 (device_bytes and
 * largest -1) where the job has no such tier. */
int gl_plan_make(const gl_request *request, const gl_tuning *tuning,
                 gl_call_plan *plan);

typedef struct gl_decision {
    gl_path path;
    gl_reason reason;
    char why[64];          /* what the log adds after reason=: the crossover
                              that decided ("crossover cuda 1536"), why no
                              GPU ("no-device"), the path that faulted */
    struct gl_ctx *ctx;    /* our path's execution context (context.h),
                              released by gl_accel_outcome or gl_call_end;
                              NULL when forwarded */
    const char *method;    /* the GPU path's method for the log (method=
                              two-stage, one-stage, vendor); NULL: none */
    const char *measured;  /* the built-in measurement that chose the
                              vendor's solver (the log's vendor-faster);
                              NULL: none */
    gl_call_plan plan;     /* our path's plan (kernels/plan.h), which
                              its pipeline runs by; its devices are the
                              log's devices= (when 2 or more) */
    const char *tier_name; /* the GPU path's tier for the log (plan=
                              in-core, lean, streamed); NULL: none */
    int64_t plan_bytes;    /* the device bytes the policy fitted
                              (device_bytes=) */
    int64_t retry_bytes;   /* in core: the streamed plan's bytes, taken
                              when the device refuses an allocation
                              (gl_accel_retry); -1: none */
} gl_decision;

/* The one place that decides between our path and the real LAPACK, and
 * on ours the call's plan.  It takes no execution context: the C API's
 * gpulapack_plan_call asks it too (lapack_api/plan.c). */
gl_decision gl_policy(const gl_request *request);

/* The host path's decision for the request (why: the log's reason), its
 * plan made; for a call that must not go to the real LAPACK after our
 * device failed (entry_skeleton.h large_restart). */
gl_decision gl_policy_host(const gl_request *request, const char *why);

/* An accepted decision's execution contexts (context.h): the path's
 * device and, for a set, the others its plan counts (the log's devices=
 * says how many were taken); where the vendor's solver has no handle on
 * that context, a new plan by the two-stage reduction.  A device whose
 * context cannot be made (its queue, its state) turns the decision into
 * "the real LAPACK" (reason=device context-failed). */
gl_decision gl_accel_begin(gl_decision decision, const gl_request *request);

/* The log's name of a reason ("size", "device", ...). */
const char *gl_reason_name(gl_reason reason);

/* gpulapack-tune: the process's next calls take path (the real LAPACK,
 * the host or a GPU path when its device fits) whatever their size;
 * GL_PATH_NONE ends it.  gl_policy_last_path: the path the calling
 * thread's last call ran on (a call restarted on LAPACK after a fault:
 * lapack). */
#define GL_PATH_NONE ((gl_path)-1)
void gl_policy_force(gl_path path);
/* gpulapack-tune: the ?syev-family calls on a GPU path take this method
 * (a gl_method, runtime/context.h) whatever GPULAPACK_METHOD and the
 * table say, where it can run them; -1 ends it. */
void gl_policy_force_method(int method);
/* gpulapack-tune: under GPULAPACK_DEVICE=auto the calls that a set may
 * share take this many of the path's GPUs (at most those there are)
 * whatever the tune file says; 0 ends it. */
void gl_policy_force_devices(int count);
gl_path gl_policy_last_path(void);

/* After our pipeline failed on a GPU path: 1 when the device refused an
 * allocation of the in-core plan and the job has a streamed plan, which
 * the call then takes (its context's error state cleared, a new plan
 * made for what the device held, the decision updated for the log), as
 * MAGMA's ?getrf falls back to its non-resident form; else 0. */
int gl_accel_retry(gl_decision *decision, const gl_request *request);

/* After one of our pipelines ran (rc: 0, LAPACK's INFO > 0, or a
 * GL_STAGE_* code of kernels/status.h): records its timing and returns the
 * decision, turned into "restart on the real LAPACK" for a fault (or any
 * other negative rc) or a non-finite input.  start: gl_now() before the
 * pipeline. */
gl_decision gl_accel_outcome(const gl_routine *routine, gl_decision decision,
                             int rc, const gl_stage_times *t,
                             double start);

/* One top-level call, from entry to the log line. */
typedef struct gl_call {
    const gl_routine *routine;
    double start;
} gl_call;

/* Starts a call.  Returns 1 if the calling thread is inside a forwarded
 * call: the entry point then forwards at once (logged at level 2 only). */
int gl_call_begin(gl_call *call, const gl_routine *routine);

/* Logs the call (GPULAPACK_VERBOSE >= 1; queries only at >= 2).
 * describe writes the job options and sizes of args into options, e.g.
 * "jobz=N m=4 n=3"; it is called only when the line is logged. */
void gl_call_end(const gl_call *call, gl_decision decision, lapack_int info,
                 void (*describe)(const void *args, char *options,
                                  size_t size),
                 const void *args);

/* 1 when every value fits lapack_int, the INTEGER of the kernels and of
 * the real LAPACK routines they call: an ILP64 call whose sizes or leading
 * dimensions do not is forwarded.  Used as
 * gl_ints_fit((int64_t[]){*m, *n, *lda}, 3); always 1 for LP64 entries. */
static inline int gl_ints_fit(const int64_t *values, int count)
{
    for (int i = 0; i < count; i++)
        if (values[i] < INT32_MIN || values[i] > INT32_MAX)
            return 0;
    return 1;
}
#define GL_INTS_FIT(...)                                                      \
    (sizeof(gl_int) == sizeof(lapack_int) ||                                  \
     gl_ints_fit((const int64_t[]){__VA_ARGS__},                               \
                 (int)(sizeof((const int64_t[]){__VA_ARGS__}) /                \
                       sizeof(int64_t))))

/* One workspace length of a call (the generated <family>_lengths, in
 * LAPACK's order of checks): the caller's value, the INFO LAPACK gives
 * when it is too small, and the array whose element (1) the query fills
 * with the size (kind: gl_scalar, gl_real or gl_int). */
enum { GL_LENGTH_SCALAR, GL_LENGTH_REAL, GL_LENGTH_INT };
typedef struct gl_length {
    int64_t given;
    int info;
    int kind;
    void *out;
} gl_length;
#define GL_MAX_LENGTHS 4

/* The generated <family>_wide's sizes of INTEGER arrays (tools/routines.py) */
static inline int64_t gl_min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t gl_max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* GPULAPACK_LWORK_LIMIT: the largest workspace length the library assumes
 * an LP64 caller can pass (INT32_MAX unless the tests lower it). */
int64_t gl_lwork_limit(void);

/* What an LP64 call whose workspace minimum passes the limit gets
 * (docs/large.md), for the log and gpulapack_plan_call:
 * GL_LARGE_NONE  every minimum within the limit: LAPACK's query and checks;
 * GL_LARGE_OURS  our path takes it: the query answers GL_LARGE_LENGTH, and
 *                a call with at least that is run on our path;
 * GL_LARGE_TRUE  the query answers the true minimum (over the limit), a
 *                call with less gets LAPACK's INFO through XERBLA. */
enum { GL_LARGE_NONE, GL_LARGE_OURS, GL_LARGE_TRUE };
/* What our path needs of each of the caller's workspace arrays: it
 * allocates its own working memory, and writes only element (1). */
#define GL_LARGE_LENGTH 1

/* What the query answers for a length of minimum min where our path takes
 * the call: GL_LARGE_LENGTH, or LAPACK's own minimum as the caller's
 * 32-bit INTEGERs wrap it where that is positive.  Callers that check the
 * length themselves compute the minimum as LAPACK does, in 32 bits (scipy's
 * f2py wrappers: lwork >= 1+6*n+2*n*n for dsyevd): dsyevd V at n = 46,341
 * needs 4,295,254,609, which wraps to 287,313, and scipy refuses less.
 * The width is that of the limit: INTEGERs wrap modulo 2 * (limit + 1),
 * 2^32 by default (a lowered limit reaches the same cases at small n). */
int64_t gl_large_answer(int64_t min);

/* Reports INFO (< 0) for routine through the XERBLA its real routine
 * would call (the program's own first, as the real routine's call binds),
 * with LAPACK's upper-case name ("DSYEVD"). */
void gl_xerbla(gl_routine *routine, lapack_int info);

/* First character of a CHARACTER argument, upper-cased (LAPACK's LSAME). */
static inline char gl_upper(const char *c)
{
    char ch = *c;
    return (ch >= 'a' && ch <= 'z') ? (char)(ch - 'a' + 'A') : ch;
}

/* A printable job character for the log (the caller may pass anything). */
static inline char gl_logchar(const char *c)
{
    char ch = gl_upper(c);
    return (ch > ' ' && ch < 127) ? ch : '?';
}

#endif
