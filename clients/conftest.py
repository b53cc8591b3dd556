"""Shared by the client suites: the pullparity binary under test and a database built with it."""

import os
from pathlib import Path

import pytest

from pullparity_cli import Pullparity

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def pullparity_bin() -> Path:
    """The binary scripts/test.sh built (PULLPARITY_BIN), else this checkout's debug build."""
    path = Path(os.environ.get("PULLPARITY_BIN") or REPO / ".build" / "debug" / "pullparity")
    assert path.is_file(), f"no pullparity binary at {path}: run `swift build` or set PULLPARITY_BIN"
    return path


@pytest.fixture
def pullparity(pullparity_bin, tmp_path) -> Pullparity:
    return Pullparity(pullparity_bin, tmp_path / "pullparity.sqlite")
