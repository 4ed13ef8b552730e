#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "config.h"
#include "context.h"
#include "device.h"
#include "gpu.h"
#include "log.h"
#include "tune.h"

/* Crossovers of the host path against Debian's OpenBLAS 0.3.21 (SkylakeX
 * kernels, 2 cores), from `make bench` (docs/performance.md): below these
 * sizes the system LAPACK was faster on one of the machines measured (the
 * Zen 5 of epyc-zen5-2core, whose OpenBLAS is relatively faster, raised the
 * real symmetric values' and the complex Hermitian vectors' ones; first
 * calls on it, docs/history.md, "Crossovers with vectors, as of that day",
 * raised ?gesdd's with vectors); NEVER where it was faster at every size
 * measured.  Keyed by the routine name without its precision letter; one
 * column for values only, one for jobs with vectors (or Q, P). */
#define NEVER LONG_MAX

typedef struct crossover {
    const char *family;
    long values, vectors;
} crossover;

static const crossover host_2core[] = {
    {"gesdd", 768, 2250},          {"gesvd", 768, 200},
    {"gbbrd", 256, NEVER},         {"sytrd", NEVER, NEVER},
    {"syev", 2500, NEVER},         {"syevd", 2500, NEVER},
    {"syevr", 2500, NEVER},        {"syevx", 2500, NEVER},
    {"heev", 1000, 1200},          {"heevd", 1000, 1200},
    {"heevr", 1000, 1200},         {"heevx", 1000, 1200},
    {"syev_2stage", 2500, NEVER},  {"syevd_2stage", 2500, NEVER},
    {"syevr_2stage", 2500, NEVER}, {"syevx_2stage", 2500, NEVER},
    {"sytrd_2stage", 2500, NEVER}, {"heev_2stage", 1000, NEVER},
    {"heevd_2stage", 1000, NEVER}, {"heevr_2stage", 1000, NEVER},
    {"heevx_2stage", 1000, NEVER}, {"hetrd_2stage", 1000, NEVER},
    {"hetrd", NEVER, NEVER},       {"sbtrd", 768, NEVER},
    {"hbtrd", 768, NEVER},         {"sbev", 768, NEVER},
    {"hbev", 768, NEVER},          {"sbevd", 768, NEVER},
    {"hbevd", 768, NEVER},
};

/* Hosts with 8 CPUs or more: the 16-core Xeon of the H200 machine against
 * its OpenBLAS with 16 threads (docs/history.md, "The tables of 66c88ab
 * (moved from performance.md)": crossover-host.csv, n = 1024, 2048, 4096,
 * interpolated): dsyevd N crosses at about 2550, dsyevd V never
 * (0.74-0.90x), dgesdd N below 1024 (1.70x there), dgesdd S at about
 * 2150.  These agree with the 2-core figures within 5%: both sides use
 * every core, so the ratio hardly moves.  The families not measured there
 * keep the 2-core figures. */
static const crossover host_many_core[] = {
    {"gesdd", 768, 2150}, {"syevd", 2500, NEVER},
};

/* Our GPU paths against the better of the host's LAPACK and our host path
 * on the same machine: NVIDIA H200 against the 16-core Xeon above
 * (cross-cuda.csv and cross-host.csv, one call per case, interpolated on
 * the log of the sizes): dsyevd N about 1490, dsyevd V 1210, dgesdd N
 * 1555 (our host path is faster than LAPACK there; the GPU passes it at
 * about 1555), dgesdd S 1245.  The siblings with the same stages 1 and 2
 * take the same figures (?gesvd from ?gesdd, ?syev/?syevr/?syevx and the
 * complex Hermitian ones from ?syevd; single and complex precisions from
 * double: not measured).  ?sytrd, ?hetrd and the band routines are not
 * measured on a GPU: never under auto.  HIP and OpenCL GPUs take the
 * same table until gpulapack-tune measures them. */
static const crossover gpu_h200[] = {
    {"gesdd", 1550, 1250},         {"gesvd", 1550, 1250},
    {"syev", 1500, 1200},          {"syevd", 1500, 1200},
    {"syevr", 1500, 1200},         {"syevx", 1500, 1200},
    {"heev", 1500, 1200},          {"heevd", 1500, 1200},
    {"heevr", 1500, 1200},         {"heevx", 1500, 1200},
    {"syev_2stage", 1500, 1200},   {"syevd_2stage", 1500, 1200},
    {"syevr_2stage", 1500, 1200},  {"syevx_2stage", 1500, 1200},
    {"heev_2stage", 1500, 1200},   {"heevd_2stage", 1500, 1200},
    {"heevr_2stage", 1500, 1200},  {"heevx_2stage", 1500, 1200},
};

/* For routines without a measurement: every published offload runtime
 * (MAGMA n <= 128, oneMKL n <= 256) keeps n < 512 on the CPU LAPACK. */
#define GL_DEFAULT_MIN_N 512

#define COUNT(t) (sizeof t / sizeof t[0])

static const crossover *find(const crossover *table, size_t n,
                             const char *family)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(family, table[i].family) == 0)
            return &table[i];
    return NULL;
}

static int cpu_count(void)
{
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 0)
        return CPU_COUNT(&cpus);
    return 1;
}

static long builtin_host(const char *family, int vectors)
{
    const crossover *c = cpu_count() >= 8
                             ? find(host_many_core, COUNT(host_many_core), family)
                             : NULL;
    if (!c)
        c = find(host_2core, COUNT(host_2core), family);
    return !c ? GL_DEFAULT_MIN_N : vectors ? c->vectors : c->values;
}

static long builtin_gpu(const char *family, int vectors)
{
    const crossover *c = find(gpu_h200, COUNT(gpu_h200), family);
    return !c ? NEVER : vectors ? c->vectors : c->values;
}

/* ---- the tune file (gpulapack-tune) --------------------------------------
 *
 *   gpulapack-tune 1 host=<cpu model>/<cpus> [gpu=<path>:<device>/<bytes>]...
 *   <family> <N|V> <s|d|c|z> <host|cuda|hip|opencl> <n|never>
 *   method <family> <N|V> <s|d|c|z> <cuda|hip|opencl> <n> <two-stage|one-stage|vendor>
 *   devices <family> <N|V> <s|d|c|z> <cuda|hip|opencl> <count> <n|never>
 *   rates <cuda|hip|opencl> <FP64 GEMM GFLOP/s> <GB/s up> <GB/s down>
 *
 * A method line: from size n on (up to the next method line of the same
 * case), the GPU path solves the family's calls by that method
 * (gl_tune_method); a case with method lines takes none of the built-in
 * ones.
 * A devices line: from size n on, a set of `count` devices of the path
 * (the chosen one and the next GPUs) ran the family's calls faster than
 * the chosen device alone (gl_tune_devices); none: one device.
 * A rates line: the device's measured FP64 GEMM rate and bus rates, from
 * which the streamed plan takes the band of its passes (gl_tuning's
 * ooc_wide_band).
 * Names with their blanks as '_'.  The file is read once per process, on
 * the first call that asks for a crossover.  One written on another host
 * (CPU model or CPU count) or malformed is ignored whole; the lines of a
 * GPU path whose device is not the one written are ignored (the built-in
 * GPU figures apply), each with a log line. */
enum { MAX_ENTRIES = 512, MAX_GPUS = 4 };
typedef struct entry {
    char family[24];
    char job, precision;
    char path[8];
    long n;        /* the crossover, or a method line's first size */
    int method;    /* -1: a crossover line; else a method line's gl_method */
    int devices;   /* a devices line's count; 0: another line */
} entry;
static entry entries[MAX_ENTRIES];
static int nentries;
static struct {
    char path[8];
    char identity[160];
    int checked, matches;   /* against the device chosen for path */
} gpus[MAX_GPUS];
static int ngpus;
static struct {
    char path[8];
    double gflops, up, down;
} rates[MAX_GPUS];
static int nrates;
static char source[4700] = "built-in";
static pthread_once_t file_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t gpu_check_lock = PTHREAD_MUTEX_INITIALIZER;

/* blanks and '/' (the separator of the identity) turned into '_' */
static void append_name(char *out, size_t size, const char *name)
{
    size_t used = strlen(out);
    for (const char *p = name; *p && used + 1 < size; p++)
        out[used++] = (*p == ' ' || *p == '\t' || *p == '/' || *p == '=')
                          ? '_' : *p;
    out[used] = 0;
}

void gl_tune_host_identity(char *out, size_t size)
{
    char model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "re");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *v = strchr(line, ':');
        if (!v)
            break;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        snprintf(model, sizeof model, "%s", v);
        model[strcspn(model, "\n")] = 0;
        /* trailing blanks */
        for (size_t k = strlen(model); k > 0 && model[k - 1] == ' '; k--)
            model[k - 1] = 0;
        break;
    }
    if (f)
        fclose(f);
    out[0] = 0;
    append_name(out, size, model);
    size_t used = strlen(out);
    snprintf(out + used, size - used, "/%d", cpu_count());
}

void gl_tune_device_identity(const gl_gpu_device_info *info, char *out,
                             size_t size)
{
    out[0] = 0;
    append_name(out, size, info->name);
    size_t used = strlen(out);
    if (info->gpu)
        snprintf(out + used, size - used, "/%llu", info->memory);
    else   /* PoCL reports a share of the host's free memory, which moves */
        snprintf(out + used, size - used, "/%ucu", info->compute_units);
}

int gl_tune_default_file(char *out, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int len = xdg && xdg[0] == '/'
                  ? snprintf(out, size, "%s/gpulapack/tune.txt", xdg)
              : home && *home
                  ? snprintf(out, size, "%s/.cache/gpulapack/tune.txt", home)
                  : -1;
    return len > 0 && (size_t)len < size ? 0 : -1;
}

const char *gl_tune_file_name(char *out, size_t size)
{
    const char *named = gl_config_get()->tune_file;
    if (named) {
        snprintf(out, size, "%s", named);
        return out;
    }
    return gl_tune_default_file(out, size) == 0 ? out : NULL;
}

/* A backend's name (backend.h) that fits an entry's path. */
static int valid_path(const char *path)
{
    return gl_backend_named(path) && strlen(path) < sizeof entries[0].path;
}

static const char *const method_names[] = {"two-stage", "one-stage",
                                            "vendor"};

const char *gl_tune_method_name(int method)
{
    return method >= 0 && method < (int)COUNT(method_names)
               ? method_names[method]
               : "?";
}

int gl_tune_method_named(const char *name)
{
    for (int m = 0; m < (int)COUNT(method_names); m++)
        if (strcmp(name, method_names[m]) == 0)
            return m;
    return -1;
}

/* path is a GPU of the header, or host where host_ok. */
static int path_known(const char *path, int host_ok)
{
    int known = host_ok && strcmp(path, "host") == 0;
    for (int g = 0; g < ngpus; g++)
        known |= strcmp(gpus[g].path, path) == 0;
    return known;
}

/* The entry of line number, after the checks every line shares (the
 * family's length, job N or V, precision s/d/c/z, a path the header
 * names, or host where host_ok); ok: the line's own fields passed (the
 * others are read only then).  0, or -1 with why. */
static int add_entry(int ok, const char *family, const char *job,
                     const char *prec, const char *path, int host_ok, long n,
                     int method, int number, char *why, size_t why_size)
{
    if (!ok || strlen(family) >= sizeof entries[0].family ||
        (strcmp(job, "N") != 0 && strcmp(job, "V") != 0) ||
        strlen(prec) != 1 || !strchr("sdcz", prec[0]) || !valid_path(path) ||
        !path_known(path, host_ok)) {
        snprintf(why, why_size, "line %d malformed", number);
        return -1;
    }
    if (nentries == MAX_ENTRIES) {
        snprintf(why, why_size, "more than %d lines", MAX_ENTRIES);
        return -1;
    }
    entry *e = &entries[nentries++];
    memcpy(e->family, family, strlen(family) + 1);   /* checked above */
    e->job = job[0];
    e->precision = prec[0];
    memcpy(e->path, path, strlen(path) + 1);   /* a valid_path name */
    e->n = n;
    e->method = method;
    e->devices = 0;
    return 0;
}

/* "method <family> <N|V> <s|d|c|z> <gpu path> <n> <method>" of a GPU
 * named in the header; 0, or -1 with why. */
static int parse_method_line(const char *line, int number, char *why,
                             size_t why_size)
{
    char family[64], job[8], prec[8], path[16], value[32], name[16],
        extra[8];
    int fields = sscanf(line, "method %63s %7s %7s %15s %31s %15s %7s", family,
                        job, prec, path, value, name, extra);
    char *end = NULL;
    long n = fields >= 5 ? strtol(value, &end, 10) : -1;
    int method = fields == 6 ? gl_tune_method_named(name) : -1;
    return add_entry(fields == 6 && end && !*end && n >= 0 && method >= 0,
                     family, job, prec, path, 0, n, method, number, why,
                     why_size);
}

/* "devices <family> <N|V> <s|d|c|z> <gpu path> <count> <n|never>" of a
 * GPU named in the header; 0, or -1 with why. */
static int parse_devices_line(const char *line, int number, char *why,
                              size_t why_size)
{
    char family[64], job[8], prec[8], path[16], value[32], extra[8];
    int count = 0;
    int fields = sscanf(line, "devices %63s %7s %7s %15s %d %31s %7s", family,
                        job, prec, path, &count, value, extra);
    char *end = NULL;
    long n = fields < 6                        ? -1
             : strcmp(value, "never") == 0 ? NEVER
                                               : strtol(value, &end, 10);
    int ok = fields == 6 && count >= 2 && count <= GL_MAX_DEVICE_SET &&
             (n == NEVER || (end && !*end && n >= 0));
    if (add_entry(ok, family, job, prec, path, 0, n, -1, number, why,
                  why_size))
        return -1;
    entries[nentries - 1].devices = count;
    return 0;
}

/* "rates <gpu path> <GFLOP/s> <GB/s up> <GB/s down>" of a GPU named in
 * the header; 0, or -1 with why. */
static int parse_rates_line(const char *line, int number, char *why,
                            size_t why_size)
{
    char path[8], extra[8];
    double gflops = 0, up = 0, down = 0;
    int fields = sscanf(line, "rates %7s %lf %lf %lf %7s", path, &gflops,
                        &up, &down, extra);
    int named = 0;
    for (int g = 0; fields >= 1 && g < ngpus; g++)
        named |= strcmp(gpus[g].path, path) == 0;
    if (fields != 4 || !named || !(gflops > 0) || !(up > 0) || !(down > 0) ||
        nrates == MAX_GPUS) {
        snprintf(why, why_size, "line %d: bad rates line", number);
        return -1;
    }
    memcpy(rates[nrates].path, path, sizeof path);
    rates[nrates].gflops = gflops;
    rates[nrates].up = up;
    rates[nrates].down = down;
    nrates++;
    return 0;
}

/* "host-threads <chase|values> <n> <threads>": the host's stage 2 or
 * values-only stage 3 of order n and more ran fastest on that many
 * threads (gpulapack-tune); the most a call of that size takes. */
#define MAX_HOST_THREAD_LINES 16
static struct {
    int values;
    long n;
    int threads;
} host_thread_lines[MAX_HOST_THREAD_LINES];
static int nhost_thread_lines;

static int parse_host_threads_line(const char *line, int number, char *why,
                                   size_t why_size)
{
    char stage[8], extra[8];
    long n = -1, threads = 0;
    int fields = sscanf(line, "host-threads %7s %ld %ld %7s", stage, &n,
                        &threads, extra);
    int values = fields >= 1 && strcmp(stage, "values") == 0;
    if (fields != 3 || (!values && strcmp(stage, "chase") != 0) || n < 0 ||
        threads < 1 || threads > 64 ||
        nhost_thread_lines == MAX_HOST_THREAD_LINES) {
        snprintf(why, why_size, "line %d: bad host-threads line", number);
        return -1;
    }
    host_thread_lines[nhost_thread_lines].values = values;
    host_thread_lines[nhost_thread_lines].n = n;
    host_thread_lines[nhost_thread_lines].threads = (int)threads;
    nhost_thread_lines++;
    return 0;
}

/* Parses the file; 0, or -1 with why (the caller logs it). */
static int parse_file(FILE *f, char *why, size_t why_size)
{
    char line[1024], host[200];
    gl_tune_host_identity(host, sizeof host);
    if (!fgets(line, sizeof line, f)) {
        snprintf(why, why_size, "empty");
        return -1;
    }
    char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
    if (!tok || strcmp(tok, "gpulapack-tune") != 0) {
        snprintf(why, why_size, "no gpulapack-tune header");
        return -1;
    }
    tok = strtok_r(NULL, " \t\r\n", &save);
    if (!tok || strcmp(tok, "1") != 0) {
        snprintf(why, why_size, "version %s, not 1", tok ? tok : "missing");
        return -1;
    }
    int host_seen = 0;
    while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
        if (strncmp(tok, "host=", 5) == 0) {
            if (strcmp(tok + 5, host) != 0) {
                snprintf(why, why_size, "written for host %s, this is %s",
                         tok + 5, host);
                return -1;
            }
            host_seen = 1;
        } else if (strncmp(tok, "gpu=", 4) == 0 && ngpus < MAX_GPUS) {
            const char *colon = strchr(tok + 4, ':');
            size_t len = colon ? (size_t)(colon - (tok + 4)) : 0;
            if (!colon || len >= sizeof gpus[0].path) {
                snprintf(why, why_size, "bad header field %s", tok);
                return -1;
            }
            memcpy(gpus[ngpus].path, tok + 4, len);
            gpus[ngpus].path[len] = 0;
            snprintf(gpus[ngpus].identity, sizeof gpus[0].identity, "%s",
                     colon + 1);
            if (!valid_path(gpus[ngpus].path) ||
                strcmp(gpus[ngpus].path, "host") == 0) {
                snprintf(why, why_size, "bad header field %s", tok);
                return -1;
            }
            ngpus++;
        } else {
            snprintf(why, why_size, "bad header field %s", tok);
            return -1;
        }
    }
    if (!host_seen) {
        snprintf(why, why_size, "no host= in the header");
        return -1;
    }
    for (int number = 2; fgets(line, sizeof line, f); number++) {
        char family[64], job[8], prec[8], path[16], value[32], extra[8];
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        int fields = sscanf(line, "%63s %7s %7s %15s %31s %7s", family, job,
                            prec, path, value, extra);
        if (fields <= 0)
            continue;
        if (strcmp(family, "method") == 0) {
            if (parse_method_line(line, number, why, why_size))
                return -1;
            continue;
        }
        if (strcmp(family, "devices") == 0) {
            if (parse_devices_line(line, number, why, why_size))
                return -1;
            continue;
        }
        if (strcmp(family, "rates") == 0) {
            if (parse_rates_line(line, number, why, why_size))
                return -1;
            continue;
        }
        if (strcmp(family, "host-threads") == 0) {
            if (parse_host_threads_line(line, number, why, why_size))
                return -1;
            continue;
        }
        char *end = NULL;
        long n = fields < 5                     ? -1
                 : strcmp(value, "never") == 0 ? NEVER
                                               : strtol(value, &end, 10);
        if (add_entry(fields == 5 && (n == NEVER || (end && !*end && n >= 0)),
                      family, job, prec, path, 1, n, -1, number, why,
                      why_size))
            return -1;
    }
    return 0;
}

static void read_file(void)
{
    char name[4096];
    if (!gl_tune_file_name(name, sizeof name))
        return;
    FILE *f = fopen(name, "re");
    if (!f) {
        /* the default file is absent unless gpulapack-tune ran */
        gl_log(gl_config_get()->tune_file ? 1 : 2,
               "tune file %s: not readable; the built-in crossovers apply",
               name);
        snprintf(source, sizeof source, "built-in (%s: not readable)", name);
        return;
    }
    char why[512];
    int rc = parse_file(f, why, sizeof why);
    fclose(f);
    if (rc != 0) {
        nentries = 0;
        nrates = 0;
        ngpus = 0;
        nhost_thread_lines = 0;
        gl_log(1, "tune file %s: %s: ignored; the built-in crossovers apply",
               name, why);
        snprintf(source, sizeof source, "built-in (%s ignored: %s)", name, why);
        return;
    }
    snprintf(source, sizeof source, "%s", name);
    gl_log(2, "tune file %s: %d crossovers", name, nentries);
}

static void file_ready(void) { pthread_once(&file_once, read_file); }

const char *gl_tune_source(void)
{
    file_ready();
    return source;
}

/* The GPU path of a name; GL_PATH_LAPACK if none. */
static gl_path path_named(const char *name)
{
    const gl_backend *b = gl_backend_named(name);
    return b && gl_backend_is_gpu(b) ? b->path : GL_PATH_LAPACK;
}

/* The file's lines of a GPU path apply only to the device they were
 * measured on: checked once per path, against the device chosen. */
static int gpu_lines_apply(const char *path)
{
    for (int g = 0; g < ngpus; g++) {
        if (strcmp(gpus[g].path, path) != 0)
            continue;
        pthread_mutex_lock(&gpu_check_lock);
        if (!gpus[g].checked) {
            const gl_gpu_device_info *info = gl_device_chosen(path_named(path));
            char here[160] = "none";
            if (info)
                gl_tune_device_identity(info, here, sizeof here);
            gpus[g].matches = strcmp(here, gpus[g].identity) == 0;
            if (!gpus[g].matches)
                gl_log(1, "tune file %s: its %s lines are for %s, this %s "
                          "device is %s: ignored; the built-in GPU "
                          "crossovers apply",
                       source, path, gpus[g].identity, path, here);
            gpus[g].checked = 1;
        }
        int matches = gpus[g].matches;
        pthread_mutex_unlock(&gpu_check_lock);
        return matches;
    }
    return 0;
}

/* The family gpulapack-tune measures for a routine's family: the
 * siblings with the same stages 1 and 2 share its figures, as in the
 * built-in tables. */
static const char *measured_family(const char *family)
{
    static const char *const map[][2] = {
        {"gesvd", "gesdd"}, {"syev", "syevd"}, {"syevr", "syevd"},
        {"syevx", "syevd"}, {"heev", "heevd"}, {"heevr", "heevd"},
        {"heevx", "heevd"}};
    char base[24];
    snprintf(base, sizeof base, "%s", family);
    char *two = strstr(base, "_2stage");
    if (two)
        *two = 0;
    for (size_t i = 0; i < COUNT(map); i++)
        if (strcmp(base, map[i][0]) == 0)
            return map[i][1];
    return strcmp(base, "syevd") == 0 ? "syevd"
           : strcmp(base, "heevd") == 0 ? "heevd" : family;
}

static const entry *file_entry(const char *routine, int vectors,
                               const char *path)
{
    file_ready();
    const char *names[2] = {routine + 1, measured_family(routine + 1)};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < nentries; i++) {
            const entry *e = &entries[i];
            if (e->method < 0 && e->devices == 0 &&
                e->precision == routine[0] &&
                e->job == (vectors ? 'V' : 'N') &&
                strcmp(e->family, names[k]) == 0 &&
                strcmp(e->path, path) == 0)
                return e;
        }
    return NULL;
}

long gl_tune_crossover(const char *routine, int vectors, const char *path)
{
    int host = strcmp(path, "host") == 0;
    const entry *e = file_entry(routine, vectors, path);
    if (e && (host || gpu_lines_apply(path)))
        return e->n;
    return host ? builtin_host(routine + 1, vectors)
                : builtin_gpu(routine + 1, vectors);
}

long gl_tune_gpu_floor(const char *routine, int vectors)
{
    long floor = builtin_gpu(routine + 1, vectors);
    for (int b = 0; b < GL_NBACKENDS; b++) {
        if (!gl_backend_is_gpu(&gl_backends[b]))
            continue;
        const entry *e = file_entry(routine, vectors, gl_backends[b].name);
        if (e && e->n < floor)
            floor = e->n;
    }
    return floor;
}

long gl_tune_min_n(const char *routine, int vectors)
{
    return gl_tune_crossover(routine, vectors, "host");
}

long gl_tune_builtin(const char *routine, int vectors, const char *path)
{
    return strcmp(path, "host") == 0 ? builtin_host(routine + 1, vectors)
                                     : builtin_gpu(routine + 1, vectors);
}

/* No built-in sets: one device until gpulapack-tune measured a set
 * faster on this machine.  The line of the largest count that is not
 * larger than the set decides. */
int gl_tune_devices(const char *routine, int vectors, const char *path,
                    int count, long n)
{
    file_ready();
    const char *family = measured_family(routine + 1);
    const entry *best = NULL;
    for (int i = 0; i < nentries; i++) {
        const entry *e = &entries[i];
        if (e->devices >= 2 && e->devices <= count &&
            e->precision == routine[0] && e->job == (vectors ? 'V' : 'N') &&
            (strcmp(e->family, routine + 1) == 0 ||
             strcmp(e->family, family) == 0) &&
            strcmp(e->path, path) == 0 &&
            (!best || e->devices > best->devices))
            best = e;
    }
    if (!best || best->n == NEVER || n < best->n || !gpu_lines_apply(path))
        return 1;
    return best->devices;
}

/* The built-in methods of the GPU paths (docs/design/methods.md).
 *
 * Measured: our two-stage path against the vendor's solver
 * (cusolverDnXsyevd, compute only, the same matrices) on the H200, the
 * last measurement of each case -- these rows are the data; the CSVs
 * named beside them hold the whole runs.  Where a row of the call's
 * precision and job exists on its path, the one of the largest n not
 * above the call's (else the smallest) decides: the vendor's solver
 * where it was faster (the policy falls back where no solver is found).
 * The complex family and HIP were not measured.
 *
 * Counted, where nothing was measured: the one-stage reduction below
 * ONE_STAGE_BELOW for the ?syev family, values and vectors, on CUDA and
 * HIP; the two-stage reduction from there on and on OpenCL, whose
 * launches cost more (the one-stage makes 13 per column, the two-stage
 * about 4).  Per column, the one-stage reduction costs about 13
 * dependent launches (3-4 us each) and its ?hemv's n^2/6 elements read
 * (8n^2/6 bytes at 2.5 TB/s), the two-stage about 3 chase steps (16 us
 * each on the H200, tasks kernel) and 1 launch of stage 1: about even
 * below 2048, where the one-stage's fewer fixed costs (no band, no chase
 * store, one host wait instead of two) decide; above, the ?hemv's bytes
 * grow as n^2 per column and the two-stage's flops run on the tensor
 * cores. */
enum { ONE_STAGE_BELOW = 2048 };

static const struct vendor_measurement {
    const char *path;
    char precision, job;
    long n;
    double ours_s, vendor_s;
    const char *csv;   /* docs/data/h200-2026-11-26-<csv>.csv */
} vendor_measured[] = {
    {"cuda", 'd', 'N', 4096, 0.471413, 0.100705, "values-0a0251d"},
    {"cuda", 'd', 'N', 8192, 1.030805, 0.508261, "values-0a0251d"},
    {"cuda", 'd', 'N', 16384, 2.349869, 2.852443, "values-0a0251d"},
    {"cuda", 'd', 'N', 32768, 7.744941, 19.241142, "bench-32768"},
    {"cuda", 'd', 'V', 4096, 1.229372, 0.108343, "bench-4096"},
    {"cuda", 'd', 'V', 8192, 1.324975, 0.561295, "vectors-472a31b"},
    {"cuda", 'd', 'V', 16384, 9.915309, 3.197671, "vectors-f172127"},
    {"cuda", 's', 'N', 8192, 1.017564, 0.447069, "bench-fp32-8192"},
    {"cuda", 's', 'V', 8192, 1.140067, 0.484813, "vectors-472a31b"},
};
#define VENDOR_MEASURED_ON "h200-2026-11-26"

/* The measured row deciding a ?syev-family call (precision, job) of size
 * n on path, NULL where none was measured. */
static const struct vendor_measurement *measured_row(char precision,
                                                     char job,
                                                     const char *path, long n)
{
    const struct vendor_measurement *below = NULL, *smallest = NULL;
    for (size_t i = 0; i < COUNT(vendor_measured); i++) {
        const struct vendor_measurement *m = &vendor_measured[i];
        if (m->precision != precision || m->job != job ||
            strcmp(m->path, path) != 0)
            continue;
        if (m->n <= n && (!below || m->n > below->n))
            below = m;
        if (!smallest || m->n < smallest->n)
            smallest = m;
    }
    return below ? below : smallest;
}

int gl_tune_method(const char *routine, int vectors, const char *path,
                   long n, const char **source)
{
    file_ready();
    const char *family = measured_family(routine + 1);
    long best_from = -1;
    int method = -1;
    for (int i = 0; i < nentries; i++) {
        const entry *e = &entries[i];
        if (e->method >= 0 && e->precision == routine[0] &&
            e->job == (vectors ? 'V' : 'N') &&
            (strcmp(e->family, routine + 1) == 0 ||
             strcmp(e->family, family) == 0) &&
            strcmp(e->path, path) == 0 && e->n <= n && e->n > best_from) {
            best_from = e->n;
            method = e->method;
        }
    }
    if (source)
        *source = NULL;
    if (method >= 0 && gpu_lines_apply(path))
        return method;
    int eig = strcmp(family, "syevd") == 0 || strcmp(family, "heevd") == 0;
    const struct vendor_measurement *m =
        eig ? measured_row(routine[0], vectors ? 'V' : 'N', path, n) : NULL;
    if (m && m->vendor_s < m->ours_s) {
        if (source)
            *source = VENDOR_MEASURED_ON;
        return GL_METHOD_VENDOR;
    }
    int cudalike = strcmp(path, "cuda") == 0 || strcmp(path, "hip") == 0;
    return eig && cudalike && n < ONE_STAGE_BELOW ? 1 : 0;
}

/* A wider band makes stage 1's products faster and the chase, which is
 * memory-bound, slower.  On the host, values only (2 cores of
 * epyc-zen5-2core, docs/history.md, "kept work arrays, a smaller SVD
 * footprint, the band and crossovers on Zen 5 (`epyc-zen5-2core`)", "The
 * band for values only"): 32 was faster up to n = 3000 (dsyevd N 0.17 s
 * against 0.20 at 2000, dgesdd N 0.83 against 0.89 at 3000), 64 at 4000
 * (dsyevd N 0.93-1.03 s against 1.01-1.05, dgesdd N 1.63 against 1.77);
 * with vectors the back-transformation's blocks want the wider band: 64
 * from 1500 (dsyevd V 0.55 s against 0.65 at 2000).  On a GPU (H200,
 * docs/data/h200-2026-11-26-bands-leaves-0a0251d.txt), where stage 1 runs
 * on cuBLAS and the chase is a chain of dependent steps, narrower: values
 * 16 up to 4096 (dsyevd N 0.31 s against 0.37 at 32 and 0.47 at 64), 32
 * from 8192 on (at 16384 2.17 s against 2.36 at 64 and 2.66 at 16;
 * dgesdd N 2.87 against 3.60 and 3.59); with vectors 32 at 8192 (dsyevd V
 * 1.37 s against 1.60 at 64, 1.51 at 24), 64 at 16384 (4.87 s against
 * 5.60 at 32: the back-transformation grows). */
int gl_tune_band(const gl_tuning *t, char kind, int complex_, long n,
                 int vectors)
{
    long band = gl_config_get()->band;
    if (band > 0)
        return band > 1024 ? 1024 : (int)band;
    (void)kind, (void)complex_;
    if (t->device)
        return vectors ? (n >= 12288 ? 64 : 32) : (n >= 6144 ? 32 : 16);
    return n >= (vectors ? 1500 : 3500) ? 64 : 32;
}

int gl_tune_tile_width(int b)
{
    long tw = gl_config_get()->tile_width;
    if (tw > 0)
        return tw < b ? (int)tw : b;
    return b;
}

/* The host's kernel skips most of a block's zeros, and b/2 sweeps won
 * there (docs/history.md).  A device applies each wave of blocks as two
 * batched products that read and write all of the vectors, so the
 * waves' count (n/group + n/b) sets the memory traffic, and blocks of b
 * sweeps halve the b/2 ones' traffic per flop at 1.5 times their
 * multiplications of zeros (docs/design/backtransform-blocks.md, "The stage-2
 * back-transformation's blocks on a device"). */
int gl_tune_group(const gl_tuning *t, int b)
{
    long group = gl_config_get()->group;
    if (group > 0)
        return group < 256 ? (int)group : 256;
    if (t->device)
        return b > 1 ? b : 1;
    return b > 1 ? b / 2 : 1;
}

/* A device's update of the rest of the matrix runs far below the tensor
 * cores' rate at inner size b (32-64) and near it in the hundreds
 * ("Improving Tridiagonalization Performance on GPU Architectures": 50
 * TFLOP/s for syr2k at k = 1024 on an H100); a block of k columns costs
 * more flops than single blocking (the panels' catch-up and the
 * corrections of their products): 3 n^2 k for the Hermitian reduction,
 * 6 n^2 k for the SVD's, 9k / 4n of either's 4/3 n^3 or 8/3 n^3: k about
 * n / 32 keeps that near 7%, up to 1024 columns.  Each panel also costs
 * about 5 more launches (its catch-up and corrections), some 50 us: below
 * n = 8192 they cost more than the faster updates gain (counted in
 * docs/design/stage1-double-blocking.md).  The
 * host's BLAS runs its rank-b updates near its peak already, and there the
 * corrections cost more than the larger updates gain (docs/history.md). */
int gl_tune_stage1_block(const gl_tuning *t, long n, int b)
{
    long block = gl_config_get()->stage1_block;
    if (b < 1)
        b = 1;
    if (block <= 0) {
        if (!t->device || n < 8192)
            return b;
        long panels = n / (32L * b), most = 1024 / b;
        block = (panels < 2 ? 2 : panels > most ? most : panels) * b;
    }
    block = block / b * b;
    return block < b ? b : block > 4096 ? 4096 / b * b : (int)block;
}

/* Each device's columns are its tiles': the trailing matrix shrinks by
 * a panel at a time, so the devices stay about even only while each
 * holds several tiles of the rest.  At most n / (4 devices) then, and
 * 1024 columns (8 GiB of FP64 at n = 1M rows is far off; at n = 32768 a
 * tile column is 256 MiB, long copies at the bus's rate). */
int gl_tune_stage1_tile(long n, int b, int devices)
{
    long tile = gl_config_get()->ooc_tile;
    if (b < 1)
        b = 1;
    if (tile <= 0) {
        long even = n / (4L * (devices > 1 ? devices : 1));
        tile = even < 1024 ? even : 1024;
    }
    tile = (tile + b - 1) / b * b;
    return tile < b ? b : tile > n ? (int)((n + b - 1) / b * b) : (int)tile;
}

/* One stage by default: on the host it runs at LAPACK's own speed, where
 * the two stages with the re-factorization took 1.8 times as long at
 * n = 4000 (docs/performance.md); on a GPU the second re-factors its Q on
 * the host (kernels/sytrd.c). */
int gl_tune_sytrd_stages(void)
{
    return gl_config_get()->sytrd_stages == 2 ? 2 : 1;
}

int gl_tune_chunk(void)
{
    long chunk = gl_config_get()->chunk;
    return chunk > 0 ? (chunk < 4096 ? (int)chunk : 4096) : 128;
}

int gl_host_threads(void)
{
    long threads = gl_config_get()->host_threads;
    if (threads > 0)
        return threads > 64 ? 64 : (int)threads;
    return cpu_count();
}

int gl_tune_chase_split(void)
{
    return gl_config_get()->host_chase != GL_HOST_CHASE_SWEEPS;
}

/* The threads the tune file's host-threads line of the largest n not
 * above this one measured fastest; 0 without one, or where
 * GPULAPACK_HOST_THREADS is set (it decides). */
static int host_threads_measured(int values, long n)
{
    if (gl_config_get()->host_threads > 0)
        return 0;
    file_ready();
    long best_n = -1;
    int threads = 0;
    for (int i = 0; i < nhost_thread_lines; i++)
        if (host_thread_lines[i].values == values &&
            host_thread_lines[i].n <= n && host_thread_lines[i].n > best_n) {
            best_n = host_thread_lines[i].n;
            threads = host_thread_lines[i].threads;
        }
    return threads;
}

int gl_tune_chase_threads(long n, int b, int split)
{
    long steps = n / (b > 1 ? b : 1);
    long useful = split ? steps / 4 : n / (3L * (b > 1 ? b : 1)) + 1;
    int threads = gl_host_threads(), measured = host_threads_measured(0, n);
    if (measured > 0 && measured < threads)
        threads = measured;
    if (useful < 1)
        useful = 1;
    return threads < useful ? threads : (int)useful;
}

/* Below 32 rows the bisection's vectors of 32 values run mostly empty
 * lanes and ?sterf's few sweeps cost microseconds. */
int gl_tune_values_threads(long n)
{
    int how = gl_config_get()->host_values;
    if (how == GL_VALUES_LAPACK || (how == GL_VALUES_TUNED && n < 32))
        return 0;
    long useful = n / 256 > 1 ? n / 256 : 1;
    int threads = gl_host_threads(), measured = host_threads_measured(1, n);
    if (measured > 0 && measured < threads)
        threads = measured;
    return threads < useful ? threads : (int)useful;
}

int gl_tune_group_threads(void)
{
    long t = gl_config_get()->group_threads;
    return t > 0 ? (t < 1024 ? (int)t : 1024) : 64;
}

long gl_tune_max_groups(void) { return gl_config_get()->max_groups; }

/* Not measured on a GPU yet (no device was lent since the kernels were
 * written): 256 rows make 64 work-groups for the 16384-row panels, about
 * half an H100's multiprocessors, at two rows per work-item. */
long gl_tune_chase_groups(void) { return gl_config_get()->chase_groups; }

/* The window kernel: a sweep's block stays in local memory from one step
 * to the next, a step's three updates run as one phase and its reflector
 * is made before the wait for the sweep ahead (kernels/device/chase.h).
 * Not timed on a GPU yet; the tasks kernel is the one measured on the
 * H200 (0.40 s at n = 8192, b = 32). */
int gl_tune_chase_kernel(void)
{
    int k = gl_config_get()->chase_kernel;
    return k != GL_CHASE_TUNED ? k : GL_CHASE_WINDOW;
}

long gl_tune_panel_groups(void) { return gl_config_get()->panel_groups; }

long gl_tune_panel_rows(void)
{
    long rows = gl_config_get()->panel_rows;
    return rows > 0 ? (rows < (1L << 20) ? rows : 1L << 20) : 256;
}

/* The leaves go to the host's threads and their vectors once to the
 * device; the merges above them run on the device.  On an H200 (16-core
 * host) at n = 8192, leaves of 128 rows took dsyevd V from 1.76 s (1024)
 * to 1.60 s and dgesdd S from 2.61 to 2.33 s; 64 was no faster, 256 in
 * between (docs/data/h200-2026-11-26-bands-leaves-0a0251d.txt). */
long gl_tune_dc_leaf(void)
{
    long leaf = gl_config_get()->dc_leaf;
    return leaf > 0 ? leaf : 128;
}

static int band_below(long b, long n)
{
    return (int)(b < n - 1 ? b : n > 2 ? n - 1 : 1);
}

int gl_tune_ooc_band(long n)
{
    long b = gl_config_get()->ooc_band;
    if (b <= 0)
        b = 256;
    return band_below(b < 256 ? b : 256, n);
}

/* A pass does about 8 b flops per element of the trailing matrix (the
 * pending update and the next panel's product, 4 b each) for 8 bytes
 * each way in FP64, so its copies and its products take about as long
 * at b = F / W (F the GEMM rate, W the slower direction's bytes per
 * second): the device's measured rates (the tune file's rates line),
 * else an H200's 40 TFLOP/s over 25 GB/s, 1600, rounded down to 1024;
 * multiples of 64 from 256 to 4096.  At most n / 4 (a few panels at
 * least: the band-to-band reduction in core would do the rest) unless
 * that is under the chase's band. */
int gl_tune_ooc_wide_band(const gl_tuning *t, long n)
{
    long b = gl_config_get()->ooc_band;
    if (b > 0)
        return band_below(b < 4096 ? b : 4096, n);
    long narrow = gl_tune_ooc_band(n);
    long wide = t && t->ooc_wide_band > 0 ? t->ooc_wide_band : 1024;
    wide = n / 4 < wide ? n / 4 : wide;
    return (int)(wide > narrow ? wide : narrow);
}

/* The rates line of the tune file's GPU whose identity is this device's:
 * F / W as gl_tune_ooc_wide_band takes it; 0 without one. */
static int measured_wide_band(const gl_gpu_device_info *info)
{
    if (!info)
        return 0;
    file_ready();
    char here[160];
    gl_tune_device_identity(info, here, sizeof here);
    for (int g = 0; g < ngpus; g++) {
        if (strcmp(gpus[g].identity, here) != 0)
            continue;
        for (int r = 0; r < nrates; r++) {
            if (strcmp(rates[r].path, gpus[g].path) != 0)
                continue;
            double w = rates[r].up < rates[r].down ? rates[r].up
                                                   : rates[r].down;
            double b = rates[r].gflops / w;
            b = b < 256 ? 256 : b > 4096 ? 4096 : b;
            return (int)b / 64 * 64;
        }
    }
    return 0;
}

int gl_tune_ooc_chase_band(long n, int wide)
{
    long b = gl_config_get()->ooc_chase_band;
    if (b <= 0 || b > 256)
        b = 256;
    return band_below(b < wide ? b : wide, n);
}

/* Tiles of 4096: 128 MiB in double, long enough transfers for the bus's
 * rate (docs/performance.md, "Copies at link speed"). */
int gl_tune_ooc_tile(long n, int b)
{
    long tile = gl_config_get()->ooc_tile;
    if (tile <= 0)
        tile = 4096;
    if (tile > n)
        tile = n;
    return (int)(tile > b + 1 ? tile : b + 1);
}

int gl_tune_ooc_segment(int group)
{
    long sweeps = gl_config_get()->ooc_segment;
    if (sweeps <= 0)
        return 0;
    if (group < 1)
        group = 1;
    sweeps = sweeps / group * group;
    if (sweeps > INT_MAX / 2)
        sweeps = INT_MAX / 2 / group * group;
    return (int)(sweeps > group ? sweeps : group);
}

/* Today's values are the same for every device of a kind (the built-in
 * defaults and the environment); the snapshot is where a device's own
 * measured values go. */
void gl_tune_snapshot(const gl_gpu_device_info *info, gl_tuning *out)
{
    *out = (gl_tuning){
        .device = info != NULL,
        .group_threads = gl_tune_group_threads(),
        .max_groups = gl_tune_max_groups(),
        .panel_rows = gl_tune_panel_rows(),
        .panel_groups = gl_tune_panel_groups(),
        .chase_groups = gl_tune_chase_groups(),
        .chase_kernel = gl_tune_chase_kernel(),
        .dc_leaf = gl_tune_dc_leaf(),
        .chunk = gl_tune_chunk(),
        .sytrd_stages = gl_tune_sytrd_stages(),
        .ooc_wide_band = measured_wide_band(info),
        .device_max_alloc = info ? info->max_alloc : 0,
    };
}
