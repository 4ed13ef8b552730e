#include <stdio.h>

#include "fortran.h"
#include "timing.h"

static _Thread_local gpulapack_timing last;
static _Thread_local int have_last;

void gl_timing_record(const char *routine, const char *path,
                      const gl_stage_times *t, double total)
{
    snprintf(last.routine, sizeof last.routine, "%s", routine);
    snprintf(last.path, sizeof last.path, "%s", path);
    last.stage1 = t->stage1;
    last.stage2 = t->stage2;
    last.stage3 = t->stage3;
    last.backtransform = t->back;
    last.total = total;
    double other = total - t->stage1 - t->stage2 - t->stage3 - t->back;
    last.other = other > 0 ? other : 0;
    have_last = 1;
}

GL_EXPORT int gpulapack_last_timing(gpulapack_timing *out)
{
    if (!have_last || !out)
        return 0;
    *out = last;
    return 1;
}
