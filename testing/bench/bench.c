/*
 * bench.c - gpulapack's host path against the system LAPACK, in one run, on
 * the same matrices (`make bench`; testing/bench/run_bench.sh sets the BLAS
 * configuration and runs this program; docs/performance.md explains it).
 *
 * "ours" = the routine resolved the normal way: this program is linked with
 *          -lgpulapack before -llapack, so dgesdd_ etc. are the library's.
 * "peer" = the same routine from dlopen("liblapack.so.3", RTLD_LOCAL) + dlsym:
 *          the system LAPACK's own definition.  BENCH_PEER=dlmopen loads it
 *          in a separate link-map namespace instead, so that the nested calls
 *          the system LAPACK makes (dsyevd_ -> dsytrd_, zheevd_ -> zhetrd_)
 *          cannot land in our exports either.
 *
 * The library reads its environment once, on first use, so main() sets
 * GPULAPACK_DEVICE=host (BENCH_DEVICE overrides) and GPULAPACK_MIN_N=0
 * before the first LAPACK call.
 *
 * Environment: BENCH_SIZES (default "1000 2000 4000"), BENCH_CASES (comma
 * list, default all), BENCH_REPS (default 1; the minimum time is reported),
 * BENCH_CSV (default build/bench/bench.csv), BENCH_PEER (dlopen | dlmopen),
 * BENCH_DEVICE (default host).
 *
 * Output: configuration lines starting with '#', one table row per
 * (n, case), and the CSV file
 *   n,case,peer_s,ours_s,speedup,stage1_s,stage2_s,stage3_s,other_s,path,
 *   max_rel_diff,coretype
 * speedup = peer_s / ours_s.  Stage times and path come from
 * gpulapack_last_timing() (looked up with dlsym, so this program also builds
 * and runs against a library without it: stages 0, path "lapack").
 * max_rel_diff = max_i |ours_i - peer_i| / max_i |peer_i| over the sorted
 * singular values / eigenvalues; for dgbbrd/dsbtrd over the singular values /
 * eigenvalues of the returned bidiagonal / tridiagonal (the real dbdsqr_ /
 * dsterf_ on copies of D and E, since signs of D and E may differ).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpulapack.h"

typedef int lint;       /* LAPACK INTEGER (32-bit) */
typedef size_t flen;    /* hidden CHARACTER length (gfortran >= 8) */

/* ---- Fortran-ABI prototypes (complex arrays as interleaved doubles) ---- */
typedef void gesdd_d_t(const char *jobz, const lint *m, const lint *n,
                       double *a, const lint *lda, double *s, double *u,
                       const lint *ldu, double *vt, const lint *ldvt,
                       double *work, const lint *lwork, lint *iwork,
                       lint *info, flen);
typedef void gesdd_s_t(const char *jobz, const lint *m, const lint *n,
                       float *a, const lint *lda, float *s, float *u,
                       const lint *ldu, float *vt, const lint *ldvt,
                       float *work, const lint *lwork, lint *iwork,
                       lint *info, flen);
typedef void gesvd_d_t(const char *jobu, const char *jobvt, const lint *m,
                       const lint *n, double *a, const lint *lda, double *s,
                       double *u, const lint *ldu, double *vt,
                       const lint *ldvt, double *work, const lint *lwork,
                       lint *info, flen, flen);
typedef void syevd_d_t(const char *jobz, const char *uplo, const lint *n,
                       double *a, const lint *lda, double *w, double *work,
                       const lint *lwork, lint *iwork, const lint *liwork,
                       lint *info, flen, flen);
typedef void syevr_d_t(const char *jobz, const char *range, const char *uplo,
                       const lint *n, double *a, const lint *lda,
                       const double *vl, const double *vu, const lint *il,
                       const lint *iu, const double *abstol, lint *m,
                       double *w, double *z, const lint *ldz, lint *isuppz,
                       double *work, const lint *lwork, lint *iwork,
                       const lint *liwork, lint *info, flen, flen, flen);
typedef void gbbrd_d_t(const char *vect, const lint *m, const lint *n,
                       const lint *ncc, const lint *kl, const lint *ku,
                       double *ab, const lint *ldab, double *d, double *e,
                       double *q, const lint *ldq, double *pt,
                       const lint *ldpt, double *c, const lint *ldc,
                       double *work, lint *info, flen);
typedef void sbtrd_d_t(const char *vect, const char *uplo, const lint *n,
                       const lint *kd, double *ab, const lint *ldab,
                       double *d, double *e, double *q, const lint *ldq,
                       double *work, lint *info, flen, flen);
typedef void heevd_z_t(const char *jobz, const char *uplo, const lint *n,
                       double *a, const lint *lda, double *w, double *work,
                       const lint *lwork, double *rwork, const lint *lrwork,
                       lint *iwork, const lint *liwork, lint *info, flen,
                       flen);
typedef void bdsqr_d_t(const char *uplo, const lint *n, const lint *ncvt,
                       const lint *nru, const lint *ncc, double *d,
                       double *e, double *vt, const lint *ldvt, double *u,
                       const lint *ldu, double *c, const lint *ldc,
                       double *work, lint *info, flen);
typedef void sterf_d_t(const lint *n, double *d, double *e, lint *info);
typedef void gemm_d_t(const char *ta, const char *tb, const lint *m,
                      const lint *n, const lint *k, const double *alpha,
                      const double *a, const lint *lda, const double *b,
                      const lint *ldb, const double *beta, double *c,
                      const lint *ldc, flen, flen);
typedef int last_timing_t(gpulapack_timing *out);

/* "ours": resolved normally, i.e. from libgpulapack (linked first). */
extern gesdd_d_t dgesdd_;
extern gesvd_d_t dgesvd_;
extern syevd_d_t dsyevd_;
extern syevr_d_t dsyevr_;
extern gbbrd_d_t dgbbrd_;
extern sbtrd_d_t dsbtrd_;
extern gesdd_s_t sgesdd_;
extern heevd_z_t zheevd_;

typedef struct lapack {
    gesdd_d_t *dgesdd;
    gesvd_d_t *dgesvd;
    syevd_d_t *dsyevd;
    syevr_d_t *dsyevr;
    gbbrd_d_t *dgbbrd;
    sbtrd_d_t *dsbtrd;
    gesdd_s_t *sgesdd;
    heevd_z_t *zheevd;
} lapack;

static lapack ours = { dgesdd_, dgesvd_, dsyevd_, dsyevr_,
                       dgbbrd_, dsbtrd_, sgesdd_, zheevd_ };
static lapack peer;
static bdsqr_d_t *real_dbdsqr;      /* from the peer: checks of dgbbrd */
static sterf_d_t *real_dsterf;      /* from the peer: checks of dsbtrd */
static last_timing_t *last_timing;  /* NULL until the library has it */

/* ---- the cases ----------------------------------------------------------- */
enum kind { K_DGESDD, K_DGESVD, K_DSYEVD, K_DSYEVR, K_DGBBRD, K_DSBTRD,
            K_SGESDD, K_ZHEEVD };
/* Input matrix families: cases of one family at one n share the matrix. */
enum family { F_GENERAL, F_SYMMETRIC, F_HERMITIAN, F_BAND_UPPER,
              F_BAND_LOWER };

typedef struct bench_case {
    const char *name;
    const char *routine;    /* LAPACK name, as gpulapack_timing has it */
    enum kind kind;
    enum family family;
    int band;
} bench_case;

static const bench_case cases[] = {
    { "dgesdd_N",   "dgesdd", K_DGESDD, F_GENERAL,    0 },
    { "dgesvd_N",   "dgesvd", K_DGESVD, F_GENERAL,    0 },
    { "dsyevd_N",   "dsyevd", K_DSYEVD, F_SYMMETRIC,  0 },
    { "dsyevr_N",   "dsyevr", K_DSYEVR, F_SYMMETRIC,  0 },
    { "dgbbrd_b32", "dgbbrd", K_DGBBRD, F_BAND_UPPER, 32 },
    { "dgbbrd_b64", "dgbbrd", K_DGBBRD, F_BAND_UPPER, 64 },
    { "dsbtrd_b32", "dsbtrd", K_DSBTRD, F_BAND_LOWER, 32 },
    { "dsbtrd_b64", "dsbtrd", K_DSBTRD, F_BAND_LOWER, 64 },
    { "sgesdd_N",   "sgesdd", K_SGESDD, F_GENERAL,    0 },
    { "zheevd_N",   "zheevd", K_ZHEEVD, F_HERMITIAN,  0 },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* ---- small helpers ---------------------------------------------------------- */
static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "bench: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        die("out of memory", NULL);
    return p;
}

static void *xdup(const void *src, size_t bytes)
{
    void *p = xmalloc(bytes);
    memcpy(p, src, bytes);
    return p;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* LWORK from a workspace query answer. */
static lint lwork_of(double w)
{
    if (!(w >= 1.0))
        return 1;
    if (w >= (double)INT_MAX)
        return INT_MAX;
    return (lint)ceil(w);
}

/* splitmix64: a fixed, portable random stream; uniform in [-1, 1). */
static uint64_t rng_state;
static double urand(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The real path of the object that holds address p, or "?". */
static const char *object_of(const void *p, char *buf, size_t len)
{
    Dl_info di;
    if (!p || !dladdr(p, &di) || !di.dli_fname)
        return "?";
    if (!realpath(di.dli_fname, buf)) {
        snprintf(buf, len, "%s", di.dli_fname);
    }
    return buf;
}

/* ---- inputs -------------------------------------------------------------- */
typedef struct input {
    enum family family;
    lint n, band, ldab;
    double *a;      /* general/symmetric n*n, band ldab*n, or 2*n*n complex */
    float *as;      /* the general matrix in single precision */
} input;

static void input_make(input *in, enum family f, lint n, int band)
{
    size_t nn = (size_t)n * (size_t)n;
    memset(in, 0, sizeof *in);
    in->family = f;
    in->n = n;
    in->band = band;
    rng_state = 0x5eed0000ULL + (uint64_t)n * 131u + (uint64_t)f * 7u
                + (uint64_t)band;
    switch (f) {
    case F_GENERAL:
        in->a = xmalloc(nn * sizeof(double));
        in->as = xmalloc(nn * sizeof(float));
        for (size_t i = 0; i < nn; i++) {
            in->a[i] = urand();
            in->as[i] = (float)in->a[i];
        }
        break;
    case F_SYMMETRIC:
        in->a = xmalloc(nn * sizeof(double));
        for (lint j = 0; j < n; j++)
            for (lint i = j; i < n; i++)
                in->a[i + (size_t)j * n] = in->a[j + (size_t)i * n] = urand();
        break;
    case F_HERMITIAN:
        in->a = xmalloc(2 * nn * sizeof(double));
        for (lint j = 0; j < n; j++)
            for (lint i = j; i < n; i++) {
                double re = urand(), im = i == j ? 0.0 : urand();
                size_t ij = i + (size_t)j * n, ji = j + (size_t)i * n;
                in->a[2 * ij] = re;
                in->a[2 * ij + 1] = im;
                in->a[2 * ji] = re;
                in->a[2 * ji + 1] = -im;
            }
        break;
    case F_BAND_UPPER:      /* KL = 0, KU = band: AB(KU+1+i-j, j) = A(i, j) */
    case F_BAND_LOWER:      /* UPLO = 'L', KD = band: AB(1+i-j, j) = A(i, j) */
        in->ldab = band + 1;
        in->a = calloc((size_t)in->ldab * n, sizeof(double));
        if (!in->a)
            die("out of memory", NULL);
        for (lint j = 0; j < n; j++) {
            lint lo = f == F_BAND_UPPER ? (j - band > 0 ? j - band : 0) : j;
            lint hi = f == F_BAND_UPPER ? j : (j + band < n - 1 ? j + band : n - 1);
            for (lint i = lo; i <= hi; i++) {
                lint row = f == F_BAND_UPPER ? band + i - j : i - j;
                in->a[row + (size_t)j * in->ldab] = urand();
            }
        }
        break;
    }
}

static void input_free(input *in)
{
    free(in->a);
    free(in->as);
    memset(in, 0, sizeof *in);
}

static size_t input_bytes(const input *in)
{
    size_t nn = (size_t)in->n * (size_t)in->n;
    switch (in->family) {
    case F_HERMITIAN:
        return 2 * nn * sizeof(double);
    case F_BAND_UPPER:
    case F_BAND_LOWER:
        return (size_t)in->ldab * in->n * sizeof(double);
    default:
        return nn * sizeof(double);
    }
}

/* ---- one call ------------------------------------------------------------ */
typedef struct result {
    double secs;            /* the compute call only */
    lint info;
    int accel;              /* this call took an accelerated path */
    gpulapack_timing t;     /* valid when accel */
    lint nvals;             /* values in vals (sorted ascending) */
} result;

static int timing_get(gpulapack_timing *t)
{
    memset(t, 0, sizeof *t);
    return last_timing ? last_timing(t) : 0;
}

/* Did an accelerated call finish between the two snapshots? */
static int timing_new(int had, const gpulapack_timing *before, int has,
                      const gpulapack_timing *after)
{
    if (!has)
        return 0;
    if (!had)
        return 1;
    return strncmp(before->routine, after->routine, sizeof after->routine)
           || strncmp(before->path, after->path, sizeof after->path)
           || before->stage1 != after->stage1
           || before->stage2 != after->stage2
           || before->stage3 != after->stage3
           || before->other != after->other
           || before->total != after->total;
}

/* Run case c on input in through the routines of L; vals gets n values. */
static void run_one(const bench_case *c, const input *in, const lapack *L,
                    double *vals, result *r)
{
    lint n = in->n, one = 1, info = 0, lwork = -1, liwork = -1, lrwork = -1;
    double dummy[2] = { 0, 0 }, t0 = 0, t1 = 0;
    gpulapack_timing before, after;
    int had;

    memset(r, 0, sizeof *r);
    void *a = xdup(c->kind == K_SGESDD ? (const void *)in->as
                                       : (const void *)in->a,
                   c->kind == K_SGESDD ? input_bytes(in) / 2 : input_bytes(in));

#define TIMED(call)                                                      \
    do {                                                                 \
        had = timing_get(&before);                                       \
        t0 = now();                                                      \
        call;                                                            \
        t1 = now();                                                      \
        r->accel = timing_new(had, &before, timing_get(&after), &after); \
        if (r->accel)                                                    \
            r->t = after;                                                \
    } while (0)

    switch (c->kind) {
    case K_DGESDD: {
        lint *iwork = xmalloc(8 * (size_t)n * sizeof(lint));
        L->dgesdd("N", &n, &n, a, &n, vals, dummy, &one, dummy, &one,
                  dummy, &lwork, iwork, &info, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            double *work = xmalloc((size_t)lwork * sizeof(double));
            TIMED(L->dgesdd("N", &n, &n, a, &n, vals, dummy, &one, dummy,
                            &one, work, &lwork, iwork, &info, 1));
            free(work);
        }
        free(iwork);
        r->nvals = n;
        break;
    }
    case K_DGESVD: {
        L->dgesvd("N", "N", &n, &n, a, &n, vals, dummy, &one, dummy, &one,
                  dummy, &lwork, &info, 1, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            double *work = xmalloc((size_t)lwork * sizeof(double));
            TIMED(L->dgesvd("N", "N", &n, &n, a, &n, vals, dummy, &one,
                            dummy, &one, work, &lwork, &info, 1, 1));
            free(work);
        }
        r->nvals = n;
        break;
    }
    case K_DSYEVD: {
        lint iq = 0;
        L->dsyevd("N", "L", &n, a, &n, vals, dummy, &lwork, &iq, &liwork,
                  &info, 1, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            liwork = iq > 1 ? iq : 1;
            double *work = xmalloc((size_t)lwork * sizeof(double));
            lint *iwork = xmalloc((size_t)liwork * sizeof(lint));
            TIMED(L->dsyevd("N", "L", &n, a, &n, vals, work, &lwork, iwork,
                            &liwork, &info, 1, 1));
            free(work);
            free(iwork);
        }
        r->nvals = n;
        break;
    }
    case K_DSYEVR: {
        lint iq = 0, il = 1, iu = n, m = 0;
        double vl = 0, vu = 0, abstol = 0;
        lint *isuppz = xmalloc(2 * (size_t)n * sizeof(lint));
        L->dsyevr("N", "A", "L", &n, a, &n, &vl, &vu, &il, &iu, &abstol, &m,
                  vals, dummy, &one, isuppz, dummy, &lwork, &iq, &liwork,
                  &info, 1, 1, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            liwork = iq > 1 ? iq : 1;
            double *work = xmalloc((size_t)lwork * sizeof(double));
            lint *iwork = xmalloc((size_t)liwork * sizeof(lint));
            TIMED(L->dsyevr("N", "A", "L", &n, a, &n, &vl, &vu, &il, &iu,
                            &abstol, &m, vals, dummy, &one, isuppz, work,
                            &lwork, iwork, &liwork, &info, 1, 1, 1));
            free(work);
            free(iwork);
        }
        free(isuppz);
        r->nvals = m;
        break;
    }
    case K_DGBBRD: {
        lint zero = 0, kl = 0, ku = in->band, ldab = in->ldab;
        double *d = xmalloc((size_t)n * sizeof(double));
        double *e = xmalloc((size_t)(n > 1 ? n : 1) * sizeof(double));
        double *work = xmalloc(4 * (size_t)n * sizeof(double));
        TIMED(L->dgbbrd("N", &n, &n, &zero, &kl, &ku, a, &ldab, d, e, dummy,
                        &one, dummy, &one, dummy, &one, work, &info, 1));
        if (info == 0) {    /* singular values of the upper bidiagonal */
            lint info2 = 0;
            memcpy(vals, d, (size_t)n * sizeof(double));
            real_dbdsqr("U", &n, &zero, &zero, &zero, vals, e, dummy, &one,
                        dummy, &one, dummy, &one, work, &info2, 1);
            if (info2)
                info = 1000 + info2;
        }
        free(d);
        free(e);
        free(work);
        r->nvals = n;
        break;
    }
    case K_DSBTRD: {
        lint kd = in->band, ldab = in->ldab;
        double *e = xmalloc((size_t)(n > 1 ? n : 1) * sizeof(double));
        double *work = xmalloc((size_t)n * sizeof(double));
        TIMED(L->dsbtrd("N", "L", &n, &kd, a, &ldab, vals, e, dummy, &one,
                        work, &info, 1, 1));
        if (info == 0) {    /* eigenvalues of the tridiagonal (D in vals) */
            lint info2 = 0;
            real_dsterf(&n, vals, e, &info2);
            if (info2)
                info = 1000 + info2;
        }
        free(e);
        free(work);
        r->nvals = n;
        break;
    }
    case K_SGESDD: {
        float fq[2] = { 0, 0 }, fd[2] = { 0, 0 };
        float *s = xmalloc((size_t)n * sizeof(float));
        lint *iwork = xmalloc(8 * (size_t)n * sizeof(lint));
        L->sgesdd("N", &n, &n, a, &n, s, fd, &one, fd, &one, fq, &lwork,
                  iwork, &info, 1);
        if (info == 0) {
            lwork = lwork_of(fq[0]);
            float *work = xmalloc((size_t)lwork * sizeof(float));
            TIMED(L->sgesdd("N", &n, &n, a, &n, s, fd, &one, fd, &one, work,
                            &lwork, iwork, &info, 1));
            free(work);
        }
        for (lint i = 0; i < n; i++)
            vals[i] = s[i];
        free(s);
        free(iwork);
        r->nvals = n;
        break;
    }
    case K_ZHEEVD: {
        double rq = 0;
        lint iq = 0;
        L->zheevd("N", "L", &n, a, &n, vals, dummy, &lwork, &rq, &lrwork,
                  &iq, &liwork, &info, 1, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            lrwork = lwork_of(rq);
            liwork = iq > 1 ? iq : 1;
            double *work = xmalloc(2 * (size_t)lwork * sizeof(double));
            double *rwork = xmalloc((size_t)lrwork * sizeof(double));
            lint *iwork = xmalloc((size_t)liwork * sizeof(lint));
            TIMED(L->zheevd("N", "L", &n, a, &n, vals, work, &lwork, rwork,
                            &lrwork, iwork, &liwork, &info, 1, 1));
            free(work);
            free(rwork);
            free(iwork);
        }
        r->nvals = n;
        break;
    }
    }
#undef TIMED
    free(a);
    r->secs = t1 - t0;
    r->info = info;
    if (r->nvals < 0 || r->nvals > n)
        r->nvals = 0;
    qsort(vals, (size_t)r->nvals, sizeof(double), cmp_double);
}

/* max_i |x_i - y_i| / max_i |y_i| over sorted values; NaN if not comparable. */
static double rel_diff(const double *x, lint nx, const double *y, lint ny)
{
    double num = 0, den = 0;
    if (nx != ny)
        return NAN;
    for (lint i = 0; i < ny; i++) {
        double d = fabs(x[i] - y[i]);
        if (!(d <= num))
            num = d;        /* also propagates NaN */
        if (fabs(y[i]) > den)
            den = fabs(y[i]);
    }
    return den > 0 ? num / den : num;
}

/* ---- configuration ----------------------------------------------------- */
static int parse_sizes(const char *s, lint *out, int max)
{
    int k = 0;
    char *buf = xdup(s, strlen(s) + 1), *save = NULL;
    for (char *tok = strtok_r(buf, " ,\t", &save); tok;
         tok = strtok_r(NULL, " ,\t", &save)) {
        char *end;
        long v = strtol(tok, &end, 10);
        if (*end || v < 1 || v > 100000)
            die("bad size in BENCH_SIZES", tok);
        if (k == max)
            die("too many sizes in BENCH_SIZES", NULL);
        out[k++] = (lint)v;
    }
    free(buf);
    return k;
}

static void parse_cases(const char *s, int *on)
{
    char *buf = xdup(s, strlen(s) + 1), *save = NULL;
    int any = 0;
    for (char *tok = strtok_r(buf, " ,\t", &save); tok;
         tok = strtok_r(NULL, " ,\t", &save)) {
        int found = 0;
        if (!strcmp(tok, "all")) {
            for (int i = 0; i < NCASES; i++)
                on[i] = 1;
            found = 1;
        }
        for (int i = 0; i < NCASES; i++)
            if (!strcasecmp(tok, cases[i].name))
                on[i] = found = 1;
        if (!found) {
            fprintf(stderr, "bench: unknown case '%s'; cases are:", tok);
            for (int i = 0; i < NCASES; i++)
                fprintf(stderr, " %s", cases[i].name);
            fprintf(stderr, "\n");
            exit(2);
        }
        any = 1;
    }
    if (!any)
        for (int i = 0; i < NCASES; i++)
            on[i] = 1;
    free(buf);
}

static const char *env_or(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && *v ? v : dflt;
}

static void *peer_sym(void *h, const char *name)
{
    void *p = dlsym(h, name);
    if (!p)
        die("the system LAPACK lacks", name);
    return p;
}

/* DGEMM rate at n = 2000 (best of 2, after a small warm-up call). */
static double dgemm_gflops(gemm_d_t *gemm)
{
    lint n = 2000, w = 200;
    double one = 1, zero = 0, best = INFINITY;
    size_t nn = (size_t)n * n;
    double *a = xmalloc(nn * sizeof(double)), *b = xmalloc(nn * sizeof(double));
    double *c = xmalloc(nn * sizeof(double));
    rng_state = 42;
    for (size_t i = 0; i < nn; i++) {
        a[i] = urand();
        b[i] = urand();
    }
    gemm("N", "N", &w, &w, &w, &one, a, &w, b, &w, &zero, c, &w, 1, 1);
    for (int rep = 0; rep < 2; rep++) {
        double t0 = now();
        gemm("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    free(a);
    free(b);
    free(c);
    return 2.0 * (double)n * n * n / best * 1e-9;
}

int main(void)
{
    /* Before anything can reach the library: it reads these once. */
    setenv("GPULAPACK_DEVICE", env_or("BENCH_DEVICE", "host"), 1);
    setenv("GPULAPACK_MIN_N", "0", 1);

    lint sizes[64];
    int nsizes = parse_sizes(env_or("BENCH_SIZES", "1000 2000 4000"), sizes, 64);
    int on[NCASES] = { 0 };
    parse_cases(env_or("BENCH_CASES", "all"), on);
    const char *reps_s = env_or("BENCH_REPS", "1");
    char *end;
    long reps = strtol(reps_s, &end, 10);
    if (*end || reps < 1 || reps > 1000)
        die("bad BENCH_REPS", reps_s);
    const char *csv_path = env_or("BENCH_CSV", "build/bench/bench.csv");
    const char *peer_mode = env_or("BENCH_PEER", "dlopen");

    /* The peer: the system LAPACK's own definitions. */
    void *h = NULL;
    if (!strcmp(peer_mode, "dlopen"))
        h = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    else if (!strcmp(peer_mode, "dlmopen"))
        h = dlmopen(LM_ID_NEWLM, "liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    else
        die("BENCH_PEER must be dlopen or dlmopen", peer_mode);
    if (!h)
        die("cannot load the system LAPACK", dlerror());
    peer.dgesdd = (gesdd_d_t *)peer_sym(h, "dgesdd_");
    peer.dgesvd = (gesvd_d_t *)peer_sym(h, "dgesvd_");
    peer.dsyevd = (syevd_d_t *)peer_sym(h, "dsyevd_");
    peer.dsyevr = (syevr_d_t *)peer_sym(h, "dsyevr_");
    peer.dgbbrd = (gbbrd_d_t *)peer_sym(h, "dgbbrd_");
    peer.dsbtrd = (sbtrd_d_t *)peer_sym(h, "dsbtrd_");
    peer.sgesdd = (gesdd_s_t *)peer_sym(h, "sgesdd_");
    peer.zheevd = (heevd_z_t *)peer_sym(h, "zheevd_");
    real_dbdsqr = (bdsqr_d_t *)peer_sym(h, "dbdsqr_");
    real_dsterf = (sterf_d_t *)peer_sym(h, "dsterf_");
    last_timing = (last_timing_t *)dlsym(RTLD_DEFAULT, "gpulapack_last_timing");

    /* Configuration lines. */
    char p1[PATH_MAX], p2[PATH_MAX];
    const char *peer_file = object_of((void *)peer.dgesdd, p1, sizeof p1);
    const char *ours_file = object_of((void *)ours.dgesdd, p2, sizeof p2);
    if (!strcmp(peer_file, ours_file))
        die("ours and the peer are the same object", ours_file);
    printf("# peer: %s (%s liblapack.so.3, RTLD_LOCAL)\n", peer_file, peer_mode);
    const char *fwd = gpulapack_lapack_library();
    printf("# ours: %s %s, GPULAPACK_DEVICE=%s GPULAPACK_MIN_N=0, forwards to %s,"
           " stage times: %s\n", ours_file, gpulapack_version(),
           getenv("GPULAPACK_DEVICE"), fwd ? fwd : "(none)",
           last_timing ? "gpulapack_last_timing" : "none (no gpulapack_last_timing)");

    const char *core = NULL;
    {
        void *cn = dlsym(RTLD_DEFAULT, "openblas_get_corename");
        void *cf = dlsym(RTLD_DEFAULT, "openblas_get_config");
        void *nt = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
        void *gm = dlsym(RTLD_DEFAULT, "dgemm_");
        char p3[PATH_MAX], p4[PATH_MAX];
        core = cn ? ((const char *(*)(void))cn)() : NULL;
        if (cn)
            printf("# blas: dgemm_ from %s; OpenBLAS %s: core %s, %d threads,"
                   " config \"%s\"\n", object_of(gm, p3, sizeof p3),
                   object_of(cn, p4, sizeof p4), core ? core : "?",
                   nt ? ((int (*)(void))nt)() : -1,
                   cf ? ((const char *(*)(void))cf)() : "?");
        else
            printf("# blas: dgemm_ from %s; no OpenBLAS in this process"
                   " (OPENBLAS_CORETYPE has no effect)\n",
                   object_of(gm, p3, sizeof p3));
        printf("# blas: %s\n", strcmp(peer_mode, "dlmopen")
               ? "one BLAS in this process, used by both sides"
               : "the peer has a second copy in its own namespace,"
                 " same environment");
        if (!strcmp(peer_mode, "dlmopen")) {
            void *pcn = dlsym(h, "openblas_get_corename");
            printf("# blas (peer copy): core %s\n",
                   pcn ? ((const char *(*)(void))pcn)() : "?");
        }
        if (gm)
            printf("# dgemm n=2000: %.1f GFLOP/s\n", dgemm_gflops((gemm_d_t *)gm));
        else
            printf("# dgemm n=2000: no dgemm_ in this process\n");
    }
    const char *coretype = core ? core : env_or("OPENBLAS_CORETYPE", "unknown");
    printf("# sizes:");
    for (int i = 0; i < nsizes; i++)
        printf(" %d", sizes[i]);
    printf("; reps %ld (minimum reported); csv %s\n", reps, csv_path);

    FILE *csv = fopen(csv_path, "w");
    if (!csv)
        die("cannot write", csv_path);
    fprintf(csv, "n,case,peer_s,ours_s,speedup,stage1_s,stage2_s,stage3_s,"
                 "other_s,path,max_rel_diff,coretype\n");

    /* Warm-up: every selected case once on each side (thread pools, the
     * library's first-use initialisation, page faults), not reported. */
    {
        lint wn = 160;
        double *v = xmalloc((size_t)wn * sizeof(double));
        for (int c = 0; c < NCASES; c++) {
            if (!on[c])
                continue;
            input in;
            result r;
            input_make(&in, cases[c].family, wn, cases[c].band);
            run_one(&cases[c], &in, &peer, v, &r);
            run_one(&cases[c], &in, &ours, v, &r);
            input_free(&in);
        }
        free(v);
    }

    printf("%6s  %-10s  %9s  %9s  %9s  %9s  %9s  %9s  %9s  %-6s  %12s\n",
           "n", "case", "peer_s", "ours_s", "peer/ours", "stage1_s",
           "stage2_s", "stage3_s", "other_s", "path", "max_rel_diff");
    fflush(stdout);

    for (int si = 0; si < nsizes; si++) {
        lint n = sizes[si];
        double *vp = xmalloc((size_t)n * sizeof(double));
        double *vo = xmalloc((size_t)n * sizeof(double));
        for (int c = 0; c < NCASES; c++) {
            if (!on[c])
                continue;
            const bench_case *bc = &cases[c];
            input in;
            input_make(&in, bc->family, n, bc->band);
            result rp, ro, best_p = { .secs = INFINITY },
                           best_o = { .secs = INFINITY };
            int contaminated = 0;
            char nested[sizeof rp.t.routine] = "";
            lint bad_info = 0;
            for (long rep = 0; rep < reps; rep++) {
                /* Alternate which side goes first. */
                for (int k = 0; k < 2; k++) {
                    int is_peer = (k == 0) == (rep % 2 == 0);
                    if (is_peer) {
                        run_one(bc, &in, &peer, vp, &rp);
                        if (rp.accel) {
                            contaminated = 1;
                            memcpy(nested, rp.t.routine, sizeof nested);
                            nested[sizeof nested - 1] = 0;
                        }
                        if (rp.info)
                            bad_info = rp.info;
                        if (rp.secs < best_p.secs)
                            best_p = rp;
                    } else {
                        run_one(bc, &in, &ours, vo, &ro);
                        if (ro.info)
                            bad_info = ro.info;
                        if (ro.secs < best_o.secs)
                            best_o = ro;
                    }
                }
            }
            double diff = rp.info || ro.info ? NAN
                          : rel_diff(vo, ro.nvals, vp, rp.nvals);
            const char *path = best_o.accel ? best_o.t.path : "lapack";
            double s1 = 0, s2 = 0, s3 = 0, so = 0;
            if (best_o.accel) {
                s1 = best_o.t.stage1;
                s2 = best_o.t.stage2;
                s3 = best_o.t.stage3;
                so = best_o.t.other;
            }
            double speedup = best_p.secs / best_o.secs;
            printf("%6d  %-10s  %9.4f  %9.4f  %9.2f  %9.4f  %9.4f  %9.4f  %9.4f"
                   "  %-6s  %12.3e\n", n, bc->name, best_p.secs, best_o.secs,
                   speedup, s1, s2, s3, so, path, diff);
            if (bad_info)
                printf("#   note: INFO = %d (peer %d, ours %d)\n", bad_info,
                       rp.info, ro.info);
            if (rp.nvals != ro.nvals)
                printf("#   note: %d values from the peer, %d from ours\n",
                       rp.nvals, ro.nvals);
            if (best_o.accel && strncmp(best_o.t.routine, bc->routine,
                                        sizeof best_o.t.routine))
                printf("#   note: ours' stage times are those of %.16s, not %s\n",
                       best_o.t.routine, bc->routine);
            if (contaminated)
                printf("#   note: the peer call reached our accelerated %s"
                       " through a nested call; its time is not the system"
                       " LAPACK's alone (use BENCH_PEER=dlmopen)\n",
                       nested[0] ? nested : "routine");
            fprintf(csv, "%d,%s,%.6f,%.6f,%.4f,%.6f,%.6f,%.6f,%.6f,%s,%.3e,%s\n",
                    n, bc->name, best_p.secs, best_o.secs, speedup, s1, s2, s3,
                    so, path, diff, coretype);
            fflush(stdout);
            fflush(csv);
            input_free(&in);
        }
        free(vp);
        free(vo);
    }
    if (fclose(csv))
        die("cannot write", csv_path);
    printf("# csv: %s\n", csv_path);
    return 0;
}
