#!/usr/bin/env python3
"""Writes the fuzz seed Plugins/NWS/Fuzz/corpus/nws/gridpoints-retimed: the REAL gridpoints body
(../real/nws_gridpoints_TAE_58_65_2022-02-04.json) with every UTC timestamp moved by the same
whole hours, so its first interval starts at the fuzz harness's fixed now (2026-11-21T14:00Z,
Fuzz/Support.swift); nothing else changes. Unmoved, the body is two years stale there and
`sky:` rejects it before its hours reach the presentation. The stand-in
(Tests/Support/TestHarness/NWSStandIn.swift, `retimed`) does the same at request time.

The seed starts with the harness's two bytes: 0x00 (status 200) and 0x01 (`/points` answers
with a valid grid, so the body reaches the grid reader).

Run from this folder: python3 retime-grid.py
"""
import datetime
import pathlib
import re

here = pathlib.Path(__file__).resolve().parent
real = (here / "../real/nws_gridpoints_TAE_58_65_2022-02-04.json").read_text(encoding="utf-8")
stamp = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\+00:00")
starts = [datetime.datetime.fromisoformat(m.group(1)) for m in re.finditer(stamp.pattern + "/", real)]
shift = datetime.datetime(2026, 11, 21, 14) - min(starts)
assert shift.total_seconds() % 3600 == 0


def moved(match):
    return (datetime.datetime.fromisoformat(match.group(1)) + shift).isoformat() + "+00:00"


retimed = stamp.sub(moved, real)
assert '"validTimes": "2026-11-21T14:00:00+00:00/P7DT14H"' in retimed
seed = here / "../../../Fuzz/corpus/nws/gridpoints-retimed"
seed.write_bytes(b"\x00\x01" + retimed.encode("utf-8"))
print(f"wrote {seed.resolve()}")
