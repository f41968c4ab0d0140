#!/usr/bin/env bash
# A soak of `parlance serve`: SOAK_SECONDS (default 600) of wrk load on /v1/parse (2 threads,
# 16 connections, the team corpus's lines) while, every half second, one user's vocabulary is
# replaced, read back through parsing and resolution, and removed, and a donation recorded and
# deleted, against a users' database. Samples the server's resident memory every 10 s. Fails
# when any answer was not the one expected, or when memory grew by more than 20 % from the
# first minute's end to the last sample. Needs wrk.
#   bash Benchmarks/serve-soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${SOAK_SECONDS:-600}"
source Benchmarks/serve-common.sh
python3 - "$work" <<'PY'
import glob, json, os, sys
with open(os.path.join(sys.argv[1], "bodies.txt"), "w", encoding="utf-8") as out:
    for path in sorted(glob.glob("Corpora/intents/*/*.jsonl")):
        for line in open(path, encoding="utf-8"):
            if line.strip():
                r = json.loads(line)
                out.write(json.dumps({"id": r["id"], "locale": r.get("locale", "en-US"), "text": r["text"]}, ensure_ascii=False) + "\n")
PY
start_server --context Corpora/contexts/monkey.json --database "$work/users.sqlite" --max-concurrent 512
base="http://127.0.0.1:$port"
wrk -t2 -c16 -d"${duration}s" -s Benchmarks/serve-load.lua "$base/v1/parse" -- "$work/bodies.txt" > "$work/wrk.txt" &
load=$!
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
failures=0; rounds=0; samples=()
started=$(date +%s)
next_sample=$started
while [ $(( $(date +%s) - started )) -lt "$duration" ]; do
    rounds=$((rounds + 1))
    name="Soak Person $rounds"
    expect() { [ "$1" = "$2" ] || { failures=$((failures + 1)); echo "round $rounds: $3: got $1, expected $2" >&2; }; }
    code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$base/v1/users/soak/apps/MonkeyChat/vocabulary/contactName" \
        -d "[{\"id\": \"s$rounds\", \"phrase\": \"$name\"}, {\"id\": \"bobo\", \"phrase\": \"Bobo\"}]")
    expect "$code" 200 "PUT vocabulary"
    kind=$(curl -s -X POST "$base/v1/resolve?user=soak" -d "{\"query\": \"$name\", \"app\": \"MonkeyChat\", \"type\": \"contactName\"}" |
        python3 -c 'import json,sys; r=json.load(sys.stdin)["resolution"]; print(r["kind"], r["items"][0]["id"] if r.get("items") else "-")')
    expect "$kind" "success s$rounds" "resolve the new name"
    code=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "$base/v1/users/soak/apps/MonkeyChat/vocabulary/contactName")
    expect "$code" 204 "DELETE vocabulary"
    kind=$(curl -s -X POST "$base/v1/resolve?user=soak" -d "{\"query\": \"$name\", \"app\": \"MonkeyChat\", \"type\": \"contactName\"}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["resolution"]["kind"])')
    expect "$kind" unsupported "resolve the removed name"
    code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$base/v1/users/soak/donations" \
        -d "{\"id\": \"d$rounds\", \"app\": \"MonkeyChat\", \"intent\": \"sendMessage\", \"date\": \"2026-11-21T10:00:00Z\"}")
    expect "$code" 204 "POST donation"
    code=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "$base/v1/users/soak/donations" -d "{\"ids\": [\"d$rounds\"]}")
    expect "$code" 204 "DELETE donation"
    if [ "$(date +%s)" -ge "$next_sample" ]; then samples+=("$(rss)"); next_sample=$((next_sample + 10)); fi
    sleep 0.5
done
wait "$load"
cat "$work/wrk.txt"
echo "vocabulary rounds: $rounds, unexpected answers: $failures"
echo "resident memory (kB, every 10 s): ${samples[*]}"
python3 - "$failures" "${samples[@]}" <<'PY'
import sys
failures = int(sys.argv[1]); samples = [int(x) for x in sys.argv[2:]]
base = samples[min(6, len(samples) - 1)]
growth = samples[-1] / base - 1
print(f"memory from the first minute's end to the last sample: {base} -> {samples[-1]} kB ({growth:+.1%})")
bad = failures > 0 or growth > 0.20
sys.exit(1 if bad else 0)
PY
if grep -q "Non-2xx\|Socket errors" "$work/wrk.txt"; then echo "serve-soak: wrk saw errors (above)" >&2; exit 1; fi
echo "soak: no error, memory flat"
