/*
 * test_lwork: every workspace variant of every exported routine family in
 * s, d, c, z, compared with the real LAPACK on copies of the same inputs:
 *   - LWORK = -1 (and LIWORK / LRWORK / LHOUS2 = -1, alone or together):
 *     WORK(1), IWORK(1), RWORK(1), HOUS2(1) and INFO as the real routine,
 *     nothing else written;
 *   - the documented minimum (reference LAPACK's argument docs; it depends
 *     on JOB options and shapes), exactly that size of array, guard zones
 *     behind it: INFO = 0 and the same results;
 *   - the smallest LWORK the real routine accepts (found by bisection on
 *     the real routine) and one less: same negative INFO, same xerbla call;
 *   - documented minimum - 1 of LRWORK, LIWORK, LHOUS2;
 *   - the optimal size from the real query and from our own query;
 *   - fixed workspaces (gbbrd, sbtrd, sbev, RWORK, IWORK without a size
 *     argument) of exactly the documented dimension.
 */
#include "testutil.h"

typedef struct {
    char o[4];
    int m, n, k, ku, ncc, il, iu, vlo, vhi;
} cfg;

static int ncfg;
static cfg cfgs[64];

static void add(const char *o, int m, int n, int k, int ku, int ncc, int il, int iu)
{
    cfg *c = &cfgs[ncfg++];
    memset(c, 0, sizeof *c);
    snprintf(c->o, sizeof c->o, "%s", o);
    c->m = m; c->n = n; c->k = k; c->ku = ku; c->ncc = ncc; c->il = il; c->iu = iu;
    c->vlo = 2; c->vhi = n > 3 ? n - 1 : n;
}

static void make_cfgs(int fam)
{
    static const int svd_shapes[][2] = {{6, 4}, {4, 6}, {20, 3}, {3, 20}, {1, 1}};
    static const char *gesvd_jobs[] = {"NN", "SS", "AA", "ON", "NO", "SA", "AN", "NS", "OS", "SO"};
    static const char *gesdd_jobs[] = {"N", "O", "S", "A"};
    static const int ns[] = {1, 7, 16};
    size_t i, j;
    ncfg = 0;
    switch (fam) {
    case F_GESVD:
        for (i = 0; i < sizeof gesvd_jobs / sizeof *gesvd_jobs; i++)
            for (j = 0; j < 5; j++)
                add(gesvd_jobs[i], svd_shapes[j][0], svd_shapes[j][1], 0, 0, 0, 0, 0);
        break;
    case F_GESDD:
        for (i = 0; i < 4; i++)
            for (j = 0; j < 5; j++)
                add(gesdd_jobs[i], svd_shapes[j][0], svd_shapes[j][1], 0, 0, 0, 0, 0);
        break;
    case F_SYEV: case F_SYEVD:
        for (j = 0; j < 3; j++) { add("NU", 0, ns[j], 0, 0, 0, 0, 0); add("VL", 0, ns[j], 0, 0, 0, 0, 0); }
        break;
    case F_SYEV2: case F_SYEVD2:
        for (j = 0; j < 3; j++) { add("NU", 0, ns[j], 0, 0, 0, 0, 0); add("NL", 0, ns[j], 0, 0, 0, 0, 0); }
        break;
    case F_SYEVR: case F_SYEVX: case F_SYEVR2: case F_SYEVX2: {
        int v2 = fam == F_SYEVR2 || fam == F_SYEVX2;
        for (j = 0; j < 3; j++) {
            int n = ns[j];
            add(v2 ? "NAU" : "VAU", 0, n, 0, 0, 0, 0, 0);
            add("NAL", 0, n, 0, 0, 0, 0, 0);
            add(v2 ? "NIL" : "VIL", 0, n, 0, 0, 0, 1, n > 2 ? 2 : 1);
            add("NVU", 0, n, 0, 0, 0, 0, 0);
            if (!v2) add("VVU", 0, n, 0, 0, 0, 0, 0);
        }
        break;
    }
    case F_SYTRD:
        for (j = 0; j < 3; j++) { add("U", 0, ns[j], 0, 0, 0, 0, 0); add("L", 0, ns[j], 0, 0, 0, 0, 0); }
        break;
    case F_SYTRD2:
        for (j = 0; j < 3; j++) { add("NU", 0, ns[j], 0, 0, 0, 0, 0); add("NL", 0, ns[j], 0, 0, 0, 0, 0); }
        break;
    case F_GBBRD:
        add("N", 6, 5, 1, 2, 0, 0, 0);
        add("B", 6, 5, 2, 1, 3, 0, 0);
        add("Q", 4, 7, 1, 1, 2, 0, 0);
        add("P", 7, 4, 0, 2, 0, 0, 0);
        add("B", 5, 5, 3, 0, 1, 0, 0);
        break;
    case F_SBTRD:
        for (j = 0; j < 3; j++) { add("NU", 0, ns[j], 2, 0, 0, 0, 0); add("VL", 0, ns[j], 3, 0, 0, 0, 0); add("UU", 0, ns[j], 1, 0, 0, 0, 0); }
        break;
    case F_SBEV: case F_SBEVD:
        for (j = 0; j < 3; j++) { add("NU", 0, ns[j], 2, 0, 0, 0, 0); add("VL", 0, ns[j], 3, 0, 0, 0, 0); }
        break;
    }
}

static tu_spec spec_of(int fam, char p, const cfg *g)
{
    tu_spec s = tu_mk(fam, p, g->o, g->m, g->n);
    s.k = g->k; s.ku = g->ku; s.ncc = g->ncc; s.il = g->il; s.iu = g->iu;
    s.vlo = g->vlo; s.vhi = g->vhi;
    return s;
}

static void cfgname(char *b, size_t L, int fam, char p, const cfg *g, const char *variant)
{
    if (tu_is_svd(fam) || fam == F_GBBRD)
        snprintf(b, L, "%s/%s/%s/%dx%d%s", tu_rname(fam, p), variant, g->o, g->m, g->n,
                 fam == F_GBBRD ? "" : "");
    else
        snprintf(b, L, "%s/%s/%s/n=%d%s", tu_rname(fam, p), variant, g->o, g->n,
                 tu_is_band(fam) ? (g->k == 1 ? ",kd=1" : g->k == 2 ? ",kd=2" : ",kd=3") : "");
}

/* smallest LWORK the real routine accepts for this spec (bisection on the
 * real routine), or -1 */
static int real_min_lwork(tu_spec s, int doc)
{
    int pos = tu_pos_lwork(s.fam, s.p), lo, hi, info;
    s.lwork = doc;
    info = tu_real_info(&s, NULL);
    hi = doc;
    while (info == -pos && hi < 64 * doc + 4096) {
        hi = 2 * hi + 16;
        s.lwork = hi;
        info = tu_real_info(&s, NULL);
    }
    if (info == -pos)
        return -1;
    lo = 0; /* lo fails (or is 0), hi works */
    s.lwork = TU_LW_ZERO;
    if (tu_real_info(&s, NULL) != -pos)
        return 0;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        s.lwork = mid;
        if (tu_real_info(&s, NULL) == -pos) lo = mid;
        else hi = mid;
    }
    return hi;
}

static int nchecks_fam[TU_NFAM][4];

static void run(const char *name, tu_spec *s, int fam, char p)
{
    tu_run_spec(name, s);
    nchecks_fam[fam][tu_pidx(p)]++;
}

int main(void)
{
    int pi, fam, i;
    double t0 = tu_now();
    tu_init("test_lwork");
    tu_check_front();
    for (fam = 0; fam < TU_NFAM; fam++)
        for (pi = 0; pi < 4; pi++) {
            char p = tu_precs[pi];
            make_cfgs(fam);
            for (i = 0; i < ncfg; i++) {
                const cfg *g = &cfgs[i];
                char nm[160];
                tu_spec s = spec_of(fam, p, g);
                tu_case c;
                int doc, rinfo;

                /* documented minimum: must work */
                cfgname(nm, sizeof nm, fam, p, g, "docmin");
                rinfo = tu_real_info(&s, &c);
                doc = c.lwork;
                tu_case_free(&c);
                if (rinfo != 0)
                    tu_note("%s: real LAPACK itself gives INFO=%d at the documented minimum LWORK=%d",
                            nm, rinfo, doc);
                run(nm, &s, fam, p);

                if (!tu_has_lwork(fam))
                    continue; /* fixed-size workspaces only */

                /* queries */
                s = spec_of(fam, p, g);
                s.lwork = s.lrwork = s.liwork = TU_LW_QUERY;
                if (fam == F_SYTRD2) s.lhous2 = TU_LW_QUERY;
                cfgname(nm, sizeof nm, fam, p, g, "query");
                run(nm, &s, fam, p);
                if (tu_has_liwork(fam)) {
                    s = spec_of(fam, p, g);
                    s.liwork = TU_LW_QUERY;
                    cfgname(nm, sizeof nm, fam, p, g, "query-liwork-only");
                    run(nm, &s, fam, p);
                    s = spec_of(fam, p, g);
                    s.lwork = TU_LW_QUERY;
                    cfgname(nm, sizeof nm, fam, p, g, "query-lwork-only");
                    run(nm, &s, fam, p);
                }
                if (tu_has_lrwork(fam, p)) {
                    s = spec_of(fam, p, g);
                    s.lrwork = TU_LW_QUERY;
                    cfgname(nm, sizeof nm, fam, p, g, "query-lrwork-only");
                    run(nm, &s, fam, p);
                }
                if (fam == F_SYTRD2) {
                    s = spec_of(fam, p, g);
                    s.lhous2 = TU_LW_QUERY;
                    cfgname(nm, sizeof nm, fam, p, g, "query-lhous2-only");
                    run(nm, &s, fam, p);
                    s = spec_of(fam, p, g);
                    s.lwork = TU_LW_QUERY;
                    cfgname(nm, sizeof nm, fam, p, g, "query-lwork-only");
                    run(nm, &s, fam, p);
                }

                /* minimum the real routine accepts, and one less */
                {
                    int tm = real_min_lwork(spec_of(fam, p, g), doc);
                    if (tm > 0 && tm < doc) {
                        s = spec_of(fam, p, g);
                        s.lwork = tm;
                        cfgname(nm, sizeof nm, fam, p, g, "realmin");
                        run(nm, &s, fam, p);
                    }
                    if (tm >= 1) {
                        s = spec_of(fam, p, g);
                        s.lwork = tm - 1 == 0 ? TU_LW_ZERO : tm - 1;
                        cfgname(nm, sizeof nm, fam, p, g, "realmin-1");
                        run(nm, &s, fam, p);
                    }
                    if (doc - 1 != tm - 1) {
                        s = spec_of(fam, p, g);
                        s.lwork = doc - 1 == 0 ? TU_LW_ZERO : doc - 1;
                        cfgname(nm, sizeof nm, fam, p, g, "docmin-1");
                        run(nm, &s, fam, p);
                    }
                }
                if (tu_has_lrwork(fam, p)) {
                    tu_case c2;
                    s = spec_of(fam, p, g);
                    tu_real_info(&s, &c2);
                    s.lrwork = c2.lrwork - 1 == 0 ? TU_LW_ZERO : c2.lrwork - 1;
                    tu_case_free(&c2);
                    cfgname(nm, sizeof nm, fam, p, g, "lrwork-docmin-1");
                    run(nm, &s, fam, p);
                }
                if (tu_has_liwork(fam)) {
                    tu_case c2;
                    s = spec_of(fam, p, g);
                    tu_real_info(&s, &c2);
                    s.liwork = c2.liwork - 1 == 0 ? TU_LW_ZERO : c2.liwork - 1;
                    tu_case_free(&c2);
                    cfgname(nm, sizeof nm, fam, p, g, "liwork-docmin-1");
                    run(nm, &s, fam, p);
                }
                if (fam == F_SYTRD2) {
                    tu_case c2;
                    s = spec_of(fam, p, g);
                    tu_real_info(&s, &c2);
                    s.lhous2 = c2.lhous2 - 1 == 0 ? TU_LW_ZERO : c2.lhous2 - 1;
                    tu_case_free(&c2);
                    cfgname(nm, sizeof nm, fam, p, g, "lhous2-docmin-1");
                    run(nm, &s, fam, p);
                }

                /* optimal sizes: the real query's, then our query's */
                s = spec_of(fam, p, g);
                s.lwork = s.lrwork = s.liwork = TU_LW_OPT;
                if (fam == F_SYTRD2) s.lhous2 = TU_LW_OPT;
                cfgname(nm, sizeof nm, fam, p, g, "optimal");
                run(nm, &s, fam, p);
                s = spec_of(fam, p, g);
                s.lwork = TU_LW_OURS;
                cfgname(nm, sizeof nm, fam, p, g, "our-optimal");
                run(nm, &s, fam, p);
            }
        }
    /* the library must have been entered for every routine */
    for (fam = 0; fam < TU_NFAM; fam++)
        for (pi = 0; pi < 4; pi++)
            tu_check_logged(fam, tu_precs[pi], 1);
    tu_note("test_lwork took %.1f s", tu_now() - t0);
    return tu_finish();
}
