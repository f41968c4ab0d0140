"""The driver's parts that need no Spark: exact sums, end lines, partition checks, arguments."""

from __future__ import annotations

import json
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import parlance_spark as ps  # noqa: E402


def test_float_counts_are_summed_exactly_and_rounded_once() -> None:
    total: ps.Counts = {}
    for _ in range(10):
        ps.add_counts(total, {"calibration": {"9": {"confidenceSum": 0.1, "count": 1}}})
    assert sum([0.1] * 10) != 1.0  # ten roundings
    assert ps.finish(total) == {"calibration": {"9": {"confidenceSum": 1.0, "count": 10}}}


def test_sums_do_not_depend_on_order_or_grouping() -> None:
    rng = random.Random(18)
    values = [rng.randint(0, 1000) / 1000 if i % 2 else 2 * (i % 7) / (i % 13 + 7) for i in range(4000)]
    expected = math.fsum(values)  # correctly rounded, as finish is
    for _ in range(5):
        rng.shuffle(values)
        parts: list[ps.Counts] = [{}, {}, {}]
        for i, value in enumerate(values):
            ps.add_counts(parts[i % 3], {"perParameter": {"content": {"correct": value}}})
        total = ps.add_counts(ps.add_counts(parts[2], parts[0]), parts[1])
        assert ps.finish(total)["perParameter"]["content"]["correct"] == expected


def test_whole_sums_stay_integers_and_missing_keys_count_as_zero() -> None:
    total = ps.add_counts({}, {"records": 1, "perIntent": {"startCall": {"correct": 1, "expected": 1, "predicted": 1}}})
    ps.add_counts(total, {"records": 2, "resolution": {"byKind": {}, "confusion": {}}, "perIntent": {"startCall": {"correct": 0.5}}})
    ps.add_counts(total, {"perIntent": {"startCall": {"correct": 0.5}}})
    finished = ps.finish(total)
    assert finished == {
        "records": 3,
        "perIntent": {"startCall": {"correct": 2, "expected": 1, "predicted": 1}},
        "resolution": {"byKind": {}, "confusion": {}},
    }
    assert isinstance(finished["perIntent"]["startCall"]["correct"], int)


def test_a_leaf_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(ValueError, match="what"):
        ps.add_counts({}, {"what": ["intent"]})
    with pytest.raises(ValueError):
        ps.add_counts({}, {"records": True})


def test_outcome_lines_are_what_eval_from_outcomes_reads() -> None:
    records = [
        {"id": "1", "outcome": {"locale": "fr-FR", "counts": {"records": 1}}},
        {"id": "2"},
        {"id": "3", "outcome": {"locale": "en-US", "counts": {"records": 1, "perParameter": {"content": {"correct": 0.25}}}}},
        {"id": "4", "outcome": {"locale": "en-US", "counts": {"records": 1}}},
    ]
    lines = ps.outcome_lines(ps.sum_outcomes(records)).splitlines()
    assert [json.loads(line) for line in lines] == [
        {"locale": "en-US", "counts": {"records": 2, "perParameter": {"content": {"correct": 0.25}}}},
        {"locale": "fr-FR", "counts": {"records": 1}},
    ]


def answer(nonce: str, count: int) -> str:
    """The batch's answer to an end line (a record with no text)."""
    return json.dumps({"alternatives": [], "error": {"code": "missing_text", "message": "…"},
                       "id": json.loads(ps.end_line(nonce, count))["id"], "intent": None})


def test_a_complete_partition_passes_and_drops_the_end_answer() -> None:
    records = ['{"error":null,"id":"a"}', '{"error":{"code":"bad_json"},"id":null}']
    tallies: list[ps.PartitionTally] = []
    out = list(ps.checked_output("n1", False, tallies.append)(iter(records + [answer("n1", 2)])))
    assert out == records
    assert [(t.records, t.errors) for t in tallies] == [(2, 1)]
    assert list(ps.with_end_line("n1")(iter(["x", "y"]))) == ["x", "y", ps.end_line("n1", 2)]
    # An empty partition is its end line alone.
    assert list(ps.checked_output("n1", False, tallies.append)(iter([answer("n1", 0)]))) == []


@pytest.mark.parametrize(
    "lines, message",
    [
        (['{"error":null,"id":"a"}'], "stopped before the end"),  # killed: no end answer
        ([], "no output"),  # failed at start
        (['{"error":null,"id":"a"}', '{"error":null,"id":"b"'], "stopped before the end"),  # half a line
        (['{"error":null,"id":"a"}', answer("n1", 2)], "1 records for 2 lines"),  # a line lost
        (['{"error":null,"id":"a"}', answer("other", 1)], "stopped before the end"),  # another run's end
    ],
)
def test_an_incomplete_partition_fails_and_reports_nothing(lines: list[str], message: str) -> None:
    tallies: list[ps.PartitionTally] = []
    with pytest.raises(ps.PartitionIncomplete, match=message):
        list(ps.checked_output("n1", False, tallies.append)(iter(lines)))
    assert tallies == []


def test_measured_partitions_sum_their_outcomes() -> None:
    records = [
        json.dumps({"error": None, "id": "a", "outcome": {"locale": "en-US", "counts": {"records": 1, "calibration": {"9": {"confidenceSum": 0.93}}}}}),
        json.dumps({"error": None, "id": "b"}),
        json.dumps({"error": None, "id": "c", "outcome": {"locale": "en-US", "counts": {"records": 1, "calibration": {"9": {"confidenceSum": 0.97}}}}}),
    ]
    tallies: list[ps.PartitionTally] = []
    list(ps.checked_output("n", True, tallies.append)(iter(records + [answer("n", 3)])))
    assert tallies[0].outcomes == {"en-US": {"records": 2, "calibration": {"9": {"confidenceSum": Fraction(0.93) + Fraction(0.97)}}}}


def test_batch_arguments_name_the_shipped_context(tmp_path: Path) -> None:
    folder = tmp_path / "contexts"
    (folder / "sub").mkdir(parents=True)
    job = ps.Job(inputs=["in.jsonl"], output="out", binary=Path("parlance"), context=folder / "sub" / "c.json",
                 context_folder=folder, resolve=False, locale="fr-FR", eval_dir=tmp_path / "report")
    assert job.batch_arguments() == ["batch", "--jobs", "1", "--no-progress", "--context", "context/contexts/sub/c.json",
                                     "--no-resolve", "--locale", "fr-FR", "--outcomes"]
    assert ps.Job(inputs=[], output="o", binary=Path("p"), context=Path("a/b.json")).batch_arguments()[-2:] == ["--context", "context/b.json"]
