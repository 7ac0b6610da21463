#!/usr/bin/env python3
"""Writes DERIVED_wsdot_api_passes_2025-11-15_wcf_raw_form.json: WSDOT's Traveler API answer
(GetMountainPassConditionsAsJson) as WSDOT sends it, from the REAL values of
wsdot_api_passes_2025-11-15_iso.json (ws-dottie's sample data, whose client had already turned
each DateUpdated into ISO 8601; see SOURCES.md).

Only DateUpdated changes: the ISO instant becomes WCF's "\\/Date(milliseconds-0800)\\/" with
America/Los_Angeles's offset at that instant (-0800 or -0700), as WSDOT writes it. Every other
member and value is copied untouched; members are written sorted and compact, as WSDOT's WCF
service writes them (compare DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json).
Run from this folder: python3 derive_wcf_form.py
"""
import json
from datetime import datetime
from zoneinfo import ZoneInfo

pacific = ZoneInfo("America/Los_Angeles")
with open("wsdot_api_passes_2025-11-15_iso.json") as f:
    passes = json.load(f)

for p in passes:
    instant = datetime.fromisoformat(p["DateUpdated"].replace("Z", "+00:00"))
    ms = round(instant.timestamp() * 1000)
    offset = instant.astimezone(pacific).strftime("%z")
    p["DateUpdated"] = "/Date(%d%s)/" % (ms, offset)

text = json.dumps(passes, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
with open("DERIVED_wsdot_api_passes_2025-11-15_wcf_raw_form.json", "w") as f:
    f.write(text.replace("/Date(", "\\/Date(").replace(")/", ")\\/"))
