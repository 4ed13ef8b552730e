/* Data movement and BLAS3 on the device.  Every matrix is (buffer, element
 * offset, leading dimension), column-major; sizes are never padded: every
 * work-item checks its bounds.  2-D launches: dimension 0 runs over rows,
 * dimension 1 over columns. */

#define AT(p, ld, i, j) ((p)[(gl_long)(i) + (gl_long)(j) * (ld)])

/* dst (rows x cols) = src, or src^H (src cols x rows) for conj_trans. */
KERNEL gl_copy(int rows, int cols, const GLOBAL scalar_t *src, gl_long soff,
               int lds, GLOBAL scalar_t *dst, gl_long doff, int ldd,
               int conj_trans)
{
    int i = GLOBAL_ID(0), j = GLOBAL_ID(1);
    if (i >= rows || j >= cols)
        return;
    src += soff;
    dst += doff;
    AT(dst, ldd, i, j) = conj_trans ? s_conj(AT(src, lds, j, i))
                                    : AT(src, lds, i, j);
}

/* A = mul * A (one factor of ?lascl's sequence). */
KERNEL gl_scale(int rows, int cols, GLOBAL scalar_t *a, gl_long off, int lda,
                real_t mul)
{
    int i = GLOBAL_ID(0), j = GLOBAL_ID(1);
    if (i >= rows || j >= cols)
        return;
    a += off;
    AT(a, lda, i, j) = s_rscale(mul, AT(a, lda, i, j));
}

/* The packed band of the chase from a dense matrix (ops.h pack_band):
 * hermitian = 0: the upper band 0 <= c-r <= b at band[up + r - c + c*ld];
 * hermitian = 1: the lower band 0 <= r-c <= b at band[r - c + c*ld], the
 * diagonal made real.  Every other entry of the band storage is zeroed.
 * Launch over (ldband, n). */
KERNEL gl_pack_band(int hermitian, int n, int b, const GLOBAL scalar_t *a,
                    gl_long aoff, int lda, GLOBAL scalar_t *band,
                    gl_long boff, int ldband)
{
    int rr = GLOBAL_ID(0), c = GLOBAL_ID(1);
    if (rr >= ldband || c >= n)
        return;
    a += aoff;
    band += boff;
    scalar_t value = s_zero();
    if (hermitian) {
        int r = c + rr;
        if (rr <= b && r < n)
            value = rr == 0 ? s_make(s_re(AT(a, lda, r, c)), 0)
                            : AT(a, lda, r, c);
    } else {
        int up = (ldband - 1) / 3 * 2, r = c + rr - up;
        if (r >= 0 && r <= c && c - r <= b)
            value = AT(a, lda, r, c);
    }
    AT(band, ldband, rr, c) = value;
}

/* Zeroes the strictly lower triangle of the m x n matrix A. */
KERNEL gl_zero_lower(int m, int n, GLOBAL scalar_t *a, gl_long off, int lda)
{
    int i = GLOBAL_ID(0), j = GLOBAL_ID(1);
    if (i >= m || j >= n || i <= j)
        return;
    a += off;
    AT(a, lda, i, j) = s_zero();
}

/* V (m x k) with its unit diagonal and zeros from the unit lower
 * trapezoidal reflectors stored below the diagonal of A (rows == 0), or
 * the adjoint of the unit upper rows stored right of it (rows == 1); or
 * (rows == 2) the upper triangle of A with zeros below: the dense T of a
 * block reflector in one launch, not a copy and a gl_zero_lower. */
KERNEL gl_unpack_v(int rows, int m, int k, const GLOBAL scalar_t *a,
                   gl_long aoff, int lda, GLOBAL scalar_t *v, gl_long voff,
                   int ldv)
{
    int i = GLOBAL_ID(0), j = GLOBAL_ID(1);
    if (i >= m || j >= k)
        return;
    a += aoff;
    v += voff;
    AT(v, ldv, i, j) = rows == 2 ? (i <= j ? AT(a, lda, i, j) : s_zero())
                     : i <= j ? s_make(i == j ? 1 : 0, 0)
                       : rows ? s_conj(AT(a, lda, j, i))
                              : AT(a, lda, i, j);
}

/* How gl_gemm reads a stored matrix (mode bits): the triangles of
 * triangular (trmm) and trapezoidal (larfb's V) operands, and Hermitian
 * operands stored in one triangle (hemm). */
#define GM_UPPER 1      /* only i <= j is stored; the rest reads as 0 */
#define GM_LOWER 2      /* only i >= j */
#define GM_UNIT 4       /* the diagonal reads as 1 */
#define GM_HERM 8       /* Hermitian: the other triangle is the adjoint */
/* How gl_gemm writes C: only one triangle, and the diagonal made real
 * (her2k). */
#define GC_UPPER 1
#define GC_LOWER 2
#define GC_REAL_DIAG 4

DEVFN scalar_t gm_load(const GLOBAL scalar_t *a, int ld, int mode, int i,
                       int j)
{
    if (mode & GM_HERM) {
        int stored = (mode & GM_LOWER) ? i >= j : i <= j;
        if (i == j)
            return s_make(s_re(AT(a, ld, i, i)), 0);
        return stored ? AT(a, ld, i, j) : s_conj(AT(a, ld, j, i));
    }
    if (i == j && (mode & GM_UNIT))
        return s_make(1, 0);
    if (((mode & GM_UPPER) && i > j) || ((mode & GM_LOWER) && i < j))
        return s_zero();
    return AT(a, ld, i, j);
}

/* op(A)(i, l) for trans 0 (A), 1 (A^T), 2 (A^H). */
DEVFN scalar_t gm_op(const GLOBAL scalar_t *a, int ld, int mode, int trans,
                     int i, int l)
{
    if (trans == 0)
        return gm_load(a, ld, mode, i, l);
    scalar_t x = gm_load(a, ld, mode, l, i);
    return trans == 2 ? s_conj(x) : x;
}

#define GEMM_TILE 16
/* C = alpha op(A) op(B) + beta C, C m x n, in 16 x 16 tiles (launch with
 * local size 16 x 16).  beta = 0 does not read C (as BLAS).  amode/bmode
 * say how A and B are read, cmode which part of C is written.  A batch of
 * such products: groups in dimension 0 are tiles_m per product, product p
 * takes A + p stride_a, B + p stride_b, C + p stride_c. */
KERNEL gl_gemm(int transa, int transb, int m, int n, int k, scalar_t alpha,
               const GLOBAL scalar_t *a, gl_long aoff, int lda, int amode,
               const GLOBAL scalar_t *b, gl_long boff, int ldb, int bmode,
               scalar_t beta, GLOBAL scalar_t *c, gl_long coff, int ldc,
               int cmode, int tiles_m, gl_long stride_a, gl_long stride_b,
               gl_long stride_c)
{
    LOCAL_MEM scalar_t ta[GEMM_TILE][GEMM_TILE + 1];
    LOCAL_MEM scalar_t tb[GEMM_TILE][GEMM_TILE + 1];
    int li = LID(0), lj = LID(1);
    int p = GID(0) / tiles_m;
    int i = (GID(0) - p * tiles_m) * GEMM_TILE + li,
        j = GID(1) * GEMM_TILE + lj;
    a += aoff + p * stride_a;
    b += boff + p * stride_b;
    c += coff + p * stride_c;
    scalar_t sum = s_zero();
    for (int l0 = 0; l0 < k; l0 += GEMM_TILE) {
        /* ta[li][lj] = op(A)(i, l0+lj), tb[li][lj] = op(B)(l0+li, j) */
        int la = l0 + lj, lb = l0 + li;
        ta[li][lj] = i < m && la < k ? gm_op(a, lda, amode, transa, i, la)
                                     : s_zero();
        tb[li][lj] = lb < k && j < n ? gm_op(b, ldb, bmode, transb, lb, j)
                                     : s_zero();
        BARRIER();
        for (int l = 0; l < GEMM_TILE; l++)
            sum = s_add(sum, s_mul(ta[li][l], tb[l][lj]));
        BARRIER();
    }
    if (i >= m || j >= n || ((cmode & GC_UPPER) && i > j) ||
        ((cmode & GC_LOWER) && i < j))
        return;
    scalar_t value = s_mul(alpha, sum);
    if (!s_is_zero(beta))
        value = s_add(value, s_mul(beta, AT(c, ldc, i, j)));
    if ((cmode & GC_REAL_DIAG) && i == j)
        value = s_make(s_re(value), 0);
    AT(c, ldc, i, j) = value;
}
