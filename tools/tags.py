#!/usr/bin/python3
"""`make tags`: tags (vi) and TAGS (Emacs) for the sources, with the
templated definitions under their expanded names.

Universal Ctags indexes the sources; a definition whose name a macro makes
(`int GL_FN(svd)(...)`, `void GL_LAPACK_NAME(gesdd, gesdd)(...)`,
`typedef struct GL_FN(ops) {...}`) is indexed by ctags under the macro's
name only, so for each of them this adds a tag per expanded name, taken
from the comment on the line before, where the sources spell them:

    /* gl_s_svd gl_d_svd gl_c_svd gl_z_svd */
    int GL_FN(svd)(const GL_FN(ops) *ops, ...

A line counts when it calls a GL_ macro at file scope with an identifier
as the first argument and the comment ending on the line before is a list
of names of which one contains that identifier.

    tools/tags.py [--ctags PROGRAM] [--no-etags] [DIR...]
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from c_functions import blank, definitions, expanded_names  # noqa: E402

DIRS = ['include', 'lapack_api', 'kernels', 'runtime', 'tools', 'testing']
MACRO = re.compile(r'\b(GL_[A-Z0-9_]*)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)')


def sources(dirs):
    for d in dirs:
        for root, subdirs, files in os.walk(d):
            subdirs.sort()
            for f in sorted(files):
                if f.endswith(('.c', '.h', '.cu')):
                    yield os.path.join(root, f)


def expanded_tags(path):
    """[(name, line, kind, text of the line)] of the file's templated
    definitions"""
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    lines = text.split('\n')
    code_lines = blank(text).split('\n')
    functions = {at for _, at, _, _ in definitions(text)}
    found = []
    for i, code in enumerate(code_lines):
        if code[:1].isspace() or not code.strip():
            continue            # not at file scope, or nothing there
        macros = MACRO.findall(code)
        if not macros:
            continue
        words = expanded_names(lines, i + 1)
        keys = [arg for _, arg in macros]
        if not any(k in w for w in words for k in keys):
            continue
        if i + 1 in functions:
            kind = 'f'
        elif re.search(r'\b(typedef|struct|union|enum)\b', code):
            kind = 't'
        else:
            kind = 'v' if '=' in code else 'p'
        for w in words:
            found.append((w, i + 1, kind, lines[i]))
    return found


def vi_pattern(line):
    """a line as ctags writes its search pattern"""
    return '/^' + line.replace('\\', '\\\\').replace('/', '\\/') + '$/'


def main(argv):
    ctags, etags, dirs = 'ctags', True, []
    while argv:
        a = argv.pop(0)
        if a == '--ctags':
            ctags = argv.pop(0)
        elif a == '--no-etags':
            etags = False
        else:
            dirs.append(a)
    dirs = [d for d in (dirs or DIRS) if os.path.isdir(d)]
    files = list(sources(dirs))
    common = [ctags, '--map-C=+.h', '--map-C++=-.h', '--fields=+n', '-L', '-']
    extra = {f: expanded_tags(f) for f in files}
    count = sum(len(v) for v in extra.values())

    out = subprocess.run(common + ['-f', '-'], input='\n'.join(files),
                         capture_output=True, text=True, check=True).stdout
    head = [l for l in out.split('\n') if l.startswith('!_')]
    body = [l for l in out.split('\n') if l and not l.startswith('!_')]
    for f, tags in extra.items():
        for name, line, kind, text in tags:
            body.append(f'{name}\t{f}\t{vi_pattern(text)};"\t{kind}\tline:{line}')
    body.sort(key=lambda l: l.encode())
    with open('tags', 'w', encoding='utf-8') as t:
        t.write('\n'.join(head + body) + '\n')

    if etags:
        out = subprocess.run(common + ['-e', '-f', '-'], input='\n'.join(files),
                             capture_output=True, text=True, check=True).stdout
        with open('TAGS', 'w', encoding='utf-8') as t:
            t.write(out)
            for f, tags in extra.items():
                if not tags:
                    continue
                offsets, pos = [], 0
                with open(f, encoding='utf-8', errors='replace') as src:
                    for line in src.read().split('\n'):
                        offsets.append(pos)
                        pos += len(line.encode()) + 1
                section = ''.join(f'{text}\x7f{name}\x01{line},{offsets[line - 1]}\n'
                                  for name, line, _, text in tags)
                t.write(f'\x0c\n{f},{len(section.encode())}\n{section}')
    print(f'tags{" and TAGS" if etags else ""}: {len(body)} tags, {count} of '
          f'them expanded names of templated definitions')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
