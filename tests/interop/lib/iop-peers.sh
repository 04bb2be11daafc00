# SPDX-License-Identifier: BSD-3-Clause
# The Linux peers in a guest: rdma-core's ibv_*_pingpong and perftest, as servers (in the
# background, one per kind) and clients (in the foreground). Sourced, never run.
#
#   iop_peer_server N KIND [args...]        start a server in guest N, wait until it listens
#   iop_peer_wait N KIND LIMIT              wait for it to end; prints its output, returns its status
#   iop_peer_stop N KIND                    kill it (if still running) by the PID recorded in the guest
#   iop_peer_client N KIND LIMIT HOST [args...]   run a client against HOST; its output and status
#
# KIND is rc_pingpong | ud_pingpong | uc_pingpong | srq_pingpong (rdma-core examples) or a
# perftest test: write_lat | read_lat | atomic_lat | send_lat | write_bw | read_bw | atomic_bw |
# send_bw. The device (-d rxe0) and the IPv4-mapped GID index (-g for the pingpongs, -x for
# perftest) are added; everything else comes from args (-p PORT, -s SIZE, -n ITERS, -m MTU, ...).
# A server runs under a time limit (IRDMA_INTEROP_PEER_LIMIT, default 60 s) so it never
# outlives the test; its output is /tmp/peer-KIND.log in the guest.

IOP_PEER_LIMIT=${IRDMA_INTEROP_PEER_LIMIT:-60}

# The guest command line of a peer: "<binary> -d rxe0 <gid option> <index>".
iop_peer_cmd() {
	local n=$1 kind=$2 gidx
	gidx=$(iop_guest_gid_index "$n") || { iop_die "guest $n has no IPv4-mapped GID"; return 1; }
	case "$kind" in
	rc_pingpong | ud_pingpong | uc_pingpong | srq_pingpong) echo "ibv_$kind -d rxe0 -g $gidx" ;;
	write_lat | read_lat | atomic_lat | send_lat | write_bw | read_bw | atomic_bw | send_bw)
		echo "ib_$kind -d rxe0 -x $gidx" ;;
	*) iop_die "unknown peer kind '$kind'"; return 1 ;;
	esac
}

# The TCP port a peer listens on: the value of -p, else 18515 (both tool families' default).
iop_peer_port() {
	local port=18515
	while [ $# -gt 0 ]; do
		case "$1" in
		-p | --port) port=$2; shift ;;
		--port=*) port=${1#*=} ;;
		esac
		shift
	done
	echo "$port"
}

# Quotes words for the guest's sh: each one in single quotes.
iop_sh_quote() {
	local w
	for w in "$@"; do
		printf " '%s'" "${w//\'/\'\\\'\'}"
	done
}

iop_peer_server() {
	local n=$1 kind=$2 cmd port
	shift 2
	cmd=$(iop_peer_cmd "$n" "$kind") || return 1
	port=$(iop_peer_port "$@")
	iop_guest_exec "$n" 20 "/iop/iop-peer start $kind $IOP_PEER_LIMIT $port $cmd$(iop_sh_quote "$@")" >&2 ||
		{ iop_die "guest $n: cannot start $cmd $*"; return 1; }
}

iop_peer_wait() {
	iop_guest_exec "$1" $(($3 + 5)) "/iop/iop-peer wait $2 $3"
}

iop_peer_stop() {
	iop_guest_exec "$1" 10 "/iop/iop-peer stop $2" >/dev/null
}

iop_peer_client() {
	local n=$1 kind=$2 limit=$3 host=$4 cmd
	shift 4
	cmd=$(iop_peer_cmd "$n" "$kind") || return 1
	iop_guest_exec "$n" $((limit + 5)) "timeout -s KILL $limit $cmd$(iop_sh_quote "$@") $host"
}

# Named hooks for the interop tests of the PMD's applications. Servers return once they
# listen; iop_peer_wait N KIND LIMIT then collects their output and status. Clients run in
# the foreground for at most IRDMA_INTEROP_CLIENT_LIMIT seconds (default 30) against HOST
# (198.18.0.1 reaches a program in the namespace, on the bridge's kernel address).
IOP_CLIENT_LIMIT=${IRDMA_INTEROP_CLIENT_LIMIT:-30}

iop_rc_pingpong_server() { iop_peer_server "$1" rc_pingpong "${@:2}"; }
iop_ud_pingpong_server() { iop_peer_server "$1" ud_pingpong "${@:2}"; }
iop_write_lat_server() { iop_peer_server "$1" write_lat "${@:2}"; }
iop_read_lat_server() { iop_peer_server "$1" read_lat "${@:2}"; }
iop_atomic_lat_server() { iop_peer_server "$1" atomic_lat "${@:2}"; }

iop_rc_pingpong_client() { iop_peer_client "$1" rc_pingpong "$IOP_CLIENT_LIMIT" "$2" "${@:3}"; }
iop_ud_pingpong_client() { iop_peer_client "$1" ud_pingpong "$IOP_CLIENT_LIMIT" "$2" "${@:3}"; }
iop_write_lat_client() { iop_peer_client "$1" write_lat "$IOP_CLIENT_LIMIT" "$2" "${@:3}"; }
iop_read_lat_client() { iop_peer_client "$1" read_lat "$IOP_CLIENT_LIMIT" "$2" "${@:3}"; }
iop_atomic_lat_client() { iop_peer_client "$1" atomic_lat "$IOP_CLIENT_LIMIT" "$2" "${@:3}"; }

# Captures every frame of the bridge (all guests and the raw port) into FILE (pcap) until
# iop_capture_stop; for tshark checks of what a device sent.
iop_capture_start() {
	local file=$1
	iop_install_pkgs tcpdump || return 1
	iop_ns tcpdump -i "$IOP_BR" -U -s 0 -w "$file" >"$IOP_RUN/tcpdump.log" 2>&1 &
	IOP_CAPTURE_PID=$!
	iop_track_pid "$IOP_CAPTURE_PID"
	iop_wait_until 10 0.1 grep -q 'listening on' "$IOP_RUN/tcpdump.log" ||
		{ iop_die "tcpdump did not start: $(cat "$IOP_RUN/tcpdump.log")"; return 1; }
}

iop_capture_stop() {
	[ -n "${IOP_CAPTURE_PID:-}" ] || return 0
	iop_stop_pid "$IOP_CAPTURE_PID"
	wait "$IOP_CAPTURE_PID" 2>/dev/null
	IOP_CAPTURE_PID=
}
