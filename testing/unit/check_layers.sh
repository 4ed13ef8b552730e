#!/bin/bash
# The shape of the source tree: the layers point one way
# (lapack_api/ -> kernels/ -> runtime/), and every header compiles on its
# own.
#
#   include-graph    no file under kernels/ or runtime/ includes a file of
#                    lapack_api/, and no file under runtime/ one of kernels/.
#   rooms            within kernels/ (room_may below): no stage, tier or
#                    backend includes a pipeline's header, no stage header
#                    or backend a tier's, and only the backends include the
#                    GPU runtime's interface (runtime/gpu.h, backend.h).
#                    An #include "x" is resolved as the compiler does:
#                    next to the including file first, else through the -I
#                    directories the Makefile passes anywhere (., include,
#                    runtime, kernels, lapack_api); when it takes an -I
#                    directory, any candidate in a higher layer counts.
#   headers          each header of runtime/, kernels/ (its folders too) and
#                    lapack_api/ compiles alone in every precision
#                    (kernels/device/ is GPU kernel text and kernels/shim/
#                    its dialects; tile_gemm_body.h is a fragment included
#                    with parameters by tile_gemm.c); each header of a
#                    runtime's folder (runtime/opencl/, runtime/cudalike/)
#                    alone as that runtime's build compiles it, once per
#                    API (-DGL_API_CUDA, -DGL_API_HIP) whose headers are
#                    on this machine.
#   names            every name lib/libgpulapack.so exports and every
#                    gl_[sdcz]_ symbol of lib/libgpulapack.a appears as a
#                    word in lapack_api/, kernels/ or runtime/: templates
#                    spell their expanded names next to each definition,
#                    e.g. "/* sgesdd_ dgesdd_ cgesdd_ zgesdd_ */" above
#                    GL_LAPACK_NAME(gesdd, gesdd) and "/* gl_s_svd gl_d_svd
#                    gl_c_svd gl_z_svd */" above GL_FN(svd), so that
#                    grep -rn finds the definition.
cd "$(dirname "$0")/../.."
ROOT=$PWD

pass() { echo "PASS unit/layers/$1"; }
fail() { echo "FAIL unit/layers/$1: $2"; }

IDIRS=". include runtime kernels lapack_api"

# layer <path relative to ROOT>: 3 lapack_api, 2 kernels, 1 runtime, 0 other
layer() {
    case $1 in
    lapack_api/*) echo 3 ;;
    kernels/*) echo 2 ;;
    runtime/*) echo 1 ;;
    *) echo 0 ;;
    esac
}

# room_may FILE TARGET: whether a file of kernels/ may include TARGET by
# the rooms of kernels/ (kernels/README.md): no stage, tier or backend
# includes a pipeline's header; no stage header and no backend a tier's;
# and only the backends include the GPU runtime's interface
# (runtime/gpu.h, what a GPU backend is written against) or the backend
# registry (runtime/backend.h): a pipeline, stage or tier sees the device
# through the operation table (ops.h) alone.
room_may() {
    local file=$1 target=$2
    [[ $file == kernels/* ]] || return 0
    if [[ $target == kernels/pipelines/* &&
          $file != kernels/pipelines/* ]]; then
        return 1   # the pipelines are the top floor
    fi
    if [[ $target == kernels/tiers/* &&
          ($file == kernels/stages/*.h || $file == kernels/backend/*) ]]; then
        return 1   # a stage may hand its work to a tier, its interface not
    fi
    if [[ ($target == runtime/gpu.h || $target == runtime/backend.h) &&
          $file != kernels/backend/* ]]; then
        return 1   # the device through the operation table alone
    fi
    return 0
}

# 1. The include graph.
bad=()
rooms=()
nincl=0
while IFS= read -r file; do
    dir=$(dirname "$file")
    own=$(layer "$file")
    while IFS= read -r line; do
        name=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]([^">]+)[">].*/\1/' <<<"$line")
        quoted=0
        [[ $line =~ \#[[:space:]]*include[[:space:]]*\" ]] && quoted=1
        nincl=$((nincl + 1))
        targets=()
        if [ $quoted = 1 ] && [ -f "$dir/$name" ]; then
            targets=("$(realpath -m --relative-to="$ROOT" "$dir/$name")")
        else
            for d in $IDIRS; do
                [ -f "$d/$name" ] && targets+=("$(realpath -m --relative-to="$ROOT" "$d/$name")")
            done
        fi
        for t in "${targets[@]}"; do
            if [ "$(layer "$t")" -gt "$own" ]; then
                bad+=("$file includes $t ($line)")
            elif ! room_may "$file" "$t"; then
                rooms+=("$file includes $t")
            fi
        done
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' "$file")
done < <(find kernels runtime -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.S' \) | sort)
if [ ${#bad[@]} -eq 0 ]; then
    pass "include-graph ($nincl includes of kernels/ and runtime/)"
else
    fail include-graph "$(printf '%s; ' "${bad[@]}")"
fi
if [ ${#rooms[@]} -eq 0 ]; then
    pass "rooms (kernels/: pipelines on top, runtime/gpu.h in the backends)"
else
    fail rooms "$(printf '%s; ' "${rooms[@]}")"
fi

# 2. Every header compiles on its own, in the four precisions.
bad=()
nh=0
for h in runtime/*.h $(find kernels -name '*.h' -not -path 'kernels/device/*' \
                        -not -path 'kernels/shim/*' | sort) lapack_api/*.h; do
    case $h in *_body.h) continue ;; esac
    nh=$((nh + 1))
    for p in 1 2 3 4; do
        if ! out=$(gcc -fsyntax-only -std=c11 -D_GNU_SOURCE -DGL_PRECISION=$p \
            -Wall -Wextra -Werror -fopenmp-simd -x c "$h" 2>&1); then
            bad+=("$h (GL_PRECISION=$p): $(grep -m1 -E 'error' <<<"$out")")
            break
        fi
    done
done
# the runtimes' folders: no precision, but an API each (the vendor headers
# as system headers: their warnings are not ours)
cuda_include=${CUDA_HOME:-/usr/local/cuda}/include
apis=()
[ -f "$cuda_include/cuda.h" ] && apis+=("cuda")
[ -f /usr/include/hip/hip_runtime_api.h ] && apis+=("hip")
nr=0
for h in runtime/*/*.h; do
    sets=()
    case $h in
    runtime/opencl/*) [ -f /usr/include/CL/cl.h ] && sets+=("opencl") ;;
    runtime/cudalike/*_cuda.h) [[ " ${apis[*]} " == *" cuda "* ]] && sets+=("cuda") ;;
    runtime/cudalike/*_hip.h) [[ " ${apis[*]} " == *" hip "* ]] && sets+=("hip") ;;
    runtime/cudalike/*) sets+=("${apis[@]}") ;;
    *) bad+=("$h: a runtime folder this check does not know") ;;
    esac
    for api in "${sets[@]}"; do
        case $api in
        cuda) flags="-DGL_API_CUDA -isystem $cuda_include" ;;
        hip) flags="-DGL_API_HIP -D__HIP_PLATFORM_AMD__" ;;
        *) flags="" ;;
        esac
        nr=$((nr + 1))
        # shellcheck disable=SC2086
        if ! out=$(gcc -fsyntax-only -std=c11 -D_GNU_SOURCE $flags \
            -Wall -Wextra -Werror -x c "$h" 2>&1); then
            bad+=("$h ($api): $(grep -m1 -E 'error' <<<"$out")")
        fi
    done
done
if [ ${#bad[@]} -eq 0 ]; then
    pass "headers-alone ($nh headers, 4 precisions; $nr runtime-folder header builds)"
else
    fail headers-alone "$(printf '%s; ' "${bad[@]}")"
fi

# 3. Every exported name and per-precision symbol can be found by grep.
LIB=lib/libgpulapack.so
ARCHIVE=lib/libgpulapack.a
if [ ! -f "$LIB" ] || [ ! -f "$ARCHIVE" ]; then
    fail names "build the library first ($LIB, $ARCHIVE)"
else
    words=$(grep -rhoE '[A-Za-z_][A-Za-z0-9_]*' lapack_api kernels runtime | sort -u)
    exported=$(nm -D --defined-only "$LIB" | awk 'NF == 3 {print $3}' | sort -u)
    internal=$(nm "$ARCHIVE" 2>/dev/null | awk 'NF == 3 {print $3}' |
        grep -E '^gl_[sdcz]_' | sed 's/\..*//' | sort -u)
    missing=$(comm -23 <(printf '%s\n' $exported $internal | sort -u) <(printf '%s\n' "$words"))
    n=$(printf '%s\n' $exported $internal | sort -u | wc -l)
    if [ -z "$exported" ] || [ -z "$internal" ]; then
        fail names "no symbols read from $LIB or $ARCHIVE"
    elif [ -z "$missing" ]; then
        pass "names ($n exported and gl_[sdcz]_ names, each found by grep)"
    else
        fail names "not found by grep -rn in lapack_api/ kernels/ runtime/: $(tr '\n' ' ' <<<"$missing")"
    fi
fi
