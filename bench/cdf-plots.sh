#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Latency CDF plots (PNG) from the distributions the benchmarks wrote (bench_add_lat with
# BENCH_SAMPLES set): one plot per transport, RDMA WRITE 8 B half-RTT vs the raw transport's
# one-way time vs the cache line one-way, x axis logarithmic in ns.
#
#   bench/cdf-plots.sh DIR        (reads DIR/samples/*.cdf, writes DIR/cdf-<transport>.png)
#
# Prints one Markdown line per plot written; without gnuplot it says so and exits 0.
set -euo pipefail
dir=${1:?usage: cdf-plots.sh DIR}
s=$dir/samples
command -v gnuplot >/dev/null || {
	echo "- CDF plots: gnuplot not installed (scripts/install-deps.sh test); samples in $s"
	exit 0
}
shopt -s nullglob
cl=$(ls "$s"/cache_line_one-way*.cdf 2>/dev/null | head -n 1 || true)

# plot TRANSPORT TITLE FILE... : one PNG, one line per existing file (its first line names it)
plot() {
	local name=$1 title=$2 f cmd="" label
	shift 2
	for f in "$@"; do
		[ -f "$f" ] || continue
		label=$(head -n 1 "$f" | sed -e 's/^# //' -e 's/: [0-9]* samples.*//' -e 's/"/\\"/g')
		cmd+="${cmd:+, }'$f' using 1:2 with lines lw 2 title \"$label\""
	done
	[ -n "$cmd" ] || return 0
	gnuplot <<-GP
	set terminal pngcairo size 900,560 font ",10" noenhanced
	set output "$dir/cdf-$name.png"
	set title "$title"
	set xlabel "ns (log scale)"
	set ylabel "fraction of samples at or below"
	set logscale x
	set yrange [0:1]
	set grid
	set key bottom right
	plot $cmd
	GP
	echo "- CDF plot, $title: $dir/cdf-$name.png"
}

plot loop "port=loop (in-process) vs the cache line" "$cl" "$s"/RDMA_WRITE*engine_inline.cdf \
	"$s"/RDMA_WRITE*engine_service.cdf
plot net_ring "net_ring vs raw net_ring vs the cache line" "$cl" "$s"/*net_ring*.cdf
plot net_memif "net_memif vs raw net_memif vs the cache line" "$cl" "$s"/*net_memif*.cdf
