#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the seed corpora of tests/fuzz/corpus from the repository's data (run once; the
seeds are committed). fuzz_roce_parse: frames of the rxe captures in tests/data/rxe-pcaps
(a flag byte 0 first), at most 4 distinct BTH opcodes per capture; the others: small
hand-made inputs."""
import hashlib
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def pcap_frames(path):
    with open(path, 'rb') as f:
        data = f.read()
    magic = struct.unpack('<I', data[:4])[0]
    end = '<' if magic in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    off = 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + 'IIII', data[off:off + 16])
        off += 16
        yield data[off:off + incl]
        off += incl


def write(target, blob):
    d = os.path.join(here, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(blob).hexdigest()[:16]), 'wb') as f:
        f.write(blob)


pcaps = os.path.join(root, 'tests', 'data', 'rxe-pcaps')
for name in sorted(os.listdir(pcaps)):
    if not name.endswith('.pcap'):
        continue
    seen = set()
    for fr in pcap_frames(os.path.join(pcaps, name)):
        # IPv4 UDP 4791 only: BTH opcode at 14 + 20 + 8
        if len(fr) < 60 or fr[12:14] != b'\x08\x00' or fr[23] != 17:
            continue
        if struct.unpack('>H', fr[36:38])[0] != 4791:
            continue
        op = fr[42]
        if op in seen or len(seen) >= 4:
            continue
        seen.add(op)
        write('fuzz_roce_parse', b'\x00' + fr)

for b0 in (0x01, 0x11, 0x12, 0x33):
    write('fuzz_uk_cq_poll', bytes([b0]) + bytes(64))
    write('fuzz_uk_cq_poll', bytes([b0]) + bytes([0xff] * 8 + [0] * 16 + [0, 0, 0, 0, 0, 0, 0, 0x80]) * 2)
for s in (b'\x01\x00\x01\x01\x05', b'\x02\x01\x00\x02\x0a\x0b', b'\x02\x03\x00\x03\x82\x8f\x90',
          b'\x00\x04\x01\x01\x09\x07\x00\x00', b'\x02\x05\x00\x02\x01\x02'):
    write('fuzz_uk_post', s)
for s in ('soft', 'soft,port=loop,gen=3,engine=inline,socket=0', 'soft,engine=service',
          'soft,ip=198.18.0.1,ip6=fd00::1,mac=02:00:00:00:00:01,mtu=4096',
          'soft,drop=0.05,dup=1%,reorder=2%,corrupt=0.001,seed=7',
          'soft,max_qp=16,max_cq=8,max_mr=4,max_srq=2,max_pd=3,max_ah=5,name=x',
          'soft,neigh=198.18.0.2@02:00:00:00:00:02;fd00::2@02:00:00:00:00:03', 'soft,gen=4', 'soft,,=,'):
    write('fuzz_devargs', s.encode())
# fuzz_soft_sq: a ring of valid NOPs (polarity 1), and one whose last quantum is a SEND with
# 13 more fragments (a WQE that would run past the ring's end) for each generation.
nop = struct.pack('<QQQQ', 0, 0, 0, (1 << 63) | (0x0c << 32))
for g in (0x20, 0x21, 0x22):
    write('fuzz_soft_sq', bytes([g]) + nop * 64)
    send = struct.pack('<QQQQ', 0x1000, (64 << 32) | 1, 0, (1 << 63) | (0x03 << 32) | (13 << 38))
    write('fuzz_soft_sq', bytes([g]) + nop * 63 + send)
# fuzz_pmd_post: one burst each of SEND, WRITE, READ (RC) and a UD SEND, small lengths.
for s in (b'\x00\x00\x01\x01\x03\x00', b'\x01\x04\x01\x01\x02\x11\x05\x0b\x01\x01\x04\x10',
          b'\x00\x07\x01\x01\x03\x00', b'\x80\x00\x01\x01\x03\x01', b'\x02\x02\x09\x02\x0e\x09\x05'):
    write('fuzz_pmd_post', s)
