"""Daily runs (`--append`): a run over one day's log adds to the Parquet dataset the runs of the
days before wrote. Run day by day over a three-day log (daily_log.py), the dataset holds what one
run over all three days writes, and, loaded, what `pullparity ingest` of the three files stores;
running a day again changes no table."""

import collections
import os
import subprocess

from daily_log import DAYS, write_daily_logs
from spark_run import run_and_load
from test_equivalence import QUERIES, SESSION_FIELDS, assert_same, derived_rows, dump, ingest, run_tables

TABLES = ("events", "sessions", "violations", "quarantine", "profiles")
# Their rows go to the partition of the run's first day: a daily run's is its own day's.
RUN_DAY_TABLES = ("quarantine", "profiles")


def dataset(spark, out):
    """Every table of a dataset as a multiset of rows (columns by name), with each row's `day`
    but for the tables partitioned by the run's first day."""
    tables = {}
    for table in TABLES:
        df = spark.read.parquet(f"{out}/parquet/{table}")
        if table in RUN_DAY_TABLES:
            df = df.drop("day")
        df = df.select(*sorted(df.columns))
        tables[table] = collections.Counter(tuple(row) for row in df.collect())
    return tables


def run_day(spark, binary, cwd, name, out, for_load):
    import pullparity_spark
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        return pullparity_spark.run_job(spark, [name], out, binary, for_load=for_load, append=True)
    finally:
        os.chdir(previous)


def load(binary, out, db):
    result = subprocess.run([binary, "load", out, "--db", db], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return dump(db)


def test_daily_runs_add_up_to_one_run_over_all_days_and_to_ingest(spark, binary, tmp_path):
    names = write_daily_logs(str(tmp_path / "days"))
    paths = ["days/" + name for name in names]
    expected = ingest(binary, str(tmp_path), ["days"], str(tmp_path / "ingest.sqlite"))
    _, single_out, single_db = run_and_load(spark, binary, str(tmp_path), ["days"], str(tmp_path / "single"))
    assert_same(expected, dump(single_db))

    out = str(tmp_path / "daily")
    runs = [run_day(spark, binary, str(tmp_path), path, out, for_load=True) for path in paths]
    daily = dataset(spark, out)
    assert daily == dataset(spark, single_out)
    assert run_tables(spark, out) == derived_rows(expected)
    assert_same(expected, load(binary, out, str(tmp_path / "daily.sqlite")))

    # What the log plants, seen in the runs: duplicates and conflicts of the day before, and
    # sessions derived again from two days' events or judged again with the next day's data.
    assert [run["sources"] for run in runs] == [[path] for path in paths]
    assert all(run["duplicates"] > 0 and run["conflicts"] > 0 for run in runs[1:])
    assert runs[1]["already_quarantined"] > 0
    fields = {field: SESSION_FIELDS.index(field) for field in ("session_id", "stuck_refresh", "repeated_refresh",
                                                                "started_at_ms", "ended_at_ms")}
    sessions = {row[0]: row for row in expected["sessions"]}
    assert sessions["stuck-eod"][fields["stuck_refresh"]] == 1
    assert sessions["rep-after"][fields["repeated_refresh"]] == 1
    assert sessions["late-b"][fields["repeated_refresh"]] == 1
    spans = [row for row in expected["sessions"] if row[fields["started_at_ms"]] // 86_400_000
             != row[fields["ended_at_ms"]] // 86_400_000]
    assert len(spans) >= 4 and "three-days" in [row[0] for row in spans]
    days = {row[0]: row[1].isoformat() for row in spark.read.parquet(f"{out}/parquet/sessions")
            .select("session_id", "day").collect()}
    assert set(days.values()) == set(DAYS)
    # The third day's late event of d1s12, a day before its first, moved it to the first day.
    assert runs[1]["sessions_derived"] > 0 and days["d1s12"] == DAYS[0]
    assert runs[1]["sessions_judged_again"] > 0

    # The same day again: every event a duplicate, nothing added or changed.
    again = run_day(spark, binary, str(tmp_path), paths[-1], out, for_load=True)
    assert again["events_stored"] == 0 and again["duplicates"] == runs[-1]["events_stored"] + runs[-1]["duplicates"]
    assert dataset(spark, out) == daily
    reloaded = load(binary, out, str(tmp_path / "again.sqlite"))
    for table in [*QUERIES, "events"]:
        if table != "counts":
            assert reloaded[table] == expected[table], f"{table} differs"
