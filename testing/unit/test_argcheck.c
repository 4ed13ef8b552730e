/* Unit test: lapack_api/argcheck.c gives exactly the INFO of the real LAPACK
 * for every non-workspace argument error, over a grid of job characters,
 * sizes and leading dimensions (double and complex double routines).
 *
 * The real routines come from dlopen("liblapack.so.3"); the xerbla_ defined
 * here replaces LAPACK's (which would STOP the program). */
#include <complex.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "argcheck.h"

static int xerbla_calls;
void xerbla_(const char *name, const int *info, size_t len)
{
    (void)name, (void)info, (void)len;
    xerbla_calls++;
}

enum { BUF = 4096, LWORK = 20000 };
static double complex a[BUF], u[BUF], vt[BUF], z[BUF], q[BUF], work[LWORK];
static double s[BUF], rwork[LWORK];
static int iwork[LWORK], isuppz[BUF], ifail[BUF];
static const int lwork = LWORK, liwork = LWORK, lrwork = LWORK;

static void *lapack;
static int checks, failures;

static void *real_fn(const char *name)
{
    void *fn = dlsym(lapack, name);
    if (!fn)
        printf("FAIL unit/argcheck/%s: not in liblapack.so.3\n", name);
    return fn;
}

/* Our INFO must equal the real one whenever the real one is negative (the
 * workspace is large enough that it never complains about it), and be 0
 * when the real routine accepts the call. */
static void compare(const char *routine, int ours, int real, const char *args)
{
    checks++;
    if ((real < 0 && ours != real) || (real >= 0 && ours != 0)) {
        if (failures++ < 20)
            printf("FAIL unit/argcheck/%s: %s: ours %d, LAPACK %d\n", routine,
                   args, ours, real);
    }
}

static void reset(void)
{
    memset(a, 0, sizeof a);
    xerbla_calls = 0;
}

static const char jobs_svd[] = "ASONXa";
static const int sizes[] = {-1, 0, 3, 5};
static const int lds[] = {0, 1, 3, 5};
#define EACH(var, array) \
    for (size_t var##_i = 0; var##_i < sizeof array / sizeof array[0] - (sizeof array[0] == 1); var##_i++) \
        for (int var = 1; var; var = 0) \
            for (__typeof__(array[0]) var##_v = array[var##_i]; var; var = 0)

typedef void gesvd_fn(const char *, const char *, const int *, const int *,
                      void *, const int *, double *, void *, const int *,
                      void *, const int *, void *, const int *, ...);
typedef void gesdd_fn(const char *, const int *, const int *, void *,
                      const int *, double *, void *, const int *, void *,
                      const int *, void *, const int *, ...);

static void test_svd(int complex_version)
{
    const char *gesvd_name = complex_version ? "zgesvd_" : "dgesvd_";
    const char *gesdd_name = complex_version ? "zgesdd_" : "dgesdd_";
    gesvd_fn *gesvd = (gesvd_fn *)real_fn(gesvd_name);
    gesdd_fn *gesdd = (gesdd_fn *)real_fn(gesdd_name);
    if (!gesvd || !gesdd)
        return;
    char args[128];
    for (const char *ju = jobs_svd; *ju; ju++)
    for (const char *jv = jobs_svd; *jv; jv++)
    EACH(m, sizes) EACH(n, sizes) EACH(lda, lds) EACH(ldu, lds) EACH(ldvt, lds) {
        int info = 0;
        char cu = (char)(*ju & ~0x20), cv = (char)(*jv & ~0x20);
        reset();
        if (complex_version)
            gesvd(ju, jv, &m_v, &n_v, a, &lda_v, s, u, &ldu_v, vt, &ldvt_v,
                  work, &lwork, rwork, &info, (size_t)1, (size_t)1);
        else
            gesvd(ju, jv, &m_v, &n_v, a, &lda_v, s, u, &ldu_v, vt, &ldvt_v,
                  work, &lwork, &info, (size_t)1, (size_t)1);
        snprintf(args, sizeof args, "jobu=%c jobvt=%c m=%d n=%d lda=%d ldu=%d ldvt=%d",
                 *ju, *jv, m_v, n_v, lda_v, ldu_v, ldvt_v);
        compare(gesvd_name, gl_check_gesvd(cu, cv, m_v, n_v, lda_v, ldu_v, ldvt_v),
                info, args);
        if (jv != jobs_svd)   /* gesdd has one job character */
            continue;
        snprintf(args, sizeof args, "jobz=%c m=%d n=%d lda=%d ldu=%d ldvt=%d",
                 *ju, m_v, n_v, lda_v, ldu_v, ldvt_v);
        reset();
        if (complex_version)
            gesdd(ju, &m_v, &n_v, a, &lda_v, s, u, &ldu_v, vt, &ldvt_v, work,
                  &lwork, rwork, iwork, &info, (size_t)1);
        else
            gesdd(ju, &m_v, &n_v, a, &lda_v, s, u, &ldu_v, vt, &ldvt_v, work,
                  &lwork, iwork, &info, (size_t)1);
        compare(gesdd_name, gl_check_gesdd(cu, m_v, n_v, lda_v, ldu_v, ldvt_v),
                info, args);
    }
}

static const char jobs_ev[] = "VNXv";
static const char uplos[] = "ULXl";
static const char ranges[] = "AVIXi";

typedef void syev_fn(const char *, const char *, const int *, void *,
                     const int *, double *, void *, const int *, ...);
typedef void syevr_fn(const char *, const char *, const char *, const int *,
                      void *, const int *, const double *, const double *,
                      const int *, const int *, const double *, int *,
                      double *, void *, const int *, ...);

static void test_syev(int complex_version)
{
    static const char *const names[2][4] = {
        {"dsyev_", "dsyev_2stage_", "dsyevd_", "dsyevd_2stage_"},
        {"zheev_", "zheev_2stage_", "zheevd_", "zheevd_2stage_"}};
    char args[128];
    for (int r = 0; r < 4; r++) {
        const char *name = names[complex_version][r];
        syev_fn *fn = (syev_fn *)real_fn(name);
        if (!fn)
            continue;
        int two_stage = r & 1, divide = r >= 2;
        for (const char *jz = jobs_ev; *jz; jz++)
        for (const char *ul = uplos; *ul; ul++)
        EACH(n, sizes) EACH(lda, lds) {
            int info = 0;
            reset();
            if (!divide && !complex_version)
                fn(jz, ul, &n_v, a, &lda_v, s, work, &lwork, &info, (size_t)1, (size_t)1);
            else if (!divide)
                fn(jz, ul, &n_v, a, &lda_v, s, work, &lwork, rwork, &info, (size_t)1, (size_t)1);
            else if (!complex_version)
                fn(jz, ul, &n_v, a, &lda_v, s, work, &lwork, iwork, &liwork, &info,
                   (size_t)1, (size_t)1);
            else
                fn(jz, ul, &n_v, a, &lda_v, s, work, &lwork, rwork, &lrwork, iwork,
                   &liwork, &info, (size_t)1, (size_t)1);
            snprintf(args, sizeof args, "jobz=%c uplo=%c n=%d lda=%d", *jz, *ul,
                     n_v, lda_v);
            compare(name, gl_check_syev(two_stage, (char)(*jz & ~0x20),
                                        (char)(*ul & ~0x20), n_v, lda_v),
                    info, args);
        }
    }
}

static void test_syevr(int complex_version)
{
    static const char *const names[2][4] = {
        {"dsyevr_", "dsyevr_2stage_", "dsyevx_", "dsyevx_2stage_"},
        {"zheevr_", "zheevr_2stage_", "zheevx_", "zheevx_2stage_"}};
    static const double bounds[][2] = {{0.0, 1.0}, {1.0, 1.0}, {2.0, 1.0}};
    static const int indices[] = {-1, 0, 1, 2, 6};
    const double abstol = 0.0;
    char args[160];
    for (int r = 0; r < 4; r++) {
        const char *name = names[complex_version][r];
        syevr_fn *fn = (syevr_fn *)real_fn(name);
        if (!fn)
            continue;
        int two_stage = r & 1, mrrr = r < 2;
        for (const char *jz = jobs_ev; *jz; jz++)
        for (const char *rg = ranges; *rg; rg++)
        for (int ul = 0; ul < 2; ul++)
        EACH(n, sizes) EACH(lda, lds) EACH(ldz, lds)
        for (size_t b = 0; b < 3; b++) EACH(il, indices) EACH(iu, indices) {
            char range = (char)(*rg & ~0x20);
            /* Vary VL/VU only for RANGE='V' and IL/IU only for 'I'. */
            if ((range != 'V' && b) || (range != 'I' && (il_i || iu_i)))
                continue;
            int info = 0, m = 0;
            const char *uplo = ul ? "L" : "x";
            reset();
            const double *vl = &bounds[b][0], *vu = &bounds[b][1];
            if (mrrr && !complex_version)
                fn(jz, rg, uplo, &n_v, a, &lda_v, vl, vu, &il_v, &iu_v, &abstol, &m,
                   s, z, &ldz_v, isuppz, work, &lwork, iwork, &liwork, &info,
                   (size_t)1, (size_t)1, (size_t)1);
            else if (mrrr)
                fn(jz, rg, uplo, &n_v, a, &lda_v, vl, vu, &il_v, &iu_v, &abstol, &m,
                   s, z, &ldz_v, isuppz, work, &lwork, rwork, &lrwork, iwork,
                   &liwork, &info, (size_t)1, (size_t)1, (size_t)1);
            else if (!complex_version)
                fn(jz, rg, uplo, &n_v, a, &lda_v, vl, vu, &il_v, &iu_v, &abstol, &m,
                   s, z, &ldz_v, work, &lwork, iwork, ifail, &info, (size_t)1,
                   (size_t)1, (size_t)1);
            else
                fn(jz, rg, uplo, &n_v, a, &lda_v, vl, vu, &il_v, &iu_v, &abstol, &m,
                   s, z, &ldz_v, work, &lwork, rwork, iwork, ifail, &info,
                   (size_t)1, (size_t)1, (size_t)1);
            snprintf(args, sizeof args,
                     "jobz=%c range=%c uplo=%c n=%d lda=%d ldz=%d vl=%g vu=%g il=%d iu=%d",
                     *jz, *rg, *uplo, n_v, lda_v, ldz_v, *vl, *vu, il_v, iu_v);
            compare(name,
                    gl_check_syevr(two_stage, (char)(*jz & ~0x20), range,
                                   (char)(*uplo & ~0x20), n_v, lda_v,
                                   range == 'V' && *vu <= *vl,
                                   range == 'I' ? il_v : 1,
                                   range == 'I' ? iu_v : 0, ldz_v),
                    info, args);
        }
    }
}

typedef void sytrd_fn(const char *, const int *, void *, const int *, double *,
                      double *, void *, void *, const int *, int *, size_t);
typedef void sytrd2_fn(const char *, const char *, const int *, void *,
                       const int *, double *, double *, void *, void *,
                       const int *, void *, const int *, int *, size_t, size_t);

static void test_sytrd(int complex_version)
{
    const char *name1 = complex_version ? "zhetrd_" : "dsytrd_";
    const char *name2 = complex_version ? "zhetrd_2stage_" : "dsytrd_2stage_";
    sytrd_fn *sytrd = (sytrd_fn *)real_fn(name1);
    sytrd2_fn *sytrd2 = (sytrd2_fn *)real_fn(name2);
    if (!sytrd || !sytrd2)
        return;
    static const char vects[] = "NVXn";
    const int lhous2 = BUF;
    char args[96];
    for (const char *vc = vects; *vc; vc++)
    for (const char *ul = uplos; *ul; ul++)
    EACH(n, sizes) EACH(lda, lds) {
        int info = 0;
        snprintf(args, sizeof args, "vect=%c uplo=%c n=%d lda=%d", *vc, *ul, n_v, lda_v);
        if (vc == vects) {
            reset();
            sytrd(ul, &n_v, a, &lda_v, s, rwork, u, work, &lwork, &info, (size_t)1);
            compare(name1, gl_check_sytrd((char)(*ul & ~0x20), n_v, lda_v), info, args);
        }
        reset();
        sytrd2(vc, ul, &n_v, a, &lda_v, s, rwork, u, vt, &lhous2, work, &lwork,
               &info, (size_t)1, (size_t)1);
        compare(name2, gl_check_sytrd_2stage((char)(*vc & ~0x20), (char)(*ul & ~0x20),
                                             n_v, lda_v),
                info, args);
    }
}

typedef void gbbrd_fn(const char *, const int *, const int *, const int *,
                      const int *, const int *, void *, const int *, double *,
                      double *, void *, const int *, void *, const int *,
                      void *, const int *, void *, ...);

static void test_gbbrd(int complex_version)
{
    const char *name = complex_version ? "zgbbrd_" : "dgbbrd_";
    gbbrd_fn *gbbrd = (gbbrd_fn *)real_fn(name);
    if (!gbbrd)
        return;
    static const char vects[] = "NQPBXq";
    static const int small[] = {-1, 0, 2};
    char args[160];
    for (const char *vc = vects; *vc; vc++)
    EACH(m, sizes) EACH(n, sizes) EACH(ncc, small) EACH(kl, small) EACH(ku, small)
    EACH(ldab, lds) EACH(ldq, lds) EACH(ldpt, lds) EACH(ldc, lds) {
        int info = 0;
        reset();
        if (complex_version)
            gbbrd(vc, &m_v, &n_v, &ncc_v, &kl_v, &ku_v, a, &ldab_v, s, rwork, q,
                  &ldq_v, u, &ldpt_v, vt, &ldc_v, work, rwork + BUF, &info, (size_t)1);
        else
            gbbrd(vc, &m_v, &n_v, &ncc_v, &kl_v, &ku_v, a, &ldab_v, s, rwork, q,
                  &ldq_v, u, &ldpt_v, vt, &ldc_v, work, &info, (size_t)1);
        snprintf(args, sizeof args,
                 "vect=%c m=%d n=%d ncc=%d kl=%d ku=%d ldab=%d ldq=%d ldpt=%d ldc=%d",
                 *vc, m_v, n_v, ncc_v, kl_v, ku_v, ldab_v, ldq_v, ldpt_v, ldc_v);
        compare(name, gl_check_gbbrd((char)(*vc & ~0x20), m_v, n_v, ncc_v, kl_v,
                                     ku_v, ldab_v, ldq_v, ldpt_v, ldc_v),
                info, args);
    }
}

typedef void sbtrd_fn(const char *, const char *, const int *, const int *,
                      void *, const int *, double *, double *, void *,
                      const int *, void *, int *, size_t, size_t);
typedef void sbev_fn(const char *, const char *, const int *, const int *,
                     void *, const int *, double *, void *, const int *,
                     void *, ...);

static void test_band(int complex_version)
{
    const char *names[3] = {complex_version ? "zhbtrd_" : "dsbtrd_",
                            complex_version ? "zhbev_" : "dsbev_",
                            complex_version ? "zhbevd_" : "dsbevd_"};
    sbtrd_fn *sbtrd = (sbtrd_fn *)real_fn(names[0]);
    sbev_fn *sbev = (sbev_fn *)real_fn(names[1]);
    sbev_fn *sbevd = (sbev_fn *)real_fn(names[2]);
    if (!sbtrd || !sbev || !sbevd)
        return;
    static const char vects[] = "NVUXu";
    static const int kds[] = {-1, 0, 1, 2};
    char args[128];
    for (const char *vc = vects; *vc; vc++)
    for (const char *ul = uplos; *ul; ul++)
    EACH(n, sizes) EACH(kd, kds) EACH(ldab, lds) EACH(ldq, lds) {
        int info = 0;
        char v = (char)(*vc & ~0x20), up = (char)(*ul & ~0x20);
        snprintf(args, sizeof args, "vect/jobz=%c uplo=%c n=%d kd=%d ldab=%d ldq/ldz=%d",
                 *vc, *ul, n_v, kd_v, ldab_v, ldq_v);
        reset();
        sbtrd(vc, ul, &n_v, &kd_v, a, &ldab_v, s, rwork, q, &ldq_v, work, &info,
              (size_t)1, (size_t)1);
        compare(names[0], gl_check_sbtrd(v, up, n_v, kd_v, ldab_v,
                                         (v == 'V' || v == 'U') ? ldq_v : 0),
                info, args);
        if (v == 'U')   /* not a JOBZ value: covered by 'X' */
            continue;
        reset();
        if (complex_version)
            sbev(vc, ul, &n_v, &kd_v, a, &ldab_v, s, z, &ldq_v, work, rwork, &info,
                 (size_t)1, (size_t)1);
        else
            sbev(vc, ul, &n_v, &kd_v, a, &ldab_v, s, z, &ldq_v, work, &info,
                 (size_t)1, (size_t)1);
        compare(names[1], gl_check_sbev(v, up, n_v, kd_v, ldab_v, ldq_v), info, args);
        reset();
        if (complex_version)
            sbevd(vc, ul, &n_v, &kd_v, a, &ldab_v, s, z, &ldq_v, work, &lwork, rwork,
                  &lrwork, iwork, &liwork, &info, (size_t)1, (size_t)1);
        else
            sbevd(vc, ul, &n_v, &kd_v, a, &ldab_v, s, z, &ldq_v, work, &lwork, iwork,
                  &liwork, &info, (size_t)1, (size_t)1);
        compare(names[2], gl_check_sbev(v, up, n_v, kd_v, ldab_v, ldq_v), info, args);
    }
}

int main(void)
{
    lapack = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lapack) {
        printf("FAIL unit/argcheck: cannot open liblapack.so.3: %s\n", dlerror());
        return 0;
    }
    for (int cplx = 0; cplx < 2; cplx++) {
        const char *p = cplx ? "z" : "d";
        struct { const char *name; void (*run)(int); } groups[] = {
            {"svd", test_svd},     {"syev", test_syev},   {"syevr", test_syevr},
            {"sytrd", test_sytrd}, {"gbbrd", test_gbbrd}, {"band", test_band},
        };
        for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
            int before = failures, checks_before = checks;
            groups[g].run(cplx);
            if (failures == before)
                printf("PASS unit/argcheck/%s%s (%d argument combinations)\n", p,
                       groups[g].name, checks - checks_before);
            else
                printf("FAIL unit/argcheck/%s%s: %d mismatches\n", p,
                       groups[g].name, failures - before);
        }
    }
    return 0;
}
