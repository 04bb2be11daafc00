#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing.
# Usage: install-deps.sh [build|test|all]   (default: build)
set -euo pipefail

build_pkgs=(meson ninja-build pkg-config gcc libc6-dev libdpdk-dev libnuma-dev python3)
# dpdk-dev brings dpdk-telemetry.py; groff/man-db render the man pages; valgrind runs the
# instruction-count benchmarks; libhugetlbfs-bin gives hugeadm; clang and libclang-rt-14-dev
# (libFuzzer and the sanitizer runtimes) build the fuzz targets of tests/fuzz.
# dpdk has dpdk-devbind.py (scripts/bind-nic.sh) and, with pciutils, the DPDK runtime the
# vfio suite copies into its guest (tests/vfio; QEMU and the rest the interop harness installs).
# gnuplot-nox draws the latency CDF plots of bench/run-all.sh (PNG, no X11).
test_pkgs=(dpdk-dev groff-base groff man-db valgrind libhugetlbfs-bin iproute2 procps clang
	libclang-rt-14-dev dpdk pciutils gnuplot-nox)
# tshark dissects the frames the device sends (tests/wire); optional: that test skips
# without it. Its debconf question (may non-root users capture?) is answered no.
optional_test_pkgs=(tshark)

install_optional() {
	[ "$(id -u)" -eq 0 ] || return 0
	local p
	for p in "${optional_test_pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' && continue
		echo "wireshark-common wireshark-common/install-setuid boolean false" |
			debconf-set-selections 2>/dev/null || true
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" \
			>/dev/null 2>&1 || echo "install-deps.sh: could not install $p (optional)" >&2
	done
}

want=("${build_pkgs[@]}")
case "${1:-build}" in
build) ;;
test|all) want+=("${test_pkgs[@]}"); trap install_optional EXIT ;;
*) echo "install-deps.sh: unknown set '$1' (valid: build, test, all)" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: missing Debian packages: ${missing[*]}; run as root or install them" >&2
	exit 1
fi
echo "install-deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || echo "install-deps.sh: apt-get update failed; trying the cached lists" >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
