#!/usr/bin/env python3
"""The reference the moonrise/moonset tests check against: every rise and set of the Moon's
upper limb, by Skyfield with JPL's DE421, in one local day every 100 days from 1900 to 2100
at five places.

Run it through `scripts/dev riseset-reference` (the same pinned venv as phases-reference.py,
.build/skyfield-venv, and the same DE421 SPK it writes under .build/), which calls

    .build/skyfield-venv/bin/python Plugins/Astronomy/scripts/riseset-reference.py \
        Plugins/Astronomy/Tests/Resources/riseset-de421.csv

The convention is the US Naval Observatory's and the module's: the Moon has risen when its
upper limb stands above a horizon lowered by 34' of refraction, i.e. when the topocentric
apparent altitude of its centre (Skyfield's `apparent()`: light-time, aberration, deflection,
IAU 2000A nutation and the ERA-based sidereal time; no refraction) plus its topocentric
semidiameter (1737.4 km over the distance, as skyfield.almanac's horizon function takes it)
plus 34' is positive. The observer is at sea level on the WGS84 ellipsoid. Times are UT1 with
Skyfield's built-in ΔT (observed through 2025, then its extrapolation).

Each crossing is found with find_discrete (to a millisecond) on that function sampled every
0.01 day (14.4 minutes), so only a Moon that dips below and back within minutes (a graze at
Tromsø) could be missed; almanac.find_risings, which iterates on the hour angle, is avoided
for the same reason.

The days: 1900-01-01 and every 100th day after it up to 2100 (731 days; 100 days is no
multiple of the month or the year, so the phases, seasons and nodes are all sampled). A
place's day runs from 0 h local mean time (0 h UT minus longitude/15 hours, rounded to the
second) for 86,400 s.

Output lines:
    P,code,latitude,longitude,name          one per place
    code,start,events                       one per day and place
start is the day's start in Unix seconds (UT1 read as POSIX time, which is what the module's
Date is); events are space-separated `r` (rise) or `s` (set), the offset from start in seconds
to 0.1 s, `/`, and the rate of the Moon's altitude at that instant in degrees per minute
(rounded to 0.001; near zero is a graze).
"""
import datetime
import importlib.util
import os
import sys

import numpy as np
import skyfield
import jplephem
import de421
from skyfield.api import load, wgs84
from skyfield.searchlib import find_discrete

UNIX_JD = 2440587.5
DAY = 86400.0
REFRACTION = np.radians(34.0 / 60.0)
MOON_RADIUS_M = 1.7374e6

PLACES = [
    ('S', 47.6097, -122.3331, 'Seattle'),
    ('M', 25.7877, -80.2241, 'Miami'),
    ('Y', -33.8688, 151.2093, 'Sydney'),
    ('T', 69.6492, 18.9553, 'Tromsø'),
    ('Q', -0.1807, -78.4678, 'Quito'),
]


def phases_reference():
    """phases-reference.py, for its SPK writer."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'phases-reference.py')
    spec = importlib.util.spec_from_file_location('phases_reference', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(out):
    spk = os.path.join('.build', 'de421.bsp')
    if not os.path.exists(spk):
        phases_reference().write_spk(spk)
    eph = load(spk)
    ts = load.timescale()
    earth, moon = eph['earth'], eph['moon']
    first = datetime.date(1900, 1, 1)
    days = [first + datetime.timedelta(days=100 * k) for k in range(731)]
    lines = ['P,%s,%.4f,%.4f,%s' % place for place in PLACES]
    count = 0
    for code, latitude, longitude, _ in PLACES:
        place = wgs84.latlon(latitude, longitude)
        observer = earth + place

        def limb(t):
            apparent = observer.at(t).observe(moon).apparent()
            altitude, _, distance = apparent.altaz()
            return altitude.radians + MOON_RADIUS_M / distance.m + REFRACTION

        def up(t):
            return limb(t) > 0
        up.step_days = 0.01

        for day in days:
            midnight = (datetime.datetime(day.year, day.month, day.day) - datetime.datetime(1970, 1, 1)).total_seconds()
            start = int(round(midnight - longitude * 240))
            t0 = ts.ut1_jd(UNIX_JD + start / DAY)
            t1 = ts.ut1_jd(UNIX_JD + (start + DAY) / DAY)
            times, values = find_discrete(t0, t1, up)
            events = []
            for t, value in zip(times, values):
                # The altitude rate, from the limb function a minute either side.
                before, after = ts.ut1_jd(t.ut1 - 60 / DAY), ts.ut1_jd(t.ut1 + 60 / DAY)
                rate = np.degrees(limb(after) - limb(before)) / 2
                offset = (t.ut1 - UNIX_JD) * DAY - start
                events.append('%s%.1f/%.3f' % ('r' if value else 's', offset, rate))
            count += len(events)
            lines.append('%s,%d,%s' % (code, start, ' '.join(events)))
    versions = 'skyfield %s, jplephem %s, de421 %s, numpy %s' % (
        skyfield.__version__, jplephem.__version__, getattr(de421, '__version__', '2008.1'), np.__version__)
    with open(out, 'w') as f:
        f.write('# Moonrise and moonset (upper limb, 34\' refraction, topocentric, sea level) by Skyfield with JPL DE421.\n')
        f.write('# %s; generated %s by Plugins/Astronomy/scripts/riseset-reference.py (format there).\n'
                % (versions, datetime.date.today().isoformat()))
        f.write('\n'.join(lines) + '\n')
    print('%d events in %d days at %d places' % (count, len(days), len(PLACES)))


if __name__ == '__main__':
    main(sys.argv[1])
