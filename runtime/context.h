/* The execution context of an accelerated call: what its operations run
 * on.  BLIS hands its kernels a cntx_t and MAGMA a queue; here one gl_ctx
 * per device in use holds the path, the runtime and device, the runtime's
 * queue state of the context (queue or stream, kernel objects, staging
 * buffers, vendor handles, error state: gpu.h open/close), the call's
 * profile and the device's tuning.  The entry point takes one after the
 * policy has chosen the path and passes it down through the pipelines,
 * the operation table (kernels/ops.h) and the runtime; nothing else
 * decides where an operation runs, and any thread that holds a context
 * may use it (one thread at a time).
 *
 * Contexts are pooled per (path, device): making a queue, a cuBLAS
 * handle and pinned staging buffers costs milliseconds, so a released
 * context keeps them for the next call on its device.  The pool lives as
 * long as the process, as the runtimes' libraries do (device.c). */
#ifndef GL_CONTEXT_H
#define GL_CONTEXT_H

#include "config.h"
#include "gpu.h"
#include "path.h"
#include "tune.h"

struct gl_profile;   /* runtime/profile.c */

/* How a GPU path solves an accepted call (docs/design/methods.md): the
 * two-stage reduction (dense -> band -> tridiagonal/bidiagonal by bulge
 * chasing), the one-stage reduction on the device (?sytrd's Householder
 * tridiagonalization, then the device's stage 3 and the back-
 * transformation by its reflectors), or the vendor's own solver
 * (cuSOLVER, rocSOLVER) opened at run time.  The policy chooses per
 * routine, job and size (tune.h) and logs it (method=); the call's plan
 * carries it (kernels/plan.h). */
typedef enum gl_method {
    GL_METHOD_TWO_STAGE,
    GL_METHOD_ONE_STAGE,
    GL_METHOD_VENDOR,
} gl_method;

/* The device memory a context's call holds, as its runtime allocates and
 * releases it (runtime/cudalike/, runtime/opencl/): what the profile
 * reports as the call's high-water mark, and where GPULAPACK_DEVICE_
 * MEMORY_MB is enforced (an allocation past it is refused as the driver
 * would refuse one past the device's memory). */
typedef struct gl_device_ledger {
    size_t in_use;   /* bytes allocated and not yet released */
    size_t peak;     /* the most in_use since the call began */
    size_t limit;    /* refuse beyond this ... */
    int capped;      /* ... when set (GPULAPACK_DEVICE_MEMORY_MB) */
    int refused;     /* an allocation of the call was refused (the cap,
                        the driver, GPULAPACK_FAULT=alloc) */
    struct gl_ledger_entry {
        void *ptr;
        size_t bytes;
    } *live;         /* the allocations in use */
    size_t count, capacity;
} gl_device_ledger;

/* Where a GPU path keeps the call's matrices (docs/design/memory.md):
 * all in device memory (in-core); A's reduction in core but its
 * reflectors parked in host memory after stage 1 (lean: the Hermitian
 * eigenvectors, the SVD's vectors); or the working copy of A in host
 * memory, streamed through the device in tiles (streamed: the Hermitian
 * eigenproblem and the singular values).  The policy takes the first
 * whose plan fits, in the order in-core, lean, streamed (log plan=); the
 * call's plan carries it (kernels/plan.h). */
typedef enum gl_plan_tier {
    GL_PLAN_IN_CORE,
    GL_PLAN_STREAMED,
    GL_PLAN_LEAN,
    GL_PLAN_TIERS
} gl_plan_tier;

struct gl_ctx {
    gl_path path;                      /* host, opencl, cuda or hip */
    const gl_gpu *runtime;             /* the path's runtime; NULL: host */
    const gl_gpu *gpu;                 /* what the operations call: the
                                          runtime, or the profile's timing
                                          wrapper of it */
    int device;                        /* the runtime's device; -1: host */
    const gl_gpu_device_info *info;    /* that device; NULL: host */
    void *queue;                       /* the runtime's state (gpu.h) */
    struct gl_profile *profile;        /* GPULAPACK_PROFILE's record */
    gl_tuning tuning;                  /* taken for this device */
    struct gl_ctx *peers[GL_MAX_DEVICE_SET - 1];   /* the call's contexts on
                                          the other devices of its set
                                          (gl_ctx_add_peers) ... */
    int npeers;                        /* ... which share its work */
    gl_device_ledger memory;           /* its device memory */
    struct gl_ctx *next;               /* the pool's list */
};

/* A context on path (GL_PATH_HOST or a GPU path) and device (the
 * runtime's index; -1: the device the path's runtime chose from
 * GPULAPACK_DEVICE), ready for a call: its error state cleared and,
 * under GPULAPACK_PROFILE, its profile begun.  NULL when the path has no
 * such device or it cannot be opened. */
gl_ctx *gl_ctx_acquire(gl_path path, int device);

/* 1 when ctx's runtime has the vendor's eigensolver (cuSOLVER on CUDA,
 * rocSOLVER on HIP), opened at most once per process on first use and
 * never closed; 0 for the host, OpenCL or a library that is missing. */
int gl_ctx_has_vendor_solver(gl_ctx *ctx);

/* The ledger's side of a runtime's alloc: 0 when bytes more fit under
 * the context's limit, -1 (the refusal noted) when they do not. */
int gl_ctx_memory_allows(gl_ctx *ctx, size_t bytes);
/* Notes an allocation the driver refused. */
void gl_ctx_memory_refused(gl_ctx *ctx);
/* Records the allocation ptr of bytes (after the runtime made it); -1
 * when the ledger cannot grow (the runtime then frees ptr and fails). */
int gl_ctx_memory_took(gl_ctx *ctx, void *ptr, size_t bytes);
/* Forgets the allocation ptr (the runtime releases it). */
void gl_ctx_memory_gave(gl_ctx *ctx, void *ptr);
/* Frees the ledger's own list (the runtime's close). */
void gl_ctx_memory_close(gl_ctx *ctx);

/* Contexts for ctx's call on the other devices of its path's set
 * (GPULAPACK_DEVICE=cuda:0,1, device.h gl_device_peers), kept in
 * ctx->peers and released with ctx; a device whose context cannot be
 * made is left out.  Returns ctx->npeers. */
int gl_ctx_add_peers(gl_ctx *ctx);
/* Under GPULAPACK_DEVICE=auto: contexts on at most `most` of the path's
 * other GPUs (device.h gl_device_spares), as gl_ctx_add_peers; and how
 * many of them there are. */
int gl_ctx_add_spares(gl_ctx *ctx, int most);
int gl_ctx_spare_count(const gl_ctx *ctx);

/* Ends the call's use of ctx (NULL: nothing): its work is waited for and
 * it goes back to the pool, its peers first. */
void gl_ctx_release(gl_ctx *ctx);

#endif
