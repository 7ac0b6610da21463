#!/usr/bin/env python3
"""Next ferry sailings for `conditions`, as an out-of-process (Exec) plugin.

Serves `ferry:{route}` from a built-in sample timetable in the style of Washington State
Ferries: the next sailings from each terminal after the request's `now`, and the terminal
nearest the request's `location`. Standard library only, no network.

Protocol (see Plugins/Exec/README.md): one JSON request on stdin,
    {"urn", "route", "arguments": {"route": ...}, "now", "location", "places", "options"}
one JSON response on stdout,
    {"data": {...}}  or  {"error": {"kind", "message", "suggestions"}}
Options (from sources.json, passed through as "options"): "count", sailings per terminal (1-10).
"""

import difflib
import json
import math
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

PACIFIC = ZoneInfo("America/Los_Angeles")


def every(start, end, minutes):
    """Departure times "HH:MM" from start to end (inclusive) every `minutes`."""
    hour, minute = map(int, start.split(":"))
    last_hour, last_minute = map(int, end.split(":"))
    current, last = hour * 60 + minute, last_hour * 60 + last_minute
    times = []
    while current <= last:
        times.append(f"{current // 60:02d}:{current % 60:02d}")
        current += minutes
    return times


# A sample timetable (local Pacific times, every day): illustrative, not the published schedule.
ROUTES = {
    "seattle-bainbridge": {
        "name": "Seattle / Bainbridge Island",
        "crossingMinutes": 35,
        "terminals": [
            {"name": "Seattle", "latitude": 47.6026, "longitude": -122.3393,
             "departures": "05:30 06:10 07:05 07:55 08:45 09:40 10:25 11:15 12:20 13:10 14:05 14:55 "
                           "15:45 16:40 17:30 18:10 19:00 19:50 20:50 21:45 22:55".split()},
            {"name": "Bainbridge Island", "latitude": 47.6227, "longitude": -122.5107,
             "departures": "04:45 05:20 06:20 07:05 07:55 08:50 09:35 10:20 11:15 12:20 13:10 14:05 "
                           "14:55 15:50 16:45 17:30 18:15 19:00 19:55 20:55 21:55 23:00".split()},
        ],
    },
    "edmonds-kingston": {
        "name": "Edmonds / Kingston",
        "crossingMinutes": 30,
        "terminals": [
            {"name": "Edmonds", "latitude": 47.8132, "longitude": -122.3852,
             "departures": "05:35 06:20 07:05 07:55 08:40 09:30 10:15 11:05 11:50 12:40 13:25 14:15 "
                           "15:05 15:50 16:40 17:25 18:15 19:00 19:50 20:40 21:30 22:35".split()},
            {"name": "Kingston", "latitude": 47.7962, "longitude": -122.4951,
             "departures": "04:40 05:25 06:10 06:55 07:40 08:30 09:15 10:05 10:50 11:40 12:25 13:15 "
                           "14:00 14:50 15:40 16:25 17:15 18:00 18:50 19:40 20:30 21:30".split()},
        ],
    },
    "mukilteo-clinton": {
        "name": "Mukilteo / Clinton",
        "crossingMinutes": 20,
        "terminals": [
            {"name": "Mukilteo", "latitude": 47.9497, "longitude": -122.3045,
             "departures": every("05:05", "23:05", 30)},
            {"name": "Clinton", "latitude": 47.9751, "longitude": -122.3497,
             "departures": every("04:35", "22:35", 30)},
        ],
    },
}


class Failure(Exception):
    """An error to report as {"error": {...}}."""

    def __init__(self, kind, message, suggestions=()):
        super().__init__(message)
        self.kind, self.message, self.suggestions = kind, message, list(suggestions)


def parse_time(text):
    # Python before 3.11 does not read a trailing "Z".
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError("no UTC offset")
    return moment


def iso_utc(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def next_departures(times, now, count):
    """The first `count` departures at or after `now`, today's then tomorrow's, as UTC strings."""
    local_today = now.astimezone(PACIFIC).date()
    found = []
    for day in (local_today, local_today + timedelta(days=1)):
        for text in times:
            hour, minute = map(int, text.split(":"))
            departure = datetime(day.year, day.month, day.day, hour, minute, tzinfo=PACIFIC)
            if departure >= now:
                found.append(iso_utc(departure))
                if len(found) == count:
                    return found
    return found


def distance_km(lat1, lon1, lat2, lon2):
    """Great-circle distance (haversine)."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi, dlambda = phi2 - phi1, math.radians(lon2 - lon1)
    a = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlambda / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(a))


def answer(request):
    arguments = request.get("arguments") or {}
    name = str(arguments.get("route", "")).lower()
    route = ROUTES.get(name)
    if route is None:
        close = difflib.get_close_matches(name, ROUTES.keys(), n=3, cutoff=0.5)
        raise Failure("notFound", f'no ferry route "{name}" (routes: {", ".join(sorted(ROUTES))})',
                      [f"ferry:{match}" for match in close])

    count = (request.get("options") or {}).get("count", 3)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 10:
        raise Failure("configuration", f"options.count: {json.dumps(count)} is not a whole number from 1 to 10")

    try:
        now = parse_time(request["now"])
    except (KeyError, TypeError, ValueError):
        raise Failure("internal", f"the request's now {json.dumps(request.get('now'))} is not an ISO 8601 date-time")

    terminals = route["terminals"]
    sailings = [
        {"from": here["name"], "to": there["name"], "departures": next_departures(here["departures"], now, count)}
        for here, there in ((terminals[0], terminals[1]), (terminals[1], terminals[0]))
    ]
    data = {"route": name, "name": route["name"], "crossingMinutes": route["crossingMinutes"], "sailings": sailings}

    location = request.get("location") or {}
    if isinstance(location.get("latitude"), (int, float)) and isinstance(location.get("longitude"), (int, float)):
        nearest = min(terminals, key=lambda t: distance_km(location["latitude"], location["longitude"], t["latitude"], t["longitude"]))
        data["nearestTerminal"] = {
            "name": nearest["name"],
            "distanceKm": round(distance_km(location["latitude"], location["longitude"], nearest["latitude"], nearest["longitude"]), 1),
        }
    data["note"] = "sample timetable, not live WSF data"
    return data


def main():
    try:
        request = json.load(sys.stdin)
    except ValueError as error:
        print(f"ferries.py: the request is not JSON: {error}", file=sys.stderr)
        return 2
    try:
        response = {"data": answer(request)}
    except Failure as failure:
        error = {"kind": failure.kind, "message": failure.message}
        if failure.suggestions:
            error["suggestions"] = failure.suggestions
        response = {"error": error}
    json.dump(response, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
