#!/bin/bash
# pip's numpy and scipy (wheels from PyPI, each with its own renamed
# OpenBLAS: numpy's libscipy_openblas64_ with scipy_dsyevd_64_, ...,
# scipy's libscipy_openblas with scipy_dsyevd_, ...), with the host path
# forced (GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0):
#   setup    a virtual environment build/wheels-venv (Debian's python3)
#            with numpy and scipy installed by pip from PyPI; if the index
#            cannot be reached, this says so and fails;
#   names    every scipy_ name of our routines that numpy's _umath_linalg
#            and scipy's _flapack import (nm -D) is exported by the library;
#   ratios   wheels_client.py (numpy eigh, eigvalsh, svd full/reduced/
#            values; scipy eigh evd/evr/evx/subset_by_index, svd gesdd/
#            gesvd, eigvals_banded; s, d, c, z, n = 240) without the
#            library, then with it preloaded: every vector's residual and
#            orthogonality ratio below 30 in both runs, and the values the
#            same to n |values| eps * 30;
#   path     every logged call on path=host, and each routine the calls
#            reach (scipy_ssyevd_64, ..., scipy_zhbevd) among them;
#   import   the same through `import gpulapack` (python/, no LD_PRELOAD);
#   helpers  the same preloaded with GPULAPACK_LAPACK naming numpy's
#            libscipy_openblas64_, as in an environment without a system
#            LAPACK: the kernels' helpers come from its scipy_dgemm_64_,
#            ... names (64-bit INTEGERs, through the adapters) in all four
#            precisions, the ratios and values as without the library.
# usage: testing/clients/check_wheels.sh [LIB]; prints PASS/FAIL lines.
cd "$(dirname "$0")/../.."
ROOT=$PWD
LIB=$(readlink -f "${1:-lib/libgpulapack.so}")
VENV=${GL_WHEELS_VENV:-build/wheels-venv}
BASE_PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS wheels/$1"; }
fail() { echo "FAIL wheels/$1: $2"; }

PY=$VENV/bin/python
if ! "$PY" -c 'import numpy, scipy' 2>/dev/null; then
    rm -rf "$VENV"
    if ! err=$("$BASE_PYTHON" -m venv "$VENV" 2>&1); then
        fail setup "cannot create a virtual environment with $BASE_PYTHON (python3-venv): $err"
        exit 0
    fi
    if ! err=$("$PY" -m pip install --quiet --disable-pip-version-check \
            --only-binary :all: numpy scipy 2>&1); then
        if grep -qiE 'connection|resolve|network|unreachable|timed out|No matching distribution' <<<"$err"; then
            fail setup "PyPI cannot be reached (pip install numpy scipy): $(tail -n 2 <<<"$err" | tr '\n' ' ')"
        else
            fail setup "pip install numpy scipy failed: $(tail -n 3 <<<"$err" | tr '\n' ' ')"
        fi
        rm -rf "$VENV"
        exit 0
    fi
fi
versions=$("$PY" -c 'import numpy, scipy; print("numpy", numpy.__version__, "scipy", scipy.__version__)')
pass "setup ($versions)"

# names: the routines' scipy_ names the wheels import, all exported by us
site=$("$PY" -c 'import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))')
ours=$(nm -D --defined-only "$LIB" | awk 'NF == 3 {print $3}' | grep '^scipy_' | sort -u)
bases=$(sed -E 's/^scipy_//; s/_(64_)?$//' <<<"$ours" | sort -u)
imported=$(for m in "$site"/numpy/linalg/_umath_linalg*.so "$site"/scipy/linalg/_flapack*.so; do
    nm -D --undefined-only "$m"; done | awk '{print $2}' | grep '^scipy_' | sort -u)
wanted=$(grep -xE "scipy_($(tr '\n' '|' <<<"$bases" | sed 's/|$//'))_(64_)?" <<<"$imported")
missing=$(comm -23 <(sort <<<"$wanted") <(sort <<<"$ours"))
n64=$(grep -c '_64_$' <<<"$wanted")
if [ -n "$wanted" ] && [ -z "$missing" ] && [ "$n64" -ge 1 ]; then
    pass "names ($(grep -c . <<<"$wanted") imported by the wheels, $n64 of them ILP64, e.g. $(grep -m1 'dsyevd_64_' <<<"$wanted") $(grep -m1 'dsyevd_$' <<<"$wanted"))"
else
    fail names "imported by the wheels but not exported: $(tr '\n' ' ' <<<"$missing") (wanted: $(wc -l <<<"$wanted"))"
fi

CLIENT=$ROOT/testing/clients/wheels_client.py
clean_env() {
    env -u LD_PRELOAD $(env | sed -n 's/^\(GPULAPACK_[A-Z_0-9]*\)=.*/-u \1/p') \
        PYTHONDONTWRITEBYTECODE=1 "$@"
}
if ! err=$(clean_env "$PY" "$CLIENT" "$tmp/real.json" 2>&1); then
    fail run-real "$(tail -n 5 <<<"$err" | tr '\n' ' ')"
    exit 0
fi
hostenv=(GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 GPULAPACK_VERBOSE=1)
if ! err=$(clean_env "${hostenv[@]}" GPULAPACK_LOG="$tmp/preload.log" \
        LD_PRELOAD="$LIB" "$PY" "$CLIENT" "$tmp/preload.json" 2>&1); then
    fail run-preload "$(tail -n 5 <<<"$err" | tr '\n' ' ')"
    exit 0
fi
if ! err=$(clean_env "${hostenv[@]}" GPULAPACK_LOG="$tmp/import.log" \
        GPULAPACK_LIBRARY="$LIB" PYTHONPATH="$ROOT/python" "$PY" -c \
        'import sys, runpy, gpulapack; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name="__main__")' \
        "$CLIENT" "$tmp/import.json" 2>&1); then
    fail run-import "$(tail -n 5 <<<"$err" | tr '\n' ' ')"
fi
# numpy's OpenBLAS as the only LAPACK of our path (logged at level 3)
openblas64=$(ls "$site"/numpy.libs/libscipy_openblas64_*.so 2>/dev/null | head -n 1)
if [ -z "$openblas64" ]; then
    fail helpers "no libscipy_openblas64_ in $site/numpy.libs"
elif ! err=$(clean_env GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 GPULAPACK_VERBOSE=3 \
        GPULAPACK_LOG="$tmp/helpers.full.log" GPULAPACK_LAPACK="$openblas64" \
        LD_PRELOAD="$LIB" "$PY" "$CLIENT" "$tmp/helpers.json" 2>&1); then
    fail run-helpers "$(tail -n 5 <<<"$err" | tr '\n' ' ')"
fi
grep -E '^gpulapack: [a-z_0-9]+ .* path=' "$tmp/helpers.full.log" 2>/dev/null |
    grep -vE 'reason=(query|nested)' >"$tmp/helpers.log"
mkdir -p build/check
cp -f "$tmp/preload.log" build/check/wheels-preload.log 2>/dev/null

# compare <tag> <json>: ratios and values against the run without us
compare() {
    "$PY" - "$tmp/real.json" "$2" "$1" <<'EOF'
import json, sys
import numpy as np
real = json.load(open(sys.argv[1]))["results"]
ours = json.load(open(sys.argv[2]))
tag, n, ours = sys.argv[3], ours["n"], ours["results"]
THRESH = 30
for key in sorted(real):
    dtype = key.split("/")[1]
    eps = float(np.finfo(np.float32 if dtype in ("float32", "complex64") else np.float64).eps)
    r, o = real[key], ours.get(key)
    if o is None:
        print("FAIL wheels/%s/%s: missing" % (tag, key))
        continue
    a, b = np.array(r["values"]), np.array(o["values"])
    scale = max(np.abs(a).max(initial=0), 1e-300)
    diff = np.abs(a - b).max(initial=0) / (n * scale * eps) if a.shape == b.shape else np.inf
    bad = []
    if not diff < THRESH:
        bad.append("values differ by %.3g (n |values| eps)" % diff)
    ratios = ""
    if o["ratios"] is not None:
        ratios = " residual %.2f orthogonality %.2f (without: %.2f %.2f)" % (
            o["ratios"][0], o["ratios"][1], r["ratios"][0], r["ratios"][1])
        if not max(o["ratios"]) < THRESH or not max(r["ratios"]) < THRESH:
            bad.append("ratio above %d" % THRESH)
    print("%s wheels/%s/%s:%s values %.2f%s" % (
        "FAIL" if bad else "PASS", tag, key, " " + "; ".join(bad) if bad else "",
        diff, ratios))
EOF
}

# path <tag> <log>: every call on path=host, and each expected routine seen
path_check() {
    local tag=$1 log=$2
    if [ ! -s "$log" ]; then
        fail "$tag/path" "nothing logged to $log"
        return
    fi
    local others expect missing=""
    others=$(grep '^gpulapack: ' "$log" | grep -v ' path=host ' | head -n 5)
    # numpy computes float32 and complex64 in double precision: its
    # single-precision names are never called
    expect="dsyevd_64 zheevd_64 dgesdd_64 zgesdd_64
            ssyevd dsyevd cheevd zheevd ssyevr dsyevr cheevr zheevr ssyevx dsyevx cheevx zheevx
            sgesdd dgesdd cgesdd zgesdd sgesvd dgesvd cgesvd zgesvd ssbevd dsbevd chbevd zhbevd"
    for r in $expect; do
        grep -q "^gpulapack: scipy_$r .* path=host " "$log" || missing="$missing scipy_$r"
    done
    if [ -z "$others" ] && [ -z "$missing" ]; then
        pass "$tag/path ($(grep -c '^gpulapack: ' "$log") calls, all path=host, $(wc -w <<<"$expect") routines)"
    else
        fail "$tag/path" "not on path=host: $(tr '\n' ' ' <<<"$others"); never on path=host:$missing"
    fi
}

compare preload "$tmp/preload.json"
path_check preload "$tmp/preload.log"
if [ -s "$tmp/import.json" ]; then
    compare import "$tmp/import.json" | grep -c '^PASS' >"$tmp/import.count"
    total=$(compare import "$tmp/import.json" | grep -c .)
    if [ "$(cat "$tmp/import.count")" = "$total" ]; then
        pass "import/ratios ($total calls as without the library)"
    else
        compare import "$tmp/import.json" | grep '^FAIL'
    fi
    path_check import "$tmp/import.log"
fi
if [ -s "$tmp/helpers.json" ]; then
    sources=$(grep -cE 'lapack: [sdcz]gemm helpers from scipy_[sdcz]gemm_64_ names, 64-bit INTEGERs \(GPULAPACK_LAPACK\)' "$tmp/helpers.full.log")
    if [ "$sources" = 4 ]; then
        pass "helpers/source (scipy_?gemm_64_, ... of $(basename "$openblas64") in 4 precisions)"
    else
        fail helpers/source "$sources of 4 precisions from scipy_?gemm_64_: $(grep 'helpers from' "$tmp/helpers.full.log" | tr '\n' ' ')"
    fi
    results=$(compare helpers "$tmp/helpers.json")
    total=$(grep -c . <<<"$results")
    if [ "$(grep -c '^PASS' <<<"$results")" = "$total" ]; then
        pass "helpers/ratios ($total calls as without the library)"
    else
        grep '^FAIL' <<<"$results"
    fi
    path_check helpers "$tmp/helpers.log"
fi
exit 0
