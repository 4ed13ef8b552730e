/* The Hermitian eigenproblem by the vendor's solver (pipelines.h
 * eig_vendor): cuSOLVER's Xsyevd on CUDA, rocSOLVER's ?syevd/?heevd on
 * HIP, through the runtime's eig_solve (runtime/gpu.h) on the call's
 * context: A up once, the solver on the device, W (and Z) down once.
 *
 * Scaling: LAPACK's ?syev/?syevd scale A by sigma when max|a_ij| lies
 * outside [sqrt(safmin/eps), sqrt(eps/safmin)] and divide W by sigma
 * after; neither cuSOLVER nor rocSOLVER documents what it does there.  The
 * pipeline scales as LAPACK (and eig.c) does: the matrix the vendor sees
 * has a norm in LAPACK's safe range, so tiny and huge matrices neither
 * underflow nor overflow inside it, and W is unscaled as LAPACK's driver
 * unscales it (the vectors do not change).  The max-abs pass is needed
 * anyway (Inf/NaN stays with LAPACK); the scaled copy is made only when
 * sigma != 1 (rare), in the host image uploaded instead of A.
 *
 * INFO: an illegal argument (< 0) and a solver that did not converge (>
 * 0) both restart the call on LAPACK (GL_STAGE_FAULT): the vendor's
 * INFO > 0 is ?syevd's encoding, not ?syev's, and what it leaves in A
 * and W is not LAPACK's; LAPACK's own call gives LAPACK's INFO and
 * outputs.  A is read completely before anything is written to the
 * caller's arrays, and a failed read of Z over the caller's A puts A's
 * triangle back (as eig.c does), so the restart has the caller's data. */
#include <math.h>
#include <string.h>

#include "../../runtime/precision.h"
#include "../../runtime/log.h"
#include "../../runtime/memory.h"
#include "../../runtime/profile.h"
#include "../backend/lapack_fns.h"
#include "pipelines.h"

#define RT(ops) ((ops)->ctx->gpu)

/* A (its uplo triangle) times sigma into dev (ld n) through a host image;
 * 0, or -1 without host memory. */
static int upload_scaled(const GL_FN(ops) *ops, char uplo, lapack_int n,
                         const gl_scalar *a, lapack_int lda, gl_real sigma,
                         gl_scalar *dev)
{
    gl_scalar *image = gl_host_alloc(sizeof *image * (size_t)n * (size_t)n);
    if (!image)
        return -1;
    memset(image, 0, sizeof *image * (size_t)n * (size_t)n);
    for (lapack_int j = 0; j < n; j++) {
        lapack_int first;
        size_t rows = gl_triangle_rows(uplo, n, j, &first);
        for (size_t i = 0; i < rows; i++)
            image[first + i + (size_t)j * n] =
                a[first + i + (size_t)j * lda] * sigma;
    }
    ops->from_host(ops, 'N', n, n, image, n, dev, n);
    gl_host_free(image);
    return 0;
}

/* The device part: A up (scaled by sigma), the solver, W and Z down.
 * 0 or GL_STAGE_FAULT; the stage clocks into t[0..3]. */
static int vendor_solve(const GL_FN(ops) *ops, const gl_eig_job *job,
                        lapack_int n, const gl_scalar *a, lapack_int lda,
                        gl_real sigma, gl_real *w, gl_scalar *z,
                        lapack_int ldz, double *t)
{
    gl_ctx *ctx = ops->ctx;
    gl_scalar *dev = ops->alloc(ops, sizeof *dev * (size_t)n * (size_t)n);
    gl_real *wd = ops->alloc(ops, sizeof *wd * (size_t)n);
    int rc = GL_STAGE_FAULT, info = 0;
    if (!dev || !wd)
        goto out;
    if (sigma == 1)
        ops->from_host(ops, 'N', n, n, a, lda, dev, n);
    else if (upload_scaled(ops, job->uplo, n, a, lda, sigma, dev) != 0)
        goto out;
    t[1] = gl_profile_stage(ctx, "solve");
    if (RT(ops)->eig_solve(ctx, GL_PRECISION, z ? 'V' : 'N', job->uplo, n,
                           dev, n, wd, &info) != 0)
        goto out;
    t[2] = gl_profile_stage(ctx, "out");
    if (info != 0) {
        gl_log(1, "%s: the vendor's eigensolver returned INFO %d: the call "
                  "restarts on LAPACK", RT(ops)->name, info);
        goto out;
    }
    /* W into the caller's w (a restart writes it again), then Z */
    if (ops->real_to_host(ops, n, 1, wd, n, w, n) != 0 ||
        (z && ((const void *)z == (const void *)a
                   ? GL_FN(read_over_input)(ops, job->uplo, n, n, dev, z, ldz)
                   : ops->to_host_scratch(ops, n, n, dev, n, z, ldz))))
        goto out;
    rc = 0;
out:
    ops->release(ops, wd);
    ops->release(ops, dev);
    return rc;
}

/* gl_s_eig_vendor gl_d_eig_vendor gl_c_eig_vendor gl_z_eig_vendor */
int GL_FN(eig_vendor)(const GL_FN(ops) *ops, const gl_eig_job *job,
                      lapack_int n, const gl_scalar *a, lapack_int lda,
                      gl_real *w, gl_scalar *z, lapack_int ldz,
                      gl_stage_times *times)
{
    if (n == 0)
        return 0;
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    /* ?syev and ?syevd's whole spectrum, on a runtime with a solver */
    if (!f || !ops->ctx || !ops->ctx->gpu || !RT(ops)->eig_solve ||
        !ops->real_to_host || job->range != 'A' ||
        (job->driver != GL_EIG_SYEV && job->driver != GL_EIG_SYEVD) ||
        (job->uplo != 'U' && job->uplo != 'L') || n < 0 || lda < n ||
        (z && ldz < n))
        return GL_STAGE_FAULT;
    double t[4];
    t[0] = gl_profile_stage(ops->ctx, "upload");
    /* ?lanhe 'M' (the real part of the diagonal); Inf/NaN: LAPACK's */
    gl_real anrm = GL_FN(max_abs)(job->uplo, n, n, a, lda, 1);
    if (!isfinite(anrm))
        return GL_STAGE_NONFINITE;
    gl_real sigma = GL_FN(eig_sigma)(anrm, f->lamch("S", 1),
                                     f->lamch("P", 1), 0);
    int rc = vendor_solve(ops, job, n, a, lda, sigma, w, z, ldz, t);
    if (rc != 0)
        return rc;
    t[3] = gl_profile_stage(ops->ctx, "done");
    if (sigma != 1)   /* as LAPACK's driver: W times 1/sigma */
        for (lapack_int i = 0; i < n; i++)
            w[i] *= 1 / sigma;
    if (times)
        *times = (gl_stage_times){.stage1 = t[1] - t[0],
                                  .stage3 = t[2] - t[1],
                                  .back = t[3] - t[2]};
    return 0;
}
