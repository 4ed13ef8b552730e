/* Stage 2 for the SVD: upper band -> upper bidiagonal, in passes of
 * bandwidth tiling (Ringoot, Alomairy, Edelman, "Accelerating
 * Bidiagonalization of Banded Matrices through Memory-Aware Bulge-Chasing
 * on GPUs"): each pass chases half-width b down to max(b - tw, 1);
 * tw >= b - 1 is the classic single pass. */
#include "../../runtime/precision.h"
#include "../stages.h"

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
