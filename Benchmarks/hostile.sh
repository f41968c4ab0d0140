#!/usr/bin/env bash
# Hostile input, measured (issue 17). Two parts:
#   bash Benchmarks/hostile.sh costs [FAMILY…]   instructions per line of each family of
#       hostile.py at 30 KB and 60 KB (valgrind --tool=callgrind on a stripped binary, one
#       job): a line costs what a batch of [an ordinary line, that line] costs minus a batch of
#       the ordinary line alone, so lazily built tables are not counted. Doubling the line
#       should at most double the work (ratio ≤ 2.2).
#   bash Benchmarks/hostile.sh batch [LINES]      a batch of LINES (default 1,000,000) lines, 1 %
#       of them hostile (every family, 1 KB to 60 KB): checks one output line per input line,
#       in order, and prints the error codes, wall time and peak memory (GNU time); per-line
#       costs are the first part's.
set -euo pipefail
cd "$(dirname "$0")"
part="${1:-costs}"; shift || true
swift build -c release --package-path .. --product parlance >&2
bin="$(swift build -c release --package-path .. --show-bin-path)"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

case "$part" in
costs)
    command -v valgrind > /dev/null || { echo "hostile.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
    cp "$bin/parlance" "$work/parlance"; strip "$work/parlance"
    cp -r "$bin"/*.resources "$work/"
    instructions() {
        SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
            "$work/parlance" batch --jobs 1 --no-progress "$1" > /dev/null 2> /dev/null || true
        grep '^summary:' "$work/cg.out" | cut -d' ' -f2
    }
    families=("$@"); [ ${#families[@]} -gt 0 ] || mapfile -t families < <(python3 hostile.py families)
    declare -A base
    printf '| family | locale | 30 KB line (M instr) | 60 KB line (M instr) | ratio |\n|---|---|---:|---:|---:|\n'
    for f in "${families[@]}"; do
        python3 hostile.py line "$f" 30000 > "$work/a.jsonl"; python3 hostile.py line "$f" 60000 > "$work/b.jsonl"
        locale="$(python3 -c 'import json,sys
try: print(json.loads(open(sys.argv[1], encoding="utf-8", errors="replace").read()).get("locale", "en-US"))
except Exception: print("en-US")' "$work/a.jsonl")"
        python3 -c 'import json,sys; print(json.dumps({"id": "ordinary", "text": "what is the weather like on Mars this weekend", "locale": sys.argv[1]}))' "$locale" > "$work/o.jsonl"
        [ -n "${base[$locale]:-}" ] || base[$locale]="$(instructions "$work/o.jsonl")"
        cat "$work/o.jsonl" "$work/a.jsonl" > "$work/oa.jsonl"; cat "$work/o.jsonl" "$work/b.jsonl" > "$work/ob.jsonl"
        a="$(instructions "$work/oa.jsonl")"; b="$(instructions "$work/ob.jsonl")"
        python3 -c 'import sys
base, a, b = map(int, sys.argv[3:6]); x, y = (a - base) / 1e6, (b - base) / 1e6
ratio = f"{y / x:.2f}" if x > 2 else "–"
print(f"| {sys.argv[1]} | {sys.argv[2]} | {x:.1f} | {y:.1f} | {ratio} |")' "$f" "$locale" "${base[$locale]}" "$a" "$b"
    done
    ;;
batch)
    lines="${1:-1000000}"
    python3 hostile.py batch "$lines" 1 > "$work/in.jsonl"
    echo "input: $lines lines, $(grep -c '"hostile-\|^\[\[\|^{not' "$work/in.jsonl" || true) hostile-looking, $(du -h "$work/in.jsonl" | cut -f1)" >&2
    start=$(date +%s.%N)
    /usr/bin/time -f '%M' -o "$work/rss" "$bin/parlance" batch --no-progress "$work/in.jsonl" > "$work/out.jsonl" 2> "$work/err" || true
    end=$(date +%s.%N)
    python3 - "$work/in.jsonl" "$work/out.jsonl" "$lines" "$start" "$end" "$(tail -1 "$work/rss")" <<'PY'
import json, sys, collections
inp, out, n, start, end, rss = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
records = []
with open(out, encoding="utf-8") as f:
    for line in f:
        records.append(json.loads(line))
ok = len(records) == n
codes = collections.Counter((r.get("error") or {}).get("code", "none") for r in records)
ordinary = [r for r in records if str(r.get("id", "")).startswith("line-")]
order_ok = all(int(r["id"][5:]) < int(s["id"][5:]) for r, s in zip(ordinary, ordinary[1:]))
print(f"output lines: {len(records)} of {n} ({'all' if ok else 'MISSING'}), ordinary lines in order: {order_ok}")
print(f"wall: {end - start:.1f} s ({n / (end - start):.0f} lines/s), peak memory: {rss / 1024:.0f} MB")
print("error codes:", ", ".join(f"{k} {v}" for k, v in codes.most_common()))
sys.exit(0 if ok and order_ok else 1)
PY
    ;;
*)
    echo "usage: bash Benchmarks/hostile.sh costs [FAMILY…] | batch [LINES]" >&2; exit 2 ;;
esac
