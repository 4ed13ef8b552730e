/* Per-thread record of the last call (gpulapack_last_timing). */
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

/* The path (a gl_path) of this thread's last call, whatever it was, as
 * the log gives it; -1 before the first. */
void gl_timing_note_path(int path);
int gl_timing_last_path(void);

#endif
