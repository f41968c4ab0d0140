"""Prints the table of results (Parlance.docc/Results.md) on the public dev splits from the eval reports.

Per corpus and locale: out-of-domain lines and their rejection, and, for in-domain lines
of the first-wave intents and of the second-wave intents (issue 13: notes and lists, bills
and accounts, restaurants, ride follow-ups), how many and the share given the right intent.
Lines of intents the catalogue does not have are left out of those shares.
"""
import json
import os
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


def share(r, wave):
    lines = {k: v for k, v in r["perIntent"].items() if k in wave and v["expected"] > 0}
    expected = sum(v["expected"] for v in lines.values())
    correct = sum(v["correct"] for v in lines.values())
    return expected, (f"{correct / expected:.3f}" if expected else "–")


root = sys.argv[1]
print("| corpus | locale | out-of-domain lines | rejection | first-wave lines | right intent | second-wave lines | right intent |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for name in ["clinc150", "sgd", "xsid", "homeassistant"]:
    path = os.path.join(root, name, "report.json")
    if not os.path.exists(path):
        continue
    report = json.load(open(path))
    for locale, r in sorted(report["locales"].items()):
        first, first_share = share(r, FIRST_WAVE)
        second, second_share = share(r, SECOND_WAVE)
        rejection = f"{r['outOfDomainRejection']:.3f}" if r["outOfDomain"] else "–"
        print(f"| {name} | {locale} | {r['outOfDomain']:,} | {rejection} | {first:,} | {first_share} | {second:,} | {second_share} |")
