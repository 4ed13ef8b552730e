/* The operation table: what a backend does for the stage drivers.
 *
 * The drivers (the stages, tiers and pipelines of kernels/README.md) are
 * written once against this table; a backend fills it for one precision.
 * The host backend (kernels/backend/host/) fills every entry with the system
 * LAPACK/BLAS and plain-C kernels; a GPU backend replaces entries with
 * device code and keeps the algorithm.  Matrix arguments are in the
 * backend's memory (host pointers for the host backend).  A call binds a
 * copy of its path's table to its execution context (ops_bind below):
 * the operations run on that context's device, queue, profile and
 * tuning, from whatever thread holds it.
 *
 * The table's type and functions are per precision (gl_d_ops, ...: the
 * precision of the translation unit, runtime/precision.h). */
#ifndef GL_OPS_H_PRECISION
#define GL_OPS_H_PRECISION GL_PRECISION

#include "../runtime/context.h"
#include "../runtime/fortran.h"
#include "../runtime/precision.h"

/* Bytes of a cache line: the host backend's memory starts on one, and
 * blocks that kernels load by vectors are laid out in whole lines. */
enum { GL_LINE_BYTES = 64 };

/* The queues of lane_record and lane_wait (the compute queue, the upload
 * lane, the download lane) and the event slots they share: the GPU
 * runtime's own (runtime/gpu.h GL_LANE_*, which the GPU table passes on
 * as they are and checks against these), named here so that a driver
 * needs nothing of the runtime's GPU interface. */
enum { GL_QUEUE_COMPUTE, GL_QUEUE_UP, GL_QUEUE_DOWN };
enum { GL_QUEUE_EVENTS = 32 };
/* The event slots of the drivers on the copy lanes: a tile pass's
 * (kernels/tiers/tile_pass.c, GL_TILE_BUFFERS tiles on the device at a
 * time), four per tile buffer, the two of the panel groups of
 * apply_block_panels, then the parked chase segments' of the streamed
 * back-transformations, two per store buffer (GL_PARKED_BUFFERS: the
 * next segment's store goes up while the device applies this one's). */
enum { GL_TILE_BUFFERS = 3 };
enum {
    GL_EVENTS_TILES = 0,
    GL_EVENTS_PANELS = 4 * GL_TILE_BUFFERS,
    GL_EVENTS_PARKED = GL_EVENTS_PANELS + 2,
    GL_PARKED_BUFFERS = 2
};

/* The reflectors of a chase to half-width 1, kept for the
 * back-transformation (backtransform.c), in the backend's memory.  Step j
 * of sweep s makes one reflector per side acting on the rows (left, Q) or
 * columns (right, P) lo = s+1+j*b .. min(lo+b, n)-1 of the band, in place
 * of the band as H^H A (left) and A H (right), H = I - tau v v^H; the
 * band B it started from is Q B_final P^H with Q (P) the product of the
 * left (right) reflectors in creation order (sweep by sweep).
 * Storage: by blocks of `group` consecutive sweeps s0 = g*group, ... at
 * one step j; reflector (s, j) is column col = first[g] + j*group + s - s0
 * of v (b rows, v[0] = 1, zeros past its length) with scalar tau[col];
 * columns without a reflector have tau = 0.  Every (s, j) has its own slot:
 * no reuse races between sweeps running at once. */
/* gl_s_reflectors gl_d_reflectors gl_c_reflectors gl_z_reflectors */
typedef struct GL_FN(reflectors) {
    lapack_int n, b, group, ngroups;
    lapack_int *first;        /* host memory, ngroups + 1 entries */
    gl_scalar *vq, *tauq;     /* left reflectors (the only ones of sb_chase) */
    gl_scalar *vp, *taup;     /* right reflectors of gb_chase, else NULL */
} GL_FN(reflectors);

/* A stage's step that may run beside an update (the lookahead hooks
 * below): on the table it is given, 0 or < 0 on failure. */
struct GL_FN(ops);
/* gl_s_ops_task gl_d_ops_task gl_c_ops_task gl_z_ops_task */
typedef int GL_FN(ops_task)(const struct GL_FN(ops) *ops, void *arg);

/* gl_s_ops gl_d_ops gl_c_ops gl_z_ops */
typedef struct GL_FN(ops) {
    const char *name;
    /* The execution context the table is bound to (NULL in the backends'
     * templates host_ops/gpu_ops): every operation runs on it, and each
     * takes the table itself first (like a `self`), from which it reads
     * the context. */
    gl_ctx *ctx;
    /* 1 if the backend's memory is host memory (the host backend): the
     * drivers may then read it in place instead of through to_host. */
    int host_memory;
    /* real_product in blocks of this many columns, as the call's plan
     * says (kernels/plan.h product_tile; 0: whole), set where the table
     * is bound for the call (lapack_api/accel_ops.h) */
    int product_tile;
    /* The threads the host backend cuts a large product over, in a
     * stage's run of products (products_begin below): 0 no run (each
     * product whole, on the BLAS's own threads), 1 whole on one thread. */
    int product_threads;
    /* The run's workers (runtime/parallel.h gl_team), NULL: none. */
    struct gl_team *product_team;

    /* Memory of the backend (alloc: NULL on failure; release: accepts
     * NULL) and copies to and from the host; copies take column-major
     * matrices with leading dimensions. */
    void *(*alloc)(const struct GL_FN(ops) *ops, size_t bytes);
    void (*release)(const struct GL_FN(ops) *ops, void *ptr);
    /* to_host returns 0, or < 0 when the device failed, in this copy or
     * in anything before it (dst is then untouched): a pipeline reads its
     * results only through it, so it never returns a result of a failed
     * device.  The other void operations of a device backend leave their
     * failures to be reported by the next to_host. */
    int (*to_host)(const struct GL_FN(ops) *ops, lapack_int rows,
                   lapack_int cols, const gl_scalar *src, lapack_int ld_src,
                   gl_scalar *dst, lapack_int ld_dst);
    /* As to_host, but a failed copy may leave dst written in part: for
     * the pipeline's own host arrays, which a failure discards anyway
     * (no bounce array on the host). */
    int (*to_host_scratch)(const struct GL_FN(ops) *ops, lapack_int rows,
                           lapack_int cols, const gl_scalar *src,
                           lapack_int ld_src, gl_scalar *dst,
                           lapack_int ld_dst);
    /* Reads beside later work: mark notes the point the backend's work
     * has reached; to_host_scratch_marked is to_host_scratch ordered
     * after only the work before the call's last mark, so that the work
     * issued since runs during the transfer (runtime/gpu.h
     * read_marked).  The host backend's is a plain copy. */
    void (*mark)(const struct GL_FN(ops) *ops);
    int (*to_host_scratch_marked)(const struct GL_FN(ops) *ops,
                                  lapack_int rows, lapack_int cols,
                                  const gl_scalar *src, lapack_int ld_src,
                                  gl_scalar *dst, lapack_int ld_dst);
    /* Tiles streamed through the device beside its work (the streamed
     * plans; runtime/gpu.h lane_write): tile_up copies src (host) into
     * dst on the upload lane, tile_down src into dst (host) on the
     * download lane; lane_record and lane_wait order the lanes and the
     * compute queue by event slots (GL_QUEUE_* above); lanes_finish waits
     * for all of it: 0, or < 0 when anything failed (a tile_down's dst
     * may then be written in part).  A tile's host memory stays
     * untouched until lanes_finish.  host_pin page-locks the host range
     * the tiles come from for the lanes' DMA (nothing where the runtime
     * cannot), host_unpin undoes it.  In order on the compute queue
     * where the runtime has no lanes or GPULAPACK_OOC_QUEUES=1; the host
     * backend's are plain copies. */
    void (*tile_up)(const struct GL_FN(ops) *ops, lapack_int rows,
                    lapack_int cols, const gl_scalar *src, lapack_int ld_src,
                    gl_scalar *dst, lapack_int ld_dst);
    void (*tile_down)(const struct GL_FN(ops) *ops, lapack_int rows,
                      lapack_int cols, const gl_scalar *src,
                      lapack_int ld_src, gl_scalar *dst, lapack_int ld_dst);
    void (*lane_record)(const struct GL_FN(ops) *ops, int queue, int event);
    void (*lane_wait)(const struct GL_FN(ops) *ops, int queue, int event);
    int (*lanes_finish)(const struct GL_FN(ops) *ops);
    void (*host_pin)(const struct GL_FN(ops) *ops, void *ptr, size_t bytes);
    void (*host_unpin)(const struct GL_FN(ops) *ops, void *ptr);
    /* count values of src (host) in new memory of the backend (release
     * it with release); NULL on failure. */
    lapack_int *(*ints_to_device)(const struct GL_FN(ops) *ops, size_t count,
                                  const lapack_int *src);
    /* dst = src, both in the backend's memory. */
    void (*copy)(const struct GL_FN(ops) *ops, lapack_int rows,
                 lapack_int cols, const gl_scalar *src, lapack_int ld_src,
                 gl_scalar *dst, lapack_int ld_dst);
    /* dst (cols x rows) = src^H (src rows x cols), both in the backend's
     * memory: a result transposed before its one read.  NULL on the host
     * backend.  Returns 0, or < 0 when the device failed. */
    int (*conj_transpose)(const struct GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, const gl_scalar *src, lapack_int lds,
                          gl_scalar *dst, lapack_int ldd);
    /* trans 'N': dst = src; 'C': dst (cols x rows) = src^H. */
    void (*from_host)(const struct GL_FN(ops) *ops, char trans,
                      lapack_int rows, lapack_int cols, const gl_scalar *src,
                      lapack_int ld_src, gl_scalar *dst, lapack_int ld_dst);
    /* A = A * (cto / cfrom) without over/underflow, as ?lascl 'G'. */
    int (*lascl)(const struct GL_FN(ops) *ops, gl_real cfrom, gl_real cto,
                 lapack_int m, lapack_int n, gl_scalar *a, lapack_int lda);
    /* The band of a dense matrix into the packed storage of the chase
     * (see gb_chase/sb_chase below), every other element of it zeroed:
     * kind 'G': the upper band A(r,c), 0 <= c-r <= b, of an n x n matrix;
     * kind 'H': the lower band, 0 <= r-c <= b, diagonal made real. */
    void (*pack_band)(const struct GL_FN(ops) *ops, char kind, lapack_int n,
                      lapack_int b, const gl_scalar *a, lapack_int lda,
                      gl_scalar *band, lapack_int ldband);
    /* Zeroes the strictly lower triangle of the m x n matrix A. */
    void (*zero_lower)(const struct GL_FN(ops) *ops, lapack_int m,
                       lapack_int n, gl_scalar *a, lapack_int lda);
    /* V (m x k) of a panel's reflectors as a dense matrix with its ones
     * and zeros: storev 'C', geqrt's unit lower trapezoid stored below
     * the diagonal of a; 'R', the adjoint of gelqt's k unit upper rows of
     * length m stored right of the diagonal of a (the same block
     * reflector: I - V^H T V for rows is I - W T W^H for W = V^H). */
    void (*unpack_v)(const struct GL_FN(ops) *ops, char storev, lapack_int m,
                     lapack_int k, const gl_scalar *a, lapack_int lda,
                     gl_scalar *v, lapack_int ldv);

    /* Panel factorizations with the block reflector they define:
     * geqrt: A (m >= n) = Q R, Q = I - V T V^H, V unit lower in A;
     * gelqt: A (m <= n) = L Q, Q = I - V^H T V, V unit upper (rows) in A.
     * T is n x n (m x m) upper triangular.  Return 0, or < 0 on failure. */
    int (*geqrt)(const struct GL_FN(ops) *ops, lapack_int m, lapack_int n,
                 gl_scalar *a, lapack_int lda, gl_scalar *t, lapack_int ldt);
    int (*gelqt)(const struct GL_FN(ops) *ops, lapack_int m, lapack_int n,
                 gl_scalar *a, lapack_int lda, gl_scalar *t, lapack_int ldt);
    /* Applies the block reflector of geqrt (storev 'C') or gelqt ('R') to
     * the m x n matrix C: side 'L'/'R', trans 'N'/'C' as LAPACK ?larfb. */
    int (*larfb)(const struct GL_FN(ops) *ops, char side, char trans,
                 char storev, lapack_int m, lapack_int n, lapack_int k,
                 const gl_scalar *v, lapack_int ldv, const gl_scalar *t,
                 lapack_int ldt, gl_scalar *c, lapack_int ldc);
    /* A sequence of block reflectors applied from the left, in order:
     * for i = 0 .. nblocks-1, with E_i = E(row0[i] : row0[i]+rows[i], :),
     *   E_i := E_i - Y_i (V_i^H E_i),
     * Y_i rows[i] x k[i] (ld ldy) at y + i*stride and V_i^H k[i] x rows[i]
     * (ld k[i]) at vh + i*stride: Y_i = V_i T_i or V_i T_i^H makes the
     * block I - V T V^H or its adjoint.  V must be explicit (its zeros
     * and unit diagonal stored); V_i(r, c) = 0 unless c <= r < c + band,
     * and when y_banded (Y_i = V_i T_i, T_i upper triangular) Y_i(r, c) = 0
     * for c <= r - band too.  A backend may skip these zeros. */
    int (*apply_wy)(const struct GL_FN(ops) *ops, lapack_int nblocks,
                    const lapack_int *row0, const lapack_int *rows,
                    const lapack_int *k, const gl_scalar *vh,
                    const gl_scalar *y, lapack_int ldy, size_t stride,
                    lapack_int band, int y_banded, lapack_int ncols,
                    gl_scalar *e, lapack_int lde);
    /* The blocks of apply_wy for the back-transformation of a chase
     * (kernels/stages/backtransform.c build_block), built in the backend's
     * memory from the reflectors' store where the chase left them:
     * block i (3 values in the backend's memory at blocks + 3i: store
     * column, rows, k <= kmax) into V^H at vh + i stride and Y (ld ldv)
     * at y + i stride, Y = V T (forward) or V T^H.  NULL where the host
     * builds them.  Returns 0, or < 0 when the device failed. */
    int (*wy_build)(const struct GL_FN(ops) *ops, lapack_int nblocks,
                    const lapack_int *blocks, lapack_int kmax,
                    const gl_scalar *vstore, const gl_scalar *taustore,
                    lapack_int b, lapack_int ldv, size_t stride, int forward,
                    gl_scalar *vh, gl_scalar *y);
    /* QR of a tall matrix: R in the upper triangle as LAPACK ?geqrf; the
     * reflectors below it are not kept (values-only callers). */
    int (*geqrf)(const struct GL_FN(ops) *ops, lapack_int m, lapack_int n,
                 gl_scalar *a, lapack_int lda);

    /* A run of many products (stage 1 of order n): products_begin sets,
     * in the copy of the table the stage runs on (ops_products_begin
     * below), the threads the host backend may cut its large products
     * over (product_threads, the system BLAS held at one meanwhile:
     * runtime/parallel.h gl_products_begin) and their team
     * (product_team); products_end ends the run.  NULL: nothing to do (a
     * GPU's products run on the device). */
    void (*products_begin)(struct GL_FN(ops) *run, lapack_int n);
    void (*products_end)(const struct GL_FN(ops) *ops);
    /* Lookahead: the update before a panel, then the panel's
     * factorization (task), with the task beside the rest of the update.
     * larfb_ahead applies the block reflector as larfb, its first k lines
     * first (C's first k rows from the left, columns from the right: the
     * next panel of a QR or LQ sweep); her2k_ahead is her2k ('L', 'N'),
     * its first `ahead` columns first.  Then task(task_ops, arg) runs on
     * one thread (task_ops: a table whose products stay whole) while the
     * others update the rest.  Returns the task's result, or 1 where the
     * backend leaves both to the caller (an update too small to share);
     * NULL: a backend that queues its work in order.  Then the stage runs
     * the update, then the task (ops_larfb_then below). */
    int (*larfb_ahead)(const struct GL_FN(ops) *ops, char side, char trans,
                       char storev, lapack_int m, lapack_int n, lapack_int k,
                       const gl_scalar *v, lapack_int ldv, const gl_scalar *t,
                       lapack_int ldt, gl_scalar *c, lapack_int ldc,
                       GL_FN(ops_task) *task, void *arg);
    int (*her2k_ahead)(const struct GL_FN(ops) *ops, char uplo, char trans,
                       lapack_int n, lapack_int k, gl_scalar alpha,
                       const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                       lapack_int ldb, gl_real beta, gl_scalar *c,
                       lapack_int ldc, lapack_int ahead, GL_FN(ops_task) *task,
                       void *arg);
    /* her2k_ahead's update with alpha -1 and beta 1 (C -= A B^H + B A^H
     * on C's lower triangle, C n x n), then, once the task has run, the
     * product X = C2 S of the updated C2 = C(ahead:n, ahead:n), S and X
     * (n - ahead) x ks: sy2sb's update and the next panel's product in
     * one pass over the trailing matrix.  The task writes S; it may not
     * write what the update reads.  X may overlap B: B is read before X
     * is written.  Returns the task's result, or 1 where the backend
     * leaves all of it to the caller; NULL: her2k_then, then hemm
     * (ops_her2k_hemm_then below). */
    int (*her2k_hemm_ahead)(const struct GL_FN(ops) *ops, lapack_int n,
                            lapack_int k, const gl_scalar *a, lapack_int lda,
                            const gl_scalar *b, lapack_int ldb, gl_scalar *c,
                            lapack_int ldc, lapack_int ahead,
                            GL_FN(ops_task) *task, void *arg, lapack_int ks,
                            const gl_scalar *s, lapack_int lds, gl_scalar *x,
                            lapack_int ldx);
    /* ge2gb's update of the rest of the matrix and the next panel's
     * product in one pass: C (m x n) -= U W^H (U m x k, W n x k), its
     * first `ahead` lines first -- rows (lines 'R') or columns ('C') --
     * then the task, which writes Z, then over the updated rest C2
     * without those lines: 'R': X = C2 Z (C2 = C(ahead:m, :), Z n x ks,
     * X (m - ahead) x ks); 'C': X = C2^H Z (C2 = C(:, ahead:n), Z m x ks,
     * X (n - ahead) x ks).  X overlaps none of the others.  Returns the
     * task's result, or 1 where the backend leaves all of it to the
     * caller; NULL: ge2gb's steps by larfb (ops_ge_update_then below
     * where a backend has it). */
    int (*ge_update_ahead)(const struct GL_FN(ops) *ops, char lines,
                           lapack_int m, lapack_int n, lapack_int k,
                           const gl_scalar *u, lapack_int ldu,
                           const gl_scalar *w, lapack_int ldw, gl_scalar *c,
                           lapack_int ldc, lapack_int ahead,
                           GL_FN(ops_task) *task, void *arg, lapack_int ks,
                           const gl_scalar *z, lapack_int ldz, gl_scalar *x,
                           lapack_int ldx);
    /* BLAS3 as in the reference BLAS (trans 'N', 'T' or 'C'). */
    void (*gemm)(const struct GL_FN(ops) *ops, char transa, char transb,
                 lapack_int m, lapack_int n, lapack_int k, gl_scalar alpha,
                 const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                 lapack_int ldb, gl_scalar beta, gl_scalar *c, lapack_int ldc);
    /* y = alpha A x + beta y, A n x n Hermitian in its uplo triangle, x
     * and y contiguous vectors of the backend's memory. */
    void (*hemv)(const struct GL_FN(ops) *ops, char uplo, lapack_int n,
                 gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                 const gl_scalar *x, gl_scalar beta, gl_scalar *y);
    void (*hemm)(const struct GL_FN(ops) *ops, char side, char uplo,
                 lapack_int m, lapack_int n, gl_scalar alpha,
                 const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                 lapack_int ldb, gl_scalar beta, gl_scalar *c, lapack_int ldc);
    void (*her2k)(const struct GL_FN(ops) *ops, char uplo, char trans,
                  lapack_int n, lapack_int k, gl_scalar alpha,
                  const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                  lapack_int ldb, gl_real beta, gl_scalar *c, lapack_int ldc);
    void (*trmm)(const struct GL_FN(ops) *ops, char side, char uplo,
                 char transa, char diag, lapack_int m, lapack_int n,
                 gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                 gl_scalar *b, lapack_int ldb);

    /* Stage 2, one pass of bulge chasing on a packed band.
     * gb_chase: upper band of half-width b -> half-width c (1 <= c < b),
     *   stored with ldband = 3*b0+1 for the b0 >= b the band started with:
     *   A(r,c) = band[2*b0 + r - c + c*ldband] (2*b0 rows of fill above the
     *   diagonal, b0 below); everything outside the band must be zero.
     * sb_chase: Hermitian lower band of half-width b -> tridiagonal,
     *   A(r,c) = band[r - c + c*ldband], r >= c, ldband >= 2*b+1, rows
     *   b+1 .. 2b zero (bulge room).
     * keep (NULL: values only): where the reflectors go, for a chase to
     *   half-width 1 only (gb_chase c = 1).  A band already of the target
     *   half-width (b <= c, or b <= 1) is left as it is.
     * sweeps: only sweeps 0 .. sweeps-1 run (n or more: the whole chase).
     *   Sweep s touches rows and columns s.. alone, so once sweeps
     *   0 .. s0-1 are done, sweeps s0 .. s1-1 are sweeps 0 .. s1-s0-1 of
     *   the chase of the trailing band (order n - s0, band + s0 ldband,
     *   the fill the earlier sweeps left in it included): a chase in
     *   segments, each with the store of its own trailing problem
     *   (kernels/stages/backtransform.h reflectors_alloc_segment), gives
     *   the whole chase's band, and Q is the product of the segments' Q's,
     *   each on rows s0.. (backtransform.c).
     * Return 0, or < 0 if the backend could not run them. */
    int (*gb_chase)(const struct GL_FN(ops) *ops, lapack_int n, lapack_int b,
                    lapack_int c, lapack_int sweeps, gl_scalar *band,
                    lapack_int ldband, const struct GL_FN(reflectors) *keep);
    int (*sb_chase)(const struct GL_FN(ops) *ops, lapack_int n, lapack_int b,
                    lapack_int sweeps, gl_scalar *band, lapack_int ldband,
                    const struct GL_FN(reflectors) *keep);

    /* Stage 3 of the values-only eigenproblems: w = every eigenvalue of
     * the real symmetric tridiagonal matrix (d, e: n and n-1 values), in
     * ascending order, to about ulp |T| as ?sterf; host arrays, w may be
     * d.  Return 0,
     * or < 0 if the backend could not run it.  NULL where the system's
     * ?sterf serves (the host backend). */
    int (*tridiag_values)(const struct GL_FN(ops) *ops, lapack_int n,
                          const gl_real *d, const gl_real *e, gl_real *w);
    /* The same for the SVD: s = the singular values of the upper
     * bidiagonal (d: n, e: n-1 values), descending, to about ulp |B|;
     * s may be d.  NULL where the system's ?bdsqr serves. */
    int (*bidiag_values)(const struct GL_FN(ops) *ops, lapack_int n,
                         const gl_real *d, const gl_real *e, gl_real *s);
    /* C (m x n) = op(A) B of real host arrays (op: transa 'N' or 'T', B
     * k x n), computed on the backend: the merges' products of stage 3's
     * divide and conquer (kernels/stages/dc_*.c).  Return 0, or < 0 when the
     * device failed (C, the pipeline's own array, may then be written in
     * part, as by to_host_scratch).  NULL where the system ?bdsdc
     * serves (the host backend). */
    int (*real_product)(const struct GL_FN(ops) *ops, char transa,
                        lapack_int m, lapack_int n, lapack_int k,
                        const gl_real *a, lapack_int lda, const gl_real *b,
                        lapack_int ldb, gl_real *c, lapack_int ldc);

    /* Stage 3 with its vectors left in the backend's memory: the divide
     * and conquer of kernels/stages/dc_*.c keeps the vectors of the
     * tridiagonal and bidiagonal problems on the device, and the
     * back-transformation reads them there.  NULL on the host backend
     * (the system's ?stedc and ?bdsdc serve).  Matrices are real arrays
     * (gl_real) of the backend's memory; index and coefficient arrays are
     * host arrays, copied by the operation.  Each returns 0, or < 0 when the device failed. */
    /* dst = src, host to device and back (to_host_scratch's contract) */
    int (*real_to_device)(const struct GL_FN(ops) *ops, lapack_int rows,
                          lapack_int cols, const gl_real *src, lapack_int lds,
                          gl_real *dst, lapack_int ldd);
    int (*real_to_host)(const struct GL_FN(ops) *ops, lapack_int rows,
                        lapack_int cols, const gl_real *src, lapack_int lds,
                        gl_real *dst, lapack_int ldd);
    /* dst = src, both in the backend's memory */
    int (*real_copy)(const struct GL_FN(ops) *ops, lapack_int rows,
                     lapack_int cols, const gl_real *src, lapack_int lds,
                     gl_real *dst, lapack_int ldd);
    /* A (rows x cols) = diag I */
    int (*real_fill)(const struct GL_FN(ops) *ops, lapack_int rows,
                     lapack_int cols, gl_real diag, gl_real *a, lapack_int lda);
    /* C (m x n) = op(A) B, op 'N' or 'T', B k x n (k = 0: C = 0) */
    int (*real_gemm)(const struct GL_FN(ops) *ops, char transa, lapack_int m,
                     lapack_int n, lapack_int k, const gl_real *a,
                     lapack_int lda, const gl_real *b, lapack_int ldb,
                     gl_real *c, lapack_int ldc);
    /* the plane rotations r = 0 .. nrot-1, in order, of the columns
     * (by_rows 0) or rows (1) pair[2r] and pair[2r+1] (0-based) of Q by
     * c = cs[2r], s = cs[2r+1], as ?rot, over count rows (columns) */
    int (*dc_rotate)(const struct GL_FN(ops) *ops, lapack_int count,
                     int by_rows, lapack_int nrot, const lapack_int *pair,
                     const gl_real *cs, gl_real *q, lapack_int ldq);
    /* dst (rows x cols) gathered from src: dst(:, j) = src(:, from[j])
     * (by_rows 0) or dst(i, :) = src(from[i], :) (1), from 0-based */
    int (*dc_gather)(const struct GL_FN(ops) *ops, lapack_int rows,
                     lapack_int cols, int by_rows, const lapack_int *from,
                     const gl_real *src, lapack_int lds, gl_real *dst,
                     lapack_int ldd);
    /* The secular equation of a merge of the tridiagonal problem (k >= 3
     * roots, rho > 0) solved on the device from its 5k values in roots
     * (kernels/device/dc.h: the poles ascending, the weights, whose
     * signs are kept, at 3k, the order of the rows at 4k; the slots at k
     * and 2k are the device's): the roots into values (host, k), S (k x
     * k) = the normalised vectors, the weights recomputed from the roots
     * (Gu and Eisenstat).  0, 1 where a root did not converge, or -1. */
    int (*dc_secular)(const struct GL_FN(ops) *ops, lapack_int k, gl_real rho,
                      const gl_real *roots, gl_real *values, gl_real *s,
                      lapack_int lds);
    /* the same for the bidiagonal problem (the weight of z^2 rho, the
     * first pole 0): sigma into values, Q_u into qu, Q_vt^T into qvt
     * (both k x k, ld ldq) */
    int (*dc_svd_secular)(const struct GL_FN(ops) *ops, lapack_int k,
                          gl_real rho, const gl_real *roots, gl_real *values,
                          gl_real *qu, gl_real *qvt, lapack_int ldq);
    /* the first row of VT2 and the last of VT of a merge of the
     * bidiagonal problem (kernels/device/dc.h gl_dc_svd_first_row) */
    int (*dc_svd_first_row)(const struct GL_FN(ops) *ops, lapack_int n,
                            lapack_int m, lapack_int nl, gl_real c, gl_real s,
                            gl_real *vt, lapack_int ldvt, gl_real *vt2,
                            lapack_int ldvt2);
    /* supp[2j], supp[2j + 1] = the first and last row (1-based) of the
     * nonzero entries of column j of Z (rows x cols) */
    int (*dc_support)(const struct GL_FN(ops) *ops, lapack_int rows,
                      lapack_int cols, const gl_real *z, lapack_int ldz,
                      lapack_int *supp);
    /* dst (drows x dcols) = diag(phase) Z (transpose 0) or diag(phase)
     * Z^T (1), Z real rows x cols of dst, the identity beyond; phase a
     * host array of rows values; dst may be z in the real precisions
     * (transpose 0, the same shape) */
    int (*phase_rows)(const struct GL_FN(ops) *ops, lapack_int rows,
                      lapack_int cols, int transpose, const gl_scalar *phase,
                      const gl_real *z, lapack_int ldz, lapack_int drows,
                      lapack_int dcols, gl_scalar *dst, lapack_int ldd);
} GL_FN(ops);

/* Binds *table to ctx (runtime/context.h, acquired for the call): the
 * template of ctx->path (host_ops for GL_PATH_HOST, gpu_ops for the GPU
 * paths) copied into *table, its ctx set.  0, or -1 with *table untouched
 * when the system LAPACK's helpers are missing or the path is not
 * compiled in.  The context's error state and profile are
 * gl_ctx_acquire's, not this function's. */
int GL_FN(ops_bind)(GL_FN(ops) *table, gl_ctx *ctx);

/* The host's stage 1 updates with the next panels' products in one pass
 * (her2k_hemm_ahead, ge_update_ahead) or apart, as
 * GPULAPACK_HOST_PRODUCTS asks: clears the ones to keep apart.  ops_bind
 * applies it; so does a table built without it (gpulapack-tune's). */
void GL_FN(ops_products_mode)(GL_FN(ops) *table);

/* A stage's run of products (products_begin above): the table to run
 * the stage on, *run (a copy of ops with its threads) where ops has
 * one, else ops itself; ops_products_end with that table ends it. */
/* gl_s_ops_products_begin gl_d_ops_products_begin gl_c_ops_products_begin gl_z_ops_products_begin */
static inline const GL_FN(ops) *GL_FN(ops_products_begin)(
    const GL_FN(ops) *ops, lapack_int n, GL_FN(ops) *run)
{
    if (!ops->products_begin)
        return ops;
    *run = *ops;
    ops->products_begin(run, n);
    return run;
}

/* Ends only a run that ops_products_begin began: a table without
 * products_begin carries a run its maker ends (host_sy2sb_on). */
/* gl_s_ops_products_end gl_d_ops_products_end gl_c_ops_products_end gl_z_ops_products_end */
static inline void GL_FN(ops_products_end)(const GL_FN(ops) *run)
{
    if (run->products_begin && run->products_end)
        run->products_end(run);
}

/* larfb, then task: beside the rest of the update where the backend can
 * (larfb_ahead above). */
/* gl_s_ops_larfb_then gl_d_ops_larfb_then gl_c_ops_larfb_then gl_z_ops_larfb_then */
static inline int GL_FN(ops_larfb_then)(const GL_FN(ops) *ops, char side,
                                        char trans, char storev, lapack_int m,
                                        lapack_int n, lapack_int k,
                                        const gl_scalar *v, lapack_int ldv,
                                        const gl_scalar *t, lapack_int ldt,
                                        gl_scalar *c, lapack_int ldc,
                                        GL_FN(ops_task) *task, void *arg)
{
    int rc = ops->larfb_ahead
                 ? ops->larfb_ahead(ops, side, trans, storev, m, n, k, v, ldv,
                                    t, ldt, c, ldc, task, arg)
                 : 1;
    if (rc != 1)
        return rc;
    rc = ops->larfb(ops, side, trans, storev, m, n, k, v, ldv, t, ldt, c, ldc);
    return rc != 0 ? rc : task(ops, arg);
}

/* her2k ('L', 'N'), then task, as ops_larfb_then. */
/* gl_s_ops_her2k_then gl_d_ops_her2k_then gl_c_ops_her2k_then gl_z_ops_her2k_then */
static inline int GL_FN(ops_her2k_then)(const GL_FN(ops) *ops, lapack_int n,
                                        lapack_int k, gl_scalar alpha,
                                        const gl_scalar *a, lapack_int lda,
                                        const gl_scalar *b, lapack_int ldb,
                                        gl_real beta, gl_scalar *c,
                                        lapack_int ldc, lapack_int ahead,
                                        GL_FN(ops_task) *task, void *arg)
{
    int rc = ops->her2k_ahead
                 ? ops->her2k_ahead(ops, 'L', 'N', n, k, alpha, a, lda, b, ldb,
                                    beta, c, ldc, ahead, task, arg)
                 : 1;
    if (rc != 1)
        return rc;
    ops->her2k(ops, 'L', 'N', n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return task(ops, arg);
}

/* her2k ('L', 'N', alpha -1, beta 1), then task, then X = C2 S as
 * her2k_hemm_ahead above. */
/* gl_s_ops_her2k_hemm_then gl_d_ops_her2k_hemm_then gl_c_ops_her2k_hemm_then gl_z_ops_her2k_hemm_then */
static inline int GL_FN(ops_her2k_hemm_then)(
    const GL_FN(ops) *ops, lapack_int n, lapack_int k, const gl_scalar *a,
    lapack_int lda, const gl_scalar *b, lapack_int ldb, gl_scalar *c,
    lapack_int ldc, lapack_int ahead, GL_FN(ops_task) *task, void *arg,
    lapack_int ks, const gl_scalar *s, lapack_int lds, gl_scalar *x,
    lapack_int ldx)
{
    int rc = ops->her2k_hemm_ahead
                 ? ops->her2k_hemm_ahead(ops, n, k, a, lda, b, ldb, c, ldc,
                                         ahead, task, arg, ks, s, lds, x, ldx)
                 : 1;
    if (rc != 1)
        return rc;
    rc = GL_FN(ops_her2k_then)(ops, n, k, -1, a, lda, b, ldb, 1, c, ldc, ahead,
                               task, arg);
    if (rc == 0)
        ops->hemm(ops, 'L', 'L', n - ahead, ks, 1,
                  c + ahead + (size_t)ahead * ldc, ldc, s, lds, 0, x, ldx);
    return rc;
}

/* ge_update_ahead, or the same by gemm, task, gemm. */
/* gl_s_ops_ge_update_then gl_d_ops_ge_update_then gl_c_ops_ge_update_then gl_z_ops_ge_update_then */
static inline int GL_FN(ops_ge_update_then)(
    const GL_FN(ops) *ops, char lines, lapack_int m, lapack_int n,
    lapack_int k, const gl_scalar *u, lapack_int ldu, const gl_scalar *w,
    lapack_int ldw, gl_scalar *c, lapack_int ldc, lapack_int ahead,
    GL_FN(ops_task) *task, void *arg, lapack_int ks, const gl_scalar *z,
    lapack_int ldz, gl_scalar *x, lapack_int ldx)
{
    int rc =
        ops->ge_update_ahead
            ? ops->ge_update_ahead(ops, lines, m, n, k, u, ldu, w, ldw, c, ldc,
                                   ahead, task, arg, ks, z, ldz, x, ldx)
            : 1;
    if (rc != 1)
        return rc;
    ops->gemm(ops, 'N', 'C', m, n, k, -1, u, ldu, w, ldw, 1, c, ldc);
    rc = task(ops, arg);
    if (rc != 0)
        return rc;
    if (lines == 'R')
        ops->gemm(ops, 'N', 'N', m - ahead, ks, n, 1, c + ahead, ldc, z, ldz,
                  0, x, ldx);
    else
        ops->gemm(ops, 'C', 'N', n - ahead, ks, m, 1, c + (size_t)ahead * ldc,
                  ldc, z, ldz, 0, x, ldx);
    return 0;
}

#endif
