#!/usr/bin/env bash
# The Spark driver's tests: its parts (no Spark needed), then pyspark in local mode on
# 50,000 lines against `parlance batch` and `parlance eval`, a killed process retried, a
# failing partition publishing nothing. Builds the release binary first; the Spark tests
# are skipped, with the reason printed, when Java or pyspark is missing.
#   bash Spark/test.sh [pytest options]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product parlance
export PARLANCE_BIN="${PARLANCE_BIN:-$(swift build -c release --show-bin-path)/parlance}"
if ! python3 -c "import pytest" 2>/dev/null; then
    echo "pytest is not installed: pip install pytest pyspark" >&2
    exit 1
fi
python3 -m pytest -rs Spark/tests "$@"
