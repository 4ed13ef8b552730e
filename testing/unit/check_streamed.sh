#!/bin/bash
# The streamed plan (docs/design/memory.md): the Hermitian eigenvalues of
# a matrix larger than the device, its working copy in host memory
# streamed through the device in tiles.  On PoCL, n = 1024 under a cap of
# 1 MiB (1/8 of the matrix in double; 2 MiB for complex), band 16, tiles
# of 64, for dsyevd N, zheevd N and dsyevr N:
#  - the log says plan=streamed (plan=in-core without the cap);
#  - the profile's device peak is under the cap;
#  - the values equal the in-core run's within 10 n eps max|w|;
#  - the bytes each way equal the model (below) within 2%: one read and
#    one write of each tile of the trailing lower triangle per panel, the
#    panel's column block up, its band rows down;
#  - an allocation refused in core: the streamed plan takes the call;
#  - a cap under the streamed plan's minimum: LAPACK, device-memory;
#  - a copy that fails part way through the streaming: the call restarts
#    on LAPACK (reason=fault) from the caller's untouched A (values as
#    LAPACK's).
# One PASS/FAIL line per check.
cd "$(dirname "$0")/../.."
CALL=build/testing/auto_call
N=1024 B=16 TILE=64
T=$(mktemp -d "${TMPDIR:-/tmp}/gpulapack-streamed.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache HOME=$T
unset GPULAPACK_DEVICE GPULAPACK_MIN_N GPULAPACK_TUNE_FILE GPULAPACK_LOG \
    GPULAPACK_DEVICE_MEMORY_MB GPULAPACK_PLAN GPULAPACK_FAULT

verdict() { # verdict <ok 0/1> <name> <detail>
    if [ "$1" = 1 ]; then echo "PASS unit/streamed/$2"; else echo "FAIL unit/streamed/$2: $3"; fi
}
# call <routine> <values file> [env...]: one call on the OpenCL device
call() {
    local routine=$1 values=$2
    shift 2
    env AUTO_CALL_VALUES="$values" GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 \
        GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 GPULAPACK_OOC_BAND=$B \
        GPULAPACK_OOC_TILE=$TILE "$@" $CALL "$routine" N $N 2>&1
}
# same <a> <b>: 1 when the two runs' values agree within 10 n eps max|w|
same() {
    paste "$1" "$2" | awk -v n=$N 'NF == 2 { d = $1 - $2; if (d < 0) d = -d
            if (d > m) m = d; a = $1 < 0 ? -$1 : $1; if (a > w) w = a; rows++ }
        END { print (rows == n && m <= 10 * n * 2.220446e-16 * w) ? 1 : 0 }'
}
# bytes <log>: host -> device and device -> host bytes of the profile
bytes() {
    awk '/ profile: stage=/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^bytes=/) b = substr($i, 7) + 0
            if ($0 ~ /op="write"/) w += b; if ($0 ~ /op="read"/) r += b; b = 0 }
        END { printf "%.0f %.0f\n", w, r }' <<<"$1"
}
# model <element bytes>: the streaming's bytes each way, by the tiles the
# passes enumerate (kernels/sy2sb_streamed.c), the band's upload and the
# chase's O(n) reads left out (under 0.5%)
model() {
    awk -v n=$N -v b=$B -v t=$TILE -v e="$1" 'BEGIN {
        for (k = 0; n - k - b >= 2; k += b) {
            up += (n - k) * b
            r1 = k + 2 * b < n ? k + 2 * b : n
            down += (r1 - k) * b
            for (c0 = k + b; c0 < n; c0 += t) {
                cols = n - c0 < t ? n - c0 : t
                for (r0 = c0; r0 < n; r0 += t) {
                    rows = n - r0 < t ? n - r0 : t
                    up += rows * cols; down += rows * cols
                }
            }
        }
        rest = n - k; up += rest * rest; down += rest * rest
        printf "%.0f %.0f\n", up * e, down * e }'
}

for spec in "dsyevd 8 1" "zheevd 16 2" "dsyevr 8 1"; do
    set -- $spec
    routine=$1 es=$2 cap=$3
    log=$(call $routine $T/in-core)
    ok=$(grep -q "path=opencl .*plan=in-core" <<<"$log" && echo 1 || echo 0)
    verdict "$ok" "$routine-in-core" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
    log=$(call $routine $T/streamed GPULAPACK_DEVICE_MEMORY_MB=$cap)
    peak=$(grep -o "device peak=[0-9]*" <<<"$log" | head -1 | cut -d= -f2)
    ok=$(grep -q "path=opencl .*plan=streamed" <<<"$log" && [ -n "$peak" ] &&
        [ "$peak" -le $((cap << 20)) ] && echo 1 || echo 0)
    verdict "$ok" "$routine-streamed" "cap $cap MiB, peak ${peak:-none}: $(grep -o 'path=.*info' <<<"$log" | head -1)"
    verdict "$(same $T/in-core $T/streamed)" "$routine-values" \
        "the streamed run's values differ from the in-core run's"
    read -r up down < <(bytes "$log")
    read -r mup mdown < <(model $es)
    ok=$(awk -v a="$up" -v b="$down" -v c="$mup" -v d="$mdown" 'BEGIN {
        print (a >= 0.98 * c && a <= 1.02 * c && b >= 0.98 * d && b <= 1.02 * d) ? 1 : 0 }')
    verdict "$ok" "$routine-bus-bytes" "host->device $up bytes (model $mup), device->host $down (model $mdown)"
    echo "# $routine: host->device $up bytes (model $mup), device->host $down (model $mdown); the matrix is $((N * N * es))"

    # a copy that fails part way: LAPACK from the caller's A
    log=$(call $routine $T/fault GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_FAULT=copy:700)
    ok=$(grep -q "path=lapack reason=fault opencl" <<<"$log" && [ "$(same $T/in-core $T/fault)" = 1 ] && echo 1 || echo 0)
    verdict "$ok" "$routine-fault" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
done

# an allocation the device refuses in core (GPULAPACK_FAULT=alloc:1, as
# another process taking the memory would): the streamed plan, before
# LAPACK
call dsyevd $T/in-core >/dev/null
log=$(call dsyevd $T/retry GPULAPACK_FAULT=alloc:1)
ok=$(grep -q "refused in core: the streamed plan" <<<"$log" &&
    grep -q "path=opencl .*plan=streamed" <<<"$log" &&
    [ "$(same $T/in-core $T/retry)" = 1 ] && echo 1 || echo 0)
verdict "$ok" dsyevd-retry "$(grep -o 'path=.*info' <<<"$log" | head -1)"

# under the streamed plan's minimum (its six n x b blocks alone are 768
# KiB in double): LAPACK, and why
log=$(call dsyevd $T/under GPULAPACK_DEVICE_MEMORY_MB=0.5)
ok=$(grep -q "path=lapack reason=device device-memory" <<<"$log" && echo 1 || echo 0)
verdict "$ok" dsyevd-under "$(grep -o 'path=.*info' <<<"$log" | head -1)"
