#!/bin/bash
# docs/performance.md: its generated tables are those tools/perf_doc.py
# makes from docs/data/ (no table edited by hand, none stale after a data
# or script change: `make perf-doc` rewrites them), the file stays under
# LIMIT bytes (30000: one current table per machine, the designs in
# docs/design/, older results out of it), and every docs/design/
# file it links to exists.  Python 3's standard library only.
cd "$(dirname "$0")/../.."
DOC=${CHECK_PERF_DOC:-docs/performance.md}
LIMIT=${CHECK_PERF_DOC_LIMIT:-30000}
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3

pass() { echo "PASS unit/perf-doc/$1"; }
fail() { echo "FAIL unit/perf-doc/$1: $2"; }

if [ ! -f "$DOC" ]; then
    fail exists "$DOC missing"
    exit 0
fi

out=$("$PY" tools/perf_doc.py --check --doc "$DOC" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
    pass "tables-generated ($(grep -c '<!-- perf-doc: begin ' "$DOC") tables)"
elif [ $rc -eq 1 ]; then
    fail tables-generated "$DOC differs from what tools/perf_doc.py makes of docs/data (run make perf-doc):"
    sed 's/^/    | /' <<<"$out" | head -n 60
else
    fail tables-generated "tools/perf_doc.py --check exited $rc: $(tr '\n' ' ' <<<"$out")"
fi

size=$(wc -c <"$DOC")
if [ "$size" -lt "$LIMIT" ]; then
    pass "size ($size bytes < $LIMIT)"
else
    fail size "$DOC is $size bytes, the limit is $LIMIT"
fi

# Links to docs/design/*.md, relative to the document's folder.
dir=$(dirname "$DOC")
links=$(grep -o '](design/[^)#]*\.md[^)]*)' "$DOC" | sed 's/^](//; s/[#)].*//' | sort -u)
missing=
count=0
for l in $links; do
    count=$((count + 1))
    [ -f "$dir/$l" ] || missing="$missing $l"
done
if [ "$count" -eq 0 ]; then
    fail design-links "$DOC links to no docs/design/ file"
elif [ -z "$missing" ]; then
    pass "design-links ($count files)"
else
    fail design-links "missing:$missing"
fi
