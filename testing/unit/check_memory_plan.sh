#!/bin/bash
# Device memory plans that tell the truth (docs/design/memory.md).
#  plan/*   on the OpenCL device (PoCL here), for each routine and job of
#           auto_call, in core, by the lean plans (the ?syev family's
#           vectors; dgesdd S, tall (T) and O, zgesdd S) and by the
#           streamed plans (the ?syev family's; dgesdd S and tall,
#           zgesdd S; without a cap their chase keeps its stores on
#           the device, and dsyevd V and dgesdd S again parked in
#           segments of 32 sweeps, GPULAPACK_OOC_SEGMENT):
#           the plan the policy fitted (the log's device_bytes=) within
#           10% of the device high-water mark the runtime's ledger
#           measured (the profile's "device peak");
#  cap/*    the same call under GPULAPACK_DEVICE_MEMORY_MB at its plan:
#           it runs on the device (its plan=) and its peak stays under
#           the cap; just under its in-core plan, the in-core plan alone
#           goes to LAPACK with reason=device device-memory;
#  query/*  gpulapack_plan_call (bin/gpulapack-info ROUTINE JOBS N [M]),
#           asked before the call: the plan the call then logged, byte
#           for byte; under a cap, LAPACK with the call's reason; a
#           routine or jobs it does not know, exit status 2;
#  free/*   under the automatic choice, over the stand-in CUDA driver
#           (testing/unit/mock), the free memory it reports: a call whose
#           plan does not fit it goes to the host path (device-memory),
#           one that fits goes to the device (whose kernels fail there:
#           reason=fault cuda).
# One PASS/FAIL line per check.
cd "$(dirname "$0")/../.."
CALL=build/testing/auto_call
CUDA=build/testing/mock-cuda
INFO=bin/gpulapack-info
N=${GL_PLAN_N:-384}
declare -A PLANS
T=$(mktemp -d "${TMPDIR:-/tmp}/gpulapack-plan.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache HOME=$T
unset GPULAPACK_DEVICE GPULAPACK_MIN_N GPULAPACK_TUNE_FILE GPULAPACK_LOG \
    GPULAPACK_DEVICE_MEMORY_MB GPULAPACK_BAND
CHECK=memory-plan
. testing/unit/plan_checks.sh

opencl() { # opencl <routine> <job> [env...]: the call on the OpenCL device, profiled
    local routine=$1 job=$2
    shift 2
    env GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 GPULAPACK_DEVICE=opencl \
        GPULAPACK_MIN_N=0 "$@" $CALL "$routine" "$job" $N 2>&1
}

for spec in "dsyevd N" "dsyevd V" "zheevd N" "zheevd V" "dsyevr V" \
    "dsyevr I" "dgesdd N" "dgesdd S" "dgesdd A" "dgesdd T" "zgesdd N" \
    "zgesdd S" "dgesvd S" "dsytrd N" "dsbevd N" "dsbevd V" "dgbbrd N" \
    "dgbbrd B" "dsyevd V lean" "zheevd V lean" "dsyevr I lean" \
    "dgesdd S lean" "zgesdd S lean" "dgesdd T lean" "dgesdd O lean" \
    "dsyevd N streamed" "dsyevd V streamed" "zheevd V streamed" \
    "dgesdd S streamed" "zgesdd S streamed" "dgesdd T streamed" \
    "dsyevd V streamed 32" "dgesdd S streamed 32"; do
    set -- $spec
    tier=${3:-in-core}
    name="$1-$2-$N${3:+-$3}${4:+-parked-$4}"
    export GPULAPACK_OOC_SEGMENT=${4:-0}
    log=$(opencl "$1" "$2" GPULAPACK_PLAN=$tier)
    plan=$(field "$log" device_bytes) peak=$(field "$log" "device peak")
    if ! grep -q "path=opencl .*plan=$tier" <<<"$log" || [ -z "$plan" ] ||
        [ -z "$peak" ] || [ "$peak" = 0 ]; then
        verdict 0 "plan/$name" "not run on path=opencl with a plan and a peak: $(grep 'path=' <<<"$log" | head -1)"
        continue
    fi
    [ "$tier" = in-core ] && PLANS[$1-$2]=$plan
    ok=$(awk -v p="$plan" -v q="$peak" 'BEGIN { d = p - q; if (d < 0) d = -d; print (d <= 0.1 * q) ? 1 : 0 }')
    verdict "$ok" "plan/$name" "plan $plan bytes, peak $peak"
    echo "# $name: plan $plan bytes, device peak $peak ($(awk -v p="$plan" -v q="$peak" 'BEGIN { printf "%.4f", p / q }') of it)"

    # the cap at the plan, a little above the peak where the plan is under
    cap=$(awk -v p="$plan" -v q="$peak" 'BEGIN { m = p > q ? p : q; printf "%.6f", m / 1048576 + 0.001 }')
    log=$(opencl "$1" "$2" GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_PLAN=$tier)
    capped=$(field "$log" "device peak")
    ok=$(grep -q "path=opencl .*plan=$tier" <<<"$log" && [ -n "$capped" ] &&
        awk -v c="$cap" -v q="$capped" 'BEGIN { exit !(q <= c * 1048576) }' && echo 1 || echo 0)
    verdict "$ok" "cap/$name" "cap $cap MiB: peak ${capped:-none}, $(grep -o 'path=[a-z]* .*reason=[a-z -]*' <<<"$log" | head -1)"
done

unset GPULAPACK_OOC_SEGMENT

# a cap just under the plan: LAPACK, and the log says why
for spec in "dsyevd V" "dgesdd S"; do
    set -- $spec
    # the in-core plan, as its call above logged it (the plan of the call
    # without a cap: query/ below checks the C API's answer for it)
    plan=${PLANS[$1-$2]}
    under=$(awk -v p="${plan:-0}" 'BEGIN { printf "%.6f", p / 1048576 * 0.95 }')
    log=$(opencl "$1" "$2" GPULAPACK_DEVICE_MEMORY_MB=$under GPULAPACK_PLAN=in-core)
    ok=$(grep -q "path=lapack reason=device device-memory" <<<"$log" && echo 1 || echo 0)
    verdict "$ok" "cap/$1-$2-$N-under" "cap $under MiB (plan $plan): $(grep -o 'path=.*info' <<<"$log" | head -1)"
done

# the C API's answer before the call: auto_call's jobs as LAPACK's
# (dgesvd S is JOBU = JOBVT = 'S', dgesdd T is S on a 2N x N matrix)
query() { # query <routine> <jobs> <n> [m] [env...]
    local routine=$1 jobs=$2 n=$3 m=$4
    shift 4
    env GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 "$@" $INFO "$routine" "$jobs" "$n" "$m" 2>&1
}
for spec in "dsyevd N N $N" "dsyevd V V $N" "zheevd V V $N" "dgesdd S S $N" \
    "dgesdd T S $((2 * N))" "zgesdd S S $N" "dgesvd S SS $N"; do
    set -- $spec
    out=$(query "$1" "$3" $N "$4")
    got=$(field "$out" device_bytes)
    ok=$(grep -q "path=opencl plan=in-core" <<<"$out" && [ -n "${PLANS[$1-$2]}" ] &&
        [ "$got" = "${PLANS[$1-$2]}" ] && echo 1 || echo 0)
    verdict "$ok" "query/$1-$2-$N" "asked: $out; the call's plan: ${PLANS[$1-$2]:-none}"
done
out=$(query dsyevd V $N $N GPULAPACK_DEVICE_MEMORY_MB=0.01)
ok=$(grep -q "path=lapack reason=device device-memory" <<<"$out" && echo 1 || echo 0)
verdict "$ok" "query/dsyevd-V-$N-under" "$out"
out=$(query dsyevd V 100 100 GPULAPACK_MIN_N=200)
ok=$(grep -q "path=lapack reason=size" <<<"$out" && echo 1 || echo 0)
verdict "$ok" query/below-crossover "$out"
ok=1
for bad in "zsyevd V" "dheevd V" "dsyevr V" "dgesvd OO" "dgesdd X" "dgeqrf N"; do
    query $bad $N $N >/dev/null
    [ $? = 2 ] || ok=0
done
verdict "$ok" query/unknown "a routine or jobs not the library's: exit status 2"

# the free memory the driver reports, under auto: dsyevd V at n = 2000
# plans about 145 MB on the stand-in CUDA device
auto() { # auto <free MiB> [env...]: the in-core plan alone
    local free=$1
    shift
    env LD_LIBRARY_PATH=$CUDA GL_MOCK_FREE_MB=$free GPULAPACK_VERBOSE=1 \
        GPULAPACK_MIN_N=0 GPULAPACK_PLAN=in-core "$@" $CALL dsyevd V 2000 2>&1
}
log=$(auto 100)
ok=$(grep -q "path=host reason=device-memory" <<<"$log" && echo 1 || echo 0)
verdict "$ok" free/under "free 100 MiB: $(grep -o 'path=.*info' <<<"$log" | head -1)"
out=$(env LD_LIBRARY_PATH=$CUDA GL_MOCK_FREE_MB=100 GPULAPACK_MIN_N=0 GPULAPACK_PLAN=in-core \
    $INFO dsyevd V 2000 2>&1)
ok=$(grep -q "path=host" <<<"$out" && echo 1 || echo 0)
verdict "$ok" free/under-query "free 100 MiB, asked before: $out"
log=$(auto 1000)
ok=$(grep -q "path=lapack reason=fault cuda" <<<"$log" && echo 1 || echo 0)
verdict "$ok" free/over "free 1000 MiB: $(grep -o 'path=.*info' <<<"$log" | head -1)"
log=$(auto 1000 GPULAPACK_DEVICE_MEMORY_MB=100)
ok=$(grep -q "path=host reason=device-memory" <<<"$log" && echo 1 || echo 0)
verdict "$ok" free/cap "free 1000 MiB, cap 100 MiB: $(grep -o 'path=.*info' <<<"$log" | head -1)"
