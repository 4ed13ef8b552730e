#!/bin/bash
# ILP64 callers (64-bit INTEGERs) under LD_PRELOAD with the host path
# forced (GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0):
#   suffix64  a C program calling dsyevd_64_, dgesdd_64_, zheevd_64_,
#             linked against a shim that provides those names over Debian's
#             ILP64 libopenblas64.so.0 (Debian has no suffixed build; the
#             shim is built here, testing/clients/ilp64_shim.c): first
#             without the library (the shim's own results), then preloaded:
#             LAPACK's residual and orthogonality ratios, WORK(1)/IWORK(1)
#             of the queries, every valid call logged path=host, and the
#             invalid arguments' INFO and xerbla_ message the same as
#             without the library;
#   plain     the same program calling the plain dsyevd_, dgesdd_,
#             zheevd_ (and dsyev_, dsyevd_ and dsyevd_2stage_ JOBZ 'N',
#             dsyevr_ RANGE 'I', dsytrd_, dgesvd_ 'N')
#             with 64-bit INTEGERs, linked with -llapack64 (Debian's
#             liblapack64-3 alternative: OpenBLAS's or the reference),
#             without the library, then preloaded: the library finds the
#             plain names ILP64 (ilaver_), reads them with 64-bit
#             INTEGERs and calls that LAPACK's helpers through its
#             adapters: the same ratios and checks, every valid call on
#             path=host, the same xerbla_ messages; again over the
#             reference liblapack64 (LD_LIBRARY_PATH), valid calls only
#             (its xerbla_ stops the program).
# Needs liblapack64-dev and libopenblas64-0 (tools/install-deps.sh).
# usage: testing/clients/check_ilp64.sh [LIB]; prints PASS/FAIL lines.
cd "$(dirname "$0")/../.."
LIB=$(readlink -f "${1:-lib/libgpulapack.so}")
CC=${CC:-cc}
OUT=build/ilp64
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS ilp64/$1"; }
fail() { echo "FAIL ilp64/$1: $2"; }

CFLAGS="-std=c11 -Wall -Wextra -O2"
if ! err=$($CC $CFLAGS -fPIC -shared testing/clients/ilp64_shim.c \
        -o "$OUT/libilp64shim.so" -ldl 2>&1) ||
    ! err=$($CC $CFLAGS -DSUFFIX64 testing/clients/ilp64_client.c \
        -o "$OUT/client_suffix64" -L"$OUT" -lilp64shim \
        -Wl,-rpath,"$PWD/$OUT" -lm 2>&1); then
    fail build-suffix64 "$err"
    exit 0
fi
if ! err=$($CC $CFLAGS testing/clients/ilp64_client.c -o "$OUT/client_plain" \
        -llapack64 -lm 2>&1); then
    fail build-plain "$err (liblapack64-dev installed?)"
    exit 0
fi
pass build
if ! /sbin/ldconfig -p | grep -q 'libopenblas64\.so\.0 '; then
    fail setup "no libopenblas64.so.0 (tools/install-deps.sh installs libopenblas64-0)"
    exit 0
fi

# run <tag> <preload: 0|1> <program> [args] — stdout to $tmp/<tag>.out,
# stderr (the xerbla_ messages) to $tmp/<tag>.err, the log to <tag>.log.
run() {
    local tag=$1 preload=$2 prog=$3
    shift 3
    rm -f "$tmp/$tag.log"
    if [ "$preload" = 1 ]; then
        env GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 GPULAPACK_VERBOSE=1 \
            GPULAPACK_LOG="$tmp/$tag.log" LD_PRELOAD="$LIB" \
            "$prog" "$tag" "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err"
    else
        env -u LD_PRELOAD "$prog" "$tag" "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err"
    fi
    local rc=$?
    grep -E '^(PASS|FAIL) ' "$tmp/$tag.out"
    cp -f "$tmp/$tag.log" "$OUT/$tag.log" 2>/dev/null
    [ "$rc" -eq 0 ] || fail "$tag" "exit code $rc: $(tail -n 3 "$tmp/$tag.err" | tr '\n' ' ')"
}

# on_path <tag> <routine>...: every valid call of each routine logged
# path=host (at least one)
on_path() {
    local tag=$1 log=$tmp/$1.log r valid host
    shift
    for r in "$@"; do
        valid=$(grep -E "^gpulapack: $r .* info=0 " "$log" 2>/dev/null | grep -vc 'reason=query')
        host=$(grep -E "^gpulapack: $r .* path=host .* info=0 " "$log" 2>/dev/null | grep -c .)
        if [ "$host" -ge 1 ] && [ "$host" = "$valid" ]; then
            pass "$tag/$r-path ($host calls on path=host)"
        else
            fail "$tag/$r-path" "$host of $valid valid calls on path=host: $(grep "$r" "$log" | head -n 5 | tr '\n' ' ')"
        fi
    done
}

# same_xerbla <tag>: the invalid arguments' messages as without the
# library (OpenBLAS's xerbla_ prints to stdout, the reference's to stderr)
same_xerbla() {
    grep -h 'illegal value' "$tmp/$1-real.out" "$tmp/$1-real.err" >"$tmp/real.xerbla"
    grep -h 'illegal value' "$tmp/$1.out" "$tmp/$1.err" >"$tmp/ours.xerbla"
    if [ "$(grep -c . "$tmp/ours.xerbla")" -ge 4 ] && cmp -s "$tmp/real.xerbla" "$tmp/ours.xerbla"; then
        pass "$1/xerbla ($(grep -c . "$tmp/ours.xerbla") messages as without the library)"
    else
        fail "$1/xerbla" "$(diff "$tmp/real.xerbla" "$tmp/ours.xerbla" | head -n 6 | tr '\n' ' ')"
    fi
}

# the shim alone, then under the library
run suffix64-real 0 "$OUT/client_suffix64"
run suffix64 1 "$OUT/client_suffix64"
on_path suffix64 dsyevd_64 dgesdd_64 zheevd_64
same_xerbla suffix64

# plain names over Debian's ILP64 liblapack64
run plain-real 0 "$OUT/client_plain"
run plain 1 "$OUT/client_plain"
on_path plain dsyevd dgesdd zheevd dsyev dsyevr dsyevd_2stage dsytrd dgesvd
same_xerbla plain
if [ -d /usr/lib/x86_64-linux-gnu/lapack64 ]; then
    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/lapack64 run plain-reference 1 \
        "$OUT/client_plain" 300 valid
    on_path plain-reference dsyevd dgesdd zheevd dsyev dsyevr dsyevd_2stage dsytrd dgesvd
fi
exit 0
