#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's main job: a real RDMA session on the software device.
# Two soft devices (GEN_3) joined by port=loop, one RC QP each, the two sides on two lcores:
# irdma-perf runs write_lat, send_lat, read_lat, atomic_lat and write_bw back to back and
# prints perftest's tables; each run's data is checked byte for byte.
# Installs missing Debian packages, builds, reserves hugepages when it can (else --no-huge).
# Extra arguments go to irdma-perf (e.g. -n 10000, -s 64, -a).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

"$root/scripts/install-deps.sh" build
# shellcheck source=hugepages.sh
. "$root/scripts/hugepages.sh"
reserve_hugepages 64

build=build-demo
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" -Dbuildtype=release -Dtests=false >/dev/null
fi
ninja -C "$build" >/dev/null

prefix="irdma_demo_$$"
cleanup() {
	rm -rf "/var/run/dpdk/$prefix"
	rm -f /dev/hugepages/"${prefix}"map_* 2>/dev/null || true
}
trap cleanup EXIT

# One lcore per side when there are two CPUs; with one, irdma-perf steps both sides from
# a single loop (never two spinning pollers on one CPU).
lcores=0-1
[ "$(nproc)" -lt 2 ] && lcores=0
if [ "$IRDMA_HUGEPAGES" = 1 ]; then
	# IOVA as VA: the soft device needs no physical addresses, and hugepages that are not
	# physically contiguous then still give contiguous queues.
	mem=(--in-memory --iova-mode=va)
else
	mem=(--no-huge -m 512 --no-shconf)
fi
"$build/app/irdma-perf/irdma-perf" --no-pci --file-prefix="$prefix" -l "$lcores" "${mem[@]}" \
	--log-level=lib.eal:notice -- --demo "$@"
