/* LAPACK's minimum workspace lengths (LWORK, LRWORK, LIWORK, LHOUS2) for the
 * VALUES-ONLY options that our own path serves:
 *
 *   ?gesvd  JOBU = JOBVT = 'N'        ?gesdd  JOBZ = 'N'
 *   ?syev/?heev, ?syevd/?heevd, ?syevr/?heevr, ?syevx/?heevx  JOBZ = 'N'
 *       (RANGE 'A', 'V' or 'I') and their _2stage forms
 *   ?sbevd/?hbevd  JOBZ = 'N'         ?sytrd_2stage/?hetrd_2stage  VECT = 'N'
 *
 * Each gl_workspace_* returns 1 when every workspace length given is at least
 * what the real routine (reference LAPACK 3.11, the strictest release since
 * 3.7.1) demands for these options, and 0 otherwise: then the entry point
 * forwards the call and the real routine reports the error.  A workspace
 * query (any of the lengths = -1) also gives 0; queries are handled before.
 * The sizes must already have passed the argcheck.h checks (M, N >= 0);
 * a negative M or N gives 0.
 *
 * The minimums are computed in 64-bit arithmetic: where LAPACK's INTEGER
 * formula would overflow (26*N for N > 82 million) we forward.
 *
 * Arguments:
 *   complex_  1 for c/z (?he*, ?hb*), 0 for s/d;
 *   prec      's', 'd', 'c' or 'z' (either case), for the routines whose
 *             minimum comes from ILAENV or ILAENV2STAGE (complex follows from
 *             it);
 *   jobz, vect  the caller's JOBZ (VECT) character exactly as passed, NOT
 *             upper-cased: the _2stage routines hand it as OPTS to
 *             ILAENV2STAGE, and LAPACK 3.11's IPARAM2STAGE compares it
 *             case-sensitively (VECT.EQ.'N'), so 'n' needs IB more HOUS2
 *             space than 'N'.  Ignored for the one-stage routines;
 *   lrwork    ignored in real precisions (pass anything).
 *
 * The _2stage minimums depend on ILAENV2STAGE (KD, IB, and ILAENV's GEQRF/
 * GELQF block sizes; KD also on the OpenMP thread count in OpenMP builds),
 * so they are computed by calling the real ilaenv2stage_ (see workspace.c
 * for which one); if none is found the functions return 0, except where the
 * routine does not call ILAENV2STAGE at all (N <= 1 in ?syevd_2stage and
 * ?syevx_2stage).  The ?gesvd minimum depends on ILAENV(6) (the "M much
 * larger than N" crossover), taken from the real ilaenv_ when present and
 * otherwise replaced by the documented general minimum.
 *
 * ?sbev/?hbev, ?sbtrd/?hbtrd and ?gbbrd have no workspace-length argument
 * (their WORK/RWORK have fixed dimensions), so there is nothing to check. */
#ifndef GL_WORKSPACE_H
#define GL_WORKSPACE_H

#include "fortran.h"

/* ?gesvd, JOBU = JOBVT = 'N'. */
int gl_workspace_gesvd(char prec, lapack_int m, lapack_int n,
                       lapack_int lwork);

/* ?gesdd, JOBZ = 'N'. */
int gl_workspace_gesdd(int complex_, lapack_int m, lapack_int n,
                       lapack_int lwork);

/* ?syev/?heev (two_stage = 0) and ?syev_2stage/?heev_2stage (1), JOBZ = 'N'. */
int gl_workspace_syev(char prec, int two_stage, char jobz, lapack_int n,
                      lapack_int lwork);

/* ?syevd/?heevd and their _2stage forms, JOBZ = 'N'. */
int gl_workspace_syevd(char prec, int two_stage, char jobz, lapack_int n,
                       lapack_int lwork, lapack_int lrwork,
                       lapack_int liwork);

/* ?syevr/?heevr and their _2stage forms, JOBZ = 'N', any RANGE. */
int gl_workspace_syevr(char prec, int two_stage, char jobz, lapack_int n,
                       lapack_int lwork, lapack_int lrwork,
                       lapack_int liwork);

/* ?syevx/?heevx and their _2stage forms, JOBZ = 'N', any RANGE. */
int gl_workspace_syevx(char prec, int two_stage, char jobz, lapack_int n,
                       lapack_int lwork);

/* ?sbevd/?hbevd, JOBZ = 'N' (the minimums do not depend on KD). */
int gl_workspace_sbevd(int complex_, lapack_int n, lapack_int lwork,
                       lapack_int lrwork, lapack_int liwork);

/* ?sytrd_2stage/?hetrd_2stage, VECT = 'N'. */
int gl_workspace_sytrd_2stage(char prec, char vect, lapack_int n,
                              lapack_int lhous2, lapack_int lwork);

#endif
