"""Turns ordo-one/benchmark's Markdown output into utterances per second (p50 wall clock).

Each benchmark's name ends with "(N utterances…)"; one iteration processes all N.
"""
import re
import sys

UNITS = {"s": 1.0, "ms": 1e-3, "μs": 1e-6, "us": 1e-6, "ns": 1e-9}
name = None
rows = []
for line in sys.stdin:
    line = line.strip()
    heading = re.match(r"^#+\s+(.*\(\d+ utterances.*\))$", line)
    if heading:
        name = heading.group(1)
        continue
    time = re.match(r"^\|\s*Time \(wall clock\) \((\w+)\)\s*\*?\s*\|(.*)$", line)
    if time and name:
        cells = [c.strip() for c in time.group(2).split("|") if c.strip()]
        p50 = float(cells[2]) * UNITS[time.group(1)]
        count = int(re.search(r"\((\d+) utterances", name).group(1))
        rows.append((name, count / p50, p50))
        name = None
print("| benchmark | utterances/s (p50) | p50 per corpus pass |")
print("|---|---:|---:|")
for benchmark, rate, p50 in rows:
    print(f"| {benchmark} | {rate:,.0f} | {p50 * 1000:.1f} ms |")
