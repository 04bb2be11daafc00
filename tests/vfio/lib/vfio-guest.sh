# shellcheck shell=bash
# SPDX-License-Identifier: BSD-3-Clause
# The DPDK guest: a q35 machine with a virtual IOMMU (intel-iommu; Debian's kernel has no
# vfio no-IOMMU mode, CONFIG_VFIO_NOIOMMU is off; interrupt remapping on, which VFIO
# requires) and, besides its control NIC, the NICs
# DPDK drives through vfio-pci. Sourced, never run. Guest N's files are the harness's
# ($IOP_RUN/gN), so iop_guest_exec/iop_guest_stop and the session teardown work on it.
#
#   00:03.0 virtio-net-pci   eth0, kernel driver: 198.18.0.1N, command port, TCP exchanges
#   00:04.0 virtio-net-pci   for DPDK's net_virtio (modern only, behind the IOMMU, host_mtu 9000)
#   00:05.0 e1000e           for DPDK's net_e1000_em
#   00:06.0 pcie-pci-bridge  with two e1000 (conventional PCI, not cabled) behind it: DMA
#                            from behind a PCI bridge carries the bridge's requester ID, so
#                            the three are one IOMMU group; bind-nic.sh must refuse to bind
#                            one e1000 while the other is on the kernel's e1000
#
#   vfio_guest_start N INITRD [kernel args...]

VFIO_GUEST_MEM=${IRDMA_VFIO_GUEST_MEM:-1024}
VFIO_HUGEPAGES=${IRDMA_VFIO_HUGEPAGES:-192} # 2 MiB pages reserved at boot

vfio_mac() { printf '52:54:00:12:%02x:%02x\n' "$1" "$2"; }

# A tap of the bridge for QEMU (name iop-tapN<suffix>).
vfio_net_tap() {
	local tap=iop-tap$1
	iop_net_ip link show "$tap" >/dev/null 2>&1 && { echo "$tap"; return 0; }
	iop_net_ip tuntap add dev "$tap" mode tap &&
		iop_net_ip link set "$tap" master "$IOP_BR" &&
		iop_net_ip link set "$tap" up || { iop_die "cannot create $tap in $IOP_NS"; return 1; }
	echo "$tap"
}

vfio_guest_start() {
	local n=$1 initrd=$2 d t0 t1 t2 pid
	shift 2
	d=$(iop_guest_dir "$n")
	iop_guest_pid "$n" >/dev/null && { iop_die "guest $n is already running"; return 1; }
	mkdir -p "$d" && rm -f "$d"/console.log "$d"/*.sock "$d"/qemu.pid
	t0=$(iop_net_tap "$n") && t1=$(vfio_net_tap "${n}v") && t2=$(vfio_net_tap "${n}e") || return 1
	IOP_GUEST_T0[$n]=$(iop_now)
	# intel-iommu first: it must exist before the devices it translates
	timeout 60 ip netns exec "$IOP_NS" qemu-system-x86_64 -machine q35 \
		-accel tcg,thread=multi -cpu max -m "$VFIO_GUEST_MEM" -smp 1 \
		-display none -no-reboot -nodefaults \
		-device intel-iommu,intremap=on \
		-kernel "$VFIO_VMLINUZ" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet iop.ip=$(iop_guest_ip "$n")/$IOP_PREFIX iop.name=g$n iop.rxe=0 intel_iommu=on iommu=pt hugepagesz=2M hugepages=$VFIO_HUGEPAGES $*" \
		-netdev "tap,id=net0,ifname=$t0,script=no,downscript=no" \
		-device "virtio-net-pci,netdev=net0,mac=$(iop_guest_mac "$n"),addr=0x3" \
		-netdev "tap,id=net1,ifname=$t1,script=no,downscript=no" \
		-device "virtio-net-pci,netdev=net1,mac=$(vfio_mac 2 "$n"),addr=0x4,disable-legacy=on,iommu_platform=on,host_mtu=9000" \
		-netdev "tap,id=net2,ifname=$t2,script=no,downscript=no" \
		-device "e1000e,netdev=net2,mac=$(vfio_mac 3 "$n"),addr=0x5" \
		-device pcie-pci-bridge,id=pcibr6,addr=0x6 \
		-device "e1000,mac=$(vfio_mac 4 "$n"),bus=pcibr6,addr=0x1" \
		-device "e1000,mac=$(vfio_mac 5 "$n"),bus=pcibr6,addr=0x2" \
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
	iop_log "DPDK guest $n up in $(iop_elapsed "${IOP_GUEST_T0[$n]}")s (pid $pid, $(iop_guest_ip "$n"))"
}

# Every port of the bridge (the taps of all guests, the raw veth) to MTU.
vfio_bridge_mtu() {
	local dev
	for dev in $(iop_net_ip -o link show master "$IOP_BR" | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
		iop_net_ip link set dev "$dev" mtu "$1" || { iop_die "cannot set MTU $1 on $dev"; return 1; }
	done
}
