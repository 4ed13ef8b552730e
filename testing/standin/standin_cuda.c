/* The computing stand-in for libcuda.so.1 and cuBLAS (one library, the
 * Makefile links libcublas.so.12 to it): the driver entry points that
 * runtime/cudalike/driver_cuda.c resolves, over the core of standin.c (what it
 * computes and what it cannot show: the comment at its top), and the
 * cuBLAS calls the runtime makes, computed by the system BLAS on the
 * worker of the handle's stream.  Each thread has its stack of current
 * contexts (the primary context of each device); an operation on a
 * stream of another device than the current context's fails. */
#include <cublas_v2.h>
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standin.h"

#ifndef STANDIN_IMAGE_DIR
#define STANDIN_IMAGE_DIR "build/cuda"
#endif

static CUresult status(sd_status s)
{
    switch (s) {
    case SD_OK: return CUDA_SUCCESS;
    case SD_INVALID_VALUE: return CUDA_ERROR_INVALID_VALUE;
    case SD_OUT_OF_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
    case SD_INVALID_DEVICE: return CUDA_ERROR_INVALID_DEVICE;
    case SD_ILLEGAL_ADDRESS: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case SD_LAUNCH_FAILED: return CUDA_ERROR_LAUNCH_FAILED;
    case SD_CAPTURE: return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    case SD_INVALID_IMAGE: return CUDA_ERROR_INVALID_IMAGE;
    case SD_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
    case SD_NOT_SUPPORTED: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_ERROR_UNKNOWN;
}

static int devices(void) { return sd_device_count(1); }

/* ---- devices and contexts ------------------------------------------------- */

EXPORT CUresult cuInit(unsigned flags) { (void)flags; return CUDA_SUCCESS; }
EXPORT CUresult cuDriverGetVersion(int *v) { *v = 13000; return CUDA_SUCCESS; }
EXPORT CUresult cuDeviceGetCount(int *n) { *n = devices(); return CUDA_SUCCESS; }
EXPORT CUresult cuDeviceGet(CUdevice *d, int i)
{
    *d = i;
    return i >= 0 && i < devices() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    snprintf(name, (size_t)len, "gpulapack stand-in GPU %d (PoCL)", (int)d);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    if (d < 0 || d >= devices())
        return CUDA_ERROR_INVALID_DEVICE;
    *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9
       : a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT     ? sd_compute_units()
       : a == CU_DEVICE_ATTRIBUTE_CLOCK_RATE               ? 1980000
                                                           : 0;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    *bytes = sd_total_bytes(d);
    return CUDA_SUCCESS;
}

/* The primary context of device d is &contexts[d]; each thread has its
 * stack of current contexts. */
static char contexts[SD_MAX_DEVICES];
enum { STACK = 64 };
static _Thread_local int ctx_stack[STACK], ctx_depth;

static int current(void) { return ctx_depth > 0 ? ctx_stack[ctx_depth - 1] : -1; }

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
    if (d < 0 || d >= devices())
        return CUDA_ERROR_INVALID_DEVICE;
    *c = (CUcontext)&contexts[d];
    return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxPushCurrent_v2(CUcontext c)
{
    char *p = (char *)c;
    if (p < contexts || p >= contexts + devices() || ctx_depth >= STACK)
        return CUDA_ERROR_INVALID_CONTEXT;
    ctx_stack[ctx_depth++] = (int)(p - contexts);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *c)
{
    if (ctx_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    ctx_depth--;
    if (c)
        *c = (CUcontext)&contexts[ctx_stack[ctx_depth]];
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    if (current() < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    *total = sd_total_bytes(current());
    *free_bytes = sd_free_bytes(current());
    return CUDA_SUCCESS;
}

/* The stream s (NULL: the device's own) of the current context's device;
 * NULL when s belongs to another device or no context is current. */
static sd_stream *stream_of(CUstream s)
{
    int d = current();
    if (d < 0)
        return NULL;
    sd_stream *st = s ? (sd_stream *)s : sd_stream_default(d);
    return st && sd_stream_device(st) == d ? st : NULL;
}
#define STREAM(var, s)                                                       \
    sd_stream *var = stream_of(s);                                           \
    if (!var)                                                                \
        return current() < 0 ? CUDA_ERROR_INVALID_CONTEXT                    \
                             : CUDA_ERROR_INVALID_HANDLE;

/* ---- modules and launches --------------------------------------------------- */

/* a module is its precision */
static char modules[4];

EXPORT CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
    if (current() < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    const char *dir = getenv("GL_STANDIN_IMAGES");
    int p = 0;
    sd_status rc = sd_module_load(image, dir ? dir : STANDIN_IMAGE_DIR,
                                  "fatbin", &p);
    if (rc == SD_OK)
        *m = (CUmodule)&modules[p - 1];
    return status(rc);
}
EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    char *p = (char *)m;
    if (p < modules || p >= modules + 4)
        return CUDA_ERROR_INVALID_HANDLE;
    sd_function *fn = NULL;
    sd_status rc = sd_function_get((int)(p - modules) + 1, name, &fn);
    *f = (CUfunction)fn;
    return status(rc);
}
EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared, CUstream s,
                               void **params, void **extra)
{
    STREAM(st, s)
    if (shared || extra)
        return CUDA_ERROR_INVALID_VALUE;   /* not what the library passes */
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return status(sd_launch(st, (sd_function *)f, grid, block, params));
}

/* ---- memory and copies -------------------------------------------------------- */

#define DPTR(p) ((void *)(uintptr_t)(p))

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
    if (current() < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    void *m = NULL;
    sd_status rc = sd_alloc(current(), bytes, &m);
    *p = (CUdeviceptr)(uintptr_t)m;
    return status(rc);
}
EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
    if (current() < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    return status(sd_free(current(), DPTR(p)));
}
EXPORT CUresult cuMemAllocAsync(CUdeviceptr *p, size_t bytes, CUstream s)
{
    STREAM(st, s)
    (void)st;
    return cuMemAlloc_v2(p, bytes);
}
EXPORT CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
    STREAM(st, s)
    return status(sd_free_async(st, DPTR(p)));
}
EXPORT CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return status(sd_host_alloc(bytes, p));
}
EXPORT CUresult cuMemFreeHost(void *p) { return status(sd_host_free(p)); }
EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags)
{
    (void)flags;
    return status(sd_host_register(p, bytes));
}
EXPORT CUresult cuMemHostUnregister(void *p) { return status(sd_host_unregister(p)); }

EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *h, size_t n, CUstream s)
{
    STREAM(st, s)
    return status(sd_copy(st, SD_HTOD, DPTR(d), h, n));
}
EXPORT CUresult cuMemcpyDtoHAsync_v2(void *h, CUdeviceptr d, size_t n, CUstream s)
{
    STREAM(st, s)
    return status(sd_copy(st, SD_DTOH, h, DPTR(d), n));
}
EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr from, size_t n, CUstream s)
{
    STREAM(st, s)
    return status(sd_copy(st, SD_DTOD, DPTR(d), DPTR(from), n));
}
EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *c, CUstream s)
{
    STREAM(st, s)
    int to_device = c->dstMemoryType == CU_MEMORYTYPE_DEVICE;
    if (c->srcXInBytes || c->srcY || c->dstXInBytes || c->dstY ||
        to_device == (c->srcMemoryType == CU_MEMORYTYPE_DEVICE))
        return CUDA_ERROR_INVALID_VALUE;   /* not what the library asks */
    void *dst = to_device ? DPTR(c->dstDevice) : c->dstHost;
    const void *src = to_device ? c->srcHost : DPTR(c->srcDevice);
    return status(sd_copy_2d(st, to_device, dst, c->dstPitch, src,
                             c->srcPitch, c->WidthInBytes, c->Height));
}

/* ---- streams, events, graphs ------------------------------------------------- */

EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags)
{
    (void)flags;
    if (current() < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    sd_stream *st = NULL;
    sd_status rc = sd_stream_create(current(), &st);
    *s = (CUstream)st;
    return status(rc);
}
EXPORT CUresult cuStreamSynchronize(CUstream s)
{
    STREAM(st, s)
    return status(sd_stream_sync(st));
}
EXPORT CUresult cuStreamDestroy_v2(CUstream s)
{
    STREAM(st, s)
    return status(sd_stream_destroy(st));
}
EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
    (void)flags;
    STREAM(st, s)
    return status(sd_stream_wait(st, (sd_event *)e));
}
EXPORT CUresult cuEventCreate(CUevent *e, unsigned flags)
{
    (void)flags;
    return status(sd_event_create((sd_event **)e));
}
EXPORT CUresult cuEventRecord(CUevent e, CUstream s)
{
    STREAM(st, s)
    return status(sd_event_record((sd_event *)e, st));
}
EXPORT CUresult cuEventSynchronize(CUevent e) { return status(sd_event_sync((sd_event *)e)); }
EXPORT CUresult cuEventDestroy_v2(CUevent e) { return status(sd_event_destroy((sd_event *)e)); }

EXPORT CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode m)
{
    (void)m;
    STREAM(st, s)
    return status(sd_capture_begin(st));
}
EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *g)
{
    STREAM(st, s)
    return status(sd_capture_end(st, (sd_graph **)g));
}
EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g, unsigned long long f)
{
    (void)f;
    *e = (CUgraphExec)sd_graph_retain((sd_graph *)g);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphLaunch(CUgraphExec e, CUstream s)
{
    STREAM(st, s)
    return status(sd_graph_launch((sd_graph *)e, st));
}
EXPORT CUresult cuGraphExecDestroy(CUgraphExec e) { return status(sd_graph_destroy((sd_graph *)e)); }
EXPORT CUresult cuGraphDestroy(CUgraph g) { return status(sd_graph_destroy((sd_graph *)g)); }

/* ---- cuBLAS ------------------------------------------------------------------- */

/* the system BLAS (Fortran names; the hidden lengths of the character
 * arguments passed, as gfortran's callers do) */
typedef void gemm_fn(const char *, const char *, const int *, const int *,
                     const int *, const void *, const void *, const int *,
                     const void *, const int *, const void *, void *,
                     const int *, size_t, size_t);
typedef void hemm_fn(const char *, const char *, const int *, const int *,
                     const void *, const void *, const int *, const void *,
                     const int *, const void *, void *, const int *, size_t,
                     size_t);
typedef void her2k_fn(const char *, const char *, const int *, const int *,
                      const void *, const void *, const int *, const void *,
                      const int *, const void *, void *, const int *, size_t,
                      size_t);
typedef void hemv_fn(const char *, const int *, const void *, const void *,
                     const int *, const void *, const int *, const void *,
                     void *, const int *, size_t);
extern gemm_fn sgemm_, dgemm_, cgemm_, zgemm_;
extern hemm_fn ssymm_, dsymm_, chemm_, zhemm_;
extern her2k_fn ssyr2k_, dsyr2k_, cher2k_, zher2k_;
extern hemv_fn ssymv_, dsymv_, chemv_, zhemv_;

static gemm_fn *const gemm[4] = {sgemm_, dgemm_, cgemm_, zgemm_};
static hemm_fn *const hemm[4] = {ssymm_, dsymm_, chemm_, zhemm_};
static her2k_fn *const her2k[4] = {ssyr2k_, dsyr2k_, cher2k_, zher2k_};
static hemv_fn *const hemv[4] = {ssymv_, dsymv_, chemv_, zhemv_};
static const size_t elem_bytes[4] = {4, 8, 8, 16};

typedef struct handle {
    int device;
    sd_stream *stream;   /* NULL: the device's own */
} handle;

/* one call, run on the handle's stream */
typedef struct blas_job {
    enum { GEMM, HEMM, HER2K, HEMV } op;
    int p;   /* precision 0-3 */
    char o1, o2;
    int m, n, k, lda, ldb, ldc, count;
    long long sa, sb, sc;
    unsigned char alpha[16], beta[16];
    const char *a, *b;
    char *c;
} blas_job;

static void blas_run(void *arg)
{
    const blas_job *j = arg;
    size_t e = elem_bytes[j->p];
    const int one = 1;
    for (int i = 0; i < j->count; i++) {
        const char *a = j->a + (size_t)(i * j->sa) * e,
                   *b = j->b + (size_t)(i * j->sb) * e;
        char *c = j->c + (size_t)(i * j->sc) * e;
        switch (j->op) {
        case GEMM:
            gemm[j->p](&j->o1, &j->o2, &j->m, &j->n, &j->k, j->alpha, a,
                       &j->lda, b, &j->ldb, j->beta, c, &j->ldc, 1, 1);
            break;
        case HEMM:
            hemm[j->p](&j->o1, &j->o2, &j->m, &j->n, j->alpha, a, &j->lda, b,
                       &j->ldb, j->beta, c, &j->ldc, 1, 1);
            break;
        case HER2K:
            her2k[j->p](&j->o1, &j->o2, &j->n, &j->k, j->alpha, a, &j->lda,
                        b, &j->ldb, j->beta, c, &j->ldc, 1, 1);
            break;
        case HEMV:
            hemv[j->p](&j->o1, &j->n, j->alpha, a, &j->lda, b, &one, j->beta,
                       c, &one, 1);
            break;
        }
    }
}

/* bytes spanned by a rows x cols matrix with leading dimension ld */
static size_t span(int rows, int cols, int ld, size_t e)
{
    return rows <= 0 || cols <= 0 ? 0
                                  : ((size_t)(cols - 1) * (size_t)ld + (size_t)rows) * e;
}

/* The job on the handle's stream, once its matrices (a: ra x ca, b, c)
 * are memory of the handle's device. */
static cublasStatus_t submit(cublasHandle_t h, blas_job *j, int ra, int ca,
                             int rb, int cb, int rc, int cc)
{
    handle *hd = (handle *)h;
    sd_stream *s = hd->stream ? hd->stream : sd_stream_default(hd->device);
    size_t e = elem_bytes[j->p];
    size_t batch = j->count > 1 ? 1 : 0;
    if (!s || j->count < 1)
        return CUBLAS_STATUS_INVALID_VALUE;
    if ((span(ra, ca, j->lda, e) &&
         sd_on_device(hd->device, j->a, span(ra, ca, j->lda, e) +
                      batch * (size_t)(j->count - 1) * (size_t)j->sa * e)) ||
        (span(rb, cb, j->ldb, e) &&
         sd_on_device(hd->device, j->b, span(rb, cb, j->ldb, e) +
                      batch * (size_t)(j->count - 1) * (size_t)j->sb * e)) ||
        (span(rc, cc, j->ldc, e) &&
         sd_on_device(hd->device, j->c, span(rc, cc, j->ldc, e) +
                      batch * (size_t)(j->count - 1) * (size_t)j->sc * e))) {
        fprintf(stderr, "standin: cuBLAS operation %d on memory that is not "
                        "device %d's\n", (int)j->op, hd->device);
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return sd_host_work(s, blas_run, j, sizeof *j) == SD_OK
               ? CUBLAS_STATUS_SUCCESS
               : CUBLAS_STATUS_ALLOC_FAILED;
}

static char op_char(cublasOperation_t t) { return t == CUBLAS_OP_N ? 'N' : t == CUBLAS_OP_T ? 'T' : 'C'; }
static char fill_char(cublasFillMode_t f) { return f == CUBLAS_FILL_MODE_LOWER ? 'L' : 'U'; }

EXPORT cublasStatus_t cublasCreate_v2(cublasHandle_t *h)
{
    if (current() < 0)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    handle *hd = calloc(1, sizeof *hd);
    if (!hd)
        return CUBLAS_STATUS_ALLOC_FAILED;
    hd->device = current();
    *h = (cublasHandle_t)hd;
    return CUBLAS_STATUS_SUCCESS;
}
EXPORT cublasStatus_t cublasDestroy_v2(cublasHandle_t h)
{
    free(h);
    return CUBLAS_STATUS_SUCCESS;
}
EXPORT cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t s)
{
    handle *hd = (handle *)h;
    if (s && sd_stream_device((sd_stream *)s) != hd->device)
        return CUBLAS_STATUS_INVALID_VALUE;
    hd->stream = (sd_stream *)s;
    return CUBLAS_STATUS_SUCCESS;
}

/* the scalars: alpha and beta of precision p (beta real: her2k's) */
static void scalars(blas_job *j, const void *alpha, const void *beta,
                    int real_beta)
{
    size_t e = elem_bytes[j->p];
    memcpy(j->alpha, alpha, e);
    memcpy(j->beta, beta, real_beta && j->p >= 2 ? e / 2 : e);
}

static cublasStatus_t gemm_call(int p, cublasHandle_t h, cublasOperation_t ta,
                                cublasOperation_t tb, int m, int n, int k,
                                const void *alpha, const void *a, int lda,
                                long long sa, const void *b, int ldb,
                                long long sb, const void *beta, void *c,
                                int ldc, long long sc, int count)
{
    blas_job j = {GEMM, p, op_char(ta), op_char(tb), m, n, k, lda, ldb, ldc,
                  count, sa, sb, sc, {0}, {0}, a, b, c};
    scalars(&j, alpha, beta, 0);
    return submit(h, &j, ta == CUBLAS_OP_N ? m : k, ta == CUBLAS_OP_N ? k : m,
                  tb == CUBLAS_OP_N ? k : n, tb == CUBLAS_OP_N ? n : k, m, n);
}

#define GEMM(name, p, T)                                                     \
    EXPORT cublasStatus_t name(cublasHandle_t h, cublasOperation_t ta,       \
                               cublasOperation_t tb, int m, int n, int k,   \
                               const T *alpha, const T *a, int lda,          \
                               const T *b, int ldb, const T *beta, T *c,     \
                               int ldc)                                      \
    {                                                                        \
        return gemm_call(p, h, ta, tb, m, n, k, alpha, a, lda, 0, b, ldb, 0, \
                         beta, c, ldc, 0, 1);                                \
    }
GEMM(cublasSgemm, 0, float)
GEMM(cublasDgemm, 1, double)
GEMM(cublasCgemm, 2, cuComplex)
GEMM(cublasZgemm, 3, cuDoubleComplex)
#undef GEMM

#define GEMM_BATCHED(name, p, T)                                             \
    EXPORT cublasStatus_t name(cublasHandle_t h, cublasOperation_t ta,       \
                               cublasOperation_t tb, int m, int n, int k,   \
                               const T *alpha, const T *a, int lda,          \
                               long long sa, const T *b, int ldb,            \
                               long long sb, const T *beta, T *c, int ldc,   \
                               long long sc, int count)                      \
    {                                                                        \
        return gemm_call(p, h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb,   \
                         sb, beta, c, ldc, sc, count);                       \
    }
GEMM_BATCHED(cublasSgemmStridedBatched, 0, float)
GEMM_BATCHED(cublasDgemmStridedBatched, 1, double)
GEMM_BATCHED(cublasCgemmStridedBatched, 2, cuComplex)
GEMM_BATCHED(cublasZgemmStridedBatched, 3, cuDoubleComplex)
#undef GEMM_BATCHED

#define HEMM(name, p, T)                                                     \
    EXPORT cublasStatus_t name(cublasHandle_t h, cublasSideMode_t side,      \
                               cublasFillMode_t fill, int m, int n,          \
                               const T *alpha, const T *a, int lda,          \
                               const T *b, int ldb, const T *beta, T *c,     \
                               int ldc)                                      \
    {                                                                        \
        int ka = side == CUBLAS_SIDE_LEFT ? m : n;                           \
        blas_job j = {HEMM, p, side == CUBLAS_SIDE_LEFT ? 'L' : 'R',         \
                      fill_char(fill), m, n, 0, lda, ldb, ldc, 1, 0, 0, 0,   \
                      {0}, {0}, (const char *)a, (const char *)b, (char *)c}; \
        scalars(&j, alpha, beta, 0);                                         \
        return submit(h, &j, ka, ka, m, n, m, n);                         \
    }
HEMM(cublasSsymm, 0, float)
HEMM(cublasDsymm, 1, double)
HEMM(cublasChemm, 2, cuComplex)
HEMM(cublasZhemm, 3, cuDoubleComplex)
#undef HEMM

#define HER2K(name, p, T, R)                                                 \
    EXPORT cublasStatus_t name(cublasHandle_t h, cublasFillMode_t fill,      \
                               cublasOperation_t tr, int n, int k,           \
                               const T *alpha, const T *a, int lda,          \
                               const T *b, int ldb, const R *beta, T *c,     \
                               int ldc)                                      \
    {                                                                        \
        int notrans = tr == CUBLAS_OP_N;                                     \
        blas_job j = {HER2K, p, fill_char(fill), op_char(tr), 0, n, k, lda,  \
                      ldb, ldc, 1, 0, 0, 0, {0}, {0}, (const char *)a,       \
                      (const char *)b, (char *)c};                           \
        scalars(&j, alpha, beta, 1);                                         \
        return submit(h, &j, notrans ? n : k, notrans ? k : n,               \
                      notrans ? n : k, notrans ? k : n, n, n);            \
    }
HER2K(cublasSsyr2k, 0, float, float)
HER2K(cublasDsyr2k, 1, double, double)
HER2K(cublasCher2k, 2, cuComplex, float)
HER2K(cublasZher2k, 3, cuDoubleComplex, double)
#undef HER2K

#define HEMV(name, p, T)                                                     \
    EXPORT cublasStatus_t name(cublasHandle_t h, cublasFillMode_t fill,      \
                               int n, const T *alpha, const T *a, int lda,   \
                               const T *x, int incx, const T *beta, T *y,    \
                               int incy)                                     \
    {                                                                        \
        if (incx != 1 || incy != 1)                                          \
            return CUBLAS_STATUS_NOT_SUPPORTED;                              \
        blas_job j = {HEMV, p, fill_char(fill), 'N', n, n, 0, lda, 1, 1, 1,  \
                      0, 0, 0, {0}, {0}, (const char *)a, (const char *)x,   \
                      (char *)y};                                            \
        scalars(&j, alpha, beta, 0);                                         \
        return submit(h, &j, n, n, n, 1, n, 1);                           \
    }
HEMV(cublasSsymv, 0, float)
HEMV(cublasDsymv, 1, double)
HEMV(cublasChemv, 2, cuComplex)
HEMV(cublasZhemv, 3, cuDoubleComplex)
#undef HEMV
