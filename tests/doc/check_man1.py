#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the section 1 manual pages of the tools and prints TAP.

For every --page PAGE=TOOL pair:
  render     groff -ww -z -man prints nothing and exits 0; man -l renders without a warning;
             no rendered line shows a backslash (a doubled escape)
  sections   NAME, SYNOPSIS, DESCRIPTION, OPTIONS, DIFFERENCES FROM ..., EXIT STATUS, EXAMPLES,
             SEE ALSO
  options    every long option of the tool's --help appears in the page
  examples   a client command's server host is 127.0.0.1 or an address of a namespace the
             example names (10.200.0.0/16), never one of the page's device addresses (ip=)
  installed  the page is installed by app/meson.build
--selftest DIR runs the checks on broken pages (one defect each) and passes only when each
defect is reported.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import check_man  # render_text, check_render, check_man

REQUIRED = ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'EXIT STATUS', 'EXAMPLES', 'SEE ALSO']
IPV4 = re.compile(r'^\d+\.\d+\.\d+\.\d+$')


def sections(page):
    return [l[4:].strip().strip('"') for l in open(page, encoding='utf-8') if l.startswith('.SH ')]


def rendered(page):
    return check_man.render_text(page)


def help_options(tool):
    if not tool:
        return []
    r = subprocess.run([tool, '--help'], capture_output=True, text=True, timeout=30)
    return sorted(set(re.findall(r'(?<![\w-])(--[A-Za-z][\w-]*)', r.stdout)))


def example_errors(page):
    """Client commands (joined continuation lines) whose last word is a bad server host."""
    text = rendered(page)
    body = text.split('EXAMPLES', 1)[1] if 'EXAMPLES' in text else ''
    body = body.split('SEE ALSO', 1)[0]
    body = re.sub(r'\\\n\s*', ' ', body)
    devices = set(re.findall(r'ip=(\d+\.\d+\.\d+\.\d+)', text))
    errs = []
    for line in body.splitlines():
        words = line.split()
        if not words or not words[0].startswith('irdma'):
            continue
        host = words[-1]
        if not IPV4.match(host):
            continue
        if host in devices:
            errs.append(f'client command gives a device RoCE address ({host}) as the server '
                        f'host: {line.strip()}')
        elif host != '127.0.0.1' and not host.startswith('10.200.'):
            errs.append(f'server host {host} is neither 127.0.0.1 nor a namespace address '
                        f'(10.200.0.0/16): {line.strip()}')
    return errs


def check(tap, page, tool, installed):
    name = os.path.basename(page)
    errs = check_man.check_render(page)
    tap.check(not errs, f'{name}: groff -ww -z -man is clean', errs)
    errs = check_man.check_man(page)
    tap.check(not errs, f'{name}: man -l renders without warnings', errs)
    have = sections(page)
    missing = [s for s in REQUIRED if s not in have]
    if not any(s.startswith('DIFFERENCES FROM') for s in have):
        missing.append('DIFFERENCES FROM ...')
    tap.check(not missing, f'{name}: has every section', [f'missing {m}' for m in missing])
    text = rendered(page)
    # the renderer may break a long option at its hyphen: compare without line breaks
    flat = re.sub(r'\s+', ' ', text)
    opts = help_options(tool)
    absent = [o for o in opts if o not in flat]
    tap.check(bool(opts) or not tool, f'{name}: the tool lists its options', ['no --help output'])
    tap.check(not absent, f'{name}: every option of --help is described',
              [f'{o} is not in the page' for o in absent])
    errs = example_errors(page)
    tap.check(not errs, f'{name}: client examples use a real server host', errs)
    if installed is not None:
        tap.check(name in installed, f'{name}: installed by app/meson.build',
                  [f'{name} is not in app/meson.build'])


def finish(tap):
    print(f'1..{tap.n}')
    return 1 if tap.failed else 0


def main():
    if not shutil.which('groff') or not shutil.which('man'):
        print('1..0 # SKIP groff or man is not installed')
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument('--page', action='append', default=[], help='PAGE=TOOL')
    ap.add_argument('--meson-build')
    ap.add_argument('--selftest')
    a = ap.parse_args()
    tap = check_man.Tap()
    if a.selftest:
        # each fixture has one defect: the check that must catch it is named in its file name
        for f in sorted(os.listdir(a.selftest)):
            sub = check_man.Tap()
            page = os.path.join(a.selftest, f)
            devnull = open(os.devnull, 'w')
            old = sys.stdout
            sys.stdout = devnull
            try:
                check(sub, page, None, None)
            finally:
                sys.stdout = old
            tap.check(sub.failed > 0, f'selftest: the defect of {f} is reported')
        return finish(tap)
    installed = open(a.meson_build, encoding='utf-8').read() if a.meson_build else None
    for pt in a.page:
        page, tool = pt.split('=', 1)
        check(tap, page, tool, installed)
    return finish(tap)


if __name__ == '__main__':
    sys.exit(main())
