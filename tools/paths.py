#!/usr/bin/python3
"""The mentions of this tree's files and folders that name none of them.

    tools/paths.py          list them, FILE:LINE: MENTION (why); exit 1 if any

Read are the text files of the tree (git ls-files, the untracked ones
not ignored too; outside a checkout every file under the root), but docs/history.md and docs/data/, which record
the tree as it was.  Three kinds of mention:

  a path     kernels/..., runtime/..., lapack_api/..., testing/...,
             tools/..., scalapack/..., docs/..., python/..., include/...
             ending in .c .h .cu .py .sh .md .def .inc or .S, taken from
             the root or from the mentioning file's folder; a glob (`*`
             within one folder, `{a,b}`) must match a file.  A path with a
             line number after it (`file.c:123`) counts too: lines move,
             name the function instead.  A `{name}` without a comma is a
             placeholder (a format string), not checked.
  a folder   the same tops, ending in `/` (kernels/backend/host/); a
             verdict's name after PASS/FAIL is not a folder.
  a name     a bare file name (no folder) that was a file of the tree
             once (git log's deleted files) and is none now.

Used by testing/unit/check_paths.sh (unit/paths).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
SKIP = ('docs/history.md', 'docs/data/')
TOP = r'(?:kernels|runtime|lapack_api|testing|tools|scalapack|docs|python|include)'
EXT = r'(?:c|h|cu|py|sh|md|def|inc|S)'
AFTER_PATH = r'(?<![A-Za-z0-9_./$-])'
PATH = re.compile(AFTER_PATH + r'(' + TOP + r'/[A-Za-z0-9_./*{},-]*?\.' + EXT +
                  r')(?![A-Za-z0-9_])(:[0-9]+)?')
FOLDER = re.compile(AFTER_PATH + r'(' + TOP + r'/(?:[A-Za-z0-9_-]+/)+)(?![A-Za-z0-9_.*{<$-])')
NAME = re.compile(AFTER_PATH + r'([A-Za-z0-9_-]+\.' + EXT + r')(?![A-Za-z0-9_/])')
VERDICT = re.compile(r'(PASS|FAIL)\)? $')


def git(*args):
    try:
        r = subprocess.run(['git', '-C', ROOT, *args], capture_output=True, text=True)
    except OSError:
        return None
    return r.stdout if r.returncode == 0 else None


def tree_files():
    out = git('ls-files', '-z', '--cached', '--others', '--exclude-standard')
    if out:
        return [f for f in out.split('\0') if f and os.path.isfile(os.path.join(ROOT, f))]
    files = []
    for d, subdirs, names in os.walk(ROOT):
        subdirs[:] = [s for s in subdirs if not s.startswith('.') and
                      (d != ROOT or s not in ('build', 'lib', 'bin'))]
        files += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
    return files


def braces(p):
    m = re.search(r'\{([^{}]*)\}', p)
    if not m:
        return [p]
    return [q for alt in m.group(1).split(',')
            for q in braces(p[:m.start()] + alt + p[m.end():])]


def glob_re(p):
    return re.compile(''.join('[^/]*' if c == '*' else re.escape(c) for c in p) + r'\Z')


def main():
    files = tree_files()
    tracked = set(files)
    folders = set()
    for f in files:
        d = os.path.dirname(f)
        while d and d not in folders:
            folders.add(d)
            d = os.path.dirname(d)
    names = {os.path.basename(f) for f in files}
    deleted = git('log', '--no-renames', '--diff-filter=D', '--format=', '--name-only', 'HEAD')
    gone = {os.path.basename(f) for f in (deleted or '').split()} - names

    def is_file(p):
        if '{' in p and not re.search(r'\{[^{}]*,[^{}]*\}', p):
            return True   # a placeholder: lapack_api/{r}.c
        if '*' in p or '{' in p:
            return any(any(g.match(f) for f in tracked) for g in map(glob_re, braces(p)))
        return p in tracked

    dead = []
    for f in files:
        if f in SKIP or f.startswith(SKIP):
            continue
        try:
            with open(os.path.join(ROOT, f), encoding='utf-8') as fh:
                text = fh.read()
        except (UnicodeDecodeError, OSError):
            continue
        here = os.path.dirname(f)
        for n, line in enumerate(text.splitlines(), 1):
            if '/' in line:
                for m in PATH.finditer(line):
                    p = m.group(1)
                    if m.group(2):
                        dead.append((f, n, m.group(0), 'a line number: name the function'))
                    elif not (is_file(p) or is_file(os.path.normpath(os.path.join(here, p)))):
                        dead.append((f, n, p, 'no such file'))
                for m in FOLDER.finditer(line):
                    d = m.group(1).rstrip('/')
                    if (d not in folders and os.path.normpath(os.path.join(here, d)) not in folders
                            and not VERDICT.search(line[:m.start()])):
                        dead.append((f, n, m.group(1), 'no such folder'))
            if gone:
                for m in NAME.finditer(line):
                    if m.group(1) in gone:
                        dead.append((f, n, m.group(1), 'a file of the tree no longer'))
    for f, n, mention, why in dead:
        print(f'{f}:{n}: {mention} ({why})')
    print(f'{len(files)} files read, {len(dead)} dead mentions', file=sys.stderr)
    return 1 if dead else 0


if __name__ == '__main__':
    sys.exit(main())
