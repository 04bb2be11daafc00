#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# RDMA-CM against a real Linux rxe (meson suites 'rdmacm' and 'slow', TAP).
#
# One guest (Debian's kernel, rdma_rxe, rdma_ucm, rdma-core's rping, perftest) is booted
# once; our side is the soft device on the namespace's raw port (net_af_packet on roce0,
# 198.18.0.2). The guest's kernel CM (ib_cm + rdma_cm) speaks to lib/cm on our QP 1.
#
#   1. irdma-rping client against `rping -s`, and `rping -c` against irdma-rping -s, with
#      -V on the client (it compares what came back) and -v on both: every ping's line
#      is rping's text on both sides, both exit 0, both print their DISCONNECT line;
#      64 B, 1000 B and 65535 B (64 packets per READ/WRITE at path MTU 1024);
#   2. perftest's rdma_cm mode: irdma-perf -R against ib_write_lat -R, ib_send_lat -R and
#      ib_write_bw -R, both roles (when irdma-perf knows -R);
#   3. the handshake and the pings under loss: our device drops 20 % of what it receives
#      (rx_drop=) and, in a second run, of what it sends (drop=); the guest's CM and ours
#      retransmit (REQ, REP, DREQ; RTU lost: data establishes the connection);
#   4. nothing is left behind: namespace, QEMU, EAL runtime directories.
#
# Usage: rdmacm-interop.sh PATH/TO/irdma-rping [PATH/TO/irdma-perf]
# Exit: 0 with TAP on stdout ("1..0 # SKIP reason" only where QEMU cannot run), 1 on any
# failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/iop.sh"
. "$here/../lib/iop-tap.sh"

rping_bin=${1:-}
perf=${2:-}
case_no=0

[ -x "$rping_bin" ] ||
	{ echo "usage: rdmacm-interop.sh PATH/TO/irdma-rping [PATH/TO/irdma-perf]" >&2; exit 2; }
# EAL runtime directories of this script's processes: irdma_iopcm_<case>_<script pid>.
iop_tap_rxe_session irdma_iopcm
guest=$(iop_guest_ip 1)
ours_ip=$IOP_RAW_IP
dev_base="soft,port=net_af_packet0,ip=$ours_ip"

# ours NAME LIMIT BIN ARGS...: one of our tools in the namespace on the raw port.
ours() {
	local name=$1 limit=$2
	shift 2
	iop_ours 256 "$limit" "$name" "$@"
}

# A guest command in the background (rping has no TCP port to wait on): its output and
# status in /tmp/bg.{log,rc} of the guest.
guest_bg() {
	# stdout and stderr apart: rping's stdout is block-buffered into a file, so its
	# DISCONNECT line (stderr) would land inside the ping lines
	iop_guest_exec 1 10 "rm -f /tmp/bg.rc; (timeout -s KILL $1 sh -c '$2' >/tmp/bg.log 2>/tmp/bg.err; echo \$? >/tmp/bg.rc) </dev/null >/dev/null 2>&1 &" >/dev/null
}
guest_bg_wait() {
	iop_guest_exec 1 $(($1 + 5)) "n=0; while [ ! -f /tmp/bg.rc ] && [ \$n -lt $(($1 * 10)) ]; do sleep 0.1; n=\$((n+1)); done; cat /tmp/bg.log /tmp/bg.err; [ -f /tmp/bg.rc ] && exit \$(cat /tmp/bg.rc); exit 124"
}
# Waits until the guest's rping listens (its RDMA-CM id in state LISTEN).
guest_listening() {
	iop_guest_exec 1 5 "rdma res show cm_id | grep -q 'state LISTEN.*:$1 '" >/dev/null
}

# rping's -v lines for COUNT pings of SIZE bytes, with PREFIX ("ping data: " or "server
# ping data: "), built here from rping's rule (not from either tool's output).
expected_lines() {
	local prefix=$1 count=$2 size=$3
	python3 - "$prefix" "$count" "$size" <<'PY'
import sys
prefix, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for n in range(count):
    head = "rdma-ping-%d: " % n
    body = "".join(chr(65 + (n + i) % 58) for i in range(size - 1 - len(head)))
    print(prefix + head + body)
PY
}

# rping_case ROLE SIZE COUNT [extra devargs] [title suffix]
rping_case() {
	local role=$1 size=$2 count=$3 extra=${4:-} suffix=${5:-} log out gout rc=0 grc=0 pid want
	case_no=$((case_no + 1))
	log=$IOP_RUN/rping-$case_no.log
	if [ "$role" = client ]; then
		guest_bg 60 "rping -s -a $guest -v -S $size"
		iop_wait_until 10 0.2 guest_listening 7174 || { not_ok "rping -s listens in the guest"; return; }
		ours "c$case_no" 90 "$rping_bin" --devargs "$dev_base$extra" -c -a "$guest" -v -V \
			-S "$size" -C "$count" --timeout 60 >"$log" 2>"$log.err" || rc=$?
		gout=$(guest_bg_wait 30) || grc=$?
		want_ours=$(expected_lines "ping data: " "$count" "$size")
		want_guest=$(expected_lines "server ping data: " "$count" "$size")
		title="irdma-rping -c against rping -s, $size B x $count$suffix"
	else
		ours "s$case_no" 90 "$rping_bin" --devargs "$dev_base$extra" -s -v -S "$size" \
			--timeout 60 >"$log" 2>"$log.err" &
		pid=$!
		iop_track_pid "$pid"
		sleep 1
		guest_bg 80 "rping -c -a $ours_ip -v -V -S $size -C $count"
		gout=$(guest_bg_wait 80) || grc=$?
		wait "$pid" || rc=$?
		want_ours=$(expected_lines "server ping data: " "$count" "$size")
		want_guest=$(expected_lines "ping data: " "$count" "$size")
		title="rping -c against irdma-rping -s, $size B x $count$suffix"
	fi
	out=$(cat "$log" "$log.err" | grep -v -e '^EAL: ' -e '^TELEMETRY: ' -e '^irdma-[a-z]*: warning: ')
	if [ $rc -eq 0 ] && [ $grc -eq 0 ] &&
		[ "$(grep 'ping data: ' <<<"$out")" = "$want_ours" ] &&
		[ "$(grep 'ping data: ' <<<"$gout")" = "$want_guest" ] &&
		grep -q 'DISCONNECT EVENT' <<<"$out" &&
		# rping's client exits without waiting for its DREP, so only its server's line
		# is certain
		{ [ "$role" = server ] || grep -q 'server DISCONNECT EVENT' <<<"$gout"; }; then
		grep -v 'ping data: ' <<<"$out" | sed 's/^/#   ours:  /'
		grep -v 'ping data: ' <<<"$gout" | sed 's/^/#   guest: /'
		ok "$title"
	else
		cut -c1-120 <<<"$out" | tail -n 20 | sed 's/^/#   ours:  /'
		cut -c1-120 <<<"$gout" | tail -n 20 | sed 's/^/#   guest: /'
		not_ok "$title (our status $rc, guest status $grc)"
	fi
}

# --- 1: rping, both roles
for size in 64 1000 65535; do
	count=10
	[ "$size" -ge 65535 ] && count=3
	rping_case client "$size" "$count"
	rping_case server "$size" "$count"
done

# --- 2: perftest -R (hook: rdmacm-perftest.sh when irdma-perf has -R)
if [ -n "$perf" ] && [ -x "$perf" ]; then
	. "$here/rdmacm-perftest.sh"
fi

# --- 3: loss in both directions (seeded, so a run repeats its drops)
rping_case client 1000 10 ",rx_drop=0.2,seed=7" ", our device drops 20 % received"
rping_case server 1000 10 ",rx_drop=0.2,seed=7" ", our device drops 20 % received"
rping_case client 1000 10 ",drop=0.2,seed=11" ", our device drops 20 % sent"
rping_case server 1000 10 ",drop=0.2,seed=11" ", our device drops 20 % sent"

# --- 4: teardown
trap - EXIT
eal_cleanup
iop_session_end
left=$(ls -d $eal_prefix_glob 2>/dev/null; ip netns list | grep -F "$IOP_NS")
if [ -z "$left" ]; then ok "nothing left behind ($(iop_elapsed "$t_start")s in all)"; else not_ok "left: $left"; fi
iop_tap_end
