#!/bin/bash
# unit/function-length: no function of the library (the .c and .h files of
# runtime/, kernels/ and lapack_api/, kernels/device/ and kernels/backend/host/
# included) is longer than GL_MAX_FUNCTION_LINES (120) lines, counted from
# the line of the body's opening brace to its closing brace, both included.
# tools/c_functions.py finds the definitions at file scope (templated ones,
# GL_FN(name)(...) { ... }, included; struct bodies and initialisers are
# not functions) and lists the offenders, longest first:
#   LENGTH FILE:LINE NAME [its expanded names]
cd "$(dirname "$0")/../.."
max=${GL_MAX_FUNCTION_LINES:-120}
files=$(find runtime kernels lapack_api -type f \( -name '*.c' -o -name '*.h' \) | sort)
count=$(/usr/bin/python3 tools/c_functions.py $files | wc -l)
over=$(/usr/bin/python3 tools/c_functions.py --max "$max" $files)
rc=$?
if [ $rc -eq 0 ] && [ "$count" -gt 0 ]; then
    echo "PASS unit/function-length ($count functions, none over $max lines)"
elif [ $rc -eq 1 ]; then
    sed 's/^/    /' <<<"$over"
    echo "FAIL unit/function-length: $(wc -l <<<"$over") of $count functions over $max lines:" \
        "$(awk '{ name = $0; sub(/^ *[0-9]+ [^ ]+ /, "", name); sub(/ \[.*/, "", name)
                   printf "%s%s (%s, %d)", (NR > 1 ? ", " : ""), name, $2, $1 }' <<<"$over")"
else
    echo "FAIL unit/function-length: tools/c_functions.py failed (exit $rc, $count functions)"
fi
