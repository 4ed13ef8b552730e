/* Stage 3 of the values-only problems on the device: eigenvalues of a
 * real symmetric tridiagonal matrix by bisection on Sturm counts
 * (?stebz's method, without its splitting), one work-item per
 * eigenvalue, all at once: where ?sterf (?lasq1 for singular values) is
 * one sequential O(n^2) sweep on one host core, these are n independent
 * ones.  Singular values are the upper half of the spectrum of the
 * Golub-Kahan tridiagonal (kernels/backend/gpu/gpu_stage3.c). */

/* The number of eigenvalues of T (diagonal d, squared off-diagonal e2) at
 * or below x, counted as ?laebz counts: a pivot smaller than pivmin in
 * magnitude is taken as -pivmin. */
DEVFN int sturm_count(int n, const GLOBAL real_t *d, const GLOBAL real_t *e2,
                      real_t x, real_t pivmin)
{
    real_t q = d[0] - x;
    if (fabs(q) < pivmin)
        q = -pivmin;
    int count = q <= 0;
    for (int i = 1; i < n; i++) {
        q = d[i] - e2[i - 1] / q - x;
        if (fabs(q) < pivmin)
            q = -pivmin;
        count += q <= 0;
    }
    return count;
}

/* w[g] = the (k+1)-th smallest eigenvalue, k = kfirst + g, for the
 * global ids g < count: bisection of [lo, hi] (bounds of the spectrum)
 * until the interval is below max(atol, rtol |ends|) -- ?stebz's test --
 * or stops shrinking. */
KERNEL gl_tridiag_bisect(int n, const GLOBAL real_t *d, gl_long doff,
                         const GLOBAL real_t *e2, gl_long eoff, int kfirst,
                         int count, real_t lo, real_t hi, real_t atol,
                         real_t rtol, real_t pivmin, GLOBAL real_t *w,
                         gl_long woff)
{
    int g = GLOBAL_ID(0), k = kfirst + g;
    if (g >= count)   /* no barrier in this kernel */
        return;
    d += doff;
    e2 += eoff;
    w += woff;
    for (;;) {
        real_t mid = lo / 2 + hi / 2;
        /* written so that a NaN ends the loop too: never a hang */
        if (!(hi - lo > fmax(atol, rtol * fmax(fabs(lo), fabs(hi)))) ||
            !(mid > lo && mid < hi))
            break;
        if (sturm_count(n, d, e2, mid, pivmin) > k)
            hi = mid;   /* at least k + 1 eigenvalues at or below mid */
        else
            lo = mid;
    }
    w[g] = lo / 2 + hi / 2;
}
