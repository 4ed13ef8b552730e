/* Several devices in one call: the back-transformation of the vectors
 * split by columns over the devices of the call's set
 * (GPULAPACK_DEVICE=cuda:0,1, opencl:all; runtime/context.h peers).
 *
 * Q E touches each column of E alone, so each device applies all of Q to
 * its own share of the columns: the call's device keeps the first ones,
 * each other device gets a copy of the reflectors (stage 1's panels below
 * the band and their T factors, the chase's store: about 1.5 n^2 scalars)
 * and its columns, all through the host, and the devices apply their
 * shares at the same time.  The back-transformation is most of the
 * vectors' flops (about 4 n^3 of dsyevd V's after stage 1), so with k
 * alike devices it takes about 1/k of the time, for the copies' 1.5 n^2 +
 * n m / k scalars to each other device. */
#include <string.h>

#include "../runtime/memory.h"
#include "../runtime/precision.h"
#include "../runtime/profile.h"
#include "arena.h"
#include "stages.h"

/* Scalars of q's T factors (kernels/eig.c he_tridiag, one-stage). */
static size_t t_scalars(const GL_FN(tridiag_q) *q)
{
    return (size_t)(q->b == 0 ? GL_ONE_STAGE_BLOCK : q->b > 0 ? q->b : 1) *
           (size_t)q->n;
}

/* Slots of the chase's store (reflectors_slots) and its scalars: vq,
 * then tauq (reflectors_place). */
static size_t store_slots(const GL_FN(tridiag_q) *q)
{
    const GL_FN(reflectors) *r = &q->chase;
    lapack_int ngroups;
    return r->ngroups > 0 && r->vq
               ? GL_FN(reflectors_slots)(r->n, r->b, r->group, &ngroups)
               : 0;
}

static size_t store_scalars(const GL_FN(tridiag_q) *q)
{
    return store_slots(q) * ((size_t)q->chase.b + 1);
}

/* rows x cols of src (device of ops, ld n) to dst (the peer's, ld n)
 * through the host's stage; 0 or -1. */
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

/* One peer's share: its table, its copies of q's reflectors (in q) and
 * its columns e, in one arena of its device. */
static int share_start(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                       gl_ctx *peer, gl_scalar *stage, const gl_scalar *cols,
                       GL_FN(peer_share) *sh)
{
    lapack_int n = q->n;
    if (GL_FN(ops_bind)(&sh->ops, peer))
        return 1;   /* not this device: its columns stay */
    gl_profile_stage(peer, "back");
    size_t nn = q->a ? (size_t)n * (size_t)n : 0, tn = q->a ? t_scalars(q) : 0;
    size_t store = store_scalars(q), es = sizeof(gl_scalar);
    gl_arena arena = {0};
    size_t at_a = gl_arena_take(&arena, nn > 0, nn, es);
    size_t at_t = gl_arena_take(&arena, tn > 0, tn, es);
    size_t at_store = gl_arena_take(&arena, store > 0, store, es);
    size_t at_e = gl_arena_take(&arena, 1, (size_t)n * sh->cols, es);
    sh->arena = sh->ops.alloc(&sh->ops, arena.bytes);
    if (!sh->arena)
        return 1;
    sh->q = (GL_FN(tridiag_q)){.n = n, .b = q->b, .lda = n, .chase = q->chase};
    sh->q.a = gl_arena_at(sh->arena, at_a);
    sh->q.t = gl_arena_at(sh->arena, at_t);
    sh->q.chase.vq = gl_arena_at(sh->arena, at_store);
    sh->q.chase.tauq =
        store > 0 ? sh->q.chase.vq + store_slots(q) * (size_t)q->chase.b
                  : NULL;
    sh->e = gl_arena_at(sh->arena, at_e);
    if (carry(ops, &sh->ops, n, n, nn > 0 ? q->a : NULL, stage, sh->q.a) ||
        carry(ops, &sh->ops, (lapack_int)tn, 1, tn > 0 ? q->t : NULL, stage,
              sh->q.t) ||
        carry(ops, &sh->ops, (lapack_int)store, 1,
              store > 0 ? q->chase.vq : NULL, stage, sh->q.chase.vq) ||
        carry(ops, &sh->ops, n, sh->cols, cols, stage, sh->e))
        return -1;
    /* enqueued on the peer's queue: runs beside this device's share */
    return GL_FN(q_apply_on)(&sh->ops, &sh->q, sh->cols, sh->e) ? -1 : 0;
}

/* gl_s_peers_start gl_d_peers_start gl_c_peers_start gl_z_peers_start */
int GL_FN(peers_start)(const GL_FN(ops) *ops, const GL_FN(tridiag_q) *q,
                       lapack_int m, const gl_scalar *e,
                       GL_FN(peer_share) *shares)
{
    gl_ctx *ctx = ops->ctx;
    int peers = ctx && !ops->host_memory ? ctx->npeers : 0;
    lapack_int n = q->n, per = m / (peers + 1);
    if (peers == 0 || per < 1)
        return 0;
    size_t stage_scalars = (size_t)n * (size_t)per;
    if (q->a && (size_t)n * (size_t)n > stage_scalars)
        stage_scalars = (size_t)n * (size_t)n;
    if (store_scalars(q) > stage_scalars)
        stage_scalars = store_scalars(q);
    gl_scalar *stage = gl_host_alloc(sizeof *stage * stage_scalars);
    gl_scalar *back = gl_host_alloc(sizeof *back * (size_t)n *
                                    (size_t)per * (size_t)peers);
    int count = 0, rc = stage && back ? 0 : 1;
    for (int p = 0; p < peers && rc == 0; p++) {
        GL_FN(peer_share) *sh = &shares[count];
        *sh = (GL_FN(peer_share)){.col = m - (lapack_int)(peers - p) * per,
                                  .cols = per};
        sh->host = back + (size_t)n * (size_t)per * (size_t)count;
        rc = share_start(ops, q, ctx->peers[p], stage,
                         e + (size_t)sh->col * (size_t)n, sh);
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
int GL_FN(peers_read)(GL_FN(peer_share) *shares, int count, lapack_int n)
{
    for (int p = 0; p < count; p++) {
        GL_FN(peer_share) *sh = &shares[p];
        if (sh->ops.to_host_scratch(&sh->ops, n, sh->cols, sh->e, n, sh->host,
                                    n))
            return -1;
    }
    return 0;
}

/* gl_s_peers_place gl_d_peers_place gl_c_peers_place gl_z_peers_place */
void GL_FN(peers_place)(GL_FN(peer_share) *shares, int count, lapack_int n,
                        gl_scalar *z, lapack_int ldz)
{
    for (int p = 0; p < count; p++)
        for (lapack_int j = 0; j < shares[p].cols; j++)
            memcpy(z + (size_t)(shares[p].col + j) * (size_t)ldz,
                   shares[p].host + (size_t)j * (size_t)n,
                   sizeof *z * (size_t)n);
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
