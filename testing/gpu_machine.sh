#!/bin/bash
# gpu_machine.sh - the GPU acceptance and benchmark (issue 6) on a lent GPU
# machine that has the CUDA driver and toolkit but no Debian LAPACK, no
# compiler toolchain we can rely on and no network: this workplace's device
# machines.  What the checks need is built here and carried there.
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
# Logs go to $GL_CHECK_OUT (default build/check-gpu).
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
ARCH_LIB=/usr/lib/x86_64-linux-gnu

build_files() {
    echo lib/libgpulapack.so bin/gpulapack-info build/demo build/bench/bench_gpu
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
    du -ch "$dir"/*.tar.xz ;;
setup)
    dir=${1:-.gpucarry}
    tar -xJf "$dir/build.tar.xz" || exit 1
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
bench)
    cudalib=$(cuda_lib_dir)
    export LD_LIBRARY_PATH=$ROOT/lib${cudalib:+:$cudalib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    exec build/bench/bench_gpu ;;
*)
    echo "usage: $0 pack [DIR] | setup [DIR] | check [part...] | bench" >&2
    exit 2 ;;
esac
