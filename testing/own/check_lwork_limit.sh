#!/bin/bash
# The rules of docs/large.md ("Large matrices through 32-bit LAPACK"): an
# LP64 call whose LAPACK workspace minimum passes GPULAPACK_LWORK_LIMIT.
# Run by testing/run_checks.sh (level own); PASS/FAIL lines, about 1.5 minutes.
#
#   host      our host path takes the call (limit 60, n = 40): every routine
#             family, _2stage form and precision (test_lwork_limit ours);
#             again merging from 8 rows (its stage 3 past the system
#             ?stedc/?bdsdc's INTEGERs is our divide and conquer)
#   true      every call forwarded (GPULAPACK_DISABLE=all): the true
#             minimum, LAPACK's INFO through XERBLA (test_lwork_limit true)
#   opencl    the OpenCL device with an injected launch fault: the call
#             restarts on Debian's ILP64 liblapack64.so.3 with the
#             library's workspace (each family), or without one on the
#             host path; never on the LP64 routine
#   info      bin/gpulapack-info's rule and minimums at the sizes of docs/large.md's
#             table (the ILP64 LAPACK's answers), by path
#   python    numpy's eigh with the limit lowered (n = 300), scipy's own
#             queries at the real sizes: its "too large work array" where
#             the call is forwarded, the small answer where it is ours
#   clients   Octave and R (testing/clients/run_clients.sh) with the limit
#             at 1: every query of n >= 2 answered small, every call on the
#             host path with those sizes, LAPACK's accuracy
#
#   check_lwork_limit.sh standin   (level standin, a few seconds) the same
#             rules on the CUDA and HIP paths over the stand-in drivers
#             (testing/standin.sh): every family on each path with arrays
#             of one element; with an injected launch fault, restarted on
#             the ILP64 LAPACK (each family on CUDA) or on the host (HIP)
cd "$(dirname "$0")/../.."
LIB=${LIB:-$PWD/lib/libgpulapack.so}
OUT=${OUT:-$PWD/build/check}
PYTHON=${PYTHON:-/usr/bin/python3}
T=build/testing/test_lwork_limit
pass() { echo "PASS lwork-limit/$1"; }
fail() { echo "FAIL lwork-limit/$1: $2"; }
# the families with workspace lengths, each faulted once on a device
FAMILIES="gesvd gesdd syev syevd syevr syevx sbevd sytrd_2stage"
# restarted_on_ilp64 NAME LOG: the verdict that the faulted call (the
# family's s precision, its first) restarted on the ILP64 LAPACK
restarted_on_ilp64() {
    if grep -q "^gpulapack: s[a-z_0-9]* .*reason=lwork fault, restarted on the ILP64 LAPACK info=0" "$2"; then
        pass "$1-fault-restarts-on-ilp64"
    else
        fail "$1-fault-restarts-on-ilp64" "log $2"
    fi
}

# on_path KIND NAME [FAMILY]: test_lwork_limit ours on the stand-in KIND
# (environment from the caller), its lines renamed NAME; the log in
# $dir/NAME.log
on_path() {
    local kind=$1 name=$2
    shift 2
    testing/standin.sh "$kind" env LD_PRELOAD="$LIB" GPULAPACK_DEVICE="$kind" \
        GPULAPACK_MIN_N=0 GPULAPACK_LWORK_LIMIT=60 GPULAPACK_VERBOSE=1 \
        GPULAPACK_LOG="$dir/$name.log" "$T" ours "$@" |
        sed "s|lwork-limit/ours/|lwork-limit/$name/|"
}
if [ "${1:-}" = standin ]; then
    dir=$OUT/lwork-limit-standin
    rm -rf "$dir" && mkdir -p "$dir"
    for kind in cuda hip; do
        GPULAPACK_LAPACK64=none on_path "$kind" "$kind"
        # every call of our path's sizes ran there (the rest: a NaN, which
        # ends in LAPACK's INFO)
        if grep -q "path=$kind" "$dir/$kind.log" &&
            ! grep "path=" "$dir/$kind.log" | grep -v "path=$kind" |
                grep -vq "reason=lwork nonfinite"; then
            pass "$kind/every-call-on-$kind"
        else
            fail "$kind/every-call-on-$kind" "log $dir/$kind.log"
        fi
    done
    for fam in $FAMILIES; do
        GPULAPACK_FAULT=launch:1 on_path cuda "cuda-ilp64-$fam" "$fam"
        restarted_on_ilp64 "cuda-ilp64/$fam" "$dir/cuda-ilp64-$fam.log"
    done
    GPULAPACK_FAULT=launch:1 GPULAPACK_LAPACK64=none on_path hip hip-fault syevd
    if grep -q "ssyevd .*path=host reason=lwork-limit, hip fault info=0" "$dir/hip-fault.log"; then
        pass "hip-fault/restarts-on-host"
    else
        fail "hip-fault/restarts-on-host" "log $dir/hip-fault.log"
    fi
    exit 0
fi

dir=$OUT/lwork-limit
rm -rf "$dir" && mkdir -p "$dir"

env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=host GPULAPACK_LWORK_LIMIT=60 \
    GPULAPACK_LAPACK64=none "$T" ours |
    sed 's|lwork-limit/ours/|lwork-limit/host/|'
# the host path's stage 3 past the system ?stedc/?bdsdc's INTEGERs: our
# divide and conquer with its products on the host, merging from 8 rows
env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=host GPULAPACK_LWORK_LIMIT=60 \
    GPULAPACK_DC_LEAF=8 "$T" ours | sed 's|lwork-limit/ours/|lwork-limit/host-dc-leaf8/|'
env LD_PRELOAD="$LIB" GPULAPACK_DISABLE=all GPULAPACK_LWORK_LIMIT=60 "$T" true

# a device fault on a call sized for our path: restarted on the host
# (no ILP64 LAPACK)
log=$dir/opencl-fault.log
env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=opencl GPULAPACK_LWORK_LIMIT=60 \
    GPULAPACK_FAULT=launch:1 GPULAPACK_VERBOSE=1 GPULAPACK_LOG="$log" \
    GPULAPACK_LAPACK64=none "$T" ours syevd |
    sed 's|lwork-limit/ours/|lwork-limit/opencl/|'
if grep -q "ssyevd .*path=host reason=lwork-limit, opencl fault info=0" "$log" &&
    grep -q "dsyevd .*path=opencl" "$log" && ! grep -q "reason=fault" "$log"; then
    pass "opencl/fault-restarts-on-host"
else
    fail "opencl/fault-restarts-on-host" "log $log: $(grep -c . "$log") lines"
fi
# ... and on Debian's ILP64 liblapack64.so.3 (a namespace of its own), with
# the library's own workspace: the first call of each family (its s
# precision) faults, its values against LAPACK's
for fam in $FAMILIES; do
    log=$dir/opencl-ilp64-$fam.log
    env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=opencl GPULAPACK_LWORK_LIMIT=60 \
        GPULAPACK_FAULT=launch:1 GPULAPACK_VERBOSE=1 GPULAPACK_LOG="$log" \
        "$T" ours "$fam" | sed "s|lwork-limit/ours/|lwork-limit/opencl-ilp64/|"
    restarted_on_ilp64 "opencl-ilp64/$fam" "$log"
done

# bin/gpulapack-info: the rule, and LAPACK's minimums as the ILP64 LAPACK
# answers them (docs/large.md's table); ?gesvd's minimum fits, but its LP64
# choice of path overflows (N*N terms): its largest path's workspace
info() { LD_LIBRARY_PATH="$(dirname "$LIB")" "$@"; }
while read -r routine job n want; do
    got=$(info env GPULAPACK_DISABLE=all bin/gpulapack-info "$routine" "$job" "$n")
    if grep -q "path=lapack reason=disabled lwork=true-size lwork_min=$want\$" <<<"$got"; then
        pass "info/$routine-$job-$n-true-size"
    else
        fail "info/$routine-$job-$n-true-size" "$got (want lwork_min=$want)"
    fi
    got=$(info env GPULAPACK_DEVICE=host bin/gpulapack-info "$routine" "$job" "$n")
    if grep -q "path=host lwork=ours lwork_min=$want\$" <<<"$got"; then
        pass "info/$routine-$job-$n-ours"
    else
        fail "info/$routine-$job-$n-ours" "$got"
    fi
done <<'TABLE'
dgesdd S 26755 2147677360
dgesdd S 32767 3221258236
dsyevd V 32767 2147549181
dsyevd V 46341 4295254609
zheevd V 32767 2147516414
zheevd V 46341 4295208268
dgesvd SS 46341 4295254608
TABLE
got=$(info bin/gpulapack-info dsyevd V 300)
if grep -q "lwork=lapack lwork_min=181801\$" <<<"$got"; then
    pass "info/below-the-limit"
else
    fail "info/below-the-limit" "$got"
fi

# numpy and scipy
py() { env LD_PRELOAD="$LIB" "$@"; }
client=testing/clients/lwork_limit_client.py
if "$PYTHON" "$client" reference "$dir/ref.npz" 2>"$dir/ref.err"; then
    log=$dir/numpy.log
    py GPULAPACK_DEVICE=host GPULAPACK_LWORK_LIMIT=100000 GPULAPACK_VERBOSE=2 \
        GPULAPACK_LOG="$log" "$PYTHON" "$client" ours "$dir/ref.npz"
    if grep -q "dsyevd .*reason=query lwork-limit ours" "$log" &&
        grep -q "dsyevd .*n=300 path=host" "$log"; then
        pass "numpy/queried-and-run-on-host"
    else
        fail "numpy/queried-and-run-on-host" "log $log"
    fi
else
    fail python/reference "$(tail -1 "$dir/ref.err")"
fi
py GPULAPACK_DISABLE=all "$PYTHON" "$client" forward
py GPULAPACK_DEVICE=host "$PYTHON" "$client" query-ours

# Octave and R, which size WORK (and IWORK, RWORK) from the query alone:
# with the limit at 1 every call of n >= 2 is over it, so each query
# answers the small sizes and each call runs on the host path with them,
# against the results of the run without the library (LAPACK's accuracy;
# testing/clients/run_clients.sh). The log's queries say which rule
# answered (verbosity 2)
env GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 GPULAPACK_LWORK_LIMIT=1 \
    GPULAPACK_VERBOSE=2 \
    testing/clients/run_clients.sh --only octave,r --compare accuracy \
    --expect-path host --out "$dir/clients" "$LIB" 2>"$dir/clients.err" |
    sed 's|^\(PASS\|FAIL\) clients/|\1 lwork-limit/clients/|'
for client in octave r; do
    log=$dir/clients/$client.log
    ours=$(grep -c 'reason=query lwork-limit ours' "$log" 2>/dev/null)
    # a query of our path's sizes (n >= 2) answered any other way
    other=$(grep 'reason=query' "$log" 2>/dev/null | grep -v 'lwork-limit ours' |
            grep -Ev ' (n|m)=[01] ' | head -1)
    if [ "${ours:-0}" -gt 0 ] && [ -z "$other" ]; then
        pass "clients/$client/queries-answered-small"
    else
        fail "clients/$client/queries-answered-small" \
            "${ours:-0} small answers; ${other:-none other}"
    fi
done
