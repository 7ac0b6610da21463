#!/usr/bin/env python3
"""Writes approximate NWAC map layers in the shape of avalanche.org's
`GET /v2/public/products/map-layer/{center}` (real/avalanche_map_layer_SNFAC_2026-04.json).

No NWAC map layer is public, so these are derived, not captured:

- the zone names, `zone_id`s and the 2022-23 numeric ids are NWAC's real ones (from
  real/avalanche_nwac_products_list_2023-01-24.json); of the 2025-26 ids, 1645 (Olympics),
  1646 (West Slopes North) and 1649 (Stevens Pass) are real (the real forecast and summary,
  and upstreams' note), the rest continue that numbering in the 2022-23 order and are assumed;
- the polygons are rough boxes around each zone, drawn by hand from NWAC's zone map: good
  enough to place the passes (Stevens Pass 47.745,-121.0933; Snoqualmie Pass 47.41,-121.4058;
  White Pass 46.6383,-121.39) well inside their zones, not for anything near a boundary.
  They do not overlap; the gaps between them are deliberate simplifications;
- the properties copy SNFAC's layout and NWAC's real centre name, link and time zone; danger
  values are placeholders (the module reads only names, ids, polygons, `off_season`,
  `link` and `warning`).

Run from this folder: python3 derive-nwac-map-layer.py (writes three files beside it).
"""
import json

# (name, zone_id, 2022-23 id, 2025-26 id, state, ring as (longitude, latitude), counter-clockwise)
ZONES = [
    ("Olympics", "1", 1128, 1645, "WA",
     [(-124.2, 47.35), (-123.0, 47.35), (-123.0, 48.1), (-124.2, 48.1)]),
    ("West Slopes North", "4", 1129, 1646, "WA",
     [(-122.3, 47.85), (-121.0, 47.85), (-121.0, 49.0), (-122.3, 49.0)]),
    ("West Slopes Central", "5", 1130, 1647, "WA",
     [(-122.0, 47.3), (-121.55, 47.3), (-121.55, 47.5), (-121.3, 47.5), (-121.3, 47.85), (-122.0, 47.85)]),
    ("West Slopes South", "6", 1131, 1648, "WA",
     [(-122.3, 46.0), (-121.15, 46.0), (-121.15, 47.3), (-122.3, 47.3)]),
    ("Stevens Pass", "2", 1132, 1649, "WA",
     [(-121.3, 47.65), (-120.9, 47.65), (-120.9, 47.85), (-121.3, 47.85)]),
    ("Snoqualmie Pass", "3", 1136, 1650, "WA",
     [(-121.55, 47.3), (-121.25, 47.3), (-121.25, 47.5), (-121.55, 47.5)]),
    ("East Slopes North", "7", 1137, 1651, "WA",
     [(-121.0, 47.85), (-119.9, 47.85), (-119.9, 49.0), (-121.0, 49.0)]),
    ("East Slopes Central", "8", 1138, 1652, "WA",
     [(-121.25, 47.3), (-120.3, 47.3), (-120.3, 47.85), (-120.9, 47.85), (-120.9, 47.65), (-121.3, 47.65),
      (-121.3, 47.5), (-121.25, 47.5)]),
    ("East Slopes South", "9", 1139, 1653, "WA",
     [(-121.15, 46.0), (-120.5, 46.0), (-120.5, 47.3), (-121.15, 47.3)]),
    ("Mt Hood", "10", 1140, 1654, "OR",
     [(-121.95, 45.2), (-121.45, 45.2), (-121.45, 45.55), (-121.95, 45.55)]),
]

# The North American Public Avalanche Danger Scale, as the map layer words it.
NO_RATING_ADVICE = ("Watch for signs of unstable snow such as recent avalanches, cracking in the snow, "
                    "and audible collapsing. Avoid traveling on or under similar slopes.")
CONSIDERABLE_ADVICE = ("Dangerous avalanche conditions. Careful snowpack evaluation, cautious route-finding "
                       "and conservative decision-making essential.")


def feature(zone, season_id, off_season, start, end):
    name, _, _, _, state, ring = zone
    slug = name.lower().replace(" ", "-")
    rated = not off_season
    return {
        "type": "Feature",
        "id": season_id,
        "properties": {
            "name": name,
            "center": "Northwest Avalanche Center",
            "center_link": "https://nwac.us/",
            "timezone": "America/Los_Angeles",
            "center_id": "NWAC",
            "state": state,
            "off_season": off_season,
            "travel_advice": CONSIDERABLE_ADVICE if rated else NO_RATING_ADVICE,
            "danger": "considerable" if rated else "no rating",
            "danger_level": 3 if rated else -1,
            "color": "#f8931d" if rated else "#888888",
            "stroke": "#104efb",
            "font_color": "#000000" if rated else "#ffffff",
            "link": "https://nwac.us/avalanche-forecast/#/" + slug,
            "start_date": start if rated else None,
            "end_date": end if rated else None,
            "fillOpacity": 0.5,
            "fillIncrement": 0.1,
            "warning": {"product": None},
        },
        "geometry": {"type": "Polygon", "coordinates": [[list(point) for point in ring + [ring[0]]]]},
    }


def layer(features):
    return {"type": "FeatureCollection", "features": features, "start_time": None, "end_time": None}


def write(name, value):
    with open(name, "w", encoding="utf-8") as out:
        json.dump(value, out, indent=2)
        out.write("\n")


# 2026-04-01: in season but for the Olympics, whose forecasts had ended (the real summary of 2026-03-30).
write("nwac_map_layer_2026-04-01.json", layer([
    feature(zone, zone[3], zone[0] == "Olympics", "2026-03-31T18:30:00", "2026-04-01T18:30:00") for zone in ZONES]))
# The same zones with the 2022-23 season's ids: only the ids differ.
write("nwac_map_layer_2023-01-24.json", layer([
    feature(zone, zone[2], False, "2023-01-23T18:00:00", "2023-01-24T18:00:00") for zone in ZONES]))
# Summer: every zone off season, no forecast valid.
write("nwac_map_layer_2026-07-01_offseason.json", layer([
    feature(zone, zone[3], True, None, None) for zone in ZONES]))
