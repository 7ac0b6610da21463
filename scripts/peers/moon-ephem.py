#!/usr/bin/env python3
"""The peer of `conditions moon:now phases:5` for scenario 1 of conditions-bench: the same
answer from Python and PyEphem (pinned in .build/ephem-venv by `scripts/dev bench`), the way a
user would script it. Prints the moon now at a place (phase, illumination, age, rise and set in
local time) and the next five principal phases.

Usage: moon-ephem.py LATITUDE LONGITUDE TIMEZONE
"""
import datetime
import sys
import zoneinfo

import ephem

latitude, longitude, zone = sys.argv[1], sys.argv[2], zoneinfo.ZoneInfo(sys.argv[3])
now = ephem.now()
moon = ephem.Moon(now)
observer = ephem.Observer()
observer.lat, observer.lon, observer.date = latitude, longitude, now

previous_new = ephem.previous_new_moon(now)
age = now - previous_new
waxing = ephem.next_full_moon(now) < ephem.next_new_moon(now)
lit = moon.moon_phase
if lit < 0.03:
    name = "new moon"
elif lit > 0.97:
    name = "full moon"
elif abs(lit - 0.5) < 0.03:
    name = "first quarter" if waxing else "last quarter"
else:
    name = ("waxing " if waxing else "waning ") + ("crescent" if lit < 0.5 else "gibbous")


def local(date):
    return ephem.Date(date).datetime().replace(tzinfo=datetime.timezone.utc).astimezone(zone)


rises = local(observer.next_rising(ephem.Moon())).strftime("%H:%M %Z")
sets = local(observer.next_setting(ephem.Moon())).strftime("%H:%M %Z")
print(f"moon:now  {name}, {lit * 100:.0f}% lit, {age:.1f} days old")
print(f"  rises {rises}, sets {sets}")

events = []
for label, finder in [("new moon", ephem.next_new_moon), ("first quarter", ephem.next_first_quarter_moon),
                      ("full moon", ephem.next_full_moon), ("last quarter", ephem.next_last_quarter_moon)]:
    date = now
    for _ in range(2):
        date = finder(date)
        events.append((date, label))
print("phases:5")
for date, label in sorted(events)[:5]:
    print(f"  {label:<14} {local(date).strftime('%a %b %d %H:%M %Z')}")
