#!/bin/bash
# The lean plan of the SVD's vectors (docs/design/memory.md,
# kernels/pipelines/svd.c svd_reduce_lean and svd_lean_vectors): stage 1 in
# core, its QR and LQ panels with their T factors parked in host memory, the
# chase's two reflector stores on the device, stage 3 on the host, then U and
# VT made in blocks of TILE columns, each block up once, the chase's reflectors
# applied on the device and stage 1's panels streamed past it from host
# memory.  On PoCL, band 16, blocks of 64 columns (8 blocks of U's and of
# VT's columns), for dgesdd S and zgesdd S at 512 x 512 and a wide dgesvd
# S (JOBU = JOBVT = 'S', 512 x 640), each under a cap between its lean
# plan and its in-core plan (8 MiB for the real calls, whose lean plans
# are 7.0 and 7.9 MB, in core 22.6 and 23.6 MB; 16 MiB for zgesdd, 14.1
# MB lean, 36.7 MB in core), in the automatic order (until this at 1024
# x 1024 and 1024 x 1280 under 24 and 48 MiB: 1.5-4 minutes on 2 busy
# cores):
#  - the log says plan=lean, and the profile's device peak is under the
#    cap and equal to the plan (the log's device_bytes=);
#  - the singular values equal those of the in-core run of the same
#    matrix within 10 n eps max(s) (its values-only job: the same in-core
#    reduction, a tenth of the time of its vectors);
#  - LAPACK's ratios ||A - U S VT||_1 / (n ||A||_1 eps), ||I - U^H U||_1
#    / (n eps) and ||I - VT VT^H||_1 / (n eps) (auto_call's
#    AUTO_CALL_RATIOS, n = max(m, n)) are under 30;
#  - the bytes each way equal the model (below) within 2%;
# and for dgesdd S, a copy that fails in stage 1 and one that fails in
# the back-transformation (a block already read back): the call restarts
# on LAPACK (reason=fault) from the caller's untouched A, with the same
# values and ratios under 30.  Then a tall X and JOBZ = 'O' (below).  One
# PASS/FAIL line per check.
cd "$(dirname "$0")/../.."
CALL=build/testing/auto_call
B=16 TILE=64
T=$(mktemp -d "${TMPDIR:-/tmp}/gpulapack-svd-lean.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache HOME=$T
unset GPULAPACK_DEVICE GPULAPACK_MIN_N GPULAPACK_TUNE_FILE GPULAPACK_LOG \
    GPULAPACK_DEVICE_MEMORY_MB GPULAPACK_PLAN GPULAPACK_FAULT GPULAPACK_BAND
CHECK=svd-lean
. testing/unit/plan_checks.sh

# call <routine> <job> <m> <n> <values file> [env...]: one call on the
# OpenCL device with the ratios
call() {
    local routine=$1 job=$2 m=$3 n=$4 values=$5
    shift 5
    env AUTO_CALL_VALUES="$values" AUTO_CALL_M=$m AUTO_CALL_RATIOS=1 \
        GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 GPULAPACK_DEVICE=opencl \
        GPULAPACK_MIN_N=0 GPULAPACK_BAND=$B GPULAPACK_OOC_TILE=$TILE "$@" \
        $CALL "$routine" "$job" "$n" 2>&1
}
# model <rows> <cols> <ucols> <element bytes>: the elements each way of
# X = A or A^H (rows >= cols) with both sides' vectors: X up once, its
# panels (rows x cols) and T factors (2 b x cols) down once; then per
# block of TILE columns of X's left vectors (rows x ucols) and of its
# right vectors (cols x cols) the block up and down, and stage 1's panels
# up past it in groups of 256 columns (kernels/stages/backtransform.c,
# apply_host_panels: each group's reflectors and T's); the chase's
# counters and lists, the zeroed store scalars and the band's diagonals
# left out (under 0.5%)
model() {
    awk -v rows="$1" -v cols="$2" -v ucols="$3" -v e="$4" -v b=$B -v t=$TILE 'BEGIN {
        up = rows * cols; down = rows * cols + 2 * b * cols
        gc = int(256 / b) > 1 ? int(256 / b) * b : b
        for (side = 0; side < 2; side++) {
            h = side == 0 ? rows : cols; width = side == 0 ? ucols : cols
            len = side == 0 ? rows : cols - b; nref = side == 0 ? cols : cols - b
            for (j0 = 0; j0 < width; j0 += t) {
                c = width - j0 < t ? width - j0 : t
                up += h * c; down += h * c
                for (k0 = 0; k0 < nref; k0 += gc) {
                    kg = nref - k0 < gc ? nref - k0 : gc
                    up += (len - k0) * kg + b * kg
                }
            }
        }
        printf "%.0f %.0f\n", up * e, down * e }'
}

# lean_verdicts: of the lean run's $log (name, cap, cols as set): plan=lean,
# the peak under the cap and equal to the plan, the values as the in-core
# run's, LAPACK's ratios; sets peak, plan and ratios
lean_verdicts() {
    peak=$(field "$log" "device peak") plan=$(field "$log" device_bytes)
    ok=$(grep -q "path=opencl .*plan=lean" <<<"$log" && [ -n "$peak" ] &&
        [ "$peak" -le $((cap << 20)) ] && [ "$peak" = "$plan" ] && echo 1 || echo 0)
    verdict "$ok" "$name-lean" "cap $cap MiB, plan ${plan:-none}, peak ${peak:-none}: $(grep -o 'path=.*info' <<<"$log" | head -1)"
    verdict "$(same $T/in-core $T/lean $cols)" "$name-values" \
        "the lean run's values differ from the in-core run's by $(difference $T/in-core $T/lean) of max(s)"
    ratios=$(grep -o "ratios .*" <<<"$log")
    verdict "$(ratios_ok "$log")" "$name-ratios" "${ratios:-no ratios}"
}

for spec in "dgesdd 512 512 8 8" "zgesdd 512 512 16 16" "dgesvd 512 640 8 8"; do
    set -- $spec
    routine=$1 m=$2 n=$3 es=$4 cap=$5
    name=$routine-S-${m}x$n
    rows=$((m > n ? m : n)) cols=$((m > n ? n : m))
    log=$(call $routine N $m $n $T/in-core)
    ok=$(grep -q "path=opencl .*plan=in-core" <<<"$log" && echo 1 || echo 0)
    verdict "$ok" "$name-in-core" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
    log=$(call $routine S $m $n $T/lean GPULAPACK_DEVICE_MEMORY_MB=$cap)
    lean_verdicts
    read -r up down < <(bytes "$log")
    read -r mup mdown < <(model $rows $cols $cols $es)
    ok=$(near "$up" "$down" "$mup" "$mdown")
    verdict "$ok" "$name-bus-bytes" "host->device $up bytes (model $mup), device->host $down (model $mdown)"
    echo "# $name: cap $((cap << 20)), plan $plan, device peak $peak; values differ by $(difference $T/in-core $T/lean) of max(s); $ratios; host->device $up bytes (model $mup), device->host $down (model $mdown); the matrix is $((m * n * es))"
    [ $routine = dgesdd ] || continue

    # a copy that fails in stage 1 (the call's third), and one in the
    # back-transformation (the 150th: in the second block of U, the first
    # one read back, as the failed call's profile shows; 8 copies come
    # before the blocks and about 97 per block, most of them the panels'
    # T's merged on the device): LAPACK from the caller's A
    for at in 3 150; do
        log=$(call $routine S $m $n $T/fault GPULAPACK_DEVICE_MEMORY_MB=$cap GPULAPACK_FAULT=copy:$at)
        ok=$(grep -q "path=lapack reason=fault opencl" <<<"$log" &&
            [ "$(same $T/in-core $T/fault $cols)" = 1 ] && [ "$(ratios_ok "$log")" = 1 ] && echo 1 || echo 0)
        verdict "$ok" "$name-fault-$at" "$(grep -o 'path=.*info' <<<"$log" | head -1), $(grep -o 'ratios .*' <<<"$log")"
    done
done

# A tall X (dgesdd S, 512 x 256: its QR first in core, the reflectors
# parked too and streamed past U's blocks after R's panels) and an output
# over A (dgesdd O, 256 x 384: VT written over A from the host's blocks,
# last), under caps between their lean plans (5.3 and 4.5 MB) and their
# in-core ones (9.7 and 8.4 MB; 1024 x 512 and 512 x 768 under 12 and 10
# MiB until this): plan=lean, the peak under the cap and equal to the
# plan, the values as the in-core run's, LAPACK's ratios under 30 (for
# 'O' of the VT that A holds).
for spec in "dgesdd S 512 256 7" "dgesdd O 256 384 6"; do
    set -- $spec
    routine=$1 job=$2 m=$3 n=$4 cap=$5
    name=$routine-$job-${m}x$n
    cols=$((m > n ? n : m))
    call $routine N $m $n $T/in-core >/dev/null
    log=$(call $routine $job $m $n $T/lean GPULAPACK_DEVICE_MEMORY_MB=$cap)
    lean_verdicts
    echo "# $name: cap $((cap << 20)), plan $plan, device peak $peak; values differ by $(difference $T/in-core $T/lean) of max(s); $ratios"
done
