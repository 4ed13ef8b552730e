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

/* ---- Leaves over many work-groups: tall panels, in one launch ----
 *
 * A leaf of a tall panel (16 columns of 16384 rows, or the rows of a wide
 * LQ panel) factored by one work-group keeps one multiprocessor busy while
 * the others wait: 12.8 s of stage 1 at n = 32768 on an H100
 * (docs/design/stage1-panel-leaves.md).  Here the long side is split
 * into blocks of `rows` and the leaf is one launch of any number of
 * work-groups, which take the tasks (step c, block g), c = 0..n, in order
 * from a ticket counter:
 *   step c applies reflector c - 1 (c > 0) to the block's rows below its
 *   diagonal, then sums over them what reflector c needs (c < n).
 * A task of step c > 0 first waits until every task of step c - 1 is done
 * (a counter per step), then makes reflector c - 1 itself from all the
 * blocks' sums: the same operations in the same order in every
 * work-group, so every work-group has the same reflector, and no launch
 * or wait separates a reflector from its update.  The tasks a task waits
 * for have smaller tickets, so they belong to work-groups that are
 * already running: the launch completes with however many work-groups the
 * device keeps resident, given that a running work-group keeps running
 * (as the one-launch chase, chase.h); with one work-group nothing ever
 * waits.  A wait that lasts SPIN_POLLS polls sets the panel's
 * failure flag, every later wait gives up and the host, which reads the
 * flag once per panel, restarts the call on LAPACK.  The task whose block
 * holds row c - 1 writes that row (beta, the row of R), the task of block
 * 0 writes T's column c - 1; every task reads the row from the copy the
 * step before made (snap), because its owner overwrites it.  This was two
 * launches per reflector (gl_panel_reflect, gl_panel_update): 29,502 of
 * the 39,567 launches and synchronizations of stage 1 of dgesdd N at
 * n = 8192 on the H200, about 20 us each
 * (docs/data/h200-2026-11-26-profile-8192-f172127.txt).
 * One work-item owns a row (all n <= TALL_LEAF values of it) in a task.
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

/* One level of tall_reduce: the sums of h more work-items folded in. */
DEVFN void tall_fold(LOCAL scalar_t *red, int h)
{
    const int l = LID(0), size = LSIZE(0);
    if (l < h)
        for (int q = 0; q < TALL_SUMS; q++)
            red[q * size + l] = s_add(red[q * size + l], red[q * size + l + h]);
    BARRIER();
}

/* red[q * size + l] (q < TALL_SUMS, size = TALL_THREADS) summed over l
 * into red[q * size], by the group; every work-item must call it.  The
 * levels are written out: PoCL (3.1) lost the sums of a loop of barriers
 * here inside gl_panel_tall's loop of tasks. */
DEVFN void tall_reduce(LOCAL scalar_t *red)
{
    BARRIER();
    tall_fold(red, TALL_THREADS / 2);
    tall_fold(red, TALL_THREADS / 4);
    tall_fold(red, TALL_THREADS / 8);
    tall_fold(red, TALL_THREADS / 16);
    tall_fold(red, TALL_THREADS / 32);
    tall_fold(red, TALL_THREADS / 64);
    tall_fold(red, TALL_THREADS / 128);
}

/* By the whole group: the next task nobody has claimed. */
DEVFN int tall_claim(GLOBAL int *ticket, LOCAL int *shared)
{
    if (LID(0) == 0)
        shared[0] = ticket_next(ticket);
    BARRIER();
    int task = shared[0];
    BARRIER();   /* shared[] is the next claim's */
    return task;
}

/* By the whole group: 1 once *count has reached need, 0 if the leaf has
 * failed or the wait timed out (then it has failed).  Every work-item
 * sees the writes published before the count after it (as sweep_wait,
 * chase.h). */
DEVFN int tall_wait(GLOBAL int *failed, GLOBAL int *count, int need,
                    LOCAL int *ok)
{
    if (LID(0) == 0) {
        int good = flag_read(failed) == 0;
        for (int spins = 1; good && flag_read(count) < need; spins++) {
            if (spins == SPIN_POLLS ||
                (spins % 1024 == 0 && flag_read(failed) != 0)) {
                flag_write(failed, 1);
                good = 0;
            }
        }
        ok[0] = good;
    }
    BARRIER();
    FENCE_DEVICE();
    int good = ok[0];
    BARRIER();   /* ok[] is the next wait's */
    return good;
}

/* By work-item 0: reflector c from the sums of all blocks (red[q * size],
 * q < TALL_SUMS) and the copy of row c (row); coef: [0] pre (real), [1]
 * the multiplier of the long side (scal, or conj(scal) for LQ: the stored
 * row is conj(v)), [2] tau, [3 + k] w_k; z for T's column c.  own_row:
 * this task's block holds row c (it writes beta and the row's update). */
DEVFN void tall_reflector(int rowwise, int n, GLOBAL scalar_t *a, gl_long sl,
                          gl_long sk, int c, GLOBAL const scalar_t *row,
                          int own_row, const LOCAL scalar_t *red, int size,
                          LOCAL scalar_t *z, LOCAL scalar_t *coef)
{
    const real_t safmin = R_SAFMIN, rsafmn = 1 / R_SAFMIN;
    real_t asml = s_re(red[TALL_LEAF * size]),
           amed = s_re(red[(TALL_LEAF + 1) * size]),
           abig = s_re(red[(TALL_LEAF + 2) * size]);
    real_t xnorm = blue_norm(asml, amed, abig);
    scalar_t alpha = rowwise ? s_conj(row[c]) : row[c];
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
            /* x, alpha scaled by pre, as ?larfg does it: |x| was below
             * safmin, so all of it is in the small sum */
            ar *= pre;
            ai *= pre;
            xnorm = sqrt(asml) * (pre / BLUE_SSML);
            beta = -copysign(r_lapy3(ar, ai, xnorm), ar);
        }
        tau = s_make((beta - ar) / beta, -ai / beta);
        scal = s_reciprocal(ar - beta, ai);
        for (int j = 0; j < knt; j++)
            beta *= safmin;
        if (own_row)
            EL(c, c) = s_make(beta, 0);
    }
    for (int k = 0; k < n; k++) {
        if (k == c)
            continue;
        scalar_t e = red[k * size];
        scalar_t ve = s_mul(s_rscale(pre, rowwise ? s_conj(e) : e), scal);
        if (k < c) {
            z[k] = s_add(rowwise ? row[k] : s_conj(row[k]), ve);
        } else {
            scalar_t w = rowwise ? s_mul(tau, s_add(row[k], ve))
                                 : s_mul(s_conj(tau), s_add(row[k], s_conj(ve)));
            coef[3 + k] = w;
            if (own_row)
                EL(c, k) = s_sub(row[k], w);
        }
    }
    coef[0] = s_make(pre, 0);
    coef[1] = rowwise ? s_conj(scal) : scal;
    coef[2] = tau;
}

/* By each work-item: reflector c - 1 (c > 0; coef) on its rows of the
 * block [first, end) below the reflector's diagonal, the copy of row c
 * (snap), and its part of the sums for reflector c into red. */
DEVFN void tall_block(int n, GLOBAL scalar_t *a, gl_long sl, gl_long sk,
                      int c, int first, int end, int go,
                      const LOCAL scalar_t *coef, GLOBAL scalar_t *snap,
                      LOCAL scalar_t *red)
{
    const int l = LID(0), size = LSIZE(0);
    real_t pre = c > 0 ? s_re(coef[0]) : 1;
    scalar_t mult = c > 0 ? coef[1] : s_make(1, 0);
    scalar_t acc[TALL_LEAF];
    for (int k = 0; k < TALL_LEAF; k++)
        acc[k] = s_zero();
    real_t asml = 0, amed = 0, abig = 0;
    for (int r = first + l; go && r < end; r += size) {
        if (c > 0 && r >= c) {
            scalar_t v = s_mul(s_rscale(pre, EL(r, c - 1)), mult);
            EL(r, c - 1) = v;
            for (int k = c; k < n; k++)
                EL(r, k) = s_fms(EL(r, k), v, coef[3 + k]);
        }
        if (c < n && r == c)
            for (int k = 0; k < n; k++)
                snap[k] = EL(r, k);
        if (c < n && r > c) {
            scalar_t x = EL(r, c);
            blue_add(s_re(x), &asml, &amed, &abig);
            blue_add(s_im(x), &asml, &amed, &abig);
            for (int k = 0; k < TALL_LEAF; k++)
                if (k < n && k != c)
                    acc[k] = s_fcma(acc[k], EL(r, k), x);
        }
    }
    for (int k = 0; k < TALL_LEAF; k++)
        red[k * size + l] = acc[k];
    red[TALL_LEAF * size + l] = s_make(asml, 0);
    red[(TALL_LEAF + 1) * size + l] = s_make(amed, 0);
    red[(TALL_LEAF + 2) * size + l] = s_make(abig, 0);
}

/* The leaf (m x n for QR, rowwise = 0; its n x m adjoint form for LQ)
 * with T (n x n), blocks of `rows`; sums: TALL_LEAF x blocks x TALL_SUMS
 * values, then the copies of TALL_LEAF rows; sync: the panel's failure
 * flag, then per leaf its ticket and n step counters (zero before).
 * Each task runs two phases through one group reduction: 0, the sums of
 * all blocks for reflector c - 1 (every work-group makes the reflector);
 * 1, the block's update and its sums for reflector c.  One reduction
 * site, every barrier passed by every task (step 0 makes no reflector,
 * a failed leaf does nothing): PoCL 3.1 lost sums when the kernel had
 * two (and it miscompiles barriers under branches, README.md). */
KERNEL gl_panel_tall(int rowwise, int m, int n, GLOBAL scalar_t *a,
                     gl_long aoff, int lda, GLOBAL scalar_t *t, gl_long toff,
                     int ldt, int rows, GLOBAL scalar_t *sums, gl_long soff,
                     GLOBAL int *sync, gl_long syoff, int leaf)
{
    LOCAL_MEM scalar_t red[TALL_SUMS * TALL_THREADS];
    LOCAL_MEM scalar_t z[TALL_LEAF];
    LOCAL_MEM scalar_t coef[TALL_LEAF + 3];
    LOCAL_MEM int shared[1];
    const int l = LID(0), size = LSIZE(0);
    const gl_long sl = rowwise ? lda : 1, sk = rowwise ? 1 : lda;
    const int nblocks = (m + rows - 1) / rows, ntasks = (n + 1) * nblocks;
    a += aoff;
    t += toff;
    sums += soff;
    sync += syoff;
    GLOBAL scalar_t *snap = sums + (gl_long)TALL_LEAF * nblocks * TALL_SUMS;
    GLOBAL int *failed = sync, *ticket = sync + 1 + leaf * (TALL_LEAF + 2),
               *done = ticket + 1;
    for (int task = tall_claim(ticket, shared); task < ntasks;
         task = tall_claim(ticket, shared)) {
        const int c = task / nblocks, g = task - c * nblocks;
        const int first = g * rows, end = min(first + rows, m);
        const int cr = c > 0 ? c - 1 : 0;   /* the reflector made */
        int go = tall_wait(failed, done + cr, c > 0 ? nblocks : 0, shared);
        int make = go && c > 0;
        GLOBAL scalar_t *prev = sums + (gl_long)cr * nblocks * TALL_SUMS;
        for (int phase = 0; phase < 2; phase++) {
            if (phase == 0) {
                for (int q = 0; q < TALL_SUMS; q++) {
                    scalar_t part = s_zero();
                    for (int b = l; make && b < nblocks; b += size)
                        part = s_add(part, prev[(gl_long)b * TALL_SUMS + q]);
                    red[q * size + l] = part;
                }
            } else {
                tall_block(n, a, sl, sk, c, first, end, go, coef,
                           snap + (gl_long)c * TALL_LEAF, red);
            }
            tall_reduce(red);
            if (phase == 0 && make && l == 0)
                tall_reflector(rowwise, n, a, sl, sk, cr,
                               snap + (gl_long)cr * TALL_LEAF,
                               cr >= first && cr < end, red, size, z, coef);
            if (phase == 1 && c < n && l < TALL_SUMS)
                sums[((gl_long)c * nblocks + g) * TALL_SUMS + l] =
                    red[l * size];
            BARRIER();
            if (phase == 0 && make && g == 0)
                larft_column(cr, n, coef[2], z, t, ldt);
        }
        /* published: every work-item's writes, then the count */
        FENCE_DEVICE();
        BARRIER();
        if (l == 0 && c < n)
            ticket_next(done + c);
    }
}
#undef EL
