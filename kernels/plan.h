/* A call's plan: what the policy decided for one accepted call
 * (lapack_api/entry.c), made once by its family's planner and given to
 * the pipeline, which runs by it (docs/design/memory.md).  The execution
 * context (runtime/context.h) holds what outlives the call: the device,
 * its queue, its ledger, the profile and the device's tuning; the plan
 * holds what is the call's own, so that a pooled context is never
 * written for one call, and a retry makes a new plan instead of editing
 * this one (gl_accel_retry). */
#ifndef GL_PLAN_H
#define GL_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "../runtime/context.h"
#include "../runtime/device.h"

typedef struct gl_call_plan {
    gl_method method;      /* how a GPU path solves it (two-stage on the
                              host and for every family but ?syev's) */
    gl_plan_tier tier;     /* where it keeps its matrices */
    gl_room room;          /* what it was fitted against: the bytes it may
                              hold (a plan sizes its streamed chase's
                              segments to them) and the device's largest
                              allocation; {0, 0} on the host */
    int devices;           /* the devices sharing the call (1: one) */
    int product_tile;      /* stage 3's merges multiplied in blocks of
                              this many columns (the lean and streamed
                              plans, whose device holds the chase's
                              reflectors meanwhile); 0: whole */
    int64_t device_bytes;  /* its device high-water mark ... */
    int64_t largest;       /* ... and its largest single allocation */
} gl_call_plan;

/* A planner's byte count as the plan keeps it. */
static inline int64_t gl_plan_bytes(size_t bytes)
{
    return bytes < (size_t)INT64_MAX ? (int64_t)bytes : INT64_MAX;
}

#endif
