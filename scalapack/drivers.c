/* drivers.c - the exported ScaLAPACK eigensolvers of one precision
 * (-DGLS_PREC=0..3: s d c z): p?syev, p?syevd, p?syevx, p?syevr (p?heev*
 * in complex; p?gesvd in gesvd.c), Fortran ABI as Debian's ScaLAPACK
 * 2.2.1.
 *
 * Each call: forward at once where this process alone can tell (a
 * workspace query, below the crossover, no grid, ...); else run the real
 * routine's own workspace query with pxerbla_ muted (argument errors and
 * workspace sizes are then the real routine's), let process (0,0) check
 * libgpulapack.so and its memory and allocate, and agree over the grid;
 * then gather A onto (0,0) with p?gemr2d into a 1x1 context, run the
 * LAPACK driver there through libgpulapack.so, broadcast the values and
 * the outcome, scatter the vectors back.  Any refusal, before or after
 * the driver (A is never written), forwards the call untouched on every
 * process.  docs/scalapack.md. */
#include "drivers.h"

/* ---- the eigensolvers ------------------------------------------------ */

enum { F_SYEV, F_SYEVD, F_SYEVX, F_SYEVR };
static const char *const family_lapack[4] = {PL EVS "_", PL EVS "d_",
                                             PL EVS "x_", PL EVS "r_"};

typedef struct eig {
    int family, wantz;
    char jobz, range, uplo;
    int n, il, iu;
    real_t vl, vu, abstol;
    const scalar_t *a;
    int ia, ja;
    const int *desca;
    scalar_t *z;
    int iz, jz;
    const int *descz;
    /* (0,0): the gathered problem and the LAPACK driver's workspace */
    void *fn;
    scalar_t *a1, *z1, *work;
    real_t *w1, *rwork;
    int *iwork, *ifail, *isuppz;
    int lwork, lrwork, liwork, zcols, m;
    double *res;        /* every process: [outcome, M, W(1..N)] */
} eig;

typedef void (*syev_fn)(const char *, const char *, const int *, scalar_t *,
                        const int *, real_t *, scalar_t *, const int *,
#ifdef GLS_COMPLEX
                        real_t *,
#endif
                        int *, size_t, size_t);
typedef void (*syevd_fn)(const char *, const char *, const int *, scalar_t *,
                         const int *, real_t *, scalar_t *, const int *,
#ifdef GLS_COMPLEX
                         real_t *, const int *,
#endif
                         int *, const int *, int *, size_t, size_t);
typedef void (*syevx_fn)(const char *, const char *, const char *, const int *,
                         scalar_t *, const int *, const real_t *,
                         const real_t *, const int *, const int *,
                         const real_t *, int *, real_t *, scalar_t *,
                         const int *, scalar_t *, const int *,
#ifdef GLS_COMPLEX
                         real_t *,
#endif
                         int *, int *, int *, size_t, size_t, size_t);
typedef void (*syevr_fn)(const char *, const char *, const char *, const int *,
                         scalar_t *, const int *, const real_t *,
                         const real_t *, const int *, const int *,
                         const real_t *, int *, real_t *, scalar_t *,
                         const int *, int *, scalar_t *, const int *,
#ifdef GLS_COMPLEX
                         real_t *, const int *,
#endif
                         int *, const int *, int *, size_t, size_t, size_t);

/* Runs (query = 1: asks) the LAPACK driver on the gathered problem. */
static int eig_lapack(eig *e, int query)
{
    int n = e->n, lda = imax(1, n), ldz = imax(1, n), info = 0, m = 0;
    int lw = query ? -1 : e->lwork, lrw = query ? -1 : e->lrwork;
    int liw = query ? -1 : e->liwork;
    scalar_t qw[4] = {0}, *work = query ? qw : e->work, dummy[1] = {0};
    real_t qr[4] = {0}, *rwork = query ? qr : e->rwork, dw[1] = {0};
    int qi[4] = {0}, *iwork = query ? qi : e->iwork;
    scalar_t *a = query ? dummy : e->a1, *z = query || !e->z1 ? dummy : e->z1;
    real_t *w = query ? dw : e->w1;
    int idummy[2] = {0};
    int *ifail = query || !e->ifail ? idummy : e->ifail;
    int *isuppz = query || !e->isuppz ? idummy : e->isuppz;
    const char *jobz = &e->jobz, *range = &e->range, *uplo = &e->uplo;
    switch (e->family) {
    case F_SYEV:
        ((syev_fn)e->fn)(jobz, uplo, &n, a, &lda, w, work, &lw,
#ifdef GLS_COMPLEX
                         rwork,
#endif
                         &info, 1, 1);
        break;
    case F_SYEVD:
        ((syevd_fn)e->fn)(jobz, uplo, &n, a, &lda, w, work, &lw,
#ifdef GLS_COMPLEX
                          rwork, &lrw,
#endif
                          iwork, &liw, &info, 1, 1);
        break;
    case F_SYEVX:
        ((syevx_fn)e->fn)(jobz, range, uplo, &n, a, &lda, &e->vl, &e->vu,
                          &e->il, &e->iu, &e->abstol, &m, w, z, &ldz, work,
                          &lw,
#ifdef GLS_COMPLEX
                          rwork,
#endif
                          iwork, ifail, &info, 1, 1, 1);
        break;
    default:
        ((syevr_fn)e->fn)(jobz, range, uplo, &n, a, &lda, &e->vl, &e->vu,
                          &e->il, &e->iu, &e->abstol, &m, w, z, &ldz, isuppz,
                          work, &lw,
#ifdef GLS_COMPLEX
                          rwork, &lrw,
#endif
                          iwork, &liw, &info, 1, 1, 1);
        break;
    }
    (void)lrw;
    (void)rwork;
    if (query) {
        e->lwork = lwork_of(RE(qw[0]));
#ifdef GLS_COMPLEX
        e->lrwork = e->family == F_SYEV    ? imax(1, 3 * n - 2)
                    : e->family == F_SYEVX ? 7 * n
                                           : lwork_of(qr[0]);
#endif
        e->liwork = e->family == F_SYEVX ? 5 * n
                    : e->family == F_SYEV ? 1
                                          : imax(1, qi[0]);
        return info;
    }
    e->m = e->family == F_SYEV || e->family == F_SYEVD ? n : m;
    return info;
}

static void eig_free(eig *e)
{
    free(e->a1);
    free(e->z1);
    free(e->work);
    free(e->w1);
    free(e->rwork);
    free(e->iwork);
    free(e->ifail);
    free(e->isuppz);
    e->a1 = e->z1 = e->work = NULL;
    e->w1 = e->rwork = NULL;
    e->iwork = e->ifail = e->isuppz = NULL;
}

/* Process (0,0): the driver, its workspace, the memory; a reason. */
static int eig_prepare(gls_call *c, eig *e)
{
    snprintf(c->lapack, sizeof c->lapack, "%.*s",
             (int)strlen(family_lapack[e->family]) - 1, family_lapack[e->family]);
    e->fn = gls_lapack(family_lapack[e->family]);
    size_t n = (size_t)e->n, es = sizeof(scalar_t), rs = sizeof(real_t);
    e->zcols = 0;
    if (e->wantz && (e->family == F_SYEVX || e->family == F_SYEVR))
        e->zcols = UP(e->range) == 'I' ? e->iu - e->il + 1 : e->n;
    int ranged = e->family == F_SYEVX || e->family == F_SYEVR;
    char jobs[3] = {e->jobz, ranged ? e->range : 0, 0};
    int reason = gls_root_check(c, jobs, e->n, e->n,
                                UP(e->range) == 'I' ? e->iu - e->il + 1 : 0);
    if (reason)
        return reason;
    if (!e->fn)
        return GLS_SYMBOLS;
    if (eig_lapack(e, 1) != 0)
        return GLS_OPTION;
    double bytes = (double)(n * n + n * (size_t)e->zcols + (size_t)e->lwork) * es +
                   (double)(n + (size_t)e->lrwork) * rs +
                   (double)((size_t)e->liwork + 3 * n) * sizeof(int);
    reason = gls_memory_check(bytes);
    if (reason)
        return reason;
    e->a1 = malloc(n * n * es);
    e->z1 = e->zcols ? malloc(n * (size_t)e->zcols * es) : NULL;
    e->work = malloc((size_t)e->lwork * es);
    e->w1 = malloc(n * rs);
    e->rwork = malloc((size_t)imax(1, e->lrwork) * rs);
    e->iwork = malloc((size_t)imax(1, e->liwork) * sizeof(int));
    e->ifail = malloc(n * sizeof(int));
    e->isuppz = malloc(2 * n * sizeof(int));
    if (!e->a1 || (e->zcols && !e->z1) || !e->work || !e->w1 || !e->rwork ||
        !e->iwork || !e->ifail || !e->isuppz) {
        eig_free(e);
        return GLS_MEMORY;
    }
    return GLS_GATHER;
}

/* Every process: gather, solve on (0,0), broadcast, scatter.  GLS_GATHER
 * when done, GLS_SOLVE when the driver failed (then nothing was written). */
static int eig_run(gls_call *c, eig *e)
{
    int n = e->n, d1[9], dz1[9];
    gls_grid1(c);
    gls_desc1(c, d1, n, n);
    double t = gls_now();
    gls_move(c, n, n, e->a, e->ia, e->ja, e->desca, e->a1, 1, 1, d1);
    c->t_gather = gls_now() - t;
    if (c->root) {
        t = gls_now();
        gls_lib_mark(c);
        int info = eig_lapack(e, 0);
        gls_lib_note(c);
        c->t_solve = gls_now() - t;
        e->res[0] = info != 0;
        e->res[1] = e->m;
        for (int i = 0; i < n; i++)
            e->res[2 + i] = e->w1[i];
    }
    gls_bcast(c, e->res, n + 2);
    int ok = e->res[0] == 0;
    e->m = (int)e->res[1];
    if (ok && e->wantz) {
        t = gls_now();
        scalar_t *src = e->family == F_SYEV || e->family == F_SYEVD ? e->a1 : e->z1;
        gls_desc1(c, dz1, n, e->m);
        gls_move(c, n, e->m, src, 1, 1, dz1, e->z, e->iz, e->jz, e->descz);
        c->t_scatter = gls_now() - t;
    }
    gls_grid1_end(c);
    eig_free(e);
    return ok ? GLS_GATHER : GLS_SOLVE;
}

/* After the early reasons: the query's verdict (reason) joined by (0,0)'s
 * plan, agreed over the grid, then the gather path.  Returns the reason
 * to forward for, 0 when the call was served. */
static int eig_serve(gls_call *c, eig *e, int reason)
{
    e->res = malloc((size_t)(e->n + 2) * sizeof(double));
    if (!reason && !e->res)
        reason = GLS_MEMORY;
    if (!reason && c->root)
        reason = eig_prepare(c, e);
    reason = gls_vote(c, reason);
    if (!reason)
        reason = eig_run(c, e);
    eig_free(e);
    return reason;
}

static void eig_describe(gls_call *c, const eig *e)
{
    int o = snprintf(c->options, sizeof c->options, "jobz=%c", e->jobz);
    if (e->family >= F_SYEVX)
        o += snprintf(c->options + o, sizeof c->options - (size_t)o, " range=%c",
                      e->range);
    o += snprintf(c->options + o, sizeof c->options - (size_t)o,
                  " uplo=%c n=%d ia=%d ja=%d mb=%d nb=%d", e->uplo, e->n,
                  e->ia, e->ja, e->desca[4], e->desca[5]);
    if (e->family >= F_SYEVX && UP(e->range) == 'I')
        snprintf(c->options + o, sizeof c->options - (size_t)o, " il=%d iu=%d",
                 e->il, e->iu);
}

static void eig_init(eig *e, int family, const char *jobz, const char *range,
                     const char *uplo, const int *n, const scalar_t *a,
                     const int *ia, const int *ja, const int *desca,
                     scalar_t *z, const int *iz, const int *jz,
                     const int *descz)
{
    memset(e, 0, sizeof *e);
    e->family = family;
    e->jobz = *jobz;
    e->range = range ? *range : 'A';
    e->uplo = *uplo;
    e->wantz = UP(*jobz) == 'V';
    e->n = *n;
    e->a = a;
    e->ia = *ia;
    e->ja = *ja;
    e->desca = desca;
    e->z = z;
    e->iz = *iz;
    e->jz = *jz;
    e->descz = descz;
}

/* the values everyone got, and the real routine's workspace answers */
static void eig_finish(const eig *e, real_t *w)
{
    int count = e->family == F_SYEV || e->family == F_SYEVD ? e->n : e->m;
    for (int i = 0; i < count; i++)
        w[i] = (real_t)e->res[2 + i];
}

/* The reasons a call of the ?syev family knows before its query: the
 * begin's, a workspace query, the real routine missing. */
static int eig_start(gls_call *c, const eig *e, const char *name,
                     const workspace *s, int have_real)
{
    int reason = gls_begin(c, name, GLS_PREC, e->desca, e->n, 0);
    eig_describe(c, e);
    if (ws_query(s))
        reason = GLS_QUERY;
    if (!have_real)
        reason = GLS_SYMBOLS;
    return reason;
}

/* ---- p?syev / p?heev ---- */

typedef void (*p_syev_fn)(const char *, const char *, const int *, scalar_t *,
                          const int *, const int *, const int *, real_t *,
                          scalar_t *, const int *, const int *, const int *,
                          scalar_t *, const int *,
#ifdef GLS_COMPLEX
                          real_t *, const int *,
#endif
                          int *, size_t, size_t);

GLS_API void EV()(const char *jobz, const char *uplo, const int *n,
                  scalar_t *a, const int *ia, const int *ja, const int *desca,
                  real_t *w, scalar_t *z, const int *iz, const int *jz,
                  const int *descz, scalar_t *work, const int *lwork,
#ifdef GLS_COMPLEX
                  real_t *rwork, const int *lrwork,
#endif
                  int *info, size_t ljobz, size_t luplo)
{
    p_syev_fn real = (p_syev_fn)gls_real("p" PL EVS "_");
    gls_call c;
    eig e;
    eig_init(&e, F_SYEV, jobz, NULL, uplo, n, a, ia, ja, desca, z, iz, jz, descz);
    workspace s = {.work = work, .lwork = lwork};
#ifdef GLS_COMPLEX
    s.rwork = rwork, s.lrwork = lrwork;
#endif
    int reason = eig_start(&c, &e, "p" PL EVS, &s, real != NULL);
    if (!reason) {
        int m1 = -1, qinfo = 0;
        gls_mute(1);
        real(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, s.qw, &m1,
#ifdef GLS_COMPLEX
             s.qr, &m1,
#endif
             &qinfo, ljobz, luplo);
        gls_mute(0);
        reason = eig_serve(&c, &e, ws_verdict(&s, qinfo));
    }
    if (!reason) {
        eig_finish(&e, w);
        ws_answer(&s);
        *info = 0;
    } else if (real) {
        real(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, work, lwork,
#ifdef GLS_COMPLEX
             rwork, lrwork,
#endif
             info, ljobz, luplo);
    } else {
        *info = -1000;
    }
    free(e.res);
    gls_log(&c, reason, *info);
}

/* ---- p?syevd / p?heevd ---- */

typedef void (*p_syevd_fn)(const char *, const char *, const int *,
                           scalar_t *, const int *, const int *, const int *,
                           real_t *, scalar_t *, const int *, const int *,
                           const int *, scalar_t *, const int *,
#ifdef GLS_COMPLEX
                           real_t *, const int *,
#endif
                           int *, const int *, int *, size_t, size_t);

GLS_API void EV(d)(const char *jobz, const char *uplo, const int *n,
                   scalar_t *a, const int *ia, const int *ja, const int *desca,
                   real_t *w, scalar_t *z, const int *iz, const int *jz,
                   const int *descz, scalar_t *work, const int *lwork,
#ifdef GLS_COMPLEX
                   real_t *rwork, const int *lrwork,
#endif
                   int *iwork, const int *liwork, int *info, size_t ljobz,
                   size_t luplo)
{
    p_syevd_fn real = (p_syevd_fn)gls_real("p" PL EVS "d_");
    gls_call c;
    eig e;
    eig_init(&e, F_SYEVD, jobz, NULL, uplo, n, a, ia, ja, desca, z, iz, jz, descz);
    workspace s = {.work = work, .lwork = lwork, .iwork = iwork,
                   .liwork = liwork};
#ifdef GLS_COMPLEX
    s.rwork = rwork, s.lrwork = lrwork;
#endif
    int reason = eig_start(&c, &e, "p" PL EVS "d", &s, real != NULL);
    if (!reason) {
        int m1 = -1, qinfo = 0;
        gls_mute(1);
        real(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, s.qw, &m1,
#ifdef GLS_COMPLEX
             s.qr, &m1,
#endif
             s.qi, &m1, &qinfo, ljobz, luplo);
        gls_mute(0);
        reason = eig_serve(&c, &e, ws_verdict(&s, qinfo));
    }
    if (!reason) {
        eig_finish(&e, w);
        ws_answer(&s);
        *info = 0;
    } else if (real) {
        real(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, work, lwork,
#ifdef GLS_COMPLEX
             rwork, lrwork,
#endif
             iwork, liwork, info, ljobz, luplo);
    } else {
        *info = -1000;
    }
    free(e.res);
    gls_log(&c, reason, *info);
}

/* ---- p?syevx / p?heevx ---- */

typedef void (*p_syevx_fn)(const char *, const char *, const char *,
                           const int *, scalar_t *, const int *, const int *,
                           const int *, const real_t *, const real_t *,
                           const int *, const int *, const real_t *, int *,
                           int *, real_t *, const real_t *, scalar_t *,
                           const int *, const int *, const int *, scalar_t *,
                           const int *,
#ifdef GLS_COMPLEX
                           real_t *, const int *,
#endif
                           int *, const int *, int *, int *, real_t *, int *,
                           size_t, size_t, size_t);

GLS_API void EV(x)(const char *jobz, const char *range, const char *uplo,
                   const int *n, scalar_t *a, const int *ia, const int *ja,
                   const int *desca, const real_t *vl, const real_t *vu,
                   const int *il, const int *iu, const real_t *abstol, int *m,
                   int *nz, real_t *w, const real_t *orfac, scalar_t *z,
                   const int *iz, const int *jz, const int *descz,
                   scalar_t *work, const int *lwork,
#ifdef GLS_COMPLEX
                   real_t *rwork, const int *lrwork,
#endif
                   int *iwork, const int *liwork, int *ifail, int *iclustr,
                   real_t *gap, int *info, size_t ljobz, size_t lrange,
                   size_t luplo)
{
    p_syevx_fn real = (p_syevx_fn)gls_real("p" PL EVS "x_");
    gls_call c;
    eig e;
    eig_init(&e, F_SYEVX, jobz, range, uplo, n, a, ia, ja, desca, z, iz, jz, descz);
    e.vl = *vl;
    e.vu = *vu;
    e.il = *il;
    e.iu = *iu;
    e.abstol = *abstol;
    workspace s = {.work = work, .lwork = lwork, .iwork = iwork,
                   .liwork = liwork};
#ifdef GLS_COMPLEX
    s.rwork = rwork, s.lrwork = lrwork;
#endif
    int reason = eig_start(&c, &e, "p" PL EVS "x", &s, real != NULL);
    if (!reason) {
        int m1 = -1, qinfo = 0, qm = 0, qnz = 0;
        gls_mute(1);
        real(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, abstol,
             &qm, &qnz, w, orfac, z, iz, jz, descz, s.qw, &m1,
#ifdef GLS_COMPLEX
             s.qr, &m1,
#endif
             s.qi, &m1, ifail, iclustr, gap, &qinfo, ljobz, lrange, luplo);
        gls_mute(0);
        reason = eig_serve(&c, &e, ws_verdict(&s, qinfo));
    }
    if (!reason) {
        eig_finish(&e, w);
        *m = e.m;
        if (e.wantz) {
            *nz = e.m;
            for (int i = 0; i < e.m; i++)
                ifail[i] = 0;
            for (int i = 0; i < 2 * c.nprow * c.npcol; i++)
                iclustr[i] = 0;
        }
        ws_answer(&s);
        *info = 0;
    } else if (real) {
        real(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, abstol, m,
             nz, w, orfac, z, iz, jz, descz, work, lwork,
#ifdef GLS_COMPLEX
             rwork, lrwork,
#endif
             iwork, liwork, ifail, iclustr, gap, info, ljobz, lrange, luplo);
    } else {
        *info = -1000;
    }
    free(e.res);
    gls_log(&c, reason, *info);
}

/* ---- p?syevr / p?heevr ---- */

typedef void (*p_syevr_fn)(const char *, const char *, const char *,
                           const int *, scalar_t *, const int *, const int *,
                           const int *, const real_t *, const real_t *,
                           const int *, const int *, int *, int *, real_t *,
                           scalar_t *, const int *, const int *, const int *,
                           scalar_t *, const int *,
#ifdef GLS_COMPLEX
                           real_t *, const int *,
#endif
                           int *, const int *, int *, size_t, size_t, size_t);

GLS_API void EV(r)(const char *jobz, const char *range, const char *uplo,
                   const int *n, scalar_t *a, const int *ia, const int *ja,
                   const int *desca, const real_t *vl, const real_t *vu,
                   const int *il, const int *iu, int *m, int *nz, real_t *w,
                   scalar_t *z, const int *iz, const int *jz, const int *descz,
                   scalar_t *work, const int *lwork,
#ifdef GLS_COMPLEX
                   real_t *rwork, const int *lrwork,
#endif
                   int *iwork, const int *liwork, int *info, size_t ljobz,
                   size_t lrange, size_t luplo)
{
    p_syevr_fn real = (p_syevr_fn)gls_real("p" PL EVS "r_");
    gls_call c;
    eig e;
    eig_init(&e, F_SYEVR, jobz, range, uplo, n, a, ia, ja, desca, z, iz, jz, descz);
    e.vl = *vl;
    e.vu = *vu;
    e.il = *il;
    e.iu = *iu;
    workspace s = {.work = work, .lwork = lwork, .iwork = iwork,
                   .liwork = liwork};
#ifdef GLS_COMPLEX
    s.rwork = rwork, s.lrwork = lrwork;
#endif
    int reason = eig_start(&c, &e, "p" PL EVS "r", &s, real != NULL);
    if (!reason) {
        int m1 = -1, qinfo = 0, qm = 0, qnz = 0;
        gls_mute(1);
        real(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, &qm, &qnz,
             w, z, iz, jz, descz, s.qw, &m1,
#ifdef GLS_COMPLEX
             s.qr, &m1,
#endif
             s.qi, &m1, &qinfo, ljobz, lrange, luplo);
        gls_mute(0);
        reason = eig_serve(&c, &e, ws_verdict(&s, qinfo));
    }
    if (!reason) {
        eig_finish(&e, w);
        *m = e.m;
        if (e.wantz)
            *nz = e.m;
        ws_answer(&s);
        *info = 0;
    } else if (real) {
        real(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w,
             z, iz, jz, descz, work, lwork,
#ifdef GLS_COMPLEX
             rwork, lrwork,
#endif
             iwork, liwork, info, ljobz, lrange, luplo);
    } else {
        *info = -1000;
    }
    free(e.res);
    gls_log(&c, reason, *info);
}
