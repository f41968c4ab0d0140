#!/usr/bin/env bash
# Memory per language (issue 17: a loaded grammar ≤ 40 MB; a six-language batch < 300 MB).
#   bash Benchmarks/memory.sh
# For each language with an intent grammar: peak resident memory (GNU time) of
# `parlance parse --no-resolve` on the demo context, minus that of `parlance tokens` in the
# same language (the process, ICU and the text layer): what the language's grammar, trained
# model and lexicons cost loaded. Then a batch of the blind corpora of all six languages.
# Exits 1 when a language is over 40 MB or the batch over 300 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product parlance >&2
parlance="$(swift build -c release --show-bin-path)/parlance"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
peak() { /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null 2> /dev/null || true; echo $(( $(tail -1 "$work/rss") / 1024 )); }
status=0
echo "| language | tokens (MB) | parse (MB) | grammar (MB) |"
echo "|---|---:|---:|---:|"
for locale in en-US es-ES fr-FR de-DE it-IT pt-BR; do
    base=$(peak "$parlance" tokens --locale "$locale" "hola")
    full=$(peak "$parlance" parse --no-resolve --locale "$locale" "hola")
    echo "| $locale | $base | $full | $((full - base)) |"
    [ $((full - base)) -le 40 ] || status=1
done
cat Corpora/blind/*/*.jsonl > "$work/blind.jsonl"
batch=$(peak "$parlance" batch --no-progress --context Corpora/contexts/blind.json "$work/blind.jsonl")
echo
echo "six-language batch (Corpora/blind, $(wc -l < "$work/blind.jsonl") lines, 2 jobs): peak $batch MB"
[ "$batch" -lt 300 ] || status=1
exit $status
