#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs the examples as a user would, with the project's EAL rules, and checks exit status and
# output: a success line that names what was verified, or exit status 1 with exactly one error
# line of the example's own. Prints TAP.
#   run_examples.sh <rdma_write_poll> <ud_send_recv> <service_engine> [<roce_pipeline>]
set -u
WP=$1 UD=$2 SE=$3 PIPE=${4:-}
n=0
out=$(mktemp -d /tmp/irdma_ex_out.XXXXXX) || exit 1
trap 'rm -rf "$out"' EXIT INT TERM

echo "1..24"

# check NAME LCORES EXE WANT_RC PATTERN [-- APP ARGS]: one test. PATTERN (grep -E) must match
# the success line on stdout (WANT_RC 0) or the error line on stderr (WANT_RC 1).
check() {
	name=$1 lcores=$2 exe=$3 want_rc=$4 pattern=$5
	shift 5
	n=$((n + 1))
	prefix=irdma_ex_${name}_$$
	tool=$(basename "$exe")
	# shellcheck disable=SC2086 # LCORES is two words on purpose
	timeout 60 "$exe" --no-pci --no-huge -m 256 --no-shconf --file-prefix="$prefix" $lcores \
		--log-level=lib.eal:warning "$@" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	rm -rf "/var/run/dpdk/$prefix"
	# the example's own lines; getopt would prefix its messages with the full path
	errlines=$(grep -c "^$tool: " "$out/stderr")
	[ "$(grep -c "^$exe: " "$out/stderr")" = 0 ] || errlines=getopt
	if [ "$want_rc" = 0 ]; then
		grep -Eq "^$tool: $pattern" "$out/stdout" && [ "$rc" = 0 ] && [ "$errlines" = 0 ]
	else
		[ "$rc" = "$want_rc" ] && [ "$errlines" = 1 ] &&
			grep "^$tool: " "$out/stderr" | grep -Eq "^$tool: $pattern"
	fi
	if [ $? = 0 ] && [ ! -e "/var/run/dpdk/$prefix" ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name (exit status $rc, wanted $want_rc)"
		sed 's/^/# stdout: /' "$out/stdout"
		sed 's/^/# stderr: /' "$out/stderr"
	fi
}

A=soft,name=wp_a,port=loop,ip=198.18.0.1
B=soft,name=wp_b,port=loop,ip=198.18.0.2
VERIFIED="data verified$"

# rdma_write_poll: RC WRITE WITH IMMEDIATE, writer on lcore 0, receiver polling on lcore 1
check wp_default "-l 0-1" "$WP" 0 \
	"wp_a QP [0-9]+ wrote 65536 bytes with immediate 0x1d2c3b4a to wp_b QP [0-9]+ \(lcore 0 -> lcore 1\): $VERIFIED"
check wp_one_byte "-l 0-1" "$WP" 0 "wp_a QP [0-9]+ wrote 1 bytes .*$VERIFIED" -- --size 1
# segmented at MTU 4096 over a wire that drops 2 % of the frames: retransmissions fill the gaps
check wp_lossy_3mb "-l 0-1" "$WP" 0 "wp_a QP [0-9]+ wrote 3000000 bytes .*$VERIFIED" -- \
	--dev0 "$A,mtu=4096,drop=0.02,seed=7" --dev1 "$B,mtu=4096,drop=0.02,seed=8" --size 3000000
check wp_mtu_256_gen3 "-l 0-1" "$WP" 0 "wp_a QP [0-9]+ wrote 70000 bytes .*$VERIFIED" -- \
	--dev0 "$A,mtu=256,gen=3" --dev1 "$B,gen=3" --size 70000
check wp_one_lcore "-l 0" "$WP" 1 "needs two lcores, the main one and a worker \(EAL -l 0-1\)$"
check wp_bad_devargs "-l 0-1" "$WP" 1 "device 'soft,prot=loop': Invalid argument$" -- \
	--dev0 soft,prot=loop
check wp_bad_size "-l 0-1" "$WP" 1 "--size: expected 1\.\.16777216 bytes, got '17M'$" -- --size 17M
check wp_gen1_no_imm "-l 0-1" "$WP" 1 "writer: post_send: Operation not supported$" -- \
	--dev0 "$A,gen=1" --dev1 "$B,gen=1"

# ud_send_recv: UD SEND through an AH, GRH area, optional SRQ
check ud_default "-l 0-1" "$UD" 0 \
	"8 datagrams of 128\.\.1024 bytes from ud_a QP [0-9]+ \(GRH source 198\.18\.0\.1\) to ud_b QP [0-9]+: $VERIFIED"
check ud_srq "-l 0-1" "$UD" 0 "8 datagrams .* to ud_b QP [0-9]+ through an SRQ: $VERIFIED" -- --srq
check ud_ipv6_mtu_256 "-l 0-1" "$UD" 0 \
	"8 datagrams of 32\.\.256 bytes from u6a QP [0-9]+ \(GRH source fd00::1\) to u6b .*$VERIFIED" -- \
	--dev0 soft,name=u6a,port=loop,ip6=fd00::1,mtu=256 --dev1 soft,name=u6b,port=loop,ip6=fd00::2
check ud_srq_gen2 "-l 0-1" "$UD" 1 "--srq: ud_b \(gen=2\) has no SRQs; use gen=3$" -- \
	--srq --dev1 soft,name=ud_b,port=loop,ip=198.18.0.2,gen=2
check ud_one_lcore "-l 0" "$UD" 1 "needs two lcores"
check ud_missing_value "-l 0-1" "$UD" 1 "bad option '--dev0'; usage: ud_send_recv " -- --dev0

# service_engine: both engines on one service lcore, the application on the main lcore
check se_default "-l 0-1" "$SE" 0 \
	"se_a and se_b engines on service lcore 1; lcore 0 wrote 65536 bytes with immediate 0x1d2c3b4a, lcore 0 received it: $VERIFIED"
check se_eal_service_mask "-l 0-1 -s 0x2" "$SE" 0 "se_a and se_b engines on service lcore 1; .*$VERIFIED" -- \
	--size 2000000
check se_inline_refused "-l 0-1" "$SE" 1 "irdma0: needs engine=service in its devargs$" -- \
	--dev0 soft,port=loop,ip=198.18.0.1
check se_shared_cpu "--lcores=0@0,1@0" "$SE" 1 \
	"service lcore 1 shares a CPU with main lcore 0: give each its own \(EAL -l/--lcores\)$"
check se_one_lcore "-l 0" "$SE" 1 "needs a second lcore for the service \(EAL -l 0-1\)$"

# usage errors are one line too
check se_unknown_option "-l 0-1" "$SE" 1 "bad option '--bogus'; usage: service_engine <EAL args> -- " -- --bogus

# roce_pipeline: the application owns pipe0 and pipe1 and forwards pipe0 -> pipe1; the RDMA
# device shares pipe0 through the mbuf hand-off (rxq=app,txq=app). Each forwarded frame is
# checked byte for byte at pipe1's far end, the written buffer against the peer's. 65 frames
# in: the peer's ARP request and the 64 packets of 64 KiB at path MTU 1024.
if [ -n "$PIPE" ]; then
	check pipe_default "-l 0" "$PIPE" 0 \
		"forwarded 1000 frames \(128000 bytes\) pipe0 -> pipe1, each as sent; peer QP [0-9]+ wrote 65536 bytes with immediate 0x5eed1234 to pipe QP [0-9]+ through the hand-off \(65 frames in, [0-9]+ out\): $VERIFIED"
	check pipe_1mb_20000_frames "-l 0" "$PIPE" 0 \
		"forwarded 20000 frames \(2560000 bytes\) .* wrote 1000000 bytes .*$VERIFIED" -- \
		--size 1000000 --frames 20000
	check pipe_rdma_only "-l 0" "$PIPE" 0 "forwarded 0 frames \(0 bytes\) .* wrote 1 bytes .*$VERIFIED" -- \
		--size 1 --frames 0
	check pipe_bad_size "-l 0" "$PIPE" 1 "--size: expected 1\.\.16777216 bytes, got '0'$" -- --size 0
else
	for t in pipe_default pipe_1mb_20000_frames pipe_rdma_only pipe_bad_size; do
		n=$((n + 1))
		echo "ok $n - $t # SKIP roce_pipeline not built (no librte_net_ring)"
	done
fi
