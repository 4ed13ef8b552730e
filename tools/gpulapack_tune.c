/* gpulapack-tune: measures this machine's crossovers and writes the tune
 * file that later processes read (runtime/tune_file.c; docs/env.md).
 *
 * For each case (family, job, precision) it times, on the same matrices,
 * the system LAPACK, our host path and our GPU path of each runtime with
 * a GPU, at sizes growing by a quarter from --min-n, until each path
 * beats the alternative (the host path: LAPACK; a GPU path: the faster of
 * LAPACK and the host path), then bisects twice between the last size
 * lost and the first won.  A path that never wins up to --max-n keeps the
 * larger of the built-in figure and --max-n + 1 (never if the built-in
 * says never): nothing was measured above.
 *
 * It is built against the library's internals (lib/libgpulapack.a): each
 * call is sent down one path with gl_policy_force, and a call that did
 * not run there (a device fault restarted on LAPACK) counts as never.
 * The first call of each path and precision is made at n = 128 first and
 * not timed (contexts, modules, threads): the crossovers are those of a
 * program's later calls; the progress line shows that first call's time.
 *
 * On each GPU path it also times the methods of the ?syev family
 * (two-stage, one-stage, vendor) at doubling sizes and writes "method"
 * lines where the fastest changes (measure_methods below).
 *
 * Where a GPU path has two or more GPUs (GPULAPACK_DEVICE=auto, one
 * process), it times the chosen device alone against all of them at
 * doubling sizes and writes a "devices" line from the size on which the
 * set stays faster (measure_devices below).
 *
 * On each GPU path it also measures the chosen device's FP64 GEMM rate
 * (the vendor's BLAS) and its bus rate each way, and writes a "rates"
 * line, from which the streamed plan takes its band (measure_rates).
 *
 * Usage: gpulapack-tune [-o FILE] [--families syevd,gesdd] [--jobs N,V]
 *        [--precisions d,z] [--paths host,cuda,...] [--min-n 256]
 *        [--max-n 4096] [--time-limit 300] [-q]
 * Never prints to stdout; one progress line on stderr (-q: none). */
#include <complex.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "context.h"
#include "device.h"
#include "entry.h"
#include "gpu.h"
#include "log.h"
#include "tune.h"
#include "tune_families.inc"

#define PROTO_SYEVD(name, T, R)                                               \
    void name(const char *, const char *, const int *, T *, const int *, R *, \
              T *, const int *, int *, const int *, int *, size_t, size_t);
#define PROTO_HEEVD(name, T, R)                                               \
    void name(const char *, const char *, const int *, T *, const int *, R *, \
              T *, const int *, R *, const int *, int *, const int *, int *,  \
              size_t, size_t);
#define PROTO_GESDD(name, T, R)                                               \
    void name(const char *, const int *, const int *, T *, const int *, R *,  \
              T *, const int *, T *, const int *, T *, const int *, int *,    \
              int *, size_t);
#define PROTO_ZGESDD(name, T, R)                                              \
    void name(const char *, const int *, const int *, T *, const int *, R *,  \
              T *, const int *, T *, const int *, T *, const int *, R *,      \
              int *, int *, size_t);
PROTO_SYEVD(ssyevd_, float, float)
PROTO_SYEVD(dsyevd_, double, double)
PROTO_HEEVD(cheevd_, float complex, float)
PROTO_HEEVD(zheevd_, double complex, double)
PROTO_GESDD(sgesdd_, float, float)
PROTO_GESDD(dgesdd_, double, double)
PROTO_ZGESDD(cgesdd_, float complex, float)
PROTO_ZGESDD(zgesdd_, double complex, double)

/* ---- options ------------------------------------------------------------ */

static const char *families = GL_TUNE_FAMILIES, *jobs = "N,V",
                  *precisions = "d,z", *paths_opt = NULL, *output = NULL;
static long min_n = 256, max_n = 4096;
static double time_limit = 300;
static int quiet;

static int listed(const char *list, const char *item)
{
    size_t len = strlen(item);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, item, len) == 0)
            return 1;
        p += n + (end != NULL);
    }
    return 0;
}

/* ---- one call ----------------------------------------------------------- */

typedef struct problem {
    gl_call_name name;  /* the family measured (GL_TUNE_FAMILY_IDS) in a
                           precision */
    int gesdd;          /* its kind: the SVD (?gesdd), else ?syevd/?heevd */
    char prec;          /* s d c z */
    int vectors;
    int n;
    void *a0, *a;       /* the matrix, and the copy each call overwrites */
} problem;

static size_t elem_size(char p)
{
    return p == 's' ? 4 : p == 'd' ? 8 : p == 'c' ? 8 : 16;
}

static double unit(void) { return rand() / (double)RAND_MAX - 0.5; }

static void make_matrix(problem *pb)
{
    size_t n = (size_t)pb->n, es = elem_size(pb->prec);
    free(pb->a0);
    free(pb->a);
    pb->a0 = malloc(n * n * es);
    pb->a = malloc(n * n * es);
    for (size_t j = 0; j < n; j++)
        for (size_t i = j; i < n; i++) {
            double re = unit(), im = i == j || pb->gesdd ? 0 : unit();
            double re2 = pb->gesdd ? unit() : re, im2 = pb->gesdd ? unit() : -im;
            size_t lo = i + j * n, up = j + i * n;
            switch (pb->prec) {
            case 's': ((float *)pb->a0)[lo] = (float)re;
                      ((float *)pb->a0)[up] = (float)re2; break;
            case 'd': ((double *)pb->a0)[lo] = re;
                      ((double *)pb->a0)[up] = re2; break;
            case 'c': ((float complex *)pb->a0)[lo] = (float)re + I * (float)im;
                      ((float complex *)pb->a0)[up] = (float)re2 + I * (float)im2; break;
            default:  ((double complex *)pb->a0)[lo] = re + I * im;
                      ((double complex *)pb->a0)[up] = re2 + I * im2; break;
            }
        }
}

/* The call on a fresh copy of the matrix; its seconds, or -1 when it did
 * not run on path (or failed). */
static double run(problem *pb, gl_path path)
{
    int n = pb->n, info = 0, lwork = -1, liwork = -1, lrwork = -1, iq = 0;
    size_t nn = (size_t)n * n, es = elem_size(pb->prec);
    int cplx = pb->prec == 'c' || pb->prec == 'z', dbl = pb->prec == 'd' || pb->prec == 'z';
    const char *job = pb->vectors ? (pb->gesdd ? "S" : "V") : "N";
    double q[2] = {0, 0}, rq = 0;
    float qf[2] = {0, 0}, rqf = 0;
    int ld = pb->gesdd && pb->vectors ? n : 1;
    size_t vec = pb->gesdd && pb->vectors ? nn : 1;
    void *w = malloc((size_t)n * 8), *u = malloc(vec * es), *vt = malloc(vec * es);
    int *iwork = malloc(8 * (size_t)n * sizeof *iwork + 64);
    size_t rsize = pb->gesdd ? 5 * nn + 7 * (size_t)n : 1;
    void *rwork = cplx && pb->gesdd ? malloc(rsize * (dbl ? 8 : 4)) : NULL;
    memcpy(pb->a, pb->a0, nn * es);

    /* the workspace query (always forwarded) */
    void *qp = dbl ? (void *)q : (void *)qf, *rqp = dbl ? (void *)&rq : (void *)&rqf;
#define SYEVD_ARGS(W, L) job, "L", &n, pb->a, &n, w, W, L
    switch (pb->prec * 2 + pb->gesdd) {
    case 's' * 2: ssyevd_(SYEVD_ARGS(qp, &lwork), &iq, &liwork, &info, 1, 1); break;
    case 'd' * 2: dsyevd_(SYEVD_ARGS(qp, &lwork), &iq, &liwork, &info, 1, 1); break;
    case 'c' * 2: cheevd_(SYEVD_ARGS(qp, &lwork), rqp, &lrwork, &iq, &liwork, &info, 1, 1); break;
    case 'z' * 2: zheevd_(SYEVD_ARGS(qp, &lwork), rqp, &lrwork, &iq, &liwork, &info, 1, 1); break;
    case 's' * 2 + 1: sgesdd_(job, &n, &n, pb->a, &n, w, u, &ld, vt, &ld, qp, &lwork, iwork, &info, 1); break;
    case 'd' * 2 + 1: dgesdd_(job, &n, &n, pb->a, &n, w, u, &ld, vt, &ld, qp, &lwork, iwork, &info, 1); break;
    case 'c' * 2 + 1: cgesdd_(job, &n, &n, pb->a, &n, w, u, &ld, vt, &ld, qp, &lwork, rwork, iwork, &info, 1); break;
    default: zgesdd_(job, &n, &n, pb->a, &n, w, u, &ld, vt, &ld, qp, &lwork, rwork, iwork, &info, 1); break;
    }
    lwork = (int)(dbl ? q[0] : qf[0]) + 1;
    lrwork = (int)(dbl ? rq : rqf) + 1;
    liwork = iq > 0 ? iq : 1;
    void *work = malloc((size_t)lwork * es);
    if (!pb->gesdd && cplx) {
        free(rwork);
        rwork = malloc((size_t)lrwork * (dbl ? 8 : 4));
    }
    free(iwork);
    iwork = malloc(((size_t)liwork + 8 * (size_t)n) * sizeof *iwork);

    gl_policy_force(path);
    double start = gl_now();
    switch (pb->prec * 2 + pb->gesdd) {
    case 's' * 2: ssyevd_(SYEVD_ARGS(work, &lwork), iwork, &liwork, &info, 1, 1); break;
    case 'd' * 2: dsyevd_(SYEVD_ARGS(work, &lwork), iwork, &liwork, &info, 1, 1); break;
    case 'c' * 2: cheevd_(SYEVD_ARGS(work, &lwork), rwork, &lrwork, iwork, &liwork, &info, 1, 1); break;
    case 'z' * 2: zheevd_(SYEVD_ARGS(work, &lwork), rwork, &lrwork, iwork, &liwork, &info, 1, 1); break;
    case 's' * 2 + 1: sgesdd_(job, &n, &n, pb->a, &n, w, u, &ld, vt, &ld, work, &lwork, iwork, &info, 1); break;
    case 'd' * 2 + 1: dgesdd_(job, &n, &n, pb->a, &n, w, u, &ld, vt, &ld, work, &lwork, iwork, &info, 1); break;
    case 'c' * 2 + 1: cgesdd_(job, &n, &n, pb->a, &n, w, u, &ld, vt, &ld, work, &lwork, rwork, iwork, &info, 1); break;
    default: zgesdd_(job, &n, &n, pb->a, &n, w, u, &ld, vt, &ld, work, &lwork, rwork, iwork, &info, 1); break;
    }
#undef SYEVD_ARGS
    double seconds = gl_now() - start;
    gl_policy_force(GL_PATH_NONE);
    free(work), free(w), free(u), free(vt), free(iwork), free(rwork);
    return info == 0 && gl_policy_last_path() == path ? seconds : -1;
}

/* The best of calls until they took 0.3 s together (at most 8; one
 * call above 0.3 s): small calls are noisy.  -1 if one failed. */
static double timed(problem *pb, gl_path path)
{
    double best = -1, total = 0;
    for (int rep = 0; rep < 8 && total < 0.3; rep++) {
        double t = run(pb, path);
        if (t < 0)
            return -1;
        total += t;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

/* ---- progress ----------------------------------------------------------- */

static double started;
static int case_index, case_count;

static void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void progress(const char *fmt, ...)
{
    if (quiet)
        return;
    char line[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(line, sizeof line, fmt, args);
    va_end(args);
    fprintf(stderr, "\r\033[Kgpulapack-tune [%d/%d, %.0f s] %s", case_index,
            case_count, gl_now() - started, line);
    fflush(stderr);
}

/* ---- one case ----------------------------------------------------------- */

enum { MAX_PATHS = 4 };
static gl_path gpu_paths[MAX_PATHS];
static int ngpu_paths, measure_host;

static long round32(double n)
{
    long r = ((long)n + 16) / 32 * 32;
    return r < 32 ? 32 : r;
}

static const char *name_of(const problem *pb, char *buf, size_t size)
{
    return gl_call_name_text(&pb->name, buf, (unsigned)size);
}

/* Times LAPACK, host and gpu at n (those asked); t[] = -1 where not run
 * or failed.  Returns 0, or -1 past the time limit. */
typedef struct times { double lapack, host, gpu; } times;

/* LAPACK's and the host path's times of the case, kept for the GPU's
 * comparisons at the same sizes (cleared per case). */
static struct { long n; double lapack, host; } cache[64];
static int ncache;

static void measure(problem *pb, int n, int want_host, gl_path gpu,
                    times *t, const char *label)
{
    pb->n = n;
    make_matrix(pb);
    t->lapack = t->host = t->gpu = -1;
    int c = 0;
    while (c < ncache && cache[c].n != n)
        c++;
    if (c < ncache) {
        t->lapack = cache[c].lapack;
        t->host = cache[c].host;
    } else {
        progress("%s n=%d: lapack", label, n);
        t->lapack = timed(pb, GL_PATH_LAPACK);
        if (want_host) {
            progress("%s n=%d: lapack %.3f s, host", label, n, t->lapack);
            t->host = timed(pb, GL_PATH_HOST);
        }
        if (ncache < 64 && want_host)
            cache[ncache++] = (__typeof__(cache[0])){n, t->lapack, t->host};
    }
    if (gpu != GL_PATH_NONE) {
        progress("%s n=%d: lapack %.3f s, host %.3f s, %s", label, n,
                 t->lapack, t->host, gl_path_name(gpu));
        t->gpu = timed(pb, gpu);
    }
    if (gpu != GL_PATH_NONE)
        progress("%s n=%d: lapack %.3f s, host %.3f s, %s %.3f s", label, n,
                 t->lapack, t->host, gl_path_name(gpu), t->gpu);
    else
        progress("%s n=%d: lapack %.3f s, host %.3f s", label, n, t->lapack,
                 t->host);
}

/* Did path beat its alternative in t?  host: LAPACK; a GPU: the faster
 * of LAPACK and the host path. */
static int wins(const times *t, int gpu)
{
    if (t->lapack < 0)
        return 0;
    /* by 5% at least: within that, timings of one call are noise */
    if (!gpu)
        return t->host >= 0 && t->host < 0.95 * t->lapack;
    double other = t->host >= 0 && t->host < t->lapack ? t->host : t->lapack;
    return t->gpu >= 0 && t->gpu < 0.95 * other;
}

static int over_time(void) { return gl_now() - started > time_limit; }

/* The crossover of one path for pb: 0 not measured (time), else n or
 * LONG_MAX.  gpu: GL_PATH_NONE for the host path. */
static long crossover_of(problem *pb, gl_path gpu, const char *label,
                         int *failed)
{
    int is_gpu = gpu != GL_PATH_NONE;
    long lost = 0;
    *failed = 0;
    for (double x = (double)min_n; round32(x) <= max_n; x *= 1.25) {
        long n = round32(x);
        if (n <= lost)
            continue;
        if (over_time())
            return 0;
        times t;
        measure(pb, (int)n, 1, gpu, &t, label);
        if ((is_gpu ? t.gpu : t.host) < 0) {
            *failed = 1;   /* did not run on the path: a fault */
            return LONG_MAX;
        }
        if (!wins(&t, is_gpu)) {
            lost = n;
            continue;
        }
        /* a win must hold at the next two sizes too, or it was noise (or
         * a small-size win before a range where LAPACK is faster) */
        double y = x;
        int held = 1;
        for (int k = 0; k < 2 && held; k++) {
            long next = round32(y *= 1.25);
            if (next > max_n || over_time())
                break;
            times t2;
            measure(pb, (int)next, 1, gpu, &t2, label);
            if (!wins(&t2, is_gpu)) {
                lost = next;
                held = 0;
            }
        }
        if (!held) {
            x = y;
            continue;
        }
        if (lost == 0)
            return n;   /* won from the first size */
        long won = n;
        for (int step = 0; step < 2 && won - lost > 32 && !over_time(); step++) {
            long mid = round32((double)(lost + won) / 2);
            if (mid <= lost || mid >= won)
                break;
            measure(pb, (int)mid, 1, gpu, &t, label);
            if (wins(&t, is_gpu))
                won = mid;
            else
                lost = mid;
        }
        return won;
    }
    return -lost - 1;   /* never won up to max_n */
}

/* ---- the file ----------------------------------------------------------- */

static char lines[64][96];
static int nlines;

static void add_line(const problem *pb, const char *path, long n, long builtin)
{
    if (nlines == 64)
        return;
    char value[24];
    if (n == LONG_MAX || (n < 0 && builtin == LONG_MAX))
        snprintf(value, sizeof value, "never");
    else if (n < 0)   /* not won up to max_n: nothing measured above */
        snprintf(value, sizeof value, "%ld",
                 builtin > max_n + 1 ? builtin : max_n + 1);
    else
        snprintf(value, sizeof value, "%ld", n);
    snprintf(lines[nlines++], sizeof lines[0], "%s %c %c %s %s",
             gl_call_name_family(&pb->name),
             pb->vectors ? 'V' : 'N', pb->prec, path, value);
}

static int mkdirs(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        int rc = mkdir(dir, 0755);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return mkdir(dir, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static int write_file(const char *name, const char *header)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", name);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        if (mkdirs(dir) != 0)
            return -1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", name, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "%s\n", header);
    for (int i = 0; i < nlines; i++)
        fprintf(f, "%s\n", lines[i]);
    int ok = fclose(f) == 0;
    if (!ok || rename(tmp, name) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* ---- methods ------------------------------------------------------------
 *
 * The ?syev family on a GPU path has three methods (docs/design/methods.md):
 * at sizes from --min-n, doubling up to --max-n, each is timed on the same
 * matrix, and a "method" line is written where the fastest changes (the
 * first from 0).  The vendor's solver must be 5% faster than the better of
 * the others: where the runtime has none, the call falls back to the
 * two-stage reduction and times the same. */
static void add_method_line(const problem *pb, gl_path gpu, long from,
                            int method)
{
    if (nlines == 64)
        return;
    snprintf(lines[nlines++], sizeof lines[0], "method %s %c %c %s %ld %s",
             gl_call_name_family(&pb->name), pb->vectors ? 'V' : 'N', pb->prec,
             gl_path_name(gpu), from, gl_tune_method_name(method));
}

static void measure_methods(problem *pb, gl_path gpu, const char *label,
                            char *summary, size_t size)
{
    int last = -1;
    for (long n = min_n; n <= max_n && !over_time(); n *= 2) {
        pb->n = (int)n;
        make_matrix(pb);
        double best = -1;
        int pick = -1;
        for (int m = GL_METHOD_TWO_STAGE; m <= GL_METHOD_VENDOR; m++) {
            gl_policy_force_method(m);
            double t = timed(pb, gpu);
            gl_policy_force_method(-1);
            progress("%s: %s %s at n=%ld: %.3f s", label, gl_path_name(gpu),
                     gl_tune_method_name(m), n, t);
            if (t >= 0 &&
                (pick < 0 || t < (m == GL_METHOD_VENDOR ? 0.95 : 1) * best))
                best = t, pick = m;
        }
        if (pick >= 0 && pick != last) {
            add_method_line(pb, gpu, last < 0 ? 0 : n, pick);
            size_t used = strlen(summary);
            snprintf(summary + used, size - used, " %s from %ld;",
                     gl_tune_method_name(pick), last < 0 ? 0 : n);
            last = pick;
        }
    }
}

/* ---- sets of devices -----------------------------------------------------
 *
 * The calls a set shares (kernels/tiers/peers.c,
 * kernels/tiers/stage1_peers.c): at sizes from --min-n, doubling up to
 * --max-n, one device against all the path's GPUs on the same matrix; the line
 * gives the first size from which the set was 5% faster at every size measured
 * (never where it lost at the largest). */
static void measure_devices(problem *pb, gl_path gpu, const char *label,
                            char *summary, size_t size)
{
    int spares[GL_MAX_DEVICE_SET];
    int count = 1 + gl_device_spares(gpu, spares);
    if (count < 2 || nlines == 64)
        return;
    long from = -1;
    for (long n = min_n; n <= max_n && !over_time(); n *= 2) {
        pb->n = (int)n;
        make_matrix(pb);
        gl_policy_force_devices(1);
        double one = timed(pb, gpu);
        gl_policy_force_devices(count);
        double set = timed(pb, gpu);
        gl_policy_force_devices(0);
        progress("%s: %s 1 device %.3f s, %d devices %.3f s at n=%ld", label,
                 gl_path_name(gpu), one, count, set, n);
        int wins = one >= 0 && set >= 0 && set < 0.95 * one;
        if (!wins)
            from = -1;
        else if (from < 0)
            from = n;
    }
    char value[24];
    if (from < 0)
        snprintf(value, sizeof value, "never");
    else
        snprintf(value, sizeof value, "%ld", from);
    snprintf(lines[nlines++], sizeof lines[0], "devices %s %c %c %s %d %s",
             gl_call_name_family(&pb->name),
             pb->vectors ? 'V' : 'N', pb->prec, gl_path_name(gpu), count,
             value);
    size_t used = strlen(summary);
    snprintf(summary + used, size - used, " %d devices from %s;", count,
             value);
}

/* ---- rates -------------------------------------------------------------
 *
 * The streamed plan's passes balance copies against products at a band
 * of F / W (runtime/tune_params.c gl_tune_ooc_wide_band): F the
 * vendor's FP64 GEMM rate at n = 4096, W each direction's rate for 256
 * MiB, the best of three.  None where the runtime has no vendor BLAS. */
static double best_of_three(gl_ctx *ctx, int what, size_t n, double *buf,
                            void *dev)
{
    const gl_gpu *rt = ctx->runtime;
    double best = -1, one = 1, zero = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = gl_now();
        int rc = what == 0   ? rt->blas_gemm(ctx, 2, 0, 0, n, n, n, &one, dev,
                                             n, (double *)dev + n * n, n,
                                             &zero, (double *)dev + 2 * n * n,
                                             n)
                 : what == 1 ? rt->write(ctx, 8, n, n, buf, n, dev, n)
                             : rt->read(ctx, 8, n, n, dev, n, buf, n);
        if (rc != 0 || rt->finish(ctx) != 0)
            return -1;
        double t = gl_now() - t0;
        best = best < 0 || t < best ? t : best;
    }
    return best;
}

static void measure_rates(gl_path gpu)
{
    if (nlines == 64)
        return;
    gl_ctx *ctx = gl_ctx_acquire(gpu, gl_device_chosen_index(gpu));
    if (!ctx)
        return;
    const gl_gpu *rt = ctx->runtime;
    size_t n = 4096, copy_n = 5792;   /* 5792^2 doubles: 256 MiB */
    size_t elements = 3 * n * n > copy_n * copy_n ? 3 * n * n : copy_n * copy_n;
    double *buf = calloc(elements, sizeof *buf);
    void *dev = buf ? rt->alloc(ctx, elements * sizeof *buf) : NULL;
    double gemm = -1, up = -1, down = -1;
    if (dev && rt->write(ctx, 8, elements, 1, buf, elements, dev,
                         elements) == 0) {
        gemm = best_of_three(ctx, 0, n, buf, dev);
        up = best_of_three(ctx, 1, copy_n, buf, dev);
        down = best_of_three(ctx, 2, copy_n, buf, dev);
    }
    rt->release(ctx, dev);
    free(buf);
    gl_ctx_release(ctx);
    if (gemm <= 0 || up <= 0 || down <= 0)
        return;
    double bytes = 8.0 * (double)copy_n * (double)copy_n;
    snprintf(lines[nlines++], sizeof lines[0], "rates %s %.0f %.1f %.1f",
             gl_path_name(gpu), 2.0 * n * n * n / gemm / 1e9,
             bytes / up / 1e9, bytes / down / 1e9);
    progress("%s\n", lines[nlines - 1]);
}

/* ---- the host's own threads ----------------------------------------------
 * The chase (stage 2), the values' bisection (stage 3) and stage 1's
 * products (sy2sb) on 1, 2, 4, ... up to all CPUs, at 1000, 2000 and 4000
 * (up to --max-n): the fastest count (the fewer threads unless more are
 * 5% faster) as a host-threads line, the most a call of that size and
 * above takes (kernels/backend/host/threads.h).
 * Too many threads for a size only wait for each other (the chase's
 * ranges grow short) or start for little work. */
int gl_d_host_sb_chase_on(int n, int b, int sweeps, double *band, int ldband,
                          const void *keep, int threads, int schedule);
int gl_d_host_values(char kind, int n, const double *d, const double *e,
                     double *w, int threads);
int gl_d_host_sy2sb_on(int n, int b, double *a, int lda, int threads);

/* stage: tune.h GL_HOST_STAGE_* (buf n x n for stage 1's products) */
static double host_stage_time(int stage, int n, int threads, double *buf)
{
    int b = n >= 3500 ? 64 : 32, ld = 2 * b + 1;
    double best = -1;
    for (int rep = 0; rep < 2; rep++) {
        srand(7);
        double t0;
        int rc;
        if (stage == GL_HOST_STAGE_PRODUCTS) {
            for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
                buf[i] = unit();
            t0 = gl_now();
            rc = gl_d_host_sy2sb_on(n, b, buf, n, threads);
        } else if (stage == GL_HOST_STAGE_VALUES) {
            for (int i = 0; i < 2 * n; i++)
                buf[i] = unit();
            t0 = gl_now();
            rc = gl_d_host_values('T', n, buf, buf + n, buf + 2 * n, threads);
        } else {
            for (size_t i = 0; i < (size_t)ld * (size_t)n; i++)
                buf[i] = (int)(i % (size_t)ld) <= b ? unit() : 0;
            t0 = gl_now();
            rc = gl_d_host_sb_chase_on(n, b, n, buf, ld, NULL, threads,
                                       GL_SCHEDULE_BALANCED);
        }
        double t = gl_now() - t0;
        if (rc == 0 && (best < 0 || t < best))
            best = t;
    }
    return best;
}

static void measure_host_threads(void)
{
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 2)
        return;
    static const char *const names[GL_HOST_STAGES] = GL_HOST_STAGE_NAMES;
    double *buf = malloc(sizeof *buf * 4000 * 4000);
    for (int stage = 0; buf && stage < GL_HOST_STAGES; stage++)
        for (int n = 1000; n <= 4000 && n <= max_n && nlines < 64; n *= 2) {
            if (over_time())
                break;
            int best = 1;
            double best_t = host_stage_time(stage, n, 1, buf);
            for (int t = 2; best_t > 0; t = t * 2 > cpus && t < cpus ? cpus : t * 2) {
                double s = host_stage_time(stage, n, t, buf);
                if (s > 0 && s < 0.95 * best_t)
                    best = t, best_t = s;
                if (t >= cpus)
                    break;
            }
            snprintf(lines[nlines++], sizeof lines[0], "host-threads %s %d %d",
                     names[stage], n, best);
            progress("%s\n", lines[nlines - 1]);
        }
    free(buf);
}

/* ---- main --------------------------------------------------------------- */

static int usage(void)
{
    /* the paths it measures: the host's and the GPU backends' (backend.h) */
    char paths[64] = "host";
    for (int b = 0; b < GL_NBACKENDS; b++)
        if (gl_backend_is_gpu(&gl_backends[b])) {
            size_t used = strlen(paths);
            snprintf(paths + used, sizeof paths - used, ",%s",
                     gl_backends[b].name);
        }
    fprintf(stderr,
            "usage: gpulapack-tune [-o FILE] [--families " GL_TUNE_FAMILIES "] "
            "[--jobs N,V] [--precisions d,z]\n"
            "                      [--paths %s] "
            "[--min-n 256] [--max-n 4096] [--time-limit 300] [-q]\n"
            "Measures the crossovers of this machine's paths against its "
            "LAPACK and writes the tune file\n"
            "(default: GPULAPACK_TUNE_FILE, else "
            "$XDG_CACHE_HOME/gpulapack/tune.txt or ~/.cache/gpulapack/tune.txt).\n",
            paths);
    return 2;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "-q") == 0) {
            quiet = 1;
            continue;
        }
        if (!value)
            return usage();
        i++;
        if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)
            output = value;
        else if (strcmp(arg, "--families") == 0)
            families = value;
        else if (strcmp(arg, "--jobs") == 0)
            jobs = value;
        else if (strcmp(arg, "--precisions") == 0)
            precisions = value;
        else if (strcmp(arg, "--paths") == 0)
            paths_opt = value;
        else if (strcmp(arg, "--min-n") == 0)
            min_n = atol(value);
        else if (strcmp(arg, "--max-n") == 0)
            max_n = atol(value);
        else if (strcmp(arg, "--time-limit") == 0)
            time_limit = atof(value);
        else
            return usage();
    }
    if (min_n < 32 || max_n < min_n)
        return usage();
    started = gl_now();

    /* the paths: the host, and each GPU runtime with a GPU (as auto
     * would take it: GPUs only) */
    char header[1024], identity[200];
    gl_tune_host_identity(identity, sizeof identity);
    snprintf(header, sizeof header, "gpulapack-tune 1 host=%s", identity);
    measure_host = !paths_opt || listed(paths_opt, "host");
    for (int c = 0; c < GL_NBACKENDS; c++) {
        const gl_backend *b = &gl_backends[c];
        const char *name = b->name;
        if (!gl_backend_is_gpu(b) ||
            (paths_opt ? !listed(paths_opt, name)
                       : !strstr(gl_backends_compiled(), name)))
            continue;
        progress("looking for a %s device", name);
        const gl_gpu_device_info *info = gl_device_chosen(b->path);
        if (!info || !info->gpu) {
            if (paths_opt && !quiet)
                fprintf(stderr, "\ngpulapack-tune: no %s GPU: not measured\n", name);
            continue;
        }
        gpu_paths[ngpu_paths++] = b->path;
        gl_tune_device_identity(info, identity, sizeof identity);
        size_t used = strlen(header);
        snprintf(header + used, sizeof header - used, " gpu=%s:%s", name,
                 identity);
    }

    problem pb = {0};
    case_count = 0;
    static const gl_family_id fams[] = {GL_TUNE_FAMILY_IDS};
    const int nfams = (int)(sizeof fams / sizeof *fams);
    static const char precs[] = "sdcz";
    for (int pass = 0; pass < 2; pass++)
        for (int f = 0; f < nfams; f++)
            for (int v = 0; v < 2; v++)
                for (int p = 0; p < 4; p++) {
                    char prec[2] = {precs[p], 0};
                    const gl_family *family = &gl_families[fams[f]];
                    if (!listed(families, family->real_name) ||
                        !listed(jobs, v ? "V" : "N") ||
                        !listed(precisions, prec))
                        continue;
                    if (pass == 0) {
                        case_count++;
                        continue;
                    }
                    case_index++;
                    pb.name = (gl_call_name){family, precs[p], 0};
                    pb.gesdd = family->kind == GL_KIND_SVD;
                    pb.vectors = v;
                    pb.prec = precs[p];
                    char routine[16], label[40];
                    name_of(&pb, routine, sizeof routine);
                    snprintf(label, sizeof label, "%s %c", routine, v ? 'V' : 'N');
                    /* first calls, untimed: threads, contexts, modules */
                    pb.n = 128;
                    make_matrix(&pb);
                    run(&pb, GL_PATH_LAPACK);
                    if (measure_host)
                        run(&pb, GL_PATH_HOST);
                    for (int g = 0; g < ngpu_paths; g++) {
                        double t0 = gl_now();
                        run(&pb, gpu_paths[g]);
                        progress("%s: %s first call at n=128 %.3f s", label,
                                 gl_path_name(gpu_paths[g]), gl_now() - t0);
                    }
                    char summary[256] = "";
                    ncache = 0;
                    for (int g = -1; g < ngpu_paths; g++) {
                        if (g < 0 && !measure_host)
                            continue;
                        gl_path path = g < 0 ? GL_PATH_NONE : gpu_paths[g];
                        const char *name = g < 0 ? "host" : gl_path_name(path);
                        int failed;
                        long n = crossover_of(&pb, path, label, &failed);
                        if (n != 0)
                            add_line(&pb, name, n,
                                     gl_tune_builtin(&pb.name, v, name));
                        size_t used = strlen(summary);
                        if (n == 0)
                            snprintf(summary + used, sizeof summary - used,
                                     " %s not measured (time limit);", name);
                        else if (failed)
                            snprintf(summary + used, sizeof summary - used,
                                     " %s failed (never);", name);
                        else if (n < 0)
                            snprintf(summary + used, sizeof summary - used,
                                     " %s not faster up to %ld;", name, max_n);
                        else
                            snprintf(summary + used, sizeof summary - used,
                                     " %s from %ld;", name, n);
                        if (g >= 0 && !pb.gesdd && n != 0 && !failed)
                            measure_methods(&pb, path, label, summary,
                                            sizeof summary);
                        if (g >= 0 && n != 0 && !failed)
                            measure_devices(&pb, path, label, summary,
                                            sizeof summary);
                    }
                    progress("%s:%s\n", label, summary);
                }
    free(pb.a0);
    free(pb.a);
    for (int g = 0; g < ngpu_paths; g++)
        measure_rates(gpu_paths[g]);
    if (measure_host)
        measure_host_threads();

    char name[4096];
    if (!output)
        output = gl_tune_file_name(name, sizeof name);
    if (!output) {
        fprintf(stderr, "gpulapack-tune: no HOME: give -o FILE\n");
        return 1;
    }
    if (write_file(output, header) != 0) {
        fprintf(stderr, "gpulapack-tune: cannot write %s: %s\n", output,
                strerror(errno));
        return 1;
    }
    if (!quiet)
        fprintf(stderr, "\r\033[Kgpulapack-tune: %d crossovers written to %s "
                        "in %.0f s\n", nlines, output, gl_now() - started);
    return 0;
}
