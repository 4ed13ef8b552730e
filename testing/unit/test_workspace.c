/* Unit test: lapack_api/workspace.c gives exactly LAPACK's minimum workspace
 * lengths, for every option: ?gesvd every valid JOBU/JOBVT pair, ?gesdd every
 * JOBZ, the one-stage symmetric/Hermitian drivers and ?sbevd/?hbevd JOBZ
 * 'N' and 'V' (either case), the _2stage forms and ?sytrd_2stage JOBZ
 * (VECT) 'N'/'n' (and 'V'/'v' refused by both gl_workspace_* and LAPACK).
 *
 * For every routine, precision (s d c z), option variant and size, and for
 * each workspace argument in turn (the others generous), L = the smallest
 * value gl_workspace_* accepts is found by bisection; then the real routine
 * must accept L (INFO >= 0, no XERBLA call) and reject L-1 with INFO = minus
 * the argument's position (one XERBLA call).  So our minimum is neither too
 * low (we would run a call LAPACK rejects) nor too high (we would forward a
 * call we could serve).  None of our minimums is deliberately above LAPACK's.
 *
 * The real routines are reference LAPACK's (dlopen of the path below, not the
 * liblapack.so.3 alternative, which is OpenBLAS on Debian by default), and,
 * when present, OpenBLAS's bundled LAPACK as a second group of checks.  The
 * xerbla_ defined here replaces LAPACK's (which would print and STOP). */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workspace.h"

#define REF_LAPACK "/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3"
#define OPENBLAS_LAPACK "/usr/lib/x86_64-linux-gnu/openblas-pthread/liblapack.so.3"

static int xerbla_calls, xerbla_info;
void xerbla_(const char *name, const int *info, size_t len)
{
    (void)name, (void)len;
    xerbla_calls++;
    xerbla_info = *info;
}

typedef void (*fortran_fn)();   /* every argument by reference */
#define L1 ((size_t)1)

/* Buffers big enough for every call (n, m <= 100; U, VT and Z up to
 * 100 x 100); also the "generous" workspace length (above every minimum at
 * these sizes: the largest, dgesdd JOBZ = 'O' with MIN(M,N) = 100, is
 * 50700). */
enum { BIG = 1 << 17 };
static double _Complex a[BIG], work[BIG], z[BIG], u[BIG], vt[BIG];
static double rwork[8 * BIG], w[BIG], e[BIG], hous2[BIG];
static double _Complex tau[BIG];
static int iwork[8 * BIG], isuppz[BIG], ifail[BIG];

enum { F_GESVD, F_GESDD, F_SYEV, F_SYEVD, F_SYEVR, F_SYEVX, F_SBEVD,
       F_SYTRD2, F_COUNT };
/* Workspace arguments (indices into ws[]). */
enum { W_LWORK, W_LRWORK, W_LIWORK, W_LHOUS2, W_COUNT };
static const char *const ws_names[W_COUNT] = {"lwork", "lrwork", "liwork",
                                              "lhous2"};

typedef struct {
    int fam;
    char prec;       /* s d c z */
    int two_stage;
    char jobz;       /* JOBZ (VECT): passed as is */
    char jobu, jobvt;   /* ?gesvd */
    char range;      /* A V I (syevr, syevx) */
    int m, n, kd;
} tcase;

static int cplx(char prec) { return prec == 'c' || prec == 'z'; }

/* INFO position of workspace argument k, 0 when the routine has none. */
static int ws_pos(const tcase *t, int k)
{
    int c = cplx(t->prec);
    switch (t->fam) {
    case F_GESVD: return k == W_LWORK ? 13 : 0;
    case F_GESDD: return k == W_LWORK ? 12 : 0;
    case F_SYEV: return k == W_LWORK ? 8 : 0;
    case F_SYEVD:
        if (k == W_LWORK) return 8;
        if (k == W_LRWORK) return c ? 10 : 0;
        if (k == W_LIWORK) return c ? 12 : 10;
        return 0;
    case F_SYEVR:
        if (k == W_LWORK) return 18;
        if (k == W_LRWORK) return c ? 20 : 0;
        if (k == W_LIWORK) return c ? 22 : 20;
        return 0;
    case F_SYEVX: return k == W_LWORK ? 17 : 0;
    case F_SBEVD:
        if (k == W_LWORK) return 11;
        if (k == W_LRWORK) return c ? 13 : 0;
        if (k == W_LIWORK) return c ? 15 : 13;
        return 0;
    case F_SYTRD2:
        if (k == W_LHOUS2) return 10;
        if (k == W_LWORK) return 12;
        return 0;
    }
    return 0;
}

static int ours(const tcase *t, const int ws[W_COUNT])
{
    int lw = ws[W_LWORK], lrw = ws[W_LRWORK], liw = ws[W_LIWORK];
    switch (t->fam) {
    case F_GESVD:
        return gl_workspace_gesvd(t->prec, t->jobu, t->jobvt, t->m, t->n, lw);
    case F_GESDD:
        return gl_workspace_gesdd(cplx(t->prec), t->jobz, t->m, t->n, lw);
    case F_SYEV:
        return gl_workspace_syev(t->prec, t->two_stage, t->jobz, t->n, lw);
    case F_SYEVD:
        return gl_workspace_syevd(t->prec, t->two_stage, t->jobz, t->n, lw,
                                  lrw, liw);
    case F_SYEVR:
        return gl_workspace_syevr(t->prec, t->two_stage, t->jobz, t->n, lw,
                                  lrw, liw);
    case F_SYEVX:
        return gl_workspace_syevx(t->prec, t->two_stage, t->jobz, t->n, lw);
    case F_SBEVD:
        return gl_workspace_sbevd(cplx(t->prec), t->jobz, t->n, lw, lrw,
                                  liw);
    case F_SYTRD2:
        return gl_workspace_sytrd_2stage(t->prec, t->jobz, t->n,
                                         ws[W_LHOUS2], lw);
    }
    return 0;
}

static void routine_name(const tcase *t, char *out, size_t size)
{
    static const char *const real[F_COUNT] = {
        "gesvd", "gesdd", "syev", "syevd", "syevr", "syevx", "sbevd",
        "sytrd_2stage"};
    static const char *const herm[F_COUNT] = {
        "gesvd", "gesdd", "heev", "heevd", "heevr", "heevx", "hbevd",
        "hetrd_2stage"};
    snprintf(out, size, "%c%s%s", t->prec,
             (cplx(t->prec) ? herm : real)[t->fam],
             t->two_stage && t->fam != F_SYTRD2 ? "_2stage" : "");
}

/* Calls the real routine with workspace lengths ws; returns INFO. */
static int call_real(void *lib, const tcase *t, const int ws[W_COUNT])
{
    char name[40];
    routine_name(t, name, sizeof name);
    strcat(name, "_");
    fortran_fn f = (fortran_fn)dlsym(lib, name);
    if (!f)
        return 1000;   /* reported by the caller */

    int c = cplx(t->prec), info = 12345, mout = 0;
    int m = t->m, n = t->n, kd = t->kd;
    int lda = m > n ? m : n, ldab = t->kd + 1;
    /* leading dimensions valid for every job: LDU >= M, LDVT >= N,
     * LDZ >= N */
    int ldu = m > 1 ? m : 1, ldvt = n > 1 ? n : 1, ldz = n > 1 ? n : 1;
    const int *lw = &ws[W_LWORK], *lrw = &ws[W_LRWORK], *liw = &ws[W_LIWORK];
    char uplo = 'L', range = t->range;
    const char *jobz = &t->jobz, *jobu = &t->jobu, *jobvt = &t->jobvt;
    if (lda < 1)
        lda = 1;
    double vl_d = -1.0, vu_d = 1.0, abstol_d = 0.0;
    float vl_s = -1.0f, vu_s = 1.0f, abstol_s = 0.0f;
    int single = t->prec == 's' || t->prec == 'c';
    void *vl = single ? (void *)&vl_s : (void *)&vl_d;
    void *vu = single ? (void *)&vu_s : (void *)&vu_d;
    void *abstol = single ? (void *)&abstol_s : (void *)&abstol_d;
    int il = 1, iu = n;

    memset(a, 0, sizeof a);
    xerbla_calls = 0;
    switch (t->fam) {
    case F_GESVD:
        if (!c)
            f(jobu, jobvt, &m, &n, a, &lda, w, u, &ldu, vt, &ldvt, work, lw,
              &info, L1, L1);
        else
            f(jobu, jobvt, &m, &n, a, &lda, w, u, &ldu, vt, &ldvt, work, lw,
              rwork, &info, L1, L1);
        break;
    case F_GESDD:
        if (!c)
            f(jobz, &m, &n, a, &lda, w, u, &ldu, vt, &ldvt, work, lw, iwork,
              &info, L1);
        else
            f(jobz, &m, &n, a, &lda, w, u, &ldu, vt, &ldvt, work, lw, rwork,
              iwork, &info, L1);
        break;
    case F_SYEV:
        if (!c)
            f(jobz, &uplo, &n, a, &lda, w, work, lw, &info, L1, L1);
        else
            f(jobz, &uplo, &n, a, &lda, w, work, lw, rwork, &info, L1, L1);
        break;
    case F_SYEVD:
        if (!c)
            f(jobz, &uplo, &n, a, &lda, w, work, lw, iwork, liw, &info, L1,
              L1);
        else
            f(jobz, &uplo, &n, a, &lda, w, work, lw, rwork, lrw, iwork, liw,
              &info, L1, L1);
        break;
    case F_SYEVR:
        if (!c)
            f(jobz, &range, &uplo, &n, a, &lda, vl, vu, &il, &iu, abstol,
              &mout, w, z, &ldz, isuppz, work, lw, iwork, liw, &info, L1, L1,
              L1);
        else
            f(jobz, &range, &uplo, &n, a, &lda, vl, vu, &il, &iu, abstol,
              &mout, w, z, &ldz, isuppz, work, lw, rwork, lrw, iwork, liw,
              &info, L1, L1, L1);
        break;
    case F_SYEVX:
        if (!c)
            f(jobz, &range, &uplo, &n, a, &lda, vl, vu, &il, &iu, abstol,
              &mout, w, z, &ldz, work, lw, iwork, ifail, &info, L1, L1, L1);
        else
            f(jobz, &range, &uplo, &n, a, &lda, vl, vu, &il, &iu, abstol,
              &mout, w, z, &ldz, work, lw, rwork, iwork, ifail, &info, L1, L1,
              L1);
        break;
    case F_SBEVD:
        if (!c)
            f(jobz, &uplo, &n, &kd, a, &ldab, w, z, &ldz, work, lw, iwork, liw,
              &info, L1, L1);
        else
            f(jobz, &uplo, &n, &kd, a, &ldab, w, z, &ldz, work, lw, rwork,
              lrw, iwork, liw, &info, L1, L1);
        break;
    case F_SYTRD2:
        f(jobz, &uplo, &n, a, &lda, w, e, tau, hous2, &ws[W_LHOUS2], work, lw,
          &info, L1, L1);
        break;
    }
    return info;
}

/* ------------------------------------------------------------------------ */

static int failures_in_group, checks_in_group, cases_in_group;

static void describe(const tcase *t, char *out, size_t size)
{
    char name[40];
    routine_name(t, name, sizeof name);
    int k = t->fam == F_GESVD
                ? snprintf(out, size, "%s jobu=%c jobvt=%c", name, t->jobu,
                           t->jobvt)
                : snprintf(out, size, "%s jobz=%c", name, t->jobz);
    if (t->fam == F_SYEVR || t->fam == F_SYEVX)
        k += snprintf(out + k, size - k, " range=%c", t->range);
    if (t->fam == F_GESVD || t->fam == F_GESDD)
        k += snprintf(out + k, size - k, " m=%d", t->m);
    k += snprintf(out + k, size - k, " n=%d", t->n);
    if (t->fam == F_SBEVD)
        snprintf(out + k, size - k, " kd=%d", t->kd);
}

static void fail(const tcase *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fail(const tcase *t, const char *fmt, ...)
{
    char d[160], msg[200];
    failures_in_group++;
    if (failures_in_group > 5)
        return;
    describe(t, d, sizeof d);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("# %s: %s\n", d, msg);
}

/* One case: every workspace argument of the routine in turn. */
static void check_case(void *lib, const tcase *t)
{
    cases_in_group++;
    for (int k = 0; k < W_COUNT; k++) {
        int pos = ws_pos(t, k);
        if (!pos)
            continue;
        int ws[W_COUNT] = {BIG, BIG, BIG, BIG};
        checks_in_group++;
        if (!ours(t, ws)) {
            fail(t, "generous %s=%d refused by gl_workspace", ws_names[k], BIG);
            continue;
        }
        /* a query is never accepted */
        ws[k] = -1;
        if (ours(t, ws))
            fail(t, "%s=-1 (query) accepted by gl_workspace", ws_names[k]);
        /* smallest accepted value, by bisection over [0, BIG] */
        int lo = -1, hi = BIG;   /* ours(lo) == 0 (-1: query), ours(hi) == 1 */
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            ws[k] = mid;
            if (ours(t, ws))
                hi = mid;
            else
                lo = mid;
        }
        int L = hi;
        ws[k] = L;
        int info = call_real(lib, t, ws);
        if (info == 1000) {
            fail(t, "routine not found in the real LAPACK");
            continue;
        }
        if (info < 0 || xerbla_calls)
            fail(t, "real LAPACK rejects our minimum %s=%d: info=%d",
                 ws_names[k], L, info);
        if (L >= 1) {
            ws[k] = L - 1;
            info = call_real(lib, t, ws);
            if (info != -pos || xerbla_calls != 1 || xerbla_info != pos)
                fail(t, "real LAPACK accepts %s=L-1=%d (ours too high): info=%d",
                     ws_names[k], L - 1, info);
        }
    }
}

/* An option the real routine rejects whatever the workspace (JOBZ = 'V' in
 * the _2stage forms, VECT = 'V' in ?sytrd_2stage): gl_workspace_* must
 * refuse it even with generous lengths, and LAPACK must say INFO = -1. */
static void check_refused(void *lib, const tcase *t)
{
    int ws[W_COUNT] = {BIG, BIG, BIG, BIG};
    cases_in_group++;
    checks_in_group++;
    if (ours(t, ws))
        fail(t, "generous workspace accepted by gl_workspace although the "
                "option is invalid");
    int info = call_real(lib, t, ws);
    if (info == 1000)
        fail(t, "routine not found in the real LAPACK");
    else if (info != -1 || xerbla_calls != 1)
        fail(t, "real LAPACK accepts the option: info=%d", info);
}

static void group_begin(void)
{
    failures_in_group = checks_in_group = cases_in_group = 0;
}

static void group_end(const char *lib_tag, const char *name)
{
    if (failures_in_group)
        printf("FAIL unit/workspace/%s%s: %d of %d checks failed\n", name,
               lib_tag, failures_in_group, checks_in_group);
    else
        printf("PASS unit/workspace/%s%s (%d cases, %d workspace arguments)\n",
               name, lib_tag, cases_in_group, checks_in_group);
    fflush(stdout);
}

static const char *group_name(char prec, int fam, int two_stage, char *out,
                              size_t size)
{
    tcase t = {.fam = fam, .prec = prec, .two_stage = two_stage};
    routine_name(&t, out, size);
    return out;
}

static const int sizes[] = {0, 1, 2, 3, 5, 17, 64, 100};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* (M, N) with M >= N on both sides of the SVD paths' crossovers (each is
 * also tested transposed): ?gesvd MNTHR = INT(1.6*N) (N = 5: 8, N = 10: 16,
 * N = 62: 99), dgesdd INT(N*11/6) (N = 6: 11, N = 54: 99), zgesdd
 * MNTHR1 = INT(N*17/9) (N = 9: 17, N = 45: 85) and MNTHR2 = INT(N*5/3)
 * (N = 9: 15). */
static const int crossovers[][2] = {
    {8, 5},   {7, 5},   {16, 10}, {15, 10}, {99, 62}, {98, 62},
    {11, 6},  {10, 6},  {99, 54}, {98, 54}, {17, 9},  {16, 9},
    {15, 9},  {14, 9},  {85, 45}, {84, 45}};
#define NCROSS ((int)(sizeof crossovers / sizeof crossovers[0]))

/* Every (M, N) pair of the sizes, then the crossover shapes both ways. */
static int svd_shape(int i, int *m, int *n)
{
    if (i < NSIZES * NSIZES) {
        *m = sizes[i / NSIZES];
        *n = sizes[i % NSIZES];
        return 1;
    }
    i -= NSIZES * NSIZES;
    if (i >= 2 * NCROSS)
        return 0;
    *m = crossovers[i / 2][i % 2];
    *n = crossovers[i / 2][1 - i % 2];
    return 1;
}

/* ?gesvd job pairs: every valid upper-case pair, and some lower-case. */
static const char *const gesvd_lower[] = {"nn", "na", "sn", "on", "no", "as",
                                          "so", "nO", "Sn"};
#define NLOWER ((int)(sizeof gesvd_lower / sizeof gesvd_lower[0]))

static void run_all(void *lib, const char *lib_tag)
{
    static const char precs[] = "sdcz", jobs[] = "ASON";
    char gname[64];
    int m, n;
    for (const char *p = precs; *p; p++) {
        /* ?gesvd: every JOBU, JOBVT; every shape */
        group_begin();
        for (int q = 0; q < 16 + NLOWER; q++) {
            char ju = q < 16 ? jobs[q / 4] : gesvd_lower[q - 16][0];
            char jv = q < 16 ? jobs[q % 4] : gesvd_lower[q - 16][1];
            if (ju == 'O' && jv == 'O')
                continue;   /* invalid (known values) */
            for (int i = 0; svd_shape(i, &m, &n); i++) {
                tcase t = {.fam = F_GESVD, .prec = *p, .jobu = ju,
                           .jobvt = jv, .m = m, .n = n};
                check_case(lib, &t);
            }
        }
        group_end(lib_tag, group_name(*p, F_GESVD, 0, gname, sizeof gname));
        /* ?gesdd: every JOBZ (both cases); every shape */
        group_begin();
        for (const char *jz = "ASONason"; *jz; jz++)
            for (int i = 0; svd_shape(i, &m, &n); i++) {
                tcase t = {.fam = F_GESDD, .prec = *p, .jobz = *jz, .m = m,
                           .n = n};
                check_case(lib, &t);
            }
        group_end(lib_tag, group_name(*p, F_GESDD, 0, gname, sizeof gname));
        /* symmetric / Hermitian drivers: one stage JOBZ 'N'/'n'/'V'/'v';
         * two stage 'N'/'n', and 'V'/'v' refused */
        for (int fam = F_SYEV; fam <= F_SYEVX; fam++)
            for (int two = 0; two < 2; two++) {
                group_begin();
                const char *ranges = fam == F_SYEVR || fam == F_SYEVX ? "AVI" : "A";
                for (const char *jz = "NnVv"; *jz; jz++)
                    for (const char *r = ranges; *r; r++)
                        for (int i = 0; i < NSIZES; i++) {
                            tcase t = {.fam = fam, .prec = *p, .two_stage = two,
                                       .jobz = *jz, .range = *r, .n = sizes[i]};
                            if (two && (*jz == 'V' || *jz == 'v'))
                                check_refused(lib, &t);
                            else
                                check_case(lib, &t);
                        }
                group_end(lib_tag, group_name(*p, fam, two, gname, sizeof gname));
            }
        /* band divide and conquer, KD 0, 1, 3, N-1; JOBZ 'N'/'n'/'V'/'v' */
        group_begin();
        for (const char *jz = "NnVv"; *jz; jz++)
            for (int i = 0; i < NSIZES; i++) {
                int n = sizes[i], kds[] = {0, 1, 3, n - 1};
                for (int q = 0; q < 4; q++) {
                    if (kds[q] < 0 || (q == 3 && (n - 1 == 0 || n - 1 == 1 || n - 1 == 3)))
                        continue;   /* negative or already tested */
                    tcase t = {.fam = F_SBEVD, .prec = *p, .jobz = *jz,
                               .n = n, .kd = kds[q]};
                    check_case(lib, &t);
                }
            }
        group_end(lib_tag, group_name(*p, F_SBEVD, 0, gname, sizeof gname));
        /* ?sytrd_2stage, VECT 'N'/'n'; 'V'/'v' refused */
        group_begin();
        for (const char *jz = "NnVv"; *jz; jz++)
            for (int i = 0; i < NSIZES; i++) {
                tcase t = {.fam = F_SYTRD2, .prec = *p, .two_stage = 1,
                           .jobz = *jz, .n = sizes[i]};
                if (*jz == 'V' || *jz == 'v')
                    check_refused(lib, &t);
                else
                    check_case(lib, &t);
            }
        group_end(lib_tag, group_name(*p, F_SYTRD2, 1, gname, sizeof gname));
    }
}

/* Fixed values, independent of the real LAPACK: the rules quoted in
 * workspace.c for a few sizes (guards the bisection against a
 * gl_workspace_* that accepts everything or nothing). */
static void check_known_values(void)
{
    int bad = 0;
#define EXPECT(cond)                                                          \
    do {                                                                      \
        if (!(cond)) {                                                        \
            printf("# known value: %s\n", #cond);                             \
            bad++;                                                            \
        }                                                                     \
    } while (0)
#define SDD(cx, j, m, n, l) \
    (gl_workspace_gesdd(cx, j, m, n, l) && !gl_workspace_gesdd(cx, j, m, n, (l) - 1))
#define SVD(p, ju, jv, m, n, l)                                               \
    (gl_workspace_gesvd(p, ju, jv, m, n, l) &&                                \
     !gl_workspace_gesvd(p, ju, jv, m, n, (l) - 1))
    /* dgesdd JOBZ='N': 10*N when M < 11N/6, else 8*N */
    EXPECT(SDD(0, 'N', 10, 10, 100));
    EXPECT(SDD(0, 'N', 100, 10, 80));
    EXPECT(SDD(1, 'N', 10, 10, 30));
    EXPECT(SDD(0, 'N', 0, 5, 1));
    /* dgesdd with vectors, N = 10: BDSPAC = 3N^2 + 4N = 340 */
    EXPECT(SDD(0, 'O', 100, 10, 340 + 200 + 30));   /* path 2 */
    EXPECT(SDD(0, 'S', 100, 10, 340 + 100 + 30));   /* path 3 */
    EXPECT(SDD(0, 'a', 100, 10, 100 + 370));        /* path 4 */
    EXPECT(SDD(0, 'O', 10, 12, 30 + 440));          /* path 5t, 'O' */
    EXPECT(SDD(0, 'S', 12, 10, 30 + 340));          /* path 5, 'S' */
    /* zgesdd with vectors, N = 10 */
    EXPECT(SDD(1, 'O', 10, 100, 230));              /* path 2t */
    EXPECT(SDD(1, 'A', 100, 10, 100 + 110));        /* path 4 */
    EXPECT(SDD(1, 'O', 12, 10, 32 + 100));          /* path 5 */
    EXPECT(SDD(1, 's', 10, 12, 32));                /* path 5t */
    /* dgesvd: 5*N on path 1 (M >= 1.6N, JOBU = 'N'), else MAX(3N+M, 5N) */
    EXPECT(SVD('d', 'N', 'N', 100, 10, 50));
    EXPECT(SVD('d', 'N', 'A', 100, 10, 50));
    EXPECT(SVD('d', 'N', 'N', 12, 10, 50));
    EXPECT(SVD('z', 'N', 'N', 12, 10, 32));
    EXPECT(SVD('d', 'S', 'N', 100, 10, 130));   /* path 4: general minimum */
    EXPECT(SVD('d', 'n', 'O', 10, 100, 130));   /* path 1t needs JOBVT='N' */
    EXPECT(SVD('d', 'A', 'n', 10, 100, 50));    /* path 1t */
    EXPECT(SVD('z', 'O', 'N', 10, 100, 30));    /* path 1t */
    EXPECT(SVD('z', 'O', 'S', 100, 10, 120));
    /* invalid jobs: refused whatever LWORK */
    EXPECT(!gl_workspace_gesvd('d', 'O', 'o', 10, 10, BIG));
    EXPECT(!gl_workspace_gesvd('d', 'X', 'N', 10, 10, BIG));
    EXPECT(!gl_workspace_gesvd('d', 'N', 'V', 10, 10, BIG));
    EXPECT(!gl_workspace_gesdd(0, 'V', 10, 10, BIG));
    EXPECT(!gl_workspace_syev('d', 0, 'X', 5, BIG));
    EXPECT(!gl_workspace_sbevd(1, 'A', 5, BIG, BIG, BIG));
    /* JOBZ = 'V' in the _2stage forms and VECT = 'V' in ?sytrd_2stage */
    EXPECT(!gl_workspace_syev('d', 1, 'V', 5, BIG));
    EXPECT(!gl_workspace_syevd('z', 1, 'v', 5, BIG, BIG, BIG));
    EXPECT(!gl_workspace_syevr('s', 1, 'V', 5, BIG, BIG, BIG));
    EXPECT(!gl_workspace_syevx('c', 1, 'V', 5, BIG));
    EXPECT(!gl_workspace_sytrd_2stage('d', 'V', 5, BIG, BIG));
    /* ?syevd / ?sbevd JOBZ = 'V', N = 10 */
    EXPECT(gl_workspace_syevd('d', 0, 'V', 10, 261, 0, 53) &&
           !gl_workspace_syevd('d', 0, 'V', 10, 260, 0, 53) &&
           !gl_workspace_syevd('d', 0, 'V', 10, 261, 0, 52));
    EXPECT(gl_workspace_syevd('z', 0, 'v', 10, 120, 251, 53) &&
           !gl_workspace_syevd('z', 0, 'v', 10, 119, 251, 53) &&
           !gl_workspace_syevd('z', 0, 'v', 10, 120, 250, 53));
    EXPECT(gl_workspace_sbevd(0, 'V', 10, 251, 0, 53) &&
           !gl_workspace_sbevd(0, 'V', 10, 250, 0, 53));
    EXPECT(gl_workspace_sbevd(1, 'V', 10, 200, 251, 53) &&
           !gl_workspace_sbevd(1, 'V', 10, 199, 251, 53));
    EXPECT(gl_workspace_sbevd(1, 'V', 1, 1, 1, 1));
    /* N^2 terms beyond any INTEGER LWORK: refused, no overflow */
    EXPECT(!gl_workspace_syevd('d', 0, 'V', 2147483647, 2147483647, 0,
                               2147483647));
    EXPECT(!gl_workspace_gesdd(0, 'A', 2147483647, 2147483647, 2147483647));
    EXPECT(!gl_workspace_sbevd(1, 'V', 100000, 2147483647, 2147483647,
                               2147483647));
#undef SDD
#undef SVD
    /* dsyevr N = 1: 26 and 10 (LAPACK 3.11) */
    EXPECT(gl_workspace_syevr('d', 0, 'N', 1, 26, 0, 10) &&
           !gl_workspace_syevr('d', 0, 'N', 1, 25, 0, 10) &&
           !gl_workspace_syevr('d', 0, 'N', 1, 26, 0, 9));
    /* ?syevd / ?sbevd N <= 1: 1 */
    EXPECT(gl_workspace_syevd('z', 0, 'N', 1, 1, 1, 1) &&
           !gl_workspace_syevd('z', 0, 'N', 1, 1, 0, 1));
    EXPECT(gl_workspace_sbevd(0, 'N', 1, 1, 0, 1) &&
           !gl_workspace_sbevd(0, 'N', 1, 0, 0, 1));
    EXPECT(gl_workspace_sbevd(0, 'N', 5, 10, 0, 1) &&
           !gl_workspace_sbevd(0, 'N', 5, 9, 0, 1));
    /* real precisions ignore LRWORK, complex ones check it */
    EXPECT(gl_workspace_syevd('d', 0, 'N', 5, 11, -1, 1));
    EXPECT(!gl_workspace_syevd('c', 0, 'N', 5, 6, -1, 1));
    /* queries and negative sizes */
    EXPECT(!gl_workspace_syev('d', 0, 'N', 5, -1));
    EXPECT(!gl_workspace_sytrd_2stage('d', 'N', 5, -1, BIG));
    EXPECT(!gl_workspace_syev('d', 0, 'N', -1, BIG));
    /* 64-bit arithmetic: 26*N overflows INTEGER, we forward */
    EXPECT(!gl_workspace_syevr('d', 0, 'N', 100000000, 2147483647, 0, 2147483647));
    if (bad)
        printf("FAIL unit/workspace/known_values: %d wrong\n", bad);
    else
        printf("PASS unit/workspace/known_values\n");
#undef EXPECT
}

int main(void)
{
    /* Our 2-stage minimums call the real ilaenv2stage_ (config is read on
     * first use): make the forwarding target the reference LAPACK too. */
    setenv("GPULAPACK_LAPACK", REF_LAPACK, 1);
    check_known_values();

    void *ref = dlopen(REF_LAPACK, RTLD_NOW | RTLD_LOCAL);
    if (!ref) {
        printf("FAIL unit/workspace: cannot open %s: %s\n", REF_LAPACK, dlerror());
        return 0;
    }
    run_all(ref, "");

    void *openblas = dlopen(OPENBLAS_LAPACK, RTLD_NOW | RTLD_LOCAL);
    if (openblas)
        run_all(openblas, "@openblas");
    else
        printf("# %s not installed: OpenBLAS checks skipped\n", OPENBLAS_LAPACK);
    return 0;
}
