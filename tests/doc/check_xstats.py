#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that the documentation cites only xstats the code exports, and lists them all. Prints TAP.

The names come from the running code: xstat_names (built with the PMD) prints every device and QP
counter name. Then:
  * every counter name cited in the documents (backticked in Markdown, bold in man pages) exists;
    a cited name is a word starting with rx_, tx_, cq_ or neigh_, or any word in the first column
    of a table of the xstats reference;
  * the xstats reference (--reference) lists every name the code exports, in the right scope
    (a table whose heading names "QP" holds the QP counters, the others the device's).
Placeholders such as rx_drop_<reason> are not names, nor are two kinds of word that share the prefix:
devargs keys (the first column of a table headed "Key", in any document read, e.g. rx_drop) and test
cases, cited as `program` `case` (a backticked word right after a backticked program name that is not
a counter).

    check_xstats.py --lister xstat_names --reference doc/guides/xstats.md DOC...
    check_xstats.py --names FILE ...     (names from a file of "dev|qp NAME" lines: self-test)
"""
import argparse
import os
import re
import subprocess
import sys

PREFIXED = re.compile(r'^(rx|tx|cq|neigh)_[a-z0-9_]+$')
MD_CODE = re.compile(r'`([^`\s]+)`')
MAN_BOLD = re.compile(r'\\fB([A-Za-z0-9_]+)\\f[PR]')
MD_CASE = re.compile(r'`([a-z][a-z0-9_]*)` `([a-z][a-z0-9_]*)`')   # `program` `case`


def exported(lister, names_file):
    if names_file:
        text = open(names_file, encoding='utf-8').read()
    else:
        prefix = f'irdma_doc_xstats_{os.getpid()}'
        r = subprocess.run([lister, '--no-pci', '--no-huge', '-m', '128', '--no-shconf',
                            f'--file-prefix={prefix}', '-l', '0', '--log-level=lib.eal:error'],
                           capture_output=True, text=True, timeout=60)
        subprocess.run(['rm', '-rf', f'/var/run/dpdk/{prefix}'])
        if r.returncode != 0:
            raise RuntimeError(f'{lister} failed ({r.returncode}): {r.stderr.strip()}')
        text = r.stdout
    dev, qp = set(), set()
    for line in text.splitlines():
        scope, _, name = line.partition(' ')
        if scope in ('dev', 'qp') and name:   # EAL and telemetry may print lines of their own
            (dev if scope == 'dev' else qp).add(name)
    return dev, qp


def table_names(path):
    """(scope, name, line) for the first column of every table; scope 'qp' under a QP heading."""
    out = []
    scope = 'dev'
    counters = False     # inside a table whose first column is headed "Counter"
    prev = ''
    for i, line in enumerate(open(path, encoding='utf-8').read().splitlines(), 1):
        if line.startswith('#'):
            scope = 'qp' if re.search(r'\bQP\b', line) else 'dev'
            continue
        if not line.startswith('|'):
            counters = False
            prev = line
            continue
        if not prev.startswith('|'):
            counters = line.split('|')[1].strip() == 'Counter'   # the header row
        prev = line
        if not counters or re.match(r'^\|\s*-', line):
            continue
        first = line.split('|')[1]
        for name in MD_CODE.findall(first):
            if '<' not in name and re.match(r'^[a-z][a-z0-9_]*$', name):
                out.append((scope, name, i))
    return out


def devargs_keys(paths):
    """Every backticked word in the first column of a table headed "Key" (the devargs tables)."""
    keys = set()
    for path in paths:
        if not path.endswith('.md'):
            continue
        keyed = False
        for line in open(path, encoding='utf-8').read().splitlines():
            if not line.startswith('|'):
                keyed = False
                continue
            first = line.split('|')[1]
            if first.strip() == 'Key':
                keyed = True
            elif keyed:
                keys.update(MD_CODE.findall(first))
    return keys


def cited(path, skip=frozenset(), every=frozenset()):
    """(name, line) for every counter-like word cited in a document, less devargs keys (skip) and
    test cases (`program` `case`, where program is not a counter of every)."""
    out = []
    man = not path.endswith('.md')
    if man and 'xstats' not in os.path.basename(path):
        return out    # elsewhere in the manual pages, rx_/cq_ words are struct fields
    for i, line in enumerate(open(path, encoding='utf-8', errors='replace').read().splitlines(), 1):
        cases = set() if man else {c for p, c in MD_CASE.findall(line)
                                   if p not in every and not PREFIXED.match(p)}
        for name in (MAN_BOLD if man else MD_CODE).findall(line):
            if '<' not in name and PREFIXED.match(name) and name not in skip and name not in cases:
                out.append((name, i))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--lister', help='the xstat_names program')
    ap.add_argument('--names', help='read the exported names from this file instead')
    ap.add_argument('--reference', help='the xstats reference, which must list every name')
    ap.add_argument('--expect-failure', action='store_true',
                    help='self-test: the documents cite names that do not exist; each must be found')
    ap.add_argument('docs', nargs='*')
    a = ap.parse_args()
    if not a.lister and not a.names:
        ap.error('--lister or --names is needed')
    dev, qp = exported(a.lister, a.names)
    every = dev | qp
    n = failed = 0

    def tap(ok, what, notes=()):
        nonlocal n, failed
        n += 1
        if not ok:
            failed += 1
        print(f'{"ok" if ok else "not ok"} {n} - {what}')
        for s in notes:
            print(f'#   {s}')

    tap(len(dev) > 10 and len(qp) > 5, f'the code exports {len(dev)} device and {len(qp)} QP counters')
    docs = []
    for d in a.docs:
        if os.path.isdir(d):
            docs += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(('.md', '.3')))
        else:
            docs.append(d)
    if a.reference and os.path.abspath(a.reference) not in map(os.path.abspath, docs):
        docs.append(a.reference)
    keys = devargs_keys(docs) - every    # a key that is also a counter's name is still checked
    quiet = 0
    for doc in docs:
        name = os.path.basename(doc)
        if not cited(doc, keys, every) and not (a.reference and os.path.abspath(doc) == os.path.abspath(a.reference)):
            quiet += 1
            continue
        unknown = [f'{c} (line {line})' for c, line in cited(doc, keys, every)
                   if c not in every]
        if a.reference and os.path.abspath(doc) == os.path.abspath(a.reference):
            unknown += [f'{c} (line {line}, a table)' for _, c, line in table_names(doc) if c not in every]
        if a.expect_failure:
            tap(bool(unknown), f'{name}: the names that do not exist are found', unknown)
        else:
            tap(not unknown, f'{name}: every counter it cites exists', unknown)
    if quiet:
        print(f'# {quiet} other documents name no counter')
    if a.reference and not a.expect_failure:
        listed = table_names(a.reference)
        ldev = {c for s, c, _ in listed if s == 'dev'}
        lqp = {c for s, c, _ in listed if s == 'qp'}
        tap(not dev - ldev, f'{os.path.basename(a.reference)} lists every device counter',
            sorted(dev - ldev))
        tap(not qp - lqp, f'{os.path.basename(a.reference)} lists every QP counter', sorted(qp - lqp))
        wrong = sorted(c for c in ldev - dev if c in qp) + sorted(c for c in lqp - qp if c in dev)
        tap(not wrong, f'{os.path.basename(a.reference)} puts each counter in its scope', wrong)
    print(f'1..{n}')
    return 1 if failed else 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        print(f'not ok 1 - names from the code\n#   {e}\n1..1')
        sys.exit(1)
