/* Run-time resolution of the LAPACK/BLAS routines of lapack_fns.h. */
#include <pthread.h>

#include "../runtime/real_lapack.h"
#include "../runtime/precision.h"
#include "lapack_fns.h"

static GL_FN(lapack_fns) fns;
static int fns_complete;
static pthread_once_t fns_once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, symbol)                                                \
    do {                                                                      \
        *(void **)&fns.field = gl_lapack_symbol(symbol);                      \
        complete &= fns.field != NULL;                                        \
    } while (0)

static void resolve(void)
{
    int complete = 1;
    RESOLVE(geqrt3, GL_SYMBOL(geqrt3, geqrt3));
    RESOLVE(gelqt3, GL_SYMBOL(gelqt3, gelqt3));
    RESOLVE(geqrf, GL_SYMBOL(geqrf, geqrf));
    RESOLVE(geqlf, GL_SYMBOL(geqlf, geqlf));
    RESOLVE(larfb, GL_SYMBOL(larfb, larfb));
    RESOLVE(gemm, GL_SYMBOL(gemm, gemm));
    RESOLVE(hemm, GL_SYMBOL(symm, hemm));
    RESOLVE(her2k, GL_SYMBOL(syr2k, her2k));
    RESOLVE(gemv, GL_SYMBOL(gemv, gemv));
    RESOLVE(hemv, GL_SYMBOL(symv, hemv));
    RESOLVE(trmm, GL_SYMBOL(trmm, trmm));
    RESOLVE(lascl, GL_SYMBOL(lascl, lascl));
    RESOLVE(rlascl, GL_REAL_SYMBOL(lascl));
    RESOLVE(bdsqr, GL_REAL_SYMBOL(bdsqr));
    RESOLVE(sterf, GL_REAL_SYMBOL(sterf));
    RESOLVE(stebz, GL_REAL_SYMBOL(stebz));
    RESOLVE(bdsdc, GL_REAL_SYMBOL(bdsdc));
    RESOLVE(steqr, GL_REAL_SYMBOL(steqr));
    RESOLVE(stedc, GL_REAL_SYMBOL(stedc));
    RESOLVE(stein, GL_REAL_SYMBOL(stein));
    RESOLVE(lartg, GL_REAL_SYMBOL(lartg));
    RESOLVE(rgeqrf, GL_REAL_SYMBOL(geqrf));
    RESOLVE(rorgqr, GL_REAL_SYMBOL(orgqr));
    RESOLVE(lamch, GL_REAL_SYMBOL(lamch));
    fns_complete = complete;
    /* optional: their absence only turns one method off */
    RESOLVE(lasd0, GL_REAL_SYMBOL(lasd0));
    RESOLVE(lasd4, GL_REAL_SYMBOL(lasd4));
    RESOLVE(laed2, GL_REAL_SYMBOL(laed2));
    RESOLVE(laed4, GL_REAL_SYMBOL(laed4));
    RESOLVE(lamrg, GL_REAL_SYMBOL(lamrg));
    RESOLVE(rgemm, GL_REAL_SYMBOL(gemm));
}

/* gl_s_lapack_fns_get gl_d_lapack_fns_get gl_c_lapack_fns_get gl_z_lapack_fns_get */
const GL_FN(lapack_fns) *GL_FN(lapack_fns_get)(void)
{
    pthread_once(&fns_once, resolve);
    return fns_complete ? &fns : NULL;
}
