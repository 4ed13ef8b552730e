/* Run-time configuration from the environment, read once on first use
 * (never in a library constructor).  docs/env.md documents every variable. */
#ifndef GL_CONFIG_H
#define GL_CONFIG_H

/* GPULAPACK_DEVICE=auto|host|opencl[:p.d]|cuda[:i]|hip[:i], or a set of
 * devices of one runtime for one call: cuda:0,1 / opencl:0.0,0.1 (the
 * first takes the call, the others share its work), cuda:all. */
enum { GL_MAX_DEVICE_SET = 8 };
struct gl_backend;
typedef struct gl_device_request {
    /* the backend named (its row of runtime/backend.c, which gives its
     * name and device syntax); NULL: the automatic choice */
    const struct gl_backend *backend;
    int index;      /* cuda/hip device, OpenCL device; -1 = best one */
    int platform;   /* OpenCL platform; -1 = any */
    int all;        /* every device of the runtime ("cuda:all") */
    int count;      /* devices listed (the first is index, platform) */
    int indices[GL_MAX_DEVICE_SET], platforms[GL_MAX_DEVICE_SET];
} gl_device_request;

/* GPULAPACK_CHASE: the device chase's kernel (kernels/device/chase.h):
 * each task's blocks read from the band and written back (tasks), or a
 * sweep's working window kept in local memory from step to step
 * (window). */
enum { GL_CHASE_TUNED, GL_CHASE_TASKS, GL_CHASE_WINDOW };
enum { GL_VALUES_TUNED, GL_VALUES_LAPACK, GL_VALUES_BISECTION };
enum { GL_HOST_CHASE_TUNED, GL_HOST_CHASE_SWEEPS, GL_HOST_CHASE_SPLIT };

/* GPULAPACK_METHOD: how a GPU path solves a ?syev-family call
 * (docs/design/methods.md): the tuning table's choice (auto), or one
 * method for every size. */
enum { GL_METHOD_AUTO, GL_METHOD_FORCE_TWO_STAGE, GL_METHOD_FORCE_ONE_STAGE,
       GL_METHOD_FORCE_VENDOR };

/* GPULAPACK_PLAN=streamed-values: the streamed plan first for the calls
 * without vectors, the automatic order for the others (LAPACK's svd
 * input with only the values streamed takes minutes, not an hour). */
#define GL_PLAN_STREAMED_VALUES 3

typedef struct gl_config {
    int verbose;                /* GPULAPACK_VERBOSE, 0..3 */
    int log_fd;                 /* stderr, or the GPULAPACK_LOG file */
    long min_n;                 /* GPULAPACK_MIN_N, -1 = tuning table */
    long host_threads;          /* GPULAPACK_HOST_THREADS, 0 = all CPUs */
    int host_values;            /* GPULAPACK_HOST_VALUES: GL_VALUES_LAPACK or GL_VALUES_BISECTION, 0 = tuned */
    int host_chase;             /* GPULAPACK_HOST_CHASE: GL_HOST_CHASE_SWEEPS or GL_HOST_CHASE_SPLIT, 0 = tuned */
    long band;                  /* GPULAPACK_BAND: stage-1 half-width, 0 = tuned */
    long tile_width;            /* GPULAPACK_TILE_WIDTH: stage-2 TW, 0 = tuned */
    long group;                 /* GPULAPACK_GROUP: sweeps per WY block, 0 = tuned */
    long stage1_block;          /* GPULAPACK_STAGE1_BLOCK: columns per trailing update, 0 = tuned */
    long sytrd_stages;          /* GPULAPACK_SYTRD_STAGES: 1 or 2, 0 = tuned */
    long chunk;                 /* GPULAPACK_CHUNK: columns per host thread, 0 = tuned */
    int clblast;                /* GPULAPACK_CLBLAST: 0 never, >0 always, -1 (unset) on GPUs */
    int vendor_blas;            /* GPULAPACK_CUBLAS: 0 never, else when present */
    int graphs;                 /* GPULAPACK_GRAPHS: 0 no CUDA/HIP graphs */
    int hugepages;              /* GPULAPACK_HUGEPAGES: 1 advise huge pages for work arrays */
    long host_memory_mb;        /* GPULAPACK_HOST_MEMORY_MB: cap on large work arrays, -1 = none */
    double device_memory_mb;    /* GPULAPACK_DEVICE_MEMORY_MB: cap on a call's device memory, -1 = none */
    long host_keep_mb;          /* GPULAPACK_HOST_KEEP_MB: cap on large arrays kept between calls, -1 = none */
    long long lwork_limit;      /* GPULAPACK_LWORK_LIMIT: the largest workspace length an LP64 caller can pass
                                   (2147483647; the tests lower it to reach the rules of docs/large.md at small n) */
    long group_threads;         /* GPULAPACK_GROUP_THREADS: device work-group size, 0 = tuned */
    long max_groups;            /* GPULAPACK_MAX_GROUPS: work-groups per chase launch, 0 = all */
    long panel_rows;            /* GPULAPACK_PANEL_ROWS: rows per work-group of tall panel leaves, 0 = tuned */
    long panel_groups;          /* GPULAPACK_PANEL_GROUPS: work-groups of a tall panel leaf's launch, -1 = tuned */
    long chase_groups;          /* GPULAPACK_CHASE_GROUPS: one-launch chase's work-groups, 0 = waves, -1 = tuned */
    int chase_kernel;           /* GPULAPACK_CHASE: GL_CHASE_TASKS or GL_CHASE_WINDOW, 0 = tuned */
    int cusolver_syevd_alg;     /* GPULAPACK_CUSOLVER_SYEVD_ALG: 1, 2; 0 = cuSOLVER's default */
    int cusolver_syevd_function; /* GPULAPACK_CUSOLVER_SYEVD_FUNCTION: cusolverDnFunction_t of Xsyevd, -1 = unknown */
    long dc_leaf;               /* GPULAPACK_DC_LEAF: largest stage-3 subproblem left whole to LAPACK, 0 = tuned */
    int plan;                   /* GPULAPACK_PLAN: -1 auto (the first tier that fits), or a gl_plan_tier first,
                                   or GL_PLAN_STREAMED_VALUES */
    long ooc_band;              /* GPULAPACK_OOC_BAND: the streamed plan's band, 0 = tuned */
    long ooc_tile;              /* GPULAPACK_OOC_TILE: the streamed plan's tile side, 0 = tuned */
    long ooc_chase_band;        /* GPULAPACK_OOC_CHASE_BAND: the band a wider one is reduced to for the chase, 0 = tuned */
    int ooc_queues;             /* GPULAPACK_OOC_QUEUES: 1 the streamed tiles' copies in order on the call's queue,
                                   3 (default) on copy lanes of their own */
    long ooc_segment;           /* GPULAPACK_OOC_SEGMENT: sweeps per parked segment of the streamed chase, 0 = from the device budget */
    int profile;                /* GPULAPACK_PROFILE: 1 log where each accelerated call's time goes */
    const char *disable;        /* GPULAPACK_DISABLE, NULL = none */
    const char *lapack;         /* GPULAPACK_LAPACK, NULL = search */
    const char *lapack64;       /* GPULAPACK_LAPACK64: the ILP64 LAPACK of docs/large.md's restarts, NULL = the defaults */
    const char *tune_file;      /* GPULAPACK_TUNE_FILE, NULL = the default under the cache directory */
    gl_device_request device;   /* GPULAPACK_DEVICE */
    int device_valid;           /* 0 if GPULAPACK_DEVICE could not be parsed */
    int method;                 /* GPULAPACK_METHOD: GL_METHOD_FORCE_* or GL_METHOD_AUTO */
} gl_config;

const gl_config *gl_config_get(void);

/* Parses a GPULAPACK_DEVICE value; returns 0 if it is not valid. */
int gl_parse_device(const char *text, gl_device_request *out);

/* 1 if the GPULAPACK_DISABLE list names the routine ("dgesdd"), "all", or
 * the routine without its precision letter ("gesdd" disables s/d/c/z). */
int gl_config_disabled(const gl_config *config, const char *routine);

#endif
