#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The interop harness's self-test (meson suites 'interop' and 'slow'):
#   1. the guest image builds from Debian packages;
#   2. the namespace is wired (raw port without a kernel address, IPv6 off);
#   3. the guest boots and rxe0 comes up ACTIVE with the IPv4-mapped GID ::ffff:198.18.0.11;
#   4. iop-roce-peer (lib/roce on the raw port: its transport state machines, and its
#      packet layer alone) ping-pongs UD SENDs with ibv_ud_pingpong and RC SENDs with
#      ibv_rc_pingpong, in both roles, from 1 byte to 196 packets per message (RC), after
#      checking that rxe ignores a frame with a bad ICRC;
#   5. RDMA WRITE, RDMA READ, FETCH_ADD and CMP_SWAP on lib/roce against ib_write_lat,
#      ib_read_lat and ib_atomic_lat, with perftest's TCP exchange, in both roles (through
#      the hooks the PMD's interop tests use);
#   6. the same at path MTU 4096 and 2048 (netdev MTU 9000);
#   7. tshark dissects every frame lib/roce sent, without errors, and they cover every opcode
#      of these runs;
#   8. teardown leaves no namespace and no QEMU behind.
# Usage: selftest.sh PATH/TO/iop-roce-peer
# Exit: 0 pass, 1 fail, 77 skip (only where QEMU cannot run: not root, no /dev/net/tun, no
# qemu-system-x86_64 after trying to install it).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/iop.sh"
. "$here/lib/iop-tap.sh"

peer_bin=${1:-}

[ -x "$peer_bin" ] || { echo "selftest.sh: usage: selftest.sh PATH/TO/iop-roce-peer" >&2; exit 2; }
iop_tap_skip_unless_qemu

t_start=$(iop_now)
iop_session_begin || exit 1

# --- 1. image
t=$(iop_now)
iop_image_build || bail "guest image builds (see the messages above)"
ok "guest image: $(cat "$IOP_IMAGE/stamp" | cut -c1-12) ($(iop_elapsed "$t")s)"

# --- 2. network
iop_net_up || bail "namespace $IOP_NS wired"
raw_addrs=$(iop_net_ip -o addr show dev "$IOP_RAW_IF")
check "raw port $IOP_RAW_IF has no kernel address" [ -z "$raw_addrs" ]
check "IPv6 is off on $IOP_RAW_IF" \
	[ "$(iop_ns cat /proc/sys/net/ipv6/conf/$IOP_RAW_IF/disable_ipv6)" = 1 ]

# --- 3. guest and rxe
iop_guest_start 1 || bail "guest 1 boots"
ok "guest 1 boots ($(iop_elapsed "${IOP_GUEST_T0[1]}")s)"
rxe=$(iop_guest_wait_rxe 1 60) || { echo "$rxe"; bail "rxe0 comes up in guest 1"; }
echo "$rxe" | sed 's/^/# /'
gid_line=$(echo "$rxe" | awk -v g="$(iop_v4_gid "$(iop_guest_ip 1)")" '$2 == g')
check "rxe0 port ACTIVE" grep -qx '4: ACTIVE' <<<"$rxe"
check "rxe0 has the RoCE v2 GID ::ffff:$(iop_guest_ip 1) ($gid_line)" \
	grep -q 'RoCE v2$' <<<"$gid_line"
echo "# rxe ready $(iop_elapsed "${IOP_GUEST_T0[1]}")s after the guest was started"

# Everything on the bridge from here on is captured, for tshark at the end.
capture=$IOP_RUN/bridge.pcap
iop_capture_start "$capture" || bail "tcpdump captures the bridge"

# --- 4. real exchanges between lib/roce (iop-roce-peer on the raw port) and the guest's rxe
# run_peer NAME ROLE TEST SIZE ITERS [iop-roce-peer args...]
#   ROLE client: the guest serves (iop_peer_server), iop-roce-peer connects to it;
#   ROLE server: iop-roce-peer listens on the bridge address, the guest's client connects.
#   TEST: ud, rc (ibv_*_pingpong) or write_lat, read_lat, atomic_lat, atomic_cs_lat (perftest)
run_peer() {
	local name=$1 role=$2 test=$3 size=$4 iters=$5 out rc=0 gout grc kind done_re=
	local gargs=(-s "$size" -n "$iters") hargs=()
	shift 5
	# ibv_ud_pingpong has no -m: UD uses the port's active MTU
	[ -n "${case_mtu:-}" ] && hargs+=(-m "$case_mtu")
	[ -n "${case_mtu:-}" ] && [ "$test" != ud ] && gargs+=(-m "$case_mtu")
	case "$test" in
	ud | rc) kind=${test}_pingpong ;;
	atomic_cs_lat) kind=atomic_lat gargs+=(-A CMP_AND_SWAP) ;;
	*) kind=$test ;;
	esac
	# perftest's result row ("#bytes #iterations t_min ..."; the times may read "inf" when
	# perftest cannot calibrate its cycle counter under TCG); a read_lat or atomic_lat
	# server prints none, only the connection it made
	[ -n "${done_re:-}" ] || done_re="^ *$size +$iters +[^ ]"
	[ "$role" = client ] && [ "$kind" != write_lat ] && [ "$kind" != "${test}_pingpong" ] &&
		done_re='^ *remote address: LID'
	[ "$kind" = "${test}_pingpong" ] && done_re="^$iters iters in"
	if [ "$role" = client ]; then
		iop_peer_server 1 "$kind" "${gargs[@]}" || { not_ok "$name: guest server starts"; return; }
		out=$(iop_ns timeout -k 2 40 "$peer_bin" -t "$test" -c "$(iop_guest_ip 1)" -s "$size" -n "$iters" -T 30 "${hargs[@]}" "$@" 2>&1) || rc=$?
		gout=$(iop_peer_wait 1 "$kind" 20)
		grc=$?
		iop_peer_stop 1 "$kind"
		echo "$out" | sed 's/^/#   host: /'
	else
		local log=$IOP_RUN/peer-$((step + 1)).log pid
		iop_ns timeout -k 2 40 "$peer_bin" -t "$test" -l "$IOP_BR_IP" -s "$size" -n "$iters" -T 30 "${hargs[@]}" "$@" >"$log" 2>&1 &
		pid=$!
		iop_track_pid "$pid"
		iop_wait_until 10 0.1 grep -q '^listening on' "$log" || { cat "$log"; not_ok "$name: host server listens"; return; }
		gout=$(iop_peer_client 1 "$kind" 30 "$IOP_BR_IP" "${gargs[@]}")
		grc=$?
		wait "$pid" || rc=$?
		sed 's/^/#   host: /' "$log"
	fi
	echo "$gout" | grep -vE '^ *(-+|\*+)? *$' | tail -n 4 | sed 's/^/#   guest: /'
	if [ $rc -eq 0 ] && [ $grc -eq 0 ] && grep -qE "$done_re" <<<"$gout"; then
		ok "$name"
	else
		echo "$gout" | sed 's/^/#   guest: /'
		not_ok "$name (host status $rc, guest status $grc)"
	fi
}

# SENDs with ibv_*_pingpong on lib/roce's transport state machines (engine qp) ...
run_peer "qp: UD 1 B, lib/roce client vs ibv_ud_pingpong server; rxe drops a bad-ICRC probe" client ud 1 4 -x
run_peer "qp: UD 1024 B (MTU), lib/roce client vs ibv_ud_pingpong server" client ud 1024 16
run_peer "qp: UD 513 B, ibv_ud_pingpong client vs lib/roce server" server ud 513 8
run_peer "qp: RC 1 B, lib/roce client vs ibv_rc_pingpong server; rxe drops a bad-ICRC probe" client rc 1 8 -x
run_peer "qp: RC 4096 B (4 packets), lib/roce client vs ibv_rc_pingpong server" client rc 4096 8
run_peer "qp: RC 10000 B (10 packets), ibv_rc_pingpong client vs lib/roce server" server rc 10000 8
run_peer "qp: RC 200000 B (196 packets), lib/roce client vs ibv_rc_pingpong server" client rc 200000 4
# ... and on its packet layer alone (engine pkt)
run_peer "pkt: UD 512 B, lib/roce client vs ibv_ud_pingpong server; rxe drops a bad-ICRC probe" client ud 512 4 -e pkt -x
run_peer "pkt: RC 4096 B, lib/roce client vs ibv_rc_pingpong server" client rc 4096 8 -e pkt
run_peer "pkt: RC 10000 B, ibv_rc_pingpong client vs lib/roce server" server rc 10000 8 -e pkt

# --- 5. RDMA WRITE, READ and both atomics with perftest (and through the hooks the PMD's
# interop tests use), lib/roce in both roles
run_peer "RDMA WRITE 64 B both ways, lib/roce client vs ib_write_lat server" client write_lat 64 5
run_peer "RDMA WRITE 3000 B (3 packets) both ways, ib_write_lat client vs lib/roce server" server write_lat 3000 5
run_peer "RDMA READ 2500 B (3 responses), lib/roce client vs ib_read_lat server" client read_lat 2500 5
run_peer "RDMA READ 2500 B, ib_read_lat client vs lib/roce server" server read_lat 2500 5
run_peer "FETCH_ADD, lib/roce client vs ib_atomic_lat server (consecutive values back)" client atomic_lat 8 5
run_peer "FETCH_ADD, ib_atomic_lat client vs lib/roce server (our word + 5)" server atomic_lat 8 5
run_peer "CMP_SWAP, lib/roce client vs ib_atomic_lat -A CMP_AND_SWAP server" client atomic_cs_lat 8 5
run_peer "CMP_SWAP, ib_atomic_lat -A CMP_AND_SWAP client vs lib/roce server" server atomic_cs_lat 8 5

# --- 6. jumbo frames: path MTU 4096 and 2048 (netdev MTU 9000 on the guest and the bridge)
if iop_guest_set_mtu 1 9000; then
	ok "MTU 9000 on the bridge and the guest; rxe0 active MTU 4096"
	case_mtu=4096
	run_peer "MTU 4096: RC 20000 B (5 packets), lib/roce client vs ibv_rc_pingpong server" client rc 20000 8
	run_peer "MTU 4096: UD 4096 B, ibv_ud_pingpong client vs lib/roce server" server ud 4096 8
	run_peer "MTU 4096: RDMA WRITE 9000 B both ways, ib_write_lat client vs lib/roce server" server write_lat 9000 5
	run_peer "MTU 4096: RDMA READ 9000 B, lib/roce client vs ib_read_lat server" client read_lat 9000 5
	case_mtu=2048
	run_peer "MTU 2048: RC 20000 B (10 packets), ibv_rc_pingpong client vs lib/roce server" server rc 20000 8
	case_mtu=
else
	not_ok "MTU 9000 on the bridge and the guest; rxe0 active MTU 4096"
fi

# --- 7. tshark dissects every frame lib/roce sent (from 198.18.0.2) without an error
iop_capture_stop
# The payloads are test bytes, not an RDMA upper-layer protocol: tshark's RPC-over-RDMA
# heuristic takes a 1-byte SEND (4 bytes with its pad) for a truncated header and flags it
# malformed, rxe's own identical frames too. It is off for this check.
no_ulp=(--disable-heuristic rpcrdma_infiniband)
tshark_ours() {
	tshark "${no_ulp[@]}" -r "$capture" -Y "ip.src == $IOP_RAW_IP && udp.dstport == 4791${1:+ && ($1)}" \
		"${@:2}" 2>"$IOP_RUN/tshark.err" ||
		{ sed 's/^/#   tshark: /' "$IOP_RUN/tshark.err"; return 1; }
}
n_ours=$(tshark_ours "" | wc -l)
n_ib=$(tshark_ours "infiniband" | wc -l)
n_bad=$(tshark_ours "_ws.malformed || _ws.expert" | wc -l)
ops=$(tshark_ours "infiniband" -T fields -e infiniband.bth.opcode | sort -n | uniq | tr '\n' ' ')
echo "# lib/roce frames: $n_ours; BTH opcodes: $ops"
check "tshark dissects all $n_ours RoCEv2 frames lib/roce sent as InfiniBand ($n_ib)" \
	[ "$n_ours" -gt 0 ] && [ "$n_ib" -eq "$n_ours" ]
[ "$n_bad" -eq 0 ] || tshark_ours "_ws.malformed || _ws.expert" -T fields -e frame.number \
	-e infiniband.bth.opcode -e frame.len -e _ws.expert.message | head -n 10 | sed 's/^/#   /'
check "tshark finds no malformed frame and no expert error in them ($n_bad)" [ "$n_bad" -eq 0 ]
# RC SEND First/Middle/Last/Only, WRITE First/Middle/Last/Only, READ request and responses
# First/Middle/Last, ACK, atomic ACK, CMP_SWAP, FETCH_ADD, UD SEND Only
missing=
for op in 0 1 2 4 6 7 8 10 12 13 14 15 17 18 19 20 100; do
	grep -qw "$op" <<<"$ops" || missing="$missing $op"
done
check "lib/roce sent every opcode the runs need${missing:+ (missing:$missing)}" [ -z "$missing" ]

# --- 8. teardown leaves nothing behind
qpid=$(iop_guest_pid 1)
ns=$IOP_NS
iop_session_end
leftover=
ip netns list | awk '{ print $1 }' | grep -qx "$ns" && leftover="namespace $ns"
[ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null && leftover="$leftover qemu $qpid"
[ -d "/tmp/$ns" ] && [ "${IRDMA_INTEROP_KEEP:-0}" != 1 ] && leftover="$leftover /tmp/$ns"
check "teardown leaves nothing behind${leftover:+ (left: $leftover)}" [ -z "$leftover" ]

iop_tap_end "interop self-test"
