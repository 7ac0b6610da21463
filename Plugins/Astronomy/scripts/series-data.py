#!/usr/bin/env python3
"""Writes the truncated lunar and solar series the phase solver sums (Plugins/Astronomy/
Sources/Resources/moon-elpmpp02.txt and sun-vsop87d.txt) from the published coefficient files.

    python3 Plugins/Astronomy/scripts/series-data.py ELP_DIR VSOP_DIR OUT_DIR

ELP_DIR holds ELP/MPP02's files as ytliu0/ElpMpp02 ships them (elp_main.long,
elp_pert.longT0..3); VSOP_DIR holds VSOP87D's Earth series as hasanelfalakiy/
lib-vsop87d-elpmpp02 ships them (EARTH_L0.kt..EARTH_L5.kt, EARTH_R0.kt..). The exact commits
are in Plugins/Astronomy/Sources/Resources/SOURCES.md.

Only the series the phases need are kept: the Moon's longitude (the phase is a difference of
ecliptic longitudes, so latitude drops out) and the Earth's heliocentric longitude and radius
(the radius only scales the Sun's aberration, so a few terms do).

Truncation, by amplitude times the largest |T|^power the range 1900–2100 reaches (1):
  ELP/MPP02 longitude: terms under MOON_FLOOR arcseconds go;
  VSOP87D L: terms under SUN_FLOOR radians; VSOP87D R: terms under RADIUS_FLOOR au.
The floors were chosen so the phases stay within ~2 s of DE421 (the sum of the dropped
amplitudes is printed; the errors it actually makes are what the test suite measures).

ELP/MPP02's main-problem amplitudes are written with the corrections of the fit to DE405/DE406
(Chapront & Francou 2003, the `corr=1` parameters of the authors' Fortran and of ytliu0's
ElpMpp02.cpp) already folded in, so the reader needs only amplitude × sin(argument).
"""
import math
import os
import re
import sys

MOON_FLOOR = 0.01      # arcseconds
SUN_FLOOR = 5e-8       # radians (0.01")
RADIUS_FLOOR = 1e-5    # au

SEC = math.pi / 648000


def fit_factors():
    """ElpMpp02.cpp's setup_parameters(corr=1): the factors that fold B1–B5 into A."""
    dw1_1, dgam, de, deart_1, dep = -0.35106, 0.00085, -0.00006, 0.00732, 0.00224
    am, alpha = 0.074801329, 0.002571881
    dtsm, xa = 2 * alpha / (3 * am), 2 * alpha / 3
    w11 = (1732559343.73604 + dw1_1) * SEC
    delnu_nu = (0.55604 + dw1_1) * SEC / w11
    dele = (0.01789 + de) * SEC
    delg = (-0.08066 + dgam) * SEC
    delnp_nu = (-0.06424 + deart_1) * SEC / w11
    delep = (-0.12879 + dep) * SEC
    return (-am * delnu_nu + delnp_nu, delg, dele, delep, -xa * delnu_nu + dtsm * delnp_nu)


def read_elp(folder):
    f = fit_factors()
    main = []
    with open(os.path.join(folder, 'elp_main.long')) as lines:
        count = int(next(lines))
        for line in lines:
            v = line.split()
            a, b = float(v[4]), [float(x) for x in v[5:10]]
            amplitude = a + sum(fi * bi for fi, bi in zip(f, b))
            main.append(([int(x) for x in v[:4]], amplitude / SEC))
        assert len(main) == count
    perturbations = []
    for power in range(4):
        terms = []
        with open(os.path.join(folder, 'elp_pert.longT%d' % power)) as lines:
            count = int(next(lines))
            for line in lines:
                v = line.split()
                terms.append(([int(x) for x in v[:13]], float(v[13]) / SEC, float(v[14])))
            assert len(terms) == count
        perturbations.append(terms)
    return main, perturbations


def read_vsop(folder, coordinate):
    series = []
    for power in range(6):
        path = os.path.join(folder, 'EARTH_%s%d.kt' % (coordinate, power))
        text = open(path).read() if os.path.exists(path) else ''
        series.append([tuple(float(x) for x in m.split(','))
                       for m in re.findall(r'doubleArrayOf\(([^)]*)\)', text)])
    return series


def number(x, decimals):
    text = ('%.*f' % (decimals, x)).rstrip('0').rstrip('.')
    return '0' if text in ('', '-0') else text


def main(elp_dir, vsop_dir, out_dir):
    main_terms, perturbations = read_elp(elp_dir)
    kept_main = [t for t in main_terms if abs(t[1]) >= MOON_FLOOR]
    dropped = sum(abs(t[1]) for t in main_terms if abs(t[1]) < MOON_FLOOR)
    kept_pert = []
    for terms in perturbations:
        kept_pert.append([t for t in terms if abs(t[1]) >= MOON_FLOOR])
        dropped += sum(abs(t[1]) for t in terms if abs(t[1]) < MOON_FLOOR)
    with open(os.path.join(out_dir, 'moon-elpmpp02.txt'), 'w') as out:
        out.write('# ELP/MPP02 (Chapront & Francou 2003), the Moon\'s longitude, fit to DE405/DE406,\n')
        out.write('# truncated at %g" by Plugins/Astronomy/scripts/series-data.py (see SOURCES.md).\n' % MOON_FLOOR)
        out.write('# main N: N lines "D F l l\' amplitude(arcsec)", a sine series.\n')
        out.write('# pert P N: N lines "D F l l\' Me Ve EM Ma Ju Sa Ur Ne zeta amplitude(arcsec) phase(rad)",\n')
        out.write('# a sine series times T^P (T: Julian centuries TDB since J2000).\n')
        out.write('main %d\n' % len(kept_main))
        for m, a in sorted(kept_main, key=lambda t: -abs(t[1])):
            out.write('%s %s\n' % (' '.join(map(str, m)), number(a, 5)))
        for power, terms in enumerate(kept_pert):
            out.write('pert %d %d\n' % (power, len(terms)))
            for m, a, phase in sorted(terms, key=lambda t: -abs(t[1])):
                out.write('%s %s %s\n' % (' '.join(map(str, m)), number(a, 5), number(phase, 6)))
    print('ELP/MPP02 longitude: kept %d of %d terms, dropped amplitudes sum to %.2f"'
          % (len(kept_main) + sum(map(len, kept_pert)),
             len(main_terms) + sum(map(len, perturbations)), dropped))

    with open(os.path.join(out_dir, 'sun-vsop87d.txt'), 'w') as out:
        out.write('# VSOP87D (Bretagnon & Francou 1988), the Earth\'s heliocentric longitude L (rad) and\n')
        out.write('# radius R (au), ecliptic and equinox of date, truncated at %g rad and %g au by\n' % (SUN_FLOOR, RADIUS_FLOOR))
        out.write('# Plugins/Astronomy/scripts/series-data.py (see SOURCES.md).\n')
        out.write('# C P N: N lines "A B C", the series sum of A cos(B + C tau) times tau^P\n')
        out.write('# (tau: Julian millennia TDB since J2000).\n')
        for coordinate, floor in (('L', SUN_FLOOR), ('R', RADIUS_FLOOR)):
            series = read_vsop(vsop_dir, coordinate)
            total = sum(map(len, series))
            kept = 0
            for power, terms in enumerate(series):
                # tau reaches 0.1 millennium in 1900 and 2100.
                keep = [t for t in terms if abs(t[0]) * 0.1 ** power >= floor]
                if not keep:
                    continue
                kept += len(keep)
                out.write('%s %d %d\n' % (coordinate, power, len(keep)))
                for a, b, c in keep:
                    out.write('%s %s %s\n' % (('%.11g' % a), number(b, 8), number(c, 8)))
            print('VSOP87D %s: kept %d of %d terms' % (coordinate, kept, total))


if __name__ == '__main__':
    main(*sys.argv[1:4])
