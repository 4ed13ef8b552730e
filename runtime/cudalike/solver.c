/* The vendor's eigensolver of the CUDA and HIP runtime (cudalike.h, gpu.h
 * eig_solve): cuSOLVER's Xsyevd on CUDA, rocSOLVER's ?syevd/?heevd on
 * HIP, each library opened at run time; each API's part, then the
 * API-neutral calls. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../config.h"
#include "../fault.h"
#include "../log.h"
#include "cudalike.h"

/* Each API's part: solver_load (the library and its entry points, once),
 * solver_handle_make (the context's handle, with its device current),
 * solver_free, solver_workspace (device and host bytes of a call) and
 * solver_run (the call on the context's stream, INFO into device memory).
 * solver_ready, eig_solve and solver_version below are API-neutral. */
static pthread_once_t solver_once = PTHREAD_ONCE_INIT;

/* a solver call: what eig_solve passes to the API's part */
typedef struct solver_call {
    int precision;
    char jobz, uplo;
    int64_t n, lda;
    void *a, *w;
} solver_call;

#if defined(GL_API_CUDA)
#include <cusolverDn.h>

/* cuSOLVER's 64-bit API (Xsyevd, CUDA 11.1 and later).  The header gives
 * the types; cusolverDnSetAdvOptions is optional (older libraries). */
#define SOLVER_FUNCS(X)                                                      \
    X(cusolverDnCreate) X(cusolverDnDestroy) X(cusolverDnSetStream)          \
    X(cusolverDnCreateParams) X(cusolverDnDestroyParams)                     \
    X(cusolverDnXsyevd_bufferSize) X(cusolverDnXsyevd) X(cusolverGetProperty)
static struct {
#define SOLVER_DECLARE(f) __typeof__(f) *f;
    SOLVER_FUNCS(SOLVER_DECLARE)
#undef SOLVER_DECLARE
    __typeof__(cusolverDnSetAdvOptions) *cusolverDnSetAdvOptions;
    int loaded;
} solver;

static void solver_load(void)
{
    static const char *const names[] = {"libcusolver.so.12",
                                        "libcusolver.so.11", "libcusolver.so",
                                        NULL};
    void *lib = open_first(names);
    if (!lib)
        return;
#define SOLVER_LOAD(f)                                                       \
    if (!(*(void **)&solver.f = dlsym(lib, STRING(f))))                      \
        return;
    SOLVER_FUNCS(SOLVER_LOAD)
#undef SOLVER_LOAD
    *(void **)&solver.cusolverDnSetAdvOptions =
        dlsym(lib, "cusolverDnSetAdvOptions");
    solver.loaded = 1;
    gl_log(2, API ": cuSOLVER loaded");
}

static int solver_version_of(char *buf, size_t len)
{
    int v[3] = {0, 0, 0};
    if (solver.cusolverGetProperty(MAJOR_VERSION, &v[0]) != CUSOLVER_STATUS_SUCCESS ||
        solver.cusolverGetProperty(MINOR_VERSION, &v[1]) != CUSOLVER_STATUS_SUCCESS ||
        solver.cusolverGetProperty(PATCH_LEVEL, &v[2]) != CUSOLVER_STATUS_SUCCESS)
        return -1;
    snprintf(buf, len, "cuSOLVER %d.%d.%d", v[0], v[1], v[2]);
    return 0;
}

/* The context's handle and parameters, Xsyevd's algorithm selected in them
 * where asked for and selectable (else cuSOLVER's default, logged). */
static int solver_handle_make(queue_state *q)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    if (solver.cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS)
        return -1;
    if (solver.cusolverDnCreateParams(&p) != CUSOLVER_STATUS_SUCCESS) {
        solver.cusolverDnDestroy(h);
        return -1;
    }
    q->solver = h;
    q->solver_params = p;
    /* GPULAPACK_CUSOLVER_SYEVD_ALG (1, 2; 0: cuSOLVER's default) through
     * the cusolverDnFunction_t value that selects Xsyevd's algorithm
     * (GPULAPACK_CUSOLVER_SYEVD_FUNCTION; -1: not known -- the headers up
     * to 12.0.4 have none, docs/env.md) */
    int alg = gl_config_get()->cusolver_syevd_alg,
        function = gl_config_get()->cusolver_syevd_function;
    if (!alg)
        return 0;
    cusolverStatus_t s = CUSOLVER_STATUS_NOT_SUPPORTED;
    if (function >= 0 && solver.cusolverDnSetAdvOptions)
        s = solver.cusolverDnSetAdvOptions(
            p, (cusolverDnFunction_t)function,
            alg == 1 ? CUSOLVER_ALG_1 : CUSOLVER_ALG_2);
    if (s != CUSOLVER_STATUS_SUCCESS)
        gl_log(1, API ": Xsyevd ALG_%d not selectable (function %d, status "
                      "%d): cuSOLVER's default", alg, function, (int)s);
    return 0;
}

void solver_free(queue_state *q)
{
    if (q->solver_params)
        solver.cusolverDnDestroyParams(q->solver_params);
    solver.cusolverDnDestroy(q->solver);
    q->solver = q->solver_params = NULL;
}

static void solver_types(int precision, cudaDataType *ta, cudaDataType *tw)
{
    *tw = precision == 1 || precision == 3 ? CUDA_R_32F : CUDA_R_64F;
    *ta = precision == 3 ? CUDA_C_32F : precision == 4 ? CUDA_C_64F : *tw;
}

static int solver_on_stream(queue_state *q)
{
    return solver.cusolverDnSetStream(q->solver, q->stream) ==
                   CUSOLVER_STATUS_SUCCESS
               ? 0
               : -1;
}

static int solver_workspace(queue_state *q, const solver_call *c,
                            size_t *dbytes, size_t *hbytes)
{
    cudaDataType ta, tw;
    solver_types(c->precision, &ta, &tw);
    if (solver_on_stream(q) != 0)
        return -1;
    cusolverStatus_t s = solver.cusolverDnXsyevd_bufferSize(
        q->solver, q->solver_params,
        c->jobz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR,
        c->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
        c->n, ta, c->a, c->lda, tw, c->w, ta, dbytes, hbytes);
    if (s != CUSOLVER_STATUS_SUCCESS)
        gl_log(1, API ": Xsyevd_bufferSize failed (status %d)", (int)s);
    return s == CUSOLVER_STATUS_SUCCESS ? 0 : -1;
}

static int solver_run(queue_state *q, const solver_call *c, void *dwork,
                      size_t dbytes, void *hwork, size_t hbytes, int *info)
{
    cudaDataType ta, tw;
    solver_types(c->precision, &ta, &tw);
    if (solver_on_stream(q) != 0)
        return -1;
    cusolverStatus_t s = solver.cusolverDnXsyevd(
        q->solver, q->solver_params,
        c->jobz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR,
        c->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
        c->n, ta, c->a, c->lda, tw, c->w, ta, dwork, dbytes, hwork, hbytes,
        info);
    if (s != CUSOLVER_STATUS_SUCCESS)
        gl_log(1, API ": Xsyevd failed (status %d)", (int)s);
    return s == CUSOLVER_STATUS_SUCCESS ? 0 : -1;
}

#else /* HIP */
/* rocSOLVER, with a rocBLAS handle (rocSOLVER's handle type; rocSOLVER
 * depends on rocBLAS, so both are found through rocSOLVER's library).
 * Debian 12 packages neither, so their headers may be missing: the few
 * declarations used are rocSOLVER's documented C API, copied by hand --
 * rocblas_status rocsolver_dsyevd(rocblas_handle handle, const
 * rocblas_evect evect, const rocblas_fill uplo, const rocblas_int n,
 * double *A, const rocblas_int lda, double *D, double *E, rocblas_int
 * *info) and its s/c/z siblings (cheevd/zheevd: rocblas_float_complex /
 * rocblas_double_complex A, real D and E), rocblas_create_handle(
 * rocblas_handle *), rocblas_destroy_handle(rocblas_handle),
 * rocblas_set_stream(rocblas_handle, hipStream_t),
 * rocsolver_get_version_string(char *buf, size_t len); rocblas_status 0
 * is rocblas_status_success, rocblas_int is 32-bit (the LP64 build), and
 * the enums' values are rocblas-types.h's: rocblas_fill_upper 121,
 * rocblas_fill_lower 122, rocblas_evect_original 211, rocblas_evect_none
 * 213.  Every pointer argument is a pointer, so one prototype serves the
 * four precisions. */
typedef struct gl_rocblas_handle *roc_handle;
typedef int roc_status;
typedef int32_t roc_int;
enum {
    ROC_FILL_UPPER = 121, ROC_FILL_LOWER = 122,
    ROC_EVECT_ORIGINAL = 211, ROC_EVECT_NONE = 213
};
typedef roc_status roc_syevd_fn(roc_handle handle, int evect, int uplo,
                                roc_int n, void *a, roc_int lda, void *d,
                                void *e, roc_int *info);
static struct {
    roc_status (*create)(roc_handle *handle);
    roc_status (*destroy)(roc_handle handle);
    roc_status (*set_stream)(roc_handle handle, hipStream_t stream);
    roc_status (*version)(char *buf, size_t len);   /* optional */
    roc_syevd_fn *syevd[4];                         /* s d c z */
    int loaded;
} solver;

static void solver_load(void)
{
    static const char *const names[] = {"librocsolver.so.0",
                                        "librocsolver.so", NULL};
    static const char *const syevd[4] = {"rocsolver_ssyevd",
                                         "rocsolver_dsyevd",
                                         "rocsolver_cheevd",
                                         "rocsolver_zheevd"};
    void *lib = open_first(names);
    if (!lib ||
        !(*(void **)&solver.create = dlsym(lib, "rocblas_create_handle")) ||
        !(*(void **)&solver.destroy = dlsym(lib, "rocblas_destroy_handle")) ||
        !(*(void **)&solver.set_stream = dlsym(lib, "rocblas_set_stream")))
        return;
    for (int p = 0; p < 4; p++)
        if (!(*(void **)&solver.syevd[p] = dlsym(lib, syevd[p])))
            return;
    *(void **)&solver.version = dlsym(lib, "rocsolver_get_version_string");
    solver.loaded = 1;
    gl_log(2, API ": rocSOLVER loaded");
}

static int solver_version_of(char *buf, size_t len)
{
    char v[64] = "";
    if (solver.version && solver.version(v, sizeof v) != 0)
        v[0] = 0;
    snprintf(buf, len, "rocSOLVER %s", v[0] ? v : "(version unknown)");
    return 0;
}

static int solver_handle_make(queue_state *q)
{
    roc_handle h;
    if (solver.create(&h) != 0)
        return -1;
    q->solver = h;
    return 0;
}

void solver_free(queue_state *q)
{
    solver.destroy(q->solver);
    q->solver = NULL;
}

/* rocSOLVER's workspace is its handle's; the call needs E (n reals). */
static int solver_workspace(queue_state *q, const solver_call *c,
                            size_t *dbytes, size_t *hbytes)
{
    (void)q;
    if (c->n > 0x7fffffff || c->lda > 0x7fffffff)
        return -1;
    *dbytes = (size_t)c->n * (c->precision == 1 || c->precision == 3 ? 4 : 8);
    *hbytes = 0;
    return 0;
}

static int solver_run(queue_state *q, const solver_call *c, void *dwork,
                      size_t dbytes, void *hwork, size_t hbytes, int *info)
{
    (void)dbytes, (void)hwork, (void)hbytes;
    if (solver.set_stream((roc_handle)q->solver, q->stream) != 0)
        return -1;
    roc_status s = solver.syevd[c->precision - 1](
        (roc_handle)q->solver,
        c->jobz == 'V' ? ROC_EVECT_ORIGINAL : ROC_EVECT_NONE,
        c->uplo == 'L' ? ROC_FILL_LOWER : ROC_FILL_UPPER, (roc_int)c->n, c->a,
        (roc_int)c->lda, c->w, dwork, info);
    if (s != 0)
        gl_log(1, API ": rocSOLVER ?syevd failed (status %d)", (int)s);
    return s == 0 ? 0 : -1;
}
#endif

int solver_ready(gl_ctx *ctx)
{
    pthread_once(&solver_once, solver_load);
    if (!solver.loaded)
        return 0;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return 0;
    int ok = q->solver || solver_handle_make(q) == 0;
    leave(saved);
    return ok;
}

int solver_version(char *buf, size_t len)
{
    pthread_once(&solver_once, solver_load);
    return solver.loaded ? solver_version_of(buf, len) : -1;
}

/* Bytes before the device workspace: INFO's int, on its own line. */
enum { SOLVER_INFO_BYTES = 256 };

/* The sizes with the device current, the workspace from alloc, the call,
 * then read() of INFO: its one host synchronization. */
int eig_solve(gl_ctx *ctx, int precision, char jobz, char uplo,
              int64_t n, void *a, int64_t lda, void *w, int *info_host)
{
    solver_call c = {precision, jobz, uplo, n, lda, a, w};
    size_t dbytes = 0, hbytes = 0;
    *info_host = 0;
    if (precision < 1 || precision > 4 || n < 1 || lda < n ||
        !solver_ready(ctx)) {
        fail(ctx);
        return -1;
    }
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = q->failed ? -1 : checked(q, solver_workspace(q, &c, &dbytes, &hbytes) != 0);
    leave(saved);
    char *dwork = rc == 0 ? alloc(ctx, SOLVER_INFO_BYTES + dbytes) : NULL;
    void *hwork = hbytes ? malloc(hbytes) : NULL;
    if (!dwork || (hbytes && !hwork))
        rc = -1;
    if (rc == 0 && (q = enter(ctx, &saved)) != NULL) {
        rc = checked(q, gl_fault_hit(GL_FAULT_LAUNCH) ||
                            solver_run(q, &c, dwork + SOLVER_INFO_BYTES,
                                       dbytes, hwork, hbytes,
                                       (int *)(void *)dwork) != 0);
        leave(saved);
    } else {
        rc = -1;
    }
    if (rc == 0)
        rc = gpu_read(ctx, sizeof(int), 1, 1, dwork, 1, info_host, 1);
    release(ctx, dwork);
    free(hwork);   /* after the read's synchronization */
    if (rc != 0)
        fail(ctx);
    return rc;
}
