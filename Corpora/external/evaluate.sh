#!/usr/bin/env bash
# Evaluates Parlance on the public dev splits in ../shared/corpora (one `parlance eval` per
# corpus; their utterances name no app, so the context is contexts/no-apps.json) and prints
# the README's results table from the reports (Corpora/external/table.py).
#   bash Corpora/external/evaluate.sh [path to shared/corpora]
set -euo pipefail
cd "$(dirname "$0")/../.."
corpora="${1:-../shared/corpora}"
swift build -c release --product parlance
parlance="$(swift build -c release --show-bin-path)/parlance"
for name in clinc150 sgd xsid homeassistant; do
    "$parlance" eval --context Corpora/contexts/no-apps.json --out ".build/eval/external/$name" "$corpora/$name/dev.jsonl" > /dev/null
done
python3 Corpora/external/table.py .build/eval/external
