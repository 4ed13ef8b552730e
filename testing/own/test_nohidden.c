/*
 * test_nohidden: callers that pass NO hidden string lengths (R, old C code,
 * hand-written prototypes): the routines are declared here without the
 * trailing size_t arguments and called directly, with the caller's stack
 * frame full of garbage (0xFF bytes) right where the hidden lengths would
 * be read. The library must never read them. Results (INFO, xerbla, every
 * output, WORK(1)) must match the real LAPACK called with proper lengths.
 * All routines here take more than 6 arguments, so every would-be hidden
 * length lies on the stack.
 */
#define TU_NO_LAPACK_H /* our own prototypes, not <lapack.h>'s */
#include "testutil.h"

typedef float _Complex cf;
typedef double _Complex cd;

/* prototypes without hidden lengths, as R and old C code declare them */
void sgesvd_(const char *, const char *, const int *, const int *, float *, const int *, float *, float *, const int *, float *, const int *, float *, const int *, int *);
void dgesvd_(const char *, const char *, const int *, const int *, double *, const int *, double *, double *, const int *, double *, const int *, double *, const int *, int *);
void cgesvd_(const char *, const char *, const int *, const int *, cf *, const int *, float *, cf *, const int *, cf *, const int *, cf *, const int *, float *, int *);
void zgesvd_(const char *, const char *, const int *, const int *, cd *, const int *, double *, cd *, const int *, cd *, const int *, cd *, const int *, double *, int *);
void sgesdd_(const char *, const int *, const int *, float *, const int *, float *, float *, const int *, float *, const int *, float *, const int *, int *, int *);
void dgesdd_(const char *, const int *, const int *, double *, const int *, double *, double *, const int *, double *, const int *, double *, const int *, int *, int *);
void cgesdd_(const char *, const int *, const int *, cf *, const int *, float *, cf *, const int *, cf *, const int *, cf *, const int *, float *, int *, int *);
void zgesdd_(const char *, const int *, const int *, cd *, const int *, double *, cd *, const int *, cd *, const int *, cd *, const int *, double *, int *, int *);
void dsyevr_(const char *, const char *, const char *, const int *, double *, const int *, const double *, const double *, const int *, const int *, const double *, int *, double *, double *, const int *, int *, double *, const int *, int *, const int *, int *);
void ssyevr_(const char *, const char *, const char *, const int *, float *, const int *, const float *, const float *, const int *, const int *, const float *, int *, float *, float *, const int *, int *, float *, const int *, int *, const int *, int *);
void zheevr_(const char *, const char *, const char *, const int *, cd *, const int *, const double *, const double *, const int *, const int *, const double *, int *, double *, cd *, const int *, int *, cd *, const int *, double *, const int *, int *, const int *, int *);
void cheevr_(const char *, const char *, const char *, const int *, cf *, const int *, const float *, const float *, const int *, const int *, const float *, int *, float *, cf *, const int *, int *, cf *, const int *, float *, const int *, int *, const int *, int *);
void dsyevr_2stage_(const char *, const char *, const char *, const int *, double *, const int *, const double *, const double *, const int *, const int *, const double *, int *, double *, double *, const int *, int *, double *, const int *, int *, const int *, int *);
void dsyevx_(const char *, const char *, const char *, const int *, double *, const int *, const double *, const double *, const int *, const int *, const double *, int *, double *, double *, const int *, double *, const int *, int *, int *, int *);
void zheevx_(const char *, const char *, const char *, const int *, cd *, const int *, const double *, const double *, const int *, const int *, const double *, int *, double *, cd *, const int *, cd *, const int *, double *, int *, int *, int *);
void cheevx_(const char *, const char *, const char *, const int *, cf *, const int *, const float *, const float *, const int *, const int *, const float *, int *, float *, cf *, const int *, cf *, const int *, float *, int *, int *, int *);
void ssyevx_2stage_(const char *, const char *, const char *, const int *, float *, const int *, const float *, const float *, const int *, const int *, const float *, int *, float *, float *, const int *, float *, const int *, int *, int *, int *);
void dgbbrd_(const char *, const int *, const int *, const int *, const int *, const int *, double *, const int *, double *, double *, double *, const int *, double *, const int *, double *, const int *, double *, int *);
void sgbbrd_(const char *, const int *, const int *, const int *, const int *, const int *, float *, const int *, float *, float *, float *, const int *, float *, const int *, float *, const int *, float *, int *);
void zgbbrd_(const char *, const int *, const int *, const int *, const int *, const int *, cd *, const int *, double *, double *, cd *, const int *, cd *, const int *, cd *, const int *, cd *, double *, int *);
void dsyevd_(const char *, const char *, const int *, double *, const int *, double *, double *, const int *, int *, const int *, int *);
void zheevd_(const char *, const char *, const int *, cd *, const int *, double *, cd *, const int *, double *, const int *, int *, const int *, int *);
void ssyev_(const char *, const char *, const int *, float *, const int *, float *, float *, const int *, int *);
void cheev_(const char *, const char *, const int *, cf *, const int *, float *, cf *, const int *, float *, int *);
void dsyev_2stage_(const char *, const char *, const int *, double *, const int *, double *, double *, const int *, int *);
void zheevd_2stage_(const char *, const char *, const int *, cd *, const int *, double *, cd *, const int *, double *, const int *, int *, const int *, int *);
void dsytrd_(const char *, const int *, double *, const int *, double *, double *, double *, double *, const int *, int *);
void chetrd_(const char *, const int *, cf *, const int *, float *, float *, cf *, cf *, const int *, int *);
void dsytrd_2stage_(const char *, const char *, const int *, double *, const int *, double *, double *, double *, double *, const int *, double *, const int *, int *);
void zhetrd_2stage_(const char *, const char *, const int *, cd *, const int *, double *, double *, cd *, cd *, const int *, cd *, const int *, int *);
void dsbtrd_(const char *, const char *, const int *, const int *, double *, const int *, double *, double *, double *, const int *, double *, int *);
void zhbtrd_(const char *, const char *, const int *, const int *, cd *, const int *, double *, double *, cd *, const int *, cd *, int *);
void ssbev_(const char *, const char *, const int *, const int *, float *, const int *, float *, float *, const int *, float *, int *);
void zhbev_(const char *, const char *, const int *, const int *, cd *, const int *, double *, cd *, const int *, cd *, double *, int *);
void dsbevd_(const char *, const char *, const int *, const int *, double *, const int *, double *, double *, const int *, double *, const int *, int *, const int *, int *);
void chbevd_(const char *, const char *, const int *, const int *, cf *, const int *, float *, cf *, const int *, cf *, const int *, float *, const int *, int *, const int *, int *);

static volatile unsigned sink;

/* fill this frame with garbage, then call name_ with the remaining args */
#define NH(fn, ...)                                                       \
    static __attribute__((noinline)) void nh_##fn(void *fp, tu_case *c) \
    {                                                                     \
        volatile unsigned char junk[4096];                                \
        void **P = c->ptr;                                                \
        size_t i_;                                                        \
        (void)fp;                                                         \
        (void)P;                                                          \
        for (i_ = 0; i_ < sizeof junk; i_++)                              \
            junk[i_] = 0xFF;                                              \
        fn##_(__VA_ARGS__);                                               \
        sink += junk[sink & 4095];                                        \
    }

#define O0 &c->o[0]
#define O1 &c->o[1]
#define O2 &c->o[2]
#define VLD &c->vl, &c->vu, &c->il, &c->iu, &c->abstol
#define VLS &c->fvl, &c->fvu, &c->il, &c->iu, &c->fabstol

NH(sgesvd, O0, O1, &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, &c->info)
NH(dgesvd, O0, O1, &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, &c->info)
NH(cgesvd, O0, O1, &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, P[B_RWORK], &c->info)
NH(zgesvd, O0, O1, &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, P[B_RWORK], &c->info)
NH(sgesdd, O0, &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, P[B_IWORK], &c->info)
NH(dgesdd, O0, &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, P[B_IWORK], &c->info)
NH(cgesdd, O0, &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, P[B_RWORK], P[B_IWORK], &c->info)
NH(zgesdd, O0, &c->m, &c->n, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_WORK], &c->lwork, P[B_RWORK], P[B_IWORK], &c->info)
NH(dsyevr, O0, O1, O2, &c->n, P[B_A], &c->lda, VLD, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_ISUPPZ], P[B_WORK], &c->lwork, P[B_IWORK], &c->liwork, &c->info)
NH(ssyevr, O0, O1, O2, &c->n, P[B_A], &c->lda, VLS, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_ISUPPZ], P[B_WORK], &c->lwork, P[B_IWORK], &c->liwork, &c->info)
NH(zheevr, O0, O1, O2, &c->n, P[B_A], &c->lda, VLD, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_ISUPPZ], P[B_WORK], &c->lwork, P[B_RWORK], &c->lrwork, P[B_IWORK], &c->liwork, &c->info)
NH(cheevr, O0, O1, O2, &c->n, P[B_A], &c->lda, VLS, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_ISUPPZ], P[B_WORK], &c->lwork, P[B_RWORK], &c->lrwork, P[B_IWORK], &c->liwork, &c->info)
NH(dsyevr_2stage, O0, O1, O2, &c->n, P[B_A], &c->lda, VLD, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_ISUPPZ], P[B_WORK], &c->lwork, P[B_IWORK], &c->liwork, &c->info)
NH(dsyevx, O0, O1, O2, &c->n, P[B_A], &c->lda, VLD, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->lwork, P[B_IWORK], P[B_IFAIL], &c->info)
NH(zheevx, O0, O1, O2, &c->n, P[B_A], &c->lda, VLD, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->lwork, P[B_RWORK], P[B_IWORK], P[B_IFAIL], &c->info)
NH(cheevx, O0, O1, O2, &c->n, P[B_A], &c->lda, VLS, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->lwork, P[B_RWORK], P[B_IWORK], P[B_IFAIL], &c->info)
NH(ssyevx_2stage, O0, O1, O2, &c->n, P[B_A], &c->lda, VLS, &c->mout, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->lwork, P[B_IWORK], P[B_IFAIL], &c->info)
NH(dgbbrd, O0, &c->m, &c->n, &c->ncc, &c->k, &c->ku, P[B_A], &c->lda, P[B_W], P[B_E], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_C], &c->ldc, P[B_WORK], &c->info)
NH(sgbbrd, O0, &c->m, &c->n, &c->ncc, &c->k, &c->ku, P[B_A], &c->lda, P[B_W], P[B_E], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_C], &c->ldc, P[B_WORK], &c->info)
NH(zgbbrd, O0, &c->m, &c->n, &c->ncc, &c->k, &c->ku, P[B_A], &c->lda, P[B_W], P[B_E], P[B_U], &c->ldu, P[B_VT], &c->ldvt, P[B_C], &c->ldc, P[B_WORK], P[B_RWORK], &c->info)
NH(dsyevd, O0, O1, &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork, P[B_IWORK], &c->liwork, &c->info)
NH(zheevd, O0, O1, &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork, P[B_RWORK], &c->lrwork, P[B_IWORK], &c->liwork, &c->info)
NH(zheevd_2stage, O0, O1, &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork, P[B_RWORK], &c->lrwork, P[B_IWORK], &c->liwork, &c->info)
NH(ssyev, O0, O1, &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork, &c->info)
NH(cheev, O0, O1, &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork, P[B_RWORK], &c->info)
NH(dsyev_2stage, O0, O1, &c->n, P[B_A], &c->lda, P[B_W], P[B_WORK], &c->lwork, &c->info)
NH(dsytrd, O0, &c->n, P[B_A], &c->lda, P[B_W], P[B_E], P[B_TAU], P[B_WORK], &c->lwork, &c->info)
NH(chetrd, O0, &c->n, P[B_A], &c->lda, P[B_W], P[B_E], P[B_TAU], P[B_WORK], &c->lwork, &c->info)
NH(dsytrd_2stage, O0, O1, &c->n, P[B_A], &c->lda, P[B_W], P[B_E], P[B_TAU], P[B_H], &c->lhous2, P[B_WORK], &c->lwork, &c->info)
NH(zhetrd_2stage, O0, O1, &c->n, P[B_A], &c->lda, P[B_W], P[B_E], P[B_TAU], P[B_H], &c->lhous2, P[B_WORK], &c->lwork, &c->info)
NH(dsbtrd, O0, O1, &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_E], P[B_U], &c->ldu, P[B_WORK], &c->info)
NH(zhbtrd, O0, O1, &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_E], P[B_U], &c->ldu, P[B_WORK], &c->info)
NH(ssbev, O0, O1, &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->info)
NH(zhbev, O0, O1, &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_WORK], P[B_RWORK], &c->info)
NH(dsbevd, O0, O1, &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->lwork, P[B_IWORK], &c->liwork, &c->info)
NH(chbevd, O0, O1, &c->n, &c->k, P[B_A], &c->lda, P[B_W], P[B_U], &c->ldu, P[B_WORK], &c->lwork, P[B_RWORK], &c->lrwork, P[B_IWORK], &c->liwork, &c->info)

typedef void (*caller_t)(void *, tu_case *);

/* compare the no-hidden-length call with the real routine */
static void check(const char *variant, tu_spec s, caller_t call)
{
    tu_case c;
    tu_res o, r;
    char nm[200], msg[1200];
    int ok;
    if (tu_build(&s, &c) != 0) {
        tu_case_free(&c);
        return;
    }
    snprintf(nm, sizeof nm, "%s/%s/%s", tu_rname(s.fam, s.p), variant, s.o);
    tu_exec_with(&c, call, NULL, 1, &o);
    tu_exec(&c, 1, &r);
    ok = tu_compare_q(&c, &o, &r, tu_expect_log(&c, &r), msg, sizeof msg);
    if (ok)
        tu_report(1, nm, "%s", c.desc);
    else
        tu_report(0, nm, "%s [%s]", msg, c.desc);
    tu_res_free(&o);
    tu_res_free(&r);
    tu_case_free(&c);
}

/* the same spec as a query, at the documented minimum and optimal */
static void check3(tu_spec s, caller_t call)
{
    tu_spec q = s;
    check("docmin", s, call);
    q.lwork = q.lrwork = q.liwork = TU_LW_QUERY;
    if (s.fam == F_SYTRD2) q.lhous2 = TU_LW_QUERY;
    if (tu_has_lwork(s.fam))
        check("query", q, call);
    q = s;
    q.lwork = q.lrwork = q.liwork = TU_LW_OPT;
    if (s.fam == F_SYTRD2) q.lhous2 = TU_LW_OPT;
    if (tu_has_lwork(s.fam))
        check("optimal", q, call);
}

static tu_spec sp(int fam, char p, const char *o, int m, int n, int k)
{
    tu_spec s = tu_mk(fam, p, o, m, n);
    s.k = k;
    if (fam == F_GBBRD) { s.ku = 1; s.ncc = 2; }
    if (tu_is_rangefam(fam) && tu_up(o[1]) == 'I') { s.il = 2; s.iu = n - 2; }
    if (tu_is_rangefam(fam) && tu_up(o[1]) == 'V') { s.vlo = 2; s.vhi = n - 1; }
    s.pad_a = 1;
    return s;
}

int main(void)
{
    double t0 = tu_now();
    tu_spec s;
    int rep;
    tu_init("test_nohidden");
    tu_check_front();
    for (rep = 0; rep < 2; rep++) { /* rep 1: lowercase options */
        {
            const char *AA = rep ? "aa" : "AA", *SN = rep ? "sn" : "SN", *OS = rep ? "os" : "OS";
            const char *A = rep ? "a" : "A", *O = rep ? "o" : "O", *S = rep ? "s" : "S", *N = rep ? "n" : "N";
            check3(sp(F_GESVD, 'd', AA, 7, 5, 0), nh_dgesvd);
            check3(sp(F_GESVD, 'd', SN, 5, 8, 0), nh_dgesvd);
            check3(sp(F_GESVD, 'd', OS, 6, 6, 0), nh_dgesvd);
            check3(sp(F_GESVD, 's', rep ? "ss" : "SS", 6, 4, 0), nh_sgesvd);
            check3(sp(F_GESVD, 'z', rep ? "as" : "AS", 5, 7, 0), nh_zgesvd);
            check3(sp(F_GESVD, 'c', rep ? "nn" : "NN", 6, 3, 0), nh_cgesvd);
            check3(sp(F_GESDD, 'd', A, 7, 5, 0), nh_dgesdd);
            check3(sp(F_GESDD, 'd', O, 5, 8, 0), nh_dgesdd);
            check3(sp(F_GESDD, 'd', N, 6, 6, 0), nh_dgesdd);
            check3(sp(F_GESDD, 's', S, 6, 6, 0), nh_sgesdd);
            check3(sp(F_GESDD, 'z', O, 7, 4, 0), nh_zgesdd);
            check3(sp(F_GESDD, 'c', A, 4, 7, 0), nh_cgesdd);
            check3(sp(F_SYEVR, 'd', rep ? "vau" : "VAU", 0, 8, 0), nh_dsyevr);
            check3(sp(F_SYEVR, 'd', rep ? "vil" : "VIL", 0, 8, 0), nh_dsyevr);
            check3(sp(F_SYEVR, 'd', rep ? "nvu" : "NVU", 0, 8, 0), nh_dsyevr);
            check3(sp(F_SYEVR, 's', rep ? "val" : "VAL", 0, 8, 0), nh_ssyevr);
            check3(sp(F_SYEVR, 'z', rep ? "vil" : "VIL", 0, 8, 0), nh_zheevr);
            check3(sp(F_SYEVR, 'c', rep ? "vvu" : "VVU", 0, 8, 0), nh_cheevr);
            check3(sp(F_SYEVR2, 'd', rep ? "nil" : "NIL", 0, 8, 0), nh_dsyevr_2stage);
            check3(sp(F_SYEVX, 'd', rep ? "vil" : "VIL", 0, 8, 0), nh_dsyevx);
            check3(sp(F_SYEVX, 'z', rep ? "vvu" : "VVU", 0, 8, 0), nh_zheevx);
            check3(sp(F_SYEVX, 'c', rep ? "val" : "VAL", 0, 8, 0), nh_cheevx);
            check3(sp(F_SYEVX2, 's', rep ? "nau" : "NAU", 0, 8, 0), nh_ssyevx_2stage);
            check3(sp(F_GBBRD, 'd', rep ? "b" : "B", 7, 5, 2), nh_dgbbrd);
            check3(sp(F_GBBRD, 's', rep ? "p" : "P", 5, 7, 1), nh_sgbbrd);
            check3(sp(F_GBBRD, 'z', rep ? "q" : "Q", 6, 6, 2), nh_zgbbrd);
            check3(sp(F_SYEVD, 'd', rep ? "vu" : "VU", 0, 9, 0), nh_dsyevd);
            check3(sp(F_SYEVD, 'z', rep ? "vl" : "VL", 0, 9, 0), nh_zheevd);
            check3(sp(F_SYEVD2, 'z', rep ? "nl" : "NL", 0, 9, 0), nh_zheevd_2stage);
            check3(sp(F_SYEV, 's', rep ? "vu" : "VU", 0, 9, 0), nh_ssyev);
            check3(sp(F_SYEV, 'c', rep ? "vl" : "VL", 0, 9, 0), nh_cheev);
            check3(sp(F_SYEV2, 'd', rep ? "nu" : "NU", 0, 9, 0), nh_dsyev_2stage);
            check3(sp(F_SYTRD, 'd', rep ? "u" : "U", 0, 9, 0), nh_dsytrd);
            check3(sp(F_SYTRD, 'c', rep ? "l" : "L", 0, 9, 0), nh_chetrd);
            check3(sp(F_SYTRD2, 'd', rep ? "nu" : "NU", 0, 9, 0), nh_dsytrd_2stage);
            check3(sp(F_SYTRD2, 'z', rep ? "nl" : "NL", 0, 9, 0), nh_zhetrd_2stage);
            check3(sp(F_SBTRD, 'd', rep ? "vu" : "VU", 0, 9, 2), nh_dsbtrd);
            check3(sp(F_SBTRD, 'z', rep ? "ul" : "UL", 0, 9, 3), nh_zhbtrd);
            check3(sp(F_SBEV, 's', rep ? "vl" : "VL", 0, 9, 2), nh_ssbev);
            check3(sp(F_SBEV, 'z', rep ? "vu" : "VU", 0, 9, 1), nh_zhbev);
            check3(sp(F_SBEVD, 'd', rep ? "vu" : "VU", 0, 9, 2), nh_dsbevd);
            check3(sp(F_SBEVD, 'c', rep ? "nl" : "NL", 0, 9, 3), nh_chbevd);
        }
    }
    /* invalid arguments through the same prototypes: xerbla as the real one */
    s = sp(F_GESVD, 'd', "XA", 7, 5, 0);
    check("invalid-jobu", s, nh_dgesvd);
    s = sp(F_GESDD, 'z', "S", 7, 5, 0);
    s.lda = 3;
    check("invalid-lda", s, nh_zgesdd);
    s = sp(F_SYEVR, 'd', "VIU", 0, 8, 0);
    s.il = 0;
    check("invalid-il", s, nh_dsyevr);
    s = sp(F_SYEVX, 'c', "VAU", 0, 8, 0);
    s.lwork = 1;
    check("invalid-lwork", s, nh_cheevx);
    s = sp(F_GBBRD, 'd', "Q", 7, 5, 2);
    s.ldu = 3;
    check("invalid-ldq", s, nh_dgbbrd);
    s = sp(F_SYTRD2, 'd', "VU", 0, 6, 0);
    check("invalid-vect", s, nh_dsytrd_2stage);
    tu_check_logged(F_GESVD, 'd', 1);
    tu_check_logged(F_GESDD, 'z', 1);
    tu_check_logged(F_SYEVR, 'd', 1);
    tu_check_logged(F_SYEVX, 'c', 1);
    tu_check_logged(F_GBBRD, 'd', 1);
    tu_check_logged(F_SBEVD, 'd', 1);
    tu_check_logged(F_SYTRD2, 'z', 1);
    tu_note("test_nohidden took %.1f s", tu_now() - t0);
    return tu_finish();
}
