#!/usr/bin/env python3
"""Home Assistant's availability of the entities of an MQTT device discovery payload, replayed
over a recording of MQTT messages.

Usage (run with .build/mqtt-venv/bin/python, which has Jinja2):
  availability.py (--device OBJECT_ID | --discovery FILE) [--prefix homeassistant]
                  [--end T] [--json] < recording.jsonl

The recording is JSON lines as recorder.py writes them, in order:
  {"t": 1733000000.12, "topic": "...", "payload": "...", "retained": true}
("t", seconds, is optional; without it expire_after can only be followed up to the first state).

--device follows the device discovery topic <prefix>/device/OBJECT_ID/config in the recording:
its entities are set up when its payload arrives, updated when a changed payload arrives, and
removed by an empty payload or when a component is left out. --discovery FILE takes a payload
from a file instead; its entities are set up before the first message.

It prints every change of each entity's availability and, per entity, whether it was ever
unavailable after it had first become available; it exits 1 if any was, 0 if none, 2 on bad
input. --json prints one JSON object instead.

What it reproduces, from Home Assistant core 2026.11.0 (homeassistant/components/mqtt/):
- entity.py, MqttAvailabilityMixin: the availability topics are `availability_topic` (with
  `payload_available`, `payload_not_available`, `availability_template`) and every entry of
  `availability` (`topic`, its own payloads, `value_template`), keyed by topic. Each topic starts
  unavailable (`self._available[topic] = False`), and so does `latest`
  (`self._available_latest = False`). A message on a topic is rendered by its template, if any
  (a Jinja error renders the raw payload, as Template.async_render_with_possible_json_value
  does), then compared: equal to payload_available sets the topic and `latest` available, equal
  to payload_not_available sets both unavailable, anything else changes nothing.
  `available`: no availability topics -> available; mode `all` -> every topic available
  (a topic not yet heard from counts as unavailable); `any` -> at least one; `latest` (the
  default) -> the last payload_available/payload_not_available heard on any topic.
  The lookup is by the message's exact topic, so a wildcard availability topic never matches.
  A discovery update keeps the state of topics still configured (a new topic starts unavailable).
- sensor.py / binary_sensor.py, `available`: additionally unavailable while expired. With
  `expire_after` > 0 an entity starts expired (`_setup_from_config` sets `_expired = True`, also
  on every changed discovery update), any message on its state_topic un-expires it, and it
  expires `expire_after` seconds after the last one (`async_call_later`).
- discovery.py: device options shared at the root (SHARED_OPTIONS) apply to every component that
  does not set them; abbreviated keys are expanded; `~` base topics are replaced; an unchanged
  payload for a component is ignored (entity.py, "Ignoring unchanged update").
- When an entity is set up (or subscribes a new topic) the broker replays the retained message
  of each of its topics: here, the last message with "retained": true recorded before on that
  topic, in recording order (an empty retained payload clears it). A recording made without
  MQTT v5's retain-as-published (recorder.py uses it) marks only replays as retained.
Not reproduced: HA's own broker connection (entities are unavailable while HA is disconnected;
the recording is taken as HA's view), restoring expire_after state across an HA restart.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable

# The entries of homeassistant/components/mqtt/abbreviations.py (2026.11.0) for the keys read here
# or merged as shared options; HA replaces them before validating.
ABBREVIATIONS = {
    "avty": "availability",
    "avty_mode": "availability_mode",
    "avty_t": "availability_topic",
    "avty_tpl": "availability_template",
    "cmd_t": "command_topic",
    "cmps": "components",
    "dev": "device",
    "e": "encoding",
    "exp_aft": "expire_after",
    "json_attr_t": "json_attributes_topic",
    "json_attr_tpl": "json_attributes_template",
    "msg_exp_int": "message_expiry_interval",
    "o": "origin",
    "p": "platform",
    "pl_avail": "payload_available",
    "pl_not_avail": "payload_not_available",
    "pl_off": "payload_off",
    "pl_on": "payload_on",
    "stat_t": "state_topic",
    "t": "topic",
    "uniq_id": "unique_id",
    "val_tpl": "value_template",
    "dev_cla": "device_class",
    "unit_of_meas": "unit_of_measurement",
    "stat_cla": "state_class",
    "ops": "options",
}
# mqtt/schemas.py SHARED_OPTIONS: root options a component inherits unless it sets them.
SHARED_OPTIONS = (
    "availability",
    "availability_mode",
    "availability_template",
    "availability_topic",
    "command_topic",
    "encoding",
    "message_expiry_interval",
    "payload_available",
    "payload_not_available",
    "state_topic",
    "qos",
)
DEFAULT_PAYLOAD_AVAILABLE = "online"
DEFAULT_PAYLOAD_NOT_AVAILABLE = "offline"
# mqtt/discovery.py TOPIC_MATCHER, for the part after "<prefix>/".
TOPIC_MATCHER = re.compile(r"(?P<component>\w+)/(?:(?P<node_id>[a-zA-Z0-9_-]+)/)?(?P<object_id>[a-zA-Z0-9_-]+)/config")


def _expand(mapping: Any) -> None:
    if not isinstance(mapping, dict):
        return
    for short in set(ABBREVIATIONS).intersection(mapping):
        mapping[ABBREVIATIONS[short]] = mapping.pop(short)


def _expand_all(payload: dict[str, Any], component_only: bool = False) -> None:
    """discovery.py _replace_all_abbreviations (for the keys above)."""
    _expand(payload)
    avail = payload.get("availability")
    for item in avail if isinstance(avail, list) else [avail]:
        _expand(item)
    if component_only:
        return
    components = payload.get("components")
    if isinstance(components, dict):
        for config in components.values():
            if isinstance(config, dict):
                _expand_all(config, component_only=True)


def _replace_topic_base(config: dict[str, Any]) -> None:
    """discovery.py _replace_topic_base."""
    base = config.pop("~")
    for key, value in list(config.items()):
        if isinstance(value, str) and value and key.endswith("topic"):
            if value[0] == "~":
                config[key] = value = f"{base}{value[1:]}"
            if value[-1] == "~":
                config[key] = f"{value[:-1]}{base}"
    avail = config.get("availability")
    if avail:
        for item in avail if isinstance(avail, list) else [avail]:
            if isinstance(item, dict) and (topic := str(item.get("topic"))):
                if topic[0] == "~":
                    item["topic"] = topic = f"{base}{topic[1:]}"
                if topic[-1] == "~":
                    item["topic"] = f"{topic[:-1]}{base}"


def components_of(payload: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The config HA gives each component of a device discovery payload: abbreviations
    expanded, shared options merged in, `~` replaced. A removal ({"platform": ...} alone) maps
    to a config holding only its platform. `device` and `origin` are left out."""
    payload = json.loads(json.dumps(payload))  # a deep copy
    _expand_all(payload)
    result: dict[str, dict[str, Any]] = {}
    for component_id, config in (payload.get("components") or {}).items():
        if not isinstance(config, dict):
            continue
        config = dict(config)
        platform = config.pop("platform", None)
        if config:
            for option in SHARED_OPTIONS:
                if option in payload and option not in config:
                    config[option] = json.loads(json.dumps(payload[option]))
            if "~" in config:
                _replace_topic_base(config)
        config["platform"] = platform
        result[component_id] = config
    return result


def topic_matches(topic_filter: str, topic: str) -> bool:
    """MQTT topic filter matching (+ one level, # the rest)."""
    filter_levels = topic_filter.split("/")
    levels = topic.split("/")
    for i, part in enumerate(filter_levels):
        if part == "#":
            return not (i == 0 and topic.startswith("$"))
        if i >= len(levels):
            return False
        if part == "+":
            if i == 0 and levels[0].startswith("$"):
                return False
            continue
        if part != levels[i]:
            return False
    return len(filter_levels) == len(levels)


def read_recording(lines: Iterable[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """Messages of a recording, and a problem for each line that is not one."""
    messages: list[dict[str, Any]] = []
    problems: list[str] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            problems.append(f"line {number}: not JSON ({error})")
            continue
        if (
            not isinstance(message, dict)
            or not isinstance(message.get("topic"), str)
            or not isinstance(message.get("payload"), str)
            or not isinstance(message.get("retained", False), bool)
            or not isinstance(message.get("t", 0), (int, float))
        ):
            problems.append(f"line {number}: not a message ({line.strip()[:120]})")
            continue
        message["index"] = len(messages)
        messages.append(message)
    return messages, problems


class _Renderer:
    """Renders an availability template like MqttValueTemplate with HA's lenient undefined:
    a Jinja error gives the raw payload back, any other error drops the message (None)."""

    def __init__(self) -> None:
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        self.env = ImmutableSandboxedEnvironment()
        self.cache: dict[str, Any] = {}

    def render(self, source: str, payload: str) -> str | None:
        import jinja2

        try:
            template = self.cache.get(source) or self.env.from_string(source)
            self.cache[source] = template
        except jinja2.TemplateError:
            return payload
        variables: dict[str, Any] = {"value": payload}
        try:
            variables["value_json"] = json.loads(payload)
        except ValueError:
            pass
        try:
            return template.render(**variables).strip()
        except (jinja2.TemplateError, RecursionError):
            return payload
        except Exception:  # noqa: BLE001 - HA logs MqttValueTemplateException and drops the message
            return None


@dataclass
class _Entity:
    component_id: str
    config: dict[str, Any]
    topics: dict[str, dict[str, Any]] = field(default_factory=dict)
    available_by_topic: dict[str, bool] = field(default_factory=dict)
    available_latest: bool = False
    expire_after: int | None = None
    expired: bool | None = None
    expires_at: float | None = None
    first_available: bool = False
    unavailable_after_available: bool = False
    changes: list[dict[str, Any]] = field(default_factory=list)
    last: bool | None = None

    def setup(self, config: dict[str, Any]) -> list[str]:
        """_availability_setup_from_config + _availability_prepare_subscribe_topics and the
        expire_after part of _setup_from_config. Returns the topics newly subscribed."""
        self.config = config
        topics: dict[str, dict[str, Any]] = {}
        if "availability_topic" in config:
            topics[config["availability_topic"]] = {
                "on": config.get("payload_available", DEFAULT_PAYLOAD_AVAILABLE),
                "off": config.get("payload_not_available", DEFAULT_PAYLOAD_NOT_AVAILABLE),
                "template": config.get("availability_template"),
            }
        avail = config.get("availability")
        for item in (avail if isinstance(avail, list) else [avail] if avail else []):
            topics[item["topic"]] = {
                "on": item.get("payload_available", DEFAULT_PAYLOAD_AVAILABLE),
                "off": item.get("payload_not_available", DEFAULT_PAYLOAD_NOT_AVAILABLE),
                "template": item.get("value_template"),
            }
        new = [topic for topic in topics if topic not in self.topics]
        self.topics = topics
        self.available_by_topic = {topic: self.available_by_topic.get(topic, False) for topic in topics}
        self.expire_after = config.get("expire_after")
        if self.expire_after is not None and self.expire_after > 0:
            self.expired = True
            self.expires_at = None
        else:
            self.expired = None
        return new

    @property
    def mode(self) -> str:
        return self.config.get("availability_mode", "latest")

    def available(self) -> bool:
        if not self.topics:
            mixin = True
        elif self.mode == "all":
            mixin = all(self.available_by_topic.values())
        elif self.mode == "any":
            mixin = any(self.available_by_topic.values())
        else:
            mixin = self.available_latest
        return mixin and (self.expire_after is None or not self.expired)

    def availability_message(self, renderer: _Renderer, topic: str, payload: str) -> None:
        avail_topic = self.topics[topic]
        if avail_topic["template"]:
            rendered = renderer.render(avail_topic["template"], payload)
            if rendered is None:
                return
            payload = rendered
        if payload == avail_topic["on"]:
            self.available_by_topic[topic] = True
            self.available_latest = True
        elif payload == avail_topic["off"]:
            self.available_by_topic[topic] = False
            self.available_latest = False

    def state_message(self, t: float | None) -> None:
        if self.expire_after:
            self.expired = False
            self.expires_at = None if t is None else t + self.expire_after

    def expire_until(self, t: float | None) -> float | None:
        """Expire the entity if its timer ran out by t; returns when it did."""
        if self.expire_after and not self.expired and self.expires_at is not None and t is not None and t >= self.expires_at:
            self.expired = True
            return self.expires_at
        return None

    def note(self, index: int | None, t: float | None, reason: str) -> None:
        now = self.available()
        if now == self.last:
            return
        if now:
            self.first_available = True
        elif self.first_available:
            self.unavailable_after_available = True
        self.changes.append({"index": index, "t": t, "available": now, "reason": reason})
        self.last = now


def _retained_before(messages: list[dict[str, Any]], index: int, topic: str) -> dict[str, Any] | None:
    """The broker's retained message on topic just before messages[index]."""
    for message in reversed(messages[:index]):
        if message["topic"] == topic and message.get("retained"):
            return message if message["payload"] != "" else None
    return None


def availability(
    messages: list[dict[str, Any]],
    *,
    discovery: dict[str, Any] | None = None,
    device_topic: str | None = None,
    end: float | None = None,
) -> dict[str, dict[str, Any]]:
    """Replays messages; returns per component id: {"changes": [{"index", "t", "available",
    "reason"}...], "first_available": bool, "unavailable_after_available": bool,
    "available_at_end": bool or None (not set up), "steps": [HA's availability after each
    message, None while not set up]}.

    Either discovery (a payload, set up before the first message) or device_topic (followed
    in the recording) is given."""
    renderer = _Renderer()
    entities: dict[str, _Entity] = {}  # set up now
    known: dict[str, _Entity] = {}  # every entity ever set up, for its history
    last_config: dict[str, dict[str, Any]] = {}
    steps: dict[str, list[bool | None]] = {}

    def configure(payload: dict[str, Any] | None, index: int, t: float | None) -> list[tuple[_Entity, str]]:
        """Sets up, updates or removes entities; returns the (entity, topic) subscriptions
        that are new, whose retained messages the broker replays ("\0state": the state topic)."""
        configs = {
            component_id: config
            for component_id, config in (components_of(payload) if payload else {}).items()
            if set(config) != {"platform"}
        }
        for component_id in [c for c in entities if c not in configs]:
            entity = entities.pop(component_id)
            last_config.pop(component_id, None)
            entity.changes.append({"index": index, "t": t, "available": None, "reason": "removed"})
            entity.last = None
        replay: list[tuple[_Entity, str]] = []
        for component_id, config in configs.items():
            if last_config.get(component_id) == config:
                continue  # HA ignores an unchanged update
            last_config[component_id] = config
            entity = entities.get(component_id)
            if entity is None:  # a new entity, or one set up again after its removal
                entity = known.get(component_id) or _Entity(component_id, config)
                entity.topics, entity.available_by_topic, entity.available_latest = {}, {}, False
                entities[component_id] = known[component_id] = entity
                old_state_topic = None
            else:
                old_state_topic = entity.config.get("state_topic")
            replay += [(entity, topic) for topic in entity.setup(config)]
            if config.get("state_topic") and config.get("state_topic") != old_state_topic:
                replay.append((entity, "\0state"))
        return replay

    def deliver(entity: _Entity, message: dict[str, Any], t: float | None, index: int, reason: str) -> None:
        topic = message["topic"]
        if topic in entity.topics:
            entity.availability_message(renderer, topic, message["payload"])
        state_topic = entity.config.get("state_topic")
        if isinstance(state_topic, str) and topic_matches(state_topic, topic):
            entity.state_message(t)
        entity.note(index, t, reason)

    def replay_retained(pairs: list[tuple[_Entity, str]], index: int, t: float | None) -> None:
        found: list[tuple[dict[str, Any], _Entity]] = []
        for entity, topic in pairs:
            if topic == "\0state":
                state_topic = entity.config["state_topic"]
                seen: set[str] = set()
                for message in reversed(messages[:index]):
                    if message["topic"] in seen or not topic_matches(state_topic, message["topic"]):
                        continue
                    if message.get("retained"):
                        seen.add(message["topic"])
                        if message["payload"] != "":
                            found.append((message, entity))
            elif (message := _retained_before(messages, index, topic)) is not None:
                found.append((message, entity))
        for message, entity in sorted(found, key=lambda pair: pair[0]["index"]):
            deliver(entity, message, t, index, f"retained replay of {message['topic']}")

    if discovery is not None:
        t0 = messages[0].get("t") if messages else None
        configure(discovery, 0, t0)
        for entity in entities.values():
            entity.note(0, t0, "set up")

    for message in messages:
        index, t = message["index"], message.get("t")
        for entity in entities.values():
            if (expired_at := entity.expire_until(t)) is not None:
                entity.note(index, expired_at, f"expired ({entity.expire_after} s after its last state)")
        if device_topic is not None and message["topic"] == device_topic:
            payload: Any = None
            if message["payload"]:
                try:
                    payload = json.loads(message["payload"])
                except ValueError:
                    payload = "invalid"
            if payload is None or (
                isinstance(payload, dict) and not payload.get("migrate_discovery") and not payload.get("migr_discvry")
            ):
                replay = configure(payload, index, t)
                for entity in entities.values():
                    entity.note(index, t, "discovery")
                replay_retained(replay, index, t)
            # an invalid payload or a migration request leaves the entities as they are
        else:
            for entity in entities.values():
                deliver(entity, message, t, index, f"message on {message['topic']}")
        for component_id, entity in known.items():
            steps.setdefault(component_id, [None] * index)
            steps[component_id].append(entity.available() if component_id in entities else None)

    if end is not None:
        for entity in entities.values():
            if (expired_at := entity.expire_until(end)) is not None:
                entity.note(None, expired_at, f"expired ({entity.expire_after} s after its last state)")

    return {
        component_id: {
            "changes": entity.changes,
            "first_available": entity.first_available,
            "unavailable_after_available": entity.unavailable_after_available,
            "available_at_end": entity.available() if component_id in entities else None,
            "steps": steps.get(component_id, []),
        }
        for component_id, entity in known.items()
    }


def ever_unavailable_after_available(report: dict[str, dict[str, Any]]) -> bool:
    return any(entry["unavailable_after_available"] for entry in report.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--device", metavar="OBJECT_ID", help="follow <prefix>/device/OBJECT_ID/config in the recording")
    source.add_argument("--discovery", metavar="FILE", help="a discovery payload (JSON file), set up before the first message")
    parser.add_argument("--prefix", default="homeassistant", help="the discovery prefix (default homeassistant)")
    parser.add_argument("--node-id", help="the optional node id level of the device discovery topic")
    parser.add_argument("--end", type=float, help="follow expire_after up to this time (default: the last message)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    messages, problems = read_recording(sys.stdin)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 2
    discovery = None
    device_topic = None
    if args.discovery:
        try:
            with open(args.discovery, encoding="utf-8") as file:
                discovery = json.load(file)
        except (OSError, ValueError) as error:
            print(f"{args.discovery}: {error}", file=sys.stderr)
            return 2
    else:
        middle = f"{args.node_id}/" if args.node_id else ""
        device_topic = f"{args.prefix}/device/{middle}{args.device}/config"
        if not any(message["topic"] == device_topic for message in messages):
            print(f"{device_topic}: no discovery payload in the recording", file=sys.stderr)
            return 2
    end = args.end if args.end is not None else (messages[-1].get("t") if messages else None)
    report = availability(messages, discovery=discovery, device_topic=device_topic, end=end)
    if args.json:
        print(json.dumps({"components": report, "unavailable_after_available": ever_unavailable_after_available(report)}))
    else:
        for component_id, entry in report.items():
            for change in entry["changes"]:
                state = {True: "available", False: "unavailable", None: "gone"}[change["available"]]
                where = f"#{change['index']}" if change["index"] is not None else "end"
                when = f" t={change['t']:.3f}" if isinstance(change["t"], (int, float)) else ""
                print(f"{component_id}: {state} at {where}{when} ({change['reason']})")
            verdict = "was unavailable after becoming available" if entry["unavailable_after_available"] else (
                "stayed available once available" if entry["first_available"] else "never became available")
            print(f"{component_id}: {verdict}")
    return 1 if ever_unavailable_after_available(report) else 0


if __name__ == "__main__":
    sys.exit(main())
