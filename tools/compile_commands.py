#!/usr/bin/python3
"""`make compile_commands.json`: the compilation database clangd reads.

The Makefile passes its compile commands in the environment variable
GL_COMPILE_COMMANDS, one per line, as its rules give them (the templates
compiled for precision d, the tests and tools with their own flags); each
line is split as the shell would split it, and its source is the argument
after -c.  Writes the JSON to standard output.  No build runs.  GCC's
flags that clang does not know (GCC_ONLY) are left out: clangd stops at
them.
"""
import json
import os
import shlex
import sys

GCC_ONLY = {'-fcx-fortran-rules'}


def main():
    root = os.getcwd()
    entries, seen = [], set()
    for line in os.environ.get('GL_COMPILE_COMMANDS', '').split('\n'):
        if not line.strip():
            continue
        args = [a for a in shlex.split(line) if a not in GCC_ONLY]
        if '-c' not in args or args.index('-c') + 1 >= len(args):
            print(f'compile_commands.py: no -c in: {line}', file=sys.stderr)
            return 1
        source = args[args.index('-c') + 1]
        if source in seen or not os.path.exists(source):
            continue                # the first command of a file wins
        seen.add(source)
        entries.append({'directory': root, 'file': source, 'arguments': args})
    json.dump(entries, sys.stdout, indent=1)
    sys.stdout.write('\n')
    print(f'compile_commands.json: {len(entries)} files', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
