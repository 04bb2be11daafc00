#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# irdma-rping across two processes joined by net_memif (TAP): the server on lcore 0, the
# client on lcore 1, RDMA-CM over QP 1 and the pings over RoCEv2 frames on the memif
# ring. Both exit 0, the client validated every ping (-V), and both print the same ping
# text, which is rping's (built here from rping's rule).
#
# Usage: test_rping_memif.sh PATH/TO/irdma-rping
set -uo pipefail
bin=${1:?usage: test_rping_memif.sh PATH/TO/irdma-rping}
run=$(mktemp -d /tmp/irdma_rping_memif.XXXXXX)
sock=/run/irdma-tests/rping_$$.sock
mkdir -p /run/irdma-tests
step=0 failed=0 spid=
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	rm -rf "$run" "$sock" /var/run/dpdk/irdma_rping_memif_[sc]_$$
}
trap cleanup EXIT
ok() { step=$((step + 1)); echo "ok $step - $*"; }
not_ok() { step=$((step + 1)); failed=$((failed + 1)); echo "not ok $step - $*"; }

# one side: ROLE LCORE IP MAC -- rping options
side() {
	local role=$1 lcore=$2 ip=$3 mac=$4
	shift 5
	# net_memif trades its regions over EAL's multi-process channel: no --no-shconf, a
	# unique prefix removed at the end instead
	timeout -k 2 60 "$bin" --no-pci --no-huge -m 256 -l "$lcore" \
		--file-prefix="irdma_rping_memif_${role:0:1}_$$" --log-level=lib.eal:error \
		--vdev="net_memif0,role=$role,id=0,socket=$sock,socket-abstract=no,mac=$mac" -- \
		--devargs "soft,port=net_memif0,ip=$ip" --timeout 30 "$@"
}

expected() {
	python3 - "$1" "$2" "$3" <<'PY'
import sys
prefix, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for n in range(count):
    head = "rdma-ping-%d: " % n
    print(prefix + head + "".join(chr(65 + (n + i) % 58) for i in range(size - 1 - len(head))))
PY
}

for size in 64 5000; do
	count=8
	side server 0 198.18.0.1 02:00:00:00:01:01 -- -s -v -d -S "$size" \
		>"$run/srv.out" 2>"$run/srv.err" &
	spid=$!
	# the memif server port must be up before its client starts (a refused memif client
	# does not retry): the server prints "listening" once its port and CM run
	for _ in $(seq 100); do
		grep -q '^listening on' "$run/srv.out" && break
		sleep 0.1
	done
	crc=0
	side client 1 198.18.0.2 02:00:00:00:01:02 -- -c -a 198.18.0.1 -v -V -S "$size" \
		-C "$count" >"$run/cli.out" 2>"$run/cli.err" || crc=$?
	srcv=0
	wait "$spid" || srcv=$?
	spid=
	got_c=$(grep '^ping data: ' "$run/cli.out")
	got_s=$(grep '^server ping data: ' "$run/srv.out")
	if [ $crc -eq 0 ] && [ $srcv -eq 0 ] && [ "$got_c" = "$(expected 'ping data: ' $count $size)" ] &&
		[ "$got_s" = "$(expected 'server ping data: ' $count $size)" ] &&
		grep -q '^client DISCONNECT EVENT' "$run/cli.err" &&
		grep -q '^server DISCONNECT EVENT' "$run/srv.err"; then
		ok "irdma-rping over net_memif, $size B x $count, both roles"
	else
		sed 's/^/#   client: /' "$run/cli.out" "$run/cli.err" | cut -c1-120 | tail -n 12
		sed 's/^/#   server: /' "$run/srv.err" | cut -c1-120 | tail -n 12
		grep -v 'ping data' "$run/srv.out" | sed 's/^/#   server: /' | tail -n 12
		not_ok "irdma-rping over net_memif, $size B x $count (client $crc, server $srcv)"
	fi
done
echo "1..$step"
[ $failed -eq 0 ]
