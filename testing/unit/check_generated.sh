#!/bin/bash
# unit/generated: the files tools/routines.py generates from its table of
# routines (lapack_api/generated/*.inc, the export wrappers and the entry
# plumbing of every routine; lapack_api/generated/exports.txt, the names
# the library exports; tools/tune_families.inc, gpulapack-tune's families)
# are committed; this re-runs the generator into a temporary directory
# and fails, with the diff, when a committed file differs or is missing,
# or when lapack_api/generated/ holds a file the generator no longer
# writes.  After editing the table: /usr/bin/python3 tools/routines.py.
# Then the same for the settings' table (tools/settings.py, below).
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

# The settings' table (runtime/settings.def, tools/settings.py): docs/env.md's
# tables and gpulapack.SETTINGS as the script writes them, and every
# GPULAPACK_ variable the sources read by name (a getenv or os.environ
# literal in the library, the interposer, the Python package, the tools)
# declared there; in the two libraries (runtime, lapack_api, kernels,
# scalapack) only a GL_SETTING_ELSEWHERE row's: the rows the generated
# readers read (the library's and the ScaLAPACK interposer's) are read by
# them alone (a tool may show a variable's text: gpulapack-info's
# GPULAPACK_DEVICE).  After editing the table:
# /usr/bin/python3 tools/settings.py.
settings_tmp=$tmp/settings
if ! out=$(/usr/bin/python3 tools/settings.py --out "$settings_tmp" 2>&1); then
    fail settings "tools/settings.py failed: $out"
    exit 0
fi
bad=()
for f in docs/env.md python/gpulapack/__init__.py; do
    if ! d=$(diff -u "$f" "$settings_tmp/$f"); then
        echo "$d" | sed 's/^/    /'
        bad+=("$f differs from what tools/settings.py writes")
    fi
done
all=$(/usr/bin/python3 tools/settings.py --list-all)
declared=$(awk '{print $1}' <<<"$all" | sort -u)
by_table=$(awk '$2 == "table" {print $1}' <<<"$all" | sort -u)
by_name() {
    grep -rhoE '(getenv|environ\.get|env_int)\("GPULAPACK_[A-Z0-9_]+"' "$@" |
        sed 's/.*"GPULAPACK_//; s/"$//' | sort -u
}
for v in $(by_name runtime lapack_api kernels scalapack python/gpulapack tools); do
    grep -qxF "$v" <<<"$declared" || bad+=("GPULAPACK_$v is read but not declared in runtime/settings.def")
done
for v in $(by_name runtime lapack_api kernels scalapack); do
    grep -qxF "$v" <<<"$by_table" &&
        bad+=("GPULAPACK_$v is read by name in the libraries, besides its row's generated reader")
done
if [ ${#bad[@]} -eq 0 ]; then
    pass "settings ($(wc -l <<<"$declared") variables; docs/env.md and gpulapack.SETTINGS as tools/settings.py writes them)"
else
    fail settings "$(printf '%s; ' "${bad[@]}")"
fi
