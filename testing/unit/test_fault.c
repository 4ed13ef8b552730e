/* Fault injection on a device path (the OpenCL device, or the one
 * GPULAPACK_DEVICE names: the stand-in CUDA driver of testing/standin.sh,
 * whose copies on the lanes fail too): the n-th device allocation, kernel
 * launch or copy of a call fails (runtime/fault.h), for every n up to the
 * number of such events the call makes.  Each time the call must give
 * exactly the real LAPACK's results (it restarted there from the caller's
 * untouched input) with INFO 0; with no fault left to fire it must run on
 * the device and agree with LAPACK to its accuracy.  A refused allocation
 * of a job with a streamed plan (the ?syev family, ?gesdd, values and
 * vectors) retries that plan on the device first (docs/design/memory.md):
 * its values must agree with LAPACK to that accuracy (its vectors:
 * testing/unit/check_streamed.sh, check_svd_streamed.sh and the LAPACK
 * suite's streamed levels).
 *
 * Linked before the system LAPACK (our entry points first), so the calls
 * below reach the library and the reference is the real routine, found
 * with dlsym(RTLD_NEXT).  Output: one PASS/FAIL line per routine and kind. */
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"

typedef void dsyevd_fn(const char *, const char *, const int *, double *,
                       const int *, double *, double *, const int *, int *,
                       const int *, int *);
typedef void zheevd_fn(const char *, const char *, const int *,
                       double complex *, const int *, double *,
                       double complex *, const int *, double *, const int *,
                       int *, const int *, int *);
typedef void zhetrd_fn(const char *, const int *, double complex *,
                       const int *, double *, double *, double complex *,
                       double complex *, const int *, int *);
typedef void dgesdd_fn(const char *, const int *, const int *, double *,
                       const int *, double *, double *, const int *, double *,
                       const int *, double *, const int *, int *, int *);
typedef void sgesvd_fn(const char *, const char *, const int *, const int *,
                       float *, const int *, float *, float *, const int *,
                       float *, const int *, float *, const int *, int *);

dsyevd_fn dsyevd_;
zheevd_fn zheevd_;
zhetrd_fn zhetrd_;
dgesdd_fn dgesdd_;
sgesvd_fn sgesvd_;

enum { N = 37, M = 45 };

/* The system LAPACK (the reference), opened by name: the test links it
 * only through our forwarders, which find it at run time. */
static void *real_fn(const char *name)
{
    static void *lib;
    if (!lib)
        lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    return lib ? dlsym(lib, name) : NULL;
}

/* One run of a routine into out[] (every output, flattened as doubles);
 * real: the system LAPACK's routine instead of ours. */
typedef int run_fn(int real, double *out);

static double a_d[M * N];
static float a_s[M * N];
static double complex a_z[N * N];

/* w, then (JOBZ 'V') the vectors */
static int dsyevd_job(int real, double *out, const char *jobz)
{
    static double a[N * N], work[1 + 6 * N + 2 * N * N];
    static int iwork[3 + 5 * N];
    int n = N, lwork = 1 + 6 * N + 2 * N * N, liwork = 3 + 5 * N, info = -99;
    memcpy(a, a_d, sizeof a);
    dsyevd_fn *f = real ? (dsyevd_fn *)real_fn("dsyevd_") : dsyevd_;
    f(jobz, "L", &n, a, &n, out, work, &lwork, iwork, &liwork, &info);
    memcpy(out + N, a, sizeof a);
    return info;
}

static int run_dsyevd(int real, double *out) { return dsyevd_job(real, out, "V"); }
/* values only: stage 3 on the device (bisection) */
static int run_dsyevd_values(int real, double *out)
{
    return dsyevd_job(real, out, "N");
}

static int run_zheevd(int real, double *out)
{
    static double complex a[N * N], work[2 * N + N * N];
    static double rwork[1 + 5 * N + 2 * N * N];
    static int iwork[3 + 5 * N];
    int n = N, lwork = 2 * N + N * N, lrwork = 1 + 5 * N + 2 * N * N,
        liwork = 3 + 5 * N, info = -99;
    memcpy(a, a_z, sizeof a);
    zheevd_fn *f = real ? (zheevd_fn *)real_fn("zheevd_") : zheevd_;
    f("V", "U", &n, a, &n, out, work, &lwork, rwork, &lrwork, iwork, &liwork,
      &info);
    memcpy(out + N, a, sizeof a);
    return info;
}

/* d, e, tau, then A with the reflectors */
static int run_zhetrd(int real, double *out)
{
    static double complex a[N * N], tau[N - 1], work[64 * N];
    int n = N, lwork = 64 * N, info = -99;
    memcpy(a, a_z, sizeof a);
    zhetrd_fn *f = real ? (zhetrd_fn *)real_fn("zhetrd_") : zhetrd_;
    f("U", &n, a, &n, out, out + N, tau, work, &lwork, &info);
    memcpy(out + 2 * N - 1, tau, sizeof tau);
    memcpy(out + 4 * N - 3, a, sizeof a);
    return info;
}

static int run_dgesdd(int real, double *out)
{
    static double a[M * N], u[M * M], vt[N * N], work[4 * N * N + 7 * N + M];
    static int iwork[8 * N];
    int m = M, n = N, lwork = 4 * N * N + 7 * N + M, info = -99;
    memcpy(a, a_d, sizeof a);
    dgesdd_fn *f = real ? (dgesdd_fn *)real_fn("dgesdd_") : dgesdd_;
    f("A", &m, &n, a, &m, out, u, &m, vt, &n, work, &lwork, iwork, &info);
    memcpy(out + N, u, sizeof u);
    memcpy(out + N + M * M, vt, sizeof vt);
    return info;
}

/* values only, of A (M x N) or of the wide A (N x M): stage 3 on the
 * device (bisection); a refused allocation in core retries the streamed
 * plan, which GPULAPACK_PLAN=streamed takes from the start */
static int dgesdd_values(int real, double *out, int wide)
{
    static double a[M * N], work[4 * M + 7 * N], none[1];
    static int iwork[8 * N];
    int m = wide ? N : M, n = wide ? M : N, one = 1, lwork = 4 * M + 7 * N,
        info = -99;
    memcpy(a, a_d, sizeof a);
    dgesdd_fn *f = real ? (dgesdd_fn *)real_fn("dgesdd_") : dgesdd_;
    f("N", &m, &n, a, &m, out, none, &one, none, &one, work, &lwork, iwork,
      &info);
    return info;
}

static int run_dgesdd_values(int real, double *out)
{
    return dgesdd_values(real, out, 0);
}
static int run_dgesdd_values_wide(int real, double *out)
{
    return dgesdd_values(real, out, 1);
}

/* JOBZ 'O': one side's vectors overwrite A (U for m >= n; VT for the
 * wide A^H, m < n), the other side's go to their own array.  A failed
 * read of either must leave A as the caller gave it. */
static int dgesdd_over_a(int real, double *out, int wide)
{
    enum { LWORK = 6 * N * N + 10 * M };
    static double a[M * N], other[N * N], work[LWORK];
    static int iwork[8 * N];
    int m = wide ? N : M, n = wide ? M : N, one = 1, lwork = LWORK,
        info = -99;
    memcpy(a, a_d, sizeof a);
    dgesdd_fn *f = real ? (dgesdd_fn *)real_fn("dgesdd_") : dgesdd_;
    if (wide)   /* U (N x N) apart */
        f("O", &m, &n, a, &m, out, other, &m, NULL, &one, work, &lwork,
          iwork, &info);
    else        /* VT (N x N) apart */
        f("O", &m, &n, a, &m, out, NULL, &one, other, &n, work, &lwork,
          iwork, &info);
    memcpy(out + N, a, sizeof a);
    memcpy(out + N + M * N, other, sizeof other);
    return info;
}

static int run_dgesdd_over_a(int real, double *out)
{
    return dgesdd_over_a(real, out, 0);
}
static int run_dgesdd_over_a_wide(int real, double *out)
{
    return dgesdd_over_a(real, out, 1);
}

/* the singular values (the vectors are not compared) */
static int sgesvd_job(int real, double *out, const char *job)
{
    static float a[M * N], s[N], u[M * N], vt[N * N], work[5 * M * N];
    int m = M, n = N, lwork = 5 * M * N, info = -99;
    memcpy(a, a_s, sizeof a);
    sgesvd_fn *f = real ? (sgesvd_fn *)real_fn("sgesvd_") : sgesvd_;
    f(job, job, &m, &n, a, &m, s, u, &m, vt, &n, work, &lwork, &info);
    for (int i = 0; i < N; i++)
        out[i] = s[i];
    return info;
}

static int run_sgesvd(int real, double *out) { return sgesvd_job(real, out, "S"); }
/* values only: stage 3 on the device (bisection) */
static int run_sgesvd_values(int real, double *out)
{
    return sgesvd_job(real, out, "N");
}

typedef struct routine {
    const char *name;
    run_fn *run;
    size_t outputs;   /* doubles in out[] */
    double tol;       /* device vs LAPACK: values, relative */
    int streamed;     /* a refused allocation retries the streamed plan */
} routine;

static double maxdiff(const double *x, const double *y, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(x[i] - y[i]));
    return m;
}

int main(void)
{
    setenv("GPULAPACK_DEVICE", "opencl", 0);
    setenv("GPULAPACK_MIN_N", "0", 1);
    srand(7);
    for (int i = 0; i < M * N; i++) {
        a_d[i] = rand() / (double)RAND_MAX - 0.5;
        a_s[i] = (float)a_d[i];
    }
    for (int i = 0; i < N * N; i++)
        a_z[i] = a_d[i] + I * a_d[(i * 7) % (M * N)];

    const routine routines[] = {
        {"dsyevd", run_dsyevd, N + N * N, 1e-12, 1},
        {"dsyevd-values", run_dsyevd_values, N, 1e-12, 1},
        {"zheevd", run_zheevd, N + 2 * N * N, 1e-12, 1},
        {"zhetrd", run_zhetrd, 4 * N - 3 + 2 * N * N, 1e-12, 0},
        {"dgesdd", run_dgesdd, N + M * M + N * N, 1e-12, 1},
        {"dgesdd-O", run_dgesdd_over_a, N + M * N + N * N, 1e-12, 1},
        {"dgesdd-O-wide", run_dgesdd_over_a_wide, N + M * N + N * N, 1e-12, 1},
        {"dgesdd-values", run_dgesdd_values, N, 1e-12, 1},
        {"dgesdd-values-wide", run_dgesdd_values_wide, N, 1e-12, 1},
        {"sgesvd", run_sgesvd, N, 1e-4, 0},
        {"sgesvd-values", run_sgesvd_values, N, 1e-4, 0},
    };
    const char *kinds[] = {"alloc", "launch", "copy", "wait"};
    /* waits only in the one-launch chase (GPULAPACK_CHASE_GROUPS > 0) */
    const char *groups = getenv("GPULAPACK_CHASE_GROUPS");
    int nkinds = groups && atoi(groups) > 0 ? 4 : 3;
    int failures = 0;
    double *ref = malloc(sizeof *ref * (N + M * M + 2 * N * N));
    double *out = malloc(sizeof *out * (N + M * M + 2 * N * N));
    /* TEST_FAULT_ONLY=values: the routines whose name has that in it, for
     * runs that try one path of some of them (the streamed values) */
    const char *only = getenv("TEST_FAULT_ONLY");
    for (size_t r = 0; r < sizeof routines / sizeof *routines; r++) {
        const routine *rt = &routines[r];
        if (only && !strstr(rt->name, only))
            continue;
        int ref_info = rt->run(1, ref);
        for (int k = 0; k < nkinds; k++) {
            if (k == GL_FAULT_WAIT && strcmp(rt->name, "zhetrd") == 0)
                continue;   /* the one-stage reduction: no chase */
            int fired = 0, bad = 0;
            long nth;
            char why[200] = "";
            /* every event of the call, one failure at a time; launches are
             * many (one per wavefront): every one up to 64, then every 7th */
            for (nth = 1;; nth += (k == 1 && nth >= 64) ? 7 : 1) {
                gl_fault_arm((gl_fault_kind)k, nth);
                int info = rt->run(0, out);
                int hit = gl_fault_remaining((gl_fault_kind)k) == 0;
                gl_fault_arm((gl_fault_kind)k, 0);
                if (!hit) {
                    /* no fault left: the device result, to accuracy
                     * (values only: vectors are unique up to sign) */
                    double d = maxdiff(out, ref, N);
                    if (info != 0 || !(d <= rt->tol * fabs(ref[N - 1] + 1))) {
                        bad++;
                        snprintf(why, sizeof why,
                                 "device run: info %d, values off by %.3g",
                                 info, d);
                    }
                    break;
                }
                fired++;
                /* the streamed plan's retry: the device's result */
                int retried = k == GL_FAULT_ALLOC && rt->streamed &&
                              info == 0 &&
                              maxdiff(out, ref, N) <=
                                  rt->tol * fabs(ref[N - 1] + 1);
                if (!retried && (info != ref_info ||
                                 memcmp(out, ref,
                                        sizeof *out * rt->outputs) != 0)) {
                    if (!bad++)
                        snprintf(why, sizeof why,
                                 "%s %ld: info %d, not LAPACK's result",
                                 kinds[k], nth, info);
                }
                if (nth > 100000)
                    break;
            }
            if (bad || fired == 0) {
                failures++;
                printf("FAIL fault/%s/%s: %s%s\n", rt->name, kinds[k], why,
                       fired ? "" : "no fault fired (not on the device?)");
            } else {
                printf("PASS fault/%s/%s (%d injected failures, each gave "
                       "LAPACK's result%s)\n", rt->name, kinds[k], fired,
                       k == GL_FAULT_ALLOC && rt->streamed
                           ? " or the streamed plan's"
                           : "");
            }
        }
    }
    free(ref);
    free(out);
    return failures != 0;
}
