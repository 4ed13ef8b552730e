/* Finding the real LAPACK and calling it.
 *
 * Search order for each routine (first hit wins, our own object never):
 *   1. the library named by GPULAPACK_LAPACK (an explicit choice by the user
 *      must win over whatever the program happens to link);
 *   2. dlsym(RTLD_NEXT): the LAPACK the program would have called without us,
 *      under LD_PRELOAD and when linked before -llapack;
 *   3. the usual sonames, for callers that load LAPACK with RTLD_LOCAL (numpy
 *      opens its extension modules that way, so RTLD_NEXT cannot see it).
 */
#include <dlfcn.h>
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

static void *lookup(const char *symbol)
{
    const gl_config *config = gl_config_get();
    void *fn;

    if (config->lapack) {
        fn = symbol_in(open_once(config->lapack, &env_handle, &env_tried),
                       symbol);
        if (fn)
            return fn;
    }
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
    return NULL;
}

/* Any symbol of the real LAPACK ("ilaenv2stage_"), found the way the
 * routines themselves are (GPULAPACK_LAPACK, RTLD_NEXT, the sonames); NULL
 * when none provides it.  Not cached: callers cache what they look up. */
void *gl_lapack_symbol(const char *symbol)
{
    return lookup(symbol);
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
