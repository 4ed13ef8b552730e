/* The vendor's BLAS of the CUDA and HIP runtime (cudalike.h, gpu.h
 * blas_gemm): cuBLAS opened at run time on CUDA; none on HIP, where the
 * portable kernels serve. */
#include <dlfcn.h>
#include <pthread.h>

#include "../config.h"
#include "../fault.h"
#include "../log.h"
#include "cudalike.h"

#if defined(GL_API_CUDA)
#include <cublas_v2.h>

/* cuBLAS, opened on first use (GPULAPACK_VENDOR_BLAS=0: never): its
 * handle per context, on the context's stream. */
#define BLAS_FUNCS(X)                                                        \
    X(cublasCreate) X(cublasDestroy) X(cublasSetStream) X(cublasSgemm)      \
    X(cublasDgemm) X(cublasCgemm) X(cublasZgemm) X(cublasSsymm)              \
    X(cublasDsymm) X(cublasChemm) X(cublasZhemm) X(cublasSsyr2k)             \
    X(cublasDsyr2k) X(cublasCher2k) X(cublasZher2k) X(cublasSsymv)          \
    X(cublasDsymv) X(cublasChemv) X(cublasZhemv)                            \
    X(cublasSgemmStridedBatched) X(cublasDgemmStridedBatched)                \
    X(cublasCgemmStridedBatched) X(cublasZgemmStridedBatched)
static struct {
#define BLAS_DECLARE(f) __typeof__(f) *f;
    BLAS_FUNCS(BLAS_DECLARE)
#undef BLAS_DECLARE
    int loaded;
} blas;
static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

void blas_free(void *handle) { blas.cublasDestroy(handle); }

static void blas_load(void)
{
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12",
                                        "libcublas.so.11", "libcublas.so",
                                        NULL};
    if (gl_config_get()->vendor_blas == 0)
        return;
    void *lib = open_first(names);
    if (!lib)
        return;
#define BLAS_LOAD(f)                                                         \
    if (!(*(void **)&blas.f = dlsym(lib, STRING(f))))                        \
        return;
    BLAS_FUNCS(BLAS_LOAD)
#undef BLAS_LOAD
    blas.loaded = 1;
    gl_log(2, API ": cuBLAS loaded");
}

/* The context's cuBLAS handle on the context's stream: made on first use
 * (with the context's device current), destroyed with the context's state.
 * NULL with *rc = 1 when no handle can be made (the caller uses the
 * portable kernel), -1 when the stream cannot be set. */
static cublasHandle_t blas_handle(queue_state *q, int *rc)
{
    if (!q->blas) {
        cublasHandle_t handle;
        if (blas.cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
            *rc = 1;
            return NULL;
        }
        q->blas = handle;
    }
    if (gl_fault_hit(GL_FAULT_LAUNCH) ||
        blas.cublasSetStream(q->blas, q->stream) != CUBLAS_STATUS_SUCCESS) {
        *rc = -1;
        return NULL;
    }
    return q->blas;
}

/* cuBLAS takes int dimensions */
static int fits_int(size_t a, size_t b, size_t c, size_t d, size_t e,
                    size_t f)
{
    return (a | b | c | d | e | f) <= 0x7fffffff;
}

/* One vendor BLAS call of a context: the operation with its arguments,
 * run by blas_call_on on the context's handle. */
typedef struct blas_call_args {
    enum { CALL_GEMM, CALL_HEMM, CALL_HER2K, CALL_GEMM_BATCHED } op;
    int precision, opt1, opt2;   /* gemm: transa, transb; hemm: side,
                                    lower; her2k: lower, trans */
    size_t m, n, k, lda, ldb, ldc;
    const void *alpha, *a, *b, *beta;
    void *c;
    size_t stride_a, stride_b, stride_c, count;   /* batched gemm */
} blas_call_args;

static int blas_call_on(queue_state *q, const blas_call_args *x)
{
    if (!fits_int(x->m, x->n, x->k, x->lda, x->ldb, x->ldc) ||
        x->count > 0x7fffffff)
        return 1;
    int rc = 0;
    cublasHandle_t h = blas_handle(q, &rc);
    if (!h)
        return rc;
    int m = (int)x->m, n = (int)x->n, k = (int)x->k, lda = (int)x->lda,
        ldb = (int)x->ldb, ldc = (int)x->ldc, p = x->precision;
    const void *al = x->alpha, *a = x->a, *b = x->b, *be = x->beta;
    void *c = x->c;
    cublasStatus_t s = CUBLAS_STATUS_NOT_SUPPORTED;
    if (x->op == CALL_GEMM) {
        cublasOperation_t ta = (cublasOperation_t)x->opt1,
                          tb = (cublasOperation_t)x->opt2;
#define GEMM(f) blas.f(h, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc)
        s = p == 1 ? GEMM(cublasSgemm) : p == 2 ? GEMM(cublasDgemm)
          : p == 3 ? GEMM(cublasCgemm) : GEMM(cublasZgemm);
#undef GEMM
    } else if (x->op == CALL_GEMM_BATCHED) {
        cublasOperation_t ta = (cublasOperation_t)x->opt1,
                          tb = (cublasOperation_t)x->opt2;
        long long sa = (long long)x->stride_a, sb = (long long)x->stride_b,
                  sc = (long long)x->stride_c;
        int count = (int)x->count;
#define GEMM(f)                                                              \
    blas.f(h, ta, tb, m, n, k, al, a, lda, sa, b, ldb, sb, be, c, ldc, sc,   \
           count)
        s = p == 1 ? GEMM(cublasSgemmStridedBatched)
          : p == 2 ? GEMM(cublasDgemmStridedBatched)
          : p == 3 ? GEMM(cublasCgemmStridedBatched)
                   : GEMM(cublasZgemmStridedBatched);
#undef GEMM
    } else if (x->op == CALL_HEMM && !x->opt1 && n == 1) {
        /* one column from the left (the one-stage ?sytrd's products):
         * ?symv/?hemv, which streams the triangle once at the memory's
         * speed, the reduction's floor (docs/design/sytrd-device.md);
         * cuBLAS's ?symm of one column kept dsytrd at n = 8192 on an
         * H100 six times above the 0.5 s of streaming its triangles
         * once (3.48 s) */
        cublasFillMode_t fill =
            x->opt2 ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
#define HEMV(f) blas.f(h, fill, m, al, a, lda, b, 1, be, c, 1)
        s = p == 1 ? HEMV(cublasSsymv) : p == 2 ? HEMV(cublasDsymv)
          : p == 3 ? HEMV(cublasChemv) : HEMV(cublasZhemv);
#undef HEMV
    } else if (x->op == CALL_HEMM) {
        cublasSideMode_t side = x->opt1 ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
        cublasFillMode_t fill =
            x->opt2 ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
#define HEMM(f) blas.f(h, side, fill, m, n, al, a, lda, b, ldb, be, c, ldc)
        s = p == 1 ? HEMM(cublasSsymm) : p == 2 ? HEMM(cublasDsymm)
          : p == 3 ? HEMM(cublasChemm) : HEMM(cublasZhemm);
#undef HEMM
    } else {
        cublasFillMode_t fill =
            x->opt1 ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
        cublasOperation_t tr = x->opt2 ? CUBLAS_OP_C : CUBLAS_OP_N;
        if (p <= 2 && x->opt2)
            tr = CUBLAS_OP_T;
#define HER2K(f) blas.f(h, fill, tr, n, k, al, a, lda, b, ldb, be, c, ldc)
        s = p == 1 ? HER2K(cublasSsyr2k) : p == 2 ? HER2K(cublasDsyr2k)
          : p == 3 ? HER2K(cublasCher2k) : HER2K(cublasZher2k);
#undef HER2K
    }
    if (s != CUBLAS_STATUS_SUCCESS)
        gl_log(1, API ": cuBLAS operation %d failed (status %d)", (int)x->op,
               (int)s);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

static int blas_call(gl_ctx *ctx, const blas_call_args *x)
{
    pthread_once(&blas_once, blas_load);
    if (!blas.loaded)
        return 1;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = blas_call_on(q, x);
    if (rc < 0)
        q->failed = 1;
    leave(saved);
    return rc;
}

int blas_gemm(gl_ctx *ctx, int precision, int transa, int transb, size_t m,
              size_t n, size_t k, const void *alpha, const void *a,
              size_t lda, const void *b, size_t ldb, const void *beta,
              void *c, size_t ldc)
{
    blas_call_args x = {CALL_GEMM, precision, transa, transb, m, n, k, lda,
                        ldb, ldc, alpha, a, b, beta, c, 0, 0, 0, 1};
    return blas_call(ctx, &x);
}

int blas_gemm_batched(gl_ctx *ctx, int precision, int transa, int transb,
                      size_t m, size_t n, size_t k, const void *alpha,
                      const void *a, size_t lda, size_t stride_a,
                      const void *b, size_t ldb, size_t stride_b,
                      const void *beta, void *c, size_t ldc,
                      size_t stride_c, size_t count)
{
    blas_call_args x = {CALL_GEMM_BATCHED, precision, transa, transb, m, n,
                        k, lda, ldb, ldc, alpha, a, b, beta, c, stride_a,
                        stride_b, stride_c, count};
    return blas_call(ctx, &x);
}

int blas_hemm(gl_ctx *ctx, int precision, int side_right, int lower, size_t m,
              size_t n, const void *alpha, const void *a, size_t lda,
              const void *b, size_t ldb, const void *beta, void *c,
              size_t ldc)
{
    blas_call_args x = {CALL_HEMM, precision, side_right, lower, m, n, 0, lda,
                        ldb, ldc, alpha, a, b, beta, c, 0, 0, 0, 1};
    return blas_call(ctx, &x);
}

int blas_her2k(gl_ctx *ctx, int precision, int lower, int trans, size_t n,
               size_t k, const void *alpha, const void *a, size_t lda,
               const void *b, size_t ldb, const void *beta, void *c,
               size_t ldc)
{
    blas_call_args x = {CALL_HER2K, precision, lower, trans, 0, n, k, lda,
                        ldb, ldc, alpha, a, b, beta, c, 0, 0, 0, 1};
    return blas_call(ctx, &x);
}
#else
/* HIP: Debian 12 has no hipBLAS/rocBLAS package; the portable gemm
 * kernel serves (docs/STATUS.md). */
void blas_free(void *handle) { (void)handle; }
int blas_gemm(gl_ctx *ctx, int precision, int transa, int transb, size_t m,
              size_t n, size_t k, const void *alpha, const void *a,
              size_t lda, const void *b, size_t ldb, const void *beta,
              void *c, size_t ldc)
{
    (void)ctx, (void)precision, (void)transa, (void)transb, (void)m, (void)n;
    (void)k;
    (void)alpha, (void)a, (void)lda, (void)b, (void)ldb, (void)beta, (void)c;
    (void)ldc;
    return 1;
}
#endif
