#!/usr/bin/env bash
# Parlance side by side with the tools users would pick instead, on the same inputs, in one
# run (so that the ratios hold on a noisy machine):
#   - name matching: rapidfuzz process.extract(limit=10) against Parlance's resolver, over
#     the same generated vocabularies and queries; and top-10 accuracy on Corpora/resolution;
#   - intent parsing: hassil with the home-assistant-intents templates against Parlance.
# Installs the peers into Benchmarks/.venv with pip (needs network the first time).
#   bash Benchmarks/side-by-side.sh [--sizes 1000,10000,100000]
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/pip install -q rapidfuzz hassil home-assistant-intents
swift build -c release --product SideBySide >&2
swift build -c release --product parlance >&2
bin="$(swift build -c release --show-bin-path)"
mkdir -p .side-by-side
.venv/bin/python side_by_side.py --bin "$bin" --work .side-by-side "$@"
