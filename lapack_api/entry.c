/* The policy and the per-call log line shared by all entry points. */
#include <stdarg.h>
#include <stdio.h>

#include "../runtime/config.h"
#include "../runtime/device.h"
#include "../runtime/tune.h"
#include "../runtime/log.h"
#include "../runtime/profile.h"
#include "../kernels/status.h"
#include "../runtime/timing.h"
#include "entry.h"

static gl_decision forward_because(gl_reason reason)
{
    return (gl_decision){GL_PATH_LAPACK, reason};
}

gl_decision gl_policy(const gl_request *request)
{
    const gl_config *config = gl_config_get();

    if (request->arg_info != 0)
        return forward_because(GL_REASON_ARGS);
    if (request->query)
        return forward_because(GL_REASON_QUERY);
    if (gl_config_disabled(config, request->routine->name))
        return forward_because(GL_REASON_DISABLED);
    long min_n = config->min_n >= 0 ? config->min_n
                                    : gl_tune_min_n(request->routine->name,
                                                    request->vectors);
    if (request->size < min_n)
        return forward_because(GL_REASON_SIZE);
    if (!request->supported)
        return forward_because(GL_REASON_OPTION);
    /* the matrix: n^2 (or m n) elements of the routine's precision */
    char prec = request->routine->name[0];
    int64_t elem = prec == 's' ? 4 : prec == 'z' ? 16 : 8;
    gl_path path = gl_device_path(&config->device, prec == 'd' || prec == 'z',
                                  request->size * request->size * elem);
    if (path == GL_PATH_LAPACK)
        return forward_because(GL_REASON_DEVICE);
    return (gl_decision){path, GL_REASON_NONE};
}

gl_decision gl_accel_outcome(const gl_routine *routine, gl_decision decision,
                             int rc, const gl_stage_times *t,
                             double start)
{
    gl_profile_end(routine->name);
    if (rc == GL_STAGE_NONFINITE)
        return forward_because(GL_REASON_NONFINITE);
    /* GL_STAGE_FAULT; any other negative value would be a stage-3
     * routine's argument error, which is ours and not the caller's */
    if (rc == GL_STAGE_FAULT || rc < 0)
        return forward_because(GL_REASON_FAULT);
    gl_timing_record(routine->name, gl_path_name(decision.path), t,
                     gl_now() - start);
    return decision;
}

static const char *reason_name(gl_reason reason)
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
                 const char *fmt, ...)
{
    /* Workspace queries are logged only at level 2. */
    int level = decision.reason == GL_REASON_QUERY ? 2 : 1;
    if (gl_config_get()->verbose < level)
        return;

    double elapsed = gl_now() - call->start;
    char options[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(options, sizeof options, fmt, args);
    va_end(args);

    if (decision.path != GL_PATH_LAPACK) {
        gl_log(level, "%s %s path=%s info=%d time=%.6fs", call->routine->name,
               options, gl_path_name(decision.path), (int)info, elapsed);
        return;
    }
    gl_reason reason =
        info == GL_INFO_NO_LAPACK ? GL_REASON_NOLAPACK : decision.reason;
    gl_log(level, "%s %s path=lapack reason=%s info=%d time=%.6fs",
           call->routine->name, options, reason_name(reason), (int)info,
           elapsed);
}
