#include <stdio.h>

#include "../lapack_api/fortran.h"
#include "timing.h"

static _Thread_local gpulapack_timing last;
static _Thread_local int have_last;

void gl_timing_record(const char *routine, const char *path, double stage1,
                      double stage2, double stage3, double total)
{
    snprintf(last.routine, sizeof last.routine, "%s", routine);
    snprintf(last.path, sizeof last.path, "%s", path);
    last.stage1 = stage1;
    last.stage2 = stage2;
    last.stage3 = stage3;
    last.total = total;
    double other = total - stage1 - stage2 - stage3;
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
