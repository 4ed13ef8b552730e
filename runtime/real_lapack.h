/* The real LAPACK behind the library: finding its routines and symbols, and
 * the thread's nested-call guard. */
#ifndef GL_REAL_LAPACK_H
#define GL_REAL_LAPACK_H

#include <stdatomic.h>

/* One exported routine and the real LAPACK routine behind it. */
typedef struct gl_routine {
    const char *name;          /* exported name without the trailing
                                  underscore, lowercase: "dgesdd",
                                  "dgesdd_64", "scipy_dgesdd",
                                  "scipy_dgesdd_64" */
    int two_stage;             /* the _2stage form of its family */
    _Atomic(void *) real;      /* real routine, resolved on first use */
    atomic_int resolved;       /* 1 once resolution was attempted */
} gl_routine;

#define GL_ROUTINE_INIT(lapack_name) { .name = (lapack_name) }
#define GL_ROUTINE_INIT_2STAGE(lapack_name)                                   \
    { .name = (lapack_name), .two_stage = 1 }

/* The real routine, or NULL when no real LAPACK provides it. */
void *gl_real_routine(gl_routine *routine);

/* Any symbol of the real LAPACK (e.g. "ilaenv2stage_", with the trailing
 * underscore), searched in the same order as the routines; NULL if absent.
 * Uncached (a dlsym per call). */
void *gl_lapack_symbol(const char *symbol);

/* The symbol in the library GPULAPACK_LAPACK names, and only there; NULL
 * when the variable is unset or that library lacks it.  Uncached. */
void *gl_lapack_chosen_symbol(const char *symbol);

/* The LAPACK routine behind an exported name: "dgesdd" for "dgesdd",
 * "dgesdd_64", "scipy_dgesdd" and "scipy_dgesdd_64" (buf of 32 bytes). */
const char *gl_routine_base(const char *name, char buf[32]);

/* 1 when the real LAPACK behind the plain names (the one gl_lapack_symbol
 * finds) has 64-bit INTEGERs, as Debian's liblapack64-3 and
 * libopenblas64-0, which keep the names dsyevd_, dgemm_, ...: its ILAVER
 * writes 8-byte INTEGERs.  Probed once per process. */
int gl_lapack_ilp64(void);

/* 1 when routine is a plain name (dsyevd, not scipy_dsyevd) and
 * gl_lapack_ilp64(): its callers pass 64-bit INTEGERs. */
int gl_plain_over_ilp64(const gl_routine *routine);

/* A routine of an ILP64 LAPACK (64-bit INTEGERs) loaded beside the LP64
 * one, in a link-map namespace of its own (dlmopen: its plain names and
 * its BLAS's would otherwise bind to the LP64 ones): GPULAPACK_LAPACK64,
 * else Debian's liblapack64.so.3, else libopenblas64.so.0; "none" or an
 * empty value: none.  symbol as "dsyevd_"; NULL when there is none.
 * Loaded once, on the first use (docs/large.md, rule 2's restart). */
void *gl_lapack64_symbol(const char *symbol);

/* Path of the library providing the real routine, or NULL. */
const char *gl_lapack_library(gl_routine *routine);

/* Nested-call guard.  The real LAPACK calls dsytrd_, dsbtrd_, ... through
 * the dynamic linker, i.e. into this library; while a thread is inside a
 * forwarded call, those nested calls go straight to the real routine. */
int gl_forwarding(void);
void gl_forward_begin(void);
void gl_forward_end(void);

#endif
