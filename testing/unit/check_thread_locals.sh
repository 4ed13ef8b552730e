#!/bin/bash
# unit/thread-locals: no thread-local state in the library but the allowed.
# Nothing a device operation runs on may be chosen by a thread-local (an
# explicit context, gl_ctx, carries it), so every `_Thread_local`,
# `__thread`, `thread_local`, `pthread_key_create`, `pthread_setspecific`
# (and C11's `tss_create`, `tss_set`) in the library's sources (runtime/,
# kernels/, lapack_api/; comments and strings left out) must be in the
# allow-list below, by file AND variable name, and must be documented: a
# comment on the same line, or one ending on the line before (a group of
# thread-local declarations shares the comment above its first), that says
# "per-thread" (or "per thread", "each thread", "thread-local").
#
# The allow-list: add a per-thread cache here only with its comment in the
# source saying why it is per thread.
ALLOWED="
runtime/real_lapack.c:forward_depth
runtime/timing.c:last
"
cd "$(dirname "$0")/../.."
files=$(find runtime kernels lapack_api -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) | sort)
ALLOWED="$ALLOWED" /usr/bin/python3 - $files <<'EOF'
import os, re, sys
sys.path.insert(0, 'tools')
from c_functions import blank

allowed = set(os.environ['ALLOWED'].split())
keyword = re.compile(r'\b(_Thread_local|__thread|thread_local|pthread_key_create'
                     r'|pthread_setspecific|tss_create|tss_set)\b')
documented = re.compile(r'per[- ]thread|each thread|thread[- ]local', re.I)


def names(code, at, word):
    """the variables of the occurrence of word at index at"""
    rest = code[at + len(word):]
    if word in ('pthread_key_create', 'pthread_setspecific', 'tss_create',
                'tss_set'):
        m = re.match(r'\s*\(\s*&?\s*([A-Za-z_][A-Za-z0-9_.>-]*)', rest)
        return [re.split(r'\.|->', m.group(1))[-1]] if m else ['?']
    # the declarators up to the ';' at depth 0, a struct's body left out:
    # `static _Thread_local struct { ... } last, *p = 0;` -> last, p
    found, depth, part = [], 0, ''
    for c in rest:
        end = c == ';' and depth == 0
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        if (c == ',' or end) and depth == 0:
            head = re.split(r'[=\[]', part)[0]
            m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*$', head)
            found.append(m.group(1) if m else '?')
            part = ''
            if end:
                break
        elif depth == 0 and c not in ')]}':
            part += c
    return found or ['?']


def is_documented(lines, code_lines, k):
    """line k (from 0) or the comment above it (or above its group of
    thread-local declarations) says it is per thread"""
    if documented.search(lines[k]):
        return True
    k -= 1
    while k >= 0 and keyword.search(code_lines[k]):
        if documented.search(lines[k]):
            return True
        k -= 1
    if k < 0:
        return False
    line = lines[k].rstrip()
    if line.lstrip().startswith('//'):
        chunk = []
        while k >= 0 and lines[k].lstrip().startswith('//'):
            chunk.append(lines[k])
            k -= 1
        return bool(documented.search(' '.join(chunk)))
    if not line.endswith('*/'):
        return False
    chunk = []
    while k >= 0:
        chunk.append(lines[k])
        if '/*' in lines[k]:
            break
        k -= 1
    return bool(documented.search(' '.join(chunk)))


bad, good = [], []
for path in sys.argv[1:]:
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    code = blank(text, preprocessor=False)
    lines, code_lines = text.split('\n'), code.split('\n')
    for m in keyword.finditer(code):
        line = code.count('\n', 0, m.start())
        for var in names(code, m.start(), m.group(1)):
            where = f'{path}:{line + 1} {m.group(1)} {var}'
            if f'{path}:{var}' not in allowed:
                bad.append(f'{where}: not in the allow-list')
            elif not is_documented(lines, code_lines, line):
                bad.append(f'{where}: allowed, but no "per-thread" comment '
                           'on its line or the line before')
            else:
                good.append(f'{path}:{var}')
for b in bad:
    print('   ', b)
if bad:
    print(f'FAIL unit/thread-locals: {len(bad)} thread-local use(s) not '
          'allowed or not documented: '
          + ', '.join(b.split(' ')[0] + ' ' + b.split(' ')[2].rstrip(':')
                      for b in bad))
else:
    print(f'PASS unit/thread-locals ({len(good)} allowed: '
          f'{" ".join(sorted(set(good)))})')
EOF
