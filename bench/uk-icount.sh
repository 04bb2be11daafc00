#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# lib/uk instructions per operation, counted by callgrind (this VM has no PMU).
#
#   bench/uk-icount.sh [N]        (default N = 100000)
#
# For each operation the bench program runs N and 2N iterations under
# `valgrind --tool=callgrind`; Ir/op = (Ir(2N) - Ir(N)) / N, so start-up and set-up cancel out.
#   API Ir/op   only the instructions inside the measured call (--toggle-collect on the
#               bench's one-call wrapper: the lib/uk call plus the wrapper's call/return)
#   loop Ir/op  the whole iteration, including the bench's own ring recycling and, for the
#               poll, the CQE the bench writes as "hardware"
# The ratio and the target (<= 0.75x the rdma-core reference) use API Ir/op.
#
# Set-up measured: GEN_2 (E810) attributes, RoCE RC QP, power-of-two rings, doorbell to a
# plain memory word, lib/uk compiled into the bench at -O2 whatever the buildtype. Before
# measuring, the program checks that the WQE/CQE bytes it produces equal fixed images taken
# from tests/data/irdma-golden-vectors.json (or, where no vector exists, the spec layout).
# Environment: BUILD=<dir> (default build-bench), REF_* to override reference figures.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-bench}
n=${1:-100000}
exe=$build/bench/uk-icount

command -v valgrind >/dev/null || { echo "uk-icount: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$root" -Dbuildtype=release -Db_sanitize=none -Dpmd=disabled \
		-Dtests=false >"$build.setup.log" 2>&1 || { cat "$build.setup.log" >&2; exit 1; }
fi
ninja -C "$build" bench/uk-icount >/dev/null

"$exe" check || { echo "uk-icount: byte check failed, figures would be meaningless" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Ir total of one callgrind run: ops, iterations, extra valgrind options.
ir() {
	local op=$1 iters=$2; shift 2
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" "$exe" "$op" "$iters" \
		>/dev/null 2>"$tmp/vg.log" || { cat "$tmp/vg.log" >&2; exit 1; }
	awk '/^(summary|totals):/ { print $2; exit }' "$tmp/cg.out"
}

declare -A ref=([send]=${REF_SEND:-266} [inline]=${REF_INLINE:-288} [write]=${REF_WRITE:-241}
	[recv]=${REF_RECV:-110} [poll]=${REF_POLL:-153})
declare -A label=([send]="send, 1 SGE" [inline]="inline send, 8 B" [write]="RDMA write, 1 SGE"
	[recv]="post_receive, 1 SGE" [poll]="poll, 1 CQE")

printf '%-22s %9s %10s %9s %7s %7s\n' "op" "API Ir/op" "loop Ir/op" "reference" "ratio" "target"
all_met=yes
for op in send inline write recv poll; do
	a1=$(ir "$op" "$n" --toggle-collect='ukb_op_*')
	a2=$(ir "$op" $((2 * n)) --toggle-collect='ukb_op_*')
	l1=$(ir "$op" "$n")
	l2=$(ir "$op" $((2 * n)))
	api=$(awk -v a="$a1" -v b="$a2" -v n="$n" 'BEGIN { printf "%.1f", (b - a) / n }')
	loop=$(awk -v a="$l1" -v b="$l2" -v n="$n" 'BEGIN { printf "%.1f", (b - a) / n }')
	ratio=$(awk -v a="$api" -v r="${ref[$op]}" 'BEGIN { printf "%.2f", a / r }')
	met=$(awk -v x="$ratio" 'BEGIN { print (x <= 0.75) ? "yes" : "no" }')
	[ "$met" = yes ] || all_met=no
	printf '%-22s %9s %10s %9s %6sx %7s\n' "${label[$op]}" "$api" "$loop" "${ref[$op]}" "$ratio" "$met"
done
echo "N=$n and 2N=$((2 * n)); target: API Ir/op <= 0.75 x reference; all targets met: $all_met"
