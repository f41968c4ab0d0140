"""Prints the table of results (Parlance.docc/Results.md) on the public dev splits from the eval reports.

Per corpus and locale: out-of-domain lines and their rejection, and, for in-domain lines
of the first-wave intents and of the second-wave intents (issue 13: notes and lists, bills
and accounts, restaurants, ride follow-ups), how many and the share given the right intent.
Lines of intents the catalogue does not have are left out of those shares.
"""
import json
import os
import re
import sys

FIRST_WAVE = {
    "sendMessage", "searchForMessages", "setMessageAttribute", "startCall", "searchCallHistory",
    "sendPayment", "requestPayment", "requestRide", "listRideOptions", "getRideStatus",
    "startWorkout", "pauseWorkout", "resumeWorkout", "endWorkout", "cancelWorkout",
    "searchForPhotos", "startPhotoPlayback",
}

SECOND_WAVE = {
    "createNote", "appendToNote", "addTasks", "createTaskList", "searchForNotebookItems", "setTaskAttribute", "deleteTasks",
    "payBill", "searchForBills", "transferMoney", "searchForAccounts",
    "bookRestaurantReservation", "getAvailableRestaurantReservationBookings", "cancelRide", "sendRideFeedback",
}


# Home Assistant's "complete an item" (HassListCompleteItem, HassShoppingListCompleteItem) is
# mapped to setTaskAttribute, but the mapping itself marks it "approx" and notes
# (homeassistant/SOURCE.txt) that some of its paraphrases say "delete/remove X from my list",
# which is deleteTasks as Corpora/ANNOTATION.md annotates it. The last column counts deleteTasks
# right on those paraphrases: lines of those intents that say one of these removal verbs.
REMOVAL = re.compile(
    r"\b(remove|delete|take|erase|entfern\w*|lösch\w*|enlève|enlever|supprime\w*|retire\w*|quita\w*|borra\w*|"
    r"elimina\w*|togli\w*|rimuovi\w*|cancella\w*|remov\w*|delet\w*|retir\w*|tira\w*|apag\w*|exclu\w*)\b",
    re.IGNORECASE)


def removals_read_as_deletion(folder):
    """Per locale, the "complete an item" lines that say a removal verb and were read as deleteTasks."""
    counts = {}
    path = os.path.join(folder, "errors.jsonl")
    if not os.path.exists(path):
        return counts
    for line in open(path, encoding="utf-8"):
        e = json.loads(line)
        if "ListCompleteItem" in e["id"] and e["predicted"].startswith("notes/deleteTasks") and REMOVAL.search(e["text"]):
            counts[e["locale"]] = counts.get(e["locale"], 0) + 1
    return counts


def share(r, wave, extra=0):
    lines = {k: v for k, v in r["perIntent"].items() if k in wave and v["expected"] > 0}
    expected = sum(v["expected"] for v in lines.values())
    correct = sum(v["correct"] for v in lines.values()) + extra
    return expected, (f"{correct / expected:.3f}" if expected else "–")


root = sys.argv[1]
print("| corpus | locale | out-of-domain lines | rejection | first-wave lines | right intent | second-wave lines | right intent | removals as deleteTasks |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for name in ["clinc150", "sgd", "xsid", "homeassistant"]:
    path = os.path.join(root, name, "report.json")
    if not os.path.exists(path):
        continue
    report = json.load(open(path))
    removals = removals_read_as_deletion(os.path.join(root, name))
    for locale, r in sorted(report["locales"].items()):
        first, first_share = share(r, FIRST_WAVE)
        second, second_share = share(r, SECOND_WAVE)
        counted = share(r, SECOND_WAVE, removals[locale])[1] if removals.get(locale) else "–"
        rejection = f"{r['outOfDomainRejection']:.3f}" if r["outOfDomain"] else "–"
        print(f"| {name} | {locale} | {r['outOfDomain']:,} | {rejection} | {first:,} | {first_share} | {second:,} | {second_share} | {counted} |")
