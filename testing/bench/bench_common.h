/*
 * bench_common.h - what the benchmark programs share:
 * testing/bench/bench.c (the host path against the system LAPACK),
 * testing/bench/bench_gpu.c (the GPU path against cuSOLVER and the host
 * LAPACK) and testing/bench/bench_backtransform.c (one stage alone, which
 * uses only the helpers and the random stream).  Included by each, once,
 * as its first #include; nothing else uses it and it has no .c file:
 * every function is static inline (so a program that does not call one
 * gets no warning for it) and the two variables are static, one copy per
 * program.
 *
 * The including file defines BENCH_PROG, the program's name as its error
 * messages start ("bench", "bench_gpu"), before the #include.
 *
 * What it holds:
 *   - lint / flen (LAPACK INTEGER, hidden CHARACTER length), the
 *     Fortran-ABI types of the routines both programs call (?gesdd, dsyevd,
 *     dsyevr, dsytrd, dgbbrd, dsbtrd; dbdsqr and dsterf for the checks)
 *     and the "ours" declarations of them (resolved from libgpulapack, linked
 *     before -llapack);
 *   - the stage times: last_timing (gpulapack_last_timing, looked up with
 *     dlsym by main), timing_get, timing_new and TIMED_CALL (one timed
 *     LAPACK call, with the stage times when it took our path);
 *   - small helpers: die, xmalloc, xdup, now (CLOCK_MONOTONIC seconds),
 *     cmp_double (qsort), object_of (the file behind an address);
 *   - the random inputs: the splitmix64 stream (rng_state, urand), the
 *     per-matrix seed (rng_seed_input) and the band storage fill
 *     (band_fill);
 *   - rel_diff, the max_rel_diff of the sorted values;
 *   - the configuration: env_or, parse_long, parse_sizes and parse_cases
 *     (the environment variable, its default and the limits are
 *     arguments), open_system_lapack (BENCH_PEER: dlopen | dlmopen of
 *     liblapack.so.3) and lapack_sym.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#ifndef BENCH_PROG
#error "define BENCH_PROG (the program's name) before including bench_common.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* dlmopen, Dl_info, strtok_r, realpath */
#endif
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "gpulapack.h"

typedef int lint;       /* LAPACK INTEGER (32-bit) */
typedef size_t flen;    /* hidden CHARACTER length (gfortran >= 8) */

/* ---- Fortran-ABI prototypes both programs use ------------------------- */
typedef void gesdd_d_t(const char *jobz, const lint *m, const lint *n,
                       double *a, const lint *lda, double *s, double *u,
                       const lint *ldu, double *vt, const lint *ldvt,
                       double *work, const lint *lwork, lint *iwork,
                       lint *info, flen);
typedef void gesdd_s_t(const char *jobz, const lint *m, const lint *n,
                       float *a, const lint *lda, float *s, float *u,
                       const lint *ldu, float *vt, const lint *ldvt,
                       float *work, const lint *lwork, lint *iwork,
                       lint *info, flen);
typedef void syevd_d_t(const char *jobz, const char *uplo, const lint *n,
                       double *a, const lint *lda, double *w, double *work,
                       const lint *lwork, lint *iwork, const lint *liwork,
                       lint *info, flen, flen);
typedef void syevr_d_t(const char *jobz, const char *range, const char *uplo,
                       const lint *n, double *a, const lint *lda,
                       const double *vl, const double *vu, const lint *il,
                       const lint *iu, const double *abstol, lint *m,
                       double *w, double *z, const lint *ldz, lint *isuppz,
                       double *work, const lint *lwork, lint *iwork,
                       const lint *liwork, lint *info, flen, flen, flen);
typedef void sytrd_d_t(const char *uplo, const lint *n, double *a,
                       const lint *lda, double *d, double *e, double *tau,
                       double *work, const lint *lwork, lint *info, flen);
typedef void gbbrd_d_t(const char *vect, const lint *m, const lint *n,
                       const lint *ncc, const lint *kl, const lint *ku,
                       double *ab, const lint *ldab, double *d, double *e,
                       double *q, const lint *ldq, double *pt,
                       const lint *ldpt, double *c, const lint *ldc,
                       double *work, lint *info, flen);
typedef void sbtrd_d_t(const char *vect, const char *uplo, const lint *n,
                       const lint *kd, double *ab, const lint *ldab,
                       double *d, double *e, double *q, const lint *ldq,
                       double *work, lint *info, flen, flen);
typedef void bdsqr_d_t(const char *uplo, const lint *n, const lint *ncvt,
                       const lint *nru, const lint *ncc, double *d,
                       double *e, double *vt, const lint *ldvt, double *u,
                       const lint *ldu, double *c, const lint *ldc,
                       double *work, lint *info, flen);
typedef void sterf_d_t(const lint *n, double *d, double *e, lint *info);
typedef int last_timing_t(gpulapack_timing *out);

/* "ours": resolved normally, i.e. from libgpulapack (linked first). */
extern gesdd_d_t dgesdd_;
extern gesdd_s_t sgesdd_;
extern syevd_d_t dsyevd_;
extern syevr_d_t dsyevr_;
extern sytrd_d_t dsytrd_;
extern gbbrd_d_t dgbbrd_;
extern sbtrd_d_t dsbtrd_;

/* ---- stage times -------------------------------------------------------- */
static last_timing_t *last_timing;  /* NULL until the library has it */

static inline int timing_get(gpulapack_timing *t)
{
    memset(t, 0, sizeof *t);
    return last_timing ? last_timing(t) : 0;
}

/* Did an accelerated call finish between the two snapshots? */
static inline int timing_new(int had, const gpulapack_timing *before, int has,
                             const gpulapack_timing *after)
{
    if (!has)
        return 0;
    if (!had)
        return 1;
    return strncmp(before->routine, after->routine, sizeof after->routine)
           || strncmp(before->path, after->path, sizeof after->path)
           || before->stage1 != after->stage1
           || before->stage2 != after->stage2
           || before->stage3 != after->stage3
           || before->backtransform != after->backtransform
           || before->other != after->other
           || before->total != after->total;
}

/* Times call (a statement) by CLOCK_MONOTONIC: t0 and t1 (doubles) get the
 * clock before and after it; accel (an int lvalue) whether an accelerated
 * call finished within it, and then tm (a gpulapack_timing lvalue) its
 * stage times. */
#define TIMED_CALL(call, t0, t1, accel, tm)                                \
    do {                                                                   \
        gpulapack_timing before_, after_;                                  \
        int had_ = timing_get(&before_);                                   \
        (t0) = now();                                                      \
        call;                                                              \
        (t1) = now();                                                      \
        (accel) = timing_new(had_, &before_, timing_get(&after_), &after_); \
        if (accel)                                                         \
            (tm) = after_;                                                 \
    } while (0)

/* ---- small helpers ------------------------------------------------------ */
static inline void die(const char *msg, const char *arg)
{
    fprintf(stderr, BENCH_PROG ": %s%s%s\n", msg, arg ? ": " : "",
            arg ? arg : "");
    exit(2);
}

static inline void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        die("out of memory", NULL);
    return p;
}

static inline void *xdup(const void *src, size_t bytes)
{
    void *p = xmalloc(bytes);
    memcpy(p, src, bytes);
    return p;
}

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The real path of the object that holds address p, or "?". */
static inline const char *object_of(const void *p, char *buf, size_t len)
{
    Dl_info di;
    if (!p || !dladdr(p, &di) || !di.dli_fname)
        return "?";
    if (!realpath(di.dli_fname, buf))
        snprintf(buf, len, "%s", di.dli_fname);
    return buf;
}

/* ---- random inputs ------------------------------------------------------ */
/* splitmix64: a fixed, portable random stream; uniform in [-1, 1). */
static uint64_t rng_state;
static inline double urand(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

/* The seed of the input matrix of order n, family (the program's own
 * enum value) and band: a fixed matrix per (n, family, band). */
static inline void rng_seed_input(lint n, int family, int band)
{
    rng_state = 0x5eed0000ULL + (uint64_t)n * 131u + (uint64_t)family * 7u
                + (uint64_t)band;
}

/* A random band matrix of order n in LAPACK band storage, ab of
 * (band + 1) x n, zeroed first: upper (dgbbrd with KL = 0, KU = band:
 * AB(KU+1+i-j, j) = A(i, j)) or lower (dsbtrd with UPLO = 'L', KD = band:
 * AB(1+i-j, j) = A(i, j)). */
static inline void band_fill(double *ab, lint n, int band, int upper)
{
    lint ldab = band + 1;
    memset(ab, 0, (size_t)ldab * (size_t)n * sizeof(double));
    for (lint j = 0; j < n; j++) {
        lint lo = upper ? (j - band > 0 ? j - band : 0) : j;
        lint hi = upper ? j : (j + band < n - 1 ? j + band : n - 1);
        for (lint i = lo; i <= hi; i++) {
            lint row = upper ? band + i - j : i - j;
            ab[row + (size_t)j * ldab] = urand();
        }
    }
}

/* max_i |x_i - y_i| / max_i |y_i| over sorted values; NaN if not comparable
 * (also when the counts differ). */
static inline double rel_diff(const double *x, lint nx, const double *y,
                              lint ny)
{
    double num = 0, den = 0;
    if (nx != ny)
        return NAN;
    for (lint i = 0; i < ny; i++) {
        double d = fabs(x[i] - y[i]);
        if (!(d <= num))
            num = d;        /* also propagates NaN */
        if (fabs(y[i]) > den)
            den = fabs(y[i]);
    }
    return den > 0 ? num / den : num;
}

/* ---- configuration ------------------------------------------------------ */
static inline const char *env_or(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && *v ? v : dflt;
}

/* The integer in environment variable name (dflt when unset or empty),
 * from lo to hi; dies ("bad NAME") otherwise. */
static inline long parse_long(const char *name, const char *dflt, long lo,
                              long hi)
{
    const char *s = env_or(name, dflt);
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) {
        char msg[64];
        snprintf(msg, sizeof msg, "bad %s", name);
        die(msg, s);
    }
    return v;
}

/* The sizes in environment variable name (dflt when unset or empty),
 * separated by spaces, commas or tabs, each from 1 to max_n, at most max of
 * them, into out; returns how many. */
static inline int parse_sizes(const char *name, const char *dflt, lint *out,
                              int max, long max_n)
{
    int k = 0;
    const char *s = env_or(name, dflt);
    char *buf = xdup(s, strlen(s) + 1), *save = NULL;
    char msg[96];
    for (char *tok = strtok_r(buf, " ,\t", &save); tok;
         tok = strtok_r(NULL, " ,\t", &save)) {
        char *end;
        long v = strtol(tok, &end, 10);
        if (*end || v < 1 || v > max_n) {
            snprintf(msg, sizeof msg, "bad size in %s", name);
            die(msg, tok);
        }
        if (k == max) {
            snprintf(msg, sizeof msg, "too many sizes in %s", name);
            die(msg, NULL);
        }
        out[k++] = (lint)v;
    }
    free(buf);
    return k;
}

/* The cases named in environment variable name (dflt when unset or empty):
 * a comma list of names (any case) and "all"; on[i] = 1 for each of the
 * ncases cases case_name(i) names, all of them when the list is empty.  An
 * unknown name: the list of cases on stderr, exit 2. */
static inline void parse_cases(const char *name, const char *dflt, int *on,
                               int ncases, const char *(*case_name)(int))
{
    const char *s = env_or(name, dflt);
    char *buf = xdup(s, strlen(s) + 1), *save = NULL;
    int any = 0;
    for (char *tok = strtok_r(buf, " ,\t", &save); tok;
         tok = strtok_r(NULL, " ,\t", &save)) {
        int found = 0;
        if (!strcmp(tok, "all")) {
            for (int i = 0; i < ncases; i++)
                on[i] = 1;
            found = 1;
        }
        for (int i = 0; i < ncases; i++)
            if (!strcasecmp(tok, case_name(i)))
                on[i] = found = 1;
        if (!found) {
            fprintf(stderr, BENCH_PROG ": unknown case '%s'; cases are:", tok);
            for (int i = 0; i < ncases; i++)
                fprintf(stderr, " %s", case_name(i));
            fprintf(stderr, "\n");
            exit(2);
        }
        any = 1;
    }
    if (!any)
        for (int i = 0; i < ncases; i++)
            on[i] = 1;
    free(buf);
}

/* The system LAPACK, liblapack.so.3: mode "dlopen" (RTLD_LOCAL) or
 * "dlmopen" (its own link-map namespace, so that its nested calls cannot
 * land in our exports); dies otherwise or when it does not load. */
static inline void *open_system_lapack(const char *mode)
{
    void *h = NULL;
    if (!strcmp(mode, "dlopen"))
        h = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    else if (!strcmp(mode, "dlmopen"))
        h = dlmopen(LM_ID_NEWLM, "liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    else
        die("BENCH_PEER must be dlopen or dlmopen", mode);
    if (!h)
        die("cannot load the system LAPACK", dlerror());
    return h;
}

/* Symbol name of the system LAPACK h; dies when it lacks it. */
static inline void *lapack_sym(void *h, const char *name)
{
    void *p = dlsym(h, name);
    if (!p)
        die("the system LAPACK lacks", name);
    return p;
}

#endif
