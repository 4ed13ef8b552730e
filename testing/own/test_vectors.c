/*
 * test_vectors: singular vectors and eigenvectors of our path, judged with
 * LAPACK's test ratios in ulp units (dchkbd/ddrvbd, ddrvst, dchksb, dchkbb
 * style), on LAPACK's matrix types, at sizes around our tile sizes.
 *
 * Every call goes through the symbol as this program binds it (ours, when
 * preloaded) and through the real LAPACK (dlopen, testutil.h) on copies of
 * the same input. Per call:
 *   - INFO equal to the real one (0 here), no xerbla_ call, guard zones,
 *     padding rows and input scalars untouched (tu_check_integrity);
 *   - GPULAPACK_LOG: exactly one well-formed line for the routine and none
 *     for others, with the call's INFO; with GPULAPACK_TEST_EXPECT_PATH=host
 *     its path= must be host (min(m,n) >= 2 / n >= 2: every case here);
 *   - the ratios below, each < GPULAPACK_TEST_THRESH (default 30). Where
 *     ours fails a ratio, the same ratio is computed for the real LAPACK's
 *     outputs; if that fails too, the case is noted (# note), not failed, as
 *     in testutil.h's ratio mode. Structural errors always fail.
 * Ratios (1-norms, computed in double / double complex with the linked
 * BLAS, the test matrix scaled by a power of two near its norm so that the
 * overflow/underflow types neither overflow nor underflow in the check;
 * ulp = FLT_EPSILON / DBL_EPSILON, anorm = max(|A|_1, underflow)):
 *   ?gesvd (all 15 JOBU/JOBVT pairs), ?gesdd (A/S/O/N):
 *     resid  |A - U S VT| / (anorm max(m,n) ulp)     (U and VT both there)
 *     orthU  |I - U^H U| / (m ulp);  orthVT |I - VT VT^H| / (n ulp)
 *     U only (VT only likewise with A^H): proj |A - U1 U1^H A| / (anorm
 *     max(m,n) ulp), U1 = U(:,1:min(m,n)); rownorm max_i | |U1(:,i)^H A|_2 -
 *     S(i) | / (anorm max(m,n) ulp); gram |U1^H A A^H U1 - S^2| / (anorm^2
 *     max(m,n) ulp)
 *     S >= 0 and descending (structural); S-vs-lapack max_i |S(i) -
 *     S_lapack(i)| / (max(m,n) ulp max(S_lapack(1), underflow))
 *   ?syev, ?syevd, ?syevr, ?syevx (RANGE A / I / V), ?sbev, ?sbevd (KD 1, 5,
 *   33), JOBZ='V' (?heev* for c/z):
 *     full spectrum: resid |A - Z W Z^H| / (anorm n ulp), orthZ |I - Z^H Z|
 *     / (n ulp); subsets: ZtAZ |Z^H A Z - W| / (anorm n ulp) (dsyt22),
 *     AZ-ZW |A Z - Z W| / (anorm n ulp), orthZ; W ascending (structural),
 *     M equal to the real M (structural), W-vs-lapack max_i |W(i) -
 *     W_lapack(i)| / (n ulp anorm); ?syevx: IFAIL(1:M) = 0 (?syevr's
 *     ISUPPZ is not checked: the real ?syevr leaves some of it unset)
 *   ?sytrd (LAPACK format): Q formed by the REAL LAPACK's ?orgtr/?ungtr
 *     (same precision) from our A and TAU; resid |A - Q T Q^H| / (anorm n
 *     ulp), orthQ |I - Q^H Q| / (n ulp)
 *   ?sbtrd VECT='V': the same with our Q; VECT='U' with Q0 Haar on entry:
 *     resid |Q0 A Q0^H - Q T Q^H| / (anorm n ulp), orthQ
 *   ?gbbrd (VECT Q / P / B, NCC > 0; B upper bidiagonal, m x n):
 *     'B': resid |A - Q B PT| / (anorm max(m,n) ulp); orthQ / (m ulp),
 *     orthPT / (n ulp); C: |Q^H C - C_out| / (max(|C|_1, underflow) m ulp);
 *     'Q': orthQ, C, rownorm | |Q(:,i)^H A| - |B(i,:)| | and gram |Q^H A A^H
 *     Q - B B^H| / (anorm^2 max(m,n) ulp), sv(B) vs sv(A); 'P': orthPT,
 *     colnorm, gram with A^H, |C_out^H C_out - C^H C| / (|C|^2 m ulp), sv(B)
 *     vs sv(A)
 *
 * Matrix types (LAPACK's testing, ddrvst / dchkbd / ddrvbd; eigenvalue
 * signs random, ulp of the test precision):
 *   zero, identity, diagonal with arithmetic (1..ulp) / geometric (1..ulp)
 *   values, dense U D V^H (Q D Q^H) with arithmetic, geometric, clustered
 *   (1, ulp, .., ulp) and (1, .., 1, ulp) spectra (Haar U, V, Q), the
 *   arithmetic one times sqrt(overflow) ulp / max(m,n) and sqrt(underflow)
 *   max(m,n) / ulp, random entries in (-1,1) and the same two scalings,
 *   rank-1 and rank-1 + identity, and ddrvbd's near-overflow (largest
 *   value overflow * ulp) and near-underflow (underflow / ulp) with
 *   condition min(m,n). Band routines get the band of the same matrices
 *   (?sbev, ?sbevd, ?sbtrd: KD 1, 5, 33; ?gbbrd: several KL, KU).
 *   Generated in double / double complex (Haar factors from the real
 *   ?geqrf/?orgqr of Gaussian matrices), rounded to the test precision.
 *
 * Sizes n = 2, 3, 5, 17, 31, 32, 33, 47, 63, 64, 65, 96, 99, 127, 129, 200
 * (default band 32: one panel less / exactly / one more, two, three ...).
 * SVD shapes per size: n x n, and in rotation over the types 2n x n,
 * n/3 x n, n x n/3 (m = 3n), n x 2n, and the QR-first boundary
 * b = n + n/2 + n/10 (~1.6n): b x n, (b - 1) x n, n x b. Options, UPLO,
 * ranges, KD, KL/KU, padded leading dimensions and LWORK (documented
 * minimum or the real routine's optimum) rotate with type and size.
 * At n >= 127 every other type is run (alternating with the size).
 *
 * One check per routine, precision and size: "vectors/<routine>/n=<n>";
 * a FAIL names the first failing case in full (routine, options, shape,
 * leading dimensions, workspace, type, matrix seed), and every failing case
 * gets a "# fail" line. The last lines give the worst ratio of each
 * measure per routine.
 *
 * Environment: GPULAPACK_DEVICE=host and GPULAPACK_MIN_N=0 are set unless
 * already set. GPULAPACK_BAND (read by the library once, at its first call)
 * is shown in the test name: run_checks.sh runs this program again with
 * GPULAPACK_BAND=4 and 8 (and GPULAPACK_TEST_VECTORS_EVERY=4); so is
 * GPULAPACK_METHOD (run on OpenCL with one-stage for the ?syev family).
 *   GPULAPACK_TEST_EXPECT_PATH=host   every call must log path=host
 *   GPULAPACK_TEST_VECTORS_EVERY=k    only every k-th (size, type) pair
 *   GPULAPACK_TEST_VECTORS_OFFSET=r   ... the r-th of each k (0 <= r < k,
 *                                     default 0): two runs of every 16th
 *                                     pair, offsets 0 and 8, run every 8th
 *   GPULAPACK_TEST_VECTORS_PRECS=dz   precisions (default sdcz)
 *   GPULAPACK_TEST_VECTORS_SIZES=64,65   base sizes (from the list above)
 *   GPULAPACK_TEST_VECTORS_TYPES=geom,rank1   type names (see tname[])
 *   GPULAPACK_TEST_VECTORS_ROUTINES=gesvd,syevr   families (s/d names)
 * The matrix of a case depends only on GPULAPACK_TEST_SEED, the precision,
 * the type and the shape, and the options only on the size and type, so
 * the filters reproduce a failing case exactly.
 */
#include "testutil.h"

void zgemm_(const char *ta, const char *tb, const tu_int *m, const tu_int *n, const tu_int *k,
            const tu_z *alpha, const tu_z *a, const tu_int *lda, const tu_z *b,
            const tu_int *ldb, const tu_z *beta, tu_z *c, const tu_int *ldc, size_t,
            size_t);

typedef void (*geqrf_t)(const tu_int *, const tu_int *, void *, const tu_int *, void *, void *,
                        const tu_int *, tu_int *);
typedef void (*orgqr_t)(const tu_int *, const tu_int *, const tu_int *, void *, const tu_int *,
                        const void *, void *, const tu_int *, tu_int *);
typedef void (*orgtr_t)(const char *, const tu_int *, void *, const tu_int *, const void *,
                        void *, const tu_int *, tu_int *, size_t);

/* ------------------------------------------------------------------------ */
/* matrix types                                                             */
/* ------------------------------------------------------------------------ */

enum {
    T_ZERO, T_IDENT, T_DARITH, T_DGEOM, T_ARITH, T_GEOM, T_CLUS1, T_CLUS2, T_AHUGE, T_ATINY,
    T_RAND, T_RHUGE, T_RTINY, T_RANK1, T_RANK1I, T_OVFL, T_UNFL, NT
};
static const char *const tname[NT] = {
    "zero", "identity", "diag-arith", "diag-geom", "arith", "geom", "clust1", "clust2",
    "arith*rtovfl", "arith*rtunfl", "random", "random*rtovfl", "random*rtunfl", "rank1",
    "rank1+I", "ovfl", "unfl"};

static const int sizes[] = {2, 3, 5, 17, 31, 32, 33, 47, 63, 64, 65, 96, 99, 127, 129, 200};
#define NSIZES (int)(sizeof sizes / sizeof *sizes)
/* from this size on, every other type */
#define HALF_FROM 127

static const char *expect_path;
static int every = 1, offset = 0;
static char precs[8] = "sdcz";
static int size_on[NSIZES], type_on[NT];
static char routines_filter[256];
static char band_env[32];
static double t_start;

static uint64_t smix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* seed of one matrix: depends on the base seed, kind, precision, type, shape */
static uint64_t mseed(int kind, char p, int t, int m, int n, int extra)
{
    uint64_t h = smix(tu_seed0 ^ 0x7665637473ull);
    h = smix(h ^ (uint64_t)kind);
    h = smix(h ^ (uint64_t)(unsigned char)p);
    h = smix(h ^ (uint64_t)t);
    h = smix(h ^ ((uint64_t)m << 20) ^ (uint64_t)n);
    h = smix(h ^ (uint64_t)extra);
    return h ? h : 1;
}

static double gauss(uint64_t *s)
{
    double u1, u2;
    do
        u1 = 0.5 * (tu_rand(s) + 1.0);
    while (u1 <= 0.0);
    u2 = 0.5 * (tu_rand(s) + 1.0);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static double unfl_of(char p) { return tu_single(p) ? FLT_MIN : DBL_MIN; }
static double ovfl_of(char p) { return tu_single(p) ? FLT_MAX : DBL_MAX; }

/* m x k with orthonormal columns, Haar distributed: QR of a Gaussian
 * matrix (real ?geqrf/?orgqr in double), columns times the phases of R's
 * diagonal. Returned as double complex (real when !cx). */
static tu_z *haar(int cx, int m, int k, uint64_t *s)
{
    size_t es = cx ? sizeof(tu_z) : sizeof(double), i, cnt = (size_t)m * k;
    tu_z *out = tu_zalloc(cnt);
    void *Q, *tau, *work;
    tu_int M = m, K = k, lwork = -1, lw2 = -1, info = 0;
    tu_z wq = 0, wq2 = 0;
    tu_z *ph;
    int j;
    geqrf_t geqrf = (geqrf_t)tu_real(cx ? "zgeqrf_" : "dgeqrf_");
    orgqr_t orgqr = (orgqr_t)tu_real(cx ? "zungqr_" : "dorgqr_");
    if (m <= 0 || k <= 0)
        return out;
    Q = malloc(es * cnt);
    tau = malloc(es * (size_t)k);
    for (i = 0; i < cnt; i++) {
        if (cx)
            ((tu_z *)Q)[i] = (gauss(s) + I * gauss(s)) * M_SQRT1_2;
        else
            ((double *)Q)[i] = gauss(s);
    }
    geqrf(&M, &K, Q, &M, tau, &wq, &lwork, &info);
    orgqr(&M, &K, &K, Q, &M, tau, &wq2, &lw2, &info);
    lwork = (tu_int)fmax(fmax(creal(wq), creal(wq2)), 1.0);
    work = malloc(es * (size_t)lwork);
    geqrf(&M, &K, Q, &M, tau, work, &lwork, &info);
    ph = malloc(sizeof(tu_z) * (size_t)k);
    for (j = 0; j < k; j++) {
        size_t d = (size_t)j + (size_t)j * m;
        tu_z r = cx ? ((tu_z *)Q)[d] : ((double *)Q)[d];
        ph[j] = cabs(r) > 0 ? r / cabs(r) : 1.0;
    }
    orgqr(&M, &K, &K, Q, &M, tau, work, &lwork, &info);
    for (j = 0; j < k; j++)
        for (i = 0; i < (size_t)m; i++) {
            size_t x = i + (size_t)j * m;
            out[x] = (cx ? ((tu_z *)Q)[x] : ((double *)Q)[x]) * (cx ? ph[j] : creal(ph[j]));
        }
    free(ph);
    free(work);
    free(tau);
    free(Q);
    return out;
}

/* LAPACK's dlatm1 modes on k values, largest 1: 1 (1, 1/c, .., 1/c),
 * 2 (1, .., 1, 1/c), 3 geometric, 4 arithmetic; c the condition number */
static void mode_values(int mode, double cond, int k, double *d)
{
    int i;
    for (i = 0; i < k; i++) {
        double f = k > 1 ? (double)i / (k - 1) : 0.0;
        switch (mode) {
        case 1: d[i] = i == 0 ? 1.0 : 1.0 / cond; break;
        case 2: d[i] = i == k - 1 && k > 1 ? 1.0 / cond : 1.0; break;
        case 3: d[i] = pow(cond, -f); break;
        default: d[i] = 1.0 - f * (1.0 - 1.0 / cond); break;
        }
    }
}

/* the values and scale (largest value / entry) of a spectral type */
static void type_spectrum(int t, char p, int m, int n, double *d, double *scale)
{
    int mn = tu_imin(m, n), mx = tu_imax(1, tu_imax(m, n));
    double ulp = tu_ulp(p), unfl = unfl_of(p), ovfl = ovfl_of(p);
    *scale = 1.0;
    switch (t) {
    case T_DARITH: case T_ARITH: mode_values(4, 1.0 / ulp, mn, d); break;
    case T_DGEOM: case T_GEOM: mode_values(3, 1.0 / ulp, mn, d); break;
    case T_CLUS1: mode_values(1, 1.0 / ulp, mn, d); break;
    case T_CLUS2: mode_values(2, 1.0 / ulp, mn, d); break;
    case T_AHUGE: mode_values(4, 1.0 / ulp, mn, d); *scale = sqrt(ovfl) * ulp / mx; break;
    case T_ATINY: mode_values(4, 1.0 / ulp, mn, d); *scale = sqrt(unfl) * mx / ulp; break;
    case T_OVFL: mode_values(4, tu_imax(mn, 1), mn, d); *scale = ovfl * ulp; break;
    case T_UNFL: mode_values(4, tu_imax(mn, 1), mn, d); *scale = unfl / ulp; break;
    case T_RHUGE: *scale = sqrt(ovfl) * ulp / mx; break;
    case T_RTINY: *scale = sqrt(unfl) * mx / ulp; break;
    default: break;
    }
}

static int is_dense_spectral(int t)
{
    return t == T_ARITH || t == T_GEOM || t == T_CLUS1 || t == T_CLUS2 || t == T_AHUGE ||
           t == T_ATINY || t == T_OVFL || t == T_UNFL;
}

/* unit vector of k uniform entries */
static tu_z *unit_vec(int cx, int k, uint64_t *s)
{
    tu_z *x = tu_zalloc((size_t)k);
    double nrm = 0;
    int i;
    for (i = 0; i < k; i++) {
        x[i] = tu_rand(s) + (cx ? I * tu_rand(s) : 0);
        nrm += creal(x[i] * conj(x[i]));
    }
    nrm = sqrt(nrm);
    for (i = 0; i < k && nrm > 0; i++)
        x[i] /= nrm;
    return x;
}

static void zmm(char ta, char tb, int m, int n, int k, tu_z alpha, const tu_z *A, int lda,
                const tu_z *B, int ldb, tu_z beta, tu_z *C, int ldc)
{
    tu_int M = m, N = n, K = k, LA = tu_imax(1, lda), LB = tu_imax(1, ldb),
           LC = tu_imax(1, ldc);
    if (m <= 0 || n <= 0)
        return;
    zgemm_(&ta, &tb, &M, &N, &K, &alpha, A, &LA, B, &LB, &beta, C, &LC, 1, 1);
}

/* General m x n test matrix of type t (double complex; real when !cx). */
static tu_z *gen_general(int t, char p, int m, int n, uint64_t seed)
{
    int cx = tu_cplx(p), mn = tu_imin(m, n), i, j;
    uint64_t s = seed;
    tu_z *A = tu_zalloc((size_t)m * n);
    double *d = malloc(sizeof(double) * (size_t)tu_imax(1, mn)), scale;
    type_spectrum(t, p, m, n, d, &scale);
    switch (t) {
    case T_ZERO: break;
    case T_IDENT:
        for (i = 0; i < mn; i++) A[i + (size_t)i * m] = 1.0;
        break;
    case T_DARITH: case T_DGEOM:
        for (i = 0; i < mn; i++) {
            double ph = M_PI * (tu_rand(&s) + 1.0);
            A[i + (size_t)i * m] = d[i] * (cx ? cexp(I * ph) : (tu_rand(&s) < 0 ? -1.0 : 1.0));
        }
        break;
    case T_RAND: case T_RHUGE: case T_RTINY:
        for (j = 0; j < n; j++)
            for (i = 0; i < m; i++)
                A[i + (size_t)j * m] = scale * (tu_rand(&s) + (cx ? I * tu_rand(&s) : 0));
        break;
    case T_RANK1: case T_RANK1I: {
        tu_z *x = unit_vec(cx, m, &s), *y = unit_vec(cx, n, &s);
        double f = t == T_RANK1 ? 1.0 : 3.0;
        for (j = 0; j < n; j++)
            for (i = 0; i < m; i++)
                A[i + (size_t)j * m] = f * x[i] * conj(y[j]) + (t == T_RANK1I && i == j ? 1.0 : 0.0);
        free(x);
        free(y);
        break;
    }
    default: { /* U diag(d) V^H */
        tu_z *U = haar(cx, m, mn, &s), *V = haar(cx, n, mn, &s);
        for (j = 0; j < mn; j++)
            for (i = 0; i < m; i++)
                U[i + (size_t)j * m] *= d[j] * scale;
        zmm('N', 'C', m, n, mn, 1.0, U, m, V, n, 0.0, A, m);
        free(U);
        free(V);
        break;
    }
    }
    if (!cx)
        for (i = 0; i < m * n; i++)
            A[i] = creal(A[i]);
    free(d);
    return A;
}

/* Hermitian (symmetric) n x n test matrix of type t: eigenvalues with
 * random signs; exactly Hermitian with a real diagonal. */
static tu_z *gen_herm(int t, char p, int n, uint64_t seed)
{
    int cx = tu_cplx(p), i, j;
    uint64_t s = seed;
    tu_z *A = tu_zalloc((size_t)n * n);
    double *d = malloc(sizeof(double) * (size_t)tu_imax(1, n)), scale;
    type_spectrum(t, p, n, n, d, &scale);
    for (i = 0; i < n; i++)
        if (tu_rand(&s) < 0)
            d[i] = -d[i];
    switch (t) {
    case T_ZERO: break;
    case T_IDENT:
        for (i = 0; i < n; i++) A[i + (size_t)i * n] = 1.0;
        break;
    case T_DARITH: case T_DGEOM:
        for (i = 0; i < n; i++) A[i + (size_t)i * n] = d[i];
        break;
    case T_RAND: case T_RHUGE: case T_RTINY:
        for (j = 0; j < n; j++)
            for (i = 0; i <= j; i++) {
                tu_z v = scale * (tu_rand(&s) + (cx && i != j ? I * tu_rand(&s) : 0));
                A[i + (size_t)j * n] = v;
                A[j + (size_t)i * n] = conj(v);
            }
        break;
    case T_RANK1: case T_RANK1I: {
        tu_z *x = unit_vec(cx, n, &s);
        double f = (t == T_RANK1 ? 1.0 : 3.0) * (tu_rand(&s) < 0 ? -1.0 : 1.0);
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++)
                A[i + (size_t)j * n] = f * x[i] * conj(x[j]) + (t == T_RANK1I && i == j ? 1.0 : 0.0);
        free(x);
        break;
    }
    default: { /* Q diag(d) Q^H */
        tu_z *Q = haar(cx, n, n, &s), *W = tu_zalloc((size_t)n * n);
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++)
                W[i + (size_t)j * n] = Q[i + (size_t)j * n] * d[j] * scale;
        zmm('N', 'C', n, n, n, 1.0, W, n, Q, n, 0.0, A, n);
        free(Q);
        free(W);
        break;
    }
    }
    /* exact Hermitian-ness, real diagonal */
    for (j = 0; j < n; j++)
        for (i = j; i < n; i++) {
            tu_z v = 0.5 * (A[i + (size_t)j * n] + conj(A[j + (size_t)i * n]));
            if (i == j || !cx)
                v = creal(v);
            A[i + (size_t)j * n] = v;
            A[j + (size_t)i * n] = conj(v);
        }
    free(d);
    return A;
}

/* ------------------------------------------------------------------------ */
/* putting a matrix into a case                                             */
/* ------------------------------------------------------------------------ */

/* rows x cols of G (ld gl) into the case's A buffer (ld lda), rounded */
static void put_dense(tu_case *c, const tu_z *G, int gl, int rows, int cols)
{
    tu_buf *B = &c->b[B_A];
    int i, j;
    for (j = 0; j < cols; j++)
        for (i = 0; i < rows; i++)
            tu_put(c->p, B->init, (size_t)i + (size_t)j * B->ld, G[i + (size_t)j * gl]);
}

/* symmetric band storage (kd, uplo) of the n x n Hermitian G */
static void put_sband(tu_case *c, const tu_z *G, int n)
{
    tu_buf *B = &c->b[B_A];
    int kd = c->k, up = tu_up(tu_uplo(c)) != 'L', i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i <= kd; i++) {
            int ai = up ? j - kd + i : j + i;
            tu_z v = ai < 0 || ai >= n ? 0.0 : G[ai + (size_t)j * n];
            if (ai == j)
                v = creal(v);
            tu_put(c->p, B->init, (size_t)i + (size_t)j * B->ld, v);
        }
}

/* general band storage (kl, ku) of the m x n G */
static void put_gband(tu_case *c, const tu_z *G, int m, int n)
{
    tu_buf *B = &c->b[B_A];
    int kl = c->k, ku = c->ku, i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i < kl + ku + 1; i++) {
            int ai = i + j - ku;
            tu_put(c->p, B->init, (size_t)i + (size_t)j * B->ld,
                   ai < 0 || ai >= m ? 0.0 : G[ai + (size_t)j * m]);
        }
}

/* ------------------------------------------------------------------------ */
/* ratios                                                                   */
/* ------------------------------------------------------------------------ */

#define MAXR 12
typedef struct {
    int n;
    const char *name[MAXR];
    double v[MAXR];
    char err[400];   /* structural failure */
    char detail[200]; /* where the values differ most */
} rset;

static void radd(rset *R, const char *name, double v)
{
    if (R->n < MAXR) {
        R->name[R->n] = name;
        R->v[R->n] = isnan(v) ? INFINITY : v;
        R->n++;
    }
}

static int rfail(const rset *R, int i) { return !(R->v[i] < tu_thresh); }

static int rset_ok(const rset *R)
{
    int i;
    if (R->err[0])
        return 0;
    for (i = 0; i < R->n; i++)
        if (rfail(R, i))
            return 0;
    return 1;
}

static double rget(const rset *R, const char *name)
{
    int i;
    for (i = 0; i < R->n; i++)
        if (strcmp(R->name[i], name) == 0)
            return R->v[i];
    return -1;
}

static void rfmt(const rset *R, char *out, size_t L)
{
    int i, k = 0;
    out[0] = 0;
    for (i = 0; i < R->n && (size_t)k < L; i++)
        k += snprintf(out + k, L - k, "%s%s=%.3g%s", i ? " " : "", R->name[i], R->v[i],
                      rfail(R, i) ? "(!)" : "");
    if (R->detail[0] && (size_t)k < L)
        k += snprintf(out + k, L - k, " (%s)", R->detail);
    if (R->err[0] && (size_t)k < L)
        snprintf(out + k, L - k, "%s%s", k ? "; " : "", R->err);
}

static double norm1(int m, int n, const tu_z *A, int ld)
{
    double mx = 0;
    int i, j;
    for (j = 0; j < n; j++) {
        double s = 0;
        for (i = 0; i < m; i++)
            s += cabs(A[i + (size_t)j * ld]);
        if (s > mx || isnan(s))
            mx = s;
    }
    return mx;
}

/* power of two near x (> 0), for exact scaling */
static double pow2_near(double x)
{
    int e;
    if (!(x > 0) || !isfinite(x))
        return 1.0;
    frexp(x, &e);
    return ldexp(1.0, e - 1);
}

/* |I - Q^H Q| (cols orthonormal) or |I - Q Q^H| (rows), Q rows x cols, ld */
static double orth(int rows, int cols, const tu_z *Q, int ld, int byrows)
{
    int k = byrows ? rows : cols, i;
    tu_z *G = tu_zalloc((size_t)k * k);
    double r;
    if (k == 0) {
        free(G);
        return 0;
    }
    if (byrows)
        zmm('N', 'C', rows, rows, cols, 1.0, Q, ld, Q, ld, 0.0, G, k);
    else
        zmm('C', 'N', cols, cols, rows, 1.0, Q, ld, Q, ld, 0.0, G, k);
    for (i = 0; i < k; i++)
        G[i + (size_t)i * k] -= 1.0;
    r = norm1(k, k, G, k);
    free(G);
    return r;
}

static void scale_mat(tu_z *A, size_t cnt, double f)
{
    size_t i;
    for (i = 0; i < cnt; i++)
        A[i] *= f;
}

static double *dvec_s(char rt, const void *p, int k, double f)
{
    double *v = malloc(sizeof(double) * (size_t)tu_imax(1, k));
    int i;
    for (i = 0; i < k; i++)
        v[i] = creal(tu_get(rt, p, i)) * f;
    return v;
}

/* U only (or VT only through A^H): |A - U1 U1^H A|, row norms of U1^H A
 * against s, |U1^H A A^H U1 - S^2|, normalized with the 1-norm of the matrix
 * they are taken of. As (m x n, scaled), U1 m x k (ld lu). */
static void one_sided(rset *R, int m, int n, const tu_z *As, double unfl, const tu_z *U1,
                      int lu, int k, const double *s, int mx, double ulp)
{
    double an = fmax(norm1(m, n, As, m), unfl);
    tu_z *G = tu_zalloc((size_t)k * n), *P = tu_zalloc((size_t)m * n), *GG = tu_zalloc((size_t)k * k);
    double worst = 0;
    int i, j;
    zmm('C', 'N', k, n, m, 1.0, U1, lu, As, m, 0.0, G, k);
    memcpy(P, As, sizeof(tu_z) * (size_t)m * n);
    zmm('N', 'N', m, n, k, -1.0, U1, lu, G, k, 1.0, P, m);
    radd(R, "proj", norm1(m, n, P, m) / an / (mx * ulp));
    for (i = 0; i < k; i++) {
        double r = 0;
        for (j = 0; j < n; j++)
            r += creal(G[i + (size_t)j * k] * conj(G[i + (size_t)j * k]));
        worst = fmax(worst, fabs(sqrt(r) - s[i]));
    }
    radd(R, "rownorm", worst / an / (mx * ulp));
    zmm('N', 'C', k, k, n, 1.0, G, k, G, k, 0.0, GG, k);
    for (i = 0; i < k; i++)
        GG[i + (size_t)i * k] -= s[i] * s[i];
    radd(R, "gram", norm1(k, k, GG, k) / an / an / (mx * ulp));
    free(G);
    free(P);
    free(GG);
}

/* the m x n matrix as n x m, A^H */
static tu_z *ctrans(int m, int n, const tu_z *A, int ld)
{
    tu_z *T = tu_zalloc((size_t)m * n);
    int i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i < m; i++)
            T[j + (size_t)i * n] = conj(A[i + (size_t)j * ld]);
    return T;
}

/* SVD: outputs of x, values of the real LAPACK sref, input A (m x n) */
static void svd_ratios(const tu_case *c, const tu_res *x, const double *sref, const tu_z *A,
                       rset *R)
{
    int m = c->m, n = c->n, mn = tu_imin(m, n), mx = tu_imax(m, n), i, j, ur = 0, uc = 0, vr = 0,
        vc = 0;
    char p = c->p, rt = tu_rtype(p), j0 = (char)tu_up(c->o[0]), j1 = (char)tu_up(c->o[1]);
    double ulp = tu_ulp(p), unfl = unfl_of(p), a1 = norm1(m, n, A, m), f = 1.0 / pow2_near(a1),
           an, worst = 0, sr0;
    tu_z *As = tu_zalloc((size_t)m * n), *U = NULL, *VT = NULL;
    double *s = dvec_s(rt, x->c.ptr[B_W], mn, 1.0), *ss;
    memcpy(As, A, sizeof(tu_z) * (size_t)m * n);
    scale_mat(As, (size_t)m * n, f);
    an = fmax(a1 * f, unfl);
    ss = dvec_s(rt, x->c.ptr[B_W], mn, f);
    for (i = 0; i < mn; i++) {
        if (!(s[i] >= 0) && !R->err[0])
            snprintf(R->err, sizeof R->err, "S(%d)=%g not >= 0", i + 1, s[i]);
        if (i > 0 && s[i] > s[i - 1] && !R->err[0])
            snprintf(R->err, sizeof R->err, "S not descending at %d: %.17g > %.17g", i + 1, s[i],
                     s[i - 1]);
    }
    sr0 = mn > 0 ? fmax(sref[0], unfl) : 1.0;
    for (i = 0; i < mn; i++) {
        double q = fabs(s[i] - sref[i]) / (mx * ulp * sr0);
        if (q > worst || isnan(q)) {
            worst = isnan(q) ? INFINITY : q;
            snprintf(R->detail, sizeof R->detail, "S(%d) %.17g vs %.17g", i + 1, s[i], sref[i]);
        }
    }
    radd(R, "S-vs-lapack", worst);
    if (c->fam == F_GESVD) {
        if (j0 == 'A' || j0 == 'S') { ur = m; uc = j0 == 'A' ? m : mn; U = tu_zload(p, x->c.ptr[B_U], c->ldu, ur, uc); }
        else if (j0 == 'O') { ur = m; uc = mn; U = tu_zload(p, x->c.ptr[B_A], c->lda, ur, uc); }
        if (j1 == 'A' || j1 == 'S') { vr = j1 == 'A' ? n : mn; vc = n; VT = tu_zload(p, x->c.ptr[B_VT], c->ldvt, vr, vc); }
        else if (j1 == 'O') { vr = mn; vc = n; VT = tu_zload(p, x->c.ptr[B_A], c->lda, vr, vc); }
    } else if (j0 != 'N') {
        ur = m; vc = n;
        if (j0 == 'A') { uc = m; vr = n; }
        else { uc = mn; vr = mn; }
        if (j0 == 'O' && m >= n) { uc = n; vr = n;
            U = tu_zload(p, x->c.ptr[B_A], c->lda, m, n); VT = tu_zload(p, x->c.ptr[B_VT], c->ldvt, n, n); }
        else if (j0 == 'O') { uc = m; vr = m;
            U = tu_zload(p, x->c.ptr[B_U], c->ldu, m, m); VT = tu_zload(p, x->c.ptr[B_A], c->lda, m, n); }
        else { U = tu_zload(p, x->c.ptr[B_U], c->ldu, ur, uc); VT = tu_zload(p, x->c.ptr[B_VT], c->ldvt, vr, vc); }
    }
    if (U)
        radd(R, "orthU", orth(ur, uc, U, ur, 0) / (tu_imax(1, m) * ulp));
    if (VT)
        radd(R, "orthVT", orth(vr, vc, VT, vr, 1) / (tu_imax(1, n) * ulp));
    if (U && VT && mn > 0) {
        /* As - U(:,1:mn) S VT(1:mn,:) */
        tu_z *US = tu_zalloc((size_t)m * mn), *T = tu_zalloc((size_t)m * n);
        for (j = 0; j < mn; j++)
            for (i = 0; i < m; i++)
                US[i + (size_t)j * m] = U[i + (size_t)j * ur] * ss[j];
        memcpy(T, As, sizeof(tu_z) * (size_t)m * n);
        zmm('N', 'N', m, n, mn, -1.0, US, m, VT, vr, 1.0, T, m);
        radd(R, "resid", norm1(m, n, T, m) / an / (mx * ulp));
        free(US);
        free(T);
    } else if (U && mn > 0) {
        one_sided(R, m, n, As, unfl, U, ur, mn, ss, mx, ulp);
    } else if (VT && mn > 0) {
        /* A^H = V S U^H: V1 = VT(1:mn,:)^H */
        tu_z *Ah = ctrans(m, n, As, m), *V1 = ctrans(mn, n, VT, vr);
        one_sided(R, n, m, Ah, unfl, V1, n, mn, ss, mx, ulp);
        free(Ah);
        free(V1);
    }
    free(As); free(U); free(VT); free(s); free(ss);
}

/* eigen: outputs of x (k values, Z n x k when wantz), values of the real
 * LAPACK wref (k), input A (n x n) */
static void eig_ratios(const tu_case *c, const tu_res *x, const double *wref, int k,
                       const tu_z *A, int full, rset *R)
{
    int n = c->n, i, j, wantz = tu_up(c->o[0]) == 'V';
    char p = c->p, rt = tu_rtype(p);
    double ulp = tu_ulp(p), unfl = unfl_of(p), a1 = norm1(n, n, A, n), f = 1.0 / pow2_near(a1),
           an, worst = 0;
    double *w = dvec_s(rt, x->c.ptr[B_W], k, 1.0), *ws = dvec_s(rt, x->c.ptr[B_W], k, f);
    tu_z *As = tu_zalloc((size_t)n * n), *Z = NULL;
    memcpy(As, A, sizeof(tu_z) * (size_t)n * n);
    scale_mat(As, (size_t)n * n, f);
    an = fmax(a1 * f, unfl);
    for (i = 1; i < k; i++)
        if (!(w[i] >= w[i - 1]) && !R->err[0])
            snprintf(R->err, sizeof R->err, "W not ascending at %d: %.17g < %.17g", i + 1, w[i],
                     w[i - 1]);
    for (i = 0; i < k; i++) {
        double q = fabs(w[i] - wref[i]) / (n * ulp * fmax(a1, unfl));
        if (q > worst || isnan(q)) {
            worst = isnan(q) ? INFINITY : q;
            snprintf(R->detail, sizeof R->detail, "W(%d) %.17g vs %.17g", i + 1, w[i], wref[i]);
        }
    }
    radd(R, "W-vs-lapack", worst);
    if (wantz && k > 0) {
        if (c->fam == F_SYEV || c->fam == F_SYEVD)
            Z = tu_zload(p, x->c.ptr[B_A], c->lda, n, n);
        else
            Z = tu_zload(p, x->c.ptr[B_U], c->ldu, n, k);
        radd(R, "orthZ", orth(n, k, Z, n, 0) / (n * ulp));
        if (full) {
            tu_z *ZW = tu_zalloc((size_t)n * n), *T = tu_zalloc((size_t)n * n);
            for (j = 0; j < n; j++)
                for (i = 0; i < n; i++)
                    ZW[i + (size_t)j * n] = Z[i + (size_t)j * n] * ws[j];
            memcpy(T, As, sizeof(tu_z) * (size_t)n * n);
            zmm('N', 'C', n, n, n, -1.0, ZW, n, Z, n, 1.0, T, n);
            radd(R, "resid", norm1(n, n, T, n) / an / (n * ulp));
            free(ZW);
            free(T);
        } else {
            tu_z *AZ = tu_zalloc((size_t)n * k), *G = tu_zalloc((size_t)k * k);
            zmm('N', 'N', n, k, n, 1.0, As, n, Z, n, 0.0, AZ, n);
            zmm('C', 'N', k, k, n, 1.0, Z, n, AZ, n, 0.0, G, k);
            for (j = 0; j < k; j++) {
                G[j + (size_t)j * k] -= ws[j];
                for (i = 0; i < n; i++)
                    AZ[i + (size_t)j * n] -= Z[i + (size_t)j * n] * ws[j];
            }
            radd(R, "ZtAZ", norm1(k, k, G, k) / an / (n * ulp));
            radd(R, "AZ-ZW", norm1(n, k, AZ, n) / an / (n * ulp));
            free(AZ);
            free(G);
        }
    }
    if (wantz && (c->fam == F_SYEVX) && !R->err[0])
        for (i = 0; i < k; i++)
            if (((tu_int *)x->c.ptr[B_IFAIL])[i] != 0) {
                snprintf(R->err, sizeof R->err, "IFAIL(%d)=%d with INFO=0", i + 1,
                         ((tu_int *)x->c.ptr[B_IFAIL])[i]);
                break;
            }
    free(As); free(Z); free(w); free(ws);
}

/* |X - Q T Q^H| / (anorm n ulp), |I - Q^H Q| / (n ulp); X, Q n x n (ld n),
 * T from the case's D, E of x, an the norm of A (X = A or Q0 A Q0^H) */
static void qtq_ratios(int n, char p, const tu_z *X, double a1, const tu_z *Q, const tu_res *x,
                       rset *R)
{
    char rt = tu_rtype(p);
    double ulp = tu_ulp(p), f = 1.0 / pow2_near(a1), an = fmax(a1 * f, unfl_of(p));
    double *d = dvec_s(rt, x->c.ptr[B_W], n, f), *e = dvec_s(rt, x->c.ptr[B_E], tu_imax(n - 1, 0), f);
    tu_z *T = tu_zalloc((size_t)n * n), *QT = tu_zalloc((size_t)n * n), *Rm = tu_zalloc((size_t)n * n);
    int i;
    for (i = 0; i < n; i++) {
        T[i + (size_t)i * n] = d[i];
        if (i + 1 < n)
            T[i + 1 + (size_t)i * n] = T[i + (size_t)(i + 1) * n] = e[i];
    }
    radd(R, "orthQ", orth(n, n, Q, n, 0) / (n * ulp));
    memcpy(Rm, X, sizeof(tu_z) * (size_t)n * n);
    scale_mat(Rm, (size_t)n * n, f);
    zmm('N', 'N', n, n, n, 1.0, Q, n, T, n, 0.0, QT, n);
    zmm('N', 'C', n, n, n, -1.0, QT, n, Q, n, 1.0, Rm, n);
    radd(R, "resid", norm1(n, n, Rm, n) / an / (n * ulp));
    free(d); free(e); free(T); free(QT); free(Rm);
}

/* ?sytrd in LAPACK's format: Q by the real ?orgtr/?ungtr (precision p) */
static void sytrd_ratios(const tu_case *c, const tu_res *x, const tu_z *A, rset *R)
{
    int n = c->n, lda = c->lda;
    char p = c->p, name[16];
    size_t es = tu_esz(p);
    tu_int nn = n, ld = tu_imax(1, n), lw = -1, info = 0;
    void *q = malloc(es * (size_t)n * n), *tau = malloc(es * (size_t)tu_imax(1, n)), *work;
    tu_z wq = 0;
    tu_z *Q;
    orgtr_t g;
    int j;
    snprintf(name, sizeof name, "%c%s_", p, tu_cplx(p) ? "ungtr" : "orgtr");
    g = (orgtr_t)tu_real(name);
    for (j = 0; j < n; j++)
        memcpy((char *)q + es * (size_t)j * n, (const char *)x->c.ptr[B_A] + es * (size_t)j * lda,
               es * (size_t)n);
    memcpy(tau, x->c.ptr[B_TAU], es * (size_t)tu_imax(0, n - 1));
    g(&c->o[0], &nn, q, &ld, tau, &wq, &lw, &info, TU_L1);
    lw = tu_imax(1, (tu_int)creal(tu_get(p, &wq, 0)));
    work = malloc(es * (size_t)lw);
    g(&c->o[0], &nn, q, &ld, tau, work, &lw, &info, TU_L1);
    if (info != 0)
        snprintf(R->err, sizeof R->err, "real %s gave info=%d", name, info);
    Q = tu_zload(p, q, n, n, n);
    qtq_ratios(n, p, A, norm1(n, n, A, n), Q, x, R);
    free(q); free(tau); free(work); free(Q);
}

static void sbtrd_ratios(const tu_case *c, const tu_res *x, const tu_z *A, rset *R)
{
    int n = c->n;
    char p = c->p, v = (char)tu_up(c->o[0]);
    tu_z *Q = tu_zload(p, x->c.ptr[B_U], c->ldu, n, n);
    if (v == 'U') {
        tu_z *Q0 = tu_zload(p, c->b[B_U].init, c->ldu, n, n), *QA = tu_zalloc((size_t)n * n),
             *X = tu_zalloc((size_t)n * n);
        zmm('N', 'N', n, n, n, 1.0, Q0, n, A, n, 0.0, QA, n);
        zmm('N', 'C', n, n, n, 1.0, QA, n, Q0, n, 0.0, X, n);
        qtq_ratios(n, p, X, norm1(n, n, A, n), Q, x, R);
        free(Q0); free(QA); free(X);
    } else {
        qtq_ratios(n, p, A, norm1(n, n, A, n), Q, x, R);
    }
    free(Q);
}

static void gbbrd_ratios(const tu_case *c, const tu_res *x, const tu_z *A, rset *R)
{
    int m = c->m, n = c->n, mn = tu_imin(m, n), mx = tu_imax(m, n), ncc = c->ncc, i, j;
    char p = c->p, rt = tu_rtype(p), v = (char)tu_up(c->o[0]);
    double ulp = tu_ulp(p), unfl = unfl_of(p), a1 = norm1(m, n, A, m), f = 1.0 / pow2_near(a1),
           an = fmax(a1 * f, unfl);
    double *d = dvec_s(rt, x->c.ptr[B_W], mn, f), *e = dvec_s(rt, x->c.ptr[B_E], tu_imax(mn - 1, 0), f);
    tu_z *As = tu_zalloc((size_t)m * n), *B = tu_zalloc((size_t)m * n), *Q = NULL, *PT = NULL;
    memcpy(As, A, sizeof(tu_z) * (size_t)m * n);
    scale_mat(As, (size_t)m * n, f);
    for (i = 0; i < mn; i++) {
        B[i + (size_t)i * m] = d[i];
        if (i + 1 < mn)
            B[i + (size_t)(i + 1) * m] = e[i];
    }
    if (v == 'Q' || v == 'B') {
        Q = tu_zload(p, x->c.ptr[B_U], c->ldu, m, m);
        radd(R, "orthQ", orth(m, m, Q, m, 0) / (tu_imax(1, m) * ulp));
    }
    if (v == 'P' || v == 'B') {
        PT = tu_zload(p, x->c.ptr[B_VT], c->ldvt, n, n);
        radd(R, "orthPT", orth(n, n, PT, n, 1) / (tu_imax(1, n) * ulp));
    }
    if (Q && PT) {
        tu_z *QB = tu_zalloc((size_t)m * n);
        zmm('N', 'N', m, n, m, 1.0, Q, m, B, m, 0.0, QB, m);
        zmm('N', 'N', m, n, n, -1.0, QB, m, PT, n, 1.0, As, m);
        radd(R, "resid", norm1(m, n, As, m) / an / (mx * ulp));
        free(QB);
    } else {
        /* Q only: Q^H A = B P^H: rows of Q^H A have the norms of B's rows,
         * Q^H A A^H Q = B B^H. PT only: A P = Q B: columns, P^H A^H A P =
         * B^H B. And the singular values of B against those of A. */
        int rows = Q ? m : n, i2;
        tu_z *G = tu_zalloc((size_t)m * n), *GG = tu_zalloc((size_t)rows * rows),
             *BB = tu_zalloc((size_t)rows * rows);
        double worst = 0, *sa = malloc(sizeof(double) * (size_t)tu_imax(1, mn)),
               *sb = malloc(sizeof(double) * (size_t)tu_imax(1, mn));
        if (Q) {
            zmm('C', 'N', m, n, m, 1.0, Q, m, As, m, 0.0, G, m);
            for (i = 0; i < m; i++) {
                double rg = 0, rb = 0;
                for (j = 0; j < n; j++) {
                    rg += creal(G[i + (size_t)j * m] * conj(G[i + (size_t)j * m]));
                    rb += creal(B[i + (size_t)j * m] * conj(B[i + (size_t)j * m]));
                }
                worst = fmax(worst, fabs(sqrt(rg) - sqrt(rb)));
            }
            radd(R, "rownorm", worst / an / (mx * ulp));
            zmm('N', 'C', m, m, n, 1.0, G, m, G, m, 0.0, GG, m);
            zmm('N', 'C', m, m, n, 1.0, B, m, B, m, 0.0, BB, m);
        } else {
            zmm('N', 'C', m, n, n, 1.0, As, m, PT, n, 0.0, G, m);
            for (j = 0; j < n; j++) {
                double rg = 0, rb = 0;
                for (i = 0; i < m; i++) {
                    rg += creal(G[i + (size_t)j * m] * conj(G[i + (size_t)j * m]));
                    rb += creal(B[i + (size_t)j * m] * conj(B[i + (size_t)j * m]));
                }
                worst = fmax(worst, fabs(sqrt(rg) - sqrt(rb)));
            }
            radd(R, "colnorm", worst / an / (mx * ulp));
            zmm('C', 'N', n, n, m, 1.0, G, m, G, m, 0.0, GG, n);
            zmm('C', 'N', n, n, m, 1.0, B, m, B, m, 0.0, BB, n);
        }
        for (i2 = 0; i2 < rows * rows; i2++)
            GG[i2] -= BB[i2];
        radd(R, "gram", norm1(rows, rows, GG, rows) / an / an / (mx * ulp));
        if (mn > 0) {
            tu_sing_vals(m, n, As, sa);
            tu_sing_vals(m, n, B, sb);
            worst = 0;
            for (i = 0; i < mn; i++)
                worst = fmax(worst, fabs(sa[i] - sb[i]) / (mx * ulp * fmax(sa[0], unfl)));
            radd(R, "sv(B)-vs-sv(A)", worst);
        }
        free(G); free(GG); free(BB); free(sa); free(sb);
    }
    if (ncc > 0 && m > 0) {
        tu_z *C0 = tu_zload(p, c->b[B_C].init, c->ldc, m, ncc),
             *C1 = tu_zload(p, x->c.ptr[B_C], c->ldc, m, ncc);
        double cn = fmax(norm1(m, ncc, C0, m), unfl);
        if (Q) {
            zmm('C', 'N', m, ncc, m, 1.0, Q, m, C0, m, -1.0, C1, m);
            radd(R, "QhC-Cout", norm1(m, ncc, C1, m) / cn / (m * ulp));
        } else {
            tu_z *G0 = tu_zalloc((size_t)ncc * ncc);
            zmm('C', 'N', ncc, ncc, m, 1.0, C0, m, C0, m, 0.0, G0, ncc);
            zmm('C', 'N', ncc, ncc, m, 1.0, C1, m, C1, m, -1.0, G0, ncc);
            radd(R, "CtC", norm1(ncc, ncc, G0, ncc) / cn / cn / (m * ulp));
            free(G0);
        }
        free(C0); free(C1);
    }
    free(d); free(e); free(As); free(B); free(Q); free(PT);
}

/* the ratios of one result x of case c; r: the real LAPACK's result (its
 * values are the reference); A the dense input */
static void ratios(const tu_case *c, const tu_res *x, const tu_res *r, const tu_z *A, rset *R)
{
    char rt = tu_rtype(c->p);
    memset(R, 0, sizeof *R);
    switch (c->fam) {
    case F_GESVD: case F_GESDD: {
        int mn = tu_imin(c->m, c->n);
        double *sr = dvec_s(rt, r->c.ptr[B_W], mn, 1.0);
        svd_ratios(c, x, sr, A, R);
        free(sr);
        break;
    }
    case F_SYTRD: sytrd_ratios(c, x, A, R); break;
    case F_SBTRD: sbtrd_ratios(c, x, A, R); break;
    case F_GBBRD: gbbrd_ratios(c, x, A, R); break;
    default: {
        int k = tu_is_rangefam(c->fam) ? x->c.mout : c->n;
        int full = !tu_is_rangefam(c->fam) || tu_up(c->o[1]) == 'A';
        double *wr;
        if (k < 0 || k > c->n) {
            snprintf(R->err, sizeof R->err, "M=%d out of range", k);
            break;
        }
        /* RANGE='I' documents M = IU-IL+1; LAPACK's ?stebz can return
         * fewer when a cluster of equal eigenvalues straddles IL or IU.
         * A real result with such an M is no reference: ours is then
         * checked by its residuals alone (its values against themselves) */
        if (tu_is_rangefam(c->fam) && tu_up(c->o[1]) == 'I') {
            int want = c->iu - c->il + 1;
            if (k != want) {
                snprintf(R->err, sizeof R->err, "M=%d, RANGE='I' wants %d", k,
                         want);
                break;
            }
            if (r->c.mout != want) {
                wr = dvec_s(rt, x->c.ptr[B_W], k, 1.0);
                eig_ratios(c, x, wr, k, A, full, R);
                free(wr);
                break;
            }
        }
        if (tu_is_rangefam(c->fam) && k != r->c.mout) {
            snprintf(R->err, sizeof R->err, "M ours=%d real=%d", k, r->c.mout);
            break;
        }
        wr = dvec_s(rt, r->c.ptr[B_W], k, 1.0);
        eig_ratios(c, x, wr, k, A, full, R);
        free(wr);
        break;
    }
    }
}

/* ------------------------------------------------------------------------ */
/* the log                                                                  */
/* ------------------------------------------------------------------------ */

static void log_path(long from, const char *routine, char *path, size_t L)
{
    FILE *f = fopen(tu_log_path, "r");
    char line[4096];
    size_t rl = strlen(routine);
    snprintf(path, L, "?");
    if (!f)
        return;
    if (from > 0)
        fseek(f, from, SEEK_SET);
    while (fgets(line, sizeof line, f)) {
        const char *q;
        if (strncmp(line, "gpulapack: ", 11) != 0 || strncmp(line + 11, routine, rl) != 0 ||
            line[11 + rl] != ' ')
            continue;
        q = strstr(line, " path=");
        if (q) {
            char tmp[32];
            if (sscanf(q + 6, "%31[^ \n]", tmp) == 1)
                snprintf(path, L, "%s", tmp);
        }
    }
    fclose(f);
}

/* ------------------------------------------------------------------------ */
/* groups, summary                                                          */
/* ------------------------------------------------------------------------ */

/* one check per routine (family), precision and size: the families of a
 * size interleave, so each has its own group, reported at the end of the
 * size */
typedef struct {
    char name[120];
    int n, nfail, nnote;
    char first[1800];
} group_t;
static group_t grps[TU_NFAM], *cur;

static void grp_end_all(void)
{
    int f;
    for (f = 0; f < TU_NFAM; f++) {
        group_t *g = &grps[f];
        if (g->name[0] && g->n > 0) {
            if (g->nfail)
                tu_report(0, g->name, "%d of %d cases failed; first: %s", g->nfail, g->n,
                          g->first);
            else
                tu_report(1, g->name, "%d cases%s", g->n, g->nnote ? " (with notes)" : "");
        }
        memset(g, 0, sizeof *g);
    }
}

/* worst ratio per routine and measure */
#define MAXSUM 512
static struct sumrow {
    char rname[24], measure[24];
    double worst;
    int cases;
    char where[200];
} sum[MAXSUM];
static int nsum, ncases, nfail_cases, nnotes, nwrongpath;

static void sum_add(const char *rname, const rset *R, const char *where)
{
    int i, k;
    for (i = 0; i < R->n; i++) {
        for (k = 0; k < nsum; k++)
            if (strcmp(sum[k].rname, rname) == 0 && strcmp(sum[k].measure, R->name[i]) == 0)
                break;
        if (k == nsum) {
            if (nsum == MAXSUM)
                continue;
            nsum++;
            snprintf(sum[k].rname, sizeof sum[k].rname, "%s", rname);
            snprintf(sum[k].measure, sizeof sum[k].measure, "%s", R->name[i]);
        }
        sum[k].cases++;
        if (R->v[i] > sum[k].worst || isnan(R->v[i])) {
            sum[k].worst = R->v[i];
            snprintf(sum[k].where, sizeof sum[k].where, "%s", where);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* running one case                                                         */
/* ------------------------------------------------------------------------ */

/* Execute c (input matrix already in place) through ours and the real
 * LAPACK; A: the dense input as stored (double complex). */
static void run_case(tu_case *c, const tu_z *A, int t)
{
    tu_res o, r;
    long mark = tu_log_mark();
    char path[32], why[1500] = "", rs[700], tmp[600];
    const char *rn = tu_rname(c->fam, c->p);
    int ok = 1, note = 0, mn = tu_imin(c->m, c->n);
    rset R, RR;
    size_t L = sizeof why;
#define WHY(...) snprintf(why + strlen(why), L - strlen(why), __VA_ARGS__)

    tu_exec(c, 0, &o);
    log_path(mark, rn, path, sizeof path);
    tu_exec(c, 1, &r);
    ncases++;
    memset(&R, 0, sizeof R);

    if (o.c.info != r.c.info) {
        ok = 0;
        WHY("INFO ours=%d real=%d; ", o.c.info, r.c.info);
    } else if (o.c.info != 0) {
        note = 1;
        nnotes++;
        tu_note("note: INFO=%d from ours and the real LAPACK [%s type=%s]", o.c.info, c->desc,
                tname[t]);
    }
    if (o.xcalls) {
        ok = 0;
        WHY("xerbla called (%s, %d); ", o.xname, o.xinfo);
    }
    if (!tu_check_integrity(c, &o, "ours", tmp, sizeof tmp)) {
        ok = 0;
        WHY("%s; ", tmp);
    }
    if (o.logn != 1 || o.logbad || o.logall != o.logn) {
        ok = 0;
        WHY("GPULAPACK_LOG: %d well-formed '%s' lines (want 1), %d malformed, %d of other "
            "routines; ", o.logn, rn, o.logbad, o.logall - o.logn);
    } else if (o.loginfo != o.c.info) {
        ok = 0;
        WHY("log info=%d, call returned %d; ", o.loginfo, o.c.info);
    }
    if (expect_path && strcmp(path, expect_path) != 0 &&
        (tu_is_svd(c->fam) || c->fam == F_GBBRD ? mn : c->n) >= 2) {
        ok = 0;
        nwrongpath++;
        WHY("path=%s, want %s; ", path, expect_path);
    }
    if (o.c.info == 0 && r.c.info == 0) {
        ratios(c, &o, &r, A, &R);
        if (!rset_ok(&R)) {
            /* does the real LAPACK fail the same measures on its own
             * outputs? then it is the matrix, not us: noted */
            int i, all_real, real_bad = 0, ours_other_bad = 0;
            ratios(c, &r, &r, A, &RR);
            all_real = !R.err[0] || RR.err[0];
            for (i = 0; i < RR.n; i++)
                real_bad |= rfail(&RR, i);
            for (i = 0; i < R.n; i++)
                ours_other_bad |= rfail(&R, i) && !strstr(R.name[i], "-vs-lapack");
            for (i = 0; i < R.n && all_real; i++) {
                /* our values against values the real LAPACK itself gets
                 * wrong (its own residuals fail, ours all pass) */
                if (rfail(&R, i) && strstr(R.name[i], "-vs-lapack") && real_bad &&
                    !ours_other_bad)
                    continue;
                if (rfail(&R, i) && !(rget(&RR, R.name[i]) >= tu_thresh))
                    all_real = 0;
            }
            rfmt(&R, rs, sizeof rs);
            if (all_real) {
                char rr[700];
                rfmt(&RR, rr, sizeof rr);
                note = 1;
                nnotes++;
                tu_note("note: real LAPACK fails its own ratio too: ours %s; real %s [%s type=%s]",
                        rs, rr, c->desc, tname[t]);
            } else {
                char rr[700];
                rfmt(&RR, rr, sizeof rr);
                ok = 0;
                WHY("ratios: %s; the real LAPACK's own: %s; ", rs, rr);
            }
        }
        if (!note) {
            char where[200];
            snprintf(where, sizeof where, "%s %dx%d type=%s seed=%.24s", tu_rname(c->fam, c->p),
                     c->m, c->n, tname[t], strstr(c->desc, "seed=") ? strstr(c->desc, "seed=") + 5 : "?");
            sum_add(rn, &R, where);
        }
    }
    cur->n++;
    if (note)
        cur->nnote++;
    if (!ok) {
        nfail_cases++;
        if (!cur->nfail++)
            snprintf(cur->first, sizeof cur->first, "%.900s[%.600s type=%s%s%s]", why, c->desc,
                     tname[t], band_env[0] ? " GPULAPACK_BAND=" : "", band_env);
        tu_note("fail %s: %s[%s type=%s]", cur->name, why, c->desc, tname[t]);
    } else if (tu_verbose) {
        rfmt(&R, rs, sizeof rs);
        tu_note("ok %s path=%s %s [%s type=%s] ours %.3fs real %.3fs", cur->name, path, rs,
                c->desc, tname[t], o.secs, r.secs);
    }
    tu_res_free(&o);
    tu_res_free(&r);
#undef WHY
}

static int routine_on(int fam)
{
    const char *nm = tu_fam_r[fam], *q = routines_filter;
    size_t L = strlen(nm);
    if (!routines_filter[0])
        return 1;
    while (*q) {
        const char *e = strchr(q, ',');
        size_t k = e ? (size_t)(e - q) : strlen(q);
        if (k == L && strncmp(q, nm, L) == 0)
            return 1;
        q += k;
        if (*q == ',')
            q++;
    }
    return 0;
}

static void grp_for(int fam, char p, int k)
{
    cur = &grps[fam];
    if (!cur->name[0])
        snprintf(cur->name, sizeof cur->name, "%s/n=%d", tu_rname(fam, p), k);
}

/* LWORK choice: documented minimum or the real routine's optimum */
static void set_lwork(tu_spec *sp, int rot)
{
    int v = rot % 2 ? TU_LW_OPT : TU_LW_DOC;
    sp->lwork = sp->lrwork = sp->liwork = v;
}

static void set_pad(tu_spec *sp, int rot)
{
    if (rot % 3 == 2) {
        sp->pad_a = 3;
        sp->pad_u = 2;
        sp->pad_vt = 1;
        sp->pad_c = 2;
    }
}

static int build_or_fail(tu_spec *sp, tu_case *c)
{
    if (tu_build(sp, c) != 0) {
        cur->n++;
        if (!cur->nfail++)
            snprintf(cur->first, sizeof cur->first, "could not build the case");
        tu_case_free(c);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* the families                                                             */
/* ------------------------------------------------------------------------ */

static const char svd_jobs[15][3] = {"AA", "SS", "NN", "OA", "AS", "SN", "NO", "OS", "AN",
                                     "SA", "NS", "ON", "AO", "SO", "NA"};

/* one SVD matrix (m x n) through ?gesvd (job pair rot1) and ?gesdd (rot2) */
static void svd_matrix(char p, int k, int t, int m, int n, int rot1, int rot2, int pad)
{
    uint64_t seed = mseed(1, p, t, m, n, 0);
    tu_z *G = gen_general(t, p, m, n, seed), *A;
    int f;
    for (f = 0; f < 2; f++) {
        int fam = f ? F_GESDD : F_GESVD;
        char o[4] = {0, 0, 0, 0};
        tu_spec sp;
        tu_case c;
        if (!routine_on(fam))
            continue;
        if (fam == F_GESVD) {
            o[0] = svd_jobs[rot1 % 15][0];
            o[1] = svd_jobs[rot1 % 15][1];
        } else {
            o[0] = "ASON"[rot2 % 4];
        }
        sp = tu_mk(fam, p, o, m, n);
        sp.seed = seed;
        set_lwork(&sp, rot1 + f);
        set_pad(&sp, pad);
        grp_for(fam, p, k);
        if (!build_or_fail(&sp, &c))
            continue;
        put_dense(&c, G, m, m, n);
        A = tu_zload(p, c.b[B_A].init, c.lda, m, n);
        run_case(&c, A, t);
        free(A);
        tu_case_free(&c);
    }
    free(G);
}

/* rounded copy of G in precision p */
static tu_z *rounded(char p, const tu_z *G, size_t cnt)
{
    tu_z *R = tu_zalloc(cnt);
    unsigned char buf[16];
    size_t i;
    for (i = 0; i < cnt; i++) {
        tu_put(p, buf, 0, G[i]);
        R[i] = tu_get(p, buf, 0);
    }
    return R;
}

/* RANGE='V' bounds: around eigenvalue indices lo..hi (1-based) of the
 * (rounded) matrix H, moved to the nearest gap that is wide against the
 * precision, so that ours and the real LAPACK agree on M */
static void vrange(char p, int n, const tu_z *H, int lo, int hi, double *vl, double *vu)
{
    double *ev = malloc(sizeof(double) * (size_t)n), amax, gapmin, margin;
    int j, best;
    tu_herm_eigs(n, H, ev);
    amax = fmax(fabs(ev[0]), fabs(ev[n - 1]));
    gapmin = 1000.0 * n * tu_ulp(p) * amax;
    margin = amax > 0 ? 0.25 * amax : 1.0;
    /* lower bound: a gap at or below index lo (between ev[j-1] and ev[j]) */
    best = -1;
    for (j = lo - 1; j >= 1 && best < 0; j--)
        if (ev[j] - ev[j - 1] > gapmin)
            best = j;
    *vl = best < 0 ? ev[0] - margin : 0.5 * (ev[best - 1] + ev[best]);
    best = -1;
    for (j = hi; j < n && best < 0; j++)
        if (ev[j] - ev[j - 1] > gapmin)
            best = j;
    *vu = best < 0 ? ev[n - 1] + margin : 0.5 * (ev[best - 1] + ev[best]);
    free(ev);
}

/* the dense eigen routines and ?sytrd on the Hermitian H (n x n) */
static void eig_matrix(char p, int k, int ki, int t, const tu_z *H, uint64_t seed)
{
    int n = k, rot = t + ki, f;
    static const int fams[] = {F_SYEV, F_SYEVD, F_SYEVR, F_SYEVX, F_SYTRD};
    tu_z *Hr = NULL;
    for (f = 0; f < 5; f++) {
        int fam = fams[f], rr = (rot + f) % 4;
        char uplo = (rot + f) % 2 ? 'L' : 'U', o[4] = {0, 0, 0, 0};
        tu_spec sp;
        tu_case c;
        tu_z *A;
        if (!routine_on(fam))
            continue;
        if (fam == F_SYTRD) {
            o[0] = uplo;
        } else if (tu_is_rangefam(fam)) {
            /* A, I (middle), V (middle), I (one at an end) */
            o[0] = 'V';
            o[1] = "AIVI"[rr];
            o[2] = uplo;
        } else {
            o[0] = 'V';
            o[1] = uplo;
        }
        sp = tu_mk(fam, p, o, n, n);
        sp.seed = seed;
        set_lwork(&sp, rot + f);
        set_pad(&sp, rot + 2 * f);
        if (tu_is_rangefam(fam) && o[1] == 'I') {
            if (rr == 1) {
                sp.il = n / 4 + 1;
                sp.iu = tu_imax(sp.il, (3 * n) / 4);
            } else {
                sp.il = sp.iu = (rot / 4) % 2 ? n : 1;
            }
        } else if (tu_is_rangefam(fam) && o[1] == 'V') {
            if (!Hr)
                Hr = rounded(p, H, (size_t)n * n);
            sp.vexplicit = 1;
            vrange(p, n, Hr, n / 4 + 1, tu_imax(n / 4 + 1, (3 * n) / 4), &sp.vl, &sp.vu);
        }
        grp_for(fam, p, k);
        if (!build_or_fail(&sp, &c))
            continue;
        put_dense(&c, H, n, n, n);
        A = tu_dense_from_case(&c, c.b[B_A].init);
        run_case(&c, A, t);
        free(A);
        tu_case_free(&c);
    }
    free(Hr);
}

/* ?sbev, ?sbevd, ?sbtrd on the band of H */
static void band_matrix(char p, int k, int ki, int t, const tu_z *H, uint64_t seed)
{
    static const int kds[3] = {1, 5, 33};
    static const int fams[3] = {F_SBEV, F_SBEVD, F_SBTRD};
    int n = k, rot = t + ki, f;
    for (f = 0; f < 3; f++) {
        int fam = fams[f], kd = kds[(rot + f) % 3];
        char uplo = (rot + f) % 2 ? 'U' : 'L', o[4] = {0, 0, 0, 0};
        tu_spec sp;
        tu_case c;
        tu_z *A;
        if (!routine_on(fam))
            continue;
        o[0] = fam == F_SBTRD ? ((rot / 3) % 2 ? 'U' : 'V') : 'V';
        o[1] = uplo;
        sp = tu_mk(fam, p, o, n, n);
        sp.k = kd;
        sp.seed = seed;
        set_lwork(&sp, rot + f);
        set_pad(&sp, rot + f + 1);
        grp_for(fam, p, k);
        if (!build_or_fail(&sp, &c))
            continue;
        put_sband(&c, H, n);
        if (fam == F_SBTRD && o[0] == 'U') {
            /* Q on entry: Haar (rounded) */
            uint64_t s = seed ^ 0x51ull;
            tu_z *Q0 = haar(tu_cplx(p), n, n, &s);
            int i, j;
            for (j = 0; j < n; j++)
                for (i = 0; i < n; i++)
                    tu_put(p, c.b[B_U].init, (size_t)i + (size_t)j * c.ldu, Q0[i + (size_t)j * n]);
            free(Q0);
        }
        A = tu_dense_from_case(&c, c.b[B_A].init);
        run_case(&c, A, t);
        free(A);
        tu_case_free(&c);
    }
}

/* ?gbbrd on the band (kl, ku) of an m x n general matrix of type t */
static void gb_matrix(char p, int k, int ki, int t, int m, int n)
{
    static const int klku[7][2] = {{1, 1}, {0, 4}, {5, 2}, {33, 33}, {2, 0}, {-1, -1}, {7, 33}};
    int rot = t + ki, kl = klku[rot % 7][0], ku = klku[rot % 7][1];
    char o[4] = {"QPB"[(rot / 7 + t) % 3], 0, 0, 0};
    uint64_t seed = mseed(3, p, t, m, n, rot % 7);
    tu_z *G, *A;
    tu_spec sp;
    tu_case c;
    if (!routine_on(F_GBBRD))
        return;
    if (kl < 0) { /* the whole matrix */
        kl = tu_imax(0, m - 1);
        ku = tu_imax(0, n - 1);
    }
    G = gen_general(t, p, m, n, seed);
    sp = tu_mk(F_GBBRD, p, o, m, n);
    sp.k = kl;
    sp.ku = ku;
    sp.ncc = 1 + rot % 4 * 2;
    sp.seed = seed;
    set_pad(&sp, rot);
    grp_for(F_GBBRD, p, k);
    if (build_or_fail(&sp, &c)) {
        put_gband(&c, G, m, n);
        A = tu_dense_from_case(&c, c.b[B_A].init);
        run_case(&c, A, t);
        free(A);
        tu_case_free(&c);
    }
    free(G);
}

/* ------------------------------------------------------------------------ */
/* schedule                                                                 */
/* ------------------------------------------------------------------------ */

/* non-square shapes for base size k, in rotation */
static void shape(int k, int which, int *m, int *n)
{
    int b = k + k / 2 + k / 10, third = tu_imax(2, k / 3);
    switch (which % 7) {
    case 0: *m = 2 * k; *n = k; break;            /* m = 2n */
    case 1: *m = third; *n = k; break;            /* m = n/3 */
    case 2: *m = b; *n = k; break;                /* QR-first boundary */
    case 3: *m = k; *n = 2 * k; break;
    case 4: *m = tu_imax(2, b - 1); *n = k; break; /* just below it */
    case 5: *m = k; *n = third; break;            /* m = 3n */
    default: *m = k; *n = b; break;
    }
}

static void run_size(char p, int ki)
{
    int k = sizes[ki], t;
    for (t = 0; t < NT; t++) {
        int rot = t + ki, m, n, fam;
        uint64_t hseed;
        tu_z *H;
        if (!type_on[t] || (every > 1 && rot % every != offset))
            continue;
        if (k >= HALF_FROM && rot % 2 != 0)
            continue;
        /* SVD: square and one rotating non-square shape */
        svd_matrix(p, k, t, k, k, rot, rot + 1, rot);
        shape(k, rot, &m, &n);
        svd_matrix(p, k, t, m, n, rot + 7, rot + 2, rot + 1);
        /* eigen: dense and banded */
        for (fam = F_SYEV; fam <= F_SBEVD; fam++)
            if (fam != F_GBBRD && routine_on(fam))
                break;
        if (fam <= F_SBEVD) {
            hseed = mseed(2, p, t, k, k, 0);
            H = gen_herm(t, p, k, hseed);
            eig_matrix(p, k, ki, t, H, hseed);
            band_matrix(p, k, ki, t, H, hseed);
            free(H);
        }
        /* bidiagonal reduction of a band matrix: square or the shape */
        if (rot % 2)
            gb_matrix(p, k, ki, t, k, k);
        else
            gb_matrix(p, k, ki, t, m, n);
    }
}

static int name_in_list(const char *list, const char *nm)
{
    size_t L = strlen(nm);
    const char *q = list;
    while (*q) {
        const char *e = strchr(q, ',');
        size_t k = e ? (size_t)(e - q) : strlen(q);
        if (k == L && strncmp(q, nm, L) == 0)
            return 1;
        q += k;
        if (*q == ',')
            q++;
    }
    return 0;
}

int main(void)
{
    const char *e;
    char name[64];
    int ki, t, pi;

    /* before the first intercepted call: the library reads them once */
    setenv("GPULAPACK_DEVICE", "host", 0);
    setenv("GPULAPACK_MIN_N", "0", 0);
    e = getenv("GPULAPACK_BAND");
    if (e && *e)
        snprintf(band_env, sizeof band_env, "%s", e);
    /* GPULAPACK_METHOD (the ?syev family's method on a GPU path) names
     * the run too: vectors-one-stage/... */
    e = getenv("GPULAPACK_METHOD");
    snprintf(name, sizeof name, "vectors%s%s%s%s", band_env[0] ? "-band" : "", band_env,
             e && *e ? "-" : "", e && *e ? e : "");
    tu_init(name);
    t_start = tu_now();
    expect_path = getenv("GPULAPACK_TEST_EXPECT_PATH");
    if (expect_path && !*expect_path)
        expect_path = NULL;
    e = getenv("GPULAPACK_TEST_VECTORS_EVERY");
    if (e && atoi(e) > 1)
        every = atoi(e);
    e = getenv("GPULAPACK_TEST_VECTORS_OFFSET");
    if (e && *e)
        offset = atoi(e);
    if (offset < 0 || offset >= every) {
        tu_report(0, "offset", "GPULAPACK_TEST_VECTORS_OFFSET=%s: not in 0..%d", e, every - 1);
        return tu_finish();
    }
    e = getenv("GPULAPACK_TEST_VECTORS_PRECS");
    if (e && *e)
        snprintf(precs, sizeof precs, "%s", e);
    e = getenv("GPULAPACK_TEST_VECTORS_SIZES");
    for (ki = 0; ki < NSIZES; ki++) {
        char nb[16];
        snprintf(nb, sizeof nb, "%d", sizes[ki]);
        size_on[ki] = !(e && *e) || name_in_list(e, nb);
    }
    e = getenv("GPULAPACK_TEST_VECTORS_TYPES");
    for (t = 0; t < NT; t++)
        type_on[t] = !(e && *e) || name_in_list(e, tname[t]);
    e = getenv("GPULAPACK_TEST_VECTORS_ROUTINES");
    if (e && *e)
        snprintf(routines_filter, sizeof routines_filter, "%s", e);
    tu_note("GPULAPACK_DEVICE=%s GPULAPACK_MIN_N=%s GPULAPACK_BAND=%s every=%d offset=%d "
            "precisions=%s expect path=%s",
            getenv("GPULAPACK_DEVICE"), getenv("GPULAPACK_MIN_N"),
            band_env[0] ? band_env : "(tuned)", every, offset, precs,
            expect_path ? expect_path : "-");
    tu_check_front();

    for (pi = 0; precs[pi]; pi++) {
        char p = precs[pi];
        double t0 = tu_now();
        if (!strchr("sdcz", p))
            continue;
        for (ki = 0; ki < NSIZES; ki++) {
            double t1 = tu_now();
            if (!size_on[ki])
                continue;
            run_size(p, ki);
            grp_end_all();
            if (tu_verbose)
                tu_note("%c n=%d: %.1fs", p, sizes[ki], tu_now() - t1);
        }
        tu_note("precision %c: %.1fs", p, tu_now() - t0);
    }
    if (expect_path)
        tu_report(nwrongpath == 0, "path/expected",
                  "GPULAPACK_TEST_EXPECT_PATH=%s: %d of %d calls took another path", expect_path,
                  nwrongpath, ncases);
    {
        int i;
        tu_note("worst ratios of ours (threshold %g; noted cases left out):", tu_thresh);
        for (i = 0; i < nsum; i++)
            tu_note("  %-14s %-15s %8.3g over %5d cases, at %s", sum[i].rname, sum[i].measure,
                    sum[i].worst, sum[i].cases, sum[i].where[0] ? sum[i].where : "-");
    }
    tu_note("%d cases, %d failed, %d noted (the real LAPACK fails the same ratio); total time "
            "%.1fs",
            ncases, nfail_cases, nnotes, tu_now() - t_start);
    return tu_finish();
}
