#!/usr/bin/env python3
"""The reference the phase tests check against: every principal phase of the Moon from
the start of DE421 (1899-12-04) to the end of 2100, by Skyfield, in TT and in UT1.

Run it through `scripts/dev phases-reference`, which makes the pinned venv
(.build/skyfield-venv: skyfield, jplephem, de421, numpy) and calls

    .build/skyfield-venv/bin/python Plugins/Astronomy/scripts/phases-reference.py \
        Plugins/Astronomy/Tests/Resources/phases-de421.csv

The `de421` PyPI package ships JPL's DE421 as the old per-body Chebyshev arrays (.npy) that
Skyfield cannot read; nothing can be downloaded from JPL here, so the script first rewrites
them as an SPK (type 2 segments) under .build/ with jplephem's DAF writer. DE421 in that
package spans JD 2414992.5–2524624.5 (1899-12-04 to 2200-02-02), though its own
description says 1900 through 2050.

The table: one line per phase, `phase,tt,dt` where phase is 0 new, 1 first quarter, 2 full,
3 last quarter; tt is TT seconds since J2000.0 (JD 2451545.0 TT) and dt is ΔT = TT − UT1 at
that instant (Skyfield's built-in ΔT: Morrison et al. 2021 Table S15 before 1973, the IERS
daily values bundled with Skyfield after, then its spline to the long-term parabola of
Stephenson, Morrison and Hohenkerk 2016), both in tenths of a second, as integers.
"""
import datetime
import os
import struct
import sys

import numpy as np
import de421
import jplephem
import skyfield
from jplephem.daf import DAF, FTPSTR, K
from skyfield import almanac
from skyfield.api import load
from skyfield.searchlib import find_discrete

J2000 = 2451545.0
DAY = 86400.0


def write_spk(path):
    """DE421 from the de421 package as an SPK: the Sun, the Earth–Moon, Jupiter and Saturn
    barycentres about the solar system's, the Moon and Earth about the Earth–Moon one."""
    folder = os.path.dirname(de421.__file__)
    constants = {k.decode(): v for k, v in np.load(os.path.join(folder, 'constants.npy'))}
    alpha, omega, emrat = constants['jalpha'], constants['jomega'], constants['EMRAT']

    def arrays(name):
        return np.load(os.path.join(folder, 'jpl-%s.npy' % name))

    moon = arrays('moon')  # geocentric Moon
    segments = [
        (10, 0, arrays('sun')),
        (3, 0, arrays('earthmoon')),
        (5, 0, arrays('jupiter')),    # for apparent()'s light deflection
        (6, 0, arrays('saturn')),
        (301, 3, moon * (emrat / (1 + emrat))),
        (399, 3, moon * (-1 / (1 + emrat))),
    ]
    with open(path, 'w+b') as f:
        record = struct.pack('<8sII60sIII8s603s28s297s', b'DAF/SPK ', 2, 6,
                             b'DE421 from the de421 PyPI package'.ljust(60), 0, 0, 0,
                             b'LTL-IEEE', b'\0' * 603, FTPSTR, b'\0' * 297)
        f.write(record)
        f.write(b'\0' * K)       # summary record
        f.write(b' ' * K)        # name record
        f.seek(0)
        daf = DAF(f)
        daf.fward = daf.bward = 2
        daf.free = 3 * (K // 8) + 1
        daf.write_file_record()
        for target, center, coefficients in segments:
            count, _, degree = coefficients.shape
            length = (omega - alpha) / count * DAY
            start = (alpha - J2000) * DAY
            mids = start + length * (np.arange(count) + 0.5)
            records = np.column_stack([mids, np.full(count, length / 2),
                                       coefficients.reshape(count, 3 * degree)])
            data = np.concatenate([records.ravel(), [start, length, 2 + 3 * degree, count]])
            name = ('DE421 %d/%d' % (target, center)).encode()
            daf.add_array(name, (start, start + length * count, target, center, 1, 2), data)


def main(out):
    spk = os.path.join('.build', 'de421.bsp')
    if not os.path.exists(spk):
        write_spk(spk)
    eph = load(spk)
    ts = load.timescale()
    t0 = ts.tt_jd(2414992.5 + 1)
    t1 = ts.tt(2101, 1, 1)
    times, phases = find_discrete(t0, t1, almanac.moon_phases(eph))
    lines = []
    for t, phase in zip(times, phases):
        tt = round((t.whole - J2000 + t.tt_fraction) * DAY * 10)
        dt = round(t.delta_t * 10)
        lines.append('%d,%d,%d' % (phase, tt, dt))
    versions = 'skyfield %s, jplephem %s, de421 %s, numpy %s' % (
        skyfield.__version__, jplephem.__version__, getattr(de421, '__version__', '2008.1'),
        np.__version__)
    with open(out, 'w') as f:
        f.write('# Principal phases of the Moon by Skyfield (almanac.moon_phases) with JPL DE421.\n')
        f.write('# %s; generated %s by Plugins/Astronomy/scripts/phases-reference.py.\n'
                % (versions, datetime.date.today().isoformat()))
        f.write('# phase (0 new, 1 first quarter, 2 full, 3 last quarter), TT in tenths of a second since\n')
        f.write('# JD 2451545.0 TT, Delta T = TT - UT1 in tenths of a second (Skyfield\'s built-in).\n')
        f.write('\n'.join(lines) + '\n')
    print('%d phases, %s to %s' % (len(lines), times[0].utc_iso(), times[-1].utc_iso()))


if __name__ == '__main__':
    main(sys.argv[1])
