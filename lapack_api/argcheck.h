/* LAPACK's argument checks, in LAPACK's order and with LAPACK's INFO values,
 * for every argument except the workspace lengths (LWORK, LIWORK, LRWORK,
 * LHOUS2), which depend on the precision and are checked by the path that
 * uses the workspace.  Job characters are passed upper-cased (gl_upper).
 * The checks are the same in all four precisions and for the Hermitian
 * versions, so they live in one place. */
#ifndef GL_ARGCHECK_H
#define GL_ARGCHECK_H

#include "../runtime/fortran.h"

lapack_int gl_check_gesvd(char jobu, char jobvt, lapack_int m, lapack_int n,
                          lapack_int lda, lapack_int ldu, lapack_int ldvt);

lapack_int gl_check_gesdd(char jobz, lapack_int m, lapack_int n,
                          lapack_int lda, lapack_int ldu, lapack_int ldvt);

/* ?syev, ?syevd and their _2stage forms (which accept only JOBZ='N'). */
lapack_int gl_check_syev(int two_stage, char jobz, char uplo, lapack_int n,
                         lapack_int lda);

/* ?syevr, ?syevx and their _2stage forms; vu_le_vl is VU <= VL. */
lapack_int gl_check_syevr(int two_stage, char jobz, char range, char uplo,
                          lapack_int n, lapack_int lda, int vu_le_vl,
                          lapack_int il, lapack_int iu, lapack_int ldz);

lapack_int gl_check_sytrd(char uplo, lapack_int n, lapack_int lda);

lapack_int gl_check_sytrd_2stage(char vect, char uplo, lapack_int n,
                                 lapack_int lda);

lapack_int gl_check_gbbrd(char vect, lapack_int m, lapack_int n,
                          lapack_int ncc, lapack_int kl, lapack_int ku,
                          lapack_int ldab, lapack_int ldq, lapack_int ldpt,
                          lapack_int ldc);

/* LDQ is read only when Q is wanted, as in LAPACK (C callers may pass NULL). */
lapack_int gl_check_sbtrd(char vect, char uplo, lapack_int n, lapack_int kd,
                          lapack_int ldab, const lapack_int *ldq);

/* ?sbev and ?sbevd. */
lapack_int gl_check_sbev(char jobz, char uplo, lapack_int n, lapack_int kd,
                         lapack_int ldab, lapack_int ldz);

#endif
