#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tshark (Wireshark's dissectors) reads every frame the devices sent while doing every
# operation over IPv4 and IPv6 (wire_ring with WIRE_PCAP: ARP, ND, RoCEv2 RC and UD):
# no malformed frame, no expert error (IPv4 header checksums checked), ICMPv6 checksums
# good, and the RoCEv2 opcodes of every operation recognised. A damaged copy of the
# capture must make the same check fail (the check can fail).
# Usage: test_wire_tshark.sh <path to wire_ring>
set -u
bin=$1
tmp=$(mktemp -d /tmp/irdma_wire_tshark.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

skip() {
	echo "1..0 # SKIP $1"
	exit 0 # meson reads "1..0 # SKIP" with status 0 as skipped under TAP
}

if ! command -v tshark >/dev/null 2>&1; then
	# Debian: install without the interactive wireshark-group question (answer no)
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${WIRE_NO_INSTALL:-}" ]; then
		echo "wireshark-common wireshark-common/install-setuid boolean false" |
			debconf-set-selections 2>/dev/null
		DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q tshark \
			>"$tmp/apt.log" 2>&1
	fi
	command -v tshark >/dev/null 2>&1 ||
		skip "tshark is not installed and could not be installed (apt-get install tshark)"
fi

echo "1..5"
n=0
check() { # check <description> <condition result 0/1>
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

WIRE_PCAP="$tmp/wire.pcap" "$bin" >"$tmp/run.log" 2>&1
rc=$?
sed -n 's/^\(not ok\|# FAIL\)/# &/p' "$tmp/run.log"
check "every operation over IPv4 and IPv6 while capturing (wire_ring exit $rc)" $([ $rc = 0 ]; echo $?)

# RoCEv2 sends UDP checksum 0 over IPv6 too (as Linux rxe does, whose tunnel socket accepts
# it; rocev2.md): Wireshark's own switch for zero-checksum IPv6 tunnels says so.
ts() { tshark -n -o ip.check_checksum:TRUE -o udp.ignore_ipv6_zero_checksum:TRUE "$@" 2>/dev/null; }
frames=$(ts -r "$tmp/wire.pcap" | wc -l)
protos=$(ts -r "$tmp/wire.pcap" -T fields -e frame.protocols | sort -u | tr '\n' ' ')
echo "# $frames frames: $protos"
ok=0
for p in eth:ethertype:arp eth:ethertype:ip:udp:infiniband eth:ethertype:ipv6:udp:infiniband \
	eth:ethertype:ipv6:icmpv6; do
	case " $protos " in *" $p "*|*" $p:"*) ;; *) echo "# missing: $p"; ok=1 ;; esac
done
[ "$frames" -gt 1000 ] || ok=1
check "tshark dissects $frames frames as ARP, ICMPv6 (ND) and RoCEv2 over IPv4 and IPv6" $ok

bad=$(ts -r "$tmp/wire.pcap" -Y '_ws.malformed || _ws.expert.severity >= 8388608' | wc -l)
ts -r "$tmp/wire.pcap" -Y '_ws.malformed || _ws.expert.severity >= 8388608' | head -5 | sed 's/^/# /'
nd=$(ts -r "$tmp/wire.pcap" -Y 'icmpv6' | wc -l)
ndgood=$(ts -r "$tmp/wire.pcap" -Y 'icmpv6.checksum.status == 1' | wc -l)
echo "# malformed or in error: $bad; ICMPv6 frames: $nd, good checksum: $ndgood"
check "no malformed frame, no expert error; ICMPv6 checksums good" \
	$([ "$bad" = 0 ] && [ "$nd" -ge 2 ] && [ "$nd" = "$ndgood" ]; echo $?)

ops=$(ts -r "$tmp/wire.pcap" -Y infiniband -T fields -e infiniband.bth.opcode | sort -u | sort -n |
	tr '\n' ' ')
echo "# BTH opcodes seen: $ops"
ok=0
# RC: SEND first/middle/last/only (+imm), WRITE first/middle/last/only (+imm), READ request
# and responses, ACK, atomic ACK, CMP_SWAP, FETCH_ADD, SEND only with invalidate; UD SEND
# only (+imm)
for o in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 23 100 101; do
	case " $ops " in *" $o "*) ;; *) echo "# opcode $o not seen"; ok=1 ;; esac
done
check "the opcodes of every operation were recognised" $ok

# The check can fail: cut 12 bytes out of the IP headers of the first frames.
editcap -r "$tmp/wire.pcap" "$tmp/head.pcap" 1-20 2>/dev/null &&
	editcap -C 30:12 "$tmp/head.pcap" "$tmp/bad.pcap" 2>/dev/null
bad=$(ts -r "$tmp/bad.pcap" -Y '_ws.malformed || _ws.expert.severity >= 8388608' | wc -l)
check "a damaged copy of the capture is flagged ($bad frames)" $([ "$bad" -gt 0 ]; echo $?)
