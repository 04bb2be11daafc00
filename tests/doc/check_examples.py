#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compiles the C examples of the guides and prints TAP.

A guide marks an example with an HTML comment right before its indented code block:

    <!-- compile: rte_pmd_irdma.h string.h | void *buf, size_t len -->

The words before '|' are headers to include, the text after it the parameter list of the function
the block becomes the body of. Each block is compiled with -Wall -Wextra -Werror (warnings about
unused parameters aside) and the given flags; a block whose headers are not installed is skipped.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

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
    ap.add_argument('--cc', action='append', required=True, help='compiler command word (repeatable)')
    ap.add_argument('--cflag', action='append', default=[], help='compiler flag (repeatable)')
    ap.add_argument('--expect-failure', action='store_true',
                    help='self-test: every example is broken on purpose and must fail to compile')
    ap.add_argument('guides', nargs='+')
    a = ap.parse_args()

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
