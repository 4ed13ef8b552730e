/*
 * test_options: every JOB/RANGE/UPLO/VECT combination of every routine
 * family in s, d, c, z, in upper and lower case; tall, wide and square
 * shapes (including the m >> n paths of the SVDs); M = 0, N = 0 (LDA = 1),
 * N = 1; padded leading dimensions (LDA > M, LDU, LDVT, LDZ, LDQ, LDPT, LDC
 * padded: the padding rows must stay untouched); the triangle that UPLO
 * does not reference filled with 1e20; RANGE='V' intervals that hold all,
 * some or no eigenvalues, RANGE='I' first/middle/last.
 * Each call is compared with the real LAPACK (see testutil.h).
 */
#include "testutil.h"

static int lower;        /* current pass: lowercase option characters */
static int npad;         /* current pass: padded leading dimensions */
static char pfx[8];

static void lc(char *o)
{
    int i;
    for (i = 0; i < 3 && o[i]; i++)
        if (lower && o[i] >= 'A' && o[i] <= 'Z')
            o[i] = (char)(o[i] + 32);
}

static void pad(tu_spec *s)
{
    if (npad) {
        s->pad_a = 3;
        s->pad_u = 2;
        s->pad_vt = 1;
        s->pad_c = 2;
    }
}

/* One reported check per routine + option combination (+ case, padding):
 * the shapes and sizes of one combination are grouped, a failure names the
 * first failing case in full. */
static char group[200];

static void go(tu_spec *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void go(tu_spec *s, const char *fmt, ...)
{
    char nm[200], tail[160], g[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tail, sizeof tail, fmt, ap);
    va_end(ap);
    lc(s->o);
    pad(s);
    snprintf(g, sizeof g, "%s/%s%s%s", tu_rname(s->fam, s->p), s->o, npad ? "/padded" : "", pfx);
    if (strcmp(g, group) != 0) {
        tu_group_end();
        snprintf(group, sizeof group, "%s", g);
        tu_group_begin(g);
    }
    snprintf(nm, sizeof nm, "%s/%s%s%s%s", tu_rname(s->fam, s->p), s->o, tail, npad ? "/padded" : "", pfx);
    tu_run_spec(nm, s);
}

static const int svd_shapes[][2] = {{9, 6}, {6, 9}, {7, 7}, {30, 4}, {4, 30}, {1, 5},
                                    {5, 1}, {1, 1}, {0, 4}, {4, 0}, {0, 0}};
#define NSVD (int)(sizeof svd_shapes / sizeof *svd_shapes)
static const int eig_ns[] = {0, 1, 2, 7, 20};
#define NEIG (int)(sizeof eig_ns / sizeof *eig_ns)

static void svd(char p)
{
    const char *J = "ASON";
    int a, b, k;
    for (a = 0; a < 4; a++)
        for (b = 0; b < 4; b++) {
            char o[4] = {J[a], J[b], 0, 0};
            if (J[a] == 'O' && J[b] == 'O')
                continue;
            for (k = 0; k < NSVD; k++) {
                tu_spec s = tu_mk(F_GESVD, p, o, svd_shapes[k][0], svd_shapes[k][1]);
                go(&s, "/%dx%d", s.m, s.n);
            }
        }
    for (a = 0; a < 4; a++) {
        char o[4] = {J[a], 0, 0, 0};
        for (k = 0; k < NSVD; k++) {
            tu_spec s = tu_mk(F_GESDD, p, o, svd_shapes[k][0], svd_shapes[k][1]);
            go(&s, "/%dx%d", s.m, s.n);
        }
    }
}

static void eig(char p)
{
    static const int fams1[] = {F_SYEV, F_SYEVD, F_SYEV2, F_SYEVD2};
    static const int famsr[] = {F_SYEVR, F_SYEVX, F_SYEVR2, F_SYEVX2};
    int f, k, jz, ul, g, rg;
    for (f = 0; f < 4; f++)
        for (jz = 0; jz < 2; jz++)
            for (ul = 0; ul < 2; ul++)
                for (k = 0; k < NEIG; k++)
                    for (g = 0; g < 2; g++) {
                        char o[4] = {"NV"[jz], "UL"[ul], 0, 0};
                        tu_spec s = tu_mk(fams1[f], p, o, 0, eig_ns[k]);
                        if (jz && (fams1[f] == F_SYEV2 || fams1[f] == F_SYEVD2))
                            continue; /* JOBZ='V' is not supported by 2-stage: test_args */
                        s.garbage_tri = g;
                        go(&s, "/n=%d%s", s.n, g ? "/garbage-triangle" : "");
                    }
    for (f = 0; f < 4; f++)
        for (jz = 0; jz < 2; jz++)
            for (rg = 0; rg < 3; rg++)
                for (ul = 0; ul < 2; ul++)
                    for (k = 0; k < NEIG; k++) {
                        int n = eig_ns[k], var;
                        char o[4] = {"NV"[jz], "AVI"[rg], "UL"[ul], 0};
                        if (jz && (famsr[f] == F_SYEVR2 || famsr[f] == F_SYEVX2))
                            continue;
                        for (var = 0; var < (rg == 0 ? 2 : 3); var++) {
                            tu_spec s = tu_mk(famsr[f], p, o, 0, n);
                            if (rg == 0) { /* all; second variant: garbage triangle */
                                s.garbage_tri = var;
                                go(&s, "/n=%d%s", n, var ? "/garbage-triangle" : "");
                            } else if (rg == 1) {
                                if (var == 0) { s.vlo = 1; s.vhi = n; }
                                else if (var == 1) { s.vlo = 2; s.vhi = n > 2 ? n - 1 : n; }
                                else { s.vexplicit = 1; s.vl = 100.0; s.vu = 101.0; }
                                if (n == 0) { s.vexplicit = 1; s.vl = -1; s.vu = 1; }
                                go(&s, "/n=%d/%s", n, var == 0 ? "all" : var == 1 ? "some" : "none");
                            } else {
                                if (n == 0) { s.il = 1; s.iu = 0; }
                                else if (var == 0) { s.il = 1; s.iu = n; }
                                else if (var == 1) { s.il = n > 2 ? 2 : 1; s.iu = n > 3 ? 3 : n; }
                                else { s.il = n; s.iu = n; }
                                go(&s, "/n=%d/il=%d,iu=%d/v%d", n, s.il, s.iu, var);
                            }
                        }
                    }
}

static void trd(char p)
{
    int k, ul, g, two;
    for (two = 0; two < 2; two++)
        for (ul = 0; ul < 2; ul++)
            for (k = 0; k < NEIG; k++)
                for (g = 0; g < 2; g++) {
                    char o1[4] = {"UL"[ul], 0, 0, 0}, o2[4] = {'N', "UL"[ul], 0, 0};
                    tu_spec s = two ? tu_mk(F_SYTRD2, p, o2, 0, eig_ns[k])
                                    : tu_mk(F_SYTRD, p, o1, 0, eig_ns[k]);
                    s.garbage_tri = g;
                    go(&s, "/n=%d%s", s.n, g ? "/garbage-triangle" : "");
                }
}

static void band(char p)
{
    static const int kds[] = {0, 1, 3, 25};
    static const int bands[][2] = {{0, 0}, {1, 0}, {0, 1}, {2, 1}, {3, 3}};
    static const int gshapes[][2] = {{7, 5}, {5, 7}, {6, 6}, {1, 4}, {4, 1}, {0, 3}, {3, 0}};
    int v, ul, k, kd, b, sh, ncc, f;
    for (v = 0; v < 4; v++)
        for (sh = 0; sh < 7; sh++)
            for (b = 0; b < 5; b++)
                for (ncc = 0; ncc <= 2; ncc += 2) {
                    char o[4] = {"NQPB"[v], 0, 0, 0};
                    tu_spec s = tu_mk(F_GBBRD, p, o, gshapes[sh][0], gshapes[sh][1]);
                    s.k = bands[b][0];
                    s.ku = bands[b][1];
                    s.ncc = ncc;
                    go(&s, "/%dx%d/kl=%d,ku=%d,ncc=%d", s.m, s.n, s.k, s.ku, ncc);
                }
    for (f = 0; f < 3; f++)
        for (v = 0; v < (f == 0 ? 3 : 2); v++)
            for (ul = 0; ul < 2; ul++)
                for (k = 0; k < NEIG; k++)
                    for (kd = 0; kd < 4; kd++) {
                        static const int fams[] = {F_SBTRD, F_SBEV, F_SBEVD};
                        char o[4] = {(f == 0 ? "NVU" : "NV")[v], "UL"[ul], 0, 0};
                        tu_spec s = tu_mk(fams[f], p, o, 0, eig_ns[k]);
                        s.k = kds[kd];
                        go(&s, "/n=%d,kd=%d", s.n, s.k);
                    }
}

int main(void)
{
    int pi, f;
    double t0 = tu_now();
    tu_init("test_options");
    tu_check_front();
    for (pi = 0; pi < 4; pi++) {
        char p = tu_precs[pi];
        for (lower = 0; lower < 2; lower++)
            for (npad = 0; npad < 2; npad++) {
                snprintf(pfx, sizeof pfx, "%s", lower ? "/lc" : "");
                svd(p);
                eig(p);
                trd(p);
                band(p);
            }
    }
    tu_group_end();
    for (f = 0; f < TU_NFAM; f++)
        for (pi = 0; pi < 4; pi++)
            tu_check_logged(f, tu_precs[pi], 1);
    tu_note("test_options took %.1f s", tu_now() - t0);
    return tu_finish();
}
