/*
 * testutil.h - shared helpers of gpulapack's own C tests (header-only).
 *
 * Each test program is ONE .c file that includes this header first and is
 * compiled on its own (see the Makefile's testing rules):
 *
 *   cc -std=gnu11 -O1 -g -Wall -Wextra -Werror -Itesting/own test_x.c \
 *      -llapacke -llapack -lblas -lpthread -ldl -lm
 *   LD_PRELOAD=$PWD/lib/libgpulapack.so build/testing/test_x
 *
 * What is here:
 *   - PASS/FAIL reporting (one line per check, exit status stays 0),
 *   - the real LAPACK (dlopen("liblapack.so.3") + dlsym: liblapack's own
 *     definitions even while gpulapack is preloaded or linked first),
 *   - a capturing xerbla_ (the library must call the globally resolved one),
 *   - the GPULAPACK_LOG reader that proves our library was entered,
 *   - a generic description of one call ("case") of every exported routine
 *     family in every precision, with guarded buffers, leading-dimension
 *     padding, documented minimum workspaces, and a runner that makes the
 *     same call through the globally resolved symbol ("ours") and through
 *     the real LAPACK on copies of the same inputs and compares them:
 *       GPULAPACK_TEST_COMPARE=exact (default): INFO, xerbla, every
 *         documented output and WORK(1)/IWORK(1)/RWORK(1) bit-identical;
 *       GPULAPACK_TEST_COMPARE=ratio: INFO and xerbla identical, workspace
 *         answers >= the real ones, outputs checked with LAPACK's test
 *         ratios (reconstruction, orthogonality, values) < threshold
 *         (GPULAPACK_TEST_THRESH, default 30).
 *   In both modes: guard zones around every array, the padding rows of every
 *   matrix with LD > rows, and the input scalars must stay untouched.
 *
 * The program sets GPULAPACK_VERBOSE=1 and GPULAPACK_LOG=<tmp file> itself.
 * Other environment: GPULAPACK_TEST_SEED (default 20240601),
 * GPULAPACK_TEST_REAL_LAPACK (default liblapack.so.3),
 * GPULAPACK_TEST_KEEP_LOG=1 keeps the log file, GPULAPACK_TEST_VERBOSE=1
 * prints the case description on PASS lines too.
 *
 * Define TU_NO_LAPACK_H before including to keep <lapack.h> out (the test of
 * callers without hidden string lengths declares its own prototypes); then
 * "our" symbols are looked up with dlsym(RTLD_DEFAULT), which resolves the
 * same way as a direct call does.
 */
#ifndef GPULAPACK_TESTUTIL_H
#define GPULAPACK_TESTUTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifndef TU_NO_LAPACK_H
#include <lapack.h>
#endif

/* helpers a given test does not use are fine */
#pragma GCC diagnostic ignored "-Wunused-function"

typedef int tu_int;               /* LAPACK INTEGER (LP64 build) */
typedef double complex tu_z;
typedef void (*tu_fp)();          /* Fortran routine, all args by reference */
#define TU_L1 ((size_t)1)         /* hidden CHARACTER length */

/* ------------------------------------------------------------------------ */
/* reporting                                                                */
/* ------------------------------------------------------------------------ */

static const char *tu_test = "test";
static int tu_npass, tu_nfail;
static int tu_ratio_mode;          /* 0 exact, 1 ratio */
static double tu_thresh = 30.0;
static uint64_t tu_seed0 = 20240601u;
static int tu_verbose;
static pthread_mutex_t tu_out_lock = PTHREAD_MUTEX_INITIALIZER;

static void tu_report(int ok, const char *check, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void tu_report(int ok, const char *check, const char *fmt, ...)
{
    char detail[2048] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(detail, sizeof detail, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_lock(&tu_out_lock);
    if (ok) {
        tu_npass++;
        if (tu_verbose && detail[0])
            printf("PASS %s/%s (%s)\n", tu_test, check, detail);
        else
            printf("PASS %s/%s\n", tu_test, check);
    } else {
        tu_nfail++;
        printf("FAIL %s/%s: %s\n", tu_test, check, detail[0] ? detail : "failed");
    }
    fflush(stdout);
    pthread_mutex_unlock(&tu_out_lock);
}

static void tu_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tu_note(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&tu_out_lock);
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    pthread_mutex_unlock(&tu_out_lock);
}

static double tu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* ------------------------------------------------------------------------ */
/* xerbla capture (thread-local); overrides liblapack's through the global   */
/* symbol lookup, as LAPACK's own test suite does                           */
/* ------------------------------------------------------------------------ */

static _Thread_local int tu_xb_calls;
static _Thread_local int tu_xb_info;
static _Thread_local char tu_xb_name[40];

void xerbla_(const char *srname, const tu_int *info, size_t len);
void xerbla_(const char *srname, const tu_int *info, size_t len)
{
    size_t n = len;
    if (n > sizeof tu_xb_name - 1)
        n = sizeof tu_xb_name - 1;
    memcpy(tu_xb_name, srname, n);
    while (n > 0 && (tu_xb_name[n - 1] == ' ' || tu_xb_name[n - 1] == '\0'))
        n--;
    tu_xb_name[n] = '\0';
    tu_xb_info = *info;
    tu_xb_calls++;
}

static void tu_xb_reset(void)
{
    tu_xb_calls = 0;
    tu_xb_info = 0;
    tu_xb_name[0] = '\0';
}

/* ------------------------------------------------------------------------ */
/* real LAPACK                                                              */
/* ------------------------------------------------------------------------ */

static void *tu_real_handle;

static void *tu_real(const char *sym)
{
    void *f;
    if (!tu_real_handle) {
        const char *name = getenv("GPULAPACK_TEST_REAL_LAPACK");
        if (!name || !*name)
            name = "liblapack.so.3";
        tu_real_handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (!tu_real_handle) {
            printf("FAIL %s/setup: dlopen(%s): %s\n", tu_test, name, dlerror());
            fflush(stdout);
            exit(0);
        }
    }
    f = dlsym(tu_real_handle, sym);
    if (!f) {
        printf("FAIL %s/setup: real LAPACK lacks %s\n", tu_test, sym);
        fflush(stdout);
        exit(0);
    }
    return f;
}

/* which shared object defines the code at address f */
static const char *tu_where(void *f)
{
    Dl_info di;
    if (f && dladdr(f, &di) && di.dli_fname)
        return di.dli_fname;
    return "?";
}

/* ------------------------------------------------------------------------ */
/* the GPULAPACK_LOG file                                                   */
/* ------------------------------------------------------------------------ */

static char tu_log_path[512];

static long tu_log_mark(void)
{
    struct stat st;
    if (stat(tu_log_path, &st) != 0)
        return 0;
    return (long)st.st_size;
}

/* Lines "gpulapack: <routine> ... path=... info=<i> time=..." appended
 * after byte offset `from`. Returns the number of well-formed lines for
 * `routine` (NULL: any routine); *last_info gets the info of the last one,
 * *bad the number of lines for it that lack path= or info=. */
static int tu_log_count(long from, const char *routine, int *last_info, int *bad)
{
    FILE *f = fopen(tu_log_path, "r");
    char line[4096];
    int n = 0;
    size_t rl = routine ? strlen(routine) : 0;
    if (bad)
        *bad = 0;
    if (!f)
        return 0;
    if (from > 0)
        fseek(f, from, SEEK_SET);
    while (fgets(line, sizeof line, f)) {
        const char *p, *q;
        if (strncmp(line, "gpulapack: ", 11) != 0)
            continue;
        p = line + 11;
        if (routine) {
            if (strncmp(p, routine, rl) != 0 || p[rl] != ' ')
                continue;
        }
        q = strstr(p, " info=");
        if (!strstr(p, " path=") || !q) {
            if (bad)
                (*bad)++;
            continue;
        }
        if (last_info)
            *last_info = atoi(q + 6);
        n++;
    }
    fclose(f);
    return n;
}

/* ------------------------------------------------------------------------ */
/* setup / teardown                                                         */
/* ------------------------------------------------------------------------ */

/* The call under way in this thread, for the crash report: which side
 * and the case's description (tu_exec_with sets them). */
static _Thread_local const char *tu_crash_side = "";
static _Thread_local const char *tu_crash_case = "";

static void tu_write_stderr(const char *text)
{
    ssize_t written = write(2, text, strlen(text));
    (void)written;   /* nothing to do about a failed write while dying */
}

/* A crash in a test run on CI leaves nothing but an exit code: this
 * writes the call under way and a backtrace to stderr (async-signal-safe
 * calls only; tu_init loads backtrace()'s library beforehand), then dies
 * of the same signal. */
static void tu_crash_report(int sig)
{
    char num[4] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10), '\n', 0};
    void *frames[64];
    tu_write_stderr("# crashed: signal ");
    tu_write_stderr(num);
    tu_write_stderr("# in ");
    tu_write_stderr(tu_crash_side);
    tu_write_stderr(" ");
    tu_write_stderr(tu_crash_case);
    tu_write_stderr("\n");
    backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void tu_init(const char *name)
{
    const char *e, *tmp;
    void *warm[1];
    static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    size_t i;
    tu_test = name;
    /* every line reaches the log even when the process dies */
    setvbuf(stdout, NULL, _IOLBF, 0);
    (void)backtrace(warm, 1);   /* loads libgcc now, not in the handler */
    for (i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
        signal(crash_signals[i], tu_crash_report);
    e = getenv("GPULAPACK_TEST_COMPARE");
    tu_ratio_mode = (e && strcmp(e, "ratio") == 0);
    if (e && *e && strcmp(e, "ratio") != 0 && strcmp(e, "exact") != 0)
        printf("# unknown GPULAPACK_TEST_COMPARE=%s, using exact\n", e);
    e = getenv("GPULAPACK_TEST_THRESH");
    if (e && atof(e) > 0)
        tu_thresh = atof(e);
    e = getenv("GPULAPACK_TEST_SEED");
    if (e && *e)
        tu_seed0 = strtoull(e, NULL, 0);
    e = getenv("GPULAPACK_TEST_VERBOSE");
    tu_verbose = e && atoi(e) > 0;
    tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    snprintf(tu_log_path, sizeof tu_log_path, "%s/gpulapack-test-%s-%ld.log", tmp,
             name, (long)getpid());
    unlink(tu_log_path);
    /* read lazily by the library on its first intercepted call; level 1
     * exactly: the checks count its one-line-per-call format */
    setenv("GPULAPACK_LOG", tu_log_path, 1);
    setenv("GPULAPACK_VERBOSE", "1", 1);
    (void)tu_real("dsyev_");
    printf("# %s: compare=%s thresh=%g seed=%llu log=%s\n", name,
           tu_ratio_mode ? "ratio" : "exact", tu_thresh,
           (unsigned long long)tu_seed0, tu_log_path);
    fflush(stdout);
}

static int tu_finish(void)
{
    const char *keep = getenv("GPULAPACK_TEST_KEEP_LOG");
    printf("# summary %s: pass=%d fail=%d\n", tu_test, tu_npass, tu_nfail);
    if (tu_nfail == 0 && !(keep && atoi(keep) > 0))
        unlink(tu_log_path);
    else
        printf("# log kept: %s\n", tu_log_path);
    fflush(stdout);
    return 0; /* the runner counts FAIL lines; non-zero means a crash */
}

/* ------------------------------------------------------------------------ */
/* precisions, scalars                                                      */
/* ------------------------------------------------------------------------ */

static const char tu_precs[4] = {'s', 'd', 'c', 'z'};
static int tu_pidx(char p) { return p == 's' ? 0 : p == 'd' ? 1 : p == 'c' ? 2 : 3; }
static int tu_cplx(char p) { return p == 'c' || p == 'z'; }
static int tu_single(char p) { return p == 's' || p == 'c'; }
static char tu_rtype(char p) { return tu_single(p) ? 's' : 'd'; }
static double tu_ulp(char p) { return tu_single(p) ? FLT_EPSILON : DBL_EPSILON; }

static size_t tu_esz(char t)
{
    switch (t) {
    case 's': return sizeof(float);
    case 'd': return sizeof(double);
    case 'c': return 2 * sizeof(float);
    case 'z': return 2 * sizeof(double);
    default: return sizeof(tu_int);
    }
}

static tu_z tu_get(char t, const void *b, size_t i)
{
    switch (t) {
    case 's': return ((const float *)b)[i];
    case 'd': return ((const double *)b)[i];
    case 'c': return ((const float *)b)[2 * i] + I * ((const float *)b)[2 * i + 1];
    case 'z': return ((const double *)b)[2 * i] + I * ((const double *)b)[2 * i + 1];
    default: return ((const tu_int *)b)[i];
    }
}

static void tu_put(char t, void *b, size_t i, tu_z v)
{
    switch (t) {
    case 's': ((float *)b)[i] = (float)creal(v); break;
    case 'd': ((double *)b)[i] = creal(v); break;
    case 'c': ((float *)b)[2 * i] = (float)creal(v); ((float *)b)[2 * i + 1] = (float)cimag(v); break;
    case 'z': ((double *)b)[2 * i] = creal(v); ((double *)b)[2 * i + 1] = cimag(v); break;
    default: ((tu_int *)b)[i] = (tu_int)creal(v); break;
    }
}

static int tu_imax(int a, int b) { return a > b ? a : b; }
static int tu_imin(int a, int b) { return a < b ? a : b; }

/* xorshift64* in [-1, 1) */
static double tu_rand(uint64_t *s)
{
    uint64_t x = *s ? *s : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return (double)((x * 0x2545F4914F6CDD1Dull) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* ------------------------------------------------------------------------ */
/* routine families                                                         */
/* ------------------------------------------------------------------------ */

enum {
    F_GESVD, F_GESDD, F_SYEV, F_SYEVD, F_SYEVR, F_SYEVX, F_SYTRD, F_GBBRD,
    F_SBTRD, F_SBEV, F_SBEVD, F_SYEV2, F_SYEVD2, F_SYEVR2, F_SYEVX2, F_SYTRD2,
    TU_NFAM
};
static const char *const tu_fam_r[TU_NFAM] = {
    "gesvd", "gesdd", "syev", "syevd", "syevr", "syevx", "sytrd", "gbbrd",
    "sbtrd", "sbev", "sbevd", "syev_2stage", "syevd_2stage", "syevr_2stage",
    "syevx_2stage", "sytrd_2stage"};
static const char *const tu_fam_c[TU_NFAM] = {
    "gesvd", "gesdd", "heev", "heevd", "heevr", "heevx", "hetrd", "gbbrd",
    "hbtrd", "hbev", "hbevd", "heev_2stage", "heevd_2stage", "heevr_2stage",
    "heevx_2stage", "hetrd_2stage"};

/* "dgesdd", "zheevr_2stage" (log name; symbol is this plus '_') */
static char tu_names[TU_NFAM][4][24];
static pthread_once_t tu_names_once = PTHREAD_ONCE_INIT;
static void tu_names_init(void)
{
    int f, k;
    for (f = 0; f < TU_NFAM; f++)
        for (k = 0; k < 4; k++)
            snprintf(tu_names[f][k], 24, "%c%s", "sdcz"[k], k >= 2 ? tu_fam_c[f] : tu_fam_r[f]);
}
static const char *tu_rname(int fam, char p)
{
    pthread_once(&tu_names_once, tu_names_init);
    return tu_names[fam][tu_pidx(p)];
}

static void *tu_ours_tab[TU_NFAM][4];
static pthread_once_t tu_ours_once = PTHREAD_ONCE_INIT;

static void tu_ours_init(void)
{
#ifndef TU_NO_LAPACK_H
    /* addresses of the symbols as this executable links them: the same
     * binding a direct call gets (ours when preloaded or linked first) */
#define TU_SYM4(F, r, h)                          \
    tu_ours_tab[F][0] = (void *)s##r##_;          \
    tu_ours_tab[F][1] = (void *)d##r##_;          \
    tu_ours_tab[F][2] = (void *)c##h##_;          \
    tu_ours_tab[F][3] = (void *)z##h##_;
    TU_SYM4(F_GESVD, gesvd, gesvd)
    TU_SYM4(F_GESDD, gesdd, gesdd)
    TU_SYM4(F_SYEV, syev, heev)
    TU_SYM4(F_SYEVD, syevd, heevd)
    TU_SYM4(F_SYEVR, syevr, heevr)
    TU_SYM4(F_SYEVX, syevx, heevx)
    TU_SYM4(F_SYTRD, sytrd, hetrd)
    TU_SYM4(F_GBBRD, gbbrd, gbbrd)
    TU_SYM4(F_SBTRD, sbtrd, hbtrd)
    TU_SYM4(F_SBEV, sbev, hbev)
    TU_SYM4(F_SBEVD, sbevd, hbevd)
    TU_SYM4(F_SYEV2, syev_2stage, heev_2stage)
    TU_SYM4(F_SYEVD2, syevd_2stage, heevd_2stage)
    TU_SYM4(F_SYEVR2, syevr_2stage, heevr_2stage)
    TU_SYM4(F_SYEVX2, syevx_2stage, heevx_2stage)
    TU_SYM4(F_SYTRD2, sytrd_2stage, hetrd_2stage)
#undef TU_SYM4
#else
    int f, k;
    for (f = 0; f < TU_NFAM; f++)
        for (k = 0; k < 4; k++) {
            char sym[32];
            snprintf(sym, sizeof sym, "%s_", tu_rname(f, tu_precs[k]));
            tu_ours_tab[f][k] = dlsym(RTLD_DEFAULT, sym);
        }
#endif
}

static void *tu_ours(int fam, char p)
{
    pthread_once(&tu_ours_once, tu_ours_init);
    return tu_ours_tab[fam][tu_pidx(p)];
}

static void *tu_real_fn(int fam, char p)
{
    char sym[32];
    snprintf(sym, sizeof sym, "%s_", tu_rname(fam, p));
    return tu_real(sym);
}

/* One check: every exported symbol as this program binds it lives in
 * libgpulapack, and differs from the real LAPACK's definition. */
static void tu_check_front(void)
{
    char bad[4096] = "";
    int f, k, nbad = 0;
    for (f = 0; f < TU_NFAM; f++)
        for (k = 0; k < 4; k++) {
            char p = tu_precs[k];
            void *o = tu_ours(f, p);
            const char *w = tu_where(o);
            if (!o || !strstr(w, "gpulapack") || o == tu_real_fn(f, p)) {
                nbad++;
                if (strlen(bad) < sizeof bad - 100)
                    snprintf(bad + strlen(bad), sizeof bad - strlen(bad), " %s_ in %s;",
                             tu_rname(f, p), w);
            }
        }
    tu_report(nbad == 0, "front/all-64-symbols-resolve-to-libgpulapack",
              "%d symbols not from libgpulapack:%s", nbad, bad);
}

/* ------------------------------------------------------------------------ */
/* cases                                                                    */
/* ------------------------------------------------------------------------ */

enum { B_A, B_W, B_E, B_TAU, B_U, B_VT, B_C, B_H, B_WORK, B_RWORK, B_IWORK,
       B_IFAIL, B_ISUPPZ, TU_NB };
static const char *const tu_bname[TU_NB] = {
    "A", "W", "E", "TAU", "U", "VT", "C", "HOUS2", "WORK", "RWORK", "IWORK",
    "IFAIL", "ISUPPZ"};

enum { R_OUT = 1, R_FIRST = 2, R_CONST = 4 };

typedef struct {
    char t;             /* element type s d c z i */
    size_t n;           /* elements handed to the routine (>= 1 allocated) */
    int rows, cols, ld; /* matrix view for the padding check (ld > rows) */
    int role;
    void *init;         /* initial contents, n elements */
} tu_buf;

/* special LWORK requests in tu_spec */
#define TU_LW_DOC 0     /* documented minimum (default) */
#define TU_LW_QUERY (-1)
#define TU_LW_OPT (-2)  /* the real routine's query answer */
#define TU_LW_ZERO (-3) /* literally 0 */
#define TU_LW_OURS (-4) /* our query answer */

typedef struct {
    int fam;
    char p;
    char o[4];          /* job characters, family-dependent order (NUL-terminated) */
    int m, n, k, ku, ncc; /* k = KD (sb*) or KL (gbbrd) */
    int pad_a, pad_u, pad_vt, pad_c; /* extra leading-dimension rows */
    int lda, ldu, ldvt, ldc;         /* > 0 (or TU_LD_ZERO): explicit value */
    int il, iu;         /* RANGE='I' */
    int vlo, vhi;       /* RANGE='V': bracket eigenvalues vlo..vhi (1-based) */
    double vl, vu;      /* RANGE='V' explicit when vexplicit */
    int vexplicit;
    int lwork, lrwork, liwork, lhous2; /* TU_LW_* or > 0 */
    int garbage_tri;    /* fill the unreferenced triangle with 1e20 */
    int nan_at;         /* > 0: A(nan_at) (1-based linear) = NaN */
    uint64_t seed;
} tu_spec;
#define TU_LD_ZERO (-99)

typedef struct {
    int fam;
    char p;
    char o[4];          /* NUL-terminated */
    tu_int m, n, k, ku, ncc;
    tu_int lda, ldu, ldvt, ldc;
    tu_int il, iu;
    double vl, vu, abstol;
    float fvl, fvu, fabstol;
    tu_int lwork, lrwork, liwork, lhous2;
    tu_int mout, info;
    tu_buf b[TU_NB];
    void *ptr[TU_NB];   /* live arrays during a call */
    int query;
    char desc[400];
} tu_case;

static void tu_invoke(void *fp, tu_case *c)
{
    tu_fp f = (tu_fp)fp;
    int cx = tu_cplx(c->p);
    void **P = c->ptr;
    void *vl = tu_single(c->p) ? (void *)&c->fvl : (void *)&c->vl;
    void *vu = tu_single(c->p) ? (void *)&c->fvu : (void *)&c->vu;
    void *at = tu_single(c->p) ? (void *)&c->fabstol : (void *)&c->abstol;
    char *o = c->o;
    switch (c->fam) {
    case F_GESVD:
        if (!cx)
            f(&o[0], &o[1], &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu,
              P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, &c->info, TU_L1, TU_L1);
        else
            f(&o[0], &o[1], &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu,
              P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, P[B_RWORK], &c->info, TU_L1,
              TU_L1);
        break;
    case F_GESDD:
        if (!cx)
            f(&o[0], &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT],
              &c->ldvt, P[B_WORK], &c->lwork, P[B_IWORK], &c->info, TU_L1);
        else
            f(&o[0], &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT],
              &c->ldvt, P[B_WORK], &c->lwork, P[B_RWORK], P[B_IWORK], &c->info, TU_L1);
        break;
    case F_SYEV:
    case F_SYEV2:
        if (!cx)
            f(&o[0], &o[1], &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork,
              &c->info, TU_L1, TU_L1);
        else
            f(&o[0], &o[1], &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork,
              P[B_RWORK], &c->info, TU_L1, TU_L1);
        break;
    case F_SYEVD:
    case F_SYEVD2:
        if (!cx)
            f(&o[0], &o[1], &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork,
              P[B_IWORK], &c->liwork, &c->info, TU_L1, TU_L1);
        else
            f(&o[0], &o[1], &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork,
              P[B_RWORK], &c->lrwork, P[B_IWORK], &c->liwork, &c->info, TU_L1, TU_L1);
        break;
    case F_SYEVR:
    case F_SYEVR2:
        if (!cx)
            f(&o[0], &o[1], &o[2], &c->n, P[B_A], &c->lda, vl, vu, &c->il, &c->iu, at,
              &c->mout, P[B_W], P[B_U], &c->ldu, P[B_ISUPPZ], P[B_WORK], &c->lwork,
              P[B_IWORK], &c->liwork, &c->info, TU_L1, TU_L1, TU_L1);
        else
            f(&o[0], &o[1], &o[2], &c->n, P[B_A], &c->lda, vl, vu, &c->il, &c->iu, at,
              &c->mout, P[B_W], P[B_U], &c->ldu, P[B_ISUPPZ], P[B_WORK], &c->lwork,
              P[B_RWORK], &c->lrwork, P[B_IWORK], &c->liwork, &c->info, TU_L1, TU_L1,
              TU_L1);
        break;
    case F_SYEVX:
    case F_SYEVX2:
        if (!cx)
            f(&o[0], &o[1], &o[2], &c->n, P[B_A], &c->lda, vl, vu, &c->il, &c->iu, at,
              &c->mout, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->lwork, P[B_IWORK],
              P[B_IFAIL], &c->info, TU_L1, TU_L1, TU_L1);
        else
            f(&o[0], &o[1], &o[2], &c->n, P[B_A], &c->lda, vl, vu, &c->il, &c->iu, at,
              &c->mout, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->lwork, P[B_RWORK],
              P[B_IWORK], P[B_IFAIL], &c->info, TU_L1, TU_L1, TU_L1);
        break;
    case F_SYTRD:
        f(&o[0], &c->n, P[B_A], &c->lda, P[B_W], P[B_E], P[B_TAU], P[B_WORK], &c->lwork,
          &c->info, TU_L1);
        break;
    case F_SYTRD2:
        f(&o[0], &o[1], &c->n, P[B_A], &c->lda, P[B_W], P[B_E], P[B_TAU], P[B_H],
          &c->lhous2, P[B_WORK], &c->lwork, &c->info, TU_L1, TU_L1);
        break;
    case F_GBBRD:
        if (!cx)
            f(&o[0], &c->m, &c->n, &c->ncc, &c->k, &c->ku, P[B_A], &c->lda, P[B_W],
              P[B_E], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_C], &c->ldc, P[B_WORK],
              &c->info, TU_L1);
        else
            f(&o[0], &c->m, &c->n, &c->ncc, &c->k, &c->ku, P[B_A], &c->lda, P[B_W],
              P[B_E], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_C], &c->ldc, P[B_WORK],
              P[B_RWORK], &c->info, TU_L1);
        break;
    case F_SBTRD:
        f(&o[0], &o[1], &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_E], P[B_U], &c->ldu,
          P[B_WORK], &c->info, TU_L1, TU_L1);
        break;
    case F_SBEV:
        if (!cx)
            f(&o[0], &o[1], &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu,
              P[B_WORK], &c->info, TU_L1, TU_L1);
        else
            f(&o[0], &o[1], &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu,
              P[B_WORK], P[B_RWORK], &c->info, TU_L1, TU_L1);
        break;
    case F_SBEVD:
        if (!cx)
            f(&o[0], &o[1], &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu,
              P[B_WORK], &c->lwork, P[B_IWORK], &c->liwork, &c->info, TU_L1, TU_L1);
        else
            f(&o[0], &o[1], &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu,
              P[B_WORK], &c->lwork, P[B_RWORK], &c->lrwork, P[B_IWORK], &c->liwork,
              &c->info, TU_L1, TU_L1);
        break;
    }
}

/* family properties */
static int tu_has_lwork(int fam) { return fam != F_GBBRD && fam != F_SBTRD && fam != F_SBEV; }
static int tu_has_liwork(int fam)
{
    return fam == F_SYEVD || fam == F_SYEVD2 || fam == F_SYEVR || fam == F_SYEVR2 ||
           fam == F_SBEVD;
}
static int tu_has_lrwork(int fam, char p) { return tu_cplx(p) && tu_has_liwork(fam); }
static int tu_is_band(int fam) { return fam == F_SBTRD || fam == F_SBEV || fam == F_SBEVD; }
static int tu_is_rangefam(int fam)
{
    return fam == F_SYEVR || fam == F_SYEVR2 || fam == F_SYEVX || fam == F_SYEVX2;
}
static int tu_is_svd(int fam) { return fam == F_GESVD || fam == F_GESDD; }
/* JOBZ (or VECT) character */
static char tu_jobz(const tu_case *c) { return c->fam == F_SYTRD ? 'N' : c->o[0]; }
static char tu_uplo(const tu_case *c)
{
    switch (c->fam) {
    case F_SYTRD: return c->o[0];
    case F_SYEVR: case F_SYEVR2: case F_SYEVX: case F_SYEVX2: return c->o[2];
    case F_GESVD: case F_GESDD: case F_GBBRD: return 'U';
    default: return c->o[1];
    }
}
static char tu_range(const tu_case *c) { return tu_is_rangefam(c->fam) ? c->o[1] : 'A'; }
static int tu_up(char ch) { return ch >= 'a' && ch <= 'z' ? ch - 32 : ch; }

/* INFO position of LWORK / LRWORK / LIWORK / LHOUS2 (0: none) */
static int tu_pos_lwork(int fam, char p)
{
    (void)p;
    switch (fam) {
    case F_GESVD: return 13;
    case F_GESDD: return 12;
    case F_SYEV: case F_SYEV2: case F_SYEVD: case F_SYEVD2: return 8;
    case F_SYEVR: case F_SYEVR2: return 18;
    case F_SYEVX: case F_SYEVX2: return 17;
    case F_SYTRD: return 9;
    case F_SYTRD2: return 12;
    case F_SBEVD: return 11;
    default: return 0;
    }
}
static int tu_pos_lrwork(int fam, char p)
{
    if (!tu_cplx(p))
        return 0;
    switch (fam) {
    case F_SYEVD: case F_SYEVD2: return 10;
    case F_SYEVR: case F_SYEVR2: return 20;
    case F_SBEVD: return 13;
    default: return 0;
    }
}
static int tu_pos_liwork(int fam, char p)
{
    int c = tu_cplx(p);
    switch (fam) {
    case F_SYEVD: case F_SYEVD2: return c ? 12 : 10;
    case F_SYEVR: case F_SYEVR2: return c ? 22 : 20;
    case F_SBEVD: return c ? 15 : 13;
    default: return 0;
    }
}

typedef int (*tu_ilaenv2stage_t)(const tu_int *, const char *, const char *, const tu_int *,
                                 const tu_int *, const tu_int *, const tu_int *, size_t,
                                 size_t);

/* ILAENV2STAGE(ispec, xSYTRD_2STAGE/xHETRD_2STAGE, opts, n, ...) as the
 * 2-stage drivers compute it: returns LHTRD (ispec 3) or LWTRD (ispec 4) */
static int tu_ilaenv2(char p, int ispec, char opts, int n)
{
    tu_ilaenv2stage_t f = (tu_ilaenv2stage_t)tu_real("ilaenv2stage_");
    char name[16];
    tu_int one = 1, two = 2, sp = ispec, nn = n, m1 = -1, kd, ib;
    char op[2] = {opts, 0};
    snprintf(name, sizeof name, "%c%s", (char)(p - 32), tu_cplx(p) ? "HETRD_2STAGE" : "SYTRD_2STAGE");
    kd = f(&one, name, op, &nn, &m1, &m1, &m1, strlen(name), TU_L1);
    ib = f(&two, name, op, &nn, &kd, &m1, &m1, strlen(name), TU_L1);
    return f(&sp, name, op, &nn, &kd, &ib, &m1, strlen(name), TU_L1);
}

/* Documented minimum workspace sizes (reference LAPACK's argument docs).
 * lwork/lrwork/liwork/lhous2: sizes that are arguments; *_fix: fixed
 * dimensions of arrays that have no size argument. */
typedef struct {
    int lwork, lrwork, liwork, lhous2;
    int rwork_fix, iwork_fix;
} tu_ws;

static tu_ws tu_doc_ws(int fam, char p, const char *o, int m, int n)
{
    tu_ws w = {1, 1, 1, 1, 1, 1};
    int cx = tu_cplx(p);
    int mn = tu_imin(m, n), mx = tu_imax(m, n);
    char jz = (char)tu_up(o[0]);
    int wantz = jz == 'V';
    switch (fam) {
    case F_GESVD:
        if (!cx)
            w.lwork = tu_imax(1, tu_imax(3 * mn + mx, 5 * mn));
        else {
            w.lwork = tu_imax(1, 2 * mn + mx);
            w.rwork_fix = tu_imax(1, 5 * mn);
        }
        break;
    case F_GESDD:
        if (!cx) {
            if (jz == 'N') w.lwork = 3 * mn + tu_imax(mx, 7 * mn);
            else if (jz == 'O') w.lwork = 3 * mn + tu_imax(mx, 5 * mn * mn + 4 * mn);
            else if (jz == 'S') w.lwork = 4 * mn * mn + 7 * mn;
            else w.lwork = 4 * mn * mn + 6 * mn + mx;
        } else {
            if (jz == 'N') w.lwork = 2 * mn + mx;
            else if (jz == 'O') w.lwork = 2 * mn * mn + 2 * mn + mx;
            else if (jz == 'S') w.lwork = mn * mn + 3 * mn;
            else w.lwork = mn * mn + 2 * mn + mx;
            if (jz == 'N') w.rwork_fix = 5 * mn;
            else w.rwork_fix = tu_imax(5 * mn * mn + 5 * mn, 2 * mx * mn + 2 * mn * mn + mn);
        }
        w.lwork = tu_imax(1, w.lwork);
        w.rwork_fix = tu_imax(1, w.rwork_fix);
        w.iwork_fix = tu_imax(1, 8 * mn);
        break;
    case F_SYEV:
        w.lwork = tu_imax(1, cx ? 2 * n - 1 : 3 * n - 1);
        w.rwork_fix = tu_imax(1, 3 * n - 2);
        break;
    case F_SYEVD:
        if (n <= 1) break;
        if (!cx) w.lwork = wantz ? 1 + 6 * n + 2 * n * n : 2 * n + 1;
        else {
            w.lwork = wantz ? 2 * n + n * n : n + 1;
            w.lrwork = wantz ? 1 + 5 * n + 2 * n * n : n;
        }
        w.liwork = wantz ? 3 + 5 * n : 1;
        break;
    case F_SYEVR:
        w.iwork_fix = tu_imax(1, 2 * n); /* ISUPPZ */
        if (n <= 1) break;
        w.lwork = cx ? 2 * n : 26 * n;
        if (cx) w.lrwork = 24 * n;
        w.liwork = 10 * n;
        break;
    case F_SYEVX:
        w.iwork_fix = tu_imax(1, 5 * n);
        w.rwork_fix = tu_imax(1, 7 * n);
        if (n > 1) w.lwork = cx ? 2 * n : 8 * n;
        break;
    case F_SYTRD:
        w.lwork = 1;
        break;
    case F_GBBRD:
        w.lwork = tu_imax(1, cx ? mx : 2 * mx); /* WORK dimension */
        w.rwork_fix = tu_imax(1, mx);
        break;
    case F_SBTRD:
        w.lwork = tu_imax(1, n);
        break;
    case F_SBEV:
        w.lwork = tu_imax(1, cx ? n : 3 * n - 2);
        w.rwork_fix = tu_imax(1, 3 * n - 2);
        break;
    case F_SBEVD:
        if (n <= 1) break;
        if (!cx) w.lwork = wantz ? 1 + 5 * n + 2 * n * n : 2 * n;
        else {
            w.lwork = wantz ? 2 * n * n : n;
            w.lrwork = wantz ? 1 + 5 * n + 2 * n * n : n;
        }
        w.liwork = wantz ? 3 + 5 * n : 1;
        break;
    case F_SYEV2: {
        int lh = tu_ilaenv2(p, 3, o[0], n), lw = tu_ilaenv2(p, 4, o[0], n);
        w.lwork = tu_imax(1, (cx ? n : 2 * n) + lh + lw);
        w.rwork_fix = tu_imax(1, 3 * n - 2);
        break;
    }
    case F_SYEVD2:
        if (n <= 1) break;
        if (wantz) { /* not supported by LAPACK (INFO=-1); the 1-stage sizes */
            if (!cx) w.lwork = 1 + 6 * n + 2 * n * n;
            else { w.lwork = 2 * n + n * n; w.lrwork = 1 + 5 * n + 2 * n * n; }
            w.liwork = 3 + 5 * n;
        } else {
            int lh = tu_ilaenv2(p, 3, o[0], n), lw = tu_ilaenv2(p, 4, o[0], n);
            w.lwork = (cx ? n + 1 : 2 * n + 1) + lh + lw;
            if (cx) w.lrwork = n;
            w.liwork = 1;
        }
        break;
    case F_SYEVR2:
        w.iwork_fix = tu_imax(1, 2 * n);
        if (n <= 1) break;
        {
            int lh = tu_ilaenv2(p, 3, o[0], n), lw = tu_ilaenv2(p, 4, o[0], n);
            w.lwork = cx ? n + lh + lw : tu_imax(26 * n, 5 * n + lh + lw);
            if (cx) w.lrwork = 24 * n;
            w.liwork = 10 * n;
        }
        break;
    case F_SYEVX2:
        w.iwork_fix = tu_imax(1, 5 * n);
        w.rwork_fix = tu_imax(1, 7 * n);
        if (n > 1) {
            int lh = tu_ilaenv2(p, 3, o[0], n), lw = tu_ilaenv2(p, 4, o[0], n);
            w.lwork = cx ? n + lh + lw : tu_imax(8 * n, 3 * n + lh + lw);
        }
        break;
    case F_SYTRD2:
        if (n == 0) break;
        w.lhous2 = tu_ilaenv2(p, 3, o[0], n);
        w.lwork = tu_ilaenv2(p, 4, o[0], n);
        break;
    }
    return w;
}

/* ------------------------------------------------------------------------ */
/* building a case                                                          */
/* ------------------------------------------------------------------------ */

static void tu_buf_set(tu_case *c, int b, char t, size_t n, int rows, int cols, int ld,
                       int role)
{
    tu_buf *B = &c->b[b];
    size_t i, na = n ? n : 1;
    if (rows < 0) rows = 0;
    if (cols < 0) cols = 0;
    B->t = t;
    B->n = n;
    B->rows = rows;
    B->cols = cols;
    B->ld = ld;
    B->role = role;
    free(B->init);
    B->init = malloc(na * tu_esz(t));
    /* outputs start as NaN / a large negative integer: nothing may be read
     * from them before it is written */
    for (i = 0; i < na; i++) {
        if (t == 'i')
            ((tu_int *)B->init)[i] = -77777;
        else
            tu_put(t, B->init, i, NAN + I * NAN);
    }
}

static void tu_case_free(tu_case *c)
{
    int b;
    for (b = 0; b < TU_NB; b++) {
        free(c->b[b].init);
        c->b[b].init = NULL;
    }
}

/* matrix region sizes: ld*(cols-1)+rows, at least 1 element */
static size_t tu_msize(int ld, int rows, int cols)
{
    if (rows <= 0 || cols <= 0)
        return (size_t)tu_imax(1, ld);
    return (size_t)ld * (size_t)(cols - 1) + (size_t)tu_imax(ld, rows);
}

/* fill the rows x cols matrix of buffer b with random values, the padding
 * rows with -7777 */
static void tu_fill_matrix(tu_case *c, int b, uint64_t *s)
{
    tu_buf *B = &c->b[b];
    int i, j;
    size_t k;
    for (k = 0; k < (B->n ? B->n : 1); k++)
        tu_put(B->t, B->init, k, -7777.0 - 7777.0 * I);
    for (j = 0; j < B->cols; j++)
        for (i = 0; i < B->rows; i++) {
            size_t idx = (size_t)i + (size_t)j * B->ld;
            if (idx < B->n)
                tu_put(B->t, B->init, idx, tu_rand(s) + (tu_cplx(B->t) ? I * tu_rand(s) : 0));
        }
}

/* padding only (for output matrices) */
static void tu_fill_padding(tu_case *c, int b)
{
    tu_buf *B = &c->b[b];
    int i, j;
    for (j = 0; j < B->cols; j++)
        for (i = B->rows; i < B->ld; i++) {
            size_t idx = (size_t)i + (size_t)j * B->ld;
            if (idx < B->n)
                tu_put(B->t, B->init, idx, -7777.0 - 7777.0 * I);
        }
}

/* Hermitian test matrix in A (n x n): real diagonal; the triangle that
 * UPLO does not reference mirrors the other one, or holds 1e20 */
static void tu_make_herm(tu_case *c, int garbage, uint64_t *s)
{
    tu_buf *B = &c->b[B_A];
    int n = B->cols, i, j, up = tu_up(tu_uplo(c)) != 'L';
    tu_fill_matrix(c, B_A, s);
    for (j = 0; j < n; j++)
        for (i = 0; i < n && i < B->rows; i++) {
            size_t ij = (size_t)i + (size_t)j * B->ld, ji = (size_t)j + (size_t)i * B->ld;
            if (i == j)
                tu_put(B->t, B->init, ij, creal(tu_get(B->t, B->init, ij)));
            else if ((up && i > j) || (!up && i < j))
                tu_put(B->t, B->init, ij,
                       garbage ? 1e20 + 1e20 * (tu_cplx(B->t) ? I : 0)
                               : conj(tu_get(B->t, B->init, ji)));
        }
}

/* band matrix storage: symmetric/Hermitian (kd, uplo) */
static void tu_make_sband(tu_case *c, uint64_t *s)
{
    tu_buf *B = &c->b[B_A];
    int n = c->n, kd = c->k, i, j, up = tu_up(tu_uplo(c)) != 'L';
    tu_fill_matrix(c, B_A, s);
    for (j = 0; j < n; j++)
        for (i = 0; i <= kd && i < B->rows; i++) {
            /* row i of AB, column j: upper A(j-kd+i, j); lower A(j+i, j) */
            int ai = up ? j - kd + i : j + i;
            size_t idx = (size_t)i + (size_t)j * B->ld;
            if (ai < 0 || ai >= n)
                tu_put(B->t, B->init, idx, 0.0);
            else if (ai == j)
                tu_put(B->t, B->init, idx, creal(tu_get(B->t, B->init, idx)));
        }
}

/* general band storage (kl, ku) for gbbrd, zero outside the matrix */
static void tu_make_gband(tu_case *c, uint64_t *s)
{
    tu_buf *B = &c->b[B_A];
    int m = c->m, n = c->n, kl = c->k, ku = c->ku, i, j;
    tu_fill_matrix(c, B_A, s);
    for (j = 0; j < n; j++)
        for (i = 0; i < kl + ku + 1 && i < B->rows; i++) {
            int ai = i + j - ku;
            if (ai < 0 || ai >= m)
                tu_put(B->t, B->init, (size_t)i + (size_t)j * B->ld, 0.0);
        }
}

/* eigenvalues of the Hermitian matrix given as dense column-major tu_z
 * (double precision, real LAPACK zhpev: nothing of ours on that path) */
static void tu_herm_eigs(int n, const tu_z *A, double *w);

static void tu_res_free_all(void *r);
static int tu_exec_real_query(tu_case *c, tu_int *lw, tu_int *lrw, tu_int *liw, tu_int *lh,
                              int ours);

static tu_z *tu_dense_from_case(const tu_case *c, const void *abuf);

/* Build a case from a spec. Returns 0 on success. */
static int tu_build(const tu_spec *sp, tu_case *c)
{
    int fam = sp->fam, m = sp->m, n = sp->n, mn, cx = tu_cplx(sp->p);
    char p = sp->p, rt = tu_rtype(sp->p);
    char j0, j1;
    uint64_t s = sp->seed ? sp->seed : tu_seed0, seed_used = s;
    tu_ws ws;
    int urows = 0, ucols = 0, vrows = 0, vcols = 0, wn = 0, en = 0, taun = 0;
    int arows, acols, ldmin;
    int roleA = 0, roleU = 0, roleVT = 0, roleW = R_OUT, roleE = 0, roleTAU = 0;
    int rwork_n, iwork_n, ifail_n = 1, isuppz_n = 1;
    memset(c, 0, sizeof *c);
    c->fam = fam;
    c->p = p;
    memcpy(c->o, sp->o, 3);
    if (!tu_is_svd(fam) && fam != F_GBBRD)
        m = n;
    c->m = m;
    c->n = n;
    c->k = sp->k;
    c->ku = sp->ku;
    c->ncc = sp->ncc;
    mn = tu_imin(m, n);
    j0 = (char)tu_up(sp->o[0]);
    j1 = (char)tu_up(sp->o[1]);
    ws = tu_doc_ws(fam, p, sp->o, tu_imax(m, 0), tu_imax(n, 0));

    /* shapes */
    arows = m; acols = n;
    switch (fam) {
    case F_GESVD:
        if (j0 == 'A') { urows = m; ucols = m; roleU = R_OUT; }
        else if (j0 == 'S') { urows = m; ucols = mn; roleU = R_OUT; }
        if (j1 == 'A') { vrows = n; vcols = n; roleVT = R_OUT; }
        else if (j1 == 'S') { vrows = mn; vcols = n; roleVT = R_OUT; }
        if (j0 == 'O' || j1 == 'O') roleA = R_OUT;
        wn = mn;
        break;
    case F_GESDD:
        if (j0 == 'A') { urows = m; ucols = m; vrows = n; vcols = n; }
        else if (j0 == 'S') { urows = m; ucols = mn; vrows = mn; vcols = n; }
        else if (j0 == 'O') {
            roleA = R_OUT;
            if (m >= n) { vrows = n; vcols = n; }
            else { urows = m; ucols = m; }
        }
        if (urows) roleU = R_OUT;
        if (vrows) roleVT = R_OUT;
        wn = mn;
        break;
    case F_SYEV: case F_SYEVD: case F_SYEV2: case F_SYEVD2:
        if (j0 == 'V') roleA = R_OUT;
        wn = n;
        break;
    case F_SYEVR: case F_SYEVR2: case F_SYEVX: case F_SYEVX2:
        wn = n;
        if (j0 == 'V') {
            urows = n;
            ucols = tu_up(sp->o[1]) == 'I' ? tu_imax(0, sp->iu - sp->il + 1) : n;
            roleU = R_OUT;
        }
        if (fam == F_SYEVX || fam == F_SYEVX2)
            ifail_n = tu_imax(1, n);
        else
            isuppz_n = tu_imax(1, 2 * n);
        break;
    case F_SYTRD: case F_SYTRD2:
        roleA = R_OUT;
        wn = n; en = n - 1; taun = n - 1;
        roleE = roleTAU = R_OUT;
        break;
    case F_GBBRD:
        arows = sp->k + sp->ku + 1;
        if (j0 == 'Q' || j0 == 'B') { urows = m; ucols = m; roleU = R_OUT; }
        if (j0 == 'P' || j0 == 'B') { vrows = n; vcols = n; roleVT = R_OUT; }
        wn = mn; en = mn - 1; roleE = R_OUT;
        break;
    case F_SBTRD: case F_SBEV: case F_SBEVD:
        arows = sp->k + 1;
        if ((fam == F_SBTRD && (j0 == 'V' || j0 == 'U')) || (fam != F_SBTRD && j0 == 'V')) {
            urows = n; ucols = n; roleU = R_OUT;
        }
        wn = n;
        if (fam == F_SBTRD) { en = n - 1; roleE = R_OUT; }
        break;
    }
    arows = tu_imax(arows, 0);
    acols = tu_imax(acols, 0);
    /* leading dimensions */
    ldmin = tu_imax(1, arows);
    c->lda = sp->lda == TU_LD_ZERO ? 0 : sp->lda ? sp->lda : ldmin + sp->pad_a;
    c->ldu = sp->ldu == TU_LD_ZERO ? 0 : sp->ldu ? sp->ldu : tu_imax(1, urows) + (urows ? sp->pad_u : 0);
    c->ldvt = sp->ldvt == TU_LD_ZERO ? 0 : sp->ldvt ? sp->ldvt : tu_imax(1, vrows) + (vrows ? sp->pad_vt : 0);
    if (fam == F_GBBRD)
        c->ldc = sp->ldc == TU_LD_ZERO ? 0 : sp->ldc ? sp->ldc : (sp->ncc > 0 ? tu_imax(1, m) + sp->pad_c : 1);
    /* ranges */
    c->il = sp->il;
    c->iu = sp->iu;
    c->vl = sp->vl;
    c->vu = sp->vu;
    c->abstol = 0.0;

    /* buffers */
    tu_buf_set(c, B_A, p, tu_msize(tu_imax(c->lda, 1), arows, acols), arows, acols,
               tu_imax(c->lda, 1), roleA);
    if (c->lda < arows) /* invalid LDA: hand over the minimal array anyway */
        tu_buf_set(c, B_A, p, (size_t)tu_imax(1, arows) * tu_imax(1, acols), arows, acols,
                   tu_imax(1, arows), roleA);
    tu_buf_set(c, B_W, rt, (size_t)tu_imax(wn, 1), 0, 0, 0, roleW);
    tu_buf_set(c, B_E, rt, (size_t)tu_imax(en, 1), 0, 0, 0, roleE);
    tu_buf_set(c, B_TAU, p, (size_t)tu_imax(taun, 1), 0, 0, 0, roleTAU);
    if (c->ldu >= urows)
        tu_buf_set(c, B_U, p, tu_msize(tu_imax(c->ldu, 1), urows, ucols), urows, ucols,
                   tu_imax(c->ldu, 1), roleU);
    else
        tu_buf_set(c, B_U, p, (size_t)tu_imax(1, urows) * tu_imax(1, ucols), 0, 0, 0, roleU);
    if (c->ldvt >= vrows)
        tu_buf_set(c, B_VT, p, tu_msize(tu_imax(c->ldvt, 1), vrows, vcols), vrows, vcols,
                   tu_imax(c->ldvt, 1), roleVT);
    else
        tu_buf_set(c, B_VT, p, (size_t)tu_imax(1, vrows) * tu_imax(1, vcols), 0, 0, 0, roleVT);
    if (fam == F_GBBRD && sp->ncc > 0 && c->ldc >= m)
        tu_buf_set(c, B_C, p, tu_msize(tu_imax(c->ldc, 1), m, sp->ncc), m, sp->ncc,
                   tu_imax(c->ldc, 1), R_OUT);
    else if (fam == F_GBBRD && sp->ncc > 0)
        tu_buf_set(c, B_C, p, (size_t)tu_imax(1, m) * sp->ncc, 0, 0, 0, R_OUT);
    else
        tu_buf_set(c, B_C, p, 1, 0, 0, 0, 0);

    /* contents */
    if (fam == F_GESVD || fam == F_GESDD)
        tu_fill_matrix(c, B_A, &s);
    else if (fam == F_GBBRD)
        tu_make_gband(c, &s);
    else if (tu_is_band(fam))
        tu_make_sband(c, &s);
    else
        tu_make_herm(c, sp->garbage_tri, &s);
    if (sp->nan_at > 0 && (size_t)sp->nan_at <= c->b[B_A].n)
        tu_put(p, c->b[B_A].init, (size_t)sp->nan_at - 1, NAN);
    tu_fill_padding(c, B_U);
    tu_fill_padding(c, B_VT);
    if (fam == F_GBBRD && sp->ncc > 0)
        tu_fill_matrix(c, B_C, &s);
    if (fam == F_SBTRD && j0 == 'U' && c->b[B_U].rows == n) {
        /* Q on entry: a signed permutation (exactly orthogonal) */
        tu_buf *Q = &c->b[B_U];
        int jj;
        for (jj = 0; jj < n; jj++) {
            int ii;
            for (ii = 0; ii < n; ii++)
                tu_put(p, Q->init, (size_t)ii + (size_t)jj * Q->ld, 0.0);
            tu_put(p, Q->init, (size_t)((jj * 3 + 1) % n) + (size_t)jj * Q->ld,
                   (jj % 2 ? -1.0 : 1.0) * (cx && jj % 3 == 0 ? I : 1.0));
        }
        /* (jj*3+1) % n is a permutation only when gcd(3,n)=1; fix up */
        if (n % 3 == 0) {
            for (jj = 0; jj < n; jj++) {
                int ii;
                for (ii = 0; ii < n; ii++)
                    tu_put(p, Q->init, (size_t)ii + (size_t)jj * Q->ld,
                           ii == n - 1 - jj ? (jj % 2 ? -1.0 : 1.0) : 0.0);
            }
        }
        Q->role = R_OUT;
    }

    /* RANGE='V' bounds bracketing eigenvalues vlo..vhi */
    if (tu_is_rangefam(fam) && tu_up(sp->o[1]) == 'V' && !sp->vexplicit && n > 0) {
        tu_z *Ad = tu_dense_from_case(c, c->b[B_A].init);
        double *ev = malloc(sizeof(double) * n);
        int lo = tu_imax(1, tu_imin(sp->vlo ? sp->vlo : 1, n));
        int hi = tu_imax(lo, tu_imin(sp->vhi ? sp->vhi : n, n));
        tu_herm_eigs(n, Ad, ev);
        c->vl = lo == 1 ? ev[0] - 1.0 : 0.5 * (ev[lo - 2] + ev[lo - 1]);
        c->vu = hi == n ? ev[n - 1] + 1.0 : 0.5 * (ev[hi - 1] + ev[hi]);
        free(Ad);
        free(ev);
    }
    c->fvl = (float)c->vl;
    c->fvu = (float)c->vu;
    c->fabstol = (float)c->abstol;

    /* workspaces */
    rwork_n = ws.rwork_fix;
    iwork_n = ws.iwork_fix;
    if (tu_has_lwork(fam)) {
        c->lwork = sp->lwork == TU_LW_DOC ? ws.lwork : sp->lwork == TU_LW_ZERO ? 0 : sp->lwork;
        c->lrwork = sp->lrwork == TU_LW_DOC ? ws.lrwork : sp->lrwork == TU_LW_ZERO ? 0 : sp->lrwork;
        c->liwork = sp->liwork == TU_LW_DOC ? ws.liwork : sp->liwork == TU_LW_ZERO ? 0 : sp->liwork;
        c->lhous2 = sp->lhous2 == TU_LW_DOC ? ws.lhous2 : sp->lhous2 == TU_LW_ZERO ? 0 : sp->lhous2;
        if (!tu_has_liwork(fam)) c->liwork = 0;
        if (!tu_has_lrwork(fam, p)) c->lrwork = 0;
        if (fam != F_SYTRD2) c->lhous2 = 0;
        if (c->lwork == TU_LW_OPT || c->lrwork == TU_LW_OPT || c->liwork == TU_LW_OPT ||
            c->lhous2 == TU_LW_OPT || c->lwork == TU_LW_OURS) {
            tu_int lw = 0, lrw = 0, liw = 0, lh = 0;
            int ours = c->lwork == TU_LW_OURS;
            if (tu_exec_real_query(c, &lw, &lrw, &liw, &lh, ours) != 0)
                return -1;
            if (c->lwork == TU_LW_OPT || c->lwork == TU_LW_OURS) c->lwork = lw;
            if (c->lrwork == TU_LW_OPT || (ours && c->lrwork == TU_LW_DOC)) c->lrwork = lrw;
            if (c->liwork == TU_LW_OPT || (ours && c->liwork == TU_LW_DOC)) c->liwork = liw;
            if (c->lhous2 == TU_LW_OPT || (ours && c->lhous2 == TU_LW_DOC)) c->lhous2 = lh;
        }
        tu_buf_set(c, B_WORK, p, (size_t)tu_imax(1, c->lwork), 0, 0, 0, R_FIRST);
        if (tu_has_lrwork(fam, p))
            rwork_n = tu_imax(1, c->lrwork);
        if (tu_has_liwork(fam))
            iwork_n = tu_imax(1, c->liwork);
        if (fam == F_SYTRD2)
            tu_buf_set(c, B_H, p, (size_t)tu_imax(1, c->lhous2), 0, 0, 0, R_OUT);
        else
            tu_buf_set(c, B_H, p, 1, 0, 0, 0, 0);
    } else {
        c->lwork = ws.lwork; /* fixed dimension (not an argument) */
        tu_buf_set(c, B_WORK, p, (size_t)ws.lwork, 0, 0, 0, 0);
        tu_buf_set(c, B_H, p, 1, 0, 0, 0, 0);
    }
    tu_buf_set(c, B_RWORK, rt, (size_t)rwork_n, 0, 0, 0,
               tu_has_lrwork(fam, p) ? R_FIRST : 0);
    tu_buf_set(c, B_IWORK, 'i', (size_t)iwork_n, 0, 0, 0, tu_has_liwork(fam) ? R_FIRST : 0);
    tu_buf_set(c, B_IFAIL, 'i', (size_t)ifail_n, 0, 0, 0,
               (fam == F_SYEVX || fam == F_SYEVX2) && j0 == 'V' ? R_OUT : 0);
    tu_buf_set(c, B_ISUPPZ, 'i', (size_t)isuppz_n, 0, 0, 0,
               (fam == F_SYEVR || fam == F_SYEVR2) && j0 == 'V' ? R_OUT : 0);
    if (fam == F_SBEV) /* WORK(1) carries no size there */
        c->b[B_WORK].role = 0;

    c->query = c->lwork == -1 || (tu_has_lrwork(fam, p) && c->lrwork == -1) ||
               (tu_has_liwork(fam) && c->liwork == -1) || (fam == F_SYTRD2 && c->lhous2 == -1);
    if (c->query) {
        /* a query writes the size answers and nothing else */
        int b;
        for (b = 0; b < TU_NB; b++)
            c->b[b].role = (b == B_WORK || b == B_RWORK || b == B_IWORK || b == B_H)
                               ? (c->b[b].role ? R_FIRST : 0) | R_CONST
                               : R_CONST;
        c->b[B_WORK].role = R_FIRST;
        if (fam == F_SYTRD2) c->b[B_H].role = R_FIRST;
        if (tu_has_lrwork(fam, p)) c->b[B_RWORK].role = R_FIRST;
        if (tu_has_liwork(fam)) c->b[B_IWORK].role = R_FIRST;
    }

    /* description */
    {
        char *d = c->desc;
        size_t L = sizeof c->desc;
        int k = 0;
        k += snprintf(d + k, L - k, "%s", tu_rname(fam, p));
        switch (fam) {
        case F_GESVD: k += snprintf(d + k, L - k, " jobu=%c jobvt=%c m=%d n=%d lda=%d ldu=%d ldvt=%d", c->o[0], c->o[1], c->m, c->n, c->lda, c->ldu, c->ldvt); break;
        case F_GESDD: k += snprintf(d + k, L - k, " jobz=%c m=%d n=%d lda=%d ldu=%d ldvt=%d", c->o[0], c->m, c->n, c->lda, c->ldu, c->ldvt); break;
        case F_SYEV: case F_SYEVD: case F_SYEV2: case F_SYEVD2: k += snprintf(d + k, L - k, " jobz=%c uplo=%c n=%d lda=%d", c->o[0], c->o[1], c->n, c->lda); break;
        case F_SYEVR: case F_SYEVR2: case F_SYEVX: case F_SYEVX2:
            k += snprintf(d + k, L - k, " jobz=%c range=%c uplo=%c n=%d lda=%d ldz=%d il=%d iu=%d vl=%.17g vu=%.17g", c->o[0], c->o[1], c->o[2], c->n, c->lda, c->ldu, c->il, c->iu, c->vl, c->vu); break;
        case F_SYTRD: k += snprintf(d + k, L - k, " uplo=%c n=%d lda=%d", c->o[0], c->n, c->lda); break;
        case F_SYTRD2: k += snprintf(d + k, L - k, " vect=%c uplo=%c n=%d lda=%d lhous2=%d", c->o[0], c->o[1], c->n, c->lda, c->lhous2); break;
        case F_GBBRD: k += snprintf(d + k, L - k, " vect=%c m=%d n=%d ncc=%d kl=%d ku=%d ldab=%d ldq=%d ldpt=%d ldc=%d", c->o[0], c->m, c->n, c->ncc, c->k, c->ku, c->lda, c->ldu, c->ldvt, c->ldc); break;
        default: k += snprintf(d + k, L - k, " %s=%c uplo=%c n=%d kd=%d ldab=%d ldz=%d", fam == F_SBTRD ? "vect" : "jobz", c->o[0], c->o[1], c->n, c->k, c->lda, c->ldu); break;
        }
        if (tu_has_lwork(fam)) k += snprintf(d + k, L - k, " lwork=%d", c->lwork);
        if (tu_has_lrwork(fam, p)) k += snprintf(d + k, L - k, " lrwork=%d", c->lrwork);
        if (tu_has_liwork(fam)) k += snprintf(d + k, L - k, " liwork=%d", c->liwork);
        if (sp->garbage_tri) k += snprintf(d + k, L - k, " garbage-triangle");
        if (sp->nan_at) k += snprintf(d + k, L - k, " NaN@%d", sp->nan_at);
        snprintf(d + k, L - k, " seed=%llu", (unsigned long long)seed_used);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* executing a case                                                         */
/* ------------------------------------------------------------------------ */

/* Guard bytes on both sides of every array of a call, checked for writes.
 * 8 KiB, more than a column of any matrix here: Debian 12's OpenBLAS
 * 0.3.21 ?gemv kernels for Haswell/Zen/SkylakeX (built by gcc 12) read
 * past the end of their operands, up to one column beyond the matrix
 * (OpenBLAS issues 4013 and 5000, fixed in 0.3.23; valgrind on cgesvd at
 * n = 129 saw reads 272 and 680 bytes past); with 64, an array that ended
 * a mapping made the reference call fault. */
#define TU_GUARD 8192
typedef struct {
    unsigned char *mem[TU_NB];
    tu_case c;          /* scalars after the call (info, m) and live pointers */
    int xcalls, xinfo;
    char xname[40];
    int logn, loginfo, logbad, logall;
    double secs;
} tu_res;

static void tu_res_free(tu_res *r)
{
    int b;
    for (b = 0; b < TU_NB; b++) {
        free(r->mem[b]);
        r->mem[b] = NULL;
    }
}
static void tu_res_free_all(void *r) { tu_res_free((tu_res *)r); }

static void tu_res_alloc(const tu_case *c, tu_res *r)
{
    int b;
    memset(r, 0, sizeof *r);
    r->c = *c;
    for (b = 0; b < TU_NB; b++) {
        size_t bytes = (c->b[b].n ? c->b[b].n : 1) * tu_esz(c->b[b].t ? c->b[b].t : 'i');
        r->mem[b] = malloc(bytes + 2 * TU_GUARD);
        memset(r->mem[b], 0xA5, bytes + 2 * TU_GUARD);
        if (c->b[b].init)
            memcpy(r->mem[b] + TU_GUARD, c->b[b].init, bytes);
        r->c.ptr[b] = r->mem[b] + TU_GUARD;
    }
}

/* Run the case through `call` (which calls a routine with r->c's live
 * arrays and scalars); `ours` counts the GPULAPACK_LOG lines it adds. */
static void tu_exec_with(const tu_case *c, void (*call)(void *fp, tu_case *), void *fp,
                         int ours, tu_res *r)
{
    long mark = 0;
    double t0;
    tu_res_alloc(c, r);
    r->c.info = -424242;
    r->c.mout = -424242;
    tu_xb_reset();
    if (ours)
        mark = tu_log_mark();
    tu_crash_side = ours ? "ours:" : "real LAPACK:";
    tu_crash_case = c->desc;
    t0 = tu_now();
    call(fp, &r->c);
    r->secs = tu_now() - t0;
    tu_crash_side = tu_crash_case = "";
    r->xcalls = tu_xb_calls;
    r->xinfo = tu_xb_info;
    memcpy(r->xname, tu_xb_name, sizeof r->xname);
    if (ours) {
        r->logn = tu_log_count(mark, tu_rname(c->fam, c->p), &r->loginfo, &r->logbad);
        r->logall = tu_log_count(mark, NULL, NULL, NULL);
    }
}

/* which: 0 = ours (global symbol), 1 = real LAPACK */
static void tu_exec(const tu_case *c, int which, tu_res *r)
{
    tu_exec_with(c, tu_invoke, which ? tu_real_fn(c->fam, c->p) : tu_ours(c->fam, c->p), !which,
                 r);
}

/* size answers of a query (real LAPACK, or ours when `ours`) */
static int tu_exec_real_query(tu_case *c, tu_int *lw, tu_int *lrw, tu_int *liw, tu_int *lh,
                              int ours)
{
    tu_case q = *c;
    tu_res r;
    int b;
    for (b = 0; b < TU_NB; b++)
        if (!q.b[b].init) {
            tu_buf_set(&q, b, b == B_IWORK || b == B_IFAIL || b == B_ISUPPZ ? 'i' : q.p, 1, 0, 0, 0, 0);
        }
    q.lwork = q.lrwork = q.liwork = -1;
    if (q.fam == F_SYTRD2) q.lhous2 = -1;
    tu_exec(&q, ours ? 0 : 1, &r);
    if (r.c.info != 0) {
        tu_report(0, "setup/query", "%s query for optimal workspace gave info=%d",
                  c->desc[0] ? c->desc : tu_rname(c->fam, c->p), r.c.info);
        tu_res_free(&r);
        for (b = 0; b < TU_NB; b++)
            if (!c->b[b].init) { free(q.b[b].init); }
        return -1;
    }
    *lw = (tu_int)creal(tu_get(c->p, r.c.ptr[B_WORK], 0));
    if (tu_has_lrwork(c->fam, c->p)) *lrw = (tu_int)creal(tu_get(tu_rtype(c->p), r.c.ptr[B_RWORK], 0));
    if (tu_has_liwork(c->fam)) *liw = ((tu_int *)r.c.ptr[B_IWORK])[0];
    if (c->fam == F_SYTRD2) *lh = (tu_int)creal(tu_get(c->p, r.c.ptr[B_H], 0));
    tu_res_free(&r);
    for (b = 0; b < TU_NB; b++)
        if (!c->b[b].init) free(q.b[b].init);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* dense linear algebra in double complex for the ratio checks              */
/* ------------------------------------------------------------------------ */

static tu_z *tu_zalloc(size_t n) { return calloc(n ? n : 1, sizeof(tu_z)); }

/* rows x cols matrix from buffer data (type t, leading dimension ld) */
static tu_z *tu_zload(char t, const void *p, int ld, int rows, int cols)
{
    tu_z *M = tu_zalloc((size_t)rows * cols);
    int i, j;
    for (j = 0; j < cols; j++)
        for (i = 0; i < rows; i++)
            M[i + (size_t)j * rows] = tu_get(t, p, (size_t)i + (size_t)j * ld);
    return M;
}

/* C(m x n) = op(A) * op(B), op = 'N' or 'C'; A, B, C dense with ld = rows */
static void tu_zmul(char ta, char tb, int m, int n, int k, const tu_z *A, const tu_z *B,
                    tu_z *C)
{
    int i, j, l;
    for (j = 0; j < n; j++)
        for (i = 0; i < m; i++) {
            tu_z s = 0;
            for (l = 0; l < k; l++) {
                tu_z a = ta == 'N' ? A[i + (size_t)l * m] : conj(A[l + (size_t)i * k]);
                tu_z b = tb == 'N' ? B[l + (size_t)j * k] : conj(B[j + (size_t)l * n]);
                s += a * b;
            }
            C[i + (size_t)j * m] = s;
        }
}

static double tu_znorm1(int m, int n, const tu_z *A)
{
    double mx = 0;
    int i, j;
    for (j = 0; j < n; j++) {
        double s = 0;
        for (i = 0; i < m; i++)
            s += cabs(A[i + (size_t)j * m]);
        if (s > mx || isnan(s))
            mx = s;
    }
    return mx;
}

/* || I - Q^H Q ||_1 (cols orthonormal) or || I - Q Q^H || (rows) */
static double tu_orth_resid(int rows, int cols, const tu_z *Q, int byrows)
{
    int k = byrows ? rows : cols, i;
    tu_z *G = tu_zalloc((size_t)k * k);
    double r;
    if (byrows)
        tu_zmul('N', 'C', rows, rows, cols, Q, Q, G);
    else
        tu_zmul('C', 'N', cols, cols, rows, Q, Q, G);
    for (i = 0; i < k; i++)
        G[i + (size_t)i * k] -= 1.0;
    r = tu_znorm1(k, k, G);
    free(G);
    return r;
}

typedef void (*tu_zhpev_t)(const char *, const char *, const tu_int *, tu_z *, double *, tu_z *,
                           const tu_int *, tu_z *, double *, tu_int *, size_t, size_t);
typedef void (*tu_zgesvd_t)(const char *, const char *, const tu_int *, const tu_int *, tu_z *,
                            const tu_int *, double *, tu_z *, const tu_int *, tu_z *,
                            const tu_int *, tu_z *, const tu_int *, double *, tu_int *, size_t,
                            size_t);
typedef void (*tu_dsterf_t)(const tu_int *, double *, double *, tu_int *);
typedef void (*tu_zungtr_t)(const char *, const tu_int *, tu_z *, const tu_int *, const tu_z *,
                            tu_z *, const tu_int *, tu_int *, size_t);

static void tu_herm_eigs(int n, const tu_z *A, double *w)
{
    tu_zhpev_t f = (tu_zhpev_t)tu_real("zhpev_");
    tu_z *ap = tu_zalloc((size_t)n * (n + 1) / 2), *work = tu_zalloc((size_t)2 * n), z1 = 0;
    double *rwork = malloc(sizeof(double) * (size_t)tu_imax(1, 3 * n));
    tu_int nn = n, one = 1, info = 0;
    int i, j, k = 0;
    for (j = 0; j < n; j++)
        for (i = 0; i <= j; i++)
            ap[k++] = A[i + (size_t)j * n];
    if (n > 0)
        f("N", "U", &nn, ap, w, &z1, &one, work, rwork, &info, TU_L1, TU_L1);
    free(ap);
    free(work);
    free(rwork);
}

static void tu_sing_vals(int m, int n, const tu_z *A, double *s)
{
    tu_zgesvd_t f = (tu_zgesvd_t)tu_real("zgesvd_");
    int mn = tu_imin(m, n);
    tu_z *a = tu_zalloc((size_t)m * n), q, d = 0, *work;
    double *rwork = malloc(sizeof(double) * (size_t)tu_imax(1, 5 * mn));
    tu_int mm = m, nn = n, lda = tu_imax(1, m), one = 1, lw = -1, info = 0;
    if (mn == 0) { free(a); free(rwork); return; }
    memcpy(a, A, sizeof(tu_z) * (size_t)m * n);
    f("N", "N", &mm, &nn, a, &lda, s, &d, &one, &d, &one, &q, &lw, rwork, &info, TU_L1, TU_L1);
    lw = (tu_int)creal(q);
    work = tu_zalloc((size_t)lw);
    f("N", "N", &mm, &nn, a, &lda, s, &d, &one, &d, &one, work, &lw, rwork, &info, TU_L1, TU_L1);
    free(work);
    free(a);
    free(rwork);
}

/* eigenvalues of the symmetric tridiagonal (d, e), ascending, in d */
static void tu_tri_eigs(int n, double *d, double *e)
{
    tu_dsterf_t f = (tu_dsterf_t)tu_real("dsterf_");
    tu_int nn = n, info = 0;
    if (n > 0)
        f(&nn, d, e, &info);
}

/* dense n x n Hermitian / m x n band matrix that the case's A buffer
 * describes (only the referenced part is read) */
static tu_z *tu_dense_from_case(const tu_case *c, const void *abuf)
{
    const tu_buf *B = &c->b[B_A];
    int n = c->n, i, j;
    tu_z *M;
    if (c->fam == F_GBBRD) {
        int m = c->m, kl = c->k, ku = c->ku;
        M = tu_zalloc((size_t)m * n);
        for (j = 0; j < n; j++)
            for (i = tu_imax(0, j - ku); i <= tu_imin(m - 1, j + kl); i++)
                M[i + (size_t)j * m] = tu_get(c->p, abuf, (size_t)(ku + i - j) + (size_t)j * B->ld);
        return M;
    }
    M = tu_zalloc((size_t)n * n);
    {
        int band = tu_is_band(c->fam), kd = c->k, up = tu_up(tu_uplo(c)) != 'L';
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++) {
                /* stored element A(si, sj) in the referenced triangle */
                int stored = up ? i <= j : i >= j, si = stored ? i : j, sj = stored ? j : i;
                size_t idx;
                tu_z v;
                if (band && abs(i - j) > kd)
                    continue;
                if (band)
                    idx = (size_t)(up ? kd + si - sj : si - sj) + (size_t)sj * B->ld;
                else
                    idx = (size_t)si + (size_t)sj * B->ld;
                v = tu_get(c->p, abuf, idx);
                if (i == j)
                    v = creal(v);
                M[i + (size_t)j * n] = stored ? v : conj(v);
            }
    }
    return M;
}

/* ------------------------------------------------------------------------ */
/* ratio checks (outputs of `o` for inputs of `c`, values vs `r`)           */
/* ------------------------------------------------------------------------ */

#define TU_FAILF(...) do { snprintf(msg, msz, __VA_ARGS__); ok = 0; goto done; } while (0)

static int tu_ratio_values(const char *what, int k, const double *x, const double *ref,
                           double scale, int ascending, char *msg, size_t msz)
{
    int i, ok = 1;
    for (i = 0; i < k; i++) {
        double d = fabs(x[i] - ref[i]) / scale;
        if (!(d < tu_thresh))
            TU_FAILF("%s[%d]=%.17g vs %.17g: ratio %.3g >= %g", what, i + 1, x[i], ref[i], d,
                     tu_thresh);
        if (i > 0 && (ascending ? x[i] < x[i - 1] : x[i] > x[i - 1]))
            TU_FAILF("%s not %s at %d", what, ascending ? "ascending" : "descending", i + 1);
    }
done:
    return ok;
}

static double *tu_dvec(char rt, const void *p, int k)
{
    double *v = malloc(sizeof(double) * (size_t)tu_imax(1, k));
    int i;
    for (i = 0; i < k; i++)
        v[i] = creal(tu_get(rt, p, i));
    return v;
}

static int tu_ratio_svd(const tu_case *c, const tu_res *o, const tu_res *r, char *msg,
                        size_t msz)
{
    int m = c->m, n = c->n, mn = tu_imin(m, n), mx = tu_imax(m, n), ok = 1, i, j;
    char p = c->p, rt = tu_rtype(p), j0 = (char)tu_up(c->o[0]), j1 = (char)tu_up(c->o[1]);
    double ulp = tu_ulp(p), anorm, *s = NULL, *sr = NULL, res;
    tu_z *A = tu_zload(p, c->b[B_A].init, c->b[B_A].ld, m, n), *U = NULL, *VT = NULL, *T = NULL;
    int ur = 0, uc = 0, vr = 0, vc = 0;
    anorm = tu_znorm1(m, n, A);
    if (anorm == 0) anorm = 1;
    s = tu_dvec(rt, o->c.ptr[B_W], mn);
    sr = tu_dvec(rt, r->c.ptr[B_W], mn);
    for (i = 0; i < mn; i++)
        if (!(s[i] >= 0))
            TU_FAILF("S(%d)=%g negative", i + 1, s[i]);
    if (!tu_ratio_values("S", mn, s, sr, mx * ulp * (sr[0] > 0 ? sr[0] : 1), 0, msg, msz))
        { ok = 0; goto done; }
    /* where are U and VT */
    if (c->fam == F_GESVD) {
        if (j0 == 'A' || j0 == 'S') { ur = m; uc = j0 == 'A' ? m : mn; U = tu_zload(p, o->c.ptr[B_U], c->ldu, ur, uc); }
        else if (j0 == 'O') { ur = m; uc = mn; U = tu_zload(p, o->c.ptr[B_A], c->lda, ur, uc); }
        if (j1 == 'A' || j1 == 'S') { vr = j1 == 'A' ? n : mn; vc = n; VT = tu_zload(p, o->c.ptr[B_VT], c->ldvt, vr, vc); }
        else if (j1 == 'O') { vr = mn; vc = n; VT = tu_zload(p, o->c.ptr[B_A], c->lda, vr, vc); }
    } else if (j0 != 'N') {
        if (j0 == 'A') { ur = m; uc = m; vr = n; vc = n; }
        else { ur = m; uc = mn; vr = mn; vc = n; }
        if (j0 == 'O' && m >= n) { U = tu_zload(p, o->c.ptr[B_A], c->lda, m, n); uc = n; }
        else if (j0 == 'O') { U = tu_zload(p, o->c.ptr[B_U], c->ldu, m, m); uc = m; }
        else U = tu_zload(p, o->c.ptr[B_U], c->ldu, ur, uc);
        if (j0 == 'O' && m < n) { VT = tu_zload(p, o->c.ptr[B_A], c->lda, m, n); vr = m; }
        else if (j0 == 'O') { VT = tu_zload(p, o->c.ptr[B_VT], c->ldvt, n, n); vr = n; }
        else VT = tu_zload(p, o->c.ptr[B_VT], c->ldvt, vr, vc);
    }
    if (U && ur > 0 && uc > 0) {
        res = tu_orth_resid(ur, uc, U, 0) / (tu_imax(1, m) * ulp);
        if (!(res < tu_thresh)) TU_FAILF("|I-U^H U|/(m ulp) = %.3g", res);
    }
    if (VT && vr > 0 && vc > 0) {
        res = tu_orth_resid(vr, vc, VT, 1) / (tu_imax(1, n) * ulp);
        if (!(res < tu_thresh)) TU_FAILF("|I-VT VT^H|/(n ulp) = %.3g", res);
    }
    if (U && VT && mn > 0) {
        /* A - U(:,1:mn) S VT(1:mn,:) */
        T = tu_zalloc((size_t)m * n);
        for (j = 0; j < n; j++)
            for (i = 0; i < m; i++) {
                tu_z acc = A[i + (size_t)j * m];
                int l;
                for (l = 0; l < mn; l++)
                    acc -= U[i + (size_t)l * ur] * s[l] * VT[l + (size_t)j * vr];
                T[i + (size_t)j * m] = acc;
            }
        res = tu_znorm1(m, n, T) / (anorm * mx * ulp);
        if (!(res < tu_thresh)) TU_FAILF("|A-U S VT|/(|A| max(m,n) ulp) = %.3g", res);
    } else if (U && uc > 0) {
        /* U^H A A^H U = diag(S^2) */
        tu_z *AAh = tu_zalloc((size_t)m * m), *X = tu_zalloc((size_t)uc * m), *G = tu_zalloc((size_t)uc * uc);
        tu_zmul('N', 'C', m, m, n, A, A, AAh);
        tu_zmul('C', 'N', uc, m, m, U, AAh, X);
        tu_zmul('N', 'N', uc, uc, m, X, U, G);
        for (i = 0; i < uc; i++)
            G[i + (size_t)i * uc] -= i < mn ? s[i] * s[i] : 0;
        res = tu_znorm1(uc, uc, G) / (anorm * anorm * mx * ulp);
        free(AAh); free(X); free(G);
        if (!(res < tu_thresh)) TU_FAILF("|U^H A A^H U - S^2|/(|A|^2 max(m,n) ulp) = %.3g", res);
    } else if (VT && vr > 0) {
        tu_z *AhA = tu_zalloc((size_t)n * n), *X = tu_zalloc((size_t)vr * n), *G = tu_zalloc((size_t)vr * vr);
        tu_zmul('C', 'N', n, n, m, A, A, AhA);
        tu_zmul('N', 'N', vr, n, n, VT, AhA, X);
        tu_zmul('N', 'C', vr, vr, n, X, VT, G);
        for (i = 0; i < vr; i++)
            G[i + (size_t)i * vr] -= i < mn ? s[i] * s[i] : 0;
        res = tu_znorm1(vr, vr, G) / (anorm * anorm * mx * ulp);
        free(AhA); free(X); free(G);
        if (!(res < tu_thresh)) TU_FAILF("|VT A^H A VT^H - S^2|/(|A|^2 max(m,n) ulp) = %.3g", res);
    }
done:
    free(A); free(U); free(VT); free(T); free(s); free(sr);
    return ok;
}

static int tu_ratio_eig(const tu_case *c, const tu_res *o, const tu_res *r, char *msg,
                        size_t msz)
{
    int n = c->n, ok = 1, k = o->c.mout, i, j;
    char p = c->p, rt = tu_rtype(p), jz = (char)tu_up(c->o[0]);
    double ulp = tu_ulp(p), anorm, *w = NULL, *wr = NULL, res;
    tu_z *A = tu_dense_from_case(c, c->b[B_A].init), *Z = NULL, *T = NULL;
    if (!tu_is_rangefam(c->fam))
        k = n;
    anorm = tu_znorm1(n, n, A);
    if (anorm == 0) anorm = 1;
    if (k < 0 || k > n) TU_FAILF("M=%d out of range", k);
    w = tu_dvec(rt, o->c.ptr[B_W], k);
    wr = tu_dvec(rt, r->c.ptr[B_W], k);
    if (!tu_ratio_values("W", k, w, wr, n * ulp * anorm, 1, msg, msz)) { ok = 0; goto done; }
    if (jz == 'V' && k > 0) {
        if (c->fam == F_SYEV || c->fam == F_SYEVD || c->fam == F_SYEV2 || c->fam == F_SYEVD2)
            Z = tu_zload(p, o->c.ptr[B_A], c->lda, n, n);
        else
            Z = tu_zload(p, o->c.ptr[B_U], c->ldu, n, k);
        res = tu_orth_resid(n, k, Z, 0) / (n * ulp);
        if (!(res < tu_thresh)) TU_FAILF("|I-Z^H Z|/(n ulp) = %.3g", res);
        T = tu_zalloc((size_t)n * k);
        tu_zmul('N', 'N', n, k, n, A, Z, T);
        for (j = 0; j < k; j++)
            for (i = 0; i < n; i++)
                T[i + (size_t)j * n] -= Z[i + (size_t)j * n] * w[j];
        res = tu_znorm1(n, k, T) / (anorm * n * ulp);
        if (!(res < tu_thresh)) TU_FAILF("|A Z - Z W|/(|A| n ulp) = %.3g", res);
    }
    if ((c->fam == F_SYEVX || c->fam == F_SYEVX2) && jz == 'V')
        for (i = 0; i < k; i++)
            if (((tu_int *)o->c.ptr[B_IFAIL])[i] != ((tu_int *)r->c.ptr[B_IFAIL])[i])
                TU_FAILF("IFAIL(%d) ours=%d real=%d", i + 1, ((tu_int *)o->c.ptr[B_IFAIL])[i],
                         ((tu_int *)r->c.ptr[B_IFAIL])[i]);
done:
    free(A); free(Z); free(T); free(w); free(wr);
    return ok;
}

/* spectrum of the tridiagonal (D, E) against the spectrum of A */
static int tu_ratio_tri_spectrum(int n, const tu_z *A, char p, const void *D, const void *E,
                                 char *msg, size_t msz)
{
    double *d = tu_dvec(tu_rtype(p), D, n), *e = tu_dvec(tu_rtype(p), E, tu_imax(n - 1, 0));
    double *ev = malloc(sizeof(double) * (size_t)tu_imax(1, n));
    double anorm = tu_znorm1(n, n, A);
    int ok;
    if (anorm == 0) anorm = 1;
    tu_tri_eigs(n, d, e);
    tu_herm_eigs(n, A, ev);
    ok = tu_ratio_values("eig(T)", n, d, ev, n * tu_ulp(p) * anorm, 1, msg, msz);
    free(d); free(e); free(ev);
    return ok;
}

/* | X - Q T Q^H | / (|X| n ulp) and orthogonality of Q (n x n) */
static int tu_ratio_qtq(int n, const tu_z *X, const tu_z *Q, char p, const void *D,
                        const void *E, char *msg, size_t msz)
{
    tu_z *T = tu_zalloc((size_t)n * n), *QT = tu_zalloc((size_t)n * n), *R = tu_zalloc((size_t)n * n);
    double *d = tu_dvec(tu_rtype(p), D, n), *e = tu_dvec(tu_rtype(p), E, tu_imax(n - 1, 0));
    double ulp = tu_ulp(p), xn = tu_znorm1(n, n, X), res;
    int ok = 1, i;
    if (xn == 0) xn = 1;
    for (i = 0; i < n; i++) {
        T[i + (size_t)i * n] = d[i];
        if (i + 1 < n) T[i + 1 + (size_t)i * n] = T[i + (size_t)(i + 1) * n] = e[i];
    }
    res = tu_orth_resid(n, n, Q, 0) / (n * ulp);
    if (!(res < tu_thresh)) TU_FAILF("|I-Q^H Q|/(n ulp) = %.3g", res);
    tu_zmul('N', 'N', n, n, n, Q, T, QT);
    tu_zmul('N', 'C', n, n, n, QT, Q, R);
    for (i = 0; i < n * n; i++)
        R[i] = X[i] - R[i];
    res = tu_znorm1(n, n, R) / (xn * n * ulp);
    if (!(res < tu_thresh)) TU_FAILF("|A-Q T Q^H|/(|A| n ulp) = %.3g", res);
done:
    free(T); free(QT); free(R); free(d); free(e);
    return ok;
}

static int tu_ratio_sytrd(const tu_case *c, const tu_res *o, char *msg, size_t msz)
{
    int n = c->n, ok, i, j;
    tu_z *A = tu_dense_from_case(c, c->b[B_A].init);
    if (c->fam == F_SYTRD2) {
        ok = tu_ratio_tri_spectrum(n, A, c->p, o->c.ptr[B_W], o->c.ptr[B_E], msg, msz);
    } else {
        /* Q from the reflectors in A and TAU (real zungtr in double) */
        tu_zungtr_t g = (tu_zungtr_t)tu_real("zungtr_");
        tu_z *Q = tu_zload(c->p, o->c.ptr[B_A], c->lda, n, n);
        tu_z *tau = tu_zload(c->p, o->c.ptr[B_TAU], 1, tu_imax(n - 1, 0), 1), *work, q;
        tu_int nn = n, ld = tu_imax(1, n), lw = -1, info = 0;
        char up = c->o[0];
        (void)i; (void)j;
        g(&up, &nn, Q, &ld, tau, &q, &lw, &info, TU_L1);
        lw = tu_imax(1, (tu_int)creal(q));
        work = tu_zalloc((size_t)lw);
        g(&up, &nn, Q, &ld, tau, work, &lw, &info, TU_L1);
        ok = tu_ratio_qtq(n, A, Q, c->p, o->c.ptr[B_W], o->c.ptr[B_E], msg, msz);
        free(work); free(Q); free(tau);
    }
    free(A);
    return ok;
}

static int tu_ratio_sbtrd(const tu_case *c, const tu_res *o, char *msg, size_t msz)
{
    int n = c->n, ok;
    char v = (char)tu_up(c->o[0]);
    tu_z *A = tu_dense_from_case(c, c->b[B_A].init);
    if (v == 'N') {
        ok = tu_ratio_tri_spectrum(n, A, c->p, o->c.ptr[B_W], o->c.ptr[B_E], msg, msz);
    } else {
        tu_z *Q = tu_zload(c->p, o->c.ptr[B_U], c->ldu, n, n), *X = A;
        tu_z *XA = NULL, *XAX = NULL;
        if (v == 'U') { /* Q_out = Q_in * Q: compare with Q_in A Q_in^H */
            tu_z *Q0 = tu_zload(c->p, c->b[B_U].init, c->ldu, n, n);
            XA = tu_zalloc((size_t)n * n);
            XAX = tu_zalloc((size_t)n * n);
            tu_zmul('N', 'N', n, n, n, Q0, A, XA);
            tu_zmul('N', 'C', n, n, n, XA, Q0, XAX);
            X = XAX;
            free(Q0);
        }
        ok = tu_ratio_qtq(n, X, Q, c->p, o->c.ptr[B_W], o->c.ptr[B_E], msg, msz);
        free(Q); free(XA); free(XAX);
    }
    free(A);
    return ok;
}

static int tu_ratio_gbbrd(const tu_case *c, const tu_res *o, char *msg, size_t msz)
{
    int m = c->m, n = c->n, mn = tu_imin(m, n), mx = tu_imax(m, n), ok = 1, i;
    char p = c->p, v = (char)tu_up(c->o[0]);
    double ulp = tu_ulp(p), anorm, res;
    tu_z *A = tu_dense_from_case(c, c->b[B_A].init), *B = tu_zalloc((size_t)m * n);
    tu_z *Q = NULL, *PT = NULL, *T1 = NULL, *T2 = NULL;
    double *d = tu_dvec(tu_rtype(p), o->c.ptr[B_W], mn), *e = tu_dvec(tu_rtype(p), o->c.ptr[B_E], tu_imax(mn - 1, 0));
    anorm = tu_znorm1(m, n, A);
    if (anorm == 0) anorm = 1;
    for (i = 0; i < mn; i++) {
        B[i + (size_t)i * m] = d[i];
        if (i + 1 < mn) B[i + (size_t)(i + 1) * m] = e[i];
    }
    if (v == 'Q' || v == 'B') {
        Q = tu_zload(p, o->c.ptr[B_U], c->ldu, m, m);
        res = tu_orth_resid(m, m, Q, 0) / (tu_imax(1, m) * ulp);
        if (!(res < tu_thresh)) TU_FAILF("|I-Q^H Q|/(m ulp) = %.3g", res);
    }
    if (v == 'P' || v == 'B') {
        PT = tu_zload(p, o->c.ptr[B_VT], c->ldvt, n, n);
        res = tu_orth_resid(n, n, PT, 1) / (tu_imax(1, n) * ulp);
        if (!(res < tu_thresh)) TU_FAILF("|I-PT PT^H|/(n ulp) = %.3g", res);
    }
    if (mn > 0) {
        if (Q && PT) {
            T1 = tu_zalloc((size_t)m * n); T2 = tu_zalloc((size_t)m * n);
            tu_zmul('N', 'N', m, n, m, Q, B, T1);
            tu_zmul('N', 'N', m, n, n, T1, PT, T2);
            for (i = 0; i < m * n; i++) T2[i] = A[i] - T2[i];
            res = tu_znorm1(m, n, T2) / (anorm * mx * ulp);
            if (!(res < tu_thresh)) TU_FAILF("|A-Q B PT|/(|A| max(m,n) ulp) = %.3g", res);
        } else if (Q) { /* Q^H A A^H Q = B B^H */
            tu_z *AAh = tu_zalloc((size_t)m * m), *BBh = tu_zalloc((size_t)m * m);
            T1 = tu_zalloc((size_t)m * m); T2 = tu_zalloc((size_t)m * m);
            tu_zmul('N', 'C', m, m, n, A, A, AAh);
            tu_zmul('N', 'C', m, m, n, B, B, BBh);
            tu_zmul('C', 'N', m, m, m, Q, AAh, T1);
            tu_zmul('N', 'N', m, m, m, T1, Q, T2);
            for (i = 0; i < m * m; i++) T2[i] -= BBh[i];
            res = tu_znorm1(m, m, T2) / (anorm * anorm * mx * ulp);
            free(AAh); free(BBh);
            if (!(res < tu_thresh)) TU_FAILF("|Q^H A A^H Q - B B^H|/(|A|^2 max(m,n) ulp) = %.3g", res);
        } else if (PT) { /* PT A^H A PT^H = B^H B */
            tu_z *AhA = tu_zalloc((size_t)n * n), *BhB = tu_zalloc((size_t)n * n);
            T1 = tu_zalloc((size_t)n * n); T2 = tu_zalloc((size_t)n * n);
            tu_zmul('C', 'N', n, n, m, A, A, AhA);
            tu_zmul('C', 'N', n, n, m, B, B, BhB);
            tu_zmul('N', 'N', n, n, n, PT, AhA, T1);
            tu_zmul('N', 'C', n, n, n, T1, PT, T2);
            for (i = 0; i < n * n; i++) T2[i] -= BhB[i];
            res = tu_znorm1(n, n, T2) / (anorm * anorm * mx * ulp);
            free(AhA); free(BhB);
            if (!(res < tu_thresh)) TU_FAILF("|PT A^H A PT^H - B^H B|/(|A|^2 max(m,n) ulp) = %.3g", res);
        } else { /* singular values of B and A */
            double *sa = malloc(sizeof(double) * mn), *sb = malloc(sizeof(double) * mn);
            tu_sing_vals(m, n, A, sa);
            tu_sing_vals(m, n, B, sb);
            ok = tu_ratio_values("sv(B)", mn, sb, sa, mx * ulp * (sa[0] > 0 ? sa[0] : 1), 0, msg, msz);
            free(sa); free(sb);
            if (!ok) goto done;
        }
    }
    if (c->ncc > 0 && m > 0) {
        int ncc = c->ncc;
        tu_z *C0 = tu_zload(p, c->b[B_C].init, c->ldc, m, ncc), *C1 = tu_zload(p, o->c.ptr[B_C], c->ldc, m, ncc);
        tu_z *G0 = tu_zalloc((size_t)ncc * ncc), *G1 = tu_zalloc((size_t)ncc * ncc);
        double cn = tu_znorm1(m, ncc, C0);
        if (cn == 0) cn = 1;
        tu_zmul('C', 'N', ncc, ncc, m, C0, C0, G0);
        tu_zmul('C', 'N', ncc, ncc, m, C1, C1, G1);
        for (i = 0; i < ncc * ncc; i++) G1[i] -= G0[i];
        res = tu_znorm1(ncc, ncc, G1) / (cn * cn * m * ulp);
        if (!(res < tu_thresh)) { free(C0); free(C1); free(G0); free(G1); TU_FAILF("|C^H C - C0^H C0|/(|C0|^2 m ulp) = %.3g", res); }
        if (Q) {
            tu_z *QC = tu_zalloc((size_t)m * ncc);
            tu_zmul('C', 'N', m, ncc, m, Q, C0, QC);
            for (i = 0; i < m * ncc; i++) QC[i] -= C1[i];
            res = tu_znorm1(m, ncc, QC) / (cn * m * ulp);
            free(QC);
            if (!(res < tu_thresh)) { free(C0); free(C1); free(G0); free(G1); TU_FAILF("|Q^H C0 - C|/(|C0| m ulp) = %.3g", res); }
        }
        free(C0); free(C1); free(G0); free(G1);
    }
done:
    free(A); free(B); free(Q); free(PT); free(T1); free(T2); free(d); free(e);
    return ok;
}

static int tu_ratio_check(const tu_case *c, const tu_res *o, const tu_res *r, char *msg,
                          size_t msz)
{
    /* quick returns (M=0 or N=0) leave the vectors untouched: nothing to check */
    if (c->m <= 0 || c->n <= 0)
        return 1;
    switch (c->fam) {
    case F_GESVD: case F_GESDD: return tu_ratio_svd(c, o, r, msg, msz);
    case F_SYTRD: case F_SYTRD2: return tu_ratio_sytrd(c, o, msg, msz);
    case F_SBTRD: return tu_ratio_sbtrd(c, o, msg, msz);
    case F_GBBRD: return tu_ratio_gbbrd(c, o, msg, msz);
    default: return tu_ratio_eig(c, o, r, msg, msz);
    }
}

/* ------------------------------------------------------------------------ */
/* comparing ours with the real routine                                     */
/* ------------------------------------------------------------------------ */

/* guards, padding rows, unchanged inputs of one run; appends to msg */
static int tu_check_integrity(const tu_case *c, const tu_res *x, const char *who, char *msg,
                              size_t msz)
{
    int b;
    for (b = 0; b < TU_NB; b++) {
        const tu_buf *B = &c->b[b];
        size_t es = tu_esz(B->t ? B->t : 'i'), bytes = (B->n ? B->n : 1) * es, i;
        const unsigned char *mem = x->mem[b];
        int j, rr;
        for (i = 0; i < TU_GUARD; i++)
            if (mem[i] != 0xA5 || mem[TU_GUARD + bytes + i] != 0xA5) {
                snprintf(msg, msz, "%s wrote outside %s (n=%zu) at byte %s%zu", who, tu_bname[b],
                         B->n, mem[i] != 0xA5 ? "-" : "+", mem[i] != 0xA5 ? TU_GUARD - i : i);
                return 0;
            }
        if ((B->role & R_CONST) && B->init && memcmp(mem + TU_GUARD, B->init, B->n * es) != 0) {
            snprintf(msg, msz, "%s modified %s (a query or an input-only array)", who, tu_bname[b]);
            return 0;
        }
        if (B->ld > B->rows && B->rows >= 0)
            for (j = 0; j < B->cols; j++)
                for (rr = B->rows; rr < B->ld; rr++) {
                    size_t idx = (size_t)rr + (size_t)j * B->ld;
                    if (idx < B->n &&
                        memcmp(mem + TU_GUARD + idx * es, (const char *)B->init + idx * es, es) != 0) {
                        snprintf(msg, msz, "%s wrote padding of %s: row %d col %d (ld=%d rows=%d)",
                                 who, tu_bname[b], rr + 1, j + 1, B->ld, B->rows);
                        return 0;
                    }
                }
    }
    /* input scalars */
    if (x->c.m != c->m || x->c.n != c->n || x->c.lda != c->lda || x->c.ldu != c->ldu ||
        x->c.ldvt != c->ldvt || x->c.ldc != c->ldc || x->c.k != c->k || x->c.ku != c->ku ||
        x->c.ncc != c->ncc || x->c.lwork != c->lwork || x->c.lrwork != c->lrwork ||
        x->c.liwork != c->liwork || x->c.lhous2 != c->lhous2 || x->c.il != c->il ||
        x->c.iu != c->iu || memcmp(x->c.o, c->o, 3) != 0 ||
        memcmp(&x->c.vl, &c->vl, sizeof c->vl) || memcmp(&x->c.fvl, &c->fvl, sizeof c->fvl)) {
        snprintf(msg, msz, "%s modified an input scalar argument", who);
        return 0;
    }
    return 1;
}

/* 1: equal. Fills msg with the first difference. */
static int tu_compare_q(const tu_case *c, const tu_res *o, const tu_res *r, int expect_log,
                        char *msg, size_t msz)
{
    int b;
    char tmp[600];
    msg[0] = 0;
    if (o->c.info != r->c.info) {
        snprintf(msg, msz, "INFO ours=%d real=%d", o->c.info, r->c.info);
        return 0;
    }
    if (o->xcalls != r->xcalls || o->xinfo != r->xinfo || strcmp(o->xname, r->xname) != 0) {
        snprintf(msg, msz, "xerbla ours=(%d calls, %s, %d) real=(%d calls, %s, %d)", o->xcalls,
                 o->xname, o->xinfo, r->xcalls, r->xname, r->xinfo);
        return 0;
    }
    if (tu_is_rangefam(c->fam) && r->c.info == 0 && !c->query && o->c.mout != r->c.mout) {
        snprintf(msg, msz, "M ours=%d real=%d", o->c.mout, r->c.mout);
        return 0;
    }
    if (!tu_check_integrity(c, o, "ours", tmp, sizeof tmp) ||
        !tu_check_integrity(c, r, "real", tmp, sizeof tmp)) {
        snprintf(msg, msz, "%s", tmp);
        return 0;
    }
    for (b = 0; b < TU_NB; b++) {
        const tu_buf *B = &c->b[b];
        size_t es = tu_esz(B->t ? B->t : 'i');
        const unsigned char *po = o->mem[b] + TU_GUARD, *pr = r->mem[b] + TU_GUARD;
        if ((B->role & R_FIRST) && memcmp(po, pr, es) != 0) {
            /* size answers: identical, or (ratio mode) at least the real one */
            double vo = creal(tu_get(B->t, po, 0)), vr = creal(tu_get(B->t, pr, 0));
            if (!tu_ratio_mode || r->c.info < 0 || !(vo >= vr)) {
                snprintf(msg, msz, "%s(1) ours=%.17g real=%.17g", tu_bname[b], vo, vr);
                return 0;
            }
        }
        if ((B->role & R_OUT) && (!tu_ratio_mode || r->c.info < 0 || c->query)) {
            size_t i;
            for (i = 0; i < B->n; i++)
                if (memcmp(po + i * es, pr + i * es, es) != 0) {
                    tu_z vo = tu_get(B->t, po, i), vr = tu_get(B->t, pr, i);
                    if (B->ld > 0)
                        snprintf(msg, msz, "%s(%zu,%zu) ours=%.17g%+.17gi real=%.17g%+.17gi",
                                 tu_bname[b], i % B->ld + 1, i / B->ld + 1, creal(vo), cimag(vo),
                                 creal(vr), cimag(vr));
                    else
                        snprintf(msg, msz, "%s(%zu) ours=%.17g%+.17gi real=%.17g%+.17gi",
                                 tu_bname[b], i + 1, creal(vo), cimag(vo), creal(vr), cimag(vr));
                    return 0;
                }
        }
    }
    if (tu_ratio_mode && r->c.info == 0 && !c->query) {
        if (!tu_ratio_check(c, o, r, tmp, sizeof tmp)) {
            char tmp2[600];
            if (!tu_ratio_check(c, r, r, tmp2, sizeof tmp2)) {
                /* the real LAPACK fails the same check on its own result
                 * (e.g. ?sbevd with N=1, UPLO='U', KD>0 returns AB(1,1)):
                 * not ours to judge */
                snprintf(msg, msz, "note: real LAPACK fails its own ratio check too (%.280s); ours: %.280s",
                         tmp2, tmp);
            } else {
                snprintf(msg, msz, "ratio: %s", tmp);
                return 0;
            }
        }
    }
    if (expect_log >= 0 && (o->logn != expect_log || o->logbad)) {
        snprintf(msg, msz, "GPULAPACK_LOG has %d well-formed '%s' lines for this call (want %d)%s",
                 o->logn, tu_rname(c->fam, c->p), expect_log,
                 o->logbad ? ", and a malformed one" : "");
        return 0;
    }
    if (expect_log >= 0 && o->logall != o->logn) {
        snprintf(msg, msz, "GPULAPACK_LOG got %d lines of other routines during this call "
                 "(nested calls must go straight to the real LAPACK, unlogged)",
                 o->logall - o->logn);
        return 0;
    }
    if (expect_log > 0 && o->loginfo != o->c.info) {
        snprintf(msg, msz, "log line says info=%d, call returned %d", o->loginfo, o->c.info);
        return 0;
    }
    return 1;
}

/* expected GPULAPACK_LOG lines (level 1) for a call of this case: one
 * per top-level call (invalid arguments included), none for a workspace
 * query; -1: not checked (a query with an invalid argument) */
static int tu_expect_log(const tu_case *c, const tu_res *r)
{
    if (!c->query)
        return 1;
    return r->c.info == 0 ? 0 : -1;
}

/* Grouping (single-threaded tests): between tu_group_begin and
 * tu_group_end, tu_run_case reports nothing itself; tu_group_end prints
 * one check for all the cases of the group, with the first failure. */
static struct {
    int active, n, nfail;
    char name[200], first[1700];
} tu_grp;

static void tu_group_begin(const char *name)
{
    memset(&tu_grp, 0, sizeof tu_grp);
    tu_grp.active = 1;
    snprintf(tu_grp.name, sizeof tu_grp.name, "%s", name);
}

static void tu_group_end(void)
{
    if (!tu_grp.active)
        return;
    tu_grp.active = 0;
    if (tu_grp.n == 0)
        return;
    tu_report(tu_grp.nfail == 0, tu_grp.name, "%d of %d cases failed; first: %s", tu_grp.nfail,
              tu_grp.n, tu_grp.first);
}

/* Run ours and the real routine on the case, report one check. Returns ok. */
static int tu_run_case(const char *check, tu_case *c)
{
    tu_res o, r;
    char msg[1200];
    int ok;
    tu_exec(c, 0, &o);
    tu_exec(c, 1, &r);
    ok = tu_compare_q(c, &o, &r, tu_expect_log(c, &r), msg, sizeof msg);
    if (ok && msg[0])
        tu_note("%s: %s [%s]", check, msg, c->desc);
    if (tu_grp.active) {
        tu_grp.n++;
        if (!ok && !tu_grp.nfail++)
            snprintf(tu_grp.first, sizeof tu_grp.first, "%.200s: %.900s [%.500s]", check, msg,
                     c->desc);
    } else if (ok)
        tu_report(1, check, "%s info=%d", c->desc, r.c.info);
    else
        tu_report(0, check, "%s [%s]", msg, c->desc);
    tu_res_free(&o);
    tu_res_free(&r);
    return ok;
}

/* build + run + free */
static int tu_run_spec(const char *check, const tu_spec *sp)
{
    tu_case c;
    int ok;
    if (tu_build(sp, &c) != 0) {
        tu_report(0, check, "could not build case");
        tu_case_free(&c);
        return 0;
    }
    ok = tu_run_case(check, &c);
    tu_case_free(&c);
    return ok;
}

/* INFO the real routine gives for a spec (building, one real call) */
static int tu_real_info(const tu_spec *sp, tu_case *keep)
{
    tu_case c;
    tu_res r;
    int info;
    if (tu_build(sp, &c) != 0) {
        tu_case_free(&c);
        return -9999;
    }
    tu_exec(&c, 1, &r);
    info = r.c.info;
    tu_res_free(&r);
    if (keep)
        *keep = c;
    else
        tu_case_free(&c);
    return info;
}

/* Per-routine summary: the library logged at least `min` lines for it since
 * offset 0 of the log. */
static void tu_check_logged(int fam, char p, int min)
{
    int bad = 0, n = tu_log_count(0, tu_rname(fam, p), NULL, &bad);
    char check[96];
    snprintf(check, sizeof check, "log/%s-entered", tu_rname(fam, p));
    tu_report(n >= min && !bad, check, "GPULAPACK_LOG (%s) has %d well-formed '%s' lines, want >= %d%s",
              tu_log_path, n, tu_rname(fam, p), min, bad ? " (and malformed ones)" : "");
}

/* short spec constructor */
static tu_spec tu_mk(int fam, char p, const char *o, int m, int n)
{
    tu_spec s;
    memset(&s, 0, sizeof s);
    s.fam = fam;
    s.p = p;
    s.o[0] = o[0];
    s.o[1] = o[0] ? o[1] : 0;
    s.o[2] = (o[0] && o[1]) ? o[2] : 0;
    s.m = m;
    s.n = n;
    return s;
}

#endif /* GPULAPACK_TESTUTIL_H */
