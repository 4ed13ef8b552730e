#!/bin/bash
# unit/paths: every file and folder of this tree that a comment, a doc or
# a script names is in the tree (tools/paths.py: a path from the root or
# from the naming file's folder, a glob that matches, a folder, a bare
# file name that was a file here once; no `file.c:123`, which rots: name
# the function).  docs/history.md and docs/data/ record the tree as it
# was and are not read.  A failure lists FILE:LINE: MENTION (why); after
# moving a file, run /usr/bin/python3 tools/paths.py until it lists none.
cd "$(dirname "$0")/../.."
out=$(/usr/bin/python3 tools/paths.py 2>&1)
rc=$?
summary=$(tail -n 1 <<<"$out")
if [ $rc -eq 0 ]; then
    echo "PASS unit/paths ($summary)"
elif [ $rc -eq 1 ]; then
    sed '$d; s/^/    /' <<<"$out"
    echo "FAIL unit/paths: $summary: $(sed '$d' <<<"$out" | head -n 5 | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
else
    sed 's/^/    /' <<<"$out"
    echo "FAIL unit/paths: tools/paths.py failed (exit $rc)"
fi
