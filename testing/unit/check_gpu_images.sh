#!/bin/bash
# The kernel images the build embedded for CUDA and HIP hold what the
# runtimes will look for on a GPU: every kernel of kernels/device/ by its C
# name, in every precision, for every target of the Makefile -- SASS for
# sm_80 and sm_90 and PTX for compute_90 in each CUDA fatbin, code for
# gfx90a and gfx940 in each HIP bundle.  No GPU needed; a backend not
# compiled in (no nvcc / hipcc) is reported as skipped.
cd "$(dirname "$0")/../.."
kernels="gl_copy gl_scale gl_pack_band gl_zero_lower gl_unpack_v gl_gemm gl_geqrt gl_gelqt gl_gb_chase gl_sb_chase gl_tridiag_bisect gl_panel_tall"
backends=$(bin/gpulapack-info 2>/dev/null | sed -n 's/^backends compiled: *//p')

if [[ " $backends " == *" cuda "* ]]; then
    for p in s d c z; do
        f=build/cuda/kernels_$p.fatbin
        # fatbin: a 16-byte header (magic 0xba55ed50), then entries with a
        # header of kind (1 PTX, 2 ELF), header size, payload size and, at
        # word 7, the sm number; ELF payloads are not compressed
        out=$(python3 - "$f" $kernels <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
magic, _, hsize, fsize = struct.unpack_from('<IHHQ', data, 0)
if magic != 0xba55ed50:
    sys.exit('not a fatbin')
found, off, missing = set(), hsize, []
while off < hsize + fsize:
    kind, _, ehs, size = struct.unpack_from('<HHII', data, off)
    arch = struct.unpack_from('<I', data, off + 28)[0]
    payload = data[off + ehs: off + ehs + size]
    name = ('ptx' if kind == 1 else 'sm') + '_%d' % arch
    found.add(name)
    if kind == 2:
        missing += ['%s:%s' % (name, k) for k in sys.argv[2:]
                    if (k + '\0').encode() not in payload]
    off += ehs + size
want = {'sm_80', 'sm_90', 'ptx_90'}
if want - found or missing:
    print('missing', ' '.join(sorted(want - found)), ' '.join(missing))
else:
    print('targets', ' '.join(sorted(found)))
PY
)
        case $out in
        targets*) echo "PASS unit/gpu-images/cuda-$p ($out, every kernel)" ;;
        *) echo "FAIL unit/gpu-images/cuda-$p: $f: $out" ;;
        esac
    done
else
    echo "PASS unit/gpu-images/cuda skipped (backend not compiled: no nvcc)"
fi

if [[ " $backends " == *" hip "* ]]; then
    tmp=$(mktemp -d)
    for p in s d c z; do
        f=build/hip/kernels_$p.co
        problems=""
        targets=$(clang-offload-bundler-15 --list --type=o --input="$f" 2>&1)
        for gfx in gfx90a gfx940; do
            t=hipv4-amdgcn-amd-amdhsa--$gfx
            if ! grep -qx "$t" <<<"$targets"; then
                problems="$problems no-$gfx"
                continue
            fi
            clang-offload-bundler-15 --unbundle --type=o --input="$f" \
                --targets="$t" --output="$tmp/$gfx.o" 2>/dev/null
            syms=$(llvm-nm-15 --defined-only "$tmp/$gfx.o" 2>/dev/null | awk '{print $3}')
            for k in $kernels; do
                grep -qx "$k" <<<"$syms" || problems="$problems $gfx:$k"
            done
        done
        if [ -z "$problems" ]; then
            echo "PASS unit/gpu-images/hip-$p (gfx90a gfx940, every kernel)"
        else
            echo "FAIL unit/gpu-images/hip-$p: $f:$problems"
        fi
    done
    rm -rf "$tmp"
else
    echo "PASS unit/gpu-images/hip skipped (backend not compiled: no hipcc)"
fi
