/* Tuning parameters of our own path: crossover sizes, band widths, tile
 * widths, threads.  Environment overrides win (docs/env.md); the defaults
 * come from the measurements in docs/performance.md.  runtime/tune.c has
 * the crossovers and methods, tune_file.c the tune file (and the device
 * sets), tune_params.c the rest. */
#ifndef GL_TUNE_H
#define GL_TUNE_H

#include <stddef.h>

#include "family.h"

/* The crossover of a path (a backend's name, backend.h) for the routine
 * called (name: family.h) and job (vectors: the job asks for vectors, or Q, P): calls
 * of at least this size are faster there than on the real LAPACK (and,
 * for a GPU path, than on the host path); LONG_MAX: never.  From the
 * tune file of gpulapack-tune when one for this machine is in force
 * (GPULAPACK_TUNE_FILE, else $XDG_CACHE_HOME/gpulapack/tune.txt or
 * ~/.cache/gpulapack/tune.txt), else built in (host: by CPU count).
 * GPULAPACK_MIN_N overrides both in the policy. */
long gl_tune_crossover(const gl_call_name *name, int vectors,
                       const char *path);
/* The smallest crossover any GPU path may have for the call, without
 * discovering a device: smaller calls never open a GPU runtime. */
long gl_tune_gpu_floor(const gl_call_name *name, int vectors);
/* The built-in figure, whatever the file says (for gpulapack-tune). */
long gl_tune_builtin(const gl_call_name *name, int vectors, const char *path);

/* The method of GPU path (a GPU backend's name) for a call of the
 * routine name and job of size n: a gl_method (context.h: 0 two-stage, 1
 * one-stage, 2 vendor), from the tune file's method lines for this
 * device, else built in (docs/design/methods.md): the vendor's solver
 * where the built-in measurements show it faster (*source, when source
 * is not NULL: the machine and day they come from; else NULL).  Only the
 * ?syev family has methods other than the two-stage; the policy checks
 * that the method can run the call (lapack_api/entry.c). */
int gl_tune_method(const gl_call_name *name, int vectors, const char *path,
                   long n, const char **source);
/* How many devices of GPU path (a GPU backend's name) a call of the
 * routine name and job of size n should use under GPULAPACK_DEVICE=auto, when
 * count of them are there: the count of the tune file's devices line
 * for this device whose size n reaches (at most count), else 1.  None
 * is built in. */
int gl_tune_devices(const gl_call_name *name, int vectors, const char *path,
                    int count, long n);
/* "two-stage", "one-stage", "vendor" for a gl_method, and back (-1: none). */
const char *gl_tune_method_name(int method);
int gl_tune_method_named(const char *name);

/* "built-in", or the name of the tune file in force. */
const char *gl_tune_source(void);
/* The file the library reads (GPULAPACK_TUNE_FILE or the default), into
 * out; NULL if there is none (no HOME). gl_tune_default_file: the default
 * alone, 0 or -1. */
const char *gl_tune_file_name(char *out, size_t size);
int gl_tune_default_file(char *out, size_t size);
/* The identities a tune file is written for: "<cpu model>/<cpus>" and
 * "<device name>/<memory bytes>" (an OpenCL CPU device: "<name>/<compute
 * units>cu", as PoCL's memory follows the host's free memory), blanks as
 * '_'. */
struct gl_gpu_device_info;
void gl_tune_host_identity(char *out, size_t size);
void gl_tune_device_identity(const struct gl_gpu_device_info *info, char *out,
                             size_t size);

/* A tune file's host-threads line (gpulapack-tune): the host's stage 2
 * (the chase), values-only stage 3 or stage 1's products of order n and
 * more ran fastest on that many threads, the most a call of that size
 * takes. */
enum { GL_TUNE_HOST_LINES = 16 };
enum {
    GL_HOST_STAGE_CHASE,
    GL_HOST_STAGE_VALUES,
    GL_HOST_STAGE_PRODUCTS,
    GL_HOST_STAGES
};
/* Their names in the lines, in that order (a static array's initializer,
 * for the file's reader and gpulapack-tune, its writer). */
#define GL_HOST_STAGE_NAMES {"chase", "values", "products"}
typedef struct gl_host_threads_line {
    int stage;   /* GL_HOST_STAGE_* */
    long n;
    int threads;
} gl_host_threads_line;

/* The settings of one execution context (runtime/context.h) that depend
 * on where it runs, taken once when the context is made for its device:
 * two devices may be tuned apart.  Environment overrides win, as in the
 * functions below.  The host backend's threads come from it too
 * (kernels/backend/host/threads.h), with the CPUs the process may run on
 * at the time (gl_host_threads). */
typedef struct gl_tuning {
    int device;            /* a device's context (its defaults differ) */
    int group_threads;     /* gl_tune_group_threads */
    long max_groups;       /* gl_tune_max_groups */
    long panel_rows;       /* gl_tune_panel_rows */
    long panel_groups;     /* gl_tune_panel_groups */
    long chase_groups;     /* gl_tune_chase_groups */
    int chase_kernel;      /* gl_tune_chase_kernel */
    long dc_leaf;          /* gl_tune_dc_leaf */
    int chunk;             /* gl_tune_chunk */
    int sytrd_stages;      /* gl_tune_sytrd_stages */
    int ooc_wide_band;     /* from the tune file's rates line; 0: none */
    int chase_schedule;    /* gl_tune_chase_schedule */
    int host_values;       /* GPULAPACK_HOST_VALUES (config.h GL_VALUES_*) */
    int host_lines;        /* the tune file's host-threads lines, in its
                              order (none where GPULAPACK_HOST_THREADS
                              decides alone) */
    gl_host_threads_line host_line[GL_TUNE_HOST_LINES];
} gl_tuning;
void gl_tune_snapshot(const struct gl_gpu_device_info *info, gl_tuning *out);

/* Stage-1 half-width of the band for an n x n problem: kind 'G' (SVD) or
 * 'H' (Hermitian eigenproblem), vectors: the band's reflectors will be
 * applied to vectors; GPULAPACK_BAND overrides. */
int gl_tune_band(const gl_tuning *t, char kind, int complex_, long n,
                 int vectors);

/* Stage 1 (sy2sb and ge2gb) of an n x n problem: columns of panels whose
 * updates the rest of the matrix takes together, a multiple of the band's
 * half-width b (b: one panel at a time); GPULAPACK_STAGE1_BLOCK
 * overrides. */
int gl_tune_stage1_block(const gl_tuning *t, long n, int b);

/* Stage 1 over a set of `devices` devices (kernels/tiers/stage1_peers.c): the
 * width of the tile columns dealt out block-cyclically, a multiple of b;
 * GPULAPACK_OOC_TILE overrides. */
int gl_tune_stage1_tile(long n, int b, int devices);

/* ?sytrd/?hetrd: 1 for the one-stage reduction, 2 for the two-stage one
 * with its Q re-factored (kernels/pipelines/sytrd.c); GPULAPACK_SYTRD_STAGES
 * overrides. */
int gl_tune_sytrd_stages(void);

/* Stage-2 tile width (half-width removed per chasing pass) for a band of
 * half-width b; GPULAPACK_TILE_WIDTH overrides. */
int gl_tune_tile_width(int b);

/* Sweeps per compact-WY block of the stage-2 back-transformation for a
 * band of half-width b, applied by the host or by a device;
 * GPULAPACK_GROUP overrides. */
int gl_tune_group(const gl_tuning *t, int b);

/* Columns of the vectors each host thread takes at a time through the
 * stage-2 back-transformation; GPULAPACK_CHUNK overrides. */
int gl_tune_chunk(void);

/* Device kernels: work-items per work-group of the one-group-per-task
 * kernels (bulge-chasing tasks), GPULAPACK_GROUP_THREADS, default
 * 64; and the most work-groups one chase launch may have,
 * GPULAPACK_MAX_GROUPS (0 = a whole wavefront per launch; a wavefront
 * with more tasks is then split over several launches). */
int gl_tune_group_threads(void);
long gl_tune_max_groups(void);

/* Device panel leaves: rows of the long side per work-group when a leaf
 * is factored by many work-groups (GPULAPACK_PANEL_ROWS, default 256);
 * leaves whose long side is shorter than 4 blocks take one work-group. */
long gl_tune_panel_rows(void);
/* ... and the work-groups of such a leaf's one launch,
 * GPULAPACK_PANEL_GROUPS, -1 when unset (the runtime's resident
 * work-groups decide). */
long gl_tune_panel_groups(void);

/* Device bulge chasing: work-groups of the one-launch chase,
 * GPULAPACK_CHASE_GROUPS (0: one launch per wavefront), -1 when unset
 * (the runtime's resident work-groups decide). */
long gl_tune_chase_groups(void);
/* The device chase's kernel (config.h GL_CHASE_*); GPULAPACK_CHASE
 * overrides. */
int gl_tune_chase_kernel(void);

/* Stage 3 with vectors on a device (kernels/stages/dc_*.c): the
 * largest subproblem of the divide and conquer that the system
 * ?lasd0/?stedc solves whole on the host; the merges above it run on the
 * device (GPULAPACK_DC_LEAF, default 128). */
long gl_tune_dc_leaf(void);

/* The streamed plans (kernels/tiers/sy2sb_streamed.c, ge2gb_streamed.c,
 * docs/design/memory.md): the band of their passes, whose width divides
 * the bytes each pass streams (about n^3 / (6 b) elements each way in
 * all), at most 256 (the chase's widest, GPULAPACK_OOC_BAND); the
 * Hermitian values' wider band (up to 4096: the device's F / W from the
 * tune file's rates line in t, else 1024), reduced band-to-band in core
 * to the chase's (gl_tune_ooc_chase_band: at most 256 and the wide band,
 * GPULAPACK_OOC_CHASE_BAND); and the side of the tiles
 * (GPULAPACK_OOC_TILE; at least b + 1). */
int gl_tune_ooc_band(long n);
int gl_tune_ooc_wide_band(const gl_tuning *t, long n);
int gl_tune_ooc_chase_band(long n, int wide);
int gl_tune_ooc_tile(long n, int b);
/* The streamed plans' chase with the vectors keeps its whole store on the
 * device where the plan fits the device's budget, else parks it in host
 * memory in segments of the most sweeps that fit (the plans decide:
 * kernels/tiers/sy2sb_streamed.c, kernels/pipelines/svd_streamed.c).
 * GPULAPACK_OOC_SEGMENT forces parking in segments of that many sweeps,
 * rounded down to whole groups of the store (at least one group, of group
 * sweeps): returned here; 0 when unset. */
int gl_tune_ooc_segment(int group);

/* Threads the host kernels use: GPULAPACK_HOST_THREADS, else the CPUs this
 * process may run on. */
int gl_host_threads(void);

/* The host chase's schedules (kernels/backend/host/chase.c): each thread
 * whole groups of sweeps (sweeps); each thread its own range of every
 * group's steps, the cuts between the ranges moved toward the threads
 * that wait and thread 0 alone while the threads do not have their cores
 * (balanced), or the cuts kept equal (even); and, for the tests only,
 * the cuts moved and thread 0 alone at random (shaken). */
enum {
    GL_SCHEDULE_SWEEPS,
    GL_SCHEDULE_BALANCED,
    GL_SCHEDULE_EVEN,
    GL_SCHEDULE_SHAKEN
};

/* GPULAPACK_HOST_CHASE=split|even|sweeps: GL_SCHEDULE_BALANCED, _EVEN,
 * _SWEEPS. */
int gl_tune_chase_schedule(void);

#endif
