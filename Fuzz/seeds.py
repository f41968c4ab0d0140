#!/usr/bin/env python3
"""Seed inputs for the fuzz harnesses, from the repository's corpora and contexts.

    python3 Fuzz/seeds.py OUT    (writes OUT/<harness>/<n>; Fuzz/run.sh calls it)

Text harnesses get a locale byte (the index in FuzzSupport's `fuzzLocales`) before each
utterance; the batch harness gets corpus lines as they are; the file harnesses the
repository's own files of that kind.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOCALES = ["en", "es", "fr", "de", "it", "pt", "ja", "zh"]
PER_LANGUAGE = 40


def write(out: pathlib.Path, harness: str, items: list[bytes]) -> None:
    folder = out / harness
    folder.mkdir(parents=True, exist_ok=True)
    for n, item in enumerate(items):
        (folder / f"seed-{n:04d}").write_bytes(item)


def corpus_lines() -> list[str]:
    """Up to PER_LANGUAGE lines per language from the team and custom corpora, in file order."""
    by_language: dict[str, list[str]] = {}
    for path in sorted((ROOT / "Corpora" / "intents").rglob("*.jsonl")) + sorted((ROOT / "Corpora" / "custom").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            language = json.loads(line).get("locale", "en-US")[:2]
            chosen = by_language.setdefault(language, [])
            if len(chosen) < PER_LANGUAGE:
                chosen.append(line)
    return [line for lines in by_language.values() for line in lines]


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    lines = corpus_lines()
    texts = []
    for line in lines:
        record = json.loads(line)
        language = record.get("locale", "en-US")[:2]
        texts.append(bytes([LOCALES.index(language) if language in LOCALES else 0]) + record["text"].encode())
    texts += [bytes([6]) + "ボボにメッセージを送って".encode(), bytes([7]) + "给波波发消息说三百元".encode()]
    for harness in ["FuzzText", "FuzzParse"]:
        write(out, harness, texts)
    resolve = [json.dumps({"query": q, "type": t, "app": a}).encode()
               for q, t, a in [("Bobo", "contactName", "MonkeyChat"), ("bobo le grand", "contactName", "MonkeyChat"),
                               ("Bananarific", "workoutName", "MonkeyFit"), ("Jungle", "albumName", None)]]
    write(out, "FuzzResolve", [b"\x00" + r for r in resolve] + [b"\x01" + t for t in texts[:80]])
    write(out, "FuzzBatchLine", [line.encode() for line in lines])
    contexts = ROOT / "Corpora" / "contexts"
    write(out, "FuzzContext", [p.read_bytes() for p in sorted(contexts.glob("*.json"))])
    write(out, "FuzzPlist", [p.read_bytes() for p in sorted(contexts.rglob("*.plist"))])
    definition = (contexts / "intentdefinition" / "SoupChef" / "Base.lproj" / "Intents.intentdefinition").read_bytes()
    tables = [p.read_bytes() for p in sorted(contexts.rglob("*.strings"))]
    write(out, "FuzzIntentDefinition", [table + b"\x00" + definition for table in tables] + [b"\x00" + definition])
    journal = "\n".join(json.dumps(event) for event in [
        {"donate": {"id": "d1", "group": "g", "app": "MonkeyChat", "intent": "sendMessage", "parameters": {"recipients": ["Bobo"]}, "date": "2026-11-20T10:00:00Z"}},
        {"donate": {"id": "d2", "app": "MonkeyFit", "intent": "startWorkout", "parameters": {"workoutName": "Bananarific"}, "date": "2026-11-21T07:30:00+01:00"}},
        {"delete": {"ids": ["d1"]}}, {"delete": {"group": "g"}}, {"delete": {"all": True}},
    ])
    write(out, "FuzzDonations", [journal.encode(), journal.replace("\n", "\r\n").encode()])


if __name__ == "__main__":
    main()
