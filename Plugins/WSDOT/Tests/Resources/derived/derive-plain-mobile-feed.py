#!/usr/bin/env python3
"""Writes mobile-feed-2025-11-15.json: WSDOT's key-less mobile feed in its published shape
(see SOURCES.md beside this script), built from the REAL values of
../real/DERIVED_wsdot_api_passes_2025-11-15_wcf_raw_form.json (WSDOT's Traveler API of
2025-11-15, via RobJacobson/ws-dottie), for the closure rule's feed-mode test.

- every Traveler API member is copied untouched, in the capture's order;
- DateUpdated becomes the feed's Pacific local time parts [y, m, d, h, min, s, ms, 0, 0],
  computed from the capture's instant;
- the wrapper {"GetMountainPassConditionsResult": {"PassCondition": [...]}} is the feed's;
- no Cameras, Forecast or Alerts member: nothing real is known of them for that day, and a
  tolerant reader accepts their absence (mobile-feed-2025-11-03.json has them, written by us).
Run from this folder: python3 derive-plain-mobile-feed.py
"""
import json
import re
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

pacific = ZoneInfo("America/Los_Angeles")
with open("../real/DERIVED_wsdot_api_passes_2025-11-15_wcf_raw_form.json") as f:
    passes = json.load(f)

def parts(wcf):
    ms = int(re.match(r"/Date\((-?\d+)", wcf).group(1))
    local = datetime.fromtimestamp(ms / 1000, timezone.utc).astimezone(pacific)
    return [local.year, local.month, local.day, local.hour, local.minute, local.second, ms % 1000, 0, 0]

conditions = []
for p in passes:
    entry = dict(p)
    entry["DateUpdated"] = parts(p["DateUpdated"])
    conditions.append(entry)

with open("mobile-feed-2025-11-15.json", "w") as f:
    json.dump({"GetMountainPassConditionsResult": {"PassCondition": conditions}}, f, indent=1, ensure_ascii=False)
    f.write("\n")
