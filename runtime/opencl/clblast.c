/* CLBlast's GEMMs on the OpenCL runtime (opencl.h, gpu.h blas_gemm):
 * libclblast.so.1 opened at run time, where it is present and the device
 * is a GPU (or GPULAPACK_CLBLAST asks for it). */
#include <dlfcn.h>
#include <pthread.h>

#include "../config.h"
#include "../fault.h"
#include "../log.h"
#include "opencl.h"

/* ---- CLBlast (optional) -------------------------------------------------- */

/* The four GEMMs of CLBlast's C API (clblast_c.h of libclblast-dev, which
 * the build does not need): layout, transposes and status are C enums. */
typedef int clblast_sgemm_fn(int, int, int, size_t, size_t, size_t, float,
                             const cl_mem, size_t, size_t, const cl_mem,
                             size_t, size_t, float, cl_mem, size_t, size_t,
                             cl_command_queue *, cl_event *);
typedef int clblast_dgemm_fn(int, int, int, size_t, size_t, size_t, double,
                             const cl_mem, size_t, size_t, const cl_mem,
                             size_t, size_t, double, cl_mem, size_t, size_t,
                             cl_command_queue *, cl_event *);
typedef int clblast_cgemm_fn(int, int, int, size_t, size_t, size_t,
                             cl_float2, const cl_mem, size_t, size_t,
                             const cl_mem, size_t, size_t, cl_float2, cl_mem,
                             size_t, size_t, cl_command_queue *, cl_event *);
typedef int clblast_zgemm_fn(int, int, int, size_t, size_t, size_t,
                             cl_double2, const cl_mem, size_t, size_t,
                             const cl_mem, size_t, size_t, cl_double2,
                             cl_mem, size_t, size_t, cl_command_queue *,
                             cl_event *);
/* and their strided-batched forms: a stride after each leading dimension,
 * the count before the queue */
typedef int clblast_sgemm_batched_fn(int, int, int, size_t, size_t, size_t,
                                     float, const cl_mem, size_t, size_t,
                                     size_t, const cl_mem, size_t, size_t,
                                     size_t, float, cl_mem, size_t, size_t,
                                     size_t, size_t, cl_command_queue *,
                                     cl_event *);
typedef int clblast_dgemm_batched_fn(int, int, int, size_t, size_t, size_t,
                                     double, const cl_mem, size_t, size_t,
                                     size_t, const cl_mem, size_t, size_t,
                                     size_t, double, cl_mem, size_t, size_t,
                                     size_t, size_t, cl_command_queue *,
                                     cl_event *);
typedef int clblast_cgemm_batched_fn(int, int, int, size_t, size_t, size_t,
                                     cl_float2, const cl_mem, size_t, size_t,
                                     size_t, const cl_mem, size_t, size_t,
                                     size_t, cl_float2, cl_mem, size_t,
                                     size_t, size_t, size_t,
                                     cl_command_queue *, cl_event *);
typedef int clblast_zgemm_batched_fn(int, int, int, size_t, size_t, size_t,
                                     cl_double2, const cl_mem, size_t,
                                     size_t, size_t, const cl_mem, size_t,
                                     size_t, size_t, cl_double2, cl_mem,
                                     size_t, size_t, size_t, size_t,
                                     cl_command_queue *, cl_event *);
enum { CLBLAST_COL_MAJOR = 102, CLBLAST_TRANS_BASE = 111 };

static struct {
    clblast_sgemm_fn *sgemm;
    clblast_dgemm_fn *dgemm;
    clblast_cgemm_fn *cgemm;
    clblast_zgemm_fn *zgemm;
    clblast_sgemm_batched_fn *sgemm_batched;
    clblast_dgemm_batched_fn *dgemm_batched;
    clblast_cgemm_batched_fn *cgemm_batched;
    clblast_zgemm_batched_fn *zgemm_batched;
} clblast;
static pthread_once_t clblast_once = PTHREAD_ONCE_INIT;

/* CLBlast on GPUs only by default: on a CPU device (PoCL) it is no faster
 * than our kernel and compiles its own kernels in every process (tens of
 * seconds); GPULAPACK_CLBLAST=1 takes it on any device, 0 never. */
static void clblast_load(void)
{
    void *lib = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    *(void **)&clblast.sgemm = dlsym(lib, "CLBlastSgemm");
    *(void **)&clblast.dgemm = dlsym(lib, "CLBlastDgemm");
    *(void **)&clblast.cgemm = dlsym(lib, "CLBlastCgemm");
    *(void **)&clblast.zgemm = dlsym(lib, "CLBlastZgemm");
    *(void **)&clblast.sgemm_batched = dlsym(lib, "CLBlastSgemmStridedBatched");
    *(void **)&clblast.dgemm_batched = dlsym(lib, "CLBlastDgemmStridedBatched");
    *(void **)&clblast.cgemm_batched = dlsym(lib, "CLBlastCgemmStridedBatched");
    *(void **)&clblast.zgemm_batched = dlsym(lib, "CLBlastZgemmStridedBatched");
    gl_log(2, "opencl: CLBlast %s", clblast.dgemm ? "loaded" : "incomplete");
}

/* One CLBlast product (count 0) or strided batch of count products. */
static int clblast_gemm(queue_state *q, int precision, int transa,
                        int transb, size_t m, size_t n, size_t k,
                        const void *alpha, const void *a, size_t lda,
                        size_t sa, const void *b, size_t ldb, size_t sb,
                        const void *beta, void *c, size_t ldc, size_t sc,
                        size_t count)
{
    int mode = gl_config_get()->clblast;
    if (mode == 0 || (mode < 0 && !q->dev->info.gpu))
        return 1;
    pthread_once(&clblast_once, clblast_load);
    static const size_t elem[4] = {4, 8, 8, 16};
    void *plain = precision == 1 ? (void *)clblast.sgemm
                : precision == 2 ? (void *)clblast.dgemm
                : precision == 3 ? (void *)clblast.cgemm
                                 : (void *)clblast.zgemm;
    void *batched = precision == 1 ? (void *)clblast.sgemm_batched
                  : precision == 2 ? (void *)clblast.dgemm_batched
                  : precision == 3 ? (void *)clblast.cgemm_batched
                                   : (void *)clblast.zgemm_batched;
    if (!(count ? batched : plain))
        return 1;
    if (gl_fault_hit(GL_FAULT_LAUNCH))
        return checked(q, -1);
    cl_mem ma, mb, mc;
    size_t oa, ob, oc, es = elem[precision - 1];
    cl_command_queue queue = q->queue;
    if (resolve(a, &ma, &oa) || resolve(b, &mb, &ob) || resolve(c, &mc, &oc))
        return checked(q, -1);
    int ta = CLBLAST_TRANS_BASE + transa, tb = CLBLAST_TRANS_BASE + transb;
    oa /= es, ob /= es, oc /= es;
    /* the scalars by value, in the precision's type */
#define CALL(T, PLAIN, BATCHED)                                              \
    (count ? clblast.BATCHED(CLBLAST_COL_MAJOR, ta, tb, m, n, k,              \
                             *(const T *)alpha, ma, oa, lda, sa, mb, ob, ldb, \
                             sb, *(const T *)beta, mc, oc, ldc, sc, count,    \
                             &queue, NULL)                                    \
           : clblast.PLAIN(CLBLAST_COL_MAJOR, ta, tb, m, n, k,                \
                           *(const T *)alpha, ma, oa, lda, mb, ob, ldb,       \
                           *(const T *)beta, mc, oc, ldc, &queue, NULL))
    int status = precision == 1 ? CALL(float, sgemm, sgemm_batched)
               : precision == 2 ? CALL(double, dgemm, dgemm_batched)
               : precision == 3 ? CALL(cl_float2, cgemm, cgemm_batched)
                                : CALL(cl_double2, zgemm, zgemm_batched);
#undef CALL
    return checked(q, status == 0 ? 0 : -1);
}

int blas_gemm(gl_ctx *ctx, int precision, int transa, int transb,
              size_t m, size_t n, size_t k, const void *alpha,
              const void *a, size_t lda, const void *b, size_t ldb,
              const void *beta, void *c, size_t ldc)
{
    return clblast_gemm(Q(ctx), precision, transa, transb, m, n, k, alpha, a, lda, 0,
                        b, ldb, 0, beta, c, ldc, 0, 0);
}

int blas_gemm_batched(gl_ctx *ctx, int precision, int transa,
                      int transb, size_t m, size_t n, size_t k,
                      const void *alpha,
                      const void *a, size_t lda, size_t stride_a,
                      const void *b, size_t ldb, size_t stride_b,
                      const void *beta, void *c, size_t ldc,
                      size_t stride_c, size_t count)
{
    return clblast_gemm(Q(ctx), precision, transa, transb, m, n, k, alpha, a,
                        lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c,
                        count);
}
