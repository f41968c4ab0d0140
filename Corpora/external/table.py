"""Prints the table of results (Parlance.docc/Results.md) on the public dev splits from the eval reports.

Per corpus and locale: out-of-domain lines and their rejection, and, for in-domain lines
whose intent Parlance's catalogue has ("first wave"), how many and the share given the right
intent. Lines of intents the catalogue does not have yet are left out of that share.
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

root = sys.argv[1]
print("| corpus | locale | out-of-domain lines | rejection | first-wave lines | right intent |")
print("|---|---|---:|---:|---:|---:|")
for name in ["clinc150", "sgd", "xsid", "homeassistant"]:
    path = os.path.join(root, name, "report.json")
    if not os.path.exists(path):
        continue
    report = json.load(open(path))
    for locale, r in sorted(report["locales"].items()):
        first = {k: v for k, v in r["perIntent"].items() if k in FIRST_WAVE and v["expected"] > 0}
        expected = sum(v["expected"] for v in first.values())
        correct = sum(v["correct"] for v in first.values())
        share = f"{correct / expected:.3f}" if expected else "–"
        rejection = f"{r['outOfDomainRejection']:.3f}" if r["outOfDomain"] else "–"
        print(f"| {name} | {locale} | {r['outOfDomain']:,} | {rejection} | {expected:,} | {share} |")
