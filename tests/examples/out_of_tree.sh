#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What a user of an installed irdma-pmd does: `meson install` (here into a DESTDIR), then
# build examples/rdma_write_poll out of tree with its Makefile and pkg-config, and run it;
# then the same for examples/roce_pipeline when it is given (its Makefile adds the net_ring
# driver it makes its cables with). Prints TAP.
#   out_of_tree.sh <meson> <build dir> <examples/rdma_write_poll> <b_sanitize> [<examples/roce_pipeline>]
set -u
MESON=$1 BUILD=$2 SRC=$3 SANITIZE=$4 PIPE_SRC=${5:-}
tmp=$(mktemp -d /tmp/irdma_ex_oot.XXXXXX) || exit 1
prefix=irdma_ex_oot_$$
trap 'rm -rf "$tmp" "/var/run/dpdk/$prefix"' EXIT INT TERM
n=0

echo "1..6"
ok() { n=$((n + 1)); echo "ok $n - $1"; }
# Report a failure with the log, and the steps that cannot run after it.
fail_rest() {
	n=$((n + 1))
	echo "not ok $n - $1"
	[ -f "$2" ] && tail -n 30 "$2" | sed 's/^/# /'
	while [ $n -lt 6 ]; do n=$((n + 1)); echo "not ok $n - not run: an earlier step failed"; done
	exit 1
}

# 1. install into a staging directory, as a package build would
"$MESON" install -C "$BUILD" --no-rebuild --destdir "$tmp/dest" >"$tmp/install.log" 2>&1 ||
	fail_rest "meson install --destdir" "$tmp/install.log"
pc=$(find "$tmp/dest" -name libirdma_pmd.pc | head -n 1)
hdr=$(find "$tmp/dest" -name rte_pmd_irdma.h | head -n 1)
lib=$(find "$tmp/dest" -name librte_net_irdma.a | head -n 1)
[ -n "$pc" ] && [ -n "$hdr" ] && [ -n "$lib" ] ||
	{ echo "pc='$pc' header='$hdr' archive='$lib'" >"$tmp/found"; fail_rest "install has libirdma_pmd.pc, rte_pmd_irdma.h and librte_net_irdma.a" "$tmp/found"; }
ok "meson install --destdir: libirdma_pmd.pc, rte_pmd_irdma.h, librte_net_irdma.a"

# 2. pkg-config. The .pc names the configured prefix; a staged install lives under DESTDIR,
#    so point a copy of the .pc there (what the package would see once installed).
mkdir -p "$tmp/pkgconfig"
orig=$(sed -n 's/^prefix=//p' "$pc")
sed "s|^prefix=.*|prefix=$tmp/dest$orig|" "$pc" >"$tmp/pkgconfig/libirdma_pmd.pc"
export PKG_CONFIG_PATH="$tmp/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
flags=$(pkg-config --cflags --libs libirdma_pmd 2>"$tmp/pc.log") || fail_rest "pkg-config libirdma_pmd" "$tmp/pc.log"
case "$flags" in
*"-I$(dirname "$hdr")"*"-L$(dirname "$lib")"*"-lrte_net_irdma"*"-lrte_eal"*) ok "pkg-config --cflags --libs libirdma_pmd: the staged include and lib dirs, libdpdk" ;;
*) echo "$flags" >"$tmp/pc.log"; fail_rest "pkg-config flags name the staged dirs" "$tmp/pc.log" ;;
esac

# 3. build a copy of the example, away from the source tree, with its own Makefile. A
#    sanitizer build's archive needs the same runtime in the program.
cp -r "$SRC" "$tmp/src"
rm -rf "$tmp/src/build"
extra=
[ "$SANITIZE" != none ] && extra="-fsanitize=$SANITIZE"
make -C "$tmp/src" CFLAGS="-O2 -g -Werror $extra" LDFLAGS="$extra" >"$tmp/make.log" 2>&1 &&
	[ -x "$tmp/src/build/rdma_write_poll" ] || fail_rest "make (out of tree, pkg-config)" "$tmp/make.log"
ok "make: build/rdma_write_poll from the installed header and archive"

# 4. run it
timeout 60 "$tmp/src/build/rdma_write_poll" --no-pci --no-huge -m 256 --no-shconf \
	--file-prefix="$prefix" -l 0-1 --log-level=lib.eal:warning -- --size 100000 \
	>"$tmp/run.log" 2>&1
rc=$?
rm -rf "/var/run/dpdk/$prefix"
[ $rc = 0 ] && grep -Eq "^rdma_write_poll: .* wrote 100000 bytes .*data verified$" "$tmp/run.log" ||
	fail_rest "the out-of-tree build runs (exit status $rc)" "$tmp/run.log"
ok "the out-of-tree rdma_write_poll runs: data verified"

# 5, 6. the pipeline example, built and run the same way
if [ -z "$PIPE_SRC" ]; then
	n=$((n + 1)); echo "ok $n - roce_pipeline # SKIP not built here (no librte_net_ring)"
	n=$((n + 1)); echo "ok $n - roce_pipeline runs # SKIP not built here"
	exit 0
fi
cp -r "$PIPE_SRC" "$tmp/pipe"
rm -rf "$tmp/pipe/build"
make -C "$tmp/pipe" CFLAGS="-O2 -g -Werror $extra" LDFLAGS="$extra" >"$tmp/make_pipe.log" 2>&1 &&
	[ -x "$tmp/pipe/build/roce_pipeline" ] || fail_rest "make roce_pipeline (out of tree, pkg-config)" "$tmp/make_pipe.log"
ok "make: build/roce_pipeline from the installed header and archive"
timeout 60 "$tmp/pipe/build/roce_pipeline" --no-pci --no-huge -m 256 --no-shconf \
	--file-prefix="$prefix" -l 0 --log-level=lib.eal:warning -- --frames 300 \
	>"$tmp/run_pipe.log" 2>&1
rc=$?
rm -rf "/var/run/dpdk/$prefix"
[ $rc = 0 ] && grep -Eq "^roce_pipeline: forwarded 300 frames .*data verified$" "$tmp/run_pipe.log" ||
	fail_rest "the out-of-tree roce_pipeline runs (exit status $rc)" "$tmp/run_pipe.log"
ok "the out-of-tree roce_pipeline runs: data verified"
