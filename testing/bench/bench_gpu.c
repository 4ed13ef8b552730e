/*
 * bench_gpu.c - gpulapack's GPU path against cuSOLVER and the host LAPACK,
 * in one run, on the same matrices (the GPU benchmark: `make bench` runs
 * it after build/bench/bench when it was built, see
 * testing/bench/run_bench.sh; BENCH_GPU=0 skips it).  Built only where the
 * CUDA toolkit has cusolverDn.h.  Without a usable CUDA device it prints
 * one line,
 * "# no CUDA device (<error>): GPU benchmark skipped", and exits 0.
 *
 * Three sides, each on its own copy of the same input:
 *
 * "ours"          = the routine resolved the normal way: this program is
 *                   linked with -lgpulapack before -llapack, so dsyevd_ etc.
 *                   are the library's.  Host arrays in, host arrays out:
 *                   the time is the whole LAPACK call (wall clock,
 *                   CLOCK_MONOTONIC), so it includes whatever the library
 *                   does inside it: device allocation, copies to and from
 *                   the device, every stage, synchronisation.  Stage times
 *                   (stage1 = dense to band, stage2 = band to bi/tridiagonal,
 *                   stage3 = the bi/tridiagonal solve, back = the
 *                   back-transformation of the vectors, other = copies,
 *                   scaling, checks) and path come from
 *                   gpulapack_last_timing() (looked up with dlsym), taken
 *                   from the fastest repetition; path "lapack" and stages 0
 *                   when the call was forwarded to the real LAPACK.
 * "cuSOLVER"      = cusolverDnXsyevd / cusolverDnXgesvd (64-bit generic API,
 *                   one cusolverDnParams_t with default options) and
 *                   cusolverDnDsytrd / cusolverDnSsytrd, on device 0
 *                   (cuda:i in BENCH_DEVICE picks device i), default stream.
 *                   Timed twice, as separate calls:
 *                   cusolver_s        = the compute call alone: the matrix
 *                                       is already on the device (uploaded
 *                                       before, untimed), the clock starts
 *                                       after a cudaDeviceSynchronize and
 *                                       stops after the call and another
 *                                       cudaDeviceSynchronize;
 *                   cusolver_copies_s = cudaMemcpy of the host matrix in,
 *                                       the call, cudaMemcpy of every result
 *                                       out (the values; Z for syevd V; U and
 *                                       VT for gesvd S; A, D, E, TAU for
 *                                       sytrd; INFO), then
 *                                       cudaDeviceSynchronize.
 *                   Neither includes cudaMalloc/cudaFree of the matrix, the
 *                   outputs and the workspace (allocated once per case from
 *                   the *_bufferSize answers, before the clock) or handle
 *                   creation (once per run).  The host arrays are ordinary
 *                   pageable malloc() memory, as a LAPACK caller's would be.
 *                   The SVD cases compare our ?gesdd with cuSOLVER's ?gesvd
 *                   (cuSOLVER has no gesdd): JOBZ N -> jobu = jobvt = 'N',
 *                   JOBZ S -> 'S'.  The complex cases call the same two
 *                   routines with complex data (A, U, VT and the compute
 *                   type CUDA_C_64F / CUDA_C_32F) and real values (W, S:
 *                   CUDA_R_64F / CUDA_R_32F).  The band cases have no
 *                   cuSOLVER side.  The incumbent cases (below) time other
 *                   cuSOLVER routines or options against the same call of
 *                   ours, the same way.
 * "host"          = the same routine from dlopen("liblapack.so.3",
 *                   RTLD_LOCAL) + dlsym: the system LAPACK's own definition,
 *                   as bench.c does (BENCH_PEER=dlmopen loads it in its own
 *                   link-map namespace instead, so that its nested calls,
 *                   dsyevd_ -> dsytrd_, cannot land in our exports).  Timed
 *                   like ours.  Skipped above BENCH_HOST_MAX_N (default
 *                   8192): it would take hours.
 *
 * For ours and the host, workspace comes from an LWORK=-1 query made by the
 * same side, outside the timed region (for zheevd / cheevd also LRWORK and
 * LIWORK; zgesdd's RWORK, which has no query, is sized by its documented
 * minimum); a case whose LWORK (or LRWORK) would not fit a 32-bit INTEGER
 * (for example dgesdd JOBZ=S, dsyevd or zheevd JOBZ=V at n = 32768) is
 * skipped with a note.  Every output array of every side is allocated
 * and written once before its clock starts, so first-touch page faults are
 * not timed for anyone.  Before the table, every selected case runs once on
 * each side at n = 256 (not reported).  Sides run in the order ours,
 * cuSOLVER, host; BENCH_REPS repetitions each, minimum reported.  Cases
 * that do not fit (estimated bytes against cudaMemGetInfo's free memory and
 * /proc/meminfo's MemAvailable) are skipped with a note.  Ours is skipped
 * above BENCH_HOST_MAX_N when the library would not take a device path
 * (gpulapack_path() is "host" or "lapack", or the matrix does not fit three
 * times in device memory, the library's own rule): it would be the host.
 *
 * The library reads its environment once, on first use, so main() sets
 * GPULAPACK_DEVICE=cuda (BENCH_DEVICE overrides) and GPULAPACK_MIN_N=0
 * before the first LAPACK call.
 *
 * Environment: BENCH_GPU_SIZES (default "4096 8192 16384 32768"),
 * BENCH_GPU_CASES (comma list of case names, "all" = every case but the
 * incumbent ones, "incumbents" = those; default all), BENCH_REPS (default
 * 1; the minimum time is reported), BENCH_HOST_MAX_N (default 8192),
 * BENCH_GPU_CSV (default build/bench/bench_gpu.csv), BENCH_PEER (dlopen |
 * dlmopen), BENCH_DEVICE (default cuda), BENCH_CUSOLVER (default 1; 0
 * leaves the cuSOLVER side out: our path alone, as for a comparison of
 * our settings), BENCH_CUSOLVER_SYEVD_FUNCTION (the cusolverDnFunction_t
 * value that selects Xsyevd's algorithm, for the _alg1 / _alg2 cases;
 * default: the one the build's header has, none up to at least 12.0.4,
 * see cs_syevd_function).  `bench_gpu --help` prints these and the cases
 * and exits 0 (no device needed); any other argument is an error (exit 2).
 *
 * Cases (random inputs, fixed seed per n; one matrix per n and family):
 *   dsyevd_N, dsyevd_V    dsyevd UPLO=L            | cusolverDnXsyevd
 *   dgesdd_N, dgesdd_S    dgesdd M=N=n             | cusolverDnXgesvd N / S
 *   ssyevd_N, ssyevd_V, sgesdd_N, sgesdd_S: the same in FP32 (the inputs
 *                         rounded to single)
 *   zheevd_N, zheevd_V    zheevd UPLO=L, random Hermitian (real diagonal)
 *                                                  | cusolverDnXsyevd (C_64F)
 *   cheevd_V              the same in FP32 (complex single)
 *   zgesdd_N, zgesdd_S    zgesdd M=N=n, random general complex
 *                                                  | cusolverDnXgesvd (C_64F)
 *                         (precision column: fp64 / fp32 for complex double
 *                         / single; the case name tells complex from real)
 *   dsyevr_I2, dsyevr_I8  dsyevr JOBZ=V RANGE=I UPLO=L, the lowest n/2 or
 *                         n/8 eigenpairs      | cusolverDnXsyevdx (RANGE I)
 *                         (whether a subset is cheaper by the device's
 *                         whole divide and conquer: kernels/pipelines/eig.c;
 *                         the values compared: the m found, zeros beyond)
 *   dsytrd, ssytrd        ?sytrd UPLO=L            | cusolverDn?sytrd
 *   dgbbrd_b32/64/128     dgbbrd VECT=N, M=N=n, KL=0, KU=band (no cuSOLVER)
 *   dsbtrd_b32/64/128     dsbtrd VECT=N, UPLO=L, KD=band      (no cuSOLVER)
 * The incumbents (the vendors' current solvers; not in "all"):
 *   dsyevd_N_alg1, dsyevd_N_alg2, dsyevd_V_alg1, dsyevd_V_alg2
 *                         dsyevd N / V | cusolverDnXsyevd with a
 *                         cusolverDnParams_t of its own set by
 *                         cusolverDnSetAdvOptions(syevd, CUSOLVER_ALG_1 /
 *                         _2); without a syevd value of cusolverDnFunction_t
 *                         (none in the headers up to at least 12.0.4) or when
 *                         the library refuses it, the cuSOLVER side is
 *                         skipped with a note
 *   dsyevd_N_evdx, dsyevd_V_evdx
 *                         dsyevd N / V | cusolverDnXsyevdx RANGE ALL
 *                         (vl, vu, il, iu not referenced)
 *   dgesdd_N_svdp, dgesdd_S_svdp
 *                         dgesdd N / S | cusolverDnXgesvdp econ = 1, jobz
 *                         NOVECTOR / VECTOR (U and V n x n, allocated for
 *                         N too; copied out for S; its h_err_sigma in a note)
 * A case whose LAPACK call (routine, JOBZ, ...) is that of an earlier
 * selected case at the same n takes ours' and the host's measurement (and
 * values) from that row instead of calling again (a note says so): one
 * lease times dsyevd_N, dsyevd_N_alg1, dsyevd_N_alg2 and dsyevd_N_evdx
 * with one call of ours.
 *
 * Output: '#' configuration lines (among them the cuSOLVER version found
 * at run time, cusolverGetProperty MAJOR.MINOR.PATCH, beside the header's),
 * one table row per (n, case), '#' note lines, and the CSV file
 *   n,case,precision,band,ours_s,cusolver_s,cusolver_copies_s,host_s,
 *   speedup_vs_cusolver,speedup_vs_cusolver_copies,speedup_vs_host,
 *   stage1_s,stage2_s,stage3_s,back_s,other_s,path,max_rel_diff,
 *   tflops_tridiag,cusolver_routine,cusolver_version
 * cusolver_routine names the row's cuSOLVER call (Xsyevd, Xsyevd/ALG_1,
 * Xsyevd/ALG_2, Xsyevdx/ALL, Xsyevdx/I, Xgesvd, Xgesvdp/econ, Dsytrd,
 * Ssytrd; also the table's last column), cusolver_version the run-time
 * cuSOLVER's MAJOR.MINOR.PATCH; both empty where the row has no cuSOLVER
 * side.
 * speedup_vs_X = X_s / ours_s (above 1: ours is faster).  A side that was
 * skipped, failed or does not exist leaves its fields empty ("skipped" or
 * "-" in the table).  max_rel_diff = max_i |ours_i - ref_i| / max_i |ref_i|
 * over the sorted eigenvalues / singular values, ref = cuSOLVER (the
 * values of its last call: for an incumbent case, of that variant), or the
 * host LAPACK for the band cases (and,
 * with a note, where cuSOLVER was skipped); for
 * ?sytrd, dgbbrd and dsbtrd over the eigenvalues / singular values of the
 * returned tridiagonal / bidiagonal (the real dsterf_ / dbdsqr_ on copies of
 * D and E, in double, since the signs of D and E may differ).
 * tflops_tridiag = (4/3 n^3) / ours_s / 1e12 for dsyevd_N and dsytrd (the
 * flops of the tridiagonal reduction), empty otherwise.
 */
#define BENCH_PROG "bench_gpu"
#include "bench_common.h"  /* shared with bench.c: lint, helpers, ... */

#include <complex.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

/* ---- Fortran-ABI prototypes ----------------------------------------------
 * (?gesdd, dsyevd, dsyevr, dsytrd, dgbbrd, dsbtrd, dbdsqr, dsterf:
 * bench_common.h) */
typedef void syevd_s_t(const char *jobz, const char *uplo, const lint *n,
                       float *a, const lint *lda, float *w, float *work,
                       const lint *lwork, lint *iwork, const lint *liwork,
                       lint *info, flen, flen);
typedef void sytrd_s_t(const char *uplo, const lint *n, float *a,
                       const lint *lda, float *d, float *e, float *tau,
                       float *work, const lint *lwork, lint *info, flen);
typedef void heevd_z_t(const char *jobz, const char *uplo, const lint *n,
                       double complex *a, const lint *lda, double *w,
                       double complex *work, const lint *lwork,
                       double *rwork, const lint *lrwork, lint *iwork,
                       const lint *liwork, lint *info, flen, flen);
typedef void heevd_c_t(const char *jobz, const char *uplo, const lint *n,
                       float complex *a, const lint *lda, float *w,
                       float complex *work, const lint *lwork,
                       float *rwork, const lint *lrwork, lint *iwork,
                       const lint *liwork, lint *info, flen, flen);
typedef void gesdd_z_t(const char *jobz, const lint *m, const lint *n,
                       double complex *a, const lint *lda, double *s,
                       double complex *u, const lint *ldu,
                       double complex *vt, const lint *ldvt,
                       double complex *work, const lint *lwork,
                       double *rwork, lint *iwork, lint *info, flen);

/* "ours": resolved normally, i.e. from libgpulapack (linked first); the
 * others are declared in bench_common.h. */
extern syevd_s_t ssyevd_;
extern sytrd_s_t ssytrd_;
extern heevd_z_t zheevd_;
extern heevd_c_t cheevd_;
extern gesdd_z_t zgesdd_;

typedef struct lapack {
    gesdd_d_t *dgesdd;
    gesdd_s_t *sgesdd;
    syevd_d_t *dsyevd;
    syevd_s_t *ssyevd;
    sytrd_d_t *dsytrd;
    sytrd_s_t *ssytrd;
    gbbrd_d_t *dgbbrd;
    sbtrd_d_t *dsbtrd;
    heevd_z_t *zheevd;
    heevd_c_t *cheevd;
    gesdd_z_t *zgesdd;
    syevr_d_t *dsyevr;
} lapack;

static lapack ours = { dgesdd_, sgesdd_, dsyevd_, ssyevd_,
                       dsytrd_, ssytrd_, dgbbrd_, dsbtrd_,
                       zheevd_, cheevd_, zgesdd_, dsyevr_ };
static lapack host;
static bdsqr_d_t *real_dbdsqr;      /* from the host LAPACK: the checks */
static sterf_d_t *real_dsterf;

static cusolverDnHandle_t cs_handle;
static cusolverDnParams_t cs_params;

/* ---- the cases ----------------------------------------------------------- */
enum kind { K_SYEVD, K_GESDD, K_SYTRD, K_GBBRD, K_SBTRD, K_SYEVR };
/* Input matrix families: cases of one family at one n share the matrix
 * (the complex ones last: the seeds of the others stay as they were). */
enum family { F_GENERAL, F_SYMMETRIC, F_BAND_UPPER, F_BAND_LOWER,
              F_HERMITIAN, F_GENERAL_COMPLEX };

/* Which cuSOLVER call a case is timed against.  CS_DEFAULT: the routine
 * of its kind (Xsyevd, Xgesvd, Xsyevdx RANGE I, ?sytrd) with the default
 * cusolverDnParams_t; the others are the incumbent variants, each its own
 * case whose LAPACK side (ours, host) is the same call as its base case's:
 * CS_ALG1 / CS_ALG2 Xsyevd with cusolverDnSetAdvOptions(.., syevd,
 * CUSOLVER_ALG_1 / _2), CS_EVDX_ALL Xsyevdx RANGE ALL, CS_GESVDP Xgesvdp
 * (econ). */
enum cs_variant { CS_DEFAULT, CS_ALG1, CS_ALG2, CS_EVDX_ALL, CS_GESVDP };

typedef struct bench_case {
    const char *name;
    const char *routine;    /* LAPACK name, as gpulapack_timing has it */
    enum kind kind;
    int single;             /* FP32 */
    int band;
    int cplx;               /* complex data (zheevd, cheevd, zgesdd) */
    char job;               /* JOBZ ('N', 'V', 'S'); 'N' for the others */
    int part;               /* ?syevr: the lowest n/part eigenpairs */
    enum cs_variant cs;     /* the cuSOLVER call (CS_DEFAULT: in "all") */
} bench_case;

static const bench_case cases[] = {
    { "dsyevd_N",    "dsyevd", K_SYEVD, 0, 0,   0, 'N', 0, CS_DEFAULT },
    { "dsyevd_V",    "dsyevd", K_SYEVD, 0, 0,   0, 'V', 0, CS_DEFAULT },
    { "dgesdd_N",    "dgesdd", K_GESDD, 0, 0,   0, 'N', 0, CS_DEFAULT },
    { "dgesdd_S",    "dgesdd", K_GESDD, 0, 0,   0, 'S', 0, CS_DEFAULT },
    { "ssyevd_N",    "ssyevd", K_SYEVD, 1, 0,   0, 'N', 0, CS_DEFAULT },
    { "ssyevd_V",    "ssyevd", K_SYEVD, 1, 0,   0, 'V', 0, CS_DEFAULT },
    { "sgesdd_N",    "sgesdd", K_GESDD, 1, 0,   0, 'N', 0, CS_DEFAULT },
    { "sgesdd_S",    "sgesdd", K_GESDD, 1, 0,   0, 'S', 0, CS_DEFAULT },
    { "zheevd_N",    "zheevd", K_SYEVD, 0, 0,   1, 'N', 0, CS_DEFAULT },
    { "zheevd_V",    "zheevd", K_SYEVD, 0, 0,   1, 'V', 0, CS_DEFAULT },
    { "cheevd_V",    "cheevd", K_SYEVD, 1, 0,   1, 'V', 0, CS_DEFAULT },
    { "zgesdd_N",    "zgesdd", K_GESDD, 0, 0,   1, 'N', 0, CS_DEFAULT },
    { "zgesdd_S",    "zgesdd", K_GESDD, 0, 0,   1, 'S', 0, CS_DEFAULT },
    { "dsyevr_I2",   "dsyevr", K_SYEVR, 0, 0,   0, 'V', 2, CS_DEFAULT },
    { "dsyevr_I8",   "dsyevr", K_SYEVR, 0, 0,   0, 'V', 8, CS_DEFAULT },
    { "dsytrd",      "dsytrd", K_SYTRD, 0, 0,   0, 'N', 0, CS_DEFAULT },
    { "ssytrd",      "ssytrd", K_SYTRD, 1, 0,   0, 'N', 0, CS_DEFAULT },
    { "dgbbrd_b32",  "dgbbrd", K_GBBRD, 0, 32,  0, 'N', 0, CS_DEFAULT },
    { "dgbbrd_b64",  "dgbbrd", K_GBBRD, 0, 64,  0, 'N', 0, CS_DEFAULT },
    { "dgbbrd_b128", "dgbbrd", K_GBBRD, 0, 128, 0, 'N', 0, CS_DEFAULT },
    { "dsbtrd_b32",  "dsbtrd", K_SBTRD, 0, 32,  0, 'N', 0, CS_DEFAULT },
    { "dsbtrd_b64",  "dsbtrd", K_SBTRD, 0, 64,  0, 'N', 0, CS_DEFAULT },
    { "dsbtrd_b128", "dsbtrd", K_SBTRD, 0, 128, 0, 'N', 0, CS_DEFAULT },
    /* the incumbents: not in "all"; named, or "incumbents" for all */
    { "dsyevd_N_alg1", "dsyevd", K_SYEVD, 0, 0, 0, 'N', 0, CS_ALG1 },
    { "dsyevd_N_alg2", "dsyevd", K_SYEVD, 0, 0, 0, 'N', 0, CS_ALG2 },
    { "dsyevd_V_alg1", "dsyevd", K_SYEVD, 0, 0, 0, 'V', 0, CS_ALG1 },
    { "dsyevd_V_alg2", "dsyevd", K_SYEVD, 0, 0, 0, 'V', 0, CS_ALG2 },
    { "dsyevd_N_evdx", "dsyevd", K_SYEVD, 0, 0, 0, 'N', 0, CS_EVDX_ALL },
    { "dsyevd_V_evdx", "dsyevd", K_SYEVD, 0, 0, 0, 'V', 0, CS_EVDX_ALL },
    { "dgesdd_N_svdp", "dgesdd", K_GESDD, 0, 0, 0, 'N', 0, CS_GESVDP },
    { "dgesdd_S_svdp", "dgesdd", K_GESDD, 0, 0, 0, 'S', 0, CS_GESVDP },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static enum family family_of(const bench_case *c)
{
    switch (c->kind) {
    case K_GESDD: return c->cplx ? F_GENERAL_COMPLEX : F_GENERAL;
    case K_GBBRD: return F_BAND_UPPER;
    case K_SBTRD: return F_BAND_LOWER;
    default:      return c->cplx ? F_HERMITIAN : F_SYMMETRIC;
    }
}

static int family_complex(enum family f)
{
    return f == F_HERMITIAN || f == F_GENERAL_COMPLEX;
}

/* Bytes of one real value (W, S, D, E, TAU) and of one matrix element. */
static size_t real_size(const bench_case *c)
{
    return c->single ? sizeof(float) : sizeof(double);
}

static size_t elem_size(const bench_case *c)
{
    return c->cplx ? 2 * real_size(c) : real_size(c);
}

static int has_cusolver(const bench_case *c)
{
    return c->kind == K_SYEVD || c->kind == K_GESDD || c->kind == K_SYTRD
           || c->kind == K_SYEVR;
}

/* tflops_tridiag is reported for these (4/3 n^3 flops of the reduction). */
static int is_tridiag_rate_case(const bench_case *c)
{
    return !c->single && !c->cplx
           && ((c->kind == K_SYEVD && c->job == 'N') || c->kind == K_SYTRD);
}

/* Do cases a and b make the same LAPACK call (ours and the host: one
 * timing serves both rows)? */
static int same_call(const bench_case *a, const bench_case *b)
{
    return a->kind == b->kind && a->single == b->single
           && a->band == b->band && a->cplx == b->cplx && a->job == b->job
           && a->part == b->part && !strcmp(a->routine, b->routine);
}

/* The cuSOLVER routine of case c, as the table, the CSV and the notes name
 * it. */
static const char *cs_routine(const bench_case *c)
{
    switch (c->cs) {
    case CS_ALG1:     return "Xsyevd/ALG_1";
    case CS_ALG2:     return "Xsyevd/ALG_2";
    case CS_EVDX_ALL: return "Xsyevdx/ALL";
    case CS_GESVDP:   return "Xgesvdp/econ";
    case CS_DEFAULT:  break;
    }
    switch (c->kind) {
    case K_SYEVD: return "Xsyevd";
    case K_GESDD: return "Xgesvd";
    case K_SYEVR: return "Xsyevdx/I";
    case K_SYTRD: return c->single ? "Ssytrd" : "Dsytrd";
    default:      return "";
    }
}

/* ---- small helpers (the others: bench_common.h) ------------------------ */
/* Allocated and written once: first-touch page faults happen here, not in
 * a timed call. */
static void *xtouched(size_t bytes)
{
    void *p = xmalloc(bytes);
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

static double gib(double bytes)
{
    return bytes / (1024.0 * 1024.0 * 1024.0);
}

/* MemAvailable of /proc/meminfo in bytes; INFINITY when unknown. */
static double host_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double bytes = INFINITY;
    if (!f)
        return bytes;
    while (fgets(line, sizeof line, f)) {
        unsigned long long kb;
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
            bytes = (double)kb * 1024.0;
            break;
        }
    }
    fclose(f);
    return bytes;
}

/* Do `bytes` more fit in host memory (10% margin)?  why gets the reason. */
static int host_fits(double bytes, const char *what, char *why, size_t len)
{
    double avail = host_available();
    if (bytes <= 0.9 * avail)
        return 1;
    snprintf(why, len, "%s: about %.1f GiB of host memory needed, %.1f GiB"
             " available", what, gib(bytes), gib(avail));
    return 0;
}

/* Do `bytes` more fit in device memory (256 MiB margin)? */
static int device_fits(double bytes, const char *what, char *why, size_t len)
{
    size_t freeb = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&freeb, &total);
    if (e != cudaSuccess) {
        snprintf(why, len, "cudaMemGetInfo: %s", cudaGetErrorString(e));
        (void)cudaGetLastError();
        return 0;
    }
    if (bytes + 256.0 * 1024 * 1024 <= (double)freeb)
        return 1;
    snprintf(why, len, "%s: about %.1f GiB of device memory needed, %.1f GiB"
             " free", what, gib(bytes), gib((double)freeb));
    return 0;
}

/* ---- inputs -------------------------------------------------------------- */
typedef struct input {
    int valid;
    enum family family;
    lint n, band, ldab;
    double *a;      /* general/symmetric n*n, band ldab*n, or complex
                     * n*n (2*n*n doubles, read as double complex: the
                     * same representation, C11 6.2.5) */
    float *as;      /* the same rounded to single (made when needed) */
} input;

/* Elements (complex ones for the complex families) of the input. */
static size_t input_elems(enum family f, lint n, int band)
{
    if (f == F_BAND_UPPER || f == F_BAND_LOWER)
        return (size_t)(band + 1) * (size_t)n;
    return (size_t)n * (size_t)n;
}

static void input_free(input *in)
{
    free(in->a);
    free(in->as);
    memset(in, 0, sizeof *in);
}

/* Makes (or keeps) the input of case c at order n; 0 (why set) when it
 * does not fit in host memory. */
static int input_get(input *in, const bench_case *c, lint n, char *why,
                     size_t len)
{
    enum family f = family_of(c);
    lint band = f == F_BAND_UPPER || f == F_BAND_LOWER ? c->band : 0;
    /* ne: the input's real scalars (two per complex element) */
    size_t ne = input_elems(f, n, band) * (family_complex(f) ? 2 : 1);
    if (!(in->valid && in->family == f && in->n == n && in->band == band)) {
        input_free(in);
        if (!host_fits((double)ne * sizeof(double), "the input matrix", why,
                       len))
            return 0;
        in->valid = 1;
        in->family = f;
        in->n = n;
        in->band = band;
        rng_seed_input(n, (int)f, band);
        in->a = xmalloc(ne * sizeof(double));
        switch (f) {
        case F_GENERAL:
        case F_GENERAL_COMPLEX:     /* real and imaginary parts alike */
            for (size_t i = 0; i < ne; i++)
                in->a[i] = urand();
            break;
        case F_HERMITIAN: {     /* (re, im) pairs: a double complex */
            size_t nz = (size_t)n;
            double *z = in->a;
            for (size_t j = 0; j < nz; j++) {    /* the lower triangle */
                z[2 * (j + j * nz)] = urand();    /* real diagonal */
                z[2 * (j + j * nz) + 1] = 0.0;
                for (size_t i = j + 1; i < nz; i++) {
                    z[2 * (i + j * nz)] = urand();
                    z[2 * (i + j * nz) + 1] = urand();
                }
            }
            /* the upper = the conjugate, by 64 x 64 blocks */
            for (size_t jb = 0; jb < nz; jb += 64)
                for (size_t ib = jb; ib < nz; ib += 64)
                    for (size_t j = jb; j < jb + 64 && j < nz; j++)
                        for (size_t i = ib > j + 1 ? ib : j + 1;
                             i < ib + 64 && i < nz; i++) {
                            z[2 * (j + i * nz)] = z[2 * (i + j * nz)];
                            z[2 * (j + i * nz) + 1] = -z[2 * (i + j * nz) + 1];
                        }
            break;
        }
        case F_SYMMETRIC: {
            size_t nz = (size_t)n;
            for (size_t j = 0; j < nz; j++)      /* the lower triangle */
                for (size_t i = j; i < nz; i++)
                    in->a[i + j * nz] = urand();
            /* mirrored by 64 x 64 blocks (strided writes stay in cache) */
            for (size_t jb = 0; jb < nz; jb += 64)
                for (size_t ib = jb; ib < nz; ib += 64)
                    for (size_t j = jb; j < jb + 64 && j < nz; j++)
                        for (size_t i = ib > j + 1 ? ib : j + 1;
                             i < ib + 64 && i < nz; i++)
                            in->a[j + i * nz] = in->a[i + j * nz];
            break;
        }
        case F_BAND_UPPER:  /* KL = 0, KU = band: AB(KU+1+i-j, j) = A(i, j) */
        case F_BAND_LOWER:  /* UPLO = 'L', KD = band: AB(1+i-j, j) = A(i, j) */
            in->ldab = band + 1;
            band_fill(in->a, n, band, f == F_BAND_UPPER);
            break;
        }
    }
    if (c->single && !in->as) {
        if (!host_fits((double)ne * sizeof(float), "the FP32 input", why,
                       len))
            return 0;
        in->as = xmalloc(ne * sizeof(float));
        for (size_t i = 0; i < ne; i++)
            in->as[i] = (float)in->a[i];
    }
    return 1;
}

/* ---- values of the outputs ----------------------------------------------- */
/* Eigenvalues of the tridiagonal (d, e), FP32 or FP64, by the real dsterf_
 * on double copies; 0 when it failed. */
static int tridiag_values(const void *d, const void *e, int single, lint n,
                          double *vals)
{
    lint info = 0;
    double *e2 = xmalloc((size_t)(n > 1 ? n : 1) * sizeof(double));
    for (lint i = 0; i < n; i++) {
        vals[i] = single ? ((const float *)d)[i] : ((const double *)d)[i];
        if (i < n - 1)
            e2[i] = single ? ((const float *)e)[i] : ((const double *)e)[i];
    }
    real_dsterf(&n, vals, e2, &info);
    free(e2);
    return info == 0;
}

/* Singular values of the upper bidiagonal (d, e) by the real dbdsqr_. */
static int bidiag_values(const double *d, const double *e, lint n,
                         double *vals)
{
    lint info = 0, zero = 0, one = 1;
    double dummy[2] = { 0, 0 };
    double *e2 = xdup(e, (size_t)(n > 1 ? n : 1) * sizeof(double));
    double *work = xmalloc(4 * (size_t)n * sizeof(double));
    memcpy(vals, d, (size_t)n * sizeof(double));
    real_dbdsqr("U", &n, &zero, &zero, &zero, vals, e2, dummy, &one, dummy,
                &one, dummy, &one, work, &info, 1);
    free(e2);
    free(work);
    return info == 0;
}

static void to_double(const void *src, int single, lint n, double *vals)
{
    for (lint i = 0; i < n; i++)
        vals[i] = single ? ((const float *)src)[i] : ((const double *)src)[i];
}

/* ---- results --------------------------------------------------------------- */
typedef struct result {
    int ran;                /* timed at least once, no error */
    double secs;            /* minimum over the repetitions */
    int info;               /* a nonzero INFO of any repetition */
    int accel;              /* ours: the fastest call took our path */
    gpulapack_timing t;     /* valid when accel */
    int have_vals;          /* vals holds the sorted values */
    char why[200];          /* when skipped or failed */
} result;

static void result_init(result *r)
{
    memset(r, 0, sizeof *r);
    r->secs = INFINITY;
}

/* ---- ours and the host: one LAPACK call --------------------------------- */
/* The smallest LWORK LAPACK accepts (M = N = n; complex elements for the
 * complex cases), in 64 bits: the library's own workspace query computes
 * it in 32-bit INTEGER and may overflow. */
static int64_t lwork_min(const bench_case *c, int64_t n)
{
    switch (c->kind) {
    case K_GESDD:
        if (c->cplx)    /* zgesdd: 2*mn + mx; mn*mn + 2*mn + mx */
            return c->job == 'N' ? 3 * n : n * n + 3 * n;
        return c->job == 'N' ? 10 * n : 4 * n * n + 7 * n;
    case K_SYEVD:
        if (c->cplx)    /* zheevd: N + 1; 2*N + N**2 */
            return c->job == 'N' ? n + 1 : 2 * n + n * n;
        return c->job == 'N' ? 2 * n + 1 : 1 + 6 * n + 2 * n * n;
    case K_SYEVR:
        return 26 * n;
    default:
        return 1;
    }
}

/* The smallest real workspace (RWORK) of the complex cases, in 64 bits:
 * zheevd's LRWORK (N; 1 + 5*N + 2*N**2); zgesdd has no LRWORK argument
 * and no query for it: its documented minimum, 7*mn for JOBZ = 'N' (5*mn
 * from LAPACK 3.7), max(5*mn*mn + 5*mn, 2*mx*mn + 2*mn*mn + mn) for 'S',
 * with a little margin.  0 for the real cases. */
static int64_t lrwork_min(const bench_case *c, int64_t n)
{
    if (!c->cplx)
        return 0;
    if (c->kind == K_SYEVD)
        return c->job == 'N' ? (n > 1 ? n : 1) : 1 + 5 * n + 2 * n * n;
    return c->job == 'N' ? 7 * n : 5 * n * n + 7 * n;
}

/* LWORK from a workspace query answer q and the minimum; 0 (why set) when
 * it does not fit a 32-bit INTEGER. */
static lint lwork_from(double q, int64_t min, char *why, size_t len)
{
    double w = q > (double)min ? ceil(q) : (double)min;
    if (w > (double)INT_MAX) {
        snprintf(why, len, "LWORK %.0f exceeds INT_MAX (32-bit LAPACK"
                 " INTEGER)", w);
        return 0;
    }
    return w >= 1 ? (lint)w : 1;
}

/* IU of a ?syevr case: the lowest n/part eigenpairs (at least one). */
static lint subset_last(const bench_case *c, lint n)
{
    lint iu = n / (c->part > 0 ? c->part : 1);
    return iu > 0 ? iu : 1;
}

/* One call of case c on input in through the routines of L, timed.  With
 * vals, the sorted values are computed after the call (r->have_vals).
 * Returns 1 when it ran (*secs, *info, accel and timing in r), 0 when it
 * was skipped (r->why). */
static int lapack_once(const bench_case *c, const input *in, const lapack *L,
                       double *vals, result *r, double *secs, int *accel,
                       gpulapack_timing *tm, lint *info_out)
{
    lint n = in->n, one = 1, info = 0, lwork = -1, liwork = -1, iq = 0;
    lint lrwork = -1;
    int single = c->single, vec = c->job != 'N', ran = 0;
    /* esz: one matrix / work element (complex for the complex cases);
     * rsz: one real value (W, S, D, E, TAU, RWORK) */
    size_t esz = elem_size(c), rsz = real_size(c);
    size_t nn = (size_t)n * (size_t)n, nv = (size_t)(n > 1 ? n : 1);
    size_t abytes = input_elems(family_of(c), n, in->band) * esz;
    double dummy[2] = { 0, 0 }, t0 = 0, t1 = 0, q = 0, rq = 0;
    float qs[2] = { 0, 0 }, rqs[2] = { 0, 0 };
    double complex zq[2] = { 0, 0 };   /* complex query answers, dummies */
    float complex cq[2] = { 0, 0 };
    int64_t minw = lwork_min(c, n), minr = lrwork_min(c, n);
    const char job[2] = { c->job, 0 };
    void *a = NULL, *w = NULL, *u = NULL, *vt = NULL, *e = NULL, *tau = NULL;
    void *work = NULL, *rwork = NULL;
    lint *iwork = NULL;

    *accel = 0;
    if (minw > INT_MAX || (c->kind == K_SYEVD && minr > INT_MAX)) {
        snprintf(r->why, sizeof r->why, "%s >= %lld exceeds INT_MAX"
                 " (32-bit LAPACK INTEGER)", minw > INT_MAX ? "LWORK"
                 : "LRWORK", (long long)(minw > INT_MAX ? minw : minr));
        return 0;
    }
    double est = (double)abytes + (double)minw * (double)esz
                 + (double)minr * (double)rsz
                 + (c->kind == K_GESDD && vec ? 2.0 * (double)nn * esz : 0);
    if (!host_fits(est, "the call", r->why, sizeof r->why))
        return 0;
    a = xdup(single ? (const void *)in->as : (const void *)in->a, abytes);
    w = xtouched(nv * rsz);
    e = xtouched(nv * rsz);

#define TIMED(call)                                                      \
    do {                                                                 \
        TIMED_CALL(call, t0, t1, *accel, *tm);                           \
        ran = 1;                                                         \
    } while (0)

    switch (c->kind) {
    case K_GESDD: {
        /* M = N = n, so JOBZ='S' gives n x n U and VT. */
        lint ldv = vec ? n : 1;
        u = vec ? xtouched(nn * esz) : NULL;
        vt = vec ? xtouched(nn * esz) : NULL;
        iwork = xtouched(8 * nv * sizeof(lint));
        if (c->cplx) {  /* zgesdd (double complex only) */
            double complex *zu = u ? u : (void *)zq;
            double complex *zvt = vt ? vt : (void *)zq;
            rwork = xtouched((size_t)minr * rsz);
            L->zgesdd(job, &n, &n, a, &n, w, zu, &ldv, zvt, &ldv, zq,
                      &lwork, rwork, iwork, &info, 1);
            q = creal(zq[0]);
            if (info || !(lwork = lwork_from(q, minw, r->why,
                                             sizeof r->why)))
                break;
            if (!host_fits((double)lwork * esz, "the workspace", r->why,
                           sizeof r->why))
                break;
            work = xtouched((size_t)lwork * esz);
            TIMED(L->zgesdd(job, &n, &n, a, &n, w, zu, &ldv, zvt, &ldv, work,
                            &lwork, rwork, iwork, &info, 1));
            break;
        }
        if (single)
            L->sgesdd(job, &n, &n, a, &n, w, u ? u : (void *)dummy, &ldv,
                      vt ? vt : (void *)dummy, &ldv, qs, &lwork, iwork,
                      &info, 1);
        else
            L->dgesdd(job, &n, &n, a, &n, w, u ? u : (void *)dummy, &ldv,
                      vt ? vt : (void *)dummy, &ldv, dummy, &lwork, iwork,
                      &info, 1);
        q = single ? qs[0] : dummy[0];
        if (info || !(lwork = lwork_from(q, minw, r->why, sizeof r->why)))
            break;
        if (!host_fits((double)lwork * esz, "the workspace", r->why,
                       sizeof r->why))
            break;
        work = xtouched((size_t)lwork * esz);
        if (single)
            TIMED(L->sgesdd(job, &n, &n, a, &n, w, u ? u : (void *)dummy,
                            &ldv, vt ? vt : (void *)dummy, &ldv, work,
                            &lwork, iwork, &info, 1));
        else
            TIMED(L->dgesdd(job, &n, &n, a, &n, w, u ? u : (void *)dummy,
                            &ldv, vt ? vt : (void *)dummy, &ldv, work,
                            &lwork, iwork, &info, 1));
        break;
    }
    case K_SYEVD:
        if (c->cplx) {  /* zheevd / cheevd */
            if (single)
                L->cheevd(job, "L", &n, a, &n, w, cq, &lwork, rqs, &lrwork,
                          &iq, &liwork, &info, 1, 1);
            else
                L->zheevd(job, "L", &n, a, &n, w, zq, &lwork, &rq, &lrwork,
                          &iq, &liwork, &info, 1, 1);
            q = single ? crealf(cq[0]) : creal(zq[0]);
            rq = single ? rqs[0] : rq;
            if (info || !(lwork = lwork_from(q, minw, r->why, sizeof r->why))
                || !(lrwork = lwork_from(rq, minr, r->why, sizeof r->why)))
                break;
            liwork = iq > 1 ? iq : 1;
            if (vec && liwork < 3 + 5 * n)
                liwork = 3 + 5 * n;
            if (!host_fits((double)lwork * esz + (double)lrwork * rsz,
                           "the workspace", r->why, sizeof r->why))
                break;
            work = xtouched((size_t)lwork * esz);
            rwork = xtouched((size_t)lrwork * rsz);
            iwork = xtouched((size_t)liwork * sizeof(lint));
            if (single)
                TIMED(L->cheevd(job, "L", &n, a, &n, w, work, &lwork, rwork,
                                &lrwork, iwork, &liwork, &info, 1, 1));
            else
                TIMED(L->zheevd(job, "L", &n, a, &n, w, work, &lwork, rwork,
                                &lrwork, iwork, &liwork, &info, 1, 1));
            break;
        }
        if (single)
            L->ssyevd(job, "L", &n, a, &n, w, qs, &lwork, &iq, &liwork,
                      &info, 1, 1);
        else
            L->dsyevd(job, "L", &n, a, &n, w, dummy, &lwork, &iq, &liwork,
                      &info, 1, 1);
        q = single ? qs[0] : dummy[0];
        if (info || !(lwork = lwork_from(q, minw, r->why, sizeof r->why)))
            break;
        liwork = iq > 1 ? iq : 1;
        if (vec && liwork < 3 + 5 * n)
            liwork = 3 + 5 * n;
        if (!host_fits((double)lwork * esz, "the workspace", r->why,
                       sizeof r->why))
            break;
        work = xtouched((size_t)lwork * esz);
        iwork = xtouched((size_t)liwork * sizeof(lint));
        if (single)
            TIMED(L->ssyevd(job, "L", &n, a, &n, w, work, &lwork, iwork,
                            &liwork, &info, 1, 1));
        else
            TIMED(L->dsyevd(job, "L", &n, a, &n, w, work, &lwork, iwork,
                            &liwork, &info, 1, 1));
        break;
    case K_SYEVR: {   /* double only; the eigenvectors in u (n x m) */
        lint il = 1, iu = subset_last(c, n), m = 0, ld = n;
        double vl = 0, vu = 0, abstol = 0;
        lint *isuppz = xtouched(2 * nv * sizeof(lint));
        u = xtouched((size_t)n * (size_t)iu * esz);
        L->dsyevr("V", "I", "L", &n, a, &n, &vl, &vu, &il, &iu, &abstol, &m,
                  w, u, &ld, isuppz, dummy, &lwork, &iq, &liwork, &info, 1,
                  1, 1);
        if (info || !(lwork = lwork_from(dummy[0], minw, r->why,
                                         sizeof r->why))) {
            free(isuppz);
            break;
        }
        liwork = iq > 10 * n ? iq : 10 * n;
        work = xtouched((size_t)lwork * esz);
        iwork = xtouched((size_t)liwork * sizeof(lint));
        TIMED(L->dsyevr("V", "I", "L", &n, a, &n, &vl, &vu, &il, &iu, &abstol,
                        &m, w, u, &ld, isuppz, work, &lwork, iwork, &liwork,
                        &info, 1, 1, 1));
        free(isuppz);
        break;
    }
    case K_SYTRD:   /* UPLO = 'L'; D in w */
        tau = xtouched(nv * rsz);
        if (single)
            L->ssytrd("L", &n, a, &n, w, e, tau, qs, &lwork, &info, 1);
        else
            L->dsytrd("L", &n, a, &n, w, e, tau, dummy, &lwork, &info, 1);
        q = single ? qs[0] : dummy[0];
        if (info || !(lwork = lwork_from(q, minw, r->why, sizeof r->why)))
            break;
        work = xtouched((size_t)lwork * esz);
        if (single)
            TIMED(L->ssytrd("L", &n, a, &n, w, e, tau, work, &lwork, &info,
                            1));
        else
            TIMED(L->dsytrd("L", &n, a, &n, w, e, tau, work, &lwork, &info,
                            1));
        break;
    case K_GBBRD: {     /* double only; D in w */
        lint zero = 0, kl = 0, ku = in->band, ldab = in->ldab;
        work = xtouched(4 * nv * sizeof(double));
        TIMED(L->dgbbrd("N", &n, &n, &zero, &kl, &ku, a, &ldab, w, e, dummy,
                        &one, dummy, &one, dummy, &one, work, &info, 1));
        break;
    }
    case K_SBTRD: {     /* double only; D in w */
        lint kd = in->band, ldab = in->ldab;
        work = xtouched(nv * sizeof(double));
        TIMED(L->dsbtrd("N", "L", &n, &kd, a, &ldab, w, e, dummy, &one,
                        work, &info, 1, 1));
        break;
    }
    }
#undef TIMED
    if (!ran && !r->why[0])
        snprintf(r->why, sizeof r->why, "workspace query: INFO = %d", info);
    if (ran) {
        *secs = t1 - t0;
        *info_out = info;
    }
    if (ran && vals && info == 0) {
        int ok = 1;
        switch (c->kind) {
        case K_GESDD:
        case K_SYEVD:
        case K_SYEVR:   /* the m found; W is zero beyond */
            to_double(w, single, n, vals);
            break;
        case K_SYTRD:
        case K_SBTRD:
            ok = tridiag_values(w, e, single, n, vals);
            break;
        case K_GBBRD:
            ok = bidiag_values(w, e, n, vals);
            break;
        }
        if (ok) {
            qsort(vals, (size_t)n, sizeof(double), cmp_double);
            r->have_vals = 1;
        }
    }
    free(a);
    free(w);
    free(e);
    free(u);
    free(vt);
    free(tau);
    free(work);
    free(rwork);
    free(iwork);
    return ran;
}

/* reps calls of case c through L; the best in r. */
static void lapack_run(const bench_case *c, const input *in, const lapack *L,
                       long reps, double *vals, result *r,
                       int *contaminated, char *nested, size_t nested_len)
{
    for (long rep = 0; rep < reps; rep++) {
        double secs = 0;
        int accel = 0;
        gpulapack_timing tm;
        lint info = 0;
        memset(&tm, 0, sizeof tm);
        if (!lapack_once(c, in, L, rep == 0 ? vals : NULL, r, &secs, &accel,
                         &tm, &info)) {
            r->ran = 0;
            return;
        }
        r->ran = 1;
        if (info)
            r->info = info;
        if (accel && contaminated) {
            *contaminated = 1;
            snprintf(nested, nested_len, "%.16s", tm.routine);
        }
        if (secs < r->secs) {
            r->secs = secs;
            r->accel = accel;
            r->t = tm;
        }
    }
}

/* ---- cuSOLVER ---------------------------------------------------------- */
static const char *cs_status_name(cusolverStatus_t s)
{
    switch (s) {
    case CUSOLVER_STATUS_SUCCESS:          return "SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED:  return "NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:     return "ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:    return "INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:    return "ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:   return "INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED:    return "NOT_SUPPORTED";
    default:                               return "?";
    }
}

typedef struct dev_bufs {
    void *a, *w, *u, *vt, *e, *tau, *work;
    int *info;
    void *hwork;            /* host workspace of the 64-bit API */
    size_t dbytes, hbytes;
    int lwork;              /* ?sytrd: elements */
} dev_bufs;

/* Eigenpairs cusolverDnXsyevdx found (its host output). */
static int64_t cs_meig;
/* Xgesvdp's h_err_sigma of its last call (its host output). */
static double cs_err_sigma;

/* The value of cusolverDnFunction_t that selects Xsyevd's algorithm for
 * cusolverDnSetAdvOptions, -1 when none is known.  The headers up to at
 * least 12.0.4 (CUDA 13.0) have none: their cusolverDnFunction_t is
 * CUSOLVERDN_GETRF, _POTRF, _SYEVBATCHED only (and CUSOLVER_ALG_0..2).  A
 * build whose header has one passes its name,
 * -DBENCH_CUSOLVERDN_SYEVD=CUSOLVERDN_SYEVD; at run time
 * BENCH_CUSOLVER_SYEVD_FUNCTION=<integer> overrides either (for a binary
 * carried to a machine whose cuSOLVER documents a value its header lacked).
 * Without one, the _alg1 / _alg2 cases skip their cuSOLVER side with a
 * note. */
#ifdef BENCH_CUSOLVERDN_SYEVD
#define CS_SYEVD_FUNCTION_BUILT ((int)(BENCH_CUSOLVERDN_SYEVD))
#else
#define CS_SYEVD_FUNCTION_BUILT (-1)
#endif
static int cs_syevd_function = CS_SYEVD_FUNCTION_BUILT;
/* The run-time cuSOLVER's MAJOR.MINOR.PATCH (cusolverGetProperty). */
static char cs_version[48] = "unknown";

/* The data types of case c for the 64-bit API: *ta of the matrix (A, U,
 * VT) and the compute type (complex for the complex cases), *tw of the
 * values (W, S: always real). */
static void cs_types(const bench_case *c, cudaDataType *ta, cudaDataType *tw)
{
    *tw = c->single ? CUDA_R_32F : CUDA_R_64F;
    if (c->cplx)
        *ta = c->single ? CUDA_C_32F : CUDA_C_64F;
    else
        *ta = *tw;
}

/* The cuSOLVER call of case c (asynchronous) with parameters p. */
static cusolverStatus_t cs_compute(const bench_case *c, lint n,
                                   const dev_bufs *b, cusolverDnParams_t p)
{
    cudaDataType ty, tw;
    cusolverEigMode_t jobz = c->job == 'N' ? CUSOLVER_EIG_MODE_NOVECTOR
                                           : CUSOLVER_EIG_MODE_VECTOR;
    cs_types(c, &ty, &tw);
    if (c->cs == CS_EVDX_ALL) {     /* vl, vu, il, iu not referenced */
        double vl = 0, vu = 0;
        return cusolverDnXsyevdx(cs_handle, p, jobz, CUSOLVER_EIG_RANGE_ALL,
                                 CUBLAS_FILL_MODE_LOWER, n, ty, b->a, n, &vl,
                                 &vu, 1, n, &cs_meig, tw, b->w, ty, b->work,
                                 b->dbytes, b->hwork, b->hbytes, b->info);
    }
    if (c->cs == CS_GESVDP)         /* econ = 1: U n x n, V (not VT) n x n */
        return cusolverDnXgesvdp(cs_handle, p, jobz, 1, n, n, ty, b->a, n, tw,
                                 b->w, ty, b->u, n, ty, b->vt, n, ty, b->work,
                                 b->dbytes, b->hwork, b->hbytes, b->info,
                                 &cs_err_sigma);
    switch (c->kind) {
    case K_SYEVD:   /* CS_DEFAULT, CS_ALG1, CS_ALG2: p tells */
        return cusolverDnXsyevd(cs_handle, p, jobz, CUBLAS_FILL_MODE_LOWER, n,
                                ty, b->a, n, tw, b->w, ty, b->work, b->dbytes,
                                b->hwork, b->hbytes, b->info);
    case K_SYEVR: {
        double vl = 0, vu = 0;
        return cusolverDnXsyevdx(cs_handle, p, CUSOLVER_EIG_MODE_VECTOR,
                                 CUSOLVER_EIG_RANGE_I, CUBLAS_FILL_MODE_LOWER,
                                 n, ty, b->a, n, &vl, &vu, 1,
                                 subset_last(c, n), &cs_meig, tw, b->w, ty,
                                 b->work, b->dbytes, b->hwork, b->hbytes,
                                 b->info);
    }
    case K_GESDD: {
        signed char jb = c->job == 'S' ? 'S' : 'N';
        return cusolverDnXgesvd(cs_handle, p, jb, jb, n, n, ty, b->a, n, tw,
                                b->w, ty, b->u, n, ty, b->vt, n, ty, b->work,
                                b->dbytes, b->hwork, b->hbytes, b->info);
    }
    case K_SYTRD:
        if (c->single)
            return cusolverDnSsytrd(cs_handle, CUBLAS_FILL_MODE_LOWER, n,
                                    b->a, n, b->w, b->e, b->tau, b->work,
                                    b->lwork, b->info);
        return cusolverDnDsytrd(cs_handle, CUBLAS_FILL_MODE_LOWER, n, b->a, n,
                                b->w, b->e, b->tau, b->work, b->lwork,
                                b->info);
    default:
        return CUSOLVER_STATUS_NOT_SUPPORTED;
    }
}

#define CU_TRY(what, call)                                                 \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            snprintf(why, sizeof why, "%s: %s", what,                      \
                     cudaGetErrorString(e_));                              \
            (void)cudaGetLastError();                                      \
            goto out;                                                      \
        }                                                                  \
    } while (0)
#define CS_TRY(what, call)                                                 \
    do {                                                                   \
        cusolverStatus_t s_ = (call);                                      \
        if (s_ != CUSOLVER_STATUS_SUCCESS) {                               \
            snprintf(why, sizeof why, "%s: cusolverStatus %d (%s)", what,  \
                     (int)s_, cs_status_name(s_));                         \
            goto out;                                                      \
        }                                                                  \
    } while (0)

/* reps x (kernel only, with copies) of case c; the values of the last call
 * in vals. */
static void cusolver_run(const bench_case *c, const input *in, long reps,
                         double *vals, result *kern, result *cop)
{
    lint n = in->n;
    int single = c->single, vec = c->job != 'N';
    /* ab: the n x n matrix (A, U, VT; complex elements for the complex
     * cases); vb: a vector of real values (W, S, D, E, TAU) */
    size_t esz = elem_size(c), rsz = real_size(c);
    size_t nn = (size_t)n * (size_t)n, vb = (size_t)(n > 1 ? n : 1) * rsz;
    size_t ab = nn * esz;
    cudaDataType ty, tw;
    const void *ha = single ? (const void *)in->as : (const void *)in->a;
    int svd_vec = c->kind == K_GESDD && vec;
    /* U and VT (V for Xgesvdp) on the device: Xgesvdp gets them for JOBZ
     * N too (allocated, never copied out) */
    int svd_uv = svd_vec || c->cs == CS_GESVDP;
    int tri = c->kind == K_SYTRD;
    int subset = c->kind == K_SYEVR;
    /* Xsyevdx (RANGE I or ALL): h_meig values; W is zeroed beyond them */
    int evdx = subset || c->cs == CS_EVDX_ALL;
    int alg = c->cs == CS_ALG1 ? 1 : c->cs == CS_ALG2 ? 2 : 0;
    cusolverDnParams_t p = cs_params, own = NULL;
    cusolverEigMode_t jobz = vec ? CUSOLVER_EIG_MODE_VECTOR
                                 : CUSOLVER_EIG_MODE_NOVECTOR;
    /* A is an output (of a subset: its first m columns) */
    int a_out = tri || (c->kind == K_SYEVD && vec) || subset;
    size_t ab_out = subset ? (size_t)n * (size_t)subset_last(c, n) * esz
                           : ab;
    void *hw = NULL, *ha_out = NULL, *hu = NULL, *hvt = NULL, *he = NULL;
    void *htau = NULL;
    dev_bufs b;
    char why[200] = "";
    int ok = 0;

    memset(&b, 0, sizeof b);
    cs_types(c, &ty, &tw);
    if (alg) {  /* Xsyevd's algorithm: parameters of its own */
        if (cs_syevd_function < 0) {
            snprintf(why, sizeof why, "no syevd value of cusolverDnFunction_t"
                     " in this build's cusolverDn.h (%d.%d.%d): ALG_%d not"
                     " selectable (BENCH_CUSOLVER_SYEVD_FUNCTION)",
                     CUSOLVER_VER_MAJOR, CUSOLVER_VER_MINOR,
                     CUSOLVER_VER_PATCH, alg);
            goto out;
        }
        CS_TRY("cusolverDnCreateParams", cusolverDnCreateParams(&own));
        p = own;
        CS_TRY(alg == 1 ? "cusolverDnSetAdvOptions(syevd, CUSOLVER_ALG_1)"
                        : "cusolverDnSetAdvOptions(syevd, CUSOLVER_ALG_2)",
               cusolverDnSetAdvOptions(own,
                                       (cusolverDnFunction_t)cs_syevd_function,
                                       alg == 1 ? CUSOLVER_ALG_1
                                                : CUSOLVER_ALG_2));
    }
    if (tri && (int64_t)n * n > INT_MAX) {
        snprintf(why, sizeof why, "n*n exceeds INT_MAX (the 32-bit legacy"
                 " ?sytrd API)");
        goto out;
    }
    double dneed = (double)ab + (double)vb + (svd_uv ? 2.0 * (double)ab : 0)
                   + (tri ? 2.0 * (double)vb : 0);
    if (!device_fits(dneed, "the matrix and outputs", why, sizeof why))
        goto out;
    double hneed = (double)vb + (a_out ? (double)ab : 0)
                   + (svd_vec ? 2.0 * (double)ab : 0)
                   + (tri ? 2.0 * (double)vb : 0);
    if (!host_fits(hneed, "the host outputs", why, sizeof why))
        goto out;
    CU_TRY("cudaMalloc A", cudaMalloc(&b.a, ab));
    CU_TRY("cudaMalloc W", cudaMalloc(&b.w, vb));
    CU_TRY("cudaMalloc info", cudaMalloc((void **)&b.info, sizeof(int)));
    if (svd_uv) {
        CU_TRY("cudaMalloc U", cudaMalloc(&b.u, ab));
        CU_TRY("cudaMalloc VT", cudaMalloc(&b.vt, ab));
    }
    if (tri) {
        CU_TRY("cudaMalloc E", cudaMalloc(&b.e, vb));
        CU_TRY("cudaMalloc TAU", cudaMalloc(&b.tau, vb));
    }
    switch (c->cs == CS_EVDX_ALL ? -1 : c->cs == CS_GESVDP ? -2
                                      : (int)c->kind) {
    case -1: {  /* Xsyevdx RANGE ALL */
        double vl = 0, vu = 0;
        CS_TRY("cusolverDnXsyevdx_bufferSize",
               cusolverDnXsyevdx_bufferSize(
                   cs_handle, p, jobz, CUSOLVER_EIG_RANGE_ALL,
                   CUBLAS_FILL_MODE_LOWER, n, ty, b.a, n, &vl, &vu, 1, n,
                   &cs_meig, tw, b.w, ty, &b.dbytes, &b.hbytes));
        break;
    }
    case -2:    /* Xgesvdp, econ */
        CS_TRY("cusolverDnXgesvdp_bufferSize",
               cusolverDnXgesvdp_bufferSize(cs_handle, p, jobz, 1, n, n, ty,
                                            b.a, n, tw, b.w, ty, b.u, n, ty,
                                            b.vt, n, ty, &b.dbytes,
                                            &b.hbytes));
        break;
    case K_SYEVD:
        CS_TRY("cusolverDnXsyevd_bufferSize",
               cusolverDnXsyevd_bufferSize(
                   cs_handle, p, jobz, CUBLAS_FILL_MODE_LOWER, n, ty, b.a, n,
                   tw, b.w, ty, &b.dbytes, &b.hbytes));
        break;
    case K_GESDD: {
        signed char jb = vec ? 'S' : 'N';
        CS_TRY("cusolverDnXgesvd_bufferSize",
               cusolverDnXgesvd_bufferSize(cs_handle, p, jb, jb, n, n,
                                           ty, b.a, n, tw, b.w, ty, b.u, n,
                                           ty, b.vt, n, ty, &b.dbytes,
                                           &b.hbytes));
        break;
    }
    case K_SYEVR: {
        double vl = 0, vu = 0;
        CS_TRY("cusolverDnXsyevdx_bufferSize",
               cusolverDnXsyevdx_bufferSize(
                   cs_handle, p, CUSOLVER_EIG_MODE_VECTOR,
                   CUSOLVER_EIG_RANGE_I, CUBLAS_FILL_MODE_LOWER, n, ty, b.a, n,
                   &vl, &vu, 1, subset_last(c, n), &cs_meig, tw, b.w, ty,
                   &b.dbytes, &b.hbytes));
        break;
    }
    case K_SYTRD:
        if (single)
            CS_TRY("cusolverDnSsytrd_bufferSize",
                   cusolverDnSsytrd_bufferSize(cs_handle,
                                               CUBLAS_FILL_MODE_LOWER, n,
                                               b.a, n, b.w, b.e, b.tau,
                                               &b.lwork));
        else
            CS_TRY("cusolverDnDsytrd_bufferSize",
                   cusolverDnDsytrd_bufferSize(cs_handle,
                                               CUBLAS_FILL_MODE_LOWER, n,
                                               b.a, n, b.w, b.e, b.tau,
                                               &b.lwork));
        if (b.lwork < 1)
            b.lwork = 1;
        b.dbytes = (size_t)b.lwork * esz;
        break;
    default:
        snprintf(why, sizeof why, "no cuSOLVER counterpart");
        goto out;
    }
    if (!device_fits((double)b.dbytes, "the workspace", why, sizeof why))
        goto out;
    CU_TRY("cudaMalloc workspace", cudaMalloc(&b.work, b.dbytes ? b.dbytes
                                                                : 1));
    if (b.hbytes) {
        if (!host_fits((double)b.hbytes, "the host workspace", why,
                       sizeof why))
            goto out;
        b.hwork = xtouched(b.hbytes);
    }
    hw = xtouched(vb);
    if (a_out)
        ha_out = xtouched(ab_out);
    if (svd_vec) {
        hu = xtouched(ab);
        hvt = xtouched(ab);
    }
    if (tri) {
        he = xtouched(vb);
        htau = xtouched(vb);
    }

    for (long rep = 0; rep < reps; rep++) {
        for (int copies = 0; copies < 2; copies++) {
            int info = 0;
            double t0, t1;
            if (!copies)    /* the input on the device, untimed */
                CU_TRY("cudaMemcpy A in", cudaMemcpy(b.a, ha, ab,
                                                     cudaMemcpyHostToDevice));
            CU_TRY("cudaDeviceSynchronize", cudaDeviceSynchronize());
            t0 = now();
            if (copies)
                CU_TRY("cudaMemcpy A in", cudaMemcpy(b.a, ha, ab,
                                                     cudaMemcpyHostToDevice));
            CS_TRY(cs_routine(c), cs_compute(c, n, &b, p));
            if (copies) {
                CU_TRY("cudaMemcpy W out",
                       cudaMemcpy(hw, b.w, vb, cudaMemcpyDeviceToHost));
                if (a_out)
                    CU_TRY("cudaMemcpy A out", cudaMemcpy(
                               ha_out, b.a, ab_out, cudaMemcpyDeviceToHost));
                if (svd_vec) {
                    CU_TRY("cudaMemcpy U out", cudaMemcpy(
                               hu, b.u, ab, cudaMemcpyDeviceToHost));
                    CU_TRY("cudaMemcpy VT out", cudaMemcpy(
                               hvt, b.vt, ab, cudaMemcpyDeviceToHost));
                }
                if (tri) {
                    CU_TRY("cudaMemcpy E out", cudaMemcpy(
                               he, b.e, vb, cudaMemcpyDeviceToHost));
                    CU_TRY("cudaMemcpy TAU out", cudaMemcpy(
                               htau, b.tau, vb, cudaMemcpyDeviceToHost));
                }
                CU_TRY("cudaMemcpy info out", cudaMemcpy(
                           &info, b.info, sizeof info,
                           cudaMemcpyDeviceToHost));
            }
            CU_TRY("cudaDeviceSynchronize", cudaDeviceSynchronize());
            t1 = now();
            if (!copies)    /* INFO, untimed */
                CU_TRY("cudaMemcpy info out", cudaMemcpy(
                           &info, b.info, sizeof info,
                           cudaMemcpyDeviceToHost));
            result *r = copies ? cop : kern;
            r->ran = 1;
            if (info)
                r->info = info;
            if (t1 - t0 < r->secs)
                r->secs = t1 - t0;
        }
    }
    ok = 1;
    /* The values of the last call (with copies: already on the host). */
    if (kern->info == 0 && cop->info == 0) {
        int vok = 1;
        if (evdx && cs_meig >= 0 && cs_meig < n)     /* W beyond m: zeros */
            memset((char *)hw + (size_t)cs_meig * rsz, 0,
                   (size_t)(n - cs_meig) * rsz);
        if (tri)
            vok = tridiag_values(hw, he, single, n, vals);
        else
            to_double(hw, single, n, vals);
        if (vok) {
            qsort(vals, (size_t)n, sizeof(double), cmp_double);
            kern->have_vals = cop->have_vals = 1;
        }
    }
out:
    if (!ok) {
        kern->ran = cop->ran = 0;
        snprintf(kern->why, sizeof kern->why, "%s", why);
        snprintf(cop->why, sizeof cop->why, "%s", why);
    }
    if (own)
        cusolverDnDestroyParams(own);
    cudaFree(b.a);
    cudaFree(b.w);
    cudaFree(b.u);
    cudaFree(b.vt);
    cudaFree(b.e);
    cudaFree(b.tau);
    cudaFree(b.work);
    cudaFree(b.info);
    (void)cudaGetLastError();
    free(b.hwork);
    free(hw);
    free(ha_out);
    free(hu);
    free(hvt);
    free(he);
    free(htau);
}
#undef CU_TRY
#undef CS_TRY

/* ---- output ------------------------------------------------------------ */
/* Table and CSV text of a time: "-" / "" where the side does not exist,
 * "skipped" / "" where it did not run. */
static void fmt_secs(const result *r, int exists, char *tab, char *csv,
                     size_t len)
{
    if (!exists) {
        snprintf(tab, len, "-");
        csv[0] = 0;
    } else if (!r->ran) {
        snprintf(tab, len, "skipped");
        csv[0] = 0;
    } else {
        snprintf(tab, len, "%.4f", r->secs);
        snprintf(csv, len, "%.6f", r->secs);
    }
}

static void fmt_ratio(const result *other, int exists, const result *o,
                      char *tab, char *csv, size_t len)
{
    if (!exists || !other->ran || !o->ran) {
        snprintf(tab, len, "-");
        csv[0] = 0;
    } else {
        double s = other->secs / o->secs;
        snprintf(tab, len, "%.2f", s);
        snprintf(csv, len, "%.4f", s);
    }
}

/* ---- configuration (the rest: bench_common.h) -------------------------- */
/* The cases BENCH_GPU_CASES selects into on[]: a comma list of names (any
 * case), "all" (every case but the incumbent variants) and "incumbents"
 * (every incumbent variant, cs != CS_DEFAULT); empty or unset: "all".  An
 * unknown name: the list of cases on stderr, exit 2. */
static void select_cases(int *on)
{
    const char *s = env_or("BENCH_GPU_CASES", "all");
    char *buf = xdup(s, strlen(s) + 1), *save = NULL;
    int any = 0;
    for (char *tok = strtok_r(buf, " ,\t", &save); tok;
         tok = strtok_r(NULL, " ,\t", &save)) {
        int found = 0;
        for (int i = 0; i < NCASES; i++)
            if ((!strcasecmp(tok, "all") && cases[i].cs == CS_DEFAULT)
                || (!strcasecmp(tok, "incumbents")
                    && cases[i].cs != CS_DEFAULT)
                || !strcasecmp(tok, cases[i].name))
                on[i] = found = 1;
        if (!found) {
            fprintf(stderr, BENCH_PROG ": unknown case '%s'; cases are:", tok);
            for (int i = 0; i < NCASES; i++)
                fprintf(stderr, " %s", cases[i].name);
            fprintf(stderr, " (and all, incumbents)\n");
            exit(2);
        }
        any = 1;
    }
    if (!any)
        for (int i = 0; i < NCASES; i++)
            on[i] = cases[i].cs == CS_DEFAULT;
    free(buf);
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: bench_gpu [--help]\n"
"gpulapack's GPU path (GPULAPACK_DEVICE=cuda) against cuSOLVER (compute\n"
"only, and with its copies) and the host LAPACK, on the same matrices.\n"
"Configured by the environment (details: the comment at the top of\n"
"testing/bench/bench_gpu.c and docs/benchmarks.md):\n"
"  BENCH_GPU_SIZES   sizes (default \"4096 8192 16384 32768\")\n"
"  BENCH_GPU_CASES   comma list of cases, \"all\" (default: every case but\n"
"                    the incumbent variants) and \"incumbents\" (those)\n"
"  BENCH_REPS        repetitions, the minimum reported (default 1)\n"
"  BENCH_HOST_MAX_N  the host LAPACK up to this n (default 8192)\n"
"  BENCH_GPU_CSV     the CSV (default build/bench/bench_gpu.csv)\n"
"  BENCH_PEER        dlopen | dlmopen (how the host LAPACK is loaded)\n"
"  BENCH_DEVICE      GPULAPACK_DEVICE for ours (default cuda; cuda:i)\n"
"  BENCH_CUSOLVER    0 leaves the cuSOLVER side out (default 1)\n"
"  BENCH_CUSOLVER_SYEVD_FUNCTION  the cusolverDnFunction_t value that\n"
"                    selects Xsyevd's algorithm (default %d%s)\n"
"cuSOLVER header %d.%d.%d.  Cases (ours | cuSOLVER):\n",
            CS_SYEVD_FUNCTION_BUILT,
            CS_SYEVD_FUNCTION_BUILT < 0 ? ": none in this build's\n"
                                          "                    header; the"
                                          " _alg1/_alg2 cases then skip"
                                          " cuSOLVER" : "",
            CUSOLVER_VER_MAJOR, CUSOLVER_VER_MINOR, CUSOLVER_VER_PATCH);
    for (int i = 0; i < NCASES; i++) {
        const bench_case *c = &cases[i];
        char what[48] = "";
        if (c->kind == K_SYEVD || c->kind == K_GESDD)
            snprintf(what, sizeof what, " JOBZ=%c", c->job);
        else if (c->kind == K_SYEVR)
            snprintf(what, sizeof what, " JOBZ=V RANGE=I IU=n/%d", c->part);
        else if (c->band)
            snprintf(what, sizeof what, " band %d", c->band);
        fprintf(f, "  %-13s  %s%s | %s%s%s\n", c->name, c->routine, what,
                has_cusolver(c) ? "cusolverDn" : "(none)",
                has_cusolver(c) ? cs_routine(c) : "",
                c->cs != CS_DEFAULT ? "  (incumbent)" : "");
    }
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        fprintf(stderr, "bench_gpu: unknown argument '%s'\n", argv[i]);
        usage(stderr);
        return 2;
    }

    /* The cases first: a wrong name fails here too, with no device. */
    int on[NCASES] = { 0 };
    select_cases(on);

    /* Before anything can reach the library: it reads these once. */
    const char *device = env_or("BENCH_DEVICE", "cuda");
    setenv("GPULAPACK_DEVICE", device, 1);
    setenv("GPULAPACK_MIN_N", "0", 1);

    /* A CUDA device, or one line and success. */
    int ndev = 0, dev = 0;
    cudaError_t ce = cudaGetDeviceCount(&ndev);
    if (ce != cudaSuccess || ndev < 1) {
        printf("# no CUDA device (%s): GPU benchmark skipped\n",
               ce != cudaSuccess ? cudaGetErrorString(ce)
                                 : "cudaGetDeviceCount found none");
        return 0;
    }
    if (!strncasecmp(device, "cuda:", 5))
        dev = atoi(device + 5);
    if (dev < 0 || dev >= ndev)
        dev = 0;
    if ((ce = cudaSetDevice(dev)) != cudaSuccess
        || (ce = cudaFree(NULL)) != cudaSuccess) {
        printf("# no CUDA device (device %d: %s): GPU benchmark skipped\n",
               dev, cudaGetErrorString(ce));
        return 0;
    }

    lint sizes[64];
    int nsizes = parse_sizes("BENCH_GPU_SIZES", "4096 8192 16384 32768",
                             sizes, 64, 200000);

    long reps = parse_long("BENCH_REPS", "1", 1, 1000);
    long host_max = parse_long("BENCH_HOST_MAX_N", "8192", 0, 1000000);
    int with_cusolver = parse_long("BENCH_CUSOLVER", "1", 0, 1) != 0;
    const char *csv_path = env_or("BENCH_GPU_CSV", "build/bench/bench_gpu.csv");
    const char *peer_mode = env_or("BENCH_PEER", "dlopen");
    {
        char dflt[16];
        snprintf(dflt, sizeof dflt, "%d", CS_SYEVD_FUNCTION_BUILT);
        cs_syevd_function = (int)parse_long("BENCH_CUSOLVER_SYEVD_FUNCTION",
                                            dflt, -1, INT_MAX);
    }

    /* The host LAPACK: the system's own definitions. */
    void *h = open_system_lapack(peer_mode);
    host.dgesdd = (gesdd_d_t *)lapack_sym(h, "dgesdd_");
    host.sgesdd = (gesdd_s_t *)lapack_sym(h, "sgesdd_");
    host.dsyevd = (syevd_d_t *)lapack_sym(h, "dsyevd_");
    host.ssyevd = (syevd_s_t *)lapack_sym(h, "ssyevd_");
    host.dsytrd = (sytrd_d_t *)lapack_sym(h, "dsytrd_");
    host.ssytrd = (sytrd_s_t *)lapack_sym(h, "ssytrd_");
    host.dgbbrd = (gbbrd_d_t *)lapack_sym(h, "dgbbrd_");
    host.dsbtrd = (sbtrd_d_t *)lapack_sym(h, "dsbtrd_");
    host.zheevd = (heevd_z_t *)lapack_sym(h, "zheevd_");
    host.cheevd = (heevd_c_t *)lapack_sym(h, "cheevd_");
    host.zgesdd = (gesdd_z_t *)lapack_sym(h, "zgesdd_");
    host.dsyevr = (syevr_d_t *)lapack_sym(h, "dsyevr_");
    real_dbdsqr = (bdsqr_d_t *)lapack_sym(h, "dbdsqr_");
    real_dsterf = (sterf_d_t *)lapack_sym(h, "dsterf_");
    last_timing = (last_timing_t *)dlsym(RTLD_DEFAULT, "gpulapack_last_timing");

    /* Configuration lines. */
    {
        struct cudaDeviceProp prop;
        int drv = 0, rt = 0, csv_ver = 0, cmaj = -1, cmin = -1, cpat = -1;
        char date[64];
        time_t tnow = time(NULL);
        memset(&prop, 0, sizeof prop);
        cudaGetDeviceProperties(&prop, dev);
        cudaDriverGetVersion(&drv);
        cudaRuntimeGetVersion(&rt);
        cusolverGetVersion(&csv_ver);
        /* the cuSOLVER this run loaded (not the header's) */
        if (cusolverGetProperty(MAJOR_VERSION, &cmaj)
                   != CUSOLVER_STATUS_SUCCESS
            || cusolverGetProperty(MINOR_VERSION, &cmin)
                   != CUSOLVER_STATUS_SUCCESS
            || cusolverGetProperty(PATCH_LEVEL, &cpat)
                   != CUSOLVER_STATUS_SUCCESS)
            snprintf(cs_version, sizeof cs_version, "unknown");
        else
            snprintf(cs_version, sizeof cs_version, "%d.%d.%d", cmaj, cmin,
                     cpat);
        strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", localtime(&tnow));
        printf("# gpu: device %d of %d: %s, compute capability %d.%d, %d SMs,"
               " %.1f GiB\n", dev, ndev, prop.name, prop.major, prop.minor,
               prop.multiProcessorCount, gib((double)prop.totalGlobalMem));
        printf("# cuda: driver %d.%d, runtime %d.%d, cuSOLVER %s at run time"
               " (cusolverGetProperty; cusolverGetVersion %d; header"
               " %d.%d.%d)\n", drv / 1000, drv % 1000 / 10, rt / 1000,
               rt % 1000 / 10, cs_version, csv_ver, CUSOLVER_VER_MAJOR,
               CUSOLVER_VER_MINOR, CUSOLVER_VER_PATCH);
        printf("# date: %s\n", date);
        printf("# command:");
        for (int i = 0; i < argc; i++)
            printf(" %s", argv[i]);
        printf("\n");
    }
    char p1[PATH_MAX], p2[PATH_MAX];
    const char *host_file = object_of((void *)host.dgesdd, p1, sizeof p1);
    const char *ours_file = object_of((void *)ours.dgesdd, p2, sizeof p2);
    if (!strcmp(host_file, ours_file))
        die("ours and the host LAPACK are the same object", ours_file);
    const char *ours_path = gpulapack_path();
    int ours_on_device = strcmp(ours_path, "host") && strcmp(ours_path,
                                                             "lapack");
    const char *fwd = gpulapack_lapack_library();
    printf("# ours: %s %s, GPULAPACK_DEVICE=%s GPULAPACK_MIN_N=0, path %s,"
           " forwards to %s, stage times: %s\n", ours_file,
           gpulapack_version(), getenv("GPULAPACK_DEVICE"), ours_path,
           fwd ? fwd : "(none)",
           last_timing ? "gpulapack_last_timing"
                       : "none (no gpulapack_last_timing)");
    if (!ours_on_device)
        printf("# note: ours' path is \"%s\", not a device: ours runs on the"
               " host and is skipped above n = %ld\n", ours_path, host_max);
    printf("# host: %s (%s liblapack.so.3, RTLD_LOCAL), skipped above"
           " n = %ld (BENCH_HOST_MAX_N)\n", host_file, peer_mode, host_max);
    {
        void *cn = dlsym(RTLD_DEFAULT, "openblas_get_corename");
        void *nt = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
        char p3[PATH_MAX];
        printf("# blas: dgemm_ from %s", object_of(dlsym(RTLD_DEFAULT,
                                                         "dgemm_"),
                                                   p3, sizeof p3));
        if (cn)
            printf("; OpenBLAS core %s, %d threads",
                   ((const char *(*)(void))cn)(),
                   nt ? ((int (*)(void))nt)() : -1);
        printf("\n");
    }
    printf("# cusolver: 64-bit Xsyevd/Xgesvd (default params; complex data"
           " for zheevd, cheevd, zgesdd), legacy ?sytrd; cusolver_s ="
           " compute only (matrix on the device), cusolver_copies_s ="
           " cudaMemcpy in + compute + cudaMemcpy out\n");
    printf("# cusolver incumbents: _alg1/_alg2 Xsyevd with"
           " cusolverDnSetAdvOptions(params, ");
    if (cs_syevd_function < 0)
        printf("none: this build's cusolverDn.h %d.%d.%d has no syevd value"
               " of cusolverDnFunction_t, so no ALG_1/ALG_2 (their cuSOLVER"
               " side is skipped; BENCH_CUSOLVER_SYEVD_FUNCTION=<value>"
               " sets one)", CUSOLVER_VER_MAJOR, CUSOLVER_VER_MINOR,
               CUSOLVER_VER_PATCH);
    else
        printf("(cusolverDnFunction_t)%d, CUSOLVER_ALG_1 / _2)",
               cs_syevd_function);
    printf("; _evdx Xsyevdx RANGE ALL; _svdp Xgesvdp econ; ours and host"
           " measured once per n for cases making the same LAPACK call\n");
    printf("# max_rel_diff: ours against cuSOLVER; the band cases against"
           " the host LAPACK\n");
    printf("# sizes:");
    for (int i = 0; i < nsizes; i++)
        printf(" %d", sizes[i]);
    printf("; cases:");
    for (int c = 0; c < NCASES; c++)
        if (on[c])
            printf(" %s", cases[c].name);
    printf("; reps %ld (minimum reported); csv %s\n", reps, csv_path);

    {
        cusolverStatus_t s = cusolverDnCreate(&cs_handle);
        if (s == CUSOLVER_STATUS_SUCCESS)
            s = cusolverDnCreateParams(&cs_params);
        if (s != CUSOLVER_STATUS_SUCCESS) {
            fprintf(stderr, "bench_gpu: cuSOLVER initialisation failed:"
                    " status %d (%s)\n", (int)s, cs_status_name(s));
            return 2;
        }
    }

    FILE *csv = fopen(csv_path, "w");
    if (!csv)
        die("cannot write", csv_path);
    fprintf(csv, "n,case,precision,band,ours_s,cusolver_s,cusolver_copies_s,"
                 "host_s,speedup_vs_cusolver,speedup_vs_cusolver_copies,"
                 "speedup_vs_host,stage1_s,stage2_s,stage3_s,back_s,other_s,"
                 "path,max_rel_diff,tflops_tridiag,cusolver_routine,"
                 "cusolver_version\n");

    /* Warm-up: every selected case once on each side (CUDA context and
     * module loading, cuSOLVER's and the library's first-use set-up, thread
     * pools, page faults), not reported. */
    {
        lint wn = 256;
        double *v = xmalloc((size_t)wn * sizeof(double));
        input in;
        char why[200];
        memset(&in, 0, sizeof in);
        for (int c = 0; c < NCASES; c++) {
            result r1, r2;
            if (!on[c] || !input_get(&in, &cases[c], wn, why, sizeof why))
                continue;
            result_init(&r1);
            lapack_run(&cases[c], &in, &ours, 1, v, &r1, NULL, NULL, 0);
            if (has_cusolver(&cases[c]) && with_cusolver) {
                result_init(&r1);
                result_init(&r2);
                cusolver_run(&cases[c], &in, 1, v, &r1, &r2);
            }
            result_init(&r1);
            lapack_run(&cases[c], &in, &host, 1, v, &r1, NULL, NULL, 0);
        }
        input_free(&in);
        free(v);
    }

    printf("%6s  %-11s  %4s  %4s  %9s  %10s  %10s  %9s  %9s  %9s  %9s"
           "  %8s  %8s  %8s  %8s  %8s  %-6s  %12s  %7s  %s\n", "n", "case",
           "prec", "band", "ours_s", "cusolver_s", "cus+cp_s", "host_s",
           "vs_cus", "vs_cus+cp", "vs_host", "stage1_s", "stage2_s",
           "stage3_s", "back_s", "other_s", "path", "max_rel_diff",
           "TFLOP/s", "cusolver");
    fflush(stdout);

    input in;
    memset(&in, 0, sizeof in);
    for (int si = 0; si < nsizes; si++) {
        lint n = sizes[si];
        double *vo = xmalloc((size_t)n * sizeof(double));
        double *vc = xmalloc((size_t)n * sizeof(double));
        double *vh = xmalloc((size_t)n * sizeof(double));
        /* ours and the host per case, for the cases after it with the same
         * LAPACK call (the incumbent variants): measured once per n */
        struct shared {
            int have;
            result ro, rh;
            double *vo, *vh;
            int contaminated;
            char nested[24];
        } sh[NCASES];
        memset(sh, 0, sizeof sh);
        for (int ci = 0; ci < NCASES; ci++) {
            if (!on[ci])
                continue;
            const bench_case *c = &cases[ci];
            char why[200] = "";
            if (!input_get(&in, c, n, why, sizeof why)) {
                printf("#   note: n = %d %s skipped: %s\n", n, c->name, why);
                input_free(&in);
                continue;
            }
            result ro, rk, rc, rh;
            result_init(&ro);
            result_init(&rk);
            result_init(&rc);
            result_init(&rh);
            int cus = has_cusolver(c) && with_cusolver;
            /* ours and the host of an earlier case of this n making the
             * same LAPACK call (an incumbent variant's base case) */
            int from = -1;
            for (int cj = 0; cj < ci && from < 0; cj++)
                if (sh[cj].have && same_call(&cases[cj], c))
                    from = cj;
            int contaminated = 0;
            char nested[24] = "";
            if (from >= 0) {
                ro = sh[from].ro;
                rh = sh[from].rh;
                memcpy(vo, sh[from].vo, (size_t)n * sizeof(double));
                memcpy(vh, sh[from].vh, (size_t)n * sizeof(double));
                contaminated = sh[from].contaminated;
                snprintf(nested, sizeof nested, "%s", sh[from].nested);
            } else {    /* ours */
                double mbytes = (double)input_elems(family_of(c), n, in.band)
                                * (double)elem_size(c);
                size_t dfree = 0, dtotal = 0;
                if (cudaMemGetInfo(&dfree, &dtotal) != cudaSuccess)
                    (void)cudaGetLastError();
                if (n > host_max && !ours_on_device)
                    snprintf(ro.why, sizeof ro.why, "ours' path is \"%s\""
                             " (not a device) and n > BENCH_HOST_MAX_N = %ld",
                             ours_path, host_max);
                else if (n > host_max && 3.0 * mbytes > (double)dtotal)
                    snprintf(ro.why, sizeof ro.why, "the matrix (%.1f GiB)"
                             " does not fit three times in the device's %.1f"
                             " GiB: the library would run it on the host",
                             gib(mbytes), gib((double)dtotal));
                else
                    lapack_run(c, &in, &ours, reps, vo, &ro, NULL, NULL, 0);
            }

            /* cuSOLVER */
            if (cus)
                cusolver_run(c, &in, reps, vc, &rk, &rc);

            /* the host LAPACK */
            if (from >= 0)
                ;   /* taken with ours' above */
            else if (n > host_max)
                snprintf(rh.why, sizeof rh.why, "n > BENCH_HOST_MAX_N = %ld",
                         host_max);
            else
                lapack_run(c, &in, &host, reps, vh, &rh, &contaminated,
                           nested, sizeof nested);
            /* kept for the later cases of this n that make the same call */
            if (from < 0)
                for (int cj = ci + 1; cj < NCASES; cj++)
                    if (on[cj] && same_call(&cases[cj], c)) {
                        sh[ci].have = 1;
                        sh[ci].ro = ro;
                        sh[ci].rh = rh;
                        sh[ci].vo = xdup(vo, (size_t)n * sizeof(double));
                        sh[ci].vh = xdup(vh, (size_t)n * sizeof(double));
                        sh[ci].contaminated = contaminated;
                        snprintf(sh[ci].nested, sizeof sh[ci].nested, "%s",
                                 nested);
                        break;
                    }

            /* max_rel_diff: ours against cuSOLVER, else against the host */
            double diff = NAN;
            const char *ref = NULL;
            if (ro.ran && ro.have_vals && !ro.info) {
                if (cus && rk.ran && rk.have_vals) {
                    diff = rel_diff(vo, n, vc, n);
                    ref = "cusolver";
                } else if (rh.ran && rh.have_vals && !rh.info) {
                    diff = rel_diff(vo, n, vh, n);
                    ref = "host";
                }
            }

            char t_o[32], c_o[32], t_k[32], c_k[32], t_c[32], c_c[32];
            char t_h[32], c_h[32], t_sk[32], c_sk[32], t_sc[32], c_sc[32];
            char t_sh[32], c_sh[32], t_diff[32], c_diff[32], t_tf[32],
                 c_tf[32], band_s[16], stages_t[5][32], stages_c[5][32];
            fmt_secs(&ro, 1, t_o, c_o, sizeof t_o);
            fmt_secs(&rk, cus, t_k, c_k, sizeof t_k);
            fmt_secs(&rc, cus, t_c, c_c, sizeof t_c);
            fmt_secs(&rh, 1, t_h, c_h, sizeof t_h);
            fmt_ratio(&rk, cus, &ro, t_sk, c_sk, sizeof t_sk);
            fmt_ratio(&rc, cus, &ro, t_sc, c_sc, sizeof t_sc);
            fmt_ratio(&rh, 1, &ro, t_sh, c_sh, sizeof t_sh);
            if (ref) {
                snprintf(t_diff, sizeof t_diff, "%.3e", diff);
                snprintf(c_diff, sizeof c_diff, "%.3e", diff);
            } else {
                snprintf(t_diff, sizeof t_diff, "-");
                c_diff[0] = 0;
            }
            if (is_tridiag_rate_case(c) && ro.ran) {
                double tf = 4.0 / 3.0 * (double)n * n * n / ro.secs / 1e12;
                snprintf(t_tf, sizeof t_tf, "%.2f", tf);
                snprintf(c_tf, sizeof c_tf, "%.4f", tf);
            } else {
                snprintf(t_tf, sizeof t_tf, "-");
                c_tf[0] = 0;
            }
            if (c->band)
                snprintf(band_s, sizeof band_s, "%d", c->band);
            else
                band_s[0] = 0;
            const char *path = !ro.ran ? "" : ro.accel ? ro.t.path : "lapack";
            {
                double st[5] = { 0, 0, 0, 0, 0 };
                if (ro.accel) {
                    st[0] = ro.t.stage1;
                    st[1] = ro.t.stage2;
                    st[2] = ro.t.stage3;
                    st[3] = ro.t.backtransform;
                    st[4] = ro.t.other;
                }
                for (int k = 0; k < 5; k++) {
                    if (ro.ran) {
                        snprintf(stages_t[k], sizeof stages_t[k], "%.4f",
                                 st[k]);
                        snprintf(stages_c[k], sizeof stages_c[k], "%.6f",
                                 st[k]);
                    } else {
                        snprintf(stages_t[k], sizeof stages_t[k], "-");
                        stages_c[k][0] = 0;
                    }
                }
            }
            printf("%6d  %-11s  %4s  %4s  %9s  %10s  %10s  %9s  %9s  %9s"
                   "  %9s  %8s  %8s  %8s  %8s  %8s  %-6s  %12s  %7s  %s\n", n,
                   c->name, c->single ? "fp32" : "fp64",
                   band_s[0] ? band_s : "-", t_o, t_k, t_c, t_h, t_sk, t_sc,
                   t_sh, stages_t[0], stages_t[1], stages_t[2], stages_t[3],
                   stages_t[4], ro.ran ? path : "-", t_diff, t_tf,
                   cus ? cs_routine(c) : "-");
            if (from >= 0)
                printf("#   note: ours and host: the measurement of the %s"
                       " row (the same call)\n", cases[from].name);
            if (cus && rk.ran && c->cs == CS_GESVDP)
                printf("#   note: Xgesvdp h_err_sigma %.3e (last call)\n",
                       cs_err_sigma);
            if (cus && rk.ran && c->cs == CS_EVDX_ALL && cs_meig != n)
                printf("#   note: Xsyevdx RANGE ALL found %lld of %d"
                       " eigenvalues\n", (long long)cs_meig, n);
            if (!ro.ran)
                printf("#   note: ours skipped: %s\n", ro.why);
            if (cus && !rk.ran)
                printf("#   note: cuSOLVER skipped: %s\n", rk.why);
            if (!rh.ran)
                printf("#   note: host skipped: %s\n", rh.why);
            if (cus && ref && !strcmp(ref, "host"))
                printf("#   note: max_rel_diff against the host LAPACK (no"
                       " cuSOLVER values)\n");
            if (ro.info || rk.info || rc.info || rh.info)
                printf("#   note: INFO: ours %d, cuSOLVER %d / %d (with"
                       " copies), host %d\n", ro.info, rk.info, rc.info,
                       rh.info);
            if (ro.accel && strncmp(ro.t.routine, c->routine,
                                    sizeof ro.t.routine))
                printf("#   note: ours' stage times are those of %.16s, not"
                       " %s\n", ro.t.routine, c->routine);
            if (contaminated)
                printf("#   note: the host call reached our accelerated %s"
                       " through a nested call; its time is not the system"
                       " LAPACK's alone (use BENCH_PEER=dlmopen)\n",
                       nested[0] ? nested : "routine");
            fprintf(csv, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,"
                    "%s,%s,%s,%s\n", n, c->name, c->single ? "fp32" : "fp64",
                    band_s, c_o, c_k, c_c, c_h, c_sk, c_sc, c_sh,
                    stages_c[0], stages_c[1], stages_c[2], stages_c[3],
                    stages_c[4], path, c_diff, c_tf,
                    cus ? cs_routine(c) : "", cus ? cs_version : "");
            fflush(stdout);
            fflush(csv);
        }
        for (int ci = 0; ci < NCASES; ci++) {
            free(sh[ci].vo);
            free(sh[ci].vh);
        }
        free(vo);
        free(vc);
        free(vh);
    }
    input_free(&in);
    if (fclose(csv))
        die("cannot write", csv_path);
    cusolverDnDestroyParams(cs_params);
    cusolverDnDestroy(cs_handle);
    printf("# csv: %s\n", csv_path);
    return 0;
}
