/* drivers.h - what the exported ScaLAPACK routines of one precision
 * share (-DGLS_PREC=0..3: s d c z): the element types, the names of the
 * precision's routines, and the workspace arguments with the real
 * routine's answers to its query (drivers.c: the eigensolvers, gesvd.c:
 * p?gesvd; docs/scalapack.md). */
#ifndef GLS_DRIVERS_H
#define GLS_DRIVERS_H

#include "gls.h"

#include <complex.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#if GLS_PREC == 0
typedef float scalar_t;
typedef float real_t;
#define PL "s"
#define EVS "syev"
#define EV(x) pssyev##x##_
#define GESVD psgesvd_
#elif GLS_PREC == 1
typedef double scalar_t;
typedef double real_t;
#define PL "d"
#define EVS "syev"
#define EV(x) pdsyev##x##_
#define GESVD pdgesvd_
#elif GLS_PREC == 2
typedef float _Complex scalar_t;
typedef float real_t;
#define PL "c"
#define EVS "heev"
#define EV(x) pcheev##x##_
#define GESVD pcgesvd_
#define GLS_COMPLEX 1
#else
typedef double _Complex scalar_t;
typedef double real_t;
#define PL "z"
#define EVS "heev"
#define EV(x) pzheev##x##_
#define GESVD pzgesvd_
#define GLS_COMPLEX 1
#endif

#ifdef GLS_COMPLEX
#define RE(x) ((double)creal(x))
#else
#define RE(x) ((double)(x))
#endif

#define QN 64   /* the query's arrays: the real routines write a few entries */
#define UP(c) ((char)((c) >= 'a' && (c) <= 'z' ? (c) - 32 : (c)))

static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }
/* A query's answer as a length: an answer past INT_MAX (the library's
 * true minimum of a call over GPULAPACK_LWORK_LIMIT, docs/large.md) is
 * no int; INT_MAX then, which the call refuses with LAPACK's INFO */
static inline int lwork_of(double v)
{
    return v < 1 ? 1 : v >= (double)INT_MAX ? INT_MAX : (int)(v + 0.5);
}


/* A driver's workspace arguments (NULL: the driver has none) and the real
 * routine's answers to its query, WORK(1), RWORK(1) and IWORK(1). */
typedef struct workspace {
    scalar_t *work;
    const int *lwork;
    real_t *rwork;
    const int *lrwork;
    int *iwork;
    const int *liwork;
    scalar_t qw[QN];
    real_t qr[QN];
    int qi[QN];
} workspace;

/* the caller asks for the workspace */
static inline int ws_query(const workspace *s)
{
    return *s->lwork == -1 || (s->lrwork && *s->lrwork == -1) ||
           (s->liwork && *s->liwork == -1);
}

/* after the real routine's muted query (its INFO): an invalid argument,
 * or a workspace below its answers, forwards the call */
static inline int ws_verdict(const workspace *s, int qinfo)
{
    if (qinfo != 0)
        return GLS_ARGS;
    if (*s->lwork < lwork_of(RE(s->qw[0])) ||
        (s->lrwork && *s->lrwork < lwork_of(s->qr[0])) ||
        (s->liwork && *s->liwork < s->qi[0]))
        return GLS_WORKSPACE;
    return 0;
}

/* a served call answers as the real routine would */
static inline void ws_answer(const workspace *s)
{
    s->work[0] = (scalar_t)RE(s->qw[0]);
    if (s->rwork)
        s->rwork[0] = s->qr[0];
    if (s->iwork)
        s->iwork[0] = s->qi[0];
}

#endif
