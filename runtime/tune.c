/* The crossovers, methods and device sets of the policy (tune.h): built
 * in from measurements, or from the tune file of gpulapack-tune where one
 * for this machine is in force (tune_file.c). */
#include <limits.h>
#include <string.h>

#include "backend.h"
#include "context.h"
#include "tune.h"
#include "tune_file.h"

/* Crossovers of the host path against Debian's OpenBLAS 0.3.21 (SkylakeX
 * kernels, 2 cores), from `make bench` (docs/performance.md): below these
 * sizes the system LAPACK was faster on one of the machines measured (the
 * Zen 5 of epyc-zen5-2core, whose OpenBLAS is relatively faster, raised the
 * real symmetric values' and the complex Hermitian vectors' ones; its
 * first calls of a process, which meet fresh pages, raised ?gesdd's with
 * vectors to 2250: docs/performance.md, "Crossovers"); NEVER where it was
 * faster at every size measured.  Keyed by the family (runtime/family.h)
 * and the form of the name called (form_of: the real or complex name, and
 * its _2stage form); one column for values only, one for jobs with
 * vectors (or Q, P).  A form left out ({0, 0}) has no figure. */
#define NEVER GL_TUNE_NEVER

typedef struct crossover {
    long values, vectors;
} crossover;

enum { REAL, COMPLEX, REAL_2STAGE, COMPLEX_2STAGE, FORMS };

/* The form of a call's name: its precision's (a family of one name in
 * every precision, ?gesdd, has the same figures in both) and _2stage. */
static int form_of(const gl_call_name *name)
{
    return (gl_call_name_complex(name) ? COMPLEX : REAL) +
           (name->two_stage ? REAL_2STAGE : 0);
}

/* One name in every precision: the same figures for both */
#define BOTH(values, vectors) {{values, vectors}, {values, vectors}}

#define EIG_2CORE                                                             \
    {{2500, NEVER}, {1000, 1200}, {2500, NEVER}, {1000, NEVER}}
#define BAND_2CORE BOTH(768, NEVER)
static const crossover host_2core[GL_FAMILIES][FORMS] = {
    [GL_FAMILY_GESDD] = BOTH(768, 2250),
    [GL_FAMILY_GESVD] = BOTH(768, 200),
    [GL_FAMILY_GBBRD] = BOTH(256, NEVER),
    [GL_FAMILY_SYTRD] = BOTH(NEVER, NEVER),
    [GL_FAMILY_SYTRD_2STAGE] = {{2500, NEVER}, {1000, NEVER}},
    [GL_FAMILY_SYEV] = EIG_2CORE,
    [GL_FAMILY_SYEVD] = EIG_2CORE,
    [GL_FAMILY_SYEVR] = EIG_2CORE,
    [GL_FAMILY_SYEVX] = EIG_2CORE,
    [GL_FAMILY_SBTRD] = BAND_2CORE,
    [GL_FAMILY_SBEV] = BAND_2CORE,
    [GL_FAMILY_SBEVD] = BAND_2CORE,
};

/* Hosts with 8 CPUs or more: the 16-core Xeon of the H200 machine against
 * its OpenBLAS with 16 threads (docs/data/h200-2026-11-26-crossover-host.csv,
 * n = 1024, 2048, 4096, interpolated): dsyevd N crosses at about 2550, dsyevd V never
 * (0.74-0.90x), dgesdd N below 1024 (1.70x there), dgesdd S at about
 * 2150.  These agree with the 2-core figures within 5%: both sides use
 * every core, so the ratio hardly moves.  The families not measured there
 * keep the 2-core figures. */
static const crossover host_many_core[GL_FAMILIES][FORMS] = {
    [GL_FAMILY_GESDD] = BOTH(768, 2150),
    [GL_FAMILY_SYEVD] = {{2500, NEVER}},
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
#define EIG_H200                                                              \
    {{1500, 1200}, {1500, 1200}, {1500, 1200}, {1500, 1200}}
static const crossover gpu_h200[GL_FAMILIES][FORMS] = {
    [GL_FAMILY_GESDD] = BOTH(1550, 1250),
    [GL_FAMILY_GESVD] = BOTH(1550, 1250),
    [GL_FAMILY_SYEV] = EIG_H200,
    [GL_FAMILY_SYEVD] = EIG_H200,
    [GL_FAMILY_SYEVR] = EIG_H200,
    [GL_FAMILY_SYEVX] = EIG_H200,
};

/* For routines without a measurement: every published offload runtime
 * (MAGMA n <= 128, oneMKL n <= 256) keeps n < 512 on the CPU LAPACK. */
#define GL_DEFAULT_MIN_N 512

#define COUNT(t) (sizeof t / sizeof t[0])

/* The table's figures for the call's name; NULL where it has none. */
static const crossover *find(const crossover (*table)[FORMS],
                             const gl_call_name *name)
{
    const crossover *c = &table[name->family->id][form_of(name)];
    return c->values != 0 ? c : NULL;
}

static long builtin_host(const gl_call_name *name, int vectors)
{
    const crossover *c =
        gl_tune_cpu_count() >= 8 ? find(host_many_core, name) : NULL;
    if (!c)
        c = find(host_2core, name);
    return !c ? GL_DEFAULT_MIN_N : vectors ? c->vectors : c->values;
}

static long builtin_gpu(const gl_call_name *name, int vectors)
{
    const crossover *c = find(gpu_h200, name);
    return !c ? NEVER : vectors ? c->vectors : c->values;
}

long gl_tune_crossover(const gl_call_name *name, int vectors,
                       const char *path)
{
    int host = strcmp(path, "host") == 0;
    long n;
    if (gl_tune_file_crossover(name, vectors, path, &n) &&
        (host || gl_tune_file_applies(path)))
        return n;
    return host ? builtin_host(name, vectors) : builtin_gpu(name, vectors);
}

long gl_tune_gpu_floor(const gl_call_name *name, int vectors)
{
    long floor = builtin_gpu(name, vectors);
    for (int b = 0; b < GL_NBACKENDS; b++) {
        long n;
        if (gl_backend_is_gpu(&gl_backends[b]) &&
            gl_tune_file_crossover(name, vectors, gl_backends[b].name, &n) &&
            n < floor)
            floor = n;
    }
    return floor;
}

long gl_tune_builtin(const gl_call_name *name, int vectors, const char *path)
{
    return strcmp(path, "host") == 0 ? builtin_host(name, vectors)
                                     : builtin_gpu(name, vectors);
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
 * ONE_STAGE_BELOW for the ?syev family, values and vectors, on the
 * runtimes whose launches are cheap (their rows' cheap_launches,
 * backend.c: CUDA and HIP); the two-stage reduction from there on and on
 * the others (OpenCL), whose launches cost more (the one-stage makes 13 per column, the two-stage
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

/* gl_method by name, as the log and the tune file spell it */
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

int gl_tune_method(const gl_call_name *name, int vectors, const char *path,
                   long n, const char **source)
{
    int method = gl_tune_file_method(name, vectors, path, n);
    if (source)
        *source = NULL;
    if (method >= 0)
        return method;
    int eig = name->family->kind == GL_KIND_EIG;
    const struct vendor_measurement *m =
        eig ? measured_row(name->precision, vectors ? 'V' : 'N', path, n)
            : NULL;
    if (m && m->vendor_s < m->ours_s) {
        if (source)
            *source = VENDOR_MEASURED_ON;
        return GL_METHOD_VENDOR;
    }
    const gl_backend *b = gl_backend_named(path);
    int cheap_launches = b && b->cheap_launches;
    return eig && cheap_launches && n < ONE_STAGE_BELOW ? 1 : 0;
}
