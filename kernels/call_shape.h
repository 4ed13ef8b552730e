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

/* family: GL_FAMILY_SYEV, _SYEVD, _SYEVR, _SYEVX, _GESVD or _GESDD
 * (runtime/family.h) */
typedef struct gl_call_shape {
    gl_family_id family;
    char jobz, range;      /* the ?syev family: JOBZ, RANGE ('A', 'V', 'I') */
    char jobu, jobvt;      /* ?gesvd: JOBU, JOBVT; ?gesdd: JOBZ in both */
    long m, n;             /* rows and columns (m = n for the ?syev family) */
    long count;            /* RANGE 'I': the vectors asked, IU - IL + 1 */
} gl_call_shape;

/* The device plan of a call of this shape in each precision: the
 * signature of gl_request's device_bytes (lapack_api/entry.h), with
 * call a gl_call_shape. */
#define GL_CALL_DEVICE_BYTES_(p)                                              \
    size_t gl_##p##_call_device_bytes(const void *call,                       \
                                      const gl_tuning *tuning, int method,    \
                                      int tier, size_t *largest)
#define GL_CALL_DEVICE_BYTES(p) GL_CALL_DEVICE_BYTES_(p)
GL_CALL_DEVICE_BYTES(s);
GL_CALL_DEVICE_BYTES(d);
GL_CALL_DEVICE_BYTES(c);
GL_CALL_DEVICE_BYTES(z);

#endif
