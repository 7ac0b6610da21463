#!/usr/bin/env python3
"""Writes Plugins/Astronomy/Sources/Resources/delta-t.txt: ΔT = TT − UT1 at the start of every
year from 1900 to the end of the Earth-orientation data Skyfield ships, from Skyfield's
built-in ΔT (Morrison, Stephenson, Hohenkerk & Zawilski 2021, Table S15, before 1973; the
IERS daily values after, ending with a year of IERS Bulletin A predictions).

    .build/skyfield-venv/bin/python Plugins/Astronomy/scripts/delta-t-table.py OUT

The module interpolates the yearly values with a cubic through the four nearest, which
stays within a few hundredths of a second of the daily series.
"""
import sys

import skyfield
from skyfield.api import load

ts = load.timescale()
table_end = ts.tt_jd(ts.delta_t_table[0][-1])
last_year = table_end.tt_calendar()[0]
with open(sys.argv[1], 'w') as out:
    out.write('# Delta T = TT - UT1 in seconds at January 1.0 TT of each year, from Skyfield %s\'s\n' % skyfield.__version__)
    out.write('# built-in tables (Morrison et al. 2021 Table S15 before 1973, IERS after; the IERS\n')
    out.write('# series ends %s with Bulletin A predictions), by\n' % table_end.tt_strftime('%Y-%m-%d'))
    out.write('# Plugins/Astronomy/scripts/delta-t-table.py. First line: the first year.\n')
    out.write('1900\n')
    for year in range(1900, last_year + 1):
        out.write('%.3f\n' % ts.tt(year, 1, 1).delta_t)
