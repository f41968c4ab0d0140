"""Snips NLU 0.20.2 on the texts Parlance is timed on: trains one engine per language on the team
corpus, then times engine.parse, one core. Prints one JSON line.

Runs under Benchmarks/.venv38 (Python 3.8: Snips's Rust wheels stop at cp38); side_by_side.py
calls it. By hand:
  .venv38/bin/python snips_side.py --language en --texts .side-by-side/texts-en.txt

Snips's language resources (stems, word clusters, gazetteers, stop and noise word lists) are
downloads that are not on PyPI, so the engine runs without them: the package's own default config
for the language, with every feature that reads a resource switched off, and a short noise list
of our own (filler words, below) for the intent classifier's "none of these" class.
"""
import argparse
import copy
import json
import os
import re
import sys
import time

from snips_nlu import SnipsNLUEngine, __version__ as snips_version
from snips_nlu.constants import GAZETTEERS, METADATA, NOISE, STEMS, STOP_WORDS, WORD_CLUSTERS
from snips_nlu.default_configs import DEFAULT_CONFIGS

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# Our language code -> (team corpus folder, Snips language code).
LANGUAGES = {
    "en": ("en-US", "en"),
    "es": ("es-ES", "es"),
    "fr": ("fr-FR", "fr"),
    "de": ("de-DE", "de"),
    "it": ("it-IT", "it"),
    "pt": ("pt-BR", "pt_br"),
}

# Filler words per language, written for this benchmark: Snips strings these into random
# sequences to train the classifier's "none" class (it takes at most one utterance per word).
NOISE_WORDS = {
    "en": "um uh er hmm well so okay ok yeah yes no right just really actually basically maybe "
          "like kind sort of anyway then now there here this that thing stuff please thanks oh hey",
    "es": "eh em este pues bueno vale sí no entonces vamos mira oye claro o sea tipo como algo "
          "cosa esto eso aquí allí ahora luego quizás bien gracias porfa ya venga",
    "fr": "euh hum ben bah bon alors donc voilà quoi genre enfin bref oui non ouais ok truc "
          "machin chose ça ici là maintenant puis peut-être bien merci tiens hein",
    "de": "äh ähm hm also naja na ja nein gut okay halt eben eigentlich irgendwie quasi so "
          "dings sache das hier da jetzt dann vielleicht bitte danke mal doch genau",
    "it": "ehm eh boh beh allora dunque cioè tipo insomma ecco sì no ok bene cosa roba "
          "questo quello qui lì adesso poi forse grazie dai vabbè mah senti guarda",
    "pt": "é hum ah então tipo assim né bom olha sim não ok beleza coisa negócio isso "
          "aquilo aqui ali agora depois talvez obrigado valeu pois enfim daí",
}


def snips_config(snips_language):
    """The package's default config for the language, with every resource-backed feature off."""
    config = copy.deepcopy(DEFAULT_CONFIGS[snips_language])

    def strip(node):
        if isinstance(node, dict):
            for key in list(node):
                if key == "use_stemming":                      # stems: downloaded resource
                    node[key] = False
                elif key == "common_words_gazetteer_name":     # top-N common words gazetteer
                    node[key] = None
                elif key == "word_clusters_name":              # Brown clusters (tf-idf side)
                    node[key] = None
                elif key in ("ignore_stop_words", "filter_stop_words"):  # stop word list
                    node[key] = False
                else:
                    strip(node[key])
            if "feature_factory_configs" in node:              # Brown clusters (CRF side)
                node["feature_factory_configs"] = [f for f in node["feature_factory_configs"]
                                                   if f["factory_name"] != "word_cluster"]
        elif isinstance(node, list):
            for item in node:
                strip(item)

    strip(config)
    return config


def snips_resources(language, snips_language):
    """The in-memory resources the engine would otherwise load from a download: only noise."""
    return {
        METADATA: {"language": snips_language, "name": "parlance-benchmark", "version": "0",
                   "gazetteers": [], "word_clusters": [], "stems": None, "stop_words": None,
                   "noise": "noise"},
        WORD_CLUSTERS: {},
        GAZETTEERS: {},
        STOP_WORDS: set(),  # empty: only read to lower-case function words when capitalizing
        NOISE: NOISE_WORDS[language].split(),
        STEMS: None,
    }


def spans(text, parameters):
    """(start, end, slot) for each string parameter value found in the text, case-insensitively,
    on word boundaries, longest values first, never overlapping. Others stay unannotated."""
    found = []
    values = [(name, value) for name, value in parameters.items() if isinstance(value, str) and value.strip()]
    for name, value in sorted(values, key=lambda item: -len(item[1])):
        pattern = r"(?<!\w)" + re.escape(value) + r"(?!\w)"
        for match in re.finditer(pattern, text, flags=re.IGNORECASE):
            if all(match.end() <= s or match.start() >= e for s, e, _ in found):
                found.append((match.start(), match.end(), name))
                break
    return sorted(found)


def dataset(language):
    """A Snips dataset from Corpora/intents/<locale>/*.jsonl (ood.jsonl left out). Each slot
    gets an entity of the same name, extensible, whose values are the annotated strings."""
    folder_name, snips_language = LANGUAGES[language]
    folder = os.path.join(ROOT, "Corpora/intents", folder_name)
    intents, entities, lines = {}, {}, 0
    for name in sorted(os.listdir(folder)):
        if name == "ood.jsonl" or not name.endswith(".jsonl"):
            continue
        for line in open(os.path.join(folder, name), encoding="utf-8"):
            if not line.strip():
                continue
            record = json.loads(line)
            text, expected = record["text"], record["expected"]
            chunks, at = [], 0
            for start, end, slot in spans(text, expected.get("parameters") or {}):
                if start > at:
                    chunks.append({"text": text[at:start]})
                chunks.append({"text": text[start:end], "entity": slot, "slot_name": slot})
                entities.setdefault(slot, set()).add(text[start:end])
                at = end
            if at < len(text):
                chunks.append({"text": text[at:]})
            intents.setdefault(expected["intent"], {"utterances": []})["utterances"].append({"data": chunks})
            lines += 1
    return {
        "language": snips_language,
        "intents": intents,
        "entities": {slot: {"data": [{"value": v, "synonyms": []} for v in sorted(values)],
                            "use_synonyms": True, "automatically_extensible": True,
                            "matching_strictness": 1.0}
                     for slot, values in entities.items()},
    }, lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--language", required=True, choices=sorted(LANGUAGES))
    parser.add_argument("--texts", required=True, help="one utterance a line (texts-<lang>.txt)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed passes over the texts")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the texts")
    args = parser.parse_args()
    language = args.language
    snips_language = LANGUAGES[language][1]

    # Training: wall time of fit on all of the language's team lines (not part of the speed figure).
    data, lines = dataset(language)
    engine = SnipsNLUEngine(config=snips_config(snips_language),
                            resources=snips_resources(language, snips_language), random_state=0)
    start = time.perf_counter()
    engine.fit(data)
    train_seconds = time.perf_counter() - start

    texts = [t for t in open(args.texts, encoding="utf-8").read().splitlines() if t.strip()]
    for _ in range(args.warmup):  # warm-up: caches, lazy imports
        for t in texts:
            engine.parse(t)

    # Speed: CPU time of this process (time.process_time) over all timed passes, per utterance.
    start = time.process_time()
    for _ in range(args.repeat):
        for t in texts:
            engine.parse(t)
    cpu = (time.process_time() - start) / (args.repeat * len(texts))

    # How many timed texts the lookup parser (exact match on training sentences) answers alone;
    # the rest go on to the probabilistic parser (logistic regression + CRF). Untimed.
    lookup_hits = sum(1 for t in texts if engine.intent_parsers[0].parse(t)["intent"]["intentName"] is not None)

    print(json.dumps({
        "language": language,
        "snips_nlu": snips_version,
        "sentences": len(texts),
        "per_second": 1.0 / cpu,
        "cpu_ms_per_sentence": cpu * 1000.0,
        "train_seconds": train_seconds,
        "intents": len(data["intents"]),
        "training_lines": lines,
        "lookup_hits": lookup_hits,
    }))


if __name__ == "__main__":
    sys.exit(main())
