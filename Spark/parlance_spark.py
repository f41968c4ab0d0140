#!/usr/bin/env python3
"""Run ``parlance batch`` on Apache Spark.

Reads JSON Lines (plain or gzip, any path or URI the Spark installation reads), ships the
``parlance`` binary, its resource bundles and the context to the executors as one archive,
pipes every partition through ``parlance batch --jobs 1 --no-progress`` with
``RDD.pipe`` and writes JSON Lines: one output record per input line, error records
kept, ids preserved.

A partition is complete only when the process answered every line: the driver appends to
each partition an end line carrying a random nonce and the partition's line count, and
checks that the last output line is that record after exactly that many records. Anything
else (a process killed or failing, whatever its exit status: ``parlance batch`` exits 1
whenever a line had an error record, which is not a failure of the partition) fails the
task, which Spark retries; the output committer publishes only the files of attempts that
succeeded, so the output is never half-written.

With ``--eval DIR``, each record carries its ``outcome`` (``batch --outcomes``: the counts
it adds to its locale's accuracy report, computed by the Swift side); the driver only sums
them, exactly, and ``parlance eval --from-outcomes`` turns the sums into ``report.json``.

    python3 Spark/parlance_spark.py --master 'local[2]' --context Corpora/contexts/monkey.json \\
        --output out/ Corpora/intents/en-US/calling.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tarfile
import tempfile
import uuid
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

# pyspark is imported when a job runs, so the counting helpers below can be used (and
# tested) without Spark.
Counts = dict[str, Any]
"""Outcome counts: nested objects whose leaves are numbers (int, float, or Fraction while summed)."""

END_ID_PREFIX = "parlance-spark-end:"
"""The id of the end line the driver appends to each partition: prefix, nonce, count."""

GZIP_CODEC = "org.apache.hadoop.io.compress.GzipCodec"

# What the piped process runs: the shipped archive, unpacked in the driver's SparkFiles
# directory (local mode: its executors share the driver's) or in the working directory
# (cluster executors, where shipped files land), entered so that the context's relative
# name resolves. "$0" is that SparkFiles directory, "$1" the archive's name.
LAUNCHER = (
    'archive=$1; shift; '
    'for d in "$0/$archive" "./$archive"; do if [ -x "$d/parlance" ]; then cd "$d" && exec ./parlance "$@"; fi; done; '
    'echo "parlance_spark: no $archive/parlance in $0 or $(pwd)" >&2; exit 127'
)

# Environment variables handed to the piped process (RDD.pipe gives it no other).
PASSED_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR")


class PartitionIncomplete(RuntimeError):
    """The piped process did not answer every line of its partition."""


# ---------------------------------------------------------------------------------------
# Exact sums of outcome counts


def add_counts(total: Counts, part: Counts) -> Counts:
    """Adds ``part`` into ``total`` key by key (nested objects recursively) and returns it.

    Leaves are numbers: integers add as integers and floats as exact fractions (a float is
    a dyadic rational), so the sum is the same in any order and any grouping; ``finish``
    rounds it once. A key missing on one side counts as zeros.
    """
    for key, value in part.items():
        if isinstance(value, dict):
            add_counts(total.setdefault(key, {}), value)
        elif isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            raise ValueError(f"outcome count {key!r} is not a number: {value!r}")
        else:
            exact = Fraction(value) if isinstance(value, float) else value
            total[key] = total.get(key, 0) + exact
    return total


def finish(total: Counts) -> Counts:
    """The counts as JSON values: whole sums as integers, others as the nearest float."""
    result: Counts = {}
    for key, value in total.items():
        if isinstance(value, dict):
            result[key] = finish(value)
        elif isinstance(value, Fraction) and value.denominator != 1:
            result[key] = float(value)  # correctly rounded: numerator / denominator
        else:
            result[key] = int(value)
    return result


def sum_outcomes(records: Iterable[Counts]) -> dict[str, Counts]:
    """The ``outcome`` of every record that has one, summed per locale (exact, unrounded)."""
    locales: dict[str, Counts] = {}
    for record in records:
        outcome = record.get("outcome")
        if outcome is not None:
            add_counts(locales.setdefault(outcome["locale"], {}), outcome["counts"])
    return locales


def merge_locales(total: dict[str, Counts], part: dict[str, Counts]) -> dict[str, Counts]:
    """Adds per-locale counts into ``total`` (an accumulator's ``addInPlace``)."""
    for locale, counts in part.items():
        add_counts(total.setdefault(locale, {}), counts)
    return total


def outcome_lines(locales: dict[str, Counts]) -> str:
    """Summed counts as the JSON Lines ``parlance eval --from-outcomes`` reads."""
    return "".join(
        json.dumps({"locale": locale, "counts": finish(locales[locale])}, sort_keys=True) + "\n"
        for locale in sorted(locales)
    )


# ---------------------------------------------------------------------------------------
# Partitions in and out of the piped process


def end_line(nonce: str, count: int) -> str:
    """The end line of a partition of ``count`` lines: a record the batch answers in order."""
    return json.dumps({"id": f"{END_ID_PREFIX}{nonce}:{count}"})


def with_end_line(nonce: str) -> Callable[[Iterator[str]], Iterator[str]]:
    """A partition function that passes the lines on, then their end line."""

    def add_end(lines: Iterator[str]) -> Iterator[str]:
        count = 0
        for line in lines:
            count += 1
            yield line
        yield end_line(nonce, count)

    return add_end


def answered_count(line: Optional[str], nonce: str) -> Optional[int]:
    """The line count an output line closes, if it is the answer to this run's end line."""
    if line is None:
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    ident = record.get("id") if isinstance(record, dict) else None
    prefix = f"{END_ID_PREFIX}{nonce}:"
    if not isinstance(ident, str) or not ident.startswith(prefix):
        return None
    count = ident[len(prefix):]
    return int(count) if count.isdigit() else None


@dataclass
class PartitionTally:
    """What one verified partition adds to the run's totals."""

    records: int = 0
    errors: int = 0
    outcomes: dict[str, Counts] = field(default_factory=dict)


def checked_output(
    nonce: str, measure: bool, report: Callable[[PartitionTally], None]
) -> Callable[[Iterator[str]], Iterator[str]]:
    """A partition function over the piped process's output.

    It passes the records on (holding one back), requires the last line to answer the end
    line after exactly the partition's line count, and drops that answer. When the partition
    is complete, ``report`` gets its tally (records, error records and, with ``measure``,
    the outcomes summed); otherwise it raises ``PartitionIncomplete`` and the task fails.
    """

    def check(lines: Iterator[str]) -> Iterator[str]:
        tally = PartitionTally()
        held: Optional[str] = None
        for line in lines:
            if held is not None:
                tally.records += 1
                # Keys are sorted and a string cannot hold an unescaped quote: only the
                # record's own "error" key can read so.
                if '"error":null' not in held:
                    tally.errors += 1
                if measure:
                    outcome = json.loads(held).get("outcome")
                    if outcome is not None:
                        add_counts(tally.outcomes.setdefault(outcome["locale"], {}), outcome["counts"])
                yield held
            held = line
        answered = answered_count(held, nonce)
        if answered is None:
            last = "no output" if held is None else f"the last output line {held[:120]!r}"
            raise PartitionIncomplete(
                f"parlance batch stopped before the end of its partition after {tally.records} records ({last})"
            )
        if answered != tally.records:
            raise PartitionIncomplete(
                f"parlance batch answered {tally.records} records for {answered} lines"
            )
        report(tally)

    return check


# ---------------------------------------------------------------------------------------
# The job


@dataclass
class Job:
    """One run: what to read, how to parse it, where to write."""

    inputs: list[str]
    output: str
    binary: Path
    context: Optional[Path] = None
    context_folder: Optional[Path] = None
    resolve: bool = True
    locale: Optional[str] = None
    eval_dir: Optional[Path] = None
    thresholds: Optional[Path] = None
    compress: bool = False
    partitions: Optional[int] = None

    def batch_arguments(self) -> list[str]:
        """``parlance batch`` arguments, the context named as shipped."""
        arguments = ["batch", "--jobs", "1", "--no-progress"]
        if self.context is not None:
            arguments += ["--context", self.shipped_context_name()]
        if not self.resolve:
            arguments.append("--no-resolve")
        if self.locale:
            arguments += ["--locale", self.locale]
        if self.eval_dir is not None:
            arguments.append("--outcomes")
        return arguments

    def shipped_context_name(self) -> str:
        """The context's path in the shipped archive."""
        assert self.context is not None
        if self.context_folder is None:
            return f"context/{self.context.name}"
        relative = self.context.resolve().relative_to(self.context_folder.resolve())
        return f"context/{self.context_folder.resolve().name}/{relative.as_posix()}"


@dataclass
class Result:
    """What a finished run wrote and counted."""

    records: int
    errors: int
    outcomes: Optional[dict[str, Counts]]


def resource_bundles(binary: Path) -> list[Path]:
    """The SwiftPM resource bundles next to the binary (grammars, models, language data)."""
    return sorted(p for p in binary.resolve().parent.glob("*.resources") if p.is_dir())


def child_environment() -> dict[str, str]:
    """The environment of the piped process: a few basics and every PARLANCE_ variable."""
    return {
        name: value
        for name, value in os.environ.items()
        if name in PASSED_ENVIRONMENT or name.startswith("PARLANCE_")
    }


def pack(job: Job, folder: Path) -> Path:
    """One archive of what the executors need: the binary as ``parlance``, its resource
    bundles beside it, and the context (file or folder) under ``context/``."""
    archive = folder / f"parlance-{uuid.uuid4().hex[:12]}.tar.gz"
    with tarfile.open(archive, "w:gz", compresslevel=1) as tar:
        tar.add(str(job.binary.resolve()), arcname="parlance")
        for bundle in resource_bundles(job.binary):
            tar.add(str(bundle), arcname=bundle.name)
        if job.context_folder is not None:
            tar.add(str(job.context_folder.resolve()), arcname=f"context/{job.context_folder.resolve().name}")
        elif job.context is not None:
            tar.add(str(job.context.resolve()), arcname=f"context/{job.context.name}")
    return archive


def ship(sc: Any, job: Job, folder: Path) -> str:
    """Ships the archive to the executors (``SparkContext.addArchive``, unpacked there);
    returns the command each partition is piped through."""
    from pyspark import SparkFiles

    archive = pack(job, folder)
    sc.addArchive(str(archive))
    command = ["/bin/sh", "-c", LAUNCHER, SparkFiles.getRootDirectory(), archive.name]
    return shlex.join(command + job.batch_arguments())


def run(spark: Any, job: Job) -> Result:
    """Runs the job on a Spark session; raises when a partition failed for good."""
    sc = spark.sparkContext
    if __name__ != "__main__":
        sc.addPyFile(__file__)  # imported by another driver: the executors need this module too
    with tempfile.TemporaryDirectory(prefix="parlance-spark-") as folder:
        command = ship(sc, job, Path(folder))
        return run_piped(sc, job, command)


def run_piped(sc: Any, job: Job, command: str) -> Result:
    """Pipes the input through ``command`` and writes the output (see the module's notes)."""
    from pyspark.accumulators import AccumulatorParam

    class LocaleCountsParam(AccumulatorParam):  # type: ignore[type-arg]
        """Per-locale outcome counts, summed exactly."""

        def zero(self, value: dict[str, Counts]) -> dict[str, Counts]:
            return {}

        def addInPlace(self, a: dict[str, Counts], b: dict[str, Counts]) -> dict[str, Counts]:
            return merge_locales(a, b)

    nonce = uuid.uuid4().hex
    measure = job.eval_dir is not None
    # Accumulators updated while the result stage writes: Spark applies each partition's
    # update once, from the attempt that succeeded (never from a failed or duplicate one).
    records = sc.accumulator(0)
    errors = sc.accumulator(0)
    outcomes = sc.accumulator({}, LocaleCountsParam())

    def report(tally: PartitionTally) -> None:
        records.add(tally.records)
        errors.add(tally.errors)
        if tally.outcomes:
            outcomes.add(tally.outcomes)

    lines = sc.textFile(",".join(job.inputs), minPartitions=job.partitions)
    if job.partitions and lines.getNumPartitions() < job.partitions:
        lines = lines.repartition(job.partitions)  # gzip files are not splittable
    piped = lines.mapPartitions(with_end_line(nonce)).pipe(command, env=child_environment())
    checked = piped.mapPartitions(checked_output(nonce, measure, report))
    codec = GZIP_CODEC if job.compress else None
    checked.saveAsTextFile(job.output, compressionCodecClass=codec)
    return Result(records=records.value, errors=errors.value, outcomes=outcomes.value if measure else None)


def write_report(job: Job, outcomes: dict[str, Counts]) -> int:
    """Writes the summed outcomes and has ``parlance eval --from-outcomes`` write the report;
    returns its exit status (1 when a gate of ``--thresholds`` failed)."""
    assert job.eval_dir is not None
    job.eval_dir.mkdir(parents=True, exist_ok=True)
    summed = job.eval_dir / "outcomes.jsonl"
    summed.write_text(outcome_lines(outcomes), encoding="utf-8")
    command = [str(job.binary), "eval", "--from-outcomes", str(summed), "--out", str(job.eval_dir)]
    if job.context is not None:
        command += ["--context", str(job.context)]
    if not job.resolve:
        command.append("--no-resolve")
    if job.thresholds is not None:
        command += ["--thresholds", str(job.thresholds)]
    return subprocess.run(command, check=False).returncode


# ---------------------------------------------------------------------------------------
# Command line


def default_binary() -> Path:
    """The release build of this checkout, else ``parlance`` on the PATH."""
    built = Path(__file__).resolve().parent.parent / ".build" / "release" / "parlance"
    if built.exists():
        return built
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(folder) / "parlance"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return built


def parse_arguments(argv: list[str]) -> tuple[argparse.Namespace, Job]:
    """The command line as a job (and the Spark options)."""
    parser = argparse.ArgumentParser(
        prog="parlance_spark.py",
        description="Parse JSON Lines with `parlance batch` on Spark: one output record per input line.",
    )
    parser.add_argument("inputs", nargs="+", help="input files, folders or globs (.jsonl or .jsonl.gz; any URI Spark reads)")
    parser.add_argument("--output", required=True, help="output folder (must not exist): part-* files of JSON Lines")
    parser.add_argument("--parlance", type=Path, default=None, help="the parlance binary (default: .build/release/parlance, else PATH)")
    parser.add_argument("--context", type=Path, help="context file (JSON), shipped to the executors")
    parser.add_argument("--context-folder", type=Path, help="ship this whole folder (holding --context and the files it names)")
    parser.add_argument("--no-resolve", action="store_true", help="parse only (batch --no-resolve)")
    parser.add_argument("--locale", help="locale of records without one (batch --locale)")
    parser.add_argument("--eval", dest="eval_dir", type=Path, help="also write the accuracy report (report.json, .md, .html) here")
    parser.add_argument("--thresholds", type=Path, help="with --eval: floors per locale; exit 1 when one is not met")
    parser.add_argument("--compress", action="store_true", help="write gzip-compressed part files")
    parser.add_argument("--partitions", type=int, help="at least this many partitions (repartitions unsplittable input)")
    parser.add_argument("--master", help="Spark master (default: spark-submit's, else local[*,4]: retried tasks locally)")
    args = parser.parse_args(argv)
    binary = args.parlance or default_binary()
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        parser.error(f"no parlance binary at {binary}: build it (swift build -c release --product parlance) or give --parlance")
    if args.context_folder is not None:
        if args.context is None:
            parser.error("--context-folder ships the folder of --context: give --context too")
        try:
            args.context.resolve().relative_to(args.context_folder.resolve())
        except ValueError:
            parser.error(f"--context {args.context} is not inside --context-folder {args.context_folder}")
    if args.thresholds is not None and args.eval_dir is None:
        parser.error("--thresholds applies to the report: give --eval DIR too")
    job = Job(
        inputs=args.inputs,
        output=args.output,
        binary=binary,
        context=args.context,
        context_folder=args.context_folder,
        resolve=not args.no_resolve,
        locale=args.locale,
        eval_dir=args.eval_dir,
        thresholds=args.thresholds,
        compress=args.compress,
        partitions=args.partitions,
    )
    return args, job


def main(argv: Optional[list[str]] = None) -> int:
    """Runs the command line; returns the exit status."""
    args, job = parse_arguments(sys.argv[1:] if argv is None else argv)
    from pyspark.sql import SparkSession

    from pyspark import SparkConf

    builder = SparkSession.builder.appName("parlance batch")
    if args.master:
        builder = builder.master(args.master)
    elif not SparkConf().contains("spark.master"):
        builder = builder.master("local[*,4]")  # not under spark-submit: locally, with retries
    spark = builder.getOrCreate()
    try:
        result = run(spark, job)
    finally:
        spark.stop()
    print(f"parlance_spark: {result.records} records ({result.errors} error records) written to {job.output}", file=sys.stderr)
    if result.outcomes is None:
        return 0
    return write_report(job, result.outcomes)


if __name__ == "__main__":
    sys.exit(main())
