#!/usr/bin/env python3
"""Writes mobile-feed-2025-11-03.json: WSDOT's key-less mobile feed
(https://data.wsdot.wa.gov/mobile/MountainPassConditions.json) in its published shape, built
from the REAL values of ../real/DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json.

No verbatim body of the mobile feed is public (see SOURCES.md beside this script), so:
- every Traveler API field is copied untouched from the real capture, in the capture's order;
- DateUpdated becomes the feed's array of Pacific local time parts
  [year, month, day, hour, minute, second, millisecond, 0, 0], computed from the capture's
  instant in America/Los_Angeles;
- the wrapper {"GetMountainPassConditionsResult": {"PassCondition": [...]}} is the feed's;
- Cameras: the two camera images WSDOT publishes that upstreams.md names (real URLs and
  titles) on Snoqualmie and Stevens, with coordinates near each summit (ours);
- Forecast and Alerts: WRITTEN BY US in the shape the apps read (NWS zone-forecast periods,
  WSDOT alert members); their texts are not real;
- Tiger Mountain (id 17) has no Cameras, Forecast or Alerts member, as a tolerant reader must
  accept.
Run from this folder: python3 derive-mobile-feed.py
"""
import json
import re
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

pacific = ZoneInfo("America/Los_Angeles")
with open("../real/DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json") as f:
    passes = json.load(f)

def parts(wcf):
    ms = int(re.match(r"/Date\((-?\d+)", wcf).group(1))
    local = datetime.fromtimestamp(ms / 1000, timezone.utc).astimezone(pacific)
    return [local.year, local.month, local.day, local.hour, local.minute, local.second, ms % 1000, 0, 0]

cameras = {
    11: [{"id": 9026, "title": "I-90 at MP 52: Snoqualmie Summit", "url": "https://images.wsdot.wa.gov/sc/090VC05200.jpg", "lat": 47.4263, "lon": -121.4137}],
    10: [{"id": 9145, "title": "US 2 at MP 64.6: East Stevens Pass Summit", "url": "https://images.wsdot.wa.gov/nc/002vc06458.jpg", "lat": 47.7449, "lon": -121.0866}],
}
forecast = {
    11: [
        {"Day": "Tonight", "ForecastText": "Rain. Snow level 4500 feet. Low around 35. South wind 5 to 10 mph. Chance of precipitation is 90%."},
        {"Day": "Tuesday", "ForecastText": "Rain likely. Snow level 4000 feet. Cloudy, with a high near 41."},
        {"Day": "Tuesday Night", "ForecastText": "Showers. Snow level 3500 feet. Low around 33."},
    ],
    10: [
        {"Day": "Tonight", "ForecastText": "Rain and snow. Snow level 4000 feet. Low around 31. Little or no snow accumulation expected."},
        {"Day": "Tuesday", "ForecastText": "Snow showers likely. Cloudy, with a high near 36."},
    ],
}
alerts = {
    11: [{"PassId": 11, "EventId": 551234, "MountainPass": "Snoqualmie Pass I-90", "TravelCenterPriorityId": 2,
          "EventCategoryTypeDescription": "Maintenance", "HeadlineMessage": "Overnight lane closures eastbound between North Bend and the summit for rock scaling.",
          "RoadName": "090", "RoadDirection": "Eastbound", "DisplayLatitude": 47.43, "DisplayLongitude": -121.45,
          "CreatedDate": "/Date(1762185600000-0800)/"}],
}

conditions = []
for p in passes:
    entry = dict(p)
    entry["DateUpdated"] = parts(p["DateUpdated"])
    pid = p["MountainPassId"]
    if pid != 17:
        entry["Cameras"] = cameras.get(pid, [])
        entry["Forecast"] = forecast.get(pid, [{"Day": "Tonight", "ForecastText": "Mostly cloudy. Low around 30."}])
        entry["Alerts"] = alerts.get(pid, [])
    conditions.append(entry)

with open("mobile-feed-2025-11-03.json", "w") as f:
    json.dump({"GetMountainPassConditionsResult": {"PassCondition": conditions}}, f, indent=1, ensure_ascii=False)
    f.write("\n")
