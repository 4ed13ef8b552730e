#!/bin/bash
# The streamed plan of the SVD's values (docs/design/memory.md,
# kernels/tiers/ge2gb_streamed.c): the working copy of A in host memory,
# streamed through the device in tiles, two reads and one write of the trailing
# matrix per panel.  On PoCL, band 16, tiles of 64 (32 panels, 8 tile
# columns), for dgesdd N, zgesdd N and sgesdd N (512 x 512) under a cap
# of 0.5 MiB (1 MiB for complex: its scalars are twice as wide), a tall
# dgesdd N (768 x 512) and a wide dgesvd N (512 x 768) under 0.75 MiB
# (their plan is 0.504 MiB), where the in-core plans need 1.2 to 4.5 MB
# (until this at 1024 and 1536 x 1024 under 1 and 2 MiB: 4-7.5 minutes
# on 2 busy cores, now about a minute and a half):
#  - the log says plan=streamed (plan=in-core without the cap);
#  - the profile's device peak is under the cap and within 2% of the plan
#    (the log's device_bytes=);
#  - the singular values equal the in-core run's within 10 n eps max(s),
#    eps of the routine's precision;
#  - the bytes each way equal the model (below) within 2%;
#  - a copy that fails part way through the streaming: the call restarts
#    on LAPACK (reason=fault) from the caller's untouched A (values as
#    the in-core run's);
# and for dgesdd N: an allocation refused in core takes the streamed
# plan; a cap under the streamed plan's minimum sends the call to LAPACK
# with device-memory.  Then the streamed plan of the vectors (below).
# One PASS/FAIL line per check.
cd "$(dirname "$0")/../.."
CALL=build/testing/auto_call
N=512 B=16 TILE=64
T=$(mktemp -d "${TMPDIR:-/tmp}/gpulapack-svd-streamed.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache HOME=$T
unset GPULAPACK_DEVICE GPULAPACK_MIN_N GPULAPACK_TUNE_FILE GPULAPACK_LOG \
    GPULAPACK_DEVICE_MEMORY_MB GPULAPACK_PLAN GPULAPACK_FAULT AUTO_CALL_M
CHECK=svd-streamed
. testing/unit/plan_checks.sh

# call <routine> <m> <n> <values file> [env...]: one values-only call on
# the OpenCL device
call() {
    local routine=$1 m=$2 n=$3 values=$4
    shift 4
    env AUTO_CALL_VALUES="$values" AUTO_CALL_M=$m GPULAPACK_PROFILE=1 \
        GPULAPACK_VERBOSE=1 GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 \
        GPULAPACK_OOC_BAND=$B GPULAPACK_OOC_TILE=$TILE "$@" \
        $CALL "$routine" N "$n" 2>&1
}
# model <rows> <cols> <element bytes>: the elements each way of X = A or
# A^H (rows >= cols) by the panels of kernels/tiers/ge2gb_streamed.c, then the
# band up and its d and e down; the counters of the panels and the chase
# and stage 3's bisection left out (under 0.1%)
model() {
    awk -v rows="$1" -v cols="$2" -v b=$B -v e="$3" 'BEGIN {
        for (k = 0; k + b < cols; k += b) {
            q = cols - k - b; kk = q < b ? q : b
            up += (rows - k) * b; down += b * b          # column block, R
            up += (rows - k) * q                         # pass 1 ...
            if (k > 0) down += (rows - k) * q            # ... written back
            up += b * q; down += b * kk                  # row block, L
            up += (rows - k - b) * q                     # pass 2
        }
        pk = cols - k; up += (rows - k) * pk; down += pk * pk   # the last block
        up += (3 * b + 1) * cols; down += 2 * cols - 1           # the band, d, e
        printf "%.0f %.0f\n", up * e, down * e }'
}

# (the tiles' side last: the arena's three tile buffers fit the caps)
for spec in "dgesdd 512 512 8 0.5 2.220446e-16 64" "zgesdd 512 512 16 1 2.220446e-16 64" \
    "sgesdd 512 512 4 0.5 1.192093e-07 64" "dgesdd 768 512 8 0.75 2.220446e-16 64" \
    "dgesvd 512 768 8 0.75 2.220446e-16 64"; do
    set -- $spec
    routine=$1 m=$2 n=$3 es=$4 cap=$5 eps=$6 TILE=$7
    name=$routine-${m}x$n
    rows=$((m > n ? m : n)) cols=$((m > n ? n : m))
    log=$(call $routine $m $n $T/in-core)
    ok=$(grep -q "path=opencl .*plan=in-core" <<<"$log" && echo 1 || echo 0)
    verdict "$ok" "$name-in-core" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
    # kept for the checks below against the in-core run (the in-core plan
    # reads no GPULAPACK_OOC_*: its values are these, to the bit)
    cp $T/in-core $T/in-core-N-$name
    log=$(call $routine $m $n $T/streamed GPULAPACK_DEVICE_MEMORY_MB=$cap)
    peak=$(field "$log" "device peak") plan=$(field "$log" device_bytes)
    ok=$(grep -q "path=opencl .*plan=streamed" <<<"$log" && [ -n "$peak" ] &&
        [ "$peak" -le $(mib $cap) ] && echo 1 || echo 0)
    verdict "$ok" "$name-streamed" "cap $cap MiB, peak ${peak:-none}: $(grep -o 'path=.*info' <<<"$log" | head -1)"
    ok=$(awk -v p="${plan:-0}" -v q="${peak:-0}" 'BEGIN { d = p - q; if (d < 0) d = -d; print (q > 0 && d <= 0.02 * q) ? 1 : 0 }')
    verdict "$ok" "$name-plan" "plan ${plan:-none} bytes, device peak ${peak:-none}"
    verdict "$(same $T/in-core $T/streamed $cols $eps)" "$name-values" \
        "the streamed run's values differ from the in-core run's by $(difference $T/in-core $T/streamed) of max(s)"
    read -r up down < <(bytes "$log")
    read -r mup mdown < <(model $rows $cols $es)
    ok=$(near "$up" "$down" "$mup" "$mdown")
    verdict "$ok" "$name-bus-bytes" "host->device $up bytes (model $mup), device->host $down (model $mdown)"
    echo "# $name: cap $(mib $cap), plan $plan, device peak $peak; values differ by $(difference $T/in-core $T/streamed) of max(s); host->device $up bytes (model $mup), device->host $down (model $mdown); the matrix is $((m * n * es))"

    # a copy that fails part way: LAPACK from the caller's A (on one
    # thread: Debian's threaded OpenBLAS 0.3.21 crashes in zgesdd N at
    # these sizes, in zgemv_n of a worker thread, without our library too)
    log=$(call $routine $m $n $T/fault GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_FAULT=copy:700 \
        OPENBLAS_NUM_THREADS=1)
    ok=$(grep -q "path=lapack reason=fault opencl" <<<"$log" &&
        [ "$(same $T/in-core $T/fault $cols $eps)" = 1 ] && echo 1 || echo 0)
    verdict "$ok" "$name-fault" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
done
TILE=64

# an allocation the device refuses in core (GPULAPACK_FAULT=alloc:1, as
# another process taking the memory would): the streamed plan, before
# LAPACK
cp $T/in-core-N-dgesdd-${N}x$N $T/in-core
log=$(call dgesdd $N $N $T/retry GPULAPACK_FAULT=alloc:1)
ok=$(grep -q "refused in core: the streamed plan" <<<"$log" &&
    grep -q "path=opencl .*plan=streamed" <<<"$log" &&
    [ "$(same $T/in-core $T/retry $N 2.220446e-16)" = 1 ] && echo 1 || echo 0)
verdict "$ok" dgesdd-retry "$(grep -o 'path=.*info' <<<"$log" | head -1)"

# under the streamed plan's minimum (its six n x b blocks alone are 384
# KiB in double): LAPACK, and why
log=$(call dgesdd $N $N $T/under GPULAPACK_DEVICE_MEMORY_MB=0.25)
ok=$(grep -q "path=lapack reason=device device-memory" <<<"$log" && echo 1 || echo 0)
verdict "$ok" dgesdd-under "$(grep -o 'path=.*info' <<<"$log" | head -1)"

# The streamed plan of the vectors (kernels/pipelines/svd.c svd_reduce_lean
# with ge_band_streamed and chase_parked): stage 1 by the passes above, each
# QR and LQ panel's reflectors and T kept in host memory; the chase in
# the longest segments of whole groups of sweeps whose plan fits the
# device (svd_segment), each segment's two stores parked in host memory
# as soon as it is chased; ?bdsdc on the host; U and VT in blocks of
# VTILE columns, each block taking the parked segments (last first) and
# stage 1's panels (a panel at a time) from host memory.  dgesdd S (512 x
# 512), sgesdd S wide (512 x 768) and tall beyond 1.6 (832 x 512: reduced
# whole, no QR first), under a cap of 0.5 MiB in the automatic order (in
# core they plan about 20, 11 and 12 MB, lean 4, 2.5 and 2.5 MB: the
# chase's two stores on the device, about n^2 elements; 16 blocks of U's
# and of VT's columns):
#  - plan=streamed, the peak under the cap and equal to the plan;
#  - the chase parked in the longest segments that fit (the log's G
#    sweeps; forced to G + 16, GPULAPACK_OOC_SEGMENT, the plan does not
#    fit: LAPACK, device-memory);
#  - the values as the in-core run's, LAPACK's ratios under 30;
#  - the bytes each way within 2% of the model (vmodel);
#  - dgesdd: a copy failed in stage 1 and one in U's blocks restart on
#    LAPACK from the caller's intact A (values and ratios).
# And dgesdd S under 3 MiB, where the two whole stores fit beside the
# rest (2.6 MB planned): kept on the device (the log), none parked, the
# bus bytes of the model without them, the peak equal to the plan.
VTILE=32
vcall() { # vcall <routine> <m> <n> <values file> [env...]: JOBZ = 'S', ratios
    local routine=$1 m=$2 n=$3 values=$4
    shift 4
    env AUTO_CALL_VALUES="$values" AUTO_CALL_M=$m AUTO_CALL_RATIOS=1 \
        GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 GPULAPACK_DEVICE=opencl \
        GPULAPACK_MIN_N=0 GPULAPACK_OOC_BAND=$B GPULAPACK_OOC_TILE=$VTILE \
        "$@" $CALL "$routine" S "$n" 2>&1
}
# vmodel <rows> <cols> <element bytes> <G>: model's passes with each
# column block's panel (rows - k) x b and each row block's b x q coming
# down whole, with their T's; the band up, the parked stores (both sides
# of every segment of G sweeps, whole groups of b: the device's group;
# G = 0: none, the stores kept on the device) and the band's two
# diagonals down; then per block of VTILE columns of X's left (rows x
# cols) and right (cols x cols) vectors the block up and down, that
# side's parked stores up, and stage 1's panels up past it a panel at a
# time; the chase's counters and lists and the zeroed store scalars
# left out (under 0.5%)
vmodel() {
    awk -v rows="$1" -v cols="$2" -v e="$3" -v g="$4" -v b=$B -v t=$VTILE 'BEGIN {
        for (k = 0; k + b < cols; k += b) {
            q = cols - k - b; kk = q < b ? q : b
            up += (rows - k) * b; down += (rows - k) * b + b * b
            up += (rows - k) * q; if (k > 0) down += (rows - k) * q
            up += b * q; down += b * q + kk * kk
            up += (rows - k - b) * q
        }
        pk = cols - k; up += (rows - k) * pk; down += (rows - k) * pk + pk * pk
        up += (3 * b + 1) * cols; down += 2 * cols - 1
        for (s0 = 0; g > 0 && s0 < cols - 2; s0 += g) {   # a segment
            nn = cols - s0; run = nn - 2 < g ? nn - 2 : g; slots = 1
            for (s = 0; s < run; s += b)
                if (s + 2 <= nn - 1) slots += (int((nn - 3 - s) / b) + 1) * b
            store += slots * (b + 1)
        }
        down += 2 * store
        for (side = 0; side < 2; side++) {
            h = side == 0 ? rows : cols
            len = side == 0 ? rows : cols - b; nref = side == 0 ? cols : cols - b
            for (j0 = 0; j0 < cols; j0 += t) {
                c = cols - j0 < t ? cols - j0 : t
                up += h * c + store; down += h * c
                for (k0 = 0; k0 < nref; k0 += b) {
                    kg = nref - k0 < b ? nref - k0 : b
                    up += (len - k0) * kg + b * kg
                }
            }
        }
        printf "%.0f %.0f\n", up * e, down * e }'
}
# vstreamed <routine> <m> <n> <cap MiB>: the vectors' call under the cap;
# sets log, peak, plan and seg (streamed_fields)
vstreamed() {
    log=$(vcall $1 $2 $3 $T/vstreamed GPULAPACK_DEVICE_MEMORY_MB=$4)
    streamed_fields
}
# vbus_verdict <name> <rows> <cols> <element bytes> <G> [in-core values]:
# the bytes each way of log against vmodel's, within 2%
vbus_verdict() {
    read -r up down < <(bytes "$log")
    read -r mup mdown < <(vmodel $2 $3 $4 $5)
    verdict "$(near "$up" "$down" "$mup" "$mdown")" "$1-bus-bytes" \
        "host->device $up bytes (model $mup), device->host $down (model $mdown)"
    echo "# $1: plan $plan, device peak $peak, segments of $5 sweeps (0: kept); values differ by $(difference "${6:-$T/in-core}" $T/vstreamed) of max(s); $(grep -o "ratios .*" <<<"$log"); host->device $up bytes (model $mup), device->host $down (model $mdown)"
}
for spec in "dgesdd 512 512 8" "sgesdd 512 768 4" "sgesdd 832 512 4"; do
    set -- $spec
    routine=$1 m=$2 n=$3 es=$4 cap=0.5
    name=$routine-S-${m}x$n
    rows=$((m > n ? m : n)) cols=$((m > n ? n : m))
    if [ -f $T/in-core-N-$routine-${m}x$n ]; then
        cp $T/in-core-N-$routine-${m}x$n $T/in-core
    else
        call $routine $m $n $T/in-core >/dev/null
    fi
    vstreamed $routine $m $n $cap
    verdict "$(streamed_ok $cap)" "$name-streamed" "cap $cap MiB, plan ${plan:-none}, peak ${peak:-none}: $(grep -o 'path=.*info' <<<"$log" | head -1)"
    eps=$([ $routine = sgesdd ] && echo 1.192093e-07 || echo 2.220446e-16)
    verdict "$(same $T/in-core $T/vstreamed $cols $eps)" "$name-values" \
        "the streamed run's values differ from the in-core run's by $(difference $T/in-core $T/vstreamed) of max(s)"
    ratios=$(grep -o "ratios .*" <<<"$log")
    verdict "$(ratios_ok "$log")" "$name-ratios" "${ratios:-no ratios}"
    vbus_verdict $name $rows $cols $es "${seg:-0}"
    # the longest segments that fit: a group (16 sweeps) more does not
    # (the plan refused, without a device run)
    longer=$(vcall $routine $m $n $T/longer GPULAPACK_DEVICE_MEMORY_MB=$cap \
        GPULAPACK_OOC_SEGMENT=$((${seg:-0} + B)))
    ok=$([ "${seg:-0}" -gt 0 ] && grep -q "path=lapack reason=device device-memory" <<<"$longer" &&
        echo 1 || echo 0)
    verdict "$ok" "$name-longest-segments" "parked in segments of ${seg:-no} sweeps; $((${seg:-0} + B)): $(grep -o 'path=.*info' <<<"$longer" | head -1)"
    [ $routine = dgesdd ] || continue
    cp $T/in-core $T/in-core-dgesdd
    # a copy failed in stage 1 (the 700th) and one in U's blocks (the
    # 8,784th: 8,544 copies come before the blocks, 8,381 of them the
    # passes', and about 160 per block in segments of 32 sweeps, so in the
    # second block of U, the first one read back: the profile of the
    # failed call shows one read in stage=back)
    for at in 700 8784; do
        log=$(vcall $routine $m $n $T/fault GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_FAULT=copy:$at)
        ok=$(grep -q "path=lapack reason=fault opencl" <<<"$log" &&
            [ "$(same $T/in-core $T/fault $cols $eps)" = 1 ] && [ "$(ratios_ok "$log")" = 1 ] && echo 1 || echo 0)
        verdict "$ok" "$name-fault-$at" "$(grep -o 'path=.*info' <<<"$log" | head -1), $(grep -o 'ratios .*' <<<"$log")"
    done
done

# the two whole stores fit (2,640,144 bytes planned; the lean plan, 4 MB,
# does not): kept on the device as the lean plan keeps them, none parked,
# no store on the bus
vstreamed dgesdd 512 512 3
ok=$([ "$(streamed_ok 3)" = 1 ] && [ "$seg" = 0 ] &&
    [ "$(same $T/in-core-dgesdd $T/vstreamed 512)" = 1 ] && [ "$(ratios_ok "$log")" = 1 ] &&
    echo 1 || echo 0)
verdict "$ok" "dgesdd-S-512x512-stores-kept" "cap 3 MiB, plan ${plan:-none}, peak ${peak:-none}, segments of ${seg:-?} sweeps, $(grep -o 'ratios .*' <<<"$log"): $(grep -o 'path=.*info' <<<"$log" | head -1)"
vbus_verdict dgesdd-S-512x512-stores-kept 512 512 8 0 $T/in-core-dgesdd
