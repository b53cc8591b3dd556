"""The job's own reader of `.gz` inputs (gzip_pairs, here on local files; test_equivalence runs
it on `file://` URIs too) against `pullparity ingest`, without Spark: for gzip files good,
concatenated, damaged, cut or not gzip at all, the same lines at the same offsets and line
numbers, the same bytes, and the same error text."""

import functools
import gzip
import io
import os
import sqlite3
import subprocess

import pytest

import pullparity_spark
from spark_run import REPO, quarantined_lines, stored_events

LINES = open(os.path.join(REPO, "sample-events", "padel-pwa.jsonl"), "rb").read().splitlines(keepends=True)[:300]
TEXT = b"".join(LINES)
GOOD = gzip.compress(TEXT, mtime=0)
OTHER = gzip.compress(b"".join(LINES[:40]) + b"no newline at the end", mtime=0)
MIDDLE = len(GOOD) // 2

CASES = {
    "good": GOOD,
    "two members": GOOD + OTHER,
    "garbage after the last member": GOOD + OTHER + b"garbage\n",
    "one stray byte after a member": GOOD + b"\x1f",
    "cut inside the second member's header": GOOD + OTHER[:7],
    "cut inside the first header": GOOD[:7],
    "cut in the deflate data": GOOD[:MIDDLE],
    "damaged deflate data": GOOD[:MIDDLE] + b"\xff" * 16 + GOOD[MIDDLE + 16:],
    "bad check at the member's end": GOOD[:-8] + bytes([GOOD[-8] ^ 0xFF]) + GOOD[-7:],
    "not gzip at all": TEXT[:5000],
    "a UTF-8 byte order mark": gzip.compress(b"\xef\xbb\xbf" + TEXT, mtime=0),
}


def ingested(binary, folder):
    """Ingest's view of `x.jsonl.gz`: lines read, the stored lines by number, its errors."""
    db = str(folder / "ingest.sqlite")
    result = subprocess.run([binary, "ingest", "--quiet", "--db", db, "x.jsonl.gz"], cwd=folder,
                            capture_output=True, text=True)
    errors = [line[len("Error: "):] for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert result.returncode == (2 if errors else 0), result.stderr
    with sqlite3.connect(db) as conn:
        lines_read = conn.execute("SELECT lines_read FROM ingest_runs").fetchone()[0]
    # The stored events as `export` reads them back from their blocks, byte for byte.
    quarantined = [(row[1], row[2], row[5] if isinstance(row[5], bytes) else row[5].encode())
                   for row in quarantined_lines(db)]
    stored = [(row[3], row[4], row[5]) for row in stored_events(db)] + quarantined
    return lines_read, stored, errors


@pytest.mark.parametrize("case", CASES)
def test_the_job_reads_a_gzip_input_as_ingest_does(binary, tmp_path, case):
    (tmp_path / "x.jsonl.gz").write_bytes(CASES[case])
    lines_read, stored, errors = ingested(binary, tmp_path)
    pairs = list(pullparity_spark.gzip_pairs(functools.partial(open, tmp_path / "x.jsonl.gz", "rb"), "x.jsonl.gz"))
    lines = [pair for pair in pairs if pair[0] != pullparity_spark.DAMAGE]
    assert [text for offset, text in pairs if offset == pullparity_spark.DAMAGE] == errors
    assert len(lines) == lines_read
    assert stored or lines_read == 0, "ingest stored lines to compare with"
    for number, offset, raw in stored:
        assert (offset, raw) == (lines[number - 1][0], lines[number - 1][1].rstrip(b"\r")), f"line {number}"
    if case.startswith(("cut in the deflate", "damaged")):
        assert 0 < len(lines) < len(LINES), "the lines before the damage, not the rest"


def inflated_whole(data):
    """Every byte the job's reader inflates from `data`, and its error."""
    chunks = []
    try:
        chunks.extend(pullparity_spark.inflated(io.BytesIO(data), "x.jsonl.gz"))
    except pullparity_spark.UnreadInput as damage:
        return b"".join(chunks), str(damage)
    return b"".join(chunks), None


@pytest.mark.parametrize("at", [44160, 49537, 55040])
def test_damage_met_right_after_a_read_keeps_the_bytes_before_it(monkeypatch, at):
    """zlib can meet damage in the step that inflates the first byte of a read (these spots of
    the sample file, read 64 bytes at a time, do): that byte is kept too, as ingest keeps it."""
    whole = open(os.path.join(REPO, "sample-events", "ffci-ios.jsonl.gz"), "rb").read()
    damaged = whole[:at] + b"\xff" * 4 + whole[at + 4:]
    expected = inflated_whole(damaged)  # one read: the damage is far from a read's start
    assert "damaged near compressed byte" in expected[1]
    monkeypatch.setattr(pullparity_spark, "GZIP_READ", 64)
    assert inflated_whole(damaged) == expected
