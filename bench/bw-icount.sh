#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Instructions per RDMA WRITE of SIZE bytes on port=loop (both devices, one lcore, from the
# post to the completion), counted by callgrind, at each path MTU; and per byte.
#
#   bench/bw-icount.sh [SIZE [N]]    (default 65536 bytes, N = 50)
#
# irdma-bw -n runs exactly N and 2N WRITEs per case inside run_write(); Ir/WRITE =
# (Ir(2N) - Ir(N)) / N, so set-up cancels out. Valgrind's CPU has no AVX-512, so the
# ICRC figures are those of the PCLMULQDQ path (the 512-bit fold is not measured here).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-perf}
size=${1:-65536}
n=${2:-50}
command -v valgrind >/dev/null || { echo "bw-icount: valgrind is not installed" >&2; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$root" -Dbuildtype=release -Db_sanitize=none -Dtests=false \
		>"$build.setup.log" 2>&1 || { cat "$build.setup.log" >&2; exit 1; }
fi
ninja -C "$build" bench/irdma-bw >/dev/null
tmp=$(mktemp -d)
tag=bwic$$
trap 'rm -rf "$tmp" /var/run/dpdk/${tag}*' EXIT

run() { # MTU COUNT -> inclusive Ir of run_write
	valgrind --tool=callgrind --toggle-collect='run_write*' --callgrind-out-file="$tmp/cg.$1.$2" \
		"$build/bench/irdma-bw" -l 0 --no-pci --no-huge -m 512 --no-shconf \
		--file-prefix=${tag}_$1_$2 --log-level=lib.eal:error -- -s "$size" -m "$1" -r 1 \
		-n "$2" >"$tmp/out.$1.$2" 2>"$tmp/vg.$1.$2" ||
		{ cat "$tmp/vg.$1.$2" "$tmp/out.$1.$2" >&2; exit 1; }
	# The awk reads to the end (no exit): an early exit would break callgrind_annotate's pipe,
	# and under pipefail the SIGPIPE would end the script after its first figure.
	callgrind_annotate --inclusive=yes "$tmp/cg.$1.$2" 2>/dev/null |
		awk '!done && /PROGRAM TOTALS/ { gsub(",", "", $1); print $1; done = 1 }'
}
printf '| RDMA WRITE %s B, port=loop | Ir/WRITE | Ir/byte |\n|---|--:|--:|\n' "$size"
for mtu in 4096 1024; do
	a=$(run $mtu "$n")
	b=$(run $mtu $((2 * n)))
	awk -v a="$a" -v b="$b" -v n="$n" -v s="$size" -v m="$mtu" \
		'BEGIN { w = (b - a) / n; printf "| path MTU %s | %.0f | %.2f |\n", m, w, w / s }'
done
