#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Runs every latency/rate benchmark and prints their tables (Markdown, ready for
# doc/guides/performance.md), with the machine notes the figures need.
#
#   bench/run-all.sh [quick]
#
# Builds build-perf/ (release, no sanitizers) if needed. Needs two CPUs, 0 and 1, that
# nothing else spins on: every case runs one busy-polling lcore per CPU.
# Latency CDF plots (PNG, gnuplot): one per transport, RDMA vs the raw transport vs the
# cache line, from the samples the benchmarks write (BENCH_SAMPLES), into PLOTS (default
# <build>/bench-plots); without gnuplot the samples stay there and no plot is drawn.
# Environment: BUILD=<dir> to use another build, ITERS, WARMUP, ROUNDS, SECONDS, PLOTS.
# lib/uk instruction counts are separate: bench/uk-icount.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-perf}
if [ "${1:-}" = quick ]; then
	iters=${ITERS:-20000} warmup=${WARMUP:-2000} rounds=${ROUNDS:-1} secs=${SECONDS_RATE:-1}
else
	iters=${ITERS:-100000} warmup=${WARMUP:-10000} rounds=${ROUNDS:-3} secs=${SECONDS_RATE:-3}
fi

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$root" -Dbuildtype=release -Db_sanitize=none -Dtests=false \
		>"$build.setup.log" 2>&1 || { cat "$build.setup.log" >&2; exit 1; }
fi
ninja -C "$build" bench/cacheline-pingpong bench/irdma-lat bench/irdma-wire bench/irdma-scale \
	bench/irdma-bw >/dev/null
plots=${PLOTS:-$build/bench-plots}
rm -rf "$plots"
mkdir -p "$plots/samples"
export BENCH_SAMPLES=$plots/samples

tag=brun$$
trap 'rm -rf /var/run/dpdk/${tag}_*' EXIT
eal=(--no-pci --no-huge -m 512 --no-shconf --log-level=lib.eal:error)

echo "# irdma-pmd benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "- tree: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (modified)')"
echo "- CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) CPUs; kernel $(uname -r)"
echo "- DPDK $(pkg-config --modversion libdpdk 2>/dev/null || echo '?'); gcc $(gcc -dumpversion); build: $(basename "$build")"
echo "- load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- counts: $iters samples x $rounds rounds (latency), $warmup warm-up, rates over $secs s"

"$build/bench/cacheline-pingpong" -a 0 -b 1 -n "$iters" -w "$warmup" | grep -v '^RESULT'
"$build/bench/irdma-lat" -l 0,1 "${eal[@]}" --file-prefix=${tag}_lat -- \
	-n "$iters" -w "$warmup" -r "$rounds" | grep -v '^RESULT'
"$build/bench/irdma-wire" -l 0,1 "${eal[@]}" --file-prefix=${tag}_ring -- --ring \
	-n "$iters" -w "$warmup" -t "$secs" | grep -v '^RESULT'
"$root/bench/wire-memif.sh" "$build" -n "$iters" -w "$warmup" -t "$secs" | grep -v '^RESULT'
# WRITE 64 KiB and 1 MiB over net_memif next to raw memif frames of the RDMA frames' size
# (path MTU 1024: net_memif in DPDK 22.11 carries frames of up to 1518 bytes, so 4096 does
# not fit; the latency phases run again, briefly, and keep no samples: the CDF plot is the
# full run's above).
for bw in 65536 1048576; do
	BENCH_SAMPLES= "$root/bench/wire-memif.sh" "$build" -n 2000 -w 200 -t "$secs" -b "$bw" -M 1024 |
		sed -n '/^| case | GB\/s /,/^$/p'
done
# Many QPs: 16384 pairs in one process need about 2 GB (queues and per-QP state).
"$build/bench/irdma-scale" -l 0 --no-pci --no-huge -m 2560 --no-shconf --log-level=lib.eal:error \
	--file-prefix=${tag}_scale -- -t "$secs" | grep -v '^RESULT'
# Bandwidth: WRITE 64 KiB / 1 MiB on port=loop at path MTU 4096 and 1024 next to memcpy.
# One lcore steps both devices (the CPU budget memcpy has).
"$build/bench/irdma-bw" -l 0 "${eal[@]}" --file-prefix=${tag}_bw -- -t "$secs" -r "$rounds" |
	grep -v '^RESULT'
echo
"$root/bench/cdf-plots.sh" "$plots"
echo
echo "- load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
