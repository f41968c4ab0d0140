#!/usr/bin/env bash
# Builds the fuzz harnesses (libFuzzer + AddressSanitizer) and runs each for a number of
# executions (default 100000) or, with -max_total_time, seconds:
#   bash Fuzz/run.sh [runs]            e.g. bash Fuzz/run.sh 1000000
#   FUZZ_SECONDS=30 bash Fuzz/run.sh   (CI: 30 s each)
#   bash Fuzz/run.sh 100000 FuzzParse  (one harness)
#   FUZZ_SEED=1 …                      (a fixed seed, as CI runs it; default: a random one)
# Seeds come from Corpora/ and the tests (Fuzz/seeds.py); what a harness finds is kept in
# Fuzz/.build/corpus/<harness>, a crash as Fuzz/crashes/<harness>/crash-<sha1>, and the run
# fails. Every crash found is added to the regression inputs (Fuzz/regressions/<harness>/),
# which every run replays first.
set -euo pipefail
cd "$(dirname "$0")"
runs="${1:-100000}"
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(FuzzText FuzzParse FuzzResolve FuzzBatchLine FuzzContext FuzzPlist FuzzIntentDefinition FuzzDonations)
# libFuzzer and AddressSanitizer on an optimized build (debug builds run 10-20 times fewer
# inputs a second); lld, since gold fails on these objects.
flags="-Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld"
swift build -c release $flags >&2
bin="$(swift build -c release $flags --show-bin-path)"
python3 seeds.py .build/seeds
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1"
status=0
for h in "${harnesses[@]}"; do
    corpus=".build/corpus/$h"; mkdir -p "$corpus" "crashes/$h"
    regressions=()
    if [ -d "regressions/$h" ] && [ -n "$(ls -A "regressions/$h")" ]; then regressions=("regressions/$h"); fi
    limit=(-runs="$runs")
    [ -n "${FUZZ_SECONDS:-}" ] && limit=(-max_total_time="$FUZZ_SECONDS")
    # A fixed seed (FUZZ_SEED, as CI sets) makes a run the same sequence of inputs on every
    # machine, a slower one stopping earlier in it: what passed a longer run here passes.
    [ -n "${FUZZ_SEED:-}" ] && limit+=(-seed="$FUZZ_SEED")
    echo "== $h (${limit[*]})" >&2
    if "$bin/$h" "$corpus" ".build/seeds/$h" "${regressions[@]}" "${limit[@]}" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
        -artifact_prefix="crashes/$h/" -print_final_stats=1 2> ".build/$h.log"; then
        grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" ".build/$h.log" | sed "s/^/$h /" >&2
    else
        status=1
        echo "$h FAILED: see Fuzz/.build/$h.log and Fuzz/crashes/$h/" >&2
        tail -30 ".build/$h.log" >&2
    fi
done
exit $status
