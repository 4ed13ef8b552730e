/* The host's large products on the library's own threads, within a run
 * of products (runtime/parallel.h gl_products_begin: stage 1 on the host,
 * docs/design/host-threads.md).  The system BLAS is then held at one
 * thread, and each product is cut into pieces, each one whole BLAS call
 * on a block of the result, that up to the run's threads take from a
 * shared counter; narrow products whose matrix can be read along its
 * columns go in strips by the tile kernel instead (below).
 *
 * Why not the BLAS's own threads: OpenBLAS's threads spin for about 0.1 s
 * after each of its calls (its thread timeout, 2^28 cycles), beside
 * whatever runs next.  After stage 1 that was the library's own threads
 * of the chase, which then scaled 1.4-1.5x from 1 to 2 cores instead of
 * 1.8-1.9x (docs/design/host-threads.md).
 *
 * Each function returns 0 when it did the product, 1 when the product is
 * too small to share (or there is no run): the caller then calls the BLAS
 * whole.  Pieces leave every element of the result to one BLAS call, with
 * the same operands as the whole call, strips to the tile kernel; the
 * order of the sums may differ (the BLAS blocks a piece as its size
 * says), within the product's usual rounding. */
#include <complex.h>
#include <stdlib.h>

#include "../../../runtime/memory.h"
#include "../../../runtime/precision.h"
#include "../../stages/backtransform.h"
#include "../../stages/stages.h"
#include "../lapack_fns.h"
#include "host.h"

/* A thread is worth a share of at least this many flops (0.1-0.2 ms of
 * one core at the BLAS's rate, against the 30-60 us of starting it), and
 * a piece is at least this many rows or columns of the result, where the
 * BLAS's kernels run near their rate. */
#define THREAD_FLOPS 8.0e6
enum { PIECE_LINES = 64, PIECES_PER_THREAD = 2 };
/* real flops per multiply-add, over the real case's two */
enum { WEIGHT = GL_COMPLEX ? 4 : 1 };

/* The threads of the run's that a product of `flops` takes: 1 (whole)
 * below two shares. */
static int product_threads(int threads, double flops)
{
    if (threads <= 1)
        return 1;
    double worth = flops / THREAD_FLOPS;
    return worth < 2 ? 1 : worth < threads ? (int)worth : threads;
}

/* Lines of each of the pieces that cut `lines` for `threads` threads. */
static lapack_int piece_lines(lapack_int lines, int threads)
{
    lapack_int per = (lines + PIECES_PER_THREAD * threads - 1) /
                     (PIECES_PER_THREAD * threads);
    per = (per + PIECE_LINES - 1) / PIECE_LINES * PIECE_LINES;
    return per < lines ? per : lines;
}

static lapack_int pieces_of(lapack_int lines, lapack_int per)
{
    return (lines + per - 1) / per;
}

static gl_scalar conj_of(gl_scalar x)
{
#if GL_COMPLEX
    return conj(x);
#else
    return x;
#endif
}

/* ---- narrow products in strips, by the tile kernel -------------------
 * Stage 1's products of the matrix with a block of b columns (X = A S in
 * sy2sb, A^H V in ge2gb; b = 64 at n = 4000) from OpenBLAS pieces pack
 * the matrix for each product, and a packed element serves only 2 b
 * flops.  The register-tiled kernel (tile_gemm.c) reads the matrix in
 * place: a strip of C's rows takes the matrix's columns through the
 * adjoint C^H = B^H A, 12 of them at a time along memory against a block
 * of B^H in L2 (STRIP_COLS columns: 256 KiB in double at 128 rows).
 * Measured on epyc-2core (64 columns, m = 2000-4000): 103-111 GFLOP/s on
 * one core against OpenBLAS's pieces' 77-85, 186-194 on two against
 * 152-164.  The plain form C = A B, A's rows read across its columns,
 * ran at OpenBLAS's rate; hemm_strip uses it only for the part of A left
 * of a strip's diagonal block, so that A is read in place throughout
 * (X = A S: 78-95 GFLOP/s on one core against 71-81, 146-159 on two
 * against 134-138; docs/design/host-threads.md). */
enum { STRIP_ROWS = 128, STRIP_COLS = 256, NARROW = 128 };

static lapack_int min_lines(lapack_int a, lapack_int b)
{
    return a < b ? a : b;
}

/* Whether C (m x n) from an inner dimension k goes in strips: the vector
 * kernels only (the portable one is no match for the BLAS), C narrow and
 * tall, the inner dimension long. */
static int strips_apply(lapack_int m, lapack_int n, lapack_int k)
{
    return GL_FN(tile_gemm_vector)() && m >= 2 * STRIP_ROWS &&
           n >= GL_FN(tile_gemm_cols)() && n <= NARROW && k >= STRIP_COLS;
}

/* C (rows x n) += A B, A rows x k in place */
static void strip_plain(lapack_int rows, lapack_int n, lapack_int k,
                        const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                        lapack_int ldb, gl_scalar *c, lapack_int ldc)
{
    for (lapack_int p = 0; p < k; p += STRIP_COLS) {
        lapack_int cols = min_lines(STRIP_COLS, k - p);
        GL_FN(tile_gemm)(rows, n, cols, GL_TILE_ADD, a + (size_t)p * lda, lda,
                         rows, cols, b + p, ldb, c, ldc);
    }
}

/* C (rows x n) = A^H B (mode GL_TILE_SET) or C + A^H B (GL_TILE_ADD), A k x
 * rows in place, from bh = B^H (n x k, leading dimension n) through ch
 * (n x rows) = B^H A */
static void strip_adjoint(lapack_int rows, lapack_int n, lapack_int k,
                          int mode, const gl_scalar *a, lapack_int lda,
                          const gl_scalar *bh, gl_scalar *ch, gl_scalar *c,
                          lapack_int ldc)
{
    for (lapack_int p = 0; p < k; p += STRIP_COLS) {
        lapack_int cols = min_lines(STRIP_COLS, k - p);
        GL_FN(tile_gemm)(n, rows, cols, p == 0 ? GL_TILE_SET : GL_TILE_ADD,
                         bh + (size_t)p * n, n, n, cols, a + p, lda, ch, n);
    }
    if (mode == GL_TILE_SET)
        GL_FN(conj_transpose)(n, rows, ch, n, c, ldc);
    else
        GL_FN(add_conj_transpose)(n, rows, ch, n, c, ldc);
}

typedef struct adjoint_job {
    lapack_int rows, cols, per, ld;
    const gl_scalar *src;
    gl_scalar *dst;
} adjoint_job;

static int adjoint_piece(void *arg, long i)
{
    const adjoint_job *j = arg;
    lapack_int r0 = (lapack_int)i * j->per,
               rows = min_lines(j->per, j->rows - r0);
    GL_FN(conj_transpose)(rows, j->cols, j->src + r0, j->ld,
                          j->dst + (size_t)r0 * j->cols, j->cols);
    return 0;
}

/* dst (cols x rows, leading dimension cols) = src^H on the run's threads */
static void team_adjoint(const GL_FN(ops) *run, int threads, lapack_int rows,
                         lapack_int cols, const gl_scalar *src, lapack_int ld,
                         gl_scalar *dst)
{
    adjoint_job job = {.rows = rows,
                       .cols = cols,
                       .per = min_lines(STRIP_COLS, rows),
                       .ld = ld,
                       .src = src,
                       .dst = dst};
    gl_team_run(run->product_team, pieces_of(rows, job.per), threads,
                adjoint_piece, &job);
}

/* A product's strips of C (m x n) from an inner dimension k: B^H (n x k,
 * formed here on `threads` of the run's) and room for C^H (n x m) after
 * it, and the rows of each strip in *per; NULL without memory.  The
 * caller frees it with gl_host_free. */
static gl_scalar *strips_begin(const GL_FN(ops) *run, int threads,
                               lapack_int m, lapack_int n, lapack_int k,
                               const gl_scalar *b, lapack_int ldb,
                               lapack_int *per)
{
    gl_scalar *work =
        gl_host_alloc(sizeof *work * (size_t)n * ((size_t)k + (size_t)m));
    if (work) {
        team_adjoint(run, threads, k, n, b, ldb, work);
        *per = min_lines(STRIP_ROWS, piece_lines(m, threads));
    }
    return work;
}

/* ---- C = alpha op(A) op(B) + beta C ---------------------------------- */

typedef struct gemm_job {
    char ta, tb, split; /* split: 'm' rows of C, 'n' columns, 'k' inner */
    lapack_int m, n, k, per, lda, ldb, ldc;
    gl_scalar alpha, beta;
    const gl_scalar *a, *b;
    gl_scalar *c;
    gl_scalar *partial; /* 'k': one m x n block per piece */
    gl_scalar *bh, *ch; /* gemm_strip: B^H (n x k) and C^H (n x m) */
} gemm_job;

static int gemm_piece(void *arg, long i)
{
    const gemm_job *j = arg;
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int lo = (lapack_int)i * j->per;
    lapack_int m = j->m, n = j->n, k = j->k, ldc = j->ldc;
    const gl_scalar *a = j->a, *b = j->b;
    gl_scalar *c = j->c, beta = j->beta, alpha = j->alpha;
    if (j->split == 'm') {
        m = m - lo < j->per ? m - lo : j->per;
        a += j->ta == 'N' ? (size_t)lo : (size_t)lo * j->lda;
        c += lo;
    } else if (j->split == 'n') {
        n = n - lo < j->per ? n - lo : j->per;
        b += j->tb == 'N' ? (size_t)lo * j->ldb : (size_t)lo;
        c += (size_t)lo * ldc;
    } else {
        k = k - lo < j->per ? k - lo : j->per;
        a += j->ta == 'N' ? (size_t)lo * j->lda : (size_t)lo;
        b += j->tb == 'N' ? (size_t)lo : (size_t)lo * j->ldb;
        c = j->partial + (size_t)i * m * n;
        ldc = m;
        alpha = 1;
        beta = 0;
    }
    f->gemm(&j->ta, &j->tb, &m, &n, &k, &alpha, a, &j->lda, b, &j->ldb, &beta,
            c, &ldc, 1, 1);
    return 0;
}

/* Rows i0..i1 of C = A^H B (beta 0) or C + A^H B (beta 1) */
static int gemm_strip(void *arg, long i)
{
    const gemm_job *j = arg;
    lapack_int i0 = (lapack_int)i * j->per,
               rows = min_lines(j->per, j->m - i0);
    strip_adjoint(rows, j->n, j->k, j->beta == 0 ? GL_TILE_SET : GL_TILE_ADD,
                  j->a + (size_t)i0 * j->lda, j->lda, j->bh,
                  j->ch + (size_t)i0 * j->n, j->c + i0, j->ldc);
    return 0;
}

/* C = A^H B + beta C (beta 0 or 1) in strips by the tile kernel on
 * `threads` of the run's; 1 where they do not apply or there is no
 * memory for B^H and C^H.  A B goes to the BLAS: the kernel's plain
 * strips, A's rows read across its columns, ran at OpenBLAS's rate. */
static int gemm_strips(const GL_FN(ops) *run, gemm_job *job, int threads)
{
    int adjoint = job->ta == 'C' || (!GL_COMPLEX && job->ta == 'T');
    if (!adjoint || job->tb != 'N' || job->alpha != 1 ||
        (job->beta != 0 && job->beta != 1) ||
        !strips_apply(job->m, job->n, job->k))
        return 1;
    gl_scalar *work = strips_begin(run, threads, job->m, job->n, job->k,
                                   job->b, job->ldb, &job->per);
    if (!work)
        return 1;
    job->bh = work;
    job->ch = work + (size_t)job->n * (size_t)job->k;
    gl_team_run(run->product_team, pieces_of(job->m, job->per), threads,
                gemm_strip, job);
    gl_host_free(work);
    return 0;
}

/* gl_s_products_gemm gl_d_products_gemm gl_c_products_gemm gl_z_products_gemm */
int GL_FN(products_gemm)(const GL_FN(ops) *run, char ta, char tb, lapack_int m,
                         lapack_int n, lapack_int k, gl_scalar alpha,
                         const gl_scalar *a, lapack_int lda,
                         const gl_scalar *b, lapack_int ldb, gl_scalar beta,
                         gl_scalar *c, lapack_int ldc)
{
    int threads =
        product_threads(run->product_threads, 2.0 * WEIGHT * m * n * k);
    gemm_job job = {.ta = ta,
                    .tb = tb,
                    .m = m,
                    .n = n,
                    .k = k,
                    .lda = lda,
                    .ldb = ldb,
                    .ldc = ldc,
                    .alpha = alpha,
                    .beta = beta,
                    .a = a,
                    .b = b,
                    .c = c};
    if (run->product_threads >= 1 && gemm_strips(run, &job, threads) == 0)
        return 0;
    if (threads <= 1 || k <= 0)
        return 1;
    /* the longer side of C, else (C a small block, as V^H X) the inner
     * dimension, each piece into a block of its own, summed after */
    lapack_int longer = m > n ? m : n;
    if (longer >= 2 * PIECE_LINES) {
        job.split = m >= n ? 'm' : 'n';
        job.per = piece_lines(longer, threads);
    } else if (k >= 4 * PIECE_LINES) {
        job.split = 'k';
        job.per = piece_lines(k, threads);
    } else {
        return 1;
    }
    lapack_int pieces = pieces_of(job.split == 'k' ? k : longer, job.per);
    if (job.split == 'k') {
        job.partial = gl_host_alloc(sizeof *job.partial * (size_t)pieces *
                                    (size_t)m * (size_t)n);
        if (!job.partial)
            return 1;
    }
    gl_team_run(run->product_team, pieces, threads, gemm_piece, &job);
    if (job.split == 'k') {
        for (lapack_int q = 0; q < n; q++)
            for (lapack_int p = 0; p < m; p++) {
                gl_scalar sum = 0;
                for (lapack_int i = 0; i < pieces; i++)
                    sum += job.partial[(size_t)i * m * n + p + (size_t)q * m];
                gl_scalar *cpq = c + p + (size_t)q * ldc;
                *cpq = alpha * sum + (beta == 0 ? 0 : beta * *cpq);
            }
        gl_host_free(job.partial);
    }
    return 0;
}

/* ---- C = alpha A B + beta C, A Hermitian (side L), or B A (side R) --- */

/* gl_s_hemm_left gl_d_hemm_left gl_c_hemm_left gl_z_hemm_left */
void GL_FN(hemm_left)(char uplo, lapack_int m, lapack_int n, gl_scalar alpha,
                      const gl_scalar *a, lapack_int lda, const gl_scalar *b,
                      lapack_int ldb, gl_scalar beta, gl_scalar *c,
                      lapack_int ldc)
{
    enum { PANEL = 256 };
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    if (m < 2 * PANEL) {
        f->hemm("L", &uplo, &m, &n, &alpha, a, &lda, b, &ldb, &beta, c, &ldc,
                1, 1);
        return;
    }
    for (lapack_int j = 0; j < n; j++) /* beta = 0: C is not read */
        for (lapack_int i = 0; i < m; i++)
            c[i + (size_t)j * ldc] =
                beta == 0 ? 0 : beta * c[i + (size_t)j * ldc];
    gl_scalar one = 1;
    for (lapack_int j0 = 0; j0 < m; j0 += PANEL) {
        lapack_int jb = m - j0 < PANEL ? m - j0 : PANEL, i0 = j0 + jb,
                   rest = m - i0;
        const gl_scalar *ajj = a + j0 + (size_t)j0 * lda;
        f->hemm("L", &uplo, &jb, &n, &alpha, ajj, &lda, b + j0, &ldb, &one,
                c + j0, &ldc, 1, 1);
        if (rest == 0)
            continue;
        /* the off-diagonal part of the panel: A(i0:m, j0:i0) stored ('L')
         * or A(j0:i0, i0:m) stored ('U') */
        int lower = uplo == 'L';
        const gl_scalar *off =
            lower ? a + i0 + (size_t)j0 * lda : a + j0 + (size_t)i0 * lda;
        f->gemm(lower ? "N" : "C", "N", &rest, &n, &jb, &alpha, off, &lda,
                b + j0, &ldb, &one, c + i0, &ldc, 1, 1);
        f->gemm(lower ? "C" : "N", "N", &jb, &n, &rest, &alpha, off, &lda,
                b + i0, &ldb, &one, c + j0, &ldc, 1, 1);
    }
}

typedef struct hemm_job {
    char side, uplo;
    lapack_int m, n, per, lda, ldb, ldc;
    gl_scalar alpha, beta;
    const gl_scalar *a, *b;
    gl_scalar *c;
    gl_scalar *bh, *ch; /* hemm_strip: B^H and C^H (n x m each), or NULL */
} hemm_job;

/* Rows i0..i1 of C.  From the left, row i of A is its stored part
 * before the diagonal block, the block, and the conjugate of the stored
 * column below it ('L'; the other way round for 'U'). */
static int hemm_piece(void *arg, long i)
{
    const hemm_job *j = arg;
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int i0 = (lapack_int)i * j->per;
    lapack_int rows = j->m - i0 < j->per ? j->m - i0 : j->per;
    lapack_int i1 = i0 + rows, rest = j->m - i1, lda = j->lda;
    gl_scalar one = 1, beta = j->beta;
    gl_scalar *c = j->c + i0;
    if (j->side == 'R') {
        f->hemm("R", &j->uplo, &rows, &j->n, &j->alpha, j->a, &lda, j->b + i0,
                &j->ldb, &beta, c, &j->ldc, 1, 1);
        return 0;
    }
    int lower = j->uplo == 'L';
    const gl_scalar *a = j->a;
    if (i0 > 0) { /* A(i0:i1, 0:i0) */
        f->gemm(lower ? "N" : "C", "N", &rows, &j->n, &i0, &j->alpha,
                lower ? a + i0 : a + (size_t)i0 * lda, &lda, j->b, &j->ldb,
                &beta, c, &j->ldc, 1, 1);
        beta = one;
    }
    GL_FN(hemm_left)(j->uplo, rows, j->n, j->alpha, a + i0 + (size_t)i0 * lda,
                     lda, j->b + i0, j->ldb, beta, c, j->ldc);
    if (rest > 0) /* A(i0:i1, i1:m) */
        f->gemm(lower ? "C" : "N", "N", &rows, &j->n, &rest, &j->alpha,
                lower ? a + i1 + (size_t)i0 * lda : a + i0 + (size_t)i1 * lda,
                &lda, j->b + i1, &j->ldb, &one, c, &j->ldc, 1, 1);
    return 0;
}

/* Rows i0..i1 of C: the diagonal block by ?hemm (with beta), then
 * A(i0:i1, 0:i0) B(0:i0) and (B(i1:m)^H A(i1:m, i0:i1))^H. */
static int hemm_strip(void *arg, long i)
{
    const hemm_job *j = arg;
    lapack_int m = j->m, n = j->n, lda = j->lda, ldc = j->ldc,
               i0 = (lapack_int)i * j->per, rows = min_lines(j->per, m - i0),
               i1 = i0 + rows;
    const gl_scalar *a = j->a;
    gl_scalar *c = j->c + i0;
    GL_FN(lapack_fns_get)()->hemm("L", "L", &rows, &n, &j->alpha,
                                  a + i0 + (size_t)i0 * lda, &lda, j->b + i0,
                                  &j->ldb, &j->beta, c, &ldc, 1, 1);
    strip_plain(rows, n, i0, a + i0, lda, j->b, j->ldb, c, ldc);
    if (i1 < m)
        strip_adjoint(rows, n, m - i1, GL_TILE_ADD, a + i1 + (size_t)i0 * lda,
                      lda, j->bh + (size_t)i1 * n, j->ch + (size_t)i0 * n, c,
                      ldc);
    return 0;
}

/* C = A B + beta C from the left, A in its lower triangle, in strips by
 * the tile kernel (above) on `threads` of the run's; 1 where they do not
 * apply (strips_apply) or there is no memory for B^H and C^H. */
static int hemm_strips(const GL_FN(ops) *run, hemm_job *job, int threads)
{
    if (!strips_apply(job->m, job->n, job->m))
        return 1;
    gl_scalar *work = strips_begin(run, threads, job->m, job->n, job->m,
                                   job->b, job->ldb, &job->per);
    if (!work)
        return 1;
    job->bh = work;
    job->ch = work + (size_t)job->m * (size_t)job->n;
    gl_team_run(run->product_team, pieces_of(job->m, job->per), threads,
                hemm_strip, job);
    gl_host_free(work);
    return 0;
}

/* gl_s_products_hemm gl_d_products_hemm gl_c_products_hemm gl_z_products_hemm */
int GL_FN(products_hemm)(const GL_FN(ops) *run, char side, char uplo,
                         lapack_int m, lapack_int n, gl_scalar alpha,
                         const gl_scalar *a, lapack_int lda,
                         const gl_scalar *b, lapack_int ldb, gl_scalar beta,
                         gl_scalar *c, lapack_int ldc)
{
    lapack_int order = side == 'L' ? m : n;
    int threads = product_threads(run->product_threads,
                                  2.0 * WEIGHT * m * n * (double)order);
    hemm_job job = {.side = side,
                    .uplo = uplo,
                    .m = m,
                    .n = n,
                    .lda = lda,
                    .ldb = ldb,
                    .ldc = ldc,
                    .alpha = alpha,
                    .beta = beta,
                    .a = a,
                    .b = b,
                    .c = c};
    if (run->product_threads >= 1 && side == 'L' && uplo == 'L' &&
        alpha == 1 && hemm_strips(run, &job, threads) == 0)
        return 0;
    if (threads <= 1 || m < 2 * PIECE_LINES)
        return 1;
    job.per = piece_lines(m, threads);
    gl_team_run(run->product_team, pieces_of(m, job.per), threads, hemm_piece,
                &job);
    return 0;
}

/* ---- C = alpha A B^H + conj(alpha) B A^H + beta C, C Hermitian ------- */

typedef struct her2k_job {
    char uplo, trans;
    lapack_int n, k, per, pieces, lda, ldb, ldc;
    lapack_int origin; /* the pieces' first column ('L'; her2k_ahead) */
    gl_scalar alpha;
    gl_real beta;
    const gl_scalar *a, *b;
    gl_scalar *c;
} her2k_job;

/* Columns j0..j1 of C's stored triangle: the diagonal block, then the
 * rest of those columns as two products.  The pieces with the longest
 * columns go first. */
static void her2k_columns(const her2k_job *j, lapack_int j0, lapack_int cols)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    int lower = j->uplo == 'L', notrans = j->trans == 'N';
    lapack_int j1 = j0 + cols, lda = j->lda, ldb = j->ldb, ldc = j->ldc;
    /* row or column r of op(A) / op(B): A is n x k ('N') or k x n */
    size_t sa = notrans ? 1 : (size_t)lda, sb = notrans ? 1 : (size_t)ldb;
    const gl_scalar *a = j->a, *b = j->b;
    f->her2k(&j->uplo, &j->trans, &cols, &j->k, &j->alpha, a + j0 * sa, &lda,
             b + j0 * sb, &ldb, &j->beta, j->c + j0 + (size_t)j0 * ldc, &ldc,
             1, 1);
    lapack_int r0 = lower ? j1 : 0, rows = lower ? j->n - j1 : j0;
    if (rows == 0)
        return;
    const char *ta = notrans ? "N" : "C", *tb = notrans ? "C" : "N";
    gl_scalar beta = j->beta, one = 1, alpha_conj = conj_of(j->alpha);
    gl_scalar *c = j->c + r0 + (size_t)j0 * ldc;
    f->gemm(ta, tb, &rows, &cols, &j->k, &j->alpha, a + r0 * sa, &lda,
            b + j0 * sb, &ldb, &beta, c, &ldc, 1, 1);
    f->gemm(ta, tb, &rows, &cols, &j->k, &alpha_conj, b + r0 * sb, &ldb,
            a + j0 * sa, &lda, &one, c, &ldc, 1, 1);
}

static int her2k_piece(void *arg, long i)
{
    const her2k_job *j = arg;
    lapack_int piece =
        j->uplo == 'L' ? (lapack_int)i : j->pieces - 1 - (lapack_int)i;
    lapack_int j0 = j->origin + piece * j->per;
    her2k_columns(j, j0, j->n - j0 < j->per ? j->n - j0 : j->per);
    return 0;
}

/* The job of her2k's columns from `origin` on, for `threads`: smaller
 * pieces than the other products', whose work shrinks along the
 * triangle. */
static her2k_job her2k_job_of(char uplo, char trans, lapack_int n,
                              lapack_int k, gl_scalar alpha,
                              const gl_scalar *a, lapack_int lda,
                              const gl_scalar *b, lapack_int ldb, gl_real beta,
                              gl_scalar *c, lapack_int ldc, lapack_int origin,
                              int threads)
{
    lapack_int per = piece_lines(n - origin, 2 * threads);
    return (her2k_job){.uplo = uplo,
                       .trans = trans,
                       .n = n,
                       .k = k,
                       .per = per,
                       .pieces = pieces_of(n - origin, per),
                       .lda = lda,
                       .ldb = ldb,
                       .ldc = ldc,
                       .origin = origin,
                       .alpha = alpha,
                       .beta = beta,
                       .a = a,
                       .b = b,
                       .c = c};
}

/* gl_s_products_her2k gl_d_products_her2k gl_c_products_her2k gl_z_products_her2k */
int GL_FN(products_her2k)(const GL_FN(ops) *run, char uplo, char trans,
                          lapack_int n, lapack_int k, gl_scalar alpha,
                          const gl_scalar *a, lapack_int lda,
                          const gl_scalar *b, lapack_int ldb, gl_real beta,
                          gl_scalar *c, lapack_int ldc)
{
    int threads =
        product_threads(run->product_threads, 2.0 * WEIGHT * n * n * k);
    if (threads <= 1 || n < 2 * PIECE_LINES || k <= 0)
        return 1;
    her2k_job job = her2k_job_of(uplo, trans, n, k, alpha, a, lda, b, ldb,
                                 beta, c, ldc, 0, threads);
    gl_team_run(run->product_team, job.pieces, threads, her2k_piece, &job);
    return 0;
}

/* Piece i, of `per` lines, of a product that acts on x (m x n, ld) from
 * the left (side L: its columns, each alone) or the right (its rows):
 * the piece's first element, *m and *n its size. */
static gl_scalar *side_piece(char side, long i, lapack_int per, lapack_int *m,
                             lapack_int *n, gl_scalar *x, lapack_int ld)
{
    lapack_int lo = (lapack_int)i * per;
    if (side == 'L') {
        *n = *n - lo < per ? *n - lo : per;
        return x + (size_t)lo * ld;
    }
    *m = *m - lo < per ? *m - lo : per;
    return x + lo;
}

/* ---- B = alpha op(T) B (side L) or alpha B op(T) (side R) ------------ */

typedef struct trmm_job {
    char side, uplo, trans, diag;
    lapack_int m, n, per, lda, ldb;
    gl_scalar alpha;
    const gl_scalar *a;
    gl_scalar *b;
} trmm_job;

static int trmm_piece(void *arg, long i)
{
    const trmm_job *j = arg;
    lapack_int m = j->m, n = j->n;
    gl_scalar *b = side_piece(j->side, i, j->per, &m, &n, j->b, j->ldb);
    GL_FN(lapack_fns_get)()->trmm(&j->side, &j->uplo, &j->trans, &j->diag, &m,
                                  &n, &j->alpha, j->a, &j->lda, b, &j->ldb, 1,
                                  1, 1, 1);
    return 0;
}

/* gl_s_products_trmm gl_d_products_trmm gl_c_products_trmm gl_z_products_trmm */
int GL_FN(products_trmm)(const GL_FN(ops) *run, char side, char uplo,
                         char trans, char diag, lapack_int m, lapack_int n,
                         gl_scalar alpha, const gl_scalar *a, lapack_int lda,
                         gl_scalar *b, lapack_int ldb)
{
    lapack_int order = side == 'L' ? m : n, lines = side == 'L' ? n : m;
    int threads = product_threads(run->product_threads,
                                  1.0 * WEIGHT * m * n * (double)order);
    if (threads <= 1 || lines < 2 * PIECE_LINES)
        return 1;
    trmm_job job = {.side = side,
                    .uplo = uplo,
                    .trans = trans,
                    .diag = diag,
                    .m = m,
                    .n = n,
                    .lda = lda,
                    .ldb = ldb,
                    .alpha = alpha,
                    .a = a,
                    .b = b,
                    .per = piece_lines(lines, threads)};
    gl_team_run(run->product_team, pieces_of(lines, job.per), threads,
                trmm_piece, &job);
    return 0;
}

/* ---- C = H C, H^H C (side L) or C H, C H^H (side R), H = I - V T V^H -- */

typedef struct larfb_job {
    const GL_FN(ops) *ops;
    char side, trans, storev;
    lapack_int m, n, k, per, ldv, ldt, ldc;
    const gl_scalar *v, *t;
    gl_scalar *c;
    GL_FN(larfb_fn) *whole;
} larfb_job;

static int larfb_piece(void *arg, long i)
{
    const larfb_job *j = arg;
    lapack_int m = j->m, n = j->n;
    gl_scalar *c = side_piece(j->side, i, j->per, &m, &n, j->c, j->ldc);
    return j->whole(j->ops, j->side, j->trans, j->storev, m, n, j->k, j->v,
                    j->ldv, j->t, j->ldt, c, j->ldc);
}

/* gl_s_products_larfb gl_d_products_larfb gl_c_products_larfb gl_z_products_larfb */
int GL_FN(products_larfb)(const GL_FN(ops) *ops, GL_FN(larfb_fn) *whole,
                          char side, char trans, char storev, lapack_int m,
                          lapack_int n, lapack_int k, const gl_scalar *v,
                          lapack_int ldv, const gl_scalar *t, lapack_int ldt,
                          gl_scalar *c, lapack_int ldc)
{
    lapack_int lines = side == 'L' ? n : m;
    int threads =
        product_threads(ops->product_threads, 4.0 * WEIGHT * m * n * k);
    if (threads <= 1 || lines < 2 * PIECE_LINES)
        return 1;
    /* each piece's products whole */
    GL_FN(ops) whole_products = *ops;
    whole_products.product_threads = 1;
    larfb_job job = {.ops = &whole_products,
                     .side = side,
                     .trans = trans,
                     .storev = storev,
                     .m = m,
                     .n = n,
                     .k = k,
                     .ldv = ldv,
                     .ldt = ldt,
                     .ldc = ldc,
                     .v = v,
                     .t = t,
                     .c = c,
                     .whole = whole,
                     .per = piece_lines(lines, threads)};
    return gl_team_run(ops->product_team, pieces_of(lines, job.per), threads,
                       larfb_piece, &job) == 0
               ? 0
               : -1;
}

/* ---- lookahead: an update's first lines, then a task beside the rest --
 * A stage's next panel lies in the first lines of the update before it
 * (ops.h larfb_ahead, her2k_ahead).  Its factorization is a chain of
 * small steps on one thread, stage 1's only serial part (n = 4000, one
 * thread: 0.05 s of sy2sb's 1.86 s, 0.13 s of ge2gb's 3.65 s): beside
 * the rest of the update, the other threads do not wait for it. */

typedef struct ahead_task {
    const GL_FN(ops) *ops; /* the task's table: its products whole */
    GL_FN(ops_task) *fn;
    void *arg;
    int rc;
} ahead_task;

static void run_task(ahead_task *task)
{
    task->rc = task->fn(task->ops, task->arg);
}

typedef struct her2k_ahead_job {
    her2k_job her2k;
    lapack_int ahead;
    ahead_task task;
} her2k_ahead_job;

/* item 0: the first columns, then the task; the others: the pieces of
 * the rest */
static int her2k_ahead_item(void *arg, long i)
{
    her2k_ahead_job *j = arg;
    if (i > 0)
        return her2k_piece(&j->her2k, i - 1);
    her2k_columns(&j->her2k, 0, j->ahead);
    run_task(&j->task);
    return 0;
}

/* gl_s_products_her2k_ahead gl_d_products_her2k_ahead gl_c_products_her2k_ahead gl_z_products_her2k_ahead */
int GL_FN(products_her2k_ahead)(const GL_FN(ops) *ops, char uplo, char trans,
                                lapack_int n, lapack_int k, gl_scalar alpha,
                                const gl_scalar *a, lapack_int lda,
                                const gl_scalar *b, lapack_int ldb,
                                gl_real beta, gl_scalar *c, lapack_int ldc,
                                lapack_int ahead, GL_FN(ops_task) *task,
                                void *arg)
{
    int threads =
        product_threads(ops->product_threads, 2.0 * WEIGHT * n * n * k);
    lapack_int rest = n - ahead;
    if (threads <= 1 || uplo != 'L' || trans != 'N' || ahead < 1 ||
        rest < 2 * PIECE_LINES || k <= 0)
        return 1;
    GL_FN(ops) whole = *ops;
    whole.product_threads = 1;
    her2k_ahead_job job = {.her2k = her2k_job_of(uplo, trans, n, k, alpha, a,
                                                 lda, b, ldb, beta, c, ldc,
                                                 ahead, threads),
                           .ahead = ahead,
                           .task = {.ops = &whole, .fn = task, .arg = arg}};
    gl_team_run(ops->product_team, 1 + job.her2k.pieces, threads,
                her2k_ahead_item, &job);
    return job.task.rc;
}

/* larfb in two runs, as LAPACK's ?larfb splits it (C1: C's first k
 * lines, V1 their part of V): first each piece's W (side L: W = C^H V
 * T' for its columns, T' = T or T^H; side R: W = C V^H T' for its rows)
 * and its part of C1 (C1 -= (W V1^H)^H, or W V1), then the task beside
 * the pieces' C2 -= V2 W^H (side L) or W V2 (side R). */
typedef struct larfb_ahead_job {
    char side, trans;
    lapack_int m, n, k, ldv, ldt, ldc, ldw;
    lapack_int per[2]; /* the lines of each run's pieces */
    const gl_scalar *v, *t;
    gl_scalar *c;
    gl_scalar *w, *s; /* lines x k each (ld ldw): W, and W V1^H or W V1 */
    /* side L in strips (strips_apply): V2^H (k x m - k) and W's pieces'
     * adjoints (k x lines); else NULL */
    gl_scalar *vh, *wh;
    ahead_task task;
} larfb_ahead_job;

/* piece i of run r's: its first line, their count, its part of C */
static gl_scalar *ahead_piece(const larfb_ahead_job *j, int r, long i,
                              lapack_int *lo, lapack_int *count)
{
    lapack_int lines = j->side == 'L' ? j->n : j->m, per = j->per[r];
    *lo = (lapack_int)i * per;
    *count = lines - *lo < per ? lines - *lo : per;
    return j->side == 'L' ? j->c + (size_t)*lo * j->ldc : j->c + *lo;
}

static int larfb_ahead_first(void *arg, long i)
{
    const larfb_ahead_job *j = arg;
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int lo, cnt, k = j->k, ldw = j->ldw, ldv = j->ldv, ldt = j->ldt,
                        ldc = j->ldc;
    gl_scalar *c = ahead_piece(j, 0, i, &lo, &cnt), *w = j->w + lo,
              *s = j->s + lo, one = 1;
    const gl_scalar *v = j->v;
    if (j->side == 'L') {
        lapack_int rest = j->m - k;
        GL_FN(conj_transpose)(k, cnt, c, ldc, w, ldw); /* W = C1^H */
        f->trmm("R", "L", "N", "U", &cnt, &k, &one, v, &ldv, w, &ldw, 1, 1, 1,
                1);
        if (j->vh)
            strip_adjoint(cnt, k, rest, GL_TILE_ADD, c + k, ldc, j->vh,
                          j->wh + (size_t)lo * k, w, ldw);
        else if (rest > 0)
            f->gemm("C", "N", &cnt, &k, &rest, &one, c + k, &ldc, v + k, &ldv,
                    &one, w, &ldw, 1, 1);
        f->trmm("R", "U", j->trans == 'N' ? "C" : "N", "N", &cnt, &k, &one,
                j->t, &ldt, w, &ldw, 1, 1, 1, 1);
    } else {
        lapack_int rest = j->n - k;
        for (lapack_int q = 0; q < k; q++) /* W = C1 */
            for (lapack_int p = 0; p < cnt; p++)
                w[p + (size_t)q * ldw] = c[p + (size_t)q * ldc];
        f->trmm("R", "U", "C", "U", &cnt, &k, &one, v, &ldv, w, &ldw, 1, 1, 1,
                1);
        if (rest > 0)
            f->gemm("N", "C", &cnt, &k, &rest, &one, c + (size_t)k * ldc, &ldc,
                    v + (size_t)k * ldv, &ldv, &one, w, &ldw, 1, 1);
        f->trmm("R", "U", j->trans == 'N' ? "N" : "C", "N", &cnt, &k, &one,
                j->t, &ldt, w, &ldw, 1, 1, 1, 1);
    }
    for (lapack_int q = 0; q < k; q++)
        for (lapack_int p = 0; p < cnt; p++)
            s[p + (size_t)q * ldw] = w[p + (size_t)q * ldw];
    if (j->side == 'L') {
        f->trmm("R", "L", "C", "U", &cnt, &k, &one, v, &ldv, s, &ldw, 1, 1, 1,
                1);
        GL_FN(sub_conj_transpose)(cnt, k, s, ldw, c, ldc); /* C1 -= S^H */
    } else {
        f->trmm("R", "U", "N", "U", &cnt, &k, &one, v, &ldv, s, &ldw, 1, 1, 1,
                1);
        for (lapack_int q = 0; q < k; q++) /* C1 -= S */
            for (lapack_int p = 0; p < cnt; p++)
                c[p + (size_t)q * ldc] -= s[p + (size_t)q * ldw];
    }
    return 0;
}

/* item 0: the task; item i: the C2 of the pieces from the last on,
 * whose C the first run read last and the cache may still hold */
static int larfb_ahead_rest(void *arg, long i)
{
    larfb_ahead_job *j = arg;
    if (i == 0) {
        run_task(&j->task);
        return 0;
    }
    lapack_int lines = j->side == 'L' ? j->n : j->m;
    i = pieces_of(lines, j->per[1]) - i;
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    lapack_int lo, cnt, k = j->k, ldw = j->ldw, ldv = j->ldv, ldc = j->ldc;
    gl_scalar *c = ahead_piece(j, 1, i, &lo, &cnt), *w = j->w + lo, one = 1,
              minus = -1;
    if (j->side == 'L') {
        lapack_int rest = j->m - k;
        if (rest > 0)
            f->gemm("N", "C", &rest, &cnt, &k, &minus, j->v + k, &ldv, w, &ldw,
                    &one, c + k, &ldc, 1, 1);
    } else {
        lapack_int rest = j->n - k;
        if (rest > 0)
            f->gemm("N", "N", &cnt, &rest, &k, &minus, w, &ldw,
                    j->v + (size_t)k * ldv, &ldv, &one, c + (size_t)k * ldc,
                    &ldc, 1, 1);
    }
    return 0;
}

/* gl_s_products_larfb_ahead gl_d_products_larfb_ahead gl_c_products_larfb_ahead gl_z_products_larfb_ahead */
int GL_FN(products_larfb_ahead)(const GL_FN(ops) *ops, char side, char trans,
                                char storev, lapack_int m, lapack_int n,
                                lapack_int k, const gl_scalar *v,
                                lapack_int ldv, const gl_scalar *t,
                                lapack_int ldt, gl_scalar *c, lapack_int ldc,
                                GL_FN(ops_task) *task, void *arg)
{
    lapack_int lines = side == 'L' ? n : m, order = side == 'L' ? m : n;
    int threads =
        product_threads(ops->product_threads, 4.0 * WEIGHT * m * n * k);
    if (threads <= 1 || lines < 2 * PIECE_LINES || k < 1 || order < k ||
        storev != (side == 'L' ? 'C' : 'R'))
        return 1;
    /* W = C^H V from the left: C2^H V2 in strips where they apply */
    int strips = side == 'L' && strips_apply(lines, k, m - k);
    size_t extra = strips ? (size_t)k * ((size_t)(m - k) + (size_t)lines) : 0;
    gl_scalar *w =
        gl_host_alloc(sizeof *w * (2 * (size_t)lines * (size_t)k + extra));
    if (!w)
        return 1;
    GL_FN(ops) whole = *ops;
    whole.product_threads = 1;
    /* the second run's pieces half as long: one thread starts it with
     * the task */
    larfb_ahead_job job = {
        .side = side,
        .trans = trans,
        .m = m,
        .n = n,
        .k = k,
        .per = {piece_lines(lines, threads), piece_lines(lines, 2 * threads)},
        .ldv = ldv,
        .ldt = ldt,
        .ldc = ldc,
        .ldw = lines,
        .v = v,
        .t = t,
        .c = c,
        .w = w,
        .s = w + (size_t)lines * (size_t)k,
        .task = {.ops = &whole, .fn = task, .arg = arg}};
    if (strips) {
        job.vh = job.s + (size_t)lines * (size_t)k;
        job.wh = job.vh + (size_t)k * (size_t)(m - k);
        team_adjoint(ops, threads, m - k, k, v + k, ldv, job.vh);
    }
    gl_team_run(ops->product_team, pieces_of(lines, job.per[0]), threads,
                larfb_ahead_first, &job);
    gl_team_run(ops->product_team, 1 + pieces_of(lines, job.per[1]), threads,
                larfb_ahead_rest, &job);
    gl_host_free(w);
    return job.task.rc;
}

/* gl_s_host_sy2sb_on gl_d_host_sy2sb_on gl_c_host_sy2sb_on gl_z_host_sy2sb_on */
int GL_FN(host_sy2sb_on)(lapack_int n, lapack_int b, gl_scalar *a,
                         lapack_int lda, int threads)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    if (!f)
        return -1;
    GL_FN(ops) table = GL_FN(host_ops);   /* no context: one device */
    GL_FN(ops_products_mode)(&table);     /* the products as a call's */
    /* this run of products, started and ended here, not by sy2sb */
    table.products_begin = NULL;
    table.product_threads = gl_products_begin(&f->blas_threads, threads);
    table.product_team = gl_team_start(table.product_threads);
    int rc = GL_FN(sy2sb)(&table, n, b, b, 0, a, lda, NULL, NULL);
    gl_team_stop(table.product_team);
    gl_products_end(table.product_threads);
    return rc;
}
