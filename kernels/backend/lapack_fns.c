/* Run-time resolution of the LAPACK/BLAS routines of lapack_fns.h.
 *
 * They come from the LAPACK behind the plain names (dgemm_, dsterf_, ...),
 * the one the forwarded calls go to: one process then runs one BLAS, with
 * its thread pool and settings, whichever the program chose.  When that
 * LAPACK has 64-bit INTEGERs (Debian's liblapack64-3 and libopenblas64-0
 * keep the plain names), the table holds adapters instead: each widens the
 * kernels' 32-bit INTEGERs, scalars and arrays, calls the ILP64 routine
 * and narrows what it returns.  Every value fits: the kernels' sizes are
 * 32-bit INTEGERs to begin with. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/log.h"
#include "../../runtime/real_lapack.h"
#include "../../runtime/precision.h"
#include "lapack_fns.h"

typedef const lapack_int cint;
typedef int64_t i64;

static GL_FN(lapack_fns) fns;
static int fns_complete;
static pthread_once_t fns_once = PTHREAD_ONCE_INIT;

/* The routines of an ILP64 LAPACK, behind the adapters below. */
typedef struct {
    GL_LAPACK_FNS_FIELDS(i64)
} wide_fns;
static wide_fns wide;

/* An INTEGER argument widened: a temporary that lives until the end of
 * the adapter's statement. */
#define W(p) (&(const i64){*(p)})

/* Room for count INTEGERs of an ILP64 routine (at least one); NULL when
 * out of memory. */
static i64 *wide_array(lapack_int count)
{
    return malloc((size_t)(count > 0 ? count : 1) * sizeof(i64));
}

static void narrow_array(lapack_int *v, const i64 *w, lapack_int count)
{
    for (lapack_int i = 0; i < count; i++)
        v[i] = (lapack_int)w[i];
}

/* INFO of an adapter that could not allocate its INTEGER arrays: nonzero,
 * so the kernel gives up and the call restarts on LAPACK. */
#define NO_MEMORY (-1000)

static void geqrt3_w(cint *m, cint *n, gl_scalar *a, cint *lda, gl_scalar *t,
                     cint *ldt, lapack_int *info)
{
    i64 info64 = 0;
    wide.geqrt3(W(m), W(n), a, W(lda), t, W(ldt), &info64);
    *info = (lapack_int)info64;
}

static void gelqt3_w(cint *m, cint *n, gl_scalar *a, cint *lda, gl_scalar *t,
                     cint *ldt, lapack_int *info)
{
    i64 info64 = 0;
    wide.gelqt3(W(m), W(n), a, W(lda), t, W(ldt), &info64);
    *info = (lapack_int)info64;
}

static void geqrf_w(cint *m, cint *n, gl_scalar *a, cint *lda, gl_scalar *tau,
                    gl_scalar *work, cint *lwork, lapack_int *info)
{
    i64 info64 = 0;
    wide.geqrf(W(m), W(n), a, W(lda), tau, work, W(lwork), &info64);
    *info = (lapack_int)info64;
}

static void geqlf_w(cint *m, cint *n, gl_scalar *a, cint *lda, gl_scalar *tau,
                    gl_scalar *work, cint *lwork, lapack_int *info)
{
    i64 info64 = 0;
    wide.geqlf(W(m), W(n), a, W(lda), tau, work, W(lwork), &info64);
    *info = (lapack_int)info64;
}

static void larfb_w(cchar *side, cchar *trans, cchar *direct, cchar *storev,
                    cint *m, cint *n, cint *k, const gl_scalar *v, cint *ldv,
                    const gl_scalar *t, cint *ldt, gl_scalar *c, cint *ldc,
                    gl_scalar *work, cint *ldwork, gl_strlen l1, gl_strlen l2,
                    gl_strlen l3, gl_strlen l4)
{
    wide.larfb(side, trans, direct, storev, W(m), W(n), W(k), v, W(ldv), t,
               W(ldt), c, W(ldc), work, W(ldwork), l1, l2, l3, l4);
}

static void gemm_w(cchar *ta, cchar *tb, cint *m, cint *n, cint *k,
                   const gl_scalar *alpha, const gl_scalar *a, cint *lda,
                   const gl_scalar *b, cint *ldb, const gl_scalar *beta,
                   gl_scalar *c, cint *ldc, gl_strlen l1, gl_strlen l2)
{
    wide.gemm(ta, tb, W(m), W(n), W(k), alpha, a, W(lda), b, W(ldb), beta, c,
              W(ldc), l1, l2);
}

static void hemm_w(cchar *side, cchar *uplo, cint *m, cint *n,
                   const gl_scalar *alpha, const gl_scalar *a, cint *lda,
                   const gl_scalar *b, cint *ldb, const gl_scalar *beta,
                   gl_scalar *c, cint *ldc, gl_strlen l1, gl_strlen l2)
{
    wide.hemm(side, uplo, W(m), W(n), alpha, a, W(lda), b, W(ldb), beta, c,
              W(ldc), l1, l2);
}

static void her2k_w(cchar *uplo, cchar *trans, cint *n, cint *k,
                    const gl_scalar *alpha, const gl_scalar *a, cint *lda,
                    const gl_scalar *b, cint *ldb, const gl_real *beta,
                    gl_scalar *c, cint *ldc, gl_strlen l1, gl_strlen l2)
{
    wide.her2k(uplo, trans, W(n), W(k), alpha, a, W(lda), b, W(ldb), beta, c,
               W(ldc), l1, l2);
}

static void gemv_w(cchar *trans, cint *m, cint *n, const gl_scalar *alpha,
                   const gl_scalar *a, cint *lda, const gl_scalar *x,
                   cint *incx, const gl_scalar *beta, gl_scalar *y,
                   cint *incy, gl_strlen l1)
{
    wide.gemv(trans, W(m), W(n), alpha, a, W(lda), x, W(incx), beta, y,
              W(incy), l1);
}

static void hemv_w(cchar *uplo, cint *n, const gl_scalar *alpha,
                   const gl_scalar *a, cint *lda, const gl_scalar *x,
                   cint *incx, const gl_scalar *beta, gl_scalar *y,
                   cint *incy, gl_strlen l1)
{
    wide.hemv(uplo, W(n), alpha, a, W(lda), x, W(incx), beta, y, W(incy), l1);
}

static void trmm_w(cchar *side, cchar *uplo, cchar *transa, cchar *diag,
                   cint *m, cint *n, const gl_scalar *alpha,
                   const gl_scalar *a, cint *lda, gl_scalar *b, cint *ldb,
                   gl_strlen l1, gl_strlen l2, gl_strlen l3, gl_strlen l4)
{
    wide.trmm(side, uplo, transa, diag, W(m), W(n), alpha, a, W(lda), b,
              W(ldb), l1, l2, l3, l4);
}

static void lascl_w(cchar *type, cint *kl, cint *ku, const gl_real *cfrom,
                    const gl_real *cto, cint *m, cint *n, gl_scalar *a,
                    cint *lda, lapack_int *info, gl_strlen l1)
{
    i64 info64 = 0;
    wide.lascl(type, W(kl), W(ku), cfrom, cto, W(m), W(n), a, W(lda),
               &info64, l1);
    *info = (lapack_int)info64;
}

static void bdsqr_w(cchar *uplo, cint *n, cint *ncvt, cint *nru, cint *ncc,
                    gl_real *d, gl_real *e, gl_real *vt, cint *ldvt,
                    gl_real *u, cint *ldu, gl_real *c, cint *ldc,
                    gl_real *work, lapack_int *info, gl_strlen l1)
{
    i64 info64 = 0;
    wide.bdsqr(uplo, W(n), W(ncvt), W(nru), W(ncc), d, e, vt, W(ldvt), u,
               W(ldu), c, W(ldc), work, &info64, l1);
    *info = (lapack_int)info64;
}

static void sterf_w(cint *n, gl_real *d, gl_real *e, lapack_int *info)
{
    i64 info64 = 0;
    wide.sterf(W(n), d, e, &info64);
    *info = (lapack_int)info64;
}

static void stebz_w(cchar *range, cchar *order, cint *n, const gl_real *vl,
                    const gl_real *vu, cint *il, cint *iu,
                    const gl_real *abstol, const gl_real *d, const gl_real *e,
                    lapack_int *m, lapack_int *nsplit, gl_real *w,
                    lapack_int *iblock, lapack_int *isplit, gl_real *work,
                    lapack_int *iwork, lapack_int *info, gl_strlen l1,
                    gl_strlen l2)
{
    (void)iwork;
    i64 *ints = wide_array(5 * *n);  /* IBLOCK, ISPLIT, IWORK(3N) */
    if (!ints) {
        *info = NO_MEMORY;
        return;
    }
    i64 m64 = 0, nsplit64 = 0, info64 = 0;
    wide.stebz(range, order, W(n), vl, vu, W(il), W(iu), abstol, d, e, &m64,
               &nsplit64, w, ints, ints + *n, work, ints + 2 * *n, &info64,
               l1, l2);
    *m = (lapack_int)m64;
    *nsplit = (lapack_int)nsplit64;
    narrow_array(iblock, ints, *m);
    narrow_array(isplit, ints + *n, *nsplit);
    *info = (lapack_int)info64;
    free(ints);
}

/* COMPQ 'N' or 'I' only (the kernels' uses): Q and IQ are not referenced. */
static void bdsdc_w(cchar *uplo, cchar *compq, cint *n, gl_real *d,
                    gl_real *e, gl_real *u, cint *ldu, gl_real *vt,
                    cint *ldvt, gl_real *q, lapack_int *iq, gl_real *work,
                    lapack_int *iwork, lapack_int *info, gl_strlen l1,
                    gl_strlen l2)
{
    (void)iq, (void)iwork;
    i64 *iwork64 = wide_array(8 * *n);
    if (!iwork64) {
        *info = NO_MEMORY;
        return;
    }
    i64 info64 = 0;
    wide.bdsdc(uplo, compq, W(n), d, e, u, W(ldu), vt, W(ldvt), q, NULL, work,
               iwork64, &info64, l1, l2);
    *info = (lapack_int)info64;
    free(iwork64);
}

static void steqr_w(cchar *compz, cint *n, gl_real *d, gl_real *e, gl_real *z,
                    cint *ldz, gl_real *work, lapack_int *info, gl_strlen l1)
{
    i64 info64 = 0;
    wide.steqr(compz, W(n), d, e, z, W(ldz), work, &info64, l1);
    *info = (lapack_int)info64;
}

static void stedc_w(cchar *compz, cint *n, gl_real *d, gl_real *e, gl_real *z,
                    cint *ldz, gl_real *work, cint *lwork, lapack_int *iwork,
                    cint *liwork, lapack_int *info, gl_strlen l1)
{
    /* a workspace query (LIWORK = -1) returns its size in IWORK(1) */
    i64 *iwork64 = wide_array(*liwork);
    if (!iwork64) {
        *info = NO_MEMORY;
        return;
    }
    i64 info64 = 0;
    wide.stedc(compz, W(n), d, e, z, W(ldz), work, W(lwork), iwork64,
               W(liwork), &info64, l1);
    iwork[0] = (lapack_int)iwork64[0];
    *info = (lapack_int)info64;
    free(iwork64);
}

static void stein_w(cint *n, const gl_real *d, const gl_real *e, cint *m,
                    const gl_real *w, const lapack_int *iblock,
                    const lapack_int *isplit, gl_real *z, cint *ldz,
                    gl_real *work, lapack_int *iwork, lapack_int *ifail,
                    lapack_int *info)
{
    (void)iwork;
    /* IBLOCK(M), ISPLIT(N) in, IWORK(N) scratch, IFAIL(M) out */
    i64 *ints = wide_array(2 * *m + 2 * *n);
    if (!ints) {
        *info = NO_MEMORY;
        return;
    }
    i64 *iblock64 = ints, *ifail64 = ints + *m, *isplit64 = ints + 2 * *m;
    for (lapack_int i = 0; i < *m; i++)
        iblock64[i] = iblock[i];
    for (lapack_int i = 0; i < *n; i++)
        isplit64[i] = isplit[i];
    i64 info64 = 0;
    wide.stein(W(n), d, e, W(m), w, iblock64, isplit64, z, W(ldz), work,
               isplit64 + *n, ifail64, &info64);
    narrow_array(ifail, ifail64, *m);
    *info = (lapack_int)info64;
    free(ints);
}

static void rgeqrf_w(cint *m, cint *n, gl_real *a, cint *lda, gl_real *tau,
                     gl_real *work, cint *lwork, lapack_int *info)
{
    i64 info64 = 0;
    wide.rgeqrf(W(m), W(n), a, W(lda), tau, work, W(lwork), &info64);
    *info = (lapack_int)info64;
}

static void rorgqr_w(cint *m, cint *n, cint *k, gl_real *a, cint *lda,
                     const gl_real *tau, gl_real *work, cint *lwork,
                     lapack_int *info)
{
    i64 info64 = 0;
    wide.rorgqr(W(m), W(n), W(k), a, W(lda), tau, work, W(lwork), &info64);
    *info = (lapack_int)info64;
}

static void rlascl_w(cchar *type, cint *kl, cint *ku, const gl_real *cfrom,
                     const gl_real *cto, cint *m, cint *n, gl_real *a,
                     cint *lda, lapack_int *info, gl_strlen l1)
{
    i64 info64 = 0;
    wide.rlascl(type, W(kl), W(ku), cfrom, cto, W(m), W(n), a, W(lda),
                &info64, l1);
    *info = (lapack_int)info64;
}

static void lasd0_w(cint *n, cint *sqre, gl_real *d, gl_real *e, gl_real *u,
                    cint *ldu, gl_real *vt, cint *ldvt, cint *smlsiz,
                    lapack_int *iwork, gl_real *work, lapack_int *info)
{
    (void)iwork;
    i64 *iwork64 = wide_array(8 * *n);
    if (!iwork64) {
        *info = NO_MEMORY;
        return;
    }
    i64 info64 = 0;
    wide.lasd0(W(n), W(sqre), d, e, u, W(ldu), vt, W(ldvt), W(smlsiz),
               iwork64, work, &info64);
    *info = (lapack_int)info64;
    free(iwork64);
}

static void lasd4_w(cint *n, cint *i, const gl_real *d, const gl_real *z,
                    gl_real *delta, const gl_real *rho, gl_real *sigma,
                    gl_real *work, lapack_int *info)
{
    i64 info64 = 0;
    wide.lasd4(W(n), W(i), d, z, delta, rho, sigma, work, &info64);
    *info = (lapack_int)info64;
}

/* INDXQ(N) in and out, INDX, INDXC, INDXP, COLTYP(N) out */
static void laed2_w(lapack_int *k, cint *n, cint *n1, gl_real *d, gl_real *q,
                    cint *ldq, lapack_int *indxq, gl_real *rho, gl_real *z,
                    gl_real *dlambda, gl_real *w, gl_real *q2,
                    lapack_int *indx, lapack_int *indxc, lapack_int *indxp,
                    lapack_int *coltyp, lapack_int *info)
{
    lapack_int count = *n > 0 ? *n : 1;
    i64 *ints = wide_array(5 * count);
    if (!ints) {
        *info = NO_MEMORY;
        return;
    }
    lapack_int *outs[5] = {indxq, indx, indxc, indxp, coltyp};
    for (lapack_int i = 0; i < *n; i++)
        ints[i] = indxq[i];
    i64 k64 = 0, info64 = 0;
    wide.laed2(&k64, W(n), W(n1), d, q, W(ldq), ints, rho, z, dlambda, w, q2,
               ints + count, ints + 2 * count, ints + 3 * count,
               ints + 4 * count, &info64);
    for (int j = 0; j < 5; j++)
        narrow_array(outs[j], ints + j * count, *n);
    *k = (lapack_int)k64;
    *info = (lapack_int)info64;
    free(ints);
}

static void laed4_w(cint *n, cint *i, const gl_real *d, const gl_real *z,
                    gl_real *delta, const gl_real *rho, gl_real *dlam,
                    lapack_int *info)
{
    i64 info64 = 0;
    wide.laed4(W(n), W(i), d, z, delta, rho, dlam, &info64);
    *info = (lapack_int)info64;
}

/* ?lamrg's contract, which has no INFO to report a failed allocation
 * with: INDEX lists the positions of A(1..N1) and A(N1+1..N1+N2), each
 * sorted in the direction of its stride (1 ascending, -1 descending), in
 * ascending order of their values, the first set's first on ties. */
static void lamrg_merge(cint *n1, cint *n2, const gl_real *a, cint *strd1,
                        cint *strd2, lapack_int *index)
{
    lapack_int left1 = *n1, left2 = *n2, out = 0;
    lapack_int at1 = *strd1 > 0 ? 1 : *n1;
    lapack_int at2 = *strd2 > 0 ? *n1 + 1 : *n1 + *n2;
    while (left1 > 0 && left2 > 0) {
        if (a[at1 - 1] <= a[at2 - 1]) {
            index[out++] = at1;
            at1 += *strd1;
            left1--;
        } else {
            index[out++] = at2;
            at2 += *strd2;
            left2--;
        }
    }
    for (; left1 > 0; left1--, at1 += *strd1)
        index[out++] = at1;
    for (; left2 > 0; left2--, at2 += *strd2)
        index[out++] = at2;
}

static void rgemm_w(cchar *ta, cchar *tb, cint *m, cint *n, cint *k,
                    const gl_real *alpha, const gl_real *a, cint *lda,
                    const gl_real *b, cint *ldb, const gl_real *beta,
                    gl_real *c, cint *ldc, gl_strlen l1, gl_strlen l2)
{
    wide.rgemm(ta, tb, W(m), W(n), W(k), alpha, a, W(lda), b, W(ldb), beta, c,
               W(ldc), l1, l2);
}

/* Where the routines come from: a name pattern and the INTEGER it takes.
 * The plain names first (their width probed from ilaver_); then, for a
 * process without them (a virtual environment with pip's numpy and scipy
 * and no system LAPACK), the ILP64 _64_ names and the OpenBLAS of pip's
 * scipy (scipy_dgemm_, LP64) and numpy (scipy_dgemm_64_, ILP64).  Each
 * source is tried first in the library GPULAPACK_LAPACK names alone (the
 * user's choice wins, whatever its names), then in the whole search; the
 * first that has every required routine serves them all, so that the
 * helpers of one call never mix two LAPACKs. */
typedef struct {
    const char *prefix, *suffix;
    int wide;   /* 64-bit INTEGERs; -1: as gl_lapack_ilp64 finds */
} source;

static const source sources[] = {
    {"", "_", -1},
    {"", "_64_", 1},
    {"scipy_", "_", 0},
    {"scipy_", "_64_", 1},
};

static void *find(const source *src, int chosen, const char *base)
{
    char symbol[48];
    snprintf(symbol, sizeof symbol, "%s%s%s", src->prefix, base,
             src->suffix);
    return chosen ? gl_lapack_chosen_symbol(symbol) : gl_lapack_symbol(symbol);
}

/* The names of this precision's routine and of its real precision's, as
 * "dgeqrt3" (for "dgeqrt3_", "scipy_dgeqrt3_64_", ...) and "dsterf". */
#define BASE(real_name, complex_name)                                         \
    GL_STR(GL_PASTE2(GL_P, GL_PICK(real_name, complex_name)))
#define REAL_BASE(name) GL_STR(GL_PASTE2(GL_RP, name))

/* One routine, into the table directly (32-bit INTEGERs) or behind its
 * adapter (64-bit); once a required one is missing, the source has failed
 * and the rest are not looked up. */
#define RESOLVE(field, base)                                                  \
    do {                                                                      \
        void *fn_ = found ? find(src, chosen, base) : NULL;                   \
        *(void **)&wide.field = fn_;                                          \
        if (wide_ints)                                                        \
            fns.field = fn_ ? field##_w : NULL;                               \
        else                                                                  \
            *(void **)&fns.field = fn_;                                       \
        found &= fn_ != NULL;                                                 \
    } while (0)
/* a routine without INTEGERs: the same either way */
#define RESOLVE_PLAIN(field, base)                                            \
    do {                                                                      \
        *(void **)&fns.field = found ? find(src, chosen, base) : NULL;        \
        found &= fns.field != NULL;                                           \
    } while (0)
/* optional: its absence only turns one method off */
#define RESOLVE_OPTIONAL(field, base)                                         \
    do {                                                                      \
        int required_ = found;                                                \
        RESOLVE(field, base);                                                 \
        found = required_;                                                    \
    } while (0)

/* The BLAS's thread count, where it is OpenBLAS on its own threads
 * (pthreads): openblas_get_parallel() == 1, under pip's scipy_ prefix and
 * the ILP64 build's 64_ suffix too.  Not for its OpenMP build (2), whose
 * openblas_set_num_threads also sets the calling thread's OpenMP thread
 * count (omp_set_num_threads), which the program may have set otherwise
 * and whose idle threads do not spin for long; nor for other BLASes,
 * which keep their own threads (docs/env.md GPULAPACK_HOST_PRODUCTS). */
static void resolve_blas_threads(const source *src, int chosen,
                                 gl_blas_threads *out)
{
    static const char *const names[] = {"openblas_get_parallel",
                                        "openblas_get_num_threads",
                                        "openblas_set_num_threads"};
    const char *suffix = strcmp(src->suffix, "_64_") == 0 ? "64_" : "";
    void *fn[3];
    for (int i = 0; i < 3; i++) {
        char symbol[64];
        snprintf(symbol, sizeof symbol, "%s%s%s", src->prefix, names[i],
                 suffix);
        fn[i] = chosen ? gl_lapack_chosen_symbol(symbol)
                       : gl_lapack_symbol(symbol);
    }
    *out = (gl_blas_threads){0};
    int (*parallel)(void);
    *(void **)&parallel = fn[0];
    if (parallel && fn[1] && fn[2] && parallel() == 1) {
        *(void **)&out->get = fn[1];
        *(void **)&out->set = fn[2];
    }
}

/* Fills the table from one source; 1 when it has every required routine. */
static int resolve_from(const source *src, int chosen)
{
    const int wide_ints = src->wide < 0 ? gl_lapack_ilp64() : src->wide;
    int found = 1;
    RESOLVE(geqrt3, BASE(geqrt3, geqrt3));
    RESOLVE(gelqt3, BASE(gelqt3, gelqt3));
    RESOLVE(geqrf, BASE(geqrf, geqrf));
    RESOLVE(geqlf, BASE(geqlf, geqlf));
    RESOLVE(larfb, BASE(larfb, larfb));
    RESOLVE(gemm, BASE(gemm, gemm));
    RESOLVE(hemm, BASE(symm, hemm));
    RESOLVE(her2k, BASE(syr2k, her2k));
    RESOLVE(gemv, BASE(gemv, gemv));
    RESOLVE(hemv, BASE(symv, hemv));
    RESOLVE(trmm, BASE(trmm, trmm));
    RESOLVE(lascl, BASE(lascl, lascl));
    RESOLVE(rlascl, REAL_BASE(lascl));
    RESOLVE(bdsqr, REAL_BASE(bdsqr));
    RESOLVE(sterf, REAL_BASE(sterf));
    RESOLVE(stebz, REAL_BASE(stebz));
    RESOLVE(bdsdc, REAL_BASE(bdsdc));
    RESOLVE(steqr, REAL_BASE(steqr));
    RESOLVE(stedc, REAL_BASE(stedc));
    RESOLVE(stein, REAL_BASE(stein));
    RESOLVE_PLAIN(lartg, REAL_BASE(lartg));
    RESOLVE(rgeqrf, REAL_BASE(geqrf));
    RESOLVE(rorgqr, REAL_BASE(orgqr));
    RESOLVE_PLAIN(lamch, REAL_BASE(lamch));
    RESOLVE_OPTIONAL(lasd0, REAL_BASE(lasd0));
    RESOLVE_OPTIONAL(lasd4, REAL_BASE(lasd4));
    RESOLVE_OPTIONAL(laed2, REAL_BASE(laed2));
    RESOLVE_OPTIONAL(laed4, REAL_BASE(laed4));
    if (wide_ints) {
        fns.lamrg = lamrg_merge;
    } else {
        *(void **)&fns.lamrg = found ? find(src, chosen, REAL_BASE(lamrg))
                                     : NULL;
    }
    RESOLVE_OPTIONAL(rgemm, REAL_BASE(gemm));
    if (found) {
        resolve_blas_threads(src, chosen, &fns.blas_threads);
        gl_log(3, "lapack: %s helpers from %s%s%s names, %d-bit INTEGERs%s",
               BASE(gemm, gemm), src->prefix, BASE(gemm, gemm), src->suffix,
               wide_ints ? 64 : 32, chosen ? " (GPULAPACK_LAPACK)" : "");
    }
    return found;
}

static void resolve(void)
{
    for (int chosen = 1; chosen >= 0; chosen--)
        for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)
            if (resolve_from(&sources[i], chosen)) {
                fns_complete = 1;
                return;
            }
}

/* gl_s_lapack_fns_get gl_d_lapack_fns_get gl_c_lapack_fns_get gl_z_lapack_fns_get */
const GL_FN(lapack_fns) *GL_FN(lapack_fns_get)(void)
{
    pthread_once(&fns_once, resolve);
    return fns_complete ? &fns : NULL;
}
