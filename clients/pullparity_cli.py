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
        with sqlite3.connect(self.db) as connection:
            return connection.execute(sql, params).fetchall()
