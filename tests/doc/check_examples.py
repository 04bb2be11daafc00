#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compiles the C examples of the guides and prints TAP.

A guide marks an example with an HTML comment right before its indented code block:

    <!-- compile: rte_pmd_irdma.h string.h | void *buf, size_t len -->

The words before '|' are headers to include, the text after it the parameter list of the function
the block becomes the body of. Each block is compiled with -Wall -Wextra -Werror (warnings about
unused parameters aside) and the given flags; a block whose headers are not installed is skipped.

With --commands the checker turns to the shell commands of the guides instead: every code block
must carry a marker, and the blocks marked `run` are executed (see guide_commands.py).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guide_commands  # noqa: E402

MARK = re.compile(r'^<!-- compile: (?P<inc>[^|]*)\|(?P<params>.*?) -->\s*$')


def examples(path):
    lines = open(path, encoding='utf-8').read().splitlines()
    out = []
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        body = []
        while j < len(lines) and (lines[j].startswith('    ') or not lines[j].strip()):
            body.append(lines[j][4:])
            j += 1
        while body and not body[-1].strip():
            body.pop()
        out.append((i + 1, m.group('inc').split(), m.group('params').strip(), '\n'.join(body)))
    return out


def compile_c(cc, flags, source):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, 'example.c')
        open(src, 'w', encoding='utf-8').write(source)
        r = subprocess.run(cc + ['-std=gnu11', '-Wall', '-Wextra', '-Werror', '-Wno-unused-parameter',
                                 '-fsyntax-only'] + flags + [src], capture_output=True, text=True)
    return r.returncode, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cc', action='append', help='compiler command word (repeatable)')
    ap.add_argument('--cflag', action='append', default=[], help='compiler flag (repeatable)')
    ap.add_argument('--expect-failure', action='store_true',
                    help='self-test: every example is broken on purpose and must fail to compile')
    ap.add_argument('--commands', action='store_true',
                    help='check the shell command blocks instead: every block marked, run blocks run')
    ap.add_argument('--source-root', help='with --commands: the top of the source tree')
    ap.add_argument('--build-root', help='with --commands: the build tree, seen by the commands as build/')
    ap.add_argument('guides', nargs='+')
    a = ap.parse_args()

    if a.commands:
        if not a.source_root or not a.build_root:
            ap.error('--commands needs --source-root and --build-root')
        n, failed = guide_commands.check(a.guides, a.source_root, a.build_root,
                                         print_tap=lambda s: print(s, flush=True),
                                         selftest=a.expect_failure)
        print(f'1..{n}')
        return 1 if failed or n == 0 else 0
    if not a.cc:
        ap.error('--cc is required')

    n = failed = 0
    for guide in a.guides:
        found = examples(guide)
        if not found:
            n += 1
            failed += 1
            print(f'not ok {n} - {os.path.basename(guide)}: no marked example (expected at least one)')
            continue
        for line, incs, params, body in found:
            n += 1
            what = f'{os.path.basename(guide)}:{line}: example compiles'
            missing = [h for h in incs if compile_c(a.cc, a.cflag, f'#include <{h}>\n')[0] != 0]
            if missing:
                print(f'ok {n} - {what} # SKIP header {" ".join(missing)} not available')
                continue
            src = ''.join(f'#include <{h}>\n' for h in incs)
            src += f'void doc_example_body({params});\n'
            src += f'void doc_example_body({params})\n{{\n{body}\n}}\n'
            rc, err = compile_c(a.cc, a.cflag, src)
            if a.expect_failure:
                what = f'{os.path.basename(guide)}:{line}: broken example is refused'
                if rc != 0:
                    print(f'ok {n} - {what}')
                    print(f'#   {next((e for e in err.splitlines() if "error" in e), "")}')
                else:
                    failed += 1
                    print(f'not ok {n} - {what}')
            elif rc == 0:
                print(f'ok {n} - {what}')
            else:
                failed += 1
                print(f'not ok {n} - {what}')
                for e in err.strip().splitlines()[:20]:
                    print(f'#   {e}')
    print(f'1..{n}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
