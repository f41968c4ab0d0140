#!/usr/bin/env bash
# `parlance serve` under load on loopback, against the same requests parsed in process:
# the team corpus's lines in every language (Corpora/intents, context Corpora/contexts/monkey.json,
# parsed and resolved), first through `parlance batch` (all cores), then POSTed one by one to
# /v1/parse by wrk (2 threads, 32 connections) for SECONDS seconds (default 30). Prints both
# rates, their ratio and wrk's latency percentiles. Needs wrk (apt-get install wrk).
#   bash Benchmarks/serve-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${SECONDS_OF_LOAD:-30}"
source Benchmarks/serve-common.sh
# The requests: every team-corpus line, as records.md input records, 10 times over.
python3 - "$work" <<'PY'
import glob, json, os, sys
work = sys.argv[1]
records = []
for path in sorted(glob.glob("Corpora/intents/*/*.jsonl")):
    for line in open(path, encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            records.append({"id": r["id"], "locale": r.get("locale", "en-US"), "text": r["text"],
                            "reference_time": r.get("reference_time", "2026-11-21T10:00:00+01:00")})
for name, times in (("once.jsonl", 1), ("lines.jsonl", 11)):
    with open(os.path.join(work, name), "w", encoding="utf-8") as out:
        for _ in range(times):
            for r in records:
                out.write(json.dumps(r, ensure_ascii=False) + "\n")
with open(os.path.join(work, "bodies.txt"), "w", encoding="utf-8") as out:
    for r in records:
        out.write(json.dumps(r, ensure_ascii=False) + "\n")
PY
# In process: the rate between a run of the lines once and a run of them 11 times, so that
# start-up (every language's grammar compiled) counts in neither.
timed() { local s e; s=$(date +%s.%N); "$bin" batch --context Corpora/contexts/monkey.json "$1" > /dev/null; e=$(date +%s.%N); python3 -c "print($e - $s)"; }
once=$(wc -l < "$work/once.jsonl"); many=$(wc -l < "$work/lines.jsonl")
t1=$(timed "$work/once.jsonl"); t11=$(timed "$work/lines.jsonl")
inproc=$(python3 -c "print(round(($many - $once) / ($t11 - $t1)))")
echo "in process (parlance batch, all cores, parse and resolve): $inproc lines/s ($once lines in $(printf %.1f "$t1") s, $many in $(printf %.1f "$t11") s)"
start_server --context Corpora/contexts/monkey.json --max-concurrent 512
url="http://127.0.0.1:$port/v1/parse"
# Warm-up: every language compiled in the server.
wrk -t2 -c8 -d5s -s Benchmarks/serve-load.lua "$url" -- "$work/bodies.txt" > /dev/null
wrk -t2 -c32 -d"${seconds}s" --latency -s Benchmarks/serve-load.lua "$url" -- "$work/bodies.txt" | tee "$work/wrk.txt"
http=$(grep -o 'Requests/sec: *[0-9.]*' "$work/wrk.txt" | grep -o '[0-9.]*$')
echo "through HTTP: $http requests/s; ratio to in process: $(python3 -c "print(round($http / $inproc, 3))")"
if grep -q "Non-2xx" "$work/wrk.txt"; then echo "serve-load: some answers were not 2xx (above)" >&2; exit 1; fi
