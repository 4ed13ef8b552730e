/* The tune file of gpulapack-tune (tune_file.h): its name, the
 * identities it is written for, its reading, and its lines for a call;
 * gl_tune_devices, which only the file decides. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "config.h"
#include "device.h"
#include "gpu.h"
#include "log.h"
#include "tune.h"
#include "tune_file.h"

#define NEVER GL_TUNE_NEVER
#define COUNT(t) (sizeof t / sizeof t[0])

int gl_tune_cpu_count(void)
{
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 0)
        return CPU_COUNT(&cpus);
    return 1;
}

/* ---- the tune file (gpulapack-tune) --------------------------------------
 *
 *   gpulapack-tune 1 host=<cpu model>/<cpus> [gpu=<gpu path>:<device>/<bytes>]...
 *   <family> <N|V> <s|d|c|z> <path> <n|never>
 *   method <family> <N|V> <s|d|c|z> <gpu path> <n> <two-stage|one-stage|vendor>
 *   devices <family> <N|V> <s|d|c|z> <gpu path> <count> <n|never>
 *   rates <gpu path> <FP64 GEMM GFLOP/s> <GB/s up> <GB/s down>
 *
 * A path is a backend's name (backend.h), a GPU path a GPU backend's.
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
    snprintf(out + used, size - used, "/%d", gl_tune_cpu_count());
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

/* "host-threads <chase|values|products> <n> <threads>": the host's
 * stage 2, values-only stage 3 or stage 1's products of order n and more
 * ran fastest on that many threads (gpulapack-tune); the most a call of
 * that size takes. */
#define MAX_HOST_THREAD_LINES GL_TUNE_HOST_LINES
static struct {
    int stage;
    long n;
    int threads;
} host_thread_lines[MAX_HOST_THREAD_LINES];
static int nhost_thread_lines;

static int parse_host_threads_line(const char *line, int number, char *why,
                                   size_t why_size)
{
    static const char *const stages[GL_HOST_STAGES] = GL_HOST_STAGE_NAMES;
    char stage[16], extra[8];
    long n = -1, threads = 0;
    int fields = sscanf(line, "host-threads %15s %ld %ld %7s", stage, &n,
                        &threads, extra);
    int kind = -1;
    for (int i = 0; fields >= 1 && i < GL_HOST_STAGES; i++)
        if (strcmp(stage, stages[i]) == 0)
            kind = i;
    if (fields != 3 || kind < 0 || n < 0 || threads < 1 || threads > 64 ||
        nhost_thread_lines == MAX_HOST_THREAD_LINES) {
        snprintf(why, why_size, "line %d: bad host-threads line", number);
        return -1;
    }
    host_thread_lines[nhost_thread_lines].stage = kind;
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
int gl_tune_file_applies(const char *path)
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

/* The families a line of the file may name for a call: its own, with
 * the form called ("heevd_2stage"), and the one gpulapack-tune measures
 * for it (family.h tune_as: "heevd" for ?heevr and ?heevd_2stage), whose
 * figures its siblings with the same stages 1 and 2 share. */
typedef struct line_names {
    char own[32];
    const char *measured;
} line_names;

static line_names names_of(const gl_call_name *name)
{
    line_names l;
    char text[32];
    snprintf(l.own, sizeof l.own, "%s",
             gl_call_name_text(name, text, sizeof text) + 1);
    gl_call_name measured = {&gl_families[name->family->tune_as],
                             name->precision, 0};
    l.measured = gl_call_name_family(&measured);
    return l;
}

/* A line of the call's case: its precision, job and path, and one of its
 * names. */
static int line_of(const entry *e, const gl_call_name *name,
                   const line_names *l, int vectors, const char *path)
{
    return e->precision == name->precision &&
           e->job == (vectors ? 'V' : 'N') &&
           (strcmp(e->family, l->own) == 0 ||
            strcmp(e->family, l->measured) == 0) &&
           strcmp(e->path, path) == 0;
}

int gl_tune_file_crossover(const gl_call_name *name, int vectors,
                           const char *path, long *n)
{
    file_ready();
    line_names l = names_of(name);
    /* its own family's line first, else its measured family's */
    const char *families[2] = {l.own, l.measured};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < nentries; i++) {
            const entry *e = &entries[i];
            if (e->method < 0 && e->devices == 0 &&
                line_of(e, name, &l, vectors, path) &&
                strcmp(e->family, families[k]) == 0) {
                *n = e->n;
                return 1;
            }
        }
    return 0;
}

/* No built-in sets: one device until gpulapack-tune measured a set
 * faster on this machine.  The line of the largest count that is not
 * larger than the set decides. */
int gl_tune_devices(const gl_call_name *name, int vectors, const char *path,
                    int count, long n)
{
    file_ready();
    line_names l = names_of(name);
    const entry *best = NULL;
    for (int i = 0; i < nentries; i++) {
        const entry *e = &entries[i];
        if (e->devices >= 2 && e->devices <= count &&
            line_of(e, name, &l, vectors, path) &&
            (!best || e->devices > best->devices))
            best = e;
    }
    if (!best || best->n == NEVER || n < best->n || !gl_tune_file_applies(path))
        return 1;
    return best->devices;
}

int gl_tune_file_method(const gl_call_name *name, int vectors,
                        const char *path, long n)
{
    file_ready();
    line_names l = names_of(name);
    long best_from = -1;
    int method = -1;
    for (int i = 0; i < nentries; i++) {
        const entry *e = &entries[i];
        if (e->method >= 0 && line_of(e, name, &l, vectors, path) &&
            e->n <= n && e->n > best_from) {
            best_from = e->n;
            method = e->method;
        }
    }
    return method >= 0 && gl_tune_file_applies(path) ? method : -1;
}

int gl_tune_file_host_lines(gl_host_threads_line *out, int most)
{
    file_ready();
    int count = nhost_thread_lines < most ? nhost_thread_lines : most;
    for (int i = 0; i < count; i++)
        out[i] = (gl_host_threads_line){host_thread_lines[i].stage,
                                        host_thread_lines[i].n,
                                        host_thread_lines[i].threads};
    return count;
}

int gl_tune_file_wide_band(const gl_gpu_device_info *info)
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
