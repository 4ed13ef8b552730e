/* Several devices in one call: the back-transformation's columns shared
 * out (peers.c), and stage 1 over the devices of the call's set
 * (stage1_peers.c). */
#ifndef GL_TIERS_PEERS_H
#define GL_TIERS_PEERS_H

#include "../ops.h"

/* Several devices in one call (kernels/tiers/peers.c): a peer_job is Q E for
 * E of rows rows (its ld on every device): the arrays of this device
 * that Q is made of (in, scalars each; NULL: none) and how a device
 * applies Q to m columns of E given its copies of them.  The other
 * devices of ops->ctx's set (ctx->peers) take the last columns of E (ld
 * rows, ops's device) in equal shares, each with copies of the arrays,
 * and apply Q to them beside this device (peers_start: their count, 0
 * when there are none or one cannot take its share, -1 when this device
 * failed; this device keeps the columns before shares[0].col);
 * peers_read waits for them and reads their columns into host memory
 * (0, or -1 when a device failed), peers_place puts them into z's
 * columns (host, ld ldz), peers_gather reads them back into E's columns
 * on this device, peers_free releases what peers_start took. */
enum { GL_PEER_INPUTS = 6 };
/* gl_s_peer_job gl_d_peer_job gl_c_peer_job gl_z_peer_job */
typedef struct GL_FN(peer_job) {
    lapack_int rows;
    const gl_scalar *in[GL_PEER_INPUTS];
    size_t scalars[GL_PEER_INPUTS];
    int (*apply)(const GL_FN(ops) *ops, const struct GL_FN(peer_job) *job,
                 gl_scalar *const *in, lapack_int m, gl_scalar *e);
    const void *data;   /* the caller's, for apply */
} GL_FN(peer_job);
/* gl_s_peer_share gl_d_peer_share gl_c_peer_share gl_z_peer_share */
typedef struct GL_FN(peer_share) {
    GL_FN(ops) ops;            /* bound to the peer's context */
    lapack_int col, cols;      /* its columns of E */
    void *arena;               /* its device memory: */
    gl_scalar *in[GL_PEER_INPUTS];   /* the job's arrays copied, */
    gl_scalar *e;              /* its columns (ld rows) */
    gl_scalar *host;           /* its columns read back (ld rows) */
    gl_scalar *back;           /* shares[0]: the host memory of all */
} GL_FN(peer_share);
int GL_FN(peers_start)(const GL_FN(ops) *ops, const GL_FN(peer_job) *job,
                       lapack_int m, const gl_scalar *e,
                       GL_FN(peer_share) *shares);
int GL_FN(peers_read)(GL_FN(peer_share) *shares, int count, lapack_int rows);
void GL_FN(peers_place)(GL_FN(peer_share) *shares, int count, lapack_int rows,
                        gl_scalar *z, lapack_int ldz);
int GL_FN(peers_gather)(const GL_FN(ops) *ops, GL_FN(peer_share) *shares,
                        int count, lapack_int rows, gl_scalar *e);
void GL_FN(peers_free)(GL_FN(peer_share) *shares, int count);

/* sy2sb over the devices of ops->ctx's set (kernels/tiers/stage1_peers.c): the
 * trailing matrix's columns in tiles of width (rounded up to a multiple
 * of b) dealt out block-cyclically, the panels factored on ops's device.
 * The same result as sy2sb to rounding; 0, GL_STAGE_FAULT, or 1 when it
 * did nothing (no other device, a single tile, or one of them could not
 * take its share: sy2sb on one device then does all). */
int GL_FN(sy2sb_split)(const GL_FN(ops) *ops, lapack_int n, lapack_int b,
                       lapack_int block, lapack_int width, gl_scalar *a,
                       lapack_int lda, gl_scalar *tau, gl_scalar *tq);
/* ge2gb over the devices of ops->ctx's set (kernels/tiers/stage1_peers.c), m
 * >= n: A's whole columns in the same tiles, the steps' QR and LQ on ops's
 * device, the others' parts of A^H V and A W summed through the host;
 * answers as sy2sb_split.  ge2gb_peer_bytes: device `index`'s bytes (its
 * tiles' columns, copies of the block's L and R, its part of a product). */
int GL_FN(ge2gb_split)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                       lapack_int b, lapack_int block, lapack_int width,
                       gl_scalar *a, lapack_int lda, gl_scalar *tq,
                       gl_scalar *tp);
size_t GL_FN(ge2gb_peer_bytes)(lapack_int m, lapack_int n, lapack_int b,
                               lapack_int block, lapack_int width, int parts,
                               int index);
/* The device bytes sy2sb_split takes on device `index` (1 .. parts - 1)
 * of `parts` devices: its tiles' columns, its copies of a block's V and
 * W, S and its part of X (the call's device takes sy2sb_device_bytes). */
size_t GL_FN(sy2sb_peer_bytes)(lapack_int n, lapack_int b, lapack_int block,
                               lapack_int width, int parts, int index);

#endif
