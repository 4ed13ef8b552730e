#!/bin/bash
# unit/methods: the method of a ?syev-family call on a GPU path
# (docs/design/methods.md) as the log names it (method=), from a tune file
# that names all four choices -- the GPU's crossover (below it the call is
# not on the GPU: LAPACK for a named device, the host path under auto),
# two-stage, one-stage and vendor per size and job -- on PoCL's OpenCL
# device; GPULAPACK_METHOD over the table; the vendor's entry falling back
# to two-stage where the runtime has no vendor solver (OpenCL never has
# one); the SVD always two-stage; a malformed method line ignoring the
# file.  One PASS/FAIL line per check.
cd "$(dirname "$0")/../.."
CALL=build/testing/auto_call
T=$(mktemp -d "${TMPDIR:-/tmp}/gpulapack-methods.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache HOME=$T GPULAPACK_DEVICE=opencl
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
unset GPULAPACK_MIN_N GPULAPACK_TUNE_FILE GPULAPACK_LOG GPULAPACK_METHOD

verdict() { # verdict <ok 0/1> <name> <detail>
    if [ "$1" = 1 ]; then echo "PASS unit/methods/$2"; else echo "FAIL unit/methods/$2: $3"; fi
}
run() { # run <logfile> <command...>
    local log=$1
    shift
    GPULAPACK_VERBOSE=1 "$@" >"$log" 2>&1
}
# line <log> <routine> <job> <n>: the call's log line
line() { grep -m1 "^gpulapack: $2 jobz=$3 .*n=$4 path=" "$1"; }
# expect <log> <name> <routine> <job> <n> <text>
expect() {
    local l
    l=$(line "$1" "$3" "$4" "$5")
    verdict $(grep -q -- "$6" <<<"$l" && echo 1 || echo 0) "$2" "want '$6', got '$l' (see $1)"
}

host=$(bin/gpulapack-tune -q --paths none --families none -o $T/id.txt; head -1 $T/id.txt | sed 's/.*host=//')
# the OpenCL device's identity, from the line that rejects another's
printf 'gpulapack-tune 1 host=%s gpu=opencl:nobody/1\nmethod syevd N d opencl 0 one-stage\n' "$host" >$T/probe.txt
run $T/probe.log env GPULAPACK_MIN_N=0 GPULAPACK_TUNE_FILE=$T/probe.txt $CALL dsyevd N 8
ident=$(sed -n 's/.*this opencl device is \(.*\): ignored.*/\1/p' $T/probe.log | head -1)
verdict $([ -n "$ident" ] && echo 1 || echo 0) identity "no OpenCL device identity (see $T/probe.log)"

cat >$T/table.txt <<TABLE
gpulapack-tune 1 host=$host gpu=opencl:$ident
syevd N d opencl 48
syevd V d opencl 48
heevd N z opencl 48
syevd N d host 16
gesdd N d opencl 0
method syevd N d opencl 0 one-stage
method syevd N d opencl 100 two-stage
method syevd N d opencl 150 vendor
method syevd V d opencl 0 two-stage
method syevd V d opencl 80 one-stage
method heevd N z opencl 0 vendor
TABLE
run $T/t.log env GPULAPACK_TUNE_FILE=$T/table.txt $CALL dsyevd N 40 dsyevd N 64 dsyevd N 120 \
    dsyevd N 160 dsyevd V 64 dsyevd V 96 dsyevr N 64 dsyevr I 96 zheevd N 64 dgesdd N 64
expect $T/t.log host dsyevd N 40 "path=lapack reason=size"
expect $T/t.log one-stage-below dsyevd N 64 "path=opencl method=one-stage "
expect $T/t.log two-stage-between dsyevd N 120 "path=opencl method=two-stage "
expect $T/t.log vendor-falls-back dsyevd N 160 "path=opencl method=two-stage "
expect $T/t.log vectors-two-stage dsyevd V 64 "path=opencl method=two-stage "
expect $T/t.log vectors-one-stage dsyevd V 96 "path=opencl method=one-stage "
expect $T/t.log sibling-syevr dsyevr N 64 "path=opencl method=one-stage "
expect $T/t.log syevr-subset-vectors dsyevr V 96 "path=opencl method=one-stage .*info=0"
expect $T/t.log complex-vendor-falls-back zheevd N 64 "path=opencl method=two-stage "
verdict $(grep -q "^gpulapack: dgesdd .*path=opencl method=two-stage " $T/t.log && echo 1 || echo 0) \
    svd-two-stage "$(grep '^gpulapack: dgesdd' $T/t.log)"

# GPULAPACK_METHOD over the table; vendor falls back
run $T/m1.log env GPULAPACK_TUNE_FILE=$T/table.txt GPULAPACK_METHOD=two-stage $CALL dsyevd N 64
expect $T/m1.log env-two-stage dsyevd N 64 "method=two-stage "
run $T/m2.log env GPULAPACK_TUNE_FILE=$T/table.txt GPULAPACK_METHOD=one-stage $CALL dsyevd N 120 dgesdd N 64
expect $T/m2.log env-one-stage dsyevd N 120 "method=one-stage .*info=0"
verdict $(grep -q "^gpulapack: dgesdd .*method=two-stage " $T/m2.log && echo 1 || echo 0) \
    env-svd-stays-two-stage "$(grep '^gpulapack: dgesdd' $T/m2.log)"
run $T/m3.log env GPULAPACK_MIN_N=0 GPULAPACK_METHOD=vendor $CALL dsyevd V 64
expect $T/m3.log env-vendor-falls-back dsyevd V 64 "method=two-stage .*info=0"

# built in: OpenCL two-stage at every size; the host path names no method
run $T/b.log env GPULAPACK_MIN_N=0 $CALL dsyevd N 64 dsyevd V 64
expect $T/b.log builtin-opencl dsyevd N 64 "path=opencl method=two-stage "
run $T/h.log env GPULAPACK_MIN_N=0 GPULAPACK_DEVICE=host $CALL dsyevd N 64
l=$(line $T/h.log dsyevd N 64)
verdict $(grep -q "path=host reason=" <<<"$l" && ! grep -q "method=" <<<"$l" && echo 1 || echo 0) \
    host-no-method "$l"

# a malformed method line: the file is ignored, the built-in table applies
sed 's/100 two-stage/100 three-stage/' $T/table.txt >$T/bad.txt
run $T/bad.log env GPULAPACK_TUNE_FILE=$T/bad.txt GPULAPACK_MIN_N=0 $CALL dsyevd N 64
verdict $(grep -q "line 8 malformed: ignored" $T/bad.log &&
          line $T/bad.log dsyevd N 64 | grep -q "method=two-stage " && echo 1 || echo 0) \
    malformed-ignored "(see $T/bad.log)"
