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
        event_id, session_id, type) and its quarantined lines as a table `quarantine` (raw: TEXT,
        or a BLOB when not UTF-8): both are in compressed blocks (schema versions 11 and 14),
        read back here, checked, with `pullparity export` and `pullparity quarantine`."""
        with sqlite3.connect(":memory:") as connection:
            connection.execute("ATTACH DATABASE ? AS stored", (f"file:{self.db}?mode=ro",))
            connection.execute("CREATE TABLE events (raw TEXT, event_id TEXT, session_id TEXT, type TEXT)")
            exported = subprocess.run([str(self.binary), "export", "--db", str(self.db)],
                                      capture_output=True, check=True, timeout=120).stdout
            lines = [line.decode("utf-8") for line in exported.splitlines()]
            connection.executemany("INSERT INTO events (raw) VALUES (?)", [(line,) for line in lines])
            connection.execute("UPDATE events SET event_id = json_extract(raw, '$.event_id'), "
                               "session_id = json_extract(raw, '$.session_id'), type = json_extract(raw, '$.type')")
            # Shadows the file's `quarantine` view, whose `raw` is NULL for a line kept in a block.
            connection.execute("CREATE TABLE quarantine (quarantine_id, source, line, byte_offset, category, reason, "
                               "raw, event_id, run_id)")
            connection.executemany("INSERT INTO quarantine VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                   [(row["quarantine_id"], row["source"], row["line"], row["byte_offset"],
                                     row["category"], row["reason"], raw_of(row), row.get("event_id"), row["run_id"])
                                    for row in self.quarantined()])
            return connection.execute(sql, params).fetchall()

    def quarantined(self) -> list[dict]:
        """Every quarantined line as `pullparity quarantine --format json` lists it."""
        done = self.run("quarantine", "--format", "json", "--limit", "0")
        assert done.returncode == 0, f"quarantine failed ({done.returncode}):\n{done.stderr}"
        return json.loads(done.stdout)


def raw_of(row: dict) -> str | bytes:
    """A quarantined line's exact content: its text, or its bytes when they are not UTF-8."""
    return bytes.fromhex(row["raw_hex"]) if "raw_hex" in row else row["raw"]
