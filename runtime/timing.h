/* Per-thread record of the last accelerated call (gpulapack_last_timing). */
#ifndef GL_TIMING_H
#define GL_TIMING_H

#include "../include/gpulapack.h"

/* Per-stage seconds of one pipeline run (back: the back-transformation of
 * the vectors). */
typedef struct gl_stage_times {
    double stage1, stage2, stage3, back;
} gl_stage_times;

/* Records a finished accelerated call of this thread. */
void gl_timing_record(const char *routine, const char *path,
                      const gl_stage_times *t, double total);

#endif
