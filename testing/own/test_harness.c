/*
 * test_harness: self-test of testutil.h's comparison machinery, so that a
 * green run means something. The real LAPACK's result is compared with a
 * copy of itself after a deliberate change:
 *   - exact mode must flag every change;
 *   - ratio mode must accept what LAPACK's contract allows (an eigenvector
 *     or singular-vector pair negated, a complex eigenvector times i) and
 *     flag wrong values, vectors, reflectors, Q, P^T, C (3e-2 changes).
 * Also: the library is in front (the same front check as every test).
 */
#include "testutil.h"

static int cur_ratio;

static void try(tu_spec s, void (*mut)(tu_case *, tu_res *), const char *what, int expect_ok) {
    tu_case c;
    tu_res o, r;
    char msg[1200], nm[240];
    int ok, save = tu_ratio_mode;
    tu_ratio_mode = cur_ratio;
    tu_build(&s, &c);
    tu_exec(&c, 1, &o);
    tu_exec(&c, 1, &r);
    mut(&c, &o);
    ok = tu_compare_q(&c, &o, &r, -1, msg, sizeof msg);
    /* in exact mode every change is a difference */
    if (!cur_ratio && strcmp(what, "none") != 0)
        expect_ok = 0;
    snprintf(nm, sizeof nm, "%s/%s/%s/%dx%d/%s", cur_ratio ? "ratio" : "exact",
             tu_rname(c.fam, c.p), c.o, c.m, c.n, what);
    for (char *q = nm; *q; q++)
        if (*q == ' ')
            *q = '-';
    tu_report(ok == expect_ok, nm, "%s: compare said %s (%s) [%s]", what,
              ok ? "equal" : "different", ok ? "" : msg, c.desc);
    tu_res_free(&o);
    tu_res_free(&r);
    tu_case_free(&c);
    tu_ratio_mode = save;
}

static void none(tu_case *c, tu_res *o) {
    (void)c;
    (void)o;
}
static void negcol(tu_case *c,
                   tu_res *o) { /* negate column 1 of U/Z (or A for syev) and VT row 1 */
    int b = (c->fam == F_SYEV || c->fam == F_SYEVD) ? B_A : B_U;
    int ld = b == B_A ? c->lda : c->ldu;
    int i;
    int rows = c->fam == F_GESDD || c->fam == F_GESVD ? c->m : c->n;
    for (i = 0; i < rows; i++)
        tu_put(c->p, o->c.ptr[b], i, -tu_get(c->p, o->c.ptr[b], i));
    (void)ld;
    if (c->fam == F_GESDD || c->fam == F_GESVD)
        for (i = 0; i < c->n; i++)
            tu_put(c->p, o->c.ptr[B_VT], (size_t)i * c->ldvt,
                   -tu_get(c->p, o->c.ptr[B_VT], (size_t)i * c->ldvt));
}
static void phase(tu_case *c, tu_res *o) {
    int i;
    int rows = c->n;
    int b = (c->fam == F_SYEV || c->fam == F_SYEVD) ? B_A : B_U;
    for (i = 0; i < rows; i++)
        tu_put(c->p, o->c.ptr[b], i, I * tu_get(c->p, o->c.ptr[b], i));
}
static void pertw(tu_case *c, tu_res *o) {
    tu_put(tu_rtype(c->p), o->c.ptr[B_W], 1, tu_get(tu_rtype(c->p), o->c.ptr[B_W], 1) * (1 + 3e-2));
}
static void pertu(tu_case *c, tu_res *o) {
    int b = (c->fam == F_SYEV || c->fam == F_SYEVD || c->fam == F_SYTRD) ? B_A : B_U;
    int col =
        tu_is_rangefam(c->fam) ? o->c.mout - 1 : c->b[b].cols - 2; /* a column that is output */
    size_t ix = (size_t)c->b[b].ld * col;
    tu_put(c->p, o->c.ptr[b], ix, tu_get(c->p, o->c.ptr[b], ix) + 3e-2);
}
static void perte(tu_case *c, tu_res *o) {
    tu_put(tu_rtype(c->p), o->c.ptr[B_E], 1, tu_get(tu_rtype(c->p), o->c.ptr[B_E], 1) * (1 + 3e-2));
}
static void perttau(tu_case *c, tu_res *o) {
    tu_put(c->p, o->c.ptr[B_TAU], 3, tu_get(c->p, o->c.ptr[B_TAU], 3) * (1 + 3e-2));
}
static void pertvt(tu_case *c, tu_res *o) {
    tu_put(c->p, o->c.ptr[B_VT], 0, tu_get(c->p, o->c.ptr[B_VT], 0) + 3e-2);
}
static void pertc(tu_case *c, tu_res *o) {
    tu_put(c->p, o->c.ptr[B_C], 0, tu_get(c->p, o->c.ptr[B_C], 0) + 3e-2);
}
int main(void) {
    double t0 = tu_now();
    tu_init("test_harness");
    tu_check_front();
    for (cur_ratio = 0; cur_ratio < 2; cur_ratio++) {

        char ps[] = "dzsc";
        int k;
        for (k = 0; k < 4; k++) {
            char p = ps[k];
            tu_spec s;
            const char *jobs[] = {"A", "S", "O", "N"};
            int j;
            for (j = 0; j < 4; j++) {
                int sh;
                int shp[2][2] = {{7, 5}, {5, 7}};
                for (sh = 0; sh < 2; sh++) {
                    s = tu_mk(F_GESDD, p, jobs[j], shp[sh][0], shp[sh][1]);
                    try(s, none, "none", 1);
                    try(s, pertw, "S perturbed", 0);
                    if (jobs[j][0] == 'A' || jobs[j][0] == 'S') {
                        try(s, negcol, "U col1,VT row1 negated", 1);
                        try(s, pertu, "U perturbed", 0);
                        try(s, pertvt, "VT perturbed", 0);
                    }
                }
            }
            const char *gj[] = {"SN", "NS", "ON", "NO", "AA"};
            for (j = 0; j < 5; j++) {
                s = tu_mk(F_GESVD, p, gj[j], 8, 5);
                try(s, none, "none", 1);
                if (gj[j][0] == 'S')
                    try(s, pertu, "U perturbed", 0);
                if (gj[j][1] == 'S')
                    try(s, pertvt, "VT perturbed", 0);
                s = tu_mk(F_GESVD, p, gj[j], 5, 8);
                try(s, none, "none", 1);
            }
            s = tu_mk(F_SYEVD, p, "VU", 0, 9);
            try(s, none, "none", 1);
            try(s, negcol, "Z col negated", 1);
            if (tu_cplx(p))
                try(s, phase, "Z col times i", 1);
            try(s, pertw, "W pert", 0);
            try(s, pertu, "Z pert", 0);
            s = tu_mk(F_SYEVR, p, "VIL", 0, 9);
            s.il = 2;
            s.iu = 5;
            try(s, none, "none", 1);
            try(s, negcol, "Z col negated", 1);
            try(s, pertu, "Z pert", 0);
            try(s, pertw, "W pert", 0);
            s = tu_mk(F_SYEVX, p, "VVU", 0, 9);
            s.vlo = 3;
            s.vhi = 7;
            try(s, none, "none", 1);
            try(s, pertu, "Z pert", 0);
            s = tu_mk(F_SYTRD, p, "U", 0, 9);
            try(s, none, "none", 1);
            try(s, pertu, "A pert", 0);
            try(s, perte, "E pert", 0);
            try(s, perttau, "tau pert", 0);
            s = tu_mk(F_SYTRD, p, "L", 0, 9);
            try(s, none, "none", 1);
            try(s, perte, "E pert", 0);
            s = tu_mk(F_SYTRD2, p, "NU", 0, 9);
            try(s, none, "none", 1);
            try(s, perte, "E pert", 0);
            try(s, pertw, "D pert", 0);
            const char *vv[] = {"N", "V", "U"};
            for (j = 0; j < 3; j++) {
                s = tu_mk(F_SBTRD, p, vv[j][0] == 'N' ? "NL" : vv[j][0] == 'V' ? "VU" : "UL", 0, 9);
                s.k = 3;
                try(s, none, "none", 1);
                try(s, perte, "E pert", 0);
                if (j)
                    try(s, pertu, "Q pert", 0);
            }
            s = tu_mk(F_SBEVD, p, "VL", 0, 9);
            s.k = 2;
            try(s, none, "none", 1);
            try(s, pertu, "Z pert", 0);
            try(s, pertw, "W pert", 0);
            const char *gv[] = {"N", "Q", "P", "B"};
            for (j = 0; j < 4; j++) {
                int sh;
                int shp[2][2] = {{7, 5}, {5, 7}};
                for (sh = 0; sh < 2; sh++) {
                    s = tu_mk(F_GBBRD, p, gv[j], shp[sh][0], shp[sh][1]);
                    s.k = 2;
                    s.ku = 1;
                    s.ncc = 2;
                    try(s, none, "none", 1);
                    try(s, perte, "E pert", 0);
                    try(s, pertc, "C pert", 0);
                    if (gv[j][0] == 'Q' || gv[j][0] == 'B')
                        try(s, pertu, "Q pert", 0);
                    if (gv[j][0] == 'P' || gv[j][0] == 'B')
                        try(s, pertvt, "PT pert", 0);
                }
            }
        }
    }
    tu_note("test_harness took %.1f s", tu_now() - t0);
    return tu_finish();
}
