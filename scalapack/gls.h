/* gls.h - the ScaLAPACK interposer (lib/libgpulapack_scalapack.so):
 * what its common part (scalapack/common.c) gives the per-precision
 * entries (scalapack/drivers.c, gesvd.c).  docs/scalapack.md describes it.
 *
 * Nothing here links MPI, BLACS or ScaLAPACK: every routine of theirs is
 * found at run time in the program (dlsym), so the library loads anywhere
 * and forwards when they are missing. */
#ifndef GLS_H
#define GLS_H

#include <stddef.h>

#define GLS_API __attribute__((visibility("default")))

/* Why a call was forwarded (0: it takes the gather path).  Each process
 * finds its own; the grid agrees on the largest (gls_vote), which the log
 * line of process (0,0) names (gls_reason_name). */
enum {
    GLS_GATHER = 0,
    GLS_QUERY,          /* a workspace query: the real routine answers */
    GLS_OFF,            /* GPULAPACK_SCALAPACK=off */
    GLS_SIZE,           /* below GPULAPACK_SCALAPACK_MIN_N (or n = 0) */
    GLS_GRID,           /* this process is not in the grid */
    GLS_SYMBOLS,        /* a BLACS/ScaLAPACK/LAPACK routine is missing */
    GLS_PXERBLA,        /* our pxerbla_ does not take ScaLAPACK's calls */
    GLS_ARGS,           /* the real routine's query found an invalid argument */
    GLS_OPTION,         /* options the gather path does not serve */
    GLS_WORKSPACE,      /* the caller's workspace is below the real routine's */
    GLS_NO_GPULAPACK,   /* libgpulapack.so is not loaded */
    GLS_LAPACK,         /* GPULAPACK_SCALAPACK=any and libgpulapack.so
                           would give the call to LAPACK */
    GLS_NO_GPU,         /* GPULAPACK_SCALAPACK=gpu and the call would not
                           take a GPU path (its crossover, no device, its
                           plan over the device's free memory, ...) */
    GLS_MEMORY,         /* process (0,0) lacks the host memory */
    GLS_SOLVE,          /* the driver on (0,0) failed (INFO != 0): forwarded */
    GLS_NREASONS
};

/* The BLACS and ScaLAPACK routines the gather path calls (Fortran ABI,
 * 32-bit INTEGERs as Debian's libscalapack-openmpi). */
typedef void (*gls_gemr2d_fn)(const int *m, const int *n, const void *a,
                              const int *ia, const int *ja, const int *desca,
                              void *b, const int *ib, const int *jb,
                              const int *descb, const int *ictxt);
typedef struct gls_blacs {
    void (*gridinfo)(const int *, int *, int *, int *, int *);
    void (*get)(const int *, const int *, int *);
    void (*gridmap)(int *, int *, const int *, const int *, const int *);
    int (*pnum)(const int *, const int *, const int *);
    void (*gridexit)(const int *);
    void (*igamx2d)(const int *, const char *, const char *, const int *,
                    const int *, int *, const int *, int *, int *,
                    const int *, const int *, const int *);
    void (*dgebs2d)(const int *, const char *, const char *, const int *,
                    const int *, const double *, const int *);
    void (*dgebr2d)(const int *, const char *, const char *, const int *,
                    const int *, double *, const int *, const int *,
                    const int *);
    gls_gemr2d_fn gemr2d[4];    /* p{s,d,c,z}gemr2d_ */
} gls_blacs;

/* One call of an exported routine. */
typedef struct gls_call {
    const char *routine;        /* "pdsyevd" */
    int prec;                   /* 0..3: s d c z */
    int ictxt, nprow, npcol, myrow, mycol;
    int root;                   /* this process is at grid position (0,0) */
    int ctx1;                   /* the 1x1 context on (0,0), else -1 */
    char options[160];          /* "jobz=V uplo=L n=512 ..." for the log */
    char lapack[24];            /* the driver run on (0,0) */
    char lib_path[16];          /* where libgpulapack.so ran it */
    char lib_plan[12];          /* its memory plan there (in-core, streamed) */
    char detail[80];            /* why forwarded: libgpulapack.so's reason */
    double start, t_gather, t_solve, t_scatter;
    const gls_blacs *b;
} gls_call;

/* GPULAPACK_SCALAPACK: which calls take the gather path. */
enum { GLS_MODE_OFF, GLS_MODE_GPU, GLS_MODE_ANY };

/* Settings (docs/env.md), read once: a field per row of
 * runtime/settings.def that the interposer reads (GL_SETTING_SCALAPACK,
 * GL_SETTING_ALSO_SCALAPACK: verbose, log_fd, mode, min_n), read by the
 * library's readers (runtime/settings.h). */
typedef struct gls_config {
#define GL_SETTING(...)
#define GL_SETTING_ELSEWHERE(...)
#define GL_SETTING_SCALAPACK(name, kind, type, field, ...) type field;
#define GL_SETTING_ALSO_SCALAPACK GL_SETTING_SCALAPACK
#include "../runtime/settings.def"
#undef GL_SETTING
#undef GL_SETTING_ELSEWHERE
#undef GL_SETTING_SCALAPACK
#undef GL_SETTING_ALSO_SCALAPACK
    int min_n_eig, min_n_svd;   /* the crossovers: min_n, else built in */
} gls_config;
const gls_config *gls_config_get(void);

/* The BLACS/ScaLAPACK routines, or NULL when one is missing. */
const gls_blacs *gls_blacs_get(void);
/* The real routine `name` ("pdsyevd_") after us (RTLD_NEXT), or NULL. */
void *gls_real(const char *name);
/* The LAPACK routine `name` ("dsyevd_") of libgpulapack.so where it is
 * loaded (so that its GPU/host path takes the call), else NULL. */
void *gls_lapack(const char *name);

/* Starts a call: the grid, the settings; returns the reason decided by
 * this process alone (no communication): off, size, grid, symbols, pxerbla. */
int gls_begin(gls_call *c, const char *routine, int prec, const int *desca,
              int size, int is_svd);
/* Runs the real routine's workspace query with pxerbla_ muted (query() is
 * the caller's closure); returns its INFO. */
void gls_mute(int on);
/* Process (0,0): whether libgpulapack.so would take the gathered call,
 * its LAPACK driver c->lapack with jobs (JOBZ; JOBZ RANGE; JOBU JOBVT)
 * on m x n with count vectors of a RANGE 'I' (gpulapack_plan_call: the
 * crossover, the device and the call's memory plan against its free
 * memory), on a GPU path unless GPULAPACK_SCALAPACK=any; a reason, 0 if
 * so. */
int gls_root_check(gls_call *c, const char *jobs, int m, int n, int count);
/* Process (0,0): whether `bytes` of host memory are available; a reason,
 * 0 if so. */
int gls_memory_check(double bytes);
/* The grid agrees: the largest reason of all processes (collective). */
int gls_vote(gls_call *c, int reason);
/* The 1x1 context on (0,0) (collective over the grid). */
void gls_grid1(gls_call *c);
void gls_grid1_end(gls_call *c);
/* A descriptor of an m x n matrix held whole by (0,0) in the 1x1 context. */
void gls_desc1(const gls_call *c, int *desc, int m, int n);
/* p?gemr2d from one matrix to another within the grid's context. */
void gls_move(const gls_call *c, int m, int n, const void *a, int ia, int ja,
              const int *desca, void *b, int ib, int jb, const int *descb);
/* (0,0) sends buf[0..len) to every process of the grid. */
void gls_bcast(const gls_call *c, double *buf, int len);
/* The timing mark before the driver on (0,0), and after it the path that
 * libgpulapack.so took (c->lib_path). */
void gls_lib_mark(gls_call *c);
void gls_lib_note(gls_call *c);
/* The log line of (0,0). */
void gls_log(const gls_call *c, int reason, int info);
double gls_now(void);
const char *gls_reason_name(int reason);
/* Host memory (0,0) may take: 3/4 of MemAvailable, in bytes. */
double gls_memory_available(void);

#endif
