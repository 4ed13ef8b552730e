/* The main job: an unmodified LAPACK program.  It calls dgesdd_, dsyevd_
 * and zheevd_ as any Fortran/C code does; `make demo` runs it with
 * libgpulapack.so preloaded and GPULAPACK_VERBOSE=1.
 *
 *     build/demo [n]
 *
 * For each call (dgesdd JOBZ=S and N, dsyevd V and N, zheevd V and N) it
 * prints one table line: the call, n, the path, method and device the
 * library took (from the library's log line: path=, method= and device=
 * when the line has them; the device otherwise from the C API), our time,
 * the system LAPACK's time for the same call on the same matrix, their
 * ratio and a check (INFO, and |A - U S V'| / (|A| n eps) for the vectors,
 * or the values' distance to the system LAPACK's in units of n eps).  The
 * system LAPACK is liblapack.so.3 loaded a second time with dlmopen, in a
 * link-map namespace of its own, where the library cannot reach it nor
 * its nested calls (dsyevd_ -> dsytrd_), as testing/bench/bench.c does
 * with BENCH_PEER=dlmopen.
 *
 * Without n, each call runs at the size from which the library takes its
 * path on this machine: a small probe call of each logs the crossovers in
 * force ("reason=size host 2250, gpu 1250"), and the demo takes the
 * GPU's when gpulapack_path() names a GPU, else the host's, at least 500
 * and at most DEMO_MAX_N (default 2500: under about 20 s on 2 cores); a
 * call that never takes our path ("host never") runs at 1000.  With n,
 * every call runs at n.
 *
 * Environment: DEMO_MAX_N, DEMO_LAPACK=0 (no system LAPACK timings: the
 * values are then checked against the call with vectors), DEMO_CALLS (a
 * comma list of routines, e.g. dgesdd,dsyevd).  The library's log lines
 * are shown as they come (on stderr, or in GPULAPACK_LOG when set).
 * Exit status 1 when a call returned INFO != 0 or failed its check. */
#define _GNU_SOURCE
#include <complex.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef void gesdd_t(const char *jobz, const int *m, const int *n, double *a,
                     const int *lda, double *s, double *u, const int *ldu,
                     double *vt, const int *ldvt, double *work,
                     const int *lwork, int *iwork, int *info, size_t);
typedef void syevd_t(const char *jobz, const char *uplo, const int *n,
                     double *a, const int *lda, double *w, double *work,
                     const int *lwork, int *iwork, const int *liwork,
                     int *info, size_t, size_t);
typedef void heevd_t(const char *jobz, const char *uplo, const int *n,
                     double complex *a, const int *lda, double *w,
                     double complex *work, const int *lwork, double *rwork,
                     const int *lrwork, int *iwork, const int *liwork,
                     int *info, size_t, size_t);
gesdd_t dgesdd_;
syevd_t dsyevd_;
heevd_t zheevd_;
void dgemm_(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a, const int *lda,
            const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc, size_t, size_t);
void zgemm_(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const double complex *alpha, const double complex *a,
            const int *lda, const double complex *b, const int *ldb,
            const double complex *beta, double complex *c, const int *ldc,
            size_t, size_t);

/* The library's C API (include/gpulapack.h), looked up with dlsym: the
 * demo links only LAPACK, and runs without the library too. */
typedef struct {
    char id[24], name[96], platform[64], version[48];
    int gpu, fp64;
    unsigned long long memory;
    unsigned compute_units, clock_mhz;
    int chosen;
} device_info;

static const double eps = 2.22e-16;
static const double bad_check = 100; /* a check above this fails */

/* One call of the table. */
typedef struct {
    const char *routine, *jobz;
    int vectors;
    int n;
} call_kind;

/* What the library logged about a call. */
typedef struct {
    char path[24], method[40], device[80], reason[96];
    long host_n, gpu_n; /* crossovers of a "reason=size" line */
} call_log;

static struct {
    gesdd_t *dgesdd;
    syevd_t *dsyevd;
    heevd_t *zheevd;
} sys; /* the system LAPACK, dlmopen'ed */

static int log_fd = -1; /* the library's log, read back */
static int log_echo;    /* copy its lines to stderr */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "demo: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* --- the library's log ------------------------------------------------- */

/* Before the first LAPACK call (the library reads its environment once):
 * the log at level 1 at least, into a file of ours unless GPULAPACK_LOG
 * names one, which we read from its current end. */
static char log_name[64]; /* our file, removed at the end */

static void log_remove(void)
{
    if (log_name[0])
        unlink(log_name);
    log_name[0] = 0;
}

static void log_open(void)
{
    if (!getenv("GPULAPACK_VERBOSE"))
        setenv("GPULAPACK_VERBOSE", "1", 1);
    const char *file = getenv("GPULAPACK_LOG");
    if (file && *file) {
        log_fd = open(file, O_RDONLY | O_CREAT, 0644);
        if (log_fd >= 0)
            lseek(log_fd, 0, SEEK_END);
        return;
    }
    char name[] = "/tmp/gpulapack-demo-XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0)
        return;
    setenv("GPULAPACK_LOG", name, 1);
    log_fd = fd;
    log_echo = 1;
    snprintf(log_name, sizeof log_name, "%s", name);
    atexit(log_remove);
}

static int field(const char *line, const char *key, char *out, size_t size)
{
    const char *p = strstr(line, key);
    if (!p || (p > line && p[-1] != ' '))
        return 0;
    p += strlen(key);
    size_t len = strcspn(p, " \n");
    snprintf(out, size, "%.*s", (int)(len < size ? len : size - 1), p);
    return 1;
}

static long crossover(const char *reason, const char *what)
{
    const char *p = strstr(reason, what);
    if (!p)
        return -1;
    p += strlen(what);
    return strncmp(p, "never", 5) ? atol(p) : -2;
}

/* The log lines written since the last read: shown (when they would have
 * gone to stderr) unless quiet; the last line of routine parsed into *out.
 * Returns 1 when there was one. */
static int log_read(const char *routine, call_log *out, int quiet)
{
    static char buf[1 << 16];
    static size_t have;
    int found = 0;
    memset(out, 0, sizeof *out);
    strcpy(out->path, "-");
    strcpy(out->method, "-");
    if (log_fd < 0)
        return 0;
    for (;;) {
        ssize_t got = read(log_fd, buf + have, sizeof buf - 1 - have);
        if (got <= 0)
            break;
        log_remove(); /* the library has it open: the name can go */
        have += (size_t)got;
        buf[have] = 0;
        char *line = buf, *end;
        while ((end = strchr(line, '\n'))) {
            *end = 0;
            if (log_echo && !quiet)
                fprintf(stderr, "%s\n", line);
            char head[64];
            snprintf(head, sizeof head, "gpulapack: %s ", routine);
            if (!strncmp(line, head, strlen(head)) && strstr(line, " path=")) {
                found = 1;
                field(line, "path=", out->path, sizeof out->path);
                field(line, "method=", out->method, sizeof out->method);
                field(line, "device=", out->device, sizeof out->device);
                const char *r = strstr(line, " reason=");
                const char *e = strstr(line, " info=");
                if (r && e && e > r)
                    snprintf(out->reason, sizeof out->reason, "%.*s",
                             (int)(e - r - 8), r + 8);
                else
                    out->reason[0] = 0;
                out->host_n = crossover(out->reason, "host ");
                out->gpu_n = crossover(out->reason, "gpu ");
            }
            line = end + 1;
        }
        have = strlen(line);
        memmove(buf, line, have + 1);
        if (have == sizeof buf - 1)
            have = 0; /* a line longer than the buffer: dropped */
    }
    return found;
}

/* The device of a path, when the log line names none. */
static void device_of(call_log *log)
{
    if (log->device[0])
        return;
    if (!strcmp(log->path, "host")) {
        snprintf(log->device, sizeof log->device, "host:%ldcpu",
                 sysconf(_SC_NPROCESSORS_ONLN));
        return;
    }
    int (*count)(void) =
        (int (*)(void))dlsym(RTLD_DEFAULT, "gpulapack_device_count");
    int (*info)(int, device_info *) = (int (*)(int, device_info *))dlsym(
        RTLD_DEFAULT, "gpulapack_device_info");
    strcpy(log->device, strcmp(log->path, "lapack") ? log->path : "-");
    if (!count || !info || !strcmp(log->path, "lapack"))
        return;
    for (int i = 0; i < count(); i++) {
        device_info d;
        if (info(i, &d) && d.chosen &&
            !strncmp(d.id, log->path, strlen(log->path))) {
            snprintf(log->device, sizeof log->device, "%s %.40s", d.id,
                     d.name);
            return;
        }
    }
}

/* --- the calls ---------------------------------------------------------- */

static double frobenius(const double *a, size_t count)
{
    double sum = 0;
    for (size_t i = 0; i < count; i++)
        sum += a[i] * a[i];
    return sqrt(sum);
}

/* A = U * diag(s) * VT: returns |A - U S VT|_F / (|A|_F * n * eps); U is
 * scaled in place. */
static double svd_residual(int n, const double *a, const double *s, double *u,
                           const double *vt)
{
    size_t nn = (size_t)n * (size_t)n;
    double *r = xmalloc(nn * sizeof *r);
    const double one = 1, minus_one = -1;
    memcpy(r, a, nn * sizeof *r);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            u[i + (size_t)j * n] *= s[j];
    dgemm_("N", "N", &n, &n, &n, &minus_one, u, &n, vt, &n, &one, r, &n, 1, 1);
    double ratio = frobenius(r, nn) / (frobenius(a, nn) * n * eps);
    free(r);
    return ratio;
}

/* A = Z diag(w) Z^H (complex): |A - Z W Z^H|_F / (|A|_F n eps); Z is
 * overwritten. */
static double heev_residual(int n, const double complex *a, const double *w,
                            double complex *z)
{
    size_t nn = (size_t)n * (size_t)n;
    double complex *r = xmalloc(nn * sizeof *r);
    double complex *zw = xmalloc(nn * sizeof *zw);
    const double complex one = 1, minus_one = -1;
    memcpy(r, a, nn * sizeof *r);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            zw[i + (size_t)j * n] = z[i + (size_t)j * n] * w[j];
    zgemm_("N", "C", &n, &n, &n, &minus_one, zw, &n, z, &n, &one, r, &n, 1, 1);
    double rn = 0, an = 0;
    for (size_t i = 0; i < nn; i++) {
        rn += creal(r[i] * conj(r[i]));
        an += creal(a[i] * conj(a[i]));
    }
    free(r), free(zw);
    return sqrt(rn) / (sqrt(an) * n * eps);
}

/* max_i |x_i - y_i| / (max_i |y_i| n eps) */
static double value_distance(int n, const double *x, const double *y)
{
    double diff = 0, scale = 0;
    for (int i = 0; i < n; i++) {
        diff = fmax(diff, fabs(x[i] - y[i]));
        scale = fmax(scale, fabs(y[i]));
    }
    return diff / (scale * n * eps);
}

/* The matrices of size n: real symmetric (dgesdd, dsyevd) and complex
 * Hermitian (zheevd), the same for every call of that size. */
static void make_matrices(int n, double *a, double complex *h)
{
    srand(7);
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            double x = (double)rand() / RAND_MAX - 0.5;
            double y = (double)rand() / RAND_MAX - 0.5;
            double z = (double)rand() / RAND_MAX - 0.5;
            a[i + (size_t)j * n] = a[j + (size_t)i * n] = x;
            h[i + (size_t)j * n] = y + (i == j ? 0 : z) * I;
            h[j + (size_t)i * n] = conj(h[i + (size_t)j * n]);
        }
}

/* Result of one call on one side. */
typedef struct {
    double time, check;
    int info;
    const char *check_name;
} result;

/* Runs call c at size n with fn (ours: the names this program links,
 * which the preloaded library takes; the system's: sys.*), on a copy of
 * the matrices; values into w (n).  With vectors, check = the residual;
 * else check is left for the caller. */
static result run_call(const call_kind *c, int n, int ours, const double *a,
                       const double complex *h, double *w)
{
    size_t nn = (size_t)n * (size_t)n;
    result r = {0, 0, 0, ""};
    int lwork = -1, liwork = -1, lrwork = -1, iq;
    double q, rq;
    double complex zq;
    char jobz = c->jobz[5]; /* "JOBZ=S" */
    if (!strcmp(c->routine, "dgesdd")) {
        gesdd_t *f = ours ? dgesdd_ : sys.dgesdd;
        double *work_a = xmalloc(nn * sizeof *work_a);
        double *u = xmalloc(nn * sizeof *u), *vt = xmalloc(nn * sizeof *vt);
        int *iwork = xmalloc(8 * (size_t)n * sizeof *iwork);
        f(&jobz, &n, &n, work_a, &n, w, u, &n, vt, &n, &q, &lwork, iwork,
          &r.info, 1);
        lwork = (int)q;
        double *work = xmalloc((size_t)lwork * sizeof *work);
        memcpy(work_a, a, nn * sizeof *a);
        r.time = now();
        f(&jobz, &n, &n, work_a, &n, w, u, &n, vt, &n, work, &lwork, iwork,
          &r.info, 1);
        r.time = now() - r.time;
        if (c->vectors) {
            r.check = svd_residual(n, a, w, u, vt);
            r.check_name = "|A-USV'|/(|A| n eps)";
        }
        free(work_a), free(u), free(vt), free(iwork), free(work);
    } else if (!strcmp(c->routine, "dsyevd")) {
        syevd_t *f = ours ? dsyevd_ : sys.dsyevd;
        double *z = xmalloc(nn * sizeof *z);
        f(&jobz, "L", &n, z, &n, w, &q, &lwork, &iq, &liwork, &r.info, 1, 1);
        lwork = (int)q;
        liwork = iq;
        double *work = xmalloc((size_t)lwork * sizeof *work);
        int *iwork = xmalloc((size_t)liwork * sizeof *iwork);
        memcpy(z, a, nn * sizeof *a);
        r.time = now();
        f(&jobz, "L", &n, z, &n, w, work, &lwork, iwork, &liwork, &r.info, 1,
          1);
        r.time = now() - r.time;
        if (c->vectors) {
            /* A = Z diag(w) Z': the SVD's residual with U = Z, VT = Z' */
            double *zt = xmalloc(nn * sizeof *zt);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++)
                    zt[j + (size_t)i * n] = z[i + (size_t)j * n];
            r.check = svd_residual(n, a, w, z, zt);
            r.check_name = "|A-ZWZ'|/(|A| n eps)";
            free(zt);
        }
        free(z), free(work), free(iwork);
    } else {
        heevd_t *f = ours ? zheevd_ : sys.zheevd;
        double complex *z = xmalloc(nn * sizeof *z);
        f(&jobz, "L", &n, z, &n, w, &zq, &lwork, &rq, &lrwork, &iq, &liwork,
          &r.info, 1, 1);
        lwork = (int)creal(zq);
        lrwork = (int)rq;
        liwork = iq;
        double complex *work = xmalloc((size_t)lwork * sizeof *work);
        double *rwork = xmalloc((size_t)lrwork * sizeof *rwork);
        int *iwork = xmalloc((size_t)liwork * sizeof *iwork);
        memcpy(z, h, nn * sizeof *h);
        r.time = now();
        f(&jobz, "L", &n, z, &n, w, work, &lwork, rwork, &lrwork, iwork,
          &liwork, &r.info, 1, 1);
        r.time = now() - r.time;
        if (c->vectors) {
            r.check = heev_residual(n, h, w, z);
            r.check_name = "|A-ZWZ^H|/(|A| n eps)";
        }
        free(z), free(work), free(rwork), free(iwork);
    }
    return r;
}

/* --- sizes -------------------------------------------------------------- */

static long env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? atol(v) : fallback;
}

/* Without n on the command line: each call's size from the crossovers its
 * probe call logs, and the note printed beside the call's line. */
static void pick_size(call_kind *c, const char *gpu_path, long max_n,
                      double *a, double complex *h, char *note, size_t size)
{
    double w[64];
    call_log log;
    make_matrices(64, a, h);
    run_call(c, 64, 1, a, h, w);
    int logged = log_read(c->routine, &log, 1);
    long want = log.host_n;
    if (gpu_path && log.gpu_n > 0 && (want < 0 || log.gpu_n < want))
        want = log.gpu_n;
    note[0] = 0;
    if (!logged || strcmp(log.path, "lapack") ||
        strncmp(log.reason, "size", 4)) {
        c->n = (int)(max_n < 1000 ? max_n : 1000); /* no crossover said */
    } else if (want < 0) { /* "never": the line's reason says so */
        c->n = (int)(max_n < 1000 ? max_n : 1000);
    } else if (want > max_n) {
        c->n = (int)max_n;
        snprintf(note, size, "(crossover %ld above DEMO_MAX_N)", want);
    } else {
        c->n = (int)(want < 500 ? (max_n < 500 ? max_n : 500) : want);
    }
}

/* --- main --------------------------------------------------------------- */

static int wanted(const char *routine)
{
    const char *list = getenv("DEMO_CALLS");
    if (!list || !*list)
        return 1;
    size_t len = strlen(routine);
    for (const char *p = list; (p = strstr(p, routine)); p += len)
        if ((p == list || p[-1] == ',') && (p[len] == 0 || p[len] == ','))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int fixed_n = argc > 1 ? atoi(argv[1]) : 0;
    long max_n = env_long("DEMO_MAX_N", 2500);
    int compare = env_long("DEMO_LAPACK", 1) != 0;
    call_kind calls[] = {
        {"dgesdd", "JOBZ=S", 1, 0}, {"dgesdd", "JOBZ=N", 0, 0},
        {"dsyevd", "JOBZ=V", 1, 0}, {"dsyevd", "JOBZ=N", 0, 0},
        {"zheevd", "JOBZ=V", 1, 0}, {"zheevd", "JOBZ=N", 0, 0},
    };
    const int ncalls = (int)(sizeof calls / sizeof calls[0]);
    char notes[sizeof calls / sizeof calls[0]][160] = {{0}};

    /* Line-buffered, so that our lines and the library's log lines on
     * stderr appear in call order. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    log_open();

    const char *sys_name = "-";
    if (compare) {
        void *lib =
            dlmopen(LM_ID_NEWLM, "liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
        if (lib) {
            sys.dgesdd = (gesdd_t *)dlsym(lib, "dgesdd_");
            sys.dsyevd = (syevd_t *)dlsym(lib, "dsyevd_");
            sys.zheevd = (heevd_t *)dlsym(lib, "zheevd_");
            Dl_info where;
            if (sys.dgesdd && dladdr((void *)sys.dgesdd, &where))
                sys_name = where.dli_fname;
        }
        if (!sys.dgesdd || !sys.dsyevd || !sys.zheevd) {
            fprintf(stderr,
                    "demo: cannot load the system LAPACK (%s); "
                    "no comparison\n",
                    lib ? "symbols missing" : dlerror());
            compare = 0;
        }
    }
    const char *(*version)(void) =
        (const char *(*)(void))dlsym(RTLD_DEFAULT, "gpulapack_version");
    const char *(*path)(void) =
        (const char *(*)(void))dlsym(RTLD_DEFAULT, "gpulapack_path");
    const char *(*table)(void) =
        (const char *(*)(void))dlsym(RTLD_DEFAULT, "gpulapack_tune_table");
    const char *gpu_path = NULL;
    if (path && (!strcmp(path(), "cuda") || !strcmp(path(), "hip") ||
                 !strcmp(path(), "opencl")))
        gpu_path = path();

    /* The sizes (probe calls when none was given). */
    size_t cap =
        (size_t)(fixed_n > 0 ? fixed_n : (max_n > 1000 ? max_n : 1000));
    double *a = xmalloc(cap * cap * sizeof *a);
    double complex *h = xmalloc(cap * cap * sizeof *h);
    for (int i = 0; i < ncalls; i++)
        if (fixed_n > 0 || !version)
            calls[i].n =
                fixed_n > 0 ? fixed_n : (int)(max_n < 1000 ? max_n : 1000);
        else if (wanted(calls[i].routine))
            pick_size(&calls[i], gpu_path, max_n, a, h, notes[i],
                      sizeof notes[i]);

    if (version)
        printf(
            "gpulapack demo: library %s, accelerated path %s, crossovers %s\n",
            version(), path ? path() : "?", table ? table() : "?");
    else
        printf("gpulapack demo: the library is not loaded (LD_PRELOAD it): "
               "every call is the system LAPACK's\n");
    printf("gpulapack demo: n = %s; system LAPACK: %s%s\n",
           fixed_n > 0 ? argv[1] : "from the crossovers in force",
           compare ? sys_name : "not timed (DEMO_LAPACK=0)",
           compare ? " (dlmopen, a namespace of its own)" : "");
    printf("%-14s %5s  %-7s %-10s %-16s %9s %9s %7s  %s\n", "call", "n",
           "path", "method", "device", "ours s", "LAPACK s", "speedup",
           "check");

    int failed = 0, made = 0;
    double *w = xmalloc(cap * sizeof *w), *w_sys = xmalloc(cap * sizeof *w);
    double *w_vec = xmalloc(cap * sizeof *w); /* values of the V call */
    for (int i = 0; i < ncalls; i++) {
        const call_kind *c = &calls[i];
        if (!wanted(c->routine))
            continue;
        int n = c->n;
        if (n != made)
            make_matrices(n, a, h), made = n;
        result ours = run_call(c, n, 1, a, h, w);
        call_log log;
        log_read(c->routine, &log, 0);
        device_of(&log);
        result peer = {0, 0, 0, ""};
        if (compare)
            peer = run_call(c, n, 0, a, h, w_sys);
        if (!c->vectors) {
            /* the values against the system LAPACK's (or, when it is not
             * timed, against ours with vectors at the same n) */
            if (compare) {
                ours.check = value_distance(n, w, w_sys);
                ours.check_name = "max|w-w(LAPACK)|/(|w| n eps)";
            } else if (i > 0 && calls[i - 1].n == n && wanted(c->routine)) {
                ours.check = value_distance(n, w, w_vec);
                ours.check_name = "max|w-w(JOBZ=V)|/(|w| n eps)";
            }
        } else {
            memcpy(w_vec, w, (size_t)n * sizeof *w);
        }
        int ok = ours.info == 0 && peer.info == 0 && ours.check < bad_check &&
                 !isnan(ours.check);
        failed += !ok;
        char ratio[16] = "-", peer_time[16] = "-";
        if (compare) {
            snprintf(peer_time, sizeof peer_time, "%.3f", peer.time);
            snprintf(ratio, sizeof ratio, "%.2fx", peer.time / ours.time);
        }
        printf("%s %-7s%5d  %-7s %-10s %-16s %9.3f %9s %7s  info=%d",
               c->routine, c->jobz, n, log.path, log.method, log.device,
               ours.time, peer_time, ratio, ours.info);
        if (ours.check_name[0])
            printf(" %s = %.2f", ours.check_name, ours.check);
        printf("%s", ok ? "" : " FAILED");
        if (!strcmp(log.path, "lapack") && log.reason[0])
            printf("  [reason=%s]", log.reason);
        if (notes[i][0])
            printf("  %s", notes[i]);
        printf("\n");
    }
    free(a), free(h), free(w), free(w_sys), free(w_vec);
    return failed ? 1 : 0;
}
