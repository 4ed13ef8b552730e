#!/bin/bash
# The Python entry point (python/gpulapack): imported by path
# (PYTHONPATH=python), never with LD_PRELOAD, into Debian's python3 with
# Debian's numpy/scipy:
#   load     it loads this checkout's lib/libgpulapack.so (or the file of
#            GPULAPACK_LIBRARY);
#   api      version() is the C library's (gpulapack-info, the header, and
#            python/pyproject.toml), backends(), devices(), lapack_library()
#            and path() say what bin/gpulapack-info says, and plan_call()
#            what gpulapack-info ROUTINE JOBS N M says (an unknown call:
#            ValueError);
#   settings configure() knows exactly the GPULAPACK_* variables the
#            library reads (runtime/settings.def's, and any getenv by name
#            in its sources);
#   numpy    `import gpulapack; import numpy`, the host path forced:
#            numpy.linalg.eigh of a 300x300 matrix logs dsyevd ... path=host
#            (the loader binds _umath_linalg's dsyevd_ to the library opened
#            RTLD_GLOBAL before it), with a correct result, and
#            last_timing() names it;
#   configure the same with the settings given by gpulapack.configure();
#   scipy    scipy.linalg.eigh and svd after import gpulapack: path=host;
#   order    numpy imported first: its calls stay on the system LAPACK (no
#            log line) and the import warns.
# usage: testing/clients/check_python_entry.sh [LIB]; prints PASS/FAIL lines.
cd "$(dirname "$0")/../.."
ROOT=$PWD
LIB=$(readlink -f "${1:-lib/libgpulapack.so}")
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS python/$1"; }
fail() { echo "FAIL python/$1: $2"; }

# py <script> [env...]: Debian's python with the package by path, no
# LD_PRELOAD, no GPULAPACK_* from the caller except those given.
py() {
    local script=$1
    shift
    env -u LD_PRELOAD $(env | sed -n 's/^\(GPULAPACK_[A-Z_0-9]*\)=.*/-u \1/p') \
        PYTHONPATH="$ROOT/python" PYTHONDONTWRITEBYTECODE=1 GPULAPACK_LIBRARY="$LIB" \
        "$@" "$PYTHON" -c "$script"
}

if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    fail setup "$PYTHON cannot import numpy (tools/install-deps.sh installs python3-numpy)"
    exit 0
fi

# load: by default (no GPULAPACK_LIBRARY) the checkout's library
out=$(env -u GPULAPACK_LIBRARY -u LD_PRELOAD PYTHONPATH="$ROOT/python" PYTHONDONTWRITEBYTECODE=1 \
    "$PYTHON" -c 'import gpulapack; print(gpulapack.library)' 2>&1)
if [ "$out" = "$(readlink -f lib/libgpulapack.so)" ]; then
    pass "load ($out)"
else
    fail load "expected $(readlink -f lib/libgpulapack.so), got: $out"
fi
ln -s "$LIB" "$tmp/libgpulapack-copy.so"
out=$(py 'import gpulapack; print(gpulapack.library)' GPULAPACK_LIBRARY="$tmp/libgpulapack-copy.so" 2>&1)
if [ "$out" = "$LIB" ]; then pass load-GPULAPACK_LIBRARY; else fail load-GPULAPACK_LIBRARY "$out"; fi
out=$(py 'import gpulapack' GPULAPACK_LIBRARY=/nonexistent/libgpulapack.so 2>&1)
if grep -q "ImportError: gpulapack: cannot load" <<<"$out"; then
    pass load-missing
else
    fail load-missing "no ImportError: $out"
fi

# api: against bin/gpulapack-info, run with the same library
info=$(LD_LIBRARY_PATH="$(dirname "$LIB")" bin/gpulapack-info 2>/dev/null)
c_version=$(sed -n '1s/^gpulapack //p' <<<"$info")
h_version=$(sed -n 's/^#define GPULAPACK_VERSION "\(.*\)"/\1/p' include/gpulapack.h)
toml_version=$(sed -n 's/^version = "\(.*\)"/\1/p' python/pyproject.toml)
out=$(py 'import gpulapack as g
print(g.version())
print(" ".join(g.backends()))
print(g.device_count(), len(g.devices()))
print(g.lapack_library())
print(g.tune_table())' 2>&1)
py_version=$(sed -n 1p <<<"$out")
if [ -n "$py_version" ] && [ "$py_version" = "$c_version" ] && [ "$py_version" = "$h_version" ] &&
    [ "$py_version" = "$toml_version" ]; then
    pass "api/version ($py_version)"
else
    fail api/version "python '$py_version', gpulapack-info '$c_version', header '$h_version', pyproject '$toml_version'"
fi
want="$(sed -n 's/^backends compiled: *//p' <<<"$info")
$(sed -n 's/^devices: *//p' <<<"$info") $(sed -n 's/^devices: *//p' <<<"$info")
$(sed -n 's/^real LAPACK: *//p' <<<"$info")
$(sed -n 's/^crossover table: *//p' <<<"$info")"
if [ "$(sed 1d <<<"$out")" = "$want" ]; then
    pass "api/backends-devices-lapack-tune ($(sed -n 2p <<<"$out"); $(sed -n 3p <<<"$out" | cut -d' ' -f1) devices)"
else
    fail api/backends-devices-lapack-tune "python: $(sed 1d <<<"$out" | tr '\n' '|') gpulapack-info: $(tr '\n' '|' <<<"$want")"
fi
out=$(py 'import gpulapack; print(gpulapack.path())' GPULAPACK_DEVICE=host 2>&1)
if [ "$out" = host ]; then pass api/path; else fail api/path "GPULAPACK_DEVICE=host gave: $out"; fi
out=$(py 'import gpulapack as g
p = g.plan_call("dgesdd", "S", 300, 500)
print("dgesdd S 500x300 path=%s%s%s" % (p.path,
      " plan=%s device_bytes=%d devices=%d" % (p.plan, p.device_bytes, p.devices) if p.plan else "",
      " reason=" + p.reason if p.reason else "") +
      " lwork=%s lwork_min=%d" % (p.lwork_rule, p.lwork_min))
try:
    g.plan_call("dgeqrf", "N", 10)
    print("no ValueError")
except ValueError:
    print("ValueError")' GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 2>&1)
want="$(GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 LD_LIBRARY_PATH="$(dirname "$LIB")" bin/gpulapack-info dgesdd S 300 500 2>&1)
ValueError"
if [ "$out" = "$want" ] && grep -q "path=opencl plan=in-core" <<<"$out"; then
    pass "api/plan_call ($(head -1 <<<"$out"))"
else
    fail api/plan_call "python: $(tr '\n' '|' <<<"$out") gpulapack-info: $(tr '\n' '|' <<<"$want")"
fi

# settings: the package's list against the variables the library reads:
# the settings' table (runtime/settings.def) and any getenv by name
lib_vars=$({ /usr/bin/python3 tools/settings.py --list
    grep -rhoE 'getenv\("GPULAPACK_[A-Z_0-9]+' runtime lapack_api kernels |
        sed 's/.*GPULAPACK_//'; } | sort -u | tr '\n' ' ')
py_vars=$(py 'import gpulapack; print(" ".join(sorted(gpulapack.SETTINGS)))' 2>&1)
if [ "$py_vars " = "$lib_vars" ]; then
    pass "settings ($(wc -w <<<"$py_vars") variables)"
else
    fail settings "package: $py_vars; library: $lib_vars"
fi

# numpy: eigh after import gpulapack, the host path forced by the environment
eigh='
import gpulapack, numpy as np
a = np.random.default_rng(1).standard_normal((300, 300)); a = a + a.T
w, v = np.linalg.eigh(a)
eps = np.finfo(float).eps
r = np.linalg.norm(a @ v - v * w, 1) / (300 * eps * np.linalg.norm(a, 1))
o = np.linalg.norm(np.eye(300) - v.T @ v, 1) / (300 * eps)
t = gpulapack.last_timing()
print("ratios %.2f %.2f timing %s %s" % (r, o, t and t.routine, t and t.path))
assert r < 30 and o < 30
'
check_eigh() {   # name, log, python output
    local name=$1 log=$2 out=$3
    if grep -q "^gpulapack: dsyevd jobz=V uplo=L n=300 path=host .*info=0" "$log" &&
        grep -q "^ratios .* timing dsyevd host$" <<<"$out"; then
        pass "$name ($(grep -m1 'dsyevd' "$log" | cut -d' ' -f2-6); $(grep '^ratios' <<<"$out"))"
    else
        fail "$name" "log: $(tr '\n' '|' <"$log" 2>/dev/null) output: $(tr '\n' '|' <<<"$out")"
    fi
}
out=$(py "$eigh" GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 GPULAPACK_VERBOSE=1 \
    GPULAPACK_LOG="$tmp/numpy.log" 2>&1)
check_eigh numpy-eigh "$tmp/numpy.log" "$out"

# configure: the same settings from gpulapack.configure()
out=$(py "import gpulapack
gpulapack.configure(device='host', min_n=0, verbose=True, log='$tmp/configure.log')
$eigh" 2>&1)
check_eigh configure-eigh "$tmp/configure.log" "$out"
out=$(py 'import gpulapack
gpulapack.path()
try:
    gpulapack.configure(device="host")
except RuntimeError:
    print("refused")
try:
    gpulapack.configure(devise="host")
except TypeError:
    print("unknown")' 2>&1)
if [ "$out" = "refused
unknown" ]; then pass configure-errors; else fail configure-errors "$out"; fi

# scipy (Debian's python3-scipy: _flapack links liblapack.so.3 too)
if "$PYTHON" -c 'import scipy.linalg' 2>/dev/null; then
    out=$(py 'import gpulapack, numpy as np, scipy.linalg as sl
a = np.random.default_rng(2).standard_normal((300, 300)); a = a + a.T
w, v = sl.eigh(a, driver="evd")
s = sl.svd(a, compute_uv=False)
assert np.allclose(np.sort(np.abs(w))[::-1], s, rtol=0, atol=1e-10 * s[0])' \
        GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 GPULAPACK_VERBOSE=1 \
        GPULAPACK_LOG="$tmp/scipy.log" 2>&1)
    if [ -z "$out" ] && grep -q "^gpulapack: dsyevd jobz=V .*n=300 path=host .*info=0" "$tmp/scipy.log" &&
        grep -q "^gpulapack: dgesdd jobz=N .*n=300 path=host .*info=0" "$tmp/scipy.log"; then
        pass "scipy-eigh-svd (dsyevd, dgesdd on path=host)"
    else
        fail scipy-eigh-svd "log: $(tr '\n' '|' <"$tmp/scipy.log" 2>/dev/null) output: $out"
    fi
else
    fail scipy-eigh-svd "$PYTHON cannot import scipy (python3-scipy)"
fi

# order: numpy first, then gpulapack: numpy's symbols are already bound to
# the system LAPACK (Python opens modules RTLD_NOW), nothing is logged, and
# the import warns
out=$(py 'import numpy as np, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import gpulapack
print("warned" if any(issubclass(c.category, RuntimeWarning) for c in caught) else "silent")
a = np.random.default_rng(1).standard_normal((300, 300)); a = a + a.T
np.linalg.eigh(a)' GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 GPULAPACK_VERBOSE=1 \
    GPULAPACK_LOG="$tmp/late.log" 2>&1)
if [ "$out" = warned ] && ! grep -q dsyevd "$tmp/late.log" 2>/dev/null; then
    pass "order (imported after numpy: warned, dsyevd stays on the system LAPACK)"
else
    fail order "output: $out; log: $(tr '\n' '|' <"$tmp/late.log" 2>/dev/null)"
fi
exit 0
