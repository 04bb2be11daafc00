#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The PMD against a real Linux rxe (meson suites 'interop' and 'slow', TAP).
#
# One guest (Debian's kernel, rdma_rxe, rdma-core, perftest) is booted once; every case
# runs against it. Our side is the soft device on the namespace's raw port
# (net_af_packet on roce0, 198.18.0.2, MAC 02:00:00:00:00:02): it answers the guest's
# ARP and resolves the guest by ARP itself, with no static neighbour entry anywhere.
#
#   1. irdma-pingpong (RC) and ibv_rc_pingpong, our side client and our side server, 1,
#      1024, 4096 and 65536 bytes (path MTU 1024: up to 64 packets per message);
#   2. irdma-pingpong --ud and ibv_ud_pingpong, both roles, 1 and 1024 bytes (UD carries
#      at most the path MTU), plus a 1025-byte UD message refused in one line;
#   3. irdma-perf as perftest's client against ib_write_lat (64 B and 3000 B, 3 packets),
#      ib_read_lat (2500 B, 3 responses) and ib_atomic_lat (FETCH_AND_ADD, CMP_AND_SWAP)
#      servers in the guest, and as the server for the guest's perftest clients; the same
#      with ib_send_lat (SEND 3000 B, and 512 B over UD with -c UD) through perftest's
#      exchange;
#   4. the atomic ACKs on the wire: rxe's FETCH_ADD results to our client are consecutive
#      values, and ours to the guest's client are too (our device added 1 each time);
#      CMP_SWAP (compare 0, swap 0) leaves the word as it was;
#   5. tshark dissects every frame our device sent, with no malformed frame or expert error;
#   6. irdma-perf against ib_write_bw, ib_read_bw and ib_send_bw (64 B, 64 KiB, 1 MiB) and
#      ib_atomic_bw, both roles: both sides print a row for the same size and iterations,
#      the servers of the client-driven tests print exactly the client's figures, send_bw's
#      two averages agree within a factor of 10; write_bw, read_bw and send_bw with -b (both
#      sides print the same sum of the two directions); write_bw and send_bw on 2 QPs (-q 2,
#      perftest's record per QP);
#   7. nothing is left behind: namespace, QEMU, EAL runtime directories.
#
# Each side's exit status and output are checked: the pingpong summary lines with the exact
# byte count (size x iters x 2) on both sides, perftest's result row.
#
# Usage: pmd-interop.sh PATH/TO/irdma-pingpong PATH/TO/irdma-perf
# Exit: 0 with TAP on stdout (a skip is "1..0 # SKIP reason", only where QEMU cannot run:
# not root, no /dev/net/tun, no qemu-system-x86_64), 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/iop.sh"
. "$here/../lib/iop-tap.sh"

pingpong=${1:-}
perf=${2:-}
case_no=0

[ -x "$pingpong" ] && [ -x "$perf" ] ||
	{ echo "pmd-interop.sh: usage: pmd-interop.sh PATH/TO/irdma-pingpong PATH/TO/irdma-perf" >&2; exit 2; }
# EAL runtime directories of this script's processes: irdma_iop_<case>_<script pid>.
iop_tap_rxe_session irdma_iop
guest=$(iop_guest_ip 1)
dev_base="soft,port=net_af_packet0,ip=$IOP_RAW_IP"
# Atomics need GEN_3; everything else runs on the default generation.
dev_gen3="$dev_base,gen=3"

capture=$IOP_RUN/bridge.pcap
iop_capture_start "$capture" || bail "tcpdump captures the bridge"

# ours NAME BIN ARGS...: one of our tools in the namespace on the raw port, bounded.
ours() { iop_ours 512 60 "$@"; }

# Waits until something in the namespace listens on the exchange port.
listening() { iop_ns ss -Hltn 'sport = :18515' | grep -q LISTEN; }

# run_case ROLE KIND GUEST_ARGS... -- OUR_TOOL OUR_ARGS...
#   ROLE client: the guest serves, our tool connects to it;
#   ROLE server: our tool listens on the bridge address, the guest's client connects.
# Sets case_ours, case_guest (outputs), case_rc, case_grc (statuses).
run_case() {
	local role=$1 kind=$2 gargs=() bin log pid
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do gargs+=("$1"); shift; done
	shift
	bin=$1
	shift
	case_no=$((case_no + 1))
	log=$IOP_RUN/ours-$case_no.log
	case_rc=0 case_grc=0
	if [ "$role" = client ]; then
		if ! iop_peer_server 1 "$kind" "${gargs[@]}"; then
			case_ours="" case_guest="guest server $kind did not start" case_rc=1 case_grc=1
			return
		fi
		ours "c$case_no" "$bin" --devargs "$devargs" "$@" "$guest" >"$log" 2>&1 || case_rc=$?
		# a server whose client failed would wait for it until its time limit
		case_guest=$(iop_peer_wait 1 "$kind" "$([ "$case_rc" -eq 0 ] && echo 30 || echo 3)") ||
			case_grc=$?
		iop_peer_stop 1 "$kind"
	else
		ours "s$case_no" "$bin" --devargs "$devargs" "$@" >"$log" 2>&1 &
		pid=$!
		iop_track_pid "$pid"
		if iop_wait_until 20 0.1 listening; then
			case_guest=$(iop_peer_client 1 "$kind" 40 "$IOP_BR_IP" "${gargs[@]}") || case_grc=$?
		else
			case_guest="our server never listened" case_grc=1
		fi
		wait "$pid" || case_rc=$?
	fi
	case_ours=$(grep -v -e '^EAL: ' -e '^TELEMETRY: ' "$log")
}

# --- 1 and 2: ibv_rc_pingpong and ibv_ud_pingpong (-c: both sides validate what they got)
# pp_case rc|ud client|server SIZE ITERS [ARGS FOR BOTH SIDES...]
pp_case() {
	local t=$1 role=$2 size=$3 iters=$4 kind flag=() title
	shift 4
	kind=${t}_pingpong
	[ "$t" = ud ] && flag=(--ud)
	devargs=$dev_base
	if [ "$role" = client ]; then
		title="$t $size B x $iters: irdma-pingpong client, ibv_${t}_pingpong server"
	else
		title="$t $size B x $iters: ibv_${t}_pingpong client, irdma-pingpong server"
	fi
	[ $# -gt 0 ] && title="$title ($*)"
	# -c on both sides: each checks the other's payload the way rdma-core does
	run_case "$role" "$kind" -s "$size" -n "$iters" -c "$@" -- "$pingpong" "${flag[@]}" \
		-g 1 -c -s "$size" -n "$iters" --timeout 20 "$@"
	# both print rdma-core's summary: size x iters x 2 bytes, iters iterations
	report "$title" "^$((size * iters * 2)) bytes in [0-9.]+ seconds" \
		"^$((size * iters * 2)) bytes in [0-9.]+ seconds" "^$iters iters in [0-9.]+ seconds"
}

for size in 1 1024 4096 65536; do
	iters=16
	[ "$size" -ge 65536 ] && iters=8
	pp_case rc client "$size" "$iters"
	pp_case rc server "$size" "$iters"
done
for size in 1 1024; do
	pp_case ud client "$size" 16
	pp_case ud server "$size" 16
done
# completion events instead of busy polling, on both sides
pp_case rc client 4096 16 -e
pp_case rc server 4096 16 -e
# A UD message larger than the path MTU cannot be sent: one line, status 1, no hang.
out=$(ours udbig "$pingpong" --devargs "$dev_base" --ud -g 1 -s 1025 -n 1 --timeout 5 "$guest" 2>&1)
rc=$?
# (a warning about another process on our CPU is not this case's concern)
out=$(grep -v -e '^EAL: ' -e '^TELEMETRY: ' -e '^irdma-[a-z]*: warning: ' <<<"$out")
if [ $rc -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q 'port MTU (1024 bytes)' <<<"$out"; then
	sed 's/^/#   ours:  /' <<<"$out"
	ok "ud 1025 B (over the path MTU 1024) refused in one line, status 1"
else
	sed 's/^/#   ours:  /' <<<"$out"
	not_ok "ud 1025 B (over the path MTU 1024) refused (status $rc)"
fi

# --- 3: perftest. perftest's result row: "#bytes #iterations t_min ..." (times may read
# "inf" in the guest, which cannot calibrate its clock under TCG); read_lat's and
# atomic_lat's servers print no row, only the peer they connected to.
row() { echo "^ *$1 +$2 +[^ ]"; }
peer_re='^ *remote address: LID'
# perf_case client|server TEST SIZE ITERS [ARGS FOR BOTH SIDES...]
perf_case() {
	local role=$1 test=$2 size=$3 iters=$4 kind gargs=() oargs=() title ours_re guest_re
	shift 4
	devargs=$dev_base
	kind=$test
	gargs=(-n "$iters")
	oargs=(--test "$test" -x 1 -n "$iters" --timeout 20)
	case "$test" in
	atomic_cs_lat)
		kind=atomic_lat
		gargs+=(-A CMP_AND_SWAP)
		oargs=(--test atomic_lat -A CMP_AND_SWAP -x 1 -n "$iters" --timeout 20)
		;;
	esac
	[ "$kind" = atomic_lat ] && devargs=$dev_gen3
	[ "$kind" = atomic_lat ] || { gargs+=(-s "$size"); oargs+=(-s "$size"); }
	gargs+=("$@")
	oargs+=("$@")
	if [ "$role" = client ]; then
		title="$test $size B x $iters: irdma-perf client, ib_$kind server"
		ours_re=$(row "$size" "$iters")
		guest_re=$peer_re
		case "$kind" in write_lat | send_lat) guest_re=$(row "$size" "$iters") ;; esac
	else
		title="$test $size B x $iters: ib_$kind client, irdma-perf server"
		ours_re=$peer_re
		case "$kind" in write_lat | send_lat) ours_re=$(row "$size" "$iters") ;; esac
		guest_re=$(row "$size" "$iters")
	fi
	[ $# -gt 0 ] && title="$title ($*)"
	run_case "$role" "$kind" "${gargs[@]}" -- "$perf" "${oargs[@]}"
	report "$title" "$ours_re" "$guest_re"
}

for role in client server; do
	perf_case "$role" write_lat 64 20
	perf_case "$role" write_lat 3000 10
	perf_case "$role" read_lat 2500 10
	perf_case "$role" atomic_lat 8 10
	perf_case "$role" atomic_cs_lat 8 10
	perf_case "$role" send_lat 3000 10
	# perftest's -c UD: SENDs between UD QPs (Q_Key 0x11111111, a GRH area in receives)
	perf_case "$role" send_lat 512 10 -c UD
done

iop_capture_stop
# rxe's own count of the RoCE packets it accepted (headers, QP and ICRC checked): only our
# device talks RoCE to this guest, so it must equal what the capture saw us send.
rxe_rcvd=$(iop_guest_exec 1 20 'cat /sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts')
rxe_counters=$(iop_guest_exec 1 20 'cd /sys/class/infiniband/rxe0/ports/1/hw_counters && grep -H . * | sed "s|^|#   rxe |" | tr "\n" " "')

# --- 4: the atomic ACKs (opcode 18) on the wire, per direction
no_ulp=(--disable-heuristic rpcrdma_infiniband)
tshark_f() {
	tshark "${no_ulp[@]}" -r "$capture" -Y "$1" "${@:2}" 2>"$IOP_RUN/tshark.err" ||
		{ sed 's/^/#   tshark: /' "$IOP_RUN/tshark.err"; return 1; }
}
# atomic_acks SRC_IP: one line "RUN PSN VALUE" per atomic ACK (opcode 18) from SRC_IP, in
# capture order; RUN tells the runs apart (rxe's UDP source port is per QP, our ACKs go to a
# new guest QP each run).
atomic_acks() {
	tshark_f "ip.src == $1 && infiniband.bth.opcode == 18" -T fields \
		-e udp.srcport -e infiniband.bth.destqp -e infiniband.bth.psn \
		-e infiniband.atomicacketh.origremdt | awk '{ print $1 "-" $2, $3, $4 }'
}
# check_acks FILE WHAT: the first run (FETCH_ADD) returned consecutive values, the second
# (CMP_SWAP, compare 0 swap 0) one value; WHAT=ours also wants 0..9 and 0 (irdma-perf's
# server starts from a zero word). A retransmitted atomic is answered again with the same
# PSN: it must carry the same value (replayed, not executed twice) and counts once.
# 64-bit values: python, not awk's doubles.
check_acks() {
	python3 - "$1" "$2" <<'PY'
import sys
runs = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) != 3:
        continue
    acks = runs.setdefault(f[0], {})
    psn, v = int(f[1], 0), int(f[2], 0)
    if acks.setdefault(psn, v) != v:
        sys.exit("PSN %d answered with %d and %d: a replay must return the first answer" % (psn, acks[psn], v))
r = [list(a.values()) for a in runs.values()]  # first answer per PSN, in order
if len(r) != 2:
    sys.exit("expected 2 runs of atomic ACKs, found %d" % len(r))
fa, cs = r
print("#   FETCH_ADD returned %s" % fa)
print("#   CMP_SWAP returned %s" % cs)
if len(fa) != 10 or any(b != (a + 1) % 2**64 for a, b in zip(fa, fa[1:])):
    sys.exit("FETCH_ADD: not 10 consecutive values")
if len(cs) != 10 or len(set(cs)) != 1:
    sys.exit("CMP_SWAP: not 10 times one value")
if sys.argv[2] == "ours" and (fa[0] != 0 or cs[0] != 0):
    sys.exit("our word did not start from 0")
PY
}
atomic_acks "$guest" >"$IOP_RUN/acks-rxe"
atomic_acks "$IOP_RAW_IP" >"$IOP_RUN/acks-ours"
check "rxe's atomic ACKs to our client: FETCH_ADD consecutive, CMP_SWAP unchanged" \
	check_acks "$IOP_RUN/acks-rxe" rxe
check "our atomic ACKs to the guest's client: FETCH_ADD 0..9 (1 added each time), CMP_SWAP 0" \
	check_acks "$IOP_RUN/acks-ours" ours

# --- 5: tshark dissects every frame our device sent
ours_f="ip.src == $IOP_RAW_IP && udp.dstport == 4791"
n_ours=$(tshark_f "$ours_f" | wc -l)
n_ib=$(tshark_f "$ours_f && infiniband" | wc -l)
n_bad=$(tshark_f "$ours_f && (_ws.malformed || _ws.expert)" | wc -l)
ops=$(tshark_f "$ours_f && infiniband" -T fields -e infiniband.bth.opcode | sort -n | uniq | tr '\n' ' ')
echo "# frames from our device: $n_ours; BTH opcodes: $ops"
check "tshark dissects all $n_ours RoCEv2 frames our device sent as InfiniBand ($n_ib)" \
	[ "$n_ours" -gt 0 ] && [ "$n_ib" -eq "$n_ours" ]
[ "$n_bad" -eq 0 ] || tshark_f "$ours_f && (_ws.malformed || _ws.expert)" -T fields \
	-e frame.number -e infiniband.bth.opcode -e frame.len -e _ws.expert.message |
	head -n 10 | sed 's/^/#   /'
check "no malformed frame and no expert error among them ($n_bad)" [ "$n_bad" -eq 0 ]
echo "$rxe_counters" | sed 's/ #/\n#/g'
check "rxe accepted every one of them (hw_counters/rcvd_pkts $rxe_rcvd)" [ "${rxe_rcvd:-x}" = "$n_ours" ]
# RC SEND First/Middle/Last/Only, WRITE First/Middle/Last/Only, READ request and
# responses First/Middle/Last, ACK, atomic ACK, CMP_SWAP, FETCH_ADD, UD SEND Only
missing=
for op in 0 1 2 4 6 7 8 10 12 13 14 15 17 18 19 20 100; do
	grep -qw "$op" <<<"$ops" || missing="$missing $op"
done
check "our device sent every opcode these runs need${missing:+ (missing:$missing)}" [ -z "$missing" ]

# --- 6: the bandwidth tests against perftest's ib_*_bw, both roles, after the captured part
# (their frames are not in the checks above). Both sides print a row for the same size and
# iteration count. write/read/atomic_bw: the server prints the client's figures, which it got
# through perftest's results exchange, so the two rows are equal. send_bw: each side measures
# its own end; the two averages must be within a factor of 10 of each other (unless the
# guest's clock is uncalibrated under TCG and it prints inf or nan).
# bw_avg SIZE ITERS: the average bandwidth of the row for SIZE and ITERS in stdin.
bw_avg() { awk -v s="$1" -v n="$2" '$1 == s && $2 == n && NF >= 5 { print $4; exit }'; }
perf_bw_case() {
	local role=$1 test=$2 size=$3 iters=$4 gargs=() oargs=() title o_avg g_avg verdict rows a
	shift 4
	# -q N: the rows count the WRs of all N QPs (-n on each), as perftest 4.5's
	rows=$iters
	for ((a = 1; a < $#; a++)); do
		[ "${!a}" = -q ] && { a=$((a + 1)); rows=$((iters * ${!a})); }
	done
	devargs=$dev_base
	gargs=(-n "$iters")
	oargs=(--test "$test" -x 1 -n "$iters" --timeout 20)
	if [ "$test" = atomic_bw ]; then
		devargs=$dev_gen3
	else
		gargs+=(-s "$size")
		oargs+=(-s "$size")
	fi
	gargs+=("$@")
	oargs+=("$@")
	if [ "$role" = client ]; then
		title="$test $size B x $iters: irdma-perf client, ib_$test server"
	else
		title="$test $size B x $iters: ib_$test client, irdma-perf server"
	fi
	[ $# -gt 0 ] && title="$title ($*)"
	run_case "$role" "$test" "${gargs[@]}" -- "$perf" "${oargs[@]}"
	o_avg=$(bw_avg "$size" "$rows" <<<"$case_ours")
	g_avg=$(bw_avg "$size" "$rows" <<<"$case_guest")
	verdict=$(python3 - "$test" "${o_avg:-none}" "${g_avg:-none}" <<'PY'
import math, sys
test, o, g = sys.argv[1:]
if o == "none" or g == "none":
    sys.exit("no row for this size and iteration count on %s" % ("our side" if o == "none" else "the guest"))
if test != "send_bw":
    # the server printed the client's figures (-b: both the same sum): the same numbers
    sys.exit(0 if o == g else "the server's row (%s) is not the client's (%s)" % (o, g))
try:
    fo, fg = float(o), float(g)
except ValueError:
    sys.exit("not numbers: %s %s" % (o, g))
if not math.isfinite(fg) or fg <= 0:
    print("guest figure %s (clock uncalibrated under TCG): not compared" % g)
    sys.exit(0)
if fo <= 0 or not 0.1 <= fo / fg <= 10:
    sys.exit("averages %s and %s MB/s are more than a factor 10 apart" % (o, g))
print("averages %s (ours) and %s (guest) MB/s" % (o, g))
PY
) || { case_rc=${case_rc:-0}; [ "$case_rc" -eq 0 ] && case_rc=99; }
	[ -n "$verdict" ] && echo "#   $verdict"
	report "$title" "$(row "$size" "$rows")" "$(row "$size" "$rows")"
}
for role in client server; do
	for test in write_bw read_bw send_bw; do
		# enough small messages that the first round trip does not dominate send_bw's
		# two averages (each side times only its own end)
		perf_bw_case "$role" "$test" 64 $([ "$test" = send_bw ] && echo 1000 || echo 20)
		perf_bw_case "$role" "$test" 65536 20
		perf_bw_case "$role" "$test" 1048576 5
	done
	perf_bw_case "$role" atomic_bw 8 20
	# -b: both sides initiate; each prints the sum of both directions (the same numbers).
	# Both devices are busy in both directions here: -u 18 (1 s ACK timeout instead of
	# 67 ms) keeps a loaded TCG guest from looking dead.
	perf_bw_case "$role" write_bw 65536 20 -b -u 18
	perf_bw_case "$role" read_bw 65536 20 -b -u 18
	perf_bw_case "$role" send_bw 65536 20 -b -u 18
	# -q 2: a record per QP in the exchange, -n WRs on each QP
	perf_bw_case "$role" write_bw 65536 20 -q 2
	perf_bw_case "$role" send_bw 65536 100 -q 2
done

# --- 7: teardown
qpid=$(iop_guest_pid 1)
ns=$IOP_NS
eal_cleanup
iop_session_end
trap - EXIT
leftover=
ip netns list | awk '{ print $1 }' | grep -qx "$ns" && leftover="namespace $ns"
[ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null && leftover="$leftover qemu $qpid"
compgen -G "$eal_prefix_glob" >/dev/null && leftover="$leftover $(echo $eal_prefix_glob)"
check "teardown leaves nothing behind${leftover:+ (left: $leftover)}" [ -z "$leftover" ]

iop_tap_end "PMD interop with rxe"
