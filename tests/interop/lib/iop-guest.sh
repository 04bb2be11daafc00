# SPDX-License-Identifier: BSD-3-Clause
# Guest control: start, stop, run a command, wait for rxe. Sourced, never run.
#
#   iop_guest_start N [kernel args...]   boot guest N (198.18.0.1N) and wait for its command port
#   iop_guest_stop N                     stop it (by the PID QEMU wrote; only that PID)
#   iop_guest_exec N LIMIT SCRIPT        run SCRIPT in guest N; its output on stdout, its status returned
#   iop_guest_wait_rxe N LIMIT           wait until rxe0 is ACTIVE with the IPv4-mapped GID
#   iop_guest_console N                  path of the guest's console log
#   iop_guest_set_mtu N MTU              MTU of the guest's eth0 and of every port of the bridge;
#                                        waits for rxe0's active MTU to follow (9000 -> 4096)
#
# Every wait is bounded; a guest whose QEMU died is reported at once, with its console tail.
# Files of guest N live in $IOP_RUN/gN: qemu.pid, console.log, console.sock (interactive
# serial console), monitor.sock (QEMU monitor).

IOP_GUEST_MEM=${IRDMA_INTEROP_GUEST_MEM:-512}
IOP_BOOT_LIMIT=${IRDMA_INTEROP_BOOT_LIMIT:-120}
IOP_ACCEL=${IRDMA_INTEROP_ACCEL:-tcg}

iop_guest_ip() { echo "198.18.0.1$1"; }
iop_guest_mac() { echo "52:54:00:12:00:1$1"; }
iop_guest_dir() { echo "$IOP_RUN/g$1"; }
iop_guest_console() { echo "$IOP_RUN/g$1/console.log"; }

# PID of guest N's QEMU if it is alive and really is that QEMU (its command line names our
# run directory), else nothing.
iop_guest_pid() {
	local f pid
	f=$(iop_guest_dir "$1")/qemu.pid
	[ -s "$f" ] || return 1
	pid=$(tr -dc 0-9 <"$f")
	[ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$(iop_guest_dir "$1")/" || return 1
	echo "$pid"
}

iop_guest_start() {
	local n=$1 d tap pid acc
	shift
	d=$(iop_guest_dir "$n")
	case "$n" in [1-9]) ;; *) iop_die "guest number must be 1..9, not '$n'"; return 1 ;; esac
	iop_guest_pid "$n" >/dev/null && { iop_die "guest $n is already running"; return 1; }
	[ -f "$IOP_VMLINUZ" ] && [ -f "$IOP_INITRD" ] || { iop_die "no guest image; run iop_image_build"; return 1; }
	mkdir -p "$d" && rm -f "$d"/console.log "$d"/*.sock "$d"/qemu.pid
	tap=$(iop_net_tap "$n") || return 1
	case "$IOP_ACCEL" in
	kvm) acc=(-accel kvm -cpu host) ;;
	*) acc=(-accel tcg,thread=multi -cpu max) ;;
	esac
	IOP_GUEST_T0[$n]=$(iop_now)
	# -daemonize returns once the guest runs; the timeout bounds a QEMU that never gets there
	timeout 60 ip netns exec "$IOP_NS" qemu-system-x86_64 "${acc[@]}" -m "$IOP_GUEST_MEM" -smp 1 \
		-display none -no-reboot -nodefaults \
		-kernel "$IOP_VMLINUZ" -initrd "$IOP_INITRD" \
		-append "console=ttyS0 panic=-1 quiet iop.ip=$(iop_guest_ip "$n")/$IOP_PREFIX iop.name=g$n $*" \
		-netdev "tap,id=net0,ifname=$tap,script=no,downscript=no" \
		-device "virtio-net-pci,netdev=net0,mac=$(iop_guest_mac "$n")" \
		-chardev "socket,id=con0,path=$d/console.sock,server=on,wait=off,logfile=$d/console.log" \
		-serial chardev:con0 \
		-monitor "unix:$d/monitor.sock,server=on,wait=off" \
		-pidfile "$d/qemu.pid" -daemonize >"$d/qemu.log" 2>&1 ||
		{ iop_die "qemu for guest $n failed: $(tail -n 3 "$d/qemu.log")"; return 1; }
	pid=$(iop_guest_pid "$n") || { iop_die "qemu for guest $n left no live PID"; return 1; }
	if ! iop_wait_until "$IOP_BOOT_LIMIT" 0.2 iop_guest_console_has "$n" 'iop-init: ready'; then
		iop_die "guest $n not ready after ${IOP_BOOT_LIMIT}s; console tail:"
		tail -n 20 "$d/console.log" >&2 2>/dev/null
		return 1
	fi
	iop_log "guest $n up in $(iop_elapsed "${IOP_GUEST_T0[$n]}")s (pid $pid, $(iop_guest_ip "$n"))"
}

# True when the console shows PATTERN; false (and a message) when QEMU is gone.
iop_guest_console_has() {
	grep -qsF -- "$2" "$(iop_guest_console "$1")" && return 0
	if ! iop_guest_pid "$1" >/dev/null; then
		iop_log "guest $1: qemu is not running"
		return 2
	fi
	return 1
}

iop_guest_stop() {
	local n=$1 pid i d
	d=$(iop_guest_dir "$n")
	pid=$(iop_guest_pid "$n") || { rm -f "$d/qemu.pid"; return 0; }
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		iop_log "guest $n: qemu $pid ignored SIGTERM; killing it"
		kill -KILL "$pid" 2>/dev/null
		for i in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	fi
	rm -f "$d/qemu.pid"
}

# iop_guest_exec N LIMIT SCRIPT...: the command port protocol is in guest/iop-exec.
iop_guest_exec() {
	local n=$1 limit=$2 raw rc
	shift 2
	raw=$(printf 'IOPEXEC %s\n%s\nIOPEND\n' "$limit" "$*" |
		timeout -k 2 $((limit + 10)) ip netns exec "$IOP_NS" bash -c \
			'exec 3<>"/dev/tcp/$0/$1" || exit 255; cat >&3; cat <&3' \
			"$(iop_guest_ip "$n")" "$IOP_EXEC_PORT" 2>/dev/null)
	rc=$(printf '%s\n' "$raw" | sed -n 's/^IOPRC=\([0-9]*\)$/\1/p' | tail -n 1)
	printf '%s\n' "$raw" | sed '/^IOPRC=[0-9]*$/d'
	[ -n "$rc" ] || { iop_log "guest $n: no reply on the command port (limit ${limit}s)"; return 255; }
	return "$rc"
}

# iop_guest_wait_rxe N LIMIT: rxe0 exists, its port is ACTIVE and it has the GID
# ::ffff:<guest IP>. Prints the GID table.
iop_guest_wait_rxe() {
	local n=$1 limit=$2 t0 st
	t0=$(date +%s)
	while :; do
		iop_guest_console_has "$n" 'iop-init: rxe ready'
		st=$?
		[ $st -eq 0 ] && break
		[ $st -eq 2 ] && return 1
		if iop_guest_console_has "$n" 'iop-init: rxe failed'; then
			iop_die "guest $n: rxe setup failed; console tail:"
			tail -n 15 "$(iop_guest_console "$n")" >&2
			return 1
		fi
		[ $(($(date +%s) - t0)) -ge "$limit" ] && { iop_die "guest $n: rxe not ready after ${limit}s"; return 1; }
		sleep 0.2
	done
	iop_guest_exec "$n" 20 'cat /sys/class/infiniband/rxe0/ports/1/state; /iop/iop-gids rxe0'
}

# The IPv4-mapped GID of an address, as sysfs prints it (0000:...:ffff:c612:000b).
iop_v4_gid() {
	local a b c d
	IFS=. read -r a b c d <<<"$1"
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$a" "$b" "$c" "$d"
}

# The same GID as the 32 hex digits of the pingpong record.
iop_v4_gid_hex() {
	local a b c d
	IFS=. read -r a b c d <<<"$1"
	printf '00000000000000000000ffff%02x%02x%02x%02x\n' "$a" "$b" "$c" "$d"
}

# The GID index of guest N's IPv4-mapped GID on rxe0 (what -g / -x take); fails if absent.
iop_guest_gid_index() {
	local idx
	idx=$(iop_guest_exec "$1" 10 '/iop/iop-gids rxe0' |
		awk -v g="$(iop_v4_gid "$(iop_guest_ip "$1")")" '$2 == g { print $1; exit }')
	[ -n "$idx" ] || return 1
	echo "$idx"
}

# rxe's active MTU for a netdev MTU: the largest IB MTU that fits with 80 bytes of headers.
iop_rxe_mtu() {
	local m
	for m in 4096 2048 1024 512 256; do
		[ $(($1 - 80)) -ge $m ] && { echo $m; return 0; }
	done
	echo 0
}

iop_guest_set_mtu() {
	local n=$1 mtu=$2 want dev
	want=$(iop_rxe_mtu "$mtu")
	for dev in "$IOP_RAW_IF" "$IOP_RAW_PEER" "iop-tap$n"; do
		iop_net_ip link set dev "$dev" mtu "$mtu" || { iop_die "cannot set MTU $mtu on $dev"; return 1; }
	done
	iop_guest_exec "$n" 20 "
		ip link set eth0 mtu $mtu || exit 1
		n=0
		until ibv_devinfo -d rxe0 | grep -q 'active_mtu:.*$want '; do
			n=\$((n + 1)); [ \$n -gt 50 ] && { ibv_devinfo -d rxe0 | grep mtu; exit 1; }
			sleep 0.1
		done" >&2 || { iop_die "guest $n: rxe0's active MTU did not become $want"; return 1; }
}
