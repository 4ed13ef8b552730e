/* The compact-WY blocks of the back-transformation of stage 2
 * (kernels/stages/backtransform.c build_block), built where the chase left its
 * reflectors: one work-group per block.  Block i holds the reflectors of
 * store columns col .. col + k - 1 (the three values of block i in
 * blocks: col, rows, k) and acts on rows rows; column c of it is rows
 * c .. c + b - 1 of the parallelogram.  Out: V^H (k x rows, ld k) at
 * vh + i stride, and Y = V T (forward, for Q) or V T^H (for Q^H) (rows x
 * k, ld ldv) at y + i stride, T the upper triangular factor of ?larft
 * ('F', 'C').  T is kept in Y's place while it is formed. */

#define WY_THREADS 128
/* the widest block (group, gl_tune_group's limit) */
#define WY_MAX 256

KERNEL gl_wy_build(int b, int ldv, gl_long stride, int forward,
                   const GLOBAL scalar_t *vstore, gl_long voff,
                   const GLOBAL scalar_t *taustore, gl_long toff,
                   const GLOBAL int *blocks, gl_long boff,
                   GLOBAL scalar_t *vh, gl_long vhoff, GLOBAL scalar_t *y,
                   gl_long yoff)
{
    LOCAL_MEM scalar_t col_t[WY_MAX], prod[WY_MAX];
    int i = GID(0), t = LID(0);
    blocks += boff + 3 * (gl_long)i;
    gl_long col = blocks[0];
    int rows = blocks[1], k = blocks[2];
    const GLOBAL scalar_t *v = vstore + voff + col * b,
                          *tau = taustore + toff + col;
    vh += vhoff + (gl_long)i * stride;
    y += yoff + (gl_long)i * stride;
#define V_AT(r, c) s_conj(vh[(c) + (gl_long)(r) * k])
#define T_AT(r, c) y[(r) + (gl_long)(c) * ldv]

    /* V explicit, as its adjoint: column c is rows c .. end(c) - 1; a
     * slot the chase never wrote (tau = 0) may hold anything, and H = I
     * there is e_c */
    for (int e = t; e < k * rows; e += WY_THREADS) {
        int c = e % k, r = e / k;
        int tau_zero = s_is_zero(tau[c]);
        int len = rows - c < b ? rows - c : b;
        scalar_t x = s_zero();
        if (tau_zero)
            x = r == c ? s_make(1, 0) : s_zero();
        else if (r >= c && r < c + len)
            x = v[(gl_long)c * b + r - c];
        vh[c + (gl_long)r * k] = s_conj(x);
    }
    BARRIER();

    /* T column by column: T(0:c, c) = -tau_c T(0:c, 0:c) V(:, 0:c)^H
     * V(:, c), T(c, c) = tau_c */
    for (int c = 0; c < k; c++) {
        scalar_t tc = tau[c];
        int zero = s_is_zero(tc);
        for (int p = t; p < c; p += WY_THREADS) {
            scalar_t dot = s_zero();
            if (!zero) {
                int end = s_is_zero(tau[p]) ? p + 1
                          : p + (rows - p < b ? rows - p : b);
                for (int r = c; r < end; r++)
                    dot = s_fcma(dot, V_AT(r, p), V_AT(r, c));
            }
            col_t[p] = s_sub(s_zero(), s_mul(tc, dot));
        }
        BARRIER();
        for (int p = t; p < c; p += WY_THREADS) {
            scalar_t sum = s_zero();
            for (int q = p; q < c; q++)
                sum = s_add(sum, s_mul(T_AT(p, q), col_t[q]));
            prod[p] = sum;
        }
        BARRIER();
        for (int p = t; p <= c; p += WY_THREADS)
            T_AT(p, c) = p < c ? prod[p] : tc;
        for (int p = c + 1 + t; p < k; p += WY_THREADS)
            T_AT(p, c) = s_zero();
        BARRIER();
    }

    /* Y = V T (forward) column by column from the last, each taking its
     * column of T first; Y = V T^H from the first, each taking its row of
     * T (columns c.. of T, not yet overwritten) */
    for (int step = 0; step < k; step++) {
        int c = forward ? k - 1 - step : step;
        for (int p = t; p < k; p += WY_THREADS)
            col_t[p] = forward ? (p <= c ? T_AT(p, c) : s_zero())
                               : (p >= c ? s_conj(T_AT(c, p)) : s_zero());
        BARRIER();
        for (int r = t; r < rows; r += WY_THREADS) {
            scalar_t sum = s_zero();
            int p0 = forward ? 0 : c, p1 = forward ? c + 1 : k;
            for (int p = p0; p < p1 && p <= r; p++)
                sum = s_add(sum, s_mul(V_AT(r, p), col_t[p]));
            y[r + (gl_long)c * ldv] = sum;
        }
        BARRIER();
    }
#undef V_AT
#undef T_AT
}
