/* Transfers of the CUDA and HIP runtime (cudalike.h): host <-> device
 * through a context's two page-locked staging halves, device copies, and
 * reads beside later work on a second stream. */
#include <string.h>

#include "../fault.h"
#include "../log.h"
#include "../memory.h"
#include "../parallel.h"
#include "cudalike.h"

/* ---- staging and scratch --------------------------------------------------- */

/* Transfers are staged through two halves of page-locked memory: the host
 * packs one half while the other is copied by DMA.  A context that moves a
 * large matrix gets larger halves (kept for the context), so that the
 * per-chunk costs (a wait, the start of the host copy's threads) stay
 * small beside the chunk's DMA. */
enum {
    STAGE_BYTES = 16 << 20,
    LARGE_STAGE_BYTES = 64 << 20,
    LARGE_TRANSFER_BYTES = 256 << 20
};

/* The context's two staging halves of at least bytes each (one column of
 * a transfer of total bytes in all). */
static int staging(queue_state *q, size_t bytes, size_t total)
{
    size_t want = total >= LARGE_TRANSFER_BYTES ? LARGE_STAGE_BYTES : STAGE_BYTES;
    if (want < bytes)
        want = bytes;
    if (want <= q->stage_bytes)
        return 0;
    drv_stream_sync(q->stream);
    for (int h = 0; h < 2; h++)
        if (q->stage[h]) {
            drv_host_free(q->stage[h]);
            q->stage[h] = NULL;
        }
    q->stage_bytes = 0;
    for (int h = 0; h < 2; h++)
        if (drv_host_alloc((void **)&q->stage[h], want) != DRV_OK)
            return -1;
    q->stage_bytes = want;
    return 0;
}

/* The context's device scratch of at least bytes: a strided transfer
 * moves through it contiguously, and the copy kernel does the rest. */
static int scratch(queue_state *q, size_t bytes)
{
    if (bytes <= q->scratch_bytes)
        return 0;
    drv_stream_sync(q->stream);
    if (q->scratch)
        drv_free(q->scratch);
    q->scratch = NULL;
    q->scratch_bytes = 0;
    if (drv_malloc(&q->scratch, bytes) != DRV_OK)
        return -1;
    q->scratch_bytes = bytes;
    return 0;
}

/* dst = src on the device through the copy kernel (gpu.h
 * gl_copy_launch; CUDA and HIP devices all have fp64). */
static int copy_kernel(queue_state *q, size_t elem, size_t rows, size_t cols,
                       const void *src, size_t ld_src, void *dst,
                       size_t ld_dst)
{
    gl_copy_launch l;
    if (gl_copy_launch_make(&l, 1, elem, rows, cols, src, ld_src, dst,
                            ld_dst) != 0)
        return -1;
    return launch_on(q, l.precision, GL_K_COPY, 2, l.groups, l.local, 7,
                     l.args);
}

/* ---- copies ------------------------------------------------------------- */

/* Columns per staging half (at least one; staging() makes a half hold a
 * column). */
static size_t chunk_cols(const queue_state *q, size_t elem, size_t rows,
                         size_t cols)
{
    size_t per = q->stage_bytes / (elem * rows);
    return per < cols ? per : cols;
}

/* Host copies between a staging half and the caller's memory: cols
 * columns of bytes each, leading dimensions in bytes.  One thread's
 * memcpy moves about 10 GB/s, a PCIe 5 x16 link about 50 GB/s pinned, so
 * a large chunk is copied by the host's threads, in pieces of at most
 * COPY_PIECE bytes. */
enum { COPY_PIECE = 1 << 20, PARALLEL_COPY_BYTES = 4 << 20 };

typedef struct host_copy_job {
    char *dst;
    const char *src;
    size_t ld_dst, ld_src, bytes, pieces;   /* pieces per column */
} host_copy_job;

static int host_copy_piece(void *ctx, long item)
{
    const host_copy_job *c = ctx;
    size_t j = (size_t)item / c->pieces, p = (size_t)item % c->pieces,
           off = p * COPY_PIECE,
           n = c->bytes - off < COPY_PIECE ? c->bytes - off : COPY_PIECE;
    memcpy(c->dst + j * c->ld_dst + off, c->src + j * c->ld_src + off, n);
    return 0;
}

static void host_copy(char *dst, size_t ld_dst, const char *src,
                      size_t ld_src, size_t bytes, size_t cols)
{
    if (ld_dst == bytes && ld_src == bytes) {   /* one contiguous column */
        bytes *= cols;
        cols = 1;
    }
    if (bytes * cols < PARALLEL_COPY_BYTES) {
        for (size_t j = 0; j < cols; j++)
            memcpy(dst + j * ld_dst, src + j * ld_src, bytes);
        return;
    }
    host_copy_job c = {dst, src, ld_dst, ld_src, bytes,
                       (bytes + COPY_PIECE - 1) / COPY_PIECE};
    gl_parallel_for((long)(cols * c.pieces), host_copy_piece, &c);
}

static int write_on(queue_state *q, size_t elem, size_t rows, size_t cols,
                    const char *src, size_t ld_src, char *dst, size_t ld_dst)
{
    if (gl_fault_hit(GL_FAULT_COPY) ||
        staging(q, elem * rows, elem * rows * cols) != 0)
        return -1;
    size_t per = chunk_cols(q, elem, rows, cols);
    int strided = ld_dst != rows;
    if (strided && scratch(q, elem * rows * per) != 0)
        return -1;
    for (size_t j0 = 0, h = 0; j0 < cols; j0 += per, h ^= 1) {
        size_t nc = cols - j0 < per ? cols - j0 : per;
        /* the DMA that last read this half is done before it is refilled */
        if (drv_event_sync(q->staged[h]) != DRV_OK)
            return -1;
        host_copy(q->stage[h], rows * elem, src + j0 * ld_src * elem,
                  ld_src * elem, rows * elem, nc);
        char *to = dst + j0 * ld_dst * elem;
        if (drv_htod(strided ? q->scratch : to, q->stage[h], nc * rows * elem,
                     q->stream) != DRV_OK ||
            drv_event_record(q->staged[h], q->stream) != DRV_OK ||
            (strided && copy_kernel(q, elem, rows, nc, q->scratch, rows, to,
                                    ld_dst) != 0))
            return -1;
    }
    return 0;
}

int gpu_write(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
              size_t ld_src, void *dst, size_t ld_dst)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)
        ld_src = ld_dst = rows;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = checked(q, write_on(q, elem, rows, cols, src, ld_src, dst,
                                 ld_dst) != 0);
    leave(saved);
    return rc;
}

int gpu_copy(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
             size_t ld_src, void *dst, size_t ld_dst)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)
        ld_src = ld_dst = rows;
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int failed = gl_fault_hit(GL_FAULT_COPY) ||
        (ld_src == rows && ld_dst == rows
             ? drv_dtod(dst, src, elem * rows * cols, q->stream) != DRV_OK
             : copy_kernel(q, elem, rows, cols, src, ld_src, dst, ld_dst));
    int rc = checked(q, failed);
    leave(saved);
    return rc;
}

/* The chunk in staging half h (cols columns of col bytes, starting at
 * column j0 of the matrix), once its DMA is done, into dst. */
static int unstage(queue_state *q, size_t h, size_t col, size_t cols,
                   char *dst, size_t ld_dst_bytes, size_t j0)
{
    if (drv_event_sync(q->staged[h]) != DRV_OK)
        return -1;
    host_copy(dst + j0 * ld_dst_bytes, ld_dst_bytes, q->stage[h], col, col,
              cols);
    return 0;
}

/* The matrix src (rows x cols) into dst, chunk by chunk through the two
 * staging halves: the DMA of a chunk runs while the host copies the chunk
 * before it out of the other half.  A failure can leave dst written in
 * part. */
static int read_on(queue_state *q, drv_stream stream, size_t elem,
                   size_t rows, size_t cols, const char *src, size_t ld_src,
                   char *dst, size_t ld_dst)
{
    if (gl_fault_hit(GL_FAULT_COPY) ||
        staging(q, elem * rows, elem * rows * cols) != 0)
        return -1;
    size_t per = chunk_cols(q, elem, rows, cols);
    int strided = ld_src != rows;
    if (strided && scratch(q, elem * rows * per) != 0)
        return -1;
    size_t col = elem * rows;
    size_t pending = 0, pending_j0 = 0;   /* columns in stage[h ^ 1] */
    size_t h = 0;
    for (size_t j0 = 0; j0 < cols; j0 += per, h ^= 1) {
        size_t nc = cols - j0 < per ? cols - j0 : per;
        const char *from = src + j0 * ld_src * elem;
        /* in stream order: the copy kernel that refills the scratch runs
         * after the DMA that read it (strided reads take the context's
         * stream: read_marked) */
        if ((strided && copy_kernel(q, elem, rows, nc, from, ld_src,
                                    q->scratch, rows) != 0) ||
            drv_dtoh(q->stage[h], strided ? q->scratch : from, nc * col,
                     stream) != DRV_OK ||
            drv_event_record(q->staged[h], stream) != DRV_OK)
            return -1;
        if (pending && unstage(q, h ^ 1, col, pending, dst, ld_dst * elem,
                               pending_j0) != 0)
            return -1;
        pending = nc;
        pending_j0 = j0;
    }
    return pending ? unstage(q, h ^ 1, col, pending, dst, ld_dst * elem,
                             pending_j0)
                   : 0;
}

/* src into dst through the staging halves on stream, which must follow
 * everything dst depends on.  whole: dst is written only by a complete
 * read (gpu.h read); else it may be left written in part (read_direct). */
static int read_into(queue_state *q, drv_stream stream, size_t elem,
                     size_t rows, size_t cols, const void *src,
                     size_t ld_src, void *dst, size_t ld_dst, int whole)
{
    if (rows == 0 || cols == 0)
        return 0;
    if (cols == 1)
        ld_src = ld_dst = rows;
    /* A read of more than one chunk that must be whole lands in a host
     * array first (kept by the memory module between calls, so a
     * repeated call meets no page faults), then in dst. */
    size_t bytes = elem * rows * cols;
    int bounce = whole && staging(q, elem * rows, bytes) == 0 &&
                 chunk_cols(q, elem, rows, cols) < cols;
    char *out = bounce ? gl_host_alloc(bytes) : NULL;
    int rc;
    if (bounce && !out)
        rc = -1;
    else if (out)
        rc = read_on(q, stream, elem, rows, cols, src, ld_src, out, rows);
    else
        rc = read_on(q, stream, elem, rows, cols, src, ld_src, dst, ld_dst);
    if (rc == 0 && out)
        host_copy(dst, ld_dst * elem, out, rows * elem, rows * elem, cols);
    gl_host_free(out);
    return rc;
}

/* Waits for the context's stream and its lanes; a failure sets the error
 * state. */
void sync_queues(queue_state *q)
{
    drv_result sync = drv_stream_sync(q->stream);
    for (int i = 0; i < GL_LANES - 1 && sync == DRV_OK; i++)
        if (q->lane[i])
            sync = drv_stream_sync(q->lane[i]);
    if (sync != DRV_OK) {
        gl_log(1, API ": stream synchronization failed (error %d)", (int)sync);
        q->failed = 1;
    }
}

int read_matrix(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
                size_t ld_src, void *dst, size_t ld_dst, int whole)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    sync_queues(q);
    int rc = q->failed ? -1
                       : checked(q, read_into(q, q->stream, elem, rows, cols,
                                              src, ld_src, dst, ld_dst,
                                              whole) != 0);
    leave(saved);
    return rc;
}

int gpu_read(gl_ctx *ctx, size_t elem, size_t rows, size_t cols, const void *src,
             size_t ld_src, void *dst, size_t ld_dst)
{
    return read_matrix(ctx, elem, rows, cols, src, ld_src, dst, ld_dst, 1);
}

int gpu_read_direct(gl_ctx *ctx, size_t elem, size_t rows, size_t cols,
                    const void *src, size_t ld_src, void *dst,
                    size_t ld_dst)
{
    return read_matrix(ctx, elem, rows, cols, src, ld_src, dst, ld_dst, 0);
}

/* Reads beside later work (gpu.h): the side stream waits for the mark
 * and for the last DMA of each staging half (a write enqueued after the
 * mark may still be reading one), then copies while the context's stream
 * runs what was enqueued since.  A strided src needs the scratch and the
 * copy kernel of the context's stream: it is read in order instead. */
int gpu_mark(gl_ctx *ctx)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    int rc = 0;
    if (!q->mark && drv_event_create(&q->mark) != DRV_OK)
        q->mark = NULL;
    if (!q->side && drv_stream_create(&q->side) != DRV_OK)
        q->side = NULL;
    q->marked = q->mark && q->side &&
                drv_event_record(q->mark, q->stream) == DRV_OK;
    if (!q->marked)
        rc = -1;
    leave(saved);
    return rc;
}

int gpu_read_marked(gl_ctx *ctx, int whole, size_t elem, size_t rows, size_t cols,
                    const void *src, size_t ld_src, void *dst,
                    size_t ld_dst)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    if (!q->marked || (cols > 1 && ld_src != rows) || q->capturing) {
        leave(saved);
        return read_matrix(ctx, elem, rows, cols, src, ld_src, dst, ld_dst, whole);
    }
    int rc = q->failed ? -1 : 0;
    if (rc == 0 && (drv_stream_wait(q->side, q->mark) != DRV_OK ||
                    drv_stream_wait(q->side, q->staged[0]) != DRV_OK ||
                    drv_stream_wait(q->side, q->staged[1]) != DRV_OK))
        rc = -1;
    if (rc == 0)
        rc = read_into(q, q->side, elem, rows, cols, src, ld_src, dst,
                       ld_dst, whole);
    if (drv_stream_sync(q->side) != DRV_OK)
        rc = -1;
    rc = checked(q, rc != 0);
    leave(saved);
    return rc;
}

int gpu_finish(gl_ctx *ctx)
{
    drv_saved saved;
    queue_state *q = enter(ctx, &saved);
    if (!q)
        return -1;
    /* inside a recording the stream cannot wait: the batch's end does */
    if (!q->capturing)
        sync_queues(q);
    int rc = q->failed ? -1 : 0;
    leave(saved);
    return rc;
}

