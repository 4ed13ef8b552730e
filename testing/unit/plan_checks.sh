# plan_checks.sh: what the checks of the device memory plans share
# (check_memory_plan.sh, check_streamed.sh, check_svd_streamed.sh,
# check_svd_lean.sh), sourced after they set CHECK (their verdicts'
# prefix, e.g. "streamed").

verdict() { # verdict <ok 0/1> <name> <detail>
    if [ "$1" = 1 ]; then echo "PASS unit/$CHECK/$2"; else echo "FAIL unit/$CHECK/$2: $3"; fi
}
mib() { # mib <MiB>: the bytes of a cap given in MiB (0.5: 524288)
    awk -v m="$1" 'BEGIN { printf "%.0f", m * 1048576 }'
}
field() { # field <log> <key>: the number after key= on the call's line
    grep -o "$2=[0-9]*" <<<"$1" | head -1 | cut -d= -f2
}
# same <a> <b> [count] [eps]: 1 when two runs' values files agree within
# 10 count eps of their largest value (count: $N; eps: double's)
same() {
    paste "$1" "$2" | awk -v n="${3:-$N}" -v eps="${4:-2.220446e-16}" 'NF == 2 {
            d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d
            a = $1 < 0 ? -$1 : $1; if (a > w) w = a; rows++ }
        END { print (rows == n && m <= 10 * n * eps * w) ? 1 : 0 }'
}
# difference <a> <b>: the largest difference over the largest value
difference() {
    paste "$1" "$2" | awk 'NF == 2 { d = $1 - $2; if (d < 0) d = -d
            if (d > m) m = d; a = $1 < 0 ? -$1 : $1; if (a > w) w = a }
        END { printf "%.3g", (w > 0 ? m / w : m) }'
}
# bytes <log>: host -> device and device -> host bytes of the profile,
# but stage 3's (the divide and conquer's products on the device, whose
# sizes follow the deflation; a bisection's few bytes)
bytes() {
    awk '/ profile: stage=/ && !/stage=stage3 / {
            for (i = 1; i <= NF; i++) if ($i ~ /^bytes=/) b = substr($i, 7) + 0
            if ($0 ~ /op="write( lane)?"/) w += b; if ($0 ~ /op="read( lane)?"/) r += b; b = 0 }
        END { printf "%.0f %.0f\n", w, r }' <<<"$1"
}
# near <up> <down> <model up> <model down>: 1 when both are within 2%
near() {
    awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
        print (a >= 0.98 * c && a <= 1.02 * c && b >= 0.98 * d && b <= 1.02 * d) ? 1 : 0 }'
}
# streamed_fields: peak and plan of the streamed call's $log, and seg,
# the sweeps per parked segment of its chase (0 where its store, or the
# SVD's two, stay on the device)
streamed_fields() {
    peak=$(field "$log" "device peak") plan=$(field "$log" device_bytes)
    seg=$(grep -o 'segments of [0-9]* sweeps' <<<"$log" | head -1 | cut -d' ' -f3)
    grep -Eq "streamed chase: its stores? kept on the device" <<<"$log" && seg=0
}
# streamed_ok <cap MiB>: 1 when $log took plan=streamed, its peak under
# the cap and equal to the plan
streamed_ok() {
    grep -q "path=opencl .*plan=streamed" <<<"$log" && [ -n "$peak" ] &&
        [ "$peak" -le $(mib $1) ] && [ "$peak" = "$plan" ] && echo 1 || echo 0
}
# ratios_ok <log>: 1 when LAPACK's three SVD ratios (auto_call's
# AUTO_CALL_RATIOS) are there and under 30
ratios_ok() {
    grep -o "ratios .*" <<<"$1" | awk '{ ok = NF == 4
            for (i = 2; i <= 4; i++) { split($i, r, "="); if (!(r[2] < 30)) ok = 0 }
            print ok }' | grep -q 1 && echo 1 || echo 0
}
