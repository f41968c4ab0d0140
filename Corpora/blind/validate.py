#!/usr/bin/env python3
"""Checks the format of a blind corpus folder (Corpora/blind/<locale>/*.jsonl) against the
catalogue, the annotation guide and Corpora/contexts/blind.json. Format only: it never runs
the parser, so a writer learns nothing about what Parlance understands.
    python3 Corpora/blind/validate.py Corpora/blind/en-US [--min-lines 400]
    python3 Corpora/blind/validate.py --wave 2 Corpora/blind-second-wave/en-US [--min-lines 150]
With --wave 2 the folder holds second-wave lines (notes, bills and accounts, restaurants,
ride follow-ups): every second-wave intent must appear; first-wave intents may too.
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
FIRST_WAVE = set(INTENTS)
NOTE_TRIGGERS = {"spatialEventTrigger": "spatial", "temporalEventTrigger": "temporal"}
BILLS = "autoInsurance,cable,carLoan,creditCard,electricity,gas,healthInsurance,homeInsurance,internet,mortgage,phone,rent,studentLoan,trafficTicket,tuition,water"
INTENTS.update({
    "createNote": ("notes", {"title": "str", "content": "str", "groupName": "str"}),
    "appendToNote": ("notes", {"targetNote": "str", "content": "str"}),
    "addTasks": ("notes", {"targetTaskList": "str", "taskTitles": "list", **NOTE_TRIGGERS, "priority": "enum:flagged,notFlagged"}),
    "createTaskList": ("notes", {"title": "str", "taskTitles": "list", "groupName": "str"}),
    "searchForNotebookItems": ("notes", {"title": "str", "content": "str", "itemType": "enum:note,taskList,task",
                                         "status": "enum:completed,notCompleted", "location": "str", "dateTime": "range"}),
    "setTaskAttribute": ("notes", {"targetTask": "str", "status": "enum:completed,notCompleted", **NOTE_TRIGGERS}),
    "deleteTasks": ("notes", {"taskList": "str", "tasks": "list", "all": "bool"}),
    "payBill": ("payments", {"billPayee": "str", "fromAccount": "str", "transactionAmount": "amount",
                             "transactionScheduledDate": "date", "transactionNote": "str", "billType": "enum:" + BILLS, "dueDate": "date"}),
    "searchForBills": ("payments", {"billPayee": "str", "paymentDateRange": "range", "billType": "enum:" + BILLS,
                                    "status": "enum:paid,unpaid,overdue", "dueDateRange": "range"}),
    "transferMoney": ("payments", {"fromAccount": "str", "toAccount": "str", "transactionAmount": "amount",
                                   "transactionScheduledDate": "date", "transactionNote": "str"}),
    "searchForAccounts": ("payments", {"fromAccount": "str", "accountType": "enum:checking,saving,credit,investment,mortgage,prepaid",
                                       "organizationName": "str", "requestedBalanceType": "enum:points,miles"}),
    "bookRestaurantReservation": ("restaurants", {"restaurant": "str", "bookingDateComponents": "when", "partySize": "number",
                                                  "guestProvidedSpecialRequestText": "str"}),
    "getAvailableRestaurantReservationBookings": ("restaurants", {"restaurant": "str", "partySize": "number",
                                                                  "preferredBookingDateComponents": "when"}),
    "cancelRide": ("rides", {}),
    "sendRideFeedback": ("rides", {"rating": "number", "tip": "amount"}),
})
SECOND_WAVE = set(INTENTS) - FIRST_WAVE
WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}


def is_date(v):
    return isinstance(v, str) and len(v) == 10 and v[4] == "-" and v[7] == "-"


def is_datetime(v):
    return isinstance(v, str) and "T" in v and v[-6] in "+-"


TAGS = {"verbified", "app-leading", "app-trailing", "app-middle", "no-app", "wake-word", "polite", "asr",
        "misspelled", "verbose", "short", "multi-recipient", "near-miss", "wrong-app", "unavailable-app",
        "installed-app", "partial-app", "second-wave", "typo", "spoken", "formal", "slang", "trigger"}


def main():
    args = sys.argv[1:]
    wave = int(args[args.index("--wave") + 1]) if "--wave" in args else 1
    if "--wave" in args: del args[args.index("--wave"):args.index("--wave") + 2]
    folder = args[0]
    min_lines = int(args[args.index("--min-lines") + 1]) if "--min-lines" in args else (150 if wave == 2 else 200)
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
                elif kind == "date":
                    if not is_date(value): err(f"{name}: a plain date, YYYY-MM-DD")
                elif kind == "when":
                    ok = is_date(value) or is_datetime(value) or (isinstance(value, dict) and set(value) == {"start", "end"})
                    if not ok: err(f"{name}: a date, a date-time with offset, or a {{start, end}} range")
                elif kind == "spatial":
                    if not (isinstance(value, dict) and set(value) == {"event", "place"} and value["event"] in ("arrive", "depart")
                            and isinstance(value["place"], str) and value["place"] in text):
                        err(f"{name}: must be {{\"event\": arrive|depart, \"place\": substring}}")
                elif kind == "temporal":
                    rec = value.get("recurrence") if isinstance(value, dict) else None
                    ok = isinstance(value, dict) and set(value) <= {"start", "recurrence"} and value
                    if ok and "start" in value: ok = is_date(value["start"]) or is_datetime(value["start"])
                    if ok and rec is not None:
                        ok = (isinstance(rec, dict) and set(rec) <= {"frequency", "weekdays", "dayPart"}
                              and rec.get("frequency") in ("daily", "weekly", "monthly", "yearly")
                              and all(w in WEEKDAYS for w in rec.get("weekdays", []))
                              and rec.get("dayPart", "morning") in ("morning", "afternoon", "evening"))
                    if not ok: err(f"{name}: must be {{\"start\"?, \"recurrence\"?: {{frequency, weekdays?, dayPart?}}}}")
                elif kind == "datetime":
                    if not (isinstance(value, str) and "T" in value and value[-6] in "+-"): err(f"{name}: full ISO 8601 with offset")
    print(f"{folder}: {n} lines, {ood} out of domain ({ood / max(n, 1):.0%})")
    print("intents:", dict(sorted(intents.items())))
    print("tags:", dict(sorted(tags.items())))
    wanted = SECOND_WAVE if wave == 2 else FIRST_WAVE
    missing = [i for i in INTENTS if i in wanted and intents[i] == 0]
    if missing: errors.append(f"intents never used: {missing}")
    missing_p = [f"{i}.{p}" for i, (_, s) in INTENTS.items() if i in wanted for p in s if params[f"{i}.{p}"] == 0 and i not in ("startPhotoPlayback",)]
    if missing_p: print("parameters never used (each should appear at least once):", missing_p)
    if n < min_lines: errors.append(f"only {n} lines, at least {min_lines} wanted")
    if ood < 0.2 * n: errors.append(f"only {ood} out-of-domain lines, at least 20 % wanted")
    for e in errors[:200]:
        print("ERROR", e)
    print(f"{len(errors)} errors")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
