#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# irdma-perf runs an 8-byte RDMA WRITE ping-pong on two lcores and prints one perftest row
# whose columns are numbers in order (t_min <= t_typical <= t_max). TAP output.
perf=$1
prefix=irdma_perf_smoke_$$
out=$(mktemp)
trap 'rm -rf "$out" "/var/run/dpdk/$prefix" "${XDG_RUNTIME_DIR:-/nonexistent}/dpdk/$prefix"' EXIT
echo "1..3"
if [ "$(nproc)" -lt 2 ]; then
	echo "ok 1 # SKIP needs two CPUs"; echo "ok 2 # SKIP"; echo "ok 3 # SKIP"; exit 0
fi
"$perf" -l 0-1 --no-pci --no-huge -m 512 --no-shconf --file-prefix="$prefix" \
	--log-level=lib.eal:error -- -s 8 -n 200 >"$out" 2>&1
rc=$?
[ $rc -eq 0 ] && echo "ok 1 - exit status 0" || { echo "not ok 1 - exit status $rc"; sed 's/^/# /' "$out"; }
grep -q '^ #bytes #iterations    t_min\[usec\]    t_max\[usec\]  t_typical\[usec\]' "$out" \
	&& echo "ok 2 - perftest header" || echo "not ok 2 - perftest header"
awk '$1 == 8 && $2 == 200 { ok = ($3 > 0 && $3 <= $5 && $5 <= $4) } END { exit !ok }' "$out" \
	&& echo "ok 3 - row for 8 bytes x 200 iterations, t_min <= t_typical <= t_max" \
	|| { echo "not ok 3 - row"; sed 's/^/# /' "$out"; }
