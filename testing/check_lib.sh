# check_lib.sh - sourced by run_checks.sh (`make check`) and gpu_machine.sh:
# the verdict counting and the checks on a CUDA/HIP device.  The caller sets
# ROOT (the checkout, also the working directory), LIB (the library to
# preload), OUT (where logs go) and PYTHON (Python 3 for run_suite.py).

passed=0
failed=0

# run <name> <timeout-seconds> <command...>: runs, shows, counts verdicts.
run() {
    local name=$1 limit=$2
    shift 2
    local log="$OUT/${name//\//_}.log" start=$SECONDS
    echo "=== $name"
    timeout -k 10 "$limit" "$@" >"$log" 2>&1
    local rc=$?
    grep -E '^(PASS|FAIL) ' "$log"
    echo "--- $name: $((SECONDS - start)) s"
    # every test's seconds, for finding where make check's time goes
    echo "$((SECONDS - start)) $name" >>"$OUT/times.txt"
    local p f
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    if [ "$rc" -ne 0 ]; then
        echo "FAIL $name: exit code $rc (see $log); its last lines:"
        tail -n 25 "$log" | sed 's/^/    | /'
        f=$((f + 1))
    elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: no verdict printed (see $log)"
        f=$((f + 1))
    fi
    passed=$((passed + p))
    failed=$((failed + f))
}

# device_own <kind> <test>: a contract test (test_options, ...) with every
# size on device <kind> (opencl, cuda, hip), compared by LAPACK's ratios;
# then one verdict on the paths its calls logged.
device_own() {
    # the tests log to $TMPDIR/gpulapack-test-*.log themselves: keep those
    local kind=$1 t=$2 dir="$OUT/own-$1-$2"
    rm -rf "$dir" && mkdir -p "$dir"
    env LD_PRELOAD="$LIB" GPULAPACK_DEVICE="$kind" GPULAPACK_MIN_N=0 \
        GPULAPACK_TEST_COMPARE=ratio GPULAPACK_TEST_KEEP_LOG=1 TMPDIR="$dir" \
        "build/testing/$t" || return 1
    local calls
    calls=$(cat "$dir"/gpulapack-test-*.log 2>/dev/null | grep -c "path=$kind")
    if cat "$dir"/gpulapack-test-*.log 2>/dev/null | grep -q "reason=fault"; then
        echo "FAIL own-$kind/$t/paths: a call fell back to LAPACK (logs in $dir)"
    elif [ "$calls" -gt 0 ]; then
        echo "PASS own-$kind/$t/paths ($calls calls on $kind)"
    else
        echo "FAIL own-$kind/$t/paths: no call on $kind (logs in $dir)"
    fi
}
export -f device_own

# gpu_checks <kind> [part...]: the acceptance of a CUDA or HIP device, every
# call of an exported routine on path=<kind>.  Parts (default all): ops
# (every device operation against the host backend), own (the contract
# tests), vectors (the vectors of every routine), spectra (the known
# spectra), clients (numpy, scipy, Octave, R), suite (LAPACK's EIG suite in
# four precisions over the reference LAPACK; GL_SUITE_INPUTS, a comma list,
# narrows it).
gpu_checks() {
    local kind=$1 part
    shift
    [ $# -gt 0 ] || set -- ops own vectors spectra clients suite
    for part in "$@"; do
        case $part in
        ops)
            # by default the chase in one launch and one-group panel leaves
            # at these sizes; then the wavefront launches and multi-group
            # leaves
            for p in s d c z; do
                run "$kind/test_device_ops_$p" 900 env GPULAPACK_DEVICE="$kind" \
                    "build/testing/test_device_ops_$p"
                run "$kind/test_device_ops_$p-other-kernels" 900 env GPULAPACK_DEVICE="$kind" \
                    GPULAPACK_CHASE_GROUPS=0 GPULAPACK_PANEL_ROWS=4 "build/testing/test_device_ops_$p"
            done ;;
        own)
            for t in test_options test_lwork test_args test_threads; do
                run "own-$kind/$t" 900 bash -c "device_own $kind $t"
            done ;;
        # stage 3's divide and conquer on the device from 8 rows (its
        # default leaves of 1024 rows would leave these sizes to the host)
        vectors)
            run "own-$kind/test_vectors" 900 env LD_PRELOAD="$LIB" \
                GPULAPACK_DEVICE="$kind" GPULAPACK_MIN_N=0 GPULAPACK_DC_LEAF=8 \
                GPULAPACK_TEST_EXPECT_PATH="$kind" build/testing/test_vectors ;;
        spectra)
            run "own-$kind/test_spectra" 900 env LD_PRELOAD="$LIB" \
                GPULAPACK_DEVICE="$kind" GPULAPACK_MIN_N=0 GPULAPACK_DC_LEAF=8 \
                GPULAPACK_TEST_EXPECT_PATH="$kind" build/testing/test_spectra ;;
        clients)
            run "clients-$kind" 1200 env GPULAPACK_DEVICE="$kind" GPULAPACK_MIN_N=0 \
                testing/clients/run_clients.sh --compare accuracy --expect-path "$kind" \
                --out "$OUT/clients-$kind" "$LIB" ;;
        suite)
            run "lapack-suite-$kind" 3600 "$PYTHON" testing/lapack_suite/run_suite.py \
                --lib "$LIB" --tag "$kind" --lapack ref \
                ${GL_SUITE_INPUTS:+--inputs "$GL_SUITE_INPUTS"} \
                --env GPULAPACK_DEVICE="$kind" --env GPULAPACK_MIN_N=0 \
                --expect-path "$kind" ;;
        *)
            echo "FAIL gpu_checks: unknown part '$part'"
            failed=$((failed + 1)) ;;
        esac
    done
}
