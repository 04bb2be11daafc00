# SPDX-License-Identifier: BSD-3-Clause
# The guest image: Debian's own kernel (downloaded, extracted, never installed on the host)
# and an initramfs made of busybox, the kernel modules rxe needs and the rdma-core /
# perftest binaries of the host with their shared libraries. Sourced, never run.
#
#   iop_image_build     builds (or finds) $IOP_CACHE/image/{vmlinuz,initrd.img}
#
# Idempotent: the image carries a stamp of everything it is made from (kernel version,
# package versions, the guest scripts, this file); a matching stamp means nothing to do.
# Concurrent builders serialise on a lock in the cache.

# Kernel modules the guest loads. crc32_generic is not a dependency of rdma_rxe but rxe
# allocates the "crc32" hash for the ICRC at link creation and fails with -ENOENT without
# it; crc32_pclmul is the faster provider when the CPU model has PCLMUL.
IOP_GUEST_MODULES=(virtio_pci virtio_net crc32_generic crc32_pclmul rdma_rxe ib_uverbs rdma_ucm)

# Guest binaries (copied with their libraries, found by ldd).
IOP_GUEST_BINS=(/usr/bin/rdma /usr/bin/ibv_devices /usr/bin/ibv_devinfo
	/usr/bin/ibv_rc_pingpong /usr/bin/ibv_ud_pingpong /usr/bin/ibv_uc_pingpong /usr/bin/ibv_srq_pingpong
	/usr/bin/ib_write_lat /usr/bin/ib_read_lat /usr/bin/ib_atomic_lat /usr/bin/ib_send_lat
	/usr/bin/ib_write_bw /usr/bin/ib_read_bw /usr/bin/ib_atomic_bw /usr/bin/ib_send_bw
	/usr/bin/rping /usr/bin/ucmatose /usr/bin/rdma_server /usr/bin/rdma_client)
# Loaded with dlopen, so ldd never names them: the rxe verbs provider, and libgcc_s which
# glibc opens for pthread_exit/cancellation (rdma_cm-based tools abort without it).
IOP_GUEST_DLOPENED=(/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
	/usr/lib/x86_64-linux-gnu/libgcc_s.so.1)
IOP_GUEST_PKGS=(busybox-static rdma-core ibverbs-providers ibverbs-utils perftest iproute2 libgcc-s1 rdmacm-utils)

IOP_IMAGE=$IOP_CACHE/image
IOP_VMLINUZ=$IOP_IMAGE/vmlinuz
IOP_INITRD=$IOP_IMAGE/initrd.img

# The versioned kernel package that linux-image-amd64 points to (e.g. linux-image-6.1.0-57-amd64).
iop_kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'
}

# Fetches and extracts the kernel package into $IOP_CACHE/kernel/<pkg>; prints the tree.
iop_kernel_fetch() {
	local pkg=$1 tree deb
	tree=$IOP_CACHE/kernel/$pkg
	if [ -f "$tree/.complete" ]; then
		echo "$tree"
		return 0
	fi
	mkdir -p "$IOP_CACHE/debs"
	deb=$(ls "$IOP_CACHE/debs/${pkg}_"*.deb 2>/dev/null | head -n1)
	if [ -z "$deb" ]; then
		iop_log "downloading $pkg"
		# into a scratch folder first: an interrupted download never looks complete
		rm -rf "$IOP_CACHE/debs/partial" && mkdir -p "$IOP_CACHE/debs/partial" &&
			(cd "$IOP_CACHE/debs/partial" && timeout 600 apt-get download -q "$pkg" >/dev/null 2>&1) &&
			mv "$IOP_CACHE/debs/partial/${pkg}_"*.deb "$IOP_CACHE/debs/" && rmdir "$IOP_CACHE/debs/partial" ||
			{ iop_log "apt-get download $pkg failed"; return 1; }
		deb=$(ls "$IOP_CACHE/debs/${pkg}_"*.deb | head -n1)
	fi
	# one kernel at a time in the cache (an extracted tree is about 400 MB)
	find "$IOP_CACHE/debs" -maxdepth 1 -name 'linux-image-*.deb' ! -name "${pkg}_*" -delete
	find "$IOP_CACHE/kernel" -mindepth 1 -maxdepth 1 ! -name "$pkg" -exec rm -rf {} + 2>/dev/null
	rm -rf "$tree"
	mkdir -p "$tree"
	# Only the kernel and its modules; the rest of the package is of no use to the guest.
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tree" --wildcards './boot/vmlinuz-*' './lib/modules/*' ||
		{ iop_die "cannot extract $deb"; return 1; }
	touch "$tree/.complete"
	echo "$tree"
}

# Copies FILE into ROOT at the same path, following symlinks, with every library ldd names.
iop_copy_with_libs() {
	local root=$1 f=$2 lib
	[ -e "$f" ] || { iop_die "guest file $f is missing on the host"; return 1; }
	install -D -m 0755 "$(readlink -f "$f")" "$root$f"
	for lib in $(ldd "$f" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
	done
}

iop_image_stamp() {
	local kpkg=$1 p
	{
		echo "kernel $kpkg"
		for p in "${IOP_GUEST_PKGS[@]}"; do dpkg-query -W -f='${Package} ${Version}\n' "$p" 2>/dev/null; done
		cat "$IOP_LIB_DIR/iop-image.sh" "$IOP_DIR"/guest/*
	} | sha256sum | cut -d' ' -f1
}

iop_image_assemble() {
	local kpkg=$1 tree=$2 kver=${1#linux-image-} root ko m
	local kmod=$tree/lib/modules/$kver
	[ -f "$kmod/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko" ] ||
		{ iop_die "$kpkg has no rdma_rxe.ko"; return 1; }
	root=$IOP_CACHE/root.tmp
	rm -rf "$root"
	# merged-/usr layout, as on the host, so every host path copies to the same place
	mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib/x86_64-linux-gnu,usr/lib64,etc,proc,sys,dev,tmp,run,root,iop}
	ln -s usr/bin "$root/bin"; ln -s usr/sbin "$root/sbin"; ln -s usr/lib "$root/lib"; ln -s usr/lib64 "$root/lib64"

	install -m 0755 /bin/busybox "$root/usr/bin/busybox"

	# modules: the closure of IOP_GUEST_MODULES, found by modprobe in the extracted tree
	depmod -b "$tree" "$kver" || { iop_die "depmod failed on $tree"; return 1; }
	for m in "${IOP_GUEST_MODULES[@]}"; do
		modprobe -d "$tree" -S "$kver" --show-depends "$m" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }'
	done | sort -u | while read -r ko; do
		install -D -m 0644 "$ko" "$root/${ko#"$tree"/}"
	done
	[ -f "$root/lib/modules/$kver/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko" ] ||
		{ iop_die "module closure misses rdma_rxe"; return 1; }
	cp "$kmod"/modules.order "$kmod"/modules.builtin "$kmod"/modules.builtin.modinfo \
		"$root/lib/modules/$kver/" 2>/dev/null
	depmod -b "$root" "$kver" || { iop_die "depmod failed on the guest tree"; return 1; }

	for m in "${IOP_GUEST_BINS[@]}" "${IOP_GUEST_DLOPENED[@]}"; do
		iop_copy_with_libs "$root" "$m" || return 1
	done
	install -D -m 0644 /etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/rxe.driver"
	# a loader cache, so nothing depends on the loader's built-in search path
	printf '%s\n' /usr/lib/x86_64-linux-gnu /usr/lib >"$root/etc/ld.so.conf"
	ldconfig -r "$root" || { iop_die "ldconfig failed on the guest tree"; return 1; }
	echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
	echo 'root:x:0:' >"$root/etc/group"
	echo '127.0.0.1 localhost' >"$root/etc/hosts"
	cp /etc/protocols /etc/services "$root/etc/" 2>/dev/null

	install -m 0755 "$IOP_DIR/guest/init" "$root/init"
	install -m 0755 "$IOP_DIR"/guest/iop-* "$root/iop/"
	echo "$kver" >"$root/iop/kernel-version"

	install -m 0644 "$tree/boot/vmlinuz-$kver" "$IOP_IMAGE/vmlinuz.tmp"
	(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) >"$IOP_IMAGE/initrd.img.tmp" ||
		{ iop_die "cpio failed"; return 1; }
	mv "$IOP_IMAGE/vmlinuz.tmp" "$IOP_VMLINUZ"
	mv "$IOP_IMAGE/initrd.img.tmp" "$IOP_INITRD"
	rm -rf "$root"
}

iop_image_build() {
	local kpkg tree stamp rc=0
	iop_install_pkgs "${IOP_GUEST_PKGS[@]}" || return 1
	mkdir -p "$IOP_IMAGE" || return 1
	exec {iop_lock_fd}>"$IOP_CACHE/.lock"
	flock -w 900 "$iop_lock_fd" || { iop_die "image cache $IOP_CACHE is locked"; exec {iop_lock_fd}>&-; return 1; }
	kpkg=$(iop_kernel_pkg)
	if [ -z "$kpkg" ]; then
		timeout 300 apt-get update -qq >/dev/null 2>&1
		kpkg=$(iop_kernel_pkg)
	fi
	if [ -z "$kpkg" ]; then
		iop_die "cannot tell which kernel linux-image-amd64 depends on"
		rc=1
	else
		stamp=$(iop_image_stamp "$kpkg")
		if [ -f "$IOP_INITRD" ] && [ -f "$IOP_VMLINUZ" ] && [ "$(cat "$IOP_IMAGE/stamp" 2>/dev/null)" = "$stamp" ]; then
			:
		elif ! tree=$(iop_kernel_fetch "$kpkg"); then
			# stale package lists name a kernel the archive no longer has: refresh, ask again
			timeout 300 apt-get update -qq >/dev/null 2>&1
			kpkg=$(iop_kernel_pkg)
			stamp=$(iop_image_stamp "$kpkg")
			if [ -n "$kpkg" ] && tree=$(iop_kernel_fetch "$kpkg") && iop_image_assemble "$kpkg" "$tree"; then
				echo "$stamp" >"$IOP_IMAGE/stamp"
			else
				iop_die "cannot fetch the kernel package ${kpkg:-(none)}"
				rc=1
			fi
		elif iop_image_assemble "$kpkg" "$tree"; then
			echo "$stamp" >"$IOP_IMAGE/stamp"
			iop_log "image built: $IOP_VMLINUZ ($kpkg), $IOP_INITRD ($(du -h "$IOP_INITRD" | cut -f1))"
		else
			rc=1
		fi
	fi
	flock -u "$iop_lock_fd"
	exec {iop_lock_fd}>&-
	return $rc
}
