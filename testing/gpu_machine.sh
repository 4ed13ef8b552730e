#!/bin/bash
# gpu_machine.sh - the GPU acceptance checks and the GPU benchmark
# (testing/bench/bench_gpu.c) on a lent GPU machine that has the CUDA
# driver and toolkit but no Debian LAPACK, no compiler toolchain we can
# rely on and no network: this workplace's device machines.  What the
# checks need is built here and carried there.
#
#   here:   make all tests build/bench/bench_gpu && testing/gpu_machine.sh pack [DIR]
#           DIR (default .gpucarry, ignored by git) gets build.tar.xz (the
#           library, gpulapack-info, the tests of section 7 of
#           run_checks.sh, the demo, bench_gpu) and debian.tar.xz (this
#           machine's LAPACK/BLAS/OpenBLAS, libgfortran, libtmglib,
#           xeigtst[sdcz] and their inputs, at their Debian paths).
#   there:  testing/gpu_machine.sh setup [DIR]
#           unpacks both; the Debian files go to their own paths under /,
#           never over a file the machine already has.
#           testing/gpu_machine.sh check [part...]
#           gpu_checks (testing/check_lib.sh) on cuda; parts ops own vectors
#           spectra suite (default all of them; no clients: the machine's
#           Python packages bring their own OpenBLAS, whose symbols
#           LD_PRELOAD cannot reach).  Ends with "N passed, N failed".
#           testing/gpu_machine.sh bench
#           build/bench/bench_gpu with the BENCH_* variables of
#           testing/bench/run_bench.sh.
#           testing/gpu_machine.sh lease OUT [SECONDS]
#           one call of a lease: setup, then the parts of GL_LEASE_PARTS
#           (default "checks chase incumbents table profile crossover
#           hostthreads suite")
#           in that order, each bounded by what is left of SECONDS (default
#           540):
#             checks: ops, own, vectors of every 4th pair, spectra, side by
#               side, 3 minutes at most;
#             table: bench_gpu at 4096 and 8192, every case; the
#               values-only cases, dsytrd and band 32 at 16384; dsyevd N,
#               dgesdd N and band 32 at 32768;
#             profile: the demo's dgesdd S/N and dsyevd V/N at 8192 with
#               GPULAPACK_PROFILE, the rows of 0.05 s and more into the
#               summary;
#             crossover: bench_gpu with BENCH_DEVICE=cuda, then host, at
#               1024-4096: our two paths on the same matrices;
#             hostthreads: the host path against OpenBLAS on 2, 4, 8 and
#               16 threads, dsyevd N and dgesdd N at 4096, stage 1's
#               products cut (own) and in one pass (fused): the many-core
#               model of docs/performance.md;
#             tuning: our path alone (BENCH_CUSOLVER=0) with bands 128 and
#               32 for the values at 16384, groups of 64 for the vectors
#               at 8192, against table's defaults;
#             before: the values cases at 8192 and 16384 with the
#               per-wavefront chase and the one-group panel leaves of the
#               first H100 run (docs/design/chase-local-memory.md,
#               docs/design/stage1-panel-leaves.md), and dgesdd
#               S at 8192 with the system ?bdsdc;
#             suite: the EIG inputs of GL_SUITE_INPUTS (default
#               svd,sep,se2,sb,bb,sg,gd);
#             vectors: dsyevd V, dgesdd S, ssyevd V, zheevd V at 8192,
#               dsyevd V at 16384 and dsyevr RANGE 'I' (n/2, n/8
#               vectors) at 8192 against cuSOLVER + copies;
#             baseline: dsyevd V and dgesdd S at 8192, our path alone,
#               with an earlier build's library (pack with
#               GL_BASELINE=DIR carries DIR/lib/libgpulapack.so);
#             stage3: our path alone, dsyevd V and dgesdd S at 8192 with
#               the divide and conquer's leaves of 256 and 128 rows and
#               with band 32, against vectors' defaults;
#             values: dsyevd N, dgesdd N and dsytrd at 4096, 8192 and
#               16384 against cuSOLVER + copies;
#             chase: the chase's kernels (GPULAPACK_CHASE tasks, then
#               window with work-groups of 64, 128 and 256) alone, dsbtrd
#               and dgbbrd VECT=N with bands 32 and 64, and in dsyevd N, at
#               8192 and 32768 (GL_CHASE_SIZES), our path alone;
#             incumbents: dsyevd N/V and dgesdd N/S at 4096, 8192 and
#               16384 against Xsyevd (ALG_1, ALG_2 where the library
#               selects them), Xsyevdx and Xgesvdp, ours run once per n
#               (docs/benchmarks.md);
#             streamed: larger than the device (issue 40), our path
#               alone, no profile (profiling runs each copy to its end):
#               dsyevd N and dgesdd N at 49,152 in core, then under a cap
#               of 8 GiB (the streamed plan) with the tiles' copies on the
#               copy lanes, and dsyevd N with them in order
#               (GPULAPACK_OOC_QUEUES=1); dsyevd V at 16,384 under 1 GiB
#               with the streamed plan first; about 5 minutes;
#             auto: bin/gpulapack-tune on this machine (d, syevd and
#               gesdd, N and V, up to 4096), then the demo at 4096 under
#               plain LD_PRELOAD: the path auto takes.
#           OUT gets summary.txt, bench_gpu.csv, profile.txt,
#           crossover_cuda.csv, crossover_host.csv, hostthreads.csv and
#           logs.tgz: within the device tool's 8 files.
# Logs go to $GL_CHECK_OUT (default build/check-gpu).
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
ARCH_LIB=/usr/lib/x86_64-linux-gnu

build_files() {
    echo lib/libgpulapack.so bin/gpulapack-info build/demo build/bench/bench_gpu
    [ -e bin/gpulapack-tune ] && echo bin/gpulapack-tune
    local p t
    for p in s d c z; do echo "build/testing/test_device_ops_$p"; done
    for t in test_options test_lwork test_args test_threads test_vectors test_spectra; do
        echo "build/testing/$t"
    done
}

debian_files() {
    local f
    for f in openblas-pthread/libblas.so.3 openblas-pthread/liblapack.so.3 \
        openblas-pthread/libopenblas.so.0 lapack/liblapack.so.3 blas/libblas.so.3 \
        libtmglib.so.3 libgfortran.so.5 libquadmath.so.0; do
        echo "${ARCH_LIB#/}/$f"
        # the file a link names, too (libgfortran.so.5 -> libgfortran.so.5.0.0)
        [ -L "$ARCH_LIB/$f" ] && echo "$(dirname "${ARCH_LIB#/}/$f")/$(readlink "$ARCH_LIB/$f")"
    done
    (cd / && ls "${ARCH_LIB#/}"/lapack/xeigtst? "${ARCH_LIB#/}"/lapack/*.in)
}

# the Debian alternatives' links (/etc/alternatives here): the OpenBLAS ones
alternatives_links() {
    local f
    for f in liblapack.so.3 libblas.so.3 libopenblas.so.0; do
        [ -e "$ARCH_LIB/$f" ] || ln -s "openblas-pthread/$f" "$ARCH_LIB/$f"
    done
}

# the CUDA runtime libraries bench_gpu links (libcudart, libcusolver,
# libcublas): the toolkit's lib64, else wherever the machine keeps them
cuda_lib_dir() {
    local d
    for d in "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda/targets/x86_64-linux/lib; do
        [ -e "$d/libcusolver.so.12" ] && { echo "$d"; return; }
    done
    d=$(find / -xdev -name 'libcusolver.so.12' -not -path '/proc/*' 2>/dev/null | head -n 1)
    [ -n "$d" ] && dirname "$d"
}

mode=${1:-}
shift
case $mode in
pack)
    dir=${1:-.gpucarry}
    mkdir -p "$dir"
    # shellcheck disable=SC2046
    tar -cJf "$dir/build.tar.xz" $(build_files) || exit 1
    # shellcheck disable=SC2046
    tar -C / -cJf "$dir/debian.tar.xz" $(debian_files) || exit 1
    # an earlier build to compare with (GL_BASELINE: a directory whose
    # lib/libgpulapack.so is that build's), unpacked as baseline/lib
    if [ -n "${GL_BASELINE:-}" ]; then
        tar -C "$GL_BASELINE" -cJf "$dir/baseline.tar.xz" \
            --transform 's,^lib,baseline/lib,' lib/libgpulapack.so || exit 1
    fi
    du -ch "$dir"/*.tar.xz ;;
setup)
    dir=${1:-.gpucarry}
    tar -xJf "$dir/build.tar.xz" || exit 1
    [ -e "$dir/baseline.tar.xz" ] && { tar -xJf "$dir/baseline.tar.xz" || exit 1; }
    tar -C / --skip-old-files -xJf "$dir/debian.tar.xz" || exit 1
    alternatives_links
    ldconfig
    ;;
check)
    LIB=$ROOT/lib/libgpulapack.so
    OUT=${GL_CHECK_OUT:-$ROOT/build/check-gpu}
    PYTHON=${PYTHON:-python3}
    export ROOT LIB OUT PYTHON
    mkdir -p "$OUT"
    . testing/check_lib.sh
    [ $# -gt 0 ] || set -- ops own vectors spectra suite
    gpu_checks cuda "$@"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] ;;
lease)
    out=${1:?usage: $0 lease OUT [SECONDS]}
    end=$((SECONDS + ${2:-540}))
    left() { echo $((end - SECONDS)); }
    self=$ROOT/testing/gpu_machine.sh logs=build/lease sum=$out/summary.txt
    # bench_rows NAME CSV [VAR=VALUE...]: bench_gpu with those settings
    # for the time left, its output in $logs/NAME.txt, its CSV at CSV,
    # its table rows into the summary
    bench_rows() {
        local name=$1 csv=$2
        shift 2
        env "$@" BENCH_GPU_CSV="$csv" timeout "$(left)" "$self" bench >"$logs/$name.txt" 2>&1
        grep -E '^ +[0-9]+ ' "$logs/$name.txt" | cut -c1-140 >>"$sum"
    }
    mkdir -p "$out" && rm -rf "$logs" && mkdir -p "$logs"
    "$self" setup >"$logs/setup.log" 2>&1 || { cat "$logs/setup.log"; exit 1; }
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
        --format=csv >"$sum" 2>&1
    for part in ${GL_LEASE_PARTS:-checks chase incumbents table profile crossover hostthreads suite}; do
        t=$(left)
        [ "$t" -gt 20 ] || { echo "$part: no time left" >>"$sum"; continue; }
        echo "== $part (at $((${2:-540} - t)) s)" >>"$sum"
        case $part in
        checks)
            for c in ops own vectors spectra; do
                GL_CHECK_OUT=$logs/$c GPULAPACK_TEST_VECTORS_EVERY=${GPULAPACK_TEST_VECTORS_EVERY:-4} \
                    timeout $((t < ${GL_CHECK_SECONDS:-180} ? t : ${GL_CHECK_SECONDS:-180})) "$self" check $c >"$logs/check-$c.txt" 2>&1 &
            done
            wait
            for c in ops own vectors spectra; do
                echo "check $c: $(tail -n 1 "$logs/check-$c.txt")"
                grep '^FAIL' "$logs/check-$c.txt" | head -n 5
            done >>"$sum" ;;
        table)
            i=0
            for step in "4096 8192|all" \
                "16384|dsyevd_N,dgesdd_N,ssyevd_N,sgesdd_N,dsytrd,dgbbrd_b32,dsbtrd_b32" \
                "32768|dsyevd_N,dgesdd_N,dgbbrd_b32"; do
                i=$((i + 1))
                bench_rows table-$i "$logs/table-$i.csv" BENCH_GPU_SIZES="${step%|*}" \
                    BENCH_GPU_CASES="${step#*|}" BENCH_HOST_MAX_N=0
            done
            cat "$logs"/table-*.csv 2>/dev/null | awk 'NR == 1 || !/^n,/' >"$out/bench_gpu.csv" ;;
        before)
            # the chase in one launch and the multi-group panel leaves turned
            # off (per-wavefront launches, one-group panel leaves; see
            # docs/design/chase-local-memory.md and stage1-panel-leaves.md),
            # to compare with table
            bench_rows before "$logs/before.csv" GPULAPACK_CHASE_GROUPS=0 \
                GPULAPACK_PANEL_ROWS=1048576 BENCH_GPU_SIZES="8192 16384" BENCH_HOST_MAX_N=0 \
                BENCH_GPU_CASES=dsyevd_N,dgesdd_N,dgbbrd_b32,dsbtrd_b32
            # stage 3 of the SVD with vectors by the system ?bdsdc on the
            # host (kernels/stages/dc_*.c's device products off)
            bench_rows before-dc "$logs/before-dc.csv" GPULAPACK_DC_LEAF=1048576 \
                BENCH_GPU_SIZES=8192 BENCH_HOST_MAX_N=0 BENCH_GPU_CASES=dgesdd_S ;;
        profile)
            # where the time of each stage goes (GPULAPACK_PROFILE): the
            # demo's dgesdd S/N and dsyevd V/N at 8192 on cuda
            GPULAPACK_DEVICE=cuda GPULAPACK_MIN_N=0 GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 \
                GPULAPACK_LOG=$out/profile.txt LD_PRELOAD=$ROOT/lib/libgpulapack.so \
                DEMO_LAPACK=0 DEMO_CALLS=dgesdd,dsyevd timeout "$t" build/demo 8192 \
                >"$logs/profile-demo.txt" 2>&1
            grep -E '^(dgesdd|dsyevd) ' "$logs/profile-demo.txt" >>"$sum"
            awk -F'time=' '/ in all, / { print; next }
                / profile: stage=/ { if ($2 + 0 >= 0.05) print }' "$out/profile.txt" >>"$sum" ;;
        tuning)
            # our settings against the defaults of table, our path
            # alone: bands 128 and 32 for the values at 16384; for the
            # vectors at 8192 (band 32, a device's group of 32 sweeps)
            # the host's group of 16 and a group of 64; stage 1 single-
            # blocked (the order before) and in blocks of 1024 columns
            # against the default n/32; the panels' tall leaves over
            # work-groups of 1024 rows (fewer groups to wait for)
            i=0
            for setting in "GPULAPACK_BAND=128|16384|dsyevd_N,dgesdd_N" \
                "GPULAPACK_BAND=32|16384|dsyevd_N,dgesdd_N" \
                "GPULAPACK_GROUP=16|8192|dsyevd_V,dgesdd_S" \
                "GPULAPACK_GROUP=64|8192|dsyevd_V,dgesdd_S" \
                "GPULAPACK_STAGE1_BLOCK=1|8192 16384|dsyevd_N,dgesdd_N" \
                "GPULAPACK_STAGE1_BLOCK=1024|8192 16384|dsyevd_N,dgesdd_N" \
                "GPULAPACK_PANEL_ROWS=1024|8192|dsyevd_N,dgesdd_N"; do
                i=$((i + 1))
                rest=${setting#*|}
                echo "tuning: ${setting%%|*}" >>"$sum"
                bench_rows tuning-$i "$logs/tuning-$i.csv" "${setting%%|*}" BENCH_CUSOLVER=0 \
                    BENCH_HOST_MAX_N=0 BENCH_GPU_SIZES="${rest%|*}" BENCH_GPU_CASES="${rest#*|}"
            done ;;
        streamed)
            i=0
            for setting in "GPULAPACK_PLAN=in-core|49152|dsyevd_N,dgesdd_N" \
                "GPULAPACK_DEVICE_MEMORY_MB=8192|49152|dsyevd_N,dgesdd_N" \
                "GPULAPACK_DEVICE_MEMORY_MB=8192 GPULAPACK_OOC_QUEUES=1|49152|dsyevd_N" \
                "GPULAPACK_PLAN=streamed GPULAPACK_DEVICE_MEMORY_MB=1024|16384|dsyevd_V"; do
                i=$((i + 1))
                rest=${setting#*|}
                echo "streamed: ${setting%%|*}" >>"$sum"
                # shellcheck disable=SC2086
                bench_rows streamed-$i "$logs/streamed-$i.csv" ${setting%%|*} BENCH_CUSOLVER=0 \
                    BENCH_HOST_MAX_N=0 BENCH_GPU_SIZES="${rest%|*}" BENCH_GPU_CASES="${rest#*|}"
            done ;;
        crossover)
            for dev in cuda host; do
                bench_rows crossover-$dev "$out/crossover_$dev.csv" BENCH_DEVICE=$dev \
                    BENCH_GPU_SIZES="1024 2048 4096" BENCH_HOST_MAX_N=4096 \
                    BENCH_GPU_CASES=dsyevd_N,dsyevd_V,dgesdd_N,dgesdd_S
            done ;;
        hostthreads)
            for th in 2 4 8 16; do
                [ "$th" -le "$(nproc)" ] || continue
                for products in own fused; do
                    bench_rows hostthreads-$th-$products "$logs/hostthreads-$th-$products.csv" \
                        BENCH_DEVICE=host BENCH_CUSOLVER=0 BENCH_HOST_MAX_N=4096 \
                        BENCH_GPU_SIZES=4096 BENCH_GPU_CASES=dsyevd_N,dgesdd_N \
                        OPENBLAS_NUM_THREADS=$th GPULAPACK_HOST_THREADS=$th \
                        GPULAPACK_HOST_PRODUCTS=$products
                done
            done
            cat "$logs"/hostthreads-*.csv >"$out/hostthreads.csv" 2>/dev/null ;;
        suite)
            GL_SUITE_INPUTS=${GL_SUITE_INPUTS:-svd,sep,se2,sb,bb,sg,gd} GL_CHECK_OUT=$logs/suite \
                timeout "$t" "$self" check suite >"$logs/check-suite.txt" 2>&1
            echo "suite: $(tail -n 1 "$logs/check-suite.txt")" >>"$sum"
            grep '^FAIL' "$logs/check-suite.txt" | head -n 5 >>"$sum" ;;
        vectors)
            # the calls with vectors against cuSOLVER + copies
            bench_rows vectors-8192 "$out/vectors.csv" BENCH_GPU_SIZES=8192 \
                BENCH_HOST_MAX_N=0 BENCH_GPU_CASES=dsyevd_V,dgesdd_S,ssyevd_V
            bench_rows vectors-complex "$logs/vectors-complex.csv" BENCH_GPU_SIZES=8192 \
                BENCH_HOST_MAX_N=0 BENCH_GPU_CASES=zheevd_V
            bench_rows vectors-16384 "$logs/vectors-16384.csv" BENCH_GPU_SIZES=16384 \
                BENCH_HOST_MAX_N=0 BENCH_GPU_CASES=dsyevd_V
            # ?syevr subsets (n/2 and n/8 vectors) against cusolverDnXsyevdx
            bench_rows vectors-subset "$logs/vectors-subset.csv" BENCH_GPU_SIZES=8192 \
                BENCH_HOST_MAX_N=0 BENCH_GPU_CASES=dsyevr_I2,dsyevr_I8 ;;
        stage3)
            i=0
            for setting in GPULAPACK_DC_LEAF=256 GPULAPACK_DC_LEAF=128 GPULAPACK_BAND=32; do
                i=$((i + 1))
                echo "stage3: $setting" >>"$sum"
                bench_rows stage3-$i "$logs/stage3-$i.csv" "$setting" BENCH_CUSOLVER=0 \
                    BENCH_HOST_MAX_N=0 BENCH_GPU_SIZES=8192 BENCH_GPU_CASES=dsyevd_V,dgesdd_S
            done ;;
        values)
            bench_rows values "$out/values.csv" BENCH_GPU_SIZES="4096 8192 16384" \
                BENCH_HOST_MAX_N=0 BENCH_GPU_CASES=dsyevd_N,dgesdd_N,dsytrd ;;
        chase)
            # the chase's kernels side by side, alone (dsbtrd and dgbbrd
            # VECT=N: band to tridiagonal and to bidiagonal, bands 32 and
            # 64) and in dsyevd N: the tasks kernel, then the window
            # kernels with work-groups of 64, 128 and 256 (bands wider
            # than the window take the tasks kernel)
            for v in tasks:64 window:64 window:128 window:256; do
                echo "-- GPULAPACK_CHASE=${v%:*} GPULAPACK_GROUP_THREADS=${v#*:}" >>"$sum"
                bench_rows "chase-${v%:*}-${v#*:}" "$logs/chase-${v%:*}-${v#*:}.csv" \
                    GPULAPACK_CHASE="${v%:*}" GPULAPACK_GROUP_THREADS="${v#*:}" BENCH_CUSOLVER=0 \
                    BENCH_GPU_SIZES="${GL_CHASE_SIZES:-8192 32768}" BENCH_HOST_MAX_N=0 \
                    BENCH_GPU_CASES=dsbtrd_b32,dsbtrd_b64,dgbbrd_b32,dgbbrd_b64,dsyevd_N
            done ;;
        incumbents)
            bench_rows incumbents "$out/incumbents.csv" BENCH_GPU_SIZES="4096 8192 16384" \
                BENCH_HOST_MAX_N=0 BENCH_GPU_CASES=dsyevd_N,dsyevd_V,dgesdd_N,dgesdd_S,incumbents ;;
        baseline)
            # the same vector calls with the library of GL_BASELINE_LIB (a
            # directory with an earlier libgpulapack.so, carried as
            # baseline.tar.xz by pack), our path alone, on this machine
            [ -e "${GL_BASELINE_LIB:-$ROOT/baseline/lib}/libgpulapack.so" ] || {
                echo "baseline: no baseline library" >>"$sum"; continue; }
            bench_rows baseline "$out/baseline.csv" \
                GL_BENCH_LIB="${GL_BASELINE_LIB:-$ROOT/baseline/lib}" BENCH_CUSOLVER=0 \
                BENCH_GPU_SIZES=8192 BENCH_HOST_MAX_N=0 BENCH_GPU_CASES=dsyevd_V,dgesdd_S ;;
        auto)
            # the GPU by default: this machine's crossovers measured by
            # gpulapack-tune, then the demo under plain LD_PRELOAD (no
            # variable but the log) at 4096
            OPENBLAS_NUM_THREADS=$(nproc) timeout $((t < 200 ? t - 20 : 180)) bin/gpulapack-tune \
                --families syevd,gesdd --jobs N,V --precisions d --max-n 4096 \
                --time-limit 150 -o "$out/tune.txt" 2>"$logs/tune-progress.txt"
            { echo "tune file:"; cat "$out/tune.txt"; } >>"$sum" 2>&1
            env -u GPULAPACK_TUNE_FILE HOME=$logs/home GPULAPACK_VERBOSE=1 \
                LD_PRELOAD=$ROOT/lib/libgpulapack.so DEMO_LAPACK=0 DEMO_CALLS=dgesdd,dsyevd \
                timeout 60 build/demo 4096 \
                >"$logs/auto-demo.txt" 2>&1
            grep -E '^gpulapack:' "$logs/auto-demo.txt" | cut -c1-160 >>"$sum" ;;
        *)
            echo "$part: unknown part" >>"$sum" ;;
        esac
    done
    tar -czf "$out/logs.tgz" "$logs" build/lapack_suite 2>/dev/null
    cat "$sum" ;;
bench)
    cudalib=$(cuda_lib_dir)
    export LD_LIBRARY_PATH=${GL_BENCH_LIB:-$ROOT/lib}${cudalib:+:$cudalib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    exec build/bench/bench_gpu ;;
*)
    echo "usage: $0 pack [DIR] | setup [DIR] | check [part...] | bench | lease OUT [SECONDS]" >&2
    exit 2 ;;
esac
