#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Binds a NIC to vfio-pci for DPDK (and this driver's port=<PCI address>), and gives it
# back to its kernel driver afterwards. A wrapper around dpdk-devbind.py (Debian package
# "dpdk") that checks what dpdk-devbind.py does not:
#
#   * the IOMMU group: VFIO hands a whole group to one process, so every other member must
#     be unbound or on vfio-pci too; members on a kernel driver are named and refused;
#   * no IOMMU at all: refused unless vfio's no-IOMMU mode is on, and then a warning (the
#     device can DMA anywhere in memory; DPDK must run with --iova-mode=pa);
#   * a network interface that is up, has an address or carries a route is in use: refused
#     unless --force (taking it away cuts whatever runs over it, an SSH session included);
#   * the driver it had is recorded, and "unbind" restores it.
#
# Usage:
#   bind-nic.sh bind [--force] DEV      DEV: PCI address (0000:3b:00.0 or 3b:00.0) or interface name
#   bind-nic.sh unbind DEV              back to the recorded driver (or to none if it had none)
#   bind-nic.sh status [DEV]            driver, IOMMU group and its members, interfaces, record
#   bind-nic.sh check [--force] DEV     the checks of "bind" without binding
#
# Environment: IRDMA_BIND_STATE (records; default /run/irdma-bind-nic), IRDMA_DEVBIND
# (dpdk-devbind.py to use; default the one in PATH). Exit status 0 on success, 1 when a
# check refuses or a step fails (with a line saying why), 2 on bad usage.
set -uo pipefail

STATE=${IRDMA_BIND_STATE:-/run/irdma-bind-nic}
DEVBIND=${IRDMA_DEVBIND:-$(command -v dpdk-devbind.py 2>/dev/null || echo /usr/bin/dpdk-devbind.py)}
SYS=/sys/bus/pci/devices
TARGET=vfio-pci

say() { printf 'bind-nic: %s\n' "$*" >&2; }
warn() { printf 'bind-nic: warning: %s\n' "$*" >&2; }
fail() { printf 'bind-nic: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '15,19s/^# \{0,1\}//p' "$0" >&2; exit 2; }

# DEV -> 0000:bb:dd.f (an interface name is followed to its PCI device).
resolve() {
	local d=$1 a
	if [ -e "/sys/class/net/$d/device" ]; then
		a=$(readlink -f "/sys/class/net/$d/device")
		# a virtio NIC's interface hangs off its virtio device, a child of the PCI one
		case "${a##*/}" in virtio*) a=${a%/*} ;; esac
		a=${a##*/}
		[ -e "$SYS/$a" ] || fail "interface $d is not a PCI device"
		echo "$a"
		return
	fi
	case "$d" in
	[0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F].[0-7]) a=0000:$d ;;
	[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F].[0-7]) a=$d ;;
	*) fail "$d is neither a PCI address (0000:3b:00.0) nor a network interface" ;;
	esac
	a=$(echo "$a" | tr 'A-F' 'a-f')
	[ -e "$SYS/$a" ] || fail "no PCI device $a (see lspci -D)"
	echo "$a"
}

driver_of() {
	local l=$SYS/$1/driver
	[ -e "$l" ] && basename "$(readlink -f "$l")" || echo none
}

# The interfaces of a PCI device (a virtio NIC's are under its virtio child device).
ifaces_of() {
	local i
	for i in "$SYS/$1"/net/* "$SYS/$1"/virtio*/net/*; do
		[ -e "$i" ] && echo "${i##*/}"
	done
}

# The other devices of an IOMMU group.
group_members() {
	local m
	for m in "/sys/kernel/iommu_groups/$1/devices"/*; do
		[ -e "$m" ] && [ "${m##*/}" != "$2" ] && echo "${m##*/}"
	done
}

# Why interface IF is in use, or nothing.
iface_busy() {
	local i=$1 why=() flags
	flags=$(cat "/sys/class/net/$i/flags" 2>/dev/null || echo 0)
	[ $((flags & 1)) -ne 0 ] && why+=("up")
	[ -n "$(ip -o addr show dev "$i" 2>/dev/null)" ] && why+=("has addresses")
	[ -n "$(ip -o route show dev "$i" 2>/dev/null; ip -o -6 route show dev "$i" 2>/dev/null)" ] &&
		why+=("carries routes")
	ip -o route show 2>/dev/null | awk -v i="$i" '$1 == "default" { for (k = 2; k < NF; k++) if ($k == "dev" && $(k + 1) == i) f = 1 } END { exit !f }' &&
		why+=("has the DEFAULT ROUTE")
	[ ${#why[@]} -gt 0 ] && echo "${why[*]}"
}

noiommu_on() {
	[ "$(cat /sys/module/vfio/parameters/enable_unsafe_noiommu_mode 2>/dev/null)" = Y ]
}

group_of() {
	[ -e "$SYS/$1/iommu_group" ] && basename "$(readlink -f "$SYS/$1/iommu_group")"
}

# The checks of bind; prints what it found. Exit on a refusal.
checks() {
	local a=$1 force=$2 g m md i why bad=()
	[ "$(id -u)" -eq 0 ] || fail "needs root (sysfs writes, modprobe)"
	[ -x "$DEVBIND" ] || fail "dpdk-devbind.py not found (apt-get install dpdk), or set IRDMA_DEVBIND"
	say "$a: driver $(driver_of "$a"), interfaces: $(ifaces_of "$a" | tr '\n' ' ')"
	g=$(group_of "$a")
	if [ -n "$g" ]; then
		say "$a: IOMMU group $g"
		for m in $(group_members "$g" "$a"); do
			md=$(driver_of "$m")
			say "  group member $m: driver $md"
			# a PCI bridge in the group is no obstacle (VFIO leaves bridges alone)
			case "$(cat "$SYS/$m/class" 2>/dev/null)" in 0x0604*) continue ;; esac
			case "$md" in none | vfio-pci | pci-stub | pcieport) ;; *) bad+=("$m ($md)") ;; esac
		done
		[ ${#bad[@]} -eq 0 ] ||
			fail "IOMMU group $g also holds ${bad[*]}: VFIO takes a group whole; bind those to vfio-pci (or unbind them) first, or put the NIC in a slot of its own (ACS)"
	elif noiommu_on; then
		warn "no IOMMU for $a: vfio's no-IOMMU mode is on, so the device can DMA to any memory (no isolation, taints the kernel); use it only on a machine you own, and run DPDK with --iova-mode=pa"
	else
		fail "no IOMMU group for $a: enable VT-d / AMD-Vi in the firmware and boot with intel_iommu=on iommu=pt (or amd_iommu=on); only where isolation does not matter: modprobe vfio enable_unsafe_noiommu_mode=1"
	fi
	for i in $(ifaces_of "$a"); do
		why=$(iface_busy "$i")
		[ -n "$why" ] || continue
		if [ "$force" = 1 ]; then
			warn "interface $i of $a is in use ($why); going ahead (--force)"
		else
			fail "interface $i of $a is in use ($why): taking it away cuts what runs over it; ip link set $i down and remove its addresses first, or give --force"
		fi
	done
}

load_vfio() {
	# vfio names its IOMMU back-end only as a soft dependency, which not every modprobe
	# (busybox's) follows: without it DPDK finds "no supported IOMMU extensions"
	if [ -n "$(ls /sys/kernel/iommu_groups 2>/dev/null)" ] && [ ! -d /sys/module/vfio_iommu_type1 ]; then
		modprobe vfio_iommu_type1 || fail "modprobe vfio_iommu_type1 failed"
	fi
	[ -d /sys/bus/pci/drivers/vfio-pci ] && return 0
	modprobe vfio-pci || fail "modprobe vfio-pci failed"
	[ -d /sys/bus/pci/drivers/vfio-pci ] || fail "vfio-pci did not register with the PCI bus"
}

do_bind() {
	local a=$1 force=$2 cur g dev
	cur=$(driver_of "$a")
	if [ "$cur" = "$TARGET" ]; then
		say "$a is already bound to $TARGET"
		return 0
	fi
	checks "$a" "$force"
	load_vfio
	mkdir -p "$STATE" || fail "cannot create $STATE"
	printf 'driver=%s\nifaces=%s\n' "$cur" "$(ifaces_of "$a" | tr '\n' ' ')" >"$STATE/$a"
	local fopt=()
	[ "$force" = 1 ] && fopt=(--force)
	"$DEVBIND" "${fopt[@]}" --bind="$TARGET" "$a" >&2 ||
		{ rm -f "$STATE/$a"; fail "dpdk-devbind.py --bind=$TARGET $a failed"; }
	[ "$(driver_of "$a")" = "$TARGET" ] || { rm -f "$STATE/$a"; fail "$a is not on $TARGET after binding"; }
	g=$(group_of "$a")
	dev=/dev/vfio/$g
	[ -e "$dev" ] || dev=/dev/vfio/noiommu-$g
	[ -n "$g" ] && [ -e "$dev" ] || fail "$a is on $TARGET but its VFIO group device is missing"
	say "$a: bound to $TARGET ($dev); it was on $cur (recorded in $STATE/$a)"
	say "use it with: -a $a ... --devargs soft,port=$a,ip=<address>"
}

do_unbind() {
	local a=$1 prev cur
	cur=$(driver_of "$a")
	[ -f "$STATE/$a" ] || fail "no record of $a's previous driver in $STATE; give it back by hand: $DEVBIND --bind=<driver> $a"
	prev=$(sed -n 's/^driver=//p' "$STATE/$a")
	[ "$cur" = "$TARGET" ] || warn "$a is on $cur, not $TARGET"
	if [ "$prev" = none ]; then
		"$DEVBIND" -u "$a" >&2 || fail "dpdk-devbind.py -u $a failed"
	else
		"$DEVBIND" --bind="$prev" "$a" >&2 || fail "dpdk-devbind.py --bind=$prev $a failed"
	fi
	[ "$(driver_of "$a")" = "$prev" ] || fail "$a is on $(driver_of "$a"), not $prev, after unbinding"
	rm -f "$STATE/$a"
	say "$a: back on $prev${prev:+ }$(ifaces_of "$a" | sed 's/^/(interface /;s/$/)/' | tr '\n' ' ')"
}

do_status() {
	local a g m
	for a in "$@"; do
		g=$(group_of "$a")
		printf '%s driver=%s group=%s interfaces=%s\n' "$a" "$(driver_of "$a")" "${g:-none}" \
			"$(ifaces_of "$a" | tr '\n' ',' | sed 's/,$//')"
		if [ -n "$g" ]; then
			for m in $(group_members "$g" "$a"); do
				printf '  group member %s driver=%s\n' "$m" "$(driver_of "$m")"
			done
		fi
		[ -f "$STATE/$a" ] && printf '  recorded: %s\n' "$(tr '\n' ' ' <"$STATE/$a")"
	done
	if [ -z "$(ls /sys/kernel/iommu_groups 2>/dev/null)" ]; then
		noiommu_on && echo "IOMMU: none; vfio no-IOMMU mode ON (unsafe)" || echo "IOMMU: none"
	else
		echo "IOMMU: on ($(ls /sys/kernel/iommu_groups | wc -l) groups)"
	fi
}

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
force=0
args=()
for x in "$@"; do
	case "$x" in
	--force) force=1 ;;
	-h | --help) usage ;;
	-*) say "unknown option $x"; usage ;;
	*) args+=("$x") ;;
	esac
done
case "$cmd" in
bind | check | unbind) [ ${#args[@]} -eq 1 ] || usage; a=$(resolve "${args[0]}") || exit 1 ;;
status) [ ${#args[@]} -le 1 ] || usage ;;
esac
case "$cmd" in
bind) do_bind "$a" "$force" ;;
check) checks "$a" "$force"; say "$a: checks passed" ;;
unbind) do_unbind "$a" ;;
status)
	if [ ${#args[@]} -eq 0 ]; then
		mapfile -t args < <(ls "$SYS")
		do_status "${args[@]}"
	else
		a=$(resolve "${args[0]}") || exit 1
		do_status "$a"
	fi ;;
-h | --help | help) usage ;;
*) say "unknown command $cmd"; usage ;;
esac
