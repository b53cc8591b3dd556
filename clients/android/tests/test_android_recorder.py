"""The Android recorder's output through the real pipeline: the JVM gesture driver plays a few
hundred scripted gestures on Padel's feed and empty state through the Kotlin recorder (file sink
with rotation, and the HTTP sink for the faithful app), `pullparity ingest` stores every line,
and `pullparity qa --app padel --platform android` gates it: the faithful app passes every item,
each planted defect (the web reference page's) fails exactly the item that should catch it.

Unlike the browser suite, time is virtual, so the default `--min-sessions` (30) applies: the plan
has over 30 sessions for every item, the empty state's included."""

import json
import re
import subprocess
from pathlib import Path

import jsonschema
import pytest

from android_driver import REPO, plan, run_build

ORIGIN_MS = 1_794_800_000_000
DEFECTS = [
    ("no_hold", {"no_flash", "hold_compliant"}),
    ("arms_on_raw_distance", {"arm_parity"}),
    ("label_typo", {"label_copy", "empty_state"}),
    ("empty_hides_indicator", {"empty_state"}),
    ("three_balls", {"indicator_config"}),
]
SEED_ITEMS = {"drag_tracking", "arm_parity", "no_flash", "no_premature_hide", "label_copy", "empty_state"}
METRICS = ["outcome", "empty", "started_ms", "arm_distance", "time_to_arm_ms", "release_distance", "load_ok", "load_ms",
           "visible_ms"]
FIXTURE = REPO / "clients" / "fixtures" / "scripted-gesture.android.jsonl"


def statuses(report: dict) -> dict[str, str]:
    return {item["check"]: item["status"] for item in report["items"]}


def ingest_and_check_metrics(pullparity, folder: Path) -> None:
    """Ingests an app's rotated log folder: nothing quarantined, and every session's metrics are
    what the script played (arming where the profile's threshold is first reached, the held or
    unheld hide, the load's outcome and duration)."""
    pullparity.ingest(folder)
    assert pullparity.query("SELECT count(*) FROM quarantine") == [(0,)]
    assert pullparity.query("SELECT DISTINCT platform, app, profile FROM sessions") == [("android", "padel", "padel")]
    rows = pullparity.query(
        "SELECT outcome, empty, started_at_ms - ?, arm_distance, time_to_arm_ms, release_distance, load_ok, load_ms,"
        " visible_ms FROM sessions ORDER BY started_at_ms", ORIGIN_MS)
    derived = [dict(zip(METRICS, row)) for row in rows]
    expected = [{metric: session.get(metric) for metric in METRICS} for session in plan(folder)]
    for session in expected:
        session["empty"] = int(session["empty"])
        if session["load_ok"] is not None:
            session["load_ok"] = int(session["load_ok"])
    assert len(derived) == len(expected) >= 300
    for index, (got, want) in enumerate(zip(derived, expected)):
        assert got == pytest.approx(want, abs=1e-6), f"session {index}"


def test_faithful_app_ingests_with_the_expected_metrics_and_passes_every_qa_item(scripted_apps, pullparity):
    folder = scripted_apps["folder"] / "faithful"
    assert len(list(folder.glob("events.*.jsonl"))) >= 3, "the file sink did not rotate"
    ingest_and_check_metrics(pullparity, folder)
    outcomes = dict(pullparity.query("SELECT outcome, count(*) FROM sessions GROUP BY outcome"))
    sessions = plan(folder)
    assert outcomes == {"completed": sum(s["outcome"] == "completed" for s in sessions),
                        "cancelled": sum(s["outcome"] == "cancelled" for s in sessions)}
    assert pullparity.query("SELECT count(*) FROM sessions WHERE flash = 1 OR hold_compliant = 0") == [(0,)]
    assert pullparity.query("SELECT kind, count(*) FROM violations GROUP BY kind") == []

    code, report = pullparity.qa("--app", "padel", "--platform", "android")
    # The seed's six items judged on 30 sessions or more each, all passing; nothing fails (the
    # items Padel's profile gives no sessions for, such as tab re-select, have no data).
    seed = {item["check"]: item for item in report["items"] if item["check"] in SEED_ITEMS}
    assert set(seed) == SEED_ITEMS
    for item in seed.values():
        assert item["status"] == "pass" and item["checked"] >= 30, json.dumps(item, ensure_ascii=False)
    assert "fail" not in statuses(report).values(), json.dumps(report["items"], indent=1, ensure_ascii=False)
    assert code == 0


def test_the_collector_got_every_line_and_a_refused_post_again_byte_for_byte(scripted_apps):
    folder = scripted_apps["folder"] / "faithful"
    written = [line for path in sorted(folder.glob("events*.jsonl")) for line in path.read_text(encoding="utf-8").splitlines()]
    collected = scripted_apps["collected"]
    assert scripted_apps["failed_bodies"], "no POST was refused"
    retried = [line for body in scripted_apps["failed_bodies"] for line in body.splitlines()]
    assert set(retried) <= set(collected), "a refused line was not sent again byte for byte"
    # At least once, in order, and nothing but what the file got.
    assert sorted(set(collected)) == sorted(written)
    assert list(dict.fromkeys(collected)) == written


@pytest.mark.parametrize(("defect", "items"), DEFECTS, ids=[d[0] for d in DEFECTS])
def test_planted_defect_fails_exactly_its_item(scripted_apps, pullparity, defect, items):
    ingest_and_check_metrics(pullparity, scripted_apps["folder"] / defect)
    code, report = pullparity.qa("--app", "padel", "--platform", "android")
    failed = {check for check, status in statuses(report).items() if status == "fail"}
    assert failed == items, json.dumps(report["items"], indent=1, ensure_ascii=False)
    assert code == 1


def test_the_golden_gesture_validates_and_ingests_cleanly(android_build, pullparity):
    schema = json.loads((REPO / "schema" / "events.schema.json").read_text(encoding="utf-8"))
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    for line in lines:
        jsonschema.validate(json.loads(line), schema)
    # The committed file is what the recorder writes today (the JUnit test checks it too).
    assert run_build("golden").stdout.splitlines() == lines
    pullparity.ingest(FIXTURE)
    assert pullparity.query("SELECT count(*) FROM quarantine") == [(0,)]
    assert pullparity.query("SELECT count(*) FROM events") == [(len(lines),)]
    assert pullparity.query("SELECT count(DISTINCT json_extract(raw, '$.install_id')) FROM events") == [(1,)]


def test_the_behaviour_constants_are_the_binarys_profiles(android_build, pullparity_bin):
    kotlin = json.loads(run_build("driver", "behaviours").stdout)
    done = subprocess.run([str(pullparity_bin), "profiles", "--format", "json"], capture_output=True, text=True,
                          timeout=60, check=True)
    profiles = {profile["name"]: profile for profile in json.loads(done.stdout)["profiles"]}
    assert [behaviour["name"] for behaviour in kotlin] == ["padel", "ffci", "phlock"]
    for behaviour in kotlin:
        profile = profiles[behaviour["name"]]
        for key, value in behaviour.items():
            assert profile.get(key) == value, f"{behaviour['name']}.{key}: Kotlin {value!r}, pullparity {profile.get(key)!r}"
        for key in ("arm_threshold", "indicator", "labels", "reveal"):
            assert (key in behaviour) == (key in profile), f"{behaviour['name']}.{key}"


def test_a_callback_only_app_gets_one_completed_session_per_refresh(android_build, pullparity, tmp_path):
    run_build("driver", "callback-only", str(tmp_path / "app"), "--gestures", "40")
    pullparity.ingest(tmp_path / "app")
    assert pullparity.query("SELECT count(*) FROM quarantine") == [(0,)]
    assert pullparity.query("SELECT outcome, \"trigger\", count(*) FROM sessions GROUP BY 1, 2") == [("completed", "pull", 40)]
    assert pullparity.query("SELECT kind, count(*) FROM violations GROUP BY kind") == []


def test_the_docs_android_section_lists_every_public_call_and_says_its_glue_is_not_compiled():
    doc = (REPO / "docs" / "instrumenting.md").read_text(encoding="utf-8")
    start = doc.index("## Android\n")
    section = doc[start:doc.index("\n## ", start)]
    source = (REPO / "clients" / "android" / "src" / "main" / "kotlin" / "dev" / "pullparity" / "recorder" /
              "PullParityRecorder.kt").read_text(encoding="utf-8")
    public = set(re.findall(r"^    fun (\w+)\(", source, flags=re.M))
    assert len(public) == 21, sorted(public)
    missing = [name for name in sorted(public) if f"`{name}(" not in section]
    assert not missing, f"docs/instrumenting.md's Android section does not list {missing}"
    assert "cannot be compiled here" in section
    for glue in ("gestureObserved = false", "SwipeRefreshLayout(context, attrs)", "PullToRefreshBox(",
                 "override fun onStop()", "recorder.screenLeft("):
        assert glue in section
