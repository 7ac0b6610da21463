#!/usr/bin/env python3
"""Measures `conditions mcp`: round trip of a `resolve` of three local URNs, and idle RSS.

Usage: scripts/mcp-latency.py BINARY [CALLS]
BINARY is conditions, preferably a release build as `scripts/dev` makes it; run from the
package root.
`conditions-bench --scenario 10` (scripts/dev bench) measures the same with targets.
Raw JSON-RPC over pipes with no client library, so the round trip is the server's time plus
two pipe hops (~0.1 ms). Prints JSON: median, p90 and max in ms; VmRSS after initialize and after the calls, VmHWM, in MiB.
"""
import json
import os
import statistics
import subprocess
import sys
import time

binary = sys.argv[1]
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 200
server = subprocess.Popen([binary, "mcp", "--config", "sources.json", "--profile", "offline"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          env={"PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": "/tmp"})


def call(message):
    server.stdin.write((json.dumps(message) + "\n").encode())
    server.stdin.flush()
    line = server.stdout.readline()
    if not line:
        sys.exit("server closed its output")
    return json.loads(line)


def rss():
    fields = {}
    with open(f"/proc/{server.pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = round(int(value.split()[0]) / 1024, 1)
    return fields


call({"jsonrpc": "2.0", "id": 0, "method": "initialize",
      "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
started = rss()
request = {"jsonrpc": "2.0", "method": "tools/call",
           "params": {"name": "resolve", "arguments": {"urns": ["pass:snoqualmie", "moon:now", "phases:5"]}}}
times = []
for n in range(calls + 5):
    request["id"] = n + 1
    start = time.perf_counter()
    reply = call(request)
    elapsed = (time.perf_counter() - start) * 1000
    assert len(reply["result"]["structuredContent"]["results"]) == 3, reply
    if n >= 5:  # the first calls warm up caches and lazily loaded code
        times.append(elapsed)
times.sort()
idle = rss()
server.stdin.close()
server.wait(timeout=30)
print(json.dumps({"calls": calls, "median_ms": round(statistics.median(times), 2),
                  "p90_ms": round(times[int(len(times) * 0.9)], 2), "max_ms": round(times[-1], 2),
                  "rss_after_initialize_mib": started.get("VmRSS"),
                  "rss_after_calls_mib": idle.get("VmRSS"), "peak_rss_mib": idle.get("VmHWM")}))
