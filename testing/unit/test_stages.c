/* Unit test of the reduction stages, one precision per binary: this file is
 * a template compiled once per precision (-DGL_PRECISION=1..4), giving
 * build/testing/test_stages_{s,d,c,z}.  It calls the library's internal
 * per-precision functions (gl_<p>_*, present in lib/libgpulapack.a) on the
 * host operation table and compares with the reference LAPACK
 * (?gesvd / ?syev / ?heev of REF_LAPACK, opened with dlopen):
 *
 *   ge2gb       the upper band of half-width b of the result (rows < n) has
 *               the singular values of the original m x n A (m = n, m > n);
 *   gb2bd       packed upper band -> bidiagonal: every stored element but
 *               the diagonal and first superdiagonal exactly zero, values
 *               kept; tile widths tw 1, 3, b-1;
 *   gb_chase    one pass b -> c (1 < c < b): exactly zero outside the
 *               c-band (above and below), values kept; storage of a band
 *               that started wider (ldband = 3*b0+1, b0 > b) too;
 *   sy2sb       lower band of the result has the eigenvalues of A (the
 *               strict upper triangle of the input is NaN: never read);
 *   sb_chase    packed lower band (ldband 2b+1 and more) -> tridiagonal:
 *               exactly zero outside diagonal and first subdiagonal, real
 *               diagonal (imaginary part exactly 0), eigenvalues kept;
 *   pack_band   layout of ops.h, everything else of the storage zeroed;
 *   gb_bidiag,  LAPACK band storage (KL > 0, m != n, KU/KD 0, 1, >= n;
 *   sb_tridiag  'U' and 'L', sigma != 1): values kept; the elements of AB
 *               that LAPACK leaves unreferenced are NaN (gb_bidiag: NaN
 *               or zero, alternately);
 *   degenerate  zero, identity, rank-1 and a zero column in the middle of
 *               the band, through every stage: no NaN/Inf anywhere, values
 *               equal to the reference and to the known exact ones.
 *
 * Values criterion: max_i |x_i - ref_i| <= THRESH * n * eps * max_i |ref_i|.
 * Each stage is a product of unitary transformations applied in floating
 * point, so its result is the exact reduction of A + E with
 * ||E||_2 <= c(n) eps ||A||_2, c(n) a low-degree polynomial that in the
 * analysis of a sequence of Householder reflections (Higham, Thm 19.4) is
 * linear in the number of reflections touching an element, i.e. O(n).  By
 * Weyl's inequality (singular values, Hermitian eigenvalues) every value
 * moves by at most ||E||_2, and ||A||_2 = max |ref_i|.  The reference's own
 * error is of the same kind, so the ratio of a correct kernel stays O(1)
 * (worst seen over 24 seeded runs of all four precisions: 1.6):
 * THRESH = 10, below LAPACK's own test thresholds (20..50) for similar
 * n*ulp-scaled ratios.  A wrong reflector, a missed update or a race moves
 * values by O(||A||), a ratio of about 1/(n eps): >= 6e4 in single, >= 3e13
 * in double for n <= 129.  "Exactly zero" checks are exact: the kernels
 * store zeros for what they annihilate.
 *
 * One line per group of checks: "PASS name (N cases, worst ratio R)" or
 * "FAIL name: K of N cases failed; first: <size, b, tw, error>", further
 * failures as "# " lines.  The seed is printed; TEST_SEED=<n> (or argv[1])
 * replays a run; TEST_VERBOSE=1 lists every failure.
 * GPULAPACK_HOST_THREADS defaults to 4 here so that the multithreaded chase
 * schedule runs even on small machines. */
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "precision.h"
#include "entry.h"
#include "../kernels/pipelines/pipelines.h"
#include "../kernels/backend/lapack_fns.h"
#include "../kernels/backend/host/host.h"
#include "../kernels/backend/host/threads.h"
#include "../kernels/householder.h"

#define REF_LAPACK "/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3"

#if GL_PRECISION == 1 || GL_PRECISION == 3
#define EPS ((double)FLT_EPSILON)
#else
#define EPS DBL_EPSILON
#endif

#define THRESH 10.0

#define AT(a, ld, i, j) ((a)[(size_t)(i) + (size_t)(j) * (size_t)(ld)])

static const char prec = GL_PREC_CHAR;
static const GL_FN(ops) *ops;   /* host_table, bound to host_ctx */
static GL_FN(ops) host_table;

/* The plan of a band pipeline's call on the host (kernels/plan.h, as
 * the policy makes it): its shapes from the host's tuning. */
static gl_call_plan band_plan(char kind, lapack_int m, lapack_int n,
                              lapack_int kl, lapack_int ku)
{
    gl_call_plan plan = {.method = GL_METHOD_TWO_STAGE,
                         .tier = GL_PLAN_IN_CORE, .devices = 1};
    GL_FN(band_plan_make)(&ops->ctx->tuning, kind, m, n, kl, ku, 'N', 0,
                          &plan);
    return plan;
}
static gl_ctx *host_ctx;

/* ---- LAPACK's xerbla: a bad argument in a reference call is a test bug -- */

static int xerbla_calls;
void xerbla_(const char *name, const int *info, size_t len)
{
    printf("# xerbla: %.*s info %d\n", (int)(len < 8 ? len : 8), name, *info);
    xerbla_calls++;
}

/* ---- random numbers (splitmix64) ---------------------------------------- */

static uint64_t rng_state;
static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* uniform in [-1, 1) */
static gl_real urand(void)
{
    return (gl_real)((double)(next_u64() >> 11) * 0x1p-52 - 1.0);
}
static gl_scalar srand_scalar(void)
{
#if GL_COMPLEX
    gl_real re = urand(), im = urand();
    return re + im * I;
#else
    return urand();
#endif
}

static gl_scalar make_scalar(gl_real re, gl_real im)
{
#if GL_COMPLEX
    return re + im * I;
#else
    (void)im;
    return re;
#endif
}

static const gl_real NAN_R = (gl_real)NAN;

/* ---- reference LAPACK ---------------------------------------------------- */

typedef const lapack_int cint;
#if GL_COMPLEX
typedef void gesvd_t(const char *, const char *, cint *, cint *, gl_scalar *,
                     cint *, gl_real *, gl_scalar *, cint *, gl_scalar *,
                     cint *, gl_scalar *, cint *, gl_real *, lapack_int *,
                     size_t, size_t);
typedef void heev_t(const char *, const char *, cint *, gl_scalar *, cint *,
                    gl_real *, gl_scalar *, cint *, gl_real *, lapack_int *,
                    size_t, size_t);
#else
typedef void gesvd_t(const char *, const char *, cint *, cint *, gl_scalar *,
                     cint *, gl_real *, gl_scalar *, cint *, gl_scalar *,
                     cint *, gl_scalar *, cint *, lapack_int *, size_t,
                     size_t);
typedef void heev_t(const char *, const char *, cint *, gl_scalar *, cint *,
                    gl_real *, gl_scalar *, cint *, lapack_int *, size_t,
                    size_t);
#endif
static gesvd_t *ref_gesvd;
static heev_t *ref_heev;

/* Every array handed to the reference routines has PAD elements of slack
 * on both sides: OpenBLAS 0.3.21's c/zgemv_n kernels (OpenMathLib/OpenBLAS
 * issue 4013), which the reference ?gesvd/?heev reach through ?labrd and
 * ?larf, read outside their arrays (valgrind: 32 bytes before the
 * workspace; 144 bytes after the matrix seen as a SIGSEGV under ASan): a
 * crash whenever such a block borders an unmapped page (large mmap()ed
 * blocks, ASan). */
enum { PAD = 512 };
static void *padded(size_t elem, size_t count)
{
    char *p = malloc(elem * (count + 2 * PAD));
    return p ? p + elem * PAD : NULL;
}
static void padded_free(void *p, size_t elem)
{
    if (p)
        free((char *)p - elem * PAD);
}

/* Singular values (descending) of the m x n matrix a; returns INFO. */
static lapack_int ref_svals(lapack_int m, lapack_int n, const gl_scalar *a,
                            lapack_int lda, gl_real *s)
{
    if (m == 0 || n == 0)
        return 0;
    lapack_int k = m < n ? m : n, lwork = 66 * (m + n) + 100, info = 0, one = 1;
    gl_scalar *w = padded(sizeof *w, (size_t)m * (size_t)n);
    gl_scalar *work = padded(sizeof *work, (size_t)lwork);
    gl_scalar *dummy = padded(sizeof *dummy, 1);
    gl_real *sv = padded(sizeof *sv, (size_t)k);
    gl_real *rwork = padded(sizeof *rwork, 5 * (size_t)k);
    for (lapack_int j = 0; j < n; j++)
        memcpy(&AT(w, m, 0, j), &AT(a, lda, 0, j), sizeof *w * (size_t)m);
#if GL_COMPLEX
    ref_gesvd("N", "N", &m, &n, w, &m, sv, dummy, &one, dummy, &one, work,
              &lwork, rwork, &info, 1, 1);
#else
    ref_gesvd("N", "N", &m, &n, w, &m, sv, dummy, &one, dummy, &one, work,
              &lwork, &info, 1, 1);
#endif
    memcpy(s, sv, sizeof *s * (size_t)k);
    padded_free(w, sizeof *w);
    padded_free(work, sizeof *work);
    padded_free(dummy, sizeof *dummy);
    padded_free(sv, sizeof *sv);
    padded_free(rwork, sizeof *rwork);
    return info;
}

/* Eigenvalues (ascending) of the Hermitian a (lower triangle read). */
static lapack_int ref_eigs(lapack_int n, const gl_scalar *a, lapack_int lda,
                           gl_real *ev)
{
    if (n == 0)
        return 0;
    lapack_int lwork = 66 * n + 100, info = 0;
    gl_scalar *w = padded(sizeof *w, (size_t)n * (size_t)n);
    gl_scalar *work = padded(sizeof *work, (size_t)lwork);
    gl_real *wv = padded(sizeof *wv, (size_t)n);
    gl_real *rwork = padded(sizeof *rwork, 3 * (size_t)n);
    for (lapack_int j = 0; j < n; j++)
        memcpy(&AT(w, n, 0, j), &AT(a, lda, 0, j), sizeof *w * (size_t)n);
#if GL_COMPLEX
    ref_heev("N", "L", &n, w, &n, wv, work, &lwork, rwork, &info, 1, 1);
#else
    ref_heev("N", "L", &n, w, &n, wv, work, &lwork, &info, 1, 1);
#endif
    memcpy(ev, wv, sizeof *ev * (size_t)n);
    padded_free(w, sizeof *w);
    padded_free(work, sizeof *work);
    padded_free(wv, sizeof *wv);
    padded_free(rwork, sizeof *rwork);
    return info;
}

/* ---- groups of checks ---------------------------------------------------- */

typedef struct group {
    char name[128];
    long cases, failed;
    long last;         /* the case that failed last (failures per case) */
    int messages;
    double worst;      /* largest values ratio seen */
    char first[400];   /* first failure */
} group;

static int groups_failed;
static int verbose;   /* TEST_VERBOSE=1: every failure, not the first 12 */

static void gbegin(group *g, const char *fmt, ...)
{
    va_list ap;
    memset(g, 0, sizeof *g);
    int k = snprintf(g->name, sizeof g->name, "unit/stages/%c/", prec);
    va_start(ap, fmt);
    vsnprintf(g->name + k, sizeof g->name - (size_t)k, fmt, ap);
    va_end(ap);
}

static void gfail(group *g, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (g->failed == 0 || g->last != g->cases)
        g->failed++, g->last = g->cases;
    if (g->messages++ == 0)
        snprintf(g->first, sizeof g->first, "%s", msg);
    else if (g->messages <= 12 || verbose)
        printf("# %s: %s\n", g->name, msg);
}

static void gend(group *g)
{
    if (g->cases == 0) {
        printf("FAIL %s: no case ran\n", g->name);
        groups_failed++;
    } else if (g->failed) {
        printf("FAIL %s: %ld of %ld cases failed; first: %s\n", g->name,
               g->failed, g->cases, g->first);
        groups_failed++;
    } else {
        printf("PASS %s (%ld cases, worst ratio %.3g)\n", g->name, g->cases,
               g->worst);
    }
    fflush(stdout);
}

/* max_i |x_i - ref_i| / (max_i |ref_i| * max(nn,1) * eps); 0 when equal,
 * +inf when ref is all zero and x is not, NaN when x has a NaN. */
static double values_ratio(lapack_int k, lapack_int nn, const gl_real *x,
                           const gl_real *ref, lapack_int *where)
{
    double scale = 0, diff = 0;
    *where = -1;
    for (lapack_int i = 0; i < k; i++) {
        double d = fabs((double)x[i] - (double)ref[i]);
        if (isnan(d)) {
            *where = i;
            return NAN;
        }
        if (fabs((double)ref[i]) > scale)
            scale = fabs((double)ref[i]);
        if (d > diff) {
            diff = d;
            *where = i;
        }
    }
    if (diff == 0)
        return 0;
    if (scale == 0)
        return INFINITY;
    return diff / (scale * (nn > 1 ? nn : 1) * EPS);
}

/* Records the values check of one case ("what" names the comparison). */
static void check_values(group *g, const char *desc, const char *what,
                         lapack_int k, lapack_int nn, const gl_real *x,
                         const gl_real *ref)
{
    lapack_int i;
    double r = values_ratio(k, nn, x, ref, &i);
    if (!(r <= g->worst) && !isnan(r))
        g->worst = r;
    if (!(r <= THRESH))
        gfail(g, "%s: %s: ratio %.3g at value %d (%.9g, expected %.9g)",
              desc, what, r, (int)i, i >= 0 ? (double)x[i] : 0.0,
              i >= 0 ? (double)ref[i] : 0.0);
}

static int is_finite_s(gl_scalar x)
{
    return isfinite(GL_REAL(x)) && isfinite(GL_IMAG(x));
}

/* Index (row, col) of the first NaN/Inf of rows x cols, or 0 if none. */
static int find_nonfinite(lapack_int rows, lapack_int cols,
                          const gl_scalar *a, lapack_int ld, lapack_int *ri,
                          lapack_int *ci)
{
    for (lapack_int j = 0; j < cols; j++)
        for (lapack_int i = 0; i < rows; i++)
            if (!is_finite_s(AT(a, ld, i, j))) {
                *ri = i, *ci = j;
                return 1;
            }
    return 0;
}

static int check_finite(group *g, const char *desc, const char *what,
                        lapack_int rows, lapack_int cols, const gl_scalar *a,
                        lapack_int ld)
{
    lapack_int ri, ci;
    if (!find_nonfinite(rows, cols, a, ld, &ri, &ci))
        return 1;
    gfail(g, "%s: %s: non-finite element (%d,%d) = %g%+gi", desc, what,
          (int)ri, (int)ci, (double)GL_REAL(AT(a, ld, ri, ci)),
          (double)GL_IMAG(AT(a, ld, ri, ci)));
    return 0;
}

/* ---- matrices of the tests ----------------------------------------------- */

typedef enum kind { K_RANDOM, K_ZERO, K_IDENTITY, K_RANK1, K_ZEROCOL } kind;
static const char *const kind_names[] = {"random", "zero", "identity",
                                         "rank1", "zerocol"};

static gl_real norm2(lapack_int k, const gl_scalar *x)
{
    double s = 0;
    for (lapack_int i = 0; i < k; i++)
        s += (double)GL_REAL(x[i] * GL_CONJ(x[i]));
    return (gl_real)sqrt(s);
}

/* Sets expect[0..k) to the exact values of a zero, identity or rank-1 (of
 * value top) matrix; ascending (eigenvalues) or descending. */
static int exact_values(kind kd, lapack_int k, gl_real top, int ascending,
                        gl_real *expect)
{
    if (kd == K_RANDOM || kd == K_ZEROCOL)
        return 0;
    for (lapack_int i = 0; i < k; i++)
        expect[i] = kd == K_IDENTITY ? 1 : 0;
    if (kd == K_RANK1 && k > 0)
        expect[ascending ? k - 1 : 0] = top;
    return 1;
}

/* Dense m x n.  rank-1: u v^H (returns ||u|| ||v||). */
static gl_real gen_dense(kind kd, lapack_int m, lapack_int n, gl_scalar *a,
                         lapack_int lda)
{
    gl_real top = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < m; i++)
            AT(a, lda, i, j) = kd == K_RANDOM || kd == K_ZEROCOL
                                   ? srand_scalar()
                                   : kd == K_IDENTITY && i == j ? 1 : 0;
    if (kd == K_ZEROCOL)
        for (lapack_int i = 0; i < m; i++)
            AT(a, lda, i, n / 2) = 0;
    if (kd == K_RANK1) {
        gl_scalar *u = malloc(sizeof *u * (size_t)(m + n)), *v = u + m;
        for (lapack_int i = 0; i < m + n; i++)
            u[i] = srand_scalar();
        for (lapack_int j = 0; j < n; j++)
            for (lapack_int i = 0; i < m; i++)
                AT(a, lda, i, j) = u[i] * GL_CONJ(v[j]);
        top = norm2(m, u) * norm2(n, v);
        free(u);
    }
    return top;
}

/* Dense n x n upper band A(r,c), 0 <= c-r <= b, zero elsewhere.  rank-1:
 * u (rows i0..i1) v^H (columns i1..i2), i2 - i0 <= b. */
static gl_real gen_upper_band(kind kd, lapack_int n, lapack_int b,
                              gl_scalar *a)
{
    gl_real top = 0;
    memset(a, 0, sizeof *a * (size_t)n * (size_t)n);
    for (lapack_int c = 0; c < n; c++)
        for (lapack_int r = c - b > 0 ? c - b : 0; r <= c; r++)
            AT(a, n, r, c) = kd == K_RANDOM || kd == K_ZEROCOL
                                 ? srand_scalar()
                                 : kd == K_IDENTITY && r == c ? 1 : 0;
    if (kd == K_ZEROCOL)
        for (lapack_int r = 0; r < n; r++)
            AT(a, n, r, n / 2) = 0;
    if (kd == K_RANK1) {
        lapack_int i0 = n / 3, i1 = i0 + b / 2 < n - 1 ? i0 + b / 2 : n - 1;
        lapack_int i2 = i0 + b < n - 1 ? i0 + b : n - 1;
        gl_scalar u[64], v[64];   /* b <= 32 here: at most b+1 each */
        for (lapack_int i = 0; i <= i1 - i0; i++)
            u[i] = srand_scalar();
        for (lapack_int j = 0; j <= i2 - i1; j++)
            v[j] = srand_scalar();
        for (lapack_int r = i0; r <= i1; r++)
            for (lapack_int c = i1; c <= i2; c++)
                AT(a, n, r, c) = u[r - i0] * GL_CONJ(v[c - i1]);
        top = norm2(i1 - i0 + 1, u) * norm2(i2 - i1 + 1, v);
    }
    return top;
}

/* Dense Hermitian n x n (both triangles, real diagonal), band of half-width
 * b (b >= n - 1: dense).  rank-1: u u^H, u on rows i0 .. i0+b. */
static gl_real gen_hermitian(kind kd, lapack_int n, lapack_int b,
                             gl_scalar *a)
{
    gl_real top = 0;
    memset(a, 0, sizeof *a * (size_t)n * (size_t)n);
    for (lapack_int c = 0; c < n; c++)
        for (lapack_int r = c; r < n && r <= c + b; r++) {
            gl_scalar x = kd == K_RANDOM || kd == K_ZEROCOL ? srand_scalar()
                          : kd == K_IDENTITY && r == c      ? 1
                                                            : 0;
            if (r == c)
                x = GL_REAL(x);
            AT(a, n, r, c) = x;
            AT(a, n, c, r) = GL_CONJ(x);
        }
    if (kd == K_ZEROCOL)
        for (lapack_int i = 0; i < n; i++)
            AT(a, n, i, n / 2) = AT(a, n, n / 2, i) = 0;
    if (kd == K_RANK1) {
        lapack_int i0 = n / 3, i1 = i0 + b < n - 1 ? i0 + b : n - 1;
        gl_scalar *u = calloc((size_t)n, sizeof *u);
        for (lapack_int i = i0; i <= i1; i++)
            u[i] = srand_scalar();
        for (lapack_int c = 0; c < n; c++)
            for (lapack_int r = 0; r < n; r++)
                AT(a, n, r, c) = r == c ? GL_REAL(u[r] * GL_CONJ(u[c]))
                                        : u[r] * GL_CONJ(u[c]);
        gl_real nu = norm2(n, u);
        top = nu * nu;
        free(u);
    }
    return top;
}

/* Dense upper bidiagonal / Hermitian tridiagonal from d and e. */
static void bidiag_dense(lapack_int k, const gl_scalar *d, lapack_int incd,
                         const gl_scalar *e, lapack_int ince, gl_scalar *a)
{
    memset(a, 0, sizeof *a * (size_t)k * (size_t)k);
    for (lapack_int i = 0; i < k; i++) {
        AT(a, k, i, i) = d[(size_t)i * incd];
        if (i + 1 < k)
            AT(a, k, i, i + 1) = e[(size_t)i * ince];
    }
}

static void tridiag_dense(lapack_int k, const gl_scalar *d, lapack_int incd,
                          const gl_scalar *e, lapack_int ince, gl_scalar *a)
{
    memset(a, 0, sizeof *a * (size_t)k * (size_t)k);
    for (lapack_int i = 0; i < k; i++) {
        AT(a, k, i, i) = GL_REAL(d[(size_t)i * incd]);
        if (i + 1 < k) {
            AT(a, k, i + 1, i) = e[(size_t)i * ince];
            AT(a, k, i, i + 1) = GL_CONJ(e[(size_t)i * ince]);
        }
    }
}

/* ---- stage 1: ge2gb ------------------------------------------------------ */

static void run_ge2gb(group *g, kind kd, lapack_int m, lapack_int n,
                      lapack_int b, lapack_int block)
{
    char desc[96];
    snprintf(desc, sizeof desc, "%s m=%d n=%d b=%d block=%d", kind_names[kd],
             (int)m, (int)n, (int)b, (int)block);
    g->cases++;
    lapack_int lda = m + 1;   /* row m: NaN, never to be read or written */
    gl_scalar *a = malloc(sizeof *a * (size_t)lda * (size_t)n);
    gl_scalar *band = malloc(sizeof *band * (size_t)n * (size_t)n);
    gl_real *ref = malloc(sizeof *ref * 3 * (size_t)n), *got = ref + n,
            *exact = got + n;
    gl_real top = gen_dense(kd, m, n, a, lda);
    for (lapack_int j = 0; j < n; j++)
        AT(a, lda, m, j) = NAN_R;
    if (ref_svals(m, n, a, lda, ref) != 0) {
        gfail(g, "%s: reference ?gesvd failed", desc);
        goto out;
    }
    int rc = GL_FN(ge2gb)(ops, m, n, b, block, 0, a, lda, NULL, NULL);
    if (rc != 0) {
        gfail(g, "%s: ge2gb returned %d", desc, rc);
        goto out;
    }
    if (!check_finite(g, desc, "result", m, n, a, lda))
        goto out;
    for (lapack_int j = 0; j < n; j++)
        if (!isnan(GL_REAL(AT(a, lda, m, j)))) {
            gfail(g, "%s: wrote row m (outside A) of column %d", desc, (int)j);
            goto out;
        }
    for (lapack_int c = 0; c < n; c++)
        for (lapack_int r = 0; r < n; r++)
            AT(band, n, r, c) = c - r >= 0 && c - r <= b ? AT(a, lda, r, c) : 0;
    if (ref_svals(n, n, band, n, got) != 0) {
        gfail(g, "%s: reference ?gesvd of the band failed", desc);
        goto out;
    }
    check_values(g, desc, "band vs A", n, m, got, ref);
    if (exact_values(kd, n, top, 0, exact))
        check_values(g, desc, "band vs exact", n, m, got, exact);
out:
    free(a);
    free(band);
    free(ref);
}

/* ---- stage 1: sy2sb ------------------------------------------------------ */

/* > 0: run_sy2sb takes gpulapack-tune's entry, host_sy2sb_on, on that
 * many threads (its own run of products), not sy2sb on ops */
static int tune_entry_threads;

static void run_sy2sb(group *g, kind kd, lapack_int n, lapack_int b,
                      lapack_int block)
{
    char desc[96];
    snprintf(desc, sizeof desc, "%s n=%d b=%d block=%d", kind_names[kd],
             (int)n, (int)b, (int)block);
    g->cases++;
    lapack_int lda = n + 1;
    gl_scalar *a0 = malloc(sizeof *a0 * (size_t)n * (size_t)n);
    gl_scalar *a = malloc(sizeof *a * (size_t)lda * (size_t)n);
    gl_scalar *band = malloc(sizeof *band * (size_t)n * (size_t)n);
    gl_real *ref = malloc(sizeof *ref * 3 * (size_t)n), *got = ref + n,
            *exact = got + n;
    gl_real top = gen_hermitian(kd, n, n, a0);
    /* the strict upper triangle and row n are NaN: sy2sb reads the lower
     * triangle only */
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i <= n; i++)
            AT(a, lda, i, j) = i >= j && i < n ? AT(a0, n, i, j) : NAN_R;
    if (ref_eigs(n, a0, n, ref) != 0) {
        gfail(g, "%s: reference ?heev failed", desc);
        goto out;
    }
    /* tau (the reflectors' scalars, n-1 of them) on every other case */
    gl_scalar *tau = g->cases % 2 ? malloc(sizeof *tau * (size_t)n) : NULL;
    int rc = tune_entry_threads > 0
                 ? GL_FN(host_sy2sb_on)(n, b, a, lda, tune_entry_threads)
                 : GL_FN(sy2sb)(ops, n, b, block, 0, a, lda, tau, NULL);
    free(tau);
    if (rc != 0) {
        gfail(g, "%s: sy2sb returned %d", desc, rc);
        goto out;
    }
    for (lapack_int j = 0; j < n; j++)
        if (!check_finite(g, desc, "lower triangle", n - j, 1,
                          &AT(a, lda, j, j), lda))
            goto out;
    for (lapack_int c = 0; c < n; c++)
        for (lapack_int r = 0; r < n; r++) {
            lapack_int lo = r >= c ? r : c, hi = r >= c ? c : r;
            gl_scalar x = lo - hi <= b ? AT(a, lda, lo, hi) : 0;
            AT(band, n, r, c) = r == c ? GL_REAL(x) : r > c ? x : GL_CONJ(x);
        }
    if (ref_eigs(n, band, n, got) != 0) {
        gfail(g, "%s: reference ?heev of the band failed", desc);
        goto out;
    }
    check_values(g, desc, "band vs A", n, n, got, ref);
    if (exact_values(kd, n, top, 1, exact))
        check_values(g, desc, "band vs exact", n, n, got, exact);
out:
    free(a0);
    free(a);
    free(band);
    free(ref);
}

/* ---- stage 2: general band ----------------------------------------------- */

/* Every stored element of the packed band (ld = 3*b0+1) outside the c-band
 * of the n x n matrix is exactly zero. */
static int check_gb_zeros(group *g, const char *desc, lapack_int n,
                          lapack_int c, const gl_scalar *band, lapack_int ld)
{
    lapack_int up = (ld - 1) / 3 * 2;
    long bad = 0;
    lapack_int fr = 0, fc = 0;
    double fv = 0, big = 0;
    for (lapack_int col = 0; col < n; col++)
        for (lapack_int k = 0; k < ld; k++) {
            lapack_int r = col + k - up;
            int inside = r >= 0 && r < n && col - r >= 0 && col - r <= c;
            gl_scalar x = AT(band, ld, k, col);
            if (!inside && x != 0) {
                double v = GL_ABS(x);
                if (bad++ == 0)
                    fr = r, fc = col, fv = v;
                if (!(v <= big))
                    big = v;
            }
        }
    if (bad)
        gfail(g, "%s: %ld stored elements outside the %d-band not exactly "
                 "zero, first A(%d,%d) |%.3g|, largest |%.3g|",
              desc, bad, (int)c, (int)fr, (int)fc, fv, big);
    return bad == 0;
}

/* Singular values of the c-band held in packed storage. */
static lapack_int gb_packed_svals(lapack_int n, lapack_int c,
                                  const gl_scalar *band, lapack_int ld,
                                  gl_real *s)
{
    lapack_int up = (ld - 1) / 3 * 2;
    gl_scalar *a = calloc((size_t)n * (size_t)n, sizeof *a);
    for (lapack_int col = 0; col < n; col++)
        for (lapack_int r = col - c > 0 ? col - c : 0; r <= col; r++)
            AT(a, n, r, col) = AT(band, ld, up + r - col, col);
    lapack_int info = ref_svals(n, n, a, n, s);
    free(a);
    return info;
}

/* gb2bd of a band packed by ops->pack_band; also checks pack_band. */
static void run_gb2bd(group *gz, group *gv, group *gp, kind kd, lapack_int n,
                      lapack_int b, const lapack_int *tws, int ntw)
{
    lapack_int ld = 3 * b + 1, up = 2 * b;
    size_t sz = (size_t)ld * (size_t)n;
    gl_scalar *a = malloc(sizeof *a * (size_t)n * (size_t)n);
    gl_scalar *band0 = malloc(sizeof *band0 * sz);
    gl_scalar *band = malloc(sizeof *band * sz);
    gl_real *ref = malloc(sizeof *ref * 3 * (size_t)n), *got = ref + n,
            *exact = got + n;
    char desc[96];
    gl_real top = gen_upper_band(kd, n, b, a);
    int have_exact = exact_values(kd, n, top, 0, exact);
    lapack_int info = ref_svals(n, n, a, n, ref);

    /* pack_band 'G': the band at up + r - c, every other element zeroed */
    snprintf(desc, sizeof desc, "%s n=%d b=%d", kind_names[kd], (int)n, (int)b);
    gp->cases++;
    for (size_t i = 0; i < sz; i++)
        band0[i] = NAN_R;
    ops->pack_band(ops, 'G', n, b, a, n, band0, ld);
    long bad = 0;
    for (lapack_int col = 0; col < n; col++)
        for (lapack_int k = 0; k < ld; k++) {
            lapack_int r = col + k - up;
            gl_scalar want =
                r >= 0 && r <= col && col - r <= b ? AT(a, n, r, col) : 0;
            bad += !(AT(band0, ld, k, col) == want);
        }
    if (bad)
        gfail(gp, "pack_band G %s: %ld elements wrong", desc, bad);

    for (int t = 0; t < ntw; t++) {
        snprintf(desc, sizeof desc, "%s n=%d b=%d tw=%d", kind_names[kd],
                 (int)n, (int)b, (int)tws[t]);
        gz->cases++, gv->cases++;
        if (info != 0) {
            gfail(gv, "%s: reference ?gesvd failed", desc);
            continue;
        }
        memcpy(band, band0, sizeof *band * sz);
        int rc = GL_FN(gb2bd)(ops, n, b, tws[t], band, ld);
        if (rc != 0) {
            gfail(gz, "%s: gb2bd returned %d", desc, rc);
            gfail(gv, "%s: gb2bd returned %d", desc, rc);
            continue;
        }
        if (!check_finite(gz, desc, "packed band", ld, n, band, ld)) {
            gfail(gv, "%s: non-finite result", desc);
            continue;
        }
        check_gb_zeros(gz, desc, n, 1, band, ld);
        gl_scalar *bd = malloc(sizeof *bd * (size_t)n * (size_t)n);
        bidiag_dense(n, band + up, ld, band + up - 1 + ld, ld, bd);
        if (ref_svals(n, n, bd, n, got) != 0)
            gfail(gv, "%s: reference ?gesvd of the bidiagonal failed", desc);
        else {
            check_values(gv, desc, "bidiagonal vs band", n, n, got, ref);
            if (have_exact)
                check_values(gv, desc, "bidiagonal vs exact", n, n, got, exact);
        }
        free(bd);
    }
    free(a);
    free(band0);
    free(band);
    free(ref);
}

/* One gb_chase pass b -> c on a band stored as one that started at b0. */
static void run_gb_chase(group *gz, group *gv, lapack_int n, lapack_int b,
                         lapack_int c, lapack_int b0)
{
    lapack_int ld = 3 * b0 + 1, up = 2 * b0;
    size_t sz = (size_t)ld * (size_t)n;
    gl_scalar *a = malloc(sizeof *a * (size_t)n * (size_t)n);
    gl_scalar *band = calloc(sz, sizeof *band);
    gl_real *ref = malloc(sizeof *ref * 2 * (size_t)n), *got = ref + n;
    char desc[96];
    snprintf(desc, sizeof desc, "n=%d b=%d c=%d b0=%d", (int)n, (int)b,
             (int)c, (int)b0);
    gz->cases++, gv->cases++;
    gen_upper_band(K_RANDOM, n, b, a);
    for (lapack_int col = 0; col < n; col++)
        for (lapack_int r = col - b > 0 ? col - b : 0; r <= col; r++)
            AT(band, ld, up + r - col, col) = AT(a, n, r, col);
    if (ref_svals(n, n, a, n, ref) != 0) {
        gfail(gv, "%s: reference ?gesvd failed", desc);
        goto out;
    }
    int rc = ops->gb_chase(ops, n, b, c, n, band, ld, NULL);
    if (rc != 0) {
        gfail(gz, "%s: gb_chase returned %d", desc, rc);
        gfail(gv, "%s: gb_chase returned %d", desc, rc);
        goto out;
    }
    if (!check_finite(gz, desc, "packed band", ld, n, band, ld)) {
        gfail(gv, "%s: non-finite result", desc);
        goto out;
    }
    check_gb_zeros(gz, desc, n, c, band, ld);
    if (gb_packed_svals(n, c, band, ld, got) != 0)
        gfail(gv, "%s: reference ?gesvd of the result failed", desc);
    else
        check_values(gv, desc, "c-band vs b-band", n, n, got, ref);
out:
    free(a);
    free(band);
    free(ref);
}

/* ---- stage 2: Hermitian band --------------------------------------------- */

static void run_sb_chase(group *gz, group *gv, group *gp, kind kd,
                         lapack_int n, lapack_int b, lapack_int ld)
{
    size_t sz = (size_t)ld * (size_t)n;
    gl_scalar *a = malloc(sizeof *a * (size_t)n * (size_t)n);
    gl_scalar *band = malloc(sizeof *band * sz);
    gl_real *ref = malloc(sizeof *ref * 3 * (size_t)n), *got = ref + n,
            *exact = got + n;
    char desc[96];
    snprintf(desc, sizeof desc, "%s n=%d b=%d ldband=%d", kind_names[kd],
             (int)n, (int)b, (int)ld);
    gl_real top = gen_hermitian(kd, n, b, a);
    int have_exact = exact_values(kd, n, top, 1, exact);

    /* pack_band 'H' (input diagonal with an imaginary part, to be dropped) */
    gp->cases++;
    for (size_t i = 0; i < sz; i++)
        band[i] = NAN_R;
    for (lapack_int i = 0; i < n; i++)
        AT(a, n, i, i) += make_scalar(0, (gl_real)0.75);
    ops->pack_band(ops, 'H', n, b, a, n, band, ld);
    for (lapack_int i = 0; i < n; i++)
        AT(a, n, i, i) = GL_REAL(AT(a, n, i, i));
    long bad = 0;
    for (lapack_int col = 0; col < n; col++)
        for (lapack_int k = 0; k < ld; k++) {
            lapack_int r = col + k;
            gl_scalar want = k <= b && r < n ? AT(a, n, r, col) : 0;
            bad += !(AT(band, ld, k, col) == want);
        }
    if (bad)
        gfail(gp, "pack_band H %s: %ld elements wrong", desc, bad);

    gz->cases++, gv->cases++;
    if (ref_eigs(n, a, n, ref) != 0) {
        gfail(gv, "%s: reference ?heev failed", desc);
        goto out;
    }
    int rc = ops->sb_chase(ops, n, b, n, band, ld, NULL);
    if (rc != 0) {
        gfail(gz, "%s: sb_chase returned %d", desc, rc);
        gfail(gv, "%s: sb_chase returned %d", desc, rc);
        goto out;
    }
    if (!check_finite(gz, desc, "packed band", ld, n, band, ld)) {
        gfail(gv, "%s: non-finite result", desc);
        goto out;
    }
    bad = 0;
    lapack_int fr = 0, fc = 0;
    double big = 0;
    for (lapack_int col = 0; col < n; col++)
        for (lapack_int k = 0; k < ld; k++) {
            gl_scalar x = AT(band, ld, k, col);
            int inside = k <= 1 && col + k < n;
            int nonzero = inside ? k == 0 && GL_IMAG(x) != 0 : x != 0;
            if (nonzero) {
                if (bad++ == 0)
                    fr = col + k, fc = col;
                double v = inside ? fabs((double)GL_IMAG(x)) : GL_ABS(x);
                if (!(v <= big))
                    big = v;
            }
        }
    if (bad)
        gfail(gz, "%s: %ld stored elements not exactly zero outside the "
                  "tridiagonal or imaginary diagonal, first A(%d,%d), "
                  "largest |%.3g|",
              desc, bad, (int)fr, (int)fc, big);
    gl_scalar *td = malloc(sizeof *td * (size_t)n * (size_t)n);
    tridiag_dense(n, band, ld, band + 1, ld, td);
    if (ref_eigs(n, td, n, got) != 0)
        gfail(gv, "%s: reference ?heev of the tridiagonal failed", desc);
    else {
        check_values(gv, desc, "tridiagonal vs band", n, n, got, ref);
        if (have_exact)
            check_values(gv, desc, "tridiagonal vs exact", n, n, got, exact);
    }
    free(td);
out:
    free(a);
    free(band);
    free(ref);
}

/* ---- band input: gb_bidiag, sb_tridiag ----------------------------------- */

/* m x n band with kl sub- and ku superdiagonals (dense a, lda = m). */
static gl_real gen_gb(kind kd, lapack_int m, lapack_int n, lapack_int kl,
                      lapack_int ku, gl_scalar *a)
{
    gl_real top = 0;
    memset(a, 0, sizeof *a * (size_t)m * (size_t)n);
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < m; i++)
            if (i - j <= kl && j - i <= ku)
                AT(a, m, i, j) = kd == K_RANDOM || kd == K_ZEROCOL
                                     ? srand_scalar()
                                     : kd == K_IDENTITY && i == j ? 1 : 0;
    if (kd == K_ZEROCOL)
        for (lapack_int i = 0; i < m; i++)
            AT(a, m, i, n / 2) = 0;
    if (kd == K_RANK1) {
        /* u on rows i0 .. i0+kl, v on columns i0 .. i0+ku */
        lapack_int k = m < n ? m : n, i0 = k / 3;
        lapack_int i1 = i0 + kl < m - 1 ? i0 + kl : m - 1;
        lapack_int j1 = i0 + ku < n - 1 ? i0 + ku : n - 1;
        gl_scalar *u = malloc(sizeof *u * (size_t)(m + n)), *v = u + m;
        for (lapack_int i = i0; i <= i1; i++)
            u[i] = srand_scalar();
        for (lapack_int j = i0; j <= j1; j++)
            v[j] = srand_scalar();
        for (lapack_int j = i0; j <= j1; j++)
            for (lapack_int i = i0; i <= i1; i++)
                AT(a, m, i, j) = u[i] * GL_CONJ(v[j]);
        top = norm2(i1 - i0 + 1, u + i0) * norm2(j1 - i0 + 1, v + i0);
        free(u);
    }
    return top;
}

static void run_gb_bidiag(group *g, kind kd, lapack_int m, lapack_int n,
                          lapack_int kl, lapack_int ku)
{
    char desc[128];
    g->cases++;
    /* unreferenced elements of AB: NaN (must not be read), or, every other
     * case, zero (as a careful caller leaves them: wrong values show) */
    int nan_fill = g->cases % 2;
    snprintf(desc, sizeof desc, "%s m=%d n=%d kl=%d ku=%d (unreferenced %s)",
             kind_names[kd], (int)m, (int)n, (int)kl, (int)ku,
             nan_fill ? "NaN" : "0");
    lapack_int k = m < n ? m : n, ldab = kl + ku + 2;
    gl_scalar *a = malloc(sizeof *a * (size_t)m * (size_t)n);
    gl_scalar *ab = malloc(sizeof *ab * (size_t)ldab * (size_t)n);
    gl_scalar *bd =
        malloc(sizeof *bd * ((size_t)k * (size_t)k + 2 * (size_t)k + 1));
    gl_scalar *ds = bd + (size_t)k * (size_t)k, *es = ds + k;
    gl_real *ref = malloc(sizeof *ref * (4 * (size_t)k + 2)), *got = ref + k,
            *d = got + k, *e = d + k;
    gl_real *exact = malloc(sizeof *exact * (size_t)(k + 1));
    gl_real top = gen_gb(kd, m, n, kl, ku, a);
    /* AB(ku+i-j, j) = A(i,j) (0-based) */
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int r = 0; r < ldab; r++) {
            lapack_int i = r - ku + j;
            AT(ab, ldab, r, j) = r <= kl + ku && i >= 0 && i < m
                                     ? AT(a, m, i, j)
                                     : nan_fill ? NAN_R : 0;
        }
    for (lapack_int i = 0; i < k; i++)
        d[i] = e[i] = NAN_R;
    if (ref_svals(m, n, a, m, ref) != 0) {
        gfail(g, "%s: reference ?gesvd failed", desc);
        goto out;
    }
    gl_call_plan plan = band_plan('G', m, n, kl, ku);
    int rc = GL_FN(gb_bidiag)(ops, &plan, m, n, kl, ku, ab, ldab, d, e, NULL);
    if (rc != 0) {
        gfail(g, "%s: gb_bidiag returned %d", desc, rc);
        goto out;
    }
    for (lapack_int i = 0; i < k; i++) {
        ds[i] = d[i];
        es[i] = i + 1 < k ? e[i] : 0;
    }
    if (!check_finite(g, desc, "d", k, 1, ds, k) ||
        !check_finite(g, desc, "e", k, 1, es, k))
        goto out;
    bidiag_dense(k, ds, 1, es, 1, bd);
    if (ref_svals(k, k, bd, k, got) != 0) {
        gfail(g, "%s: reference ?gesvd of the bidiagonal failed", desc);
        goto out;
    }
    check_values(g, desc, "bidiagonal vs A", k, m > n ? m : n, got, ref);
    if (exact_values(kd, k, top, 0, exact))
        check_values(g, desc, "bidiagonal vs exact", k, m > n ? m : n, got,
                     exact);
out:
    free(a);
    free(ab);
    free(bd);
    free(ref);
    free(exact);
}

static void run_sb_tridiag(group *g, kind kd, char uplo, lapack_int n,
                           lapack_int kdiag, gl_real sigma)
{
    char desc[96];
    snprintf(desc, sizeof desc, "%s uplo=%c n=%d kd=%d sigma=%g",
             kind_names[kd], uplo, (int)n, (int)kdiag, (double)sigma);
    g->cases++;
    lapack_int ldab = kdiag + 2;
    gl_scalar *a = malloc(sizeof *a * (size_t)n * (size_t)n);
    gl_scalar *ab = malloc(sizeof *ab * (size_t)ldab * (size_t)n);
    gl_scalar *td =
        malloc(sizeof *td * ((size_t)n * (size_t)n + 2 * (size_t)n));
    gl_scalar *ds = td + (size_t)n * (size_t)n, *es = ds + n;
    gl_real *ref = malloc(sizeof *ref * 5 * (size_t)n), *got = ref + n,
            *d = got + n, *e = d + n, *exact = e + n;
    gl_real top = gen_hermitian(kd, n, kdiag, a);
    /* 'L': AB(i-j, j) = A(i,j), i >= j; 'U': AB(kd+i-j, j), i <= j.
     * Unreferenced elements NaN; the diagonal gets an imaginary part, which
     * LAPACK ignores. */
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int r = 0; r < ldab; r++) {
            lapack_int i = uplo == 'L' ? j + r : r - kdiag + j;
            int in = r <= kdiag && i >= 0 && i < n;
            gl_scalar x = in ? AT(a, n, i, j) : NAN_R;
            if (in && i == j)
                x += make_scalar(0, (gl_real)-0.5);
            AT(ab, ldab, r, j) = x;
        }
    for (lapack_int i = 0; i < n; i++)
        d[i] = e[i] = NAN_R;
    if (ref_eigs(n, a, n, ref) != 0) {
        gfail(g, "%s: reference ?heev failed", desc);
        goto out;
    }
    for (lapack_int i = 0; i < n; i++)
        ref[i] *= sigma;
    gl_call_plan plan = band_plan('H', n, n, kdiag, 0);
    int rc = GL_FN(sb_tridiag)(ops, &plan, uplo, n, kdiag, ab, ldab, sigma,
                               d, e, NULL, NULL);
    if (rc != 0) {
        gfail(g, "%s: sb_tridiag returned %d", desc, rc);
        goto out;
    }
    for (lapack_int i = 0; i < n; i++) {
        ds[i] = d[i];
        es[i] = i + 1 < n ? e[i] : 0;
    }
    if (!check_finite(g, desc, "d", n, 1, ds, n) ||
        !check_finite(g, desc, "e", n, 1, es, n))
        goto out;
    tridiag_dense(n, ds, 1, es, 1, td);
    if (ref_eigs(n, td, n, got) != 0) {
        gfail(g, "%s: reference ?heev of the tridiagonal failed", desc);
        goto out;
    }
    check_values(g, desc, "tridiagonal vs A", n, n, got, ref);
    if (exact_values(kd, n, top * sigma, 1, exact)) {
        if (kd == K_IDENTITY)
            for (lapack_int i = 0; i < n; i++)
                exact[i] = sigma;
        check_values(g, desc, "tridiagonal vs exact", n, n, got, exact);
    }
out:
    free(a);
    free(ab);
    free(td);
    free(ref);
}

/* ---- the grid ------------------------------------------------------------ */

static const lapack_int sizes[] = {2, 3, 4, 5, 7, 8, 9, 16, 17,
                                   31, 32, 33, 63, 64, 65, 100, 129};
static const lapack_int bands[] = {1, 2, 3, 4, 8, 16, 32};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])
#define NBANDS (int)(sizeof bands / sizeof bands[0])

/* Tile widths 1, 3, b-1 (each at least 1, at most b-1: wider is the same
 * single pass), without repeats. */
static int tile_widths(lapack_int b, lapack_int *tws)
{
    lapack_int cand[3] = {1, 3, b - 1};
    int k = 0;
    for (int i = 0; i < 3; i++) {
        lapack_int t = cand[i] < 1 ? 1 : cand[i];
        if (b > 1 && t > b - 1)
            t = b - 1;
        int dup = 0;
        for (int j = 0; j < k; j++)
            dup |= tws[j] == t;
        if (!dup)
            tws[k++] = t;
    }
    return k;
}

static void stage_checks(kind kd)
{
    const char *kn = kind_names[kd];
    int deg = kd != K_RANDOM;
    group g1, g2, gz, gv, gp;

    /* ge2gb, m = n and m > n; one step per update of the rest (the
     * host's order), two, three (blocks that end before the last step and
     * within it), all */
    gbegin(&g1, "ge2gb/%s/m=n", kn);
    gbegin(&g2, "ge2gb/%s/m>n", kn);
    for (int i = 0; i < NSIZES; i++)
        for (int j = 0; j < NBANDS && bands[j] < sizes[i]; j++)
            for (int p = 1; p <= 4; p++) {
                lapack_int n = sizes[i], b = bands[j];
                lapack_int block = p < 4 ? p * b : n;
                run_ge2gb(&g1, kd, n, n, b, block);
                run_ge2gb(&g2, kd, n + 1, n, b, block);
                if (!deg || j % 2 == 0)
                    run_ge2gb(&g2, kd, 2 * n + 3, n, b, block);
            }
    gend(&g1);
    gend(&g2);

    /* gb2bd (and pack_band 'G') */
    gbegin(&gz, "gb2bd/%s/exact-zero", kn);
    gbegin(&gv, "gb2bd/%s/values", kn);
    gbegin(&gp, "pack_band/%s/G", kn);
    for (int i = 0; i < NSIZES; i++)
        for (int j = 0; j < NBANDS && bands[j] < sizes[i]; j++) {
            lapack_int tws[3];
            int ntw = tile_widths(bands[j], tws);
            run_gb2bd(&gz, &gv, &gp, kd, sizes[i], bands[j], tws, ntw);
        }
    gend(&gz);
    gend(&gv);
    gend(&gp);

    /* sy2sb: one panel per trailing update (LAPACK's order), two, three
     * (blocks that end before the last panel and within it), all */
    gbegin(&g1, "sy2sb/%s/values", kn);
    for (int i = 0; i < NSIZES; i++)
        for (int j = 0; j < NBANDS && bands[j] < sizes[i]; j++)
            for (int p = 1; p <= 4; p++)
                run_sy2sb(&g1, kd, sizes[i], bands[j],
                          p < 4 ? p * bands[j] : sizes[i]);
    gend(&g1);

    /* sb_chase (and pack_band 'H'), ldband 2b+1 and 2b+3 */
    gbegin(&gz, "sb_chase/%s/exact-zero+real-diagonal", kn);
    gbegin(&gv, "sb_chase/%s/values", kn);
    gbegin(&gp, "pack_band/%s/H", kn);
    for (int i = 0; i < NSIZES; i++)
        for (int j = 0; j < NBANDS && bands[j] < sizes[i]; j++) {
            lapack_int n = sizes[i], b = bands[j];
            run_sb_chase(&gz, &gv, &gp, kd, n, b, 2 * b + 1);
            if (!deg)
                run_sb_chase(&gz, &gv, &gp, kd, n, b, 2 * b + 3);
        }
    gend(&gz);
    gend(&gv);
    gend(&gp);

    /* gb_bidiag: KL, KU in 0, 1, 3, >= the dimension; m = n, m > n, m < n.
     * KU >= N (diagonals outside the matrix, AB still indexed with the
     * caller's KU) in a group of its own. */
    gbegin(&g1, "gb_bidiag/%s/values", kn);
    gbegin(&g2, "gb_bidiag/%s/ku>=n", kn);
    static const lapack_int bsizes[] = {1, 2, 3, 5, 8, 17, 33, 64, 100};
    for (int i = 0; i < (int)(sizeof bsizes / sizeof bsizes[0]); i++) {
        lapack_int n = bsizes[i];
        lapack_int ms[4] = {n, n + 3, n > 2 ? n - 2 : 1, 2 * n + 1};
        for (int mi = 0; mi < 4; mi++) {
            lapack_int m = ms[mi];
            lapack_int kls[4] = {0, 1, 3, m + 1}, kus[4] = {0, 1, 3, n};
            for (int a = 0; a < 4; a++)
                for (int c = 0; c < 4; c++) {
                    if (deg && (a + c + mi) % 2)
                        continue;
                    run_gb_bidiag(kus[c] >= n ? &g2 : &g1, kd, m, n, kls[a],
                                  kus[c]);
                    if (n > 2 && mi == 0 && c == 2)
                        run_gb_bidiag(&g1, kd, n, n + 2, kls[a], kus[c]);
                }
        }
    }
    gend(&g1);
    gend(&g2);

    /* sb_tridiag: KD 0, 1, 2, 3, 8, n-1, n, n+2; 'L' and 'U'; sigma */
    gbegin(&g1, "sb_tridiag/%s/values", kn);
    for (int i = 0; i < NSIZES; i++) {
        lapack_int n = sizes[i];
        lapack_int kds[8] = {0, 1, 2, 3, 8, n - 1, n, n + 2};
        for (int q = 0; q < 8; q++) {
            if (q == 4 && n <= 9)
                continue;
            if (deg && q % 2)
                continue;
            for (const char *u = "LU"; *u; u++)
                run_sb_tridiag(&g1, kd, *u, n, kds[q],
                               q == 3 && *u == 'U' ? (gl_real)0.125 : 1);
        }
    }
    gend(&g1);
}

/* ---- stage-1 back-transformation: panels merged into groups ------------ */

/* apply_panels applies several panels as one block reflector; the
 * reference applies each panel's own (V, T) by ?larfb, in order.  The QR
 * ('C') and LQ ('R') panels of ge2gb, both orders, block widths that give
 * several groups and a short last panel. */
static void run_apply_panels(group *g, lapack_int n, lapack_int b,
                             char storev, char trans)
{
    char desc[96];
    snprintf(desc, sizeof desc, "%c%c n=%d b=%d", storev, trans, (int)n,
             (int)b);
    g->cases++;
    lapack_int ncols = 7;
    gl_scalar *a = malloc(sizeof *a * (size_t)n * (size_t)n);
    gl_scalar *t = malloc(sizeof *t * (size_t)b * (size_t)n * 2);
    gl_scalar *e = malloc(sizeof *e * (size_t)n * (size_t)ncols * 2);
    gl_scalar *ref = e + (size_t)n * ncols;
    gen_dense(K_RANDOM, n, n, a, n);
    if (GL_FN(ge2gb)(ops, n, n, b, b, 0, a, n, t, t + (size_t)b * n) != 0) {
        gfail(g, "%s: ge2gb failed", desc);
        goto out;
    }
    /* the QR panels from A(0,0), the LQ panels from A(0,b) */
    int rows = storev == 'R';
    lapack_int len = rows ? n - b : n, nref = rows ? n - b : n;
    const gl_scalar *v = rows ? a + (size_t)b * n : a;
    const gl_scalar *tv = rows ? t + (size_t)b * n : t;
    if (len <= 0)
        goto out;
    for (size_t i = 0; i < (size_t)len * ncols; i++)
        e[i] = ref[i] = srand_scalar();
    lapack_int npanels = (nref + b - 1) / b;
    for (lapack_int pi = 0; pi < npanels; pi++) {
        lapack_int p = trans == 'N' ? npanels - 1 - pi : pi;
        lapack_int k = p * b, kk = nref - k < b ? nref - k : b;
        ops->larfb(ops, 'L', trans, storev, len - k, ncols, kk,
                   v + (size_t)k + (size_t)k * n, n, tv + (size_t)k * b, b,
                   ref + k, len);
    }
    if (GL_FN(apply_panels)(ops, storev, trans, len, nref, b, v, n, tv,
                            ncols, e, len) != 0) {
        gfail(g, "%s: apply_panels failed", desc);
        goto out;
    }
    double diff = 0, size = 0;
    for (size_t i = 0; i < (size_t)len * ncols; i++) {
        double dd = cabs((double complex)(e[i] - ref[i]));
        double r = cabs((double complex)ref[i]);
        diff = dd > diff ? dd : diff;
        size = r > size ? r : size;
    }
    double ratio = diff / (size * (double)len * EPS);
    if (ratio > g->worst)
        g->worst = ratio;
    if (!(ratio <= THRESH))
        gfail(g, "%s: grouped vs per-panel ratio %.3g", desc, ratio);
out:
    free(a);
    free(t);
    free(e);
}

static void apply_panels_checks(void)
{
    group g;
    gbegin(&g, "apply_panels/grouped");
    const lapack_int cases[][2] = {{600, 3}, {700, 64}, {530, 48},
                                   {300, 100}, {40, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int sv = 0; sv < 2; sv++)
            for (int tr = 0; tr < 2; tr++)
                run_apply_panels(&g, cases[i][0], cases[i][1],
                                 sv ? 'R' : 'C', tr ? 'C' : 'N');
    gend(&g);
}

/* One gb_chase pass b -> c (1 < c < b): 2, b/2, b-1; storage of b and 2b. */
static void chase_pass_checks(void)
{
    group gz, gv;
    gbegin(&gz, "gb_chase/pass/exact-zero");
    gbegin(&gv, "gb_chase/pass/values");
    for (int i = 0; i < NSIZES; i++)
        for (int j = 0; j < NBANDS && bands[j] < sizes[i]; j++) {
            lapack_int n = sizes[i], b = bands[j];
            lapack_int cs[3] = {2, b / 2, b - 1};
            for (int q = 0; q < 3; q++) {
                lapack_int c = cs[q];
                if (c <= 1 || c >= b || (q > 0 && c == cs[q - 1]) ||
                    (q == 2 && c == cs[0]))
                    continue;
                run_gb_chase(&gz, &gv, n, b, c, b);
                if (q != 1)
                    run_gb_chase(&gz, &gv, n, b, c, 2 * b);
            }
        }
    gend(&gz);
    gend(&gv);
}

/* ---- the host chase's schedules (kernels/backend/host/chase.c)
 * -------------------- The split schedules (each thread a range of every
 * group's steps: the cuts balanced, even, or moved at random within the
 * balanced ones' bounds, with thread 0 alone for one to three groups at
 * random, which tests the handoffs, the published cuts and the times
 * alone under every kind of move) and the sweeps one (each thread whole
 * groups of sweeps) on 1-4 threads against the sweeps schedule on one thread,
 * the serial chase: the band bit for bit (every step runs on the same data
 * with the same aligned scratch whatever the schedule), Hermitian to
 * tridiagonal and general to bidiagonal and to a narrower band, ranges
 * from one step to many, more ranges than a group's steps included. */
static void chase_schedule_checks(void)
{
    group g;
    gbegin(&g, "chase/schedules: split (balanced, even, shaken) and sweeps "
               "on 1-4 threads, bit for bit");
    const lapack_int ns[] = {9, 40, 130, 301}, bs[] = {2, 3, 8, 17};
    for (size_t in = 0; in < sizeof ns / sizeof *ns; in++)
        for (size_t ib = 0; ib < sizeof bs / sizeof *bs; ib++)
            for (int kind = 0; kind < 3; kind++) {
                lapack_int n = ns[in], b = bs[ib], c = kind == 2 ? (b + 1) / 2 : 1;
                if (b >= n || (kind == 2 && c <= 1))
                    continue;
                lapack_int ld = kind == 0 ? 2 * b + 1 : 3 * b + 1;
                size_t sz = (size_t)ld * (size_t)n;
                gl_scalar *src = malloc(sizeof *src * 3 * sz);
                if (!src) {
                    gfail(&g, "n=%d b=%d: no memory", n, b);
                    continue;
                }
                gl_scalar *ref = src + sz, *got = ref + sz;
                for (size_t i = 0; i < sz; i++)
                    src[i] = 0;
                for (lapack_int col = 0; col < n; col++)
                    for (lapack_int k = 0; k <= b && col + k < n; k++) {
                        gl_scalar x = srand_scalar();
                        if (kind == 0)   /* lower band, real diagonal */
                            src[(size_t)k + (size_t)col * ld] =
                                k == 0 ? (gl_scalar)GL_REAL(x) : x;
                        else   /* upper band A(col, col + k) */
                            src[(size_t)(2 * b - k) + (size_t)(col + k) * ld] = x;
                    }
                /* run 0: the serial chase; then per schedule, threads */
                static const struct {
                    int schedule, threads;
                } runs[] = {
                    {GL_SCHEDULE_SWEEPS, 1},   {GL_SCHEDULE_BALANCED, 1},
                    {GL_SCHEDULE_BALANCED, 2}, {GL_SCHEDULE_BALANCED, 3},
                    {GL_SCHEDULE_BALANCED, 4}, {GL_SCHEDULE_SWEEPS, 2},
                    {GL_SCHEDULE_SWEEPS, 3},   {GL_SCHEDULE_SWEEPS, 4},
                    {GL_SCHEDULE_EVEN, 2},     {GL_SCHEDULE_EVEN, 3},
                    {GL_SCHEDULE_SHAKEN, 2},   {GL_SCHEDULE_SHAKEN, 3},
                    {GL_SCHEDULE_SHAKEN, 4}};
                for (size_t run = 0; run < sizeof runs / sizeof *runs; run++) {
                    int threads = runs[run].threads,
                        schedule = runs[run].schedule;
                    gl_scalar *out = run == 0 ? ref : got;
                    memcpy(out, src, sizeof *src * sz);
                    int rc =
                        kind == 0
                            ? GL_FN(host_sb_chase_on)(n, b, n, out, ld, NULL,
                                                      threads, schedule)
                            : GL_FN(host_gb_chase_on)(n, b, c, n, out, ld,
                                                      NULL, threads, schedule);
                    g.cases++;
                    if (rc != 0 ||
                        (run > 0 && memcmp(out, ref, sizeof *out * sz) != 0))
                        gfail(&g, "%s n=%d b=%d c=%d, %s on %d threads: %s",
                              kind == 0 ? "Hermitian" : "general", n, b, c,
                              schedule == GL_SCHEDULE_SWEEPS     ? "sweeps"
                              : schedule == GL_SCHEDULE_BALANCED ? "balanced"
                              : schedule == GL_SCHEDULE_EVEN     ? "even"
                                                                 : "shaken",
                              threads,
                              rc ? "failed" : "not the serial chase's band");
                }
                free(src);
            }
    gend(&g);
}

/* ---- stage 1's products on the library's threads
 * (kernels/backend/host/products.c) -- Each product cut into pieces over 2
 * and 3 threads against the same product whole, on shapes large enough to
 * be cut (the products' threshold: two threads' shares of 8 Mflop): a
 * piece's element is one BLAS call's with the same operands, so the two
 * differ by the order of the sums only.  Ratio: max |got - whole| / (eps
 * k (|alpha| k max|A| max|B| + |beta| max|C|)), k the inner dimension; a
 * piece left out or done twice is off by about max|A| max|B| sqrt(k):
 * ratios of 1 / (eps k^1.5), past 1e3 in single.  The triangles and
 * rows a product must not touch hold NaN (the Hermitian operand's other
 * triangle, her2k's other triangle of C).  Then ge2gb and sy2sb with
 * their products on 1, 2 and 3 threads (a table whose products_begin
 * answers that many, the system BLAS left as it is), their bands' values
 * against the reference's as in the stage checks above. */

static int forced_threads;
static void forced_begin(GL_FN(ops) *run, lapack_int n)
{
    (void)n;
    run->product_threads = forced_threads;
    run->product_team = gl_team_start(forced_threads);
}

static void forced_end(const GL_FN(ops) *run)
{
    gl_team_stop(run->product_team);
}

/* host_table, its products cut over `threads` (0: whole), each loop
 * starting its threads; a stage run on it has a team (forced_begin) */
static GL_FN(ops) products_table(int threads)
{
    GL_FN(ops) t = host_table;
    t.products_begin = forced_begin;
    t.products_end = forced_end;
    t.product_threads = threads;
    t.product_team = NULL;
    return t;
}

/* products_table with the fused passes (GPULAPACK_HOST_PRODUCTS=fused,
 * which ops_bind leaves out by default) */
static GL_FN(ops) fused_table(int threads)
{
    GL_FN(ops) t = products_table(threads);
    t.her2k_hemm_ahead = GL_FN(products_her2k_hemm);
    t.ge_update_ahead = GL_FN(products_ge_update);
    return t;
}

static gl_real max_abs(lapack_int m, lapack_int n, const gl_scalar *a,
                       lapack_int ld)
{
    gl_real big = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < m; i++)
            if (GL_ABS(AT(a, ld, i, j)) > big)
                big = (gl_real)GL_ABS(AT(a, ld, i, j));
    return big;
}

static void fill_random(size_t count, gl_scalar *a)
{
    for (size_t i = 0; i < count; i++)
        a[i] = srand_scalar();
}

/* got against ref (m x n, ld m) within `scale` (the ratio's denominator
 * over eps), and NaN exactly where ref has NaN. */
static void check_product(group *g, const char *desc, lapack_int m,
                          lapack_int n, const gl_scalar *got,
                          const gl_scalar *ref, double scale)
{
    double diff = 0;
    g->cases++;
    for (size_t i = 0; i < (size_t)m * (size_t)n; i++) {
        int nan_ref = isnan(GL_REAL(ref[i])), nan_got = isnan(GL_REAL(got[i]));
        if (nan_ref != nan_got) {
            gfail(g, "%s: element %zu %s", desc, i,
                  nan_ref ? "written where it must not be" : "is NaN");
            return;
        }
        if (!nan_ref && GL_ABS(got[i] - ref[i]) > diff)
            diff = GL_ABS(got[i] - ref[i]);
    }
    double r = diff == 0 ? 0 : diff / (EPS * scale);
    if (r > g->worst)
        g->worst = r;
    if (!(r <= THRESH))
        gfail(g, "%s: ratio %.3g", desc, r);
}

static void gemm_pieces(group *g, char ta, char tb, lapack_int m, lapack_int n,
                        lapack_int k, gl_scalar alpha, gl_scalar beta)
{
    lapack_int ra = ta == 'N' ? m : k, ca = ta == 'N' ? k : m;
    lapack_int rb = tb == 'N' ? k : n, cb = tb == 'N' ? n : k;
    size_t cs = (size_t)m * (size_t)n;
    gl_scalar *a = malloc(sizeof *a * ((size_t)ra * ca + (size_t)rb * cb +
                                       3 * cs));
    gl_scalar *b = a + (size_t)ra * ca, *c0 = b + (size_t)rb * cb,
              *ref = c0 + cs, *got = ref + cs;
    fill_random((size_t)ra * ca + (size_t)rb * cb + cs, a);
    GL_FN(ops) whole = products_table(0);
    memcpy(ref, c0, sizeof *c0 * cs);
    whole.gemm(&whole, ta, tb, m, n, k, alpha, a, ra, b, rb, beta, ref, m);
    double scale = (double)k * ((double)GL_ABS(alpha) * k * max_abs(ra, ca, a, ra) *
                                    max_abs(rb, cb, b, rb) +
                                GL_ABS(beta) * max_abs(m, n, c0, m));
    for (int t = 1; t <= 3; t++) {
        GL_FN(ops) cut = products_table(t);
        memcpy(got, c0, sizeof *c0 * cs);
        cut.gemm(&cut, ta, tb, m, n, k, alpha, a, ra, b, rb, beta, got, m);
        char desc[96];
        snprintf(desc, sizeof desc, "gemm %c%c m=%d n=%d k=%d beta=%g, %d threads",
                 ta, tb, (int)m, (int)n, (int)k, (double)GL_REAL(beta), t);
        check_product(g, desc, m, n, got, ref, scale);
    }
    free(a);
}

/* A Hermitian (order mn, its `uplo` triangle; the other NaN) from the
 * left (m x n C) or the right (n x mn ... ); alpha 1 from the left of a
 * lower triangle: stage 1's X = A S, by the tile kernel (products.c
 * hemm_strips) */
static void hemm_pieces(group *g, char side, char uplo, lapack_int m,
                        lapack_int n, gl_scalar alpha)
{
    lapack_int order = side == 'L' ? m : n;
    size_t as = (size_t)order * order, cs = (size_t)m * n;
    gl_scalar *a = malloc(sizeof *a * (as + 4 * cs));
    gl_scalar *b = a + as, *c0 = b + cs, *ref = c0 + cs, *got = ref + cs;
    gl_scalar beta = make_scalar(0.5, 0);
    fill_random(as + 2 * cs, a);
    for (lapack_int j = 0; j < order; j++) {
        AT(a, order, j, j) = GL_REAL(AT(a, order, j, j));
        for (lapack_int i = 0; i < order; i++)
            if (uplo == 'L' ? i < j : i > j)
                AT(a, order, i, j) = NAN_R;
    }
    GL_FN(ops) whole = products_table(0);
    memcpy(ref, c0, sizeof *c0 * cs);
    whole.hemm(&whole, side, uplo, m, n, alpha, a, order, b, m, beta, ref, m);
    double scale = (double)order * ((double)GL_ABS(alpha) * order * 1.0 *
                                        max_abs(m, n, b, m) +
                                    GL_ABS(beta) * max_abs(m, n, c0, m));
    for (int t = 1; t <= 3; t++) {
        GL_FN(ops) cut = products_table(t);
        memcpy(got, c0, sizeof *c0 * cs);
        cut.hemm(&cut, side, uplo, m, n, alpha, a, order, b, m, beta, got, m);
        char desc[96];
        snprintf(desc, sizeof desc, "hemm %c%c m=%d n=%d, %d threads", side,
                 uplo, (int)m, (int)n, t);
        check_product(g, desc, m, n, got, ref, scale);
    }
    free(a);
}

/* The lookahead (ops.h larfb_ahead, her2k_ahead): the update against the
 * same update whole, and the task, which copies the lines it was given
 * (C's first k rows from the left, columns from the right; her2k's
 * first `ahead` columns) when it runs, finds them final. */
typedef struct lines_copy {
    char dir; /* 'r' rows, 'c' columns */
    lapack_int m, n, count, ld;
    const gl_scalar *c;
    gl_scalar *copy;
    int runs;
} lines_copy;

static int copy_lines(const GL_FN(ops) *o, void *arg)
{
    (void)o;
    lines_copy *l = arg;
    lapack_int rows = l->dir == 'r' ? l->count : l->m,
               cols = l->dir == 'r' ? l->n : l->count;
    for (lapack_int j = 0; j < cols; j++)
        for (lapack_int i = 0; i < rows; i++)
            l->copy[i + (size_t)j * rows] = AT(l->c, l->ld, i, j);
    l->runs++;
    return 0;
}

static void check_lines(group *g, const char *desc, const lines_copy *l)
{
    lapack_int rows = l->dir == 'r' ? l->count : l->m,
               cols = l->dir == 'r' ? l->n : l->count;
    g->cases++;
    if (l->runs != 1) {
        gfail(g, "%s: the task ran %d times", desc, l->runs);
        return;
    }
    for (lapack_int j = 0; j < cols; j++)
        for (lapack_int i = 0; i < rows; i++) {
            gl_scalar x = l->copy[i + (size_t)j * rows],
                      y = AT(l->c, l->ld, i, j);
            if (!(x == y || (isnan(GL_REAL(x)) && isnan(GL_REAL(y))))) {
                gfail(g, "%s: the task saw (%d,%d) before its update", desc,
                      (int)i, (int)j);
                return;
            }
        }
}

/* `ahead` > 0 ('L', 'N'): through the lookahead, its task copying the
 * first `ahead` columns when it runs */
static void her2k_pieces(group *g, char uplo, char trans, lapack_int n,
                         lapack_int k, lapack_int ahead)
{
    lapack_int ra = trans == 'N' ? n : k, ca = trans == 'N' ? k : n;
    size_t as = (size_t)ra * ca, cs = (size_t)n * n;
    gl_scalar *a = malloc(sizeof *a * (2 * as + 4 * cs));
    gl_scalar *b = a + as, *c0 = b + as, *ref = c0 + cs, *got = ref + cs,
              *copy = got + cs;
    gl_scalar alpha = make_scalar(0.5, -0.75);
    gl_real beta = (gl_real)0.25;
    fill_random(2 * as + cs, a);
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++)
            if (uplo == 'L' ? i < j : i > j)
                AT(c0, n, i, j) = NAN_R;
            else if (i == j)
                AT(c0, n, i, j) = GL_REAL(AT(c0, n, i, j));
    GL_FN(ops) whole = products_table(0);
    memcpy(ref, c0, sizeof *c0 * cs);
    whole.her2k(&whole, uplo, trans, n, k, alpha, a, ra, b, ra, beta, ref, n);
    double scale =
        (double)k * (2.0 * GL_ABS(alpha) * k * max_abs(ra, ca, a, ra) *
                         max_abs(ra, ca, b, ra) +
                     beta);
    for (int t = 1; t <= 3; t++) {
        GL_FN(ops) cut = products_table(t);
        memcpy(got, c0, sizeof *c0 * cs);
        lines_copy lines = {.dir = 'c',
                            .m = n,
                            .n = n,
                            .count = ahead,
                            .ld = n,
                            .c = got,
                            .copy = copy};
        char desc[96];
        snprintf(desc, sizeof desc,
                 "her2k %c%c n=%d k=%d ahead=%d, %d threads", uplo, trans,
                 (int)n, (int)k, (int)ahead, t);
        if (ahead > 0) {
            if (GL_FN(ops_her2k_then)(&cut, n, k, alpha, a, n, b, n, beta, got,
                                      n, ahead, copy_lines, &lines) != 0) {
                gfail(g, "%s: failed", desc);
                continue;
            }
            check_lines(g, desc, &lines);
        } else {
            cut.her2k(&cut, uplo, trans, n, k, alpha, a, ra, b, ra, beta, got,
                      n);
        }
        check_product(g, desc, n, n, got, ref, scale);
    }
    free(a);
}

/* sy2sb's update and the next panel's product in one pass (ops.h
 * her2k_hemm_ahead), against her2k, then hemm of the updated
 * C2 = C(ahead:n, ahead:n).  Its task copies C's first `ahead` columns
 * (final by then) and only then writes S, which is NaN before; a slow
 * one (50 ms) leaves the other threads more tiles than they may keep
 * for later (update_product.c DEFERRED).  With x_is_b, X is B's array
 * (read before X is written), else B lies right after A, as sy2sb's W
 * after V.  `fused`: the host's pass must take it
 * (else the backend leaves it to ops_her2k_hemm_then). */
typedef struct s_task {
    lines_copy lines;
    lapack_int rows, cols;
    const gl_scalar *from;
    gl_scalar *s;
    int slow;
} s_task;

static int lines_then_s(const GL_FN(ops) *o, void *arg)
{
    s_task *t = arg;
    if (t->slow)
        nanosleep(&(struct timespec){.tv_nsec = 50000000}, NULL);
    copy_lines(o, &t->lines);
    memcpy(t->s, t->from, sizeof *t->s * (size_t)t->rows * (size_t)t->cols);
    return 0;
}

static void update_product_case(group *g, lapack_int n, lapack_int k,
                                lapack_int ahead, lapack_int ks, int x_is_b,
                                int slow, int fused)
{
    lapack_int p = n - ahead;
    size_t as = (size_t)n * k, cs = (size_t)n * n, ss = (size_t)p * ks;
    gl_scalar *a = malloc(sizeof *a * (2 * as + 4 * cs + 4 * ss));
    gl_scalar *b0 = a + as, *c0 = b0 + as, *ref = c0 + cs, *got = ref + cs,
              *copy = got + cs, *s0 = copy + cs, *s = s0 + ss, *xref = s + ss,
              *xgot = xref + ss;
    gl_scalar *b = malloc(sizeof *b * as);
    fill_random(2 * as + cs, a);
    fill_random(ss, s0);
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++)
            if (i < j)
                AT(c0, n, i, j) = NAN_R;
            else if (i == j)
                AT(c0, n, i, j) = GL_REAL(AT(c0, n, i, j));
    GL_FN(ops) whole = products_table(0);
    memcpy(ref, c0, sizeof *c0 * cs);
    whole.her2k(&whole, 'L', 'N', n, k, -1, a, n, b0, n, 1, ref, n);
    whole.hemm(&whole, 'L', 'L', p, ks, 1, ref + ahead + (size_t)ahead * n, n,
               s0, p, 0, xref, p);
    double scale_c =
        (double)k * (2.0 * k * max_abs(n, k, a, n) * max_abs(n, k, b0, n) + 1);
    double scale_x = (double)p * max_abs(p, ks, s0, p) *
                     (max_abs(n, n, ref, n) + scale_c * EPS);
    for (int t = 1; t <= 3; t++) {
        GL_FN(ops) cut = fused_table(t);
        memcpy(got, c0, sizeof *c0 * cs);
        memcpy(b, b0, sizeof *b * as);
        for (size_t i = 0; i < ss; i++)
            s[i] = NAN_R;
        s_task task = {.lines = {.dir = 'c',
                                 .m = n,
                                 .n = n,
                                 .count = ahead,
                                 .ld = n,
                                 .c = got,
                                 .copy = copy},
                       .rows = p,
                       .cols = ks,
                       .from = s0,
                       .s = s,
                       .slow = slow};
        gl_scalar *x = x_is_b ? b : xgot;
        lapack_int ldx = x_is_b ? n : p;
        char desc[112];
        snprintf(desc, sizeof desc,
                 "her2k_hemm n=%d k=%d ahead=%d ks=%d%s%s, %d threads", (int)n,
                 (int)k, (int)ahead, (int)ks, x_is_b ? " X in B" : "",
                 slow ? " slow task" : "", t);
        /* B right after A (one operand [A B]), or a copy that X takes */
        gl_scalar *bb = x_is_b ? b : b0;
        int rc = cut.her2k_hemm_ahead(&cut, n, k, a, n, bb, n, got, n, ahead,
                                      lines_then_s, &task, ks, s, p, x, ldx);
        if (fused && rc != 0) {
            gfail(g, "%s: the pass did not take it (%d)", desc, rc);
            continue;
        }
        if (rc == 1)
            rc = GL_FN(ops_her2k_hemm_then)(&cut, n, k, a, n, bb, n, got, n,
                                            ahead, lines_then_s, &task, ks, s,
                                            p, x, ldx);
        if (rc != 0) {
            gfail(g, "%s: failed", desc);
            continue;
        }
        check_lines(g, desc, &task.lines);
        check_product(g, desc, n, n, got, ref, scale_c);
        if (x_is_b)
            for (lapack_int j = 0; j < ks; j++)
                memcpy(xgot + (size_t)j * p, b + (size_t)j * n,
                       sizeof *b * (size_t)p);
        check_product(g, desc, p, ks, xgot, xref, scale_x);
    }
    free(a);
    free(b);
}

/* ge2gb's update and the next panel's product in one pass (ops.h
 * ge_update_ahead), against gemm, then the product of the updated C2;
 * the task as update_product_case's, copying C's first `ahead` rows
 * (lines 'R') or columns ('C'). */
static void ge_update_case(group *g, char lines, lapack_int m, lapack_int n,
                           lapack_int k, lapack_int ahead, lapack_int ks,
                           int slow, int fused)
{
    int by_rows = lines == 'R';
    lapack_int zrows = by_rows ? n : m,
               xrows = by_rows ? m - ahead : n - ahead;
    size_t us = (size_t)m * k, ws = (size_t)n * k, cs = (size_t)m * n,
           zs = (size_t)zrows * ks, xs = (size_t)xrows * ks;
    gl_scalar *u = malloc(sizeof *u * (us + ws + 5 * cs + 2 * zs + 3 * xs));
    gl_scalar *w = u + us, *c0 = w + ws, *ref = c0 + cs, *got = ref + cs,
              *copy = got + cs, *z0 = copy + cs, *z = z0 + zs, *xref = z + zs,
              *xgot = xref + xs, *one_c = xgot + xs, *one_x = one_c + cs;
    fill_random(us + ws + cs, u);
    fill_random(zs, z0);
    GL_FN(ops) whole = products_table(0);
    memcpy(ref, c0, sizeof *c0 * cs);
    whole.gemm(&whole, 'N', 'C', m, n, k, -1, u, m, w, n, 1, ref, m);
    if (by_rows)
        whole.gemm(&whole, 'N', 'N', xrows, ks, n, 1, ref + ahead, m, z0,
                   zrows, 0, xref, xrows);
    else
        whole.gemm(&whole, 'C', 'N', xrows, ks, m, 1, ref + (size_t)ahead * m,
                   m, z0, zrows, 0, xref, xrows);
    double scale_c =
        (double)k * (k * max_abs(m, k, u, m) * max_abs(n, k, w, n) + 1);
    lapack_int inner = by_rows ? n : m;
    double scale_x = (double)inner * max_abs(zrows, ks, z0, zrows) *
                     (max_abs(m, n, ref, m) + scale_c * EPS);
    int one_took = 0;
    for (int t = 1; t <= 3; t++) {
        GL_FN(ops) cut = fused_table(t);
        memcpy(got, c0, sizeof *c0 * cs);
        for (size_t i = 0; i < zs; i++)
            z[i] = NAN_R;
        s_task task = {.lines = {.dir = by_rows ? 'r' : 'c',
                                 .m = m,
                                 .n = n,
                                 .count = ahead,
                                 .ld = m,
                                 .c = got,
                                 .copy = copy},
                       .rows = zrows,
                       .cols = ks,
                       .from = z0,
                       .s = z,
                       .slow = slow};
        char desc[112];
        snprintf(desc, sizeof desc,
                 "ge_update %c m=%d n=%d k=%d ahead=%d ks=%d%s, %d threads",
                 lines, (int)m, (int)n, (int)k, (int)ahead, (int)ks,
                 slow ? " slow task" : "", t);
        int rc = cut.ge_update_ahead(&cut, lines, m, n, k, u, m, w, n, got, m,
                                     ahead, lines_then_s, &task, ks, z, zrows,
                                     xgot, xrows);
        if (fused && rc != 0) {
            gfail(g, "%s: the pass did not take it (%d)", desc, rc);
            continue;
        }
        int pass_took = rc == 0;
        if (rc == 1)
            rc = GL_FN(ops_ge_update_then)(&cut, lines, m, n, k, u, m, w, n,
                                           got, m, ahead, lines_then_s, &task,
                                           ks, z, zrows, xgot, xrows);
        if (rc != 0) {
            gfail(g, "%s: failed", desc);
            continue;
        }
        check_lines(g, desc, &task.lines);
        check_product(g, desc, m, n, got, ref, scale_c);
        check_product(g, desc, xrows, ks, xgot, xref, scale_x);
        /* the pass: each tile and each line of X one worker's, in one
         * order whatever the task's timing, so the bits of one thread */
        if (t == 1) {
            one_took = pass_took;
            memcpy(one_c, got, sizeof *got * cs);
            memcpy(one_x, xgot, sizeof *xgot * xs);
        } else if (one_took && pass_took &&
                   (memcmp(one_c, got, sizeof *got * cs) != 0 ||
                    memcmp(one_x, xgot, sizeof *xgot * xs) != 0)) {
            gfail(g, "%s: not the bits of one thread", desc);
        }
    }
    free(u);
}

static void trmm_pieces(group *g, char side, char uplo, char trans, char diag,
                        lapack_int m, lapack_int n)
{
    lapack_int order = side == 'L' ? m : n;
    size_t as = (size_t)order * order, bs = (size_t)m * n;
    gl_scalar *a = malloc(sizeof *a * (as + 3 * bs));
    gl_scalar *b0 = a + as, *ref = b0 + bs, *got = ref + bs;
    gl_scalar alpha = make_scalar(1.5, 0.5);
    fill_random(as + bs, a);
    for (lapack_int j = 0; j < order; j++)
        for (lapack_int i = 0; i < order; i++)
            if (uplo == 'L' ? i < j : i > j)
                AT(a, order, i, j) = NAN_R;
            else if (i == j && diag == 'U')
                AT(a, order, i, j) = NAN_R;
    GL_FN(ops) whole = products_table(0);
    memcpy(ref, b0, sizeof *b0 * bs);
    whole.trmm(&whole, side, uplo, trans, diag, m, n, alpha, a, order, ref, m);
    double scale =
        (double)order * GL_ABS(alpha) * order * max_abs(m, n, b0, m);
    for (int t = 1; t <= 3; t++) {
        GL_FN(ops) cut = products_table(t);
        memcpy(got, b0, sizeof *b0 * bs);
        cut.trmm(&cut, side, uplo, trans, diag, m, n, alpha, a, order, got, m);
        char desc[96];
        snprintf(desc, sizeof desc, "trmm %c%c%c%c m=%d n=%d, %d threads",
                 side, uplo, trans, diag, (int)m, (int)n, t);
        check_product(g, desc, m, n, got, ref, scale);
    }
    free(a);
}

/* H = I - V T V^H of a QR (side L, storev C: V m x k) or LQ (side R,
 * storev R: V k x n) of a random block, on C (m x n); `ahead`: through
 * the lookahead, its task copying C's first k lines when it runs */
static void larfb_pieces(group *g, char side, char trans, lapack_int m,
                         lapack_int n, lapack_int k, int ahead)
{
    lapack_int order = side == 'L' ? m : n;
    size_t vs = (size_t)order * k, cs = (size_t)m * n;
    gl_scalar *v = malloc(sizeof *v * (vs + (size_t)k * k + 4 * cs));
    gl_scalar *t = v + vs, *c0 = t + (size_t)k * k, *ref = c0 + cs,
              *got = ref + cs, *copy = got + cs;
    fill_random(vs + cs, v);
    GL_FN(ops) whole = products_table(0);
    char storev = side == 'L' ? 'C' : 'R';
    lapack_int ldv = side == 'L' ? m : k;
    int rc = side == 'L' ? whole.geqrt(&whole, m, k, v, ldv, t, k)
                         : whole.gelqt(&whole, k, n, v, ldv, t, k);
    memcpy(ref, c0, sizeof *c0 * cs);
    rc |= whole.larfb(&whole, side, trans, storev, m, n, k, v, ldv, t, k, ref,
                      m);
    double scale = (double)order * max_abs(m, n, c0, m);
    for (int th = 1; th <= 3 && rc == 0; th++) {
        GL_FN(ops) cut = products_table(th);
        memcpy(got, c0, sizeof *c0 * cs);
        lines_copy lines = {.dir = side == 'L' ? 'r' : 'c',
                            .m = m,
                            .n = n,
                            .count = k,
                            .ld = m,
                            .c = got,
                            .copy = copy};
        char desc[96];
        snprintf(desc, sizeof desc,
                 "larfb%s %c%c%c m=%d n=%d k=%d, %d threads",
                 ahead ? "_ahead" : "", side, trans, storev, (int)m, (int)n,
                 (int)k, th);
        if ((ahead
                 ? GL_FN(ops_larfb_then)(&cut, side, trans, storev, m, n, k, v,
                                         ldv, t, k, got, m, copy_lines, &lines)
                 : cut.larfb(&cut, side, trans, storev, m, n, k, v, ldv, t, k,
                             got, m)) != 0) {
            gfail(g, "%s: failed", desc);
            continue;
        }
        check_product(g, desc, m, n, got, ref, scale);
        if (ahead)
            check_lines(g, desc, &lines);
    }
    if (rc != 0)
        gfail(g, "larfb %c m=%d n=%d k=%d: the whole reference failed", side,
              (int)m, (int)n, (int)k);
    free(v);
}

static void product_thread_checks(void)
{
    group g;
    gbegin(&g, "products/pieces: 1, 2 and 3 threads against whole");
    const char *ops2 = GL_COMPLEX ? "NCT" : "NT";
    gl_scalar alpha = make_scalar(0.75, 0.5);
    for (const char *ta = ops2; *ta; ta++)
        for (const char *tb = ops2; *tb; tb++) {
            gemm_pieces(&g, *ta, *tb, 1500, 64, 130, alpha, 0);
            gemm_pieces(&g, *ta, *tb, 64, 1500, 130, alpha,
                        make_scalar(-0.5, 0));
            gemm_pieces(&g, *ta, *tb, 48, 40, 6500, alpha,
                        make_scalar(0.25, 0));
        }
    gemm_pieces(&g, 'N', 'N', 48, 40, 6500, alpha, 0);
    /* alpha 1, beta 0 or 1, C narrow: stage 1's products, in strips by
     * the tile kernel (products.c gemm_strips) */
    for (const char *ta = ops2; *ta; ta++) {
        gemm_pieces(&g, *ta, 'N', 1500, 64, 700, 1, 0);
        gemm_pieces(&g, *ta, 'N', 1100, 13, 300, 1, 1);
    }
    for (const char *u = "LU"; *u; u++) {
        hemm_pieces(&g, 'L', *u, 700, 40, make_scalar(-1.25, 0.25));
        hemm_pieces(&g, 'L', *u, 701, 64, 1);
        hemm_pieces(&g, 'L', *u, 1100, 13, 1);
        hemm_pieces(&g, 'R', *u, 300, 260, make_scalar(-1.25, 0.25));
        for (const char *tr = GL_COMPLEX ? "NC" : "NT"; *tr; tr++)
            her2k_pieces(&g, *u, *tr, 560, 40, 0);
        for (const char *tr = ops2; *tr; tr++) {
            trmm_pieces(&g, 'L', *u, *tr, 'N', 400, 200);
            trmm_pieces(&g, 'R', *u, *tr, 'U', 200, 400);
        }
    }
    larfb_pieces(&g, 'L', 'C', 900, 300, 32, 0);
    larfb_pieces(&g, 'R', 'N', 300, 900, 32, 0);
    gend(&g);

    gbegin(
        &g,
        "products/lookahead: the first lines, then the task beside the rest");
    for (const char *tr = "NC"; *tr; tr++) {
        larfb_pieces(&g, 'L', *tr, 900, 300, 32, 1);
        larfb_pieces(&g, 'R', *tr, 300, 900, 32, 1);
        larfb_pieces(&g, 'L', *tr, 300, 300, 32, 1);
    }
    her2k_pieces(&g, 'L', 'N', 560, 40, 40);
    her2k_pieces(&g, 'L', 'N', 560, 40, 1);
    gend(&g);

    /* tiles of 256 (192 in double complex): last tiles of 48, 8 (fewer
     * than the tile kernel's rows) and 18 rows; a short last panel's S
     * and the rank of a double-blocked update; no columns ahead; 21 tiles
     * (28) beside a slow task; and a trailing matrix too small for the
     * pass */
    int vector = GL_FN(tile_gemm_vector)();
    gbegin(&g, "products/update-product: the update and X = C2 S in one "
               "pass, against her2k, then hemm");
    update_product_case(&g, 600, 40, 40, 40, 0, 0, vector);
    update_product_case(&g, 600, 40, 40, 40, 1, 0, vector);
    update_product_case(&g, 560, 96, 40, 7, 0, 0, vector);
    update_product_case(&g, 530, 24, 0, 24, 1, 0, vector);
    update_product_case(&g, 1340, 16, 40, 16, 0, 1, vector);
    update_product_case(&g, 300, 40, 40, 40, 1, 0, 0);
    gend(&g);

    gbegin(&g, "products/ge-update: ge2gb's update and product in one pass, "
               "against gemm, then the product");
    for (const char *l = "RC"; *l; l++) {
        ge_update_case(&g, *l, 600, 570, 40, 40, 40, 0, vector);
        ge_update_case(&g, *l, 1100, 900, 16, 40, 7, 1, vector);
        ge_update_case(&g, *l, 560, 530, 24, 0, 24, 0, vector);
        ge_update_case(&g, *l, 300, 560, 40, 40, 40, 0, 0);
    }
    gend(&g);

    /* the stages on those threads */
    group g1, g2;
    gbegin(&g1, "products/sy2sb: 1, 2 and 3 threads, the passes fused or not");
    gbegin(&g2, "products/ge2gb: 1, 2 and 3 threads, the passes fused or not");
    const GL_FN(ops) *saved = ops;
    GL_FN(ops) table;
    ops = &table;
    lapack_int n = GL_COMPLEX ? 360 : 640, b = GL_COMPLEX ? 24 : 48;
    for (int fused = 0; fused < 2; fused++) {
        table = fused ? fused_table(0) : products_table(0);
        for (forced_threads = 1; forced_threads <= 3; forced_threads++)
            for (kind kd = K_RANDOM; kd <= K_RANK1; kd += K_RANK1 - K_RANDOM) {
                run_sy2sb(&g1, kd, n, b, b);
                run_ge2gb(&g2, kd, n + 7, n, b, b);
            }
    }
    ops = saved;
    gend(&g1);
    gend(&g2);

    /* gpulapack-tune's stage 1 (host_sy2sb_on), which starts and ends its
     * own run of products: each of its runs ends once (a second end
     * freed its team twice and hung the tuner) */
    group g3;
    gbegin(&g3, "products/host_sy2sb_on: gpulapack-tune's stage 1 on 1, 2 "
                "and 3 threads, twice each");
    for (tune_entry_threads = 1; tune_entry_threads <= 3; tune_entry_threads++)
        for (int rep = 0; rep < 2; rep++)
            run_sy2sb(&g3, K_RANDOM, n, b, b);
    tune_entry_threads = 0;
    gend(&g3);
}

/* ---- stage 3 of the values on the host's threads
 * (kernels/backend/host/values.c) -- The bisection against the serial solvers:
 * ?sterf (eigenvalues) and ?bdsqr's dqds (singular values) within THRESH * n
 * ulp |T|, LAPACK's bound for them (each is O(n) ulp |T| off on the graded and
 * clustered spectra below: ?sterf 850 ulp at n = 4000 on the graded one);
 * ?stebz with its tightest ABSTOL (2 * safe minimum; on the Golub-Kahan
 * tridiagonal for the singular values) within THRESH ulp |T|, no n: a
 * bisection of its own, to ulp |T|; and 1, 2 and 3 threads bit for bit
 * (3 on 2 cores included). */

/* Spectra: random; graded diagonal with tiny off-diagonals (clustered);
 * zero off-diagonals with repeated diagonal values (split, multiple);
 * the 1-2-1 Toeplitz; entries of wildly different scales (graded); a
 * Wilkinson W+ (pairs of values agreeing to many digits); one value
 * repeated with off-diagonals 1e-9 (a cluster of n values). */
enum { VALUE_KINDS = 7 };
static void values_input(int kind, lapack_int n, gl_real *d, gl_real *e)
{
    for (lapack_int i = 0; i < n; i++) {
        double x = 0.5 * (urand() + 1), y = 0.5 * (urand() + 1);
        double half = 0.5 * (double)(n - 1);
        d[i] = (gl_real)(kind == 0   ? x - 0.5
                         : kind == 1 ? (double)i / (double)n
                         : kind == 2 ? (double)(i % 3)
                         : kind == 3 ? 2
                         : kind == 4 ? x * pow(10, 12 * y - 6)
                         : kind == 5 ? fabs((double)i - half)
                                     : 1);
        e[i] = (gl_real)(kind == 0   ? y - 0.5
                         : kind == 1 ? 1e-5 * y
                         : kind == 2 ? 0
                         : kind == 3 ? -1
                         : kind == 4 ? y * pow(10, 12 * x - 6)
                         : kind == 5 ? 1
                                     : 1e-9 * (y - 0.5));
    }
}

/* ---- Householder reflectors (kernels/householder.h) ----------------------
 * gl_larfg and gl_nrm2 against the reference ?larfg and ?nrm2: lengths
 * around the unit-stride loops' blocks of eight, unit and stride-2
 * vectors; elements of ordinary size, below safmin (?larfg's rescaling),
 * in the ranges where the norm takes the scaled sum of squares (very small
 * and huge, up to near overflow), mixed, x zero, and a single element near
 * overflow or below safmin anywhere.  Bounds: (n + THRESH) eps, the
 * rounding of a sum of n squares. */
typedef void larfg_t(cint *, gl_scalar *, gl_scalar *, cint *, gl_scalar *);
typedef gl_real nrm2_t(cint *, const gl_scalar *, cint *);

/* |x - ref| / (|ref| eps), the scale of ref at least `floor` */
static double scalar_ratio(gl_scalar x, gl_scalar ref, double floor)
{
    double scale = (double)GL_ABS(ref) > floor ? (double)GL_ABS(ref) : floor;
    double d = (double)GL_ABS(x - ref);
    return d == 0 ? 0 : d / (scale * EPS);
}

static void reflector_case(group *g, larfg_t *ref_larfg, nrm2_t *ref_nrm2,
                           lapack_int n, int size, int step, lapack_int pos)
{
    const gl_real tiny = GL_SAFMIN / 4,
                  small = GL_R(sqrt)(GL_R(sqrt)(GL_SAFMIN)) / 16,
                  huge = 1 / small, top = 1 / (GL_SAFMIN * 64);
    const gl_real scales[] = {1, tiny, small, huge, top};
    gl_scalar x[2 * 128], xr[2 * 128], alpha, alpha_r, tau_r;
    for (lapack_int i = 0; i < (n - 1) * step; i++) {
        gl_real sc = size < 5 ? scales[size] : (i % 3 ? (gl_real)0x1p-40 : 1);
        x[i] = size == 6 || size == 8 ? 0 : sc * srand_scalar();
    }
    /* one element near overflow among ordinary ones, or one below safmin
     * among zeros, at x[pos]: the largest part must be found in every
     * lane of the blocks of eight */
    if (size >= 7)
        x[pos * step] = (size == 7 ? top : tiny) * srand_scalar();
    alpha = (size < 5 ? scales[size] : size == 8 ? tiny : 1) * srand_scalar();
    if (size == 6 && n % 2)
        alpha = GL_REAL(alpha); /* x = 0 and alpha real: H = I */
    memcpy(xr, x, sizeof *x * (size_t)(n - 1) * (size_t)step);
    alpha_r = alpha;
    lapack_int inc = step, m = n - 1;
    gl_scalar tau = gl_larfg(n, &alpha, x, step);
    ref_larfg(&n, &alpha_r, xr, &inc, &tau_r);
    double floor = max_abs(1, m, xr, step); /* x's elements, stride step */
    double rt = scalar_ratio(tau, tau_r, 1);
    double rb = scalar_ratio(alpha, alpha_r, 0);
    double r = rb > rt ? rb : rt;
    for (lapack_int i = 0; i < m; i++) {
        double rv = scalar_ratio(x[i * step], xr[i * step], floor);
        r = rv > r ? rv : r;
    }
    double rn = scalar_ratio(gl_nrm2(m, xr, step), ref_nrm2(&m, xr, &inc), 0);
    r = rn > r ? rn : r;
    g->cases++;
    double ratio = r / (double)(n + THRESH);
    if (ratio > g->worst || isnan(ratio))
        g->worst = ratio;
    if (!(ratio <= 1))
        gfail(g,
              "n %ld, sizes %d, stride %d: %.3g (tau %.3g, beta %.3g, "
              "nrm2 %.3g)",
              (long)n, size, step, ratio, rt, rb, rn);
}

static void reflector_checks(void *lib)
{
    const char *nrm2_name = prec == 's'   ? "snrm2_"
                            : prec == 'd' ? "dnrm2_"
                            : prec == 'c' ? "scnrm2_"
                                          : "dznrm2_";
    larfg_t *ref_larfg = (larfg_t *)dlsym(lib, GL_SYMBOL(larfg, larfg));
    nrm2_t *ref_nrm2 = (nrm2_t *)dlsym(lib, nrm2_name);
    group g;
    gbegin(&g, "householder: gl_larfg, gl_nrm2 against ?larfg, %s", nrm2_name);
    if (!ref_larfg || !ref_nrm2) {
        gfail(&g, "the reference has no ?larfg or %s", nrm2_name);
        g.cases++;
    }
    const lapack_int ns[] = {1, 2, 3, 7, 8, 9, 16, 17, 31, 64, 65, 100, 128};
    for (size_t i = 0; ref_larfg && ref_nrm2 && i < sizeof ns / sizeof *ns;
         i++)
        for (int size = 0; size < 9; size++)
            for (int step = 1; step <= 2; step++) {
                /* sizes 7, 8: every position among the first 16 */
                lapack_int cases = size < 7         ? 3
                                   : ns[i] - 1 < 16 ? ns[i] - 1
                                                    : 16;
                for (lapack_int k = 0; k < cases; k++)
                    reflector_case(&g, ref_larfg, ref_nrm2, ns[i], size, step,
                                   k);
            }
    gend(&g);
}

static void values_thread_checks(void)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    const lapack_int ns[] = {1, 2, 3, 7, 33, 64, 200, 1001};
    group gt, gb, gs;
    gbegin(&gt, "values/tridiagonal against ?sterf, ?stebz, 1-3 threads");
    gbegin(&gb, "values/bidiagonal against ?bdsqr, ?stebz, 1-3 threads");
    gbegin(&gs, "values/host table: the bisection from 32 rows, else the serial solver");
    for (size_t in = 0; in < sizeof ns / sizeof *ns; in++)
        for (int kind = 0; kind < VALUE_KINDS; kind++) {
            lapack_int n = ns[in], n2 = 2 * n, info = 0, m = 0, nsplit = 0;
            size_t nz = (size_t)n2 + 1;
            gl_real *d = malloc(sizeof *d * 16 * nz);
            lapack_int *iwork = malloc(sizeof *iwork * 5 * nz);
            if (!d || !iwork) {
                gfail(&gt, "n=%d: no memory", n);
                free(d), free(iwork);
                continue;
            }
            gl_real *e = d + nz, *w = e + nz, *w2 = w + nz, *ref = w2 + nz,
                    *e2 = ref + nz, *td = e2 + nz, *te = td + nz,
                    *tight = te + nz, *work = tight + nz;
            values_input(kind, n, d, e);
            for (int svd = 0; svd < 2; svd++) {
                group *g = svd ? &gb : &gt;
                double norm = 0;
                for (lapack_int i = 0; i < n; i++)
                    norm = fmax(norm, fabs((double)d[i]) +
                                          (i > 0 ? fabs((double)e[i - 1]) : 0) +
                                          (i + 1 < n ? fabs((double)e[i]) : 0));
                /* the serial solver */
                memcpy(ref, d, sizeof *d * (size_t)n);
                memcpy(e2, e, sizeof *e * (size_t)n);
                lapack_int zero = 0, one = 1;
                if (svd)
                    f->bdsqr("U", &n, &zero, &zero, &zero, ref, e2, NULL, &one,
                             NULL, &one, NULL, &one, work, &info, 1);
                else
                    f->sterf(&n, ref, e2, &info);
                /* ?stebz's bisection to its tightest, on T or on the
                 * Golub-Kahan tridiagonal (its n largest values) */
                lapack_int nt = svd ? n2 : n;
                for (lapack_int i = 0; i < nt; i++) {
                    td[i] = svd ? 0 : d[i];
                    te[i] = svd ? (i % 2 ? (i / 2 + 1 < n ? e[i / 2] : 0)
                                         : d[i / 2])
                                : e[i];
                }
                gl_real vl = 0, vu = 0, abstol = 2 * f->lamch("S", 1);
                lapack_int il = 0, iu = 0, info2 = 0;
                f->stebz("A", "E", &nt, &vl, &vu, &il, &iu, &abstol, td, te,
                         &m, &nsplit, tight, iwork, iwork + nz, work,
                         iwork + 2 * nz, &info2, 1, 1);
                GL_FN(sort_ascending)(tight, (size_t)m);
                double worst = 0, close = 0;
                int same = 1, rc = 0;
                for (int threads = 1; threads <= 3; threads++) {
                    gl_real *out = threads == 1 ? w : w2;
                    rc |= GL_FN(host_values)(svd ? 'B' : 'T', n, d, e, out,
                                             threads);
                    for (lapack_int i = 0; threads > 1 && i < n; i++)
                        same &= memcmp(&w[i], &w2[i], sizeof *w) == 0;
                }
                for (lapack_int i = 0; i < n; i++) {
                    gl_real t = svd ? tight[nt - 1 - i] : tight[i];
                    worst = fmax(worst, fabs((double)w[i] - (double)ref[i]));
                    close = fmax(close, fabs((double)w[i] - (double)t));
                    if (isnan((double)w[i]) ||
                        (i > 0 && (svd ? w[i] > w[i - 1] : w[i] < w[i - 1])) ||
                        (svd && w[i] < 0))
                        worst = INFINITY;   /* out of order */
                }
                double unit = EPS * norm + (sizeof(gl_real) == 4 ? FLT_MIN : DBL_MIN);
                double r1 = worst / unit / (double)n, r2 = close / unit;
                g->cases++;
                g->worst = fmax(g->worst, fmax(r1, r2));
                if (rc || info || info2 || m != nt || !same ||
                    !(r1 <= THRESH) || !(r2 <= THRESH))
                    gfail(g, "n=%d kind=%d: rc %d info %d/%d, %s, "
                          "serial %.3g n ulp, stebz %.3g ulp", n, kind, rc,
                          info, info2, same ? "1-3 threads equal"
                                            : "1-3 threads differ", r1, r2);
            }
            /* the host table: the bisection from 32 rows (the values
             * above, any thread count), the serial solver below */
            for (int svd = 0; svd < 2; svd++) {
                GL_FN(host_values)(svd ? 'B' : 'T', n, d, e, w, 1);
                memcpy(ref, d, sizeof *d * (size_t)n);
                memcpy(e2, e, sizeof *e * (size_t)n);
                lapack_int zero = 0, one = 1;
                if (svd)
                    f->bdsqr("U", &n, &zero, &zero, &zero, ref, e2, NULL, &one,
                             NULL, &one, NULL, &one, work, &info, 1);
                else
                    f->sterf(&n, ref, e2, &info);
                int rc = svd ? ops->bidiag_values(ops, n, d, e, w2)
                             : ops->tridiag_values(ops, n, d, e, w2);
                const gl_real *want =
                    gl_host_values_threads(&ops->ctx->tuning, n) > 0 ? w : ref;
                if (rc || memcmp(w2, want, sizeof *w2 * (size_t)n) != 0)
                    gfail(&gs, "n=%d kind=%d %s: rc %d, not the %s's values", n,
                          kind, svd ? "bidiagonal" : "tridiagonal", rc,
                          want == w ? "bisection" : "serial solver");
            }
            gs.cases++;
            free(d);
            free(iwork);
        }
    gend(&gt);
    gend(&gb);
    gend(&gs);
}

int main(int argc, char **argv)
{
    setenv("GPULAPACK_HOST_THREADS", "4", 0);
    verbose = getenv("TEST_VERBOSE") && atoi(getenv("TEST_VERBOSE")) > 0;
    uint64_t seed;
    const char *s = argc > 1 ? argv[1] : getenv("TEST_SEED");
    if (s && *s)
        seed = strtoull(s, NULL, 0);
    else
        seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    rng_state = seed;
    printf("# test_stages_%c: seed %llu (TEST_SEED=%llu to replay), "
           "GPULAPACK_HOST_THREADS=%s, THRESH %g\n",
           prec, (unsigned long long)seed, (unsigned long long)seed,
           getenv("GPULAPACK_HOST_THREADS"), THRESH);

    void *lib = dlopen(REF_LAPACK, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("FAIL unit/stages/%c: cannot open %s: %s\n", prec, REF_LAPACK,
               dlerror());
        return 0;
    }
    ref_gesvd = (gesvd_t *)dlsym(lib, GL_SYMBOL(gesvd, gesvd));
    ref_heev = (heev_t *)dlsym(lib, GL_SYMBOL(syev, heev));
    host_ctx = gl_ctx_acquire(GL_PATH_HOST, -1);
    if (host_ctx && GL_FN(ops_bind)(&host_table, host_ctx) == 0)
        ops = &host_table;
    if (!ref_gesvd || !ref_heev || !ops) {
        printf("FAIL unit/stages/%c: setup: gesvd %p, heev %p, host ops %p\n",
               prec, (void *)ref_gesvd, (void *)ref_heev, (const void *)ops);
        gl_ctx_release(host_ctx);
        return 0;
    }

    double t0 = (double)clock();
    struct timespec w0, w1;
    clock_gettime(CLOCK_MONOTONIC, &w0);
    stage_checks(K_RANDOM);
    reflector_checks(lib);
    chase_pass_checks();
    values_thread_checks();
    chase_schedule_checks();
    product_thread_checks();
    apply_panels_checks();
    for (kind kd = K_ZERO; kd <= K_ZEROCOL; kd++)
        stage_checks(kd);
    if (xerbla_calls)
        printf("FAIL unit/stages/%c/reference: %d xerbla calls\n", prec,
               xerbla_calls);
    clock_gettime(CLOCK_MONOTONIC, &w1);
    printf("# test_stages_%c: %d groups failed, %.1f s wall, %.1f s cpu\n",
           prec, groups_failed,
           (double)(w1.tv_sec - w0.tv_sec) +
               1e-9 * (double)(w1.tv_nsec - w0.tv_nsec),
           ((double)clock() - t0) / CLOCKS_PER_SEC);
    gl_ctx_release(host_ctx);
    return 0;
}
