/* The host backend's operation table: memory is host memory, panels and
 * BLAS3 are the system LAPACK/BLAS, stage 2 is
 * kernels/backend/host/chase.c. */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../runtime/precision.h"
#include "../../../runtime/config.h"
#include "../../../runtime/memory.h"
#include "../lapack_fns.h"
#include "../../stages/backtransform.h"
#include "host.h"
#include "threads.h"

/* Stage 3 of the values: the bisection of values.c on the threads the
 * size is worth (threads.h gl_host_values_threads), else the system's
 * ?sterf or ?bdsqr (dqds), which also take any call the bisection gives
 * back. */
static int host_tridiag_values(const GL_FN(ops) *ops, lapack_int n,
                               const gl_real *d, const gl_real *e, gl_real *w)
{
    int threads = gl_host_values_threads(&ops->ctx->tuning, n);
    if (threads > 0 && GL_FN(host_values)('T', n, d, e, w, threads) == 0)
        return 0;
    gl_real *e2 = malloc(sizeof *e2 * (size_t)(n > 1 ? n : 1));
    if (!e2)
        return -1;
    memmove(w, d, sizeof *w * (size_t)n);
    if (n > 1)
        memcpy(e2, e, sizeof *e2 * (size_t)(n - 1));
    lapack_int info = 0;
    GL_FN(lapack_fns_get)()->sterf(&n, w, e2, &info);
    free(e2);
    return info == 0 ? 0 : -1;
}

static int host_bidiag_values(const GL_FN(ops) *ops, lapack_int n,
                              const gl_real *d, const gl_real *e, gl_real *s)
{
    int threads = gl_host_values_threads(&ops->ctx->tuning, n);
    if (threads > 0 && GL_FN(host_values)('B', n, d, e, s, threads) == 0)
        return 0;
    gl_real *work = malloc(sizeof *work * 5 * (size_t)(n > 1 ? n : 1));
    if (!work)
        return -1;
    gl_real *e2 = work + 4 * (size_t)(n > 1 ? n : 1);
    memmove(s, d, sizeof *s * (size_t)n);
    if (n > 1)
        memcpy(e2, e, sizeof *e2 * (size_t)(n - 1));
    lapack_int zero = 0, one = 1, info = 0;
    GL_FN(lapack_fns_get)()->bdsqr("U", &n, &zero, &zero, &zero, s, e2, NULL,
                                   &one, NULL, &one, NULL, &one, work, &info,
                                   1);
    free(work);
    return info == 0 ? 0 : -1;
}

/* the host's memory, aligned to a cache line */
static void *host_alloc(const GL_FN(ops) *ops, size_t bytes)
{
    (void)ops;
    return gl_host_alloc(bytes);
}

static void host_release(const GL_FN(ops) *ops, void *ptr)
{
    (void)ops;
    gl_host_free(ptr);
}

/* Copies and packs of at least this many bytes go over the threads, in
 * items of COPY_ITEM_BYTES: they are memory-bound, and two cores here copy
 * n = 4000 (128 MB) in 3.6-6 ms against 7-9 ms on one (`dsyevd` N's
 * copy in, 4.8-5.0 ms against 9-11.5), and pack its band (6 MB, strided)
 * in 0.6-1.1 ms against 0.5-1.9; a thread's start (50-200 us) is paid
 * back from a few MB on, and on many cores these serial milliseconds
 * would be a growing share of a call. */
enum { PARALLEL_COPY_BYTES = 4 << 20, COPY_ITEM_BYTES = 1 << 20 };

/* A copy (dst = src) or a pack into band storage, column by column, in
 * items of per_item columns. */
typedef struct columns_job {
    lapack_int rows, cols, per_item, ld_src, ld_dst;
    const gl_scalar *src;
    gl_scalar *dst;
    char kind;    /* 0: a copy; 'G', 'H': pack_band's */
    lapack_int b; /* pack_band's half-width */
} columns_job;

static void pack_column(const columns_job *job, lapack_int c)
{
    gl_scalar *col = job->dst + (size_t)c * job->ld_dst;
    const gl_scalar *acol = job->src + (size_t)c * job->ld_src;
    memset(col, 0, sizeof *col * (size_t)job->ld_dst);
    if (job->kind == 'G') {
        /* A(r,c) -> col[up + r - c], r = c-b .. c */
        lapack_int up = (job->ld_dst - 1) / 3 * 2;
        lapack_int r0 = c - job->b > 0 ? c - job->b : 0;
        for (lapack_int r = r0; r <= c; r++)
            col[up + r - c] = acol[r];
    } else {
        lapack_int r1 =
            c + job->b < job->rows - 1 ? c + job->b : job->rows - 1;
        for (lapack_int r = c; r <= r1; r++)
            col[r - c] = acol[r];
        col[0] = GL_REAL(col[0]);
    }
}

static int columns_item(void *ctx, long item)
{
    const columns_job *job = ctx;
    lapack_int j0 = (lapack_int)item * job->per_item;
    lapack_int j1 =
        j0 + job->per_item < job->cols ? j0 + job->per_item : job->cols;
    for (lapack_int j = j0; j < j1; j++) {
        if (job->kind)
            pack_column(job, j);
        else
            memcpy(job->dst + (size_t)j * job->ld_dst,
                   job->src + (size_t)j * job->ld_src,
                   sizeof *job->dst * (size_t)job->rows);
    }
    return 0;
}

/* The job's columns, over the threads where it moves enough bytes
 * (column_bytes each); a loop that cannot start its threads runs on the
 * caller. */
static void columns_run(columns_job *job, size_t column_bytes)
{
    size_t bytes = column_bytes * (size_t)job->cols;
    job->per_item = job->cols;
    if (bytes >= PARALLEL_COPY_BYTES && column_bytes > 0)
        job->per_item =
            (lapack_int)((COPY_ITEM_BYTES + column_bytes - 1) / column_bytes);
    if (job->per_item >= job->cols) {
        job->per_item = job->cols;
        columns_item(job, 0);
        return;
    }
    (void)gl_parallel_for((job->cols + job->per_item - 1) / job->per_item,
                          columns_item, job);
}

static void host_copy(const GL_FN(ops) *ops, lapack_int rows, lapack_int cols,
                      const gl_scalar *src, lapack_int ld_src, gl_scalar *dst,
                      lapack_int ld_dst)
{
    (void)ops;
    if (rows <= 0 || cols <= 0)
        return;
    columns_job job = {.rows = rows,
                       .cols = cols,
                       .ld_src = ld_src,
                       .ld_dst = ld_dst,
                       .src = src,
                       .dst = dst};
    columns_run(&job, sizeof *dst * (size_t)rows);
}

/* the host's work is done when its call returns: nothing to mark */
static void host_mark(const GL_FN(ops) *ops) { (void)ops; }

static int host_to_host(const GL_FN(ops) *ops, lapack_int rows,
                        lapack_int cols, const gl_scalar *src,
                        lapack_int ld_src, gl_scalar *dst, lapack_int ld_dst)
{
    host_copy(ops, rows, cols, src, ld_src, dst, ld_dst);
    return 0;
}

/* the host's copies are done when they return: the lanes are plain
 * copies, with nothing to order or pin */
static void host_lane_event(const GL_FN(ops) *ops, int queue, int event)
{
    (void)ops, (void)queue, (void)event;
}
static int host_lanes_finish(const GL_FN(ops) *ops)
{
    (void)ops;
    return 0;
}
static void host_pin(const GL_FN(ops) *ops, void *ptr, size_t bytes)
{
    (void)ops, (void)ptr, (void)bytes;
}
static void host_unpin(const GL_FN(ops) *ops, void *ptr) { (void)ops, (void)ptr; }

static void host_from_host(const GL_FN(ops) *ops, char trans, lapack_int rows,
                           lapack_int cols, const gl_scalar *src,
                           lapack_int ld_src, gl_scalar *dst, lapack_int ld_dst)
{
    if (trans == 'N')
        host_copy(ops, rows, cols, src, ld_src, dst, ld_dst);
    else
        GL_FN(conj_transpose)(rows, cols, src, ld_src, dst, ld_dst);
}

static int host_lascl(const GL_FN(ops) *ops, gl_real cfrom, gl_real cto,
                      lapack_int m, lapack_int n, gl_scalar *a, lapack_int lda)
{
    (void)ops;
    lapack_int info = 0, zero = 0;
    GL_FN(lapack_fns_get)()->lascl("G", &zero, &zero, &cfrom, &cto, &m, &n,
                                   a, &lda, &info, 1);
    return info == 0 ? 0 : -1;
}

static void host_pack_band(const GL_FN(ops) *ops, char kind, lapack_int n,
                           lapack_int b, const gl_scalar *a, lapack_int lda,
                           gl_scalar *band, lapack_int ldband)
{
    (void)ops;
    if (n <= 0)
        return;
    columns_job job = {.rows = n,
                       .cols = n,
                       .ld_src = lda,
                       .ld_dst = ldband,
                       .src = a,
                       .dst = band,
                       .kind = kind == 'G' ? 'G' : 'H',
                       .b = b};
    /* each column writes ldband scalars and reads b+1 */
    columns_run(&job, sizeof *band * (size_t)(ldband + b + 1));
}

static void host_zero_lower(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                            gl_scalar *a, lapack_int lda)
{
    (void)ops;
    for (lapack_int j = 0; j < n && j + 1 < m; j++)
        memset(a + (size_t)j * lda + j + 1, 0, sizeof *a * (size_t)(m - j - 1));
}

static void host_unpack_v(const GL_FN(ops) *ops, char storev, lapack_int m,
                          lapack_int k, const gl_scalar *a, lapack_int lda,
                          gl_scalar *v, lapack_int ldv)
{
    (void)ops;
    for (lapack_int j = 0; j < k; j++) {
        gl_scalar *vj = v + (size_t)j * ldv;
        for (lapack_int i = 0; i < m && i <= j; i++)
            vj[i] = i == j ? 1 : 0;
        if (storev == 'C')
            for (lapack_int i = j + 1; i < m; i++)
                vj[i] = a[i + (size_t)j * lda];
        else
            for (lapack_int i = j + 1; i < m; i++)
                vj[i] = GL_CONJ(a[j + (size_t)i * lda]);
    }
}

static int host_geqrt(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                      gl_scalar *a, lapack_int lda, gl_scalar *t,
                      lapack_int ldt)
{
    (void)ops;
    lapack_int info = 0;
    GL_FN(lapack_fns_get)()->geqrt3(&m, &n, a, &lda, t, &ldt, &info);
    return info == 0 ? 0 : -1;
}

/* The LQ of a block row (m <= n) as the QR of its conjugate transpose.
 * ?gelqt3 walks A's rows, one element every lda, and on the long rows of
 * stage 1's first steps runs several times slower than ?geqrt3 on the
 * transposed copy, the two copies included (a 64 x 3936 row of a matrix
 * of 4000 rows: 13.8 ms against 3.3).  Both give the same reflectors,
 * L = R^H and the same T: ?gelq2 generates each reflector from the
 * conjugated row, which is the column of A^H.  Without room for the copy,
 * ?gelqt3 in place. */
static int host_gelqt(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                      gl_scalar *a, lapack_int lda, gl_scalar *t,
                      lapack_int ldt)
{
    (void)ops;
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int info = 0;
    gl_scalar *at = m <= n ? gl_host_alloc(sizeof *at * (size_t)m * (size_t)n)
                           : NULL;
    if (!at) {
        f->gelqt3(&m, &n, a, &lda, t, &ldt, &info);
        return info == 0 ? 0 : -1;
    }
    GL_FN(conj_transpose)(m, n, a, lda, at, n);
    f->geqrt3(&n, &m, at, &n, t, &ldt, &info);
    GL_FN(conj_transpose)(n, m, at, n, a, lda);
    gl_host_free(at);
    return info == 0 ? 0 : -1;
}

static int host_geqrf(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                      gl_scalar *a, lapack_int lda)
{
    (void)ops;
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int info = 0, query = -1, k = m < n ? m : n;
    gl_scalar size = 0;
    f->geqrf(&m, &n, a, &lda, &size, &size, &query, &info);
    lapack_int lwork = (lapack_int)GL_REAL(size);
    if (lwork < n)
        lwork = n > 0 ? n : 1;
    gl_scalar *work = malloc(sizeof *work * ((size_t)lwork + (size_t)k + 1));
    if (!work)
        return -1;
    f->geqrf(&m, &n, a, &lda, work + lwork, work, &lwork, &info);
    free(work);
    return info == 0 ? 0 : -1;
}

static void host_gemm(const GL_FN(ops) *ops, char transa, char transb,
                      lapack_int m, lapack_int n, lapack_int k, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                      lapack_int ldb, gl_scalar beta, gl_scalar *c,
                      lapack_int ldc)
{
    if (m <= 0 || n <= 0 ||
        GL_FN(products_gemm)(ops, transa, transb, m, n, k, alpha, a, lda, b,
                             ldb, beta, c, ldc) == 0)
        return;
    GL_FN(lapack_fns_get)()->gemm(&transa, &transb, &m, &n, &k, &alpha, a,
                                  &lda, b, &ldb, &beta, c, &ldc, 1, 1);
}

static void host_hemm(const GL_FN(ops) *ops, char side, char uplo,
                      lapack_int m, lapack_int n, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                      lapack_int ldb, gl_scalar beta, gl_scalar *c,
                      lapack_int ldc)
{
    if (m <= 0 || n <= 0 ||
        GL_FN(products_hemm)(ops, side, uplo, m, n, alpha, a, lda, b, ldb,
                             beta, c, ldc) == 0)
        return;
    if (side == 'L')
        GL_FN(hemm_left)(uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        GL_FN(lapack_fns_get)()->hemm(&side, &uplo, &m, &n, &alpha, a, &lda, b,
                                      &ldb, &beta, c, &ldc, 1, 1);
}

static void host_hemv(const GL_FN(ops) *ops, char uplo, lapack_int n,
                      gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                      const gl_scalar *x, gl_scalar beta, gl_scalar *y)
{
    (void)ops;
    lapack_int one = 1;
    GL_FN(lapack_fns_get)()->hemv(&uplo, &n, &alpha, a, &lda, x, &one, &beta,
                                  y, &one, 1);
}

static void host_her2k(const GL_FN(ops) *ops, char uplo, char trans,
                       lapack_int n, lapack_int k, gl_scalar alpha,
                       const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                       lapack_int ldb, gl_real beta, gl_scalar *c,
                       lapack_int ldc)
{
    if (n <= 0 || GL_FN(products_her2k)(ops, uplo, trans, n, k, alpha, a, lda,
                                        b, ldb, beta, c, ldc) == 0)
        return;
    GL_FN(lapack_fns_get)()->her2k(&uplo, &trans, &n, &k, &alpha, a, &lda, b,
                                   &ldb, &beta, c, &ldc, 1, 1);
}

static void host_trmm(const GL_FN(ops) *ops, char side, char uplo, char transa,
                      char diag, lapack_int m, lapack_int n, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, gl_scalar *b,
                      lapack_int ldb)
{
    if (m <= 0 || n <= 0 ||
        GL_FN(products_trmm)(ops, side, uplo, transa, diag, m, n, alpha, a,
                             lda, b, ldb) == 0)
        return;
    GL_FN(lapack_fns_get)()->trmm(&side, &uplo, &transa, &diag, &m, &n,
                                  &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);
}

/* C = H C or H^H C, H = I - V T V^H with V (m x k) unit lower trapezoidal,
 * as ?larfb 'L', 'F', 'C' does it: W = C1^H V1 + C2^H V2, W = W T^H (or
 * W T), C2 -= V2 W^H, C1 -= V1 W^H.  The system ?larfb (reference LAPACK)
 * moves C1^H into W and W^H back into C1 one row of C at a time, a stride
 * of ldc per element; here they go by square tiles (conj_transpose), which
 * read and write whole cache lines.  Every other larfb goes to LAPACK. */
static void larfb_left_columns(const GL_FN(ops) *ops, char trans, lapack_int m,
                               lapack_int n, lapack_int k, const gl_scalar *v,
                               lapack_int ldv, const gl_scalar *t,
                               lapack_int ldt, gl_scalar *c, lapack_int ldc,
                               gl_scalar *w)
{
    const lapack_int ldw = n;
    GL_FN(conj_transpose)(k, n, c, ldc, w, ldw);   /* W = C1^H */
    host_trmm(ops, 'R', 'L', 'N', 'U', n, k, 1, v, ldv, w, ldw);
    if (m > k)
        host_gemm(ops, 'C', 'N', n, k, m - k, 1, c + k, ldc, v + k, ldv, 1, w,
                  ldw);
    host_trmm(ops, 'R', 'U', trans == 'N' ? 'C' : 'N', 'N', n, k, 1, t, ldt, w,
              ldw);
    if (m > k)
        host_gemm(ops, 'N', 'C', m - k, n, k, -1, v + k, ldv, w, ldw, 1, c + k,
                  ldc);
    host_trmm(ops, 'R', 'L', 'C', 'U', n, k, 1, v, ldv, w, ldw);
    GL_FN(sub_conj_transpose)(n, k, w, ldw, c, ldc);   /* C1 -= W^H */
}

static int larfb_whole(const GL_FN(ops) *ops, char side, char trans,
                       char storev, lapack_int m, lapack_int n, lapack_int k,
                       const gl_scalar *v, lapack_int ldv, const gl_scalar *t,
                       lapack_int ldt, gl_scalar *c, lapack_int ldc)
{
    lapack_int ldwork = side == 'L' ? n : m;
    gl_scalar *work = gl_host_alloc(sizeof *work * (size_t)ldwork * (size_t)k);
    if (!work)
        return -1;
    if (side == 'L' && storev == 'C' && m >= k)
        larfb_left_columns(ops, trans, m, n, k, v, ldv, t, ldt, c, ldc, work);
    else
        GL_FN(lapack_fns_get)()->larfb(&side, &trans, "F", &storev, &m, &n,
                                       &k, v, &ldv, t, &ldt, c, &ldc, work,
                                       &ldwork, 1, 1, 1, 1);
    gl_host_free(work);
    return 0;
}

static int host_larfb(const GL_FN(ops) *ops, char side, char trans,
                      char storev, lapack_int m, lapack_int n, lapack_int k,
                      const gl_scalar *v, lapack_int ldv, const gl_scalar *t,
                      lapack_int ldt, gl_scalar *c, lapack_int ldc)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return 0;
    int rc = GL_FN(products_larfb)(ops, larfb_whole, side, trans, storev, m, n,
                                   k, v, ldv, t, ldt, c, ldc);
    return rc != 1 ? rc
                   : larfb_whole(ops, side, trans, storev, m, n, k, v, ldv, t,
                                 ldt, c, ldc);
}

/* A run of products on the library's threads, the BLAS on one, where the
 * BLAS's thread count can be set (runtime/parallel.h). */
static void host_products_begin(GL_FN(ops) *run, lapack_int n)
{
    run->product_threads =
        gl_products_begin(&GL_FN(lapack_fns_get)()->blas_threads,
                          gl_host_products_threads(&run->ctx->tuning, n));
    run->product_team = gl_team_start(run->product_threads);
}

static void host_products_end(const GL_FN(ops) *run)
{
    gl_team_stop(run->product_team);
    gl_products_end(run->product_threads);
}

/* apply_wy on the host: the columns of E in chunks, each chunk taken by
 * one thread through the whole sequence of blocks while it stays in
 * cache.  The blocks are small (k <= group columns, rows <= band + group),
 * so their two products, W = V^H E and E -= Y W, go to the register-tiled
 * kernel of tile_gemm.c: no per-call cost of the BLAS, and no nesting of
 * the BLAS's own threads in ours. */
typedef struct wy_job {
    lapack_int nblocks, kmax;
    const lapack_int *row0, *rows, *k;
    const gl_scalar *vh, *y;
    lapack_int ldy;
    size_t stride;
    lapack_int band;
    int y_banded;
    lapack_int ncols, chunk;
    gl_scalar *e;
    lapack_int lde;
} wy_job;

/* Every block applied to chunk number i of the columns of E. */
static int wy_chunk(void *arg, long i)
{
    const wy_job *job = arg;
    lapack_int c0 = (lapack_int)i * job->chunk;
    lapack_int nc = job->ncols - c0 < job->chunk ? job->ncols - c0
                                                 : job->chunk;
    gl_scalar *w = malloc(sizeof *w * (size_t)job->kmax * (size_t)nc);
    if (!w)
        return -1;
    for (lapack_int b = 0; b < job->nblocks; b++) {
        lapack_int rows = job->rows[b], k = job->k[b];
        gl_scalar *e = job->e + job->row0[b] + (size_t)c0 * job->lde;
        /* V^H(c, r) = 0 unless c <= r < c + band; Y(r, c) = 0 for
         * c <= r - band when banded */
        GL_FN(tile_gemm)(k, nc, rows, GL_TILE_SET, job->vh + b * job->stride,
                         k, 0, job->band - 1, e, job->lde, w, k);
        GL_FN(tile_gemm)(
            rows, nc, k, GL_TILE_SUBTRACT, job->y + b * job->stride, job->ldy,
            job->y_banded ? job->band - 1 : rows, k, w, k, e, job->lde);
    }
    free(w);
    return 0;
}

static int host_apply_wy(const GL_FN(ops) *ops, lapack_int nblocks,
                         const lapack_int *row0, const lapack_int *rows,
                         const lapack_int *k, const gl_scalar *vh,
                         const gl_scalar *y, lapack_int ldy, size_t stride,
                         lapack_int band, int y_banded, lapack_int ncols,
                         gl_scalar *e, lapack_int lde)
{
    wy_job job = {.nblocks = nblocks, .row0 = row0, .rows = rows, .k = k,
                  .vh = vh, .y = y, .ldy = ldy, .stride = stride,
                  .band = band, .y_banded = y_banded, .ncols = ncols,
                  .chunk = ops->ctx->tuning.chunk, .e = e, .lde = lde};
    for (lapack_int i = 0; i < nblocks; i++)
        job.kmax = k[i] > job.kmax ? k[i] : job.kmax;
    if (job.kmax == 0 || ncols <= 0)
        return 0;
    /* whole tiles of the kernel in every chunk */
    lapack_int nr = GL_FN(tile_gemm_cols)();
    job.chunk = (job.chunk + nr - 1) / nr * nr;
    return gl_parallel_for((ncols + job.chunk - 1) / job.chunk, wy_chunk,
                           &job);
}

/* gl_s_host_ops gl_d_host_ops gl_c_host_ops gl_z_host_ops */
const GL_FN(ops) GL_FN(host_ops) = {
    .name = "host",
    .host_memory = 1,
    /* aligned to a cache line: the tile kernel's vector loads of a
     * block's columns (kernels/backend/host/tile_gemm.c) are then whole lines,
     * not split ones (about 1.5 times faster in cache) */
    .alloc = host_alloc,
    .release = host_release,
    .to_host = host_to_host,
    .to_host_scratch = host_to_host,
    .mark = host_mark,
    .to_host_scratch_marked = host_to_host,
    .tile_up = host_copy,
    .tile_down = host_copy,
    .lane_record = host_lane_event,
    .lane_wait = host_lane_event,
    .lanes_finish = host_lanes_finish,
    .host_pin = host_pin,
    .host_unpin = host_unpin,
    .copy = host_copy,
    .from_host = host_from_host,
    .lascl = host_lascl,
    .pack_band = host_pack_band,
    .zero_lower = host_zero_lower,
    .unpack_v = host_unpack_v,
    .geqrt = host_geqrt,
    .gelqt = host_gelqt,
    .larfb = host_larfb,
    .apply_wy = host_apply_wy,
    .geqrf = host_geqrf,
    .products_begin = host_products_begin,
    .products_end = host_products_end,
    .larfb_ahead = GL_FN(products_larfb_ahead),
    .her2k_ahead = GL_FN(products_her2k_ahead),
    .her2k_hemm_ahead = GL_FN(products_her2k_hemm),
    .ge_update_ahead = GL_FN(products_ge_update),
    .gemm = host_gemm,
    .hemv = host_hemv,
    .hemm = host_hemm,
    .her2k = host_her2k,
    .trmm = host_trmm,
    .gb_chase = GL_FN(host_gb_chase),
    .sb_chase = GL_FN(host_sb_chase),
    .tridiag_values = host_tridiag_values,
    .bidiag_values = host_bidiag_values,
};
