#!/usr/bin/env python3
"""Checks the format of a blind corpus folder (Corpora/blind/<locale>/*.jsonl) against the
catalogue, the annotation guide and Corpora/contexts/blind.json. Format only: it never runs
the parser, so a writer learns nothing about what Parlance understands.
    python3 Corpora/blind/validate.py Corpora/blind/en-US [--min-lines 400]
"""
import json, os, sys, collections

INTENTS = {
    "sendMessage": ("messaging", {"recipients": "list", "content": "str", "groupName": "str"}),
    "searchForMessages": ("messaging", {"senders": "list", "recipients": "list", "searchTerms": "list",
                                        "dateTimeRange": "range", "attributes": "enumlist:read,unread,flagged,unflagged"}),
    "setMessageAttribute": ("messaging", {"attribute": "enum:read,unread,flagged,unflagged"}),
    "startCall": ("calling", {"contacts": "list", "callCapability": "enum:audioCall,videoCall",
                              "destinationType": "enum:normal,voicemail,redial,callBack,emergency"}),
    "searchCallHistory": ("calling", {"recipient": "str", "callTypes": "enumlist:missed,outgoing,received,voicemail",
                                      "dateCreated": "range"}),
    "sendPayment": ("payments", {"payee": "str", "currencyAmount": "amount", "note": "str"}),
    "requestPayment": ("payments", {"payer": "str", "currencyAmount": "amount", "note": "str"}),
    "requestRide": ("rides", {"pickupLocation": "str", "dropOffLocation": "str", "rideOptionName": "str",
                              "partySize": "number", "scheduledPickupTime": "datetime"}),
    "listRideOptions": ("rides", {"pickupLocation": "str", "dropOffLocation": "str"}),
    "getRideStatus": ("rides", {}),
    "startWorkout": ("workouts", {"workoutName": "str", "goalValue": "number",
                                  "workoutGoalUnitType": "enum:minute,hour,second,kilometer,mile,meter,kilocalorie,step",
                                  "workoutLocationType": "enum:indoor,outdoor", "isOpenEnded": "bool"}),
}
for name in ["pauseWorkout", "resumeWorkout", "endWorkout", "cancelWorkout"]:
    INTENTS[name] = ("workouts", {"workoutName": "str"})
PHOTO = {"albumName": "str", "searchTerms": "list", "peopleInPhoto": "list", "locationCreated": "str",
         "dateCreated": "range", "includedAttributes": "enumlist:photo,video,favorite,selfie,screenshot,panorama"}
INTENTS["searchForPhotos"] = ("photos", PHOTO)
INTENTS["startPhotoPlayback"] = ("photos", PHOTO)
TAGS = {"verbified", "app-leading", "app-trailing", "app-middle", "no-app", "wake-word", "polite", "asr",
        "misspelled", "verbose", "short", "multi-recipient", "near-miss", "wrong-app", "unavailable-app",
        "installed-app", "partial-app", "second-wave", "typo", "spoken", "formal", "slang"}


def main():
    args = sys.argv[1:]
    folder = args[0]
    min_lines = int(args[args.index("--min-lines") + 1]) if "--min-lines" in args else 200
    here = os.path.dirname(os.path.abspath(__file__))
    ctx = json.load(open(os.path.join(here, "..", "contexts", "blind.json")))
    apps = {a["name"]: set(a["intents"]) for a in ctx["apps"]}
    locale = os.path.basename(os.path.normpath(folder))
    errors, ids, n, ood = [], set(), 0, 0
    intents, params, tags = collections.Counter(), collections.Counter(), collections.Counter()
    for fname in sorted(os.listdir(folder)):
        if not fname.endswith(".jsonl"):
            continue
        for ln, line in enumerate(open(os.path.join(folder, fname), encoding="utf-8"), 1):
            where = f"{fname}:{ln}"
            if not line.strip():
                errors.append(f"{where}: empty line"); continue
            try:
                r = json.loads(line)
            except Exception as e:
                errors.append(f"{where}: not JSON ({e})"); continue
            n += 1
            def err(msg): errors.append(f"{where} [{r.get('id')}]: {msg}")
            for k in ("id", "locale", "text", "reference_time", "expected"):
                if k not in r: err(f"missing {k}")
            if r.get("id") in ids: err("duplicate id")
            ids.add(r.get("id"))
            if r.get("locale") != locale: err(f"locale {r.get('locale')} is not the folder's {locale}")
            if r.get("reference_time") != "2026-11-21T10:00:00+01:00": err("reference_time must be 2026-11-21T10:00:00+01:00")
            for t in r.get("tags", []):
                if t not in TAGS: err(f"unknown tag {t}")
                tags[t] += 1
            text = r.get("text", "")
            e = r.get("expected", {})
            for k in ("domain", "intent", "app", "parameters"):
                if k not in e: err(f"expected.{k} missing")
            if e.get("intent") is None:
                ood += 1
                if e.get("domain") is not None or e.get("app") is not None or e.get("parameters"):
                    err("an out-of-domain line has domain, app null and parameters {}")
                ua = e.get("unavailableApp")
                if ua is not None:
                    if ua in apps: err(f"unavailableApp {ua} is an app of the context (use wrong-app)")
                    if ua.lower() not in text.lower(): err(f"unavailableApp {ua} is not said in the text")
                continue
            if "unavailableApp" in e: err("unavailableApp only on lines with no intent")
            intent = e["intent"]
            if intent not in INTENTS: err(f"unknown intent {intent}"); continue
            domain, spec = INTENTS[intent]
            if e.get("domain") != domain: err(f"domain of {intent} is {domain}")
            app = e.get("app")
            if app is not None and (app not in apps or intent not in apps[app]):
                err(f"app {app} does not handle {intent}")
            intents[intent] += 1
            for name, value in e.get("parameters", {}).items():
                if name not in spec: err(f"{intent} has no parameter {name}"); continue
                params[f"{intent}.{name}"] += 1
                kind = spec[name]
                if kind == "str":
                    if not isinstance(value, str) or value not in text: err(f"{name}: {value!r} is not a substring of the text")
                elif kind == "list":
                    if not isinstance(value, list) or not all(isinstance(v, str) and v in text for v in value):
                        err(f"{name}: must be a list of substrings of the text")
                elif kind.startswith("enum:"):
                    if value not in kind[5:].split(","): err(f"{name}: {value!r} not one of {kind[5:]}")
                elif kind.startswith("enumlist:"):
                    if not isinstance(value, list) or any(v not in kind[9:].split(",") for v in value):
                        err(f"{name}: must be a list of {kind[9:]}")
                elif kind == "number":
                    if not isinstance(value, (int, float)) or isinstance(value, bool): err(f"{name}: must be a JSON number")
                elif kind == "bool":
                    if value is not True: err(f"{name}: only true")
                elif kind == "amount":
                    if not (isinstance(value, dict) and isinstance(value.get("amount"), (int, float)) and isinstance(value.get("currency"), str) and len(value["currency"]) == 3):
                        err(f"{name}: must be {{\"amount\": number, \"currency\": \"ISO\"}}")
                elif kind == "range":
                    if not (isinstance(value, dict) and "start" in value and "end" in value): err(f"{name}: must be {{start, end}}")
                elif kind == "datetime":
                    if not (isinstance(value, str) and "T" in value and value[-6] in "+-"): err(f"{name}: full ISO 8601 with offset")
    print(f"{folder}: {n} lines, {ood} out of domain ({ood / max(n, 1):.0%})")
    print("intents:", dict(sorted(intents.items())))
    print("tags:", dict(sorted(tags.items())))
    missing = [i for i in INTENTS if intents[i] == 0]
    if missing: errors.append(f"intents never used: {missing}")
    missing_p = [f"{i}.{p}" for i, (_, s) in INTENTS.items() for p in s if params[f"{i}.{p}"] == 0 and i not in ("startPhotoPlayback",)]
    if missing_p: print("parameters never used (each should appear at least once):", missing_p)
    if n < min_lines: errors.append(f"only {n} lines, at least {min_lines} wanted")
    if ood < 0.2 * n: errors.append(f"only {ood} out-of-domain lines, at least 20 % wanted")
    for e in errors[:200]:
        print("ERROR", e)
    print(f"{len(errors)} errors")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
