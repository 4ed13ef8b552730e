#!/usr/bin/python3
"""The function definitions of C sources, found without a compiler.

    tools/c_functions.py [--max N] FILE...

prints one line per function definition at file scope, sorted by length
(longest first): `LENGTH FILE:LINE NAME`, where LENGTH counts the lines
from the opening brace of the body to the closing brace, both included,
and NAME is as written (`GL_FN(svd)` for a templated definition, with its
expanded names from the comment on the line before when there is one).
With --max N only the definitions longer than N lines are printed, and the
exit status is 1 when there is one (testing/unit/check_function_length.sh);
2 when a file's braces do not pair up (its count cannot be trusted).

A definition is a `{` at file scope whose declarator ends in a `)`: plain
functions, `GL_FN(name)(...) {`, `GL_LAPACK_NAME(a, b)(...) {` and any
macro-made name.  Struct, union and enum bodies and initialisers (`= {`)
are not functions.  Comments, string and character literals and
preprocessor lines (with their continuations) are blanked first, so a
`#define` body or a brace in a string never counts.

Also a module: tools/tags.py and testing/unit/check_thread_locals.sh use
`definitions()`, `expanded_names()` and `blank()`.
"""
import re
import sys


def blank(text, preprocessor=True):
    """text with comments, literals and (unless preprocessor is False)
    preprocessor lines replaced by spaces (newlines kept, so offsets and
    line numbers stay)."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True           # only blanks since the last newline
    while i < n:
        c = text[i]
        if c == '\n':
            line_start = True
            i += 1
            continue
        if line_start and c == '#' and preprocessor:
            # a preprocessor line and its backslash continuations
            j = i
            while j < n:
                if text[j] == '\n':
                    if j > 0 and text[j - 1] == '\\':
                        j += 1
                        continue
                    break
                if text.startswith('/*', j):
                    k = text.find('*/', j + 2)
                    j = n if k < 0 else k + 2
                    continue
                j += 1
            for k in range(i, j):
                if out[k] != '\n':
                    out[k] = ' '
            i = j
            continue
        if not c.isspace():
            line_start = False
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = ' '
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != '\n':
                    out[k] = ' '
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            for k in range(i + 1, min(j, n)):
                out[k] = ' '
            i = j + 1
        else:
            i += 1
    return ''.join(out)


def _matching_open(code, close):
    """index of the '(' matching the ')' at close, or -1"""
    depth = 0
    for i in range(close, -1, -1):
        if code[i] == ')':
            depth += 1
        elif code[i] == '(':
            depth -= 1
            if depth == 0:
                return i
    return -1


_IDENT_END = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)\s*$')
# attributes after the parameter list: __attribute__((...)), a macro such
# as GL_NORETURN, ...
_TRAILING_ATTR = re.compile(r'(__attribute__\s*\(\(.*\)\)|[A-Z_][A-Z0-9_]*)\s*$',
                            re.S)


def _name(code, head_end):
    """(name, index of the name) of the declarator of a body whose head
    ends at head_end (just past its last ')'), or None when it is no
    function."""
    close = head_end - 1
    opened = _matching_open(code, close)       # the parameter list
    if opened < 0:
        return None
    before = code[:opened].rstrip()
    if before.endswith(')'):
        # a macro-made name: GL_FN(svd)(...), or (*f)(...)
        inner = _matching_open(code, len(before) - 1)
        if inner < 0:
            return None
        ptr = re.match(r'\(\s*\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(',
                       code[inner:])
        if ptr:                 # a function returning a function pointer
            return ptr.group(1), inner + ptr.start(1)
        m = _IDENT_END.search(code[:inner])
        if not m:
            return None
        return (m.group(1) + re.sub(r'\s+', ' ', code[inner:len(before)]),
                m.start(1))
    m = _IDENT_END.search(before)
    if not m or m.group(1) in ('if', 'for', 'while', 'switch', 'return',
                               'sizeof'):
        return None
    if re.search(r'\b(struct|union|enum)\s*$', before[:m.start(1)]):
        return None             # struct GL_FN(ops) { ... }
    return m.group(1), m.start(1)


def definitions(text):
    """[(name, name_line, first_line, last_line)] of the file-scope
    function definitions of a C source (lines from 1; first_line the line
    of the body's '{', last_line that of its '}')."""
    code = blank(text)
    found = []
    depth = 0
    head_start = 0              # where the current file-scope item began
    body = None
    line = 1
    for i, c in enumerate(code):
        if c == '\n':
            line += 1
        elif c == '{':
            if depth == 0:
                head = code[head_start:i].rstrip()
                # drop attributes/macros after the parameter list
                while True:
                    m = _TRAILING_ATTR.search(head)
                    if not m or not head[:m.start()].rstrip().endswith(')'):
                        break
                    head = head[:m.start()].rstrip()
                named = None
                if head.endswith(')') and not re.search(r'=\s*$', head):
                    named = _name(code, head_start + len(head))
                body = None
                if named:
                    body = (named[0], code.count('\n', 0, named[1]) + 1, line)
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                if body:
                    found.append(body + (line,))
                body = None
                head_start = i + 1
            elif depth < 0:
                depth = 0
        elif c == ';' and depth == 0:
            head_start = i + 1
    return found


def unbalanced(text):
    """1 when the braces of the file (comments, literals and preprocessor
    lines left out) do not pair up: then definitions() cannot be trusted
    (a body opened in both branches of an #if, say)"""
    depth = 0
    for c in blank(text):
        depth += (c == '{') - (c == '}')
        if depth < 0:
            return 1
    return int(depth != 0)


def expanded_names(lines, line):
    """The words of the comment that ends on the line before `line` (lines
    from 1), when that comment is a list of names; else []."""
    prev = lines[line - 2] if line >= 2 else ''
    if not prev.rstrip().endswith('*/'):
        return []
    k = line - 2
    chunk = [prev]
    while '/*' not in lines[k] and k > 0:
        k -= 1
        chunk.insert(0, lines[k])
    words = re.sub(r'/\*|\*/|^\s*\*', ' ', '\n'.join(chunk), flags=re.M).split()
    if words and all(re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', w) for w in words):
        return words
    return []


def main(argv):
    limit = None
    if argv[:1] == ['--max']:
        limit = int(argv[1])
        argv = argv[2:]
    rows, bad = [], 0
    for path in argv:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        if unbalanced(text):
            print(f'c_functions.py: {path}: braces do not pair up outside '
                  'comments, strings and preprocessor lines', file=sys.stderr)
            bad = 1
        lines = text.split('\n')
        for name, at, first, last in definitions(text):
            length = last - first + 1
            if limit is not None and length <= limit:
                continue
            words = expanded_names(lines, at)
            shown = name + (' [' + ' '.join(words) + ']'
                            if words and '(' in name else '')
            rows.append((length, path, at, shown))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    for length, path, at, shown in rows:
        print(f'{length:5d} {path}:{at} {shown}')
    if bad:
        return 2
    return 1 if limit is not None and rows else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
