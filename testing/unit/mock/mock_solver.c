/* Stand-in vendor eigensolvers over the stand-in drivers (mock_cuda.c,
 * mock_hip.c: device memory is host memory): cuSOLVER's Xsyevd
 * (libcusolver.so.12 in build/testing/mock-cuda/) or, built with
 * -DMOCK_ROCSOLVER, rocSOLVER's ?syevd/?heevd with rocBLAS's handle
 * (librocsolver.so.0 in build/testing/mock-hip/), computing by the system
 * LAPACK's ?syevd/?heevd in place.  They check what the library hands
 * them (a handle on a stream, the data types, a workspace at least as
 * large as asked for, which they overwrite), count calls and handles,
 * and fail on request: mock_solver_fail(mode) through dlsym, or
 * GL_MOCK_SOLVER_FAIL=mode for a whole program (read at the first
 * call):
 *   1  the solver call returns an error status
 *   2  INFO = -4 (an illegal argument)
 *   3  INFO = 1 (not converged)
 *   4  the handle cannot be made
 * The cuSOLVER stand-in reports version 12.9.1 and takes
 * cusolverDnSetAdvOptions(function 7, ALG_0..2) (the value the tests give
 * GPULAPACK_CUSOLVER_SYEVD_FUNCTION), recording the algorithm of the last
 * Xsyevd in mock_solver_last_alg.  Built with -DMOCK_DECOY: a library of
 * the solver's soname without its entry points (the library must then
 * report no vendor solver). */
#ifdef MOCK_DECOY
/* the decoy: the soname, none of the entry points */
__attribute__((visibility("default"))) int mock_solver_decoy = 1;
#else
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static int fail_mode = -1;   /* -1: GL_MOCK_SOLVER_FAIL not read yet */
static int calls, live_handles, last_alg = -1, streams_set;

EXPORT void mock_solver_fail(int mode) { __atomic_store_n(&fail_mode, mode, __ATOMIC_SEQ_CST); }
EXPORT int mock_solver_calls(void) { return __atomic_load_n(&calls, __ATOMIC_SEQ_CST); }
EXPORT int mock_solver_live_handles(void) { return __atomic_load_n(&live_handles, __ATOMIC_SEQ_CST); }
EXPORT int mock_solver_last_alg(void) { return __atomic_load_n(&last_alg, __ATOMIC_SEQ_CST); }
EXPORT int mock_solver_streams_set(void) { return __atomic_load_n(&streams_set, __ATOMIC_SEQ_CST); }

static int mode(void)
{
    int m = __atomic_load_n(&fail_mode, __ATOMIC_SEQ_CST);
    if (m < 0) {
        const char *e = getenv("GL_MOCK_SOLVER_FAIL");
        m = e ? atoi(e) : 0;
        __atomic_store_n(&fail_mode, m, __ATOMIC_SEQ_CST);
    }
    return m;
}

static void count(int *c, int by) { __atomic_add_fetch(c, by, __ATOMIC_SEQ_CST); }

/* Waits for the work on the solver's stream: over the stand-in drivers
 * that compute (testing/standin/) A is written by earlier work of the
 * stream, which runs on a thread of its own; the solver then computes in
 * place before returning, ahead of anything enqueued after it.  (Over
 * mock_cuda.c and mock_hip.c every operation is done when called.) */
static void stream_drain(void *stream)
{
#ifdef MOCK_ROCSOLVER
    static const char *const driver = "libamdhip64.so.5", *const sync = "hipStreamSynchronize";
#else
    static const char *const driver = "libcuda.so.1", *const sync = "cuStreamSynchronize";
#endif
    void *lib = dlopen(driver, RTLD_NOW | RTLD_NOLOAD);
    int (*fn)(void *) = NULL;
    if (lib)
        *(void **)&fn = dlsym(lib, sync);
    if (fn)
        fn(stream);
}

/* max |a_ij| over the uplo triangle of the last call's matrix, as the
 * solver saw it (the library scales A into LAPACK's safe range first) */
static double last_anrm = -1;
EXPORT double mock_solver_last_anrm(void) { return last_anrm; }

static void note_norm(int p, char uplo, int n, const void *a, int lda)
{
    double m = 0;
    for (int j = 0; j < n; j++)
        for (int i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? n : j + 1); i++) {
            size_t k = (size_t)i + (size_t)j * (size_t)lda;
            double x = p == 1 ? fabs((double)((const float *)a)[k])
                     : p == 2 ? fabs(((const double *)a)[k])
                     : p == 3 ? hypot(((const float *)a)[2 * k], ((const float *)a)[2 * k + 1])
                              : hypot(((const double *)a)[2 * k], ((const double *)a)[2 * k + 1]);
            m = x > m ? x : m;
        }
    last_anrm = m;
}

#include "system_eig.h"

/* system_eig, noting the norm of the matrix the solver was given */
static int lapack_eig(int p, char jobz, char uplo, int n, void *a, int lda,
                      void *w)
{
    note_norm(p, uplo, n, a, lda);
    return system_eig(p, jobz, uplo, n, a, lda, w);
}

/* The failure modes of a solver call: 1 an error status (returned as
 * -1), else the INFO to report instead of computing (0: compute). */
static int injected(int *info)
{
    int m = mode();
    *info = m == 2 ? -4 : m == 3 ? 1 : 0;
    return m == 1 ? -1 : 0;
}

#ifndef MOCK_ROCSOLVER
#include <cusolverDn.h>

typedef struct mock_handle { cudaStream_t stream; int has_stream; } mock_handle;
typedef struct mock_params { int alg; } mock_params;
/* what the last bufferSize asked for */
static size_t asked_device, asked_host;

EXPORT cusolverStatus_t cusolverGetProperty(libraryPropertyType type, int *value)
{
    *value = type == MAJOR_VERSION ? 12 : type == MINOR_VERSION ? 9 : 1;
    return CUSOLVER_STATUS_SUCCESS;
}

EXPORT cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle)
{
    if (mode() == 4)
        return CUSOLVER_STATUS_NOT_INITIALIZED;
    *handle = (cusolverDnHandle_t)calloc(1, sizeof(mock_handle));
    count(&live_handles, 1);
    return CUSOLVER_STATUS_SUCCESS;
}

EXPORT cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle)
{
    free(handle);
    count(&live_handles, -1);
    return CUSOLVER_STATUS_SUCCESS;
}

EXPORT cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t s)
{
    mock_handle *h = (mock_handle *)handle;
    h->stream = s;
    h->has_stream = s != NULL;
    count(&streams_set, 1);
    return CUSOLVER_STATUS_SUCCESS;
}

EXPORT cusolverStatus_t cusolverDnCreateParams(cusolverDnParams_t *params)
{
    *params = (cusolverDnParams_t)calloc(1, sizeof(mock_params));
    return CUSOLVER_STATUS_SUCCESS;
}

EXPORT cusolverStatus_t cusolverDnDestroyParams(cusolverDnParams_t params)
{
    free(params);
    return CUSOLVER_STATUS_SUCCESS;
}

EXPORT cusolverStatus_t cusolverDnSetAdvOptions(cusolverDnParams_t params,
                                                cusolverDnFunction_t function,
                                                cusolverAlgMode_t algo)
{
    if ((int)function != 7 || (int)algo < 0 || (int)algo > 2)
        return CUSOLVER_STATUS_INVALID_VALUE;
    ((mock_params *)params)->alg = (int)algo;
    return CUSOLVER_STATUS_SUCCESS;
}

/* precision 1-4 of the types, 0 if they do not go together */
static int precision_of(cudaDataType ta, cudaDataType tw, cudaDataType tc)
{
    if (ta != tc)
        return 0;
    return ta == CUDA_R_32F && tw == CUDA_R_32F   ? 1
           : ta == CUDA_R_64F && tw == CUDA_R_64F ? 2
           : ta == CUDA_C_32F && tw == CUDA_R_32F ? 3
           : ta == CUDA_C_64F && tw == CUDA_R_64F ? 4
                                                  : 0;
}

static int fill_ok(cublasFillMode_t uplo)
{
    return uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER;
}

EXPORT cusolverStatus_t cusolverDnXsyevd_bufferSize(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
    cublasFillMode_t uplo, int64_t n, cudaDataType ta, const void *a,
    int64_t lda, cudaDataType tw, const void *w, cudaDataType tc,
    size_t *device_bytes, size_t *host_bytes)
{
    (void)params, (void)jobz, (void)a, (void)w;
    if (!handle || !precision_of(ta, tw, tc) || !fill_ok(uplo) || n < 0 ||
        lda < (n > 1 ? n : 1))
        return CUSOLVER_STATUS_INVALID_VALUE;
    /* sizes a real one might ask for: the library must allocate them */
    asked_device = *device_bytes = (size_t)(n * n + 100) * 8;
    asked_host = *host_bytes = 64;
    return CUSOLVER_STATUS_SUCCESS;
}

EXPORT cusolverStatus_t cusolverDnXsyevd(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
    cublasFillMode_t uplo, int64_t n, cudaDataType ta, void *a, int64_t lda,
    cudaDataType tw, void *w, cudaDataType tc, void *dwork, size_t dbytes,
    void *hwork, size_t hbytes, int *info)
{
    mock_handle *h = (mock_handle *)handle;
    int p = precision_of(ta, tw, tc);
    if (!h || !h->has_stream || !params || !p || !fill_ok(uplo) || n < 0 ||
        lda < (n > 1 ? n : 1) || dbytes < asked_device || hbytes < asked_host ||
        !dwork || !hwork || !info)
        return CUSOLVER_STATUS_INVALID_VALUE;
    count(&calls, 1);
    stream_drain(h->stream);
    __atomic_store_n(&last_alg, ((mock_params *)params)->alg, __ATOMIC_SEQ_CST);
    memset(dwork, 0xA5, dbytes);   /* the workspace is the solver's */
    memset(hwork, 0x5A, hbytes);
    if (injected(info) != 0)
        return CUSOLVER_STATUS_EXECUTION_FAILED;
    if (*info == 0)
        *info = lapack_eig(p, jobz == CUSOLVER_EIG_MODE_VECTOR ? 'V' : 'N',
                           uplo == CUBLAS_FILL_MODE_LOWER ? 'L' : 'U', (int)n,
                           a, (int)lda, w);
    return CUSOLVER_STATUS_SUCCESS;
}

#else /* rocSOLVER: the prototypes of runtime/cudalike/solver.c's copy */
typedef struct mock_handle { void *stream; int has_stream; } *rocblas_handle;

EXPORT int rocblas_create_handle(rocblas_handle *handle)
{
    if (mode() == 4)
        return 1;   /* rocblas_status_invalid_handle */
    *handle = calloc(1, sizeof **handle);
    count(&live_handles, 1);
    return 0;
}

EXPORT int rocblas_destroy_handle(rocblas_handle handle)
{
    free(handle);
    count(&live_handles, -1);
    return 0;
}

EXPORT int rocblas_set_stream(rocblas_handle handle, void *stream)
{
    handle->stream = stream;
    handle->has_stream = stream != NULL;
    count(&streams_set, 1);
    return 0;
}

EXPORT int rocsolver_get_version_string(char *buf, size_t len)
{
    strncpy(buf, "3.26.0.mock", len);
    buf[len - 1] = 0;
    return 0;
}

/* evect 211 original, 213 none; uplo 121 upper, 122 lower; E: n reals */
static int roc_eig(int p, rocblas_handle h, int evect, int uplo, int n,
                   void *a, int lda, void *d, void *e, int *info)
{
    if (!h || !h->has_stream || (evect != 211 && evect != 213) ||
        (uplo != 121 && uplo != 122) || n < 0 || lda < (n > 1 ? n : 1) ||
        !e || !info)
        return 3;   /* rocblas_status_invalid_pointer / value */
    count(&calls, 1);
    stream_drain(h->stream);
    memset(e, 0xA5, (size_t)n * (p == 1 || p == 3 ? 4 : 8));
    if (injected(info) != 0)
        return 6;   /* rocblas_status_internal_error */
    if (*info == 0)
        *info = lapack_eig(p, evect == 211 ? 'V' : 'N', uplo == 122 ? 'L' : 'U',
                           n, a, lda, d);
    return 0;
}

#define ROC_EIG(name, p)                                                     \
    EXPORT int name(rocblas_handle h, int evect, int uplo, int n, void *a,   \
                    int lda, void *d, void *e, int *info)                    \
    {                                                                        \
        return roc_eig(p, h, evect, uplo, n, a, lda, d, e, info);            \
    }
ROC_EIG(rocsolver_ssyevd, 1)
ROC_EIG(rocsolver_dsyevd, 2)
ROC_EIG(rocsolver_cheevd, 3)
ROC_EIG(rocsolver_zheevd, 4)
#endif
#endif /* MOCK_DECOY */
