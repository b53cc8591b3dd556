"""schema/events.schema.json says what the decoder says: every line `pullparity ingest` stores
validates, and every line it quarantines for a field's sake does not. The lines are the sample
logs plus one or more cases for each field rule, accepted and rejected; the verdicts are read
back from the database (`events.raw`, `quarantine.raw`/`category`)."""

import json
from pathlib import Path

import jsonschema
import pytest

from pullparity_cli import Pullparity

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "schema" / "events.schema.json").read_text(encoding="utf-8"))
# Why the decoder quarantined a line for what its fields hold (not for bytes that are not JSON,
# and not a conflict, which is about an earlier line).
FIELD_REASONS = {"missing_field", "wrong_type", "invalid_value", "unknown_type", "bad_timestamp", "not_an_object"}

BASE = {"event_id": "", "session_id": "s-1", "ts": 1794800000000, "platform": "pwa", "app": "padel",
        "type": "pull_start"}
DROP = object()

# (the fields that differ from BASE, whether the decoder accepts the line)
CASES = [
    ({}, True),
    *[({"ts": ts}, True) for ts in (
        "2026-11-20T10:15:02.345Z", "2026-11-20t10:15:02+01:00", "2026-11-20 10:15:02.1-05:30",
        "2024-02-29T00:00:00Z", "2026-12-31T23:59:60z", 946684800000, 1794800000000.125)],
    *[({"ts": ts}, False) for ts in (
        "2026-11-20T10:15:02", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-11-20T24:00:00Z", "2026-11-20T10:60:00Z", "2026-11-20T10:15:02.Z", "2026-11-20T10:15:02+1:00",
        "2026-11-20T10:15:02+24:00", "1999-06-01T00:00:00Z", "2026-11-20", "yesterday", 1794800000,
        4102444800000, -1, True, None, [], DROP)],
    *[({"event_id": value}, False) for value in ("", "x" * 129, 5, None, DROP)],
    ({"event_id": "e" * 128}, True),
    ({"session_id": "é" * 128}, True),
    *[({"session_id": value}, False) for value in ("", "y" * 129, 7, None, DROP)],
    *[({"seq": value}, True) for value in (0, 3.0, -1, None)],
    *[({"seq": value}, False) for value in (1.5, "3", 9e15, True, {})],
    *[({"platform": value}, True) for value in ("ios", "android", "web_2-x")],
    *[({"platform": value}, False) for value in ("iOS", "", "p w a", "pwå", None, 1, DROP)],
    ({"app": "phlock"}, True),
    *[({"app": value}, False) for value in ("", 3, None, DROP)],
    *[({"type": value}, False) for value in ("pull_started", "PULL_START", 3, None, DROP)],
    *[({"profile": value}, True) for value in (None, "padel")],
    ({"profile": 3}, False),
    *[({"screen": value}, True) for value in (None, "feed")],
    *[({"screen": value}, False) for value in (1, ["feed"])],
    *[({"empty": value}, True) for value in (True, False, None)],
    *[({"empty": value}, False) for value in ("yes", 0)],
    ({"app_version": 2, "os_version": None, "device": {"model": [1]}, "unknown": {"kept": True}}, True),
    # Dimensions: at most 128 code points, whatever their bytes; combining marks count.
    *[({field: value}, True) for field, value in (
        ("app", "é" * 128), ("platform", "p" * 128), ("profile", "x" * 128), ("screen", "e\u0301" * 64),
        ("app_version", "9" * 128), ("os_version", "ö" * 128), ("device", "d" * 128))],
    *[({field: value}, False) for field, value in (
        ("app", "é" * 129), ("platform", "p" * 129), ("profile", "x" * 129), ("screen", "e\u0301" * 65),
        ("app_version", "9" * 129), ("os_version", "ö" * 129), ("device", "d" * (1 << 20)))],
    *[({"type": t}, True) for t in ("pull_start", "indicator_hidden", "scroll_to_top", "fetch_start",
                                     "error_shown", "content_cleared")],
    # Payload fields of other types are not this type's business.
    ({"type": "pull_start", "distance": "far", "ok": "yes"}, True),
    *[({"type": "pull_move", **fields}, True) for fields in (
        {"distance": 0}, {"distance": 12.5, "offset": 9}, {"distance": 1, "offset": None})],
    *[({"type": "pull_move", **fields}, False) for fields in (
        {}, {"distance": -1}, {"distance": "3"}, {"distance": None}, {"distance": 3, "offset": "x"})],
    *[({"type": t, "distance": 24.5}, True) for t in ("armed", "disarmed", "release")],
    *[({"type": t, **fields}, False) for t in ("armed", "disarmed", "release")
      for fields in ({}, {"distance": -0.5}, {"distance": True})],
    *[({"type": "cancel", **fields}, True) for fields in ({}, {"reason": "scroll"}, {"reason": 5}, {"reason": {}})],
    # v1.2: the screen went away, with an optional reason (other tokens kept, as for cancel).
    *[({"type": "screen_left", **fields}, True)
      for fields in ({}, {"reason": "navigation"}, {"reason": "background"}, {"reason": "closed"},
                     {"reason": "swiped"})],
    *[({"type": "label", "text": text, "state": state}, True)
      for text, state in (("Dra", "pulling"), ("Släpp", "ready"), ("", "refreshing"))],
    *[({"type": "label", **fields}, False) for fields in (
        {"state": "ready"}, {"text": 3, "state": "ready"}, {"text": None, "state": "ready"}, {"text": "x"},
        {"text": "x", "state": "armed"}, {"text": "x", "state": None}, {"text": "x", "state": "Ready"})],
    *[({"type": "refresh_start", **fields}, True) for fields in (
        {}, {"trigger": None}, {"trigger": "pull"}, {"trigger": "tab_reselect"}, {"trigger": "programmatic"})],
    *[({"type": "refresh_start", "trigger": value}, False) for value in ("tap", 1, ["pull"])],
    *[({"type": "indicator_shown", **fields}, True) for fields in (
        {}, {"indicator": None}, {"indicator": {}},
        {"indicator": {"kind": "balls", "count": 4, "stagger_ms": 120, "cycle_ms": 800}},
        {"indicator": {"kind": None, "count": 4.0, "stagger_ms": 100.5, "cycle_ms": None, "extra": "x"}},
        {"indicator": {"kind": "native"}}, {"indicator": {"kind": "waveform", "count": None}})],
    *[({"type": "indicator_shown", "indicator": value}, False) for value in (
        "balls", [], 4, {"kind": "dots"}, {"kind": 1}, {"count": 4.5}, {"count": "4"}, {"stagger_ms": "120"},
        {"cycle_ms": True})],
    *[({"type": "reveal", "progress": p, "visible": v}, True) for p, v in ((0, 0), (1, 5), (0.6, 4), (0.35, 2.0))],
    *[({"type": "reveal", **fields}, False) for fields in (
        {"progress": 1.2, "visible": 1}, {"progress": -0.1, "visible": 0}, {"visible": 1}, {"progress": 0.5},
        {"progress": 0.5, "visible": -1}, {"progress": 0.5, "visible": 2.5}, {"progress": 0.5, "visible": None},
        {"progress": "0.5", "visible": 1}, {"progress": None, "visible": 1})],
    *[({"type": "cache_invalidated", "key": key}, True) for key in ("page/1", "")],
    *[({"type": "cache_invalidated", **fields}, False) for fields in ({}, {"key": 5}, {"key": None})],
    *[({"type": "load_complete", **fields}, True) for fields in (
        {"ok": True}, {"ok": False, "error": "offline"}, {"ok": False, "error": {"code": 500}})],
    *[({"type": "load_complete", **fields}, False) for fields in ({}, {"ok": "true"}, {"ok": None}, {"ok": 1})],
    # v1.1: the install id on any event, and a refresh whose gesture went unseen.
    *[({"install_id": value}, True) for value in ("3f2a9c1e-7b4d-4e8a-9f0c-2d1b5a6e7c8d", "i" * 128, None)],
    *[({"install_id": value}, False) for value in ("", "i" * 129, 5, True, ["a"])],
    *[({"type": "refresh_start", **fields}, True) for fields in (
        {"gesture_observed": False}, {"trigger": "pull", "gesture_observed": False}, {"gesture_observed": True},
        {"trigger": "programmatic", "gesture_observed": None})],
    *[({"type": "refresh_start", "gesture_observed": value}, False) for value in ("false", 0, {})],
    ({"type": "pull_start", "gesture_observed": "no"}, True),
]
NOT_OBJECTS = ["[1, 2]", '"pull_start"', "3", "null"]


def case_line(index: int, changes: dict) -> str:
    event = dict(BASE, event_id=f"schema-case-{index:03}")
    for key, value in changes.items():
        if value is DROP:
            event.pop(key)
        else:
            event[key] = value
    return json.dumps(event, ensure_ascii=False)


@pytest.fixture(scope="module")
def verdicts(pullparity_bin, tmp_path_factory) -> dict:
    """Each line the decoder saw, with its verdict: ("stored", None) or ("quarantined", category)."""
    folder = tmp_path_factory.mktemp("schema")
    generated = folder / "cases.jsonl"
    lines = [case_line(i, changes) for i, (changes, _) in enumerate(CASES)] + NOT_OBJECTS
    generated.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pullparity = Pullparity(pullparity_bin, folder / "schema.sqlite")
    pullparity.ingest(REPO / "sample-events", generated)
    stored = {raw: ("stored", None) for (raw,) in pullparity.query("SELECT raw FROM events")}
    rejected = {raw: ("quarantined", category)
                for raw, category in pullparity.query("SELECT raw, category FROM quarantine")
                if isinstance(raw, str)}
    return {**rejected, **stored}


def schema_accepts(line: str) -> bool:
    try:
        event = json.loads(line)
    except ValueError:
        return False
    return jsonschema.Draft202012Validator(SCHEMA).is_valid(event)


def test_the_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def case_id(index: int, changes: dict, accepted: bool) -> str:
    shown = {key: "<dropped>" if value is DROP else value for key, value in changes.items()}
    return f"{index:03}-{'stored' if accepted else 'rejected'}-{json.dumps(shown, ensure_ascii=False)[:60]}"


@pytest.mark.parametrize(
    ("index", "changes", "accepted"), [(i, c, a) for i, (c, a) in enumerate(CASES)],
    ids=[case_id(i, c, a) for i, (c, a) in enumerate(CASES)])
def test_each_field_rule_is_judged_alike_by_the_decoder_and_the_schema(verdicts, index, changes, accepted):
    line = case_line(index, changes)
    verdict, category = verdicts[line]
    assert (verdict == "stored") == accepted, f"decoder: {verdict} ({category}) for {line}"
    if not accepted:
        assert category in FIELD_REASONS, category
    assert schema_accepts(line) == accepted, line


def test_every_stored_sample_line_validates(verdicts):
    validator = jsonschema.Draft202012Validator(SCHEMA)
    stored = [raw for raw, (verdict, _) in verdicts.items() if verdict == "stored"]
    assert len(stored) > 16000
    failing = [(raw, [e.message for e in validator.iter_errors(json.loads(raw))]) for raw in stored
               if not validator.is_valid(json.loads(raw))]
    assert failing == []


def test_every_line_quarantined_for_a_field_does_not_validate(verdicts):
    rejected = [raw for raw, (verdict, category) in verdicts.items()
                if verdict == "quarantined" and category in FIELD_REASONS]
    assert len(rejected) > 100
    assert [raw for raw in rejected if schema_accepts(raw)] == []
