#!/usr/bin/env python3
"""Pictures of every card that draws a figure, and how much two sets of them differ.

Usage:
  scripts/card-shots.py capture DIR [--binary PATH]
      Serves the dashboard from fixtures (the repository's Fixtures/, the Astronomy module, and
      WSDOT's snowfall from its recorded real seasons on a loopback stand-in) and writes one PNG
      per card, 360 px wide, light and dark, into DIR/light and DIR/dark.
  scripts/card-shots.py compare BEFORE AFTER [--limit PERCENT]
      For each picture in both, the share of pixels that differ; exit 1 when any exceeds
      PERCENT (default 1) or the two sets hold different cards, or their sizes differ.

Every URN here is fixed in time (a dated moon, night and snowfall season; recorded reports),
except phases:4, the next four phases from now, which stay the same for days: two captures
on one day see the same cards. Used to show that redrawing a figure with other means leaves
it looking as it did (docs/dashboard.md).
"""
import argparse
import http.server
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import threading
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URNS = ["moon:2026-11-26", "phases:4", "snowfall:stevens:2022", "snowpack:stevens", "avalanche:stevens",
        "night:stevens:2026-11-22", "sky:stevens"]
# Ages ("Updated 241 d 9 h ago") are the one thing on a card that changes by the minute; they
# are written as one fixed age before the picture, and taken from the page's ticker.
STILL = """document.querySelectorAll("time[data-ago]").forEach((time) => { time.removeAttribute("data-ago"); time.textContent = "1 d ago"; }); true"""
SNOWFALL = {"MountainPassId=10&Year=2022": "Plugins/WSDOT/Tests/Resources/real/DERIVED_wsdot_snowfall_stevens_2022-23.json"}


class Snowfall(http.server.BaseHTTPRequestHandler):
    """WSDOT's snowfall endpoint for the one season captured: its recorded body, else []."""

    def do_GET(self):
        query = self.path.partition("?")[2]
        body = b"[]"
        if self.path.startswith("/snow/SnowFallData") and query in SNOWFALL:
            with open(os.path.join(ROOT, SNOWFALL[query]), "rb") as file:
                body = file.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def capture(directory, binary):
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Snowfall)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    work = tempfile.mkdtemp()
    config = {
        "location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
        "places": {"stevens": {"name": "Stevens Pass", "latitude": 47.745, "longitude": -121.093333}},
        "sources": {"fixtures": {"module": "Fixtures", "ttl": "1h", "options": {"directory": os.path.join(ROOT, "Fixtures")}},
                    "astronomy": {"module": "Astronomy"},
                    "wsdot": {"module": "WSDOT", "ttl": 300,
                              "options": {"snowfallURL": f"http://127.0.0.1:{upstream.server_port}/snow/SnowFallData"}}},
        "routes": {"moon": "astronomy", "phases": "astronomy", "night": "astronomy", "snowfall": "wsdot",
                   "sky": "fixtures", "avalanche": "fixtures", "snowpack": "fixtures"},
        "cache": {"enabled": False},
    }
    with open(os.path.join(work, "sources.json"), "w") as file:
        json.dump(config, file)
    log = open(os.path.join(work, "serve.log"), "w+")
    server = subprocess.Popen([binary, "serve", "--config", os.path.join(work, "sources.json"), "--listen", "127.0.0.1:0",
                               "--no-history"], stderr=log, stdout=subprocess.DEVNULL, env=dict(os.environ, TZ="UTC"))
    try:
        base = None
        while base is None and server.poll() is None:
            log.seek(0)
            found = re.search(r"listening on (http://[0-9.:]+)", log.read())
            base = found.group(1) if found else None
        if base is None:
            log.seek(0)
            sys.exit(f"card-shots: the server did not start: {log.read()[-2000:]}")
        # One page per card: a card's place on a page of several moves with the others' heights
        # (an age's words wrapping), and a card moved by a fraction of a pixel is drawn
        # anew, every edge's anti-aliasing changed.
        for scheme in ["light", "dark"]:
            out = os.path.join(directory, scheme)
            for urn in URNS:
                arguments = [sys.executable, os.path.join(ROOT, "scripts/browser.py"), base + "/?urn=" + urn, "--window", "360x740",
                             "--wait", "document.documentElement.dataset.live === 'open'", "--eval", STILL, "--element-shots", out]
                report = json.loads(subprocess.run(arguments + (["--dark"] if scheme == "dark" else []),
                                                   capture_output=True, text=True, check=False).stdout or "{}")
                if report.get("error") or not report.get("waited") or len(report.get("elementShots", [])) != 1:
                    sys.exit(f"card-shots: {scheme} {urn}: {report.get('error', 'the page never went live, or showed no card')}")
            print(f"card-shots: {scheme}: {len(URNS)} cards in {out}", file=sys.stderr)
    finally:
        server.terminate()
        server.wait()
        upstream.shutdown()


def pixels(path):
    """The PNG's width, height and rows of RGBA bytes (8-bit RGB or RGBA, not interlaced:
    what Chromium writes)."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    position, idat, header = 8, b"", None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunk = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: depth {depth}, colour type {colour}, interlace {interlace}: not one Chromium writes")
    channels = 4 if colour == 6 else 3
    stride = width * channels
    raw = zlib.decompress(idat)
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                a, b, c = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[x] = (line[x] + (left if a <= b and a <= c else up if b <= c else corner)) & 255
        rows.append(bytes(line) if channels == 4 else bytes(v for i in range(width) for v in (*line[i * 3:i * 3 + 3], 255)))
        previous = line
    return width, height, rows


def compare(before, after, limit):
    failed = False
    for scheme in ["light", "dark"]:
        names = lambda folder: sorted(n for n in os.listdir(os.path.join(folder, scheme)) if n.endswith(".png"))
        old, new = names(before), names(after)
        if old != new:
            print(f"{scheme}: different cards: before {old}, after {new}")
            failed = True
        for name in sorted(set(old) & set(new)):
            w1, h1, a = pixels(os.path.join(before, scheme, name))
            w2, h2, b = pixels(os.path.join(after, scheme, name))
            if (w1, h1) != (w2, h2):
                print(f"{scheme}/{name}: {w1}×{h1} px before, {w2}×{h2} after")
                failed = True
                continue
            differing = sum(1 for y in range(h1) for x in range(w1) if a[y][x * 4:x * 4 + 4] != b[y][x * 4:x * 4 + 4])
            share = 100 * differing / (w1 * h1)
            print(f"{scheme}/{name}: {w1}×{h1} px, {differing} differ ({share:.2f} %)")
            failed = failed or share > limit
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description="Pictures of the dashboard's figure cards, and their differences.")
    commands = parser.add_subparsers(dest="command", required=True)
    shoot = commands.add_parser("capture")
    shoot.add_argument("directory")
    shoot.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/conditions"))
    diff = commands.add_parser("compare")
    diff.add_argument("before")
    diff.add_argument("after")
    diff.add_argument("--limit", type=float, default=1.0)
    options = parser.parse_args()
    if options.command == "capture":
        capture(os.path.abspath(options.directory), options.binary)
        return 0
    return compare(options.before, options.after, options.limit)


if __name__ == "__main__":
    sys.exit(main())
