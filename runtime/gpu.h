/* One interface over the GPU runtimes (OpenCL, CUDA, HIP): what the device
 * operation table (kernels/backend/gpu/) needs from a runtime.  The table is
 * written once; each runtime fills a gl_gpu with its memory, copies and
 * kernel launches of the kernels of kernels/device/.
 *
 * Device memory is handed around as ordinary pointers so that the stage
 * drivers can do pointer arithmetic on it (kernels/ops.h): CUDA and HIP
 * device addresses as they are, OpenCL buffers behind reserved address
 * ranges (runtime/opencl/).  The host never dereferences them.
 *
 * Every operation runs on an execution context (runtime/context.h): the
 * device it names and the runtime's queue state of that context (its
 * queue or stream, kernel objects, staging buffers, vendor handles and
 * error state, made by open and kept in ctx->queue).  No thread-local
 * decides where an operation runs: any thread that holds a context may
 * use it, one thread at a time.
 *
 * Errors: every failed allocation, copy or launch sets the context's
 * error state (so does fail()); read() reports it before it writes any
 * host memory; reset(), at the start of each accelerated call, clears
 * it. */
#ifndef GL_GPU_H
#define GL_GPU_H

#include <stddef.h>
#include <stdint.h>

typedef struct gl_ctx gl_ctx;   /* runtime/context.h */

/* The kernels of kernels/device/, by name in gl_kernel_names. */
typedef enum gl_kernel {
    GL_K_COPY, GL_K_SCALE, GL_K_PACK_BAND, GL_K_ZERO_LOWER, GL_K_UNPACK_V,
    GL_K_GEMM, GL_K_GEQRT, GL_K_GELQT, GL_K_GB_CHASE, GL_K_SB_CHASE,
    GL_K_TRIDIAG_BISECT, GL_K_PANEL_TALL,
    GL_K_GB_CHASE_ALL, GL_K_SB_CHASE_ALL,
    GL_K_DC_FILL, GL_K_DC_ROTATE, GL_K_DC_GATHER, GL_K_DC_SECULAR_W,
    GL_K_DC_SECULAR_VECTORS, GL_K_DC_SUPPORT, GL_K_DC_PHASE_ROWS, GL_K_DC_SVD_FIRST_ROW,
    GL_K_DC_SVD_Z, GL_K_DC_SVD_VECTORS, GL_K_WY_BUILD, GL_K_DC_SECULAR_ROOTS,
    GL_K_SB_CHASE_WINDOW, GL_K_GB_CHASE_WINDOW,
    GL_K_COUNT
} gl_kernel;

extern const char *const gl_kernel_names[GL_K_COUNT];

/* A kernel argument: a value, or device memory (a pointer from alloc,
 * passed to the kernel as a pointer and an element offset of type
 * gl_long: two kernel parameters, kernels/device/blas.h). */
typedef struct gl_arg {
    size_t size;        /* value bytes; 0 for memory */
    const void *value;  /* the value, or the device pointer */
    size_t elem;        /* memory: element size for the offset */
} gl_arg;
#define GL_VALUE(v) ((gl_arg){sizeof(v), &(v), 0})
#define GL_MEM(p, e) ((gl_arg){0, (p), (e)})

/* A launch of the copy kernel (GL_K_COPY) for dst = src, rows x cols
 * elements of elem bytes with leading dimensions: the runtimes' copies a
 * DMA cannot make (a strided matrix, OpenCL's copies within one buffer).
 * The kernel moves bits, so the precision is only the element's size:
 * 4 s, 8 d (c on a device without fp64), 16 z.  Filled in place (args
 * point into it); 0, or -1 for an element size or a dimension the kernel
 * does not take. */
typedef struct gl_copy_launch {
    int precision, rows, cols, ld_src, ld_dst, conj_trans;
    gl_arg args[7];
    size_t groups[2], local[2];
} gl_copy_launch;

static inline int gl_copy_launch_make(gl_copy_launch *l, int fp64,
                                      size_t elem, size_t rows, size_t cols,
                                      const void *src, size_t ld_src,
                                      void *dst, size_t ld_dst)
{
    l->precision = elem == 4    ? 1
                   : elem == 8  ? (fp64 ? 2 : 3)
                   : elem == 16 ? 4
                                : 0;
    if (!l->precision || rows > 0x7fffffff || cols > 0x7fffffff ||
        ld_src > 0x7fffffff || ld_dst > 0x7fffffff)
        return -1;
    l->rows = (int)rows, l->cols = (int)cols;
    l->ld_src = (int)ld_src, l->ld_dst = (int)ld_dst, l->conj_trans = 0;
    l->args[0] = GL_VALUE(l->rows);
    l->args[1] = GL_VALUE(l->cols);
    l->args[2] = GL_MEM(src, elem);
    l->args[3] = GL_VALUE(l->ld_src);
    l->args[4] = GL_MEM(dst, elem);
    l->args[5] = GL_VALUE(l->ld_dst);
    l->args[6] = GL_VALUE(l->conj_trans);
    l->local[0] = l->local[1] = 16;
    l->groups[0] = (rows + 15) / 16;
    l->groups[1] = (cols + 15) / 16;
    return 0;
}

/* The queues of a context (gpu.h lane_record) and its event slots. */
enum { GL_LANE_COMPUTE, GL_LANE_UP, GL_LANE_DOWN, GL_LANES };
enum { GL_LANE_EVENTS = 32, GL_HOST_RANGES = 4 };

/* What discovery found about one device of a runtime. */
typedef struct gl_gpu_device_info {
    char id[24];                      /* "opencl:p.d", "cuda:i", "hip:i" */
    int platform, device;             /* indices as in GPULAPACK_DEVICE */
    char name[96], platform_name[64], version[48];
    int gpu;                          /* a GPU (else an OpenCL CPU device) */
    int fp64;                         /* double precision supported */
    unsigned long long memory;        /* global memory, bytes */
    unsigned long long max_alloc;     /* largest single allocation,
                                         bytes (OpenCL's
                                         CL_DEVICE_MAX_MEM_ALLOC_SIZE);
                                         0: no limit but memory */
    unsigned long long local_memory;  /* local (shared) memory per
                                         work-group, bytes; 0: the 48 KB
                                         CUDA and HIP give any kernel */
    unsigned compute_units, clock_mhz;
} gl_gpu_device_info;

typedef struct gl_gpu {
    const char *name;   /* its backend's name (backend.h): the log's path */

    /* Discovery on first call (thread-safe; 0 devices when the runtime
     * library or a device is missing), the device for a request
     * (platform/device as parsed from GPULAPACK_DEVICE, -1: the best;
     * gpu_only for the automatic choice; -1 if none), and prepare, which
     * opens device i for contexts (its OpenCL context, CUDA's primary
     * context; once per device, thread-safe; 0 or -1).  The runtimes'
     * alloc and release keep the context's ledger (context.h). */
    int (*device_count)(void);
    const gl_gpu_device_info *(*device)(int i);
    int (*choose)(int platform, int device, int gpu_only);
    int (*prepare)(int i);
    /* Free memory of device i (prepared), as its driver reports it now;
     * 0 when it cannot say (OpenCL has no such query). */
    unsigned long long (*memory_free)(int i);

    /* The runtime's state of context ctx on device ctx->device (prepared),
     * into ctx->queue: 0, or -1 with ctx->queue NULL.  close waits for
     * the context's work and frees the state. */
    int (*open)(gl_ctx *ctx);
    void (*close)(gl_ctx *ctx);

    void *(*alloc)(gl_ctx *ctx, size_t bytes);   /* NULL on failure */
    void (*release)(gl_ctx *ctx, void *ptr);   /* after the work that uses it */

    /* Column-major copies with leading dimensions (elements of elem
     * bytes): host -> device, device -> device, device -> host.  read
     * waits for everything the context enqueued and fails, without writing
     * dst, if any of it failed. */
    int (*write)(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
                 size_t ld_src, void *dst, size_t ld_dst);
    int (*copy)(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
                size_t ld_src, void *dst, size_t ld_dst);
    int (*read)(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
                size_t ld_src, void *dst, size_t ld_dst);
    /* As read, but a copy that fails part way may leave dst written in
     * part, which saves a host bounce array: for the pipeline's own
     * arrays, never the caller's.  A runtime without a cheaper way gives
     * its read here. */
    int (*read_direct)(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                       const void *src, size_t ld_src, void *dst,
                       size_t ld_dst);
    /* Reads beside later work: mark records the point the context's queue
     * has reached; read_marked is read (whole 1) or read_direct (whole
     * 0) ordered after only the work enqueued before the last mark of
     * the call, on a second queue, so that the work enqueued since runs
     * during the transfer (the stage-2 back-transformation of one side
     * of an SVD while the other side's vectors are read).  It fails, as
     * read does, if the context's error state is set or the work before
     * the mark failed; a failure of the work since is reported by the
     * next read at the latest.  A read it cannot order that way (no
     * mark, a strided src) waits for everything, as read.  NULL where
     * the runtime has no second queue. */
    int (*mark)(gl_ctx *ctx);
    int (*read_marked)(gl_ctx *ctx, int whole, size_t elem, size_t rows, size_t cols,
                       const void *src, size_t ld_src, void *dst,
                       size_t ld_dst);
    /* Waits for everything the context enqueued, on its queue and its
     * lanes; -1 if any of it failed. */
    int (*finish)(gl_ctx *ctx);

    /* Copies beside the context's work (the streamed plans' tiles): two
     * lanes, each a queue of its own, GL_LANE_UP for host -> device and
     * GL_LANE_DOWN for device -> host, beside GL_LANE_COMPUTE, the
     * context's queue, so that a tile's upload, the work on the tile
     * before and the download of the one before that overlap (seed paper
     * 004's tile rows; MAGMA's out-of-core factorizations).  The three
     * queues are ordered only by events: lane_record(q, e) notes in slot
     * e (< GL_LANE_EVENTS) the work enqueued on queue q so far;
     * lane_wait(q, e) makes q's later work wait for slot e's last record
     * in the call (none: no wait).  lane_write: src (host) into dst on
     * the upload lane; lane_read: src into dst (host) on the download
     * lane.  Their host memory must stay untouched until finish, which
     * waits for the lanes too; a failed copy sets the error state and a
     * lane_read's dst may then be written in part.  The copies reach host
     * memory by DMA where it is registered (host_register: page-locked
     * for the device's copies, at most GL_HOST_RANGES ranges at once per
     * context, 0 or -1; host_unregister), else in order
     * on the context's queue through its staging (CUDA, HIP); OpenCL's
     * lanes take any host memory.  NULL where the runtime has no lanes
     * (host_register: none of its own). */
    int (*lane_write)(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                      const void *src, size_t ld_src, void *dst,
                      size_t ld_dst);
    int (*lane_read)(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                     const void *src, size_t ld_src, void *dst,
                     size_t ld_dst);
    int (*lane_record)(gl_ctx *ctx, int queue, int event);
    int (*lane_wait)(gl_ctx *ctx, int queue, int event);
    int (*host_register)(gl_ctx *ctx, void *ptr, size_t bytes);
    void (*host_unregister)(gl_ctx *ctx, void *ptr);

    /* Enqueues kernel k of precision (1 s, 2 d, 3 c, 4 z) on the
     * context's queue/stream: groups[d] work-groups (thread blocks) of
     * local[d] work-items in dims 1 or 2. */
    int (*launch)(gl_ctx *ctx, int precision, gl_kernel k, int dims, const size_t *groups,
                  const size_t *local, int nargs, const gl_arg *args);

    /* C = alpha op(A) op(B) + beta C by the vendor's BLAS (CLBlast,
     * cuBLAS): trans 0 N, 1 T, 2 C; alpha and beta point to scalars of
     * the precision.  0, 1 when it is not there (the caller uses the
     * portable kernel), -1 on failure. */
    int (*blas_gemm)(gl_ctx *ctx, int precision, int transa, int transb, size_t m,
                     size_t n, size_t k, const void *alpha, const void *a,
                     size_t lda, const void *b, size_t ldb, const void *beta,
                     void *c, size_t ldc);
    /* count products C_p = alpha op(A_p) op(B_p) + beta C_p with
     * X_p = X + p stride_x (elements; the C_p do not overlap) by the
     * vendor's strided-batched GEMM, codes as blas_gemm; NULL where the
     * runtime has none. */
    int (*blas_gemm_batched)(gl_ctx *ctx, int precision, int transa, int transb, size_t m,
                             size_t n, size_t k, const void *alpha,
                             const void *a, size_t lda, size_t stride_a,
                             const void *b, size_t ldb, size_t stride_b,
                             const void *beta, void *c, size_t ldc,
                             size_t stride_c, size_t count);
    /* The vendor's Hermitian (symmetric for real) products, codes as
     * blas_gemm; NULL where the runtime has none.  hemm: C = alpha A B +
     * beta C (side_right 0) or alpha B A + beta C (1), C m x n, A
     * Hermitian in its lower (lower 1) or upper triangle.  her2k: C =
     * alpha A B^H + conj(alpha) B A^H + beta C (trans 0, A and B n x k) or
     * alpha A^H B + conj(alpha) B^H A + beta C (trans 1), in C's lower or
     * upper triangle; beta points to a real. */
    int (*blas_hemm)(gl_ctx *ctx, int precision, int side_right, int lower, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda,
                     const void *b, size_t ldb, const void *beta, void *c,
                     size_t ldc);
    int (*blas_her2k)(gl_ctx *ctx, int precision, int lower, int trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda,
                      const void *b, size_t ldb, const void *beta, void *c,
                      size_t ldc);

    /* Launches between batch_begin and batch_end (and nothing else of
     * the runtime) may be recorded and replayed as one (a CUDA graph):
     * the thousands of small wavefront launches of the bulge chasing.
     * batch_begin gets the precision of the kernels to come (loaded
     * before the recording starts); batch_end returns -1 if the context's
     * error state is set.  NULL where the runtime has none. */
    void (*batch_begin)(gl_ctx *ctx, int precision);
    int (*batch_end)(gl_ctx *ctx);

    /* Work-groups of one launch that keep the context's device busy and
     * may wait for each other once running (its multiprocessors); NULL
     * where the API does not promise that a running work-group keeps
     * running (OpenCL 1.2). */
    int (*resident_groups)(gl_ctx *ctx);

    /* The vendor's dense eigensolver (cuSOLVER's Xsyevd on CUDA,
     * rocSOLVER's ?syevd/?heevd on HIP), its library opened with dlopen
     * at most once per process, on first use, and never closed; NULL
     * where the runtime has none (OpenCL).  solver_ready: 1 when it is
     * there for ctx (the library and its entry points found, the
     * context's solver handle made on the context's stream), else 0.
     * eig_solve: the eigenvalues (jobz 'N') or eigenpairs ('V') of the
     * n x n Hermitian (symmetric) matrix a of precision (1 s, 2 d, 3 c,
     * 4 z) in its uplo ('U', 'L') triangle, device memory with leading
     * dimension lda: the n real values ascending into w (device), the
     * vectors over a ('V'; a is destroyed either way).  On the context's
     * stream, with device workspace from alloc (stream-ordered as
     * alloc's), and one host synchronization: the read of the solver's
     * INFO into *info_host (LAPACK's meaning: < 0 an illegal argument,
     * > 0 not converged).  0, or -1 (the context's error state set)
     * when the solver is missing or the call or anything before it
     * failed.  solver_version: "cuSOLVER 12.0.4", "rocSOLVER 3.25.0"
     * into buf (opens the library; no device needed): 0, or -1 when the
     * library is missing. */
    int (*solver_ready)(gl_ctx *ctx);
    int (*eig_solve)(gl_ctx *ctx, int precision, char jobz, char uplo,
                     int64_t n, void *a, int64_t lda, void *w,
                     int *info_host);
    int (*solver_version)(char *buf, size_t len);

    void (*fail)(gl_ctx *ctx);
    void (*reset)(gl_ctx *ctx);
} gl_gpu;

#endif
