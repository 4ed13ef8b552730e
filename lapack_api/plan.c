/* A call's plan (entry.h gl_plan_make): its pipeline's own, made by its
 * family's planner with the tuning of the device considered; and the C
 * API's question of what a call would do (gpulapack_plan_call). */
#include "entry.h"

#include <stdio.h>
#include <string.h>

#include "../include/gpulapack.h"
#include "../kernels/call_shape.h"
#include "workspace.h"

int gl_plan_make(const gl_request *request, const gl_tuning *tuning,
                 gl_call_plan *plan)
{
    if (request->plan(request->args, tuning, plan))
        return 1;
    plan->device_bytes = plan->largest = -1;
    return 0;
}

/* ---- gpulapack_plan_call (include/gpulapack.h) ------------------------- */

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
    case GL_FAMILY_SYEV:
    case GL_FAMILY_SYEVD:
        s->jobz = j0, s->range = 'A', s->m = s->n;
        return len == 1 && one_of(j0, "NV");
    case GL_FAMILY_SYEVR:
    case GL_FAMILY_SYEVX:
        s->jobz = j0, s->range = j1, s->m = s->n;
        return len == 2 && one_of(j0, "NV") && one_of(j1, "AVI");
    case GL_FAMILY_GESVD:
        s->jobu = j0, s->jobvt = j1;
        return len == 2 && one_of(j0, "NOSA") && one_of(j1, "NOSA") &&
               !(j0 == 'O' && j1 == 'O');
    case GL_FAMILY_GESDD:
        s->jobu = s->jobvt = j0;
        return len == 1 && one_of(j0, "NOSA");
    default:   /* no shape the planners know */
        return 0;
    }
}

/* The largest of LAPACK's workspace minimums of the call (LWORK, LRWORK,
 * LIWORK; the _2stage forms JOBZ = 'N' only): -1 where not known. */
static long long largest_minimum(const gl_call_name *name,
                                 const gl_call_shape *s)
{
    char prec = name->precision;
    int cx = gl_call_name_complex(name), two = name->two_stage;
    int64_t min[3] = {-1, -1, -1};
    int ok = 0;
    switch (s->family) {
    case GL_FAMILY_SYEV: ok = gl_minimum_syev(prec, two, s->jobz, s->n, min); break;
    case GL_FAMILY_SYEVD: ok = gl_minimum_syevd(prec, two, s->jobz, s->n, min); break;
    case GL_FAMILY_SYEVR: ok = gl_minimum_syevr(prec, two, s->jobz, s->n, min); break;
    case GL_FAMILY_SYEVX: ok = gl_minimum_syevx(prec, two, s->jobz, s->n, min); break;
    case GL_FAMILY_GESVD:
        ok = gl_minimum_gesvd(prec, s->jobu, s->jobvt, s->m, s->n, min);
        if (ok && gl_gesvd_lp64_need(s->m, s->n, s->m) > gl_lwork_limit())
            min[0] = gl_gesvd_lp64_need(s->m, s->n, s->m);
        break;
    case GL_FAMILY_GESDD: ok = gl_minimum_gesdd(cx, s->jobu, s->m, s->n, min); break;
    default: break;
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
static int (*const call_planners[])(const void *, const gl_tuning *,
                                    gl_call_plan *) = {
    gl_s_call_plan_make, gl_d_call_plan_make, gl_c_call_plan_make,
    gl_z_call_plan_make};

GL_EXPORT int gpulapack_plan_call(const char *routine, const char *jobs,
                                  long long m, long long n, long long count,
                                  gpulapack_call_plan *out)
{
    static const char letters[] = "sdcz";   /* call_planners' order */
    gl_call_name name;
    if (!routine || !jobs || !out || m < 0 || n < 0 ||
        !gl_call_name_parse(routine, &name))
        return 0;
    int svd = name.family->kind == GL_KIND_SVD;
    gl_call_shape shape = {.family = name.family->id, .m = m, .n = n,
                           .count = count};
    if (!call_jobs(&shape, jobs) ||
        (shape.range == 'I' && (count < 0 || count > n)))
        return 0;
    /* the request an entry would make for a valid call with enough
     * workspace */
    gl_routine named = GL_ROUTINE_INIT(routine);
    named.two_stage = name.two_stage;
    long long size = svd && m < n ? m : n;
    gl_request request = {
        .routine = &named,
        .name = name,
        .size = size,
        .supported = size >= 1 && m <= INT32_MAX && n <= INT32_MAX,
        .vectors = svd ? shape.jobu != 'N' || shape.jobvt != 'N'
                       : shape.jobz != 'N',
        .plan = call_planners[strchr(letters, name.precision) - letters],
        .args = &shape};
    /* an LP64 call over the workspace limit takes our path whatever the
     * crossovers, as the entry does */
    long long lwork_min = largest_minimum(&name, &shape);
    request.over_limit = lwork_min > gl_lwork_limit();
    gl_decision d = gl_policy(&request);
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", gl_path_name(d.path));
    if (d.path == GL_PATH_LAPACK)
        snprintf(out->reason, sizeof out->reason, "%s%s%s",
                 gl_reason_name(d.reason), d.why[0] ? " " : "", d.why);
    if (d.tier_name) {
        snprintf(out->plan, sizeof out->plan, "%s", d.tier_name);
        out->device_bytes = d.plan_bytes;
    }
    out->devices = d.plan.devices > 1 ? d.plan.devices : 1;
    out->lwork_min = lwork_min;
    snprintf(out->lwork_rule, sizeof out->lwork_rule, "%s",
             !request.over_limit                ? "lapack"
             : d.path != GL_PATH_LAPACK         ? "ours"
                                                : "true-size");
    return 1;
}
