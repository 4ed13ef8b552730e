/* The device memory a call needs (entry.h gl_plan_need): its pipeline's
 * own plan, made with the tuning of the device considered; and the C
 * API's question of what a call would do (gpulapack_plan_call). */
#include "entry.h"

#include <stdio.h>
#include <string.h>

#include "../include/gpulapack.h"
#include "../kernels/call_shape.h"
#include "../runtime/context.h"
#include "../runtime/gpu.h"
#include "workspace.h"

gl_device_need gl_plan_need(const gl_request *request,
                            const struct gl_gpu_device_info *info,
                            int method, int tier, size_t budget)
{
    gl_tuning tuning;
    gl_tune_snapshot(info, &tuning);
    tuning.device_budget = budget;
    size_t largest = 0;
    size_t bytes = request->device_bytes(request->args, &tuning, method,
                                         tier, &largest);
    if (bytes == SIZE_MAX)
        return (gl_device_need){-1, -1};
    return (gl_device_need){
        bytes < (size_t)INT64_MAX ? (int64_t)bytes : INT64_MAX,
        largest < (size_t)INT64_MAX ? (int64_t)largest : INT64_MAX};
}

/* ---- gpulapack_plan_call (include/gpulapack.h) ------------------------- */

/* The family of a routine's name without its precision letter and any
 * "_2stage"; -1 for one the API does not know. */
static int call_family(const char *base)
{
    static const struct {
        const char *name;
        gl_call_family family;
    } names[] = {{"syev", GL_CALL_SYEV},   {"heev", GL_CALL_SYEV},
                 {"syevd", GL_CALL_SYEVD}, {"heevd", GL_CALL_SYEVD},
                 {"syevr", GL_CALL_SYEVR}, {"heevr", GL_CALL_SYEVR},
                 {"syevx", GL_CALL_SYEVX}, {"heevx", GL_CALL_SYEVX},
                 {"gesvd", GL_CALL_GESVD}, {"gesdd", GL_CALL_GESDD}};
    char name[16];
    snprintf(name, sizeof name, "%s", base);
    char *two = strstr(name, "_2stage");
    if (two && strcmp(two, "_2stage") == 0 && name[0] != 'g')
        *two = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0)
            return (int)names[i].family;
    return -1;
}

static int one_of(char c, const char *letters)
{
    return c && strchr(letters, c);
}

/* The shape's jobs from the job letters (LAPACK's, either case); 0 when
 * their count or a letter is not the routine's. */
static int call_jobs(gl_call_shape *s, const char *jobs)
{
    size_t len = strlen(jobs);
    char j0 = len > 0 ? gl_upper(jobs) : 0;
    char j1 = len > 1 ? gl_upper(jobs + 1) : 0;
    switch (s->family) {
    case GL_CALL_SYEV:
    case GL_CALL_SYEVD:
        s->jobz = j0, s->range = 'A', s->m = s->n;
        return len == 1 && one_of(j0, "NV");
    case GL_CALL_SYEVR:
    case GL_CALL_SYEVX:
        s->jobz = j0, s->range = j1, s->m = s->n;
        return len == 2 && one_of(j0, "NV") && one_of(j1, "AVI");
    case GL_CALL_GESVD:
        s->jobu = j0, s->jobvt = j1;
        return len == 2 && one_of(j0, "NOSA") && one_of(j1, "NOSA") &&
               !(j0 == 'O' && j1 == 'O');
    case GL_CALL_GESDD:
        s->jobu = s->jobvt = j0;
        return len == 1 && one_of(j0, "NOSA");
    }
    return 0;
}

/* The largest of LAPACK's workspace minimums of the call (LWORK, LRWORK,
 * LIWORK; the _2stage forms JOBZ = 'N' only): -1 where not known. */
static long long largest_minimum(const char *routine, const gl_call_shape *s)
{
    char prec = routine[0];
    int cx = prec == 'c' || prec == 'z';
    int two = strstr(routine, "_2stage") != NULL;
    int64_t min[3] = {-1, -1, -1};
    int ok = 0;
    switch (s->family) {
    case GL_CALL_SYEV: ok = gl_minimum_syev(prec, two, s->jobz, s->n, min); break;
    case GL_CALL_SYEVD: ok = gl_minimum_syevd(prec, two, s->jobz, s->n, min); break;
    case GL_CALL_SYEVR: ok = gl_minimum_syevr(prec, two, s->jobz, s->n, min); break;
    case GL_CALL_SYEVX: ok = gl_minimum_syevx(prec, two, s->jobz, s->n, min); break;
    case GL_CALL_GESVD:
        ok = gl_minimum_gesvd(prec, s->jobu, s->jobvt, s->m, s->n, min);
        if (ok && gl_gesvd_lp64_need(s->m, s->n, s->m) > gl_lwork_limit())
            min[0] = gl_gesvd_lp64_need(s->m, s->n, s->m);
        break;
    case GL_CALL_GESDD: ok = gl_minimum_gesdd(cx, s->jobu, s->m, s->n, min); break;
    }
    if (!ok)
        return -1;
    if (!cx)
        min[1] = -1;   /* LRWORK: complex only */
    int64_t most = min[0];
    for (int i = 1; i < 3; i++)
        if (min[i] > most)
            most = min[i];
    return most;
}

/* The planners of call_shape.h, by precision */
static size_t (*const call_planners[])(const void *, const gl_tuning *, int,
                                       int, size_t *) = {
    gl_s_call_device_bytes, gl_d_call_device_bytes, gl_c_call_device_bytes,
    gl_z_call_device_bytes};

GL_EXPORT int gpulapack_plan_call(const char *routine, const char *jobs,
                                  long long m, long long n, long long count,
                                  gpulapack_call_plan *out)
{
    if (!routine || !jobs || !out || m < 0 || n < 0)
        return 0;
    const char *letters = "sdcz", *at = strchr(letters, routine[0]);
    int family = routine[0] && at ? call_family(routine + 1) : -1;
    /* the eigensolvers: ?sy.. in the real precisions, ?he.. in complex */
    if (family < 0 || (family < GL_CALL_GESVD &&
                       (routine[1] == 'h') != (at - letters >= 2)))
        return 0;
    gl_call_shape shape = {.family = (gl_call_family)family, .m = m, .n = n,
                           .count = count};
    if (!call_jobs(&shape, jobs) ||
        (shape.range == 'I' && (count < 0 || count > n)))
        return 0;
    /* the request an entry would make for a valid call with enough
     * workspace */
    gl_routine named = GL_ROUTINE_INIT(routine);
    long long size = family >= GL_CALL_GESVD && m < n ? m : n;
    gl_request request = {
        .routine = &named,
        .size = size,
        .supported = size >= 1 && m <= INT32_MAX && n <= INT32_MAX,
        .vectors = family >= GL_CALL_GESVD
                       ? shape.jobu != 'N' || shape.jobvt != 'N'
                       : shape.jobz != 'N',
        .device_bytes = call_planners[at - letters],
        .args = &shape};
    /* an LP64 call over the workspace limit takes our path whatever the
     * crossovers, as the entry does */
    long long lwork_min = largest_minimum(routine, &shape);
    request.over_limit = lwork_min > gl_lwork_limit();
    gl_decision d = gl_policy(&request);
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", gl_path_name(d.path));
    if (d.path == GL_PATH_LAPACK)
        snprintf(out->reason, sizeof out->reason, "%s%s%s",
                 gl_reason_name(d.reason), d.why[0] ? " " : "", d.why);
    if (d.plan) {
        snprintf(out->plan, sizeof out->plan, "%s", d.plan);
        out->device_bytes = d.plan_bytes;
    }
    out->devices = d.devices > 1 ? d.devices : 1;
    gl_ctx_release(d.ctx);
    out->lwork_min = lwork_min;
    snprintf(out->lwork_rule, sizeof out->lwork_rule, "%s",
             !request.over_limit                ? "lapack"
             : d.path != GL_PATH_LAPACK         ? "ours"
                                                : "true-size");
    return 1;
}
