/* The routine families the library exports, as data: one row each in
 * tools/routines.py's table, generated into runtime/families.def.  The
 * policy (lapack_api/entry.c), the C API's plan question
 * (lapack_api/plan.c) and the tuning (runtime/tune.c, tune_file.c) read
 * what a family is from its row, never from its name: a new family is a
 * row there and a file in lapack_api/. */
#ifndef GL_FAMILY_H
#define GL_FAMILY_H

/* What our path does with a family: the ?syev family, whose GPU paths
 * choose a method per call (docs/design/methods.md); the SVD; ?sytrd
 * and ?sytrd_2stage; the band routines. */
typedef enum gl_family_kind {
    GL_KIND_EIG,
    GL_KIND_SVD,
    GL_KIND_TRIDIAG,
    GL_KIND_BAND,
} gl_family_kind;

/* GL_FAMILY_GESVD, GL_FAMILY_SYEVD, ...: the rows in the table's order. */
typedef enum gl_family_id {
#define GL_FAMILY_ROW(id, ...) GL_FAMILY_##id,
#include "families.def"
#undef GL_FAMILY_ROW
    GL_FAMILIES
} gl_family_id;

typedef struct gl_family {
    gl_family_id id;
    const char *real_name;        /* without the precision letter, in the
                                     real precisions: "syevd" ... */
    const char *complex_name;     /* ... and in the complex: "heevd" */
    gl_family_kind kind;
    int two_stage;                /* the _2stage form is exported too */
    int vendor;                   /* the vendor's eigensolvers compute it
                                     (the whole spectrum): the vendor
                                     method may run it */
    int shared_stage1;            /* a device set shares its stage 1, not
                                     only its vectors' back-transformation */
    gl_family_id tune_as;         /* the family whose measurements it
                                     takes where it has none (itself) */
} gl_family;

extern const gl_family gl_families[GL_FAMILIES];

/* The routine a call names: its family, precision letter ('s', 'd', 'c',
 * 'z') and form (the _2stage name or the plain one).  The crossovers and
 * methods are keyed by it. */
typedef struct gl_call_name {
    const gl_family *family;
    char precision;
    int two_stage;
} gl_call_name;

/* 1 for the complex precisions ('c', 'z'). */
static inline int gl_call_name_complex(const gl_call_name *name)
{
    return name->precision == 'c' || name->precision == 'z';
}

/* The family's name in the call's precision, without the letter:
 * "heevd" for zheevd and zheevd_2stage. */
static inline const char *gl_call_name_family(const gl_call_name *name)
{
    return gl_call_name_complex(name) ? name->family->complex_name
                                      : name->family->real_name;
}

/* The LAPACK name ("zheevd_2stage") into buf; returns buf. */
const char *gl_call_name_text(const gl_call_name *name, char *buf,
                              unsigned size);

/* The call name of a LAPACK routine's name without prefix or suffix
 * ("dsyevd", "zheevd_2stage"; gl_routine_base strips "scipy_" and
 * "_64"): 1, or 0 for a name that is not one of the table's in that
 * precision ("zsyevd", "dgesvd_2stage"). */
int gl_call_name_parse(const char *base, gl_call_name *out);

#endif
