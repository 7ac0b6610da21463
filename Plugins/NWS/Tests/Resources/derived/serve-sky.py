#!/usr/bin/env python3
"""A tiny stand-in for api.weather.gov to record Fixtures/sky/*.json from the built binary
(NWSStandIn, the tests' stand-in, lives in the test harness and has no program of its own).

It serves what NWSStandIn serves for `sky:`: `/points/{lat},{lon}` from the derived points
bodies here (Stevens, Snoqualmie; any other point answers as Stevens), and every
`/gridpoints/{wfo}/{x},{y}` from the REAL TAE 58,65 body (../real/), every timestamp moved by
the same whole hours so its first hour is the one given (retime-grid.py does the same for the
fuzz seed). NWS's URLs in the bodies point at this server.

    python3 serve-sky.py 8765 2026-11-21T14:00:00 &
    # a config whose nws instance has "options": {"baseURL": "http://127.0.0.1:8765"} and routes sky to it:
    conditions --config sources.json --no-cache --now 2026-11-21T14:20:00Z --format ndjson sky:stevens > Fixtures/sky/stevens.json
"""
import datetime
import http.server
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent
port = int(sys.argv[1])
first_hour = datetime.datetime.fromisoformat(sys.argv[2])
base = f"http://127.0.0.1:{port}"
stamp = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\+00:00")


def retimed(body):
    starts = [datetime.datetime.fromisoformat(m.group(1)) for m in re.finditer(stamp.pattern + "/", body)]
    shift = first_hour - min(starts)
    return stamp.sub(lambda m: (datetime.datetime.fromisoformat(m.group(1)) + shift).isoformat() + "+00:00", body)


def read(name):
    return (here / name).read_text(encoding="utf-8").replace("https://api.weather.gov", base)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if parts[0] == "points" and len(parts) == 2:
            body = read("points_47.41_-121.4058.json" if parts[1] == "47.41,-121.4058" else "points_47.745_-121.0933.json")
        elif parts[0] == "gridpoints" and len(parts) == 3:
            body = retimed(read("../real/nws_gridpoints_TAE_58_65_2022-02-04.json"))
        else:
            self.send_response(404)
            self.end_headers()
            return
        data = body.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/geo+json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
