/* Return codes of the stage drivers and pipelines (besides 0 and LAPACK's
 * INFO > 0 of a stage-3 routine). */
#ifndef GL_STATUS_H
#define GL_STATUS_H

#include "../runtime/timing.h"   /* gl_stage_times */

/* The backend failed (allocation, missing routine) before anything of the
 * caller's was written: the call restarts on the real LAPACK. */
#define GL_STAGE_FAULT (-1)
/* The input holds Inf or NaN: LAPACK's own handling of it (INFO = -4 of
 * ?gesdd, NaN results of the others) is what the caller must get. */
#define GL_STAGE_NONFINITE (-2)

#endif
