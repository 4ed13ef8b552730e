/*
 * test_args: the invalid-argument grid. For every routine family and
 * precision, each argument is made invalid in turn (bad job characters,
 * negative sizes, leading dimensions too small, workspaces too small,
 * RANGE bounds, unsupported 2-stage JOBZ/VECT='V', two errors at once,
 * NaN input to ?gesdd): INFO, the xerbla call (routine name and argument
 * number, captured by this program's own xerbla_) and every array must be
 * exactly as with the real LAPACK. A valid call per routine proves the
 * library is in front (GPULAPACK_LOG).
 */
#include "testutil.h"

typedef struct {
    const char *mut;
    int info_r, info_c; /* documented INFO for real / complex */
} mutation;

typedef struct {
    int fam;
    const char *o;
    int m, n, k, ku, ncc, il, iu;
    const mutation *muts;
} family_grid;

static const mutation m_gesvd[] = {
    {"o0=X", -1, -1}, {"o0=x", -1, -1}, {"o1=X", -2, -2}, {"o0=O,o1=O", -2, -2},
    {"m=-1", -3, -3}, {"n=-1", -4, -4}, {"lda=5", -6, -6}, {"lda=0", -6, -6},
    {"ldu=5", -9, -9}, {"o0=A,ldu=5", -9, -9}, {"o0=N,ldu=0", -9, -9},
    {"ldvt=3", -11, -11}, {"o1=A,ldvt=3", -11, -11}, {"o1=N,ldvt=0", -11, -11},
    {"lwork=1", -13, -13}, {"lwork=0", -13, -13}, {"m=-1,lda=0", -3, -3},
    {"lda=5,lwork=1", -6, -6}, {NULL, 0, 0}};
static const mutation m_gesdd[] = {
    {"o0=X", -1, -1}, {"o0=v", -1, -1}, {"m=-1", -2, -2}, {"n=-1", -3, -3},
    {"lda=5", -5, -5}, {"ldu=5", -8, -8}, {"o0=A,ldu=5", -8, -8}, {"o0=N,ldu=0", -8, -8},
    {"o0=O,m=4,n=6,ldu=3", -8, -8}, {"ldvt=3", -10, -10}, {"o0=A,ldvt=3", -10, -10},
    {"o0=O,ldvt=3", -10, -10}, {"o0=N,ldvt=0", -10, -10}, {"lwork=1", -12, -12},
    {"lwork=0", -12, -12}, {"nan=3", -4, -4}, {"o0=N,nan=7", -4, -4},
    {"n=-1,lwork=0", -3, -3}, {NULL, 0, 0}};
static const mutation m_syev[] = {
    {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"o1=u,o0=x", -1, -1}, {"n=-1", -3, -3},
    {"lda=4", -5, -5}, {"lwork=1", -8, -8}, {"lwork=0", -8, -8}, {"n=-1,lda=0", -3, -3},
    {NULL, 0, 0}};
static const mutation m_syev2[] = {
    {"o0=V", -1, -1}, {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"n=-1", -3, -3},
    {"lda=4", -5, -5}, {"lwork=1", -8, -8}, {"lwork=0", -8, -8}, {NULL, 0, 0}};
static const mutation m_syevd[] = {
    {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"n=-1", -3, -3}, {"lda=4", -5, -5},
    {"lwork=1", -8, -8}, {"liwork=1", -10, -12}, {"lrwork=1", 0, -10},
    {"lwork=1,liwork=1", -8, -8}, {NULL, 0, 0}};
static const mutation m_syevd2[] = {
    {"o0=V", -1, -1}, {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"n=-1", -3, -3},
    {"lda=4", -5, -5}, {"lwork=1", -8, -8}, {"liwork=0", -10, -12}, {"lrwork=1", 0, -10},
    {NULL, 0, 0}};
static const mutation m_syevr[] = {
    {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"o2=X", -3, -3}, {"n=-1", -4, -4},
    {"lda=5", -6, -6}, {"o1=V,vl=1,vu=1", -8, -8}, {"o1=V,vl=2,vu=1", -8, -8},
    {"il=0", -9, -9}, {"il=7", -9, -9}, {"iu=1", -10, -10}, {"iu=7", -10, -10},
    {"ldu=5", -15, -15}, {"o0=N,ldu=0", -15, -15}, {"lwork=1", -18, -18},
    {"liwork=1", -20, -22}, {"lrwork=1", 0, -20}, {"il=0,lda=0", -6, -6}, {NULL, 0, 0}};
static const mutation m_syevr2[] = {
    {"o0=V", -1, -1}, {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"o2=X", -3, -3},
    {"n=-1", -4, -4}, {"lda=5", -6, -6}, {"o1=V,vl=1,vu=1", -8, -8}, {"il=0", -9, -9},
    {"iu=7", -10, -10}, {"ldu=0", -15, -15}, {"lwork=1", -18, -18},
    {"liwork=1", -20, -22}, {"lrwork=1", 0, -20}, {NULL, 0, 0}};
static const mutation m_syevx[] = {
    {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"o2=X", -3, -3}, {"n=-1", -4, -4},
    {"lda=5", -6, -6}, {"o1=V,vl=1,vu=1", -8, -8}, {"il=0", -9, -9}, {"il=7", -9, -9},
    {"iu=1", -10, -10}, {"iu=7", -10, -10}, {"ldu=5", -15, -15},
    {"o0=N,ldu=0", -15, -15}, {"lwork=1", -17, -17}, {NULL, 0, 0}};
static const mutation m_syevx2[] = {
    {"o0=V", -1, -1}, {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"o2=X", -3, -3},
    {"n=-1", -4, -4}, {"lda=5", -6, -6}, {"o1=V,vl=1,vu=1", -8, -8}, {"il=0", -9, -9},
    {"iu=7", -10, -10}, {"ldu=0", -15, -15}, {"lwork=1", -17, -17}, {NULL, 0, 0}};
static const mutation m_sytrd[] = {
    {"o0=X", -1, -1}, {"o0=x", -1, -1}, {"n=-1", -2, -2}, {"lda=4", -4, -4},
    {"lwork=0", -9, -9}, {"n=-1,lwork=0", -2, -2}, {NULL, 0, 0}};
static const mutation m_sytrd2[] = {
    {"o0=V", -1, -1}, {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"n=-1", -3, -3},
    {"lda=4", -5, -5}, {"lhous2=1", -10, -10}, {"lwork=1", -12, -12},
    {"lhous2=1,lwork=1", -10, -10}, {NULL, 0, 0}};
static const mutation m_gbbrd[] = {
    {"o0=X", -1, -1}, {"m=-1", -2, -2}, {"n=-1", -3, -3}, {"ncc=-1", -4, -4},
    {"k=-1", -5, -5}, {"ku=-1", -6, -6}, {"lda=3", -8, -8}, {"ldu=5", -12, -12},
    {"o0=N,ldu=0", -12, -12}, {"ldvt=4", -14, -14}, {"o0=Q,ldvt=0", -14, -14},
    {"ldc=5", -16, -16}, {"ncc=0,ldc=0", -16, -16}, {"m=-1,ldu=0", -2, -2}, {NULL, 0, 0}};
static const mutation m_sbtrd[] = {
    {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"n=-1", -3, -3}, {"k=-1", -4, -4},
    {"lda=2", -6, -6}, {"ldu=5", -10, -10}, {"o0=U,ldu=5", -10, -10}, {NULL, 0, 0}};
static const mutation m_sbev[] = {
    {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"n=-1", -3, -3}, {"k=-1", -4, -4},
    {"lda=2", -6, -6}, {"ldu=5", -9, -9}, {"o0=N,ldu=0", -9, -9}, {NULL, 0, 0}};
static const mutation m_sbevd[] = {
    {"o0=X", -1, -1}, {"o1=X", -2, -2}, {"n=-1", -3, -3}, {"k=-1", -4, -4},
    {"lda=2", -6, -6}, {"ldu=5", -9, -9}, {"o0=N,ldu=0", -9, -9}, {"lwork=1", -11, -11},
    {"liwork=1", -13, -15}, {"lrwork=1", 0, -13}, {NULL, 0, 0}};

static const family_grid grids[] = {
    {F_GESVD, "SS", 6, 4, 0, 0, 0, 0, 0, m_gesvd},
    {F_GESDD, "S", 6, 4, 0, 0, 0, 0, 0, m_gesdd},
    {F_SYEV, "VU", 0, 5, 0, 0, 0, 0, 0, m_syev},
    {F_SYEVD, "VU", 0, 5, 0, 0, 0, 0, 0, m_syevd},
    {F_SYEVR, "VIU", 0, 6, 0, 0, 0, 2, 4, m_syevr},
    {F_SYEVX, "VIU", 0, 6, 0, 0, 0, 2, 4, m_syevx},
    {F_SYTRD, "U", 0, 5, 0, 0, 0, 0, 0, m_sytrd},
    {F_GBBRD, "B", 6, 5, 2, 1, 2, 0, 0, m_gbbrd},
    {F_SBTRD, "VU", 0, 6, 2, 0, 0, 0, 0, m_sbtrd},
    {F_SBEV, "VU", 0, 6, 2, 0, 0, 0, 0, m_sbev},
    {F_SBEVD, "VU", 0, 6, 2, 0, 0, 0, 0, m_sbevd},
    {F_SYEV2, "NU", 0, 5, 0, 0, 0, 0, 0, m_syev2},
    {F_SYEVD2, "NU", 0, 5, 0, 0, 0, 0, 0, m_syevd2},
    {F_SYEVR2, "NIU", 0, 6, 0, 0, 0, 2, 4, m_syevr2},
    {F_SYEVX2, "NIU", 0, 6, 0, 0, 0, 2, 4, m_syevx2},
    {F_SYTRD2, "NU", 0, 5, 0, 0, 0, 0, 0, m_sytrd2},
};

static tu_spec base_spec(const family_grid *g, char p)
{
    tu_spec s = tu_mk(g->fam, p, g->o, g->m, g->n);
    s.k = g->k; s.ku = g->ku; s.ncc = g->ncc; s.il = g->il; s.iu = g->iu;
    return s;
}

/* apply "key=value,key=value" to a spec */
static void apply(tu_spec *s, const char *mut)
{
    char buf[128], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", mut);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        const char *v;
        int iv;
        if (!eq) continue;
        *eq = 0;
        v = eq + 1;
        iv = atoi(v);
        if (!strcmp(tok, "o0")) s->o[0] = v[0];
        else if (!strcmp(tok, "o1")) s->o[1] = v[0];
        else if (!strcmp(tok, "o2")) s->o[2] = v[0];
        else if (!strcmp(tok, "m")) s->m = iv;
        else if (!strcmp(tok, "n")) s->n = iv;
        else if (!strcmp(tok, "k")) s->k = iv;
        else if (!strcmp(tok, "ku")) s->ku = iv;
        else if (!strcmp(tok, "ncc")) s->ncc = iv;
        else if (!strcmp(tok, "il")) s->il = iv;
        else if (!strcmp(tok, "iu")) s->iu = iv;
        else if (!strcmp(tok, "lda")) s->lda = iv ? iv : TU_LD_ZERO;
        else if (!strcmp(tok, "ldu")) s->ldu = iv ? iv : TU_LD_ZERO;
        else if (!strcmp(tok, "ldvt")) s->ldvt = iv ? iv : TU_LD_ZERO;
        else if (!strcmp(tok, "ldc")) s->ldc = iv ? iv : TU_LD_ZERO;
        else if (!strcmp(tok, "lwork")) s->lwork = iv ? iv : TU_LW_ZERO;
        else if (!strcmp(tok, "lrwork")) s->lrwork = iv ? iv : TU_LW_ZERO;
        else if (!strcmp(tok, "liwork")) s->liwork = iv ? iv : TU_LW_ZERO;
        else if (!strcmp(tok, "lhous2")) s->lhous2 = iv ? iv : TU_LW_ZERO;
        else if (!strcmp(tok, "vl")) { s->vl = atof(v); s->vexplicit = 1; }
        else if (!strcmp(tok, "vu")) { s->vu = atof(v); s->vexplicit = 1; }
        else if (!strcmp(tok, "nan")) s->nan_at = iv;
    }
}

int main(void)
{
    size_t gi;
    int pi;
    double t0 = tu_now();
    tu_init("test_args");
    tu_check_front();
    for (gi = 0; gi < sizeof grids / sizeof *grids; gi++) {
        const family_grid *g = &grids[gi];
        for (pi = 0; pi < 4; pi++) {
            char p = tu_precs[pi], nm[160];
            const mutation *mu;
            tu_spec s = base_spec(g, p);
            /* the valid base call (proves the library is in front) */
            snprintf(nm, sizeof nm, "%s/valid-base/%s", tu_rname(g->fam, p), g->o);
            tu_run_spec(nm, &s);
            for (mu = g->muts; mu->mut; mu++) {
                int want = tu_cplx(p) ? mu->info_c : mu->info_r, rinfo;
                if (want == 0)
                    continue; /* argument only in the other type's routine */
                s = base_spec(g, p);
                apply(&s, mu->mut);
                snprintf(nm, sizeof nm, "%s/invalid/%s", tu_rname(g->fam, p), mu->mut);
                rinfo = tu_real_info(&s, NULL);
                if (rinfo != want)
                    tu_note("%s: real LAPACK gives INFO=%d, the documentation says %d", nm, rinfo,
                            want);
                tu_run_spec(nm, &s);
            }
            tu_check_logged(g->fam, p, 1);
        }
    }
    tu_note("test_args took %.1f s", tu_now() - t0);
    return tu_finish();
}
