/* A call described by its routine's family, jobs and sizes, without its
 * arrays: what the C API's gpulapack_plan_call (lapack_api/plan.c) asks
 * the policy about before a program makes the call (the ScaLAPACK
 * interposer, before it gathers a matrix onto one process).  Precision-
 * neutral, so that one non-template file can hold the four planners. */
#ifndef GL_CALL_SHAPE_H
#define GL_CALL_SHAPE_H

#include <stddef.h>

#include "../runtime/family.h"
#include "../runtime/tune.h"
#include "plan.h"

/* family: GL_FAMILY_SYEV, _SYEVD, _SYEVR, _SYEVX, _GESVD or _GESDD
 * (runtime/family.h) */
typedef struct gl_call_shape {
    gl_family_id family;
    char jobz, range;      /* the ?syev family: JOBZ, RANGE ('A', 'V', 'I') */
    char jobu, jobvt;      /* ?gesvd: JOBU, JOBVT; ?gesdd: JOBZ in both */
    long m, n;             /* rows and columns (m = n for the ?syev family) */
    long count;            /* RANGE 'I': the vectors asked, IU - IL + 1 */
} gl_call_shape;

/* The plan of a call of this shape in each precision (its family's
 * planner): the signature of gl_request's plan (lapack_api/entry.h),
 * with call a gl_call_shape. */
#define GL_CALL_PLAN_MAKE_(p)                                                 \
    int gl_##p##_call_plan_make(const void *call, const gl_tuning *tuning,    \
                                gl_call_plan *plan)
#define GL_CALL_PLAN_MAKE(p) GL_CALL_PLAN_MAKE_(p)
GL_CALL_PLAN_MAKE(s);
GL_CALL_PLAN_MAKE(d);
GL_CALL_PLAN_MAKE(c);
GL_CALL_PLAN_MAKE(z);

#endif
