"""What the Spark tests share beyond fixtures: the repository root and one run of the job
followed by `pullparity load`. A module of its own (not conftest), so that pytest's several
conftest files never shadow each other when every suite runs in one session."""

import json
import os
import subprocess

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run_and_load(spark, binary, cwd, paths, workdir, errors=()):
    """The Spark job over `paths` (named relative to `cwd`, as ingest names them), then
    `pullparity load` of its output: returns the output directory and the SQLite file.
    `errors`: the inputs' errors the run must record, which load must print and exit 2 on, as
    ingest does."""
    import subprocess

    import pullparity_spark
    out = os.path.join(workdir, "run")
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        summary = pullparity_spark.run_job(spark, paths, out, binary, for_load=True)
    finally:
        os.chdir(previous)
    db = os.path.join(workdir, "spark.sqlite")
    assert summary["input_errors"] == list(errors)
    result = subprocess.run([binary, "load", out, "--db", db], capture_output=True, text=True)
    assert result.returncode == (2 if errors else 0), result.stdout + result.stderr
    assert result.stderr == "".join(f"Error: {error}\n" for error in errors)
    assert result.stdout.startswith(f"Loaded {out} (spark "), result.stdout
    return summary, out, db


def binary_path():
    return os.environ.get("PULLPARITY_BIN") or os.path.join(REPO, ".build", "debug", "pullparity")


def quarantined_lines(db):
    """The lines a database quarantined, as `pullparity quarantine --format json` reads them back
    from their compressed blocks (schema version 14): (source, line, byte_offset, category,
    reason, raw, event_id, raw_hash), raw as text or, when not UTF-8, bytes, as the rows of
    earlier versions held it; sorted by source and offset."""
    result = subprocess.run([binary_path(), "quarantine", "--db", db, "--format", "json", "--limit", "0"],
                            capture_output=True)
    assert result.returncode == 0, result.stderr
    import sqlite3
    with sqlite3.connect(db) as conn:
        hashes = dict(conn.execute("SELECT quarantine_id, raw_hash FROM quarantine"))
    rows = [(row["source"], row["line"], row["byte_offset"], row["category"], row["reason"],
             bytes.fromhex(row["raw_hex"]) if "raw_hex" in row else row["raw"], row.get("event_id"),
             hashes[row["quarantine_id"]])
            for row in json.loads(result.stdout)]
    return sorted(rows, key=lambda row: (row[0], row[2]))


def stored_events(db):
    """The events a database stores, as `pullparity export --with-origin` reads them back from
    their compressed blocks (schema version 11): (event_id, session_id, source, line,
    byte_offset, raw bytes), sorted by event_id."""
    result = subprocess.run([binary_path(), "export", "--db", db, "--with-origin"], capture_output=True)
    # An export that matches nothing exits 2 and says so (contract v1.2): a database with no event.
    if result.returncode == 2 and result.stderr == b"Error: no stored event matches the filters; nothing was exported\n":
        return []
    assert result.returncode == 0, result.stderr
    out = result.stdout
    rows = []
    for line in out.splitlines():
        head, _, rest = line.partition(b',"event":')
        origin = json.loads(head + b"}")
        raw = rest[:-1]
        event = json.loads(raw)
        rows.append((event["event_id"], event["session_id"], origin["source"], origin["line"],
                     origin["byte_offset"], raw))
    return sorted(rows, key=lambda row: row[0])
