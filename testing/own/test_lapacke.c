/*
 * test_lapacke: LAPACKE callers. LAPACKE's high-level functions query the
 * workspace, allocate it and call the Fortran symbol, which resolves to
 * the library (preloaded): LAPACKE_?gesdd, ?gesvd, ?syev/?heev, ?syevd/?heevd,
 * ?syevr/?heevr, ?syevx/?heevx, ?sytrd/?hetrd and the 2-stage drivers, in
 * column-major and row-major layout (row-major with padded leading
 * dimensions), and the band routines ?gbbrd, ?sbtrd/?hbtrd, ?sbev/?hbev,
 * ?sbevd/?hbevd in column-major. Results must equal the real LAPACK's on
 * the same input with the same (optimal) workspace, and every LAPACKE call
 * must show up in GPULAPACK_LOG as one call of the routine.
 */
#include "testutil.h"
#include <lapacke.h>

/* LAPACKE_<p><name> for s/d (sname) and c/z (hname) */
#define P4(sname, hname, ...)                                        \
    switch (c->p) {                                                  \
    case 's': return LAPACKE_s##sname(__VA_ARGS__);                  \
    case 'd': return LAPACKE_d##sname(__VA_ARGS__);                  \
    case 'c': return LAPACKE_c##hname(__VA_ARGS__);                  \
    default: return LAPACKE_z##hname(__VA_ARGS__);                   \
    }

typedef struct {
    void *a, *u, *vt; /* matrices as handed to LAPACKE */
    int lda, ldu, ldvt;
    void *superb;
} lk_args;

static int call_lapacke(tu_case *c, int layout, lk_args *x, void **P)
{
    char *o = c->o;
    switch (c->fam) {
    case F_GESDD:
        P4(gesdd, gesdd, layout, o[0], c->m, c->n, x->a, x->lda, P[B_W], x->u, x->ldu, x->vt, x->ldvt)
    case F_GESVD:
        P4(gesvd, gesvd, layout, o[0], o[1], c->m, c->n, x->a, x->lda, P[B_W], x->u, x->ldu, x->vt,
           x->ldvt, x->superb)
    case F_SYEV:
        P4(syev, heev, layout, o[0], o[1], c->n, x->a, x->lda, P[B_W])
    case F_SYEVD:
        P4(syevd, heevd, layout, o[0], o[1], c->n, x->a, x->lda, P[B_W])
    case F_SYEV2:
        P4(syev_2stage, heev_2stage, layout, o[0], o[1], c->n, x->a, x->lda, P[B_W])
    case F_SYEVD2:
        P4(syevd_2stage, heevd_2stage, layout, o[0], o[1], c->n, x->a, x->lda, P[B_W])
    case F_SYEVR:
        P4(syevr, heevr, layout, o[0], o[1], o[2], c->n, x->a, x->lda, c->vl, c->vu, c->il, c->iu,
           c->abstol, &c->mout, P[B_W], x->u, x->ldu, P[B_ISUPPZ])
    case F_SYEVR2:
        P4(syevr_2stage, heevr_2stage, layout, o[0], o[1], o[2], c->n, x->a, x->lda, c->vl, c->vu,
           c->il, c->iu, c->abstol, &c->mout, P[B_W], x->u, x->ldu, P[B_ISUPPZ])
    case F_SYEVX:
        P4(syevx, heevx, layout, o[0], o[1], o[2], c->n, x->a, x->lda, c->vl, c->vu, c->il, c->iu,
           c->abstol, &c->mout, P[B_W], x->u, x->ldu, P[B_IFAIL])
    case F_SYEVX2:
        P4(syevx_2stage, heevx_2stage, layout, o[0], o[1], o[2], c->n, x->a, x->lda, c->vl, c->vu,
           c->il, c->iu, c->abstol, &c->mout, P[B_W], x->u, x->ldu, P[B_IFAIL])
    case F_SYTRD:
        P4(sytrd, hetrd, layout, o[0], c->n, x->a, x->lda, P[B_W], P[B_E], P[B_TAU])
    case F_GBBRD:
        P4(gbbrd, gbbrd, layout, o[0], c->m, c->n, c->ncc, c->k, c->ku, x->a, x->lda, P[B_W],
           P[B_E], x->u, x->ldu, x->vt, x->ldvt, P[B_C], c->ldc)
    case F_SBTRD:
        P4(sbtrd, hbtrd, layout, o[0], o[1], c->n, c->k, x->a, x->lda, P[B_W], P[B_E], x->u, x->ldu)
    case F_SBEV:
        P4(sbev, hbev, layout, o[0], o[1], c->n, c->k, x->a, x->lda, P[B_W], x->u, x->ldu)
    case F_SBEVD:
        P4(sbevd, hbevd, layout, o[0], o[1], c->n, c->k, x->a, x->lda, P[B_W], x->u, x->ldu)
    }
    return -999;
}

/* column-major (ld) <-> row-major (ldr) copies of a rows x cols matrix */
static void to_rm(char t, const void *cm, int ld, void *rm, int ldr, int rows, int cols)
{
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            tu_put(t, rm, (size_t)i * ldr + j, tu_get(t, cm, (size_t)i + (size_t)j * ld));
}
static void from_rm(char t, void *cm, int ld, const void *rm, int ldr, int rows, int cols)
{
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            tu_put(t, cm, (size_t)i + (size_t)j * ld, tu_get(t, rm, (size_t)i * ldr + j));
}

static void *rm_alloc(char t, int rows, int ldr)
{
    size_t n = (size_t)(rows > 0 ? rows : 1) * (ldr > 0 ? ldr : 1), i;
    void *p = malloc(n * tu_esz(t));
    for (i = 0; i < n; i++)
        tu_put(t, p, i, NAN);
    return p;
}

static void run(tu_spec s, int layout)
{
    tu_case c;
    tu_res o, r;
    lk_args x;
    char nm[160], msg[1200];
    int ok, b, ret, rowm = layout == LAPACK_ROW_MAJOR;
    int mn = tu_imin(s.m, s.n);
    long mark;
    void *superb;
    s.lwork = s.lrwork = s.liwork = TU_LW_OPT; /* what LAPACKE asks for */
    if (tu_build(&s, &c) != 0) {
        tu_case_free(&c);
        return;
    }
    snprintf(nm, sizeof nm, "LAPACKE_%s/%s/%s/%dx%d", tu_rname(c.fam, c.p),
             rowm ? "row-major" : "col-major", c.o, c.m, c.n);
    tu_exec(&c, 1, &r);
    tu_res_alloc(&c, &o);
    superb = malloc(sizeof(double) * (size_t)(mn > 1 ? mn : 1));
    memset(&x, 0, sizeof x);
    x.superb = superb;
    if (!rowm) {
        x.a = o.c.ptr[B_A]; x.lda = c.lda;
        x.u = o.c.ptr[B_U]; x.ldu = c.ldu;
        x.vt = o.c.ptr[B_VT]; x.ldvt = c.ldvt;
    } else {
        tu_buf *A = &c.b[B_A], *U = &c.b[B_U], *V = &c.b[B_VT];
        /* padded; LAPACKE's row-major checks want LDU/LDVT/LDZ >= the
         * column count even where the array is not referenced */
        int big = tu_imax(c.m, c.n) + 2;
        x.lda = A->cols + 1;
        x.a = rm_alloc(c.p, A->rows, x.lda);
        to_rm(c.p, c.b[B_A].init, A->ld, x.a, x.lda, A->rows, A->cols);
        x.ldu = big;
        x.u = rm_alloc(c.p, tu_imax(U->rows, big), x.ldu);
        x.ldvt = big;
        x.vt = rm_alloc(c.p, tu_imax(V->rows, big), x.ldvt);
    }
    o.c.mout = -424242;
    tu_xb_reset();
    mark = tu_log_mark();
    ret = call_lapacke(&o.c, layout, &x, o.c.ptr);
    o.c.info = ret;
    o.xcalls = tu_xb_calls;
    o.xinfo = tu_xb_info;
    memcpy(o.xname, tu_xb_name, sizeof o.xname);
    o.logn = tu_log_count(mark, tu_rname(c.fam, c.p), &o.loginfo, &o.logbad);
    o.logall = tu_log_count(mark, NULL, NULL, NULL);
    if (rowm) {
        tu_buf *A = &c.b[B_A], *U = &c.b[B_U], *V = &c.b[B_VT];
        from_rm(c.p, o.c.ptr[B_A], A->ld, x.a, x.lda, A->rows, A->cols);
        /* Z: only the M columns found (LAPACKE copies back all of its
         * own, uninitialised, buffer) */
        from_rm(c.p, o.c.ptr[B_U], U->ld, x.u, x.ldu, U->rows,
                tu_is_rangefam(c.fam) ? tu_imin(U->cols, tu_imax(o.c.mout, 0)) : U->cols);
        from_rm(c.p, o.c.ptr[B_VT], V->ld, x.vt, x.ldvt, V->rows, V->cols);
        free(x.a);
        free(x.u);
        free(x.vt);
    }
    /* workspaces are LAPACKE's own: not compared */
    for (b = 0; b < TU_NB; b++)
        if (b == B_WORK || b == B_RWORK || b == B_IWORK || b == B_H)
            c.b[b].role = 0;
    ok = tu_compare_q(&c, &o, &r, 1, msg, sizeof msg);
    if (ok)
        tu_report(1, nm, "%s", c.desc);
    else
        tu_report(0, nm, "%s [%s]", msg, c.desc);
    free(superb);
    tu_res_free(&o);
    tu_res_free(&r);
    tu_case_free(&c);
}

int main(void)
{
    int pi, lay, f;
    double t0 = tu_now();
    tu_init("test_lapacke");
    tu_check_front();
    for (pi = 0; pi < 4; pi++) {
        char p = tu_precs[pi];
        for (lay = 0; lay < 2; lay++) {
            int L = lay ? LAPACK_ROW_MAJOR : LAPACK_COL_MAJOR;
            static const char *jz[] = {"A", "S", "O", "N"};
            static const char *jv[] = {"AA", "SS", "NN", "OS", "SO"};
            tu_spec s;
            int k;
            for (k = 0; k < 4; k++) {
                run(tu_mk(F_GESDD, p, jz[k], 9, 6), L);
                run(tu_mk(F_GESDD, p, jz[k], 5, 8), L);
            }
            for (k = 0; k < 5; k++) {
                run(tu_mk(F_GESVD, p, jv[k], 8, 6), L);
                run(tu_mk(F_GESVD, p, jv[k], 6, 9), L);
            }
            run(tu_mk(F_SYEV, p, "VU", 0, 9), L);
            run(tu_mk(F_SYEV, p, "NL", 0, 9), L);
            run(tu_mk(F_SYEVD, p, "VL", 0, 10), L);
            run(tu_mk(F_SYEVD, p, "NU", 0, 10), L);
            run(tu_mk(F_SYEVR, p, "VAU", 0, 9), L);
            s = tu_mk(F_SYEVR, p, "VIL", 0, 9); s.il = 2; s.iu = 5; run(s, L);
            s = tu_mk(F_SYEVX, p, "VVU", 0, 9); s.vlo = 3; s.vhi = 7; run(s, L);
            s = tu_mk(F_SYEVX, p, "VIL", 0, 9); s.il = 1; s.iu = 4; run(s, L);
            run(tu_mk(F_SYTRD, p, "U", 0, 9), L);
            run(tu_mk(F_SYTRD, p, "L", 0, 9), L);
            run(tu_mk(F_SYEV2, p, "NU", 0, 9), L);
            run(tu_mk(F_SYEVD2, p, "NL", 0, 9), L);
            s = tu_mk(F_SYEVR2, p, "NIL", 0, 9); s.il = 2; s.iu = 6; run(s, L);
            run(tu_mk(F_SYEVX2, p, "NAU", 0, 9), L);
            if (!lay) { /* band storage: column-major */
                s = tu_mk(F_GBBRD, p, "B", 8, 6); s.k = 2; s.ku = 1; s.ncc = 2; run(s, L);
                s = tu_mk(F_GBBRD, p, "N", 5, 7); s.k = 1; s.ku = 2; run(s, L);
                s = tu_mk(F_SBTRD, p, "VU", 0, 9); s.k = 2; run(s, L);
                s = tu_mk(F_SBTRD, p, "NL", 0, 9); s.k = 3; run(s, L);
                s = tu_mk(F_SBEV, p, "VL", 0, 9); s.k = 2; run(s, L);
                s = tu_mk(F_SBEVD, p, "VU", 0, 9); s.k = 3; run(s, L);
            }
        }
    }
    /* an invalid argument through LAPACKE's own checks never reaches the
     * Fortran symbol; the rest is covered above */
    for (f = 0; f < TU_NFAM; f++)
        if (f != F_SYTRD2)
            for (pi = 0; pi < 4; pi++)
                tu_check_logged(f, tu_precs[pi], 1);
    tu_note("test_lapacke took %.1f s", tu_now() - t0);
    return tu_finish();
}
