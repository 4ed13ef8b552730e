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
    /* The shapes its steps run by, chosen from the device's tuning by the
     * planner alone (runtime/tune.h), so that what it counts is what the
     * pipeline allocates (0 where the plan has no such step): */
    int band;              /* stage 1's half-width b */
    int chase_band;        /* the chase's half-width (the streamed values
                              narrow b to it in core; the lean plan's is
                              b, at least 1) */
    int stage1_block;      /* stage 1's columns of panels whose updates
                              the matrix takes together */
    int stage1_tile;       /* the tile columns a device set shares stage 1
                              by (stage1_peers.c; 0: one device) */
    int tile_width;        /* stage 2's passes of a band without vectors
                              (gb2bd) */
    int group;             /* sweeps per compact-WY block of the chase's
                              store */
    int tile;              /* the lean and streamed plans' tiles and
                              blocks of vectors */
    int segment;           /* sweeps per parked segment of the streamed
                              chase (0: its store kept on the device) */
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
