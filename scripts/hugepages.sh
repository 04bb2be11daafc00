#!/usr/bin/env bash
# Reserves 2 MiB hugepages for the tests and the demo, when the machine allows it.
# Sourced by the other scripts; prints what it did. Sets IRDMA_HUGEPAGES=1 when pages are
# free and mounted, IRDMA_HUGEPAGES=0 (callers then use --no-huge) otherwise.
# Usage: reserve_hugepages [pages]   (default 128 = 256 MiB)

reserve_hugepages() {
	local want=${1:-128} have free
	IRDMA_HUGEPAGES=0
	have=$(awk '/^HugePages_Total/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
	if [ "${have:-0}" -lt "$want" ] && [ "$(id -u)" -eq 0 ]; then
		if command -v hugeadm >/dev/null 2>&1; then
			hugeadm --pool-pages-min "2MB:$want" >/dev/null 2>&1 || true
		fi
		have=$(awk '/^HugePages_Total/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
		if [ "${have:-0}" -lt "$want" ] && [ -w /proc/sys/vm/nr_hugepages ]; then
			echo "$want" >/proc/sys/vm/nr_hugepages 2>/dev/null || true
		fi
	fi
	if ! grep -qs ' hugetlbfs ' /proc/mounts && [ "$(id -u)" -eq 0 ]; then
		mkdir -p /dev/hugepages
		mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null || true
	fi
	free=$(awk '/^HugePages_Free/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
	if [ "${free:-0}" -gt 0 ] && grep -qs ' hugetlbfs ' /proc/mounts; then
		IRDMA_HUGEPAGES=1
		echo "hugepages: $free free 2 MiB pages (hugetlbfs mounted)"
	else
		echo "hugepages: none could be reserved here; falling back to --no-huge"
	fi
	export IRDMA_HUGEPAGES
}
