#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The interop harness by hand (root, Debian 12). One manual session at a time, kept in
# $IRDMA_INTEROP_RUN (default /tmp/irdma-iop-manual):
#
#   iop.sh image              build the guest image into $IRDMA_INTEROP_CACHE (default /var/cache/irdma-interop)
#   iop.sh up                 namespace + guest 1 with rxe0 (198.18.0.11); prints the namespace name
#   iop.sh exec 'CMD'         run CMD in guest 1 (stdout+stderr, exit status)
#   iop.sh console            interactive serial console of guest 1 (socat; Ctrl-] to leave)
#   iop.sh ns CMD...          run a host command inside the namespace (e.g. tcpdump -i iopbr0)
#   iop.sh server KIND [ARGS] start a peer server in guest 1 (see lib/iop-peers.sh)
#   iop.sh status             what runs
#   iop.sh down               stop the guest, delete the namespace
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/iop.sh"

export IRDMA_INTEROP_RUN=${IRDMA_INTEROP_RUN:-/tmp/irdma-iop-manual}
# (manual sessions are named irdma-iop-manual-<pid>; tests use irdma-iop-<pid>)
state=$IRDMA_INTEROP_RUN/ns

load_session() {
	[ -f "$state" ] || { iop_die "no manual session (run: $0 up)"; exit 1; }
	IOP_NS=$(cat "$state")
	IOP_RUN=$IRDMA_INTEROP_RUN
	IOP_NET_CREATED=1
}

cmd=${1:-}
shift || true
case "$cmd" in
image)
	iop_install_pkgs "${IOP_HOST_PKGS[@]}" && iop_image_build && ls -l "$IOP_VMLINUZ" "$IOP_INITRD"
	;;
up)
	[ -f "$state" ] && { iop_die "a manual session exists ($(cat "$state")); run: $0 down"; exit 1; }
	why=$(iop_cannot_run) && { iop_die "cannot run QEMU here: $why"; exit 1; }
	export IRDMA_INTEROP_NS=${IRDMA_INTEROP_NS:-irdma-iop-manual-$$}
	iop_session_begin manual || exit 1
	# Any failure from here on tears down what was made (the EXIT trap).
	iop_image_build && iop_net_up && iop_guest_start 1 && iop_guest_wait_rxe 1 60 || exit 1
	echo "$IOP_NS" >"$state"
	trap - EXIT INT TERM HUP
	echo "namespace $IOP_NS; guest 1 at $(iop_guest_ip 1); raw port $IOP_RAW_IF ($IOP_RAW_IP, $IOP_RAW_MAC)"
	;;
exec)
	load_session
	iop_guest_exec 1 "${IRDMA_INTEROP_EXEC_LIMIT:-60}" "$*"
	;;
console)
	load_session
	iop_install_pkgs socat || exit 1
	echo "guest 1 console (Ctrl-] to leave)" >&2
	if [ -t 0 ]; then
		socat -,raw,echo=0,escape=0x1d "UNIX-CONNECT:$(iop_guest_dir 1)/console.sock"
	else
		socat - "UNIX-CONNECT:$(iop_guest_dir 1)/console.sock" # scripted: lines in, output out
	fi
	;;
ns)
	load_session
	iop_ns "$@"
	;;
server)
	load_session
	iop_peer_server 1 "$@"
	;;
status)
	load_session
	echo "namespace $IOP_NS"
	iop_ns ip -br addr
	pid=$(iop_guest_pid 1) && echo "guest 1: qemu pid $pid" || echo "guest 1: not running"
	;;
down)
	load_session
	iop_session_end
	rm -f "$state"
	;;
*)
	sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
