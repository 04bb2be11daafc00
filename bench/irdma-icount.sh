#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Instructions per RDMA WRITE 8 B on the device path, counted by callgrind (no PMU here).
#
#   bench/irdma-icount.sh [N [BURST [MODE [IDLE]]]]   (default N = 2000, BURST = 1, MODE = write, IDLE = 0)
#
# MODE write: RDMA WRITE 8 B inline; send: SEND 8 B inline into a receive B posts before
# (two more stages: B posting its receives, B polling their completions); read: RDMA READ
# 8 B (A reads B's buffer).
#
# bench/irdma-icount runs N and 2N writes (one lcore, two port=loop devices, engine=inline);
# callgrind collects only inside the bench's stage wrappers (--toggle-collect=bic_*), and
# Ir/write = (Ir(2N) - Ir(N)) / N per stage, so set-up cancels out. One write is: post on A;
# A's engine sends the WRITE frame; B's engine receives it, writes memory, sends the ACK;
# A's engine (inside poll_cq) takes the ACK and writes the CQE; poll_cq returns it.
# Then the heaviest functions of the 2N run, inclusive, per write. IDLE > 0: each device also
# holds IDLE connected QPs that carry nothing (the idle step must not grow with them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-perf}
n=${1:-2000}
burst=${2:-1}
mode=${3:-write}
idle=${4:-0}
command -v valgrind >/dev/null || { echo "irdma-icount: valgrind is not installed" >&2; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$root" -Dbuildtype=release -Db_sanitize=none -Dtests=false \
		>"$build.setup.log" 2>&1 || { cat "$build.setup.log" >&2; exit 1; }
fi
ninja -C "$build" bench/irdma-icount >/dev/null
tmp=$(mktemp -d)
tag=bicg$$
trap 'rm -rf "$tmp" /var/run/dpdk/${tag}*' EXIT

run() { # iterations -> callgrind file
	valgrind --tool=callgrind --toggle-collect='bic_*' --callgrind-out-file="$tmp/cg.$1" \
		"$build/bench/irdma-icount" -l 0 --no-pci --no-huge -m 512 --no-shconf \
		--file-prefix=${tag}_$1 --log-level=lib.eal:error -- "$1" "$burst" "$mode" "$idle" >"$tmp/out.$1" 2>"$tmp/vg.$1" ||
		{ cat "$tmp/vg.$1" "$tmp/out.$1" >&2; exit 1; }
}
# inclusive Ir of one function in a callgrind file
incl() {
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
		awk -v f="$2" '!done && ($0 ~ (":" f " ") || $0 ~ (":" f "$")) { gsub(",", "", $1); print $1; done = 1 }'
}
run "$n"
run $((2 * n))
grep -h 'irdma-icount:' "$tmp/out.$((2 * n))"
printf '| stage | Ir/write |\n|---|--:|\n'
total=0
stages=(bic_post:post_send bic_step_a:"engine A (sends the request)"
	bic_step_b:"engine B (receives, executes, responds)"
	bic_poll:"poll_cq (engine A takes the response, CQE)")
[ "$mode" = send ] && stages+=(bic_post_recv:"B: post_recv" bic_poll_b:"B: poll_cq (receive CQEs)")
for f in "${stages[@]}"; do
	fn=${f%%:*} label=${f#*:}
	a=$(incl "$tmp/cg.$n" "$fn"); b=$(incl "$tmp/cg.$((2 * n))" "$fn")
	v=$(awk -v a="${a:-0}" -v b="${b:-0}" -v n="$((n * burst))" 'BEGIN { printf "%.0f", (b - a) / n }')
	total=$((total + v))
	printf '| %s | %s |\n' "$label" "$v"
done
printf '| **total, device path** | **%s** |\n' "$total"
a=$(incl "$tmp/cg.$n" bic_idle); b=$(incl "$tmp/cg.$((2 * n))" bic_idle)
printf '| one idle engine step (not in the total) | %s |\n\n' \
	"$(awk -v a="${a:-0}" -v b="${b:-0}" -v n="$((4 * n))" 'BEGIN { printf "%.0f", (b - a) / n }')"
echo "Heaviest functions (inclusive Ir per write, the 2N run, self and callees):"
callgrind_annotate --inclusive=yes --threshold=99 "$tmp/cg.$((2 * n))" 2>/dev/null |
	awk -v n=$((2 * n * burst)) '/^ *[0-9,]+ \(/ && $0 !~ /PROGRAM TOTALS|bic_|irdma-icount.c:main|\(below main\)|libc_start|0x0/ {
		c = $1; gsub(",", "", c); fn = $0; sub(/^.*:/, "", fn); sub(/ \[.*$/, "", fn)
		if (!(fn in seen)) { seen[fn] = 1; printf "  %7.0f  %s\n", c / n, fn; k++ }
		if (k >= 25) exit }' || true
