#!/usr/bin/env bash
# Builds the libFuzzer harness with AddressSanitizer (once; later runs reuse the build) and fuzzes one target.
#
#   Fuzz/run.sh TARGET SECONDS [RUNS]    e.g. Fuzz/run.sh event-stream 60, or Fuzz/run.sh query 600 10000000
#   Fuzz/run.sh list                     the targets
#
# The corpus grows in .build-fuzz/corpus/TARGET. A crash leaves its input in .build-fuzz/crash-…; replay it with a
# normal build: COURIER_FUZZ_TARGET=TARGET swift run CourierFuzz .build-fuzz/crash-…
#
# FUZZ_ADDRESS_SANITIZER=0 builds without AddressSanitizer (in .build-fuzz-fast, corpus and crashes there) for long
# runs: two to five times as many inputs a second, and Swift's own checks (bounds, overflow, exclusivity, broken
# invariants) still stop the process.
set -euo pipefail
cd "$(dirname "$0")/.."

build=.build-fuzz
sanitizers=fuzzer,address
if [ "${FUZZ_ADDRESS_SANITIZER:-1}" = 0 ]; then
  build=.build-fuzz-fast
  sanitizers=fuzzer
fi
swift build -c release --product CourierFuzz --build-path "$build" \
  -Xswiftc -sanitize="$sanitizers" -Xswiftc -enable-testing -Xswiftc -DFUZZING > "$build.log" 2>&1 ||
  { tail -40 "$build.log"; exit 1; }
binary="$build/release/CourierFuzz"

if [ "${1:-}" = "list" ]; then
  COURIER_FUZZ_TARGET=list "$binary" -runs=0 2>&1 | grep -o "one of: .*" | sed 's/one of: //' | tr -d ',' | tr ' ' '\n'
  exit 0
fi

target=${1:?"usage: Fuzz/run.sh TARGET SECONDS [RUNS]"}
seconds=${2:?"usage: Fuzz/run.sh TARGET SECONDS [RUNS]"}
runs=${3:--1}
corpus="$build/corpus/$target"
mkdir -p "$corpus"
COURIER_FUZZ_TARGET="$target" "$binary" "$corpus" -max_total_time="$seconds" -runs="$runs" -timeout=5 \
  -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 -artifact_prefix="$build/crash-$target-" 2>&1 |
  tee "$build/$target.log" | grep -E "^(#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==|SUMMARY|Invariant)" || true
grep -q "stat::number_of_executed_units" "$build/$target.log" || { tail -30 "$build/$target.log"; exit 1; }
