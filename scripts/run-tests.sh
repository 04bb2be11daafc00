#!/usr/bin/env bash
# The README's test command: installs what is missing, builds three ways and runs every suite.
#   build/        -Werror, debugoptimized: every suite
#   build-asan/   -Werror, ASan + UBSan + LeakSanitizer: every suite but the TSan one
#   build-tsan/   ThreadSanitizer: lib/uk's producer/consumer test
#   build-fuzz/   clang, libFuzzer + ASan + UBSan: the fuzz targets of tests/fuzz, each for
#                 FUZZ_SECONDS (default 20) after its recorded regression inputs
# Ends with the line 'N passed, N failed, N skipped'; exits non-zero when anything failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

"$root/scripts/install-deps.sh" test || { echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=hugepages.sh
. "$root/scripts/hugepages.sh"
reserve_hugepages 128

jobs=$(nproc 2>/dev/null || echo 2)
logs=()
status=0

setup() { # dir, extra meson options...
	local dir=$1; shift
	if [ -d "$dir" ]; then
		meson setup --reconfigure "$dir" "$@" >"$dir.setup.log" 2>&1 || meson setup --wipe "$dir" "$@" >"$dir.setup.log" 2>&1
	else
		meson setup "$dir" "$@" >"$dir.setup.log" 2>&1
	fi
}

run_build() { # dir, "suite args", meson options...
	local dir=$1 suites=$2; shift 2
	echo "== $dir: configure and build"
	if ! setup "$dir" "$@" || ! ninja -C "$dir" >"$dir.build.log" 2>&1; then
		cat "$dir.setup.log" "$dir.build.log" 2>/dev/null | tail -40
		echo "== $dir: BUILD FAILED"
		status=1
		echo '{"name": "build '"$dir"'", "result": "FAIL"}' >"$dir.buildfail.json"
		logs+=("$dir.buildfail.json")
		return
	fi
	echo "== $dir: test"
	# shellcheck disable=SC2086
	meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$jobs" $suites || status=1
	logs+=("$dir/meson-logs/testlog.json")
}

run_build build "--no-suite tsan" -Dwerror=true
# LeakSanitizer: every test process of the ASan build checks for leaks at its exit, explicitly
# (meson's default ASAN_OPTIONS leave it to the platform default). It cannot run under ptrace:
# no test of this build runs under a debugger, strace or valgrind. scripts/lsan.supp names the
# allocations of DPDK itself that live until the process ends (each with its reason).
ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:print_summary=1" \
LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0" \
	run_build build-asan "--no-suite tsan --no-suite slow" -Dwerror=true \
	-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
TSAN_OPTIONS="halt_on_error=1" run_build build-tsan "--suite tsan" -Dwerror=true \
	-Db_sanitize=thread -Dtsan_only=true -Dpmd=disabled -Dbuildtype=debug
if command -v clang >/dev/null; then
	CC=clang run_build build-fuzz "--suite fuzz" -Dwerror=true -Dfuzz=true \
		-Dfuzz_seconds="${FUZZ_SECONDS:-20}" -Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debug
else
	echo "== build-fuzz: skipped (clang is not installed; scripts/install-deps.sh test installs it)"
fi

python3 "$root/scripts/count-results.py" "${logs[@]}" || status=1
exit $status
