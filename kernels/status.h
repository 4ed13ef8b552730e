/* Return codes of the stage drivers and pipelines (besides 0 and LAPACK's
 * INFO > 0 of a stage-3 routine).  They lie outside every INFO LAPACK can
 * return (an argument error is minus the argument's position, and the
 * entries' GL_INFO_NO_LAPACK is -1000), so that neither can be taken for
 * the other; compare with the names, never with the values. */
#ifndef GL_STATUS_H
#define GL_STATUS_H

#include "../runtime/timing.h"   /* gl_stage_times */

/* The backend failed (allocation, missing routine) before anything of the
 * caller's was written: the call restarts on the real LAPACK. */
#define GL_STAGE_FAULT (-1000001)
/* The input holds Inf or NaN: LAPACK's own handling of it (INFO = -4 of
 * ?gesdd, NaN results of the others) is what the caller must get. */
#define GL_STAGE_NONFINITE (-1000002)

#endif
