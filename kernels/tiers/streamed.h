/* The tiers of a call larger than its device's in-core plan
 * (docs/design/memory.md): the streamed plans, whose working copy stays
 * in host memory and streams through the device in tiles (sy2sb_streamed.c,
 * ge2gb_streamed.c, over tile_pass.c's passes), and the lean plan of the
 * Hermitian vectors (stage 1 in core, the rest as streamed). */
#ifndef GL_TIERS_STREAMED_H
#define GL_TIERS_STREAMED_H

#include "../ops.h"
#include "../plan.h"
#include "../status.h"
#include "../stages/backtransform.h"

/* The largest k in 1 .. hi for which fits(arg, k) holds, where it holds
 * up to some k and not past it (a streamed plan, which grows with its
 * parked chase's segments of k groups of sweeps); 1 where none does. */
static inline lapack_int gl_most_that_fit(lapack_int hi,
                                          int (*fits)(void *arg, lapack_int k),
                                          void *arg)
{
    lapack_int lo = 1;
    while (lo < hi) {
        lapack_int mid = lo + (hi - lo + 1) / 2;
        if (fits(arg, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The streamed plan of the Hermitian eigenproblem
 * (kernels/tiers/sy2sb_streamed.c, docs/design/memory.md), by the call's
 * plan (its band b, tile, group, segment and chase_band): A (its uplo
 * triangle) times sigma copied to host memory and reduced to a band of
 * half-width b in passes that stream its trailing matrix through the
 * device in tiles of tile x tile, then the band chased on the device as
 * he_tridiag's (the values' narrowed to chase_band first): d and e.  keep
 * (or NULL) receives Q for the vectors: stage 1's panels and T factors in
 * host memory, the chase's reflectors kept on the device (segment 0, as
 * the lean plan, he_tridiag_lean, keeps them) or parked in host memory
 * segment by segment (a chase in segments of segment sweeps, each
 * segment's store on the device only while it runs), applied tile
 * columns at a time by tridiag_q_apply_streamed (free it with
 * tridiag_q_free).  Its device bytes: streamed_device_bytes (group 0 for
 * the values; m columns of Z; products: stage 3's divide and conquer
 * multiplies on the device, in blocks of product_tile columns), the tier
 * of eig_plan_make, with the segment streamed_segment chooses for the
 * device. */
int GL_FN(he_tridiag_streamed)(const GL_FN(ops) *ops,
                               const gl_call_plan *plan, char uplo,
                               lapack_int n, const gl_scalar *a,
                               lapack_int lda, gl_real sigma, gl_real *d,
                               gl_real *e, GL_FN(tridiag_q) *keep,
                               gl_stage_times *times);
size_t GL_FN(streamed_device_bytes)(lapack_int n, lapack_int b,
                                    lapack_int tile, lapack_int group,
                                    lapack_int m, int products,
                                    lapack_int segment,
                                    lapack_int product_tile);
/* The sweeps per segment of the streamed chase with the vectors (the
 * planner's, kernels/pipelines/plans.c: segment of he_tridiag_streamed
 * and streamed_device_bytes), from the room the call's plan is fitted to
 * (its budget and the device's largest allocation, kernels/plan.h):
 * 0, the whole store kept on the device, where that plan fits; else the
 * most whole groups of sweeps whose plan fits, each segment's store
 * parked in host memory; about a block of Z's columns where the budget
 * is not known.  0 for the values (group 0). */
lapack_int GL_FN(streamed_segment)(const gl_room *room, lapack_int n,
                                   lapack_int b, lapack_int tile,
                                   lapack_int group, lapack_int m,
                                   int products, lapack_int product_tile);
/* One pass of a streamed plan over the tiles of its host copy
 * (kernels/tiers/tile_pass.c): the tiles of h(r_first:rows, c_first:cols) (ld
 * ldh; lower: only those from the diagonal's row of each column of
 * tiles), by columns of tiles of `tile` rows and columns, each up into
 * one of GL_TILE_BUFFERS device buffers (tile x tile, ld tile, one after
 * the other from `buffers`), then
 * update (NULL: none) and, with write_back, down into h again, then use,
 * on the copy lanes (ops.h tile_up) so that the next tile's upload and
 * the last one's download run beside the device's work.  update and use
 * enqueue device work only (on the compute queue).  Returns 0 once every
 * copy is done and the host copy whole again, or < 0 when the device
 * failed. */
typedef struct gl_tile {
    lapack_int r0, nr, c0, nc;   /* rows r0 .. r0+nr-1, columns c0 .. */
} gl_tile;
typedef struct GL_FN(tile_pass) {
    const GL_FN(ops) *ops;
    gl_scalar *h;
    lapack_int ldh, rows, cols, r_first, c_first, tile;
    int lower, write_back;
    gl_scalar *buffers;
    void (*update)(void *arg, const gl_tile *t, gl_scalar *dev,
                   lapack_int ld);
    void (*use)(void *arg, const gl_tile *t, const gl_scalar *dev,
                lapack_int ld);
    void *arg;
} GL_FN(tile_pass);
int GL_FN(tile_pass_run)(const GL_FN(tile_pass) *pass);
/* The parked chase's stores streamed past a block of the vectors
 * (kernels/tiers/tile_pass.c): parked_upload sends a segment's store (count
 * scalars of host memory) up into store buffer u (< GL_PARKED_BUFFERS) on
 * the upload lane once the device is done with the buffer's last store;
 * parked_ready makes the device's next work wait for buffer u's upload,
 * parked_used notes that the work enqueued so far is all that reads
 * it. */
void GL_FN(parked_upload)(const GL_FN(ops) *ops, const gl_scalar *src,
                          lapack_int count, gl_scalar *dst, int u);
void GL_FN(parked_ready)(const GL_FN(ops) *ops, int u);
void GL_FN(parked_used)(const GL_FN(ops) *ops, int u);

/* The lean plan of the Hermitian eigenvectors
 * (kernels/tiers/sy2sb_streamed.c), by the call's plan: stage 1 in core as
 * he_tridiag's (band b), then its panels and T factors to host memory and
 * the chase (of chase_band) and keep as he_tridiag_streamed's; its device
 * bytes (a tier of eig_plan_make). */
int GL_FN(he_tridiag_lean)(const GL_FN(ops) *ops, const gl_call_plan *plan,
                           char uplo, lapack_int n, const gl_scalar *a,
                           lapack_int lda, gl_real sigma, gl_real *d,
                           gl_real *e, GL_FN(tridiag_q) *keep,
                           gl_stage_times *times);
size_t GL_FN(lean_device_bytes)(const gl_call_plan *plan, lapack_int n,
                                lapack_int m, int products);
/* z (host, n x m) = Q diag(phase) Zt for a streamed Q: each block of
 * q->streamed_cols columns goes up once, takes the chase's reflectors
 * (the parked segments' stores up from host memory, the last segment
 * first, or the lean plan's store on the device) and stage 1's panels
 * (up from host memory, group by group) and comes back;
 * z is written only once every block succeeded.  zt (host, real, ld
 * ldzt) is scratch: overwritten. */
int GL_FN(tridiag_q_apply_streamed)(const GL_FN(ops) *ops,
                                    const GL_FN(tridiag_q) *q, lapack_int m,
                                    gl_real *zt, lapack_int ldzt,
                                    gl_scalar *z, lapack_int ldz);
/* The streamed plan of the SVD's values (kernels/tiers/ge2gb_streamed.c,
 * docs/design/memory.md): X = A (m >= n) or A^H, rows x cols, copied to
 * host memory and scaled by cto / cfrom as ?lascl (cto 0: not scaled),
 * reduced to an upper band of half-width b in passes that stream its
 * trailing matrix through the device in tiles of tile x tile, then the
 * band chased to bidiagonal on the device as svd's values path chases
 * it, in passes of tile_width (gb2bd): d (cols) and e (cols - 1).  Its
 * device bytes on a device of this tuning: ge_streamed_device_bytes (the
 * tier of svd_plan_make). */
int GL_FN(ge_bidiag_streamed)(const GL_FN(ops) *ops, lapack_int m,
                              lapack_int n, const gl_scalar *a, lapack_int lda,
                              gl_real cfrom, gl_real cto, lapack_int b,
                              lapack_int tile, lapack_int tile_width,
                              gl_real *d, gl_real *e, gl_stage_times *times);
size_t GL_FN(ge_streamed_device_bytes)(const gl_tuning *tuning,
                                       lapack_int rows, lapack_int cols,
                                       lapack_int b, lapack_int tile);
/* Stage 1 of that plan for the SVD's vectors (kernels/pipelines/svd.c): X,
 * scaled, copied into x (host, rows x cols, ld rows) and reduced there by the
 * same passes to the upper band of half-width b (clamped as above) in
 * band (host, 3b + 1 x cols), with each QR panel's reflectors kept below
 * its diagonal block and each LQ panel's right of its band rows, and
 * their T factors at their columns of tq and tp (host, b x cols each): the
 * layout ge2gb leaves in A, tq and tp.  t: the profile's marks of stage
 * 1's start and end.  Its device bytes: ge_streamed_stage1_bytes (the
 * arena and the panels' scratch, released before it returns). */
int GL_FN(ge_band_streamed)(const GL_FN(ops) *ops, lapack_int m, lapack_int n,
                            const gl_scalar *a, lapack_int lda, gl_real cfrom,
                            gl_real cto, lapack_int b, lapack_int tile,
                            gl_scalar *x, gl_scalar *tq, gl_scalar *tp,
                            gl_scalar *band, double t[2]);
size_t GL_FN(ge_streamed_stage1_bytes)(const gl_tuning *tuning,
                                       lapack_int rows, lapack_int cols,
                                       lapack_int b, lapack_int tile);

#endif
