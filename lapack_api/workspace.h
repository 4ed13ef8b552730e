/* LAPACK's minimum workspace lengths (LWORK, LRWORK, LIWORK, LHOUS2) for
 * every option the real routine accepts, except where a _2stage routine
 * rejects an option itself:
 *
 *   ?gesvd  every JOBU, JOBVT in 'A', 'S', 'O', 'N' (not both 'O'), M >= N
 *           and M < N (complex: RWORK has the fixed length 5*MIN(M,N))
 *   ?gesdd  JOBZ = 'A', 'S', 'O' or 'N', M >= N and M < N (complex: LRWORK
 *           is not an argument)
 *   ?syev/?heev, ?syevd/?heevd, ?syevr/?heevr, ?syevx/?heevx
 *           JOBZ = 'N' or 'V' (any RANGE)
 *   ?sbevd/?hbevd  JOBZ = 'N' or 'V' (any KD)
 *   their _2stage forms and ?sytrd_2stage/?hetrd_2stage
 *           JOBZ (VECT) = 'N' only: LAPACK rejects 'V' with INFO = -1, and
 *           so the functions give 0 for it.
 *
 * The job characters are compared as LSAME does (either case); an invalid
 * one (or JOBU = JOBVT = 'O') gives 0.
 *
 * Each gl_workspace_* returns 1 when every workspace length given is at least
 * what the real routine (reference LAPACK 3.11, the strictest release since
 * 3.7.1) demands for these options, and 0 otherwise: then the entry point
 * forwards the call and the real routine reports the error.  A workspace
 * query (any of the lengths = -1) also gives 0; queries are handled before.
 * The sizes must already have passed the argcheck.h checks (M, N >= 0);
 * a negative M or N gives 0.
 *
 * The minimums are computed in 64-bit arithmetic, where LAPACK's INTEGER
 * formula overflows (26*N for N > 82 million, 2*N**2 for N > 32767): an
 * LP64 call whose minimum passes GPULAPACK_LWORK_LIMIT is handled by the
 * entry (entry_skeleton.h, docs/large.md), never forwarded short.
 *
 * Arguments:
 *   complex_  1 for c/z (?he*, ?hb*), 0 for s/d;
 *   prec      's', 'd', 'c' or 'z' (either case), for the routines whose
 *             minimum comes from ILAENV or ILAENV2STAGE (complex follows from
 *             it);
 *   jobz, vect, jobu, jobvt  the caller's job characters exactly as
 *             passed, NOT upper-cased: the _2stage routines hand JOBZ
 *             (VECT) as OPTS to ILAENV2STAGE, and LAPACK 3.11's
 *             IPARAM2STAGE compares it case-sensitively (VECT.EQ.'N'), so
 *             'n' needs IB more HOUS2 space than 'N'; ?gesvd hands
 *             JOBU // JOBVT to ILAENV(6);
 *   lrwork    ignored in real precisions (pass anything).
 *
 * The _2stage minimums depend on ILAENV2STAGE (KD, IB, and ILAENV's GEQRF/
 * GELQF block sizes; KD also on the OpenMP thread count in OpenMP builds),
 * so they are computed by calling the real ilaenv2stage_ (see workspace.c
 * for which one); if none is found the functions return 0, except where the
 * routine does not call ILAENV2STAGE at all (N <= 1 in ?syevd_2stage and
 * ?syevx_2stage).  The ?gesvd minimum depends on ILAENV(6) (the "M much
 * larger than N" crossover) when the long side's vectors are not wanted
 * (M >= N and JOBU = 'N', or M < N and JOBVT = 'N'): taken from the real
 * ilaenv_ when present and otherwise replaced by the documented general
 * minimum, which is never lower.  The ?gesdd crossovers are constants.
 *
 * ?sbev/?hbev, ?sbtrd/?hbtrd and ?gbbrd have no workspace-length argument
 * (their WORK/RWORK have fixed dimensions), so there is nothing to check. */
#ifndef GL_WORKSPACE_H
#define GL_WORKSPACE_H

#include <stdint.h>

#include "../runtime/fortran.h"

/* The lengths are int64_t, the widest INTEGER an entry point receives (an
 * ILP64 caller's LWORK may exceed 2^31 - 1); M and N must fit lapack_int,
 * which the entry points check first (gl_ints_fit). */

/* ?gesvd, any valid JOBU, JOBVT. */
int gl_workspace_gesvd(char prec, char jobu, char jobvt, int64_t m,
                       int64_t n, int64_t lwork);

/* ?gesdd, JOBZ = 'A', 'S', 'O' or 'N'. */
int gl_workspace_gesdd(int complex_, char jobz, int64_t m, int64_t n,
                       int64_t lwork);

/* ?syev/?heev (two_stage = 0), JOBZ 'N' or 'V', and ?syev_2stage/
 * ?heev_2stage (1), JOBZ = 'N'.  The same convention for the next three. */
int gl_workspace_syev(char prec, int two_stage, char jobz, int64_t n,
                      int64_t lwork);

/* ?syevd/?heevd and their _2stage forms. */
int gl_workspace_syevd(char prec, int two_stage, char jobz, int64_t n,
                       int64_t lwork, int64_t lrwork,
                       int64_t liwork);

/* ?syevr/?heevr and their _2stage forms, any RANGE. */
int gl_workspace_syevr(char prec, int two_stage, char jobz, int64_t n,
                       int64_t lwork, int64_t lrwork,
                       int64_t liwork);

/* ?syevx/?heevx and their _2stage forms, any RANGE. */
int gl_workspace_syevx(char prec, int two_stage, char jobz, int64_t n,
                       int64_t lwork);

/* ?sbevd/?hbevd, JOBZ 'N' or 'V' (the minimums do not depend on KD). */
int gl_workspace_sbevd(int complex_, char jobz, int64_t n,
                       int64_t lwork, int64_t lrwork, int64_t liwork);

/* ?sytrd_2stage/?hetrd_2stage, VECT = 'N'. */
int gl_workspace_sytrd_2stage(char prec, char vect, int64_t n,
                              int64_t lhous2, int64_t lwork);

/* The minimums themselves, computed as above (the same options, the same
 * ILAENV answers): 1 with them written, 0 where the functions above give 0
 * whatever the lengths (an invalid option, no ilaenv2stage_).  A minimum
 * with an N**2 term and N > 2^30 is given as INT64_MAX.  The order is the
 * routine's arguments': min[3] = LWORK, LRWORK, LIWORK (LRWORK: complex
 * only, yet always written); min[2] = LHOUS2, LWORK.  Used where a minimum
 * exceeds what an LP64 caller can pass (GPULAPACK_LWORK_LIMIT, docs/large.md). */
int gl_minimum_gesvd(char prec, char jobu, char jobvt, int64_t m, int64_t n,
                     int64_t *lwork);
int gl_minimum_gesdd(int complex_, char jobz, int64_t m, int64_t n,
                     int64_t *lwork);
int gl_minimum_syev(char prec, int two_stage, char jobz, int64_t n,
                    int64_t *lwork);
int gl_minimum_syevd(char prec, int two_stage, char jobz, int64_t n,
                     int64_t min[3]);
int gl_minimum_syevr(char prec, int two_stage, char jobz, int64_t n,
                     int64_t min[3]);
int gl_minimum_syevx(char prec, int two_stage, char jobz, int64_t n,
                     int64_t *lwork);
int gl_minimum_sbevd(int complex_, char jobz, int64_t n, int64_t min[3]);
int gl_minimum_sytrd_2stage(char prec, char vect, int64_t n, int64_t min[2]);

/* ?gesvd chooses its path by comparing LWORK with sums that have M*N and
 * N*N terms (dgesvd.f: LWORK.GE.N*N+MAX(4*N,BDSPAC), LDA*N+N, ...), in
 * the caller's INTEGERs: an LP64 LAPACK overflows them while its minimum
 * still fits, and takes a path whose workspace the array does not hold.
 * This bound of its largest path's workspace, MAX(LDA,M,N)*MIN(M,N) +
 * MIN(M,N)**2 + 5*MIN(M,N) + MAX(M,N), is what an LP64 call is taken to
 * need once it passes GPULAPACK_LWORK_LIMIT (docs/large.md). */
int64_t gl_gesvd_lp64_need(int64_t m, int64_t n, int64_t lda);

#endif
