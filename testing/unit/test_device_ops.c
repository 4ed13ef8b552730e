/* Every operation of a GPU backend against the host backend on the same
 * input, one precision per binary (template: -DGL_PRECISION=1..4 ->
 * build/testing/test_device_ops_{s,d,c,z}), linked against the library's
 * internals (lib/libgpulapack.a).  The runtime and device are the ones
 * GPULAPACK_DEVICE names (cuda[:i], hip[:i], opencl[:p.d]; default: the
 * best OpenCL device of any type, PoCL on CI).
 *
 * The two backends run the same algorithms (the host's panels and BLAS3
 * are LAPACK/BLAS, the device's are kernels/device/), so they agree to
 * rounding: each check is max |dev - host| / (eps * scale), scale the
 * largest |entry| of the input (of the band for the chases), and must be
 * <= THRESH * n for the n of the operation (the same backward-error
 * argument as test_stages.c: every operation is O(n) unitary updates or
 * sums of n products).  A wrong index, a missed barrier or a wrong
 * conjugation gives O(1) errors: ratios of 1/eps.  The panel
 * factorizations are the exception: the factors of two algorithms differ
 * by up to cond(A) eps, so the device's are checked by their backward
 * error (A rebuilt from them on the host), and ?larfb gets the same
 * V and T on both backends.
 *
 * Sizes are odd and not multiples of the 16 x 16 tiles; band widths run
 * 1..64; leading dimensions are larger than the rows.  Output: one
 * "PASS/FAIL name (cases, worst ratio)" line per operation.  TEST_SEED
 * replays a run. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "precision.h"
#include "entry.h"
#include "../kernels/pipelines/pipelines.h"
#include "../runtime/device.h"
#include "../runtime/config.h"
#include "../runtime/fault.h"
#include "../runtime/gpu.h"
#include "../runtime/tune.h"

#if GL_PRECISION == 1 || GL_PRECISION == 3
#define EPS ((double)FLT_EPSILON)
#else
#define EPS DBL_EPSILON
#endif
#define THRESH 10.0

/* the two backends' tables, each bound to its context */
static const GL_FN(ops) *host, *dev;
static GL_FN(ops) host_table, dev_table;
static gl_ctx *host_ctx, *dev_ctx;
static const gl_gpu *gpu;
static int failures;

/* one check group */
typedef struct group {
    const char *name;
    int cases, failed;
    double worst;
    char first[160];
} group;

static void check(group *g, double ratio, double limit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void check(group *g, double ratio, double limit, const char *fmt, ...)
{
    g->cases++;
    if (ratio > g->worst || isnan(ratio))
        g->worst = ratio;
    if (ratio <= limit)
        return;
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (g->failed++ == 0)
        snprintf(g->first, sizeof g->first, "%s", what);
    if (getenv("TEST_VERBOSE"))
        printf("# failed: %s (ratio %.3g)\n", what, ratio);
}

static void report(group *g)
{
    if (g->failed) {
        failures++;
        printf("FAIL %c %s: %d of %d cases; first: %s (ratio %.3g)\n",
               GL_PREC_CHAR, g->name, g->failed, g->cases, g->first, g->worst);
    } else {
        printf("PASS %c %s (%d cases, worst ratio %.3g)\n", GL_PREC_CHAR,
               g->name, g->cases, g->worst);
    }
}

static double urand(void) { return rand() / (double)RAND_MAX - 0.5; }

/* urand's range from a generator of the caller's own (a 64-bit LCG), for
 * inputs that must not depend on TEST_SEED or on the tests run before */
static double lcg_urand(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) / 9007199254740992.0 - 0.5;
}

static void fill(gl_scalar *a, size_t count)
{
    for (size_t i = 0; i < count; i++) {
#if GL_COMPLEX
        a[i] = (gl_real)urand() + (gl_real)urand() * I;
#else
        a[i] = (gl_real)urand();
#endif
    }
}

static double maxabs(const gl_scalar *a, size_t count)
{
    double m = 0;
    for (size_t i = 0; i < count; i++)
        m = fmax(m, (double)GL_ABS(a[i]));
    return m;
}

/* max |x - y| / (eps * scale) over rows x cols with leading dimension ld */
static double ratio(lapack_int rows, lapack_int cols, const gl_scalar *x,
                    const gl_scalar *y, lapack_int ld, double scale)
{
    double m = 0;
    for (lapack_int j = 0; j < cols; j++)
        for (lapack_int i = 0; i < rows; i++) {
            double d = GL_ABS(x[i + (size_t)j * ld] - y[i + (size_t)j * ld]);
            if (isnan(d))
                return INFINITY;
            m = fmax(m, d);
        }
    return m / (EPS * (scale > 0 ? scale : 1));
}

/* A device copy of a host matrix (rows x cols, ld). */
static gl_scalar *upload(const gl_scalar *h, lapack_int cols, lapack_int ld)
{
    gl_scalar *d = dev->alloc(dev, sizeof *d * (size_t)ld * (size_t)cols);
    if (d)
        dev->from_host(dev, 'N', ld, cols, h, ld, d, ld);
    return d;
}

static int download(gl_scalar *h, const gl_scalar *d, lapack_int rows,
                    lapack_int cols, lapack_int ld)
{
    return dev->to_host(dev, rows, cols, d, ld, h, ld);
}

/* ---- copies, scaling, packing ---- */

static void test_copies(void)
{
    group g = {.name = "copies (from_host N/C, copy, to_host, lascl)"};
    const lapack_int sizes[][2] = {{1, 1}, {17, 5}, {33, 40}, {70, 3}};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        lapack_int m = sizes[t][0], n = sizes[t][1], ld = m + 3, ldt = n + 2;
        gl_scalar *a = malloc(sizeof *a * (size_t)ld * n);
        gl_scalar *h = malloc(sizeof *h * ((size_t)ldt * m * 2 + (size_t)ld * n));
        gl_scalar *d = dev->alloc(dev, sizeof *d * (size_t)ld * n);
        gl_scalar *dt = dev->alloc(dev, sizeof *dt * (size_t)ldt * m);
        fill(a, (size_t)ld * n);
        fill(h, (size_t)ldt * m * 2 + (size_t)ld * n);
        gl_scalar *ht = h + (size_t)ld * n, *ref = ht + (size_t)ldt * m;
        dev->from_host(dev, 'N', m, n, a, ld, d, ld);
        dev->from_host(dev, 'C', m, n, a, ld, dt, ldt);
        host->from_host(host, 'C', m, n, a, ld, ref, ldt);
        int rc = download(h, d, m, n, ld) | download(ht, dt, n, m, ldt);
        check(&g, rc ? INFINITY : ratio(m, n, h, a, ld, 1), 0,
              "from_host N %dx%d", m, n);
        check(&g, rc ? INFINITY : ratio(n, m, ht, ref, ldt, 1), 0,
              "from_host C %dx%d", m, n);
        /* copy into another buffer at an offset */
        gl_scalar *d2 = dev->alloc(dev, sizeof *d2 * ((size_t)ld * n + 1));
        dev->copy(dev, m, n, d, ld, d2 + 1, ld);
        rc = download(h, d2 + 1, m, n, ld);
        check(&g, rc ? INFINITY : ratio(m, n, h, a, ld, 1), 0, "copy %dx%d",
              m, n);
        dev->release(dev, d2);
        /* copies within one allocation, as between the pieces of an arena
         * (kernels/arena.h): to a packed matrix (ld m) past the matrix, to
         * a second packed one, and back to leading dimension ld */
        size_t lm = (size_t)ld * n, mn = (size_t)m * n;
        gl_scalar *d3 = dev->alloc(dev, sizeof *d3 * (2 * lm + 2 * mn + 2));
        gl_scalar *p1 = d3 + lm, *p2 = p1 + mn + 1, *q = p2 + mn + 1;
        dev->from_host(dev, 'N', m, n, a, ld, d3, ld);
        dev->copy(dev, m, n, d3, ld, p1, m);
        dev->copy(dev, m, n, p1, m, p2, m);
        dev->copy(dev, m, n, p2, m, q, ld);
        rc = download(h, q, m, n, ld);
        check(&g, rc ? INFINITY : ratio(m, n, h, a, ld, 1), 0,
              "copy within one allocation %dx%d", m, n);
        dev->release(dev, d3);
        /* lascl by a factor that takes several steps */
        gl_real big = (gl_real)0x1p40, small = (gl_real)0x1p-40;
        rc = dev->lascl(dev, small, big, m, n, d, ld) |
             host->lascl(host, small, big, m, n, a, ld) | download(h, d, m, n, ld);
        check(&g, rc ? INFINITY : ratio(m, n, h, a, ld, maxabs(a, (size_t)ld * n)),
              4, "lascl %dx%d", m, n);
        dev->release(dev, d);
        dev->release(dev, dt);
        free(a);
        free(h);
    }
    report(&g);
}

static void test_pack_band(void)
{
    group g = {.name = "pack_band G/H, zero_lower, unpack_v"};
    const lapack_int ns[] = {1, 2, 7, 37};
    const lapack_int bs[] = {1, 3, 16};
    for (size_t in = 0; in < 4; in++)
        for (size_t ib = 0; ib < 3; ib++) {
            lapack_int n = ns[in], b = bs[ib], lda = n + 1;
            for (int herm = 0; herm < 2; herm++) {
                lapack_int ldb = herm ? 2 * b + 1 : 3 * b + 1;
                gl_scalar *a = malloc(sizeof *a * (size_t)lda * n);
                gl_scalar *ref = malloc(sizeof *ref * (size_t)ldb * n);
                gl_scalar *out = malloc(sizeof *out * (size_t)(ldb > lda ? ldb : lda) * n);
                fill(a, (size_t)lda * n);
                gl_scalar *da = upload(a, n, lda);
                gl_scalar *db = dev->alloc(dev, sizeof *db * (size_t)ldb * n);
                host->pack_band(host, herm ? 'H' : 'G', n, b, a, lda, ref, ldb);
                dev->pack_band(dev, herm ? 'H' : 'G', n, b, da, lda, db, ldb);
                int rc = download(out, db, ldb, n, ldb);
                check(&g, rc ? INFINITY : ratio(ldb, n, out, ref, ldb, 1), 0,
                      "pack_band %c n=%d b=%d", herm ? 'H' : 'G', n, b);
                /* zero_lower and unpack_v of the same matrix */
                gl_scalar *dv = dev->alloc(dev, sizeof *dv * (size_t)lda * n);
                gl_scalar *hv = malloc(sizeof *hv * (size_t)lda * n * 2);
                fill(hv, (size_t)lda * n * 2);
                for (int rows = 0; rows < 2; rows++) {
                    char storev = rows ? 'R' : 'C';
                    host->unpack_v(host, storev, n, herm ? n : 1, a, lda, hv, lda);
                    dev->unpack_v(dev, storev, n, herm ? n : 1, da, lda, dv, lda);
                    rc = download(hv + (size_t)lda * n, dv, n, herm ? n : 1,
                                  lda);
                    check(&g, rc ? INFINITY : ratio(n, herm ? n : 1, hv + (size_t)lda * n, hv, lda, 1), 0,
                          "unpack_v %c n=%d", storev, n);
                }
                host->zero_lower(host, n, n, a, lda);
                dev->zero_lower(dev, n, n, da, lda);
                rc = download(out, da, n, n, lda);
                check(&g, rc ? INFINITY : ratio(n, n, out, a, lda, 1), 0,
                      "zero_lower n=%d", n);
                dev->release(dev, da);
                dev->release(dev, db);
                dev->release(dev, dv);
                free(a);
                free(ref);
                free(out);
                free(hv);
            }
        }
    report(&g);
}

/* ---- panels and block reflectors ---- */

/* max over the columns (rowwise: rows) j of |X(:, j) - Y(:, j)|_max /
 * (eps |Y(:, j)|_2): Householder QR (LQ) is backward stable column by
 * column (row by row), so a tiny column is checked at its own scale. */
static double line_ratio(int rowwise, lapack_int rows, lapack_int cols,
                         const gl_scalar *x, const gl_scalar *y, lapack_int ld)
{
    double worst = 0;
    for (lapack_int j = 0; j < (rowwise ? rows : cols); j++) {
        double d = 0, norm = 0;
        for (lapack_int i = 0; i < (rowwise ? cols : rows); i++) {
            size_t at = rowwise ? (size_t)j + (size_t)i * ld : (size_t)i + (size_t)j * ld;
            d = fmax(d, GL_ABS(x[at] - y[at]));
            norm = hypot(norm, GL_ABS(y[at]));
            if (isnan(d))
                return INFINITY;
        }
        worst = fmax(worst, norm > 0 ? d / (EPS * norm) : d > 0 ? INFINITY : 0);
    }
    return worst;
}

static void test_panels(void)
{
    group g = {.name = "geqrt, gelqt (tiny, zero, huge reflectors), larfb (L/R, N/C, C/R), geqrf"};
    /* widths above 16 take the recursive panels of gpu_panels.c; the first
     * reflector of the "tiny" variant is below ?larfg's safmin (it
     * rescales), the second is of zeros (tau = 0), the third's squares
     * overflow */
    const gl_real tiny = sizeof(gl_real) == sizeof(float) ? 1e-33f : 1e-300,
                  huge = sizeof(gl_real) == sizeof(float) ? 1e20f : 1e200;
    const lapack_int shapes[][2] = {{1, 1}, {5, 5}, {37, 7}, {64, 16},
                                    {100, 33}, {19, 1}, {17, 17}, {301, 64}};
    for (size_t t = 0; t < 2 * sizeof shapes / sizeof *shapes; t++) {
        int tiny_variant = t >= sizeof shapes / sizeof *shapes;
        lapack_int m = shapes[t % (sizeof shapes / sizeof *shapes)][0],
                   k = shapes[t % (sizeof shapes / sizeof *shapes)][1],
                   lda = m + 2, ldt = k + 1;
        if (tiny_variant && m < 3)
            continue;
        for (int rowwise = 0; rowwise < 2; rowwise++) {
            /* the panel: m x k (QR) or k x m (LQ) */
            lapack_int pr = rowwise ? k : m, pc = rowwise ? m : k;
            lapack_int ldp = pr + 2;
            gl_scalar *a = malloc(sizeof *a * (size_t)ldp * pc * 2);
            gl_scalar *t1 = calloc((size_t)ldt * k, sizeof *t1);
            gl_scalar *out = a + (size_t)ldp * pc;
            fill(a, (size_t)ldp * pc);
            for (lapack_int i = 0; tiny_variant && i < m; i++) {
                size_t first = rowwise ? (size_t)i * ldp : (size_t)i,
                       line = rowwise ? 1 : (size_t)ldp;
                a[first] *= tiny;
                if (k > 1)
                    a[first + line] = 0;
                if (k > 2)
                    a[first + 2 * line] *= huge;
            }
            gl_scalar *da = upload(a, pc, ldp);
            gl_scalar *dt = dev->alloc(dev, sizeof *dt * (size_t)ldt * k);
            /* The factors of two algorithms differ by up to cond(A) eps,
             * so the device's are checked by their backward error: Q R
             * (L Q) rebuilt on the host from them must give A. */
            int rc = (rowwise ? dev->gelqt(dev, pr, pc, da, ldp, dt, ldt)
                              : dev->geqrt(dev, pr, pc, da, ldp, dt, ldt)) |
                     download(out, da, pr, pc, ldp) |
                     dev->to_host(dev, k, k, dt, ldt, t1, ldt);
            gl_scalar *x = malloc(sizeof *x * (size_t)ldp * pc);
            for (lapack_int j = 0; j < pc; j++)
                for (lapack_int i = 0; i < pr; i++) {
                    int kept = rowwise ? i >= j : i <= j;   /* L or R */
                    x[i + (size_t)j * ldp] = kept ? out[i + (size_t)j * ldp] : 0;
                }
            rc |= rowwise ? host->larfb(host, 'R', 'C', 'R', pr, pc, k, out, ldp,
                                        t1, ldt, x, ldp)
                          : host->larfb(host, 'L', 'N', 'C', pr, pc, k, out, ldp,
                                        t1, ldt, x, ldp);
            check(&g, rc ? INFINITY : line_ratio(rowwise, pr, pc, x, a, ldp), THRESH * m,
                  "%s %dx%d%s: A - factors", rowwise ? "gelqt" : "geqrt", pr, pc,
                  tiny_variant ? " tiny" : "");
            free(x);

            /* the block reflector on C from both sides, both ways, with the
             * same V and T on both backends */
            for (int side = 0; side < 2; side++)
                for (int tr2 = 0; tr2 < 2; tr2++) {
                    lapack_int cm = side ? 9 : m, cn = side ? m : 11,
                               ldc = cm + 1;
                    gl_scalar *c = malloc(sizeof *c * (size_t)ldc * cn * 2);
                    gl_scalar *cout = c + (size_t)ldc * cn;
                    fill(c, (size_t)ldc * cn);
                    gl_scalar *dc = upload(c, cn, ldc);
                    char sd = side ? 'R' : 'L', tc = tr2 ? 'C' : 'N',
                         sv = rowwise ? 'R' : 'C';
                    rc = dev->larfb(dev, sd, tc, sv, cm, cn, k, da, ldp, dt, ldt,
                                    dc, ldc) |
                         host->larfb(host, sd, tc, sv, cm, cn, k, out, ldp, t1, ldt,
                                     c, ldc) |
                         download(cout, dc, cm, cn, ldc);
                    check(&g, rc ? INFINITY : ratio(cm, cn, cout, c, ldc, 1),
                          THRESH * m, "larfb %c%c%c m=%d n=%d k=%d", sd, tc,
                          sv, cm, cn, k);
                    dev->release(dev, dc);
                    free(c);
                }
            dev->release(dev, da);
            dev->release(dev, dt);
            free(a);
            free(t1);
        }
        if (tiny_variant)
            continue;
        /* geqrf: R of a tall matrix */
        lapack_int n = k;
        gl_scalar *a = malloc(sizeof *a * (size_t)lda * n * 2);
        gl_scalar *out = a + (size_t)lda * n;
        fill(a, (size_t)lda * n);
        gl_scalar *da = upload(a, n, lda);
        int rc = dev->geqrf(dev, m, n, da, lda) | download(out, da, m, n, lda);
        /* R^H R = A^H A to rounding (Householder QR is backward stable;
         * R itself differs between algorithms by up to cond(A) eps) */
        double r = 0, scale = maxabs(a, (size_t)lda * n);
        for (lapack_int j = 0; j < n; j++)
            for (lapack_int i = 0; i < n; i++) {
                gl_scalar rr = 0, aa = 0;
                for (lapack_int p = 0; p <= i && p <= j && p < m; p++)
                    rr += GL_CONJ(out[p + (size_t)i * lda]) * out[p + (size_t)j * lda];
                for (lapack_int p = 0; p < m; p++)
                    aa += GL_CONJ(a[p + (size_t)i * lda]) * a[p + (size_t)j * lda];
                r = fmax(r, GL_ABS(rr - aa) / (EPS * scale * scale * m));
            }
        check(&g, rc ? INFINITY : r, THRESH, "geqrf %dx%d: R^H R - A^H A", m, n);
        dev->release(dev, da);
        free(a);
    }
    report(&g);
}

/* ---- BLAS3 ---- */

static void test_blas3(void)
{
    group g = {.name = "gemm (N/T/C), hemm, hemv, her2k, trmm, apply_wy"};
    /* 600: the host's ?hemm from the left goes by panels of 256 */
    const lapack_int dims[][3] = {{1, 1, 1}, {17, 5, 33}, {40, 21, 3},
                                  {16, 16, 16}, {600, 7, 3}};
    const char tr[] = "NTC";
    for (size_t t = 0; t < sizeof dims / sizeof dims[0]; t++) {
        lapack_int m = dims[t][0], n = dims[t][1], k = dims[t][2];
        lapack_int ld = (m > k ? m : k) + (n > k ? n : k) + 1;
        size_t sz = (size_t)ld * ld;
        gl_scalar *a = malloc(sizeof *a * sz * 5);
        gl_scalar *b = a + sz, *c = b + sz, *c2 = c + sz, *out = c2 + sz;
        fill(a, sz * 4);
        gl_scalar *da = upload(a, ld, ld), *db = upload(b, ld, ld);
        gl_scalar alpha = (gl_real)0.7, beta = (gl_real)-1.3;
#if GL_COMPLEX
        alpha += (gl_real)0.2 * I;
#endif
        for (int ta = 0; ta < 3; ta++)
            for (int tb = 0; tb < 3; tb++) {
                memcpy(c2, c, sizeof *c * sz);
                gl_scalar *dc = upload(c, ld, ld);
                dev->gemm(dev, tr[ta], tr[tb], m, n, k, alpha, da, ld, db, ld, beta,
                          dc, ld);
                host->gemm(host, tr[ta], tr[tb], m, n, k, alpha, a, ld, b, ld, beta,
                           c2, ld);
                int rc = download(out, dc, ld, ld, ld);
                check(&g, rc ? INFINITY : ratio(ld, ld, out, c2, ld, 1), THRESH * k,
                      "gemm %c%c %dx%dx%d", tr[ta], tr[tb], m, n, k);
                dev->release(dev, dc);
            }
        for (int side = 0; side < 2; side++)
            for (int up = 0; up < 2; up++) {
                char sd = side ? 'R' : 'L', ul = up ? 'U' : 'L';
                memcpy(c2, c, sizeof *c * sz);
                gl_scalar *dc = upload(c, ld, ld);
                dev->hemm(dev, sd, ul, m, n, alpha, da, ld, db, ld, beta, dc, ld);
                host->hemm(host, sd, ul, m, n, alpha, a, ld, b, ld, beta, c2, ld);
                int rc = download(out, dc, ld, ld, ld);
                check(&g, rc ? INFINITY : ratio(ld, ld, out, c2, ld, 1),
                      THRESH * (m + n), "hemm %c%c %dx%d", sd, ul, m, n);
                dev->release(dev, dc);
                if (side == 0) {   /* hemv: x, y the first columns */
                    memcpy(c2, c, sizeof *c * sz);
                    dc = upload(c, ld, ld);
                    dev->hemv(dev, ul, m, alpha, da, ld, db, beta, dc);
                    host->hemv(host, ul, m, alpha, a, ld, b, beta, c2);
                    rc = download(out, dc, ld, ld, ld);
                    check(&g, rc ? INFINITY : ratio(ld, ld, out, c2, ld, 1),
                          THRESH * m, "hemv %c %d", ul, m);
                    dev->release(dev, dc);
                }
                for (int tt = 0; tt < 3; tt += 2) {
                    for (int unit = 0; unit < 2; unit++) {
                        memcpy(c2, c, sizeof *c * sz);
                        dc = upload(c, ld, ld);
                        char dg = unit ? 'U' : 'N';
                        dev->trmm(dev, sd, ul, tr[tt], dg, m, n, alpha, da, ld, dc, ld);
                        host->trmm(host, sd, ul, tr[tt], dg, m, n, alpha, a, ld, c2, ld);
                        rc = download(out, dc, ld, ld, ld);
                        check(&g, rc ? INFINITY : ratio(ld, ld, out, c2, ld, 1),
                              THRESH * (m + n), "trmm %c%c%c%c %dx%d", sd, ul,
                              tr[tt], dg, m, n);
                        dev->release(dev, dc);
                    }
                }
                char t2 = side ? 'C' : 'N';
                memcpy(c2, c, sizeof *c * sz);
                dc = upload(c, ld, ld);
                dev->her2k(dev, ul, t2, n, k, alpha, da, ld, db, ld, (gl_real)0.5, dc, ld);
                host->her2k(host, ul, t2, n, k, alpha, a, ld, b, ld, (gl_real)0.5, c2, ld);
                rc = download(out, dc, ld, ld, ld);
                check(&g, rc ? INFINITY : ratio(ld, ld, out, c2, ld, 1), THRESH * k,
                      "her2k %c%c n=%d k=%d", ul, t2, n, k);
                dev->release(dev, dc);
            }
        /* GPULAPACK_CLBLAST=1: the plain GEMMs above went to CLBlast */
        const char *clblast = getenv("GPULAPACK_CLBLAST");
        if (t == 0 && clblast && atoi(clblast) > 0) {
            gl_scalar one = 1, zero = 0;
            check(&g, gpu->blas_gemm(dev_ctx, GL_PRECISION, 0, 0, 1, 1, 1, &one,
                                     da, ld, db, ld, &zero, da, ld) == 0 ? 0 : INFINITY,
                  0, "GPULAPACK_CLBLAST=1 but CLBlast did not run");
        }
        /* apply_wy: three overlapping blocks; then four on disjoint rows
         * equally spaced (a run, one batched product pair on a device),
         * one overlapping them and one of another shape.  V(r, c) = 0 for
         * r < c as the contract has it, the band (m + 1) covers every row
         * below, Y dense. */
        lapack_int q = m / 4, kq = k < q ? k : q;
        for (int layout = 0; layout < (q >= 2 ? 2 : 1); layout++) {
            enum { MAXB = 6 };
            lapack_int nb = layout ? 6 : 3;
            lapack_int row0[MAXB] = {0, 2, 3}, rows[MAXB] = {m, m - 2, 1},
                       kk[MAXB] = {k < m ? k : m, 1, 1};
            if (layout)
                for (lapack_int i = 0; i < nb; i++) {
                    row0[i] = i < 4 ? i * q : i - 3;
                    rows[i] = i < 5 ? q : q - 1;
                    kk[i] = i < 5 ? kq : 1;
                }
            size_t stride = (size_t)ld * (k + 1);
            gl_scalar *vy = malloc(sizeof *vy * stride * 2 * MAXB);
            fill(vy, stride * 2 * MAXB);
            for (lapack_int i = 0; i < nb; i++) {
                if (rows[i] < 0)
                    rows[i] = 0;
                if (row0[i] + rows[i] > m)
                    rows[i] = m - row0[i] > 0 ? m - row0[i] : 0;
                for (lapack_int c = 0; c < kk[i]; c++)   /* V^H(c, r), ld k */
                    for (lapack_int r = 0; r < c && r < rows[i]; r++)
                        vy[i * stride + c + (size_t)r * kk[i]] = 0;
            }
            gl_scalar *dvy = upload(vy, 2 * MAXB, (lapack_int)stride);
            memcpy(c2, c, sizeof *c * sz);
            gl_scalar *dc = upload(c, ld, ld);
            int rc = dev->apply_wy(dev, nb, row0, rows, kk, dvy, dvy + nb * stride,
                                   ld, stride, m + 1, 0, n, dc, ld) |
                     host->apply_wy(host, nb, row0, rows, kk, vy, vy + nb * stride,
                                    ld, stride, m + 1, 0, n, c2, ld) |
                     download(out, dc, ld, ld, ld);
            check(&g, rc ? INFINITY : ratio(ld, ld, out, c2, ld, 1),
                  THRESH * (m + k), "apply_wy %dx%d k=%d, %d blocks", m, n, k,
                  nb);
            dev->release(dev, dc);
            dev->release(dev, dvy);
            free(vy);
        }
        dev->release(dev, da);
        dev->release(dev, db);
        free(a);
    }
    report(&g);
}

/* ---- stage 2 ----
 * The chase's result is not compared element by element: the reduction
 * is backward stable but its entries are as sensitive as a Lanczos run
 * (two correct implementations differ by far more than n eps in them).
 * What is compared is what the pipelines use: the values of the result
 * (finished to bidiagonal/tridiagonal by the host chase, through ?bdsqr
 * or ?sterf), and with reflectors, the reconstruction B0 = Q B1 P^H (or
 * Q T Q^H) by the device's apply_chase from the device's store. */

#include "../kernels/backend/lapack_fns.h"

/* The values (singular values of a gb band, eigenvalues of an sb band)
 * of a packed band of half-width b, chased to 1 on the host. */
static int band_values(int herm, lapack_int n, lapack_int b, gl_scalar *band,
                       lapack_int ld, gl_real *values)
{
    gl_scalar *de = malloc(sizeof *de * 2 * (size_t)n);
    gl_real *e = malloc(sizeof *e * (size_t)n * 5 + 1);
    int rc = !de || !e;
    if (!rc)
        rc = herm ? host->sb_chase(host, n, b, n, band, ld, NULL)
                  : host->gb_chase(host, n, b, 1, n, band, ld, NULL);
    if (!rc)
        rc = GL_FN(band_to_de)(host, herm ? 'H' : 'G', n, b, band, ld, de,
                               values, e);
    lapack_int info = 0, zero = 0, one = 1;
    if (!rc && herm)
        GL_FN(lapack_fns_get)()->sterf(&n, values, e, &info);
    else if (!rc)
        GL_FN(lapack_fns_get)()->bdsqr("U", &n, &zero, &zero, &zero, values,
                                       e, NULL, &one, NULL, &one, NULL, &one,
                                       e + n, &info, 1);
    free(de);
    free(e);
    return rc || info;
}

/* The dense matrix of a packed band (gb: upper band at up = (ld-1)/3*2;
 * sb: Hermitian from its lower band). */
static void band_dense(int herm, lapack_int n, const gl_scalar *band,
                       lapack_int ld, gl_scalar *a)
{
    lapack_int up = herm ? 0 : (ld - 1) / 3 * 2;
    memset(a, 0, sizeof *a * (size_t)n * n);
    for (lapack_int c = 0; c < n; c++)
        for (lapack_int k = 0; k < ld; k++) {
            lapack_int r = c + k - up;
            if (r < 0 || r >= n || (herm && k > (ld - 1) / 2))
                continue;
            gl_scalar x = band[k + (size_t)c * ld];
            a[r + (size_t)c * n] = x;
            if (herm && r != c)
                a[c + (size_t)r * n] = GL_CONJ(x);
        }
}

/* E := Q E (which 'Q') or P E ('P') on backend ops for the Q (P) of a
 * chase in count segments: segment k's store keeps[k] acts on rows
 * offs[k].. of E, the last segment first. */
static int apply_segments(const GL_FN(ops) *ops, const GL_FN(reflectors) *keeps,
                          const lapack_int *offs, int count, char which,
                          lapack_int n, gl_scalar *de)
{
    int rc = 0;
    for (int k = count - 1; k >= 0 && rc == 0; k--)
        rc = GL_FN(apply_chase)(ops, &keeps[k], which, 'N', n, de + offs[k], n);
    return rc;
}

/* max |B0 - Q B1 P^H| / (eps * scale), Q and P from the stores of a
 * chase in count segments (one: the whole chase's) on backend ops. */
static double reconstruction(const GL_FN(ops) *ops, int herm, lapack_int n,
                             const gl_scalar *b0, const gl_scalar *b1,
                             lapack_int ld, const GL_FN(reflectors) *keeps,
                             const lapack_int *offs, int count, double scale)
{
    size_t nn = (size_t)n * n;
    gl_scalar *a0 = malloc(sizeof *a0 * nn * 3), *e = a0 + nn, *f = e + nn;
    gl_scalar *de = ops->alloc(ops, sizeof *de * nn);
    band_dense(herm, n, b0, ld, a0);
    band_dense(herm, n, b1, ld, e);
    ops->from_host(ops, 'N', n, n, e, n, de, n);
    int rc = apply_segments(ops, keeps, offs, count, 'Q', n, de) ||
             ops->to_host(ops, n, n, de, n, e, n);
    for (lapack_int j = 0; j < n; j++)   /* f = (Q B1)^H */
        for (lapack_int i = 0; i < n; i++)
            f[j + (size_t)i * n] = GL_CONJ(e[i + (size_t)j * n]);
    ops->from_host(ops, 'N', n, n, f, n, de, n);
    rc = rc || apply_segments(ops, keeps, offs, count, herm ? 'Q' : 'P', n, de) ||
         ops->to_host(ops, n, n, de, n, f, n);
    double worst = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++)
            worst = fmax(worst, GL_ABS(GL_CONJ(f[j + (size_t)i * n]) -
                                       a0[i + (size_t)j * n]));
    ops->release(ops, de);
    free(a0);
    return rc ? INFINITY : worst / (EPS * scale);
}

static void test_chases(void)
{
    group g = {.name = "gb_chase (b->c, b->1 with reflectors), sb_chase"};
    /* within the chase's local tile (chase.h CHASE_TILE: 64, 32 in
     * complex double) and, in complex double, beyond; the window kernels
     * up to their widest band (WIN_B, GB_WIN_B: 32, 16 for the general
     * one in complex double) and the tasks kernels beyond it */
    const lapack_int bs[] = {1, 2, 3, 4, 5, 8, 16, 31, 32, 64};
    for (size_t ib = 0; ib < sizeof bs / sizeof *bs; ib++) {
        lapack_int b = bs[ib];
        const lapack_int ns[] = {b + 1, 3 * b + 7, 2 * b + 70, 50};
        for (size_t in = 0; in < 4; in++) {
            lapack_int n = ns[in];
            for (int herm = 0; herm < 2; herm++) {
                lapack_int ld = herm ? 2 * b + 1 : 3 * b + 1;
                size_t sz = (size_t)ld * n;
                gl_scalar *a = malloc(sizeof *a * (size_t)n * n);
                gl_scalar *band = malloc(sizeof *band * sz * 3);
                gl_scalar *out = band + sz, *res = out + sz;
                gl_real *vals = malloc(sizeof *vals * 2 * (size_t)n);
                fill(a, (size_t)n * n);
                host->pack_band(host, herm ? 'H' : 'G', n, b, a, n, band, ld);
                double scale = maxabs(band, sz);
                for (int with_keep = 0; with_keep < 2; with_keep++) {
                    lapack_int c = herm || b < 3 || with_keep ? 1 : b / 2;
                    GL_FN(reflectors) hk = {0}, dk = {0};
                    /* each backend's blocks of sweeps (b/2 and b) */
                    if (with_keep &&
                        (GL_FN(reflectors_alloc)(host, &hk, n, b,
                                                 gl_tune_group(&host_ctx->tuning, b), !herm) ||
                         GL_FN(reflectors_alloc)(dev, &dk, n, b,
                                                 gl_tune_group(&dev_ctx->tuning, b), !herm))) {
                        check(&g, INFINITY, 0, "reflectors_alloc n=%d b=%d", n, b);
                        continue;
                    }
                    memcpy(out, band, sizeof *band * sz);
                    gl_scalar *db = upload(band, n, ld);
                    int rc = herm ? dev->sb_chase(dev, n, b, n, db, ld, with_keep ? &dk : NULL) |
                                        host->sb_chase(host, n, b, n, out, ld, with_keep ? &hk : NULL)
                                  : dev->gb_chase(dev, n, b, c, n, db, ld, with_keep ? &dk : NULL) |
                                        host->gb_chase(host, n, b, c, n, out, ld, with_keep ? &hk : NULL);
                    rc |= download(res, db, ld, n, ld);
                    if (with_keep && !rc)
                        check(&g, reconstruction(dev, herm, n, band, res, ld, &dk,
                                                 &(lapack_int){0}, 1, scale),
                              THRESH * n, "%s Q B P^H n=%d b=%d",
                              herm ? "sb" : "gb", n, b);
                    /* values: the device's result and the host's */
                    rc = rc || band_values(herm, n, c, res, ld, vals) ||
                         band_values(herm, n, c, out, ld, vals + n);
                    double worst = 0, vmax = 0;
                    for (lapack_int i = 0; !rc && i < n; i++) {
                        worst = fmax(worst, fabs((double)(vals[i] - vals[n + i])));
                        vmax = fmax(vmax, fabs((double)vals[n + i]));
                    }
                    check(&g, rc ? INFINITY : worst / (EPS * (vmax > 0 ? vmax : 1)),
                          THRESH * n, "%s values n=%d b=%d c=%d keep=%d",
                          herm ? "sb_chase" : "gb_chase", n, b, c, with_keep);
                    GL_FN(reflectors_free)(host, &hk);
                    GL_FN(reflectors_free)(dev, &dk);
                    dev->release(dev, db);
                }
                free(a);
                free(band);
                free(vals);
            }
        }
    }
    report(&g);
}

/* The chase to half-width 1 of band (ops' memory, ld ld) in segments of
 * seg sweeps (ops.h): segment k from sweep offs[k], with its trailing
 * problem's store in keeps[k] (at most max).  The count, or -1. */
static int chase_in_segments(const GL_FN(ops) *ops, lapack_int group, int herm,
                             lapack_int n, lapack_int b, lapack_int seg,
                             gl_scalar *band, lapack_int ld,
                             GL_FN(reflectors) *keeps, lapack_int *offs,
                             int max)
{
    int count = 0;
    for (lapack_int s0 = 0; s0 < n - 2; s0 += seg) {
        if (count == max)
            return -1;
        lapack_int sub = n - s0;
        GL_FN(reflectors) *k = &keeps[count];
        if (GL_FN(reflectors_alloc_segment)(ops, k, sub, b, group, seg, !herm))
            return -1;
        offs[count++] = s0;
        gl_scalar *part = band + (size_t)s0 * ld;
        if (herm ? ops->sb_chase(ops, sub, b, seg, part, ld, k)
                 : ops->gb_chase(ops, sub, b, 1, seg, part, ld, k))
            return -1;
    }
    return count;
}

/* A chase in segments (the streamed plans' parked reflectors) against the
 * whole chase on the host: on the host, the same band bit for bit; on
 * both backends, the values of the band and B0 = Q B1 P^H with Q and P
 * the products of the segments' Q's and P's, each on its rows. */
static void test_chase_segments(void)
{
    group g = {.name = "gb_chase, sb_chase in segments of sweeps"};
    enum { MAX_SEGMENTS = 128 };
    const lapack_int bs[] = {2, 3, 5, 16, 31, 32, 64};
    for (size_t ib = 0; ib < sizeof bs / sizeof *bs; ib++) {
        lapack_int b = bs[ib];
        const lapack_int ns[] = {3 * b + 7, 50};
        for (size_t in = 0; in < 2; in++)
            for (int herm = 0; herm < 2; herm++)
                for (int on_dev = 0; on_dev < 2; on_dev++) {
                    const GL_FN(ops) *ops = on_dev ? dev : host;
                    lapack_int n = ns[in], ld = herm ? 2 * b + 1 : 3 * b + 1;
                    lapack_int group = gl_tune_group(&ops->ctx->tuning, b);
                    /* segments across the store's groups, and of them */
                    lapack_int seg = in == 0 ? 3 : 2 * group;
                    size_t sz = (size_t)ld * n;
                    gl_scalar *a = malloc(sizeof *a * (size_t)n * n);
                    gl_scalar *band = malloc(sizeof *band * sz * 3);
                    gl_scalar *whole = band + sz, *res = whole + sz;
                    gl_real *vals = malloc(sizeof *vals * 2 * (size_t)n);
                    GL_FN(reflectors) keeps[MAX_SEGMENTS] = {{0}};
                    lapack_int offs[MAX_SEGMENTS];
                    fill(a, (size_t)n * n);
                    host->pack_band(host, herm ? 'H' : 'G', n, b, a, n, band, ld);
                    double scale = maxabs(band, sz);
                    /* the whole chase in the host backend's memory, aligned
                     * as its segments' band: the same vector loops */
                    gl_scalar *hw = host->alloc(host, sizeof *hw * sz);
                    gl_scalar *db = ops->alloc(ops, sizeof *db * sz);
                    if (db)
                        ops->from_host(ops, 'N', ld, n, band, ld, db, ld);
                    if (hw)
                        memcpy(hw, band, sizeof *band * sz);
                    int rc = !db || !hw ||
                             (herm ? host->sb_chase(host, n, b, n, hw, ld, NULL)
                                   : host->gb_chase(host, n, b, 1, n, hw, ld, NULL));
                    if (!rc)
                        memcpy(whole, hw, sizeof *whole * sz);
                    host->release(host, hw);
                    int count = rc ? -1
                                   : chase_in_segments(ops, group, herm, n, b, seg,
                                                       db, ld, keeps, offs,
                                                       MAX_SEGMENTS);
                    rc = count < 0 || ops->to_host(ops, ld, n, db, ld, res, ld);
                    if (!rc && !on_dev)
                        check(&g, memcmp(res, whole, sizeof *res * sz) ? INFINITY : 0,
                              0, "%s host segments of %d n=%d b=%d: the whole chase's band",
                              herm ? "sb" : "gb", seg, n, b);
                    if (!rc)
                        check(&g, reconstruction(ops, herm, n, band, res, ld, keeps,
                                                 offs, count, scale),
                              THRESH * n, "%s %s segments of %d Q B P^H n=%d b=%d",
                              on_dev ? "device" : "host", herm ? "sb" : "gb",
                              seg, n, b);
                    rc = rc || band_values(herm, n, 1, res, ld, vals) ||
                         band_values(herm, n, 1, whole, ld, vals + n);
                    double worst = 0, vmax = 0;
                    for (lapack_int i = 0; !rc && i < n; i++) {
                        worst = fmax(worst, fabs((double)(vals[i] - vals[n + i])));
                        vmax = fmax(vmax, fabs((double)vals[n + i]));
                    }
                    check(&g, rc ? INFINITY : worst / (EPS * (vmax > 0 ? vmax : 1)),
                          THRESH * n, "%s %s segments of %d values n=%d b=%d",
                          on_dev ? "device" : "host", herm ? "sb" : "gb", seg, n, b);
                    for (int k = 0; k < MAX_SEGMENTS; k++)
                        GL_FN(reflectors_free)(ops, &keeps[k]);
                    ops->release(ops, db);
                    free(a);
                    free(band);
                    free(vals);
                }
    }
    report(&g);
}

/* ---- whole pipelines: values of ?syev / ?gesvd on both backends ---- */

/* The plan the policy makes of an in-core two-stage call (kernels/plan.h),
 * before its planner fills it in. */
static const gl_call_plan in_core_plan = {.method = GL_METHOD_TWO_STAGE,
                                          .tier = GL_PLAN_IN_CORE,
                                          .devices = 1};

static void test_pipelines(void)
{
    group g = {.name = "pipelines (he_tridiag values, svd values/vectors)"};
    const lapack_int ns[] = {5, 33, 50, 67};
    for (size_t in = 0; in < 4; in++) {
        lapack_int n = ns[in], lda = n + 3;
        gl_scalar *a = malloc(sizeof *a * (size_t)lda * n);
        gl_scalar *u = malloc(sizeof *u * (size_t)n * n * 4);
        gl_real *w = malloc(sizeof *w * (size_t)n * 4);
        fill(a, (size_t)lda * n);
        for (int uplo = 0; uplo < 2; uplo++) {
            char ul = uplo ? 'U' : 'L';
            gl_call_plan pd = in_core_plan, ph = in_core_plan;
            GL_FN(he_tridiag_plan)(&dev->ctx->tuning, n, 0, &pd);
            GL_FN(he_tridiag_plan)(&host->ctx->tuning, n, 0, &ph);
            int rc = GL_FN(he_tridiag)(dev, &pd, ul, n, a, lda, 1, w, w + n,
                                       NULL, 0, NULL, NULL, NULL) ||
                     GL_FN(he_tridiag)(host, &ph, ul, n, a, lda, 1, w + 2 * n,
                                       w + 3 * n, NULL, 0, NULL, NULL, NULL);
            lapack_int info = 0;
            GL_FN(lapack_fns_get)()->sterf(&n, w, w + n, &info);
            GL_FN(lapack_fns_get)()->sterf(&n, w + 2 * n, w + 3 * n, &info);
            double worst = 0, vmax = 0;
            for (lapack_int i = 0; i < n; i++) {
                worst = fmax(worst, fabs((double)(w[i] - w[2 * n + i])));
                vmax = fmax(vmax, fabs((double)w[2 * n + i]));
            }
            check(&g, rc || info ? INFINITY : worst / (EPS * vmax), THRESH * n,
                  "he_tridiag %c n=%d", ul, n);
        }
        /* SVD of the n x n and of the n x (n/2+1) leading part, with
         * vectors: values agree, and the device's U S VT rebuilds A */
        for (int shape = 0; shape < 2; shape++) {
            lapack_int m = n, nc = shape ? n / 2 + 1 : n;
            gl_svd_job job = {GL_SVD_BDSQR, 'S', 'S'};
            gl_scalar *vt = u + (size_t)n * n;
            gl_call_plan pd = in_core_plan, ph = in_core_plan;
            GL_FN(svd_plan_make)(&dev->ctx->tuning, &job, m, nc, 0, 0, &pd);
            GL_FN(svd_plan_make)(&host->ctx->tuning, &job, m, nc, 0, 0, &ph);
            int rc = GL_FN(svd)(dev, &pd, &job, m, nc, a, lda, w, u, m, vt, nc,
                                w + 2 * n, NULL) ||
                     GL_FN(svd)(host, &ph, &job, m, nc, a, lda, w + n,
                                u + 2 * (size_t)n * n, m,
                                u + 3 * (size_t)n * n, nc, w + 2 * n, NULL);
            double worst = 0, res = 0;
            for (lapack_int i = 0; i < nc; i++)
                worst = fmax(worst, fabs((double)(w[i] - w[n + i])));
            for (lapack_int j = 0; !rc && j < nc; j++)
                for (lapack_int i = 0; i < m; i++) {
                    gl_scalar x = 0;
                    for (lapack_int k = 0; k < nc; k++)
                        x += u[i + (size_t)k * m] * w[k] * vt[k + (size_t)j * nc];
                    res = fmax(res, GL_ABS(x - a[i + (size_t)j * lda]));
                }
            check(&g, rc ? INFINITY : worst / (EPS * w[n]), THRESH * n,
                  "svd values %dx%d", m, nc);
            check(&g, rc ? INFINITY : res / (EPS * w[n]), THRESH * n,
                  "svd A = U S VT %dx%d", m, nc);
        }
        free(a);
        free(u);
        free(w);
    }
    report(&g);
}

/* ---- stage 3 values on the device: bisection against ?sterf ---- */

static void test_tridiag_values(void)
{
    group g = {.name = "tridiag_values, bidiag_values (bisection) against ?sterf, ?bdsqr"};
    const lapack_int ns[] = {1, 2, 3, 7, 64, 200, 1001};
    /* kinds: random; graded diagonal with tiny off-diagonals (clusters);
     * zero off-diagonals with repeated diagonal values; a 1-2-1
     * Toeplitz; values of wildly different scales */
    for (size_t in = 0; in < sizeof ns / sizeof *ns; in++)
        for (int kind = 0; kind < 5; kind++) {
            lapack_int n = ns[in], info = 0;
            gl_real *d = malloc(sizeof *d * 4 * (size_t)n);
            gl_real *e = d + n, *w = e + n, *ref = w + n;
            for (lapack_int i = 0; i < n; i++) {
                double x = urand(), y = urand();
                d[i] = kind == 0 ? x
                     : kind == 1 ? (gl_real)i / (gl_real)n
                     : kind == 2 ? (gl_real)(i % 3)
                     : kind == 3 ? 2
                                 : x * pow(10, 12 * y);
                e[i] = kind == 0 ? y
                     : kind == 1 ? (gl_real)1e-5 * y
                     : kind == 2 ? 0
                     : kind == 3 ? -1
                                 : y * pow(10, 12 * x);
            }
            double tnorm = 0;
            for (lapack_int i = 0; i < n; i++) {
                ref[i] = d[i];
                tnorm = fmax(tnorm, fabs((double)d[i]) +
                                        (i > 0 ? fabs((double)e[i - 1]) : 0) +
                                        (i + 1 < n ? fabs((double)e[i]) : 0));
            }
            int rc = dev->tridiag_values(dev, n, d, e, w);
            GL_FN(lapack_fns_get)()->sterf(&n, ref, e, &info);
            double worst = 0;
            for (lapack_int i = 0; i < n; i++) {
                worst = fmax(worst, fabs((double)(w[i] - ref[i])));
                if (i > 0 && w[i] < w[i - 1])
                    worst = INFINITY;   /* not ascending */
            }
            /* bisection stops at max(ulp |T|, pivmin): the smallest
             * normal number counts for a zero matrix */
            double tiny = sizeof(gl_real) == sizeof(float) ? FLT_MIN : DBL_MIN;
            check(&g, rc || info ? INFINITY : worst / (EPS * tnorm + tiny),
                  THRESH * n, "tridiagonal n=%d kind=%d", n, kind);

            /* (d, e) as an upper bidiagonal: singular values, descending */
            lapack_int zero = 0, one = 1;
            gl_real *e1 = malloc(sizeof *e1 * (size_t)(n + 4 * n));
            gl_real *work = e1 + n;
            for (lapack_int i = 0; i < n; i++) {
                ref[i] = d[i];
                e1[i] = e[i];
            }
            rc = dev->bidiag_values(dev, n, d, e, w);
            GL_FN(lapack_fns_get)()->bdsqr("U", &n, &zero, &zero, &zero, ref,
                                           e1, NULL, &one, NULL, &one, NULL,
                                           &one, work, &info, 1);
            worst = 0;
            for (lapack_int i = 0; i < n; i++) {
                worst = fmax(worst, fabs((double)(w[i] - ref[i])));
                if (w[i] < 0 || (i > 0 && w[i] > w[i - 1]))
                    worst = INFINITY;   /* not descending, or negative */
            }
            check(&g, rc || info ? INFINITY : worst / (EPS * tnorm + tiny),
                  THRESH * n, "bidiagonal n=%d kind=%d", n, kind);
            free(e1);
            free(d);
        }
    report(&g);
}

/* ---- stage 3 with vectors: the divide and conquer with the merges'
 * products on the device (GPULAPACK_DC_LEAF small, set in main) against
 * the system ?bdsdc and ?stedc ---- */

/* max |x - y| over n x n real matrices (ld n) */
static double real_diff(lapack_int n, const double *x, const double *y)
{
    double worst = 0;
    for (size_t i = 0; i < (size_t)n * n; i++)
        worst = fmax(worst, fabs(x[i] - y[i]));
    return worst;
}

/* max(|U^T U - I|, |VT VT^T - I|) / EPS of n x n U and VT */
static double orthogonality(lapack_int n, const gl_real *u, const gl_real *vt)
{
    double worst = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++) {
            double su = i == j ? -1 : 0, sv = su;
            for (lapack_int l = 0; l < n; l++) {
                su += (double)u[l + (size_t)i * n] * u[l + (size_t)j * n];
                sv += (double)vt[i + (size_t)l * n] * vt[j + (size_t)l * n];
            }
            worst = fmax(worst, fmax(fabs(su), fabs(sv)));
        }
    return worst / EPS;
}

/* bidiag_svd (U, VT on the host, the merges' products on the device) or
 * bidiag_svd_device (U, VT and the merges on the device, read back). */
static int bidiag_svd_on(int resident, lapack_int n, gl_real *d, gl_real *e,
                         gl_real *u, gl_real *vt, gl_real *work,
                         lapack_int *iwork, lapack_int *info)
{
    if (!resident)
        return GL_FN(bidiag_svd)(dev, n, d, e, u, n, vt, n, work, iwork,
                                 info);
    size_t nn = (size_t)n * (size_t)n;
    gl_real *ud = dev->alloc(dev, sizeof *ud * nn), *vd = dev->alloc(dev, sizeof *vd * nn);
    int rc = !ud || !vd ||
             GL_FN(bidiag_svd_device)(dev, n, d, e, ud, n, vd, n, NULL, info) ||
             dev->real_to_host(dev, n, n, ud, n, u, n) ||
             dev->real_to_host(dev, n, n, vd, n, vt, n);
    dev->release(dev, ud);
    dev->release(dev, vd);
    return rc;
}

/* Glued matrices (the hard inputs of "The design and implementation of
 * the MRRR algorithm", Dhillon, Parlett and Voemel): Wilkinson blocks of
 * GLUED_BLOCK rows, d = |i - 10| (the SVD's bidiagonal one more), e = 1
 * inside a block and sqrt(eps) y between blocks.  Each block's values
 * come in pairs closer than any tolerance, and the glue couples the
 * blocks' copies into clusters of n / GLUED_BLOCK values: the merges'
 * deflation and their secular equations on roots between very close
 * poles. */
enum { GLUED_BLOCK = 21 };
static gl_real glued_e(lapack_int i, double y)
{
    return (gl_real)(i % GLUED_BLOCK == GLUED_BLOCK - 1 ? sqrt(EPS) * y : 1);
}

/* One bidiagonal (d, e) by bidiag_svd_on against the system ?bdsdc: the
 * values, U S VT - B and the orthogonality of U and VT, each within
 * THRESH * n; what and tag name the case. */
static void bidiag_svd_case(group *g, int resident, lapack_int n,
                            const gl_real *d0, const gl_real *e0,
                            const char *what, int tag)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int info = 0, rinfo = 0;
    size_t nn = (size_t)n * n;
    gl_real *d = malloc(sizeof *d * (4 * (size_t)n + 4 * nn + 3 * nn +
                                     4 * (size_t)n));
    gl_real *e = d + n, *rd = e + n, *re = rd + n, *u = re + n, *vt = u + nn,
            *ru = vt + nn, *rvt = ru + nn, *work = rvt + nn;
    lapack_int *iwork = malloc(sizeof *iwork * 8 * (size_t)n);
    memcpy(d, d0, sizeof *d * (size_t)n);
    memcpy(rd, d0, sizeof *d * (size_t)n);
    memcpy(e, e0, sizeof *e * (size_t)n);
    memcpy(re, e0, sizeof *e * (size_t)n);
    /* B, in double */
    double *bmat = calloc(2 * nn, sizeof *bmat), *x = bmat + nn, bnorm = 0;
    for (lapack_int i = 0; i < n; i++) {
        bmat[i + (size_t)i * n] = d[i];
        if (i + 1 < n)
            bmat[i + (size_t)(i + 1) * n] = e[i];
        bnorm = fmax(bnorm, fabs((double)d[i]) +
                                (i + 1 < n ? fabs((double)e[i]) : 0));
    }
    int rc = bidiag_svd_on(resident, n, d, e, u, vt, work, iwork, &info);
    f->bdsdc("U", "I", &n, rd, re, ru, &n, rvt, &n, NULL, NULL, work, iwork,
             &rinfo, 1, 1);
    double worst = 0;
    for (lapack_int i = 0; i < n; i++) {
        worst = fmax(worst, fabs((double)(d[i] - rd[i])));
        if (d[i] < 0 || (i > 0 && d[i] > d[i - 1]))
            worst = INFINITY;   /* not descending, or negative */
    }
    check(g, rc || info || rinfo ? INFINITY : worst / (EPS * bnorm),
          THRESH * n, "bidiag_svd n=%d %s%d: values", n, what, tag);
    /* U diag(s) VT - B */
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++) {
            double sb = 0;
            for (lapack_int l = 0; l < n; l++)
                sb += (double)u[i + (size_t)l * n] * d[l] *
                      vt[l + (size_t)j * n];
            x[i + (size_t)j * n] = sb;
        }
    double res = real_diff(n, x, bmat) / (EPS * bnorm);
    /* ours, and the system ?bdsdc's for the message: its merges can lose
     * orthogonality too (Reference-LAPACK issue 255) */
    double orth = orthogonality(n, u, vt);
    double ref_orth = orthogonality(n, ru, rvt);
    check(g, rc || info ? INFINITY : res, THRESH * n,
          "bidiag_svd n=%d %s%d: U S VT - B", n, what, tag);
    check(g, rc || info ? INFINITY : orth, THRESH * n,
          "bidiag_svd n=%d %s%d: orthogonality (the system ?bdsdc's: %.3g)",
          n, what, tag, ref_orth);
    free(bmat);
    free(iwork);
    free(d);
}

static void test_bidiag_svd(int resident)
{
    group g = {.name = resident ? "bidiag_svd_device (divide and conquer, U "
                                  "and VT on the device) against ?bdsdc"
                                : "real_product, bidiag_svd (divide and "
                                  "conquer) against ?gemm, ?bdsdc"};
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    const gl_real one = 1, zero = 0;

    /* the product of host arrays, both forms, odd sizes, large k */
    const lapack_int dims[][3] = {{1, 1, 1}, {7, 5, 3}, {130, 33, 129}, {65, 200, 257}};
    for (size_t t = 0; !resident && t < sizeof dims / sizeof *dims; t++)
        for (int trans = 0; trans < 2; trans++) {
            lapack_int m = dims[t][0], n = dims[t][1], k = dims[t][2];
            lapack_int lda = (trans ? k : m) + 3, ldb = k + 1, ldc = m + 2;
            size_t asize = (size_t)lda * (trans ? m : k);
            gl_real *a = malloc(sizeof *a * (asize + (size_t)ldb * n +
                                             2 * (size_t)ldc * n));
            gl_real *b = a + asize, *c = b + (size_t)ldb * n,
                    *ref = c + (size_t)ldc * n;
            for (size_t i = 0; i < asize + (size_t)ldb * n; i++)
                a[i] = (gl_real)urand();
            for (size_t i = 0; i < (size_t)ldc * n; i++)
                c[i] = ref[i] = (gl_real)urand();   /* equal outside C */
            char ta = trans ? 'T' : 'N';
            int rc = dev->real_product(dev, ta, m, n, k, a, lda, b, ldb, c, ldc);
            f->rgemm(&ta, "N", &m, &n, &k, &one, a, &lda, b, &ldb, &zero, ref,
                     &ldc, 1, 1);
            double worst = 0;
            for (size_t i = 0; i < (size_t)ldc * n; i++)
                worst = fmax(worst, fabs((double)(c[i] - ref[i])));
            check(&g, rc ? INFINITY : worst / EPS, THRESH * k,
                  "real_product %c %dx%dx%d", ta, m, n, k);
            free(a);
        }

    /* kinds: random; graded; clusters (repeated d, tiny e: deflation);
     * zeros in e (splits); a zero row of d; wildly different scales;
     * glued (see glued_e) */
    const lapack_int ns[] = {26, 40, 97, 256};
    for (size_t in = 0; in < sizeof ns / sizeof *ns; in++)
        for (int kind = 0; kind < 7; kind++) {
            lapack_int n = ns[in];
            gl_real *d = malloc(sizeof *d * 2 * (size_t)n), *e = d + n;
            for (lapack_int i = 0; i < n; i++) {
                double x = urand(), y = urand();
                d[i] = kind == 0 ? x
                     : kind == 1 ? pow(10, -8.0 * i / n)
                     : kind == 2 ? (gl_real)(1 + i % 3)
                     : kind == 3 ? x
                     : kind == 4 ? (i == n / 2 ? 0 : x)
                     : kind == 5 ? x * pow(10, 10 * y)
                                 : 1 + abs((int)(i % GLUED_BLOCK) - GLUED_BLOCK / 2);
                e[i] = kind == 0 ? y
                     : kind == 1 ? pow(10, -8.0 * i / n) * y
                     : kind == 2 ? (gl_real)1e-9 * y
                     : kind == 3 ? (i % 17 == 5 ? 0 : y)
                     : kind == 4 ? y
                     : kind == 5 ? y * pow(10, 10 * x)
                                 : glued_e(i, y);
            }
            bidiag_svd_case(&g, resident, n, d, e, "kind=", kind);
            free(d);
        }
    /* kind 5's scales from a generator of their own, not the seed: graded
     * bidiagonals whose merges (leaves of 8 rows) have roots near close
     * poles, far from ?lasd4's first steps, where its columns disagree on
     * the root unless re-formed from one difference (dc_secular.c
     * svd_root_columns).  Without that, orthogonality 1698, 205, 1056 and
     * 1084 eps on the host's vectors; the system ?bdsdc, whose tree
     * shares some of these merges, gives 1697 on (64, 125) and 1056 on
     * (97, 158). */
    const unsigned graded[][2] = {{64, 125}, {40, 153}, {97, 158}, {97, 222}};
    for (size_t t = 0; t < sizeof graded / sizeof *graded; t++) {
        lapack_int n = (lapack_int)graded[t][0];
        unsigned long long state = graded[t][1];
        gl_real *d = malloc(sizeof *d * 2 * (size_t)n), *e = d + n;
        for (lapack_int i = 0; i < n; i++) {
            double x = lcg_urand(&state), y = lcg_urand(&state);
            d[i] = x * pow(10, 10 * y);
            e[i] = y * pow(10, 10 * x);
        }
        bidiag_svd_case(&g, resident, n, d, e, "graded ", (int)graded[t][1]);
        free(d);
    }
    /* a secular equation of ours that does not converge (fault
     * secular:1, the first root of the first merge) restarts with the
     * system's ?bdsdc: its result, bit for bit */
    {
        lapack_int n = 97, info = -1, rinfo = -2;
        size_t nn = (size_t)n * n;
        gl_real *d = malloc(sizeof *d * (4 * (size_t)n + 7 * nn + 4 * (size_t)n));
        gl_real *e = d + n, *rd = e + n, *re = rd + n, *u = re + n,
                *vt = u + nn, *ru = vt + nn, *rvt = ru + nn, *work = rvt + nn;
        lapack_int *iwork = malloc(sizeof *iwork * 8 * (size_t)n);
        for (lapack_int i = 0; i < n; i++) {
            rd[i] = d[i] = (gl_real)urand();
            re[i] = e[i] = (gl_real)urand();
        }
        gl_fault_arm(GL_FAULT_SECULAR, 1);
        int rc = bidiag_svd_on(resident, n, d, e, u, vt, work, iwork, &info);
        int fired = gl_fault_remaining(GL_FAULT_SECULAR) == 0;
        gl_fault_arm(GL_FAULT_SECULAR, 0);
        f->bdsdc("U", "I", &n, rd, re, ru, &n, rvt, &n, NULL, NULL, work,
                 iwork, &rinfo, 1, 1);
        int same = info == rinfo && !memcmp(d, rd, sizeof *d * (size_t)n) &&
                   !memcmp(u, ru, sizeof *u * nn) &&
                   !memcmp(vt, rvt, sizeof *vt * nn);
        check(&g, !rc && fired && same ? 0 : INFINITY, 0,
              "bidiag_svd n=%d, a secular equation not converging: "
              "not the system's result", n);
        free(iwork);
        free(d);
    }
    report(&g);
}

/* tridiag_eig (Z on the host, the merges' products on the device) or
 * tridiag_eig_device (Z and the merges on the device, read back here). */
static int tridiag_eig_on(int resident, lapack_int n, gl_real *d, gl_real *e,
                          gl_real *z, gl_real *work, lapack_int lwork,
                          lapack_int *iwork, lapack_int liwork,
                          lapack_int *info)
{
    if (!resident)
        return GL_FN(tridiag_eig)(dev, n, d, e, z, n, work, lwork, iwork,
                                  liwork, info);
    gl_real *zd = dev->alloc(dev, sizeof *zd * (size_t)n * (size_t)n);
    int rc = !zd || GL_FN(tridiag_eig_device)(dev, n, d, e, zd, n, info) ||
             dev->real_to_host(dev, n, n, zd, n, z, n);
    dev->release(dev, zd);
    return rc;
}

/* One symmetric tridiagonal (d, e) by tridiag_eig_on against the system
 * ?stedc: the values, T Z - Z W and the orthogonality of Z, each within
 * THRESH * n; what and tag name the case. */
static void tridiag_eig_case(group *g, int resident, lapack_int n,
                             const gl_real *d0, const gl_real *e0,
                             const char *what, int tag)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int info = 0, rinfo = 0;
    size_t nn = (size_t)n * n;
    lapack_int lwork = 1 + 4 * n + n * n, liwork = 3 + 5 * n;
    gl_real *d = malloc(sizeof *d * (4 * (size_t)n + 2 * nn + (size_t)lwork));
    gl_real *e = d + n, *rd = e + n, *re = rd + n, *z = re + n, *rz = z + nn,
            *work = rz + nn;
    lapack_int *iwork = malloc(sizeof *iwork * (size_t)liwork);
    memcpy(d, d0, sizeof *d * (size_t)n);
    memcpy(rd, d0, sizeof *d * (size_t)n);
    memcpy(e, e0, sizeof *e * (size_t)n);
    memcpy(re, e0, sizeof *e * (size_t)n);
    double *t = calloc(3 * nn, sizeof *t), *x = t + nn, *id = x + nn,
           tnorm = 0;
    for (lapack_int i = 0; i < n; i++) {
        t[i + (size_t)i * n] = d[i];
        if (i + 1 < n)
            t[i + 1 + (size_t)i * n] = t[i + (size_t)(i + 1) * n] = e[i];
        tnorm = fmax(tnorm, fabs((double)d[i]) +
                                (i > 0 ? fabs((double)e[i - 1]) : 0) +
                                (i + 1 < n ? fabs((double)e[i]) : 0));
        id[i + (size_t)i * n] = 1;
    }
    int rc = tridiag_eig_on(resident, n, d, e, z, work, lwork, iwork, liwork,
                            &info);
    f->stedc("I", &n, rd, re, rz, &n, work, &lwork, iwork, &liwork, &rinfo,
             1);
    double worst = 0;
    for (lapack_int i = 0; i < n; i++) {
        worst = fmax(worst, fabs((double)(d[i] - rd[i])));
        if (i > 0 && d[i] < d[i - 1])
            worst = INFINITY;   /* not ascending */
    }
    check(g, rc || info || rinfo ? INFINITY : worst / (EPS * tnorm),
          THRESH * n, "tridiag_eig n=%d %s%d: values", n, what, tag);
    /* T Z - Z diag(w), Z^T Z - I */
    double res = 0;
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++) {
            double tz = -(double)z[i + (size_t)j * n] * d[j], zz = 0;
            for (lapack_int l = (i > 0 ? i - 1 : 0); l <= i + 1 && l < n; l++)
                tz += t[i + (size_t)l * n] * z[l + (size_t)j * n];
            for (lapack_int l = 0; l < n; l++)
                zz += (double)z[l + (size_t)i * n] * z[l + (size_t)j * n];
            res = fmax(res, fabs(tz));
            x[i + (size_t)j * n] = zz;
        }
    double orth = real_diff(n, x, id) / EPS;
    /* the system ?stedc's, for the message: its merges can lose
     * orthogonality too */
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++) {
            double zz = 0;
            for (lapack_int l = 0; l < n; l++)
                zz += (double)rz[l + (size_t)i * n] * rz[l + (size_t)j * n];
            x[i + (size_t)j * n] = zz;
        }
    double ref_orth = real_diff(n, x, id) / EPS;
    check(g, rc || info ? INFINITY : res / (EPS * tnorm), THRESH * n,
          "tridiag_eig n=%d %s%d: T Z - Z W", n, what, tag);
    check(g, rc || info ? INFINITY : orth, THRESH * n,
          "tridiag_eig n=%d %s%d: orthogonality (the system ?stedc's: %.3g)",
          n, what, tag, ref_orth);
    free(t);
    free(iwork);
    free(d);
}

/* The same for the symmetric tridiagonal eigenproblem against ?stedc,
 * with Z on the host and on the device. */
static void test_tridiag_eig(int resident)
{
    group g = {.name = resident ? "tridiag_eig_device (divide and conquer, "
                                  "Z on the device) against ?stedc"
                                : "tridiag_eig (divide and conquer) against "
                                  "?stedc"};
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    /* kinds: random; graded; clusters (repeated d, tiny e: deflation);
     * zeros in e (splits); 1-2-1 Toeplitz; wildly different scales;
     * glued Wilkinson matrices (see glued_e) */
    const lapack_int ns[] = {26, 41, 97, 256};
    for (size_t in = 0; in < sizeof ns / sizeof *ns; in++)
        for (int kind = 0; kind < 7; kind++) {
            lapack_int n = ns[in];
            gl_real *d = malloc(sizeof *d * 2 * (size_t)n), *e = d + n;
            for (lapack_int i = 0; i < n; i++) {
                double x = urand(), y = urand();
                d[i] = kind == 0 ? x
                     : kind == 1 ? pow(10, -8.0 * i / n)
                     : kind == 2 ? (gl_real)(i % 3)
                     : kind == 3 ? x
                     : kind == 4 ? 2
                     : kind == 5 ? x * pow(10, 10 * y)
                                 : abs((int)(i % GLUED_BLOCK) - GLUED_BLOCK / 2);
                e[i] = kind == 0 ? y
                     : kind == 1 ? pow(10, -8.0 * i / n) * y
                     : kind == 2 ? (gl_real)1e-9 * y
                     : kind == 3 ? (i % 17 == 5 ? 0 : y)
                     : kind == 4 ? -1
                     : kind == 5 ? y * pow(10, 10 * x)
                                 : glued_e(i, y);
            }
            tridiag_eig_case(&g, resident, n, d, e, "kind=", kind);
            free(d);
        }
    /* graded tridiagonals from the generator of test_bidiag_svd's graded
     * bidiagonals (not the seed), d and e over {n, seed, decades}: their
     * merges (leaves of 8 rows) have roots near close poles, far from
     * ?laed4's first steps, where its DELTA columns disagree on the root
     * unless re-formed from one difference (dc_secular.c
     * tri_root_column).  Without that, orthogonality 902, 6510 and 75550
     * eps on the host's vectors (3.4, 5.7 and 6 with it); the system
     * ?stedc, whose leaves are larger, gives 11, 9 and 7.5. */
    const unsigned graded[][3] = {{43, 15, 10}, {166, 14, 10}, {142, 8, 16}};
    for (size_t t = 0; t < sizeof graded / sizeof *graded; t++) {
        lapack_int n = (lapack_int)graded[t][0];
        unsigned long long state = graded[t][1];
        double decades = graded[t][2];
        gl_real *d = malloc(sizeof *d * 2 * (size_t)n), *e = d + n;
        for (lapack_int i = 0; i < n; i++) {
            double x = lcg_urand(&state), y = lcg_urand(&state);
            d[i] = x * pow(10, decades * y);
            e[i] = y * pow(10, decades * x);
        }
        tridiag_eig_case(&g, resident, n, d, e, "graded ", (int)graded[t][1]);
        free(d);
    }
    /* a secular equation of ours that does not converge (fault
     * secular:1) restarts with the system's ?stedc: its result, bit for
     * bit */
    {
        lapack_int n = 97, info = -1, rinfo = -2;
        size_t nn = (size_t)n * n;
        lapack_int lwork = 1 + 4 * n + n * n, liwork = 3 + 5 * n;
        gl_real *d = malloc(sizeof *d * (4 * (size_t)n + 2 * nn + (size_t)lwork));
        gl_real *e = d + n, *rd = e + n, *re = rd + n, *z = re + n,
                *rz = z + nn, *work = rz + nn;
        lapack_int *iwork = malloc(sizeof *iwork * (size_t)liwork);
        for (lapack_int i = 0; i < n; i++) {
            rd[i] = d[i] = (gl_real)urand();
            re[i] = e[i] = (gl_real)urand();
        }
        gl_fault_arm(GL_FAULT_SECULAR, 1);
        int rc = tridiag_eig_on(resident, n, d, e, z, work, lwork, iwork,
                                liwork, &info);
        int fired = gl_fault_remaining(GL_FAULT_SECULAR) == 0;
        gl_fault_arm(GL_FAULT_SECULAR, 0);
        f->stedc("I", &n, rd, re, rz, &n, work, &lwork, iwork, &liwork,
                 &rinfo, 1);
        int same = info == rinfo && !memcmp(d, rd, sizeof *d * (size_t)n) &&
                   !memcmp(z, rz, sizeof *z * nn);
        check(&g, !rc && fired && same ? 0 : INFINITY, 0,
              "tridiag_eig n=%d, a secular equation not converging: "
              "not the system's result", n);
        free(iwork);
        free(d);
    }
    report(&g);
}

/* The secular equations of the merges, solved on the device
 * (ops->dc_secular, dc_svd_secular), against the system's ?laed4/?lasd4
 * root by root, on problems harder than the merges of test_tridiag_eig
 * usually make: poles in close pairs, gaps graded from 1000 eps to 1 (the
 * deflation leaves none closer), one weight dominating tiny others, rho
 * small and large.
 * Checked: each root against the system's, |root - system's| / (eps
 * scale), scale = the largest pole + rho (+ sqrt(rho) for the bidiagonal
 * problem: the norms of the matrices); the vectors' orthogonality
 * (eps units) and their residual (eps scale units): (D + rho w w^T) S -
 * S diag(lambda) for the tridiagonal problem, M V - U diag(sigma) for
 * the bidiagonal one (M: the diagonal dsigma, the first row z,
 * ?lasd3's), each <= THRESH k. */
static void secular_problem(int kind, lapack_int k, int svd, gl_real *p,
                            gl_real *w)
{
    double norm = 0, x = 0;
    for (lapack_int i = 0; i < k; i++) {
        double gap = kind == 1 ? (i % 2 ? 1e4 * EPS * (1.5 + urand()) : 1)
                   : kind == 2 ? pow(1e3 * EPS, 1 - (double)i / k)
                               : 0.6 + urand();
        x = (svd && i == 0) ? 0 : x + gap;
        p[i] = (gl_real)x;
        w[i] = (gl_real)((kind == 3 && i != k / 2 ? 1e-7 : 1) *
                         (urand() + 0.51) * (rand() % 2 ? 1 : -1));
        norm += (double)w[i] * w[i];
    }
    for (lapack_int i = 0; i < k; i++)
        w[i] = (gl_real)(w[i] / sqrt(norm));
}

/* max over a, b of |q_a^T q_b - (a == b)| for the k columns of q (k x k),
 * in double, each product summed in the order of i, as a plain double loop
 * over every a and b gives it: the upper triangle alone (the same product
 * either way round), four columns b against column a at a time (four
 * independent sums; one sum at a time, bound by its latency, and both
 * triangles, and of qv also for the tridiagonal problems that have none,
 * took about half of each test_device_ops run at k = 600) */
static double orth_error(lapack_int k, const gl_real *q)
{
    size_t n = (size_t)k;
    double *d = malloc(sizeof *d * n * n), orth = 0;
    for (size_t i = 0; i < n * n; i++)
        d[i] = (double)q[i];
    for (size_t a = 0; a < n; a++) {
        const double *x = d + a * n;
        size_t b = a;
        for (; b + 4 <= n; b += 4) {
            const double *y0 = d + b * n, *y1 = y0 + n, *y2 = y1 + n, *y3 = y2 + n;
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (size_t i = 0; i < n; i++) {
                s0 += x[i] * y0[i];
                s1 += x[i] * y1[i];
                s2 += x[i] * y2[i];
                s3 += x[i] * y3[i];
            }
            orth = fmax(orth, fabs(s0 - (a == b)));
            orth = fmax(orth, fabs(s1 - (a == b + 1)));
            orth = fmax(orth, fabs(s2 - (a == b + 2)));
            orth = fmax(orth, fabs(s3 - (a == b + 3)));
        }
        for (; b < n; b++) {
            const double *y = d + b * n;
            double s = 0;
            for (size_t i = 0; i < n; i++)
                s += x[i] * y[i];
            orth = fmax(orth, fabs(s - (a == b)));
        }
    }
    free(d);
    return orth;
}

static void test_secular(void)
{
    group g = {.name = "secular equations (dc_secular, dc_svd_secular) "
                       "against ?laed4, ?lasd4"};
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    const lapack_int ks[] = {3, 4, 17, 130, 600};
    const double rhos[] = {1e-3, 1, 1e3};
    for (size_t ik = 0; ik < sizeof ks / sizeof *ks; ik++)
        for (int kind = 0; kind < 4; kind++)
            for (int ir = 0; ir < 3; ir++)
                for (int svd = 0; svd < 2; svd++) {
                    lapack_int k = ks[ik], info = 0;
                    size_t kk = (size_t)k * k;
                    gl_real rho = (gl_real)rhos[ir];
                    gl_real *r = malloc(sizeof *r * (9 * (size_t)k + 2 * kk));
                    gl_real *values = r + 5 * k, *ref = values + k,
                            *delta = ref + k, *qu = delta + 2 * k,
                            *qv = qu + kk;
                    secular_problem(kind, k, svd, r, r + 3 * k);
                    for (lapack_int i = 0; i < k; i++) {
                        r[k + i] = r[2 * k + i] = 0;
                        r[4 * k + i] = (gl_real)i;
                    }
                    gl_real *du = dev->alloc(dev, sizeof *du * 2 * kk);
                    int rc = !du;
                    if (!rc)
                        rc = svd ? dev->dc_svd_secular(dev, k, rho, r, values, du,
                                                       du + kk, k)
                                 : dev->dc_secular(dev, k, rho, r, values, du, k);
                    if (!rc)
                        rc = dev->real_to_host(dev, k, k, du, k, qu, k) ||
                             (svd && dev->real_to_host(dev, k, k, du + kk, k, qv,
                                                       k));
                    dev->release(dev, du);
                    const gl_real *p = r, *w = r + 3 * k;
                    double scale = fabs((double)p[k - 1]) +
                                   (svd ? sqrt((double)rho) : rho),
                           worst = 0;
                    for (lapack_int j = 0; j < k && !rc; j++) {
                        lapack_int j1 = j + 1;
                        if (svd)
                            f->lasd4(&k, &j1, p, w, delta, &rho, &ref[j],
                                     delta + k, &info);
                        else
                            f->laed4(&k, &j1, p, w, delta, &rho, &ref[j],
                                     &info);
                        double err = fabs((double)values[j] - ref[j]);
                        worst = err <= worst ? worst : err;   /* NaN too */
                    }
                    check(&g, rc || info ? INFINITY : worst / (EPS * scale),
                          THRESH * k, "%s k=%d kind=%d rho=%g: roots",
                          svd ? "svd" : "tridiagonal", k, kind, (double)rho);
                    /* orthogonality and residual, in double */
                    double orth = 0, res = 0, zs = sqrt((double)rho);
                    if (!rc) {
                        orth = orth_error(k, qu);
                        if (svd)
                            orth = fmax(orth, orth_error(k, qv));
                    }
                    for (lapack_int j = 0; j < k && !rc; j++) {
                        const gl_real *sj = qu + j * k, *vj = qv + j * k;
                        double wts = 0;
                        for (lapack_int i = 0; i < k; i++)
                            wts += (double)w[i] * (svd ? vj[i] : sj[i]);
                        for (lapack_int i = 0; i < k; i++) {
                            double lhs = svd ? (i == 0 ? zs * wts
                                                       : (double)p[i] * vj[i])
                                             : (double)p[i] * sj[i] +
                                                   rho * w[i] * wts;
                            res = fmax(res, fabs(lhs - (double)values[j] *
                                                           sj[i]));
                        }
                    }
                    check(&g, rc ? INFINITY : orth / EPS, THRESH * k,
                          "%s k=%d kind=%d rho=%g: orthogonality",
                          svd ? "svd" : "tridiagonal", k, kind, (double)rho);
                    check(&g, rc ? INFINITY : res / (EPS * scale), THRESH * k,
                          "%s k=%d kind=%d rho=%g: residual",
                          svd ? "svd" : "tridiagonal", k, kind, (double)rho);
                    free(r);
                }
    report(&g);
}

/* 1 when group name is in the comma-separated list only (every group
 * when only is unset or empty) */
static int wanted(const char *only, const char *name)
{
    if (!only || !*only)
        return 1;
    size_t len = strlen(name);
    for (const char *p = only; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0)
            return 1;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned seed = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10)
                  : getenv("TEST_SEED") ? (unsigned)strtoul(getenv("TEST_SEED"), NULL, 10)
                                        : (unsigned)time(NULL);
    srand(seed);
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* merges on the device from 8 rows on: every n of test_bidiag_svd
     * and test_tridiag_eig has a few levels of them */
    setenv("GPULAPACK_DC_LEAF", "8", 0);
    printf("# test_device_ops %c seed %u\n", GL_PREC_CHAR, seed);
    host_ctx = gl_ctx_acquire(GL_PATH_HOST, -1);
    if (host_ctx && GL_FN(ops_bind)(&host_table, host_ctx) == 0)
        host = &host_table;
    const gl_device_request *r = &gl_config_get()->device;
    /* the GPU backend GPULAPACK_DEVICE names, else OpenCL's */
    const gl_backend *b = r->backend && gl_backend_is_gpu(r->backend)
                              ? r->backend
                              : gl_backend_of_path(GL_PATH_OPENCL);
    gl_path path = b->path;
    int named = b == r->backend;
    gpu = gl_device_gpu(path);
    int i = gpu ? gpu->choose(named ? r->platform : -1, named ? r->index : -1, 0)
                : -1;
    const gl_gpu_device_info *info = i >= 0 ? gpu->device(i) : NULL;
    if (host && info && (GL_PRECISION == 2 || GL_PRECISION == 4) &&
        !info->fp64) {
        printf("PASS %c skipped: %s has no double precision\n", GL_PREC_CHAR,
               info->name);
        gl_ctx_release(host_ctx);
        return 0;
    }
    /* device i's own context: every device operation below runs on it */
    dev_ctx = info ? gl_ctx_acquire(path, i) : NULL;
    if (dev_ctx && GL_FN(ops_bind)(&dev_table, dev_ctx) == 0)
        dev = &dev_table;
    if (!host || !dev) {
        printf("FAIL %c no %s device (is PoCL installed?)\n", GL_PREC_CHAR,
               gl_path_name(path));
        gl_ctx_release(dev_ctx);
        gl_ctx_release(host_ctx);
        return 1;
    }
    printf("# device %s: %s\n", info->id, info->name);
    /* TEST_DEVICE_OPS_ONLY=<group>[,<group>...]: those groups alone, for
     * runs that try other kernels or libraries on some of them
     * (run_checks.sh): copies, pack_band, panels, blas3, chases (the
     * chases and the chases in segments), pipelines, tridiag_values,
     * secular, bidiag_svd, tridiag_eig (the divide and conquer's SVD or
     * eigenproblem, host- and device-resident; its random cases then
     * differ from a full run's with the same seed, its graded ones do
     * not) */
    const char *only = getenv("TEST_DEVICE_OPS_ONLY");
    static const char *const groups[] = {
        "copies", "pack_band", "panels", "blas3", "chases", "pipelines",
        "tridiag_values", "secular", "bidiag_svd", "tridiag_eig"};
    if (only && *only) {
        /* every name a known group */
        char list[256];
        snprintf(list, sizeof list, "%s", only);
        for (char *save = NULL, *w = strtok_r(list, ",", &save); w;
             w = strtok_r(NULL, ",", &save)) {
            size_t i = 0;
            while (i < sizeof groups / sizeof *groups && strcmp(w, groups[i]) != 0)
                i++;
            if (i == sizeof groups / sizeof *groups) {
                printf("FAIL %c TEST_DEVICE_OPS_ONLY: no group %s\n", GL_PREC_CHAR, w);
                gl_ctx_release(dev_ctx);
                gl_ctx_release(host_ctx);
                return 1;
            }
        }
    }
    if (wanted(only, "copies"))
        test_copies();
    if (wanted(only, "pack_band"))
        test_pack_band();
    if (wanted(only, "panels"))
        test_panels();
    if (wanted(only, "blas3"))
        test_blas3();
    if (wanted(only, "chases")) {
        test_chases();
        test_chase_segments();
    }
    if (wanted(only, "pipelines"))
        test_pipelines();
    if (wanted(only, "tridiag_values"))
        test_tridiag_values();
    if (wanted(only, "secular"))
        test_secular();
    if (wanted(only, "bidiag_svd")) {
        test_bidiag_svd(0);
        test_bidiag_svd(1);
    }
    if (wanted(only, "tridiag_eig")) {
        test_tridiag_eig(0);
        test_tridiag_eig(1);
    }
    gl_ctx_release(dev_ctx);
    gl_ctx_release(host_ctx);
    return failures != 0;
}
