"""The Spark job, loaded with `pullparity load`, gives the rows a single-machine `pullparity
ingest` of the same files gives: every row of sessions, violations and quarantine, and the
run's counts (session_ref aside: it is a join key handed out in first-seen order)."""

import os
import shutil
import sqlite3
import subprocess

import pytest

import pullparity_spark
from chaos import write_chaos

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

SESSION_COLUMNS = """session_id, app, profile, profile_version, platform, app_version, os_version, device, screen,
  empty, outcome, final_state, "trigger", time_to_arm_ms, arm_distance, client_arm_distance, release_distance,
  load_ms, visible_ms, flash, premature_hide, late_hide, hold_compliant, label_violations, arm_mismatch, load_ok,
  max_sample_gap_ms, max_offset_error, violation_count, event_count, started_at_ms, ended_at_ms"""
QUERIES = {
    "sessions": f"SELECT {SESSION_COLUMNS} FROM sessions ORDER BY session_id",
    "violations": "SELECT session_id, ordinal, kind, ts_ms, expected, actual FROM violations "
                  "ORDER BY session_id, ordinal",
    "quarantine": "SELECT source, line, byte_offset, category, reason, raw, event_id, raw_hash FROM quarantine "
                  "ORDER BY source, byte_offset",
    "events": "SELECT e.event_id, e.id_hash, e.session_id, e.ts_ms, e.seq, e.platform, e.app, e.type, s.name, "
              "e.line, e.byte_offset, e.raw FROM events e JOIN sources s USING (source_id) ORDER BY e.event_id",
    "counts": "SELECT lines_read, events_stored, duplicates, conflicts, quarantined, sessions_derived "
              "FROM ingest_runs",
    "profiles": "SELECT name, version, content_hash, definition FROM profiles ORDER BY name, version",
    "sources": "SELECT name FROM sources ORDER BY name",
}


def dump(db):
    with sqlite3.connect(db) as conn:
        return {name: conn.execute(sql).fetchall() for name, sql in QUERIES.items()}


def ingest(binary, cwd, paths, db):
    result = subprocess.run([binary, "ingest", "--quiet", "--db", db, *paths], cwd=cwd, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return dump(os.path.join(cwd, db))


def spark_then_load(spark, binary, cwd, paths, tmp_path):
    out = str(tmp_path / "run")
    previous = os.getcwd()
    os.chdir(cwd)  # sources are named as given, like ingest's
    try:
        summary = pullparity_spark.run_job(spark, paths, out, binary)
    finally:
        os.chdir(previous)
    db = str(tmp_path / "spark.sqlite")
    result = subprocess.run([binary, "load", out, "--db", db], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"Loaded {out} (spark "), result.stdout
    return summary, dump(db), out


@pytest.fixture(scope="module")
def chaos_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("chaos")
    write_chaos(str(root / "chaos"))
    return str(root)


@pytest.mark.parametrize("case", ["sample", "chaos"])
def test_spark_then_load_equals_ingest(spark, binary, chaos_dir, tmp_path, case):
    if case == "sample":
        cwd, paths = REPO, ["sample-events"]
    else:
        cwd, paths = chaos_dir, ["chaos"]
    expected = ingest(binary, cwd, paths, str(tmp_path / "ingest.sqlite"))
    summary, got, _ = spark_then_load(spark, binary, cwd, paths, tmp_path)
    for table in QUERIES:
        assert got[table] == expected[table], f"{case}: {table} differs"
    assert expected["sessions"] and expected["quarantine"]
    if case == "chaos":
        counts = dict(zip(["lines", "events", "duplicates", "conflicts", "quarantined", "sessions"],
                          expected["counts"][0]))
        # The chaos log plants every case the job must reproduce.
        assert counts["duplicates"] > 0 and counts["conflicts"] > 0 and counts["quarantined"] > 0
        categories = {row[3] for row in expected["quarantine"]}
        assert {"conflict", "not_json", "invalid_utf8"} <= categories
        assert any(row[0] == "chaos/part-d.jsonl.gz" for row in expected["sources"])
        assert summary["blank_lines"] >= 1
    assert set(summary["timings"]) == {"read_and_number_s", "decode_s", "dedup_and_shuffle_s", "derive_s", "write_s"}
