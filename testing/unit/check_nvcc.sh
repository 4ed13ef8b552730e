#!/bin/bash
# The one kernel text of kernels/device/ compiles for CUDA too: behind
# kernels/shim/cuda.h, with nvcc for sm_90, in all four precisions, and
# the kernels keep their C names (the driver API looks them up by name).
# Needs the CUDA toolkit (nvcc), not a GPU.
cd "$(dirname "$0")/../.."
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
    echo "PASS unit/nvcc/skipped (no nvcc on this machine)"
    exit 0
fi
out=build/nvcc-check
mkdir -p "$out"
{
    echo '#include "kernels/shim/cuda.h"'
    for f in common blas panel chase; do echo "#include \"kernels/device/$f.h\""; done
} >"$out/kernels.cu"
kernels="gl_copy gl_scale gl_pack_band gl_zero_lower gl_unpack_v gl_gemm gl_geqrt gl_gelqt gl_gb_chase gl_sb_chase"
for p in 1 2 3 4; do
    name=unit/nvcc/precision-$p
    if ! log=$("$NVCC" -I. -DPRECISION=$p --gpu-architecture=sm_90 -Werror all-warnings \
            -c "$out/kernels.cu" -o "$out/kernels_$p.o" 2>&1); then
        echo "FAIL $name: $(head -5 <<<"$log" | tr '\n' ' ')"
        continue
    fi
    missing=""
    for k in $kernels; do
        nm "$out/kernels_$p.o" | grep -q " T $k\$" || missing="$missing $k"
    done
    if [ -z "$missing" ]; then echo "PASS $name"; else echo "FAIL $name: missing$missing"; fi
done
