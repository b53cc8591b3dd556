"""The derived tables in PostgreSQL 15 (schema/postgres, loaded by spark/load_postgres.py) give
the dashboard views the same rows as the SQLite views on the same run."""

import math
import os
import shutil
import sqlite3
import subprocess
import tempfile

import pytest

import load_postgres

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


def test_a_failed_load_changes_nothing(loaded, sample_run):
    dsn, _ = loaded
    _, out, _ = sample_run
    before = psql_rows(dsn, "SELECT count(*) FROM sessions")
    with pytest.raises(RuntimeError, match="duplicate key"):
        load_postgres.load(out, dsn)  # the same sessions again
    assert psql_rows(dsn, "SELECT count(*) FROM sessions") == before
