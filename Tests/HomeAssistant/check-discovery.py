#!/usr/bin/env python3
"""Checks the Home Assistant MQTT device discovery payloads of a recording.

Usage (run with .build/mqtt-venv/bin/python: jsonschema, Jinja2):
  check-discovery.py [--prefix homeassistant] [--schema FILE] [--allow-missing-state]
                     [--require-retained] < recording.jsonl

The recording is JSON lines, {"topic": ..., "payload": <string>, "retained": bool} (recorder.py
also writes "t"). Every non-empty payload on <prefix>/device/[<node_id>/]<object_id>/config is
checked against discovery-schema.json (next to this file). The payload each such topic holds at
the end of the recording (the latest; an empty one removes the device) is then checked for what
a schema cannot see:
- the topic's node and object ids are [a-zA-Z0-9_-]+ (HA ignores other discovery topics);
- every component's unique_id is unique over all devices (HA itself only refuses a second entity
  of the same platform with the same unique_id; this asks for more);
- every value_template is a Jinja template that refers to value_json and renders, with Jinja2 (the
  library HA uses, in HA's sandbox, but with undefined names an error instead of HA's empty
  string), against the latest retained state recorded on the component's state_topic (its own or
  the device's shared one; without a retained one, the latest recorded state), to what HA accepts:
  binary sensors payload_on or payload_off (default ON, OFF); enum sensors one of options;
  timestamp (and uptime) sensors an ISO 8601 date and time with a UTC offset; date sensors an ISO
  8601 date; sensors HA treats as numeric (a device class other than date, enum, timestamp, uptime,
  or a state_class, unit_of_measurement or suggested_display_precision) a finite number; any
  sensor a state of at most 255 characters. "None" (HA's unknown state) is accepted only where the
  template read a JSON null from the state. A component without value_template is checked the
  same way with the state payload itself;
- json_attributes_template renders (against the latest state on json_attributes_topic) to a JSON
  object, as does the payload itself without a template; keys HA drops from attributes are named;
- what HA only warns about: a state_class the device class does not allow, a unit the device class
  does not list (DEVICE_CLASS_STATE_CLASSES, DEVICE_CLASS_UNITS, from the schema's x-home-assistant).
It prints one line per problem ("topic: problem") and exits 1 if there are any; otherwise it
prints "ok N devices, M entities". Exit 2: unusable input.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from availability import components_of, read_recording, topic_matches  # noqa: E402

import jinja2  # noqa: E402
import jinja2.filters  # noqa: E402
import jinja2.meta  # noqa: E402
from jinja2.sandbox import ImmutableSandboxedEnvironment  # noqa: E402
import jsonschema  # noqa: E402
from jsonschema.exceptions import best_match  # noqa: E402

ID = re.compile(r"^[a-zA-Z0-9_-]+$")
# entity.py MQTT_ATTRIBUTES_BLOCKED, and sensor.py MQTT_SENSOR_ATTRIBUTES_BLOCKED.
ATTRIBUTES_BLOCKED = {
    "available", "device_info", "entity_category", "entity_id", "entity_registry_enabled_default",
    "extra_state_attributes", "force_update", "should_poll", "state", "unique_id", "group_entities",
    "assumed_state", "device_class", "entity_picture", "friendly_name", "icon", "supported_features",
    "unit_of_measurement",
}
SENSOR_ATTRIBUTES_BLOCKED = {"last_reset", "state_class"}


# --- Jinja, as HA sets it up (helpers/template): a sandbox; the few HA filters and functions a
# value template commonly uses, reproduced (others are unknown to this checker and reported).
_SENTINEL = object()


def _no_default(name: str, value: Any) -> None:
    raise ValueError(f"Template error: {name} got invalid input '{value}' when rendering template and no default was specified")


def _float(value: Any, default: Any = _SENTINEL) -> Any:
    try:
        return float(value)
    except (ValueError, TypeError, OverflowError):
        if default is _SENTINEL:
            _no_default("float", value)
        return default


def _int(value: Any, default: Any = _SENTINEL, base: int = 10) -> Any:
    try:
        result = jinja2.filters.do_int(value, default=default, base=base)
    except OverflowError:
        result = default
    if result is _SENTINEL:
        _no_default("int", value)
    return result


def _is_number(value: Any) -> bool:
    try:
        return math.isfinite(float(value))
    except (ValueError, TypeError, OverflowError):
        return False


def _round(value: Any, precision: int = 0, method: str = "common", default: Any = _SENTINEL) -> Any:
    try:
        number = float(value)
        if method == "ceil":
            return math.ceil(number * (10**precision)) / (10**precision)
        if method == "floor":
            return math.floor(number * (10**precision)) / (10**precision)
        if method == "half":
            return round(number * 2) / 2.0
        return round(number, precision)
    except (ValueError, TypeError):
        if default is _SENTINEL:
            _no_default("round", value)
        return default


def _is_defined(value: Any) -> Any:
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()  # noqa: SLF001
    return value


def _iif(value: Any, if_true: Any = True, if_false: Any = False, if_none: Any = _SENTINEL) -> Any:
    if value is None and if_none is not _SENTINEL:
        return if_none
    return if_true if value else if_false


def _as_datetime(value: Any, default: Any = _SENTINEL) -> Any:
    if isinstance(value, datetime.datetime):
        return value
    try:
        return datetime.datetime.fromtimestamp(float(value), datetime.UTC)
    except (ValueError, TypeError, OverflowError):
        pass
    try:
        return datetime.datetime.fromisoformat(str(value))
    except ValueError:
        if default is _SENTINEL:
            _no_default("as_datetime", value)
        return default


def _as_timestamp(value: Any, default: Any = _SENTINEL) -> Any:
    try:
        moment = value if isinstance(value, datetime.datetime) else datetime.datetime.fromisoformat(str(value))
        return moment.timestamp()
    except (ValueError, TypeError):
        if default is _SENTINEL:
            _no_default("as_timestamp", value)
        return default


def environment() -> ImmutableSandboxedEnvironment:
    env = ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined)
    env.add_extension("jinja2.ext.loopcontrols")
    env.add_extension("jinja2.ext.do")
    for name, function in {
        "float": _float, "int": _int, "is_number": _is_number, "round": _round, "iif": _iif,
        "as_datetime": _as_datetime, "as_timestamp": _as_timestamp,
        "to_json": lambda value, **kw: json.dumps(value, **kw), "from_json": json.loads,
    }.items():
        env.filters[name] = function
        env.globals[name] = function
    env.filters["is_defined"] = _is_defined
    env.tests["is_number"] = _is_number
    return env


class _NullTracker:
    seen = False


def _tracked_json(text: str, tracker: _NullTracker) -> Any:
    """The payload parsed as JSON, with mappings and lists that note when a null is read."""

    class TDict(dict):
        def __getitem__(self, key: Any) -> Any:
            value = super().__getitem__(key)
            if value is None:
                tracker.seen = True
            return value

        def get(self, key: Any, default: Any = None) -> Any:
            if key in self and super().__getitem__(key) is None:
                tracker.seen = True
            return super().get(key, default)

    class TList(list):
        def __getitem__(self, key: Any) -> Any:
            value = super().__getitem__(key)
            if value is None or (isinstance(value, list) and None in value):
                tracker.seen = True
            return value

    for cls, name in ((TDict, "dict"), (TList, "list")):  # Jinja names them in its errors
        cls.__module__, cls.__name__, cls.__qualname__ = "builtins", name, name

    def convert(value: Any) -> Any:
        if isinstance(value, dict):
            return TDict({k: convert(v) for k, v in value.items()})
        if isinstance(value, list):
            return TList(convert(v) for v in value)
        return value

    parsed = json.loads(text)
    if parsed is None:
        tracker.seen = True
    return convert(parsed)


def _required_branches(error: jsonschema.ValidationError) -> list[str]:
    """The keys an anyOf/oneOf of {"required": [...], ...} branches asks for, else []."""
    value = error.validator_value
    if error.validator in ("oneOf", "anyOf") and all(isinstance(v, dict) and "required" in v for v in value):
        return [" and ".join(v["required"]) for v in value]
    return []


def describe(error: jsonschema.ValidationError) -> str:
    """A validation error in a line, without the instance (jsonschema puts all of it in the
    messages of not and oneOf)."""
    value = error.validator_value
    if error.validator == "not" and isinstance(value, dict) and set(value) == {"required"}:
        return f"must not have {' together with '.join(value['required'])}"
    if keys := _required_branches(error):
        if "valid under each of" in error.message:
            return f"has {' as well as '.join(keys)}; give one"
        return f"needs {' or '.join(keys)}"
    if error.validator in ("not", "oneOf", "anyOf", "allOf"):
        comment = error.schema.get("$comment") if isinstance(error.schema, dict) else None
        return f"fails {error.validator}" + (f" ({comment})" if comment else "")
    return error.message


class Checker:
    def __init__(self, schema: dict[str, Any], prefix: str, allow_missing_state: bool, require_retained: bool) -> None:
        self.validator = jsonschema.Draft202012Validator(schema)
        self.tables = schema.get("x-home-assistant", {})
        self.prefix = prefix.rstrip("/")
        self.allow_missing_state = allow_missing_state
        self.require_retained = require_retained
        self.env = environment()
        self.problems: list[str] = []
        self.messages: list[dict[str, Any]] = []

    def problem(self, topic: str, text: str) -> None:
        self.problems.append(f"{topic}: {text}")

    # --- the recording

    def is_device_topic(self, topic: str) -> bool:
        return topic.startswith(f"{self.prefix}/device/") and topic.endswith("/config")

    def check_topic(self, topic: str) -> bool:
        rest = topic[len(self.prefix) + 1:]
        levels = rest.split("/")
        if len(levels) not in (3, 4):
            self.problem(topic, "not a device discovery topic (<prefix>/device/[<node_id>/]<object_id>/config); HA ignores it")
            return False
        ok = True
        for name, level in zip(("node id", "object id") if len(levels) == 4 else ("object id",), levels[1:-1]):
            if not ID.match(level):
                self.problem(topic, f"{name} '{level}' is not [a-zA-Z0-9_-]+; HA ignores this discovery topic")
                ok = False
        return ok

    def latest_state(self, topic_filter: str, before: int) -> tuple[dict[str, Any] | None, bool]:
        """The latest retained message matching topic_filter before index `before` (an empty
        retained payload clears it), else the latest one recorded; and whether it was retained."""
        retained: dict[str, dict[str, Any] | None] = {}
        latest = None
        for message in self.messages[:before]:
            if not topic_matches(topic_filter, message["topic"]):
                continue
            if message.get("retained"):
                retained[message["topic"]] = message if message["payload"] != "" else None
            if message["payload"] != "":
                latest = message
        candidates = [m for m in retained.values() if m is not None]
        if candidates:
            return max(candidates, key=lambda m: m["index"]), True
        return latest, False

    def run(self, lines: list[str]) -> int:
        self.messages, bad = read_recording(lines)
        if bad:
            for line in bad:
                print(line)
            return 2
        final: dict[str, dict[str, Any]] = {}
        seen_device = False
        for message in self.messages:
            topic = message["topic"]
            if not self.is_device_topic(topic):
                continue
            if message["payload"] == "":
                final.pop(topic, None)
                continue
            if not self.check_topic(topic):
                continue
            if self.require_retained and not message.get("retained"):
                self.problem(topic, "discovery payload not retained")
            try:
                payload = json.loads(message["payload"])
            except ValueError as error:
                self.problem(topic, f"payload is not JSON ({error})")
                continue
            if isinstance(payload, dict) and set(payload) <= {"migrate_discovery", "migr_discvry"} and payload:
                continue  # a discovery migration request, not a configuration
            seen_device = True
            errors = list(self.validator.iter_errors(payload))
            for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
                shown = error if error.validator in ("oneOf", "anyOf") and _required_branches(error) else (
                    best_match(error.context) if error.context else error)
                where = "/".join(str(p) for p in shown.absolute_path) or "(root)"
                self.problem(topic, f"schema: {where}: {describe(shown)}")
            if errors:
                continue  # HA ignores an invalid payload; the topic keeps the configuration it had
            final[topic] = {"payload": payload, "index": message["index"]}

        if not seen_device:
            self.problem(f"{self.prefix}/device/+/config", "no device discovery payload in the recording")
        unique_ids: dict[str, str] = {}
        entities = 0
        for topic, entry in final.items():
            for component_id, config in components_of(entry["payload"]).items():
                if set(config) == {"platform"}:
                    continue
                entities += 1
                where = f"component {component_id}"
                if re.search(r"\s", component_id):
                    self.problem(topic, f"{where}: the component id has whitespace; HA joins ids with spaces in discovery ids")
                unique_id = config.get("unique_id")
                if unique_id in unique_ids:
                    self.problem(topic, f"{where}: unique_id '{unique_id}' is also {unique_ids[unique_id]}")
                else:
                    unique_ids[unique_id] = f"component {component_id} of {topic}"
                self.check_component(topic, where, config, len(self.messages))
        if self.problems:
            for line in self.problems:
                print(line)
            return 1
        print(f"ok {len(final)} devices, {entities} entities")
        return 0

    # --- one component

    def compile(self, topic: str, where: str, key: str, source: str) -> jinja2.Template | None:
        try:
            return self.env.from_string(source)
        except jinja2.TemplateError as error:
            self.problem(topic, f"{where}: {key} does not compile: {error}")
            return None

    def render(self, template: jinja2.Template, payload: str, config: dict[str, Any]) -> tuple[str, bool]:
        tracker = _NullTracker()
        variables: dict[str, Any] = {"value": payload}
        try:
            variables["value_json"] = _tracked_json(payload, tracker)
        except ValueError:
            pass
        domain = config.get("platform")
        if isinstance(config.get("default_entity_id"), str):
            variables["entity_id"] = config["default_entity_id"]
        elif domain:
            variables["entity_id"] = f"{domain}.{re.sub(r'[^a-z0-9_]+', '_', str(config.get('name') or config.get('unique_id')).lower())}"
        variables["name"] = config.get("name")
        return template.render(**variables).strip(), tracker.seen

    def state_for(self, topic: str, where: str, key: str, topic_filter: str, before: int) -> dict[str, Any] | None:
        message, _ = self.latest_state(topic_filter, before)
        if message is None and not self.allow_missing_state:
            self.problem(topic, f"{where}: no state recorded on {key} '{topic_filter}' to render against")
        return message

    def check_component(self, topic: str, where: str, config: dict[str, Any], before: int) -> None:
        platform = config.get("platform")
        state_topic = config.get("state_topic")
        value_template = config.get("value_template")
        template = None
        if value_template is not None:
            template = self.compile(topic, where, "value_template", value_template)
            if template is not None and "value_json" not in jinja2.meta.find_undeclared_variables(self.env.parse(value_template)):
                self.problem(topic, f"{where}: value_template does not refer to value_json")
        if isinstance(state_topic, str) and (value_template is None or template is not None):
            message = self.state_for(topic, where, "state_topic", state_topic, before)
            if message is not None:
                self.check_state(topic, where, config, template, message)
        self.check_attributes(topic, where, config, before)
        self.check_classes(topic, where, config)
        for key in ("availability_template", "last_reset_value_template"):
            if isinstance(config.get(key), str):
                self.compile(topic, where, key, config[key])
        for item in config.get("availability") or []:
            if isinstance(item.get("value_template"), str):
                self.compile(topic, where, "availability value_template", item["value_template"])

    def check_state(self, topic: str, where: str, config: dict[str, Any], template: jinja2.Template | None, message: dict[str, Any]) -> None:
        payload = message["payload"]
        source = f"the {'retained ' if message.get('retained') else ''}state on {message['topic']} ({payload[:80]!r})"
        if template is not None:
            try:
                state, read_null = self.render(template, payload, config)
            except Exception as error:  # noqa: BLE001 - any error is HA's "template error"
                self.problem(topic, f"{where}: value_template fails on {source}: {type(error).__name__}: {error}")
                return
        else:
            state = payload
            read_null = payload == "None"  # the payload HA documents for the unknown state
        if state == "None":
            if not read_null:
                self.problem(topic, f"{where}: renders 'None' (unknown) from {source}, which holds no null")
            return
        platform = config.get("platform")
        if platform == "binary_sensor":
            on, off = config.get("payload_on", "ON"), config.get("payload_off", "OFF")
            if state not in (on, off):
                self.problem(topic, f"{where}: renders {state!r} from {source}; a binary sensor needs {on!r} or {off!r} (or 'None')")
            return
        device_class = config.get("device_class")
        if len(state) > self.tables.get("max_state_length", 255):
            self.problem(topic, f"{where}: renders a state of {len(state)} characters from {source}; HA keeps at most 255")
            return
        if device_class == "enum":
            options = config.get("options")
            if options is not None and state not in options:
                self.problem(topic, f"{where}: renders {state!r} from {source}, not one of options {options}")
            return
        if device_class in ("timestamp", "uptime"):
            try:
                moment = datetime.datetime.fromisoformat(state)
            except ValueError:
                moment = None
            if moment is None or moment.tzinfo is None:
                self.problem(topic, f"{where}: renders {state!r} from {source}; a {device_class} sensor needs an ISO 8601 date and time with a UTC offset")
            return
        if device_class == "date":
            try:
                datetime.date.fromisoformat(state)
            except ValueError:
                self.problem(topic, f"{where}: renders {state!r} from {source}; a date sensor needs an ISO 8601 date")
            return
        if self.numeric_expected(config):
            try:
                number = float(state)
            except ValueError:
                number = None
            if number is None or not math.isfinite(number):
                self.problem(topic, f"{where}: renders {state!r} from {source}; HA expects a number here (device_class {device_class}, state_class {config.get('state_class')}, unit {config.get('unit_of_measurement')})")

    def numeric_expected(self, config: dict[str, Any]) -> bool:
        """sensor/entity.py _numeric_state_expected."""
        device_class = config.get("device_class")
        if device_class in self.tables.get("non_numeric_device_classes", ["date", "enum", "timestamp", "uptime"]):
            return False
        unit = config.get("unit_of_measurement")
        if isinstance(unit, str) and not unit.strip():
            unit = None  # mqtt/sensor.py drops a blank unit
        if config.get("state_class") is not None or unit is not None or config.get("suggested_display_precision") is not None:
            return True
        return device_class is not None

    def check_attributes(self, topic: str, where: str, config: dict[str, Any], before: int) -> None:
        attributes_topic = config.get("json_attributes_topic")
        source_template = config.get("json_attributes_template")
        if source_template is not None and attributes_topic is None:
            self.problem(topic, f"{where}: json_attributes_template without json_attributes_topic does nothing")
            return
        if attributes_topic is None:
            return
        template = None
        if source_template is not None:
            template = self.compile(topic, where, "json_attributes_template", source_template)
            if template is None:
                return
        message = self.state_for(topic, where, "json_attributes_topic", attributes_topic, before)
        if message is None:
            return
        source = f"the message on {message['topic']} ({message['payload'][:80]!r})"
        text = message["payload"]
        if template is not None:
            try:
                text, _ = self.render(template, text, config)
            except Exception as error:  # noqa: BLE001
                self.problem(topic, f"{where}: json_attributes_template fails on {source}: {type(error).__name__}: {error}")
                return
        try:
            attributes = json.loads(text)
        except ValueError:
            attributes = None
        if not isinstance(attributes, dict):
            self.problem(topic, f"{where}: json attributes from {source} are not a JSON object: {text[:120]!r}")
            return
        blocked = ATTRIBUTES_BLOCKED | (SENSOR_ATTRIBUTES_BLOCKED if config.get("platform") == "sensor" else set())
        if dropped := sorted(set(attributes) & blocked):
            self.problem(topic, f"{where}: json attributes {dropped} are dropped by HA")

    def check_classes(self, topic: str, where: str, config: dict[str, Any]) -> None:
        if config.get("platform") != "sensor" or config.get("device_class") is None:
            return
        device_class = config["device_class"]
        state_class = config.get("state_class")
        allowed_state_classes = self.tables.get("device_class_state_classes", {}).get(device_class)
        if state_class is not None and allowed_state_classes is not None and state_class not in allowed_state_classes:
            self.problem(topic, f"{where}: HA warns: state_class '{state_class}' is impossible for device_class '{device_class}' (allowed: {allowed_state_classes or 'none'})")
        units = self.tables.get("device_class_units", {}).get(device_class)
        unit = config.get("unit_of_measurement")
        if isinstance(unit, str) and not unit.strip():
            unit = None
        unit = self.tables.get("ambiguous_units", {}).get(unit, unit)
        if units is not None and unit is None and None not in units:
            self.problem(topic, f"{where}: HA warns: device_class '{device_class}' needs a unit_of_measurement, one of {[u for u in units if u]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefix", default="homeassistant", help="the discovery prefix (default homeassistant)")
    parser.add_argument("--schema", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "discovery-schema.json"))
    parser.add_argument("--allow-missing-state", action="store_true", help="a component without any recorded state is not a problem")
    parser.add_argument("--require-retained", action="store_true", help="discovery payloads must be published retained")
    args = parser.parse_args()
    try:
        with open(args.schema, encoding="utf-8") as file:
            schema = json.load(file)
    except (OSError, ValueError) as error:
        print(f"{args.schema}: {error}")
        return 2
    checker = Checker(schema, args.prefix, args.allow_missing_state, args.require_retained)
    return checker.run(sys.stdin.readlines())


if __name__ == "__main__":
    sys.exit(main())
