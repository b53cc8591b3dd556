"""Runs the pullparity binary against one database file, for the client suites."""

import json
import sqlite3
import subprocess
from pathlib import Path


class Pullparity:
    """Runs the binary against one database file."""

    def __init__(self, binary: Path, db: Path):
        self.binary = binary
        self.db = db

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.binary), *args, "--db", str(self.db)],
            capture_output=True, text=True, timeout=120)

    def ingest(self, *paths: Path) -> subprocess.CompletedProcess:
        done = self.run("ingest", "--quiet", *map(str, paths))
        assert done.returncode == 0, f"ingest failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        return done

    def qa(self, *args: str) -> tuple[int, dict]:
        done = self.run("qa", "--format", "json", *args)
        assert done.returncode in (0, 1), f"qa could not run ({done.returncode}):\n{done.stderr}"
        return done.returncode, json.loads(done.stdout)

    def query(self, sql: str, *params) -> list[tuple]:
        """`sql` on the database, with its stored events readable as a table `events` (raw,
        event_id, session_id, type): since schema version 11 they are in compressed blocks,
        read back here with `pullparity export`."""
        with sqlite3.connect(":memory:") as connection:
            connection.execute("ATTACH DATABASE ? AS stored", (f"file:{self.db}?mode=ro",))
            connection.execute("CREATE TABLE events (raw TEXT, event_id TEXT, session_id TEXT, type TEXT)")
            exported = subprocess.run([str(self.binary), "export", "--db", str(self.db)],
                                      capture_output=True, check=True, timeout=120).stdout
            lines = [line.decode("utf-8") for line in exported.splitlines()]
            connection.executemany("INSERT INTO events (raw) VALUES (?)", [(line,) for line in lines])
            connection.execute("UPDATE events SET event_id = json_extract(raw, '$.event_id'), "
                               "session_id = json_extract(raw, '$.session_id'), type = json_extract(raw, '$.type')")
            return connection.execute(sql, params).fetchall()
