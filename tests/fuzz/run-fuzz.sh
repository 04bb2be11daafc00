#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs one libFuzzer target as a TAP test:
#   run-fuzz.sh TARGET-EXE SEED-DIR REGRESS-DIR SECONDS
# 1. every input in REGRESS-DIR (crashes found earlier) runs once and must pass;
# 2. the target fuzzes for SECONDS from a scratch copy of SEED-DIR (the repository's corpus
#    is never written); a crash fails the test and leaves its input in the build directory
#    (fuzz-artifacts/<target>/), to be added to REGRESS-DIR with the fix.
# FUZZ_SECONDS overrides SECONDS. The random seed is fixed (FUZZ_SEED, default 1) so that a CI
# run is repeatable; pass another seed, or FUZZ_SEED=0 for a fresh one, to explore further.
set -uo pipefail
exe=$1 seeds=$2 regress=$3 secs=${FUZZ_SECONDS:-$4}
name=$(basename "$exe")
art=$(pwd)/fuzz-artifacts/$name
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$art"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
echo "1..2"
shopt -s nullglob
reg=("$regress"/*)
if [ ${#reg[@]} -eq 0 ]; then
	echo "ok 1 - $name: regression inputs # SKIP none recorded"
elif "$exe" "${reg[@]}" >"$work/regress.log" 2>&1; then
	echo "ok 1 - $name: ${#reg[@]} regression inputs"
else
	sed 's/^/# /' "$work/regress.log" | tail -40
	echo "not ok 1 - $name: a regression input fails"
fi
mkdir "$work/corpus"
cp "$seeds"/* "$work/corpus/" 2>/dev/null
if "$exe" -seed="${FUZZ_SEED:-1}" -max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=2048 -max_len=4096 \
	-artifact_prefix="$art/" "$work/corpus" >"$work/fuzz.log" 2>&1; then
	execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$work/fuzz.log")
	cov=$(grep -o 'cov: [0-9]*' "$work/fuzz.log" | tail -1)
	echo "# $name: ${execs:-?} executions in ${secs} s, $cov, corpus $(ls "$work/corpus" | wc -l) inputs"
	echo "ok 2 - $name: ${execs:-?} executions, no crash"
else
	grep -E "ERROR|SUMMARY|runtime error|#[0-9]+ 0x|Test unit written" "$work/fuzz.log" | head -40 | sed 's/^/# /'
	echo "not ok 2 - $name: crash (input in $art)"
fi
