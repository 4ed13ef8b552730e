/* LAPACK's minimum workspace lengths for the values-only options; see
 * workspace.h.  Every rule below is read from the "Test the input arguments"
 * block of the reference routine in LAPACK 3.11 (the code, which is what
 * rejects a call, where it differs from the doc comment).  Later releases
 * only lowered some of these minimums (3.12: ?syevr N <= 1 needs 1, and
 * ?sytrd_2stage N = 0 needs 1), so the 3.11 values are never too low for
 * them; 3.7.1 to 3.10.1 check exactly as 3.11 does. */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>

#include "entry.h"
#include "workspace.h"

typedef int64_t i64;

static i64 max2(i64 a, i64 b) { return a > b ? a : b; }
static i64 min2(i64 a, i64 b) { return a < b ? a : b; }

static int is_complex(char prec)
{
    return prec == 'c' || prec == 'z' || prec == 'C' || prec == 'Z';
}

static char upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 32) : c; }

/* ------------------------------------------------------------------------ */
/* The real ILAENV and ILAENV2STAGE                                         */
/* ------------------------------------------------------------------------ */

typedef lapack_int ilaenv_fn(const lapack_int *ispec, const char *name,
                             const char *opts, const lapack_int *n1,
                             const lapack_int *n2, const lapack_int *n3,
                             const lapack_int *n4, gl_strlen name_len,
                             gl_strlen opts_len);

/* Which function the real routine's own ILAENV/ILAENV2STAGE call reaches
 * depends on how the dynamic linker binds it: usually the LAPACK library's
 * own definition (gl_lapack_symbol, where we forward to), but a program may
 * interpose its own (LAPACK's testing suite defines ILAENV and ILAENV2STAGE,
 * returning KD = NB of the test), and a LAPACK library's PLT calls bind to
 * the first definition in the global scope (dlsym(RTLD_DEFAULT)).  Both are
 * kept, and the minimum is taken as the larger of the two: never below what
 * either binding gives. */
typedef struct gl_real_fn {
    const char *symbol;
    _Atomic(void *) fn[2];
    atomic_int resolved;
} gl_real_fn;

static gl_real_fn ilaenv = {.symbol = "ilaenv_"};
static gl_real_fn ilaenv2stage = {.symbol = "ilaenv2stage_"};

/* 1 if addr lies in this library (or in the executable it is linked into). */
static int in_self(void *addr)
{
    Dl_info self, other;
    if (!dladdr((void *)&in_self, &self) || !dladdr(addr, &other))
        return 0;
    return self.dli_fbase == other.dli_fbase;
}

/* Up to two distinct implementations of the function; returns how many. */
static int real_fns(gl_real_fn *f, ilaenv_fn *out[2])
{
    if (!atomic_load_explicit(&f->resolved, memory_order_acquire)) {
        /* Concurrent first calls find the same addresses: harmless race. */
        void *global = dlsym(RTLD_DEFAULT, f->symbol);
        void *lapack = gl_lapack_symbol(f->symbol);
        if (global && in_self(global))
            global = NULL;
        if (global == lapack)
            global = NULL;
        atomic_store_explicit(&f->fn[0], lapack ? lapack : global,
                              memory_order_relaxed);
        atomic_store_explicit(&f->fn[1], lapack ? global : NULL,
                              memory_order_relaxed);
        atomic_store_explicit(&f->resolved, 1, memory_order_release);
    }
    int count = 0;
    for (int i = 0; i < 2; i++) {
        void *fn = atomic_load_explicit(&f->fn[i], memory_order_relaxed);
        if (fn)
            out[count++] = (ilaenv_fn *)fn;
    }
    return count;
}

/* LHTRD = ILAENV2STAGE(3, ...) and LWTRD = ILAENV2STAGE(4, ...) exactly as
 * the 2-stage drivers and ?sytrd_2stage compute them (LAPACK 3.11, e.g.
 * dsyev_2stage.f "Test the input parameters"):
 *     KD    = ILAENV2STAGE( 1, 'DSYTRD_2STAGE', JOBZ, N, -1, -1, -1 )
 *     IB    = ILAENV2STAGE( 2, 'DSYTRD_2STAGE', JOBZ, N, KD, -1, -1 )
 *     LHTRD = ILAENV2STAGE( 3, 'DSYTRD_2STAGE', JOBZ, N, KD, IB, -1 )
 *     LWTRD = ILAENV2STAGE( 4, 'DSYTRD_2STAGE', JOBZ, N, KD, IB, -1 )
 * with 'xHETRD_2STAGE' in complex precisions and JOBZ (VECT) passed as is.
 * Over the implementations found, the larger of each (every minimum below
 * grows with LHTRD and LWTRD).  Returns 0 when no ilaenv2stage_ exists or an
 * answer is negative (an error return: forward rather than guess). */
static int trd_2stage(char prec, char opts, lapack_int n, i64 *lhtrd,
                      i64 *lwtrd)
{
    ilaenv_fn *fns[2];
    int count = real_fns(&ilaenv2stage, fns);
    if (count == 0)
        return 0;
    char name[] = "?SYTRD_2STAGE";
    name[0] = upper(prec);
    if (is_complex(prec))
        name[1] = 'H', name[2] = 'E';
    const gl_strlen name_len = sizeof name - 1;
    const lapack_int one = 1, two = 2, three = 3, four = 4, m1 = -1;
    *lhtrd = *lwtrd = 0;
    for (int i = 0; i < count; i++) {
        lapack_int kd = fns[i](&one, name, &opts, &n, &m1, &m1, &m1,
                               name_len, 1);
        lapack_int ib = fns[i](&two, name, &opts, &n, &kd, &m1, &m1,
                               name_len, 1);
        lapack_int lh = fns[i](&three, name, &opts, &n, &kd, &ib, &m1,
                               name_len, 1);
        lapack_int lw = fns[i](&four, name, &opts, &n, &kd, &ib, &m1,
                               name_len, 1);
        if (lh < 0 || lw < 0)
            return 0;
        *lhtrd = max2(*lhtrd, lh);
        *lwtrd = max2(*lwtrd, lw);
    }
    return 1;
}

/* MNTHR = ILAENV( 6, 'xGESVD', JOBU // JOBVT, M, N, 0, 0 ) (dgesvd.f,
 * zgesvd.f; reference ILAENV: INT( REAL( MIN( M, N ) )*1.6E0 )), the
 * larger over the implementations found (a larger MNTHR selects the path
 * with the larger minimum).  -1 when no ilaenv_ is found. */
static i64 gesvd_mnthr(char prec, lapack_int m, lapack_int n)
{
    ilaenv_fn *fns[2];
    int count = real_fns(&ilaenv, fns);
    char name[] = "?GESVD";
    name[0] = upper(prec);
    const lapack_int six = 6, zero = 0;
    i64 mnthr = -1;
    for (int i = 0; i < count; i++)
        mnthr = max2(mnthr, fns[i](&six, name, "NN", &m, &n, &zero, &zero,
                                   sizeof name - 1, 2));
    return mnthr;
}

/* ------------------------------------------------------------------------ */
/* The minimums                                                             */
/* ------------------------------------------------------------------------ */

/* ?gesvd, JOBU = JOBVT = 'N' (dgesvd.f / zgesvd.f, "Compute workspace"):
 *   MINMN = 0:  MINWRK = 1.
 *   dgesvd: BDSPAC = 5*MINMN;
 *     Path 1 / 1t (MAX(M,N) >= MNTHR, JOBU='N' / JOBVT='N'):
 *             MINWRK = MAX( 4*MINMN, BDSPAC )          = 5*MINMN
 *     Path 10 / 10t (otherwise):
 *             MINWRK = MAX( 3*MINMN + MAX(M,N), BDSPAC )
 *   zgesvd:   Path 1 / 1t: MINWRK = 3*MINMN;  Path 10 / 10t: 2*MINMN + MAX(M,N)
 *   (doc: LWORK >= MAX(1,5*MIN(M,N)) for paths 1/1t, else
 *    MAX(1,3*MIN(M,N)+MAX(M,N),5*MIN(M,N)); zgesvd MAX(1,2*MIN(M,N)+MAX(M,N))).
 *   Without ilaenv_ the path-10 formula (the documented general minimum) is
 *   used for every shape. */
int gl_workspace_gesvd(char prec, lapack_int m, lapack_int n,
                       lapack_int lwork)
{
    if (m < 0 || n < 0 || lwork == -1)
        return 0;
    i64 mn = min2(m, n), mx = max2(m, n), minwrk = 1;
    if (mn > 0) {
        i64 mnthr = gesvd_mnthr(prec, m, n);
        int path1 = mnthr >= 0 && mx >= mnthr;
        if (is_complex(prec))
            minwrk = path1 ? 3 * mn : 2 * mn + mx;
        else
            minwrk = path1 ? 5 * mn : max2(3 * mn + mx, 5 * mn);
    }
    return lwork >= minwrk;
}

/* ?gesdd, JOBZ = 'N' (dgesdd.f / zgesdd.f, "Compute workspace"):
 *   MINMN = 0:  MINWRK = 1.
 *   dgesdd: MNTHR = INT( MINMN*11.0D0 / 6.0D0 ), BDSPAC = 7*MINMN;
 *     Path 1 / 1t (MAX(M,N) >= MNTHR):  MINWRK = BDSPAC + MINMN  = 8*MINMN
 *     Path 5n / 5tn (otherwise):        MINWRK = 3*MINMN + MAX( MAX(M,N), BDSPAC )
 *   zgesdd: MNTHR1 = INT( MINMN*17.0D0 / 9.0D0 );
 *     Path 1 / 1t (MAX(M,N) >= MNTHR1): MINWRK = 3*MINMN
 *     Paths 5 / 6 (otherwise):          MINWRK = 2*MINMN + MAX(M,N)
 *   (doc: 3*mn + max( mx, 7*mn ) and 2*mn + mx, "not tight minimums in all
 *   cases"; the thresholds are constants in the code, not ILAENV.) */
int gl_workspace_gesdd(int complex_, lapack_int m, lapack_int n,
                       lapack_int lwork)
{
    if (m < 0 || n < 0 || lwork == -1)
        return 0;
    i64 mn = min2(m, n), mx = max2(m, n), minwrk = 1;
    if (mn > 0) {
        if (complex_) {
            i64 mnthr1 = (i64)((double)mn * 17.0 / 9.0);
            minwrk = mx >= mnthr1 ? 3 * mn : 2 * mn + mx;
        } else {
            i64 mnthr = (i64)((double)mn * 11.0 / 6.0);
            minwrk = mx >= mnthr ? 8 * mn : 3 * mn + max2(mx, 7 * mn);
        }
    }
    return lwork >= minwrk;
}

/* ?syev/?heev (dsyev.f: LWORK < MAX( 1, 3*N-1 ) -> INFO = -8;
 *              zheev.f: LWORK < MAX( 1, 2*N-1 )).
 * ?syev_2stage/?heev_2stage (dsyev_2stage.f: LWMIN = 2*N + LHTRD + LWTRD;
 *   zheev_2stage.f: LWMIN = N + LHTRD + LWTRD; for every N, N = 0 and 1
 *   included: the code has no N <= 1 case although the doc says LWORK >= 1
 *   when N <= 1). */
int gl_workspace_syev(char prec, int two_stage, char jobz, lapack_int n,
                      lapack_int lwork)
{
    if (n < 0 || lwork == -1)
        return 0;
    int cx = is_complex(prec);
    i64 lwmin;
    if (!two_stage) {
        lwmin = max2(1, cx ? 2 * (i64)n - 1 : 3 * (i64)n - 1);
    } else {
        i64 lhtrd, lwtrd;
        if (!trd_2stage(prec, jobz, n, &lhtrd, &lwtrd))
            return 0;
        lwmin = (cx ? (i64)n : 2 * (i64)n) + lhtrd + lwtrd;
    }
    return lwork >= lwmin;
}

/* ?syevd/?heevd, JOBZ = 'N' (dsyevd.f, zheevd.f; code = doc):
 *   N <= 1:  LWMIN = LRWMIN = LIWMIN = 1
 *   dsyevd:  LWMIN = 2*N + 1,                        LIWMIN = 1
 *   zheevd:  LWMIN = N + 1,      LRWMIN = N,         LIWMIN = 1
 * ?syevd_2stage/?heevd_2stage (dsyevd_2stage.f, zheevd_2stage.f):
 *   N <= 1:  all 1 (ILAENV2STAGE is not called)
 *   dsyevd_2stage:  LWMIN = 2*N + 1 + LHTRD + LWTRD,  LIWMIN = 1
 *   zheevd_2stage:  LWMIN = N + 1 + LHTRD + LWTRD, LRWMIN = N, LIWMIN = 1 */
int gl_workspace_syevd(char prec, int two_stage, char jobz, lapack_int n,
                       lapack_int lwork, lapack_int lrwork,
                       lapack_int liwork)
{
    int cx = is_complex(prec);
    if (n < 0 || lwork == -1 || liwork == -1 || (cx && lrwork == -1))
        return 0;
    i64 lwmin = 1, lrwmin = 1, liwmin = 1;
    if (n > 1) {
        lwmin = cx ? (i64)n + 1 : 2 * (i64)n + 1;
        lrwmin = n;
        if (two_stage) {
            i64 lhtrd, lwtrd;
            if (!trd_2stage(prec, jobz, n, &lhtrd, &lwtrd))
                return 0;
            lwmin += lhtrd + lwtrd;
        }
    }
    return lwork >= lwmin && liwork >= liwmin && (!cx || lrwork >= lrwmin);
}

/* ?syevr/?heevr (dsyevr.f: LWMIN = MAX( 1, 26*N ), LIWMIN = MAX( 1, 10*N );
 *   zheevr.f: LWMIN = MAX( 1, 2*N ), LRWMIN = MAX( 1, 24*N ),
 *   LIWMIN = MAX( 1, 10*N ); whatever JOBZ and RANGE.  So dsyevr with N = 1
 *   needs LWORK >= 26 and LIWORK >= 10 in 3.11, although it then only copies
 *   A(1,1); 3.12 lowered both to 1 for N <= 1.)
 * ?syevr_2stage/?heevr_2stage (for every N):
 *   dsyevr_2stage.f: LWMIN = MAX( 26*N, 5*N + LHTRD + LWTRD ),
 *                    LIWMIN = MAX( 1, 10*N )
 *   zheevr_2stage.f: LWMIN = N + LHTRD + LWTRD, LRWMIN = MAX( 1, 24*N ),
 *                    LIWMIN = MAX( 1, 10*N ) */
int gl_workspace_syevr(char prec, int two_stage, char jobz, lapack_int n,
                       lapack_int lwork, lapack_int lrwork,
                       lapack_int liwork)
{
    int cx = is_complex(prec);
    if (n < 0 || lwork == -1 || liwork == -1 || (cx && lrwork == -1))
        return 0;
    i64 nn = n, lwmin;
    i64 lrwmin = max2(1, 24 * nn), liwmin = max2(1, 10 * nn);
    if (!two_stage) {
        lwmin = cx ? max2(1, 2 * nn) : max2(1, 26 * nn);
    } else {
        i64 lhtrd, lwtrd;
        if (!trd_2stage(prec, jobz, n, &lhtrd, &lwtrd))
            return 0;
        lwmin = cx ? nn + lhtrd + lwtrd : max2(26 * nn, 5 * nn + lhtrd + lwtrd);
    }
    return lwork >= lwmin && liwork >= liwmin && (!cx || lrwork >= lrwmin);
}

/* ?syevx/?heevx (dsyevx.f: LWKMIN = 1 if N <= 1, else 8*N;
 *   zheevx.f: 1 if N <= 1, else 2*N; RWORK(7*N) and IWORK(5*N) are fixed).
 * ?syevx_2stage/?heevx_2stage (N <= 1: 1, ILAENV2STAGE not called; else
 *   dsyevx_2stage.f: LWMIN = MAX( 8*N, 3*N + LHTRD + LWTRD ),
 *   zheevx_2stage.f: LWMIN = N + LHTRD + LWTRD). */
int gl_workspace_syevx(char prec, int two_stage, char jobz, lapack_int n,
                       lapack_int lwork)
{
    if (n < 0 || lwork == -1)
        return 0;
    int cx = is_complex(prec);
    i64 nn = n, lwmin = 1;
    if (n > 1) {
        if (!two_stage) {
            lwmin = cx ? 2 * nn : 8 * nn;
        } else {
            i64 lhtrd, lwtrd;
            if (!trd_2stage(prec, jobz, n, &lhtrd, &lwtrd))
                return 0;
            lwmin = cx ? nn + lhtrd + lwtrd
                       : max2(8 * nn, 3 * nn + lhtrd + lwtrd);
        }
    }
    return lwork >= lwmin;
}

/* ?sbevd/?hbevd, JOBZ = 'N' (dsbevd.f, zhbevd.f; independent of KD):
 *   N <= 1:  LWMIN = LRWMIN = LIWMIN = 1
 *   dsbevd:  LWMIN = 2*N,                LIWMIN = 1
 *   zhbevd:  LWMIN = N,   LRWMIN = N,    LIWMIN = 1
 * (dsbevd's doc says "JOBZ = 'N' and N > 2" but the code applies 2*N from
 *  N = 2 on.) */
int gl_workspace_sbevd(int complex_, lapack_int n, lapack_int lwork,
                       lapack_int lrwork, lapack_int liwork)
{
    if (n < 0 || lwork == -1 || liwork == -1 || (complex_ && lrwork == -1))
        return 0;
    i64 lwmin = 1, lrwmin = 1, liwmin = 1;
    if (n > 1) {
        lwmin = complex_ ? (i64)n : 2 * (i64)n;
        lrwmin = n;
    }
    return lwork >= lwmin && liwork >= liwmin &&
           (!complex_ || lrwork >= lrwmin);
}

/* ?sytrd_2stage/?hetrd_2stage, VECT = 'N' (dsytrd_2stage.f, zhetrd_2stage.f,
 * 3.11: LHMIN = LHTRD -> LHOUS2 < LHMIN gives INFO = -10; LWMIN = LWTRD ->
 * LWORK < LWMIN gives INFO = -12; for every N, N = 0 included: 3.12 made
 * both 1 for N = 0).  With VECT = 'N', LHTRD = MAX( 1, 4*N ) (the doc's
 * "LHOUS2 = max(1, 4*n)"), but 3.11's IPARAM2STAGE adds IB for VECT = 'n'. */
int gl_workspace_sytrd_2stage(char prec, char vect, lapack_int n,
                              lapack_int lhous2, lapack_int lwork)
{
    if (n < 0 || lwork == -1 || lhous2 == -1)
        return 0;
    i64 lhtrd, lwtrd;
    if (!trd_2stage(prec, vect, n, &lhtrd, &lwtrd))
        return 0;
    return lhous2 >= lhtrd && lwork >= lwtrd;
}
