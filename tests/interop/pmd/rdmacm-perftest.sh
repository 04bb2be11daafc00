# SPDX-License-Identifier: BSD-3-Clause
# Sourced by rdmacm-interop.sh: irdma-perf -R against perftest's -R in the guest, both
# roles. With -R the server host is the server's RoCE address (the guest's 198.18.0.11,
# or ours, 198.18.0.2) and everything, exchange included, goes over RDMA-CM.

# perf_cm_case ROLE TEST ROW_RE: both exit 0 and both print a result row matching ROW_RE.
perf_cm_case() {
	local role=$1 t=$2 row=$3 log out gout rc=0 grc=0 pid title
	case_no=$((case_no + 1))
	log=$IOP_RUN/perf-$case_no.log
	if [ "$role" = client ]; then
		guest_bg 60 "ib_$t -d rxe0 -x $(iop_guest_gid_index 1) -R -n 100"
		iop_wait_until 10 0.2 guest_listening 18515 || { not_ok "ib_$t -R listens in the guest"; return; }
		ours "pc$case_no" 60 "$perf" --devargs "$dev_base" --test "$t" -R -n 100 --timeout 30 \
			"$guest" >"$log" 2>&1 || rc=$?
		gout=$(guest_bg_wait 30) || grc=$?
		title="irdma-perf -R client against ib_$t -R server"
	else
		ours "ps$case_no" 60 "$perf" --devargs "$dev_base" --test "$t" -R -n 100 --timeout 30 \
			>"$log" 2>&1 &
		pid=$!
		iop_track_pid "$pid"
		sleep 1
		guest_bg 50 "ib_$t -d rxe0 -x $(iop_guest_gid_index 1) -R -n 100 $ours_ip"
		gout=$(guest_bg_wait 50) || grc=$?
		wait "$pid" || rc=$?
		title="ib_$t -R client against irdma-perf -R server"
	fi
	out=$(grep -v -e '^EAL: ' -e '^TELEMETRY: ' -e '^irdma-[a-z]*: warning: ' "$log")
	if [ $rc -eq 0 ] && [ $grc -eq 0 ] && grep -qE "$row" <<<"$out" && grep -qE "$row" <<<"$gout" &&
		grep -q 'Data ex. method : rdma_cm' <<<"$out"; then
		grep -E "$row" <<<"$out" | sed 's/^/#   ours:  /'
		grep -E "$row" <<<"$gout" | sed 's/^/#   guest: /'
		ok "$title"
	else
		tail -n 15 <<<"$out" | sed 's/^/#   ours:  /'
		tail -n 15 <<<"$gout" | sed 's/^/#   guest: /'
		not_ok "$title (our status $rc, guest status $grc)"
	fi
}

# the latency rows: 2 bytes, 100 iterations; write_bw: 65536 bytes, 100 iterations
for role in client server; do
	perf_cm_case "$role" write_lat '^ 2 +100 '
	perf_cm_case "$role" send_lat '^ 2 +100 '
	perf_cm_case "$role" write_bw '^ 65536 +100 '
done
