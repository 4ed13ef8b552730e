/* gpulapack: LAPACK's SVD and symmetric/Hermitian eigensolvers, accelerated,
 * behind the unchanged LAPACK Fortran ABI (dgesdd_, dsyevd_, ...).
 *
 * Programs need nothing from this header to use the library: they call
 * LAPACK as before.  It offers the few things LAPACK has no name for. */
#ifndef GPULAPACK_H
#define GPULAPACK_H

#ifdef __cplusplus
extern "C" {
#endif

#define GPULAPACK_VERSION "0.1.0"

/* The library's version string (GPULAPACK_VERSION of the build). */
const char *gpulapack_version(void);

/* File name of the real LAPACK that unaccelerated calls are forwarded to,
 * or NULL if none was found (see GPULAPACK_LAPACK in docs/env.md). */
const char *gpulapack_lapack_library(void);

/* Space-separated names of the backends compiled in, e.g. "host". */
const char *gpulapack_backends(void);

/* Number of devices found by the compiled-in GPU backends (OpenCL devices
 * of every type: GPUs, and CPU devices such as PoCL). */
int gpulapack_device_count(void);

/* One device found, as gpulapack-info lists it. */
typedef struct gpulapack_device {
    char id[24];          /* its GPULAPACK_DEVICE name, e.g. "opencl:0.1" */
    char name[96], platform[64], version[48];
    int gpu;              /* a GPU (else a CPU or other OpenCL device) */
    int fp64;             /* double precision (d and z routines) */
    unsigned long long memory;   /* bytes */
    unsigned compute_units, clock_mhz;
    int chosen;           /* the device accelerated calls use */
} gpulapack_device;

/* Fills *out for device i (0 <= i < gpulapack_device_count()); returns 1,
 * or 0 for an index out of range. */
int gpulapack_device_info(int i, gpulapack_device *out);

/* The path accelerated calls take with the current GPULAPACK_DEVICE:
 * "cuda", "hip", "opencl", "host", or "lapack" (the requested device is
 * missing). */
const char *gpulapack_path(void);

/* GPU runtime libraries found on this machine, space-separated (e.g.
 * "libOpenCL.so.1 libcuda.so.1"); empty if none. */
const char *gpulapack_gpu_runtimes(void);

/* The crossover table in force: "built-in", or the name of the tune file
 * written by gpulapack-tune for this machine (GPULAPACK_TUNE_FILE, else
 * $XDG_CACHE_HOME/gpulapack/tune.txt or ~/.cache/gpulapack/tune.txt). */
const char *gpulapack_tune_table(void);

/* The vendor eigensolvers of the GPU runtimes that have a device, e.g.
 * "cuSOLVER 12.9.1" (several joined by ", "); "" for none.  Found on the
 * first call, which opens the solver libraries (never the library's
 * load); later calls return the same string. */
const char *gpulapack_vendor_solver(void);

/* Where the time of an accelerated call went, in seconds (0 for a stage the
 * call did not run): stage 1 = dense to band
 * (including a QR/LQ first for tall or wide matrices), stage 2 = band to
 * bidiagonal/tridiagonal (bulge chasing), stage 3 = the
 * bidiagonal/tridiagonal solve, backtransform = applying the stage-1 and
 * stage-2 transformations to the vectors of stage 3 (calls with vectors);
 * other = copies, scaling, checks. */
typedef struct gpulapack_timing {
    char routine[16];   /* LAPACK name of the call, e.g. "dgesdd" */
    char path[8];       /* "host", "opencl", "cuda", "hip" */
    double stage1, stage2, stage3, backtransform, other, total;
} gpulapack_timing;

/* The timing of the calling thread's last call that took an accelerated
 * path.  Returns 1 and fills *out, or 0 if this thread made none yet. */
int gpulapack_last_timing(gpulapack_timing *out);

/* What a call would do with the current settings, asked before it is
 * made (the ScaLAPACK interposer asks before it gathers a matrix onto one
 * process): the policy's decision for routine, a LAPACK name of the ?syev
 * family ("dsyevd", "zheevr", "ssyev_2stage") or "?gesvd"/"?gesdd", with
 * its job letters in order in jobs (JOBZ; JOBZ RANGE for ?syevr/?syevx;
 * JOBU JOBVT for ?gesvd; JOBZ for ?gesdd), m x n (n x n for the
 * eigensolvers: m is ignored) and, for RANGE 'I', count = IU - IL + 1
 * vectors.  The decision is the one the call itself would get now,
 * crossover, device, memory plan and the device's free memory included.
 * Returns 1 and fills *out, or 0 for a routine or jobs it does not know
 * (out untouched). */
typedef struct gpulapack_call_plan {
    char path[8];       /* "cuda", "hip", "opencl", "host" or "lapack" */
    char plan[12];      /* on a device: "in-core" or "streamed"; else "" */
    char reason[72];    /* for "lapack", the log's reason and its detail,
                           e.g. "size host 200, gpu 1536" or "device
                           device-memory"; else "" */
    long long device_bytes;   /* the plan's device high-water mark, 0 off
                                 a device */
    int devices;        /* devices sharing the call (1 off a set) */
    /* What an LP64 caller's workspace query and arrays get
     * (docs/large.md, GPULAPACK_LWORK_LIMIT): "lapack" every minimum
     * within the limit (LAPACK's query and checks); "ours" a minimum over
     * it and our path takes the call (the query answers 1, the call runs
     * with arrays of 1); "true-size" a minimum over it and the call is not
     * ours (the query answers the true minimum, a call with less gets
     * LAPACK's INFO through XERBLA, never the real routine).  lwork_min:
     * the largest of LAPACK's minimums (LWORK, LRWORK, LIWORK), 64-bit. */
    char lwork_rule[12];
    long long lwork_min;
} gpulapack_call_plan;
int gpulapack_plan_call(const char *routine, const char *jobs, long long m,
                        long long n, long long count,
                        gpulapack_call_plan *out);

#ifdef __cplusplus
}
#endif

#endif
