#!/bin/bash
# The automatic device choice and its crossovers, without a GPU:
# over the stand-in drivers of testing/unit/mock/ (mock_cuda.c: one CUDA
# device whose kernels fail, so a call sent to it restarts on LAPACK with
# reason=fault cuda; mock_hip_abort.c: a HIP whose second initialization in
# a process aborts, as ROCm's LLVM does) and tune files written by hand and
# by bin/gpulapack-tune.  One PASS/FAIL line per check.
cd "$(dirname "$0")/../.."
M=build/testing
CALL=$M/auto_call
CUDA=$M/mock-cuda
HIPA=$M/mock-hip-abort
T=$(mktemp -d "${TMPDIR:-/tmp}/gpulapack-auto.XXXXXX")
trap 'rm -rf "$T"' EXIT
# the tests' own tune files only; no file of the user's
export XDG_CACHE_HOME=$T/cache HOME=$T
unset GPULAPACK_DEVICE GPULAPACK_MIN_N GPULAPACK_TUNE_FILE GPULAPACK_LOG

verdict() { # verdict <ok 0/1> <name> <detail>
    if [ "$1" = 1 ]; then echo "PASS unit/auto/$2"; else echo "FAIL unit/auto/$2: $3"; fi
}
# run <logfile> <command...>: GPULAPACK_VERBOSE=1, stdout and stderr to the file
run() {
    local log=$1
    shift
    GPULAPACK_VERBOSE=1 "$@" >"$log" 2>&1
}
has() { grep -q -- "$2" "$1"; }

# ---- 1. the stand-in HIP that aborts on a second initialization ----------
# listing: the library opened once (the old probe's dlopen/dlclose and the
# runtime's dlopen aborted here)
run $T/list.log env LD_LIBRARY_PATH=$HIPA MOCK_HIP_TRACE=$T/list.trace bin/gpulapack-info
rc=$?
loads=$(cat $T/list.trace 2>/dev/null | grep -c load)
verdict $([ $rc -eq 0 ] && [ "$loads" = 1 ] && has $T/list.log "libamdhip64.so.5" && echo 1 || echo 0) \
    hip-abort/listing "rc $rc, $loads initializations (see $T/list.log)"
# the C API, twice, and a call that needs discovery, in the order that crashed
run $T/api.log env LD_LIBRARY_PATH=$HIPA MOCK_HIP_TRACE=$T/api.trace $CALL api dsyevd N 1600 api
rc=$?
loads=$(cat $T/api.trace 2>/dev/null | grep -c load)
verdict $([ $rc -eq 0 ] && [ "$loads" = 1 ] && [ "$(grep -c '^api ' $T/api.log)" = 2 ] && echo 1 || echo 0) \
    hip-abort/c-api "rc $rc, $loads initializations"
# auto without a CUDA device: HIP is tried once, its failure is a fallback
run $T/auto.log env LD_LIBRARY_PATH=$HIPA MOCK_HIP_TRACE=$T/auto.trace $CALL dsyevd N 1600 dsyevd N 1600 api
rc=$?
loads=$(cat $T/auto.trace 2>/dev/null | grep -c load)
verdict $([ $rc -eq 0 ] && [ "$loads" -le 1 ] && has $T/auto.log "dsyevd jobz=N uplo=L n=1600 path=lapack reason=size" && echo 1 || echo 0) \
    hip-abort/auto-no-cuda "rc $rc, $loads initializations"
# auto with the stand-in CUDA device: HIP is never opened; the listing
# afterwards opens it once
run $T/cuda.log env LD_LIBRARY_PATH=$CUDA:$HIPA MOCK_HIP_TRACE=$T/cuda.trace $CALL dsyevd N 1600 dsyevd V 1300
rc=$?
loads=$(cat $T/cuda.trace 2>/dev/null | grep -c load)
verdict $([ $rc -eq 0 ] && [ "$loads" = 0 ] && has $T/cuda.log "n=1600 path=lapack reason=fault cuda" && echo 1 || echo 0) \
    hip-abort/auto-cuda-first "rc $rc, $loads HIP initializations (0 expected)"
run $T/cuda2.log env LD_LIBRARY_PATH=$CUDA:$HIPA MOCK_HIP_TRACE=$T/cuda2.trace $CALL dsyevd N 1600 api dsyevd N 1600
rc=$?
loads=$(cat $T/cuda2.trace 2>/dev/null | grep -c load)
verdict $([ $rc -eq 0 ] && [ "$loads" = 1 ] && has $T/cuda2.log "path=cuda" && echo 1 || echo 0) \
    hip-abort/auto-cuda-then-listing "rc $rc, $loads initializations"

# ---- 2. auto over the stand-in CUDA device, built-in table ----------------
run $T/b.log env LD_LIBRARY_PATH=$CUDA $CALL dsyevd N 1600 dsyevd N 1600 counters \
    dsyevd N 1000 dgesdd N 1000 dgesdd N 1600
verdict $(has $T/b.log "dsyevd jobz=N uplo=L n=1600 path=lapack reason=fault cuda" && echo 1 || echo 0) \
    builtin/cuda-above "dsyevd N 1600 not sent to cuda (see $T/b.log)"
verdict $(has $T/b.log "dsyevd jobz=N uplo=L n=1000 path=lapack reason=size" && echo 1 || echo 0) \
    builtin/lapack-below "dsyevd N 1000 not forwarded for size"
verdict $(has $T/b.log "dgesdd jobz=N m=1000 n=1000 path=host reason=crossover host" && echo 1 || echo 0) \
    builtin/host-between "dgesdd N 1000 not on the host path"
verdict $(has $T/b.log "dgesdd jobz=N m=1600 n=1600 path=lapack reason=fault cuda" && echo 1 || echo 0) \
    builtin/cuda-gesdd "dgesdd N 1600 not sent to cuda"
# the context and the module, once made, are kept
verdict $(has $T/b.log "counters ctx_retains=1 module_loads=1" && echo 1 || echo 0) \
    context-kept "$(grep counters $T/b.log)"
# without any device: the host path says why
run $T/none.log $CALL dgesdd N 1600
verdict $(grep -Eq "n=1600 path=host reason=(no-device|runtime-init-failed), crossover host" $T/none.log && echo 1 || echo 0) \
    no-device-reason "$(grep 'gpulapack: dgesdd' $T/none.log)"

# ---- 3. tune files: the stand-in's device ---------------------------------
ident="gpulapack_mock_GPU/85899345920"
host=$(bin/gpulapack-tune -q --paths none --families none -o $T/id.txt; head -1 $T/id.txt | sed 's/.*host=//')
printf 'gpulapack-tune 1 host=%s gpu=cuda:%s\nsyevd N d cuda 300\nsyevd N d host never\n' \
    "$host" "$ident" >$T/cuda300.txt
run $T/f1.log env LD_LIBRARY_PATH=$CUDA GPULAPACK_TUNE_FILE=$T/cuda300.txt $CALL dsyevd N 400 dsyevd N 200 dsyevd V 400
verdict $(has $T/f1.log "n=400 path=lapack reason=fault cuda" && has $T/f1.log "n=200 path=lapack reason=size" &&
          has $T/f1.log "jobz=V uplo=L n=400 path=lapack reason=size" && echo 1 || echo 0) \
    file/cuda-crossover "dsyevd N 400 not on cuda with a file saying 300 (see $T/f1.log)"
# another device's lines are ignored, with a log line
sed "s|$ident|another_GPU/1|" $T/cuda300.txt >$T/other.txt
run $T/f2.log env LD_LIBRARY_PATH=$CUDA GPULAPACK_TUNE_FILE=$T/other.txt $CALL dsyevd N 400 dsyevd N 1600
verdict $(has $T/f2.log "n=400 path=lapack reason=size" && has $T/f2.log "n=1600 path=lapack reason=fault cuda" &&
          has $T/f2.log "are for another_GPU/1" && echo 1 || echo 0) \
    file/other-device "(see $T/f2.log)"
# a rates line (FP64 GEMM 20000 GFLOP/s, 40 GB/s up, 25 down): the
# streamed plan's passes take the band F / W = 800, rounded down to 768,
# instead of the built-in 1024 (the plan's 7 n B + 2 B^2 + 3 tile^2
# doubles at n = 20000: three tile buffers)
printf 'gpulapack-tune 1 host=%s gpu=cuda:%s\nrates cuda 20000 40 25\n' "$host" "$ident" >$T/rates.txt
for f in none $T/rates.txt; do
    env LD_LIBRARY_PATH=$CUDA GPULAPACK_TUNE_FILE=$f GPULAPACK_DEVICE=cuda GPULAPACK_PLAN=streamed \
        bin/gpulapack-info dsyevd N 20000 >$T/rates-$(basename $f).log 2>&1
done
want() { echo "device_bytes=$(( (7 * 20000 * $1 + 2 * $1 * $1 + 3 * 4096 * 4096) * 8 ))"; }
verdict $(has $T/rates-none.log "plan=streamed $(want 1024)" && has $T/rates-rates.txt.log "plan=streamed $(want 768)" &&
          echo 1 || echo 0) file/rates-band "$(tail -1 $T/rates-none.log), $(tail -1 $T/rates-rates.txt.log)"
# a malformed file, or one of another host: ignored, logged, listed
printf 'gpulapack-tune 1 host=%s\nsyevd N d host three\n' "$host" >$T/bad.txt
printf 'gpulapack-tune 1 host=Another_CPU/64\nsyevd N d host 300\n' >$T/foreign.txt
for f in bad foreign; do
    run $T/$f.log env GPULAPACK_TUNE_FILE=$T/$f.txt $CALL dsyevd N 400 api
    verdict $(has $T/$f.log "n=400 path=lapack reason=size" && has $T/$f.log "ignored" &&
              has $T/$f.log "table=built-in ($T/$f.txt ignored" && echo 1 || echo 0) \
        file/$f-ignored "(see $T/$f.log)"
done
# gpulapack-tune against the stand-in: its kernels fail, so cuda never
# wins; the file it writes is read and takes dsyevd N 1600 off cuda
run $T/tune.log env LD_LIBRARY_PATH=$CUDA bin/gpulapack-tune --families syevd --jobs N \
    --precisions d --min-n 256 --max-n 320 -o $T/tuned.txt
verdict $([ $? -eq 0 ] && grep -q "^gpulapack-tune 1 host=.* gpu=cuda:$ident" $T/tuned.txt &&
          grep -q "^syevd N d cuda never$" $T/tuned.txt && grep -Eq "^syevd N d host ([0-9]+|never)$" $T/tuned.txt &&
          has $T/tune.log "gpulapack-tune \[1/1" && echo 1 || echo 0) \
    tune/stand-in-file "$(tr '\n' '|' <$T/tuned.txt)"
run $T/f3.log env LD_LIBRARY_PATH=$CUDA GPULAPACK_TUNE_FILE=$T/tuned.txt $CALL dsyevd N 1600 api
# the host's own entry is a timing of this machine (under load it may put
# the host path's crossover within 256-320): the decision follows it
host_n=$(awk '$1 == "syevd" && $2 == "N" && $3 == "d" && $4 == "host" { print $5 }' $T/tuned.txt)
if [ -n "$host_n" ] && [ "$host_n" != never ] && [ "$host_n" -le 1600 ]; then
    want="n=1600 path=host reason=crossover"
else
    want="n=1600 path=lapack reason=size"
fi
verdict $(has $T/f3.log "$want" && has $T/f3.log "table=$T/tuned.txt" && echo 1 || echo 0) \
    tune/stand-in-read "no '$want' (see $T/f3.log)"

# ---- 3b. a set of devices under auto: the tune file's devices line ---------
# the host's own threads (no GPU path): a line for each stage at n =
# 1000, stage 1's run of products ended once (ending it twice hung here)
run $T/threads.log timeout 120 bin/gpulapack-tune --paths host --families none \
    --max-n 1000 -o $T/threads.txt
rc=$?
ok=$([ $rc -eq 0 ] && echo 1 || echo 0)
for s in chase values products; do
    grep -Eq "^host-threads $s 1000 [0-9]+$" $T/threads.txt 2>/dev/null || ok=0
done
verdict $ok tune/host-threads "rc $rc: $(tr '\n' '|' <$T/threads.txt 2>/dev/null)"
# two stand-in CUDA devices: a call at or above the line's n takes both
# (the other's profile, dsyevd@cuda:1, is printed before the call's line;
# the stand-in's kernels fail, so the call itself restarts on LAPACK),
# one below it, with no line, with "never" or with several MPI ranks
# takes one; a named device (GPULAPACK_DEVICE=cuda) ignores the line.
# The other device is opened (its context retained) only by a call that
# takes it.
printf 'gpulapack-tune 1 host=%s gpu=cuda:%s\nsyevd V d cuda 300\nsyevd V d host never\n' \
    "$host" "$ident" >$T/one-device.txt
{ cat $T/one-device.txt; echo "devices syevd V d cuda 2 400"; } >$T/two-devices.txt
{ cat $T/one-device.txt; echo "devices syevd V d cuda 2 never"; } >$T/never-two.txt
# sets <log>: per call line, 2 when another device's profile preceded it
sets() {
    awk '/dsyevd@cuda:1 profile/ { peer = 1 }
         /gpulapack: dsyevd jobz/ { printf "%d ", peer ? 2 : 1; peer = 0 }' "$1"
}
for spec in "two-devices auto 1-2-2 2" "one-device auto 1-1-1 1" "never-two auto 1-1-1 1" \
    "two-devices cuda 1-1-1 1" "two-devices auto-rank 1-1-1 1"; do
    set -- $spec
    rank=
    device=$2
    [ "$2" = auto-rank ] && rank=OMPI_COMM_WORLD_LOCAL_RANK=0 device=auto
    run $T/set.log env LD_LIBRARY_PATH=$CUDA GL_MOCK_DEVICES=2 GPULAPACK_DEVICE=$device \
        GPULAPACK_TUNE_FILE=$T/$1.txt GPULAPACK_PROFILE=1 $rank \
        $CALL dsyevd V 350 dsyevd V 400 dsyevd V 500 counters
    got=$(sets $T/set.log)
    verdict $([ "$got" = "${3//-/ } " ] && has $T/set.log "counters ctx_retains=$4 " && echo 1 || echo 0) \
        "devices/$1-$2" "devices per call (n = 350, 400, 500): $got, expected ${3//-/ }; $(grep counters $T/set.log), expected ctx_retains=$4 (see $T/set.log)"
done

# ---- 4. the host path's crossover from a file ------------------------------
printf 'gpulapack-tune 1 host=%s\nsyevd N d host 300\ngesdd N d host 2000\n' "$host" >$T/host.txt
run $T/h0.log $CALL dsyevd N 400 dgesdd N 1000
run $T/h1.log env GPULAPACK_TUNE_FILE=$T/host.txt $CALL dsyevd N 400 dgesdd N 1000 dsyev N 400
verdict $(has $T/h0.log "dsyevd jobz=N uplo=L n=400 path=lapack reason=size" &&
          has $T/h1.log "dsyevd jobz=N uplo=L n=400 path=host reason=" && echo 1 || echo 0) \
    file/host-lower "dsyevd N 400: without the file lapack, with 300 host (see $T/h0.log $T/h1.log)"
verdict $(has $T/h0.log "dgesdd jobz=N m=1000 n=1000 path=host" &&
          has $T/h1.log "dgesdd jobz=N m=1000 n=1000 path=lapack reason=size" && echo 1 || echo 0) \
    file/host-higher "dgesdd N 1000: without the file host, with 2000 lapack"
# the default location under the cache directory
mkdir -p $T/cache/gpulapack && cp $T/host.txt $T/cache/gpulapack/tune.txt
run $T/h2.log $CALL dsyevd N 400 api
verdict $(has $T/h2.log "n=400 path=host" && has $T/h2.log "table=$T/cache/gpulapack/tune.txt" && echo 1 || echo 0) \
    file/default-location "(see $T/h2.log)"
rm -f $T/cache/gpulapack/tune.txt
# gpulapack-tune on this machine's host path writes a file the library takes
run $T/ht.log bin/gpulapack-tune --paths host --families gesdd --jobs N --precisions d \
    --min-n 256 --max-n 512
rc=$?
line=$(grep '^gesdd N d host ' $T/cache/gpulapack/tune.txt 2>/dev/null)
verdict $([ $rc -eq 0 ] && [ -n "$line" ] && echo 1 || echo 0) tune/host-file "rc $rc, line '$line'"
n=${line##* }
if [ -n "$line" ] && [ "$n" != never ]; then
    below=$((n - 32)) above=$n
    [ $below -lt 2 ] && below=2
    run $T/ht2.log $CALL dgesdd N $above dgesdd N $below
    verdict $(has $T/ht2.log "m=$above n=$above path=host" && has $T/ht2.log "m=$below n=$below path=lapack reason=size" && echo 1 || echo 0) \
        tune/host-decisions "crossover $n (see $T/ht2.log)"
fi

# ---- 4. MPI processes of one node: a device each --------------------------
# four stand-in CUDA devices; the local rank (as Open MPI, Slurm, MPICH
# say it) modulo the devices picks one unless GPULAPACK_DEVICE names it
chosen() { grep -o '^  cuda:[0-9]* \[chosen\]' "$1" | cut -d' ' -f3; }
for spec in "OMPI_COMM_WORLD_LOCAL_RANK 3 auto cuda:3" \
    "OMPI_COMM_WORLD_LOCAL_RANK 5 auto cuda:1" "SLURM_LOCALID 2 cuda cuda:2" \
    "MPI_LOCALRANKID 1 auto cuda:1" "OMPI_COMM_WORLD_LOCAL_RANK 3 cuda:0 cuda:0"; do
    set -- $spec
    run $T/rank.log env LD_LIBRARY_PATH=$CUDA GL_MOCK_DEVICES=4 "$1=$2" \
        GPULAPACK_DEVICE=$3 bin/gpulapack-info
    verdict $([ "$(chosen $T/rank.log)" = "$4" ] && echo 1 || echo 0) \
        "local-rank/$1-$2-$3" "chose $(chosen $T/rank.log), expected $4"
done
