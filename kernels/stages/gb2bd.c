/* Stage 2 for the SVD: upper band -> upper bidiagonal, in passes of
 * bandwidth tiling (Ringoot, Alomairy, Edelman, "Accelerating
 * Bidiagonalization of Banded Matrices through Memory-Aware Bulge-Chasing
 * on GPUs"): each pass chases half-width b down to max(b - tw, 1);
 * tw >= b - 1 is the classic single pass.  And the end of every chase:
 * the real d and e of the band it leaves (band_to_de). */
#include <complex.h>
#include <math.h>

#include "../../runtime/precision.h"
#include "stages.h"

/* gl_s_gb2bd gl_d_gb2bd gl_c_gb2bd gl_z_gb2bd */
int GL_FN(gb2bd)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                 lapack_int tw, gl_scalar *band, lapack_int ldband)
{
    if (tw < 1)
        tw = 1;
    for (lapack_int width = b; width > 1;) {
        lapack_int target = width - tw > 1 ? width - tw : 1;
        if (ops->gb_chase(ops, n, width, target, n, band, ldband, NULL) != 0)
            return GL_STAGE_FAULT;
        width = target;
    }
    return 0;
}

/* gl_s_band_to_de gl_d_band_to_de gl_c_band_to_de gl_z_band_to_de */
int GL_FN(band_to_de)(const GL_FN(ops) *ops, char kind, lapack_int n,
                       lapack_int b, const gl_scalar *band,
                       lapack_int ldband, gl_scalar *scratch, gl_real *d,
                       gl_real *e)
{
    const gl_scalar *diag = kind == 'G' ? band + 2 * b : band;
    const gl_scalar *off = kind == 'G' ? band + 2 * b - 1 + ldband : band + 1;
    if (ops->to_host(ops, 1, n, diag, ldband, scratch, 1))
        return GL_STAGE_FAULT;
    for (lapack_int i = 0; i + 1 < n; i++)
        scratch[n + i] = 0;   /* a diagonal matrix has no band to read */
    if (n > 1 && b > 0 &&
        ops->to_host(ops, 1, n - 1, off, ldband, scratch + n, 1))
        return GL_STAGE_FAULT;
    for (lapack_int i = 0; i < n; i++)
        d[i] = kind == 'G' ? GL_ABS(scratch[i]) : GL_REAL(scratch[i]);
    for (lapack_int i = 0; i + 1 < n; i++)
        e[i] = GL_ABS(scratch[n + i]);
    return 0;
}
