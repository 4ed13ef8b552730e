#!/usr/bin/python3
"""The exported LAPACK routines, declared once, and what is generated from
them.

The table below lists each routine family the library exports: its real
and complex names (syevd / heevd), whether LAPACK's _2stage form with the
same arguments is exported too, its arguments in order with their types
(the hidden CHARACTER lengths follow from the CHARACTER arguments), what
the entry's workspace query does with each, the arguments its log line
shows, and whether gpulapack-tune measures it.  From it this script
writes:

  lapack_api/generated/<family>.inc   included by lapack_api/<family>.c:
      the arguments (<family>_args), the real routine's type, forwarding,
      the workspace query and its optimal sizes, the log line's options,
      the entry (with its ILP64 wide hand-off) and the exported wrappers
      under all four names (dgesdd_, dgesdd_64_, scipy_dgesdd_,
      scipy_dgesdd_64_) of every precision;
  lapack_api/generated/exports.txt    the LAPACK names lib/libgpulapack.so
      exports (testing/unit/check_library.sh);
  runtime/families.def                each family's row as the policy and
      the tuning read it (runtime/family.h: its kind, whether the vendor's
      solvers compute it, whether a device set shares its stage 1, the
      family whose measurements it takes);
  tools/tune_families.inc             the families gpulapack-tune measures.

The output is committed; testing/unit/check_generated.sh runs this script
into a temporary directory and fails on any difference.

Usage: tools/routines.py [--out DIR]   (DIR: the repository root, default
the one this script is in)
"""
import argparse
import os
import sys
import textwrap

# ---- the table --------------------------------------------------------------
#
# An argument is "name type [role ...]":
#   type   char     CHARACTER*1        const char *   (a hidden length)
#          int      INTEGER, input     const gl_int *
#          int*     INTEGER array      gl_int *
#          real     REAL, input        const gl_real *
#          real*    REAL array         gl_real *
#          scalar*  the matrix type    gl_scalar *
#          info     INFO               gl_int *
#   roles  complex  only in the complex routines (cheevd's RWORK)
#          optimal  the workspace query returns its optimal size in (1),
#                   which our path writes back as the real routine would
#          query    a workspace length: -1 in the query
#          scratch  written by the query, which must not touch the
#                   caller's (M of ?syevr, ?syevx)
#          size=E   an INTEGER array of length E (C over a->), copied to 64
#                   bits for an ILP64 LAPACK (X_wide); with out, copied back
#          out      (with size=) the routine writes it (ISUPPZ, IFAIL)
# info: what INFO is on our path: "rc" the pipeline's return (0 or
# LAPACK's INFO > 0), "0" always 0.
# finish: lapack_api/<family>.c defines <family>_finish, which writes what
# the pipeline left (gesvd's E, the band of ?sbtrd, M of ?syevr/?syevx)
# and frees its scratch (entry_skeleton.h).
# tune: gpulapack-tune measures the family, in this order (0: not); the
# tool knows how to call ?syevd and ?gesdd (tools/gpulapack_tune.c).
# kind: what our path does with it (runtime/family.h): "eig" the ?syev
# family (a method per call: docs/design/methods.md), "svd", "tridiag"
# (?sytrd and ?sytrd_2stage), "band" (the band routines).
# vendor: the vendor's eigensolvers (cuSOLVER, rocSOLVER) compute the
# family's whole spectrum, so the vendor method may run it.
# tune_as: the family whose crossovers and methods it takes where it has
# none of its own (the siblings with the same stages 1 and 2; None: its
# own).
# shared_stage1: the devices of a set share its stage 1 as well as the
# back-transformation of its vectors (kernels/tiers/stage1_peers.c).


class Family:
    KINDS = ("eig", "svd", "tridiag", "band")

    def __init__(self, real, cplx, args, log, kind, info="rc",
                 two_stage=False, finish=False, tune=0, vendor=False,
                 tune_as=None, shared_stage1=False):
        self.real, self.cplx = real, cplx
        assert kind in self.KINDS, real
        self.kind = kind
        self.vendor = vendor
        self.tune_as = tune_as or real
        self.shared_stage1 = shared_stage1
        self.args = [Arg(a) for a in args]
        self.log = log.split()
        self.info = info
        self.two_stage = two_stage
        self.finish = finish
        self.tune = tune
        names = [a.name for a in self.args]
        assert len(set(names)) == len(names), real
        assert all(n in names for n in self.log), real
        assert names[-1] == "info" and self.args[-1].type == "info", real


class Arg:
    TYPES = {"char": "const char *", "int": "const gl_int *",
             "int*": "gl_int *", "real": "const gl_real *",
             "real*": "gl_real *", "scalar*": "gl_scalar *",
             "info": "gl_int *"}
    ROLES = {"complex", "optimal", "query", "scratch"}

    def __init__(self, text):
        words = text.split()
        self.name, self.type = words[0], words[1]
        # size=EXPR: an INTEGER array's length (C, of the arguments a->),
        # for its 64-bit copy on an ILP64 LAPACK (rule 2 of docs/large.md)
        self.size = next((w[5:] for w in words[2:] if w.startswith("size=")),
                         None)
        roles = {w for w in words[2:] if not w.startswith("size=")}
        self.out = "out" in roles
        roles.discard("out")
        assert self.type in self.TYPES, text
        assert roles <= self.ROLES, text
        self.complex = "complex" in roles
        self.role = next((r for r in ("optimal", "query", "scratch")
                          if r in roles), None)

    @property
    def ctype(self):
        return self.TYPES[self.type]


ROUTINES = [
    Family("gesvd", "gesvd",
           ["jobu char", "jobvt char", "m int", "n int", "a scalar*",
            "lda int", "s real*", "u scalar*", "ldu int", "vt scalar*",
            "ldvt int", "work scalar* optimal", "lwork int query",
            "rwork real* complex", "info info"],
           log="jobu jobvt m n", kind="svd", finish=True,
           tune_as="gesdd", shared_stage1=True),
    Family("gesdd", "gesdd",
           ["jobz char", "m int", "n int", "a scalar*", "lda int",
            "s real*", "u scalar*", "ldu int", "vt scalar*", "ldvt int",
            "work scalar* optimal", "lwork int query",
            "rwork real* complex", "iwork int* size=8*gl_min64(*a->m,*a->n)",
            "info info"],
           log="jobz m n", kind="svd", tune=2, shared_stage1=True),
    Family("syev", "heev",
           ["jobz char", "uplo char", "n int", "a scalar*", "lda int",
            "w real*", "work scalar* optimal", "lwork int query",
            "rwork real* complex", "info info"],
           log="jobz uplo n", kind="eig", two_stage=True, vendor=True,
           tune_as="syevd", shared_stage1=True),
    Family("syevd", "heevd",
           ["jobz char", "uplo char", "n int", "a scalar*", "lda int",
            "w real*", "work scalar* optimal", "lwork int query",
            "rwork real* complex optimal", "lrwork int complex query",
            "iwork int* optimal", "liwork int query", "info info"],
           log="jobz uplo n", kind="eig", two_stage=True, tune=1,
           vendor=True, shared_stage1=True),
    Family("syevr", "heevr",
           ["jobz char", "range char", "uplo char", "n int", "a scalar*",
            "lda int", "vl real", "vu real", "il int", "iu int",
            "abstol real", "m int* scratch", "w real*", "z scalar*",
            "ldz int", "isuppz int* size=2*gl_max64(1,*a->n) out",
            "work scalar* optimal",
            "lwork int query", "rwork real* complex optimal",
            "lrwork int complex query", "iwork int* optimal",
            "liwork int query", "info info"],
           log="jobz range uplo n", kind="eig", two_stage=True, finish=True,
           tune_as="syevd", shared_stage1=True),
    Family("syevx", "heevx",
           ["jobz char", "range char", "uplo char", "n int", "a scalar*",
            "lda int", "vl real", "vu real", "il int", "iu int",
            "abstol real", "m int* scratch", "w real*", "z scalar*",
            "ldz int", "work scalar* optimal", "lwork int query",
            "rwork real* complex", "iwork int* size=5*(int64_t)*a->n",
            "ifail int* size=*a->n out", "info info"],
           log="jobz range uplo n", kind="eig", two_stage=True, finish=True,
           tune_as="syevd", shared_stage1=True),
    Family("sytrd", "hetrd",
           ["uplo char", "n int", "a scalar*", "lda int", "d real*",
            "e real*", "tau scalar*", "work scalar* optimal",
            "lwork int query", "info info"],
           log="uplo n", kind="tridiag", info="0"),
    Family("sytrd_2stage", "hetrd_2stage",
           ["vect char", "uplo char", "n int", "a scalar*", "lda int",
            "d real*", "e real*", "tau scalar*", "hous2 scalar* optimal",
            "lhous2 int query", "work scalar* optimal", "lwork int query",
            "info info"],
           log="vect uplo n", kind="tridiag", info="0"),
    Family("gbbrd", "gbbrd",
           ["vect char", "m int", "n int", "ncc int", "kl int", "ku int",
            "ab scalar*", "ldab int", "d real*", "e real*", "q scalar*",
            "ldq int", "pt scalar*", "ldpt int", "c scalar*", "ldc int",
            "work scalar*", "rwork real* complex", "info info"],
           log="vect m n ncc kl ku", kind="band", info="0"),
    Family("sbtrd", "hbtrd",
           ["vect char", "uplo char", "n int", "kd int", "ab scalar*",
            "ldab int", "d real*", "e real*", "q scalar*", "ldq int",
            "work scalar*", "info info"],
           log="vect uplo n kd", kind="band", info="0", finish=True),
    Family("sbev", "hbev",
           ["jobz char", "uplo char", "n int", "kd int", "ab scalar*",
            "ldab int", "w real*", "z scalar*", "ldz int", "work scalar*",
            "rwork real* complex", "info info"],
           log="jobz uplo n kd", kind="band"),
    Family("sbevd", "hbevd",
           ["jobz char", "uplo char", "n int", "kd int", "ab scalar*",
            "ldab int", "w real*", "z scalar*", "ldz int",
            "work scalar* optimal", "lwork int query",
            "rwork real* complex optimal", "lrwork int complex query",
            "iwork int* optimal", "liwork int query", "info info"],
           log="jobz uplo n kd", kind="band"),
]

# ---- C text -----------------------------------------------------------------

HEADER = """\
/* Generated by tools/routines.py from its table of routines: edit the
 * table, not this file (testing/unit/check_generated.sh checks that it is
 * current). */"""


def comment(text, width=79):
    """text as a C comment of lines up to width columns."""
    lines = textwrap.wrap(text, width - 3, initial_indent="/* ",
                          subsequent_indent=" * ", break_on_hyphens=False)
    if len(lines[-1]) + 3 <= width:
        return "\n".join(lines) + " */"
    return "\n".join(lines) + "\n */"


def wrap(head, items, tail, indent="    ", width=79):
    """head item, item, ... tail, broken before an item that would pass
    width columns; items that are (text, complex) pairs go inside one
    GL_IF_COMPLEX( ... , ) each."""
    words = []
    for text, cplx in items:
        words.append(f"GL_IF_COMPLEX({text}, )" if cplx else text + ",")
    if words and not items[-1][1]:
        words[-1] = words[-1][:-1]
    lines, line = [], head
    for i, w in enumerate(words):
        sep = "" if line.endswith(("(", "{")) or line == indent else " "
        if len(line) + len(sep) + len(w) > width:
            lines.append(line.rstrip())
            line, sep = indent, ""
        line += sep + w
    if len(line) + len(tail) > width:
        lines.append(line.rstrip())
        line = indent
    lines.append(line + tail)
    return "\n".join(lines)


def signature(head, items):
    """A function's head, its parameters aligned after the parenthesis."""
    return wrap(head, [(i, False) for i in items], ")",
                indent=" " * len(head))


def merged(args):
    """(text, complex) items with adjacent complex-only ones merged into one
    GL_IF_COMPLEX, as the hand-written code had them."""
    out = []
    for text, cplx in args:
        if cplx and out and out[-1][1]:
            out[-1] = (out[-1][0] + ", " + text, True)
        else:
            out.append((text, cplx))
    return out


def params(f, lengths=True):
    items = [(f"{a.ctype}{a.name}", a.complex) for a in f.args]
    if lengths:
        items += [(f"gl_strlen {a.name}_len", False)
                  for a in f.args if a.type == "char"]
    return merged(items)


def spell(f, suffix, pattern):
    """The expanded names of a template's definition, for grep."""
    names = []
    for p in "sdcz":
        base = f.real if p in "sd" else f.cplx
        names.append(pattern.format(p=p, n=base + suffix))
    return " ".join(names)


def exported(f):
    forms = [("", f.real, f.cplx)]
    if f.two_stage:
        forms.append(("_2stage", f.real + "_2stage", f.cplx + "_2stage"))
    return forms


def struct(f):
    lines = [f"typedef struct {f.real}_args {{"]
    for a in f.args:
        decl = f"{a.ctype}{a.name};"
        lines.append(f"    GL_IF_COMPLEX({decl})" if a.complex else
                     f"    {decl}")
    if f.two_stage:
        lines.append("    int two_stage;    /* called as the _2stage form */")
    lines.append(f"}} {f.real}_args;")
    return "\n".join(lines)


def forward(f):
    r = f.real
    call = [("a->" + a.name, a.complex) for a in f.args]
    call += [("1", False) for a in f.args if a.type == "char"]
    body = wrap(f"    GL_FORWARD(routine, {r}_fn, a->info,",
                merged(call), ");", indent="               ")
    return (f"/* The real routine with the caller's arguments, the guard "
            f"raised. */\n"
            f"static void {r}_forward(gl_routine *routine, const void *args)\n"
            f"{{\n    const {r}_args *a = args;\n{body}\n}}")


def query(f):
    """The workspace query and the store of its optimal sizes; None, None
    for a routine without workspace lengths."""
    r = f.real
    subst = [a for a in f.args if a.role] + [f.args[-1]]
    if not any(a.role == "query" for a in subst):
        return None, None
    lines = []
    for a in subst:
        target = {"optimal": a.name, "query": "query", "scratch": a.name,
                  None: "info"}[a.role]
        stmt = f"q.{a.name} = &o->{target};"
        lines.append(f"    GL_IF_COMPLEX({stmt})" if a.complex else
                     f"    {stmt}")
    q = (comment("The real routine's workspace query (every length -1): "
                 "the optimal sizes into *o; nonzero when its INFO was.")
         + "\n"
         + signature(f"static int {r}_query(", ["gl_routine *routine",
                     "const void *args", "gl_optimal *o"]) + "\n{\n"
         f"    {r}_args q = *(const {r}_args *)args;\n"
         + "\n".join(lines) + "\n"
         f"    {r}_forward(routine, &q);\n"
         f"    return o->info != 0;\n}}")
    stores = []
    for a in f.args:
        if a.role == "optimal":
            stmt = f"a->{a.name}[0] = o->{a.name};"
            stores.append(f"    GL_IF_COMPLEX({stmt})" if a.complex else
                          f"    {stmt}")
    names = ", ".join(a.name.upper() + "(1)" for a in f.args
                      if a.role == "optimal")
    s = (comment(f"{names} on exit: the optimal sizes, as the real "
                 "routine's.") + "\n"
         f"static void {r}_optimal(const void *args, const gl_optimal *o)\n"
         f"{{\n    const {r}_args *a = args;\n"
         + "\n".join(stores) + "\n}")
    return q, s


def lengths(f):
    """The workspace lengths in LAPACK's order of checks (the arguments'),
    each with the INFO of its argument and the array its size is returned
    in; None for a routine without workspace lengths."""
    r = f.real
    kinds = {"scalar*": "GL_LENGTH_SCALAR", "real*": "GL_LENGTH_REAL",
             "int*": "GL_LENGTH_INT"}
    lines, pos_real, pos_cplx, last_optimal = [], 0, 0, None
    for a in f.args:
        pos_cplx += 1
        if not a.complex:
            pos_real += 1
        if a.role == "optimal":
            last_optimal = a
        if a.role != "query":
            continue
        info = (f"-{pos_cplx}" if a.complex or pos_real == pos_cplx
                else f"-GL_PICK({pos_real}, {pos_cplx})")
        out = last_optimal
        stmt = (f"l[k++] = (gl_length){{*a->{a.name}, {info}, "
                f"{kinds[out.type]}, a->{out.name}}};")
        lines.append(f"    GL_IF_COMPLEX({stmt})" if a.complex else
                     f"    {stmt}")
    if not lines:
        return None
    return (comment("The workspace lengths in LAPACK's order of checks: the "
                    "caller's value, the INFO LAPACK gives when it is too "
                    "small, the array (1) of which the query returns the "
                    "size in (docs/large.md).  Returns how many.") + "\n"
            f"static int {r}_lengths(const void *args, gl_length *l)\n"
            f"{{\n    const {r}_args *a = args;\n    int k = 0;\n"
            + "\n".join(lines) + "\n    return k;\n}")


def wide(f):
    """The call on an ILP64 LAPACK with the library's own workspace (rule 2
    of docs/large.md); None for a routine without workspace lengths."""
    r = f.real
    if not any(a.role == "query" for a in f.args):
        return None
    lens, decl, frees, call, back = [], [], [], [], []
    ok = []
    optimal_of = {}
    last = None
    for a in f.args:
        if a.role == "optimal":
            last = a
        if a.role == "query":
            optimal_of[last.name] = a.name

    def cx(a, text):
        return f"GL_IF_COMPLEX({text})" if a.complex else text

    for a in f.args:
        w = "w_" + a.name
        if a.type == "char":
            call.append((f"a->{a.name}", a.complex))
        elif a.type == "int" and a.role == "query":
            lens.append(cx(a, f"int64_t {w} = min[k++];"))
            call.append(("&" + w, a.complex))
        elif a.type == "int":
            decl.append(cx(a, f"int64_t {w} = *a->{a.name};"))
            call.append(("&" + w, a.complex))
        elif a.type == "info":
            decl.append(f"int64_t {w} = 0;")
            call.append(("&" + w, False))
            back.append(f"*a->info = (gl_int){w};")
        elif a.role == "scratch":   # M of ?syevr, ?syevx: one INTEGER
            decl.append(f"int64_t {w} = 0;")
            call.append(("&" + w, a.complex))
            back.append(f"*a->{a.name} = (gl_int){w};")
        elif a.name in optimal_of:   # sized by a workspace length: ours
            n = "w_" + optimal_of[a.name]
            t = {"scalar*": "gl_scalar", "real*": "gl_real",
                 "int*": "int64_t"}[a.type]
            decl.append(cx(a, f"{t} *{w} = malloc(sizeof *{w} * "
                              f"(size_t)({n} > 0 ? {n} : 1));"))
            ok.append((w, a.complex))
            frees.append(cx(a, f"free({w});"))
            call.append((w, a.complex))
        elif a.type == "int*":
            assert a.size, (f.real, a.name)
            decl.append(cx(a, f"size_t n_{a.name} = (size_t)({a.size});"))
            decl.append(cx(a, f"int64_t *{w} = calloc(n_{a.name} > 0 ? "
                              f"n_{a.name} : 1, sizeof *{w});"))
            ok.append((w, a.complex))
            frees.append(cx(a, f"free({w});"))
            call.append((w, a.complex))
            if a.out:
                back.append(cx(a, f"for (size_t i = 0; i < n_{a.name}; i++) "
                                  f"a->{a.name}[i] = (gl_int){w}[i];"))
        else:                        # the caller's own arrays
            call.append((f"a->{a.name}", a.complex))
    call += [("1", False) for a in f.args if a.type == "char"]
    cond = " && ".join(f"{w} != NULL" for w, c in ok if not c) or "1"
    cplx_ok = [w for w, c in ok if c]
    body = ["    const %s_args *a = args;" % r, "    int k = 0, rc = -1;"]
    body += ["    " + d for d in lens + decl]
    test = f"    int have = {cond};"
    body.append(test)
    for w in cplx_ok:
        body.append(f"    GL_IF_COMPLEX(have = have && {w} != NULL;)")
    invoke = wrap("        ((void (*)())fn)(", merged(call), ");",
                  indent="            ")
    body.append("    if (have) {\n" + invoke + "\n" +
                "\n".join("        " + b for b in back) +
                "\n        rc = 0;\n    }")
    body += ["    " + x for x in frees]
    body.append("    (void)k;\n    return rc;")
    return (comment("The call on an ILP64 LAPACK's routine fn (64-bit "
                    "INTEGERs, rule 2 of docs/large.md): the arrays of the "
                    "workspace lengths the library's own, of the minimums "
                    "min (in the order of the lengths), the INTEGER arrays "
                    "copied to and from 64 bits.  0 when it ran (its INFO "
                    "in INFO), -1 when memory was short.") + "\n"
            f"static int {r}_wide(void *fn, const void *args, "
            f"const int64_t *min)\n{{\n" + "\n".join(body) + "\n}")


def describe(f):
    r = f.real
    by = {a.name: a for a in f.args}
    fmt = " ".join(f"{n}=%c" if by[n].type == "char" else f"{n}=%d"
                   for n in f.log)
    vals = [(f"gl_logchar(a->{n})" if by[n].type == "char"
             else f"(int)*a->{n}", False) for n in f.log]
    call = wrap(f'    snprintf(options, size, "{fmt}",', vals, ");",
                indent="             ")
    return (f"/* The call's options in the log line. */\n"
            f"static void {r}_describe(const void *args, char *options, "
            f"size_t size)\n{{\n    const {r}_args *a = args;\n{call}\n}}")


def spec(f, q, ls):
    r = f.real
    finish = f"{r}_finish" if f.finish else "NULL"
    return (f"static const GL_FN(entry_spec) {r}_spec = {{\n"
            f"    .request = {r}_request,\n"
            f"    .forward = {r}_forward,\n"
            f"    .query = {r + '_query' if q else 'NULL'},\n"
            f"    .optimal = {r + '_optimal' if q else 'NULL'},\n"
            f"    .run = {r}_run,\n"
            f"    .finish = {finish},\n"
            f"    .describe = {r}_describe,\n"
            f"    .info_is_rc = {1 if f.info == 'rc' else 0},\n"
            f"    .lengths = {r + '_lengths' if ls else 'NULL'},\n"
            f"    .minimums = {r + '_minimums' if ls else 'NULL'},\n"
            f"    .wide = {r + '_wide' if ls else 'NULL'},\n"
            f"    .family = {family_id(f)},\n}};")


def entry(f):
    r = f.real
    return (f"/* Every name's entry: a plain name over an ILP64 LAPACK goes "
            f"to the ILP64\n * compilation's (GL_TO_WIDE_ENTRY), the rest "
            f"to the skeleton. */\n"
            + signature(f"static void {r}_entry(", ["gl_routine *routine",
                        f"const {r}_args *args"]) +
            f"\n{{\n    GL_TO_WIDE_ENTRY({r}_entry, routine, args);\n"
            f"    GL_FN(entry)(routine, &{r}_spec, args, args->info);\n}}\n"
            + comment(spell(f, '', 'gl_{p}_' + r + '_entry_wide')) + "\n"
            + f"GL_WIDE_ENTRY({r}_entry);")


def family_id(f):
    return "GL_FAMILY_" + f.real.upper()


def routines(f):
    out = []
    for suffix, real, cplx in exported(f):
        init = "GL_ROUTINE_INIT_2STAGE" if suffix else "GL_ROUTINE_INIT"
        for scipy in ("", "scipy_"):
            var = f"{f.real}{suffix}{'_scipy' if scipy else ''}_routine"
            macro = "GL_SCIPY_STR" if scipy else "GL_LAPACK_STR"
            out.append(f"static gl_routine {var} =\n"
                       f"    {init}({macro}({real}, {cplx}));")
    return "\n".join(out)


def wrappers(f):
    out = []
    lengths = [a.name + "_len" for a in f.args if a.type == "char"]
    for stage, (suffix, real, cplx) in enumerate(exported(f)):
        for scipy in ("", "scipy_"):
            var = f"{f.real}{suffix}{'_scipy' if scipy else ''}_routine"
            macro = "GL_SCIPY_NAME" if scipy else "GL_LAPACK_NAME"
            n1 = spell(f, suffix, scipy + "{p}{n}_")
            n2 = spell(f, suffix, scipy + "{p}{n}_64_")
            head = wrap(f"GL_EXPORT void {macro}({real}, {cplx})(",
                        params(f), ")")
            init = [(a.name, a.complex) for a in f.args]
            if f.two_stage:
                init.append((str(stage), False))
            init = wrap(f"    {f.real}_args args = {{", merged(init), "};",
                        indent="        ")
            unused = ", ".join(f"(void){n}" for n in lengths)
            out.append(f"/* {n1}\n * {n2} */\n{head}\n{{\n{init}\n"
                       f"    {unused};\n    {f.real}_entry(&{var}, &args);\n}}")
    return "\n\n".join(out)


def family_inc(f):
    r = f.real
    q, store = query(f)
    ls = lengths(f)
    fn = wrap(f"typedef void {r}_fn(", params(f), ");",
              indent=" " * (len(r) + 17))
    parts = [
        HEADER,
        comment(f"?{f.real}{' / ?' + f.cplx if f.cplx != f.real else ''}"
                f"{' and the _2stage forms' if f.two_stage else ''}: the "
                "arguments as every exported name receives them (less the "
                "hidden CHARACTER lengths).") + "\n" + struct(f),
        "/* The real routine (the hidden lengths last). */\n" + fn,
        comment(f"lapack_api/{r}.c: LAPACK's checks and what the policy "
                "needs, our pipeline" + (", what it writes after an "
                "accepted run" if f.finish else "") +
                (", LAPACK's minimum of each workspace length (in 64 bits,"
                 " in the order of the lengths)" if ls else "") +
                " (entry_skeleton.h).") + "\n"
        f"static gl_request {r}_request(const void *args);\n"
        f"static int {r}_run(const GL_FN(ops) *ops, "
        f"const gl_call_plan *plan,\n"
        f"{' ' * (len(r) + 16)}const void *args, gl_scratch *scratch,\n"
        f"{' ' * (len(r) + 16)}gl_stage_times *t);"
        + (f"\nstatic void {r}_finish(const void *args, gl_scratch *scratch,"
           f"\n{' ' * (len(r) + 20)}int accepted);" if f.finish else "")
        + (f"\nstatic int {r}_minimums(const void *args, int64_t *min);"
           if ls else ""),
        forward(f),
    ]
    if q:
        parts += [q, store]
    if ls:
        parts += [ls, wide(f)]
    parts += [describe(f), spec(f, q, ls), routines(f), entry(f),
              wrappers(f)]
    return "\n\n".join(parts) + "\n"


def exports_txt():
    lines = ["# Generated by tools/routines.py: the LAPACK names "
             "lib/libgpulapack.so exports",
             "# (testing/unit/check_library.sh adds the gpulapack_ C API)."]
    for p in "sdcz":
        for f in ROUTINES:
            for suffix, real, cplx in exported(f):
                base = p + (real if p in "sd" else cplx)
                for name in (f"{base}_", f"{base}_64_", f"scipy_{base}_",
                             f"scipy_{base}_64_"):
                    lines.append(name)
    return "\n".join(lines) + "\n"


def families_def():
    """The families' rows for runtime/family.h, in the table's order."""
    by_name = {f.real: f for f in ROUTINES}
    lines = [HEADER, "",
             comment("The routine families (runtime/family.h): "
                     "GL_FAMILY_ROW(ID, real name, complex name, kind, "
                     "_2stage form exported, the vendor's solvers compute "
                     "it, a device set shares its stage 1, the family "
                     "whose measurements it takes).")]
    for f in ROUTINES:
        assert f.tune_as in by_name, (f.real, f.tune_as)
        fields = [f.real.upper(), f'"{f.real}"', f'"{f.cplx}"',
                  f.kind.upper(), str(int(f.two_stage)), str(int(f.vendor)),
                  str(int(f.shared_stage1)), f.tune_as.upper()]
        lines.append(wrap("GL_FAMILY_ROW(", [(x, False) for x in fields],
                          ")", indent=" " * 14))
    return "\n".join(lines) + "\n"


def tune_inc():
    tuned = sorted((f for f in ROUTINES if f.tune), key=lambda f: f.tune)
    names = [f.real for f in tuned]
    return (HEADER +
            "\n\n/* The routine families gpulapack-tune measures, in order "
            "(the table's tune:\n * it knows how to call ?syevd and ?gesdd), "
            "and their runtime/family.h ids. */\n"
            f'#define GL_TUNE_FAMILIES "{",".join(names)}"\n'
            f"#define GL_TUNE_FAMILY_IDS "
            + ", ".join(family_id(f) for f in tuned) + "\n")


def outputs():
    files = {os.path.join("lapack_api", "generated", f.real + ".inc"):
             family_inc(f) for f in ROUTINES}
    files[os.path.join("lapack_api", "generated", "exports.txt")] = \
        exports_txt()
    files[os.path.join("runtime", "families.def")] = families_def()
    files[os.path.join("tools", "tune_families.inc")] = tune_inc()
    return files


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=root,
                        help="the root the files are written under")
    out = parser.parse_args().out
    for path, text in sorted(outputs().items()):
        full = os.path.join(out, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
