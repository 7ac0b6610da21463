#!/usr/bin/env python3
"""Writes the derived CWWP2 files beside this script from the real captures in ../real/.
Each is a real file with named changes, or rows in a real file's shape with values from public
facts; SOURCES.md (this folder) says which is which. Deterministic: run it again, get the same
bytes.

Usage: Plugins/Caltrans/Tests/Resources/derived/make-derived.py
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "..", "real")

# Caltrans's wording of active controls, from its QuickMap KML of the 2025-12-24 storm (SOURCES.md
# of the shared reference): R-2 at Twin Bridges (message 8780), R-1 at Sattley (message 8759).
R1 = ("Chains are required on all vehicles except passenger vehicles and light-duty trucks under 6,000 pounds gross weight "
      "and equipped with snow tires on at least two drive wheels. Chains must be carried by vehicles using snow tires. All "
      "vehicles towing trailers must have chains on one drive axle. Trailers with brakes must have chains on at least one axle.")
R2 = ("Chains or traction devices are required on all vehicles except four wheel/ all wheel drive vehicles with snow-tread "
      "tires on all four wheels. (Four wheel/all wheel drive vehicles must carry traction devices in chain control areas).")


def load(name):
    with open(os.path.join(REAL, name), "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def write(name, document, raw=None):
    data = raw if raw is not None else (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def stamp(row, date, time):
    row["cc"]["recordTimestamp"] = {"recordDate": date, "recordTime": time}


def control(row, level, text, date, time):
    row["cc"]["statusData"] = {"statusTimestamp": {"statusDate": date, "statusTime": time}, "status": level,
                               "statusDescription": text}


def storm():
    """District 10 during a storm: Ebbetts eastbound R-2 and westbound R-1, Carson eastbound R-1;
    every row written 2025-12-24 08:30:00 (the storm QuickMap showed), the changed ones changed at 08:19:00."""
    document = load("caltrans_cc_d10_20260930.json")
    for row in document["data"]:
        stamp(row, "2025-12-24", "08:30:00")
        index = row["cc"]["index"]
        if index in ("10-ALP-4-3.2-E-1", "10-ALP-4-4.5-E-2"):
            control(row, "R-2", R2, "2025-12-24", "08:19:00")
        elif index in ("10-ALP-4-24.4-W-3", "10-ALP-4-29.2-W-4", "10-ALP-4-31.6-W-5", "10-ALP-88-1.9-E-1"):
            control(row, "R-1", R1, "2025-12-24", "08:19:00")
    write("caltrans_cc_d10_storm.json", document)


def closed_by_text():
    """District 10 with Monitor Pass's checkpoint saying the road is closed for the season (R-0
    kept): the pass kind's closure reader must close it."""
    document = load("caltrans_cc_d10_20260930.json")
    for row in document["data"]:
        if row["cc"]["index"] == "10-ALP-89-9.95-E-1":
            row["cc"]["statusData"]["statusDescription"] = "Highway 89 is closed at Monitor Pass for the winter season."
    write("caltrans_cc_d10_monitor_closed.json", document)


def unreadable():
    """District 10 with one Sonora Pass checkpoint's status a longitude, as a real District 7
    checkpoint carried ("-118.1307759")."""
    document = load("caltrans_cc_d10_20260930.json")
    for row in document["data"]:
        if row["cc"]["index"] == "10-TUO-108-44.45-E-2":
            row["cc"]["statusData"]["status"] = "-118.1307759"
    write("caltrans_cc_d10_unreadable.json", document)


def not_utf8():
    """The real District 10 file with one nearby place written in Latin-1 ("Arnold" ->
    "Ca\\xf1on"), as District 11's real file was not valid UTF-8."""
    raw = open(os.path.join(REAL, "caltrans_cc_d10_20260930.json"), "rb").read()
    needle = b'"nearbyPlace":    "Arnold"'
    assert needle in raw
    write("caltrans_cc_d10_not_utf8.json", None, raw.replace(needle, b'"nearbyPlace":    "Ca\xf1on"', 1))


def closure_in_effect():
    """The real District 10 lane closures as they read between 08:05 and 09:37 PDT on
    2026-09-29: the full closure of SR-4 near Ebbetts Pass (C4JA-0002) set up (10-97 at 08:05)
    and not yet picked up (its 10-98 of 09:37 removed)."""
    document = load("caltrans_lcs_d10_20260930.json")
    for row in document["data"]:
        if row["lcs"]["index"] == "C4JA-0002-2026-09-29-08:01:00":
            row["lcs"]["closure"]["code1098"] = {"isCode1098": "false", "code1098Timestamp": {"code1098Date": "", "code1098Time": "", "code1098Epoch": ""}}
    write("caltrans_lcs_d10_ebbetts_closed.json", document)


def district(number, rows, date="2025-12-24", time="08:30:00"):
    """A chain-control file for a district with no capture: each row in the shape of the real
    District 10 file's first row, with the given names, places and levels."""
    template = load("caltrans_cc_d10_20260930.json")["data"][0]
    out = []
    for i, (name, place, route, county, direction, lat, lon, elevation, postmile, level, text) in enumerate(rows, 1):
        row = copy.deepcopy(template)
        cc = row["cc"]
        code = {"Placer": "PLA", "Nevada": "NEV", "El Dorado": "ED", "Sierra": "SIE", "Mono": "MNO"}[county]
        cc["index"] = f"{number}-{code}-{route.split('-')[1]}-{postmile}-{direction[0]}-{i}"
        cc["location"].update({"district": str(number), "locationName": name, "nearbyPlace": place, "latitude": f"{lat:.6f}",
                               "longitude": f"{lon:.6f}", "elevation": str(elevation), "direction": direction, "county": county,
                               "route": route, "postmile": str(postmile), "milepost": ""})
        stamp(row, date, time)
        control(row, level, text, "2025-12-24", "08:19:00")
        out.append(row)
    return {"data": out}


NONE = "No chain controls are in effect at this time."


def districts_without_capture():
    """Districts 3 and 9 on the storm morning of 2025-12-24 as QuickMap showed parts of it: R-2 at
    Twin Bridges on US 50 (message 8780) and R-1 at Sattley on SR 49 (message 8759), the rest R-0.
    Checkpoint places are real places on those roads (USGS GNIS coordinates and elevations); the
    rows themselves are made here: no District 3 or 9 file has been captured."""
    d3 = district(3, [
        ("KINGVALE", "Kingvale", "I-80", "Placer", "East", 39.3199, -120.4386, 6102, 66.6, "R-0", NONE),
        ("DONNER LAKE INTERCHANGE", "Truckee", "I-80", "Nevada", "West", 39.3277, -120.2333, 6040, 12.8, "R-0", NONE),
        ("TWIN BRIDGES", "Twin Bridges", "US-50", "El Dorado", "East", 38.8098, -120.1227, 6109, 58.5, "R-2", R2),
        ("MEYERS", "Meyers", "US-50", "El Dorado", "West", 38.8563, -120.0149, 6358, 76.6, "R-0", NONE),
        ("SATTLEY", "Sattley", "SR-49", "Sierra", "West", 39.6177, -120.4272, 4970, 38.5, "R-1", R1),
        ("BASSETTS", "Bassetts", "SR-49", "Sierra", "East", 39.6163, -120.6010, 5440, 21.2, "R-0", NONE),
        ("PLACERVILLE", "Placerville", "US-50", "El Dorado", "East", 38.7296, -120.7985, 1867, 17.0, "R-0", NONE),
    ])
    write("caltrans_cc_d03_storm.json", d3)
    d9 = district(9, [
        ("CONWAY SUMMIT", "Mono City", "US-395", "Mono", "South", 38.0878, -119.1813, 8143, 66.0, "R-0", NONE),
        ("BRIDGEPORT", "Bridgeport", "US-395", "Mono", "North", 38.2562, -119.2313, 6466, 76.2, "R-0", NONE),
    ])
    write("caltrans_cc_d09_storm.json", d9)


def closures_elsewhere(number, route, county, lat, lon):
    """A lane-closure file for a district with no capture: the real District 10 file's first
    Lane row moved to another district's road, far from any pass (not a full closure)."""
    document = load("caltrans_lcs_d10_20260930.json")
    row = copy.deepcopy(next(r for r in document["data"] if r["lcs"]["closure"]["typeOfClosure"] == "Lane"))
    for end in ("begin", "end"):
        place = row["lcs"]["location"][end]
        place.update({f"{end}District": str(number), f"{end}Route": route, f"{end}County": county,
                      f"{end}Latitude": f"{lat:.6f}", f"{end}Longitude": f"{lon:.6f}"})
    return {"data": [row]}


def main():
    storm()
    closed_by_text()
    unreadable()
    not_utf8()
    closure_in_effect()
    districts_without_capture()
    write("caltrans_lcs_d03.json", closures_elsewhere(3, "SR-65", "Placer", 38.79, -121.29))
    write("caltrans_lcs_d09.json", closures_elsewhere(9, "US-6", "Mono", 37.84, -118.48))


if __name__ == "__main__":
    main()
