# shellcheck shell=bash
# SPDX-License-Identifier: BSD-3-Clause
# The DPDK guest's image: the interop harness's recipe (Debian's kernel, busybox, the
# guest scripts) run with more modules and binaries, into a cache directory of its own so
# the rxe image ($IOP_CACHE/image) is never rebuilt or invalidated by it. Sourced, never run.
#
#   vfio_image_build           builds (or finds) $VFIO_IMAGE/{vmlinuz,initrd.img}
#   vfio_image_run_layer DIR BIN...   the per-run layer: the project's binaries (with every
#                              library ldd names) and scripts/bind-nic.sh, as DIR/run.img;
#                              prints the initrd to boot (image + layer, concatenated)
#
# On top of the rxe image: vfio and vfio-pci, e1000e, the DPDK 22.11 runtime (EAL, ethdev,
# and the drivers this test loads from the plugin directory: PCI and vdev buses, the ring
# mempool, net_virtio, net_e1000), dpdk-devbind.py with the python3 standard library it
# needs, lspci, bash and iproute2's ip (bind-nic.sh and dpdk-devbind.py use them).

VFIO_IMAGE=$IOP_CACHE/vfio-image
VFIO_VMLINUZ=$VFIO_IMAGE/vmlinuz
VFIO_INITRD=$VFIO_IMAGE/initrd.img

VFIO_PMD_DIR=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
VFIO_GUEST_MODULES=(vfio vfio_pci vfio_iommu_type1 e1000e e1000)
VFIO_GUEST_PMDS=(librte_bus_pci librte_bus_vdev librte_mempool_ring librte_net_virtio librte_net_e1000)
VFIO_GUEST_BINS=(/usr/bin/python3.11 /usr/bin/lspci /usr/bin/bash /usr/bin/ip /usr/bin/dpdk-devbind.py)
VFIO_GUEST_PKGS=(dpdk pciutils python3.11-minimal libpython3.11-stdlib bash iproute2
	librte-eal23 librte-ethdev23 librte-net-virtio23 librte-net-e1000-23 librte-bus-pci23
	librte-mempool-ring23)
VFIO_PY=/usr/lib/python3.11

# A layer's root with the image's merged-/usr links, so files copied at host paths land
# where the image has them; the links themselves are not packed (the image has them).
vfio_layer_root() {
	rm -rf "$1" && mkdir -p "$1"/usr/{bin,sbin,lib,lib64} || return 1
	ln -s usr/bin "$1/bin"; ln -s usr/sbin "$1/sbin"; ln -s usr/lib "$1/lib"; ln -s usr/lib64 "$1/lib64"
}

# Copies FILE into ROOT as the host has it: a symlink stays a symlink (to a copy of its
# target), so a library the EAL reaches both as a plugin (dpdk/pmds-23.0/librte_bus_pci.so)
# and as a dependency (librte_bus_pci.so.23) is one file, loaded once.
vfio_copy_file() {
	local root=$1 f=$2 t
	[ -e "$root$f" ] || [ -L "$root$f" ] && return 0
	[ -e "$f" ] || { iop_die "guest file $f is missing on the host"; return 1; }
	mkdir -p "$(dirname "$root$f")"
	if [ -L "$f" ]; then
		t=$(readlink -f "$f")
		ln -s "$t" "$root$f" && vfio_copy_file "$root" "$t"
	else
		install -m 0755 "$f" "$root$f"
	fi
}

# FILE and every library ldd names, each by vfio_copy_file.
vfio_copy_with_libs() {
	local root=$1 f=$2 lib
	vfio_copy_file "$root" "$f" || return 1
	for lib in $(ldd "$f" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }'); do
		vfio_copy_file "$root" "$lib" || return 1
	done
}

vfio_layer_pack() {
	(cd "$1" && find . -mindepth 1 ! -path ./bin ! -path ./sbin ! -path ./lib ! -path ./lib64 -print0 |
		cpio --null -o -H newc --quiet | gzip -1) >"$2" || { iop_die "cpio of $1 failed"; return 1; }
	rm -rf "$1"
}

vfio_image_stamp() {
	local kpkg=$1 p
	{
		echo "vfio kernel $kpkg"
		for p in "${IOP_GUEST_PKGS[@]}" "${VFIO_GUEST_PKGS[@]}"; do
			dpkg-query -W -f='${Package} ${Version}\n' "$p" 2>/dev/null
		done
		cat "$IOP_LIB_DIR/iop-image.sh" "$IOP_DIR"/guest/* "${BASH_SOURCE[0]}"
	} | sha256sum | cut -d' ' -f1
}

# The python3 standard library dpdk-devbind.py imports (the top-level modules, the few
# packages it reaches and the extension modules), about 10 MB instead of 54.
vfio_python_layer() {
	local root=$1 so
	mkdir -p "$root$VFIO_PY/lib-dynload"
	cp "$VFIO_PY"/*.py "$root$VFIO_PY/" || return 1
	cp -r "$VFIO_PY"/{encodings,collections,importlib,re,urllib,json} "$root$VFIO_PY/" || return 1
	for so in "$VFIO_PY"/lib-dynload/*.so; do
		iop_copy_with_libs "$root" "$so" || return 1
	done
	ln -sf python3.11 "$root/usr/bin/python3"
}

# shellcheck disable=SC2034 # the IOP_* settings are read by iop_image_assemble
vfio_image_assemble() {
	local kpkg=$1 tree=$2 root=$IOP_CACHE/vfio-root.tmp p
	(
		# the harness's recipe, with this image's paths and lists (a subshell: the rxe
		# image's settings stay as they are)
		IOP_IMAGE=$VFIO_IMAGE
		IOP_VMLINUZ=$VFIO_VMLINUZ
		IOP_INITRD=$VFIO_IMAGE/initrd-base.img
		IOP_GUEST_MODULES+=("${VFIO_GUEST_MODULES[@]}")
		IOP_GUEST_BINS+=("${VFIO_GUEST_BINS[@]}")
		iop_image_assemble "$kpkg" "$tree"
	) || return 1
	vfio_layer_root "$root" || return 1
	vfio_python_layer "$root" || { iop_die "cannot copy python3's standard library"; return 1; }
	# the EAL loads every driver of its plugin directory (links as on the host)
	for p in "${VFIO_GUEST_PMDS[@]}"; do
		vfio_copy_with_libs "$root" "$VFIO_PMD_DIR/$p.so" && vfio_copy_file "$root" "$VFIO_PMD_DIR/$p.so.23" ||
			return 1
	done
	vfio_layer_pack "$root" "$VFIO_IMAGE/initrd-py.img" || return 1
	cat "$VFIO_IMAGE/initrd-base.img" "$VFIO_IMAGE/initrd-py.img" >"$VFIO_INITRD.tmp" &&
		mv "$VFIO_INITRD.tmp" "$VFIO_INITRD" && rm -f "$VFIO_IMAGE"/initrd-{base,py}.img
}

vfio_image_build() {
	local kpkg tree stamp rc=0
	iop_install_pkgs "${IOP_GUEST_PKGS[@]}" "${VFIO_GUEST_PKGS[@]}" || return 1
	mkdir -p "$VFIO_IMAGE" || return 1
	# the harness's lock: the kernel tree and its scratch folder are shared with it
	exec {vfio_lock_fd}>"$IOP_CACHE/.lock"
	flock -w 900 "$vfio_lock_fd" || { iop_die "image cache $IOP_CACHE is locked"; exec {vfio_lock_fd}>&-; return 1; }
	kpkg=$(iop_kernel_pkg)
	if [ -z "$kpkg" ]; then
		iop_die "cannot tell which kernel linux-image-amd64 depends on"
		rc=1
	else
		stamp=$(vfio_image_stamp "$kpkg")
		if [ -f "$VFIO_INITRD" ] && [ -f "$VFIO_VMLINUZ" ] && [ "$(cat "$VFIO_IMAGE/stamp" 2>/dev/null)" = "$stamp" ]; then
			:
		elif tree=$(iop_kernel_fetch "$kpkg") && vfio_image_assemble "$kpkg" "$tree"; then
			echo "$stamp" >"$VFIO_IMAGE/stamp"
			iop_log "vfio image built: $VFIO_INITRD ($(du -h "$VFIO_INITRD" | cut -f1))"
		else
			iop_die "cannot build the vfio guest image"
			rc=1
		fi
	fi
	flock -u "$vfio_lock_fd"
	exec {vfio_lock_fd}>&-
	return $rc
}

vfio_image_run_layer() {
	local dir=$1 root=$1/run-root b
	shift
	vfio_layer_root "$root" && mkdir -p "$root/irdma" "$root/var" || return 1
	ln -s ../run "$root/var/run" # the EAL's runtime directory is /var/run/dpdk
	for b in "$@"; do
		b=$(readlink -f "$b") # meson passes paths relative to the build directory
		vfio_copy_with_libs "$root" "$b" || return 1
		mv "$root$b" "$root/irdma/$(basename "$b")"
	done
	vfio_layer_pack "$root" "$dir/run.img" || return 1
	cat "$VFIO_INITRD" "$dir/run.img" >"$dir/initrd.img" || return 1
	echo "$dir/initrd.img"
}
