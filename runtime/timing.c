#include <stdio.h>

#include "fortran.h"
#include "timing.h"

/* The calling thread's record of its last call: per thread by contract
 * (gpulapack_last_timing answers for the thread that made the call, and
 * gpulapack-tune asks which path its own last call took). */
static _Thread_local struct {
    gpulapack_timing timing;
    int have_timing;
    int path;
} last = {.path = -1};

void gl_timing_record(const char *routine, const char *path,
                      const gl_stage_times *t, double total)
{
    gpulapack_timing *r = &last.timing;
    snprintf(r->routine, sizeof r->routine, "%s", routine);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->stage1 = t->stage1;
    r->stage2 = t->stage2;
    r->stage3 = t->stage3;
    r->backtransform = t->back;
    r->total = total;
    double other = total - t->stage1 - t->stage2 - t->stage3 - t->back;
    r->other = other > 0 ? other : 0;
    last.have_timing = 1;
}

void gl_timing_note_path(int path) { last.path = path; }
int gl_timing_last_path(void) { return last.path; }

GL_EXPORT int gpulapack_last_timing(gpulapack_timing *out)
{
    if (!last.have_timing || !out)
        return 0;
    *out = last.timing;
    return 1;
}
