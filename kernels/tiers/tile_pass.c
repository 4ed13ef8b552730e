/* One pass of a streamed plan over the tiles of its host copy (streamed.h
 * tile_pass), and the parked chase's stores streamed past a block of the
 * vectors (parked_upload): the drivers' copies on the copy lanes.
 *
 * A pass takes each tile up into one of TILE_BUFFERS device buffers,
 * brought up to date (update), back down when the pass writes the copy,
 * and used (use: its share of a product), with the copies on the
 * context's copy lanes (runtime/gpu.h lane_write).
 *
 * While the device works on tile i, tile i + 1 comes up on the upload
 * lane and tile i - 1 goes down on the download lane, so that a pass
 * takes about the longest of its uploads, downloads and products instead
 * of their sum (seed paper 004 streams its tile rows so; MAGMA's
 * out-of-core factorizations double-buffer the same way).  Event slots
 * per buffer order the three queues: the buffer's upload is done before
 * the device works on it (UP), its update before its download (UPDATED),
 * and its download and its use before the buffer takes the tile three on
 * (DOWN, USED). */
#include "../../runtime/precision.h"
#include "streamed.h"

/* event slots of buffer i: EV_UP + i, ... */
enum {
    EV_UP = GL_EVENTS_TILES,
    EV_UPDATED = EV_UP + GL_TILE_BUFFERS,
    EV_DOWN = EV_UPDATED + GL_TILE_BUFFERS,
    EV_USED = EV_DOWN + GL_TILE_BUFFERS
};
_Static_assert(EV_USED + GL_TILE_BUFFERS <= GL_EVENTS_PANELS,
               "a pass's event slots");

/* The tile after t in the pass's order (by columns of tiles, each from
 * the pass's first row, or from its diagonal for a lower pass); 0 when t
 * was the last. */
static int next_tile(const GL_FN(tile_pass) *pass, gl_tile *t)
{
    lapack_int tile = pass->tile;
    t->r0 += tile;
    if (t->r0 >= pass->rows) {
        t->c0 += tile;
        t->r0 = pass->lower ? t->c0 : pass->r_first;
    }
    if (t->c0 >= pass->cols || t->r0 >= pass->rows)
        return 0;
    t->nr = pass->rows - t->r0 < tile ? pass->rows - t->r0 : tile;
    t->nc = pass->cols - t->c0 < tile ? pass->cols - t->c0 : tile;
    return 1;
}

static gl_scalar *host_tile(const GL_FN(tile_pass) *pass, const gl_tile *t)
{
    return pass->h + (size_t)t->r0 + (size_t)t->c0 * pass->ldh;
}

static gl_scalar *buffer(const GL_FN(tile_pass) *pass, int i)
{
    return pass->buffers + (size_t)i * (size_t)pass->tile * (size_t)pass->tile;
}

/* Tile t up into buffer i once the buffer's last tile is down and used. */
static void upload(const GL_FN(tile_pass) *pass, int i, const gl_tile *t)
{
    const GL_FN(ops) *ops = pass->ops;
    ops->lane_wait(ops, GL_QUEUE_UP, EV_DOWN + i);
    ops->lane_wait(ops, GL_QUEUE_UP, EV_USED + i);
    ops->tile_up(ops, t->nr, t->nc, host_tile(pass, t), pass->ldh,
                 buffer(pass, i), pass->tile);
    ops->lane_record(ops, GL_QUEUE_UP, EV_UP + i);
}

/* gl_s_tile_pass_run gl_d_tile_pass_run gl_c_tile_pass_run gl_z_tile_pass_run */
int GL_FN(tile_pass_run)(const GL_FN(tile_pass) *pass)
{
    const GL_FN(ops) *ops = pass->ops;
    lapack_int tile = pass->tile;
    gl_tile t = {.r0 = pass->lower ? pass->c_first : pass->r_first,
                 .c0 = pass->c_first};
    if (t.c0 >= pass->cols || t.r0 >= pass->rows)
        return 0;
    t.nr = pass->rows - t.r0 < tile ? pass->rows - t.r0 : tile;
    t.nc = pass->cols - t.c0 < tile ? pass->cols - t.c0 : tile;
    upload(pass, 0, &t);
    for (int i = 0, more = 1; more; i = (i + 1) % GL_TILE_BUFFERS) {
        gl_tile next = t;
        more = next_tile(pass, &next);
        if (more)
            upload(pass, (i + 1) % GL_TILE_BUFFERS, &next);
        gl_scalar *dev = buffer(pass, i);
        ops->lane_wait(ops, GL_QUEUE_COMPUTE, EV_UP + i);
        if (pass->update)
            pass->update(pass->arg, &t, dev, tile);
        if (pass->write_back) {
            ops->lane_record(ops, GL_QUEUE_COMPUTE, EV_UPDATED + i);
            ops->lane_wait(ops, GL_QUEUE_DOWN, EV_UPDATED + i);
            ops->tile_down(ops, t.nr, t.nc, dev, tile, host_tile(pass, &t),
                           pass->ldh);
            ops->lane_record(ops, GL_QUEUE_DOWN, EV_DOWN + i);
        }
        pass->use(pass->arg, &t, dev, tile);
        ops->lane_record(ops, GL_QUEUE_COMPUTE, EV_USED + i);
        t = next;
    }
    /* the copy is whole again for what follows the pass */
    return ops->lanes_finish(ops) ? GL_STAGE_FAULT : 0;
}

/* event slots of store buffer u: EV_PARKED_UP + u (uploaded), and
 * EV_PARKED_USED + u (applied) */
enum {
    EV_PARKED_UP = GL_EVENTS_PARKED,
    EV_PARKED_USED = EV_PARKED_UP + GL_PARKED_BUFFERS
};
_Static_assert((int)EV_PARKED_USED + (int)GL_PARKED_BUFFERS <=
                   (int)GL_QUEUE_EVENTS,
               "the parked stores' event slots");

/* gl_s_parked_upload gl_d_parked_upload gl_c_parked_upload gl_z_parked_upload */
void GL_FN(parked_upload)(const GL_FN(ops) *ops, const gl_scalar *src,
                          lapack_int count, gl_scalar *dst, int u)
{
    ops->lane_wait(ops, GL_QUEUE_UP, EV_PARKED_USED + u);
    ops->tile_up(ops, count, 1, src, count, dst, count);
    ops->lane_record(ops, GL_QUEUE_UP, EV_PARKED_UP + u);
}

/* gl_s_parked_ready gl_d_parked_ready gl_c_parked_ready gl_z_parked_ready */
void GL_FN(parked_ready)(const GL_FN(ops) *ops, int u)
{
    ops->lane_wait(ops, GL_QUEUE_COMPUTE, EV_PARKED_UP + u);
}

/* gl_s_parked_used gl_d_parked_used gl_c_parked_used gl_z_parked_used */
void GL_FN(parked_used)(const GL_FN(ops) *ops, int u)
{
    ops->lane_record(ops, GL_QUEUE_COMPUTE, EV_PARKED_USED + u);
}
