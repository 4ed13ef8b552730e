/* The vendor's eigensolver as a method of its own
 * (kernels/pipelines/eig_vendor.c, the runtimes' solver_ready/eig_solve in
 * runtime/cudalike/solver.c) over the stand-in drivers and solvers of
 * testing/unit/mock/ (no GPU): CUDA with a stand-in cuSOLVER, or, built with
 * -DGL_TEST_HIP, HIP with a stand-in rocSOLVER (mock_solver.c: the system
 * LAPACK's ?syevd/?heevd over the stand-in's device memory, which is host
 * memory). One binary per API and precision (-DGL_PRECISION), run with
 * LD_LIBRARY_PATH at the stand-in driver's and the stand-in solver's folders:
 *   - values and vectors of random Hermitian matrices (uplo U and L, odd
 *     and even n, lda > n, the other triangle NaN, Z over A and apart):
 *     LAPACK's ratios ||A Z - Z W|| / (n ||A|| ulp) and ||Z^H Z - I|| /
 *     (n ulp) below 30, W within 4 ulp of ||A|| of the system LAPACK's;
 *     norms near underflow and overflow (the ?syev scaling) likewise;
 *   - one solver handle per context, set on the context's stream, and
 *     Xsyevd's algorithm from GPULAPACK_CUSOLVER_SYEVD_ALG (CUDA);
 *   - failures: the solver's error status, INFO < 0, INFO > 0, a read of
 *     Z over A that breaks part way, Inf/NaN input, a handle that cannot
 *     be made: GL_STAGE_FAULT (NONFINITE) with the caller's A (its
 *     triangle) intact for the restart on LAPACK;
 *   - the solver library unusable (the test run again with a decoy of
 *     the solver's soname without its entry points in place of the
 *     stand-in: found before any installed library, as this machine's
 *     CUDA 13 toolkit has a real libcusolver.so.12): gl_ctx_has_vendor_
 *     solver 0, eig_vendor GL_STAGE_FAULT, no version. */
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "precision.h"
#include "../kernels/ops.h"
#include "../kernels/pipelines/pipelines.h"
#include "../kernels/status.h"
#include "context.h"
#include "gpu.h"
#include "mock/system_eig.h"

#ifdef GL_TEST_HIP
#define PATH GL_PATH_HIP
#define API "hip"
#define SOLVER_SONAME "librocsolver.so.0"
#define SOLVER_DIR "mock-rocsolver"
#else
#define PATH GL_PATH_CUDA
#define API "cuda"
#define SOLVER_SONAME "libcusolver.so.12"
#define SOLVER_DIR "mock-cusolver"
#endif

#if GL_PRECISION == 1 || GL_PRECISION == 3
#define EPS ((double)FLT_EPSILON)
#else
#define EPS DBL_EPSILON
#endif
#define THRESH 30.0
#define AT(a, ld, i, j) ((a)[(size_t)(i) + (size_t)(j) * (size_t)(ld)])

static int failures;
static void *solver_lib, *driver_lib;

static void verdict(int ok, const char *name, const char *detail)
{
    printf("%s unit/vendor_solver_" API "_%c/%s%s%s\n", ok ? "PASS" : "FAIL",
           GL_PREC_CHAR, name, ok ? "" : ": ", ok ? "" : detail);
    failures += !ok;
}

static int mock_int(void *lib, const char *fn)
{
    int (*f)(void) = lib ? (int (*)(void))dlsym(lib, fn) : NULL;
    return f ? f() : -1;
}

static void mock_set(void *lib, const char *fn, int v)
{
    void (*f)(int) = lib ? (void (*)(int))dlsym(lib, fn) : NULL;
    if (f)
        f(v);
}

/* ---- matrices and the reference ----------------------------------------- */

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static double urand(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

/* Hermitian full (ld n) times scale; a (ld lda) its uplo triangle, NaN
 * elsewhere (nothing may read it). */
static void make(lapack_int n, char uplo, double scale, gl_scalar *full,
                 gl_scalar *a, lapack_int lda)
{
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i <= j; i++) {
            gl_scalar x = (gl_scalar)(urand() * scale);
#if GL_COMPLEX
            if (i != j)
                x += (gl_real)(urand() * scale) * I;
            AT(full, n, j, i) = GL_CONJ(x);
#else
            AT(full, n, j, i) = x;
#endif
            AT(full, n, i, j) = x;
        }
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < lda; i++)
            AT(a, lda, i, j) = i < n && (uplo == 'U' ? i <= j : i >= j)
                                   ? AT(full, n, i, j)
                                   : (gl_scalar)NAN;
}

/* the system LAPACK's ?syevd/?heevd of the n x n full (ld n): W into w,
 * full left as it is; LAPACK's INFO */
static int reference(lapack_int n, char uplo, char jobz,
                     const gl_scalar *full, gl_real *w)
{
    gl_scalar *a = malloc(sizeof *a * (size_t)(n * n));
    memcpy(a, full, sizeof *a * (size_t)(n * n));
    int info = system_eig(GL_PRECISION, jobz, uplo, (int)n, a, (int)n, w);
    free(a);
    return info;
}

static double norm1(lapack_int n, const gl_scalar *a)
{
    double m = 0;
    for (lapack_int j = 0; j < n; j++) {
        double s = 0;
        for (lapack_int i = 0; i < n; i++)
            s += GL_ABS(AT(a, n, i, j));
        m = s > m ? s : m;
    }
    return m;
}

/* LAPACK's ratios for (w, z): residual and orthogonality */
static void ratios(lapack_int n, const gl_scalar *full, const gl_real *w,
                   const gl_scalar *z, lapack_int ldz, double *resid,
                   double *orth)
{
    gl_scalar *r = calloc((size_t)(n * n), sizeof *r);
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++) {
            gl_scalar s = -AT(z, ldz, i, j) * w[j];
            for (lapack_int k = 0; k < n; k++)
                s += AT(full, n, i, k) * AT(z, ldz, k, j);
            AT(r, n, i, j) = s;
        }
    double an = norm1(n, full);
    *resid = norm1(n, r) / ((double)n * (an > 0 ? an : 1) * EPS);
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++) {
            gl_scalar o = i == j ? -1 : 0;
            for (lapack_int k = 0; k < n; k++)
                o += GL_CONJ(AT(z, ldz, k, i)) * AT(z, ldz, k, j);
            AT(r, n, i, j) = o;
        }
    *orth = norm1(n, r) / ((double)n * EPS);
    free(r);
}

/* ---- the cases -------------------------------------------------------- */

static GL_FN(ops) table;

/* The call's context (as the entry points acquire it: reset, profile) and
 * its table; NULL if none. */
static gl_ctx *acquire(void)
{
    gl_ctx *ctx = gl_ctx_acquire(PATH, 0);
    if (ctx && GL_FN(ops_bind)(&table, ctx) != 0) {
        gl_ctx_release(ctx);
        return NULL;
    }
    return ctx;
}

/* One call of eig_vendor on a fresh matrix: n, uplo, driver, vectors
 * (0 none, 1 over A, 2 apart), lda = n + pad, norm scale; checks the
 * ratios and W against LAPACK's. */
static void solve_case(lapack_int n, char uplo, gl_eig_driver driver,
                       int vectors, lapack_int pad, double scale)
{
    lapack_int lda = n + pad, ldz = n + 1;
    gl_scalar *full = malloc(sizeof *full * (size_t)(n * n)),
              *a = malloc(sizeof *a * (size_t)(lda * n)),
              *zz = malloc(sizeof *zz * (size_t)(ldz * n));
    gl_real *w = malloc(sizeof *w * (size_t)n), *wref = malloc(sizeof *w * (size_t)n);
    make(n, uplo, scale, full, a, lda);
    gl_scalar *z = vectors == 1 ? a : vectors == 2 ? zz : NULL;
    gl_eig_job job = {.driver = driver, .uplo = uplo, .range = 'A'};
    gl_stage_times t = {-1, -1, -1, -1};
    int calls = mock_int(solver_lib, "mock_solver_calls");
    gl_ctx *ctx = acquire();
    int rc = ctx ? GL_FN(eig_vendor)(&table, &job, n, a, lda, w, z,
                                     vectors == 1 ? lda : ldz, &t)
                 : -1;
    gl_ctx_release(ctx);
    int ref = reference(n, uplo, z ? 'V' : 'N', full, wref);
    double an = norm1(n, full), dw = 0, resid = 0, orth = 0;
    for (lapack_int i = 0; rc == 0 && i < n; i++)
        dw = fmax(dw, fabs((double)w[i] - (double)wref[i]) / (an * EPS));
    if (rc == 0 && z)
        ratios(n, full, w, z, vectors == 1 ? lda : ldz, &resid, &orth);
    /* the matrix the solver saw: in LAPACK's safe range (the ?syev
     * scaling) where A was not */
    double seen = 0, safmin = GL_PRECISION == 1 || GL_PRECISION == 3
                                  ? (double)FLT_MIN : DBL_MIN;
    double (*last_anrm)(void) =
        (double (*)(void))dlsym(solver_lib, "mock_solver_last_anrm");
    if (last_anrm)
        seen = last_anrm();
    double rmin = sqrt(safmin / EPS), rmax = sqrt(EPS / safmin);
    int in_range = n < 2 || (seen >= rmin * 0.99 && seen <= rmax * 1.01);
    char name[96], detail[240];
    snprintf(name, sizeof name, "%s/n%d-%c-%s-lda%d-scale%g",
             !z ? "values" : vectors == 1 ? "vectors-over-a" : "vectors-apart",
             (int)n, uplo, driver == GL_EIG_SYEV ? "syev" : "syevd", (int)lda,
             scale);
    snprintf(detail, sizeof detail,
             "rc %d, reference %d, W off by %.3g ulp of ||A||_1, resid %.3g, orth "
             "%.3g, solver calls %d, max |a| seen %.3g, times %g %g",
             rc, ref, dw, resid, orth,
             mock_int(solver_lib, "mock_solver_calls") - calls, seen,
             t.stage1, t.stage3);
    verdict(rc == 0 && ref == 0 && dw <= 4 && resid < THRESH && in_range &&
                orth < THRESH &&
                mock_int(solver_lib, "mock_solver_calls") == calls + 1 &&
                t.stage1 >= 0 && t.stage3 >= 0 && t.back >= 0,
            name, detail);
    free(full), free(a), free(zz), free(w), free(wref);
}

/* A failure of the solver's side (mode of mock_solver.c, or a read of Z
 * that breaks after `reads` device-to-host copies; nonfinite: an Inf in
 * A): expected rc, the caller's A triangle intact. */
static void fail_case(const char *name, int mode, int reads, int nonfinite,
                      int expected)
{
    lapack_int n = 64, lda = 67;
    gl_scalar *full = malloc(sizeof *full * (size_t)(n * n)),
              *a = malloc(sizeof *a * (size_t)(lda * n)),
              *a0 = malloc(sizeof *a * (size_t)(lda * n));
    gl_real *w = malloc(sizeof *w * (size_t)n);
    make(n, 'L', 1, full, a, lda);
    if (nonfinite)
        AT(a, lda, 5, 3) = (gl_scalar)INFINITY;
    memcpy(a0, a, sizeof *a * (size_t)(lda * n));
    gl_eig_job job = {.driver = GL_EIG_SYEVD, .uplo = 'L', .range = 'A'};
    mock_set(solver_lib, "mock_solver_fail", mode);
    void (*fail_dtoh)(int) = (void (*)(int))dlsym(driver_lib, "mock_fail_dtoh_after");
    gl_ctx *ctx = acquire();
    if (reads >= 0 && fail_dtoh)
        fail_dtoh(reads);
    int rc = ctx ? GL_FN(eig_vendor)(&table, &job, n, a, lda, w, a, lda, NULL)
                 : -1;
    if (fail_dtoh)
        fail_dtoh(-1);
    gl_ctx_release(ctx);
    mock_set(solver_lib, "mock_solver_fail", 0);
    size_t changed = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = j; i < n; i++)
            changed += memcmp(&AT(a, lda, i, j), &AT(a0, lda, i, j),
                              sizeof *a) != 0;
    char detail[160];
    snprintf(detail, sizeof detail, "rc %d (%d expected), %zu elements of A's "
             "triangle changed", rc, expected, changed);
    verdict(rc == expected && changed == 0, name, detail);
    free(full), free(a), free(a0), free(w);
}

/* Run with a decoy solver library (a library of the solver's soname
 * without its entry points, found before any installed one): no vendor
 * solver, eig_vendor faults. */
static int missing(void)
{
    gl_ctx *ctx = acquire();
    int has = ctx ? gl_ctx_has_vendor_solver(ctx) : -1;
    void *real = dlopen(SOLVER_SONAME, RTLD_NOW | RTLD_NOLOAD);
    gl_scalar a[4] = {2, 1, 1, 2};
    gl_real w[2];
    gl_eig_job job = {.driver = GL_EIG_SYEVD, .uplo = 'L', .range = 'A'};
    int rc = ctx ? GL_FN(eig_vendor)(&table, &job, 2, a, 2, w, NULL, 2, NULL)
                 : -1;
    char vs[64] = "", detail[160];
    const gl_gpu *g = ctx ? ctx->runtime : NULL;
    int version = g && g->solver_version ? g->solver_version(vs, sizeof vs) : -2;
    gl_ctx_release(ctx);
    int decoy = real && dlsym(real, "mock_solver_decoy");
    snprintf(detail, sizeof detail, "context %s, decoy %s, has_vendor_solver "
             "%d, rc %d, version %d", ctx ? "made" : "none",
             decoy ? "loaded" : "not loaded", has, rc, version);
    verdict(ctx && decoy && has == 0 && rc == GL_STAGE_FAULT && version == -1,
            "library-unusable", detail);
    return failures != 0;
}

/* This binary again (argument "missing") with LD_LIBRARY_PATH's
 * stand-in solver folder replaced by the decoy's (SOLVER_DIR-decoy); its
 * verdict line is its own. */
static void run_missing(const char *self)
{
    const char *path = getenv("LD_LIBRARY_PATH");
    char *kept = calloc(1, 2 * (path ? strlen(path) : 0) + 16),
         *copy = strdup(path ? path : "");
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d;
         d = strtok_r(NULL, ":", &save)) {
        if (*kept)
            strcat(kept, ":");
        strcat(kept, d);
        if (strstr(d, SOLVER_DIR))
            strcat(kept, "-decoy");
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("LD_LIBRARY_PATH", kept, 1);
        execl("/proc/self/exe", self, "missing", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        verdict(0, "library-missing-run", "the run without the solver failed");
    free(kept), free(copy);
}

/* A context whose solver handle cannot be made: no vendor solver there. */
static void no_handle(void)
{
    gl_ctx *held = gl_ctx_acquire(PATH, 0);   /* the pooled one, kept busy */
    mock_set(solver_lib, "mock_solver_fail", 4);
    gl_ctx *ctx = gl_ctx_acquire(PATH, 0);    /* a new one */
    GL_FN(ops) t2;
    int has = ctx ? gl_ctx_has_vendor_solver(ctx) : -1, rc = -1;
    gl_scalar a[4] = {2, 1, 1, 2};
    gl_real w[2];
    gl_eig_job job = {.driver = GL_EIG_SYEVD, .uplo = 'L', .range = 'A'};
    if (ctx && GL_FN(ops_bind)(&t2, ctx) == 0)
        rc = GL_FN(eig_vendor)(&t2, &job, 2, a, 2, w, NULL, 2, NULL);
    mock_set(solver_lib, "mock_solver_fail", 0);
    gl_ctx_release(ctx);
    gl_ctx_release(held);
    char detail[96];
    snprintf(detail, sizeof detail, "has_vendor_solver %d, rc %d", has, rc);
    verdict(ctx && has == 0 && rc == GL_STAGE_FAULT, "no-handle", detail);
}

#if GL_PRECISION == 2
/* the library's entry point (linked before the system LAPACK) */
void dsyevd_(const char *, const char *, const int *, double *, const int *,
             double *, double *, const int *, int *, const int *, int *,
             size_t, size_t);

/* End to end: GPULAPACK_DEVICE=<api> GPULAPACK_METHOD=vendor (set by
 * main), dsyevd_ through the library: the log says method=vendor, the
 * stand-in solver ran, the results are right. */
static void end_to_end(const char *log)
{
    int n = 40, lwork = 2 * 40 * 40 + 6 * 40 + 1, liwork = 5 * 40 + 3, info = -1;
    gl_scalar *full = malloc(sizeof *full * 1600), *a = malloc(sizeof *a * 1600);
    gl_real w[40], wref[40];
    double *work = malloc(sizeof *work * (size_t)lwork);
    int *iwork = malloc(sizeof *iwork * (size_t)liwork);
    make(n, 'L', 1, full, a, n);
    int calls = mock_int(solver_lib, "mock_solver_calls");
    dsyevd_("V", "L", &n, a, &n, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    int ref = reference(n, 'L', 'V', full, wref);
    double resid = 0, orth = 0, dw = 0, an = norm1(n, full);
    if (info == 0)
        ratios(n, full, w, a, n, &resid, &orth);
    for (int i = 0; i < n; i++)
        dw = fmax(dw, fabs(w[i] - wref[i]) / (an * EPS));
    char line[512] = "", detail[300];
    int logged = 0;
    FILE *f = fopen(log, "r");
    while (f && fgets(line, sizeof line, f))
        logged |= strstr(line, "dsyevd") && strstr(line, "method=vendor");
    if (f)
        fclose(f);
    snprintf(detail, sizeof detail, "info %d, reference %d, W off by %.3g ulp, "
             "resid %.3g, orth %.3g, solver calls %d, method=vendor %s in %s",
             info, ref, dw, resid, orth,
             mock_int(solver_lib, "mock_solver_calls") - calls,
             logged ? "logged" : "not logged", log);
    verdict(info == 0 && ref == 0 && dw <= 4 && resid < THRESH &&
                orth < THRESH && logged &&
                mock_int(solver_lib, "mock_solver_calls") == calls + 1,
            "end-to-end-dsyevd-method-vendor", detail);
    free(full), free(a), free(work), free(iwork);
}
#endif

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    setenv("GPULAPACK_DEVICE", API, 1);
    setenv("GPULAPACK_CUSOLVER_SYEVD_ALG", "2", 1);
    setenv("GPULAPACK_CUSOLVER_SYEVD_FUNCTION", "7", 1);
    setenv("GPULAPACK_METHOD", "vendor", 1);
    setenv("GPULAPACK_MIN_N", "0", 1);
    setenv("GPULAPACK_VERBOSE", "1", 1);
    char log[64];
    snprintf(log, sizeof log, "/tmp/gpulapack-vendor-%d.log", (int)getpid());
    setenv("GPULAPACK_LOG", log, 1);
    if (argc > 1 && strcmp(argv[1], "missing") == 0) {
        int rc = missing();
        remove(log);
        return rc;
    }
    gl_ctx *ctx = acquire();
    int has = ctx ? gl_ctx_has_vendor_solver(ctx) : -1;
    char version[64] = "";
    int vrc = ctx ? ctx->runtime->solver_version(version, sizeof version) : -1;
    gl_ctx_release(ctx);
    solver_lib = dlopen(SOLVER_SONAME, RTLD_NOW | RTLD_NOLOAD);
#ifdef GL_TEST_HIP
    driver_lib = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
#else
    driver_lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
#endif
    if (!ctx || !solver_lib || !dlsym(solver_lib, "mock_solver_fail") ||
        !driver_lib) {
        printf("FAIL unit/vendor_solver_" API "_%c/mock: run with "
               "LD_LIBRARY_PATH at the stand-in driver and " SOLVER_SONAME
               " (context %s)\n", GL_PREC_CHAR, ctx ? "made" : "none");
        return 1;
    }
    char detail[160];
    snprintf(detail, sizeof detail, "has_vendor_solver %d, version %d \"%s\"",
             has, vrc, version);
#ifdef GL_TEST_HIP
    verdict(has == 1 && vrc == 0 && strcmp(version, "rocSOLVER 3.26.0.mock") == 0,
            "ready", detail);
#else
    verdict(has == 1 && vrc == 0 && strcmp(version, "cuSOLVER 12.9.1") == 0,
            "ready", detail);
#endif
    static const lapack_int sizes[] = {1, 2, 7, 33, 64};
    for (int u = 0; u < 2; u++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int v = 0; v < 3; v++)
                solve_case(sizes[s], u ? 'L' : 'U', GL_EIG_SYEVD, v,
                           s % 2 ? 3 : 0, 1);
    solve_case(33, 'U', GL_EIG_SYEV, 1, 0, 1);
    solve_case(32, 'L', GL_EIG_SYEV, 0, 2, 1);
    /* outside LAPACK's safe range of norms: the ?syev scaling */
    double tiny = GL_PRECISION == 1 || GL_PRECISION == 3 ? 1e-18 : 1e-150;
    solve_case(33, 'L', GL_EIG_SYEVD, 1, 0, tiny);
    solve_case(33, 'U', GL_EIG_SYEVD, 0, 0, 1 / tiny);
    solve_case(20, 'U', GL_EIG_SYEVD, 2, 1, 1 / tiny);

    snprintf(detail, sizeof detail, "%d live handles, %d streams set",
             mock_int(solver_lib, "mock_solver_live_handles"),
             mock_int(solver_lib, "mock_solver_streams_set"));
    verdict(mock_int(solver_lib, "mock_solver_live_handles") == 1 &&
                mock_int(solver_lib, "mock_solver_streams_set") > 0,
            "one-handle-per-context", detail);
#ifndef GL_TEST_HIP
    snprintf(detail, sizeof detail, "last algorithm %d",
             mock_int(solver_lib, "mock_solver_last_alg"));
    verdict(mock_int(solver_lib, "mock_solver_last_alg") == 2,
            "syevd-alg-from-environment", detail);
#endif

    fail_case("fails/status-error", 1, -1, 0, GL_STAGE_FAULT);
    fail_case("fails/info-negative", 2, -1, 0, GL_STAGE_FAULT);
    fail_case("fails/info-positive", 3, -1, 0, GL_STAGE_FAULT);
    /* INFO and W read, one block of Z over A, then the link breaks */
    fail_case("fails/read-of-z-breaks", 0, 3, 0, GL_STAGE_FAULT);
    fail_case("fails/nonfinite", 0, -1, 1, GL_STAGE_NONFINITE);
    no_handle();
    solve_case(33, 'L', GL_EIG_SYEVD, 1, 0, 1);   /* and on again */
#if GL_PRECISION == 2
    end_to_end(log);
#endif
    run_missing(argv[0]);
    remove(log);
    return failures != 0;
}
