/* C = A B or C = C - A B for the small, in-cache products of the host
 * back-transformation (kernels/backend/host/host_ops.c): A is m x k with k and
 * m at most a few hundred, B and C have a few dozen columns; also the tiles
 * of stage 1's fused passes and narrow products (update_product.c,
 * products.c), whose operands it reads in place.  The system BLAS
 * cannot serve these from several threads at once without nesting its own
 * threads in ours, and its per-call cost is of the order of the product
 * itself; a register-tiled kernel (tile_gemm_body.h) per instruction set,
 * chosen once from the CPU's features, does them at a good fraction of the
 * core's peak. */
#include <complex.h>
#include <stdatomic.h>
#include <string.h>

#include "../../../runtime/precision.h"
#include "host.h"

/* The products of at most one tile's size, and the fallback where no
 * vector kernel applies (A's band is not needed: its zeros add nothing). */
static void tile_gemm_plain(lapack_int m, lapack_int n, lapack_int kdim,
                            int mode, const gl_scalar *a, lapack_int lda,
                            const gl_scalar *b, lapack_int ldb, gl_scalar *c,
                            lapack_int ldc)
{
    for (lapack_int j = 0; j < n; j++) {
        gl_scalar *cj = c + (size_t)j * ldc;
        if (mode == GL_TILE_SET)
            for (lapack_int i = 0; i < m; i++)
                cj[i] = 0;
        for (lapack_int p = 0; p < kdim; p++) {
            gl_scalar bpj = b[p + (size_t)j * ldb];
            if (mode == GL_TILE_SUBTRACT)
                bpj = -bpj;
            const gl_scalar *ap = a + (size_t)p * lda;
            for (lapack_int i = 0; i < m; i++)
                cj[i] += ap[i] * bpj;
        }
    }
}

typedef void tile_kernel(lapack_int m, lapack_int n, lapack_int kdim, int mode,
                         const gl_scalar *a, lapack_int lda, lapack_int below,
                         lapack_int above, const gl_scalar *b, lapack_int ldb,
                         gl_scalar *c, lapack_int ldc);

/* Generic vectors of 16 bytes: SSE2 on x86-64, NEON, ... */
#define V16_MV 2
#define V16_NR 4
#define TG_NAME tile_gemm_v16
#define TG_ATTR
#define TG_VBYTES 16
#define TG_MV V16_MV
#define TG_NR V16_NR
#include "tile_gemm_body.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define AVX2_MV 2
#define AVX2_NR (GL_COMPLEX ? 3 : 6)
#define TG_NAME tile_gemm_avx2
#define TG_ATTR __attribute__((target("avx2,fma")))
#define TG_VBYTES 32
#define TG_MV AVX2_MV
#define TG_NR AVX2_NR
#include "tile_gemm_body.h"

#define AVX512_MV 2
#define AVX512_NR (GL_COMPLEX ? 6 : 12)
#define TG_NAME tile_gemm_avx512
#define TG_ATTR __attribute__((target("avx512f,fma")))
#define TG_VBYTES 64
#define TG_MV AVX512_MV
#define TG_NR AVX512_NR
#include "tile_gemm_body.h"
#endif

typedef struct tile_choice {
    tile_kernel *kernel;
    lapack_int mr, nr;   /* the kernel's tile, in scalars */
    int (*usable)(void); /* whether this CPU runs it */
} tile_choice;

enum { CW = GL_COMPLEX ? 2 : 1, REAL_BYTES = sizeof(gl_real) };

static int always(void) { return 1; }

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
static int has_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

static int has_avx512(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
}
#endif

/* From the most portable to the widest: the last usable one is taken. */
static const tile_choice kernels[] = {
    {tile_gemm_v16, V16_MV * 16 / REAL_BYTES / CW, V16_NR, always},
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    {tile_gemm_avx2, AVX2_MV * 32 / REAL_BYTES / CW, AVX2_NR, has_avx2},
    {tile_gemm_avx512, AVX512_MV * 64 / REAL_BYTES / CW, AVX512_NR,
     has_avx512},
#endif
};

static const tile_choice *chosen(void)
{
    static atomic_int index = -1;   /* every thread computes the same */
    int i = atomic_load_explicit(&index, memory_order_relaxed);
    if (i < 0) {
        i = (int)(sizeof kernels / sizeof kernels[0]) - 1;
        while (i > 0 && !kernels[i].usable())
            i--;
        atomic_store_explicit(&index, i, memory_order_relaxed);
    }
    return &kernels[i];
}

/* gl_s_tile_gemm_vector gl_d_tile_gemm_vector gl_c_tile_gemm_vector gl_z_tile_gemm_vector */
int GL_FN(tile_gemm_vector)(void) { return chosen() != &kernels[0]; }

/* gl_s_tile_gemm_cols gl_d_tile_gemm_cols gl_c_tile_gemm_cols gl_z_tile_gemm_cols */
lapack_int GL_FN(tile_gemm_cols)(void) { return chosen()->nr; }

/* gl_s_tile_gemm gl_d_tile_gemm gl_c_tile_gemm gl_z_tile_gemm */
void GL_FN(tile_gemm)(lapack_int m, lapack_int n, lapack_int kdim, int mode,
                      const gl_scalar *a, lapack_int lda, lapack_int below,
                      lapack_int above, const gl_scalar *b, lapack_int ldb,
                      gl_scalar *c, lapack_int ldc)
{
    const tile_choice *t = chosen();
    if (m >= t->mr && n >= t->nr && kdim > 0)
        t->kernel(m, n, kdim, mode, a, lda, below, above, b, ldb, c, ldc);
    else
        tile_gemm_plain(m, n, kdim, mode, a, lda, b, ldb, c, ldc);
}
