#!/usr/bin/env python3
"""Derives new-format Kp forecast bodies from the real old-format one (no new-format forecast
body is public). Run from this folder: `python3 derive-swpc-forecasts.py`.

SWPC's 2026 change (upstreams.md, "NOAA SWPC"): an array of objects instead of an array of
arrays with a header row; numbers instead of strings; `time_tag` "YYYY-MM-DDTHH:MM:SS" in UTC
without a Z; the forecast's lower-case `kp`, `observed` (observed|estimated|predicted) and
`noaa_scale` (null or "G1"…). Values, kinds and scales are copied untouched.

- swpc_kp_forecast_NEWFORMAT_2026-02_reshaped.json: the same periods as the old body, reshaped.
- swpc_kp_forecast_NEWFORMAT_2026-08-31.json: reshaped, and every time moved 203 days later, so
  the last observed period of the old body (2026-02-09 15:00) falls on 2026-08-31 15:00, after
  the real new-format K-index's last period (2026-08-31 09:00): the pair a new-format server
  would send on that day.
"""
import json
from datetime import datetime, timedelta

SOURCE = "../real/swpc_kp_forecast_OLDFORMAT_2026-02.json"
SHIFT = timedelta(days=203)


def reshape(rows, shift=timedelta(0)):
    header = [name.lower() for name in rows[0]]
    out = []
    for row in rows[1:]:
        cells = dict(zip(header, row))
        time = datetime.strptime(cells["time_tag"], "%Y-%m-%d %H:%M:%S") + shift
        out.append({"time_tag": time.strftime("%Y-%m-%dT%H:%M:%S"), "kp": float(cells["kp"]),
                    "observed": cells["observed"], "noaa_scale": cells["noaa_scale"]})
    return out


def write(name, objects):
    # Two decimals as SWPC writes Kp (2.33, 1.00); compact, one line, like the real bodies.
    text = "[" + ",".join(
        '{"time_tag":"%s","kp":%.2f,"observed":%s,"noaa_scale":%s}'
        % (p["time_tag"], p["kp"], json.dumps(p["observed"]), json.dumps(p["noaa_scale"])) for p in objects) + "]"
    with open(name, "w") as file:
        file.write(text)


rows = json.load(open(SOURCE))
write("swpc_kp_forecast_NEWFORMAT_2026-02_reshaped.json", reshape(rows))
write("swpc_kp_forecast_NEWFORMAT_2026-08-31.json", reshape(rows, SHIFT))
