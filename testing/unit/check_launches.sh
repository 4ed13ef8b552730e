#!/bin/bash
# Device launches and host synchronizations of a whole values-only call,
# counted by GPULAPACK_PROFILE on the OpenCL device (PoCL here): dsyevd N
# and dgesdd N at n = 2048 must each stay below LIMIT (3000), so that a
# launch-bound design (a launch per column of a panel: about 6,500 in
# stage 1 of dgesdd N at 2048 before the one-launch panel leaves) cannot
# come back unnoticed.  On a GPU each launch or wait costs
# about 10-20 us whatever it does (docs/design/stage1-panel-leaves.md).  Then dsytrd's
# reads from the device (below).
#
# Counted: every kernel launch (gl_*), every vendor BLAS call (blas *),
# every launch recorded in a batch, device copies, writes and reads (a
# read is the host's synchronization; its "wait" row is the same one).
# Not counted: allocations and releases (stream-ordered on CUDA/HIP) and
# the host sections.  The bulge chasing runs in one launch, as it does
# by default on CUDA and HIP (GPULAPACK_CHASE_GROUPS; OpenCL's default,
# one launch per wavefront, is about 3n launches by design: OpenCL 1.2
# does not promise that a running work-group keeps running).
cd "$(dirname "$0")/../.."
N=${CHECK_LAUNCHES_N:-2048}
LIMIT=${CHECK_LAUNCHES_LIMIT:-3000}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"
unset GPULAPACK_PANEL_ROWS GPULAPACK_PANEL_GROUPS GPULAPACK_TUNE_FILE GPULAPACK_LOG

# profiled_call <routine> <n> <verdict>: one call with JOB N on opencl with
# the profile into $log (and printed); 1 with a FAIL verdict if it did not
# run there with info=0
profiled_call() {
    log=$(GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 \
        GPULAPACK_CHASE_GROUPS=2 build/testing/auto_call "$1" N "$2" 2>&1)
    echo "$log"
    if ! grep -q "^gpulapack: $1 .*path=opencl .*info=0" <<<"$log" ||
        ! grep -q "^$1 N n=$2 info=0" <<<"$log"; then
        echo "FAIL unit/launches/$3: the call did not run on opencl with info=0"
        return 1
    fi
}

for r in dsyevd dgesdd; do
    profiled_call "$r" "$N" "$r-N-$N" || continue
    # rows: gpulapack: <r> profile: stage=<s> op="<name>" calls=<c> ...
    read -r total detail < <(awk -v r="$r" '
        $2 == r && $3 == "profile:" && $4 ~ /^stage=/ {
            stage = substr($4, 7)
            if (!match($0, /op="[^"]*"/)) next
            op = substr($0, RSTART + 4, RLENGTH - 5)
            if (!match($0, / calls=[0-9]+/)) next
            calls = substr($0, RSTART + 7, RLENGTH - 7) + 0
            if (op ~ /^gl_/ || op ~ /^blas / || op == "batch launches" ||
                op == "copy" || op ~ /^(write|read)( lane)?$/) {
                total += calls
                by[stage] += calls
            }
        }
        END {
            s = ""
            for (k in by) s = s " " k "=" by[k]
            print total + 0, s
        }' <<<"$log")
    if [ "$total" -gt 0 ] && [ "$total" -lt "$LIMIT" ]; then
        echo "PASS unit/launches/$r-N-$N ($total launches and synchronizations <$LIMIT:$detail)"
    else
        echo "FAIL unit/launches/$r-N-$N: $total launches and synchronizations, limit $LIMIT:$detail"
    fi
done

# ?sytrd on a device: the one-stage reduction's column steps stay on the
# device, so the host waits for it only to read the results (tau, then A),
# not once or twice per column as before (n = 512: 511 columns).
NT=${CHECK_LAUNCHES_SYTRD_N:-512}
if profiled_call dsytrd "$NT" "dsytrd-reads-$NT"; then
    reads=$(awk '$2 == "dsytrd" && $3 == "profile:" && /op="read"/ {
            if (match($0, / calls=[0-9]+/)) n += substr($0, RSTART + 7, RLENGTH - 7) }
        END { print n + 0 }' <<<"$log")
    if [ "$reads" -ge 1 ] && [ "$reads" -le 4 ]; then
        echo "PASS unit/launches/dsytrd-reads-$NT ($reads reads from the device in the call)"
    else
        echo "FAIL unit/launches/dsytrd-reads-$NT: $reads reads from the device, at most 4 expected"
    fi
fi
