#!/usr/bin/env bash
# Every figure of Parlance's speed, in one run (about 10 minutes on 2 cores):
#   tokenize + normalize and full parses per locale without and with resolution, one core and
#   all cores (ordo-one/benchmark); resolver build, memory and latency at 1k–1M items
#   (ResolverScale); `parlance` start-up and batch lines/s with 1 and 2 jobs and peak memory
#   (Commands). The side-by-side comparison is side-by-side.sh.
#   bash Benchmarks/figures.sh
set -euo pipefail
cd "$(dirname "$0")"
echo "# Parlance figures — $(date -u +%Y-%m-%d), $(uname -m) $(uname -s), $(nproc) cores, $(swift --version 2>/dev/null | head -1)"
swift build -c release --product parlance >&2
swift build -c release --product Commands >&2
swift build -c release --product ResolverScale >&2
bin="$(swift build -c release --show-bin-path)"
echo; echo "## The command"; echo
"$bin/Commands"
echo; echo "## Resolver"; echo
"$bin/ResolverScale"
echo; echo "## Text layer and parser, per locale (ordo-one/benchmark; full output in Benchmarks/.build/benchmarks.md)"; echo
swift package --disable-sandbox benchmark --format markdown > .build/benchmarks.md 2>&1
python3 summarize.py < .build/benchmarks.md
