/* One register-tiled kernel of kernels/backend/host/tile_gemm.c, included once
 * per instruction set with
 *   TG_NAME    the function's name,
 *   TG_ATTR    its target attribute (may be empty),
 *   TG_VBYTES  the vector width in bytes,
 *   TG_MV      the vectors of rows of C per tile,
 *   TG_NR      the columns of C per tile
 * (undefined again at the end).
 * A tile is TG_MV vectors of rows by TG_NR columns of C: per step p of the
 * inner dimension, TG_MV loads of A(:, p) and TG_NR broadcasts of B(p, :)
 * feed TG_MV TG_NR fused multiply-adds into accumulators that stay in
 * registers.  Complex scalars are interleaved (re, im): the real and the
 * imaginary part of B(p, j) each get their own accumulators, which the
 * store combines (a * br + swap(a) * bi * (-1, 1)). */

TG_ATTR static void TG_NAME(lapack_int m, lapack_int n, lapack_int kdim,
                            int mode, const gl_scalar *a, lapack_int lda,
                            lapack_int below, lapack_int above,
                            const gl_scalar *b, lapack_int ldb, gl_scalar *c,
                            lapack_int ldc)
{
    typedef gl_real vreal
        __attribute__((vector_size(TG_VBYTES), aligned(sizeof(gl_real))));
    enum {
        VL = TG_VBYTES / sizeof(gl_real),   /* reals per vector */
        CW = GL_COMPLEX ? 2 : 1,            /* reals per scalar */
        MV = TG_MV,
        MR = MV * VL / CW,                  /* scalars per tile column */
        NR = TG_NR
    };
    vreal sign;   /* (-1, 1, -1, 1, ...) */
    for (int i = 0; i < VL; i++)
        sign[i] = i & 1 ? 1 : -1;
    (void)sign;

    /* The last tile of a row or column of tiles overlaps the one before
     * it when m or n is not a multiple of the tile: it is computed whole
     * and stored from row skip_rows / column skip_cols on. */
    for (lapack_int j0 = 0; j0 < n; j0 += NR) {
        lapack_int skip_cols = 0;
        if (j0 + NR > n) {
            skip_cols = j0 - (n - NR);
            j0 = n - NR;
        }
        for (lapack_int i0 = 0; i0 < m; i0 += MR) {
            lapack_int skip_rows = 0;
            if (i0 + MR > m) {
                skip_rows = i0 - (m - MR);
                i0 = m - MR;
            }
            vreal re[NR][MV];
#if GL_COMPLEX
            vreal im[NR][MV];
#endif
#pragma GCC unroll 16
            for (int j = 0; j < NR; j++)
#pragma GCC unroll 4
                for (int v = 0; v < MV; v++) {
                    re[j][v] = (vreal){0};
#if GL_COMPLEX
                    im[j][v] = (vreal){0};
#endif
                }
            /* C's tile, read at the end, on its way from memory while
             * the steps run (a tile of a matrix larger than the caches:
             * update_product.c) */
            if (mode != GL_TILE_SET)
#pragma GCC unroll 16
                for (int j = 0; j < NR; j++)
#pragma GCC unroll 4
                    for (int v = 0; v < MV; v++)
                        __builtin_prefetch(
                            (const gl_real *)(c + i0 +
                                              (size_t)(j0 + j) * ldc) +
                                v * VL,
                            1);
            /* the steps p where A's band meets rows i0 .. i0 + MR - 1 */
            lapack_int p0 = i0 - below > 0 ? i0 - below : 0;
            lapack_int p1 = i0 + MR + above < kdim ? i0 + MR + above : kdim;
            const gl_real *ap =
                (const gl_real *)(a + i0 + (size_t)p0 * lda);
            const gl_real *bp =
                (const gl_real *)(b + p0 + (size_t)j0 * ldb);
            for (lapack_int p = p0; p < p1; p++) {
                vreal av[MV];
#pragma GCC unroll 4
                for (int v = 0; v < MV; v++)
                    av[v] = *(const vreal *)(ap + v * VL);
#pragma GCC unroll 16
                for (int j = 0; j < NR; j++) {
                    const gl_real *bj = bp + (size_t)CW * j * ldb;
#pragma GCC unroll 4
                    for (int v = 0; v < MV; v++) {
                        re[j][v] += av[v] * bj[0];
#if GL_COMPLEX
                        im[j][v] += av[v] * bj[1];
#endif
                    }
                }
                ap += (size_t)CW * lda;
                bp += CW;
            }
#pragma GCC unroll 16
            for (int j = 0; j < NR; j++) {
                vreal r[MV];
#pragma GCC unroll 4
                for (int v = 0; v < MV; v++) {
                    r[v] = re[j][v];
#if GL_COMPLEX
                    vreal swapped;   /* (im, re) pairs of im[j][v] */
                    for (int i = 0; i < VL; i++)
                        swapped[i] = im[j][v][i ^ 1];
                    r[v] += swapped * sign;
#endif
                }
                if (j < skip_cols)
                    continue;
                gl_real *cp = (gl_real *)(c + i0 + (size_t)(j0 + j) * ldc);
                if (skip_rows == 0) {
#pragma GCC unroll 4
                    for (int v = 0; v < MV; v++) {
                        vreal *cv = (vreal *)(cp + v * VL);
                        *cv = mode == GL_TILE_SUBTRACT ? *cv - r[v]
                              : mode == GL_TILE_ADD    ? *cv + r[v]
                                                       : r[v];
                    }
                } else {
                    gl_real col[MV * VL];
                    memcpy(col, r, sizeof r);
                    for (int i = (int)skip_rows * CW; i < MV * VL; i++)
                        cp[i] = mode == GL_TILE_SUBTRACT ? cp[i] - col[i]
                                : mode == GL_TILE_ADD    ? cp[i] + col[i]
                                                         : col[i];
                }
            }
        }
    }
}

#undef TG_NAME
#undef TG_ATTR
#undef TG_VBYTES
#undef TG_MV
#undef TG_NR
