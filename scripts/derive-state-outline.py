#!/usr/bin/env python3
"""Writes a US state's outline for the dashboard map, simplified from the US Census Bureau's 2010
cartographic boundary file of the states at 1:5,000,000 (gz_2010_us_040_00_5m, as GeoJSON; public
domain). Each map layer's SOURCES.md gives the exact upstream file and the command that made it:

    scripts/derive-state-outline.py gz_2010_us_040_00_5m.json --state Washington --geo-id 0400000US53 \
        --middle-latitude 47.5 --start=-124.7247,48.3835 --tolerance 0.01 \
        -o Plugins/WSDOT/Sources/Resources/washington-outline.json
    scripts/derive-state-outline.py gz_2010_us_040_00_5m.json --state California --geo-id 0400000US06 \
        --middle-latitude 37 --start=-124.2115,42.0009 --tolerance 0.02 \
        -o Plugins/Caltrans/Sources/Resources/california-outline.json

Steps, all deterministic and standard library only:
1. Keep the mainland (the ring of largest area) and every other ring of at least
   --min-island-km2 (100: Washington keeps the San Juans, Whidbey and Vashon-Maury; California
   the four largest Channel Islands). Holes: the upstream has none; any would be dropped.
2. Rotate the mainland ring to start at the vertex nearest --start (Cape Flattery; where the
   Oregon line meets the sea), so the output does not depend on the upstream's first vertex.
3. Simplify each ring with Douglas-Peucker at --tolerance (degrees of latitude), measuring
   distances with longitudes scaled by the cosine of --middle-latitude (the map's projection).
4. Round to ROUND_DIGITS decimals and drop points that rounding made equal to their
   predecessor.
5. Orient every ring clockwise with x = longitude, y = latitude (negative shoelace area) and
   close it implicitly (the first point is not repeated at the end), as the dashboard's
   outline is written. With --rfc7946 the rings are instead closed and counter-clockwise,
   as RFC 7946 section 3.1.6 asks of GeoJSON.
6. Refuse to write if a simplified ring crosses itself or another ring.

Mainland first, then islands from largest to smallest, one ring per line.
"""
import argparse
import json
import math
import os
import sys

ROUND_DIGITS = 3
SOURCE = ("US Census Bureau, 2010 cartographic boundary file, states, 1:5,000,000 "
          "(gz_2010_us_040_00_5m), public domain; GeoJSON from "
          "github.com/tonyslu/socioeconomic_choropleth@7cfabe8baea32f96fbd5c6e990b08ff1d24141a9 "
          "gz_2010_us_040_00_5m.json; see SOURCES.md")

KX = 1.0  # x scale, longitude degrees to latitude degrees: cos(--middle-latitude), set by main()
KM_PER_DEG = 111.2


def load_state(path, name, geo_id):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # eric.clst.org's conversions are Latin-1 ("Puerto Rico" aside, ASCII)
    doc = json.loads(text)
    features = doc["features"] if doc.get("type") == "FeatureCollection" else [doc]
    for feature in features:
        props = feature.get("properties") or {}
        if props.get("NAME") == name or props.get("name") == name or props.get("GEO_ID") == geo_id:
            geometry = feature["geometry"]
            if geometry["type"] == "Polygon":
                return [geometry["coordinates"]]
            if geometry["type"] == "MultiPolygon":
                return geometry["coordinates"]
            sys.exit(f"{name}'s geometry is a {geometry['type']}, not a Polygon or MultiPolygon")
    sys.exit(f"no {name} feature in {path}")


def open_ring(ring):
    points = [(float(p[0]), float(p[1])) for p in ring]
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    return points


def signed_area(points):
    """Shoelace area in degrees squared, x = longitude, y = latitude (negative: clockwise)."""
    total = 0.0
    for i, (x1, y1) in enumerate(points):
        x2, y2 = points[(i + 1) % len(points)]
        total += x1 * y2 - x2 * y1
    return total / 2


def area_km2(points):
    return abs(signed_area(points)) * KX * KM_PER_DEG * KM_PER_DEG


def distance_to_segment(p, a, b):
    """Distance from p to segment ab, longitudes scaled by cos(--middle-latitude)."""
    px, py = p[0] * KX, p[1]
    ax, ay = a[0] * KX, a[1]
    bx, by = b[0] * KX, b[1]
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(px - ax, py - ay)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def douglas_peucker(points, tolerance):
    """Simplifies an open polyline; both ends are kept. Iterative, first farthest point wins ties."""
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        farthest, index = -1.0, None
        for i in range(first + 1, last):
            d = distance_to_segment(points[i], points[first], points[last])
            if d > farthest:
                farthest, index = d, i
        if index is not None and farthest > tolerance:
            keep[index] = True
            stack.append((first, index))
            stack.append((index, last))
    return [p for p, k in zip(points, keep) if k]


def simplify_ring(points, tolerance):
    """A closed ring: split at its first point and the point farthest from it, simplify both halves."""
    start = points[0]
    far = max(range(len(points)), key=lambda i: (math.hypot((points[i][0] - start[0]) * KX, points[i][1] - start[1]), -i))
    a = douglas_peucker(points[: far + 1], tolerance)
    b = douglas_peucker(points[far:] + [start], tolerance)
    return a[:-1] + b[:-1]


def rounded(points):
    out = []
    for x, y in points:
        q = (round(x, ROUND_DIGITS), round(y, ROUND_DIGITS))
        if not out or out[-1] != q:
            out.append(q)
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


def segments_cross(p1, p2, p3, p4):
    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 0) - (v < 0)

    def on_segment(a, b, c):
        return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])

    o1, o2, o3, o4 = orient(p1, p2, p3), orient(p1, p2, p4), orient(p3, p4, p1), orient(p3, p4, p2)
    if o1 != o2 and o3 != o4:
        return True
    return (o1 == 0 and on_segment(p1, p2, p3)) or (o2 == 0 and on_segment(p1, p2, p4)) or \
        (o3 == 0 and on_segment(p3, p4, p1)) or (o4 == 0 and on_segment(p3, p4, p2))


def crossings(rings):
    """Pairs of edges that touch or cross, other than neighbours in one ring."""
    edges = []
    for r, ring in enumerate(rings):
        n = len(ring)
        for i in range(n):
            edges.append((r, i, n, ring[i], ring[(i + 1) % n]))
    found = []
    for a in range(len(edges)):
        ra, ia, na, a1, a2 = edges[a]
        for b in range(a + 1, len(edges)):
            rb, ib, nb, b1, b2 = edges[b]
            if ra == rb and (ib == ia + 1 or (ia == 0 and ib == na - 1)):
                continue
            if max(a1[0], a2[0]) < min(b1[0], b2[0]) or max(b1[0], b2[0]) < min(a1[0], a2[0]):
                continue
            if max(a1[1], a2[1]) < min(b1[1], b2[1]) or max(b1[1], b2[1]) < min(a1[1], a2[1]):
                continue
            if segments_cross(a1, a2, b1, b2):
                found.append((ra, ia, rb, ib))
    return found


def main():
    global KX
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("upstream", help="GeoJSON holding the state (e.g. gz_2010_us_040_00_5m.json)")
    parser.add_argument("--state", required=True, help="the feature's NAME (Washington)")
    parser.add_argument("--geo-id", required=True, help="the feature's GEO_ID (0400000US53)")
    parser.add_argument("--middle-latitude", type=float, required=True, help="the map's projection: longitudes scaled by its cosine")
    parser.add_argument("--start", required=True, help="LON,LAT: the mainland ring starts at its vertex nearest this point")
    parser.add_argument("--tolerance", type=float, required=True, help="Douglas-Peucker tolerance in degrees of latitude")
    parser.add_argument("--min-island-km2", type=float, default=100.0, help="smaller rings than the mainland are dropped below this")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--rfc7946", action="store_true", help="closed, counter-clockwise rings (RFC 7946) instead of the dashboard's open, clockwise ones")
    args = parser.parse_args()
    KX = math.cos(math.radians(args.middle_latitude))
    TOLERANCE_DEG, MIN_ISLAND_KM2 = args.tolerance, args.min_island_km2
    START = tuple(float(v) for v in args.start.split(","))

    polygons = load_state(args.upstream, args.state, args.geo_id)
    rings = [open_ring(polygon[0]) for polygon in polygons]  # exterior rings; holes dropped
    before = sum(len(r) for r in rings)
    rings.sort(key=lambda r: -abs(signed_area(r)))
    mainland, others = rings[0], rings[1:]
    kept = [r for r in others if area_km2(r) >= MIN_ISLAND_KM2]
    dropped = [r for r in others if area_km2(r) < MIN_ISLAND_KM2]

    start = min(range(len(mainland)), key=lambda i: (math.hypot((mainland[i][0] - START[0]) * KX, mainland[i][1] - START[1]), i))
    mainland = mainland[start:] + mainland[:start]

    result = []
    for ring in [mainland] + kept:
        if signed_area(ring) > 0:  # make clockwise before simplifying, keeping the first point first
            ring = [ring[0]] + ring[:0:-1]
        simple = rounded(simplify_ring(ring, TOLERANCE_DEG))
        if len(simple) < 3 or signed_area(simple) >= 0:
            sys.exit("a ring collapsed or turned over when simplified; lower --tolerance")
        result.append(simple)

    bad = crossings(result)
    if bad:
        sys.exit(f"simplified rings touch or cross at (ring, edge) pairs {bad[:10]}; lower --tolerance")

    if args.rfc7946:
        written = [[ring[0]] + ring[:0:-1] + [ring[0]] for ring in result]
    else:
        written = result

    def fmt(ring):
        return "[[" + ",".join(f"[{x:.{ROUND_DIGITS}f},{y:.{ROUND_DIGITS}f}]" for x, y in ring) + "]]"

    properties = {"name": args.state, "source": SOURCE, "derivedBy": "scripts/derive-state-outline.py"}
    text = ('{"type":"Feature","properties":' + json.dumps(properties, separators=(",", ":")) +
            ',"geometry":{"type":"MultiPolygon","coordinates":[\n' +
            ",\n".join(fmt(ring) for ring in written) + "\n]}}\n")
    json.loads(text)  # well-formed
    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)

    after = sum(len(r) for r in result)
    xs = [p[0] for r in result for p in r]
    ys = [p[1] for r in result for p in r]
    print(f"upstream: {len(rings)} rings, {before} points (first point not repeated)", file=sys.stderr)
    print(f"kept: mainland {len(mainland)} -> {len(result[0])} points; islands " +
          ", ".join(f"{area_km2(r):.0f} km2 {len(r)} -> {len(s)}" for r, s in zip(kept, result[1:])), file=sys.stderr)
    print(f"dropped: {len(dropped)} rings under {MIN_ISLAND_KM2:.0f} km2 (" +
          ", ".join(f"{area_km2(r):.1f}" for r in dropped) + " km2)", file=sys.stderr)
    print(f"written: {after} points in {len(result)} rings, tolerance {TOLERANCE_DEG} deg, rounded to {ROUND_DIGITS} decimals", file=sys.stderr)
    print(f"bbox: lon {min(xs):.3f} .. {max(xs):.3f}, lat {min(ys):.3f} .. {max(ys):.3f}", file=sys.stderr)
    print(f"-> {os.path.normpath(args.output)}", file=sys.stderr)


if __name__ == "__main__":
    main()
