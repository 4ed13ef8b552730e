/* What the two trees of divide and conquer share (divide_conquer.h): the
 * arrays of a solve, the leaves, the products of host arrays, the final
 * sorts, the given problem kept for a restart. */
#include <stdlib.h>
#include <string.h>

#include "../../runtime/memory.h"
#include "../../runtime/parallel.h"
#include "../../runtime/profile.h"
#include "divide_conquer.h"

/* gl_s_dc_start gl_d_dc_start gl_c_dc_start gl_z_dc_start */
GL_FN(dc) GL_FN(dc_start)(const GL_FN(ops) *ops, lapack_int min_leaf,
                          int device)
{
    lapack_int leaf = ops->ctx->tuning.dc_leaf;
    GL_FN(dc) s = {.ops = ops,
                   .f = GL_FN(lapack_fns_get)(),
                   .leaf = leaf < min_leaf ? min_leaf : leaf,
                   .device = device};
    return s;
}

/* gl_s_dc_free gl_d_dc_free gl_c_dc_free gl_z_dc_free */
void GL_FN(dc_free)(GL_FN(dc) *s)
{
    if (s->list)
        free(s->list->task);
    free(s->list);
    gl_host_free(s->merge_work);
    free(s->merge_iwork);
    free(s->idxq);
    free(s->rot);
    free(s->from);
    gl_host_free(s->leaf_host);
    if (s->device && !s->scratch_lent) {
        s->ops->release(s->ops, s->dq2);
        s->ops->release(s->ops, s->ds);
        s->ops->release(s->ops, s->dvt2);
        s->ops->release(s->ops, s->ds2);
    }
}

/* The arrays of a solve; 0, or -1 when one was refused (nothing held). */
/* gl_s_dc_alloc gl_d_dc_alloc gl_c_dc_alloc gl_z_dc_alloc */
int GL_FN(dc_alloc)(GL_FN(dc) *s, lapack_int n, size_t leaf_reals,
                    size_t leaf_ints, size_t merge_reals, size_t merge_ints)
{
    s->leaf_reals = leaf_reals;
    s->leaf_ints = leaf_ints;
    s->list = calloc(1, sizeof *s->list);
    if (s->list)   /* every leaf has a row */
        s->list->task = malloc(sizeof *s->list->task * (size_t)n);
    s->merge_work = gl_host_alloc(sizeof(gl_real) * merge_reals);
    s->merge_iwork = malloc(sizeof(lapack_int) * merge_ints);
    s->idxq = malloc(sizeof(lapack_int) * (size_t)n);
    s->rot = malloc(sizeof *s->rot * (size_t)n);
    s->from = malloc(sizeof(lapack_int) * ((size_t)n + 1));
    if (s->list && s->list->task && s->merge_work && s->merge_iwork &&
        s->idxq && s->rot && s->from)
        return 0;
    GL_FN(dc_free)(s);
    return -1;
}

/* With the vectors on the device: the leaves' host blocks and the
 * device's n x n scratch. */
/* gl_s_dc_alloc_device gl_d_dc_alloc_device gl_c_dc_alloc_device gl_z_dc_alloc_device */
int GL_FN(dc_alloc_device)(GL_FN(dc) *s, lapack_int n, size_t leaf_host_reals,
                           int svd, gl_real *scratch)
{
    const GL_FN(ops) *ops = s->ops;
    size_t nn = (size_t)n;
    if (!(s->leaf_host = gl_host_alloc(sizeof(gl_real) * leaf_host_reals)))
        return -1;
    if (scratch) {
        s->scratch_lent = 1;
        s->dq2 = scratch;
        s->ds = scratch + nn * nn;
        s->dvt2 = svd ? scratch + 2 * nn * nn : NULL;
        s->ds2 = svd ? scratch + 3 * nn * nn : NULL;
        return 0;
    }
    if (!(s->dq2 = ops->alloc(ops, sizeof(gl_real) * nn * nn)) ||
        (svd && !(s->dvt2 = ops->alloc(ops, sizeof(gl_real) * nn * nn))) ||
        !(s->ds = ops->alloc(ops, sizeof(gl_real) * nn * nn)) ||
        (svd && !(s->ds2 = ops->alloc(ops, sizeof(gl_real) * nn * nn))))
        return -1;
    return 0;
}

/* d (n values) sorted descending or ascending in the order of a
 * selection sort (?bdsdc's and ?stedc's final sort: the same order for
 * equal values); from[i] = the index value i came from.  Returns 0, or -1
 * without memory. */
/* gl_s_dc_sort_order gl_d_dc_sort_order gl_c_dc_sort_order gl_z_dc_sort_order */
int GL_FN(dc_sort_order)(lapack_int n, gl_real *d, int descending,
                         lapack_int *from)
{
    size_t nn = (size_t)n;
    gl_real *sorted = malloc(sizeof *sorted * nn);
    if (!sorted)
        return -1;
    /* the selection sort on (value, origin) pairs */
    memcpy(sorted, d, sizeof *d * nn);
    for (lapack_int i = 0; i < n; i++)
        from[i] = i;
    for (lapack_int i = 0; i + 1 < n; i++) {
        lapack_int kk = i;
        for (lapack_int j = i + 1; j < n; j++)
            if (descending ? sorted[j] > sorted[kk] : sorted[j] < sorted[kk])
                kk = j;
        gl_real t = sorted[kk];
        sorted[kk] = sorted[i];
        sorted[i] = t;
        lapack_int o = from[kk];
        from[kk] = from[i];
        from[i] = o;
    }
    memcpy(d, sorted, sizeof *d * nn);
    free(sorted);
    return 0;
}

/* d sorted as dc_sort_order sorts it, the columns of cols (n rows) and,
 * unless rows is NULL, the rows of rows (n columns) permuted with it.
 * The permutation is found on d alone, then applied in one pass: columns
 * moved along the permutation's cycles, rows gathered within each column.
 * Exchanging rows one pair at a time reads across columns, a cache and
 * TLB miss per element: seconds at n = 8192. */
/* gl_s_dc_sort_pairs gl_d_dc_sort_pairs gl_c_dc_sort_pairs gl_z_dc_sort_pairs */
int GL_FN(dc_sort_pairs)(lapack_int n, gl_real *d, int descending,
                         gl_real *cols, lapack_int ldc, gl_real *rows,
                         lapack_int ldr)
{
    size_t nn = (size_t)n;
    lapack_int *from = malloc(sizeof *from * nn);
    gl_real *col = malloc(sizeof *col * nn);
    unsigned char *done = calloc(nn, 1);
    if (!from || !col || !done ||
        GL_FN(dc_sort_order)(n, d, descending, from) != 0) {
        free(from);
        free(col);
        free(done);
        return -1;
    }
    /* column i of the result is column from[i] */
    for (lapack_int i = 0; i < n; i++) {
        if (done[i] || from[i] == i)
            continue;
        memcpy(col, &RAT(cols, ldc, 0, i), sizeof *col * nn);
        lapack_int j = i;
        while (from[j] != i) {
            memcpy(&RAT(cols, ldc, 0, j), &RAT(cols, ldc, 0, from[j]),
                   sizeof *col * nn);
            done[j] = 1;
            j = from[j];
        }
        memcpy(&RAT(cols, ldc, 0, j), col, sizeof *col * nn);
        done[j] = 1;
    }
    /* row i of the result is row from[i] */
    for (lapack_int c = 0; rows && c < n; c++) {
        gl_real *x = &RAT(rows, ldr, 0, c);
        for (lapack_int i = 0; i < n; i++)
            col[i] = x[from[i]];
        memcpy(x, col, sizeof *col * nn);
    }
    free(from);
    free(col);
    free(done);
    return 0;
}

/* The final sort of ?bdsdc and ?stedc with the vectors on the device:
 * U's (Z's) columns and VT's rows gathered there. */
/* gl_s_dc_sort_device gl_d_dc_sort_device gl_c_dc_sort_device gl_z_dc_sort_device */
int GL_FN(dc_sort_device)(const GL_FN(dc) *s, lapack_int n, gl_real *d,
                          int descending, gl_real *cols, lapack_int ldc,
                          gl_real *rows, lapack_int ldr)
{
    const GL_FN(ops) *ops = s->ops;
    if (GL_FN(dc_sort_order)(n, d, descending, s->from) != 0 ||
        ops->dc_gather(ops, n, n, 0, s->from, cols, ldc, s->dq2, n) ||
        ops->real_copy(ops, n, n, s->dq2, n, cols, ldc))
        return -1;
    if (rows && (ops->dc_gather(ops, n, n, 1, s->from, rows, ldr, s->dvt2, n) ||
                 ops->real_copy(ops, n, n, s->dvt2, n, rows, ldr)))
        return -1;
    return 0;
}

/* d and e (n and n - 1 values) as given, or NULL.  Our tree of merges
 * meets other secular equations than the system routine's, and ?lasd4 or
 * ?laed4 can fail to converge on one of ours where the system's tree has
 * none (single precision, entries over ten decades, test_device_ops):
 * the call then starts again from these with the system routine, whose
 * result (or INFO) is what LAPACK gives. */
/* gl_s_dc_keep_given gl_d_dc_keep_given gl_c_dc_keep_given gl_z_dc_keep_given */
gl_real *GL_FN(dc_keep_given)(lapack_int n, const gl_real *d,
                              const gl_real *e)
{
    gl_real *given = malloc(sizeof *given * 2 * (size_t)n);
    if (given) {
        memcpy(given, d, sizeof *d * (size_t)n);
        memcpy(given + n, e, sizeof *e * (size_t)(n - 1));
    }
    return given;
}

/* gl_s_dc_restore_given gl_d_dc_restore_given gl_c_dc_restore_given gl_z_dc_restore_given */
void GL_FN(dc_restore_given)(lapack_int n, const gl_real *given, gl_real *d,
                             gl_real *e)
{
    memcpy(d, given, sizeof *d * (size_t)n);
    memcpy(e, given + n, sizeof *e * (size_t)(n - 1));
}

/* C = op(A) B of host arrays: on the device when it pays; on the host
 * where the backend has no product (the host backend, which runs the
 * whole divide and conquer only past dc_system_overflows). */
/* gl_s_dc_product gl_d_dc_product gl_c_dc_product gl_z_dc_product */
int GL_FN(dc_product)(const GL_FN(dc) *s, char transa, lapack_int m,
                      lapack_int n, lapack_int k, const gl_real *a,
                      lapack_int lda, const gl_real *b, lapack_int ldb,
                      gl_real *c, lapack_int ldc)
{
    if (s->ops->real_product &&
        k >= (s->leaf < DEVICE_MIN_K ? s->leaf : DEVICE_MIN_K))
        return s->ops->real_product(s->ops, transa, m, n, k, a, lda, b, ldb, c,
                                    ldc);
    const gl_real one = 1, zero = 0;
    double clock = gl_profile_clock(s->ops->ctx);
    s->f->rgemm(&transa, "N", &m, &n, &k, &one, a, &lda, b, &ldb, &zero, c,
                &ldc, 1, 1);
    gl_profile_section(s->ops->ctx, "dc small products on the host", clock);
    return 0;
}

/* A leaf found by the first walk; with the vectors on the device it is
 * solved into host blocks (U's, then VT's), then copied. */
/* gl_s_dc_list_leaf gl_d_dc_list_leaf gl_c_dc_list_leaf gl_z_dc_list_leaf */
void GL_FN(dc_list_leaf)(const GL_FN(dc) *s, GL_FN(dc_leaf) t)
{
    if (s->device) {
        lapack_int n = t.n, m = n + t.sqre;
        t.dev = t.u;
        t.lddev = t.ldu;
        t.u = s->leaf_host + s->list->host_used;
        t.ldu = n;
        s->list->host_used += (size_t)n * (size_t)n;
        if (t.vt) {
            t.dev_vt = t.vt;
            t.lddev_vt = t.ldvt;
            t.vt = t.u + (size_t)n * (size_t)n;
            t.ldvt = m;
            s->list->host_used += (size_t)m * (size_t)m;
        }
    }
    s->list->task[s->list->count++] = t;
}

/* The leaves of the device path, solved into their host blocks, into
 * their blocks of Z (U and VT). */
static int leaves_to_device(const GL_FN(dc) *s)
{
    for (long i = 0; i < s->list->count; i++) {
        const GL_FN(dc_leaf) *t = &s->list->task[i];
        lapack_int m = t->n + t->sqre;
        if (s->ops->real_to_device(s->ops, t->n, t->n, t->u, t->ldu, t->dev,
                                   t->lddev) ||
            (t->dev_vt && s->ops->real_to_device(s->ops, m, m, t->vt, t->ldvt,
                                                 t->dev_vt, t->lddev_vt)))
            return -1;
    }
    return 0;
}

/* Leaves on the host's threads, each with its own work, then (vectors on
 * the device) copied there; 0, the INFO > 0 of a leaf, or -1. */
/* gl_s_dc_solve_leaves gl_d_dc_solve_leaves gl_c_dc_solve_leaves gl_z_dc_solve_leaves */
int GL_FN(dc_solve_leaves)(const GL_FN(dc) *s,
                           int (*leaf)(void *ctx, long i))
{
    s->list->info = 0;
    double clock = gl_profile_clock(s->ops->ctx);
    int rc = gl_parallel_for(s->list->count, leaf, (void *)s);
    gl_profile_section(s->ops->ctx, "dc leaves", clock);
    if (s->list->info > 0)
        return s->list->info;
    if (rc != 0)
        return -1;
    return s->device ? leaves_to_device(s) : 0;
}

/* gl_s_dc_leaf_failed gl_d_dc_leaf_failed gl_c_dc_leaf_failed gl_z_dc_leaf_failed */
void GL_FN(dc_leaf_failed)(const GL_FN(dc) *s, lapack_int info)
{
    if (info > 0)
        __atomic_store_n(&s->list->info, info, __ATOMIC_RELAXED);
}
