#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# RDMA WRITE 8 B over net_memif between two processes, next to raw DPDK frames over a
# second memif link between the same two processes, in the same run (bench/irdma-wire).
#
#   bench/wire-memif.sh [BUILD_DIR] [irdma-wire options: -n ITERS -w WARMUP -t SECONDS]
#
# Server process on CPU 1, client on CPU 0, one lcore each (never two pollers on a CPU).
# Prints the client's table; exit status is the client's (non-zero only if a run failed).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
exe=$build/bench/irdma-wire
[ -x "$exe" ] || { echo "wire-memif: $exe not built" >&2; exit 1; }

tag=bwm$$
dir=$(mktemp -d /tmp/irdma-bench-memif.XXXXXX)
eal=(--no-pci --no-huge -m 256 --no-shconf --log-level=lib.eal:error --log-level=pmd.net.memif:error)
vdev() { # role
	echo "--vdev=net_memif0,role=$1,id=0,socket=$dir/raw.sock,socket-abstract=no" \
	     "--vdev=net_memif1,role=$1,id=0,socket=$dir/rdma.sock,socket-abstract=no"
}
cleanup() {
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	rm -rf "$dir" "/var/run/dpdk/${tag}s" "/var/run/dpdk/${tag}c"
}
trap cleanup EXIT

# shellcheck disable=SC2046
timeout 300 "$exe" -l 1 "${eal[@]}" --file-prefix="${tag}s" $(vdev server) -- --server "$@" \
	>"$dir/server.log" 2>&1 &
spid=$!
sleep 0.5
# shellcheck disable=SC2046
timeout 300 "$exe" -l 0 "${eal[@]}" --file-prefix="${tag}c" $(vdev client) -- --client "$@" \
	2>"$dir/client.err"
crc=$?
wait "$spid"
src=$?
spid=
if [ $crc -ne 0 ] || [ $src -ne 0 ]; then
	echo "wire-memif: client exit $crc, server exit $src" >&2
	sed 's/^/client: /' "$dir/client.err" >&2
	sed 's/^/server: /' "$dir/server.log" >&2
	exit 1
fi
