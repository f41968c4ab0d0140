#!/usr/bin/env bash
# The Spark driver's overhead: the same lines through `parlance batch --jobs 2` and through
# Spark in local mode on 2 cores (`--master local[2]`, each partition `batch --jobs 1`),
# wall time of the whole command each (Spark's includes starting its JVM), both outputs
# checked equal (sorted). Lines: the annotated corpora (Corpora/{intents,blind,resolution,
# custom}) repeated with distinct ids; context Corpora/contexts/monkey.json.
#   bash Spark/overhead.sh [LINES (default 200000)] [ROUNDS (default 2)]
set -euo pipefail
cd "$(dirname "$0")/.."
lines="${1:-200000}"
rounds="${2:-2}"
swift build -c release --product parlance >/dev/null
bin="$(swift build -c release --show-bin-path)/parlance"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$lines" "$work/in.jsonl" <<'PY'
import json, sys
from pathlib import Path
total, target = int(sys.argv[1]), sys.argv[2]
source = [line for name in ("intents", "blind", "resolution", "custom")
          for path in sorted(Path("Corpora", name).rglob("*.jsonl"))
          for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
with open(target, "w", encoding="utf-8") as out:
    for n in range(total):
        record = json.loads(source[n % len(source)])
        record["id"] = f"{record['id']}~{n // len(source)}"
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
PY
seconds() { python3 -c 'import sys, time; print(f"{time.time() - float(sys.argv[1]):.1f}")' "$1"; }
for round in $(seq "$rounds"); do
    start="$(date +%s.%N)"
    "$bin" batch --jobs 2 --no-progress --context Corpora/contexts/monkey.json "$work/in.jsonl" > "$work/batch.jsonl" || [ $? -eq 1 ]
    batch="$(seconds "$start")"
    rm -rf "$work/spark"
    start="$(date +%s.%N)"
    python3 Spark/parlance_spark.py --master 'local[2]' --parlance "$bin" --context Corpora/contexts/monkey.json \
        --output "$work/spark" "$work/in.jsonl" 2>"$work/spark.log"
    spark="$(seconds "$start")"
    sort "$work/batch.jsonl" > "$work/a"; cat "$work/spark"/part-* | sort > "$work/b"
    cmp -s "$work/a" "$work/b" || { echo "the outputs differ" >&2; exit 1; }
    echo "round $round: $lines lines; parlance batch --jobs 2: $batch s; Spark local[2]: $spark s; ratio $(python3 -c "print(f'{$spark / $batch:.2f}')"); load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
