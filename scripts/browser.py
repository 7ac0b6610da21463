#!/usr/bin/env python3
"""Loads a page in chromium-headless-shell and reports on it, over the DevTools protocol.

Usage: scripts/browser.py URL [options]   (prints one JSON object on stdout)

  --window WxH       viewport size in CSS pixels (default 1280x900)
  --dark             prefers-color-scheme: dark (default light)
  --no-script        JavaScript off (what a browser without it sees)
  --before JS        evaluated once the page has loaded (mark nodes, say)
  --then-get URL     then fetched by this script (not the page): a test's signal to its
                     upstream that the page is up, so the upstream changes only after it
  --wait JS          then wait until this expression is true, watching the DOM (no polling),
                     at most --timeout seconds; "waited" says whether it came true
  --eval JS          then evaluated; its JSON value is "value"
  --dom              include the DOM as serialized then ("dom"; DevTools' DOM domain, so it
                     works with JavaScript off too)
  --count SELECTOR   how many elements match SELECTOR ("counts"; repeatable; works without
                     JavaScript, and sees <noscript> content as elements only when it is)
  --screenshot FILE  then write a PNG of the viewport to FILE
  --element-shots DIR  then write a PNG of each element matching --element into DIR, named by
                     its data-urn (":" and "/" as "_"), or its position: the cards' looks,
                     compared before and after a change by scripts/card-shots.py
  --element SELECTOR the elements --element-shots takes (default article[data-urn])
  --timing           include the page's Navigation and Paint Timing ("timing", in ms)
  --timeout S        overall bound in seconds (default 60)

Why not `--dump-dom`: a page holding an EventSource open keeps Chromium's virtual time from
ever advancing (a pending fetch pauses it), so `--virtual-time-budget` never ends for a live
page. Driving the browser over `--remote-debugging-pipe` waits for a DOM condition instead,
without sleeps. The browser dies with this script (PR_SET_PDEATHSIG), so a killed run leaves
no Chromium behind. Exit status 0, or 2 for bad arguments, 3 when the bound ran out or the
browser failed (the JSON then has "error").
"""
import argparse
import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time

NAMES = ["chromium-headless-shell", "chromium", "headless_shell", "google-chrome"]


def find_browser():
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    for directory in os.environ.get("PATH", "").split(":"):
        for name in NAMES:
            candidate = os.path.join(os.path.dirname(directory), "lib/chromium", name)
            if os.access(candidate, os.X_OK):
                return candidate
    return None


class Failure(Exception):
    pass


class Browser:
    def __init__(self, deadline):
        binary = find_browser()
        if binary is None:
            raise Failure("no Chromium found on PATH (install chromium-headless-shell)")
        self.deadline = deadline
        commands_read, self.commands = os.pipe()
        self.replies, replies_write = os.pipe()
        libc = ctypes.CDLL(None, use_errno=True)

        def child_setup():
            # fd 3: commands to the browser; fd 4: its replies (--remote-debugging-pipe).
            os.dup2(commands_read, 3)
            os.dup2(replies_write, 4)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with this script

        arguments = [binary, "--headless", "--remote-debugging-pipe", "--disable-gpu", "--no-first-run",
                     "--disable-extensions", "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars"]
        if os.geteuid() == 0:
            arguments.append("--no-sandbox")
        self.process = subprocess.Popen(arguments + ["about:blank"], pass_fds=(3, 4), preexec_fn=child_setup,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self, predicate):
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(raw)
                if predicate(message):
                    return message
                if "method" in message:
                    self.events.append(message)
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise Failure("timed out")
            ready, _, _ = select.select([self.replies], [], [], left)
            if not ready:
                raise Failure("timed out")
            chunk = os.read(self.replies, 1 << 20)
            if not chunk:
                raise Failure("the browser exited")
            self.buffer += chunk

    def call(self, method, params=None, session=True):
        number = self.send(method, params, session)
        reply = self.receive(lambda m: m.get("id") == number)
        if "error" in reply:
            raise Failure(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def event(self, method):
        for index, message in enumerate(self.events):
            if message.get("method") == method:
                return self.events.pop(index)
        return self.receive(lambda m: m.get("method") == method)

    def evaluate(self, expression, await_promise=False):
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": await_promise, "returnByValue": True})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise Failure("script error: " + details.get("exception", {}).get("description", details.get("text", "?")))
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False)
            self.process.wait(timeout=5)
        except Exception:
            pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


WAIT = """new Promise((resolve) => {
  const ready = () => { try { return Boolean(%s); } catch (error) { return false; } };
  if (ready()) return resolve(true);
  const observer = new MutationObserver(() => { if (ready()) { observer.disconnect(); resolve(true); } });
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  setTimeout(() => { observer.disconnect(); resolve(ready()); }, %d);
})"""

TIMING = """new Promise((resolve) => {
  const report = () => {
    const n = performance.getEntriesByType("navigation")[0] || {};
    const paint = Object.fromEntries(performance.getEntriesByType("paint").map((p) => [p.name, p.startTime]));
    return {responseStart: n.responseStart, responseEnd: n.responseEnd, domInteractive: n.domInteractive,
            domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd, transferSize: n.transferSize,
            firstPaint: paint["first-paint"], firstContentfulPaint: paint["first-contentful-paint"]};
  };
  // The first paint may come after the load event: wait for it (bounded).
  if (performance.getEntriesByName("first-contentful-paint").length) return resolve(report());
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName("first-contentful-paint").length) { observer.disconnect(); resolve(report()); }
  }).observe({type: "paint", buffered: true});
  setTimeout(() => resolve(report()), 10000);
})"""


# Each matching element's box in page coordinates (whole pixels, so a clip takes no partial
# pixel) and a file name: its data-urn with ":" and "/" as "_", else its position.
ELEMENT_BOXES = """
Array.from(document.querySelectorAll(%s)).map((element, index) => {
  const box = element.getBoundingClientRect();
  const left = Math.floor(box.left + window.scrollX), top = Math.floor(box.top + window.scrollY);
  return {x: left, y: top, width: Math.ceil(box.right + window.scrollX) - left, height: Math.ceil(box.bottom + window.scrollY) - top,
          name: (element.dataset.urn || `element-${index + 1}`).replace(/[:/]/g, "_")};
}).filter((box) => box.width > 0 && box.height > 0)
"""


def main():
    parser = argparse.ArgumentParser(description="Load a page in headless Chromium and report on it (JSON).")
    parser.add_argument("url")
    parser.add_argument("--window", default="1280x900")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--no-script", action="store_true")
    parser.add_argument("--before")
    parser.add_argument("--then-get", dest="then_get")
    parser.add_argument("--wait")
    parser.add_argument("--eval", dest="expression")
    parser.add_argument("--dom", action="store_true")
    parser.add_argument("--count", action="append", default=[])
    parser.add_argument("--screenshot")
    parser.add_argument("--element-shots", dest="element_shots")
    parser.add_argument("--element", default="article[data-urn]")
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--timeout", type=float, default=60)
    options = parser.parse_args()
    try:
        width, height = (int(part) for part in options.window.lower().split("x"))
    except ValueError:
        parser.error("--window: expected WIDTHxHEIGHT, e.g. 390x844")

    started = time.monotonic()
    deadline = started + options.timeout
    report = {"url": options.url}
    browser = None
    status = 0
    try:
        browser = Browser(deadline)
        target = browser.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        browser.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        browser.call("Page.enable")
        browser.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if options.dark else "light"}]})
        if options.no_script:
            browser.call("Emulation.setScriptExecutionDisabled", {"value": True})
        navigation = browser.call("Page.navigate", {"url": options.url})
        if navigation.get("errorText"):
            raise Failure(f"loading {options.url}: {navigation['errorText']}")
        frame = navigation.get("frameId")
        browser.event("Page.loadEventFired")
        report["loaded"] = True
        if options.before:
            report["before"] = browser.evaluate(options.before)
        if options.then_get:
            import urllib.request
            with urllib.request.urlopen(options.then_get, timeout=max(1, deadline - time.monotonic())) as reply:
                report["thenGet"] = reply.status
        if options.wait:
            left_ms = max(0, int((deadline - time.monotonic()) * 1000) - 2000)
            report["waited"] = browser.evaluate(WAIT % (options.wait, left_ms), await_promise=True)
        if options.expression:
            report["value"] = browser.evaluate(options.expression)
        if options.timing:
            report["timing"] = browser.evaluate(TIMING, await_promise=True)
        if options.dom or options.count:
            root = browser.call("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
            if options.dom:
                report["dom"] = browser.call("DOM.getOuterHTML", {"nodeId": root})["outerHTML"]
            report["counts"] = {selector: len(browser.call("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"])
                                for selector in options.count}
        if options.screenshot:
            import base64
            shot = browser.call("Page.captureScreenshot", {"format": "png"})
            with open(options.screenshot, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
        if options.element_shots:
            import base64
            boxes = browser.evaluate(ELEMENT_BOXES % json.dumps(options.element))
            os.makedirs(options.element_shots, exist_ok=True)
            report["elementShots"] = []
            for box in boxes:
                clip = {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"], "scale": 1}
                shot = browser.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})
                path = os.path.join(options.element_shots, box["name"] + ".png")
                with open(path, "wb") as file:
                    file.write(base64.b64decode(shot["data"]))
                report["elementShots"].append(path)
        # Navigations of the main frame after the first load: a reload would show here.
        report["navigations"] = sum(1 for m in browser.events if m.get("method") == "Page.frameNavigated"
                                    and m["params"]["frame"].get("id") == frame and not m["params"]["frame"].get("parentId")) - 1
    except Failure as failure:
        report["error"] = str(failure)
        status = 3
    except (OSError, ValueError) as error:
        report["error"] = f"{type(error).__name__}: {error}"
        status = 3
    finally:
        if browser is not None:
            browser.close()
    report["seconds"] = round(time.monotonic() - started, 3)
    print(json.dumps(report))
    return status


if __name__ == "__main__":
    sys.exit(main())
