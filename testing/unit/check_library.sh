#!/bin/bash
# The shape of lib/libgpulapack.so: exactly the LAPACK names it replaces
# (the SVD and symmetric/Hermitian eigenvalue drivers and reductions of
# tools/routines.py's table: lapack_api/generated/exports.txt) exported
# under their four names (dgesdd_, dgesdd_64_ with 64-bit INTEGERs, and
# the scipy_ names of pip's numpy and scipy wheels, scipy_dgesdd_ and
# scipy_dgesdd_64_), plus the gpulapack_ C API; no GPU library linked,
# silent when loaded into a program that never calls LAPACK.
cd "$(dirname "$0")/../.."
LIB=${1:-lib/libgpulapack.so}

pass() { echo "PASS unit/library/$1"; }
fail() { echo "FAIL unit/library/$1: $2"; }

# the LAPACK names: generated from tools/routines.py's table; the C API:
# the functions include/gpulapack.h declares
expected=$(
    grep -v '^#' lapack_api/generated/exports.txt
    grep -oE '\<gpulapack_[a-z_]+\(' include/gpulapack.h | tr -d '(' | sort -u
)
exported=$(nm -D --defined-only "$LIB" | awk '{print $3}')
diff_out=$(diff <(sort <<<"$expected") <(sort <<<"$exported"))
if [ -z "$diff_out" ]; then
    pass "exports ($(wc -l <<<"$exported") symbols)"
else
    fail exports "$(tr '\n' ' ' <<<"$diff_out")"
fi

needed=$(readelf -d "$LIB" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
gpu=$(grep -Eio 'cuda|cublas|cusolver|nvrtc|opencl|amdhip|hipblas|rocblas|clblast' <<<"$needed")
if [ -z "$gpu" ]; then pass "no-gpu-library-linked ($needed)"; else fail no-gpu-library-linked "$needed"; fi

out=$(env -u GPULAPACK_VERBOSE LD_PRELOAD="$PWD/$LIB" /bin/echo quiet 2>&1)
if [ "$out" = quiet ]; then pass silent-preload; else fail silent-preload "printed: $out"; fi

info=$(bin/gpulapack-info 2>&1)
if grep -q "real LAPACK: *[^n]" <<<"$info" && grep -q "backends compiled: *host" <<<"$info"; then
    pass gpulapack-info
else
    fail gpulapack-info "$(tr '\n' ' ' <<<"$info")"
fi

# With the OpenCL backend compiled in and an OpenCL device present (PoCL,
# installed by make check): gpulapack-info lists it, the automatic choice
# leaves a CPU device alone, GPULAPACK_DEVICE=opencl chooses it; with no
# ICD at all the library still loads and says so.
if grep -q "backends compiled: .*opencl" <<<"$info"; then
    chosen=$(GPULAPACK_DEVICE=opencl bin/gpulapack-info 2>&1)
    if grep -q "opencl:0.0 \[chosen\]" <<<"$chosen" &&
        grep -q "path=opencl" <<<"$chosen" && grep -q "path=host" <<<"$info"; then
        pass "gpulapack-info-opencl ($(grep -m1 'opencl:0.0' <<<"$chosen" | sed 's/^ *//'))"
    else
        fail gpulapack-info-opencl "$(tr '\n' ' ' <<<"$chosen")"
    fi
    none=$(OCL_ICD_VENDORS=/nonexistent GPULAPACK_DEVICE=opencl bin/gpulapack-info 2>&1)
    if grep -q "devices: *0" <<<"$none" && grep -q "path=lapack" <<<"$none"; then
        pass gpulapack-info-no-icd
    else
        fail gpulapack-info-no-icd "$(tr '\n' ' ' <<<"$none")"
    fi
fi

# CUDA and HIP compiled in, no GPU here: the runtime opens the driver
# library, resolves every entry point it uses (a misspelt or missing one
# is logged), finds no device and leaves the calls to LAPACK.  The CUDA
# toolkit's stub libcuda.so stands in for the driver (cuInit: error 34);
# Debian's libamdhip64 is the real HIP runtime (no device: 100/101).
check_driver() {   # name, log pattern of the driver's error, env...
    local name=$1 error=$2
    shift 2
    local out
    out=$(env "$@" GPULAPACK_VERBOSE=2 GPULAPACK_DEVICE="$name" bin/gpulapack-info 2>&1)
    if grep -q "$name: driver loaded, graphs yes, stream-ordered memory yes" <<<"$out" &&
        grep -Eq "$name: (no-device|runtime-init-failed): driver error $error;" <<<"$out" &&
        grep -q "path=lapack" <<<"$out" && ! grep -q "missing from the driver" <<<"$out"; then
        pass "driver-$name ($(grep -m1 "$name: .*driver error" <<<"$out" | sed 's/^gpulapack: //'))"
    else
        fail "driver-$name" "$(tr '\n' ' ' <<<"$out")"
    fi
}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if grep -q "backends compiled: .*cuda" <<<"$info"; then
    stubdir=$(mktemp -d)
    if [ -e "$CUDA_HOME/lib64/stubs/libcuda.so" ]; then
        ln -s "$CUDA_HOME/lib64/stubs/libcuda.so" "$stubdir/libcuda.so.1"
        check_driver cuda 34 LD_LIBRARY_PATH="$stubdir"
    else
        fail driver-cuda "no $CUDA_HOME/lib64/stubs/libcuda.so to stand in for the driver"
    fi
    rm -rf "$stubdir"
    # no driver at all: nothing loaded, calls forwarded
    out=$(GPULAPACK_DEVICE=cuda bin/gpulapack-info 2>&1)
    if grep -q "path=lapack" <<<"$out"; then pass driver-cuda-absent; else fail driver-cuda-absent "$out"; fi
    # every cuBLAS entry point the runtime names (the library's strings)
    # is in the toolkit's libcublas: one missing would turn cuBLAS off
    cublas=$(ls "$CUDA_HOME"/lib64/libcublas.so.* 2>/dev/null | head -n 1)
    names=$(strings lib/libgpulapack.so | grep -E '^cublas[A-Z][A-Za-z0-9]*(_v2)?$' |
        grep -Ev '_t$|Context$' | sort -u)
    if [ -z "$cublas" ]; then
        fail cublas-entry-points "no libcublas under $CUDA_HOME/lib64"
    elif missing=$(LD_LIBRARY_PATH="$CUDA_HOME/lib64" python3 -c '
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
print(" ".join(n for n in sys.argv[2:] if not hasattr(lib, n)))' "$cublas" $names) &&
        [ -z "$missing" ] && [ -n "$names" ]; then
        pass "cublas-entry-points ($(wc -w <<<"$names") names in $(basename "$cublas"))"
    else
        fail cublas-entry-points "missing from $cublas: ${missing:-none found}"
    fi
fi
if grep -q "backends compiled: .*hip" <<<"$info"; then
    check_driver hip '10[01]'
fi
