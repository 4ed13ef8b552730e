/* Householder reflector generation exactly as LAPACK's ?larfg (the
 * algorithm of SRC/dlarfg.f and zlarfg.f, re-implemented):
 *
 *   H^H [alpha; x] = [beta; 0],  H = I - tau v v^H,  v = [1; x/(alpha-beta)]
 *
 * tau = 0 (H = I) when x = 0 and alpha is real; beta = -sign(alpha) *
 * |[alpha; x]| computed without overflow; when |beta| < safmin the vector is
 * rescaled (up to 20 times) so that tau and v keep full accuracy.  Never
 * 0/0: a zero vector gives H = I.  Per precision (runtime/precision.h). */
#ifndef GL_HOUSEHOLDER_H
#define GL_HOUSEHOLDER_H

#include <float.h>
#include <math.h>

#include "../runtime/fortran.h"
#include "../runtime/precision.h"
#if GL_COMPLEX
#include <complex.h>
#endif

/* The loops below are inlined into their callers, which are compiled once
 * per vector width (GL_VECTOR_CLONES): a helper left out of line would
 * run with the baseline's vectors. */
#if defined(__GNUC__)
#define GL_LOOP static inline __attribute__((always_inline))
#else
#define GL_LOOP static inline
#endif

/* sum_k conj(x_k) y_k with eight partial sums, so that the compiler can
 * keep them in vector registers (a single running sum cannot be
 * vectorized without reassociating it), as a BLAS dot product does. */
GL_LOOP gl_scalar gl_dotc(lapack_int n, const gl_scalar *x,
                          const gl_scalar *y)
{
    gl_scalar part[8] = {0};
    lapack_int k = 0;
    for (; k + 8 <= n; k += 8)
        for (int u = 0; u < 8; u++)
            part[u] += GL_CONJ(x[k + u]) * y[k + u];
    for (; k < n; k++)
        part[0] += GL_CONJ(x[k]) * y[k];
    return ((part[0] + part[4]) + (part[1] + part[5])) +
           ((part[2] + part[6]) + (part[3] + part[7]));
}

/* w += C v for the len columns of C (nrows rows each) that start at c,
 * column k at c + k*col_stride.  Four columns per pass, so that w is
 * loaded and stored once per four products. */
GL_LOOP void gl_gemv_add(lapack_int nrows, lapack_int len,
                         const gl_scalar *c, lapack_int col_stride,
                         const gl_scalar *v, gl_scalar *restrict w)
{
    lapack_int k = 0;
    for (; k + 4 <= len; k += 4) {
        const gl_scalar *c0 = c + k * col_stride, *c1 = c0 + col_stride,
                        *c2 = c1 + col_stride, *c3 = c2 + col_stride;
        gl_scalar v0 = v[k], v1 = v[k + 1], v2 = v[k + 2], v3 = v[k + 3];
        for (lapack_int i = 0; i < nrows; i++)
            w[i] += (c0[i] * v0 + c1[i] * v1) + (c2[i] * v2 + c3[i] * v3);
    }
    for (; k < len; k++) {
        const gl_scalar *ck = c + k * col_stride, vk = v[k];
        for (lapack_int i = 0; i < nrows; i++)
            w[i] += ck[i] * vk;
    }
}

/* The four-column loops below are "omp simd" loops (-fopenmp-simd, no
 * OpenMP run time): the columns never overlap, and their sums may be
 * reassociated.  One running sum per column is a chain of dependent
 * multiply-adds and a horizontal sum before the column can be updated;
 * four independent sums in one pass overlap them (the Hermitian chase
 * alone: about 10% faster on one thread, docs/design/host-path.md,
 * "Stage 2"). */

/* z[k] = u^H c_k over n rows, for the four columns c_k = c + k*col_stride. */
GL_LOOP void gl_dotc4(lapack_int n, const gl_scalar *u, const gl_scalar *c,
                      lapack_int col_stride, gl_scalar z[4])
{
    const gl_scalar *c0 = c, *c1 = c0 + col_stride, *c2 = c1 + col_stride,
                    *c3 = c2 + col_stride;
    gl_scalar z0 = 0, z1 = 0, z2 = 0, z3 = 0;
#pragma omp simd reduction(+ : z0, z1, z2, z3)
    for (lapack_int i = 0; i < n; i++) {
        gl_scalar cu = GL_CONJ(u[i]);
        z0 += cu * c0[i];
        z1 += cu * c1[i];
        z2 += cu * c2[i];
        z3 += cu * c3[i];
    }
    z[0] = z0, z[1] = z1, z[2] = z2, z[3] = z3;
}

/* c_k -= x xs[k] + y ys[k] over n rows, for the four columns c_k = c +
 * k*col_stride; y = NULL: c_k -= x xs[k]. */
GL_LOOP void gl_sub_rank2_4(lapack_int n, gl_scalar *c, lapack_int col_stride,
                            const gl_scalar *x, const gl_scalar xs[4],
                            const gl_scalar *y, const gl_scalar ys[4])
{
    gl_scalar *c0 = c, *c1 = c0 + col_stride, *c2 = c1 + col_stride,
              *c3 = c2 + col_stride;
    gl_scalar x0 = xs[0], x1 = xs[1], x2 = xs[2], x3 = xs[3];
    if (!y) {
#pragma omp simd
        for (lapack_int i = 0; i < n; i++) {
            c0[i] -= x[i] * x0;
            c1[i] -= x[i] * x1;
            c2[i] -= x[i] * x2;
            c3[i] -= x[i] * x3;
        }
        return;
    }
    gl_scalar y0 = ys[0], y1 = ys[1], y2 = ys[2], y3 = ys[3];
#pragma omp simd
    for (lapack_int i = 0; i < n; i++) {
        c0[i] -= x[i] * x0 + y[i] * y0;
        c1[i] -= x[i] * x1 + y[i] * y1;
        c2[i] -= x[i] * x2 + y[i] * y2;
        c3[i] -= x[i] * x3 + y[i] * y3;
    }
}

/* C = H^H C for the ncols columns of C that start at c, column k at
 * c + k*col_stride (a packed band gives col_stride = ld - 1), each with
 * len rows; H = I - tau v v^H. */
GL_LOOP void gl_larf_left(lapack_int len, const gl_scalar *v,
                          gl_scalar tau, gl_scalar *c,
                          lapack_int col_stride, lapack_int ncols)
{
    gl_scalar ctau = GL_CONJ(tau);
    lapack_int j = 0;
    for (; j + 4 <= ncols; j += 4) {
        gl_scalar *cj = c + j * col_stride, dot[4];
        gl_dotc4(len, v, cj, col_stride, dot);
        for (int k = 0; k < 4; k++)
            dot[k] *= ctau;
        gl_sub_rank2_4(len, cj, col_stride, v, dot, NULL, NULL);
    }
    for (; j < ncols; j++) {
        gl_scalar *cj = c + j * col_stride;
        gl_scalar dot = ctau * gl_dotc(len, v, cj);
        for (lapack_int k = 0; k < len; k++)
            cj[k] -= v[k] * dot;
    }
}

/* C = C H for the len columns of C (nrows rows each) that start at c,
 * column k at c + k*col_stride; w: nrows of scratch.  By blocks of rows
 * of about 16 KiB: w of a row needs only that row, so the update finds
 * its block still in L1 (the chase's blocks of 2b x b are larger than
 * L1). */
GL_LOOP void gl_larf_right(lapack_int nrows, lapack_int len,
                           const gl_scalar *v, gl_scalar tau,
                           gl_scalar *c, lapack_int col_stride,
                           gl_scalar *w)
{
    lapack_int chunk = 16384 / ((lapack_int)sizeof *c * (len > 0 ? len : 1));
    chunk = chunk < 8 ? 8 : chunk / 8 * 8;
    for (lapack_int i0 = 0; i0 < nrows; i0 += chunk) {
        lapack_int rows = nrows - i0 < chunk ? nrows - i0 : chunk;
        gl_scalar *ci = c + i0;
        for (lapack_int i = 0; i < rows; i++)
            w[i] = 0;
        gl_gemv_add(rows, len, ci, col_stride, v, w);
        lapack_int k = 0;
        for (; k + 4 <= len; k += 4) {
            gl_scalar f[4];
            for (int q = 0; q < 4; q++)
                f[q] = tau * GL_CONJ(v[k + q]);
            gl_sub_rank2_4(rows, ci + k * col_stride, col_stride, w, f, NULL,
                           NULL);
        }
        for (; k < len; k++) {
            gl_scalar *ck = ci + k * col_stride, f = tau * GL_CONJ(v[k]);
            for (lapack_int i = 0; i < rows; i++)
                ck[i] -= w[i] * f;
        }
    }
}

/* Wider vectors where the CPU has them: the hot kernels are compiled for
 * the x86-64-v4 (AVX-512) and v3 (AVX2 with FMA) levels and the baseline,
 * and the loader picks one (GCC function multiversioning; x86-64 only).
 * The kernels are built with -ffp-contract=fast, so on v3/v4 their
 * multiply-adds fuse, as gfortran's LAPACK and any BLAS do. */
/* (Not under the sanitizers: the loader runs the clones' resolvers before
 * the sanitizer's run time is set up, and ThreadSanitizer's instrumented
 * resolver crashes there.) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define GL_VECTOR_CLONES \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", \
                                 "default")))
#else
#define GL_VECTOR_CLONES
#endif

/* |x|_2 of n elements with stride incx, never overflowing or underflowing
 * in the squares: the plain sum of squares when the largest |x_i| is in a
 * range where that is exact to rounding (the common case), else the
 * classic scale/ssq recurrence.  With unit stride the largest part and
 * the sum of squares take eight partial results each, as gl_dotc, so
 * that they run in vectors instead of as chains of dependent steps (a
 * chase step's reflectors, 64 long). */
GL_LOOP gl_real gl_nrm2(lapack_int n, const gl_scalar *x, lapack_int incx)
{
    gl_real amax = 0;
    const gl_real *parts = (const gl_real *)x; /* real, imaginary, ... */
    lapack_int m = n * (1 + GL_COMPLEX), k = 0;
    if (incx == 1) {
        gl_real part[8] = {0};
        for (; k + 8 <= m; k += 8)
            for (int u = 0; u < 8; u++) {
                gl_real a = GL_R(fabs)(parts[k + u]);
                part[u] = a > part[u] ? a : part[u];
            }
        for (int u = 0; u < 8; u++)
            amax = part[u] > amax ? part[u] : amax;
    }
    for (lapack_int i = k / (1 + GL_COMPLEX); i < n; i++) {
        gl_real re = GL_R(fabs)(GL_REAL(x[i * incx]));
        gl_real im = GL_R(fabs)(GL_IMAG(x[i * incx]));
        amax = re > amax ? re : amax;
        amax = im > amax ? im : amax;
    }
    /* squares of values in [2^-(e/4), 2^(e/4)] summed n times stay far
     * from overflow and from the subnormal range */
    const gl_real small = GL_R(sqrt)(GL_R(sqrt)(GL_SAFMIN)),
                  big = 1 / small;
    if (amax == 0)
        return 0;
    if (amax > small && amax < big / (gl_real)(n + 1)) {
        gl_real ssq = 0;
        k = 0;
        if (incx == 1) {
            gl_real part[8] = {0};
            for (; k + 8 <= m; k += 8)
                for (int u = 0; u < 8; u++)
                    part[u] += parts[k + u] * parts[k + u];
            ssq = ((part[0] + part[4]) + (part[1] + part[5])) +
                  ((part[2] + part[6]) + (part[3] + part[7]));
        }
        for (lapack_int i = k / (1 + GL_COMPLEX); i < n; i++) {
            gl_real re = GL_REAL(x[i * incx]), im = GL_IMAG(x[i * incx]);
            ssq += re * re + im * im;
        }
        return GL_R(sqrt)(ssq);
    }
    gl_real scale = 0, ssq = 1;
    for (lapack_int i = 0; i < n; i++) {
        gl_real parts[2] = {GL_REAL(x[i * incx]), GL_IMAG(x[i * incx])};
        for (int k = 0; k < 1 + GL_COMPLEX; k++) {
            if (parts[k] == 0)
                continue;
            gl_real a = GL_R(fabs)(parts[k]);
            if (scale < a) {
                ssq = 1 + ssq * (scale / a) * (scale / a);
                scale = a;
            } else {
                ssq += (a / scale) * (a / scale);
            }
        }
    }
    return scale * GL_R(sqrt)(ssq);
}

/* sqrt(a^2 + b^2 + c^2) without overflow (LAPACK ?lapy2 / ?lapy3). */
static inline gl_real gl_lapy3(gl_real a, gl_real b, gl_real c)
{
    a = GL_R(fabs)(a), b = GL_R(fabs)(b), c = GL_R(fabs)(c);
    gl_real w = a > b ? a : b;
    w = w > c ? w : c;
    if (w == 0)
        return a + b + c;
    return w * GL_R(sqrt)((a / w) * (a / w) + (b / w) * (b / w) +
                          (c / w) * (c / w));
}

/* Generates H with H^H [*alpha; x] = [beta; 0]; on return *alpha = beta
 * (real), x holds v(2:n) and the result is tau.  n is the length including
 * alpha. */
GL_LOOP gl_scalar gl_larfg(lapack_int n, gl_scalar *alpha, gl_scalar *x,
                           lapack_int incx)
{
    if (n <= 0)
        return 0;
    gl_real xnorm = gl_nrm2(n - 1, x, incx);
    gl_real alphr = GL_REAL(*alpha), alphi = GL_IMAG(*alpha);
    if (xnorm == 0 && alphi == 0)
        return 0;

    gl_real beta = -GL_R(copysign)(gl_lapy3(alphr, alphi, xnorm), alphr);
    const gl_real safmin = GL_SAFMIN, rsafmn = 1 / GL_SAFMIN;
    int knt = 0;
    if (GL_R(fabs)(beta) < safmin) {
        /* xnorm and beta may be inaccurate: scale x and recompute them */
        do {
            knt++;
            for (lapack_int i = 0; i < n - 1; i++)
                x[i * incx] *= rsafmn;
            beta *= rsafmn;
            alphr *= rsafmn;
            alphi *= rsafmn;
        } while (GL_R(fabs)(beta) < safmin && knt < 20);
        xnorm = gl_nrm2(n - 1, x, incx);
#if GL_COMPLEX
        *alpha = alphr + alphi * I;
#else
        *alpha = alphr;
#endif
        beta = -GL_R(copysign)(gl_lapy3(alphr, alphi, xnorm), alphr);
    }
#if GL_COMPLEX
    gl_scalar tau = (beta - alphr) / beta + (-alphi / beta) * I;
    /* 1/(alpha - beta), computed as LAPACK's ?ladiv would: robustly */
    gl_scalar denom = *alpha - beta;
    gl_scalar scal;
    {
        gl_real dr = GL_REAL(denom), di = GL_IMAG(denom);
        if (GL_R(fabs)(di) <= GL_R(fabs)(dr)) {
            gl_real r = di / dr, den = dr + di * r;
            scal = (1 / den) + (-r / den) * I;
        } else {
            gl_real r = dr / di, den = di + dr * r;
            scal = (r / den) + (-1 / den) * I;
        }
    }
#else
    gl_scalar tau = (beta - alphr) / beta;
    gl_scalar scal = 1 / (*alpha - beta);
#endif
    for (lapack_int i = 0; i < n - 1; i++)
        x[i * incx] *= scal;
    for (int j = 0; j < knt; j++)
        beta *= safmin;
    *alpha = beta;
    return tau;
}

#endif
