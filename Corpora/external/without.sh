#!/usr/bin/env bash
# Measures the public dev splits as whole splits with models trained without them: for each
# corpus, trains every language's trained tier on everything but that corpus (into
# .build/eval/without/<corpus>/models), evaluates the whole split with those models
# (PARLANCE_MODEL_DIR) and prints the results table (Corpora/external/table.py).
#   bash Corpora/external/without.sh [path to shared/corpora] [corpus …]
set -euo pipefail
cd "$(dirname "$0")/../.."
corpora="../shared/corpora"
if [ $# -gt 0 ] && [ -d "$1" ]; then corpora="$1"; shift; fi
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(clinc150 sgd xsid homeassistant)
swift build -c release --product parlance
parlance="$(swift build -c release --show-bin-path)/parlance"
out=".build/eval/without"
for name in "${names[@]}"; do
    others=()
    for other in clinc150 sgd xsid homeassistant; do
        [ "$other" != "$name" ] && others+=("$corpora/$other/dev.jsonl")
    done
    mkdir -p "$out/$name/models"
    "$parlance" train --generate 60 --context Corpora/contexts/monkey.json --intent-only "$corpora/clinc150" \
        --out "$out/$name/models" Corpora/intents Corpora/training "${others[@]}" > "$out/$name/train.log" 2>&1
    PARLANCE_MODEL_DIR="$out/$name/models" "$parlance" eval --context Corpora/contexts/no-apps.json --out "$out/$name" \
        "$corpora/$name/dev.jsonl" > /dev/null
done
python3 Corpora/external/table.py "$out"
