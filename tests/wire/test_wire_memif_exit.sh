#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Exit over net_memif, end to end: the two-process irdma-perf run of app/README.md (server
# first, one CPU each), repeated; both processes must exit 0 every time. It guards the memif
# server's close (soft/soft_port_eth.c, soft_intr_sync.c): with the old fixed pause after
# the link went down the server crashed at exit about 1 run in 60, 6 in 60 with the server
# at nice 19 (its interrupt thread preempted more often: so it runs here), and 4 in 60 with
# an EAL alarm as the barrier (rte_eal_cleanup's rebuild of the interrupt wait list); and
# 1 in 60 a SIGSEGV in net_memif's rx burst while the server still served its device after
# the test and the client's disconnect unmapped the rings (the ends now leave in turn:
# app/irdma-perf/perf_remote.c, soft/README.md "Closing a net_memif port"). A loop
# catches a regression only with some chance (a race); wire_intr_sync checks the barrier.
# Usage: test_wire_memif_exit.sh <irdma-perf> [runs]
set -u
perf=$1
runs=${2:-12}
tag=$$
sock=/tmp/irdma-wire-exit-$tag.sock
eal="--no-pci --no-huge -m 256 --no-shconf"
memif=net_memif0,socket=$sock,socket-abstract=no
log=$(mktemp -d /tmp/irdma-wire-exit-XXXXXX)

cleanup() {
	rm -rf "$log" "$sock" /var/run/dpdk/wexit_s_$tag /var/run/dpdk/wexit_c_$tag
}
trap cleanup EXIT INT TERM

if ! command -v ss >/dev/null 2>&1; then
	echo "1..0 # SKIP ss (iproute2) is not installed"
	exit 0
fi
# The exchange port: a free one from a range picked by PID, so two suites running at once
# (or anything else listening) do not collide.
port=$((20000 + tag % 12000)) # below the ephemeral ports (32768 on)
tries=0
while ss -Hltn "sport = :$port" | grep -q .; do
	tries=$((tries + 1))
	if [ $tries -ge 200 ]; then
		echo "1..0 # SKIP no free TCP port near $port"
		exit 0
	fi
	port=$((20000 + (port - 20000 + 1) % 12000))
done
echo "1..$runs"
fail=0
i=1
while [ "$i" -le "$runs" ]; do
	rm -f "$sock"
	nice -n 19 timeout 20 "$perf" $eal --file-prefix=wexit_s_$tag -l 0 --vdev=$memif,role=server -- \
		--devargs soft,port=net_memif0,ip=198.18.0.1 --test write_lat -x 1 -n 100 \
		-p $port >"$log/s" 2>&1 &
	server=$!
	t=0
	until ss -Hltn "sport = :$port" | grep -q . || [ $t -ge 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	timeout 20 "$perf" $eal --file-prefix=wexit_c_$tag -l 1 --vdev=$memif,role=client -- \
		--devargs soft,port=net_memif0,ip=198.18.0.2 --test write_lat -x 1 -n 100 \
		-p $port 127.0.0.1 >"$log/c" 2>&1
	crc=$?
	wait $server
	src=$?
	rm -rf /var/run/dpdk/wexit_s_$tag /var/run/dpdk/wexit_c_$tag
	if [ $src -eq 0 ] && [ $crc -eq 0 ] && grep -q "#bytes #iterations" "$log/s"; then
		echo "ok $i - server and client exit 0"
	else
		echo "not ok $i - server exit $src, client exit $crc"
		sed 's/^/# server: /' "$log/s" | tail -5
		sed 's/^/# client: /' "$log/c" | tail -5
		fail=$((fail + 1))
	fi
	i=$((i + 1))
done
[ $fail -eq 0 ]
