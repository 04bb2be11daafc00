#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that what the sources and guides cite exists in this repository. Prints TAP.

Two checks, each over the files named on the command line:

  --citations FILE...   every section sign cites a section that exists. A "§N" or "§N.M" refers
                        to the last doc/spec/NAME.md named before it in the same file (a Markdown
                        file that has named none refers to its own sections); the document must be
                        in doc/spec/ and carry a heading numbered N (or N.M). A "NAME.md §N" of a
                        document that is not in the repository is reported as such.
  --names FILE...       every `backticked` path and symbol of a guide exists: a token with a slash
                        or a file suffix is a path (relative to the top of the tree or to the guide,
                        or the end of a tracked path: `soft/soft_mr.c`, `irdma_hw.h`); a C
                        identifier with an underscore (or each part of a.b, a->b, a(), and each
                        of a_b/a_c) must occur as a word in the tracked sources.
                        Devargs (key=value), commands (with a space), placeholders (<x>, ...) and
                        fenced code blocks are not names.

    check_refs.py --root SRC [--tree] [--citations FILE...] [--names FILE...]
    check_refs.py --root SRC --expect-failure --citations BROKEN [--names BROKEN]   (self-test:
        exactly the lines of BROKEN marked DEFECT-CITE, DEFECT-NAME must be reported)
"""
import argparse
import os
import re
import subprocess
import sys

SPEC_DOC = re.compile(r'doc/spec/([A-Za-z0-9_-]+\.md)')
OTHER_DOC = re.compile(r'(?<![/\w-])([A-Za-z0-9_-]+\.md)\s+§')
SECTION = re.compile(r'§\s?(\d+(?:\.\d+)*)')
HEADING = re.compile(r'^#+\s+(\d+(?:\.\d+)*)\.?\s')
CODE = re.compile(r'`([^`\n]+)`')
IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
TREE_SUFFIXES = ('.c', '.h', '.md', '.py', '.sh', 'meson.build', '.3', '.1')
SOURCE_SUFFIXES = ('.c', '.h', '.py', '.sh', 'meson.build', 'meson_options.txt')
FILE_SUFFIXES = ('.c', '.h', '.md', '.sh', '.py', '.build', '.json', '.txt', '.3', '.1')
# Paths the guides cite that are not the tree's: DPDK's telemetry client, the kernel driver's
# header lib/uk is named after, install directories, a system library.
EXTERNAL = {'dpdk-telemetry.py', 'user.h', 'include/irdma/', 'mandir/man3', 'libgcc_s.so.1'}


def tracked(root):
    r = subprocess.run(['git', '-C', root, 'ls-files'], capture_output=True, text=True)
    if r.returncode == 0 and r.stdout:
        return r.stdout.split()
    out = []      # not a git checkout (a source tarball): walk the tree
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith('.') and not x.startswith('build')]
        out += [os.path.relpath(os.path.join(d, f), root) for f in files]
    return out


def sections(path):
    nums = set()
    for line in open(path, encoding='utf-8'):
        m = HEADING.match(line)
        if m:
            nums.add(m.group(1))
    return nums


def check_citations(root, path, files):
    """Yields (line, message) for every section sign that does not resolve."""
    spec_dir = os.path.join(root, 'doc', 'spec')
    own = path.endswith('.md')
    current = None
    for n, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
        for m in OTHER_DOC.finditer(line):
            name = m.group(1)
            if not line[:m.start()].endswith('doc/spec/') and name not in files:
                yield n, f'cites {name}, which is not in this repository'
        # Walk the line left to right: a document name changes what the signs after it cite.
        events = [(m.start(), 'doc', m.group(1)) for m in SPEC_DOC.finditer(line)]
        events += [(m.start(), 'sec', m.group(1)) for m in SECTION.finditer(line)]
        for _, kind, val in sorted(events):
            if kind == 'doc':
                current = val
                if not os.path.isfile(os.path.join(spec_dir, val)):
                    yield n, f'doc/spec/{val} does not exist'
                continue
            if current is None:
                if own:
                    if val not in sections(path):
                        yield n, f'§{val}: no such section in this document'
                else:
                    yield n, f'§{val} names no document (cite doc/spec/NAME.md §N)'
                continue
            doc = os.path.join(spec_dir, current)
            if os.path.isfile(doc) and val not in sections(doc):
                yield n, f'§{val}: doc/spec/{current} has no section {val}'


def source_words(root, files):
    words = set()
    for f in files:
        if f.endswith(SOURCE_SUFFIXES) and not f.startswith('doc/'):
            try:
                text = open(os.path.join(root, f), encoding='utf-8', errors='replace').read()
            except OSError:
                continue
            words.update(re.findall(r'[A-Za-z_][A-Za-z0-9_]*', text))
    return words


def check_names(root, path, files, basenames, words):
    dirs = {os.path.dirname(f) for f in files}
    dirs |= {d.rsplit('/', k)[0] for d in list(dirs) for k in range(1, d.count('/') + 1)}
    fenced = False
    for n, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.lstrip().startswith('```'):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in CODE.finditer(line):
            tok = m.group(1).strip()
            if (' ' in tok or '=' in tok or '<' in tok or '...' in tok or '*' in tok
                    or tok in EXTERNAL or tok.startswith(('-', '/', '$', '.', '_'))
                    or re.match(r'^[0-9.:]+$', tok)):
                continue
            alts = tok.split('/')
            if len(alts) > 1 and all(IDENT.match(x) for x in alts):
                names = [x for x in alts if '_' in x]     # `a_b/a_c`: alternatives, not a path
            elif '/' in tok or tok.endswith(FILE_SUFFIXES):
                p = tok.rstrip('/')
                if (os.path.exists(os.path.join(root, p)) or p in basenames
                        or os.path.exists(os.path.join(os.path.dirname(path), p))
                        or any(d == p or d.endswith('/' + p) for d in dirs)
                        or any(f.endswith('/' + p) for f in files)):
                    continue
                yield n, f'`{tok}`: no such path'
                continue
            else:
                names = [tok]
            for name in names:
                parts = [x for x in re.split(r'\.|->|\(\)|\[\]', name) if x]
                if not parts or not all(IDENT.match(x) for x in parts):
                    continue
                if not any('_' in x for x in parts):
                    continue      # plain words (`state`, `NULL`) are English, not names
                for x in parts:
                    if x not in words:
                        yield n, f'`{tok}`: {x} is in no source file'
                        break


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--citations', nargs='*', default=[])
    ap.add_argument('--tree', action='store_true',
                    help='check the citations of every tracked source and document (not doc/spec/, the fixtures, this script)')
    ap.add_argument('--names', nargs='*', default=[])
    ap.add_argument('--expect-failure', action='store_true')
    a = ap.parse_args()
    files = set(tracked(a.root))
    basenames = {os.path.basename(f) for f in files} | {os.path.basename(f.rstrip('/')) for f in files}
    words = source_words(a.root, files) if a.names else set()
    if a.tree:
        a.citations += [os.path.join(a.root, f) for f in sorted(files)
                        if f.endswith(TREE_SUFFIXES) and not f.startswith(('doc/spec/', 'tests/doc/fixtures/'))
                        and f != 'tests/doc/check_refs.py'     # its own usage text
                        and '§' in open(os.path.join(a.root, f), encoding='utf-8', errors='replace').read()]
    results = []
    for p in a.citations:
        results.append((f'citations {os.path.relpath(p, a.root)}', list(check_citations(a.root, p, files))))
    for p in a.names:
        results.append((f'names {os.path.relpath(p, a.root)}', list(check_names(a.root, p, files, basenames, words))))
    print(f'1..{len(results)}')
    failed = 0
    for i, (name, errs) in enumerate(results, 1):
        path = os.path.join(a.root, name.split(maxsplit=1)[1])
        if a.expect_failure:
            # A fixture marks each defective line with DEFECT-CITE or DEFECT-NAME: exactly
            # those of the check's kind must be reported.
            mark = 'DEFECT-CITE' if name.startswith('citations') else 'DEFECT-NAME'
            lines = open(path, encoding='utf-8').read().splitlines()
            marked = {n for n, line in enumerate(lines, 1) if mark in line}
            got = {line for line, _ in errs}
            ok = bool(marked) and marked == got
        else:
            ok = not errs
        failed += not ok
        print(f'{"ok" if ok else "not ok"} {i} - {name}')
        for line, msg in errs:
            print(f'#   {os.path.basename(path)}:{line}: {msg}')
        if a.expect_failure:
            for n in sorted(marked - got):
                print(f'#   {os.path.basename(path)}:{n}: a defect the checker missed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
