/* Several devices in one call: the back-transformation of the vectors
 * split by columns over the devices of the call's set
 * (GPULAPACK_DEVICE=cuda:0,1, opencl:all; runtime/context.h peers).
 *
 * Q E touches each column of E alone, so each device applies all of Q to
 * its own share of the columns: the call's device keeps the first ones,
 * each other device gets a copy of the arrays Q is made of (a peer_job's:
 * stage 1's panels below the band and their T factors, the chase's store;
 * about 1.5 n^2 scalars) and its columns, all through the host, and the
 * devices apply their shares at the same time.  The back-transformation
 * is most of the vectors' flops (about 4 n^3 of dsyevd V's after stage
 * 1), so with k alike devices it takes about 1/k of the time, for the
 * copies' 1.5 n^2 + n m / k scalars to each other device. */
#include <string.h>

#include "../../runtime/memory.h"
#include "../../runtime/precision.h"
#include "../../runtime/profile.h"
#include "../arena.h"
#include "peers.h"

/* rows x cols of src (device of ops, ld rows) to dst (the peer's) through
 * the host's stage; 0 or -1. */
static int carry(const GL_FN(ops) *ops, const GL_FN(ops) *peer,
                 lapack_int rows, lapack_int cols, const gl_scalar *src,
                 gl_scalar *stage, gl_scalar *dst)
{
    if (rows <= 0 || cols <= 0 || !src)
        return 0;
    if (ops->to_host_scratch(ops, rows, cols, src, rows, stage, rows))
        return -1;
    peer->from_host(peer, 'N', rows, cols, stage, rows, dst, rows);
    return 0;
}

/* A long array as columns of at most this many scalars: copies whose
 * sizes fit the int dimensions of the operations. */
enum { CARRY_ROWS = 1 << 20 };

static int carry_array(const GL_FN(ops) *ops, const GL_FN(ops) *peer,
                       size_t scalars, const gl_scalar *src, gl_scalar *stage,
                       gl_scalar *dst)
{
    for (size_t at = 0; at < scalars; at += CARRY_ROWS) {
        size_t rows = scalars - at < CARRY_ROWS ? scalars - at : CARRY_ROWS;
        if (carry(ops, peer, (lapack_int)rows, 1, src + at, stage, dst + at))
            return -1;
    }
    return 0;
}

/* One peer's share: its table, its copies of the job's arrays and its
 * columns e, in one arena of its device; then its work enqueued. */
static int share_start(const GL_FN(ops) *ops, const GL_FN(peer_job) *job,
                       gl_ctx *peer, gl_scalar *stage, const gl_scalar *cols,
                       GL_FN(peer_share) *sh)
{
    lapack_int rows = job->rows;
    if (GL_FN(ops_bind)(&sh->ops, peer))
        return 1;   /* not this device: its columns stay */
    gl_profile_stage(peer, "back");
    size_t es = sizeof(gl_scalar), at[GL_PEER_INPUTS];
    gl_arena arena = {0};
    for (int k = 0; k < GL_PEER_INPUTS; k++)
        at[k] = gl_arena_take(&arena, job->in[k] && job->scalars[k] > 0,
                              job->scalars[k], es);
    size_t at_e = gl_arena_take(&arena, 1, (size_t)rows * sh->cols, es);
    sh->arena = sh->ops.alloc(&sh->ops, arena.bytes);
    if (!sh->arena)
        return 1;
    for (int k = 0; k < GL_PEER_INPUTS; k++)
        sh->in[k] = gl_arena_at(sh->arena, at[k]);
    sh->e = gl_arena_at(sh->arena, at_e);
    for (int k = 0; k < GL_PEER_INPUTS; k++)
        if (sh->in[k] && carry_array(ops, &sh->ops, job->scalars[k],
                                     job->in[k], stage, sh->in[k]))
            return -1;
    if (carry(ops, &sh->ops, rows, sh->cols, cols, stage, sh->e))
        return -1;
    /* enqueued on the peer's queue: runs beside this device's share */
    return job->apply(&sh->ops, job, sh->in, sh->cols, sh->e) ? -1 : 0;
}

/* gl_s_peers_start gl_d_peers_start gl_c_peers_start gl_z_peers_start */
int GL_FN(peers_start)(const GL_FN(ops) *ops, const GL_FN(peer_job) *job,
                       lapack_int m, const gl_scalar *e,
                       GL_FN(peer_share) *shares)
{
    gl_ctx *ctx = ops->ctx;
    int peers = ctx && !ops->host_memory ? ctx->npeers : 0;
    lapack_int rows = job->rows, per = m / (peers + 1);
    if (peers == 0 || per < 1)
        return 0;
    size_t stage_scalars = (size_t)rows * (size_t)per;
    if (stage_scalars < CARRY_ROWS)
        stage_scalars = CARRY_ROWS;
    gl_scalar *stage = gl_host_alloc(sizeof *stage * stage_scalars);
    gl_scalar *back = gl_host_alloc(sizeof *back * (size_t)rows *
                                    (size_t)per * (size_t)peers);
    int count = 0, rc = stage && back ? 0 : 1;
    for (int p = 0; p < peers && rc == 0; p++) {
        GL_FN(peer_share) *sh = &shares[count];
        *sh = (GL_FN(peer_share)){.col = m - (lapack_int)(peers - p) * per,
                                  .cols = per};
        sh->host = back + (size_t)rows * (size_t)per * (size_t)count;
        rc = share_start(ops, job, ctx->peers[p], stage,
                         e + (size_t)sh->col * (size_t)rows, sh);
        if (rc == 0)
            count++;
        else if (sh->arena)
            sh->ops.release(&sh->ops, sh->arena);
    }
    gl_host_free(stage);
    /* a device left out (no table, no memory): the others' shares are
     * moved back to this device, which then does all (a device failure
     * of this device is the call's, -1) */
    if (rc != 0) {
        GL_FN(peers_free)(shares, count);
        gl_host_free(back);
        return rc < 0 ? -1 : 0;
    }
    shares[0].back = back;
    return count;
}

/* gl_s_peers_read gl_d_peers_read gl_c_peers_read gl_z_peers_read */
int GL_FN(peers_read)(GL_FN(peer_share) *shares, int count, lapack_int rows)
{
    for (int p = 0; p < count; p++) {
        GL_FN(peer_share) *sh = &shares[p];
        if (sh->ops.to_host_scratch(&sh->ops, rows, sh->cols, sh->e, rows,
                                    sh->host, rows))
            return -1;
    }
    return 0;
}

/* gl_s_peers_place gl_d_peers_place gl_c_peers_place gl_z_peers_place */
void GL_FN(peers_place)(GL_FN(peer_share) *shares, int count, lapack_int rows,
                        gl_scalar *z, lapack_int ldz)
{
    for (int p = 0; p < count; p++)
        for (lapack_int j = 0; j < shares[p].cols; j++)
            memcpy(z + (size_t)(shares[p].col + j) * (size_t)ldz,
                   shares[p].host + (size_t)j * (size_t)rows,
                   sizeof *z * (size_t)rows);
}

/* gl_s_peers_gather gl_d_peers_gather gl_c_peers_gather gl_z_peers_gather */
int GL_FN(peers_gather)(const GL_FN(ops) *ops, GL_FN(peer_share) *shares,
                        int count, lapack_int rows, gl_scalar *e)
{
    if (GL_FN(peers_read)(shares, count, rows))
        return -1;
    for (int p = 0; p < count; p++)
        ops->from_host(ops, 'N', rows, shares[p].cols, shares[p].host, rows,
                       e + (size_t)shares[p].col * (size_t)rows, rows);
    return 0;
}

/* gl_s_peers_free gl_d_peers_free gl_c_peers_free gl_z_peers_free */
void GL_FN(peers_free)(GL_FN(peer_share) *shares, int count)
{
    for (int p = 0; p < count; p++) {
        shares[p].ops.release(&shares[p].ops, shares[p].arena);
        shares[p].arena = NULL;
    }
    if (count > 0) {
        gl_host_free(shares[0].back);
        shares[0].back = NULL;
    }
}
