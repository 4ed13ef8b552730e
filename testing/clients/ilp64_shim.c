/* A stand-in for an ILP64 LAPACK with the _64_ suffix (Julia's or Fedora's
 * OpenBLAS; Debian has none): dsyevd_64_, dgesdd_64_ and zheevd_64_ calling the plain-named ILP64 routines of Debian's
 * libopenblas64.so.0 (64-bit INTEGERs, names without suffix).  The
 * library is found by its soname at the first call.
 *
 * The OpenBLAS is opened RTLD_LOCAL so that its plain names stay out of
 * the program's global scope, as they are in a real suffixed build (whose
 * plain names do not exist), and RTLD_DEEPBIND so that its own calls bind
 * inside it and never reach the LP64 dsbtrd_, chetrd_, ... that a
 * preloaded libgpulapack exports (Debian's 0.3.21 build imports those
 * through its PLT/GOT, so without it a nested call would take 64-bit
 * INTEGERs into an LP64 routine).  RTLD_DEEPBIND rules out running this
 * under ASan.  Used by check_ilp64.sh only. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void *real(const char *name)
{
    static void *handle;
    if (!handle) {
        handle = dlopen("libopenblas64.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
        if (!handle) {
            fprintf(stderr, "ilp64_shim: %s\n", dlerror());
            abort();
        }
    }
    void *fn = dlsym(handle, name);
    if (!fn) {
        fprintf(stderr, "ilp64_shim: no %s in libopenblas64.so.0\n", name);
        abort();
    }
    return fn;
}

typedef void dsyevd_fn(const char *, const char *, const int64_t *, double *,
                       const int64_t *, double *, double *, const int64_t *,
                       int64_t *, const int64_t *, int64_t *, size_t, size_t);
typedef void dgesdd_fn(const char *, const int64_t *, const int64_t *,
                       double *, const int64_t *, double *, double *,
                       const int64_t *, double *, const int64_t *, double *,
                       const int64_t *, int64_t *, int64_t *, size_t);
typedef void zheevd_fn(const char *, const char *, const int64_t *,
                       double _Complex *, const int64_t *, double *,
                       double _Complex *, const int64_t *, double *,
                       const int64_t *, int64_t *, const int64_t *, int64_t *,
                       size_t, size_t);

void dsyevd_64_(const char *jobz, const char *uplo, const int64_t *n,
                double *a, const int64_t *lda, double *w, double *work,
                const int64_t *lwork, int64_t *iwork, const int64_t *liwork,
                int64_t *info, size_t l1, size_t l2)
{
    ((dsyevd_fn *)real("dsyevd_"))(jobz, uplo, n, a, lda, w, work, lwork,
                                   iwork, liwork, info, l1, l2);
}

void dgesdd_64_(const char *jobz, const int64_t *m, const int64_t *n,
                double *a, const int64_t *lda, double *s, double *u,
                const int64_t *ldu, double *vt, const int64_t *ldvt,
                double *work, const int64_t *lwork, int64_t *iwork,
                int64_t *info, size_t l1)
{
    ((dgesdd_fn *)real("dgesdd_"))(jobz, m, n, a, lda, s, u, ldu, vt, ldvt,
                                   work, lwork, iwork, info, l1);
}

void zheevd_64_(const char *jobz, const char *uplo, const int64_t *n,
                double _Complex *a, const int64_t *lda, double *w,
                double _Complex *work, const int64_t *lwork, double *rwork,
                const int64_t *lrwork, int64_t *iwork, const int64_t *liwork,
                int64_t *info, size_t l1, size_t l2)
{
    ((zheevd_fn *)real("zheevd_"))(jobz, uplo, n, a, lda, w, work, lwork,
                                   rwork, lrwork, iwork, liwork, info, l1, l2);
}
