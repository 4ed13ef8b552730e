/* driver.c - a ScaLAPACK program for the interposer's checks
 * (testing/scalapack/check_scalapack.sh): pdsyevd, pdsyev, pdsyevx
 * (RANGE='I'), pdsyevr (RANGE='V'), pzheevd and pdgesvd on random
 * matrices, over sizes, block sizes and offsets IA = JA, on an NPROW x NPCOL
 * grid (optionally with grid position (0,0) on the last process, and with
 * idle processes beside the grid).  World rank 0 prints one line per case:
 *
 *   <case> info=I lwq=L liwq=L lrwq=L m=M nz=NZ zhash=H res=R orth=O w=v,v,...
 *
 * lwq/liwq/lrwq: the workspace query's answers; zhash: FNV-1a of the
 * vectors' bytes (gathered); res, orth: the residual and orthogonality
 * ratios in units of n*eps (LAPACK's test ratios); w: the values, %.17g.
 * Cases "bad-*" pass an invalid descriptor (MB != NB), "short-*" one
 * element less workspace than the query asked for.  Links only BLACS and
 * ScaLAPACK (Fortran ABI), no MPI header.
 *
 *   driver OUT NPROW NPCOL [rev] [routines=a,b] [sizes=1,7] [nbs=1,8] [offs=1,3] */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef double complex zc;
#define F(x) x##_
void F(blacs_pinfo)(int *, int *);
void F(blacs_get)(const int *, const int *, int *);
void F(blacs_gridinit)(int *, const char *, const int *, const int *, size_t);
void F(blacs_gridmap)(int *, int *, const int *, const int *, const int *);
void F(blacs_gridinfo)(const int *, int *, int *, int *, int *);
void F(blacs_gridexit)(const int *);
void F(blacs_barrier)(const int *, const char *, size_t);
void F(blacs_exit)(const int *);
void F(dgebs2d)(const int *, const char *, const char *, const int *, const int *,
                const double *, const int *, size_t, size_t);
void F(dgebr2d)(const int *, const char *, const char *, const int *, const int *,
                double *, const int *, const int *, const int *, size_t, size_t);
int F(numroc)(const int *, const int *, const int *, const int *, const int *);
void F(descinit)(int *, const int *, const int *, const int *, const int *,
                 const int *, const int *, const int *, const int *, int *);
void F(pdgemr2d)(const int *, const int *, const double *, const int *, const int *,
                 const int *, double *, const int *, const int *, const int *,
                 const int *);
void F(pzgemr2d)(const int *, const int *, const zc *, const int *, const int *,
                 const int *, zc *, const int *, const int *, const int *,
                 const int *);
void F(pdsyev)(const char *, const char *, const int *, double *, const int *,
               const int *, const int *, double *, double *, const int *,
               const int *, const int *, double *, const int *, int *, size_t,
               size_t);
void F(pdsyevd)(const char *, const char *, const int *, double *, const int *,
                const int *, const int *, double *, double *, const int *,
                const int *, const int *, double *, const int *, int *,
                const int *, int *, size_t, size_t);
void F(pdsyevx)(const char *, const char *, const char *, const int *, double *,
                const int *, const int *, const int *, const double *,
                const double *, const int *, const int *, const double *, int *,
                int *, double *, const double *, double *, const int *,
                const int *, const int *, double *, const int *, int *,
                const int *, int *, int *, double *, int *, size_t, size_t,
                size_t);
void F(pdsyevr)(const char *, const char *, const char *, const int *, double *,
                const int *, const int *, const int *, const double *,
                const double *, const int *, const int *, int *, int *,
                double *, double *, const int *, const int *, const int *,
                double *, const int *, int *, const int *, int *, size_t,
                size_t, size_t);
void F(pzheevd)(const char *, const char *, const int *, zc *, const int *,
                const int *, const int *, double *, zc *, const int *,
                const int *, const int *, zc *, const int *, double *,
                const int *, int *, const int *, int *, size_t, size_t);
void F(pdgesvd)(const char *, const char *, const int *, const int *, double *,
                const int *, const int *, const int *, double *, double *,
                const int *, const int *, const int *, double *, const int *,
                const int *, const int *, double *, const int *, int *, size_t,
                size_t);

static int me, nprocs, ctx_all, ctx_chk, ctx, nprow, npcol, myrow, mycol;
static FILE *out;
static int time_only;   /* "time": the call's seconds, no checks */
static const int i0 = 0, i1 = 1;

/* entry (i, j) (0-based, global) of the test matrix: symmetric/Hermitian
 * for the eigensolvers, general (tall by 13 rows) for the SVD */
static double hv(int i, int j)
{
    uint64_t x = (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(j + 7) * 0xC2B2AE3D27D4EB4Full;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return (double)(x >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}
static double sym_entry(int i, int j) { return i >= j ? hv(i, j) : hv(j, i); }
static zc herm_entry(int i, int j)
{
    if (i == j)
        return hv(i, i);
    return i > j ? hv(i, j) + I * hv(j, i) : hv(j, i) - I * hv(i, j);
}

typedef struct dist {
    int desc[9], locr, locc, gm, gn;
    void *a;
} dist;

/* a distributed (gm x gn) matrix with blocks nb x nb on the test grid
 * (desc CTXT -1 off the grid, as ScaLAPACK wants) */
static void dist_init(dist *d, int gm, int gn, int nb, size_t es)
{
    d->gm = gm;
    d->gn = gn;
    memset(d->desc, 0, sizeof d->desc);
    d->desc[1] = -1;
    d->locr = d->locc = 0;
    d->a = NULL;
    if (ctx < 0)
        return;
    d->locr = F(numroc)(&gm, &nb, &myrow, &i0, &nprow);
    d->locc = F(numroc)(&gn, &nb, &mycol, &i0, &npcol);
    int lld = d->locr > 1 ? d->locr : 1, info;
    F(descinit)(d->desc, &gm, &gn, &nb, &nb, &i0, &i0, &ctx, &lld, &info);
    d->a = calloc((size_t)lld * (size_t)(d->locc > 1 ? d->locc : 1), es);
}

static int g2l_owner(int g, int nb, int np, int *l)
{
    int blk = g / nb;
    *l = (blk / np) * nb + g % nb;
    return blk % np;
}

static void fill(dist *d, int nb, int kind)
{
    if (ctx < 0)
        return;
    int lld = d->desc[8];
    for (int j = 0; j < d->gn; j++) {
        int lj, lc = g2l_owner(j, nb, npcol, &lj);
        if (lc != mycol)
            continue;
        for (int i = 0; i < d->gm; i++) {
            int li, lr = g2l_owner(i, nb, nprow, &li);
            if (lr != myrow)
                continue;
            size_t at = (size_t)li + (size_t)lj * (size_t)lld;
            if (kind == 2)
                ((zc *)d->a)[at] = herm_entry(i, j);
            else if (kind == 1)
                ((double *)d->a)[at] = sym_entry(i, j);
            else
                ((double *)d->a)[at] = hv(i + 1000, j);
        }
    }
}

/* gathers rows/cols [off, off+m) x [off, off+n) of d onto world rank 0
 * (column-major, ld m); every process calls it */
static void *gather(const dist *d, int off, int m, int n, int cplx)
{
    size_t es = cplx ? sizeof(zc) : sizeof(double);
    int desc1[9] = {1, -1, m, n, m > 0 ? m : 1, n > 0 ? n : 1, 0, 0, m > 0 ? m : 1};
    void *b = NULL;
    if (me == 0) {
        desc1[1] = ctx_chk;
        b = calloc((size_t)(m > 0 ? m : 1) * (size_t)(n > 0 ? n : 1), es);
    }
    int o1 = off + 1;
    if (m > 0 && n > 0) {
        if (cplx)
            F(pzgemr2d)(&m, &n, d->a, &o1, &o1, d->desc, b, &i1, &i1, desc1, &ctx_all);
        else
            F(pdgemr2d)(&m, &n, d->a, &o1, &o1, d->desc, b, &i1, &i1, desc1, &ctx_all);
    }
    return b;
}

static uint64_t fnv(const void *p, size_t bytes, uint64_t h)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ c[i]) * 0x100000001B3ull;
    return h;
}

/* ||A Z - Z W||_1 / (n ||A||_1 eps) and ||Z^H Z - I||_1 / (n eps), Z n x m */
static void eig_ratios(const void *a, const void *z, const double *w, int n,
                       int m, int cplx, double *res, double *orth)
{
    double anorm = 0, rmax = 0, omax = 0, eps = DBL_EPSILON;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += cplx ? cabs(((const zc *)a)[i + (size_t)j * n])
                      : fabs(((const double *)a)[i + (size_t)j * n]);
        anorm = s > anorm ? s : anorm;
    }
    for (int k = 0; k < m; k++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            zc t = 0;
            for (int l = 0; l < n; l++)
                t += cplx ? ((const zc *)a)[i + (size_t)l * n] * ((const zc *)z)[l + (size_t)k * n]
                          : ((const double *)a)[i + (size_t)l * n] * ((const double *)z)[l + (size_t)k * n];
            t -= w[k] * (cplx ? ((const zc *)z)[i + (size_t)k * n] : ((const double *)z)[i + (size_t)k * n]);
            s += cabs(t);
        }
        rmax = s > rmax ? s : rmax;
        double o = 0;
        for (int k2 = 0; k2 < m; k2++) {
            zc t = 0;
            for (int i = 0; i < n; i++)
                t += cplx ? conj(((const zc *)z)[i + (size_t)k2 * n]) * ((const zc *)z)[i + (size_t)k * n]
                          : ((const double *)z)[i + (size_t)k2 * n] * ((const double *)z)[i + (size_t)k * n];
            o += cabs(t - (k == k2));
        }
        omax = o > omax ? o : omax;
    }
    *res = anorm > 0 ? rmax / (n * anorm * eps) : rmax / eps;
    *orth = omax / (n * eps);
}

static void put_line(const char *id, int info, double lwq, int liwq, double lrwq,
                     int m, int nz, uint64_t zh, double res, double orth,
                     const double *w, int nw)
{
    if (me != 0)
        return;
    fprintf(out, "%s info=%d lwq=%.17g liwq=%d lrwq=%.17g m=%d nz=%d zhash=%016llx res=%.3g orth=%.3g w=",
            id, info, lwq, liwq, lrwq, m, nz, (unsigned long long)zh, res, orth);
    for (int i = 0; i < nw; i++)
        fprintf(out, "%s%.17g", i ? "," : "", w[i]);
    fputc('\n', out);
    fflush(out);
}

/* the scalars rank 0 prints come from the grid's (0,0): sent through a
 * gather of a 1 x 8 row held there */
static void share(double *v)
{
    dist d;
    d.gm = 1;
    d.gn = 8;
    memset(d.desc, 0, sizeof d.desc);
    d.desc[1] = -1;
    d.a = v;
    if (ctx >= 0) {
        int one = 1, eight = 8, info;
        F(descinit)(d.desc, &one, &eight, &one, &eight, &i0, &i0, &ctx, &one, &info);
    }
    double *g = gather(&d, 0, 1, 8, 0);
    int eight = 8, one = 1;
    if (me == 0) {
        memcpy(v, g, 8 * sizeof(double));
        F(dgebs2d)(&ctx_all, "All", " ", &eight, &one, v, &eight, 3, 1);
    } else {
        F(dgebr2d)(&ctx_all, "All", " ", &eight, &one, v, &eight, &i0, &i0, 3, 1);
    }
    free(g);
}

enum { R_SYEVD, R_SYEV, R_SYEVX, R_SYEVR, R_HEEVD, R_GESVD };
static const char *rname[] = {"pdsyevd", "pdsyev", "pdsyevx", "pdsyevr", "pzheevd", "pdgesvd"};

/* one case: variant 0 normal, 1 bad descriptor, 2 short workspace */
static void run_case(int r, int n, int nb, int off, int variant)
{
    /* what Debian's ScaLAPACK 2.2.1 itself gets wrong is left out (seen
     * on a 2x2 grid): p?gesvd with IA > 1 (an error from PDGEBRD then a
     * corrupted heap, or no end within a block); pdsyevd/pzheevd at IA = 3,
     * NB = 1 (wrong vectors, an abort, INFO = -9); NB = 1 is also left out
     * from n = 257 on (slow).  IA = 3 with NB > 1 is an argument error of
     * the eigensolvers, checked as such. */
    if ((r == R_GESVD && off > 1) ||
        (off == 3 && nb == 1 && (r == R_SYEVD || r == R_HEEVD)) ||
        (nb == 1 && n >= 257))
        return;
    int cplx = r == R_HEEVD, svd = r == R_GESVD;
    int m = svd ? n + 13 : n, k = n < m ? n : m, ia = off;
    int gm = m + off - 1, gn = n + off - 1;
    size_t es = cplx ? sizeof(zc) : sizeof(double);
    dist A, Z, VT;
    dist_init(&A, gm, gn, nb, es);
    dist_init(&Z, gm, svd ? k + off - 1 : gn, nb, es);
    dist_init(&VT, svd ? k + off - 1 : 1, svd ? gn : 1, nb, es);
    fill(&A, nb, svd ? 0 : (cplx ? 2 : 1));
    void *a0 = gather(&A, off - 1, m, n, cplx);
    int desca[9], info = 0, mm = 0, nz = 0;
    memcpy(desca, A.desc, sizeof desca);
    if (variant == 1)
        desca[4] = nb + 1;                         /* MB != NB */
    double *w = calloc((size_t)(n > 0 ? n : 1) + 13, sizeof(double));
    double lwq = 0, lrwq = 0, q[8] = {0};   /* q[6]: the call's seconds */
    int liwq = 0, il = n / 4 > 0 ? n / 4 : 1, iu = n / 2 > 0 ? n / 2 : 1;
    double vl = -0.5, vu = 1.5, abstol = 0, orfac = 1e-3;
    int *ifail = calloc((size_t)n + 1, sizeof(int)), *iclustr = calloc(2 * 64, sizeof(int));
    double *gap = calloc(64, sizeof(double));
    if (ctx >= 0) {
        double qw[4];
        zc qz[4];
        double qr[4];
        int qi[4], m1 = -1;
        switch (r) {   /* the workspace query */
        case R_SYEVD: F(pdsyevd)("V", "L", &n, A.a, &ia, &ia, desca, w, Z.a, &ia, &ia, Z.desc, qw, &m1, qi, &m1, &info, 1, 1); break;
        case R_SYEV: F(pdsyev)("V", "L", &n, A.a, &ia, &ia, desca, w, Z.a, &ia, &ia, Z.desc, qw, &m1, &info, 1, 1); qi[0] = 0; break;
        case R_SYEVX: F(pdsyevx)("V", "I", "U", &n, A.a, &ia, &ia, desca, &vl, &vu, &il, &iu, &abstol, &mm, &nz, w, &orfac, Z.a, &ia, &ia, Z.desc, qw, &m1, qi, &m1, ifail, iclustr, gap, &info, 1, 1, 1); break;
        case R_SYEVR: F(pdsyevr)("V", "V", "L", &n, A.a, &ia, &ia, desca, &vl, &vu, &il, &iu, &mm, &nz, w, Z.a, &ia, &ia, Z.desc, qw, &m1, qi, &m1, &info, 1, 1, 1); break;
        case R_HEEVD: F(pzheevd)("V", "U", &n, A.a, &ia, &ia, desca, w, Z.a, &ia, &ia, Z.desc, qz, &m1, qr, &m1, qi, &m1, &info, 1, 1); qw[0] = creal(qz[0]); break;
        default: F(pdgesvd)("V", "V", &m, &n, A.a, &ia, &ia, desca, w, Z.a, &ia, &ia, Z.desc, VT.a, &ia, &ia, VT.desc, qw, &m1, &info, 1, 1); qi[0] = 0; break;
        }
        lwq = qw[0];
        liwq = qi[0];
        lrwq = r == R_HEEVD ? qr[0] : 0;
        /* twice the query's answer: with exactly it, Debian's pdsyevd
         * fails in PDORMTR (parameter 16) on some processes of a 1x2 grid
         * at n = 100, NB = 8, and the others wait for ever */
        int lw = variant == 2 ? (int)lwq - 1 : 2 * (int)lwq + 1000;
        int liw = variant == 2 ? (liwq > 1 ? liwq : 1) : 2 * liwq + 100;
        int lrw = 2 * (int)lrwq + 1000;
        if (variant == 1) {   /* the query failed: still call with sizes that would do */
            lw = 100000;
            liw = lrw = 100000;
        }
        void *work = calloc((size_t)(lw > 1 ? lw : 1), es);
        int *iwork = calloc((size_t)liw, sizeof(int));
        double *rwork = calloc((size_t)lrw, sizeof(double));
        info = 0;
        struct timespec t0, t1;
        F(blacs_barrier)(&ctx, "All", 3);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        switch (r) {
        case R_SYEVD: F(pdsyevd)("V", "L", &n, A.a, &ia, &ia, desca, w, Z.a, &ia, &ia, Z.desc, work, &lw, iwork, &liw, &info, 1, 1); break;
        case R_SYEV: F(pdsyev)("V", "L", &n, A.a, &ia, &ia, desca, w, Z.a, &ia, &ia, Z.desc, work, &lw, &info, 1, 1); break;
        case R_SYEVX: F(pdsyevx)("V", "I", "U", &n, A.a, &ia, &ia, desca, &vl, &vu, &il, &iu, &abstol, &mm, &nz, w, &orfac, Z.a, &ia, &ia, Z.desc, work, &lw, iwork, &liw, ifail, iclustr, gap, &info, 1, 1, 1); break;
        case R_SYEVR: F(pdsyevr)("V", "V", "L", &n, A.a, &ia, &ia, desca, &vl, &vu, &il, &iu, &mm, &nz, w, Z.a, &ia, &ia, Z.desc, work, &lw, iwork, &liw, &info, 1, 1, 1); break;
        case R_HEEVD: F(pzheevd)("V", "U", &n, A.a, &ia, &ia, desca, w, Z.a, &ia, &ia, Z.desc, work, &lw, rwork, &lrw, iwork, &liw, &info, 1, 1); break;
        default: F(pdgesvd)("V", "V", &m, &n, A.a, &ia, &ia, desca, w, Z.a, &ia, &ia, Z.desc, VT.a, &ia, &ia, VT.desc, work, &lw, &info, 1, 1); break;
        }
        F(blacs_barrier)(&ctx, "All", 3);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        q[6] = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        free(work);
        free(iwork);
        free(rwork);
        if (r == R_SYEVD || r == R_SYEV || r == R_HEEVD)
            mm = nz = n;
        if (r == R_GESVD)
            mm = nz = k;
        if (myrow == 0 && mycol == 0) {
            double t = q[6];
            memset(q, 0, sizeof q);
            q[6] = t;
            q[0] = info; q[1] = lwq; q[2] = liwq; q[3] = lrwq; q[4] = mm; q[5] = nz;
        }
    }
    /* W from the grid's (0,0) */
    share(q);
    int nw = (int)q[4];
    dist W;
    W.gm = 1; W.gn = nw > 0 ? nw : 1; W.a = w;
    memset(W.desc, 0, sizeof W.desc);
    W.desc[1] = -1;
    if (ctx >= 0) {
        int one = 1, nn = W.gn, info2;
        F(descinit)(W.desc, &one, &nn, &one, &nn, &i0, &i0, &ctx, &one, &info2);
    }
    double *wg = gather(&W, 0, 1, W.gn, 0);
    char id[96];
    snprintf(id, sizeof id, "%s%s-n%d-nb%d-ia%d", variant == 1 ? "bad-" : variant == 2 ? "short-" : "",
             rname[r], n, nb, off);
    double res = 0, orth = 0;
    uint64_t zh = 1469598103934665603ull;
    if (time_only) {
        if (me == 0)
            fprintf(out, "%s info=%d time=%.3f\n", id, (int)q[0], q[6]);
        nw = 0;
    }
    if (!time_only && variant == 0 && (int)q[0] == 0 && nw > 0) {
        void *zg = gather(&Z, off - 1, m, nw, cplx);
        void *vg = svd ? gather(&VT, off - 1, k, n, 0) : NULL;
        if (me == 0) {
            zh = fnv(zg, (size_t)m * nw * es, zh);
            if (vg)
                zh = fnv(vg, (size_t)k * n * es, zh);
            if (!svd) {
                eig_ratios(a0, zg, wg, n, nw, cplx, &res, &orth);
            } else {   /* ||A - U S VT|| / (max(m,n) ||A|| eps), orth of U and VT */
                double *u = zg, *vt = vg, *a = a0, anorm = 0, rmax = 0, o = 0;
                for (int j = 0; j < n; j++) {
                    double s = 0, t = 0;
                    for (int i = 0; i < m; i++) {
                        double x = a[i + (size_t)j * m];
                        for (int l = 0; l < k; l++)
                            x -= u[i + (size_t)l * m] * wg[l] * vt[l + (size_t)j * k];
                        s += fabs(x);
                        t += fabs(a[i + (size_t)j * m]);
                    }
                    rmax = s > rmax ? s : rmax;
                    anorm = t > anorm ? t : anorm;
                }
                for (int l = 0; l < k; l++)
                    for (int l2 = 0; l2 < k; l2++) {
                        double x = 0, y = 0;
                        for (int i = 0; i < m; i++) x += u[i + (size_t)l * m] * u[i + (size_t)l2 * m];
                        for (int j = 0; j < n; j++) y += vt[l + (size_t)j * k] * vt[l2 + (size_t)j * k];
                        double e = fabs(x - (l == l2)) + fabs(y - (l == l2));
                        o = e > o ? e : o;
                    }
                res = rmax / (m * (anorm > 0 ? anorm : 1) * DBL_EPSILON);
                orth = o / (m * DBL_EPSILON);
            }
        }
        free(zg);
        free(vg);
    }
    if (!time_only)
        put_line(id, (int)q[0], q[1], (int)q[2], q[3], (int)q[4], (int)q[5], zh, res, orth,
             wg, variant == 0 && (int)q[0] == 0 ? nw : 0);
    free(wg);
    free(a0);
    free(A.a);
    free(Z.a);
    free(VT.a);
    free(w);
    free(ifail);
    free(iclustr);
    free(gap);
}

static int parse_list(const char *s, int *v, int max)
{
    int k = 0;
    while (s && *s && k < max) {
        v[k++] = atoi(s);
        s = strchr(s, ',');
        if (s)
            s++;
    }
    return k;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: driver OUT NPROW NPCOL [rev] [routines=..] [sizes=..] [nbs=..] [offs=..] [variants=..]\n");
        return 2;
    }
    F(blacs_pinfo)(&me, &nprocs);
    int want_r = atoi(argv[2]), want_c = atoi(argv[3]), rev = 0;
    int sizes[16] = {1, 7, 100, 257}, ns = 4, nbs[8] = {1, 8, 64}, nnb = 3;
    int offs[4] = {1, 3}, noff = 2, variants[3] = {0, 1, 2}, nvar = 3;
    int routines[8] = {0, 1, 2, 3, 4, 5}, nr = 6;
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "rev"))
            rev = 1;
        else if (!strcmp(argv[i], "time"))
            time_only = 1;
        else if (!strncmp(argv[i], "sizes=", 6))
            ns = parse_list(argv[i] + 6, sizes, 16);
        else if (!strncmp(argv[i], "nbs=", 4))
            nnb = parse_list(argv[i] + 4, nbs, 8);
        else if (!strncmp(argv[i], "offs=", 5))
            noff = parse_list(argv[i] + 5, offs, 4);
        else if (!strncmp(argv[i], "variants=", 9))
            nvar = parse_list(argv[i] + 9, variants, 3);
        else if (!strncmp(argv[i], "routines=", 9)) {
            nr = 0;
            for (char *s = argv[i] + 9; s && *s && nr < 8;) {
                size_t len = strcspn(s, ",");
                for (int r = 0; r < 6; r++)
                    if (strlen(rname[r]) == len && !strncmp(s, rname[r], len))
                        routines[nr++] = r;
                s = strchr(s, ',');
                if (s)
                    s++;
            }
        }
    }
    int sys;
    F(blacs_get)(&i0, &i0, &sys);
    ctx_all = sys;
    F(blacs_gridinit)(&ctx_all, "R", &i1, &nprocs, 1);
    F(blacs_get)(&i0, &i0, &sys);
    ctx_chk = sys;
    F(blacs_gridinit)(&ctx_chk, "R", &i1, &i1, 1);
    /* the test grid: ranks 0.. in row-major order, or the last ranks
     * backwards (then (0,0) is the last rank and rank 0 may be idle) */
    int np = want_r * want_c, *map = malloc((size_t)np * sizeof(int));
    for (int i = 0; i < want_r; i++)
        for (int j = 0; j < want_c; j++)
            map[i + j * want_r] = rev ? nprocs - 1 - (i * want_c + j) : i * want_c + j;
    F(blacs_get)(&i0, &i0, &sys);
    ctx = sys;
    F(blacs_gridmap)(&ctx, map, &want_r, &want_r, &want_c);
    nprow = npcol = myrow = mycol = -1;
    if (ctx >= 0)
        F(blacs_gridinfo)(&ctx, &nprow, &npcol, &myrow, &mycol);
    if (me == 0 && !(out = fopen(argv[1], "w"))) {
        perror(argv[1]);
        return 1;
    }
    for (int v = 0; v < nvar; v++)
        for (int r = 0; r < nr; r++)
            for (int s = 0; s < ns; s++)
                for (int b = 0; b < nnb; b++)
                    for (int o = 0; o < noff; o++) {
                        if (variants[v] > 0 && (b > 0 || o > 0 || sizes[s] < 7))
                            continue;   /* the error cases once per routine and size */
                        run_case(routines[r], sizes[s], nbs[b], offs[o], variants[v]);
                    }
    if (me == 0)
        fclose(out);
    if (ctx >= 0)
        F(blacs_gridexit)(&ctx);
    F(blacs_exit)(&i0);
    return 0;
}
