#!/usr/bin/env python3
"""Counts test results from one or more meson testlog.json files.

Every TAP case counts on its own ("ok" passes, "ok ... # SKIP" skips, "not ok" fails); a
binary that failed without reporting a failed case (a crash, a timeout) counts as one
failure; a binary that exited 77 counts as one skip. Prints the failures by name, then the
closing line 'N passed, N failed, N skipped'. Exit status 1 when anything failed.
"""
import json
import re
import sys

TAP = re.compile(r'^(not ok|ok)\b[^#]*(#\s*(SKIP|TODO)\b.*)?$', re.I)


def main(paths):
    passed = failed = skipped = 0
    failures = []
    for path in paths:
        try:
            lines = open(path, encoding='utf-8', errors='replace').read().splitlines()
        except OSError as e:
            print(f'count-results: cannot read {path}: {e}')
            failed += 1
            continue
        for line in lines:
            if not line.strip():
                continue
            t = json.loads(line)
            name, result = t.get('name', '?'), t.get('result', 'FAIL')
            out = t.get('stdout') or ''
            p = f = s = 0
            for l in out.splitlines():
                m = TAP.match(l.strip())
                if not m:
                    continue
                if m.group(1).lower() == 'not ok':
                    f += 1
                    failures.append(f'{path}: {name}: {l.strip()}')
                elif m.group(3):
                    s += 1
                else:
                    p += 1
            if result == 'SKIP':
                s = max(s, 1)
                p = 0
            elif result not in ('OK', 'EXPECTEDFAIL') and f == 0:
                f = 1
                failures.append(f'{path}: {name}: {result}')
            elif p + f + s == 0:
                p = 1
            passed, failed, skipped = passed + p, failed + f, skipped + s
    for x in failures:
        print('FAILED:', x)
    print(f'{passed} passed, {failed} failed, {skipped} skipped')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
