#!/usr/bin/env bash
# Trains the trained tier of every language (Sources/ParlanceParser/Grammar/Models/<lang>.plm)
# from the team corpora and the public dev splits in ../shared/corpora (a fixed tenth of
# every source kept aside; CLINC150 has intents only, so it teaches no parameters), and from
# 60 utterances per intent generated from the templates with the gazetteers (`parlance generate`).
# The blind corpora (Corpora/blind) are never trained on.
#   bash Corpora/train.sh [path to shared/corpora]
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${1:-../shared/corpora}"
swift build -c release --product parlance
parlance="$(swift build -c release --show-bin-path)/parlance"
"$parlance" train --generate 60 --context Corpora/contexts/monkey.json --intent-only "$shared/clinc150" \
    Corpora/intents Corpora/training \
    "$shared/clinc150/dev.jsonl" "$shared/sgd/dev.jsonl" "$shared/xsid/dev.jsonl" "$shared/homeassistant/dev.jsonl"
