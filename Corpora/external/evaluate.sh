#!/usr/bin/env bash
# Evaluates Parlance on the public dev splits in ../shared/corpora (one `parlance eval` per
# corpus; their utterances name no app, so the context is contexts/no-apps.json) and prints
# the results table (Parlance.docc/Results.md) from the reports (Corpora/external/table.py).
#   bash Corpora/external/evaluate.sh [path to shared/corpora] [--aside] [--thresholds FILE]
# --aside: only the fixed tenth of every source that `parlance train` keeps aside (the
# models never saw it); without it, whole splits (most of which the models were trained on).
set -euo pipefail
cd "$(dirname "$0")/../.."
corpora="../shared/corpora"
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then corpora="$1"; shift; fi
configuration="${PARLANCE_CONFIGURATION:-release}"
swift build -c "$configuration" --product parlance
parlance="$(swift build -c "$configuration" --show-bin-path)/parlance"
out=".build/eval/external"
for arg in "$@"; do [ "$arg" = "--aside" ] && out=".build/eval/external-aside"; done
status=0
for name in clinc150 sgd xsid homeassistant; do
    "$parlance" eval --context Corpora/contexts/no-apps.json --out "$out/$name" "$@" "$corpora/$name/dev.jsonl" > /dev/null || status=1
done
python3 Corpora/external/table.py "$out"
exit $status
