#!/bin/bash
# The window chases' global-memory traffic, counted by the kernels
# themselves and written by GPULAPACK_PROFILE (rows chase_read and
# chase_written: calls = the steps run, bytes = the band's bytes moved),
# on the OpenCL device (PoCL here), so that a chase that re-reads its
# blocks from the band each step cannot come back unnoticed:
#  - each chase is one launch of its window kernel;
#  - per step, the bytes read and the bytes written are each at most
#    twice the window the step updates, and at least a quarter of it
#    (a kernel that stopped counting, or stopped moving its window, fails
#    too).
# The window a step updates (kernels/device/chase.h): the Hermitian chase,
# the bulge (b x b), the diagonal block (b x b, both sides) and the block
# below (b x b), 2.5 b^2 values counting the diagonal block's triangle
# once; the general chase (c = 1), the right update's 2b - 1 rows and the
# left update's 2b - 1 columns, b values each: about 4 b^2.  The window
# kernels keep a sweep's block in local memory from step to step: they
# read about 1.5 b^2 (Hermitian) and 2 b^2 (general) per step.
cd "$(dirname "$0")/../.."
N=${CHECK_TRAFFIC_N:-384}
B=${CHECK_TRAFFIC_BAND:-16}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"
unset GPULAPACK_TUNE_FILE GPULAPACK_LOG GPULAPACK_CHASE GPULAPACK_METHOD

# check <routine> <kernel> <window values per step> <bytes per value>
check() {
    local r=$1 kernel=$2 window=$3 es=$4 name="unit/chase-traffic/$1-$N-b$B"
    local log
    log=$(GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 \
        GPULAPACK_CHASE_GROUPS=2 GPULAPACK_BAND=$B build/testing/auto_call "$r" N "$N" 2>&1)
    if ! grep -q "^gpulapack: $r .*path=opencl .*info=0" <<<"$log"; then
        echo "FAIL $name: the call did not run on opencl with info=0"
        echo "$log" | tail -5
        return
    fi
    read -r launches steps read written < <(awk -v r="$r" -v k="$kernel" '
        function field(key,   v) {
            if (!match($0, " " key "=[0-9.e+]+")) return 0
            return substr($0, RSTART + length(key) + 2, RLENGTH - length(key) - 2) + 0
        }
        $2 == r && $3 == "profile:" {
            if ($0 ~ "op=\"" k "\"") launches += field("calls")
            if ($0 ~ /op="chase_read"/) { steps = field("calls"); rd = field("bytes") }
            if ($0 ~ /op="chase_written"/) wr = field("bytes")
        }
        END { print launches + 0, steps + 0, rd + 0, wr + 0 }' <<<"$log")
    awk -v name="$name" -v l="$launches" -v s="$steps" -v rd="$read" -v wr="$written" \
        -v w="$window" -v es="$es" -v k="$kernel" 'BEGIN {
        if (l != 1 || s <= 0) {
            printf "FAIL %s: %d launches of %s, %d steps counted (1 launch, steps > 0 expected)\n", name, l, k, s
            exit
        }
        rr = rd / s / (w * es); ww = wr / s / (w * es)
        verdict = rr <= 2 && ww <= 2 && rr >= 0.25 && ww >= 0.25 ? "PASS" : "FAIL"
        printf "%s %s (one launch of %s, %d steps; per step read %.2f and wrote %.2f times the window of %d values)\n",
            verdict, name, k, s, rr, ww, w
    }'
}

check dsyevd gl_sb_chase_window $((5 * B * B / 2)) 8
check zheevd gl_sb_chase_window $((5 * B * B / 2)) 16
check dgesdd gl_gb_chase_window $((4 * B * B)) 8
check zgesdd gl_gb_chase_window $((4 * B * B)) 16
