#!/usr/bin/python3
"""Run LAPACK's EIG testing suite (Debian liblapack-test, xeigtst[sdcz]) with and
without libgpulapack.so preloaded, and report every difference.

For each LAPACK flavour (reference LAPACK + reference BLAS, or OpenBLAS), each
precision and each EIG input, xeigtst is run once without the library
(baseline, cached in --out) and once with LD_PRELOAD=<lib>.  One verdict line
per (flavour, precision, input) is printed at the end:

    PASS lapack-suite/<flavour>/<p>/<input>
    FAIL lapack-suite/<flavour>/<p>/<input>: <reason>

Python 3 standard library only.  See README.md next to this file.
"""

import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

DEFAULT_TEST_DIR = "/usr/lib/x86_64-linux-gnu/lapack"
ARCH_LIB = "/usr/lib/x86_64-linux-gnu"

# LD_LIBRARY_PATH per flavour.  Both are explicit: the system default
# (/etc/alternatives) may point liblapack.so.3 at either of them.
FLAVOURS = {
    "ref": [ARCH_LIB + "/lapack", ARCH_LIB + "/blas"],
    "openblas": [ARCH_LIB + "/openblas-pthread"],
}

PRECISIONS = "sdcz"

# EIG inputs in LAPACK's own order (TESTING/CMakeLists.txt); "{p}" is the
# precision letter.
EIG_INPUTS = ["nep", "sep", "se2", "svd", "{p}ec", "{p}ed", "{p}gg", "{p}gd",
              "{p}sb", "{p}sg", "{p}bal", "{p}bak", "{p}gbal", "{p}gbak",
              "{p}bb", "glm", "gqr", "gsv", "csd", "lse"]

# Inputs whose test programs call routines exported by libgpulapack directly
# (TESTING/EIG sources), or through the system LAPACK (sg: ?sygv -> ?syev,
# ?sygvd -> ?syevd, ...): a preloaded run of these must log calls.
EXPECT_CALLS = {
    "svd": "?gesvd/?gesdd (xDRVBD, xERRED)",
    "sep": "?syev*/?heev*, ?sytrd/?hetrd, ?sbev* (xCHKST, xDRVST, xERRST)",
    "se2": "*_2stage (xCHKST2STG, xDRVST2STG, xERRST)",
    "{p}sb": "?sbtrd/?hbtrd (xCHKSB2STG, xERRST)",
    "{p}bb": "?gbbrd (xCHKBB)",
    "{p}sg": "?syev*/?heev* inside ?sygv*/?hegv* (xDRVSG2STG)",
    "{p}gd": "?gesvd (xDRGSX)",
}

# Rough cost of each input, used to start the long jobs first.
COST = {"svd": 40, "{p}ec": 30, "{p}ed": 8, "sep": 5, "se2": 5, "{p}sg": 5,
        "{p}gd": 3, "nep": 2, "{p}gg": 1}

# xeigtst path names (first three characters of an input's first line) that
# are EIG tests, used to discover inputs that the list above does not know.
EIG_PATHS = {"NEP", "SEP", "SE2", "SVD", "GLM", "GQR", "GSV", "CSD", "LSE"}
EIG_PPATHS = {"EC", "ES", "EV", "VX", "SX", "GG", "GS", "GV", "GX", "XV",
              "SB", "HB", "SG", "BL", "BK", "GL", "GK", "BB", "BD", "BS", "ED",
              "DMD"}

LOG_LINE = re.compile(r"^gpulapack:\s+(\S+)\s.*?\bpath=(\S+)")
LOG_INFO = re.compile(r"\binfo=(-?\d+)")
LOG_REASON = re.compile(r"\breason=(\S+)")
# --expect-path applies to every logged call of an exported routine: our
# own path serves every option.
# Reasons that leave even a served call with the real LAPACK legitimately:
# invalid arguments, workspace queries, calls from inside LAPACK, trivial
# sizes (n < 2 is answered by LAPACK), Inf/NaN input, routines the run
# forwards on purpose (GPULAPACK_DISABLE).
LOG_EXEMPT = {"args", "query", "nested", "nonfinite", "disabled"}

print_lock = threading.Lock()


def progress(args, msg):
    if not args.quiet:
        with print_lock:
            sys.stderr.write(msg + "\n")
            sys.stderr.flush()


# --------------------------------------------------------------------------
# Parsing xeigtst output
# --------------------------------------------------------------------------

RE_TESTS_RUN = re.compile(r"\(\s*(\d+)\s+tests run\)")
RE_OUT_OF = re.compile(r"([\d*]+)\s+out of\s+([\d*]+)\s+tests failed")
RE_ERRS_RECORDED = re.compile(r"(\d+)\s+error messages recorded")
RE_EE_PASS = re.compile(r"passed the tests of the error exits"
                        r"(?:\s*\(\s*(\d+)\s+tests done\))?")
RE_SYL_FAIL = re.compile(r"Error in \w+:\s*(\d+)\s+tests fail the threshold")
RE_EC_ERROR = re.compile(r"^\s*Error in (\w+)")
RE_RATIO = re.compile(r"(test\(\s*\d+\)\s*=|result\s+\d+\s+is|ratio\s*=)"
                      r".*$")
RE_FLOAT = re.compile(r"[-+]?(?:\d+\.\d+|\.\d+)(?:[DdEe]?[-+]\d+)?"
                      r"|[-+]?\d+\.[DdEe][-+]?\d+")
RE_BLOCK = re.compile(r"^\s*[A-Z0-9]{3}:\s+(NB|NRHS)\s*=")
RE_TESTS_OF = re.compile(r"^\s*Tests of ")
RE_CONT = re.compile(r"^\s+(N|M)=")
RE_BALBAK_HDR = re.compile(r"\.\. test output of (\w+)")
RE_BALBAK_RMAX = re.compile(r"value of largest test error\s*=\s*(\S+)")
RE_BALBAK_NINFO = re.compile(r"number of examples where info is not 0\s*=\s*"
                             r"(\d+)")
RE_BALBAK_KNT = re.compile(r"total number of examples tested\s*=\s*(\d+)")


def fortran_float(text):
    t = text.strip().replace("D", "E").replace("d", "e")
    # 0.123-307 (exponent without letter)
    t = re.sub(r"(\d)([-+]\d+)$", r"\1E\2", t)
    try:
        return float(t)
    except ValueError:
        return float("inf")


def fortran_int(text):
    return int(text) if text.isdigit() else None


def normalise(line):
    """A failure line without the measured values, so that the same failing
    test matches in two runs even if its ratio differs."""
    s = " ".join(line.split())
    s = RE_RATIO.sub(lambda m: " ".join(m.group(1).split()) + " #", s)
    s = RE_FLOAT.sub("#", s)
    return s


def parse_output(text):
    """Counts and failure lines of one xeigtst output."""
    r = {
        "run": 0, "fail": 0, "illegal": 0, "info": 0,
        "ee_pass": 0, "ee_tests": 0, "ee_fail": 0,
        "end": False, "overflow": False,
        "balbak": [],          # [{"name", "rmax", "ninfo", "knt"}]
        "failures": [],        # normalised failure lines, in order
    }
    lines = text.splitlines()
    context = ""
    balbak = None
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        s = line.strip()
        if not s:
            continue
        if "End of tests" in s:
            r["end"] = True
        if RE_BLOCK.match(line):
            context = " ".join(s.split())
        elif RE_TESTS_OF.match(line):
            context = " ".join(s.split())
            # "Tests of the ... Driver" / "    DGEEV (...)": the routine name
            # is on the next line.
            if i < len(lines) and lines[i].startswith("    ") and \
                    lines[i].strip():
                context += " " + " ".join(lines[i].split())

        m = RE_TESTS_RUN.search(s)
        if m:
            r["run"] += int(m.group(1))
        failure = False
        m = RE_OUT_OF.search(s)
        if m:
            nf, nr = fortran_int(m.group(1)), fortran_int(m.group(2))
            if nf is None or nr is None:
                r["overflow"] = True
            r["fail"] += nf if nf is not None else 10000
            r["run"] += nr if nr is not None else 0
            failure = True
        m = RE_SYL_FAIL.search(s)
        if m:
            r["fail"] += int(m.group(1))
            failure = True
        elif RE_EC_ERROR.match(line) or "compute an inconsistent" in s:
            r["fail"] += 1
            failure = True
        if RE_RATIO.search(s) and ("seed=" in s or "type" in s
                                   or "example" in s or "Type=" in s):
            failure = True

        if "illegal" in s or "Illegal" in s:
            r["illegal"] += 1
            failure = True
        if " INFO" in line or "Error code from" in s:
            r["info"] += 1
            failure = True
        m = RE_ERRS_RECORDED.search(s)
        if m:
            r["info"] += int(m.group(1))
            failure = True

        m = RE_EE_PASS.search(s)
        if m:
            r["ee_pass"] += 1
            if m.group(1):
                r["ee_tests"] += int(m.group(1))
        if ("failed the tests of the error exits" in s
                or "not detected by" in s or "XERBLA was called" in s):
            r["ee_fail"] += 1
            failure = True
        if "***" in s:
            failure = True

        # ?GEBAL/?GEBAK/?GGBAL/?GGBAK checkers print a small table.
        m = RE_BALBAK_HDR.search(s)
        if m:
            balbak = {"name": m.group(1), "rmax": 0.0, "ninfo": 0, "knt": 0}
            r["balbak"].append(balbak)
        if balbak is not None:
            m = RE_BALBAK_RMAX.search(s)
            if m:
                balbak["rmax"] = fortran_float(m.group(1))
            m = RE_BALBAK_NINFO.search(s)
            if m:
                balbak["ninfo"] = int(m.group(1))
                r["info"] += int(m.group(1))
                if int(m.group(1)):
                    r["failures"].append(normalise(
                        "%s: info not 0 / ILO,IHI wrong in %s examples"
                        % (balbak["name"], m.group(1))))
            m = RE_BALBAK_KNT.search(s)
            if m:
                balbak["knt"] = int(m.group(1))
                r["run"] += int(m.group(1))

        if failure:
            full = s
            # "X: Y returned INFO=..." continues on the next line.
            if ("returned INFO=" in s and i < len(lines)
                    and RE_CONT.match(lines[i])):
                full += " " + lines[i].strip()
                i += 1
            key = normalise(full)
            if context:
                key = "[" + normalise(context) + "] " + key
            r["failures"].append(key)
    return r


# The ?syev family (the routines with a method, docs/design/methods.md).
EIG_FAMILY = re.compile(r"^(scipy_)?[sdcz](sy|he)ev")
LOG_METHOD = re.compile(r"\bmethod=(\S+)")


def count_log(lines, expect_path, expect_method=None):
    res = {"calls": 0, "routines": collections.Counter(),
           "paths": collections.Counter(), "other": 0, "violations": 0,
           "violation_examples": collections.Counter(),
           "methods": collections.Counter(), "method_violations": 0,
           "method_examples": collections.Counter()}
    for line in lines:
        m = LOG_LINE.match(line)
        if not m:
            if line.strip():
                res["other"] += 1
            continue
        routine, path = m.group(1), m.group(2)
        res["calls"] += 1
        res["routines"][routine] += 1
        res["paths"][path] += 1
        mm = LOG_METHOD.search(line)
        if mm:
            res["methods"][mm.group(1)] += 1
        # every ?syev-family call on a GPU path names the expected method
        if (expect_method and path not in ("lapack", "host")
                and EIG_FAMILY.match(routine)
                and (not mm or mm.group(1) != expect_method)):
            res["method_violations"] += 1
            res["method_examples"]["%s method=%s" % (
                routine, mm.group(1) if mm else "(none)")] += 1
        if expect_path and path != expect_path:
            mi = LOG_INFO.search(line)
            info = int(mi.group(1)) if mi else 0
            mr = LOG_REASON.search(line)
            reason = mr.group(1) if mr else ""
            if reason == "option" and re.search(r"\b[mn]=[01]\b", line):
                reason = "trivial"
            if (not mi or info >= 0) and reason not in LOG_EXEMPT | {"trivial"}:
                res["violations"] += 1
                mr = LOG_REASON.search(line)
                res["violation_examples"][
                    "%s path=%s%s" % (routine, path,
                                      " reason=" + mr.group(1) if mr else "")
                ] += 1
    return res


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------

live_procs = set()
live_lock = threading.Lock()
stopping = threading.Event()


class Interrupted(Exception):
    def __init__(self, signum):
        Exception.__init__(self, signum)
        self.signum = signum


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()


def run_xeigtst(exe, input_path, rundir, env, timeout):
    """Runs exe < input in rundir; returns a dict with rc/signal/timeout."""
    os.makedirs(rundir, exist_ok=True)
    out_path = os.path.join(rundir, "stdout.txt")
    err_path = os.path.join(rundir, "stderr.txt")
    start = time.monotonic()
    res = {"rc": None, "signal": None, "timed_out": False, "wall": 0.0,
           "error": None}
    try:
        with open(input_path, "rb") as fin, open(out_path, "wb") as fout, \
                open(err_path, "wb") as ferr:
            with live_lock:
                if stopping.is_set():
                    raise OSError("runner stopping")
                proc = subprocess.Popen([exe], stdin=fin, stdout=fout,
                                        stderr=ferr, cwd=rundir, env=env,
                                        start_new_session=True)
                live_procs.add(proc)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                res["timed_out"] = True
                kill_group(proc)
            finally:
                with live_lock:
                    live_procs.discard(proc)
            # Leftover children of a finished run (none expected).
            if not res["timed_out"]:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            rc = proc.returncode
            if rc is not None and rc < 0:
                res["signal"] = -rc
            res["rc"] = rc
    except OSError as e:
        res["error"] = "cannot run %s: %s" % (exe, e)
    res["wall"] = round(time.monotonic() - start, 3)
    return res


def file_sig(path):
    try:
        st = os.stat(path)
        return [os.path.realpath(path), st.st_size, int(st.st_mtime)]
    except OSError:
        return [path, None, None]


def flavour_libs_sig(flavour):
    sig = []
    for d in FLAVOURS[flavour]:
        for name in ("liblapack.so.3", "libblas.so.3"):
            p = os.path.join(d, name)
            if os.path.exists(p):
                sig.append(file_sig(p))
    return sig


def base_env(flavour):
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    for k in list(env):
        if k.startswith("GPULAPACK_"):
            del env[k]
    ldlp = ":".join(FLAVOURS[flavour])
    if env.get("LD_LIBRARY_PATH"):
        ldlp += ":" + env["LD_LIBRARY_PATH"]
    env["LD_LIBRARY_PATH"] = ldlp
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env["LC_ALL"] = "C"
    return env


def trace_libs(exe, env):
    """{soname: path} as the dynamic loader resolves them for exe."""
    env = dict(env)
    env["LD_TRACE_LOADED_OBJECTS"] = "1"
    try:
        out = subprocess.run([exe], env=env, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    libs = {}
    for line in (out.stdout + out.stderr).splitlines():
        line = line.strip()
        m = re.match(r"(\S+)\s+=>\s+(\S+)", line)
        if m:
            libs[m.group(1)] = m.group(2)
        elif line.startswith("/"):
            p = line.split()[0]
            libs[os.path.basename(p)] = p
    return libs, (out.stdout + out.stderr)


def check_flavour(flavour, exe, env):
    """None if the flavour's liblapack/libblas are really the ones loaded."""
    libs, raw = trace_libs(exe, env)
    if libs is None:
        return "cannot trace libraries of %s: %s" % (exe, raw), {}
    dirs = [os.path.realpath(d) for d in FLAVOURS[flavour]]
    for name in ("liblapack.so.3", "libblas.so.3"):
        path = libs.get(name)
        if not path or path == "not":
            return "%s not found for flavour %s" % (name, flavour), libs
        real = os.path.realpath(path)
        if not any(real.startswith(d + "/") for d in dirs) and \
                not any(os.path.realpath(os.path.dirname(path)) == d
                        for d in dirs):
            return ("%s resolves to %s, not under %s"
                    % (name, real, " or ".join(FLAVOURS[flavour])), libs)
    if flavour == "ref" and "libopenblas.so.0" in libs:
        return "reference flavour still loads libopenblas.so.0", libs
    if flavour == "openblas" and "libopenblas.so.0" not in libs:
        return "OpenBLAS flavour does not load libopenblas.so.0", libs
    return None, libs


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="LAPACK EIG testing suite with and without libgpulapack "
                    "preloaded.")
    ap.add_argument("--lib", default=os.path.join(REPO_ROOT, "lib",
                                                   "libgpulapack.so"),
                    help="library to preload (default: %(default)s)")
    ap.add_argument("--precisions", default=PRECISIONS,
                    help="subset of 'sdcz' (default: all)")
    ap.add_argument("--inputs", default="",
                    help="comma list of inputs, e.g. svd,sep,dsb or sb "
                         "(= {p}sb for every precision); default all")
    ap.add_argument("--exclude", default="",
                    help="comma list of <precision>/<input> left out of "
                         "--inputs, e.g. z/se2 (an input of no precision "
                         "run is an error)")
    ap.add_argument("--sets", default="",
                    help="comma list of the parameter sets (1-based, or "
                         "'last') kept of the inputs that repeat their "
                         "tests per set of NB/NBMIN/NX values (svd, sep, "
                         "se2, {p}sg, ...), e.g. 1,last; default all")
    ap.add_argument("--lapack", default="ref,openblas",
                    help="comma list of flavours: ref, openblas "
                         "(default: both)")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VAL",
                    help="extra environment of the preloaded runs "
                         "(repeatable)")
    ap.add_argument("--expect-path", default=None, metavar="PATH",
                    help="every logged call with info>=0 must have "
                         "path=PATH, unless it was a query, nested, invalid, "
                         "non-finite or of size < 2")
    ap.add_argument("--expect-method", default=None, metavar="METHOD",
                    help="every ?syev-family call on a GPU path must log "
                         "method=METHOD (two-stage, one-stage, vendor), and "
                         "the sep/se2/sg inputs must log at least one")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=os.path.join(REPO_ROOT, "build",
                                                   "lapack_suite"),
                    help="scratch/output directory; baselines are cached "
                         "there (default: %(default)s)")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds per xeigtst run (default: %(default)s)")
    ap.add_argument("--tag", default=None,
                    help="name of the preloaded configuration's output "
                         "folder (default: derived from --env)")
    ap.add_argument("--test-dir", default=DEFAULT_TEST_DIR,
                    help="where xeigtst[sdcz] and the .in files are")
    ap.add_argument("--rerun-baseline", action="store_true",
                    help="ignore cached baselines")
    ap.add_argument("--max-lines", type=int, default=5,
                    help="new failure lines shown per verdict in the "
                         "summary (default: %(default)s)")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no progress on stderr")
    return ap.parse_args(argv)


# The line of an input that gives how many parameter sets follow (svd.in:
# "Number of parameter values", sep.in / se2.in / {p}sg.in: "Number of
# values of NB"), and the lines of the sets' values after it.
RE_SETS_COUNT = re.compile(r"Number of (parameter values|values of NB\b"
                           r"|values of parameters)", re.I)
RE_SETS_VALUES = re.compile(r"Values of ")


def trim_sets(text, keep):
    """The input text with only the parameter sets in keep (1-based
    indices, or "last"); None when the input has no parameter sets.  Each
    set repeats the input's tests (every size, type and option) with
    other block sizes of LAPACK's own routines and the next random
    matrices."""
    lines = text.splitlines(True)
    for i, line in enumerate(lines):
        if not RE_SETS_COUNT.search(line):
            continue
        count = int(line.split()[0])
        idx = sorted({count if k == "last" else int(k) for k in keep
                      if k == "last" or 1 <= int(k) <= count})
        if not idx:
            return None
        new = lines[:i] + [re.sub(r"^(\s*)\d+",
                                  lambda m: m.group(1) + str(len(idx)),
                                  line, 1)]
        j = i + 1
        while j < len(lines) and RE_SETS_VALUES.search(lines[j]):
            t = lines[j].split()
            if len(t) < count or not all(re.match(r"^[-+.\dEeDd]+$", v)
                                         for v in t[:count]):
                return None
            vals = [t[k - 1] for k in idx]
            comment = " ".join(t[count:])
            new.append("%-46s%s\n" % (" ".join(vals), comment))
            j += 1
        if j == i + 1:
            return None
        return "".join(new + lines[j:])
    return None


def input_with_sets(test_dir, out, name, keep):
    """(path, suffix): the input file to run, and the suffix of its
    baseline's folder ("" for the input as it is)."""
    inp = os.path.join(test_dir, name + ".in")
    if not keep:
        return inp, ""
    try:
        with open(inp, errors="replace") as f:
            text = f.read()
    except OSError:
        return inp, ""
    trimmed = trim_sets(text, keep)
    if trimmed is None:
        return inp, ""
    suffix = "-sets" + "_".join(keep)
    path = os.path.join(out, "inputs", name + suffix + ".in")
    # rewritten only when it changed: its time is in the baseline's
    # fingerprint
    try:
        with open(path) as f:
            same = f.read() == trimmed
    except OSError:
        same = False
    if not same:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(trimmed)
    return path, suffix


def discover_inputs(test_dir, p):
    """The EIG inputs for precision p: LAPACK's list plus any other .in file
    in test_dir whose first line names an xeigtst path of precision p."""
    names = [n.replace("{p}", p) for n in EIG_INPUTS]
    generic = {n.replace("{p}", "") for n in EIG_INPUTS}
    try:
        files = sorted(os.listdir(test_dir))
    except OSError:
        return names, []
    extra = []
    for f in files:
        if not f.endswith(".in"):
            continue
        stem = f[:-3]
        if stem in names or not stem.startswith(p):
            continue
        if stem[1:] in generic and stem[1:] != "":
            continue
        try:
            with open(os.path.join(test_dir, f), errors="replace") as fh:
                first = fh.readline().strip().upper()
        except OSError:
            continue
        word = re.split(r"[\s:]+", first)[0] if first else ""
        if word[:1] == p.upper() and (word[1:] in EIG_PPATHS):
            extra.append(stem)
        elif word in EIG_PATHS:
            extra.append(stem)
    return names + extra, extra


def tag_from_env(envs):
    if not envs:
        return "default"
    t = "_".join(envs)
    t = re.sub(r"[^A-Za-z0-9._-]+", "-", t).strip("-")
    if len(t) > 80:
        t = t[:60] + "-" + hashlib.sha1(t.encode()).hexdigest()[:10]
    return t or "default"


def generic_name(name, p):
    for n in EIG_INPUTS:
        if n.replace("{p}", p) == name:
            return n
    return name


def fmt_counts(counter, limit=None):
    items = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    if limit and len(items) > limit:
        rest = sum(v for _, v in items[limit:])
        items = items[:limit] + [("+%d more" % (len(items) - limit), rest)]
    return " ".join("%s=%d" % kv for kv in items)


def main(argv):
    args = parse_args(argv)
    fatal = []          # runner-level problems (exit status 2)

    flavours = [f.strip() for f in args.lapack.split(",") if f.strip()]
    for f in flavours:
        if f not in FLAVOURS:
            print("FAIL lapack-suite: unknown LAPACK flavour %r (known: %s)"
                  % (f, ", ".join(FLAVOURS)))
            return 2
    precs = [p for p in args.precisions.lower() if p in PRECISIONS]
    if not precs or any(p not in PRECISIONS for p in args.precisions.lower()):
        print("FAIL lapack-suite: bad --precisions %r" % args.precisions)
        return 2
    extra_env = {}
    for kv in args.env:
        if "=" not in kv:
            print("FAIL lapack-suite: --env %r is not KEY=VAL" % kv)
            return 2
        k, v = kv.split("=", 1)
        extra_env[k] = v
    keep_sets = [k.strip().lower() for k in args.sets.split(",")
                 if k.strip()]
    if any(k != "last" and not (k.isdigit() and int(k) >= 1)
           for k in keep_sets):
        print("FAIL lapack-suite: bad --sets %r (1-based numbers or last)"
              % args.sets)
        return 2
    want = [w.strip() for w in args.inputs.split(",") if w.strip()]
    exclude = [w.strip() for w in args.exclude.split(",") if w.strip()]
    lib = os.path.abspath(args.lib)
    out = os.path.abspath(args.out)
    tag = args.tag or tag_from_env(args.env)
    test_dir = args.test_dir

    # ---- plan ----
    plan = []     # (flavour, p, input)
    notes = []
    used_wants = set()
    used_excludes = set()
    for p in precs:
        names, extra = discover_inputs(test_dir, p)
        if extra:
            notes.append("precision %s: extra EIG inputs found: %s"
                         % (p, " ".join(extra)))
        for name in names:
            gen = generic_name(name, p).replace("{p}", "")
            if want:
                hit = [w for w in want if w in (name, gen)]
                if not hit:
                    continue
                used_wants.update(hit)
            gone = [x for x in exclude if x in ("%s/%s" % (p, name),
                                                "%s/%s" % (p, gen))]
            if gone:
                used_excludes.update(gone)
                continue
            for fl in flavours:
                plan.append((fl, p, name))
    unknown = [w for w in want if w not in used_wants]
    if unknown:
        print("FAIL lapack-suite: unknown input(s) %s" % ",".join(unknown))
        return 2
    unknown = [x for x in exclude if x not in used_excludes]
    if unknown:
        print("FAIL lapack-suite: --exclude %s not in the run"
              % ",".join(unknown))
        return 2

    verdict_fail = {}   # key -> reason for runner-level failures
    for p in precs:
        exe = os.path.join(test_dir, "xeigtst" + p)
        if not os.access(exe, os.X_OK):
            fatal.append("%s missing or not executable" % exe)
            for key in plan:
                if key[1] == p:
                    verdict_fail[key] = "%s missing" % exe
    for key in plan:
        ip = os.path.join(test_dir, key[2] + ".in")
        if not os.path.exists(ip) and key not in verdict_fail:
            fatal.append("%s missing" % ip)
            verdict_fail[key] = "input %s missing" % ip
    if not os.path.exists(lib):
        fatal.append("library %s not found (build it first)" % lib)
        for key in plan:
            verdict_fail.setdefault(key, "library %s not found" % lib)

    # ---- check the flavours really load what they should ----
    flavour_info = {}
    flavour_loaded = {}     # flavour -> the libraries xeigtst loads
    any_exe = None
    for p in precs:
        e = os.path.join(test_dir, "xeigtst" + p)
        if os.access(e, os.X_OK):
            any_exe = e
            break
    for fl in flavours:
        if any_exe is None:
            break
        problem, libs = check_flavour(fl, any_exe, base_env(fl))
        flavour_loaded[fl] = sorted(os.path.realpath(v)
                                    for v in libs.values()
                                    if v.startswith("/"))
        pre_problem, pre_libs = None, {}
        if problem is None and os.path.exists(lib):
            penv = base_env(fl)
            penv["LD_PRELOAD"] = lib
            pre_problem, pre_libs = check_flavour(fl, any_exe, penv)
            if pre_problem is None and os.path.realpath(lib) not in \
                    [os.path.realpath(v) for v in pre_libs.values()]:
                pre_problem = "preloaded library not loaded"
            if pre_problem:
                pre_problem = "with LD_PRELOAD: " + pre_problem
        flavour_info[fl] = {
            "lapack": libs.get("liblapack.so.3"),
            "blas": libs.get("libblas.so.3"),
            "openblas": libs.get("libopenblas.so.0"),
        }
        prob = problem or pre_problem
        if prob:
            fatal.append("flavour %s: %s" % (fl, prob))
            for key in plan:
                if key[0] == fl:
                    verdict_fail.setdefault(key, "flavour %s: %s" % (fl, prob))

    # ---- jobs ----
    jobs = []   # dicts
    cached = 0
    sets_used = set()
    for key in plan:
        if key in verdict_fail:
            continue
        fl, p, name = key
        exe = os.path.join(test_dir, "xeigtst" + p)
        inp, suffix = input_with_sets(test_dir, out, name, keep_sets)
        if suffix:
            sets_used.add(name)
        bdir = os.path.join(out, "baseline", fl, p, name + suffix)
        benv = base_env(fl)
        # the libraries the baseline loads, not the path they were found
        # by: a run over the stand-in drivers (their folders first on
        # LD_LIBRARY_PATH, which xeigtst does not load) reuses the others'
        fp = {"exe": file_sig(exe), "input": file_sig(inp),
              "libs": flavour_libs_sig(fl),
              "loaded": flavour_loaded.get(fl),
              "OPENBLAS_NUM_THREADS": benv.get("OPENBLAS_NUM_THREADS")}
        cost = COST.get(generic_name(name, p), 0.5) * (2 if p in "cz" else 1)
        prev = None
        try:
            with open(os.path.join(bdir, "run.json")) as f:
                prev = json.load(f)
        except (OSError, ValueError):
            prev = None
        if prev and prev.get("wall"):
            cost = prev["wall"]
        reuse = (prev is not None and not args.rerun_baseline
                 and prev.get("fingerprint") == fp
                 and not prev.get("timed_out") and not prev.get("error")
                 and os.path.exists(os.path.join(bdir, "stdout.txt")))
        if reuse:
            cached += 1
        else:
            jobs.append({"kind": "baseline", "key": key, "exe": exe,
                         "input": inp, "dir": bdir, "env": benv,
                         "fingerprint": fp, "cost": cost})
        pdir = os.path.join(out, "preload", tag, fl, p, name)
        penv = base_env(fl)
        penv.update(extra_env)
        penv["LD_PRELOAD"] = lib
        if "GPULAPACK_VERBOSE" not in extra_env:
            penv["GPULAPACK_VERBOSE"] = "1"
        penv["GPULAPACK_LOG"] = os.path.join(pdir, "gpulapack.log")
        jobs.append({"kind": "preload", "key": key, "exe": exe, "input": inp,
                     "dir": pdir, "env": penv, "cost": cost * 1.1})

    jobs.sort(key=lambda j: -j["cost"])
    total = len(jobs)
    progress(args, "lapack-suite: %d verdicts, %d runs (%d baselines cached) "
                   "on %d workers, output in %s"
             % (len(plan), total, cached, args.jobs, out))
    t_start = time.monotonic()
    done = [0]

    def do_job(job):
        d = job["dir"]
        if os.path.isdir(d):
            shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d, exist_ok=True)
        res = run_xeigtst(job["exe"], job["input"], d, job["env"],
                          args.timeout)
        if job["kind"] == "baseline":
            res["fingerprint"] = job["fingerprint"]
        else:
            res["env"] = {k: v for k, v in job["env"].items()
                          if k.startswith("GPULAPACK_") or k in
                          ("LD_PRELOAD", "LD_LIBRARY_PATH",
                           "OPENBLAS_NUM_THREADS")}
        if stopping.is_set():
            # Killed by us: never cache this as a baseline.
            return res
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(res, f, indent=1)
        with print_lock:
            done[0] += 1
            n = done[0]
        fl, p, name = job["key"]
        status = ("timeout" if res["timed_out"] else
                  "signal %d" % res["signal"] if res["signal"] else
                  "rc %s" % res["rc"])
        progress(args, "[%d/%d] %-8s %-8s %s %-6s %7.1fs %s"
                 % (n, total, job["kind"], fl, p, name, res["wall"], status))
        return res

    # xeigtst runs in its own session (so that a timeout can kill its whole
    # group); when the runner itself is stopped, stop those groups too.
    def on_signal(signum, frame):
        raise Interrupted(signum)

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        if signal.getsignal(sig) != signal.SIG_IGN:
            signal.signal(sig, on_signal)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        futures = [pool.submit(do_job, j) for j in jobs]
        for fut in concurrent.futures.as_completed(futures):
            fut.result()
    except (KeyboardInterrupt, Interrupted) as e:
        stopping.set()
        pool.shutdown(wait=False, cancel_futures=True)
        with live_lock:
            procs = list(live_procs)
        for proc in procs:
            kill_group(proc)
        print("FAIL lapack-suite: interrupted (%s)"
              % (signal.Signals(e.signum).name
                 if isinstance(e, Interrupted) else "SIGINT"))
        sys.stdout.flush()
        return 2
    pool.shutdown(wait=True)
    wall_total = time.monotonic() - t_start

    # ---- evaluate ----
    results = []
    agg_routines = collections.Counter()
    agg_paths = collections.Counter()
    for key in plan:
        fl, p, name = key
        rec = {"key": key, "reasons": [], "notes": [], "new": [],
               "base": None, "pre": None, "log": None}
        results.append(rec)
        if key in verdict_fail:
            rec["reasons"].append(verdict_fail[key])
            continue
        bdir = os.path.join(out, "baseline", fl, p,
                            name + input_with_sets(test_dir, out, name,
                                                   keep_sets)[1])
        pdir = os.path.join(out, "preload", tag, fl, p, name)
        runs = {}
        for which, d in (("base", bdir), ("pre", pdir)):
            try:
                with open(os.path.join(d, "run.json")) as f:
                    run = json.load(f)
                with open(os.path.join(d, "stdout.txt"),
                          errors="replace") as f:
                    text = f.read()
                with open(os.path.join(d, "stderr.txt"),
                          errors="replace") as f:
                    err = f.read()
            except OSError as e:
                run, text, err = {"error": str(e)}, "", ""
            run["parsed"] = parse_output(text)
            run["stderr"] = err
            runs[which] = run
        b, pr = runs["base"], runs["pre"]
        rec["base"], rec["pre"] = b, pr
        bp, pp = b["parsed"], pr["parsed"]
        R = rec["reasons"]

        if b.get("error"):
            R.append("baseline unavailable: %s" % b["error"])
        if pr.get("error"):
            R.append(pr["error"])

        def how_ended(run):
            if run.get("timed_out"):
                return "timed out after %gs" % args.timeout
            if run.get("signal"):
                try:
                    sname = signal.Signals(run["signal"]).name
                except ValueError:
                    sname = "signal %d" % run["signal"]
                return "killed by %s" % sname
            if run.get("rc") not in (0, None):
                return "exit status %d" % run["rc"]
            if not run["parsed"]["end"]:
                return 'did not reach "End of tests"'
            return None

        bend, pend = how_ended(b), how_ended(pr)
        if bend:
            rec["notes"].append("baseline " + bend)
        if pend and not pr.get("error"):
            if bend == pend and pp["run"] >= bp["run"]:
                rec["notes"].append("preloaded run ended like the baseline: "
                                    + pend)
            else:
                R.append(pend)
        if "cannot be preloaded" in pr["stderr"]:
            m = re.search(r".*cannot be preloaded.*", pr["stderr"])
            R.append("LD_PRELOAD failed: " + m.group(0).strip())
        if pp["run"] < bp["run"]:
            R.append("ran fewer tests (%d < %d)" % (pp["run"], bp["run"]))
        for field, label in (("fail", "failing the threshold"),
                             ("illegal", "illegal-value lines"),
                             ("info", "INFO errors"),
                             ("ee_fail", "error-exit failures")):
            if pp[field] > bp[field]:
                R.append("%s %d > baseline %d" % (label, pp[field],
                                                    bp[field]))
        if pp["ee_pass"] < bp["ee_pass"] or pp["ee_tests"] < bp["ee_tests"]:
            R.append("error exits passed %d (%d tests) < baseline %d (%d)"
                     % (pp["ee_pass"], pp["ee_tests"], bp["ee_pass"],
                        bp["ee_tests"]))
        for bb, pb in zip(bp["balbak"], pp["balbak"]):
            if pb["rmax"] > max(10.0 * bb["rmax"], bb["rmax"] + 1.0):
                R.append("%s largest test error %.3g (baseline %.3g)"
                         % (pb["name"], pb["rmax"], bb["rmax"]))
        new = collections.Counter(pp["failures"]) - \
            collections.Counter(bp["failures"])
        rec["new"] = [l for l in pp["failures"] if new[l] > 0]
        seen = set()
        rec["new"] = [l for l in rec["new"] if not (l in seen or seen.add(l))]
        if new:
            R.append("%d failure line(s) not in the baseline, first: %s"
                     % (sum(new.values()), rec["new"][0]))
            try:
                with open(os.path.join(pdir, "new_failures.txt"), "w") as f:
                    for l in rec["new"]:
                        f.write("%dx %s\n" % (new[l], l))
            except OSError:
                pass

        # ---- log ----
        try:
            with open(os.path.join(pdir, "gpulapack.log"),
                      errors="replace") as f:
                log_lines = f.read().splitlines()
        except OSError:
            log_lines = []
        lg = count_log(log_lines, args.expect_path, args.expect_method)
        rec["log"] = lg
        agg_routines.update(lg["routines"])
        agg_paths.update(lg["paths"])
        g = generic_name(name, p)
        if g in EXPECT_CALLS and lg["calls"] == 0 and not pr.get("error"):
            R.append("no gpulapack calls logged (expected %s)"
                     % EXPECT_CALLS[g])
        if args.expect_path and lg["violations"]:
            ex = sorted(lg["violation_examples"].items(),
                        key=lambda kv: (-kv[1], kv[0]))
            shown = ", ".join("%d x %s" % (v, k) for k, v in ex[:3])
            if len(ex) > 3:
                shown += ", %d more kinds" % (len(ex) - 3)
            R.append("%d call(s) with info>=0 not on path=%s (%s)"
                     % (lg["violations"], args.expect_path, shown))
        if args.expect_method and lg["method_violations"]:
            ex = sorted(lg["method_examples"].items(),
                        key=lambda kv: (-kv[1], kv[0]))
            R.append("%d ?syev-family call(s) on a GPU path without "
                     "method=%s (%s)" % (lg["method_violations"],
                                         args.expect_method,
                                         ", ".join("%d x %s" % (v, k)
                                                   for k, v in ex[:3])))
        if (args.expect_method and g in ("sep", "se2", "{p}sg")
                and not pr.get("error")
                and lg["methods"][args.expect_method] == 0):
            R.append("no call logged method=%s" % args.expect_method)

    # ---- report ----
    print("LAPACK EIG testing suite: lib=%s tag=%s env=%s"
          % (lib, tag, " ".join(args.env) or "(none)"))
    for fl in flavours:
        fi = flavour_info.get(fl, {})
        print("  flavour %-8s liblapack.so.3 -> %s, libblas.so.3 -> %s%s"
              % (fl, fi.get("lapack"), fi.get("blas"),
                 ", libopenblas.so.0 -> %s" % fi["openblas"]
                 if fi.get("openblas") else ""))
    if keep_sets:
        notes.append("parameter sets kept: %s, of the inputs that have "
                     "them (%s); the other inputs whole"
                     % (",".join(keep_sets),
                        " ".join(sorted(sets_used)) or "none here"))
    for n in notes:
        print("  note: " + n)
    print("  output: %s (baselines: %s/baseline, preloaded: %s/preload/%s)"
          % (out, out, out, tag))
    print("  %d runs in %.1f s wall (-j %d), %d baselines from cache"
          % (total, wall_total, args.jobs, cached))
    print()
    hdr = ("%-8s %-1s %-6s | %-40s | %-40s | %7s %s"
           % ("flavour", "p", "input",
              "baseline: run fail ill info ee(ok/bad) end",
              "preload:  run fail ill info ee(ok/bad) end", "calls",
              "paths"))
    print(hdr)
    print("-" * len(hdr))

    def cols(run):
        if run is None:
            return "%-40s" % "-"
        q = run["parsed"]
        end = "yes" if q["end"] else "NO"
        if run.get("timed_out"):
            end = "TMO"
        elif run.get("signal"):
            end = "SIG%d" % run["signal"]
        return ("%8d %4d %3d %4d %5d/%-4d %3s      "
                % (q["run"], q["fail"], q["illegal"], q["info"], q["ee_pass"],
                   q["ee_fail"], end))[:40]

    for rec in results:
        fl, p, name = rec["key"]
        lg = rec["log"]
        calls = "%7d" % lg["calls"] if lg else "%7s" % "-"
        paths = fmt_counts(lg["paths"]) if lg else ""
        mark = " <-- FAIL" if rec["reasons"] else ""
        print("%-8s %-1s %-6s | %s | %s | %s %s%s"
              % (fl, p, name, cols(rec["base"]), cols(rec["pre"]), calls,
                 paths, mark))
    print()
    print("Calls logged per routine (all runs): %s"
          % (fmt_counts(agg_routines) or "none"))
    print("Calls logged per path (all runs):    %s"
          % (fmt_counts(agg_paths) or "none"))
    for rec in results:
        lg = rec["log"]
        if lg and lg["calls"]:
            print("  %s/%s/%s: %s" % (rec["key"] + (fmt_counts(
                lg["routines"]),)))
    notes_printed = False
    for rec in results:
        if rec["notes"] or rec["reasons"]:
            if not notes_printed:
                print()
                print("Details:")
                notes_printed = True
            fl, p, name = rec["key"]
            for n in rec["notes"]:
                print("  %s/%s/%s: note: %s" % (fl, p, name, n))
            for r in rec["reasons"]:
                print("  %s/%s/%s: %s" % (fl, p, name, r))
            for l in rec["new"][:args.max_lines]:
                print("      new: %s" % l)
            if len(rec["new"]) > args.max_lines:
                print("      ... %d more in %s"
                      % (len(rec["new"]) - args.max_lines,
                         os.path.join(out, "preload", tag, fl, p, name,
                                      "new_failures.txt")))
    # Baseline failures worth knowing about (the same on both sides).
    base_fail = [rec for rec in results if rec["base"] and (
        rec["base"]["parsed"]["failures"])]
    if base_fail:
        print()
        print("Baseline (system LAPACK) failures, tolerated when the "
              "preloaded run shows the same:")
        for rec in base_fail:
            f = rec["base"]["parsed"]["failures"]
            print("  %s/%s/%s: %d line(s), first: %s"
                  % (rec["key"] + (len(f), f[0])))
    print()
    npass = 0
    # an explicit --tag names the configuration in the verdicts
    label = "lapack-suite" + ("[%s]" % args.tag if args.tag else "")
    for rec in results:
        fl, p, name = rec["key"]
        if rec["reasons"]:
            reason = "; ".join(rec["reasons"])
            reason = " ".join(reason.split())
            print("FAIL %s/%s/%s/%s: %s" % (label, fl, p, name, reason))
        else:
            npass += 1
            print("PASS %s/%s/%s/%s" % (label, fl, p, name))
    sys.stdout.flush()
    progress(args, "lapack-suite: %d PASS, %d FAIL, %.1f s"
             % (npass, len(results) - npass, time.monotonic() - t_start))
    if fatal:
        for f in fatal:
            sys.stderr.write("lapack-suite: runner problem: %s\n" % f)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
