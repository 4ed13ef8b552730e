#!/bin/bash
# The streamed plan (docs/design/memory.md): the Hermitian eigenproblem of
# a matrix larger than the device, its working copy in host memory
# streamed through the device in tiles.  On PoCL, n = 512 under a cap of
# 0.5 MiB (1/4 of the matrix in double; 1 MiB for complex), band 16,
# tiles of 64 (32 panels, 8 tile columns), for dsyevd N, zheevd N and
# dsyevr N:
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
# With the vectors, dsyevd V and zheevd V under the same 0.5 and 1 MiB
# (the in-core plan needs 9.5 and 19 MB; the chase's store alone would be
# 1.1 and 2.3 MB), blocks of 32 columns of Z (16 blocks): plan=streamed,
# the peak under the cap and equal to the plan, the chase parked in the
# longest segments that fit (the log's G sweeps; forced to G + 16,
# GPULAPACK_OOC_SEGMENT, the plan does not fit: LAPACK, device-memory),
# the values as the in-core run's, LAPACK's residual and orthogonality
# ratios (units of n eps) under 30, the bus bytes of the model within 2%
# (stage 1 with each panel's reflectors and T going down, the band up,
# the chase in segments of G sweeps with each segment's reflectors
# parked in host memory, each block of Z up and down with the segments'
# stores and stage 1's panels going up past it), and a copy failing in
# the parking of the chase's reflectors or in the back-transformation
# restarting on LAPACK from the caller's A.  dsyevd V under 1.5 MiB,
# where the whole store fits: no parking (the log), the bus bytes of the
# model without the parked stores, the peak equal to the plan.  The lean
# plan (dsyevd V under 4 MiB, in the automatic order): plan=lean, stage
# 1 in core (A up, its reflectors down once), the chase's store kept on
# the device, the back-transformation as the streamed plan's.
# (At n = 1024, as until this, the same verdicts took 3.5-6 minutes on 2
# busy cores; n = 512 reaches every path with several panels, tiles,
# segments and blocks.)
# One PASS/FAIL line per check.
cd "$(dirname "$0")/../.."
CALL=build/testing/auto_call
N=512 B=16 TILE=48   # three tile buffers of 48 fit the values' 0.5 MiB
T=$(mktemp -d "${TMPDIR:-/tmp}/gpulapack-streamed.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache HOME=$T
unset GPULAPACK_DEVICE GPULAPACK_MIN_N GPULAPACK_TUNE_FILE GPULAPACK_LOG \
    GPULAPACK_DEVICE_MEMORY_MB GPULAPACK_PLAN GPULAPACK_FAULT
CHECK=streamed
. testing/unit/plan_checks.sh

# call <routine> <values file> [env...]: one call on the OpenCL device,
# job $JOB (N unless set)
call() {
    local routine=$1 values=$2
    shift 2
    env AUTO_CALL_VALUES="$values" AUTO_CALL_RATIOS=1 GPULAPACK_PROFILE=1 \
        GPULAPACK_VERBOSE=1 GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 \
        GPULAPACK_OOC_BAND=$B GPULAPACK_OOC_TILE=$TILE "$@" $CALL "$routine" \
        "${JOB:-N}" $N 2>&1
}
# ratios_ok <log>: 1 when the log's LAPACK ratios are both under 30
ratios_ok() {
    awk '/^ratios / { split($2, r, "="); split($3, o, "="); ok = NF == 3 && r[2] < 30 && o[2] < 30 }
        END { print ok ? 1 : 0 }' <<<"$1"
}
# bus_verdict <name> <log> <element bytes> [V|L] [G]: the bytes each way
# against the model, within 2%
bus_verdict() {
    local name=$1 log=$2 up down mup mdown ok
    read -r up down < <(bytes "$log")
    read -r mup mdown < <(model "$3" "$4" "$5")
    ok=$(near "$up" "$down" "$mup" "$mdown")
    verdict "$ok" "$name-bus-bytes" "host->device $up bytes (model $mup), device->host $down (model $mdown)"
    echo "# $name: peak $(grep -o 'device peak=[0-9]*' <<<"$log" | head -1 | cut -d= -f2), $(grep -o '^ratios .*' <<<"$log"); host->device $up bytes (model $mup), device->host $down (model $mdown)"
}
# fault_verdict <name> <env...>: a copy failing at GPULAPACK_FAULT of the
# env: LAPACK from the caller's A (its values, its vectors' ratios)
fault_verdict() {
    local name=$1 log ok
    shift
    log=$(JOB=V call "$@")
    ok=$(grep -q "path=lapack reason=fault opencl" <<<"$log" && [ "$(same $T/in-core $T/fault)" = 1 ] &&
        [ "$(ratios_ok "$log")" = 1 ] && echo 1 || echo 0)
    verdict "$ok" "$name" "$(grep -o 'path=.*info' <<<"$log" | head -1), $(grep -o '^ratios .*' <<<"$log")"
}

# model <element bytes> [V|L] [G]: the streaming's bytes each way, by the
# tiles the passes enumerate (kernels/tiers/sy2sb_streamed.c), the band's
# upload and the chase's O(n) reads left out (under 0.5%); with V, each panel's
# reflectors and T down, the band up, and the back-transformation's
# blocks of TILE columns of Z, each up and down, with stage 1's panels up
# past it in groups of 256 columns (backtransform.c, apply_host_panels),
# and the chase's store parked in segments of G sweeps (0 or none: kept
# on the device); with L (the lean plan) stage 1 in core instead: A up,
# its reflectors and T's down, once
model() {
    awk -v n=$N -v b=$B -v t=$TILE -v e="$1" -v v="$2" -v g="${3:-0}" 'BEGIN {
        if (v == "L") {
            up = n * n; down = n * n + b * n
            for (k = 0; n - k - b >= 2; k += b) nref = k + (n - k - b < b ? n - k - b : b)
            k = n
        }
        for (k = k; n - k - b >= 2; k += b) {
            up += (n - k) * b
            r1 = k + 2 * b < n ? k + 2 * b : n
            kk = n - k - b < b ? n - k - b : b
            nref = k + kk
            down += v == "V" ? (n - k) * b + kk * kk : (r1 - k) * b
            for (c0 = k + b; c0 < n; c0 += t) {
                cols = n - c0 < t ? n - c0 : t
                for (r0 = c0; r0 < n; r0 += t) {
                    rows = n - r0 < t ? n - r0 : t
                    up += rows * cols; down += rows * cols
                }
            }
        }
        if (v != "L") {
            rest = n - k; up += rest * rest; down += rest * rest
        }
        if (v != "") {
            len = n - b; if (v == "V") up += (2 * b + 1) * n
            most = int(256 / b) > 1 ? int(256 / b) * b : b
            # V: the chase in segments of g sweeps (whole groups of b on
            # a device), the store of each (slots of b + 1) down once, its
            # taus zeroed up, and up again past each block of Z
            stores = 0
            for (s0 = 0; v == "V" && g > 0 && s0 < n - 2; s0 += g) {
                rest = n - s0; run = rest - 2 < g ? rest - 2 : g; slots = 1
                for (s = 0; s < run; s += b)
                    if (s + 2 <= rest - 1) slots += (int((rest - 3 - s) / b) + 1) * b
                down += slots * (b + 1); up += slots; stores += slots * (b + 1)
            }
            for (j0 = 0; j0 < n; j0 += t) {
                c = n - j0 < t ? n - j0 : t
                up += n * c + stores; down += n * c
                # the panels of stage 1 in groups of about c/3 columns
                gc = int(int(c / 3) / b) * b
                gc = gc < b ? b : gc < most ? gc : most
                for (k0 = 0; k0 < nref; k0 += gc) {
                    kg = nref - k0 < gc ? nref - k0 : gc
                    up += (len - k0) * kg + b * kg
                }
            }
        }
        printf "%.0f %.0f\n", up * e, down * e }'
}

for spec in "dsyevd 8 0.5" "zheevd 16 1" "dsyevr 8 0.5"; do
    set -- $spec
    routine=$1 es=$2 cap=$3
    log=$(call $routine $T/in-core)
    ok=$(grep -q "path=opencl .*plan=in-core" <<<"$log" && echo 1 || echo 0)
    verdict "$ok" "$routine-in-core" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
    # kept for the checks below against the in-core run: the in-core plan
    # reads neither the band nor the tiles of the streamed ones
    # (GPULAPACK_OOC_*), so its values are these, to the bit
    cp $T/in-core $T/in-core-N-$routine
    log=$(call $routine $T/streamed GPULAPACK_DEVICE_MEMORY_MB=$cap)
    peak=$(grep -o "device peak=[0-9]*" <<<"$log" | head -1 | cut -d= -f2)
    ok=$(grep -q "path=opencl .*plan=streamed" <<<"$log" && [ -n "$peak" ] &&
        [ "$peak" -le $(mib $cap) ] && echo 1 || echo 0)
    verdict "$ok" "$routine-streamed" "cap $cap MiB, peak ${peak:-none}: $(grep -o 'path=.*info' <<<"$log" | head -1)"
    verdict "$(same $T/in-core $T/streamed)" "$routine-values" \
        "the streamed run's values differ from the in-core run's"
    bus_verdict "$routine" "$log" $es
    [ $routine = dsyevd ] && lanes_log=$log lanes_cap=$cap

    # a copy that fails part way: LAPACK from the caller's A
    log=$(call $routine $T/fault GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_FAULT=copy:700)
    ok=$(grep -q "path=lapack reason=fault opencl" <<<"$log" && [ "$(same $T/in-core $T/fault)" = 1 ] && echo 1 || echo 0)
    verdict "$ok" "$routine-fault" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
done

# the passes' copies beside the products (kernels/tiers/tile_pass.c): every
# tile of stage 1 up and down on the copy lanes ("write lane", "read
# lane": exactly the tiles the passes enumerate); with
# GPULAPACK_OOC_QUEUES=1 in order on the call's queue instead, the same
# bus bytes and values, no lane
lane_bytes() {
    awk '/ profile: stage=stage1 / {
            for (i = 1; i <= NF; i++) if ($i ~ /^bytes=/) b = substr($i, 7) + 0
            if ($0 ~ /op="write lane"/) w += b; if ($0 ~ /op="read lane"/) r += b; b = 0 }
        END { printf "%.0f %.0f\n", w, r }' <<<"$1"
}
tiles=$(awk -v n=$N -v b=$B -v t=$TILE 'BEGIN {
    for (k = 0; n - k - b >= 2; k += b)
        for (c0 = k + b; c0 < n; c0 += t)
            for (r0 = c0; r0 < n; r0 += t)
                s += (n - r0 < t ? n - r0 : t) * (n - c0 < t ? n - c0 : t)
    printf "%.0f", s * 8 }')
read -r lane_up lane_down < <(lane_bytes "$lanes_log")
# the profile prints bytes to 3 digits
ok=$(near "$lane_up" "$lane_down" "$tiles" "$tiles")
verdict "$ok" dsyevd-lanes "tiles on the lanes: up $lane_up, down $lane_down bytes (the passes' tiles: $tiles)"
cp $T/in-core-N-dsyevd $T/in-core
log=$(call dsyevd $T/in-order GPULAPACK_DEVICE_MEMORY_MB=$lanes_cap GPULAPACK_OOC_QUEUES=1)
ok=$(grep -q "path=opencl .*plan=streamed" <<<"$log" && ! grep -q 'op="[a-z]* lane"' <<<"$log" &&
    [ "$(near $(bytes "$log") $(bytes "$lanes_log"))" = 1 ] && [ "$(same $T/in-core $T/in-order)" = 1 ] &&
    echo 1 || echo 0)
verdict "$ok" dsyevd-in-order "GPULAPACK_OOC_QUEUES=1: bytes $(bytes "$log") against $(bytes "$lanes_log") on the lanes, $(grep -c 'op="[a-z]* lane"' <<<"$log") lane rows"

# band-to-band (kernels/stages/band_reduce.c): the passes at band 32, the band
# reduced to 8 in core for the chase (n = 512, under 2 MiB; in core the
# plan is 2.3 MB): plan=streamed, the peak under the cap, the values as
# the in-core run's
for spec in "dsyevd 2" "zheevd 4"; do
    set -- $spec
    routine=$1 cap=$2
    cp $T/in-core-N-$routine $T/in-core
    log=$(N=512 B=32 call $routine $T/narrowed GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_OOC_CHASE_BAND=8)
    peak=$(grep -o "device peak=[0-9]*" <<<"$log" | head -1 | cut -d= -f2)
    ok=$(grep -q "path=opencl .*plan=streamed" <<<"$log" && [ -n "$peak" ] &&
        [ "$peak" -le $(mib $cap) ] && [ "$(same $T/in-core $T/narrowed 512)" = 1 ] && echo 1 || echo 0)
    verdict "$ok" "$routine-band-to-band" "cap $cap MiB, peak ${peak:-none}, values $(difference $T/in-core $T/narrowed) of the in-core run's: $(grep -o 'path=.*info' <<<"$log" | head -1)"
done

# streamed_v <routine> <cap MiB> [env...]: a streamed call with the
# vectors under the cap; sets log, peak, plan and seg (streamed_fields)
streamed_v() {
    local routine=$1 cap=$2
    shift 2
    log=$(JOB=V call $routine $T/streamed GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_PLAN=streamed "$@")
    streamed_fields
}

# the vectors: blocks of 32 columns of Z (stage 3's products of 2 t n + t^2
# reals fit the cap), the chase parked in the longest segments that fit
# the cap (32 sweeps: 16 segments)
TILE=32
for spec in "dsyevd 8 0.5 3152 4800" "zheevd 16 1 3152 4800"; do
    set -- $spec
    routine=$1 es=$2 cap=$3 park=$4 back=$5
    log=$(JOB=V call $routine $T/in-core)
    ok=$(grep -q "path=opencl .*plan=in-core" <<<"$log" && echo 1 || echo 0)
    verdict "$ok" "$routine-V-in-core" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
    cp $T/in-core $T/in-core-$routine
    streamed_v $routine $cap
    verdict "$(streamed_ok $cap)" "$routine-V-streamed" "cap $cap MiB, plan ${plan:-none}, peak ${peak:-none}: $(grep -o 'path=.*info' <<<"$log" | head -1)"
    verdict "$(same $T/in-core $T/streamed)" "$routine-V-values" \
        "the streamed run's values differ from the in-core run's"
    verdict "$(ratios_ok "$log")" "$routine-V-ratios" "$(grep -o '^ratios .*' <<<"$log")"
    bus_verdict "$routine-V" "$log" $es V "${seg:-0}"
    # the longest segments that fit: a group (16 sweeps) more does not
    # (the plan refused, without a device run)
    longer=$(JOB=V call $routine $T/longer GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_PLAN=streamed \
        GPULAPACK_OOC_SEGMENT=$((${seg:-0} + B)))
    ok=$([ "${seg:-0}" -gt 0 ] && grep -q "path=lapack reason=device device-memory" <<<"$longer" &&
        echo 1 || echo 0)
    verdict "$ok" "$routine-V-longest-segments" "parked in segments of ${seg:-no} sweeps; $((${seg:-0} + B)): $(grep -o 'path=.*info' <<<"$longer" | head -1)"
    # a copy that fails in the parking of the chase's reflectors (the
    # a copy that fails in the parking of the chase's reflectors (the
    # 3,152nd: stage 1's 3,118 copies, the band, then a write, a write and
    # a read per segment of 32 sweeps, the longest that fit; the profile
    # shows 11 of the 16 segments' stores read back), and one in the
    # back-transformation (the 4,800th: 7 of the 16 blocks of Z already
    # read back): LAPACK from the caller's A
    for at in $park $back; do
        fault_verdict "$routine-V-fault-$at" $routine $T/fault GPULAPACK_DEVICE_MEMORY_MB=$cap \
            GPULAPACK_PLAN=streamed GPULAPACK_FAULT=copy:$at
    done
done
# the whole store fits (1,484,936 bytes planned): kept on the device as
# the lean plan keeps it, none parked, no store on the bus
streamed_v dsyevd 1.5
ok=$([ "$(streamed_ok 1.5)" = 1 ] && [ "$seg" = 0 ] && [ "$(same $T/in-core-dsyevd $T/streamed)" = 1 ] &&
    [ "$(ratios_ok "$log")" = 1 ] && echo 1 || echo 0)
verdict "$ok" "dsyevd-V-store-kept" "cap 1.5 MiB, plan ${plan:-none}, peak ${peak:-none}, segments of ${seg:-?} sweeps, $(grep -o '^ratios .*' <<<"$log"): $(grep -o 'path=.*info' <<<"$log" | head -1)"
bus_verdict "dsyevd-V-store-kept" "$log" 8 V 0
TILE=64

# the lean plan: under 4 MiB (in core 9.5 MB), the automatic order (in-core, lean,
# streamed) takes it; stage 1 in core with its band at B
for spec in "dsyevd 8 4"; do
    set -- $spec
    routine=$1 es=$2 cap=$3
    cp $T/in-core-$routine $T/in-core
    log=$(JOB=V call $routine $T/lean GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_BAND=$B)
    peak=$(grep -o "device peak=[0-9]*" <<<"$log" | head -1 | cut -d= -f2)
    ok=$(grep -q "path=opencl .*plan=lean" <<<"$log" && [ -n "$peak" ] &&
        [ "$peak" -le $(mib $cap) ] && [ "$(same $T/in-core $T/lean)" = 1 ] &&
        [ "$(ratios_ok "$log")" = 1 ] && echo 1 || echo 0)
    verdict "$ok" "$routine-V-lean" "cap $cap MiB, peak ${peak:-none}, $(grep -o '^ratios .*' <<<"$log"): $(grep -o 'path=.*info' <<<"$log" | head -1)"
    bus_verdict "$routine-V-lean" "$log" $es L
    # stage 3 on the host with its merges multiplied on the device in
    # blocks (gpu_ops' tiled real_product)
    ok=$(grep -q 'stage=stage3 op="gl_gemm"' <<<"$log" && echo 1 || echo 0)
    verdict "$ok" "$routine-V-lean-stage3-products" "$(grep -c 'stage=stage3' <<<"$log") stage-3 profile rows, none a device product"
    for at in 20 400; do
        fault_verdict "$routine-V-lean-fault-$at" $routine $T/fault GPULAPACK_DEVICE_MEMORY_MB=$cap \
            GPULAPACK_BAND=$B GPULAPACK_FAULT=copy:$at
    done
done

# an allocation the device refuses in core (GPULAPACK_FAULT=alloc:1, as
# another process taking the memory would): the streamed plan, before
# LAPACK
cp $T/in-core-N-dsyevd $T/in-core
log=$(call dsyevd $T/retry GPULAPACK_FAULT=alloc:1)
ok=$(grep -q "refused in core: the streamed plan" <<<"$log" &&
    grep -q "path=opencl .*plan=streamed" <<<"$log" &&
    [ "$(same $T/in-core $T/retry)" = 1 ] && echo 1 || echo 0)
verdict "$ok" dsyevd-retry "$(grep -o 'path=.*info' <<<"$log" | head -1)"

# under the streamed plan's minimum (its six n x b blocks alone are 384
# KiB in double): LAPACK, and why
log=$(call dsyevd $T/under GPULAPACK_DEVICE_MEMORY_MB=0.25)
ok=$(grep -q "path=lapack reason=device device-memory" <<<"$log" && echo 1 || echo 0)
verdict "$ok" dsyevd-under "$(grep -o 'path=.*info' <<<"$log" | head -1)"
