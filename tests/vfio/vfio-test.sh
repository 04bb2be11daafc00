#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The PMD on PCI NICs bound to vfio-pci and driven by DPDK, against a real Linux rxe
# (meson suites 'vfio' and 'slow', TAP). See README.md here.
#
# Two guests on the interop harness's bridge: guest 1 is the harness's rxe guest; guest 2
# (lib/vfio-guest.sh) is a q35 machine with a virtual IOMMU whose virtio-net-pci and e1000e
# NICs are bound to vfio-pci by scripts/bind-nic.sh and driven by DPDK's net_virtio and
# net_e1000_em, hugepages reserved at boot. irdma-perf and irdma-pingpong run in guest 2
# on those NICs (port=<PCI address>), their TCP exchanges over guest 2's kernel NIC.
#
#   1. bind-nic.sh: refuses the interface in use (eth0: up, addressed, routed), refuses a
#      NIC whose IOMMU group has a member on a kernel driver, binds virtio-net-pci and
#      e1000e (recording their drivers), gives them back at the end;
#   2. on net_virtio (IOVA as VA): rc and ud pingpong, write_lat, send_lat, read_lat,
#      atomic_lat and write_bw, our side client and our side server, path MTU 1024;
#   3. on net_e1000_em (IOVA as PA, the NIC computing IPv4 header checksums): the same;
#   4. both again at path MTU 4096 with 9000-byte frames on every port of the path;
#   5. nothing is left behind.
#
# Usage: vfio-test.sh PATH/TO/irdma-pingpong PATH/TO/irdma-perf PATH/TO/bind-nic.sh
# Skips ("1..0 # SKIP reason") only where QEMU cannot run: not root, no /dev/net/tun, no
# qemu-system-x86_64. Set IRDMA_VFIO_QUICK=1 for one case per kind (development).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../interop/lib/iop.sh"
. "$here/../interop/lib/iop-tap.sh"
. "$here/lib/vfio-image.sh"
. "$here/lib/vfio-guest.sh"

pingpong=${1:-}
perf=${2:-}
bindnic=${3:-}
case_no=0

[ -x "$pingpong" ] && [ -x "$perf" ] && [ -x "$bindnic" ] ||
	{ echo "vfio-test.sh: usage: vfio-test.sh irdma-pingpong irdma-perf bind-nic.sh" >&2; exit 2; }
iop_tap_skip_unless_qemu

t_start=$(iop_now)
iop_session_begin || exit 1
export IOP_BOOT_LIMIT=${IRDMA_INTEROP_BOOT_LIMIT:-240} # two TCG guests boot at once

iop_image_build || bail "rxe guest image builds"
vfio_image_build || bail "DPDK guest image builds (see the messages above)"
initrd=$(vfio_image_run_layer "$IOP_RUN" "$pingpong" "$perf" "$bindnic") || bail "run layer of the DPDK guest"
ok "images: rxe guest, DPDK guest $(du -h "$initrd" | cut -f1) with this build's tools"
iop_net_up || bail "namespace $IOP_NS wired"

# both guests boot at once (each is one TCG thread)
iop_guest_start 1 >"$IOP_RUN/g1-start.log" 2>&1 &
g1_pid=$!
vfio_guest_start 2 "$initrd" || bail "DPDK guest 2 boots"
wait "$g1_pid" || { cat "$IOP_RUN/g1-start.log" >&2; bail "rxe guest 1 boots"; }
rxe=$(iop_guest_wait_rxe 1 90) || { echo "$rxe"; bail "rxe0 comes up in guest 1"; }
ok "guest 1 with rxe0 ACTIVE, DPDK guest 2 up ($(iop_elapsed "$t_start")s)"
rxe_ip=$(iop_guest_ip 1)
# rxe0's GID table does not change from here on: look the index up once, not once per case
# (a command-port round trip to a TCG guest each time)
rxe_gid_index=$(iop_guest_gid_index 1) || bail "guest 1 has the IPv4-mapped GID"
iop_guest_gid_index() { [ "$1" = 1 ] && echo "$rxe_gid_index"; }
g2_ip=$(iop_guest_ip 2)

# g2 LIMIT SCRIPT: a command in the DPDK guest
g2() { iop_guest_exec 2 "$@"; }

setup=$(g2 60 '
	set -e
	mkdir -p /dev/hugepages
	mount -t hugetlbfs nodev /dev/hugepages
	modprobe e1000e
	modprobe e1000
	set -- $(cd /sys/bus/pci/devices/0000:00:06.0 && ls -d 0000:*)
	n=0; while [ ! -e /sys/bus/pci/devices/$2/net ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	echo "hugepages $(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)"
	echo "eth0 $(basename $(readlink -f /sys/class/net/eth0/device/..))"
	echo "iommu groups $(ls /sys/kernel/iommu_groups | wc -l)"
	echo "behind the bridge $1 $2"
	for d in 0000:00:04.0 0000:00:05.0 0000:00:06.0 $1 $2; do
		echo "$d group $(basename $(readlink -f /sys/bus/pci/devices/$d/iommu_group)) driver $(basename $(readlink -f /sys/bus/pci/devices/$d/driver 2>/dev/null) 2>/dev/null)"
	done') || { echo "$setup" | sed 's/^/#   /'; bail "DPDK guest set up (hugetlbfs, e1000e)"; }
echo "$setup" | sed 's/^/#   /'
hp=$(sed -n 's/^hugepages //p' <<<"$setup")
[ "${hp:-0}" -ge 64 ] && grep -q '^eth0 0000:00:03.0$' <<<"$setup" && grep -q '^iommu groups [1-9]' <<<"$setup" ||
	bail "DPDK guest: hugepages reserved, eth0 on 00:03.0, an IOMMU"
ok "DPDK guest: $hp hugepages of 2 MiB, IOMMU groups, eth0 on 00:03.0"
read -r _ _ _ pci_a pci_b < <(grep '^behind the bridge' <<<"$setup")

# --- 1: bind-nic.sh
bn() { g2 60 "IRDMA_BIND_STATE=/run/irdma-bind /irdma/bind-nic.sh $*"; }
out=$(bn bind eth0); rc=$?
sed 's/^/#   /' <<<"$out"
[ $rc -eq 1 ] && grep -q 'interface eth0 of 0000:00:03.0 is in use (up has addresses carries routes' <<<"$out" &&
	[ -z "$(g2 10 'ls /sys/bus/pci/drivers/vfio-pci 2>/dev/null | grep 0000:00:03.0')" ] &&
	ok "bind-nic.sh refuses eth0 (up, addressed, routed) and leaves it alone" ||
	not_ok "bind-nic.sh refuses eth0 (status $rc)"
out=$(bn bind "$pci_a"); rc=$?
sed 's/^/#   /' <<<"$out"
[ $rc -eq 1 ] && grep -q "also holds $pci_b (e1000)" <<<"$out" &&
	ok "bind-nic.sh refuses $pci_a: its IOMMU group has $pci_b on e1000" ||
	not_ok "bind-nic.sh refuses a NIC whose group has a member on a kernel driver (status $rc)"
for nic in 0000:00:04.0:virtio-pci 0000:00:05.0:e1000e; do
	a=${nic%:*} drv=${nic##*:}
	out=$(bn bind "$a" && g2 10 "readlink /sys/bus/pci/devices/$a/driver; cat /run/irdma-bind/$a; ls /dev/vfio"); rc=$?
	sed 's/^/#   /' <<<"$out"
	[ $rc -eq 0 ] && grep -q '/vfio-pci$' <<<"$out" && grep -q "^driver=$drv$" <<<"$out" &&
		ok "bind-nic.sh binds $a to vfio-pci (was $drv, recorded)" ||
		bail "bind-nic.sh binds $a to vfio-pci (status $rc)"
done

# --- 2-4: the tools on the NICs
# ours NAME LIMIT NIC IP IOVA ARGS...: the guest command line of one of our tools
ours_cmd() {
	local name=$1 nic=$2 iova=$3 bin=$4
	shift 4
	# Inside guest 2 only (a guest this test started): -a allows just the NIC under test, so
	# EAL probes that one emulated PCI device and nothing else; no EAL process of this suite
	# runs on the host, where --no-pci would apply.
	echo "/irdma/$bin -l 0 -a $nic --iova-mode=$iova --file-prefix=v$name --huge-unlink -- $*"
}

# run_case ROLE KIND GUEST_ARGS... -- OUR_BIN OUR_ARGS...  (uses nic, iova, devargs)
run_case() {
	local role=$1 kind=$2 gargs=() bin cmd
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do gargs+=("$1"); shift; done
	shift
	bin=$1
	shift
	case_no=$((case_no + 1))
	case_rc=0 case_grc=0
	if [ "$role" = client ]; then
		if ! iop_peer_server 1 "$kind" "${gargs[@]}"; then
			case_ours="" case_guest="guest server $kind did not start" case_rc=1 case_grc=1
			return
		fi
		cmd=$(ours_cmd "c$case_no" "$nic" "$iova" "$bin" --devargs "$devargs" "$@" "$rxe_ip")
		case_ours=$(g2 90 "timeout -s KILL 80 $cmd 2>&1") || case_rc=$?
		case_guest=$(iop_peer_wait 1 "$kind" "$([ "$case_rc" -eq 0 ] && echo 30 || echo 3)") || case_grc=$?
		iop_peer_stop 1 "$kind"
	else
		cmd=$(ours_cmd "s$case_no" "$nic" "$iova" "$bin" --devargs "$devargs" "$@")
		if g2 120 "/iop/iop-peer start ours 100 18515 $cmd" >"$IOP_RUN/start-$case_no.log" 2>&1; then
			case_guest=$(iop_peer_client 1 "$kind" 60 "$g2_ip" "${gargs[@]}") || case_grc=$?
		else
			case_guest="our server never listened: $(cat "$IOP_RUN/start-$case_no.log")" case_grc=1
		fi
		case_ours=$(g2 40 "/iop/iop-peer wait ours 30") || case_rc=$?
		g2 10 "/iop/iop-peer stop ours" >/dev/null
	fi
	case_ours=$(grep -v -e '^EAL: ' -e '^TELEMETRY: ' <<<"$case_ours")
}

pp_case() {
	local t=$1 role=$2 size=$3 iters=$4 flag=() gm=(-m "$pmtu") title
	# ibv_ud_pingpong has no -m: UD uses the port's active MTU
	[ "$t" = ud ] && flag=(--ud) gm=()
	title="$label: $t pingpong $size B x $iters, $([ "$role" = client ] && echo "irdma-pingpong client" || echo "irdma-pingpong server")"
	run_case "$role" "${t}_pingpong" -s "$size" -n "$iters" -c "${gm[@]}" -- irdma-pingpong "${flag[@]}" \
		-g 1 -s "$size" -n "$iters" -m "$pmtu" --timeout 30
	report "$title" "^$((size * iters * 2)) bytes in [0-9.]+ seconds" \
		"^$((size * iters * 2)) bytes in [0-9.]+ seconds" "^$iters iters in [0-9.]+ seconds"
}

row() { echo "^ *$1 +$2 +[^ ]"; }
peer_re='^ *remote address: LID'
perf_case() {
	local role=$1 test=$2 size=$3 iters=$4 gargs=() oargs=() title ours_re guest_re
	gargs=(-n "$iters")
	oargs=(--test "$test" -x 1 -n "$iters" --timeout 30)
	[ "$test" = atomic_lat ] || { gargs+=(-s "$size"); oargs+=(-s "$size"); }
	gargs+=(-m "$pmtu")
	oargs+=(-m "$pmtu")
	title="$label: $test $size B x $iters, irdma-perf $role"
	if [ "$role" = client ]; then
		ours_re=$(row "$size" "$iters")
		guest_re=$peer_re
		case "$test" in write_lat | send_lat | write_bw) guest_re=$(row "$size" "$iters") ;; esac
	else
		ours_re=$peer_re
		case "$test" in write_lat | send_lat | write_bw) ours_re=$(row "$size" "$iters") ;; esac
		guest_re=$(row "$size" "$iters")
	fi
	run_case "$role" "$test" "${gargs[@]}" -- irdma-perf "${oargs[@]}"
	report "$title" "$ours_re" "$guest_re"
}

# nic_cases LABEL PCI IP IOVA PMTU
nic_cases() {
	label=$1 nic=$2 iova=$4 pmtu=$5
	local gen3="soft,port=$nic,ip=$3,mtu=$pmtu,gen=3" role big=$((pmtu * 3 - 100))
	devargs=$gen3
	for role in client server; do
		pp_case rc "$role" "$big" 4
		pp_case ud "$role" "$pmtu" 4
		perf_case "$role" write_lat "$big" 5
		perf_case "$role" send_lat "$big" 5
		perf_case "$role" read_lat "$big" 5
		perf_case "$role" atomic_lat 8 5
		perf_case "$role" write_bw "$big" 5
		[ -n "${IRDMA_VFIO_QUICK:-}" ] && break
	done
}

virtio_ip=198.18.0.22 e1000_ip=198.18.0.32
nic_cases "net_virtio 1024" 0000:00:04.0 "$virtio_ip" va 1024
nic_cases "net_e1000_em 1024" 0000:00:05.0 "$e1000_ip" pa 1024

# 9000-byte frames on every port of the path: the taps and veth on the bridge, rxe's eth0
vfio_bridge_mtu 9000 && iop_guest_set_mtu 1 9000 && ok "jumbo frames: bridge ports and rxe's eth0 at MTU 9000" ||
	bail "MTU 9000 on the bridge and in the rxe guest"
nic_cases "net_virtio 4096" 0000:00:04.0 "$virtio_ip" va 4096
nic_cases "net_e1000_em 4096" 0000:00:05.0 "$e1000_ip" pa 4096

# --- 1 (end): the NICs go back to their drivers
for nic in 0000:00:04.0:virtio-pci 0000:00:05.0:e1000e; do
	a=${nic%:*} drv=${nic##*:}
	out=$(bn unbind "$a" && g2 10 "readlink /sys/bus/pci/devices/$a/driver; ls /sys/bus/pci/devices/$a/net 2>/dev/null || ls /sys/bus/pci/devices/$a/virtio*/net"); rc=$?
	sed 's/^/#   /' <<<"$out"
	[ $rc -eq 0 ] && grep -q "/$drv$" <<<"$out" && grep -q '^eth' <<<"$out" &&
		ok "bind-nic.sh unbind gives $a back to $drv (its interface is back)" ||
		not_ok "bind-nic.sh unbind gives $a back to $drv (status $rc)"
done

# --- 5: teardown
q1=$(iop_guest_pid 1) q2=$(iop_guest_pid 2)
ns=$IOP_NS
iop_session_end
trap - EXIT
leftover=
ip netns list | awk '{ print $1 }' | grep -qx "$ns" && leftover="namespace $ns"
for q in $q1 $q2; do kill -0 "$q" 2>/dev/null && leftover="$leftover qemu $q"; done
[ -z "$leftover" ] && ok "teardown leaves nothing behind" || not_ok "teardown leaves nothing behind (left: $leftover)"

iop_tap_end vfio
