"""The Spark job, loaded with `pullparity load`, gives the rows a single-machine `pullparity
ingest` of the same files gives: every row of sessions, violations, quarantine, events,
profiles and the dashboard's tables, and the run's counts (session_ref aside: a join key handed
out in first-seen order)."""

import gzip
import json
import os
import re
import sqlite3
import subprocess

import pytest

from chaos import write_chaos
from field_failure_log import JUDGED_AGAIN, VERDICTS
from spark_run import REPO, quarantined_lines, run_and_load, stored_events

SESSION_FIELDS = [
    "session_id", "app", "profile", "profile_version", "platform", "app_version", "os_version", "device", "screen",
    "empty", "outcome", "final_state", "trigger", "time_to_arm_ms", "arm_distance", "client_arm_distance",
    "release_distance", "load_ms", "visible_ms", "flash", "premature_hide", "late_hide", "hold_compliant",
    "label_violations", "arm_mismatch", "load_ok", "max_sample_gap_ms", "max_offset_error", "violation_count",
    "event_count", "started_at_ms", "ended_at_ms", "install_id", "gesture_observed", "stuck_refresh",
    "dropped_refresh", "repeated_refresh", "near_miss", "refresh_started_at_ms", "refresh_ended_at_ms",
    "judge_again_at_ms"]
VIOLATION_FIELDS = ["session_id", "ordinal", "kind", "ts_ms", "expected", "actual"]
SESSION_COLUMNS = ", ".join('"' + field + '"' for field in SESSION_FIELDS)  # "trigger" is an SQL keyword
QUERIES = {
    "sessions": f"SELECT {SESSION_COLUMNS} FROM sessions ORDER BY session_id",
    "violations": f"SELECT {', '.join(VIOLATION_FIELDS)} FROM violations ORDER BY session_id, ordinal",
    "counts": "SELECT lines_read, events_stored, duplicates, conflicts, quarantined, already_quarantined, "
              "blank_lines, sessions_derived FROM ingest_runs",
    "profiles": "SELECT name, version, content_hash, definition FROM profiles ORDER BY name, version",
    "sources": "SELECT name FROM sources ORDER BY name",
    # Schema 16's dashboard tables, which every write keeps: a load writes what an ingest does.
    "gate_verdicts": "SELECT * FROM gate_verdicts ORDER BY app, platform",
    "metric_percentiles": 'SELECT * FROM metric_percentiles ORDER BY app, profile, profile_version, platform, '
                          '"trigger", metric',
    "daily_counts": 'SELECT * FROM daily_counts ORDER BY day, app, platform, "trigger", app_version',
    "daily_violations": "SELECT * FROM daily_violations ORDER BY day, app, platform, kind",
}


def dump(db):
    with sqlite3.connect(db) as conn:
        tables = {name: conn.execute(sql).fetchall() for name, sql in QUERIES.items()}
    # The raw events and quarantined lines are in compressed blocks: read back as `export` and
    # `quarantine` give them, byte for byte.
    tables["events"] = stored_events(db)
    tables["quarantine"] = quarantined_lines(db)
    return tables


def ingest(binary, cwd, paths, db, errors=None):
    """The tables of an ingest of `paths`; it must succeed, or, when `errors` (a list) is given,
    exit 2 naming inputs it could not read to their end: their errors are put in `errors`."""
    result = subprocess.run([binary, "ingest", "--quiet", "--db", db, *paths], cwd=cwd, capture_output=True,
                            text=True)
    assert result.returncode == (0 if errors is None else 2), result.stdout + result.stderr
    if errors is not None:
        errors.extend(line[len("Error: "):] for line in result.stderr.splitlines() if line.startswith("Error: "))
    return dump(db)


def assert_same(expected, got):
    for table in [*QUERIES, "events", "quarantine"]:
        assert got[table] == expected[table], f"{table} differs"
    assert expected["sessions"] and expected["violations"] and expected["quarantine"]


def run_tables(spark, out):
    """The run's own sessions and violations (its Parquet files, what PostgreSQL is loaded from),
    in the SQLite queries' columns and order: `load` judges across sessions again, so only these
    show what the job itself did."""
    def rows(table, fields):
        return sorted(tuple(row) for row in spark.read.parquet(f"{out}/parquet/{table}").select(*fields).collect())
    return {"sessions": rows("sessions", SESSION_FIELDS), "violations": rows("violations", VIOLATION_FIELDS)}


def derived_rows(tables):
    return {table: tables[table] for table in ("sessions", "violations")}


def test_sample_events(sample_run, spark, binary, tmp_path):
    summary, out, db = sample_run
    expected = ingest(binary, REPO, ["sample-events"], str(tmp_path / "ingest.sqlite"))
    assert_same(expected, dump(db))
    assert run_tables(spark, out) == derived_rows(expected)
    # The samples' padel sessions whose log stops mid-refresh while later ones go on (defects H1
    # and H2 of sample-events/EXPECTED.json): stuck once the data has moved past them.
    stuck = SESSION_FIELDS.index("stuck_refresh")
    assert sum(row[stuck] == 1 for row in expected["sessions"]) == 8
    # Each phase's cost comes from Spark's own metrics, not from passes made to time it.
    timings = summary["timings"]
    assert list(timings) == ["decode", "dedup", "derive", "judge_across_sessions", "write"]
    assert all(timings[phase]["task_s"] > 0 for phase in ("decode", "dedup", "derive", "write"))
    assert timings["dedup"]["shuffle_write_mb"] > 0 and timings["write"]["output_mb"] > 0
    # The dataset: Parquet partitioned by the day of each session's first event.
    days = {row[0] for row in spark.read.parquet(f"{out}/parquet/events").select("day").distinct().collect()}
    starts = {row[0] for row in spark.read.parquet(f"{out}/parquet/sessions")
              .selectExpr("to_date(timestamp_millis(cast(started_at_ms as long)))").distinct().collect()}
    assert days == starts and len(days) >= 1


def test_the_runs_own_tables_judge_across_sessions_as_ingest(field_failure_run, spark, binary, tmp_path):
    """Stuck and dropped refreshes the data has moved past, one at its edge and one on a platform
    whose data stops sooner, and refreshes of one install within 1000 ms of the one before: the
    job's own tables hold ingest's verdicts, having derived again only the sessions they need."""
    summary, out, db, folder = field_failure_run
    expected = ingest(binary, folder, ["field-failures.jsonl"], str(tmp_path / "ingest.sqlite"))
    flags = [SESSION_FIELDS.index(field) for field in ("stuck_refresh", "dropped_refresh", "repeated_refresh")]
    assert {row[0]: tuple(row[i] for i in flags) for row in expected["sessions"]} == VERDICTS
    assert run_tables(spark, out) == derived_rows(expected)
    loaded = dump(db)
    for table in [*QUERIES, "events", "quarantine"]:  # (this log has no bad lines: assert_same wants some)
        assert loaded[table] == expected[table], f"{table} differs"
    assert summary["sessions_judged_again"] == len(JUDGED_AGAIN)


def test_chaos_log_split_across_files(spark, binary, tmp_path):
    write_chaos(str(tmp_path / "chaos"))
    expected = ingest(binary, str(tmp_path), ["chaos"], str(tmp_path / "ingest.sqlite"))
    summary, _, db = run_and_load(spark, binary, str(tmp_path), ["chaos"], str(tmp_path / "spark"))
    assert_same(expected, dump(db))
    # The chaos log plants every case the job must reproduce.
    lines, events, duplicates, conflicts, quarantined, again, blank, sessions = expected["counts"][0]
    assert duplicates > 0 and conflicts > 0 and quarantined > 0 and again > 0
    categories = {row[3] for row in expected["quarantine"]}
    assert {"conflict", "not_json", "invalid_utf8"} <= categories
    stored_session = {row[0]: row[1] for row in expected["events"]}
    twins = [row for row in expected["quarantine"]
             if row[3] == "conflict" and json.loads(row[5])["session_id"] != stored_session[row[6]]]
    assert twins, "an event_id under a second session_id is quarantined as a conflict"
    assert "chaos/part-d.jsonl.gz" in [row[0] for row in expected["sources"]]
    assert summary["blank_lines"] >= 1


def test_a_file_read_in_many_splits_is_numbered_across_them(spark, binary, tmp_path):
    """Files that Spark reads in several splits (of 4 KB here; 128 MB by default) have their
    lines numbered, and their byte offsets counted, on from split to split, after a byte order
    mark and up to a last line without `\\n`, with CRLF lines and a line that is not UTF-8
    among them: every decoded line as when each file is one split (which the tests above hold
    to ingest's tables)."""
    import pullparity_spark
    from pyspark.sql import functions as F
    write_chaos(str(tmp_path / "chaos"))
    lines = open(os.path.join(REPO, "sample-events", "padel-ios-2.jsonl"), "rb").read().split(b"\n")
    (tmp_path / "chaos" / "z-bom.jsonl").write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines[:80]))
    pullparity_spark.ship_module(spark, spark.sparkContext)  # as run_job does, for the workers
    names = pullparity_spark.expand_inputs([str(tmp_path / "chaos")])

    def decoded():
        files = pullparity_spark.input_files(spark, names, "/")
        splits = pullparity_spark.input_rows(spark, files).select("_file", "_block").distinct().count()
        rows, cache, kinds, errors = pullparity_spark.decode_inputs(spark, names, binary, "/")
        found = sorted(tuple(row) for row in rows.select(*[F.col(c).cast("string") for c in rows.columns]).collect())
        cache.unpersist()
        return splits, found, kinds, errors

    whole = decoded()
    spark.conf.set("spark.sql.files.maxPartitionBytes", "4096")
    try:
        split = decoded()
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    assert whole[0] == len(names) and split[0] > 4 * len(names)
    assert split[1:] == whole[1:] and any(row[0] == "rejected" for row in whole[1])


def test_load_again_stores_nothing_new(sample_run, binary, tmp_path):
    """A run loaded into a database that holds it already: every event a duplicate, every bad
    line quarantined already, no session written, the tables as they were."""
    _, out, db = sample_run
    copy = tmp_path / "again.sqlite"
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    before = dump(str(copy))
    result = subprocess.run([binary, "load", out, "--db", str(copy)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    after = dump(str(copy))
    for table in [*QUERIES, "events", "quarantine"]:
        if table != "counts":
            assert after[table] == before[table], f"{table} differs"
    lines, events, duplicates, conflicts, quarantined, again, blank, sessions = after["counts"][-1]
    first = after["counts"][0]
    assert (events, conflicts, quarantined, sessions) == (0, 0, 0, 0)
    assert duplicates == first[1] + first[2] and again == first[4] + first[3] + first[5]


def test_a_run_loaded_leaving_its_events(sample_run, binary, tmp_path):
    """`load --leave-events`: the rows a normal load stores but no raw event; `session` and
    `replay` with `--read-events` read the events back from the run directory and print and
    derive what they do on the normally loaded file (the samples' stuck refreshes included,
    which the replay judges across sessions again)."""
    _, out, db = sample_run
    left = str(tmp_path / "left.sqlite")
    result = subprocess.run([binary, "load", out, "--leave-events", "--db", left], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    loaded, expected = dump(left), dump(db)
    assert loaded["events"] == [] and expected["events"]
    for table in [*QUERIES, "quarantine"]:
        if table != "counts":
            assert loaded[table] == expected[table], f"{table} differs"
    stuck = [row[0] for row in expected["sessions"] if row[SESSION_FIELDS.index("stuck_refresh")] == 1]
    for session in stuck[:2]:
        normal = subprocess.run([binary, "session", session, "--db", db], capture_output=True, text=True)
        read = subprocess.run([binary, "session", session, "--read-events", "--db", left], capture_output=True,
                              text=True)
        assert read.returncode == 0 and read.stdout == normal.stdout, read.stderr
    copy = str(tmp_path / "normal.sqlite")
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    for file, flags in ((copy, []), (left, ["--read-events"])):
        result = subprocess.run([binary, "replay", *flags, "--db", file], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
    replayed, expected = dump(left), dump(copy)
    for table in ("sessions", "violations"):
        assert replayed[table] == expected[table], f"{table} differs after replay --read-events"


def test_a_days_run_added_to_the_days_before(spark, binary, tmp_path):
    """The chaos log's first two files as day 1's run, its last two as day 2's, each loaded in
    turn into one database (sessions, duplicates and conflicts across the days): the tables of
    one run over all four files loaded into a new file, and of an ingest of all four."""
    write_chaos(str(tmp_path / "chaos"))
    names = sorted(os.listdir(tmp_path / "chaos"))
    days = [[f"chaos/{name}" for name in names[:2]], [f"chaos/{name}" for name in names[2:]]]
    expected = ingest(binary, str(tmp_path), ["chaos"], str(tmp_path / "ingest.sqlite"))
    _, _, both = run_and_load(spark, binary, str(tmp_path), ["chaos"], str(tmp_path / "both"))
    _, _, db = run_and_load(spark, binary, str(tmp_path), days[0], str(tmp_path / "day1"))
    _, day2, _ = run_and_load(spark, binary, str(tmp_path), days[1], str(tmp_path / "day2"))
    result = subprocess.run([binary, "load", day2, "--db", db], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    added = dump(db)
    for table in [*QUERIES, "events", "quarantine"]:
        if table != "counts":
            assert added[table] == expected[table], f"{table} differs from ingest's"
    assert derived_rows(added) == derived_rows(dump(both))
    # Day 2 goes on with day 1's sessions, and holds conflicts with its events.
    stored, _, conflicts = added["counts"][1][1], added["counts"][1][2], added["counts"][1][3]
    assert stored > 0 and conflicts > 0


def test_file_names_hadoop_would_read_as_globs(spark, binary, tmp_path):
    """Hadoop reads an input path as a glob in a comma-separated list: files named with
    brackets, braces, a star, a backslash or a comma are still read as themselves."""
    lines = open(os.path.join(REPO, "sample-events", "padel-pwa.jsonl"), encoding="utf-8").read().splitlines()
    names = ["d[1].jsonl", "e,f.jsonl", "g{h}.jsonl", "star*.jsonl", "back\\slash.jsonl"]
    folder = tmp_path / "odd"
    folder.mkdir()
    for index, name in enumerate(names):
        part = lines[index::len(names)] + (["not json"] if index == 0 else [])
        (folder / name).write_text("\n".join(part) + "\n", encoding="utf-8")
    expected = ingest(binary, str(tmp_path), ["odd"], str(tmp_path / "ingest.sqlite"))
    _, _, db = run_and_load(spark, binary, str(tmp_path), ["odd"], str(tmp_path / "spark"))
    assert_same(expected, dump(db))
    assert sorted(row[0] for row in expected["sources"]) == sorted("odd/" + name for name in names)


def test_a_name_hadoop_hides_is_refused_by_name(tmp_path):
    import pullparity_spark
    (tmp_path / "a.jsonl").write_text("{}\n", encoding="utf-8")
    (tmp_path / "_b.jsonl").write_text("{}\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"_b\.jsonl: Hadoop does not read a file whose name starts with '_'"):
        pullparity_spark.expand_inputs([str(tmp_path)])


def write_damaged_gzip_logs(folder):
    """Good inputs (plain with bad lines, gzip) around a gzip file damaged in the middle of its
    deflate data and one cut short. Returns the damaged and the cut file's lines when whole."""
    sample = os.path.join(REPO, "sample-events")
    folder.mkdir()
    (folder / "a-bad-lines.jsonl").write_bytes(open(os.path.join(sample, "bad-lines.jsonl"), "rb").read())
    whole = open(os.path.join(sample, "ffci-ios.jsonl.gz"), "rb").read()
    middle = len(whole) // 2
    (folder / "b-damaged.jsonl.gz").write_bytes(whole[:middle] + b"\xff" * 16 + whole[middle + 16:])
    padel = gzip.compress(open(os.path.join(sample, "padel-pwa.jsonl"), "rb").read(), mtime=0)
    (folder / "c-cut.jsonl.gz").write_bytes(padel[:len(padel) * 3 // 5])
    (folder / "d-good.jsonl.gz").write_bytes(
        gzip.compress(open(os.path.join(sample, "phlock-ios.jsonl"), "rb").read(), mtime=0))
    # What ingest looks at before reading: a UTF-8 byte order mark (skipped), UTF-16 (refused).
    second = open(os.path.join(sample, "padel-ios-2.jsonl"), "rb").read()
    (folder / "e-bom.jsonl").write_bytes(b"\xef\xbb\xbf" + second)
    (folder / "f-utf16.jsonl").write_bytes(second[:2000].decode("utf-8").encode("utf-16"))
    (folder / "g-utf16.jsonl.gz").write_bytes(gzip.compress(second[:2000].decode("utf-8").encode("utf-16-be")))
    return {name: len(gzip.decompress(data).splitlines())
            for name, data in (("logs/b-damaged.jsonl.gz", whole), ("logs/c-cut.jsonl.gz", padel))}


def renamed(tables, name):
    """`tables` with every source name mapped by `name` (the columns that hold one)."""
    column = {"quarantine": 0, "events": 2, "sources": 0}
    return {table: [row[:column[table]] + (name(row[column[table]]),) + row[column[table] + 1:] for row in rows]
            if table in column else rows for table, rows in tables.items()}


@pytest.mark.parametrize("given", ["local path", "file:// URI"])
def test_a_damaged_or_cut_gzip_input_ends_only_itself(spark, binary, tmp_path, given):
    """Hadoop's gzip reader fails the whole job on a damaged or cut `.gz`; the job reads gzip
    inputs itself, and, as ingest, keeps the complete lines before the damage, reads the other
    inputs, and names the damaged ones in the run summary, which load reports with exit 2.
    UTF-16 inputs, plain or gzip, are named the same way and not read; after a UTF-8 byte order
    mark the first line is at byte 3, as in ingest. Each file given as a URI (read through
    Hadoop's FileSystem) gives the same, named as given."""
    whole_lines = write_damaged_gzip_logs(tmp_path / "logs")
    errors = []
    expected = ingest(binary, str(tmp_path), ["logs"], str(tmp_path / "ingest.sqlite"), errors)
    assert errors[0].startswith("logs/b-damaged.jsonl.gz: not valid gzip data, damaged near compressed byte ")
    assert errors[1].startswith("logs/c-cut.jsonl.gz: the gzip stream is truncated")
    assert errors[2:] == [
        "logs/f-utf16.jsonl: the file is UTF-16 (little-endian), not UTF-8: nothing was read from it "
        "(convert it with `iconv -f UTF-16 -t UTF-8`)",
        "logs/g-utf16.jsonl.gz: the file is UTF-16 (big-endian), not UTF-8: nothing was read from it "
        "(convert it with `iconv -f UTF-16 -t UTF-8`)"]
    prefix = f"file://{tmp_path}/" if given == "file:// URI" else ""

    def name(source):
        return prefix + source

    files = [row[0] for row in expected["sources"]]
    paths = [name(source) for source in files] if prefix else ["logs"]
    errors = [name(error) for error in errors]
    summary, _, db = run_and_load(spark, binary, str(tmp_path), paths, str(tmp_path / "spark"), errors)
    assert summary["sources"] == [name(source) for source in files]
    got = dump(db)
    assert_same(renamed(expected, name), got)
    last_line = {}
    for event in got["events"]:
        last_line[event[2]] = max(last_line.get(event[2], 0), event[3])
    assert set(last_line) == {name(source) for source in (
        "logs/a-bad-lines.jsonl", *whole_lines, "logs/d-good.jsonl.gz", "logs/e-bom.jsonl")}
    first_offsets = [event[4] for event in got["events"] if event[2] == name("logs/e-bom.jsonl") and event[3] == 1]
    assert first_offsets == [3]
    for source, lines in whole_lines.items():
        assert 100 < last_line[name(source)] < lines, f"{source}: the lines before the damage, not after"


def test_a_folder_or_a_glob_given_as_a_uri_is_read_file_by_file(spark, binary, tmp_path):
    """A URI that names a folder or a glob is read file by file by the same rules (Hadoop's
    hidden names and subfolders aside), under the name as given; an error names its file; a
    line that is not UTF-8 keeps its bytes, as ingest reads it."""
    import pullparity_spark
    write_damaged_gzip_logs(tmp_path / "logs")
    pullparity_spark.ship_module(spark, spark.sparkContext)  # as run_job does, for the workers
    files = pullparity_spark.expand_inputs([str(tmp_path / "logs")])
    _, cache, kinds, errors = pullparity_spark.decode_inputs(spark, files, binary, "/")
    lines_read = kinds["lines"]
    cache.unpersist()
    assert len(errors) == 4
    (tmp_path / "logs" / "_SUCCESS").write_bytes(b"\x1f\x8b not read")
    for folder in ("sub", "_temporary"):
        (tmp_path / "logs" / folder).mkdir()
        (tmp_path / "logs" / folder / "h.jsonl").write_bytes(b"not read\n")
    not_utf8 = open(os.path.join(REPO, "sample-events", "bad-lines.jsonl"), "rb").read().split(b"\n")[59]
    for given in (f"file://{tmp_path}/logs", f"file://{tmp_path}/logs/*.jsonl*"):
        found = pullparity_spark.input_files(spark, [given], "/")
        assert [(file.source, file.label, file.uri) for file in found] == [(given, "file:" + path, "file:" + path)
                                                                           for path in files]
        rows, cache, kinds, named = pullparity_spark.decode_inputs(spark, [given], binary, "/")
        assert (kinds["lines"], named) == (lines_read, ["file:" + error for error in errors])
        decoded = rows.collect()
        cache.unpersist()
        assert [(row["source"], row["line"], row["raw_hex"]) for row in decoded if row["kind"] == "rejected"
                and row["category"] == "invalid_utf8"] == [(given, 60, not_utf8.hex())]
    for nothing in ("_SUCCESS", "_*", "nothing.jsonl", "*.ndjson"):
        with pytest.raises(SystemExit, match="^" + re.escape(f"file://{tmp_path}/logs/{nothing}: no file found ")):
            pullparity_spark.input_files(spark, [f"file://{tmp_path}/logs/{nothing}"], "/")


def test_the_job_exits_2_naming_the_inputs_it_could_not_read_to_their_end(capsys):
    import pullparity_spark
    assert pullparity_spark.exit_status({"input_errors": []}) == 0
    assert pullparity_spark.exit_status({"input_errors": ["a.gz: cut", "b\x1b.gz: cut"]}) == 2
    assert capsys.readouterr().err == "Error: a.gz: cut\nError: b\\u{1b}.gz: cut\n"
