/* LAPACK's minimum workspace lengths, for every option of the one-stage
 * drivers and the values-only options of the _2stage ones; see
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

/* Beyond this N (or MIN(M,N)) a minimum with an N**2 term is given as
 * INT64_MAX: up to it, 5*N**2 and the rest fit in 64 bits. */
#define SQUARE_MAX (INT64_C(1) << 30)

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
static int real_fns(gl_real_fn *f, void *out[2])
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
            out[count++] = fn;
    }
    return count;
}

/* One answer of ILAENV or ILAENV2STAGE, called with INTEGERs of the real
 * LAPACK's width (an ILP64 one keeps the plain names on Debian). */
static i64 ask(void *fn, i64 ispec, const char *name, const char *opts,
               i64 n1, i64 n2, i64 n3, i64 n4, gl_strlen name_len,
               gl_strlen opts_len)
{
    if (gl_lapack_ilp64()) {
        typedef i64 wide_fn(const i64 *, const char *, const char *,
                            const i64 *, const i64 *, const i64 *,
                            const i64 *, gl_strlen, gl_strlen);
        return ((wide_fn *)fn)(&ispec, name, opts, &n1, &n2, &n3, &n4,
                               name_len, opts_len);
    }
    typedef lapack_int narrow_fn(const lapack_int *, const char *,
                                 const char *, const lapack_int *,
                                 const lapack_int *, const lapack_int *,
                                 const lapack_int *, gl_strlen, gl_strlen);
    const lapack_int args[5] = {(lapack_int)ispec, (lapack_int)n1,
                                (lapack_int)n2, (lapack_int)n3,
                                (lapack_int)n4};
    return ((narrow_fn *)fn)(&args[0], name, opts, &args[1], &args[2],
                             &args[3], &args[4], name_len, opts_len);
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
    void *fns[2];
    int count = real_fns(&ilaenv2stage, fns);
    if (count == 0)
        return 0;
    char name[] = "?SYTRD_2STAGE";
    name[0] = upper(prec);
    if (is_complex(prec))
        name[1] = 'H', name[2] = 'E';
    const gl_strlen name_len = sizeof name - 1;
    *lhtrd = *lwtrd = 0;
    for (int i = 0; i < count; i++) {
        i64 kd = ask(fns[i], 1, name, &opts, n, -1, -1, -1, name_len, 1);
        i64 ib = ask(fns[i], 2, name, &opts, n, kd, -1, -1, name_len, 1);
        i64 lh = ask(fns[i], 3, name, &opts, n, kd, ib, -1, name_len, 1);
        i64 lw = ask(fns[i], 4, name, &opts, n, kd, ib, -1, name_len, 1);
        if (lh < 0 || lw < 0)
            return 0;
        *lhtrd = max2(*lhtrd, lh);
        *lwtrd = max2(*lwtrd, lw);
    }
    return 1;
}

/* MNTHR = ILAENV( 6, 'xGESVD', JOBU // JOBVT, M, N, 0, 0 ) (dgesvd.f,
 * zgesvd.f; reference ILAENV: INT( REAL( MIN( M, N ) )*1.6E0 ), whatever
 * OPTS), with JOBU // JOBVT as the caller passed them; the larger over the
 * implementations found (a larger MNTHR selects the path with the larger
 * minimum).  -1 when no ilaenv_ is found. */
static i64 gesvd_mnthr(char prec, char jobu, char jobvt, lapack_int m,
                       lapack_int n)
{
    void *fns[2];
    int count = real_fns(&ilaenv, fns);
    char name[] = "?GESVD";
    name[0] = upper(prec);
    const char opts[2] = {jobu, jobvt};
    i64 mnthr = -1;
    for (int i = 0; i < count; i++)
        mnthr = max2(mnthr, ask(fns[i], 6, name, opts, m, n, 0, 0,
                                sizeof name - 1, 2));
    return mnthr;
}

/* 1 when c (upper-cased) is one of the characters of set. */
static int one_of(char c, const char *set)
{
    for (c = upper(c); *set; set++)
        if (c == *set)
            return 1;
    return 0;
}

/* JOBZ accepted by the one-stage drivers ('N' or 'V', either case, as
 * LSAME) and by the _2stage ones (only 'N': JOBZ = 'V' gives INFO = -1). */
static int jobz_ok(int two_stage, char jobz)
{
    return one_of(jobz, two_stage ? "N" : "NV");
}

/* ------------------------------------------------------------------------ */
/* The minimums                                                             */
/* ------------------------------------------------------------------------ */

/* ?gesvd (dgesvd.f / zgesvd.f 3.11, "Compute workspace"; the same since
 * 3.7.1 and in 3.12).  JOBU and JOBVT each 'A', 'S', 'O' or 'N' (LSAME:
 * either case), not both 'O'.  MINMN = 0:  MINWRK = 1.  Otherwise only one
 * path differs from the general minimum: the one for a long side much
 * longer than the short one (MAX(M,N) >= MNTHR) whose singular vectors are
 * not wanted (M >= N: JOBU = 'N', path 1; M < N: JOBVT = 'N', path 1t),
 * whatever the other job:
 *   dgesvd (BDSPAC = 5*MINMN):
 *     paths 1 / 1t:  MINWRK = MAX( 4*MINMN, BDSPAC )          = 5*MINMN
 *     every other path (2-9, 2t-9t with MAX(M,N) >= MNTHR, and 10 / 10t):
 *                    MINWRK = MAX( 3*MINMN + MAX(M,N), BDSPAC )
 *   zgesvd:  paths 1 / 1t:  MINWRK = 3*MINMN;  else 2*MINMN + MAX(M,N)
 *   (doc: LWORK >= MAX(1,3*MIN(M,N)+MAX(M,N),5*MIN(M,N)) and
 *    MAX(1,2*MIN(M,N)+MAX(M,N)): the general minimum, which the paths
 *    1 / 1t accept less than.)
 *   Without ilaenv_ the general minimum is used for every shape. */
int gl_minimum_gesvd(char prec, char jobu, char jobvt, int64_t m, int64_t n,
                     int64_t *lwork)
{
    if (m < 0 || n < 0)
        return 0;
    if (!one_of(jobu, "ASON") || !one_of(jobvt, "ASON") ||
        (upper(jobu) == 'O' && upper(jobvt) == 'O'))
        return 0;
    i64 mn = min2(m, n), mx = max2(m, n), minwrk = 1;
    if (mn > 0) {
        /* the job of the long side's singular vectors */
        char long_job = upper(m >= n ? jobu : jobvt);
        int path1 = 0;
        if (long_job == 'N') {
            i64 mnthr = gesvd_mnthr(prec, jobu, jobvt, m, n);
            path1 = mnthr >= 0 && mx >= mnthr;
        }
        if (is_complex(prec))
            minwrk = path1 ? 3 * mn : 2 * mn + mx;
        else
            minwrk = path1 ? 5 * mn : max2(3 * mn + mx, 5 * mn);
    }
    *lwork = minwrk;
    return 1;
}

int gl_workspace_gesvd(char prec, char jobu, char jobvt, int64_t m,
                       int64_t n, int64_t lwork)
{
    i64 minwrk;
    return lwork != -1 && gl_minimum_gesvd(prec, jobu, jobvt, m, n, &minwrk) &&
           lwork >= minwrk;
}

/* ?gesdd (dgesdd.f / zgesdd.f 3.11, "Compute workspace"; the same since
 * 3.7.1 and in 3.12).  JOBZ 'A', 'S', 'O' or 'N' (either case).
 * MINMN = 0:  MINWRK = 1.  The thresholds are constants in the code, not
 * ILAENV.  Below, mn = MIN(M,N), mx = MAX(M,N) (the code spells out M >= N
 * and M < N separately, with the roles of M and N swapped).
 *   dgesdd:  MNTHR = INT( MINMN*11.0D0 / 6.0D0 ),
 *            BDSPAC = 7*mn (JOBZ = 'N'), 3*mn*mn + 4*mn (otherwise);
 *     mx >= MNTHR (paths 1-4 / 1t-4t):
 *       'N':  BDSPAC + mn                        = 8*mn
 *       'O':  BDSPAC + 2*mn*mn + 3*mn
 *       'S':  BDSPAC + mn*mn + 3*mn
 *       'A':  mn*mn + MAX( 3*mn + BDSPAC, mn + mx )
 *     otherwise (paths 5 / 5t):
 *       'N', 'S', 'A':  3*mn + MAX( mx, BDSPAC )
 *       'O':            3*mn + MAX( mx, mn*mn + BDSPAC )
 *   zgesdd:  MNTHR1 = INT( MINMN*17.0D0 / 9.0D0 );
 *     mx >= MNTHR1 (paths 1-4 / 1t-4t):
 *       'N':  3*mn;  'O':  2*mn*mn + 3*mn;  'S':  mn*mn + 3*mn;
 *       'A':  mn*mn + MAX( 3*mn, mn + mx )
 *     otherwise (paths 5 and 6, both sides of MNTHR2, the same minimums):
 *       'N', 'S', 'A':  2*mn + mx;   'O':  2*mn + mx + mn*mn
 *   (The doc's minimums are not tight: "not tight minimums in all cases".)
 *   An mn*mn term with mn > SQUARE_MAX saturates the minimum at INT64_MAX
 *   (no 64-bit overflow; no caller has that much memory). */
int gl_minimum_gesdd(int complex_, char jobz, int64_t m, int64_t n,
                     int64_t *lwork)
{
    if (m < 0 || n < 0 || !one_of(jobz, "ASON"))
        return 0;
    char job = upper(jobz);
    i64 mn = min2(m, n), mx = max2(m, n), sq = mn * mn, minwrk = 1;
    /* which minimums have an mn*mn term */
    int path1 = mx >= (i64)((double)mn * (complex_ ? 17.0 / 9.0 : 11.0 / 6.0));
    if (mn > SQUARE_MAX && job != 'N' &&
        !(complex_ && !path1 && job != 'O')) {
        *lwork = INT64_MAX;
        return 1;
    }
    if (mn > 0) {
        if (complex_) {
            if (!path1)
                minwrk = 2 * mn + mx + (job == 'O' ? sq : 0);
            else if (job == 'N')
                minwrk = 3 * mn;
            else if (job == 'O')
                minwrk = 2 * sq + 3 * mn;
            else if (job == 'S')
                minwrk = sq + 3 * mn;
            else
                minwrk = sq + max2(3 * mn, mn + mx);
        } else {
            i64 bdspac = job == 'N' ? 7 * mn : 3 * sq + 4 * mn;
            if (path1) {
                if (job == 'N')
                    minwrk = bdspac + mn;
                else if (job == 'O')
                    minwrk = bdspac + 2 * sq + 3 * mn;
                else if (job == 'S')
                    minwrk = bdspac + sq + 3 * mn;
                else
                    minwrk = sq + max2(3 * mn + bdspac, mn + mx);
            } else {
                minwrk = 3 * mn + max2(mx, job == 'O' ? sq + bdspac : bdspac);
            }
        }
    }
    *lwork = minwrk;
    return 1;
}

int gl_workspace_gesdd(int complex_, char jobz, int64_t m, int64_t n,
                       int64_t lwork)
{
    i64 minwrk;
    return lwork != -1 && gl_minimum_gesdd(complex_, jobz, m, n, &minwrk) &&
           lwork >= minwrk;
}

/* ?syev/?heev, JOBZ 'N' or 'V' (dsyev.f: LWORK < MAX( 1, 3*N-1 ) -> INFO = -8;
 *   zheev.f: LWORK < MAX( 1, 2*N-1 ); the same for both JOBZ).
 * ?syev_2stage/?heev_2stage, JOBZ = 'N' only (dsyev_2stage.f:
 *   LWMIN = 2*N + LHTRD + LWTRD; zheev_2stage.f: LWMIN = N + LHTRD + LWTRD;
 *   for every N, N = 0 and 1 included: the code has no N <= 1 case although
 *   the doc says LWORK >= 1 when N <= 1). */
int gl_minimum_syev(char prec, int two_stage, char jobz, int64_t n,
                    int64_t *lwork)
{
    if (n < 0 || !jobz_ok(two_stage, jobz))
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
    *lwork = lwmin;
    return 1;
}

int gl_workspace_syev(char prec, int two_stage, char jobz, int64_t n,
                      int64_t lwork)
{
    i64 lwmin;
    return lwork != -1 && gl_minimum_syev(prec, two_stage, jobz, n, &lwmin) &&
           lwork >= lwmin;
}

/* ?syevd/?heevd (dsyevd.f, zheevd.f; code = doc):
 *   N <= 1:  LWMIN = LRWMIN = LIWMIN = 1
 *   JOBZ = 'N':
 *     dsyevd:  LWMIN = 2*N + 1,                      LIWMIN = 1
 *     zheevd:  LWMIN = N + 1,    LRWMIN = N,         LIWMIN = 1
 *   JOBZ = 'V':
 *     dsyevd:  LWMIN = 1 + 6*N + 2*N**2,             LIWMIN = 3 + 5*N
 *     zheevd:  LWMIN = 2*N + N**2,  LRWMIN = 1 + 5*N + 2*N**2,
 *              LIWMIN = 3 + 5*N
 * ?syevd_2stage/?heevd_2stage, JOBZ = 'N' only (dsyevd_2stage.f,
 * zheevd_2stage.f):
 *   N <= 1:  all 1 (ILAENV2STAGE is not called)
 *   dsyevd_2stage:  LWMIN = 2*N + 1 + LHTRD + LWTRD,  LIWMIN = 1
 *   zheevd_2stage:  LWMIN = N + 1 + LHTRD + LWTRD, LRWMIN = N, LIWMIN = 1
 * A minimum with N**2 saturates at INT64_MAX for N > SQUARE_MAX (no 64-bit
 * overflow). */
int gl_minimum_syevd(char prec, int two_stage, char jobz, int64_t n,
                     int64_t min[3])
{
    int cx = is_complex(prec);
    if (n < 0 || !jobz_ok(two_stage, jobz))
        return 0;
    i64 nn = n, lwmin = 1, lrwmin = 1, liwmin = 1;
    if (n > 1 && upper(jobz) == 'V') {
        lwmin = nn > SQUARE_MAX ? INT64_MAX
                : cx            ? 2 * nn + nn * nn
                                : 1 + 6 * nn + 2 * nn * nn;
        lrwmin = nn > SQUARE_MAX ? INT64_MAX : 1 + 5 * nn + 2 * nn * nn;
        liwmin = 3 + 5 * nn;
    } else if (n > 1) {
        lwmin = cx ? nn + 1 : 2 * nn + 1;
        lrwmin = nn;
        if (two_stage) {
            i64 lhtrd, lwtrd;
            if (!trd_2stage(prec, jobz, n, &lhtrd, &lwtrd))
                return 0;
            lwmin += lhtrd + lwtrd;
        }
    }
    min[0] = lwmin, min[1] = lrwmin, min[2] = liwmin;
    return 1;
}

int gl_workspace_syevd(char prec, int two_stage, char jobz, int64_t n,
                       int64_t lwork, int64_t lrwork,
                       int64_t liwork)
{
    int cx = is_complex(prec);
    i64 min[3];
    if (lwork == -1 || liwork == -1 || (cx && lrwork == -1) ||
        !gl_minimum_syevd(prec, two_stage, jobz, n, min))
        return 0;
    return lwork >= min[0] && liwork >= min[2] && (!cx || lrwork >= min[1]);
}

/* ?syevr/?heevr, JOBZ 'N' or 'V' (dsyevr.f: LWMIN = MAX( 1, 26*N ),
 *   LIWMIN = MAX( 1, 10*N ); zheevr.f: LWMIN = MAX( 1, 2*N ),
 *   LRWMIN = MAX( 1, 24*N ), LIWMIN = MAX( 1, 10*N ); whatever JOBZ and
 *   RANGE.  So dsyevr with N = 1 needs LWORK >= 26 and LIWORK >= 10 in 3.11,
 *   although it then only copies A(1,1); 3.12 lowered both to 1 for N <= 1.)
 * ?syevr_2stage/?heevr_2stage, JOBZ = 'N' only (for every N):
 *   dsyevr_2stage.f: LWMIN = MAX( 26*N, 5*N + LHTRD + LWTRD ),
 *                    LIWMIN = MAX( 1, 10*N )
 *   zheevr_2stage.f: LWMIN = N + LHTRD + LWTRD, LRWMIN = MAX( 1, 24*N ),
 *                    LIWMIN = MAX( 1, 10*N ) */
int gl_minimum_syevr(char prec, int two_stage, char jobz, int64_t n,
                     int64_t min[3])
{
    int cx = is_complex(prec);
    if (n < 0 || !jobz_ok(two_stage, jobz))
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
    min[0] = lwmin, min[1] = lrwmin, min[2] = liwmin;
    return 1;
}

int gl_workspace_syevr(char prec, int two_stage, char jobz, int64_t n,
                       int64_t lwork, int64_t lrwork,
                       int64_t liwork)
{
    int cx = is_complex(prec);
    i64 min[3];
    if (lwork == -1 || liwork == -1 || (cx && lrwork == -1) ||
        !gl_minimum_syevr(prec, two_stage, jobz, n, min))
        return 0;
    return lwork >= min[0] && liwork >= min[2] && (!cx || lrwork >= min[1]);
}

/* ?syevx/?heevx, JOBZ 'N' or 'V' (dsyevx.f: LWKMIN = 1 if N <= 1, else
 *   8*N; zheevx.f: 1 if N <= 1, else 2*N; whatever JOBZ and RANGE;
 *   RWORK(7*N) and IWORK(5*N) are fixed).
 * ?syevx_2stage/?heevx_2stage, JOBZ = 'N' only (N <= 1: 1, ILAENV2STAGE
 *   not called; else dsyevx_2stage.f: LWMIN = MAX( 8*N, 3*N + LHTRD + LWTRD ),
 *   zheevx_2stage.f: LWMIN = N + LHTRD + LWTRD). */
int gl_minimum_syevx(char prec, int two_stage, char jobz, int64_t n,
                     int64_t *lwork)
{
    if (n < 0 || !jobz_ok(two_stage, jobz))
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
    *lwork = lwmin;
    return 1;
}

int gl_workspace_syevx(char prec, int two_stage, char jobz, int64_t n,
                       int64_t lwork)
{
    i64 lwmin;
    return lwork != -1 &&
           gl_minimum_syevx(prec, two_stage, jobz, n, &lwmin) &&
           lwork >= lwmin;
}

/* ?sbevd/?hbevd (dsbevd.f, zhbevd.f; independent of KD):
 *   N <= 1:  LWMIN = LRWMIN = LIWMIN = 1
 *   JOBZ = 'N':
 *     dsbevd:  LWMIN = 2*N,                          LIWMIN = 1
 *     zhbevd:  LWMIN = N,       LRWMIN = N,          LIWMIN = 1
 *   JOBZ = 'V':
 *     dsbevd:  LWMIN = 1 + 5*N + 2*N**2,             LIWMIN = 3 + 5*N
 *     zhbevd:  LWMIN = 2*N**2,  LRWMIN = 1 + 5*N + 2*N**2,
 *              LIWMIN = 3 + 5*N
 * (dsbevd's doc says "JOBZ = 'N' and N > 2" but the code applies 2*N from
 *  N = 2 on.)  N > SQUARE_MAX saturates the N**2 minimums at INT64_MAX. */
int gl_minimum_sbevd(int complex_, char jobz, int64_t n, int64_t min[3])
{
    if (n < 0 || !jobz_ok(0, jobz))
        return 0;
    i64 nn = n, lwmin = 1, lrwmin = 1, liwmin = 1;
    if (n > 1 && upper(jobz) == 'V') {
        lwmin = nn > SQUARE_MAX ? INT64_MAX
                : complex_      ? 2 * nn * nn
                                : 1 + 5 * nn + 2 * nn * nn;
        lrwmin = nn > SQUARE_MAX ? INT64_MAX : 1 + 5 * nn + 2 * nn * nn;
        liwmin = 3 + 5 * nn;
    } else if (n > 1) {
        lwmin = complex_ ? nn : 2 * nn;
        lrwmin = nn;
    }
    min[0] = lwmin, min[1] = lrwmin, min[2] = liwmin;
    return 1;
}

int gl_workspace_sbevd(int complex_, char jobz, int64_t n,
                       int64_t lwork, int64_t lrwork, int64_t liwork)
{
    i64 min[3];
    if (lwork == -1 || liwork == -1 || (complex_ && lrwork == -1) ||
        !gl_minimum_sbevd(complex_, jobz, n, min))
        return 0;
    return lwork >= min[0] && liwork >= min[2] &&
           (!complex_ || lrwork >= min[1]);
}

/* ?sytrd_2stage/?hetrd_2stage, VECT = 'N' only: VECT = 'V' gives INFO = -1
 * (dsytrd_2stage.f, zhetrd_2stage.f, 3.11: LHMIN = LHTRD -> LHOUS2 < LHMIN
 * gives INFO = -10; LWMIN = LWTRD -> LWORK < LWMIN gives INFO = -12; for
 * every N, N = 0 included: 3.12 made both 1 for N = 0).  With VECT = 'N',
 * LHTRD = MAX( 1, 4*N ) (the doc's "LHOUS2 = max(1, 4*n)"), but 3.11's
 * IPARAM2STAGE adds IB for VECT = 'n'. */
int gl_minimum_sytrd_2stage(char prec, char vect, int64_t n, int64_t min[2])
{
    if (n < 0 || upper(vect) != 'N')
        return 0;
    return trd_2stage(prec, vect, n, &min[0], &min[1]);
}

int gl_workspace_sytrd_2stage(char prec, char vect, int64_t n,
                              int64_t lhous2, int64_t lwork)
{
    i64 min[2];
    return lwork != -1 && lhous2 != -1 &&
           gl_minimum_sytrd_2stage(prec, vect, n, min) && lhous2 >= min[0] &&
           lwork >= min[1];
}

int64_t gl_gesvd_lp64_need(int64_t m, int64_t n, int64_t lda)
{
    i64 mn = min2(m, n), mx = max2(m, n), ld = max2(lda, mx);
    if (mn > SQUARE_MAX || (mn > 0 && ld > INT64_MAX / 4 / mn))
        return INT64_MAX;
    return ld * mn + mn * mn + 5 * mn + mx;
}
