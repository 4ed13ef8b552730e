/* The back-transformations: the stage-2 reflectors kept by the chase,
 * grouped into compact-WY parallelograms (algorithms.md 3.2), and the
 * stage-1 block reflectors of the panels, applied with BLAS3 (?larfb). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lapack_api/precision.h"
#include "lapack_fns.h"
#include "stages.h"

/* Steps of sweep s of a chase to half-width 1 (kernels/ref/chase.c). */
static lapack_int chase_steps(lapack_int n, lapack_int b, lapack_int s)
{
    return s + 2 > n - 1 ? 0 : (n - 3 - s) / b + 1;
}

int GL_FN(reflectors_alloc)(const GL_FN(ops) *ops, GL_FN(reflectors) *r,
                            lapack_int n, lapack_int b, lapack_int group,
                            int two_sided)
{
    memset(r, 0, sizeof *r);
    if (group < 1)
        group = 1;
    r->n = n, r->b = b, r->group = group;
    /* half-width 1 or less: nothing to chase, nothing kept */
    r->ngroups = n > 2 && b > 1 ? (n - 2 + group - 1) / group : 0;
    r->first = malloc(sizeof *r->first * (size_t)(r->ngroups + 1));
    if (!r->first)
        return GL_STAGE_FAULT;
    r->first[0] = 0;
    for (lapack_int g = 0; g < r->ngroups; g++)
        r->first[g + 1] = r->first[g] + chase_steps(n, b, g * group) * group;
    size_t cols = (size_t)r->first[r->ngroups] + 1;
    size_t bytes = sizeof(gl_scalar) * cols * ((size_t)b + 1);
    r->vq = ops->alloc(bytes);
    r->vp = two_sided ? ops->alloc(bytes) : NULL;
    if (!r->vq || (two_sided && !r->vp)) {
        GL_FN(reflectors_free)(ops, r);
        return GL_STAGE_FAULT;
    }
    r->tauq = r->vq + cols * (size_t)b;
    r->taup = two_sided ? r->vp + cols * (size_t)b : NULL;
    /* slots the chase never reaches (past the end of short sweeps) must
     * read as H = I */
    gl_scalar *zeros = calloc(cols, sizeof *zeros);
    if (!zeros) {
        GL_FN(reflectors_free)(ops, r);
        return GL_STAGE_FAULT;
    }
    ops->from_host('N', (lapack_int)cols, 1, zeros, (lapack_int)cols, r->tauq,
                   (lapack_int)cols);
    if (two_sided)
        ops->from_host('N', (lapack_int)cols, 1, zeros, (lapack_int)cols,
                       r->taup, (lapack_int)cols);
    free(zeros);
    return 0;
}

void GL_FN(reflectors_free)(const GL_FN(ops) *ops, GL_FN(reflectors) *r)
{
    ops->release(r->vq);
    ops->release(r->vp);
    free(r->first);
    memset(r, 0, sizeof *r);
}

/* Blocks built and handed to the backend at a time: bounds the memory
 * for V and Y (2 (b + group) group scalars per block). */
enum { BATCH = 128 };

int GL_FN(apply_chase)(const GL_FN(ops) *ops, const GL_FN(reflectors) *r,
                       char which, char trans, lapack_int ncols, gl_scalar *e,
                       lapack_int lde)
{
    const GL_FN(lapack_fns) *f = GL_FN(lapack_fns_get)();
    const lapack_int n = r->n, b = r->b, group = r->group;
    if (r->ngroups == 0 || ncols == 0)
        return 0;
    const gl_scalar *vstore = which == 'P' ? r->vp : r->vq;
    const gl_scalar *taustore = which == 'P' ? r->taup : r->tauq;
    /* One parallelogram: rows = b + group - 1 at most, group columns. */
    lapack_int ldv = b + group - 1, ldt = group;
    size_t stride = (size_t)ldv * (size_t)group;
    size_t hsize = 2 * BATCH * stride + (size_t)group * group + stride;
    gl_scalar *host = malloc(sizeof *host * hsize);
    /* The reflectors in host memory: the store itself, or one read of it
     * (not a read per block: each is a wait for the device). */
    size_t slots = (size_t)r->first[r->ngroups];
    gl_scalar *copy = ops->host_memory
                          ? NULL
                          : malloc(sizeof *copy * slots * ((size_t)b + 1));
    const gl_scalar *vhost = ops->host_memory ? vstore : copy;
    const gl_scalar *thost = ops->host_memory ? taustore : copy + slots * b;
    gl_scalar *dev = ops->alloc(sizeof *dev * 2 * BATCH * stride);
    lapack_int *dims = malloc(sizeof *dims * 3 * BATCH);
    int rc = 0;
    if (!host || !dev || !dims || (!ops->host_memory && !copy) ||
        (copy && (ops->to_host(b, (lapack_int)slots, vstore, b, copy, b) ||
                  ops->to_host((lapack_int)slots, 1, taustore,
                               (lapack_int)slots, copy + slots * b,
                               (lapack_int)slots)))) {
        rc = GL_STAGE_FAULT;
        goto out;
    }
    gl_scalar *hv = host, *hy = hv + BATCH * stride, *t = hy + BATCH * stride,
              *packed = t + (size_t)group * group;
    lapack_int *row0s = dims, *rowss = dims + BATCH, *ks = dims + 2 * BATCH;
    int batch = 0;

    /* Q E = (groups last to first) of (steps first to last) of B_j E, with
     * B_j = H(s0,j) ... H(s0+group-1,j): H(s,j) overlaps only H(s',j-1)
     * for s' > s, which this order keeps after it.  Q^H E reverses it. */
    int forward = trans == 'N';
    for (lapack_int gi = 0; gi < r->ngroups && rc == 0; gi++) {
        lapack_int g = forward ? r->ngroups - 1 - gi : gi;
        lapack_int s0 = g * group;
        lapack_int steps = (r->first[g + 1] - r->first[g]) / group;
        for (lapack_int ji = 0; ji < steps && rc == 0; ji++) {
            lapack_int j = forward ? ji : steps - 1 - ji;
            lapack_int row0 = s0 + 1 + j * b;
            lapack_int row1 = s0 + group - 1 + (j + 1) * b;
            if (row1 > n - 1)
                row1 = n - 1;
            lapack_int rows = row1 - row0 + 1;
            lapack_int k = group < rows ? group : rows;
            if (k <= 0)
                continue;
            size_t col = (size_t)r->first[g] + (size_t)j * group;
            const gl_scalar *vcols = vhost + col * (size_t)b,
                            *tau = thost + col;
            int any = 0;
            for (lapack_int c = 0; c < k; c++)
                any |= tau[c] != 0;
            if (!any)
                continue;
            /* column c of the parallelogram: rows c .. c+b-1; a slot the
             * chase never wrote (tau = 0) may hold anything: H = I is e_c */
            gl_scalar *v = hv + batch * stride, *y = hy + batch * stride;
            for (lapack_int c = 0; c < k; c++) {
                gl_scalar *vc = v + (size_t)c * ldv;
                memset(vc, 0, sizeof *vc * (size_t)rows);
                lapack_int len = rows - c < b ? rows - c : b;
                if (tau[c] != 0)
                    memcpy(vc + c, vcols + (size_t)c * b,
                           sizeof *vc * (size_t)len);
                else
                    vc[c] = 1;
            }
            /* Y = V T (Q) or V T^H (Q^H); V^H over V, now unused */
            f->larft("F", "C", &rows, &k, v, &ldv, tau, t, &ldt, 1, 1);
            for (lapack_int c = 0; c < k; c++)
                memcpy(y + (size_t)c * ldv, v + (size_t)c * ldv,
                       sizeof *y * (size_t)rows);
            gl_scalar one = 1;
            f->trmm("R", "U", forward ? "N" : "C", "N", &rows, &k, &one, t,
                    &ldt, y, &ldv, 1, 1, 1, 1);
            for (lapack_int c = 0; c < k; c++)
                for (lapack_int i = 0; i < rows; i++)
                    packed[c + (size_t)i * k] = GL_CONJ(v[i + (size_t)c * ldv]);
            memcpy(v, packed, sizeof *v * (size_t)rows * (size_t)k);
            row0s[batch] = row0, rowss[batch] = rows, ks[batch] = k;
            if (++batch == BATCH) {
                ops->from_host('N', (lapack_int)stride, 2 * batch, host,
                               (lapack_int)stride, dev, (lapack_int)stride);
                rc = ops->apply_wy(batch, row0s, rowss, ks, dev,
                                   dev + BATCH * stride, ldv, stride, ncols,
                                   e, lde);
                batch = 0;
            }
        }
    }
    if (rc == 0 && batch > 0) {
        ops->from_host('N', (lapack_int)stride, batch, hv, (lapack_int)stride,
                       dev, (lapack_int)stride);
        ops->from_host('N', (lapack_int)stride, batch, hy, (lapack_int)stride,
                       dev + BATCH * stride, (lapack_int)stride);
        rc = ops->apply_wy(batch, row0s, rowss, ks, dev, dev + BATCH * stride,
                           ldv, stride, ncols, e, lde);
    }
    if (rc != 0)
        rc = GL_STAGE_FAULT;
out:
    free(host);
    free(copy);
    free(dims);
    ops->release(dev);
    return rc;
}

int GL_FN(apply_panels)(const GL_FN(ops) *ops, char storev, char trans,
                        lapack_int len, lapack_int nref, lapack_int nb,
                        const gl_scalar *v, lapack_int ldv,
                        const gl_scalar *t, lapack_int ncols, gl_scalar *e,
                        lapack_int lde)
{
    if (nref <= 0 || ncols <= 0)
        return 0;
    lapack_int npanels = (nref + nb - 1) / nb;
    int forward = trans == 'N';
    for (lapack_int pi = 0; pi < npanels; pi++) {
        lapack_int p = forward ? npanels - 1 - pi : pi;
        lapack_int k = p * nb, kk = nref - k < nb ? nref - k : nb;
        const gl_scalar *vk = v + (size_t)k + (size_t)k * ldv;
        if (ops->larfb('L', trans, storev, len - k, ncols, kk, vk, ldv,
                       t + (size_t)k * nb, nb, e + k, lde))
            return GL_STAGE_FAULT;
    }
    return 0;
}

/* ---- diagonal phases --------------------------------------------------- */

/* x / |x|, and 1 for x = 0 */
static gl_scalar unit_phase(gl_scalar x)
{
    gl_real a = GL_ABS(x);
    return a == 0 ? 1 : x / a;
}

void GL_FN(bidiagonal_phases)(lapack_int n, const gl_scalar *d,
                              const gl_scalar *e, gl_scalar *left,
                              gl_scalar *right)
{
    /* conj(l_i) d_i r_i = |d_i| and conj(l_i) e_i r_{i+1} = |e_i| */
    right[0] = 1;
    for (lapack_int i = 0; i < n; i++) {
        left[i] = unit_phase(d[i] * right[i]);
        if (i + 1 < n)
            right[i + 1] = left[i] * GL_CONJ(unit_phase(e[i]));
    }
}

void GL_FN(tridiagonal_phases)(lapack_int n, const gl_scalar *e,
                               gl_scalar *p)
{
    /* conj(p_{i+1}) e_i p_i = |e_i| for the subdiagonal e */
    p[0] = 1;
    for (lapack_int i = 0; i + 1 < n; i++)
        p[i + 1] = p[i] * unit_phase(e[i]);
}

void GL_FN(conj_transpose)(lapack_int rows, lapack_int cols,
                           const gl_scalar *src, gl_scalar *dst,
                           lapack_int ldd)
{
    for (lapack_int i = 0; i < rows; i++)
        for (lapack_int j = 0; j < cols; j++)
            dst[j + (size_t)i * ldd] = GL_CONJ(src[i + (size_t)j * rows]);
}

void GL_FN(scale_rows)(lapack_int rows, lapack_int cols, const gl_scalar *phase,
                       const gl_real *x, lapack_int ldx, int transpose,
                       gl_scalar *y, lapack_int ldy)
{
    for (lapack_int j = 0; j < cols; j++)
        for (lapack_int i = 0; i < rows; i++) {
            gl_real xij = transpose ? x[j + (size_t)i * ldx]
                                    : x[i + (size_t)j * ldx];
            y[i + (size_t)j * ldy] = phase[i] * xij;
        }
}
