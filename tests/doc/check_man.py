#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the section 3 manual pages of irdma-pmd and prints TAP.

For every page in the man directory:
  render     groff -ww -z -man prints nothing and exits 0
  man        man -l renders it (to /dev/null) without a warning
  sections   .TH names the page; NAME, SYNOPSIS, ARGUMENTS, DESCRIPTION, RETURN VALUE, SEE ALSO, in this
             order; NAME starts with the page's own function name
  synopsis   the #include'd header exists, declares the function, and the SYNOPSIS
             prototype equals that declaration (whitespace normalised)
  arguments  every parameter of the prototype is described under ARGUMENTS
  see-also   every irdma_* / rte_pmd_irdma_* reference names an existing page
Globally:
  each of the 41 lib/uk functions of the reference page has a page;
  each function declared in a --public header has a page;
  every page is installed by doc/meson.build;
  with --golden, the worked example of irdma_uk_qp_init(3) is recomputed and compared
  with the calc_depth_shift golden vectors for the same inputs.

--selftest DIR runs the same checks on deliberately broken pages and reports "ok"
only when each defect is detected (so a checker that can no longer fail, fails).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# irdma_uk_qp_init(9) and the 40 functions of its SEE ALSO (issue 2).
UK_FUNCTIONS = """
irdma_uk_qp_init irdma_set_fragment irdma_set_fragment_gen_1 irdma_nop_1 irdma_clr_wqes
irdma_uk_qp_post_wr irdma_qp_get_next_send_wqe irdma_qp_get_next_recv_wqe irdma_uk_rdma_write
irdma_uk_atomic_fetch_add irdma_uk_atomic_compare_swap irdma_uk_srq_post_receive
irdma_uk_rdma_read irdma_uk_send irdma_set_mw_bind_wqe_gen_1 irdma_copy_inline_data_gen_1
irdma_inline_data_size_to_quanta_gen_1 irdma_set_mw_bind_wqe irdma_copy_inline_data
irdma_inline_data_size_to_quanta irdma_uk_inline_rdma_write irdma_uk_inline_send
irdma_uk_stag_local_invalidate irdma_uk_post_receive irdma_uk_cq_resize
irdma_uk_cq_set_resized_cnt irdma_uk_cq_request_notification irdma_uk_cq_empty
irdma_uk_cq_poll_cmpl irdma_round_up_wq irdma_get_wqe_shift irdma_setup_connection_wqes
irdma_uk_srq_init irdma_uk_calc_shift_wq irdma_uk_calc_depth_shift_sq
irdma_uk_calc_depth_shift_rq irdma_uk_cq_init irdma_uk_clean_cq irdma_nop
irdma_fragcnt_to_quanta_sq irdma_fragcnt_to_wqesize_rq
""".split()

SECTIONS = ['NAME', 'SYNOPSIS', 'ARGUMENTS', 'DESCRIPTION', 'RETURN VALUE', 'SEE ALSO']

# Annotations that mark a declaration but are not part of its C type.
ANNOTATIONS = re.compile(r'\b(__rte_experimental|__rte_internal|__rte_deprecated|'
                         r'__rte_warn_unused_result|__rte_always_inline|__rte_noinline|'
                         r'__rte_cold|__rte_hot|extern)\b|__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)')

OWN_PAGE = re.compile(r'^(irdma_|rte_pmd_irdma_)')


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, what, errors=()):
        self.n += 1
        print(f'{"ok" if ok else "not ok"} {self.n} - {what}')
        if not ok:
            self.failed += 1
            for e in errors:
                print(f'#   {e}')

    def skip(self, what, why):
        self.n += 1
        print(f'ok {self.n} - {what} # SKIP {why}')


# ---------------------------------------------------------------- C declarations

def strip_c(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    text = re.sub(r'\\\n', ' ', text)
    text = re.sub(r'^\s*#[^\n]*', ' ', text, flags=re.M)
    return re.sub(r'extern\s+"C"\s*\{', ' ', text)


def normalise(decl):
    """One canonical spelling of a declaration: annotations dropped, whitespace
    collapsed, no spaces around punctuation, no trailing semicolon."""
    s = ANNOTATIONS.sub(' ', decl)
    s = ' '.join(s.split())
    s = re.sub(r'\s*([(),*;\[\]])\s*', r'\1', s)
    return s.rstrip(';')


DECL = re.compile(r'^(?P<ret>[^()]*?)\b(?P<name>[A-Za-z_]\w*)\s*\((?P<params>.*)\)$', re.S)


def parse_decl(text):
    """(name, params) of a function declaration, or None for anything else."""
    s = ' '.join(ANNOTATIONS.sub(' ', text).split())
    if not s or s.startswith('typedef'):
        return None
    m = DECL.match(s)
    if not m or not m.group('ret').strip():
        return None
    return m.group('name'), m.group('params')


def header_functions(path):
    """{name: declaration} of every function declared or defined at file scope."""
    text = strip_c(open(path, encoding='utf-8').read())
    found = {}
    buf = []
    depth = 0
    i = 0
    while i < len(text):
        c = text[i]
        if depth == 0 and c == '{':
            head = ''.join(buf).strip()
            d = parse_decl(head) if head.endswith(')') else None
            j, depth = i + 1, 1
            while j < len(text) and depth:
                depth += {'{': 1, '}': -1}.get(text[j], 0)
                j += 1
            if d:  # a function defined in the header (static inline)
                found.setdefault(d[0], head)
                buf = []
            else:  # struct/union/enum body: keep the declarator that may follow
                buf.append(' ')
            i = j
            continue
        if c == '}':  # closing an extern "C" block
            buf = []
        elif c == ';':
            stmt = ''.join(buf).strip()
            d = parse_decl(stmt)
            if d:
                found.setdefault(d[0], stmt)
            buf = []
        else:
            buf.append(c)
        i += 1
    return found


def params_of(decl):
    d = parse_decl(decl.rstrip(';'))
    if not d:
        return []
    parts, depth, cur = [], 0, ''
    for c in d[1]:
        if c == ',' and depth == 0:
            parts.append(cur)
            cur = ''
            continue
        depth += {'(': 1, ')': -1}.get(c, 0)
        cur += c
    parts.append(cur)
    names = []
    for p in parts:
        p = p.strip()
        if p in ('void', '...', ''):
            continue
        fp = re.search(r'\(\s*\*\s*(\w+)\s*\)', p)  # function pointer parameter
        m = fp or re.search(r'(\w+)\s*(\[[^\]]*\])*$', p)
        if m:
            names.append(m.group(1))
    return names


# ---------------------------------------------------------------- pages

def render_text(page):
    # A wide line so that long page names in the header line do not overlap.
    r = subprocess.run(['groff', '-man', '-rLL=160n', '-Tascii', '-P-c', '-P-b', '-P-o', '-P-u', page],
                       capture_output=True, text=True)
    return r.stdout


def split_sections(text):
    order, body, cur = [], {}, None
    for line in text.splitlines():
        if re.match(r'^[A-Z][A-Z ]*[A-Z]$', line):
            cur = line
            order.append(cur)
            body[cur] = []
        elif cur:
            body[cur].append(line)
    return order, body


def check_render(page):
    r = subprocess.run(['groff', '-ww', '-z', '-man', page], capture_output=True, text=True)
    errs = r.stderr.strip().splitlines()
    if r.returncode:
        errs.append(f'groff exited {r.returncode}')
    # An escape typed twice (\\- for \-) renders as a literal backslash: no page shows one.
    for n, line in enumerate(render_text(page).splitlines(), 1):
        if '\\' in line:
            errs.append(f'rendered line {n} shows a backslash (a doubled escape?): {line.strip()}')
    return errs


def check_man(page):
    env = dict(os.environ, MANPAGER='cat', PAGER='cat', MANWIDTH='80', MAN_DISABLE_SECCOMP='1',
               LC_ALL='C.UTF-8')
    with open(os.devnull, 'w') as null:
        # groff's "all" leaves out the mac/di/reg categories; "w" enables every warning.
        r = subprocess.run(['man', '--warnings=w', '-l', page], stdout=null,
                           stderr=subprocess.PIPE, text=True, env=env)
    errs = r.stderr.strip().splitlines()
    if r.returncode:
        errs.append(f'man -l exited {r.returncode}')
    return errs


def check_sections(name, order, body, text=None):
    errs = []
    if text is not None:
        first = next((l for l in text.splitlines() if l.strip()), '')
        if not first.startswith(f'{name}(3)'):
            errs.append(f'.TH does not name the page {name}(3): "{first.strip()}"')
    present = [s for s in order if s in SECTIONS]
    for s in SECTIONS:
        if s not in order:
            errs.append(f'missing section {s}')
    if present != [s for s in SECTIONS if s in present]:
        errs.append(f'sections out of order: {present}')
    for s in SECTIONS:
        if s in body and not ''.join(body[s]).strip():
            errs.append(f'section {s} is empty')
    nm = ' '.join(' '.join(body.get('NAME', [])).split())
    if not re.match(re.escape(name) + r'(, [\w, ]+)? - \S', nm):
        errs.append(f'NAME line "{nm}" does not start with "{name} - <summary>"')
    return errs


def synopsis_parts(body):
    lines = body.get('SYNOPSIS', [])
    incs = []
    rest = []
    for l in lines:
        m = re.match(r'\s*#include\s*[<"]([^>"]+)[>"]', l)
        if m:
            incs.append(m.group(1))
        else:
            rest.append(l)
    protos = [p.strip() + ';' for p in ' '.join(rest).split(';') if p.strip()]
    return incs, protos


def page_prototype(name, protos):
    for p in protos:
        d = parse_decl(p.rstrip(';'))
        if d and d[0] == name:
            return p
    return None


def check_synopsis(name, body, include_dirs, cache):
    incs, protos = synopsis_parts(body)
    if not incs:
        return ['SYNOPSIS has no #include line'], None
    proto = page_prototype(name, protos)
    if not proto:
        return [f'SYNOPSIS has no prototype of {name}'], None
    errs = []
    decl = None
    for inc in incs:
        path = next((os.path.join(d, inc) for d in include_dirs
                     if os.path.isfile(os.path.join(d, inc))), None)
        if not path:
            errs.append(f'#include {inc}: no such header in {include_dirs}')
            continue
        if path not in cache:
            cache[path] = header_functions(path)
        decl = decl or cache[path].get(name)
    if decl is None:
        errs.append(f'{name} is not declared in {", ".join(incs)}')
    elif normalise(decl) != normalise(proto):
        errs.append(f'header: {normalise(decl)}')
        errs.append(f'page:   {normalise(proto)}')
    return errs, proto


def check_arguments(body, proto):
    if proto is None:
        return ['no prototype to compare with']
    params = params_of(proto)
    text = body.get('ARGUMENTS', [])
    tags = set()
    for l in text:
        m = re.match(r'^ {7}(\S+)', l)
        if m:
            tags.add(m.group(1))
    if not params:
        return [] if any('None' in l for l in text) else ['no parameters, but ARGUMENTS does not say "None"']
    return [f'parameter {p} is not described under ARGUMENTS' for p in params if p not in tags]


def check_see_also(body, pages):
    refs = re.findall(r'([A-Za-z_]\w*)\((\d\w*)\)', ' '.join(body.get('SEE ALSO', [])))
    if not refs:
        return ['SEE ALSO names no page']
    return [f'{n}({s}): no such page' for n, s in refs
            if OWN_PAGE.match(n) and (s != '3' or n not in pages)]


def check_page(tap, path, pages, include_dirs, cache, have_groff, have_man, golden=None):
    name = os.path.basename(path)[:-2]
    if not have_groff:
        for what in ('render', 'man', 'sections', 'synopsis', 'arguments', 'see-also'):
            tap.skip(f'{name}: {what}', 'groff is not installed')
        return
    errs = check_render(path)
    tap.check(not errs, f'{name}: groff -ww -z -man is clean', errs)
    if have_man:
        errs = check_man(path)
        tap.check(not errs, f'{name}: man -l renders without warnings', errs)
    else:
        tap.skip(f'{name}: man -l renders without warnings', 'man is not installed')
    text = render_text(path)
    order, body = split_sections(text)
    errs = check_sections(name, order, body, text)
    tap.check(not errs, f'{name}: required sections', errs)
    errs, proto = check_synopsis(name, body, include_dirs, cache)
    tap.check(not errs, f'{name}: SYNOPSIS matches the header', errs)
    errs = check_arguments(body, proto)
    tap.check(not errs, f'{name}: every parameter under ARGUMENTS', errs)
    errs = check_see_also(body, pages)
    tap.check(not errs, f'{name}: SEE ALSO references exist', errs)
    if name == 'irdma_uk_qp_init' and golden:
        errs = check_worked_example(body, golden)
        tap.check(not errs, f'{name}: worked example agrees with the golden vectors', errs)


def round_up_pow2(n):
    p = 1
    while p < n:
        p <<= 1
    return p


def check_worked_example(body, golden):
    """The worked example of irdma_uk_qp_init(3): its arithmetic is right and its results are
    the rdma-core outputs recorded in the golden vectors for the same inputs."""
    text = ' '.join(' '.join(body.get('DESCRIPTION', [])).split())
    errs = []

    def grab(pattern, what):
        m = re.search(pattern, text)
        if not m:
            errs.append(f'worked example: cannot find {what}')
            return None
        return [int(g) for g in m.groups()]

    req = grab(r'asks for (\d+) send and (\d+) receive work requests, (\d+) send SGEs, (\d+) receive SGEs '
               r'and (\d+) bytes of inline data', 'the request')
    sqs = grab(r'SQ: wqe_shift\(sge (\d+) \+ 1 = (\d+), inline (\d+)\) = (\d+) -> WQE = 32 << \d+ = (\d+) bytes',
               'the SQ shift')
    rqs = grab(r'RQ: wqe_shift\(sge (\d+), inline 0\) = (\d+) -> WQE = (\d+) bytes', 'the RQ shift')
    depths = [[int(g) for g in m.groups()] for m in re.finditer(
        r'depth = round_up\(\((\d+) << (\d+)\) \+ (\d+) = (\d+)\) = (\d+) quanta', text)]
    sizes = [[int(g) for g in m.groups()] for m in re.finditer(
        r'[sr]q_size = (\d+) >> (\d+) = (\d+) WQEs', text)]
    mems = [[int(g) for g in m.groups()] for m in re.finditer(
        r'memory = (\d+) WQEs x (\d+) bytes = (\d+) bytes \((\d+) x 32\)', text)]
    total = grab(r'QP total: (\d+) \+ (\d+) \+ 64 \(shadow area\) = (\d+) bytes', 'the QP total')
    posts = grab(r'post \((\d+) - 258\) >> (\d+) = (\d+) send and \((\d+) - 1\) >> (\d+) = (\d+) receive',
                 'the postable work requests')
    if errs or len(depths) != 2 or len(sizes) != 2 or len(mems) != 2:
        return errs or ['worked example: expected an SQ and an RQ depth, size and memory line']

    wr_s, wr_r, sge_s, sge_r, inl = req
    # The arithmetic on the page.
    for (n, sh, res, tot, d), (d2, sh2, wqes), (w, wsz, b, q) in zip(depths, sizes, mems):
        if n << sh != tot - res or round_up_pow2(tot) != d:
            errs.append(f'depth line: ({n} << {sh}) + {res} = {tot} -> {d} is wrong')
        if d2 != d or d >> sh2 != wqes or sh2 != sh:
            errs.append(f'size line: {d2} >> {sh2} = {wqes} is wrong')
        if w != wqes or wsz != 32 << sh or w * wsz != b or q * 32 != b or q != d:
            errs.append(f'memory line: {w} x {wsz} = {b} ({q} x 32) is wrong')
    if sqs[0] != sge_s or sqs[1] != sge_s + 1 or sqs[2] != inl or sqs[4] != 32 << sqs[3]:
        errs.append('SQ shift line does not match the request')
    if rqs[0] != sge_r or rqs[2] != 32 << rqs[1]:
        errs.append('RQ shift line does not match the request')
    if depths[0][0] != wr_s or depths[0][2] != 258 or depths[1][0] != wr_r or depths[1][2] != 1:
        errs.append('depth lines do not use the requested sizes and the 258/1 reserves')
    if total[0] != mems[0][2] or total[1] != mems[1][2] or total[2] != total[0] + total[1] + 64:
        errs.append('QP total is wrong')
    if posts[0] != depths[0][4] or (posts[0] - 258) >> posts[1] != posts[2] or \
            posts[3] != depths[1][4] or (posts[3] - 1) >> posts[4] != posts[5]:
        errs.append('postable work request counts are wrong')

    # The golden vector for the same inputs.
    import json
    vecs = json.load(open(golden, encoding='utf-8'))['vectors']
    row = next((v for v in vecs if v.get('name') == 'calc_depth_shift' and v.get('gen') == 2
                and v.get('max_send_wr') == wr_s and v.get('max_recv_wr') == wr_r
                and v.get('max_send_sge') == sge_s and v.get('max_recv_sge') == sge_r
                and v.get('max_inline') == inl), None)
    if row is None:
        return errs + ['no GEN_2 calc_depth_shift golden vector has the example\'s inputs']
    want = {'sq_shift': sqs[3], 'sq_depth': depths[0][4], 'sq_size_for_qp_init': sizes[0][2],
            'reported_max_send_wr': posts[2], 'rq_shift': rqs[1], 'rq_depth': depths[1][4],
            'rq_size_for_qp_init': sizes[1][2], 'reported_max_recv_wr': posts[5]}
    for k, v in want.items():
        if row.get(k) != v:
            errs.append(f'{k}: page says {v}, golden vector says {row.get(k)}')
    small = re.search(r'SQ shift of (\d+) .*?an SQ depth of (\d+) quanta .*?RQ of shift (\d+) and depth (\d+)', text)
    row1 = next((v for v in vecs if v.get('name') == 'calc_depth_shift' and v.get('gen') == 2
                 and v.get('max_send_wr') == 1 and v.get('max_send_sge') == 1), None)
    if not small or not row1:
        errs.append('the minimum example or its golden vector is missing')
    elif [int(x) for x in small.groups()] != [row1['sq_shift'], row1['sq_depth'], row1['rq_shift'], row1['rq_depth']]:
        errs.append(f'minimum example {small.groups()} differs from the golden vector')
    return errs


def installed_pages(meson_build):
    return set(re.findall(r"'(?:[^']*/)?([\w.-]+\.3)'", open(meson_build, encoding='utf-8').read()))


# ---------------------------------------------------------------- self-test

def selftest(tap, fixtures, include_dirs):
    """Every fixture page carries exactly one defect, named on its first line
    (.\\" defect: <check>). That check must report it and every other check must pass,
    so each check is shown to fail on its own defect and only on it."""
    cache = {}
    files = sorted(f for f in os.listdir(fixtures) if f.endswith('.3'))
    pages = {f[:-2] for f in files}
    for f in files:
        path = os.path.join(fixtures, f)
        m = re.match(r'\.\\" defect: (\S+)', open(path, encoding='utf-8').readline())
        want = m.group(1) if m else '?'
        name = f[:-2]
        order, body = split_sections(render_text(path))
        syn_errs, proto = check_synopsis(name, body, include_dirs, cache)
        results = {
            'render': check_render(path),
            'man': check_man(path) if shutil.which('man') else ['man is not installed'],
            'sections': check_sections(name, order, body),
            'synopsis': syn_errs,
            'arguments': check_arguments(body, proto),
            'see-also': check_see_also(body, pages),
        }
        # A rendering defect must be seen by both renderers.
        wanted = {'render': ['render', 'man'], 'escape': ['render']}.get(want, [want])
        for w in wanted:
            errs = results.get(w, [])
            tap.check(bool(errs), f'selftest: {f}: the {w} check reports the defect',
                      [] if errs else ['the defect went unnoticed'])
            if errs:
                print(f'#   detected: {errs[0]}')
        others = [f'{k}: {e[0]}' for k, e in results.items() if k not in wanted and e]
        tap.check(not others, f'selftest: {f}: the other checks pass', others)


def selftest_worked_example(tap, man_dir, golden):
    """The worked example check passes on the real page and fails when one number of it is
    changed (an SQ depth of 4096 instead of 2048 quanta)."""
    import tempfile
    src = open(os.path.join(man_dir, 'irdma_uk_qp_init.3'), encoding='utf-8').read()
    bad = src.replace('= 2048 quanta', '= 4096 quanta', 1)
    with tempfile.TemporaryDirectory() as d:
        results = []
        for text in (src, bad):
            path = os.path.join(d, 'irdma_uk_qp_init.3')
            open(path, 'w', encoding='utf-8').write(text)
            results.append(check_worked_example(split_sections(render_text(path))[1], golden))
    tap.check(not results[0], 'selftest: worked example check passes on irdma_uk_qp_init.3', results[0])
    tap.check(bad != src and bool(results[1]),
              'selftest: worked example check reports a changed SQ depth',
              [] if results[1] else ['the planted error went unnoticed'])
    if results[1]:
        print(f'#   detected: {results[1][0]}')


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--man-dir', required=True)
    ap.add_argument('--include-dir', action='append', default=[],
                    help='where the #include of a SYNOPSIS is looked up (repeatable)')
    ap.add_argument('--public', action='append', default=[],
                    help='a header whose every function must have a page (repeatable)')
    ap.add_argument('--meson-build', help='doc/meson.build: every page must be installed by it')
    ap.add_argument('--golden', help='irdma-golden-vectors.json: the worked example of irdma_uk_qp_init(3) must agree')
    ap.add_argument('--selftest', metavar='FIXTURES')
    a = ap.parse_args()

    tap = Tap()
    have_groff = shutil.which('groff') is not None
    have_man = shutil.which('man') is not None
    if a.selftest:
        if not have_groff:
            print('1..0 # SKIP groff is not installed')
            return 0
        selftest(tap, a.selftest, a.include_dir)
        if a.golden:
            selftest_worked_example(tap, a.man_dir, a.golden)
        print(f'1..{tap.n}')
        return 1 if tap.failed else 0

    pages = {f[:-2]: os.path.join(a.man_dir, f) for f in sorted(os.listdir(a.man_dir))
             if f.endswith('.3')}
    cache = {}
    for name in UK_FUNCTIONS:
        tap.check(name in pages, f'lib/uk function {name} has a page')
    for hdr in a.public:
        if not os.path.isfile(hdr):
            tap.check(False, f'public header {hdr} exists')
            continue
        for name in sorted(header_functions(hdr)):
            tap.check(name in pages, f'{os.path.basename(hdr)}: {name} has a page')
    if a.meson_build:
        inst = installed_pages(a.meson_build)
        missing = [p for p in pages if p + '.3' not in inst]
        tap.check(not missing, 'doc/meson.build installs every page',
                  [f'{p}.3 is not installed' for p in missing])
    for name, path in pages.items():
        check_page(tap, path, pages, a.include_dir, cache, have_groff, have_man, a.golden)
    print(f'1..{tap.n}')
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
