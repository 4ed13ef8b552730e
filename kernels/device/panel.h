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
 * of a tiny beta is the one-work-item ?larfg's, by work-item 0.  No early
 * return: every work-item passes every barrier.  For vectors in global
 * memory (the panels) and in local memory (the chase's reflectors). */
#define GL_DEFINE_GROUP_LARFG(SPACE, NAME, ONE_ITEM_LARFG)                    \
DEVFN scalar_t NAME(int n, SPACE scalar_t *alpha, SPACE scalar_t *x,          \
                    gl_long inc, LOCAL scalar_t *scratch,                     \
                    LOCAL real_t *rscratch)                                   \
{                                                                             \
    int l = LID(0), size = LSIZE(0);                                          \
    real_t amax = 0;                                                          \
    for (int i = l; i < n - 1; i += size)                                     \
        amax = fmax(amax,                                                     \
                    fmax(fabs(s_re(x[i * inc])), fabs(s_im(x[i * inc]))));    \
    amax = group_max(amax, rscratch);                                         \
    real_t ssq = 0;                                                           \
    for (int i = l; amax > 0 && i < n - 1; i += size) {                       \
        real_t re = s_re(x[i * inc]) / amax, im = s_im(x[i * inc]) / amax;   \
        ssq += re * re + im * im;                                             \
    }                                                                         \
    ssq = s_re(group_sum(s_make(ssq, 0), scratch));                           \
    real_t xnorm = isinf(amax) ? amax : amax * sqrt(ssq);                     \
    real_t alphr = n > 0 ? s_re(*alpha) : 0,                                  \
           alphi = n > 0 ? s_im(*alpha) : 0;                                  \
    int trivial = n <= 0 || (xnorm == 0 && alphi == 0);                       \
    real_t beta = -copysign(r_lapy3(alphr, alphi, xnorm), alphr);             \
    int tiny = !trivial && fabs(beta) < R_SAFMIN;                             \
    scalar_t tau = s_zero();                                                  \
    if (!trivial && !tiny) {                                                  \
        tau = s_make((beta - alphr) / beta, -alphi / beta);                   \
        scalar_t scal = s_reciprocal(alphr - beta, alphi);                    \
        for (int i = l; i < n - 1; i += size)                                 \
            x[i * inc] = s_mul(scal, x[i * inc]);                             \
    }                                                                         \
    BARRIER();   /* every work-item has read *alpha */                        \
    if (l == 0 && tiny)                                                       \
        scratch[0] = ONE_ITEM_LARFG(n, alpha, x, inc);                        \
    if (l == 0 && !trivial && !tiny)                                          \
        *alpha = s_make(beta, 0);                                             \
    BARRIER();                                                                \
    if (tiny)                                                                 \
        tau = scratch[0];                                                     \
    BARRIER();   /* scratch is the next reduction's */                        \
    return tau;                                                               \
}
GL_DEFINE_GROUP_LARFG(GLOBAL, group_larfg, larfg_global)
GL_DEFINE_GROUP_LARFG(LOCAL, group_larfg_local, larfg_local)

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

/* ---- Leaves over many work-groups: tall panels ----
 *
 * A leaf of a tall panel (16 columns of 16384 rows, or the rows of a wide
 * LQ panel) factored by one work-group keeps one multiprocessor busy while
 * the others wait: most of stage 1 on an H100 (docs/performance.md).
 * Here the long side is split into blocks of `rows`, one work-group each,
 * and every reflector takes two launches:
 *   gl_panel_reflect (one work-group): reflector c from sums over the
 *     whole long side (its norm, the products of its column with every
 *     other column of the leaf), with ?larfg's rescaling; the row of the
 *     diagonal, T's column c and the multipliers the update needs;
 *   gl_panel_update (every block): reflector c applied to the block's
 *     rows, then the sums for reflector c + 1 over those rows.
 * One work-item owns a row (all n <= TALL_LEAF values of it) in a launch,
 * so the work-groups never wait for each other.
 *
 * The leaf is written for QR (m x n, m >= n, reflectors down the
 * columns); an LQ leaf (n x m, reflectors along the rows) is the same
 * with the two strides exchanged (EL) and conjugations where ?gelqt's
 * reflector is of the conjugated row.  e_k is the sum over the long side
 * below the diagonal of conj(EL(r, k)) EL(r, c); with v = pre * scal * x
 * (x the long side of column c below the diagonal, or its conjugate for
 * LQ) every product the reflector needs is a multiple of an e_k:
 *   QR: w_k = conj(tau) (EL(c, k) + conj(pre scal e_k)),
 *       z_p = conj(EL(c, p)) + pre scal e_p;
 *   LQ: w_k = tau (EL(c, k) + pre scal conj(e_k)),
 *       z_p = EL(c, p) + pre scal conj(e_p).
 * The norm is reduced as Blue's three sums of squares (LAPACK 3.10's
 * ?nrm2), which add up over blocks without overflow or underflow. */
#define TALL_LEAF 16
#define TALL_THREADS 128
#define TALL_SUMS (TALL_LEAF + 3)   /* e_0..e_{TALL_LEAF-1}, Blue's 3 */
#define EL(r, k) a[(gl_long)(r) * sl + (gl_long)(k) * sk]

#if PRECISION == 1 || PRECISION == 3
#define BLUE_TSML 1.084202172e-19f    /* 2^-63 */
#define BLUE_TBIG 4.503599627e+15f    /* 2^52 */
#define BLUE_SSML 3.777893186e+22f    /* 2^75 */
#define BLUE_SBIG 1.323488980e-23f    /* 2^-76 */
#else
#define BLUE_TSML 1.4916681462400413e-154   /* 2^-511 */
#define BLUE_TBIG 1.997919072202235e+146    /* 2^486 */
#define BLUE_SSML 4.4989137945431964e+161   /* 2^537 */
#define BLUE_SBIG 1.1113793747425387e-162   /* 2^-538 */
#endif

/* x into Blue's sums: small (scaled up), medium, big (scaled down) */
DEVFN void blue_add(real_t x, real_t *asml, real_t *amed, real_t *abig)
{
    real_t ax = fabs(x);
    if (ax > BLUE_TBIG)
        *abig += (ax * BLUE_SBIG) * (ax * BLUE_SBIG);
    else if (ax < BLUE_TSML)
        *asml += (ax * BLUE_SSML) * (ax * BLUE_SSML);
    else
        *amed += ax * ax;
}

/* the 2-norm from Blue's sums, as ?nrm2 combines them */
DEVFN real_t blue_norm(real_t asml, real_t amed, real_t abig)
{
    if (abig > 0) {
        if (amed > 0 || isnan(amed))
            abig += (amed * BLUE_SBIG) * BLUE_SBIG;
        return sqrt(abig) / BLUE_SBIG;
    }
    if (asml > 0) {
        if (!(amed > 0 || isnan(amed)))
            return sqrt(asml) / BLUE_SSML;
        real_t ymed = sqrt(amed), ysml = sqrt(asml) / BLUE_SSML;
        real_t ymin = fmin(ymed, ysml), ymax = fmax(ymed, ysml);
        return ymax * sqrt(1 + (ymin / ymax) * (ymin / ymax));
    }
    return sqrt(amed);
}

/* red[q * size + l] (q < TALL_SUMS, size a power of 2) summed over l into
 * red[q * size], by the group; every work-item must call it. */
DEVFN void tall_reduce(LOCAL scalar_t *red)
{
    const int l = LID(0), size = LSIZE(0);
    BARRIER();
    for (int h = size / 2; h > 0; h /= 2) {
        if (l < h)
            for (int q = 0; q < TALL_SUMS; q++)
                red[q * size + l] = s_add(red[q * size + l], red[q * size + l + h]);
        BARRIER();
    }
}

/* coef: [0] pre (real), [1] the multiplier of the long side (scal, or
 * conj(scal) for LQ: the stored row is conj(v)), [2 + k] w_k. */
KERNEL gl_panel_reflect(int rowwise, int n, GLOBAL scalar_t *a, gl_long aoff,
                        int lda, GLOBAL scalar_t *t, gl_long toff, int ldt,
                        int c, int groups, GLOBAL const scalar_t *sums,
                        gl_long soff, GLOBAL scalar_t *coef, gl_long coff)
{
    LOCAL_MEM scalar_t red[TALL_SUMS * TALL_THREADS];
    LOCAL_MEM scalar_t z[TALL_LEAF];
    LOCAL_MEM scalar_t tau_shared[1];
    const int l = LID(0), size = LSIZE(0);
    const gl_long sl = rowwise ? lda : 1, sk = rowwise ? 1 : lda;
    a += aoff;
    t += toff;
    sums += soff;
    coef += coff;
    for (int q = 0; q < TALL_SUMS; q++) {
        scalar_t part = s_zero();
        for (int g = l; g < groups; g += size)
            part = s_add(part, sums[(gl_long)g * TALL_SUMS + q]);
        red[q * size + l] = part;
    }
    tall_reduce(red);
    if (l == 0) {
        const real_t safmin = R_SAFMIN, rsafmn = 1 / R_SAFMIN;
        real_t asml = s_re(red[TALL_LEAF * size]),
               amed = s_re(red[(TALL_LEAF + 1) * size]),
               abig = s_re(red[(TALL_LEAF + 2) * size]);
        real_t xnorm = blue_norm(asml, amed, abig);
        scalar_t alpha = rowwise ? s_conj(EL(c, c)) : EL(c, c);
        real_t ar = s_re(alpha), ai = s_im(alpha), pre = 1;
        scalar_t tau = s_zero(), scal = s_make(1, 0);
        if (!(xnorm == 0 && ai == 0)) {
            real_t beta = -copysign(r_lapy3(ar, ai, xnorm), ar);
            int knt = 0;
            while (fabs(beta) < safmin && knt < 20) {
                knt++;
                beta *= rsafmn;
                pre *= rsafmn;
            }
            if (knt > 0) {
                /* x, alpha scaled by pre, as ?larfg does it: |x| was
                 * below safmin, so all of it is in the small sum */
                ar *= pre;
                ai *= pre;
                xnorm = sqrt(asml) * (pre / BLUE_SSML);
                beta = -copysign(r_lapy3(ar, ai, xnorm), ar);
            }
            tau = s_make((beta - ar) / beta, -ai / beta);
            scal = s_reciprocal(ar - beta, ai);
            for (int j = 0; j < knt; j++)
                beta *= safmin;
            EL(c, c) = s_make(beta, 0);
        }
        for (int k = 0; k < n; k++) {
            if (k == c)
                continue;
            scalar_t e = red[k * size];
            scalar_t ve = s_mul(s_rscale(pre, rowwise ? s_conj(e) : e), scal);
            if (k < c) {
                z[k] = s_add(rowwise ? EL(c, k) : s_conj(EL(c, k)), ve);
            } else {
                scalar_t w = rowwise ? s_mul(tau, s_add(EL(c, k), ve))
                                     : s_mul(s_conj(tau), s_add(EL(c, k), s_conj(ve)));
                coef[2 + k] = w;
                EL(c, k) = s_sub(EL(c, k), w);
            }
        }
        coef[0] = s_make(pre, 0);
        coef[1] = rowwise ? s_conj(scal) : scal;
        tau_shared[0] = tau;
    }
    BARRIER();
    larft_column(c, n, tau_shared[0], z, t, ldt);
}

/* Reflector c - 1 (c > 0; coef from gl_panel_reflect) on the rows of this
 * work-group's block, then (c < n) the sums for reflector c over them:
 * TALL_SUMS values per block in sums. */
KERNEL gl_panel_update(int rowwise, int m, int n, GLOBAL scalar_t *a,
                       gl_long aoff, int lda, int c, int rows,
                       GLOBAL const scalar_t *coef, gl_long coff,
                       GLOBAL scalar_t *sums, gl_long soff)
{
    LOCAL_MEM scalar_t red[TALL_SUMS * TALL_THREADS];
    const int l = LID(0), size = LSIZE(0);
    const gl_long sl = rowwise ? lda : 1, sk = rowwise ? 1 : lda;
    a += aoff;
    coef += coff;
    sums += soff;
    real_t pre = c > 0 ? s_re(coef[0]) : 1;
    scalar_t mult = c > 0 ? coef[1] : s_make(1, 0);
    scalar_t acc[TALL_LEAF];
    for (int k = 0; k < TALL_LEAF; k++)
        acc[k] = s_zero();
    real_t asml = 0, amed = 0, abig = 0;
    const int first = GID(0) * rows, end = min(first + rows, m);
    for (int r = first + l; r < end; r += size) {
        if (c > 0 && r >= c) {   /* below reflector c - 1's diagonal */
            scalar_t v = s_mul(s_rscale(pre, EL(r, c - 1)), mult);
            EL(r, c - 1) = v;
            for (int k = c; k < n; k++)
                EL(r, k) = s_fms(EL(r, k), v, coef[2 + k]);
        }
        if (c < n && r > c) {
            scalar_t x = EL(r, c);
            blue_add(s_re(x), &asml, &amed, &abig);
            blue_add(s_im(x), &asml, &amed, &abig);
            for (int k = 0; k < TALL_LEAF; k++)
                if (k < n && k != c)
                    acc[k] = s_fcma(acc[k], EL(r, k), x);
        }
    }
    /* c = n (the last reflector's update) sums zeros: no early return
     * before a barrier, which PoCL 3.1 miscompiles (README.md) */
    for (int k = 0; k < TALL_LEAF; k++)
        red[k * size + l] = acc[k];
    red[TALL_LEAF * size + l] = s_make(asml, 0);
    red[(TALL_LEAF + 1) * size + l] = s_make(amed, 0);
    red[(TALL_LEAF + 2) * size + l] = s_make(abig, 0);
    tall_reduce(red);
    if (c < n && l < TALL_SUMS)
        sums[(gl_long)GID(0) * TALL_SUMS + l] = red[l * size];
}
#undef EL
