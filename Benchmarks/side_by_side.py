"""Parlance against rapidfuzz and hassil, same inputs, same run; prints each pair's ratio.

Run through side-by-side.sh (it makes the virtual environment and builds the Swift side).
"""
import argparse
import json
import os
import platform
import plistlib
import statistics
import subprocess
import sys
import time

from rapidfuzz import fuzz, process

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SHARED = os.path.abspath(os.path.join(ROOT, "..", "shared"))


def run_json(args):
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def names(bin_dir, work, sizes, query_count):
    print("## Name matching: top 10 of a vocabulary, one core\n")
    print("| items | queries | Parlance mean (µs) | p99 (µs) | rapidfuzz WRatio mean (µs) | WRatio time ÷ Parlance time | rapidfuzz fuzz.ratio mean (µs) | fuzz.ratio time ÷ Parlance time |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        count = query_count if size <= 10_000 else max(50, query_count // 10)
        ours = run_json([os.path.join(bin_dir, "SideBySide"), "names", "--size", str(size), "--queries", str(count), "--dump", work])
        with open(os.path.join(work, f"names-{size}.tsv"), encoding="utf-8") as f:
            vocabulary = [line.rstrip("\n").split("\t", 1)[1] for line in f if line.strip()]
        with open(os.path.join(work, f"queries-{size}.txt"), encoding="utf-8") as f:
            queries = [line.rstrip("\n") for line in f if line.strip()]
        row = [f"{size:,}", f"{len(queries):,}", f"{ours['mean_us']:.0f}", f"{ours['p99_us']:.0f}"]
        for scorer in (None, fuzz.ratio):
            start = time.perf_counter()
            for q in queries:
                if scorer is None:
                    process.extract(q, vocabulary, limit=10)  # defaults: WRatio, no processor
                else:
                    process.extract(q, vocabulary, scorer=scorer, limit=10)
            mean = (time.perf_counter() - start) / len(queries) * 1e6
            row += [f"{mean:.0f}", f"{mean / ours['mean_us']:.1f}"]
        print("| " + " | ".join(row) + " |")
    print()


def vocabulary_of(context, app, vtype, language):
    """The (id, phrase) items an app has for a type: user vocabulary, inline, plist."""
    items = []
    for a in context["apps"]:
        if a["name"] != app:
            continue
        for item in a.get("userVocabulary", {}).get(vtype, []) + a.get("appVocabularyItems", {}).get(vtype, []):
            items.append((item, item) if isinstance(item, str) else (item["id"], item["phrase"]))
        path = a.get("appVocabulary", {}).get(language)
        if path:
            with open(os.path.join(ROOT, "Corpora/contexts", path), "rb") as f:
                plist = plistlib.load(f)
            for v in plist.get("ParameterVocabularies", []):
                for entry in v["ParameterVocabulary"]:
                    for synonym in entry["VocabularyItemSynonyms"]:
                        items.append((entry["VocabularyItemIdentifier"], synonym["VocabularyItemPhrase"]))
    return items


def resolution_accuracy(bin_dir):
    """Top-10 accuracy on the team's resolution corpus: the expected item among the first ten."""
    context = json.load(open(os.path.join(ROOT, "Corpora/contexts/resolution.json"), encoding="utf-8"))
    catalogue = json.load(open(os.path.join(ROOT, "Sources/ParlanceContext/Data/intents.json"), encoding="utf-8"))
    types = {(i["name"], p["name"]): p.get("vocabulary") for i in catalogue["intents"] for p in i["parameters"]}
    cases = []
    folder = os.path.join(ROOT, "Corpora/resolution")
    for locale in sorted(os.listdir(folder)):
        for name in sorted(os.listdir(os.path.join(folder, locale))):
            for line in open(os.path.join(folder, locale, name), encoding="utf-8"):
                record = json.loads(line)
                expected = record["expected"]
                for parameter, resolution in expected.get("resolution", {}).items():
                    resolutions = resolution if isinstance(resolution, list) else [resolution]
                    said = expected["parameters"].get(parameter)
                    said = said if isinstance(said, list) else [said]
                    vtype = types.get((expected["intent"], parameter))
                    for n, r in enumerate(resolutions):
                        if r["kind"] in ("success", "confirmationRequired") and vtype and n < len(said) and isinstance(said[n], str):
                            cases.append({"id": f"{record['id']}:{parameter}:{n}", "locale": record["locale"], "app": expected["app"],
                                          "type": vtype, "query": said[n], "expected": r["items"][0]})
    requests = "\n".join(json.dumps({k: c[k] for k in ("id", "locale", "app", "type", "query")}, ensure_ascii=False) for c in cases) + "\n"
    out = subprocess.run([os.path.join(bin_dir, "parlance"), "resolve", "--explain", "--context", os.path.join(ROOT, "Corpora/contexts/resolution.json")],
                         input=requests, capture_output=True, text=True, check=False).stdout
    ours = {}
    for line in out.splitlines():
        record = json.loads(line)
        ours[record["id"]] = [c["id"] for c in (record.get("candidates") or [])[:10]]
    hits_ours = hits_rf = 0
    for c in cases:
        items = vocabulary_of(context, c["app"], c["type"], c["locale"].split("-")[0])
        phrases = [p for _, p in items]
        top = process.extract(c["query"], phrases, limit=10)
        if c["expected"] in [items[index][0] for _, _, index in top]:
            hits_rf += 1
        if c["expected"] in ours.get(c["id"], []):
            hits_ours += 1
    print("## Top-10 accuracy on Corpora/resolution (the expected item among the first ten)\n")
    print("| cases | Parlance | rapidfuzz (WRatio, default processor) |")
    print("|---:|---:|---:|")
    print(f"| {len(cases)} | {hits_ours / len(cases):.3f} | {hits_rf / len(cases):.3f} |\n")


# Our language code -> (team corpus folder, hassil / home-assistant-intents language). Portuguese
# is Brazilian on every side: the team corpus, hassil's templates and test sentences, Snips's pt_br.
LOCALES = {"en": ("en-US", "en"), "es": ("es-ES", "es"), "fr": ("fr-FR", "fr"), "de": ("de-DE", "de"),
           "it": ("it-IT", "it"), "pt": ("pt-BR", "pt-BR")}
SNIPS_PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".venv38", "bin", "python")


def hassil_rate(language, sentences):
    """hassil sentences/s (wall clock) on the Home Assistant test sentences, or None when
    home-assistant-intents has no templates for the language."""
    from hassil import Intents, recognize
    from hassil.errors import MissingListError
    from hassil.intents import TextSlotList
    import home_assistant_intents

    templates = home_assistant_intents.get_intents(LOCALES[language][1])
    if templates is None or not sentences:
        return None
    hassil_intents = Intents.from_dict(templates)
    generic = {"name": ["kitchen light", "living room lamp", "front door", "garage door", "thermostat", "TV"],
               "area": ["kitchen", "living room", "bedroom", "garage"], "floor": ["first floor", "upstairs", "ground floor"]}
    lists = {}
    for s in sentences:  # find the lists the templates need (warm-up, untimed)
        while True:
            try:
                recognize(s, hassil_intents, slot_lists=lists)
                break
            except MissingListError as e:
                list_name = str(e).split("{")[-1].rstrip("}")
                lists[list_name] = TextSlotList.from_strings(generic.get(list_name, [f"{list_name} one", f"{list_name} two"]))
    start = time.perf_counter()
    for s in sentences:
        recognize(s, hassil_intents, slot_lists=lists)
    return len(sentences) / (time.perf_counter() - start)


def snips(language, path):
    """Snips NLU (in its own Python 3.8 virtualenv) trained on the team corpus, timed on the
    texts Parlance parses (CPU time per utterance); None, with the reason on stderr, if it fails."""
    try:
        return run_json([SNIPS_PYTHON, os.path.join(os.path.dirname(os.path.abspath(__file__)), "snips_side.py"),
                         "--language", language, "--texts", path])
    except subprocess.CalledProcessError as e:
        print(f"snips_side.py failed for {language}:\n{e.stderr[-2000:]}", file=sys.stderr)
        return None


def intents(bin_dir, work, languages):
    print("## Intent parsing: sentences per second, one core\n")
    print("Parlance parses the team corpus (templates, fallback, resolution); hassil recognizes the Home")
    print("Assistant test sentences against all home-assistant-intents templates, with small entity,")
    print("area and floor lists. Each on utterances of similar length.\n")
    print("| language | hassil sentences | mean chars | hassil sent/s | Parlance sentences | mean chars | Parlance sent/s | Parlance ÷ hassil |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ha = [json.loads(l) for l in open(os.path.join(SHARED, "corpora/homeassistant/dev.jsonl"), encoding="utf-8")]
    with_snips = os.path.exists(SNIPS_PYTHON)
    snips_rows = []
    for language in languages:
        folder, ha_language = LOCALES[language]
        # Home Assistant sentences of the language ("pt-BR" only, not "pt-PT", for a regional code).
        sentences = [r["text"] for r in ha if r.get("locale", "") == ha_language
                     or ("-" not in ha_language and r.get("locale", "").split("-")[0] == language)]
        rate = hassil_rate(language, sentences)
        # Parlance: team corpus texts no longer than hassil's longest sentence (all if no hassil).
        longest = max((len(s) for s in sentences), default=None) if rate else None
        ours_texts = []
        for name in sorted(os.listdir(os.path.join(ROOT, "Corpora/intents", folder))):
            if name == "ood.jsonl":
                continue
            for line in open(os.path.join(ROOT, "Corpora/intents", folder, name), encoding="utf-8"):
                text = json.loads(line)["text"]
                if longest is None or len(text) <= longest:
                    ours_texts.append(text)
        path = os.path.join(work, f"texts-{language}.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(ours_texts) + "\n")
        ours = run_json([os.path.join(bin_dir, "SideBySide"), "parse", "--locale", folder, "--texts", path])
        if rate:
            hassil_cells = f"{len(sentences)} | {statistics.mean(len(s) for s in sentences):.0f} | {rate:.0f}"
            ratio = f"{ours['per_second'] / rate:.1f}"
        else:
            hassil_cells, ratio = "– | – | –", "–"
        print(f"| {language} | {hassil_cells} | {len(ours_texts)} | {ours['mean_chars']:.0f} | {ours['per_second']:.0f} | {ratio} |")
        if with_snips:
            snips_rows.append((language, snips(language, path), ours))
    print()

    # Snips NLU on exactly the texts Parlance was timed on above (texts-<lang>.txt).
    versions = sorted({theirs["snips_nlu"] for _, theirs, _ in snips_rows if theirs})
    print(f"## Intent parsing: Snips NLU{''.join(' ' + v for v in versions)} on the same texts, one core\n")
    if not with_snips:
        print(f"Skipped: {os.path.relpath(SNIPS_PYTHON, ROOT)} not found (side-by-side.sh makes it).\n")
        return
    print("Snips is trained on every team-corpus line of the language (the timed texts included), with")
    print("its downloadable language resources off (no stems, word clusters, gazetteers or stop words)")
    print("and a short filler-word noise list. Snips: CPU time of engine.parse after a warm-up; Parlance:")
    print("wall-clock figure of the table above.")
    print("Lookup hits: timed texts the lookup parser answers alone (exact match on training data).\n")
    print("| language | sentences | Snips sent/s | Snips CPU ms/sentence | lookup hits | Snips training (s) | Parlance sent/s | Parlance ÷ Snips |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for language, theirs, ours in snips_rows:
        if theirs is None:
            print(f"| {language} | – | – | – | – | – | {ours['per_second']:.0f} | – |")
            continue
        print(f"| {language} | {theirs['sentences']} | {theirs['per_second']:.0f} | {theirs['cpu_ms_per_sentence']:.2f} | "
              f"{theirs['lookup_hits']} | {theirs['train_seconds']:.0f} | {ours['per_second']:.0f} | "
              f"{ours['per_second'] / theirs['per_second']:.1f} |")
    print()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--languages", default="en,es,fr,de,it,pt")
    args = parser.parse_args()
    import rapidfuzz, hassil  # noqa: F401
    from importlib.metadata import version
    print(f"# Side by side — {time.strftime('%Y-%m-%d')}, {platform.machine()} {platform.system()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, rapidfuzz {version('rapidfuzz')}, hassil {version('hassil')}, "
          f"home-assistant-intents {version('home-assistant-intents')}\n")
    names(args.bin, args.work, [int(s) for s in args.sizes.split(",")], args.queries)
    resolution_accuracy(args.bin)
    intents(args.bin, args.work, args.languages.split(","))


if __name__ == "__main__":
    sys.exit(main())
