#!/bin/bash
# Runs the tests of `make check` and ends with the line "N passed, N failed".
#
#   testing/run_checks.sh [--full] [LEVEL...]   (default: all, every level)
#
# --full (or CHECK_FULL=1; `make check-full`): the complete set.  By
# default the runs that repeat another run's code under one setting run a
# subset that reaches that setting's code (docs/testing.md, "What only
# the full run adds"): LAPACK's inputs in parameter sets 1 and last
# (run_suite.py --sets) in the suite's OpenCL, one-stage and streamed
# runs, set 1 in its lean and SVD-streamed runs and on the stand-in CUDA
# driver; the runs of the vectors (and of the divide and conquer's
# leaves) under one setting in d and z; every 16th size/type pair of the
# vectors on the stand-in CUDA driver and of the streamed plan's runs on
# the copy lanes and in order; the default crossovers' clients that
# reach a crossover (scipy, Octave).
#
# Levels (docs/testing.md; `make check-LEVEL` builds what one needs, then
# runs it):
#   unit      the library's internals and shape (testing/unit/), the source
#             checks (thread-locals, function length, paths,
#             docs/performance.md)
#   own       the drop-in contract tests (testing/own/), as users get them,
#             with the host path forced and on the OpenCL device; the demo
#             and the profile
#   clients   numpy, scipy, Octave, R, the Python entry point, pip's wheels,
#             ILP64 C callers
#   suite     LAPACK's own EIG testing suite (reference LAPACK, OpenBLAS,
#             the host path forced, the OpenCL device)
#   standin   the CUDA and HIP paths over the stand-in drivers that compute
#             (testing/standin/): device operations, vectors, methods, two
#             devices, faults, LAPACK's suite, the memory plans on lanes
#   sanitize  the library built with ASan/UBSan under LAPACK's tests
#   scalapack the ScaLAPACK interposer under Open MPI (testing/scalapack/)
# On a machine with a CUDA or HIP device each level also runs its part of
# that device's checks (check_lib.sh's gpu_checks: unit ops, own
# own/vectors/spectra, clients clients, suite suite).
#
# Each test prints "PASS <name>" / "FAIL <name>: <why>" lines; a test that
# exits non-zero, times out or prints no verdict counts as one more failure.
# Output of every test is kept under build/check/, each test's seconds in
# build/check/times.txt (emptied when every level
# runs).
cd "$(dirname "$0")/.."
ROOT=$PWD
LIB=$ROOT/lib/libgpulapack.so
OUT=$ROOT/build/check
ALL_LEVELS="unit own clients suite standin sanitize scalapack"
if [ "${1:-}" = --full ]; then
    CHECK_FULL=1
    shift
fi
CHECK_FULL=${CHECK_FULL:-0}
[ "$CHECK_FULL" = 0 ] || CHECK_FULL=1
levels=${*:-all}
[ "$levels" = all ] && levels=$ALL_LEVELS
for level in $levels; do
    case " $ALL_LEVELS " in
    *" $level "*) ;;
    *) echo "usage: $0 [--full] [all | LEVEL...], LEVEL one of: $ALL_LEVELS" >&2
        exit 2 ;;
    esac
done
[ "$levels" = "$ALL_LEVELS" ] && rm -rf "$OUT"
mkdir -p "$OUT"
# Python with Debian's numpy/scipy (not whatever python3 is first on PATH).
PYTHON=/usr/bin/python3
# Shell-function tests run under timeout through `bash -c`.
export ROOT LIB OUT
# PoCL (the OpenCL device of the opencl tests) keeps its compiled kernels
# here, so that each kernel is compiled once per machine, not per process.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$ROOT/build/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"

. testing/check_lib.sh  # run, device_own, gpu_checks

# The default run's subsets (none with --full): LAPACK's parameter sets
# 1 and last of an input, or set 1 (each set repeats every size, type and
# option with the next random matrices and other block sizes of LAPACK's
# own routines; the reference and host runs keep all of them), the
# precisions of the runs under one setting (d and z: s and c differ in
# their element type alone, and run in the setting-free runs), and the
# size/type pairs of the vectors' runs that move another run's pairs'
# data another way.
if [ "$CHECK_FULL" = 1 ]; then
    echo "# full run (--full / CHECK_FULL=1): every configuration complete"
    suite_sets=()
    one_set=()
    variant_precs=sdcz
    cuda_pairs=(GPULAPACK_TEST_VECTORS_EVERY=8)
    lanes_pairs=(GPULAPACK_TEST_VECTORS_EVERY=8)
    in_order_pairs=(GPULAPACK_TEST_VECTORS_EVERY=8)
else
    # arithmetic of its own (the device's kernels; the one-stage
    # reduction; the streamed plan's band-to-band reduction): two sets,
    # two draws of every size, type and option
    suite_sets=(--sets 1,last)
    # where a run adds only where the data lives and how it moves (the
    # CUDA runtime's launches, copies, streams and events; the lean
    # plan's and the SVD's streamed values' blocks and tiles) over the
    # arithmetic that lapack-suite-opencl runs in sets 1 and last: one set
    one_set=(--sets 1)
    variant_precs=dz
    # the vectors on the stand-in CUDA driver: the pairs, kernels and
    # settings of own-opencl/test_vectors (every 8th pair, all four
    # precisions) through the CUDA runtime; every 16th pair, the 8th of
    # each 16 (HIP's run, the same runtime source, takes the 0th: the two
    # together every 8th)
    cuda_pairs=(GPULAPACK_TEST_VECTORS_EVERY=16 GPULAPACK_TEST_VECTORS_OFFSET=8)
    # the streamed plan's vectors on the copy lanes and in order on the
    # call's queue: one arithmetic, its copies moved two ways; every 16th
    # pair each, the lanes the 0th and in order the 8th of each 16 (the
    # two together every 8th)
    lanes_pairs=(GPULAPACK_TEST_VECTORS_EVERY=16)
    in_order_pairs=(GPULAPACK_TEST_VECTORS_EVERY=16 GPULAPACK_TEST_VECTORS_OFFSET=8)
fi

# The CUDA/HIP devices of this machine (none on CI; the GPU machine of
# docs/performance.md): each level runs its part of their checks (every
# call of an exported routine on that path).
gpu_kinds=$(bin/gpulapack-info 2>/dev/null | grep -oE '^  (cuda|hip):[0-9]+' |
    sed 's/^ *//; s/:.*//' | sort -u)
gpu_parts() {
    local kind
    for kind in $gpu_kinds; do gpu_checks "$kind" "$@"; done
}

# 1. Unit tests: the library's internals and shape.
level_unit() {
run unit/library 60 testing/unit/check_library.sh
# lapack_api/generated/ and tools/tune_families.inc are what the routines'
# table (tools/routines.py) writes
run unit/generated 60 testing/unit/check_generated.sh
# the layers point one way (lapack_api -> kernels -> runtime), every header
# compiles on its own
run unit/layers 300 testing/unit/check_layers.sh
# the CUDA/HIP kernel images hold every kernel for every target
run unit/gpu-images 120 testing/unit/check_gpu_images.sh
# the automatic device choice over stand-in drivers: a HIP whose second
# initialization aborts (listing, C API, auto with and without a CUDA
# device), crossovers from the built-in table and from tune files, and
# bin/gpulapack-tune's files (the HIP abort seen on the H200 machine,
# docs/architecture.md, "Build")
run unit/auto 300 testing/unit/check_auto.sh
# the ?syev family's method per size and job from a tune file (PoCL)
run unit/methods 300 testing/unit/check_methods.sh
# every matrix crosses the bus once: the bytes each way of the calls with
# vectors on the OpenCL device against their input and output arrays (n =
# 512, band 64 and 32; about a minute on 2 cores)
run unit/bus-bytes 600 testing/unit/check_bus_bytes.sh
# device memory plans: the plan of each routine and job within 10% of the
# ledger's high-water mark on PoCL (n = 384), the call under a cap at its
# plan, LAPACK under a cap below it, and the stand-in CUDA driver's free
# memory under auto
run unit/memory-plan 600 testing/unit/check_memory_plan.sh
# the streamed plan of the ?syev family's values and vectors: n = 512
# under 0.5 MiB on PoCL, its peak, values, bus bytes against the tile
# model, failed copies; the lean plan; under a minute on 2 cores
run unit/streamed 600 testing/unit/check_streamed.sh
# the streamed plan of the SVD's values and vectors: n = 512 (and 768 x
# 512, 512 x 768, 832 x 512) under 0.5-1 MiB on PoCL, its peak against its
# plan, values, bus bytes against the panels' model, failed copies, a
# refused allocation in core; about a minute on 2 cores
run unit/svd-streamed 600 testing/unit/check_svd_streamed.sh
# the lean plan of the SVD's vectors: dgesdd S, zgesdd S (512 x 512) and
# a wide dgesvd S (512 x 640) on PoCL under a cap between the lean and
# in-core plans: plan=lean, its peak equal to the plan, values as in
# core, LAPACK's ratios, bus bytes against the blocks' model, a failed
# copy in stage 1 and in the back-transformation; a tall S and an O;
# under a minute on 2 cores
run unit/svd-lean 600 testing/unit/check_svd_lean.sh
# several devices in one call: PoCL as two and three devices, the
# back-transformation's columns shared (devices=N, each one's bytes)
run unit/devices 300 testing/unit/check_devices.sh
# make install / uninstall into a scratch DESTDIR (PREFIX=/usr): the files,
# pkg-config, a C program built against the installed copy
run unit/install 120 testing/unit/check_install.sh
# device launches and host synchronizations of dsyevd N and dgesdd N at
# n = 2048 on PoCL, each below 3000 (stage 1 was launch-bound), and
# dsytrd's reads from the device at n = 512 (at most 4); about 1.5
# minutes on 2 cores
run unit/launches 600 testing/unit/check_launches.sh
# the window chases' global-memory traffic per step, counted by the
# kernels into the profile (dsyevd N, zheevd N, dgesdd N, zgesdd N at
# n = 384, band 16, on PoCL): each way within 2x of the window a step
# updates, one launch per chase
run unit/chase-traffic 300 testing/unit/check_chase_traffic.sh
# Unit-test templates (the Makefile's UNIT_TEMPLATES) run as their four
# per-precision binaries.
for src in testing/unit/test_*.c; do
    t=$(basename "$src" .c)
    case $t in
    test_stages | test_tile_gemm)
        for p in s d c z; do run "unit/${t}_$p" 300 "build/testing/${t}_$p"; done ;;
    # execution contexts: two calls at once from two threads, on two
    # OpenCL devices and on one (PoCL's two pthread devices)
    test_contexts)
        for p in s d c z; do
            run "unit/${t}_$p" 600 env POCL_DEVICES="pthread pthread" "build/testing/${t}_$p"
        done ;;
    # every operation of the OpenCL backend against the host backend, on
    # the OpenCL device (PoCL on a machine without GPU)
    test_device_ops)
        for p in s d c z; do
            run "unit/${t}_$p" 600 env GPULAPACK_DEVICE=opencl "build/testing/${t}_$p"
        done
        # the divide and conquer (SVD and eigenproblem, host and device
        # resident) merging from leaves of 4 and of 32 rows besides the 8
        # above: graded, clustered and glued inputs among the others; d
        # and z (all four with --full: s and c differ in their element
        # type alone, and merge from 8 rows above)
        for p in ${variant_precs//?/& }; do
            for leaf in 4 32; do
                run "unit/${t}_$p-dc-leaf$leaf" 300 env GPULAPACK_DEVICE=opencl GPULAPACK_DC_LEAF=$leaf \
                    TEST_DEVICE_OPS_ONLY=bidiag_svd,tridiag_eig "build/testing/${t}_$p"
            done
        done
        # the panels' multi-group tall leaves and the chase in one launch
        # (CUDA's and HIP's defaults): level standin runs them there
        # the chases alone (TEST_DEVICE_OPS_ONLY=chases) with their other
        # kernels and work-group counts: the tasks kernel in one launch
        # (d: one kernel text, the other precisions differ in the element
        # type alone; each precision compiles its one-launch kernels here,
        # 2-2.5 minutes on PoCL); the window kernels (the default above)
        # with one work-group running every sweep, and with more
        # work-groups than sweeps of the widest work-group the kernels take
        for p in d; do
            run "unit/${t}_$p-chase-tasks" 600 env GPULAPACK_DEVICE=opencl TEST_DEVICE_OPS_ONLY=chases \
                GPULAPACK_CHASE=tasks GPULAPACK_CHASE_GROUPS=4 "build/testing/${t}_$p"
        done
        for p in d z; do
            run "unit/${t}_$p-chase-one-group" 300 env GPULAPACK_DEVICE=opencl TEST_DEVICE_OPS_ONLY=chases \
                GPULAPACK_CHASE_GROUPS=1 "build/testing/${t}_$p"
        done
        # 200 waiting work-groups take minutes on 2 cores: complex double
        # only (the narrowest windows; the real kernels are the same text)
        run "unit/${t}_z-chase-many-groups" 600 env GPULAPACK_DEVICE=opencl TEST_DEVICE_OPS_ONLY=chases \
            GPULAPACK_CHASE_GROUPS=200 GPULAPACK_GROUP_THREADS=256 "build/testing/${t}_z"
        # plain GEMMs through CLBlast (taken by default on GPUs only):
        # every group but the bisection and the secular equations, which
        # multiply nothing (their kernels run above)
        for p in d z; do
            run "unit/${t}_$p-clblast" 600 env GPULAPACK_DEVICE=opencl \
                TEST_DEVICE_OPS_ONLY=copies,pack_band,panels,blas3,chases,pipelines,bidiag_svd,tridiag_eig \
                GPULAPACK_CLBLAST=1 GPULAPACK_VERBOSE=2 "build/testing/${t}_$p"
        done ;;
    # every device failure of a call restarts it on LAPACK (with the
    # panels' multi-group leaves and the one-launch chase, and its waits,
    # on the stand-in CUDA driver: level standin)
    test_fault)
        run "unit/$t" 300 "build/testing/$t"
        # and inside the one-stage method of the ?syev family
        run "unit/$t-one-stage" 300 env GPULAPACK_METHOD=one-stage "build/testing/$t"
        # and inside the streamed plans of the values (band 4, tiles of 8:
        # several panels and tiles at the test's sizes)
        run "unit/$t-streamed-values" 300 env GPULAPACK_PLAN=streamed GPULAPACK_OOC_BAND=4 \
            GPULAPACK_OOC_TILE=8 TEST_FAULT_ONLY=values "build/testing/$t"
        # and inside the SVD's streamed and lean vectors, written over A
        # (square and wide; band 8, tiles and blocks of 16 columns: 4
        # panels, 3 tile columns, 3 blocks a side, 5 segments of the
        # chase at 45 x 37, the streamed chase parked a group of sweeps
        # per segment: without a cap its stores would stay on the device,
        # as the lean plan's), 10-20 s each (band 4 and blocks of 8: 1.5-3
        # minutes, for 2-4 times as many of the same events)
        run "unit/$t-streamed-vectors" 600 env GPULAPACK_PLAN=streamed GPULAPACK_OOC_BAND=8 \
            GPULAPACK_OOC_TILE=16 GPULAPACK_OOC_SEGMENT=4 TEST_FAULT_ONLY=dgesdd-O "build/testing/$t"
        run "unit/$t-lean-vectors" 600 env GPULAPACK_PLAN=lean GPULAPACK_BAND=8 \
            GPULAPACK_OOC_TILE=16 TEST_FAULT_ONLY=dgesdd-O "build/testing/$t" ;;
    # the CUDA/HIP runtimes over stand-in drivers (built with the backends)
    test_gpu_runtime)
        for api in cuda hip; do
            [ -x "build/testing/${t}_$api" ] &&
                run "unit/${t}_$api" 300 env LD_LIBRARY_PATH="$ROOT/build/testing/mock-$api" \
                    "build/testing/${t}_$api"
        done ;;
    # the vendor's eigensolver as a method (kernels/pipelines/eig_vendor.c)
    # over the stand-in drivers and stand-in cuSOLVER/rocSOLVER, per precision;
    # each binary runs itself again with a decoy solver library
    test_vendor_solver)
        for api in cuda hip; do
            solver=cusolver
            [ "$api" = hip ] && solver=rocsolver
            for p in s d c z; do
                [ -x "build/testing/${t}_${api}_$p" ] &&
                    run "unit/${t}_${api}_$p" 300 env \
                        LD_LIBRARY_PATH="$ROOT/build/testing/mock-$api:$ROOT/build/testing/mock-$solver" \
                        "build/testing/${t}_${api}_$p"
            done
        done ;;
    *) run "unit/$t" 300 "build/testing/$t" ;;
    esac
done
# The sources: no thread-local state but the allowed (the forwarding
# guard, the last-timing record, documented per-thread caches); no library
# function over 120 lines; every file and folder the comments, docs and
# scripts name is in the tree; docs/performance.md's tables as `make
# perf-doc` writes them.
run unit/thread-locals 60 testing/unit/check_thread_locals.sh
run unit/function-length 60 testing/unit/check_function_length.sh
run unit/paths 60 testing/unit/check_paths.sh
perf_doc_check() {
    if [ -f testing/unit/check_perf_doc.sh ]; then
        bash testing/unit/check_perf_doc.sh
    else
        echo "FAIL unit/perf-doc: testing/unit/check_perf_doc.sh is missing"
    fi
}
export -f perf_doc_check
run unit/perf-doc 120 bash -c perf_doc_check
#    On each CUDA/HIP device: every operation against the host backend.
gpu_parts ops
}

# 2. Own tests of the drop-in contract: preloaded, or linked before -llapack.
level_own() {
for src in testing/own/test_*.c; do
    [ -e "$src" ] || continue
    t=$(basename "$src" .c)
    case $t in
    test_link_*) run "own/$t" 300 "build/testing/$t" ;;
    # its settings and paths come from testing/own/check_lwork_limit.sh
    # (own/lwork-limit below)
    test_lwork_limit) ;;
    # n = 1024 in four precisions and 2048: 1.5-2.5 minutes on 2 cores;
    # every values-only call must take the host path
    test_spectra) run "own/$t" 600 env LD_PRELOAD="$LIB" GPULAPACK_TEST_EXPECT_PATH=host "build/testing/$t" ;;
    # stage 1 holds OpenBLAS at one thread: the program's count comes back,
    # from 1 and 4 callers at once (about 10 s)
    test_blas_threads) run "own/$t" 300 env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=host \
        GPULAPACK_MIN_N=0 GPULAPACK_TEST_COMPARE=ratio "build/testing/$t" ;;
    # singular vectors and eigenvectors by LAPACK's ratios, sizes around the
    # tile sizes, every call on the host path; then again with small bands
    # (the library reads GPULAPACK_BAND once per process: one run each),
    # every 4th size/type pair; stage 1 double-blocked; and ?sytrd by its
    # second method; about 1.5-2 minutes + 3 x 20 s + 5 s on 2 cores.  The
    # settings' runs in d and z (all four with --full): s and c differ in
    # their element type alone, and run at the default band above.
    test_vectors)
        run "own/$t" 600 env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 \
            GPULAPACK_TEST_EXPECT_PATH=host "build/testing/$t"
        for band in 4 8; do
            run "own/$t-band$band" 600 env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=host \
                GPULAPACK_MIN_N=0 GPULAPACK_TEST_EXPECT_PATH=host GPULAPACK_BAND=$band \
                GPULAPACK_TEST_VECTORS_EVERY=4 GPULAPACK_TEST_VECTORS_PRECS=$variant_precs "build/testing/$t"
        done
        # stage 1 double-blocked (a device's default) through the host's
        # operations: the rest of the matrix updated every 3 panels of 8
        run "own/$t-stage1-block" 600 env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=host \
            GPULAPACK_MIN_N=0 GPULAPACK_TEST_EXPECT_PATH=host GPULAPACK_BAND=8 \
            GPULAPACK_STAGE1_BLOCK=24 GPULAPACK_TEST_VECTORS_EVERY=4 \
            GPULAPACK_TEST_VECTORS_PRECS=$variant_precs "build/testing/$t"
        # ?sytrd's other method: two stages, Q re-factored
        # (kernels/pipelines/sytrd.c)
        run "own/$t-sytrd-two-stage" 300 env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=host \
            GPULAPACK_MIN_N=0 GPULAPACK_TEST_EXPECT_PATH=host GPULAPACK_SYTRD_STAGES=2 \
            GPULAPACK_TEST_VECTORS_ROUTINES=sytrd "build/testing/$t" ;;
    *) run "own/$t" 300 env LD_PRELOAD="$LIB" "build/testing/$t" ;;
    esac
done

#    The contract tests again with our host path forced for every size,
#    compared with LAPACK's test ratios instead of bit for bit.
for t in test_options test_lwork test_args test_threads; do
    run "own-host/$t" 600 env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=host \
        GPULAPACK_MIN_N=0 GPULAPACK_TEST_COMPARE=ratio "build/testing/$t"
done

#    Workspace minimums past what an LP64 caller can pass (docs/large.md),
#    GPULAPACK_LWORK_LIMIT lowered: our path's small answers (host; OpenCL
#    with a launch fault, restarted on the host), the true minimum and
#    LAPACK's INFO where the call is forwarded, gpulapack-info's rule at
#    docs/large.md's sizes, numpy's eigh and scipy's own queries.
run own/lwork-limit 300 testing/own/check_lwork_limit.sh

#    And on the OpenCL device for every size (PoCL without a GPU): the
#    contract tests by LAPACK's ratios; 8 threads at once on one device
#    (every call logged on path=opencl, none restarted on LAPACK); the
#    vectors of every routine (every 8th size/type pair, all on opencl,
#    the panels' leaves over work-groups of 8 rows, the chase in one
#    launch, stage 3 of the SVD by divide and conquer with the merges'
#    products on the device from 8 rows, stage 1 double-blocked in blocks
#    of 64 columns).
for t in test_options test_lwork test_args test_threads; do
    run "own-opencl/$t" 600 bash -c "device_own opencl $t"
done
run own-opencl/test_vectors 600 env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=opencl \
    GPULAPACK_MIN_N=0 GPULAPACK_TEST_EXPECT_PATH=opencl GPULAPACK_PANEL_ROWS=8 GPULAPACK_PANEL_GROUPS=4 GPULAPACK_CHASE_GROUPS=4 \
    GPULAPACK_DC_LEAF=8 GPULAPACK_STAGE1_BLOCK=64 \
    GPULAPACK_TEST_VECTORS_EVERY=8 build/testing/test_vectors
#    (The one-stage method and several devices: level standin, on the
#    stand-in CUDA driver.)

# 3. The demo runs, and its calls go through the library: each call's
#    table line shows the path its log line gave, INFO = 0, the system
#    LAPACK's time and a check that passed (the demo prints FAILED and
#    exits 1 otherwise); again without n (each call at the size from
#    which the library takes its path here, up to 1200), every call of a
#    finite crossover on our path.
demo_check() {
    local log r line path rc
    log=$(GPULAPACK_VERBOSE=1 LD_PRELOAD="$LIB" build/demo 300 2>&1)
    rc=$?
    echo "$log"
    for r in dgesdd dsyevd zheevd; do
        path=$(grep -m1 "^gpulapack: $r " <<<"$log" | grep -oE ' path=[a-z]+' | cut -d= -f2)
        if [ $rc -eq 0 ] && [ -n "$path" ] &&
            [ "$(grep -c "^$r JOBZ=[A-Z] *300  $path .* info=0 .* = [0-9.]*\( \|$\)" <<<"$log")" = 2 ] &&
            ! grep -q "^$r .*FAILED" <<<"$log"; then
            echo "PASS demo/$r (path=$path)"
        else
            echo "FAIL demo/$r: no log line, no table line with its path or a failed check (exit $rc)"
        fi
    done
    log=$(GPULAPACK_VERBOSE=1 DEMO_MAX_N=1200 LD_PRELOAD="$LIB" build/demo 2>&1)
    rc=$?
    echo "$log"
    # a call whose crossover is within reach runs at it, on our path
    line=$(grep -E '^(dgesdd|dsyevd|zheevd) JOBZ=' <<<"$log" |
        awk '$4 == "lapack" && $0 !~ /reason=size host never|above DEMO_MAX_N/')
    if [ $rc -eq 0 ] && [ "$(grep -cE '^(dgesdd|dsyevd|zheevd) JOBZ=' <<<"$log")" = 6 ] &&
        [ -z "$line" ] && grep -qE '^[a-z]+ JOBZ=.* (host|opencl|cuda|hip) ' <<<"$log"; then
        echo "PASS demo/crossovers"
    else
        echo "FAIL demo/crossovers: a call within reach of its crossover forwarded, or no call on our path (exit $rc): $line"
    fi
}
export -f demo_check
run demo 300 bash -c demo_check

#    GPULAPACK_PROFILE on the OpenCL device: the demo's calls still give
#    their results, each logs its profile (device operations and host
#    sections in every stage, the rows' time within the call's), and
#    nothing is logged without it.
profile_check() {
    local log r ok
    log=$(GPULAPACK_PROFILE=1 GPULAPACK_VERBOSE=1 GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 \
        GPULAPACK_DC_LEAF=64 DEMO_CALLS=dgesdd,dsyevd LD_PRELOAD="$LIB" build/demo 300 2>&1)
    echo "$log"
    for r in dgesdd dsyevd; do
        ok=1
        grep -q "^$r JOBZ=V.*info=0\|^$r JOBZ=S.*info=0" <<<"$log" || ok=0
        for row in 'stage1 op="gl_gemm"' 'stage2 op="gl_[gs]b_chase' 'stage3 op="gl_gemm"' \
            'stage3 op="gl_dc_secular_roots"' 'back op="gl_gemm"' 'back op="gl_wy_build"'; do
            grep -q "^gpulapack: $r profile: stage=$row" <<<"$log" || ok=0
        done
        # "T s in all, S s in the N rows": S <= T
        awk -v r="$r" '$2 == r && $4 ~ /s$/ && $7 ~ /s$/ {
                if ($7 + 0 > $4 + 0) bad = 1; seen = 1 }
            END { exit !(seen && !bad) }' <<<"$log" || ok=0
        [ $ok = 1 ] && echo "PASS profile/$r" || echo "FAIL profile/$r: rows or results missing"
    done
    log=$(GPULAPACK_VERBOSE=1 GPULAPACK_DEVICE=opencl GPULAPACK_MIN_N=0 DEMO_CALLS=dgesdd,dsyevd \
        LD_PRELOAD="$LIB" build/demo 300 2>&1)
    grep -q " profile: " <<<"$log" && echo "FAIL profile/off: logged without GPULAPACK_PROFILE" ||
        echo "PASS profile/off"
}
export -f profile_check
run profile 300 bash -c profile_check
#    On each CUDA/HIP device: the contract tests, the vectors of every
#    routine, the known spectra.
gpu_parts own vectors spectra
}

# 4. Real clients (numpy, scipy, Octave, R): with every call forwarded
#    (a crossover out of reach), bit for bit the same results; with the
#    default crossovers (some calls with vectors, e.g. Octave's and
#    scipy's ?gesvd of a few hundred rows, take the host path), the same
#    results to LAPACK's accuracy.  The clients' runs without the library
#    are those of the first run (--keep-ref, --ref-from: they depend on
#    neither the library nor its settings), deleted at the end of the
#    level.
#    numpy's and R's calls are all under the default crossovers (the
#    paths in build/check/clients-default/<client>.paths of a --full
#    run): forwarded, as in the first run, which compares them bit for
#    bit (and clients-host their results on our path); the default run
#    leaves them to --full.
level_clients() {
local ref="$OUT/clients" only=
[ "$CHECK_FULL" = 1 ] || only="--only scipy,octave"
run clients 1200 env GPULAPACK_MIN_N=2147483647 testing/clients/run_clients.sh --keep-ref \
    --out "$ref" "$LIB"
# shellcheck disable=SC2086  # $only: two words or none
run clients-default 1200 testing/clients/run_clients.sh --compare accuracy $only \
    --ref-from "$ref" --out "$OUT/clients-default" "$LIB"
#    Again with our host path forced for every size: the same results to
#    LAPACK's accuracy (SVD and eigen calls of numpy, scipy, Octave and R,
#    values and vectors; the calls per path are listed in
#    build/check/clients-host/<client>.paths), and every call of an
#    exported routine on path=host (sizes < 2 are LAPACK's by design).
run clients-host 1200 env GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 \
    testing/clients/run_clients.sh --compare accuracy --expect-path host \
    --ref-from "$ref" --out "$OUT/clients-host" "$LIB"
rm -f "$ref"/*.nolib.*
#    The Python entry point without LD_PRELOAD: `import gpulapack` (by
#    path) before numpy, its C API against gpulapack-info, Debian's numpy's
#    and scipy's eigh/svd on path=host with the host path forced.
run python-entry 300 testing/clients/check_python_entry.sh "$LIB"
#    pip's numpy and scipy (a virtual environment in build/wheels-venv,
#    wheels from PyPI: fails when the index cannot be reached), whose own
#    OpenBLAS has the scipy_ names (numpy's ILP64, scipy_dsyevd_64_;
#    scipy's LP64, scipy_dsyevd_): preloaded and through import gpulapack,
#    the host path forced, every call on path=host with LAPACK's ratios and
#    the values of the run without the library; again with numpy's
#    OpenBLAS as the only LAPACK of our own path (GPULAPACK_LAPACK).
run wheels 900 testing/clients/check_wheels.sh "$LIB"
#    ILP64 C callers on our host path: dsyevd_64_, dgesdd_64_, zheevd_64_
#    over a shim on libopenblas64, and the plain names over Debian's
#    liblapack64 (64-bit INTEGERs, read as such).
run ilp64 300 testing/clients/check_ilp64.sh "$LIB"
#    On each CUDA/HIP device: the real clients.
gpu_parts clients
}

# 5. LAPACK's own testing suite, every EIG input, four precisions, over the
#    reference LAPACK and OpenBLAS, with the library preloaded.
level_suite() {
run lapack-suite 3600 "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB"
#    Again with our host path forced for every size: no failure beyond the
#    system LAPACK's own, and every call of an exported routine on path=host.
run lapack-suite-host 3600 "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB" --tag host \
    --env GPULAPACK_DEVICE=host --env GPULAPACK_MIN_N=0 --expect-path host

#    On the OpenCL device (PoCL): the inputs of our routines in all four
#    precisions over the reference LAPACK, every call of an exported
#    routine on path=opencl; parameter sets 1 and last: every size, type
#    and option twice, on other random matrices (svd, 7,420 calls a set,
#    is 86% of the run: 218 s whole, 91 s so, on 2 busy cores); all five
#    with --full: the other sets change only the block sizes of LAPACK's
#    own routines, whose host code the reference and host runs above run
#    in all five.
run lapack-suite-opencl 3600 "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB" --tag opencl --lapack ref --inputs svd,sep,se2,sb,bb "${suite_sets[@]}" \
    --env GPULAPACK_DEVICE=opencl --env GPULAPACK_MIN_N=0 --expect-path opencl
#    (With CUDA's default kernels -- multi-group panel leaves, the chase in
#    one launch -- on the stand-in CUDA driver: level standin.)
#    The ?syev family by the one-stage method on the device: every call of
#    it on path=opencl with method=one-stage (parameter sets 1 and last:
#    every size, type and option of the inputs; all sets with --full).
run lapack-suite-opencl-one-stage 3600 "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB" --tag opencl-one-stage --lapack ref --inputs sep,se2,sg --precisions dz "${suite_sets[@]}" \
    --env GPULAPACK_DEVICE=opencl --env GPULAPACK_MIN_N=0 --env GPULAPACK_METHOD=one-stage \
    --expect-path opencl --expect-method one-stage
#    The ?syev family by the streamed plan (band 2, tiles of 3: many
#    passes and tiles at the suite's sizes, and blocks of 3 columns of Z
#    for the vectors, the chase parked in segments of 2 sweeps (without
#    a cap its store would stay on the device); the values' band reduced
#    band-to-band to 1 before the chase): sep in d (OpenCL's copy lanes;
#    the CUDA driver's, z and se2: level standin), parameter sets 1 and
#    last (all with --full).
run lapack-suite-opencl-streamed 3600 "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB" --tag opencl-streamed --lapack ref --inputs sep --precisions d "${suite_sets[@]}" \
    --env GPULAPACK_DEVICE=opencl --env GPULAPACK_MIN_N=0 --env GPULAPACK_PLAN=streamed \
    --env GPULAPACK_OOC_BAND=2 --env GPULAPACK_OOC_TILE=3 --env GPULAPACK_OOC_CHASE_BAND=1 \
    --env GPULAPACK_OOC_SEGMENT=2 --expect-path opencl
#    The ?syev family's vectors by the lean plan (stage 1 in core with
#    band 2, its reflectors parked, blocks of 3 columns of Z), sep in
#    double, parameter set 1 (all five with --full); values calls keep
#    the in-core plan.
run lapack-suite-opencl-lean 1800 "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB" --tag opencl-lean --lapack ref --inputs sep --precisions d "${one_set[@]}" \
    --env GPULAPACK_DEVICE=opencl --env GPULAPACK_MIN_N=0 --env GPULAPACK_PLAN=lean \
    --env GPULAPACK_BAND=2 --env GPULAPACK_OOC_TILE=3 --expect-path opencl
#    The SVD's values by the streamed plan (band 3, tiles of 5: several
#    panels, tiles and short last row blocks at the suite's sizes up to
#    40; double only; parameter set 1, all five with --full: the calls
#    with vectors, nine in ten of the input's, keep the in-core plan of
#    lapack-suite-opencl).  Its vectors by the streamed plan
#    (0.2-0.3 s a call on PoCL: the parked chase's many small launches)
#    would take the input past 20 minutes: unit/svd-streamed checks them.
run lapack-suite-opencl-streamed-svd 1800 "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB" --tag opencl-streamed-svd --lapack ref --inputs svd --precisions d "${one_set[@]}" \
    --env GPULAPACK_DEVICE=opencl --env GPULAPACK_MIN_N=0 --env GPULAPACK_PLAN=streamed-values \
    --env GPULAPACK_OOC_BAND=3 --env GPULAPACK_OOC_TILE=5 --expect-path opencl
#    On each CUDA/HIP device: LAPACK's whole EIG suite in four precisions.
gpu_parts suite
}

# 6. The CUDA and HIP paths over the stand-in drivers that compute
#    (testing/standin/: our kernels on PoCL behind the driver APIs, the
#    BLAS on the system's, every stream and copy lane a thread of its own),
#    compared by LAPACK's ratios.  GL_MOCK_JITTER delays a random eighth
#    of the operations of the runs marked "jitter" by 0-400 us (the seed
#    is the level's first line: a missing wait then shows as a wrong
#    answer).  The defaults of these paths are the panels' multi-group
#    leaves and the chase in one launch; the ?syev family runs the
#    two-stage reduction unless a run names another method.
level_standin() {
if [ ! -e build/testing/standin-cuda/libcuda.so.1 ]; then
    echo "FAIL standin: build/testing/standin-cuda/libcuda.so.1 is missing (make tests)"
    failed=$((failed + 1))
    return
fi
local seed=${GL_MOCK_JITTER:-$((RANDOM * 32768 + RANDOM))}
echo "# standin: GL_MOCK_JITTER=$seed"
local two=GPULAPACK_METHOD=two-stage
#    Every device operation against the host backend: d and z on CUDA, c
#    on HIP (one runtime source, one kernel text; s and c differ from d
#    and z in their element type alone, and s runs in the vectors below).
for p in d z; do
    run "standin/cuda/test_device_ops_$p" 900 testing/standin.sh cuda env GPULAPACK_DEVICE=cuda $two \
        "build/testing/test_device_ops_$p"
done
[ -e build/testing/standin-hip/libamdhip64.so.5 ] &&
    run "standin/hip/test_device_ops_c" 900 testing/standin.sh hip env GPULAPACK_DEVICE=hip $two \
        "build/testing/test_device_ops_c"

#    The vectors of every routine (every 16th size/type pair on HIP, and
#    on CUDA the 8th of every 16, together every 8th: own-opencl/
#    test_vectors's pairs; on CUDA every 8th with --full), stage 3's
#    divide and conquer on the device from 8 rows, stage 1 double-blocked
#    in blocks of 64 columns; with jitter.
run standin/cuda/test_vectors 900 testing/standin.sh cuda env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=cuda \
    GPULAPACK_MIN_N=0 $two GPULAPACK_DC_LEAF=8 GPULAPACK_STAGE1_BLOCK=64 GL_MOCK_JITTER=$seed \
    GPULAPACK_TEST_EXPECT_PATH=cuda "${cuda_pairs[@]}" build/testing/test_vectors
if [ -e build/testing/standin-hip/libamdhip64.so.5 ]; then
    run standin/hip/test_vectors 900 testing/standin.sh hip env LD_PRELOAD="$LIB" GPULAPACK_DEVICE=hip \
        GPULAPACK_MIN_N=0 $two GPULAPACK_DC_LEAF=8 GL_MOCK_JITTER=$seed \
        GPULAPACK_TEST_EXPECT_PATH=hip GPULAPACK_TEST_VECTORS_EVERY=16 build/testing/test_vectors
fi
#    An LP64 call over GPULAPACK_LWORK_LIMIT (docs/large.md) on CUDA and
#    HIP: every family with arrays of one element, and after a fault
#    restarted on the ILP64 LAPACK or the host.
run standin/lwork-limit 300 testing/own/check_lwork_limit.sh standin
#    The ?syev family's other methods: the one-stage reduction (every 4th
#    pair; d and z, all four with --full) and the vendor's solver (the
#    stand-in cuSOLVER: every ?syev, ?syevd, ?heev, ?heevd call of sep and
#    se2 with method=vendor; the routines it does not serve forwarded).
run standin/cuda/test_vectors-one-stage 900 testing/standin.sh cuda env LD_PRELOAD="$LIB" \
    GPULAPACK_DEVICE=cuda GPULAPACK_MIN_N=0 GPULAPACK_METHOD=one-stage GPULAPACK_DC_LEAF=8 \
    GPULAPACK_TEST_EXPECT_PATH=cuda GPULAPACK_TEST_VECTORS_ROUTINES=syev,syevd,syevr,syevx \
    GPULAPACK_TEST_VECTORS_EVERY=4 GPULAPACK_TEST_VECTORS_PRECS=$variant_precs build/testing/test_vectors
run lapack-suite-cuda-vendor 3600 testing/standin.sh cuda "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB" --tag cuda-vendor --lapack ref --inputs sep,se2 \
    --env GPULAPACK_DEVICE=cuda --env GPULAPACK_MIN_N=0 --env GPULAPACK_METHOD=vendor \
    --env GPULAPACK_DISABLE=gbbrd,gesdd,gesvd,hbev,hbevd,hbtrd,heevr,heevr_2stage,heevx,heevx_2stage,hetrd,hetrd_2stage,sbev,sbevd,sbtrd,syevr,syevr_2stage,syevx,syevx_2stage,sytrd,sytrd_2stage \
    --expect-path cuda --expect-method vendor
#    Two devices (GL_MOCK_DEVICES=2, GPULAPACK_DEVICE=cuda:0,1), each with
#    its own memory: the back-transformations and stage 1 shared (d and
#    z; all four with --full).
run standin/cuda/test_vectors-devices 900 testing/standin.sh cuda env LD_PRELOAD="$LIB" GL_MOCK_DEVICES=2 \
    GPULAPACK_DEVICE=cuda:0,1 GPULAPACK_MIN_N=0 $two GPULAPACK_OOC_TILE=1 GL_MOCK_JITTER=$seed \
    GPULAPACK_TEST_EXPECT_PATH=cuda GPULAPACK_TEST_VECTORS_ROUTINES=syevd,syevr,sbevd,gesdd,gesvd \
    GPULAPACK_TEST_VECTORS_EVERY=8 GPULAPACK_TEST_VECTORS_PRECS=$variant_precs build/testing/test_vectors
#    Every allocation, launch and copy of a call failing in turn (copies on
#    the lanes too), and every wait of the one-launch chase and of the
#    panels' multi-group leaves timing out (at these sizes: leaves of 4
#    rows, 4 work-groups): each restarts on LAPACK with A intact; in core
#    (the SVD's divide and conquer from 8 rows, stage 1 double-blocked), and
#    the streamed plans' values and the SVD's streamed vectors on the
#    lanes.
run standin/cuda/test_fault 900 testing/standin.sh cuda env GPULAPACK_DEVICE=cuda $two \
    GPULAPACK_PANEL_ROWS=4 GPULAPACK_PANEL_GROUPS=4 GPULAPACK_CHASE_GROUPS=4 \
    GPULAPACK_DC_LEAF=8 GPULAPACK_STAGE1_BLOCK=64 build/testing/test_fault
run standin/cuda/test_fault-streamed 900 testing/standin.sh cuda env GPULAPACK_DEVICE=cuda \
    GPULAPACK_PLAN=streamed GPULAPACK_OOC_BAND=8 GPULAPACK_OOC_TILE=16 GPULAPACK_OOC_SEGMENT=4 \
    TEST_FAULT_ONLY=dgesdd build/testing/test_fault
#    LAPACK's svd and sep inputs in d and z on CUDA's default kernels,
#    with jitter (se2, the _2stage entries of sep's routines, the same
#    kernels: on OpenCL in lapack-suite-opencl); parameter set 1: every
#    size, type and option of the inputs through the CUDA runtime, on
#    the kernels that lapack-suite-opencl runs in all five sets (all
#    five here, 4.5 minutes, with --full).
run lapack-suite-cuda 3600 testing/standin.sh cuda "$PYTHON" testing/lapack_suite/run_suite.py \
    --lib "$LIB" --tag cuda --lapack ref --inputs svd,sep --precisions dz "${one_set[@]}" \
    --env GPULAPACK_DEVICE=cuda --env GPULAPACK_MIN_N=0 --env $two \
    --env GL_MOCK_JITTER=$seed --expect-path cuda
#    The memory plans on the copy lanes, with jitter: the vectors of the
#    ?syev family and the SVD streamed (band 8, tiles of 32 columns, the
#    chase parked in segments of 8 sweeps; every 8th pair) with the
#    copies on the lanes and in order (GPULAPACK_OOC_QUEUES=1), and the
#    ?syev family's lean (band 8, blocks of 32 columns of Z); d and z
#    (all four with --full); the streamed runs every 16th pair each, on
#    the lanes the 0th and in order the 8th of each 16 (one arithmetic,
#    copied two ways: together every 8th pair; each every 8th with
#    --full).  (LAPACK's sep by the streamed plan on the lanes, at
#    lapack-suite-opencl-streamed's sizes, passes too: 6 minutes, left to
#    a run by hand.)
local order pairs
for order in lanes in-order; do
    pairs=("${lanes_pairs[@]}")
    [ $order = in-order ] && pairs=("${in_order_pairs[@]}")
    run "standin/cuda/test_vectors-streamed-$order" 900 testing/standin.sh cuda env LD_PRELOAD="$LIB" \
        GPULAPACK_DEVICE=cuda GPULAPACK_MIN_N=0 GPULAPACK_PLAN=streamed GPULAPACK_OOC_BAND=8 \
        GPULAPACK_OOC_TILE=32 GPULAPACK_OOC_SEGMENT=8 GL_MOCK_JITTER=$seed \
        $([ $order = in-order ] && echo GPULAPACK_OOC_QUEUES=1) GPULAPACK_TEST_EXPECT_PATH=cuda \
        GPULAPACK_TEST_VECTORS_ROUTINES=syevd,gesdd "${pairs[@]}" \
        GPULAPACK_TEST_VECTORS_PRECS=$variant_precs build/testing/test_vectors
done
run standin/cuda/test_vectors-lean 900 testing/standin.sh cuda env LD_PRELOAD="$LIB" \
    GPULAPACK_DEVICE=cuda GPULAPACK_MIN_N=0 GPULAPACK_PLAN=lean GPULAPACK_BAND=8 GPULAPACK_OOC_TILE=32 \
    GL_MOCK_JITTER=$seed GPULAPACK_TEST_EXPECT_PATH=cuda GPULAPACK_TEST_VECTORS_ROUTINES=syev,syevd \
    GPULAPACK_TEST_VECTORS_EVERY=8 GPULAPACK_TEST_VECTORS_PRECS=$variant_precs build/testing/test_vectors
}

# 7. The library built with ASan and UBSan, preloaded into LAPACK's tests
#    and our thread test: no sanitizer report, same results.  Two runs at
#    a time, their verdicts in order; xeigtst with OpenBLAS's BLAS on one
#    thread, as in the suite's runs (at LAPACK's test sizes its second
#    thread only spun in sched_yield: half of the level's CPU time).
sanitized_one() {
    local job=$1 preload=$2 eig=/usr/lib/x86_64-linux-gnu/lapack rc
    case $job in
    *:*)
        local p=${job%%:*} input=${job#*:} out="$OUT/sanitize-${job/:/}"
        LD_PRELOAD="$preload" GPULAPACK_VERBOSE=1 GPULAPACK_LOG="$out.log" \
            GPULAPACK_DEVICE=host GPULAPACK_MIN_N=0 OPENBLAS_NUM_THREADS=1 \
            "$eig/xeigtst$p" <"$eig/$input.in" >"$out.out" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && grep -q "End of tests" "$out.out" &&
            ! grep -Eq "runtime error|AddressSanitizer" "$out.out" &&
            [ -s "$out.log" ]; then
            echo "PASS sanitize/xeigtst$p/$input"
        else
            echo "FAIL sanitize/xeigtst$p/$input: rc=$rc, see $out.out"
        fi ;;
    *)
        local t=build/testing/$job out="$OUT/sanitize-$job.out"
        LD_PRELOAD="$preload" "$t" >"$out" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && ! grep -q '^FAIL' "$out" &&
            ! grep -Eq "runtime error|AddressSanitizer" "$out"; then
            echo "PASS sanitize/$job"
        else
            echo "FAIL sanitize/$job: rc=$rc, see $out"
        fi ;;
    esac
}
sanitized() {
    local asan ubsan job jobs running=0
    asan=$(gcc -print-file-name=libasan.so)
    ubsan=$(gcc -print-file-name=libubsan.so)
    local preload="$asan $ubsan $ROOT/build/asan/lib/libgpulapack.so"
    export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
    jobs="d:svd d:sep z:svd z:sep c:svd s:sep z:zsb d:dbb"
    for t in test_threads test_args; do
        [ -x "build/testing/$t" ] && jobs="$jobs $t"
    done
    for job in $jobs; do
        if [ $running -ge 2 ]; then
            wait -n
            running=$((running - 1))
        fi
        sanitized_one "$job" "$preload" >"$OUT/sanitize-${job/:/}.verdict" &
        running=$((running + 1))
    done
    wait
    for job in $jobs; do
        cat "$OUT/sanitize-${job/:/}.verdict"
    done
}
export -f sanitized_one
export -f sanitized
level_sanitize() {
run sanitize 1800 bash -c sanitized
}

# 8. The ScaLAPACK interposer (lib/libgpulapack_scalapack.so): our driver
#    of six routines on four grids against the real routines, gathered and
#    forwarded, PoCL on process (0,0), and Debian's ScaLAPACK testers with
#    and without it; about 1.5 minutes on 2 cores.
level_scalapack() {
run scalapack 600 testing/scalapack/check_scalapack.sh
}

for level in $levels; do
    level_start=$SECONDS
    "level_$level"
    echo "# level $level: $((SECONDS - level_start)) s"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
