# SPDX-License-Identifier: BSD-3-Clause
# The private network of one interop session. Sourced, never run.
#
#   namespace $IOP_NS (irdma-iop-<pid> by default)
#     iopbr0    bridge, 198.18.0.1/24: the namespace's kernel stack, used for TCP only
#     iop-tapN  one tap per guest (QEMU opens it), port of iopbr0
#     roce0     veth end with NO kernel address and IPv6 off: the raw port of a userspace
#               RoCEv2 stack (AF_PACKET, DPDK net_af_packet); its peer roce0-br is a port of iopbr0
#
# roce0 must have no kernel IPv4 address, or the namespace's kernel would answer ARP for it
# and reject UDP 4791 with ICMP port unreachable. IPv6 is disabled in the whole namespace so
# no router/neighbour solicitations or MLD reports appear on the wire.

iop_net_ip() { ip -n "$IOP_NS" "$@"; }

iop_net_exists() { ip netns list 2>/dev/null | awk '{ print $1 }' | grep -qx "$IOP_NS"; }

# iop_net_up: creates the namespace; fails (after removing what it made) if it exists.
iop_net_up() {
	if iop_net_exists; then
		iop_die "namespace $IOP_NS already exists"
		return 1
	fi
	ip netns add "$IOP_NS" || { iop_die "ip netns add $IOP_NS failed"; return 1; }
	IOP_NET_CREATED=1
	: >"$IOP_RUN/net-created" # for the session watchdog
	{
		ip netns exec "$IOP_NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
			ip netns exec "$IOP_NS" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 &&
			iop_net_ip link set lo up &&
			iop_net_ip link add "$IOP_BR" type bridge stp_state 0 forward_delay 0 &&
			iop_net_ip addr add "$IOP_BR_IP/$IOP_PREFIX" dev "$IOP_BR" &&
			iop_net_ip link set "$IOP_BR" up &&
			iop_net_ip link add "$IOP_RAW_IF" address "$IOP_RAW_MAC" type veth peer name "$IOP_RAW_PEER" &&
			iop_net_ip link set "$IOP_RAW_PEER" master "$IOP_BR" &&
			iop_net_ip link set "$IOP_RAW_PEER" up &&
			iop_net_ip link set "$IOP_RAW_IF" up
	} || { iop_die "cannot wire namespace $IOP_NS"; iop_net_down; return 1; }
}

# iop_net_tap N: the tap of guest N, created here so QEMU never needs a helper script.
iop_net_tap() {
	local tap=iop-tap$1
	iop_net_ip link show "$tap" >/dev/null 2>&1 && { echo "$tap"; return 0; }
	iop_net_ip tuntap add dev "$tap" mode tap &&
		iop_net_ip link set "$tap" master "$IOP_BR" &&
		iop_net_ip link set "$tap" up || { iop_die "cannot create $tap in $IOP_NS"; return 1; }
	echo "$tap"
}

# iop_net_down: deletes the namespace and with it every device in it. Only a namespace
# this session created is touched.
iop_net_down() {
	[ "${IOP_NET_CREATED:-0}" = 1 ] || return 0
	if iop_net_exists; then
		ip netns del "$IOP_NS" 2>/dev/null || iop_log "warning: ip netns del $IOP_NS failed"
	fi
	IOP_NET_CREATED=0
	rm -f "$IOP_RUN/net-created"
}

# Runs a command inside the namespace.
iop_ns() { ip netns exec "$IOP_NS" "$@"; }
