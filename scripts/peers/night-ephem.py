#!/usr/bin/env python3
"""An independent computation of one night's dark and moonless stretches, for the test of
`conditions night:` (NightCLITests): the same question answered with PyEphem (pinned in
.build/ephem-venv by `scripts/dev test`), by its own sun and moon theories, refraction and
parallax.

- sun: its centre below -18 degrees (geometric: PyEphem's altitude with pressure 0, no refraction),
- moon: its upper limb below the horizon as for moonrise and moonset (PyEphem's own rising
  convention: horizon 0, upper limb, standard refraction at pressure 1010 mbar, 10 C),

each found by sampling every minute and bisecting each change to a second.

Usage: night-ephem.py LATITUDE LONGITUDE START END   (START, END: UTC, 2026-11-27T00:00:00Z)
Prints JSON: {"dark": [[start, end], ...], "moonDown": [[start, end], ...]} in UTC ISO 8601.
"""
import datetime
import json
import sys

import ephem

latitude, longitude = sys.argv[1], sys.argv[2]
parse = lambda text: datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
start, end = parse(sys.argv[3]), parse(sys.argv[4])


def observer(when, pressure):
    place = ephem.Observer()
    place.lat, place.lon, place.elevation = latitude, longitude, 0
    place.pressure, place.temp = pressure, 10
    place.date = ephem.Date(when)
    return place


def sun_below(when):
    sun = ephem.Sun(observer(when, 0))
    return sun.alt < ephem.degrees("-18")


def moon_down(when):
    moon = ephem.Moon(observer(when, 1010))
    # Upper limb: the centre's apparent altitude plus the apparent radius.
    return moon.alt + moon.radius < 0


def spans(test):
    found, step = [], datetime.timedelta(minutes=1)
    before, was = start, test(start)
    opened = start if was else None
    while before < end:
        after = min(before + step, end)
        now = test(after)
        if now != was:
            low, high = before, after
            while (high - low).total_seconds() > 1:
                middle = low + (high - low) / 2
                if test(middle) == was:
                    low = middle
                else:
                    high = middle
            edge = low + (high - low) / 2
            if now:
                opened = edge
            else:
                found.append([opened, edge])
                opened = None
        before, was = after, now
    if opened is not None:
        found.append([opened, end])
    iso = lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    return [[iso(a), iso(b)] for a, b in found]


print(json.dumps({"dark": spans(sun_below), "moonDown": spans(moon_down)}))
