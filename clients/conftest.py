"""Shared by the client suites: the pullparity binary under test and a database built with it."""

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def pullparity_bin() -> Path:
    """The binary scripts/test.sh built (PULLPARITY_BIN), else this checkout's debug build."""
    path = Path(os.environ.get("PULLPARITY_BIN") or REPO / ".build" / "debug" / "pullparity")
    assert path.is_file(), f"no pullparity binary at {path}: run `swift build` or set PULLPARITY_BIN"
    return path


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


@pytest.fixture
def pullparity(pullparity_bin, tmp_path) -> Pullparity:
    return Pullparity(pullparity_bin, tmp_path / "pullparity.sqlite")
