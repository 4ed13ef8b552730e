/* Backends compiled into this build and the devices they found. */
#ifndef GL_DEVICE_H
#define GL_DEVICE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "config.h"
#include "path.h"

/* Space-separated names of the backends compiled in ("host" always). */
const char *gl_backends_compiled(void);

/* Number of GPU devices found (discovery runs on first use). */
int gl_device_count(void);

/* A device's room for one call, which its plan must fit
 * (docs/design/memory.md): budget, the bytes the call may hold at once
 * (the least of the device's free memory, its total where the driver
 * cannot say, and GPULAPACK_DEVICE_MEMORY_MB; 0: not known, as on the
 * host), and max_alloc, its largest single allocation (0: no bound). */
typedef struct gl_room {
    size_t budget;
    unsigned long long max_alloc;
} gl_room;

/* The room of the device a GPU path uses now ({0, 0} for the host and a
 * path without a device). */
gl_room gl_device_room(gl_path path);

/* 1 when a plan of `bytes` at once, its largest single allocation
 * `largest`, fits room (negative: the plan does not exist). */
int gl_room_fits(const gl_room *room, int64_t bytes, int64_t largest);

/* GPULAPACK_DEVICE_MEMORY_MB in bytes; SIZE_MAX when it is not set. */
size_t gl_device_memory_cap(void);

/* The path that serves a request for the given device, or GL_PATH_LAPACK
 * when that device is not available: fp64 for double precision.  *why
 * (why may be NULL): "" when a path serves it, else "no-device" or
 * "device-fp64" (as gl_device_auto's).  Under auto: the first
 * compiled-in runtime (CUDA, HIP, OpenCL: the order of backend.h's rows)
 * with a GPU, else the host.  Whether the call's plan fits the device's
 * room is the policy's to say (lapack_api/entry.c). */
gl_path gl_device_path(const gl_device_request *request, int fp64,
                       const char **why);

/* The automatic choice: the GPU path of the first runtime, in the order
 * CUDA, HIP, OpenCL, that has a GPU (a later runtime is not opened once
 * one has a device), if that GPU has double precision where fp64 asks
 * for it; else GL_PATH_HOST with *why: "no-device", "runtime-init-failed"
 * or "device-fp64". */
gl_path gl_device_auto(int fp64, const char **why);

/* path itself if its runtime has a chosen device with double precision
 * where fp64 asks for it (GL_PATH_HOST always), else GL_PATH_LAPACK: for
 * gpulapack-tune. */
gl_path gl_device_path_of(gl_path path, int fp64);

/* 1 when the runtime of a GPU path has the vendor's eigensolver (its
 * library and entry points: gl_gpu solver_version), which the vendor
 * method needs; 0 for the host, OpenCL or a library that is missing.
 * No device is needed. */
int gl_device_vendor_solver(gl_path path);

/* The device a GPU path uses (discovering it), NULL if none. */
const struct gl_gpu_device_info *gl_device_chosen(gl_path path);

/* The device index, within its runtime, that a GPU path uses by default
 * (chosen from GPULAPACK_DEVICE, discovering it); -1 if none. */
int gl_device_chosen_index(gl_path path);

/* The other devices of the path's set (GPULAPACK_DEVICE=cuda:0,1,
 * cuda:all; at most GL_MAX_DEVICE_SET - 1, opened), which share a call's
 * work with the chosen one, into peers: their count. */
int gl_device_peers(gl_path path, int *peers);
/* Under GPULAPACK_DEVICE=auto: the path's other GPUs (at most
 * GL_MAX_DEVICE_SET - 1, opened only when a call takes them), which a
 * call may take as its set where
 * the tune file measured the set faster (gl_tune_devices), into spares:
 * their count (0 with several MPI processes on the node). */
int gl_device_spares(gl_path path, int *spares);

/* The runtime of a GPU path (NULL for the others). */
struct gl_gpu;
const struct gl_gpu *gl_device_gpu(gl_path path);

/* Device i of all runtimes' devices (0 <= i < gl_device_count()), and in
 * *chosen whether accelerated calls of its runtime use it; NULL if none. */
struct gl_gpu_device_info;
const struct gl_gpu_device_info *gl_device_info(int i, int *chosen);

/* GPU runtime libraries dlopen finds, e.g. "libcuda.so.1 libOpenCL.so.1". */
const char *gl_gpu_runtimes_found(void);

/* The process's one handle of a vendor runtime library: opened on the
 * first request, never closed (a second initialization of ROCm's LLVM
 * aborts the process); NULL if it does not open.  gl_runtime_open: the
 * first of a NULL-terminated list that opens (a row's sonames,
 * backend.h), its name in *opened. */
void *gl_runtime_library(const char *soname);
void *gl_runtime_open(const char *const *sonames, const char **opened);

/* A runtime's discovery failed ("runtime-init-failed", "no-device"): logged
 * at GPULAPACK_VERBOSE=1 with detail, and given as the reason of the calls
 * that then take another path. */
void gl_runtime_failed(const char *runtime, const char *reason,
                       const char *detail);

/* The path's name in the log and the tune file: "lapack", or its
 * backend's name (backend.h). */
const char *gl_path_name(gl_path path);

/* ---- for the runtimes: their gl_gpu choose and prepare ------------------ */

/* How a runtime ranks its devices for gl_device_choose. */
typedef enum gl_device_rank {
    /* memory x (compute units + 1): CUDA, HIP, whose devices are GPUs */
    GL_RANK_MEMORY_UNITS,
    /* GPUs first, then memory x (units + 1) x (clock + 1): OpenCL, whose
     * devices may be CPUs and which reports no memory bandwidth (the
     * clock orders one vendor's devices as the bandwidth would) */
    GL_RANK_GPU_MEMORY_UNITS_CLOCK,
} gl_device_rank;

/* gl_gpu choose of a runtime: of its devices of platform and device (-1:
 * any), GPUs only where gpu_only, the one that ranks highest (the first
 * of equals); -1 if none. */
int gl_device_choose(const struct gl_gpu *gpu, int platform, int device,
                     int gpu_only, gl_device_rank rank);

/* gl_gpu prepare of a runtime: open(i) under the device's lock unless
 * *opened says an earlier call opened it, *opened set when it succeeds;
 * 0, or -1 when open fails (the next call tries again).  The lock is the
 * one the runtime also holds while it loads onto the device (modules,
 * programs). */
int gl_device_prepare(pthread_mutex_t *lock, int *opened,
                      int (*open)(int i), int i);

#endif
