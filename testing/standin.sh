#!/bin/sh
# testing/standin.sh cuda|hip COMMAND [ARG...]
#
# Runs COMMAND over the stand-in GPU drivers that compute
# (testing/standin/standin.c: our kernels on PoCL, the BLAS on the
# system's, streams as threads): the library's CUDA or HIP path then runs
# for real on this CPU.  Sets the library path to the stand-in (and the
# stand-in vendor solvers, for the vendor method), PoCL's kernel cache and
# OpenBLAS's threads (1, the stand-in cuBLAS's BLAS);
# GPULAPACK_DEVICE is the command's to set.  Build them first with
# `make tests` (docs/testing.md, "The CUDA and HIP paths on this CPU").
# Settings the stand-ins read: GL_MOCK_DEVICES (devices, default 1),
# GL_MOCK_FREE_MB (each device's memory), GL_MOCK_JITTER=<seed> (a random
# delay before an eighth of the operations).
root=$(cd "$(dirname "$0")/.." && pwd)
case "$1" in
cuda) dirs="$root/build/testing/standin-cuda:$root/build/testing/mock-cusolver" ;;
hip) dirs="$root/build/testing/standin-hip:$root/build/testing/mock-rocsolver" ;;
*) echo "usage: $0 cuda|hip COMMAND [ARG...]" >&2; exit 2 ;;
esac
shift
[ $# -gt 0 ] || { echo "usage: testing/standin.sh cuda|hip COMMAND [ARG...]" >&2; exit 2; }
export LD_LIBRARY_PATH="$dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$root/build/pocl-cache}"
mkdir -p "$POCL_CACHE_DIR"
# The stand-in cuBLAS is the system's BLAS in the streams' threads, beside
# PoCL's: OpenBLAS on one thread each (its own threads, at these sizes,
# spin in sched_yield on the cores the kernels need; a GPU's BLAS shares
# no host cores), unless the caller says otherwise.
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
exec "$@"
