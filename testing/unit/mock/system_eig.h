/* The system LAPACK's ?syevd/?heevd on padded host copies, for the
 * stand-in solvers (mock_solver.c) and the test that checks the library
 * against them (test_vendor_solver.c).  In a program linked with the
 * library, dsyevd_ and the others are the library's own entry points, so
 * the system LAPACK (LP64) is opened here by its soname. */
#ifndef GL_MOCK_SYSTEM_EIG_H
#define GL_MOCK_SYSTEM_EIG_H

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef void sy_fn(const char *, const char *, const int *, void *,
                   const int *, void *, void *, const int *, int *,
                   const int *, int *, size_t, size_t);
typedef void he_fn(const char *, const char *, const int *, void *,
                   const int *, void *, void *, const int *, void *,
                   const int *, int *, const int *, int *, size_t, size_t);
static void *lapack_fn(const char *name)
{
    static void *lib;
    if (!lib)
        lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    return lib ? dlsym(lib, name) : NULL;
}

/* The system LAPACK runs on host copies of its own, never on the
 * stand-in's device buffers: OpenBLAS 0.3.21 as Debian 12 ships it (built
 * by GCC 12, whose tree vectorizer miscompiles the x86-64 zgemv_n kernel;
 * OpenBLAS issue #4013, fixed in 0.3.24) reads x one stride past its last
 * element.  ?latrd (the panel of ?hetrd, uplo 'U') passes x = a row of A
 * (stride lda) or of its W panel (stride n), so ?heevd reads up to a
 * column past the end of A and of WORK: past the library's n x n device
 * array, a fault when that ends at the top of the heap.  Each copy has
 * one column and a cache line of slack after it; A and W go back within
 * the device buffers' bounds, as a real solver's kernels write them. */
static void *padded(size_t count, size_t ld, size_t size)
{
    return calloc(count + ld + 64, size);
}

/* ?syevd/?heevd of precision p (1 s, 2 d, 3 c, 4 z) over a (ld lda), W
 * into w; LAPACK's INFO. */
static int system_eig(int p, char jobz, char uplo, int n, void *a, int lda,
                      void *w)
{
    static const char *const names[4] = {"ssyevd_", "dsyevd_", "cheevd_",
                                         "zheevd_"};
    void *f = lapack_fn(names[p - 1]);
    int info = 0, lwork = -1, lrwork = -1, liwork = -1, iq = 0;
    double q[2] = {0, 0}, rq = 0;   /* float queries land in the first half */
    size_t real = p == 1 || p == 3 ? 4 : 8, elem = p <= 2 ? real : 2 * real;
    size_t ld = (size_t)(lda > 1 ? lda : 1), nn = (size_t)(n > 1 ? n : 1);
    size_t span = n > 0 ? ld * (size_t)(n - 1) + (size_t)n : 0;   /* of A */
    if (!f)
        return -100;
    if (p <= 2)
        ((sy_fn *)f)(&jobz, &uplo, &n, a, &lda, w, q, &lwork, &iq, &liwork,
                     &info, 1, 1);
    else
        ((he_fn *)f)(&jobz, &uplo, &n, a, &lda, w, q, &lwork, &rq, &lrwork,
                     &iq, &liwork, &info, 1, 1);
    lwork = (int)(p == 1 || p == 3 ? *(float *)q : q[0]) + 1;
    lrwork = (int)(p == 3 ? *(float *)&rq : rq) + 1;
    liwork = iq > 0 ? iq : 1;
    void *ah = padded(ld * nn, ld, elem), *wh = padded(nn, nn, real),
         *work = padded((size_t)lwork, nn, elem),
         *rwork = padded((size_t)lrwork, nn, real);
    int *iwork = padded((size_t)liwork, nn, sizeof *iwork);
    if (!ah || !wh || !work || !rwork || !iwork)
        info = -101;
    else {
        memcpy(ah, a, span * elem);
        if (p <= 2)
            ((sy_fn *)f)(&jobz, &uplo, &n, ah, &lda, wh, work, &lwork, iwork,
                         &liwork, &info, 1, 1);
        else
            ((he_fn *)f)(&jobz, &uplo, &n, ah, &lda, wh, work, &lwork, rwork,
                         &lrwork, iwork, &liwork, &info, 1, 1);
        memcpy(a, ah, span * elem);
        memcpy(w, wh, (size_t)n * real);
    }
    free(ah), free(wh), free(work), free(rwork), free(iwork);
    return info;
}

#endif
