#!/usr/bin/env python3
"""Writes the derived NRCS AWDB bodies in this folder (see SOURCES.md).

No real AWDB response body is public in this project's references, so these are made in the
documented shape of `GET /stations` and `GET /data` (awdbRestApi/services/v1). The station
triplets, names and coordinates are real NRCS SNOTEL sites; the readings are invented, shaped
so the tests can check the arithmetic by hand. Deterministic: run it again and nothing changes.

    python3 derive-awdb.py     # from this folder
"""
import datetime as dt
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))

# Real SNOTEL stations near the Washington passes (triplet, name, elevation ft, lat, lon).
# Stevens Pass's elevation is from the project's upstream notes; the others are approximate.
STATIONS = [
    ("791:WA:SNTL", "Stevens Pass", 3940, 47.74, -121.09, "1979-10-01 00:00"),
    ("672:WA:SNTL", "Olallie Meadows", 4010, 47.374, -121.442, "1979-10-01 00:00"),
    ("899:WA:SNTL", "Tinkham Creek", 2990, 47.332, -121.47, "1996-10-01 00:00"),
    ("788:WA:SNTL", "Stampede Pass", 3850, 47.274, -121.342, "1979-10-01 00:00"),
    ("352:WA:SNTL", "Blewett Pass", 4240, 47.35, -120.68, "1979-10-01 00:00"),
    ("863:WA:SNTL", "White Pass E.S.", 4440, 46.641, -121.382, "1980-10-01 00:00"),
    ("711:WA:SNTL", "Rainy Pass", 4890, 48.519, -120.736, "1982-10-01 00:00"),
]
# Derived, not a real station: an ended site right at Snoqualmie Pass, to show that a station
# whose endDate has passed is never chosen (the real API leaves it out with activeOnly=true).
ENDED = ("9999:WA:SNTL", "Derived Ended Site", 3000, 47.41, -121.41, "1990-10-01 00:00", "2001-09-30 00:00")


def station(triplet, name, elevation, lat, lon, begin, end="2100-01-01 00:00"):
    number, state, network = triplet.split(":")
    return {
        "stationTriplet": triplet, "stationId": number, "stateCode": state, "networkCode": network,
        "name": name, "dcoCode": "OR", "countyName": "Derived", "huc": "171100090101",
        "elevation": elevation, "latitude": lat, "longitude": lon, "dataTimeZone": -8,
        "pedonCode": None, "shefId": None, "beginDate": begin, "endDate": end,
    }


def element(code, unit, ordinal=1, height=None):
    return {"elementCode": code, "ordinal": ordinal, "heightDepth": height, "durationName": "HOURLY",
            "dataPrecision": 1, "storedUnitCode": unit, "originalUnitCode": unit,
            "beginDate": "1979-10-01 00:00", "endDate": "2100-01-01 00:00", "derivedData": False}


def hours(begin, latest):
    """PST wall times from begin to latest, hourly (PST has no daylight saving)."""
    t = begin
    while t <= latest:
        yield t
        t += dt.timedelta(hours=1)


def fmt(t):
    return t.strftime("%Y-%m-%d %H:%M")


def step(h, values):
    """values: (now, 24h ago, 72h ago, 7d ago); a step function of hours before the latest."""
    if h >= 168:
        return values[3]
    if h >= 72:
        return values[2]
    if h >= 24:
        return values[1]
    return values[0]


def series(latest, depth, swe, temp, quirks=True):
    begin = dt.datetime(latest.year, latest.month, latest.day) - dt.timedelta(days=14)
    snwd, snwd2, wteq, tobs = [], [], [], []
    for t in hours(begin, latest):
        h = int((latest - t).total_seconds() // 3600)
        d = step(h, depth)
        entry = {"date": fmt(t), "value": d}
        if quirks:
            if h in (5, 6):  # a sensor glitch read as no snow: suspect
                entry = {"date": fmt(t), "value": 0, "qcFlag": "S", "qaFlag": "P"}
            elif h == 30:    # rejected by the data's quality control
                entry = {"date": fmt(t), "value": 120, "qcFlag": "R", "qaFlag": "P"}
            elif h == 10:    # missing as null
                entry = {"date": fmt(t), "value": None}
            elif h == 11:    # missing as no value at all
                entry = {"date": fmt(t)}
            elif h == 12:    # edited: fine
                entry = {"date": fmt(t), "value": d, "qcFlag": "E", "qaFlag": "P"}
            else:
                entry["qcFlag"] = "V"
        snwd.append(entry)
        snwd2.append({"date": fmt(t), "value": d + 10, "qcFlag": "V"})
        w = step(h, swe)
        if quirks and h == 72:
            wteq.append({"date": fmt(t), "value": None})
        else:
            wteq.append({"date": fmt(t), "value": w, "qcFlag": "V"})
        tobs.append({"date": fmt(t), "value": round(temp + (h % 24 - 12) * 0.25, 1), "qcFlag": "V"})
    data = []
    if quirks:  # a second depth sensor, listed first: the lowest ordinal is read
        data.append({"stationElement": element("SNWD", "in", ordinal=2), "values": snwd2})
    data += [{"stationElement": element("SNWD", "in"), "values": snwd},
             {"stationElement": element("WTEQ", "in"), "values": wteq},
             {"stationElement": element("TOBS", "degF"), "values": tobs}]
    return data


def write(name, value):
    """Indented JSON with each hourly value on one line."""
    text = json.dumps(value, indent=1)
    text = re.sub(r'\{\s*\n\s*"date"[^{}]*?\}', lambda m: " ".join(m.group(0).split()), text)
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text + "\n")


write("awdb_stations_WA_SNTL.json", [station(*s) for s in STATIONS[:2]] + [station(*ENDED)] + [station(*s) for s in STATIONS[2:]])

november = dt.datetime(2026, 11, 26, 10, 0)  # the latest hour, PST
write("awdb_data_791_2026-11-26.json", [{"stationTriplet": "791:WA:SNTL",
                                          "data": series(november, (58, 50, 44, 40), (15.1, 13.9, 12.8, 12.0), 27.5)}])
write("awdb_data_672_2026-11-26.json", [{"stationTriplet": "672:WA:SNTL",
                                          "data": series(november, (61, 55, 49, 47), (17.4, 16.5, 15.8, 15.5), 26.0, quirks=False)}])
# The last reading at 20:00 PST the evening before: 14.5 hours old at 10:30 PST.
write("awdb_data_791_stale.json", [{"stationTriplet": "791:WA:SNTL",
                                     "data": series(dt.datetime(2026, 11, 25, 20, 0), (50, 44, 41, 40), (13.9, 12.8, 12.3, 12.0), 30.0, quirks=False)}])
# Midsummer: no snow; the latest hour 12:00 PST on July 1 is 20:00Z (it would be 19:00Z in PDT).
write("awdb_data_791_2026-07-01.json", [{"stationTriplet": "791:WA:SNTL", "data": [
    {"stationElement": element("SNWD", "in"), "values": [{"date": "2026-07-01 11:00", "value": 0, "qcFlag": "V"},
                                                        {"date": "2026-07-01 12:00", "value": 0, "qcFlag": "V"}]},
    {"stationElement": element("WTEQ", "in"), "values": [{"date": "2026-07-01 12:00", "value": 0.0, "qcFlag": "V"}]},
    {"stationElement": element("TOBS", "degF"), "values": [{"date": "2026-07-01 12:00", "value": 64.2, "qcFlag": "V"}]}]}])
# The station answers with its elements but no values at all.
write("awdb_data_791_novalues.json", [{"stationTriplet": "791:WA:SNTL", "data": [
    {"stationElement": element("SNWD", "in"), "values": []},
    {"stationElement": element("WTEQ", "in"), "values": []},
    {"stationElement": element("TOBS", "degF"), "values": []}]}])
