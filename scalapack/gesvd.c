/* gesvd.c - p?gesvd of one precision (-DGLS_PREC=0..3: s d c z), as the
 * eigensolvers of drivers.c: forward at once where this process alone can
 * tell, else the real routine's muted query, (0,0)'s check and the grid's
 * agreement, A gathered onto (0,0), ?gesdd or ?gesvd there through
 * libgpulapack.so, the values broadcast and the vectors scattered back;
 * any refusal forwards the call untouched.  docs/scalapack.md. */
#include "drivers.h"

/* ---- p?gesvd ---------------------------------------------------------- */

typedef struct svd {
    char jobu, jobvt;
    int wantu, wantvt, m, n, k;
    const scalar_t *a;
    int ia, ja;
    const int *desca;
    scalar_t *u, *vt;
    int iu, ju, ivt, jvt;
    const int *descu, *descvt;
    void *fn;
    int sdd;                    /* ?gesdd (both or neither vectors), else ?gesvd */
    scalar_t *a1, *u1, *vt1, *work;
    real_t *s1, *rwork;
    int *iwork;
    int lwork, lrwork;
    double *res;                /* [outcome, S(1..K)] */
} svd;

typedef void (*gesdd_fn)(const char *, const int *, const int *, scalar_t *,
                         const int *, real_t *, scalar_t *, const int *,
                         scalar_t *, const int *, scalar_t *, const int *,
#ifdef GLS_COMPLEX
                         real_t *,
#endif
                         int *, int *, size_t);
typedef void (*gesvd_fn)(const char *, const char *, const int *, const int *,
                         scalar_t *, const int *, real_t *, scalar_t *,
                         const int *, scalar_t *, const int *, scalar_t *,
                         const int *,
#ifdef GLS_COMPLEX
                         real_t *,
#endif
                         int *, size_t, size_t);

static int svd_lapack(svd *s, int query)
{
    int m = s->m, n = s->n, k = s->k, lda = imax(1, m), info = 0;
    int ldu = s->wantu ? imax(1, m) : 1, ldvt = s->wantvt ? imax(1, k) : 1;
    int lw = query ? -1 : s->lwork;
    scalar_t qw[4] = {0}, dummy[1] = {0};
    scalar_t *work = query ? qw : s->work, *a = query ? dummy : s->a1;
    scalar_t *u = query || !s->u1 ? dummy : s->u1;
    scalar_t *vt = query || !s->vt1 ? dummy : s->vt1;
    real_t dr[1] = {0}, *sv = query ? dr : s->s1, *rwork = query ? dr : s->rwork;
    int qi[1] = {0}, *iwork = query ? qi : s->iwork;
    char jobz = s->wantu ? 'S' : 'N', ju = jobz, jvt = s->wantvt ? 'S' : 'N';
    (void)rwork;
    (void)iwork;
    if (s->sdd)
        ((gesdd_fn)s->fn)(&jobz, &m, &n, a, &lda, sv, u, &ldu, vt, &ldvt, work,
                          &lw,
#ifdef GLS_COMPLEX
                          rwork,
#endif
                          iwork, &info, 1);
    else
        ((gesvd_fn)s->fn)(&ju, &jvt, &m, &n, a, &lda, sv, u, &ldu, vt, &ldvt,
                          work, &lw,
#ifdef GLS_COMPLEX
                          rwork,
#endif
                          &info, 1, 1);
    if (query) {
        s->lwork = lwork_of(RE(qw[0]));
        int mx = imax(m, n);
        s->lrwork = !s->sdd ? 5 * k
                    : s->wantu ? k * imax(5 * k + 7, 2 * mx + 2 * k + 1)
                               : 7 * k;
    }
    return info;
}

static void svd_free(svd *s)
{
    free(s->a1);
    free(s->u1);
    free(s->vt1);
    free(s->work);
    free(s->s1);
    free(s->rwork);
    free(s->iwork);
    s->a1 = s->u1 = s->vt1 = s->work = NULL;
    s->s1 = s->rwork = NULL;
    s->iwork = NULL;
}

static int svd_prepare(gls_call *c, svd *s)
{
    s->sdd = s->wantu == s->wantvt;
    snprintf(c->lapack, sizeof c->lapack, "%s", s->sdd ? PL "gesdd" : PL "gesvd");
    s->fn = gls_lapack(s->sdd ? PL "gesdd_" : PL "gesvd_");
    /* the jobs of svd_lapack */
    char jobs[3] = {s->wantu ? 'S' : 'N', s->sdd ? 0 : s->wantvt ? 'S' : 'N', 0};
    int reason = gls_root_check(c, jobs, s->m, s->n, 0);
    if (reason)
        return reason;
    if (!s->fn)
        return GLS_SYMBOLS;
    if (svd_lapack(s, 1) != 0)
        return GLS_OPTION;
    size_t m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k;
    size_t es = sizeof(scalar_t), rs = sizeof(real_t);
    size_t nu = s->wantu ? m * k : 0, nvt = s->wantvt ? k * n : 0;
#ifndef GLS_COMPLEX
    s->lrwork = 0;
#endif
    double bytes = (double)(m * n + nu + nvt + (size_t)s->lwork) * es +
                   (double)(k + (size_t)s->lrwork) * rs + (double)(8 * k) * sizeof(int);
    reason = gls_memory_check(bytes);
    if (reason)
        return reason;
    s->a1 = malloc(m * n * es);
    s->u1 = nu ? malloc(nu * es) : NULL;
    s->vt1 = nvt ? malloc(nvt * es) : NULL;
    s->work = malloc((size_t)s->lwork * es);
    s->s1 = malloc(k * rs);
    s->rwork = malloc((size_t)imax(1, s->lrwork) * rs);
    s->iwork = malloc(8 * k * sizeof(int));
    if (!s->a1 || (nu && !s->u1) || (nvt && !s->vt1) || !s->work || !s->s1 ||
        !s->rwork || !s->iwork) {
        svd_free(s);
        return GLS_MEMORY;
    }
    return GLS_GATHER;
}

static int svd_run(gls_call *c, svd *s)
{
    int m = s->m, n = s->n, k = s->k, d1[9];
    gls_grid1(c);
    gls_desc1(c, d1, m, n);
    double t = gls_now();
    gls_move(c, m, n, s->a, s->ia, s->ja, s->desca, s->a1, 1, 1, d1);
    c->t_gather = gls_now() - t;
    if (c->root) {
        t = gls_now();
        gls_lib_mark(c);
        int info = svd_lapack(s, 0);
        gls_lib_note(c);
        c->t_solve = gls_now() - t;
        s->res[0] = info != 0;
        for (int i = 0; i < k; i++)
            s->res[1 + i] = s->s1[i];
    }
    gls_bcast(c, s->res, k + 1);
    int ok = s->res[0] == 0;
    if (ok) {
        t = gls_now();
        if (s->wantu) {
            gls_desc1(c, d1, m, k);
            gls_move(c, m, k, s->u1, 1, 1, d1, s->u, s->iu, s->ju, s->descu);
        }
        if (s->wantvt) {
            gls_desc1(c, d1, k, n);
            gls_move(c, k, n, s->vt1, 1, 1, d1, s->vt, s->ivt, s->jvt, s->descvt);
        }
        c->t_scatter = gls_now() - t;
    }
    gls_grid1_end(c);
    svd_free(s);
    return ok ? GLS_GATHER : GLS_SOLVE;
}

typedef void (*p_gesvd_fn)(const char *, const char *, const int *,
                           const int *, scalar_t *, const int *, const int *,
                           const int *, real_t *, scalar_t *, const int *,
                           const int *, const int *, scalar_t *, const int *,
                           const int *, const int *, scalar_t *, const int *,
#ifdef GLS_COMPLEX
                           real_t *,
#endif
                           int *, size_t, size_t);

GLS_API void GESVD(const char *jobu, const char *jobvt, const int *m,
                   const int *n, scalar_t *a, const int *ia, const int *ja,
                   const int *desca, real_t *s, scalar_t *u, const int *iu,
                   const int *ju, const int *descu, scalar_t *vt,
                   const int *ivt, const int *jvt, const int *descvt,
                   scalar_t *work, const int *lwork,
#ifdef GLS_COMPLEX
                   real_t *rwork,
#endif
                   int *info, size_t ljobu, size_t ljobvt)
{
    p_gesvd_fn real = (p_gesvd_fn)gls_real("p" PL "gesvd_");
    gls_call c;
    svd v;
    memset(&v, 0, sizeof v);
    v.jobu = *jobu;
    v.jobvt = *jobvt;
    v.wantu = UP(*jobu) == 'V';
    v.wantvt = UP(*jobvt) == 'V';
    v.m = *m;
    v.n = *n;
    v.k = imin(*m, *n);
    v.a = a;
    v.ia = *ia;
    v.ja = *ja;
    v.desca = desca;
    v.u = u;
    v.iu = *iu;
    v.ju = *ju;
    v.descu = descu;
    v.vt = vt;
    v.ivt = *ivt;
    v.jvt = *jvt;
    v.descvt = descvt;
    int reason = gls_begin(&c, "p" PL "gesvd", GLS_PREC, desca, v.k, 1);
    snprintf(c.options, sizeof c.options,
             "jobu=%c jobvt=%c m=%d n=%d ia=%d ja=%d mb=%d nb=%d", *jobu,
             *jobvt, *m, *n, *ia, *ja, desca[4], desca[5]);
    workspace ws = {.work = work, .lwork = lwork};
#ifdef GLS_COMPLEX
    ws.rwork = rwork;
#endif
    if (ws_query(&ws))
        reason = GLS_QUERY;
    if (!real)
        reason = GLS_SYMBOLS;
    if (!reason) {
        int m1 = -1, qinfo = 0;
        gls_mute(1);
        real(jobu, jobvt, m, n, a, ia, ja, desca, s, u, iu, ju, descu, vt, ivt,
             jvt, descvt, ws.qw, &m1,
#ifdef GLS_COMPLEX
             ws.qr,
#endif
             &qinfo, ljobu, ljobvt);
        gls_mute(0);
        reason = ws_verdict(&ws, qinfo);
        if (!reason && ((UP(*jobu) != 'V' && UP(*jobu) != 'N') ||
                        (UP(*jobvt) != 'V' && UP(*jobvt) != 'N')))
            reason = GLS_OPTION;
        v.res = malloc((size_t)(v.k + 1) * sizeof(double));
        if (!reason && !v.res)
            reason = GLS_MEMORY;
        if (!reason && c.root)
            reason = svd_prepare(&c, &v);
        reason = gls_vote(&c, reason);
        if (!reason)
            reason = svd_run(&c, &v);
        svd_free(&v);
    }
    if (!reason) {
        for (int i = 0; i < v.k; i++)
            s[i] = (real_t)v.res[1 + i];
        ws_answer(&ws);
        *info = 0;
    } else if (real) {
        real(jobu, jobvt, m, n, a, ia, ja, desca, s, u, iu, ju, descu, vt, ivt,
             jvt, descvt, work, lwork,
#ifdef GLS_COMPLEX
             rwork,
#endif
             info, ljobu, ljobvt);
    } else {
        *info = -1000;
    }
    free(v.res);
    gls_log(&c, reason, *info);
}
