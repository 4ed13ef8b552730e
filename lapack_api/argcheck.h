/* LAPACK's argument checks, in LAPACK's order and with LAPACK's INFO values,
 * for every argument except the workspace lengths (LWORK, LIWORK, LRWORK,
 * LHOUS2), which depend on the precision and are checked by the path that
 * uses the workspace.  Job characters are passed upper-cased (gl_upper).
 * The checks are the same in all four precisions and for the Hermitian
 * versions, so they live in one place.  The sizes are int64_t so that the
 * INTEGERs of the ILP64 entry points are checked whole (an LP64 caller's
 * widen without change). */
#ifndef GL_ARGCHECK_H
#define GL_ARGCHECK_H

#include <stdint.h>

#include "../runtime/fortran.h"

lapack_int gl_check_gesvd(char jobu, char jobvt, int64_t m, int64_t n,
                          int64_t lda, int64_t ldu, int64_t ldvt);

lapack_int gl_check_gesdd(char jobz, int64_t m, int64_t n,
                          int64_t lda, int64_t ldu, int64_t ldvt);

/* ?syev, ?syevd and their _2stage forms (which accept only JOBZ='N'). */
lapack_int gl_check_syev(int two_stage, char jobz, char uplo, int64_t n,
                         int64_t lda);

/* ?syevr, ?syevx and their _2stage forms; vu_le_vl is VU <= VL. */
lapack_int gl_check_syevr(int two_stage, char jobz, char range, char uplo,
                          int64_t n, int64_t lda, int vu_le_vl,
                          int64_t il, int64_t iu, int64_t ldz);

lapack_int gl_check_sytrd(char uplo, int64_t n, int64_t lda);

lapack_int gl_check_sytrd_2stage(char vect, char uplo, int64_t n,
                                 int64_t lda);

lapack_int gl_check_gbbrd(char vect, int64_t m, int64_t n,
                          int64_t ncc, int64_t kl, int64_t ku,
                          int64_t ldab, int64_t ldq, int64_t ldpt,
                          int64_t ldc);

/* LDQ matters only when Q is wanted: the caller reads it only then, as
 * LAPACK does (C callers may pass NULL). */
lapack_int gl_check_sbtrd(char vect, char uplo, int64_t n, int64_t kd,
                          int64_t ldab, int64_t ldq);

/* ?sbev and ?sbevd. */
lapack_int gl_check_sbev(char jobz, char uplo, int64_t n, int64_t kd,
                         int64_t ldab, int64_t ldz);

#endif
