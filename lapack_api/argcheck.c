/* LAPACK's argument checks; see argcheck.h.  Each function follows the
 * "Test the input arguments" block of the reference routine (LAPACK 3.11). */
#include "argcheck.h"

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }
static int64_t min2(int64_t a, int64_t b) { return a < b ? a : b; }
static int is_uplo(char uplo) { return uplo == 'U' || uplo == 'L'; }

lapack_int gl_check_gesvd(char jobu, char jobvt, int64_t m, int64_t n,
                          int64_t lda, int64_t ldu, int64_t ldvt)
{
    int wntua = jobu == 'A', wntus = jobu == 'S', wntuo = jobu == 'O';
    int wntva = jobvt == 'A', wntvs = jobvt == 'S', wntvo = jobvt == 'O';
    int64_t minmn = min2(m, n);

    if (!(wntua || wntus || wntuo || jobu == 'N'))
        return -1;
    if (!(wntva || wntvs || wntvo || jobvt == 'N') || (wntvo && wntuo))
        return -2;
    if (m < 0)
        return -3;
    if (n < 0)
        return -4;
    if (lda < max1(m))
        return -6;
    if (ldu < 1 || ((wntua || wntus) && ldu < m))
        return -9;
    if (ldvt < 1 || (wntva && ldvt < n) || (wntvs && ldvt < minmn))
        return -11;
    return 0;
}

lapack_int gl_check_gesdd(char jobz, int64_t m, int64_t n,
                          int64_t lda, int64_t ldu, int64_t ldvt)
{
    int wntqa = jobz == 'A', wntqs = jobz == 'S', wntqo = jobz == 'O';
    int64_t minmn = min2(m, n);

    if (!(wntqa || wntqs || wntqo || jobz == 'N'))
        return -1;
    if (m < 0)
        return -2;
    if (n < 0)
        return -3;
    if (lda < max1(m))
        return -5;
    if (ldu < 1 || ((wntqa || wntqs) && ldu < m) ||
        (wntqo && m < n && ldu < m))
        return -8;
    if (ldvt < 1 || (wntqa && ldvt < n) || (wntqs && ldvt < minmn) ||
        (wntqo && m >= n && ldvt < n))
        return -10;
    return 0;
}

lapack_int gl_check_syev(int two_stage, char jobz, char uplo, int64_t n,
                         int64_t lda)
{
    if (two_stage ? jobz != 'N' : !(jobz == 'V' || jobz == 'N'))
        return -1;
    if (!is_uplo(uplo))
        return -2;
    if (n < 0)
        return -3;
    if (lda < max1(n))
        return -5;
    return 0;
}

lapack_int gl_check_syevr(int two_stage, char jobz, char range, char uplo,
                          int64_t n, int64_t lda, int vu_le_vl,
                          int64_t il, int64_t iu, int64_t ldz)
{
    int wantz = jobz == 'V';

    if (two_stage ? jobz != 'N' : !(wantz || jobz == 'N'))
        return -1;
    if (!(range == 'A' || range == 'V' || range == 'I'))
        return -2;
    if (!is_uplo(uplo))
        return -3;
    if (n < 0)
        return -4;
    if (lda < max1(n))
        return -6;
    if (range == 'V') {
        if (n > 0 && vu_le_vl)
            return -8;
    } else if (range == 'I') {
        if (il < 1 || il > max1(n))
            return -9;
        if (iu < min2(n, il) || iu > n)
            return -10;
    }
    if (ldz < 1 || (wantz && ldz < n))
        return -15;
    return 0;
}

lapack_int gl_check_sytrd(char uplo, int64_t n, int64_t lda)
{
    if (!is_uplo(uplo))
        return -1;
    if (n < 0)
        return -2;
    if (lda < max1(n))
        return -4;
    return 0;
}

lapack_int gl_check_sytrd_2stage(char vect, char uplo, int64_t n,
                                 int64_t lda)
{
    if (vect != 'N')
        return -1;
    if (!is_uplo(uplo))
        return -2;
    if (n < 0)
        return -3;
    if (lda < max1(n))
        return -5;
    return 0;
}

lapack_int gl_check_gbbrd(char vect, int64_t m, int64_t n,
                          int64_t ncc, int64_t kl, int64_t ku,
                          int64_t ldab, int64_t ldq, int64_t ldpt,
                          int64_t ldc)
{
    int wantq = vect == 'Q' || vect == 'B';
    int wantpt = vect == 'P' || vect == 'B';
    int wantc = ncc > 0;

    if (!wantq && !wantpt && vect != 'N')
        return -1;
    if (m < 0)
        return -2;
    if (n < 0)
        return -3;
    if (ncc < 0)
        return -4;
    if (kl < 0)
        return -5;
    if (ku < 0)
        return -6;
    if (ldab < kl + ku + 1)
        return -8;
    if (ldq < 1 || (wantq && ldq < max1(m)))
        return -12;
    if (ldpt < 1 || (wantpt && ldpt < max1(n)))
        return -14;
    if (ldc < 1 || (wantc && ldc < max1(m)))
        return -16;
    return 0;
}

lapack_int gl_check_sbtrd(char vect, char uplo, int64_t n, int64_t kd,
                          int64_t ldab, int64_t ldq)
{
    int wantq = vect == 'V' || vect == 'U';

    if (!wantq && vect != 'N')
        return -1;
    if (!is_uplo(uplo))
        return -2;
    if (n < 0)
        return -3;
    if (kd < 0)
        return -4;
    if (ldab < kd + 1)
        return -6;
    if (wantq && ldq < max1(n))
        return -10;
    return 0;
}

lapack_int gl_check_sbev(char jobz, char uplo, int64_t n, int64_t kd,
                         int64_t ldab, int64_t ldz)
{
    int wantz = jobz == 'V';

    if (!(wantz || jobz == 'N'))
        return -1;
    if (!is_uplo(uplo))
        return -2;
    if (n < 0)
        return -3;
    if (kd < 0)
        return -4;
    if (ldab < kd + 1)
        return -6;
    if (ldz < 1 || (wantz && ldz < n))
        return -9;
    return 0;
}
