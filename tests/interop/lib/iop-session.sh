# SPDX-License-Identifier: BSD-3-Clause
# One interop session: its namespace, run directory and the processes it started, and the
# teardown that removes all of them on any exit. Sourced, never run.
#
#   iop_session_begin [manual]  names the session (namespace irdma-iop-<pid>), installs the
#                        traps and (unless manual) a watchdog for when the traps cannot run
#   iop_track_pid PID    a host process to stop at teardown (only PIDs this session started)
#   iop_session_end      stops guests and tracked processes, deletes the namespace
#
# A script that calls iop_session_begin gets iop_session_end on EXIT, INT, TERM and HUP,
# so a failing or interrupted test leaves no namespace, tap, veth or QEMU behind.

IOP_TRACKED_PIDS=()

iop_session_begin() {
	local mode=${1:-}
	IOP_NS=${IRDMA_INTEROP_NS:-irdma-iop-$$}
	IOP_RUN=${IRDMA_INTEROP_RUN:-/tmp/$IOP_NS}
	mkdir -p "$IOP_RUN" || { iop_die "cannot create $IOP_RUN"; return 1; }
	trap 'iop_session_end' EXIT
	trap 'iop_log "interrupted"; exit 130' INT
	trap 'iop_log "terminated"; exit 143' TERM
	trap 'exit 129' HUP
	[ "$mode" = manual ] || iop_session_watchdog
}

# A test runner that times out kills the whole process group with SIGKILL half a second
# after SIGTERM (meson does), too soon for the EXIT trap; QEMU, daemonized, would survive.
# So a watchdog in its own session waits for this shell to go and then removes what it
# left: guests by their PID files, processes inside the namespace, the namespace itself
# (only if this session created it). After a normal teardown it finds nothing to do.
iop_session_watchdog() {
	setsid bash -c '
		. "$0/iop.sh"
		IOP_NS=$1 IOP_RUN=$2
		while kill -0 "$3" 2>/dev/null; do sleep 0.5; done
		[ -d "$IOP_RUN" ] || exit 0
		[ -f "$IOP_RUN/net-created" ] && IOP_NET_CREATED=1
		iop_session_end' "$IOP_LIB_DIR" "$IOP_NS" "$IOP_RUN" "$$" </dev/null >/dev/null 2>&1 &
}

iop_track_pid() { IOP_TRACKED_PIDS+=("$1"); }

# Stops one host process this session started: TERM, a bounded wait, then KILL.
iop_stop_pid() {
	local pid=$1 i
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 30); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
}

iop_session_end() {
	local d n pid rc=$?
	trap - EXIT INT TERM HUP
	[ -n "${IOP_RUN:-}" ] || return $rc
	for d in "$IOP_RUN"/g[1-9]; do
		[ -d "$d" ] || continue
		n=${d##*/g}
		iop_guest_stop "$n"
	done
	for pid in "${IOP_TRACKED_PIDS[@]}"; do
		iop_stop_pid "$pid"
	done
	# Anything still running inside the namespace was started by this session (the
	# namespace is private to it); it has to go before the namespace can disappear.
	if [ "${IOP_NET_CREATED:-0}" = 1 ] && iop_net_exists; then
		for pid in $(ip netns pids "$IOP_NS" 2>/dev/null); do
			iop_log "stopping leftover process $pid in $IOP_NS: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
			iop_stop_pid "$pid"
		done
	fi
	iop_net_down
	if [ "${IRDMA_INTEROP_KEEP:-0}" = 1 ]; then
		iop_log "kept $IOP_RUN"
	else
		rm -rf "$IOP_RUN"
	fi
	return $rc
}
