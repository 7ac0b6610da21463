#!/usr/bin/env python3
"""Writes the Caltrans module's pass catalog (Sources/Resources/passes.json) from real CWWP2
chain-control files, and says what it read.

Usage:
  Plugins/Caltrans/scripts/make-catalog.py [CC_FILE ...]
      CC_FILE: a district's chain-control file as the portal serves it (ccStatusDNN.json);
      default: the real captures in Tests/Resources/real/.

A pass is a set of checkpoints: those on its route, in one of its counties, whose name holds the
pass's name and "PASS" as words ("RAYMOND MEADOWS - EBBETTS PASS", "MONITOR PASS", "ALP/ELD
CNTY LINE LUTHER PASS"; "KIRKWOOD - CARSON SPUR" is not Carson Pass). Every checkpoint of a
file read is in a pass or in the catalog's `onNoPass` list. A pass in a district no file was
read for is catalogued by rule (route, counties, lowest elevation, distance from the summit),
matched when the module reads that district, and marked unverified until a real file
confirms it. Summits, elevations and routes are public facts (USGS GNIS, Caltrans route
logs); they are written here, not read.
"""
import hashlib
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.dirname(HERE)
OUT = os.path.join(PLUGIN, "Sources", "Resources", "passes.json")
DEFAULT = [os.path.join(PLUGIN, "Tests", "Resources", "real", "caltrans_cc_d10_20260930.json")]

# id, name, district, route, counties, summit (lat, lon), elevation ft; `word` for passes found by
# name, `rule` for those found by place.
PASSES = [
    {"id": "ebbetts", "name": "Ebbetts Pass", "highway": "SR 4", "district": 10, "route": "SR-4", "counties": ["Alpine"],
     "latitude": 38.5443, "longitude": -119.8077, "elevationFt": 8730, "word": "EBBETTS"},
    {"id": "carson", "name": "Carson Pass", "highway": "SR 88", "district": 10, "route": "SR-88", "counties": ["Alpine", "Amador"],
     "latitude": 38.6947, "longitude": -119.9886, "elevationFt": 8574, "word": "CARSON"},
    {"id": "luther", "name": "Luther Pass", "highway": "SR 89", "district": 10, "route": "SR-89", "counties": ["Alpine", "El Dorado"],
     "latitude": 38.7854, "longitude": -119.9468, "elevationFt": 7740, "word": "LUTHER"},
    {"id": "monitor", "name": "Monitor Pass", "highway": "SR 89", "district": 10, "route": "SR-89", "counties": ["Alpine", "Mono"],
     "latitude": 38.6713, "longitude": -119.6151, "elevationFt": 8314, "word": "MONITOR"},
    {"id": "sonora", "name": "Sonora Pass", "highway": "SR 108", "district": 10, "route": "SR-108", "counties": ["Tuolumne", "Mono"],
     "latitude": 38.3283, "longitude": -119.6361, "elevationFt": 9624, "word": "SONORA"},
    {"id": "donner", "name": "Donner Summit", "highway": "I-80", "district": 3, "route": "I-80", "counties": ["Placer", "Nevada"],
     "latitude": 39.3390, "longitude": -120.3437, "elevationFt": 7239,
     "rule": {"minElevationFt": 5000, "withinKm": 40}},
    {"id": "echo", "name": "Echo Summit", "highway": "US 50", "district": 3, "route": "US-50", "counties": ["El Dorado"],
     "latitude": 38.8128, "longitude": -120.0330, "elevationFt": 7382,
     "rule": {"minElevationFt": 5000, "withinKm": 35}},
    {"id": "yuba", "name": "Yuba Pass", "highway": "SR 49", "district": 3, "route": "SR-49", "counties": ["Sierra"],
     "latitude": 39.6158, "longitude": -120.4903, "elevationFt": 6701,
     "rule": {"minElevationFt": 4500, "withinKm": 25}},
    {"id": "conway", "name": "Conway Summit", "highway": "US 395", "district": 9, "route": "US-395", "counties": ["Mono"],
     "latitude": 38.0894, "longitude": -119.1867, "elevationFt": 8143,
     "rule": {"minElevationFt": 7000, "withinKm": 15}},
]
# Left out, and why: said in the catalog and the README.
LEFT_OUT = {"tioga": "Tioga Pass (SR 120) is in Yosemite, on the National Park Service's road: District 10's SR-120 "
                     "checkpoints stop at the park boundary, so they cannot say whether the pass is open."}


def words(name):
    return re.findall(r"[A-Z0-9]+", name.upper())


def names_pass(name, word):
    """Whether `name` holds `word` followed by PASS, as words."""
    found = words(name)
    return any(a == word and b == "PASS" for a, b in zip(found, found[1:]))


def main():
    files = sys.argv[1:] or DEFAULT
    passes = [dict(p, checkpoints=[], verified=False) for p in PASSES]
    on_no_pass = {}
    read = []
    for path in files:
        raw = open(path, "rb").read()
        rows = json.loads(raw.decode("utf-8", errors="replace"))["data"]
        district = None
        for row in rows:
            cc = row["cc"]
            location = cc["location"]
            district = int(location["district"])
            owner = next((p for p in passes if "word" in p and p["district"] == district and location["route"] == p["route"]
                          and location["county"] in p["counties"] and names_pass(location["locationName"], p["word"])), None)
            if owner:
                owner["checkpoints"].append(cc["index"])
                owner["verified"] = True
            else:
                on_no_pass.setdefault(str(district), []).append(cc["index"])
        read.append({"file": os.path.basename(path), "district": district, "checkpoints": len(rows),
                     "sha256": hashlib.sha256(raw).hexdigest()})
        print(f"make-catalog: {os.path.basename(path)}: District {district}, {len(rows)} checkpoints", file=sys.stderr)
    districts_read = {entry["district"] for entry in read}
    for p in passes:
        if "word" in p and p["district"] in districts_read and not p["checkpoints"]:
            sys.exit(f"make-catalog: no checkpoint of District {p['district']} names {p['name']}")
        how = (f"{len(p['checkpoints'])} checkpoints named '{p['word']} PASS'" if p["checkpoints"]
               else f"by rule ({p['route']} in {', '.join(p['counties'])}), unverified")
        print(f"make-catalog: {p['name']}: {how}", file=sys.stderr)
        p.pop("word", None)
    catalog = {
        "about": "Written by Plugins/Caltrans/scripts/make-catalog.py from the files in `read`; do not edit by hand.",
        "read": read,
        "passes": passes,
        "onNoPass": on_no_pass,
        "leftOut": LEFT_OUT,
    }
    with open(OUT, "w") as file:
        json.dump(catalog, file, indent=1)
        file.write("\n")
    print(f"make-catalog: wrote {os.path.relpath(OUT, PLUGIN)}: {len(passes)} passes, "
          f"{sum(len(v) for v in on_no_pass.values())} checkpoints on no pass", file=sys.stderr)


if __name__ == "__main__":
    main()
