#!/usr/bin/env python3
"""Hostile input for `parlance batch` (issue 17): families of lines that once cost seconds,
crashed a reader or were held whole, each generated at any size, for two jobs:

  python3 hostile.py families            the family names, one per line
  python3 hostile.py line FAMILY SIZE    one batch input line (JSON) of about SIZE bytes
  python3 hostile.py batch N [PERCENT]   N input lines, PERCENT (default 1) of them hostile,
                                         the others ordinary requests; a hostile line's id
                                         starts with "hostile-" and names its family

Every line is generated here (no corpus is read), so the output is the same on every machine.
The sizes stay under the 64 KiB line limit unless the family is the oversized line itself.
"""
import json
import random
import sys

# Each family: (locale, function of a byte budget → text, or → raw line when the family
# is about the line itself rather than its text).
def repeat(word, budget, sep=" "):
    n = max(1, budget // (len(word.encode()) + len(sep)))
    return sep.join([word] * n)

TEXT_FAMILIES = {
    # spelled-out numbers: one number-word run across the whole line
    "de-number-words": ("de-DE", lambda b: repeat("dreiundzwanzig", b)),
    "de-tausend": ("de-DE", lambda b: repeat("tausend", b)),
    "en-thousand": ("en-US", lambda b: repeat("thousand", b)),
    "en-number-phrase": ("en-US", lambda b: repeat("one hundred and twenty three thousand", b)),
    "es-veinte": ("es-ES", lambda b: repeat("veinte", b)),
    "fr-quatre-vingt": ("fr-FR", lambda b: repeat("quatre-vingt-dix-sept", b)),
    "it-numbers": ("it-IT", lambda b: repeat("duemilaventitre", b)),
    "pt-numbers": ("pt-BR", lambda b: repeat("vinte e três mil", b)),
    "ja-numerals": ("ja-JP", lambda b: "三千五百二十一" * max(1, b // 21)),
    "zh-numerals": ("zh-CN", lambda b: "一万两千三百四十五" * max(1, b // 27)),
    # dates, times, amounts, measures one after another
    "en-dates": ("en-US", lambda b: repeat("tomorrow at 5 pm next Monday", b)),
    "fr-amounts": ("fr-FR", lambda b: repeat("20 € 5 km 30 minutes", b)),
    "en-digits": ("en-US", lambda b: "9" * b),
    # names, apps, capitals: what the matcher and the resolver search
    "en-app-names": ("en-US", lambda b: repeat("MonkeyChat", b)),
    "en-capitals": ("en-US", lambda b: repeat("Bobo Dubois", b)),
    "en-request-repeated": ("en-US", lambda b: repeat("send a message to Bobo saying hi,", b)),
    "en-one-long-word": ("en-US", lambda b: "send a message to " + "b" * max(1, b - 20)),
    # Unicode that is easy to get wrong
    "combining-marks": ("en-US", lambda b: "e" + "\u0301" * max(1, b // 2)),
    "emoji-zwj": ("en-US", lambda b: "👩🏽‍💻" * max(1, b // 15)),
    "bidi-controls": ("en-US", lambda b: "\u202eBobo\u202c " * max(1, b // 12)),
}

# Whole-line families: the JSON itself, or its absence.
def deep_json(b):
    return "[" * 513

def deep_object(b):
    return '{"text": ' + "[" * 600 + "]" * 600 + "}"

def oversized(b):
    return json.dumps({"id": "x", "text": "a" * max(b, 70_000)})

def not_json(b):
    return "{not json" + "}" * 10

def wrong_type(b):
    return json.dumps({"id": "wrong-type", "text": 42})

def bad_utf8_line(b):
    return None  # written as bytes by the caller

LINE_FAMILIES = {
    "json-513-deep": deep_json,
    "json-deep-in-a-field": deep_object,
    "oversized-line": oversized,
    "not-json": not_json,
    "text-not-a-string": wrong_type,
    "invalid-utf8": bad_utf8_line,
    "crlf": lambda b: json.dumps({"text": "call Bobo"}) + "\r",
    "bad-locale": lambda b: json.dumps({"text": "call Bobo", "locale": "xx-!!"}),
}

FAMILIES = list(TEXT_FAMILIES) + list(LINE_FAMILIES)


def line(family, size, ident):
    """One input line as bytes (no newline)."""
    if family in TEXT_FAMILIES:
        locale, make = TEXT_FAMILIES[family]
        return json.dumps({"id": ident, "text": make(size), "locale": locale}, ensure_ascii=False).encode()
    made = LINE_FAMILIES[family](size)
    if made is None:
        return b'{"id": "' + ident.encode() + b'", "text": "call \xff\xfe Bobo"}'
    return made.encode()


ORDINARY = [
    ("en-US", "send a message to Bobo saying I'm on my way"),
    ("en-US", "MonkeyChat Bobo send more bananas"),
    ("fr-FR", "Envoyer un message à Bobo sur MonkeyChat"),
    ("es-ES", "manda un mensaje a Bobo en MonkeyChat que diga más plátanos"),
    ("de-DE", "schick Bobo eine Nachricht mit MonkeyChat"),
    ("it-IT", "manda un messaggio a Bobo su MonkeyChat"),
    ("pt-BR", "manda uma mensagem para o Bobo no MonkeyChat"),
    ("en-US", "start a 30 minute run with MonkeyFit"),
    ("en-US", "what's the weather like on Mars"),
]


def batch(n, percent):
    rng = random.Random(2026_11_25)
    out = sys.stdout.buffer
    every = max(1, round(100 / percent)) if percent > 0 else 0
    for i in range(n):
        if every and i % every == every // 2:
            family = FAMILIES[(i // every) % len(FAMILIES)]
            size = rng.choice([1_000, 8_000, 60_000])
            out.write(line(family, size, f"hostile-{family}-{i}"))
        else:
            locale, text = ORDINARY[i % len(ORDINARY)]
            out.write(json.dumps({"id": f"line-{i}", "text": text, "locale": locale}, ensure_ascii=False).encode())
        out.write(b"\n")


def main(argv):
    if len(argv) >= 1 and argv[0] == "families":
        print("\n".join(FAMILIES))
    elif len(argv) == 3 and argv[0] == "line":
        if argv[1] not in FAMILIES:
            sys.exit(f"hostile.py: unknown family {argv[1]!r} (see: hostile.py families)")
        sys.stdout.buffer.write(line(argv[1], int(argv[2]), argv[1]) + b"\n")
    elif len(argv) in (2, 3) and argv[0] == "batch":
        batch(int(argv[1]), float(argv[2]) if len(argv) == 3 else 1.0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
