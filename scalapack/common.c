/* common.c - the ScaLAPACK interposer's common part: settings, the
 * routines found at run time, the grid's agreement, the moves between the
 * caller's distribution and the 1x1 context of process (0,0), the log
 * line.  docs/scalapack.md. */
#include "gls.h"
#include "../include/gpulapack.h"
#include "../runtime/settings.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>   /* STDERR_FILENO: GPULAPACK_LOG's fallback */

/* ---- settings ------------------------------------------------------- */

static gls_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

/* The rows of runtime/settings.def the interposer reads, by the readers
 * of runtime/settings.c (linked into this library too). */
#define GL_SETTING(...)
#define GL_SETTING_ELSEWHERE(...)
#define GL_SETTING_ALSO_SCALAPACK GL_SETTING_SCALAPACK
#define GL_SETTING_SCALAPACK(NAME, KIND, TYPE, FIELD, ...)                    \
    GL_SETTING_FITS(gls_config, NAME, KIND, TYPE, FIELD)
#include "../runtime/settings.def"
#undef GL_SETTING_SCALAPACK
#define GL_SETTING_SCALAPACK(...) GL_SETTING_ENTRY(gls_config, __VA_ARGS__)
static const gl_setting settings[] = {
#include "../runtime/settings.def"
};
#undef GL_SETTING
#undef GL_SETTING_ELSEWHERE
#undef GL_SETTING_ALSO_SCALAPACK
#undef GL_SETTING_SCALAPACK

static void config_read(void)
{
    gl_settings_read(settings, sizeof settings / sizeof *settings, &config);
    /* the crossovers: the gather moves n^2 elements each way and leaves
     * the other processes idle, so it pays only for large matrices (4096
     * for the eigensolvers); ScaLAPACK's p?gesvd runs ?bdsqr on the whole
     * bidiagonal in every process, slow from about 1024 */
    config.min_n_eig = config.min_n >= 0 ? config.min_n : 4096;
    config.min_n_svd = config.min_n >= 0 ? config.min_n : 1024;
}

const gls_config *gls_config_get(void)
{
    pthread_once(&config_once, config_read);
    return &config;
}

/* ---- routines found at run time --------------------------------------- */

static gls_blacs blacs;
static int blacs_ok;
static pthread_once_t blacs_once = PTHREAD_ONCE_INIT;

static void *sym(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

static void blacs_find(void)
{
    *(void **)&blacs.gridinfo = sym("blacs_gridinfo_");
    *(void **)&blacs.get = sym("blacs_get_");
    *(void **)&blacs.gridmap = sym("blacs_gridmap_");
    *(void **)&blacs.pnum = sym("blacs_pnum_");
    *(void **)&blacs.gridexit = sym("blacs_gridexit_");
    *(void **)&blacs.igamx2d = sym("igamx2d_");
    *(void **)&blacs.dgebs2d = sym("dgebs2d_");
    *(void **)&blacs.dgebr2d = sym("dgebr2d_");
    static const char *gemr2d[4] = {"psgemr2d_", "pdgemr2d_", "pcgemr2d_",
                                    "pzgemr2d_"};
    blacs_ok = blacs.gridinfo && blacs.get && blacs.gridmap && blacs.pnum &&
               blacs.gridexit && blacs.igamx2d && blacs.dgebs2d &&
               blacs.dgebr2d;
    for (int p = 0; p < 4; p++) {
        *(void **)&blacs.gemr2d[p] = sym(gemr2d[p]);
        blacs_ok = blacs_ok && blacs.gemr2d[p];
    }
}

const gls_blacs *gls_blacs_get(void)
{
    pthread_once(&blacs_once, blacs_find);
    return blacs_ok ? &blacs : NULL;
}

void *gls_real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

/* libgpulapack.so's own exports, through a handle of the object that
 * defines gpulapack_version (preloaded or linked, whatever comes first in
 * the lookup order); NULL when it is not loaded. */
static void *gpulapack_handle;
static pthread_once_t gpulapack_once = PTHREAD_ONCE_INIT;

static void gpulapack_find(void)
{
    void *f = sym("gpulapack_version");
    Dl_info info;
    if (f && dladdr(f, &info) && info.dli_fname)
        gpulapack_handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
}

void *gls_lapack(const char *name)
{
    pthread_once(&gpulapack_once, gpulapack_find);
    return gpulapack_handle ? dlsym(gpulapack_handle, name) : NULL;
}

/* ---- pxerbla_: muted during our workspace queries ---------------------- */

/* The real routine's query prints its argument errors through PXERBLA;
 * the query we make to learn its workspace must not, so our pxerbla_
 * (ScaLAPACK calls it through the PLT, so the preloaded one wins) says
 * nothing while the calling thread's query runs.  Per thread: ScaLAPACK
 * may be called from several threads with MPI_THREAD_MULTIPLE. */
static __thread int muted;

typedef void (*pxerbla_fn)(const int *, const char *, const int *, size_t);

GLS_API void pxerbla_(const int *ictxt, const char *srname, const int *info,
                      size_t len)
{
    if (muted)
        return;
    pxerbla_fn real = (pxerbla_fn)gls_real("pxerbla_");
    if (real)
        real(ictxt, srname, info, len);
}

void gls_mute(int on)
{
    muted = on;
}

/* ScaLAPACK's calls reach our pxerbla_ only when it comes first in the
 * lookup order (LD_PRELOAD, or linked before ScaLAPACK). */
static int pxerbla_ours(void)
{
    return sym("pxerbla_") == (void *)pxerbla_;
}

/* ---- one call -------------------------------------------------------- */

double gls_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int gls_begin(gls_call *c, const char *routine, int prec, const int *desca,
              int size, int is_svd)
{
    const gls_config *cfg = gls_config_get();
    memset(c, 0, sizeof *c);
    c->routine = routine;
    c->prec = prec;
    c->ctx1 = -1;
    c->start = gls_now();
    c->b = gls_blacs_get();
    c->nprow = -1;
    if (!c->b)
        return GLS_SYMBOLS;
    c->ictxt = desca[1];
    c->b->gridinfo(&c->ictxt, &c->nprow, &c->npcol, &c->myrow, &c->mycol);
    c->root = c->nprow > 0 && c->myrow == 0 && c->mycol == 0;
    if (c->nprow < 1)
        return GLS_GRID;
    if (cfg->mode == GLS_MODE_OFF)
        return GLS_OFF;
    if (size < 1 || size < (is_svd ? cfg->min_n_svd : cfg->min_n_eig))
        return GLS_SIZE;
    if (!pxerbla_ours())
        return GLS_PXERBLA;
    return GLS_GATHER;
}

double gls_memory_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[128];
    double kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            break;
    fclose(f);
    return 0.75 * kb * 1024.0;
}

int gls_root_check(gls_call *c, const char *jobs, int m, int n, int count)
{
    typedef int plan_fn(const char *, const char *, long long, long long,
                        long long, gpulapack_call_plan *);
    plan_fn *plan = (plan_fn *)gls_lapack("gpulapack_plan_call");
    if (!plan)
        return GLS_NO_GPULAPACK;
    /* what libgpulapack.so would do with the gathered call: its
     * crossover, device, and the call's memory plan against the device's
     * free memory */
    gpulapack_call_plan p;
    if (!plan(c->lapack, jobs, m, n, count, &p))
        return GLS_OPTION;
    snprintf(c->lib_plan, sizeof c->lib_plan, "%s", p.plan);
    /* a GPU path: any but the host's and LAPACK's (include/gpulapack.h) */
    int gpu = strcmp(p.path, "host") != 0 && strcmp(p.path, "lapack") != 0;
    if (gpu || (gls_config_get()->mode == GLS_MODE_ANY &&
                strcmp(p.path, "lapack")))
        return GLS_GATHER;
    /* the library's own reason: its crossover, the device missing, the
     * call's plan over the device's free memory; or the host path */
    snprintf(c->detail, sizeof c->detail, "%s",
             strcmp(p.path, "lapack") ? p.path : p.reason);
    return gls_config_get()->mode == GLS_MODE_GPU ? GLS_NO_GPU : GLS_LAPACK;
}

int gls_memory_check(double bytes)
{
    return bytes > gls_memory_available() ? GLS_MEMORY : GLS_GATHER;
}

int gls_vote(gls_call *c, int reason)
{
    int v = reason, one = 1, none = -1, ra = 0, ca = 0;
    c->b->igamx2d(&c->ictxt, "All", " ", &one, &one, &v, &one, &ra, &ca,
                  &none, &none, &none);
    return v;
}

/* The 1x1 context: from the system context the grid's own communicator
 * gives (BLACS_GET 10, as ScaLAPACK's pdstebz makes its 1-D context), so
 * that only the grid's processes take part, whatever the communicator. */
void gls_grid1(gls_call *c)
{
    int ten = 10, zero = 0, one = 1, sys = -1;
    c->b->get(&c->ictxt, &ten, &sys);
    int map = c->b->pnum(&c->ictxt, &zero, &zero);
    c->b->gridmap(&sys, &map, &one, &one, &one);
    c->ctx1 = c->root ? sys : -1;
}

void gls_grid1_end(gls_call *c)
{
    if (c->ctx1 >= 0)
        c->b->gridexit(&c->ctx1);
    c->ctx1 = -1;
}

void gls_desc1(const gls_call *c, int *desc, int m, int n)
{
    desc[0] = 1;
    desc[1] = c->ctx1;
    desc[2] = m;
    desc[3] = n;
    desc[4] = m > 0 ? m : 1;
    desc[5] = n > 0 ? n : 1;
    desc[6] = 0;
    desc[7] = 0;
    desc[8] = m > 0 ? m : 1;
}

void gls_move(const gls_call *c, int m, int n, const void *a, int ia, int ja,
              const int *desca, void *b, int ib, int jb, const int *descb)
{
    if (m < 1 || n < 1)
        return;
    c->b->gemr2d[c->prec](&m, &n, a, &ia, &ja, desca, b, &ib, &jb, descb,
                          &c->ictxt);
}

void gls_bcast(const gls_call *c, double *buf, int len)
{
    int one = 1, zero = 0;
    if (c->root)
        c->b->dgebs2d(&c->ictxt, "All", " ", &len, &one, buf, &len);
    else
        c->b->dgebr2d(&c->ictxt, "All", " ", &len, &one, buf, &len, &zero,
                      &zero);
}

/* Which path libgpulapack.so took: its last-timing record of this thread
 * changes only when a call ran on one of its paths. */
static gpulapack_timing mark;
static int mark_had;

void gls_lib_mark(gls_call *c)
{
    int (*last)(gpulapack_timing *) =
        (int (*)(gpulapack_timing *))gls_lapack("gpulapack_last_timing");
    memset(&mark, 0, sizeof mark);
    mark_had = last ? last(&mark) : 0;
    snprintf(c->lib_path, sizeof c->lib_path, "%s", last ? "lapack" : "?");
}

void gls_lib_note(gls_call *c)
{
    int (*last)(gpulapack_timing *) =
        (int (*)(gpulapack_timing *))gls_lapack("gpulapack_last_timing");
    gpulapack_timing now;
    memset(&now, 0, sizeof now);
    if (last && last(&now) && (!mark_had || memcmp(&now, &mark, sizeof now)))
        snprintf(c->lib_path, sizeof c->lib_path, "%s", now.path);
}

static const char *const reason_names[GLS_NREASONS] = {
    "gather", "query", "off", "size", "grid", "symbols", "pxerbla", "args",
    "option", "workspace", "no-gpulapack", "lapack", "no-gpu", "memory",
    "solve-info"};

const char *gls_reason_name(int reason)
{
    return reason >= 0 && reason < GLS_NREASONS ? reason_names[reason] : "?";
}

static void log_line(const char *fmt, ...)
{
    char line[512];
    int len = snprintf(line, sizeof line, "gpulapack: ");
    va_list ap;
    va_start(ap, fmt);
    len += vsnprintf(line + len, sizeof line - (size_t)len - 1, fmt, ap);
    va_end(ap);
    if (len > (int)sizeof line - 2)
        len = (int)sizeof line - 2;
    line[len++] = '\n';
    const char *p = line;
    while (len > 0) {
        ssize_t w = write(gls_config_get()->log_fd, p, (size_t)len);
        if (w <= 0)
            break;
        p += w;
        len -= (int)w;
    }
}

void gls_log(const gls_call *c, int reason, int info)
{
    const gls_config *cfg = gls_config_get();
    int level = reason == GLS_QUERY ? 2 : 1;
    if (cfg->verbose < level || !c->root)
        return;
    double t = gls_now() - c->start;
    if (reason == GLS_GATHER) {
        log_line("%s %s grid=%dx%d path=gather lapack=%s lib=%s%s%s info=%d "
                 "time=%.6fs gather=%.6fs solve=%.6fs scatter=%.6fs",
                 c->routine, c->options, c->nprow, c->npcol, c->lapack,
                 c->lib_path, c->lib_plan[0] ? " plan=" : "", c->lib_plan,
                 info, t, c->t_gather, c->t_solve, c->t_scatter);
        return;
    }
    char detail[96] = "";
    if (reason == GLS_SIZE)
        snprintf(detail, sizeof detail, " %d",
                 strstr(c->routine, "gesvd") ? cfg->min_n_svd : cfg->min_n_eig);
    else if (c->detail[0])
        snprintf(detail, sizeof detail, " %s", c->detail);
    log_line("%s %s grid=%dx%d path=forward reason=%s%s info=%d time=%.6fs",
             c->routine, c->options, c->nprow, c->npcol,
             gls_reason_name(reason), detail, info, t);
}
