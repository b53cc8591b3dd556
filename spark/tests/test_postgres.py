"""The derived tables in PostgreSQL 15 (schema/postgres, loaded by spark/load_postgres.py) give
the dashboard views the same rows as the SQLite views on the same run."""

import itertools
import json
import math
import os
import shutil
import sqlite3
import subprocess
import tempfile

import pytest

import load_postgres
from field_failure_log import VERDICTS

PG_BIN = "/usr/lib/postgresql/15/bin"
VIEWS = {
    "daily_parity": "day, app, platform, \"trigger\"",
    "violation_counts": "app, platform, kind",
    "percentile_inputs": "session_id, metric",
    "session_violations": "session_id, ordinal",
    "quarantine_summary": "source, category",
}


def as_postgres(*args):
    return subprocess.run(["runuser", "-u", "postgres", "--", *args], capture_output=True, text=True, check=True)


@pytest.fixture(scope="module")
def postgres():
    """A throwaway server: initdb as postgres in a temporary folder, a unix socket only."""
    if not os.path.exists(f"{PG_BIN}/initdb"):
        pytest.fail("PostgreSQL 15 is not installed (apt-get install postgresql-15)")
    root = tempfile.mkdtemp(prefix="pullparity-pg-")
    os.chmod(root, 0o755)
    shutil.chown(root, "postgres", "postgres")
    data = os.path.join(root, "data")
    as_postgres(f"{PG_BIN}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
    options = f"-c listen_addresses='' -k {root} -c fsync=off"
    as_postgres(f"{PG_BIN}/pg_ctl", "-D", data, "-o", options, "-l", os.path.join(root, "log"), "-w", "start")
    try:
        yield f"host={root} user=postgres dbname=postgres"
    finally:
        as_postgres(f"{PG_BIN}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)


def psql_rows(dsn, sql):
    out = subprocess.run(["psql", "-X", "-A", "-t", "-F", "\x1f", "-d", dsn, "-c", sql], capture_output=True,
                         text=True, check=True).stdout
    return [line.split("\x1f") for line in out.splitlines() if line]


def same(sqlite_value, pg_text):
    """PostgreSQL prints NULL as empty text; doubles are compared to 1e-12 (avg sums in another order)."""
    if sqlite_value is None:
        return pg_text == ""
    if isinstance(sqlite_value, float):
        return math.isclose(sqlite_value, float(pg_text), rel_tol=1e-12, abs_tol=1e-12)
    return str(sqlite_value) == pg_text


@pytest.fixture(scope="module")
def loaded(postgres, sample_run):
    _, out, db = sample_run
    load_postgres.load(out, postgres, create=True)
    return postgres, db


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_views_return_the_sqlite_rows(loaded, view):
    dsn, db = loaded
    assert_same_view(dsn, db, view)


def assert_same_view(dsn, db, view):
    order = VIEWS[view]
    with sqlite3.connect(db) as conn:
        cursor = conn.execute(f"SELECT * FROM {view} ORDER BY {order}")
        columns = [c[0] for c in cursor.description]
        expected = cursor.fetchall()
    quoted = ", ".join(f'"{c}"' for c in columns)  # the same columns, by name
    got = psql_rows(dsn, f"SELECT {quoted} FROM {view} ORDER BY {order}")
    assert expected, f"{view} is empty in SQLite: nothing compared"
    assert len(got) == len(expected), view
    for want, row in zip(expected, got):
        assert all(same(w, g) for w, g in zip(want, row)), f"{view}: {want} != {row}"


def test_tables_hold_every_row(loaded):
    dsn, db = loaded
    with sqlite3.connect(db) as conn:
        for table in ("sessions", "violations", "quarantine", "profiles"):
            want = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            assert psql_rows(dsn, f"SELECT count(*) FROM {table}") == [[str(want)]], table
        hashes = conn.execute("SELECT raw_hash FROM quarantine ORDER BY source, byte_offset").fetchall()
    got = psql_rows(dsn, "SELECT raw_hash FROM quarantine ORDER BY source, byte_offset")
    assert [str(h[0]) for h in hashes] == [row[0] for row in got]


# What the rules that look past one session leave in a session's row.
CROSS_SESSION_COLUMNS = ["install_id", "gesture_observed", "stuck_refresh", "dropped_refresh", "repeated_refresh",
                         "near_miss", "refresh_started_at_ms", "refresh_ended_at_ms", "judge_again_at_ms",
                         "violation_count"]


def test_refreshes_judged_across_sessions_load_with_ingests_verdicts(empty_db, field_failure_run):
    """PostgreSQL is loaded from the run's own tables, not from `load`'s SQLite file: the stuck,
    dropped and repeated refreshes in them (and daily_parity's rates of them) are judged with
    the whole run's sessions, as ingest judges them (field_failure_log)."""
    _, out, db, _ = field_failure_run
    load_postgres.load(out, empty_db, create=True)
    columns = ", ".join(CROSS_SESSION_COLUMNS)
    with sqlite3.connect(db) as conn:
        expected = {row[0]: row[1:] for row in conn.execute(f"SELECT session_id, {columns} FROM sessions")}
        kinds = conn.execute("SELECT session_id, ordinal, kind FROM violations ORDER BY 1, 2").fetchall()
    got = {row[0]: row[1:] for row in psql_rows(empty_db, f"SELECT session_id, {columns} FROM sessions")}
    assert set(got) == set(expected) == set(VERDICTS)
    for session_id, want in expected.items():
        assert all(same(w, g) for w, g in zip(want, got[session_id])), f"{session_id}: {want} != {got[session_id]}"
    flags = [CROSS_SESSION_COLUMNS.index(c) for c in ("stuck_refresh", "dropped_refresh", "repeated_refresh")]
    assert {s: tuple(None if row[i] == "" else int(row[i]) for i in flags) for s, row in got.items()} == VERDICTS
    pg_kinds = psql_rows(empty_db, "SELECT session_id, ordinal, kind FROM violations")
    assert sorted((s, int(o), k) for s, o, k in pg_kinds) == sorted(kinds)
    assert_same_view(empty_db, db, "daily_parity")


# Each loaded table in full, in the order of its key, one JSON object a row: a reload that
# rewrote any value, renumbered a key or added or removed a row changes the dump.
TABLE_KEYS = {
    "sessions": "session_ref",
    "violations": "session_id, ordinal",
    "quarantine": "quarantine_id",
    "profiles": "name, version",
}


def dump(dsn, table):
    return psql_rows(dsn, f"SELECT to_jsonb(t)::text FROM {table} t ORDER BY {TABLE_KEYS[table]}")


def test_reloading_a_run_changes_no_row(loaded, sample_run):
    dsn, _ = loaded
    _, out, _ = sample_run
    before = {table: dump(dsn, table) for table in TABLE_KEYS}
    assert all(before.values()), {table: len(rows) for table, rows in before.items()}
    load_postgres.load(out, dsn)
    after = {table: dump(dsn, table) for table in TABLE_KEYS}
    for table in TABLE_KEYS:
        assert after[table] == before[table], table


# Hand-made run directories (no Spark): what one run's JSON lines hold, row by row.
PROFILE = {"name": "default", "version": 1, "content_hash": "abc", "definition": "{}"}


def session(session_id, events, **columns):
    return {"session_id": session_id, "app": "padel", "profile": "default", "profile_version": 1,
            "platform": "ios", "empty": 0, "outcome": "completed", "final_state": "done",
            "violation_count": 0, "event_count": events, "started_at_ms": 1.0, "ended_at_ms": 2.0, **columns}


def violation(session_id, ordinal, kind):
    return {"session_id": session_id, "ordinal": ordinal, "kind": kind, "ts_ms": 1.5}


def bad_line(offset, **columns):
    return {"source": "day.jsonl", "line": offset + 1, "byte_offset": offset, "category": "not_json",
            "reason": "the line is not valid JSON", **columns}


def write_run(root, sessions=(), violations=(), quarantine=(), profiles=(PROFILE,)):
    tables = {"sessions": sessions, "violations": violations, "quarantine": quarantine, "profiles": profiles}
    for table, table_rows in tables.items():
        os.makedirs(os.path.join(root, "json", table))
        with open(os.path.join(root, "json", table, "part-00000.json"), "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row) + "\n" for row in table_rows)
    return root


DATABASES = itertools.count(1)


@pytest.fixture
def empty_db(postgres):
    """A database of its own per test, on the module's server: the tables come with the first load."""
    name = f"empty_{next(DATABASES)}"
    subprocess.run(["psql", "-X", "-q", "-d", postgres, "-c", f'CREATE DATABASE "{name}"'], check=True)
    return postgres.replace("dbname=postgres", f"dbname={name}")


def hex_of(column):
    """A column's bytes, read back in hex (NULL as the word): what the client sees, byte for byte."""
    return f"coalesce(encode(convert_to({column}, 'UTF8'), 'hex'), 'NULL')"


# A quarantined line, and what PostgreSQL must hold for it: `raw` as text, `raw_bytes` (hex),
# and `raw_hash`, the line's 64-bit FNV-1a (signed) as `pullparity ingest` stores it in SQLite for
# the same bytes. The hashes are literals, not load_postgres.fnv1a64's: they were read from
# quarantine.raw_hash after ingesting these lines, and agree with a separate C implementation of
# FNV-1a 64.
ODD_LINES = [
    ("{\0\"\0a\0", "{\ufffd\"\ufffda\ufffd", "7b0022006100", -5329135724055314571),  # UTF-16LE: valid UTF-8 with NULs
    ("\\N", "\\N", None, 671100149268634607),  # COPY's NULL marker, as a line
    (bytes([0xff, 0]), "\ufffd\ufffd", "ff00", 763824163880569834),  # not UTF-8, and a NUL
]
OK_HASH = 626102635892993007  # of the line `ok`


def test_odd_quarantined_lines_and_empty_strings_load_byte_for_byte(empty_db, tmp_path):
    quarantine = [bad_line(i, **({"raw_hex": raw.hex()} if isinstance(raw, bytes) else {"raw": raw}))
                  for i, (raw, _, _, _) in enumerate(ODD_LINES)]
    quarantine.append(bad_line(len(ODD_LINES), raw="ok", event_id=""))
    device = 'a "b", c\nd\\N'
    run = write_run(tmp_path / "run", sessions=[session("s1", 2, screen="", device=device)], quarantine=quarantine)
    load_postgres.load(str(run), empty_db, create=True)
    got = psql_rows(empty_db, f"SELECT {hex_of('raw')}, coalesce(encode(raw_bytes, 'hex'), 'NULL'), raw_hash, "
                              f"{hex_of('event_id')} FROM quarantine ORDER BY byte_offset")
    assert [row[0] for row in got] == [text.encode().hex() for _, text, _, _ in ODD_LINES] + [b"ok".hex()]
    assert [row[1] for row in got] == [raw_bytes or "NULL" for _, _, raw_bytes, _ in ODD_LINES] + ["NULL"]
    assert [row[2] for row in got] == [str(raw_hash) for _, _, _, raw_hash in ODD_LINES] + [str(OK_HASH)]
    assert [row[3] for row in got] == ["NULL"] * len(ODD_LINES) + [""]  # "" is the empty string, not NULL
    assert psql_rows(empty_db, f"SELECT {hex_of('screen')}, {hex_of('device')}, {hex_of('app_version')} "
                               "FROM sessions") == [["", device.encode().hex(), "NULL"]]



def test_a_nul_in_an_events_strings_loads_as_u_fffd(empty_db, tmp_path):
    run = write_run(tmp_path / "run", sessions=[session("s\0", 1, device="x\0y", violation_count=1)],
                    violations=[{**violation("s\0", 0, "label_mismatch"), "actual": "\0"}])
    load_postgres.load(str(run), empty_db, create=True)
    got = psql_rows(empty_db, f"SELECT {hex_of('s.session_id')}, {hex_of('device')}, {hex_of('actual')} "
                              "FROM sessions s JOIN violations v USING (session_id)")
    assert got == [["s\ufffd".encode().hex(), "x\ufffdy".encode().hex(), "\ufffd".encode().hex()]]


def run_with(root, events, outcome, kinds, *extra_sessions):
    """One run's derivation of session s1 (from `events` of its events, with violations `kinds`)."""
    return write_run(root, sessions=[session("s1", events, outcome=outcome, violation_count=len(kinds)),
                                     *extra_sessions],
                     violations=[violation("s1", i, kind) for i, kind in enumerate(kinds)],
                     quarantine=[bad_line(0, raw="x")])


# (events of s1 in the first run, in the second run, the run whose derivation is kept)
SPLIT_SESSIONS = [(3, 5, "second"), (5, 3, "first"), (4, 4, "second")]


@pytest.mark.parametrize("first_events, second_events, kept", SPLIT_SESSIONS)
def test_a_session_in_two_runs_keeps_the_derivation_from_more_events(empty_db, tmp_path, first_events,
                                                                     second_events, kept):
    first = run_with(tmp_path / "first", first_events, "incomplete", ["flash", "late_hide"], session("a", 1))
    second = run_with(tmp_path / "second", second_events, "completed", ["premature_hide"], session("b", 1))
    load_postgres.load(str(first), empty_db, create=True)
    ref = psql_rows(empty_db, "SELECT session_ref FROM sessions WHERE session_id = 's1'")
    load_postgres.load(str(second), empty_db)
    want = {"first": [first_events, "incomplete", 2, ["flash", "late_hide"]],
            "second": [second_events, "completed", 1, ["premature_hide"]]}[kept]
    got = psql_rows(empty_db, "SELECT session_ref, event_count, outcome, violation_count FROM sessions "
                              "WHERE session_id = 's1'")
    assert got == [[ref[0][0], *map(str, want[:3])]]  # the row is updated in place: session_ref stays
    kinds = psql_rows(empty_db, "SELECT kind FROM violations WHERE session_id = 's1' ORDER BY ordinal")
    assert [row[0] for row in kinds] == want[3]
    counts = [psql_rows(empty_db, f"SELECT count(*) FROM {t}")[0][0] for t in ("sessions", "quarantine", "profiles")]
    assert counts == ["3", "1", "1"]  # s1, a, b; the same bad line and profile once


def test_a_profile_with_other_rules_fails_and_changes_nothing(empty_db, tmp_path):
    load_postgres.load(str(run_with(tmp_path / "first", 3, "incomplete", ["flash"])), empty_db, create=True)
    tables = ("sessions", "violations", "quarantine", "profiles")
    before = [psql_rows(empty_db, f"SELECT * FROM {t} ORDER BY 1, 2") for t in tables]
    other = write_run(tmp_path / "other", sessions=[session("s1", 9), session("c", 1)],
                      quarantine=[bad_line(5, raw="y")], profiles=[{**PROFILE, "content_hash": "def"}])
    with pytest.raises(RuntimeError, match="profile default version 1 is stored with content_hash abc, "
                                           "this run has def"):
        load_postgres.load(str(other), empty_db)
    assert [psql_rows(empty_db, f"SELECT * FROM {t} ORDER BY 1, 2") for t in tables] == before


@pytest.mark.parametrize("ms", [0.0, 1794873599999.4, 1794873599999.5, 1794873599999.6, 1794873600000.0])
def test_a_day_is_taken_as_sqlite_takes_it(loaded, ms):
    """The views' `day`: the last half millisecond of a UTC day belongs to the next one in
    SQLite (date() rounds to the millisecond first), and so in PostgreSQL."""
    dsn, _ = loaded
    with sqlite3.connect(":memory:") as conn:
        expected = conn.execute("SELECT date(? / 1000.0, 'unixepoch')", (ms,)).fetchone()[0]
    assert psql_rows(dsn, f"SELECT pullparity_day({ms!r})") == [[expected]]
