#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# irdma-perf end to end: an 8-byte RDMA WRITE ping-pong and a SEND ping-pong print one
# perftest latency row each (t_min <= t_typical <= t_max), a write_bw run prints one
# bandwidth row with positive figures, and a bad option is one clear line and exit 1. TAP.
perf=$1
prefix=irdma_perf_smoke_$$
out=$(mktemp)
trap 'rm -rf "$out" "/var/run/dpdk/$prefix" "${XDG_RUNTIME_DIR:-/nonexistent}/dpdk/$prefix"' EXIT
eal="-l 0-1 --no-pci --no-huge -m 512 --no-shconf --file-prefix=$prefix --log-level=lib.eal:error"
echo "1..5"
if [ "$(nproc)" -lt 2 ]; then
	for i in 1 2 3 4 5; do echo "ok $i # SKIP needs two CPUs"; done
	exit 0
fi
n=1
check() { # description, command status
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; sed 's/^/# /' "$out"; fi
	n=$((n + 1))
}
lat_row() { # bytes iterations: a row whose t_min <= t_typical <= t_max
	awk -v b="$1" -v i="$2" '$1 == b && $2 == i { ok = ($3 > 0 && $3 <= $5 && $5 <= $4) }
		END { exit !ok }' "$out"
}

# shellcheck disable=SC2086
"$perf" $eal -- -T write_lat -s 8 -n 200 >"$out" 2>&1
grep -q '^ #bytes #iterations    t_min\[usec\]    t_max\[usec\]  t_typical\[usec\]' "$out" && lat_row 8 200
check "write_lat: perftest header and a row for 8 bytes x 200" $?

# shellcheck disable=SC2086
"$perf" $eal -- -T send_lat -s 64 -n 200 >"$out" 2>&1
lat_row 64 200
check "send_lat: a row for 64 bytes x 200" $?

# shellcheck disable=SC2086
"$perf" $eal -- -T read_lat -s 32 -n 200 >"$out" 2>&1
lat_row 32 200
check "read_lat: a row for 32 bytes x 200" $?

# shellcheck disable=SC2086
"$perf" $eal -- -T write_bw -s 4096 -n 500 >"$out" 2>&1
grep -q '^ #bytes     #iterations    BW peak\[MiB/sec\]    BW average\[MiB/sec\]   MsgRate\[Mpps\]' "$out" &&
	awk '$1 == 4096 && $2 == 500 { ok = ($3 > 0 && $4 > 0 && $5 > 0) } END { exit !ok }' "$out"
check "write_bw: perftest header and a row with positive figures" $?

# shellcheck disable=SC2086
"$perf" $eal -- -T write_lat -s 0 >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^irdma-perf: -s 0: expected an integer 1..1048576$' "$out"
check "a bad option: one clear line, exit status 1" $?
