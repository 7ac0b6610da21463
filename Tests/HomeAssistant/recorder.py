#!/usr/bin/env python3
"""Records MQTT messages as JSON lines, subscribing the way Home Assistant's MQTT integration does
(paho-mqtt, the client library HA uses, at HA's pinned version 2.1.0).

Usage (run with .build/mqtt-venv/bin/python):
  recorder.py --host HOST --port PORT [--username USER --password-env VAR] [--cafile CA.pem]
              [--topic T ...] [--protocol 5|3.1.1] [--qos 0|1|2] --out FILE

Each message becomes one line of FILE (appended, flushed per line):
  {"t": <time.time()>, "topic": "...", "payload": "<UTF-8 text>", "retained": <bool>}
(a payload that is not UTF-8 is written with replacement characters, plus "payload_base64").
With MQTT 5 (the default) the subscription asks for retain-as-published, so "retained" tells
whether the publisher set the retain flag; with 3.1.1 a broker sets it only on the retained
messages it replays when the subscription is made.

It prints "ready" on stdout (flushed) each time its subscriptions are acknowledged: once at the
start, and again after every reconnection, so a test waits for that line rather than a timer.
When the broker goes away it reconnects (paho's loop_forever with retry_first_connection,
backing off from 0.25 s to 2 s) and subscribes again, and the broker replays its retained
messages, as it does for HA. SIGTERM or SIGINT disconnects and exits 0. A broker refusing the
credentials ends it with exit status 3 (HA would retry; a test is better told at once).
--password-env names the environment variable holding the password, so it appears in no
process listing. --cafile turns on TLS, verifying the broker's certificate against CA.pem.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import signal
import sys
import time
import uuid

import paho.mqtt.client as mqtt
from paho.mqtt.subscribeoptions import SubscribeOptions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--username")
    parser.add_argument("--password-env", metavar="VAR", help="environment variable holding the password")
    parser.add_argument("--cafile", help="CA certificate (PEM): connect with TLS and verify the broker against it")
    parser.add_argument("--topic", action="append", help="topic filter to subscribe (repeatable; default '#')")
    parser.add_argument("--protocol", choices=["5", "3.1.1"], default="5")
    parser.add_argument("--qos", type=int, choices=[0, 1, 2], default=1)
    parser.add_argument("--out", required=True, help="JSON lines file (appended)")
    args = parser.parse_args()
    topics = args.topic or ["#"]

    password = None
    if args.password_env:
        if args.password_env not in os.environ:
            print(f"recorder: ${args.password_env} is not set", file=sys.stderr)
            return 2
        password = os.environ[args.password_env]

    v5 = args.protocol == "5"
    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2,
        client_id=f"conditions-recorder-{uuid.uuid4().hex[:12]}",
        protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
        **({} if v5 else {"clean_session": True}),
    )
    if args.username is not None:
        client.username_pw_set(args.username, password)
    if args.cafile:
        client.tls_set(ca_certs=args.cafile)
    client.reconnect_delay_set(min_delay=0.25, max_delay=2)  # type: ignore[arg-type]

    out = open(args.out, "a", encoding="utf-8", buffering=1)
    stopping = False
    exit_code = 0
    pending: set[int] = set()

    def on_connect(client: mqtt.Client, userdata, flags, reason_code, properties) -> None:
        nonlocal stopping, exit_code
        if reason_code.is_failure:
            print(f"recorder: connection refused: {reason_code}", file=sys.stderr, flush=True)
            if str(reason_code) in ("Bad user name or password", "Not authorized"):
                stopping, exit_code = True, 3  # retrying will not help
                client.disconnect()
            return
        if v5:
            options = SubscribeOptions(qos=args.qos, retainAsPublished=True)
            result, mid = client.subscribe([(topic, options) for topic in topics])
        else:
            result, mid = client.subscribe([(topic, args.qos) for topic in topics])
        if result == mqtt.MQTT_ERR_SUCCESS and mid is not None:
            pending.add(mid)

    def on_subscribe(client: mqtt.Client, userdata, mid, reason_codes, properties) -> None:
        if mid not in pending:
            return
        pending.discard(mid)
        failed = [str(code) for code in reason_codes if code.is_failure]
        if failed:
            print(f"recorder: subscription refused: {', '.join(failed)}", file=sys.stderr, flush=True)
            return
        print("ready", flush=True)

    def on_disconnect(client: mqtt.Client, userdata, flags, reason_code, properties) -> None:
        if not stopping:
            print(f"recorder: disconnected ({reason_code}); reconnecting", file=sys.stderr, flush=True)

    def on_message(client: mqtt.Client, userdata, message: mqtt.MQTTMessage) -> None:
        record: dict[str, object] = {"t": time.time(), "topic": message.topic}
        try:
            record["payload"] = message.payload.decode("utf-8")
        except UnicodeDecodeError:
            record["payload"] = message.payload.decode("utf-8", errors="replace")
            record["payload_base64"] = base64.b64encode(message.payload).decode("ascii")
        record["retained"] = bool(message.retain)
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        out.flush()

    client.on_connect = on_connect
    client.on_subscribe = on_subscribe
    client.on_disconnect = on_disconnect
    client.on_message = on_message

    def stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True
        client.disconnect()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    client.connect_async(args.host, args.port, keepalive=30)
    try:
        # Returns once disconnect() was called; reconnects on its own otherwise.
        client.loop_forever(timeout=0.2, retry_first_connection=True)
    finally:
        out.close()
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
