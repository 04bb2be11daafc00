# SPDX-License-Identifier: BSD-3-Clause
"""The shell commands of the guides: find every code block, run those marked to run.

Every code block of a guide (indented by four spaces, or fenced with ```) carries a marker, an HTML
comment on the line before it (blank lines between are allowed):

    <!-- run: [OPTION ...] -->     a shell command block, executed by the test
    <!-- norun: REASON -->         a shell command block that cannot run here, and why
    <!-- text -->                  not a command: a devargs string, output, a diagram, EAL fragments
    <!-- compile: ... -->          a C example (check_examples.py compiles it)

A block without a marker fails, so a command added to a guide is either run or explained. A `text`
block whose first word looks like a command (a path into the tree, a tool name) fails too.

A `run` block is executed by `bash -e -o pipefail` in a scratch directory that holds links to the
top of the source tree and `build` -> the build tree under test, so the commands run as written
from the top of a checkout. OPTIONs (shell words):

    port:WORD      WORD (a TCP port) is replaced by a free port the test picks
    ns:WORD        WORD (a network namespace name) is replaced by a unique name; the namespace is
                   deleted after the block if the block left it
    path:WORD      WORD (a file path, e.g. a memif socket) is replaced by a path in a scratch folder
    word:WORD      WORD (a file prefix, an interface name) is replaced by a unique word of its own
    needs:netns    skip (with the reason) where network namespaces cannot be created
    timeout:N      seconds (default 60)
    expect:TEXT    the block's output (stdout and stderr) must contain TEXT (repeatable)

Replacements are whole words. After a block, runtime folders it left under /var/run/dpdk (those
whose name carries the block's shell PID, `$$`, or a replaced word) and hugepage files of those
prefixes are removed and reported.
"""
import glob
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile

MARK = re.compile(r'^<!--\s*(?P<kind>run|norun|text|compile)\b:?(?P<rest>.*?)-->\s*$')
FENCE = re.compile(r'^\s*```')
# First words that make a `text` block look like a shell command.
COMMANDISH = re.compile(r'^(\$ |sudo |\./|build/|scripts/|bench/|meson |ninja |ip |dpdk-|rm |mkdir |'
                        r'cp |cd |make|apt|hugeadm|echo |man |grep |P=|PKG_CONFIG)')


def blocks(path):
    """(line, marker kind, marker text, body) for every code block; kind None when unmarked."""
    lines = open(path, encoding='utf-8').read().splitlines()
    out = []
    i = 0
    prev_text = ''       # last non-blank line before the current position, outside blocks
    pending = None       # (kind, rest, line) of a marker waiting for its block
    in_list = False
    while i < len(lines):
        line = lines[i]
        m = MARK.match(line)
        if m:
            pending = (m.group('kind'), m.group('rest').strip(), i + 1)
            i += 1
            continue
        if FENCE.match(line):
            start = i
            indent = len(line) - len(line.lstrip())
            i += 1
            body = []
            while i < len(lines) and not FENCE.match(lines[i]):
                body.append(lines[i][indent:])
                i += 1
            i += 1
            out.append(_block(start, pending, '\n'.join(body)))
            pending = None
            prev_text = '```'
            continue
        blank_before = i == 0 or not lines[i - 1].strip() or MARK.match(lines[i - 1])
        if line.startswith('    ') and line.strip() and blank_before and not in_list:
            start = i
            body = []
            while i < len(lines) and (lines[i].startswith('    ') or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            out.append(_block(start, pending, '\n'.join(body)))
            pending = None
            continue
        if line.strip():
            # A list item (or its continuation) keeps indented text a paragraph, as Markdown does.
            if re.match(r'^\s*([-*+]|\d+\.)\s', line):
                in_list = True
            elif not line.startswith(' '):
                in_list = False
            prev_text = line
            if pending is not None and not MARK.match(line):
                out.append((pending[2], pending[0], pending[1], None))   # marker without a block
                pending = None
        i += 1
    if pending is not None:
        out.append((pending[2], pending[0], pending[1], None))
    del prev_text
    return out


def _block(start, pending, body):
    if pending is None:
        return (start + 1, None, '', body)
    return (start + 1, pending[0], pending[1], body)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def netns_usable():
    if os.geteuid() != 0 or shutil.which('ip') is None:
        return 'needs root and iproute2 (ip netns)'
    name = f'irdma_doc_probe_{os.getpid()}'
    r = subprocess.run(['ip', 'netns', 'add', name], capture_output=True, text=True)
    if r.returncode != 0:
        return f'cannot create a network namespace: {r.stderr.strip()}'
    subprocess.run(['ip', 'netns', 'del', name], capture_output=True)
    return None


class Runner:
    def __init__(self, source_root, build_root):
        self.source_root = os.path.abspath(source_root)
        self.build_root = os.path.abspath(build_root)
        self.scratch = tempfile.mkdtemp(prefix='irdma_doc_cmd_')
        self.cwd = os.path.join(self.scratch, 'tree')
        os.mkdir(self.cwd)
        for e in os.listdir(self.source_root):
            if e in ('build', '.git') or e.startswith('build-'):
                continue
            os.symlink(os.path.join(self.source_root, e), os.path.join(self.cwd, e))
        os.symlink(self.build_root, os.path.join(self.cwd, 'build'))
        self.count = 0
        self._netns = None

    def close(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def netns_reason(self):
        if self._netns is None:
            self._netns = netns_usable() or ''
        return self._netns or None

    def run(self, opts_text, body):
        """Returns (status, lines): status 'ok', 'fail' or 'skip: reason'."""
        self.count += 1
        tag = f'{os.getpid() % 100000}{self.count}'
        opts = shlex.split(opts_text)
        subs, ns_names, words, expects, timeout = {}, [], [], [], 60
        folder = os.path.join(self.scratch, f'b{self.count}')
        os.mkdir(folder)
        for o in opts:
            key, _, val = o.partition(':')
            if key == 'port':
                subs[val] = str(free_port())
            elif key == 'ns':
                subs[val] = f'idoc{tag}{len(ns_names)}'
                ns_names.append(subs[val])
            elif key == 'path':
                subs[val] = os.path.join(folder, os.path.basename(val))
            elif key == 'word':
                subs[val] = f'{val}{tag}'
                words.append(subs[val])
            elif key == 'needs' and val == 'netns':
                reason = self.netns_reason()
                if reason:
                    return f'skip: {reason}', []
            elif key == 'timeout':
                timeout = int(val)
            elif key == 'expect':
                expects.append(val)
            else:
                return 'fail', [f'unknown run option {o!r}']
        for old, new in subs.items():
            if not re.search(r'(?<![\w/.-])' + re.escape(old) + r'(?![\w])', body):
                return 'fail', [f'run option names {old!r}, which the block does not contain']
            body = re.sub(r'(?<![\w/.-])' + re.escape(old) + r'(?![\w])', new.replace('\\', r'\\'), body)
        before = set(os.listdir('/var/run/dpdk')) if os.path.isdir('/var/run/dpdk') else set()
        p = subprocess.Popen(['bash', '-e', '-o', 'pipefail', '-c', body], cwd=self.cwd,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
        try:
            out, _ = p.communicate(timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            out, _ = p.communicate()
            rc = f'timeout after {timeout} s'
        # The block's own leftovers: its process group is gone; remove what it left behind.
        try:
            os.killpg(p.pid, 9)
        except ProcessLookupError:
            pass
        lines = []
        after = set(os.listdir('/var/run/dpdk')) if os.path.isdir('/var/run/dpdk') else set()
        mine = [d for d in after - before if str(p.pid) in d or any(w in d for w in words)]
        for d in mine:
            shutil.rmtree(os.path.join('/var/run/dpdk', d), ignore_errors=True)
            for f in glob.glob(f'/dev/hugepages/{glob.escape(d)}map_*'):
                os.unlink(f)
        for ns in ns_names:
            if os.path.exists(f'/run/netns/{ns}'):
                subprocess.run(['ip', 'netns', 'del', ns], capture_output=True)
                lines.append(f'the block left network namespace {ns} (deleted)')
        failed = rc != 0
        if failed:
            lines.append(f'exit status {rc}')
        for e in expects:
            if e not in out:
                failed = True
                lines.append(f'output lacks {e!r}')
        if failed:
            lines.append('script:')
            lines += ['  ' + s for s in body.splitlines()]
            lines.append('output:')
            lines += ['  ' + s for s in out.splitlines()[-25:]]
        return ('fail' if failed else 'ok'), lines


def check(guides, source_root, build_root, print_tap=print, selftest=False):
    """Checks every guide; returns the number of failures (TAP lines through print_tap)."""
    r = Runner(source_root, build_root)
    n = failed = 0
    try:
        for guide in guides:
            name = os.path.relpath(guide, source_root)
            for line, kind, rest, body in blocks(guide):
                n += 1
                what = f'{name}:{line}'
                status, notes = 'ok', []
                if body is None:
                    status, notes = 'fail', [f'{kind} marker without a code block after it']
                    what += ': marker'
                elif kind is None:
                    status = 'fail'
                    notes = ['code block without a marker (run, norun: reason, text or compile)',
                             '  ' + body.splitlines()[0]]
                    what += ': unmarked block'
                elif kind == 'norun':
                    what += ': not run here'
                    if not rest:
                        status, notes = 'fail', ['norun needs a reason']
                elif kind == 'text':
                    what += ': not a command'
                    first = next((s for s in body.splitlines() if s.strip()), '')
                    if COMMANDISH.match(first.strip()):
                        status, notes = 'fail', ['looks like a command: mark it run or norun',
                                                 '  ' + first]
                elif kind == 'compile':
                    what += ': C example (check_examples.py)'
                else:
                    what += ': commands run'
                    status, notes = r.run(rest, body)
                if selftest:
                    # Every block of a self-test fixture is broken on purpose.
                    what = what + ' is refused'
                    status = 'ok' if status == 'fail' else 'fail'
                if status == 'ok':
                    print_tap(f'ok {n} - {what}')
                    if kind == 'norun':
                        print_tap(f'#   {rest}')
                elif status.startswith('skip'):
                    print_tap(f'ok {n} - {what} # SKIP {status[6:]}')
                else:
                    failed += 1
                    print_tap(f'not ok {n} - {what}')
                for s in notes:
                    print_tap(f'#   {s}')
    finally:
        r.close()
    return n, failed
