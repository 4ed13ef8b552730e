/* The CUDA and the HIP runtime (the gl_gpu tables of gpu.h gl_cuda_gpu,
 * gl_hip_gpu): one source, compiled once with -DGL_API_CUDA and once with
 * -DGL_API_HIP.
 * The two APIs have the same shape (load a code object, look kernels up
 * by name, launch with an array of parameter pointers, streams, events,
 * graphs); the wrappers of driver_cuda.c and driver_hip.c are all that
 * differs.
 *
 * Nothing links against a vendor library: libcuda.so.1 (the driver API)
 * or libamdhip64.so is opened with dlopen on first use; the vendor headers
 * give the types only, and every function pointer has the type of the
 * header's declaration, so a wrong signature does not compile.  The
 * kernels of kernels/device/ are compiled at build time (nvcc: a fatbin
 * with sm_80, sm_90 SASS and compute_90 PTX; hipcc: code objects for
 * gfx90a and gfx940), one image per precision, embedded in the library.
 *
 * Contexts (runtime/context.h): each execution context gets its own
 * stream, pinned staging buffers, scratch and cuBLAS handle (its queue
 * state, made by open and freed by close), kept while the context lives in
 * the pool; any thread that holds the context may use them.  The
 * library's CUDA context (CUDA's primary context of the context's device,
 * which the CUDA runtime API also uses) or HIP device is made current
 * around each operation and the caller's restored, so a program that uses
 * CUDA/HIP itself on the same thread is not disturbed.
 *
 * The files, by concern: driver_cuda.c, driver_hip.c (the drv_* wrappers
 * below, one file per API); core.c (the driver loaded, the devices found
 * and opened, the kernel modules, the gl_gpu table); queue.c (a context's
 * queue state, its memory, launches, batches of launches as graphs);
 * copies.c (transfers through the staging halves, reads beside later
 * work); lanes.c (the copy lanes); blas.c (cuBLAS); solver.c (the
 * vendor's eigensolver).  The Makefile links each API's objects into one
 * object (runtime/cuda.o, runtime/hip.o) whose only global symbol is its
 * gl_gpu table: the names declared here stay private to their API's
 * object, as static ones would, and the two APIs' copies never meet. */
#ifndef GL_CUDALIKE_H
#define GL_CUDALIKE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "../context.h"
#include "../gpu.h"

#define STRING(x) STRING_(x)
#define STRING_(x) #x

/* ==== the two APIs ======================================================= */
#if defined(GL_API_CUDA)
#include "driver_cuda.h"
#elif defined(GL_API_HIP)
#include "driver_hip.h"
#else
#error "compile with -DGL_API_CUDA or -DGL_API_HIP"
#endif

/* The driver's entry points (driver_*.h), loaded once by core.c: the
 * required ones, and the optional groups with a flag each. */
typedef struct drv_table {
#define DRV_DECLARE(f) __typeof__(f) *f;
    DRV_FUNCS(DRV_DECLARE)
    DRV_GRAPH_FUNCS(DRV_DECLARE)
    DRV_ASYNC_FUNCS(DRV_DECLARE)
    DRV_INFO_FUNCS(DRV_DECLARE)
    DRV_LANE_FUNCS(DRV_DECLARE)
#undef DRV_DECLARE
    int graphs;        /* DRV_GRAPH_FUNCS are all there */
    int async_memory;  /* DRV_ASYNC_FUNCS are */
    int memory_info;   /* DRV_INFO_FUNCS are */
    int lanes;         /* DRV_LANE_FUNCS are */
} drv_table;
extern drv_table drv;

/* A device found by discovery (core.c). */
typedef struct device_state {
    gl_gpu_device_info info;
    drv_device handle;
#if defined(GL_API_CUDA)
    CUcontext context;            /* the primary context, retained */
#endif
    pthread_mutex_t lock;         /* opening, module loading */
    int opened;                   /* prepare succeeded */
    int module_state[4];          /* per precision: 0 not tried, 1, -1 */
    drv_function kernels[4][GL_K_COUNT];
} device_state;

/* The runtime's state of one context (ctx->queue, gpu.h open). */
typedef struct queue_state {
    device_state *dev;       /* the context's device: the objects below
                                belong to it */
    drv_stream stream;
    /* reads beside later work (gpu.h mark): the point marked on stream,
     * and the second stream they run on; made on first use */
    drv_stream side;
    drv_event mark;
    int marked;
    /* the copy lanes (gpu.h lane_write): their streams and the event
     * slots, made on first use; the slots recorded in this call; the host
     * ranges registered for them */
    drv_stream lane[GL_LANES - 1];
    drv_event event[GL_LANE_EVENTS];
    uint32_t recorded;   /* a bit per slot */
    struct {
        char *base;
        size_t bytes;
    } registered[GL_HOST_RANGES];
    char *stage[2];          /* pinned, stage_bytes each (copies.c) */
    drv_event staged[2];     /* the DMA that last used stage[h] */
    size_t stage_bytes;
    void *scratch;           /* device memory for strided copies */
    size_t scratch_bytes;
    void *blas;              /* the context's cuBLAS handle, NULL if none */
    void *solver;            /* the context's cuSOLVER handle (rocBLAS's
                                for rocSOLVER), NULL if none */
    void *solver_params;     /* cuSOLVER's 64-bit API parameters */
    int capturing, captured; /* a graph is being recorded; its launches */
    int failed;              /* the error state of gpu.h */
} queue_state;

_Static_assert(GL_LANE_EVENTS <= 32, "queue_state.recorded: a bit per slot");

/* ---- the wrappers (driver_cuda.c, driver_hip.c): everything else is
 * API-neutral ---------------------------------------------------------- */
drv_result drv_init(void);
drv_result drv_count(int *n);
/* what device i (dev->handle got) is, into dev->info */
void drv_describe(int i, device_state *dev);
drv_result drv_get(int i, drv_device *d);
/* opens dev for contexts (CUDA: retains its primary context) */
drv_result drv_open(device_state *dev);
/* makes dev current, what it replaced into *saved; drv_leave restores it */
drv_result drv_enter(device_state *dev, drv_saved *saved);
void drv_leave(drv_saved saved);
drv_result drv_load_module(const void *image, drv_module *m);
drv_result drv_get_function(drv_module m, const char *name, drv_function *f);
drv_result drv_launch(drv_function f, const unsigned *grid,
                      const unsigned *block, drv_stream s, void **params);
drv_result drv_malloc(void **p, size_t bytes);
drv_result drv_free(void *p);
drv_result drv_memory_free(size_t *free_bytes);
drv_result drv_malloc_async(void **p, size_t bytes, drv_stream s);
drv_result drv_free_async(void *p, drv_stream s);
drv_result drv_host_alloc(void **p, size_t bytes);
drv_result drv_host_free(void *p);
drv_result drv_htod(void *dst, const void *src, size_t bytes, drv_stream s);
drv_result drv_dtoh(void *dst, const void *src, size_t bytes, drv_stream s);
drv_result drv_dtod(void *dst, const void *src, size_t bytes, drv_stream s);
/* height columns of width bytes between host and device memory (to the
 * device: to_device), pitches in bytes */
drv_result drv_copy_2d(int to_device, void *dst, size_t dpitch,
                       const void *src, size_t spitch, size_t width,
                       size_t height, drv_stream s);
drv_result drv_host_register(void *p, size_t bytes);
drv_result drv_host_unregister(void *p);
drv_result drv_stream_create(drv_stream *s);
drv_result drv_stream_sync(drv_stream s);
drv_result drv_stream_destroy(drv_stream s);
drv_result drv_stream_wait(drv_stream s, drv_event e);
drv_result drv_event_create(drv_event *e);
drv_result drv_event_record(drv_event e, drv_stream s);
drv_result drv_event_sync(drv_event e);
drv_result drv_event_destroy(drv_event e);
drv_result drv_capture_begin(drv_stream s);
drv_result drv_capture_end(drv_stream s, drv_graph *g);
drv_result drv_graph_instantiate(drv_graph_exec *e, drv_graph g);
drv_result drv_graph_launch(drv_graph_exec e, drv_stream s);
/* either may be NULL */
void drv_graph_free(drv_graph_exec e, drv_graph g);

/* ---- core.c -------------------------------------------------------------- */

/* The device of context ctx (prepared); NULL if it names none. */
device_state *device_of(const gl_ctx *ctx);
/* The kernels of precision p on dev: the module is loaded once; NULL if
 * it does not load. */
drv_function *kernels_of(device_state *dev, int precision);
/* The first of the sonames (NULL-terminated) that opens, or NULL: a
 * vendor library (cuBLAS, the solvers), opened once and never closed. */
void *open_first(const char *const *names);

/* ---- queue.c ------------------------------------------------------------- */

int open_queue(gl_ctx *ctx);
void close_queue(gl_ctx *ctx);
/* The state of context ctx, with its device made current (until leave());
 * NULL, with nothing to leave, on failure. */
queue_state *enter(gl_ctx *ctx, drv_saved *saved);
static inline void leave(drv_saved saved) { drv_leave(saved); }
/* rc as 0/-1, remembered in the context's error state when a failure */
static inline int checked(queue_state *q, int failed)
{
    if (failed)
        q->failed = 1;
    return failed ? -1 : 0;
}
void fail(gl_ctx *ctx);
void reset(gl_ctx *ctx);
void *alloc(gl_ctx *ctx, size_t bytes);
void release(gl_ctx *ctx, void *ptr);
/* kernel k on q's stream (the device current); 0 or -1 */
int launch_on(queue_state *q, int precision, gl_kernel k, int dims,
              const size_t *groups, const size_t *local, int nargs,
              const gl_arg *args);
int launch(gl_ctx *ctx, int precision, gl_kernel k, int dims,
           const size_t *groups, const size_t *local, int nargs,
           const gl_arg *args);
void batch_begin(gl_ctx *ctx, int precision);
int batch_end(gl_ctx *ctx);

/* ---- copies.c ------------------------------------------------------------ */

int gpu_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
              const void *src, size_t ld_src, void *dst, size_t ld_dst);
int gpu_copy(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
             const void *src, size_t ld_src, void *dst, size_t ld_dst);
int gpu_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
             const void *src, size_t ld_src, void *dst, size_t ld_dst);
int gpu_read_direct(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                    const void *src, size_t ld_src, void *dst,
                    size_t ld_dst);
int gpu_mark(gl_ctx *ctx);
int gpu_read_marked(gl_ctx *ctx, int whole, size_t elem, size_t rows,
                    size_t cols, const void *src, size_t ld_src, void *dst,
                    size_t ld_dst);
int gpu_finish(gl_ctx *ctx);
/* gpu.h read (whole 1) or read_direct (0) after everything enqueued */
int read_matrix(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                const void *src, size_t ld_src, void *dst, size_t ld_dst,
                int whole);
/* Waits for the context's stream and its lanes; a failure sets the error
 * state. */
void sync_queues(queue_state *q);

/* ---- lanes.c ------------------------------------------------------------- */

int gpu_lane_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                   const void *src, size_t ld_src, void *dst, size_t ld_dst);
int gpu_lane_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                  const void *src, size_t ld_src, void *dst, size_t ld_dst);
int gpu_lane_record(gl_ctx *ctx, int queue, int event);
int gpu_lane_wait(gl_ctx *ctx, int queue, int event);
int gpu_host_register(gl_ctx *ctx, void *ptr, size_t bytes);
void gpu_host_unregister(gl_ctx *ctx, void *ptr);

/* ---- blas.c -------------------------------------------------------------- */

/* frees a context's handle (queue_state.blas) */
void blas_free(void *handle);
int blas_gemm(gl_ctx *ctx, int precision, int transa, int transb, size_t m,
              size_t n, size_t k, const void *alpha, const void *a,
              size_t lda, const void *b, size_t ldb, const void *beta,
              void *c, size_t ldc);
#if defined(GL_API_CUDA)
int blas_gemm_batched(gl_ctx *ctx, int precision, int transa, int transb,
                      size_t m, size_t n, size_t k, const void *alpha,
                      const void *a, size_t lda, size_t stride_a,
                      const void *b, size_t ldb, size_t stride_b,
                      const void *beta, void *c, size_t ldc,
                      size_t stride_c, size_t count);
int blas_hemm(gl_ctx *ctx, int precision, int side_right, int lower,
              size_t m, size_t n, const void *alpha, const void *a,
              size_t lda, const void *b, size_t ldb, const void *beta,
              void *c, size_t ldc);
int blas_her2k(gl_ctx *ctx, int precision, int lower, int trans, size_t n,
               size_t k, const void *alpha, const void *a, size_t lda,
               const void *b, size_t ldb, const void *beta, void *c,
               size_t ldc);
#endif

/* ---- solver.c ------------------------------------------------------------ */

/* frees a context's solver handle (queue_state.solver, solver_params) */
void solver_free(queue_state *q);
int solver_ready(gl_ctx *ctx);
int solver_version(char *buf, size_t len);
int eig_solve(gl_ctx *ctx, int precision, char jobz, char uplo, int64_t n,
              void *a, int64_t lda, void *w, int *info_host);

#endif
