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


# fuzz_pmd_rx: frames of one connection as records [ctl][len be16][frame]; the harness fixes
# addresses, DestQP, PSN, key and lengths (ctl 0x3b; 0x3f for the UD QP) and the ICRC, so the
# ICRC written here is a placeholder. PSN low bytes: requests from 0x100, responses naming
# the victim's own WRITE (0), READ (1) and FETCH_ADD (2).
def roce_frame(op, psn, ext=b'', payload=b''):
    pad = (4 - len(payload) % 4) % 4
    bth = bytes([op, pad << 4, 0xff, 0xff, 0, 0, 0, 0x99, 0x80, 0, 0, psn & 0xff])
    udp_len = 8 + len(bth) + len(ext) + len(payload) + pad + 4
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + udp_len, 0, 0x4000, 64, 17, 0,
                     bytes([198, 18, 0, 9]), bytes([198, 18, 0, 1]))
    udp = struct.pack('>HHHH', 0xc000, 4791, udp_len, 0)
    eth = bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 9, 0x08, 0x00])
    return eth + ip + udp + bth + ext + payload + bytes(pad) + bytes(4)


def rec(frame, ctl=0x3b):
    return bytes([ctl]) + struct.pack('>H', len(frame)) + frame


def reth(va_low, length):
    return struct.pack('>QII', va_low, 0, length)


WR_ONLY, RD_REQ, FADD, CSWP, SEND_ONLY, SEND_FIRST, SEND_LAST = 0x0a, 0x0c, 0x14, 0x13, 0x04, 0x00, 0x02
WR_FIRST, WR_MIDDLE, WR_LAST, ACK, RD_RESP_ONLY, ATM_ACK, UD_SEND = 0x06, 0x07, 0x08, 0x11, 0x10, 0x12, 0x64
aeth = bytes([0x1f, 0, 0, 1])
for blob in (
        rec(roce_frame(WR_ONLY, 0, reth(0x100, 64), bytes(range(64)))),
        rec(roce_frame(RD_REQ, 0, reth(0x200, 3000))),
        rec(roce_frame(FADD, 0, struct.pack('>QIQQ', 0x40, 0, 5, 0))),
        rec(roce_frame(CSWP, 0, struct.pack('>QIQQ', 0x48, 0, 7, 0))),
        rec(roce_frame(SEND_ONLY, 0, b'', b'hello, device' * 4)),
        rec(roce_frame(SEND_FIRST, 0, b'', bytes(1024))) + rec(roce_frame(SEND_LAST, 1, b'', bytes(33))),
        rec(roce_frame(WR_FIRST, 0, reth(0, 2100), bytes(1024))) +
        rec(roce_frame(WR_MIDDLE, 1, b'', bytes(1024))) + rec(roce_frame(WR_LAST, 2, b'', bytes(52))),
        rec(roce_frame(ACK, 0, aeth)) + rec(roce_frame(RD_RESP_ONLY, 1, aeth, bytes(64))) +
        rec(roce_frame(ATM_ACK, 2, aeth + struct.pack('>Q', 9))),
        rec(roce_frame(ACK, 1, bytes([0x60, 0, 0, 0]))),
        rec(roce_frame(UD_SEND, 0, struct.pack('>II', 0x11111111, 0x99), bytes(100)), 0x3f)):
    write('fuzz_pmd_rx', blob)
for name in sorted(os.listdir(pcaps)):
    if not name.endswith('.pcap'):
        continue
    for fr in pcap_frames(os.path.join(pcaps, name)):
        if len(fr) >= 60 and fr[12:14] == b'\x08\x00' and fr[23] == 17 and fr[42] == 0x0a:
            write('fuzz_pmd_rx', rec(fr))
            break

# The apps' TCP exchanges: what a well-behaved peer sends (first byte: role 0/1, script).
pt_dest = ('%04x:%04x:%06x:%06x:%08x:%016x:' % (0, 16, 0x11, 0x22, 0x33, 0x7f0000002000) +
           ''.join('%02x:' % b for b in bytes(10) + b'\xff\xff\xc6\x12\x00\x02') + '%08x:' % 0)
pt_dest = pt_dest.encode() + b'\0'
pt_start = b'6.06'.ljust(16, b'\0') + struct.pack('>I', 4096) + struct.pack('>I', 64) + b'3\0'
for role in (0, 1):
    write('fuzz_perftest_exchange', bytes([role]) + pt_start + pt_dest * 4)
    write('fuzz_perftest_exchange', bytes([role | 2]) + pt_start + pt_dest * 5 + b'done\0')
    write('fuzz_perftest_exchange', bytes([role | 4]) + pt_start + pt_dest * 4 +
          b''.join(struct.pack('>Q', i) for i in range(5)) + pt_dest + b'done\0')
write('fuzz_perftest_exchange', b'\x01' + b'5.31'.ljust(16, b'\0') + b'2\0' + pt_dest * 4)
pp_dest = ('%04x:%06x:%06x:' % (0, 0x11, 0x22) + (bytes(10) + b'\xff\xff\xc6\x12\x00\x02').hex()).encode() + b'\0'
write('fuzz_pingpong_exchange', b'\x00' + pp_dest)
write('fuzz_pingpong_exchange', b'\x01' + pp_dest + b'done\0')

# fuzz_cm: the CM MADs of the rxe captures (UD SEND ONLY to QP 1, IPv4), each as one record
# [ctl 1: listen on a REQ's service ID][MAD], and the MADs of each capture in order as one
# input (one connection's exchange).
for name in sorted(os.listdir(pcaps)):
    if not name.endswith('.pcap'):
        continue
    exchange = b''
    for fr in pcap_frames(os.path.join(pcaps, name)):
        if len(fr) < 62 + 256 or fr[12:14] != b'\x08\x00' or fr[23] != 17 or fr[42] != 0x64:
            continue
        if fr[47:50] != b'\x00\x00\x01':
            continue
        mad = fr[62:62 + 256]
        write('fuzz_cm', b'\x01' + mad)
        exchange += b'\x03' + mad
    if exchange:
        write('fuzz_cm', exchange)
