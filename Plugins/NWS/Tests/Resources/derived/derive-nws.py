#!/usr/bin/env python3
"""Writes the NWS bodies no public capture exists for, in the shapes api.weather.gov documents
(the team's upstream notes, "National Weather Service API"), from REAL values where there are
any. SOURCES.md beside this script lists, file by file, what is real and what is ours.

Real inputs (all inside this repository):
- ../real/nws_points_30_-85_pynws-fixture.json: a real /points answer. Every /points body
  here is a copy of it with the point's own values put in (the JSON-LD context, the member
  names and order, the URL patterns are NWS's; the grids and nearby towns of the two passes
  are OURS: no capture of them exists).
- ../real/nws_problem_404_MarineForecastNotSupported.json: a real problem body. The 500 and
  503 problems are copies of its shape with OUR title, detail and ids (NWS names the types
  UnexpectedProblem and ForecastGridExpired in its documentation).
- ../../../../WSDOT/Tests/Resources/real/wsdot_new_stevens_fullpage_rendered_2025-11-02.html:
  WSDOT's Stevens Pass page of Sunday 2025-11-02, 7:24 AM PST, which shows NWS's forecast for
  the pass: the period names and short forecasts "Today: Snow", "Tonight: Snow",
  "Monday: Snow", the air temperature 34 F and the summit elevation 4061 ft. Those values
  are used as they are (read from the page below); every other period, temperature, wind,
  chance of precipitation and detailed text of the Stevens forecasts is OURS.
- ../../../../WSDOT/Tests/Resources/real/DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json:
  WSDOT's Traveler API of 2025-11-03: Snoqualmie at 11:07 AM PST, 37 F, "Occasional rain",
  3022 ft. The first Snoqualmie period's temperature and short forecast are that
  observation (WSDOT's, not NWS's); everything else of Snoqualmie's forecast is OURS.
- The alerts (a Winter Weather Advisory at Stevens and a test message to be ignored), the
  403 "Access Denied" page and the empty alert collection are written by us in the
  documented shapes.

Run from this folder: python3 derive-nws.py
"""
import copy
import json
import re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

PACIFIC = ZoneInfo("America/Los_Angeles")
BASE = "https://api.weather.gov"

with open("../real/nws_points_30_-85_pynws-fixture.json") as f:
    real_points = json.load(f)
with open("../real/nws_problem_404_MarineForecastNotSupported.json") as f:
    real_problem = json.load(f)
with open("../../../../WSDOT/Tests/Resources/real/wsdot_new_stevens_fullpage_rendered_2025-11-02.html") as f:
    stevens_page = f.read()
with open("../../../../WSDOT/Tests/Resources/real/DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json") as f:
    wsdot_api = {p["MountainPassId"]: p for p in json.load(f)}

# --- real values read from the WSDOT captures -------------------------------------------
stevens_periods = re.findall(r'<div class="weather-station-forecast"><span>(.*?)</span><img [^>]*><span>(.*?)</span>', stevens_page)
assert stevens_periods == [("Today", "Snow"), ("Tonight", "Snow"), ("Monday", "Snow")], stevens_periods
stevens_temperature = int(re.search(r"(\d+)°F / -?\d+°C as of 7:24 AM 11/02/2025", stevens_page).group(1))
stevens_elevation_ft = int(re.search(r"(\d+) ft / \d+ m", stevens_page).group(1))
assert (stevens_temperature, stevens_elevation_ft) == (34, 4061)
snoqualmie = wsdot_api[11]
snoqualmie_ms = int(re.match(r"/Date\((\d+)", snoqualmie["DateUpdated"]).group(1))
snoqualmie_seen = datetime.fromtimestamp(snoqualmie_ms / 1000, timezone.utc).astimezone(PACIFIC)
assert (snoqualmie["TemperatureInFahrenheit"], snoqualmie["WeatherCondition"], snoqualmie["ElevationInFeet"]) == (37, "Occasional rain", 3022)


def iso(when):
    return when.isoformat()


def write(name, value):
    with open(name, "w") as f:
        json.dump(value, f, indent=4, ensure_ascii=False)
        f.write("\n")


# --- /points -------------------------------------------------------------------------------
def points(lat, lon, office, x, y, city, state, distance, bearing, zone, county, fire, radar):
    body = copy.deepcopy(real_points)
    point = f"{lat},{lon}"
    grid = f"{BASE}/gridpoints/{office}/{x},{y}"
    body["id"] = f"{BASE}/points/{point}"
    body["geometry"]["coordinates"] = [lon, lat]
    p = body["properties"]
    p["@id"] = f"{BASE}/points/{point}"
    p.update({"cwa": office, "forecastOffice": f"{BASE}/offices/{office}", "gridId": office, "gridX": x, "gridY": y,
              "forecast": f"{grid}/forecast", "forecastHourly": f"{grid}/forecast/hourly", "forecastGridData": grid,
              "observationStations": f"{grid}/stations", "forecastZone": f"{BASE}/zones/forecast/{zone}",
              "county": f"{BASE}/zones/county/{county}", "fireWeatherZone": f"{BASE}/zones/fire/{fire}",
              "timeZone": "America/Los_Angeles", "radarStation": radar})
    rel = p["relativeLocation"]
    rel["geometry"]["coordinates"] = [round(lon - 0.02, 6), round(lat + 0.01, 6)]
    rel["properties"].update({"city": city, "state": state})
    rel["properties"]["distance"]["value"] = distance
    rel["properties"]["bearing"]["value"] = bearing
    return body


# Stevens Pass (47.745,-121.093333 in WSDOT's feed) and Snoqualmie Pass (47.41,-121.405833)
# as NWS would be asked for them: four decimals, no trailing zeros. Grids and towns: OURS.
write("points_47.745_-121.0933.json", points(47.745, -121.0933, "SEW", 163, 68, "Skykomish", "WA", 24150.3, 79, "WAZ568", "WAC033", "WAZ668", "KATX"))
write("points_47.41_-121.4058.json", points(47.41, -121.4058, "SEW", 151, 53, "Snoqualmie Pass", "WA", 1320.7, 232, "WAZ568", "WAC033", "WAZ668", "KATX"))


# --- /forecast and /forecast/hourly --------------------------------------------------------
def period(number, name, start, end, daytime, temperature, pop, wind, direction, short, detailed):
    return {"number": number, "name": name, "startTime": iso(start), "endTime": iso(end), "isDaytime": daytime,
            "temperature": temperature, "temperatureUnit": "F", "temperatureTrend": None,
            "probabilityOfPrecipitation": {"unitCode": "wmoUnit:percent", "value": pop},
            "windSpeed": wind, "windDirection": direction,
            "icon": f"{BASE}/icons/land/{'day' if daytime else 'night'}/snow,{pop or 0}?size=medium",
            "shortForecast": short, "detailedForecast": detailed}


def forecast(lat, lon, elevation_ft, updated, generated, periods, hourly=False):
    return {
        "@context": ["https://geojson.org/geojson-ld/geojson-context.jsonld",
                     {"@version": "1.1", "wx": "https://api.weather.gov/ontology#", "geo": "http://www.opengis.net/ont/geosparql#",
                      "unit": "http://codes.wmo.int/common/unit/", "@vocab": "https://api.weather.gov/ontology#"}],
        "type": "Feature",
        "geometry": {"type": "Polygon", "coordinates": [[[lon - 0.0125, lat - 0.0102], [lon - 0.0131, lat + 0.0118], [lon + 0.0174, lat + 0.0123],
                                                         [lon + 0.0180, lat - 0.0097], [lon - 0.0125, lat - 0.0102]]]},
        "properties": {
            "units": "us",
            "forecastGenerator": "HourlyForecastGenerator" if hourly else "BaselineForecastGenerator",
            "generatedAt": iso(generated), "updateTime": iso(updated),
            "validTimes": f"{iso(updated.astimezone(timezone.utc))}/P7DT14H",
            "elevation": {"unitCode": "wmoUnit:m", "value": round(elevation_ft * 0.3048, 4)},
            "periods": periods,
        },
    }


def day_periods(first_start, rows):
    """rows: (name, temperature, pop, wind, direction, short, detailed), alternating day and night from first_start."""
    out = []
    start = first_start
    for index, (name, temperature, pop, wind, direction, short, detailed) in enumerate(rows):
        daytime = start.hour >= 6 and start.hour < 18
        end = start.replace(hour=18, minute=0) if daytime else (start + timedelta(days=1)).replace(hour=6, minute=0) if start.hour >= 18 else start.replace(hour=6, minute=0)
        out.append(period(index + 1, name, start, end, daytime, temperature, pop, wind, direction, short, detailed))
        start = end
    return out


stevens_start = datetime(2025, 11, 2, 7, 0, tzinfo=PACIFIC)
real = dict(stevens_periods)  # Today/Tonight/Monday: "Snow" (REAL)
stevens_rows = [
    ("Today", 35, 90, "5 to 10 mph", "SW", real["Today"], "Snow. High near 35. Southwest wind 5 to 10 mph. Chance of precipitation is 90%. New snow accumulation of 3 to 5 inches possible."),
    ("Tonight", 28, 90, "5 to 10 mph", "SW", real["Tonight"], "Snow. Low around 28. Southwest wind 5 to 10 mph. Chance of precipitation is 90%. New snow accumulation of 4 to 6 inches possible."),
    ("Monday", 33, 80, "5 mph", "W", real["Monday"], "Snow. Cloudy, with a high near 33. West wind around 5 mph. Chance of precipitation is 80%. New snow accumulation of 1 to 3 inches possible."),
    ("Monday Night", 26, 60, "0 to 5 mph", "NW", "Snow Showers Likely", "Snow showers likely. Mostly cloudy, with a low around 26. Chance of precipitation is 60%."),
    ("Tuesday", 34, 30, "0 to 5 mph", "N", "Chance Snow Showers", "A chance of snow showers. Mostly cloudy, with a high near 34. Chance of precipitation is 30%."),
    ("Tuesday Night", 27, None, "0 to 5 mph", "NE", "Mostly Cloudy", "Mostly cloudy, with a low around 27."),
    ("Wednesday", 37, None, "0 to 5 mph", "E", "Partly Sunny", "Partly sunny, with a high near 37."),
    ("Wednesday Night", 29, None, "0 to 5 mph", "SE", "Mostly Cloudy", "Mostly cloudy, with a low around 29."),
    ("Thursday", 38, 40, "5 mph", "S", "Chance Rain And Snow", "A chance of rain and snow. Cloudy, with a high near 38. Chance of precipitation is 40%."),
    ("Thursday Night", 31, 70, "5 to 10 mph", "SW", "Rain And Snow Likely", "Rain and snow likely. Cloudy, with a low around 31. Chance of precipitation is 70%."),
    ("Friday", 36, 80, "5 to 10 mph", "SW", "Rain And Snow", "Rain and snow. Cloudy, with a high near 36. Chance of precipitation is 80%."),
    ("Friday Night", 28, 60, "5 mph", "W", "Snow Showers Likely", "Snow showers likely. Cloudy, with a low around 28. Chance of precipitation is 60%."),
    ("Saturday", 33, 30, "0 to 5 mph", "NW", "Chance Snow Showers", "A chance of snow showers. Mostly cloudy, with a high near 33. Chance of precipitation is 30%."),
    ("Saturday Night", 25, None, "0 to 5 mph", "N", "Mostly Cloudy", "Mostly cloudy, with a low around 25."),
]
stevens_updated = datetime(2025, 11, 2, 6, 45, tzinfo=PACIFIC)
write("forecast_SEW_163_68.json", forecast(47.745, -121.0933, stevens_elevation_ft, stevens_updated, datetime(2025, 11, 2, 7, 20, 14, tzinfo=PACIFIC),
                                            day_periods(stevens_start, stevens_rows)))

# Hourly: 24 hours from 07:00; the first hour's temperature is the page's 34 F (REAL), every
# hour's short forecast is "Snow" as NWS's Today and Tonight say (REAL); the rest is OURS.
temperatures = [34, 34, 35, 35, 35, 35, 34, 34, 33, 32, 31, 31, 30, 30, 29, 29, 29, 28, 28, 28, 28, 28, 29, 30]
hourly = []
for hour, temperature in enumerate(temperatures):
    start = stevens_start + timedelta(hours=hour)
    hourly.append(period(hour + 1, "", start, start + timedelta(hours=1), 6 <= start.hour < 18, temperature if hour else stevens_temperature,
                         90 if hour < 18 else 80, "5 mph" if hour % 3 else "10 mph", "SW", real["Today"] if start.hour < 18 and start.day == 2 else real["Tonight"], ""))
write("forecast_hourly_SEW_163_68.json", forecast(47.745, -121.0933, stevens_elevation_ft, stevens_updated, datetime(2025, 11, 2, 7, 21, 3, tzinfo=PACIFIC), hourly, hourly=True))

# Snoqualmie, Monday 2025-11-03: the first period is WSDOT's observation at 11:07 AM (REAL:
# 37 F, "Occasional rain"); the rest is OURS.
snoqualmie_start = snoqualmie_seen.replace(minute=0, second=0, microsecond=0)
snoqualmie_rows = [
    ("This Afternoon", snoqualmie["TemperatureInFahrenheit"], 70, "5 to 10 mph", "SW", snoqualmie["WeatherCondition"].title(), "Occasional rain. Snow level 4500 feet. High near 38. Southwest wind 5 to 10 mph. Chance of precipitation is 70%."),
    ("Tonight", 33, 80, "5 to 10 mph", "SW", "Rain And Snow", "Rain and snow. Snow level 3500 feet. Low around 33. Chance of precipitation is 80%. Little or no snow accumulation expected."),
    ("Tuesday", 36, 50, "5 mph", "W", "Chance Rain And Snow", "A chance of rain and snow. Snow level 3000 feet. Cloudy, with a high near 36. Chance of precipitation is 50%."),
    ("Tuesday Night", 30, None, "0 to 5 mph", "NW", "Mostly Cloudy", "Mostly cloudy, with a low around 30."),
    ("Wednesday", 39, None, "0 to 5 mph", "E", "Partly Sunny", "Partly sunny, with a high near 39."),
    ("Wednesday Night", 31, None, "0 to 5 mph", "SE", "Mostly Cloudy", "Mostly cloudy, with a low around 31."),
]
write("forecast_SEW_151_53.json", forecast(47.41, -121.4058, snoqualmie["ElevationInFeet"], snoqualmie_start - timedelta(minutes=40),
                                            snoqualmie_start + timedelta(minutes=12), day_periods(snoqualmie_start, snoqualmie_rows)))
write("forecast_hourly_SEW_151_53.json", forecast(47.41, -121.4058, snoqualmie["ElevationInFeet"], snoqualmie_start - timedelta(minutes=40), snoqualmie_start + timedelta(minutes=13), [
    period(hour + 1, "", snoqualmie_start + timedelta(hours=hour), snoqualmie_start + timedelta(hours=hour + 1), True, 37 - hour // 3, 70, "5 mph", "SW",
           snoqualmie["WeatherCondition"].title(), "") for hour in range(12)], hourly=True))

# --- /alerts/active?point= ----------------------------------------------------------------
def collection(title, features, updated):
    return {"@context": ["https://geojson.org/geojson-ld/geojson-context.jsonld",
                         {"@version": "1.1", "wx": "https://api.weather.gov/ontology#", "@vocab": "https://api.weather.gov/ontology#"}],
            "type": "FeatureCollection", "features": features, "title": title, "updated": iso(updated)}


advisory_id = "urn:oid:2.49.0.1.840.0.5c4f1b0d8e3a2f7b6c9d0e1f2a3b4c5d6e7f8091.001.1"
advisory = {
    "id": f"{BASE}/alerts/{advisory_id}", "type": "Feature", "geometry": None,
    "properties": {
        "@id": f"{BASE}/alerts/{advisory_id}", "@type": "wx:Alert", "id": advisory_id,
        "areaDesc": "Cascades of Snohomish and King Counties",
        "geocode": {"SAME": ["053033", "053061"], "UGC": ["WAZ568"]},
        "affectedZones": [f"{BASE}/zones/forecast/WAZ568"], "references": [],
        "sent": "2025-11-02T03:12:00-08:00", "effective": "2025-11-02T03:12:00-08:00", "onset": "2025-11-02T10:00:00-08:00",
        "expires": "2025-11-02T18:00:00-08:00", "ends": "2025-11-03T10:00:00-08:00",
        "status": "Actual", "messageType": "Alert", "category": "Met",
        "severity": "Moderate", "certainty": "Likely", "urgency": "Expected",
        "event": "Winter Weather Advisory", "sender": "w-nws.webmaster@noaa.gov", "senderName": "NWS Seattle WA",
        "headline": "Winter Weather Advisory issued November 2 at 3:12AM PST until November 3 at 10:00AM PST by NWS Seattle WA",
        "description": "* WHAT...Snow. Additional snow accumulations of 6 to 10 inches above\n4000 feet.\n\n* WHERE...Cascades of Snohomish and King Counties, including\nStevens Pass.\n\n* WHEN...From 10 AM this morning to 10 AM PST Monday.\n\n* IMPACTS...Plan on slippery road conditions over the passes.",
        "instruction": "Slow down and use caution while traveling. Carry chains, a\nflashlight, food and water in case of an emergency.",
        "response": "Execute",
        "parameters": {"AWIPSidentifier": ["WSWSEW"], "NWSheadline": ["WINTER WEATHER ADVISORY REMAINS IN EFFECT UNTIL 10 AM PST MONDAY"]},
    },
}
test_message = copy.deepcopy(advisory)
test_message["properties"].update({"id": advisory_id.replace(".001.1", ".002.1"), "status": "Test", "event": "Test Message",
                                   "severity": "Unknown", "headline": "This is a test message", "instruction": None})
test_message["id"] = f"{BASE}/alerts/{test_message['properties']['id']}"
test_message["properties"]["@id"] = test_message["id"]
write("alerts_47.745_-121.0933.json", collection("Current watches, warnings, and advisories for 47.745 N, 121.0933 W", [advisory, test_message],
                                                 datetime(2025, 11, 2, 7, 0, tzinfo=PACIFIC)))
write("alerts_none.json", collection("Current watches, warnings, and advisories for 47.41 N, 121.4058 W", [], datetime(2025, 11, 3, 11, 0, tzinfo=PACIFIC)))


# --- errors ---------------------------------------------------------------------------------
def problem(kind, title, status, detail, request_id):
    body = {key: real_problem[key] for key in real_problem}  # the real member order
    body.update({"correlationId": request_id, "title": title, "type": f"{BASE}/problems/{kind}", "status": status, "detail": detail,
                 "instance": f"{BASE}/requests/{request_id}"})
    return body


write("problem_503_ForecastGridExpired.json", problem("ForecastGridExpired", "Forecast Grid Expired", 503,
                                                      "The requested forecast grid was issued 2025-11-02T03:12:00+00:00 and has expired.", "3f1e2d4c"))
write("problem_500_UnexpectedProblem.json", problem("UnexpectedProblem", "Unexpected Problem", 500,
                                                    "An unexpected problem has occurred.", "8a7b6c5d"))
with open("access_denied_403.html", "w") as f:
    f.write('<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \n'
            'You don\'t have permission to access "http&#58;&#47;&#47;api&#46;weather&#46;gov&#47;points&#47;47&#46;745&#44;&#45;121&#46;0933" on this server.<P>\n'
            'Reference&#32;&#35;18&#46;4f3c2e17&#46;1762096000&#46;1a2b3c4d\n</BODY>\n</HTML>\n')
print("wrote the derived NWS bodies")
