/* Stage 3 with vectors kept on the device: the data movement of the
 * divide and conquer's merges and the vectors of their secular equations
 * (kernels/stages/dc_*.c).  The eigenvectors of the tridiagonal matrix
 * are real in every precision; the host keeps only O(n) per merge: the
 * deflation's decisions, the roots, the permutations. */

/* Work-items of the per-column reductions (a power of two). */
#define DC_THREADS 256

/* A (rows x cols, ld lda) = diag * I. */
KERNEL gl_dc_fill(int rows, int cols, GLOBAL real_t *a, gl_long aoff, int lda,
                  real_t diag)
{
    int i = GLOBAL_ID(0), j = GLOBAL_ID(1);
    if (i >= rows || j >= cols)
        return;
    a[aoff + i + (gl_long)j * lda] = i == j ? diag : 0;
}

/* The deflation's plane rotations of column pairs (by_rows 0) or row
 * pairs (1), in their order, on every row (column): (x, y) = (c x + s y,
 * c y - s x), ?rot's.  Rows (columns) are independent, so one work-item
 * runs the whole chain of its own. */
KERNEL gl_dc_rotate(int count, GLOBAL real_t *q, gl_long qoff, int ldq,
                    int by_rows, int nrot, const GLOBAL int *pair,
                    gl_long poff, const GLOBAL real_t *cs, gl_long csoff)
{
    int i = GLOBAL_ID(0);
    if (i >= count)
        return;
    gl_long step = by_rows ? 1 : ldq;
    q += qoff + (by_rows ? (gl_long)i * ldq : i);
    pair += poff;
    cs += csoff;
    for (int r = 0; r < nrot; r++) {
        GLOBAL real_t *x = q + pair[2 * r] * step;
        GLOBAL real_t *y = q + pair[2 * r + 1] * step;
        real_t c = cs[2 * r], s = cs[2 * r + 1], xv = *x, yv = *y;
        *x = c * xv + s * yv;
        *y = c * yv - s * xv;
    }
}

/* dst(:, j) = src(:, from[j]) (by_rows 0) or dst(i, :) = src(from[i], :)
 * (1): the vectors a merge multiplies, those it deflates, the final
 * sort. */
KERNEL gl_dc_gather(int rows, int cols, const GLOBAL real_t *src,
                    gl_long soff, int lds, int by_rows,
                    const GLOBAL int *from, gl_long foff, GLOBAL real_t *dst,
                    gl_long doff, int ldd)
{
    int i = GLOBAL_ID(0), j = GLOBAL_ID(1);
    if (i >= rows || j >= cols)
        return;
    gl_long at = by_rows ? from[foff + i] + (gl_long)j * lds
                         : i + (gl_long)from[foff + j] * lds;
    dst[doff + i + (gl_long)j * ldd] = src[soff + at];
}

/* A merge's secular problem as the host leaves it (k values each, in one
 * array): the poles dlambda, each root's offset tau_j from its pole
 * origin_j (lambda_j = dlambda[origin_j] + tau_j, as ?laed4 finds it),
 * the weights w, the row order perm of the vectors; origin and perm are
 * integers held exactly in real_t. */
#define DC_POLES(r, k) (r)
#define DC_TAU(r, k) ((r) + (k))
#define DC_ORIGIN(r, k) ((r) + 2 * (gl_long)(k))
#define DC_W(r, k) ((r) + 3 * (gl_long)(k))
#define DC_PERM(r, k) ((r) + 4 * (gl_long)(k))

/* ---- the roots of a merge's secular equation ----
 *
 * Root j of 1/rho + sum_i z_i^2 / (P_i - u) = 0, one work-item per root,
 * the poles P_i relative to the root's origin pole o: dlambda_i -
 * dlambda_o for the tridiagonal problem (u = lambda - dlambda_o), and
 * (dsigma_i - dsigma_o)(dsigma_i + dsigma_o) for the bidiagonal one (u =
 * sigma^2 - dsigma_o^2), formed from differences of the given poles so
 * that the roots' distances to their nearest poles keep their relative
 * accuracy (the property the vectors need: Gu and Eisenstat, "A
 * divide-and-conquer algorithm for the symmetric tridiagonal
 * eigenproblem").  The origin is the nearer end of the root's interval,
 * found from the sign at its middle, as ?laed4 and ?lasd4 choose it.
 * Each step solves the rational model with the nearest pole on either
 * side whose weights match the derivatives of the two sides' sums (the
 * fixed-weight model of the secular equation's literature), kept inside
 * the bracket that the signs give; a step that would leave it bisects.
 * It stops where |g| is within the rounding bound of its evaluation, as
 * ?laed4's test, or the bracket is at the precision's resolution. */

/* Steps before a root counts as not converging. */
#define DC_ROOT_STEPS 200

DEVFN real_t dc_pole(const GLOBAL real_t *p, int svd, int i, int o)
{
    return svd ? (p[i] - p[o]) * (p[i] + p[o]) : p[i] - p[o];
}

/* g at u for root j with origin o, the derivatives of the sums over the
 * poles left of the root (i <= j) and right of it, the rounding bound of
 * g, and the differences from the interval's two poles. */
typedef struct dc_secular_at {
    real_t g, dleft, dright, bound, left, right;
} dc_secular_at;

DEVFN dc_secular_at dc_secular_eval(int k, int svd, const GLOBAL real_t *p,
                                    const GLOBAL real_t *z, real_t rinv,
                                    int j, int o, real_t u)
{
    real_t psi = 0, phi = 0, dpsi = 0, dphi = 0;
    dc_secular_at e;
    e.left = e.right = 0;
    for (int i = 0; i < k; i++) {
        real_t delta = dc_pole(p, svd, i, o) - u, t = z[i] / delta;
        if (i <= j) {
            psi += z[i] * t;
            dpsi += t * t;
        } else {
            phi += z[i] * t;
            dphi += t * t;
        }
        if (i == j)
            e.left = delta;
        else if (i == j + 1)
            e.right = delta;
    }
    e.g = rinv + psi + phi;
    e.dleft = dpsi;
    e.dright = dphi;
    e.bound = R_EPS * (8 * (rinv + phi - psi) + fabs(u) * (dpsi + dphi));
    return e;
}

/* The step of the model c + a/(left - x) + b/(right - x) (b = 0 beyond
 * the last pole) that matches g and both sums' derivatives at the point:
 * its root between the two poles, or, where the arithmetic finds none,
 * the step onto the left pole, which no bracket contains (the caller
 * bisects). */
DEVFN real_t dc_secular_step(dc_secular_at e, int last)
{
    real_t a = e.left * e.left * e.dleft;
    if (last) {   /* c + a/(left - x): x = left + a/c */
        real_t c = e.g - e.left * e.dleft;
        return c != 0 ? e.left + a / c : e.left;
    }
    real_t b = e.right * e.right * e.dright,
           c = e.g - e.left * e.dleft - e.right * e.dright;
    /* c x^2 - bq x + cq = 0, cq = left right g (the model at x = 0 times
     * the product of the poles' distances) */
    real_t bq = c * (e.left + e.right) + a + b, cq = e.left * e.right * e.g;
    real_t disc = fmax(bq * bq - 4 * c * cq, (real_t)0);
    real_t big = bq + copysign(sqrt(disc), bq);
    if (big != 0) {
        real_t x = 2 * cq / big;
        if (x > e.left && x < e.right)
            return x;
    }
    if (c != 0) {
        real_t x = big / (2 * c);
        if (x > e.left && x < e.right)
            return x;
    }
    return e.left;
}

/* Root j of the secular problem in r (DC_* below; svd 1: the bidiagonal
 * problem, rho the weight of z^2) into its offset and origin there and
 * its value into values[j]: lambda_j, or sigma_j; NaN where it did not
 * converge. */
KERNEL gl_dc_secular_roots(int k, int svd, real_t rho, GLOBAL real_t *r,
                           gl_long roff, GLOBAL real_t *values, gl_long voff)
{
    int j = GLOBAL_ID(0);
    r += roff;
    if (j >= k)
        return;
    const GLOBAL real_t *p = r, *z = r + 3 * (gl_long)k;
    const real_t rinv = 1 / rho;
    const int last = j == k - 1;
    int o = j;
    real_t lo = 0, hi, u;
    /* the first step's evaluation where the origin stays at pole j: the
     * midpoint's, from the same origin */
    dc_secular_at first = {0};
    int have_first = 0;
    if (!last) {
        real_t mid = dc_pole(p, svd, j + 1, j) / 2;
        first = dc_secular_eval(k, svd, p, z, rinv, j, j, mid);
        if (first.g >= 0) {
            hi = u = mid;
            have_first = 1;
        } else {
            o = j + 1;
            lo = u = -mid;
            hi = 0;
        }
    } else {
        real_t zz = 0;
        for (int i = 0; i < k; i++)
            zz += z[i] * z[i];
        hi = u = rho * zz;
    }
    int done = 0;
    for (int step = 0; step < DC_ROOT_STEPS && !done; step++) {
        dc_secular_at e = have_first ? first
                                     : dc_secular_eval(k, svd, p, z, rinv, j,
                                                       o, u);
        have_first = 0;
        if (fabs(e.g) <= e.bound) {
            done = 1;
            break;
        }
        if (e.g > 0)
            hi = u;
        else
            lo = u;
        real_t x = dc_secular_step(e, last), next = u + x;
        if (!(next > lo && next < hi))
            next = lo + (hi - lo) / 2;
        done = next == u || !(hi - lo > 2 * R_EPS * fmax(fabs(lo), fabs(hi)));
        u = next;
    }
    real_t tau = u, value = p[o] + u;
    if (svd) {   /* sigma = dsigma_o + t, t = u / (dsigma_o + sigma) */
        real_t t = u / (p[o] + sqrt(p[o] * p[o] + u));
        tau = -t;
        value = p[o] + t;
    }
    r[k + j] = tau;
    r[2 * (gl_long)k + j] = (real_t)o;
    values[voff + j] = done ? value : (real_t)NAN;
}

/* dlambda_i - lambda_j formed as ?laed4 forms it, from the pole nearest
 * the root: accurate to a few ulps of itself even where lambda_j nearly
 * equals dlambda_i, which the vectors need (Gu and Eisenstat). */
DEVFN real_t dc_delta(const GLOBAL real_t *r, int k, int i, int j)
{
    const GLOBAL real_t *dl = DC_POLES(r, k);
    int o = (int)DC_ORIGIN(r, k)[j];
    return (dl[i] - dl[o]) - DC_TAU(r, k)[j];
}

/* w_i recomputed from the roots so that the vectors are orthogonal to
 * working precision (Gu and Eisenstat), with the sign of the given w_i;
 * one work-item per i. */
KERNEL gl_dc_secular_w(int k, GLOBAL real_t *r, gl_long roff)
{
    int i = GLOBAL_ID(0);
    r += roff;
    if (i >= k)
        return;
    const GLOBAL real_t *dl = DC_POLES(r, k);
    real_t wi = dc_delta(r, k, i, i);
    for (int j = 0; j < k; j++)
        if (j != i)
            wi *= dc_delta(r, k, i, j) / (dl[i] - dl[j]);
    GLOBAL real_t *w = DC_W(r, k);
    w[i] = copysign(sqrt(-wi), w[i]);
}

/* RESULT = the 2-norm of the k values X (an expression of i) of one
 * work-group, scaled by their largest (close roots give large entries),
 * for all its work-items; t the work-item, part DC_THREADS of local
 * memory. */
#define DC_GROUP_NORM(RESULT, X)                                              \
    do {                                                                      \
        real_t big_ = 0, sum_ = 0;                                            \
        for (int i = t; i < k; i += DC_THREADS)                               \
            big_ = fmax(big_, fabs(X));                                       \
        part[t] = big_;                                                       \
        BARRIER();                                                            \
        for (int h = DC_THREADS / 2; h > 0; h /= 2) {                         \
            if (t < h)                                                        \
                part[t] = fmax(part[t], part[t + h]);                         \
            BARRIER();                                                        \
        }                                                                     \
        big_ = part[0];                                                       \
        BARRIER();                                                            \
        if (big_ > 0 && isfinite(big_))                                       \
            for (int i = t; i < k; i += DC_THREADS) {                         \
                real_t v_ = (X) / big_;                                       \
                sum_ += v_ * v_;                                              \
            }                                                                 \
        part[t] = sum_;                                                       \
        BARRIER();                                                            \
        for (int h = DC_THREADS / 2; h > 0; h /= 2) {                         \
            if (t < h)                                                        \
                part[t] += part[t + h];                                       \
            BARRIER();                                                        \
        }                                                                     \
        RESULT = big_ > 0 && isfinite(big_) ? big_ * sqrt(part[0]) : big_;    \
        BARRIER();                                                            \
    } while (0)

/* Column j of the vectors (one work-group per root): s_i = w_i /
 * (dlambda_i - lambda_j), normalised by its 2-norm taken with scaling
 * (close roots give large entries), rows in the order perm. */
KERNEL gl_dc_secular_vectors(int k, const GLOBAL real_t *r, gl_long roff,
                             GLOBAL real_t *s, gl_long soff, int lds)
{
    LOCAL_MEM real_t part[DC_THREADS];
    int j = GID(0), t = LID(0);
    r += roff;
    s += soff + (gl_long)j * lds;
    const GLOBAL real_t *w = DC_W(r, k), *perm = DC_PERM(r, k);
    real_t norm;
    DC_GROUP_NORM(norm, w[i] / dc_delta(r, k, i, j));
    for (int i = t; i < k; i += DC_THREADS) {
        int p = (int)perm[i];
        s[i] = w[p] / dc_delta(r, k, p, j) / norm;
    }
}

/* The rows of column j's first and last nonzero entries, 1-based (the
 * support of each eigenvector of T: ?syevr's ISUPPZ). */
KERNEL gl_dc_support(int rows, int cols, const GLOBAL real_t *z, gl_long zoff,
                     int ldz, GLOBAL int *supp, gl_long soff)
{
    int j = GLOBAL_ID(0);
    if (j >= cols)
        return;
    z += zoff + (gl_long)j * ldz;
    int first = 0, last = rows - 1;
    while (first < last && z[first] == 0)
        first++;
    while (last > first && z[last] == 0)
        last--;
    supp[soff + 2 * (gl_long)j] = first + 1;
    supp[soff + 2 * (gl_long)j + 1] = last + 1;
}

/* dst (drows x dcols) = diag(phase) Z (transpose 0) or diag(phase) Z^T
 * (1) for the real Z (rows x cols of dst) of stage 3, the identity
 * beyond them: the eigenvectors of the tridiagonal matrix or the
 * singular vectors of the bidiagonal one into those of the band's
 * reduction.  dst may be Z in the real precisions (transpose 0, the same
 * shape). */
KERNEL gl_dc_phase_rows(int rows, int cols, int transpose,
                        const GLOBAL scalar_t *phase, gl_long poff,
                        const GLOBAL real_t *z, gl_long zoff, int ldz,
                        int drows, int dcols, GLOBAL scalar_t *dst,
                        gl_long doff, int ldd)
{
    int i = GLOBAL_ID(0), j = GLOBAL_ID(1);
    if (i >= drows || j >= dcols)
        return;
    scalar_t x = s_make(i == j ? 1 : 0, 0);
    if (i < rows && j < cols)
        x = s_rscale(z[zoff + (transpose ? j + (gl_long)i * ldz
                                         : i + (gl_long)j * ldz)],
                     phase[poff + i]);
    dst[doff + i + (gl_long)j * ldd] = x;
}

/* ---- the merges of the SVD (?lasd2, ?lasd3) ---- */

/* The first row of VT2 and the last of VT of a merge of an n x m
 * bidiagonal (m = n + 1 for a lower block, else n), one work-item per
 * column: with m > n the rotation (c, s) of the row nl + 1 (0-based nl)
 * with row m that ?lasd2 makes, else that row itself. */
KERNEL gl_dc_svd_first_row(int n, int m, int nl, real_t c, real_t s,
                           GLOBAL real_t *vt, gl_long vtoff, int ldvt,
                           GLOBAL real_t *vt2, gl_long vt2off, int ldvt2)
{
    int col = GLOBAL_ID(0);
    if (col >= m)
        return;
    vt += vtoff + (gl_long)col * ldvt;
    vt2 += vt2off + (gl_long)col * ldvt2;
    if (m > n) {
        if (col <= nl) {
            vt2[0] = c * vt[nl];
            vt[m - 1] = -s * vt[nl];
        } else {
            vt2[0] = s * vt[m - 1];
            vt[m - 1] = c * vt[m - 1];
        }
        vt2[m - 1] = vt[m - 1];
    } else {
        vt2[0] = vt[nl];
    }
}

/* The SVD's secular problem as the host leaves it, as DC_* above: the
 * poles dsigma (dsigma_0 = 0), each root's pole origin_j and its
 * difference dsigma[origin_j] - sigma_j from it, the weights z, the
 * order of the rows (perm_0 = 0). */
DEVFN real_t dc_svd_minus(const GLOBAL real_t *r, int k, int i, int j)
{   /* dsigma_i - sigma_j */
    const GLOBAL real_t *ds = DC_POLES(r, k);
    int o = (int)DC_ORIGIN(r, k)[j];
    return (ds[i] - ds[o]) + DC_TAU(r, k)[j];
}

DEVFN real_t dc_svd_plus(const GLOBAL real_t *r, int k, int i, int j)
{   /* dsigma_i + sigma_j */
    const GLOBAL real_t *ds = DC_POLES(r, k);
    int o = (int)DC_ORIGIN(r, k)[j];
    return (ds[i] + ds[o]) - DC_TAU(r, k)[j];
}

/* z_i recomputed from the roots (Gu and Eisenstat, as ?lasd3), with the
 * sign of the given z_i; one work-item per i. */
KERNEL gl_dc_svd_z(int k, GLOBAL real_t *r, gl_long roff)
{
    int i = GLOBAL_ID(0);
    r += roff;
    if (i >= k)
        return;
    const GLOBAL real_t *ds = DC_POLES(r, k);
    real_t zi = dc_svd_minus(r, k, i, k - 1) * dc_svd_plus(r, k, i, k - 1);
    for (int j = 0; j < i; j++)
        zi *= dc_svd_minus(r, k, i, j) * dc_svd_plus(r, k, i, j) /
              (ds[i] - ds[j]) / (ds[i] + ds[j]);
    for (int j = i; j < k - 1; j++)
        zi *= dc_svd_minus(r, k, i, j) * dc_svd_plus(r, k, i, j) /
              (ds[i] - ds[j + 1]) / (ds[i] + ds[j + 1]);
    GLOBAL real_t *z = DC_W(r, k);
    z[i] = copysign(sqrt(fabs(zi)), z[i]);
}

/* Root j's vectors (one work-group per root, ?lasd3): right v_i = z_i /
 * ((dsigma_i - s_j)(dsigma_i + s_j)), left u_0 = -1, u_i = dsigma_i v_i,
 * each normalised, rows in the order perm, into column j of qu and
 * column j of qvt (row j of Q_vt). */
KERNEL gl_dc_svd_vectors(int k, const GLOBAL real_t *r, gl_long roff,
                         GLOBAL real_t *qu, gl_long quoff,
                         GLOBAL real_t *qvt, gl_long qvtoff, int ldq)
{
    LOCAL_MEM real_t part[DC_THREADS];
    int j = GID(0), t = LID(0);
    r += roff;
    qu += quoff + (gl_long)j * ldq;
    qvt += qvtoff + (gl_long)j * ldq;
    const GLOBAL real_t *z = DC_W(r, k), *ds = DC_POLES(r, k),
                        *perm = DC_PERM(r, k);
#define V_OF(i) (z[i] / dc_svd_minus(r, k, i, j) / dc_svd_plus(r, k, i, j))
#define U_OF(i) ((i) == 0 ? (real_t)-1 : ds[i] * V_OF(i))
    real_t nv, nu;
    DC_GROUP_NORM(nv, V_OF(i));
    DC_GROUP_NORM(nu, U_OF(i));
    for (int i = t; i < k; i += DC_THREADS) {
        int p = (int)perm[i];
        qu[i] = U_OF(p) / nu;
        qvt[i] = V_OF(p) / nv;
    }
#undef V_OF
#undef U_OF
}
