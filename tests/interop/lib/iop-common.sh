# SPDX-License-Identifier: BSD-3-Clause
# Shared settings and helpers of the interop harness. Sourced, never run.
#
# Everything the harness creates is named after one "session": a network namespace
# irdma-iop-<pid>, a run directory holding the guest's PID file and logs, and nothing else.
# All addresses are in 198.18.0.0/24 (RFC 2544 benchmarking range) and exist only inside
# that namespace.

IOP_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IOP_DIR=$(cd "$IOP_LIB_DIR/.." && pwd)

# Where the guest image and the downloaded kernel live (outside the repository).
IOP_CACHE=${IRDMA_INTEROP_CACHE:-/var/cache/irdma-interop}

# The wiring inside the namespace.
IOP_BR=iopbr0                 # bridge; carries the namespace's kernel IP for TCP
IOP_BR_IP=198.18.0.1          # out-of-band TCP (pingpong / perftest exchanges) goes from here
IOP_PREFIX=24
IOP_RAW_IF=roce0              # namespace end of the veth: raw port of the userspace stack
IOP_RAW_PEER=roce0-br         # bridge end of the veth
IOP_RAW_IP=198.18.0.2         # the userspace stack's address (no kernel IP on roce0)
IOP_RAW_MAC=02:00:00:00:00:02
IOP_EXEC_PORT=5000            # the guest's command port (see guest/iop-exec)
# Guest N is 198.18.0.1N with MAC 52:54:00:12:00:1N (lib/iop-guest.sh).

# Host packages the harness needs; installed when missing.
IOP_HOST_PKGS=(qemu-system-x86 busybox-static rdma-core ibverbs-providers ibverbs-utils
	perftest iproute2 kmod cpio gzip procps tcpdump tshark)

iop_log() { printf 'interop: %s\n' "$*" >&2; }
iop_die() { printf 'interop: error: %s\n' "$*" >&2; return 1; }

# Seconds since the epoch with a fraction, for bounded waits and timing lines.
iop_now() { date +%s.%N; }
iop_elapsed() { awk -v a="$1" -v b="$(iop_now)" 'BEGIN { printf "%.1f", b - a }'; }

# iop_wait_until SECONDS STEP COMMAND...: polls COMMAND until it succeeds or SECONDS pass.
iop_wait_until() {
	local limit=$1 step=$2 t0
	shift 2
	t0=$(date +%s)
	while :; do
		"$@" && return 0
		[ $(($(date +%s) - t0)) -ge "$limit" ] && return 1
		sleep "$step"
	done
}

iop_pkg_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# Installs the missing Debian packages in one apt-get run, bounded in time.
iop_install_pkgs() {
	local missing=() p
	for p in "$@"; do
		iop_pkg_installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || { iop_log "cannot install ${missing[*]}: not root"; return 1; }
	iop_log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	timeout 300 apt-get update -qq >/dev/null 2>&1 || iop_log "apt-get update failed; trying the cached lists"
	timeout 600 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
		{ iop_log "apt-get install ${missing[*]} failed"; return 1; }
}

# Why QEMU cannot run here, or nothing (and status 0) when it can. Installs the host
# packages first, so "no qemu" means the package really could not be had.
iop_cannot_run() {
	[ "$(id -u)" -eq 0 ] || { echo "needs root (network namespaces, tap devices)"; return 0; }
	[ -c /dev/net/tun ] || { echo "no /dev/net/tun (tap devices unavailable)"; return 0; }
	iop_install_pkgs "${IOP_HOST_PKGS[@]}" >&2 || true
	command -v qemu-system-x86_64 >/dev/null 2>&1 ||
		{ echo "qemu-system-x86_64 not available (package qemu-system-x86 could not be installed)"; return 0; }
	ip netns list >/dev/null 2>&1 || { echo "network namespaces unavailable"; return 0; }
	return 1
}
