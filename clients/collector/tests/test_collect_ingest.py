"""`collect --db FILE --ingest-every N`: posted events become sessions in the database within a
few rounds, each closed spool file is ingested once and moved aside, and a file ingested again
(a crash between the commit and the move) stores nothing new."""

import shutil
import sqlite3
from pathlib import Path

from collector_process import CollectorProcess, closed_files, wait_until

SAMPLE = Path(__file__).resolve().parents[3] / "sample-events" / "padel-ios-1.jsonl"


def count(db: Path, table: str) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        connection.execute("PRAGMA busy_timeout = 5000")
        try:
            return connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        except sqlite3.OperationalError:
            return 0  # not created yet


def outcomes(db: Path) -> list[tuple]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        return connection.execute("SELECT outcome, count(*) FROM sessions GROUP BY outcome ORDER BY outcome").fetchall()


def test_posted_events_become_the_same_sessions_as_a_direct_ingest(pullparity_bin, pullparity, tmp_path):
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    pullparity.ingest(SAMPLE)
    expected_sessions = count(pullparity.db, "sessions")
    assert expected_sessions > 0

    spool, db = tmp_path / "spool", tmp_path / "collected.sqlite"
    with CollectorProcess(pullparity_bin, spool, "--db", str(db), "--ingest-every", "1") as collector:
        for start in range(0, len(lines), 200):
            assert collector.post(b"".join(lines[start:start + 200])) == 204
        wait_until(lambda: count(db, "sessions") == expected_sessions, what="the posted sessions in the database")
        wait_until(lambda: closed_files(spool) == [], what="the spool's closed files to be moved aside")
        assert count(db, "event_keys") == len(lines)
        assert outcomes(db) == outcomes(pullparity.db)

        # A crash after the commit but before the move: the same file comes back.
        ingested = sorted((spool / ".ingested").glob("*.jsonl"))
        assert ingested and b"".join(path.read_bytes() for path in ingested) == SAMPLE.read_bytes()
        shutil.copy(ingested[0], spool / ingested[0].name)
        wait_until(lambda: closed_files(spool) == [], what="the repeated file to be ingested and moved again")
        assert count(db, "event_keys") == len(lines) and count(db, "sessions") == expected_sessions
        assert count(db, "quarantine") == 0
        assert collector.stop() == 0
