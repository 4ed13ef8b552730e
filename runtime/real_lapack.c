/* Finding the real LAPACK and calling it.
 *
 * Search order for each routine (first hit wins, our own object never):
 *   1. the library named by GPULAPACK_LAPACK (an explicit choice by the user
 *      must win over whatever the program happens to link);
 *   2. dlsym(RTLD_NEXT): the LAPACK the program would have called without us,
 *      under LD_PRELOAD and when linked before -llapack;
 *   3. the usual sonames, for callers that load LAPACK with RTLD_LOCAL (numpy
 *      opens its extension modules that way, so RTLD_NEXT cannot see it);
 *   4. every object already loaded (dl_iterate_phdr, then dlsym on a
 *      dlopen(RTLD_NOLOAD) handle): the renamed OpenBLAS inside pip's numpy
 *      and scipy wheels (scipy_dgesdd_, scipy_dgesdd_64_ in
 *      libscipy_openblas*.so, loaded RTLD_LOCAL by Python's extension
 *      modules) and ILP64 libraries with the _64_ names opened the same
 *      way.  Its caller is linked against it, so it is loaded before the
 *      first call of its names.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "log.h"
#include "real_lapack.h"

static const char *const lapack_sonames[] = {
    "liblapack.so.3", "libopenblas.so.0", "libflexiblas.so.3",
    "libmkl_rt.so.2", "libmkl_rt.so",
};
#define N_SONAMES (sizeof lapack_sonames / sizeof lapack_sonames[0])

static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static void *env_handle;
static int env_tried;
static void *soname_handles[N_SONAMES];
static int soname_tried[N_SONAMES];

/* The forwarding-depth guard, per-thread by nature: a call this thread
 * forwards to the real LAPACK may come back through our exports (dsyev_
 * calling dsytrd_) and must go straight through. */
static _Thread_local int forward_depth;

int gl_forwarding(void) { return forward_depth > 0; }
void gl_forward_begin(void) { forward_depth++; }
void gl_forward_end(void) { forward_depth--; }

/* 1 if addr lies in this library (or in the executable it is linked into). */
static int in_self(void *addr)
{
    Dl_info self, other;
    if (!dladdr((void *)&in_self, &self) || !dladdr(addr, &other))
        return 0;
    return self.dli_fbase == other.dli_fbase;
}

/* dlopen once per source; NULL if the library cannot be opened. */
static void *open_once(const char *path, void **handle, int *tried)
{
    pthread_mutex_lock(&handles_lock);
    if (!*tried) {
        *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        *tried = 1;
        gl_log(3, "lapack: dlopen(%s) %s", path, *handle ? "ok" : dlerror());
    }
    void *result = *handle;
    pthread_mutex_unlock(&handles_lock);
    return result;
}

static void *symbol_in(void *handle, const char *symbol)
{
    if (!handle)
        return NULL;
    void *fn = dlsym(handle, symbol);
    return (fn && !in_self(fn)) ? fn : NULL;
}

/* dl_iterate_phdr's callback: collects the paths of the loaded objects
 * (copied: the loader's lock is held during the walk, so nothing is
 * opened from inside it). */
typedef struct loaded_list {
    char **paths;
    size_t count, capacity;
} loaded_list;

static int collect_loaded(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    loaded_list *list = data;
    if (!info->dlpi_name || !info->dlpi_name[0])
        return 0;   /* the executable: RTLD_NEXT already searched it */
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 64;
        char **paths = realloc(list->paths, capacity * sizeof *paths);
        if (!paths)
            return 1;
        list->paths = paths;
        list->capacity = capacity;
    }
    char *path = strdup(info->dlpi_name);
    if (path)
        list->paths[list->count++] = path;
    return 0;
}

/* The symbol in any loaded object but ours, first in load order. */
static void *symbol_in_loaded(const char *symbol)
{
    loaded_list list = {0};
    dl_iterate_phdr(collect_loaded, &list);
    void *fn = NULL;
    for (size_t i = 0; i < list.count; i++) {
        if (!fn) {
            void *handle = dlopen(list.paths[i], RTLD_LAZY | RTLD_NOLOAD);
            if (handle) {
                /* the reference NOLOAD took is kept: a loaded object is
                 * never closed here (closing a runtime with LLVM inside
                 * can abort the process), and fn stays valid */
                fn = symbol_in(handle, symbol);
                if (fn)
                    gl_log(3, "lapack: %s found in loaded %s", symbol,
                           list.paths[i]);
            }
        }
        free(list.paths[i]);
    }
    free(list.paths);
    return fn;
}

void *gl_lapack_chosen_symbol(const char *symbol)
{
    const gl_config *config = gl_config_get();
    if (!config->lapack)
        return NULL;
    return symbol_in(open_once(config->lapack, &env_handle, &env_tried),
                     symbol);
}

static void *lookup(const char *symbol)
{
    void *fn = gl_lapack_chosen_symbol(symbol);
    if (fn)
        return fn;
    fn = symbol_in(RTLD_NEXT, symbol);
    if (fn)
        return fn;
    for (size_t i = 0; i < N_SONAMES; i++) {
        fn = symbol_in(open_once(lapack_sonames[i], &soname_handles[i],
                                 &soname_tried[i]),
                       symbol);
        if (fn)
            return fn;
    }
    return symbol_in_loaded(symbol);
}

/* Any symbol of the real LAPACK ("ilaenv2stage_"), found the way the
 * routines themselves are (GPULAPACK_LAPACK, RTLD_NEXT, the sonames); NULL
 * when none provides it.  Not cached: callers cache what they look up. */
void *gl_lapack_symbol(const char *symbol)
{
    return lookup(symbol);
}

const char *gl_routine_base(const char *name, char buf[32])
{
    if (strncmp(name, "scipy_", 6) == 0)
        name += 6;
    size_t len = strlen(name);
    if (len >= 3 && strcmp(name + len - 3, "_64") == 0)
        len -= 3;
    if (len > 31)
        len = 31;
    memcpy(buf, name, len);
    buf[len] = '\0';
    return buf;
}

static pthread_once_t ilp64_once = PTHREAD_ONCE_INIT;
static int ilp64;

/* ILAVER(MAJOR, MINOR, PATCH) writes three INTEGERs.  Given three 8-byte
 * slots filled with a pattern, an LP64 LAPACK writes the low 4 bytes of
 * each (x86-64 is little-endian) and leaves the pattern above; an ILP64
 * one writes all 8, whose high halves are 0 for any version number. */
static void probe_ilp64(void)
{
    typedef void ilaver_fn(void *major, void *minor, void *patch);
    ilaver_fn *ilaver = (ilaver_fn *)lookup("ilaver_");
    if (!ilaver)
        return;
    const uint64_t pattern = 0x5a5a5a5a5a5a5a5aull;
    uint64_t version[3] = {pattern, pattern, pattern};
    ilaver(&version[0], &version[1], &version[2]);
    int high_zero = 1;
    for (int i = 0; i < 3; i++)
        high_zero &= (version[i] >> 32) == 0;
    ilp64 = high_zero;
    gl_log(3, "lapack: ilaver_ wrote %s INTEGERs (%llu.%llu.%llu)",
           high_zero ? "8-byte" : "4-byte",
           (unsigned long long)(version[0] & (high_zero ? ~0ull : 0xffffffffull)),
           (unsigned long long)(version[1] & (high_zero ? ~0ull : 0xffffffffull)),
           (unsigned long long)(version[2] & (high_zero ? ~0ull : 0xffffffffull)));
}

int gl_lapack_ilp64(void)
{
    pthread_once(&ilp64_once, probe_ilp64);
    return ilp64;
}

int gl_plain_over_ilp64(const gl_routine *routine)
{
    return strncmp(routine->name, "scipy_", 6) != 0 && gl_lapack_ilp64();
}

void *gl_real_routine(gl_routine *routine)
{
    if (atomic_load_explicit(&routine->resolved, memory_order_acquire))
        return atomic_load_explicit(&routine->real, memory_order_relaxed);

    /* Concurrent first calls may both look the symbol up; they find the
     * same address, so the race is harmless. */
    char symbol[64];
    snprintf(symbol, sizeof symbol, "%s_", routine->name);
    void *fn = lookup(symbol);
    atomic_store_explicit(&routine->real, fn, memory_order_relaxed);
    atomic_store_explicit(&routine->resolved, 1, memory_order_release);
    if (gl_config_get()->verbose >= 3) {
        Dl_info where;
        gl_log(3, "lapack: %s -> %s", symbol,
               !fn ? "not found"
               : dladdr(fn, &where) && where.dli_fname ? where.dli_fname
                                                       : "?");
    }
    return fn;
}

/* Path of the library that provides the real routine, for gpulapack-info. */
const char *gl_lapack_library(gl_routine *routine)
{
    void *fn = gl_real_routine(routine);
    Dl_info where;
    if (!fn || !dladdr(fn, &where) || !where.dli_fname)
        return NULL;
    return where.dli_fname;
}

/* ---- the ILP64 LAPACK of docs/large.md's restarts ---------------------- */

static pthread_once_t lapack64_once = PTHREAD_ONCE_INIT;
static void *lapack64;

static void open_lapack64(void)
{
    const char *named = gl_config_get()->lapack64;
    const char *const defaults[] = {"liblapack64.so.3", "libopenblas64.so.0"};
    if (named && (!*named || strcmp(named, "none") == 0))
        return;
    for (int i = 0; i < (named ? 1 : 2) && !lapack64; i++) {
        const char *name = named ? named : defaults[i];
        lapack64 = dlmopen(LM_ID_NEWLM, name, RTLD_NOW | RTLD_LOCAL);
        gl_log(1, "ILP64 LAPACK %s: %s", name,
               lapack64 ? "loaded in a namespace of its own" : dlerror());
    }
}

void *gl_lapack64_symbol(const char *symbol)
{
    pthread_once(&lapack64_once, open_lapack64);
    return lapack64 ? dlsym(lapack64, symbol) : NULL;
}
