#!/usr/bin/env python3
"""Writes NWAC forecasts for the Stevens Pass and Snoqualmie Pass zones, and a map layer with a
warning in effect, derived from the real bodies in ../real/.

No real forecast for either pass zone, and no body with a warning in effect, is public, so:

- `nwac_forecast_stevens-pass_2026-04-01.json` and `nwac_forecast_snoqualmie-pass_2026-04-01.json`
  are the real West Slopes North forecast of 2026-04-01
  (../real/avalanche_nwac_forecast_west-slopes-north_2026-04-01.json) with its `forecast_zone`
  changed to the pass zone (this season's id from nwac_map_layer_2026-04-01.json, NWAC's real
  name, `zone_id` and link), its `id` changed, and the danger and problems changed as listed
  below. Every other member (author, times, texts, problem wording) is the real one's.
- `nwac_map_layer_2026-04-01_warning.json` is nwac_map_layer_2026-04-01.json with an avalanche
  warning on the Stevens Pass zone. The shape of `warning.product` when a warning is in effect
  has not been captured; the object here is a guess in the shape of a product (id, type,
  published and expiry times, bottom line). The module keeps any non-null value as given.

Run from this folder: python3 derive-nwac-forecasts.py (writes three files beside it).
"""
import copy
import json

with open("../real/avalanche_nwac_forecast_west-slopes-north_2026-04-01.json", encoding="utf-8") as f:
    REAL = json.load(f)
with open("nwac_map_layer_2026-04-01.json", encoding="utf-8") as f:
    LAYER = json.load(f)


def write(name, value):
    with open(name, "w", encoding="utf-8") as out:
        json.dump(value, out, indent=2, ensure_ascii=False)
        out.write("\n")


def forecast(zone_name, zone_id, product_id, today, tomorrow, problem_ids):
    feature = next(f for f in LAYER["features"] if f["properties"]["name"] == zone_name)
    body = copy.deepcopy(REAL)
    body["id"] = product_id
    body["forecast_zone"] = [{
        "id": feature["id"], "name": zone_name,
        "url": "http://www.nwac.us/avalanche-forecast/#/" + zone_name.lower().replace(" ", "-"),
        "state": "WA", "zone_id": zone_id, "config": None,
    }]
    # lower/middle/upper: below, near and above treeline.
    body["danger"] = [
        {"lower": today[2], "upper": today[0], "middle": today[1], "valid_day": "current"},
        {"lower": tomorrow[2], "upper": tomorrow[0], "middle": tomorrow[1], "valid_day": "tomorrow"},
    ]
    body["forecast_avalanche_problems"] = [
        dict(problem, forecast_id=product_id, rank=rank + 1)
        for rank, problem in enumerate(p for p in REAL["forecast_avalanche_problems"] if p["avalanche_problem_id"] in problem_ids)
    ]
    return body


# Stevens Pass: a step higher near treeline than West Slopes North, both problems.
write("nwac_forecast_stevens-pass_2026-04-01.json",
      forecast("Stevens Pass", "2", 184216, today=(3, 3, 2), tomorrow=(2, 2, 1), problem_ids={2, 6}))
# Snoqualmie Pass: lower, only the wet loose problem.
write("nwac_forecast_snoqualmie-pass_2026-04-01.json",
      forecast("Snoqualmie Pass", "3", 184217, today=(2, 2, 2), tomorrow=(2, 2, 1), problem_ids={6}))

warned = copy.deepcopy(LAYER)
for feature in warned["features"]:
    if feature["properties"]["name"] == "Stevens Pass":
        feature["properties"]["warning"] = {"product": {
            "id": 184300, "product_type": "warning", "center_id": "NWAC",
            "published_time": "2026-04-01T14:00:00+00:00", "expires_time": "2026-04-02T02:00:00+00:00",
            "bottom_line": "Heavy snow and strong winds are creating very dangerous avalanche conditions "
                           "in the Stevens Pass area. Avoid avalanche terrain.",
        }}
write("nwac_map_layer_2026-04-01_warning.json", warned)
