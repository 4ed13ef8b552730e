#!/bin/sh
# run_bench.sh - `make bench`: chooses the BLAS configuration, says which one
# it chose, and runs build/bench/bench (testing/bench/bench.c).
#
# Both sides of every comparison (our library and the system LAPACK) run in
# the one bench process, over the one OpenBLAS, so whatever is exported here
# holds for both.  OPENBLAS_CORETYPE has to be set before the process starts
# (OpenBLAS reads it when it loads), which is why this is a script.
#
#   OPENBLAS_CORETYPE  kept when set; otherwise detected from /proc/cpuinfo:
#                      AVX-512 (avx512f, with avx512bw and avx512vl) -> SkylakeX,
#                      else avx2 -> Haswell, else left unset.  Machines that
#                      hide the CPU model otherwise get OpenBLAS's Prescott
#                      kernels.
#   BENCH_SIZES        default "1000 2000 4000"
#   BENCH_CASES        comma list, default all (see docs/performance.md)
#   BENCH_REPS         default 1; the minimum time is reported
#   BENCH_CSV          default build/bench/bench.csv (bench_first.csv with
#                      BENCH_FIRST=1)
#   BENCH_FIRST        1: each call in a fresh process, BENCH_PAUSE seconds
#                      apart (default 5): what a program making one call sees
#   BENCH_PEER         dlopen (default) or dlmopen (see docs/performance.md)
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BENCH_BIN:-$root/build/bench/bench}
[ -x "$bin" ] || { echo "run_bench.sh: $bin not built (make bench)" >&2; exit 2; }

: "${BENCH_SIZES:=1000 2000 4000}"
: "${BENCH_CASES:=all}"
: "${BENCH_REPS:=1}"
if [ "${BENCH_FIRST:-0}" = 1 ]; then
    : "${BENCH_CSV:=$root/build/bench/bench_first.csv}"
else
    : "${BENCH_CSV:=$root/build/bench/bench.csv}"
fi
export BENCH_SIZES BENCH_CASES BENCH_REPS BENCH_CSV
mkdir -p "$(dirname "$BENCH_CSV")"

if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
    how="from the environment"
else
    flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
    has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
    if has avx512f && has avx512bw && has avx512vl; then
        OPENBLAS_CORETYPE=SkylakeX
        how="detected: cpu flags avx512f avx512bw avx512vl"
    elif has avx2; then
        OPENBLAS_CORETYPE=Haswell
        how="detected: cpu flag avx2, no AVX-512"
    else
        how="no avx2/avx512f in /proc/cpuinfo"
    fi
fi

ncpu=$(nproc 2>/dev/null || echo '?')
if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
    export OPENBLAS_CORETYPE
    echo "# blas config: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE ($how), for both sides"
else
    echo "# blas config: OPENBLAS_CORETYPE unset ($how): OpenBLAS picks its kernels, for both sides"
fi
if [ -n "${OPENBLAS_NUM_THREADS:-}" ]; then
    echo "# blas threads: OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS (nproc $ncpu)"
else
    echo "# blas threads: OPENBLAS_NUM_THREADS unset: OpenBLAS uses all nproc=$ncpu cores"
fi
echo "# cases: $BENCH_CASES"

"$bin"

# --- GPU benchmark -----------------------------------------------------------
# build/bench/bench_gpu (testing/bench/bench_gpu.c), after the host one, with
# the same BLAS configuration for its host LAPACK side; only when it was
# built (the CUDA toolkit was found).  Without a CUDA device it prints one
# "# no CUDA device" line and exits 0.
#   BENCH_GPU          0 skips it (default 1)
#   BENCH_GPU_SIZES    default "4096 8192 16384 32768"
#   BENCH_GPU_CASES    comma list, default all (see bench_gpu.c)
#   BENCH_HOST_MAX_N   default 8192: the host LAPACK is skipped above it
#   BENCH_GPU_CSV      default build/bench/bench_gpu.csv
#   BENCH_DEVICE       default cuda (the value it gives GPULAPACK_DEVICE)
#   BENCH_REPS, BENCH_PEER as above
gpu_bin=${BENCH_GPU_BIN:-$root/build/bench/bench_gpu}
if [ "${BENCH_GPU:-1}" != 0 ] && [ -x "$gpu_bin" ]; then
    : "${BENCH_GPU_CSV:=$root/build/bench/bench_gpu.csv}"
    export BENCH_GPU_CSV
    mkdir -p "$(dirname "$BENCH_GPU_CSV")"
    echo "# gpu benchmark: $gpu_bin, cases ${BENCH_GPU_CASES:-all}"
    exec "$gpu_bin"
fi
# --- end of the GPU benchmark ------------------------------------------------
