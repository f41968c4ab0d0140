#!/usr/bin/env bash
# Parlance side by side with the tools users would pick instead, on the same inputs, in one
# run (so that the ratios hold on a noisy machine):
#   - name matching: rapidfuzz process.extract(limit=10) against Parlance's resolver, over
#     the same generated vocabularies and queries; and top-10 accuracy on Corpora/resolution;
#   - intent parsing: hassil with the home-assistant-intents templates against Parlance; and
#     Snips NLU, trained on the team corpus, on the very texts Parlance parses.
# Installs the peers into Benchmarks/.venv with pip (needs network the first time), and Snips
# NLU into Benchmarks/.venv38: its Rust wheels stop at CPython 3.8, so that environment is made
# with a Python 3.8 (pyenv's 3.8.18 unless SNIPS_PYTHON3 names another); without one, the Snips
# table is skipped.
#   bash Benchmarks/side-by-side.sh [--sizes 1000,10000,100000]
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/pip install -q rapidfuzz hassil home-assistant-intents
py38="${SNIPS_PYTHON3:-$HOME/.pyenv/versions/3.8.18/bin/python3}"
if [ ! -x .venv38/bin/python ] && [ -x "$py38" ]; then "$py38" -m venv .venv38; fi
if [ -x .venv38/bin/python ]; then
  .venv38/bin/pip install -q numpy==1.19.5 snips-nlu==0.20.2
else
  echo "No Python 3.8 at $py38: Snips NLU skipped (set SNIPS_PYTHON3)" >&2
fi
swift build -c release --product SideBySide >&2
swift build -c release --product parlance >&2
bin="$(swift build -c release --show-bin-path)"
mkdir -p .side-by-side
.venv/bin/python side_by_side.py --bin "$bin" --work .side-by-side "$@"
