/* The policy and the per-call log line shared by all entry points. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <dlfcn.h>

#include "../runtime/config.h"
#include "../runtime/context.h"
#include "../runtime/device.h"
#include "../runtime/tune.h"
#include "../runtime/log.h"
#include "../runtime/profile.h"
#include "../kernels/status.h"
#include "../runtime/timing.h"
#include "entry.h"

static gl_decision forward_because(gl_reason reason)
{
    return (gl_decision){.path = GL_PATH_LAPACK, .reason = reason};
}

static gl_decision take(gl_path path, gl_reason reason, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static gl_decision take(gl_path path, gl_reason reason, const char *fmt, ...)
{
    gl_decision d = {.path = path, .reason = reason};
    va_list args;
    va_start(args, fmt);
    vsnprintf(d.why, sizeof d.why, fmt, args);
    va_end(args);
    return d;
}

/* gpulapack-tune's forced path: the process's, the tool calls from one
 * thread */
static int forced = (int)GL_PATH_NONE;

void gl_policy_force(gl_path path)
{
    __atomic_store_n(&forced, (int)path, __ATOMIC_RELEASE);
}

gl_path gl_policy_last_path(void)
{
    int path = gl_timing_last_path();
    return path < 0 ? GL_PATH_NONE : (gl_path)path;
}

/* A crossover for the log: "never" or the size. */
static const char *size_text(long n, char *buf, size_t size)
{
    if (n == LONG_MAX)
        return "never";
    snprintf(buf, size, "%ld", n);
    return buf;
}

/* What the three policies below share about one call. */
typedef struct call_facts {
    const gl_request *request;
    const gl_call_name *name;   /* the routine called (family.h) */
    int fp64;              /* d or z: the device must have double */
    gl_plan_tier order[GL_PLAN_TIERS];   /* the tiers in this order ... */
    int tiers;             /* ... the first `tiers` of them */
    long min_n;            /* GPULAPACK_MIN_N, -1 unset */
    long host_n;           /* the host path's crossover */
    gl_call_plan fitted;   /* the plan that fitted the device weighed */
} call_facts;

/* A path of a GPU runtime. */
static int on_gpu(gl_path path)
{
    return path != GL_PATH_LAPACK && path != GL_PATH_HOST;
}

/* Whether the call fits the device of GPU path: the first of its tiers
 * whose two-stage plan (which the other methods never exceed:
 * docs/design/memory.md), made with the device's tuning, fits the
 * device's room now; that plan in f->fitted. */
static int fits(call_facts *f, gl_path path)
{
    gl_room room = gl_device_room(path);
    gl_tuning tuning;
    gl_tune_snapshot(gl_device_chosen(path), &tuning);
    for (int i = 0; i < f->tiers; i++) {
        gl_call_plan plan = {.method = GL_METHOD_TWO_STAGE,
                             .tier = f->order[i], .room = room, .devices = 1};
        if (gl_plan_make(f->request, &tuning, &plan) &&
            gl_room_fits(&room, plan.device_bytes, plan.largest)) {
            f->fitted = plan;
            return 1;
        }
    }
    return 0;
}

/* gpulapack-tune: the forced path whatever the size. */
static gl_decision policy_forced(call_facts *f, gl_path path)
{
    if (!f->request->supported)
        return forward_because(GL_REASON_OPTION);
    if (path == GL_PATH_LAPACK)
        return forward_because(GL_REASON_SIZE);
    path = gl_device_path_of(path, f->fp64);
    if (on_gpu(path) && !fits(f, path))
        path = GL_PATH_LAPACK;
    return path == GL_PATH_LAPACK ? forward_because(GL_REASON_DEVICE)
                                  : take(path, GL_REASON_NONE, "forced");
}

/* A named device (GPULAPACK_DEVICE=host, cuda, ...): that device or the
 * real LAPACK.  Its crossover is the GPU path's; where no GPU figure
 * exists (?sytrd, band routines), the host path's, as before GPUs were
 * measured. */
static gl_decision policy_named(call_facts *f,
                                const gl_device_request *device)
{
    const gl_request *request = f->request;
    int gpu = gl_backend_is_gpu(device->backend);
    long floor = f->min_n >= 0 ? f->min_n
                 : gpu ? gl_tune_gpu_floor(f->name, request->vectors)
                       : f->host_n;
    if (gpu && floor == LONG_MAX)
        floor = f->host_n;
    if (request->size < floor)
        return forward_because(GL_REASON_SIZE);
    if (!request->supported || request->short_workspace)
        return forward_because(GL_REASON_OPTION);
    const char *why;
    gl_path path = gl_device_path(device, f->fp64, &why);
    if (on_gpu(path) && !fits(f, path)) {
        path = GL_PATH_LAPACK;
        why = "device-memory";
    }
    if (path == GL_PATH_LAPACK)
        return take(GL_PATH_LAPACK, GL_REASON_DEVICE, "%s", why);
    long n = f->min_n >= 0 ? f->min_n
             : gl_tune_crossover(f->name, request->vectors, gl_path_name(path));
    if (n == LONG_MAX)
        n = f->host_n;
    if (request->size < n)
        return forward_because(GL_REASON_SIZE);
    char b1[24];
    return take(path, GL_REASON_NONE, "requested %s %s", gl_path_name(path),
                size_text(n, b1, sizeof b1));
}

/* auto: a GPU at or above its crossover, else the host path at or above
 * the host's, else LAPACK.  A call below every GPU crossover never opens
 * a GPU runtime. */
static gl_decision policy_auto(call_facts *f)
{
    const gl_request *request = f->request;
    long host_n = f->host_n;
    char b1[24], b2[24];
    long gpu_floor = f->min_n >= 0 ? f->min_n
                                   : gl_tune_gpu_floor(f->name, request->vectors);
    if (request->size < host_n && request->size < gpu_floor)
        return take(GL_PATH_LAPACK, GL_REASON_SIZE, "host %s, gpu %s",
                    size_text(host_n, b1, sizeof b1),
                    size_text(gpu_floor, b2, sizeof b2));
    if (!request->supported || request->short_workspace)
        return forward_because(GL_REASON_OPTION);
    const char *why_host = NULL;
    if (request->size >= gpu_floor) {
        gl_path path = gl_device_auto(f->fp64, &why_host);
        if (path != GL_PATH_HOST && !fits(f, path)) {
            why_host = "device-memory";   /* a later runtime is not tried */
            path = GL_PATH_HOST;
        }
        if (path != GL_PATH_HOST) {
            const char *gpu = gl_path_name(path);
            long gpu_n = f->min_n >= 0 ? f->min_n
                         : gl_tune_crossover(f->name, request->vectors, gpu);
            if (request->size >= gpu_n)
                return take(path, GL_REASON_NONE, "crossover %s %ld", gpu, gpu_n);
            if (request->size >= host_n)
                return take(GL_PATH_HOST, GL_REASON_NONE,
                            "crossover host %ld, %s %s", host_n, gpu,
                            size_text(gpu_n, b2, sizeof b2));
            return take(GL_PATH_LAPACK, GL_REASON_SIZE, "host %s, %s %s",
                        size_text(host_n, b1, sizeof b1), gpu,
                        size_text(gpu_n, b2, sizeof b2));
        }
    }
    if (request->size >= host_n)
        return why_host ? take(GL_PATH_HOST, GL_REASON_NONE,
                               "%s, crossover host %ld", why_host, host_n)
                        : take(GL_PATH_HOST, GL_REASON_NONE,
                               "crossover host %ld", host_n);
    if (why_host)
        return take(GL_PATH_LAPACK, GL_REASON_SIZE, "%s, host %s", why_host,
                    size_text(host_n, b1, sizeof b1));
    return take(GL_PATH_LAPACK, GL_REASON_SIZE, "host %s, gpu %s",
                size_text(host_n, b1, sizeof b1),
                size_text(gpu_floor, b2, sizeof b2));
}

/* gpulapack-tune's forced method (-1: none), as the forced path */
static int forced_method = -1;

void gl_policy_force_method(int method)
{
    __atomic_store_n(&forced_method, method, __ATOMIC_RELEASE);
}

/* gpulapack-tune's forced count of devices under auto (0: none) */
static int forced_devices = 0;

void gl_policy_force_devices(int count)
{
    __atomic_store_n(&forced_devices, count, __ATOMIC_RELEASE);
}

/* The method of a call on a GPU path (docs/design/methods.md): forced by
 * gpulapack-tune, else GPULAPACK_METHOD, else the tuning table; a method
 * that cannot run the call falls to the two-stage reduction (the vendor's
 * solvers compute the whole spectrum of the families whose row says so,
 * family.h, where the runtime has one).  Only the ?syev family has a
 * choice; the SVD routines are two-stage (logged), the others (?sytrd,
 * band routines) have no method in the log. */
static void choose_method(gl_decision *d, const call_facts *f)
{
    const gl_family *family = f->name->family;
    int eig = family->kind == GL_KIND_EIG;
    int svd = family->kind == GL_KIND_SVD;
    if (d->path == GL_PATH_HOST || (!eig && !svd))
        return;
    int method = GL_METHOD_TWO_STAGE;
    const char *measured = NULL;   /* the built-in measurement deciding */
    int force = __atomic_load_n(&forced_method, __ATOMIC_ACQUIRE);
    switch (eig ? gl_config_get()->method : GL_METHOD_FORCE_TWO_STAGE) {
    case GL_METHOD_FORCE_TWO_STAGE: method = GL_METHOD_TWO_STAGE; break;
    case GL_METHOD_FORCE_ONE_STAGE: method = GL_METHOD_ONE_STAGE; break;
    case GL_METHOD_FORCE_VENDOR: method = GL_METHOD_VENDOR; break;
    default:
        method = gl_tune_method(f->name, f->request->vectors,
                                gl_path_name(d->path),
                                (long)f->request->size, &measured);
    }
    if (eig && force >= 0)
        method = force;
    if (method == GL_METHOD_VENDOR &&
        (!family->vendor || !gl_device_vendor_solver(d->path)))
        method = GL_METHOD_TWO_STAGE;
    /* the log names the measurement that chose the vendor's solver */
    d->measured = method == GL_METHOD_VENDOR && force < 0 ? measured : NULL;
    d->plan.method = (gl_method)method;
    d->method = gl_tune_method_name(method);
}

/* The devices of a GPU call's set (the call's own and the others):
 * those GPULAPACK_DEVICE names, or under auto as many of the path's
 * other GPUs as the tune file's devices line says for the call (none
 * built in), or gpulapack-tune forces; 1 where the plan shares nothing.
 * The other devices share the back-transformation of the vectors, and
 * the stage 1 of the families whose row says so in core (the vendor's
 * solver runs on one). */
static int set_devices(gl_path path, const gl_request *request,
                       const gl_call_plan *plan)
{
    int stage1 = request->name.family->shared_stage1 &&
                 plan->method == GL_METHOD_TWO_STAGE &&
                 plan->tier != GL_PLAN_STREAMED;
    if ((!request->vectors && !stage1) || plan->method == GL_METHOD_VENDOR)
        return 1;
    int others[GL_MAX_DEVICE_SET];
    if (gl_config_get()->device.backend != NULL)
        return 1 + gl_device_peers(path, others);
    int spares = gl_device_spares(path, others);
    int force = __atomic_load_n(&forced_devices, __ATOMIC_ACQUIRE);
    int want = force > 0 || spares == 0
                   ? force
                   : gl_tune_devices(&request->name, request->vectors,
                                     gl_path_name(path), spares + 1,
                                     (long)request->size);
    return want > 1 ? 1 + (want - 1 < spares ? want - 1 : spares) : 1;
}

/* An accepted call's plan (kernels/plan.h), which its pipeline runs by:
 * on a GPU path its method, the tier that fitted and the room it fitted,
 * and the devices of its set; on the host the two-stage reduction in
 * core. */
static gl_decision planned(gl_decision d, const call_facts *f)
{
    d.plan = (gl_call_plan){.method = GL_METHOD_TWO_STAGE,
                            .tier = GL_PLAN_IN_CORE, .devices = 1};
    d.retry_bytes = -1;
    if (d.path == GL_PATH_LAPACK)
        return d;
    if (d.path == GL_PATH_HOST) {   /* the host's tuning, no room */
        gl_tuning host;
        gl_tune_snapshot(NULL, &host);
        gl_plan_make(f->request, &host, &d.plan);
        return d;
    }
    static const char *const names[GL_PLAN_TIERS] = {
        [GL_PLAN_IN_CORE] = "in-core", [GL_PLAN_STREAMED] = "streamed",
        [GL_PLAN_LEAN] = "lean"};
    gl_plan_tier tier = f->fitted.tier;
    choose_method(&d, f);
    if (tier != GL_PLAN_IN_CORE) {   /* lean, streamed: two stages */
        d.plan.method = GL_METHOD_TWO_STAGE;
        d.method = gl_tune_method_name(GL_METHOD_TWO_STAGE);
        d.measured = NULL;
    }
    d.plan.tier = tier;
    d.tier_name = names[tier];
    /* the room the plan was fitted against: the pipeline sizes itself to
     * it as the plan did (plan == allocation) */
    d.plan.room = f->fitted.room;
    d.plan.devices = set_devices(d.path, f->request, &d.plan);
    gl_tuning tuning;
    gl_tune_snapshot(gl_device_chosen(d.path), &tuning);
    gl_plan_make(f->request, &tuning, &d.plan);
    d.plan_bytes = d.plan.device_bytes;
    if (tier == GL_PLAN_IN_CORE && f->tiers > 1) {
        gl_call_plan streamed = {.method = GL_METHOD_TWO_STAGE,
                                 .tier = GL_PLAN_STREAMED,
                                 .room = d.plan.room,
                                 .devices = d.plan.devices};
        gl_plan_make(f->request, &tuning, &streamed);
        d.retry_bytes = streamed.device_bytes;
    }
    return d;
}

gl_decision gl_policy_host(const gl_request *request, const char *why)
{
    call_facts f = {.request = request, .name = &request->name};
    return planned(take(GL_PATH_HOST, GL_REASON_NONE, "%s", why), &f);
}

gl_decision gl_accel_begin(gl_decision d, const gl_request *request)
{
    if (d.path == GL_PATH_LAPACK || d.ctx)
        return d;
    d.ctx = gl_ctx_acquire(d.path, -1);
    if (!d.ctx)
        return take(GL_PATH_LAPACK, GL_REASON_DEVICE, "%s context-failed",
                    gl_path_name(d.path));
    if (d.plan.method == GL_METHOD_VENDOR &&
        !gl_ctx_has_vendor_solver(d.ctx)) {
        /* the solver's library is there, its handle on this context not:
         * the two-stage reduction, by a plan of its own */
        d.plan.method = GL_METHOD_TWO_STAGE;
        d.method = gl_tune_method_name(GL_METHOD_TWO_STAGE);
        d.measured = NULL;
        d.plan.devices = set_devices(d.path, request, &d.plan);
        gl_plan_make(request, &d.ctx->tuning, &d.plan);
        d.plan_bytes = d.plan.device_bytes;
    }
    if (d.plan.devices > 1) {   /* a device not opened is left out */
        int named = gl_config_get()->device.backend != NULL;
        int planned_devices = d.plan.devices;
        d.plan.devices =
            1 + (named ? gl_ctx_add_peers(d.ctx)
                       : gl_ctx_add_spares(d.ctx, d.plan.devices - 1));
        if (d.plan.devices != planned_devices)   /* stage 1's tiles */
            gl_plan_make(request, &d.ctx->tuning, &d.plan);
    }
    return d;
}

gl_decision gl_policy(const gl_request *request)
{
    const gl_config *config = gl_config_get();
    /* crossovers, GPULAPACK_DISABLE and the precision go by the LAPACK
     * routine, whichever of its names (dsyevd_64_, scipy_dsyevd_) was
     * called */
    const gl_call_name *name = &request->name;
    char text[32];

    if (request->arg_info != 0)
        return forward_because(GL_REASON_ARGS);
    if (request->query)
        return forward_because(GL_REASON_QUERY);
    if (gl_config_disabled(config,
                           gl_call_name_text(name, text, sizeof text)))
        return forward_because(GL_REASON_DISABLED);

    call_facts f = {
        .request = request,
        .name = name,
        .fp64 = name->precision == 'd' || name->precision == 'z',
        /* GPULAPACK_MIN_N: one crossover for every routine and path;
         * over the workspace limit none (LAPACK cannot take the call) */
        .min_n = request->over_limit ? 0 : config->min_n,
    };
    /* the tiers in-core, lean, streamed; GPULAPACK_PLAN puts one first
     * (where the job has it) */
    static const gl_plan_tier tiers[GL_PLAN_TIERS] = {
        GL_PLAN_IN_CORE, GL_PLAN_LEAN, GL_PLAN_STREAMED};
    int first = config->plan != GL_PLAN_STREAMED_VALUES ? config->plan
                : request->vectors                      ? -1
                                                        : GL_PLAN_STREAMED;
    int at = 0;
    if (first >= 0 && first < GL_PLAN_TIERS)
        f.order[at++] = (gl_plan_tier)first;
    for (int i = 0; i < GL_PLAN_TIERS; i++)
        if ((int)tiers[i] != first)
            f.order[at++] = tiers[i];
    f.tiers = first == GL_PLAN_IN_CORE ? 1 : GL_PLAN_TIERS;
    f.host_n = f.min_n >= 0 ? f.min_n
                            : gl_tune_crossover(name, request->vectors, "host");
    int force = __atomic_load_n(&forced, __ATOMIC_ACQUIRE);
    if (force != (int)GL_PATH_NONE)
        return planned(policy_forced(&f, (gl_path)force), &f);
    if (config->device.backend != NULL)
        return planned(policy_named(&f, &config->device), &f);
    return planned(policy_auto(&f), &f);
}

int gl_accel_retry(gl_decision *decision, const gl_request *request)
{
    gl_ctx *ctx = decision->ctx;
    if (!ctx || !ctx->runtime || !ctx->memory.refused ||
        decision->plan.tier != GL_PLAN_IN_CORE || decision->retry_bytes < 0)
        return 0;
    gl_log(1, "%s: an allocation was refused in core: the streamed plan",
           gl_path_name(decision->path));
    ctx->runtime->reset(ctx);
    ctx->memory.refused = 0;
    /* the device held less than the room the policy fitted against: the
     * streamed plan sizes its chase's segments to what it did hold (0,
     * nothing held: a segment about a block of Z, as without one) */
    gl_room room = decision->plan.room;
    if (ctx->memory.peak < room.budget)
        room.budget = ctx->memory.peak;
    gl_call_plan streamed = {.method = GL_METHOD_TWO_STAGE,
                             .tier = GL_PLAN_STREAMED, .room = room,
                             .devices = decision->plan.devices};
    gl_plan_make(request, &ctx->tuning, &streamed);
    decision->plan = streamed;
    decision->method = gl_tune_method_name(GL_METHOD_TWO_STAGE);
    decision->tier_name = "streamed";
    /* the log keeps the streamed plan the policy fitted */
    decision->plan_bytes = decision->retry_bytes;
    decision->retry_bytes = -1;
    return 1;
}

gl_decision gl_accel_outcome(const gl_routine *routine, gl_decision decision,
                             int rc, const gl_stage_times *t,
                             double start)
{
    for (int p = 0; decision.ctx && p < decision.ctx->npeers; p++) {
        char label[64];   /* each device's share: its own profile */
        snprintf(label, sizeof label, "%s@%s", routine->name,
                 decision.ctx->peers[p]->info->id);
        gl_profile_end(decision.ctx->peers[p], label);
    }
    gl_profile_end(decision.ctx, routine->name);
    gl_ctx_release(decision.ctx);
    decision.ctx = NULL;
    if (rc == GL_STAGE_NONFINITE)
        return forward_because(GL_REASON_NONFINITE);
    /* GL_STAGE_FAULT; any other negative value would be a stage-3
     * routine's argument error, which is ours and not the caller's */
    if (rc == GL_STAGE_FAULT || rc < 0)
        return take(GL_PATH_LAPACK, GL_REASON_FAULT, "%s",
                    gl_path_name(decision.path));
    gl_timing_record(routine->name, gl_path_name(decision.path), t,
                     gl_now() - start);
    return decision;
}

const char *gl_reason_name(gl_reason reason)
{
    switch (reason) {
    case GL_REASON_NONE: return "none";
    case GL_REASON_ARGS: return "args";
    case GL_REASON_QUERY: return "query";
    case GL_REASON_NESTED: return "nested";
    case GL_REASON_DISABLED: return "disabled";
    case GL_REASON_SIZE: return "size";
    case GL_REASON_OPTION: return "option";
    case GL_REASON_DEVICE: return "device";
    case GL_REASON_FAULT: return "fault";
    case GL_REASON_NOLAPACK: return "nolapack";
    case GL_REASON_NONFINITE: return "nonfinite";
    case GL_REASON_LWORK: return "lwork";
    }
    return "?";
}

int gl_call_begin(gl_call *call, const gl_routine *routine)
{
    if (gl_forwarding()) {
        gl_log(2, "%s path=lapack reason=nested", routine->name);
        return 1;
    }
    call->routine = routine;
    /* The clock is read only when the time will be logged. */
    call->start = gl_config_get()->verbose ? gl_now() : 0.0;
    return 0;
}

void gl_call_end(const gl_call *call, gl_decision decision, lapack_int info,
                 void (*describe)(const void *args, char *options,
                                  size_t size),
                 const void *args)
{
    /* a decision whose pipeline never ran (gl_accel_outcome releases the
     * others) */
    gl_ctx_release(decision.ctx);
    gl_timing_note_path(decision.path);
    /* Workspace queries are logged only at level 2. */
    int level = decision.reason == GL_REASON_QUERY ? 2 : 1;
    if (gl_config_get()->verbose < level)
        return;

    double elapsed = gl_now() - call->start;
    char options[256];
    describe(args, options, sizeof options);

    /* reason= on every line: why this path; for a forwarded call its
     * reason's name first ("size", "fault", ...), then the detail */
    const char *why = decision.why;
    if (decision.path != GL_PATH_LAPACK) {
        char plan[80] = "";
        if (decision.tier_name)
            snprintf(plan, sizeof plan, " plan=%s device_bytes=%lld%s",
                     decision.tier_name, (long long)decision.plan_bytes,
                     decision.plan.devices > 1 ? " devices=" : "");
        if (decision.plan.devices > 1)
            snprintf(plan + strlen(plan), sizeof plan - strlen(plan), "%d",
                     decision.plan.devices);
        gl_log(level, "%s %s path=%s%s%s%s%s%s%s%s info=%d time=%.6fs",
               call->routine->name, options, gl_path_name(decision.path),
               decision.method ? " method=" : "",
               decision.method ? decision.method : "", plan,
               *why ? " reason=" : "", why,
               decision.measured ? " vendor-faster " : "",
               decision.measured ? decision.measured : "", (int)info,
               elapsed);
        return;
    }
    gl_reason reason =
        info == GL_INFO_NO_LAPACK ? GL_REASON_NOLAPACK : decision.reason;
    if (reason == GL_REASON_NOLAPACK)
        why = "";
    gl_log(level, "%s %s path=lapack reason=%s%s%s info=%d time=%.6fs",
           call->routine->name, options, gl_reason_name(reason),
           *why ? " " : "", why, (int)info, elapsed);
}

int64_t gl_lwork_limit(void)
{
    return (int64_t)gl_config_get()->lwork_limit;
}

int64_t gl_large_answer(int64_t min)
{
    int64_t limit = gl_lwork_limit(), period = 2 * (limit + 1);
    int64_t wrapped = min % period;
    if (wrapped > limit)
        wrapped -= period;
    return wrapped > GL_LARGE_LENGTH ? wrapped : GL_LARGE_LENGTH;
}

void gl_xerbla(gl_routine *routine, lapack_int info)
{
    /* "xerbla_" or "scipy_xerbla_", as the routine's own name; the real
     * routine's call binds to the global scope's first definition, else
     * to its library's own (scipy's OpenBLAS, loaded RTLD_LOCAL) */
    char base[32], symbol[40], name[32];
    const char *lapack = gl_routine_base(routine->name, base);
    int scipy = strncmp(routine->name, "scipy_", 6) == 0;
    snprintf(symbol, sizeof symbol, "%sxerbla_", scipy ? "scipy_" : "");
    void *fn = dlsym(RTLD_DEFAULT, symbol);
    Dl_info where;
    void *real = gl_real_routine(routine);
    if (!fn && real && dladdr(real, &where) && where.dli_fname) {
        /* already loaded (NOLOAD); never closed (libraries are opened
         * once and kept) */
        void *lib = dlopen(where.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (lib)
            fn = dlsym(lib, symbol);
    }
    if (!fn)
        fn = gl_lapack_symbol(symbol);
    size_t len = strlen(lapack);
    for (size_t i = 0; i < len && i < sizeof name; i++)
        name[i] = lapack[i] >= 'a' && lapack[i] <= 'z'
                      ? (char)(lapack[i] - 'a' + 'A') : lapack[i];
    if (len > sizeof name)
        len = sizeof name;
    gl_log(1, "%s: workspace length %d too small (GPULAPACK_LWORK_LIMIT "
           "%lld): INFO = %d", routine->name, (int)-info,
           (long long)gl_lwork_limit(), (int)info);
    if (!fn)
        return;
    typedef void xerbla_fn(const char *, const lapack_int *, gl_strlen);
    lapack_int position = -info;
    gl_forward_begin();   /* a program's XERBLA may call LAPACK */
    ((xerbla_fn *)fn)(name, &position, (gl_strlen)len);
    gl_forward_end();
}
