"""The Spark driver end to end, with pyspark in local mode.

- 50,000 lines (the annotated corpora repeated with distinct ids, and broken lines: bad
  JSON, no text, a line over 64 KiB, a bad locale, a field of the wrong type, a blank line,
  no ``expected``, a bad reference time, a language without a grammar), half plain and half
  gzip: the Spark output equals ``parlance batch``'s, line for line as a multiset and once
  per id, and the ``--eval`` report equals ``parlance eval``'s on the annotated lines;
- a process killed in the middle of its partition (a stand-in binary that kills its first
  run) is retried: the output and the summed outcomes are those of a clean run, nothing
  lost, nothing twice;
- a partition that always fails fails the job and publishes no output.

Skipped, with the reason, when Java, pyspark or the release build is missing.
"""

from __future__ import annotations

import collections
import gzip
import json
import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Spark"))

import parlance_spark as ps  # noqa: E402

if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Java is not installed (Spark needs Java 17 or later: apt-get install openjdk-17-jre-headless)", allow_module_level=True)
try:
    import pyspark  # noqa: F401
except ImportError:
    pytest.skip("pyspark is not installed (pip install pyspark)", allow_module_level=True)

BINARY = Path(os.environ.get("PARLANCE_BIN", ROOT / ".build" / "release" / "parlance"))
if not BINARY.is_file():
    pytest.skip(f"no parlance binary at {BINARY} (swift build -c release --product parlance, or set PARLANCE_BIN)", allow_module_level=True)

CONTEXT_FOLDER = ROOT / "Corpora" / "contexts"
CONTEXT = CONTEXT_FOLDER / "resolution.json"  # names plist files: the folder is shipped
CORPORA = ["intents", "blind", "resolution", "custom"]
LINES = 50_000
TIME = "2026-11-21T10:00:00+01:00"
OUT_OF_DOMAIN = {"domain": None, "intent": None, "app": None, "parameters": {}}


@dataclass
class Corpus:
    """The test input: two files (plain, gzip) and the lines eval can read."""

    plain: Path
    gzipped: Path
    annotated: Path
    lines: list[str]


def broken_lines(k: int) -> Iterator[str]:
    """One of each kind of line the batch refuses or eval leaves out, with ids ending in k."""
    yield json.dumps({"id": f"json-{k}", "text": "Call Bobo"})[:-3]  # bad JSON
    yield json.dumps({"id": f"notext-{k}", "locale": "en-US", "expected": OUT_OF_DOMAIN})
    yield json.dumps({"id": f"long-{k}", "locale": "en-US", "text": "banana " * 10_000, "expected": OUT_OF_DOMAIN})
    yield json.dumps({"id": f"locale-{k}", "locale": "zz-!!", "text": "Call Bobo", "expected": OUT_OF_DOMAIN})
    yield json.dumps({"id": f"field-{k}", "text": 42})
    yield ""
    yield json.dumps({"id": f"plain-{k}", "locale": "es-ES", "text": "Llama a Bobo", "reference_time": TIME})


def measured_odd_lines(k: int) -> Iterator[str]:
    """Lines eval reads that are not plain parses: a bad reference time (a failure) and a
    language with no grammar (left out by both)."""
    expected = {"domain": "calling", "intent": "startCall", "app": None, "parameters": {"contacts": ["Bobo"]}}
    yield json.dumps({"id": f"time-{k}", "locale": "en-US", "text": "Call Bobo", "reference_time": "someday", "expected": expected})
    yield json.dumps({"id": f"ja-{k}", "locale": "ja-JP", "text": "ボボに電話して", "reference_time": TIME, "expected": OUT_OF_DOMAIN})


def build_corpus(folder: Path, total: int) -> Corpus:
    """``total`` lines: broken and odd lines every 500, the annotated corpora around them."""
    annotated = []
    for name in CORPORA:
        for path in sorted((ROOT / "Corpora" / name).rglob("*.jsonl")):
            annotated += [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    entries: list[tuple[str, bool]] = []  # (line, whether eval reads it)
    n = 0
    while len(entries) < total:
        if len(entries) % 500 == 0:
            entries += [(line, False) for line in broken_lines(len(entries))]
            entries += [(line, True) for line in measured_odd_lines(len(entries))]
            continue
        record = json.loads(annotated[n % len(annotated)])
        record["id"] = f"{record['id']}~{n // len(annotated)}"
        entries.append((json.dumps(record, ensure_ascii=False), True))
        n += 1
    entries = entries[:total]
    lines = [line for line, _ in entries]
    readable = [line for line, read in entries if read]
    half = len(lines) // 2
    plain, gzipped, kept = folder / "part-a.jsonl", folder / "part-b.jsonl.gz", folder / "annotated.jsonl"
    plain.write_text("\n".join(lines[:half]) + "\n", encoding="utf-8")
    with gzip.open(gzipped, "wt", encoding="utf-8") as out:
        out.write("\n".join(lines[half:]) + "\n")
    kept.write_text("\n".join(readable) + "\n", encoding="utf-8")
    return Corpus(plain=plain, gzipped=gzipped, annotated=kept, lines=lines)


def plain_batch(*inputs: Path, binary: Path = BINARY) -> list[str]:
    """``parlance batch --jobs 2 --outcomes`` on each input, outputs concatenated."""
    out: list[str] = []
    for path in inputs:
        done = subprocess.run(
            [str(binary), "batch", "--jobs", "2", "--no-progress", "--outcomes", "--context", str(CONTEXT), str(path)],
            capture_output=True, text=True, check=False,
        )
        assert done.returncode in (0, 1), done.stderr  # 1: some lines are error records
        out += done.stdout.splitlines()
    return out


def spark_output(folder: Path) -> list[str]:
    """Every line of a Spark output folder's part files (gzip or not)."""
    lines: list[str] = []
    for part in sorted(folder.glob("part-*")):
        opener = gzip.open if part.suffix == ".gz" else open
        with opener(part, "rt", encoding="utf-8") as f:  # type: ignore[operator]
            lines += f.read().splitlines()
    return lines


def assert_same_records(spark: list[str], plain: list[str], inputs: list[str]) -> None:
    """Same records (as a multiset of lines), one per input line, and the id of every input
    line the batch reads (any but bad JSON and lines over 64 KiB) once."""
    assert len(spark) == len(inputs) == len(plain)
    assert collections.Counter(spark) == collections.Counter(plain)
    ids = collections.Counter(json.loads(line).get("id") for line in spark)
    for line in inputs:
        try:
            ident = json.loads(line).get("id")
        except ValueError:
            continue
        if ident is not None and len(line.encode()) <= 65_536:
            assert ids[str(ident)] == 1, ident


def report_locales(path: Path) -> dict:
    """report.json's locales, less the sample errors the summed report does not have."""
    locales = json.loads(path.read_text(encoding="utf-8"))["locales"]
    for report in locales.values():
        report.pop("errors", None)
    return locales


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return build_corpus(tmp_path_factory.mktemp("corpus"), LINES)


def test_spark_output_and_report_equal_batch_and_eval(corpus: Corpus, tmp_path: Path) -> None:
    out, report = tmp_path / "out", tmp_path / "report"
    run = subprocess.run(
        [sys.executable, str(ROOT / "Spark" / "parlance_spark.py"), "--master", "local[2]", "--parlance", str(BINARY),
         "--context", str(CONTEXT), "--context-folder", str(CONTEXT_FOLDER), "--eval", str(report), "--compress",
         "--output", str(out), str(corpus.plain), str(corpus.gzipped)],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert (out / "_SUCCESS").exists()
    assert_same_records(spark_output(out), plain_batch(corpus.plain, corpus.gzipped), corpus.lines)

    evaluated = subprocess.run(
        [str(BINARY), "eval", "--context", str(CONTEXT), "--out", str(tmp_path / "eval"), str(corpus.annotated)],
        capture_output=True, text=True, check=False,
    )
    assert evaluated.returncode == 0, evaluated.stderr
    spark_locales, eval_locales = report_locales(report / "report.json"), report_locales(tmp_path / "eval" / "report.json")
    assert spark_locales == eval_locales
    # What the comparison covers: six locales, failures, resolutions, fractional sums.
    assert {"de-DE", "en-US", "es-ES", "fr-FR", "it-IT", "pt-BR"} <= set(eval_locales)
    assert eval_locales["en-US"]["failures"] > 0 and eval_locales["en-US"]["resolution"]["byKind"]
    assert any(not float(s["correct"]).is_integer() for s in eval_locales["en-US"]["perParameter"].values())


@pytest.fixture(scope="module")
def spark() -> Iterator[object]:
    """A local session that retries a failed task (local[2,4]: up to 4 attempts)."""
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2,4]").appName("parlance spark tests")
               .config("spark.ui.enabled", "false").getOrCreate())
    yield session
    session.stop()


@pytest.fixture()
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stand-in binary, named parlance, running the real one."""
    folder = tmp_path / "bin"
    folder.mkdir()
    binary = folder / "parlance"
    shutil.copy(Path(__file__).with_name("fake_parlance.py"), binary)
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PARLANCE_SPARK_TEST_REAL", str(BINARY.resolve()))
    return binary


def test_a_killed_process_is_retried_without_loss_or_duplicates(
    spark: object, stand_in: Path, corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = corpus.lines[:4000]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    mark = tmp_path / "killed"
    monkeypatch.setenv("PARLANCE_SPARK_TEST_MODE", "kill-once")
    monkeypatch.setenv("PARLANCE_SPARK_TEST_MARK", str(mark))
    monkeypatch.setenv("PARLANCE_SPARK_TEST_AFTER", "200")
    job = ps.Job(inputs=[str(source)], output=str(tmp_path / "out"), binary=stand_in, context=CONTEXT,
                 context_folder=CONTEXT_FOLDER, eval_dir=tmp_path / "report", partitions=4)
    result = ps.run(spark, job)
    assert mark.is_dir()  # one process was killed after 200 records
    monkeypatch.delenv("PARLANCE_SPARK_TEST_MODE")
    plain = plain_batch(source)
    assert_same_records(spark_output(tmp_path / "out"), plain, lines)
    assert result.records == len(lines)
    assert result.errors == sum('"error":null' not in line for line in plain)
    # The killed attempt's outcomes were not counted: the sums are a clean run's.
    assert result.outcomes is not None
    assert ps.outcome_lines(result.outcomes) == ps.outcome_lines(ps.sum_outcomes(json.loads(line) for line in plain))


def test_a_partition_that_always_fails_publishes_nothing(
    spark: object, stand_in: Path, corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(corpus.lines[:50]) + "\n", encoding="utf-8")
    monkeypatch.setenv("PARLANCE_SPARK_TEST_MODE", "fail")
    out = tmp_path / "out"
    job = ps.Job(inputs=[str(source)], output=str(out), binary=stand_in, context=CONTEXT, context_folder=CONTEXT_FOLDER)
    with pytest.raises(Exception, match="stopped before the end of its partition"):
        ps.run(spark, job)
    assert not (out / "_SUCCESS").exists()
    assert list(out.glob("part-*")) == []
