/* Panel factorizations with the T of their block reflector (?geqrt,
 * ?gelqt), one work-group of PANEL_THREADS work-items per panel (the
 * leaves of the host's recursive split, a few columns or rows wide): the
 * whole group generates each reflector (?larfg with the norm reduced
 * over the group), every sum along the panel's long side is a group
 * reduction, and T is built as ?larft 'F' builds it.  PANEL_MAX bounds
 * the panel width (the host checks it). */
#define PANEL_MAX 256
#define PANEL_THREADS 256

/* The sum (max) over the work-group of every work-item's x, returned to
 * each; scratch holds LSIZE(0) values.  Every work-item must call it. */
#define GL_DEFINE_GROUP_REDUCE(NAME, T, OP)                                   \
DEVFN T NAME(T x, LOCAL T *scratch)                                           \
{                                                                             \
    int l = LID(0), size = LSIZE(0), p = 1;                                   \
    while (2 * p <= size)                                                     \
        p *= 2;                                                               \
    scratch[l] = x;                                                           \
    BARRIER();                                                                \
    if (l < size - p)                                                         \
        scratch[l] = OP(scratch[l], scratch[l + p]);                          \
    BARRIER();                                                                \
    for (int h = p / 2; h > 0; h /= 2) {                                      \
        if (l < h)                                                            \
            scratch[l] = OP(scratch[l], scratch[l + h]);                      \
        BARRIER();                                                            \
    }                                                                         \
    T r = scratch[0];                                                         \
    BARRIER();                                                                \
    return r;                                                                 \
}
GL_DEFINE_GROUP_REDUCE(group_sum, scalar_t, s_add)
GL_DEFINE_GROUP_REDUCE(group_max, real_t, fmax)

/* ?larfg by the whole work-group (every work-item calls it with the same
 * arguments; each gets tau): as larfg_global, with |x|_2 as max |x_i|
 * times the root of the sum of (x_i / max)^2, both reduced over the
 * group (no overflow or underflow of the squares).  The rare rescaling
 * of a tiny beta is larfg_global's, by work-item 0.  No early return:
 * every work-item passes every barrier. */
DEVFN scalar_t group_larfg(int n, GLOBAL scalar_t *alpha, GLOBAL scalar_t *x,
                           gl_long inc, LOCAL scalar_t *scratch,
                           LOCAL real_t *rscratch)
{
    int l = LID(0), size = LSIZE(0);
    real_t amax = 0;
    for (int i = l; i < n - 1; i += size)
        amax = fmax(amax, fmax(fabs(s_re(x[i * inc])), fabs(s_im(x[i * inc]))));
    amax = group_max(amax, rscratch);
    real_t ssq = 0;
    for (int i = l; amax > 0 && i < n - 1; i += size) {
        real_t re = s_re(x[i * inc]) / amax, im = s_im(x[i * inc]) / amax;
        ssq += re * re + im * im;
    }
    ssq = s_re(group_sum(s_make(ssq, 0), scratch));
    real_t xnorm = isinf(amax) ? amax : amax * sqrt(ssq);
    real_t alphr = n > 0 ? s_re(*alpha) : 0, alphi = n > 0 ? s_im(*alpha) : 0;
    int trivial = n <= 0 || (xnorm == 0 && alphi == 0);
    real_t beta = -copysign(r_lapy3(alphr, alphi, xnorm), alphr);
    int tiny = !trivial && fabs(beta) < R_SAFMIN;
    scalar_t tau = s_zero();
    if (!trivial && !tiny) {
        tau = s_make((beta - alphr) / beta, -alphi / beta);
        /* 1/(alpha - beta) as ?ladiv computes it: robustly */
        real_t dr = alphr - beta, di = alphi;
        scalar_t scal;
        if (fabs(di) <= fabs(dr)) {
            real_t r = di / dr, den = dr + di * r;
            scal = s_make(1 / den, -r / den);
        } else {
            real_t r = dr / di, den = di + dr * r;
            scal = s_make(r / den, -1 / den);
        }
        for (int i = l; i < n - 1; i += size)
            x[i * inc] = s_mul(scal, x[i * inc]);
    }
    BARRIER();   /* every work-item has read *alpha */
    if (l == 0 && tiny)
        scratch[0] = larfg_global(n, alpha, x, inc);
    if (l == 0 && !trivial && !tiny)
        *alpha = s_make(beta, 0);
    BARRIER();
    if (tiny)
        tau = scratch[0];
    BARRIER();   /* scratch is the next reduction's */
    return tau;
}

/* T(0:i, i) = -tau_i T(0:i, 0:i) z (z in local memory) and T(i, i) =
 * tau_i, zeros below, by the group; T is n x n. */
DEVFN void larft_column(int i, int n, scalar_t tau, const LOCAL scalar_t *z,
                        GLOBAL scalar_t *t, int ldt)
{
    for (int p = LID(0); p < i; p += LSIZE(0)) {
        scalar_t sum = s_zero();
        for (int q = p; q < i; q++)
            sum = s_add(sum, s_mul(AT(t, ldt, p, q), z[q]));
        AT(t, ldt, p, i) = s_sub(s_zero(), s_mul(tau, sum));
    }
    if (LID(0) == 0)
        AT(t, ldt, i, i) = tau;
    for (int p = i + 1 + LID(0); p < n; p += LSIZE(0))
        AT(t, ldt, p, i) = s_zero();
}

/* A (m x n, m >= n) = Q R, Q = H_0 ... H_{n-1} = I - V T V^H: R on and
 * above the diagonal, V below it (unit diagonal implied), T n x n. */
KERNEL gl_geqrt(int m, int n, GLOBAL scalar_t *a, gl_long aoff, int lda,
                GLOBAL scalar_t *t, gl_long toff, int ldt)
{
    LOCAL_MEM scalar_t z[PANEL_MAX];
    LOCAL_MEM scalar_t red[PANEL_THREADS];
    LOCAL_MEM real_t rred[PANEL_THREADS];
    const int l = LID(0), size = LSIZE(0);
    a += aoff;
    t += toff;
    for (int i = 0; i < n; i++) {
        scalar_t tau = group_larfg(m - i, &AT(a, lda, i, i),
                                   &AT(a, lda, i + 1, i), 1, red, rred);
        /* H_i^H on each column j to the right: w = v^H a_j by the group */
        for (int j = i + 1; j < n; j++) {
            scalar_t part = s_zero();
            for (int r = i + 1 + l; r < m; r += size)
                part = s_fcma(part, AT(a, lda, r, i), AT(a, lda, r, j));
            scalar_t w = s_add(AT(a, lda, i, j), group_sum(part, red));
            w = s_mul(s_conj(tau), w);
            for (int r = i + 1 + l; r < m; r += size)
                AT(a, lda, r, j) = s_fms(AT(a, lda, r, j), AT(a, lda, r, i), w);
            BARRIER();   /* every work-item has read A(i, j) */
            if (l == 0)
                AT(a, lda, i, j) = s_sub(AT(a, lda, i, j), w);
        }
        /* a barrier between the two loops of reductions: without it PoCL
         * computes wrong sums below (seen on PoCL 3.1) */
        BARRIER();
        /* z = V(:, 0:i)^H v_i */
        for (int p = 0; p < i; p++) {
            scalar_t part = s_zero();
            for (int r = i + 1 + l; r < m; r += size)
                part = s_fcma(part, AT(a, lda, r, p), AT(a, lda, r, i));
            scalar_t sum = group_sum(part, red);
            if (l == 0)
                z[p] = s_add(s_conj(AT(a, lda, i, p)), sum);
        }
        BARRIER();
        larft_column(i, n, tau, z, t, ldt);
        BARRIER();
    }
}

/* A (m x n, m <= n) = L Q, Q^H = H_0 ... H_{m-1} = I - V^H T V: L on and
 * below the diagonal, the rows of V (v_i^H, unit diagonal implied) right
 * of it, T m x m; as ?gelqt. */
KERNEL gl_gelqt(int m, int n, GLOBAL scalar_t *a, gl_long aoff, int lda,
                GLOBAL scalar_t *t, gl_long toff, int ldt)
{
    LOCAL_MEM scalar_t z[PANEL_MAX];
    LOCAL_MEM scalar_t red[PANEL_THREADS];
    LOCAL_MEM real_t rred[PANEL_THREADS];
    const int l = LID(0), size = LSIZE(0);
    a += aoff;
    t += toff;
    for (int i = 0; i < m; i++) {
        /* ?gelq2: the reflector of conj(row i) */
        for (int c = i + l; IS_COMPLEX && c < n; c += size)
            AT(a, lda, i, c) = s_conj(AT(a, lda, i, c));
        BARRIER();
        scalar_t tau = group_larfg(n - i, &AT(a, lda, i, i),
                                   &AT(a, lda, i, i + 1), lda, red, rred);
        /* H_i from the right on each row r below: w = a_r v by the group */
        for (int r = i + 1; r < m; r++) {
            scalar_t part = s_zero();
            for (int c = i + 1 + l; c < n; c += size)
                part = s_add(part, s_mul(AT(a, lda, r, c), AT(a, lda, i, c)));
            scalar_t w = s_add(AT(a, lda, r, i), group_sum(part, red));
            w = s_mul(tau, w);
            for (int c = i + 1 + l; c < n; c += size)
                AT(a, lda, r, c) =
                    s_sub(AT(a, lda, r, c), s_mul(w, s_conj(AT(a, lda, i, c))));
            BARRIER();   /* every work-item has read A(r, i) */
            if (l == 0)
                AT(a, lda, r, i) = s_sub(AT(a, lda, r, i), w);
        }
        BARRIER();
        /* back to the stored form v_i^H, then z = V(0:i, :) v_i */
        for (int c = i + 1 + l; IS_COMPLEX && c < n; c += size)
            AT(a, lda, i, c) = s_conj(AT(a, lda, i, c));
        BARRIER();
        for (int p = 0; p < i; p++) {
            scalar_t part = s_zero();
            for (int c = i + 1 + l; c < n; c += size)
                part = s_add(part, s_mul(AT(a, lda, p, c),
                                         s_conj(AT(a, lda, i, c))));
            scalar_t sum = group_sum(part, red);
            if (l == 0)
                z[p] = s_add(AT(a, lda, p, i), sum);
        }
        BARRIER();
        larft_column(i, m, tau, z, t, ldt);
        BARRIER();
    }
}
