"""The DuckDB peer of the benchmark (bench/duckdb_peer.py) does ingest's job on the sample logs:
the counts, quarantined lines and sessions of sample-events/EXPECTED.json, from its own SQL."""

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample-events"
EXPECTED = json.loads((SAMPLES / "EXPECTED.json").read_text(encoding="utf-8"))
# EXPECTED.json's names for two reasons, and the quarantine categories pullparity and the peer use.
CATEGORY = {"not_object": "not_an_object", "bad_ts": "bad_timestamp"}


@pytest.fixture(scope="module")
def peer(tmp_path_factory):
    db = tmp_path_factory.mktemp("peer") / "peer.duckdb"
    logs = sorted(str(p) for p in SAMPLES.iterdir() if p.name.endswith((".jsonl", ".jsonl.gz")))
    out = subprocess.run([sys.executable, str(REPO / "bench" / "duckdb_peer.py"), "ingest",
                          "--db", str(db), *logs], check=True, capture_output=True, text=True)
    con = duckdb.connect(str(db), read_only=True)
    yield json.loads(out.stdout), con
    con.close()


def test_run_counts_are_the_expected_ingest_counts(peer):
    counts, _ = peer
    want = EXPECTED["ingest"]
    assert {k: counts[k] for k in ("lines_read", "blank_lines", "events_stored", "duplicates",
                                   "conflicts", "quarantined")} == {
        k: want[k] for k in ("lines_read", "blank_lines", "events_stored", "duplicates",
                             "conflicts", "quarantined")}
    assert counts["sessions"] == want["sessions_derived"]


def test_tables_hold_what_the_counts_say(peer):
    counts, con = peer
    assert con.execute("SELECT count(*), count(DISTINCT event_id) FROM events").fetchone() == (
        counts["events_stored"], counts["events_stored"])
    assert con.execute("SELECT count(*) FROM quarantine").fetchone()[0] == (
        counts["quarantined"] + counts["conflicts"])


def test_bad_lines_are_quarantined_where_and_why_expected(peer):
    _, con = peer
    bad = EXPECTED["bad_lines"]
    want = sorted((line["line"], line["byte_offset"], CATEGORY.get(line["reason"], line["reason"]))
                  for line in bad["lines"] if line["quarantined"])
    got = con.execute("""SELECT line, byte_offset, reason FROM quarantine
                         WHERE source = ? AND reason <> 'conflict' ORDER BY line""",
                      [bad["file"]]).fetchall()
    assert got == want


def test_the_conflict_keeps_the_first_copy_and_sets_the_other_aside(peer):
    _, con = peer
    event_id = EXPECTED["bad_lines"]["conflict_event_id"]
    stored = con.execute("SELECT source, raw FROM events WHERE event_id = ?", [event_id]).fetchall()
    aside = con.execute("SELECT source, raw FROM quarantine WHERE reason = 'conflict'").fetchall()
    assert [s for s, _ in stored] == ["bad-lines.jsonl"]  # the first source in name order
    assert len(aside) == 1 and aside[0][1].decode() != stored[0][1]
    assert event_id in aside[0][1].decode()


def test_raw_lines_are_the_lines_as_received(peer):
    _, con = peer
    text = (SAMPLES / "padel-ios-1.jsonl").read_bytes()
    rows = con.execute("""SELECT line, byte_offset, raw FROM events
                          WHERE source = 'padel-ios-1.jsonl' ORDER BY line""").fetchall()
    lines = text.split(b"\n")[:-1]
    assert [(n, raw.encode()) for n, _, raw in rows] == list(enumerate(lines, 1))
    assert all(text[off:off + len(raw.encode())] == raw.encode() for _, off, raw in rows)


def test_sessions_have_the_expected_events_outcome_and_findings(peer):
    _, con = peer
    rows = con.execute("SELECT session_id, app, platform, events, completed, flash, premature_hide "
                       "FROM sessions").fetchall()
    assert {r[0] for r in rows} == set(EXPECTED["sessions"])
    for sid, app, platform, events, completed, _, _ in rows:
        want = EXPECTED["sessions"][sid]
        assert (app, platform, events, completed) == (
            want["app"], want["platform"], want["events"], want["outcome"] == "completed"), sid
    for app, platforms in EXPECTED["apps"].items():
        for platform, want in platforms.items():
            mine = [r for r in rows if r[1] == app and r[2] == platform]
            assert sum(bool(r[5]) for r in mine) == want["violations"]["flash"], (app, platform)
            assert sum(bool(r[6]) for r in mine) == want["violations"]["premature_hide"], (app, platform)
