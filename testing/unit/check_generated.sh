#!/bin/bash
# unit/generated: the files tools/routines.py generates from its table of
# routines (lapack_api/generated/*.inc, the export wrappers and the entry
# plumbing of every routine; lapack_api/generated/exports.txt, the names
# the library exports; tools/tune_families.inc, gpulapack-tune's families)
# are committed; this re-runs the generator into a temporary directory
# and fails, with the diff, when a committed file differs or is missing,
# or when lapack_api/generated/ holds a file the generator no longer
# writes.  After editing the table: /usr/bin/python3 tools/routines.py.
cd "$(dirname "$0")/../.."

pass() { echo "PASS unit/generated/$1"; }
fail() { echo "FAIL unit/generated/$1: $2"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! out=$(/usr/bin/python3 tools/routines.py --out "$tmp" 2>&1); then
    fail generator "tools/routines.py failed: $out"
    exit 0
fi
files=$(cd "$tmp" && find . -type f | sed 's|^\./||' | sort)
bad=()
for f in $files; do
    if [ ! -f "$f" ]; then
        bad+=("$f: missing (run tools/routines.py)")
    elif ! d=$(diff -u "$f" "$tmp/$f"); then
        echo "$d" | sed 's/^/    /'
        bad+=("$f differs from what tools/routines.py writes")
    fi
done
for f in $(find lapack_api/generated -type f | sort); do
    grep -qxF "$f" <<<"$files" || bad+=("$f: not written by tools/routines.py")
done
n=$(wc -l <<<"$files")
if [ ${#bad[@]} -eq 0 ]; then
    pass "current ($n files as tools/routines.py writes them)"
else
    fail current "$(printf '%s; ' "${bad[@]}")"
fi
