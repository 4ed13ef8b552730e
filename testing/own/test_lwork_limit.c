/*
 * test_lwork_limit: the rules of docs/large.md ("Large matrices through
 * 32-bit LAPACK") at small n, with GPULAPACK_LWORK_LIMIT lowered so that a
 * workspace minimum passes it, for every routine family with workspace
 * lengths, its _2stage form and s, d, c, z.  Preloaded over the system
 * LAPACK; the real routines are those of dlopen("liblapack.so.3"), which
 * at these sizes compute their minimums correctly.
 *
 *   test_lwork_limit ours    (GPULAPACK_DEVICE=host or opencl, MIN_N=0)
 *       rule 1, our path takes the call: the query answers small sizes
 *       (LAPACK's minimum as the caller's INTEGERs wrap it, else 1); a call with arrays of 1 element (guard zones behind them)
 *       gives INFO = 0 and the real routine's values; the arrays behind
 *       element (1) are untouched.  Rule 2: a non-finite input (our path
 *       leaves, and there is no room to restart) gives LAPACK's INFO of the
 *       first short length, A untouched, and no XERBLA.
 *   test_lwork_limit true    (GPULAPACK_DISABLE=all: the call is not ours)
 *       rule 1, otherwise: the query answers sizes the real routine
 *       accepts, one above the limit (the minimum: one less is refused;
 *       ?gesvd's largest path's workspace); a call with one length at the limit
 *       gets the real routine's INFO through XERBLA (name and position) and
 *       A untouched (never forwarded); a call with the answered sizes runs
 *       (forwarded) and gives the real routine's values.
 *
 * Prints PASS/FAIL lines; exits 0 (failures are counted from the lines).
 */
#define _GNU_SOURCE
#include <complex.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int lint;   /* LP64 INTEGER */

static int fails, passes;
static void verdict(int ok, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void verdict(int ok, const char *name, const char *fmt, ...)
{
    char why[300] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (ok)
        printf("PASS lwork-limit/%s\n", name), passes++;
    else
        printf("FAIL lwork-limit/%s: %s\n", name, why), fails++;
    fflush(stdout);
}

/* XERBLA as the program's own (LAPACK's test suite does the same) */
static int xb_calls, xb_info;
static char xb_name[40];
void xerbla_(const char *name, const lint *info, size_t len);
void xerbla_(const char *name, const lint *info, size_t len)
{
    size_t n = len < sizeof xb_name - 1 ? len : sizeof xb_name - 1;
    memcpy(xb_name, name, n);
    while (n > 0 && xb_name[n - 1] == ' ')
        n--;
    xb_name[n] = 0;
    xb_info = *info;
    xb_calls++;
}

/* The real LAPACK twice: loaded beside the library (its calls of XERBLA
 * bind to this program's, for the checks of INFO and XERBLA), and in a
 * namespace of its own (its nested calls, dsytrd_ in dsyevd_, never reach
 * the preloaded library: the reference values are LAPACK's alone). */
static void *real_lib, *alone_lib;
static void *real_fn(const char *name)
{
    if (!real_lib)
        real_lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    return real_lib ? dlsym(real_lib, name) : NULL;
}
static void *alone_fn(const char *name)
{
    if (!alone_lib)
        alone_lib = dlmopen(LM_ID_NEWLM, "liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    return alone_lib ? dlsym(alone_lib, name) : real_fn(name);
}

/* ---- the families ------------------------------------------------------ */

enum { F_GESVD, F_GESDD, F_SYEV, F_SYEVD, F_SYEVR, F_SYEVX, F_SBEVD,
       F_SYTRD2, F_NFAM };
static const char *const fam_r[] = {"gesvd", "gesdd", "syev", "syevd",
                                    "syevr", "syevx", "sbevd", "sytrd_2stage"};
static const char *const fam_c[] = {"gesvd", "gesdd", "heev", "heevd",
                                    "heevr", "heevx", "hbevd", "hetrd_2stage"};

enum { M = 50, N = 40, KD = 6, GUARD = 16 };
#define GUARD_VALUE 12345.0

/* One call's arguments; every array is of doubles (complex double) large
 * enough for any precision, the routine reads them as its type. */
typedef struct call {
    int fam, two_stage;
    char p;             /* s d c z */
    char job[3];
    lint m, n, lda;
    lint len[3];        /* LWORK, LRWORK (complex), LIWORK; sytrd_2stage:
                           LHOUS2, LWORK */
    double complex *a, *work, *hous2, *u, *vt, *z;
    double *w, *rwork, *e;
    lint *iwork, *isuppz, *ifail;
    lint mout, info;
} call;

static int cplx(char p) { return p == 'c' || p == 'z'; }
static int single(char p) { return p == 's' || p == 'c'; }
static size_t esize(char p) { return (single(p) ? 4 : 8) * (cplx(p) ? 2 : 1); }

/* the lengths of a family, in the routine's argument order (LAPACK's
 * checks' order), and how many */
static int nlengths(const call *c)
{
    if (c->fam == F_SYTRD2)
        return 2;
    if (c->fam == F_SYEVD || c->fam == F_SYEVR || c->fam == F_SBEVD)
        return cplx(c->p) ? 3 : 2;
    return 1;
}

/* element (1) of the array whose size length i gives */
static double real_at(char p, const void *buf, size_t i);
static double answer(const call *c, int i)
{
    int k = nlengths(c);
    if (c->fam == F_SYTRD2)
        return real_at(c->p, i == 0 ? (void *)c->hous2 : (void *)c->work, 0);
    if (k > 1 && i == k - 1)
        return c->iwork[0];
    if (i == 1)
        return real_at(c->p, c->rwork, 0);
    return real_at(c->p, c->work, 0);
}

static void put(char p, void *buf, size_t i, double re, double im)
{
    switch (p) {
    case 's': ((float *)buf)[i] = (float)re; break;
    case 'd': ((double *)buf)[i] = re; break;
    case 'c': ((float complex *)buf)[i] = (float)re + I * (float)im; break;
    default: ((double complex *)buf)[i] = re + I * im;
    }
}

static double real_at(char p, const void *buf, size_t i)
{
    return single(p) ? ((const float *)buf)[i] : ((const double *)buf)[i];
}

static void *big(size_t n)
{
    double complex *b = calloc(n, sizeof *b);
    if (!b)
        abort();
    return b;
}

/* A call with its matrix (symmetric/Hermitian, or M x N, or a band of
 * half-width KD) from seed, the arrays of lengths len with guard zones
 * of GUARD_VALUE behind them. */
static void setup(call *c, int fam, int two_stage, char p, const lint len[3])
{
    memset(c, 0, sizeof *c);
    c->fam = fam, c->two_stage = two_stage, c->p = p;
    int svd = fam == F_GESVD || fam == F_GESDD;
    c->m = svd ? M : N, c->n = N;
    c->lda = fam == F_SBEVD ? KD + 1 : c->m;
    snprintf(c->job, sizeof c->job, "%s",
             fam == F_GESVD ? "SS" : fam == F_GESDD ? "S"
             : two_stage || fam == F_SYTRD2 ? "N" : "V");
    memcpy(c->len, len, sizeof c->len);
    size_t na = (size_t)c->lda * (size_t)c->n;
    c->a = big(na);
    uint64_t s = 88172645463325252ull ^ (uint64_t)(fam * 131 + p);
    for (lint j = 0; j < c->n; j++)
        for (lint i = 0; i < c->lda; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            double re = (double)(s >> 11) / 9007199254740992.0 - 0.5;
            double im = (double)((s >> 3) & 1023) / 1024.0 - 0.5;
            /* ?sbevd's band is stored as UPLO = 'L': the diagonal in row 1 */
            int diag = svd ? 0 : fam == F_SBEVD ? i == 0 : i == j;
            put(p, c->a, (size_t)j * c->lda + i, re + (diag ? 2.0 : 0.0),
                diag ? 0.0 : im);
        }
    /* arrays of the lengths given (a query's -1: of 1) */
    lint at[3];
    for (int i = 0; i < 3; i++)
        at[i] = len[i] < 1 ? 1 : len[i];
    size_t lw = (size_t)(fam == F_SYTRD2 ? at[1] : at[0]);
    size_t lh = (size_t)at[0];
    size_t lr = (size_t)(cplx(p) && nlengths(c) == 3 ? at[1] : 0);
    size_t li = (size_t)(nlengths(c) >= 2 && fam != F_SYTRD2
                             ? at[nlengths(c) - 1] : 0);
    /* the fixed workspaces: RWORK of ?gesvd 5*MIN(M,N), of ?gesdd
     * 5*MIN**2 + 7*MIN, ?heev 3N-2, ?heevx 7N; IWORK of ?gesdd 8*MIN,
     * ?syevx 5N */
    if (!lr)
        lr = fam == F_GESDD ? 5 * N * N + 7 * N : 7 * N;
    if (!li)
        li = fam == F_GESDD ? 8 * N : 5 * N;
    c->work = big(lw + GUARD);
    c->hous2 = big(lh + GUARD);
    c->rwork = big(lr + GUARD);
    c->iwork = big(li + GUARD);
    for (size_t g = 0; g < GUARD; g++) {
        put(p, c->work, lw + g, GUARD_VALUE, 0);
        put(p, c->hous2, lh + g, GUARD_VALUE, 0);
        put(single(p) ? 's' : 'd', c->rwork, lr + g, GUARD_VALUE, 0);
        c->iwork[li + g] = 12345;
    }
    c->w = big(N), c->e = big(N);
    c->u = big((size_t)M * N), c->vt = big((size_t)N * N), c->z = big((size_t)N * N);
    c->isuppz = big(2 * N), c->ifail = big(N);
}

static int guards_intact(const call *c)
{
    size_t lw = (size_t)(c->fam == F_SYTRD2 ? c->len[1] : c->len[0]);
    int ok = 1;
    for (size_t g = 0; g < GUARD; g++)
        ok &= real_at(c->p, c->work, (lw + g) * (cplx(c->p) ? 2 : 1)) ==
              GUARD_VALUE;
    if (c->fam == F_SYTRD2)
        for (size_t g = 0; g < GUARD; g++)
            ok &= real_at(c->p, c->hous2,
                          ((size_t)c->len[0] + g) * (cplx(c->p) ? 2 : 1)) ==
                  GUARD_VALUE;
    if (cplx(c->p) && nlengths(c) == 3)
        for (size_t g = 0; g < GUARD; g++)
            ok &= real_at(c->p, c->rwork, (size_t)c->len[1] + g) == GUARD_VALUE;
    if (nlengths(c) >= 2 && c->fam != F_SYTRD2)
        for (size_t g = 0; g < GUARD; g++)
            ok &= c->iwork[c->len[nlengths(c) - 1] + g] == 12345;
    return ok;
}

static void release(call *c)
{
    void *bufs[] = {c->a, c->work, c->hous2, c->rwork, c->iwork, c->w, c->e,
                    c->u, c->vt, c->z, c->isuppz, c->ifail};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(bufs[i]);
}

static void name_of(const call *c, char *out, size_t size)
{
    snprintf(out, size, "%c%s%s", c->p, cplx(c->p) ? fam_c[c->fam] : fam_r[c->fam],
             c->two_stage ? "_2stage" : "");
}

typedef void fn_t();

/* Calls the routine named as c's through fn (ours: dlsym(RTLD_DEFAULT),
 * the preloaded library; real: the real LAPACK's) */
static void invoke(call *c, fn_t *fn)
{
    const char *j = c->job, *uplo = "L", *range = "A";
    double vl8 = 0, vu8 = 0, tol8 = 0;
    float vl4 = 0, vu4 = 0, tol4 = 0;
    void *vl = single(c->p) ? (void *)&vl4 : (void *)&vl8;
    void *vu = single(c->p) ? (void *)&vu4 : (void *)&vu8;
    void *tol = single(c->p) ? (void *)&tol4 : (void *)&tol8;
    lint il = 1, iu = N, ldu = M, ldvt = N, ldz = N, kd = KD;
    lint *len = c->len;
    int x = cplx(c->p);
    (void)vl8, (void)vu8, (void)tol8, (void)vl4, (void)vu4, (void)tol4;
    switch (c->fam) {
    case F_GESVD:
        if (x) fn(j, j + 1, &c->m, &c->n, c->a, &c->lda, c->w, c->u, &ldu, c->vt, &ldvt, c->work, &len[0], c->rwork, &c->info, 1, 1);
        else fn(j, j + 1, &c->m, &c->n, c->a, &c->lda, c->w, c->u, &ldu, c->vt, &ldvt, c->work, &len[0], &c->info, 1, 1);
        break;
    case F_GESDD:
        if (x) fn(j, &c->m, &c->n, c->a, &c->lda, c->w, c->u, &ldu, c->vt, &ldvt, c->work, &len[0], c->rwork, c->iwork, &c->info, 1);
        else fn(j, &c->m, &c->n, c->a, &c->lda, c->w, c->u, &ldu, c->vt, &ldvt, c->work, &len[0], c->iwork, &c->info, 1);
        break;
    case F_SYEV:
        if (x) fn(j, uplo, &c->n, c->a, &c->lda, c->w, c->work, &len[0], c->rwork, &c->info, 1, 1);
        else fn(j, uplo, &c->n, c->a, &c->lda, c->w, c->work, &len[0], &c->info, 1, 1);
        break;
    case F_SYEVD:
        if (x) fn(j, uplo, &c->n, c->a, &c->lda, c->w, c->work, &len[0], c->rwork, &len[1], c->iwork, &len[2], &c->info, 1, 1);
        else fn(j, uplo, &c->n, c->a, &c->lda, c->w, c->work, &len[0], c->iwork, &len[1], &c->info, 1, 1);
        break;
    case F_SYEVR:
        if (x) fn(j, range, uplo, &c->n, c->a, &c->lda, vl, vu, &il, &iu, tol, &c->mout, c->w, c->z, &ldz, c->isuppz, c->work, &len[0], c->rwork, &len[1], c->iwork, &len[2], &c->info, 1, 1, 1);
        else fn(j, range, uplo, &c->n, c->a, &c->lda, vl, vu, &il, &iu, tol, &c->mout, c->w, c->z, &ldz, c->isuppz, c->work, &len[0], c->iwork, &len[1], &c->info, 1, 1, 1);
        break;
    case F_SYEVX:
        if (x) fn(j, range, uplo, &c->n, c->a, &c->lda, vl, vu, &il, &iu, tol, &c->mout, c->w, c->z, &ldz, c->work, &len[0], c->rwork, c->iwork, c->ifail, &c->info, 1, 1, 1);
        else fn(j, range, uplo, &c->n, c->a, &c->lda, vl, vu, &il, &iu, tol, &c->mout, c->w, c->z, &ldz, c->work, &len[0], c->iwork, c->ifail, &c->info, 1, 1, 1);
        break;
    case F_SBEVD:
        if (x) fn(j, uplo, &c->n, &kd, c->a, &c->lda, c->w, c->z, &ldz, c->work, &len[0], c->rwork, &len[1], c->iwork, &len[2], &c->info, 1, 1);
        else fn(j, uplo, &c->n, &kd, c->a, &c->lda, c->w, c->z, &ldz, c->work, &len[0], c->iwork, &len[1], &c->info, 1, 1);
        break;
    case F_SYTRD2:
        fn(j, uplo, &c->n, c->a, &c->lda, c->w, c->e, c->z, c->hous2, &len[0], c->work, &len[1], &c->info, 1, 1);
        break;
    }
}

/* real: 0 ours (as the program binds it), 1 the real LAPACK beside it,
 * 2 the real LAPACK alone */
static fn_t *lookup(const call *c, int real)
{
    char name[40], sym[44];
    name_of(c, name, sizeof name);
    snprintf(sym, sizeof sym, "%s_", name);
    return (fn_t *)(real == 2 ? alone_fn(sym)
                    : real    ? real_fn(sym)
                              : dlsym(RTLD_DEFAULT, sym));
}

/* the real routine's values (W, or D of ?sytrd_2stage) against c's */
static double values_error(const call *c, const call *ref)
{
    double worst = 0, scale = 0;
    /* ?sytrd_2stage: two reductions give different tridiagonals (the same
     * eigenvalues); its INFO and guards are checked */
    if (c->fam == F_SYTRD2)
        return 0;
    for (int i = 0; i < N; i++) {
        double a = real_at(c->p, c->w, (size_t)i), b = real_at(c->p, ref->w, (size_t)i);
        worst = fmax(worst, fabs(a - b));
        scale = fmax(scale, fabs(b));
    }
    double eps = single(c->p) ? FLT_EPSILON : DBL_EPSILON;
    return worst / (scale * eps * N);
}

/* max |X^H X - I| / (rows eps) of the cols columns of X (rows x cols,
 * leading dimension ld, of c's precision) */
static double orthogonality(char p, const void *x, int rows, int cols, int ld)
{
    double worst = 0;
    for (int a = 0; a < cols; a++)
        for (int b = a; b < cols; b++) {
            double complex g = 0;
            for (int i = 0; i < rows; i++) {
                size_t ia = (size_t)a * ld + i, ib = (size_t)b * ld + i;
                double complex u, v;
                switch (p) {
                case 's': u = ((const float *)x)[ia], v = ((const float *)x)[ib]; break;
                case 'd': u = ((const double *)x)[ia], v = ((const double *)x)[ib]; break;
                case 'c': u = ((const float complex *)x)[ia], v = ((const float complex *)x)[ib]; break;
                default: u = ((const double complex *)x)[ia], v = ((const double complex *)x)[ib];
                }
                g += conj(u) * v;
            }
            worst = fmax(worst, cabs(g - (a == b)));
        }
    return worst / (rows * (single(p) ? FLT_EPSILON : DBL_EPSILON));
}

/* the vectors of a call with JOBZ = V (S): their orthogonality; 0 for
 * the jobs without */
static double vectors_orthogonality(const call *c)
{
    switch (c->fam) {
    case F_SYEV: case F_SYEVD:
        return c->two_stage ? 0 : orthogonality(c->p, c->a, N, N, c->lda);
    case F_SYEVR: case F_SYEVX: case F_SBEVD:
        return c->two_stage ? 0 : orthogonality(c->p, c->z, N, N, N);
    case F_GESVD: case F_GESDD:
        return orthogonality(c->p, c->u, M, N, M);
    }
    return 0;
}

/* the real routine with its own query's workspace */
static void run_real(call *ref, int fam, int two_stage, char p)
{
    lint q[3] = {-1, -1, -1};
    setup(ref, fam, two_stage, p, (lint[3]){1, 1, 1});
    memcpy(ref->len, q, sizeof q);
    invoke(ref, lookup(ref, 2));
    lint len[3] = {1, 1, 1};
    for (int i = 0; i < nlengths(ref); i++)
        len[i] = (lint)answer(ref, i) + 1;
    release(ref);
    setup(ref, fam, two_stage, p, len);
    invoke(ref, lookup(ref, 2));
}

static long limit_of(void)
{
    const char *v = getenv("GPULAPACK_LWORK_LIMIT");
    return v ? atol(v) : 2147483647L;
}

/* the families each test runs: every family, the _2stage forms of the
 * ?syev ones, in s d c z */
typedef struct { int fam, two_stage; } form;
static const form forms[] = {
    {F_GESVD, 0}, {F_GESDD, 0}, {F_SYEV, 0}, {F_SYEVD, 0}, {F_SYEVR, 0},
    {F_SYEVX, 0}, {F_SBEVD, 0}, {F_SYTRD2, 0}, {F_SYEV, 1}, {F_SYEVD, 1},
    {F_SYEVR, 1}, {F_SYEVX, 1}};

static void test_ours(const form *f, char p)
{
    call c, ref;
    char name[40], check[80];
    setup(&c, f->fam, f->two_stage, p, (lint[3]){-1, -1, -1});
    name_of(&c, name, sizeof name);
    if (!lookup(&c, 1) || !lookup(&c, 0)) {
        verdict(0, name, "%s_ not found (the library preloaded?)", name);
        release(&c);
        return;
    }
    /* the query: small sizes, each at least 1 and within the limit (the
     * minimum as 32-bit INTEGERs wrap it where positive, else 1: dsyevd V
     * at n = 40, limit 60: LWORK 3441 wraps modulo 122 to 25, LIWORK 203
     * to -41, so 1) */
    invoke(&c, lookup(&c, 0));
    long limit = limit_of();
    int small = c.info == 0;
    for (int i = 0; i < nlengths(&c); i++)
        small &= answer(&c, i) >= 1.0 && answer(&c, i) <= (double)limit;
    if (f->fam == F_SYEVD && !f->two_stage && !cplx(p) && limit == 60)
        small &= answer(&c, 0) == 25.0 && answer(&c, 1) == 1.0;
    snprintf(check, sizeof check, "ours/%s/query", name);
    verdict(small, check, "INFO %d, WORK(1) %g, last %g (limit %ld)",
            (int)c.info, answer(&c, 0), answer(&c, nlengths(&c) - 1), limit);
    release(&c);

    /* the call with arrays of one element */
    setup(&c, f->fam, f->two_stage, p, (lint[3]){1, 1, 1});
    xb_calls = 0;
    invoke(&c, lookup(&c, 0));
    run_real(&ref, f->fam, f->two_stage, p);
    double err = values_error(&c, &ref), orth = vectors_orthogonality(&c);
    snprintf(check, sizeof check, "ours/%s/call", name);
    verdict(c.info == 0 && ref.info == 0 && xb_calls == 0 && err < 10.0 &&
                orth < 10.0 && guards_intact(&c),
            check, "INFO %d (real %d), xerbla %d, values %.3g eps*n, "
            "orthogonality %.3g eps*n, guards %s",
            (int)c.info, (int)ref.info, xb_calls, err, orth,
            guards_intact(&c) ? "intact" : "overwritten");
    release(&c);
    release(&ref);

    /* a NaN in A: no room to restart: LAPACK's INFO of the first short
     * length (that of LWORK, or LHOUS2), A untouched, no XERBLA.  (Not
     * ?sytrd_2stage: a reduction carries a NaN through as LAPACK's does.) */
    if (f->fam == F_SYTRD2)
        return;
    setup(&c, f->fam, f->two_stage, p, (lint[3]){1, 1, 1});
    put(p, c.a, (size_t)c.lda + 1, NAN, 0);
    size_t bytes = (size_t)c.lda * (size_t)c.n * esize(p);
    void *copy = malloc(bytes);
    memcpy(copy, c.a, bytes);
    xb_calls = 0;
    invoke(&c, lookup(&c, 0));
    /* LAPACK's INFO for LWORK (LHOUS2 for ?sytrd_2stage) */
    static const int position[][2] = {
        [F_GESVD] = {13, 13}, [F_GESDD] = {12, 12}, [F_SYEV] = {8, 8},
        [F_SYEVD] = {8, 8}, [F_SYEVR] = {18, 18}, [F_SYEVX] = {17, 17},
        [F_SBEVD] = {11, 11}, [F_SYTRD2] = {10, 10}};
    int want = -position[f->fam][cplx(p)];
    snprintf(check, sizeof check, "ours/%s/nonfinite", name);
    verdict(c.info == want && memcmp(copy, c.a, bytes) == 0 && xb_calls == 0,
            check, "INFO %d (want %d), A %s, xerbla %d", (int)c.info, want,
            memcmp(copy, c.a, bytes) == 0 ? "untouched" : "changed", xb_calls);
    free(copy);
    release(&c);
}

static void test_true(const form *f, char p)
{
    call c, ref;
    char name[40], check[80];
    long limit = limit_of();
    setup(&c, f->fam, f->two_stage, p, (lint[3]){-1, -1, -1});
    name_of(&c, name, sizeof name);
    if (!lookup(&c, 1) || !lookup(&c, 0)) {
        verdict(0, name, "%s_ not found (the library preloaded?)", name);
        release(&c);
        return;
    }
    invoke(&c, lookup(&c, 0));
    lint sizes[3] = {1, 1, 1};
    int over = -1;
    for (int i = 0; i < nlengths(&c); i++) {
        sizes[i] = (lint)answer(&c, i);
        if (over < 0 && sizes[i] > limit)
            over = i;
    }
    int qinfo = c.info;
    release(&c);
    /* the sizes answered suffice for the real routine, and one is the
     * minimum over the limit: one less is refused */
    setup(&ref, f->fam, f->two_stage, p, sizes);
    invoke(&ref, lookup(&ref, 1));
    int accepted = ref.info == 0;
    release(&ref);
    int refused = 0;
    if (over >= 0) {
        lint less[3];
        memcpy(less, sizes, sizeof less);
        less[over]--;
        setup(&ref, f->fam, f->two_stage, p, less);
        xb_calls = 0;
        invoke(&ref, lookup(&ref, 1));
        refused = ref.info < 0;
        release(&ref);
    }
    /* ?gesvd: past the limit the workspace of its largest path, whose
     * LP64 choice overflows (docs/large.md): LDA*N + N*N + 5N + M */
    if (f->fam == F_GESVD)
        refused = sizes[0] == M * N + N * N + 5 * N + M;
    snprintf(check, sizeof check, "true/%s/query", name);
    verdict(qinfo == 0 && over >= 0 && accepted && refused, check,
            "INFO %d, WORK(1) %d, a size over the limit %ld: %s, real "
            "routine accepts it: %d, one less refused: %d",
            qinfo, (int)sizes[0], limit, over >= 0 ? "yes" : "no", accepted,
            refused);
    if (over < 0)
        return;

    /* a short call (the over-limit length at the limit): the real
     * routine's INFO and XERBLA, A untouched */
    lint short_[3];
    memcpy(short_, sizes, sizeof short_);
    short_[over] = (lint)limit;
    setup(&ref, f->fam, f->two_stage, p, short_);
    xb_calls = 0;
    invoke(&ref, lookup(&ref, 1));
    int real_info = ref.info, real_calls = xb_calls, real_xb = xb_info;
    char real_name[40];
    snprintf(real_name, sizeof real_name, "%s", xb_name);
    release(&ref);
    setup(&c, f->fam, f->two_stage, p, short_);
    size_t bytes = (size_t)c.lda * (size_t)c.n * esize(p);
    void *copy = malloc(bytes);
    memcpy(copy, c.a, bytes);
    xb_calls = 0;
    xb_name[0] = 0;
    invoke(&c, lookup(&c, 0));
    snprintf(check, sizeof check, "true/%s/short", name);
    verdict(c.info == real_info && real_info < 0 && xb_calls == real_calls &&
                xb_info == real_xb && strcmp(xb_name, real_name) == 0 &&
                memcmp(copy, c.a, bytes) == 0,
            check, "INFO %d (real %d), xerbla %d %s %d (real %d %s %d), A %s",
            (int)c.info, real_info, xb_calls, xb_name, xb_info, real_calls,
            real_name, real_xb,
            memcmp(copy, c.a, bytes) == 0 ? "untouched" : "changed");
    free(copy);
    release(&c);

    /* the answered sizes: the call runs (forwarded) */
    setup(&c, f->fam, f->two_stage, p, sizes);
    invoke(&c, lookup(&c, 0));
    run_real(&ref, f->fam, f->two_stage, p);
    double err = values_error(&c, &ref);
    snprintf(check, sizeof check, "true/%s/call", name);
    verdict(c.info == 0 && err < 10.0 && guards_intact(&c), check,
            "INFO %d, values %.3g eps*n", (int)c.info, err);
    release(&c);
    release(&ref);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ours";
    const char *only = argc > 2 ? argv[2] : NULL;   /* one family, e.g. syevd */
    if (!real_fn("dsyevd_")) {
        printf("FAIL lwork-limit/setup: no real liblapack.so.3\n");
        return 0;
    }
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        for (const char *p = "sdcz"; *p; p++) {
            if (only && (strcmp(only, fam_r[forms[i].fam]) != 0 ||
                         forms[i].two_stage))
                continue;
            if (strcmp(mode, "true") == 0)
                test_true(&forms[i], *p);
            else
                test_ours(&forms[i], *p);
        }
    printf("lwork-limit %s: %d passed, %d failed\n", mode, passes, fails);
    return 0;
}
