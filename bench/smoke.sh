#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Smoke test of the benchmarks (TAP): each bench program runs with tiny counts and must
# exit 0 and print a well-formed table: the Markdown header, one row per case, and one
# "RESULT" line per case whose figures are numbers. Nothing here judges a figure: the
# benchmarks are never timed assertions.
#
#   bench/smoke.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: smoke.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
tag=bsmoke$$
out=$(mktemp -d /tmp/irdma-bench-smoke.XXXXXX)
trap 'rm -rf "$out" /var/run/dpdk/${tag}_*' EXIT
eal=(--no-pci --no-huge -m 512 --no-shconf --log-level=lib.eal:error)
n=0
fail=0

if [ "$(nproc)" -lt 2 ]; then
	echo "1..0 # SKIP the benchmarks need two CPUs (one spinning lcore each)"
	exit 0
fi
echo "1..7"

# check NAME FILE LAT_ROWS RATE_ROWS: the table and the RESULT lines of one run
check() {
	local name=$1 file=$2 nlat=$3 nrate=$4 why=""
	local lat rate bad
	lat=$(grep -cE '^RESULT case="[^"]+" n=[0-9]+ min_ns=[0-9]+\.[0-9] p50_ns=[0-9]+\.[0-9] p99_ns=[0-9]+\.[0-9]$' "$file")
	rate=$(grep -cE '^RESULT case="[^"]+" mops=[0-9]+\.[0-9]{3}$' "$file")
	bad=$(grep '^RESULT' "$file" | grep -cvE ' (p99_ns|mops)=[0-9.]+$')
	[ "$nlat" -eq 0 ] || grep -q '^| case | n | p50 ns | p99 ns | p50 ratio | p99 ratio | goal (p50) | met |$' "$file" ||
		why="no latency table header"
	[ "$nrate" -eq 0 ] || grep -q '^| case | Mmsg/s | ratio | goal | met |$' "$file" ||
		why="no rate table header"
	# rows, without the header lines
	[ "$(grep '^| ' "$file" | grep -vc '^| case |')" -eq $((nlat + nrate)) ] ||
		why="${why:+$why; }wrong number of table rows"
	[ "$lat" -eq "$nlat" ] || why="${why:+$why; }$lat latency results, expected $nlat"
	[ "$rate" -eq "$nrate" ] || why="${why:+$why; }$rate rate results, expected $nrate"
	[ "$bad" -eq 0 ] || why="${why:+$why; }$bad malformed RESULT lines"
	report "$name" "$why" "$file"
}

report() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		fail=1
		echo "not ok $n - $1: $2"
		sed 's/^/# /' "$3"
	fi
}

run() { # NAME FILE NLAT NRATE CMD...
	local name=$1 file=$2 nlat=$3 nrate=$4
	shift 4
	if timeout 120 "$@" >"$file" 2>&1; then
		check "$name" "$file" "$nlat" "$nrate"
	else
		report "$name" "exit status $?" "$file"
	fi
}

run "cacheline-pingpong" "$out/cl" 2 0 "$build/bench/cacheline-pingpong" -n 2000 -w 100
run "irdma-lat: cache line, engine=inline, engine=service" "$out/lat" 3 0 \
	"$build/bench/irdma-lat" -l 0,1 "${eal[@]}" --file-prefix=${tag}_lat -- -n 300 -w 30 -r 1
run "irdma-wire --ring: raw and RDMA, latency and rate" "$out/ring" 2 2 \
	"$build/bench/irdma-wire" -l 0,1 "${eal[@]}" --file-prefix=${tag}_ring -- --ring \
	-n 300 -w 30 -t 0.1
run "wire-memif.sh: raw and RDMA over net_memif, two processes" "$out/memif" 2 2 \
	"$here/wire-memif.sh" "$build" -n 300 -w 30 -t 0.1
# irdma-scale: two small N, its own table and one RESULT line each
if timeout 60 "$build/bench/irdma-scale" -l 0 "${eal[@]}" --file-prefix=${tag}_sc -- -t 0.05 1 16 \
	>"$out/sc" 2>&1; then
	grep -q '^| QP pairs | Mmsg/s | vs 1 QP pair | goal | met | queues per QP | other per QP | writes per ACK |$' "$out/sc" &&
		[ "$(grep -cE '^\| (1|16) \| [0-9]+\.[0-9]{3} \| [0-9]+\.[0-9]{2}x \|' "$out/sc")" -eq 2 ] &&
		[ "$(grep -cE '^RESULT case="scale N=(1|16)" mops=[0-9]+\.[0-9]{3}$' "$out/sc")" -eq 2 ] &&
		report "irdma-scale: 1 and 16 QP pairs" "" "$out/sc" ||
		report "irdma-scale: 1 and 16 QP pairs" "malformed table" "$out/sc"
else
	report "irdma-scale: 1 and 16 QP pairs" "exit status $?" "$out/sc"
fi
# irdma-icount is run under callgrind by irdma-icount.sh; here only its own line
if timeout 60 "$build/bench/irdma-icount" -l 0 "${eal[@]}" --file-prefix=${tag}_ic -- 50 4 write 2 \
	>"$out/ic" 2>&1; then
	grep -qE '^irdma-icount: 200 writes \(4 per doorbell, 2 idle connected QPs more on each device\), [0-9]+\.[0-9]{2} busy \+ [0-9]+\.[0-9]{2} idle engine steps per doorbell; [0-9]+ ns per write' "$out/ic" &&
		report "irdma-icount: 50 doorbells of 4 writes, 2 idle QPs" "" "$out/ic" ||
		report "irdma-icount: 50 doorbells of 4 writes, 2 idle QPs" "malformed summary line" "$out/ic"
else
	report "irdma-icount: 50 doorbells of 4 writes, 2 idle QPs" "exit status $?" "$out/ic"
fi
# irdma-bw: one small size at both MTUs, its own table and RESULT lines (data compared
# with the source inside the program: a failed comparison is a non-zero exit)
if timeout 60 "$build/bench/irdma-bw" -l 0 "${eal[@]}" --file-prefix=${tag}_bw -- -s 65536 \
	-t 0.05 -r 1 >"$out/bw" 2>&1; then
	grep -q '^| case | GB/s | ratio | goal | met |$' "$out/bw" &&
		[ "$(grep -cE '^\| (memcpy 64 KiB|RDMA WRITE 64 KiB, path MTU (4096|1024)) \| [0-9]+\.[0-9]{2} \| [0-9]+\.[0-9]{2} \|' "$out/bw")" -eq 3 ] &&
		[ "$(grep -cE '^RESULT bw (memcpy size=65536|write size=65536 mtu=(4096|1024)) gbps=[0-9]+\.[0-9]{3}( ratio=[0-9]+\.[0-9]{3})?$' "$out/bw")" -eq 3 ] &&
		report "irdma-bw: WRITE 64 KiB at path MTU 4096 and 1024 vs memcpy" "" "$out/bw" ||
		report "irdma-bw: WRITE 64 KiB at path MTU 4096 and 1024 vs memcpy" "malformed table" "$out/bw"
else
	report "irdma-bw: WRITE 64 KiB at path MTU 4096 and 1024 vs memcpy" "exit status $?" "$out/bw"
fi
exit $fail
