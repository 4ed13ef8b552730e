#!/bin/bash
# Several devices in one call (kernels/peers.c): on PoCL made to show two
# or three devices (POCL_DEVICES), GPULAPACK_DEVICE=opencl:all or a list
# shares the back-transformation of the vectors by columns (dsyevd V,
# zheevd V; dgesdd S: both U's and VT's).
#  - the log names the set (its first device) and the call says devices=N;
#  - each other device's profile shows its share: the reflectors' copy
#    and its columns up, its columns (n x m/N) down;
#  - the values are those of one device (the same bits: only the
#    back-transformation is split) -- the vectors are checked by
#    own-opencl/test_vectors-devices.
# One PASS/FAIL line per check.
cd "$(dirname "$0")/../.."
CALL=build/testing/auto_call
T=$(mktemp -d "${TMPDIR:-/tmp}/gpulapack-devices.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache HOME=$T
unset GPULAPACK_DEVICE GPULAPACK_MIN_N GPULAPACK_TUNE_FILE GPULAPACK_LOG \
    GPULAPACK_DEVICE_MEMORY_MB GPULAPACK_PLAN

verdict() { # verdict <ok 0/1> <name> <detail>
    if [ "$1" = 1 ]; then echo "PASS unit/devices/$2"; else echo "FAIL unit/devices/$2: $3"; fi
}
# call <pocl devices> <GPULAPACK_DEVICE> <routine> <n> <values file>: with
# vectors (JOBZ 'V'; 'S' for the SVD)
call() {
    local job=V
    [[ $3 == *gesdd ]] && job=S
    env POCL_DEVICES="$1" GPULAPACK_DEVICE="$2" AUTO_CALL_VALUES="$5" \
        GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 GPULAPACK_MIN_N=0 \
        $CALL "$3" $job "$4" 2>&1
}
# bytes <log> <profile name> <op>: the bytes of that profile's op rows
bytes() {
    awk -v who="$2 profile:" -v op="op=\"$3\"" 'index($0, who) && index($0, op) {
            for (i = 1; i <= NF; i++) if ($i ~ /^bytes=/) s += substr($i, 7) }
        END { printf "%.0f\n", s }' <<<"$1"
}

for spec in "dsyevd 512 8 pthread-pthread opencl:all 2 opencl:0.0 opencl:0.1" \
    "zheevd 300 16 pthread-pthread-pthread opencl:all 3 opencl:0.0 opencl:0.2" \
    "dsyevd 256 8 pthread-pthread opencl:0.1,0.0 2 opencl:0.1 opencl:0.0" \
    "dgesdd 300 8 pthread-pthread opencl:all 2 opencl:0.0 opencl:0.1"; do
    set -- $spec
    routine=$1 n=$2 es=$3 pocl=${4//-/ } set=$5 k=$6 first=$7 peer=$8
    name="$routine-$n-$set"
    one=$(call "$pocl" opencl "$routine" $n $T/one)
    log=$(call "$pocl" "$set" "$routine" $n $T/set)
    ok=$(grep -q "path=opencl .*devices=$k " <<<"$log" &&
        grep -q "opencl: $k devices share each call's work, $first first" <<<"$log" &&
        grep -q "path=opencl " <<<"$one" && echo 1 || echo 0)
    verdict "$ok" "$name/log" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
    up=$(bytes "$log" "$routine@$peer" write) down=$(bytes "$log" "$routine@$peer" read)
    share=$(( n / k ))
    sides=1   # the SVD: U's and VT's columns
    [[ $routine == *gesdd ]] && sides=2
    # (the profile prints 3 significant digits)
    ok=$(awk -v u="$up" -v d="$down" -v c=$((sides * n * share * es)) -v a=$((n * n * es)) \
        'BEGIN { print (d >= 0.995 * c && d <= 1.005 * c && u >= 0.995 * (a + c)) ? 1 : 0 }')
    verdict "$ok" "$name/share" "$peer: $up bytes up (at least $((n * n * es + sides * n * share * es))), $down down (its $share columns: $((sides * n * share * es)))"
    echo "# $name: $peer took $up bytes up, $down down; $((n * n * es)) per matrix"
    ok=$(cmp -s $T/one $T/set && echo 1 || echo 0)
    verdict "$ok" "$name/values" "the values differ from one device's"
done
