/* GPULAPACK_PROFILE: where the time of an accelerated call goes, written to
 * the log (docs/env.md).  The stage times say which stage is slow; this
 * says which operation of it: every operation of the GPU runtime (kernel
 * launches by name, vendor BLAS calls, copies, allocations) is timed to
 * its end, and the pipelines time their host sections by name.  Waiting
 * for each operation costs the overlap of host and device work, so a
 * profiled call is slower than an unprofiled one: the profile attributes
 * time, the bench measures it. */
#ifndef GL_PROFILE_H
#define GL_PROFILE_H

#include "context.h"

/* Starts the profile of one accelerated call on ctx, when
 * GPULAPACK_PROFILE asks for one: ctx->gpu becomes a wrapper of its
 * runtime that times every operation (on the host, only the pipelines'
 * sections are timed); without it ctx->gpu is the runtime itself. */
void gl_profile_begin(gl_ctx *ctx);

/* Labels what follows with the pipeline's stage ("stage1", "back", a
 * string literal without spaces) and returns gl_now(): the stage clocks
 * of the pipelines are read through it. */
double gl_profile_stage(gl_ctx *ctx, const char *stage);

/* The clock for a host section: gl_now() while ctx's call is profiled,
 * else 0 (no clock read). */
double gl_profile_clock(const gl_ctx *ctx);

/* Adds the time since `since` (from gl_profile_clock) to the host
 * section `name` (a string literal) of the current stage. */
void gl_profile_section(gl_ctx *ctx, const char *name, double since);

/* Adds calls and an amount (bytes) without time to the row `name` (a
 * string literal) of the current stage: what a kernel counted (the
 * window chase's traffic, kernels/backend/gpu/gpu_chase.c
 * chase_traffic). */
void gl_profile_count(gl_ctx *ctx, const char *name, long calls,
                      double bytes);

/* Writes the profile of ctx's call to the log (level 1), one line per
 * stage and operation, and ends it; nothing if none was begun. */
void gl_profile_end(gl_ctx *ctx, const char *routine);

#endif
