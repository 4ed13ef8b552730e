/* Band-to-band reduction of a Hermitian band (half-width B -> b < B), for
 * the streamed plan of the values: its passes over host memory stream
 * n^3 / (6B) elements each way, so they want B of about the device's
 * flop rate over the bus rate (about 1024 on an H200), while the chase
 * wants a narrow band.  The band fits the device (n (4B + 1) elements),
 * so this runs in core, from geqrt and larfb on dense blocks of it.
 *
 * Successive band reduction ("A framework for symmetric band reduction",
 * Bischof, Lang and Sun): sweep j takes the b columns j .. j+b-1, the
 * QR of their rows below the new band (I_0 = j+b .. j+b+B-1) and its two-
 * sided application; the right-hand side fills the B x B block below,
 * A(I_1, I_0) (I_1 the next B rows), whose QR and two-sided application
 * fill A(I_2, I_1), and so on to the end of the matrix.  Each bulge is
 * annihilated whole (made upper triangular), so after a sweep the
 * trailing matrix is again a band of half-width B with no fill: the next
 * sweep starts from the same shape.  About 31 B^3 flops per block (its QR
 * 4/3, the left larfb on B x 2B 12, the right one on 3B x B 18), (n/b)
 * (n/B) blocks: 31 n^2 B^2 / b (2.2e15 at n = 131,072, B = 1024, b =
 * 256: about 55 s at 40 TFLOP/s, against a fourfold cut of the passes'
 * bus bytes, 12.3 -> 3.1 TB each way, 370 s at 25 GB/s).
 *
 * Storage: both triangles, as LAPACK's general band with kl = ku = 2B
 * (ld = 4B + 1), so that any block within 2B of the diagonal is a dense
 * column-major matrix of leading dimension 4B: A(i, j) is
 * w[2B + i + 4B j].  A block's reflectors stay below its R while both
 * larfb's run (neither touches the block), then are zeroed. */
#include <stddef.h>

#include "../../runtime/precision.h"
#include "stages.h"
#include "../backend/gpu_ops.h"

/* A(i, j) of the band storage (lda = 4B). */
#define BAND_AT(w, big, i, j)                                                 \
    ((w) + 2 * (size_t)(big) + (size_t)(i) + (size_t)(j) * 4 * (size_t)(big))

/* gl_s_band_reduce_ld gl_d_band_reduce_ld gl_c_band_reduce_ld gl_z_band_reduce_ld */
lapack_int GL_FN(band_reduce_ld)(lapack_int big) { return 4 * big + 1; }

/* Block F = A(i0 : i1, c0 : c0 + kf) of a sweep, whose QR is applied
 * from the left to rows i0 .. i1-1 right of F up to column r3 - 1, from
 * the right to columns i0 .. i1-1 from row c0 to r3 - 1. */
typedef struct band_block {
    lapack_int i0, i1, c0, kf, r3;
} band_block;

/* Sweep j's first block: its panel, columns j .. j+b-1 below the new
 * band. */
static band_block panel_block(lapack_int n, lapack_int big, lapack_int b,
                              lapack_int j)
{
    band_block k = {.i0 = j + b, .c0 = j};
    k.i1 = k.i0 + big < n ? k.i0 + big : n;
    k.kf = k.i1 - k.i0 < b ? k.i1 - k.i0 : b;
    k.r3 = k.i1 + big < n ? k.i1 + big : n;
    return k;
}

/* The bulge the block k's right-hand side filled, A(i1 : r3, i0 : i1),
 * as the next block; 0 at the end of the sweep. */
static int bulge_block(lapack_int n, lapack_int big, band_block *k)
{
    if (k->i1 == n)
        return 0;
    lapack_int width = k->i1 - k->i0;
    k->c0 = k->i0;
    k->i0 = k->i1;
    k->i1 = k->r3;
    k->kf = k->i1 - k->i0 < width ? k->i1 - k->i0 : width;
    k->r3 = k->i1 + big < n ? k->i1 + big : n;
    return 1;
}

static int reduce_block(const GL_FN(ops) *ops, lapack_int big, gl_scalar *w,
                        gl_scalar *t, const band_block *k)
{
    lapack_int lda = 4 * big, m = k->i1 - k->i0, kf = k->kf;
    gl_scalar *f = BAND_AT(w, big, k->i0, k->c0);
    if (ops->geqrt(ops, m, kf, f, lda, t, kf) ||
        ops->larfb(ops, 'L', 'C', 'C', m, k->r3 - (k->c0 + kf), kf, f, lda,
                   t, kf, BAND_AT(w, big, k->i0, k->c0 + kf), lda) ||
        ops->larfb(ops, 'R', 'N', 'C', k->r3 - k->c0, m, kf, f, lda, t, kf,
                   BAND_AT(w, big, k->c0, k->i0), lda))
        return -1;
    ops->zero_lower(ops, m, kf, f, lda);
    return 0;
}

/* gl_s_band_reduce gl_d_band_reduce gl_c_band_reduce gl_z_band_reduce */
int GL_FN(band_reduce)(const GL_FN(ops) *ops, lapack_int n, lapack_int big,
                       lapack_int b, gl_scalar *w, gl_scalar *t)
{
    if (b >= big)
        return 0;
    for (lapack_int j = 0; j + b < n - 1; j += b) {
        band_block k = panel_block(n, big, b, j);
        do
            if (reduce_block(ops, big, w, t, &k))
                return -1;
        while (bulge_block(n, big, &k));
    }
    return 0;
}

/* gl_s_band_reduce_device_bytes gl_d_band_reduce_device_bytes gl_c_band_reduce_device_bytes gl_z_band_reduce_device_bytes */
size_t GL_FN(band_reduce_device_bytes)(const gl_tuning *tuning, lapack_int n,
                                       lapack_int big, lapack_int b)
{
    const size_t es = sizeof(gl_scalar);
    size_t storage = (size_t)GL_FN(band_reduce_ld)(big) * (size_t)n * es;
    /* T beside the one operation running: a block's geqrt or a larfb.
     * Each block of a later sweep is no larger, side by side, than the
     * first sweep's block as far down (its rows start lower, so its ends
     * are cut no less), so the first sweep's blocks give the most. */
    size_t most = 0;
    if (n - 1 > b) {
        band_block k = panel_block(n, big, b, 0);
        do {
            lapack_int m = k.i1 - k.i0;
            size_t qr = GL_FN(gpu_panel_bytes)(tuning, 1, m, k.kf);
            size_t left = GL_LARFB_SCRATCH(m, k.r3 - k.c0 - k.kf, k.kf) * es;
            size_t right = GL_LARFB_SCRATCH(m, k.r3 - k.c0, k.kf) * es;
            most = qr > most ? qr : most;
            most = left > most ? left : most;
            most = right > most ? right : most;
        } while (bulge_block(n, big, &k));
    }
    size_t block = (size_t)big * (size_t)big * es + most;
    /* then the chase's band beside the storage */
    size_t chase = (2 * (size_t)b + 1) * (size_t)n * es;
    return storage + (block > chase ? block : chase);
}
