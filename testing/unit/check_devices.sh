#!/bin/bash
# Several devices in one call (kernels/tiers/peers.c,
# kernels/tiers/stage1_peers.c): on PoCL made to show two or three devices
# (POCL_DEVICES), GPULAPACK_DEVICE=opencl:all or a list shares the
# back-transformation of the vectors by columns (dsyevd V, zheevd V; dgesdd S:
# both U's and VT's) and the ?syev family's stage 1 by tile columns (small band
# and tiles here, GPULAPACK_BAND and GPULAPACK_OOC_TILE: several panels and
# several tiles per device), and the SVD's (dgesdd) likewise.
#  - the log names the set (its first device) and the call says devices=N;
#  - each other device's profile shows its share: for the
#    back-transformation the reflectors' copy and its columns up, its
#    columns (n x m/N) down; for stage 1 the bytes each way, the products
#    (gl_gemm) and fills (gl_dc_fill) of its tiles, equal to the model of
#    kernels/tiers/stage1_peers.c (stage1_model below) within 2%;
#  - the values are those of one device within 10 n eps max|w| (stage 1's
#    products' sums run in another order: not the same bits) -- the
#    vectors are checked by standin/cuda/test_vectors-devices;
#  - a peer whose stage-1 allocation fails (GPULAPACK_FAULT=alloc:N, N
#    found from the log) leaves stage 1 to the first device: one device's
#    values to the bit; a failed copy in the split stage 1 (dsyevd's,
#    dgesdd's) restarts the call on LAPACK (reason=fault), whose values
#    agree within 10 n eps.
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
# call <pocl devices> <GPULAPACK_DEVICE> <routine> <n> <values file>
# [VAR=value ...]: with vectors (JOBZ 'V'; 'S' for the SVD; $JOB where
# set), at the band, tile and stage-1 block of $BAND, $TILE and $BLOCK
# where set
call() {
    local job=V pocl=$1 set=$2 routine=$3 n=$4 values=$5
    shift 5
    [[ $routine == *gesdd ]] && job=S
    job=${JOB:-$job}
    env POCL_DEVICES="$pocl" GPULAPACK_DEVICE="$set" AUTO_CALL_VALUES="$values" \
        GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 GPULAPACK_MIN_N=0 \
        ${BAND:+GPULAPACK_BAND=$BAND} ${TILE:+GPULAPACK_OOC_TILE=$TILE} \
        ${BLOCK:+GPULAPACK_STAGE1_BLOCK=$BLOCK} "$@" \
        $CALL "$routine" $job "$n" 2>&1
}
# field <log> <profile name> <stage> <op> <bytes|calls>: the sum over that
# profile's rows of op in stage
field() {
    awk -v who="$2 profile:" -v st="stage=$3 " -v op="op=\"$4\"" -v f="$5=" \
        'index($0, who) && index($0, st) && index($0, op) {
            for (i = 1; i <= NF; i++) if (index($i, f) == 1) s += substr($i, length(f) + 1) }
        END { printf "%.0f\n", s }' <<<"$1"
}
# stage1_model <n> <b> <tile> <block> <devices> <index> <bytes per scalar>:
# "up down gemms fills arena" of device index's share of sy2sb_split (the
# layout and the copies of kernels/tiers/stage1_peers.c: tile t is device
# t % devices's; per panel S, V, W down to it, its part of X back, the
# panel's columns from their owner; each block's end updates its pieces;
# the columns of no panel back at the end, then one scalar; its arena:
# its tiles' columns, VA and WA, S and X: sy2sb_peer_bytes)
stage1_model() {
    awk -v n="$1" -v b="$2" -v w="$3" -v blk="$4" -v parts="$5" -v idx="$6" -v es="$7" '
    function own(t) { return t % parts == idx }
    function mn(x, y) { return x < y ? x : y }
    # gl_gemm launches of the pieces of own tiles from column c: per piece
    # `first` (hemm 1, her2k 2) and 2 more where rows lie below it
    function launches(c, first,    t, c1, g) {
        for (t = int(c / width); t * width < n; t++) if (own(t)) {
            c1 = mn((t + 1) * width, n); g += first + (n - c1 > 0 ? 2 : 0) }
        return g }
    BEGIN {
        width = int((w + b - 1) / b) * b; if (width < b) width = b
        panels = int(blk / b); if (panels < 1) panels = 1
        for (t = 0; t * width < n; t++) if (own(t)) {
            t0 = t * width; up += (n - t0) * (mn(t0 + width, n) - t0); tiles++ }
        arena = n * tiles * width + 2 * (n - b) * panels * b + 2 * (n - b) * b
        k = 0
        for (k0 = 0; n - k0 - b >= 2; k0 += panels * b) {
            k = k0
            for (j = 0; j < panels && n - k - b >= 2; j++) {
                pn = n - k - b; kk = mn(pn, b)
                if (own(int(k / width))) down += (n - k) * b
                up += 3 * pn * kk; down += pn * kk; fills++
                gemms += launches(k + b, 1)
                k += b
            }
            if (k < n) gemms += launches(k, 2)
        }
        for (t = int(k / width); t * width < n; t++) if (own(t)) {
            c0 = t * width > k ? t * width : k; down += (n - c0) * (mn((t + 1) * width, n) - c0) }
        down += 1
        printf "%.0f %.0f %d %d %.0f\n", up * es, down * es, gemms, fills, arena * es
    }'
}
# ge_stage1_model <n> <b> <tile> <block> <devices> <index> <bytes per
# scalar>: the same for ge2gb_split of an n x n matrix (whole columns in
# its tiles; per step the block column from its owner, V down, its rows
# of A^H V up and Y down, its columns of the block row up, W down, its
# part of A W up and X down; a product per piece and per part, a fill
# per part; each block's end a product per piece; its arena: its tiles'
# columns, L and R, its part of a product: ge2gb_peer_bytes)
ge_stage1_model() {
    awk -v m="$1" -v n="$1" -v b="$2" -v w="$3" -v blk="$4" -v parts="$5" -v idx="$6" -v es="$7" '
    function own(t) { return t % parts == idx }
    function mn(x, y) { return x < y ? x : y }
    # the count of own pieces from column c (wid: their width)
    function pieces(c,    t, g, c0) {
        wid = 0
        for (t = int(c / width); t * width < n; t++) if (own(t)) {
            c0 = t * width > c ? t * width : c; g++; wid += mn((t + 1) * width, n) - c0 }
        return g }
    BEGIN {
        width = int((w + b - 1) / b) * b; if (width < b) width = b
        steps = int(blk / b); if (steps < 1) steps = 1
        if (steps > int((n + b - 1) / b)) steps = int((n + b - 1) / b)
        for (t = 0; t * width < n; t++) if (own(t)) { up += m * (mn((t + 1) * width, n) - t * width); tiles++ }
        done = 0
        for (k0 = 0; k0 < n && !done; k0 += steps * b) {
            k = k0; used = 0
            for (s = 0; s < steps && k < n; s++) {
                pk = mn(n - k, b)
                if (own(int(k / width))) down += (m - k) * pk
                if (k + pk >= n) { done = 1; break }
                up += (m - k) * pk; fills++; gemms += pieces(k + pk)
                down += (n - k - pk) * pk; up += (n - k - pk) * pk; used += pk
                q = n - k - b; kk = mn(b, q)
                pieces(k + b); down += b * wid
                up += q * kk; fills++; gemms += pieces(k + b)
                down += (m - k - b) * kk; up += (m - k - b) * kk; used += kk
                k += b
            }
            if (!done && k < n && used > 0) gemms += pieces(k)
        }
        down += 1
        arena = m * tiles * width + (m + n) * 2 * steps * b + (m > n ? m : n) * b
        printf "%.0f %.0f %d %d %.0f\n", up * es, down * es, gemms, fills, arena * es
    }'
}
# near <got> <want>: within 2% (the profile prints 3 significant digits)
near() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; print (d <= 0.02 * w) ? 1 : 0 }'; }
# agree <values> <values> <n> <eps>: max |difference| <= 10 n eps max|w|
agree() {
    paste "$1" "$2" | awk -v n="$3" -v eps="$4" '
        { d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d; a = $1 < 0 ? -$1 : $1; if (a > w) w = a }
        END { print (NR > 0 && m <= 10 * n * eps * w) ? 1 : 0 }'
}
# the index of device id in the set's order (opencl:0.1,0.0: 0.1 first)
index_of() { local i=0 d; for d in $2; do [ "$d" = "$1" ] && echo $i; i=$((i + 1)); done; }

# routine n bytes/scalar pocl set devices first peer band tile order-of-set
# [stage-1 block: double-blocked, the panels' corrections on the first
# device; else one panel per block]
for spec in "dsyevd 512 8 pthread-pthread opencl:all 2 opencl:0.0 opencl:0.1 16 32 opencl:0.0-opencl:0.1" \
    "dsyevd 512 8 pthread-pthread opencl:all 2 opencl:0.0 opencl:0.1 16 32 opencl:0.0-opencl:0.1 48" \
    "zheevd 300 16 pthread-pthread-pthread opencl:all 3 opencl:0.0 opencl:0.2 8 24 opencl:0.0-opencl:0.1-opencl:0.2" \
    "dsyevd 256 8 pthread-pthread opencl:0.1,0.0 2 opencl:0.1 opencl:0.0 8 16 opencl:0.1-opencl:0.0" \
    "dgesdd 300 8 pthread-pthread opencl:all 2 opencl:0.0 opencl:0.1 16 32 opencl:0.0-opencl:0.1" \
    "dgesdd 300 8 pthread-pthread opencl:all 2 opencl:0.0 opencl:0.1 16 32 opencl:0.0-opencl:0.1 48"; do
    set -- $spec
    routine=$1 n=$2 es=$3 pocl=${4//-/ } set=$5 k=$6 first=$7 peer=$8
    BAND=${9#-} TILE=${10#-} order=${11//-/ } BLOCK=${12}
    name="$routine-$n-$set${BLOCK:+-block$BLOCK}"
    one=$(call "$pocl" opencl "$routine" $n $T/one)
    # one device's values, for the faults below (the call on one device
    # is the same to the bit whatever the tiles of a split: cmp)
    cp $T/one "$T/one-$name"
    log=$(call "$pocl" "$set" "$routine" $n $T/set)
    ok=$(grep -q "path=opencl .*devices=$k " <<<"$log" &&
        grep -q "opencl: $k devices share each call's work, $first first" <<<"$log" &&
        grep -q "path=opencl " <<<"$one" && echo 1 || echo 0)
    verdict "$ok" "$name/log" "$(grep -o 'path=.*info' <<<"$log" | head -1)"
    who="$routine@$peer"
    up=$(field "$log" "$who" back write bytes) down=$(field "$log" "$who" back read bytes)
    share=$(( n / k ))
    sides=1   # the SVD: U's and VT's columns
    [[ $routine == *gesdd ]] && sides=2
    # (the profile prints 3 significant digits)
    ok=$(awk -v u="$up" -v d="$down" -v c=$((sides * n * share * es)) -v a=$((n * n * es)) \
        'BEGIN { print (d >= 0.995 * c && d <= 1.005 * c && u >= 0.995 * (a + c)) ? 1 : 0 }')
    verdict "$ok" "$name/share" "$peer: $up bytes up (at least $((n * n * es + sides * n * share * es))), $down down (its $share columns: $((sides * n * share * es)))"
    echo "# $name: $peer took $up bytes up, $down down for the vectors; $((n * n * es)) per matrix"
    # stage 1 split: the peer's share against the model, the values to
    # rounding (double and complex double here)
    model=stage1_model
    [[ $routine == *gesdd ]] && model=ge_stage1_model
    read -r mup mdown mgemm mfill marena <<<"$($model $n $BAND $TILE ${BLOCK:-$BAND} $k \
        "$(index_of "$peer" "$order")" $es)"
    sup=$(field "$log" "$who" stage1 write bytes) sdown=$(field "$log" "$who" stage1 read bytes)
    sgemm=$(field "$log" "$who" stage1 gl_gemm calls) sfill=$(field "$log" "$who" stage1 gl_dc_fill calls)
    sarena=$(field "$log" "$who" stage1 alloc bytes)
    ok=$(( $(near "$sup" "$mup") & $(near "$sdown" "$mdown") & $(near "$sgemm" "$mgemm") &
        $(near "$sfill" "$mfill") & $(near "$sarena" "$marena") ))
    verdict "$ok" "$name/stage1-share" "$peer: $sup bytes up (model $mup), $sdown down ($mdown), $sgemm gl_gemm ($mgemm), $sfill gl_dc_fill ($mfill), $sarena bytes allocated ($marena)"
    echo "# $name: stage 1 on $peer: $sup bytes up, $sdown down, $sgemm gl_gemm, $sfill gl_dc_fill, $sarena bytes allocated (model $mup $mdown $mgemm $mfill $marena)"
    ok=$(agree $T/one $T/set $n 1.11e-16)
    verdict "$ok" "$name/values" "the values differ from one device's by more than 10 n eps max|w|"
done

# Faults in the split stage 1 (dsyevd 512 on two devices, the first
# spec's band and tiles).
BAND=16 TILE=32 BLOCK= n=512
cp "$T/one-dsyevd-$n-opencl:all" $T/one
log=$(call "pthread pthread" opencl:all dsyevd $n /dev/null GPULAPACK_VERBOSE=3)
# the peer's stage-1 arena: the second allocation that is all its device
# holds ("+B bytes, B in use"; the first is the call's matrix)
nth=$(grep "device memory: +" <<<"$log" |
    awk '{ b = $4; sub(/^\+/, "", b); if (b == $6 && ++seen == 2) { print NR; exit } }')
log=$(call "pthread pthread" opencl:all dsyevd $n $T/set GPULAPACK_FAULT=alloc:${nth:-0})
ok=$([ -n "$nth" ] && grep -q "path=opencl .*devices=2 " <<<"$log" &&
    ! grep -q "reason=fault" <<<"$log" && cmp -s $T/one $T/set && echo 1 || echo 0)
verdict "$ok" "dsyevd-$n-peer-alloc" "allocation $nth refused: $(grep -o 'path=.*info=[0-9-]*' <<<"$log" | head -1)"
# a copy of the split stage 1, for each driver: the copies of the call's
# stage "start" (its profile's) come first, then the peer's first tile:
# read here (+1), written there (+2)
for routine in dsyevd dgesdd; do
    log=$(call "pthread pthread" opencl:all $routine $n /dev/null)
    pre=$(for op in write read copy; do field "$log" "$routine" start $op calls; done |
        awk '{ s += $1 } END { print s + 0 }')
    if [ -f "$T/one-$routine-$n-opencl:all" ]; then
        cp "$T/one-$routine-$n-opencl:all" $T/one
    else
        call "pthread pthread" opencl $routine $n $T/one >/dev/null
    fi
    log=$(call "pthread pthread" opencl:all $routine $n $T/set GPULAPACK_FAULT=copy:$((pre + 2)))
    ok=$(grep -q "path=lapack reason=fault" <<<"$log" && agree $T/one $T/set $n 1.11e-16)
    verdict "${ok:-0}" "$routine-$n-stage1-copy" "copy $((pre + 2)) failed: $(grep -o 'path=.*info=[0-9-]*' <<<"$log" | head -1)"
done

# Values only: the ?syev family's and the SVD's calls without vectors
# take the set too (stage 1 is shared), the same stage-1 share as with
# vectors.
for spec in "dsyevd stage1_model" "dgesdd ge_stage1_model"; do
    set -- $spec
    JOB=N call "pthread pthread" opencl $1 $n $T/one >/dev/null
    log=$(JOB=N call "pthread pthread" opencl:all $1 $n $T/set)
    read -r mup mdown mgemm mfill marena <<<"$($2 $n $BAND $TILE $BAND 2 1 8)"
    sgemm=$(field "$log" "$1@opencl:0.1" stage1 gl_gemm calls)
    ok=$(grep -q "$1 jobz=N .*path=opencl .*devices=2 " <<<"$log" && [ "$(near "$sgemm" "$mgemm")" = 1 ] &&
        agree $T/one $T/set $n 1.11e-16)
    verdict "${ok:-0}" "$1-N-$n-opencl:all" "$sgemm gl_gemm on the peer (model $mgemm): $(grep -o 'path=.*info=[0-9-]*' <<<"$log" | head -1)"
done
