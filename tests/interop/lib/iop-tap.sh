# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash disable=SC2154 # t_start and case_*: set by the sourcing script
# The frame the harness's suite scripts share (selftest.sh, pmd/pmd-interop.sh,
# pmd/rdmacm-interop.sh, ../vfio/vfio-test.sh): TAP results, the skip where QEMU cannot
# run, the plan at the end, the one-rxe-guest start, our tools in the namespace and the
# clean-up of their EAL runtime directories. Sourced after iop.sh, never run.
#
# The results are numbered in the globals step and failed; a script sets t_start (iop_now)
# when its run begins and ends with iop_tap_end, whose status is the script's.

step=0 failed=0

ok() { step=$((step + 1)); echo "ok $step - $*"; }
not_ok() { step=$((step + 1)); failed=$((failed + 1)); echo "not ok $step - $*"; }
# check DESCRIPTION COMMAND...: one numbered result per check
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
bail() {
	not_ok "$*"
	echo "Bail out! $*"
	exit 1
}

# Exits with the TAP skip plan (meson counts a skip) where QEMU cannot run: not root, no
# /dev/net/tun, no qemu-system-x86_64 after trying to install it.
iop_tap_skip_unless_qemu() {
	local why
	if why=$(iop_cannot_run); then
		echo "1..0 # SKIP QEMU cannot run here: $why"
		exit 0
	fi
}

# iop_tap_end [NAME]: the plan, with NAME a summary line "# NAME: passed/all in Ns";
# status 0 when nothing failed.
# shellcheck disable=SC2120 # NAME is optional
iop_tap_end() {
	echo "1..$step"
	[ $# -eq 0 ] || echo "# $1: $((step - failed))/$step passed in $(iop_elapsed "$t_start")s"
	[ "$failed" -eq 0 ]
}

# The guest image, the namespace and guest 1 with rxe0 up, or a bail; then one result.
iop_tap_rxe_guest() {
	local rxe
	iop_image_build || bail "guest image builds (see the messages above)"
	iop_net_up || bail "namespace $IOP_NS wired"
	iop_guest_start 1 || bail "guest 1 boots"
	rxe=$(iop_guest_wait_rxe 1 60) || { echo "$rxe"; bail "rxe0 comes up in guest 1"; }
	ok "guest 1 with rxe0 ACTIVE ($(iop_elapsed "$t_start")s)"
}

# iop_tap_rxe_session TAG: how a suite on one rxe guest begins (after its usage check): the
# skip where QEMU cannot run, our tools' EAL directories watched (iop_eal_watch TAG), the
# clock (t_start), the session with its teardown on exit, and guest 1 with rxe0 up.
iop_tap_rxe_session() {
	iop_tap_skip_unless_qemu
	iop_eal_watch "$1"
	t_start=$(iop_now)
	iop_session_begin || exit 1
	trap 'eal_cleanup; iop_session_end' EXIT
	iop_tap_rxe_guest
}

# iop_eal_watch TAG: our tools' EAL runtime directories are /var/run/dpdk/TAG_<case>_<pid of
# the script> (eal_prefix_glob); eal_cleanup removes them, and so does a watchdog once the
# script is gone, if the runner kills it before its traps run.
iop_eal_watch() {
	eal_prefix_tag=$1
	eal_prefix_glob="/var/run/dpdk/${1}_*_$$"
	# shellcheck disable=SC2016 # the watchdog's own arguments
	setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 0.5; done; sleep 3; rm -rf /var/run/dpdk/"$2"_*_"$1"' \
		_ "$$" "$1" </dev/null >/dev/null 2>&1 &
}
# shellcheck disable=SC2086 # a glob
eal_cleanup() { rm -rf $eal_prefix_glob; }

# iop_ours MEM LIMIT NAME BIN ARGS...: one of our tools in the namespace on the raw port
# (--no-huge -m MEM, at most LIMIT seconds); its EAL runtime directory goes when it ends.
iop_ours() {
	local mem=$1 limit=$2 name=$3 bin=$4 rc=0
	shift 4
	iop_ns timeout -k 2 "$limit" "$bin" --no-pci --no-huge -m "$mem" --no-shconf \
		--file-prefix="${eal_prefix_tag}_${name}_$$" -l 0 --vdev="net_af_packet0,iface=$IOP_RAW_IF" \
		-- "$@" || rc=$?
	rm -rf "/var/run/dpdk/${eal_prefix_tag}_${name}_$$"
	return $rc
}

# report TITLE OURS_RE GUEST_RE [OURS_RE2]: ok when both sides of the last case exit 0
# (case_rc, case_grc) and both outputs (case_ours, case_guest) match; else both outputs.
report() {
	local title=$1 ours_re=$2 guest_re=$3 ours_re2=${4:-.}
	if [ "$case_rc" -eq 0 ] && [ "$case_grc" -eq 0 ] && grep -qE "$ours_re" <<<"$case_ours" &&
		grep -qE "$ours_re2" <<<"$case_ours" && grep -qE "$guest_re" <<<"$case_guest"; then
		grep -E "$ours_re" <<<"$case_ours" | head -n 1 | sed 's/^/#   ours:  /'
		ok "$title"
	else
		sed 's/^/#   ours:  /' <<<"$case_ours"
		sed 's/^/#   guest: /' <<<"$case_guest"
		not_ok "$title (our status $case_rc, guest status $case_grc)"
	fi
}
