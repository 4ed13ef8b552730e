/* Stage 3 of the values on the host's threads: every eigenvalue of a real
 * symmetric tridiagonal T, or every singular value of an upper bidiagonal
 * B, by bisection on Sturm counts, the values split over threads.
 *
 * ?sterf (implicit QL/QR) and dqds (?lasq1) are chains of dependent
 * rotations: one thread.  Bisection finds each value on its own
 * ("Calculation of the eigenvalues of a symmetric tridiagonal matrix by
 * the method of bisection", Barth, Martin and Wilkinson), so threads take
 * blocks of values and never wait for each other, and the values do not
 * depend on how they were split (the tests compare 1, 2 and 3 threads
 * bit for bit).
 *
 * The count.  The ratio form q_i = (d_i - x) - e_{i-1}^2 / q_{i-1} (LAPACK's
 * ?laebz) costs a division per row: 3.8 ns per row and shift as GCC 12
 * compiled it here (Zen 4; a division's throughput alone is over 1 ns),
 * where ?sterf's whole solve costs about 12.5 n^2 ns.  The
 * three-term recurrence of the leading minors, p_i = (d_i - x) p_{i-1} -
 * e_{i-1}^2 p_{i-2}, counts the same sign changes with a subtraction, a
 * multiplication and a multiply-add: 32 shifts side by side in vector
 * registers, 0.155 ns per row and shift, about 7 n^2 ns for all values.
 * It is backward stable as the ratio form is: each d_i - x and e_{i-1}^2
 * is used once, so the rounding of a row is a relative perturbation of
 * those two entries ("On the correctness of some bisection-like parallel
 * eigenvalue algorithms in floating point arithmetic", Demmel, Dhillon
 * and Ren, for the ratio form; the same argument row by row), and the
 * count is the exact count of a matrix within a few ulps |T| of T: the
 * values come out within about ulp |T| of T's (within 1-2 ulp |T| of
 * ?stebz at its tightest in test_stages; ?sterf is O(n) ulp |T| off on
 * graded spectra, 850 ulp at n = 4000).  Its
 * minors overflow or underflow where the ratios do not, so every four
 * rows the pair (p_{i-1}, p_i) is scaled by a power of two (exact) to a
 * largest magnitude in [1, 2).  T is first scaled by a power of two to
 * entries of at most 1, and off-diagonals below 2^-60 (far below ulp |T|
 * in double, and single is computed in double) are raised to 2^-60, so T
 * is unreduced: two rows cannot both give a zero minor, a row's pair
 * shrinks by at most 2^-123 and grows by at most 5, far inside the range
 * of double between two scalings.  An exact zero minor p_i (x an
 * eigenvalue of the leading block) needs no care: p_{i+1} = -e_i^2
 * p_{i-1} has the sign opposite to p_{i-1}, so one sign change is counted
 * across the zero whatever its sign.
 *
 * The bidiagonal.  Its singular values below x are the eigenvalues of
 * B^T B below tau = x^2; B^T B's leading minors are those of B_i^T B_i
 * (B_i: B's leading i x i block), and those are (-1)^i times the even
 * minors P_i of the Golub-Kahan tridiagonal (zero diagonal, off-diagonal
 * d_0, e_0, d_1, ...: spectrum +-sigma).  Its odd minors over x, R_i,
 * give the pair recurrence
 *   R_{i+1} = -P_i - e_{i-1}^2 R_i,   P_{i+1} = -tau R_{i+1} - d_i^2 P_i,
 * n rows of two multiply-adds and a multiplication, and the count is the
 * number of sign agreements of consecutive P_i.  Its rounding perturbs
 * the Golub-Kahan matrix's zero diagonal by ulp x and its off-diagonal
 * relatively: absolute accuracy ulp |B|, as LAPACK's bound for the
 * values of a dense matrix (dqds's relative accuracy on B itself is
 * lost on B's way from A anyway).  Pairs grow by at most 9 a row and
 * shrink by at most 2^-240: scaled every two rows.
 *
 * The search.  A grid of about n points over the Gershgorin interval is
 * counted first (its points split over threads as the values are); each
 * value starts from its grid cell, ~log2(n) halvings fewer, and all then
 * take the same number of halvings to ulp |T| (so 32 values run in
 * lockstep in the vector lanes).  Counts in floating point need not be
 * monotone in x; each value is bisected on its own index, which still
 * gives a value within the bound (Demmel, Dhillon and Ren), and the
 * results are sorted. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../runtime/precision.h"
#include "../../householder.h"
#include "../../stages/stage3.h"
#include "host.h"

/* shifts counted side by side; rows between two scalings (T's pairs
 * change by at most 2^-123 .. 5 a row, B's by 2^-240 .. 9) */
enum { LANES = 32, RESCALE_T = 4, RESCALE_B = 2 };

/* the least off-diagonal square of the scaled matrix: (2^-60)^2 */
#define LEAST_SQUARE 0x1p-120

typedef struct values_job {
    long n;
    int svd;                 /* 0: T (d, e2); 1: B (d2, e2) */
    const double *diag;      /* T: d_i; B: d_i^2 */
    const double *off2;      /* off2[i] = e_{i-1}^2, off2[0] = 0 */
    double lo, step;         /* grid point j: lo + j * step */
    long points;             /* grid points: 0 .. points - 1 */
    long *grid;              /* the count at each point (monotone) */
    long wanted;             /* values: indices 0 .. wanted - 1 */
    int halvings;
    double *out;             /* value of index k (ascending) */
} values_job;

/* The pair's largest magnitude scaled to [1, 2) by a power of two. */
GL_LOOP void rescale(double *p0, double *p1)
{
#pragma omp simd
    for (int k = 0; k < LANES; k++) {
        double a = fabs(p0[k]), b = fabs(p1[k]), m = a > b ? a : b;
        uint64_t bits;
        memcpy(&bits, &m, sizeof bits);
        uint64_t sbits = (2046 - (bits >> 52)) << 52;   /* 2^(1023 - E) */
        double s;
        memcpy(&s, &sbits, sizeof s);
        p0[k] *= s;
        p1[k] *= s;
    }
}

/* count[k] = the eigenvalues of T below x[k]: p0, p1 are p_{r-1}, p_r,
 * and a sign change counts. */
GL_VECTOR_CLONES
static void tridiagonal_counts(const values_job *job, const double *x,
                               long *count)
{
    const long n = job->n;
    const double *a = job->diag, *b = job->off2;
    double p0[LANES], p1[LANES];
    int64_t c[LANES];
    for (int k = 0; k < LANES; k++)
        p0[k] = 0, p1[k] = 1, c[k] = 0;
    for (long i = 0; i < n; i += RESCALE_T) {
        long end = i + RESCALE_T < n ? i + RESCALE_T : n;
        for (long r = i; r < end; r++) {
            double ar = a[r], br = b[r];
#pragma omp simd
            for (int k = 0; k < LANES; k++) {
                double t = (ar - x[k]) * p1[k] - br * p0[k];
                uint64_t u, v;
                memcpy(&u, &t, sizeof u);
                memcpy(&v, &p1[k], sizeof v);
                c[k] += (int64_t)((u ^ v) >> 63);
                p0[k] = p1[k];
                p1[k] = t;
            }
        }
        rescale(p0, p1);
    }
    for (int k = 0; k < LANES; k++)
        count[k] = (long)c[k];
}

/* count[k] = the singular values of B below x[k] >= 0: p0, p1 are R_r,
 * P_r, and a sign agreement of P counts. */
GL_VECTOR_CLONES
static void bidiagonal_counts(const values_job *job, const double *x,
                              long *count)
{
    const long n = job->n;
    const double *a = job->diag, *b = job->off2;
    double p0[LANES], p1[LANES], tau[LANES];
    int64_t c[LANES];
    for (int k = 0; k < LANES; k++) {
        p0[k] = 0, p1[k] = 1, c[k] = 0;
        tau[k] = x[k] * x[k];
    }
    for (long i = 0; i < n; i += RESCALE_B) {
        long end = i + RESCALE_B < n ? i + RESCALE_B : n;
        for (long r = i; r < end; r++) {
            double ar = a[r], br = b[r];
#pragma omp simd
            for (int k = 0; k < LANES; k++) {
                double rr = -p1[k] - br * p0[k];
                double pp = -tau[k] * rr - ar * p1[k];
                uint64_t u, v;
                memcpy(&u, &pp, sizeof u);
                memcpy(&v, &p1[k], sizeof v);
                c[k] += 1 - (int64_t)((u ^ v) >> 63);
                p0[k] = rr;
                p1[k] = pp;
            }
        }
        rescale(p0, p1);
    }
    for (int k = 0; k < LANES; k++)
        count[k] = (long)c[k];
}

static void sturm_counts(const values_job *job, const double *x, long *count)
{
    if (job->svd)
        bidiagonal_counts(job, x, count);
    else
        tridiagonal_counts(job, x, count);
}

/* Grid points LANES * item .. (the last ones repeat the last point). */
static int grid_item(void *arg, long item)
{
    values_job *job = arg;
    double x[LANES];
    long count[LANES], first = item * LANES;
    for (int k = 0; k < LANES; k++) {
        long j = first + k < job->points ? first + k : job->points - 1;
        x[k] = job->lo + (double)j * job->step;
    }
    sturm_counts(job, x, count);
    for (int k = 0; k < LANES && first + k < job->points; k++)
        job->grid[first + k] = count[k];
    return 0;
}

/* Values of indices LANES * item .. (padded with the last index, so every
 * value runs in full vectors whatever the split: the same results on
 * any number of threads). */
static int values_item(void *arg, long item)
{
    values_job *job = arg;
    double lo[LANES], hi[LANES], mid[LANES];
    long idx[LANES], count[LANES], first = item * LANES;
    for (int k = 0; k < LANES; k++) {
        idx[k] = first + k < job->wanted ? first + k : job->wanted - 1;
        /* the cell j with grid[j] <= idx < grid[j + 1] */
        long l = 0, h = job->points - 1;
        while (h - l > 1) {
            long m = l + (h - l) / 2;
            if (job->grid[m] <= idx[k])
                l = m;
            else
                h = m;
        }
        lo[k] = job->lo + (double)l * job->step;
        hi[k] = job->lo + (double)h * job->step;
    }
    for (int it = 0; it < job->halvings; it++) {
        for (int k = 0; k < LANES; k++)
            mid[k] = 0.5 * (lo[k] + hi[k]);
        sturm_counts(job, mid, count);
        for (int k = 0; k < LANES; k++) {
            if (count[k] <= idx[k])
                lo[k] = mid[k];
            else
                hi[k] = mid[k];
        }
    }
    for (int k = 0; k < LANES && first + k < job->wanted; k++)
        job->out[first + k] = 0.5 * (lo[k] + hi[k]);
    return 0;
}

/* gl_s_host_values gl_d_host_values gl_c_host_values gl_z_host_values */
int GL_FN(host_values)(char kind, lapack_int n, const gl_real *d,
                       const gl_real *e, gl_real *w, int threads)
{
    if (n <= 0)
        return 0;
    int svd = kind == 'B';
    double big = 0;
    for (lapack_int i = 0; i < n; i++) {
        double x = fabs((double)d[i]), y = i + 1 < n ? fabs((double)e[i]) : 0;
        if (!isfinite(x) || !isfinite(y))
            return -1;
        big = x > big ? x : big;
        big = y > big ? y : big;
    }
    if (big == 0) {
        for (lapack_int i = 0; i < n; i++)
            w[i] = 0;
        return 0;
    }
    /* scale by 2^-E to entries of at most 1 (exact unless tiny entries
     * underflow: they are far below ulp |T|) */
    int ex;
    frexp(big, &ex);
    double scale = ldexp(1, -ex), unscale = ldexp(1, ex);
    double *buf = malloc(sizeof *buf * (3 * (size_t)n + 2));
    if (!buf)
        return -1;
    double *diag = buf, *off2 = diag + n, *out = off2 + n;
    double lower = 0, upper = 0;
    for (lapack_int i = 0; i < n; i++) {
        double di = (double)d[i] * scale;
        double em = i > 0 ? fabs((double)e[i - 1] * scale) : 0;
        double ei = i + 1 < n ? fabs((double)e[i] * scale) : 0;
        double s = i > 0 ? em * em : 0;
        off2[i] = i == 0 ? 0 : s > LEAST_SQUARE ? s : LEAST_SQUARE;
        if (svd) {
            double sq = di * di;
            diag[i] = sq > LEAST_SQUARE ? sq : LEAST_SQUARE;
            /* Gershgorin on the Golub-Kahan matrix: sigma <= |d_i| +
             * max(|e_{i-1}|, |e_i|) */
            double r = fabs(di) + (em > ei ? em : ei);
            upper = r > upper ? r : upper;
        } else {
            diag[i] = di;
            lower = fmin(lower, di - em - ei);
            upper = fmax(upper, di + em + ei);
            if (i == 0)
                lower = di - ei, upper = di + ei;
        }
    }
    /* the raised off-diagonals (2^-60 each) widen the interval a little */
    lower -= 0x1p-58;
    upper += 0x1p-58;
    if (svd)
        lower = 0;
    /* halvings to ulp |T| (the values' unit of accuracy) */
    double ulp = sizeof(gl_real) == sizeof(float) ? FLT_EPSILON : DBL_EPSILON;
    long points = ((long)n + LANES - 1) / LANES * LANES + 1;
    double step = (upper - lower) / (double)(points - 1);
    double tol = ulp * fmax(fabs(lower), fabs(upper));
    int halvings = 0;
    for (double width = step; width > tol && halvings < 200; width *= 0.5)
        halvings++;
    long *grid = malloc(sizeof *grid * (size_t)points);
    if (!grid) {
        free(buf);
        return -1;
    }
    values_job job = {.n = n, .svd = svd, .diag = diag, .off2 = off2,
                      .lo = lower, .step = step, .points = points,
                      .grid = grid, .wanted = n, .halvings = halvings,
                      .out = out};
    gl_parallel_run((points + LANES - 1) / LANES, threads, grid_item, &job);
    /* monotone, from none below the interval to all above it */
    grid[0] = 0;
    grid[points - 1] = n;
    for (long j = 1; j < points; j++)
        grid[j] = grid[j] > grid[j - 1] ? grid[j] : grid[j - 1];
    gl_parallel_run((n + LANES - 1) / LANES, threads, values_item, &job);
    for (lapack_int k = 0; k < n; k++)
        out[k] *= unscale;
    for (lapack_int k = 0; k < n; k++)
        w[k] = (gl_real)out[k];
    free(grid);
    free(buf);
    /* ascending (T) or descending (B), as ?sterf and ?bdsqr return them */
    GL_FN(sort_ascending)(w, (size_t)n);
    if (svd)
        for (lapack_int k = 0; k < n / 2; k++) {
            gl_real t = w[k];
            w[k] = w[n - 1 - k];
            w[n - 1 - k] = t;
        }
    return 0;
}
