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
 * BENCH_DEVICE (default host), BENCH_FIRST (1: first calls, below).
 *
 * First calls (BENCH_FIRST=1): what a program that makes one call sees.
 * Each (n, case, side) runs in a process of its own (this program again,
 * with BENCH_FIRST_CHILD=case:n:peer|ours), with no warm-up, after
 * BENCH_PAUSE seconds (default 5) of quiet: a virtual machine that hands
 * free memory back to its host (Linux free page reporting waits 2 s)
 * gives the next process cold memory, as a program started later would
 * get.  Which side goes first alternates from case to case; no checks.
 * The CSV (BENCH_CSV) has n,case,peer_s,ours_s,speedup and the stage
 * columns.
 *
 * Output: configuration lines starting with '#', one table row per
 * (n, case), and the CSV file
 *   n,case,peer_s,ours_s,speedup,stage1_s,stage2_s,stage3_s,back_s,other_s,
 *   path,max_rel_diff,resid_ulp,coretype
 * speedup = peer_s / ours_s.  Stage times (back_s = the back-transformation
 * of the vectors) and path come from gpulapack_last_timing() (looked up
 * with dlsym, so this program also builds and runs against a library
 * without it: stages 0, path "lapack").
 * max_rel_diff = max_i |ours_i - peer_i| / max_i |peer_i| over the sorted
 * singular values / eigenvalues; for dgbbrd/dsbtrd/dsytrd over the singular
 * values / eigenvalues of the returned bidiagonal / tridiagonal (the real
 * dbdsqr_ / dsterf_ on copies of D and E, since signs of D and E may differ).
 * resid_ulp (cases with vectors, and dsytrd; empty otherwise) = the largest
 * of these ratios for ours' output, from the first repetition, computed
 * after the timed call with the system BLAS's dgemm_/zgemm_:
 *   SVD:      |A - U S VT| / (|A| n eps), |I - U^T U| / (n eps),
 *             |I - VT VT^T| / (n eps)
 *   eigen:    |A Z - Z W| / (|A| n eps), |I - Z^H Z| / (n eps)
 *   dsytrd:   Q formed from ours' reflectors and TAU by the real dorgtr_
 *             (so LAPACK's format is what is checked), then, sampled with
 *             16 random +-1 columns X (O(n^2) work; dsytrd itself is only
 *             4/3 n^3 flops): |(A - Q T Q^T) X|_F / (sqrt(16) |A|_F n eps),
 *             |(Q Q^T - I) X|_F / (sqrt(16) n eps), which estimate the
 *             Frobenius-norm ratios without bias
 * (1-norms except where _F, eps = DBL_EPSILON, as LAPACK's own tests);
 * above 30 a note line gives the single ratios.
 */
#define BENCH_PROG "bench"
#include "bench_common.h"  /* shared with bench_gpu.c: lint, helpers, ... */

#include <float.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- Fortran-ABI prototypes (complex arrays as interleaved doubles) ----
 * (?gesdd, dsyevd, dsyevr, dsytrd, dgbbrd, dsbtrd, dbdsqr, dsterf:
 * bench_common.h) */
typedef void gesvd_d_t(const char *jobu, const char *jobvt, const lint *m,
                       const lint *n, double *a, const lint *lda, double *s,
                       double *u, const lint *ldu, double *vt,
                       const lint *ldvt, double *work, const lint *lwork,
                       lint *info, flen, flen);
typedef void heevd_z_t(const char *jobz, const char *uplo, const lint *n,
                       double *a, const lint *lda, double *w, double *work,
                       const lint *lwork, double *rwork, const lint *lrwork,
                       lint *iwork, const lint *liwork, lint *info, flen,
                       flen);
typedef void gemm_d_t(const char *ta, const char *tb, const lint *m,
                      const lint *n, const lint *k, const double *alpha,
                      const double *a, const lint *lda, const double *b,
                      const lint *ldb, const double *beta, double *c,
                      const lint *ldc, flen, flen);
typedef void zgemm_z_t(const char *ta, const char *tb, const lint *m,
                       const lint *n, const lint *k, const double *alpha,
                       const double *a, const lint *lda, const double *b,
                       const lint *ldb, const double *beta, double *c,
                       const lint *ldc, flen, flen);
typedef void orgtr_d_t(const char *uplo, const lint *n, double *a,
                       const lint *lda, const double *tau, double *work,
                       const lint *lwork, lint *info, flen);

/* "ours": resolved normally, i.e. from libgpulapack (linked first); the
 * others are declared in bench_common.h. */
extern gesvd_d_t dgesvd_;
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
    sytrd_d_t *dsytrd;
} lapack;

static lapack ours = { dgesdd_, dgesvd_, dsyevd_, dsyevr_,
                       dgbbrd_, dsbtrd_, sgesdd_, zheevd_, dsytrd_ };
static lapack peer;
static bdsqr_d_t *real_dbdsqr;      /* from the peer: checks of dgbbrd */
static sterf_d_t *real_dsterf;      /* from the peer: checks of dsbtrd */
static orgtr_d_t *real_dorgtr;      /* from the peer: checks of dsytrd */
static gemm_d_t *blas_dgemm;        /* from the peer's BLAS: the residuals */
static zgemm_z_t *blas_zgemm;

/* ---- the cases ----------------------------------------------------------- */
enum kind { K_DGESDD, K_DGESVD, K_DSYEVD, K_DSYEVR, K_DGBBRD, K_DSBTRD,
            K_SGESDD, K_ZHEEVD, K_DSYTRD };
/* Input matrix families: cases of one family at one n share the matrix. */
enum family { F_GENERAL, F_SYMMETRIC, F_HERMITIAN, F_BAND_UPPER,
              F_BAND_LOWER };

typedef struct bench_case {
    const char *name;
    const char *routine;    /* LAPACK name, as gpulapack_timing has it */
    enum kind kind;
    enum family family;
    int band;
    char job;               /* JOBZ (JOBU = JOBVT for dgesvd); 'N' = values
                               only, no check; dsytrd: 'V' (checked) */
} bench_case;

static const bench_case cases[] = {
    { "dgesdd_N",   "dgesdd", K_DGESDD, F_GENERAL,    0,  'N' },
    { "dgesdd_S",   "dgesdd", K_DGESDD, F_GENERAL,    0,  'S' },
    { "dgesdd_A",   "dgesdd", K_DGESDD, F_GENERAL,    0,  'A' },
    { "dgesvd_N",   "dgesvd", K_DGESVD, F_GENERAL,    0,  'N' },
    { "dgesvd_S",   "dgesvd", K_DGESVD, F_GENERAL,    0,  'S' },
    { "dsyevd_N",   "dsyevd", K_DSYEVD, F_SYMMETRIC,  0,  'N' },
    { "dsyevd_V",   "dsyevd", K_DSYEVD, F_SYMMETRIC,  0,  'V' },
    { "dsyevr_N",   "dsyevr", K_DSYEVR, F_SYMMETRIC,  0,  'N' },
    { "dsytrd",     "dsytrd", K_DSYTRD, F_SYMMETRIC,  0,  'V' },
    { "dgbbrd_b32", "dgbbrd", K_DGBBRD, F_BAND_UPPER, 32, 'N' },
    { "dgbbrd_b64", "dgbbrd", K_DGBBRD, F_BAND_UPPER, 64, 'N' },
    { "dsbtrd_b32", "dsbtrd", K_DSBTRD, F_BAND_LOWER, 32, 'N' },
    { "dsbtrd_b64", "dsbtrd", K_DSBTRD, F_BAND_LOWER, 64, 'N' },
    { "sgesdd_N",   "sgesdd", K_SGESDD, F_GENERAL,    0,  'N' },
    { "zheevd_N",   "zheevd", K_ZHEEVD, F_HERMITIAN,  0,  'N' },
    { "zheevd_V",   "zheevd", K_ZHEEVD, F_HERMITIAN,  0,  'V' },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* ---- small helpers (the others: bench_common.h) ------------------------ */
/* LWORK from a workspace query answer. */
static lint lwork_of(double w)
{
    if (!(w >= 1.0))
        return 1;
    if (w >= (double)INT_MAX)
        return INT_MAX;
    return (lint)ceil(w);
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
    rng_seed_input(n, (int)f, band);
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
        in->a = xmalloc((size_t)in->ldab * n * sizeof(double));
        band_fill(in->a, n, band, f == F_BAND_UPPER);
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

/* The outputs of a call with vectors, kept for the checks (owned here). */
typedef struct kept {
    double *a;      /* the overwritten matrix: Z (dsyevd, zheevd: complex),
                       the reflectors (dsytrd) */
    double *u, *vt; /* dgesdd, dgesvd: n x n each */
    double *w;      /* the values as returned, unsorted (S, W; D of dsytrd) */
    double *e, *tau;/* dsytrd */
} kept;

static void kept_free(kept *k)
{
    free(k->a);
    free(k->u);
    free(k->vt);
    free(k->w);
    free(k->e);
    free(k->tau);
    memset(k, 0, sizeof *k);
}

/* Run case c on input in through the routines of L; vals gets n values.
 * With k (cases with vectors and dsytrd), the outputs the checks need are
 * handed over to *k. */
static void run_one(const bench_case *c, const input *in, const lapack *L,
                    double *vals, result *r, kept *k)
{
    lint n = in->n, one = 1, info = 0, lwork = -1, liwork = -1, lrwork = -1;
    double dummy[2] = { 0, 0 }, t0 = 0, t1 = 0;
    const char job[2] = { c->job, 0 };
    int vec = c->job != 'N';
    size_t nn = (size_t)n * (size_t)n;

    memset(r, 0, sizeof *r);
    if (k)
        memset(k, 0, sizeof *k);
    if (!vec)
        k = NULL;
    double *a = xdup(c->kind == K_SGESDD ? (const void *)in->as
                                         : (const void *)in->a,
                     c->kind == K_SGESDD ? input_bytes(in) / 2
                                         : input_bytes(in));

#define TIMED(call) TIMED_CALL(call, t0, t1, r->accel, r->t)

    switch (c->kind) {
    case K_DGESDD:
    case K_DGESVD: {
        /* M = N = n, so JOBZ='S' and 'A' both give n x n U and VT. */
        lint ldv = vec ? n : 1;
        double *u = vec ? xmalloc(nn * sizeof(double)) : dummy;
        double *vt = vec ? xmalloc(nn * sizeof(double)) : dummy;
        lint *iwork = xmalloc(8 * (size_t)n * sizeof(lint));
        if (c->kind == K_DGESDD)
            L->dgesdd(job, &n, &n, a, &n, vals, u, &ldv, vt, &ldv, dummy,
                      &lwork, iwork, &info, 1);
        else
            L->dgesvd(job, job, &n, &n, a, &n, vals, u, &ldv, vt, &ldv,
                      dummy, &lwork, &info, 1, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            double *work = xmalloc((size_t)lwork * sizeof(double));
            if (c->kind == K_DGESDD)
                TIMED(L->dgesdd(job, &n, &n, a, &n, vals, u, &ldv, vt, &ldv,
                                work, &lwork, iwork, &info, 1));
            else
                TIMED(L->dgesvd(job, job, &n, &n, a, &n, vals, u, &ldv, vt,
                                &ldv, work, &lwork, &info, 1, 1));
            free(work);
        }
        free(iwork);
        if (k) {
            k->u = u;
            k->vt = vt;
        } else if (vec) {
            free(u);
            free(vt);
        }
        r->nvals = n;
        break;
    }
    case K_DSYEVD: {
        lint iq = 0;
        L->dsyevd(job, "L", &n, a, &n, vals, dummy, &lwork, &iq, &liwork,
                  &info, 1, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            liwork = iq > 1 ? iq : 1;
            double *work = xmalloc((size_t)lwork * sizeof(double));
            lint *iwork = xmalloc((size_t)liwork * sizeof(lint));
            TIMED(L->dsyevd(job, "L", &n, a, &n, vals, work, &lwork, iwork,
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
    case K_DSYTRD: {    /* UPLO = 'L' */
        double *d = xmalloc((size_t)n * sizeof(double));
        double *e = xmalloc((size_t)n * sizeof(double));
        double *tau = xmalloc((size_t)n * sizeof(double));
        L->dsytrd("L", &n, a, &n, d, e, tau, dummy, &lwork, &info, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            double *work = xmalloc((size_t)lwork * sizeof(double));
            TIMED(L->dsytrd("L", &n, a, &n, d, e, tau, work, &lwork, &info,
                            1));
            free(work);
        }
        if (info == 0) {    /* eigenvalues of the tridiagonal */
            lint info2 = 0;
            double *e2 = xdup(e, (size_t)n * sizeof(double));
            memcpy(vals, d, (size_t)n * sizeof(double));
            real_dsterf(&n, vals, e2, &info2);
            if (info2)
                info = 1000 + info2;
            free(e2);
        }
        if (k) {            /* D and E as returned, for the check */
            k->w = d;
            k->e = e;
            k->tau = tau;
        } else {
            free(d);
            free(e);
            free(tau);
        }
        r->nvals = n;
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
        L->sgesdd("N", &n, &n, (float *)a, &n, s, fd, &one, fd, &one, fq,
                  &lwork, iwork, &info, 1);
        if (info == 0) {
            lwork = lwork_of(fq[0]);
            float *work = xmalloc((size_t)lwork * sizeof(float));
            TIMED(L->sgesdd("N", &n, &n, (float *)a, &n, s, fd, &one, fd,
                            &one, work, &lwork, iwork, &info, 1));
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
        L->zheevd(job, "L", &n, a, &n, vals, dummy, &lwork, &rq, &lrwork,
                  &iq, &liwork, &info, 1, 1);
        if (info == 0) {
            lwork = lwork_of(dummy[0]);
            lrwork = lwork_of(rq);
            liwork = iq > 1 ? iq : 1;
            double *work = xmalloc(2 * (size_t)lwork * sizeof(double));
            double *rwork = xmalloc((size_t)lrwork * sizeof(double));
            lint *iwork = xmalloc((size_t)liwork * sizeof(lint));
            TIMED(L->zheevd(job, "L", &n, a, &n, vals, work, &lwork, rwork,
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
    r->secs = t1 - t0;
    r->info = info;
    if (r->nvals < 0 || r->nvals > n)
        r->nvals = 0;
    if (k) {
        if (c->kind != K_DSYTRD)
            k->w = xdup(vals, (size_t)n * sizeof(double));
        if (c->kind == K_DSYEVD || c->kind == K_DSYTRD || c->kind == K_ZHEEVD)
            k->a = a;
        else
            free(a);
    } else {
        free(a);
    }
    qsort(vals, (size_t)r->nvals, sizeof(double), cmp_double);
}

/* ---- checks of ours' output (after the timed call) ---------------------- */
typedef struct check {
    int done;               /* 0: the case has no check, or it failed */
    double resid, orth1, orth2; /* orth2: VT of the SVD, else 0 */
    double secs;
} check;

/* 1-norm (largest column sum of |a_ij|) of an m x n matrix; NaN stays. */
static double norm1_d(lint m, lint n, const double *a, lint lda)
{
    double best = 0;
    for (lint j = 0; j < n; j++) {
        double s = 0;
        for (lint i = 0; i < m; i++)
            s += fabs(a[i + (size_t)j * lda]);
        if (isnan(s))
            return NAN;
        if (s > best)
            best = s;
    }
    return best;
}

static double norm1_z(lint m, lint n, const double *a, lint lda)
{
    double best = 0;
    for (lint j = 0; j < n; j++) {
        double s = 0;
        for (lint i = 0; i < m; i++) {
            size_t ij = i + (size_t)j * lda;
            s += hypot(a[2 * ij], a[2 * ij + 1]);
        }
        if (isnan(s))
            return NAN;
        if (s > best)
            best = s;
    }
    return best;
}

/* Frobenius norm of an m x n matrix (leading dimension m). */
static double normf(lint m, lint n, const double *a)
{
    double s = 0;
    for (size_t i = 0; i < (size_t)m * (size_t)n; i++)
        s += a[i] * a[i];
    return sqrt(s);
}

/* g = I (n x n; complex when cplx). */
static void set_identity(double *g, lint n, int cplx)
{
    size_t nn = (size_t)n * (size_t)n, w = cplx ? 2 : 1;
    memset(g, 0, w * nn * sizeof(double));
    for (lint i = 0; i < n; i++)
        g[w * (i + (size_t)i * n)] = 1.0;
}

/* Column j of the n x n matrix x (complex when cplx) times s[j]. */
static void scale_columns(double *x, lint n, const double *s, int cplx)
{
    size_t w = cplx ? 2 : 1;
    for (lint j = 0; j < n; j++)
        for (size_t i = 0; i < w * (size_t)n; i++)
            x[w * (size_t)j * n + i] *= s[j];
}

static void run_check(const bench_case *c, const input *in, const kept *k,
                      check *ck)
{
    lint n = in->n, info = 0;
    size_t nn = (size_t)n * (size_t)n;
    double one = 1, mone = -1, eps = DBL_EPSILON, nf = (double)n;
    double t0 = now();

    memset(ck, 0, sizeof *ck);
    if (c->kind == K_DGESDD || c->kind == K_DGESVD) {
        double anorm = norm1_d(n, n, in->a, n);
        double *us = xdup(k->u, nn * sizeof(double));
        double *r = xdup(in->a, nn * sizeof(double));
        scale_columns(us, n, k->w, 0);
        blas_dgemm("N", "N", &n, &n, &n, &mone, us, &n, k->vt, &n, &one, r,
                   &n, 1, 1);                       /* A - U S VT */
        ck->resid = norm1_d(n, n, r, n) / (anorm * nf * eps);
        set_identity(r, n, 0);
        blas_dgemm("T", "N", &n, &n, &n, &mone, k->u, &n, k->u, &n, &one, r,
                   &n, 1, 1);                       /* I - U^T U */
        ck->orth1 = norm1_d(n, n, r, n) / (nf * eps);
        set_identity(r, n, 0);
        blas_dgemm("N", "T", &n, &n, &n, &mone, k->vt, &n, k->vt, &n, &one,
                   r, &n, 1, 1);                    /* I - VT VT^T */
        ck->orth2 = norm1_d(n, n, r, n) / (nf * eps);
        free(us);
        free(r);
    } else if (c->kind == K_DSYEVD) {
        double anorm = norm1_d(n, n, in->a, n);
        double *r = xdup(k->a, nn * sizeof(double));
        scale_columns(r, n, k->w, 0);
        blas_dgemm("N", "N", &n, &n, &n, &one, in->a, &n, k->a, &n, &mone, r,
                   &n, 1, 1);                       /* A Z - Z W */
        ck->resid = norm1_d(n, n, r, n) / (anorm * nf * eps);
        set_identity(r, n, 0);
        blas_dgemm("T", "N", &n, &n, &n, &mone, k->a, &n, k->a, &n, &one, r,
                   &n, 1, 1);                       /* I - Z^T Z */
        ck->orth1 = norm1_d(n, n, r, n) / (nf * eps);
        free(r);
    } else if (c->kind == K_ZHEEVD) {
        double zone[2] = { 1, 0 }, zmone[2] = { -1, 0 };
        double anorm = norm1_z(n, n, in->a, n);
        double *r = xdup(k->a, 2 * nn * sizeof(double));
        scale_columns(r, n, k->w, 1);
        blas_zgemm("N", "N", &n, &n, &n, zone, in->a, &n, k->a, &n, zmone, r,
                   &n, 1, 1);                       /* A Z - Z W */
        ck->resid = norm1_z(n, n, r, n) / (anorm * nf * eps);
        set_identity(r, n, 1);
        blas_zgemm("C", "N", &n, &n, &n, zmone, k->a, &n, k->a, &n, zone, r,
                   &n, 1, 1);                       /* I - Z^H Z */
        ck->orth1 = norm1_z(n, n, r, n) / (nf * eps);
        free(r);
    } else if (c->kind == K_DSYTRD) {
        /* Q from ours' reflectors by the real dorgtr_: LAPACK's format. */
        double wq = 0;
        lint lwork = -1;
        double *q = xdup(k->a, nn * sizeof(double));
        real_dorgtr("L", &n, q, &n, k->tau, &wq, &lwork, &info, 1);
        if (info == 0) {
            lwork = lwork_of(wq);
            double *work = xmalloc((size_t)lwork * sizeof(double));
            real_dorgtr("L", &n, q, &n, k->tau, work, &lwork, &info, 1);
            free(work);
        }
        if (info == 0) {
            /* Sampled: P random +-1 columns X estimate Frobenius norms
             * without bias (E |R x|_2^2 = |R|_F^2), for O(n^2 P) work
             * instead of the O(n^3) of two full products. */
            enum { P = 16 };
            lint p = P;
            const double *d = k->w, *e = k->e;
            size_t np = (size_t)n * P;
            double *x = xmalloc(np * sizeof(double));
            double *y = xmalloc(np * sizeof(double));
            double *z = xmalloc(np * sizeof(double));
            double *r = xmalloc(np * sizeof(double));
            double zero = 0;
            rng_state = 0xc0ffee;
            for (size_t i = 0; i < np; i++)
                x[i] = urand() < 0 ? -1.0 : 1.0;
            blas_dgemm("T", "N", &n, &p, &n, &one, q, &n, x, &n, &zero, y,
                       &n, 1, 1);                   /* Y = Q^T X */
            for (lint j = 0; j < P; j++) {          /* Z = T Y */
                const double *yj = y + (size_t)j * n;
                double *zj = z + (size_t)j * n;
                for (lint i = 0; i < n; i++) {
                    double t = d[i] * yj[i];
                    if (i > 0)
                        t += e[i - 1] * yj[i - 1];
                    if (i < n - 1)
                        t += e[i] * yj[i + 1];
                    zj[i] = t;
                }
            }
            blas_dgemm("N", "N", &n, &p, &n, &one, in->a, &n, x, &n, &zero,
                       r, &n, 1, 1);                /* A X */
            blas_dgemm("N", "N", &n, &p, &n, &mone, q, &n, z, &n, &one, r,
                       &n, 1, 1);                   /* (A - Q T Q^T) X */
            ck->resid = normf(n, P, r) / sqrt((double)P)
                        / (normf(n, n, in->a) * nf * eps);
            memcpy(r, x, np * sizeof(double));
            blas_dgemm("N", "N", &n, &p, &n, &one, q, &n, y, &n, &mone, r,
                       &n, 1, 1);                   /* (Q Q^T - I) X */
            ck->orth1 = normf(n, P, r) / sqrt((double)P) / (nf * eps);
            free(x);
            free(y);
            free(z);
            free(r);
        }
        free(q);
    }
    ck->done = info == 0 && c->job != 'N';
    ck->secs = now() - t0;
}

/* The largest ratio; NaN when any is. */
static double check_max(const check *ck)
{
    double v[3] = { ck->resid, ck->orth1, ck->orth2 }, m = 0;
    for (int i = 0; i < 3; i++) {
        if (isnan(v[i]))
            return NAN;
        if (v[i] > m)
            m = v[i];
    }
    return m;
}

/* ---- configuration (parsing it: bench_common.h) ------------------------- */
static const char *case_name(int i)
{
    return cases[i].name;
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

/* ---- the table and the CSV ------------------------------------------------ */
/* The table's header; with_checks: the max_rel_diff and resid_ulp columns. */
static void print_header(int with_checks)
{
    printf("%6s  %-10s  %9s  %9s  %9s  %9s  %9s  %9s  %9s  %9s  %-6s", "n",
           "case", "peer_s", "ours_s", "peer/ours", "stage1_s", "stage2_s",
           "stage3_s", "back_s", "other_s", "path");
    if (with_checks)
        printf("  %12s  %9s", "max_rel_diff", "resid_ulp");
    printf("\n");
    fflush(stdout);
}

/* One (n, case): the table row and the CSV row, ours' stages and path from
 * o.  resid_tab NULL: no checks (no diff and resid columns in the table,
 * empty ones in the CSV). */
static void print_row(FILE *csv, lint n, const char *name, const result *p,
                      const result *o, double diff, const char *resid_tab,
                      const char *resid_csv, const char *coretype)
{
    const char *path = o->accel ? o->t.path : "lapack";
    double s1 = 0, s2 = 0, s3 = 0, sb = 0, so = 0;
    if (o->accel) {
        s1 = o->t.stage1;
        s2 = o->t.stage2;
        s3 = o->t.stage3;
        sb = o->t.backtransform;
        so = o->t.other;
    }
    double speedup = p->secs / o->secs;
    printf("%6d  %-10s  %9.4f  %9.4f  %9.2f  %9.4f  %9.4f  %9.4f  %9.4f"
           "  %9.4f  %-6s", n, name, p->secs, o->secs, speedup, s1, s2, s3,
           sb, so, path);
    if (resid_tab)
        printf("  %12.3e  %9s", diff, resid_tab);
    printf("\n");
    fprintf(csv, "%d,%s,%.6f,%.6f,%.4f,%.6f,%.6f,%.6f,%.6f,%.6f,%s,", n, name,
            p->secs, o->secs, speedup, s1, s2, s3, sb, so, path);
    if (resid_tab)
        fprintf(csv, "%.3e,%s,%s\n", diff, resid_csv, coretype);
    else
        fprintf(csv, ",,%s\n", coretype);
}

/* ---- first calls (BENCH_FIRST=1) ------------------------------------------ */
extern char **environ;

/* In the child: the one call of spec "case:n:side", one line to stdout. */
static int first_call_child(const char *spec)
{
    char name[32];
    int n = 0;
    char side[8];
    if (sscanf(spec, "%31[^:]:%d:%7s", name, &n, side) != 3 || n < 1)
        die("bad BENCH_FIRST_CHILD", spec);
    int c = 0;
    while (c < NCASES && strcmp(cases[c].name, name))
        c++;
    if (c == NCASES)
        die("unknown case", name);
    input in;
    result r;
    double *vals = xmalloc((size_t)n * sizeof(double));
    input_make(&in, cases[c].family, n, cases[c].band);
    run_one(&cases[c], &in, strcmp(side, "peer") ? &ours : &peer, vals, &r,
            NULL);
    gpulapack_timing *t = &r.t;
    printf("first %.6f %d %d %.6f %.6f %.6f %.6f %.6f %s\n", r.secs,
           (int)r.info, r.accel, t->stage1, t->stage2, t->stage3,
           t->backtransform, t->other, r.accel ? t->path : "-");
    input_free(&in);
    free(vals);
    return 0;
}

/* In the parent: one child for spec after the pause; its result. */
static result first_call(const char *exe, const char *spec, long pause_s)
{
    result r = { .secs = NAN };
    int fd[2];
    if (pause_s > 0)
        sleep((unsigned)pause_s);
    if (setenv("BENCH_FIRST_CHILD", spec, 1) || pipe(fd))
        die("cannot start a child for", spec);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    char *argv[] = { (char *)exe, NULL };
    pid_t pid;
    int err = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    unsetenv("BENCH_FIRST_CHILD");
    if (err)
        die("cannot start", exe);
    FILE *f = fdopen(fd[0], "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        int info, accel;
        gpulapack_timing *t = &r.t;
        if (sscanf(line, "first %lf %d %d %lf %lf %lf %lf %lf %7s", &r.secs,
                   &info, &accel, &t->stage1, &t->stage2, &t->stage3,
                   &t->backtransform, &t->other, t->path) == 9) {
            r.info = info;
            r.accel = accel;
        }
    }
    if (f)
        fclose(f);
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        r.secs = NAN;
    return r;
}

static void first_calls(const lint *sizes, int nsizes, const int *on,
                        FILE *csv, const char *coretype)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        die("cannot find this program", "/proc/self/exe");
    exe[len] = 0;
    long pause_s = parse_long("BENCH_PAUSE", "5", 0, 600);
    printf("# first calls: one process per call, %ld s apart, no warm-up\n",
           pause_s);
    print_header(0);
    int turn = 0;
    for (int si = 0; si < nsizes; si++)
        for (int c = 0; c < NCASES; c++) {
            if (!on[c])
                continue;
            result rs[2];
            for (int k = 0; k < 2; k++) {
                int is_peer = (k == 0) == (turn % 2 == 0);
                char spec[64];
                snprintf(spec, sizeof spec, "%s:%d:%s", cases[c].name,
                         sizes[si], is_peer ? "peer" : "ours");
                rs[is_peer] = first_call(exe, spec, pause_s);
            }
            turn++;
            const result *p = &rs[1], *o = &rs[0];
            print_row(csv, sizes[si], cases[c].name, p, o, NAN, NULL, NULL,
                      coretype);
            if (p->info || o->info)
                printf("#   note: INFO = %d (peer), %d (ours)\n", p->info,
                       o->info);
            fflush(stdout);
            fflush(csv);
        }
}

int main(void)
{
    /* Before anything can reach the library: it reads these once. */
    setenv("GPULAPACK_DEVICE", env_or("BENCH_DEVICE", "host"), 1);
    setenv("GPULAPACK_MIN_N", "0", 1);

    lint sizes[64];
    int nsizes = parse_sizes("BENCH_SIZES", "1000 2000 4000", sizes, 64,
                             100000);
    int on[NCASES] = { 0 };
    parse_cases("BENCH_CASES", "all", on, NCASES, case_name);
    long reps = parse_long("BENCH_REPS", "1", 1, 1000);
    const char *csv_path = env_or("BENCH_CSV", "build/bench/bench.csv");
    const char *peer_mode = env_or("BENCH_PEER", "dlopen");

    /* The peer: the system LAPACK's own definitions. */
    void *h = open_system_lapack(peer_mode);
    peer.dgesdd = (gesdd_d_t *)lapack_sym(h, "dgesdd_");
    peer.dgesvd = (gesvd_d_t *)lapack_sym(h, "dgesvd_");
    peer.dsyevd = (syevd_d_t *)lapack_sym(h, "dsyevd_");
    peer.dsyevr = (syevr_d_t *)lapack_sym(h, "dsyevr_");
    peer.dgbbrd = (gbbrd_d_t *)lapack_sym(h, "dgbbrd_");
    peer.dsbtrd = (sbtrd_d_t *)lapack_sym(h, "dsbtrd_");
    peer.sgesdd = (gesdd_s_t *)lapack_sym(h, "sgesdd_");
    peer.zheevd = (heevd_z_t *)lapack_sym(h, "zheevd_");
    peer.dsytrd = (sytrd_d_t *)lapack_sym(h, "dsytrd_");
    real_dbdsqr = (bdsqr_d_t *)lapack_sym(h, "dbdsqr_");
    real_dsterf = (sterf_d_t *)lapack_sym(h, "dsterf_");
    real_dorgtr = (orgtr_d_t *)lapack_sym(h, "dorgtr_");
    /* The BLAS of the checks: what the system LAPACK itself links. */
    blas_dgemm = (gemm_d_t *)lapack_sym(h, "dgemm_");
    blas_zgemm = (zgemm_z_t *)lapack_sym(h, "zgemm_");
    last_timing = (last_timing_t *)dlsym(RTLD_DEFAULT, "gpulapack_last_timing");
    const char *child = getenv("BENCH_FIRST_CHILD");
    if (child)
        return first_call_child(child);

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
    {
        char p5[PATH_MAX];
        printf("# checks: resid_ulp of ours' vectors with dgemm_/zgemm_ from"
               " %s, dsytrd's Q by the real dorgtr_; not timed\n",
               object_of((void *)blas_dgemm, p5, sizeof p5));
    }
    printf("# sizes:");
    for (int i = 0; i < nsizes; i++)
        printf(" %d", sizes[i]);
    int first = (int)parse_long("BENCH_FIRST", "0", 0, 1);
    if (first)
        printf("; first calls; csv %s\n", csv_path);
    else
        printf("; reps %ld (minimum reported); csv %s\n", reps, csv_path);

    FILE *csv = fopen(csv_path, "w");
    if (!csv)
        die("cannot write", csv_path);
    fprintf(csv, "n,case,peer_s,ours_s,speedup,stage1_s,stage2_s,stage3_s,"
                 "back_s,other_s,path,max_rel_diff,resid_ulp,coretype\n");

    if (first) {
        first_calls(sizes, nsizes, on, csv, coretype);
        if (fclose(csv))
            die("cannot write", csv_path);
        printf("# csv: %s\n", csv_path);
        return 0;
    }

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
            run_one(&cases[c], &in, &peer, v, &r, NULL);
            run_one(&cases[c], &in, &ours, v, &r, NULL);
            input_free(&in);
        }
        free(v);
    }

    print_header(1);

    double check_secs = 0;
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
            lint bad_info = 0, kept_info = -1;
            kept ko;        /* ours' outputs of the first repetition */
            memset(&ko, 0, sizeof ko);
            for (long rep = 0; rep < reps; rep++) {
                /* Alternate which side goes first. */
                for (int k = 0; k < 2; k++) {
                    int is_peer = (k == 0) == (rep % 2 == 0);
                    if (is_peer) {
                        run_one(bc, &in, &peer, vp, &rp, NULL);
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
                        run_one(bc, &in, &ours, vo, &ro,
                                rep == 0 ? &ko : NULL);
                        if (rep == 0)
                            kept_info = ro.info;
                        if (ro.info)
                            bad_info = ro.info;
                        if (ro.secs < best_o.secs)
                            best_o = ro;
                    }
                }
            }
            double diff = rp.info || ro.info ? NAN
                          : rel_diff(vo, ro.nvals, vp, rp.nvals);
            /* The checks, on ours' first output, after all timed calls. */
            check ck;
            memset(&ck, 0, sizeof ck);
            if (bc->job != 'N' && kept_info == 0)
                run_check(bc, &in, &ko, &ck);
            kept_free(&ko);
            check_secs += ck.secs;
            double resid = ck.done ? check_max(&ck) : NAN;
            char resid_tab[32], resid_csv[32];
            if (bc->job == 'N') {
                strcpy(resid_tab, "-");
                resid_csv[0] = 0;
            } else {
                snprintf(resid_tab, sizeof resid_tab, "%.3g", resid);
                snprintf(resid_csv, sizeof resid_csv, "%.3e", resid);
            }
            print_row(csv, n, bc->name, &best_p, &best_o, diff, resid_tab,
                      resid_csv, coretype);
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
            if (bc->job != 'N' && kept_info != 0)
                printf("#   note: no check (ours' INFO = %d)\n", kept_info);
            else if (bc->job != 'N' && !ck.done)
                printf("#   note: the check failed (real dorgtr_ on ours'"
                       " reflectors)\n");
            else if (bc->job != 'N' && !(resid <= 30.0)) {
                if (bc->kind == K_DGESDD || bc->kind == K_DGESVD)
                    printf("#   note: resid_ulp above 30: residual %.3g,"
                           " orthogonality of U %.3g, of VT %.3g\n",
                           ck.resid, ck.orth1, ck.orth2);
                else
                    printf("#   note: resid_ulp above 30: residual %.3g,"
                           " orthogonality %.3g\n", ck.resid, ck.orth1);
            }
            if (contaminated)
                printf("#   note: the peer call reached our accelerated %s"
                       " through a nested call; its time is not the system"
                       " LAPACK's alone (use BENCH_PEER=dlmopen)\n",
                       nested[0] ? nested : "routine");
            fflush(stdout);
            fflush(csv);
            input_free(&in);
        }
        free(vp);
        free(vo);
    }
    if (fclose(csv))
        die("cannot write", csv_path);
    printf("# checks: %.2f s in all, outside the timed calls\n", check_secs);
    printf("# csv: %s\n", csv_path);
    return 0;
}
