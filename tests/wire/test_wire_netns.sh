#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Two "hosts" in network namespaces this test creates: a veth pair, one end in each, and
# one process per namespace with the device on net_af_packet (198.18.0.1 and .2 owned by
# the devices, not by the kernel: the veths carry no address). Every operation between
# them, the peers found by ARP. The namespaces go away in a trap, even on failure.
# Usage: test_wire_netns.sh <path to wire_2proc>
set -u
bin=$1
tag=$$
nsa=irdma_wire_${tag}_a
nsb=irdma_wire_${tag}_b
ifa=iw${tag}a
ifb=iw${tag}b

cleanup() {
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
}
trap cleanup EXIT INT TERM

skip() {
	echo "1..0 # SKIP $1"
	exit 0 # meson reads "1..0 # SKIP" with status 0 as skipped under TAP
}

command -v ip >/dev/null 2>&1 || skip "iproute2 (ip) is not installed"
ip netns add "$nsa" 2>/dev/null || skip "cannot create network namespaces (needs root)"
ip netns add "$nsb" || skip "cannot create network namespaces"
ip link add "$ifa" type veth peer name "$ifb" || skip "cannot create a veth pair"
ip link set "$ifa" netns "$nsa" && ip link set "$ifb" netns "$nsb" || exit 1
for ns in "$nsa" "$nsb"; do
	# no kernel IPv6 chatter (router solicitations, DAD) on the test link
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null
	ip netns exec "$ns" ip link set lo up
done
ip -n "$nsa" link set "$ifa" up && ip -n "$nsb" link set "$ifb" up || exit 1
"$bin" afpacket "$nsa" "$nsb" "$ifa" "$ifb"
